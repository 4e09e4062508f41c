"""Hostile specs (issue 14, items 3-5): validate does every check the build does, the loader
refuses huge integers and deep nesting quickly with file:line, ids are anchored, and errors
stand at the line that made them."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from mjspec.compiler.build import compile_library
from mjspec.app.cli import main
from mjspec.compiler.errors import SpecErrors
from mjspec.compiler.load import MAX_DEPTH, load_spec_text

from conftest import ROOT
from test_compiler import BASE, child, make_layout

PAYMENT_UNIT = 'unit: "2 ** min(fan, 3)"'


def edited(old: str, new: str) -> str:
    assert old in BASE, old
    return BASE.replace(old, new, 1)


def validate(
    tmp_path: Path, specs: dict[str, str], target: str, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    layout = make_layout(tmp_path, specs)
    status = main(["validate", str(layout.specs / f"{target}.yaml")])
    return status, capsys.readouterr().err


@pytest.mark.parametrize(
    "unit, fault",
    [
        ('unit: "fan // (fan - fan)"', "ZeroDivisionError"),
        ('unit: "2 ** (fan - 10)"', "exponent -10 is negative"),
        ('unit: "((fan + 2) ** 64) ** 64"', "more than 4096 bits"),
        ('unit: "fan * 10 ** 12 + 1"', "beyond any sensible payment"),
    ],
)
def test_validate_evaluates_payment_formulas_over_their_domain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], unit: str, fault: str
) -> None:
    text = edited(PAYMENT_UNIT, unit)
    status, err = validate(tmp_path, {"sichuan_tfmj": text}, "sichuan_tfmj", capsys)
    line = text.splitlines().index("    " + unit) + 1
    assert status == 2
    assert f"sichuan_tfmj.yaml:{line}: payments.values.unit: in expression" in err and fault in err
    assert "Traceback" not in err
    # the build refuses the same spec with the same message
    build_errors = [
        str(e) for e in compile_library(make_layout(tmp_path / "b", {"sichuan_tfmj": text})).errors
    ]
    assert any(
        f"sichuan_tfmj.yaml:{line}: payments.values.unit" in e and fault in e for e in build_errors
    )


def test_a_failure_only_at_one_fan_is_found(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # fan 57 (uncapped: 0..200 are checked) divides by zero; capped stops at 3
    status, err = validate(
        tmp_path,
        {"sichuan_tfmj": edited(PAYMENT_UNIT, 'unit: "100 // (fan - 57) + capped"')},
        "sichuan_tfmj",
        capsys,
    )
    assert status == 2 and "fan=57, capped=3" in err


def test_a_named_value_failing_on_the_values_of_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # unit takes 1, 2, 4, 8; 8 // (unit - 8) fails only at the last one
    body = edited('    discarder: "unit"', '    discarder: "8 // (unit - 8)"')
    status, err = validate(tmp_path, {"sichuan_tfmj": body}, "sichuan_tfmj", capsys)
    assert status == 2 and "payments.ron.discarder" in err and "unit=8" in err


def test_huge_cap_is_refused_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = edited("  cap: 3", "  cap: 1000000000")
    start = time.perf_counter()
    status, err = validate(tmp_path, {"sichuan_tfmj": text}, "sichuan_tfmj", capsys)
    assert status == 2 and "scoring.cap: 1000000000 is greater than the maximum of 100" in err
    assert (
        time.perf_counter() - start < 60
    )  # it used to run for minutes; the figure is not a benchmark


def test_bundled_specs_validate(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted((ROOT / "specs").glob("*.yaml"))
    assert main(["validate", *map(str, files)]) == 0
    out = capsys.readouterr().out
    assert out.count(": ok (") == len(files)


@pytest.mark.parametrize("bad", ['"sichuan_tfmj\\n"', '"sichuan_tfmj\\nx"'])
def test_id_pattern_is_anchored(tmp_path: Path, bad: str) -> None:
    text = edited("id: sichuan_tfmj", f"id: {bad}")
    errs = [str(e) for e in compile_library(make_layout(tmp_path, {"sichuan_tfmj": text})).errors]
    assert any(
        e.startswith("specs/sichuan_tfmj.yaml:6: id: ") and "does not match" in e for e in errs
    ), errs


def test_pattern_id_with_trailing_newline_is_refused(tmp_path: Path) -> None:
    body = (
        'scoring:\n  patterns:\n    "extra\\n":\n      names: {en: a, zh: a, ja: a, pt: a, '
        'fr: a}\n      when: "True"\n      value: 1\n'
    )
    errs = [
        str(e)
        for e in compile_library(
            make_layout(tmp_path, {"sichuan_tfmj": BASE, "house": child(body)})
        ).errors
    ]
    assert any(
        e.startswith("specs/house.yaml:5: scoring.patterns.'extra\\n': ")
        and "not a valid name" in e
        and "\n" not in e
        for e in errs
    ), errs


def test_child_pattern_id_is_reported_at_the_child_line(tmp_path: Path) -> None:
    body = (
        "scoring:\n  patterns:\n    Bad-Id:\n      names: {en: a, zh: a, ja: a, pt: a, fr: "
        'a}\n      when: "True"\n      value: 1\n'
    )
    errs = [
        str(e)
        for e in compile_library(
            make_layout(tmp_path, {"sichuan_tfmj": BASE, "house": child(body)})
        ).errors
    ]
    assert errs == [
        "specs/house.yaml:5: scoring.patterns.Bad-Id: 'Bad-Id' is not a valid name here (it "
        "must match '^[a-z][a-z0-9_]*$(?!\\\\n)')"
    ], errs


def test_spec_without_scoring_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = BASE.splitlines(keepends=True)
    start = next(i for i, l in enumerate(lines) if l.startswith("scoring:"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i][:1].isalpha())
    status, err = validate(
        tmp_path, {"sichuan_tfmj": "".join(lines[:start] + lines[end:])}, "sichuan_tfmj", capsys
    )
    assert status == 2 and "(top): 'scoring' is required here" in err and "Traceback" not in err


def _refused(text: str) -> tuple[str, float]:
    start = time.perf_counter()
    with pytest.raises(SpecErrors) as e:
        load_spec_text(text, "f.yaml")
    return str(e.value), time.perf_counter() - start


def test_huge_integer_is_refused_with_its_line() -> None:
    message, _ = _refused("id: x\nversion: " + "9" * 5000 + "\n")
    assert (
        message
        == "f.yaml:2: version: an integer of 5000 digits is beyond any rule's range (at most 12)"
    )


@pytest.mark.parametrize("depth", [MAX_DEPTH + 2, 500, 5000])
def test_deep_flow_nesting_is_refused_quickly(depth: int) -> None:
    message, seconds = _refused("id: x\nx: " + "[" * depth + "]" * depth + "\n")
    assert message.startswith("f.yaml:2") and (
        "nested deeper than 40 levels" in message or "nesting depth" in message
    )
    assert seconds < 5, seconds  # 19 s before; a bound against a hang, not a benchmark


def test_deep_block_nesting_is_refused_quickly() -> None:
    text = "".join(" " * i + "k:\n" for i in range(1000)) + " " * 1000 + "k: 1\n"
    message, seconds = _refused(text)
    assert message.startswith("f.yaml:42:") and "nested deeper than 40 levels" in message
    assert seconds < 5, seconds


def test_nesting_within_the_limit_still_loads() -> None:
    depth = MAX_DEPTH - 1
    loaded = load_spec_text("x: " + "[" * depth + "]" * depth + "\n", "f.yaml")
    assert isinstance(loaded.data["x"], list)


# ---- fuzz: mutated specs; validate and build agree, a failed build writes nothing -----------

import copy as _copy  # noqa: E402

import yaml  # noqa: E402
from hypothesis import HealthCheck, event, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mjspec.compiler import build as build_module  # noqa: E402
from mjspec.compiler.build import Layout  # noqa: E402

#: Profiles that extend nothing: a folder of one spec builds alone.
ROOTS = ("sichuan_tfmj", "riichi_planet", "gb_mcr", "classical_xmj")
SPEC_DATA = {
    pid: yaml.safe_load((ROOT / "specs" / f"{pid}.yaml").read_text("utf-8")) for pid in ROOTS
}

HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.sampled_from([-1, 0, 10**9, 10**40, 2**63]),
    st.text(max_size=6),
    st.sampled_from(
        ["fan // 0", "2 ** (fan - 99)", "__import__('os')", "pnl\n", "x" * 300, "[", "{en: a}"]
    ),
    st.lists(st.integers(-2, 5), max_size=3),
    st.integers(1, 80).map(lambda n: json_nest(n)),
)


def json_nest(n: int) -> object:
    value: object = 1
    for _ in range(n):
        value = [value]
    return value


def _spec_paths(value: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _spec_paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:2]):
            out += _spec_paths(v, prefix + (i,))
    return out


SPEC_PATHS = {pid: _spec_paths(SPEC_DATA[pid]) for pid in ROOTS}


@st.composite
def mutated_spec(draw: st.DrawFn, pid: str) -> bytes:
    data = _copy.deepcopy(SPEC_DATA[pid])
    for _ in range(draw(st.integers(1, 2))):
        path = draw(st.sampled_from(SPEC_PATHS[pid]))
        target: object = data
        try:
            for part in path[:-1]:
                target = target[part]  # type: ignore[index]
            if draw(st.booleans()) and isinstance(target, dict):
                target.pop(path[-1], None)
            else:
                target[path[-1]] = draw(HOSTILE)  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            pass  # an earlier mutation changed the shape under this path
    raw = yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode("utf-8")
    how = draw(st.integers(0, 9))
    if how == 0:
        raw = raw[: draw(st.integers(0, len(raw)))]
    elif how == 1:
        at = draw(st.integers(0, len(raw)))
        raw = raw[:at] + draw(st.binary(min_size=1, max_size=4)) + raw[at:]
    return raw


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "specs" not in p.parts
    }


def _spec_folder(tmp: Path, pid: str) -> Layout:
    """A project folder holding one root spec, with the bundled output of that profile as the
    previous build."""
    layout = Layout.at(tmp)
    (layout.specs).mkdir(parents=True, exist_ok=True)
    layout.generated.mkdir(exist_ok=True)
    layout.rules.mkdir(parents=True, exist_ok=True)
    for name in ("__init__.py", f"{pid}.py"):
        (layout.generated / name).write_bytes((ROOT / "generated" / name).read_bytes())
    for doc in (ROOT / "docs" / "rules").glob(f"{pid}.*.md"):
        (layout.rules / doc.name).write_bytes(doc.read_bytes())
    return layout


def _validate_and_build_agree(
    tmp: Path,
    pid: str,
    raw: bytes,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    layout = _spec_folder(tmp, pid)
    spec = layout.specs / f"{pid}.yaml"
    spec.write_bytes(raw)
    before = _snapshot(tmp)
    capsys.readouterr()
    validated = main(["validate", str(spec)])
    v_err = capsys.readouterr().err
    monkeypatch.setattr(build_module.Layout, "bundled", classmethod(lambda cls: layout))
    built = main(["build", "--bundled"])
    b_err = capsys.readouterr().err
    assert "Traceback" not in v_err + b_err
    assert validated in (0, 2) and built in (0, 2)
    assert (validated == 0) == (built == 0), (v_err, b_err)
    if built != 0:
        # the same errors, located in the same file (validate names the file as given, build
        # relative to the root)
        v_lines = sorted(
            line.replace(str(spec), f"specs/{pid}.yaml") for line in v_err.splitlines()
        )
        b_lines = sorted(line for line in b_err.splitlines() if not line.endswith("error(s)"))
        assert v_lines == b_lines
        assert _snapshot(tmp) == before  # a failed build leaves generated/ and docs/ byte-identical
        event("refused by both")
    else:
        event("built by both")


@given(data=st.data(), pid=st.sampled_from(ROOTS))
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_mutated_specs_validate_and_build_alike(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    data: st.DataObject,
    pid: str,
) -> None:
    raw = data.draw(mutated_spec(pid))
    _validate_and_build_agree(tmp_path_factory.mktemp("fuzz"), pid, raw, monkeypatch, capsys)


@pytest.mark.slow
@given(data=st.data(), pid=st.sampled_from(ROOTS))
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
def test_mutated_specs_validate_and_build_alike_long(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    data: st.DataObject,
    pid: str,
) -> None:
    raw = data.draw(mutated_spec(pid))
    _validate_and_build_agree(tmp_path_factory.mktemp("fuzz"), pid, raw, monkeypatch, capsys)
