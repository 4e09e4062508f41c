"""Build-time tile tests: a kind-only loop over the tiles becomes a mask test with the same answers."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from mjspec.compiler import expr as X
from mjspec.compiler.hoist import hoist_tile_conditions
from mjspec.compiler.vocabulary import hand_vocabulary
from mjspec.runtime.exprlib import bounded_pow
from mjspec.runtime.tiles import N_KINDS, Tile

HOISTED = [
    "all(t.is_terminal for t in tiles)",
    "any(t.is_dragon for t in tiles)",
    "all(t.suit == 's' and t.number in (2, 3, 4, 6, 8) or (t.suit == 'z' and t.number == 6) for t in tiles)",
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
    "all(g.is_triplet for g in sets)",  # not a loop over the tiles
    "len([t for t in tiles if t.is_honor]) == 7",  # a list's length counts copies
    "all(t.is_honor for t in tiles if t.number > 2)",  # a filtered all() is left alone
]

VOCAB = hand_vocabulary()


def _compile(source: str) -> tuple[str, str]:
    c = X.compile_expr(source, VOCAB, X.BOOL)
    return c.python, hoist_tile_conditions(c.python, VOCAB, c.helpers)


def _run(python: str, view: SimpleNamespace) -> bool:
    scope = {"v": view, "bounded_pow": bounded_pow}
    return bool(eval(python, scope))  # test only: compiled, verified code


def _view(rng: random.Random) -> SimpleNamespace:
    pool = rng.sample(range(N_KINDS), rng.choice([3, 5, 9, 14]))
    tiles = tuple(Tile(rng.choice(pool), False) for _ in range(14))
    tiles = tuple(Tile(t.kind, red=rng.random() < 0.5) if t.kind in (4, 13, 22) else t for t in tiles)
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


@pytest.mark.parametrize("source", HOISTED)
def test_kind_only_tile_loops_become_mask_tests_with_the_same_answers(source: str) -> None:
    plain, hoisted = _compile(source)
    assert "tile_mask" in hoisted and "for t in v.tiles" not in hoisted
    rng = random.Random(source)
    answers = set()
    for _ in range(3000):
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
