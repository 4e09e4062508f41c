"""Published GB cases (MahjongPaper's MCR fan tests) and the calculator's breakdown of them, scored
by gb_mcr.

``mahjongpaper_cases.jsonl`` holds 13 ``gb_mcr`` cases: what MahjongPaper's
tests assert (fans included, excluded, totals, settlements, the 8-fan floor).
``gb_oracle_pymahjonggb.jsonl`` is PyMahjongGB 1.4.0's full breakdown of the
same hands (derived data, see tests/data/README.md). Every case passes; the one
place the calculator differs from the Green Book (one melded and one concealed
kong: 6 fan, not 5; rule book 002 §4) is checked as the Green Book has it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mjspec.runtime.context import WinContext, WinKind
from mjspec.runtime.hand import Meld, MeldType
from mjspec.app.registry import load_profile
from mjspec.runtime.scoring import Score, WinningHand, evaluate
from mjspec.runtime.tiles import parse_tiles

from conftest import DATA
from gbkit import FAN_IDS

#: MahjongPaper's fan names -> gb_mcr pattern ids.
PAPER_IDS = {
    "DASIXI": "big_four_winds",
    "DASANYUAN": "big_three_dragons",
    "SHISANYAO": "thirteen_orphans",
    "QIDUI": "seven_pairs",
    "QINGLONG": "pure_straight",
    "LVYISE": "all_green",
    "BUQIUREN": "fully_concealed_hand",
    "DANDIAOJIANG": "single_wait",
    "ZIMO": "self_drawn",
    "HUAPAI": "flower_tiles",
}
_HONORS = {"E": "1z", "S": "2z", "W": "3z", "N": "4z", "P": "5z", "F": "6z", "C": "7z"}
_MELDS = {
    "CHOW": MeldType.CHI,
    "PUNG": MeldType.PON,
    "OPEN_KONG": MeldType.MINKAN,
    "CONCEALED_KONG": MeldType.ANKAN,
}
_WINDS = {"EAST": "E", "SOUTH": "S", "WEST": "W", "NORTH": "N"}


def mpsz(tiles: list[str]) -> str:
    return "".join(_HONORS.get(t, t) for t in tiles)


def _cases() -> list[dict[str, Any]]:
    lines = (DATA / "mahjongpaper_cases.jsonl").read_text("utf-8").splitlines()
    return [c for c in map(json.loads, lines) if c["profile"] == "gb_mcr"]


def _oracle() -> dict[str, dict[str, Any]]:
    lines = (DATA / "gb_oracle_pymahjonggb.jsonl").read_text("utf-8").splitlines()
    return {o["id"]: o for o in map(json.loads, lines)}


def request(case: dict[str, Any], win: str | None = None) -> tuple[WinningHand, WinContext]:
    profile = load_profile("gb_mcr")
    concealed = tuple(parse_tiles(mpsz(case["concealed_mjai"]), profile.tiles))
    melds = tuple(
        Meld(_MELDS[m["type"]], tuple(parse_tiles(mpsz(m["tiles_mjai"]), profile.tiles)))
        for m in case["melds"]
    )
    win_tile = parse_tiles(mpsz([case["win_tile_mjai"]]), profile.tiles)[0]
    kind = WinKind.TSUMO if (win or case["win_type"]) in ("SELF_DRAW", "tsumo") else WinKind.RON
    flowers = "".join(f"{i + 1}f" for i in range(len(case["flowers"])))
    ctx = WinContext.from_mapping(
        {
            "seat_wind": _WINDS[case["seat_wind"]],
            "round_wind": _WINDS[case["round_wind"]],
            "flowers": flowers,
        }
    )
    return WinningHand(concealed, melds, win_tile, kind), ctx


def score(case: dict[str, Any], win: str | None = None) -> Score:
    return evaluate(load_profile("gb_mcr"), *request(case, win))


def ids(s: Score) -> set[str]:
    return {p.id for p in s.patterns}


def test_all_thirteen_gb_cases_are_present() -> None:
    assert len(_cases()) == 13
    assert set(_oracle()) == {c["id"] for c in _cases()}


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["id"])
def test_mahjongpaper_gb_case(case: dict[str, Any]) -> None:
    expected = case["expected"]
    s = score(case)
    if "valid" in expected:
        assert s.legal == expected["valid"], s.reason
    for name in expected.get("fans_include", []):
        assert PAPER_IDS[name] in ids(s), (name, s.patterns)
    for name in expected.get("fans_exclude", []):
        assert PAPER_IDS[name] not in ids(s)
    if "total_fan" in expected:
        assert s.total == expected["total_fan"]
    entry = expected.get("fan_entry")
    if entry is not None:
        # MINGANGANG 6 = Two Melded Kongs 4 + Concealed Kong 2 (Green Book; 002 §4)
        assert entry["name"] == "MINGANGANG" and entry["fan"] == 6
        kongs = {
            p.id: p.points for p in s.patterns if p.id in ("two_melded_kongs", "concealed_kong")
        }
        assert kongs == {"two_melded_kongs": 4, "concealed_kong": 2}
    if "score_deltas_formula" in expected:
        f = s.total
        deltas = expected["score_deltas_formula"]
        if case["win_type"] == "DISCARD":
            assert s.payments == {"discarder": f + 8, "others": 8}
            assert (
                deltas["EAST"] == "F+24"
                and f + 24 == s.payments["discarder"] + 2 * s.payments["others"]
            )
        else:
            assert s.payments == {"each": f + 8}
            assert deltas["EAST"] == "3*(F+8)"
    if "fan_evaluation" in expected:  # flowers never lift a hand over the floor
        ev = expected["fan_evaluation"]
        flowers = sum(p.points for p in s.patterns if p.id == "flower_tiles")
        assert s.total >= ev["total_fan_at_least"] and s.total - flowers < 8
        assert not s.legal and s.payments == {}
    if "win_by_discard_B6_valid" in expected:  # seven fan: a win only by self-draw
        assert not score(case, "DISCARD").legal
        drawn = score(case, "SELF_DRAW")
        assert drawn.legal and drawn.total == expected["win_by_self_draw_B6"]["total_fan"]
        assert "self_drawn" in ids(drawn)


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["id"])
def test_pymahjonggb_breakdown(case: dict[str, Any]) -> None:
    oracle = _oracle()[case["id"]]
    s = score(case, oracle["input"]["win_type"])
    # The oracle lists points per fan (a fan counted twice shows its value times two).
    want: dict[str, int] = {}
    for fan in oracle["fans"]:
        if fan["name_zh"] == "明暗杠":  # the calculator's 5; the Green Book's 4 + 2 (002 §4)
            want["two_melded_kongs"] = want.get("two_melded_kongs", 0) + 4
            want["concealed_kong"] = want.get("concealed_kong", 0) + 2
            continue
        fid = FAN_IDS[fan["name_zh"]]
        want[fid] = want.get(fid, 0) + fan["fan"]
    assert {p.id: p.points for p in s.patterns} == want
    kong_pair = any(f["name_zh"] == "明暗杠" for f in oracle["fans"])
    assert s.total == oracle["total_fan"] + (1 if kong_pair else 0)
