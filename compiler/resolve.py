"""Resolve ``extends``: a profile inherits its parent's rules and states only differences.

Merging follows Fairy-Stockfish's variants.ini in spirit: mappings merge key by
key (so a child may change one pattern's value and nothing else), a key set to
``null`` removes what the parent had, and lists replace the parent's list whole.
Every value keeps the location of the file that last set it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import Any

from .errors import Location, Path, SpecError, SpecErrors, nearest_location
from .load import Loaded, load_spec_file

#: A chain of ``extends`` longer than this is surely a mistake.
MAX_EXTENDS_DEPTH = 16


@dataclass(frozen=True)
class Resolved:
    """A profile's fully merged data, the locations of its values and the files it came from."""

    data: dict[str, Any]
    locations: dict[Path, Location]
    files: tuple[str, ...]  # the profile's own file first, then its ancestors

    def where(self, path: Path) -> Location:
        """The location of ``path``, or of its nearest located ancestor."""
        return nearest_location(self.locations, path, self.files[0])


class SpecLibrary:
    """The spec files of one folder, loaded once each and found by profile id."""

    def __init__(
        self,
        folder: FilePath,
        display_root: FilePath | None = None,
        fallback: FilePath | None = None,
    ) -> None:
        self.folder = folder
        self.display_root = display_root
        self.fallback = fallback
        """A second folder where a profile this one lacks is looked for (the bundled specs, for a
        user's folder whose spec extends one of them)."""
        self._cache: dict[FilePath, Loaded] = {}

    def profile_ids(self) -> list[str]:
        folders = [self.folder] + ([self.fallback] if self.fallback is not None else [])
        return sorted({p.stem for f in folders for p in f.glob("*.yaml")})

    def own_ids(self) -> list[str]:
        """The profiles of this folder alone (not of the fallback)."""
        return sorted(p.stem for p in self.folder.glob("*.yaml"))

    def path_of(self, profile_id: str) -> FilePath:
        own = self.folder / f"{profile_id}.yaml"
        if self.fallback is not None and not own.exists():
            other = self.fallback / f"{profile_id}.yaml"
            if other.exists():
                return other
        return own

    def display(self, path: FilePath) -> str:
        if self.display_root is not None:
            try:
                return str(path.resolve().relative_to(self.display_root.resolve()))
            except ValueError:
                pass
        return str(path)

    def load(self, path: FilePath) -> Loaded:
        key = path.resolve()
        if key not in self._cache:
            self._cache[key] = load_spec_file(path, self.display(path))
        return self._cache[key]

    def resolve_file(self, path: FilePath) -> Resolved:
        """Load ``path`` and everything it extends, merged."""
        return self._resolve(path, ())

    def _resolve(self, path: FilePath, seen: tuple[str, ...]) -> Resolved:
        loaded = self.load(path)
        if not isinstance(loaded.data, dict):
            raise SpecErrors(
                [SpecError("a spec must be a mapping of keys to values", loaded.where(()))]
            )
        parent_id = loaded.data.get("extends")
        data = _drop_nulls(loaded.data)
        if parent_id is None:
            return Resolved(data, dict(loaded.locations), (loaded.file,))
        loc = loaded.where(("extends",))
        if not isinstance(parent_id, str):
            raise SpecErrors([SpecError("`extends` names a profile id", loc, ("extends",))])
        chain = seen + (loaded.file,)
        if len(chain) > MAX_EXTENDS_DEPTH:
            raise SpecErrors(
                [SpecError(f"`extends` chain longer than {MAX_EXTENDS_DEPTH}", loc, ("extends",))]
            )
        parent_path = self.path_of(parent_id)
        if self.display(parent_path) in chain:
            cycle = " -> ".join(chain + (self.display(parent_path),))
            raise SpecErrors([SpecError(f"cyclic `extends`: {cycle}", loc, ("extends",))])
        if not parent_path.exists():
            known = ", ".join(self.profile_ids()) or "none"
            raise SpecErrors(
                [
                    SpecError(
                        f"extends unknown profile {parent_id!r} (known: {known})", loc, ("extends",)
                    )
                ]
            )
        parent = self._resolve(parent_path, chain)
        merged_locs = dict(parent.locations)
        merged = _merge(parent.data, loaded.data, (), loaded.locations, merged_locs)
        merged.pop("extends", None)
        merged["extends"] = parent_id
        return Resolved(merged, merged_locs, (loaded.file,) + parent.files)


def _drop_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_nulls(v) for v in value]
    return value


def _merge(
    base: Any,
    child: Any,
    path: Path,
    child_locs: dict[Path, Location],
    out_locs: dict[Path, Location],
) -> Any:
    if isinstance(base, dict) and isinstance(child, dict):
        out = dict(base)
        for key, value in child.items():
            sub = path + (key,)
            if value is None:
                out.pop(key, None)
                _forget(out_locs, sub)
                continue
            out[key] = _merge(base.get(key), value, sub, child_locs, out_locs)
        return out
    # A scalar or list replaces what the parent had, with the child's locations.
    _forget(out_locs, path)
    for p, loc in child_locs.items():
        if p[: len(path)] == path:
            out_locs[p] = loc
    return _drop_nulls(child)


def _forget(locs: dict[Path, Location], prefix: Path) -> None:
    n = len(prefix)
    for p in [p for p in locs if p[:n] == prefix]:
        del locs[p]
