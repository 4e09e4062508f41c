"""Build every bundled profile: check, generate, and write only when all is well.

All output is computed in memory first; files are written only if every spec
checked and every module rendered, and each file is replaced atomically
(written beside its target, then renamed), so a failing build leaves the
previous generated files exactly as they were.

:func:`build` is what ``mjspec build`` runs: when nothing the output depends on
has changed it takes the output of the last build from the cache
(``compiler/cache.py``) without importing the rest of the compiler, and when
something has, it compiles, formatting with black only the modules whose
unformatted text changed. The output is a plain list of ``(path, bytes)``, so a
further kind of output is one more entry.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mjspec.runtime.files import atomic_write

from . import cache

if TYPE_CHECKING:
    from .errors import SpecError
    from .ir import ProfileIR
    from .resolve import SpecLibrary
    from .verify import Compiled

#: A build's output: each file's path and its exact bytes.
Outputs = list[tuple[Path, bytes]]

#: The headers the build writes into the native core's folder (Layout.core): the situation's slots
#: (from runtime/context.py SITUATION) and the numbers of the shared enums (from
#: runtime/native_enums.py NATIVE_ENUMS).
SITUATION_HEADER = "mjsituation.h"
ENUMS_HEADER = "mjenums.h"


@dataclass(frozen=True)
class Layout:
    """Where specs are read from and output is written to."""

    specs: Path
    generated: Path
    docs: Path
    root: Path
    locale: Path | None = None
    """The message catalogs of the rule documents (None: the ones bundled with the compiler)."""
    core: Path | None = None
    """The native core's folder (``runtime/native``), which gets the headers written from
    runtime/context.py's SITUATION (``mjsituation.h``) and runtime/native_enums.py's NATIVE_ENUMS
    (``mjenums.h``); None: a project of its own, whose build leaves the installed runtime alone."""
    bundled_specs: Path | None = None
    """For a workspace (a user's folder of house rules, ``runtime/workspace.py``): the bundled specs
    its specs may extend. Its build compiles only its own specs (refusing a bundled profile's
    id), writes each engine whole (importing nothing of a bundled engine) and writes the
    manifest ``generated/workspace.json``. None: a project whose specs folder holds every
    profile it builds (the package's own source, or a copy laid out like it)."""

    @classmethod
    def at(cls, root: Path) -> "Layout":
        """A project folder laid out like this one: ``specs/``, ``generated/``, ``docs/`` under
        ``root``."""
        return cls(
            specs=root / "specs", generated=root / "generated", docs=root / "docs", root=root
        )

    @classmethod
    def workspace(cls, root: Path) -> "Layout":
        """A user's workspace at ``root`` (``runtime/workspace.py``): its own ``specs/``,
        ``generated/`` and ``docs/``, over the bundled specs of the installed package."""
        from mjspec.runtime import workspace

        bundled = cls.bundled().specs
        return cls(
            specs=root / workspace.SPECS,
            generated=root / workspace.GENERATED,
            docs=root / workspace.DOCS,
            root=root,
            bundled_specs=bundled,
        )

    @classmethod
    def chosen(cls, root: Path | None, bundled: bool = False) -> "Layout":
        """What ``mjspec build`` and ``new`` work on: with ``bundled``, the package's own profiles
        (refused for an installed package, which is never written to); else the folder ``root``
        (default: the current one): the package's own profiles when it is the package's source
        (how the project regenerates its engines), else a workspace of house rules."""
        from mjspec.runtime import workspace

        if bundled:
            if workspace.installed_in_site_packages():
                raise LayoutError(
                    "--bundled: the bundled profiles of an installed mjspec are never written to; "
                    'build house rules in a folder of your own (see the README, "Defining a '
                    'house rule")'
                )
            return cls.bundled()
        folder = (root if root is not None else Path.cwd()).resolve()
        if workspace.is_package_source(folder):
            return cls.bundled()
        if workspace.installed_package_folder(folder):
            raise LayoutError(
                f"{folder} is the installed mjspec package, which is never written to: keep house "
                'rules in a folder of your own (see the README, "Defining a house rule")'
            )
        return cls.workspace(folder)

    @property
    def rules(self) -> Path:
        """Where the rendered rule documents go."""
        return self.docs / "rules"

    @classmethod
    def bundled(cls) -> "Layout":
        """The project's own folders (an editable install points them at the work tree).

        Found from the packages' import locations, never from ``str()`` of a resource
        object: without ``generated/__init__.py`` that package is a namespace whose
        resource object prints as ``MultiplexedPath(...)``, which is no folder.
        """
        specs = package_folder("mjspec.specs")
        if specs is None:
            raise LayoutError(
                "cannot find the bundled specs (the package mjspec.specs is not installed)"
            )
        root = specs.parent
        generated = package_folder("mjspec.generated") or root / "generated"
        runtime = package_folder("mjspec.runtime") or root / "runtime"
        return cls(
            specs=specs,
            generated=generated,
            docs=root / "docs",
            root=root,
            core=runtime / "native",
        )


class LayoutError(Exception):
    """The folders to read or write cannot be told for sure: nothing is read or written."""


def package_folder(name: str) -> Path | None:
    """The one folder the package ``name`` is imported from; None when it is not found at all."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.submodule_search_locations is None:
        return None
    folders = sorted({str(Path(p).resolve()) for p in spec.submodule_search_locations})
    if len(folders) > 1:
        raise LayoutError(
            f"{name} is found in {len(folders)} folders ({', '.join(folders)}): cannot tell "
            "which to use; "
            f"restore {name.rsplit('.', 1)[-1]}/__init__.py"
        )
    return Path(folders[0]) if folders else None


@dataclass(frozen=True)
class ProfileSummary:
    """What ``mjspec build`` reports of one compiled profile (kept in the cache with the output)."""

    id: str
    patterns: int
    requirements: int
    examples: int
    invariants: int
    python_only: str | None = None
    """Why the profile has no native engine (file:line of what the lowering could not take), or
    None."""


@dataclass
class BuildOutput:
    """The result of compiling every spec of a layout, before anything is written.

    ``profiles`` holds the typed IR when the specs were compiled (empty when the
    output came from the cache); ``summaries`` is there either way.
    """

    profiles: "list[ProfileIR]" = field(default_factory=list)
    outputs: Outputs = field(default_factory=list)
    errors: "list[SpecError]" = field(default_factory=list)
    summaries: list[ProfileSummary] = field(default_factory=list)
    cached: bool = False

    @property
    def files(self) -> dict[Path, str]:
        """The output as text by path (every output is UTF-8 text today)."""
        return {path: data.decode("utf-8") for path, data in self.outputs}


def source_folders() -> list[Path]:
    """The code a build runs on, whose every byte can shape its output: the compiler and the
    runtime."""
    here = Path(__file__).resolve().parent
    runtime = package_folder("mjspec.runtime")
    return [here, runtime if runtime is not None else here.parent / "runtime"]


def build(layout: Layout) -> BuildOutput:
    """The output of ``layout``'s specs: from the cache when no input changed, else compiled (and
    cached)."""
    digest = cache.inputs_digest(layout, source_folders())
    hit = cache.load(layout, digest)
    if hit is not None:
        outputs, summaries = hit
        return BuildOutput(outputs=outputs, summaries=summaries, cached=True)
    out = compile_library(layout, cache.Memo(cache.memo_folder(layout, "black"), _black_salt()))
    if not out.errors:
        cache.store(layout, digest, out.outputs, out.summaries)
    return out


def _black_salt() -> str:
    from .emit import BLACK_MODE, black_version

    return f"black {black_version()} {BLACK_MODE!r}"


def compile_library(layout: Layout, memo: "cache.Memo | None" = None) -> BuildOutput:
    """Check and render every spec in ``layout.specs``; collect every error.

    Besides the engine modules (Python, and C where the lowering takes the profile) this renders
    the rule documents (``docs/rules/<id>.<lang>.md`` and ``docs/rules/index.md``), whose figures
    come from the engines just rendered. ``memo`` keeps black's results between builds. The
    compiler proper is imported here, not at the top of this module, so that a build served from
    the cache never loads black, jinja2 or jsonschema.
    """
    from .emit import render_registry
    from .errors import SpecErrors
    from .resolve import SpecLibrary
    from .verify import compile_profile, document_errors

    out = BuildOutput()
    lib = SpecLibrary(layout.specs, layout.root, fallback=layout.bundled_specs)
    own = lib.own_ids()  # a workspace's build writes its own profiles, never the bundled ones
    compiled = []
    files: dict[Path, str] = {}
    done: dict[str, Compiled] = {}
    failed: dict[str, list[SpecError]] = {}
    if layout.bundled_specs is not None:
        for pid in sorted(set(own) & {p.stem for p in layout.bundled_specs.glob("*.yaml")}):
            failed[pid] = [shadowing_error(lib.display(lib.path_of(pid)), pid)]
    for pid in _parents_first(lib, own):  # a child's module imports its parent's: parent first
        if pid in failed:
            continue
        try:
            # validate runs the same compile_profile: what validates, builds
            resolved = lib.resolve_file(lib.path_of(pid))
            parent = done.get(str(resolved.data.get("extends")))
            done[pid] = compile_profile(resolved, expected_id=pid, memo=memo, parent=parent)
        except SpecErrors as e:
            failed[pid] = list(e.errors)
    for pid in own:  # reported and written in the library's order
        if pid in failed:
            out.errors.extend(failed[pid])
            continue
        c = done[pid]
        compiled.append(c)
        ir = c.ir
        out.profiles.append(ir)
        out.summaries.append(
            ProfileSummary(
                ir.id,
                len(ir.patterns),
                len(ir.requirements),
                len(ir.examples),
                len(ir.invariants),
                c.python_only,
            )
        )
        files[layout.generated / f"{pid}.py"] = c.source
        if c.native is not None:
            files[layout.generated / "native" / f"{pid}.c"] = c.native
    if not out.errors:
        if layout.core is not None:
            from .native import enums_header, situation_header

            files[layout.core / SITUATION_HEADER] = situation_header()
            files[layout.core / ENUMS_HEADER] = enums_header()
        files[layout.generated / "__init__.py"] = render_registry(
            [p.id for p in out.profiles], memo
        )
        # The schema of a spec file, for editors (compiler/spec_schema.py): published with the
        # documents, and named by each spec's yaml-language-server line.
        from .check import profile_schema
        from .spec_schema import SPEC_SCHEMA_FILE, spec_file_schema_text

        files[layout.docs / SPEC_SCHEMA_FILE] = spec_file_schema_text(profile_schema())
        if layout.bundled_specs is not None:
            from mjspec.runtime import workspace

            files[layout.generated / workspace.MANIFEST] = workspace.manifest_text(
                layout.specs, [p.id for p in out.profiles], workspace.mjspec_version()
            )
        docs, errors = document_errors(compiled, layout.rules, layout.locale)
        files.update(docs)
        out.errors.extend(errors)
        if memo is not None and not errors:
            memo.prune()
    out.outputs = [(path, text.encode("utf-8")) for path, text in files.items()]
    return out


def shadowing_error(file: str, profile_id: str) -> "SpecError":
    """A workspace spec that takes a bundled profile's id: the bundled one would be unreachable."""
    from .errors import Location, SpecError

    return SpecError(
        f"{profile_id!r} is the id of a bundled profile: a house rule needs an id of its own "
        f"(start one with `mjspec new ID --from {profile_id}`)",
        Location(file, 1),
        ("id",),
    )


def _parents_first(lib: "SpecLibrary", ids: list[str]) -> list[str]:
    """Every profile id, each after the profile it extends (the child's module imports the
    parent's), otherwise in the library's order; a spec that cannot be read comes in that order too
    (its error is reported when it is compiled)."""
    from .errors import SpecErrors

    parent: dict[str, str | None] = {}
    for pid in ids:
        try:
            data = lib.load(lib.path_of(pid)).data
        except SpecErrors:
            data = None
        extends = data.get("extends") if isinstance(data, dict) else None
        parent[pid] = extends if isinstance(extends, str) and extends in ids else None
    out: list[str] = []

    def visit(pid: str, path: tuple[str, ...]) -> None:
        if pid in out or pid in path:  # a cycle is the resolver's error to report
            return
        above = parent[pid]
        if above is not None:
            visit(above, (*path, pid))
        out.append(pid)

    for pid in ids:
        visit(pid, ())
    return out


def stale_files(layout: Layout, output: BuildOutput) -> list[Path]:
    """Files whose content differs from what the specs generate, and generated files no spec
    makes."""
    stale = [p for p, data in sorted(output.outputs) if not p.exists() or p.read_bytes() != data]
    wanted = {p for p, _ in output.outputs}
    for p in sorted([*layout.generated.glob("*.py"), *layout.generated.glob("native/*.c")]):
        if p not in wanted:
            stale.append(p)
    for p in sorted(layout.rules.glob("*.md")):  # docs/rules holds only rendered documents
        if p not in wanted:
            stale.append(p)
    return stale


def write_outputs(layout: Layout, output: BuildOutput) -> list[Path]:
    """Write every changed file atomically and remove generated files no spec makes; return what
    changed."""
    changed = []
    data = dict(output.outputs)
    for path in stale_files(layout, output):
        if path in data:
            atomic_write(path, data[path])
        else:
            path.unlink()
        changed.append(path)
    return changed
