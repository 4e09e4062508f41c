"""What starting ``mjspec simulate``'s worker processes costs, spawned against forked.

Run ``python benchmarks/bench_start_method.py [--workers 2] [--rounds 9]``. Each round runs, in
this process (after one warm-up run of each), the same tiny simulation (``--games`` games of
``--hands`` hand of sichuan_tfmj, greedy bots) once with each start method, the order
alternating from round to round. Printed per method: the median wall time of the whole call
(pool start, the games, the pool's end) and the median CPU time of this process and its
finished children together (``os.times``: user + system), then spawn's extra over fork.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from mjspec.app.simulate import simulate


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _once(method: str, workers: int, games: int, hands: int) -> tuple[float, float]:
    w0, c0 = time.perf_counter(), _cpu()
    simulate("sichuan_tfmj", games, hands=hands, workers=workers, start=method, progress=False)
    return time.perf_counter() - w0, _cpu() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--hands", type=int, default=1)
    args = ap.parse_args()
    methods = ("fork", "spawn")
    got: dict[str, list[tuple[float, float]]] = {m: [] for m in methods}
    for m in methods:
        _once(m, args.workers, args.games, args.hands)  # warm: imports, native tables
    for r in range(args.rounds):
        for m in methods if r % 2 == 0 else methods[::-1]:
            got[m].append(_once(m, args.workers, args.games, args.hands))
    wall = {m: statistics.median(w for w, _ in got[m]) for m in methods}
    cpu = {m: statistics.median(c for _, c in got[m]) for m in methods}
    for m in methods:
        print(f"{m:<6} wall {wall[m]:.3f} s  cpu (with children) {cpu[m]:.3f} s")
    print(
        f"spawn - fork at {args.workers} workers: wall {wall['spawn'] - wall['fork']:+.3f} s, "
        f"cpu {cpu['spawn'] - cpu['fork']:+.3f} s"
    )


if __name__ == "__main__":
    main()
