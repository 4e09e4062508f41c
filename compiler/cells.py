"""Which cells of a points payment table no hand can reach (riichi: 1 han 20 fu, 25 fu ron...).

A payment table of a profile with ``scoring.points`` (riichi's fu) has a row per total and a
column per points value. Some cells name hands the rules cannot make: 20 fu needs a self-drawn
pinfu, which also scores the closed self-draw, so 20 fu starts at 2 han and never wins on a
discard; 25 fu is seven pairs, 2 han, and 3 when self-drawn. The rule documents leave such cells
empty, with a note.

This is worked out from the spec, not written down for a profile: every case of the few facts the
points formulas and the patterns branch on (discard win or self-draw, closed or open, the shape,
and whether each pattern the items ask about with ``counted`` counts) is evaluated abstractly:

- the points of a case are computed over *strided intervals* (every value from ``lo`` to ``hi``
  in steps of ``step``), with a fact the case does not fix read as "either" and any other amount
  as "any number" (a sum of amounts that are never negative is never negative), so the set of
  points a case gives contains every points value a real hand of that case has;
- the total of a case is at least the sum of the patterns the case forces (a pattern whose
  ``when`` the case makes true, at its closed or open value, or one the case assumes counted), at
  most one per pattern group, leaving out patterns another pattern may exclude, and at least the
  win's minimum; a case that forces a limit pattern is no cell of the table.

A cell is empty only when no case reaches its points with a total that low: the sets contain all
that hands can reach, and the totals are lower bounds, so an empty cell is impossible, while a
possible one is never emptied (a cell the analysis cannot rule out stays filled).
"""

from __future__ import annotations

import ast
import itertools
import math
from dataclasses import dataclass
from typing import Mapping

from .ir import ExprIR, PatternIR, ProfileIR

INF = math.inf


@dataclass(frozen=True)
class Span:
    """Every value from ``lo`` to ``hi`` (either may be infinite) in steps of ``step`` (0: the one
    value ``lo``)."""

    lo: float
    hi: float
    step: int = 1

    @staticmethod
    def of(value: int) -> "Span":
        return Span(value, value, 0)

    def holds(self, value: int) -> bool:
        if not self.lo <= value <= self.hi:
            return False
        if self.step == 0:
            return value == self.lo
        return math.isinf(self.lo) or (value - int(self.lo)) % self.step == 0


ANY = Span(-INF, INF, 1)


def _gcd(*values: float) -> int:
    out = 0
    for v in values:
        if not math.isinf(v):
            out = math.gcd(out, int(abs(v)))
    return out


def union(a: Span, b: Span) -> Span:
    lo, hi = min(a.lo, b.lo), max(a.hi, b.hi)
    step = _gcd(a.step, b.step, a.lo - b.lo) if not math.isinf(lo) else 1
    return Span(lo, hi, step if lo != hi else 0)


def _add(a: Span, b: Span) -> Span:
    return Span(a.lo + b.lo, a.hi + b.hi, _gcd(a.step, b.step))


def _mul(a: Span, b: Span) -> Span:
    if a.step == 0 and not math.isinf(a.lo) and a.lo >= 0 and b.lo >= 0:  # k × x, k ≥ 0
        return Span(a.lo * b.lo, a.lo * b.hi if a.lo else 0, int(a.lo) * b.step)
    if b.step == 0 and not math.isinf(b.lo) and b.lo >= 0 and a.lo >= 0:
        return _mul(b, a)
    if a.lo >= 0 and b.lo >= 0:
        return Span(a.lo * b.lo, a.hi * b.hi if a.hi and b.hi else 0, 1)
    return ANY


def _floordiv(a: Span, k: int) -> Span:
    lo = a.lo if math.isinf(a.lo) else a.lo // k
    hi = a.hi if math.isinf(a.hi) else a.hi // k
    return Span(lo, hi, 0 if lo == hi else 1)


def _at_least(a: Span, floor: float) -> Span:
    """``a``'s values, the least raised to ``floor`` (for max: max(x, y) is one of them, never
    below either)."""
    if a.lo >= floor:
        return a
    if a.step == 0 or math.isinf(a.lo):
        return Span(max(a.lo, floor), a.hi, a.step if not math.isinf(a.lo) else 1)
    lo = a.lo + math.ceil((floor - a.lo) / a.step) * a.step
    return Span(lo, a.hi, a.step if lo < a.hi else 0)


@dataclass(frozen=True)
class Case:
    """One combination of the facts the formulas branch on."""

    tsumo: bool
    closed: bool
    shape: str
    counted: tuple[tuple[str, bool], ...]


class _Eval:
    """Evaluates one case: booleans as True, False or None (either), numbers as spans."""

    def __init__(self, case: Case, points: Span | None = None) -> None:
        self.facts: dict[str, object] = {
            "tsumo": case.tsumo,
            "ron": not case.tsumo,
            "is_closed": case.closed,
            "shape": case.shape,
        }
        self.counted = dict(case.counted)
        self.points = points

    def truth(self, node: ast.expr) -> bool | None:
        if isinstance(node, ast.Name):
            value = self.facts.get(node.id)
            return value if isinstance(value, bool) else None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = self.truth(node.operand)
            return None if inner is None else not inner
        if isinstance(node, ast.BoolOp):
            values = [self.truth(v) for v in node.values]
            if isinstance(node.op, ast.And):
                return False if False in values else (True if all(values) else None)
            return True if True in values else (False if all(v is False for v in values) else None)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "counted" and node.args and isinstance(node.args[0], ast.Constant):
                return self.counted.get(str(node.args[0].value))
            return None
        if (
            isinstance(node, ast.Compare)
            and len(node.ops) == 1
            and isinstance(node.left, ast.Name)
            and node.left.id == "shape"
        ):
            right, op = node.comparators[0], node.ops[0]
            kinds = (
                [right.value]
                if isinstance(right, ast.Constant)
                else (
                    [e.value for e in right.elts if isinstance(e, ast.Constant)]
                    if isinstance(right, (ast.Tuple, ast.List))
                    else None
                )
            )
            if kinds is None:
                return None
            inside = self.facts["shape"] in kinds
            return inside if isinstance(op, (ast.Eq, ast.In)) else not inside
        return None

    def amount(self, node: ast.expr) -> Span:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return Span.of(node.value)
        if isinstance(node, ast.Name) and node.id == "points" and self.points is not None:
            return self.points
        if isinstance(node, ast.IfExp):
            test = self.truth(node.test)
            if test is True:
                return self.amount(node.body)
            if test is False:
                return self.amount(node.orelse)
            return union(self.amount(node.body), self.amount(node.orelse))
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.FloorDiv) and isinstance(node.right, ast.Constant):
                k = node.right.value
                if type(k) is int and k > 0:
                    return _floordiv(self.amount(node.left), k)
                return ANY
            left, right = self.amount(node.left), self.amount(node.right)
            if isinstance(node.op, ast.Add):
                return _add(left, right)
            if isinstance(node.op, ast.Mult):
                return _mul(left, right)
            return ANY
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name, args = node.func.id, node.args
            if name in ("max", "min") and len(args) == 2:
                a, b = self.amount(args[0]), self.amount(args[1])
                if name == "max":
                    return _at_least(union(a, b), max(a.lo, b.lo))
                return Span(min(a.lo, b.lo), min(a.hi, b.hi), union(a, b).step)
            if name == "sum" and len(args) == 1 and isinstance(args[0], ast.GeneratorExp):
                # the loop variable's facts are not the case's: read the element on its own
                element = self.amount(args[0].elt)
                return Span(0, INF, 1) if element.lo >= 0 else ANY
        return ANY


def _parse(expr: ExprIR) -> ast.expr:
    return ast.parse(expr.source, mode="eval").body


def _counted_ids(exprs: list[ExprIR]) -> list[str]:
    out: list[str] = []
    for e in exprs:
        for node in ast.walk(_parse(e)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "counted"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                pid = str(node.args[0].value)
                if pid not in out:
                    out.append(pid)
    return out


def _shapes(ir: ProfileIR) -> list[str]:
    sh = ir.shapes
    return [
        name
        for name, on in (
            ("standard", sh.standard),
            ("seven_pairs", sh.seven_pairs),
            ("thirteen_orphans", sh.thirteen_orphans),
            ("knitted", sh.knitted),
        )
        if on
    ]


def _case_total(ir: ProfileIR, case: Case) -> float | None:
    """The least total a hand of ``case`` scores (None: no such hand makes a table cell)."""
    excludable = {x for p in ir.patterns for x in p.excludes}
    assumed = dict(case.counted)
    by_group: dict[str, float] = {}
    alone = 0.0
    ev = _Eval(case)
    for p in ir.patterns:
        when = True if p.when is None else ev.truth(_parse(p.when))
        if assumed.get(p.id) is True:
            if when is False:
                return None  # assumed counted, but the case rules it out
            when = True
        if when is not True or p.count is not None or p.bonus or p.fallback or p.combine:
            continue
        value = _value_in(p, case.closed)
        if value is None:
            if assumed.get(p.id) is True:
                return None  # a closed-only pattern cannot count in an open hand
            continue
        if p.limit:
            return None  # a limit hand has no points: the table's limit row
        if p.id in excludable:
            continue
        if p.group is not None:
            by_group[p.group] = max(by_group.get(p.group, 0.0), value)
        else:
            alone += value
    floor = ir.minimum.at_least if ir.minimum is not None else 1
    return max(float(floor), alone + sum(by_group.values()))


def _value_in(p: PatternIR, closed: bool) -> float | None:
    """A pattern's value in a closed or open hand (None: it cannot count there); an expression
    value counts as nothing (a lower bound)."""
    value = p.value if closed or p.open_value is None else p.open_value
    if isinstance(value, ExprIR):
        return 0.0
    if value == 0 and not closed:
        return None
    return float(value) if value > 0 else 0.0


def least_totals(ir: ProfileIR) -> Mapping[tuple[bool, int], float]:
    """For (self-drawn?, points value shown in the tables): the least total a hand with those
    points can have (infinite: none has them)."""
    pts = ir.points
    assert pts is not None
    exprs = [e for it in pts.items for e in (it.value, it.when) if isinstance(e, ExprIR)]
    if pts.result is not None:
        exprs.append(pts.result)
    counted_ids = _counted_ids(exprs)
    out: dict[tuple[bool, int], float] = {}
    for tsumo, closed, shape, flags in itertools.product(
        (False, True),
        (True, False),
        _shapes(ir),
        itertools.product((True, False), repeat=len(counted_ids)),
    ):
        if shape in ("seven_pairs", "thirteen_orphans") and not closed:
            continue  # these shapes hold no meld (runtime/shapes.py)
        case = Case(tsumo, closed, shape, tuple(zip(counted_ids, flags)))
        total = _case_total(ir, case)
        if total is None:
            continue
        points = _points(pts, case)
        for shown in pts.shown:
            if points.holds(shown):
                key = (tsumo, shown)
                out[key] = min(out.get(key, INF), total)
    for tsumo in (False, True):
        for shown in pts.shown:
            out.setdefault((tsumo, shown), INF)
    return out


def _points(pts: object, case: Case) -> Span:
    ev = _Eval(case)
    total = Span.of(0)
    for it in pts.items:  # type: ignore[attr-defined]
        when = True if it.when is None else ev.truth(_parse(it.when))
        if when is False:
            continue
        value = Span.of(it.value) if isinstance(it.value, int) else ev.amount(_parse(it.value))
        total = _add(total, value if when is True else union(value, Span.of(0)))
    result = pts.result  # type: ignore[attr-defined]
    if result is None:
        return total
    return _Eval(case, points=total).amount(_parse(result))
