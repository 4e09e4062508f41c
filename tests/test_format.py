"""The project's own code follows its own formatter (black, at the line length in pyproject.toml).

Generated modules are formatted by the build itself (and checked by ``mjspec build --check``);
this holds the hand-written ones to the same style.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HAND_WRITTEN = ["app", "runtime", "compiler", "tests", "benchmarks", "setup.py", "__init__.py"]


def test_hand_written_code_is_black_formatted() -> None:
    if shutil.which("black") is None and not Path(sys.executable).with_name("black").exists():
        pytest.skip("black is not installed")
    res = subprocess.run(
        [sys.executable, "-m", "black", "--check", "--quiet", *HAND_WRITTEN],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, "run `black " + " ".join(HAND_WRITTEN) + "`:\n" + res.stderr


def _line_length() -> int:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    return int(config["tool"]["black"]["line-length"])


def test_no_hand_written_line_is_longer_than_the_line_length() -> None:
    """black wraps code but leaves comments, docstrings and long strings as written: those are
    held to the same line length here."""
    limit = _line_length()
    files = [
        p
        for name in HAND_WRITTEN
        for p in sorted((ROOT / name).glob("**/*.py") if (ROOT / name).is_dir() else [ROOT / name])
    ]
    long = [
        f"{path.relative_to(ROOT)}:{number}: {len(line)} characters"
        for path in files
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if len(line) > limit
    ]
    assert not long, f"{len(long)} line(s) over {limit} characters:\n" + "\n".join(long[:20])
