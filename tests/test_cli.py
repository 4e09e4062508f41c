"""The command line as users meet it: exit codes, one-line errors, the scoring contract."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mjspec.app.cli import main, score_jsonl
from mjspec.app.registry import load_profile

from conftest import ROOT


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mjspec.app.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_score_human_form() -> None:
    res = run(
        "score", "sichuan_tfmj", "11122233m456p77p", "--win", "7p", "--tsumo", "--missing", "s"
    )
    assert res.returncode == 0, res.stderr
    assert "Basic Hand (Ping Hu)" in res.stdout and "each pays 2" in res.stdout


def test_score_accepts_a_fourteen_tile_hand() -> None:
    res = run("score", "sichuan_tfmj", "1112345677899m9m", "--win", "9m", "--json")
    answer = json.loads(res.stdout)
    assert answer["legal"] and answer["total"] == 2 and answer["payments"] == {"discarder": 4}


@pytest.mark.parametrize(
    "args,needle",
    [
        (("score", "sichuan_tfmj", "1112345677899x", "--win", "9m"), "concealed:"),
        (("score", "sichuan_tfmj", "1112345677899m", "--win", "1z"), "no honor tiles"),
        (("score", "sichuan_tmfj", "1112345677899m", "--win", "9m"), "did you mean 'sichuan_tfmj'"),
        (("score", "sichuan_tfmj", "11m", "--win", "9m"), "must be 14"),
        (("score", "sichuan_tfmj", "1111223456778m", "--win", "1m"), "copies of 1m"),
        (("score", "sichuan_tfmj", "2p", "--win", "2p", "--meld", "chow:123m"), "melds[0].type"),
        (("validate", "nonexistent.yaml"), "no such file"),
    ],
)
def test_user_mistakes_are_one_line_with_status_2(args: tuple[str, ...], needle: str) -> None:
    res = run(*args)
    assert res.returncode == 2
    assert needle in res.stderr
    assert "Traceback" not in res.stderr


def test_validate_reports_file_line_path(tmp_path: Path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text(
        "id: broken\nnames: {en: x, zh: x, ja: x, pt: x, fr: x}\nsource: {book: '9', title: "
        "t}\nscorin: {}\n"
    )
    res = run("validate", str(bad))
    assert res.returncode == 2
    assert f"{bad}:4: scorin: unknown key 'scorin'; did you mean 'scoring'?" in res.stderr
    assert "Traceback" not in res.stderr


def test_validate_bundled_spec() -> None:
    res = run("validate", str(ROOT / "specs" / "sichuan_tfmj.yaml"))
    assert res.returncode == 0 and "ok" in res.stdout


def test_list() -> None:
    res = run("list")
    assert res.returncode == 0
    ids = [line.split("\t")[0] for line in res.stdout.splitlines()]
    assert "sichuan_tfmj" in ids and "sichuan_planet" in ids
    backends = {line.split("\t")[0]: line.split("\t")[3] for line in res.stdout.splitlines()}
    assert all(b == "native" or b.startswith("python (") for b in backends.values()), backends


def test_list_says_the_python_backend_and_why_when_native_is_off() -> None:
    import os

    res = subprocess.run(
        [sys.executable, "-m", "mjspec.app.cli", "list"],
        capture_output=True,
        text=True,
        env={**os.environ, "MJSPEC_BACKEND": "python"},
    )
    assert res.returncode == 0, res.stderr
    assert all(
        line.split("\t")[3] == "python (MJSPEC_BACKEND=python)" for line in res.stdout.splitlines()
    )


def test_a_stale_native_engine_is_never_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """A compiled engine whose digest is not the Python engine's (built from an older spec) stays
    unused."""
    import dataclasses

    from mjspec.runtime import engines, native_score

    if native_score.native_core() is None:
        pytest.skip("the native core was not built")
    profile = load_profile("sichuan_tfmj")
    registered = engines.compiled_engine("sichuan_tfmj")
    assert registered is not None and registered.native_digest is not None
    monkeypatch.setitem(
        engines._ENGINES, "sichuan_tfmj", dataclasses.replace(registered, native_digest="0" * 32)
    )
    monkeypatch.setitem(profile.memo, "native_score", native_score._learn(profile))
    assert native_score.native_profile(profile) is None
    assert "older than its spec" in native_score.backend_of(profile)


def test_build_check_passes_on_the_repository() -> None:
    res = run("build", "--check")
    assert res.returncode == 0, res.stderr


def test_jsonl_contract() -> None:
    requests = [
        {
            "profile": "sichuan_tfmj",
            "concealed": "111m234567m234p9p",
            "win_tile": "9p",
            "win": "ron",
            "context": {"missing_suit": "s"},
        },
        {
            "profile": "sichuan_tfmj",
            "concealed": "1112345677899m",
            "win_tile": "9m",
            "win": "tsumo",
        },
        "not an object",
        {
            "profile": "sichuan_tfmj",
            "concealed": "111m234567m234p9s",
            "win_tile": "9s",
            "win": "ron",
            "context": {"missing_suit": "s"},
        },
        {"profile": "nope"},
        {
            "profile": "sichuan_tfmj",
            "concealed": "2p",
            "win_tile": "2p",
            "win": "ron",
            "context": {"missing_suit": "s"},
            "melds": [
                {"type": "pon", "tiles": "222m"},
                {"type": "pon", "tiles": "555m"},
                {"type": "pon", "tiles": "333p"},
                {"type": "kakan", "tiles": "8888p"},
            ],
        },
    ]
    text = "\n".join(json.dumps(r) for r in requests) + "\n{broken json\n"
    out = io.StringIO()
    assert score_jsonl(io.StringIO(text), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 7
    a = answers[0]
    assert a == {
        "legal": True,
        "patterns": [{"id": "ping_hu", "name": "Basic Hand (Ping Hu)", "value": 0, "count": 1}],
        "total": 0,
        "fu": None,
        "payments": {"discarder": 1},
    }
    assert answers[1]["total"] == 2 and answers[1]["payments"] == {"each": 5}
    assert "error" in answers[2]
    assert answers[3]["legal"] is False and "missing suit" in answers[3]["reason"]
    assert "unknown profile" in answers[4]["error"]
    assert answers[5]["total"] == 3 and {p["id"] for p in answers[5]["patterns"]} == {
        "all_triplets",
        "golden_hook",
        "root",
    }
    assert "not JSON" in answers[6]["error"]


def test_jsonl_through_the_console_script() -> None:
    req = {
        "profile": "sichuan_tfmj",
        "concealed": "1111223344556p",
        "win_tile": "6p",
        "win": "ron",
        "context": {"missing_suit": "m"},
    }
    res = run("score", "--jsonl", stdin=json.dumps(req) + "\n")
    assert res.returncode == 0
    answer = json.loads(res.stdout)
    assert answer["total"] == 5 and answer["payments"] == {
        "discarder": 8
    }  # 2 + 2 + 1 root, paid at the cap


def test_main_without_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage" in capsys.readouterr().out


HEAVY = ("mjspec.compiler", "black", "jinja2", "jsonschema", "yaml")

LEAN_COMMANDS = {
    "score": ["score", "--jsonl"],
    "score one hand": [
        "score",
        "sichuan_tfmj",
        "11122233m456p77p",
        "--win",
        "7p",
        "--missing",
        "s",
        "--json",
    ],
    "play": ["play", "sichuan_tfmj", "--hands", "1", "--quiet"],
    "simulate": ["simulate", "sichuan_tfmj", "--games", "1", "--hands", "1", "--no-progress"],
    "list": ["list"],
}


@pytest.mark.parametrize("name", list(LEAN_COMMANDS))
def test_runtime_commands_never_import_the_compiler(name: str) -> None:
    """score, play and simulate run on the runtime alone: the compiler, black, jinja2, jsonschema
    stay unloaded."""
    code = (
        "import sys, json\n"
        "from mjspec.app.cli import main\n"
        "status = main(sys.argv[1:])\n"
        "sys.stdout.flush()\n"
        f"loaded = sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r} or "
        "m.startswith('mjspec.compiler'))\n"
        "print('\\nLOADED ' + json.dumps(loaded))\n"
        "raise SystemExit(status)\n"
    )
    stdin = json.dumps(
        {"profile": "sichuan_tfmj", "concealed": "1111223344556p", "win_tile": "6p", "win": "ron"}
    )
    res = subprocess.run(
        [sys.executable, "-c", code, *LEAN_COMMANDS[name]],
        input=stdin + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert res.returncode == 0, res.stderr
    loaded = json.loads(res.stdout.rsplit("LOADED ", 1)[1])
    assert loaded == []


def test_replay_never_imports_the_compiler(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert (
        run("play", "sichuan_tfmj", "--hands", "1", "--quiet", "--record", str(record)).returncode
        == 0
    )
    code = (
        "import sys\nfrom mjspec.app.cli import main\nstatus = main(sys.argv[1:])\n"
        "assert not [m for m in sys.modules if m.startswith(('mjspec.compiler', 'black', "
        "'jinja2', 'jsonschema'))]\n"
        "raise SystemExit(status)\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code, "replay", str(record)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert res.returncode == 0, res.stderr


def test_version() -> None:
    import mjspec

    res = run("--version")
    assert res.returncode == 0 and res.stdout == f"mjspec {mjspec.__version__}\n"


def test_python_dash_m_runs_the_same_command_line() -> None:
    import mjspec

    res = subprocess.run(
        [sys.executable, "-m", "mjspec", "--version"], capture_output=True, text=True, cwd=ROOT
    )
    assert res.returncode == 0 and res.stdout == f"mjspec {mjspec.__version__}\n", res.stderr
    res = subprocess.run(
        [sys.executable, "-m", "mjspec", "list"], capture_output=True, text=True, cwd=ROOT
    )
    assert res.returncode == 0 and res.stdout.startswith("classical_xmj\t"), res.stderr


def test_exit_status_one_for_a_replay_that_diverges(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert (
        run("play", "sichuan_tfmj", "--hands", "1", "--quiet", "--record", str(record)).returncode
        == 0
    )
    data = json.loads(record.read_text())
    data["totals"] = [t + 1 for t in data["totals"]]
    record.write_text(json.dumps(data))
    res = run("replay", str(record))
    assert res.returncode == 1, res.stderr
    assert "replay failed" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.parametrize(
    "content,needle",
    [
        ('{"format": "not ours"}', "not a valid record"),
        ("[1, 2", "not JSON"),
        (b"\xff\xfe".decode("latin-1"), "not"),
        ("[" * 100_000 + "]" * 100_000, "levels deep"),
    ],
)
def test_exit_status_two_for_a_record_that_is_bad_input(
    tmp_path: Path, content: str, needle: str
) -> None:
    record = tmp_path / "game.json"
    record.write_text(content, encoding="latin-1")
    res = run("replay", str(record))
    assert res.returncode == 2, res.stderr
    assert needle in res.stderr and "Traceback" not in res.stderr


def test_exit_status_two_for_bad_usage() -> None:
    assert run("score", "--no-such-flag").returncode == 2
    assert run("no-such-command").returncode == 2
    assert (
        run(
            "play",
            "sichuan_tfmj",
            "--record",
            "/proc/no/such/dir/game.json",
            "--hands",
            "1",
            "--quiet",
        ).returncode
        == 2
    )


def test_ctrl_c_during_simulate_reports_once_and_leaves_nothing(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole process group, as from a terminal: one line, exit 130, no orphans,
    no file."""
    import os
    import signal
    import time

    from ptykit import read_rest, read_until, start_on_terminal

    stats = tmp_path / "stats.json"
    # stderr is a terminal, as a user's is: the progress bar shows there (and only there).
    proc, master = start_on_terminal(
        [
            sys.executable,
            "-m",
            "mjspec.app.cli",
            "simulate",
            "sichuan_tfmj",
            # Far more than can finish before the signal, native or not.
            "--games",
            "2000",
            "--workers",
            "2",
            "--json",
            str(stats),
        ],
        ROOT,
    )
    # The bar counts a finished game: the workers are running.
    progress = read_until(master, rb"[1-9][0-9]*/2000")
    os.killpg(proc.pid, signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    stderr = (progress + read_rest(master)).decode()
    os.close(master)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
    [line] = [ln for ln in stderr.splitlines() if "interrupted" in ln]
    assert re.fullmatch(
        r"mjspec: simulate interrupted: \d+ of 2000 game\(s\) finished; nothing written", line
    )
    assert not stats.exists() and not list(tmp_path.iterdir())
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # every worker is gone with its parent
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("worker processes outlived the interrupted simulate")
