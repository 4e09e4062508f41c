"""Game options: declared in a spec with type, default and description; values checked; bound into
rule fields."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from mjspec.compiler.build import compile_library
from mjspec.app.cli import main, score_request
from mjspec.runtime.options import (
    OptionError,
    OptionSpec,
    OptionType,
    ScoreValue,
    bind_options,
    parse_assignments,
    parse_value,
    resolve_options,
)
from mjspec.app.registry import load_profile
from mjspec.runtime.text import Text

from test_compiler import BASE, child, make_layout

T = Text(en="x", zh="x", ja="x", pt="x", fr="x")
DECLARED = (
    OptionSpec("MultiRon", OptionType.BOOL, True, T, ("table.calls.multiple_ron",)),
    OptionSpec("Rounds", OptionType.COUNT, 4, T),
    OptionSpec("Bonus", OptionType.SCORE, ScoreValue(doubles=1), T),
)


def test_values_are_checked_by_type() -> None:
    b, c, s = DECLARED
    assert parse_value(b, "false") is False and parse_value(b, True) is True
    assert parse_value(c, "7") == 7 and parse_value(c, 3) == 3
    assert parse_value(s, "points:10") == ScoreValue(points=10)
    assert parse_value(s, {"doubles": 2}) == ScoreValue(doubles=2)
    assert parse_value(s, "limit") == ScoreValue(limit=True)
    for spec, bad in (
        (b, "maybe"),
        (b, 1),
        (c, "-1"),
        (c, "x"),
        (c, True),
        (s, "3"),
        (s, {"points": -1}),
        (s, {"fan": 1}),
    ):
        with pytest.raises(OptionError, match=spec.name):
            parse_value(spec, bad)


def test_unknown_names_are_refused_with_a_hint() -> None:
    with pytest.raises(OptionError, match="did you mean 'Rounds'"):
        resolve_options(DECLARED, {"Round": 3})
    with pytest.raises(OptionError, match="no options"):
        resolve_options((), {"Anything": 1})
    with pytest.raises(OptionError, match="NAME=VALUE"):
        parse_assignments(["Rounds"])


def test_defaults_fill_what_is_not_given() -> None:
    got = resolve_options(DECLARED, {"Rounds": "2"})
    assert got.as_dict() == {"MultiRon": True, "Rounds": 2, "Bonus": ScoreValue(doubles=1)}
    assert got.changed(DECLARED) == {"Rounds": 2}
    assert got.to_json()["Bonus"] == {"doubles": 1}


def test_binding_sets_the_rule_fields_the_option_names() -> None:
    base = replace(load_profile("sichuan_tfmj"), options=DECLARED)
    assert base.table.calls.multiple_ron is True
    bound = bind_options(base, {"MultiRon": "false"})
    assert bound.table.calls.multiple_ron is False
    assert bound.option_values.as_dict()["MultiRon"] is False
    assert bind_options(base, {}) is base  # the defaults change nothing


OPTIONS_SPEC = """
options:
  Unit:
    type: points
    default: 2
    description: {en: unit, zh: 单位, ja: 単位, pt: unidade, fr: unité}
  MultiRon:
    type: bool
    default: false
    sets: [table.calls.multiple_ron]
    description:
      {en: several wins, zh: 一炮多响, ja: ダブロン, pt: várias vitórias, fr: plusieurs victoires}
payments:
  values:
    unit: "option_value('Unit') ** min(fan, 3)"
"""


def test_a_spec_declares_options_and_expressions_read_them(tmp_path: Path) -> None:
    out = compile_library(
        make_layout(tmp_path, {"sichuan_tfmj": BASE, "house": child(OPTIONS_SPEC)})
    )
    assert not out.errors, [str(e) for e in out.errors]
    ir = next(p for p in out.profiles if p.id == "house")
    assert [o.name for o in ir.options] == ["Unit", "MultiRon"]
    assert (
        ir.table.calls.multiple_ron is False
    )  # the option's default is written into the field it sets
    engine = out.files[tmp_path / "generated" / "house.py"]
    assert 'name="Unit"' in engine and 'v.option_value("Unit")' in engine


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "options:\n  X:\n    type: bool\n    default: 3\n    description: {en: a, zh: a, "
            "ja: a, pt: a, fr: a}\n",
            "expected true or false",
        ),
        (
            "options:\n  X:\n    type: bool\n    default: true\n    sets: "
            "[table.calls.nothing]\n    description: {en: a, zh: a, ja: a, pt: a, fr: a}\n",
            "no such table-rule field",
        ),
        (
            "options:\n  X:\n    type: count\n    default: 1\n    sets: [table.calls.chi]\n    "
            "description: {en: a, zh: a, ja: a, pt: a, fr: a}\n",
            "cannot set",
        ),
        ("payments:\n  values:\n    unit: \"option_value('Nope')\"\n", "option_value"),
    ],
)
def test_bad_option_declarations_are_located(tmp_path: Path, body: str, message: str) -> None:
    out = compile_library(make_layout(tmp_path, {"sichuan_tfmj": BASE, "house": child(body)}))
    assert any(message in str(e) for e in out.errors), [str(e) for e in out.errors]


def test_cli_refuses_unknown_options_and_wrong_types(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "sichuan_tfmj", "--option", "Nope=1", "--hands", "1", "--quiet"]) == 2
    assert "unknown option 'Nope'" in capsys.readouterr().err
    answer = score_request(
        {
            "profile": "sichuan_tfmj",
            "concealed": "1112223334445m",
            "win_tile": "5m",
            "win": "ron",
            "context": {"options": {"X": 1}},
        }
    )
    assert "unknown option 'X'" in answer["error"]
    json.dumps(answer)


def test_option_functions_exist_on_both_views() -> None:
    from mjspec.compiler.vocabulary import OPTION_FUNCTIONS
    from mjspec.runtime.view import HandView, PaymentView

    values = {"B": True, "C": 3, "S": ScoreValue(doubles=2)}
    pv = PaymentView(1, 1, False, False, options=values)
    assert (
        pv.option_on("B"),
        pv.option_value("C"),
        pv.option_doubles("S"),
        pv.option_points("S"),
        pv.option_limit("S"),
    ) == (True, 3, 2, 0, False)
    for name in OPTION_FUNCTIONS:
        assert callable(getattr(HandView, name, None)) and callable(
            getattr(PaymentView, name, None)
        ), name


def test_a_value_outside_the_declared_range_is_refused_naming_option_and_bound() -> None:
    rounds = OptionSpec("Rounds", OptionType.COUNT, 4, T, minimum=1, maximum=4, section="M 11-14")
    assert parse_value(rounds, "1") == 1 and parse_value(rounds, 4) == 4
    with pytest.raises(
        OptionError, match=r"option Rounds \(count\): 0 is below the least value 1 \(M 11-14\)"
    ):
        parse_value(rounds, "0")
    with pytest.raises(
        OptionError, match=r"option Rounds \(count\): 5 is above the greatest value 4"
    ):
        parse_value(rounds, 5)
    unbounded = OptionSpec("Secs", OptionType.SECONDS, 15, T)
    assert parse_value(unbounded, 0) == 0  # no declared minimum: 0 is allowed (0 seconds: no limit)
    with pytest.raises(OptionError, match="above the greatest value 1000000"):
        parse_value(unbounded, 1_000_001)


def test_classical_num_rounds_and_score_limit_ranges_everywhere(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """NumRounds=0 (no game at all) and ScoreLimit=0 are refused by play, score, simulate and a
    request's context."""
    for argv in (
        ["play", "classical_xmj", "--option", "NumRounds=0", "--quiet"],
        ["simulate", "classical_xmj", "--games", "1", "--no-progress", "--option", "NumRounds=0"],
        ["score", "classical_xmj", "234m456p789s78s55m", "--win", "9s", "--option", "NumRounds=0"],
        ["play", "classical_xmj", "--option", "NumRounds=5", "--quiet"],
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert "NumRounds" in err and ("least value 1" in err or "greatest value 4" in err), err
    answer = score_request(
        {
            "profile": "classical_xmj",
            "concealed": "234m456p789s78s55m",
            "win_tile": "9s",
            "win": "ron",
            "context": {"options": {"ScoreLimit": 0}},
        }
    )
    assert "ScoreLimit" in answer["error"] and "least value 1" in answer["error"]
    assert (
        main(
            [
                "play",
                "classical_xmj",
                "--option",
                "Timeout=0",
                "--option",
                "NumRounds=1",
                "--hands",
                "1",
                "--quiet",
            ]
        )
        == 0
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "options:\n  X:\n    type: count\n    default: 0\n    minimum: 1\n    description: "
            "{en: a, zh: a, ja: a, pt: a, fr: a}\n",
            "below the least value 1",
        ),
        (
            "options:\n  X:\n    type: count\n    default: 2\n    minimum: 3\n    maximum: 2\n "
            "   description: {en: a, zh: a, ja: a, pt: a, fr: a}\n",
            "maximum 2 is below minimum 3",
        ),
        (
            "options:\n  X:\n    type: bool\n    default: true\n    minimum: 1\n    "
            "description: {en: a, zh: a, ja: a, pt: a, fr: a}\n",
            "no minimum or maximum",
        ),
    ],
)
def test_bad_option_ranges_are_located(tmp_path: Path, body: str, message: str) -> None:
    out = compile_library(make_layout(tmp_path, {"sichuan_tfmj": BASE, "house": child(body)}))
    assert any(message in str(e) for e in out.errors), [str(e) for e in out.errors]
