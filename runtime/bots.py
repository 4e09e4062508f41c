"""Bots that play any profile legally: a random one and a greedy one that lowers shanten.

Both are agents (:class:`~.observation.Agent`): each decision they are handed their seat's
:class:`~.observation.Observation` (their own hand and the public table, never the table itself)
and choose among its legal actions; neither knows a profile's id.
"""

from __future__ import annotations

import random
from typing import Sequence

from .actions import Action, ActionKind
from .context import WinKind
from .observation import Observation
from .scoring import WinningHand, evaluate
from .shapes import discard_shanten, shanten, waits
from .tiles import N_ALL_KINDS, N_KINDS, Tile


class RandomBot:
    """Picks uniformly among the legal actions (its own seeded generator)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Observation) -> Action:
        return self.rng.choice(observation.legal)


class GreedyBot:
    """Wins whenever it can; otherwise discards toward the lowest shanten.

    The opening: passes the three least connected tiles of its shortest suit,
    and declares its least-held suit missing. Calls a pon or kong only when it
    does not make the hand slower.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: Observation) -> Action:
        legal = observation.legal
        seat = observation.seat
        kinds = {a.kind for a in legal}
        for win in (ActionKind.TSUMO, ActionKind.RON):
            if win in kinds:
                return next(a for a in legal if a.kind is win)
        if ActionKind.FLOWER in kinds:  # an exposed flower scores and frees a slot
            return next(a for a in legal if a.kind is ActionKind.FLOWER)
        if (
            ActionKind.NINE_TERMINALS in kinds
        ):  # a hand this far from any ordinary win is better redealt
            return next(a for a in legal if a.kind is ActionKind.NINE_TERMINALS)
        if ActionKind.EXCHANGE in kinds:
            return self._exchange(observation, legal)
        if ActionKind.DECLARE in kinds:
            suits = observation.suits
            held = {s: sum(1 for t in observation.hand if t.suit == s) for s in suits}
            least = min(suits, key=lambda s: held[s])
            return next(a for a in legal if a.suit == least)
        if ActionKind.DISCARD in kinds:
            choice = self._turn(observation, legal, kinds)
            if ActionKind.ORIGINAL_CALL in kinds and choice.kind is ActionKind.DISCARD:
                # Original Call (M 55) only with a calling hand: after it the hand may not change.
                assert choice.tile is not None
                # the seat's tiles by kind, less the discard
                rest = list(observation.counts[:N_KINDS])
                if choice.tile.kind < N_KINDS:  # a flower is no hand-forming kind
                    rest[choice.tile.kind] -= 1
                if _shanten_of(observation, rest, len(observation.melds[seat])) == 0:
                    return Action(ActionKind.ORIGINAL_CALL, seat, tile=choice.tile)
            if ActionKind.RIICHI in kinds and choice.kind is ActionKind.DISCARD:
                # Ready and closed: declare riichi (its yaku and its bonus make the hand worth
                # winning).
                riichi = [a for a in legal if a.kind is ActionKind.RIICHI]
                same = [a for a in riichi if a.tile == choice.tile]
                return (
                    same[0]
                    if same
                    else min(
                        riichi, key=lambda a: (_connectivity(observation.counts, a.tile), a.tile)
                    )
                )
            return choice
        if observation.plays_riichi:
            # Where riichi exists, a closed hand is the bot's way to a yaku: it does not call (wins
            # were taken above).
            return next(a for a in legal if a.kind is ActionKind.PASS)
        return self._claim(observation, legal)

    # -- helpers

    def _turn(
        self, observation: Observation, legal: Sequence[Action], kinds: set[ActionKind]
    ) -> Action:
        discards = [a for a in legal if a.kind is _DISCARD]
        if observation.holds_missing:
            # The missing suit must go first: throw its least connected tile.
            counts = observation.counts

            def least_connected(a: Action) -> tuple[int, int]:
                tile = a.tile
                assert tile is not None  # a discard names its tile
                # ties by tile order: a tile's (kind, red) key orders as the tile
                return (_connectivity(counts, tile), 2 * tile.kind + tile.red)

            return min(discards, key=least_connected)
        n_melds = len(observation.melds[observation.seat])
        # The seat's tiles counted by kind, flowers after the 34 hand-forming kinds.
        held = observation.counts
        counts = held[:N_KINDS]
        if any(held[N_KINDS:]) or sum(counts) != 14 - 3 * n_melds:
            # A random bot's kept flower: throw the flower first.
            flowers = [a for a in discards if a.tile is not None and a.tile.is_flower]
            return flowers[0] if flowers else discards[0]
        profile = observation.profile
        after = discard_shanten(counts, n_melds, profile.shapes)
        best_value = 99
        best: list[Action] = []  # the discards of the lowest shanten, in the table's order
        for a in discards:
            value = after[a.tile.kind]  # type: ignore[union-attr]
            if value < best_value:
                best_value, best = value, [a]
            elif value == best_value:
                best.append(a)
        if ActionKind.ANKAN in kinds or ActionKind.KAKAN in kinds:
            for kong in legal:
                if kong.kind is not ActionKind.ANKAN and kong.kind is not ActionKind.KAKAN:
                    continue
                assert kong.tile is not None
                kind = kong.tile.kind
                rest = list(counts)  # the tiles by kind once the kong is made
                if kong.kind is ActionKind.ANKAN:
                    rest[kind], melds = 0, n_melds + 1
                else:
                    rest[kind] -= 1
                    melds = n_melds
                if _shanten_of(observation, rest, melds) <= best_value:
                    return kong
        if best_value == 0 and profile.minimum is not None and len(best) > 1:
            # Under a win floor (GB's 8 fan) a ready hand is only worth keeping if some wait
            # is a legal win: prefer the discards whose waits score, and score the most.
            best = _best_scoring_waits(observation, best)
        # Among equals, throw the least connected tile (terminals and isolated tiles first), ties
        # broken by a draw of the bot's generator: min(best, key=(connectivity, rng.random()))
        # written
        # out, one draw per candidate in order, the first of equal keys kept.
        draw = self.rng.random
        choice = best[0]
        low, luck = _connectivity(counts, choice.tile), draw()
        for a in best[1:]:
            k = a.tile.kind  # type: ignore[union-attr]
            c = 2 * counts[k]  # _connectivity, written out: asked for every candidate
            for n in _NEAR[k]:
                c += counts[n]
            r = draw()
            if c < low or (c == low and r < luck):
                choice, low, luck = a, c, r
        return choice

    def _claim(self, observation: Observation, legal: Sequence[Action]) -> Action:
        tile = observation.claim_tile
        assert tile is not None
        passing = next(a for a in legal if a.kind is ActionKind.PASS)
        if observation.holds_missing or tile.suit == observation.missing_suit:
            return passing
        # The seat's tiles by kind (a held flower is no hand-forming kind).
        held = observation.counts[:N_KINDS]
        n_melds = len(observation.melds[observation.seat])
        shapes = observation.profile.shapes
        now = _shanten_of(observation, held, n_melds)
        for chi in (a for a in legal if a.kind is ActionKind.CHI):
            counts = list(held)  # less the two tiles the chi takes from the hand
            for t in chi.tiles:
                counts[t.kind] -= 1
            if sum(counts) == 14 - 3 * (n_melds + 1):
                if min(discard_shanten(counts, n_melds + 1, shapes).values()) < now:
                    return chi
        for kind in (ActionKind.MINKAN, ActionKind.PON):
            act = next((a for a in legal if a.kind is kind), None)
            if act is None:
                continue
            counts = list(held)  # less the tiles the call takes (three for a kong, two for a pon)
            counts[tile.kind] = max(0, counts[tile.kind] - (3 if kind is ActionKind.MINKAN else 2))
            if kind is ActionKind.MINKAN:
                after = _shanten_of(observation, counts, n_melds + 1)
                if after <= now:
                    return act
            else:
                if sum(counts) != 14 - 3 * (n_melds + 1):
                    continue
                after = min(discard_shanten(counts, n_melds + 1, shapes).values())
                if after < now:
                    return act
        return passing

    def _exchange(self, observation: Observation, legal: Sequence[Action]) -> Action:
        tiles = observation.hand
        by_suit = {s: [t for t in tiles if t.suit == s] for s in observation.suits}
        options = [s for s in by_suit if len(by_suit[s]) >= 3]
        suit = min(options, key=lambda s: len(by_suit[s]))
        counts = observation.counts
        chosen = sorted(by_suit[suit], key=lambda t: (_connectivity(counts, t), t))[:3]
        target = sorted(
            2 * t.kind + t.red for t in chosen
        )  # tiles compare as their (kind, red) keys
        for a in legal:
            if sorted(2 * t.kind + t.red for t in a.tiles) == target:
                return a
        return legal[0]


def _best_scoring_waits(observation: Observation, candidates: list[Action]) -> list[Action]:
    """The candidate discards that leave the best legal discard win among their waits (all of them
    if none do)."""
    profile = observation.profile
    tiles = observation.hand
    melds = observation.melds[observation.seat]
    values: dict[Action, int] = {}
    context = observation.win_context()  # the same situation for every candidate: made once
    for a in candidates:
        assert a.tile is not None
        rest = list(tiles)
        rest.remove(a.tile)
        if any(t.is_flower for t in rest):
            values[a] = -1
            continue
        counts = [0] * 34
        for t in rest:
            counts[t.kind] += 1
        best = -1
        for kind in waits(
            counts, melds, profile.shapes, profile.tiles.kinds(), copies=profile.tiles.copies
        ):
            score = evaluate(
                profile, WinningHand(tuple(rest), melds, Tile(kind), WinKind.RON), context
            )
            if score.legal:
                best = max(best, score.total)
        values[a] = best
    top = max(values.values())
    return [a for a in candidates if values[a] == top]


def _connectivity(counts: Sequence[int], tile: Tile | None) -> int:
    """How many tiles of the hand sit on or next to ``tile`` (a cheap measure of usefulness).

    ``counts`` is the hand by kind; only suited tiles have neighbours."""
    if tile is None:
        return 0
    k = tile.kind
    score = 2 * counts[k]
    for n in _NEAR[k]:
        score += counts[n]
    return score


_NEIGHBOURS = [
    tuple(n for n in (k - 2, k - 1, k + 1, k + 2) if k - k % 9 <= n < k - k % 9 + 9)
    for k in range(27)
]
"""The kinds within two of each suited kind, in its own suit."""

_NEAR = (*_NEIGHBOURS, *[()] * (N_ALL_KINDS - 27))
""":data:`_NEIGHBOURS` for every kind (an honor or a flower has none)."""

_DISCARD = ActionKind.DISCARD


def _shanten_of(observation: Observation, counts: Sequence[int], n_melds: int) -> int:
    """Shanten of these hand-forming counts (a held flower left out), or 8 when they do not make a
    waiting or a drawn hand: one holding a flower is not comparable, and the bot exposes flowers
    first anyway."""
    if sum(counts) not in (13 - 3 * n_melds, 14 - 3 * n_melds):
        return 8
    return shanten(counts, n_melds, observation.profile.shapes)
