"""The vocabulary the table's mechanisms share: seats, phases, win records, transfers, automations.

Every mechanism module of :mod:`mjspec.runtime.table` imports only this module (and runtime
modules outside the table), never another mechanism: the machine (:mod:`.machine`) composes
them. The action values the table offers are made once here (a frozen dataclass per option is
the costliest step of listing a turn's options), so every mechanism hands out the same objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Flag, StrEnum, auto
from typing import Any, Protocol, Sequence, TypeAlias

from ..actions import Action, ActionKind, Event, EventKind
from ..context import WinContext, Wind
from ..hand import Meld, MeldType
from ..scoring import Score
from ..profile import Profile
from ..shapes import held_items, waits
from ..tiles import _PLAIN_TILES, _RED_TILES, N_ALL_KINDS, N_KINDS, SUIT_LAYOUT, Suit, Tile

Seat: TypeAlias = int
"""A seat at the table, 0-3, counted from the first dealer (not a wind: the seat wind turns with the
deal, :func:`seat_wind`). An alias, as python-chess's ``Square``: seats are indices everywhere."""

SEATS = 4
WINDS = (Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH)


def seat_wind(seat: Seat, dealer: Seat) -> Wind:
    """The wind ``seat`` sits at when ``dealer`` deals (the dealer is East)."""
    return WINDS[(seat - dealer) % SEATS]


def next_seat(seat: Seat, offset: int = 1) -> Seat:
    """The seat ``offset`` places after ``seat`` in turn order (counter-clockwise)."""
    return (seat + offset) % SEATS


class Phase(StrEnum):
    """Where the round stands."""

    EXCHANGE = "exchange"
    """Every player chooses tiles to pass (hidden, simultaneous)."""
    DECLARE = "declare"
    """Every player declares a missing suit."""
    TURN = "turn"
    """The player on turn discards, declares a kong or wins."""
    CLAIM = "claim"
    """The other players answer a discard: win, pon, kong or pass."""
    ROB = "rob"
    """The other players may rob an added kong."""
    STEP = "step"
    """The table waits for a non-player step the caller chose to perform itself
    (:class:`Automation`)."""
    OVER = "over"
    """The round has ended."""


class Automation(Flag):
    """Non-player steps the engine may perform by itself (pokerkit's ``automations``).

    The default, :data:`ALL_AUTOMATIONS`, is the table as it has always played (and as every
    record replays). A step left out waits in :attr:`Phase.STEP` as :attr:`Round.pending_step`
    until the caller performs it with :meth:`Round.step` (a step-by-step client, a replay that
    shows every draw)."""

    DRAW = auto()
    """The next player's draw from the live wall once a discard is not claimed."""
    REPLACEMENT = auto()
    """The replacement tile after a kong or a bonus tile exposed in play (a bonus tile dealt is
    replaced as part of the deal, ``BonusTiles.declare_at_deal``)."""
    CLAIM_PASS = auto()
    """Closing a discard's claim window nobody can answer (no win, call or pass is offered)."""
    RIICHI_DISCARD = auto()
    """A riichi player's drawn tile, when discarding it is their only option and the rules
    (``RiichiRules.automatic_discard``) discard it for them (001). Left out, the player sends it."""


ALL_AUTOMATIONS = (
    Automation.DRAW | Automation.REPLACEMENT | Automation.CLAIM_PASS | Automation.RIICHI_DISCARD
)


class StepKind(StrEnum):
    """A non-player step the table waits for when its automation is off."""

    DRAW = "draw"
    REPLACEMENT = "replacement"
    CLAIM_PASS = "claim_pass"


@dataclass(frozen=True, slots=True)
class Step:
    """A non-player step the table waits for (:attr:`Phase.STEP`)."""

    kind: StepKind
    seat: Seat
    """Who draws (a draw or a replacement); the discarder (a claim window closing)."""
    kong: bool = True
    """A replacement's cause: a kong (True) or an exposed bonus tile."""


@dataclass(frozen=True, slots=True)
class WinRecord:
    """One win of the round."""

    seat: Seat
    discarder: Seat | None
    tile: Tile
    score: Score
    order: int  # which win event (0 = first); several rons on one discard share it


@dataclass(frozen=True, slots=True)
class Transfer:
    """Points ``payer`` owes ``receiver``: what a mechanism hands the machine to pay (an event
    each)."""

    kind: EventKind
    """The payment event's kind (``win_payment``, ``kong_payment``, ``not_ready_payment`` ...)."""
    receiver: Seat
    payer: Seat
    amount: int
    data: dict[str, Any] = field(default_factory=dict)


class Table(Protocol):
    """The table's shared state as a mechanism may read it: the seats' tiles, the turn's facts, what
    the match carried in, and the few answers the machine composes from several mechanisms.

    :class:`~.machine.Round` owns this state and is the only one to change it; a mechanism function
    takes the table to read it (the machine passes itself, which spares copying the state every
    turn), keeps its own state in its own object, and hands its effects back to the machine as
    actions, events, steps and :class:`Transfer` values."""

    @property
    def profile(self) -> Profile: ...
    @property
    def dealer(self) -> Seat: ...
    @property
    def round_wind(self) -> Wind: ...
    @property
    def honba(self) -> int: ...
    @property
    def deposits(self) -> int: ...
    @property
    def dealer_wins(self) -> int: ...
    @property
    def hands(self) -> list[list[Tile]]: ...
    @property
    def counts(self) -> list[list[int]]: ...
    @property
    def melds(self) -> list[list[Meld]]: ...
    @property
    def discards(self) -> list[list[Tile]]: ...
    @property
    def flowers(self) -> list[list[Tile]]: ...
    @property
    def river(self) -> list[list[Tile]]: ...
    @property
    def discard_called(self) -> list[bool]: ...
    @property
    def active(self) -> list[bool]: ...
    @property
    def events(self) -> list[Event]: ...
    @property
    def interrupted(self) -> bool: ...
    @property
    def turns_taken(self) -> list[int]: ...
    @property
    def discards_made(self) -> int: ...
    @property
    def last_draw(self) -> Tile | None: ...
    @property
    def drew_replacement(self) -> bool: ...
    @property
    def drew_last_tile(self) -> bool: ...
    @property
    def must_discard(self) -> bool: ...
    @property
    def phase(self) -> Phase: ...
    @property
    def turn(self) -> Seat: ...
    @property
    def scores(self) -> list[int]: ...
    @property
    def points(self) -> list[int]: ...
    @property
    def wall_remaining(self) -> int: ...

    def pending_seats(self) -> list[Seat]: ...
    def kong_count(self) -> int: ...

    def kong_allowed(self) -> bool:
        """Whether a kong may be declared now (a tile to draw, a replacement, the kong limit)."""
        ...

    def tsumo_score(self, seat: Seat) -> Score | None:
        """The score of the seat's self-drawn win now, None where no rule lets it win."""
        ...

    def completed_by(self, seat: Seat, kind: int) -> bool:
        """Whether one more ``kind`` completes the seat's concealed tiles by shape."""
        ...

    def claim_candidates(self, kind: int, discarder: Seat, chi_seat: Seat) -> int:
        """The seats a discard of ``kind`` may concern (a pon, a chi, a completion), as bits."""
        ...

    @property
    def reds_held(self) -> list[int]:
        """Per seat, the red fives among its concealed tiles."""
        ...

    def concealed_complete(self, seat: Seat) -> bool:
        """Whether the seat's concealed tiles complete its hand by shape (held flowers aside)."""
        ...

    def in_riichi(self, seat: Seat) -> bool: ...

    def win_context(self, seat: Seat, **situation: Any) -> WinContext:
        """The situation of a win for ``seat`` now (every mechanism's facts about the seat)."""
        ...

    def ron_score(
        self, seat: Seat, tile: Tile, *, robbing: bool, honba: int | None = None
    ) -> Score | None:
        """The score of ``seat`` winning on ``tile`` now, None where no rule lets it win."""
        ...


KONG_TYPES = frozenset((MeldType.ANKAN, MeldType.MINKAN, MeldType.KAKAN))


def kong_count(melds: Sequence[Sequence[Meld]]) -> int:
    """Kongs on the table, every seat's together."""
    n = 0
    for seat_melds in melds:  # loops, not a generator: asked before every kong and claim of a kong
        for m in seat_melds:
            if m.type in KONG_TYPES:
                n += 1
    return n


def closed(melds: Sequence[Meld]) -> bool:
    """No exposed set: concealed kongs only (riichi needs it, 001)."""
    for m in melds:
        if m.type is not MeldType.ANKAN:
            return False
    return True


#: The kind index of each suit's 1 (suits hold nine kinds, honors seven).
SUIT_FIRST_KIND = {suit: first for suit, (first, _) in SUIT_LAYOUT.items()}


def tile_key(t: Tile) -> int:
    """A tile's order (a red five right after the plain fives), as one int that hashes at C
    speed."""
    return 2 * t.kind + t.red


_DISCARD_ACTIONS: list[list[Action | None]] = [[None] * (2 * N_ALL_KINDS) for _ in range(SEATS)]
"""Per seat, by tile key: the DISCARD action. Actions are immutable values, and making one (a frozen
dataclass) is the costliest step of listing a turn's options (at most 4 x 84 of them)."""


def discard_action(seat: Seat, tile: Tile) -> Action:
    return _DISCARD_ACTIONS[seat][2 * tile.kind + tile.red]  # type: ignore[return-value]


# Every tile's discard exists from the start (the shared tiles of runtime/tiles.py: each kind, and
# the red five of each suit, the only red tiles there are): the discard functions read them
# without a test.
for _seat in range(SEATS):
    for _tile in (*_PLAIN_TILES, *_RED_TILES.values()):
        _DISCARD_ACTIONS[_seat][2 * _tile.kind + _tile.red] = Action(
            ActionKind.DISCARD, _seat, tile=_tile
        )
del _seat, _tile

_PLAIN_DISCARDS: list[list[Action]] = [
    [_DISCARD_ACTIONS[seat][2 * kind] for kind in range(N_ALL_KINDS)]  # type: ignore[misc]
    for seat in range(SEATS)
]
"""Per seat, by kind: the DISCARD of the kind's plain tile."""


def kind_discards(seat: Seat, counts: Sequence[int]) -> list[Action]:
    """One DISCARD per kind held, in tile order, from the seat's counts: for a hand without a red
    five, where a kind is one tile (a native pick by counts, not a look at each tile)."""
    return held_items(_PLAIN_DISCARDS[seat], counts)


def discard_actions(seat: Seat, tiles: Sequence[Tile]) -> list[Action]:
    """One DISCARD per distinct tile of ``tiles``, in tile order (a red five after the plain
    fives)."""
    by_key = _DISCARD_ACTIONS[seat]
    return [by_key[k] for k in sorted({2 * t.kind + t.red for t in tiles})]  # type: ignore[misc]


_ACTIONS: dict[tuple[Any, ...], Action] = {}
"""Every other action the table has offered, by (kind, seat, tile key, tile keys...): the table
offers the same few values again and again (a pon, a chi with these two tiles, a riichi)."""


def action(
    kind: ActionKind, seat: Seat, tile: Tile | None = None, tiles: tuple[Tile, ...] = ()
) -> Action:
    """``Action(kind, seat, tile=tile, tiles=tiles)``, made once per distinct value."""
    key = (
        kind,
        seat,
        -1 if tile is None else 2 * tile.kind + tile.red,
        *[2 * t.kind + t.red for t in tiles],
    )
    made = _ACTIONS.get(key)
    if made is None:
        made = _ACTIONS[key] = Action(kind, seat, tile=tile, tiles=tiles)
    return made


SEAT_ACTIONS: dict[ActionKind, tuple[Action, ...]] = {
    kind: tuple(Action(kind, seat) for seat in range(SEATS))
    for kind in (
        ActionKind.PASS,
        ActionKind.RON,
        ActionKind.TSUMO,
        ActionKind.PON,
        ActionKind.MINKAN,
        ActionKind.NINE_TERMINALS,
    )
}
"""The actions that name only a kind and a seat, by kind and seat."""
PASS = SEAT_ACTIONS[ActionKind.PASS]
RON = SEAT_ACTIONS[ActionKind.RON]
TSUMO = SEAT_ACTIONS[ActionKind.TSUMO]
PON = SEAT_ACTIONS[ActionKind.PON]
MINKAN = SEAT_ACTIONS[ActionKind.MINKAN]


def held_copies(tiles: Sequence[Tile], kind: int) -> tuple[Tile | None, int, Tile | None, int]:
    """(a plain tile, how many, a red tile, how many) of ``kind`` among ``tiles``."""
    plain = red = None
    n_plain = n_red = 0
    for t in tiles:
        if t.kind == kind:
            if t.red:
                red = t
                n_red += 1
            else:
                plain = t
                n_plain += 1
    return plain, n_plain, red, n_red


def distinct_copies(tiles: Sequence[Tile], kind: int) -> list[Tile]:
    """The distinct tiles of ``kind`` among ``tiles`` in tile order: a plain one, then a red
    five."""
    plain, _, red, _ = held_copies(tiles, kind)
    return [t for t in (plain, red) if t is not None]


def holds_suit(counts: Sequence[int], suit: Suit) -> bool:
    """Whether the counts hold a tile of ``suit`` (a suit of nine kinds)."""
    lo = SUIT_FIRST_KIND[suit]
    return any(counts[lo : lo + 9])


def shape_waits(
    tiles: Sequence[Tile], melds: Sequence[Meld], profile: Profile, *, held_waits: bool = False
) -> frozenset[int]:
    """The kinds that would complete ``tiles`` with ``melds`` by shape alone (a kind whose every
    copy the player holds only with ``held_waits``); empty for a hand of the wrong size or with a
    flower.
    """
    counts = [0] * N_KINDS
    for t in tiles:
        k = t.kind
        if k >= N_KINDS:  # a held flower
            return frozenset()
        counts[k] += 1
    held = tuple(melds)
    if sum(counts) != 13 - 3 * len(held):
        return frozenset()
    copies = profile.tiles.copies + (1 if held_waits else 0)
    return waits(counts, held, profile.shapes, profile.tiles.kinds(), copies=copies)
