"""Find a generated engine by profile id: a bundled one, or a house rule built in the workspace."""

from __future__ import annotations

import difflib
import importlib
import re
from pathlib import Path
from types import ModuleType

from mjspec.runtime import workspace as _workspace
from mjspec.runtime.profile import Profile

_ID = re.compile(r"^[a-z][a-z0-9_]*$")


class UnknownProfile(LookupError):
    """No generated engine has that id (or the workspace's engine of it is older than its spec)."""


def bundled_ids() -> tuple[str, ...]:
    """Ids of the engines bundled with the package."""
    from mjspec.generated import PROFILE_IDS

    return tuple(PROFILE_IDS)


def _current() -> _workspace.Workspace | None:
    """The workspace named by ``$MJSPEC_ROOT`` (the command line sets it), when it holds a build
    and is not the package's own source (whose generated/ is the bundled engines)."""
    ws = _workspace.current()
    if ws is None or ws.manifest() is None or _workspace.is_package_source(ws.root):
        return None
    return ws


def profile_ids() -> tuple[str, ...]:
    """Ids of every generated engine: the bundled ones, then the workspace's house rules."""
    ids = bundled_ids()
    ws = _current()
    if ws is None:
        return ids
    return ids + tuple(i for i in ws.profile_ids() if i not in ids)


_LOADED: dict[tuple[str, str], Profile] = {}
"""Profiles already loaded, by workspace and id (a batch asks for one per request)."""


def load_profile(profile_id: str) -> Profile:
    """The compiled :class:`Profile` of ``profile_id``: a bundled engine, or the workspace's."""
    import os

    key = (os.environ.get(_workspace.ENV, ""), profile_id)
    if type(profile_id) is str:
        known = _LOADED.get(key)
        if known is not None:
            return known
    ids = profile_ids()
    if not isinstance(profile_id, str) or not _ID.match(profile_id) or profile_id not in ids:
        near = difflib.get_close_matches(str(profile_id), ids, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        named = _workspace.current()
        if named is not None and isinstance(profile_id, str) and _ID.match(profile_id):
            spec = named.specs / f"{profile_id}.yaml"
            if spec.is_file():  # a house rule written but not built
                hint += f"; {spec} is not built yet: run `mjspec build`"
        raise UnknownProfile(f"unknown profile {profile_id!r}{hint} (known: {', '.join(ids)})")
    if profile_id in bundled_ids():
        module = importlib.import_module(f"mjspec.generated.{profile_id}")
    else:
        ws = _current()
        assert ws is not None  # profile_ids() found the id in its build
        try:
            module = _import_engine(ws, profile_id)
        except _workspace.WorkspaceError as e:
            raise UnknownProfile(str(e)) from None
    profile: Profile = module.PROFILE
    _LOADED[key] = profile
    return profile


def _package(ws: _workspace.Workspace) -> str:
    """The import name of a workspace's generated/ (one per folder, so two workspaces in one
    process never meet)."""
    import hashlib

    digest = hashlib.sha256(str(ws.generated.resolve()).encode("utf-8", "surrogateescape"))
    return f"_mjspec_workspace_{digest.hexdigest()[:16]}"


def _import_engine(ws: _workspace.Workspace, profile_id: str) -> ModuleType:
    """Import the engine module of ``profile_id`` from the workspace's generated/, as a package of
    its own (its native module, beside it, is imported by the runtime under the same package when
    its digest agrees); never an engine older than its spec."""
    import importlib.util
    import sys

    ws.check_fresh(profile_id)
    name = _package(ws)
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, ws.generated / "__init__.py", submodule_search_locations=[str(ws.generated)]
        )
        if spec is None or spec.loader is None:
            raise _workspace.WorkspaceError(f"cannot import the engines of {ws.generated}")
        package = importlib.util.module_from_spec(spec)
        sys.modules[name] = package
        try:
            spec.loader.exec_module(package)
        except BaseException:
            del sys.modules[name]
            raise
    return importlib.import_module(f"{name}.{profile_id}")


def use_workspace(root: Path | None) -> None:
    """Work on the house rules built in ``root`` (None: the bundled profiles only), in this process
    and in the processes it starts."""
    import os

    if root is None:
        os.environ.pop(_workspace.ENV, None)
    else:
        os.environ[_workspace.ENV] = str(root.resolve())
