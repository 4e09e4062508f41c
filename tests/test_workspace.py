"""The workspace: house rules in the user's own folder (``runtime/workspace.py``), on the editable
install. ``--root DIR`` names it from anywhere; the bundled profiles are never written to.
(``tests/test_installed.py``, slow, walks the same from a non-editable install.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mjspec.runtime import workspace
from mjspec.compiler.build import Layout, LayoutError

from conftest import ROOT

HAND = (
    "2p --win 2p --tsumo --meld minkan:2222m --meld pon:555m --meld pon:333p --meld pon:888p "
    "--missing s --context after_kong=true"
).split()


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != workspace.ENV}
    return subprocess.run(
        [sys.executable, "-m", "mjspec.app.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A workspace with one house rule (cap 4), built with ``--root`` from another folder."""
    base = tmp_path_factory.mktemp("ws")
    root, elsewhere = base / "rules", base / "elsewhere"
    elsewhere.mkdir()
    res = run("new", "house", "--from", "sichuan_tfmj", "--root", str(root), cwd=elsewhere)
    assert res.returncode == 0, res.stderr
    assert f"mjspec build --root {root}" in res.stdout  # the next step names the workspace
    spec = root / "specs" / "house.yaml"
    spec.write_text(
        spec.read_text("utf-8")
        + 'scoring: {cap: 4}\npayments: {values: {unit: "2 ** min(fan, 4)"}}\nexamples: []\n',
        "utf-8",
    )
    res = run("build", "--root", str(root), cwd=elsewhere)
    assert res.returncode == 0, res.stderr
    return root, elsewhere


def test_new_and_build_write_only_in_the_workspace(built: tuple[Path, Path]) -> None:
    root, elsewhere = built
    assert list(elsewhere.iterdir()) == []
    names = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
    assert {
        "specs/house.yaml",
        "docs/schema/spec-1.json",
        "generated/__init__.py",
        "generated/house.py",
        "generated/workspace.json",
        "docs/rules/index.md",
        "docs/rules/house.en.md",
        "docs/rules/house.zh.md",
    } <= names, sorted(names)
    assert not (ROOT / "generated" / "house.py").exists()
    assert not (ROOT / "specs" / "house.yaml").exists()
    manifest = json.loads((root / "generated" / "workspace.json").read_text("utf-8"))
    assert manifest["profiles"] == ["house"] and set(manifest["specs"]) == {"house.yaml"}
    # The workspace's registry lists its own profile only; the engine is whole (it imports no
    # bundled engine: a newer mjspec's engines cannot break it).
    assert "house" in (root / "generated" / "__init__.py").read_text("utf-8")
    assert "sichuan_tfmj" not in (root / "generated" / "__init__.py").read_text("utf-8")
    assert "from .sichuan_tfmj" not in (root / "generated" / "house.py").read_text("utf-8")
    check = run("build", "--check", "--root", str(root), cwd=elsewhere)
    assert check.returncode == 0 and "up to date: 1 profile(s)" in check.stdout, check.stderr


def test_every_command_finds_the_house_rule_with_root(built: tuple[Path, Path]) -> None:
    root, elsewhere = built
    listed = run("list", "--root", str(root), cwd=elsewhere)
    assert listed.returncode == 0, listed.stderr
    line = next(row for row in listed.stdout.splitlines() if row.startswith("house\t"))
    assert line.endswith("(extends sichuan_tfmj)")
    assert "riichi_tenhou\t" in listed.stdout  # the bundled ones beside it
    score = run("score", "house", *HAND, "--root", str(root), cwd=elsewhere)
    assert score.returncode == 0, score.stderr
    assert "total: 4 fan\n" in score.stdout and "each pays 17" in score.stdout
    # The same hand under the parent is capped: the ids reach two different engines.
    parent = run("score", "sichuan_tfmj", *HAND, "--root", str(root), cwd=elsewhere)
    assert "capped at 3" in parent.stdout
    # Without --root, from another folder, the house rule is unknown (and said so in one line).
    alone = run("score", "house", *HAND, cwd=elsewhere)
    assert alone.returncode == 2 and "unknown profile 'house'" in alone.stderr
    assert "Traceback" not in alone.stderr
    diff = run("diff", "sichuan_tfmj", "house", "--root", str(root), cwd=elsewhere)
    assert diff.returncode == 0 and "scoring.cap" in diff.stdout, diff.stderr
    validate = run("validate", "--root", str(root), cwd=elsewhere)  # every spec of the workspace
    assert validate.returncode == 0 and "house.yaml: ok (house:" in validate.stdout


def test_the_native_engine_of_a_house_rule_is_used(built: tuple[Path, Path]) -> None:
    root, elsewhere = built
    from mjspec.compiler.native_build import module_path

    if not module_path(root / "generated", "house").exists():
        pytest.skip("no C compiler here: the house rule runs on the Python backend")
    listed = run("list", "--root", str(root), cwd=elsewhere)
    line = next(row for row in listed.stdout.splitlines() if row.startswith("house\t"))
    assert "\tnative\t" in line, line


def test_play_replay_simulate_in_the_workspace(built: tuple[Path, Path]) -> None:
    root, _ = built
    play = run("play", "house", "--seed", "3", "--hands", "2", "--record", "g.json", cwd=root)
    assert play.returncode == 0, play.stderr
    replay = run("replay", "g.json", cwd=root)
    assert replay.returncode == 0 and "ok: house, 2 hand(s)" in replay.stdout, replay.stderr
    sim = run(
        "simulate",
        "house",
        "--games",
        "2",
        "--workers",
        "2",
        "--hands",
        "1",
        "--no-progress",
        cwd=root,
    )
    assert sim.returncode == 0 and "house: 2 games" in sim.stdout, sim.stderr
    (root / "g.json").unlink()


def test_an_engine_older_than_its_spec_is_never_run(
    tmp_path: Path, built: tuple[Path, Path]
) -> None:
    import shutil

    root = tmp_path / "copy"
    shutil.copytree(built[0], root)
    spec = root / "specs" / "house.yaml"
    spec.write_text(spec.read_text("utf-8").replace("cap: 4", "cap: 5"), "utf-8")
    res = run("score", "house", *HAND, cwd=root)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "specs/house.yaml changed since the last `mjspec build`" in res.stderr
    assert "run `mjspec build` first" in res.stderr
    # A bundled profile still answers in that folder.
    assert run("score", "sichuan_tfmj", *HAND, cwd=root).returncode == 0
    # A spec written but never built is named as such.
    (root / "specs" / "other.yaml").write_text("id: other\n", "utf-8")
    res = run("play", "other", cwd=root)
    assert res.returncode == 2 and "other.yaml is not built yet" in res.stderr


def test_a_workspace_spec_may_not_take_a_bundled_id(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    text = (ROOT / "specs" / "sichuan_planet.yaml").read_text("utf-8")
    (specs / "sichuan_planet.yaml").write_text(text, "utf-8")
    res = run("build", cwd=tmp_path)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "specs/sichuan_planet.yaml:1: id: 'sichuan_planet' is the id of a bundled profile" in (
        res.stderr
    )
    assert not (tmp_path / "generated").exists()  # nothing written
    # validate checks it (a changed copy is worth checking) and says the build refuses it
    res = run("validate", "specs/sichuan_planet.yaml", cwd=tmp_path)
    assert res.returncode == 0 and "the id of a bundled profile" in res.stderr
    res = run("new", "sichuan_planet", "--from", "sichuan_tfmj", cwd=tmp_path / "specs")
    assert res.returncode == 2 and "is a bundled profile" in res.stderr


def test_an_empty_workspace_says_how_to_start(tmp_path: Path) -> None:
    for command in (("build",), ("validate",)):
        res = run(*command, cwd=tmp_path)
        assert res.returncode == 2 and "mjspec new ID --from PROFILE" in res.stderr, res.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_package_source_builds_the_bundled_profiles() -> None:
    assert Layout.chosen(ROOT) == Layout.bundled()
    assert Layout.chosen(ROOT / "specs").bundled_specs is not None  # a folder below is a workspace


def test_an_installed_package_is_never_written_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workspace, "installed_in_site_packages", lambda: True)
    with pytest.raises(LayoutError, match="never written to"):
        Layout.chosen(ROOT)
    with pytest.raises(LayoutError, match="never written to"):
        Layout.chosen(None, bundled=True)
    assert Layout.chosen(tmp_path) == Layout.workspace(tmp_path.resolve())
