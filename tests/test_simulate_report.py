"""The HTML report of ``mjspec simulate --report`` (app/report.py): one self-contained page with
its plots inline, in the language asked for, for a plain run, merged runs and a --versus run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mjspec.app.cli import main
from mjspec.app.registry import load_profile

pytest.importorskip("matplotlib")


def _self_contained(page: str) -> None:
    """Nothing fetched from elsewhere: no script, no style sheet, no image or frame by address."""
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page and "<link" not in page and "<img" not in page
    assert "<iframe" not in page
    for attr in re.findall(r'(?:src|href)="([^"]*)"', page):
        assert attr.startswith("#"), attr  # an SVG's own references only


def test_a_runs_report_has_its_plots_inline_in_the_language_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "r.html"
    args = ["simulate", "riichi_planet", "--games", "3", "--hands", "2", "--no-progress"]
    assert main([*args, "--report", str(report), "--lang", "ja"]) == 0
    assert f"report written to {report}" in capsys.readouterr().out
    page = report.read_text("utf-8")
    _self_contained(page)
    assert '<html lang="ja">' in page
    profile = load_profile("riichi_planet")
    assert profile.names.ja in page  # the profile's own name in Japanese
    assert page.count("<svg") == 6  # points, places, patterns, totals, fu, hand length
    assert "翻" in page and "符" in page  # the totals in the profile's unit (han), and fu
    scored = [p for p in profile.patterns if p.names.ja in page]
    assert scored, "no pattern is named in Japanese"
    assert not [p for p in scored if re.search(rf">{re.escape(p.id)}<", page)]  # not by id


@pytest.mark.slow  # matplotlib draws eleven plots: seconds of CPU
def test_merged_runs_and_a_versus_run_have_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["simulate", "sichuan_tfmj", "--games", "2", "--hands", "1", "--no-progress"]
    assert main([*base, "--json", str(tmp_path / "a.json")]) == 0
    assert main([*base, "--seed", "2", "--json", str(tmp_path / "b.json")]) == 0
    merged = tmp_path / "m.html"
    files = [str(tmp_path / "a.json"), str(tmp_path / "b.json")]
    assert main(["simulate", "--merge", *files, "--report", str(merged)]) == 0
    page = merged.read_text("utf-8")
    _self_contained(page)
    assert "4 games, 4 hands; seeds 0-3" in page
    ab = tmp_path / "ab.html"
    versus = ["simulate", "sichuan_planet", "--versus", "sichuan_tfmj", "--games", "4"]
    assert main([*versus, "--hands", "1", "--no-progress", "--report", str(ab)]) == 0
    page = ab.read_text("utf-8")
    _self_contained(page)
    names = (load_profile("sichuan_planet").names.en, load_profile("sichuan_tfmj").names.en)
    assert f"A: {names[0]}" in page and f"B: {names[1]}" in page
    assert "Paired differences, A - B" in page and "Patterns whose frequency changed" in page
    assert page.count("<svg") == 5
    capsys.readouterr()


def test_a_report_without_matplotlib_is_refused_before_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "matplotlib" else real(name, *a),
    )
    report = tmp_path / "r.html"
    assert main(["simulate", "sichuan_tfmj", "--games", "1", "--report", str(report)]) == 2
    out, err = capsys.readouterr()
    assert "pip install 'mjspec[report]'" in err and out == ""  # nothing was played
    assert not report.exists()
