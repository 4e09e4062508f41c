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
from mjspec.app.registry import load_profile
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
    melds = tuple(
        Meld(types[m["type"]], tuple(parse_tiles("".join(m["tiles_mjai"]), profile.tiles)))
        for m in case["melds"]
    )
    flags = set(case["flags"])
    ctx = {
        "missing_suit": "s",  # every case declares bamboo missing
        "last_tile": "LAST_TILE" in flags,
        "after_kong": "AFTER_KONG" in flags and tsumo,
        "kong_shot": "AFTER_KONG" in flags
        and not tsumo,  # upstream's AFTER_KONG on a discard is the kong shot
        "robbing_kong": "ROBBING_KONG" in flags,
    }
    return WinningHand(
        tuple(concealed), melds, win, WinKind.TSUMO if tsumo else WinKind.RON
    ), WinContext.from_mapping(ctx)


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


# --- riichi (MahjongPaper's riichi yaku tests) scored by riichi_planet -------

YAKU_IDS = {
    "TSUMO": "menzen_tsumo",
    "REACH": "riichi",
    "IPPATSU": "ippatsu",
    "DOUBLE_REACH": "double_riichi",
    "PINFU": "pinfu",
    "TANYAO": "tanyao",
    "IIPEIKOU": "iipeikou",
    "SELF_WIND": "seat_wind",
    "ROUND_WIND": "round_wind",
    "HAKU": "white_dragon",
    "HATSU": "green_dragon",
    "CHUN": "red_dragon",
    "SANSHOKU": "sanshoku",
    "ITTSU": "ittsu",
    "CHANTA": "chanta",
    "CHITOITSU": "chiitoitsu",
    "TOITOI": "toitoi",
    "SANANKOU": "sanankou",
    "HONROUTOU": "honroutou",
    "SANDOKOU": "sanshoku_doukou",
    "SANKANTSU": "sankantsu",
    "SHOUSANGEN": "shousangen",
    "HONITSU": "honitsu",
    "JUNCHAN": "junchan",
    "RYANPEIKOU": "ryanpeikou",
    "CHINITSU": "chinitsu",
    "RINSHAN_KAIHOU": "rinshan",
    "CHANKAN": "chankan",
    "HAITEI": "haitei",
    "HOUTEI": "houtei",
    "KOKUSHIMUSO_JUSANMENMACHI": "kokushi_thirteen_wait",
    "SUANKO": "suuankou",
    "SUANKO_TANKI": "suuankou_single_wait",
    "DAISANGEN": "daisangen",
    "TSUUIISOU": "tsuuiisou",
    "SHOUSUUSHII": "shousuushii",
    "DAISUSHI": "daisuushii",
    "RYUUIISOU": "ryuuiisou",
    "CHINROUTOU": "chinroutou",
    "SUUKANTSU": "suukantsu",
    "CHUURENPOUTOU": "chuuren",
    "JUNSEI_CHURENPOHTO": "junsei_chuuren",
    "TENHOU": "tenhou",
    "CHIIHOU": "chiihou",
}

#: Upstream's mjai honor letters: East, South, West, North, white (P), green (F), red (C).
_HONORS = {"E": "1z", "S": "2z", "W": "3z", "N": "4z", "P": "5z", "F": "6z", "C": "7z"}
_WINDS = {"EAST": "E", "SOUTH": "S", "WEST": "W", "NORTH": "N"}


def _riichi_cases() -> list[dict[str, Any]]:
    lines = (DATA / "mahjongpaper_cases.jsonl").read_text("utf-8").splitlines()
    return [c for c in map(json.loads, lines) if c["profile"] == "riichi"]


def _mpsz(tiles: list[str]) -> str:
    return "".join(_HONORS.get(t, t) for t in tiles)


def _riichi_request(case: dict[str, Any]) -> tuple[WinningHand, WinContext]:
    profile = load_profile("riichi_planet")
    concealed = list(parse_tiles(_mpsz(case["concealed_mjai"]), profile.tiles))
    win = parse_tiles(_mpsz([case["win_tile_mjai"]]), profile.tiles)[0]
    tsumo = case["win_type"] == "TSUMO"
    if len(concealed) % 3 == 2:
        concealed.remove(win)  # upstream may keep the drawn tile in the hand
    types = {
        "PON": MeldType.PON,
        "ANKAN": MeldType.ANKAN,
        "MINKAN": MeldType.MINKAN,
        "CHI": MeldType.CHI,
    }
    melds = tuple(
        Meld(types[m["type"]], tuple(parse_tiles(_mpsz(m["tiles_mjai"]), profile.tiles)))
        for m in case["melds"]
    )
    s = case["situation"]
    assert not s["dora_indicators"] and not s["ura_dora_indicators"] and not s["red_fives"]
    ctx = {
        "seat_wind": _WINDS[s["seat_wind"]],
        "round_wind": _WINDS[s["round_wind"]],
        "riichi": s["riichi"],
        "double_riichi": s["double_riichi"],
        "ippatsu": s["ippatsu"],
        "robbing_kong": s["chankan"],
        "after_kong": s["rinshan"],
        "first_draw": s["first_round"],
        "last_tile": s["last_tile_flag_houtei"],
    }
    return WinningHand(
        tuple(concealed), melds, win, WinKind.TSUMO if tsumo else WinKind.RON
    ), WinContext.from_mapping(ctx)


@pytest.mark.parametrize("case", _riichi_cases(), ids=lambda c: c["id"])
def test_mahjongpaper_riichi_case(case: dict[str, Any]) -> None:
    hand, ctx = _riichi_request(case)
    score = evaluate(load_profile("riichi_planet"), hand, ctx)
    expected = case["expected"]
    assert score.legal, score.reason
    got = {p.id: p.value for p in score.patterns}
    for name in expected.get("yaku_include", []) + expected.get("yakuman_include", []):
        assert YAKU_IDS[name] in got, (name, got)
    for name in expected.get("double_yakuman_include", []):
        assert got.get(YAKU_IDS[name]) == 26, (name, got)  # a double yakuman counts 26 han
    if "is_yakuman" in expected:
        assert score.limit == expected["is_yakuman"]
        assert score.fu is None and score.total >= 13


def test_all_43_riichi_cases_are_present() -> None:
    assert len(_riichi_cases()) == 43
