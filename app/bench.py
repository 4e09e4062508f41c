"""Hand-evaluation benchmark over a fixed, seeded corpus (``mjspec bench``).

Speed is measured here and printed, never asserted in a test. Figures are the
median of several repeats, as hands per second on one core.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from mjspec.runtime.context import WinContext, WinKind
from mjspec.runtime.hand import Meld, MeldType
from mjspec.runtime.profile import Profile
from mjspec.app.registry import load_profile
from mjspec.runtime.scoring import WinningHand, evaluate
from mjspec.runtime.shapes import is_complete
from mjspec.runtime.tiles import Tile, counts34


@dataclass(frozen=True)
class CorpusHand:
    hand: WinningHand
    context: WinContext
    concealed_counts: tuple[int, ...]


def build_corpus(profile: Profile, n: int, seed: int) -> list[CorpusHand]:
    """``n`` hands, half built as wins (random sets and a pair, some melds), half drawn at random
    from the wall."""
    rng = random.Random(seed)
    kinds = list(profile.tiles.kinds())
    wall = [t for t in profile.tiles.all_tiles() if not t.is_flower]
    out: list[CorpusHand] = []
    while len(out) < n:
        if len(out) % 2 == 0:
            hand = _random_win(rng, kinds)
        else:
            tiles = rng.sample(wall, 14)
            hand = WinningHand(
                tuple(tiles[:13]), (), tiles[13], rng.choice([WinKind.RON, WinKind.TSUMO])
            )
        if hand is None:
            continue
        suits = sorted(
            {t.suit.value for t in (*hand.concealed, hand.win_tile)}
            | {t.suit.value for m in hand.melds for t in m.tiles}
        )
        missing = next((s for s in ("m", "p", "s") if s not in suits), rng.choice(["m", "p", "s"]))
        ctx = WinContext.from_mapping({"missing_suit": missing, "last_tile": rng.random() < 0.05})
        counts = counts34([*hand.concealed, hand.win_tile])
        out.append(CorpusHand(hand, ctx, tuple(counts)))
    return out


def _random_win(rng: random.Random, kinds: list[int]) -> WinningHand | None:
    suits = rng.sample(sorted({k // 9 for k in kinds if k < 27}), k=rng.choice([1, 2, 2, 2]))
    pool = [k for k in kinds if k // 9 in suits]
    used = [0] * 34
    groups: list[tuple[str, int]] = []
    for _ in range(4):
        for _attempt in range(20):
            k = rng.choice(pool)
            if rng.random() < 0.5 and k % 9 <= 6 and all(used[k + i] < 4 for i in range(3)):
                for i in range(3):
                    used[k + i] += 1
                groups.append(("seq", k))
                break
            if used[k] <= 1:
                used[k] += 3
                groups.append(("tri", k))
                break
        else:
            return None
    pair = [k for k in pool if used[k] <= 2]
    if not pair:
        return None
    pk = rng.choice(pair)
    melds: list[Meld] = []
    concealed: list[Tile] = [Tile(pk), Tile(pk)]
    for kind, k in groups:
        if kind == "tri" and rng.random() < 0.25:
            melds.append(Meld(MeldType.PON, (Tile(k),) * 3))
        elif kind == "tri":
            concealed += [Tile(k)] * 3
        else:
            concealed += [Tile(k), Tile(k + 1), Tile(k + 2)]
    rng.shuffle(concealed)
    win = concealed.pop()
    return WinningHand(
        tuple(concealed), tuple(melds), win, rng.choice([WinKind.RON, WinKind.TSUMO])
    )


def _median_rate(fn: object, n: int, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t0)
    return n / statistics.median(times)


def run_benchmark(
    profile_id: str, *, hands: int = 10_000, repeats: int = 5, seed: int = 20261129
) -> str:
    """Measure and describe: winning-shape checks per second and full evaluations per second."""
    profile = load_profile(profile_id)
    corpus = build_corpus(profile, hands, seed)
    rules = profile.shapes
    shape_inputs = [(c.concealed_counts, len(c.hand.melds)) for c in corpus]

    def shape_pass() -> int:
        wins = 0
        for counts, n_melds in shape_inputs:
            if is_complete(counts, n_melds, rules):
                wins += 1
        return wins

    def eval_pass() -> int:
        legal = 0
        for c in corpus:
            if evaluate(profile, c.hand, c.context).legal:
                legal += 1
        return legal

    wins = shape_pass()
    legal = eval_pass()
    shape_rate = _median_rate(shape_pass, len(corpus), repeats)
    eval_rate = _median_rate(eval_pass, len(corpus), repeats)
    return "\n".join(
        [
            f"profile {profile_id}: corpus of {len(corpus)} hands (seed {seed}); {wins} "
            f"complete shapes, {legal} legal wins",
            f"winning-shape check: {shape_rate:,.0f} hands/s (median of {repeats})",
            f"full evaluation (arrangements, patterns, payments): {eval_rate:,.0f} hands/s "
            f"(median of {repeats})",
        ]
    )
