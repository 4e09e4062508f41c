"""Claims on a discard (or on a kong's tile that may be robbed): the window's options and answers,
priority (win, then pon and kongs, then chi), the ron limit, kuikae, and the passing rules that
follow a declined win or pon (003 "Precedence of claims for discard", 001, 004).

Always built (every table has discards to claim); its passing part, :class:`Passing`, only when
``TableRules.passing`` restricts anything."""

from __future__ import annotations

from typing import Callable, Sequence

from ..actions import Action, ActionKind, Event, EventKind
from ..hand import Meld, MeldType
from ..rules import CallRules, PassRules, PassWinRule
from ..scoring import Score
from ..tiles import _PLAIN_TILES, _RED_TILES, N_ALL_KINDS, N_KINDS, Suit, Tile, format_tiles
from .common import (
    MINKAN,
    PASS,
    PON,
    RON,
    SEATS,
    Seat,
    Table,
    action,
    distinct_copies,
    held_copies,
    holds_suit,
    tile_key,
)

_SOURCES = {1: "left", 2: "across", 3: "right"}
"""Where a claimed tile came from, by the claimer's seat less the discarder's."""


class Claims:
    """The open claim window: the claimed tile, who gave it, what each seat may answer and has
    answered."""

    def __init__(self, rules: CallRules, *, flowers: bool) -> None:
        self.rules = rules
        self.flowers = flowers
        """Whether a seat can hold a bonus tile at all (a held one is never part of a win)."""
        self.tile: Tile | None = None
        self.discarder: Seat | None = None
        self.options: dict[Seat, list[Action]] = {}
        self.responses: dict[Seat, Action] = {}
        self.is_last_tile = False
        self.after_kong = False
        self.completes: set[Seat] = set()
        """Seats the claimed tile would complete (a completing tile let pass makes furiten)."""
        self.kuikae: set[int] = set()
        """Kinds the caller may not discard now (001 kuikae)."""
        self.wire(
            passing=None,
            riichi=None,
            missing=None,
            watch=None,
            riichi_furiten=False,
            counts_as_pass=False,
            original_call=None,
        )

    def open(self, tile: Tile, discarder: Seat, *, after_kong: bool, last_tile: bool) -> None:
        self.tile = tile
        self.discarder = discarder
        self.after_kong = after_kong
        self.is_last_tile = last_tile
        self.responses = {}
        self.completes = set()

    def wire(
        self,
        *,
        passing: Passing | None,
        riichi: Sequence[bool] | None,
        missing: Sequence[Suit | None] | None,
        watch: Sequence[bool] | None,
        riichi_furiten: bool,
        counts_as_pass: bool,
        original_call: Callable[[Seat, list[Action]], list[Action]] | None,
    ) -> None:
        """What the windows read of the other mechanisms, handed in once by the machine (lists
        their mechanisms keep up to date, read here and never changed): ``passing`` (this module's
        :class:`Passing`), ``riichi`` (who declared: after riichi only a win, 001), ``missing``
        (the declared suits, when holding or discarding one's missing suit blocks calls),
        ``watch`` (who is furiten by a passed completion, when a completion let pass makes
        furiten: the others a tile completes are noted in :attr:`completes`), ``riichi_furiten``
        (a win declined after riichi makes furiten), ``counts_as_pass``
        (``PassRules.call_counts_as_pass``) and ``original_call`` (M 55: what a declarer may still
        claim). Nothing here refers back to the table, so a round is freed as soon as it is let go
        (no reference cycle for the garbage collector to find)."""
        self.passing = passing
        self.riichi = riichi
        self.missing = missing
        self.watch = watch
        self.riichi_furiten = riichi_furiten
        self.counts_as_pass = counts_as_pass
        self.original_call = original_call

    def open_window(
        self,
        table: Table,
        tile: Tile,
        discarder: Seat,
        *,
        after_kong: bool,
        last_tile: bool,
        live_wall: bool,
        kong_allowed: Callable[[], bool],
    ) -> bool:
        """Open the window on a discard: each seat's options (a win, a pon, an open kong, a chi, and
        a pass), nearest the discarder first; True when anyone may answer. ``live_wall``: tiles are
        left to draw (the last discard is callable only under ``CallRules.last_discard_callable``);
        ``kong_allowed``: a replacement tile and room under the kong limit (asked only of a seat
        that could make an open kong). A win is the table's to score
        (:meth:`~.common.Table.ron_score`); the rest as :meth:`wire` says."""
        # open(), written out: every discard opens a window.
        self.tile = tile
        self.discarder = discarder
        self.after_kong = after_kong
        self.is_last_tile = last_tile
        self.responses = {}
        self.completes = completes = set()
        options: dict[int, list[Action]] = {}
        kind = tile.kind
        if kind >= N_KINDS:  # a discarded flower cannot be claimed (002 §1)
            self.options = options
            return False
        calls = self.rules
        passing, riichi, missing, watch = self.passing, self.riichi, self.missing, self.watch
        original_call = self.original_call
        # The last discard is callable only where the rules allow.
        calls_open = calls.last_discard_callable or live_wall
        chi_seat = (discarder + 1) % SEATS if calls.chi and kind < 27 else -1
        # Most discards concern nobody: one test of every seat's tiles says which to look at.
        candidates = table.claim_candidates(kind, discarder, chi_seat)
        if not candidates:
            self.options = options
            return False
        chi_pairs = _CHI_PAIRS[kind]
        active, all_counts, completed_by = table.active, table.counts, table.completed_by
        flowers = self.flowers
        for seat in _OTHERS[discarder]:  # nearest the discarder first
            if not active[seat] or not candidates >> seat & 1:
                continue
            acts: list[Action] | None = None
            counts = all_counts[seat]
            # The bit test of the seat's wait mask first: most discards complete nobody's hand (a
            # held flower is never part of a winning shape), and neither furiten nor a win need
            # looking at then.
            if not (flowers and any(counts[N_KINDS:])) and completed_by(seat, kind):
                if watch is not None and not watch[seat]:
                    completes.add(seat)
                if table.ron_score(seat, tile, robbing=False) is not None:
                    acts = [RON[seat]]
            n = counts[kind]
            # A chi needs both other tiles of one of its sequences (chi_options finds none else).
            chi = seat == chi_seat and any(counts[low] and counts[high] for low, high in chi_pairs)
            if (
                calls_open and (n >= 2 or chi) and (riichi is None or not riichi[seat])
            ):  # after riichi only a win (001)
                suit = missing[seat] if missing is not None else None
                blocked = suit is not None and (tile.suit == suit or holds_suit(counts, suit))
                if not blocked:
                    if acts is None:
                        acts = []
                    if (
                        calls.pon
                        and n >= 2
                        and (passing is None or kind not in passing.pon_block[seat])
                    ):
                        acts.extend(self.pon_options(seat, tile, table.hands[seat], counts))
                    if calls.minkan and n >= 3 and kong_allowed():
                        acts.append(MINKAN[seat])
                    if chi:
                        acts.extend(self.chi_options(seat, tile, table.hands[seat], counts))
            if acts:
                if original_call is not None:
                    acts = original_call(seat, acts)
                acts.append(PASS[seat])
                options[seat] = acts
        self.options = options
        return bool(options)

    def open_robbery(
        self,
        table: Table,
        tile: Tile,
        declarer: Seat,
        patterns: frozenset[str] | None = None,
    ) -> bool:
        """Open the window on a kong's tile that may be robbed (an added kong; a concealed one
        under ``CallRules.rob_concealed_kong``, where the win must include one of ``patterns``):
        a win or a pass for each seat that may rob it; True when anyone may."""
        self.open(tile, declarer, after_kong=False, last_tile=False)
        options: dict[int, list[Action]] = {}
        for offset in range(1, SEATS):
            other = (declarer + offset) % SEATS
            if not table.active[other]:
                continue
            if patterns is None:
                self.note_completion(table, other, tile)
                if table.ron_score(other, tile, robbing=True) is not None:
                    options[other] = [RON[other], PASS[other]]
                continue
            score = table.ron_score(other, tile, robbing=True)
            if score is not None and any(p.id in patterns for p in score.patterns):
                self.note_completion(table, other, tile)
                options[other] = [RON[other], PASS[other]]
        if not options:
            return False
        self.options = options
        self.responses = {}
        return True

    def note_completion(self, table: Table, seat: Seat, tile: Tile) -> None:
        """Letting a completing tile pass makes the seat furiten until its next draw, yaku or not
        (001): a seat not yet furiten (:meth:`wire`) whose tiles ``tile`` completes is noted."""
        watch = self.watch
        if watch is None or watch[seat] or tile.is_flower:
            return
        if any(table.counts[seat][N_KINDS:]):
            return
        if table.completed_by(seat, tile.kind):
            self.completes.add(seat)

    def winners(self, *, over_limit_aborts: bool) -> list[Seat] | None:
        """The seats that win on the claimed tile, nearest first, under ``CallRules.ron_limit``;
        None when more claims than the limit abort the round (001: up to two rons on one discard,
        three abort; ``over_limit_aborts``: ``AbortiveDraws.triple_ron``).

        A robbed kong's tile is claimed like a discard, so the same limit and abort apply to it
        (riichi_planet's reading of "três reivindicações simultâneas de ron")."""
        winners = self.ron_winners()
        if self.over_ron_limit(winners):
            if over_limit_aborts:
                return None
            winners = self.limited(winners)
        return winners

    def passes(
        self,
        table: Table,
        *,
        robbing: bool,
    ) -> tuple[list[Seat], list[Seat]]:
        """The window has closed: the passing rules note each declined win and pon (a win declined
        by a call too, under ``PassRules.call_counts_as_pass``). Returns, for furiten, the seats in
        riichi that declined a legal win (001 makes them furiten for the rest of the hand) and the
        seats that let a completing tile pass (until their next draw)."""
        if not self.responses and not self.completes:
            return [], []  # a window nobody could answer, completing nobody's tiles
        tile = self.tile
        assert tile is not None
        passing, riichi_furiten, counts_as_pass = (
            self.passing,
            self.riichi_furiten,
            self.counts_as_pass,
        )
        riichi_passed: list[Seat] = []
        for seat, resp in self.responses.items():
            opts = {a.kind for a in self.options[seat]}
            if ActionKind.RON in opts and resp.kind is not ActionKind.RON:
                riichi_pass = riichi_furiten and table.in_riichi(seat)
                if (passing is not None or riichi_pass) and (
                    resp.kind is ActionKind.PASS or counts_as_pass
                ):
                    score = table.ron_score(seat, tile, robbing=robbing)
                    if score is not None and passing is not None:
                        passing.passed_win(seat, score, discard_win=True)
                    if score is not None and riichi_pass:
                        riichi_passed.append(seat)
            if passing is not None and ActionKind.PON in opts and resp.kind is ActionKind.PASS:
                passing.passed_pon(seat, tile.kind)
        passed = [
            s
            for s in self.completes
            if (answer := self.responses.get(s)) is None or answer.kind is not ActionKind.RON
        ]
        return riichi_passed, passed

    def meld(
        self, seat: Seat, call: Action, tile: Tile, discarder: Seat, hand: Sequence[Tile]
    ) -> tuple[Sequence[Tile], Meld, Event]:
        """The set a call makes of the claimed tile (pon, open kong or chi): the tiles it takes
        from the caller's ``hand``, the meld and its event; kuikae (001) starts for the caller."""
        if call.kind is ActionKind.CHI:
            self.forbid_after_chi(tile, call.tiles)
            tiles = tuple(sorted((*call.tiles, tile), key=tile_key))
            data = {"tile": tile.mpsz, "tiles": format_tiles(tiles), "from": discarder}
            return (
                call.tiles,
                Meld(MeldType.CHI, tiles, tile, "left"),
                Event(EventKind.CHI, seat, data),
            )
        pon = call.kind is ActionKind.PON
        n = 2 if pon else 3
        taken = list(call.tiles) if call.tiles else [t for t in hand if t.kind == tile.kind][:n]
        if pon:
            self.forbid_after_pon(tile)
        source = _SOURCES[(seat - discarder) % SEATS]
        meld = Meld(MeldType.PON if pon else MeldType.MINKAN, (*taken, tile), tile, source)
        event = Event(
            EventKind.PON if pon else EventKind.MINKAN, seat, {"tile": tile.mpsz, "from": discarder}
        )
        return taken, meld, event

    def pending(self) -> list[Seat]:
        return [s for s in sorted(self.options) if s not in self.responses]

    def answer(self, action: Action) -> bool:
        """Record an answer; True once every seat asked has answered."""
        self.responses[action.seat] = action
        return not self.pending()

    def ron_winners(self) -> list[Seat]:
        """The seats that claimed a win, nearest the discarder first (one only without
        ``multiple_ron``)."""
        assert self.discarder is not None
        order = [(self.discarder + i) % SEATS for i in range(1, SEATS)]
        winners = [
            s for s in order if s in self.responses and self.responses[s].kind is ActionKind.RON
        ]
        if winners and not self.rules.multiple_ron:
            winners = winners[:1]
        return winners

    def over_ron_limit(self, winners: list[Seat]) -> bool:
        """More wins claimed than ``CallRules.ron_limit`` allows (001: three rons on one
        discard)."""
        limit = self.rules.ron_limit
        return limit is not None and len(winners) > limit

    def limited(self, winners: list[Seat]) -> list[Seat]:
        limit = self.rules.ron_limit
        return winners if limit is None else winners[:limit]

    def call(self) -> tuple[Seat, Action] | None:
        """The call that takes the tile when nobody won: pon and kongs rank above chi, lowest seat
        first."""
        for seat, resp in sorted(self.responses.items()):
            if resp.kind in (ActionKind.PON, ActionKind.MINKAN):
                return seat, resp
        for seat, resp in sorted(self.responses.items()):
            if resp.kind is ActionKind.CHI:
                return seat, resp
        return None

    def close(self) -> None:
        self.options = {}

    # ------------------------------------------------------------ call options

    def pon_options(
        self, seat: Seat, tile: Tile, hand: Sequence[Tile], counts: Sequence[int]
    ) -> list[Action]:
        """PON; with red fives, one option per distinct pair of tiles the caller could give up (the
        other stays in hand)."""
        plain, n_plain, red, n_red = held_copies(hand, tile.kind)
        pairs: list[tuple[Tile, Tile]] = []  # the distinct pairs, in tile order (plain before red)
        if n_plain >= 2:
            pairs.append((plain, plain))  # type: ignore[arg-type]
        if n_plain and n_red:
            pairs.append((plain, red))  # type: ignore[arg-type]
        if n_red >= 2:
            pairs.append((red, red))  # type: ignore[arg-type]
        if self.rules.kuikae and not _discard_left_after(len(hand), counts, {tile.kind}):
            return []
        if len(pairs) == 1:
            return [PON[seat]]
        return [action(ActionKind.PON, seat, tiles=p) for p in pairs]

    def chi_options(
        self, seat: Seat, tile: Tile, hand: Sequence[Tile], counts: Sequence[int]
    ) -> list[Action]:
        out: list[Action] = []
        kuikae = self.rules.kuikae
        for low, high in _CHI_PAIRS[tile.kind]:  # the sequences ending, in the middle, starting
            if counts[low] and counts[high]:
                # One option per distinct choice of tiles (a red five or a plain one): only a five
                # can be red, so another kind held is its plain tile.
                for a in distinct_copies(hand, low) if low in _RED_TILES else (_PLAIN_TILES[low],):
                    for b in (
                        distinct_copies(hand, high) if high in _RED_TILES else (_PLAIN_TILES[high],)
                    ):
                        pair = (a, b)
                        if kuikae and not _discard_left_after(
                            len(hand), counts, kuikae_kinds(tile, pair), pair
                        ):
                            continue
                        out.append(action(ActionKind.CHI, seat, tiles=pair))
        return out

    def forbid_after_pon(self, tile: Tile) -> None:
        if self.rules.kuikae:
            self.kuikae = {tile.kind}

    def forbid_after_chi(self, tile: Tile, tiles: Sequence[Tile]) -> None:
        if self.rules.kuikae:
            self.kuikae = kuikae_kinds(tile, tiles)


def kuikae_kinds(tile: Tile, tiles: Sequence[Tile]) -> set[int]:
    """001 kuikae: the called kind, and for a sequence completed at one end the kind beyond the
    other end."""
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


def _discard_left_after(
    held: int, counts: Sequence[int], forbidden: set[int], taken: Sequence[Tile] = ()
) -> bool:
    """Whether a tile outside ``forbidden`` stays in a hand of ``held`` tiles, counted by kind in
    ``counts``, once ``taken`` (tiles of the hand; none given: tiles of a forbidden kind) leave
    it."""
    kept = held
    for kind in forbidden:
        kept -= counts[kind]
    for t in taken:
        if t.kind not in forbidden:
            kept -= 1
    return kept > 0


_OTHERS = tuple(
    tuple((discarder + offset) % SEATS for offset in range(1, SEATS)) for discarder in range(SEATS)
)
"""The seats that may claim each seat's discard, nearest the discarder first."""

_CHI_PAIRS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        (low, high)
        for low, high in ((kind - 2, kind - 1), (kind - 1, kind + 1), (kind + 1, kind + 2))
        if kind < 27 and low // 9 == kind // 9 == high // 9 and low >= 0
    )
    for kind in range(N_ALL_KINDS)
)
"""Per kind, the other two kinds of each sequence it completes, in the order the sequence starts
two below it, one below it, at it (within its suit; honors and flowers make none)."""


class Passing:
    """What declining costs (``TableRules.passing``): a passed win limits the seat's next win (a
    higher fan, or no discard win) and a passed pon blocks that kind, until the seat's next draw."""

    def __init__(self, rules: PassRules) -> None:
        self.rules = rules
        self.fan: list[int | None] = [None] * SEATS
        self.discard_win_block = [False] * SEATS
        self.pon_block: list[set[int]] = [set() for _ in range(SEATS)]

    def blocks_discard_win(self, seat: Seat) -> bool:
        return self.rules.win is PassWinRule.DISCARD_WINS and self.discard_win_block[seat]

    def fan_allowed(self, seat: Seat, score: Score) -> bool:
        limit = self.fan[seat]
        return limit is None or score.total > limit

    def passed_win(self, seat: Seat, score: Score, *, discard_win: bool) -> None:
        rule = self.rules.win
        if rule is PassWinRule.SAME_OR_LOWER_FAN:
            prev = self.fan[seat]
            self.fan[seat] = score.total if prev is None else max(prev, score.total)
        elif rule is PassWinRule.DISCARD_WINS and discard_win:
            self.discard_win_block[seat] = True

    def passed_pon(self, seat: Seat, kind: int) -> None:
        if self.rules.pon_blocks_same_tile:
            self.pon_block[seat].add(kind)

    def drew(self, seat: Seat) -> None:
        self.fan[seat] = None
        self.discard_win_block[seat] = False
        self.pon_block[seat].clear()


def passing_applies(rules: PassRules) -> bool:
    """Whether the passing rules restrict anything (else no :class:`Passing` is built)."""
    return rules.win is not PassWinRule.NONE or rules.pon_blocks_same_tile
