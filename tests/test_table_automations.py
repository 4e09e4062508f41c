"""The table's automations (issue 15, as pokerkit's): which non-player steps the engine performs.

By default every automation is on, which is the table every record was made with. A step the
caller keeps for itself (a draw, a replacement tile, closing a claim window nobody can answer)
waits in ``Phase.STEP`` as ``Round.pending_step`` until ``Round.step()``; performed in order, the
round is the same round, event for event. A riichi player's forced discard, left to the player,
becomes their decision instead of the table's.
"""

from __future__ import annotations


import pytest

from mjspec.app.registry import load_profile
from mjspec.runtime.actions import Action, ActionKind, IllegalAction
from mjspec.runtime.bots import GreedyBot
from mjspec.runtime.match import play_hand
from mjspec.runtime.observation import Observation, observe
from mjspec.runtime.table import ALL_AUTOMATIONS, Automation, Phase, Round, StepKind

PLAYABLE = ["sichuan_tfmj", "gb_mcr", "classical_xmj", "riichi_tenhou"]
NO_STEPS = Automation.RIICHI_DISCARD  # every non-player step left to the caller


class FirstLegal:
    def choose(self, observation: Observation) -> Action:
        return observation.legal[0]


def _events(hand: Round) -> list[dict[str, object]]:
    return [e.to_json() for e in hand.events]


def _play_stepwise(hand: Round) -> set[StepKind]:
    """Play ``hand`` with first-legal seats, performing each pending step; the step kinds met."""
    seen: set[StepKind] = set()
    bot = FirstLegal()
    while not hand.over:
        step = hand.pending_step
        if step is not None:
            seen.add(step.kind)
            assert hand.phase is Phase.STEP and hand.can_step()
            assert hand.pending_seats() == [] and all(not hand.legal_actions(s) for s in range(4))
            hand.step()
            continue
        assert not hand.can_step()
        seat = hand.pending_seats()[0]
        hand.apply(bot.choose(observe(hand, seat)))
    return seen


@pytest.mark.parametrize("pid", PLAYABLE)
def test_steps_left_to_the_caller_make_the_same_round(pid: str) -> None:
    profile = load_profile(pid)
    seen: set[StepKind] = set()
    for seed in range(6):
        auto = Round(profile, seed=seed, dealer=seed % 4)
        play_hand(auto, [FirstLegal()] * 4)
        manual = Round(profile, seed=seed, dealer=seed % 4, automations=NO_STEPS)
        seen |= _play_stepwise(manual)
        assert _events(manual) == _events(auto), (pid, seed)
        assert manual.decisions == auto.decisions and manual.scores == auto.scores
    assert {StepKind.DRAW, StepKind.CLAIM_PASS} <= seen, seen


def test_replacement_tiles_wait_for_the_caller() -> None:
    """gb_mcr's flowers are replaced from the wall's end: with the automation off, the table waits
    after each exposed flower (and after a kong) until the caller hands out the replacement."""
    profile = load_profile("gb_mcr")
    met = False
    for seed in range(10):
        hand = Round(profile, seed=seed, automations=ALL_AUTOMATIONS & ~Automation.REPLACEMENT)
        while not hand.over and not met:
            if hand.pending_step is not None:
                step = hand.pending_step
                assert step.kind is StepKind.REPLACEMENT and step.seat == hand.turn
                before = hand.wall_remaining
                events = hand.step()
                assert events[0].kind == "draw" and events[0].data["replacement"] is True
                assert hand.wall_remaining == before - 1 and hand.phase is Phase.TURN
                met = True
                break
            seat = hand.pending_seats()[0]
            hand.apply(hand.legal_actions(seat)[0])
        if met:
            break
    assert met, "no flower or kong in ten first-legal hands"


def test_a_pending_step_refuses_decisions_and_no_step_refuses_step() -> None:
    profile = load_profile("sichuan_tfmj")
    hand = Round(profile, seed=1, automations=ALL_AUTOMATIONS & ~Automation.DRAW)
    with pytest.raises(IllegalAction) as nothing:
        hand.step()
    assert nothing.value.rule == "automation"
    while hand.pending_step is None:
        seat = hand.pending_seats()[0]
        hand.apply(hand.legal_actions(seat)[0])
    assert hand.pending_step.kind is StepKind.DRAW
    decision = Action(ActionKind.PASS, hand.pending_step.seat)
    assert not hand.can(decision)
    with pytest.raises(IllegalAction) as refused:
        hand.verify(decision)
    assert refused.value.rule == "automation"
    events = hand.step()
    assert [e.kind for e in events] == ["draw"] and hand.phase is Phase.TURN


def test_a_riichi_players_forced_discard_can_be_left_to_the_player() -> None:
    """001's automatic discard after riichi is an automation: off, the declarer sends the drawn
    tile (their only legal action) and the discard is their decision, not marked automatic."""
    # RiichiRules.automatic_discard (riichi_planet's; riichi_tenhou's client sends the tile itself).
    profile = load_profile("riichi_planet")
    for seed in range(40):
        auto = Round(profile, seed=seed)
        play_hand(auto, [GreedyBot(seed=s) for s in range(4)])
        automatic = [e for e in auto.events if e.kind == "discard" and e.data.get("automatic")]
        if automatic:
            break
    else:
        pytest.fail("no automatic discard in forty riichi hands")
    manual = Round(profile, seed=seed, automations=ALL_AUTOMATIONS & ~Automation.RIICHI_DISCARD)
    play_hand(manual, [GreedyBot(seed=s) for s in range(4)])
    assert not [e for e in manual.events if e.data.get("automatic")]
    assert len(manual.decisions) == len(auto.decisions) + len(automatic)
    plain = [
        {**e.to_json(), "data": {k: v for k, v in e.data.items() if k != "automatic"}}
        for e in auto.events
    ]
    assert [{**e.to_json(), "data": e.data} for e in manual.events] == plain


@pytest.mark.parametrize("pid", ["riichi_tenhou", "sichuan_tfmj"])
def test_a_match_hands_its_automations_to_every_round(pid: str) -> None:
    """``Match(automations=...)`` (pokerkit lets the caller choose them): every hand is dealt with
    the caller's automations, ``play_hand`` performs the steps they leave out, and the match is
    the same match, hand for hand and event for event."""
    from mjspec.app.records import match_record
    from mjspec.runtime.match import Match

    profile = load_profile(pid)
    kept = Automation.RIICHI_DISCARD
    records = []
    for automations in (ALL_AUTOMATIONS, kept):
        match = Match(profile, 7, 3, automations=automations)
        steps = 0
        while not match.over:
            hand = match.new_hand()
            assert hand.automations == automations
            while not hand.over:
                if hand.pending_step is not None:
                    steps += 1
                    hand.step()
                    continue
                seat = hand.pending_seats()[0]
                hand.apply(GreedyBot(seat).choose(observe(hand, seat)))
        match.finish()
        assert (steps > 0) is (automations == kept)
        records.append(match_record(match))
    assert records[0]["hands"] == records[1]["hands"]
    assert records[0]["totals"] == records[1]["totals"]
