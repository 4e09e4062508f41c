"""A fixed table-play workload for instruction counts: first-legal hands or greedy-bot games.

Timings on a shared machine swing by tens of percent; valgrind's instruction count of a fixed
workload does not. Run, for example::

    valgrind --tool=callgrind --callgrind-out-file=/tmp/play.out --toggle-collect=builtin_exec \
        python benchmarks/table_workload.py play riichi_tenhou 100
    valgrind ... python benchmarks/table_workload.py play riichi_tenhou 0

``play PROFILE N``: N single hands, hand ``i`` from seed ``i`` with dealer ``i % 4``, every seat
taking the first legal action (what ``bench_riichi_play.py`` times). ``sim PROFILE N``: what
``mjspec simulate PROFILE --games N --workers 1`` plays (greedy bots, game ``i`` from seed ``i``).

``--toggle-collect=builtin_exec`` counts only inside ``exec``: the workload below, and also the
module code of every import (importlib runs it through ``exec``). The difference between a run of
N and a run of 0 is the workload's own count; compare two checkouts by that difference. The
decisions or hands printed must agree between the checkouts (the same games were played).
"""

from __future__ import annotations

import argparse

from mjspec.app.registry import load_profile
from mjspec.app.simulate import simulate
from mjspec.runtime.actions import Action
from mjspec.runtime.match import play_hand
from mjspec.runtime.observation import Observation
from mjspec.runtime.table import Round


class FirstLegal:
    """Always the first legal action the table lists."""

    def choose(self, observation: Observation) -> Action:
        return observation.legal[0]


def play(profile_id: str, hands: int) -> int:
    """Decisions taken over ``hands`` first-legal hands."""
    profile = load_profile(profile_id)
    bots = [FirstLegal()] * 4
    decisions = 0
    for i in range(hands):
        hand = Round(profile, dealer=i % 4, seed=i)
        play_hand(hand, bots)
        decisions += len(hand.decisions)
    return decisions


def sim(profile_id: str, games: int) -> int:
    """Hands played over ``games`` greedy-bot games."""
    report = simulate(profile_id, games, workers=1, progress=False)
    return sum(s.hands for s in report.summaries)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("mode", choices=("play", "sim"))
    parser.add_argument("profile")
    parser.add_argument("count", type=int, help="hands (play) or games (sim); 0 for the baseline")
    args = parser.parse_args()
    run = play if args.mode == "play" else sim
    scope: dict[str, object] = {"run": run, "profile": args.profile, "count": args.count}
    exec("n = run(profile, count)", scope)  # the measured work, inside exec (module docstring)
    print(f"{'decisions' if args.mode == 'play' else 'hands'} {scope['n']}")


if __name__ == "__main__":
    main()
