"""The runtime, the compiler, the command line, the public API and every generated engine pass
``mypy --strict``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

#: A user's script: strict mypy finds every name it uses typed, or it fails.
USER_SCRIPT = """\
import mjspec

profile: mjspec.Profile = mjspec.load_profile("gb_mcr")
score: mjspec.Score = mjspec.score_hand(profile, "123m456p789s1122z", "2z")
total: int = score.total
match: mjspec.Match = mjspec.play_match(profile, [mjspec.GreedyBot(s) for s in range(4)], seed=1)
answer: dict[str, object] = mjspec.score({"profile": "gb_mcr"})
"""


def _installed_visibly() -> bool:
    """This checkout is on the path as a plain ``mjspec`` folder (the editable install's link)."""
    link = ROOT / "build" / "__editable_types__"
    return str(link) in sys.path and (link / "mjspec").resolve() == ROOT


@pytest.mark.skipif(
    shutil.which("mypy", path=str(Path(sys.executable).parent)) is None, reason="mypy not installed"
)
def test_mypy_strict(tmp_path: Path) -> None:
    """The package as installed (the README's editable install puts it on mypy's path:
    setup.py), and a user's script that calls the public API, checked together."""
    (tmp_path / "user.py").write_text(USER_SCRIPT, encoding="utf-8")
    if not _installed_visibly():  # an install without the symlink (or not from this checkout)
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
            "-m",
            "user",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stdout + res.stderr


@pytest.mark.slow
def test_a_wheel_install_is_typed_for_mypy(tmp_path: Path) -> None:
    """Built as a wheel and installed in a fresh environment, the package carries ``py.typed``
    and its types reach a user's script (a few minutes: the wheel compiles the native engines)."""
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("mjspec-*.whl")
    env = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    python = str(env / "bin" / "python")
    subprocess.run(
        [python, "-m", "pip", "install", "-q", str(wheel), "mypy"], check=True, capture_output=True
    )
    user = tmp_path / "user"
    user.mkdir()
    (user / "user.py").write_text(USER_SCRIPT, encoding="utf-8")
    res = subprocess.run(
        [python, "-m", "mypy", "--strict", "user.py"], cwd=user, capture_output=True, text=True
    )
    assert res.returncode == 0, res.stdout + res.stderr
    bad = USER_SCRIPT + 'wrong: str = mjspec.score_hand(profile, "1m", "1m")\n'
    (user / "user.py").write_text(bad, encoding="utf-8")
    res = subprocess.run(
        [python, "-m", "mypy", "--strict", "user.py"], cwd=user, capture_output=True, text=True
    )
    assert res.returncode == 1 and 'has type "Score"' in res.stdout, res.stdout
