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


class _PathForTypeCheckers:
    """setuptools' editable install, plus one ``.pth`` line for type checkers.

    The package's folders map onto ``mjspec.*`` through an import hook (the repository root *is*
    the ``mjspec`` package), and mypy runs no import hooks, so with a plain editable install it
    cannot find ``mjspec`` or its ``py.typed``. This adds ``build/__editable_types__`` to the
    path, a folder whose ``mjspec`` is a symlink to this project: mypy (and Python, which then
    imports the same files through it) finds the package as it is laid out when installed from a
    wheel. Where no symlink can be made (Windows without the privilege) the install is as it was.
    """

    def __init__(self, inner: object, folder: str) -> None:
        self.inner = inner
        self.folder = folder

    def __call__(self, wheel: object, files: object, mapping: object) -> None:
        self.inner(wheel, files, mapping)  # type: ignore[operator]
        wheel.writestr("__editable__.mjspec-types.pth", self.folder + "\n")  # type: ignore

    def __enter__(self) -> "_PathForTypeCheckers":
        self.inner.__enter__()  # type: ignore[attr-defined]
        return self

    def __exit__(self, *exc: object) -> object:
        return self.inner.__exit__(*exc)  # type: ignore[attr-defined]


def _commands() -> dict[str, type]:
    try:
        from setuptools.command.editable_wheel import editable_wheel
    except ImportError:  # a setuptools without PEP 660 editable installs
        return {}

    class EditableWheel(editable_wheel):  # type: ignore[misc, valid-type]
        def _select_strategy(self, *args: object, **kwargs: object) -> object:
            inner = super()._select_strategy(*args, **kwargs)
            folder = os.path.join(_HERE, "build", "__editable_types__")
            link = os.path.join(folder, "mjspec")
            try:
                os.makedirs(folder, exist_ok=True)
                if not os.path.islink(link) or os.path.realpath(link) != os.path.realpath(_HERE):
                    if os.path.lexists(link):
                        os.unlink(link)
                    os.symlink(_HERE, link, target_is_directory=True)
            except OSError:
                return inner
            return _PathForTypeCheckers(inner, folder)

    return {"editable_wheel": EditableWheel}


setup(ext_modules=_extensions(), cmdclass=_commands())
