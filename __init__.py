"""mjspec: a declarative rule-spec compiler for mahjong.

The public Python API is the names below (docs/api.md shows each at work)::

    import mjspec

    profile = mjspec.load_profile("riichi_tenhou")
    score = mjspec.score_hand(profile, "123m456p789s2355z", "5z", tsumo=True)
    round_ = mjspec.Round(profile, dealer=0, seed=7)

The import root maps the project's top-level folders: ``mjspec.compiler``
(spec loading, checking and code generation), ``mjspec.runtime`` (the
mechanisms every generated engine runs on), ``mjspec.app`` (the command line
and the application layer), ``mjspec.generated`` (one engine module per
profile, never edited by hand) and ``mjspec.specs`` (the bundled YAML rule
specs). Each public name is imported from its module when it is first used, so
``import mjspec`` (and every ``mjspec.runtime`` import, which passes through
this package) loads nothing more than it needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: Each public name and the module that defines it.
_PUBLIC = {
    # Profiles
    "load_profile": "mjspec.app.api",
    "profile_ids": "mjspec.app.registry",
    "Profile": "mjspec.runtime.profile",
    "UnknownProfile": "mjspec.app.registry",
    "SpecFolderError": "mjspec.app.api",
    # Tiles
    "Tile": "mjspec.runtime.tiles",
    "parse_tiles": "mjspec.runtime.tiles",
    "format_tiles": "mjspec.runtime.tiles",
    # Scoring
    "score": "mjspec.app.api",
    "score_hand": "mjspec.app.api",
    "Score": "mjspec.runtime.scoring",
    "ScoredPattern": "mjspec.runtime.scoring",
    "ScoreError": "mjspec.app.api",
    # Play
    "Round": "mjspec.runtime.table",
    "Phase": "mjspec.runtime.table",
    "Automation": "mjspec.runtime.table",
    "Match": "mjspec.runtime.match",
    "play_hand": "mjspec.runtime.match",
    "play_match": "mjspec.runtime.match",
    "Action": "mjspec.runtime.actions",
    "ActionKind": "mjspec.runtime.actions",
    "IllegalAction": "mjspec.runtime.actions",
    "GreedyBot": "mjspec.runtime.bots",
    "RandomBot": "mjspec.runtime.bots",
    "Agent": "mjspec.runtime.observation",
    "Observation": "mjspec.runtime.observation",
    "observe": "mjspec.runtime.observation",
    "AgentError": "mjspec.runtime.match",
    # Records
    "match_record": "mjspec.runtime.record",
    "save_record": "mjspec.app.api",
    "load_record": "mjspec.app.api",
    "replay": "mjspec.app.api",
    "RecordError": "mjspec.app.api",
    "ReplayError": "mjspec.app.api",
}

__all__ = sorted(_PUBLIC) + ["__version__"]

if TYPE_CHECKING:  # the names as mypy sees them (``X as X``: exported under --strict)
    from mjspec.app.api import (
        RecordError as RecordError,
        ReplayError as ReplayError,
        ScoreError as ScoreError,
        SpecFolderError as SpecFolderError,
        load_profile as load_profile,
        load_record as load_record,
        replay as replay,
        save_record as save_record,
        score as score,
        score_hand as score_hand,
    )
    from mjspec.app.registry import (
        UnknownProfile as UnknownProfile,
        profile_ids as profile_ids,
    )
    from mjspec.runtime.actions import (
        Action as Action,
        ActionKind as ActionKind,
        IllegalAction as IllegalAction,
    )
    from mjspec.runtime.bots import (
        GreedyBot as GreedyBot,
        RandomBot as RandomBot,
    )
    from mjspec.runtime.match import (
        AgentError as AgentError,
        Match as Match,
        play_hand as play_hand,
        play_match as play_match,
    )
    from mjspec.runtime.observation import (
        Agent as Agent,
        Observation as Observation,
        observe as observe,
    )
    from mjspec.runtime.profile import (
        Profile as Profile,
    )
    from mjspec.runtime.record import (
        match_record as match_record,
    )
    from mjspec.runtime.scoring import (
        Score as Score,
        ScoredPattern as ScoredPattern,
    )
    from mjspec.runtime.table import (
        Automation as Automation,
        Phase as Phase,
        Round as Round,
    )
    from mjspec.runtime.tiles import (
        Tile as Tile,
        format_tiles as format_tiles,
        parse_tiles as parse_tiles,
    )


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'mjspec' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next use is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))
