"""The batch contract under hostile input: one answer line per input line, in order, never a
traceback.

The fuzz tests start from every spec example of every profile (each a valid
request) and mutate it: wrong types, huge and negative numbers, deep nesting,
unknown fields, truncated JSON, stray bytes. The default run is bounded to a few
seconds; ``-m slow`` runs many more examples.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import tracemalloc
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjspec.app.batch import (
    CHUNK_BYTES,
    MAX_LINE_BYTES,
    OversizeLine,
    encode_answer,
    request_lines,
    score_jsonl,
)
from mjspec.runtime.context import MAX_COUNT
from mjspec.app.registry import load_profile, profile_ids

from conftest import ROOT

VALID = {
    "profile": "riichi_planet",
    "concealed": "234m345m456p678s6p",
    "win_tile": "6p",
    "win": "ron",
    "context": {"riichi": True},
}


def example_requests() -> list[dict[str, Any]]:
    """Every spec example of every profile, as a contract request."""
    out = []
    for pid in profile_ids():
        for ex in load_profile(pid).examples:
            melds = [
                {"type": m.type, "tiles": m.tiles, **({"from": m.source} if m.source else {})}
                for m in ex.melds
            ]
            out.append(
                {
                    "profile": pid,
                    "concealed": ex.concealed,
                    "melds": melds,
                    "win_tile": ex.win_tile,
                    "win": ex.win,
                    "context": dict(ex.context),
                }
            )
    return out


EXAMPLES = example_requests()


def run_batch(data: bytes) -> list[dict[str, Any]]:
    """Answers of the in-process batch for ``data``; each answer line must be one JSON object."""
    out = io.BytesIO()
    assert score_jsonl(io.BytesIO(data), out) == 0
    text = out.getvalue().decode("utf-8")
    assert text == "" or text.endswith("\n")
    answers = [json.loads(line) for line in text.splitlines()]
    assert all(isinstance(a, dict) for a in answers)
    return answers


def input_lines(data: bytes) -> int:
    """How many lines the contract sees in ``data`` (a last line without a newline counts)."""
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def test_every_example_is_answered_like_its_spec_says() -> None:
    answers = run_batch(b"".join(json.dumps(r).encode() + b"\n" for r in EXAMPLES))
    assert len(answers) == len(EXAMPLES)
    for request, answer in zip(EXAMPLES, answers):
        assert "legal" in answer, (request, answer)


def test_hostile_lines_through_the_console_script() -> None:
    valid = json.dumps(VALID).encode()
    lines = [
        valid,
        b"",  # an empty line answers an error: answer N stays with request N
        b"   \t",
        b'{"profile": "riichi_planet", "context": {"honba": ' + b"9" * 5000 + b"}}",
        b"[" * 100_000,
        json.dumps({**VALID, "context": {"honba": 10**4299}}).encode(),
        b"\xff\xfe not utf-8",
        b'{"profile": "x", "concealed": "' + b"1" * (MAX_LINE_BYTES + 10) + b'"}',
        valid[:25],
        b'"just a string"',
        valid,
    ]
    data = b"\n".join(lines)  # the last line has no newline: still a line
    res = subprocess.run(
        [sys.executable, "-m", "mjspec.app.cli", "score", "--jsonl"],
        input=data,
        capture_output=True,
        cwd=ROOT,
    )
    assert res.returncode == 0
    assert b"Traceback" not in res.stderr and res.stderr == b""
    answers = [json.loads(line) for line in res.stdout.decode("utf-8").splitlines()]
    assert len(answers) == len(lines)
    assert answers[0] == answers[-1] and answers[0]["legal"] is True
    errors = [a.get("error", "") for a in answers[1:-1]]
    assert errors[0] == "line 2: empty line; each line must be one JSON request"
    assert errors[1].startswith("line 3: empty line")
    assert errors[2] == "line 4: a number has more than 4300 digits"
    assert errors[3] == "line 5: longer than 65536 bytes (100000); refused unread"
    assert errors[4].startswith("context.honba must be a whole number from 0 to 100")
    assert errors[5] == "line 7: not UTF-8 text (byte 1)"
    assert errors[6].startswith("line 8: longer than 65536 bytes")
    assert errors[7].startswith("line 9: not JSON")
    assert errors[8] == "a request must be a JSON object"


def test_deep_nesting_within_the_size_limit() -> None:
    answers = run_batch(b"[" * 60_000 + b"\n" + b'{"a": ' * 20 + b"1" + b"}" * 20 + b"\n")
    assert [a["error"] for a in answers] == ["line 1: nested more than 8 deep"] * 1 + [
        "line 2: nested more than 8 deep"
    ]


@pytest.mark.parametrize("key", ["honba", "riichi_sticks", "dealer_wins"])
@pytest.mark.parametrize("value", [-1, MAX_COUNT + 1, 10**40, 1.5, "3", True, None])
def test_counts_out_of_range_are_errors_naming_the_field(key: str, value: object) -> None:
    [answer] = run_batch(json.dumps({**VALID, "context": {key: value}}).encode() + b"\n")
    assert answer["error"].startswith(f"context.{key} must be a whole number from 0 to {MAX_COUNT}")


def test_counts_at_the_bounds_are_answered() -> None:
    answers = run_batch(
        b"".join(
            json.dumps({**VALID, "context": {"honba": n, "riichi_sticks": n}}).encode() + b"\n"
            for n in (0, MAX_COUNT)
        )
    )
    low, high = (a["payments"]["discarder"] for a in answers)
    assert high - low == 300 * MAX_COUNT  # riichi_planet: +300 a honba on a ron


def test_an_answer_that_cannot_be_written_becomes_an_error_line() -> None:
    line = encode_answer(3, {"legal": True, "total": 10**5000})
    answer = json.loads(line)
    assert answer["error"].startswith("line 3: the answer cannot be written: ValueError")
    assert json.loads(encode_answer(1, {"error": "bad \udcff"})) == {"error": "bad \udcff"}


def test_a_long_line_is_never_held_in_memory() -> None:
    """A 50 MB line is skipped as it streams in: memory stays near one chunk, the next line is
    answered."""
    total = 50 * 1024 * 1024

    def chunks() -> Iterator[bytes]:
        block = b"1" * CHUNK_BYTES
        for _ in range(total // CHUNK_BYTES):
            yield block
        yield b"\n" + json.dumps(VALID).encode() + b"\n"

    source = chunks()
    tracemalloc.start()
    try:
        lines = list(request_lines(lambda _size: next(source, b"")))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert isinstance(lines[0], OversizeLine) and lines[0].length == total
    assert lines[1:] == [json.dumps(VALID).encode()]
    assert peak < MAX_LINE_BYTES + 4 * CHUNK_BYTES


def test_lines_split_across_chunks_are_whole() -> None:
    data = b"".join(json.dumps(r).encode() + b"\n" for r in EXAMPLES[:40])
    pieces = iter([data[i : i + 7] for i in range(0, len(data), 7)])
    lines = list(request_lines(lambda _size: next(pieces, b"")))
    assert lines == data.splitlines()


def test_a_reader_that_goes_away_ends_the_batch_quietly() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "mjspec.app.cli", "score", "--jsonl"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdin and proc.stdout and proc.stderr
    proc.stdin.write(json.dumps(VALID).encode() + b"\n")
    proc.stdin.flush()
    assert (
        json.loads(proc.stdout.readline())["legal"] is True
    )  # answered before stdin ends: line by line
    proc.stdout.close()
    # the batch stops at its first answer that has no reader, so this write may find no reader
    # either
    try:
        proc.stdin.write((json.dumps(VALID).encode() + b"\n") * 2000)
        proc.stdin.close()
    except BrokenPipeError:
        pass
    assert proc.wait(timeout=60) == 0
    assert b"Traceback" not in proc.stderr.read()


# --- fuzzing -----------------------------------------------------------------------------------

HOSTILE_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([10**4000, -(10**4000), 2**63, -1, 0, MAX_COUNT + 1]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=4),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
    st.integers(min_value=2, max_value=60).map(lambda depth: eval("[" * depth + "]" * depth)),
)
FIELDS = ["profile", "concealed", "melds", "win_tile", "win", "context"]
CONTEXT_KEYS = [
    "seat_wind",
    "round_wind",
    "dealer",
    "riichi",
    "honba",
    "riichi_sticks",
    "dealer_wins",
    "flowers",
    "missing_suit",
    "dora_indicators",
    "exhausted",
    "options",
    "no_such_key",
]


@st.composite
def mutated_line(draw: st.DrawFn) -> bytes:
    """A valid example request, then one or two mutations of its data or of its bytes."""
    request: dict[str, Any] = json.loads(json.dumps(draw(st.sampled_from(EXAMPLES))))
    for _ in range(draw(st.integers(min_value=1, max_value=2))):
        how = draw(st.sampled_from(["field", "drop", "context", "meld", "extra", "tiles"]))
        if how == "field":
            request[draw(st.sampled_from(FIELDS))] = draw(HOSTILE_VALUES)
        elif how == "drop":
            request.pop(draw(st.sampled_from(FIELDS)), None)
        elif how == "context":
            context = request.get("context")
            if isinstance(context, dict):
                context[draw(st.sampled_from(CONTEXT_KEYS))] = draw(HOSTILE_VALUES)
        elif how == "meld":
            melds = request.get("melds")
            if isinstance(melds, list):
                melds.append(
                    draw(
                        st.one_of(
                            HOSTILE_VALUES,
                            st.fixed_dictionaries(
                                {
                                    "type": st.sampled_from(["pon", "chi", "ankan", "x"]),
                                    "tiles": HOSTILE_VALUES,
                                }
                            ),
                        )
                    )
                )
        elif how == "extra":
            request[draw(st.text(min_size=1, max_size=8))] = draw(HOSTILE_VALUES)
        else:
            request["concealed"] = draw(st.text(alphabet="0123456789mpszf ", max_size=40))
    wrapped: Any = draw(
        st.sampled_from([request, request, request, [request], {"request": request}])
    )
    data = json.dumps(wrapped).encode()
    byte_mutation = draw(st.sampled_from(["none", "none", "truncate", "insert", "replace"]))
    if byte_mutation == "truncate":
        data = data[: draw(st.integers(min_value=0, max_value=len(data)))]
    elif byte_mutation in ("insert", "replace"):
        at = draw(st.integers(min_value=0, max_value=len(data)))
        stray = draw(st.binary(min_size=1, max_size=4)).replace(b"\n", b"\x00")
        data = data[:at] + stray + data[at + (len(stray) if byte_mutation == "replace" else 0) :]
    return data


def check_batch(lines: list[bytes]) -> None:
    data = b"\n".join(lines) + b"\n"
    answers = run_batch(data)
    assert len(answers) == input_lines(data) == len(lines)
    for answer in answers:
        assert ("error" in answer) != ("legal" in answer), answer
        assert "internal error" not in answer.get("error", ""), answer


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(mutated_line(), min_size=1, max_size=12))
def test_fuzzed_batches_answer_every_line(lines: list[bytes]) -> None:
    check_batch(lines)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(mutated_line(), min_size=1, max_size=12))
def test_fuzzed_batches_answer_every_line_long(lines: list[bytes]) -> None:
    check_batch(lines)


def test_readme_documents_every_context_key() -> None:
    """Each key WinContext accepts has a row in the README's context-key table, and no row names
    another."""
    import dataclasses

    from mjspec.runtime.context import WinContext

    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme.split("### Context keys", 1)[1].split("\n### ", 1)[0]
    documented = set()
    for row in section.splitlines():
        if row.startswith("| `"):
            first_cell = row.split("|")[1]
            documented.update(part.strip().strip("`") for part in first_cell.split(","))
    assert documented == {f.name for f in dataclasses.fields(WinContext)}


def test_losing_hand_is_refused_where_no_losing_hand_is_scored() -> None:
    [riichi, classical] = run_batch(
        json.dumps({**VALID, "context": {"losing_hand": True}}).encode()
        + b"\n"
        + json.dumps(
            {
                "profile": "classical_xmj",
                "concealed": "123m456p789s11z",
                "win_tile": "5z",
                "win": "ron",
                "context": {"losing_hand": True},
            }
        ).encode()
        + b"\n"
    )
    assert riichi["error"].startswith("context.losing_hand: riichi_planet scores no losing hands")
    assert "error" not in classical


def test_a_stream_that_cannot_be_read_is_bad_input() -> None:
    from mjspec.app.batch import StreamError

    class Failing(io.RawIOBase):
        def readinto(self, buffer: Any) -> int:
            raise OSError(5, "Input/output error")

    with pytest.raises(StreamError, match="cannot read standard input: Input/output error"):
        score_jsonl(Failing(), io.BytesIO())
    res = subprocess.run(
        [sys.executable, "-m", "mjspec.app.cli", "score", "--jsonl"],
        input=json.dumps(VALID).encode(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        preexec_fn=lambda: os.close(1),
    )
    assert res.returncode == 2 and res.stderr == b"mjspec: standard output is closed\n"


# --- the native line loop (runtime/native/batch.c) ----------------------------------------------

sys.path.insert(0, str(ROOT / "benchmarks"))
import corpus  # noqa: E402

from mjspec.app import batch  # noqa: E402
from mjspec.runtime.backend import native_module  # noqa: E402

needs_native_loop = pytest.mark.skipif(
    native_module("runtime._batch") is None or native_module("runtime._score") is None,
    reason="the native line loop was not built (or MJSPEC_BACKEND=python)",
)


def batch_bytes(data: bytes, native: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, int]:
    """The in-process batch's output for ``data``, with or without the native line loop, and how
    many lines the loop answered itself."""
    real = batch.native_lines
    taken = 0

    def counting(max_depth: int, load: Any) -> Any:
        loop = real(max_depth, load)
        assert loop is not None

        def lines(block: list[Any], start: int) -> tuple[bytes, int]:
            nonlocal taken
            data, end = loop(block, start)
            taken += end - start
            assert data.count(b"\n") == end - start  # one answer line per line answered
            return data, end

        return lines

    with monkeypatch.context() as m:
        m.setattr(batch, "native_lines", counting if native else lambda max_depth, load: None)
        out = io.BytesIO()
        assert score_jsonl(io.BytesIO(data), out) == 0
    return out.getvalue(), taken


def python_backend_bytes(data: bytes) -> bytes:
    """``mjspec score --jsonl`` under MJSPEC_BACKEND=python: the reference, every native path
    off."""
    res = subprocess.run(
        [sys.executable, "-m", "mjspec.app.cli", "score", "--jsonl"],
        input=data,
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "MJSPEC_BACKEND": "python"},
        timeout=600,
    )
    assert res.returncode == 0 and res.stderr == b"", res.stderr
    return res.stdout


def spelled_otherwise(request: dict[str, Any]) -> list[bytes]:
    """One request written in ways the native reader must read as json.loads does, or decline:
    other whitespace, escapes, duplicate keys, numbers json reads otherwise or refuses, trailing
    data, truncation, bytes that are not ASCII or not UTF-8, nesting past the limit."""
    line = json.dumps(request).encode()
    ctx = request.get("context", {})
    with_honba = {**request, "context": {**ctx, "honba": "@@"}}
    honba = json.dumps(with_honba).encode()
    numbers = [
        b"2",
        b"0",
        b"02",
        b"2.0",
        b"2e0",
        b"-0",
        b"-2",
        b"1" + b"0" * 20,
        b"NaN",
        b"Infinity",
        b"true",
    ]
    other_profile = b'{"profile": "gb_mcr", ' + line[1:]
    out = [
        line + b" ",
        b" \t" + line + b"\r",
        json.dumps(request, separators=(",", ":")).encode(),
        json.dumps(request, separators=(" , ", " : ")).encode(),
        line.replace(b'"win"', b'"w\\u0069n"'),
        line.replace(b'"profile"', b'"pro\\u0066ile"'),
        other_profile,  # a key twice: json.loads keeps the last
        line + b"{}",
        line + b" x",
        line[:-1],
        line + b"\x0c",
        line.replace(b'"concealed": "', b'"concealed": "\xef\xbc\x91'),  # a full-width digit
        line.replace(b'"concealed": "', b'"concealed": "\xff'),
        line.replace(b'"concealed": "', b'"concealed": "\t'),
        json.dumps({**request, "context": {**ctx, "options": {}}}).encode(),
        json.dumps({**request, "context": {**ctx, "options": {"x": [[[[[[[1]]]]]]]}}}).encode(),
        json.dumps(
            {
                **request,
                "melds": [
                    *request.get("melds", []),
                    {"type": "pon", "tiles": "111z", "from": "left"},
                ],
            }
        ).encode(),
        json.dumps({**request, "profile": 3}).encode(),
        json.dumps({**request, "profile": "riichi_plänet"}, ensure_ascii=False).encode(),
        json.dumps({**request, "profile": "no_such_profile"}).encode(),
        json.dumps([request]).encode(),
        b"{}",
        b"null",
    ]
    out += [honba.replace(b'"@@"', number) for number in numbers]
    return out


@needs_native_loop
@pytest.mark.parametrize("profile_id", profile_ids())
def test_the_native_line_loop_writes_the_python_paths_bytes(
    profile_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a profile's seeded corpus, its spec examples and those requests spelled otherwise, the
    batch with the native line loop writes the same bytes as without it and as the Python
    backend, and the loop answers the plain lines itself."""
    plain = corpus.requests(profile_id, 120, seed=11)
    plain += [r for r in EXAMPLES if r["profile"] == profile_id]
    hostile = [variant for r in plain[:12] for variant in spelled_otherwise(r)]
    lines = [json.dumps(r).encode() for r in plain] + hostile
    random.Random(5).shuffle(lines)  # declined lines between answered ones: order must hold
    data = b"\n".join(lines) + b"\n"
    native, taken = batch_bytes(data, True, monkeypatch)
    python_path, _ = batch_bytes(data, False, monkeypatch)
    assert native.count(b"\n") == len(lines)
    assert native == python_path
    assert native == python_backend_bytes(data)
    # The plain lines go the native way (a request the core leaves to Python aside).
    assert taken >= 0.8 * len(plain), (taken, len(plain))
    assert taken < len(lines)  # the hostile spellings are declined, not all answered natively


def test_a_client_writing_line_by_line_gets_each_answer_before_the_next_line() -> None:
    """Answers are written once the input read so far is answered: a client that waits for each
    answer before writing its next line is never left waiting (native and Python-path lines alike).
    """
    proc = subprocess.Popen(
        [sys.executable, "-m", "mjspec.app.cli", "score", "--jsonl"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdin and proc.stdout and proc.stderr
    lines = [json.dumps(VALID).encode(), b"not json", json.dumps({**VALID, "win": "ron"}).encode()]
    answers = []
    for line in lines:
        proc.stdin.write(line + b"\n")
        proc.stdin.flush()
        answers.append(json.loads(proc.stdout.readline()))
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0 and proc.stdout.read() == b""
    assert answers[0]["legal"] is True and answers[2] == answers[0]
    assert answers[1]["error"].startswith("line 2: not JSON")
