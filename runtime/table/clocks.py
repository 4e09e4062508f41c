"""Clocks at the table (003 "Precedence of claims for discard" M 61-65, 001 and 004's presets): how
long a seat has for the decision awaited, and the documented default when its time runs out. The
match charges the time (:mod:`mjspec.runtime.clock`); the table keeps each decision's seconds."""

from __future__ import annotations

from typing import Any, Sequence

from ..actions import Action, ActionKind
from ..rules import TimeoutRules
from ..tiles import Suit
from .common import Phase, Seat, Table


class Clocks:
    """The round's clock (set by the match when it is played on one) and each decision's timing."""

    def __init__(self, rules: TimeoutRules) -> None:
        self.rules = rules
        self.clock: Any = None
        """The round's :class:`~mjspec.runtime.clock.HandClock` when the match is played on a clock
        (001, 004)."""
        self.timing: list[tuple[float, bool] | None] = []
        """Per decision: the seconds it took and whether it came too late (its timeout default was
        applied), when timed."""

    def time_limit(self, table: Table, seat: Seat) -> int | None:
        """Seconds ``seat`` has for the decision the table waits for from it, when the rules limit
        it: every player answers a claim window within the limit or is deemed to pass; the player
        on turn has no limit. (Whether the table waits for the seat is asked last: most tables have
        no limit.)"""
        limit = self.rules.claim_seconds
        if (
            limit <= 0
            or table.phase not in (Phase.CLAIM, Phase.ROB)
            or seat not in table.pending_seats()
        ):
            return None
        return limit

    def timeout_action(
        self, table: Table, seat: Seat, legal: Sequence[Action], *, least_held_suit: Suit | None
    ) -> Action | None:
        """The documented default for a seat whose clock ran out (None if the table is not waiting
        for it): ``legal`` are its options, ``least_held_suit`` the missing suit's default."""
        if not legal:
            return None
        phase = table.phase
        kinds = {a.kind for a in legal}
        if phase is Phase.EXCHANGE:
            return legal[
                0
            ]  # the first legal same-suit triple, suits in m-p-s order, tiles in order
        if phase is Phase.DECLARE:
            return Action(ActionKind.DECLARE, seat, suit=least_held_suit)
        win_kind = ActionKind.TSUMO if phase is Phase.TURN else ActionKind.RON
        if self.rules.claim_win and win_kind in kinds:
            return Action(win_kind, seat)
        if phase is Phase.TURN:
            discards = [a for a in legal if a.kind is ActionKind.DISCARD]
            drawn = [a for a in discards if a.tile == table.last_draw]
            return drawn[0] if drawn else discards[-1]
        return Action(ActionKind.PASS, seat)
