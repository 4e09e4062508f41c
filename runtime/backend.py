"""Which backend answers: the native (C) core where it was built, the Python reference otherwise.

The native extensions are accelerators built by the package's own build
(``pip install -e .`` compiles ``runtime/native/*.c``; ``mjspec build`` compiles a
profile's ``generated/native/<id>.c``). Every answer they give must be the one the
Python engine gives: tests compare the two. Setting ``MJSPEC_BACKEND=python`` in the
environment switches every native path off for the process, so the whole suite can
run on the reference alone (``MJSPEC_BACKEND=python python -m pytest``).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

__all__ = ["NATIVE_ALLOWED", "load_native", "native_module"]

#: False when the environment asks for the Python backend only.
NATIVE_ALLOWED: bool = os.environ.get("MJSPEC_BACKEND", "").strip().lower() != "python"

_LOADED: dict[str, ModuleType | None] = {}


def native_module(name: str) -> ModuleType | None:
    """The compiled module ``mjspec.<name>`` (e.g. ``runtime._shapes``), or None.

    None when the native backend is switched off or the module was not built (no C
    compiler at install time): callers then take the Python path, which gives the
    same answers more slowly.
    """
    return load_native(f"mjspec.{name}")


def load_native(dotted: str) -> ModuleType | None:
    """The compiled module named ``dotted`` in full (a generated engine's native module), or None as
    above."""
    if not NATIVE_ALLOWED:
        return None
    if dotted not in _LOADED:
        try:
            _LOADED[dotted] = importlib.import_module(dotted)
        except ImportError:
            _LOADED[dotted] = None
    return _LOADED[dotted]
