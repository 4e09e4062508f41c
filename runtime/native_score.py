"""The glue between the Python engine and the native scoring core (``runtime/native/score.c``).

:func:`evaluate_native` answers what :func:`mjspec.runtime.scoring.evaluate` answers, from the
profile's native module (``generated._native_<id>``) and the core (``runtime._score``), or None
when the Python engine must answer: no native module, ``MJSPEC_BACKEND=python``, game options
given with the request, a losing hand, a profile object whose rules are not the ones the native
tables were built from, or anything the core leaves to Python (it says so by answering None).
A malformed hand raises the :class:`~mjspec.runtime.scoring.HandError` scoring.py raises: the
core's ``check_tiles`` accepts only hands scoring.py's ``check_hand`` certainly accepts, and any
other hand goes through ``check_hand`` itself. ``Score.arrangement`` is None in a native answer.
"""

from __future__ import annotations

import dataclasses
import functools
import struct
from collections.abc import Callable
from types import ModuleType
from typing import Any

from .backend import NATIVE_ALLOWED, load_native, native_module
from . import context
from .context import WinContext, WinKind
from .engines import compiled_engine
from .hand import GroupKind, Meld, MeldType, ShapeKind, WaitKind
from .native_enums import GROUP_KIND_CODES, MELD_CODES, SHAPE_CODES, WAIT_CODES
from .options import ScoreValue
from .profile import Profile
from .situation import _MELD_CALL, CONTRADICTIONS, impossible_win, indicator_limit, profile_facts
from .tiles import _PLAIN_TILES, _RED_TILES, N_ALL_KINDS, N_KINDS, Tile
from .scoring import (
    HandError,
    Score,
    ScoredPattern,
    ScoredPoints,
    WinningHand,
    _accepted,
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
    "evaluate_general",
    "native_evaluator",
    "contradiction_masks",
    "evaluate_with",
    "native_core",
    "native_profile",
    "SITUATION",
    "MELD_CODE",
    "KIND_CODE",
    "SHAPE_CODE",
    "WAIT_CODE",
]

# The numbers the core gives each meld type, group kind, shape and wait: runtime/native_enums.py's
# table, which mjspec build writes into runtime/native/mjenums.h.
MELD_CODE: dict[MeldType, int] = {MeldType(v): i for v, i in MELD_CODES.codes.items()}
KIND_CODE: dict[GroupKind, int] = {GroupKind(v): i for v, i in GROUP_KIND_CODES.codes.items()}
SHAPE_CODE: dict[ShapeKind, int] = {ShapeKind(v): i for v, i in SHAPE_CODES.codes.items()}
WAIT_CODE: dict[WaitKind, int] = {WaitKind(v): i for v, i in WAIT_CODES.codes.items()}

#: The order of the ``situation`` tuple: runtime/context.py's SITUATION, whose table the native
#: side reads too (runtime/native/mjsituation.h, written from it by `mjspec build`).
SITUATION: tuple[str, ...] = tuple(slot.name for slot in context.SITUATION)


def native_core() -> ModuleType | None:
    """``mjspec.runtime._score``, or None (not built, or ``MJSPEC_BACKEND=python``)."""
    return native_module("runtime._score")


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


class _Native:
    """What the glue learnt once about one profile object: the core, the capsule of its tables,
    its options packed, which costly view names it reads, scoring.py's table of the tiles its
    hands may hold (by code) with the copies of each, and the core's scorer (``score_hand``'s
    first argument: all of this and situation.py's refusals, read by C), or None where the
    core cannot build one (then every request takes the general path)."""

    __slots__ = (
        "core",
        "capsule",
        "options",
        "wants_only_wait",
        "wants_live_wait",
        "accepted",
        "copies",
        "scorer",
        "score_hand",
    )

    def __init__(self, core: Any, capsule: Any, profile: Profile | None) -> None:
        self.core = core
        self.capsule = capsule
        needs = profile.needs if profile is not None else ()
        self.options = _pack_options(profile) if profile is not None else b""
        self.wants_only_wait = "only_wait" in needs
        self.wants_live_wait = "only_live_wait" in needs
        self.accepted = bytes(_accepted(profile)) if profile is not None else b""
        self.copies = profile.tiles.copies if profile is not None else 0
        self.scorer = _scorer(core, capsule, profile, self.options) if profile is not None else None
        self.score_hand: Any = core.score_hand if self.scorer is not None else None


_NO_NATIVE = _Native(None, None, None)


def _plain_init(cls: type, names: tuple[str, ...]) -> bool:
    """Whether ``cls`` is a slots dataclass whose __init__ only stores these fields, in this order
    (what the core's Score builder relies on: it fills the slots as that __init__ would)."""
    return (
        dataclasses.is_dataclass(cls)
        and tuple(f.name for f in dataclasses.fields(cls)) == names
        and "__slots__" in cls.__dict__
        and not hasattr(cls, "__post_init__")
    )


_BUILDABLE = (
    _plain_init(
        Score,
        (
            "legal",
            "reason",
            "patterns",
            "total",
            "capped",
            "fu",
            "payments",
            "arrangement",
            "limit",
            "point_items",
            "value",
        ),
    )
    and _plain_init(ScoredPattern, ("id", "name", "value", "count", "section"))
    and _plain_init(ScoredPoints, ("id", "name", "points", "section"))
)


def _builder(profile: Profile) -> tuple[Any, ...] | None:
    """What the core needs to build the Score itself: the classes, then (id, English name,
    section) of every pattern and point item, as _score takes them from the profile's objects."""
    if not _BUILDABLE:
        return None
    items = profile.points.items if profile.points is not None else ()
    return (
        Score,
        ScoredPattern,
        ScoredPoints,
        tuple((p.id, p.names.en, p.section) for p in profile.patterns),
        tuple((i.id, i.names.en, i.section) for i in items),
    )


#: The Tile objects parsing hands out (runtime/tiles.py shares one per kind and red five): the
#: core knows them by identity, and reads any other Tile by its slots.
_SHARED_TILES: tuple[Tile, ...] = (*_PLAIN_TILES, *_RED_TILES.values())

#: By tile code, the bits of score.c's scorer ``tiles``: TILE_HAND, TILE_FLOWER.
_TILE_HAND, _TILE_FLOWER = 1, 2


def _tile_flags(profile: Profile) -> bytes:
    """Per tile code: whether it may stand in a hand (scoring.py _accepted), or is a flower of the
    set (the flags of score.c's scorer)."""
    hand = _accepted(profile)
    flags = bytearray(_TILE_HAND if ok else 0 for ok in hand)
    for kind in range(N_KINDS, N_ALL_KINDS):
        if profile.tiles.refusal(Tile(kind)) is None:
            flags[kind * 2] |= _TILE_FLOWER
    return bytes(flags)


def contradiction_masks(
    names: tuple[str, ...], profile: Profile
) -> tuple[tuple[int, str], ...] | None:
    """situation.py CONTRADICTIONS as a native reader reads them: per row that can hold for this
    profile, the bits of its facts in ``names`` (the reader's FACTS) and its reason; None when a
    row names a fact the reader does not read (then situation.py itself decides, on the Python
    path). The one table both native readers (score.c, request.c) take their refusals from."""
    known = profile_facts(profile)
    rows = []
    for facts, why in CONTRADICTIONS:
        if any(known.get(fact) is False for fact in facts):
            continue  # a fact of the profile that does not hold: the row never refuses here
        asked = [fact for fact in facts if fact not in known]
        if not asked or any(fact not in names for fact in asked):
            return None
        rows.append((sum(1 << names.index(fact) for fact in asked), why))
    return tuple(rows)


def _contradictions(core: Any, profile: Profile) -> tuple[tuple[int, str], ...] | None:
    """:func:`contradiction_masks` over the core's ``FACTS``."""
    return contradiction_masks(tuple(core.FACTS), profile)


def _scorer(core: Any, capsule: Any, profile: Profile, options: bytes) -> Any | None:
    """The core's scorer for ``profile`` (score.c's header), or None: the general path answers."""
    build = _builder(profile)
    contradictions = _contradictions(core, profile)
    if build is None or contradictions is None or not hasattr(core, "scorer"):
        return None
    calls = profile.table.calls
    meld_types = sum(1 << MELD_CODE[m] for m, name in _MELD_CALL.items() if getattr(calls, name))
    red_suits = sum(1 << "mps".index(suit.value) for suit in profile.tiles.red_fives)
    try:
        return core.scorer(
            capsule,
            _tile_flags(profile),
            profile.tiles.copies,
            options,
            build,
            meld_types,
            indicator_limit(profile),
            red_suits,
            contradictions,
            impossible_win,
            _SHARED_TILES,
        )
    except (TypeError, ValueError, OverflowError):
        return None


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


def native_profile(profile: Profile) -> Any | None:
    """The capsule of the profile's native tables, when they stand for this profile object; else
    None."""
    return _native(profile).capsule


def _native(profile: Profile) -> _Native:
    known: _Native | None = profile.memo.get("native_score")
    if known is None:
        known = profile.memo["native_score"] = _learn(profile)
    return known


def _learn(profile: Profile) -> _Native:
    core = native_core()
    engine = compiled_engine(profile.id)
    if core is None or engine is None or engine.native_module is None:
        return _NO_NATIVE  # no generated module announced this profile, or it is Python only
    module = load_native(engine.native_module)
    if module is None:
        return _NO_NATIVE
    capsule = getattr(module, "PROFILE", None)
    if getattr(module, "DIGEST", None) != engine.native_digest:
        return _NO_NATIVE  # compiled from an older source than this engine's: never used
    base: Profile = engine.profile
    for name in _RULE_FIELDS:
        mine, theirs = getattr(profile, name), getattr(base, name)
        if mine is not theirs and mine != theirs:
            return _NO_NATIVE
    try:
        info = core.profile_info(capsule)
    except (TypeError, ValueError, RuntimeError):
        # tables this core does not read (another MJ_ABI, out of range): Python answers
        return _NO_NATIVE
    items = tuple(i.id for i in profile.points.items) if profile.points else ()
    if (
        info["patterns"] != tuple(p.id for p in profile.patterns)
        or info["point_items"] != items
        or info["n_options"] != len(profile.options)
        or info["needs_only_wait"] != ("only_wait" in profile.needs)
        or info["needs_only_live_wait"] != ("only_live_wait" in profile.needs)
    ):
        return _NO_NATIVE
    try:
        return _Native(core, capsule, profile)
    except (struct.error, TypeError, ValueError):
        return _NO_NATIVE  # an option value beyond int64


def backend_of(profile: Profile) -> str:
    """Which backend scores ``profile``, and if it is Python, why (for ``mjspec list``)."""
    if _native(profile).capsule is not None:
        return "native"
    if not NATIVE_ALLOWED:
        return "python (MJSPEC_BACKEND=python)"
    if native_core() is None:
        return "python (the native core was not built)"
    engine = compiled_engine(profile.id)
    if engine is None:
        return "python (no generated engine announced this profile)"
    if engine.native_module is None:
        return (
            "python (its spec uses what the native lowering cannot express; mjspec build "
            "says where)"
        )
    module = load_native(engine.native_module)
    if module is None:
        return "python (its native engine was not compiled: run mjspec build or pip install -e .)"
    if getattr(module, "DIGEST", None) != engine.native_digest:
        return "python (its compiled native engine is older than its spec: run mjspec build)"
    return "python (its native tables differ from this profile's rules)"


def _codes(tiles: Any) -> bytes:
    return bytes([t.kind * 2 + t.red for t in tiles])


def _melds(melds: tuple[Meld, ...]) -> tuple[tuple[int, bytes], ...]:
    return tuple([(MELD_CODE[m.type], _codes(m.tiles)) for m in melds])


def evaluate_native(profile: Profile, hand: WinningHand, ctx: WinContext) -> Score | None:
    """The Score the Python engine gives (``arrangement`` None), or None: let the Python engine
    answer.

    Raises :class:`HandError` exactly where scoring.py's ``evaluate`` does for a malformed hand, and
    refuses a win no table produces as it does (runtime/situation.py, after the scoring)."""
    native = profile.memo.get("native_score")
    if native is None:
        native = _native(profile)
    if native.scorer is not None:
        # The core reads the hand and the context itself, situation.py's refusals included, and
        # builds the Score; it answers NotImplemented for anything it is not certain of, and the
        # general path takes over.
        out = native.score_hand(native.scorer, profile, hand, ctx)
        if out is not NotImplemented:
            return out  # type: ignore[no-any-return]
    elif native.capsule is None:
        return None
    return _refused(profile, hand, ctx, _general(native, profile, hand, ctx))


def native_evaluator(profile: Profile) -> Callable[[Profile, WinningHand, WinContext], Any] | bool:
    """What :func:`mjspec.runtime.scoring.evaluate` calls first for ``profile``, remembered in its
    memo as ``native_evaluate``: the core's ``score_hand`` bound to the profile's scorer (one C
    call, no Python frame between; it answers a Score, None for the Python engine, or NotImplemented
    for :func:`evaluate_general`), :func:`evaluate_native` where the core builds no scorer, or False
    where no native tables stand for the profile."""
    native = _native(profile)
    evaluator: Callable[[Profile, WinningHand, WinContext], Any] | bool = False
    if native.scorer is not None:
        evaluator = functools.partial(native.score_hand, native.scorer)
    elif native.capsule is not None:
        evaluator = evaluate_native
    profile.memo["native_evaluate"] = evaluator
    return evaluator


def evaluate_general(profile: Profile, hand: WinningHand, ctx: WinContext) -> Score | None:
    """:func:`evaluate_native` for a request the core's reader declined (it answered
    NotImplemented)."""
    native = _native(profile)
    if native.capsule is None:
        return None
    return _refused(profile, hand, ctx, _general(native, profile, hand, ctx))


def _general(native: _Native, profile: Profile, hand: WinningHand, ctx: WinContext) -> Score | None:
    """The general path, before situation.py's refusals: check_hand's errors, the texts of the
    context read by scoring.py's own functions, the core on packed arguments."""
    if ctx.options or ctx.losing_hand:
        return None
    return _evaluate(native, profile, hand, ctx)


def evaluate_with(
    capsule: Any, profile: Profile, hand: WinningHand, ctx: WinContext
) -> Score | None:
    """:func:`evaluate_native` with the tables of ``capsule`` (a module's ``PROFILE``), which must
    stand for ``profile``; for tests that build their own tables."""
    core = native_core()
    if core is None:
        return None
    native = _Native(core, capsule, profile)
    if native.scorer is not None:
        out = native.score_hand(native.scorer, profile, hand, ctx)
        if out is not NotImplemented:
            return out  # type: ignore[no-any-return]
    return _refused(profile, hand, ctx, _general(native, profile, hand, ctx))


def _refused(
    profile: Profile, hand: WinningHand, ctx: WinContext, score: Score | None
) -> Score | None:
    """``score``, or the refusal of a win no table produces, as scoring.py's evaluate answers it."""
    if score is not None and score.legal:
        impossible = impossible_win(profile, hand, ctx)
        if impossible is not None:
            return Score(False, impossible)
    return score


_NO_BONUS = (0, 0)


def _pack(
    native: _Native, profile: Profile, hand: WinningHand, ctx: WinContext
) -> tuple[Any, ...] | None:
    """The arguments of ``runtime._score.evaluate`` for this request (score.c's header documents
    them), or None when Python must decide; raises scoring.py's HandError for a malformed hand."""
    concealed = _codes(hand.concealed)
    melds = _melds(hand.melds)
    win = hand.win_tile.kind * 2 + hand.win_tile.red
    counts = native.core.check_tiles(concealed, melds, win, native.accepted, native.copies)
    if counts is None:
        # Not certainly well formed: scoring.py's own check raises the HandError _learn_tiles
        # raises first (or accepts the hand after all).
        counts = bytes(check_hand(profile, hand))
        if max(counts) > 4:
            return None  # a set of more copies than the core's tables know
    try:
        # These may refuse a context (HandError), which Python does only once the hand is a
        # winning shape, and only_live_wait only when an expression reads it: Python decides then.
        flowers = _flower_count(profile, ctx.flowers) if ctx.flowers else 0
        own_bonus, bonus_sets = (
            bonus_tiles(ctx.flowers, ctx.seat_wind.value) if ctx.flowers else _NO_BONUS
        )
        dora = _indicator_codes(profile, "dora_indicators", ctx.dora_indicators)
        ura = _indicator_codes(profile, "ura_indicators", ctx.ura_indicators)
        only_wait = only_live_wait = -1
        if native.wants_only_wait or native.wants_live_wait:
            only_wait = int(_only_wait(profile, list(counts), hand))
            if native.wants_live_wait:
                if ctx.exhausted:
                    only_live_wait = int(_only_live_wait(profile, hand, ctx.exhausted))
                else:
                    only_live_wait = only_wait
        missing = ctx.missing_suit
        # Bools and ints as they are (the core reads both as ints); winds and suits are StrEnum
        # members, so str.index finds their letter without the enum's Python-level machinery.
        # Slot by slot in SITUATION's order (tests/test_native_score.py holds each slot to it).
        situation = (
            ctx.last_tile,
            ctx.after_kong,
            ctx.kong_shot,
            ctx.robbing_kong,
            ctx.first_draw,
            ctx.fourth_tile,
            ctx.riichi or ctx.double_riichi,
            ctx.double_riichi,
            ctx.ippatsu,
            ctx.is_dealer,
            "ESWN".index(ctx.seat_wind),
            "ESWN".index(ctx.round_wind),
            -1 if missing is None else "mps".index(missing),
            flowers,
            own_bonus,
            bonus_sets,
            ctx.original_call,
            ctx.kong_upon_kong,
            ctx.dealer_wins,
            ctx.honba,
            only_wait,
            only_live_wait,
        )
    except (HandError, ValueError):
        return None  # a wind or suit that is no letter of ours, too
    return (
        native.capsule,
        concealed,
        melds,
        win,
        hand.win is WinKind.TSUMO,
        situation,
        dora,
        ura,
        native.options,
    )


def _indicator_codes(profile: Profile, key: str, text: str) -> bytes:
    """The codes of ``context.<key>``, checked by scoring.py's own _indicators, remembered per
    text."""
    if not text:
        return b""
    memo: dict[str, bytes] | None = profile.memo.get("native_indicators")
    if memo is None:
        memo = profile.memo["native_indicators"] = {}
    codes = memo.get(text)
    if codes is None:
        codes = _codes(_indicators(profile, key, text))
        if len(memo) >= 1 << 14:
            memo.clear()
        memo[text] = codes
    return codes


def _evaluate(
    native: _Native, profile: Profile, hand: WinningHand, ctx: WinContext
) -> Score | None:
    packed = _pack(native, profile, hand, ctx)
    if packed is None:
        return None
    out = native.core.evaluate(*packed)
    if out is None:
        return None
    return _score(profile, out)


def _score(profile: Profile, out: tuple[Any, ...]) -> Score:
    """The Score of the core's answer tuple, with the profile's own Pattern and PointItem
    objects."""
    legal, reason, patterns, total, capped, fu, payments, limit, items, value = out
    declared = profile.patterns
    scored = tuple([_scored_pattern(declared[i], v, n) for i, v, n in patterns])
    point_items: tuple[Any, ...] = ()
    if items:
        assert profile.points is not None
        listed = profile.points.items
        point_items = tuple([_scored_points(listed[i], v) for i, v in items])
    return Score(
        legal, reason, scored, total, capped, fu, dict(payments), None, limit, point_items, value
    )
