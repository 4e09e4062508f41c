"""Player decisions and table events: frozen records kept in a hand's log.

A decision (:class:`Action`) is what a player chose; an :class:`Event` is what
the table did (a draw, a meld, a payment), each carrying the score changes it
caused. Both serialise to plain JSON for game records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Mapping, cast

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
    """Discard ``tile`` as one's first discard and declare Original Call: the hand may not change
    after it (M 55)."""
    NINE_TERMINALS = "nine_terminals"
    """Declare an abortive draw with nine distinct terminal and honor kinds on an uninterrupted
    first turn."""


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


class EventKind(StrEnum):
    """What the table did (an :class:`Event`'s kind). A ``StrEnum``: ``ev.kind == "draw"`` holds and
    a record stores the plain string (docs/records.md lists each event's data)."""

    DEAL = "deal"
    """The tiles are dealt: ``dealer``, ``dice``, ``wall`` (its size) and the first
    ``indicators``."""
    FLOWER = "flower"
    """A bonus tile exposed (``tile``; ``deal``: during the deal, M 32-33)."""
    EXCHANGE_CHOSEN = "exchange_chosen"
    """A seat chose its tiles to pass (hidden)."""
    EXCHANGE = "exchange"
    """Every seat's tiles passed, in ``direction``."""
    DECLARE_CHOSEN = "declare_chosen"
    """A seat declared its missing suit (hidden until all have)."""
    DECLARE = "declare"
    """Every seat's ``missing`` suit, shown."""
    DRAW = "draw"
    """The seat on turn drew (``replacement``: a replacement tile; ``left``: live tiles left)."""
    DISCARD = "discard"
    """A discard (``tile``; ``riichi``: the declaration's; ``automatic``: made by the table,
    001)."""
    RESPOND = "respond"
    """A seat answered a claim window (hidden until it closes)."""
    CHI = "chi"
    """A sequence claimed (``tile``, ``tiles``, ``from``)."""
    PON = "pon"
    """A triplet claimed (``tile``, ``from``)."""
    MINKAN = "minkan"
    """A kong claimed on a discard (``tile``, ``from``)."""
    ANKAN_DECLARED = "ankan_declared"
    """A concealed kong declared that may be robbed (``tile``: the copy set out)."""
    ANKAN = "ankan"
    """A concealed kong made (``tile``)."""
    KAKAN_DECLARED = "kakan_declared"
    """A tile added to a pon, which may be robbed (``tile``)."""
    KAKAN = "kakan"
    """An added kong made (``tile``)."""
    INDICATOR = "indicator"
    """A dora indicator turned (``tile``, 001)."""
    RIICHI = "riichi"
    """Riichi declared (``double``)."""
    DEPOSIT = "deposit"
    """A riichi deposit put on the table (``amount``)."""
    DEPOSITS = "deposits"
    """The winner collects the riichi deposits (``sticks``, ``amount``)."""
    ORIGINAL_CALL = "original_call"
    """Original Call declared with a first discard (``tile``, M 55)."""
    WIN = "win"
    """A win (``tile``, ``ron``, ``from``, ``robbing``, ``patterns``, ``total``)."""
    WIN_PAYMENT = "win_payment"
    """A loser pays a winner (``from``, ``amount``; ``for``: a cannon pays for another;
    ``liability``: pao)."""
    KONG_PAYMENT = "kong_payment"
    """A kong is paid at once (``from``, ``amount``, ``kong``, 004)."""
    KONG_TRANSFER = "kong_transfer"
    """A kong's payment passes to the winner on its kong shot (004)."""
    KONG_REFUND = "kong_refund"
    """A not-ready player pays back a kong payment at exhaustion (004)."""
    CANNON = "cannon"
    """A seat let off a cannon and pays for everybody (``winner``, ``tile``, M 90-96)."""
    HAND_SCORE = "hand_score"
    """A loser's hand value at scored settlement (``score``, ``patterns``, ``points``)."""
    LOSERS_PAYMENT = "losers_payment"
    """Losers pay one another the differences of their hands' values (M 107-111)."""
    EXHAUSTION = "exhaustion"
    """The wall ran out (who was ready, and the settlement that follows)."""
    MISSING_SUIT_PENALTY = "missing_suit_penalty"
    """A seat still holding its missing suit at exhaustion pays (000 §10)."""
    NOT_READY_PAYMENT = "not_ready_payment"
    """A not-ready seat pays a ready one at exhaustion."""
    NAGASHI_MANGAN = "nagashi_mangan"
    """Nagashi mangan paid at exhaustion (001)."""
    ABORTIVE_DRAW = "abortive_draw"
    """The round ends with no winner and no payment (``reason``, 001)."""
    HAND_END = "hand_end"
    """The round is over (``scores``, ``winners``, ``exhausted``)."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something the table did, with the score change of each seat it caused."""

    kind: EventKind
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    deltas: tuple[int, ...] = (0, 0, 0, 0)

    @property
    def tile(self) -> Tile | None:
        """The event's tile (a draw's is hidden: None), parsed."""
        raw = self.data.get("tile")
        return Tile.parse(raw) if isinstance(raw, str) else None

    @property
    def payer(self) -> int | None:
        """Who pays, for a payment; who gave the tile, for a claim or a discard win
        (``data["from"]``)."""
        raw = self.data.get("from")
        return raw if isinstance(raw, int) else None

    @property
    def amount(self) -> int:
        """The points a payment moves (0 for an event that is no payment)."""
        raw = self.data.get("amount", 0)
        return raw if isinstance(raw, int) else 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.data:
            out["data"] = self.data
        if any(self.deltas):
            out["deltas"] = list(self.deltas)
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "Event":
        """An event read back from a record; ValueError for a kind the table never emits."""
        try:
            kind = EventKind(raw["kind"])
        except ValueError:
            raise ValueError(f"unknown event kind {raw['kind']!r}") from None
        return cls(
            kind,
            raw.get("seat"),
            dict(raw.get("data", {})),
            tuple(raw.get("deltas", (0, 0, 0, 0))),
        )


# --------------------------------------------------------------------------- event payloads


@dataclass(frozen=True, slots=True)
class PayloadField:
    """One field of an event's ``data``: its name, its JSON type (and a list's item type), and
    whether every event of the kind carries it."""

    name: str
    json_type: type
    items: type | None = None
    required: bool = True
    nullable: bool = False
    """The field may be null (a cannon's tile when the win was self-drawn)."""

    def errors(self, value: Any) -> list[str]:
        if value is None and self.nullable:
            return []
        # bool is an int in Python, never in a payload: a count is not true and a flag is not 1
        if type(value) is not self.json_type:
            return [f"{self.name}: {value!r} is not {self.json_type.__name__}"]
        items = self.items
        if items is not None and any(type(x) is not items for x in cast("list[Any]", value)):
            return [f"{self.name}: {value!r} is not a list of {items.__name__}"]
        return []


def _fields(
    required: str = "", optional: str = "", nullable: str = "", **types: type | tuple[type, type]
) -> tuple[PayloadField, ...]:
    """Fields named by ``required`` and ``optional`` (space-separated), typed by ``types``
    (``(list, int)``: a list of numbers); those also named in ``nullable`` may be null. Names that
    are Python keywords (``from``, ``for``) are given with a trailing underscore."""
    out = []
    for names, needed in ((required, True), (optional, False)):
        for name in names.split():
            typ = types[name]
            kind, items = typ if isinstance(typ, tuple) else (typ, None)
            null = name in nullable.split()
            out.append(PayloadField(name.rstrip("_"), kind, items, needed, null))
    return tuple(out)


_NONE: tuple[PayloadField, ...] = ()

#: What each kind of event carries in ``Event.data``, field by field (the docstrings of
#: :class:`EventKind` say what each field means). The table emits exactly these: the tests hold
#: every event of every profile's seeded games to them (:func:`payload_errors`).
PAYLOADS: dict[EventKind, tuple[PayloadField, ...]] = {
    EventKind.DEAL: _fields(
        "dealer dice wall", "indicators", dealer=int, dice=(list, int), wall=int, indicators=str
    ),
    EventKind.FLOWER: _fields("tile", "deal", deal=bool, tile=str),
    EventKind.EXCHANGE_CHOSEN: _NONE,
    EventKind.EXCHANGE: _fields("direction", direction=str),
    EventKind.DECLARE_CHOSEN: _NONE,
    EventKind.DECLARE: _fields("missing", missing=(list, str)),
    EventKind.DRAW: _fields("replacement left", replacement=bool, left=int),
    EventKind.DISCARD: _fields("tile", "riichi automatic", riichi=bool, automatic=bool, tile=str),
    EventKind.RESPOND: _NONE,
    EventKind.CHI: _fields("tile tiles from_", tiles=str, from_=int, tile=str),
    EventKind.PON: _fields("tile from_", from_=int, tile=str),
    EventKind.MINKAN: _fields("tile from_", from_=int, tile=str),
    EventKind.ANKAN_DECLARED: _fields("tile", tile=str),
    EventKind.ANKAN: _fields("tile", tile=str),
    EventKind.KAKAN_DECLARED: _fields("tile", tile=str),
    EventKind.KAKAN: _fields("tile", tile=str),
    EventKind.INDICATOR: _fields("tile", tile=str),
    EventKind.RIICHI: _fields("double", double=bool),
    EventKind.DEPOSIT: _fields("amount table", amount=int, table=int),
    EventKind.DEPOSITS: _fields("sticks amount table", sticks=int, amount=int, table=int),
    EventKind.ORIGINAL_CALL: _fields("tile", tile=str),
    EventKind.WIN: _fields(
        "tile ron patterns total",
        "from_ robbing",
        ron=bool,
        patterns=(list, str),
        total=int,
        from_=int,
        robbing=bool,
        tile=str,
    ),
    EventKind.WIN_PAYMENT: _fields(
        "from_ amount", "for_ liability", for_=int, liability=str, from_=int, amount=int
    ),
    EventKind.KONG_PAYMENT: _fields("from_ amount kong", kong=str, from_=int, amount=int),
    EventKind.KONG_TRANSFER: _fields("from_ amount", from_=int, amount=int),
    EventKind.KONG_REFUND: _fields("from_ amount", from_=int, amount=int),
    EventKind.CANNON: _fields("winner tile", nullable="tile", winner=int, tile=str),
    EventKind.HAND_SCORE: _fields(
        "score patterns points", score=int, patterns=(list, str), points=int
    ),
    EventKind.LOSERS_PAYMENT: _fields("from_ amount", from_=int, amount=int),
    EventKind.EXHAUSTION: _fields(
        "",
        "settlement ready not_ready nagashi missing_suit_held",
        settlement=str,
        ready=(list, int),
        not_ready=(list, int),
        nagashi=(list, int),
        missing_suit_held=(list, int),
    ),
    EventKind.MISSING_SUIT_PENALTY: _fields("from_ amount", from_=int, amount=int),
    EventKind.NOT_READY_PAYMENT: _fields("from_ amount", from_=int, amount=int),
    EventKind.NAGASHI_MANGAN: _fields("from_ amount", from_=int, amount=int),
    EventKind.ABORTIVE_DRAW: _fields("reason", reason=str),
    EventKind.HAND_END: _fields(
        "scores winners exhausted", scores=(list, int), winners=(list, int), exhausted=bool
    ),
}


def payload_errors(event: Event) -> list[str]:
    """How ``event.data`` departs from its kind's :data:`PAYLOADS`: a field missing, unknown, or
    of another type (empty: it conforms)."""
    fields = PAYLOADS[event.kind]
    known = {f.name: f for f in fields}
    where = f"{event.kind.value} event"
    out = [
        f"{where}: {f.name} is missing" for f in fields if f.required and f.name not in event.data
    ]
    for name, value in event.data.items():
        spec = known.get(name)
        if spec is None:
            out.append(f"{where}: unknown field {name!r} (known: {', '.join(known) or 'none'})")
        else:
            out.extend(f"{where}: {e}" for e in spec.errors(value))
    return out
