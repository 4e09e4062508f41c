"""Find a generated engine by profile id."""

from __future__ import annotations

import difflib
import importlib
import re

from mjspec.runtime.profile import Profile

_ID = re.compile(r"^[a-z][a-z0-9_]*$")


class UnknownProfile(LookupError):
    """No generated engine has that id."""


def profile_ids() -> tuple[str, ...]:
    """Ids of every generated engine."""
    from mjspec.generated import PROFILE_IDS

    return tuple(PROFILE_IDS)


_LOADED: dict[str, Profile] = {}
"""Profiles already loaded, by id (a batch asks for one per request)."""


def load_profile(profile_id: str) -> Profile:
    """The compiled :class:`Profile` of ``profile_id``."""
    if type(profile_id) is str:
        known = _LOADED.get(profile_id)
        if known is not None:
            return known
    ids = profile_ids()
    if not isinstance(profile_id, str) or not _ID.match(profile_id) or profile_id not in ids:
        near = difflib.get_close_matches(str(profile_id), ids, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise UnknownProfile(f"unknown profile {profile_id!r}{hint} (known: {', '.join(ids)})")
    module = importlib.import_module(f"mjspec.generated.{profile_id}")
    profile: Profile = module.PROFILE
    _LOADED[profile_id] = profile
    return profile
