"""Errors a spec author sees: each names the file, the line and the spec path."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

PathPart = str | int
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-]+")
Path = tuple[PathPart, ...]


@dataclass(frozen=True, slots=True)
class Location:
    """Where a value stands in a spec file (lines and columns count from 1)."""

    file: str
    line: int
    column: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


def format_path(path: Sequence[PathPart]) -> str:
    """``('scoring', 'patterns', 'root', 'value')`` -> ``scoring.patterns.root.value``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            # a key that is not a plain word (a newline, a dot, a space) is quoted, so the
            # message stays one line and the path reads unambiguously
            out += ("." if out else "") + (part if _PLAIN_KEY.fullmatch(part) else repr(part))
    return out or "(top)"


def nearest_location(
    locations: dict[Path, Location], path: Sequence[PathPart], file: str
) -> Location:
    """The location of ``path``, or of its nearest located ancestor, or the top of ``file``."""
    p = tuple(path)
    while p:
        if p in locations:
            return locations[p]
        p = p[:-1]
    return locations.get((), Location(file, 1))


@dataclass(frozen=True)
class SpecError(Exception):
    """One mistake in a spec: ``file:line: path: message``."""

    message: str
    location: Location | None = None
    path: Path = ()

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{where}{format_path(self.path)}: {self.message}"


@dataclass
class SpecErrors(Exception):
    """Every mistake found in one pass, so an author can fix them all at once."""

    errors: list[SpecError] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)

    @classmethod
    def of(cls, errors: Iterable[SpecError]) -> "SpecErrors":
        return cls(sorted(errors, key=_sort_key))


def _sort_key(e: SpecError) -> tuple[str, int, str]:
    if e.location is None:
        return ("", 0, e.message)
    return (e.location.file, e.location.line, e.message)
