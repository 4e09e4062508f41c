"""The native shape core (runtime/native/mjshapes.h) against the Python reference and a brute force.

Every enabled-shape combination ShapeRules allows is tried on Hypothesis-drawn and seeded random
hands: complete hands of every shape (melds 0..4), the same with one tile swapped, and random
draws from the wall. For is_complete, waits and shanten three answers must agree: the native
core, the Python reference (``shapes._py_*``) and the brute force written here, which knows
nothing of suit tables: it searches the whole 34-kind vector for groups, tries every tile for
waits, and checks shanten against the shortest-path equations of draw and discard.

The module is skipped, with the reason, when the extension was not built or
``MJSPEC_BACKEND=python`` switched it off.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjspec.runtime import shapes
from mjspec.runtime.backend import NATIVE_ALLOWED
from mjspec.runtime.hand import Meld, MeldType
from mjspec.runtime.shapes import ShapeRules
from mjspec.runtime.tiles import Tile, counts34, parse_tiles

NATIVE = shapes._NATIVE
pytestmark = pytest.mark.skipif(
    NATIVE is None,
    reason=(
        "MJSPEC_BACKEND=python switches the native core off"
        if not NATIVE_ALLOWED
        else "the native extension mjspec.runtime._shapes was not built (no C compiler at install)"
    ),
)

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
HONORS = tuple(range(27, 34))
SEVEN_PAIRS_FOURS = (False, True)


def every_rules() -> list[ShapeRules]:
    """Every combination of the shape switches that enables at least one shape."""
    out = []
    for standard, pairs, four, orphans, knitted in itertools.product((False, True), repeat=5):
        if not (standard or pairs or orphans or knitted) or (four and not pairs):
            continue
        out.append(
            ShapeRules(
                standard=standard,
                seven_pairs=pairs,
                seven_pairs_allow_four_of_a_kind=four,
                thirteen_orphans=orphans,
                knitted=knitted,
            )
        )
    return out


RULES = every_rules()


def knitted_straights() -> list[frozenset[int]]:
    """1-4-7, 2-5-8 and 3-6-9, each in a different suit: six straights."""
    out = []
    for suits in itertools.permutations(range(3)):
        out.append(
            frozenset(
                9 * suit + n - 1
                for suit, first in zip(suits, (1, 2, 3))
                for n in (first, first + 3, first + 6)
            )
        )
    return out


STRAIGHTS = knitted_straights()


# --- the brute force ---------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def bf_sets(counts: tuple[int, ...], sets: int, pair: bool) -> bool:
    """Whether counts split into exactly ``sets`` sets and (``pair``) one pair, trying every group
    at the lowest tile."""
    i = next((k for k in range(34) if counts[k]), None)
    if i is None:
        return sets == 0 and not pair
    c = list(counts)
    if pair and c[i] >= 2:
        c[i] -= 2
        if bf_sets(tuple(c), sets, False):
            return True
        c[i] += 2
    if sets and c[i] >= 3:
        c[i] -= 3
        if bf_sets(tuple(c), sets - 1, pair):
            return True
        c[i] += 3
    if sets and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        if bf_sets(tuple(c), sets - 1, pair):
            return True
    return False


def bf_complete(counts: Sequence[int], n_melds: int, rules: ShapeRules) -> bool:
    assert sum(counts) == 14 - 3 * n_melds
    key = tuple(counts)
    if rules.standard and bf_sets(key, 4 - n_melds, True):
        return True
    if n_melds == 0 and rules.seven_pairs:
        top = 4 if rules.seven_pairs_allow_four_of_a_kind else 2
        if all(n % 2 == 0 and n <= top for n in counts):
            return True
    if n_melds == 0 and rules.thirteen_orphans:
        if all(counts[k] for k in ORPHANS) and sum(counts[k] for k in ORPHANS) == 14:
            return True
    if rules.knitted:
        if n_melds <= 1:
            for straight in STRAIGHTS:
                if all(counts[k] for k in straight):
                    rest = tuple(n - (k in straight) for k, n in enumerate(counts))
                    if bf_sets(rest, 1 - n_melds, True):
                        return True
        if n_melds == 0 and max(counts) == 1:
            held = {k for k in range(34) if counts[k]}
            if any(held <= straight | set(HONORS) for straight in STRAIGHTS):
                return True
    return False


def bf_waits(
    concealed: Sequence[int], melds: Sequence[Meld], rules: ShapeRules, copies: int = 4
) -> frozenset[int]:
    own = list(concealed)
    for m in melds:
        for t in m.tiles:
            own[t.kind] += 1
    out = set()
    for k in range(34):
        if own[k] >= copies:
            continue
        hand = list(concealed)
        hand[k] += 1
        if bf_complete(hand, len(melds), rules):
            out.add(k)
    return frozenset(out)


@functools.lru_cache(maxsize=None)
def bf_blocks(counts: tuple[int, ...]) -> frozenset[tuple[int, int, int]]:
    """Every (head, sets, partials) the whole vector can be split into, any tile left alone
    allowed."""
    i = next((k for k in range(34) if counts[k]), None)
    if i is None:
        return frozenset({(0, 0, 0)})
    out: set[tuple[int, int, int]] = set()
    suited = i < 27

    def take(kinds: Sequence[int], dh: int, dm: int, dt: int) -> None:
        c = list(counts)
        for k in kinds:
            if c[k] == 0:
                return
            c[k] -= 1
        for h, m, t in bf_blocks(tuple(c)):
            if h + dh <= 1:
                out.add((h + dh, m + dm, t + dt))

    take((i,), 0, 0, 0)
    take((i, i), 1, 0, 0)
    take((i, i), 0, 0, 1)
    take((i, i, i), 0, 1, 0)
    if suited and i % 9 <= 7:
        take((i, i + 1), 0, 0, 1)
    if suited and i % 9 <= 6:
        take((i, i + 2), 0, 0, 1)
        take((i, i + 1, i + 2), 0, 1, 0)
    return frozenset(out)


def bf_standard_shanten(counts: Sequence[int], n_melds: int) -> int:
    """8 - 2 * sets - partials - head, with sets and partials filling at most the free slots."""
    cap = 4 - n_melds
    return 2 * cap - max(
        2 * m + min(t, cap - m) + h for h, m, t in bf_blocks(tuple(counts)) if m <= cap
    )


# --- hands -------------------------------------------------------------------------------------


def random_meld(rng: random.Random) -> Meld:
    kind = rng.choice(list(MeldType))
    if kind is MeldType.CHI:
        start = 9 * rng.randrange(3) + rng.randrange(7)
        return Meld(kind, tuple(Tile(k) for k in range(start, start + 3)))
    return Meld(kind, (Tile(rng.randrange(34)),) * (4 if kind.is_kong else 3))


def add_set(counts: list[int], rng: random.Random) -> None:
    if rng.random() < 0.5:
        start = 9 * rng.randrange(3) + rng.randrange(7)
        for k in range(start, start + 3):
            counts[k] += 1
    else:
        counts[rng.randrange(34)] += 3


def own_ok(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    own = list(counts)
    for m in melds:
        for t in m.tiles:
            own[t.kind] += 1
    return max(own) <= 4


def random_complete(rng: random.Random) -> tuple[list[int], list[Meld]]:
    """A complete hand of a random shape within the copy limit."""
    while True:
        counts = [0] * 34
        melds: list[Meld] = []
        shape = rng.choice(
            ["standard", "standard", "pairs", "fours", "orphans", "knitted", "knitted1", "honors"]
        )
        if shape == "standard":
            melds = [random_meld(rng) for _ in range(rng.choice([0, 0, 1, 2, 3, 4]))]
            for _ in range(4 - len(melds)):
                add_set(counts, rng)
            counts[rng.randrange(34)] += 2
        elif shape in ("pairs", "fours"):
            kinds = rng.sample(range(34), 6 if shape == "fours" else 7)
            for k in kinds:
                counts[k] += 2
            if shape == "fours":
                counts[kinds[0]] += 2
        elif shape == "orphans":
            for k in ORPHANS:
                counts[k] += 1
            counts[rng.choice(ORPHANS)] += 1
        elif shape in ("knitted", "knitted1"):
            for k in rng.choice(STRAIGHTS):
                counts[k] += 1
            if shape == "knitted1":
                melds = [random_meld(rng)]
            else:
                add_set(counts, rng)
            counts[rng.randrange(34)] += 2
        else:
            straight = sorted(rng.choice(STRAIGHTS))
            for k in rng.sample(straight + list(HONORS), 14):
                counts[k] += 1
        if own_ok(counts, melds):
            return counts, melds


def random_draw(rng: random.Random, n_melds: int, size: int) -> tuple[list[int], list[Meld]]:
    """``n_melds`` random melds and ``size - 3 * n_melds`` tiles drawn from the wall beside them."""
    while True:
        melds = [random_meld(rng) for _ in range(n_melds)]
        counts = [0] * 34
        for k in rng.sample([k for k in range(34) for _ in range(4)], size - 3 * n_melds):
            counts[k] += 1
        if own_ok(counts, melds):
            return counts, melds


def random_hand14(rng: random.Random) -> tuple[list[int], list[Meld]]:
    """A complete hand, one with a tile swapped, or 14 - 3 * melds tiles drawn from the wall."""
    how = rng.random()
    if how < 0.3:
        return random_draw(rng, rng.choice([0, 0, 0, 1, 2, 3, 4]), 14)
    counts, melds = random_complete(rng)
    if how < 0.65:
        while True:
            c = list(counts)
            c[rng.choice([k for k in range(34) if c[k]])] -= 1
            c[rng.randrange(34)] += 1
            if own_ok(c, melds):
                return c, melds
    return counts, melds


def random_hand13(rng: random.Random) -> tuple[list[int], list[Meld]]:
    counts, melds = random_hand14(rng)
    counts[rng.choice([k for k in range(34) if counts[k]])] -= 1
    return counts, melds


def c(text: str) -> list[int]:
    return counts34(parse_tiles(text))


# --- is_complete ---------------------------------------------------------------------------------


def check_complete(counts: list[int], melds: list[Meld], rules: ShapeRules) -> None:
    n = len(melds)
    native = NATIVE.is_complete(counts, n, rules)
    assert native is shapes._py_is_complete(counts, n, rules) is bf_complete(counts, n, rules), (
        counts,
        n,
        rules,
    )
    assert shapes.is_complete(counts, n, rules) is native


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_is_complete_seeded(rules: ShapeRules) -> None:
    rng = random.Random(f"complete {rules}")
    for _ in range(400):
        check_complete(*random_hand14(rng), rules)


@given(st.randoms(use_true_random=False), st.sampled_from(RULES))
def test_is_complete_hypothesis(rng: random.Random, rules: ShapeRules) -> None:
    check_complete(*random_hand14(rng), rules)


# --- waits
# ------------------------------------------------------------------------------------------


def check_waits(counts: list[int], melds: list[Meld], rules: ShapeRules) -> None:
    n = len(melds)
    for copies in (4, 5):  # 5: the table's "ready with every copy held" count
        native = NATIVE.waits(counts, melds, rules, tuple(range(34)), copies)
        assert native == shapes._py_waits(counts, melds, rules, range(34), copies=copies)
        assert native == bf_waits(counts, melds, rules, copies)
    formal = bf_waits(counts, [], rules, copies=99) if n == 0 else None
    mask = NATIVE.wait_mask(counts, n, rules)
    assert mask == shapes._py_wait_mask(counts, n, rules)
    kinds = frozenset(k for k in range(34) if mask >> k & 1)
    assert kinds == frozenset(
        k for k in range(34) if bf_complete([x + (j == k) for j, x in enumerate(counts)], n, rules)
    )
    if formal is not None:
        assert kinds == formal
    assert shapes.formal_waits(counts, melds, rules) == kinds
    for k in range(34):
        assert shapes.is_only_wait(counts, melds, rules, k) is (kinds == {k})


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_waits_seeded(rules: ShapeRules) -> None:
    rng = random.Random(f"waits {rules}")
    for _ in range(150):
        check_waits(*random_hand13(rng), rules)


@settings(max_examples=150)
@given(st.randoms(use_true_random=False), st.sampled_from(RULES))
def test_waits_hypothesis(rng: random.Random, rules: ShapeRules) -> None:
    check_waits(*random_hand13(rng), rules)


def test_fifth_copy_is_no_wait() -> None:
    rules = ShapeRules()
    counts = c("1111m234m567p789p")  # with 1m: 111m 11m 234m ..., but every 1m is held
    assert NATIVE.wait_mask(counts, 0, rules) >> 0 & 1  # by shape 1m completes it
    assert 0 not in shapes.waits(counts, [], rules, range(34))
    assert 0 in shapes.waits(counts, [], rules, range(34), copies=5)
    # A pon of the kind counts as held too.
    melds = [Meld(MeldType.PON, (Tile(9),) * 3)]
    counts = c("1p234m567m789s")  # waits on 1p alone, whose four copies it holds
    assert NATIVE.wait_mask(counts, 1, rules) == 1 << 9
    assert 9 not in shapes.waits(counts, melds, rules, range(34))
    assert shapes._py_waits(counts, melds, rules, range(34)) == shapes.waits(
        counts, melds, rules, range(34)
    )


@pytest.mark.parametrize("n_melds", range(5))
def test_every_melds_count(n_melds: int) -> None:
    rng = random.Random(n_melds)
    for rules in RULES:
        for _ in range(15):
            counts, melds = random_draw(rng, n_melds, 13)
            check_waits(counts, melds, rules)
            assert NATIVE.shanten(counts, n_melds, rules) == shapes._py_shanten(
                counts, n_melds, rules
            )


def test_knitted_with_one_meld() -> None:
    rules = ShapeRules(standard=False, knitted=True)
    meld = [Meld(MeldType.PON, (Tile(27),) * 3)]
    hand = c("147m258p369s11z")  # a knitted straight and a pair beside one meld
    assert NATIVE.is_complete(hand, 1, rules) is True is bf_complete(hand, 1, rules)
    waiting = c("147m258p369s1z")
    assert NATIVE.wait_mask(waiting, 1, rules) == 1 << 27
    assert shapes.waits(waiting, meld + [], rules, range(34)) == frozenset()  # all four 1z are held
    assert NATIVE.shanten(waiting, 1, rules) == 0 == shapes._py_shanten(waiting, 1, rules)
    short = c("147m258p36s1z2z")
    assert NATIVE.shanten(short, 1, rules) == shapes._py_shanten(short, 1, rules) == 1
    # Two melds leave no room for a knitted straight.
    assert NATIVE.is_complete(c("11z"), 4, rules) is False
    assert NATIVE.shanten(c("1z"), 4, rules) == 99 == shapes._py_shanten(c("1z"), 4, rules)


# --- shanten
# ------------------------------------------------------------------------------------------


def check_shanten(counts: list[int], melds: list[Meld], rules: ShapeRules) -> None:
    n = len(melds)
    native = NATIVE.shanten(counts, n, rules)
    assert native == shapes._py_shanten(counts, n, rules) == shapes.shanten(counts, n, rules)
    if rules == ShapeRules():
        assert native == bf_standard_shanten(counts, n)


def exchange_equations(counts: list[int], n: int, rules: ShapeRules) -> None:
    """Shanten satisfies the shortest-path equations of draw and discard: a waiting hand is one
    more than its best draw; a drawn hand is -1 when complete, else its best discard."""
    # A fifth copy drawn leaves the native domain: the public functions let the reference answer.
    best_draw = 99
    for k in range(34):
        drawn = [x + (j == k) for j, x in enumerate(counts)]
        s14 = shapes.shanten(drawn, n, rules)
        if bf_complete(drawn, n, rules):
            assert s14 == -1
        else:
            assert s14 == min(shapes.discard_shanten(drawn, n, rules).values())
        best_draw = min(best_draw, s14)
    if best_draw < 99:
        assert NATIVE.shanten(counts, n, rules) == 1 + best_draw


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_shanten_seeded(rules: ShapeRules) -> None:
    rng = random.Random(f"shanten {rules}")
    for i in range(300):
        counts, melds = random_hand13(rng) if i % 2 else random_hand14(rng)
        check_shanten(counts, melds, rules)
    for _ in range(15):
        counts, melds = random_hand13(rng)
        exchange_equations(counts, len(melds), rules)


@given(st.randoms(use_true_random=False), st.sampled_from(RULES))
def test_shanten_hypothesis(rng: random.Random, rules: ShapeRules) -> None:
    counts, melds = random_hand13(rng) if rng.random() < 0.5 else random_hand14(rng)
    check_shanten(counts, melds, rules)
    if sum(counts) == 13 - 3 * len(melds):
        exchange_equations(counts, len(melds), rules)


def test_standard_shanten_against_the_naive_split() -> None:
    rng = random.Random(12)
    rules = ShapeRules()
    for _ in range(400):
        counts, melds = random_hand13(rng) if rng.random() < 0.5 else random_hand14(rng)
        assert NATIVE.shanten(counts, len(melds), rules) == bf_standard_shanten(counts, len(melds))


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_discard_shanten_seeded(rules: ShapeRules) -> None:
    rng = random.Random(f"discard {rules}")
    for _ in range(120):
        counts, melds = random_hand14(rng)
        n = len(melds)
        native = NATIVE.discard_shanten(counts, n, rules)
        assert native == shapes._py_discard_shanten(counts, n, rules)
        assert list(native) == [k for k in range(34) if counts[k]]  # the reference's key order
        for k in native:
            rest = [x - (j == k) for j, x in enumerate(counts)]
            assert native[k] == shapes._py_shanten(rest, n, rules)


# --- the native domain and the reference's errors
# ------------------------------------------------------


BAD_COUNTS: list[object] = [
    [0] * 33,
    (0,) * 35,
    [5] + [0] * 33,  # five copies: the reference still answers
    [-1, 2] + [0] * 32,
    [2**70] + [0] * 33,
    [1.0] * 14 + [0] * 20,
    "x" * 34,
    None,
    iter([1] * 14 + [0] * 20),
]


@pytest.mark.parametrize("bad", BAD_COUNTS, ids=lambda b: type(b).__name__)
def test_out_of_domain_is_left_to_the_reference(bad: object) -> None:
    rules = ShapeRules(seven_pairs=True)
    for name, args in [
        ("is_complete", (bad, 0, rules)),
        ("wait_mask", (bad, 0, rules)),
        ("shanten", (bad, 0, rules)),
        ("discard_shanten", (bad, 0, rules)),
        ("waits", (bad, [], rules, tuple(range(34)), 4)),
    ]:
        assert getattr(NATIVE, name)(*args) is NotImplemented, name


def reference_error(fn: object, *args: object, **kwargs: object) -> str:
    try:
        fn(*args, **kwargs)  # type: ignore[operator]
    except Exception as exc:  # noqa: BLE001 - any error, compared by type and text
        return f"{type(exc).__name__}: {exc}"
    return "no error"


@pytest.mark.parametrize(
    "args",
    [
        ([0] * 33, 0),
        ([1] * 13 + [0] * 21, 0),
        ([1] * 14 + [0] * 20, 1),
        ([1] * 14 + [0] * 20, 5),
        ([1] * 14 + [0] * 20, -1),
        ([5] + [1] * 9 + [0] * 24, 0),
    ],
)
def test_errors_are_the_reference_errors(args: tuple[list[int], int]) -> None:
    counts, n = args
    rules = ShapeRules(seven_pairs=True, knitted=True)
    for public, reference in [
        (shapes.is_complete, shapes._py_is_complete),
        (shapes.shanten, shapes._py_shanten),
        (shapes.discard_shanten, shapes._py_discard_shanten),
        (shapes.wait_mask, shapes._py_wait_mask),
    ]:
        assert reference_error(public, counts, n, rules) == reference_error(
            reference, counts, n, rules
        )
    melds = [Meld(MeldType.PON, (Tile(30),) * 3)] * max(0, min(n, 6))
    for kinds in (range(34), (0, 40), [3, -1]):
        assert reference_error(shapes.waits, counts, melds, rules, kinds) == reference_error(
            shapes._py_waits, counts, melds, rules, kinds
        )


def test_odd_arguments_never_crash() -> None:
    rules = ShapeRules()
    good = c("123m456p789s1122z")
    odd: list[object] = [None, 3, "rules", object(), [], (), {}, 2**80, -(2**80)]
    for a in odd:
        for name, args in [
            ("is_complete", (good + [0], a, rules)),
            ("shanten", (good, a, rules)),
            ("wait_mask", (good, 0, a)),
            ("waits", (good, a, rules, a, a)),
            ("discard_shanten", (a, a, a)),
        ]:
            assert getattr(NATIVE, name)(*args) is NotImplemented
    assert NATIVE.is_complete(good) is NotImplemented  # wrong argument count
    assert NATIVE.waits(good, [object()], rules, (0,), 4) is NotImplemented  # a meld without tiles


# ------------------------------------------------------------ claim candidates

STANDARD = ShapeRules(seven_pairs=True, thirteen_orphans=True)


def _table_of_four(rng: random.Random, flowers: bool) -> tuple[list[list[int]], list[list[Meld]]]:
    """Four seats' counts by kind (42: the eight flower kinds after the 34) and melds, dealt from
    one wall: each seat holds 13 - 3m concealed tiles for its m (0..4) melds, sometimes a flower
    besides."""
    wall = [k for k in range(34) for _ in range(4)]
    rng.shuffle(wall)
    counts, melds = [], []
    for _ in range(4):
        m = rng.randrange(5)
        held = [0] * 42
        for _ in range(13 - 3 * m):
            held[wall.pop()] += 1
        if flowers and rng.random() < 0.3:
            held[34 + rng.randrange(8)] = 1
        counts.append(held)
        melds.append([Meld(MeldType.PON, (Tile(27 + i),) * 3) for i in range(m)])
    return counts, melds


def _candidates_by_definition(
    kind: int,
    discarder: int,
    counts: list[list[int]],
    melds: list[list[Meld]],
    active: list[bool],
    chi_seat: int,
    flowers: bool,
    rules: ShapeRules,
) -> int:
    """claim_candidates by its definition: a pon, the chi seat's sequence, or a completion checked
    by is_complete of the hand with the tile (no wait mask)."""
    found = 0
    for seat in range(4):
        if seat == discarder or not active[seat]:
            continue
        held = counts[seat]
        pon = held[kind] >= 2
        chi = (
            seat == chi_seat
            and kind < 27
            and any(
                0 <= low and low // 9 == kind // 9 == high // 9 and held[low] and held[high]
                for low, high in ((kind - 2, kind - 1), (kind - 1, kind + 1), (kind + 1, kind + 2))
            )
        )
        plus = list(held[:34])
        plus[kind] += 1
        wins = (
            not (flowers and any(held[34:]))
            and plus[kind] <= 4
            and shapes.is_complete(plus, len(melds[seat]), rules)
        )
        wins = wins or (
            not (flowers and any(held[34:]))
            and plus[kind] == 5
            and bool(shapes._py_wait_mask(held[:34], len(melds[seat]), rules) >> kind & 1)
        )
        if pon or chi or wins:
            found |= 1 << seat
    return found


@pytest.mark.parametrize("flowers", [False, True])
def test_claim_candidates_native_reference_and_definition_agree(flowers: bool) -> None:
    """The claim window's filter: the native answer, the Python reference's and the definition's
    are the same seats, and both leave the same wait-mask cache behind (what completed_by reads
    afterwards)."""
    rng = random.Random(12 if flowers else 11)
    for _ in range(400):
        counts, melds = _table_of_four(rng, flowers)
        kind, discarder = rng.randrange(34), rng.randrange(4)
        active = [rng.random() < 0.9 for _ in range(4)]
        chi_seat = rng.choice([-1, (discarder + 1) % 4])
        stale = [None if rng.random() < 0.5 else (len(melds[s]) + 1, 0) for s in range(4)]
        native_masks: list[tuple[int, int] | None] = list(stale)
        python_masks: list[tuple[int, int] | None] = list(stale)
        got = NATIVE.claim_candidates(
            kind, discarder, counts, melds, active, native_masks, STANDARD, chi_seat, flowers
        )
        reference = shapes._py_claim_candidates(
            kind, discarder, counts, melds, active, python_masks, STANDARD, chi_seat, flowers
        )
        assert (
            got
            == reference
            == _candidates_by_definition(
                kind, discarder, counts, melds, active, chi_seat, flowers, STANDARD
            )
        )
        assert native_masks == python_masks


def test_claim_candidates_reads_a_kept_mask() -> None:
    """A mask kept for the seat's melds count is used as it is (the table made it); one kept for
    another count is made again."""
    counts = [[0] * 42 for _ in range(4)]
    counts[1][:34] = counts34(parse_tiles("123m456p789s1122z"))
    melds: list[list[Meld]] = [[], [], [], []]
    only_seat_1 = [False, True, False, False]  # the others hold nothing: they have left the hand
    kept: list[tuple[int, int] | None] = [None, (0, 1 << 5), None, None]
    # the kept mask says 6m completes seat 1 (it does not): the filter trusts the table's cache
    assert NATIVE.claim_candidates(5, 0, counts, melds, only_seat_1, kept, STANDARD, -1, False) == 2
    kept = [None, (1, 1 << 5), None, None]  # made for one meld: stale
    assert NATIVE.claim_candidates(5, 0, counts, melds, only_seat_1, kept, STANDARD, -1, False) == 0
    assert kept[1] == (0, (1 << 27) | (1 << 28))
    assert kept[2] is None and kept[3] is None  # no mask is made for a seat that left


def test_claim_candidates_out_of_domain_is_left_to_the_reference() -> None:
    counts = [[0] * 42 for _ in range(4)]
    counts[2][:3] = [1, 1, 1]  # three tiles: no waiting hand of 0 melds
    melds: list[list[Meld]] = [[], [], [], []]
    masks: list[tuple[int, int] | None] = [None] * 4
    assert (
        NATIVE.claim_candidates(5, 0, counts, melds, [True] * 4, masks, STANDARD, -1, False)
        is NotImplemented
    )
    assert (
        NATIVE.claim_candidates("5", 0, counts, melds, [True] * 4, masks, STANDARD, -1, False)
        is NotImplemented
    )
    with pytest.raises(ValueError):  # the reference's own error, through the public function
        shapes.claim_candidates(5, 0, counts, melds, [True] * 4, masks, STANDARD, -1, False)


def test_held_items_picks_the_kinds_held() -> None:
    """held_items: native and reference alike, every kind held once whatever its count."""
    rng = random.Random(5)
    items = [f"discard {k}" for k in range(42)]
    for _ in range(200):
        counts = [rng.choice([0, 0, 0, 1, 2, 4]) for _ in range(42)]
        expected = [items[k] for k in range(42) if counts[k]]
        assert NATIVE.held_items(items, counts) == expected
        assert shapes.held_items(items, counts) == expected
    assert NATIVE.held_items(items, (1,) * 42) is NotImplemented  # a tuple: the reference's
    assert NATIVE.held_items(items[:3], [1] * 42) is NotImplemented  # too few items
    assert shapes.held_items(items, [True, 0, 1]) == [items[0], items[2]]


def test_remove_identical_takes_the_object_itself() -> None:
    """remove_identical removes by identity only, natively and in the reference: an equal copy
    stays (the table looks for one itself)."""
    shared, copy = Tile(5), Tile(5)
    for remove in (NATIVE.remove_identical, shapes.remove_identical):
        items = [copy, Tile(3), shared, shared]
        assert remove(items, shared) is True
        assert items == [copy, Tile(3), shared] and items[0] is copy and items[2] is shared
        assert remove(items, Tile(9)) is False and len(items) == 3
    assert NATIVE.remove_identical((shared,), shared) is NotImplemented  # a tuple: the reference's
