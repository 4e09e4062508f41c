"""riichi_planet hand scoring against rule book 001: fu items, limits, payments, honba, readings.

Every request goes through the contract's entry point (``score_request``, as
``mjspec score --jsonl`` answers it). Expected figures are worked by hand from
001 "Han, fu e pagamentos" and stated beside each case.
"""

from __future__ import annotations

from typing import Any

import pytest

from mjspec.app.cli import score_request
from mjspec.app.registry import load_profile


def score(
    concealed: str,
    win_tile: str,
    win: str = "ron",
    melds: list[dict[str, str]] | None = None,
    **context: Any,
) -> dict[str, Any]:
    context.setdefault("seat_wind", "W")
    context.setdefault("round_wind", "E")
    request = {
        "profile": "riichi_planet",
        "concealed": concealed,
        "win_tile": win_tile,
        "win": win,
        "context": context,
    }
    if melds:
        request["melds"] = melds
    answer = score_request(request)
    assert "error" not in answer, answer
    return answer


def ids(answer: dict[str, Any]) -> set[str]:
    return {p["id"] for p in answer["patterns"]}


# --- fu (001 "Han, fu e pagamentos") ------------------------------------------------


def test_pinfu_tsumo_stays_at_20_fu() -> None:
    # menzen tsumo + tanyao + pinfu = 3 han 20 fu: base 640 -> 700 each non-dealer, 1300 the dealer.
    a = score("234m345m456p678s6p", "6p", "tsumo")
    assert ids(a) == {"menzen_tsumo", "tanyao", "pinfu"}
    assert (a["total"], a["fu"], a["payments"]) == (3, 20, {"dealer": 1300, "non_dealer": 700})


def test_pinfu_ron_is_30_fu() -> None:
    a = score("234m345m456p678s6p", "6p")
    assert (a["total"], a["fu"], a["payments"]) == (2, 30, {"discarder": 2000})


def test_seven_pairs_stay_at_25_fu() -> None:
    a = score("1199m2288p3377s1z", "1z")
    assert ids(a) == {"chiitoitsu"}
    assert (a["fu"], a["payments"]) == (25, {"discarder": 1600})


def test_open_20_fu_ron_counts_30() -> None:
    a = score("567p345s22p67s", "8s", melds=[{"type": "chi", "tiles": "234m"}])
    assert ids(a) == {"tanyao"}
    assert (a["fu"], a["payments"]) == (30, {"discarder": 1000})


def test_open_self_draw_gets_the_tsumo_fu_but_no_menzen_tsumo() -> None:
    a = score("567p345s22p67s", "8s", "tsumo", melds=[{"type": "chi", "tiles": "234m"}])
    assert ids(a) == {"tanyao"}
    assert (a["fu"], a["payments"]) == (30, {"dealer": 500, "non_dealer": 300})


def test_double_wind_pair_is_4_fu() -> None:
    # Dealer (East seat, East round), pair of East: 20 + 10 closed ron + 4 = 34 -> 40; riichi 1 han.
    a = score("234m456p678s23s11z", "1s", seat_wind="E", round_wind="E", riichi=True)
    assert ids(a) == {"riichi"}
    assert (a["fu"], a["payments"]) == (40, {"discarder": 2000})


def test_concealed_terminal_kan_is_32_fu() -> None:
    # 20 + 10 closed ron (a concealed kan keeps the hand closed) + 32 = 62 -> 70; riichi 1 han.
    a = score("234p567s88p34m", "5m", melds=[{"type": "ankan", "tiles": "9999m"}], riichi=True)
    assert (a["fu"], a["payments"]) == (70, {"discarder": 2300})


def test_a_triplet_completed_by_ron_counts_open() -> None:
    # 777s completed by the discard: open simple 2 -> 20 + 10 + 2 = 32 -> 40 fu.
    ron = score("123m456p789p55p77s", "7s", riichi=True)
    assert (ron["fu"], ron["payments"]) == (40, {"discarder": 1300})
    # The same by self-draw: concealed simple 4 -> 20 + 2 + 4 = 26 -> 30 fu, riichi + menzen tsumo.
    tsumo = score("123m456p789p55p77s", "7s", "tsumo", riichi=True)
    assert (tsumo["fu"], tsumo["payments"]) == (30, {"dealer": 1000, "non_dealer": 500})


def test_points_items_are_itemised() -> None:
    from mjspec.runtime.context import WinContext, WinKind
    from mjspec.runtime.scoring import WinningHand, evaluate
    from mjspec.runtime.tiles import parse_tiles

    profile = load_profile("riichi_planet")
    hand = WinningHand(
        tuple(parse_tiles("123m456p789p55p77s")), (), parse_tiles("7s")[0], WinKind.RON
    )
    s = evaluate(profile, hand, WinContext.from_mapping({"riichi": True, "seat_wind": "W"}))
    assert {(i.id, i.points) for i in s.point_items} == {
        ("base", 20),
        ("closed_ron", 10),
        ("triplets", 2),
    }


# --- limits (no kiriage) --------------------------------------------------------------


def test_4_han_30_fu_is_not_rounded_up_to_mangan() -> None:
    # riichi + tanyao + pinfu + one dora (indicator 1m -> 2m): 30 x 2^6 = 1920 -> 7,680 -> 7,700.
    a = score("234m345m456p678s6p", "6p", riichi=True, dora_indicators="1m")
    assert (a["total"], a["fu"], a["payments"]) == (4, 30, {"discarder": 7700})


def test_a_base_of_2000_or_more_is_mangan() -> None:
    # riichi + ippatsu + a red five, 70 fu: 70 x 2^5 = 2240 -> mangan.
    a = score(
        "234p567s88p34m",
        "0m",
        melds=[{"type": "ankan", "tiles": "9999m"}],
        riichi=True,
        ippatsu=True,
    )
    assert ids(a) == {"riichi", "ippatsu", "red_fives"}
    assert (a["total"], a["fu"], a["payments"]) == (3, 70, {"discarder": 8000})


@pytest.mark.parametrize(
    "dora,han,non_dealer_ron,dealer_ron",
    [
        ("", 3, 3900, 5800),  # riichi + tanyao + pinfu: 3 han 30 fu
        ("1m", 4, 7700, 11600),  # 4 han 30 fu, no rounding up
        ("11m", 5, 8000, 12000),  # mangan
        ("5p", 6, 12000, 18000),  # haneman 6-7
        ("3m5p", 8, 16000, 24000),  # baiman 8-10
        ("3m5p5p", 11, 24000, 36000),  # sanbaiman 11-12
        ("3m3m5p5p", 13, 32000, 48000),  # counted yakuman from 13 han
    ],
)
def test_limit_tiers(dora: str, han: int, non_dealer_ron: int, dealer_ron: int) -> None:
    # riichi, tanyao, pinfu on 234m 345m 456p 678s 66p; indicator 1m makes 2m dora (1 copy),
    # 3m makes 4m (2 copies), 5p makes 6p (3 copies).
    a = score("234m345m456p678s6p", "6p", riichi=True, dora_indicators=dora)
    assert a["total"] == han and a["payments"] == {"discarder": non_dealer_ron}
    d = score("234m345m456p678s6p", "6p", riichi=True, dora_indicators=dora, seat_wind="E")
    assert d["payments"] == {"discarder": dealer_ron}


def test_counted_yakuman_reports_its_real_han() -> None:
    # riichi 1 + pure straight 2 + full flush 6 + dora 6 (two 4m indicators, three 5m) = 15 han:
    # yakuman.
    a = score("123456789m234m5m", "5m", riichi=True, dora_indicators="44m")
    assert a["total"] == 15 and a["fu"] is not None
    assert a["payments"] == {"discarder": 32000}


# --- yakuman ------------------------------------------------------------------------------


def test_yakuman_takes_no_ordinary_han_and_no_dora() -> None:
    a = score("555666777z234m9p", "9p", riichi=True, dora_indicators="8p", seat_wind="E")
    assert ids(a) == {"daisangen"}
    assert (a["total"], a["fu"], a["payments"]) == (13, None, {"discarder": 48000})


def test_compatible_yakuman_stack() -> None:
    # all honors + big three dragons, with an open pung of East: two yakuman, 26 han.
    a = score("555666777z2z", "2z", melds=[{"type": "pon", "tiles": "111z"}])
    assert ids(a) == {"tsuuiisou", "daisangen"}
    assert (a["total"], a["fu"], a["payments"]) == (26, None, {"discarder": 64000})


def test_four_concealed_triplets_by_ron_on_a_triplet_is_not_a_yakuman() -> None:
    # Ron completes 999p: three concealed triplets, all triplets.
    a = score("222m333p444s99p11z", "9p", riichi=True)
    assert "suuankou" not in ids(a) and {"sanankou", "toitoi"} <= ids(a)
    b = score("222m333p444s99p11z", "9p", "tsumo")
    assert ids(b) == {"suuankou"} and b["total"] == 13


def test_double_yakuman_tsumo_by_the_dealer() -> None:
    a = score("2223334445556m", "6m", "tsumo", seat_wind="E")
    assert ids(a) == {"suuankou_single_wait"}
    assert (a["total"], a["payments"]) == (26, {"non_dealer": 32000})


# --- payments, honba, red fives, errors ----------------------------------------------


def test_honba_adds_300_to_a_ron_and_100_per_tsumo_payer() -> None:
    ron = score("234m345m456p678s6p", "6p", honba=2)
    assert ron["payments"] == {"discarder": 2000 + 600}
    tsumo = score("234m345m456p678s6p", "6p", "tsumo", honba=2)
    assert tsumo["payments"] == {"dealer": 1300 + 200, "non_dealer": 700 + 200}


def test_riichi_sticks_are_not_part_of_payments() -> None:
    assert score("234m345m456p678s6p", "6p", riichi_sticks=3)["payments"] == {"discarder": 2000}


def test_red_fives_count_in_melds_and_never_make_the_yaku() -> None:
    a = score("123m456p789s1z", "1z", melds=[{"type": "chi", "tiles": "406s"}], round_wind="S")
    assert a["legal"] is False
    # White dragon + a red five in the open pung: 20 + 8 + 2 + 2 (pair wait) = 32 -> 40 fu, 2 han.
    b = score("234m678s555z6p", "6p", melds=[{"type": "pon", "tiles": "505p"}], round_wind="S")
    assert ids(b) == {"white_dragon", "red_fives"}
    assert (b["total"], b["fu"], b["payments"]) == (2, 40, {"discarder": 2600})


def test_ura_dora_counts_only_for_a_riichi_winner() -> None:
    with_riichi = score("234m345m456p678s6p", "6p", riichi=True, ura_indicators="5p")
    assert {p["id"]: p["count"] for p in with_riichi["patterns"]}["ura_dora"] == 3
    without = score("234m345m456p678s6p", "6p", ura_indicators="5p")
    assert "ura_dora" not in ids(without)


def test_dora_cycles_wrap() -> None:
    # 9 -> 1, North -> East, Red -> White.
    a = score("123m789p11z55z567s", "5z", riichi=True, dora_indicators="9m4z7z")
    counts = {p["id"]: p["count"] for p in a["patterns"]}
    assert counts["dora"] == 1 + 2 + 3


def test_a_bad_indicator_is_an_error_naming_the_key() -> None:
    answer = score_request(
        {
            "profile": "riichi_planet",
            "concealed": "234m345m456p678s6p",
            "win_tile": "6p",
            "win": "ron",
            "context": {"dora_indicators": "1f"},
        }
    )
    assert "error" in answer and "dora_indicators" in answer["error"]


# --- the spec's own examples cover the whole table ---------------------------------------


def test_every_pattern_has_a_worked_example() -> None:
    profile = load_profile("riichi_planet")
    shown = {pid for ex in profile.examples if ex.patterns for pid in ex.patterns}
    assert {p.id for p in profile.patterns} - shown == set()


def test_readings_have_examples() -> None:
    # chinroutou from several suits, ryuuiisou without the green dragon, ryanpeikou over seven
    # pairs,
    # haitei and houtei as two patterns: each reading is exercised by a spec example (run by
    # test_examples).
    profile = load_profile("riichi_planet")
    names = {ex.name for ex in profile.examples}
    assert "all terminals from several suits" in names
    assert "all green without the green dragon" in names
    assert "twice pure double sequence is scored instead of seven pairs" in names
    shown = [set(ex.patterns or ()) for ex in profile.examples]
    assert any("haitei" in s for s in shown) and any("houtei" in s for s in shown)


def test_seven_pairs_reading_loses_to_twice_pure_double_sequence() -> None:
    from mjspec.runtime.context import WinContext, WinKind
    from mjspec.runtime.scoring import WinningHand, score_every_arrangement
    from mjspec.runtime.tiles import parse_tiles

    profile = load_profile("riichi_planet")
    hand = WinningHand(
        tuple(parse_tiles("223344m556677p5s")), (), parse_tiles("5s")[0], WinKind.RON
    )
    every = score_every_arrangement(profile, hand, WinContext.from_mapping({"seat_wind": "W"}))
    readings = {frozenset(p.id for p in s.patterns): sum(s.payments.values()) for s in every}
    assert (
        readings[frozenset({"chiitoitsu", "tanyao"})]
        < readings[frozenset({"ryanpeikou", "tanyao"})]
    )
