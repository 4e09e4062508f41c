"""Compile generated native engines (``generated/native/<id>.c``) into extension modules.

``pip install -e .`` compiles the bundled profiles through setup.py; ``mjspec build``
calls :func:`compile_engines` so that a profile just written (a user's house rule)
gets its native engine too. A module is compiled when it is missing or older than
its source. Without a working C compiler nothing fails: the profile runs on the
Python backend, and the build says so. A module built from an older source is
never used (the engine's ``NATIVE_DIGEST`` must match the module's ``DIGEST``).
"""

from __future__ import annotations

import os
import shutil
import sysconfig
import tempfile
from pathlib import Path

__all__ = ["compile_engines", "module_path", "core_include"]


def core_include() -> Path:
    """The folder of mjscore.h and mjexpr.h."""
    return Path(__file__).resolve().parent.parent / "runtime" / "native"


def module_path(generated: Path, profile_id: str) -> Path:
    """Where the compiled engine of ``profile_id`` lives (beside its Python engine)."""
    return generated / f"_native_{profile_id}{sysconfig.get_config_var('EXT_SUFFIX') or '.so'}"


def compile_engines(generated: Path, profile_ids: list[str]) -> list[str]:
    """Compile every engine of ``profile_ids`` whose module is missing or stale; return what to tell
    the user."""
    notes: list[str] = []
    for pid in profile_ids:
        source = generated / "native" / f"{pid}.c"
        if not source.exists():
            continue
        target = module_path(generated, pid)
        if target.exists() and target.stat().st_mtime >= source.stat().st_mtime:
            continue
        try:
            _compile(source, target, pid)
        except Exception as e:  # a compiler's failure of any kind leaves the Python backend
            notes.append(
                f"{pid}: native engine not compiled ({_first_line(e)}); it runs on the Python "
                "backend"
            )
        else:
            notes.append(f"{pid}: native engine compiled -> {target.name}")
    return notes


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


def _compile(source: Path, target: Path, pid: str) -> None:
    # setuptools knows every platform's compiler and flags; imported only when a build compiles.
    from setuptools import Distribution, Extension  # type: ignore[import-untyped]
    from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

    with tempfile.TemporaryDirectory(prefix="mjspec-native-") as tmp:
        ext = Extension(
            f"_native_{pid}",
            sources=[str(source)],
            include_dirs=[str(core_include())],
            extra_compile_args=["-O2", "-std=gnu11"] if os.name != "nt" else [],
        )
        dist = Distribution({"name": f"mjspec-native-{pid}", "ext_modules": [ext]})
        cmd = build_ext(dist)
        cmd.build_lib = os.path.join(tmp, "lib")
        cmd.build_temp = os.path.join(tmp, "temp")
        cmd.ensure_finalized()
        cmd.run()
        built = Path(cmd.get_ext_fullpath(ext.name))
        staged = target.with_name(f".{target.name}.tmp")
        shutil.copyfile(built, staged)
        os.replace(staged, target)  # atomic: a running process keeps the module it loaded
