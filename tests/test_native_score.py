"""The native scoring core (runtime/native/score.c) against the Python engine, its reference.

* The arrangement enumeration equals :func:`mjspec.runtime.shapes.arrangements` (groups,
  their order, the winning group and the wait) for seeded and Hypothesis hands under every
  combination of :class:`ShapeRules` flags.
* Wherever a profile has a native module, ``evaluate_native`` equals ``evaluate`` field for
  field (``arrangement`` aside) on every spec example, every MahjongPaper case in tests/data
  and seeded random hands and situations; where it answers None (Python decides) the test
  counts it, and prints how often that happened.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjspec.runtime.backend import native_module
from mjspec.runtime.context import Wind, WinContext, WinKind
from mjspec.runtime.hand import Arrangement, Meld, MeldType
from mjspec.runtime.native_score import KIND_CODE, MELD_CODE, SHAPE_CODE, WAIT_CODE, evaluate_native
from mjspec.runtime.profile import Profile
from mjspec.app.registry import load_profile, profile_ids
from mjspec.runtime.scoring import HandError, Score, WinningHand, evaluate
from mjspec.runtime.shapes import ShapeRules, arrangements
from mjspec.runtime.tiles import Tile

from conftest import DATA
from handkit import example_hand, random_hand, special_shape_hand

core = native_module("runtime._score")
pytestmark = pytest.mark.skipif(
    core is None, reason="mjspec.runtime._score is not built (or MJSPEC_BACKEND=python)"
)

ALL_RULES = [
    ShapeRules(
        standard=a, seven_pairs=b, seven_pairs_allow_four_of_a_kind=c, thirteen_orphans=d, knitted=e
    )
    for a, b, c, d, e in itertools.product((False, True), repeat=5)
    if a or b or d or e
]


def _native_arrangements(
    counts: list[int], melds: tuple[Meld, ...], win: int | None, rules: ShapeRules
) -> list[Any] | None:
    assert core is not None
    return core.arrangements(
        bytes(counts),
        tuple((MELD_CODE[m.type], bytes([t.kind * 2 + t.red for t in m.tiles])) for m in melds),
        -1 if win is None else win,
        rules.standard,
        rules.seven_pairs,
        rules.seven_pairs_allow_four_of_a_kind,
        rules.thirteen_orphans,
        rules.knitted,
    )


def _as_tuples(arrs: list[Arrangement]) -> list[Any]:
    return [
        (
            SHAPE_CODE[a.shape],
            tuple(
                (
                    KIND_CODE[g.kind],
                    g.tile,
                    int(g.concealed),
                    -1 if g.meld is None else MELD_CODE[g.meld],
                )
                for g in a.groups
            ),
            a.win_group,
            WAIT_CODE[a.wait],
        )
        for a in arrs
    ]


def _check_arrangements(hand: WinningHand, rules: ShapeRules) -> int:
    counts = [0] * 34
    for t in (*hand.concealed, hand.win_tile):
        counts[t.kind] += 1
    every = [*counts]
    for m in hand.melds:
        for t in m.tiles:
            every[t.kind] += 1
    if max(every) > 4:
        return 0
    for win in (hand.win_tile.kind, None):
        want = _as_tuples(arrangements(counts, hand.melds, win, rules))
        assert _native_arrangements(counts, hand.melds, win, rules) == want, (hand, rules, win)
    return len(want)


def _seeded_hands(seed: int, n: int) -> list[WinningHand]:
    rng = random.Random(seed)
    honors = load_profile("riichi_planet")  # three suits and honors
    out = []
    for _ in range(n):
        r = rng.random()
        out.append(special_shape_hand(rng) if r < 0.25 else random_hand(rng, honors))
    return out


def test_arrangements_equal_python_on_seeded_hands() -> None:
    found = 0
    for i, hand in enumerate(_seeded_hands(12, 1500)):
        found += _check_arrangements(hand, ALL_RULES[i % len(ALL_RULES)])
    assert found > 400  # the corpus holds winning hands under many rules, not only refusals


def test_arrangements_equal_python_on_many_readings() -> None:
    # Hands with several readings and repeated groups: the order of the readings and the
    # first-of-equal winning groups matter (ties keep the first best arrangement).
    for text in (
        "111222333m456p77z",
        "112233m112233p55s",
        "111122223333m55p",
        "11112222333344m",
        "11123456789999m",
        "1112345678999m5m",
    ):
        from mjspec.runtime.tiles import parse_tiles

        tiles = parse_tiles(text)
        for w in range(len(tiles)):
            hand = WinningHand(tuple(tiles[:w] + tiles[w + 1 :]), (), tiles[w], WinKind.RON)
            for rules in ALL_RULES:
                _check_arrangements(hand, rules)


@st.composite
def _counts(draw: st.DrawFn) -> tuple[list[int], int]:
    kinds = draw(st.lists(st.integers(0, 33), min_size=14, max_size=14))
    counts = [0] * 34
    for k in kinds:
        counts[k] += 1
    if max(counts) > 4:
        kinds = sorted(set(kinds))[:14]
        counts = [0] * 34
        for k in kinds:
            counts[k] += 1
    return counts, draw(st.sampled_from(kinds))


@settings(max_examples=300, deadline=None)
@given(_counts(), st.sampled_from(ALL_RULES))
def test_arrangements_equal_python_hypothesis(
    drawn: tuple[list[int], int], rules: ShapeRules
) -> None:
    counts, win = drawn
    if sum(counts) != 14:
        return  # the de-duplicated draw fell short of 14 tiles: no hand
    for w in (win, None):
        assert _native_arrangements(counts, (), w, rules) == _as_tuples(
            arrangements(counts, (), w, rules)
        )


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(ALL_RULES))
def test_arrangements_equal_python_hypothesis_built(seed: int, rules: ShapeRules) -> None:
    for hand in _seeded_hands(seed, 3):
        _check_arrangements(hand, rules)


def test_arrangements_refuse_malformed_input() -> None:
    assert core is not None
    with pytest.raises(ValueError):
        core.arrangements(bytes(33), (), -1, True, False, False, False, False)
    with pytest.raises(ValueError):
        core.arrangements(bytes([5] + [0] * 33), (), -1, True, False, False, False, False)
    with pytest.raises(ValueError):  # a chi that is not a run
        core.arrangements(
            bytes([2] + [0] * 33),
            ((0, bytes([0, 4, 8])),) * 4,
            -1,
            True,
            False,
            False,
            False,
            False,
        )
    with pytest.raises(ValueError):  # the winning kind is not held
        core.arrangements(
            bytes([3, 3, 3, 3, 2] + [0] * 29), (), 9, True, False, False, False, False
        )


# ---------------------------------------------------------------------------
# evaluate_native == evaluate
# ---------------------------------------------------------------------------

NATIVE_IDS = [pid for pid in profile_ids() if native_module(f"generated._native_{pid}") is not None]
_TALLY: dict[str, list[int]] = {}


def _native_params() -> list[Any]:
    return [
        pytest.param(
            pid,
            marks=(
                []
                if pid in NATIVE_IDS
                else pytest.mark.skip(reason=f"generated._native_{pid} is not built")
            ),
        )
        for pid in profile_ids()
    ]


def _same(profile: Profile, hand: WinningHand, ctx: WinContext) -> Score | None:
    """Score with both backends; assert they agree wherever native answers; tally the fallbacks."""
    tally = _TALLY.setdefault(profile.id, [0, 0])
    try:
        py = evaluate(profile, hand, ctx, reference=True)
    except HandError as e:
        with pytest.raises(HandError, match="^" + __import__("re").escape(str(e)) + "$"):
            if evaluate_native(profile, hand, ctx) is None:
                raise HandError(str(e))  # native left it to Python, which raises this
        return None
    native = evaluate_native(profile, hand, ctx)
    if native is None:
        tally[1] += 1
        return None
    tally[0] += 1
    assert native == replace(py, arrangement=None), (hand, ctx)
    assert list(native.payments.items()) == list(py.payments.items())  # dicts compare without order
    return native


def _report(pid: str) -> None:
    native, fallback = _TALLY.get(pid, [0, 0])
    print(f"\n{pid}: native answered {native}, left to Python {fallback}")


@pytest.mark.parametrize("pid", _native_params())
def test_examples_equal_python(pid: str) -> None:
    profile = load_profile(pid)
    _TALLY[pid] = [0, 0]  # this test's own count
    for ex in profile.examples:
        hand, ctx = example_hand(profile, ex)
        _same(profile, hand, ctx)
    _report(pid)


def _mahjongpaper_requests() -> list[tuple[str, WinningHand, WinContext]]:
    import test_gb_cases
    import test_published_cases

    out: list[tuple[str, WinningHand, WinContext]] = []
    for case in test_published_cases._cases():
        out.append(("sichuan_tfmj", *test_published_cases._request(case)))
    for case in test_published_cases._riichi_cases():
        out.append(("riichi_planet", *test_published_cases._riichi_request(case)))
    for case in test_gb_cases._cases():
        out.append(("gb_mcr", *test_gb_cases.request(case)))
    return out


def test_data_cases_equal_python() -> None:
    requests = _mahjongpaper_requests()
    assert len(requests) == 13 + 43 + 13
    answered = 0
    for pid, hand, ctx in requests:
        if pid in NATIVE_IDS:
            answered += _same(load_profile(pid), hand, ctx) is not None
    if not NATIVE_IDS:
        pytest.skip("no profile has a native module")
    print(f"\ntests/data cases answered natively: {answered} of {len(requests)}")


def random_situation(rng: random.Random, profile: Profile, hand: WinningHand) -> WinContext:
    """A situation drawing on every context field the view reads (all checked by from_mapping)."""
    raw: dict[str, Any] = {}
    if profile.opening.missing_suit.value == "declare" and rng.random() < 0.85:
        raw["missing_suit"] = rng.choice([s.value for s in profile.tiles.suits])
    for flag in (
        "last_tile",
        "after_kong",
        "kong_shot",
        "robbing_kong",
        "first_draw",
        "fourth_tile",
        "riichi",
        "double_riichi",
        "ippatsu",
        "original_call",
        "kong_upon_kong",
    ):
        if rng.random() < 0.15:
            raw[flag] = True
    raw["seat_wind"] = rng.choice("ESWN")
    raw["round_wind"] = rng.choice("ESWN")
    if rng.random() < 0.2:
        raw["dealer"] = rng.random() < 0.5
    if rng.random() < 0.3:
        raw["honba"] = rng.randrange(4)
    if rng.random() < 0.1:
        raw["dealer_wins"] = rng.randrange(14)
    kinds = list(profile.tiles.kinds())
    if profile.tiles.honors and rng.random() < 0.6:
        raw["dora_indicators"] = "".join(str(Tile(k)) for k in rng.sample(kinds, rng.randint(1, 3)))
        if rng.random() < 0.4:
            raw["ura_indicators"] = "".join(
                str(Tile(k)) for k in rng.sample(kinds, rng.randint(1, 3))
            )
    if profile.tiles.flowers and rng.random() < 0.5:
        raw["flowers"] = "".join(
            f"{n}f" for n in sorted(rng.sample(range(1, 9), rng.randint(1, 8)))
        )
    if rng.random() < 0.1:
        raw["exhausted"] = str(Tile(rng.choice(kinds)))
    return WinContext.from_mapping(raw)


def _red(rng: random.Random, profile: Profile, hand: WinningHand) -> WinningHand:
    """Some fives of a red-five profile made red (within the set's red copies: one per suit)."""
    reds = (
        {s for s in profile.tiles.red_fives} if getattr(profile.tiles, "red_fives", ()) else set()
    )
    if not reds or rng.random() < 0.5:
        return hand
    done: set[str] = set()

    def redden(t: Tile) -> Tile:
        if (
            t.kind < 27
            and t.number == 5
            and t.suit in reds
            and t.suit.value not in done
            and rng.random() < 0.5
        ):
            done.add(t.suit.value)
            return Tile(t.kind, True)
        return t

    concealed = tuple(redden(t) for t in hand.concealed)
    return WinningHand(concealed, hand.melds, redden(hand.win_tile), hand.win)


def dense_hand(rng: random.Random, profile: Profile) -> WinningHand:
    """A winning hand of four sets drawn from a few neighbouring sequences and triplets (repeated
    and shifted chows, pungs one apart): where combination patterns and their relations crowd."""
    suits = [s.value for s in profile.tiles.suits]
    while True:
        base = rng.randrange(5)
        picked = rng.sample(suits, min(len(suits), rng.randint(1, 3)))
        counts = [0] * 34
        groups: list[tuple[str, int]] = []
        for _ in range(4):
            suit = "mps".index(rng.choice(picked))
            start = 9 * suit + base + rng.randrange(3)
            groups.append(("seq" if rng.random() < 0.6 else "trip", start))
        pair = 9 * "mps".index(rng.choice(picked)) + rng.randrange(9)
        kinds = [pair, pair]
        for kind, start in groups:
            kinds += [start, start + 1, start + 2] if kind == "seq" else [start] * 3
        for k in kinds:
            counts[k] += 1
        if max(counts) > 4:
            continue
        melds: list[Meld] = []
        concealed = list(kinds)
        for kind, start in groups:
            if rng.random() < 0.2:
                tiles = [start, start + 1, start + 2] if kind == "seq" else [start] * 3
                for k in tiles:
                    concealed.remove(k)
                melds.append(
                    Meld(
                        MeldType.CHI if kind == "seq" else MeldType.PON,
                        tuple(Tile(k) for k in tiles),
                    )
                )
        rng.shuffle(concealed)
        win = concealed.pop()
        kind = WinKind.TSUMO if rng.random() < 0.5 else WinKind.RON
        return WinningHand(tuple(Tile(k) for k in concealed), tuple(melds), Tile(win), kind)


@pytest.mark.parametrize("pid", _native_params())
def test_seeded_random_hands_equal_python(pid: str) -> None:
    profile = load_profile(pid)
    _TALLY[pid] = [0, 0]  # this test's own count
    rng = random.Random(f"native-{pid}")
    for _ in range(1500):
        hand = _red(rng, profile, random_hand(rng, profile))
        _same(profile, hand, random_situation(rng, profile, hand))
    if profile.shapes.knitted or profile.shapes.thirteen_orphans:
        for _ in range(300):
            hand = special_shape_hand(rng)
            _same(profile, hand, random_situation(rng, profile, hand))
    for _ in range(500):
        hand = dense_hand(rng, profile)
        _same(profile, hand, random_situation(rng, profile, hand))
    _report(pid)
    assert _TALLY[pid][0] > 0, "native answered nothing: every hand fell back"


@pytest.mark.parametrize("pid", _native_params())
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_hypothesis_hands_equal_python(pid: str, seed: int) -> None:
    profile = load_profile(pid)
    rng = random.Random(seed)
    hand = _red(rng, profile, random_hand(rng, profile))
    _same(profile, hand, random_situation(rng, profile, hand))


def test_native_leaves_options_and_losing_hands_to_python() -> None:
    if not NATIVE_IDS:
        pytest.skip("no profile has a native module")
    profile = load_profile(NATIVE_IDS[0])
    hand, ctx = example_hand(profile, profile.examples[0])
    assert evaluate_native(profile, hand, replace(ctx, losing_hand=True)) is None
    assert evaluate_native(profile, hand, replace(ctx, options=(("x", 1),))) is None
    # a profile object whose rules differ from the native tables is scored by Python
    changed = replace(profile, cap=(profile.cap or 0) + 1)
    assert evaluate_native(changed, hand, ctx) is None


def test_malformed_hand_raises_as_python() -> None:
    if not NATIVE_IDS:
        pytest.skip("no profile has a native module")
    profile = load_profile(NATIVE_IDS[0])
    tiles = tuple(Tile(0) for _ in range(5)) + tuple(Tile(9 + i) for i in range(8))
    hand = WinningHand(tiles, (), Tile(1), WinKind.RON)  # five copies of 1m
    with pytest.raises(HandError) as py:
        evaluate(profile, hand, WinContext(), reference=True)
    with pytest.raises(HandError) as nat:
        evaluate_native(profile, hand, WinContext())
    assert str(nat.value) == str(py.value)


# ---------------------------------------------------------------------------
# The core alone: a bridge profile whose expressions are the Python predicates
# ---------------------------------------------------------------------------


def _bridge(pid: str) -> Any:
    import shutil

    if shutil.which("cc") is None:
        pytest.skip("no C compiler to build the bridge profile")
    from nativebridge import bridge_module

    return bridge_module(load_profile(pid))


def _same_bridged(
    profile: Profile, module: Any, hand: WinningHand, ctx: WinContext, tally: list[int]
) -> None:
    from mjspec.runtime.native_score import evaluate_with

    try:
        py = evaluate(profile, hand, ctx, reference=True)
    except HandError:
        return
    module.reset()
    native = evaluate_with(module.PROFILE, profile, hand, ctx)
    if native is None:
        tally[1] += 1
        return
    tally[0] += 1
    assert native == replace(py, arrangement=None), (hand, ctx)
    assert list(native.payments.items()) == list(py.payments.items())  # dicts compare without order


@pytest.mark.parametrize("pid", profile_ids())
def test_core_with_python_predicates_equals_python(pid: str) -> None:
    """The core over tables whose every expression is the generated Python predicate
    (tests/nativebridge.py): its arrangements, views, relations, points and payments give Python's
    answers on every example and on seeded random hands and situations."""
    profile = load_profile(pid)
    module = _bridge(pid)
    tally = [0, 0]
    for ex in profile.examples:
        _same_bridged(profile, module, *example_hand(profile, ex), tally)
    rng = random.Random(f"bridge-{pid}")
    for _ in range(400):
        hand = _red(rng, profile, random_hand(rng, profile))
        _same_bridged(profile, module, hand, random_situation(rng, profile, hand), tally)
    if profile.shapes.knitted or profile.shapes.thirteen_orphans:
        for _ in range(100):
            hand = special_shape_hand(rng)
            _same_bridged(profile, module, hand, random_situation(rng, profile, hand), tally)
    for _ in range(300):
        hand = dense_hand(rng, profile)
        _same_bridged(profile, module, hand, random_situation(rng, profile, hand), tally)
    print(f"\n{pid} (bridge): native answered {tally[0]}, left to Python {tally[1]}")
    assert tally[0] > 0


# ---------------------------------------------------------------------------
# Robustness: the core refuses what it cannot read, and never crashes
# ---------------------------------------------------------------------------


def _any_capsule() -> Any:
    from mjspec.runtime.native_score import native_profile

    for pid in profile_ids():
        capsule = native_profile(load_profile(pid))
        if capsule is not None:
            return pid, capsule
    pytest.skip("no profile has a native module")


def test_core_refuses_malformed_arguments() -> None:
    assert core is not None
    pid, capsule = _any_capsule()
    profile = load_profile(pid)
    opts = b"\0" * (24 * len(profile.options))
    sit = (0,) * 10 + (0, 0, -1) + (0,) * 7 + (-1, -1)
    good = (
        capsule,
        bytes([0, 0, 0, 2, 4, 6, 8, 10, 12, 14, 16, 16, 16]),
        (),
        16,
        True,
        sit,
        b"",
        b"",
        opts,
    )
    assert isinstance(core.evaluate(*good), tuple)
    bad = [
        (b"not a capsule",) + good[1:],
        good[:1] + (bytes([200] * 13),) + good[2:],  # tile codes beyond the kinds
        good[:1] + (bytes([0] * 12),) + good[2:],  # a tile short
        good[:1] + (bytes([1] * 13),) + good[2:],  # a red 1m
        good[:2] + (((0, b"\x00\x02"),),) + good[3:],  # a chi of two tiles
        good[:2] + (((9, b"\x00\x02\x04"),),) + good[3:],  # no such meld type
        good[:3] + (999,) + good[4:],
        good[:5] + ((0,) * 3,) + good[6:],  # a short situation
        good[:5] + (sit[:10] + (7,) + sit[11:],) + good[6:],  # a seat wind out of range
        good[:8] + (b"\0",),  # options of the wrong size
    ]
    for args in bad:
        with pytest.raises((TypeError, ValueError)):
            core.evaluate(*args)
    # beyond int64, or not an int: the Python engine answers
    assert core.evaluate(*good[:5], sit[:19] + (2**70,) + sit[20:], *good[6:]) is None
    assert core.evaluate(*good[:5], sit[:19] + (None,) + sit[20:], *good[6:]) is None
    # twenty dora indicators: more than the view holds, so Python answers
    assert core.evaluate(*good[:6], bytes([0] * 20), *good[7:]) is None


def test_score_hand_is_not_sure_of_odd_objects() -> None:
    assert core is not None
    pid, capsule = _any_capsule()
    profile = load_profile(pid)
    hand, ctx = example_hand(profile, profile.examples[0])
    from mjspec.runtime.native_score import _native

    scorer = _native(profile).scorer
    assert scorer is not None
    assert isinstance(core.score_hand(scorer, profile, hand, ctx), Score)
    odd_contexts = [
        replace(ctx, honba=-1),
        replace(ctx, dealer_wins=2**80),
        replace(ctx, last_tile=1),  # type: ignore[arg-type]
        replace(ctx, seat_wind="X"),  # type: ignore[arg-type]
        replace(ctx, missing_suit="z"),  # type: ignore[arg-type]
        replace(ctx, options=(("x", 1),)),
        replace(ctx, losing_hand=True),
        replace(ctx, flowers=3),  # type: ignore[arg-type]
        replace(ctx, dora_indicators=None),  # type: ignore[arg-type]
    ]
    for odd in odd_contexts:
        assert core.score_hand(scorer, profile, hand, odd) is NotImplemented, odd
    odd_hands = [
        WinningHand(hand.concealed[:-1], hand.melds, hand.win_tile, hand.win),  # a tile short
        WinningHand(hand.concealed, hand.melds, Tile(34), hand.win),  # a flower
        WinningHand(hand.concealed, hand.melds, hand.win_tile, "maybe"),  # type: ignore[arg-type]
        "not a hand",
    ]
    for odd_hand in odd_hands:
        assert core.score_hand(scorer, profile, odd_hand, ctx) is NotImplemented
    with pytest.raises(TypeError):
        core.score_hand(capsule, profile, hand, ctx)  # the profile's tables are no scorer
    with pytest.raises(TypeError):
        core.score_hand(scorer, profile, hand)
    from mjspec.runtime.native_score import _builder
    from mjspec.runtime.situation import impossible_win

    options = _native(profile).options
    build = _builder(profile)
    assert build is not None

    def scorer(
        *,
        tiles: bytes = bytes(84),
        b: Any = build,
        rows: Any = (),
        refuse: Any = impossible_win,
        known: Any = (Tile(0),),
    ) -> Any:
        assert core is not None
        return core.scorer(capsule, tiles, 4, options, b, 31, 0, 0, rows, refuse, known)

    assert scorer(rows=((1, "why"),)) is not None
    with pytest.raises(ValueError):  # a builder that does not name every pattern
        scorer(b=(*build[:3], (), ()))
    with pytest.raises(ValueError):  # a contradiction of no facts would refuse every win
        scorer(rows=((0, "always"),))
    with pytest.raises(ValueError):  # a contradiction is a mask and its reason
        scorer(rows=(1,))
    with pytest.raises(ValueError):
        scorer(tiles=bytes(83))
    with pytest.raises(ValueError):  # the refusal must be callable
        scorer(refuse="impossible_win")
    with pytest.raises(ValueError):  # known tiles are tiles
        scorer(known=("1m",))


@settings(max_examples=300, deadline=None)
@given(
    st.binary(max_size=20),
    st.lists(st.tuples(st.integers(-2, 6), st.binary(max_size=5)), max_size=5),
    st.integers(-5, 90),
)
def test_core_never_crashes_on_random_bytes(
    concealed: bytes, melds: list[tuple[int, bytes]], win: int
) -> None:
    assert core is not None
    pid, capsule = _any_capsule()
    profile = load_profile(pid)
    sit = (0,) * 10 + (0, 0, -1) + (0,) * 7 + (-1, -1)
    opts = b"\0" * (24 * len(profile.options))
    try:
        out = core.evaluate(capsule, concealed, tuple(melds), win, False, sit, b"", b"", opts)
    except (TypeError, ValueError):
        return
    assert out is None or isinstance(out, tuple)
    try:
        core.arrangements(
            concealed[:34].ljust(34, b"\0"), tuple(melds), win - 5, True, True, True, True, True
        )
    except (TypeError, ValueError):
        pass


def _check_only_wait(hand: WinningHand, rules: ShapeRules) -> bool | None:
    from mjspec.runtime.shapes import (
        _formal_waits,
    )  # the Python reference (is_only_wait asks runtime._shapes first)

    assert core is not None
    counts = [0] * 34
    for t in (*hand.concealed, hand.win_tile):
        counts[t.kind] += 1
    every = list(counts)
    for m in hand.melds:
        for t in m.tiles:
            every[t.kind] += 1
    if max(every) > 4:
        return None
    before = list(counts)
    before[hand.win_tile.kind] -= 1
    want = _formal_waits(before, len(hand.melds), rules) == frozenset((hand.win_tile.kind,))
    got = core.only_wait(
        bytes(counts),
        len(hand.melds),
        hand.win_tile.kind,
        rules.standard,
        rules.seven_pairs,
        rules.seven_pairs_allow_four_of_a_kind,
        rules.thirteen_orphans,
        rules.knitted,
    )
    assert got is want, (hand, rules)
    return want


def test_only_wait_equals_shapes_is_only_wait() -> None:
    """The core computes only_wait itself (scoring.py asks shapes.is_only_wait, whose Python
    reference is _formal_waits): the two agree."""
    singles = 0
    for i, hand in enumerate(_seeded_hands(21, 1500)):
        singles += bool(_check_only_wait(hand, ALL_RULES[i % len(ALL_RULES)]))
    rng = random.Random(21)
    gb = load_profile("gb_mcr")
    for _ in range(500):
        singles += bool(_check_only_wait(dense_hand(rng, gb), gb.shapes))
    assert singles > 100  # single waits do occur in the corpus


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(ALL_RULES))
def test_only_wait_equals_shapes_hypothesis(seed: int, rules: ShapeRules) -> None:
    for hand in _seeded_hands(seed, 3):
        _check_only_wait(hand, rules)


@pytest.mark.parametrize("pid", _native_params())
def test_general_path_equals_fast_path(pid: str) -> None:
    """evaluate_native's two ways give one answer: the core reading the hand and context objects,
    situation.py's refusals and building the Score (score_hand), and the general path (check_hand,
    _pack, evaluate, _score, then situation.py itself); and the first answers nearly every request.
    """
    from mjspec.runtime.native_score import _general, _native, _refused

    profile = load_profile(pid)
    native = _native(profile)
    assert native.scorer is not None
    rng = random.Random(f"paths-{pid}")
    answered = declined = 0
    for _ in range(600):
        hand = _red(
            rng,
            profile,
            random_hand(rng, profile) if rng.random() < 0.7 else dense_hand(rng, profile),
        )
        ctx = random_situation(rng, profile, hand)
        fast = native.score_hand(native.scorer, profile, hand, ctx)
        try:
            general = _refused(profile, hand, ctx, _general(native, profile, hand, ctx))
        except HandError:
            assert fast is NotImplemented, (hand, ctx)  # the general path words the error
            continue
        if fast is NotImplemented:
            declined += 1
            continue
        assert fast == general, (hand, ctx)
        if fast is not None and general is not None:
            assert list(fast.payments.items()) == list(general.payments.items())
        answered += fast is not None
    print(f"\n{pid}: score_hand answered {answered}, declined {declined}")
    assert answered > 250
    # random_situation names an exhausted kind in one request of ten, which only_live_wait
    # leaves to the general path; little else is declined
    assert declined < 0.15 * (answered + declined), (answered, declined)


@pytest.mark.parametrize("pid", _native_params())
def test_situation_refusals_equal_python(pid: str) -> None:
    """Every combination of the context's flags the core reads as facts (those situation.py
    CONTRADICTIONS names among them), on a legal win with and without melds, won both ways: the
    core's refusals (read from that table) are Python's, reason and all, and so are its counts of
    indicators, copies and red fives (too_many_copies)."""
    from mjspec.runtime.situation import CONTRADICTIONS

    profile = load_profile(pid)
    wins = [
        example_hand(profile, ex)
        for ex in profile.examples
        if ex.legal and not {"options", "losing_hand"} & set(dict(ex.context))
    ]
    with_melds = [w for w in wins if w[0].melds][:1]
    without = [w for w in wins if not w[0].melds][:1]
    assert with_melds or without
    # every flag of the context the core reads as a fact, not only those the rows name today:
    # a refusal situation.py words in code rather than in a row would differ here
    assert core is not None
    named = {f.removeprefix("not ") for facts, _ in CONTRADICTIONS for f in facts}
    flags = [f for f in core.FACTS if f in WinContext.__dataclass_fields__]
    assert named <= {*flags, "tsumo", "ron", "melds", "dead_wall"}
    refused = 0
    for hand, ctx in with_melds + without:
        for win in (WinKind.TSUMO, WinKind.RON):
            won = WinningHand(hand.concealed, hand.melds, hand.win_tile, win)
            for bits in range(1 << len(flags)):
                odd = replace(ctx, **{f: bool(bits >> i & 1) for i, f in enumerate(flags)})
                score = _same(profile, won, odd)
                refused += score is not None and not score.legal
    assert refused > 0
    hand, ctx = (with_melds + without)[0]
    if profile.tiles.honors:  # a profile with indicators: too many of them, or of one tile
        for dora in ("1m", "1m2m3m4m5m6m", "1m1m1m1m", "5z5z5z5z5z", " 1 2m ", "0m0m", "0p"):
            _same(profile, hand, replace(ctx, dora_indicators=dora))
            _same(profile, hand, replace(ctx, ura_indicators=dora))


@pytest.mark.parametrize("pid", _native_params())
def test_context_texts_equal_python(pid: str) -> None:
    """The core reads flowers and indicators from their mpsz text itself: every text, plain or odd
    (spaces, red fives, flowers twice, letters without digits, tiles the set lacks), gives Python's
    answer or leaves the request to the general path, which words the error."""
    profile = load_profile(pid)
    hand, ctx = next(
        example_hand(profile, ex)
        for ex in profile.examples
        if ex.legal and not {"options", "losing_hand"} & set(dict(ex.context))
    )
    texts = [
        "",
        " ",
        "1f",
        "1f 2f",
        "12345678f",
        "1f1f",
        "9f",
        "0f",
        "f",
        "1",
        "1m",
        "0m",
        "0z",
        "8z",
        "7z",
        "11z",
        "1f2m",
        "1x",
        "１m",
        "12f 5f",
        "5678f",
        "1234f",
        "2f6f",
        "1m" * 17,
    ]
    for text in texts:
        _same(profile, hand, replace(ctx, flowers=text))
        _same(profile, hand, replace(ctx, dora_indicators=text))
        _same(profile, hand, replace(ctx, ura_indicators=text))
    for seat in "ESWN":
        _same(profile, hand, replace(ctx, flowers="1234f8f", seat_wind=Wind(seat)))


def test_tenhou_games_score_natively_as_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/data/tenhou: every hand the table engine scores while replaying a few whole games and
    every edge-case excerpt (chankan, rinshan, double ron, pao) is scored by both backends as well.
    """
    if "riichi_tenhou" not in NATIVE_IDS:
        pytest.skip("generated._native_riichi_tenhou is not built")
    import mjspec.runtime.table.wins as table  # the win flow scores every win of the table
    import test_tenhou_replay as replays

    from mjspec.app.tenhou import load_log
    from mjspec.app.tenhou_replay import replay_game, replay_hand

    seen = [0, 0]
    real = table.evaluate

    def both(profile: Profile, hand: WinningHand, ctx: WinContext) -> Score:
        py = real(profile, hand, ctx, reference=True)
        native = evaluate_native(profile, hand, ctx)
        seen[native is None] += 1
        if native is not None:
            assert native == replace(py, arrangement=None), (hand, ctx)
            assert list(native.payments.items()) == list(py.payments.items())
        return py

    monkeypatch.setattr(table, "evaluate", both)
    profile = load_profile("riichi_tenhou")
    for name in replays.FAST:
        path = next(p for p in replays.GAMES if p.name == name)
        replay_game(load_log(path), profile)
    for path in replays.EXCERPTS:
        game = load_log(path)
        for th in game.hands:
            replay_hand(th, profile, red_fives=game.rules.red_fives, source=path.name)
    print(f"\ntenhou replays: {seen[0]} scorings answered natively, {seen[1]} left to Python")
    assert seen[0] > 50


def test_tables_the_core_refuses_leave_python_to_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A module whose PROFILE the core does not read (here: not a capsule at all) means no native
    backend for the profile, never an error: the Python engine answers."""
    import types

    from mjspec.runtime import native_score

    if not NATIVE_IDS:
        pytest.skip("no profile has a native module")
    profile = replace(load_profile(NATIVE_IDS[0]))  # a fresh object: nothing learnt yet
    fake = types.SimpleNamespace(PROFILE="not a capsule")
    real = native_score.load_native
    monkeypatch.setattr(
        native_score,
        "load_native",
        lambda name: fake if name.startswith("mjspec.generated.") else real(name),
    )
    hand, ctx = example_hand(profile, profile.examples[0])
    assert evaluate_native(profile, hand, ctx) is None
    assert (
        evaluate(profile, hand, ctx, reference=True).legal == profile.examples[0].legal
    )  # Python still answers


@pytest.mark.parametrize("pid", _native_params())
def test_examples_under_bound_options_equal_python(pid: str) -> None:
    """An example stating game options, scored by the profile bound to them (as a table binds its
    game's options; the request itself then states none): native answers as Python, the options
    packed from the bound profile, and classical NoLimit's limit hands counted beside their limit
    natively."""
    from mjspec.runtime.options import bind_options

    profile = load_profile(pid)
    bound_examples = 0
    for ex in profile.examples:
        hand, ctx = example_hand(profile, ex)
        if not ctx.options or ctx.losing_hand:
            continue
        bound = bind_options(profile, {**profile.option_values.as_dict(), **dict(ctx.options)})
        plain = replace(ctx, options=())
        py = evaluate(bound, hand, plain, reference=True)
        assert py == evaluate(
            profile, hand, ctx, reference=True
        )  # binding is what a request's options do
        native = evaluate_native(bound, hand, plain)
        if bound.shapes != profile.shapes:
            assert native is None, ex.name  # the native tables hold the shapes: Python answers
            continue
        assert native is not None, ex.name
        assert native == replace(py, arrangement=None), ex.name
        bound_examples += 1
    if not bound_examples:
        pytest.skip(f"{pid} has no example stating options")
    print(f"\n{pid}: {bound_examples} examples with options answered natively under bound profiles")


def test_the_situation_is_packed_in_the_order_of_its_table() -> None:
    """The general path's ``_pack`` writes each context field into the slot runtime/context.py's
    SITUATION gives it: the table runtime/native/mjsituation.h (and so the core) numbers the
    slots from. One field changed at a time changes that slot alone (double_riichi: riichi too,
    which the core reads as ``riichi or double_riichi``)."""
    from mjspec.runtime.context import SITUATION, SlotRead
    from mjspec.runtime.native_score import SITUATION as NAMES
    from mjspec.runtime.native_score import _native, _pack
    from mjspec.runtime.tiles import Suit

    assert NAMES == tuple(s.name for s in SITUATION) and len(NAMES) == core.SITUATION_FIELDS
    profile = load_profile("riichi_planet")
    hand, _ = example_hand(profile, profile.examples[0])
    native = _native(profile)
    base_ctx = WinContext(seat_wind=Wind.SOUTH)  # not the dealer, so that `dealer` shows
    base = _pack(native, profile, hand, base_ctx)
    assert base is not None
    given: dict[SlotRead, tuple[Any, int]] = {
        SlotRead.FLAG: (True, 1),
        SlotRead.DEALER: (True, 1),
        SlotRead.WIND: (Wind.WEST, 2),
        SlotRead.SUIT: (Suit("p"), 1),
        SlotRead.COUNT: (3, 3),
    }
    read = 0
    for i, slot in enumerate(SITUATION):
        if slot.read is SlotRead.DERIVED:
            continue  # worked out from other fields: the differential tests hold those
        value, code = given[slot.read]
        packed = _pack(native, profile, hand, replace(base_ctx, **{slot.name: value}))
        assert packed is not None, slot.name
        moved = {j for j, (a, b) in enumerate(zip(base[5], packed[5])) if a != b}
        expected = {i} | ({NAMES.index("riichi")} if slot.name == "double_riichi" else set())
        assert moved == expected, (slot.name, moved)
        assert packed[5][i] == code, slot.name
        read += 1
    assert read >= 17
