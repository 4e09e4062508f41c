"""Settlement of a win: who pays the winner what, read from the payment roles in ONE place
(:func:`payers`), the liability for a yakuman (pao, 001), and the scored settlement of the
classical game (003 "Procedure in Settlement", M 107-111) with the cannon (M 90-96).

A score's ``payments`` name roles (``discarder``, ``others``, ``each``, ``dealer`` /
``non_dealer``, ``east`` / ``non_east``); :func:`payers` turns them into what each loser owes.
The procedures here return :class:`~.common.Transfer` values; the machine pays them."""

from __future__ import annotations

from enum import StrEnum
from typing import Callable, Mapping, Sequence

from ..actions import Event, EventKind
from ..hand import Meld, MeldType
from ..rules import Pao, ScoredSettlement
from ..scoring import Score
from ..tiles import Tile
from .common import SEATS, Seat, Table, Transfer


class PaymentRole(StrEnum):
    """Who pays a payment of a score (the keys of ``Score.payments``)."""

    DISCARDER = "discarder"
    """The discarder of the winning tile."""
    OTHERS = "others"
    """Every loser but the discarder (a discard win's other opponents)."""
    EACH = "each"
    """Every loser."""
    DEALER = "dealer"
    """The dealer, when a loser."""
    NON_DEALER = "non_dealer"
    """Every loser but the dealer."""
    EAST = "east"
    """East (the dealer), when a loser (classical)."""
    NON_EAST = "non_east"
    """Every loser but East (classical)."""


def _pays(role: str, loser: Seat, discarder: Seat | None, dealer: Seat) -> bool:
    if role == "discarder":
        return loser == discarder
    if role == "others":
        return loser != discarder
    if role == "each":
        return True
    if role == "dealer" or role == "east":
        return loser == dealer
    if role == "non_dealer" or role == "non_east":
        return loser != dealer
    raise ValueError(f"unknown payment role {role!r}")


def payers(
    payments: Mapping[str, int], losers: Sequence[Seat], *, discarder: Seat | None, dealer: Seat
) -> dict[Seat, int]:
    """What each of ``losers`` owes by the payment roles: the one reading of the roles.

    The mapping lists payers role by role (in the score's role order), each role's losers in the
    order given, a loser first where their first role is; a loser several roles name owes the sum.
    """
    owed: dict[Seat, int] = {}
    for role, amount in payments.items():
        for loser in losers:
            if _pays(role, loser, discarder, dealer):
                owed[loser] = owed.get(loser, 0) + amount
    return owed


def discarder_payment(payments: Mapping[str, int]) -> int:
    """What the discarder of a discard win pays (a ready hand's value at exhaustion, 004)."""
    return payments.get("discarder", 0)


def win_transfers(
    seat: Seat,
    payments: Mapping[str, int],
    losers: Sequence[Seat],
    *,
    discarder: Seat | None,
    dealer: Seat,
) -> list[Transfer]:
    """The payments of a win settled by roles alone (no scored settlement)."""
    return [
        Transfer(EventKind.WIN_PAYMENT, seat, payer, amount)
        for payer, amount in payers(payments, losers, discarder=discarder, dealer=dealer).items()
    ]


class Liability:
    """Pao (001, ``TableRules.pao``): the call that completes the third dragon set or the fourth
    wind set makes its discarder liable for that yakuman."""

    def __init__(self, rules: Pao) -> None:
        self.rules = rules
        self.liable: list[tuple[str, Seat] | None] = [None] * SEATS
        """Per seat: (pattern id, responsible seat)."""

    def note_call(self, seat: Seat, tile: Tile, discarder: Seat, melds: Sequence[Meld]) -> None:
        pao = self.rules
        if not tile.is_honor:
            return
        kinds = {m.kind for m in melds if m.type is not MeldType.CHI} | {tile.kind}
        if tile.is_dragon and pao.dragons is not None and all(k in kinds for k in range(31, 34)):
            self.liable[seat] = (pao.dragons, discarder)
        if tile.is_wind and pao.winds is not None and all(k in kinds for k in range(27, 31)):
            self.liable[seat] = (pao.winds, discarder)

    def covered_share(self, liable: tuple[str, Seat], score: Score) -> tuple[int, int]:
        """(covered, total) han of the liable yakuman within the win."""
        covered = sum(p.points for p in score.patterns if p.id == liable[0])
        if covered and self.rules.covers_whole_hand:
            return score.total, score.total  # the liability covers every yakuman of the hand
        return covered, score.total

    def tsumo(
        self,
        seat: Seat,
        score: Score,
        owed: dict[Seat, int],
        base: Callable[[], dict[Seat, int]],
    ) -> dict[Seat, int]:
        """Pao on a self-draw: the liable player pays the covered yakuman value in full; the rest is
        paid as usual (001). ``base`` gives what each would owe with no honba."""
        liable = self.liable[seat]
        if liable is None:
            return owed
        covered, total = self.covered_share(liable, score)
        if not covered or not total:
            return owed
        without = base()
        out = {}
        pays_honba = self.rules.liable_pays_honba
        honba_total = 0
        for other, amount in owed.items():
            honba_part = amount - without.get(other, 0)
            honba_total += honba_part
            out[other] = without[other] * (total - covered) // total + (
                0 if pays_honba else honba_part
            )
        out[liable[1]] = (
            out.get(liable[1], 0)
            + sum(without.values()) * covered // total
            + (honba_total if pays_honba else 0)
        )
        return out

    def splits_ron(self, seat: Seat, discarder: Seat) -> bool:
        liable = self.liable[seat]
        return liable is not None and liable[1] != discarder and self.rules.split_on_ron

    def ron(
        self,
        seat: Seat,
        discarder: Seat,
        score: Score,
        base: Callable[[], int] | None,
    ) -> list[Transfer]:
        """Pao on a discard win: the covered value is shared half and half by the liable player and
        the discarder (001). ``base`` gives the discarder's payment with no honba (None: the payment
        itself, for every winner but the nearest, who alone takes the honba)."""
        liable = self.liable[seat]
        assert liable is not None
        covered, total = self.covered_share(liable, score)
        amount = discarder_payment(score.payments)
        without = base() if base is not None else amount
        half = (without * covered // total) // 2 if total else 0
        honba_part = amount - without if self.rules.liable_pays_honba else 0
        out = []
        if half or honba_part:
            out.append(
                Transfer(
                    EventKind.WIN_PAYMENT,
                    seat,
                    liable[1],
                    half + honba_part,
                    {"liability": liable[0]},
                )
            )
        out.append(Transfer(EventKind.WIN_PAYMENT, seat, discarder, amount - half - honba_part))
        return out


class Scored:
    """003 "Procedure in Settlement" / M 107-111 (``TableRules.settlement``): every loser pays the
    winner the hand's value by the payment roles (East's double is in the formulas); the discarder
    pays double under ``discarder_doubles``; a player who let off a cannon (M 90-96) pays for
    everybody, and then the losers do not settle; otherwise the losers pay one another the
    differences of their hands' values, doubled to or from East under ``east_doubles``."""

    def __init__(self, rules: ScoredSettlement) -> None:
        self.rules = rules
        self.cannon_liable: list[Seat | None] = [None] * SEATS
        """M 90-96: who let off a cannon by a claimed discard, per claimer."""

    def cannon(
        self,
        winner: Seat,
        discarder: Seat | None,
        tile: Tile | None,
        melds: Sequence[Meld],
        hands: Sequence[Sequence[Tile]],
    ) -> Seat | None:
        """Who pays for everybody: the discarder of a dangerous discard won on, else the discarder
        of a dangerous discard the winner claimed earlier for a set."""
        if not self.rules.cannon:
            return None
        if discarder is not None and tile is not None:
            if let_off_cannon(melds, tile, hands[discarder]):
                return discarder
        return self.cannon_liable[winner]

    def note_call(
        self, seat: Seat, tile: Tile, discarder: Seat, melds: Sequence[Meld], held: Sequence[Tile]
    ) -> None:
        """M 90-96 (as xmj records it): claiming a dangerous discard for a set makes its
        discarder liable for the claimer's next win, not only a dangerous discard won on. The
        discard's tile is still in the discarder's river, the claimer's sets are those exposed
        before this claim."""
        if (
            self.rules.cannon
            and self.cannon_liable[seat] is None
            and let_off_cannon(melds, tile, held)
        ):
            self.cannon_liable[seat] = discarder

    def win(
        self,
        winner: Seat,
        score: Score,
        discarder: Seat | None,
        cannon: Seat | None,
        *,
        dealer: Seat,
    ) -> list[Transfer]:
        """The losers' payments to the winner, in seat order."""
        losers = [s for s in range(SEATS) if s != winner]
        owed = payers(score.payments, losers, discarder=discarder, dealer=dealer)
        out = []
        for other in sorted(owed):  # 003: every loser in seat order
            amount = owed[other]
            if self.rules.discarder_doubles and other == discarder:
                amount *= 2
            payer = other if cannon is None else cannon
            out.append(
                Transfer(
                    EventKind.WIN_PAYMENT,
                    winner,
                    payer,
                    amount,
                    {} if payer == other else {"for": other},
                )
            )
        return out

    def losers_settle(self, cannon: Seat | None) -> bool:
        return self.rules.losers_settle and cannon is None

    def between_losers(self, values: Mapping[Seat, int], *, dealer: Seat) -> list[Transfer]:
        """The losers pay one another the differences of their hands' values (M 107-111)."""
        losers = list(values)
        out = []
        for i, a in enumerate(losers):
            for b in losers[i + 1 :]:
                diff = values[a] - values[b]
                if self.rules.east_doubles and dealer in (a, b):
                    diff *= 2
                if diff > 0:
                    out.append(Transfer(EventKind.LOSERS_PAYMENT, a, b, diff))
                elif diff < 0:
                    out.append(Transfer(EventKind.LOSERS_PAYMENT, b, a, -diff))
        return out


def cannon_event(cannon: Seat, winner: Seat, tile: Tile | None) -> Event:
    return Event(EventKind.CANNON, cannon, {"winner": winner, "tile": tile.mpsz if tile else None})


def let_off_cannon(exposed: Sequence[Meld], tile: Tile, discarder_hand: Sequence[Tile]) -> bool:
    """M 90-96 as the spec reads them (as xmj judges them): the winner had exposed three sets all
    of one suit, or all of honours, and the discard was of that suit (an honour, against honours;
    an honour is not the danger a suit is); and the discarder had a choice (some tile they held
    was not as dangerous; the table decides, nobody pleads)."""
    if len(exposed) < 3:
        return False
    suits = {m.tiles[0].suit for m in exposed}
    if len(suits) != 1:
        return False
    (suit,) = suits
    if tile.suit is not suit:
        return False
    return any(t.suit is not suit for t in discarder_hand if not t.is_flower)


Paid = Event | Transfer
"""What a settlement hands the machine, in the order it happens: a payment, or an announcement
(a cannon, a loser's hand value)."""


class Settlement:
    """How a win is paid: by the payment roles alone, with pao where ``TableRules.pao`` names it
    (:class:`Liability`), or by the scored settlement (:class:`Scored`). Each procedure returns
    the events and payments in order; the machine emits and pays them."""

    def __init__(self, pao: Pao | None, scored: ScoredSettlement | None) -> None:
        self.liability = Liability(pao) if pao is not None else None
        self.scored = Scored(scored) if scored is not None else None

    def note_call(
        self, table: Table, seat: Seat, tile: Tile, discarder: Seat, *, liability: bool
    ) -> None:
        """A claim for a set, before its meld joins the seat's: pao (001) and the cannon (M 90-96)
        note who gave the tile (the seat's sets before the call, the discarder's tiles)."""
        melds = table.melds[seat]
        held = table.hands[discarder]
        if liability and self.liability is not None:
            self.liability.note_call(seat, tile, discarder, melds)
        if self.scored is not None:
            self.scored.note_call(seat, tile, discarder, melds, held)

    def ron(
        self,
        table: Table,
        seat: Seat,
        score: Score,
        discarder: Seat,
        tile: Tile | None,
        *,
        nearest: bool,
        values: Callable[[Seat], tuple[int, Event]],
        without_honba: Callable[[], Mapping[str, int]],
    ) -> list[Paid]:
        """A discard win's payments (``tile``: the discard, None for a robbed kong's tile, which
        lets off no cannon). ``nearest``: the winner nearest the discarder, who alone takes the
        honba; ``values``: a loser's hand value (scored settlement); ``without_honba``: the win's
        payments with no honba (pao). The losers are the table's other active seats."""
        dealer = table.dealer
        if self.scored is not None:
            return self.scored_win(
                seat, score, discarder, tile, table.melds[seat], table.hands, dealer, values
            )
        liability = self.liability
        if liability is not None and liability.splits_ron(seat, discarder):
            # Only the nearest winner takes the honba: the others' payment has none to take out.
            base = (lambda: discarder_payment(without_honba())) if nearest else None
            return list(liability.ron(seat, discarder, score, base))
        losers = [o for o in range(SEATS) if table.active[o] and o != seat]
        return list(win_transfers(seat, score.payments, losers, discarder=discarder, dealer=dealer))

    def tsumo(
        self,
        table: Table,
        seat: Seat,
        score: Score,
        *,
        values: Callable[[Seat], tuple[int, Event]],
        without_honba: Callable[[], Mapping[str, int]],
    ) -> list[Paid]:
        """A self-draw's payments (as :meth:`ron`)."""
        dealer = table.dealer
        if self.scored is not None:
            return self.scored_win(
                seat, score, None, None, table.melds[seat], table.hands, dealer, values
            )
        losers = [o for o in range(SEATS) if table.active[o] and o != seat]
        owed = payers(score.payments, losers, discarder=None, dealer=dealer)
        if self.liability is not None:
            owed = self.liability.tsumo(
                seat,
                score,
                owed,
                lambda: payers(without_honba(), losers, discarder=None, dealer=dealer),
            )
        return [
            Transfer(EventKind.WIN_PAYMENT, seat, other, amount) for other, amount in owed.items()
        ]

    def scored_win(
        self,
        winner: Seat,
        score: Score,
        discarder: Seat | None,
        tile: Tile | None,
        melds: Sequence[Meld],
        hands: Sequence[Sequence[Tile]],
        dealer: Seat,
        values: Callable[[Seat], tuple[int, Event]],
    ) -> list[Paid]:
        """003 "Procedure in Settlement" / M 107-111 (:class:`Scored`): the cannon, the losers'
        payments to the winner, then each loser's hand value and the payments between them."""
        scored = self.scored
        assert scored is not None
        out: list[Paid] = []
        cannon = scored.cannon(winner, discarder, tile, melds, hands)
        if cannon is not None:
            out.append(cannon_event(cannon, winner, tile))
        out += scored.win(winner, score, discarder, cannon, dealer=dealer)
        if not scored.losers_settle(cannon):
            return out
        valued: dict[Seat, int] = {}
        for s in range(SEATS):
            if s != winner:
                valued[s], event = values(s)
                out.append(event)
        out += scored.between_losers(valued, dealer=dealer)
        return out
