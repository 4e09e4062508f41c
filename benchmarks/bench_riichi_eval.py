"""riichi_planet full hand evaluation beside the `mahjong` package, on one fixed corpus of winning
hands.

Run ``python benchmarks/bench_riichi_eval.py`` (the `mahjong` package from the
test extra must be installed). The corpus is the riichi differential test's
generator under a fixed seed: legal winning hands of every riichi shape in
random situations (tests/riichikit.py). Both sides score the same hands in
one run; the figures are hands per second, the median of several timed
repeats after one warm-up pass, and their ratio (issue 4 targets >= 3x).

Three pairs of figures:

- evaluation, cold: mjspec ``evaluate`` on a parsed hand and context, its
  per-hand memo emptied before every timed pass (every hand is new to it, as
  in a stream of distinct hands; the bounded per-suit decomposition tables
  stay warm, as in any long-running engine), against
  ``HandCalculator.estimate_hand_value`` on its prepared arguments (136-tile
  ids, melds, indicators, a ``HandConfig``). This is the headline ratio;
- evaluation, warm: the same with mjspec's per-hand memo kept, so every hand
  is one it has scored before (a table engine scores a hand again on each
  discard; the package keeps no memo, so its figure is the cold one);
- request to answer, cold: mjspec ``score_request`` on the contract's JSON
  request (parse, evaluate, write the answer: what ``mjspec score --jsonl``
  does per line), against building the package's arguments from the same
  hand and evaluating them.

``--profile`` prints the top of a cProfile of mjspec's evaluation pass.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from riichikit import PROFILE, calculator_call, seeded_wins  # noqa: E402

from mjspec.app.cli import score_request  # noqa: E402
from mjspec.app.registry import load_profile  # noqa: E402
from mjspec.runtime.request import parse_request  # noqa: E402
from mjspec.runtime import scoring  # noqa: E402
from mjspec.runtime.scoring import evaluate  # noqa: E402


def rate(
    fn: Callable[[], None], n: int, repeats: int, before: Callable[[], None] = lambda: None
) -> float:
    """Hands per second: the median of ``repeats`` timed passes after one warm-up pass; ``before``
    runs untimed before each pass."""
    before()
    fn()  # warm-up: bounded tables filled, as in a long-running engine
    times = []
    for _ in range(repeats):
        before()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return n / statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument(
        "--profile", action="store_true", help="print a cProfile of mjspec's evaluation pass"
    )
    args = parser.parse_args()
    try:
        import mahjong  # noqa: F401
    except ImportError:
        sys.exit("the mahjong package is not installed: pip install -e '.[test]'")
    profile = load_profile(PROFILE)
    wins = seeded_wins(args.seed, args.hands)
    requests = [w.request() for w in wins]
    parsed = [parse_request(profile, r) for r in requests]
    calls = [calculator_call(w) for w in wins]

    def ours() -> None:
        for hand, ctx in parsed:
            evaluate(profile, hand, ctx)

    def theirs() -> None:
        for call in calls:
            call.run()

    def ours_contract() -> None:
        for r in requests:
            score_request(r)

    def theirs_from_hand() -> None:
        for w in wins:
            calculator_call(w).run()

    if args.profile:
        ours()
        if hasattr(scoring, "clear_memo"):
            scoring.clear_memo(profile)
        prof = cProfile.Profile()
        prof.enable()
        ours()
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)

    clear_memo: Callable[[], None] = lambda: None
    if hasattr(scoring, "clear_memo"):  # the engine's per-hand memo, emptied for cold passes
        clear_memo = lambda: scoring.clear_memo(profile)  # noqa: E731

    n = len(wins)
    print(f"corpus: {n} riichi winning hands (seed {args.seed}); median of {args.repeats} repeats")
    ref = rate(theirs, n, args.repeats)
    cold = rate(ours, n, args.repeats, clear_memo)
    warm = rate(ours, n, args.repeats)
    print(
        f"evaluation, cold   mjspec {PROFILE}: {cold:9,.0f} hands/s   mahjong package: "
        f"{ref:9,.0f} hands/s   ratio {cold / ref:.2f}"
    )
    print(
        f"evaluation, warm   mjspec {PROFILE}: {warm:9,.0f} hands/s   mahjong package: "
        f"{ref:9,.0f} hands/s   ratio {warm / ref:.2f}"
    )
    mine, ref = rate(ours_contract, n, args.repeats, clear_memo), rate(
        theirs_from_hand, n, args.repeats
    )
    print(
        f"request to answer  mjspec {PROFILE}: {mine:9,.0f} hands/s   mahjong package: "
        f"{ref:9,.0f} hands/s   ratio {mine / ref:.2f}"
    )


if __name__ == "__main__":
    main()
