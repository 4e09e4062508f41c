"""The compiled engines this process has loaded, as each generated module announces itself.

The runtime names no engine: a generated module (``generated/<id>.py``, or a house rule's
module built elsewhere) calls :func:`register_engine` with its profile and the native module
compiled beside it. The native backend looks a profile up here to learn which native module
answers for it and whether that module was built from the same spec (the digests agree);
finding a profile by id is the application layer's registry (``mjspec.app.registry``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from .profile import Profile

__all__ = ["CompiledEngine", "compiled_engine", "register_engine"]


@dataclass(frozen=True)
class CompiledEngine:
    """One generated engine: its profile as compiled, and its native module if one was emitted."""

    profile: Profile
    native_module: str | None
    """The dotted name of the compiled native module (``mjspec.generated._native_<id>``), or
    None."""
    native_digest: str | None
    """The digest the native module must carry to be used (None: the profile is Python only)."""


_ENGINES: dict[str, CompiledEngine] = {}


def register_engine(
    profile: Profile, *, module: str, native_module: str | None, native_digest: str | None
) -> Profile:
    """Announce a generated engine (called once, at the end of its module ``module``); returns
    ``profile``.

    Only an imported module announces itself (while it runs, the import system holds it in
    ``sys.modules`` with this very profile already assigned): the build runs a module's source
    before writing it (to check what it builds), and that run must not displace the engine this
    process imported. A later import of the same id (a rebuilt module reloaded) replaces the
    earlier one.
    """
    announced: object = getattr(sys.modules.get(module), "PROFILE", None)
    if announced is not profile:
        return profile
    _ENGINES[profile.id] = CompiledEngine(
        profile, native_module if native_digest else None, native_digest
    )
    return profile


def compiled_engine(profile_id: str) -> CompiledEngine | None:
    """The engine registered for ``profile_id``, or None when no generated module announced it."""
    return _ENGINES.get(profile_id)
