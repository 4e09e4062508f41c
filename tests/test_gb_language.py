"""The spec-language mechanisms GB needed, held to their documented meaning.

- combination patterns (``combine``) with the non-identical and account-once
  principles, and ``excludes`` that act only on a combination's own sets;
- ``excludes`` limited to some occurrences;
- ``fallback`` (Chicken Hand) and ``bonus`` (flowers);
- ``win.minimum`` (the 8-fan floor without flowers);
- the checker's errors for each of them.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from mjspec.compiler.build import Layout, compile_library
from mjspec.runtime.context import WinContext, WinKind
from mjspec.runtime.hand import Meld, MeldType
from mjspec.app.registry import load_profile
from mjspec.runtime.scoring import Score, WinningHand, evaluate
from mjspec.runtime.tiles import parse_tiles

from conftest import ROOT


def score(
    concealed: str,
    win: str,
    *,
    melds: tuple[tuple[str, str], ...] = (),
    tsumo: bool = False,
    **ctx: object,
) -> Score:
    hand = WinningHand(
        tuple(parse_tiles(concealed)),
        tuple(Meld(MeldType(t), tuple(parse_tiles(x))) for t, x in melds),
        parse_tiles(win)[0],
        WinKind.TSUMO if tsumo else WinKind.RON,
    )
    return evaluate(load_profile("gb_mcr"), hand, WinContext.from_mapping(ctx))


def counts(s: Score) -> dict[str, int]:
    return {p.id: p.count for p in s.patterns}


def test_non_identical_and_account_once() -> None:
    # 234s 234p 234p 567p 99m: three 1-fan chow fans at most (four sets, one tree),
    # and 234s forms Mixed Double Chow once, not with both 234p.
    s = score("234s223344567p9m", "9m")
    got = counts(s)
    assert (
        got["pure_double_chow"] == 1
        and got["mixed_double_chow"] == 1
        and got["short_straight"] == 1
    )


def test_a_cycle_of_chow_fans_counts_three() -> None:
    # 234s 567s 234p 567p: MDC, MDC, SS, SS form a cycle; any three of them count
    s = score("234567s234567p5m", "5m")
    got = counts(s)
    assert got.get("mixed_double_chow", 0) + got.get("short_straight", 0) == 3


def test_implied_fans_only_on_the_combinations_own_sets() -> None:
    # Big Three Winds takes the winds' Pung of Terminals or Honors, not the 999m's
    s = score("999m111222333z5p", "5p", round_wind="N", seat_wind="N")
    got = counts(s)
    assert got["big_three_winds"] == 1 and got["pung_of_terminals_or_honors"] == 1
    # a seat-wind pung is no Pung of Terminals or Honors as well: Seat Wind implies it on that pung
    s = score("999m111z234p5p", "5p", melds=(("pon", "222z"),), seat_wind="S", round_wind="N")
    got = counts(s)
    assert got["seat_wind"] == 1 and got["pung_of_terminals_or_honors"] == 2  # 999m and 111z


def test_an_excludes_limit_leaves_the_other_occurrences() -> None:
    # The Green Book's Nine Gates counts neither terminal pung (issue 13 item 3): won on 2m, 111m
    # and
    # 999m are pungs and none counts. Limited to one occurrence (the calculator's reading, set here
    # on a
    # copy of the profile), the other pung still counts.
    s = score("1112345678999m", "2m")
    assert counts(s)["nine_gates"] == 1 and "pung_of_terminals_or_honors" not in counts(s)
    gb = load_profile("gb_mcr")
    limited = dataclasses.replace(
        gb,
        patterns=tuple(
            (
                dataclasses.replace(p, exclude_limits=(("pung_of_terminals_or_honors", 1),))
                if p.id == "nine_gates"
                else p
            )
            for p in gb.patterns
        ),
    )
    hand = WinningHand(tuple(parse_tiles("1112345678999m")), (), parse_tiles("2m")[0], WinKind.RON)
    assert counts(evaluate(limited, hand, WinContext()))["pung_of_terminals_or_honors"] == 1


def test_chicken_hand_is_the_fallback_and_flowers_stand_aside() -> None:
    melds = (("chi", "123m"), ("chi", "789p"), ("pon", "666s"))
    s = score("56m11z", "7m", melds=melds, round_wind="S", seat_wind="W")
    assert counts(s) == {"chicken_hand": 1} and s.legal and s.total == 8
    s = score("56m11z", "7m", melds=melds, round_wind="S", seat_wind="W", flowers="12f")
    assert counts(s) == {"chicken_hand": 1, "flower_tiles": 2} and s.total == 10
    assert s.payments == {"discarder": 18, "others": 8}


def test_the_minimum_leaves_out_flowers_but_counts_self_draw() -> None:
    melds = (("chi", "123s"),)
    short = score("222m2224566p", "6p", melds=melds, flowers="12345678f")
    assert not short.legal and short.total == 13 and short.payments == {}
    assert short.reason == "the hand scores fewer than 8 fan without its flowers"
    drawn = score("222m2224566p", "6p", melds=(("chi", "456s"),), tsumo=True)
    assert drawn.legal and drawn.total == 8 and "self_drawn" in counts(drawn)


BASE = (ROOT / "specs" / "sichuan_tfmj.yaml").read_text("utf-8")
NAMES = "{en: x, zh: x, ja: x, pt: x, fr: x}"


def errors_of(tmp_path: Path, body: str) -> list[str]:
    spec_dir = tmp_path / "specs"
    spec_dir.mkdir()
    (spec_dir / "sichuan_tfmj.yaml").write_text(BASE, "utf-8")
    (spec_dir / "house.yaml").write_text(
        f"id: house\nextends: sichuan_tfmj\nnames: {NAMES}\n{body}", "utf-8"
    )
    (tmp_path / "generated").mkdir()
    layout = dataclasses.replace(Layout.at(tmp_path), locale=None)
    return [str(e) for e in compile_library(layout).errors]


def test_checker_refuses_misused_mechanisms(tmp_path: Path) -> None:
    body = (
        "win:\n"
        "  minimum: {at_least: 8, without: [flowerz], reason: " + NAMES + "}\n"
        "scoring:\n"
        "  patterns:\n"
        f"    pairs: {{value: 1, combine: {{sequences: 2}}, count: '1', when: 'a.suit == "
        f"b.suit', names: {NAMES}}}\n"
        f"    lonely: {{value: 1, combine: {{sets: 1}}, when: 'b.is_sequence', names: {NAMES}}}\n"
        f"    flowerish: {{value: 1, count: flowers, bonus: true, excludes: [root], names: "
        f"{NAMES}}}\n"
        f"    limited: {{value: 1, when: 'True', excludes: [{{pattern: rooot, occurrences: "
        f"1}}], names: {NAMES}}}\n"
    )
    errors = "\n".join(errors_of(tmp_path, body))
    assert "unknown pattern 'flowerz'" in errors
    assert "drop `count`" in errors
    assert "unknown name 'b'" in errors or "'b'" in errors  # a one-set combination has only `a`
    assert "bonus pattern stands outside every relation" in errors
    assert "excludes unknown pattern 'rooot'" in errors
