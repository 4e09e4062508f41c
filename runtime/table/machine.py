"""The machine: one round of mahjong as a state machine over the table's mechanisms.

``legal_actions(seat)`` lists what a seat may do now; ``verify(action)`` raises
:class:`IllegalAction` naming the rule (the state untouched), ``can(action)`` answers yes or no,
``apply(action)`` performs it together with every automatic step that follows (draws,
replacement tiles, settlement) and returns the events. Which non-player steps are automatic is
the caller's choice (:class:`~.common.Automation`; by default all, as every record replays); a
step left to the caller waits as :attr:`Round.pending_step` until :meth:`Round.step`. Every
random choice comes from one seeded generator or an explicit wall, so a round replays exactly.

The machine is the shared state every mechanism reads (:class:`~.state.TableState`: the seats'
tiles, melds and discards, the turn; read through :class:`~.common.Table`) and composes the
mechanisms, each in its own module and owning its state, built only when its rules block is
present: the wall (:mod:`.wall`), the opening (:mod:`.opening`), claims and passing
(:mod:`.claims`), kongs (:mod:`.kongs`), wins (:mod:`.wins`), riichi (:mod:`.riichi`), furiten
(:mod:`.furiten`), abortive draws (:mod:`.abortive`), settlement (:mod:`.settlement`),
exhaustion (:mod:`.exhaustion`), the turn (:mod:`.turn`), the round's end (:mod:`.results`),
clocks (:mod:`.clocks`) and the snapshot (:mod:`.snapshot`). A mechanism never calls another: it
answers the machine with actions, events, steps and :class:`~.common.Transfer` values, and the
machine emits and pays them and moves on.

Nothing here looks at a profile's id: ``profile.table`` (:class:`TableRules`) and the profile's
scoring rules decide.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from ..actions import Action, ActionKind, Event, EventKind, IllegalAction
from ..context import WinContext, Wind
from ..deadwall import next_kind
from ..profile import MissingSuitRule, Profile
from ..hand import Meld, MeldType
from ..rules import ExchangeDirection, WinFlow
from ..scoring import Score
from ..tiles import Suit, Tile
from .abortive import Abortive, abortive_applies
from .claims import Claims, Passing, passing_applies
from .clocks import Clocks
from .common import (
    ALL_AUTOMATIONS,
    SEAT_ACTIONS,
    SEATS,
    Automation,
    Phase,
    Seat,
    Step,
    StepKind,
    discard_action,
    kong_count,
)
from .exhaustion import Exhaustion
from .furiten import Furiten, furiten_applies
from .kongs import Kongs, added_kong, added_tile, concealed_kong, set_out_copy
from .opening import Exchange, MissingSuit, OriginalCall, dealt_bonus_tiles
from .results import hand_end, next_dealer
from .riichi import Riichi
from .settlement import Settlement, discarder_payment, let_off_cannon
from .snapshot import census, table_view
from .state import TableState
from .turn import options as turn_options
from .turn import refusal
from .wall import Wall
from .wins import NO_RIICHI, Wins, exhausted_kinds, shown_copies


class Round(TableState):
    """One round at the table (a "hand" of mahjong; "hand" is left to a player's tiles): the shared
    state (:class:`~.state.TableState`) and the mechanisms over it."""

    def __init__(
        self,
        profile: Profile,
        *,
        dealer: Seat = 0,
        seed: int | None = None,
        wall: Sequence[Tile] | None = None,
        dice: tuple[int, ...] | None = None,
        exchange_direction: ExchangeDirection | None = None,
        round_wind: Wind = Wind.EAST,
        honba: int = 0,
        deposits: int = 0,
        points: Sequence[int] | None = None,
        dealer_wins: int = 0,
        automations: Automation = ALL_AUTOMATIONS,
    ) -> None:
        if not profile.playable:
            raise NotImplementedError(
                f"profile {profile.id}: table play is not implemented yet (it scores hands only)"
            )
        super().__init__(
            profile,
            dealer=dealer,
            dealer_wins=dealer_wins,
            round_wind=round_wind,
            honba=honba,
            deposits=deposits,
            points=points,
        )
        rules = self.rules
        self.rng = random.Random(seed)
        self.seed = seed
        self.automations = automations
        """The non-player steps the engine performs itself (the rest wait in
        :attr:`pending_step`)."""
        # Read once: a Flag's ``&`` is a Python-level call, and the draw asks every turn.
        self._auto_draw = bool(automations & Automation.DRAW)
        self._auto_replacement = bool(automations & Automation.REPLACEMENT)
        self._auto_claim_pass = bool(automations & Automation.CLAIM_PASS)
        self._auto_riichi_discard = bool(automations & Automation.RIICHI_DISCARD)
        self.pending_step: Step | None = None

        # The mechanisms, in the order chance reaches them (a seed replays exactly): the wall
        # (shuffle, dice), then the exchange's direction.
        self.wall = Wall(profile, self.rng, tiles=wall, dice=dice)
        self.exchange = (
            Exchange(rules.exchange, self.rng, exchange_direction)
            if rules.exchange is not None
            else None
        )
        self.missing_suit = (
            MissingSuit() if profile.opening.missing_suit is MissingSuitRule.DECLARE else None
        )
        self.original_call = OriginalCall() if rules.original_call else None
        self.claims = Claims(rules.calls, flowers=profile.tiles.flowers)
        self.passing = Passing(rules.passing) if passing_applies(rules.passing) else None
        self.kongs = Kongs(rules.kongs)
        self.riichi = Riichi(rules.riichi) if rules.riichi is not None else None
        self.furiten = Furiten(rules.furiten) if furiten_applies(rules.furiten) else None
        self.abortive = Abortive(rules.abortive) if abortive_applies(rules.abortive) else None
        self.settlement = Settlement(rules.pao, rules.settlement)
        self.liability = self.settlement.liability
        self.scored = self.settlement.scored
        self.winning = Wins(profile)
        self.exhaustion = Exhaustion(rules.exhaustion)
        self.clocks = Clocks(rules.timeout)
        self.timing = self.clocks.timing
        """Per decision: its seconds and whether it came too late (:attr:`.Clocks.timing`)."""
        # What a record keeps of the wall and the exchange, fixed once they are made.
        self.initial_wall = self.wall.initial
        self.dice = self.wall.dice
        self.dead = self.wall.dead
        """The dead wall, under ``TableRules.dead_wall``."""
        self.exchange_direction = self.exchange.direction if self.exchange is not None else None
        # What the claim windows and the self-draw read of the other mechanisms: lists those keep
        # up to date, handed over once (every discard opens a window).
        furiten, riichi, ms = self.furiten, self.riichi, self.missing_suit
        oc, passing = self.original_call, self.passing
        self.claims.wire(
            passing=passing,
            riichi=riichi.declared if riichi is not None else None,
            missing=(
                ms.declared if ms is not None and rules.calls.missing_suit_blocks_calls else None
            ),
            watch=furiten.passed if furiten and furiten.rules.passed_completion else None,
            riichi_furiten=furiten is not None and furiten.rules.riichi_passed,
            counts_as_pass=rules.passing.call_counts_as_pass,
            original_call=oc.claims if oc is not None else None,
        )
        self._fan_limits = passing.fan if passing is not None else None
        """A passed win's fan per seat, which the seat's next win must exceed."""

        self.wins = self.winning.records
        self._cache: dict[int, tuple[Action, ...]] = {}
        self._cache_at = -1

        self._deal()

    # ------------------------------------------------------------ read-only views

    @property
    def wall_remaining(self) -> int:
        """Tiles left to draw (front and replacement tiles come from the same live wall)."""
        return self.wall.back - self.wall.front

    @property
    def missing(self) -> list[Suit | None]:
        """Each seat's declared missing suit (None: none declared, or no declaration in this
        game)."""
        ms = self.missing_suit
        return list(ms.declared) if ms is not None else [None] * SEATS

    @property
    def clock(self) -> Any:
        return self.clocks.clock

    @clock.setter
    def clock(self, value: Any) -> None:
        self.clocks.clock = value

    # ------------------------------------------------------------------ setup

    def _deal(self) -> None:
        deal = self.profile.deal
        for seat, tile in self.wall.deal(
            self.dealer,
            dealer_tiles=deal.dealer,
            others=deal.others,
            in_blocks=self.rules.deal_in_blocks,
        ):
            self._give(seat, tile)
        self._emit(Event(EventKind.DEAL, None, self.wall.dealt(self.dealer)))
        if self.rules.bonus.declare_at_deal:
            self._declare_dealt_bonus_tiles()
        if self.exchange is not None:
            self.phase = Phase.EXCHANGE
        elif self.missing_suit is not None:
            self.phase = Phase.DECLARE
        else:
            self._start_play()

    def _declare_dealt_bonus_tiles(self) -> None:
        """Bonus tiles dealt are exposed and replaced before play
        (:func:`.opening.dealt_bonus_tiles`). These replacements are part of the deal, not draws:
        the dealer keeps Heaven's Blessing and nobody's first turn is used."""
        for seat, flower in dealt_bonus_tiles(self):
            self._expose_flower(seat, flower, {"tile": flower.mpsz, "deal": True})
            self._give(seat, self.wall.replacement(kong=False))
        self.wall.loose_from_live = False

    def _start_play(self) -> None:
        self.phase = Phase.TURN
        self.turn = self.dealer
        self.last_draw = self.hands[self.dealer][-1]
        self.must_discard = False

    def holds_missing(self, seat: Seat) -> bool:
        """Whether ``seat`` still holds a tile of the suit it declared missing (000 §3: it must go
        first)."""
        ms = self.missing_suit
        return ms is not None and ms.holds(seat, self.counts[seat])

    def _missing_of(self, seat: Seat) -> Suit | None:
        ms = self.missing_suit
        return ms.declared[seat] if ms is not None else None

    def in_riichi(self, seat: Seat) -> bool:
        r = self.riichi
        return r is not None and r.declared[seat]

    # --------------------------------------------------------------- queries

    def pending_seats(self) -> list[Seat]:
        """Seats whose decision the table is waiting for."""
        phase = self.phase
        if phase is Phase.TURN:  # the commonest first: asked several times a decision
            return [self.turn]
        if phase is Phase.CLAIM or phase is Phase.ROB:
            return self.claims.pending()
        if phase is Phase.EXCHANGE:
            assert self.exchange is not None
            return self.exchange.pending()
        if phase is Phase.DECLARE:
            assert self.missing_suit is not None
            return self.missing_suit.pending()
        return []

    def legal_actions(self, seat: Seat) -> list[Action]:
        """Everything ``seat`` may do now (empty if the table is not waiting for it)."""
        return list(self.offered(seat))

    def offered(self, seat: Seat) -> tuple[Action, ...]:
        """:meth:`legal_actions` as the tuple an observation holds: the very one cached, not
        copied again."""
        # Every change of state appends an event, so the event count keys a cache
        # that spares recomputing the options between asking and applying.
        if self._cache_at != len(self.events):
            self._cache_at = len(self.events)
            self._cache.clear()
            hit = None
        else:
            hit = self._cache.get(seat)
        if hit is None:
            hit = self._cache[seat] = tuple(self._legal_actions(seat))
        return hit

    def _legal_actions(self, seat: Seat) -> list[Action]:
        if self.phase is Phase.TURN:  # the commonest first: only the seat to play is asked
            return self._turn_options(seat) if seat == self.turn else []
        if seat not in self.pending_seats():
            return []
        if self.phase is Phase.EXCHANGE:
            assert self.exchange is not None
            return self.exchange.options(seat, self.hands[seat], self.profile.tiles.suits)
        if self.phase is Phase.DECLARE:
            assert self.missing_suit is not None
            return self.missing_suit.options(seat, self.profile.tiles.suits)
        return list(self.claims.options[seat])

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.verify(action)
        except IllegalAction:
            return False
        return True

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` naming the rule if ``action`` is not legal now."""
        if self._cache_at == len(self.events):
            # options listed in this very state: one of them is legal
            for offered in self._cache.get(action.seat, ()):
                if offered is action:
                    return
        if self.phase is Phase.OVER:
            raise IllegalAction("hand-over", "the hand is over")
        if self.phase is Phase.STEP:
            step = self.pending_step
            assert step is not None  # Phase.STEP holds a pending step
            raise IllegalAction(
                "automation",
                f"the table waits for a {step.kind.value} step (Round.step), not a decision",
            )
        if not 0 <= action.seat < SEATS:
            raise IllegalAction("seats", f"there is no seat {action.seat}")
        if action.seat not in self.pending_seats():
            who = ", ".join(map(str, self.pending_seats()))
            raise IllegalAction(
                "turn-order",
                f"seat {action.seat} is not to act now (waiting for seat {who} in phase "
                f"{self.phase.value})",
            )
        legal = self.legal_actions(action.seat)
        for (
            offered
        ) in legal:  # a bot hands back one of the offered actions: identity spares the == calls
            if offered is action:
                return
        if action in legal:
            return
        raise IllegalAction(*self._why_illegal(action, legal))

    def _why_illegal(self, action: Action, legal: list[Action]) -> tuple[str, str]:
        """The rule that refuses ``action`` (:func:`.turn.refusal`), with what the mechanisms
        say."""
        seat = action.seat
        riichi = self.riichi
        ex = self.exchange
        return refusal(
            self,
            action,
            legal,
            kuikae=self.claims.kuikae,
            missing=self._missing_of(seat),
            no_riichi=riichi.why_not(self, seat) if riichi else "this profile has no riichi",
            riichi_kong=riichi is not None and riichi.rules.kong_keeps_waits,
            no_nine_terminals=self.abortive.why_no_nine_terminals() if self.abortive else None,
            no_exchange=(
                ex.why_illegal()
                if ex is not None
                else ("exchange", "exchange exactly 0 tiles held")
            ),
        )

    # --------------------------------------------------------------- options

    def _turn_options(self, seat: Seat) -> list[Action]:
        """The turn's own options (:func:`.turn.options`), or riichi's after a declaration, with
        what Original Call, riichi and nine terminals add."""
        riichi = self.riichi
        if riichi is not None and riichi.declared[seat]:
            return riichi.turn_options(self, seat)
        ms = self.missing_suit
        out, discards = turn_options(
            self,
            seat,
            missing=(
                ms.declared[seat] if ms is not None and ms.holds(seat, self.counts[seat]) else None
            ),
            kuikae=self.claims.kuikae,
        )
        if self.original_call is not None:
            out = self.original_call.options(self, seat, out, discards)
        if riichi is not None and not self.must_discard:  # no riichi right after a call
            out.extend(riichi.declarations(self, seat, discards))
        if self.abortive is not None and self.abortive.nine_terminals_offered(self, seat):
            out.append(SEAT_ACTIONS[ActionKind.NINE_TERMINALS][seat])
        return out

    def kong_allowed(self) -> bool:
        """A kong needs a tile left to draw, a replacement in the dead wall and room under the kong
        limit."""
        if not self.wall.kong_has_replacement():
            return False
        limit = self.rules.calls.max_kongs
        # Fewer melds than the limit are fewer kongs than the limit: most turns need no count.
        return limit is None or sum(map(len, self.melds)) < limit or kong_count(self.melds) < limit

    def _automatic_discard(self) -> Tile | None:
        """The drawn tile a riichi player discards without a decision: when it is their only option
        (001)."""
        riichi = self.riichi
        if riichi is None or self.phase is not Phase.TURN or not riichi.declared[self.turn]:
            return None
        if not self._auto_riichi_discard:
            return None
        if not riichi.rules.automatic_discard:
            return None
        return riichi.automatic_discard(self.turn, self.offered(self.turn))

    # ------------------------------------------------------------------ wins

    def win_context(self, seat: Seat, **situation: Any) -> WinContext:
        """The situation of a win for ``seat`` now (:meth:`.wins.Wins.context`: ``after_kong``,
        ``last_tile``, ``honba`` ...), with what the riichi, Original Call and missing-suit
        mechanisms and the dead wall hold for the seat."""
        r = self.riichi
        oc = self.original_call
        return self.winning.context(
            self,
            seat,
            riichi=(r.declared[seat], r.double[seat], r.ippatsu[seat]) if r else NO_RIICHI,
            original_call=oc is not None and oc.called[seat],
            missing=self._missing_of(seat),
            dead=self.wall.dead,
            **situation,
        )

    def shown_copies(self, kind: int) -> int:
        """Copies of ``kind`` in view (:func:`.wins.shown_copies`)."""
        return shown_copies(self, kind)

    def exhausted_kinds(self) -> str:
        """Kinds whose four copies are all exposed (:func:`.wins.exhausted_kinds`)."""
        return exhausted_kinds(self)

    def dora_kinds(self) -> list[int]:
        """The bonus kinds the turned indicators name (one entry per indicator)."""
        dead = self.wall.dead
        return [next_kind(t.kind) for t in dead.indicators()] if dead is not None else []

    def is_furiten(self, seat: Seat) -> bool:
        """Whether ``seat`` may not win on a discard now (001 "Furiten"); self-draw stays
        allowed."""
        f = self.furiten
        return f is not None and f.applies(seat, lambda: self._shape_waits(seat))

    def tsumo_score(self, seat: Seat) -> Score | None:
        """The score of ``seat``'s self-drawn win now (:meth:`.wins.Wins.tsumo_score`)."""
        return self.winning.tsumo_score(self, seat, self.kongs.upon_kong, self._fan_limits)

    def ron_score(
        self, seat: Seat, tile: Tile, *, robbing: bool, honba: int | None = None
    ) -> Score | None:
        """The score of ``seat`` winning on ``tile`` now (:meth:`.wins.Wins.ron_score`), unless a
        passed win (``TableRules.passing``) or the missing suit forbids it, or furiten."""
        passing = self.passing
        if passing is not None and passing.blocks_discard_win(seat):
            return None
        if self.rules.calls.missing_suit_blocks_calls and (
            self.holds_missing(seat) or tile.suit == self._missing_of(seat)
        ):
            return None
        claims = self.claims
        return self.winning.ron_score(
            self,
            seat,
            tile,
            robbing=robbing,
            honba=honba,
            after_kong=claims.after_kong,
            last_tile=claims.is_last_tile,
            from_dealer=claims.discarder == self.dealer,
            fan_limit=passing.fan[seat] if passing is not None else None,
            furiten=self.is_furiten,
        )

    # ----------------------------------------------------------------- apply

    def apply_timed(self, action: Action, seconds: float) -> list[Event]:
        """Perform the decision ``action`` that took ``seconds`` under the round's clock (001 and
        004's presets: thinking time, the reserve of the round, no reserve for answers to a call, at
        least ``TimeoutRules.opening_seconds`` for an opening choice): a late decision becomes the
        seat's :meth:`timeout_action`. The seconds are kept with the decision, so a replay checks
        the clock.
        """
        from ..clock import charge

        if self.clocks.clock is None:
            raise ValueError("this hand is not played on a clock")
        if seconds < 0:
            raise ValueError(f"a decision cannot take {seconds} seconds")
        self.verify(action)  # the player's own decision must be legal, late or not
        late = charge(self, self.clocks.clock, action.seat, seconds)
        applied = self.timeout_action(action.seat) if late else action
        assert applied is not None
        index = len(self.decisions)
        events = self.apply(applied)
        self.clocks.timing[index] = (seconds, late)  # automatic steps are events, never decisions
        return events

    def apply(self, action: Action) -> list[Event]:
        """Perform ``action`` and every automatic step after it; return the new events."""
        self.verify(action)
        start = len(self.events)
        self.decisions.append(action)
        self.clocks.timing.append(None)
        getattr(self, _HANDLERS.get(action.kind, "_do_response"))(action)
        # Automation: a riichi player's drawn tile goes when discarding it is their only option
        # (001). Most turns are no riichi player's: that is asked before the automation is.
        riichi = self.riichi
        while (
            riichi is not None
            and self.phase is Phase.TURN
            and riichi.declared[self.turn]
            and (tile := self._automatic_discard()) is not None
        ):
            self._do_discard(discard_action(self.turn, tile), automatic=True)
        return self.events[start:]

    # --------------------------------------------------- non-player steps (automations)

    def can_step(self) -> bool:
        """Whether the table waits for a non-player step (:attr:`pending_step`)."""
        return self.pending_step is not None

    def verify_step(self) -> Step:
        """The step the table waits for; :class:`IllegalAction` when it waits for none."""
        if self.pending_step is None:
            raise IllegalAction(
                "automation",
                "the table waits for no step (every automation is on, or a player is to act)",
            )
        return self.pending_step

    def step(self) -> list[Event]:
        """Perform the non-player step the table waits for (one its automations left to the caller),
        then every automatic step after it; return the new events."""
        step = self.verify_step()
        start = len(self.events)
        self.pending_step = None
        if step.kind is StepKind.DRAW:
            self._draw(step.seat, self.wall.pop_front(), replacement=False)
        elif step.kind is StepKind.REPLACEMENT:
            self._replacement_draw(step.seat, kong=step.kong, stepped=True)
        else:
            self._close_empty_window(step.seat)
        while (tile := self._automatic_discard()) is not None:
            self._do_discard(discard_action(self.turn, tile), automatic=True)
        return self.events[start:]

    def _wait_for(self, step: Step) -> None:
        self.pending_step = step
        self.phase = Phase.STEP
        self._cache_at = -1  # no event marks the wait: the options listed before it are stale

    # ------------------------------------------------------------ the opening

    def _do_exchange(self, action: Action) -> None:
        ex = self.exchange
        assert ex is not None
        done = ex.choose(action.seat, action.tiles)
        self._emit(Event(EventKind.EXCHANGE_CHOSEN, action.seat))
        if not done:
            return
        passes = ex.passes()
        for giver, _, t in passes:
            self._take(giver, t)
        for _, receiver, t in passes:
            self._give(receiver, t)
        self._emit(Event(EventKind.EXCHANGE, None, {"direction": ex.direction.value}))
        if self.missing_suit is not None:
            self.phase = Phase.DECLARE
        else:
            self._start_play()

    def _do_declare(self, action: Action) -> None:
        ms = self.missing_suit
        assert ms is not None
        if not ms.declare(action.seat, action.suit):
            self._emit(Event(EventKind.DECLARE_CHOSEN, action.seat))
            return
        self._emit(
            Event(
                EventKind.DECLARE, None, {"missing": [m.value if m else None for m in ms.declared]}
            )
        )
        self._start_play()

    # ------------------------------------------------------------ the turn

    def _note_passed_tsumo(self, seat: Seat) -> None:
        if self.must_discard or self.passing is None:
            return
        score = self.tsumo_score(seat)
        if score is not None:
            self.passing.passed_win(seat, score, discard_win=False)

    def _do_discard(self, action: Action, *, automatic: bool = False, riichi: bool = False) -> None:
        seat, tile = action.seat, action.tile
        assert tile is not None
        if self.passing is not None and not self.must_discard:
            self._note_passed_tsumo(seat)
        self._take(seat, tile)
        self.discards[seat].append(tile)
        self.river[seat].append(tile)
        after_kong = self.kongs.this_turn
        last = self.drew_last_tile
        data: dict[str, Any] = {"tile": tile.mpsz}
        if automatic:
            data["automatic"] = True
        if riichi:
            data["riichi"] = True
        elif self.riichi is not None and self.riichi.ippatsu[seat]:
            self.riichi.ippatsu[seat] = False  # the declarer's go-around is over
        self.events.append(Event(EventKind.DISCARD, seat, data))  # a discard moves no points
        self.turns_taken[seat] += 1
        self.discards_made += 1
        if self.furiten is not None:
            self.furiten.discarded(seat, tile.kind)
        self.must_discard = False
        claims = self.claims
        if claims.kuikae:
            claims.kuikae = set()
        self.last_draw = None
        dead = self.wall.dead
        if dead is not None and dead.pending:
            # an open kong's indicator comes with its replacement discard (001)
            self._indicators(self.wall.reveal_pending())
        self._open_claims(seat, tile, after_kong=after_kong, last_tile=last)

    def _do_original_call(self, action: Action) -> None:
        """003 / M 55: the declaration is made with the first discard (not checked for a calling
        hand)."""
        assert self.original_call is not None
        self.original_call.called[action.seat] = True
        self._emit(
            Event(
                EventKind.ORIGINAL_CALL,
                action.seat,
                {"tile": action.tile.mpsz if action.tile else None},
            )
        )
        self._do_discard(Action(ActionKind.DISCARD, action.seat, tile=action.tile))

    def _do_riichi(self, action: Action) -> None:
        """Declare riichi and discard sideways; the deposit is paid once no one wins on that discard
        (001)."""
        seat, tile = action.seat, action.tile
        assert tile is not None and self.riichi is not None
        self._emit(self.riichi.declare(self, seat, tile))
        self._do_discard(Action(ActionKind.DISCARD, seat, tile=tile), riichi=True)

    def _do_nine_terminals(self, action: Action) -> None:
        self._abort("nine_terminals", action.seat)

    def _abort(self, reason: str, seat: Seat | None = None) -> None:
        """An abortive draw: the round ends with no winner and no payment (001)."""
        self.aborted = reason
        self._emit(Event(EventKind.ABORTIVE_DRAW, seat, {"reason": reason}))
        self._finish()

    def _meld(
        self, seat: Seat, taken: Sequence[Tile], meld: Meld, event: Event, index: int | None = None
    ) -> None:
        """A set a mechanism made (a call, a kong): its tiles leave the hand, the meld joins the
        seat's (in place of the pon at ``index``, an added kong), its event, and no more first
        turns."""
        for t in taken:
            self._take(seat, t)
        if index is None:
            self.melds[seat].append(meld)
        else:
            self.melds[seat][index] = meld
        self._emit(event)
        self._interrupt()

    def _interrupt(self) -> None:
        """A call or kong: no more first turns, and every riichi's one-shot go-around is broken
        (001)."""
        self.interrupted = True
        if self.riichi is not None:
            self.riichi.interrupt()

    def _collect_deposits(self, seat: Seat) -> None:
        """The winner takes every riichi deposit on the table (001)."""
        if self.riichi is None:
            return
        event = self.riichi.collect(seat, self.deposits)
        if event is not None:
            self._emit(event)
            self.deposits = 0

    # ------------------------------------------------------------ claims

    def _open_claims(
        self, discarder: Seat, tile: Tile, *, after_kong: bool, last_tile: bool
    ) -> None:
        """The claim window on a discard (:meth:`.claims.Claims.open_window`); a window nobody can
        answer closes at once, or waits for the caller."""
        wall = self.wall
        if self.claims.open_window(
            self,
            tile,
            discarder,
            after_kong=after_kong,
            last_tile=last_tile,
            live_wall=wall.back != wall.front,
            kong_allowed=self.kong_allowed,
        ):
            self.phase = Phase.CLAIM
        elif not self._auto_claim_pass:
            self._wait_for(Step(StepKind.CLAIM_PASS, discarder))
        else:
            self._close_empty_window(discarder)

    def _close_empty_window(self, discarder: Seat) -> None:
        """A discard nobody could answer: the window closes, and play goes on."""
        if self.claims.completes:  # a completing tile nobody could take still makes furiten
            self._passes_on_claims(robbing=False)
        self.kongs.end_chain()
        if self._after_discard_passed(discarder):
            return
        self._next_draw((discarder + 1) % SEATS)

    def _do_response(self, action: Action) -> None:
        done = self.claims.answer(action)
        self._emit(Event(EventKind.RESPOND, action.seat))
        if not done:
            return
        if self.phase is Phase.ROB:
            self._resolve_rob()
        else:
            self._resolve_claims()

    def _passes_on_claims(self, *, robbing: bool) -> None:
        """The window has closed: the passing rules note the declined wins and pons
        (:meth:`.claims.Claims.passes`), furiten the declined wins and completions (001)."""
        riichi_passed, passed = self.claims.passes(self, robbing=robbing)
        furiten = self.furiten
        if furiten is not None:
            for seat in riichi_passed:
                furiten.passed_riichi_win(seat)  # 001: for the rest of the hand
            for seat in passed:
                furiten.passed_completion(seat)  # 001: until the seat's next draw

    def _limited_ron_winners(self, *, robbing: bool) -> list[Seat] | None:
        """The seats that win on the claimed tile (:meth:`.claims.Claims.winners`); None when too
        many claims abort the round (001: three claims on one discard)."""
        abortive = self.abortive
        winners = self.claims.winners(
            over_limit_aborts=abortive is not None and abortive.rules.triple_ron
        )
        if winners is None:
            self._passes_on_claims(robbing=robbing)
            self._abort("triple_ron")
        return winners

    def _resolve_claims(self) -> None:
        claims = self.claims
        tile, discarder = claims.tile, claims.discarder
        assert tile is not None and discarder is not None
        winners = self._limited_ron_winners(robbing=False)
        if winners is None:
            return
        scores = self.winning.ron_scores(self, winners, tile, robbing=False)
        self._passes_on_claims(robbing=False)
        if winners:
            self.discards[discarder].pop()
            self.discard_called[discarder] = True
            self.called_discards[discarder].append(len(self.river[discarder]) - 1)
            if self.riichi is not None:
                self.riichi.void_pending()  # a declaration discard won on: no deposit
            self._settle_rons(winners, scores, discarder, tile, robbing=False)
            return
        self.kongs.end_chain()
        if self._after_discard_passed(discarder):
            return
        call = claims.call()  # pon and kongs rank above chi
        if call is not None:
            self.discards[discarder].pop()
            self.discard_called[discarder] = True
            self.called_discards[discarder].append(len(self.river[discarder]) - 1)
            self._call(*call, tile, discarder)
            return
        self._next_draw((discarder + 1) % SEATS)

    def _after_discard_passed(self, discarder: Seat) -> bool:
        """No one won on the discard: a riichi declaration stands, and abortive draws are checked
        (001). True if the round ended."""
        stood = False
        if self.riichi is not None and self.riichi.pending is not None:
            deposit = self.riichi.stand()
            if deposit is not None:
                self.deposits += 1
                self._emit(deposit)
                stood = True
        if self.abortive is None:
            return False
        reason = self.abortive.after_discard(
            self, deposit_stood=stood, riichi=self.riichi.declared if self.riichi else None
        )
        if reason is None:
            return False
        self._abort(reason)
        return True

    def _call(self, seat: Seat, call: Action, tile: Tile, discarder: Seat) -> None:
        """A claim for a set (:meth:`.claims.Claims.meld`): pao (001) and the cannon (M 90-96) note
        who gave the tile; the caller is on turn, to discard or, after a kong, to draw."""
        taken, meld, event = self.claims.meld(seat, call, tile, discarder, self.hands[seat])
        self.settlement.note_call(
            self, seat, tile, discarder, liability=call.kind is not ActionKind.CHI
        )
        self._meld(seat, taken, meld, event)
        self._take_turn(seat)
        if call.kind is ActionKind.MINKAN:
            self._kong_made(seat, MeldType.MINKAN, discarder, concealed=False)
        else:
            self.must_discard = True

    def _take_turn(self, seat: Seat) -> None:
        """The caller is on turn, with no draw."""
        self.turn = seat
        self.phase = Phase.TURN
        self.last_draw = None
        self.drew_replacement = False
        self.drew_last_tile = False

    def _do_flower(self, action: Action) -> None:
        seat, tile = action.seat, action.tile
        assert tile is not None
        self._expose_flower(seat, tile, {"tile": tile.mpsz})
        self._replacement_draw(seat, kong=False)

    def _expose_flower(self, seat: Seat, tile: Tile, data: dict[str, Any]) -> None:
        self._take(seat, tile)
        self.flowers[seat].append(tile)
        self._emit(Event(EventKind.FLOWER, seat, data))

    # ------------------------------------------------------------ wins and settlement

    def _settle_rons(
        self,
        winners: list[Seat],
        scores: dict[Seat, Score | None],
        discarder: Seat,
        tile: Tile,
        *,
        robbing: bool,
    ) -> None:
        wins = self.winning
        order = wins.next_order()
        data = {"from": discarder, "ron": True, "robbing": robbing}
        last = self.claims.is_last_tile
        for seat in winners:
            score = scores[seat]
            assert score is not None
            self._emit(wins.won(seat, discarder, tile, score, order, data))
            paid = self.settlement.ron(
                self,
                seat,
                score,
                discarder,
                None if robbing else tile,  # a robbed kong's tile lets off no cannon
                nearest=seat == winners[0],
                values=lambda s: wins.losing_value(self, s),
                without_honba=lambda: wins.without_honba(
                    self, seat, score, tile, discarder, robbing=robbing, last_discard=last
                ),
            )
            self._settle(paid)
        if not robbing:
            self._settle(self.kongs.shot_transfers(winners, discarder))
        # The nearest winner in turn order takes the deposits (001).
        self._collect_deposits(winners[0])
        self.kongs.end_chain()
        for seat in winners:
            self.active[seat] = False
        self._after_win(next_from=winners[-1])

    def _after_win(self, next_from: Seat) -> None:
        if self.rules.flow is WinFlow.SINGLE or len(self.active_seats()) <= 1:
            self._finish()
            return
        self._next_draw((next_from + 1) % SEATS)

    def _do_tsumo(self, action: Action) -> None:
        seat = action.seat
        score = self.tsumo_score(seat)
        assert score is not None and self.last_draw is not None
        tile = self.last_draw
        self._take(seat, tile)
        wins = self.winning
        self._emit(wins.won(seat, None, tile, score, wins.next_order(), {"ron": False}))
        paid = self.settlement.tsumo(
            self,
            seat,
            score,
            values=lambda s: wins.losing_value(self, s),
            without_honba=lambda: wins.without_honba(self, seat, score, None, None),
        )
        self._settle(paid)
        self._collect_deposits(seat)
        self.active[seat] = False
        self.kongs.end_chain()
        self._after_win(next_from=seat)

    def let_off_cannon(self, winner: Seat, discarder: Seat, tile: Tile) -> bool:
        """M 90-96 (:func:`~.settlement.let_off_cannon`) for ``winner``'s exposed sets and
        ``discarder``'s tiles."""
        return let_off_cannon(self.melds[winner], tile, self.hands[discarder])

    # ------------------------------------------------------------ kongs

    def _do_ankan(self, action: Action) -> None:
        seat, tile = action.seat, action.tile
        assert tile is not None
        self._declare_kong(seat)
        robbable = self.rules.calls.rob_concealed_kong
        if robbable:
            # A win with a listed pattern (thirteen orphans) may rob a concealed kong: one copy is
            # set out as the claimed tile, the others stay in hand until the kong completes.
            shown = set_out_copy(self.hands[seat], tile.kind)
            if self.claims.open_robbery(self, shown, seat, patterns=frozenset(robbable)):
                self._take(seat, shown)
                self._emit(Event(EventKind.ANKAN_DECLARED, seat, {"tile": shown.mpsz}))
                self.last_draw = None
                self.kongs.await_robbery(seat, shown, concealed=True)
                self.phase = Phase.ROB
                return
        self._complete_ankan(seat, tile)

    def _declare_kong(self, seat: Seat) -> None:
        # A kong made with a loose tile is Kong upon Kong; declaring it passes a self-draw win.
        self.kongs.declare(drew_replacement=self.drew_replacement)
        self._note_passed_tsumo(seat)

    def _complete_ankan(self, seat: Seat, tile: Tile, shown: Tile | None = None) -> None:
        if shown is not None:
            self._give(seat, shown)  # nobody robbed it: the set-out copy joins the others
        self._meld(seat, *concealed_kong(seat, self.hands[seat], tile))
        self._kong_made(seat, MeldType.ANKAN, None, concealed=True)

    def _do_kakan(self, action: Action) -> None:
        seat, tile = action.seat, action.tile
        assert tile is not None
        self._declare_kong(seat)
        added = added_tile(self.hands[seat], tile.kind)
        self._take(seat, added)
        self._emit(Event(EventKind.KAKAN_DECLARED, seat, {"tile": added.mpsz}))
        self.last_draw = None
        if self.rules.calls.robbable_kakan and self.claims.open_robbery(self, added, seat):
            self.kongs.await_robbery(seat, added, concealed=False)
            self.phase = Phase.ROB
            return
        self._complete_kakan(seat, added)

    def _complete_kakan(self, seat: Seat, added: Tile) -> None:
        index, kong, event = added_kong(seat, self.melds[seat], added)
        self._meld(seat, (), kong, event, index)
        self._kong_made(seat, MeldType.KAKAN, None, concealed=False)

    def _kong_made(
        self, seat: Seat, kind: MeldType, discarder: Seat | None, *, concealed: bool
    ) -> None:
        """After a kong: its payments, its indicator, the four-kongs check, the replacement draw."""
        self._settle(self.kongs.payments(seat, kind, discarder, self.active_seats()))
        self._indicators(self.wall.kong_indicator(concealed))
        if self.abortive is not None:
            self.abortive.kong_made(self.melds)
        self._replacement_draw(seat)

    def _resolve_rob(self) -> None:
        assert self.kongs.pending is not None
        winners = self._limited_ron_winners(robbing=True)
        if winners is None:
            # the kong is never completed: no indicator, no replacement (the tile stays pending)
            return
        seat, added, concealed = self.kongs.robbery_closed()
        scores = self.winning.ron_scores(self, winners, added, robbing=True)
        self._passes_on_claims(robbing=True)
        if winners:
            # The added tile goes to the winners; no kong payment (004), the pon stays a pon.
            self._settle_rons(winners, scores, seat, added, robbing=True)
            return
        self.phase = Phase.TURN
        if concealed:
            self._complete_ankan(seat, added, shown=added)
        else:
            self._complete_kakan(seat, added)

    # ----------------------------------------------------------------- draws

    def _next_draw(self, start: Seat) -> None:
        seat = start
        while not self.active[seat]:
            seat = (seat + 1) % SEATS
        wall = self.wall
        if (
            wall.back == wall.front
        ):  # no tile left to draw (wall_remaining, without the property call)
            self._exhaust()
            return
        if not self._auto_draw:
            self._wait_for(Step(StepKind.DRAW, seat))
            return
        tile = wall.tiles[wall.front]  # Wall.pop_front, without the call (every turn)
        wall.front += 1
        self._draw(seat, tile, replacement=False)

    def _replacement_draw(self, seat: Seat, *, kong: bool = True, stepped: bool = False) -> None:
        """The tile that replaces a kong (``kong``) or an exposed bonus tile, or the wait for it
        when the caller performs replacements (``stepped``: it does so now)."""
        if kong:
            self.kongs.this_turn = True
        if not (stepped or self._auto_replacement):
            self._wait_for(Step(StepKind.REPLACEMENT, seat, kong))
            return
        self._draw(seat, self.wall.replacement(kong=kong), replacement=True, kong=kong)

    def _draw(self, seat: Seat, tile: Tile, *, replacement: bool, kong: bool = False) -> None:
        if self.furiten is not None:
            self.furiten.drew(seat)
        if self.passing is not None:
            self.passing.drew(seat)
        self._give(seat, tile)
        self.turn = seat
        self.phase = Phase.TURN
        self.last_draw = tile
        wall = self.wall
        # A flower's replacement is no kong bloom, unless it is a loose tile (003: winning with a
        # loose tile).
        self.drew_replacement = replacement and (kong or wall.replacement_is_loose())
        # With a dead wall a replacement is never the last tile (it comes from the dead wall).
        left = wall.back - wall.front
        self.drew_last_tile = left == 0 and not (replacement and wall.replacement_is_never_last())
        self.must_discard = False
        if not replacement:
            self.kongs.drew()
        # A draw moves no points: no score update.
        self.events.append(Event(EventKind.DRAW, seat, {"replacement": replacement, "left": left}))

    # ------------------------------------------------------------ exhaustion

    def ready_value(self, seat: Seat) -> int | None:
        """The best payment a discard win could bring ``seat`` now
        (:meth:`.wins.Wins.ready_value`)."""
        return self.winning.ready_value(
            self, seat, holds_missing=self.holds_missing(seat), payment=discarder_payment
        )

    def _exhaust(self) -> None:
        self.exhausted = True
        data, transfers = self.exhaustion.settle_table(
            self, missing=self.missing, ready_value=self.ready_value, refunds=self.kongs.refunds
        )
        self._emit(Event(EventKind.EXHAUSTION, None, data))
        self._settle(transfers)
        self._finish()

    @property
    def ready_at_end(self) -> list[Seat]:
        """The seats ready when the wall ran out (under the ready pool)."""
        return self.exhaustion.ready_at_end

    def _finish(self) -> None:
        self.phase = Phase.OVER
        self.claims.close()
        self._emit(hand_end(self, self.wins, exhausted=self.exhausted))

    # -------------------------------------------------------------- results

    def next_dealer(self) -> Seat:
        """Who deals next (:func:`.results.next_dealer`)."""
        return next_dealer(self.dealer, self.wins)

    def time_limit(self, seat: Seat) -> int | None:
        """Seconds ``seat`` has for the decision the table waits for, when the rules limit it (else
        None).

        003 "Precedence of claims for discard" (M 61-65): every player answers a claim window
        (a discard, or an added kong that may be robbed) within the limit, or is deemed to pass
        (:meth:`timeout_action`). The player on turn has no limit.
        """
        return self.clocks.time_limit(self, seat)

    def timeout_action(self, seat: Seat) -> Action | None:
        """The documented default for a seat whose clock ran out (None if the table is not waiting
        for it)."""
        legal = self.legal_actions(seat)
        least = (
            self.missing_suit.least_held(self.hands[seat], self.profile.tiles.suits)
            if self.phase is Phase.DECLARE and self.missing_suit is not None and legal
            else None
        )
        return self.clocks.timeout_action(self, seat, legal, least_held_suit=least)

    def snapshot(self, seat: Seat | None = None) -> dict[str, Any]:
        """The table as plain data (:func:`.snapshot.table_view`); with ``seat``, masked for it."""
        ex = self.exchange
        return table_view(
            self,
            seat,
            claim_tile=self.claims.tile if self.phase in (Phase.CLAIM, Phase.ROB) else None,
            dead=self.wall.dead,
            missing=self.missing,
            exchange=ex.choice if ex is not None else None,
            riichi=[self.in_riichi(s) for s in range(SEATS)],
        )

    def tile_census(self) -> list[Tile]:
        """Every tile at the table now (:func:`.snapshot.census`)."""
        pending = self.kongs.pending
        return census(self, self.wall.census(), self.wins, pending[1] if pending else None)


_HANDLERS: dict[ActionKind, str] = {
    ActionKind.EXCHANGE: "_do_exchange",
    ActionKind.DECLARE: "_do_declare",
    ActionKind.DISCARD: "_do_discard",
    ActionKind.TSUMO: "_do_tsumo",
    ActionKind.ANKAN: "_do_ankan",
    ActionKind.KAKAN: "_do_kakan",
    ActionKind.FLOWER: "_do_flower",
    ActionKind.ORIGINAL_CALL: "_do_original_call",
    ActionKind.RIICHI: "_do_riichi",
    ActionKind.NINE_TERMINALS: "_do_nine_terminals",
}
"""The method of Round that performs each kind of action (the others are answers to a claim):
made once, not per apply."""
