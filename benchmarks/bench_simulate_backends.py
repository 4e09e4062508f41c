"""Hands per second of ``mjspec simulate`` for every profile: 1 worker, 2 workers and Ray.

Run ``python benchmarks/bench_simulate_backends.py [--games 60] [--rounds 3] [--workers 2]``
(Ray: the ``ray`` extra). Each round runs, for each profile, the same seeded games (greedy bots)
three ways, the order rotating from round to round: one local worker, ``--workers`` spawned local
workers, and Ray tasks on a local Ray with ``--workers`` CPUs. The figure is hands per second of
wall time (the workers run in parallel), the median over the rounds; every way plays the same
hands (checked). A local Ray is started once before the rounds and its start-up is printed
apart: that is the overhead a run pays once; the Ray column is what a run costs after it.
"""

from __future__ import annotations

import argparse
import statistics
import time

from mjspec.app.registry import profile_ids
from mjspec.app.simulate import simulate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--profile", action="append")
    args = ap.parse_args()
    import logging

    import ray

    t0 = time.perf_counter()
    ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False,
             logging_level=logging.ERROR)  # fmt: skip
    print(f"Ray start-up (local, {args.workers} CPUs): {time.perf_counter() - t0:.2f} s wall")
    ways = {
        "1 worker": dict(workers=1),
        f"{args.workers} workers": dict(workers=args.workers, start="spawn"),
        f"ray {args.workers}": dict(workers=args.workers, backend="ray"),
    }
    print(f"{'profile':<20}" + "".join(f"{w + ' h/s':>16}" for w in ways) + f"{'hands':>8}")
    for pid in args.profile or profile_ids():
        rates: dict[str, list[float]] = {w: [] for w in ways}
        hands = set()
        for r in range(args.rounds):
            names = list(ways)
            for w in names[r % len(names) :] + names[: r % len(names)]:
                t = time.perf_counter()
                rep = simulate(pid, args.games, progress=False, **ways[w])  # type: ignore[arg-type]
                rates[w].append(rep.statistics.hands / (time.perf_counter() - t))
                hands.add(rep.statistics.hands)
        assert len(hands) == 1, (pid, hands)
        print(
            f"{pid:<20}" + "".join(f"{statistics.median(rates[w]):>16.1f}" for w in ways)
            + f"{hands.pop():>8}"
        )  # fmt: skip
    ray.shutdown()


if __name__ == "__main__":
    main()
