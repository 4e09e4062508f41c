"""The batch form of contracts/scoring.md: ``mjspec score --jsonl``.

Every input line gets exactly one answer line, in order, whatever the line holds: an empty line,
bytes that are not UTF-8, JSON nested 100,000 deep, a number of 5,000 digits, a line of 50 MB. A bad
line answers ``{"error": ...}`` and the batch goes on. Input is read in bounded chunks, so a line
longer than :data:`MAX_LINE_BYTES` is refused without ever being held in memory whole. Answers are
flushed whenever the input read so far is answered (see :func:`score_jsonl`). :func:`score_request`
answers one parsed request; everything around it (lines, JSON, limits, writing) is here, and the
lines the native line loop (runtime/native/batch.c) is certain of are answered there, to the same
bytes.
"""

from __future__ import annotations

import io
import json
import sys
from typing import Any, BinaryIO, Callable, Iterator, TextIO, cast

from mjspec.runtime.context import ContextError
from mjspec.runtime.native_contract import contract_line, native_lines, score_contract
from mjspec.runtime.options import OptionError
from mjspec.app.registry import UnknownProfile, load_profile
from mjspec.runtime.request import RequestError, parse_request
from mjspec.runtime.scoring import HandError, evaluate

#: The longest request line answered (a full request is a few hundred bytes); longer lines are
#: refused.
MAX_LINE_BYTES = 64 * 1024
#: How much input is read at a time.
CHUNK_BYTES = 64 * 1024
#: The deepest nesting of arrays and objects a request may have (a request needs 4: request, melds,
#: meld, options).
MAX_DEPTH = 8


class StreamError(Exception):
    """Standard input cannot be read, or standard output is closed: the batch cannot run (exit
    status 2)."""


class OversizeLine:
    """A line longer than the limit, skipped unread; only its length is kept."""

    __slots__ = ("length",)

    def __init__(self, length: int) -> None:
        self.length = length


def request_blocks(
    read: Callable[[int], bytes], limit: int = MAX_LINE_BYTES
) -> Iterator[list[bytes | OversizeLine]]:
    """The lines of a byte stream, as one list per chunk read: each line without its line end,
    or an :class:`OversizeLine`; a chunk that ends no line gives no list.

    At most ``limit`` plus one chunk is held at once: the part of a line past the
    limit is dropped as it arrives. A last line without a newline is still a line.
    """
    pending = b""
    skipped = -1  # bytes dropped from an oversize line in progress; -1: none in progress
    while True:
        chunk = read(CHUNK_BYTES)
        if not chunk:
            break
        parts = chunk.split(b"\n")
        block: list[bytes | OversizeLine] = []
        for part in parts[:-1]:
            if skipped >= 0:
                block.append(OversizeLine(skipped + len(part)))
                skipped = -1
                continue
            line = pending + part if pending else part
            pending = b""
            block.append(OversizeLine(len(line)) if len(line) > limit else line)
        if block:
            yield block
        tail = parts[-1]
        if skipped >= 0:
            skipped += len(tail)
        else:
            pending += tail
            if len(pending) > limit:
                skipped, pending = len(pending), b""
    if skipped >= 0:
        yield [OversizeLine(skipped)]
    elif pending:
        yield [pending]


def request_lines(
    read: Callable[[int], bytes], limit: int = MAX_LINE_BYTES
) -> Iterator[bytes | OversizeLine]:
    """Each line of a byte stream without its line end, or an :class:`OversizeLine` (see
    :func:`request_blocks`)."""
    for block in request_blocks(read, limit):
        yield from block


def score_request(request: dict[str, Any]) -> dict[str, Any]:
    """Answer one contract request (a parsed JSON value); a bad request answers ``{"error":
    ...}``."""
    if not isinstance(request, dict):
        return {"error": "a request must be a JSON object"}
    try:
        profile = load_profile(request.get("profile", ""))
        # A plain request is read, scored and answered natively; any other, and every error, here.
        answer = score_contract(profile, request)
        if answer is not None:
            return answer
        hand, ctx = parse_request(profile, request)
        return evaluate(profile, hand, ctx).to_contract()
    except (UnknownProfile, RequestError, HandError, ContextError, OptionError) as e:
        return {"error": str(e)}
    except NotImplementedError as e:
        return {"error": f"not implemented: {e}"}


def answer_line(n: int, line: bytes | OversizeLine) -> dict[str, Any] | bytes:
    """The answer to input line ``n``: the contract's answer, or an error naming the line and
    why."""
    if isinstance(line, OversizeLine):
        return {
            "error": f"line {n}: longer than {MAX_LINE_BYTES} bytes ({line.length}); refused unread"
        }
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as e:
        return {"error": f"line {n}: not UTF-8 text (byte {e.start + 1})"}
    if not text.strip():
        return {"error": f"line {n}: empty line; each line must be one JSON request"}
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        return {"error": f"line {n}: not JSON: {e.msg} at column {e.colno}"}
    except RecursionError:
        return {"error": f"line {n}: nested more than {MAX_DEPTH} deep"}
    except ValueError:  # an integer past Python's limit on digits converted (4,300 by default)
        return {"error": f"line {n}: a number has more than {sys.get_int_max_str_digits()} digits"}
    # Nesting deeper than MAX_DEPTH needs more opening brackets than that: count them (in C) first.
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(raw) > MAX_DEPTH:
        return {"error": f"line {n}: nested more than {MAX_DEPTH} deep"}
    try:
        if type(raw) is dict and type(raw.get("profile")) is str:
            # A plain request is answered natively, already written as its line (the same bytes).
            line_out = contract_line(load_profile(raw["profile"]), raw)
            if line_out is not None:
                return line_out
        return score_request(raw)
    except UnknownProfile as e:
        return {"error": str(e)}
    except (
        Exception
    ) as e:  # noqa: BLE001 - an engine defect must cost one line, not the rest of the batch
        return {"error": f"line {n}: internal error: {type(e).__name__}: {e}"}


def _depth(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (iteratively: no recursion limit to meet)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if depth > MAX_DEPTH:
            return depth
        stack.extend((child, depth + 1) for child in children)
    return deepest


#: ``json.dumps(answer, ensure_ascii=False)`` without building an encoder per call (the same bytes).
_encode = json.JSONEncoder(ensure_ascii=False).encode


def encode_answer(n: int, answer: dict[str, Any] | bytes) -> bytes:
    """One answer as a UTF-8 JSON line (a native answer comes written already); an answer that
    cannot be written becomes an error line."""
    if type(answer) is bytes:
        return answer
    assert isinstance(answer, dict)
    try:
        return (_encode(answer) + "\n").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate echoed from the request: escape it
        return (json.dumps(answer) + "\n").encode("ascii")
    except (ValueError, TypeError, RecursionError) as e:
        fallback = {"error": f"line {n}: the answer cannot be written: {type(e).__name__}: {e}"}
        return (json.dumps(fallback, ensure_ascii=False) + "\n").encode("utf-8", "backslashreplace")


def _reading(read: Callable[[int], bytes]) -> Callable[[int], bytes]:
    """``read``, with a failure to read stdin made a :class:`StreamError` (the only way the batch
    fails)."""

    def guarded(size: int) -> bytes:
        try:
            return read(size)
        except OSError as e:
            raise StreamError(f"cannot read standard input: {e.strerror or e}") from None

    return guarded


def score_jsonl(stdin: BinaryIO | TextIO, stdout: BinaryIO | TextIO) -> int:
    """Answer every line of ``stdin`` on ``stdout``, one line each, in order; exit status 0.

    Answers are written (and flushed) each time the input read so far is answered, before
    waiting for more: a client that writes one line and waits for its answer gets it at once,
    and a file or a full pipe is answered a chunk of lines (64 KB of input) per write. Lines the
    native line loop (runtime/native/batch.c) can answer are answered there; every other line,
    and every error, by :func:`answer_line`, in order.

    Raises :class:`StreamError` when stdin cannot be read or stdout is closed."""
    if stdin is None or stdout is None:  # Python sets a closed standard stream to None
        raise StreamError(f"standard {'input' if stdin is None else 'output'} is closed")
    source = getattr(stdin, "buffer", stdin)
    read: Callable[[int], bytes]
    if isinstance(source, io.TextIOBase):  # a text stream without bytes beneath (io.StringIO)
        text_source = source

        def read(size: int) -> bytes:
            return text_source.read(size).encode("utf-8", "surrogateescape")

    else:
        # read1: whatever has arrived, at most one chunk, so a line is answered as soon as it is
        # whole
        read = cast(Callable[[int], bytes], getattr(source, "read1", source.read))
    read = _reading(read)
    sink = getattr(stdout, "buffer", stdout)
    text_sink = isinstance(sink, io.TextIOBase)
    native = native_lines(MAX_DEPTH, load_profile)
    done = 0  # lines answered before this block
    for block in request_blocks(read):
        out: list[bytes] = []
        i = 0
        while i < len(block):
            if native is not None:
                data, i = native(block, i)
                out.append(data)
                if i == len(block):
                    break
            out.append(encode_answer(done + i + 1, answer_line(done + i + 1, block[i])))
            i += 1
        data = b"".join(out)
        sink.write(data.decode("utf-8") if text_sink else data)  # type: ignore[arg-type]
        sink.flush()
        done += len(block)
    return 0
