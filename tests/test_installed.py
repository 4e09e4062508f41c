"""The README's house-rule walk from a non-editable ``pip install`` into a fresh virtual
environment (slow: the install compiles every native engine; run with ``-m slow``).

In an empty folder, ``mjspec new``, ``validate``, ``build``, ``list``, ``score``, ``play``,
``replay``, ``simulate`` and ``diff`` work on a house rule; site-packages holds no new file after
them; and ``pip uninstall -y mjspec`` leaves nothing of mjspec behind in site-packages.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow

#: What the source copy leaves out: build products, caches, the developer's environment.
IGNORED = shutil.ignore_patterns(
    ".git", ".venv", "build", "*.egg-info", ".mjspec-cache", ".mypy_cache", ".pytest_cache",
    ".hypothesis", "__pycache__", "*.so", "*.pyc",
)  # fmt: skip

HAND = (
    "2p --win 2p --tsumo --meld minkan:2222m --meld pon:555m --meld pon:333p --meld pon:888p "
    "--missing s --context after_kong=true"
).split()


def files_under(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def test_a_house_rule_from_a_non_editable_install(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy: pip's in-tree build writes build/ into the source
    shutil.copytree(ROOT, source, ignore=IGNORED)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MJSPEC_ROOT")}
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(source)],
        capture_output=True,
        text=True,
        env=env,
    )
    if install.returncode != 0 and "No matching distribution" in install.stderr:
        pytest.skip("the package index cannot be reached for the dependencies")
    assert install.returncode == 0, install.stderr[-3000:]
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    assert (site / "mjspec" / "generated" / "sichuan_tfmj.py").is_file()
    # The schema the bundled specs' editor line names is installed beside them.
    assert (site / "mjspec" / "docs" / "schema" / "spec-1.json").is_file()
    installed = files_under(site)
    mjspec = str(venv / "bin" / "mjspec")
    folder = tmp_path / "house rules"  # a space in the path, as users have
    folder.mkdir()

    def run(*args: str) -> str:
        res = subprocess.run([mjspec, *args], cwd=folder, capture_output=True, text=True, env=env)
        assert res.returncode == 0, f"mjspec {' '.join(args)}\n{res.stdout}\n{res.stderr}"
        assert "Traceback" not in res.stderr
        return res.stdout

    out = run("new", "house", "--from", "sichuan_tfmj")
    assert "`mjspec validate specs/house.yaml`" in out
    spec = folder / "specs" / "house.yaml"
    spec.write_text(
        spec.read_text("utf-8")
        + 'scoring: {cap: 4}\npayments: {values: {unit: "2 ** min(fan, 4)"}}\nexamples: []\n',
        "utf-8",
    )
    assert "specs/house.yaml: ok (house:" in run("validate", "specs/house.yaml")
    assert "built 1 profile(s)" in run("build")
    assert "up to date: 1 profile(s)" in run("build", "--check")
    listed = run("list")
    assert any(line.startswith("house\t") for line in listed.splitlines()), listed
    assert "each pays 17" in run("score", "house", *HAND)
    assert "record written to game.json" in run(
        "play", "house", "--seed", "1", "--record", "game.json"
    )
    assert "game.json: ok: house, 8 hand(s)" in run("replay", "game.json")
    assert "house: 6 games" in run("simulate", "house", "--games", "6", "--workers", "2")
    assert "scoring.cap" in run("diff", "sichuan_tfmj", "house")
    # From elsewhere, with --root.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    res = subprocess.run(
        [mjspec, "score", "house", *HAND, "--root", str(folder)],
        cwd=elsewhere, capture_output=True, text=True, env=env,
    )  # fmt: skip
    assert res.returncode == 0 and "each pays 17" in res.stdout, res.stderr
    assert list(elsewhere.iterdir()) == []
    # Everything landed in the workspace; the installed package gained no file.
    for made in ("generated/house.py", "generated/workspace.json", "docs/rules/house.ja.md"):
        assert (folder / made).is_file(), made
    assert files_under(site) - installed == set()
    # The bundled profiles of an installed package are never built.
    res = subprocess.run(
        [mjspec, "build", "--bundled"], cwd=folder, capture_output=True, text=True, env=env
    )
    assert res.returncode == 2 and "never written to" in res.stderr
    res = subprocess.run(
        [mjspec, "build"], cwd=site / "mjspec", capture_output=True, text=True, env=env
    )
    assert res.returncode == 2 and "never written to" in res.stderr
    assert files_under(site) - installed == set()
    # Uninstalled, nothing of mjspec is left in site-packages.
    subprocess.run(
        [str(python), "-m", "pip", "uninstall", "-y", "-q", "mjspec"], check=True, env=env
    )
    left = sorted(p for p in files_under(site) | {p.name for p in site.iterdir()} if "mjspec" in p)
    assert left == [], left
