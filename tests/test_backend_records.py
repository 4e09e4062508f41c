"""Table play gives the same records on the native and the Python backend, and each replays on the
other.

One subprocess per backend (``MJSPEC_BACKEND=python`` for the reference) plays the same seeded
matches of every bundled profile and writes their records; the records must be byte-identical.
Then each backend replays the records the other one wrote. The default run plays a few hands per
match; the slow run plays whole matches.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mjspec.runtime import shapes
from mjspec.runtime.backend import NATIVE_ALLOWED
from mjspec.app.registry import load_profile, profile_ids

PROFILES = [p for p in profile_ids() if load_profile(p).playable]

pytestmark = pytest.mark.skipif(
    shapes._NATIVE is None,
    reason=(
        "MJSPEC_BACKEND=python: there is no second backend to compare with"
        if not NATIVE_ALLOWED
        else "the native extension mjspec.runtime._shapes was not built"
    ),
)

DRIVER = r"""
import json, sys
from mjspec.runtime import shapes
from mjspec.runtime.match import play_match
from mjspec.app.records import match_record, replay
from mjspec.app.registry import load_profile
from mjspec.app.simulate import make_players

mode, jobs, backend = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
running = "native" if shapes._NATIVE is not None else "python"
assert running == backend, "the backend asked for is not the one running"
for job in jobs:
    if mode == "play":
        profile = load_profile(job["profile"])
        players = make_players(job["bots"], job["seed"])
        match = play_match(profile, players, job["seed"], job["hands"])
        with open(job["path"], "w", encoding="utf-8") as out:
            out.write(json.dumps(match_record(match), ensure_ascii=False, indent=1) + "\n")
    else:
        with open(job["path"], encoding="utf-8") as f:
            summary = replay(json.load(f))
        print(job["path"], summary.hands, summary.decisions)
"""


def run(mode: str, jobs: list[dict[str, object]], backend: str) -> str:
    env = dict(os.environ)
    env.pop("MJSPEC_BACKEND", None)
    if backend == "python":
        env["MJSPEC_BACKEND"] = "python"
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, mode, json.dumps(jobs), backend],
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def compare(tmp_path: Path, seeds: list[int], hands: int | None) -> None:
    jobs: dict[str, list[dict[str, object]]] = {"native": [], "python": []}
    for profile in PROFILES:
        for seed in seeds:
            bots = ["greedy"] if seed % 2 == 0 else ["greedy", "random", "greedy", "random"]
            for backend in jobs:
                path = tmp_path / f"{profile}-{seed}-{backend}.json"
                jobs[backend].append(
                    {
                        "profile": profile,
                        "seed": seed,
                        "bots": bots,
                        "hands": hands,
                        "path": str(path),
                    }
                )
    for backend, todo in jobs.items():
        run("play", todo, backend)
    for mine, theirs in zip(jobs["native"], jobs["python"]):
        a = Path(str(mine["path"])).read_bytes()
        b = Path(str(theirs["path"])).read_bytes()
        assert (
            a == b
        ), f"{mine['profile']} seed {mine['seed']}: the records differ between the backends"
        assert json.loads(a)["hands"], "a record with no hand compares nothing"
    # Each backend replays what the other wrote.
    replayed = run("replay", jobs["python"], "native") + run("replay", jobs["native"], "python")
    assert len(replayed.splitlines()) == 2 * len(jobs["native"])


def test_records_identical_on_both_backends(tmp_path: Path) -> None:
    compare(tmp_path, seeds=[0, 1], hands=2)


@pytest.mark.slow
def test_whole_matches_identical_on_both_backends(tmp_path: Path) -> None:
    compare(tmp_path, seeds=[2, 3, 4, 5], hands=None)
