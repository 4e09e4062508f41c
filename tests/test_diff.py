"""``mjspec diff`` (every rule on which two profiles differ) and ``mjspec new`` (a house rule that
builds as it is)."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import jsonschema
import pytest
import yaml

from mjspec.compiler.build import Layout, compile_library
from mjspec.compiler.check import check, profile_schema
from mjspec.compiler.profile_diff import MISSING, diff_profiles, format_table, with_defaults
from mjspec.compiler.resolve import SpecLibrary

from conftest import ROOT

BASE = (ROOT / "specs" / "sichuan_tfmj.yaml").read_text("utf-8")
NAMES = "names: {en: House, zh: 家规, ja: ハウス, pt: Casa, fr: Maison}\n"


def project(tmp_path: Path, specs: dict[str, str]) -> Path:
    (tmp_path / "specs").mkdir(parents=True)
    (tmp_path / "generated").mkdir()
    for name, text in specs.items():
        (tmp_path / "specs" / f"{name}.yaml").write_text(text, "utf-8")
    return tmp_path


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mjspec.app.cli", *args], capture_output=True, text=True, cwd=cwd
    )


HOUSE = (
    "id: house\nextends: sichuan_tfmj\n" + NAMES + "source: {book: '999', title: House rules}\n"
    "tiles: {honors: false, copies: 4}\n"  # restating inherited values is no difference
    "scoring:\n"
    "  cap: 4\n"
    "  patterns:\n"
    "    kong_shot: null\n"
    "    full_flush: {value: 3, section: '§99'}\n"  # a section mark alone is no rule
    "    dragon_pairs: {value: 1, when: \"shape == 'seven_pairs'\", names: {en: Dragon Pairs, "
    "zh: 龙七对, ja: 竜七対, pt: Pares do Dragão, fr: Paires du dragon}}\n"
    "calls: {multiple_ron: false}\n"
    "match: {hands: 4}\n"
    "examples: []\n"
)


def test_diff_lists_every_changed_rule(tmp_path: Path) -> None:
    root = project(tmp_path, {"sichuan_tfmj": BASE, "house": HOUSE})
    diff = diff_profiles(SpecLibrary(root / "specs", root), "sichuan_tfmj", "house")
    got = {d.path: (d.a, d.b) for d in diff.differences}
    assert set(got) == {
        "scoring.cap",
        "scoring.patterns.kong_shot",
        "scoring.patterns.full_flush.value",
        "scoring.patterns.dragon_pairs",
        "calls.multiple_ron",
        "match.hands",
    }, sorted(got)
    assert got["scoring.cap"] == (3, 4)
    assert got["scoring.patterns.full_flush.value"] == (2, 3)
    assert got["scoring.patterns.kong_shot"][1] is MISSING
    assert (
        got["scoring.patterns.dragon_pairs"][0] is MISSING
        and got["scoring.patterns.dragon_pairs"][1]["value"] == 1
    )
    labels = {d.path: d.label for d in diff.differences}
    assert labels["scoring.patterns.kong_shot"] == "kong_shot (Shoot After Kong (Gang Shang Pao))"
    assert labels["scoring.patterns.dragon_pairs"] == "dragon_pairs (Dragon Pairs)"
    areas = [d.area for d in diff.differences]
    assert (
        areas.index("calls")
        < areas.index("scoring")
        < areas.index("patterns")
        < areas.index("match")
    )


def test_diff_cli_table_and_json(tmp_path: Path) -> None:
    root = project(tmp_path, {"sichuan_tfmj": BASE, "house": HOUSE})
    res = run("diff", "sichuan_tfmj", "house", "--root", str(root))
    assert res.returncode == 0, res.stderr
    assert (
        "[patterns]" in res.stdout
        and "Dragon Pairs" in res.stdout
        and "6 difference(s)." in res.stdout
    )
    res = run("diff", "sichuan_tfmj", "house", "--root", str(root), "--json")
    answer = json.loads(res.stdout)
    assert answer["a"]["id"] == "sichuan_tfmj" and answer["b"]["extends"] == "sichuan_tfmj"
    cap = next(d for d in answer["differences"] if d["path"] == "scoring.cap")
    assert cap == {
        "area": "scoring",
        "path": "scoring.cap",
        "label": "scoring.cap",
        "a": 3,
        "b": 4,
        "in_a": True,
        "in_b": True,
    }


def test_identical_profiles_differ_in_nothing(tmp_path: Path) -> None:
    root = project(
        tmp_path, {"sichuan_tfmj": BASE, "same": "id: same\nextends: sichuan_tfmj\n" + NAMES}
    )
    diff = diff_profiles(SpecLibrary(root / "specs", root), "sichuan_tfmj", "same")
    assert diff.differences == ()
    assert "No rule differs." in format_table(diff)


def test_diff_of_unknown_profile_is_a_one_line_error() -> None:
    res = run("diff", "sichuan_tfmj", "sichuan_tmfj")
    assert (
        res.returncode == 2
        and "did you mean 'sichuan_tfmj'" in res.stderr
        and "Traceback" not in res.stderr
    )


def test_schema_defaults_are_filled_in() -> None:
    """Only ``default`` keywords count: a "(default ...)" in a description is prose."""
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "integer", "description": "a count (default 3)"},
            "b": {"type": "string", "default": "q"},
            "c": {"type": "integer", "description": "the most (absent: no cap)"},
            "d": {"enum": ["none", "declare"], "description": "(default none)", "default": "none"},
            "n": {"anyOf": [{"type": "null"}, {"type": "object"}], "default": None},
            "sub": {"$ref": "#/$defs/sub"},
        },
        "$defs": {
            "sub": {"type": "object", "properties": {"f": {"type": "boolean", "default": False}}}
        },
    }
    assert with_defaults({"sub": {}}, schema, schema) == {
        "b": "q",
        "d": "none",
        "n": None,
        "sub": {"f": False},
    }
    assert with_defaults({"b": "x", "sub": {"f": True}}, schema, schema)["b"] == "x"


def _properties(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every property schema of the profile schema, with a readable path."""
    if isinstance(node, dict):
        for key, sub in node.get("properties", {}).items():
            if isinstance(sub, dict):
                yield f"{path}.{key}".lstrip("."), sub
        for key, sub in node.items():
            if key == "properties" and isinstance(sub, dict):
                for name, prop in sub.items():
                    yield from _properties(prop, f"{path}.{name}".lstrip("."))
            elif key != "properties":
                yield from _properties(sub, path)
    elif isinstance(node, list):
        for sub in node:
            yield from _properties(sub, path)


def _stated_default(description: str) -> Any:
    """X of "... (default X)", "(default X; note)", "(default X: meaning)"; X may be a [list]."""
    rest = description.split("(default ", 1)[1]
    text = (
        rest[: rest.index("]") + 1]
        if rest.startswith("[")
        else re.split(r"[:;)]", rest, maxsplit=1)[0]
    )
    return yaml.safe_load(text)


def test_every_stated_default_is_a_default_keyword_and_back() -> None:
    schema = profile_schema()
    props = list(_properties(schema))
    assert len(props) > 60
    with_keyword = 0
    for path, prop in props:
        description = str(prop.get("description", ""))
        stated = "(default" in description
        assert stated == (
            "default" in prop
        ), f"{path}: description and `default` keyword disagree: {description!r}"
        if stated:
            with_keyword += 1
            assert (
                "(default " in description
            ), f"{path}: write '(default X)' as the other properties do"
            assert _stated_default(description) == prop["default"], (
                path,
                description,
                prop["default"],
            )
            jsonschema.validate(prop["default"], {**prop, "$defs": schema["$defs"]})
    assert with_keyword >= 45


def test_schema_defaults_are_what_the_compiler_assumes(tmp_path: Path) -> None:
    """A spec that leaves every table key out builds the rules the schema's defaults state."""
    minimal = (
        "id: bare\n" + NAMES + "source: {book: '999', title: Bare}\n"
        "scoring: {patterns: {ping_hu: {value: 0, when: 'True', names: {en: a, zh: a, ja: a, "
        "pt: a, fr: a}}}}\n"
        "payments: {ron: {discarder: 1}, tsumo: {each: 1}}\n"
    )
    root = project(tmp_path, {"bare": minimal})
    ir = check(
        SpecLibrary(root / "specs", root).resolve_file(root / "specs" / "bare.yaml"),
        expected_id="bare",
    )
    schema = profile_schema()
    blocks = (
        "tiles",
        "deal",
        "opening",
        "shapes",
        "win",
        "wall",
        "turn",
        "calls",
        "passing",
        "flow",
        "kongs",
        "furiten",
        "abortive",
        "exhaustion",
        "match",
        "timeout",
    )
    filled = with_defaults({b: {} for b in blocks}, schema, schema)  # each block written out empty
    table = ir.table
    built = {
        "version": ir.version,
        "players": ir.players,
        "playable": ir.playable,
        "tiles": {
            "suits": list(ir.tiles.suits),
            "honors": ir.tiles.honors,
            "flowers": ir.tiles.flowers,
            "red_fives": list(ir.tiles.red_fives),
            "copies": ir.tiles.copies,
        },
        "deal": {"dealer": ir.deal_dealer, "others": ir.deal_others},
        "opening": {"missing_suit": ir.missing_suit, "exchange": table.exchange},
        "shapes": {
            "standard": ir.shapes.standard,
            "seven_pairs": ir.shapes.seven_pairs,
            "thirteen_orphans": ir.shapes.thirteen_orphans,
            "knitted": ir.shapes.knitted,
        },
        "win": {"requirements": list(ir.requirements)},
        "wall": {"dice_rolls": table.dice},
        "turn": {"discard_missing_suit_first": table.discard_missing_suit_first},
        # A list in the spec is a tuple in the frozen rules (calls.rob_concealed_kong).
        "calls": {
            f.name: _as_list(getattr(table.calls, f.name)) for f in dataclasses.fields(table.calls)
        },
        "passing": {
            f.name: getattr(table.passing, f.name) for f in dataclasses.fields(table.passing)
        },
        "flow": {"mode": table.flow},
        "kongs": {f.name: getattr(table.kongs, f.name) for f in dataclasses.fields(table.kongs)},
        "furiten": {
            f.name: getattr(table.furiten, f.name) for f in dataclasses.fields(table.furiten)
        },
        "abortive": {
            f.name: getattr(table.abortive, f.name) for f in dataclasses.fields(table.abortive)
        },
        "exhaustion": {
            f.name: getattr(table.exhaustion, f.name) for f in dataclasses.fields(table.exhaustion)
        },
        "match": {f.name: getattr(table.match, f.name) for f in dataclasses.fields(table.match)},
        "timeout": {"claim_win": table.timeout.claim_win},
    }
    assert table.exhaustion.ready_value_cap is None and ir.cap is None  # "(absent: no cap)"
    assert table.dead_wall is None and table.riichi is None and table.pao is None  # "(absent: ...)"
    scoring = with_defaults({"patterns": {}}, schema["properties"]["scoring"], schema)
    assert (scoring["total"], scoring["prefer"]) == (ir.total_unit, list(ir.prefer))
    for block, values in built.items():
        if not isinstance(values, dict):
            assert filled[block] == values, block
            continue
        for key, value in values.items():
            if value is None:  # an optional rule: absent means off, and the schema says so
                described = schema["properties"][block]["properties"][key]["description"]
                assert ("absent" in described or "null" in described) and filled.get(block, {}).get(
                    key
                ) is None, f"{block}.{key}"
                continue
            assert key in filled.get(block, {}), f"{block}.{key} has no schema default"
            assert filled[block][key] == value, (f"{block}.{key}", filled[block][key], value)
    # The defaults inside an optional object: what the compiler builds when it is given bare.
    (root / "specs" / "bare.yaml").write_text(
        minimal + "opening: {missing_suit: declare, exchange: {}}\n", "utf-8"
    )
    exchange = check(
        SpecLibrary(root / "specs", root).resolve_file(root / "specs" / "bare.yaml"),
        expected_id="bare",
    ).table.exchange
    assert exchange is not None
    ex_schema = schema["properties"]["opening"]["properties"]["exchange"]["anyOf"][1]["properties"]
    assert (
        ex_schema["tiles"]["default"] == exchange.tiles
        and ex_schema["same_suit"]["default"] == exchange.same_suit
    )
    assert ex_schema["directions"]["default"] == [str(d) for d in exchange.directions]


@pytest.mark.skipif(
    not (ROOT / "specs" / "sichuan_planet.yaml").exists(), reason="sichuan_planet not written yet"
)
def test_sichuan_books_differences() -> None:
    """The differences both Sichuan books describe: exchange three, passing, Golden Hook, kong shot
    and its transfer, hua-zhu, match length."""
    diff = diff_profiles(SpecLibrary(ROOT / "specs", ROOT), "sichuan_tfmj", "sichuan_planet")
    paths = [d.path for d in diff.differences]
    for prefix in (
        "opening.exchange",
        "passing.win",
        "scoring.patterns.golden_hook",
        "scoring.patterns.kong_shot",
        "kongs.transfer_on_kong_shot",
        "exhaustion.missing_suit_penalty",
        "match.hands",
    ):
        assert any(p == prefix or p.startswith(prefix + ".") for p in paths), (prefix, paths)


# ---- mjspec new ---------------------------------------------------------------------------


def test_new_writes_a_spec_that_builds_unchanged(tmp_path: Path) -> None:
    root = project(tmp_path, {"sichuan_tfmj": BASE})
    res = run("new", "my_house", "--from", "sichuan_tfmj", "--root", str(root))
    assert res.returncode == 0, res.stderr
    text = (root / "specs" / "my_house.yaml").read_text("utf-8")
    assert "extends: sichuan_tfmj" in text and "book: '000'" in text
    for words in (
        "house rule my_house",
        "家规 my_house",
        "ハウスルール my_house",
        "regra da casa my_house",
        "règle maison my_house",
    ):
        assert words in text
    out = compile_library(Layout.at(root))
    assert not out.errors, out.errors
    assert root / "docs" / "rules" / "my_house.zh.md" in out.files
    diff = diff_profiles(SpecLibrary(root / "specs", root), "sichuan_tfmj", "my_house")
    assert diff.differences == ()


@pytest.mark.parametrize(
    "args,needle",
    [
        (("new", "sichuan_tfmj", "--from", "sichuan_tfmj"), "already exists"),
        (("new", "House", "--from", "sichuan_tfmj"), "not a valid profile id"),
        (("new", "my-house", "--from", "sichuan_tfmj"), "not a valid profile id"),
        (("new", "class", "--from", "sichuan_tfmj"), "not a valid profile id"),
        (("new", "my_house", "--from", "sichuan_tmfj"), "did you mean 'sichuan_tfmj'"),
    ],
)
def test_new_refuses_bad_requests(tmp_path: Path, args: tuple[str, ...], needle: str) -> None:
    root = project(tmp_path, {"sichuan_tfmj": BASE})
    before = sorted(p.name for p in (root / "specs").iterdir())
    res = run(*args, "--root", str(root))
    assert res.returncode == 2 and needle in res.stderr and "Traceback" not in res.stderr
    assert sorted(p.name for p in (root / "specs").iterdir()) == before


def test_new_never_overwrites(tmp_path: Path) -> None:
    root = project(tmp_path, {"sichuan_tfmj": BASE})
    assert run("new", "my_house", "--from", "sichuan_tfmj", "--root", str(root)).returncode == 0
    spec = root / "specs" / "my_house.yaml"
    spec.write_text(spec.read_text("utf-8") + "scoring: {cap: 5}\n", "utf-8")
    res = run("new", "my_house", "--from", "sichuan_tfmj", "--root", str(root))
    assert res.returncode == 2 and "already exists" in res.stderr
    assert spec.read_text("utf-8").endswith("scoring: {cap: 5}\n")
    shutil.rmtree(root / "generated")


def _as_list(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value
