"""The table engine: one hand of mahjong as a state machine driven by a profile's rules.

``legal_actions(seat)`` lists what a seat may do now; ``apply(action)``
verifies it (raising :class:`IllegalAction` naming the rule, with the state
untouched) and then performs it together with every automatic step that
follows (draws, replacement tiles, settlement), returning the events. Every
random choice comes from one seeded generator or an explicit wall, so a hand
replays exactly.

Which mechanisms run is decided by ``profile.table`` (:class:`TableRules`)
and the profile's scoring rules; nothing here looks at a profile's id.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import combinations
from typing import Any, Sequence

from .actions import Action, ActionKind, Event, IllegalAction
from .context import WinContext, WinKind, Wind
from .deadwall import DeadWall, next_kind
from .hand import Meld, MeldType
from .profile import MissingSuitRule, Profile
from .rules import ExchangeDirection, IndicatorTiming, PassWinRule, WinFlow
from .scoring import Score, WinningHand, evaluate, score_losing_hand
from .shapes import discard_shanten, is_complete, shanten, wait_mask, waits
from .tiles import N_ALL_KINDS, N_KINDS, SUIT_LAYOUT, Suit, Tile, format_tiles

SEATS = 4
WINDS = (Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH)


class Phase(StrEnum):
    """Where the hand stands."""

    EXCHANGE = "exchange"
    """Every player chooses tiles to pass (hidden, simultaneous)."""
    DECLARE = "declare"
    """Every player declares a missing suit."""
    TURN = "turn"
    """The player on turn discards, declares a kong or wins."""
    CLAIM = "claim"
    """The other players answer a discard: win, pon, kong or pass."""
    ROB = "rob"
    """The other players may rob an added kong."""
    OVER = "over"
    """The hand has ended."""


@dataclass(frozen=True, slots=True)
class WinRecord:
    """One win of the hand."""

    seat: int
    discarder: int | None
    tile: Tile
    score: Score
    order: int  # which win event (0 = first); several rons on one discard share it


class Hand:
    """One hand at the table."""

    def __init__(
        self,
        profile: Profile,
        *,
        dealer: int = 0,
        seed: int | None = None,
        wall: Sequence[Tile] | None = None,
        dice: tuple[int, ...] | None = None,
        exchange_direction: ExchangeDirection | None = None,
        round_wind: Wind = Wind.EAST,
        honba: int = 0,
        deposits: int = 0,
        points: Sequence[int] | None = None,
        dealer_wins: int = 0,
    ) -> None:
        if not profile.playable:
            raise NotImplementedError(
                f"profile {profile.id}: table play is not implemented yet (it scores hands only)"
            )
        self.profile = profile
        self.rules = profile.table
        self.rng = random.Random(seed)
        self.seed = seed
        self.dealer = dealer
        self.dealer_wins = dealer_wins
        """The dealer's consecutive wins before this hand (East's 13th consecutive win is a limit hand)."""
        # Chance, in a fixed order so that a seed replays exactly.
        if wall is None:
            tiles = list(_all_tiles(profile))
            self.rng.shuffle(tiles)
            wall = tiles
        elif sorted(wall) != sorted(_all_tiles(profile)):
            raise ValueError("an explicit wall must hold exactly the profile's tile set")
        rolls = 2 * max(1, self.rules.dice)
        self.dice: tuple[int, ...] = (
            dice if dice is not None else tuple(self.rng.randint(1, 6) for _ in range(rolls))
        )
        self.exchange_direction: ExchangeDirection | None
        if self.rules.exchange is not None:
            self.exchange_direction = exchange_direction or self.rng.choice(
                self.rules.exchange.directions
            )
        else:
            self.exchange_direction = None
        self.initial_wall: tuple[Tile, ...] = tuple(wall)
        self.wall: list[Tile] = _break_wall(list(wall), self.dice)
        self.front = 0
        self.back = len(self.wall)
        # 001: a dead wall at the wall's end holds the replacements and indicators; the live wall stops before it.
        self.dead: DeadWall | None = None
        if self.rules.dead_wall is not None:
            size = self.rules.dead_wall.tiles
            self.dead = DeadWall(self.rules.dead_wall, tuple(self.wall[-size:]))
            self.back = len(self.wall) - size
        # 003 / M 22: the loose tiles are wall[back:loose_end], kept apart from the live wall.
        self.loose_end = len(self.wall)
        self.loose_from_live = False  # the last replacement came from the live wall
        loose = self.rules.loose
        if loose is not None and loose.dead_wall:
            self.back = len(self.wall) - (16 if loose.sixteen else 14)
        self.round_wind = round_wind
        self.honba = honba
        self.deposits = deposits
        self.deposits_at_start = deposits
        """Riichi deposits on the table (carried ones included), counted in sticks."""
        self.points: list[int] = (
            list(points) if points is not None else [profile.table.match.start_score] * SEATS
        )
        """Each seat's points when the hand began (riichi needs enough of them)."""

        self.hands: list[list[Tile]] = [[] for _ in range(SEATS)]
        self.counts: list[list[int]] = [
            [0] * N_ALL_KINDS for _ in range(SEATS)
        ]  # kept in step with hands by _give/_take
        # Each seat's wait mask (bit k: one more k completes its concealed tiles) with the melds count it
        # was made for; _give/_take drop it, so a claim check on a discard is a bit test.
        self._wait_masks: list[tuple[int, int] | None] = [None] * SEATS
        self.flowers: list[list[Tile]] = [[] for _ in range(SEATS)]  # exposed flowers
        self.melds: list[list[Meld]] = [[] for _ in range(SEATS)]
        self.discards: list[list[Tile]] = [[] for _ in range(SEATS)]
        self.missing: list[Suit | None] = [None] * SEATS
        self.exchange_choice: list[tuple[Tile, ...] | None] = [None] * SEATS
        self.active = [True] * SEATS
        self.scores = [0] * SEATS
        self.events: list[Event] = []
        self.decisions: list[Action] = []
        self.clock: Any = None
        """The hand's :class:`~mjspec.runtime.clock.HandClock` when the match is played on a clock (001, 004)."""
        self.timing: list[tuple[float, bool] | None] = []
        """Per decision: the seconds it took and whether it came too late (its timeout default was applied), when timed."""
        self.wins: list[WinRecord] = []
        self.win_events = 0
        self.exhausted = False

        # Turn state.
        self.phase = Phase.OVER
        self.turn = dealer
        self.last_draw: Tile | None = None
        self.drew_replacement = False
        self.drew_last_tile = False
        self.must_discard = False  # after a pon: no draw, so no win or kong
        # Claim state.
        self.claim_tile: Tile | None = None
        self.claim_from: int | None = None
        self.claim_options: dict[int, list[Action]] = {}
        self.responses: dict[int, Action] = {}
        self.claim_is_last_tile = False
        self.claim_after_kong = False
        # Passing rules.
        self.pass_fan: list[int | None] = [None] * SEATS
        self.discard_win_block = [False] * SEATS
        self.pon_block: list[set[int]] = [set() for _ in range(SEATS)]
        # Kong income (receiver, payer, amount) and the current chain of the player on turn.
        self.kong_income: list[tuple[int, int, int]] = []
        self.kong_chain: list[tuple[int, int, int]] = []
        self.pending_kakan: tuple[int, Tile] | None = (
            None  # a kong's tile that may be robbed (added, or concealed)
        )
        self.pending_ankan = (
            False  # the pending kong is a concealed one (``CallRules.rob_concealed_kong``)
        )
        self.kong_this_turn = (
            False  # the player on turn declared a kong since their last ordinary draw
        )
        # Riichi, furiten and abortive draws (001); inert unless the rules switch them on.
        self.riichi = [False] * SEATS
        self.double_riichi = [False] * SEATS
        self.ippatsu = [False] * SEATS
        self.riichi_waits: list[frozenset[int]] = [frozenset()] * SEATS
        self.riichi_pending: int | None = (
            None  # the declarer whose sideways discard awaits the claims
        )
        self.furiten_passed = [False] * SEATS  # passed a completing discard: until the next draw
        self.furiten_riichi = [
            False
        ] * SEATS  # passed a legal win after riichi: for the rest of the hand
        self.discarded_kinds: list[set[int]] = [
            set() for _ in range(SEATS)
        ]  # called discards included
        self.river: list[list[Tile]] = [
            [] for _ in range(SEATS)
        ]  # every discard, called ones included
        self.discard_called = [False] * SEATS
        self.turns_taken = [0] * SEATS  # discards made
        self.interrupted = False  # a call or kong has been made this hand (ends every "first turn")
        self.original_called = [
            False
        ] * SEATS  # 003 / M 55: declared Original Call; the hand may not change
        self.discards_made = (
            0  # discards so far this hand (Earth's Blessing: a win on East's first discard)
        )
        self.loose_kong_chain = (
            False  # the player on turn made a kong with a loose tile (Kong upon Kong)
        )
        self.kuikae: set[int] = set()  # kinds the caller may not discard now
        self.four_kongs_due = False
        self.aborted: str | None = None
        self.ready_at_end: list[int] = []
        self.liable: list[tuple[str, int] | None] = [None] * SEATS  # (pattern id, responsible seat)
        self.cannon_liable: list[int | None] = [
            None
        ] * SEATS  # M 90-96: who let off a cannon by a claimed discard
        self._completes: set[int] = set()  # seats the claimed tile would complete
        self._flowers = profile.tiles.flowers  # whether a seat can hold a flower at all
        self._red_fives = bool(profile.tiles.red_fives)  # whether two tiles of one kind can differ
        self._cache: dict[int, list[Action]] = {}
        self._cache_at = -1
        self._tsumo_at = (-1, -1)
        self._tsumo_cached: Score | None = None

        self._deal()

    # ------------------------------------------------------------------ setup

    def _deal(self) -> None:
        deal = self.profile.deal
        order = [(self.dealer + i) % SEATS for i in range(SEATS)]
        if self.rules.deal_in_blocks:
            # 002 §2: four tiles to each seat, three passes; one more each; the dealer's jump draw.
            for _ in range(3):
                for seat in order:
                    for _ in range(4):
                        self._give(seat, self._pop_front())
            for seat in order:
                for _ in range(deal.others - 12):
                    self._give(seat, self._pop_front())
            for _ in range(deal.dealer - deal.others):
                self._give(self.dealer, self._pop_front())
        else:
            for seat in order:
                n = deal.dealer if seat == self.dealer else deal.others
                for _ in range(n):
                    self._give(seat, self._pop_front())
        dealt: dict[str, Any] = {
            "dealer": self.dealer,
            "dice": list(self.dice),
            "wall": len(self.wall),
        }
        if self.dead is not None:
            dealt["indicators"] = format_tiles(self.dead.indicators())
        self._emit(Event("deal", None, dealt))
        if self.rules.bonus.declare_at_deal:
            self._declare_dealt_bonus_tiles()
        if self.rules.exchange is not None:
            self.phase = Phase.EXCHANGE
        elif self.profile.opening.missing_suit is MissingSuitRule.DECLARE:
            self.phase = Phase.DECLARE
        else:
            self._start_play()

    def _declare_dealt_bonus_tiles(self) -> None:
        """``BonusTiles.declare_at_deal`` (M 32-33, the xmj server's opening phase): the dealer first, then
        each player in turn exposes every bonus tile dealt and takes its replacement (again, when the
        replacement is a bonus tile). These replacements are part of the deal, not draws: the dealer keeps
        Heaven's Blessing and nobody's first turn is used."""
        for seat in ((self.dealer + i) % SEATS for i in range(SEATS)):
            while self.wall_remaining > 0 and any(self.counts[seat][N_KINDS:]):
                flower = min((t for t in self.hands[seat] if t.is_flower), key=_tile_key)
                self._take(seat, flower)
                self.flowers[seat].append(flower)
                self._emit(Event("flower", seat, {"tile": flower.mpsz, "deal": True}))
                self._give(seat, self._replacement_tile(kong=False))
        self.loose_from_live = False

    def _start_play(self) -> None:
        self.phase = Phase.TURN
        self.turn = self.dealer
        self.last_draw = self.hands[self.dealer][-1]
        self.must_discard = False

    # ----------------------------------------------------------------- wall

    @property
    def wall_remaining(self) -> int:
        """Tiles left to draw (front and replacement tiles come from the same live wall)."""
        return self.back - self.front

    def _give(self, seat: int, tile: Tile) -> None:
        self.hands[seat].append(tile)
        self.counts[seat][tile.kind] += 1
        self._wait_masks[seat] = None

    def _take(self, seat: int, tile: Tile) -> None:
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

    def _completed_by(self, seat: int, kind: int) -> bool:
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

    def _pop_front(self) -> Tile:
        tile = self.wall[self.front]
        self.front += 1
        return tile

    def _pop_back(self) -> Tile:
        self.back -= 1
        return self.wall[self.back]

    # --------------------------------------------------------------- queries

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def active_seats(self) -> list[int]:
        return [s for s in range(SEATS) if self.active[s]]

    def pending_seats(self) -> list[int]:
        """Seats whose decision the table is waiting for."""
        phase = self.phase
        if phase is Phase.TURN:  # the commonest first: asked several times a decision
            return [self.turn]
        if phase is Phase.CLAIM or phase is Phase.ROB:
            return [s for s in sorted(self.claim_options) if s not in self.responses]
        if phase is Phase.EXCHANGE:
            return [s for s in range(SEATS) if self.exchange_choice[s] is None]
        if phase is Phase.DECLARE:
            return [s for s in range(SEATS) if self.missing[s] is None]
        return []

    def legal_actions(self, seat: int) -> list[Action]:
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

    def _legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.pending_seats():
            return []
        if self.phase is Phase.EXCHANGE:
            return self._exchange_options(seat)
        if self.phase is Phase.DECLARE:
            return [Action(ActionKind.DECLARE, seat, suit=s) for s in self.profile.tiles.suits]
        if self.phase is Phase.TURN:
            return self._turn_options(seat)
        return list(self.claim_options[seat])

    def can(self, action: Action) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.verify(action)
        except IllegalAction:
            return False
        return True

    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalAction` naming the rule if ``action`` is not legal now."""
        if self._cache_at == len(
            self.events
        ):  # options listed in this very state: one of them is legal
            for offered in self._cache.get(action.seat, ()):
                if offered is action:
                    return
        if self.phase is Phase.OVER:
            raise IllegalAction("hand-over", "the hand is over")
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
            if self.riichi[seat]:
                return (
                    "riichi-fixed-hand",
                    f"after riichi seat {seat} may only discard the drawn tile",
                )
            if action.tile.kind in self.kuikae:
                return (
                    "kuikae",
                    f"after the call seat {seat} may not discard {action.tile} (kuikae)",
                )
            if action.kind is ActionKind.RIICHI:
                return ("riichi", self._why_no_riichi(seat))
            return (
                "missing-suit-first",
                f"seat {seat} must discard the declared missing suit ({self.missing[seat]}) first",
            )
        if action.kind is ActionKind.EXCHANGE:
            ex = self.rules.exchange
            n = ex.tiles if ex else 0
            return (
                "exchange",
                f"exchange exactly {n} tiles held{' of one suit' if ex and ex.same_suit else ''}",
            )
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
            riichi = self.rules.riichi
            if (
                action.kind is ActionKind.ANKAN
                and self.riichi[seat]
                and riichi is not None
                and riichi.kong_keeps_waits
            ):
                return (
                    "riichi-kong",
                    "after riichi a concealed kong must be made with the drawn tile and keep exactly the same waits",
                )
        if action.kind is ActionKind.NINE_TERMINALS and self.rules.abortive.nine_terminals:
            return (
                "nine-terminals",
                "nine terminals may be declared only on an uninterrupted first turn (no call or kong "
                "before it) with nine different terminal and honor kinds in hand",
            )
        return None

    # --------------------------------------------------------------- options

    def _exchange_options(self, seat: int) -> list[Action]:
        ex = self.rules.exchange
        assert ex is not None
        out: list[Action] = []
        seen: set[tuple[int, ...]] = (
            set()
        )  # the choices made so far, as tile keys (ints hash at C speed)
        groups: list[list[Tile]]
        held = sorted(self.hands[seat], key=_tile_key)  # tile order
        if ex.same_suit:
            groups = [[t for t in held if t.suit == s] for s in self.profile.tiles.suits]
        else:
            groups = [held]
        for tiles in groups:
            keys = [_tile_key(t) for t in tiles]
            # Both enumerate the same index choices in the same order.
            for combo_keys, combo in zip(
                combinations(keys, ex.tiles), combinations(tiles, ex.tiles)
            ):
                if combo_keys not in seen:
                    seen.add(combo_keys)
                    out.append(_action(ActionKind.EXCHANGE, seat, tiles=combo))
        return out

    def holds_missing(self, seat: int) -> bool:
        """Whether ``seat`` still holds a tile of the suit it declared missing (000 §3: it must go first)."""
        suit = self.missing[seat]
        if suit is None:
            return False
        lo = SUIT_FIRST_KIND[suit]
        return any(self.counts[seat][lo : lo + 9])

    def _turn_options(self, seat: int) -> list[Action]:
        if self.riichi[seat]:
            return self._riichi_turn_options(seat)
        hand = self.hands[seat]
        out: list[Action] = []
        blocked = self.rules.calls.missing_suit_blocks_calls and self.holds_missing(seat)
        if not self.must_discard:
            if not blocked and self._tsumo_score(seat) is not None:
                out.append(_TSUMO[seat])
            if self._kong_allowed() and not blocked:
                counts = self.counts[seat]
                calls = self.rules.calls
                if calls.ankan and 4 in counts:  # rare: spare the scan of every kind
                    for kind in sorted(k for k in range(N_KINDS) if counts[k] == 4):
                        out.append(_action(ActionKind.ANKAN, seat, Tile(kind)))
                if calls.kakan:
                    for meld in self.melds[seat]:
                        if meld.type is MeldType.PON and counts[meld.kind] >= 1:
                            if calls.kakan_drawn_tile_only and (
                                self.last_draw is None or self.last_draw.kind != meld.kind
                            ):
                                continue
                            out.append(_action(ActionKind.KAKAN, seat, Tile(meld.kind)))
        # One per distinct tile, in tile order.
        discards = (
            _discard_actions(seat, hand)
            if self._red_fives
            else _kind_discards(seat, self.counts[seat])
        )
        if self._flowers and any(
            self.counts[seat][N_KINDS:]
        ):  # a held flower may be exposed on one's turn, after a call too
            exposable = self.wall_remaining > 0  # its replacement needs a tile left
            if exposable:
                for flower in sorted({t for t in hand if t.is_flower}, key=_tile_key):
                    out.append(_action(ActionKind.FLOWER, seat, flower))
            if exposable and not self.rules.bonus.discard:
                discards = [a for a in discards if not a.tile.is_flower]  # type: ignore[union-attr]  # M 31: declared, never discarded
        missing = self.missing[seat]
        if (
            self.rules.discard_missing_suit_first
            and missing is not None
            and self.holds_missing(seat)
        ):
            lo = SUIT_FIRST_KIND[missing]
            discards = [a for a in discards if lo <= a.tile.kind < lo + 9]  # type: ignore[union-attr]
        if self.must_discard and self.kuikae:
            discards = [a for a in discards if a.tile.kind not in self.kuikae]  # type: ignore[union-attr]  # 001: kuikae
        out.extend(discards)
        if self.rules.original_call:
            out = self._original_call_options(seat, out, discards)
        out.extend(self._riichi_declarations(seat, discards))
        if self._may_declare_nine_terminals(seat):
            out.append(_SEAT_ACTIONS[ActionKind.NINE_TERMINALS][seat])
        return out

    def _original_call_options(
        self, seat: int, out: list[Action], discards: Sequence[Action]
    ) -> list[Action]:
        """003 / M 55: Original Call comes with one's first discard, nothing claimed before; after it
        the declarer may only go out, expose a bonus tile, or discard the tile just drawn."""
        if self.original_called[seat]:
            return [
                a
                for a in out
                if a.kind in (ActionKind.TSUMO, ActionKind.FLOWER)
                or (a.kind is ActionKind.DISCARD and a.tile == self.last_draw)
            ]
        if self.turns_taken[seat] == 0 and not self.melds[seat] and not self.must_discard:
            out.extend(_action(ActionKind.ORIGINAL_CALL, seat, a.tile) for a in discards if a.tile.kind < N_KINDS)  # type: ignore[union-attr]
        return out

    def _kong_allowed(self) -> bool:
        """A kong needs a tile left to draw, a replacement in the dead wall and room under the kong limit."""
        if self.back <= self.front:  # wall_remaining, without the property call (asked every turn)
            return False
        if self.dead is not None and self.dead.replacements_left <= 0:
            return False
        limit = self.rules.calls.max_kongs
        # Fewer melds than the limit are fewer kongs than the limit: most turns need no count.
        return limit is None or sum(map(len, self.melds)) < limit or self.kong_count() < limit

    def kong_count(self) -> int:
        """Kongs on the table, every seat's together."""
        n = 0
        for (
            melds
        ) in self.melds:  # loops, not a generator: asked before every kong and claim of a kong
            for m in melds:
                if m.type in _KONG_TYPES:
                    n += 1
        return n

    # ---------------------------------------------------------- riichi (001)

    def _closed(self, seat: int) -> bool:
        for m in self.melds[seat]:
            if m.type is not MeldType.ANKAN:
                return False
        return True

    def _shape_waits(
        self,
        seat: int,
        tiles: Sequence[Tile] | None = None,
        melds: Sequence[Meld] | None = None,
        *,
        held_waits: bool = False,
    ) -> frozenset[int]:
        """The kinds that would complete ``tiles`` (the seat's hand by default), by shape alone
        (a kind whose every copy the player holds only with ``held_waits``)."""
        counts = [0] * N_KINDS
        for t in self.hands[seat] if tiles is None else tiles:
            k = t.kind
            if k >= N_KINDS:  # a held flower
                return frozenset()
            counts[k] += 1
        held = tuple(self.melds[seat] if melds is None else melds)
        if sum(counts) != 13 - 3 * len(held):
            return frozenset()
        copies = self.profile.tiles.copies + (1 if held_waits else 0)
        return waits(counts, held, self.profile.shapes, self.profile.tiles.kinds(), copies=copies)

    def _riichi_declarations(self, seat: int, discards: Sequence[Action]) -> list[Action]:
        """RIICHI with each discard that leaves a closed hand ready, when the declarer has the points and the wall has the tiles."""
        rules = self.rules.riichi
        if rules is None or self.must_discard or not self._closed(seat):
            return []
        if (
            self.points[seat] + self.scores[seat] < rules.min_points
            or self.wall_remaining < rules.min_wall
        ):
            return []
        counts = list(self.counts[seat][:N_KINDS])
        if shanten(counts, len(self.melds[seat]), self.profile.shapes) > 0:
            return []  # no discard can leave a ready hand (a cheap test before trying each discard)
        after = discard_shanten(counts, len(self.melds[seat]), self.profile.shapes)
        out = []
        for discard in discards:
            t = discard.tile
            assert t is not None
            if after.get(t.kind, 99) == 0:
                rest = list(self.hands[seat])
                rest.remove(t)
                if self._shape_waits(seat, rest):
                    out.append(_action(ActionKind.RIICHI, seat, t))
        return out

    def _why_no_riichi(self, seat: int) -> str:
        rules = self.rules.riichi
        if rules is None:
            return "this profile has no riichi"
        if self.riichi[seat]:
            return "riichi is already declared"
        if self.must_discard or not self._closed(seat):
            return "riichi needs a closed hand"
        if self.points[seat] + self.scores[seat] < rules.min_points:
            return f"riichi needs at least {rules.min_points} points"
        if self.wall_remaining < rules.min_wall:
            return f"riichi needs at least {rules.min_wall} tiles left in the live wall"
        return "that discard does not leave the hand ready"

    def _riichi_turn_options(self, seat: int) -> list[Action]:
        """After riichi: win, an allowed concealed kong, or the drawn tile goes (001)."""
        out: list[Action] = []
        drawn = self.last_draw
        if self._tsumo_score(seat) is not None:
            out.append(_TSUMO[seat])
        rules = self.rules.riichi
        if (
            drawn is not None
            and self.rules.calls.ankan
            and self._kong_allowed()
            and self.counts[seat][drawn.kind] == 4
        ):
            rest = [t for t in self.hands[seat] if t.kind != drawn.kind]
            kong = Meld(MeldType.ANKAN, tuple(t for t in self.hands[seat] if t.kind == drawn.kind))
            keeps = (
                self._shape_waits(seat, rest, [*self.melds[seat], kong]) == self.riichi_waits[seat]
            )
            if keeps or (rules is not None and not rules.kong_keeps_waits):
                out.append(_action(ActionKind.ANKAN, seat, Tile(drawn.kind)))
        if drawn is not None:
            out.append(_discard_action(seat, drawn))
        return out

    def _automatic_discard(self) -> Tile | None:
        """The drawn tile a riichi player discards without a decision: when it is their only option (001)."""
        if self.phase is not Phase.TURN or not self.riichi[self.turn]:
            return None
        rules = self.rules.riichi
        if rules is None or not rules.automatic_discard:
            return None
        legal = self.legal_actions(self.turn)
        if len(legal) == 1 and legal[0].kind is ActionKind.DISCARD:
            return legal[0].tile
        return None

    def _may_declare_nine_terminals(self, seat: int) -> bool:
        if (
            not self.rules.abortive.nine_terminals
            or self.must_discard
            or self.interrupted
            or self.turns_taken[seat]
        ):
            return False
        counts = self.counts[seat]
        return sum(1 for k in _TERMINAL_OR_HONOR_KINDS if counts[k]) >= 9

    # ------------------------------------------------------------------ wins

    def win_context(
        self,
        seat: int,
        *,
        after_kong: bool = False,
        last_tile: bool = False,
        kong_shot: bool = False,
        robbing_kong: bool = False,
        first_draw: bool = False,
        honba: int | None = None,
        fourth_tile: bool = False,
    ) -> WinContext:
        dead = self.dead
        riichi = self.riichi[seat]
        ura = ""
        if dead is not None and riichi and dead.rules.under_indicators:
            ura = format_tiles(dead.under_indicators())
        return WinContext(
            seat_wind=WINDS[(seat - self.dealer) % SEATS],
            round_wind=self.round_wind,
            flowers=format_tiles(self.flowers[seat]),
            missing_suit=self.missing[seat],
            dealer=seat == self.dealer,
            riichi=riichi,
            double_riichi=self.double_riichi[seat],
            ippatsu=self.ippatsu[seat],
            after_kong=after_kong,
            last_tile=last_tile,
            kong_shot=kong_shot,
            robbing_kong=robbing_kong,
            first_draw=first_draw,
            fourth_tile=fourth_tile,
            dora_indicators=format_tiles(dead.indicators()) if dead is not None else "",
            ura_indicators=ura,
            honba=self.honba if honba is None else honba,
            original_call=self.original_called[seat],
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
        return [next_kind(t.kind) for t in self.dead.indicators()] if self.dead is not None else []

    def furiten(self, seat: int) -> bool:
        """Whether ``seat`` may not win on a discard now (001 "Furiten"); self-draw stays allowed."""
        rules = self.rules.furiten
        if (rules.passed_completion and self.furiten_passed[seat]) or (
            rules.riichi_passed and self.furiten_riichi[seat]
        ):
            return True
        if rules.own_discards and self.discarded_kinds[seat]:
            return not self.discarded_kinds[seat].isdisjoint(self._shape_waits(seat))
        return False

    def _tsumo_score(self, seat: int) -> Score | None:
        if self._tsumo_at != (seat, len(self.events)):
            self._tsumo_at = (seat, len(self.events))
            self._tsumo_cached = self._compute_tsumo_score(seat)
        return self._tsumo_cached

    def _compute_tsumo_score(self, seat: int) -> Score | None:
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
        if self.loose_kong_chain and self.drew_replacement:
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
        self, seat: int, tile: Tile, *, robbing: bool, honba: int | None = None
    ) -> Score | None:
        if self.rules.passing.win is PassWinRule.DISCARD_WINS and self.discard_win_block[seat]:
            return None
        if (
            tile.is_flower
            or any(self.counts[seat][N_KINDS:])
            or not self._completed_by(seat, tile.kind)
        ):
            return None  # the bit test first: most discards complete nobody's hand
        if self.rules.calls.missing_suit_blocks_calls and (
            self.holds_missing(seat) or tile.suit == self.missing[seat]
        ):
            return None
        if self.furiten(seat):  # after the shape: furiten needs every wait, a costlier test
            return None
        ctx = self.win_context(
            seat,
            robbing_kong=robbing,
            kong_shot=not robbing and self.claim_after_kong,
            last_tile=not robbing and self.claim_is_last_tile,
            honba=honba,
            # Earth's Blessing: on East's first discard, nobody else having discarded or called.
            first_draw=not robbing
            and not self.interrupted
            and self.discards_made == 1
            and self.claim_from == self.dealer,
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

    def _fan_allowed(self, seat: int, score: Score) -> bool:
        limit = self.pass_fan[seat]
        return limit is None or score.total > limit

    def _record_pass(self, seat: int, score: Score, *, discard_win: bool) -> None:
        rule = self.rules.passing.win
        if rule is PassWinRule.SAME_OR_LOWER_FAN:
            prev = self.pass_fan[seat]
            self.pass_fan[seat] = score.total if prev is None else max(prev, score.total)
        elif rule is PassWinRule.DISCARD_WINS and discard_win:
            self.discard_win_block[seat] = True

    # ----------------------------------------------------------------- apply

    def apply_timed(self, action: Action, seconds: float) -> list[Event]:
        """Perform the decision ``action`` that took ``seconds`` under the hand's clock (001 and 004's
        presets: thinking time, the reserve of the hand, no reserve for answers to a call, at least
        ``TimeoutRules.opening_seconds`` for an opening choice): a late decision becomes the seat's
        :meth:`timeout_action`. The seconds are kept with the decision, so a replay checks the clock.
        """
        from .clock import charge

        if self.clock is None:
            raise ValueError("this hand is not played on a clock")
        if seconds < 0:
            raise ValueError(f"a decision cannot take {seconds} seconds")
        self.verify(action)  # the player's own decision must be legal, late or not
        late = charge(self, self.clock, action.seat, seconds)
        applied = self.timeout_action(action.seat) if late else action
        assert applied is not None
        index = len(self.decisions)
        events = self.apply(applied)
        self.timing[index] = (seconds, late)  # automatic steps are events, never decisions
        return events

    def apply(self, action: Action) -> list[Event]:
        """Perform ``action`` and every automatic step after it; return the new events."""
        self.verify(action)
        start = len(self.events)
        self.decisions.append(action)
        self.timing.append(None)
        getattr(self, _HANDLERS.get(action.kind, "_do_response"))(action)
        # Automation: a riichi player's drawn tile goes when discarding it is their only option (001).
        while (tile := self._automatic_discard()) is not None:
            self._do_discard(_discard_action(self.turn, tile), automatic=True)
        return self.events[start:]

    def _emit(self, event: Event) -> None:
        if any(event.deltas):  # most events move no points
            for seat, d in enumerate(event.deltas):
                self.scores[seat] += d
        self.events.append(event)

    def _pay(
        self, kind: str, receiver: int, payer: int, amount: int, data: dict[str, Any] | None = None
    ) -> None:
        if amount == 0 or receiver == payer:
            return
        deltas = [0] * SEATS
        deltas[receiver] += amount
        deltas[payer] -= amount
        self._emit(
            Event(kind, receiver, {"from": payer, "amount": amount, **(data or {})}, tuple(deltas))
        )

    def _do_exchange(self, action: Action) -> None:
        self.exchange_choice[action.seat] = action.tiles
        self._emit(Event("exchange_chosen", action.seat))
        if any(c is None for c in self.exchange_choice):
            return
        direction = self.exchange_direction
        assert direction is not None
        shift = {
            ExchangeDirection.RIGHT: 1,
            ExchangeDirection.ACROSS: 2,
            ExchangeDirection.LEFT: 3,
        }[direction]
        for seat in range(SEATS):
            for t in self.exchange_choice[seat] or ():
                self._take(seat, t)
        for seat in range(SEATS):
            for t in self.exchange_choice[seat] or ():
                self._give((seat + shift) % SEATS, t)
        self._emit(Event("exchange", None, {"direction": direction.value}))
        if self.profile.opening.missing_suit is MissingSuitRule.DECLARE:
            self.phase = Phase.DECLARE
        else:
            self._start_play()

    def _do_declare(self, action: Action) -> None:
        self.missing[action.seat] = action.suit
        if any(m is None for m in self.missing):
            self._emit(Event("declare_chosen", action.seat))
            return
        self._emit(
            Event("declare", None, {"missing": [m.value if m else None for m in self.missing]})
        )
        self._start_play()

    def _note_passed_tsumo(self, seat: int) -> None:
        if self.must_discard:
            return
        score = self._tsumo_score(seat)
        if score is not None:
            self._record_pass(seat, score, discard_win=False)

    def _do_discard(self, action: Action, *, automatic: bool = False, riichi: bool = False) -> None:
        seat, tile = action.seat, action.tile
        assert tile is not None
        self._note_passed_tsumo(seat)
        self._take(seat, tile)
        self.discards[seat].append(tile)
        self.river[seat].append(tile)
        self.discarded_kinds[seat].add(tile.kind)
        after_kong = self.kong_this_turn
        last = self.drew_last_tile
        data: dict[str, Any] = {"tile": tile.mpsz}
        if automatic:
            data["automatic"] = True
        if riichi:
            data["riichi"] = True
        elif self.ippatsu[seat]:
            self.ippatsu[seat] = False  # the declarer's go-around is over
        self.events.append(Event("discard", seat, data))  # a discard moves no points
        self.turns_taken[seat] += 1
        self.discards_made += 1
        if self.rules.furiten.passed_ends_at_discard:
            self.furiten_passed[seat] = (
                False  # Tenhou: a passed win's furiten ends with one's own discard
            )
        self.must_discard = False
        self.kuikae = set()
        self.last_draw = None
        if self.dead is not None:
            self._reveal_pending()  # an open kong's indicator comes with its replacement discard (001)
        self._open_claims(seat, tile, after_kong=after_kong, last_tile=last)

    def _do_original_call(self, action: Action) -> None:
        """003 / M 55: the declaration is made with the first discard (not checked for a calling hand)."""
        self.original_called[action.seat] = True
        self._emit(
            Event("original_call", action.seat, {"tile": action.tile.mpsz if action.tile else None})
        )
        self._do_discard(Action(ActionKind.DISCARD, action.seat, tile=action.tile))

    def _do_riichi(self, action: Action) -> None:
        """Declare riichi and discard sideways; the deposit is paid once no one wins on that discard (001)."""
        seat, tile = action.seat, action.tile
        assert tile is not None and self.rules.riichi is not None
        first = self.turns_taken[seat] == 0 and not self.interrupted
        rest = list(self.hands[seat])
        rest.remove(tile)
        self.riichi[seat] = True
        self.double_riichi[seat] = first and self.rules.riichi.double_riichi
        self.ippatsu[seat] = self.rules.riichi.ippatsu
        self.riichi_waits[seat] = self._shape_waits(seat, rest)
        self.riichi_pending = seat
        self._emit(Event("riichi", seat, {"double": self.double_riichi[seat]}))
        self._do_discard(Action(ActionKind.DISCARD, seat, tile=tile), riichi=True)

    def _do_nine_terminals(self, action: Action) -> None:
        self._abort("nine_terminals", action.seat)

    def _abort(self, reason: str, seat: int | None = None) -> None:
        """An abortive draw: the hand ends with no winner and no payment (001)."""
        self.aborted = reason
        self._emit(Event("abortive_draw", seat, {"reason": reason}))
        self._finish()

    def _reveal_pending(self) -> None:
        dead = self.dead
        assert dead is not None
        while dead.pending:
            dead.pending -= 1
            self._reveal()

    def _reveal(self) -> None:
        assert self.dead is not None
        tile = self.dead.reveal()
        if tile is not None:
            self._emit(Event("indicator", None, {"tile": tile.mpsz}))

    def _kong_indicator(self, concealed: bool) -> None:
        """A kong turns over one more indicator: at once, or after its replacement discard (001)."""
        dead = self.dead
        if dead is None or not dead.rules.kong_indicators:
            return
        self._reveal_pending()  # another kong intervened: the earlier one's indicator is turned first
        timing = (
            dead.rules.concealed_kong_indicator if concealed else dead.rules.open_kong_indicator
        )
        if timing is IndicatorTiming.AT_ONCE:
            self._reveal()
        else:
            dead.pending += 1

    def _interrupt(self) -> None:
        """A call or kong: no more first turns, and every riichi's one-shot go-around is broken (001)."""
        self.interrupted = True
        self.ippatsu = [False] * SEATS

    def _collect_deposits(self, seat: int) -> None:
        """The winner takes every riichi deposit on the table (001)."""
        rules = self.rules.riichi
        if not self.deposits or rules is None:
            return
        amount = self.deposits * rules.deposit
        deltas = [0] * SEATS
        deltas[seat] = amount
        self._emit(
            Event(
                "deposits",
                seat,
                {"sticks": self.deposits, "amount": amount, "table": -amount},
                tuple(deltas),
            )
        )
        self.deposits = 0

    def _open_claims(
        self, discarder: int, tile: Tile, *, after_kong: bool, last_tile: bool
    ) -> None:
        self.claim_tile = tile
        self.claim_from = discarder
        self.claim_after_kong = after_kong
        self.claim_is_last_tile = last_tile
        self.responses = {}
        self._completes = set()
        options: dict[int, list[Action]] = {}
        calls = self.rules.calls
        kind = tile.kind
        # A discarded flower cannot be claimed (002 §1); the last discard only where the rules allow.
        callable_tile = not tile.is_flower
        calls_open = calls.last_discard_callable or self.wall_remaining != 0
        chi_seat = (discarder + 1) % SEATS if calls.chi and kind < 27 else -1
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
                    acts.append(_RON[seat])
            n = counts[kind]
            if (
                calls_open and (n >= 2 or seat == chi_seat) and not self.riichi[seat]
            ):  # after riichi only a win (001)
                blocked = calls.missing_suit_blocks_calls and (
                    self.holds_missing(seat) or tile.suit == self.missing[seat]
                )
                if not blocked:
                    if calls.pon and n >= 2 and kind not in self.pon_block[seat]:
                        acts.extend(self._pon_options(seat, tile))
                    if calls.minkan and n >= 3 and self._kong_allowed():
                        acts.append(_MINKAN[seat])
                    if seat == chi_seat:
                        acts.extend(self._chi_options(seat, tile))
            if acts:
                if self.original_called[seat]:
                    acts = [
                        a for a in acts if a.kind is ActionKind.RON
                    ]  # M 55: only a claim to go out
                acts.append(_PASS[seat])
                options[seat] = acts
        self.claim_options = options
        if options:
            self.phase = Phase.CLAIM
        else:
            self._passes_on_claims(
                robbing=False
            )  # a completing tile nobody could take still makes furiten
            self._end_chain()
            if self._after_discard_passed(discarder):
                return
            self._next_draw((discarder + 1) % SEATS)

    def _note_completion(self, seat: int, tile: Tile) -> None:
        """Letting a completing discard pass makes the seat furiten until its next draw, yaku or not (001)."""
        if not self.rules.furiten.passed_completion or self.furiten_passed[seat] or tile.is_flower:
            return
        if any(self.counts[seat][N_KINDS:]):
            return
        if self._completed_by(seat, tile.kind):
            self._completes.add(seat)

    def _end_chain(self) -> None:
        self.kong_chain = []
        self.kong_this_turn = False

    def _do_response(self, action: Action) -> None:
        self.responses[action.seat] = action
        self._emit(Event("respond", action.seat))
        if self.pending_seats():
            return
        if self.phase is Phase.ROB:
            self._resolve_rob()
        else:
            self._resolve_claims()

    def _passes_on_claims(self, *, robbing: bool) -> None:
        tile = self.claim_tile
        assert tile is not None
        for seat, resp in self.responses.items():
            opts = {a.kind for a in self.claim_options[seat]}
            if ActionKind.RON in opts and resp.kind is not ActionKind.RON:
                if resp.kind is ActionKind.PASS or self.rules.passing.call_counts_as_pass:
                    score = self._ron_score(seat, tile, robbing=robbing)
                    if score is not None:
                        self._record_pass(seat, score, discard_win=True)
                    if score is not None and self.riichi[seat] and self.rules.furiten.riichi_passed:
                        self.furiten_riichi[seat] = True  # 001: for the rest of the hand
            if (
                ActionKind.PON in opts
                and resp.kind is ActionKind.PASS
                and self.rules.passing.pon_blocks_same_tile
            ):
                self.pon_block[seat].add(tile.kind)
        for seat in self._completes:
            if self.responses.get(seat) is None or self.responses[seat].kind is not ActionKind.RON:
                self.furiten_passed[seat] = True  # 001: until the seat's next draw

    def _ron_winners(self) -> list[int]:
        assert self.claim_from is not None
        order = [(self.claim_from + i) % SEATS for i in range(1, SEATS)]
        winners = [
            s for s in order if s in self.responses and self.responses[s].kind is ActionKind.RON
        ]
        if winners and not self.rules.calls.multiple_ron:
            winners = winners[:1]
        return winners

    def _limited_ron_winners(self, *, robbing: bool) -> list[int] | None:
        """The seats that win on the claimed tile, nearest first, under ``CallRules.ron_limit``; None when
        more claims than the limit abort the hand (001: up to two rons on one discard, three abort).

        A robbed kong's tile is claimed like a discard, so the same limit and abort apply to it
        (riichi_planet's reading of "três reivindicações simultâneas de ron")."""
        winners = self._ron_winners()
        limit = self.rules.calls.ron_limit
        if limit is not None and len(winners) > limit:
            if self.rules.abortive.triple_ron:
                self._passes_on_claims(robbing=robbing)
                self._abort("triple_ron")  # 001: three claims on one discard abort the hand
                return None
            winners = winners[:limit]
        return winners

    def _ron_scores(
        self, winners: list[int], tile: Tile, *, robbing: bool
    ) -> dict[int, Score | None]:
        """Each winner's score; with several winners only the nearest in turn order takes the honba (001)."""
        return {
            s: self._ron_score(s, tile, robbing=robbing, honba=None if i == 0 else 0)
            for i, s in enumerate(winners)
        }

    def _resolve_claims(self) -> None:
        tile, discarder = self.claim_tile, self.claim_from
        assert tile is not None and discarder is not None
        winners = self._limited_ron_winners(robbing=False)
        if winners is None:
            return
        scores = self._ron_scores(winners, tile, robbing=False)
        self._passes_on_claims(robbing=False)
        if winners:
            self.discards[discarder].pop()
            self.discard_called[discarder] = True
            self.riichi_pending = (
                None  # a declaration discard won on: the riichi stands void, no deposit
            )
            self._settle_rons(winners, scores, discarder, tile, robbing=False)
            return
        self._end_chain()
        if self._after_discard_passed(discarder):
            return
        for seat, resp in sorted(self.responses.items()):
            if resp.kind in (ActionKind.PON, ActionKind.MINKAN):
                self.discards[discarder].pop()
                self.discard_called[discarder] = True
                self._call(seat, resp.kind, tile, discarder, resp.tiles)
                return
        for seat, resp in sorted(self.responses.items()):
            if resp.kind is ActionKind.CHI:  # chi ranks below pon and kongs
                self.discards[discarder].pop()
                self.discard_called[discarder] = True
                self._chi(seat, resp, tile, discarder)
                return
        self._next_draw((discarder + 1) % SEATS)

    def _after_discard_passed(self, discarder: int) -> bool:
        """No one won on the discard: a riichi declaration stands, and abortive draws are checked (001). True if the hand ended."""
        if self.riichi_pending is not None:
            seat = self.riichi_pending
            self.riichi_pending = None
            rules = self.rules.riichi
            assert rules is not None
            deltas = [0] * SEATS
            deltas[seat] = -rules.deposit
            self.deposits += 1
            self._emit(
                Event(
                    "deposit",
                    seat,
                    {"amount": rules.deposit, "table": rules.deposit},
                    tuple(deltas),
                )
            )
            if self.rules.abortive.four_riichi and all(self.riichi):
                self._abort("four_riichi")
                return True
        abortive = self.rules.abortive
        if abortive.four_winds and not self.interrupted and all(n == 1 for n in self.turns_taken):
            first = {self.river[s][0].kind for s in range(SEATS)}
            if len(first) == 1 and Tile(first.pop()).is_wind:
                self._abort("four_winds")
                return True
        if self.four_kongs_due:
            self._abort("four_kongs")
            return True
        return False

    def _call(
        self, seat: int, kind: ActionKind, tile: Tile, discarder: int, tiles: Sequence[Tile] = ()
    ) -> None:
        n = 2 if kind is ActionKind.PON else 3
        taken = list(tiles) if tiles else [t for t in self.hands[seat] if t.kind == tile.kind][:n]
        for t in taken:
            self._take(seat, t)
        self._interrupt()
        self._note_liability(seat, tile, discarder)
        self._note_cannon(seat, tile, discarder)
        if kind is ActionKind.PON and self.rules.calls.kuikae:
            self.kuikae = {tile.kind}
        source = {1: "left", 2: "across", 3: "right"}[(seat - discarder) % SEATS]
        mtype = MeldType.PON if kind is ActionKind.PON else MeldType.MINKAN
        self.melds[seat].append(Meld(mtype, (*taken, tile), tile, source))
        self._emit(Event(mtype.value, seat, {"tile": tile.mpsz, "from": discarder}))
        self.turn = seat
        self.phase = Phase.TURN
        self.last_draw = None
        self.drew_replacement = False
        self.drew_last_tile = False
        if kind is ActionKind.PON:
            self.must_discard = True
            return
        self._kong_payment(seat, MeldType.MINKAN, discarder)
        self._kong_indicator(concealed=False)
        self._check_four_kongs()
        self._replacement_draw(seat)

    def _check_four_kongs(self) -> None:
        """Four kongs by more than one player: the hand ends once the next discard is not won on (001)."""
        if not self.rules.abortive.four_kongs:
            return
        owners = {
            s
            for s in range(SEATS)
            for m in self.melds[s]
            if m.type in (MeldType.ANKAN, MeldType.MINKAN, MeldType.KAKAN)
        }
        self.four_kongs_due = self.kong_count() >= 4 and len(owners) > 1

    def _note_liability(self, seat: int, tile: Tile, discarder: int) -> None:
        """Pao: the call that completes the third dragon set or the fourth wind set makes its discarder liable (001)."""
        pao = self.rules.pao
        if pao is None or not tile.is_honor:
            return
        kinds = {m.kind for m in self.melds[seat] if m.type is not MeldType.CHI} | {tile.kind}
        if tile.is_dragon and pao.dragons is not None and all(k in kinds for k in range(31, 34)):
            self.liable[seat] = (pao.dragons, discarder)
        if tile.is_wind and pao.winds is not None and all(k in kinds for k in range(27, 31)):
            self.liable[seat] = (pao.winds, discarder)

    def _pon_options(self, seat: int, tile: Tile) -> list[Action]:
        """PON; with red fives, one option per distinct pair of tiles the caller could give up (the other stays in hand)."""
        plain, n_plain, red, n_red = _held_copies(self.hands[seat], tile.kind)
        pairs: list[tuple[Tile, Tile]] = []  # the distinct pairs, in tile order (plain before red)
        if n_plain >= 2:
            pairs.append((plain, plain))  # type: ignore[arg-type]
        if n_plain and n_red:
            pairs.append((plain, red))  # type: ignore[arg-type]
        if n_red >= 2:
            pairs.append((red, red))  # type: ignore[arg-type]
        if self.rules.calls.kuikae and not self._discard_left_after(seat, pairs[0], {tile.kind}):
            return []
        if len(pairs) == 1:
            return [_PON[seat]]
        return [_action(ActionKind.PON, seat, tiles=p) for p in pairs]

    def _kuikae_kinds(self, tile: Tile, tiles: Sequence[Tile]) -> set[int]:
        """001 kuikae: the called kind, and for a sequence completed at one end the kind beyond the other end."""
        out = {tile.kind}
        kinds = [t.kind for t in tiles]
        if kinds and tile.kind not in kinds:
            low = min(kinds)
            high = max(kinds)
            if tile.kind < low and tile.number + 3 <= 9:
                out.add(tile.kind + 3)
            elif tile.kind > high and tile.number - 3 >= 1:
                out.add(tile.kind - 3)
        return out

    def _discard_left_after(self, seat: int, taken: Sequence[Tile], forbidden: set[int]) -> bool:
        """Whether a tile outside ``forbidden`` stays in hand once ``taken`` (tiles of the hand) leave it."""
        kept = 0
        for t in self.hands[seat]:
            if t.kind not in forbidden:
                kept += 1
        for t in taken:
            if t.kind not in forbidden:
                kept -= 1
        return kept > 0

    def _chi_options(self, seat: int, tile: Tile) -> list[Action]:
        out: list[Action] = []
        k, n = tile.kind, tile.number
        counts = self.counts[seat]
        for start in (n - 2, n - 1, n):
            if start < 1 or start + 2 > 9:
                continue
            low, high = (
                (k - 2, k - 1)
                if start == n - 2
                else (k - 1, k + 1) if start == n - 1 else (k + 1, k + 2)
            )
            if counts[low] and counts[high]:
                # One option per distinct choice of tiles (a red five or a plain one).
                choices = [
                    _distinct_copies(self.hands[seat], low),
                    _distinct_copies(self.hands[seat], high),
                ]
                for a in choices[0]:
                    for b in choices[1]:
                        pair = (a, b)
                        if self.rules.calls.kuikae and not self._discard_left_after(
                            seat, pair, self._kuikae_kinds(tile, pair)
                        ):
                            continue
                        out.append(_action(ActionKind.CHI, seat, tiles=pair))
        return out

    def _chi(self, seat: int, action: Action, tile: Tile, discarder: int) -> None:
        for t in action.tiles:
            self._take(seat, t)
        self._interrupt()
        self._note_cannon(seat, tile, discarder)
        if self.rules.calls.kuikae:
            self.kuikae = self._kuikae_kinds(tile, action.tiles)
        tiles = tuple(sorted((*action.tiles, tile), key=_tile_key))
        self.melds[seat].append(Meld(MeldType.CHI, tiles, tile, "left"))
        self._emit(
            Event("chi", seat, {"tile": tile.mpsz, "tiles": format_tiles(tiles), "from": discarder})
        )
        self.turn = seat
        self.phase = Phase.TURN
        self.last_draw = None
        self.drew_replacement = False
        self.drew_last_tile = False
        self.must_discard = True

    def _do_flower(self, action: Action) -> None:
        seat, tile = action.seat, action.tile
        assert tile is not None
        self._take(seat, tile)
        self.flowers[seat].append(tile)
        self._emit(Event("flower", seat, {"tile": tile.mpsz}))
        self._replacement_draw(seat, kong=False)

    def _settle_rons(
        self,
        winners: list[int],
        scores: dict[int, Score | None],
        discarder: int,
        tile: Tile,
        *,
        robbing: bool,
    ) -> None:
        order = self.win_events
        self.win_events += 1
        for seat in winners:
            score = scores[seat]
            assert score is not None
            self.wins.append(WinRecord(seat, discarder, tile, score, order))
            self._emit(
                Event(
                    "win",
                    seat,
                    {
                        "tile": tile.mpsz,
                        "from": discarder,
                        "ron": True,
                        "robbing": robbing,
                        "patterns": [p.id for p in score.patterns],
                        "total": score.total,
                    },
                )
            )
            if self.rules.settlement is not None:
                self._scored_settlement(seat, score, discarder, tile=None if robbing else tile)
                continue
            liable = self.liable[seat]
            if (
                liable is not None
                and liable[1] != discarder
                and self.rules.pao is not None
                and self.rules.pao.split_on_ron
            ):
                self._pay_liable_ron(
                    seat,
                    discarder,
                    liable,
                    score,
                    first=seat == winners[0],
                    tile=tile,
                    robbing=robbing,
                )
                continue
            for role, amount in score.payments.items():
                if role == "discarder":
                    self._pay("win_payment", seat, discarder, amount)
                elif role in ("others", "each"):
                    for other in self.active_seats():
                        if other not in (seat, discarder):
                            self._pay("win_payment", seat, other, amount)
        if self.rules.kongs.transfer_on_kong_shot and self.kong_chain and not robbing:
            total = sum(amount for _, _, amount in self.kong_chain)
            share = -(-total // len(winners))
            for seat in winners:
                self._pay("kong_transfer", seat, discarder, share)
            for (
                entry
            ) in (
                self.kong_chain
            ):  # one ledger entry per transferred payment: an earlier kong's equal entries stay
                self.kong_income.remove(entry)
        self._collect_deposits(
            winners[0]
        )  # the nearest winner in turn order takes the deposits (001)
        self._end_chain()
        for seat in winners:
            self.active[seat] = False
        self._after_win(next_from=winners[-1])

    def _after_win(self, next_from: int) -> None:
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
        self._emit(
            Event(
                "win",
                seat,
                {
                    "tile": tile.mpsz,
                    "ron": False,
                    "patterns": [p.id for p in score.patterns],
                    "total": score.total,
                },
            )
        )
        if self.rules.settlement is not None:
            self._scored_settlement(seat, score, None, tile=None)
        else:
            owed = self._tsumo_payers(seat, score.payments)
            liable = self.liable[seat]
            if liable is not None:
                owed = self._liable_tsumo(seat, liable, score, owed)
            for other, amount in owed.items():
                self._pay("win_payment", seat, other, amount)
        self._collect_deposits(seat)
        self.active[seat] = False
        self._end_chain()
        self._after_win(next_from=seat)

    # ------------------------------------------------------- scored settlement

    def _scored_settlement(
        self, winner: int, score: Score, discarder: int | None, *, tile: Tile | None
    ) -> None:
        """003 "Procedure in Settlement" / M 107-111: every loser pays the winner the hand's value by
        the payment roles (East's double is in the formulas); the discarder pays double under
        ``discarder_doubles``; a player who let off a cannon (M 90-96) pays for everybody, and then
        the losers do not settle; otherwise the losers pay one another the differences of their
        hands' values, doubled to or from East under ``east_doubles``."""
        rules = self.rules.settlement
        assert rules is not None
        losers = [s for s in range(SEATS) if s != winner]
        cannon = (
            discarder
            if rules.cannon
            and discarder is not None
            and tile is not None
            and self.let_off_cannon(winner, discarder, tile)
            else None
        )
        if cannon is None and rules.cannon:
            cannon = self.cannon_liable[
                winner
            ]  # a dangerous discard claimed earlier for a set (M 90-96)
        if cannon is not None:
            self._emit(
                Event("cannon", cannon, {"winner": winner, "tile": tile.mpsz if tile else None})
            )
        for other in losers:
            pays = score.payments
            amount = (
                pays["each"]
                if "each" in pays
                else pays["east"] if other == self.dealer else pays["non_east"]
            )
            if rules.discarder_doubles and other == discarder:
                amount *= 2
            payer = other if cannon is None else cannon
            self._pay(
                "win_payment", winner, payer, amount, {} if payer == other else {"for": other}
            )
        if not rules.losers_settle or cannon is not None:
            return
        values = {s: self.losing_value(s) for s in losers}
        for i, a in enumerate(losers):
            for b in losers[i + 1 :]:
                diff = values[a] - values[b]
                if rules.east_doubles and self.dealer in (a, b):
                    diff *= 2
                if diff > 0:
                    self._pay("losers_payment", a, b, diff)
                elif diff < 0:
                    self._pay("losers_payment", b, a, -diff)

    def losing_value(self, seat: int) -> int:
        """The value of a loser's hand at settlement (its best reading; announced as a ``hand_score`` event)."""
        score = score_losing_hand(
            self.profile, tuple(self.hands[seat]), tuple(self.melds[seat]), self.win_context(seat)
        )
        value = score.value or 0
        self._emit(
            Event(
                "hand_score",
                seat,
                {"score": value, "patterns": [p.id for p in score.patterns], "points": score.fu},
            )
        )
        return value

    def let_off_cannon(self, winner: int, discarder: int, tile: Tile) -> bool:
        """M 90-96 as the spec reads them (as xmj judges them): the winner had exposed three sets all
        of one suit, or all of honours, and the discard was of that suit (an honour, against honours;
        an honour is not the danger a suit is); and the discarder had a choice (some tile they held
        was not as dangerous; the table decides, nobody pleads)."""
        exposed = self.melds[winner]
        if len(exposed) < 3:
            return False
        suits = {m.tiles[0].suit for m in exposed}
        if len(suits) != 1:
            return False
        (suit,) = suits
        if tile.suit is not suit:
            return False
        return any(t.suit is not suit for t in self.hands[discarder] if not t.is_flower)

    def _note_cannon(self, seat: int, tile: Tile, discarder: int) -> None:
        """M 90-96 (as xmj records it): claiming a dangerous discard for a set makes its discarder liable
        for the claimer's next win, not only a dangerous discard won on. The discard's tile is still in the
        discarder's river, the claimer's sets are those exposed before this claim."""
        rules = self.rules.settlement
        if (
            rules is not None
            and rules.cannon
            and self.cannon_liable[seat] is None
            and self.let_off_cannon(seat, discarder, tile)
        ):
            self.cannon_liable[seat] = discarder

    def _tsumo_payers(self, seat: int, payments: dict[str, int]) -> dict[int, int]:
        """What each other active seat pays a self-draw winner, by payment role."""
        owed: dict[int, int] = {}
        for role, amount in payments.items():
            for other in self.active_seats():
                if other == seat:
                    continue
                if role == "each" or (role == "dealer") == (other == self.dealer):
                    owed[other] = owed.get(other, 0) + amount
        return owed

    def _covered_share(self, liable: tuple[str, int], score: Score) -> tuple[int, int]:
        """(covered, total) han of the liable yakuman within the win."""
        covered = sum(p.points for p in score.patterns if p.id == liable[0])
        if covered and self.rules.pao is not None and self.rules.pao.covers_whole_hand:
            return score.total, score.total  # the liability covers every yakuman of the hand
        return covered, score.total

    def _without_honba(
        self,
        seat: int,
        score: Score,
        tile: Tile | None,
        ron_from: int | None,
        robbing: bool = False,
    ) -> dict[str, int]:
        """The win's payments with no honba (the liability covers the hand's value; honba are paid as usual)."""
        if not self.honba:
            return dict(score.payments)
        win_tile = tile if tile is not None else self.last_draw
        assert win_tile is not None
        rest = list(
            self.hands[seat]
        )  # a self-drawn winning tile has already left the hand (_do_tsumo)
        kind = WinKind.TSUMO if ron_from is None else WinKind.RON
        ctx = self.win_context(
            seat,
            after_kong=self.drew_replacement and ron_from is None,
            honba=0,
            robbing_kong=robbing,
            last_tile=self.drew_last_tile if ron_from is None else self.claim_is_last_tile,
        )
        return dict(
            evaluate(
                self.profile, WinningHand(tuple(rest), tuple(self.melds[seat]), win_tile, kind), ctx
            ).payments
        )

    def _liable_tsumo(
        self, seat: int, liable: tuple[str, int], score: Score, owed: dict[int, int]
    ) -> dict[int, int]:
        """Pao on a self-draw: the liable player pays the covered yakuman value in full; the rest is paid as usual (001)."""
        covered, total = self._covered_share(liable, score)
        if not covered or not total:
            return owed
        base = self._tsumo_payers(seat, self._without_honba(seat, score, None, None))
        out = {}
        pays_honba = self.rules.pao is not None and self.rules.pao.liable_pays_honba
        honba_total = 0
        for other, amount in owed.items():
            honba_part = amount - base.get(other, 0)
            honba_total += honba_part
            out[other] = base[other] * (total - covered) // total + (
                0 if pays_honba else honba_part
            )
        out[liable[1]] = (
            out.get(liable[1], 0)
            + sum(base.values()) * covered // total
            + (honba_total if pays_honba else 0)
        )
        return out

    def _pay_liable_ron(
        self,
        seat: int,
        discarder: int,
        liable: tuple[str, int],
        score: Score,
        *,
        first: bool,
        tile: Tile,
        robbing: bool,
    ) -> None:
        """Pao on a discard win: the covered value is shared half and half by the liable player and the discarder (001)."""
        covered, total = self._covered_share(liable, score)
        amount = score.payments.get("discarder", 0)
        base = (
            self._without_honba(seat, score, tile, discarder, robbing).get("discarder", 0)
            if first
            else amount
        )
        half = (base * covered // total) // 2 if total else 0
        honba_part = (
            amount - base if self.rules.pao is not None and self.rules.pao.liable_pays_honba else 0
        )
        if half or honba_part:
            self._pay("win_payment", seat, liable[1], half + honba_part, {"liability": liable[0]})
        self._pay("win_payment", seat, discarder, amount - half - honba_part)

    def _do_ankan(self, action: Action) -> None:
        seat, tile = action.seat, action.tile
        assert tile is not None
        self.loose_kong_chain = (
            self.drew_replacement
        )  # a kong made with a loose tile (Kong upon Kong)
        self._note_passed_tsumo(seat)
        if self.rules.calls.rob_concealed_kong and self._offer_concealed_kong_robbery(seat, tile):
            return
        self._complete_ankan(seat, tile)

    def _offer_concealed_kong_robbery(self, seat: int, tile: Tile) -> bool:
        """``CallRules.rob_concealed_kong``: a win whose patterns include a listed one (thirteen orphans,
        where a table allows it) may rob a concealed kong. One copy is set out as the claimed tile, the
        others stay in hand until the kong completes; returns whether anyone may rob it."""
        shown = max((t for t in self.hands[seat] if t.kind == tile.kind), key=_tile_key)
        allowed = set(self.rules.calls.rob_concealed_kong)
        options: dict[int, list[Action]] = {}
        self.claim_tile, self.claim_from = shown, seat
        self.claim_after_kong = False
        self.claim_is_last_tile = False
        self._completes = set()
        for offset in range(1, SEATS):
            other = (seat + offset) % SEATS
            if not self.active[other]:
                continue
            score = self._ron_score(other, shown, robbing=True)
            if score is not None and any(p.id in allowed for p in score.patterns):
                self._note_completion(other, shown)
                options[other] = [_RON[other], _PASS[other]]
        if not options:
            return False
        self._take(seat, shown)
        self._emit(Event("ankan_declared", seat, {"tile": shown.mpsz}))
        self.last_draw = None
        self.pending_kakan = (seat, shown)
        self.pending_ankan = True
        self.claim_options = options
        self.responses = {}
        self.phase = Phase.ROB
        return True

    def _complete_ankan(self, seat: int, tile: Tile, shown: Tile | None = None) -> None:
        if shown is not None:
            self._give(seat, shown)  # nobody robbed it: the set-out copy joins the others
        taken = [t for t in self.hands[seat] if t.kind == tile.kind]
        for t in taken:
            self._take(seat, t)
        self.melds[seat].append(Meld(MeldType.ANKAN, tuple(taken)))
        self._emit(Event("ankan", seat, {"tile": tile.mpsz}))
        self._interrupt()
        self._kong_payment(seat, MeldType.ANKAN, None)
        self._kong_indicator(concealed=True)
        self._check_four_kongs()
        self._replacement_draw(seat)

    def _do_kakan(self, action: Action) -> None:
        seat, tile = action.seat, action.tile
        assert tile is not None
        self.loose_kong_chain = (
            self.drew_replacement
        )  # a kong made with a loose tile (Kong upon Kong)
        self._note_passed_tsumo(seat)
        added = next(t for t in self.hands[seat] if t.kind == tile.kind)
        self._take(seat, added)
        self._emit(Event("kakan_declared", seat, {"tile": added.mpsz}))
        self.last_draw = None
        if self.rules.calls.robbable_kakan:
            options: dict[int, list[Action]] = {}
            self.claim_tile, self.claim_from = added, seat
            self.claim_after_kong = False
            self.claim_is_last_tile = False
            self._completes = set()
            for offset in range(1, SEATS):
                other = (seat + offset) % SEATS
                if self.active[other]:
                    self._note_completion(other, added)
                if self.active[other] and self._ron_score(other, added, robbing=True) is not None:
                    options[other] = [_RON[other], _PASS[other]]
            if options:
                self.pending_kakan = (seat, added)
                self.claim_options = options
                self.responses = {}
                self.phase = Phase.ROB
                return
        self._complete_kakan(seat, added)

    def _complete_kakan(self, seat: int, added: Tile) -> None:
        index = next(
            i
            for i, m in enumerate(self.melds[seat])
            if m.type is MeldType.PON and m.kind == added.kind
        )
        pon = self.melds[seat][index]
        self.melds[seat][index] = Meld(MeldType.KAKAN, (*pon.tiles, added), pon.claimed, pon.source)
        self._emit(Event("kakan", seat, {"tile": added.mpsz}))
        self._interrupt()
        self._kong_payment(seat, MeldType.KAKAN, None)
        self._kong_indicator(concealed=False)
        self._check_four_kongs()
        self._replacement_draw(seat)

    def _resolve_rob(self) -> None:
        assert self.pending_kakan is not None
        seat, added = self.pending_kakan
        winners = self._limited_ron_winners(robbing=True)
        if winners is None:
            return  # the kong is never completed: no indicator, no replacement (the tile stays pending)
        self.pending_kakan = None
        concealed, self.pending_ankan = self.pending_ankan, False
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

    def _kong_payment(self, seat: int, kind: MeldType, discarder: int | None) -> None:
        k = self.rules.kongs
        payers: list[tuple[int, int]] = []
        if kind is MeldType.MINKAN and discarder is not None:
            payers = [(discarder, k.minkan_discarder)]
        else:
            each = k.ankan_each if kind is MeldType.ANKAN else k.kakan_each
            payers = [(o, each) for o in self.active_seats() if o != seat]
        for payer, amount in payers:
            if amount:
                self._pay("kong_payment", seat, payer, amount, {"kong": kind.value})
                entry = (seat, payer, amount)
                self.kong_income.append(entry)
                self.kong_chain.append(entry)

    # ----------------------------------------------------------------- draws

    def _clear_blocks(self, seat: int) -> None:
        self.furiten_passed[seat] = False
        self.pass_fan[seat] = None
        self.discard_win_block[seat] = False
        self.pon_block[seat].clear()

    def _next_draw(self, start: int) -> None:
        seat = start
        while not self.active[seat]:
            seat = (seat + 1) % SEATS
        if (
            self.back == self.front
        ):  # no tile left to draw (wall_remaining, without the property call)
            self._exhaust()
            return
        tile = self.wall[self.front]
        self.front += 1
        self._draw(seat, tile, replacement=False)

    def _replacement_draw(self, seat: int, *, kong: bool = True) -> None:
        if kong:
            self.kong_this_turn = True
        tile = self._replacement_tile(kong=kong)
        self._draw(seat, tile, replacement=True, kong=kong)

    def _replacement_tile(self, *, kong: bool) -> Tile:
        """The tile that replaces a kong or a bonus tile: from the dead wall, the loose tiles or the wall's end."""
        self.loose_from_live = False
        if self.dead is not None:
            self.back -= 1  # the live wall's last tile joins the dead wall
            return self.dead.draw()
        if self.rules.loose is not None:
            return self._loose_tile(kong=kong)
        return self._pop_back()

    def _loose_tile(self, *, kong: bool) -> Tile:
        """A replacement under :class:`LooseTiles` (003 "The deal etc.", M 22, M 31)."""
        loose = self.rules.loose
        assert loose is not None
        if not kong and not loose.flowers_loose:
            self.loose_from_live = True
            return self._pop_front()  # M 31: a bonus tile's replacement comes from the live wall
        if not loose.dead_wall or self.loose_end == self.back:
            # No dead wall, or the 16 loose tiles are used up: the live wall's last tile.
            self.loose_from_live = True
            self.back -= 1
            self.loose_end = self.back
            return self.wall[self.back]
        self.loose_end -= 1
        tile = self.wall[self.loose_end]
        if not loose.sixteen and self.loose_end - self.back < 13 and self.wall_remaining >= 2:
            self.back -= 2  # 14 loose tiles kept at 13 or 14: the live wall's last two join them
        return tile

    def _draw(self, seat: int, tile: Tile, *, replacement: bool, kong: bool = False) -> None:
        self._clear_blocks(seat)
        self._give(seat, tile)
        self.turn = seat
        self.phase = Phase.TURN
        self.last_draw = tile
        # A flower's replacement is no kong bloom, unless it is a loose tile (003: winning with a loose tile).
        self.drew_replacement = replacement and (
            kong or (self.rules.loose is not None and not self.loose_from_live)
        )
        # With a dead wall a replacement is never the last tile (it comes from the dead wall).
        left = self.back - self.front
        self.drew_last_tile = left == 0 and not (
            replacement
            and (
                self.dead is not None or (self.rules.loose is not None and not self.loose_from_live)
            )
        )
        self.must_discard = False
        if not replacement:
            self.kong_chain = []
            self.kong_this_turn = False
            self.loose_kong_chain = False
        self.events.append(
            Event("draw", seat, {"replacement": replacement, "left": left})
        )  # a draw moves no points

    # ------------------------------------------------------------ exhaustion

    def ready_value(self, seat: int) -> int | None:
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
                value = score.payments.get("discarder", 0)
                best = value if best is None else max(best, value)
        return best

    def _exhaust(self) -> None:
        self.exhausted = True
        rules = self.rules.exhaustion
        if rules.ready_pool or rules.nagashi is not None:
            self._exhaust_ready_pool()
            return
        players = self.active_seats()
        holders = [
            s
            for s in players
            if self.holds_missing(s)
            or any(t.suit == self.missing[s] for m in self.melds[s] for t in m.tiles)
        ]
        needs_ready = rules.not_ready_pays_ready or rules.refund_kong_income
        values = {
            s: (None if s in holders or not needs_ready else self.ready_value(s)) for s in players
        }
        ready = [s for s in players if values[s] is not None]
        not_ready = [s for s in players if values[s] is None]
        if needs_ready:
            self._emit(
                Event(
                    "exhaustion",
                    None,
                    {"ready": ready, "not_ready": not_ready, "missing_suit_held": holders},
                )
            )
        else:
            self._emit(Event("exhaustion", None, {"settlement": "none"}))
        if rules.refund_kong_income:
            for seat in not_ready:
                for entry in [e for e in self.kong_income if e[0] == seat]:
                    self._pay("kong_refund", entry[1], seat, entry[2])
                    self.kong_income.remove(entry)
        if rules.missing_suit_penalty:
            for seat in holders:
                for other in players:
                    if other not in holders:
                        self._pay("missing_suit_penalty", other, seat, rules.missing_suit_penalty)
        if rules.not_ready_pays_ready:
            for seat in not_ready:
                if rules.missing_suit_penalty and seat in holders:
                    continue  # the penalty replaces the not-ready payment (004)
                for other in ready:
                    value = values[other]
                    assert value is not None
                    if rules.ready_value_cap is not None:
                        value = min(value, rules.ready_value_cap)
                    self._pay("not_ready_payment", other, seat, value)
        self._finish()

    def _exhaust_ready_pool(self) -> None:
        """001: nagashi mangan first; otherwise the ready pool passes from not-ready to ready players."""
        rules = self.rules.exhaustion
        ready = [
            s for s in range(SEATS) if self._shape_waits(s, held_waits=rules.ready_with_held_waits)
        ]
        not_ready = [s for s in range(SEATS) if s not in ready]
        self.ready_at_end = ready
        nagashi = [s for s in range(SEATS) if rules.nagashi is not None and self._nagashi(s)]
        self._emit(
            Event("exhaustion", None, {"ready": ready, "not_ready": not_ready, "nagashi": nagashi})
        )
        if nagashi and rules.nagashi is not None:
            for seat in nagashi:
                for other in range(SEATS):
                    if other == seat:
                        continue
                    if seat == self.dealer:
                        amount = rules.nagashi.dealer_from_each
                    else:
                        amount = (
                            rules.nagashi.from_dealer
                            if other == self.dealer
                            else rules.nagashi.from_non_dealer
                        )
                    self._pay("nagashi_mangan", seat, other, amount)
        elif ready and not_ready and rules.ready_pool:
            share = rules.ready_pool // (len(ready) * len(not_ready))
            for payer in not_ready:
                for receiver in ready:
                    self._pay("not_ready_payment", receiver, payer, share)
        self._finish()

    def _nagashi(self, seat: int) -> bool:
        """Every discard a terminal or honor, and none of them called (001)."""
        river = self.river[seat]
        return (
            bool(river)
            and not self.discard_called[seat]
            and all(t.is_terminal_or_honor for t in river)
        )

    def _finish(self) -> None:
        self.phase = Phase.OVER
        self.claim_options = {}
        self._emit(
            Event(
                "hand_end",
                None,
                {
                    "scores": list(self.scores),
                    "winners": [w.seat for w in self.wins],
                    "exhausted": self.exhausted,
                },
            )
        )

    # -------------------------------------------------------------- results

    def next_dealer(self) -> int:
        """Who deals next under 000 §11 style rules: first winner; discarder after a multi-ron first win; else the same."""
        first = [w for w in self.wins if w.order == 0]
        if not first:
            return self.dealer
        if len(first) > 1 and first[0].discarder is not None:
            return first[0].discarder
        return first[0].seat

    def time_limit(self, seat: int) -> int | None:
        """Seconds ``seat`` has for the decision the table waits for, when the rules limit it (else None).

        003 "Precedence of claims for discard" (M 61-65): every player answers a claim window
        (a discard, or an added kong that may be robbed) within the limit, or is deemed to pass
        (:meth:`timeout_action`). The player on turn has no limit.
        """
        limit = self.rules.timeout.claim_seconds
        if (
            limit <= 0
            or self.phase not in (Phase.CLAIM, Phase.ROB)
            or seat not in self.pending_seats()
        ):
            return None
        return limit

    def timeout_action(self, seat: int) -> Action | None:
        """The documented default for a seat whose clock ran out (None if the table is not waiting for it)."""
        legal = self.legal_actions(seat)
        if not legal:
            return None
        kinds = {a.kind for a in legal}
        if self.phase is Phase.EXCHANGE:
            return legal[
                0
            ]  # the first legal same-suit triple, suits in m-p-s order, tiles in order
        if self.phase is Phase.DECLARE:
            held = {
                s: sum(1 for t in self.hands[seat] if t.suit == s) for s in self.profile.tiles.suits
            }
            least = min(self.profile.tiles.suits, key=lambda s: held[s])
            return Action(ActionKind.DECLARE, seat, suit=least)
        win_kind = ActionKind.TSUMO if self.phase is Phase.TURN else ActionKind.RON
        if self.rules.timeout.claim_win and win_kind in kinds:
            return Action(win_kind, seat)
        if self.phase is Phase.TURN:
            discards = [a for a in legal if a.kind is ActionKind.DISCARD]
            drawn = [a for a in discards if a.tile == self.last_draw]
            return drawn[0] if drawn else discards[-1]
        return Action(ActionKind.PASS, seat)

    def snapshot(self, seat: int | None = None) -> dict[str, Any]:
        """The table as plain data; with ``seat``, other players' concealed tiles and hidden choices are masked."""
        players = []
        for s in range(SEATS):
            own = seat is None or s == seat
            missing = self.missing[s]
            players.append(
                {
                    "seat": s,
                    "concealed": format_tiles(sorted(self.hands[s])) if own else None,
                    "concealed_count": len(self.hands[s]),
                    "melds": [
                        {"type": m.type.value, "tiles": format_tiles(m.tiles)}
                        for m in self.melds[s]
                    ],
                    "discards": format_tiles(self.discards[s]),
                    "missing_suit": (
                        missing.value
                        if missing is not None and (own or self.phase is not Phase.DECLARE)
                        else None
                    ),
                    "exchange": (
                        format_tiles(self.exchange_choice[s] or ())
                        if own and self.exchange_choice[s]
                        else None
                    ),
                    "active": self.active[s],
                    "score": self.scores[s],
                    "riichi": self.riichi[s],
                }
            )
        return {
            "profile": self.profile.id,
            "phase": self.phase.value,
            "dealer": self.dealer,
            "turn": self.turn,
            "wall_remaining": self.wall_remaining,
            "claim_tile": (
                self.claim_tile.mpsz
                if self.phase in (Phase.CLAIM, Phase.ROB) and self.claim_tile
                else None
            ),
            "pending": self.pending_seats(),
            "dora_indicators": (
                format_tiles(self.dead.indicators()) if self.dead is not None else ""
            ),
            "honba": self.honba,
            "deposits": self.deposits,
            "players": players,
        }

    def tile_census(self) -> list[Tile]:
        """Every tile at the table now: wall, hands, melds, discards, won tiles and a pending added kong."""
        if self.dead is not None:
            out = (
                list(self.wall[self.front : len(self.wall) - len(self.dead.tiles)])
                + self.dead.remaining()
            )
        elif self.rules.loose is not None:
            out = list(self.wall[self.front : self.loose_end])
        else:
            out = list(self.wall[self.front : self.back])
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
        if self.pending_kakan is not None:
            out.append(self.pending_kakan[1])
        return out


_KONG_TYPES = frozenset((MeldType.ANKAN, MeldType.MINKAN, MeldType.KAKAN))

_TERMINAL_OR_HONOR_KINDS = tuple(k for k in range(N_KINDS) if Tile(k).is_terminal_or_honor)
"""The kinds nine terminals counts (001: nine different terminal and honor kinds)."""

_ALL_TILES: dict[Any, tuple[Tile, ...]] = {}


def _all_tiles(profile: Profile) -> tuple[Tile, ...]:
    """The profile's tile set in its fixed order (the order a seed shuffles), made once per tile set:
    making 136 tiles is a tenth of a first-legal hand's time."""
    tiles = _ALL_TILES.get(profile.tiles)
    if tiles is None:
        tiles = _ALL_TILES[profile.tiles] = tuple(profile.tiles.all_tiles())
    return tiles


#: The kind index of each suit's 1 (suits hold nine kinds, honors seven).
SUIT_FIRST_KIND = {suit: first for suit, (first, _) in SUIT_LAYOUT.items()}


def _tile_key(t: Tile) -> int:
    return 2 * t.kind + t.red


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
"""The method of Hand that performs each kind of action (the others are answers to a claim):
made once, not per apply."""

_DISCARD_ACTIONS: list[list[Action | None]] = [[None] * (2 * N_ALL_KINDS) for _ in range(SEATS)]
"""Per seat, by tile key: the DISCARD action. Actions are immutable values, and making one (a frozen
dataclass) is the costliest step of listing a turn's options (at most 4 x 84 of them)."""


def _discard_action(seat: int, tile: Tile) -> Action:
    key = 2 * tile.kind + tile.red
    action = _DISCARD_ACTIONS[seat][key]
    if action is None:
        action = _DISCARD_ACTIONS[seat][key] = Action(ActionKind.DISCARD, seat, tile=tile)
    return action


for _seat in range(
    SEATS
):  # the plain tiles' discards exist from the start: _kind_discards reads them
    for _kind in range(N_ALL_KINDS):
        _DISCARD_ACTIONS[_seat][2 * _kind] = Action(ActionKind.DISCARD, _seat, tile=Tile(_kind))
del _seat, _kind

_PLAIN_KEYS = [2 * kind for kind in range(N_ALL_KINDS)]


def _kind_discards(seat: int, counts: Sequence[int]) -> list[Action]:
    """One DISCARD per kind held, in tile order, from the seat's counts: for a tile set without red
    fives, where a kind is one tile (half the time of :func:`_discard_actions`)."""
    by_key = _DISCARD_ACTIONS[seat]
    return [by_key[key] for key, n in zip(_PLAIN_KEYS, counts) if n]  # type: ignore[misc]


def _discard_actions(seat: int, tiles: Sequence[Tile]) -> list[Action]:
    """One DISCARD per distinct tile of ``tiles``, in tile order (a red five after the plain fives)."""
    by_key = _DISCARD_ACTIONS[seat]
    keys = sorted({2 * t.kind + t.red for t in tiles})
    for k in keys:
        if by_key[k] is None:
            by_key[k] = Action(ActionKind.DISCARD, seat, tile=Tile(k >> 1, bool(k & 1)))
    return [by_key[k] for k in keys]  # type: ignore[misc]


_ACTIONS: dict[tuple[Any, ...], Action] = {}
"""Every other action the table has offered, by (kind, seat, tile key, tile keys...): the table
offers the same few values again and again (a pon, a chi with these two tiles, a riichi)."""


def _action(
    kind: ActionKind, seat: int, tile: Tile | None = None, tiles: tuple[Tile, ...] = ()
) -> Action:
    """``Action(kind, seat, tile=tile, tiles=tiles)``, made once per distinct value."""
    key = (
        kind,
        seat,
        -1 if tile is None else 2 * tile.kind + tile.red,
        *[2 * t.kind + t.red for t in tiles],
    )
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = Action(kind, seat, tile=tile, tiles=tiles)
    return action


_SEAT_ACTIONS: dict[ActionKind, tuple[Action, ...]] = {
    kind: tuple(Action(kind, seat) for seat in range(SEATS))
    for kind in (
        ActionKind.PASS,
        ActionKind.RON,
        ActionKind.TSUMO,
        ActionKind.PON,
        ActionKind.MINKAN,
        ActionKind.NINE_TERMINALS,
    )
}
"""The actions that name only a kind and a seat, by kind and seat."""
_PASS = _SEAT_ACTIONS[ActionKind.PASS]
_RON = _SEAT_ACTIONS[ActionKind.RON]
_TSUMO = _SEAT_ACTIONS[ActionKind.TSUMO]
_PON = _SEAT_ACTIONS[ActionKind.PON]
_MINKAN = _SEAT_ACTIONS[ActionKind.MINKAN]


def _held_copies(tiles: Sequence[Tile], kind: int) -> tuple[Tile | None, int, Tile | None, int]:
    """(a plain tile, how many, a red tile, how many) of ``kind`` among ``tiles``."""
    plain = red = None
    n_plain = n_red = 0
    for t in tiles:
        if t.kind == kind:
            if t.red:
                red = t
                n_red += 1
            else:
                plain = t
                n_plain += 1
    return plain, n_plain, red, n_red


def _distinct_copies(tiles: Sequence[Tile], kind: int) -> list[Tile]:
    """The distinct tiles of ``kind`` among ``tiles`` in tile order: a plain one, then a red five."""
    plain, _, red, _ = _held_copies(tiles, kind)
    return [t for t in (plain, red) if t is not None]


def _wall_cut(size: int, dice: Sequence[int]) -> int:
    first = dice[0] + dice[1]
    side = (first - 1) % SEATS
    stack = min(dice[0], dice[1]) if len(dice) <= 2 else first + dice[2] + dice[3]
    return (side * (size // SEATS) + 2 * stack) % size


def _break_wall(tiles: list[Tile], dice: Sequence[int]) -> list[Tile]:
    """Open the wall where the dice say: the first roll's sum picks the side (000 §1, 002 §2);
    the stack is its lower die (one roll) or the two sums together (two rolls).

    The engine's wall is a shuffled ring; opening it at that point rotates the ring.
    """
    cut = _wall_cut(len(tiles), dice)
    return tiles[cut:] + tiles[:cut]


def open_wall(tiles: Sequence[Tile], dice: Sequence[int]) -> list[Tile]:
    """The wall in drawing order (deal, draws, then the dead wall at the end) that ``dice`` make of a record's wall."""
    return _break_wall(list(tiles), dice)


def closed_wall(drawing_order: Sequence[Tile], dice: Sequence[int]) -> list[Tile]:
    """The record's wall (before the dice open it) that ``dice`` turn into ``drawing_order``: the inverse of :func:`open_wall`.

    An importer of real games writes the tiles in the order they are dealt and drawn, the
    dead wall last (docs/records.md), and stores this."""
    tiles = list(drawing_order)
    cut = _wall_cut(len(tiles), dice)
    return tiles[len(tiles) - cut :] + tiles[: len(tiles) - cut]
