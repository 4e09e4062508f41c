"""What the statistics of ``mjspec simulate`` cost beside the games themselves.

Run ``python benchmarks/bench_simulate_statistics.py [--games 40] [--rounds 7]``. Each round plays
the same seeded games (game ``i`` uses seed ``i``, greedy bots) twice in this process, once as
the worker plays them (``play_match`` then ``summarise``: app/statistics.py) and once without the
summary, the order alternating from round to round, timed by the CPU clock
(``time.process_time``). Printed per profile: the median CPU seconds of each side, the median of
the per-round ratios (with / without - 1: the statistics' share), and the summary's own CPU time
measured around ``summarise`` alone, as a fraction of the play time.
"""

from __future__ import annotations

import argparse
import statistics
import time

from mjspec.app.registry import load_profile, profile_ids
from mjspec.app.simulate import make_players
from mjspec.app.statistics import summarise
from mjspec.runtime.match import play_match


def _games(profile_id: str, games: int, summarised: bool) -> tuple[float, float]:
    """CPU seconds of the whole loop, and of ``summarise`` alone."""
    profile = load_profile(profile_id)
    alone = 0.0
    t0 = time.process_time()
    for seed in range(games):
        match = play_match(profile, make_players(["greedy"], seed), seed)
        if summarised:
            t1 = time.process_time()
            summarise(match, seed)
            alone += time.process_time() - t1
    return time.process_time() - t0, alone


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--profile", action="append", help="profile id (default: every one)")
    args = ap.parse_args()
    print(
        f"{'profile':<20}{'without s':>11}{'with s':>9}{'with/without-1':>16}{'summary alone':>15}"
    )
    for pid in args.profile or profile_ids():
        _games(pid, 2, True)  # warm: imports, native tables
        plain, full, ratios, shares = [], [], [], []
        for r in range(args.rounds):
            order = (False, True) if r % 2 == 0 else (True, False)
            got = {s: _games(pid, args.games, s) for s in order}
            plain.append(got[False][0])
            full.append(got[True][0])
            ratios.append(got[True][0] / got[False][0] - 1)
            shares.append(got[True][1] / (got[True][0] - got[True][1]))
        print(
            f"{pid:<20}{statistics.median(plain):>11.3f}{statistics.median(full):>9.3f}"
            f"{statistics.median(ratios):>+16.2%}{statistics.median(shares):>15.2%}"
        )


if __name__ == "__main__":
    main()
