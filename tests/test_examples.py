"""Every example a spec states is a test of that profile's generated engine."""

from __future__ import annotations

import pytest

from mjspec.runtime.profile import Example, Profile
from mjspec.app.registry import load_profile, profile_ids
from mjspec.runtime.scoring import evaluate

from handkit import example_hand

CASES = [(pid, ex) for pid in profile_ids() for ex in load_profile(pid).examples]


def test_every_profile_states_examples() -> None:
    for pid in profile_ids():
        assert load_profile(pid).examples, f"{pid} has no examples"


@pytest.mark.parametrize("pid,ex", CASES, ids=[f"{p}:{e.name}" for p, e in CASES])
def test_spec_example(pid: str, ex: Example) -> None:
    profile: Profile = load_profile(pid)
    hand, ctx = example_hand(profile, ex)
    score = evaluate(profile, hand, ctx)
    assert score.legal == ex.legal, score.reason
    if ex.patterns is not None:
        assert sorted(p.id for p in score.patterns) == sorted(ex.patterns)
    if ex.total is not None:
        assert score.total == ex.total
    if ex.payments is not None:
        assert score.payments == dict(ex.payments)
    if ex.checks_fu:
        assert score.fu == ex.fu
