"""The native backend's structs as ctypes sees them, for tests that call lowered expressions
directly.

A mirror of runtime/native/mjscore.h, field for field: `test_native_lowering.py`
fills an ``MjView`` from a Python ``HandView`` and calls a profile's lowered C
function on it, so every expression is held to its Python form on the very views
the Python scorer builds. A layout that drifted from the header shows up as
wrong answers there (and the ABI check below).
"""

from __future__ import annotations

import ctypes
import importlib
from types import ModuleType
from typing import Any

from mjspec.runtime.context import SITUATION, SlotRead
from mjspec.runtime.hand import Group, GroupKind, MeldType
from mjspec.runtime.native_enums import (
    GROUP_KIND_CODES,
    MELD_CODES,
    SHAPE_CODES,
    SUIT_CODES,
    WAIT_CODES,
    WIND_CODES,
)
from mjspec.runtime.tiles import Tile

U8, I8, INT, I64, U64 = ctypes.c_uint8, ctypes.c_int8, ctypes.c_int, ctypes.c_int64, ctypes.c_uint64

MAX_GROUPS, MAX_TILES, MAX_INDICATORS, MAX_PATTERNS = 14, 18, 16, 192
ABI = 3

# The numbers the core gives each value (runtime/native_enums.py, written into mjenums.h).
SUITS: dict[str, int] = SUIT_CODES.codes
SHAPES: dict[str, int] = SHAPE_CODES.codes
WAITS: dict[str, int] = WAIT_CODES.codes
GROUP_KINDS: dict[GroupKind, int] = {GroupKind(k): i for k, i in GROUP_KIND_CODES.codes.items()}
WINDS: dict[str, int] = WIND_CODES.codes
MELDS: dict[MeldType, int] = {MeldType(k): i for k, i in MELD_CODES.codes.items()}


class MjTile(ctypes.Structure):
    _fields_ = [("kind", U8), ("red", U8), ("suit", I8), ("number", I8)] + [
        (n, U8)
        for n in (
            "is_suited",
            "is_honor",
            "is_wind",
            "is_dragon",
            "is_terminal",
            "is_terminal_or_honor",
        )
    ]


class MjGroup(ctypes.Structure):
    _fields_ = [
        ("kind", I8),
        ("tile", U8),
        ("suit", I8),
        ("number", I8),
        ("meld", I8),
        ("wind", I8),
    ] + [
        (n, U8)
        for n in (
            "concealed",
            "is_triplet",
            "is_kong",
            "is_claimed_kong",
            "is_sequence",
            "is_pair",
            "is_honor",
            "is_wind",
            "is_dragon",
            "has_terminal_or_honor",
            "is_terminal_or_honor_group",
        )
    ]


G = ctypes.POINTER(MjGroup)


#: The C types of mjsituation.h's view fields, as ctypes has them.
_CTYPES = {"int": INT, "int64_t": I64}
#: The situation's fields of mj_view, in its order: the slots runtime/context.py's SITUATION says
#: the view holds (mjscore.h declares them from the header written from that table).
VIEW_SITUATION = tuple((s.name, _CTYPES[s.view]) for s in SITUATION if s.view is not None)
#: The view's flags (read as booleans): the hand's own, then the situation's.
VIEW_FLAGS = ("is_closed", "tsumo", "ron", "winner") + tuple(
    s.name for s in SITUATION if s.view is not None and s.read in (SlotRead.FLAG, SlotRead.DEALER)
)
#: The situation's counts the view holds (int64_t, read as they are).
VIEW_COUNTS = tuple(
    s.name
    for s in SITUATION
    if s.view == "int64_t" and s.read in (SlotRead.COUNT, SlotRead.DERIVED)
)


class MjView(ctypes.Structure):
    _fields_ = (
        [
            ("shape", INT),
            ("wait", INT),
            ("groups", G * MAX_GROUPS),
            ("n_groups", INT),
            ("sets", G * MAX_GROUPS),
            ("n_sets", INT),
            ("pair", G),
            ("melds", G * 4),
            ("n_melds", INT),
            ("win_tile", MjTile),
            ("tiles", MjTile * MAX_TILES),
            ("n_tiles", INT),
            ("suits", ctypes.c_uint),
            ("tile_mask", U64),
            ("four_of_a_kinds", I64),
            ("concealed_triplets", I64),
        ]
        + [(n, INT) for n in ("is_closed", "tsumo", "ron", "winner")]
        + list(VIEW_SITUATION)
        + [
            ("resolve_waits", ctypes.c_void_p),
            ("waits_request", ctypes.c_void_p),
            ("dora_indicators", MjTile * MAX_INDICATORS),
            ("n_dora_indicators", INT),
            ("ura_indicators", MjTile * MAX_INDICATORS),
            ("n_ura_indicators", INT),
            ("counts", U8 * 34),
            ("concealed_counts", U8 * 34),
            ("discard_group", G),
            ("members", G * 4),
            ("n_members", INT),
            ("points", I64),
            ("counted", U64 * ((MAX_PATTERNS + 63) // 64)),
            ("options", ctypes.POINTER(I64)),
            ("overflow", INT),
        ]
    )


class MjPay(ctypes.Structure):
    _fields_ = (
        [(n, I64) for n in ("fan", "capped", "points", "honba")]
        + [(n, INT) for n in ("tsumo", "ron", "dealer", "limit")]
        + [("named", I64 * 16), ("options", ctypes.POINTER(I64)), ("overflow", INT)]
    )


HAND_FN = ctypes.CFUNCTYPE(I64, ctypes.POINTER(MjView))
PAY_FN = ctypes.CFUNCTYPE(I64, ctypes.POINTER(MjPay))


class MjAmount(ctypes.Structure):
    _fields_ = [("constant", I64), ("fn", ctypes.c_void_p)]


class MjPattern(ctypes.Structure):
    _fields_ = [
        ("id", ctypes.c_char_p),
        ("name_en", ctypes.c_char_p),
        ("section", ctypes.c_char_p),
        ("when", ctypes.c_void_p),
        ("count", ctypes.c_void_p),
        ("value", MjAmount),
        ("has_open_value", INT),
        ("open_value", MjAmount),
        ("group", INT),
        ("excludes", ctypes.POINTER(INT)),
        ("exclude_limit", ctypes.POINTER(INT)),
        ("n_excludes", INT),
        ("combine_kind", INT),
        ("combine_size", INT),
    ] + [(n, U8) for n in ("fallback", "bonus", "limit", "tiles_only", "members_only")]


class MjPointItem(ctypes.Structure):
    _fields_ = [
        ("id", ctypes.c_char_p),
        ("name_en", ctypes.c_char_p),
        ("section", ctypes.c_char_p),
        ("when", ctypes.c_void_p),
        ("value", MjAmount),
    ]


class MjFormula(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("fn", ctypes.c_void_p)]


class MjRequirement(ctypes.Structure):
    _fields_ = [("reason_en", ctypes.c_char_p), ("when", ctypes.c_void_p)]


class MjProfile(ctypes.Structure):
    _fields_ = (
        [("abi", INT), ("id", ctypes.c_char_p)]
        + [
            (n, U8)
            for n in (
                "standard",
                "seven_pairs",
                "seven_pairs_allow_four_of_a_kind",
                "thirteen_orphans",
                "knitted",
            )
        ]
        + [
            (n, U8)
            for n in (
                "needs_only_wait",
                "needs_only_live_wait",
                "needs_concealed_triplets",
                "needs_counts",
            )
        ]
        + [
            ("requirements", ctypes.POINTER(MjRequirement)),
            ("n_requirements", INT),
            ("patterns", ctypes.POINTER(MjPattern)),
            ("n_patterns", INT),
            ("group_pick", ctypes.POINTER(INT)),
            ("n_groups", INT),
            ("has_cap", INT),
            ("cap", I64),
            ("prefer", ctypes.POINTER(INT)),
            ("n_prefer", INT),
            ("has_minimum", INT),
            ("minimum_at_least", I64),
            ("minimum_without", ctypes.POINTER(INT)),
            ("n_minimum_without", INT),
            ("minimum_reason_en", ctypes.c_char_p),
            ("has_points", INT),
            ("point_items", ctypes.POINTER(MjPointItem)),
            ("n_point_items", INT),
            ("points_result", ctypes.c_void_p),
            ("values", ctypes.POINTER(MjFormula)),
            ("n_values", INT),
            ("ron", ctypes.POINTER(MjFormula)),
            ("n_ron", INT),
            ("tsumo", ctypes.POINTER(MjFormula)),
            ("n_tsumo", INT),
            ("hand_value", INT),
            ("n_options", INT),
            ("limit_hands_counted", INT),
            ("has_combinations", INT),
        ]
    )


def engine_module(profile_id: str) -> ModuleType | None:
    """The compiled native engine of ``profile_id``, or None when it was not built."""
    try:
        return importlib.import_module(f"mjspec.generated._native_{profile_id}")
    except ImportError:
        return None


def profile_struct(module: ModuleType) -> MjProfile:
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    address = get(module.PROFILE, b"mjspec.native_profile")
    return MjProfile.from_address(address)


def tile_struct(t: Tile) -> MjTile:
    """The mj_tile of ``t`` (one struct per tile, made once: an array slot assigned from it gets a
    copy, so sharing it is safe)."""
    known = _TILE_STRUCTS.get((t.kind, t.red))
    if known is None:
        known = _TILE_STRUCTS[(t.kind, t.red)] = _tile_struct(t)
    return known


_TILE_STRUCTS: dict[tuple[int, bool], MjTile] = {}


def _tile_struct(t: Tile) -> MjTile:
    return MjTile(
        t.kind,
        int(t.red),
        SUITS[t.suit.value],
        t.number,
        int(t.is_suited),
        int(t.is_honor),
        int(t.is_wind),
        int(t.is_dragon),
        int(t.is_terminal),
        int(t.is_terminal_or_honor),
    )


class ViewBuilder:
    """Fills MjView structs from Python views; keeps every group struct alive while it lives."""

    def __init__(self, pattern_ids: tuple[str, ...], profile: Any) -> None:
        self.pattern_ids = pattern_ids
        self.profile = profile
        self.options = (I64 * max(1, 3 * len(profile.options)))()
        self.keep: list[Any] = []
        self.groups: dict[Group, Any] = {}

    def options_of(self, v: Any) -> Any:
        """The options the Python view reads (a request's own options included), as mj_view holds
        them."""
        values = getattr(v, "_options", None) or self.profile.option_values.as_dict()
        for i, slot in enumerate(option_slots(self.profile, values)):
            self.options[i] = slot
        return ctypes.cast(self.options, ctypes.POINTER(I64))

    def group(self, g: Group) -> Any:
        """A pointer to the mj_group of ``g``; equal groups share one struct, which the native
        code only reads."""
        known = self.groups.get(g)
        if known is None:
            known = self.groups[g] = self._group(g)
        return known

    def _group(self, g: Group) -> Any:
        s = MjGroup(
            GROUP_KINDS[g.kind],
            g.tile,
            SUITS[g.suit.value],
            g.number,
            -1 if g.meld is None else MELDS[g.meld],
            -1 if g.wind is None else WINDS[g.wind],
            int(g.concealed),
            int(g.is_triplet),
            int(g.is_kong),
            int(g.is_claimed_kong),
            int(g.is_sequence),
            int(g.is_pair),
            int(g.is_honor),
            int(g.is_wind),
            int(g.is_dragon),
            int(g.has_terminal_or_honor),
            int(g.is_terminal_or_honor_group),
        )
        self.keep.append(s)
        return ctypes.pointer(s)

    def view(self, v: Any) -> MjView:
        out = MjView()
        get = lambda name, default=None: getattr(
            v, name, default
        )  # noqa: E731 (slots may be unset)
        out.shape = SHAPES.get(get("shape", "standard"), SHAPES["standard"])
        out.wait = WAITS.get(get("wait", "other"), WAITS["other"])
        for field, count in (
            ("groups", "n_groups"),
            ("sets", "n_sets"),
            ("melds", "n_melds"),
            ("members", "n_members"),
        ):
            items = get(field, ()) or ()
            arr = getattr(out, field)
            for i, g in enumerate(items):
                arr[i] = self.group(g)
            setattr(out, count, len(items))
        pair = get("pair")
        out.pair = self.group(pair) if pair is not None else G()
        win = get("win_tile")
        if win is not None:
            out.win_tile = tile_struct(win)
        for field, count in (
            ("tiles", "n_tiles"),
            ("dora_indicators", "n_dora_indicators"),
            ("ura_indicators", "n_ura_indicators"),
        ):
            items = get(field, ()) or ()
            arr = getattr(out, field)
            for i, t in enumerate(items):
                arr[i] = tile_struct(t)
            setattr(out, count, len(items))
        out.suits = sum(1 << SUITS[s] for s in get("suits", frozenset()) or ())
        out.tile_mask = get("tile_mask", 0) or 0
        for name in ("four_of_a_kinds", "concealed_triplets", "points", *VIEW_COUNTS):
            setattr(out, name, int(get(name, 0) or 0))
        for name in VIEW_FLAGS:
            setattr(out, name, int(bool(get(name, False))))
        out.seat_wind = WINDS.get(get("seat_wind", "E"), WINDS["E"])
        out.round_wind = WINDS.get(get("round_wind", "E"), WINDS["E"])
        ms = get("missing_suit")
        out.missing_suit = -1 if ms is None else SUITS[ms]
        try:
            out.only_wait = int(v.only_wait)
        except AttributeError:
            out.only_wait = -1
        try:
            out.only_live_wait = int(v.only_live_wait)
        except AttributeError:
            out.only_live_wait = -1
        for field, name in (("_counts", "counts"), ("_concealed_counts", "concealed_counts")):
            counts = get(field)
            if counts is not None:
                arr = getattr(out, name)
                for i in range(34):
                    arr[i] = counts[i]
        dg = get("_discard_group")
        out.discard_group = self.group(dg) if dg is not None else G()
        for pid in get("_counted", frozenset()) or ():
            i = self.pattern_ids.index(pid)
            out.counted[i >> 6] |= 1 << (i & 63)
        out.options = self.options_of(v)
        return out


def option_slots(profile: Any, values: Any) -> list[int]:
    """Options in force as mj_view.options holds them: three slots per declared option."""
    from mjspec.runtime.options import ScoreValue

    out: list[int] = []
    for spec in profile.options:
        value = values[spec.name]
        if isinstance(value, ScoreValue):
            out += [value.points, value.doubles, int(value.limit)]
        else:
            out += [int(value), 0, 0]
    return out


def call_hand(address: int, view: MjView) -> int | None:
    """A lowered hand expression's answer on ``view``; None when it flagged overflow."""
    view.overflow = 0
    result = HAND_FN(address)(ctypes.byref(view))
    return None if view.overflow else int(result)


def call_payment(address: int, pay: MjPay) -> int | None:
    pay.overflow = 0
    result = PAY_FN(address)(ctypes.byref(pay))
    return None if pay.overflow else int(result)
