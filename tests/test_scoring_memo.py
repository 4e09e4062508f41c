"""The scorer's memo of what a hand's tiles decide, and the fast formal-wait test.

Scoring reuses, for tiles it has seen, the arrangements, the formal wait and
the hits of patterns the compiler marked ``tiles_only``. These tests check
that the reuse never changes an answer (the same hands in new situations,
scored warm and cold), that the compiler marks exactly the patterns whose
expressions read no situation, and that the formal waits equal the
definition (every kind whose addition completes the hand).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from gbkit import random_gb_win
from mjspec.compiler.ir import ExprIR, PatternIR
from mjspec.compiler.vocabulary import HAND_FUNCTIONS, HAND_NAMES, TILES_ONLY_NAMES
from mjspec.runtime.context import WinContext, WinKind, Wind
from mjspec.app.registry import load_profile
from mjspec.runtime.scoring import Score, WinningHand, clear_memo, evaluate, score_every_arrangement
from mjspec.runtime.shapes import ShapeRules, is_complete, is_only_wait
from mjspec.runtime.text import Text
from mjspec.runtime.tiles import N_KINDS, counts34

GB = ShapeRules(
    standard=True,
    seven_pairs=True,
    seven_pairs_allow_four_of_a_kind=True,
    thirteen_orphans=True,
    knitted=True,
)


def _answer(s: Score) -> tuple[object, ...]:
    return (
        s.legal,
        s.reason,
        s.total,
        s.capped,
        tuple(s.patterns),
        tuple(sorted(s.payments.items())),
        s.arrangement,
    )


def _situations(rng: random.Random, ctx: WinContext) -> list[WinContext]:
    """The same win in other situations: other winds, flowers, last tile; self-draw and discard
    alike."""
    out = [ctx]
    for _ in range(3):
        out.append(
            dataclasses.replace(
                ctx,
                seat_wind=rng.choice(list(Wind)),
                round_wind=rng.choice(list(Wind)),
                last_tile=rng.random() < 0.3,
                flowers=rng.choice(["", "1f", "2f5f", "1f2f3f"]),
            )
        )
    return out


@pytest.mark.parametrize("profile_id", ["gb_mcr", "sichuan_tfmj"])
def test_remembered_tiles_never_change_an_answer(profile_id: str) -> None:
    profile = load_profile(profile_id)
    rng = random.Random(5)
    cases: list[tuple[WinningHand, WinContext]] = []
    while len(cases) < 300:
        got = random_gb_win(rng)
        if got is None:
            continue
        hand, ctx = got
        if profile_id != "gb_mcr":
            if any(t.is_honor for t in (*hand.concealed, hand.win_tile)) or any(
                m.tiles[0].is_honor for m in hand.melds
            ):
                continue
            ctx = dataclasses.replace(ctx, flowers="", missing_suit=None)
        for kind in (WinKind.RON, WinKind.TSUMO):
            for situation in _situations(rng, ctx) if profile_id == "gb_mcr" else [ctx]:
                cases.append((dataclasses.replace(hand, win=kind), situation))
    # Cold: every hand from scratch; warm: the same hands again, in shuffled order.
    cold = []
    for hand, ctx in cases:
        clear_memo(profile)
        cold.append(
            (
                _answer(evaluate(profile, hand, ctx)),
                [_answer(s) for s in score_every_arrangement(profile, hand, ctx)],
            )
        )
    order = list(range(len(cases)))
    rng.shuffle(order)
    for i in order:
        hand, ctx = cases[i]
        warm = (
            _answer(evaluate(profile, hand, ctx)),
            [_answer(s) for s in score_every_arrangement(profile, hand, ctx)],
        )
        assert warm == cold[i], (hand, ctx)


def _pattern(combine: tuple[str, int] | None = None, **exprs: ExprIR | None) -> PatternIR:
    from mjspec.compiler.errors import Location

    where = Location("x.yaml", 1, 1)
    return PatternIR(
        combine=combine,
        id="p",
        names=Text(en="p", zh="p", ja="p", pt="p", fr="p"),
        definition=None,
        reading=None,
        section=None,
        group=None,
        value=exprs.pop("value", None) or 1,  # type: ignore[arg-type]
        when=exprs.get("when"),
        count=exprs.get("count"),
        excludes=(),
        location=where,
    )


def _expr(*names: str) -> ExprIR:
    from mjspec.compiler.errors import Location

    return ExprIR("...", "...", Location("x.yaml", 1, 1), frozenset(), frozenset(names))


def test_tiles_only_is_decided_by_every_expression_of_the_pattern() -> None:
    assert _pattern(when=_expr("tiles", "shape")).tiles_only
    assert _pattern(when=_expr("a", "b"), count=_expr("melds")).tiles_only
    assert not _pattern(when=_expr("tiles", "tsumo")).tiles_only
    assert not _pattern(when=_expr("shape"), count=_expr("flowers")).tiles_only
    assert not _pattern(when=_expr("shape"), value=_expr("seat_wind")).tiles_only
    # A name the list does not know counts as situational.
    assert not _pattern(when=_expr("some_future_name")).tiles_only


def test_members_only_is_for_combination_patterns_reading_only_their_sets() -> None:
    pair = ("sequences", 2)
    assert _pattern(pair, when=_expr("a", "b")).members_only
    assert _pattern(pair, when=_expr("members"), value=_expr("a")).members_only
    assert not _pattern(pair, when=_expr("a", "shape")).members_only
    assert not _pattern(pair, when=_expr("a", "seat_wind")).members_only
    assert not _pattern(None, when=_expr("tiles")).members_only  # not a combination pattern
    gb = load_profile("gb_mcr")
    marked = {p.id for p in gb.patterns if p.members_only}
    assert {"pure_double_chow", "mixed_triple_chow", "dragon_pung"} <= marked
    assert not {"seat_wind", "prevalent_wind"} & marked  # they read the winds of the situation
    assert all(p.tiles_only for p in gb.patterns if p.members_only)


def test_tiles_only_names_are_hand_names_that_ignore_the_situation() -> None:
    known = set(HAND_NAMES) | set(HAND_FUNCTIONS) | {"a", "b", "c", "d", "members"}
    assert TILES_ONLY_NAMES <= known
    for situational in (
        "tsumo",
        "ron",
        "last_tile",
        "seat_wind",
        "round_wind",
        "flowers",
        "concealed_triplets",
        "missing_suit",
        "dealer",
        "fourth_tile",
        "robbing_kong",
        "after_kong",
    ):
        assert situational not in TILES_ONLY_NAMES


def test_bundled_patterns_marked_tiles_only_run_on_tiles_alone() -> None:
    """The reused hits come from a view holding no situation: a mismarked pattern would raise
    there."""
    profile = load_profile("gb_mcr")
    marked = {p.id for p in profile.patterns if p.tiles_only}
    assert "full_flush" in marked and "pure_double_chow" in marked and "edge_wait" in marked
    assert (
        not {"self_drawn", "seat_wind", "flower_tiles", "three_concealed_pungs", "last_tile"}
        & marked
    )
    rng = random.Random(9)
    for _ in range(200):
        got = random_gb_win(rng)
        if got is not None:
            clear_memo(profile)
            evaluate(profile, *got)


@pytest.mark.parametrize("profile_id", ["gb_mcr", "classical_xmj"])
def test_clear_memo_forgets_every_hand_and_keeps_what_the_profile_alone_decides(
    profile_id: str,
) -> None:
    """A cold measurement forgets every hand (the remembered tiles, texts and combinations) but
    not the profile's plan and native scorer: a long-running engine has those whatever it has
    seen, so rebuilding them per pass is no part of a hand's cost."""
    from mjspec.runtime.scoring import PROFILE_DERIVED

    profile = load_profile(profile_id)
    rng = random.Random(5)
    wins = [w for w in (random_gb_win(rng) for _ in range(40)) if w is not None]
    if profile_id != "gb_mcr":  # plain suited hands: every profile scores those
        wins = [
            (h, dataclasses.replace(c, flowers="", missing_suit=None))
            for h, c in wins
            if not any(t.is_honor or t.is_flower for t in (*h.concealed, h.win_tile))
            and not h.melds
        ]
    assert wins
    # the native backend, if built (it names no arrangement)
    before = [_answer(evaluate(profile, *w))[:-1] for w in wins]
    assert [_answer(evaluate(profile, *w, reference=True))[:-1] for w in wins] == before
    assert "tiles" in profile.memo  # the Python engine remembered the hands ...
    kept = {k: profile.memo[k] for k in PROFILE_DERIVED if k in profile.memo}
    assert "plan" in kept and "native_evaluate" in kept
    clear_memo(profile)
    assert set(profile.memo) == set(kept)  # ... and are forgotten
    assert all(profile.memo[k] is v for k, v in kept.items())  # the same plan and scorer
    assert [_answer(evaluate(profile, *w))[:-1] for w in wins] == before
    assert [_answer(evaluate(profile, *w, reference=True))[:-1] for w in wins] == before


def _formal_waits_by_definition(c: list[int], n_melds: int) -> set[int]:
    out = set()
    for k in range(N_KINDS):
        c[k] += 1
        if is_complete(c, n_melds, GB):
            out.add(k)
        c[k] -= 1
    return out


def test_only_wait_equals_the_definition_on_random_ready_hands() -> None:
    rng = random.Random(11)
    checked = singles = 0
    while checked < 1500:
        got = random_gb_win(rng)
        if got is None:
            continue
        hand = got[0]
        before = counts34(hand.concealed)
        want = _formal_waits_by_definition(before, len(hand.melds))
        for kind in set(t.kind for t in hand.concealed) | {hand.win_tile.kind}:
            expect = want == {kind}
            singles += expect
            assert is_only_wait(before, hand.melds, GB, kind) is expect, (hand, kind, want)
        checked += 1
    assert singles > 100  # the corpus holds plenty of single waits, not only multiple ones


@pytest.mark.parametrize(
    ("profile_id", "concealed", "win_tile", "message"),
    [
        ("sichuan_tfmj", "123m456m789m1122p", "1z", "no honor tiles"),
        ("gb_mcr", "123m456m789m1122p", "1f", "never part of a hand"),
        ("gb_mcr", "123m406m789m1122p", "2p", "no red fives"),
        ("gb_mcr", "11111m456m789m12p", "3p", "5 copies of 1m"),
        ("gb_mcr", "123m456m789m112p", "2p", "must be 14"),
    ],
)
def test_malformed_hands_are_refused_every_time(
    profile_id: str, concealed: str, win_tile: str, message: str
) -> None:
    from mjspec.runtime.scoring import HandError
    from mjspec.runtime.tiles import Tile, parse_tiles

    profile = load_profile(profile_id)
    hand = WinningHand(tuple(parse_tiles(concealed)), (), Tile.parse(win_tile), WinKind.RON)
    for _ in range(3):  # a refused hand is never remembered
        with pytest.raises(HandError, match=message):
            evaluate(profile, hand, WinContext())


@pytest.mark.parametrize("profile_id", ["gb_mcr", "riichi_planet", "classical_xmj"])
def test_whole_hand_conditions_answer_as_the_patterns_one_by_one(profile_id: str) -> None:
    """The generated test of every `when` at once gives the answers of testing each pattern in turn
    (a copy of the profile without it takes that path), on random wins in several situations."""
    from mjspec.runtime.scoring import _plan

    profile = load_profile(profile_id)
    plan = _plan(profile)
    assert plan.fixed_conditions is not None and plan.situational_conditions is not None
    one_by_one = dataclasses.replace(profile, whole_hand_conditions=())
    assert _plan(one_by_one).fixed_conditions is None
    # A profile whose patterns changed never uses the generated test of the old list.
    dropped = next(p for p in profile.patterns if p.tiles_only and p.combine is None)
    fewer = dataclasses.replace(
        profile, patterns=tuple(p for p in profile.patterns if p is not dropped)
    )
    assert _plan(fewer).fixed_conditions is None and _plan(fewer).situational_conditions is not None
    rng = random.Random(11)
    seen = 0
    while seen < 150:
        got = random_gb_win(rng)
        if got is None:
            continue
        hand, ctx = got
        if profile_id != "gb_mcr":
            ctx = dataclasses.replace(ctx, flowers="")
        for kind in (WinKind.RON, WinKind.TSUMO):
            for situation in _situations(rng, ctx) if profile_id == "gb_mcr" else [ctx]:
                won = dataclasses.replace(hand, win=kind)
                clear_memo(profile)
                clear_memo(one_by_one)
                try:
                    want = [_answer(s) for s in score_every_arrangement(one_by_one, won, situation)]
                except ValueError:
                    continue  # a hand this profile refuses (a tile it lacks) is refused either way
                assert [
                    _answer(s) for s in score_every_arrangement(profile, won, situation)
                ] == want, (won, situation)
                seen += 1


@pytest.mark.parametrize("profile_id", ["sichuan_planet", "riichi_tenhou_east"])
def test_shared_whole_hand_conditions_answer_as_the_patterns_one_by_one(profile_id: str) -> None:
    """A profile that extends another tests its whole-hand patterns with its parent's generated
    functions, each asked for the bits it uses (compiler/fused.py; sichuan_planet changes one
    `when` and removes a pattern), and that gives the answers of testing each pattern in turn."""
    from handkit import random_context, random_hand

    from mjspec.runtime.scoring import _plan

    profile = load_profile(profile_id)
    plan = _plan(profile)
    assert plan.fixed_conditions is not None and plan.situational_conditions is not None
    one_by_one = dataclasses.replace(profile, whole_hand_conditions=())
    rng = random.Random(15)
    scored = 0
    for _ in range(400):
        hand = random_hand(rng, profile)
        ctx = random_context(rng, profile, hand)
        clear_memo(profile)
        clear_memo(one_by_one)
        try:
            want = [_answer(s) for s in score_every_arrangement(one_by_one, hand, ctx)]
        except ValueError:
            continue  # a hand this profile refuses is refused either way
        assert [_answer(s) for s in score_every_arrangement(profile, hand, ctx)] == want
        scored += any(s.legal for s in score_every_arrangement(profile, hand, ctx))
    assert scored >= 50, scored  # enough legal wins to have met most patterns
