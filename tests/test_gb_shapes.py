"""GB's special shapes in the runtime: knitted straights, honors-and-knitted, the formal single
wait.

Shanten of the knitted shapes is compared with PyMahjongGB's own functions
when that test extra is installed.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjspec.runtime.hand import GroupKind, Meld, MeldType, ShapeKind
from mjspec.runtime.shapes import (
    ShapeRules,
    arrangements,
    is_complete,
    is_only_wait,
    shanten,
    waits,
)
from mjspec.runtime.tiles import counts34, parse_tiles

from gbkit import KNITTED, code
from handkit import brute_force_complete, brute_force_special

GB = ShapeRules(
    seven_pairs=True, seven_pairs_allow_four_of_a_kind=True, thirteen_orphans=True, knitted=True
)
ALL = range(34)


def c(text: str) -> list[int]:
    return counts34(parse_tiles(text))


def test_knitted_straight_reading() -> None:
    (arr,) = arrangements(c("147m258p369s11z123p"), [], 27, GB)
    assert arr.shape is ShapeKind.KNITTED_STRAIGHT
    kinds = sorted(g.kind.value for g in arr.groups)
    assert kinds == ["knitted", "knitted", "knitted", "pair", "sequence"]
    assert arr.wait.value == "single"
    (arr,) = arrangements(c("147m258p369s11z123p"), [], 0, GB)
    assert arr.wait.value == "other"  # a knitted tile completes no named wait


def test_knitted_straight_beside_one_meld() -> None:
    meld = Meld(MeldType.PON, tuple(parse_tiles("777z")))
    assert is_complete(c("147m258p369s55p"), 1, GB)
    # the winning 5p is the pair's or the knitted 2-5-8's: two arrangements
    arrs = arrangements(c("147m258p369s55p"), [meld], 13, GB)
    assert {a.shape for a in arrs} == {ShapeKind.KNITTED_STRAIGHT}
    assert sorted(a.wait.value for a in arrs) == ["other", "single"]
    assert waits(c("147m258p369s5p"), [meld], GB, ALL) == {13}
    assert waits(c("147m258p36s55p"), [meld], GB, ALL) == {26}
    two = [meld, Meld(MeldType.PON, tuple(parse_tiles("666z")))]
    assert not waits(c("147m258p3s"), two, GB, ALL)  # never beside two melds


def test_honors_and_knitted() -> None:
    (arr,) = arrangements(c("147m258p369s12345z"), [], 27, GB)
    assert arr.shape is ShapeKind.HONORS_AND_KNITTED and arr.pair is None
    assert all(g.kind is GroupKind.SINGLE for g in arr.groups)
    assert is_complete(c("14m258p39s1234567z"), 0, GB)  # greater: all seven honors
    assert is_complete(c("14m25p369s1234567z"), 0, GB)
    assert not is_complete(c("14m258p39s1234566z"), 0, GB)  # a pair is not knitted
    assert not is_complete(c("14m25m369s1234567z"), 0, GB)  # 1-4 and 2-5 in one suit


def test_formal_single_wait() -> None:
    # 123m 4444m 678m 456p waits on 1m and on a fifth 4m: formally two waits (002 §4)
    assert not is_only_wait(c("1234444678m456p"), [], GB, 0)
    assert waits(c("1234444678m456p"), [], GB, ALL) == {0}  # though only 1m can still come
    assert is_only_wait(c("12m456789m456p11z"), [], GB, 2)  # edge 3m
    assert not is_only_wait(c("23m456789m456p11z"), [], GB, 0)  # two-sided
    assert not is_only_wait(c("147m258p369s1234z"), [], GB, 31)  # 5z, 6z and 7z all complete it
    assert is_only_wait(c("147m258p36s11z123p"), [], GB, 26)  # the knitted 9s alone


@settings(max_examples=300)
@given(seed=st.integers(min_value=0, max_value=2**63))
def test_special_shapes_agree_with_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    straight = rng.choice(KNITTED)
    pool = [k for k in straight for _ in range(2)] + list(range(27, 34)) + rng.sample(range(34), 8)
    kinds = rng.sample(pool, 14)
    if max(Counter(kinds).values()) > 4:
        return
    counts = [0] * 34
    for k in kinds:
        counts[k] += 1
    expected = brute_force_complete(kinds, 4, True, True) or brute_force_special(
        kinds, 0, True, True
    )
    assert is_complete(counts, 0, GB) == expected
    assert bool(arrangements(counts, [], None, GB)) == expected


def test_knitted_shanten_matches_pymahjonggb() -> None:
    MahjongGB = pytest.importorskip("MahjongGB", reason="PyMahjongGB is not installed")
    rng = random.Random(5)
    wall = [k for k in range(34) for _ in range(4)]
    checked = 0
    while checked < 3000:
        if rng.random() < 0.7:
            pool = (
                [k for k in rng.choice(KNITTED) for _ in range(2)]
                + list(range(27, 34))
                + rng.sample(wall, 10)
            )
            hand = rng.sample(pool, 13)
            if max(Counter(hand).values()) > 4:
                continue
        else:
            hand = rng.sample(wall, 13)
        counts = [0] * 34
        for k in hand:
            counts[k] += 1
        tiles = tuple(code(k) for k in hand)
        ref = min(
            MahjongGB.KnittedStraightShanten(tiles)[0],
            MahjongGB.HonorsAndKnittedTilesShanten(tiles)[0],
        )
        only_knitted = ShapeRules(standard=False, knitted=True)
        assert shanten(counts, 0, only_knitted) == ref, sorted(hand)
        checked += 1


def test_shanten_minimises_over_every_gb_shape() -> None:
    assert shanten(c("147m258p369s1234z"), 0, GB) == 0
    assert shanten(c("147m258p369s11z12p"), 0, GB) == 0
    assert shanten(c("19m19p19s1234567z"), 0, GB) == 0
    assert waits(c("19m19p19s1234567z"), [], GB, ALL) == {
        0,
        8,
        9,
        17,
        18,
        26,
        27,
        28,
        29,
        30,
        31,
        32,
        33,
    }
