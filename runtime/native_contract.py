"""The scoring contract answered natively from end to end: request object in, answer object out.

``mjspec score --jsonl`` spends most of a line's time turning the request into
Python objects and the Score back into an answer. For a request whose reading
is plain (``runtime/native/request.c`` says which), this reads it in C, scores
it with the native core and writes the answer object directly; for any other
request, and whenever the native backend is off or not built, it answers None
and the caller takes the Python path, which answers the same (tests compare the
two on every corpus) and writes every error message.
"""

from __future__ import annotations

from typing import Any

from .backend import native_module
from .native_score import _native, native_core
from .profile import Profile

__all__ = ["score_contract"]


def _accepted(profile: Profile) -> bytes:
    """One byte per tile code (kind * 2 + red): 1 when the profile's tile set holds that tile."""
    table: bytes | None = profile.memo.get("native_accepted")
    if table is None:
        codes = profile.tiles.accepted_codes
        table = bytes(1 if code in codes else 0 for code in range(84))
        profile.memo["native_accepted"] = table
    return table


def _names(profile: Profile) -> tuple[tuple[str, str], ...]:
    names: tuple[tuple[str, str], ...] | None = profile.memo.get("native_names")
    if names is None:
        names = tuple((p.id, p.names.en) for p in profile.patterns)
        profile.memo["native_names"] = names
    return names


def score_contract(profile: Profile, raw: Any) -> dict[str, Any] | None:
    """The contract answer to ``raw`` from the native backend, or None (the Python path answers)."""
    reader = native_module("runtime._request")
    core = native_core()
    if reader is None or core is None:
        return None
    native = _native(profile)
    if native.capsule is None:
        return None
    packed = reader.pack(raw, _accepted(profile), profile.tiles.copies)
    if packed is None:
        return None
    out = core.evaluate(native.capsule, *packed, native.options)
    if out is None:
        return None
    legal, reason, patterns, total, _capped, fu, payments, limit, _items, value = out
    names = _names(profile)
    answer: dict[str, Any] = {"legal": legal}
    if not legal:
        answer["reason"] = reason or "not a legal win"
    answer["patterns"] = [{"id": names[i][0], "name": names[i][1], "value": v, "count": n} for i, v, n in patterns]
    # As Score.to_contract: a profile with a hand value states a limit hand by its value alone.
    answer["total"] = None if value is not None and limit else total
    answer["fu"] = fu
    answer["payments"] = dict(payments)
    if value is not None:
        answer["score"] = value
    return answer
