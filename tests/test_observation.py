"""Per-seat observations (runtime/observation.py): what an agent is handed at every decision.

An observation holds only what its seat may know: the same observation comes out of a table whose
hidden tiles (the other seats' concealed tiles, the live wall, the ura indicators) were dealt out
again. Every phase of every profile reaches the agents as observations; a kept observation keeps
its own decision's values although it is built lazily; the JSON form reads back equal.
"""

from __future__ import annotations

import copy
import json
import random
import re
import sys
from collections import Counter
from typing import Iterator

import pytest

from mjspec.app.registry import load_profile, profile_ids
from mjspec.runtime import match as match_module
from mjspec.runtime import observation as observation_module
from mjspec.runtime.actions import Action, ActionKind
from mjspec.runtime.bots import GreedyBot, RandomBot
from mjspec.runtime.deadwall import UNDER
from mjspec.runtime.match import AgentError, play_hand
from mjspec.runtime.observation import FIELDS, Observation, observe
from mjspec.runtime.table import Phase, Round
from mjspec.runtime.tiles import N_ALL_KINDS

PLAYABLE = sorted(p for p in profile_ids() if load_profile(p).playable)


def _bots(seed: int) -> list[GreedyBot | RandomBot]:
    rng = random.Random(seed)
    return [
        GreedyBot(seed * 4 + i) if rng.random() < 0.7 else RandomBot(seed * 4 + i) for i in range(4)
    ]


def _decisions(pid: str, seeds: range) -> Iterator[tuple[Round, int]]:
    """Play one round per seed with greedy and random bots, yielding at each decision."""
    profile = load_profile(pid)
    for seed in seeds:
        hand = Round(profile, seed=seed, dealer=seed % 4)
        bots = _bots(seed)
        while not hand.over:
            seat = hand.pending_seats()[0]
            yield hand, seat
            hand.apply(bots[seat].choose(observe(hand, seat)))


def _redeal_hidden(hand: Round, seat: int, rng: random.Random) -> Round:
    """A copy of ``hand`` in which every tile ``seat`` cannot see is dealt out again: the other
    seats' concealed tiles (each keeps its number), the live wall and the tiles under the dead
    wall's indicators trade places at random."""
    twin = copy.deepcopy(hand, {id(hand.profile): hand.profile})
    others = [s for s in range(4) if s != seat]
    wall = twin.wall
    dead = wall.dead
    pool = [t for s in others for t in twin.hands[s]] + wall.tiles[wall.front : wall.back]
    unders = list(UNDER) if dead is not None else []
    pool += [dead.tiles[i] for i in unders] if dead is not None else []
    rng.shuffle(pool)
    at = 0
    for s in others:
        n = len(twin.hands[s])
        twin.hands[s] = pool[at : at + n]
        at += n
        twin.counts[s] = [0] * N_ALL_KINDS
        for t in twin.hands[s]:
            twin.counts[s][t.kind] += 1
        twin._wait_masks[s] = None
    live = wall.back - wall.front
    wall.tiles[wall.front : wall.back] = pool[at : at + live]
    at += live
    if dead is not None:
        tiles = list(dead.tiles)
        for i in unders:
            tiles[i] = pool[at]
            at += 1
        dead.tiles = tuple(tiles)
    twin._cache_at = -1  # the options are listed anew, from the redealt table
    return twin


@pytest.mark.parametrize("pid", PLAYABLE)
def test_an_observation_does_not_change_when_the_hidden_tiles_are_dealt_again(pid: str) -> None:
    rng = random.Random(pid)
    checked = changed_hidden = 0
    for n, (hand, seat) in enumerate(_decisions(pid, range(3))):
        if n % 5:
            continue  # every fifth decision: the copies cost a few milliseconds each
        twin = _redeal_hidden(hand, seat, rng)
        others = [s for s in range(4) if s != seat]
        changed_hidden += any(sorted(twin.hands[s]) != sorted(hand.hands[s]) for s in others)
        seen, twin_seen = observe(hand, seat), observe(twin, seat)
        assert seen == twin_seen, (pid, n, _difference(seen, twin_seen))
        assert seen.hand == tuple(hand.hands[seat])  # the seat's own tiles are all there
        checked += 1
    assert checked > 20 and changed_hidden > checked // 2  # the redeal did hide something


def _difference(a: Observation, b: Observation) -> dict[str, object]:
    fa, fb = a.fields(), b.fields()
    return {k: (fa[k], fb[k]) for k in FIELDS if fa[k] != fb[k]}


def test_the_public_fields_are_what_the_table_shows() -> None:
    """Spot checks against the table: rivers with their called and sideways marks, melds,
    the missing suits hidden while declared, the exchange direction hidden until the pass."""
    called_seen = sideways_seen = hidden_missing = 0
    exchanged = 0
    for pid in ("riichi_tenhou", "sichuan_planet"):
        for hand, seat in _decisions(pid, range(4)):
            obs = observe(hand, seat)
            assert obs.rivers == tuple(map(tuple, hand.river))
            assert obs.discards == tuple(map(tuple, hand.discards))  # river less claimed tiles
            assert obs.melds == tuple(map(tuple, hand.melds))
            assert obs.concealed_counts == tuple(len(h) for h in hand.hands)
            assert obs.wall_remaining == hand.wall_remaining
            assert obs.holds_missing is (
                obs.phase is not Phase.DECLARE and hand.holds_missing(seat)
            )
            called_seen += sum(map(len, obs.called))
            for s, index in enumerate(obs.sideways):
                if index is not None:
                    sideways_seen += 1
                    assert obs.riichi[s] and index < len(obs.rivers[s])
            if obs.phase is Phase.DECLARE:
                for s in range(4):
                    if s != seat and hand.missing[s] is not None:
                        assert obs.missing[s] is None  # declared, not yet shown
                        hidden_missing += 1
            if hand.exchange is not None:
                shown = obs.exchange_direction is not None
                assert shown is (obs.phase is not Phase.EXCHANGE)
                exchanged += obs.phase is Phase.EXCHANGE
                if obs.phase is Phase.EXCHANGE:
                    assert obs.exchange == hand.exchange.choice[seat]  # the seat's own, if made
    assert called_seen and sideways_seen and hidden_missing and exchanged


def test_every_phase_of_every_profile_reaches_the_agents_as_an_observation() -> None:
    seen: dict[str, Counter[str]] = {}
    for pid in PLAYABLE:
        kinds: Counter[str] = Counter()

        class Tap:
            def __init__(self, inner: GreedyBot | RandomBot) -> None:
                self.inner = inner

            def choose(self, observation: object) -> Action:
                assert isinstance(observation, Observation)  # never the table
                kinds[observation.phase.value] += 1
                for a in observation.legal:
                    kinds[a.kind.value] += 1
                return self.inner.choose(observation)

        for seed in range(6):
            play_hand(Round(load_profile(pid), seed=seed), [Tap(b) for b in _bots(seed)])
        seen[pid] = kinds
    for pid in PLAYABLE:
        assert seen[pid]["turn"] and seen[pid]["claim"] and seen[pid]["discard"], pid
    assert seen["sichuan_planet"]["exchange"]  # the opening exchange (000 §3)
    assert seen["sichuan_planet"]["declare"] and seen["sichuan_tfmj"]["declare"]
    for pid in ("gb_mcr", "classical_xmj"):
        assert seen[pid]["flower"], pid
    for pid in ("riichi_tenhou", "riichi_planet"):
        assert seen[pid]["riichi"] and seen[pid]["ron"] + seen[pid]["tsumo"], pid
    assert sum(s["pon"] for s in seen.values()) and sum(s["chi"] for s in seen.values())


def test_a_kept_observation_keeps_the_values_of_its_own_decision() -> None:
    """The table builds observations lazily; one the agent keeps is completed before the table
    moves on, so it equals the complete observation made at its decision."""

    class Keeper:
        def __init__(self, seed: int, hand: Round) -> None:
            self.bot, self.hand = GreedyBot(seed), hand
            self.kept: list[tuple[Observation, Observation]] = []

        def choose(self, observation: Observation) -> Action:
            # the test's own look at the table, to compare with; an agent has no hand
            now = observe(self.hand, observation.seat)
            if len(self.kept) % 2:
                observation.counts  # some fields read during the decision, the rest later
            self.kept.append((observation, now))
            return self.bot.choose(observation)

    for pid in ("riichi_tenhou", "sichuan_tfmj", "gb_mcr"):
        hand = Round(load_profile(pid), seed=4)
        keepers = [Keeper(s, hand) for s in range(4)]
        play_hand(hand, keepers)
        kept = [pair for k in keepers for pair in k.kept]
        assert len(kept) > 40
        for lazy, eager in kept:
            assert lazy == eager
            assert lazy.to_json() == eager.to_json()


def test_an_observation_is_immutable() -> None:
    hand = Round(load_profile("riichi_tenhou"), seed=1)
    obs = observe(hand, hand.turn)
    with pytest.raises(AttributeError):
        obs.seat = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del obs.hand
    assert isinstance(obs.hand, tuple) and isinstance(obs.melds, tuple)


@pytest.mark.parametrize("pid", PLAYABLE)
def test_the_json_form_is_plain_data_and_reads_back_equal(pid: str) -> None:
    profile = load_profile(pid)
    for n, (hand, seat) in enumerate(_decisions(pid, range(2))):
        if n % 3:
            continue
        obs = observe(hand, seat)
        text = json.dumps(obs.to_json())  # plain JSON: no tiles, enums or tuples left
        back = Observation.from_json(json.loads(text), profile)
        assert back == obs, (pid, n, _difference(back, obs))


def test_the_json_fields_are_the_documented_ones() -> None:
    """The module docstring's table names every JSON field, in order."""
    doc = observation_module.__doc__ or ""
    lines = doc.splitlines()
    top, bottom = [i for i, line in enumerate(lines) if line.startswith("=====")]  # the table
    documented = [m.group(1) for m in map(re.compile(r"^``(\w+)``").match, lines[top:bottom]) if m]
    hand = Round(load_profile("sichuan_tfmj"), seed=2)
    assert list(observe(hand, 0).to_json()) == documented
    # the Python object has the same fields, and ``counts`` besides (the hand by kind)
    assert [f for f in FIELDS if f != "counts"] == documented


def test_a_bad_observation_is_refused_with_its_reason() -> None:
    profile = load_profile("riichi_tenhou")
    data = observe(Round(profile, seed=1), 0).to_json()
    with pytest.raises(ValueError, match="profile"):
        Observation.from_json(data, load_profile("gb_mcr"))
    broken = dict(data, hand=["9x"])
    with pytest.raises(ValueError, match="malformed observation"):
        Observation.from_json(broken, profile)


def test_the_win_context_is_the_tables_as_far_as_the_seat_sees_it() -> None:
    """What GreedyBot prices its waits with (GB's 8 fan): the table's own situation for the seat,
    the ura indicators left out (hidden until a riichi win turns them), made by the table during
    the decision and from the fields afterwards, the same either way."""
    compared = in_riichi = 0
    for pid in ("gb_mcr", "classical_xmj", "riichi_tenhou"):
        for hand, seat in _decisions(pid, range(2)):
            during = observation_module.decision_observation(hand, seat, hand.offered(seat))
            context = during.win_context()
            assert context == observe(hand, seat)._situation() and not context.ura_indicators
            if hand.in_riichi(seat):
                in_riichi += 1
            else:
                assert context == hand.win_context(seat)
            compared += 1
    assert compared > 100 and in_riichi


class _Answers:
    def __init__(self, answer: object) -> None:
        self.answer = answer

    def choose(self, observation: Observation) -> object:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


@pytest.mark.parametrize(
    "answer, said",
    [
        (Action(ActionKind.TSUMO, 0), "chose seat 0 tsumo, which is not legal now"),
        ("discard 5m", "answered 'discard 5m', which is not an Action"),
        (KeyError("nope"), "raised KeyError"),
    ],
)
def test_an_answer_outside_the_legal_actions_stops_the_hand_clearly(
    answer: object, said: str
) -> None:
    hand = Round(load_profile("riichi_tenhou"), seed=3, dealer=0)
    before = len(hand.events)
    players = [_Answers(answer)] + [GreedyBot(s) for s in range(1, 4)]
    with pytest.raises(AgentError, match=re.escape(said)) as caught:
        play_hand(hand, players)  # type: ignore[list-item]
    assert "seat 0's agent (_Answers)" in str(caught.value)
    assert len(hand.events) == before  # the table is as it was


def test_the_observation_is_built_lazily(monkeypatch: pytest.MonkeyPatch) -> None:
    """play_hand's observation holds at first what a bot reads every decision and every single
    value; the per-seat lists are copied from its source on first use, and an observation nobody
    kept is never completed (its source is emptied all the same)."""
    hand = Round(load_profile("riichi_tenhou"), seed=1)
    lazy = observation_module.decision_observation(
        hand, hand.turn, tuple(hand.legal_actions(hand.turn))
    )
    assert len(lazy) == len(observation_module._AT_ONCE) + 1  # those fields, and the source
    assert not lazy.__dict__ and lazy.counts == tuple(hand.counts[hand.turn])
    assert lazy.rivers == tuple(map(tuple, hand.river)) and set(lazy.__dict__) == {"rivers"}
    completed: list[Observation] = []
    complete = Observation._complete

    def counted(self: Observation) -> None:
        if self[-1]:  # its source not yet emptied
            completed.append(self)
        complete(self)

    monkeypatch.setattr(Observation, "_complete", counted)
    play_hand(hand, [GreedyBot(s) for s in range(4)])  # GreedyBot keeps no observation
    assert hand.over and not completed
    probe = object()  # held by one variable, as play_hand holds its observation
    counted_here = sys.getrefcount(probe)
    assert counted_here == match_module._HELD_HERE
