"""Claims on a discard (or on a kong's tile that may be robbed): the window's options and answers,
priority (win, then pon and kongs, then chi), the ron limit, kuikae, and the passing rules that
follow a declined win or pon (003 "Precedence of claims for discard", 001, 004).

Always built (every table has discards to claim); its passing part, :class:`Passing`, only when
``TableRules.passing`` restricts anything."""

from __future__ import annotations

from typing import Sequence

from ..actions import Action, ActionKind
from ..rules import CallRules, PassRules, PassWinRule
from ..scoring import Score
from ..tiles import Tile
from .common import PON, SEATS, Seat, action, distinct_copies, held_copies


class Claims:
    """The open claim window: the claimed tile, who gave it, what each seat may answer and has answered."""

    def __init__(self, rules: CallRules) -> None:
        self.rules = rules
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

    def open(self, tile: Tile, discarder: Seat, *, after_kong: bool, last_tile: bool) -> None:
        self.tile = tile
        self.discarder = discarder
        self.after_kong = after_kong
        self.is_last_tile = last_tile
        self.responses = {}
        self.completes = set()

    def pending(self) -> list[Seat]:
        return [s for s in sorted(self.options) if s not in self.responses]

    def answer(self, action: Action) -> bool:
        """Record an answer; True once every seat asked has answered."""
        self.responses[action.seat] = action
        return not self.pending()

    def ron_winners(self) -> list[Seat]:
        """The seats that claimed a win, nearest the discarder first (one only without ``multiple_ron``)."""
        assert self.discarder is not None
        order = [(self.discarder + i) % SEATS for i in range(1, SEATS)]
        winners = [
            s for s in order if s in self.responses and self.responses[s].kind is ActionKind.RON
        ]
        if winners and not self.rules.multiple_ron:
            winners = winners[:1]
        return winners

    def over_ron_limit(self, winners: list[Seat]) -> bool:
        """More wins claimed than ``CallRules.ron_limit`` allows (001: three rons on one discard)."""
        limit = self.rules.ron_limit
        return limit is not None and len(winners) > limit

    def limited(self, winners: list[Seat]) -> list[Seat]:
        limit = self.rules.ron_limit
        return winners if limit is None else winners[:limit]

    def call(self) -> tuple[Seat, Action] | None:
        """The call that takes the tile when nobody won: pon and kongs rank above chi, lowest seat first."""
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

    def pon_options(self, seat: Seat, tile: Tile, hand: Sequence[Tile]) -> list[Action]:
        """PON; with red fives, one option per distinct pair of tiles the caller could give up (the other stays in hand)."""
        plain, n_plain, red, n_red = held_copies(hand, tile.kind)
        pairs: list[tuple[Tile, Tile]] = []  # the distinct pairs, in tile order (plain before red)
        if n_plain >= 2:
            pairs.append((plain, plain))  # type: ignore[arg-type]
        if n_plain and n_red:
            pairs.append((plain, red))  # type: ignore[arg-type]
        if n_red >= 2:
            pairs.append((red, red))  # type: ignore[arg-type]
        if self.rules.kuikae and not _discard_left_after(hand, pairs[0], {tile.kind}):
            return []
        if len(pairs) == 1:
            return [PON[seat]]
        return [action(ActionKind.PON, seat, tiles=p) for p in pairs]

    def chi_options(
        self, seat: Seat, tile: Tile, hand: Sequence[Tile], counts: Sequence[int]
    ) -> list[Action]:
        out: list[Action] = []
        k, n = tile.kind, tile.number
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
                for a in distinct_copies(hand, low):
                    for b in distinct_copies(hand, high):
                        pair = (a, b)
                        if self.rules.kuikae and not _discard_left_after(
                            hand, pair, kuikae_kinds(tile, pair)
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


def _discard_left_after(hand: Sequence[Tile], taken: Sequence[Tile], forbidden: set[int]) -> bool:
    """Whether a tile outside ``forbidden`` stays in hand once ``taken`` (tiles of the hand) leave it."""
    kept = 0
    for t in hand:
        if t.kind not in forbidden:
            kept += 1
    for t in taken:
        if t.kind not in forbidden:
            kept -= 1
    return kept > 0


class Passing:
    """What declining costs (``TableRules.passing``): a passed win limits the seat's next win (a higher
    fan, or no discard win) and a passed pon blocks that kind, until the seat's next draw."""

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
