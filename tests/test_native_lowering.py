"""Every lowered C expression answers as its Python form, on the views the Python scorer builds.

Each profile's Python engine is run with every expression wrapped: the wrapper
calls the Python predicate, fills the native view (tests/nativekit.py mirrors
mjscore.h) from the very HandView or PaymentView it was handed, calls the
lowered C function of the same expression, and records any difference. Hands:
every spec example and seeded random hands and situations of the profile. An
answer the C side leaves (it flagged an overflow) is counted, never compared.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
from typing import Any, Callable

import pytest

import nativekit as nk
from gbkit import random_gb_win
from handkit import example_hand, random_context, random_hand
from mjspec.runtime.context import WinContext
from mjspec.runtime.profile import Pattern, PointItem, Profile, Requirement
from mjspec.app.registry import load_profile, profile_ids
from mjspec.runtime.scoring import HandError, evaluate
from mjspec.runtime.tiles import parse_tiles

IDS = profile_ids()


class Recorder:
    def __init__(self, profile: Profile) -> None:
        self.builder = nk.ViewBuilder(tuple(p.id for p in profile.patterns), profile)
        self.compared = 0
        self.left = 0
        self.differences: list[str] = []

    def hand(
        self, what: str, py: Callable[[Any], Any], address: int | None
    ) -> Callable[[Any], Any]:
        if not address:
            return py

        def wrapped(view: Any) -> Any:
            answer = py(view)
            native = nk.call_hand(address, self.builder.view(view))
            self.note(what, answer, native, view)
            return answer

        return wrapped

    def payment(
        self, what: str, py: Callable[[Any], Any], address: int, names: tuple[str, ...]
    ) -> Callable[[Any], Any]:
        def wrapped(pv: Any) -> Any:
            answer = py(pv)
            pay = nk.MjPay()
            for name in ("fan", "capped", "points", "honba"):
                setattr(pay, name, getattr(pv, name))
            for name in ("tsumo", "ron", "dealer", "limit"):
                setattr(pay, name, int(bool(getattr(pv, name))))
            for i, name in enumerate(names):
                pay.named[i] = getattr(pv, name)
            pay.options = self.builder.options_of(pv)
            self.note(what, answer, nk.call_payment(address, pay), pv)
            return answer

        return wrapped

    def note(self, what: str, answer: Any, native: int | None, view: Any) -> None:
        if native is None:
            self.left += 1
            return
        self.compared += 1
        if int(answer) != native and len(self.differences) < 10:
            self.differences.append(f"{what}: Python {answer!r}, C {native} on {view!r}")
        self.builder.keep.clear()


def wrapped_profile(profile: Profile, module: Any, rec: Recorder) -> Profile:
    """``profile`` with every expression calling its lowered C form beside it."""
    s = nk.profile_struct(module)
    assert s.abi == nk.ABI and s.n_patterns == len(profile.patterns)
    patterns: list[Pattern] = []
    for i, p in enumerate(profile.patterns):
        c = s.patterns[i]
        assert c.id.decode() == p.id
        fields: dict[str, Any] = {}
        if p.when is not None:
            fields["when"] = rec.hand(f"{p.id}.when", p.when, c.when)
        if p.count is not None:
            fields["count"] = rec.hand(f"{p.id}.count", p.count, c.count)
        if callable(p.value):
            fields["value"] = rec.hand(f"{p.id}.value", p.value, c.value.fn)
        else:
            assert c.value.fn is None and c.value.constant == p.value
        if callable(p.open_value):
            fields["open_value"] = rec.hand(f"{p.id}.open_value", p.open_value, c.open_value.fn)
        patterns.append(dataclasses.replace(p, **fields))
    requirements = tuple(
        dataclasses.replace(r, when=rec.hand(f"requirement {r.id}", r.when, s.requirements[i].when))
        for i, r in enumerate(profile.requirements)
    )
    points = profile.points
    if points is not None:
        items: list[PointItem] = []
        for i, it in enumerate(points.items):
            c = s.point_items[i]
            fields = {}
            if it.when is not None:
                fields["when"] = rec.hand(f"point {it.id}.when", it.when, c.when)
            if callable(it.value):
                fields["value"] = rec.hand(f"point {it.id}.value", it.value, c.value.fn)
            items.append(dataclasses.replace(it, **fields))
        result = (
            rec.hand("points.result", points.result, s.points_result) if points.result else None
        )
        points = dataclasses.replace(points, items=tuple(items), result=result)
    names = tuple(n for n, _ in profile.payments.values)
    values = tuple(
        (n, rec.payment(f"value {n}", fn, s.values[i].fn, names[:i]))
        for i, (n, fn) in enumerate(profile.payments.values)
    )
    ron = tuple(
        (n, rec.payment(f"ron {n}", fn, s.ron[i].fn, names))
        for i, (n, fn) in enumerate(profile.payments.ron)
    )
    tsumo = tuple(
        (n, rec.payment(f"tsumo {n}", fn, s.tsumo[i].fn, names))
        for i, (n, fn) in enumerate(profile.payments.tsumo)
    )
    payments = dataclasses.replace(profile.payments, values=values, ron=ron, tsumo=tsumo)
    return dataclasses.replace(
        profile,
        patterns=tuple(patterns),
        requirements=requirements,
        points=points,
        payments=payments,
        whole_hand_conditions=(),
    )


def _situations(rng: random.Random, profile: Profile, ctx: WinContext) -> WinContext:
    """Random situation flags beyond the test kit's, so situational expressions see both answers."""
    fields: dict[str, Any] = {}
    for flag in ("riichi", "ippatsu", "first_draw", "fourth_tile", "is_dealer"):
        if rng.random() < 0.25:
            fields[flag] = True
    if profile.points is not None or any(p.bonus for p in profile.patterns):
        kinds = [t for t in profile.tiles.all_tiles() if not t.is_flower]
        fields["dora_indicators"] = "".join(
            str(rng.choice(kinds)) for _ in range(rng.randint(0, 3))
        )
    fields["honba"] = rng.randint(0, 3)
    try:
        return dataclasses.replace(ctx, **fields)
    except (TypeError, ValueError):
        return ctx


@pytest.mark.parametrize("profile_id", IDS)
def test_every_lowered_expression_answers_as_python(profile_id: str) -> None:
    profile = load_profile(profile_id)
    module = nk.engine_module(profile_id)
    if module is None:
        pytest.skip(
            f"the native engine of {profile_id} was not built (no C compiler at install time)"
        )
    engine = importlib.import_module(f"mjspec.generated.{profile_id}")
    assert (
        module.DIGEST == engine.NATIVE_DIGEST
    ), "the compiled native engine is older than its source: rebuild"
    rec = Recorder(profile)
    wrapped = wrapped_profile(profile, module, rec)
    cases: list[tuple[Any, WinContext]] = [example_hand(profile, ex) for ex in profile.examples]
    rng = random.Random(12)
    while len(cases) < len(profile.examples) + 300:
        if profile.shapes.knitted and rng.random() < 0.5:
            got = random_gb_win(rng)
            if got is None:
                continue
            cases.append(got)
        else:
            cases.append(
                (random_hand(rng, profile), _situations(rng, profile, random_context(rng, profile)))
            )
    scored = 0
    for hand, ctx in cases:
        try:
            evaluate(wrapped, hand, ctx)
        except HandError:
            continue
        scored += 1
    assert not rec.differences, "\n".join(rec.differences)
    assert scored > 200 and rec.compared > 1000, (scored, rec.compared)


# ---- what lowers, and what the build says when something does not ------------------------

from mjspec.compiler import expr as X  # noqa: E402
from mjspec.compiler.native import (
    NativeUnsupported,
    Scope,
    c_comment,
    c_string,
    lower,
)  # noqa: E402
from mjspec.compiler.vocabulary import (  # noqa: E402
    COMBINATION_NAMES,
    HAND_FUNCTIONS,
    HAND_NAMES,
    PAYMENT_NAMES,
    combination_vocabulary,
    hand_vocabulary,
    payment_vocabulary,
    points_vocabulary,
)

#: One expression per hand-view name, of the name's type put to use.
_USES = {
    X.BOOL: "{n}",
    X.INT: "{n} > 1",
}


def _use(name: str, typ: X.Type) -> str:
    if typ in _USES:
        return _USES[typ].format(n=name)
    if isinstance(typ, X.Enum):
        return f"{name} == {sorted(typ.values)[0]!r}"
    if isinstance(typ, X.Optional):
        if isinstance(typ.inner, X.Record):
            return f"{name} is not None and {name}.number == 1"
        first = sorted(typ.inner.values)[0]  # type: ignore[attr-defined]
        return f"{name} is not None and {name} == {first!r}"
    if isinstance(typ, X.Record):
        return f"{name}.number == 1"
    if isinstance(typ, X.ListOf):
        return (
            f"len({name}) > 1 and any(x.number == 1 for x in {name}) and sum(x.number for x "
            f"in {name}) > 3"
        )
    if isinstance(typ, X.SetOf):
        return f"'m' in {name} and len({name}) == 2"
    raise AssertionError(f"no use written for {typ.describe()}")


_WIDE = {"set_bits", "group_bits"}


@pytest.mark.parametrize("name", sorted(set(HAND_NAMES) - _WIDE))
def test_every_hand_name_lowers(name: str) -> None:
    source = _use(name, HAND_NAMES[name][0])
    checked = X.compile_expr(source, hand_vocabulary(), X.BOOL)
    text = lower(checked.python, Scope(payment=False))
    assert text and "v->" in text


@pytest.mark.parametrize("name", sorted(COMBINATION_NAMES))
def test_every_combination_name_lowers(name: str) -> None:
    source = _use(name, COMBINATION_NAMES[name][0])
    checked = X.compile_expr(source, combination_vocabulary(4), X.BOOL)
    assert "v->members" in lower(checked.python, Scope(payment=False))


@pytest.mark.parametrize(
    "source",
    [
        "count_of('m', 1) + concealed_count_of(win_tile.suit, win_tile.number) > 2",
        "all(concealed_at_win(g) for g in sets)",
        "len({g.suit for g in sets if g.is_sequence}) == 3 and {g.number for g in sets} == {1, "
        "4, 7}",
        "len([g for g in melds if g.is_kong]) == 2",
        "min(t.number for t in tiles) == 1 and max(fan for fan in (1, 2)) == 2",
        "(3 if riichi else 2) ** 2 // 4 % 3 == abs(-1)",
        "win_tile.suit in ('m', 'p') and wait not in ('edge', 'closed')",
    ],
)
def test_every_form_of_the_language_lowers(source: str) -> None:
    vocab = hand_vocabulary()
    checked = X.compile_expr(source, vocab, X.BOOL)
    assert lower(checked.python, Scope(payment=False))


def test_counted_options_and_payment_names_lower() -> None:
    scope = Scope(payment=False, pattern_ids=("pinfu",), option_names=("Cap",))
    checked = X.compile_expr(
        "counted('pinfu')", points_vocabulary(("pinfu",), result=False), X.BOOL
    )
    assert lower(checked.python, scope) == "mj_counted(v, 0)"
    vocab = payment_vocabulary(("base",), {"Cap": "count"})
    for name, (typ, _) in PAYMENT_NAMES.items():
        use = name if typ == X.INT else f"(1 if {name} else 0)"
        checked = X.compile_expr(f"{use} + base + option_value('Cap')", vocab, X.INT)
        text = lower(
            checked.python, Scope(payment=True, option_names=("Cap",), named_values=("base",))
        )
        assert "v->named[0]" in text and "v->options[0]" in text


@pytest.mark.parametrize("name", sorted(_WIDE))
def test_wide_masks_are_refused_with_the_reason(name: str) -> None:
    checked = X.compile_expr(f"{name} > 0", hand_vocabulary(), X.BOOL)
    with pytest.raises(NativeUnsupported, match="wider than 64 bits"):
        lower(checked.python, Scope(payment=False))


def test_a_profile_the_lowering_cannot_take_is_built_for_python_with_file_and_line(
    tmp_path: Any,
) -> None:
    from test_compiler import child, make_layout

    from mjspec.compiler.build import compile_library

    body = 'scoring:\n  patterns:\n    all_triplets:\n      when: "set_bits > 0"\n'
    out = compile_library(
        make_layout(
            tmp_path,
            {
                "house": child(body),
                "sichuan_tfmj": open(_root() / "specs" / "sichuan_tfmj.yaml").read(),
            },
        )
    )
    assert not out.errors, out.errors
    why = next(p.python_only for p in out.summaries if p.id == "house")
    assert why is not None and "house.yaml:" in why and "scoring.patterns.all_triplets.when" in why
    assert "wider than 64 bits" in why
    assert not any(p.name == "house.c" for p in out.files)
    engine = out.files[tmp_path / "generated" / "house.py"]
    assert "NATIVE_DIGEST: str | None = None" in engine


def _root() -> Any:
    from conftest import ROOT

    return ROOT


def test_spec_strings_reach_c_only_as_escaped_literals() -> None:
    hostile = 'a"b\\c??/*/\n\u00e9\u4e2d'
    literal = c_string(hostile)
    assert literal.startswith('"') and literal.endswith('"')
    inner = literal[1:-1]
    assert "\n" not in inner and "??" not in inner and all(0x20 <= ord(ch) < 0x7F for ch in inner)
    # every quote and backslash of the text is escaped
    assert inner.count('\\"') == 1 and "\\\\" in inner
    comment = c_comment("x */ y /* z\nw")
    assert "*/" not in comment and "/*" not in comment and "\n" not in comment


def test_a_new_house_rule_gets_its_native_engine_from_the_build(tmp_path: Any) -> None:
    """`mjspec build` writes a new profile's C source and compiles it, as setup.py does the bundled
    ones."""
    import importlib.util
    import shutil

    from test_compiler import child, make_layout

    from mjspec.compiler.build import compile_library, write_outputs
    from mjspec.compiler.native_build import compile_engines, module_path

    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler on this machine")
    body = 'scoring:\n  cap: 4\npayments:\n  values:\n    unit: "2 ** min(fan, 4)"\nexamples: []\n'
    parent = (_root() / "specs" / "sichuan_tfmj.yaml").read_text("utf-8")
    layout = make_layout(tmp_path, {"house": child(body), "sichuan_tfmj": parent})
    out = compile_library(layout)
    assert not out.errors, out.errors
    write_outputs(layout, out)
    notes = compile_engines(layout.generated, ["house"])
    assert notes == [
        f"house: native engine compiled -> {module_path(layout.generated, 'house').name}"
    ]
    spec = importlib.util.spec_from_file_location(
        "_native_house", module_path(layout.generated, "house")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    table = nk.profile_struct(module)
    assert table.id == b"house" and table.has_cap == 1 and table.cap == 4
    assert module.DIGEST in out.files[layout.generated / "house.py"]
    assert compile_engines(layout.generated, ["house"]) == []  # up to date: nothing compiled again


def test_the_shared_enums_are_numbered_in_one_place() -> None:
    """runtime/native_enums.py numbers every enum the core shares with the glue; `mjspec build`
    writes mjenums.h from it (build --check holds the file to the table). No other C file or
    header of the core or of a generated module gives one of its constants a value, and no C
    file compares a meld type with a bare number (its order is the table's to change)."""
    import re
    from pathlib import Path

    from mjspec.compiler.native import enums_header
    from mjspec.runtime.native_enums import NATIVE_ENUMS

    root = Path(__file__).resolve().parent.parent
    header = root / "runtime" / "native" / "mjenums.h"
    assert header.read_text("utf-8") == enums_header()
    for e in NATIVE_ENUMS:
        for i, v in enumerate(e.values):
            assert f"    {e.constant(v)} = {i}," in enums_header(), e.constant(v)
    stems = "|".join(e.stem for e in NATIVE_ENUMS)
    defines = re.compile(rf"\b(?:#define\s+)?MJ_(?:{stems})_[A-Z_]+\s*(?:=|\s\(?-?\d)")
    # (below 0 is out of range whatever the order)
    meld_number = re.compile(r"\b(?:type|meld)\s*(?:(?:==|!=|>=|<=|>)\s*\d|<\s*[1-9])")
    sources = [
        *(root / "runtime" / "native").glob("*.[ch]"),
        *(root / "generated" / "native").glob("*.c"),
    ]
    assert len(sources) > 10
    for path in sources:
        if path == header:
            continue
        text = path.read_text("utf-8")
        assert not defines.search(text), (path.name, defines.search(text))
        assert not meld_number.search(text), (path.name, meld_number.search(text))
