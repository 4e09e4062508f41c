"""Each invariant a spec names is a Hypothesis property run against that profile's engine.

``PROPERTIES`` maps every name of the runtime's invariant catalog to a
property; a catalog entry without one fails the suite, and the compiler refuses
a spec naming anything outside the catalog.
"""

from __future__ import annotations

import random
from typing import Any, Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mjspec.compiler.build import Layout
from mjspec.compiler.resolve import SpecLibrary
from mjspec.runtime.context import WinContext
from mjspec.runtime.invariants import INVARIANTS
from mjspec.runtime.profile import MissingSuitRule, Profile
from mjspec.runtime.registry import load_profile, profile_ids
from mjspec.runtime.scoring import HandError, WinningHand, evaluate
from mjspec.runtime.shapes import waits
from mjspec.runtime.tiles import Tile, counts34

from handkit import brute_force_complete, hand_kinds, random_context, random_hand, spec_payment

Check = Callable[[Profile, WinningHand, WinContext], None]


def _full_kinds(hand: WinningHand) -> list[int]:
    return hand_kinds(hand) + [t.kind for m in hand.melds for t in m.tiles]


def _independent_legal(profile: Profile, hand: WinningHand, ctx: WinContext) -> bool:
    """Shape by brute force, and the missing-suit rule of a profile that declares one."""
    shape_ok = brute_force_complete(
        hand_kinds(hand),
        4 - len(hand.melds),
        profile.shapes.seven_pairs and not hand.melds,
        profile.shapes.seven_pairs_allow_four_of_a_kind,
    )
    if not shape_ok:
        return False
    if profile.opening.missing_suit is MissingSuitRule.DECLARE:
        suits = {Tile(k).suit.value for k in _full_kinds(hand)}
        if ctx.missing_suit is not None:
            return ctx.missing_suit.value not in suits
        return len(suits) < len(profile.tiles.suits)
    return True


def legal_wins_are_complete_shapes(profile: Profile, hand: WinningHand, ctx: WinContext) -> None:
    score = evaluate(profile, hand, ctx)
    assert score.legal == _independent_legal(profile, hand, ctx), (hand, ctx, score.reason)


def wins_satisfy_requirements(profile: Profile, hand: WinningHand, ctx: WinContext) -> None:
    score = evaluate(profile, hand, ctx)
    if profile.opening.missing_suit is MissingSuitRule.DECLARE and ctx.missing_suit is not None:
        holds_missing = any(Tile(k).suit == ctx.missing_suit for k in _full_kinds(hand))
        if holds_missing:
            assert not score.legal
            shape_ok = brute_force_complete(
                hand_kinds(hand), 4 - len(hand.melds), profile.shapes.seven_pairs and not hand.melds, True
            )
            if shape_ok:
                assert score.reason and "missing suit" in score.reason
    if score.legal:
        assert score.patterns, "a legal win scores at least one pattern"


def fan_within_cap(profile: Profile, hand: WinningHand, ctx: WinContext) -> None:
    score = evaluate(profile, hand, ctx)
    if not score.legal:
        return
    assert score.total == sum(p.value * p.count for p in score.patterns)
    if profile.cap is not None:
        assert score.capped == min(score.total, profile.cap)
        assert score.capped <= profile.cap


_RAW_PAYMENTS: dict[str, dict[str, Any]] = {}


def _raw_payments(profile_id: str) -> dict[str, Any]:
    if profile_id not in _RAW_PAYMENTS:
        layout = Layout.bundled()
        lib = SpecLibrary(layout.specs)
        _RAW_PAYMENTS[profile_id] = lib.resolve_file(lib.path_of(profile_id)).data["payments"]
    return _RAW_PAYMENTS[profile_id]


def payments_follow_formulas(profile: Profile, hand: WinningHand, ctx: WinContext) -> None:
    score = evaluate(profile, hand, ctx)
    if not score.legal:
        return
    tsumo = hand.win.value == "tsumo"
    expected = spec_payment(_raw_payments(profile.id), score.total, score.capped, tsumo, ctx.is_dealer)
    assert score.payments == expected


def waits_exclude_fifth_copy(profile: Profile, hand: WinningHand, ctx: WinContext) -> None:
    # Use the hand before its winning tile: a 13-tile-equivalent hand.
    counts = counts34(hand.concealed)
    held = list(counts)
    for m in hand.melds:
        for t in m.tiles:
            held[t.kind] += 1
    found = waits(counts, hand.melds, profile.shapes, profile.tiles.kinds())
    for k in found:
        assert held[k] < profile.tiles.copies, f"waits on {Tile(k)} with all copies held"
    expected = set()
    for k in profile.tiles.kinds():
        if held[k] >= profile.tiles.copies:
            continue
        kinds = [t.kind for t in hand.concealed] + [k]
        if brute_force_complete(kinds, 4 - len(hand.melds), profile.shapes.seven_pairs and not hand.melds, profile.shapes.seven_pairs_allow_four_of_a_kind):
            expected.add(k)
    assert set(found) == expected


PROPERTIES: dict[str, Check] = {
    "legal_wins_are_complete_shapes": legal_wins_are_complete_shapes,
    "wins_satisfy_requirements": wins_satisfy_requirements,
    "fan_within_cap": fan_within_cap,
    "payments_follow_formulas": payments_follow_formulas,
    "waits_exclude_fifth_copy": waits_exclude_fifth_copy,
}


def test_every_catalog_invariant_has_a_property() -> None:
    assert set(PROPERTIES) == set(INVARIANTS)


CASES = [(pid, name) for pid in profile_ids() for name in load_profile(pid).invariants]


@pytest.mark.parametrize("pid,name", CASES, ids=[f"{p}:{n}" for p, n in CASES])
@given(seed=st.integers(min_value=0, max_value=2**63))
def test_invariant(pid: str, name: str, seed: int) -> None:
    profile = load_profile(pid)
    rng = random.Random(seed)
    hand = random_hand(rng, profile)
    ctx = random_context(rng, profile)
    try:
        PROPERTIES[name](profile, hand, ctx)
    except HandError:
        pytest.fail("the test generator built a malformed hand")
