"""``mjspec export --format tenhou6``: riichi records as tenhou.net/6 JSON, read back by the
project's own tenhou.net/6 importer; refusals and the command line (docs/mjai.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mjspec.app.cli import main
from mjspec.app.mjai import mjai_events
from mjspec.app.played import ExportError, PlayedMatch, played_match
from mjspec.app.registry import load_profile
from mjspec.app.tenhou import parse_tenhou6
from mjspec.app.tenhou_export import tenhou6_document
from mjspec.app.tenhou_replay import game_record
from mjspec.app.records import replay

from .exportkit import (
    BOT_MATCHES,
    EXCERPTS,
    excerpts,
    MJLOGS,
    bot_played,
    bot_record,
    comparable,
    imported,
)


def _round_trip(record: dict[str, Any], played: PlayedMatch | None = None) -> dict[str, Any]:
    document = tenhou6_document(played or played_match(record))
    game = parse_tenhou6(json.dumps(document, ensure_ascii=False), "export.json")
    back = game_record(game, load_profile(record["profile"]))
    # The importer compared every hand with the export: decisions legal, and the same winners,
    # yaku, han, fu and score changes.
    assert back["source"]["agrees_with_log"], back["source"]["differences"]
    return back


@pytest.mark.parametrize("path", excerpts(), ids=lambda p: p.name)
def test_tenhou6_excerpts_round_trip_to_the_same_record(path: Path) -> None:
    record = imported(path)
    assert comparable(_round_trip(record)) == comparable(record)


def _upstream_hands(path: Path) -> list[Any]:
    text = path.read_text(encoding="utf-8")
    docs = [json.loads(text)]
    return [hand for doc in docs for hand in doc["log"]]


@pytest.mark.parametrize(
    "name",
    [
        "suukantsu_0.json",
        "suukantsu_1.json",
        "double_ron.json",
        "four_reach.json",
        "kyushukyuhai.json",
        "ryukyoku.json",
    ],
)
def test_tenhou6_export_is_the_upstream_log(name: str) -> None:
    """For these upstream logs the export writes every entry as Tenhou did (the deal, every take
    and discard, the calls, the indicators, the result with its value and yaku); others differ in
    Tenhou's tile order inside a call, its yaku order, or a hand-picked discard equal to the tile
    just drawn (which a record does not tell from a tsumogiri: app/played.py)."""
    path = EXCERPTS[0].parent / name
    document = tenhou6_document(played_match(imported(path)))
    assert document["log"] == _upstream_hands(path)


@pytest.mark.slow
def test_tenhou6_mjlog_game_round_trips() -> None:
    """A whole mjlog game (real dice and tile ids): the same record but for the dice (tenhou.net/6
    has none) and so the wall written before the dice open it; the decisions, every event and the
    match's outcome are the same."""
    record = imported(MJLOGS[0])
    assert comparable(_round_trip(record), chance=True) == comparable(record, chance=True)


@pytest.mark.slow
@pytest.mark.parametrize("path", MJLOGS, ids=lambda p: p.name)
def test_tenhou6_every_mjlog_game_round_trips(path: Path) -> None:
    record = imported(path)
    assert comparable(_round_trip(record), chance=True) == comparable(record, chance=True)


@pytest.mark.parametrize("profile,seed,bots", BOT_MATCHES)
def test_tenhou6_bot_matches_round_trip(profile: str, seed: int, bots: str) -> None:
    record = bot_record(profile, seed, bots)
    back = _round_trip(record, bot_played(profile, seed, bots))
    replay(back)
    assert comparable(back, chance=True) == comparable(record, chance=True)
    assert back["totals"] == record["totals"] and back["result"] == record["result"]


def test_tenhou6_document_shape() -> None:
    record = bot_record(*BOT_MATCHES[0])
    document = tenhou6_document(bot_played(*BOT_MATCHES[0]))
    assert document["rule"] == {"disp": "般南喰赤", "aka": 1}
    assert len(document["log"]) == len(record["hands"])
    for hand, raw in zip(document["log"], record["hands"]):
        assert len(hand) == 17
        assert hand[1] == raw["points"]
        assert all(len(hand[4 + 3 * s]) == 13 for s in range(4))
    east = tenhou6_document(bot_played(*BOT_MATCHES[1]))
    assert east["rule"]["disp"] == "般東喰赤"


@pytest.fixture(scope="module")
def other_records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("other")
    out = {}
    for profile in ("sichuan_tfmj", "gb_mcr", "classical_xmj"):
        path = tmp / f"{profile}.json"
        assert (
            main(["play", profile, "--seed", "1", "--hands", "1", "--quiet", "--record", str(path)])
            == 0
        )
        out[profile] = path
    return out


@pytest.mark.parametrize("fmt", ["mjai", "tenhou6"])
@pytest.mark.parametrize("profile", ["sichuan_tfmj", "gb_mcr", "classical_xmj"])
def test_non_riichi_records_are_refused(
    other_records: dict[str, Path],
    profile: str,
    fmt: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "out"
    assert main(["export", str(other_records[profile]), "--format", fmt, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{profile}" in err and "riichi only" in err and "Traceback" not in err
    assert not out.exists()
    with pytest.raises(ExportError, match="riichi only"):
        played_match(json.loads(other_records[profile].read_text()))


def test_a_tampered_record_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = bot_record(*BOT_MATCHES[1])
    record["hands"][0]["decisions"][0]["tile"] = (
        "1m" if record["hands"][0]["decisions"][0]["tile"] != "1m" else "2m"
    )
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    out = tmp_path / "out.json"
    assert main(["export", str(path), "--format", "tenhou6", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "does not replay" in err and "hand 0, decision 0" in err
    assert not out.exists()


def test_export_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = bot_record(*BOT_MATCHES[1])
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    out = tmp_path / "g.json"
    assert main(["export", str(path), "--format", "tenhou6", "--out", str(out)]) == 0
    assert "written to" in capsys.readouterr().out
    assert json.loads(out.read_text(encoding="utf-8"))["log"]
    # Without --out the export goes to standard output.
    assert main(["export", str(path), "--format", "tenhou6"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(out.read_text(encoding="utf-8"))
    # And imports back under the default profile of its game type.
    back = tmp_path / "back.json"
    assert main(["import", str(out), "--out", str(back)]) == 0
    assert main(["replay", str(back)]) == 0
    assert main(["export", str(tmp_path / "missing.json"), "--format", "mjai"]) == 2
    assert "cannot read" in capsys.readouterr().err
    (tmp_path / "junk.json").write_text("{not json")
    assert main(["export", str(tmp_path / "junk.json"), "--format", "mjai"]) == 2


def test_help_lists_export_and_import(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    text = capsys.readouterr().out
    assert "export" in text and "import" in text
    with pytest.raises(SystemExit) as e:
        main(["export", "--help"])
    assert e.value.code == 0
    assert "tenhou6" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        main(["export", "r.json", "--format", "xml"])
    assert e.value.code == 2


def _without_timing(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events but the ``dora`` ones and a ``reach_accepted`` right before a ``ryukyoku``
    (where the two converters differ, see below); of a ``hora``, ``pai`` (which convlog does not
    write) and ``ura_markers`` (compared on their own) are dropped."""
    out: list[dict[str, Any]] = []
    for i, ev in enumerate(events):
        if ev["type"] == "dora":
            continue
        if ev["type"] == "reach_accepted" and events[i + 1]["type"] == "ryukyoku":
            continue
        hora = ev["type"] == "hora"
        out.append({k: v for k, v in ev.items() if k not in ("pai", "ura_markers")} if hora else ev)
    return out


def _doras(events: list[dict[str, Any]]) -> list[list[str]]:
    hands: list[list[str]] = []
    for ev in events:
        if ev["type"] == "start_kyoku":
            hands.append([])
        elif ev["type"] == "dora":
            hands[-1].append(ev["dora_marker"])
    return hands


_CONVLOG_CASES = [pytest.param(m, id=f"{m[0]}-{m[1]}") for m in BOT_MATCHES] + [
    pytest.param(p, id=p.name)
    for p in EXCERPTS
    if p.name
    in (
        "suukantsu_0.json",
        "double_ron.json",
        "double_kakan_then_chankan.json",
        "four_reach.json",
        "kyushukyuhai.json",
    )
]


@pytest.mark.parametrize("case", _CONVLOG_CASES)
def test_mjai_reviewers_converter_reads_the_tenhou6_export_as_our_mjai(case: Any) -> None:
    """mjai-reviewer's own tenhou.net/6-to-mjai converter (convlog, as the ``convlog-rs`` package)
    reads the tenhou.net/6 export into the same mjai events as ``--format mjai`` writes: every
    deal, draw, discard with its tsumogiri flag, call, riichi and result; the same indicators in
    the same order, hand by hand. Two places differ and are left out of the comparison: convlog
    writes a later kan's indicator before the replacement discard (or the next kan) where the
    table turned it after (001: an open or added kan's indicator with its replacement discard),
    it writes no ``reach_accepted`` when the hand ends in an exhaustive draw right after the
    declaring discard, whose deposit the table (as Tenhou) takes all the same, and it gives a
    win's under-indicators to a winner without riichi too."""
    convlog = pytest.importorskip(
        "convlog_rs", reason="convlog-rs (mjai-reviewer's converter) is not installed"
    )
    played = bot_played(*case) if isinstance(case, tuple) else played_match(imported(case))
    text = json.dumps(tenhou6_document(played), ensure_ascii=False)
    theirs = [json.loads(line) for line in convlog.tenhou_to_mjai(text)]
    ours = mjai_events(played)
    assert theirs[0]["type"] == "start_game"
    assert _without_timing(theirs)[1:] == _without_timing(ours)[1:]
    assert _doras(theirs) == _doras(ours)
    # The under-indicators: convlog gives the hand's to every win, the export to a riichi win only.
    wins = list(
        zip([e for e in theirs if e["type"] == "hora"], [e for e in ours if e["type"] == "hora"])
    )
    assert all(b["ura_markers"] in (a["ura_markers"], []) for a, b in wins)
    assert any(b["ura_markers"] for _, b in wins) or not any(a["ura_markers"] for a, _ in wins)
