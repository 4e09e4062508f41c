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

from typing import Any, Callable, Literal

from .backend import native_module
from .context import MAX_COUNT
from .hand import MeldType
from .native_enums import MELD_CODES
from .native_score import _native, contradiction_masks, native_core
from .profile import Profile
from .situation import _MELD_CALL, indicator_limit

__all__ = ["score_contract", "contract_line", "batch_profile", "native_lines"]


def _accepted(profile: Profile) -> bytes:
    """One byte per tile code (kind * 2 + red): 1 when the profile's tile set holds that tile."""
    table: bytes | None = profile.memo.get("native_accepted")
    if table is None:
        codes = profile.tiles.accepted_codes
        table = bytes(1 if code in codes else 0 for code in range(84))
        profile.memo["native_accepted"] = table
    return table


#: The call rule each meld type needs (situation.py), with the core's number of the meld type
#: (MJ_MELD_*, runtime/native_enums.py).
_MELD_BITS = tuple((_MELD_CALL[MeldType(v)], code) for v, code in MELD_CODES.codes.items())


def _limits(profile: Profile, reader: Any = None) -> tuple[int, int, tuple[int, ...]] | None:
    """What runtime/situation.py refuses, as the native reader declines it: the meld types the
    profile calls (bits), how many indicators its dead wall shows, and its CONTRADICTIONS rows as
    masks over the reader's FACTS; None when a row names a fact the reader does not read (then
    every request of the profile takes the Python path)."""
    known: tuple[int, int, tuple[int, ...]] | Literal[False] | None
    known = profile.memo.get("native_limits")
    if known is None:
        calls = profile.table.calls
        bits = sum(1 << code for name, code in _MELD_BITS if getattr(calls, name))
        if reader is None:
            reader = native_module("runtime._request")
        rows = contradiction_masks(tuple(reader.FACTS), profile)
        known = (
            (bits, indicator_limit(profile), tuple(mask for mask, _ in rows))
            if rows is not None
            else False
        )
        profile.memo["native_limits"] = known
    return known or None


def _names(profile: Profile) -> tuple[tuple[str, str], ...]:
    names: tuple[tuple[str, str], ...] | None = profile.memo.get("native_names")
    if names is None:
        names = tuple((p.id, p.names.en) for p in profile.patterns)
        profile.memo["native_names"] = names
    return names


def _scored(profile: Profile, raw: Any) -> tuple[Any, ...] | None:
    """The core's answer tuple for ``raw`` (see runtime/native/score.c), or None."""
    reader = native_module("runtime._request")
    core = native_core()
    if reader is None or core is None:
        return None
    native = _native(profile)
    if native.capsule is None:
        return None
    limits = _limits(profile, reader)
    if limits is None:
        return None
    packed = reader.pack(raw, _accepted(profile), profile.tiles.copies, MAX_COUNT, *limits)
    if packed is None:
        return None
    out: tuple[Any, ...] | None = core.evaluate(native.capsule, *packed, native.options)
    return out


def score_contract(profile: Profile, raw: Any) -> dict[str, Any] | None:
    """The contract answer to ``raw`` from the native backend, or None (the Python path answers)."""
    out = _scored(profile, raw)
    if out is None:
        return None
    legal, reason, patterns, total, _capped, fu, payments, limit, _items, value = out
    names = _names(profile)
    answer: dict[str, Any] = {"legal": legal}
    if not legal:
        answer["reason"] = reason or "not a legal win"
    answer["patterns"] = [
        {"id": names[i][0], "name": names[i][1], "value": v, "count": n} for i, v, n in patterns
    ]
    # As Score.to_contract: a profile with a hand value states a limit hand by its value alone.
    answer["total"] = None if value is not None and limit else total
    answer["fu"] = fu
    answer["payments"] = dict(payments)
    if value is not None:
        answer["score"] = value
    return answer


def _fragments(profile: Profile) -> tuple[str, ...]:
    """Each pattern's answer object up to its value, as json.dumps writes it (written once per
    profile)."""
    frags: tuple[str, ...] | None = profile.memo.get("native_fragments")
    if frags is None:
        frags = tuple(
            '{"id": ' + _text(p.id) + ', "name": ' + _text(p.names.en) + ', "value": '
            for p in profile.patterns
        )
        profile.memo["native_fragments"] = frags
    return frags


_TEXTS: dict[str, str] = {}


def _text(value: str) -> str:
    """``value`` as a JSON string, as ``json.dumps(..., ensure_ascii=False)`` writes it."""
    known = _TEXTS.get(value)
    if known is None:
        import json

        known = json.dumps(value, ensure_ascii=False)
        if len(_TEXTS) < 4096:
            _TEXTS[value] = known
    return known


def contract_line(profile: Profile, raw: Any) -> bytes | None:
    """:func:`score_contract`'s answer written as the batch writes it (``json.dumps(answer,
    ensure_ascii=False)`` and a newline, UTF-8), without building the answer object; or None."""
    out = _scored(profile, raw)
    if out is None:
        return None
    legal, reason, patterns, total, _capped, fu, payments, limit, _items, value = out
    frags = _fragments(profile)
    parts = [
        (
            '{"legal": true'
            if legal
            else '{"legal": false, "reason": ' + _text(reason or "not a legal win")
        )
    ]
    parts.append(', "patterns": [')
    parts.append(", ".join([f'{frags[i]}{v}, "count": {n}}}' for i, v, n in patterns]))
    shown = "null" if (value is not None and limit) or total is None else str(total)
    parts.append(f'], "total": {shown}, "fu": {"null" if fu is None else fu}, "payments": {{')
    parts.append(", ".join([f"{_text(role)}: {amount}" for role, amount in payments]))
    parts.append("}}\n" if value is None else f'}}, "score": {value}}}\n')
    return "".join(parts).encode("utf-8")


def batch_profile(profile: Profile) -> tuple[Any, ...] | None:
    """What runtime/native/batch.c needs to answer ``profile``'s requests as :func:`contract_line`
    does (``pack`` and its arguments after the request, ``evaluate``, the profile's tables and
    options, each pattern's answer fragment, a cache and the writer of JSON strings), or None:
    the profile is not native, and the Python path answers its lines."""
    reader = native_module("runtime._request")
    core = native_core()
    native = _native(profile)
    if reader is None or core is None or native.capsule is None:
        return None
    try:
        fragments = tuple(f.encode("utf-8") for f in _fragments(profile))
    except UnicodeEncodeError:
        return None  # a name contract_line could not write either
    limits = _limits(profile, reader)
    if limits is None:
        return None
    pack_args = (_accepted(profile), profile.tiles.copies, MAX_COUNT, *limits)
    tables = (core.evaluate, native.capsule, native.options)
    return (reader.pack, pack_args, *tables, fragments, {}, _text)


def native_lines(
    max_depth: int, load: Callable[[str], Profile]
) -> Callable[[list[Any], int], tuple[bytes, int]] | None:
    """The native line loop (runtime/native/batch.c ``answer``) bound to a fresh profile cache, or
    None (not built, or ``MJSPEC_BACKEND=python``): ``answer(lines, start)`` answers
    ``lines[start:]`` up to the first line the Python path must answer and returns the answer bytes
    and that index. A line nested deeper than ``max_depth`` is the Python path's; ``load`` finds a
    request's profile by id (the application's registry: the runtime names no profile), and a
    profile it does not find is the Python path's to refuse."""
    loop = native_module("runtime._batch")
    if loop is None or native_module("runtime._request") is None or native_core() is None:
        return None
    profiles: dict[str, Any] = {}
    answer = loop.answer

    def prepare(profile_id: str) -> tuple[Any, ...] | None:
        try:
            profile = load(profile_id)
        except Exception:  # noqa: BLE001 - unknown, or failing to load: the Python path says why
            return None
        return batch_profile(profile)

    def lines(block: list[Any], start: int) -> tuple[bytes, int]:
        out: tuple[bytes, int] = answer(block, start, profiles, prepare, max_depth)
        return out

    return lines
