"""Records under hostile input (issue 14, items 7, 8, 13): the published schema, checked before
anything else; every recorded outcome re-derived; the chance stated and kept; the digest and the
optional signature; and mutated records that replay or are refused with a message, never crash."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from mjspec.app.cli import main
from mjspec.runtime.actions import ActionKind
from mjspec.runtime.match import play_match
from mjspec.app.records import RecordError, ReplayError, match_record, replay
from mjspec.runtime.record_check import (
    SchemaError,
    _check_keywords,
    _record_conforms,
    _validate,
    record_schema,
    schema_errors,
    seal,
)
from mjspec.app.registry import load_profile
from mjspec.runtime.safejson import JsonInputError, loads
from mjspec.app.simulate import make_players

from conftest import ROOT

SCHEMA_FILE = ROOT / "docs" / "records.schema.json"


def strict_validator() -> Any:
    """jsonschema's 2020-12 validator with one documented difference of the runtime's: an
    ``integer`` is a JSON number written without fraction or exponent (JSON Schema also counts
    1.0 and 1e300; a seed of 3.0 is refused rather than read as 3)."""
    checker = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    strict = jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=checker)
    return strict(record_schema())


def played(
    profile_id: str, seed: int = 1, hands: int | None = 1, key: bytes | None = None
) -> dict[str, Any]:
    match = play_match(load_profile(profile_id), make_players(["greedy"], seed), seed, hands)
    return json.loads(json.dumps(match_record(match, key)))


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return played("riichi_tenhou_east")


def write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(json.dumps(data), "utf-8")
    return path


def run_replay(
    tmp_path: Path, data: Any, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[int, str]:
    status = main(["replay", str(write(tmp_path, data)), *extra])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


# ---- the schema ----------------------------------------------------------------------------


def test_schema_is_valid_draft_2020_12_and_names_every_action() -> None:
    schema = json.loads(SCHEMA_FILE.read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema == record_schema()
    kinds = schema["$defs"]["decision"]["properties"]["kind"]["enum"]
    assert kinds == [k.value for k in ActionKind]


def test_the_validator_refuses_a_schema_keyword_it_does_not_implement() -> None:
    with pytest.raises(SchemaError, match=r"#/properties/x: keywords \['oneOf'\]"):
        _check_keywords({"properties": {"x": {"oneOf": []}}}, "#")


def test_played_and_imported_records_meet_the_schema(
    record: dict[str, Any], tmp_path: Path
) -> None:
    validator = strict_validator()
    assert schema_errors(record) == [] and not list(validator.iter_errors(record))
    out = tmp_path / "imported.json"
    log = ROOT / "tests" / "data" / "tenhou" / "tenhou-mjx" / "mjlog" / "double-ron.mjlog"
    assert main(["import-tenhou", str(log), "--out", str(out)]) == 0
    imported = json.loads(out.read_text("utf-8"))
    assert imported["chance"] == "explicit" and imported["seed"] is None
    assert schema_errors(imported) == [] and not list(validator.iter_errors(imported))
    assert replay(imported).hands == len(imported["hands"])
    excerpt = imported_excerpt()  # the excerpt field meets the schema by both validators
    assert schema_errors(excerpt) == [] and not list(validator.iter_errors(excerpt))
    bad = copy.deepcopy(excerpt)
    bad["excerpt"]["round_wind"] = "X"
    assert schema_errors(bad) == ['excerpt.round_wind: "X" is not one of "E", "S", "W", "N"']
    assert not validator.is_valid(bad)
    del bad["excerpt"]["round_wind"]
    assert schema_errors(bad) == [
        "excerpt: the field 'round_wind' is missing"
    ] and not validator.is_valid(bad)


# ---- malformed records: one message naming the path, exit 2 --------------------------------


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def edit(r: dict[str, Any]) -> None:
        target: Any = r
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value

    return edit


def _drop(path: tuple[Any, ...]) -> Any:
    def edit(r: dict[str, Any]) -> None:
        target: Any = r
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]

    return edit


MALFORMED = [
    (
        "seed null",
        _set(("seed",), None),
        "seed: a record whose chance is 'seeded' has an integer as its seed, not null",
    ),
    ("seed a list", _set(("seed",), [1]), "seed: a list is not an integer or null"),
    ("seed missing", _drop(("seed",)), "(top): the field 'seed' is missing"),
    ("hands an int", _set(("hands",), 3), "hands: 3 is not a list"),
    ("a hand a string", _set(("hands", 0), "x"), 'hands[0]: "x" is not an object'),
    (
        "an event a string",
        _set(("hands", 0, "events", 0), "x"),
        'hands[0].events[0]: "x" is not an object',
    ),
    (
        "an event without kind",
        _drop(("hands", 0, "events", 0, "kind")),
        "hands[0].events[0]: the field 'kind' is missing",
    ),
    ("wall an int", _set(("hands", 0, "wall"), 7), "hands[0].wall: 7 is not a string"),
    (
        "hands_total a string",
        _set(("hands_total",), "3"),
        'hands_total: "3" is not an integer or null',
    ),
    ("seed a float", _set(("seed",), 1.0), "seed: 1.0 is not an integer or null"),
    (
        "profile_version true",
        _set(("profile_version",), True),
        "profile_version: true is not an integer",
    ),
    ("an unknown field", _set(("hands", 0, "bonus"), 1), "hands[0].bonus: unknown field"),
    (
        "a decision of no kind",
        _set(("hands", 0, "decisions", 0, "kind"), "cheat"),
        'hands[0].decisions[0].kind: "cheat" is not one of',
    ),
    (
        "chance made explicit",
        _set(("chance",), "explicit"),
        "seed: a record whose chance is 'explicit' has null as its seed, not 1",
    ),
    (
        "the old format",
        _set(("format",), "mjspec-record/1"),
        "format: 'mjspec-record/1' is the older record format",
    ),
    (
        "an unknown profile",
        _set(("profile",), "no_such_rules"),
        "profile: the record names no known profile",
    ),
    ("an unknown option", _set(("options", "NoSuchOption"), True), "options: "),
]


@pytest.mark.parametrize("name, edit, message", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_record_is_refused_naming_the_path(
    record: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    edit: Any,
    message: str,
) -> None:
    bad = copy.deepcopy(record)
    edit(bad)
    status, out = run_replay(tmp_path, bad, capsys)
    assert status == 2 and "not a valid record: " + message in out and "Traceback" not in out
    assert len(out.strip().splitlines()) == 1
    with pytest.raises(RecordError):
        replay(bad)


@pytest.mark.parametrize(
    "raw, message",
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested 100000 levels deep"),
        (b'{"seed": ' + b"9" * 5000 + b"}", "an integer of 5000 digits"),
        (b'{"format": "\xff"}', "not UTF-8 text (byte 12)"),
        (b'{"seed": 1e999}', "the number 1e999 is not finite"),
        (b'{"seed": NaN}', "NaN is not JSON"),
        (b'{"seed": 1', "not JSON"),
        (b"", "not JSON"),
    ],
)
def test_unreadable_json_is_refused_with_the_file_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], raw: bytes, message: str
) -> None:
    status, out = run_replay(tmp_path, raw, capsys)
    assert (
        status == 2
        and str(tmp_path / "game.json") in out
        and message in out
        and "Traceback" not in out
    )


def test_safe_json_keeps_legitimate_depth_and_numbers() -> None:
    assert loads(b'{"a": [[[[1]]]], "s": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', "x") == {
        "a": [[[[1]]]],
        "s": "[" * 36,
    }
    with pytest.raises(JsonInputError, match="nested 40 levels"):
        loads("[" * 40 + "]" * 40, "x")


# ---- tampered records: every outcome re-derived, exit 1 ------------------------------------

TAMPERED = [
    ("placements reversed", lambda r: r["placements"].reverse(), "placements: recorded"),
    (
        "a changed result",
        lambda r: r["result"].__setitem__(0, r["result"][0] + 5),
        "result: recorded",
    ),
    (
        "strict_preset flipped",
        lambda r: r.update(strict_preset=not r["strict_preset"]),
        "strict_preset: recorded",
    ),
    (
        "points zeroed",
        lambda r: [h.update(points=[0, 0, 0, 0]) for h in r["hands"]],
        "hands[0].points: recorded [0, 0, 0, 0]",
    ),
    ("hands_total changed", lambda r: r.update(hands_total=2), "the record ends after 1 hand(s)"),
]


@pytest.mark.parametrize("name, edit, message", TAMPERED, ids=[t[0] for t in TAMPERED])
def test_tampered_outcome_is_detected_even_with_a_fresh_digest(
    record: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    edit: Any,
    message: str,
) -> None:
    bad = copy.deepcopy(record)
    edit(bad)
    bad = seal(bad)  # a forger who recomputes the digest is still caught by the re-derivation
    status, out = run_replay(tmp_path, bad, capsys)
    assert status in (1, 2) and "Traceback" not in out and message in out
    with pytest.raises(ReplayError):
        replay(bad)


def test_explicit_chance_added_to_a_played_record_is_detected(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    bad.update(chance="explicit", seed=None)
    for hand in bad["hands"]:
        hand["seed"] = None
    with pytest.raises(ReplayError, match="digest: the record's content does not match its digest"):
        replay(bad)
    # resealed without the key, the walls are taken as given: a signed record still tells
    key = b"tournament secret"
    signed = played("riichi_tenhou_east", key=key)
    forged = copy.deepcopy(signed)
    forged.update(chance="explicit", seed=None)
    for hand in forged["hands"]:
        hand["seed"] = None
    forged = {**seal(forged), "signature": signed["signature"]}
    assert replay(forged).seal.startswith("signed, not checked")
    with pytest.raises(ReplayError, match="signature: the record was not signed with this key"):
        replay(forged, key)


def test_any_edit_breaks_the_digest(record: dict[str, Any]) -> None:
    assert replay(record).seal == "unsigned"
    for edit in (lambda r: r.update(extra=1), lambda r: r["hands"][0]["events"][0].update(seat=2)):
        bad = copy.deepcopy(record)
        edit(bad)
        with pytest.raises(ReplayError):
            replay(bad)
    assert seal(copy.deepcopy(record)) == record  # sealing is deterministic


def test_play_and_replay_with_a_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "key"
    key.write_bytes(b"s3cret\n")
    other = tmp_path / "other"
    other.write_bytes(b"guess\n")
    out = tmp_path / "game.json"
    assert (
        main(
            [
                "play",
                "sichuan_tfmj",
                "--seed",
                "2",
                "--hands",
                "1",
                "--quiet",
                "--record",
                str(out),
                "--key",
                str(key),
            ]
        )
        == 0
    )
    signed = json.loads(out.read_text("utf-8"))
    assert signed["signature"].startswith("hmac-sha256:") and "s3cret" not in out.read_text("utf-8")
    capsys.readouterr()
    assert (
        main(["replay", str(out), "--key", str(key)]) == 0 and "; signed" in capsys.readouterr().out
    )
    assert main(["replay", str(out)]) == 0 and "signed, not checked" in capsys.readouterr().out
    assert main(["replay", str(out), "--key", str(other)]) == 1
    assert "signature: the record was not signed with this key" in capsys.readouterr().err
    unsigned = write(
        tmp_path, {k: v for k, v in signed.items() if k != "signature"}, "unsigned.json"
    )
    assert main(["replay", str(unsigned), "--key", str(key)]) == 1
    assert "the record is not signed" in capsys.readouterr().err
    assert main(["replay", str(out), "--key", str(tmp_path / "missing")]) == 2


# ---- fuzz: mutated records replay or are refused with a message ----------------------------

HOSTILE_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, -1, 3, 4, 2**63, 10**25, 1.5, float("1e300")]),
    st.text(max_size=8),
    st.sampled_from(
        ["", "1m", "0p", "5z", "seeded", "explicit", "E", "discard", "mjspec-record/2"]
    ),
    st.lists(st.integers(-3, 200), max_size=5),
    st.dictionaries(
        st.sampled_from(["kind", "seat", "data", "tile"]), st.integers(-1, 5), max_size=3
    ),
    st.integers(1, 60).map(lambda n: json.loads("[" * n + "]" * n)),
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):  # the first few items of each list keep the choice small
            out += _paths(v, prefix + (i,))
    return out


@st.composite
def mutated(draw: Any, record: dict[str, Any]) -> Any:
    paths = _paths(record)
    bad = copy.deepcopy(record)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths))
        target: Any = bad
        try:
            for part in path[:-1]:
                target = target[part]
            if draw(st.booleans()) and isinstance(target, dict):
                target.pop(path[-1], None)
            else:
                target[path[-1]] = draw(HOSTILE_VALUES)
        except (KeyError, IndexError, TypeError):
            pass  # an earlier mutation changed the shape under this path
    if _serialisable(bad):
        # What a record file can hold: a mutation may set an int key on a dict that replaced a
        # list, which JSON text cannot say (and which sorting the keys for the digest refuses).
        bad = json.loads(json.dumps(bad))
        if draw(st.booleans()) and isinstance(bad, dict):
            bad = seal(bad)
    return bad


def _serialisable(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
        return True
    except ValueError:
        return False


def _replays_or_refuses(bad: Any, record: dict[str, Any]) -> None:
    try:
        replay(bad)
    except RecordError as e:
        assert str(e)
        event("refused as malformed")
        return
    except ReplayError as e:
        assert str(e)
        event("refused by the replay")
        return
    event("replayed")
    assert bad == record or seal(copy.deepcopy(bad)) == bad  # accepted only if it still reproduces


def _fuzz_records(examples: int) -> Any:
    def decorate(test: Any) -> Any:
        return settings(
            max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck)
        )(test)

    return decorate


def imported_excerpt() -> dict[str, Any]:
    """An imported tenhou.net/6 excerpt (South 1 of a game, not its end): a record with
    ``excerpt``."""
    from mjspec.app.tenhou import load_log
    from mjspec.app.tenhou_replay import game_record

    log = (
        ROOT / "tests" / "data" / "tenhou" / "tenhou6json-mjai-reviewer" / "confusing_nakis_5.json"
    )
    record = json.loads(json.dumps(game_record(load_log(log), load_profile("riichi_tenhou"))))
    assert record["excerpt"]["finished"] is False
    return record


@pytest.fixture(scope="module")
def small_records() -> list[dict[str, Any]]:
    return [
        *(
            played(pid, seed=3)
            for pid in ("sichuan_tfmj", "gb_mcr", "classical_xmj", "riichi_tenhou_east")
        ),
        imported_excerpt(),
    ]


@given(data=st.data(), which=st.integers(0, 4))
@_fuzz_records(120)
def test_mutated_records_replay_or_are_refused(
    small_records: list[dict[str, Any]], data: Any, which: int
) -> None:
    record = small_records[which]
    bad = data.draw(mutated(record))
    validator = strict_validator()
    # the standard-library validator and jsonschema agree on every mutated record, and so do the
    # validator's two forms (the compiled verdict, and the walk that names where and why)
    assert (schema_errors(bad) == []) == validator.is_valid(bad)
    walked: list[str] = []
    _validate(bad, record_schema(), record_schema(), "", walked, 1)
    assert _record_conforms()(bad) == (walked == [])
    _replays_or_refuses(bad, record)


@given(data=st.data(), which=st.integers(0, 4))
@_fuzz_records(60)
def test_truncated_or_garbled_record_files_are_refused(
    small_records: list[dict[str, Any]], data: Any, which: int
) -> None:
    raw = json.dumps(small_records[which]).encode("utf-8")
    cut = data.draw(st.integers(0, len(raw) - 1))
    junk = data.draw(st.binary(max_size=6))
    try:
        parsed = loads(raw[:cut] + junk, "game.json")
    except JsonInputError as e:
        assert str(e).startswith("game.json")
        return
    _replays_or_refuses(parsed, small_records[which])


@pytest.mark.slow
@given(data=st.data(), which=st.integers(0, 4))
@_fuzz_records(3000)
def test_mutated_records_replay_or_are_refused_long(
    small_records: list[dict[str, Any]], data: Any, which: int
) -> None:
    record = small_records[which]
    bad = data.draw(mutated(record))
    assert (schema_errors(bad) == []) == strict_validator().is_valid(bad)
    _replays_or_refuses(bad, record)


def test_an_oversized_record_file_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mjspec.runtime.safejson import MAX_BYTES

    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(MAX_BYTES + 1)  # sparse: nothing is written
    assert main(["replay", str(big)]) == 2
    assert "larger than 64000000 bytes: not a game record" in capsys.readouterr().err
