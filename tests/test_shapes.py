"""Shapes: completeness, arrangements, waits, shanten; and the hand vocabulary.

The properties compare the module with a deliberately naive checker written
here: plain recursion that removes a pair, then sets from the lowest tile,
trying every branch (the module uses memoised per-suit tables and a greedy
sets test instead).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mjspec.runtime.hand import (
    Arrangement,
    Group,
    GroupKind,
    Meld,
    MeldError,
    MeldType,
    ShapeKind,
    WaitKind,
)
from mjspec.runtime.shapes import ShapeRules, arrangements, is_complete, is_ready, shanten, waits
from mjspec.runtime.tiles import Tile, counts34, parse_tiles

RIICHI = ShapeRules(seven_pairs=True, thirteen_orphans=True)
SICHUAN = ShapeRules(seven_pairs=True, seven_pairs_allow_four_of_a_kind=True)
STANDARD = ShapeRules()
RULESETS = {"riichi": RIICHI, "sichuan": SICHUAN, "standard": STANDARD}
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
ALL_KINDS = range(34)

rules_st = st.sampled_from(list(RULESETS.values()))


def c(text: str) -> list[int]:
    return counts34(parse_tiles(text))


def meld(kind: MeldType, text: str) -> Meld:
    return Meld(kind, tuple(parse_tiles(text)))


# --- the independent brute force ----------------------------------------------------

Reading = tuple[tuple[GroupKind, int], ...]


def bf_sets(counts: list[int]) -> list[list[tuple[GroupKind, int]]]:
    """Every way to split counts into sets, trying triplet and sequence at the lowest tile."""
    i = next((k for k in range(34) if counts[k]), None)
    if i is None:
        return [[]]
    out: list[list[tuple[GroupKind, int]]] = []
    if counts[i] >= 3:
        counts[i] -= 3
        out += [[(GroupKind.TRIPLET, i)] + rest for rest in bf_sets(counts)]
        counts[i] += 3
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        out += [[(GroupKind.SEQUENCE, i)] + rest for rest in bf_sets(counts)]
        for k in (i, i + 1, i + 2):
            counts[k] += 1
    return out


def bf_standard_readings(counts: Sequence[int]) -> set[Reading]:
    work = list(counts)
    found: set[Reading] = set()
    for p in range(34):
        if work[p] >= 2:
            work[p] -= 2
            for sets in bf_sets(work):
                found.add(tuple(sorted(sets + [(GroupKind.PAIR, p)])))
            work[p] += 2
    return found


def bf_complete(counts: Sequence[int], n_melds: int, rules: ShapeRules) -> bool:
    assert sum(counts) == 14 - 3 * n_melds
    if rules.standard and bf_standard_readings(counts):
        return True
    if n_melds == 0 and rules.seven_pairs:
        if rules.seven_pairs_allow_four_of_a_kind:
            if all(n % 2 == 0 for n in counts):
                return True
        elif sorted(n for n in counts if n) == [2] * 7:
            return True
    if n_melds == 0 and rules.thirteen_orphans:
        if all(counts[k] for k in ORPHANS) and sum(counts[k] for k in ORPHANS) == 14:
            return True
    return False


def bf_waits(
    concealed: Sequence[int], melds: Sequence[Meld], rules: ShapeRules, fifth_copy: bool = False
) -> set[int]:
    own = list(concealed)
    for m in melds:
        for t in m.tiles:
            own[t.kind] += 1
    out = set()
    for k in ALL_KINDS:
        if own[k] >= 4 and not fifth_copy:
            continue
        hand = list(concealed)
        hand[k] += 1
        if bf_complete(hand, len(melds), rules):
            out.add(k)
    return out


# --- hand strategies -------------------------------------------------------------------


@st.composite
def melds_st(draw: st.DrawFn, max_melds: int = 4) -> list[Meld]:
    melds = []
    for _ in range(draw(st.integers(0, max_melds))):
        mtype = draw(st.sampled_from(list(MeldType)))
        if mtype is MeldType.CHI:
            suit, start = draw(st.integers(0, 2)), draw(st.integers(0, 6))
            kinds = tuple(9 * suit + start + d for d in range(3))
        else:
            kinds = (draw(st.integers(0, 33)),) * (4 if mtype.is_kong else 3)
        melds.append(Meld(mtype, tuple(Tile(k) for k in kinds)))
    return melds


def set_kinds(draw: st.DrawFn) -> list[int]:
    if draw(st.booleans()):
        suit, start = draw(st.integers(0, 2)), draw(st.integers(0, 6))
        return [9 * suit + start + d for d in range(3)]
    return [draw(st.integers(0, 33))] * 3


def own_counts(concealed: Sequence[int], melds: Sequence[Meld]) -> list[int]:
    own = list(concealed)
    for m in melds:
        for t in m.tiles:
            own[t.kind] += 1
    return own


@st.composite
def complete_hands(draw: st.DrawFn) -> tuple[list[int], list[Meld]]:
    """A complete hand: melds plus concealed sets and a pair, or seven pairs, or orphans."""
    shape = draw(st.sampled_from(["standard", "standard", "standard", "pairs", "orphans"]))
    concealed = [0] * 34
    melds: list[Meld] = []
    if shape == "standard":
        melds = draw(melds_st())
        for _ in range(4 - len(melds)):
            for k in set_kinds(draw):
                concealed[k] += 1
        concealed[draw(st.integers(0, 33))] += 2
    elif shape == "pairs":
        for k in draw(st.lists(st.integers(0, 33), min_size=7, max_size=7)):
            concealed[k] += 2
    else:
        for k in ORPHANS:
            concealed[k] += 1
        concealed[draw(st.sampled_from(ORPHANS))] += 1
    assume(max(own_counts(concealed, melds)) <= 4)
    return concealed, melds


@st.composite
def wall_hands(draw: st.DrawFn, size: int) -> list[int]:
    """``size`` distinct tiles of the 136-tile wall, as counts."""
    indices = draw(st.lists(st.integers(0, 135), min_size=size, max_size=size, unique=True))
    counts = [0] * 34
    for i in indices:
        counts[i // 4] += 1
    return counts


@st.composite
def hands14(draw: st.DrawFn) -> tuple[list[int], list[Meld]]:
    """Complete hands, complete hands with one tile swapped, and random draws."""
    how = draw(st.sampled_from(["complete", "swapped", "random"]))
    if how == "random":
        return draw(wall_hands(14)), []
    concealed, melds = draw(complete_hands())
    if how == "swapped":
        out = draw(st.sampled_from([k for k in ALL_KINDS if concealed[k]]))
        concealed[out] -= 1
        concealed[draw(st.integers(0, 33))] += 1
        assume(max(own_counts(concealed, melds)) <= 4)
    return concealed, melds


@st.composite
def hands13(draw: st.DrawFn) -> tuple[list[int], list[Meld]]:
    """Waiting-size hands: a 14-tile hand minus one concealed tile."""
    concealed, melds = draw(hands14())
    out = draw(st.sampled_from([k for k in ALL_KINDS if concealed[k]]))
    concealed[out] -= 1
    return concealed, melds


# --- is_complete ------------------------------------------------------------------------


@given(hands14(), rules_st)
def test_is_complete_agrees_with_brute_force(
    hand: tuple[list[int], list[Meld]], rules: ShapeRules
) -> None:
    concealed, melds = hand
    assert is_complete(concealed, len(melds), rules) == bf_complete(concealed, len(melds), rules)


def test_is_complete_examples() -> None:
    assert is_complete(c("123m456p789s11122z"), 0, RIICHI)
    assert not is_complete(c("123m456p789s11123z"), 0, RIICHI)
    assert is_complete(c("11m"), 4, STANDARD)
    assert not is_complete(c("12m"), 4, STANDARD)
    # Four pairs in four suits add up to 2 mod 3 with the rest, but only one pair is allowed.
    assert not is_complete(c("11m11p11s11222333z"), 0, STANDARD)


def test_seven_pairs_four_of_a_kind() -> None:
    hand = c("1111m223344p5566s")
    assert not is_complete(hand, 0, STANDARD)
    assert is_complete(hand, 0, SICHUAN)
    assert not is_complete(hand, 0, RIICHI)
    distinct = c("1122m3344p5566s77z")
    assert is_complete(distinct, 0, RIICHI) and is_complete(distinct, 0, SICHUAN)
    (arr,) = arrangements(hand, [], 0, SICHUAN)
    assert arr.shape is ShapeKind.SEVEN_PAIRS and arr.wait is WaitKind.SINGLE
    assert [g.tile for g in arr.groups] == [0, 0, 10, 11, 12, 22, 23]


def test_wrong_tile_count_is_a_caller_error() -> None:
    with pytest.raises(ValueError, match="13 tiles"):
        is_complete(c("123m456p789s1112z"), 0, RIICHI)
    with pytest.raises(ValueError, match="length 34"):
        is_complete([0] * 33, 0, RIICHI)
    with pytest.raises(ValueError):
        waits(c("123m456p789s11122z"), [], RIICHI, ALL_KINDS)


def test_rules_must_enable_a_shape() -> None:
    with pytest.raises(ValueError):
        ShapeRules(standard=False)


def test_knitted_shapes_are_complete() -> None:
    """Knitted shapes (GB): more in tests/test_gb_shapes.py."""
    rules = ShapeRules(knitted=True)
    assert is_complete(c("123m456p789s11122z"), 0, rules)  # found before the knitted check
    assert is_complete(c("147m258p369s12345z"), 0, rules)  # honors and knitted
    assert is_complete(c("147m258p369s11z123p"), 0, rules)  # knitted straight, a set and a pair
    assert not is_complete(c("147m258p369s11z124p"), 0, rules)
    assert [a.shape.value for a in arrangements(c("147m258p369s12345z"), [], None, rules)] == [
        "honors_and_knitted"
    ]


# --- arrangements ------------------------------------------------------------------------


def reading_of(arr: Arrangement, n_melds: int) -> Reading:
    return tuple(sorted((g.kind, g.tile) for g in arr.groups[n_melds:]))


@given(complete_hands(), rules_st)
def test_arrangements_partition_the_hand(
    hand: tuple[list[int], list[Meld]], rules: ShapeRules
) -> None:
    concealed, melds = hand
    arrs = arrangements(concealed, melds, None, rules)
    assert bool(arrs) == bf_complete(concealed, len(melds), rules)
    whole = Counter(k for k in ALL_KINDS for _ in range(own_counts(concealed, melds)[k]))
    for arr in arrs:
        assert Counter(k for g in arr.groups for k in g.kinds) == whole
        assert arr.groups[: len(melds)] == tuple(m.group for m in melds)
        rest = arr.groups[len(melds) :]
        assert list(rest) == sorted(rest, key=lambda g: (g.tile, list(GroupKind).index(g.kind)))
        assert all(g.concealed and g.meld is None for g in rest)
        if arr.shape is ShapeKind.STANDARD:
            assert len(arr.groups) == 5 and arr.pair is not None and len(arr.sets) == 4
    assert len(set(arrs)) == len(arrs)
    standard = {reading_of(a, len(melds)) for a in arrs if a.shape is ShapeKind.STANDARD}
    assert standard == (bf_standard_readings(concealed) if rules.standard else set())
    assert arrangements(concealed, melds, None, rules) == arrs


@given(complete_hands(), rules_st, st.data())
def test_arrangements_with_winning_tile(
    hand: tuple[list[int], list[Meld]], rules: ShapeRules, data: st.DataObject
) -> None:
    concealed, melds = hand
    win = data.draw(st.sampled_from([k for k in ALL_KINDS if concealed[k]]))
    plain = arrangements(concealed, melds, None, rules)
    arrs = arrangements(concealed, melds, win, rules)
    expected = {
        (a.shape, a.groups, g) for a in plain for g in a.groups[len(melds) :] if g.contains(win)
    }
    assert {
        (a.shape, a.groups, a.groups[a.win_group]) for a in arrs if a.win_group is not None
    } == expected
    assert len(arrs) == len(expected)
    for a in arrs:
        assert a.win_group is not None and a.win_group >= len(melds)
        assert a.groups.index(a.groups[a.win_group]) == a.win_group  # first of equal groups


def only(
    text: str, win: str, melds: Sequence[Meld] = (), rules: ShapeRules = RIICHI
) -> Arrangement:
    arrs = arrangements(c(text), melds, Tile.parse(win).kind, rules)
    assert len(arrs) == 1, arrs
    return arrs[0]


@pytest.mark.parametrize(
    ("text", "win", "wait"),
    [
        ("123m456p789p234s55s", "3m", WaitKind.EDGE),
        ("789m456p789p234s55s", "7m", WaitKind.EDGE),
        ("123m456p789p234s55s", "2m", WaitKind.CLOSED),
        ("234m456p789p234s55s", "2m", WaitKind.TWO_SIDED),
        ("234m456p789p234s55s", "4m", WaitKind.TWO_SIDED),
        ("123m456p789p234s55s", "1m", WaitKind.TWO_SIDED),
        ("789m456p789p234s55s", "9m", WaitKind.TWO_SIDED),
        ("123m456p789p234s55s", "5s", WaitKind.SINGLE),
        ("111m456p789p234s55s", "1m", WaitKind.DUAL_PON),
        ("1122m3344p5566s77z", "7z", WaitKind.SINGLE),
        ("19m19p19s12345677z", "7z", WaitKind.THIRTEEN_SIDED),
        ("19m19p19s12345677z", "1z", WaitKind.SINGLE),
    ],
)
def test_wait_classification(text: str, win: str, wait: WaitKind) -> None:
    arr = only(text, win)
    assert arr.wait is wait
    assert arr.winning_group is not None and arr.winning_group.contains(Tile.parse(win).kind)


def test_a_tile_read_two_ways_gives_two_arrangements() -> None:
    arrs = arrangements(c("123345m567p789p11s"), [], 2, RIICHI)
    assert [(a.wait, a.groups[a.win_group].tile) for a in arrs if a.win_group is not None] == [
        (WaitKind.EDGE, 0),
        (WaitKind.TWO_SIDED, 2),
    ]
    assert arrs[0].groups == arrs[1].groups


def test_equal_groups_are_one_choice() -> None:
    # 112233m reads as two 123m; winning on 2m is one choice, not two.
    arrs = arrangements(c("112233m456p789p11s"), [], 1, STANDARD)
    assert len(arrs) == 1 and arrs[0].win_group == 0 and arrs[0].wait is WaitKind.CLOSED


def test_melds_come_first_and_single_wait() -> None:
    melds = [
        meld(MeldType.PON, "222z"),
        meld(MeldType.CHI, "312m"),
        meld(MeldType.ANKAN, "9999p"),
        meld(MeldType.KAKAN, "5505s"),
    ]
    arr = only("11m", "1m", melds)
    assert arr.groups[:4] == tuple(m.group for m in melds)
    assert arr.win_group == 4 and arr.wait is WaitKind.SINGLE
    assert arr.groups[2].concealed and not arr.groups[3].concealed
    assert waits(c("1m"), melds, RIICHI, ALL_KINDS) == {0}


def test_winning_tile_must_be_concealed() -> None:
    with pytest.raises(ValueError, match="winning kind"):
        arrangements(c("123m456p789p234s55s"), [], 30, RIICHI)


# --- waits ---------------------------------------------------------------------------------


@given(hands13(), rules_st)
def test_waits_agree_with_brute_force(
    hand: tuple[list[int], list[Meld]], rules: ShapeRules
) -> None:
    concealed, melds = hand
    got = waits(concealed, melds, rules, ALL_KINDS)
    assert got == bf_waits(concealed, melds, rules)
    assert is_ready(concealed, melds, rules, ALL_KINDS) == bool(got)
    assert waits(concealed, melds, rules, range(27)) == {k for k in got if k < 27}


def test_nine_gates_waits_on_every_man() -> None:
    assert waits(c("1112345678999m"), [], STANDARD, ALL_KINDS) == frozenset(range(9))


def test_no_fifth_copy() -> None:
    three_pons = [
        meld(MeldType.PON, "222p"),
        meld(MeldType.PON, "555s"),
        meld(MeldType.PON, "999p"),
    ]
    assert bf_waits(c("1111m"), three_pons, STANDARD, fifth_copy=True) == {0}
    assert waits(c("1111m"), three_pons, STANDARD, ALL_KINDS) == frozenset()
    assert not is_ready(c("1111m"), three_pons, STANDARD, ALL_KINDS)
    # A kong holds all four copies too.
    melds = [meld(MeldType.ANKAN, "1111m"), meld(MeldType.PON, "555p"), meld(MeldType.PON, "666p")]
    assert waits(c("23m11s"), melds, STANDARD, ALL_KINDS) == {3}


# --- shanten ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "n_melds", "rules", "expected"),
    [
        ("123m456p789s11122z", 0, STANDARD, -1),
        ("1122m3344p5566s77z", 0, RIICHI, -1),
        ("123m456p789s1122z", 0, STANDARD, 0),
        ("1112345678999m", 0, STANDARD, 0),
        ("19m19p19s1234567z", 0, RIICHI, 0),
        ("19m19p19s1234567z", 0, STANDARD, 8),
        ("1122m3344p5566s7z", 0, RIICHI, 0),
        ("123m456p789s1123z", 0, STANDARD, 1),
        ("123m456p789s1357z", 0, STANDARD, 2),
        ("13579m13579p135s", 0, STANDARD, 4),
        ("1111m223344p556s", 0, SICHUAN, 0),
        ("1111m223344p556s", 0, RIICHI, 1),
        ("1m", 4, STANDARD, 0),
        ("11m", 4, STANDARD, -1),
        ("12m", 4, STANDARD, 0),
        ("1m2p", 4, STANDARD, 0),
    ],
)
def test_shanten_examples(text: str, n_melds: int, rules: ShapeRules, expected: int) -> None:
    assert shanten(c(text), n_melds, rules) == expected


@given(hands13(), rules_st)
def test_shanten_zero_iff_some_tile_completes(
    hand: tuple[list[int], list[Meld]], rules: ShapeRules
) -> None:
    concealed, melds = hand
    assert (shanten(concealed, len(melds), rules) == 0) == bool(
        bf_waits(concealed, melds, rules, fifth_copy=True)
    )


@given(wall_hands(13), rules_st)
def test_shanten_zero_iff_ready_on_random_draws(concealed: list[int], rules: ShapeRules) -> None:
    assert (shanten(concealed, 0, rules) == 0) == bool(
        bf_waits(concealed, [], rules, fifth_copy=True)
    )


@settings(max_examples=60)
@given(hands13(), rules_st)
def test_shanten_is_the_exchange_distance(
    hand: tuple[list[int], list[Meld]], rules: ShapeRules
) -> None:
    """Shanten satisfies the shortest-path equations of draw-and-discard, by shape alone.

    A waiting hand is one more than its best draw; a drawn hand is -1 if
    complete, else its best discard.
    """
    concealed, melds = hand
    m = len(melds)
    best_draw = 99
    for k in ALL_KINDS:
        drawn = list(concealed)
        drawn[k] += 1
        s14 = shanten(drawn, m, rules)
        if bf_complete(drawn, m, rules):
            assert s14 == -1
        else:
            best_discard = min(
                shanten([n - (j == d) for j, n in enumerate(drawn)], m, rules)
                for d in ALL_KINDS
                if drawn[d]
            )
            assert s14 == best_discard
        best_draw = min(best_draw, s14)
    assert shanten(concealed, m, rules) == 1 + best_draw


# --- the hand vocabulary --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "text", "fragment"),
    [
        (MeldType.CHI, "124m", "consecutive"),
        (MeldType.CHI, "891m", "consecutive"),
        (MeldType.CHI, "89m1p", "consecutive"),
        (MeldType.CHI, "123z", "consecutive"),
        (MeldType.PON, "112m", "3 tiles of one kind"),
        (MeldType.PON, "11m", "takes 3 tiles"),
        (MeldType.MINKAN, "111m", "takes 4 tiles"),
        (MeldType.ANKAN, "1112m", "4 tiles of one kind"),
        (MeldType.PON, "111f", "flowers"),
    ],
)
def test_meld_validation(kind: MeldType, text: str, fragment: str) -> None:
    with pytest.raises(MeldError, match=fragment):
        meld(kind, text)


def test_meld_claimed_and_source() -> None:
    chi = Meld(MeldType.CHI, tuple(parse_tiles("0m46m")), claimed=Tile(4, red=True), source="left")
    assert chi.kind == 3 and chi.group == Group(GroupKind.SEQUENCE, 3, False, MeldType.CHI)
    assert Meld(MeldType.PON, tuple(parse_tiles("550p"))).group.is_triplet
    with pytest.raises(MeldError, match="claimed"):
        Meld(MeldType.PON, tuple(parse_tiles("555p")), claimed=Tile(4))
    with pytest.raises(MeldError, match="source"):
        Meld(MeldType.PON, tuple(parse_tiles("555p")), source="behind")
    with pytest.raises(MeldError):
        Meld(MeldType.ANKAN, tuple(parse_tiles("5555p")), source="left")
    assert MeldType.ANKAN.is_concealed and MeldType.KAKAN.is_kong and not MeldType.PON.is_kong


def test_group_properties() -> None:
    seq = Group(GroupKind.SEQUENCE, 6, True)
    assert (
        seq.kinds == (6, 7, 8) and seq.has_terminal_or_honor and not seq.is_terminal_or_honor_group
    )
    assert seq.contains(8) and not seq.contains(9) and seq.number == 7
    trip = Group(GroupKind.TRIPLET, 3, True)
    assert trip.kinds == (3, 3, 3) and trip.is_triplet and not trip.is_kong
    kong = Group(GroupKind.KONG, 31, False, MeldType.MINKAN)
    assert kong.is_triplet and kong.is_kong and kong.is_honor and kong.is_terminal_or_honor_group
    assert Group(GroupKind.KNITTED, 11, True).kinds == (11, 14, 17)
    assert Group(GroupKind.SINGLE, 27, True).kinds == (27,)
    with pytest.raises(ValueError):
        Group(GroupKind.SEQUENCE, 7, True)  # 8-9-1 leaves the suit
    with pytest.raises(ValueError):
        Group(GroupKind.SEQUENCE, 27, True)
    with pytest.raises(ValueError):
        Group(GroupKind.TRIPLET, 3, False, MeldType.CHI)


@given(st.randoms(use_true_random=False))
def test_discard_shanten_equals_shanten_per_discard(rnd: "random.Random") -> None:
    from mjspec.runtime.shapes import discard_shanten

    for rules in (
        ShapeRules(seven_pairs=True, seven_pairs_allow_four_of_a_kind=True),
        ShapeRules(seven_pairs=True, thirteen_orphans=True),
    ):
        n_melds = rnd.choice([0, 0, 1, 2])
        pool = [k for k in range(34) for _ in range(4)]
        tiles = rnd.sample(pool, 14 - 3 * n_melds)
        counts = [0] * 34
        for k in tiles:
            counts[k] += 1
        got = discard_shanten(counts, n_melds, rules)
        for k in set(tiles):
            c = list(counts)
            c[k] -= 1
            assert got[k] == shanten(c, n_melds, rules)
        assert set(got) == set(tiles)
