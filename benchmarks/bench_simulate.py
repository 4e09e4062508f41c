"""Greedy-bot simulation speed of every profile: this checkout beside another one (an anchor).

Run ``python benchmarks/bench_simulate.py --anchor /path/to/other/.venv/bin/python``. Each round
runs what ``mjspec simulate PROFILE --games N --workers 1 --no-progress`` runs (the function
``mjspec.app.simulate.simulate``) once in a fresh process of each side, the order alternating
from round to round, and times it by the process's CPU clock: imports excluded (as in the
command's own hands/s figure), everything a fresh process does for its first game included (the
native tables are filled on first use). Printed per profile: hands per CPU second of each side
(the median over the rounds) and their ratio. Both sides play the same seeded games (game ``i``
uses seed ``i``), so the ratio compares the same work; the hand counts must agree.

The anchor is typically an older commit in its own worktree and virtual environment, e.g.
``git worktree add /tmp/base 990da79 && python3 -m venv /tmp/base/.venv &&
/tmp/base/.venv/bin/pip install -e /tmp/base``, then ``--anchor /tmp/base/.venv/bin/python``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

from mjspec.app.registry import profile_ids


CHILD = """
import json, sys, time
try:
    from mjspec.app.simulate import simulate
except ImportError:  # an anchor from before the application layer held simulation
    from mjspec.runtime.simulate import simulate
start = time.process_time()
report = simulate(sys.argv[1], int(sys.argv[2]), workers=1, progress=False)
cpu = time.process_time() - start
statistics = getattr(report, "statistics", None)  # None: an anchor from before the statistics
hands = statistics.hands if statistics is not None else sum(s.hands for s in report.summaries)
print(json.dumps({"cpu": cpu, "hands": hands}))
"""


def run(python: str, profile: str, games: int, env: dict[str, str]) -> tuple[float, int]:
    """(CPU seconds, hands played) of one simulation in a fresh process."""
    done = subprocess.run(
        [python, "-c", CHILD, profile, str(games)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    out = json.loads(done.stdout)
    return float(out["cpu"]), int(out["hands"])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--anchor", required=True, help="the other checkout's Python (its venv)")
    parser.add_argument("--ours", default=sys.executable, help="our Python (default: this one)")
    parser.add_argument("--games", type=int, default=10, help="games per run (default 10)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per profile (default 3)")
    parser.add_argument("--profiles", nargs="*", default=list(profile_ids()))
    parser.add_argument(
        "--ours-backend", default=None, help="MJSPEC_BACKEND for our side (e.g. python)"
    )
    args = parser.parse_args()
    env = dict(os.environ)
    ours_env = dict(env)
    if args.ours_backend:
        ours_env["MJSPEC_BACKEND"] = args.ours_backend
    print(f"{args.games} games per run, {args.rounds} alternating rounds, CPU time in each process")
    print(f"ours:   {args.ours}\nanchor: {args.anchor}")
    print(f"{'profile':<20} {'hands':>6} {'anchor hands/s':>15} {'ours hands/s':>13} {'ratio':>7}")
    for profile in args.profiles:
        times: dict[str, list[float]] = {"anchor": [], "ours": []}
        hands: dict[str, int] = {}
        for r in range(args.rounds):
            order = ["anchor", "ours"] if r % 2 == 0 else ["ours", "anchor"]
            for side in order:
                command = args.anchor if side == "anchor" else args.ours
                cpu, n = run(command, profile, args.games, env if side == "anchor" else ours_env)
                times[side].append(cpu)
                hands[side] = n
        if hands["anchor"] != hands["ours"]:
            print(f"{profile}: the two sides played different hand counts {hands}")
        a = hands["anchor"] / statistics.median(times["anchor"])
        o = hands["ours"] / statistics.median(times["ours"])
        print(f"{profile:<20} {hands['ours']:>6} {a:>15.1f} {o:>13.1f} {o / a:>6.2f}x", flush=True)


if __name__ == "__main__":
    main()
