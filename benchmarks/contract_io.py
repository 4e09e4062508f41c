"""The batch loop the contract adapters share: the JSON handling of ``mjspec score --jsonl``.

An adapter answers requests exactly as the CLI's batch path reads and writes
them, so that a timing of whole processes compares the scorers and not two
ways of handling JSON or of writing. Today ``score_jsonl`` (app/batch.py)
reads standard input a chunk at a time (whatever has arrived, at most 64 KB),
parses each line with the standard ``json`` module (a line that is not JSON
answers an error naming the line), writes ``json.dumps(answer,
ensure_ascii=False)`` and a newline, and writes and flushes the answers of a
chunk together once the chunk's lines are answered, before reading more (so
a client writing one line at a time is answered line by line); :func:`serve`
does the same. (mjspec's native line loop reads the plain lines' JSON in C;
its Python path, the one errors take, uses ``json`` as here.) Blank lines are
skipped: the corpora have none.

When the environment holds ``MJSPEC_BENCH_JSON=orjson`` the loop uses
``orjson`` instead (``orjson.loads`` of each line, ``orjson.dumps`` of each
answer, the same chunked writing): bench_contract.py sets it when mjspec's
own batch path imports orjson, so both sides keep the same JSON handling if
the CLI switches. This module imports no mjspec code.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

Answer = Callable[[Any], dict[str, Any]]


CHUNK_BYTES = 64 * 1024  # app/batch.py CHUNK_BYTES


def chunks_of_lines() -> Iterator[list[bytes]]:
    """The lines of standard input (bytes, without their line ends), one list per chunk read."""
    read = sys.stdin.buffer.read1
    pending = b""
    while True:
        chunk = read(CHUNK_BYTES)
        if not chunk:
            break
        parts = chunk.split(b"\n")
        parts[0] = pending + parts[0]
        pending = parts.pop()
        if parts:
            yield parts
    if pending:
        yield [pending]


def serve(answer: Answer) -> int:
    """Answer every request line of stdin on stdout, one line each, written a chunk at a time."""
    if os.environ.get("MJSPEC_BENCH_JSON", "json") == "orjson":
        import orjson

        def read(n: int, line: bytes) -> Any:
            try:
                return orjson.loads(line)
            except orjson.JSONDecodeError as e:
                return Refused(f"line {n}: not JSON: {e}")

        def write(answered: dict[str, Any]) -> bytes:
            return orjson.dumps(answered) + b"\n"

        return _serve(answer, read, write)
    return _serve(answer, _read_json, _write_json)


class Refused:
    """A line that is no request: the error it answers."""

    def __init__(self, error: str) -> None:
        self.error = error


def _read_json(n: int, line: bytes) -> Any:
    try:
        return json.loads(line.decode("utf-8"))
    except json.JSONDecodeError as e:
        return Refused(f"line {n}: not JSON: {e.msg} at column {e.colno}")
    except UnicodeDecodeError as e:
        return Refused(f"line {n}: not UTF-8 text (byte {e.start + 1})")


def _write_json(answered: dict[str, Any]) -> bytes:
    return (json.dumps(answered, ensure_ascii=False) + "\n").encode("utf-8")


def _serve(
    answer: Answer, read: Callable[[int, bytes], Any], write: Callable[[dict[str, Any]], bytes]
) -> int:
    stdout = sys.stdout.buffer
    n = 0
    for lines in chunks_of_lines():
        out = []
        for line in lines:
            n += 1
            if not line.strip():
                continue
            raw = read(n, line)
            out.append(write({"error": raw.error} if isinstance(raw, Refused) else answer(raw)))
        stdout.write(b"".join(out))
        stdout.flush()
    return 0
