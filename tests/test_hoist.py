"""Build-time tile tests: a kind-only loop over the tiles becomes a mask test with the same
answers."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from mjspec.compiler import expr as X
from mjspec.compiler.hoist import hoist_tile_conditions
from mjspec.compiler.vocabulary import hand_vocabulary
from mjspec.runtime.exprlib import bounded_pow, count_bits
from mjspec.runtime.hand import Group, GroupKind, MeldType, group_bits
from mjspec.runtime.tiles import N_KINDS, Tile

HOISTED = [
    "all(t.is_terminal for t in tiles)",
    "any(t.is_dragon for t in tiles)",
    "all(t.suit == 's' and t.number in (2, 3, 4, 6, 8) or (t.suit == 'z' and t.number == 6) "
    "for t in tiles)",
    "all(not t.is_terminal_or_honor for t in tiles)",
    "all(t.is_suited and 4 <= t.number <= 6 for t in tiles)",
    "len({t.suit for t in tiles if t.is_suited}) == 2",
    "len({t.number for t in tiles}) == 7",
    "len(suits) == 4 and any(t.is_wind for t in tiles) and any(t.is_dragon for t in tiles)",
    "all(t.number % 2 == 0 for t in tiles) or shape == 'seven_pairs'",
]

KEPT = [
    "all(t.red for t in tiles)",  # red is not fixed by the kind
    "all(t.suit == win_tile.suit for t in tiles)",  # reads more than the tile
    "all(g.concealed for g in sets)",  # concealment is not fixed by the group's kind and tile
    "sum(1 for g in melds if g.is_triplet) == 2",  # the melds have no bits
    "len([t for t in tiles if t.is_honor]) == 7",  # a list's length counts copies
    "all(t.is_honor for t in tiles if t.number > 2)",  # a filtered all() is left alone
]

VOCAB = hand_vocabulary()


def _compile(source: str) -> tuple[str, str]:
    c = X.compile_expr(source, VOCAB, X.BOOL)
    return c.python, hoist_tile_conditions(c.python, VOCAB, c.helpers)


def _run(python: str, view: SimpleNamespace) -> bool:
    scope = {"v": view, "bounded_pow": bounded_pow, "count_bits": count_bits}
    return bool(eval(python, scope))  # test only: compiled, verified code


def _view(rng: random.Random) -> SimpleNamespace:
    pool = rng.sample(range(N_KINDS), rng.choice([3, 5, 9, 14]))
    tiles = tuple(Tile(rng.choice(pool), False) for _ in range(14))
    tiles = tuple(
        Tile(t.kind, red=rng.random() < 0.5) if t.kind in (4, 13, 22) else t for t in tiles
    )
    mask = 0
    for t in tiles:
        mask |= 1 << t.kind
    return SimpleNamespace(
        tiles=tiles,
        tile_mask=mask,
        suits=frozenset(t.suit.value for t in tiles),
        shape=rng.choice(["standard", "seven_pairs"]),
        win_tile=tiles[0],
        sets=(),
    )


# Random views per expression: the default run checks the first ones, ``-m slow`` all of them
# (one seeded sequence, so the slow run's views include the default run's).
@pytest.mark.parametrize(
    "views", [pytest.param(600, id="600"), pytest.param(3000, id="3000", marks=pytest.mark.slow)]
)
@pytest.mark.parametrize("source", HOISTED)
def test_kind_only_tile_loops_become_mask_tests_with_the_same_answers(
    source: str, views: int
) -> None:
    plain, hoisted = _compile(source)
    assert "tile_mask" in hoisted and "for t in v.tiles" not in hoisted
    rng = random.Random(source)
    answers = set()
    for _ in range(views):
        view = _view(rng)
        want = _run(plain, view)
        answers.add(want)
        assert _run(hoisted, view) == want, (source, [str(t) for t in view.tiles])
    assert answers == {True, False}  # both answers were exercised


@pytest.mark.parametrize("source", KEPT)
def test_other_loops_are_left_alone(source: str) -> None:
    plain, hoisted = _compile(source)
    assert hoisted == plain


def test_the_mask_is_refused_in_a_spec_expression() -> None:
    with pytest.raises(X.ExprError, match="bitwise"):
        X.compile_expr("tile_mask & 3 == 0", VOCAB, X.BOOL)


GROUPS_HOISTED = [
    "all(g.is_triplet for g in sets)",
    "any(g.is_triplet and g.is_dragon and g.number == 5 for g in sets)",
    "sum(1 for g in sets if g.is_triplet and g.is_wind) == 3",
    "sum(1 for g in sets if g.is_sequence and g.suit == 'm' and g.number == 1) >= 2",
    "sum(g.number for g in sets if g.is_sequence) > 12",
    "len([g for g in groups if g.is_pair]) == 2",
    "len({g.suit for g in sets if g.is_sequence and g.number == 1}) >= 2",
    "all(g.has_terminal_or_honor for g in groups) and any(g.is_sequence for g in sets)",
    "all(g.is_terminal_or_honor_group for g in groups if g.kind != 'sequence')",
    "any(g.wind is not None and g.wind == 'E' for g in groups)",
    # the inner loop reads the outer group: only the outer test on its own terms is hoisted
    "any(g.is_sequence and sum(1 for h in sets if h.is_sequence and h.number == g.number) >= 2 "
    "for g in sets)"
    " and any(h.is_kong for h in sets)",
    # loops that read more than a group's kind run behind a guard the compiler derives
    "any(g.is_sequence and len({h.suit for h in sets if h.is_sequence and h.number == "
    "g.number}) >= 2 for g in sets)",
    "any(g.is_triplet and len({h.suit for h in groups if h.is_triplet and h.number == g.number "
    "and h.suit != 'z'}) in (2, 3) for g in sets)",
    "any(g.is_sequence and any(h.is_sequence and h.suit == g.suit and h.number == g.number + 3 "
    "for h in sets) for g in sets)",
    "any(g.is_pair and sum(1 for h in groups if h.is_pair and h.suit == g.suit) > 1 for g in "
    "groups)",
    "all(g.is_sequence and sum(1 for h in sets if h.suit == g.suit and h.number == g.number) "
    "in (1, 2) for g in sets)",
    "any(g.is_triplet and g.wind is not None and g.wind == seat_wind for g in sets)",
    "any(g.concealed and g.is_triplet for g in sets)",
]


def _group_view(rng: random.Random) -> SimpleNamespace:
    """An arrangement-like view: sets and groups drawn with repeats (two equal sequences, pairs)."""
    groups: list[Group] = []
    for _ in range(rng.choice([1, 3, 4, 5, 7])):
        kind = rng.choice(list(GroupKind))
        if groups and rng.random() < 0.3:
            again = rng.choice(groups)
            if sum(1 for g in groups if g.unit == again.unit) < 4:
                groups.append(again)  # an equal group again
            continue
        while True:
            try:
                meld = MeldType.PON if kind is GroupKind.TRIPLET and rng.random() < 0.3 else None
                groups.append(Group(kind, rng.randrange(N_KINDS), meld is None, meld))
                break
            except ValueError:
                continue
    seen: dict[int, int] = {}
    for g in groups:
        seen[g.unit] = seen.get(g.unit, 0) + 1
    groups = [
        g for g in groups if seen[g.unit] <= 4
    ]  # a kind has four copies: never five equal groups
    sets = tuple(
        g for g in groups if g.kind in (GroupKind.SEQUENCE, GroupKind.TRIPLET, GroupKind.KONG)
    )
    return SimpleNamespace(
        groups=tuple(groups),
        sets=sets,
        set_bits=group_bits(sets),
        group_bits=group_bits(tuple(groups)),
        seat_wind=rng.choice("ESWN"),
    )


@pytest.mark.parametrize(
    "views", [pytest.param(800, id="800"), pytest.param(4000, id="4000", marks=pytest.mark.slow)]
)
@pytest.mark.parametrize("source", GROUPS_HOISTED)
def test_kind_only_group_loops_become_bit_tests_with_the_same_answers(
    source: str, views: int
) -> None:
    plain, hoisted = _compile(source)
    assert "_bits" in hoisted and hoisted != plain
    rng = random.Random(source)
    answers = set()
    for _ in range(views):
        view = _group_view(rng)
        want = _run(plain, view)
        answers.add(want)
        assert _run(hoisted, view) == want, (source, view.groups)
    assert answers == {True, False}  # both answers were exercised


def test_more_equal_groups_than_a_field_holds_are_refused() -> None:
    g = Group(GroupKind.PAIR, 0, True)
    assert group_bits((g, g, g, g)) == g.unit * 0b1111
    with pytest.raises(ValueError, match="equal groups"):
        group_bits((g, g, g, g, g))
