"""Player decisions and table events: frozen records kept in a hand's log.

A decision (:class:`Action`) is what a player chose; an :class:`Event` is what
the table did (a draw, a meld, a payment), each carrying the score changes it
caused. Both serialise to plain JSON for game records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Mapping

from .tiles import NotationError, Suit, Tile, format_tiles, parse_tiles


class ActionKind(StrEnum):
    """What a player can decide."""

    EXCHANGE = "exchange"
    """Choose the tiles to pass in the opening exchange."""
    DECLARE = "declare"
    """Declare the missing suit."""
    DISCARD = "discard"
    """Discard a tile on one's turn."""
    TSUMO = "tsumo"
    """Win on one's own draw."""
    ANKAN = "ankan"
    """Declare a concealed kong of four tiles in hand."""
    KAKAN = "kakan"
    """Add the fourth tile to one's exposed pon."""
    RON = "ron"
    """Win on another player's discard, or rob their added kong."""
    PON = "pon"
    """Claim a discard to make an exposed triplet."""
    MINKAN = "minkan"
    """Claim a discard to make an exposed kong."""
    CHI = "chi"
    """Claim the previous player's discard to make a sequence."""
    PASS = "pass"
    """Decline every claim on a discard or kong."""
    FLOWER = "flower"
    """Expose a flower held in hand and draw a replacement from the back of the wall."""
    RIICHI = "riichi"
    """Declare riichi with a closed ready hand and discard ``tile`` sideways."""
    ORIGINAL_CALL = "original_call"
    """Discard ``tile`` as one's first discard and declare Original Call: the hand may not change after it (M 55)."""
    NINE_TERMINALS = "nine_terminals"
    """Declare an abortive draw with nine distinct terminal and honor kinds on an uninterrupted first turn."""


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``rule`` names the rule it breaks."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [{rule}]")
        self.rule = rule
        self.message = message


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat (0-3)."""

    kind: ActionKind
    seat: int
    tile: Tile | None = None
    tiles: tuple[Tile, ...] = ()
    suit: Suit | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "seat": self.seat}
        if self.tile is not None:
            out["tile"] = self.tile.mpsz
        if self.tiles:
            out["tiles"] = format_tiles(self.tiles)
        if self.suit is not None:
            out["suit"] = self.suit.value
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "Action":
        try:
            kind = ActionKind(raw["kind"])
            seat = raw["seat"]
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
                raise ValueError(f"seat must be 0-3, got {seat!r}")
            tile = Tile.parse(raw["tile"]) if "tile" in raw else None
            tiles = tuple(parse_tiles(raw["tiles"])) if "tiles" in raw else ()
            suit = Suit(raw["suit"]) if "suit" in raw else None
        except (KeyError, ValueError, NotationError, TypeError) as e:
            raise ValueError(f"malformed action {dict(raw)!r}: {e}") from None
        return cls(kind, seat, tile, tiles, suit)

    def __str__(self) -> str:
        extra = (
            self.tile.mpsz
            if self.tile
            else format_tiles(self.tiles) if self.tiles else (self.suit.value if self.suit else "")
        )
        return f"seat {self.seat} {self.kind.value}{' ' + extra if extra else ''}"


@dataclass(frozen=True, slots=True)
class Event:
    """Something the table did, with the score change of each seat it caused."""

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    deltas: tuple[int, ...] = (0, 0, 0, 0)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.data:
            out["data"] = self.data
        if any(self.deltas):
            out["deltas"] = list(self.deltas)
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "Event":
        return cls(
            raw["kind"],
            raw.get("seat"),
            dict(raw.get("data", {})),
            tuple(raw.get("deltas", (0, 0, 0, 0))),
        )
