"""Game records with the compiled profiles of this installation: ``replay`` a record by the profile
it names.

The runtime's :func:`mjspec.runtime.record.replay` takes the profile finder as a parameter (the
runtime knows no engine by name); this layer supplies the registry of compiled profiles.
"""

from __future__ import annotations

from typing import Any, Mapping

from mjspec.app.registry import load_profile
from mjspec.runtime import record as _record
from mjspec.runtime.record import (
    FORMAT,
    Observer,
    RecordError,
    ReplayError,
    ReplaySummary,
    match_record,
)

__all__ = [
    "FORMAT",
    "Observer",
    "RecordError",
    "ReplayError",
    "ReplaySummary",
    "match_record",
    "replay",
]


def replay(
    record: Mapping[str, Any], key: bytes | None = None, *, observe: Observer | None = None
) -> ReplaySummary:
    """Re-execute ``record`` under the compiled profile it names; see
    :func:`mjspec.runtime.record.replay` (``observe`` sees each step as it is replayed)."""
    return _record.replay(record, key, profiles=load_profile, observe=observe)
