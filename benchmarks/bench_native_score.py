"""Hands per second of the native scoring core beside the Python engine, per profile, cold.

Run ``python benchmarks/bench_native_score.py`` (after ``pip install -e .`` and ``mjspec build``,
which compile ``runtime._score`` and each profile's ``generated._native_<id>``).

Every round builds a fresh corpus with the ``mjspec bench`` generator (runtime/bench.py) under a
seed no earlier round used, so every measured hand is one the process has not scored before;
``clear_memo`` empties the Python engine's per-profile memo and the formal-wait table before
each timed pass (the per-suit tables of runtime/shapes.py stay, as they do in any process that
has played). Three passes score the same round's corpus, in an order that rotates from round
to round:

* ``native``: what a caller of the native backend gets, ``evaluate_native(...)`` and, where it
  answers None, ``evaluate(..., reference=True)`` (the count of such hands is printed);
* ``core``: ``runtime._score.evaluate`` alone on arguments packed beforehand (the glue's
  checks and packing, and the building of Score objects, left out);
* ``python``: ``evaluate(..., reference=True)``, the Python engine alone (the reference).

``--wins`` keeps only the corpus's complete shapes (tested with ``shapes.is_complete``, which
touches no scoring memo), so that every measured hand is scored through to its payments.

Times are this process's CPU time (``time.process_time``); the figures are medians over the
rounds, and ratios compare medians. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from mjspec.app.bench import build_corpus
from mjspec.runtime.native_score import _native, _pack, evaluate_native, native_core
from mjspec.app.registry import load_profile, profile_ids
from mjspec.runtime.scoring import clear_memo, evaluate
from mjspec.runtime.shapes import is_complete


def cpu(fn: Callable[[], Any]) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--profiles", nargs="*", default=None, help="profile ids (default: every one)"
    )
    parser.add_argument("--hands", type=int, default=3000, help="hands per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument(
        "--wins",
        action="store_true",
        help="complete shapes only (the corpus generator's winning half plus the random hands "
        "that happen to win)",
    )
    args = parser.parse_args()
    core = native_core()
    if core is None:
        print("runtime._score is not built (or MJSPEC_BACKEND=python): nothing to compare")
        return
    kind = "winning shapes" if args.wins else "hands (half built as wins, half drawn at random)"
    print(f"{args.hands} fresh {kind} a round, {args.rounds} rounds, CPU time, medians")
    print(
        f"{'profile':20} {'native h/s':>12} {'core h/s':>12} {'python h/s':>12} "
        f"{'native/py':>10} {'core/py':>8} {'fallback':>9}"
    )
    for pid in args.profiles or profile_ids():
        profile = load_profile(pid)
        if _native(profile).capsule is None:
            print(f"{pid:20} no native module (generated._native_{pid} not built)")
            continue
        rates: dict[str, list[float]] = {"native": [], "core": [], "python": []}
        fallback = 0
        for r in range(args.rounds):
            corpus = build_corpus(
                profile, args.hands * (3 if args.wins else 1), args.seed + 1000 * r
            )
            if args.wins:  # shapes.is_complete: no scoring memo is touched
                corpus = [
                    c
                    for c in corpus
                    if is_complete(c.concealed_counts, len(c.hand.melds), profile.shapes)
                ][: args.hands]
            requests = [(c.hand, c.context) for c in corpus]

            def native_pass() -> None:
                nonlocal fallback
                for hand, ctx in requests:
                    if evaluate_native(profile, hand, ctx) is None:
                        fallback += 1
                        evaluate(profile, hand, ctx, reference=True)

            # The core alone: the glue's own packing (runtime/native_score.py _pack) done before
            # the clock starts; a request it leaves to Python is not in this pass.
            native = _native(profile)
            packed = [
                p for p in (_pack(native, profile, h, ctx) for h, ctx in requests) if p is not None
            ]
            evaluate_core = core.evaluate

            def core_pass() -> None:
                for a in packed:
                    evaluate_core(*a)

            core_n = len(packed)

            def python_pass() -> None:
                for hand, ctx in requests:
                    evaluate(profile, hand, ctx, reference=True)

            passes = [("native", native_pass), ("core", core_pass), ("python", python_pass)]
            sizes = {"native": len(requests), "core": core_n, "python": len(requests)}
            k = r % 3
            for name, fn in passes[k:] + passes[:k]:
                clear_memo(profile)
                rates[name].append(sizes[name] / cpu(fn))
        med = {k: statistics.median(v) for k, v in rates.items()}
        share = fallback / max(1, sizes["native"] * args.rounds)
        print(
            f"{pid:20} {med['native']:12,.0f} {med['core']:12,.0f} {med['python']:12,.0f} "
            f"{med['native'] / med['python']:9.2f}x {med['core'] / med['python']:7.1f}x "
            f"{share:8.1%}"
        )


if __name__ == "__main__":
    main()
