"""Exhaustion: the wall runs out with no winner (and nagashi mangan, 001).

Either the ready pool (001: not-ready players pay ready ones; nagashi mangan first), or the
settlements of 000 §10 / 004 (kong refunds by not-ready players, the missing-suit penalty, the
not-ready payment of the ready hand's value). Always built: every table can run out of tiles.
The machine gathers the facts (who is ready, hands' values); this module decides the payments."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ..actions import EventKind
from ..rules import ExhaustionRules
from ..tiles import Suit, Tile
from .common import SEATS, Seat, Table, Transfer, holds_suit, shape_waits


class Exhaustion:
    def __init__(self, rules: ExhaustionRules) -> None:
        self.rules = rules
        self.ready_at_end: list[Seat] = []
        """The seats ready when the wall ran out (under the ready pool)."""

    @property
    def by_ready_pool(self) -> bool:
        return bool(self.rules.ready_pool) or self.rules.nagashi is not None

    @property
    def needs_ready(self) -> bool:
        return self.rules.not_ready_pays_ready or self.rules.refund_kong_income

    def settle_table(
        self,
        table: Table,
        *,
        missing: Sequence[Suit | None],
        ready_value: Callable[[Seat], int | None],
        refunds: Callable[[Sequence[Seat]], list[Transfer]],
    ) -> tuple[dict[str, Any], list[Transfer]]:
        """The wall has run out: the ready pool (who is ready by shape, their rivers), or the
        settlements of the active players (``missing``: the declared missing suits, whose holders
        are never ready; ``ready_value``: a seat's ready value; ``refunds``: the kong refunds)."""
        if self.by_ready_pool:
            held = self.rules.ready_with_held_waits
            profile = table.profile
            ready = [
                s
                for s in range(SEATS)
                if shape_waits(table.hands[s], table.melds[s], profile, held_waits=held)
            ]
            return self.ready_pool(ready, table.river, table.discard_called, dealer=table.dealer)
        players = [s for s in range(SEATS) if table.active[s]]
        holders = [
            s
            for s in players
            if (suit := missing[s]) is not None
            and (
                holds_suit(table.counts[s], suit)
                or any(t.suit == suit for m in table.melds[s] for t in m.tiles)
            )
        ]
        return self.settle(players, holders, ready_value, refunds)

    def ready_pool(
        self,
        ready: Sequence[Seat],
        rivers: Sequence[Sequence[Tile]],
        called: Sequence[bool],
        *,
        dealer: Seat,
    ) -> tuple[dict[str, Any], list[Transfer]]:
        """001: nagashi mangan first; otherwise the ready pool passes from not-ready to ready
        players. Returns the ``exhaustion`` event's data and the payments."""
        rules = self.rules
        not_ready = [s for s in range(SEATS) if s not in ready]
        self.ready_at_end = list(ready)
        nagashi = [
            s for s in range(SEATS) if rules.nagashi is not None and _nagashi(rivers[s], called[s])
        ]
        data = {"ready": list(ready), "not_ready": not_ready, "nagashi": nagashi}
        out: list[Transfer] = []
        if nagashi and rules.nagashi is not None:
            for seat in nagashi:
                for other in range(SEATS):
                    if other == seat:
                        continue
                    if seat == dealer:
                        amount = rules.nagashi.dealer_from_each
                    else:
                        amount = (
                            rules.nagashi.from_dealer
                            if other == dealer
                            else rules.nagashi.from_non_dealer
                        )
                    out.append(Transfer(EventKind.NAGASHI_MANGAN, seat, other, amount))
        elif ready and not_ready and rules.ready_pool:
            share = rules.ready_pool // (len(ready) * len(not_ready))
            for payer in not_ready:
                for receiver in ready:
                    out.append(Transfer(EventKind.NOT_READY_PAYMENT, receiver, payer, share))
        return data, out

    def settle(
        self,
        players: Sequence[Seat],
        holders: Sequence[Seat],
        ready_value: Callable[[Seat], int | None],
        refunds: Callable[[Sequence[Seat]], list[Transfer]],
    ) -> tuple[dict[str, Any], list[Transfer]]:
        """000 §10 / 004: the active ``players``, the ``holders`` of their missing suit, each one's
        ready value (None: not ready) and the kong refunds the not-ready owe. Returns the
        ``exhaustion`` event's data and the payments, in the rules' order."""
        rules = self.rules
        needs_ready = self.needs_ready
        values = {s: (None if s in holders or not needs_ready else ready_value(s)) for s in players}
        ready = [s for s in players if values[s] is not None]
        not_ready = [s for s in players if values[s] is None]
        data: dict[str, Any] = (
            {"ready": ready, "not_ready": not_ready, "missing_suit_held": list(holders)}
            if needs_ready
            else {"settlement": "none"}
        )
        out: list[Transfer] = []
        if rules.refund_kong_income:
            out += refunds(not_ready)
        if rules.missing_suit_penalty:
            for seat in holders:
                for other in players:
                    if other not in holders:
                        out.append(
                            Transfer(
                                EventKind.MISSING_SUIT_PENALTY,
                                other,
                                seat,
                                rules.missing_suit_penalty,
                            )
                        )
        if rules.not_ready_pays_ready:
            for seat in not_ready:
                if rules.missing_suit_penalty and seat in holders:
                    continue  # the penalty replaces the not-ready payment (004)
                for other in ready:
                    value = values[other]
                    assert value is not None
                    if rules.ready_value_cap is not None:
                        value = min(value, rules.ready_value_cap)
                    out.append(Transfer(EventKind.NOT_READY_PAYMENT, other, seat, value))
        return data, out


def _nagashi(river: Sequence[Tile], called: bool) -> bool:
    """Every discard a terminal or honor, and none of them called (001)."""
    return bool(river) and not called and all(t.is_terminal_or_honor for t in river)
