"""The situation of a win: how it was made and what the table looked like.

Field names follow contracts/scoring.md (``context`` keys) so a request maps
onto this type one to one.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, Mapping

from .tiles import Suit


class WinKind(StrEnum):
    """How the winning tile arrived."""

    TSUMO = "tsumo"
    """Self-draw: drawn from the wall (or a replacement)."""
    RON = "ron"
    """On another player's discard, or robbing their kong."""


class Wind(StrEnum):
    """Seat and round winds."""

    EAST = "E"
    """East."""
    SOUTH = "S"
    """South."""
    WEST = "W"
    """West."""
    NORTH = "N"
    """North."""


class ContextError(ValueError):
    """A win context that is not well formed (unknown key, wrong type)."""


@dataclass(frozen=True, slots=True)
class WinContext:
    """Every situational fact a pattern may depend on; all default to false / 0 / empty."""

    seat_wind: Wind = Wind.EAST
    round_wind: Wind = Wind.EAST
    dealer: bool | None = None
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    last_tile: bool = False
    after_kong: bool = False
    kong_shot: bool = False
    robbing_kong: bool = False
    first_draw: bool = False
    fourth_tile: bool = False
    dora_indicators: str = ""
    ura_indicators: str = ""
    flowers: str = ""
    missing_suit: Suit | None = None
    honba: int = 0
    riichi_sticks: int = 0
    options: tuple[tuple[str, Any], ...] = ()
    original_call: bool = False
    """The winner declared Original Call with their first discard (003, M 55)."""
    kong_upon_kong: bool = False
    """Self-drawn on a loose tile after a kong made with a previous loose tile."""
    losing_hand: bool = False
    """Score the hand as a loser's at settlement (every tile given is held; no win is claimed)."""
    dealer_wins: int = 0
    """The winner's consecutive wins as dealer before this hand (East's 13th consecutive win)."""
    exhausted: str = ""
    """Kinds (mpsz) whose four copies were all exposed on the table (discards and declared sets)
    when the hand went out: they cannot complete a hand, so they do not count as waits for
    ``only_live_wait`` (003 "Filling the only place"). The winning tile's kind never counts as
    exhausted."""

    @property
    def is_dealer(self) -> bool:
        """The winner is the dealer (given, or else: seat wind is East)."""
        return self.seat_wind == Wind.EAST if self.dealer is None else self.dealer

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> "WinContext":
        """Build a context from a request's ``context`` object, refusing unknown keys and wrong
        types."""
        known = _field_names(cls)
        values: dict[str, Any] = {}
        for key, value in raw.items():
            if key not in known:
                import difflib

                near = difflib.get_close_matches(key, known, n=1)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                raise ContextError(f"unknown context key {key!r}{hint}")
            values[key] = _coerce(key, value)
        return cls(**values)


_FIELD_NAMES: dict[type, frozenset[str]] = {}


def _field_names(cls: type) -> frozenset[str]:
    """The context's field names (read once: ``dataclasses.fields`` builds them anew on every
    call)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(f.name for f in fields(cls))
    return names


_WIND_OF_LETTER: dict[str, Wind] = {w.value: w for w in Wind}


def _keys_of_type(*types: str) -> frozenset[str]:
    """The context keys whose WinContext field is declared with one of ``types`` (as written:
    this module's annotations are text), so that a field added above is read by its type."""
    return frozenset(f.name for f in fields(WinContext) if f.type in types)


#: Keys given as true or false (``dealer`` may also be left out: the seat wind decides).
_BOOL_KEYS = _keys_of_type("bool", "bool | None")
#: Keys given as whole numbers from 0 to MAX_COUNT.
_INT_KEYS = _keys_of_type("int")
#: The greatest count a context may give (honba, riichi sticks, consecutive dealer wins). No table
#: comes
#: near it; beyond it a number is a mistake (or an attack: 10**4000 honba make an answer too long to
#: write).
MAX_COUNT = 100
#: Keys given as mpsz text (indicators, flowers, exhausted kinds).
_TILE_KEYS = _keys_of_type("str")


def _coerce(key: str, value: Any) -> Any:
    if key in _BOOL_KEYS:
        if not isinstance(value, bool):
            raise ContextError(f"context.{key} must be true or false, got {value!r}")
        return value
    if key in _INT_KEYS:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
            shown = (
                repr(value)
                if not isinstance(value, int) or abs(value) < 10**12
                else f"a number of {len(str(abs(value)))} digits"
            )
            raise ContextError(
                f"context.{key} must be a whole number from 0 to {MAX_COUNT}, got {shown}"
            )
        return value
    if key in _TILE_KEYS:
        if not isinstance(value, str):
            raise ContextError(f"context.{key} must be mpsz text, got {value!r}")
        return value
    if key in ("seat_wind", "round_wind"):
        wind = (
            value
            if isinstance(value, Wind)
            else _WIND_OF_LETTER.get(value) if isinstance(value, str) else None
        )
        if wind is None:
            raise ContextError(f"context.{key} must be one of E, S, W, N, got {value!r}")
        return wind
    if key == "missing_suit":
        if value is None:
            return None
        if value not in ("m", "p", "s"):
            raise ContextError(f"context.missing_suit must be 'm', 'p' or 's', got {value!r}")
        return Suit(value)
    if key == "options":
        if not isinstance(value, dict):
            raise ContextError("context.options must be an object of option names to values")
        return tuple(sorted(value.items()))
    raise ContextError(
        f"context.{key} is not supported"
    )  # pragma: no cover - guarded by the caller


# --------------------------------------------------------------------------- the native situation


class SlotRead(StrEnum):
    """How the native readers (runtime/native/score.c, request.c) fill a slot of the situation."""

    FLAG = "flag"
    """The WinContext bool field of the slot's name (``riichi``: ``riichi or double_riichi``)."""
    DEALER = "dealer"
    """WinContext.dealer: a bool, or None (``is_dealer``: the seat wind decides)."""
    WIND = "wind"
    """A Wind field: MJ_WIND_* (E S W N)."""
    SUIT = "suit"
    """``missing_suit``: MJ_SUIT_* (m p s), or MJ_NONE."""
    COUNT = "count"
    """A whole-number field (0 to MAX_COUNT)."""
    DERIVED = "derived"
    """Worked out by the reader from other fields or from the hand (flower counts, waits)."""


@dataclass(frozen=True, slots=True)
class SituationSlot:
    """One slot of the situation the native scoring core reads beside the tiles."""

    name: str
    """The slot's name: the WinContext field it reads, and the hand-view name it fills."""
    view: str | None
    """The C type of the ``mj_view`` field of that name (None: no hand expression reads it)."""
    read: SlotRead


#: The situation of a win as the native core takes it, slot by slot, in order: the one list the
#: native side's names come from. `mjspec build` writes runtime/native/mjsituation.h from it (the
#: slot numbers, the situation fields of ``mj_view``, the context fields the readers read), and
#: runtime/native_score.py packs the situation tuple in this order (its ``SITUATION``).
SITUATION: tuple[SituationSlot, ...] = (
    SituationSlot("last_tile", "int", SlotRead.FLAG),
    SituationSlot("after_kong", "int", SlotRead.FLAG),
    SituationSlot("kong_shot", "int", SlotRead.FLAG),
    SituationSlot("robbing_kong", "int", SlotRead.FLAG),
    SituationSlot("first_draw", "int", SlotRead.FLAG),
    SituationSlot("fourth_tile", "int", SlotRead.FLAG),
    SituationSlot("riichi", "int", SlotRead.FLAG),
    SituationSlot("double_riichi", "int", SlotRead.FLAG),
    SituationSlot("ippatsu", "int", SlotRead.FLAG),
    SituationSlot("dealer", "int", SlotRead.DEALER),
    SituationSlot("seat_wind", "int", SlotRead.WIND),
    SituationSlot("round_wind", "int", SlotRead.WIND),
    SituationSlot("missing_suit", "int", SlotRead.SUIT),
    # the number of flowers shown, the winner's own flowers, the full sets of four (scoring.py
    # _flower_count, bonus_tiles)
    SituationSlot("flowers", "int64_t", SlotRead.DERIVED),
    SituationSlot("own_bonus", "int64_t", SlotRead.DERIVED),
    SituationSlot("bonus_sets", "int64_t", SlotRead.DERIVED),
    SituationSlot("original_call", "int", SlotRead.FLAG),
    SituationSlot("kong_upon_kong", "int", SlotRead.FLAG),
    SituationSlot("dealer_wins", "int64_t", SlotRead.COUNT),
    SituationSlot("honba", None, SlotRead.COUNT),  # read by payment formulas (mj_pay.honba)
    # 1 or 0, or -1 when the profile reads neither (the core works them out on first read)
    SituationSlot("only_wait", "int", SlotRead.DERIVED),
    SituationSlot("only_live_wait", "int", SlotRead.DERIVED),
)
