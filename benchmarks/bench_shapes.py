"""Throughput of the shape hot paths on random 14-tile Sichuan hands.

Run ``python benchmarks/bench_shapes.py``. The corpus is fixed by a seed:
half winning hands built from random sets and a pair, half random draws
from the 108-tile wall (almost all non-winning). Figures are hands per
CPU second, the first pass (which fills the Python per-suit memo tables) and
the median of several later passes (as a long-running engine would have them).
The backend is named: the native shape core where it was built, the Python
reference under ``MJSPEC_BACKEND=python``.

Then, cold, beside PyMahjongGB (when installed): shanten of 13-tile hands
drawn from the 136-tile wall under the GB shapes (standard, seven pairs,
thirteen orphans, knitted), each hand one the process has never seen (every
round draws a fresh batch; both sides answer the same batch, the order of the
sides alternating by round). mjspec's ``shapes.shanten`` is timed against
``MahjongGB.MahjongShanten`` (all GB shapes) on the same hands, by CPU time,
medians over the rounds. The native tables are filled once before timing (the
fill is printed); they hold every suit vector, not the hands seen.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from mjspec.runtime import shapes
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


def rate(
    fn: Callable[[list[int]], object], hands: Sequence[list[int]], repeats: int
) -> tuple[float, float]:
    """(first pass, median of ``repeats`` later passes), in hands per second.

    The first pass fills the per-suit memo tables, as a fresh process would;
    the later ones are what a long-running engine or bot sees.
    """
    start = time.process_time()
    for h in hands:
        fn(h)
    first = time.process_time() - start
    times = []
    for _ in range(repeats):
        start = time.process_time()
        for h in hands:
            fn(h)
        times.append(time.process_time() - start)
    return len(hands) / first, len(hands) / statistics.median(times)


GB_RULES = ShapeRules(
    seven_pairs=True, seven_pairs_allow_four_of_a_kind=True, thirteen_orphans=True, knitted=True
)
"""GB shapes, as specs/gb_mcr.yaml selects them."""
_GB_SUITS = ("W", "B", "T")
_GB_HONORS = ("F1", "F2", "F3", "F4", "J3", "J2", "J1")


def gb_code(kind: int) -> str:
    """A kind in PyMahjongGB's notation (W characters, B dots, T bamboo, F winds, J dragons)."""
    return f"{_GB_SUITS[kind // 9]}{kind % 9 + 1}" if kind < 27 else _GB_HONORS[kind - 27]


def gb_batch(rng: random.Random, size: int) -> list[tuple[list[int], tuple[str, ...]]]:
    """``size`` 13-tile hands from the 136-tile wall, as counts34 and as PyMahjongGB tiles."""
    wall = [k for k in range(34) for _ in range(COPIES)]
    out = []
    for _ in range(size):
        kinds = sorted(rng.sample(wall, 13))
        counts = [0] * 34
        for k in kinds:
            counts[k] += 1
        out.append((counts, tuple(gb_code(k) for k in kinds)))
    return out


def against_pymahjonggb(hands: int, rounds: int, seed: int) -> None:
    try:
        import MahjongGB
    except ImportError:
        print("PyMahjongGB is not installed (pip install PyMahjongGB==1.4.0): comparison skipped")
        return
    rng = random.Random(seed)
    times: dict[str, list[float]] = {"mjspec": [], "PyMahjongGB": []}
    agree = total = 0
    for r in range(rounds):
        batch = gb_batch(rng, hands)  # fresh hands: never seen by this process
        ours: list[int] = []
        theirs: list[int] = []

        def run_ours() -> None:
            ours.extend(shanten(counts, 0, GB_RULES) for counts, _ in batch)

        def run_theirs() -> None:
            theirs.extend(MahjongGB.MahjongShanten(pack=(), hand=tiles) for _, tiles in batch)

        sides = [("mjspec", run_ours), ("PyMahjongGB", run_theirs)]
        for name, fn in sides if r % 2 == 0 else reversed(sides):
            t0 = time.process_time()
            fn()
            times[name].append(time.process_time() - t0)
        agree += sum(a == b for a, b in zip(ours, theirs))
        total += len(batch)
    backend = "native" if shapes._NATIVE is not None else "Python reference"
    a = hands / statistics.median(times["mjspec"])
    b = hands / statistics.median(times["PyMahjongGB"])
    print(
        f"cold shanten, GB shapes, {hands} fresh 13-tile hands per round, {rounds} alternating "
        "rounds"
    )
    print(f"  mjspec shapes.shanten ({backend}): {a:>12,.0f} hands/s")
    print(f"  PyMahjongGB MahjongShanten:        {b:>12,.0f} hands/s")
    print(f"  ratio mjspec / PyMahjongGB: {a / b:.2f}x; same shanten on {agree} of {total} hands")


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Throughput of the shape hot paths on random Sichuan hands."
    )
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20240101)
    parser.add_argument(
        "--gb-hands", type=int, default=20_000, help="hands per round against PyMahjongGB"
    )
    parser.add_argument("--gb-rounds", type=int, default=5)
    args = parser.parse_args()
    start = time.process_time()
    shanten([1] * 13 + [0] * 21, 0, GB_RULES)  # the native tables fill on first use
    fill = 1000 * (time.process_time() - start)
    print(f"first shanten call of the process (fills the native tables): {fill:.1f} ms CPU")
    hands = corpus(args.hands, args.seed)
    rows: list[tuple[str, Callable[[list[int]], object]]] = [
        ("is_complete", lambda h: is_complete(h, 0, RULES)),
        ("arrangements", lambda h: arrangements(h, (), None, RULES)),
        (
            "arrangements (win tile)",
            lambda h: arrangements(h, (), next(k for k, n in enumerate(h) if n), RULES),
        ),
        ("shanten", lambda h: shanten(h, 0, RULES)),
    ]
    results = [(name, *rate(fn, hands, args.repeats)) for name, fn in rows]
    winning = sum(is_complete(h, 0, RULES) for h in hands)
    backend = "native shape core" if shapes._NATIVE is not None else "Python reference"
    print(
        f"corpus: {len(hands)} Sichuan hands of 14 tiles, {winning} complete, seed "
        f"{args.seed}; {backend}"
    )
    print(f"{'hands/s':<24} {'first pass':>12} {'median of ' + str(args.repeats):>14}")
    for name, cold, warm in results:
        print(f"{name:<24} {cold:>12,.0f} {warm:>14,.0f}")
    against_pymahjonggb(args.gb_hands, args.gb_rounds, args.seed)


if __name__ == "__main__":
    main()
