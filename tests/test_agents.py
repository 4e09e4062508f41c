"""Agents named by ``--bots`` (app/agents.py): files and modules, seeding, spawned workers, the
documented examples (docs/api.md, "Your own agent") run as written, and every bad spec refused in one line."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from mjspec.app import agents
from mjspec.app.agents import AgentSpecError, load_agent, portable, register_kind
from mjspec.app.cli import main
from mjspec.app.simulate import make_players, simulate
from mjspec.runtime.bots import GreedyBot

from conftest import ROOT

DOC = ROOT / "docs" / "api.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def _agent_files(folder: Path) -> dict[str, str]:
    """The documented agents written into ``folder``: file name -> code."""
    out = {}
    for block in _blocks("python"):
        first = block.splitlines()[0]
        if first.startswith("# ") and first.endswith(".py"):
            (folder / first[2:]).write_text(block, encoding="utf-8")
            out[first[2:]] = block
    return out


def test_the_documented_agents_are_under_twenty_lines_and_play_a_match_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _agent_files(tmp_path)
    assert set(files) == {"riichi_agent.py", "sichuan_agent.py", "gb_agent.py"}
    for name, code in files.items():
        lines = [line for line in code.splitlines()[1:] if line.strip()]  # past the file name
        assert len(lines) < 20, name
    commands = [shlex.split(c) for c in _blocks("sh")[0].splitlines() if c.strip()]
    plays = [c for c in commands if c[:2] == ["mjspec", "play"]]
    assert {c[2] for c in plays} == {"riichi_tenhou", "sichuan_tfmj", "gb_mcr"}
    monkeypatch.chdir(tmp_path)  # the commands name the files relative to their folder
    for command in plays:
        assert main(command[1:]) == 0, command
        out = capsys.readouterr().out
        assert f"{command[2]}, seed 0: totals" in out


def test_the_documented_simulation_spawns_workers_that_load_the_agent_files(
    tmp_path: Path,
) -> None:
    """The documented ``simulate --workers 2`` under the spawn start method (no fork, as on macOS
    and Windows), run as a user runs it; it plays the same games as one process does."""
    _agent_files(tmp_path)
    (line,) = [c for c in _blocks("sh")[0].splitlines() if " simulate " in c]
    words = shlex.split(line)
    env = dict(os.environ)
    while "=" in words[0]:  # the command's environment assignments
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    assert env.get("MJSPEC_START_METHOD") == "spawn" and words[:2] == ["mjspec", "simulate"]
    assert words[words.index("--workers") + 1] == "2"
    stats = tmp_path / "stats.json"
    done = subprocess.run(
        [sys.executable, "-m", "mjspec.app.cli", *words[1:], "--json", str(stats)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    spawned = json.loads(stats.read_text())

    def given(flag: str) -> str:
        return words[words.index(flag) + 1]

    alone = simulate(  # the same run in this process, one worker, the files by their paths
        words[2],
        int(given("--games")),
        hands=int(given("--hands")),
        progress=False,
        bots=[str(tmp_path / b) if ".py:" in b else b for b in given("--bots").split(",")],
    ).to_json()
    for key in ("seconds", "hands_per_second", "workers"):
        spawned.pop(key), alone.pop(key)
    assert spawned == alone


def test_a_seeded_class_gets_its_seats_seed_and_an_unseeded_one_none(tmp_path: Path) -> None:
    (tmp_path / "seeds.py").write_text(
        "class Seeded:\n"
        "    def __init__(self, seed):\n"
        "        self.seed = seed\n"
        "    def choose(self, obs):\n"
        "        return obs.legal[0]\n"
        "class Plain:\n"
        "    def choose(self, obs):\n"
        "        return obs.legal[0]\n",
        encoding="utf-8",
    )
    specs = [f"{tmp_path}/seeds.py:Seeded", f"{tmp_path}/seeds.py:Plain", "greedy", "random"]
    players = make_players(specs, 5)
    assert getattr(players[0], "seed") == 5 * 4 + 0
    assert type(players[1]).__name__ == "Plain" and isinstance(players[2], GreedyBot)
    # a module's class, by its import name
    (module,) = make_players(["mjspec.runtime.bots:RandomBot"], 1)[:1]
    assert type(module).__name__ == "RandomBot"


def test_a_relative_file_is_made_absolute_for_the_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert portable("bots/mine.py:Mine") == f"{tmp_path}/bots/mine.py:Mine"
    assert portable("greedy") == "greedy" and portable("pkg.mod:Cls") == "pkg.mod:Cls"


def test_a_new_kind_of_agent_is_registered_under_a_prefix() -> None:
    """How ``mjai:COMMAND`` will be added: a prefix and a loader, the parser untouched."""
    asked: list[str] = []

    def loader(rest: str) -> agents.AgentFactory:
        asked.append(rest)
        return GreedyBot

    register_kind("testkind", loader)
    try:
        factory = load_agent("testkind:some command --flag")
        assert asked == ["some command --flag"] and factory is GreedyBot
        assert "testkind:..." in agents.kinds()
        assert portable("testkind:./x.py:Y") == "testkind:./x.py:Y"  # the loader's own text
    finally:
        del agents._KINDS["testkind"]
        agents._LOADED.pop("testkind:some command --flag", None)
    with pytest.raises(ValueError):
        register_kind("greedy", loader)


BAD = {
    "nofile.py:Bot": "no such file nofile.py",
    "agent.py:Missing": "agent.py has no class 'Missing' (it has: Agent, NotAnAgent)",
    "agent.py:NotAnAgent": "class NotAnAgent has no choose(observation) method",
    "agent.py:helper": "helper is not a class",
    "broken.py:Bot": "broken.py: syntax error at line 2",
    "raising.py:Bot": "raising.py: running it raised RuntimeError: at import",
    "agent.py:Agent": "making Agent raised ValueError: no seed 0 please",
    "no_such_package.mod:Bot": "no module named 'no_such_package'",
    "alphazero": (
        "unknown bot (choose from greedy, random, FILE.py:CLASS, MODULE:CLASS, mjai:..., "
        "mjai_batch:...)"
    ),
}


@pytest.mark.parametrize("spec", sorted(BAD))
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_bad_spec_is_refused_in_one_line_naming_it(
    spec: str,
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "agent.py").write_text(
        "class Agent:\n"
        "    def __init__(self, seed):\n"
        "        if seed == 0:\n"
        "            raise ValueError('no seed 0 please')\n"
        "    def choose(self, obs):\n"
        "        return obs.legal[0]\n"
        "class NotAnAgent:\n"
        "    pass\n"
        "def helper():\n"
        "    pass\n",
        encoding="utf-8",
    )
    (tmp_path / "broken.py").write_text("class Bot:\n    def choose(self, obs)\n")
    (tmp_path / "raising.py").write_text("raise RuntimeError('at import')\n")
    monkeypatch.chdir(tmp_path)
    args = ["--games", "1"] if command == "simulate" else ["--hands", "1"]
    assert main([command, "riichi_tenhou", *args, "--bots", f"greedy,{spec},random,greedy"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"mjspec: --bots {spec!r}: ") and BAD[spec] in err, err


def test_a_wrong_number_of_specs_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "riichi_tenhou", "--bots", "greedy,random"]) == 2
    assert "one spec or four" in capsys.readouterr().err


@pytest.mark.parametrize(
    "body, said",
    [
        ("return Action(ActionKind.TSUMO, obs.seat)", "chose seat 0 tsumo, which is not legal"),
        ("return None", "answered None, which is not an Action"),
        ("return obs.legal[99]", "raised IndexError: tuple index out of range"),
    ],
)
def test_an_agent_that_breaks_the_rules_in_play_stops_it_in_one_line(
    body: str,
    said: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "cheat.py").write_text(
        "from mjspec.runtime.actions import Action, ActionKind\n"
        "class Cheat:\n"
        "    def choose(self, obs):\n"
        f"        {body}\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert (
        main(["play", "riichi_tenhou", "--hands", "1", "--quiet", "--bots", "cheat.py:Cheat"]) == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "seat 0's agent (Cheat)" in err and said in err, err


def test_a_start_method_the_platform_lacks_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MJSPEC_START_METHOD", "teleport")
    assert main(["simulate", "riichi_tenhou", "--games", "1", "--workers", "2"]) == 2
    assert "worker start method 'teleport' is not available" in capsys.readouterr().err


def test_an_agent_spec_error_names_the_spec() -> None:
    with pytest.raises(AgentSpecError) as caught:
        load_agent("missing_file.py:X")
    assert caught.value.spec == "missing_file.py:X" and "no such file" in caught.value.why


