"""Build every bundled profile: check, generate, and write only when all is well.

All output is computed in memory first; files are written only if every spec
checked and every module rendered, and each file is replaced atomically
(written beside its target, then renamed), so a failing build leaves the
previous generated files exactly as they were.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from .emit import render_registry
from .errors import SpecError, SpecErrors
from .ir import ProfileIR
from .resolve import SpecLibrary
from .verify import compile_profile, document_errors


@dataclass(frozen=True)
class Layout:
    """Where specs are read from and output is written to."""

    specs: Path
    generated: Path
    docs: Path
    root: Path
    locale: Path | None = None
    """The message catalogs of the rule documents (None: the ones bundled with the compiler)."""

    @classmethod
    def at(cls, root: Path) -> "Layout":
        """A project folder laid out like this one: ``specs/``, ``generated/``, ``docs/`` under ``root``."""
        return cls(specs=root / "specs", generated=root / "generated", docs=root / "docs", root=root)

    @property
    def rules(self) -> Path:
        """Where the rendered rule documents go."""
        return self.docs / "rules"

    @classmethod
    def bundled(cls) -> "Layout":
        """The project's own folders (an editable install points them at the work tree)."""
        specs = Path(str(resources.files("mjspec.specs")))
        generated = Path(str(resources.files("mjspec.generated")))
        root = specs.parent
        return cls(specs=specs, generated=generated, docs=root / "docs", root=root)


@dataclass
class BuildOutput:
    """The result of compiling every spec of a layout, before anything is written."""

    profiles: list[ProfileIR] = field(default_factory=list)
    files: dict[Path, str] = field(default_factory=dict)
    errors: list[SpecError] = field(default_factory=list)


def compile_library(layout: Layout) -> BuildOutput:
    """Check and render every spec in ``layout.specs``; collect every error.

    Besides the engine modules this renders the rule documents
    (``docs/rules/<id>.<lang>.md`` and ``docs/rules/index.md``), whose figures
    come from the engines just rendered.
    """
    out = BuildOutput()
    lib = SpecLibrary(layout.specs, layout.root)
    compiled = []
    for pid in lib.profile_ids():
        try:
            # validate runs the same compile_profile: what validates, builds
            c = compile_profile(lib.resolve_file(lib.path_of(pid)), expected_id=pid)
        except SpecErrors as e:
            out.errors.extend(e.errors)
            continue
        compiled.append(c)
        out.profiles.append(c.ir)
        out.files[layout.generated / f"{pid}.py"] = c.source
    if not out.errors:
        out.files[layout.generated / "__init__.py"] = render_registry([p.id for p in out.profiles])
        docs, errors = document_errors(compiled, layout.rules, layout.locale)
        out.files.update(docs)
        out.errors.extend(errors)
    return out


def stale_files(layout: Layout, output: BuildOutput) -> list[Path]:
    """Files whose content differs from what the specs generate, and generated files no spec makes."""
    stale = [p for p, text in sorted(output.files.items()) if not p.exists() or p.read_text("utf-8") != text]
    wanted = set(output.files)
    for p in sorted(layout.generated.glob("*.py")):
        if p not in wanted:
            stale.append(p)
    for p in sorted(layout.rules.glob("*.md")):  # docs/rules holds only rendered documents
        if p not in wanted:
            stale.append(p)
    return stale


def write_outputs(layout: Layout, output: BuildOutput) -> list[Path]:
    """Write every changed file atomically and remove generated files no spec makes; return what changed."""
    changed = []
    for path in stale_files(layout, output):
        if path in output.files:
            atomic_write(path, output.files[path])
        else:
            path.unlink()
        changed.append(path)
    return changed


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` beside ``path`` and rename it into place: readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
