"""The batch loop the contract adapters share: the JSON handling of ``mjspec score --jsonl``.

An adapter answers requests exactly as the CLI's batch path reads and writes
them, so that a timing of whole processes compares the scorers and not two
ways of handling JSON. Today ``score_jsonl`` (compiler/cli.py) reads text
lines, skips blank ones, parses each with the standard ``json`` module
(a line that is not JSON answers an error naming the line), writes
``json.dumps(answer, ensure_ascii=False)`` and a newline, and flushes after
every line; :func:`serve` does the same.

When the environment holds ``MJSPEC_BENCH_JSON=orjson`` the loop uses
``orjson`` on the binary streams instead (``orjson.loads`` of each line,
``orjson.dumps`` of each answer, flushed line by line): bench_contract.py sets
it when mjspec's own batch path imports orjson, so both sides keep the same
JSON handling if the CLI switches. This module imports no mjspec code.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

Answer = Callable[[Any], dict[str, Any]]


def serve(answer: Answer) -> int:
    """Answer every request line of stdin on stdout, one line each, flushed line by line."""
    if os.environ.get("MJSPEC_BENCH_JSON", "json") == "orjson":
        return _serve_orjson(answer)
    stdout = sys.stdout
    for n, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as e:
            out: dict[str, Any] = {"error": f"line {n}: not JSON: {e.msg} at column {e.colno}"}
        else:
            out = answer(raw)
        stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0


def _serve_orjson(answer: Answer) -> int:
    import orjson

    stdout = sys.stdout.buffer
    for n, line in enumerate(sys.stdin.buffer, 1):
        if not line.strip():
            continue
        try:
            raw = orjson.loads(line)
        except orjson.JSONDecodeError as e:
            out: dict[str, Any] = {"error": f"line {n}: not JSON: {e}"}
        else:
            out = answer(raw)
        stdout.write(orjson.dumps(out) + b"\n")
        stdout.flush()
    return 0
