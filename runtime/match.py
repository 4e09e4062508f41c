"""A match: hands in sequence, the dealer rule, running totals; and the bot-driven play loop."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

from .actions import Action
from .profile import Profile
from .rules import DealerRule
from .table import SEATS, Hand


class Player(Protocol):
    """Anything that chooses an action for a seat from the legal ones."""

    def choose(self, hand: Hand, seat: int, legal: Sequence[Action]) -> Action: ...


@dataclass
class Match:
    """Hands played one after another under ``profile.table.match``; one seed drives all chance."""

    profile: Profile
    seed: int
    hands_total: int | None = None
    rng: random.Random = field(init=False)
    dealer: int = 0
    totals: list[int] = field(init=False)
    hands: list[Hand] = field(default_factory=list)
    settled: int = 0  # how many hands' scores are in ``totals``

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        rules = self.profile.table.match
        if self.hands_total is None:
            self.hands_total = rules.hands
        self.totals = [rules.start_score] * SEATS

    @property
    def over(self) -> bool:
        assert self.hands_total is not None
        return len(self.hands) >= self.hands_total and (not self.hands or self.hands[-1].over)

    def new_hand(self) -> Hand:
        """Deal the next hand (the previous one must be over)."""
        if self.hands and not self.hands[-1].over:
            raise RuntimeError("the current hand is not over")
        self._settle()
        hand = Hand(self.profile, dealer=self.dealer, seed=self.rng.getrandbits(63))
        self.hands.append(hand)
        return hand

    def finish(self) -> None:
        """Add the scores of every finished hand to the totals."""
        self._settle()

    def _settle(self) -> None:
        while self.settled < len(self.hands) and self.hands[self.settled].over:
            hand = self.hands[self.settled]
            for s in range(SEATS):
                self.totals[s] += hand.scores[s]
            if self.profile.table.match.dealer is DealerRule.ROTATE:
                self.dealer = (hand.dealer + 1) % SEATS
            else:
                self.dealer = hand.next_dealer()
            self.settled += 1

    def placements(self) -> list[int]:
        """Seats from first to last place: by total, ties broken by seat order."""
        return sorted(range(SEATS), key=lambda s: (-self.totals[s], s))


class Stalled(RuntimeError):
    """The table waits for nobody although the hand is not over (a bug, never a user error)."""


def play_hand(hand: Hand, players: Sequence[Player], on_step: Callable[[Action], None] | None = None, max_steps: int = 10_000) -> None:
    """Let ``players`` (one per seat) play ``hand`` to its end."""
    steps = 0
    while not hand.over:
        pending = hand.pending_seats()
        if not pending:
            raise Stalled(f"hand waits for nobody in phase {hand.phase.value}")
        seat = pending[0]
        legal = hand.legal_actions(seat)
        if not legal:
            raise Stalled(f"seat {seat} is pending with no legal action in phase {hand.phase.value}")
        action = players[seat].choose(hand, seat, legal)
        hand.apply(action)
        if on_step is not None:
            on_step(action)
        steps += 1
        if steps > max_steps:
            raise Stalled(f"hand did not end within {max_steps} decisions")


def play_match(profile: Profile, players: Sequence[Player], seed: int, hands: int | None = None) -> Match:
    """Play a whole match with ``players`` and return it."""
    match = Match(profile, seed, hands)
    assert match.hands_total is not None
    for _ in range(match.hands_total):
        hand = match.new_hand()
        play_hand(hand, players)
    match.finish()
    return match
