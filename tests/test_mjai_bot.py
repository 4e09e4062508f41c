"""An external mjai bot at the table (``--bots "mjai:COMMAND"``, app/mjai_bot.py): small bots
written here as Python scripts, run as subprocesses by ``mjspec play`` and ``mjspec simulate``
(spawned workers); what they receive checked against the match's own mjai export and, where the
``mjai`` package is installed, by its libriichi state (``PlayerState``); every way a bot can fail
refused in one line with exit status 2, the bot process gone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mjspec.app.agents import AgentSpecError, load_agent
from mjspec.app.cli import main

try:  # the mjai package (PyPI ``mjai``): libriichi's per-seat state, an independent reader
    from mjai.mlibriichi.state import PlayerState
except ImportError:  # pragma: no cover - the package is optional
    PlayerState = None

needs_mjai = pytest.mark.skipif(PlayerState is None, reason="the mjai package is not installed")

# Discards what it draws, declares a win when libriichi says it may (when the mjai package is
# there), otherwise answers none; writes every line it receives to the file named by argv[1].
TSUMOGIRI_BOT = """\
import json
import sys

try:
    from mjai.mlibriichi.state import PlayerState
except ImportError:
    PlayerState = None

log = open(sys.argv[1], "a")
me = state = None
for line in sys.stdin:
    log.write(line)
    log.flush()
    event = json.loads(line)
    if event["type"] == "start_game":
        me = event["id"]
        state = PlayerState(me) if PlayerState else None
    cans = state.update(line) if state is not None else None
    answer = {"type": "none"}
    if event["type"] == "tsumo" and event["actor"] == me:
        if cans is not None and cans.can_tsumo_agari:
            answer = {"type": "hora", "actor": me, "target": me, "pai": event["pai"]}
        else:
            answer = {"type": "dahai", "actor": me, "pai": event["pai"], "tsumogiri": True}
    elif event["type"] in ("dahai", "kakan") and event.get("actor") != me:
        if cans is not None and cans.can_ron_agari:
            answer = {"type": "hora", "actor": me, "target": event["actor"], "pai": event["pai"]}
    print(json.dumps(answer), flush=True)
"""

# A bot on the mjai package's own Bot class (the mjai.app bot framework), fed one event at a
# time: wins, riichi (two answers), kongs and calls whenever libriichi says it may (``closed``:
# no calls, discards toward a ready hand, so that it declares riichi). Anything the package
# complains of goes to argv[2].
CALLING_BOT = """\
import json
import sys

from mjai import Bot
from mjai.bot.tools import calc_shanten, convert_mjai_to_vec34, convert_vec34_to_short

log = open(sys.argv[1], "a")
sys.stderr = open(sys.argv[2], "a")
closed = "closed" in sys.argv[3:]


def same(a, b):
    return a[:2] == b[:2]


def shanten(tiles):
    return calc_shanten(convert_vec34_to_short(convert_mjai_to_vec34(tiles)))


class Caller(Bot):
    def think(self):
        if self.can_tsumo_agari:
            return self.action_tsumo_agari()
        if self.can_ron_agari:
            return self.action_ron_agari()
        hand = self.tehai_mjai
        if self.self_riichi_declared and not self.self_riichi_accepted and self.can_discard:
            return self.action_discard(self.discardable_tiles_riichi_declaration[0])
        if self.can_riichi:
            return self.action_riichi()
        if self.can_ankan:
            kind = self.player_state.ankan_candidates()[0]
            return self.action_ankan([t for t in hand if same(t, kind)])
        if self.can_kakan:
            kind = self.player_state.kakan_candidates()[0]
            return self.action_kakan([t for t in hand if same(t, kind)][0])
        last = self.last_kawa_tile
        if not closed and self.can_daiminkan:
            return self.action_daiminkan([t for t in hand if same(t, last)][:3])
        if not closed and self.can_pon:
            return self.action_pon([t for t in hand if same(t, last)][:2])
        if not closed and self.can_chi:
            n, suit = int(last[0]), last[1]
            for low, high, can in (
                (1, 2, self.can_chi_low),
                (-1, 1, self.can_chi_mid),
                (-2, -1, self.can_chi_high),
            ):
                a = [t for t in hand if t[:2] == f"{n + low}{suit}"]
                b = [t for t in hand if t[:2] == f"{n + high}{suit}"]
                if can and a and b:
                    return self.action_chi([a[0], b[0]])
        if self.can_discard:
            tsumo = self.last_self_tsumo
            allowed = sorted(t for t in hand if not self.forbidden_tiles[t[:2]])

            def after(t):
                rest = list(hand)
                rest.remove(t)
                return shanten(rest)

            if closed:
                return self.action_discard(min(allowed, key=lambda t: (after(t), t != tsumo)))
            return self.action_discard(tsumo if tsumo in allowed else allowed[0])
        return self.action_nothing()


bot = None
for line in sys.stdin:
    log.write(line)
    log.flush()
    event = json.loads(line)
    if event["type"] == "start_game":
        bot = Caller(event["id"])
    print(bot.react(json.dumps([event])), flush=True)
"""


# A bot that keeps its state across hands, as Mortal's does (libriichi's state is fed every event
# until end_game): it adds up the scores from each hora's and ryukyoku's deltas and each
# reach_accepted, and checks them, and the deposits, against the next start_kyoku; it wants an
# end_kyoku after every hand and an end_game at the end, and discards what it draws. Whatever it
# finds wrong goes to the file argv[1]; at end_game it writes its scores there as "final [...]".
KEEPING_BOT = """\
import json
import sys

out = open(sys.argv[1], "a")
me = scores = None
deposits = 0
state = "before the game"


def wrong(why):
    out.write(why + "\\n")
    out.flush()


for line in sys.stdin:
    event = json.loads(line)
    kind = event["type"]
    answer = {"type": "none"}
    if kind == "start_game":
        me, state = event["id"], "between hands"
    elif kind == "start_kyoku":
        if state != "between hands":
            wrong(f"start_kyoku {state}: the last hand was not ended")
        if scores is not None and (event["scores"] != scores or event["kyotaku"] != deposits):
            wrong(f"start_kyoku {event['scores']} {event['kyotaku']}, kept {scores} {deposits}")
        scores, deposits, state = list(event["scores"]), event["kyotaku"], "in a hand"
    elif kind == "reach_accepted":
        scores[event["actor"]] -= 1000
        deposits += 1
    elif kind in ("hora", "ryukyoku"):
        if state not in ("in a hand", "after hora"):
            wrong(f"{kind} {state}")
        for seat, delta in enumerate(event["deltas"]):
            scores[seat] += delta
        if kind == "hora":
            deposits = 0
        state = "after hora" if kind == "hora" else "after the result"
    elif kind == "end_kyoku":
        if state not in ("after hora", "after the result"):
            wrong(f"end_kyoku {state}: no hora or ryukyoku came")
        state = "between hands"
    elif kind == "end_game":
        if state != "between hands":
            wrong(f"end_game {state}")
        out.write(f"final {json.dumps(scores)}\\n")
        out.flush()
        state = "over"
    elif kind == "tsumo" and event["actor"] == me:
        answer = {"type": "dahai", "actor": me, "pai": event["pai"], "tsumogiri": True}
    print(json.dumps(answer), flush=True)
if state != "over":
    wrong(f"the input ended {state}: no end_game")
"""


def _bot(folder: Path, name: str, code: str) -> Path:
    path = folder / name
    path.write_text(code, encoding="utf-8")
    return path


def _seats(spec: str, seat: int) -> str:
    specs = ["greedy"] * 4
    specs[seat] = spec
    return ",".join(specs)


def _received(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def _seen_by(event: dict[str, Any], seat: int) -> dict[str, Any]:
    """An event of the whole match as ``seat`` is shown it: other seats' draws and starting tiles
    hidden, and other seats' ``tsumogiri`` unknown (an observation does not show it); starting
    tiles compared as a set (their order means nothing)."""
    out = dict(event)
    if out["type"] == "start_kyoku":
        out["tehais"] = [
            sorted(h) if s == seat else ["?"] * 13 for s, h in enumerate(out["tehais"])
        ]
    elif out["type"] == "tsumo" and out["actor"] != seat:
        out["pai"] = "?"
    elif out["type"] == "dahai" and out["actor"] != seat:
        out["tsumogiri"] = False
    return out


_RESULTS = ("hora", "ryukyoku", "end_kyoku", "end_game")


def _follow_the_table(received: list[dict[str, Any]], record: Path, seat: int) -> None:
    """Every event the bot received is, in order, an event of the record's own mjai export
    (app/mjai.py, written from the record by another path), as the seat may see it."""
    exported = subprocess.run(
        [sys.executable, "-m", "mjspec", "export", str(record), "--format", "mjai"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    results = [e for e in map(json.loads, exported.splitlines()) if e["type"] in _RESULTS]
    assert [e for e in received if e["type"] in _RESULTS] == results  # every hand's end
    whole = iter(_seen_by(json.loads(line), seat) for line in exported.splitlines())
    for n, event in enumerate(received):
        event = dict(event)
        if event["type"] == "start_game":
            assert event.pop("id") == seat
        if event["type"] == "start_kyoku":
            event["tehais"] = [sorted(h) for h in event["tehais"]]
        assert any(want == event for want in whole), f"event {n} {event} is not the table's"


def _libriichi_reads(received: list[dict[str, Any]], seat: int) -> None:
    """libriichi's state of the seat takes every event (it raises on one it cannot apply), and
    the seat's own hand it keeps matches each starting hand sent."""
    assert PlayerState is not None
    state = PlayerState(seat)
    for event in received:
        state.update(json.dumps(event))
        if event["type"] == "start_kyoku":
            counts = [0] * 34
            for name in event["tehais"][seat]:
                counts[
                    (
                        "mpsz".index(name[1]) * 9 + int(name[0]) - 1
                        if name[0].isdigit()
                        else 27 + "ESWNPFC".index(name)
                    )
                ] += 1
            assert list(state.tehai) == counts


def _play(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("seat, hands", [(0, 4), (2, 3)])
def test_a_tsumogiri_bot_plays_a_riichi_match_and_sees_the_table_as_its_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seat: int, hands: int
) -> None:
    bot = _bot(tmp_path, "bot.py", TSUMOGIRI_BOT)
    log, record = tmp_path / "received.jsonl", tmp_path / "match.json"
    spec = f"mjai:{sys.executable} {bot} {log}"
    args = ["play", "riichi_tenhou", "--seed", "3", "--quiet", "--record", str(record)]
    args += ["--bots", _seats(spec, seat), "--hands", str(hands)]
    code, out, err = _play(args, capsys)
    assert code == 0, err
    assert "riichi_tenhou, seed 3: totals" in out
    assert main(["replay", str(record)]) == 0  # the record replays
    received = _received(log)
    assert received[0]["type"] == "start_game" and received[0]["id"] == seat
    starts = [e for e in received if e["type"] == "start_kyoku"]
    assert len(starts) == len(json.loads(record.read_text())["hands"])
    # Its own draws show their tile, the others' are hidden.
    draws = [e for e in received if e["type"] == "tsumo"]
    assert all((e["pai"] == "?") == (e["actor"] != seat) for e in draws)
    assert any(e["actor"] != seat for e in draws)
    _follow_the_table(received, record, seat)
    if PlayerState is not None:
        _libriichi_reads(received, seat)


@needs_mjai
@pytest.mark.parametrize("closed", [False, True])
def test_a_bot_on_the_mjai_package_calls_declares_riichi_and_kongs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], closed: bool
) -> None:
    bot = _bot(tmp_path, "caller.py", CALLING_BOT)
    log, complaints = tmp_path / "received.jsonl", tmp_path / "complaints.txt"
    record = tmp_path / "match.json"
    spec = f"mjai:{sys.executable} {bot} {log} {complaints}" + (" closed" if closed else "")
    seed = 3 if closed else 2
    args = ["play", "riichi_tenhou", "--seed", str(seed), "--quiet", "--record", str(record)]
    args += ["--hands", "6" if closed else "4"]
    code, out, err = _play(args + ["--bots", _seats(spec, 1)], capsys)
    assert code == 0, err
    assert not complaints.read_text(), "the mjai package's bot could not follow the events"
    assert main(["replay", str(record)]) == 0
    received = _received(log)
    own = {e["type"] for e in received if e.get("actor") == 1}
    # Its answers were taken: the table played the calls, riichi and kongs it asked for.
    assert own >= ({"reach", "reach_accepted"} if closed else {"chi", "pon", "kakan"})
    _libriichi_reads(received, 1)
    taken = {
        d["kind"]
        for h in json.loads(record.read_text())["hands"]
        for d in h["decisions"]
        if d["seat"] == 1
    }
    if closed:  # its riichi (two answers) and a hora became the table's riichi and win
        assert "riichi" in taken and taken & {"ron", "tsumo"}
    if not closed:  # a seat that is asked every turn sees every step in the table's order
        _follow_the_table(received, record, 1)


@pytest.mark.parametrize("seat, seed", [(0, 1), (3, 5)])
def test_a_bot_that_keeps_its_state_across_hands_is_told_every_result_and_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seat: int, seed: int
) -> None:
    """hora and ryukyoku with their deltas, end_kyoku after every hand and end_game at the end,
    as mjai servers send them: a bot that adds up the scores from them (as libriichi's state does)
    finds every next start_kyoku, and the match's totals, as it counted."""
    notes = tmp_path / "notes.txt"
    bot = _bot(tmp_path, "keeper.py", KEEPING_BOT)
    record = tmp_path / "match.json"
    args = ["play", "riichi_tenhou", "--seed", str(seed), "--quiet", "--record", str(record)]
    args += ["--hands", "5", "--bots", _seats(f"mjai:{sys.executable} {bot} {notes}", seat)]
    code, out, err = _play(args, capsys)
    assert code == 0, err
    said = notes.read_text().splitlines()
    assert len(said) == 1 and said[0].startswith("final "), said
    totals = json.loads(said[0].removeprefix("final "))
    assert f"totals {totals}" in out
    assert len(json.loads(record.read_text())["hands"]) == 5
    assert totals != [25000] * 4  # points changed hands: the counting was put to the test


def test_simulate_seats_the_bot_in_spawned_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MJSPEC_START_METHOD", "spawn")  # as macOS and Windows start workers
    bot = _bot(tmp_path, "bot.py", TSUMOGIRI_BOT)
    log = tmp_path / "received.jsonl"
    spec = f"mjai:{sys.executable} {bot} {log}"
    args = ["simulate", "riichi_planet", "--games", "2", "--workers", "2", "--no-progress"]
    args += ["--hands", "2"]
    code, out, err = _play(args + ["--bots", _seats(spec, 0)], capsys)
    assert code == 0, err
    assert "riichi_planet: 2 games" in out
    received = _received(log)
    # One bot process a game, each told its seat at the start.
    assert [e["id"] for e in received if e["type"] == "start_game"] == [0, 0]


BROKEN = {
    "garbage": ("print('garbage', flush=True)", "is not JSON"),
    "illegal": (
        "print(json.dumps({'type': 'dahai', 'actor': e['actor'], 'pai': 'C', 'tsumogiri': False}"
        " if e['type'] == 'tsumo' and e['actor'] == me else {'type': 'none'}), flush=True)",
        "is not legal now: C cannot be discarded",
    ),
    "dies": ("raise SystemExit('the bot gave up')", "it ended without answering"),
    "silent": ("time.sleep(30)", "no answer within 0.5 s"),
}


@pytest.mark.parametrize("how", sorted(BROKEN))
def test_a_bot_that_fails_stops_the_match_in_one_line_and_is_gone(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    how: str,
) -> None:
    monkeypatch.setenv("MJSPEC_MJAI_TIMEOUT", "0.5")
    answer, why = BROKEN[how]
    code_text = (
        "import json, sys, time\nme = None\nfor line in sys.stdin:\n    e = json.loads(line)\n"
        "    if e['type'] == 'start_game':\n        me = e['id']\n"
        "        print(json.dumps({'type': 'none'}), flush=True)\n        continue\n"
        f"    {answer}\n"
    )
    bot = _bot(tmp_path, f"{how}.py", code_text)
    record = tmp_path / "match.json"
    args = ["play", "riichi_tenhou", "--quiet", "--record", str(record)]
    code, out, err = _play(args + ["--bots", _seats(f"mjai:{sys.executable} {bot}", 0)], capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mjspec: hand 1: seat 0's agent"), err
    assert f"mjai bot '{sys.executable} {bot}'" in err and why in err
    assert "answering {" in err  # the event it was answering
    assert not record.exists()  # nothing half-written
    running = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert str(bot) not in running  # the bot process was stopped


def test_the_bot_of_a_game_that_is_not_riichi_is_refused_before_it_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "received.jsonl"
    spec = f"mjai:{sys.executable} {_bot(tmp_path, 'bot.py', TSUMOGIRI_BOT)} {log}"
    code, out, err = _play(["play", "sichuan_tfmj", "--quiet", "--bots", spec], capsys)
    assert code == 2
    assert "is not riichi mahjong: mjai and tenhou.net/6 describe four-player riichi only" in err
    assert not log.exists()  # no process was started


def test_a_command_that_cannot_run_is_refused_with_the_spec(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(AgentSpecError, match="cannot run 'no-such-mjai-bot': not found on PATH"):
        load_agent("mjai:no-such-mjai-bot --seat 0")
    with pytest.raises(AgentSpecError, match="no command after the colon"):
        load_agent("mjai:  ")
    with pytest.raises(AgentSpecError, match="the command does not parse"):
        load_agent("mjai:python3 'unclosed")
    monkeypatch.setenv("MJSPEC_MJAI_TIMEOUT", "soon")
    with pytest.raises(AgentSpecError, match="MJSPEC_MJAI_TIMEOUT='soon' is not a number"):
        load_agent(f"mjai:{sys.executable} {tmp_path / 'x.py'}")


def test_each_game_s_bot_processes_are_stopped_when_the_game_is_done(tmp_path: Path) -> None:
    from mjspec.app.registry import load_profile
    from mjspec.app.simulate import make_players
    from mjspec.runtime.match import play_match

    bot = _bot(tmp_path, "bot.py", TSUMOGIRI_BOT)
    spec = f"mjai:{sys.executable} {bot} {tmp_path / 'received.jsonl'}"

    def alive() -> int:
        running = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
        return sum(str(bot) in line for line in running.splitlines())

    for game in range(2):  # as a simulation worker plays its games: agents made, played, dropped
        play_match(load_profile("riichi_tenhou"), make_players([spec, "greedy"] * 2, game), game, 1)
        assert alive() == 0
    assert len(_received(tmp_path / "received.jsonl")) > 0


# The mjai package's own rule-based bot, unchanged, in its own loop (Bot.start: mjai.app's
# dialect, a JSON array of events a line); the player id is its argument, as mjai.app gives it.
RIICHI_BOT = """\
import sys

sys.stderr = open(sys.argv[2], "a")
from mjai.bot.riichibot import RiichiBot

RiichiBot(int(sys.argv[1])).start()
"""


@needs_mjai
def test_mjai_batch_seats_the_mjai_package_s_own_bot_in_its_own_loop(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = _bot(tmp_path, "riichibot.py", RIICHI_BOT)
    complaints, record = tmp_path / "complaints.txt", tmp_path / "match.json"
    complaints.touch()
    spec = f"mjai_batch:{sys.executable} {bot} 1 {complaints}"
    args = ["play", "riichi_tenhou", "--seed", "1", "--hands", "4", "--quiet"]
    code, out, err = _play(args + ["--record", str(record), "--bots", _seats(spec, 1)], capsys)
    assert code == 0, err
    assert not complaints.read_text(), "the mjai package's bot could not follow the events"
    assert main(["replay", str(record)]) == 0
    decisions = [d for h in json.loads(record.read_text())["hands"] for d in h["decisions"]]
    assert any(d.get("seat") == 1 and d.get("kind") == "discard" for d in decisions)


def _bridged(record: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The events the bridge (app/mjai_bot.py) would send ``seat`` while ``record`` is played
    again: its decisions' events at each of the seat's decisions, the seat's own answers as the
    bridge turns them into events (riichi's ``reach``), each hand's end (``hand_over``) and the
    match's (``end_game``). No process: the events are what would be written to it."""
    from mjspec.app.mjai import game_start, step_event
    from mjspec.app.mjai_bot import MjaiBot
    from mjspec.app.played import Declared
    from mjspec.app.registry import load_profile as profile_of
    from mjspec.runtime.actions import ActionKind
    from mjspec.runtime.observation import observe
    from mjspec.runtime.record import replay as replay_record
    from mjspec.runtime.table import Phase

    bridge = MjaiBot("(none)", ["(none)"])
    sent: list[dict[str, Any]] = [game_start(profile_of(record["profile"]), seat)]
    asked: list[Any] = []  # the observation of the seat's pending decision, once its events went

    def observer(i: int, hand: Any, action: Any, new: Any) -> None:
        if action is not None and action.seat == seat:  # the seat answered (MjaiBot._action)
            (obs,) = asked
            asked.clear()
            assert bridge._hand is not None
            if action.kind is ActionKind.RIICHI:  # reach, then its dahai (MjaiBot._reach)
                bridge._hand.reach[seat] = True
                sent.append(step_event(Declared(seat)))
            if action.kind in (ActionKind.DISCARD, ActionKind.RIICHI):
                bridge._hand.tsumogiri = obs.drawn == action.tile
        if hand.phase is Phase.OVER:  # MjaiBot.hand_over
            sent.extend(bridge._end_events(observe(hand, seat)))
            sent.append({"type": "end_kyoku"})
            asked.clear()
        elif not asked and hand.pending_step is None and seat in hand.pending_seats():
            asked.append(observe(hand, seat))  # MjaiBot.choose
            sent.extend(bridge._events(asked[0]))

    replay_record(record, profiles=profile_of, observe=observer)
    sent.append({"type": "end_game"})
    return sent


def _excerpt_names() -> list[Any]:
    from exportkit import EXCERPTS, FAST

    # complex_nakis_1: two seats call tiles of one kind from one discarder between two
    # decisions of a seat (which came first is found by replaying both orders).
    default = (*FAST, "complex_nakis_1.json")
    return [
        p.name if p.name in default else pytest.param(p.name, marks=pytest.mark.slow)
        for p in EXCERPTS
    ]


@pytest.mark.parametrize("name", _excerpt_names())
def test_the_bridge_tells_every_end_of_the_tenhou_excerpts_as_the_export_does(name: str) -> None:
    """Robbed kongs (two added kongs in one turn, the second robbed), a double ron, four riichi,
    nine terminals (the other seats see that hand only at its end), four kongs: at every seat,
    the bridge sends each hand's start and results (hora with its deltas and ura, ryukyoku,
    end_kyoku) exactly as the export writes them, and every other event of the export as the seat
    sees it (a kong of another seat that took several turns between two of the seat's decisions
    is placed at the first: docs/mjai.md). The Tenhou excerpts are played again at the table; the
    events are those the bridge would write to a bot's process."""
    from collections import Counter

    from exportkit import REVIEWER, imported

    from mjspec.app.mjai import mjai_events
    from mjspec.app.played import played_match

    record = imported(REVIEWER / name)
    exported = mjai_events(played_match(record))
    for seat in range(4):
        sent = _bridged(record, seat)
        for event in sent:
            if event["type"] == "start_kyoku":
                event["tehais"] = [sorted(h) for h in event["tehais"]]
        seen = [_seen_by(e, seat) for e in exported]
        kept = (*_RESULTS, "start_kyoku")
        assert [e for e in sent if e["type"] in kept] == [e for e in seen if e["type"] in kept]
        assert Counter(e["type"] for e in sent) == Counter(e["type"] for e in seen), seat
        others = [e for e in sent if e["type"] not in (*kept, "start_game")]
        assert all(e in seen for e in others), seat
