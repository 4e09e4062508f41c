"""An agent's observation does not lead to the table (runtime/observation.py, docs/api.md "What an
agent cannot see"): from an observation, and from everything it holds or returns, no path of
attributes, items, instance dictionaries, slots, bound methods' ``__self__``, closures or other
references reaches the round, the wall, the dead wall, another seat's concealed tiles or a
mechanism of the table holding hidden state; and once the decision has returned, nothing of the
table at all, kept or not. Modules, classes and functions' globals are not followed: through them
in-process Python reaches everything (``sys.modules``, ``gc``, frames), the boundary docs/api.md
states."""

from __future__ import annotations

import functools
import gc
import random
import types
from typing import Any, Iterable

import pytest

from mjspec.app.registry import load_profile
from mjspec.runtime.actions import Action
from mjspec.runtime.bots import GreedyBot, RandomBot
from mjspec.runtime.deadwall import DeadWall
from mjspec.runtime.match import play_hand
from mjspec.runtime.observation import Observation
from mjspec.runtime.table import Round
from mjspec.runtime.table.abortive import Abortive
from mjspec.runtime.table.claims import Claims, Passing
from mjspec.runtime.table.clocks import Clocks
from mjspec.runtime.table.common import WinRecord
from mjspec.runtime.table.exhaustion import Exhaustion
from mjspec.runtime.table.furiten import Furiten
from mjspec.runtime.table.kongs import Kongs
from mjspec.runtime.table.opening import Exchange, MissingSuit, OriginalCall
from mjspec.runtime.table.riichi import Riichi
from mjspec.runtime.table.settlement import Settlement
from mjspec.runtime.table.state import TableState
from mjspec.runtime.table.wall import Wall
from mjspec.runtime.table.wins import Wins

HIDDEN_TYPES = (
    TableState,  # the Round itself
    Wall,
    DeadWall,
    Claims,  # the claim window's answers
    Passing,
    Riichi,  # every seat's waits
    Exchange,  # every seat's chosen tiles
    MissingSuit,  # every seat's declaration, hidden until all have made one
    OriginalCall,
    Kongs,
    Furiten,
    Wins,
    WinRecord,
    Settlement,
    Exhaustion,
    Abortive,
    Clocks,
    random.Random,  # the round's chance
)
"""The table and its mechanisms: an observation must reach no object of these types."""

_NOT_FOLLOWED = (type, types.ModuleType, types.CodeType, types.FrameType)


def _children(obj: Any) -> Iterable[tuple[str, Any]]:
    """Every object ``obj`` refers to, named by how: the obvious routes by name (items, the
    instance dict, slots, a bound method's __self__, a closure's cells, a partial's arguments),
    then whatever else the garbage collector says it refers to (C-level references included)."""
    if isinstance(obj, (tuple, list, set, frozenset)):
        for i, item in enumerate(obj):
            yield f"[{i}]", item
    elif isinstance(obj, (dict, types.MappingProxyType)):
        for key, value in obj.items():
            yield f"[{key!r}]", value
            yield f"key {key!r}", key
    if isinstance(obj, (types.FunctionType, types.LambdaType)):
        # A function: its closure and defaults, not its globals (a module's namespace).
        for i, cell in enumerate(obj.__closure__ or ()):
            yield f".__closure__[{i}]", cell.cell_contents
        yield ".__defaults__", obj.__defaults__
        yield ".__kwdefaults__", obj.__kwdefaults__
        return
    if isinstance(obj, (types.MethodType, types.BuiltinMethodType, types.MethodWrapperType)):
        owner = getattr(obj, "__self__", None)
        if not isinstance(owner, types.ModuleType):
            yield ".__self__", owner
        if isinstance(obj, types.MethodType):
            yield ".__func__", obj.__func__
        return
    if isinstance(obj, functools.partial):
        yield ".func", obj.func
        yield ".args", obj.args
        yield ".keywords", obj.keywords
    if isinstance(obj, types.CellType):
        yield ".cell_contents", obj.cell_contents
    instance_dict = getattr(obj, "__dict__", None)
    if isinstance(instance_dict, dict):
        yield ".__dict__", instance_dict
        for name, value in list(vars(obj).items()):
            yield f".{name}", value
    for klass in type(obj).__mro__:
        for name in getattr(klass, "__slots__", ()):
            if name in ("__dict__", "__weakref__"):
                continue
            try:
                yield f".{name}", getattr(obj, name)
            except AttributeError:
                pass
    for i, other in enumerate(gc.get_referents(obj)):
        if type(other) is dict and other is instance_dict:
            continue
        yield f" referent {i} ({type(other).__name__})", other


def reaches(root: Any, forbidden: dict[int, str], skip: Iterable[int] = ()) -> list[str]:
    """The paths from ``root`` to a hidden object (of :data:`HIDDEN_TYPES`, or whose id is in
    ``forbidden``, named by its value); ``skip``: ids walked before and found clean."""
    found: list[str] = []
    seen: set[int] = set(skip)
    todo: list[tuple[Any, str]] = [(root, "obs")]
    while todo:
        obj, path = todo.pop()
        if id(obj) in seen or obj is None or isinstance(obj, (int, float, str, bytes, bool)):
            continue
        seen.add(id(obj))
        if isinstance(obj, HIDDEN_TYPES):
            found.append(f"{path}: a {type(obj).__name__}")
            continue
        if id(obj) in forbidden:
            found.append(f"{path}: {forbidden[id(obj)]}")
            continue
        if isinstance(obj, _NOT_FOLLOWED) or type(obj).__name__ == "getset_descriptor":
            continue
        if isinstance(obj, dict) and "__builtins__" in obj:  # a module's namespace
            continue
        for how, child in _children(obj):
            todo.append((child, path + how))
    return found


def _hidden_lists(hand: Round, seat: int) -> dict[int, str]:
    """The table's containers of what ``seat`` may not see: the other seats' concealed tiles (and
    their counts by kind), the containers of every seat's, the log."""
    out = {id(hand.hands): "Round.hands", id(hand.counts): "Round.counts"}
    for s in range(4):
        if s != seat:
            out[id(hand.hands[s])] = f"seat {s}'s concealed tiles"
            out[id(hand.counts[s])] = f"seat {s}'s tiles by kind"
    out[id(hand.events)] = "Round.events"
    out[id(hand.decisions)] = "Round.decisions"
    return out


def _table_containers(hand: Round) -> dict[int, str]:
    """Every container the round holds, the public ones too (after a decision none may be
    reached: a kept observation holds copies)."""
    out: dict[int, str] = {}
    for name, value in vars(hand).items():
        if isinstance(value, (list, dict)):
            out[id(value)] = f"Round.{name}"
            for i, inner in enumerate(value if isinstance(value, list) else value.values()):
                if isinstance(inner, (list, dict)):
                    out[id(inner)] = f"Round.{name}[{i}]"
    for mechanism in (hand.riichi, hand.original_call):
        for name, value in vars(mechanism or object()).items() if mechanism else ():
            if isinstance(value, list):
                out[id(value)] = f"{type(mechanism).__name__}.{name}"
    return out


def _everything_it_returns(obs: Observation) -> list[Any]:
    """What an agent can ask an observation for: every field and derived value, its JSON, and
    each method's answer."""
    out: list[Any] = [getattr(obs, name) for name in dir(obs) if not name.startswith("__")]
    out += [obs.fields(), obs.to_json(), obs.win_context(), obs.discards, obs.exhausted_kinds()]
    out += [obs.standing(s) for s in range(4)]
    out += [a.to_json() for a in obs.legal]
    return out


class Prober:
    """A greedy or random bot that, before answering, walks from its observation to everything
    it can reach (and keeps every observation, and the source of some, to walk after the hand)."""

    def __init__(self, bot: Any, hand: Round, profile_clean: set[int]) -> None:
        self.bot, self.hand, self.clean = bot, hand, profile_clean
        self.leaks: list[str] = []
        self.kept: list[Observation] = []
        self.kept_parts: list[Any] = []
        self.asked = 0

    def choose(self, observation: Observation) -> Action:
        self.asked += 1
        forbidden = _hidden_lists(self.hand, observation.seat)
        self.leaks += reaches(observation, forbidden, self.clean)  # before any field is read
        if self.asked % 2:
            self.kept.append(observation)  # kept: completed when the decision returns
        else:
            self.kept_parts.append(list(observation))  # its items (its source among them) only
        # (its bound methods among what it returns: their __self__ is walked too)
        self.leaks += reaches(_everything_it_returns(observation), forbidden, self.clean)
        return self.bot.choose(observation)


@pytest.mark.parametrize(
    "pid, seeds",
    [("riichi_tenhou", range(3)), ("sichuan_planet", range(2)), ("gb_mcr", range(2))],
)
def test_no_path_from_an_observation_reaches_the_table(pid: str, seeds: range) -> None:
    profile = load_profile(pid)
    clean: set[int] = set()
    # The profile (the rules every seat knows) reaches nothing of a table: walked once, then
    # skipped at each decision.
    assert reaches(profile, {}, set()) == []
    todo = [profile]
    while todo:  # the ids it reaches, to skip
        obj = todo.pop()
        if id(obj) in clean or isinstance(obj, _NOT_FOLLOWED):
            continue
        clean.add(id(obj))
        if isinstance(obj, dict) and "__builtins__" in obj:
            continue
        todo.extend(child for _, child in _children(obj))
    asked = 0
    for seed in seeds:
        hand = Round(profile, seed=seed, dealer=seed % 4)
        probers = [
            Prober(
                GreedyBot(seed * 4 + s) if (seed + s) % 3 else RandomBot(seed * 4 + s), hand, clean
            )
            for s in range(4)
        ]
        play_hand(hand, probers)
        everything = _table_containers(hand) | _hidden_lists(hand, -1)
        for p in probers:
            asked += p.asked
            assert not p.leaks, p.leaks[:5]
            # After the hand: a kept observation holds its own copies, nothing of the table, and
            # the items of one that was not kept hold nothing of it either (its source emptied).
            for kept in p.kept:
                assert reaches(kept, everything, clean) == []
                assert reaches(_everything_it_returns(kept), everything, clean) == []
            for parts in p.kept_parts:
                assert reaches(parts, everything, clean) == []
                assert parts[-1] == []  # the source, emptied when the decision returned
    assert asked > 60


def test_the_walk_finds_the_table_where_it_is() -> None:
    """The check can fail: a structure holding the round, a seat's hidden tiles, or the table in
    a closure, is caught by each route."""
    hand = Round(load_profile("riichi_tenhou"), seed=1)

    class Holder:
        __slots__ = ("held",)

        def __init__(self, held: Any) -> None:
            self.held = held

        def method(self) -> None: ...

    def closing() -> Any:
        return hand.wall

    forbidden = _hidden_lists(hand, 0)
    assert reaches((1, [hand]), forbidden)  # the main branch's source: a list holding the round
    assert reaches({"x": Holder(hand.hands[2])}, forbidden)  # a slot
    assert reaches(Holder(hand.claims).method, forbidden)  # a bound method's __self__
    assert reaches(closing, forbidden)  # a closure
    assert reaches(functools.partial(print, hand.riichi), forbidden)
    assert not reaches((hand.river, hand.hands[0]), forbidden)  # the public river, seat 0's own
