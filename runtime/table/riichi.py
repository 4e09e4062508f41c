"""Riichi (001 "Riichi"): the declaration with a closed ready hand, double riichi, ippatsu, the
waits a later concealed kong must keep, the deposit that stands once the declaration discard is
not won on, and the deposits the winner collects. Built only with ``TableRules.riichi``."""

from __future__ import annotations

from typing import Sequence

from ..actions import Action, ActionKind, Event, EventKind
from ..hand import Meld, MeldType
from ..rules import RiichiRules
from ..shapes import discard_shanten, shanten
from ..tiles import N_KINDS, Tile
from .common import SEATS, TSUMO, Seat, Table, action, closed, discard_action, shape_waits

_NO_IPPATSU = (False,) * SEATS


class Riichi:
    """Who declared riichi, their waits and one-shot go-around, and the declaration awaiting its
    deposit."""

    def __init__(self, rules: RiichiRules) -> None:
        self.rules = rules
        self.declared = [False] * SEATS
        self.double = [False] * SEATS
        self.ippatsu = [False] * SEATS
        self.waits: list[frozenset[int]] = [frozenset()] * SEATS
        self.sideways: list[int | None] = [None] * SEATS
        """Per seat: the index in its river of the declaration discard, laid sideways (001)."""
        self.pending: Seat | None = None
        """The declarer whose sideways discard awaits the claims (the deposit is paid once it
        passes)."""

    def declarations(self, table: Table, seat: Seat, discards: Sequence[Action]) -> list[Action]:
        """RIICHI with each discard that leaves a closed hand ready, when the declarer has the
        points and the wall has the tiles (the machine asks only when no call was just made)."""
        melds = table.melds[seat]
        rules = self.rules
        if not closed(melds):
            return []
        points = table.points[seat] + table.scores[seat]
        if points < rules.min_points or table.wall_remaining < rules.min_wall:
            return []
        profile = table.profile
        hand = table.hands[seat]
        plain = table.counts[seat][:N_KINDS]
        if shanten(plain, len(melds), profile.shapes) > 0:
            return []  # no discard can leave a ready hand (a cheap test before trying each discard)
        after = discard_shanten(plain, len(melds), profile.shapes)
        out = []
        for discard in discards:
            t = discard.tile
            assert t is not None
            if after.get(t.kind, 99) == 0:
                rest = list(hand)
                rest.remove(t)
                if shape_waits(rest, melds, profile):
                    out.append(action(ActionKind.RIICHI, seat, t))
        return out

    def why_not(self, table: Table, seat: Seat) -> str:
        """Why the seat may not declare riichi now (the first rule its state breaks)."""
        rules = self.rules
        if self.declared[seat]:
            return "riichi is already declared"
        if table.must_discard or not closed(table.melds[seat]):
            return "riichi needs a closed hand"
        if table.points[seat] + table.scores[seat] < rules.min_points:
            return f"riichi needs at least {rules.min_points} points"
        if table.wall_remaining < rules.min_wall:
            return f"riichi needs at least {rules.min_wall} tiles left in the live wall"
        return "that discard does not leave the hand ready"

    def turn_options(self, table: Table, seat: Seat) -> list[Action]:
        """After riichi: win, an allowed concealed kong, or the drawn tile goes (001)."""
        out: list[Action] = []
        if table.tsumo_score(seat) is not None:
            out.append(TSUMO[seat])
        drawn = table.last_draw
        if drawn is None:
            return out
        hand = table.hands[seat]
        if (
            table.counts[seat][drawn.kind] == 4
            and table.profile.table.calls.ankan
            and table.kong_allowed()
        ):
            rest = [t for t in hand if t.kind != drawn.kind]
            kong = Meld(MeldType.ANKAN, tuple(t for t in hand if t.kind == drawn.kind))
            keeps = shape_waits(rest, [*table.melds[seat], kong], table.profile) == self.waits[seat]
            if keeps or not self.rules.kong_keeps_waits:
                out.append(action(ActionKind.ANKAN, seat, Tile(drawn.kind)))
        out.append(discard_action(seat, drawn))
        return out

    def automatic_discard(self, seat: Seat, legal: Sequence[Action]) -> Tile | None:
        """The drawn tile a riichi player discards without a decision: when it is their only option
        (001)."""
        if not self.declared[seat] or not self.rules.automatic_discard:
            return None
        if len(legal) == 1 and legal[0].kind is ActionKind.DISCARD:
            return legal[0].tile
        return None

    def declare(self, table: Table, seat: Seat, tile: Tile) -> Event:
        """Declare riichi with ``tile`` to go sideways (the discard follows); double riichi on an
        uninterrupted first turn."""
        rest = list(table.hands[seat])
        rest.remove(tile)
        waits = shape_waits(rest, table.melds[seat], table.profile)
        first_turn = table.turns_taken[seat] == 0 and not table.interrupted
        self.declared[seat] = True
        self.double[seat] = first_turn and self.rules.double_riichi
        self.ippatsu[seat] = self.rules.ippatsu
        self.waits[seat] = waits
        self.sideways[seat] = len(table.river[seat])  # the declaration discard comes next
        self.pending = seat
        return Event(EventKind.RIICHI, seat, {"double": self.double[seat]})

    def interrupt(self) -> None:
        """A call or kong breaks every riichi's one-shot go-around (001)."""
        # In place: an observation's source holds this list for the whole round.
        self.ippatsu[:] = _NO_IPPATSU

    def void_pending(self) -> None:
        """The declaration discard was won on: the riichi stands void, no deposit."""
        self.pending = None

    def stand(self) -> Event | None:
        """No one won on the declaration discard: the deposit goes on the table (a ``deposit``
        event)."""
        seat = self.pending
        if seat is None:
            return None
        self.pending = None
        deposit = self.rules.deposit
        deltas = [0] * SEATS
        deltas[seat] = -deposit
        return Event(EventKind.DEPOSIT, seat, {"amount": deposit, "table": deposit}, tuple(deltas))

    def collect(self, seat: Seat, sticks: int) -> Event | None:
        """The winner takes every riichi deposit on the table (001); None when there are none."""
        if not sticks:
            return None
        amount = sticks * self.rules.deposit
        deltas = [0] * SEATS
        deltas[seat] = amount
        return Event(
            EventKind.DEPOSITS,
            seat,
            {"sticks": sticks, "amount": amount, "table": -amount},
            tuple(deltas),
        )
