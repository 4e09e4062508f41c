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


def _extensions() -> list[Extension]:
    cores = sorted(os.path.basename(p)[:-2] for p in glob.glob(os.path.join(_HERE, "runtime", "native", "*.c")))
    return [_core(name) for name in cores]


setup(ext_modules=_extensions())
