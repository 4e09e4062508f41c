"""Native extensions of mjspec; everything else is declared in pyproject.toml.

Each extension is ``optional``: without a working C compiler the install still
succeeds and every profile runs on the Python backend (``mjspec list`` says which).
The C sources use only the CPython C API (no Cython, no cffi at run time): the
core is small, hot and written once, and the generated per-profile sources are
plain C emitted by the compiler.
"""

from __future__ import annotations

import glob
import os

from setuptools import Extension, setup

_HERE = os.path.dirname(os.path.abspath(__file__))
_FLAGS = ["-O2", "-std=c11"] if os.name != "nt" else []


def _core(name: str) -> Extension:
    """``runtime/native/<name>.c`` as ``mjspec.runtime._<name>``."""
    return Extension(
        f"mjspec.runtime._{name}",
        sources=[f"runtime/native/{name}.c"],
        include_dirs=["runtime/native"],
        extra_compile_args=_FLAGS,
        optional=True,
    )


def _engine(profile_id: str) -> Extension:
    """``generated/native/<id>.c`` (emitted by `mjspec build`) as
    ``mjspec.generated._native_<id>``."""
    return Extension(
        f"mjspec.generated._native_{profile_id}",
        sources=[f"generated/native/{profile_id}.c"],
        include_dirs=["runtime/native"],
        # Lowered expressions use statement expressions, a GNU C extension gcc and clang share.
        extra_compile_args=["-O2", "-std=gnu11"] if os.name != "nt" else [],
        optional=True,
    )


def _names(*folder: str) -> list[str]:
    return sorted(os.path.basename(p)[:-2] for p in glob.glob(os.path.join(_HERE, *folder, "*.c")))


def _extensions() -> list[Extension]:
    return [
        *(_core(n) for n in _names("runtime", "native")),
        *(_engine(n) for n in _names("generated", "native")),
    ]


setup(ext_modules=_extensions())
