"""Furiten (001 "Furiten"): a seat that may not win on a discard, by its own discards, by a
completing discard it let pass (until its next draw, or its next discard under Tenhou's reading),
or by a win passed after riichi (for the rest of the hand). Self-draw stays allowed.
Built only when ``TableRules.furiten`` switches one of them on."""

from __future__ import annotations

from typing import Callable

from ..rules import FuritenRules
from .common import SEATS, Seat


class Furiten:
    def __init__(self, rules: FuritenRules) -> None:
        self.rules = rules
        self.passed = [False] * SEATS
        """Passed a completing discard: until the seat's next draw."""
        self.riichi_passed = [False] * SEATS
        """Passed a legal win after riichi: for the rest of the hand."""
        self.discarded_kinds: list[set[int]] = [set() for _ in range(SEATS)]
        """Every kind the seat discarded, called discards included."""

    def applies(self, seat: Seat, waits: Callable[[], frozenset[int]]) -> bool:
        """Whether ``seat`` is furiten now; ``waits`` gives its waits (asked only when needed)."""
        rules = self.rules
        if (rules.passed_completion and self.passed[seat]) or (
            rules.riichi_passed and self.riichi_passed[seat]
        ):
            return True
        if rules.own_discards and self.discarded_kinds[seat]:
            return not self.discarded_kinds[seat].isdisjoint(waits())
        return False

    def discarded(self, seat: Seat, kind: int) -> None:
        self.discarded_kinds[seat].add(kind)
        if self.rules.passed_ends_at_discard:
            self.passed[seat] = False  # Tenhou: a passed win's furiten ends with one's own discard

    def drew(self, seat: Seat) -> None:
        self.passed[seat] = False

    def passed_completion(self, seat: Seat) -> None:
        self.passed[seat] = True  # 001: until the seat's next draw

    def passed_riichi_win(self, seat: Seat) -> None:
        if self.rules.riichi_passed:
            self.riichi_passed[seat] = True  # 001: for the rest of the hand


def furiten_applies(rules: FuritenRules) -> bool:
    """Whether any furiten rule is on (else the mechanism is not built)."""
    return (
        rules.own_discards
        or rules.passed_completion
        or rules.riichi_passed
        or rules.passed_ends_at_discard
    )
