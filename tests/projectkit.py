"""A copy of the project to run the command line in, so that a test may build, edit and break it."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import ROOT

#: What makes up the ``mjspec`` package: code, specs, generated engines and documents.
COPIED = ("__init__.py", "py.typed", "app", "compiler", "runtime", "generated", "specs", "docs")


def copy_project(tmp_path: Path, extra: tuple[str, ...] = ()) -> Path:
    """The project copied as the package ``mjspec`` under ``tmp_path`` (import it with
    PYTHONPATH=tmp_path).

    The compiled native modules come along, with their times, as in a checkout after ``pip install
    -e .``: a ``mjspec build`` in the copy then compiles only the engines whose C source it changes
    or adds (compiler/native_build.py), instead of all of them (about 1 s of CPU each), and a module
    built from an older source is never used (its ``DIGEST`` must match the engine's).
    """
    pkg = tmp_path / "mjspec"
    pkg.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in COPIED + extra:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, pkg / name, ignore=ignore)
        elif src.exists():
            shutil.copy2(src, pkg / name)
    return pkg
