"""gb_mcr full evaluation beside PyMahjongGB's calculator, on one fixed corpus of winning hands.

Run ``python benchmarks/bench_gb.py`` (PyMahjongGB from the test extra must be
installed). The corpus is the GB differential test's generator under a fixed
seed: winning hands of every GB shape in random situations. Both sides score
the same hands; the figures are hands per second, the median of several timed
repeats after one warm-up pass, and their ratio. The calculator is C++ under a
thin binding; mjspec is pure Python.

mjspec remembers what a hand's tiles alone decide (arrangements, formal wait,
the hits of patterns that read only the tiles), so scoring the same tiles
again evaluates only the patterns that read the situation. Two figures are
printed: *warm*, every repeat scoring hands already seen (a long-running
engine, a bot weighing the same waits turn after turn), and *cold*, the
profile's memo emptied before each repeat, so every hand is scored from
scratch (the per-suit tables of ``runtime/shapes.py``, bounded and filled by
any play, stay). The calculator has no memo; its figure is the same either way.
The three are timed in turn, round after round, and each ratio compares
medians taken over the same rounds.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from gbkit import calculator_request, random_gb_win  # noqa: E402

from mjspec.app.registry import load_profile  # noqa: E402
from mjspec.runtime.scoring import clear_memo, evaluate  # noqa: E402


def timed(fn: Callable[[], None], clock: Callable[[], float] = time.perf_counter) -> float:
    t0 = clock()
    fn()
    return clock() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall time (default) or this process's CPU time, steadier on a machine shared "
        "with other work",
    )
    args = parser.parse_args()
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        sys.exit("PyMahjongGB is not installed: pip install -e '.[test]'")
    profile = load_profile("gb_mcr")
    rng = random.Random(args.seed)
    corpus = []
    while len(corpus) < args.hands:
        got = random_gb_win(rng)
        if got is not None:
            corpus.append(got)
    requests = [calculator_request(hand, ctx) for hand, ctx in corpus]

    # The cold runs score with a second profile object: its memo is emptied
    # before each run while the warm profile keeps its own.
    cold_profile = dataclasses.replace(profile)

    def ours() -> None:
        for hand, ctx in corpus:
            evaluate(profile, hand, ctx)

    def ours_cold() -> None:
        for hand, ctx in corpus:
            evaluate(cold_profile, hand, ctx)

    def theirs() -> None:
        for req in requests:
            MahjongFanCalculator(**req)

    # Warm-up: tiles are remembered from their second sight, as in a long-running engine.
    ours()
    ours()
    ours_cold()
    theirs()
    # The three are timed in turn in every round, so a change in the machine's
    # load falls on all of them alike; each figure is the median of its rounds.
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    times: dict[str, list[float]] = {"warm": [], "cold": [], "ref": []}
    for _ in range(args.repeats):
        times["warm"].append(timed(ours, clock))
        clear_memo(cold_profile)
        times["cold"].append(timed(ours_cold, clock))
        times["ref"].append(timed(theirs, clock))
    warm, cold, ref = (len(corpus) / statistics.median(times[k]) for k in ("warm", "cold", "ref"))
    print(f"corpus: {len(corpus)} GB winning hands (seed {args.seed}), {args.clock} clock")
    print(f"mjspec gb_mcr full evaluation, warm: {warm:,.0f} hands/s (median of {args.repeats})")
    print(f"mjspec gb_mcr full evaluation, cold: {cold:,.0f} hands/s (median of {args.repeats})")
    print(f"PyMahjongGB calculator:              {ref:,.0f} hands/s (median of {args.repeats})")
    print(f"ratio warm: {warm / ref:.3f}   ratio cold: {cold / ref:.3f}")


if __name__ == "__main__":
    main()
