"""The glue between the Python engine and the native scoring core (``runtime/native/score.c``).

:func:`evaluate_native` answers what :func:`mjspec.runtime.scoring.evaluate` answers, from the
profile's native module (``generated._native_<id>``) and the core (``runtime._score``), or None
when the Python engine must answer: no native module, ``MJSPEC_BACKEND=python``, game options
given with the request, a losing hand, a profile object whose rules are not the ones the native
tables were built from, or anything the core leaves to Python (it says so by answering None).
The hand is checked with scoring.py's own :func:`~mjspec.runtime.scoring.check_hand` first, so a
malformed hand raises the same :class:`~mjspec.runtime.scoring.HandError`. ``Score.arrangement``
is None in a native answer.
"""

from __future__ import annotations

import importlib
import struct
from types import ModuleType
from typing import Any

from .backend import native_module
from .context import WinContext, WinKind
from .hand import GroupKind, Meld, MeldType, ShapeKind, WaitKind
from .options import ScoreValue
from .profile import Profile
from .scoring import (
    HandError,
    Score,
    WinningHand,
    _flower_count,
    _indicators,
    _only_live_wait,
    _only_wait,
    _scored_pattern,
    _scored_points,
    bonus_tiles,
    check_hand,
)

__all__ = [
    "evaluate_native",
    "native_core",
    "native_profile",
    "MELD_CODE",
    "KIND_CODE",
    "SHAPE_CODE",
    "WAIT_CODE",
]

# The numbering of runtime/native/mjscore.h (fixed there; compiler/vocabulary.py uses the same).
MELD_CODE: dict[MeldType, int] = {
    MeldType.CHI: 0,
    MeldType.PON: 1,
    MeldType.MINKAN: 2,
    MeldType.KAKAN: 3,  # MJ_MELD_SHOUMINKAN
    MeldType.ANKAN: 4,
}
KIND_CODE: dict[GroupKind, int] = {k: i for i, k in enumerate(GroupKind)}
SHAPE_CODE: dict[ShapeKind, int] = {s: i for i, s in enumerate(ShapeKind)}
WAIT_CODE: dict[WaitKind, int] = {w: i for i, w in enumerate(WaitKind)}
_WIND_CODE = {"E": 0, "S": 1, "W": 2, "N": 3}
_SUIT_CODE = {"m": 0, "p": 1, "s": 2, "z": 3}

#: The order of the ``situation`` tuple (score.c's header says the same).
SITUATION = (
    "last_tile",
    "after_kong",
    "kong_shot",
    "robbing_kong",
    "first_draw",
    "fourth_tile",
    "riichi",
    "double_riichi",
    "ippatsu",
    "dealer",
    "seat_wind",
    "round_wind",
    "missing_suit",
    "flowers",
    "own_bonus",
    "bonus_sets",
    "original_call",
    "kong_upon_kong",
    "dealer_wins",
    "honba",
    "only_wait",
    "only_live_wait",
)


def native_core() -> ModuleType | None:
    """``mjspec.runtime._score``, or None (not built, or ``MJSPEC_BACKEND=python``)."""
    return native_module("runtime._score")


class _Native:
    """What the glue learnt once about one profile object: its capsule and packed options."""

    __slots__ = ("capsule", "options", "wants_only_wait", "wants_live_wait")

    def __init__(
        self, capsule: Any, options: bytes, wants_only_wait: bool, wants_live_wait: bool
    ) -> None:
        self.capsule = capsule
        self.options = options
        self.wants_only_wait = wants_only_wait
        self.wants_live_wait = wants_live_wait


_NO_NATIVE = _Native(None, b"", False, False)

#: The Profile fields the native tables stand for: a profile object differing in any of them
#: (a profile replaced by hand, or options that set rule fields) is scored by Python.
_RULE_FIELDS = (
    "shapes",
    "requirements",
    "patterns",
    "groups",
    "cap",
    "prefer",
    "payments",
    "minimum",
    "points",
    "options",
    "limit_hands_counted",
)


def _pack_options(profile: Profile) -> bytes:
    """Three int64 per declared option, in declaration order: (value or points, doubles, limit)."""
    values = profile.option_values.as_dict()
    out: list[int] = []
    for spec in profile.options:
        v = values[spec.name]
        if isinstance(v, ScoreValue):
            out += [v.points, v.doubles, int(v.limit)]
        else:
            out += [int(v), 0, 0]
    return struct.pack(f"={len(out)}q", *out)


def native_profile(profile: Profile) -> Any | None:
    """The capsule of the profile's native tables, when they stand for this profile object; else None."""
    return _native(profile).capsule


def _native(profile: Profile) -> _Native:
    known: _Native | None = profile.memo.get("native_score")
    if known is not None:
        return known
    known = _learn(profile)
    profile.memo["native_score"] = known
    return known


def _learn(profile: Profile) -> _Native:
    core = native_core()
    module = native_module(f"generated._native_{profile.id}")
    if core is None or module is None:
        return _NO_NATIVE
    capsule = getattr(module, "PROFILE", None)
    try:
        base: Profile = importlib.import_module(f"mjspec.generated.{profile.id}").PROFILE
    except ImportError:
        return _NO_NATIVE
    for name in _RULE_FIELDS:
        mine, theirs = getattr(profile, name), getattr(base, name)
        if mine is not theirs and mine != theirs:
            return _NO_NATIVE
    info = core.profile_info(capsule)  # raises when the tables are not ones this core reads
    if (
        info["patterns"] != tuple(p.id for p in profile.patterns)
        or info["point_items"]
        != (tuple(i.id for i in profile.points.items) if profile.points else ())
        or info["n_options"] != len(profile.options)
    ):
        return _NO_NATIVE
    try:
        options = _pack_options(profile)
    except (struct.error, TypeError, ValueError):
        return _NO_NATIVE  # an option value beyond int64
    needs = profile.needs
    return _Native(capsule, options, "only_wait" in needs, "only_live_wait" in needs)


def _codes(tiles: Any) -> bytes:
    return bytes([t.kind * 2 + t.red for t in tiles])


def _melds(melds: tuple[Meld, ...]) -> tuple[tuple[int, bytes], ...]:
    return tuple([(MELD_CODE[m.type], _codes(m.tiles)) for m in melds])


def evaluate_native(profile: Profile, hand: WinningHand, ctx: WinContext) -> Score | None:
    """The Score the Python engine gives (``arrangement`` None), or None: let the Python engine answer.

    Raises :class:`HandError` exactly where scoring.py's ``evaluate`` does for a malformed hand."""
    if ctx.options or ctx.losing_hand:
        return None
    native = _native(profile)
    if native.capsule is None:
        return None
    return _evaluate(native, profile, hand, ctx)


def evaluate_with(
    capsule: Any, profile: Profile, hand: WinningHand, ctx: WinContext
) -> Score | None:
    """:func:`evaluate_native` with the tables of ``capsule`` (a module's ``PROFILE``), which must
    stand for ``profile``; for tests that build their own tables."""
    if ctx.options or ctx.losing_hand:
        return None
    needs = profile.needs
    native = _Native(
        capsule, _pack_options(profile), "only_wait" in needs, "only_live_wait" in needs
    )
    return _evaluate(native, profile, hand, ctx)


def _pack(
    native: _Native, profile: Profile, hand: WinningHand, ctx: WinContext
) -> tuple[Any, ...] | None:
    """The arguments of ``runtime._score.evaluate`` for this request (score.c's header documents
    them), or None when Python must decide; raises scoring.py's HandError for a malformed hand."""
    concealed = check_hand(profile, hand)  # the same HandError as scoring.py's _learn_tiles
    try:
        # These may refuse a context (HandError), which Python does only once the hand is a
        # winning shape, and only_live_wait only when an expression reads it: Python decides then.
        flowers = _flower_count(profile, ctx.flowers) if ctx.flowers else 0
        own_bonus, bonus_sets = bonus_tiles(ctx.flowers, ctx.seat_wind.value)
        dora = (
            _codes(_indicators(profile, "dora_indicators", ctx.dora_indicators))
            if ctx.dora_indicators
            else b""
        )
        ura = (
            _codes(_indicators(profile, "ura_indicators", ctx.ura_indicators))
            if ctx.ura_indicators
            else b""
        )
        only_wait = only_live_wait = -1
        if native.wants_only_wait or native.wants_live_wait:
            only_wait = int(_only_wait(profile, concealed, hand))
            if native.wants_live_wait:
                live = (
                    _only_live_wait(profile, hand, ctx.exhausted)
                    if ctx.exhausted
                    else bool(only_wait)
                )
                only_live_wait = int(live)
    except (HandError, ValueError):
        return None
    missing = ctx.missing_suit
    situation = (
        int(ctx.last_tile),
        int(ctx.after_kong),
        int(ctx.kong_shot),
        int(ctx.robbing_kong),
        int(ctx.first_draw),
        int(ctx.fourth_tile),
        int(ctx.riichi or ctx.double_riichi),
        int(ctx.double_riichi),
        int(ctx.ippatsu),
        int(ctx.is_dealer),
        _WIND_CODE[ctx.seat_wind.value],
        _WIND_CODE[ctx.round_wind.value],
        -1 if missing is None else _SUIT_CODE[missing.value],
        flowers,
        own_bonus,
        bonus_sets,
        int(ctx.original_call),
        int(ctx.kong_upon_kong),
        int(ctx.dealer_wins),
        int(ctx.honba),
        only_wait,
        only_live_wait,
    )
    return (
        native.capsule,
        _codes(hand.concealed),
        _melds(hand.melds),
        hand.win_tile.kind * 2 + hand.win_tile.red,
        hand.win is WinKind.TSUMO,
        situation,
        dora,
        ura,
        native.options,
    )


def _evaluate(
    native: _Native, profile: Profile, hand: WinningHand, ctx: WinContext
) -> Score | None:
    core = native_core()
    if core is None:
        return None
    packed = _pack(native, profile, hand, ctx)
    if packed is None:
        return None
    out = core.evaluate(*packed)
    if out is None:
        return None
    legal, reason, patterns, total, capped, fu, payments, limit, items, value = out
    declared = profile.patterns
    scored = tuple([_scored_pattern(declared[i], v, n) for i, v, n in patterns])
    point_items = ()
    if items:
        assert profile.points is not None
        listed = profile.points.items
        point_items = tuple([_scored_points(listed[i], v) for i, v in items])
    return Score(
        legal, reason, scored, total, capped, fu, dict(payments), None, limit, point_items, value
    )
