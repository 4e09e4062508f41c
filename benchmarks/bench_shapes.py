"""Throughput of the shape hot paths on random 14-tile Sichuan hands.

Run ``python benchmarks/bench_shapes.py``. The corpus is fixed by a seed:
half winning hands built from random sets and a pair, half random draws
from the 108-tile wall (almost all non-winning). Figures are hands per
second, the median of several timed repeats after one warm-up pass that
fills the per-suit memo tables (as a long-running engine would have them).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from mjspec.runtime.shapes import ShapeRules, arrangements, is_complete, shanten

SUITED_KINDS = 27
COPIES = 4
RULES = ShapeRules(seven_pairs=True, seven_pairs_allow_four_of_a_kind=True)
"""Sichuan shapes: standard and seven pairs (a four of a kind counts as two pairs)."""


def winning_hand(rng: random.Random) -> list[int]:
    """Four random sets and a pair within the copy limit (retrying when a draw overflows)."""
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.6:
                suit, start = rng.randrange(3), rng.randrange(7)
                for k in range(9 * suit + start, 9 * suit + start + 3):
                    counts[k] += 1
            else:
                counts[rng.randrange(SUITED_KINDS)] += 3
        counts[rng.randrange(SUITED_KINDS)] += 2
        if max(counts) <= COPIES:
            return counts


def random_hand(rng: random.Random) -> list[int]:
    wall = [k for k in range(SUITED_KINDS) for _ in range(COPIES)]
    counts = [0] * 34
    for k in rng.sample(wall, 14):
        counts[k] += 1
    return counts


def corpus(size: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    hands = [winning_hand(rng) if i % 2 == 0 else random_hand(rng) for i in range(size)]
    rng.shuffle(hands)
    return hands


def rate(fn: Callable[[list[int]], object], hands: Sequence[list[int]], repeats: int) -> tuple[float, float]:
    """(first pass, median of ``repeats`` later passes), in hands per second.

    The first pass fills the per-suit memo tables, as a fresh process would;
    the later ones are what a long-running engine or bot sees.
    """
    start = time.perf_counter()
    for h in hands:
        fn(h)
    first = time.perf_counter() - start
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for h in hands:
            fn(h)
        times.append(time.perf_counter() - start)
    return len(hands) / first, len(hands) / statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description="Throughput of the shape hot paths on random Sichuan hands.")
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20240101)
    args = parser.parse_args()
    hands = corpus(args.hands, args.seed)
    rows: list[tuple[str, Callable[[list[int]], object]]] = [
        ("is_complete", lambda h: is_complete(h, 0, RULES)),
        ("arrangements", lambda h: arrangements(h, (), None, RULES)),
        ("arrangements (win tile)", lambda h: arrangements(h, (), next(k for k, n in enumerate(h) if n), RULES)),
        ("shanten", lambda h: shanten(h, 0, RULES)),
    ]
    results = [(name, *rate(fn, hands, args.repeats)) for name, fn in rows]
    winning = sum(is_complete(h, 0, RULES) for h in hands)
    print(f"corpus: {len(hands)} Sichuan hands of 14 tiles, {winning} complete, seed {args.seed}")
    print(f"{'hands/s':<24} {'first pass':>12} {'median of ' + str(args.repeats):>14}")
    for name, cold, warm in results:
        print(f"{name:<24} {cold:>12,.0f} {warm:>14,.0f}")


if __name__ == "__main__":
    main()
