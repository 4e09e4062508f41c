"""JSON from outside (records, Tenhou logs) read without surprises: bounded size, depth and numbers.

``json.loads`` alone turns hostile input into a ``RecursionError`` (100,000 nested ``[``), a
``ValueError`` from ``int()`` (an integer of more than 4,300 digits), infinities (``1e999``) or a
``UnicodeDecodeError``. :func:`loads` refuses each with one :class:`JsonInputError` naming the
file and, where it has one, the line, before anything else reads the data.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

#: A record of a long match is a few megabytes; nothing legitimate comes near this.
MAX_BYTES = 64_000_000
#: Records nest about eight levels (record, hands, a hand, events, an event, data, a list).
MAX_DEPTH = 32
#: The largest numbers in a record are 63-bit seeds (19 digits).
MAX_INT_DIGITS = 25

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class JsonInputError(ValueError):
    """JSON that cannot be taken in: the message names the file (and line) and why."""


def loads(
    raw: bytes | str, source: str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH
) -> Any:
    """Parse ``raw`` (UTF-8 bytes or text) as JSON, refusing what is too large, too deep or not
    finite."""
    if isinstance(raw, bytes):
        if len(raw) > max_bytes:
            raise JsonInputError(f"{source}: larger than {max_bytes} bytes")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise JsonInputError(f"{source}: not UTF-8 text (byte {e.start})") from None
    else:
        text = raw
        if len(text) > max_bytes:
            raise JsonInputError(f"{source}: larger than {max_bytes} characters")
    depth = nesting_depth(text)
    if depth > max_depth:
        raise JsonInputError(
            f"{source}: nested {depth} levels deep, more than the {max_depth} allowed"
        )
    try:
        return json.loads(
            text,
            parse_int=_int(source),
            parse_float=_float(source),
            parse_constant=_constant(source),
        )
    except json.JSONDecodeError as e:
        raise JsonInputError(f"{source}:{e.lineno}: not JSON: {e.msg} (column {e.colno})") from None
    except RecursionError:  # pragma: no cover - nesting_depth refuses this first
        raise JsonInputError(f"{source}: nested too deep") from None


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` outside strings (for invalid JSON, an upper bound)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    depth = deepest = 0
    for ch in brackets:
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth = max(0, depth - 1)
    return deepest


def _int(source: str) -> Any:
    def parse(text: str) -> int:
        digits = len(text.lstrip("-"))
        if digits > MAX_INT_DIGITS:
            raise JsonInputError(
                f"{source}: an integer of {digits} digits (at most {MAX_INT_DIGITS})"
            )
        return int(text)

    return parse


def _float(source: str) -> Any:
    def parse(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):
            raise JsonInputError(f"{source}: the number {text[:40]} is not finite")
        return value

    return parse


def _constant(source: str) -> Any:
    def parse(name: str) -> float:
        raise JsonInputError(f"{source}: {name} is not JSON")

    return parse
