"""The shared table state: what every mechanism reads (:class:`~.common.Table`) and only the
machine changes.

The seats' tiles (concealed, counted by kind, melds, discards, river, flowers), the turn's facts,
what the match carried in (round wind, honba, deposits, points), the log (events, decisions) and
the points moved this round. :class:`~.machine.Round` is this state together with the mechanisms
it composes; the changes here are the machine's own primitives: a tile given to or taken from a
seat, an event emitted, a transfer paid. No mechanism lives here, so this module imports only the
shared vocabulary.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..actions import Action, Event, EventKind
from ..context import Wind
from ..hand import Meld
from ..profile import Profile
from ..shapes import claim_candidates, is_complete, remove_identical, wait_mask
from ..tiles import N_ALL_KINDS, N_KINDS, Tile
from .common import SEATS, Phase, Seat, Transfer, kong_count, shape_waits


class TableState:
    """The round's shared state (the tiles, the turn, the log, the points) and its primitive
    changes."""

    def __init__(
        self,
        profile: Profile,
        *,
        dealer: Seat,
        dealer_wins: int,
        round_wind: Wind,
        honba: int,
        deposits: int,
        points: Sequence[int] | None,
    ) -> None:
        self.profile = profile
        self.rules = profile.table
        self.dealer = dealer
        self.dealer_wins = dealer_wins
        """The dealer's consecutive wins before this round (East's 13th consecutive win is a limit
        hand)."""

        # Carried from the match.
        self.round_wind = round_wind
        self.honba = honba
        self.deposits = deposits
        """Riichi deposits on the table (carried ones included), counted in sticks."""
        self.deposits_at_start = deposits
        self.points: list[int] = (
            list(points) if points is not None else [self.rules.match.start_score] * SEATS
        )
        """Each seat's points when the round began (riichi needs enough of them)."""

        # The seats' tiles.
        self.hands: list[list[Tile]] = [[] for _ in range(SEATS)]
        self.counts: list[list[int]] = [[0] * N_ALL_KINDS for _ in range(SEATS)]
        """Per seat, per kind: kept in step with ``hands`` by _give/_take."""
        # Each seat's wait mask (bit k: one more k completes its concealed tiles) with the melds
        # count it was made for; _give/_take drop it, so a claim check on a discard is a bit test.
        self._wait_masks: list[tuple[int, int] | None] = [None] * SEATS
        # Whether the tile _give just added completed the seat's concealed tiles, with the melds
        # count that holds for: the bit of the wait mask the seat had before it (most draws find
        # the mask made by the claim checks of the discards before them), so the self-drawn win
        # check of a turn is a bit test too. _take drops it.
        self._completed: list[tuple[int, bool] | None] = [None] * SEATS
        self.reds_held = [0] * SEATS
        """Per seat, the red fives among its concealed tiles (most turns hold none: a discard per
        kind held is then the turn's discards)."""
        self.flowers: list[list[Tile]] = [[] for _ in range(SEATS)]  # exposed flowers
        self.melds: list[list[Meld]] = [[] for _ in range(SEATS)]
        self.discards: list[list[Tile]] = [[] for _ in range(SEATS)]
        """Discards still in the river (a claimed one leaves it)."""
        self.river: list[list[Tile]] = [[] for _ in range(SEATS)]
        """Every discard, called ones included."""
        self.discard_called = [False] * SEATS
        self.called_discards: list[list[int]] = [[] for _ in range(SEATS)]
        """Per seat: the indices in ``river`` of its discards another seat claimed (a call or a
        win), in order; what a player sees as the tiles turned toward the caller."""
        self.turns_taken = [0] * SEATS  # discards made
        self.discards_made = 0  # this round (Earth's Blessing: a win on East's first discard)
        self.interrupted = False  # a call or kong has been made (ends every "first turn")
        self.active = [True] * SEATS

        # The log and the outcome.
        self.scores = [0] * SEATS
        self.events: list[Event] = []
        self.decisions: list[Action] = []
        self.exhausted = False
        self.aborted: str | None = None

        # The turn.
        self.phase = Phase.OVER
        self.turn = dealer
        self.last_draw: Tile | None = None
        self.drew_replacement = False
        self.drew_last_tile = False
        self.must_discard = False  # after a pon: no draw, so no win or kong

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def active_seats(self) -> list[Seat]:
        return [s for s in range(SEATS) if self.active[s]]

    def kong_count(self) -> int:
        """Kongs on the table, every seat's together."""
        return kong_count(self.melds)

    # ------------------------------------------------------------ the seats' tiles

    def _give(self, seat: Seat, tile: Tile) -> None:
        self.hands[seat].append(tile)
        kind = tile.kind
        self.counts[seat][kind] += 1
        if tile.red:
            self.reds_held[seat] += 1
        masks = self._wait_masks
        cached = masks[seat]
        self._completed[seat] = (
            (cached[0], bool(cached[1] >> kind & 1))
            if cached is not None and kind < N_KINDS
            else None
        )
        masks[seat] = None

    def _take(self, seat: Seat, tile: Tile) -> None:
        hand = self.hands[seat]
        kind, red = tile.kind, tile.red
        # The table's tiles are the shared ones of runtime/tiles.py: the tile itself is found by
        # identity. An equal copy (a tile made elsewhere) is looked for by kind and red, without a
        # dataclass == per tile.
        if not remove_identical(hand, tile):
            for i, t in enumerate(hand):
                if t.kind == kind and t.red == red:
                    del hand[i]
                    break
            else:
                raise ValueError(f"seat {seat} does not hold {tile}")
        self.counts[seat][kind] -= 1
        if red:
            self.reds_held[seat] -= 1
        self._wait_masks[seat] = None
        self._completed[seat] = None

    def concealed_complete(self, seat: Seat) -> bool:
        """Whether the seat's concealed tiles (held flowers aside; callers refuse those) form a
        complete hand with its melds, by shape: the bit :meth:`_give` kept where it could, else
        :func:`~mjspec.runtime.shapes.is_complete`."""
        n_melds = len(self.melds[seat])
        known = self._completed[seat]
        if known is not None and known[0] == n_melds:
            return known[1]
        return is_complete(self.counts[seat][:N_KINDS], n_melds, self.profile.shapes)

    def completed_by(self, seat: Seat, kind: int) -> bool:
        """Whether one more tile of ``kind`` completes the seat's concealed tiles (held flowers
        aside; callers refuse those), by shape: a bit of the seat's wait mask, made once per change
        of its tiles.
        """
        n_melds = len(self.melds[seat])
        cached = self._wait_masks[seat]
        if cached is None or cached[0] != n_melds:
            cached = self._wait_masks[seat] = (
                n_melds,
                wait_mask(self.counts[seat][:N_KINDS], n_melds, self.profile.shapes),
            )
        return bool(cached[1] >> kind & 1)

    def claim_candidates(self, kind: int, discarder: Seat, chi_seat: Seat) -> int:
        """The seats a discard of ``kind`` may concern, as a bit set
        (:func:`~mjspec.runtime.shapes.claim_candidates`: a pon, ``chi_seat``'s chi, a completion by
        the wait masks kept here)."""
        return claim_candidates(
            kind,
            discarder,
            self.counts,
            self.melds,
            self.active,
            self._wait_masks,
            self.profile.shapes,
            chi_seat,
            bool(self.profile.tiles.flowers),
        )

    def _shape_waits(self, seat: Seat, *, held_waits: bool = False) -> frozenset[int]:
        return shape_waits(self.hands[seat], self.melds[seat], self.profile, held_waits=held_waits)

    # ------------------------------------------------------------ the log and the points

    def _emit(self, event: Event) -> None:
        if any(event.deltas):  # most events move no points
            for seat, d in enumerate(event.deltas):
                self.scores[seat] += d
        self.events.append(event)

    def _pay(
        self,
        kind: EventKind,
        receiver: Seat,
        payer: Seat,
        amount: int,
        data: dict[str, Any] | None = None,
    ) -> None:
        if amount == 0 or receiver == payer:
            return
        deltas = [0] * SEATS
        deltas[receiver] += amount
        deltas[payer] -= amount
        self._emit(
            Event(kind, receiver, {"from": payer, "amount": amount, **(data or {})}, tuple(deltas))
        )

    def _settle(self, paid: Sequence[Event | Transfer]) -> None:
        """Emit the events and pay the transfers a mechanism handed back, in order."""
        for p in paid:
            if isinstance(p, Transfer):
                self._pay(p.kind, p.receiver, p.payer, p.amount, p.data)
            else:
                self._emit(p)

    def _indicators(self, tiles: Sequence[Tile]) -> None:
        for tile in tiles:
            self._emit(Event(EventKind.INDICATOR, None, {"tile": tile.mpsz}))
