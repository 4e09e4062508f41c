"""Complete bot-played riichi hands per second: mjspec beside riichienv, a first-legal-action agent
in both.

Run ``python benchmarks/bench_riichi_play.py``. Each side plays the same
number of single hands from seeded walls (mjspec: hand ``i`` uses seed ``i``
and dealer ``i % 4``; riichienv: a one-hand game, ``reset(seed=i)``). Every
seat takes the first action its engine lists as legal, so each engine plays
its own hands, not the same ones: the figure compares table engines doing the
same kind of work (deal, options at every turn and claim, wins scored and
paid), not identical games. Reported: hands per CPU second (``time.process_time``:
the machine is shared), the median of several timed repeats after one warm-up pass
of each side, the two sides' repeats alternating; decisions per hand; the ratio.
The backend mjspec runs on is named (``MJSPEC_BACKEND=python`` for the reference).

riichienv is a Rust-core environment on PyPI (``pip install riichienv``). It is
not a test dependency: when it is missing the mjspec side still runs and the
comparison is skipped with a message.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from mjspec.runtime import shapes
from mjspec.runtime.actions import Action
from mjspec.runtime.match import play_hand
from mjspec.runtime.observation import Observation
from mjspec.app.registry import UnknownProfile, load_profile
from mjspec.runtime.table import Round


class FirstLegal:
    """Always the first legal action the table lists."""

    def choose(self, observation: Observation) -> Action:
        return observation.legal[0]


def timed(fns: dict[str, Callable[[], int]], repeats: int) -> dict[str, tuple[float, int]]:
    """Per side: (median CPU seconds, the count the last run returned), after one warm-up run of
    each; the sides' timed runs alternate, so a change of machine load touches both."""
    for fn in fns.values():
        fn()
    times: dict[str, list[float]] = {name: [] for name in fns}
    counts: dict[str, int] = {}
    for r in range(repeats):
        names = list(fns) if r % 2 == 0 else list(reversed(fns))
        for name in names:
            t0 = time.process_time()
            counts[name] = fns[name]()
            times[name].append(time.process_time() - t0)
    return {name: (statistics.median(times[name]), counts[name]) for name in fns}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--hands", type=int, default=200, help="hands per timed run on each side (default 200)"
    )
    parser.add_argument(
        "--repeats", type=int, default=5, help="timed runs; the median is reported (default 5)"
    )
    parser.add_argument(
        "--profile", default=None, help="mjspec profile (default riichi_tenhou, else riichi_planet)"
    )
    args = parser.parse_args()
    if args.profile is None:
        try:
            profile = load_profile("riichi_tenhou")
        except UnknownProfile:
            profile = load_profile("riichi_planet")
    else:
        profile = load_profile(args.profile)
    bots = [FirstLegal()] * 4

    def mjspec_hands() -> int:
        decisions = 0
        for i in range(args.hands):
            hand = Round(profile, dealer=i % 4, seed=i)
            play_hand(hand, bots)
            decisions += len(hand.decisions)
        return decisions

    sides: dict[str, Callable[[], int]] = {"mjspec": mjspec_hands}
    try:
        from riichienv import RiichiEnv
    except ImportError:
        RiichiEnv = None
    if RiichiEnv is not None:
        env: Any = RiichiEnv(
            game_mode=0, skip_mjai_logging=True
        )  # 0: a four-player game of one hand

        def riichienv_hands() -> int:
            decisions = 0
            for i in range(args.hands):
                obs = env.reset(seed=i)
                while not env.done():
                    decisions += len(obs)
                    obs = env.step({pid: o.legal_actions()[0] for pid, o in obs.items()})
            return decisions

        sides["riichienv"] = riichienv_hands
    got = timed(sides, args.repeats)
    ours_s, ours_decisions = got["mjspec"]
    ours = args.hands / ours_s
    backend = (
        "native shape core" if getattr(shapes, "_NATIVE", None) is not None else "Python backend"
    )
    print(
        f"hands per run: {args.hands}; median of {args.repeats} alternating timed runs (CPU "
        "time) after a warm-up"
    )
    print(
        f"mjspec {profile.id} ({backend}): {ours:10.1f} hands/s  "
        f"({ours_decisions / args.hands:.1f} decisions per hand)"
    )
    if "riichienv" not in got:
        print("riichienv is not installed (pip install riichienv==0.4.11): comparison skipped")
        return
    theirs_s, theirs_decisions = got["riichienv"]
    theirs = args.hands / theirs_s
    print(
        f"riichienv (Rust core):           {theirs:10.1f} hands/s  "
        f"({theirs_decisions / args.hands:.1f} decisions per hand)"
    )
    print(f"ratio mjspec / riichienv: {ours / theirs:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
