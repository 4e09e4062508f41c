"""The functions of mjspec's public Python API (``import mjspec``; docs/api.md).

Each is a thin door onto the layer that does the work: profiles come from the registry of
compiled engines (or, for a user's own spec folder, from the compiler, in memory), hands are
scored through the scoring contract's own request reader, and records are written and replayed
as ``mjspec play`` and ``mjspec replay`` write and replay them. The package root
(``mjspec/__init__.py``) imports this module only when one of its names is first used, so
``import mjspec`` stays as light as the runtime it fronts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping, Sequence

from mjspec.runtime.context import ContextError
from mjspec.runtime.options import OptionError
from mjspec.runtime.profile import Profile
from mjspec.runtime.request import RequestError, parse_request
from mjspec.runtime.scoring import HandError, Score, evaluate
from mjspec.runtime.files import atomic_write
from mjspec.runtime.safejson import MAX_BYTES, JsonInputError, loads

from . import registry
from .batch import score_request
from .records import RecordError, ReplayError, replay

__all__ = [
    "ScoreError",
    "SpecFolderError",
    "load_profile",
    "load_record",
    "replay",
    "save_record",
    "score",
    "score_hand",
    "RecordError",
    "ReplayError",
]


class ScoreError(ValueError):
    """A hand that cannot be scored as asked: a malformed request, hand, situation or option."""


class SpecFolderError(ValueError):
    """A user's spec that does not compile; ``errors`` holds each ``file:line: path: message``."""

    def __init__(self, errors: Sequence[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = tuple(errors)


_FROM_FOLDERS: dict[tuple[str, str], Profile] = {}


def load_profile(profile_id: str, specs: str | Path | None = None) -> Profile:
    """The :class:`~mjspec.runtime.profile.Profile` of ``profile_id``.

    Without ``specs``, one of the compiled profiles (``mjspec list``). With ``specs``, the folder
    holding ``<profile_id>.yaml``: the spec is compiled in memory by the same checks as ``mjspec
    build`` (the compiler is imported only then) and its engine runs on the Python backend; a
    spec it ``extends`` is looked for in that folder, then among the bundled specs. A spec that
    does not compile raises :class:`SpecFolderError` listing every error; an unknown bundled id
    raises :class:`~mjspec.app.registry.UnknownProfile` with the known ones.
    """
    if specs is None:
        return registry.load_profile(profile_id)
    folder = Path(specs)
    path = folder / f"{profile_id}.yaml"
    if not path.is_file():
        raise SpecFolderError([f"{path}: no such spec"])
    key = (str(path.resolve()), path.read_text("utf-8", errors="replace"))
    known = _FROM_FOLDERS.get(key)
    if known is not None:
        return known
    from mjspec.compiler.errors import SpecErrors
    from mjspec.compiler.resolve import SpecLibrary
    from mjspec.compiler.verify import compile_profile

    bundled = Path(__file__).resolve().parent.parent / "specs"
    try:
        library = SpecLibrary(folder, fallback=bundled)
        compiled = compile_profile(
            library.resolve_file(path), expected_id=profile_id, formatted=False
        )
    except SpecErrors as e:
        raise SpecFolderError([str(err) for err in e.errors]) from None
    _FROM_FOLDERS[key] = compiled.engine
    return compiled.engine


def score(request: Mapping[str, Any]) -> dict[str, Any]:
    """Answer one scoring-contract request (``mjspec score --jsonl``'s, as a dict) with the
    contract's answer: ``legal``, ``reason``, ``patterns``, ``total``, ``fu``, ``score``,
    ``payments``; a bad request answers ``{"error": "..."}`` as the batch does."""
    return score_request(dict(request))


def score_hand(
    profile: Profile | str,
    concealed: str,
    win_tile: str,
    *,
    tsumo: bool = False,
    melds: Sequence[str] = (),
    **situation: Any,
) -> Score:
    """Score one hand; the typed answer (:class:`~mjspec.runtime.scoring.Score`).

    ``concealed`` is the concealed tiles without the winning tile, in mpsz notation
    (``"123m456p789s1122z"``); ``melds`` are ``"pon:555m"``-style melds (``chi``, ``pon``,
    ``minkan``, ``ankan``, ``kakan``: as ``mjspec score --meld``); the keyword ``situation`` is the
    contract's ``context`` (``riichi=True``, ``seat_wind="S"``, ``missing_suit="s"``, ...).
    Raises :class:`ScoreError` naming what is wrong with the request; an illegal hand is not an
    error: its ``Score.legal`` is False and ``Score.reason`` says why.
    """
    prof = registry.load_profile(profile) if isinstance(profile, str) else profile
    request = {
        "profile": prof.id,
        "concealed": concealed,
        "win_tile": win_tile,
        "win": "tsumo" if tsumo else "ron",
        "melds": [_meld_request(m) for m in melds],
        "context": dict(situation),
    }
    try:
        hand, ctx = parse_request(prof, request)
        return evaluate(prof, hand, ctx)
    except (RequestError, HandError, ContextError, OptionError) as e:
        raise ScoreError(str(e)) from None


def _meld_request(text: str) -> dict[str, Any]:
    kind, sep, tiles = text.partition(":")
    if not sep or not kind or not tiles:
        raise ScoreError(f"meld {text!r}: write it as KIND:TILES, e.g. pon:555m")
    return {"type": kind, "tiles": tiles}


def save_record(record: Mapping[str, Any], path: str | Path) -> None:
    """Write a game record (:func:`~mjspec.runtime.record.match_record`'s) as ``mjspec play
    --record`` writes it: JSON, whole or not at all."""
    atomic_write(Path(path), json.dumps(record, indent=1, ensure_ascii=False) + "\n")


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a game record written by :func:`save_record` (or ``mjspec play --record``), with the
    limits ``mjspec replay`` applies; raises :class:`RecordError` naming the file and why."""
    data = read_record_json(path)
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a record is a JSON object")
    return data


def read_record_json(path: str | Path) -> Any:
    """The JSON value of the file at ``path``, read within the size and depth limits of a record
    (``mjspec replay`` and :func:`load_record`); :class:`RecordError` names the file and why."""
    where = Path(path)
    try:
        if where.stat().st_size > MAX_BYTES:
            raise RecordError(f"{where}: larger than {MAX_BYTES} bytes: not a game record")
        data = loads(where.read_bytes(), str(where))
    except OSError as e:
        raise RecordError(f"{where}: cannot read: {e.strerror}") from None
    except JsonInputError as e:
        raise RecordError(str(e)) from None
    return data
