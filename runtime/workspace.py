"""A workspace: the user's own folder of house rules, their engines and their documents.

``mjspec`` works on the current folder, or on the folder ``--root DIR`` names (every command takes
it). A workspace holds::

    specs/ID.yaml               the user's specs (each may extend a bundled profile)
    generated/ID.py             the engines ``mjspec build`` wrote (and native/ID.c, and the
    generated/workspace.json    compiled native modules), with this manifest of the build
    docs/rules/ID.LANG.md       the rule documents
    docs/schema/spec-1.json     the spec-file schema, which each spec's editor line names
    .mjspec-cache/              the build cache

The bundled profiles come from the installed package and are never written to: a workspace spec
may extend one, but may not take a bundled profile's id. The one folder whose ``mjspec build``
writes the bundled engines is the package's own source (a checkout, editable install or copy):
that is how the project regenerates them (:func:`is_package_source`).

The manifest records the digest of every spec the engines were built from and the mjspec
version that built them; the registry (``mjspec.app.registry``) imports a workspace engine only
when both still hold, so an engine older than its spec is never run (as a native module older
than its spec is never used). Standard library only: the registry reads this at scoring time.
"""

from __future__ import annotations

import hashlib
import json
import os
import sysconfig
from dataclasses import dataclass
from pathlib import Path

#: The folders of a workspace, relative to its root.
SPECS, GENERATED, DOCS = "specs", "generated", "docs"
#: The build's manifest, in generated/.
MANIFEST = "workspace.json"
MANIFEST_FORMAT = 1
#: The environment variable naming the workspace (the command line sets it for the processes it
#: starts: a spawned ``simulate`` worker finds the same house rules).
ENV = "MJSPEC_ROOT"


class WorkspaceError(LookupError):
    """A workspace engine that cannot be used as it is (stale, or built by another mjspec)."""


def spec_digests(specs: Path) -> dict[str, str]:
    """The SHA-256 of every ``*.yaml`` in ``specs``, by file name."""
    if not specs.is_dir():
        return {}
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(specs.glob("*.yaml"))
    }


def manifest_text(specs: Path, profile_ids: list[str], version: str) -> str:
    """The manifest a workspace build writes: what it built, from which spec bytes, by which
    mjspec."""
    data = {
        "format": MANIFEST_FORMAT,
        "mjspec": version,
        "profiles": sorted(profile_ids),
        "specs": spec_digests(specs),
    }
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def _package_root() -> Path:
    """The folder of the imported ``mjspec`` package (this module is its runtime/workspace.py)."""
    return Path(__file__).resolve().parent.parent


def mjspec_version() -> str:
    """The installed mjspec's version (a workspace's engines are rebuilt by another one)."""
    from importlib import metadata

    try:
        return metadata.version("mjspec")
    except metadata.PackageNotFoundError:  # a copy run from its folder, never installed
        return "unknown"


def installed_in_site_packages() -> bool:
    """Whether the imported package is an installed copy (a non-editable install, for the
    system, a virtual environment or the user: a site-packages or dist-packages folder)."""
    import site

    here = _package_root()
    if here.parent.name in ("site-packages", "dist-packages"):
        return True
    places = {sysconfig.get_paths()[k] for k in ("purelib", "platlib")}
    places.update(getattr(site, "getsitepackages", lambda: [])())
    places.add(site.getusersitepackages())
    return any(here.is_relative_to(Path(p).resolve()) for p in places if p)


def is_package_source(root: Path) -> bool:
    """Whether ``root`` is the imported package's own source folder, whose ``mjspec build`` writes
    the bundled engines: the package's folder itself, when it is not an installed copy in
    site-packages (an installed package is never written to)."""
    return root.resolve() == _package_root() and not installed_in_site_packages()


def installed_package_folder(root: Path) -> bool:
    """Whether ``root`` is (inside) the installed, non-editable package: never a workspace."""
    return installed_in_site_packages() and root.resolve().is_relative_to(_package_root())


@dataclass(frozen=True)
class Workspace:
    """The built engines of one workspace folder, as its last ``mjspec build`` left them."""

    root: Path

    @property
    def generated(self) -> Path:
        return self.root / GENERATED

    @property
    def specs(self) -> Path:
        return self.root / SPECS

    def manifest(self) -> dict[str, object] | None:
        """The last build's manifest, or None when nothing was built here (or it is unreadable)."""
        try:
            data = json.loads((self.generated / MANIFEST).read_text("utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
            return None
        return data

    def profile_ids(self) -> tuple[str, ...]:
        """The ids of the engines built here."""
        data = self.manifest()
        ids = data.get("profiles") if data is not None else None
        if not isinstance(ids, list):
            return ()
        return tuple(str(i) for i in ids)

    def unbuilt(self) -> list[str]:
        """The spec files here that the last build did not see as they are now (changed, added or
        removed), by file name."""
        data = self.manifest()
        built = data.get("specs") if data is not None else None
        if not isinstance(built, dict):
            built = {}
        now = spec_digests(self.specs)
        return sorted(n for n in set(now) | set(built) if now.get(n) != built.get(n))

    def check_fresh(self, profile_id: str) -> None:
        """Raise :class:`WorkspaceError` unless the engines here were built from the specs as they
        are, by this mjspec."""
        __version__ = mjspec_version()
        data = self.manifest() or {}
        if data.get("mjspec") != __version__:
            raise WorkspaceError(
                f"{profile_id}: the engines in {self.generated} were built by mjspec "
                f"{data.get('mjspec')}, this is {__version__}: run `mjspec build{self._where()}`"
            )
        stale = self.unbuilt()
        if stale:
            raise WorkspaceError(
                f"{profile_id}: {', '.join(f'{SPECS}/{n}' for n in stale)} changed since the last "
                f"`mjspec build` in {self.root}: run `mjspec build{self._where()}` first"
            )

    def _where(self) -> str:
        try:
            same = self.root.resolve() == Path.cwd().resolve()
        except OSError:
            same = False
        return "" if same else f" --root {self.root}"


def current(default: Path | None = None) -> Workspace | None:
    """The workspace this process works on: ``$MJSPEC_ROOT`` (which the command line sets from
    ``--root`` or the current folder), else ``default``; None when neither is given."""
    named = os.environ.get(ENV)
    root = Path(named) if named else default
    return Workspace(root) if root is not None else None
