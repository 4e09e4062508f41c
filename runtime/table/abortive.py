"""Abortive draws (001 "Abortive draws"): nine terminals on an uninterrupted first turn, four winds
discarded on the first go-around, four riichi, four kongs by more than one player, three rons on
one discard. Built only when ``TableRules.abortive`` switches one of them on; each check answers
the reason the round ends, or None, and the machine ends it."""

from __future__ import annotations

from typing import Sequence

from ..hand import Meld
from ..rules import AbortiveDraws
from ..tiles import N_KINDS, Tile
from .common import KONG_TYPES, SEATS, Seat, Table, kong_count

_TERMINAL_OR_HONOR_KINDS = tuple(k for k in range(N_KINDS) if Tile(k).is_terminal_or_honor)
"""The kinds nine terminals counts (001: nine different terminal and honor kinds)."""


class Abortive:
    def __init__(self, rules: AbortiveDraws) -> None:
        self.rules = rules
        self.four_kongs_due = False
        """Four kongs by more than one player: the round ends once the next discard is not won
        on."""

    def nine_terminals_offered(self, table: Table, seat: Seat) -> bool:
        """Whether the player on turn may declare nine terminals: on an uninterrupted first turn
        (no call or kong yet, the seat's first discard to come, 001) with nine different terminal
        and honor kinds held."""
        if not self.rules.nine_terminals:
            return False
        if table.must_discard or table.interrupted or table.turns_taken[seat]:
            return False
        counts = table.counts[seat]
        return sum(1 for k in _TERMINAL_OR_HONOR_KINDS if counts[k]) >= 9

    def kong_made(self, melds: Sequence[Sequence[Meld]]) -> None:
        """After every kong: four on the table, by more than one player, end the round (001)."""
        if not self.rules.four_kongs:
            return
        owners = {s for s in range(SEATS) for m in melds[s] if m.type in KONG_TYPES}
        self.four_kongs_due = kong_count(melds) >= 4 and len(owners) > 1

    def after_discard(
        self, table: Table, *, deposit_stood: bool, riichi: Sequence[bool] | None
    ) -> str | None:
        """The draw that ends the round once a discard is not won on, if any (in the rules'
        order)."""
        rules = self.rules
        if deposit_stood and rules.four_riichi and riichi is not None and all(riichi):
            return "four_riichi"
        if rules.four_winds and not table.interrupted and all(n == 1 for n in table.turns_taken):
            first = {table.river[s][0].kind for s in range(SEATS)}
            if len(first) == 1 and Tile(first.pop()).is_wind:
                return "four_winds"
        if self.four_kongs_due:
            return "four_kongs"
        return None

    def why_no_nine_terminals(self) -> tuple[str, str] | None:
        if not self.rules.nine_terminals:
            return None
        return (
            "nine-terminals",
            "nine terminals may be declared only on an uninterrupted first turn (no call or kong "
            "before it) with nine different terminal and honor kinds in hand",
        )


def abortive_applies(rules: AbortiveDraws) -> bool:
    return any(
        (
            rules.nine_terminals,
            rules.four_winds,
            rules.four_riichi,
            rules.four_kongs,
            rules.triple_ron,
        )
    )
