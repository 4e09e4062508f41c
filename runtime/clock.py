"""Decision clocks: a profile's time controls (``TableRules.clocks``) kept for one hand.

001 "Relógios, conexões e fair play": each decision on one's turn has its own
thinking time (``Clock.per_action``); time beyond it comes out of a reserve
(``Clock.reserve``) that starts full again every hand. Answers to a call
(win, pon, kong, chi or pass on another player's tile) have their own time and
no reserve; the book gives that time no figure, and the engine reads it as the
clock's ``per_action``. When a clock runs out the table plays
:meth:`Round.timeout_action` for the player (wins claimed, the drawn tile or the
rightmost legal tile discarded, optional calls passed). A table without a
clock (practice and private tables of unlimited length) never times out.

The clock is fed the seconds each decision took (a server measures them; a
record or a test states them), so it is deterministic like the rest of the
engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from .actions import Action
from .rules import Clock, TableRules
from .table.common import SEATS, Phase


class ClockedRound(Protocol):
    """What a clock reads of the round it times (:class:`~mjspec.runtime.table.Round` is one): the
    phase says whether a decision answers a call or is an opening choice, the rules give the opening
    minimum, and a seat out of time plays the round's timeout default. The round imports the clock,
    so the clock names no class of the table's machine."""

    @property
    def phase(self) -> Phase: ...
    @property
    def rules(self) -> TableRules: ...
    def timeout_action(self, seat: int) -> Action | None: ...


@dataclass(slots=True)
class HandClock:
    """One hand's clock for every seat: the reserve each seat has left."""

    clock: Clock
    reserve: list[float] = field(default_factory=list)
    opening_seconds: int = 0
    """``TimeoutRules.opening_seconds``: an opening choice's thinking time is at least this (004:
    15)."""

    def __post_init__(self) -> None:
        if self.clock.per_action < 0 or self.clock.reserve < 0:
            raise ValueError(f"clock {self.clock.id}: times must not be negative")
        self.reserve = [float(self.clock.reserve)] * SEATS  # 001: "A reserva reinicia cada mão"

    def thinking_time(self, *, opening: bool = False) -> float:
        """The per-action time of a decision; an opening choice gets at least ``opening_seconds``
        (004)."""
        return float(
            max(self.clock.per_action, self.opening_seconds) if opening else self.clock.per_action
        )

    def allowance(self, seat: int, *, call: bool, opening: bool = False) -> float:
        """Seconds ``seat`` may take for its next decision: the per-action time, plus the reserve on
        its turn."""
        return self.thinking_time(opening=opening) + (0.0 if call else self.reserve[seat])

    def spend(self, seat: int, seconds: float, *, call: bool, opening: bool = False) -> bool:
        """Charge a decision that took ``seconds``; True when the seat ran out of time (its reserve
        is then empty)."""
        if seconds < 0:
            raise ValueError(f"a decision cannot take {seconds} seconds")
        over = seconds - self.thinking_time(opening=opening)
        if over <= 0:
            return False
        if call:
            return True  # 001: "As chamadas têm tempo de resposta próprio e sem reserva"
        if over <= self.reserve[seat]:
            self.reserve[seat] -= over
            return False
        self.reserve[seat] = 0.0
        return True


def hand_clock(hand: ClockedRound, clock: Clock) -> HandClock:
    """A fresh clock for ``hand`` under one of its profile's time controls, with the profile's
    opening minimum."""
    return HandClock(clock, opening_seconds=hand.rules.timeout.opening_seconds)


def charge(hand: ClockedRound, clock: HandClock, seat: int, seconds: float) -> bool:
    """Charge ``seat``'s decision now pending at ``hand`` with ``seconds``; True when its time ran
    out."""
    call = hand.phase in (Phase.CLAIM, Phase.ROB)
    opening = hand.phase in (
        Phase.EXCHANGE,
        Phase.DECLARE,
    )  # 004: opening choices get at least 15 s
    return clock.spend(seat, seconds, call=call, opening=opening)


def timed_decision(
    hand: ClockedRound, clock: HandClock | None, action: Action, seconds: float
) -> Action:
    """The decision the table applies when ``action`` took ``seconds``: the action itself in time,
    else the documented timeout default for its seat (001: "Após o tempo limite [...]"). Without a
    clock, the action.
    """
    if clock is None:
        return action
    if not charge(hand, clock, action.seat, seconds):
        return action
    default = hand.timeout_action(action.seat)
    if default is None:
        raise ValueError(f"seat {action.seat} is not to act now: there is no decision to time")
    return default
