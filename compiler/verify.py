"""Checks the build makes after a spec has compiled: its payment formulas over their whole domain.

A formula can pass the type checker and still fail when it runs (``fan // (fan - fan)`` divides by
zero, ``2 ** (fan - 10)`` has a negative exponent, ``((fan + 2) ** 64) ** 64`` is refused by
``bounded_pow``). ``mjspec validate`` and ``mjspec build`` both call :func:`compile_profile`, so a
spec that validates also builds, and each failure is reported as ``file:line: path: message``.

The domain of a payment formula is every value its inputs can take, within the sensible ranges
below (the schema bounds ``scoring.cap`` to the same range, so the check and the rule documents
never run long):

- ``fan`` 0..MAX_FAN (or one past ``scoring.cap`` if higher), ``capped`` with it (``min(fan,
  cap)``);
- ``points`` 0..MAX_POINTS when the profile has ``scoring.points``, else 0; ``limit`` true
  (with points 0) only where a limit pattern exists;
- ``honba`` 0..MAX_HONBA; ``dealer`` both ways; ``tsumo``/``ron`` as the block says;
- each game option a formula reads at its default and its other values (a bool both ways, a
  number option at its minimum and maximum);
- a named value (``payments.values``) over the set of values it takes on that domain.

Each formula is evaluated over the product of the inputs it reads, not all of them, so the
check stays fast (about 0.1 s per profile); a formula reading so many inputs that the product
passes MAX_COMBINATIONS is refused as too large to check.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Sequence

from mjspec.runtime.options import OptionSpec, OptionType
from mjspec.runtime.profile import Profile
from mjspec.runtime.view import PaymentView

from .check import check
from .cache import Memo
from .emit import format_python, render_engine_raw
from .fused import WholeHandLayout, whole_hand_layout
from .native import NativeModule, render_native
from .errors import Location, SpecError, SpecErrors
from .ir import AmountIR, ProfileIR
from .render import load_engine_module, render_rule_documents
from .share import definitions, share
from .resolve import Resolved

#: The highest hand total a payment formula is checked at (no rule book's hand reaches 200 fan).
MAX_FAN = 200
#: The highest hand points (riichi fu, classical basic points) a payment formula is checked at.
MAX_POINTS = 300
#: The most repeat counters (honba) a payment formula is checked at.
MAX_HONBA = 100
#: No payment may exceed this many points: an amount past it is a runaway formula.
MAX_AMOUNT = 10**12
#: A formula whose inputs take more combinations than this is refused as too large to check.
MAX_COMBINATIONS = 400_000

_OPTION_CALL = re.compile(r"option_\w+\(\s*['\"]([A-Za-z][A-Za-z0-9_]*)['\"]")


@dataclass(frozen=True)
class Compiled:
    """A profile that passed every check: its IR, its engine module's source, and its native
    engine's C source (None when the lowering cannot take it: ``python_only`` says where and
    why)."""

    ir: ProfileIR
    source: str
    engine: Profile
    native: str | None = None
    python_only: str | None = None
    whole: str = ""
    """The engine module's unformatted text written whole (what a child's module is compared
    with)."""
    defined_in: Mapping[str, str] = field(default_factory=dict)
    """Where each predicate and mask of the module is defined: this profile's module or an
    ancestor's."""
    modules: Mapping[str, ModuleType] = field(default_factory=dict)
    """The engine modules this one imports and itself, as this build made them, by profile id."""
    native_module: NativeModule | None = None
    """What the native engine holds (for the native engine of a profile extending this one)."""
    native_digest: str | None = None
    whole_hand: WholeHandLayout | None = None
    """Its whole-hand functions and their bits (compiler/fused.py), which a profile extending this
    one keeps."""


def compile_profile(
    resolved: Resolved,
    expected_id: str | None = None,
    memo: Memo | None = None,
    parent: "Compiled | None" = None,
    formatted: bool = True,
) -> Compiled:
    """Check ``resolved``, render its engines and check its formulas; raise :class:`SpecErrors`.

    With ``parent`` (the compiled profile ``resolved`` extends) the engine module states only what
    it changes and imports the rest from the parent's (compiler/share.py); without, it is whole.
    ``memo`` keeps black's results between builds (compiler/cache.py). ``formatted=False`` leaves
    black out: the engine runs the same text unformatted (black changes only layout), for callers
    that load the engine but write no file (``mjspec validate``, a folder loaded from Python)."""
    ir = check(resolved, expected_id=expected_id)
    if parent is not None and parent.ir.id != ir.extends:
        parent = None
    native_parent = None
    if parent is not None and parent.native_module is not None and parent.native_digest is not None:
        native_parent = (parent.native_module, parent.native_digest)
    native, digest_or_why, native_module = render_native(ir, native_parent)
    digest = digest_or_why if native is not None else None
    layout = whole_hand_layout(ir, parent.whole_hand if parent is not None else None)
    whole = render_engine_raw(ir, digest, layout=layout)
    raw, defined_in = whole, {name: ir.id for name in definitions(whole)}
    modules: dict[str, ModuleType] = {}
    if parent is not None:
        shared = share(
            render_engine_raw(ir, digest, shares=parent.ir.id, layout=layout),
            parent.whole,
            parent.ir.id,
            parent.defined_in,
            ir.id,
        )
        if shared is not None:
            raw, defined_in = shared.raw, dict(shared.defined_in)
            modules.update(parent.modules)
    source = format_python(raw, memo) if formatted else raw
    module = load_engine_module(source, ir.id, modules)
    engine = module.PROFILE
    if not isinstance(engine, Profile):
        raise TypeError(f"the engine of {ir.id} defines no PROFILE")
    modules[ir.id] = module
    errors = payment_domain_errors(ir, engine)
    if errors:
        raise SpecErrors.of(errors)
    why = None if native is not None else digest_or_why
    return Compiled(
        ir, source, engine, native, why, whole, defined_in, modules, native_module, digest, layout
    )


def document_errors(
    compiled: Sequence[Compiled], rules_dir: Path, locale: Path | None = None
) -> tuple[dict[Path, str], list[SpecError]]:
    """Render the rule documents of ``compiled`` (the build's last step) and return files and
    errors.

    A formula the document evaluates outside the checked domain would raise here; it becomes a
    spec error at the profile's file rather than a traceback.
    """
    try:
        return render_rule_documents(
            [c.ir for c in compiled], {c.ir.id: c.engine for c in compiled}, rules_dir, locale
        )
    except (ArithmeticError, ValueError) as e:
        where = Location(compiled[0].ir.spec_file, 1) if compiled else None
        return {}, [
            SpecError(f"the rule document cannot be computed: {type(e).__name__}: {e}", where)
        ]


#: :func:`payment_domain_errors`' answers in this process, by everything they are a function of.
_DOMAIN_CHECKED: dict[tuple[Any, ...], tuple[SpecError, ...]] = {}
#: How many answers :data:`_DOMAIN_CHECKED` keeps (a build holds a few profiles at a time).
_DOMAIN_KEPT = 64


def payment_domain_errors(ir: ProfileIR, engine: Profile) -> list[SpecError]:
    """Evaluate every payment formula of ``engine`` over its domain; one error per failing
    formula.

    The answer is a function of the payment blocks (each formula's compiled Python, its text and
    where it stands), the domain's bounds (cap, points, limit patterns) and the options the
    formulas may read with their defaults: the engine's payment functions are made from exactly
    these. So a profile whose payments another one of this process already checked (a house rule
    that changes only patterns, a child that inherits its parent's payments) is answered from
    :data:`_DOMAIN_CHECKED` instead of running the same formulas over the same domain again.
    """
    key = (
        ir.payment_values,
        ir.payment_ron,
        ir.payment_tsumo,
        any(p.limit for p in ir.patterns),
        ir.cap,
        ir.points is not None,
        repr(engine.options),
        repr(sorted(engine.option_values.as_dict().items())),
    )
    known = _DOMAIN_CHECKED.get(key)
    if known is None:
        known = tuple(_payment_domain_errors(ir, engine))
        if len(_DOMAIN_CHECKED) >= _DOMAIN_KEPT:
            _DOMAIN_CHECKED.pop(next(iter(_DOMAIN_CHECKED)))
        _DOMAIN_CHECKED[key] = known
    return list(known)


def _payment_domain_errors(ir: ProfileIR, engine: Profile) -> list[SpecError]:
    has_limit = any(p.limit for p in ir.patterns)
    fan_top = max(MAX_FAN, (ir.cap or 0) + 1)
    fans = range(fan_top + 1)
    points = range(MAX_POINTS + 1) if ir.points is not None else range(1)

    def axes_of(reads: frozenset[str]) -> list[tuple[tuple[str, ...], list[tuple[Any, ...]]]]:
        """The inputs ``reads`` names, as axes of joint values: fan moves with capped, points
        with limit (a limit hand has no points); an input not read stays at its default."""
        out: list[tuple[tuple[str, ...], list[tuple[Any, ...]]]] = []
        cap = ir.cap
        if "fan" in reads and "capped" in reads:
            out.append((("fan", "capped"), [(f, f if cap is None else min(f, cap)) for f in fans]))
        elif "fan" in reads:
            out.append((("fan",), [(f,) for f in fans]))
        elif "capped" in reads:
            out.append(
                (("capped",), [(c,) for c in range((cap if cap is not None else fan_top) + 1)])
            )
        limits = [False, True] if has_limit else [False]
        if "points" in reads and "limit" in reads:
            out.append(
                (
                    ("points", "limit"),
                    [(p, False) for p in points] + ([(0, True)] if has_limit else []),
                )
            )
        elif "points" in reads:
            out.append((("points",), [(p,) for p in points]))
        elif "limit" in reads:
            out.append((("limit",), [(x,) for x in limits]))
        if "dealer" in reads:
            out.append((("dealer",), [(False,), (True,)]))
        if "honba" in reads:
            out.append((("honba",), [(h,) for h in range(MAX_HONBA + 1)]))
        return out

    options = {o.name: o for o in engine.options}
    defaults = engine.option_values.as_dict()
    functions = {name: fn for name, fn in engine.payments.values}
    errors: list[SpecError] = []
    named: dict[str, list[int]] = {}
    blocks: list[tuple[AmountIR, Callable[[PaymentView], int], tuple[bool, ...]]] = []
    for amount in ir.payment_values:
        blocks.append((amount, functions[amount.name], (False, True)))
    ron = dict(engine.payments.ron)
    tsumo = dict(engine.payments.tsumo)
    for amount in ir.payment_ron:
        blocks.append((amount, ron[amount.name], (False,)))
    for amount in ir.payment_tsumo:
        blocks.append((amount, tsumo[amount.name], (True,)))
    for amount, fn, wins in blocks:
        path = ("payments", "values" if amount.kind == "value" else amount.kind, amount.name)
        reads = amount.expr.names
        if any(n in functions and n not in named for n in reads):
            continue  # reads a named value that failed its own check (reported there)
        option_names = sorted(
            o for o in set(_OPTION_CALL.findall(amount.expr.source)) if o in options
        )
        axes = axes_of(reads)
        axes += [((v,), [(x,) for x in named[v]]) for v in sorted(reads) if v in named]
        axes += [
            ((f"option {o}",), [(x,) for x in _option_values(options[o], defaults[o])])
            for o in option_names
        ]
        axes.append((("tsumo",), [(w,) for w in (wins if {"tsumo", "ron"} & reads else wins[:1])]))
        size = 1
        for _, axis in axes:
            size *= len(axis)
        if size > MAX_COMBINATIONS:
            errors.append(
                SpecError(
                    f"in expression {amount.expr.source!r}: its inputs take {size} "
                    "combinations, more than the "
                    f"{MAX_COMBINATIONS} this check evaluates; split it into named values "
                    "under payments.values",
                    amount.expr.location,
                    path,
                )
            )
            continue
        seen: set[int] = set()
        failure = _evaluate(fn, axes, defaults, seen)
        if failure is not None:
            errors.append(
                SpecError(
                    f"in expression {amount.expr.source!r}: {failure}", amount.expr.location, path
                )
            )
            continue
        if amount.kind == "value":
            named[amount.name] = sorted(seen)
    return errors


def _option_values(spec: OptionSpec, default: Any) -> list[Any]:
    if spec.type is OptionType.BOOL:
        return [default, not default]
    if spec.type is OptionType.SCORE:
        return [default]
    out = [default]
    for bound in (spec.minimum if spec.minimum is not None else 0, spec.maximum):
        if bound is not None and bound not in out:
            out.append(bound)
    return out


def _evaluate(
    fn: Callable[[PaymentView], int],
    axes: list[tuple[tuple[str, ...], list[tuple[Any, ...]]]],
    defaults: dict[str, Any],
    seen: set[int],
) -> str | None:
    """Run ``fn`` over every combination of ``axes``; the first failure described, or None."""
    names = [n for keys, _ in axes for n in keys]
    pv = PaymentView(0, 0, False, False, options=dict(defaults))
    options: dict[str, Any] = pv._options  # type: ignore[assignment]
    # Each axis value as the assignments it makes; a combination sets only the axes that changed
    # since the one before (the last axis changes every time, the first seldom).
    steps = [
        [
            (
                values,
                [(k, v) for k, v in zip(keys, values) if not k.startswith("option ")],
                [(k[7:], v) for k, v in zip(keys, values) if k.startswith("option ")],
            )
            for values in axis
        ]
        for keys, axis in axes
    ]
    last: list[object] = [None] * len(steps)
    for combo in itertools.product(*steps):
        for k, step in enumerate(combo):
            if step is not last[k]:
                last[k] = step
                for name, value in step[1]:
                    setattr(pv, name, value)
                for name, value in step[2]:
                    options[name] = value
        pv.ron = not pv.tsumo
        try:
            result = fn(pv)
        except (ArithmeticError, ValueError, TypeError) as e:
            flat = [x for step in combo for x in step[0]]
            return f"{type(e).__name__}: {e} (at {_describe(names, flat)})"
        if abs(result) > MAX_AMOUNT:
            flat = [x for step in combo for x in step[0]]
            return (
                f"gives {result}, beyond any sensible payment (at most {MAX_AMOUNT}) (at "
                f"{_describe(names, flat)})"
            )
        seen.add(result)
    return None


def _describe(names: list[str], values: list[Any]) -> str:
    return ", ".join(
        name if name == "tsumo" and value else "ron" if name == "tsumo" else f"{name}={value}"
        for name, value in zip(names, values)
    )
