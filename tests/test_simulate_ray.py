"""``mjspec simulate --backend ray`` (app/ray_backend.py): a short simulation on a local Ray gives
the local backend's numbers for the same seeds, a chunk whose worker dies is run again, and
Ctrl-C keeps the games that finished. Slow (a local Ray takes seconds to start); skipped without
the ``ray`` extra."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from ptykit import read_rest, read_until, start_on_terminal

pytest.importorskip("ray")
pytestmark = pytest.mark.slow

#: An agent whose first construction in a process other than the test's kills that process, once
#: in the whole run (a marker file remembers): the chunk it was playing must be played again.
CRASHING_AGENT = """
import os
from pathlib import Path
from mjspec.runtime.bots import GreedyBot

HERE = Path(__file__).parent

class CrashOnce(GreedyBot):
    def __init__(self, seed=None):
        driver = int((HERE / "driver.pid").read_text())
        marker = HERE / "crashed"
        if os.getpid() != driver and not marker.exists():
            marker.write_text(str(os.getpid()))
            os._exit(1)  # the worker process dies, as on a lost node
        super().__init__(seed)
"""


def test_ray_gives_the_local_numbers_and_plays_a_dead_workers_chunk_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mjspec.app.simulate import simulate

    (tmp_path / "crash.py").write_text(CRASHING_AGENT, encoding="utf-8")
    (tmp_path / "driver.pid").write_text(str(os.getpid()))
    monkeypatch.chdir(tmp_path)
    bots = ["crash.py:CrashOnce", "greedy", "random", "greedy"]
    on_ray = simulate(
        "riichi_planet", 12, hands=2, bots=bots, progress=False, backend="ray", workers=2
    )
    assert (tmp_path / "crashed").exists(), "no worker died: the retry was not exercised"
    local = simulate("riichi_planet", 12, hands=2, bots=bots, progress=False)
    got, want = on_ray.to_json(), local.to_json()
    assert got.pop("run")["backend"] == "ray" and want.pop("run")["backend"] == "local"
    assert got == want
    assert on_ray.statistics.seeds == [[0, 11]]


def test_ctrl_c_on_ray_keeps_the_finished_games(tmp_path: Path) -> None:
    stats = tmp_path / "partial.json"
    args = [sys.executable, "-m", "mjspec.app.cli", "simulate", "sichuan_tfmj"]
    args += ["--games", "3000", "--backend", "ray", "--workers", "2", "--json", str(stats)]
    proc, master = start_on_terminal(args, ROOT)
    seen = read_until(master, rb"[1-9][0-9]+/3000")  # some chunks have finished
    os.kill(proc.pid, signal.SIGINT)  # the driver, as Ctrl-C reaches it
    out, _ = proc.communicate(timeout=120)
    seen += read_rest(master)
    os.close(master)
    err = seen.decode(errors="replace")
    assert proc.returncode == 130, err
    [line] = [ln for ln in err.splitlines() if "interrupted" in ln]
    finished = int(re.search(r"interrupted: (\d+) of 3000 game\(s\) finished; their", line)[1])
    assert 0 < finished < 3000
    data = json.loads(stats.read_text())
    assert data["games"] == finished == sum(hi - lo + 1 for lo, hi in data["seeds"])
    assert f"statistics written to {stats}" in out.decode()
    assert "Traceback" not in err
