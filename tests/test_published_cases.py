"""Published Sichuan cases (MahjongPaper's T/TFMJ fan tests) scored by sichuan_tfmj.

MahjongPaper's fan names map onto this profile's pattern ids below. Its tests
assert that the listed fans are *included* (and, where given, the exact total
and excluded names); we assert the same, nothing weaker.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mjspec.runtime.context import WinContext, WinKind
from mjspec.runtime.hand import Meld, MeldType
from mjspec.runtime.registry import load_profile
from mjspec.runtime.scoring import WinningHand, evaluate
from mjspec.runtime.tiles import parse_tiles

from conftest import DATA

FAN_IDS = {
    "PING_HU": "ping_hu",
    "DUI_DUI_HU": "all_triplets",
    "QING_YI_SE": "full_flush",
    "QI_DUI": "seven_pairs",
    "GEN": "root",
    "JIN_GOU_DIAO": "golden_hook",
    "HAI_DI": "hai_di",
    "GANG_SHANG_HUA": "kong_bloom",
    "GANG_SHANG_PAO": "kong_shot",
    "QIANG_GANG_HU": "robbing_kong",
    # Names the T/TFMJ profile must never emit (no pattern of ours has them).
    "LONG_QI_DUI": "dragon_seven_pairs",
    "JIANG_DUI": "jiang_dui",
}


def _cases() -> list[dict[str, Any]]:
    lines = (DATA / "mahjongpaper_cases.jsonl").read_text("utf-8").splitlines()
    return [c for c in map(json.loads, lines) if c["profile"] == "sichuan"]


def _request(case: dict[str, Any]) -> tuple[WinningHand, WinContext]:
    profile = load_profile("sichuan_tfmj")
    concealed = [t for t in parse_tiles("".join(case["concealed_mjai"]), profile.tiles)]
    win = parse_tiles(case["win_tile_mjai"], profile.tiles)[0]
    tsumo = case["win_type"] == "SELF_DRAW"
    if tsumo and len(concealed) % 3 == 2:
        concealed.remove(win)  # upstream keeps the drawn tile in the hand for self-draws
    types = {"pung": MeldType.PON, "kong": MeldType.MINKAN, "concealed_kong": MeldType.ANKAN}
    melds = tuple(Meld(types[m["type"]], tuple(parse_tiles("".join(m["tiles_mjai"]), profile.tiles))) for m in case["melds"])
    flags = set(case["flags"])
    ctx = {
        "missing_suit": "s",  # every case declares bamboo missing
        "last_tile": "LAST_TILE" in flags,
        "after_kong": "AFTER_KONG" in flags and tsumo,
        "kong_shot": "AFTER_KONG" in flags and not tsumo,  # upstream's AFTER_KONG on a discard is the kong shot
        "robbing_kong": "ROBBING_KONG" in flags,
    }
    return WinningHand(tuple(concealed), melds, win, WinKind.TSUMO if tsumo else WinKind.RON), WinContext.from_mapping(ctx)


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["id"])
def test_mahjongpaper_sichuan_case(case: dict[str, Any]) -> None:
    hand, ctx = _request(case)
    score = evaluate(load_profile("sichuan_tfmj"), hand, ctx)
    expected = case["expected"]
    assert score.legal == expected["valid"], score.reason
    got = {p.id for p in score.patterns}
    for name in expected.get("fans_include", []):
        assert FAN_IDS[name] in got, (name, got)
    for name in expected.get("fans_exclude", []):
        assert FAN_IDS[name] not in got
    if "total_fan" in expected:
        assert score.total == expected["total_fan"]


def test_all_thirteen_cases_are_present() -> None:
    assert len(_cases()) == 13
