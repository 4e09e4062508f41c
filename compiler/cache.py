"""The build cache: an unchanged project is not compiled again.

A build's output is a pure function of its inputs: the spec folder, the
compiler's and the runtime's sources (templates and message catalogs included),
the folder layout, and the versions of Python and of the packages that shape the
output (black, jinja2, PyYAML, jsonschema). :func:`inputs_digest` hashes all of
them; a successful build stores its output under that digest, and a later build
with the same digest takes the stored output instead of compiling. Any change
to any input changes the digest, so the cache can make a build faster but never
different: ``build --check`` still compares every output file on disk with the
output of the current inputs. Stored files are verified by their own hash when
read; a damaged or missing entry is a miss, never an answer.

The cache lives in ``.mjspec-cache/`` under the project root (git-ignored). It
is an optimisation only: a folder that cannot be written just means no cache.
Standard library only, so that an unchanged build never imports the compiler.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from mjspec.runtime.files import atomic_write

if TYPE_CHECKING:
    from .build import Layout, Outputs, ProfileSummary

FOLDER = ".mjspec-cache"
#: Packages whose version can change the output bytes.
SHAPING_PACKAGES = ("black", "jinja2", "PyYAML", "jsonschema")
#: Bump when the layout of the cache itself changes.
CACHE_FORMAT = 1
#: How many builds are kept (switching between branches or undoing an edit finds its build again).
KEPT_BUILDS = 4
_SKIPPED_PARTS = {"__pycache__", FOLDER}
_SKIPPED_SUFFIXES = {".pyc", ".pyo", ".so", ".pyd", ".o", ".tmp"}


def folder(layout: "Layout") -> Path:
    """Where ``layout``'s cache lives."""
    return layout.root / FOLDER


def _source_files(top: Path) -> Iterable[Path]:
    """Every file under ``top`` that can shape the output (sorted; build products and caches
    skipped)."""
    if top.is_file():
        yield top
        return
    for path in sorted(top.rglob("*")):
        if not path.is_file() or _SKIPPED_PARTS.intersection(path.relative_to(top).parts):
            continue
        if path.suffix in _SKIPPED_SUFFIXES or path.name.startswith("."):
            continue
        yield path


def inputs_digest(layout: "Layout", sources: Iterable[Path]) -> str:
    """The hash of everything a build of ``layout`` reads, given the source folders it runs on."""
    h = hashlib.sha256()

    def add(label: str, data: bytes) -> None:
        h.update(f"{label}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
        h.update(data)

    add("format", str(CACHE_FORMAT).encode())
    add("python", sys.version.encode())
    from mjspec.runtime.workspace import mjspec_version  # a workspace's manifest names it

    add("mjspec", mjspec_version().encode())
    for name in SHAPING_PACKAGES:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "absent"
        add(f"package {name}", version.encode())
    for role in (
        "specs",
        "generated",
        "docs",
        "core",
        "bundled_specs",
    ):  # where output goes, relative to the root as output names are
        place: Path | None = getattr(layout, role)
        if place is None:
            continue
        shown = place.relative_to(layout.root) if place.is_relative_to(layout.root) else place
        add(f"layout {role}", str(shown).encode("utf-8", "surrogateescape"))
    tops = [("specs", layout.specs)] + [(f"source {i}", p) for i, p in enumerate(sources)]
    if layout.locale is not None:
        tops.append(("locale", layout.locale))
    if layout.bundled_specs is not None:  # a workspace's specs extend the bundled ones
        tops.append(("bundled", layout.bundled_specs))
    for label, top in tops:
        for path in _source_files(top):
            rel = path.relative_to(top) if path != top else Path(path.name)
            add(f"{label}/{rel.as_posix()}", path.read_bytes())
    return h.hexdigest()


def _blob(layout: "Layout", digest: str) -> Path:
    return folder(layout) / "blobs" / digest[:2] / digest


def _manifest(layout: "Layout", digest: str) -> Path:
    return folder(layout) / "builds" / f"{digest}.json"


def load(layout: "Layout", digest: str) -> "tuple[Outputs, list[ProfileSummary]] | None":
    """The stored output of a build with ``digest``, every file checked against its hash; None: a
    miss."""
    from .build import ProfileSummary

    try:
        manifest = json.loads(_manifest(layout, digest).read_text("utf-8"))
        if manifest.get("digest") != digest or manifest.get("format") != CACHE_FORMAT:
            return None
        outputs: Outputs = []
        for rel, sha in manifest["files"]:
            data = _blob(layout, sha).read_bytes()
            if hashlib.sha256(data).hexdigest() != sha:
                return None
            outputs.append((layout.root / rel, data))
        summaries = [ProfileSummary(**s) for s in manifest["profiles"]]
        os.utime(_manifest(layout, digest))  # the most recently used build is kept longest
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return outputs, summaries


def store(
    layout: "Layout", digest: str, outputs: "Outputs", summaries: "list[ProfileSummary]"
) -> None:
    """Keep a successful build's output for ``digest`` beside the last few. Never fails the
    build."""
    try:
        files = []
        for path, data in outputs:
            sha = hashlib.sha256(data).hexdigest()
            blob = _blob(layout, sha)
            if not blob.exists():
                atomic_write(blob, data)
            files.append([path.relative_to(layout.root).as_posix(), sha])
        manifest = {
            "format": CACHE_FORMAT,
            "digest": digest,
            "files": files,
            "profiles": [s.__dict__ for s in summaries],
        }
        atomic_write(_manifest(layout, digest), json.dumps(manifest, indent=1) + "\n")
        _prune(layout)
    except (OSError, ValueError):
        pass


def _prune(layout: "Layout") -> None:
    """Keep the :data:`KEPT_BUILDS` most recently used builds and the files they refer to."""
    builds = sorted(
        (folder(layout) / "builds").glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True
    )
    for old in builds[KEPT_BUILDS:]:
        old.unlink()
    keep: set[str] = set()
    for manifest in builds[:KEPT_BUILDS]:
        try:
            keep.update(sha for _, sha in json.loads(manifest.read_text("utf-8"))["files"])
        except (OSError, ValueError, KeyError, TypeError):
            manifest.unlink()
    for blob in (folder(layout) / "blobs").glob("*/*"):
        if blob.name not in keep:
            blob.unlink()


class Memo:
    """Results of a pure, slow step (black) by the hash of its input, kept between builds.

    Only the entries a build used are kept once it is done (:meth:`prune`), so the
    memo holds one build's worth of files.
    """

    def __init__(self, where: Path | None, salt: str) -> None:
        self.where = where
        self.salt = salt
        self.used: set[str] = set()

    def _key(self, text: str) -> str:
        return hashlib.sha256(f"{self.salt}\0{text}".encode("utf-8", "surrogateescape")).hexdigest()

    def get(self, text: str) -> str | None:
        """The stored result for ``text``, or None."""
        key = self._key(text)
        self.used.add(key)
        if self.where is None:
            return None
        try:
            data = (self.where / key).read_bytes()
        except OSError:
            return None
        result, sep, check = data.rpartition(b"\0")
        if not sep or check.decode("ascii", "replace") != hashlib.sha256(result).hexdigest():
            return None  # damaged: compute again
        return result.decode("utf-8")

    def keep(self, text: str) -> None:
        """Keep the entry for ``text`` past :meth:`prune`, though this build did not ask for it."""
        self.used.add(self._key(text))

    def put(self, text: str, result: str) -> None:
        """Store ``result`` for ``text`` (silently not, where the folder cannot be written)."""
        key = self._key(text)
        self.used.add(key)
        if self.where is None:
            return
        data = result.encode("utf-8")
        try:
            atomic_write(self.where / key, data + b"\0" + hashlib.sha256(data).hexdigest().encode())
        except OSError:
            pass

    def prune(self) -> None:
        """Remove the entries this build did not use."""
        if self.where is None or not self.where.is_dir():
            return
        for entry in self.where.iterdir():
            if entry.name not in self.used and not entry.name.startswith("."):
                try:
                    entry.unlink()
                except OSError:
                    pass


def memo_folder(layout: "Layout", step: str) -> Path:
    """Where the memo of a build step (``black``) lives."""
    return folder(layout) / step
