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
