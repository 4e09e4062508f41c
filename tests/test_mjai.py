"""mjai: ``mjspec export --format mjai`` and ``mjspec import --format mjai`` (docs/mjai.md), with
the two independent mjai readers installed beside the project where they are: Mortal's libriichi
(as the ``mjai`` package's ``mlibriichi``) and RiichiEnv."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mjspec.app.cli import main
from mjspec.app.mjai import MjaiFormatError, dumps, mjai_events, read_mjai
from mjspec.app.played import Won, played_match
from mjspec.app.records import replay
from mjspec.app.registry import load_profile
from mjspec.app.tenhou_replay import game_record

from .exportkit import (
    BOT_MATCHES,
    excerpts,
    MJLOGS,
    bot_events,
    bot_played,
    bot_record,
    comparable,
    imported,
)

TILES = {f"{n}{s}" for n in range(1, 10) for s in "mps"} | set("ESWNPFC") | {"5mr", "5pr", "5sr"}


def _events(record: dict[str, Any]) -> list[dict[str, Any]]:
    return mjai_events(played_match(record))


def _import(text: str, profile: str) -> dict[str, Any]:
    game, _ = read_mjai(text, "log.mjson")
    return game_record(game, load_profile(profile))


def _tiles_in(ev: dict[str, Any]) -> list[Any]:
    out: list[Any] = []
    for key in ("pai", "dora_marker"):
        if key in ev:
            out.append(ev[key])
    for key in ("consumed", "ura_markers"):
        out.extend(ev.get(key, []))
    for hand in ev.get("tehais", []):
        out.extend(hand)
    return out


@pytest.mark.parametrize("profile,seed,bots", BOT_MATCHES)
def test_the_event_stream(profile: str, seed: int, bots: str) -> None:
    record = bot_record(profile, seed, bots)
    events = bot_events(profile, seed, bots)
    assert events[0]["type"] == "start_game" and events[-1]["type"] == "end_game"
    kinds = [e["type"] for e in events]
    assert kinds.count("start_kyoku") == kinds.count("end_kyoku") == len(record["hands"])
    for ev in events:
        assert all(t in TILES for t in _tiles_in(ev)), ev
    starts = [e for e in events if e["type"] == "start_kyoku"]
    for start, raw in zip(starts, record["hands"]):
        assert start["oya"] == raw["dealer"] and start["kyoku"] == raw["dealer"] + 1
        assert start["bakaze"] == raw["round_wind"] and start["honba"] == raw["honba"]
        assert start["kyotaku"] == raw["deposits"] and start["scores"] == raw["points"]
        assert all(len(t) == 13 for t in start["tehais"])
    # Each hand's score changes: its wins' (or draw's) deltas and 1000 per accepted riichi.
    hand = -1
    change = [[0] * 4 for _ in record["hands"]]
    for ev in events:
        if ev["type"] == "start_kyoku":
            hand += 1
        elif ev["type"] in ("hora", "ryukyoku"):
            change[hand] = [c + d for c, d in zip(change[hand], ev["deltas"])]
        elif ev["type"] == "reach_accepted":
            change[hand][ev["actor"]] -= 1000
    assert change == [raw["scores"] for raw in record["hands"]]
    if bots != "greedy":
        assert {"chi", "pon"} <= set(kinds)


@pytest.mark.parametrize("profile,seed,bots", BOT_MATCHES)
def test_export_import_export_is_the_identity(profile: str, seed: int, bots: str) -> None:
    record = bot_record(profile, seed, bots)
    text = dumps(bot_events(profile, seed, bots))
    back = _import(text, profile)
    assert back["source"]["format"] == "mjai" and back["source"]["agrees_with_log"]
    replay(back)  # a record mjspec replay accepts
    assert dumps(_events(back)) == text
    assert comparable(back, chance=True) == comparable(record, chance=True)


@pytest.mark.parametrize(
    "path",
    excerpts() + [pytest.param(p, marks=pytest.mark.slow) for p in MJLOGS],
    ids=lambda p: p.name,
)
def test_tenhou_logs_through_mjai(path: Path) -> None:
    record = imported(path)
    text = dumps(_events(record))
    back = _import(text, record["profile"])
    assert back["source"]["agrees_with_log"], back["source"]["differences"]
    assert comparable(back, chance=True) == comparable(record, chance=True)
    assert dumps(_events(back)) == text


THIRD_PARTY = Path(__file__).parent / "data" / "mjai-riichienv" / "126_204_0_mjai.jsonl"


def test_a_third_party_mjai_log_imports_and_is_written_back_as_it_was(tmp_path: Path) -> None:
    """An mjai log another program wrote (RiichiEnv's test data, tests/data/README.md): imported
    under riichi_tenhou, every hand plays legally with the log's score changes, the record replays,
    and exported again it is the same stream event for event, but for what the export adds
    (``start_game``'s ``kyoku_first`` and ``aka_flag``, ``hora.pai``) and the names and seed the
    record does not keep."""
    out = tmp_path / "game.json"
    assert main(["import", str(THIRD_PARTY), "--format", "mjai", "--out", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["source"]["agrees_with_log"] and len(record["hands"]) == 12
    replay(record)
    upstream = [json.loads(line) for line in THIRD_PARTY.read_text().splitlines() if line.strip()]
    ours = _events(record)
    assert len(ours) == len(upstream)
    assert ours[0]["type"] == upstream[0]["type"] == "start_game"
    for mine, theirs in zip(ours[1:], upstream[1:]):
        if mine["type"] == "hora":
            mine = {k: v for k, v in mine.items() if k != "pai"}
        assert mine == theirs


#: A constructed tenhou.net/6 hand: the dealer's first discard, 5p, completes three all-simples
#: hands waiting on it; three players win on one discard, an abortive draw under Tenhou's rules.
TRIPLE_RON = {
    "title": ["", ""],
    "name": ["A", "B", "C", "D"],
    "rule": {"disp": "般南喰赤", "aka": 1},
    "log": [
        [
            [0, 0, 0],
            [25000, 25000, 25000, 25000],
            [11],
            [],
            [11, 19, 21, 29, 31, 39, 41, 42, 43, 44, 45, 46, 47],
            [25],
            [25],
            [12, 13, 14, 15, 16, 17, 36, 37, 38, 32, 32, 24, 26],
            [],
            [],
            [12, 13, 14, 15, 16, 17, 36, 37, 38, 33, 33, 24, 26],
            [],
            [],
            [12, 13, 14, 16, 17, 18, 36, 37, 38, 34, 34, 24, 26],
            [],
            [],
            ["三家和了"],
        ]
    ],
}


def test_a_triple_ron_through_both_formats(tmp_path: Path) -> None:
    """Tenhou writes a triple ron as a draw (三家和了), mjai as a ryukyoku after the discard: both
    importers give the table the three ron declarations it needs, and every export of the hand
    reads back to the same record."""
    log = tmp_path / "triple.json"
    log.write_text(json.dumps(TRIPLE_RON, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "triple-record.json"
    assert main(["import", str(log), "--out", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["source"]["agrees_with_log"]
    hand = record["hands"][0]
    assert [d["kind"] for d in hand["decisions"]] == ["discard", "ron", "ron", "ron"]
    assert {"kind": "abortive_draw", "data": {"reason": "triple_ron"}} in hand["events"]
    text = dumps(_events(record))
    assert text.splitlines()[-3] == '{"type":"ryukyoku","deltas":[0,0,0,0]}'
    back = _import(text, "riichi_tenhou")
    assert comparable(back, chance=True) == comparable(record, chance=True)
    assert dumps(_events(back)) == text


# ------------------------------------------------------------------ hostile logs

_START = {"type": "start_game", "names": ["a", "b", "c", "d"]}


def _stream() -> list[str]:
    return dumps(bot_events(*BOT_MATCHES[1])).splitlines()


def _first(lines: list[str], kind: str) -> int:
    return next(i for i, line in enumerate(lines) if json.loads(line)["type"] == kind)


def _edit(lines: list[str], index: int, **changes: Any) -> list[str]:
    ev = json.loads(lines[index])
    ev.update(changes)
    return lines[:index] + [json.dumps(ev)] + lines[index + 1 :]


def _hostile() -> list[tuple[str, list[str], str]]:
    lines = _stream()
    dahai = _first(lines, "dahai")
    tsumo = _first(lines, "tsumo")
    start = _first(lines, "start_kyoku")
    other = json.loads(lines[dahai])["actor"] + 2
    return [
        ("bad json", lines[:3] + ["{nope"] + lines[3:], "line 4: not JSON"),
        (
            "not an object",
            lines[:2] + ["[1, 2]"] + lines[2:],
            "line 3: an mjai event is a JSON object",
        ),
        (
            "unknown event",
            lines[:2] + ['{"type": "teleport"}'] + lines[2:],
            'line 3: unknown event type "teleport"',
        ),
        (
            "impossible tile",
            _edit(lines, tsumo, pai="0m"),
            f'line {tsumo + 1}: "0m" is not an mjai tile',
        ),
        ("hidden tile", _edit(lines, tsumo, pai="?"), f'line {tsumo + 1}: "?" is not an mjai tile'),
        (
            "not held",
            (
                _edit(lines, dahai, pai="C", tsumogiri=False)
                if "C" not in lines[start]
                else _edit(lines, dahai, pai="9m", tsumogiri=False)
            ),
            f"line {dahai + 1}: seat",
        ),
        (
            "out of order",
            _edit(lines, dahai, actor=other % 4),
            f"line {dahai + 1}: dahai by seat {other % 4} out of order",
        ),
        (
            "seat",
            _edit(lines, dahai, actor=7),
            f"line {dahai + 1}: actor must be a seat 0-3, got 7",
        ),
        (
            "missing field",
            _edit(lines, start, tehais=None),
            f"line {start + 1}: tehais must list four hands",
        ),
        ("before start_game", lines[1:], "line 1: start_kyoku before start_game"),
        ("cut short", lines[: dahai + 1], "the log ends inside a hand"),
        (
            "after end_game",
            lines + [json.dumps(_START)],
            f"line {len(lines) + 1}: start_game after end_game",
        ),
    ]


@pytest.mark.parametrize("case", range(12))
def test_hostile_logs_name_the_line(
    case: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name, lines, message = _hostile()[case]
    with pytest.raises(MjaiFormatError) as e:
        read_mjai("\n".join(lines) + "\n", "log.mjson")
    assert message in str(e.value), (name, str(e.value))
    log = tmp_path / "log.mjson"
    log.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.json"
    assert main(["import", str(log), "--format", "mjai", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not out.exists()


def test_a_log_the_table_refuses_names_the_hand_and_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A log whose events read well but break a rule of the profile: the table's message, with the
    line its hand starts on."""
    lines = _stream()
    hora = _first(lines, "hora")
    ev = json.loads(lines[hora])
    ev["deltas"] = [
        d + (100 if i == ev["actor"] else -100 if i == ev["target"] else 0)
        for i, d in enumerate(ev["deltas"])
    ]
    if ev["actor"] == ev["target"]:
        ev["deltas"] = [
            d + (300 if i == ev["actor"] else -100)
            for i, d in enumerate(json.loads(lines[hora])["deltas"])
        ]
    lines[hora] = json.dumps(ev)
    log = tmp_path / "log.mjson"
    log.write_text("\n".join(lines) + "\n")
    assert main(["import", str(log), "--format", "mjai", "--out", str(tmp_path / "o.json")]) == 0
    record = json.loads((tmp_path / "o.json").read_text())
    # The table's own score is what the record holds; the difference from the log is stated.
    assert not record["source"]["agrees_with_log"]
    assert any("score changes" in d for d in record["source"]["differences"])
    dahai = _first(lines, "dahai")
    first = json.loads(lines[dahai])
    legal_tsumo = lines[:dahai] + [
        json.dumps(
            {
                "type": "hora",
                "actor": first["actor"],
                "target": first["actor"],
                "deltas": [0, 0, 0, 0],
            }
        ),
        '{"type":"end_kyoku"}',
        '{"type":"end_game"}',
    ]
    log.write_text("\n".join(legal_tsumo) + "\n")
    assert main(["import", str(log), "--format", "mjai", "--out", str(tmp_path / "p.json")]) == 2
    err = capsys.readouterr().err
    assert "hand 0" in err and "starts on line 2" in err and "Traceback" not in err
    assert not (tmp_path / "p.json").exists()


# ------------------------------------------------------------------ independent readers


_ACTIONS = ("dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "reach", "hora")


def _libriichi_check(events: list[dict[str, Any]]) -> int:
    """Feed the stream to one libriichi PlayerState per seat and ask each acting seat's state
    whether its action was legal (``validate_reaction``) before applying it; returns how many
    actions were checked. libriichi offers a call or a ron when the discard (or added kan) comes,
    and any later event withdraws the offer; so an action is checked before the table's own
    events just ahead of it (``reach_accepted`` and ``dora``, which mjai-reviewer's convlog
    writes there too), and every win of a double ron before the first is applied."""
    state_mod = pytest.importorskip(
        "mjai.mlibriichi.state", reason="the mjai package is not installed"
    )
    states = [state_mod.PlayerState(i) for i in range(4)]
    checked = 0
    deferred: list[str] = []
    previous: dict[str, Any] = {}
    for n, ev in enumerate(events):
        line = json.dumps(ev)
        if ev["type"] in ("reach_accepted", "dora"):
            deferred.append(line)
            continue
        reactions: list[tuple[int, str]] = []
        if ev["type"] == "ryukyoku" and previous.get("type") == "tsumo":
            # Nine terminals: the drawing seat's declaration.
            reactions.append(
                (previous["actor"], json.dumps({"type": "ryukyoku", "actor": previous["actor"]}))
            )
        elif ev["type"] == "hora" and previous.get("type") == "hora":
            pass  # checked with the first win
        elif ev["type"] == "hora":
            k = n
            while k < len(events) and events[k]["type"] == "hora":
                reactions.append((events[k]["actor"], json.dumps(events[k])))
                k += 1
        elif ev["type"] in _ACTIONS:
            reactions.append((ev["actor"], line))
        for actor, reaction in reactions:
            states[actor].validate_reaction(reaction)
            checked += 1
        for text in deferred + [line]:
            for st in states:
                st.update(text)
        deferred = []
        previous = ev
    return checked


@pytest.mark.parametrize("profile,seed,bots", BOT_MATCHES)
def test_libriichi_accepts_every_action(profile: str, seed: int, bots: str) -> None:
    events = bot_events(profile, seed, bots)
    assert _libriichi_check(events) == sum(
        1
        for e in events
        if e["type"] in ("dahai", "chi", "pon", "daiminkan", "kakan", "ankan", "reach", "hora")
    )


@pytest.mark.parametrize("path", excerpts(), ids=lambda p: p.name)
def test_libriichi_accepts_the_tenhou_excerpts(path: Path) -> None:
    assert _libriichi_check(_events(imported(path))) > 0


def test_libriichi_refuses_an_illegal_action() -> None:
    """The check can fail: a discard swapped for a tile the seat does not hold, and a self-draw win
    on a hand that is not complete."""
    events = bot_events(*BOT_MATCHES[1])
    i = next(i for i, e in enumerate(events) if e["type"] == "dahai")
    bad = [dict(e) for e in events]
    start = events[1]
    held = set(start["tehais"][events[i]["actor"]]) | {events[i - 1]["pai"]}
    bad[i]["pai"] = next(t for t in sorted(TILES) if t not in held)
    bad[i]["tsumogiri"] = False
    with pytest.raises(BaseException):
        _libriichi_check(bad)
    win = events[:i] + [
        {
            "type": "hora",
            "actor": events[i]["actor"],
            "target": events[i]["actor"],
            "deltas": [0, 0, 0, 0],
        }
    ]
    with pytest.raises(BaseException):
        _libriichi_check(win)


def test_riichienv_reads_the_same_scores(tmp_path: Path) -> None:
    """RiichiEnv's MjaiReplay reads each exported hand: its end scores (start scores plus the
    hora or ryukyoku deltas, less the accepted riichi deposits) must be the record's, and each win
    RiichiEnv can score must have the record's han and fu. Two RiichiEnv 0.4 readings are set right
    first: its mjai replay keeps no wall count, so it marks every win as the last tile's (haitei,
    houtei), and it counts a kan indicator twice; the win's last-tile flag is taken from the
    record and the indicators from the stream."""
    riichienv = pytest.importorskip("riichienv", reason="riichienv is not installed")
    scored = 0
    for profile, seed, bots in BOT_MATCHES:
        record = bot_record(profile, seed, bots)
        played = bot_played(profile, seed, bots)
        path = tmp_path / f"{profile}.mjson"
        path.write_text(dumps(mjai_events(played)))
        kyokus = list(riichienv.MjaiReplay.from_jsonl(str(path)).take_kyokus())
        assert len(kyokus) == len(record["hands"])
        for kyoku, hand, raw in zip(kyokus, played.hands, record["hands"]):
            end = [p + s for p, s in zip(raw["points"], raw["scores"])]
            assert kyoku.grp_features()["end_scores"] == end
            wins = [s for s in hand.steps if isinstance(s, Won)]
            # RiichiEnv's tile ids: kind * 4 + copy, the red five copy 0.
            indicators = [t.kind * 4 + (0 if t.red else 1) for t in hand.indicators]
            for ctx, won in zip(kyoku.take_win_result_contexts(), wins):
                cond = ctx.conditions
                ids = {p.id for p in won.score.patterns}
                cond.haitei, cond.houtei = "haitei" in ids, "houtei" in ids
                result = ctx.create_calculator().calc(
                    ctx.agari_tile, indicators, ctx.ura_indicators, cond
                )
                assert result.is_win
                assert (result.han, result.fu) == (won.score.total, won.score.fu)
                scored += 1
    assert scored >= 10
