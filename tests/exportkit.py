"""Records for the export and mjai tests: bot-played riichi matches and imported Tenhou logs,
made once per test process."""

from __future__ import annotations

import copy
import functools
import json
import tempfile
from pathlib import Path
from typing import Any

from mjspec.app.cli import main
from mjspec.app.mjai import dumps, mjai_events
from mjspec.app.played import PlayedMatch, played_match
from mjspec.app.registry import load_profile
from mjspec.app.tenhou import load_log
from mjspec.app.tenhou_replay import game_record

DATA = Path(__file__).parent / "data" / "tenhou"
REVIEWER = DATA / "tenhou6json-mjai-reviewer"
#: The mjai-reviewer excerpts the importer reads (confusing_nakis_2 is a constructed case with
#: five copies of 3s: refused by the importer, tests/data/README.md).
EXCERPTS = sorted(
    p for p in REVIEWER.glob("*.json") if p.name not in ("manifest.json", "confusing_nakis_2.json")
)
#: The excerpts the fast tests take (kans and a four-kan abort, a robbed added kan, a double ron,
#: four riichi, nine terminals, ambiguous calls); every excerpt runs with ``-m slow``.
FAST = (
    "suukantsu_1.json",
    "double_kakan_then_chankan.json",
    "double_ron.json",
    "four_reach.json",
    "kyushukyuhai.json",
    "confusing_nakis_4.json",
)


def excerpts() -> list[Any]:
    """EXCERPTS as pytest parameters, the ones not in FAST marked slow."""
    import pytest

    return [p if p.name in FAST else pytest.param(p, marks=pytest.mark.slow) for p in EXCERPTS]


MJLOGS = sorted((DATA / "tenhou-mjx" / "mjlog").glob("*.mjlog"))
#: Bot matches (profile, seed, bots): the default greedy bots never call, so the riichi_tenhou
#: match seats a random bot (seed 3: six hands, with chi, pon and an open kan).
BOT_MATCHES = (
    ("riichi_tenhou", 3, "random,greedy,greedy,greedy"),
    ("riichi_tenhou_east", 2, "greedy"),
    ("riichi_planet", 3, "greedy"),
)


@functools.lru_cache(maxsize=None)
def _bot_record(profile: str, seed: int, bots: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "r.json"
        assert (
            main(
                [
                    "play",
                    profile,
                    "--seed",
                    str(seed),
                    "--bots",
                    bots,
                    "--quiet",
                    "--record",
                    str(out),
                ]
            )
            == 0
        )
        return out.read_text()


def bot_record(profile: str, seed: int, bots: str = "greedy") -> dict[str, Any]:
    record: dict[str, Any] = json.loads(_bot_record(profile, seed, bots))
    return record


@functools.lru_cache(maxsize=None)
def _imported(path: Path) -> str:
    game = load_log(path)
    profile = load_profile("riichi_tenhou" if game.rules.south_round else "riichi_tenhou_east")
    return json.dumps(game_record(game, profile))


def imported(path: Path) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(_imported(path))
    return record


def comparable(record: dict[str, Any], *, chance: bool = False) -> dict[str, Any]:
    """``record`` without what an export cannot carry: the source and the seal always; with
    ``chance``, also the seeds, the walls and dice (a tenhou.net/6 or mjai log shows the tiles
    played, not the wall's unseen ones, and no dice) and the order of the hidden answers to a claim
    (a log shows who called, not who passed: passes and ``respond`` events are left out)."""
    out = copy.deepcopy(record)
    out.pop("source", None)
    out.pop("digest", None)
    if chance:
        out.pop("seed", None)
        out.pop("chance", None)
        for hand in out["hands"]:
            for key in ("seed", "wall", "dice"):
                hand.pop(key, None)
            hand["decisions"] = [d for d in hand["decisions"] if d["kind"] != "pass"]
            hand["events"] = [e for e in hand["events"] if e["kind"] != "respond"]
            for ev in hand["events"]:
                if ev["kind"] == "deal":
                    ev["data"].pop("dice", None)
    return out


@functools.lru_cache(maxsize=None)
def bot_played(profile: str, seed: int, bots: str = "greedy") -> PlayedMatch:
    """A bot match read tile by tile (replayed once per process; not to be changed)."""
    return played_match(bot_record(profile, seed, bots))


@functools.lru_cache(maxsize=None)
def _mjai_text(profile: str, seed: int, bots: str) -> str:
    return dumps(mjai_events(bot_played(profile, seed, bots)))


def bot_events(profile: str, seed: int, bots: str = "greedy") -> list[dict[str, Any]]:
    """The mjai events of a bot match (exported once per process)."""
    return [json.loads(line) for line in _mjai_text(profile, seed, bots).splitlines()]
