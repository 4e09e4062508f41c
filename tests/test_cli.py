"""The command line as users meet it: exit codes, one-line errors, the scoring contract."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from mjspec.compiler.cli import main, score_jsonl

from conftest import ROOT


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mjspec.compiler.cli", *args], input=stdin, capture_output=True, text=True, cwd=ROOT
    )


def test_score_human_form() -> None:
    res = run("score", "sichuan_tfmj", "11122233m456p77p", "--win", "7p", "--tsumo", "--missing", "s")
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
    bad.write_text("id: broken\nnames: {en: x, zh: x, ja: x, pt: x, fr: x}\nsource: {book: '9', title: t}\nscorin: {}\n")
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


def test_build_check_passes_on_the_repository() -> None:
    res = run("build", "--check")
    assert res.returncode == 0, res.stderr


def test_jsonl_contract() -> None:
    requests = [
        {"profile": "sichuan_tfmj", "concealed": "111m234567m234p9p", "win_tile": "9p", "win": "ron", "context": {"missing_suit": "s"}},
        {"profile": "sichuan_tfmj", "concealed": "1112345677899m", "win_tile": "9m", "win": "tsumo"},
        "not an object",
        {"profile": "sichuan_tfmj", "concealed": "111m234567m234p9s", "win_tile": "9s", "win": "ron", "context": {"missing_suit": "s"}},
        {"profile": "nope"},
        {"profile": "sichuan_tfmj", "concealed": "2p", "win_tile": "2p", "win": "ron", "context": {"missing_suit": "s"},
         "melds": [{"type": "pon", "tiles": "222m"}, {"type": "pon", "tiles": "555m"}, {"type": "pon", "tiles": "333p"}, {"type": "kakan", "tiles": "8888p"}]},
    ]
    text = "\n".join(json.dumps(r) for r in requests) + "\n{broken json\n"
    out = io.StringIO()
    assert score_jsonl(io.StringIO(text), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 7
    a = answers[0]
    assert a == {"legal": True, "patterns": [{"id": "ping_hu", "name": "Basic Hand (Ping Hu)", "value": 0, "count": 1}], "total": 0, "fu": None, "payments": {"discarder": 1}}
    assert answers[1]["total"] == 2 and answers[1]["payments"] == {"each": 5}
    assert "error" in answers[2]
    assert answers[3]["legal"] is False and "missing suit" in answers[3]["reason"]
    assert "unknown profile" in answers[4]["error"]
    assert answers[5]["total"] == 3 and {p["id"] for p in answers[5]["patterns"]} == {"all_triplets", "golden_hook", "root"}
    assert "not JSON" in answers[6]["error"]


def test_jsonl_through_the_console_script() -> None:
    req = {"profile": "sichuan_tfmj", "concealed": "1111223344556p", "win_tile": "6p", "win": "ron", "context": {"missing_suit": "m"}}
    res = run("score", "--jsonl", stdin=json.dumps(req) + "\n")
    assert res.returncode == 0
    answer = json.loads(res.stdout)
    assert answer["total"] == 5 and answer["payments"] == {"discarder": 8}  # 2 + 2 + 1 root, paid at the cap


def test_main_without_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage" in capsys.readouterr().out
