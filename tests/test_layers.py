"""The one-way import rule (docs/design.md, "Layers"): each layer imports only the layers below it.

    app/        the command line, the registry of compiled profiles, importers, simulation, bench
    compiler/   compilation and rendering (reads specs, writes generated/ and docs/)
    generated/  the emitted engines: data plus thin glue over the runtime
    runtime/    the mechanisms, standard library only

So ``runtime`` imports the standard library and itself; ``generated`` the runtime (and the standard
library, and a child engine its parent engine's module); ``compiler`` the runtime and its own
third-party tools, never the app layer or the engines it emits. The rule is read off the source
(every ``import`` statement, at any depth, and every dynamic ``importlib`` call), so a lazy import
inside a function counts too.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}


def imported_modules(path: Path, package: str) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``path`` (a module of ``package``)."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append((node.lineno, name))
    return found


def layer_of(module: str) -> str:
    parts = module.split(".")
    if parts[0] == "mjspec":
        return parts[1] if len(parts) > 1 else "mjspec"
    return "stdlib" if parts[0] in STDLIB else "third-party"


ALLOWED = {
    "runtime": {"stdlib", "runtime"},
    "generated": {"stdlib", "runtime", "generated"},  # a child engine imports its parent's module
    "compiler": {"stdlib", "third-party", "runtime", "compiler"},
}


def sources(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


def package_of(path: Path) -> str:
    """The package a module of the project sits in (``mjspec.runtime.table`` for
    runtime/table/x.py)."""
    return ".".join(["mjspec", *path.parent.relative_to(ROOT).parts])


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_each_layer_imports_only_the_layers_below_it(layer: str) -> None:
    assert sources(layer), f"no modules found in {layer}/"
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: imports {module} ({layer_of(module)})"
        for path in sources(layer)
        for line, module in imported_modules(path, package_of(path))
        if layer_of(module) not in ALLOWED[layer]
    ]
    assert not wrong, "\n".join(wrong)


def test_the_runtime_names_no_engine_and_imports_dynamically_in_one_place() -> None:
    """The runtime learns of engines only through ``runtime/engines.py`` (each generated module
    registers itself), so no runtime module may spell an engine's module name or import by a
    computed name, except ``backend.load_native``, which loads the native module an engine
    registered."""
    wrong = []
    for path in sources("runtime"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if (
                    "mjspec.generated" in node.value
                    or "mjspec.app" in node.value
                    or "mjspec.compiler" in node.value
                ):
                    if not _is_docstring(tree, node):
                        wrong.append(
                            f"{path.relative_to(ROOT)}:{node.lineno}: names {node.value!r}"
                        )
            if isinstance(node, ast.Attribute) and node.attr in {"import_module", "__import__"}:
                if path.name != "backend.py":
                    wrong.append(
                        f"{path.relative_to(ROOT)}:{node.lineno}: imports by a computed name"
                    )
    assert not wrong, "\n".join(wrong)


def _is_docstring(tree: ast.Module, node: ast.Constant) -> bool:
    """A string standing alone as a statement documents (a docstring, or an attribute's), it is not
    code."""
    return any(isinstance(stmt, ast.Expr) and stmt.value is node for stmt in ast.walk(tree))


def test_the_rule_catches_an_upward_import(tmp_path: Path) -> None:
    """The reader itself: an upward import, relative or absolute, lazy or not, is seen."""
    module = tmp_path / "probe.py"
    module.write_text(
        "from . import tiles\nfrom ..app.registry import load_profile\n"
        "def f():\n    import mjspec.generated.gb_mcr\n    from mjspec.compiler import build\n",
        "utf-8",
    )
    layers = [layer_of(name) for _, name in imported_modules(module, "mjspec.runtime")]
    assert layers == ["runtime", "app", "generated", "compiler"]


TABLE = ROOT / "runtime" / "table"
TABLE_SHARED = {"common"}
"""The table's shared vocabulary: every mechanism module may import it."""
TABLE_COMPOSERS = {"machine", "__init__"}
"""The machine composes the mechanisms (and the package re-exports it): only they import them."""


def test_table_mechanisms_import_only_the_shared_vocabulary() -> None:
    """runtime/table/ is a machine over one module per mechanism: a mechanism imports the shared
    vocabulary (``common``) and runtime modules outside the table, never another mechanism, so the
    mechanisms form no import circle; only the machine composes them."""
    mechanisms = sorted(
        p.stem for p in TABLE.glob("*.py") if p.stem not in TABLE_SHARED | TABLE_COMPOSERS
    )
    assert {"wall", "claims", "kongs", "riichi", "settlement", "turn"} <= set(mechanisms)
    wrong = []
    for path in sorted(TABLE.glob("*.py")):
        if path.stem in TABLE_COMPOSERS:
            continue
        allowed = set() if path.stem in TABLE_SHARED else TABLE_SHARED
        for line, module in imported_modules(path, "mjspec.runtime.table"):
            parts = module.split(".")
            if parts[:3] != ["mjspec", "runtime", "table"]:
                continue
            name = parts[3] if len(parts) > 3 else "__init__"
            if name not in allowed:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: imports {module}")
    assert not wrong, "\n".join(wrong)


def test_the_table_rule_catches_a_mechanism_importing_another(tmp_path: Path) -> None:
    """The reader sees a mechanism's relative import of a sibling mechanism as such."""
    module = tmp_path / "probe.py"
    module.write_text(
        "from .common import SEATS\nfrom .claims import Claims\nfrom . import kongs\n"
    )
    names = [name for _, name in imported_modules(module, "mjspec.runtime.table")]
    assert names == [
        "mjspec.runtime.table.common",
        "mjspec.runtime.table.claims",
        "mjspec.runtime.table",
    ]
