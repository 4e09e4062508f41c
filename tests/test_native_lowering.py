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
from mjspec.runtime.registry import load_profile, profile_ids
from mjspec.runtime.scoring import HandError, evaluate
from mjspec.runtime.tiles import parse_tiles

IDS = profile_ids()


class Recorder:
    def __init__(self, profile: Profile) -> None:
        self.builder = nk.ViewBuilder(tuple(p.id for p in profile.patterns), profile)
        self.compared = 0
        self.left = 0
        self.differences: list[str] = []

    def hand(self, what: str, py: Callable[[Any], Any], address: int | None) -> Callable[[Any], Any]:
        if not address:
            return py

        def wrapped(view: Any) -> Any:
            answer = py(view)
            native = nk.call_hand(address, self.builder.view(view))
            self.note(what, answer, native, view)
            return answer

        return wrapped

    def payment(self, what: str, py: Callable[[Any], Any], address: int, names: tuple[str, ...]) -> Callable[[Any], Any]:
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
        result = rec.hand("points.result", points.result, s.points_result) if points.result else None
        points = dataclasses.replace(points, items=tuple(items), result=result)
    names = tuple(n for n, _ in profile.payments.values)
    values = tuple(
        (n, rec.payment(f"value {n}", fn, s.values[i].fn, names[:i])) for i, (n, fn) in enumerate(profile.payments.values)
    )
    ron = tuple((n, rec.payment(f"ron {n}", fn, s.ron[i].fn, names)) for i, (n, fn) in enumerate(profile.payments.ron))
    tsumo = tuple((n, rec.payment(f"tsumo {n}", fn, s.tsumo[i].fn, names)) for i, (n, fn) in enumerate(profile.payments.tsumo))
    payments = dataclasses.replace(profile.payments, values=values, ron=ron, tsumo=tsumo)
    return dataclasses.replace(
        profile, patterns=tuple(patterns), requirements=requirements, points=points, payments=payments, whole_hand_conditions=()
    )


def _situations(rng: random.Random, profile: Profile, ctx: WinContext) -> WinContext:
    """Random situation flags beyond the test kit's, so situational expressions see both answers."""
    fields: dict[str, Any] = {}
    for flag in ("riichi", "ippatsu", "first_draw", "fourth_tile", "is_dealer"):
        if rng.random() < 0.25:
            fields[flag] = True
    if profile.points is not None or any(p.bonus for p in profile.patterns):
        kinds = [t for t in profile.tiles.all_tiles() if not t.is_flower]
        fields["dora_indicators"] = "".join(str(rng.choice(kinds)) for _ in range(rng.randint(0, 3)))
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
        pytest.skip(f"the native engine of {profile_id} was not built (no C compiler at install time)")
    engine = importlib.import_module(f"mjspec.generated.{profile_id}")
    assert module.DIGEST == engine.NATIVE_DIGEST, "the compiled native engine is older than its source: rebuild"
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
            cases.append((random_hand(rng, profile), _situations(rng, profile, random_context(rng, profile))))
    scored = 0
    for hand, ctx in cases:
        try:
            evaluate(wrapped, hand, ctx)
        except HandError:
            continue
        scored += 1
    assert not rec.differences, "\n".join(rec.differences)
    assert scored > 200 and rec.compared > 1000, (scored, rec.compared)
