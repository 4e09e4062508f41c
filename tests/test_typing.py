"""The runtime, the compiler, the command line, the public API and every generated engine pass
``mypy --strict``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT


@pytest.mark.skipif(
    shutil.which("mypy", path=str(Path(sys.executable).parent)) is None, reason="mypy not installed"
)
def test_mypy_strict(tmp_path: Path) -> None:
    # mypy cannot see the editable install's folder mapping; a symlink named
    # `mjspec` pointing at the project root gives it the real package layout.
    (tmp_path / "mjspec").symlink_to(ROOT, target_is_directory=True)
    mypy = str(Path(sys.executable).parent / "mypy")
    # mypy's own incremental cache, kept between runs in its usual (git-ignored) folder: a module
    # is checked again when its text or that of a module it depends on changed (mypy compares
    # hashes when the path or time differs), so an unchanged tree takes 0.3 s of CPU instead of
    # 10 s, and a type error in any module is still found.
    cache_dir = ROOT / ".mypy_cache"
    res = subprocess.run(
        [
            mypy,
            "--strict",
            "--cache-dir",
            str(cache_dir),
            "-p",
            "mjspec.runtime",
            "-p",
            "mjspec.generated",
            "-p",
            "mjspec.compiler",
            "-p",
            "mjspec.app",
            "-m",
            "mjspec",  # the package root: the public API's names
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stdout + res.stderr
