"""A match: hands in sequence, the dealer rule, running totals; and the play loop that asks each
seat's agent (:class:`~.observation.Agent`) with that seat's observation."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .actions import Action, IllegalAction
from .context import Wind
from .profile import Profile
from .rules import DealerRule, ExchangeDirection
from .observation import Agent, _refcount, decision_observation, observe
from .tiles import Tile
from .table import ALL_AUTOMATIONS, SEATS, WINDS, Automation, Phase, Round


@dataclass(frozen=True, slots=True)
class MatchStart:
    """Where an excerpt of a match starts (docs/records.md, "Excerpts"): the state before its first
    hand, as a logged game gives it. A match started here need not be played to its end."""

    round_wind: Wind
    dealer: int
    honba: int
    deposits: int
    points: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "round_wind": self.round_wind.value,
            "dealer": self.dealer,
            "honba": self.honba,
            "deposits": self.deposits,
            "points": list(self.points),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "MatchStart":
        """From a record's ``excerpt`` (its types already checked by the record schema)."""
        return cls(
            Wind(raw["round_wind"]),
            int(raw["dealer"]),
            int(raw["honba"]),
            int(raw["deposits"]),
            tuple(int(p) for p in raw["points"]),
        )


Player = Agent
"""The former name of :class:`~.observation.Agent` (an agent chooses from its observation)."""


class AgentError(RuntimeError):
    """An agent answered with something that is not one of its legal actions, or raised: the
    hand stops there (the table is left as it was before the answer)."""


@dataclass
class Match:
    """Hands played one after another under ``profile.table.match``; one seed drives all chance."""

    profile: Profile
    seed: int
    hands_total: int | None = None
    rng: random.Random = field(init=False)
    dealer: int = 0
    totals: list[int] = field(init=False)
    hands: list[Round] = field(default_factory=list)
    settled: int = 0  # how many hands' scores are in ``totals``
    # Round play (001): dealer turns so far (four per wind round), repeat counter, deposits on the
    # table.
    dealer_turns: int = 0
    honba: int = 0
    deposits: int = 0
    finished: bool = False
    leftover_paid: bool = False
    dealer_wins: int = 0  # the dealer's consecutive wins (East's 13th consecutive win)
    clock: str | None = None
    """The id of one of the profile's clocks (``TableRules.clocks``) the match is played on, or
    None."""
    excerpt: MatchStart | None = None
    """An excerpt of a match: it starts here instead of at the profile's start, and may end before
    the match rules end it (an imported log that holds only some hands of a game)."""
    automations: Automation = ALL_AUTOMATIONS
    """The non-player steps each hand's engine performs itself (:class:`~.table.Automation`,
    pokerkit's ``automations``); ``play_hand`` performs the others with ``Round.step``."""

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        rules = self.profile.table.match
        if self.hands_total is None and not rules.rounds:
            self.hands_total = rules.hands
        self.totals = [rules.start_score] * SEATS
        if self.excerpt is not None:
            self._start_at(self.excerpt)
        if self.clock is not None and self.clock not in {c.id for c in self.profile.table.clocks}:
            known = ", ".join(c.id for c in self.profile.table.clocks) or "none"
            raise ValueError(f"{self.profile.id} has no clock {self.clock!r} (its clocks: {known})")

    def _start_at(self, start: MatchStart) -> None:
        """Set the match where ``start`` says. Only a match played in wind rounds from seat 0 with
        the dealer passing to the next seat can be entered so: there the round wind and the dealer
        say how many dealer turns have passed (four a wind round), which is all the match rules
        count."""
        rules = self.profile.table.match
        if not rules.rounds or rules.dealer not in (DealerRule.REPEAT, DealerRule.ROTATE):
            raise ValueError(
                f"{self.profile.id} does not play its match in wind rounds with a passing dealer: "
                f"an excerpt cannot say where its match stands"
            )
        if (
            not 0 <= start.dealer < SEATS
            or len(start.points) != SEATS
            or start.honba < 0
            or start.deposits < 0
        ):
            raise ValueError(
                "an excerpt's start needs a dealer 0-3, four points and honba and deposits of "
                "at least 0"
            )
        if start.honba and not rules.honba:
            raise ValueError(
                f"{self.profile.id} keeps no repeat counter: an excerpt cannot start at honba "
                f"{start.honba}"
            )
        if start.deposits and self.profile.table.riichi is None:
            raise ValueError(
                f"{self.profile.id} has no riichi deposits: an excerpt cannot start with "
                f"{start.deposits}"
            )
        self.dealer = start.dealer
        self.dealer_turns = WINDS.index(start.round_wind) * SEATS + start.dealer
        self.honba = start.honba
        self.deposits = start.deposits
        self.totals = list(start.points)

    @property
    def over(self) -> bool:
        """No further hand will be dealt and every hand is settled."""
        self._settle()
        return self.finished and all(h.over for h in self.hands)

    @property
    def round_wind(self) -> Wind:
        return WINDS[min(self.dealer_turns // SEATS, SEATS - 1)]

    def make_hand(
        self,
        seed: int,
        *,
        wall: Sequence[Tile] | None = None,
        dice: tuple[int, ...] | None = None,
        exchange_direction: ExchangeDirection | None = None,
    ) -> Round:
        """A hand that starts where the match stands (dealer, round wind, honba, deposits, points),
        with this chance."""
        hand = Round(
            self.profile,
            dealer=self.dealer,
            seed=seed,
            wall=wall,
            dice=dice,
            exchange_direction=exchange_direction,
            round_wind=self.round_wind,
            honba=self.honba,
            deposits=self.deposits,
            points=tuple(self.totals),
            dealer_wins=self.dealer_wins,
            automations=self.automations,
        )
        if self.clock is not None:
            from .clock import hand_clock  # 001, 004: the reserve starts full again every hand

            hand.clock = hand_clock(
                hand, next(c for c in self.profile.table.clocks if c.id == self.clock)
            )
        return hand

    def new_hand(self) -> Round:
        """Deal the next hand (the previous one must be over)."""
        if self.hands and not self.hands[-1].over:
            raise RuntimeError("the current hand is not over")
        self._settle()
        if self.finished:
            raise RuntimeError("the match is over")
        hand = self.make_hand(self.rng.getrandbits(63))
        self.hands.append(hand)
        return hand

    def finish(self) -> None:
        """Add the scores of every finished hand to the totals (and, at the end, leftover deposits
        to first place)."""
        self._settle()
        rules = self.profile.table.match
        if (
            self.finished
            and self.deposits
            and rules.leftover_deposits_to_first
            and not self.leftover_paid
        ):
            riichi = self.profile.table.riichi
            if riichi is not None:
                self.totals[self.placements()[0]] += self.deposits * riichi.deposit
                self.leftover_paid = True
                self.deposits = 0

    def _settle(self) -> None:
        while self.settled < len(self.hands) and self.hands[self.settled].over:
            hand = self.hands[self.settled]
            for s in range(SEATS):
                self.totals[s] += hand.scores[s]
            rules = self.profile.table.match
            rule = rules.dealer
            if rule is DealerRule.ROTATE:
                self.dealer = (hand.dealer + 1) % SEATS
                self.dealer_turns += 1  # 002 §6: four hands a wind round, East 1 to North 4
                if rules.rounds and self.dealer_turns >= rules.rounds * SEATS:
                    self.finished = True
            elif rule in (DealerRule.REPEAT, DealerRule.KEEP_ON_WIN_OR_WASHOUT):
                self._advance_round(hand)
            else:
                self.dealer = hand.next_dealer()
            self.settled += 1
            if self.hands_total is not None and self.settled >= self.hands_total:
                self.finished = True
            if self.profile.table.match.bust_ends and min(self.totals) < 0:
                self.finished = True  # 001: a score below zero ends the game

    def _advance_round(self, hand: Round) -> None:
        """001: the dealer repeats after winning or ready at an exhaustive draw (and after an
        abortive draw); honba count drawn hands and dealer wins; the all-last dealer's stop; the
        extension rounds.
        """
        rules = self.profile.table.match
        winners = {w.seat for w in hand.wins}
        if rules.dealer is DealerRule.KEEP_ON_WIN_OR_WASHOUT:
            # 003 / M 11-14: East keeps the deal after winning and after a wash-out (but not past
            # the win limit).
            if hand.dealer in winners:
                self.dealer_wins += 1
            repeat = hand.dealer in winners or not winners
            if rules.dealer_win_limit is not None and self.dealer_wins >= rules.dealer_win_limit:
                repeat = False
            if not repeat:
                self.dealer_wins = 0
        else:
            repeat = (
                hand.dealer in winners
                or hand.aborted is not None
                or (hand.exhausted and hand.dealer in hand.ready_at_end)
            )
        if rules.honba:
            self.honba = self.honba + 1 if not winners or hand.dealer in winners else 0
        self.deposits = hand.deposits
        if not rules.rounds:
            if not repeat:
                self.dealer = (hand.dealer + 1) % SEATS
                self.dealer_turns += 1
            return
        final_turn = rules.rounds * SEATS - 1
        at_end = self.dealer_turns >= final_turn
        target = rules.extension_until
        reached = target is None or max(self.totals) >= target
        if repeat:
            stop = rules.last_dealer_stops_at
            first = self.placements()[0] == hand.dealer
            if (
                at_end
                and reached
                and hand.aborted is None
                and stop is not None
                and first
                and self.totals[hand.dealer] >= stop
            ):
                self.finished = True  # the all-last dealer in first place stops (001)
            return
        self.dealer = (hand.dealer + 1) % SEATS
        self.dealer_turns += 1
        if at_end and (
            reached or self.dealer_turns >= (rules.rounds + rules.extension_rounds) * SEATS
        ):
            self.finished = True

    def result(self) -> list[float] | None:
        """Each seat's result in thousands: points against the return, the winner bonus to first,
        placement adjustments (001)."""
        rules = self.profile.table.match.result
        if rules is None:
            return None
        out = [0.0] * SEATS
        order = self.placements()
        for place, seat in enumerate(order):
            total = self.totals[seat]
            if rules.round_to:
                # "4 down, 5 up" on the amount: a negative total's half goes away from zero too
                # (Tenhou: -7,500 counts -8,000; tests/test_tenhou_replay.py).
                sign = -1 if total < 0 else 1
                total = sign * (
                    (abs(total) + rules.round_to // 2) // rules.round_to * rules.round_to
                )
            points = total - rules.return_points + (rules.winner_bonus if place == 0 else 0)
            out[seat] = points / 1000 + rules.uma[place]
        if rules.round_to:
            out[order[0]] = -sum(out[s] for s in order[1:])  # first place takes the balance
        return out

    def placements(self) -> list[int]:
        """Seats from first to last place: by total, ties broken by seat order."""
        return sorted(range(SEATS), key=lambda s: (-self.totals[s], s))


lazy = decision_observation
_HELD_HERE = 2
"""References to a decision's observation when nobody but :func:`play_hand` holds it: its
variable, and the count's own argument (a test holds this to what CPython counts)."""


def _refuse(agent: object, seat: int, why: str) -> AgentError:
    return AgentError(f"seat {seat}'s agent ({type(agent).__name__}) {why}")


class Stalled(RuntimeError):
    """The table waits for nobody although the hand is not over (a bug, never a user error)."""


def play_hand(
    hand: Round,
    players: Sequence[Agent],
    on_step: Callable[[Action], None] | None = None,
    max_steps: int = 10_000,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Let ``players`` (one agent per seat) play ``hand`` to its end: each decision, the pending
    seat's agent is asked ``choose(observe(hand, seat))`` (never given the table). An answer that
    is not one of the observation's legal actions, or an exception from the agent, raises
    :class:`AgentError` naming the seat and why.

    Where the table limits a decision's time (:meth:`Round.time_limit`: 003's claim window), an
    answer that took longer than the limit by ``clock`` (seconds) is not taken: the seat is deemed
    to have done its :meth:`Round.timeout_action` (it passes). Every seat of a claim window thinks
    from the window's opening, so each answer is timed on its own. Bots answer at once.
    """
    steps = 0
    limited = (
        hand.rules.timeout.claim_seconds > 0
    )  # Round.time_limit is None for every decision otherwise
    while hand.phase is not Phase.OVER:
        if hand.pending_step is not None:
            hand.step()  # a non-player step the round leaves to its caller (Round.automations)
            continue
        pending = hand.pending_seats()
        if not pending:
            raise Stalled(f"hand waits for nobody in phase {hand.phase.value}")
        seat = pending[0]
        legal = hand.offered(seat)
        if not legal:
            raise Stalled(
                f"seat {seat} is pending with no legal action in phase {hand.phase.value}"
            )
        limit = hand.time_limit(seat) if limited else None
        started = clock() if limit is not None else 0.0
        timed = hand.clocks.clock is not None
        if timed:
            started = clock()
        agent = players[seat]
        seen = lazy(hand, seat, legal)
        try:
            action = agent.choose(seen)
        except Exception as e:  # the agent's own code failed: say so in one line
            raise _refuse(agent, seat, f"raised {type(e).__name__}: {e}") from e
        if _refcount is None or _refcount(seen) > _HELD_HERE:
            seen._complete()  # the agent kept it: it gets its values before the table moves on
        else:
            seen[-1].clear()  # its source: nothing the agent kept of it reads the table later
        if type(action) is not Action:
            raise _refuse(agent, seat, f"answered {action!r}, which is not an Action")
        if timed:
            seconds = max(0.0, clock() - started)
            try:
                hand.apply_timed(action, seconds)  # the match's clock (001, 004)
            except IllegalAction as e:  # verified before anything changes
                raise _refuse(agent, seat, f"chose {action}, which is not legal now: {e}") from None
        else:
            if limit is not None and clock() - started > limit:
                late = hand.timeout_action(seat)
                if late is not None:
                    action = late
            try:
                hand.apply(action)
            except IllegalAction as e:  # verified before anything changes
                raise _refuse(agent, seat, f"chose {action}, which is not legal now: {e}") from None
        if on_step is not None:
            on_step(action)
        steps += 1
        if steps > max_steps:
            raise Stalled(f"hand did not end within {max_steps} decisions")
    tell_hand_over(hand, players)


def tell_hand_over(hand: Round, players: Sequence[Agent]) -> None:
    """Show each seat's agent that has ``hand_over`` (:class:`~.observation.Agent`) its
    observation of the ended ``hand``; an exception from it is an :class:`AgentError`."""
    for seat, agent in enumerate(players):
        told = getattr(agent, "hand_over", None)
        if told is None:
            continue
        try:
            told(observe(hand, seat))
        except Exception as e:  # the agent's own code failed: say so in one line
            raise _refuse(agent, seat, f"raised {type(e).__name__} at the hand's end: {e}") from e


def tell_match_over(match: Match, players: Sequence[Agent]) -> None:
    """Tell each seat's agent that has ``match_over`` (:class:`~.observation.Agent`) that the
    match is over, with every seat's final points; an exception from it is an
    :class:`AgentError`."""
    totals = tuple(match.totals)
    for seat, agent in enumerate(players):
        told = getattr(agent, "match_over", None)
        if told is None:
            continue
        try:
            told(seat, totals)
        except Exception as e:  # the agent's own code failed: say so in one line
            raise _refuse(agent, seat, f"raised {type(e).__name__} at the match's end: {e}") from e


def play_match(
    profile: Profile, players: Sequence[Agent], seed: int, hands: int | None = None
) -> Match:
    """Play a whole match with ``players`` (agents, one per seat) and return it."""
    match = Match(profile, seed, hands)
    while not match.over:
        hand = match.new_hand()
        play_hand(hand, players)
    match.finish()
    tell_match_over(match, players)
    return match
