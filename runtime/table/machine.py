"""The machine: one round of mahjong as a state machine over the table's mechanisms.

``legal_actions(seat)`` lists what a seat may do now; ``verify(action)`` raises
:class:`IllegalAction` naming the rule (the state untouched), ``can(action)`` answers yes or no,
``apply(action)`` performs it together with every automatic step that follows (draws,
replacement tiles, settlement) and returns the events. Which non-player steps are automatic is
the caller's choice (:class:`~.common.Automation`; by default all, as every record replays); a
step left to the caller waits as :attr:`Round.pending_step` until :meth:`Round.step`. Every
random choice comes from one seeded generator or an explicit wall, so a round replays exactly.

The machine holds what every mechanism reads (the seats' tiles, melds and discards, the turn)
and composes the mechanisms, each in its own module and owning its state, built only when its
rules block is present: the wall (:mod:`.wall`), the opening (:mod:`.opening`), claims and passing
(:mod:`.claims`), kongs (:mod:`.kongs`), riichi (:mod:`.riichi`), furiten (:mod:`.furiten`),
abortive draws (:mod:`.abortive`), settlement (:mod:`.settlement`), exhaustion
(:mod:`.exhaustion`), clocks (:mod:`.clocks`) and the snapshot (:mod:`.snapshot`). A mechanism
never calls another: it answers the machine with actions, events and :class:`~.common.Transfer`
values, and the machine pays them and moves on.

Nothing here looks at a profile's id: ``profile.table`` (:class:`TableRules`) and the profile's
scoring rules decide.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Callable, Sequence

from ..actions import Action, ActionKind, Event, EventKind, IllegalAction
from ..context import WinContext, WinKind, Wind
from ..deadwall import DeadWall, next_kind
from ..hand import Meld, MeldType
from ..profile import MissingSuitRule, Profile
from ..rules import ExchangeDirection, WinFlow
from ..scoring import Score, WinningHand, evaluate, score_losing_hand
from ..shapes import is_complete, wait_mask, waits
from ..tiles import N_ALL_KINDS, N_KINDS, Suit, Tile, format_tiles
from .abortive import Abortive, abortive_applies
from .claims import Claims, Passing, passing_applies
from .clocks import Clocks
from .common import (
    ALL_AUTOMATIONS,
    MINKAN,
    PASS,
    RON,
    SEAT_ACTIONS,
    SEATS,
    TSUMO,
    WINDS,
    Automation,
    Phase,
    Seat,
    Step,
    StepKind,
    Transfer,
    WinRecord,
    discard_action,
    closed,
    kong_count,
    shape_waits,
    tile_key,
)
from .exhaustion import Exhaustion
from .furiten import Furiten
from .kongs import Kongs
from .opening import Exchange, MissingSuit, OriginalCall, dealt_bonus_tile
from .riichi import Riichi
from .settlement import (
    Liability,
    Scored,
    cannon_event,
    discarder_payment,
    let_off_cannon,
    payers,
    win_transfers,
)
from .snapshot import masked, player_view
from .turn import discards as turn_discards
from .turn import flower_offers, kong_offers
from .wall import Wall


class Round:
    """One round at the table (a "hand" of mahjong; "hand" is left to a player's tiles)."""

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
        self.profile = profile
        self.rules = rules = profile.table
        self.rng = random.Random(seed)
        self.seed = seed
        self.dealer = dealer
        self.dealer_wins = dealer_wins
        """The dealer's consecutive wins before this round (East's 13th consecutive win is a limit hand)."""
        self.automations = automations
        """The non-player steps the engine performs itself (the rest wait in :attr:`pending_step`)."""
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
        self.claims = Claims(rules.calls)
        self.passing = Passing(rules.passing) if passing_applies(rules.passing) else None
        self.kongs = Kongs(rules.kongs)
        self.riichi = Riichi(rules.riichi) if rules.riichi is not None else None
        f = rules.furiten
        self.furiten = (
            Furiten(f)
            if f.own_discards or f.passed_completion or f.riichi_passed or f.passed_ends_at_discard
            else None
        )
        self.abortive = Abortive(rules.abortive) if abortive_applies(rules.abortive) else None
        self.liability = Liability(rules.pao) if rules.pao is not None else None
        self.scored = Scored(rules.settlement) if rules.settlement is not None else None
        self.exhaustion = Exhaustion(rules.exhaustion)
        self.clocks = Clocks(rules.timeout)

        # Carried from the match.
        self.round_wind = round_wind
        self.honba = honba
        self.deposits = deposits
        """Riichi deposits on the table (carried ones included), counted in sticks."""
        self.deposits_at_start = deposits
        self.points: list[int] = (
            list(points) if points is not None else [rules.match.start_score] * SEATS
        )
        """Each seat's points when the round began (riichi needs enough of them)."""

        # What every mechanism reads: the seats' tiles.
        self.hands: list[list[Tile]] = [[] for _ in range(SEATS)]
        self.counts: list[list[int]] = [[0] * N_ALL_KINDS for _ in range(SEATS)]
        """Per seat, per kind: kept in step with ``hands`` by _give/_take."""
        # Each seat's wait mask (bit k: one more k completes its concealed tiles) with the melds count it
        # was made for; _give/_take drop it, so a claim check on a discard is a bit test.
        self._wait_masks: list[tuple[int, int] | None] = [None] * SEATS
        self.flowers: list[list[Tile]] = [[] for _ in range(SEATS)]  # exposed flowers
        self.melds: list[list[Meld]] = [[] for _ in range(SEATS)]
        self.discards: list[list[Tile]] = [[] for _ in range(SEATS)]
        """Discards still in the river (a claimed one leaves it)."""
        self.river: list[list[Tile]] = [[] for _ in range(SEATS)]
        """Every discard, called ones included."""
        self.discard_called = [False] * SEATS
        self.turns_taken = [0] * SEATS  # discards made
        self.discards_made = 0  # this round (Earth's Blessing: a win on East's first discard)
        self.interrupted = False  # a call or kong has been made (ends every "first turn")
        self.active = [True] * SEATS

        # The log and the outcome.
        self.scores = [0] * SEATS
        self.events: list[Event] = []
        self.decisions: list[Action] = []
        self.wins: list[WinRecord] = []
        self.win_events = 0
        self.exhausted = False
        self.aborted: str | None = None

        # The turn.
        self.phase = Phase.OVER
        self.turn = dealer
        self.last_draw: Tile | None = None
        self.drew_replacement = False
        self.drew_last_tile = False
        self.must_discard = False  # after a pon: no draw, so no win or kong

        self._flowers = profile.tiles.flowers  # whether a seat can hold a flower at all
        self._red_fives = bool(profile.tiles.red_fives)  # whether two tiles of one kind can differ
        self._cache: dict[int, list[Action]] = {}
        self._cache_at = -1
        self._tsumo_at = (-1, -1)
        self._tsumo_cached: Score | None = None

        self._deal()

    # ------------------------------------------------------------ read-only views

    @property
    def wall_remaining(self) -> int:
        """Tiles left to draw (front and replacement tiles come from the same live wall)."""
        return self.wall.back - self.wall.front

    @property
    def dead(self) -> DeadWall | None:
        """The dead wall, under ``TableRules.dead_wall``."""
        return self.wall.dead

    @property
    def dice(self) -> tuple[int, ...]:
        return self.wall.dice

    @property
    def initial_wall(self) -> tuple[Tile, ...]:
        return self.wall.initial

    @property
    def exchange_direction(self) -> ExchangeDirection | None:
        return self.exchange.direction if self.exchange is not None else None

    @property
    def missing(self) -> list[Suit | None]:
        """Each seat's declared missing suit (None: none declared, or no declaration in this game)."""
        ms = self.missing_suit
        return list(ms.declared) if ms is not None else [None] * SEATS

    @property
    def clock(self) -> Any:
        return self.clocks.clock

    @clock.setter
    def clock(self, value: Any) -> None:
        self.clocks.clock = value

    @property
    def timing(self) -> list[tuple[float, bool] | None]:
        return self.clocks.timing

    # ------------------------------------------------------------------ setup

    def _deal(self) -> None:
        deal = self.profile.deal
        pop = self.wall.pop_front
        order = [(self.dealer + i) % SEATS for i in range(SEATS)]
        if self.rules.deal_in_blocks:
            # 002 §2: four tiles to each seat, three passes; one more each; the dealer's jump draw.
            for _ in range(3):
                for seat in order:
                    for _ in range(4):
                        self._give(seat, pop())
            for seat in order:
                for _ in range(deal.others - 12):
                    self._give(seat, pop())
            for _ in range(deal.dealer - deal.others):
                self._give(self.dealer, pop())
        else:
            for seat in order:
                n = deal.dealer if seat == self.dealer else deal.others
                for _ in range(n):
                    self._give(seat, pop())
        dealt: dict[str, Any] = {
            "dealer": self.dealer,
            "dice": list(self.wall.dice),
            "wall": len(self.wall.tiles),
        }
        if self.wall.dead is not None:
            dealt["indicators"] = format_tiles(self.wall.dead.indicators())
        self._emit(Event(EventKind.DEAL, None, dealt))
        if self.rules.bonus.declare_at_deal:
            self._declare_dealt_bonus_tiles()
        if self.exchange is not None:
            self.phase = Phase.EXCHANGE
        elif self.missing_suit is not None:
            self.phase = Phase.DECLARE
        else:
            self._start_play()

    def _declare_dealt_bonus_tiles(self) -> None:
        """``BonusTiles.declare_at_deal`` (M 32-33, the xmj server's opening phase): the dealer first, then
        each player in turn exposes every bonus tile dealt and takes its replacement (again, when the
        replacement is a bonus tile). These replacements are part of the deal, not draws: the dealer keeps
        Heaven's Blessing and nobody's first turn is used."""
        for seat in ((self.dealer + i) % SEATS for i in range(SEATS)):
            while self.wall_remaining > 0:
                flower = dealt_bonus_tile(self.hands[seat], self.counts[seat])
                if flower is None:
                    break
                self._take(seat, flower)
                self.flowers[seat].append(flower)
                self._emit(Event(EventKind.FLOWER, seat, {"tile": flower.mpsz, "deal": True}))
                self._give(seat, self.wall.replacement(kong=False))
        self.wall.loose_from_live = False

    def _start_play(self) -> None:
        self.phase = Phase.TURN
        self.turn = self.dealer
        self.last_draw = self.hands[self.dealer][-1]
        self.must_discard = False

    # ------------------------------------------------------------ the seats' tiles

    def _give(self, seat: Seat, tile: Tile) -> None:
        self.hands[seat].append(tile)
        self.counts[seat][tile.kind] += 1
        self._wait_masks[seat] = None

    def _take(self, seat: Seat, tile: Tile) -> None:
        hand = self.hands[seat]
        # list.remove(tile) by kind and red: the first equal tile goes, without a dataclass == per tile.
        kind, red = tile.kind, tile.red
        for i, t in enumerate(hand):
            if t.kind == kind and t.red == red:
                del hand[i]
                break
        else:
            raise ValueError(f"seat {seat} does not hold {tile}")
        self.counts[seat][kind] -= 1
        self._wait_masks[seat] = None

    def _completed_by(self, seat: Seat, kind: int) -> bool:
        """Whether one more tile of ``kind`` completes the seat's concealed tiles (held flowers aside;
        callers refuse those), by shape: a bit of the seat's wait mask, made once per change of its tiles.
        """
        n_melds = len(self.melds[seat])
        cached = self._wait_masks[seat]
        if cached is None or cached[0] != n_melds:
            cached = self._wait_masks[seat] = (
                n_melds,
                wait_mask(self.counts[seat][:N_KINDS], n_melds, self.profile.shapes),
            )
        return bool(cached[1] >> kind & 1)

    def _shape_waits(self, seat: Seat, *, held_waits: bool = False) -> frozenset[int]:
        return shape_waits(self.hands[seat], self.melds[seat], self.profile, held_waits=held_waits)

    def holds_missing(self, seat: Seat) -> bool:
        """Whether ``seat`` still holds a tile of the suit it declared missing (000 §3: it must go first)."""
        ms = self.missing_suit
        return ms is not None and ms.holds(seat, self.counts[seat])

    def _missing_of(self, seat: Seat) -> Suit | None:
        ms = self.missing_suit
        return ms.declared[seat] if ms is not None else None

    def _in_riichi(self, seat: Seat) -> bool:
        r = self.riichi
        return r is not None and r.declared[seat]

    # --------------------------------------------------------------- queries

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def active_seats(self) -> list[Seat]:
        return [s for s in range(SEATS) if self.active[s]]

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
        # Every change of state appends an event, so the event count keys a cache
        # that spares recomputing the options between asking and applying.
        if self._cache_at != len(self.events):
            self._cache_at = len(self.events)
            self._cache.clear()
            hit = None
        else:
            hit = self._cache.get(seat)
        if hit is None:
            hit = self._cache[seat] = self._legal_actions(seat)
        return list(hit)

    def _legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.pending_seats():
            return []
        if self.phase is Phase.EXCHANGE:
            assert self.exchange is not None
            return self.exchange.options(seat, self.hands[seat], self.profile.tiles.suits)
        if self.phase is Phase.DECLARE:
            assert self.missing_suit is not None
            return self.missing_suit.options(seat, self.profile.tiles.suits)
        if self.phase is Phase.TURN:
            return self._turn_options(seat)
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
            raise IllegalAction(
                "automation",
                f"the table waits for a {self.pending_step.kind.value} step (Round.step), not a decision",  # type: ignore[union-attr]
            )
        if not 0 <= action.seat < SEATS:
            raise IllegalAction("seats", f"there is no seat {action.seat}")
        if action.seat not in self.pending_seats():
            who = ", ".join(map(str, self.pending_seats()))
            raise IllegalAction(
                "turn-order",
                f"seat {action.seat} is not to act now (waiting for seat {who} in phase {self.phase.value})",
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
        kinds = sorted({a.kind.value for a in legal})
        if (
            action.kind is ActionKind.RIICHI
            and self.phase is Phase.TURN
            and ActionKind.DISCARD.value in kinds
        ):
            return ("riichi", self._why_no_riichi(action.seat))
        if self.phase is Phase.TURN and (why := self._why_no_turn_action(action)) is not None:
            return why
        if action.kind.value not in kinds:
            return ("phase", f"{action.kind.value} is not possible now; legal: {', '.join(kinds)}")
        seat = action.seat
        if action.kind in (ActionKind.DISCARD, ActionKind.RIICHI) and action.tile is not None:
            if action.tile not in self.hands[seat]:
                return ("own-tiles", f"seat {seat} does not hold {action.tile}")
            if self._in_riichi(seat):
                return (
                    "riichi-fixed-hand",
                    f"after riichi seat {seat} may only discard the drawn tile",
                )
            if action.tile.kind in self.claims.kuikae:
                return (
                    "kuikae",
                    f"after the call seat {seat} may not discard {action.tile} (kuikae)",
                )
            if action.kind is ActionKind.RIICHI:
                return ("riichi", self._why_no_riichi(seat))
            return (
                "missing-suit-first",
                f"seat {seat} must discard the declared missing suit ({self._missing_of(seat)}) first",
            )
        if action.kind is ActionKind.EXCHANGE:
            if self.exchange is not None:
                return self.exchange.why_illegal()
            return ("exchange", "exchange exactly 0 tiles held")
        if action.kind is ActionKind.KAKAN and self.rules.calls.kakan_drawn_tile_only:
            return ("kakan-drawn-tile", "the tile added to a pon must be the tile just drawn")
        return (
            "tiles",
            f"{action} does not match any legal {action.kind.value}: the tiles are not there",
        )

    def _why_no_turn_action(self, action: Action) -> tuple[str, str] | None:
        """The rule that refuses a kong or a nine-terminals declaration on one's turn, when one does (001)."""
        seat = action.seat
        if action.kind in (ActionKind.ANKAN, ActionKind.KAKAN, ActionKind.MINKAN):
            limit = self.rules.calls.max_kongs
            if limit is not None and self.kong_count() >= limit:
                return (
                    "kong-limit",
                    f"no kong may be declared once {limit} kongs are on the table",
                )
            if self.wall_remaining <= 0:
                return ("kong-wall", "no kong with no tile left to draw in the live wall")
            riichi = self.riichi
            if (
                action.kind is ActionKind.ANKAN
                and riichi is not None
                and riichi.declared[seat]
                and riichi.rules.kong_keeps_waits
            ):
                return (
                    "riichi-kong",
                    "after riichi a concealed kong must be made with the drawn tile and keep exactly the same waits",
                )
        if action.kind is ActionKind.NINE_TERMINALS and self.abortive is not None:
            return self.abortive.why_no_nine_terminals()
        return None

    # --------------------------------------------------------------- options

    def _turn_options(self, seat: Seat) -> list[Action]:
        riichi = self.riichi
        if riichi is not None and riichi.declared[seat]:
            drawn = self.last_draw
            return riichi.turn_options(
                seat,
                tsumo=TSUMO[seat] if self._tsumo_score(seat) is not None else None,
                drawn=drawn,
                hand=self.hands[seat],
                counts=self.counts[seat],
                melds=self.melds[seat],
                kong_allowed=self.rules.calls.ankan and drawn is not None and self._kong_allowed(),
                profile=self.profile,
            )
        hand = self.hands[seat]
        counts = self.counts[seat]
        out: list[Action] = []
        ms = self.missing_suit
        holds_missing = ms is not None and ms.holds(seat, counts)
        blocked = self.rules.calls.missing_suit_blocks_calls and holds_missing
        if not self.must_discard and not blocked:
            if self._tsumo_score(seat) is not None:
                out.append(TSUMO[seat])
            calls = self.rules.calls
            melds = self.melds[seat]
            # Only four of a kind held or a pon can make a kong: most turns spare the offers' call.
            if ((calls.ankan and 4 in counts) or (calls.kakan and melds)) and self._kong_allowed():
                out.extend(kong_offers(seat, counts, melds, calls, self.last_draw))
        exposable = False
        if self._flowers and any(counts[N_KINDS:]):
            # A held flower may be exposed on one's turn, after a call too; its replacement needs a tile.
            exposable = self.wall.back > self.wall.front
            if exposable:
                out.extend(flower_offers(seat, hand))
        discards = turn_discards(
            seat,
            hand,
            counts,
            red_fives=self._red_fives,
            keep_flowers=exposable and not self.rules.bonus.discard,
            missing_first=(
                ms.declared[seat]
                if ms is not None and holds_missing and self.rules.discard_missing_suit_first
                else None
            ),
            kuikae=self.claims.kuikae if self.must_discard else _NO_KINDS,
        )
        out.extend(discards)
        if self.original_call is not None:
            out = self.original_call.options(
                seat,
                out,
                discards,
                first_discard=self.turns_taken[seat] == 0
                and not self.melds[seat]
                and not self.must_discard,
                last_draw=self.last_draw,
            )
        if riichi is not None and not self.must_discard:  # no riichi right after a call
            out.extend(
                riichi.declarations(
                    seat,
                    discards,
                    hand=hand,
                    counts=counts,
                    melds=self.melds[seat],
                    points=self.points[seat] + self.scores[seat],
                    wall_remaining=self.wall.back - self.wall.front,
                    profile=self.profile,
                )
            )
        abortive = self.abortive
        if (
            abortive is not None
            and abortive.rules.nine_terminals
            # An uninterrupted first turn: no call or kong yet, the seat's first discard to come (001).
            and not self.must_discard
            and not self.interrupted
            and not self.turns_taken[seat]
            and abortive.nine_terminals_held(counts)
        ):
            out.append(SEAT_ACTIONS[ActionKind.NINE_TERMINALS][seat])
        return out

    def _kong_allowed(self) -> bool:
        """A kong needs a tile left to draw, a replacement in the dead wall and room under the kong limit."""
        if not self.wall.kong_has_replacement():
            return False
        limit = self.rules.calls.max_kongs
        # Fewer melds than the limit are fewer kongs than the limit: most turns need no count.
        return limit is None or sum(map(len, self.melds)) < limit or kong_count(self.melds) < limit

    def kong_count(self) -> int:
        """Kongs on the table, every seat's together."""
        return kong_count(self.melds)

    def _why_no_riichi(self, seat: Seat) -> str:
        if self.riichi is None:
            return "this profile has no riichi"
        return self.riichi.why_not(
            seat,
            may_declare=not self.must_discard,
            is_closed=closed(self.melds[seat]),
            points=self.points[seat] + self.scores[seat],
            wall_remaining=self.wall_remaining,
        )

    def _automatic_discard(self) -> Tile | None:
        """The drawn tile a riichi player discards without a decision: when it is their only option (001)."""
        riichi = self.riichi
        if riichi is None or self.phase is not Phase.TURN or not riichi.declared[self.turn]:
            return None
        if not self._auto_riichi_discard:
            return None
        if not riichi.rules.automatic_discard:
            return None
        return riichi.automatic_discard(self.turn, self.legal_actions(self.turn))

    # ------------------------------------------------------------------ wins

    def win_context(
        self,
        seat: Seat,
        *,
        after_kong: bool = False,
        last_tile: bool = False,
        kong_shot: bool = False,
        robbing_kong: bool = False,
        first_draw: bool = False,
        honba: int | None = None,
        fourth_tile: bool = False,
    ) -> WinContext:
        dead = self.wall.dead
        r = self.riichi
        in_riichi = r is not None and r.declared[seat]
        ura = ""
        if dead is not None and in_riichi and dead.rules.under_indicators:
            ura = format_tiles(dead.under_indicators())
        return WinContext(
            seat_wind=WINDS[(seat - self.dealer) % SEATS],
            round_wind=self.round_wind,
            flowers=format_tiles(self.flowers[seat]),
            missing_suit=self._missing_of(seat),
            dealer=seat == self.dealer,
            riichi=in_riichi,
            double_riichi=r is not None and r.double[seat],
            ippatsu=r is not None and r.ippatsu[seat],
            after_kong=after_kong,
            last_tile=last_tile,
            kong_shot=kong_shot,
            robbing_kong=robbing_kong,
            first_draw=first_draw,
            fourth_tile=fourth_tile,
            dora_indicators=format_tiles(dead.indicators()) if dead is not None else "",
            ura_indicators=ura,
            honba=self.honba if honba is None else honba,
            original_call=self.original_call is not None and self.original_call.called[seat],
            dealer_wins=self.dealer_wins if seat == self.dealer else 0,
            riichi_sticks=self.deposits,
            exhausted=self.exhausted_kinds() if "only_live_wait" in self.profile.needs else "",
        )

    def shown_copies(self, kind: int) -> int:
        """Copies of ``kind`` in view: in the discards and in exposed sets (a concealed kong is face down)."""
        shown = 0
        for s in range(SEATS):
            shown += [t.kind for t in self.discards[s]].count(kind)  # asked for every win checked
            for m in self.melds[s]:
                if m.type is not MeldType.ANKAN:
                    shown += [t.kind for t in m.tiles].count(kind)
        return shown

    def _is_last_copy(self, tile: Tile, *, on_discard: bool) -> bool:
        """The winning tile is the last copy not yet in view: the other copies are all among the discards
        and exposed sets (002 §4 Last Tile). A discard won on is itself still among the discards."""
        return (
            self.shown_copies(tile.kind) - (1 if on_discard else 0) == self.profile.tiles.copies - 1
        )

    def exhausted_kinds(self) -> str:
        """Kinds (mpsz) whose four copies are all exposed on the table: in the discards or in declared
        sets, concealed kongs included (003 "Filling the only place": such a kind is not available).
        """
        shown = [0] * N_KINDS
        for s in range(SEATS):
            for t in self.discards[s]:
                if t.kind < N_KINDS:  # a discarded bonus tile (002 §1) is no hand-forming kind
                    shown[t.kind] += 1
            for m in self.melds[s]:
                for t in m.tiles:
                    shown[t.kind] += 1
        return format_tiles([Tile(k) for k in range(N_KINDS) if shown[k] >= 4])

    def dora_kinds(self) -> list[int]:
        """The bonus kinds the turned indicators name (one entry per indicator)."""
        dead = self.wall.dead
        return [next_kind(t.kind) for t in dead.indicators()] if dead is not None else []

    def is_furiten(self, seat: Seat) -> bool:
        """Whether ``seat`` may not win on a discard now (001 "Furiten"); self-draw stays allowed."""
        f = self.furiten
        return f is not None and f.applies(seat, lambda: self._shape_waits(seat))

    def _tsumo_score(self, seat: Seat) -> Score | None:
        if self._tsumo_at != (seat, len(self.events)):
            self._tsumo_at = (seat, len(self.events))
            self._tsumo_cached = self._compute_tsumo_score(seat)
        return self._tsumo_cached

    def _compute_tsumo_score(self, seat: Seat) -> Score | None:
        hand = self.hands[seat]
        if self.last_draw is None:
            return None
        counts = self.counts[seat]
        if any(counts[N_KINDS:]) or not is_complete(
            counts[:N_KINDS], len(self.melds[seat]), self.profile.shapes
        ):
            return None  # an unexposed flower is never part of a winning shape
        rest = list(hand)
        rest.remove(self.last_draw)
        # Heavenly and earthly hands: the seat's first draw, before any call or kong (001).
        first = not self.interrupted and self.turns_taken[seat] == 0 and not self.drew_replacement
        ctx = self.win_context(
            seat,
            after_kong=self.drew_replacement,
            last_tile=self.drew_last_tile,
            first_draw=first,
            fourth_tile=self._is_last_copy(self.last_draw, on_discard=False),
        )
        if self.kongs.upon_kong and self.drew_replacement:
            ctx = replace(ctx, kong_upon_kong=True)
        score = evaluate(
            self.profile,
            WinningHand(tuple(rest), tuple(self.melds[seat]), self.last_draw, WinKind.TSUMO),
            ctx,
        )
        if not score.legal or not self._fan_allowed(seat, score):
            return None
        return score

    def _ron_score(
        self, seat: Seat, tile: Tile, *, robbing: bool, honba: int | None = None
    ) -> Score | None:
        passing = self.passing
        if passing is not None and passing.blocks_discard_win(seat):
            return None
        if (
            tile.is_flower
            or any(self.counts[seat][N_KINDS:])
            or not self._completed_by(seat, tile.kind)
        ):
            return None  # the bit test first: most discards complete nobody's hand
        if self.rules.calls.missing_suit_blocks_calls and (
            self.holds_missing(seat) or tile.suit == self._missing_of(seat)
        ):
            return None
        if self.is_furiten(seat):  # after the shape: furiten needs every wait, a costlier test
            return None
        claims = self.claims
        ctx = self.win_context(
            seat,
            robbing_kong=robbing,
            kong_shot=not robbing and claims.after_kong,
            last_tile=not robbing and claims.is_last_tile,
            honba=honba,
            # Earth's Blessing: on East's first discard, nobody else having discarded or called.
            first_draw=not robbing
            and not self.interrupted
            and self.discards_made == 1
            and claims.discarder == self.dealer,
            fourth_tile=self._is_last_copy(tile, on_discard=not robbing),
        )
        score = evaluate(
            self.profile,
            WinningHand(tuple(self.hands[seat]), tuple(self.melds[seat]), tile, WinKind.RON),
            ctx,
        )
        if not score.legal or not self._fan_allowed(seat, score):
            return None
        return score

    def _fan_allowed(self, seat: Seat, score: Score) -> bool:
        passing = self.passing
        return passing is None or passing.fan_allowed(seat, score)

    # ----------------------------------------------------------------- apply

    def apply_timed(self, action: Action, seconds: float) -> list[Event]:
        """Perform the decision ``action`` that took ``seconds`` under the round's clock (001 and 004's
        presets: thinking time, the reserve of the round, no reserve for answers to a call, at least
        ``TimeoutRules.opening_seconds`` for an opening choice): a late decision becomes the seat's
        :meth:`timeout_action`. The seconds are kept with the decision, so a replay checks the clock.
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
        # Automation: a riichi player's drawn tile goes when discarding it is their only option (001).
        while (tile := self._automatic_discard()) is not None:
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
            self._draw_from_wall(step.seat)
        elif step.kind is StepKind.REPLACEMENT:
            self._draw_replacement(step.seat, kong=step.kong)
        else:
            self._close_empty_window(step.seat)
        while (tile := self._automatic_discard()) is not None:
            self._do_discard(discard_action(self.turn, tile), automatic=True)
        return self.events[start:]

    def _wait_for(self, step: Step) -> None:
        self.pending_step = step
        self.phase = Phase.STEP
        self._cache_at = -1  # no event marks the wait: the options listed before it are stale

    # ------------------------------------------------------------ payments

    def _emit(self, event: Event) -> None:
        if any(event.deltas):  # most events move no points
            for seat, d in enumerate(event.deltas):
                self.scores[seat] += d
        self.events.append(event)

    def _pay(
        self,
        kind: EventKind,
        receiver: Seat,
        payer: Seat,
        amount: int,
        data: dict[str, Any] | None = None,
    ) -> None:
        if amount == 0 or receiver == payer:
            return
        deltas = [0] * SEATS
        deltas[receiver] += amount
        deltas[payer] -= amount
        self._emit(
            Event(kind, receiver, {"from": payer, "amount": amount, **(data or {})}, tuple(deltas))
        )

    def _transfer(self, transfers: Sequence[Transfer]) -> None:
        for t in transfers:
            self._pay(t.kind, t.receiver, t.payer, t.amount, t.data)

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
        score = self._tsumo_score(seat)
        if score is not None:
            self.passing.passed_win(seat, score, discard_win=False)

    def _do_discard(self, action: Action, *, automatic: bool = False, riichi: bool = False) -> None:
        seat, tile = action.seat, action.tile
        assert tile is not None
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
        self.claims.kuikae = set()
        self.last_draw = None
        if self.wall.dead is not None:
            # an open kong's indicator comes with its replacement discard (001)
            self._indicators(self.wall.reveal_pending())
        self._open_claims(seat, tile, after_kong=after_kong, last_tile=last)

    def _do_original_call(self, action: Action) -> None:
        """003 / M 55: the declaration is made with the first discard (not checked for a calling hand)."""
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
        """Declare riichi and discard sideways; the deposit is paid once no one wins on that discard (001)."""
        seat, tile = action.seat, action.tile
        assert tile is not None and self.riichi is not None
        rest = list(self.hands[seat])
        rest.remove(tile)
        event = self.riichi.declare(
            seat,
            first_turn=self.turns_taken[seat] == 0 and not self.interrupted,
            waits=shape_waits(rest, self.melds[seat], self.profile),
        )
        self._emit(event)
        self._do_discard(Action(ActionKind.DISCARD, seat, tile=tile), riichi=True)

    def _do_nine_terminals(self, action: Action) -> None:
        self._abort("nine_terminals", action.seat)

    def _abort(self, reason: str, seat: Seat | None = None) -> None:
        """An abortive draw: the round ends with no winner and no payment (001)."""
        self.aborted = reason
        self._emit(Event(EventKind.ABORTIVE_DRAW, seat, {"reason": reason}))
        self._finish()

    def _indicators(self, tiles: Sequence[Tile]) -> None:
        for tile in tiles:
            self._emit(Event(EventKind.INDICATOR, None, {"tile": tile.mpsz}))

    def _interrupt(self) -> None:
        """A call or kong: no more first turns, and every riichi's one-shot go-around is broken (001)."""
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
        claims = self.claims
        claims.open(tile, discarder, after_kong=after_kong, last_tile=last_tile)
        options: dict[int, list[Action]] = {}
        calls = self.rules.calls
        kind = tile.kind
        # A discarded flower cannot be claimed (002 §1); the last discard only where the rules allow.
        callable_tile = not tile.is_flower
        calls_open = calls.last_discard_callable or self.wall.back != self.wall.front
        chi_seat = (discarder + 1) % SEATS if calls.chi and kind < 27 else -1
        riichi = self.riichi
        passing = self.passing
        ms = self.missing_suit
        for offset in range(1, SEATS if callable_tile else 1):
            seat = (discarder + offset) % SEATS
            if not self.active[seat]:
                continue
            acts: list[Action] = []
            counts = self.counts[seat]
            # The bit test of the seat's wait mask first: most discards complete nobody's hand (a held
            # flower is never part of a winning shape), and neither furiten nor a win need looking at then.
            if not (self._flowers and any(counts[N_KINDS:])) and self._completed_by(seat, kind):
                self._note_completion(seat, tile)
                if self._ron_score(seat, tile, robbing=False) is not None:
                    acts.append(RON[seat])
            n = counts[kind]
            if (
                calls_open
                and (n >= 2 or seat == chi_seat)
                and (riichi is None or not riichi.declared[seat])
            ):  # after riichi only a win (001)
                blocked = (
                    calls.missing_suit_blocks_calls
                    and ms is not None
                    and (ms.holds(seat, counts) or tile.suit == ms.declared[seat])
                )
                if not blocked:
                    if (
                        calls.pon
                        and n >= 2
                        and (passing is None or kind not in passing.pon_block[seat])
                    ):
                        acts.extend(claims.pon_options(seat, tile, self.hands[seat]))
                    if calls.minkan and n >= 3 and self._kong_allowed():
                        acts.append(MINKAN[seat])
                    if seat == chi_seat:
                        acts.extend(claims.chi_options(seat, tile, self.hands[seat], counts))
            if acts:
                if self.original_call is not None:
                    acts = self.original_call.claims(seat, acts)
                acts.append(PASS[seat])
                options[seat] = acts
        claims.options = options
        if options:
            self.phase = Phase.CLAIM
        elif not self._auto_claim_pass:
            self._wait_for(Step(StepKind.CLAIM_PASS, discarder))
        else:
            self._close_empty_window(discarder)

    def _close_empty_window(self, discarder: Seat) -> None:
        """A discard nobody could answer: the window closes, and play goes on."""
        # A completing tile nobody could take still makes furiten.
        self._passes_on_claims(robbing=False)
        self.kongs.end_chain()
        if self._after_discard_passed(discarder):
            return
        self._next_draw((discarder + 1) % SEATS)

    def _note_completion(self, seat: Seat, tile: Tile) -> None:
        """Letting a completing discard pass makes the seat furiten until its next draw, yaku or not (001)."""
        f = self.furiten
        if f is None or not f.rules.passed_completion or f.passed[seat] or tile.is_flower:
            return
        if any(self.counts[seat][N_KINDS:]):
            return
        if self._completed_by(seat, tile.kind):
            self.claims.completes.add(seat)

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
        claims = self.claims
        tile = claims.tile
        assert tile is not None
        passing = self.passing
        riichi = self.riichi
        furiten = self.furiten
        counts_as_pass = self.rules.passing.call_counts_as_pass
        for seat, resp in claims.responses.items():
            opts = {a.kind for a in claims.options[seat]}
            if ActionKind.RON in opts and resp.kind is not ActionKind.RON:
                riichi_pass = (
                    riichi is not None
                    and riichi.declared[seat]
                    and furiten is not None
                    and furiten.rules.riichi_passed
                )
                if (passing is not None or riichi_pass) and (
                    resp.kind is ActionKind.PASS or counts_as_pass
                ):
                    score = self._ron_score(seat, tile, robbing=robbing)
                    if score is not None and passing is not None:
                        passing.passed_win(seat, score, discard_win=True)
                    if score is not None and riichi_pass:
                        assert furiten is not None
                        furiten.passed_riichi_win(seat)  # 001: for the rest of the hand
            if passing is not None and ActionKind.PON in opts and resp.kind is ActionKind.PASS:
                passing.passed_pon(seat, tile.kind)
        if furiten is not None:
            for seat in claims.completes:
                answer = claims.responses.get(seat)
                if answer is None or answer.kind is not ActionKind.RON:
                    furiten.passed_completion(seat)  # 001: until the seat's next draw

    def _limited_ron_winners(self, *, robbing: bool) -> list[Seat] | None:
        """The seats that win on the claimed tile, nearest first, under ``CallRules.ron_limit``; None when
        more claims than the limit abort the round (001: up to two rons on one discard, three abort).

        A robbed kong's tile is claimed like a discard, so the same limit and abort apply to it
        (riichi_planet's reading of "três reivindicações simultâneas de ron")."""
        claims = self.claims
        winners = claims.ron_winners()
        if claims.over_ron_limit(winners):
            if self.abortive is not None and self.abortive.rules.triple_ron:
                self._passes_on_claims(robbing=robbing)
                self._abort("triple_ron")  # 001: three claims on one discard abort the round
                return None
            winners = claims.limited(winners)
        return winners

    def _ron_scores(
        self, winners: list[Seat], tile: Tile, *, robbing: bool
    ) -> dict[Seat, Score | None]:
        """Each winner's score; with several winners only the nearest in turn order takes the honba (001)."""
        return {
            s: self._ron_score(s, tile, robbing=robbing, honba=None if i == 0 else 0)
            for i, s in enumerate(winners)
        }

    def _resolve_claims(self) -> None:
        claims = self.claims
        tile, discarder = claims.tile, claims.discarder
        assert tile is not None and discarder is not None
        winners = self._limited_ron_winners(robbing=False)
        if winners is None:
            return
        scores = self._ron_scores(winners, tile, robbing=False)
        self._passes_on_claims(robbing=False)
        if winners:
            self.discards[discarder].pop()
            self.discard_called[discarder] = True
            if self.riichi is not None:
                self.riichi.void_pending()  # a declaration discard won on: no deposit
            self._settle_rons(winners, scores, discarder, tile, robbing=False)
            return
        self.kongs.end_chain()
        if self._after_discard_passed(discarder):
            return
        call = claims.call()
        if call is not None:
            seat, resp = call
            self.discards[discarder].pop()
            self.discard_called[discarder] = True
            if resp.kind is ActionKind.CHI:  # chi ranks below pon and kongs
                self._chi(seat, resp, tile, discarder)
            else:
                self._call(seat, resp.kind, tile, discarder, resp.tiles)
            return
        self._next_draw((discarder + 1) % SEATS)

    def _after_discard_passed(self, discarder: Seat) -> bool:
        """No one won on the discard: a riichi declaration stands, and abortive draws are checked (001).
        True if the round ended."""
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
            deposit_stood=stood,
            riichi=self.riichi.declared if self.riichi is not None else None,
            interrupted=self.interrupted,
            turns_taken=self.turns_taken,
            river=self.river,
        )
        if reason is None:
            return False
        self._abort(reason)
        return True

    def _note_call(self, seat: Seat, tile: Tile, discarder: Seat, *, liability: bool) -> None:
        """A claim for a set: pao (001) and the cannon (M 90-96) note who gave the tile."""
        if liability and self.liability is not None:
            self.liability.note_call(seat, tile, discarder, self.melds[seat])
        if self.scored is not None:
            self.scored.note_call(seat, tile, discarder, self.melds[seat], self.hands[discarder])

    def _call(
        self, seat: Seat, kind: ActionKind, tile: Tile, discarder: Seat, tiles: Sequence[Tile] = ()
    ) -> None:
        n = 2 if kind is ActionKind.PON else 3
        taken = list(tiles) if tiles else [t for t in self.hands[seat] if t.kind == tile.kind][:n]
        for t in taken:
            self._take(seat, t)
        self._interrupt()
        self._note_call(seat, tile, discarder, liability=True)
        if kind is ActionKind.PON:
            self.claims.forbid_after_pon(tile)
        source = {1: "left", 2: "across", 3: "right"}[(seat - discarder) % SEATS]
        mtype = MeldType.PON if kind is ActionKind.PON else MeldType.MINKAN
        self.melds[seat].append(Meld(mtype, (*taken, tile), tile, source))
        event = EventKind.PON if kind is ActionKind.PON else EventKind.MINKAN
        self._emit(Event(event, seat, {"tile": tile.mpsz, "from": discarder}))
        self._take_turn(seat)
        if kind is ActionKind.PON:
            self.must_discard = True
            return
        self._kong_made(seat, MeldType.MINKAN, discarder, concealed=False)

    def _take_turn(self, seat: Seat) -> None:
        """The caller is on turn, with no draw."""
        self.turn = seat
        self.phase = Phase.TURN
        self.last_draw = None
        self.drew_replacement = False
        self.drew_last_tile = False

    def _chi(self, seat: Seat, action: Action, tile: Tile, discarder: Seat) -> None:
        for t in action.tiles:
            self._take(seat, t)
        self._interrupt()
        self._note_call(seat, tile, discarder, liability=False)
        self.claims.forbid_after_chi(tile, action.tiles)
        tiles = tuple(sorted((*action.tiles, tile), key=tile_key))
        self.melds[seat].append(Meld(MeldType.CHI, tiles, tile, "left"))
        self._emit(
            Event(
                EventKind.CHI,
                seat,
                {"tile": tile.mpsz, "tiles": format_tiles(tiles), "from": discarder},
            )
        )
        self._take_turn(seat)
        self.must_discard = True

    def _do_flower(self, action: Action) -> None:
        seat, tile = action.seat, action.tile
        assert tile is not None
        self._take(seat, tile)
        self.flowers[seat].append(tile)
        self._emit(Event(EventKind.FLOWER, seat, {"tile": tile.mpsz}))
        self._replacement_draw(seat, kong=False)

    # ------------------------------------------------------------ wins and settlement

    def _win_event(self, seat: Seat, tile: Tile, score: Score, data: dict[str, Any]) -> None:
        self._emit(
            Event(
                EventKind.WIN,
                seat,
                {
                    "tile": tile.mpsz,
                    **data,
                    "patterns": [p.id for p in score.patterns],
                    "total": score.total,
                },
            )
        )

    def _settle_rons(
        self,
        winners: list[Seat],
        scores: dict[Seat, Score | None],
        discarder: Seat,
        tile: Tile,
        *,
        robbing: bool,
    ) -> None:
        order = self.win_events
        self.win_events += 1
        liability = self.liability
        for seat in winners:
            score = scores[seat]
            assert score is not None
            self.wins.append(WinRecord(seat, discarder, tile, score, order))
            self._win_event(seat, tile, score, {"from": discarder, "ron": True, "robbing": robbing})
            if self.scored is not None:
                self._scored_settlement(seat, score, discarder, tile=None if robbing else tile)
                continue
            if liability is not None and liability.splits_ron(seat, discarder):
                # Only the nearest winner takes the honba: the others' payment has none to take out.
                base = (
                    self._without_honba_ron(seat, score, tile, discarder, robbing)
                    if seat == winners[0]
                    else None
                )
                self._transfer(liability.ron(seat, discarder, score, base))
                continue
            losers = [o for o in self.active_seats() if o != seat]
            self._transfer(
                win_transfers(seat, score.payments, losers, discarder=discarder, dealer=self.dealer)
            )
        if not robbing:
            self._transfer(self.kongs.shot_transfers(winners, discarder))
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
        score = self._tsumo_score(seat)
        assert score is not None and self.last_draw is not None
        tile = self.last_draw
        self._take(seat, tile)
        order = self.win_events
        self.win_events += 1
        self.wins.append(WinRecord(seat, None, tile, score, order))
        self._win_event(seat, tile, score, {"ron": False})
        if self.scored is not None:
            self._scored_settlement(seat, score, None, tile=None)
        else:
            losers = [o for o in self.active_seats() if o != seat]
            owed = payers(score.payments, losers, discarder=None, dealer=self.dealer)
            if self.liability is not None:
                owed = self.liability.tsumo(
                    seat,
                    score,
                    owed,
                    lambda: payers(
                        self._without_honba(seat, score, None, None),
                        losers,
                        discarder=None,
                        dealer=self.dealer,
                    ),
                )
            for other, amount in owed.items():
                self._pay(EventKind.WIN_PAYMENT, seat, other, amount)
        self._collect_deposits(seat)
        self.active[seat] = False
        self.kongs.end_chain()
        self._after_win(next_from=seat)

    def _scored_settlement(
        self, winner: Seat, score: Score, discarder: Seat | None, *, tile: Tile | None
    ) -> None:
        """003 "Procedure in Settlement" / M 107-111 (:class:`~.settlement.Scored`)."""
        scored = self.scored
        assert scored is not None
        cannon = scored.cannon(winner, discarder, tile, self.melds[winner], self.hands)
        if cannon is not None:
            self._emit(cannon_event(cannon, winner, tile))
        self._transfer(scored.win(winner, score, discarder, cannon, dealer=self.dealer))
        if not scored.losers_settle(cannon):
            return
        values = {s: self.losing_value(s) for s in range(SEATS) if s != winner}
        self._transfer(scored.between_losers(values, dealer=self.dealer))

    def losing_value(self, seat: Seat) -> int:
        """The value of a loser's hand at settlement (its best reading; announced as a ``hand_score`` event)."""
        score = score_losing_hand(
            self.profile, tuple(self.hands[seat]), tuple(self.melds[seat]), self.win_context(seat)
        )
        value = score.value or 0
        self._emit(
            Event(
                EventKind.HAND_SCORE,
                seat,
                {"score": value, "patterns": [p.id for p in score.patterns], "points": score.fu},
            )
        )
        return value

    def let_off_cannon(self, winner: Seat, discarder: Seat, tile: Tile) -> bool:
        """M 90-96 (:func:`~.settlement.let_off_cannon`) for ``winner``'s exposed sets and ``discarder``'s tiles."""
        return let_off_cannon(self.melds[winner], tile, self.hands[discarder])

    def _without_honba_ron(
        self, seat: Seat, score: Score, tile: Tile, discarder: Seat, robbing: bool
    ) -> Callable[[], int]:
        """The discarder's payment of a discard win with no honba, when asked (pao splits it)."""
        return lambda: discarder_payment(self._without_honba(seat, score, tile, discarder, robbing))

    def _without_honba(
        self,
        seat: Seat,
        score: Score,
        tile: Tile | None,
        ron_from: Seat | None,
        robbing: bool = False,
    ) -> dict[str, int]:
        """The win's payments with no honba (the liability covers the hand's value; honba are paid as usual)."""
        if not self.honba:
            return dict(score.payments)
        win_tile = tile if tile is not None else self.last_draw
        assert win_tile is not None
        # A self-drawn winning tile has already left the hand (_do_tsumo).
        rest = list(self.hands[seat])
        kind = WinKind.TSUMO if ron_from is None else WinKind.RON
        ctx = self.win_context(
            seat,
            after_kong=self.drew_replacement and ron_from is None,
            honba=0,
            robbing_kong=robbing,
            last_tile=self.drew_last_tile if ron_from is None else self.claims.is_last_tile,
        )
        return dict(
            evaluate(
                self.profile, WinningHand(tuple(rest), tuple(self.melds[seat]), win_tile, kind), ctx
            ).payments
        )

    # ------------------------------------------------------------ kongs

    def _do_ankan(self, action: Action) -> None:
        seat, tile = action.seat, action.tile
        assert tile is not None
        self._declare_kong(seat)
        if self.rules.calls.rob_concealed_kong and self._offer_concealed_kong_robbery(seat, tile):
            return
        self._complete_ankan(seat, tile)

    def _offer_concealed_kong_robbery(self, seat: Seat, tile: Tile) -> bool:
        """``CallRules.rob_concealed_kong``: a win whose patterns include a listed one (thirteen orphans,
        where a table allows it) may rob a concealed kong. One copy is set out as the claimed tile, the
        others stay in hand until the kong completes; returns whether anyone may rob it."""
        shown = max((t for t in self.hands[seat] if t.kind == tile.kind), key=tile_key)
        allowed = set(self.rules.calls.rob_concealed_kong)
        options: dict[int, list[Action]] = {}
        claims = self.claims
        claims.open(shown, seat, after_kong=False, last_tile=False)
        for offset in range(1, SEATS):
            other = (seat + offset) % SEATS
            if not self.active[other]:
                continue
            score = self._ron_score(other, shown, robbing=True)
            if score is not None and any(p.id in allowed for p in score.patterns):
                self._note_completion(other, shown)
                options[other] = [RON[other], PASS[other]]
        if not options:
            return False
        self._take(seat, shown)
        self._emit(Event(EventKind.ANKAN_DECLARED, seat, {"tile": shown.mpsz}))
        self.last_draw = None
        self.kongs.pending = (seat, shown)
        self.kongs.pending_concealed = True
        claims.options = options
        claims.responses = {}
        self.phase = Phase.ROB
        return True

    def _declare_kong(self, seat: Seat) -> None:
        # A kong made with a loose tile is Kong upon Kong; declaring it passes a self-draw win.
        self.kongs.upon_kong = self.drew_replacement
        self._note_passed_tsumo(seat)

    def _complete_ankan(self, seat: Seat, tile: Tile, shown: Tile | None = None) -> None:
        if shown is not None:
            self._give(seat, shown)  # nobody robbed it: the set-out copy joins the others
        taken = [t for t in self.hands[seat] if t.kind == tile.kind]
        for t in taken:
            self._take(seat, t)
        self.melds[seat].append(Meld(MeldType.ANKAN, tuple(taken)))
        self._emit(Event(EventKind.ANKAN, seat, {"tile": tile.mpsz}))
        self._interrupt()
        self._kong_made(seat, MeldType.ANKAN, None, concealed=True)

    def _do_kakan(self, action: Action) -> None:
        seat, tile = action.seat, action.tile
        assert tile is not None
        self._declare_kong(seat)
        added = next(t for t in self.hands[seat] if t.kind == tile.kind)
        self._take(seat, added)
        self._emit(Event(EventKind.KAKAN_DECLARED, seat, {"tile": added.mpsz}))
        self.last_draw = None
        if self.rules.calls.robbable_kakan:
            options: dict[int, list[Action]] = {}
            claims = self.claims
            claims.open(added, seat, after_kong=False, last_tile=False)
            for offset in range(1, SEATS):
                other = (seat + offset) % SEATS
                if self.active[other]:
                    self._note_completion(other, added)
                if self.active[other] and self._ron_score(other, added, robbing=True) is not None:
                    options[other] = [RON[other], PASS[other]]
            if options:
                self.kongs.pending = (seat, added)
                claims.options = options
                claims.responses = {}
                self.phase = Phase.ROB
                return
        self._complete_kakan(seat, added)

    def _complete_kakan(self, seat: Seat, added: Tile) -> None:
        index = next(
            i
            for i, m in enumerate(self.melds[seat])
            if m.type is MeldType.PON and m.kind == added.kind
        )
        pon = self.melds[seat][index]
        self.melds[seat][index] = Meld(MeldType.KAKAN, (*pon.tiles, added), pon.claimed, pon.source)
        self._emit(Event(EventKind.KAKAN, seat, {"tile": added.mpsz}))
        self._interrupt()
        self._kong_made(seat, MeldType.KAKAN, None, concealed=False)

    def _kong_made(
        self, seat: Seat, kind: MeldType, discarder: Seat | None, *, concealed: bool
    ) -> None:
        """After a kong: its payments, its indicator, the four-kongs check, the replacement draw."""
        self._transfer(self.kongs.payments(seat, kind, discarder, self.active_seats()))
        self._indicators(self.wall.kong_indicator(concealed))
        if self.abortive is not None:
            self.abortive.kong_made(self.melds)
        self._replacement_draw(seat)

    def _resolve_rob(self) -> None:
        kongs = self.kongs
        assert kongs.pending is not None
        seat, added = kongs.pending
        winners = self._limited_ron_winners(robbing=True)
        if winners is None:
            return  # the kong is never completed: no indicator, no replacement (the tile stays pending)
        kongs.pending = None
        concealed, kongs.pending_concealed = kongs.pending_concealed, False
        scores = self._ron_scores(winners, added, robbing=True)
        self._passes_on_claims(robbing=True)
        if concealed and not winners:
            self.phase = Phase.TURN
            self._complete_ankan(seat, added, shown=added)
            return
        if winners:
            # The added tile goes to the winners; no kong payment (004), the pon stays a pon.
            self._settle_rons(winners, scores, seat, added, robbing=True)
            return
        self.phase = Phase.TURN
        self._complete_kakan(seat, added)

    # ----------------------------------------------------------------- draws

    def _clear_blocks(self, seat: Seat) -> None:
        if self.furiten is not None:
            self.furiten.drew(seat)
        if self.passing is not None:
            self.passing.drew(seat)

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
        tile = wall.tiles[wall.front]  # _draw_from_wall, without the call (every turn)
        wall.front += 1
        self._draw(seat, tile, replacement=False)

    def _draw_from_wall(self, seat: Seat) -> None:
        wall = self.wall
        tile = wall.tiles[wall.front]
        wall.front += 1
        self._draw(seat, tile, replacement=False)

    def _replacement_draw(self, seat: Seat, *, kong: bool = True) -> None:
        if not self._auto_replacement:
            if kong:
                self.kongs.this_turn = True
            self._wait_for(Step(StepKind.REPLACEMENT, seat, kong))
            return
        self._draw_replacement(seat, kong=kong)

    def _draw_replacement(self, seat: Seat, *, kong: bool) -> None:
        if kong:
            self.kongs.this_turn = True
        tile = self.wall.replacement(kong=kong)
        self._draw(seat, tile, replacement=True, kong=kong)

    def _draw(self, seat: Seat, tile: Tile, *, replacement: bool, kong: bool = False) -> None:
        self._clear_blocks(seat)
        self._give(seat, tile)
        self.turn = seat
        self.phase = Phase.TURN
        self.last_draw = tile
        wall = self.wall
        # A flower's replacement is no kong bloom, unless it is a loose tile (003: winning with a loose tile).
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
        """The best payment a discard win could bring ``seat`` now, with no situational bonus; None if not ready."""
        if self.holds_missing(seat) or any(self.counts[seat][N_KINDS:]):
            return None  # an unexposed flower is never part of a ready shape
        melds = self.melds[seat]
        found = waits(
            list(self.counts[seat][:N_KINDS]),
            melds,
            self.profile.shapes,
            self.profile.tiles.kinds(),
            copies=self.profile.tiles.copies,
        )
        best: int | None = None
        for kind in sorted(found):
            score = evaluate(
                self.profile,
                WinningHand(tuple(self.hands[seat]), tuple(melds), Tile(kind), WinKind.RON),
                self.win_context(seat),
            )
            if score.legal:
                value = discarder_payment(score.payments)
                best = value if best is None else max(best, value)
        return best

    def _exhaust(self) -> None:
        self.exhausted = True
        ex = self.exhaustion
        if ex.by_ready_pool:
            held = ex.rules.ready_with_held_waits
            ready = [s for s in range(SEATS) if self._shape_waits(s, held_waits=held)]
            data, transfers = ex.ready_pool(
                ready, self.river, self.discard_called, dealer=self.dealer
            )
        else:
            players = self.active_seats()
            holders = [
                s
                for s in players
                if self.holds_missing(s)
                or any(t.suit == self._missing_of(s) for m in self.melds[s] for t in m.tiles)
            ]
            data, transfers = ex.settle(players, holders, self.ready_value, self.kongs.refunds)
        self._emit(Event(EventKind.EXHAUSTION, None, data))
        self._transfer(transfers)
        self._finish()

    @property
    def ready_at_end(self) -> list[Seat]:
        """The seats ready when the wall ran out (under the ready pool)."""
        return self.exhaustion.ready_at_end

    def _finish(self) -> None:
        self.phase = Phase.OVER
        self.claims.close()
        self._emit(
            Event(
                EventKind.HAND_END,
                None,
                {
                    "scores": list(self.scores),
                    "winners": [w.seat for w in self.wins],
                    "exhausted": self.exhausted,
                },
            )
        )

    # -------------------------------------------------------------- results

    def next_dealer(self) -> Seat:
        """Who deals next under 000 §11 style rules: first winner; discarder after a multi-ron first win; else the same."""
        first = [w for w in self.wins if w.order == 0]
        if not first:
            return self.dealer
        if len(first) > 1 and first[0].discarder is not None:
            return first[0].discarder
        return first[0].seat

    def time_limit(self, seat: Seat) -> int | None:
        """Seconds ``seat`` has for the decision the table waits for, when the rules limit it (else None).

        003 "Precedence of claims for discard" (M 61-65): every player answers a claim window
        (a discard, or an added kong that may be robbed) within the limit, or is deemed to pass
        (:meth:`timeout_action`). The player on turn has no limit.
        """
        return self.clocks.time_limit(self.phase, lambda: seat in self.pending_seats())

    def timeout_action(self, seat: Seat) -> Action | None:
        """The documented default for a seat whose clock ran out (None if the table is not waiting for it)."""
        legal = self.legal_actions(seat)
        least = (
            self.missing_suit.least_held(self.hands[seat], self.profile.tiles.suits)
            if self.phase is Phase.DECLARE and self.missing_suit is not None and legal
            else None
        )
        return self.clocks.timeout_action(
            seat, self.phase, legal, least_held_suit=least, last_draw=self.last_draw
        )

    def snapshot(self, seat: Seat | None = None) -> dict[str, Any]:
        """The table as plain data; with ``seat``, other players' concealed tiles and hidden choices are masked."""
        ex = self.exchange
        missing = self.missing
        players = [
            player_view(
                s,
                own=own,
                hand=self.hands[s],
                melds=self.melds[s],
                discards=self.discards[s],
                missing=missing[s],
                missing_shown=self.phase is not Phase.DECLARE,
                exchange=ex.choice[s] if ex is not None else None,
                active=self.active[s],
                score=self.scores[s],
                riichi=self._in_riichi(s),
            )
            for s, own in enumerate(masked(seat))
        ]
        dead = self.wall.dead
        claims = self.claims
        return {
            "profile": self.profile.id,
            "phase": self.phase.value,
            "dealer": self.dealer,
            "turn": self.turn,
            "wall_remaining": self.wall_remaining,
            "claim_tile": (
                claims.tile.mpsz if self.phase in (Phase.CLAIM, Phase.ROB) and claims.tile else None
            ),
            "pending": self.pending_seats(),
            "dora_indicators": format_tiles(dead.indicators()) if dead is not None else "",
            "honba": self.honba,
            "deposits": self.deposits,
            "players": players,
        }

    def tile_census(self) -> list[Tile]:
        """Every tile at the table now: wall, hands, melds, discards, won tiles and a pending added kong."""
        out = self.wall.census()
        for s in range(SEATS):
            out += self.hands[s]
            out += self.discards[s]
            out += self.flowers[s]
            for m in self.melds[s]:
                out += m.tiles
        seen: set[int] = set()
        for w in self.wins:
            if w.order not in seen:  # several rons on one discard share one tile
                seen.add(w.order)
                out.append(w.tile)
        if self.kongs.pending is not None:
            out.append(self.kongs.pending[1])
        return out


_NO_KINDS: set[int] = set()
"""No kind forbidden (kuikae applies only right after a call); never changed."""

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
