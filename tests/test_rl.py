"""The reinforcement-learning environment (mjspec.app.rl, the optional ``rl`` extra): PettingZoo's
own API test on each kind of profile, masks equal to the legal actions, observations that hide
other seats' tiles, seeded episodes, docs/rl.md run as written. Skipped without the extra, except
the import rule, which holds everywhere."""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import random
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from mjspec.app.registry import load_profile, profile_ids
from mjspec.runtime.actions import Action, ActionKind
from mjspec.runtime.bots import GreedyBot
from mjspec.runtime.observation import observe
from mjspec.runtime.table import Phase, Round

ROOT = Path(__file__).resolve().parent.parent
EXTRA = ("pettingzoo", "gymnasium", "numpy")
HAVE_RL = all(importlib.util.find_spec(m) is not None for m in EXTRA)
needs_rl = pytest.mark.skipif(
    not HAVE_RL, reason="the rl extra (pettingzoo, gymnasium, numpy) is not installed"
)
KINDS = ["riichi_tenhou", "sichuan_planet", "gb_mcr", "classical_xmj"]
"""Riichi (red fives, riichi), Sichuan with the exchange and the missing suit, GB and classical
(flowers; classical: Original Call)."""


def test_only_the_rl_module_imports_the_extra() -> None:
    """pettingzoo, gymnasium and numpy are the rl module's alone: no other module of the package
    imports them (at any depth), and neither ``import mjspec`` nor the command line loads them."""
    wrong = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in ("tests", "build", ".venv", "benchmarks") or rel == Path("app/rl.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            )
            wrong += [f"{rel}:{node.lineno}: {n}" for n in names if n.split(".")[0] in EXTRA]
    assert not wrong, "\n".join(wrong)
    probe = (
        "import sys, mjspec, mjspec.app.cli\n"
        "mjspec.load_profile('gb_mcr')\n"
        f"print([m for m in {EXTRA!r} if m in sys.modules])\n"
    )
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert res.stdout.strip() == "[]", res.stdout + res.stderr


if HAVE_RL:
    import numpy as np
    from pettingzoo.test import api_test, seed_test

    from mjspec.app import rl


@needs_rl
@pytest.mark.parametrize("profile", KINDS)
def test_pettingzoo_api_test(profile: str) -> None:
    """PettingZoo's own checker passes; its only warnings are the two every masked environment
    with a dict observation gets (pettingzoo's classic games are exempted from them by name)."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        for env in (rl.MahjongEnv(profile), rl.MahjongEnv(profile, episode="match", hands=2)):
            # the same run every time: api_test seeds the deals (reset(seed=0), then reset()
            # goes on from there), the action spaces sample the masked actions
            for i, agent in enumerate(env.possible_agents):
                env.action_space(agent).seed(i)
            api_test(env, num_cycles=300)
    expected = ("Observation is not a NumPy array", "Observation space for each agent probably")
    other = {str(w.message) for w in seen if not str(w.message).startswith(expected)}
    assert not other, other


def _play(env: Any, choose: Any, seed: int) -> list[Any]:
    """Play one episode with ``choose(agent, mask) -> index``, checking at every decision that
    the mask is the seat's legal actions; returns the (agent, index, reward) of every step."""
    env.reset(seed=seed)
    steps = []
    for agent in env.agent_iter(100_000):
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            steps.append((agent, None, reward))
            continue
        _check_mask(env, agent, obs["action_mask"])
        index = choose(agent, obs["action_mask"])
        env.step(index)
        steps.append((agent, index, reward))
    assert not env.agents
    return steps


def _check_mask(env: Any, agent: str, mask: Any) -> None:
    """The mask's ones and the table's legal actions for the seat correspond one to one: each
    index plays one of them (one index an action), and each is played by its index (an exchange
    by its picks, each pick offered in turn)."""
    seen = env.observation_of(agent)
    assert list(seen.legal) == env.hand.legal_actions(env.possible_agents.index(agent))
    picked = env.exchange_selection(agent)
    legal = rl.legal_indices(seen, picked)
    assert set(np.flatnonzero(mask)) == set(legal) and legal
    played = [a for a in legal.values() if a is not None]
    assert all(a in seen.legal for a in played)
    if not picked and not any(a.kind is ActionKind.EXCHANGE for a in seen.legal):
        # one index per legal action, and each plays its own action
        assert len(legal) == len(seen.legal) == len(set(played))
    if picked:
        return
    for action in seen.legal:  # every legal action is played by its indices, picked in turn
        indices = rl.action_indices(action, seen)
        for n, index in enumerate(indices):
            offered = rl.legal_indices(seen, [i - EXCHANGE for i in indices[:n]])
            assert offered[index] == (action if n == len(indices) - 1 else None)


EXCHANGE = (
    next(b.start for b in rl.ACTION_BLOCKS if b.kind is ActionKind.EXCHANGE) if HAVE_RL else 0
)
"""The first exchange pick's index (face 0)."""


def _random(seed: int) -> Any:
    """A chooser of uniformly random masked indices, seeded."""
    rng = random.Random(seed)
    return lambda agent, mask: rng.choice(np.flatnonzero(mask).tolist())


@needs_rl
@pytest.mark.parametrize("profile", profile_ids())
def test_random_masked_play_ends_every_profile(profile: str) -> None:
    """Uniformly random masked actions play a hand of every profile to its end, the mask being
    the legal actions at every decision; the rewards are the hand's score changes."""
    env = rl.MahjongEnv(profile, reward_scale=10)
    steps = _play(env, _random(5), seed=3)
    rewards = {a: 0.0 for a in env.possible_agents}
    for agent, _, reward in steps:
        rewards[agent] += reward
    assert [rewards[a] for a in env.possible_agents] == [s / 10 for s in env.hand.scores]
    assert env.hand.over and len(steps) > 20


@needs_rl
def test_a_choice_of_pons_gets_an_index_each() -> None:
    """Riichi: a pon of 5m from a hand holding 5m, 5m and 0m is two actions (the red five taken or
    kept), two indices (the hand PettingZoo's api_test once found, seed 51)."""
    env = rl.MahjongEnv("riichi_tenhou")
    choose = _random(51)
    pons: list[list[str]] = []

    def watch(agent: str, mask: Any) -> Any:
        offered = [a for a in env.observation_of(agent).legal if a.kind is ActionKind.PON]
        if len(offered) > 1:
            pons.append(sorted(rl.describe_index(i) for i in np.flatnonzero(mask)))
        return choose(agent, mask)

    _play(env, watch, seed=51)
    assert pons == [["minkan", "pass", "pon", "pon (1 red five from the hand)"]]


@needs_rl
def test_a_match_episode_deals_hand_after_hand() -> None:
    """``episode="match"``: the hands follow one another in one episode, each rewarding its score
    changes, until the match (here three hands) is over."""
    env = rl.MahjongEnv("sichuan_tfmj", episode="match", hands=3)
    steps = _play(env, _random(1), seed=9)
    match = env._match
    assert match.over and len(match.hands) == 3
    total = {a: 0.0 for a in env.possible_agents}
    for agent, _, reward in steps:
        total[agent] += reward
    expected = [sum(h.scores[s] for h in match.hands) for s in range(4)]
    assert [total[a] for a in env.possible_agents] == expected


def _greedy(env: Any) -> Any:
    """A chooser playing GreedyBot's choice through the action space (an exchange as its
    picks)."""
    bots = {a: GreedyBot(seed=s) for s, a in enumerate(env.possible_agents)}
    plan: list[int] = []

    def choose(agent: str, mask: Any) -> int:
        picked = env.exchange_selection(agent)
        if not picked:
            seen = env.observation_of(agent)
            plan[:] = rl.action_indices(bots[agent].choose(seen), seen)
        return plan[len(picked)]

    return choose


GREEDY_REACHES = {
    "riichi_tenhou": {ActionKind.RIICHI},
    "sichuan_planet": {ActionKind.EXCHANGE, ActionKind.DECLARE},
    "sichuan_tfmj": {ActionKind.DECLARE},
    "gb_mcr": {ActionKind.FLOWER, ActionKind.CHI},
    "classical_xmj": {ActionKind.FLOWER, ActionKind.CHI},
}
"""What each profile's greedy hands (seeds 0-3) play besides discards, passes and wins."""


@needs_rl
@pytest.mark.parametrize("profile", sorted(GREEDY_REACHES))
def test_the_mask_is_the_legal_actions_under_greedy_play(profile: str) -> None:
    """Greedy play reaches the wins, kongs, riichi, Original Call and flowers random play seldom
    does: at each decision the mask is the legal actions, and each index plays its action."""
    played: set[ActionKind] = set()
    for seed in range(4):
        env = rl.MahjongEnv(profile)
        for agent, index, _ in _play(env, _greedy(env), seed=seed):
            if index is not None:
                block = next(b for b in rl.ACTION_BLOCKS if b.start <= index < b.start + b.size)
                played.add(block.kind)
    assert {ActionKind.DISCARD, ActionKind.PASS} <= played
    assert played & {ActionKind.TSUMO, ActionKind.RON}, played
    assert GREEDY_REACHES[profile] <= played, played


def _tables_differing_in_hidden_tiles(profile: str, seed: int) -> tuple[Round, Round]:
    """Two deals alike for seat 0 (its hand, the indicators) whose other hands differ: the first
    swap of two wall tiles that changes seat 1's hand and nothing seat 0 sees."""
    first = Round(load_profile(profile), seed=seed)
    wall = list(first.initial_wall)
    for i in range(len(wall)):
        for j in range(i + 1, len(wall)):
            if wall[i] == wall[j]:
                continue
            swapped = wall[:]
            swapped[i], swapped[j] = swapped[j], swapped[i]
            other = Round(load_profile(profile), wall=swapped, dice=first.dice)
            if (
                other.hands[0] == first.hands[0]
                and other.hands[1] != first.hands[1]
                and other.flowers == first.flowers
                and observe(other, 0).dora_indicators == observe(first, 0).dora_indicators
            ):
                return first, other
    raise AssertionError("no swap found")


@needs_rl
@pytest.mark.parametrize("profile", KINDS)
def test_the_observation_never_shows_another_seats_concealed_tiles(profile: str) -> None:
    """Seat 0's observation vector and mask are the same in two tables that differ only in seat
    1's concealed tiles; seat 1's differ (so the comparison can fail)."""
    a, b = _tables_differing_in_hidden_tiles(profile, seed=4)
    assert np.array_equal(rl.encode(observe(a, 0)), rl.encode(observe(b, 0)))
    assert np.array_equal(rl.action_mask(observe(a, 0)), rl.action_mask(observe(b, 0)))
    assert not np.array_equal(rl.encode(observe(a, 1)), rl.encode(observe(b, 1)))


@needs_rl
def test_the_observation_never_shows_another_seats_hidden_choices() -> None:
    """Sichuan: another seat's exchange tiles stay out of seat 0's vector, and so does its missing
    suit until every seat has declared (then the table shows them all: the vectors differ)."""
    a = Round(load_profile("sichuan_planet"), seed=2)
    b = Round(load_profile("sichuan_planet"), seed=2)
    options = a.legal_actions(1)
    a.apply(options[0])
    b.apply(options[-1])
    assert options[0].tiles != options[-1].tiles
    assert np.array_equal(rl.encode(observe(a, 0)), rl.encode(observe(b, 0)))
    assert not np.array_equal(rl.encode(observe(a, 1)), rl.encode(observe(b, 1)))

    a = Round(load_profile("sichuan_tfmj"), seed=2)  # no exchange: the declarations first
    b = Round(load_profile("sichuan_tfmj"), seed=2)
    assert a.phase is Phase.DECLARE
    suits = a.legal_actions(1)
    a.apply(suits[0])
    b.apply(suits[1])
    assert np.array_equal(rl.encode(observe(a, 0)), rl.encode(observe(b, 0)))
    assert not np.array_equal(rl.encode(observe(a, 1)), rl.encode(observe(b, 1)))
    for hand in (a, b):
        for seat in (0, 2, 3):
            hand.apply(hand.legal_actions(seat)[0])
    assert not np.array_equal(rl.encode(observe(a, 0)), rl.encode(observe(b, 0)))


@needs_rl
@pytest.mark.parametrize("profile", ["riichi_tenhou", "sichuan_planet"])
def test_the_same_seed_gives_the_same_episode(profile: str) -> None:
    """PettingZoo's seed test, and whole episodes compared: the same seed and the same actions
    give the same observations and rewards; another seed another deal."""
    seed_test(lambda: rl.MahjongEnv(profile), num_cycles=100)

    def record(seed: int) -> list[Any]:
        env = rl.MahjongEnv(profile)
        rng = random.Random(0)
        out = []
        env.reset(seed=seed)
        for agent in env.agent_iter(100_000):
            obs, reward, terminated, _, _ = env.last()
            out.append((agent, obs["observation"].tolist(), reward))
            if terminated:
                env.step(None)
            else:
                env.step(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
        return out

    once = record(11)
    assert record(11) == once
    assert record(12)[0] != once[0]

    def next_deals(seed: int) -> list[Any]:  # reset() without a seed: the sequence goes on
        env = rl.MahjongEnv(profile)
        env.reset(seed=seed)
        deals = [env.observe("seat_0")["observation"].tolist()]
        for _ in range(2):
            env.reset()
            deals.append(env.observe("seat_0")["observation"].tolist())
        return deals

    deals = next_deals(11)
    assert next_deals(11) == deals and deals[0] == once[0][1] and deals[1] != deals[0]


@needs_rl
@pytest.mark.slow
@pytest.mark.parametrize("profile", profile_ids())
def test_many_hands_keep_the_mask_the_legal_actions(profile: str) -> None:
    """Fifty hands a profile, random and greedy, the mask checked at every decision (slow)."""
    for seed in range(25):
        _play(rl.MahjongEnv(profile), _random(seed), seed=seed)
        env = rl.MahjongEnv(profile)
        _play(env, _greedy(env), seed=seed)


@needs_rl
def test_the_vector_reads_each_field_where_the_layout_says() -> None:
    """Spot checks of the layout: the own hand by face (red fives apart), the wall count, the
    dealer by relative seat, and each seat's points."""
    hand = Round(load_profile("riichi_tenhou"), seed=8, dealer=2, points=(1, 2, 3, 4))
    seen = observe(hand, 1)
    v = rl.encode(seen)
    at = {f.name: f for f in rl.OBSERVATION_LAYOUT}

    def read(name: str) -> list[int]:
        f = at[name]
        return v[f.start : f.start + f.size].tolist()

    counts = [0] * rl.FACES
    for t in seen.hand:
        counts[rl.face(t)] += 1
    assert read("hand") == counts and sum(counts) == len(seen.hand)
    assert read("wall_remaining") == [hand.wall_remaining]
    assert read("dealer") == [0, 1, 0, 0]  # seat 2 is the next seat after seat 1
    assert [read(f"seat[{r}].points")[0] for r in range(4)] == [2, 3, 4, 1]


@needs_rl
def test_the_docstring_states_every_index() -> None:
    """The module docstring's tables are the layouts the code builds: every action block's index
    range and every observation field's offsets."""
    doc = rl.__doc__ or ""
    actions, rest = doc.split("\nActions\n-------\n", 1)[1].split("\nObservation\n-----------\n")
    table, seat = rest.split("Each seat's")
    seat = seat.split("\nRewards and episodes\n")[0]

    def ranges(text: str) -> dict[str, tuple[int, int]]:
        rows = re.findall(r"^(\d+)(?:-(\d+))?\s+``([a-z_\[\]0-9.]+)``", text, flags=re.M)
        return {name: (int(lo), int(hi or lo)) for lo, hi, name in rows}

    assert ranges(actions) == {b.name: (b.start, b.start + b.size - 1) for b in rl.ACTION_BLOCKS}
    fields = {f.name: (f.start, f.start + f.size - 1) for f in rl.OBSERVATION_LAYOUT}
    whole = {n: r for n, r in fields.items() if not n.startswith("seat[")}
    for rel in range(4):
        block = [r for n, r in fields.items() if n.startswith(f"seat[{rel}].")]
        whole[f"seat[{rel}]"] = (block[0][0], block[-1][1])
    assert ranges(table) == whole
    base = fields["seat[0].concealed_count"][0]
    own = {
        n.split(".", 1)[1]: (lo - base, hi - base)
        for n, (lo, hi) in fields.items()
        if n.startswith("seat[0].")
    }
    assert ranges(seat) == own
    assert f"``Discrete({rl.N_ACTIONS})``" in doc and f"{rl.OBSERVATION_SIZE} ``int32``" in doc
    assert {b.kind for b in rl.ACTION_BLOCKS} == set(ActionKind)
    for i in range(rl.N_ACTIONS):  # every index has words
        assert rl.describe_index(i)


@needs_rl
def test_an_illegal_index_is_refused_with_the_legal_ones() -> None:
    env = rl.MahjongEnv("gb_mcr")
    env.reset(seed=1)
    (passing,) = [b.start for b in rl.ACTION_BLOCKS if b.kind is ActionKind.PASS]
    with pytest.raises(ValueError, match=rf"action {passing} is not legal now \(legal: \d+ \(dis"):
        env.step(passing)  # on one's own turn
    with pytest.raises(ValueError, match="an action is an index"):
        env.step("x")
    with pytest.raises(rl.UnsupportedAction, match="no index"):
        rl.action_indices(Action(ActionKind.ANKAN, 0), observe(env.hand, 0))  # no tile
    with pytest.raises(ValueError, match="episode must be"):
        rl.MahjongEnv("gb_mcr", episode="game")  # type: ignore[arg-type]


@needs_rl
def test_render_gives_the_readable_log() -> None:
    env = rl.MahjongEnv("riichi_tenhou", render_mode="ansi")
    env.reset(seed=2)
    first = env.render()
    assert first.startswith("deal: dealer seat 0")
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert "discards" in env.render()
    env = rl.MahjongEnv("sichuan_tfmj", render_mode="ansi", episode="match", hands=2)
    _play(env, _random(0), seed=1)
    log = env.render()  # both hands, the first kept when the second was dealt
    assert log.count("deal: dealer") == 2 and log.count("hand over") == 2


@needs_rl
def test_the_rl_page_runs_as_written(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "rl.md").read_text("utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```$", text, flags=re.M | re.S)
    assert blocks
    out = io.StringIO()
    namespace: dict[str, object] = {"__name__": "__rl_docs__"}
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's two (the page says which)
        for i, block in enumerate(blocks):
            exec(compile(block, f"docs/rl.md block {i + 1}", "exec"), namespace)
    assert "seat_0" in out.getvalue()
    assert (
        '`describe_index(13)` is\n`"discard 5p"`' in text and rl.describe_index(13) == "discard 5p"
    )
    assert f"`Discrete({rl.N_ACTIONS})`" in text and f"\n{rl.OBSERVATION_SIZE} `int32`" in text
