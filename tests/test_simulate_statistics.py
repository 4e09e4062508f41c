"""The statistics of ``mjspec simulate`` (app/statistics.py): exact counts, merged by addition.

Each check plays a few short seeded games (milliseconds each) and holds the counts to what the
matches themselves say, the JSON to its schema, and a merge of two runs over disjoint seeds to the
run over both.
"""

from __future__ import annotations

import json
import math
import statistics as pystats
from pathlib import Path

import jsonschema
import pytest

from conftest import ROOT
from ptykit import read_rest, start_on_terminal
from mjspec.app.cli import main
from mjspec.app.registry import load_profile
from mjspec.app.simulate import SimulationReport, make_players, simulate, start_method
from mjspec.app.statistics import GameSummary, MergeError, Moments, Statistics, summarise
from mjspec.app.versus import compare, holm, paired
from mjspec.runtime.match import play_match

SCHEMA = json.loads((ROOT / "docs" / "simulation.schema.json").read_text("utf-8"))


def _valid(data: object) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.Draft202012Validator(SCHEMA).validate(data)


def test_moments_are_the_sample_mean_spread_and_interval() -> None:
    xs = [3, -7, 12, 0, 5, 5, -1]
    m = Moments()
    for x in xs:
        m.add(x)
    assert m.mean == pytest.approx(pystats.mean(xs))
    assert m.spread == pytest.approx(pystats.stdev(xs))
    lo, hi = m.interval() or (None, None)
    half = 1.959963984540054 * pystats.stdev(xs) / math.sqrt(len(xs))
    assert (lo, hi) == pytest.approx((pystats.mean(xs) - half, pystats.mean(xs) + half))
    one = Moments()
    one.add(4)
    assert one.spread is None and one.interval() is None


@pytest.mark.parametrize("profile_id", ["riichi_planet", "sichuan_tfmj", "classical_xmj"])
def test_a_games_counts_are_what_its_match_says(profile_id: str) -> None:
    profile = load_profile(profile_id)
    seed = 3
    match = play_match(profile, make_players(["greedy"], seed), seed, 3)
    s = summarise(match, seed)
    wins = [w for hand in match.hands for w in hand.wins]
    assert s.hands == len(match.hands) == s.decisions.n == s.turns.n
    assert sum(s.wins) == len(wins) == sum(s.totals.values())
    assert sum(s.self_draws) + sum(s.deal_ins) == len(wins)
    assert s.deal_ins == [sum(w.discarder == i for w in wins) for i in range(4)]
    assert s.decisions.total == sum(len(hand.decisions) for hand in match.hands)
    assert sum(k * v for k, v in s.totals.items()) == sum(w.score.total for w in wins)
    assert s.pattern_counts == {
        p: sum(q.count for w in wins for q in w.score.patterns if q.id == p)
        for p in s.pattern_counts
    }
    start = profile.table.match.start_score
    assert s.points == [t - start for t in match.totals]
    assert sorted(s.places) == [0, 1, 2, 3]
    assert [match.placements().index(i) for i in range(4)] == s.places
    assert (profile.points is None) == (not s.fu)
    assert s.exhausted == sum(hand.exhausted for hand in match.hands)
    amounts = sum(
        int(e.data["amount"]) for h in match.hands for e in h.events if "amount" in e.data
    )
    assert sum(s.payment_amounts.values()) == amounts


def test_two_runs_over_disjoint_seeds_merge_into_the_run_over_both() -> None:
    whole = simulate("riichi_planet", 5, hands=2, progress=False).statistics
    first = simulate("riichi_planet", 2, hands=2, progress=False).statistics
    rest = simulate("riichi_planet", 3, seed=2, hands=2, progress=False).statistics
    rest.merge(first)  # in either order
    assert rest.to_json() == whole.to_json()
    assert whole.seeds == [[0, 4]] and whole.games == 5
    _valid(whole.to_json())
    with pytest.raises(MergeError, match=r"the runs overlap: both played seeds 0-1"):
        rest.merge(first)
    other = simulate("riichi_planet", 1, seed=9, hands=2, progress=False, bots=["random"])
    with pytest.raises(MergeError, match=r"differ in bots"):
        whole.merge(other.statistics)
    apart = simulate("riichi_planet", 1, seed=9, hands=2, progress=False).statistics
    whole.merge(apart)
    assert whole.seeds == [[0, 4], [9, 9]]


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_merge_on_the_command_line_is_exact_and_refuses_what_does_not_add(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["simulate", "sichuan_tfmj", "--hands", "2", "--no-progress", "--json"]
    for name, games, seed in (("a", 2, 0), ("b", 2, 2), ("all", 4, 0), ("gb", 1, 4)):
        profile = ["simulate", "gb_mcr"] if name == "gb" else base[:2]
        args = [*profile, *base[2:], str(tmp_path / f"{name}.json")]
        assert _run([*args, "--games", str(games), "--seed", str(seed)], capsys)[0] == 0
    merged = tmp_path / "merged.json"
    code, out, err = _run(
        [
            "simulate",
            "--merge",
            str(tmp_path / "b.json"),
            str(tmp_path / "a.json"),
            "--json",
            str(merged),
        ],
        capsys,
    )
    assert code == 0, err
    assert "sichuan_tfmj: 4 games, 8 hands (seeds 0-3), merged from 2 runs" in out
    got, want = json.loads(merged.read_text()), json.loads((tmp_path / "all.json").read_text())
    _valid(got), _valid(want)
    assert got.pop("run")["merged_from"] == 2
    want.pop("run")
    assert got == want
    a, gb = str(tmp_path / "a.json"), str(tmp_path / "gb.json")
    assert (
        _run(["simulate", "--merge", a, a], capsys)[2]
        .strip()
        .endswith("the runs overlap: both played seeds 0-1")
    )
    code, _, err = _run(["simulate", "--merge", a, gb], capsys)
    assert code == 2 and "differ in profile: 'sichuan_tfmj' and 'gb_mcr'" in err
    edited = json.loads((tmp_path / "b.json").read_text())
    edited["counts"]["seats"][0]["wins"] += 1
    (tmp_path / "edited.json").write_text(json.dumps(edited))
    code, _, err = _run(["simulate", "--merge", a, str(tmp_path / "edited.json")], capsys)
    assert code == 2 and "do not follow from its counts" in err, err
    (tmp_path / "not.json").write_text('{"format": "mjspec-simulation"}')
    code, _, err = _run(["simulate", "--merge", a, str(tmp_path / "not.json")], capsys)
    assert code == 2 and "not.json: not mjspec simulate --json output" in err, err
    code, _, err = _run(["simulate", "--merge", a], capsys)
    assert code == 2 and "two files or more" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("profile_id", ["riichi_planet", "gb_mcr", "classical_xmj"])
def test_the_table_names_totals_and_points_in_the_profiles_own_units(
    profile_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = load_profile(profile_id)
    code, out, _ = _run(
        ["simulate", profile_id, "--games", "1", "--hands", "3", "--no-progress"], capsys
    )
    assert code == 0
    units = {
        line.split()[0]
        for line in out.splitlines()
        if line.strip().endswith(")") and "(mean" in line
    }
    want = {profile.total_unit} | ({profile.points.unit.en} if profile.points else set())
    assert units == want
    assert ("han" in units) == (profile_id == "riichi_planet")  # the issue: riichi's was "fan"
    assert "bots: seat 0 greedy, seat 1 greedy, seat 2 greedy, seat 3 greedy" in out


def test_statistics_are_the_same_by_any_number_of_workers() -> None:
    one = simulate("sichuan_tfmj", 4, hands=2, progress=False)
    two = simulate("sichuan_tfmj", 4, hands=2, progress=False, workers=2, start="spawn")
    assert two.to_json()["run"]["start_method"] == "spawn"
    assert one.to_json()["counts"] == two.to_json()["counts"]
    assert Statistics.from_json(one.statistics.to_json()).to_json() == one.statistics.to_json()


def test_holm_adjusts_in_step_down_order() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def _game(seed: int, points: list[int], wins: int, pattern_wins: dict[str, int]) -> GameSummary:
    g = GameSummary(seed, hands=2, points=points, wins=[wins, 0, 0, 0])
    g.pattern_wins.update(pattern_wins)
    return g


def test_a_paired_difference_of_means_is_the_mean_difference_with_its_standard_error() -> None:
    a = [_game(i, [10 * i, -i, 0, 0], 1, {}) for i in range(6)]
    b = [_game(i, [3 * i * i, 0, 0, 0], 1, {}) for i in range(6)]
    d = paired("points", 0, a, b, lambda g: float(g.points[0]), lambda g: 1.0)
    diffs = [10 * i - 3 * i * i for i in range(6)]
    se = pystats.stdev(diffs) / math.sqrt(6)
    assert d.difference == pytest.approx(pystats.mean(diffs))
    assert d.ci95 == pytest.approx(
        [pystats.mean(diffs) - 1.959963984540054 * se, pystats.mean(diffs) + 1.959963984540054 * se]
    )
    assert d.p == pytest.approx(math.erfc(abs(pystats.mean(diffs)) / se / math.sqrt(2)))


def _report(profile_id: str, games: list[GameSummary]) -> SimulationReport:
    stats = Statistics.for_run(load_profile(profile_id), ["greedy"], None, None, games)
    return SimulationReport(stats, 1, 0.0, None, games)


def test_a_pattern_in_every_win_of_one_side_only_changed_and_a_shared_one_did_not() -> None:
    a = [_game(i, [0, 0, 0, 0], 1 + i % 3, {"x": 1 + i % 3, "y": i % 2}) for i in range(30)]
    b = [_game(i, [0, 0, 0, 0], 1 + i % 3, {"y": i % 2}) for i in range(30)]
    c = compare(_report("sichuan_tfmj", a), _report("sichuan_tfmj", b))
    assert [d.name for d, _ in c.changed()] == ["x"]
    (x,) = [d for d in c.patterns if d.name == "x"]
    assert x.a == 1.0 and x.b == 0.0 and x.difference == 1.0
    out = c.to_json()
    _valid(out)
    assert [p["significant"] for p in out["comparison"]["patterns"]] == [True, False]


def test_versus_on_the_command_line_plays_both_on_the_same_seeds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "ab.json"
    args = [
        "simulate",
        "riichi_planet",
        "--versus",
        "riichi_tenhou",
        "--games",
        "6",
        "--hands",
        "2",
    ]
    code, out, err = _run([*args, "--no-progress", "--json", str(out_file)], capsys)
    assert code == 0, err
    assert out.startswith("riichi_planet (A) versus riichi_tenhou (B): 6 games each (seeds 0-5)")
    data = json.loads(out_file.read_text())
    _valid(data)
    assert data["a"]["seeds"] == data["b"]["seeds"] == [[0, 5]]
    # Two hands of riichi_tenhou are two hands of riichi_planet (it changes the match's length
    # only), so every paired difference is zero and no pattern changed.
    assert data["a"]["counts"] == data["b"]["counts"]
    assert {d["difference"] for d in data["comparison"]["statistics"]} == {0.0}
    assert "patterns whose frequency per win changed (0 of" in out
    code, _, err = _run(["simulate", "riichi_planet", "--versus", "nope", "--games", "1"], capsys)
    assert code == 2 and "nope" in err


def _stderr_of_simulate(extra: list[str], terminal: bool) -> str:
    """What ``simulate`` writes to stderr when it is a terminal (a pty) or a pipe."""
    import os
    import subprocess
    import sys

    args = [sys.executable, "-m", "mjspec.app.cli", "simulate", "sichuan_tfmj"]
    args += ["--games", "3", "--hands", "1", *extra]
    if not terminal:
        done = subprocess.run(args, capture_output=True, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        return done.stderr.decode()
    proc, master = start_on_terminal(args, ROOT)
    seen = read_rest(master)
    os.close(master)
    proc.communicate(timeout=60)
    assert proc.returncode == 0, seen
    return seen.decode()


def test_the_progress_bar_shows_rate_and_eta_on_a_terminal_only() -> None:
    shown = _stderr_of_simulate([], terminal=True)
    assert "3/3" in shown and "game/s" in shown and "<" in shown  # done, rate, elapsed<remaining
    assert _stderr_of_simulate([], terminal=False) == ""  # a pipe or a file: nothing, no \r
    assert _stderr_of_simulate(["--no-progress"], terminal=True) == ""


def test_workers_are_spawned_unless_the_environment_says_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("MJSPEC_START_METHOD", raising=False)
    assert start_method() == "spawn"  # the start every platform has
    monkeypatch.setenv("MJSPEC_START_METHOD", "fork")
    assert start_method() == "fork"
    monkeypatch.setenv("MJSPEC_START_METHOD", "teleport")
    with pytest.raises(ValueError, match="'teleport' is not available here"):
        start_method()


def test_each_seats_agent_is_named_in_the_table_and_the_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "first.py").write_text(
        "class First:\n    def choose(self, obs):\n        return obs.legal[0]\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    bots = ["random", "first.py:First", "greedy", "mjspec.runtime.bots:GreedyBot"]
    stats = tmp_path / "s.json"
    args = ["simulate", "sichuan_tfmj", "--games", "2", "--hands", "1", "--no-progress"]
    code, out, err = _run([*args, "--bots", ",".join(bots), "--json", str(stats)], capsys)
    assert code == 0, err
    assert "  bots: " + ", ".join(f"seat {i} {b}" for i, b in enumerate(bots)) in out
    data = json.loads(stats.read_text())
    assert data["bots"] == bots
    assert [s["bot"] for s in data["statistics"]["seats"]] == bots
    code, out, err = _run([*args, "--bots", "first.py:Nobody"], capsys)
    assert code == 2 and "first.py:Nobody" in err


def test_backend_choices_are_checked_before_play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mjspec.app import ray_backend

    args = ["simulate", "sichuan_tfmj", "--games", "1", "--no-progress"]
    code, out, err = _run([*args, "--address", "10.0.0.1:6379"], capsys)
    assert code == 2 and "--address names a Ray cluster: it goes with --backend ray" in err
    monkeypatch.setattr(ray_backend, "available", lambda: False)
    code, out, err = _run([*args, "--backend", "ray"], capsys)
    assert code == 2 and "pip install 'mjspec[ray]'" in err and out == ""
    with pytest.raises(ValueError, match="unknown backend 'cloud'"):
        simulate("sichuan_tfmj", 1, backend="cloud")
    assert ray_backend.chunk_size(10_000, 2) == 64 and ray_backend.chunk_size(5, 2) == 1


def test_only_the_report_imports_matplotlib_and_only_the_ray_backend_ray() -> None:
    """The optional extras stay optional: one module each imports them (at any depth)."""
    import ast

    owners = {"matplotlib": Path("app/report.py"), "ray": Path("app/ray_backend.py")}
    wrong = []
    # The hand-written package (generated engines import only the runtime: tests/test_layers.py).
    paths = [
        *ROOT.glob("*.py"),
        *(p for d in ("app", "runtime", "compiler") for p in (ROOT / d).rglob("*.py")),
    ]
    for path in sorted(paths):
        rel = path.relative_to(ROOT)
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for n in names:
                top = n.split(".")[0]
                if top in owners and rel != owners[top]:
                    wrong.append(f"{rel}:{node.lineno}: {n}")
    assert not wrong, "\n".join(wrong)
