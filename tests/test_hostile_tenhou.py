"""Hostile Tenhou logs (issue 14, items 10 and 13): every refusal names the file (and the hand and
tag where it has them), deep nesting and huge numbers are refused quickly, and mutated logs import
or are refused with a message, never a traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from mjspec.app.cli import main
from mjspec.app.registry import load_profile
from mjspec.app.tenhou import TenhouFormatError, load_log, parse_mjlog, parse_tenhou6
from mjspec.app.tenhou_replay import WallError, game_record

from conftest import DATA

MJLOG = (DATA / "tenhou" / "tenhou-mjx" / "mjlog" / "double-ron.mjlog").read_text("utf-8")
TENHOU6 = (DATA / "tenhou" / "tenhou6json-mjai-reviewer" / "double_ron.json").read_text("utf-8")
PROFILE = load_profile("riichi_tenhou")


def refusal(text: str, parse: object, source: str = "f.log") -> str:
    with pytest.raises((TenhouFormatError, WallError, ValueError)) as e:
        game_record(parse(text, source), PROFILE)  # type: ignore[operator]
    return str(e.value)


def _replace_attr(text: str, attr: str, value: str) -> str:
    """``attr`` of the first <INIT> tag set to ``value``."""
    m = re.search(rf'<INIT [^>]*?\b{attr}="([^"]*)"', text)
    assert m is not None
    a, b = m.span(1)
    return text[:a] + value + text[b:]


@pytest.mark.parametrize(
    "attr, value, message",
    [
        ("hai1", "28,109,97,46,98,130,12,168,18,111,78,74,122", "hai1: tile id 168 is not 0-135"),
        ("hai0", "25,35,104,40,27,88,81,77,-1,117,101,103,121", "hai0: tile id -1 is not 0-135"),
        ("seed", "0,0,0,2,3,999", "the dora indicator's tile id 999 is not 0-135"),
        ("hai2", ",".join(["1" * 5000] * 13), "has a number of more than 12 digits"),
    ],
)
def test_bad_tile_ids_name_the_file_hand_and_tag(attr: str, value: str, message: str) -> None:
    text = _replace_attr(MJLOG, attr, value)
    got = refusal(text, parse_mjlog)
    assert got.startswith("f.log, hand 0, <INIT ") and message in got, got
    assert len(got) < 1000


def test_a_meld_that_decodes_outside_the_tiles_names_its_tag() -> None:
    text = MJLOG.replace("<N ", '<N who="1" m="1048560" /><N ', 1)  # an added kan of ids 168-171
    got = refusal(text, parse_mjlog)
    assert (
        got == 'f.log, hand 0, <N who="1" m="1048560">: m=1048560 decodes to tile ids outside 0-135'
    ), got


def test_tenhou6_nested_100000_deep_is_refused_quickly() -> None:
    text = '{"log": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(
        TenhouFormatError, match=r"^f.json: nested 100001 levels deep, more than the 16"
    ):
        parse_tenhou6(text, "f.json")


def test_tenhou6_huge_integer_is_refused_with_the_file() -> None:
    text = TENHOU6.replace("[", "[" + "9" * 5000 + ",", 1)
    with pytest.raises(TenhouFormatError, match=r"^f.json: .*an integer of 5000 digits"):
        parse_tenhou6(text, "f.json")


def test_a_call_letter_after_its_last_tile_is_refused() -> None:
    """The letter of a tenhou.net/6 call marks the tile code after it: "1212p12" is a pon of the
    middle 12, and a letter with no code after it ("121212p", found by the long fuzz run, which
    crashed on it) names no called tile."""
    assert '"1212p12"' in TENHOU6
    message = refusal(TENHOU6.replace('"1212p12"', '"121212p"', 1), parse_tenhou6, "f.json")
    assert message.startswith("f.json") and "must stand before a tile code" in message


def test_cli_refuses_a_bad_log_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "bad.mjlog"
    log.write_text(
        _replace_attr(MJLOG, "hai1", "28,109,97,46,98,130,12,168,18,111,78,74,122"), "utf-8"
    )
    assert main(["import-tenhou", str(log), "--out", str(tmp_path / "out.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mjspec: {log}, hand 0, <INIT ") and "Traceback" not in err
    assert not (tmp_path / "out.json").exists()
    raw = tmp_path / "raw.json"
    raw.write_bytes(b'{"log": [\xff]}')
    with pytest.raises(TenhouFormatError, match=r"raw.json: not UTF-8 text \(byte 9\)"):
        load_log(raw)


# ---- fuzz -----------------------------------------------------------------------------------

NUMBER = re.compile(r"-?\d+")
HOSTILE_NUMBERS = st.sampled_from(
    ["136", "168", "999", "-1", "0", "4", "135", "1000000", "9" * 40, "3.5", ""]
)


def _mutate(draw: object, text: str) -> str:
    spans = [m.span() for m in NUMBER.finditer(text)]
    for _ in range(draw(st.integers(1, 3))):  # type: ignore[operator]
        a, b = draw(st.sampled_from(spans))  # type: ignore[operator]
        text = text[:a] + draw(HOSTILE_NUMBERS) + text[b:]  # type: ignore[operator]
        spans = [m.span() for m in NUMBER.finditer(text)]
    if draw(st.integers(0, 9)) == 0:  # type: ignore[operator]
        text = text[: draw(st.integers(0, len(text)))]  # type: ignore[operator]
    return text


def _imports_or_refuses(text: str, parse: object, source: str) -> None:
    try:
        game_record(parse(text, source), PROFILE)  # type: ignore[operator]
    except (TenhouFormatError, WallError, ValueError) as e:
        assert str(e).startswith(source), str(e)
        event("refused")
        return
    event("imported")


def _fuzz(examples: int) -> object:
    return settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))


@given(data=st.data())
@_fuzz(60)  # type: ignore[misc]
def test_mutated_mjlog_imports_or_is_refused(data: st.DataObject) -> None:
    _imports_or_refuses(_mutate(data.draw, MJLOG), parse_mjlog, "f.mjlog")


@given(data=st.data())
@_fuzz(60)  # type: ignore[misc]
def test_mutated_tenhou6_imports_or_is_refused(data: st.DataObject) -> None:
    _imports_or_refuses(_mutate(data.draw, TENHOU6), parse_tenhou6, "f.json")


@pytest.mark.slow
@given(data=st.data(), which=st.booleans())
@_fuzz(2000)  # type: ignore[misc]
def test_mutated_logs_import_or_are_refused_long(data: st.DataObject, which: bool) -> None:
    if which:
        _imports_or_refuses(_mutate(data.draw, MJLOG), parse_mjlog, "f.mjlog")
    else:
        _imports_or_refuses(_mutate(data.draw, TENHOU6), parse_tenhou6, "f.json")
