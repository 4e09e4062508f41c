"""Wins: the situation a win is scored in, the score of a self-draw and of a claimed tile, the
round's wins, and the values other procedures ask of a hand (a ready hand's best discard win at
exhaustion, 004; a loser's hand in the scored settlement, M 107-111; a win's payments without the
honba, which pao leaves out, 001). Always built: every table has wins.

The checks other mechanisms make before a win is scored (a passed win, furiten, the missing
suit) stay theirs: the machine asks them, then this module scores. Who pays a win is
:mod:`.settlement`'s."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping, Sequence

from ..actions import Event, EventKind
from ..context import WinContext, WinKind
from ..deadwall import DeadWall
from ..hand import Meld, MeldType
from ..profile import Profile
from ..scoring import Score, WinningHand, evaluate, score_losing_hand
from ..shapes import waits
from ..tiles import N_KINDS, Suit, Tile, format_tiles
from .common import SEATS, WINDS, Seat, Table, WinRecord

RiichiFlags = tuple[bool, bool, bool]
"""A seat's riichi, double riichi and ippatsu (001), as the riichi mechanism holds them."""
NO_RIICHI: RiichiFlags = (False, False, False)


class Wins:
    """The round's wins, in order, and the self-draw score of the seat on turn (asked again and
    again while it decides: kept until the next event)."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self._flowers = profile.tiles.flowers  # whether a seat can hold a flower at all
        self._live_wait = "only_live_wait" in profile.needs
        self.records: list[WinRecord] = []
        self.events = 0
        """Win events so far (several rons on one discard are one event,
        :attr:`WinRecord.order`)."""
        self._tsumo_at = -1  # the event count and seat the kept self-draw score is for
        self._tsumo_seat = -1
        self._tsumo_cached: Score | None = None

    # ------------------------------------------------------------ the situation

    def context(
        self,
        table: Table,
        seat: Seat,
        *,
        riichi: RiichiFlags,
        original_call: bool,
        missing: Suit | None,
        dead: DeadWall | None,
        after_kong: bool = False,
        last_tile: bool = False,
        kong_shot: bool = False,
        robbing_kong: bool = False,
        first_draw: bool = False,
        honba: int | None = None,
        fourth_tile: bool = False,
    ) -> WinContext:
        """The situation of ``seat``'s win: the table's facts, and what the riichi, Original Call
        and missing-suit mechanisms and the dead wall hold for the seat (the machine asks them)."""
        in_riichi, double, ippatsu = riichi
        ura = ""
        if dead is not None and in_riichi and dead.rules.under_indicators:
            ura = format_tiles(dead.under_indicators())
        return WinContext(
            seat_wind=WINDS[(seat - table.dealer) % SEATS],
            round_wind=table.round_wind,
            flowers=format_tiles(table.flowers[seat]),
            missing_suit=missing,
            dealer=seat == table.dealer,
            riichi=in_riichi,
            double_riichi=double,
            ippatsu=ippatsu,
            after_kong=after_kong,
            last_tile=last_tile,
            kong_shot=kong_shot,
            robbing_kong=robbing_kong,
            first_draw=first_draw,
            fourth_tile=fourth_tile,
            dora_indicators=format_tiles(dead.indicators()) if dead is not None else "",
            ura_indicators=ura,
            honba=table.honba if honba is None else honba,
            original_call=original_call,
            dealer_wins=table.dealer_wins if seat == table.dealer else 0,
            riichi_sticks=table.deposits,
            exhausted=exhausted_kinds(table) if self._live_wait else "",
        )

    # ------------------------------------------------------------ scores

    def tsumo_score(
        self,
        table: Table,
        seat: Seat,
        upon_kong: bool,
        fan_limits: Sequence[int | None] | None,
    ) -> Score | None:
        """The score of ``seat`` winning on its drawn tile now (None: no legal win), kept until the
        next event. ``upon_kong``: the draw follows a kong made with a loose tile (Kong upon Kong);
        ``fan_limits``: per seat, a passed win's fan, which this win must exceed
        (``TableRules.passing``)."""
        at = len(table.events)
        if self._tsumo_at != at or self._tsumo_seat != seat:
            self._tsumo_at, self._tsumo_seat = at, seat
            limit = fan_limits[seat] if fan_limits is not None else None
            self._tsumo_cached = self._tsumo_score(table, seat, upon_kong, limit)
        return self._tsumo_cached

    def _tsumo_score(
        self, table: Table, seat: Seat, upon_kong: bool, fan_limit: int | None
    ) -> Score | None:
        drawn = table.last_draw
        if drawn is None:
            return None
        counts = table.counts[seat]
        if (self._flowers and any(counts[N_KINDS:])) or not table.concealed_complete(seat):
            return None  # an unexposed flower is never part of a winning shape
        hand = table.hands[seat]
        rest = list(hand)
        rest.remove(drawn)
        # Heavenly and earthly hands: the seat's first draw, before any call or kong (001).
        first = (
            not table.interrupted and table.turns_taken[seat] == 0 and not table.drew_replacement
        )
        ctx = table.win_context(
            seat,
            after_kong=table.drew_replacement,
            last_tile=table.drew_last_tile,
            first_draw=first,
            fourth_tile=is_last_copy(table, drawn, on_discard=False),
        )
        if upon_kong and table.drew_replacement:
            ctx = replace(ctx, kong_upon_kong=True)
        score = evaluate(
            self.profile,
            WinningHand(tuple(rest), tuple(table.melds[seat]), drawn, WinKind.TSUMO),
            ctx,
        )
        if not score.legal or not fan_allowed(score, fan_limit):
            return None
        return score

    def ron_score(
        self,
        table: Table,
        seat: Seat,
        tile: Tile,
        *,
        robbing: bool,
        honba: int | None,
        after_kong: bool,
        last_tile: bool,
        from_dealer: bool,
        fan_limit: int | None,
        furiten: Callable[[Seat], bool],
    ) -> Score | None:
        """The score of ``seat`` winning on ``tile`` (a discard, or a kong's tile robbed) in the
        claim window's situation (``after_kong``: the discard follows a kong; ``last_tile``: it is
        the last one; ``from_dealer``: the dealer gave it); None when the shape is not complete,
        the seat is ``furiten`` (asked after the shape: it needs every wait), or no win is legal."""
        if (
            tile.is_flower
            or any(table.counts[seat][N_KINDS:])
            or not table.completed_by(seat, tile.kind)
        ):
            return None  # the bit test first: most discards complete nobody's hand
        if furiten(seat):
            return None
        ctx = table.win_context(
            seat,
            robbing_kong=robbing,
            kong_shot=not robbing and after_kong,
            last_tile=not robbing and last_tile,
            honba=honba,
            # Earth's Blessing: on East's first discard, nobody else having discarded or called.
            first_draw=not robbing
            and not table.interrupted
            and table.discards_made == 1
            and from_dealer,
            fourth_tile=is_last_copy(table, tile, on_discard=not robbing),
        )
        score = evaluate(
            self.profile,
            WinningHand(tuple(table.hands[seat]), tuple(table.melds[seat]), tile, WinKind.RON),
            ctx,
        )
        if not score.legal or not fan_allowed(score, fan_limit):
            return None
        return score

    def ron_scores(
        self, table: Table, winners: list[Seat], tile: Tile, *, robbing: bool
    ) -> dict[Seat, Score | None]:
        """Each winner's score; with several winners only the nearest in turn order takes the
        honba (001)."""
        return {
            s: table.ron_score(s, tile, robbing=robbing, honba=None if i == 0 else 0)
            for i, s in enumerate(winners)
        }

    def without_honba(
        self,
        table: Table,
        seat: Seat,
        score: Score,
        tile: Tile | None,
        ron_from: Seat | None,
        *,
        robbing: bool = False,
        last_discard: bool = False,
    ) -> dict[str, int]:
        """The win's payments with no honba (the liability covers the hand's value; honba are paid
        as usual, 001). ``last_discard``: a discard win on the last tile."""
        if not table.honba:
            return dict(score.payments)
        win_tile = tile if tile is not None else table.last_draw
        assert win_tile is not None
        # A self-drawn winning tile has already left the hand (the machine's tsumo).
        rest = list(table.hands[seat])
        kind = WinKind.TSUMO if ron_from is None else WinKind.RON
        ctx = table.win_context(
            seat,
            after_kong=table.drew_replacement and ron_from is None,
            honba=0,
            robbing_kong=robbing,
            last_tile=table.drew_last_tile if ron_from is None else last_discard,
        )
        hand = WinningHand(tuple(rest), tuple(table.melds[seat]), win_tile, kind)
        return dict(evaluate(self.profile, hand, ctx).payments)

    def ready_value(
        self,
        table: Table,
        seat: Seat,
        *,
        holds_missing: bool,
        payment: Callable[[Mapping[str, int]], int],
    ) -> int | None:
        """The best ``payment`` a discard win could bring ``seat`` now (the discarder's, read by
        :mod:`.settlement`), with no situational bonus; None if not ready (``holds_missing``: the
        seat still holds its missing suit, 000 §3)."""
        counts = table.counts[seat]
        if holds_missing or any(counts[N_KINDS:]):
            return None  # an unexposed flower is never part of a ready shape
        melds = table.melds[seat]
        profile = self.profile
        found = waits(
            list(counts[:N_KINDS]),
            melds,
            profile.shapes,
            profile.tiles.kinds(),
            copies=profile.tiles.copies,
        )
        best: int | None = None
        if not found:
            return best
        # One situation for every wait: nothing at the table changes between them.
        ctx = table.win_context(seat)
        concealed, held = tuple(table.hands[seat]), tuple(melds)
        for kind in sorted(found):
            score = evaluate(profile, WinningHand(concealed, held, Tile(kind), WinKind.RON), ctx)
            if score.legal:
                value = payment(score.payments)
                best = value if best is None else max(best, value)
        return best

    def losing_value(self, table: Table, seat: Seat) -> tuple[int, Event]:
        """The value of a loser's hand at settlement (its best reading), with the ``hand_score``
        event that announces it."""
        score = score_losing_hand(
            self.profile,
            tuple(table.hands[seat]),
            tuple(table.melds[seat]),
            table.win_context(seat),
        )
        value = score.value or 0
        data = {"score": value, "patterns": [p.id for p in score.patterns], "points": score.fu}
        return value, Event(EventKind.HAND_SCORE, seat, data)

    # ------------------------------------------------------------ the record

    def next_order(self) -> int:
        """The order of the next win event (several rons on one discard share it)."""
        order = self.events
        self.events += 1
        return order

    def won(
        self,
        seat: Seat,
        discarder: Seat | None,
        tile: Tile,
        score: Score,
        order: int,
        data: dict[str, Any],
    ) -> Event:
        """Record a win; the ``win`` event that announces it."""
        self.records.append(WinRecord(seat, discarder, tile, score, order))
        return Event(
            EventKind.WIN,
            seat,
            {
                "tile": tile.mpsz,
                **data,
                "patterns": [p.id for p in score.patterns],
                "total": score.total,
            },
        )


def fan_allowed(score: Score, limit: int | None) -> bool:
    """A passed win's fan limits the seat's next win to a higher one (``TableRules.passing``)."""
    return limit is None or score.total > limit


def shown_copies(table: Table, kind: int) -> int:
    """Copies of ``kind`` in view: in the discards and in exposed sets (a concealed kong is face
    down)."""
    shown = 0
    for s in range(SEATS):
        shown += [t.kind for t in table.discards[s]].count(kind)  # asked for every win checked
        for m in table.melds[s]:
            if m.type is not MeldType.ANKAN:
                shown += [t.kind for t in m.tiles].count(kind)
    return shown


def is_last_copy(table: Table, tile: Tile, *, on_discard: bool) -> bool:
    """The winning tile is the last copy not yet in view: the other copies are all among the
    discards and exposed sets (002 §4 Last Tile). A discard won on is itself still among the
    discards."""
    shown = shown_copies(table, tile.kind) - (1 if on_discard else 0)
    return shown == table.profile.tiles.copies - 1


def exhausted_kinds(table: Table) -> str:
    """Kinds (mpsz) whose four copies are all exposed on the table: in the discards or in declared
    sets, concealed kongs included (003 "Filling the only place": such a kind is not available).
    """
    return exposed_fours(table.discards, table.melds)


def exposed_fours(discards: Sequence[Sequence[Tile]], melds: Sequence[Sequence[Meld]]) -> str:
    """:func:`exhausted_kinds` of these discards and melds, every seat's (public facts only: a
    seat's observation asks it too, runtime/observation.py)."""
    shown = [0] * N_KINDS
    for s in range(SEATS):
        for t in discards[s]:
            if t.kind < N_KINDS:  # a discarded bonus tile (002 §1) is no hand-forming kind
                shown[t.kind] += 1
        for m in melds[s]:
            for t in m.tiles:
                shown[t.kind] += 1
    return format_tiles([Tile(k) for k in range(N_KINDS) if shown[k] >= 4])
