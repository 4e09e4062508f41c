"""Kongs: the kong being declared (and whether it may be robbed), the chain of kongs of the player
on turn, Kong upon Kong, and kong payments with their ledger (004: paid at once, transferred to a
winner on a kong shot, refunded by a not-ready player at exhaustion). Always built: every table
has kongs; the payments are inert when ``TableRules.kongs`` pays nothing."""

from __future__ import annotations

from typing import Sequence

from ..actions import Event, EventKind
from ..hand import Meld, MeldType
from ..rules import KongPayments
from ..tiles import Tile
from .common import Seat, Transfer, tile_key


class Kongs:
    def __init__(self, rules: KongPayments) -> None:
        self.rules = rules
        self.income: list[tuple[Seat, Seat, int]] = []
        """Every kong payment of the round (receiver, payer, amount), while it stands."""
        self.chain: list[tuple[Seat, Seat, int]] = []
        """The payments of the kongs the player on turn declared since their last ordinary draw."""
        self.pending: tuple[Seat, Tile] | None = None
        """A kong's tile that may be robbed (added, or concealed) and its declarer."""
        self.pending_concealed = False
        """The pending kong is a concealed one (``CallRules.rob_concealed_kong``)."""
        self.this_turn = False
        """The player on turn declared a kong since their last ordinary draw."""
        self.upon_kong = False
        """The player on turn made a kong with a loose tile (Kong upon Kong)."""

    def declare(self, *, drew_replacement: bool) -> None:
        """A kong is declared: made with a loose tile, it is Kong upon Kong."""
        self.upon_kong = drew_replacement

    def await_robbery(self, seat: Seat, tile: Tile, *, concealed: bool) -> None:
        """The kong's tile (set out from a concealed kong, or added to a pon) may be robbed."""
        self.pending = (seat, tile)
        self.pending_concealed = concealed

    def robbery_closed(self) -> tuple[Seat, Tile, bool]:
        """The robbery window has closed (robbed or not): the declarer, the tile, and whether the
        kong is a concealed one."""
        assert self.pending is not None
        seat, tile = self.pending
        concealed = self.pending_concealed
        self.pending = None
        self.pending_concealed = False
        return seat, tile, concealed

    def payments(
        self, seat: Seat, kind: MeldType, discarder: Seat | None, active: Sequence[Seat]
    ) -> list[Transfer]:
        """What a kong is paid at once (004), recorded in the ledger and the chain."""
        k = self.rules
        payers: list[tuple[Seat, int]]
        if kind is MeldType.MINKAN and discarder is not None:
            payers = [(discarder, k.minkan_discarder)]
        else:
            each = k.ankan_each if kind is MeldType.ANKAN else k.kakan_each
            payers = [(o, each) for o in active if o != seat]
        out = []
        for payer, amount in payers:
            if amount:
                out.append(
                    Transfer(EventKind.KONG_PAYMENT, seat, payer, amount, {"kong": kind.value})
                )
                entry = (seat, payer, amount)
                self.income.append(entry)
                self.chain.append(entry)
        return out

    def shot_transfers(self, winners: Sequence[Seat], discarder: Seat) -> list[Transfer]:
        """004 ``transfer_on_kong_shot``: a win on the discard after a kong takes that kong's
        payments from the discarder (shared by several winners, rounded up)."""
        if not self.rules.transfer_on_kong_shot or not self.chain:
            return []
        total = sum(amount for _, _, amount in self.chain)
        share = -(-total // len(winners))
        out = [Transfer(EventKind.KONG_TRANSFER, seat, discarder, share) for seat in winners]
        for (
            entry
        ) in (
            self.chain
        ):  # one ledger entry per transferred payment: an earlier kong's equal entries stay
            self.income.remove(entry)
        return out

    def refunds(self, not_ready: Sequence[Seat]) -> list[Transfer]:
        """004: at exhaustion a not-ready player pays back every kong payment they received."""
        out = []
        for seat in not_ready:
            for entry in [e for e in self.income if e[0] == seat]:
                out.append(Transfer(EventKind.KONG_REFUND, entry[1], seat, entry[2]))
                self.income.remove(entry)
        return out

    def end_chain(self) -> None:
        self.chain = []
        self.this_turn = False

    def drew(self) -> None:
        """An ordinary draw ends the chain and Kong upon Kong."""
        self.chain = []
        self.this_turn = False
        self.upon_kong = False


def added_tile(hand: Sequence[Tile], kind: int) -> Tile:
    """The held tile added to a pon of ``kind``: the first in hand."""
    return next(t for t in hand if t.kind == kind)


def set_out_copy(hand: Sequence[Tile], kind: int) -> Tile:
    """The copy of a concealed kong set out to be robbed: the last in tile order (a red five)."""
    return max((t for t in hand if t.kind == kind), key=tile_key)


def concealed_kong(seat: Seat, hand: Sequence[Tile], tile: Tile) -> tuple[list[Tile], Meld, Event]:
    """A concealed kong of ``tile``'s kind: the tiles it takes from ``hand``, the meld, its
    event."""
    taken = [t for t in hand if t.kind == tile.kind]
    return (
        taken,
        Meld(MeldType.ANKAN, tuple(taken)),
        Event(EventKind.ANKAN, seat, {"tile": tile.mpsz}),
    )


def added_kong(seat: Seat, melds: Sequence[Meld], added: Tile) -> tuple[int, Meld, Event]:
    """A tile added to a pon: which of ``melds`` becomes the kong, the kong, its event."""
    index = next(i for i, m in enumerate(melds) if m.type is MeldType.PON and m.kind == added.kind)
    pon = melds[index]
    kong = Meld(MeldType.KAKAN, (*pon.tiles, added), pon.claimed, pon.source)
    return index, kong, Event(EventKind.KAKAN, seat, {"tile": added.mpsz})
