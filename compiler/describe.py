"""Formulas in words: a checked spec expression as a reader of the rule documents reads it.

The rule documents show every formula a reader meets (pattern values, point items and their
conditions, the points' result, payments) in the document's language, never as code. This module
reads the expression's syntax tree (the spec text the expression compiler checked) and words each
form it knows with messages of the catalogs (``compiler/locale/<lang>.po``): numbers and
arithmetic signs, conditions, the lower or higher of two amounts, rounding, sums and "every"
over the hand's groups, the vocabulary's names and the group's attributes.

A form it has no wording for is an error (:class:`FormulaError`, at the expression's place in the
spec), never code in a document: a new vocabulary name or a new kind of expression needs its
wording here and in the catalogs before a document can show it.
"""

from __future__ import annotations

import ast
from typing import Callable, Mapping

from .errors import SpecError
from .ir import ExprIR


def N_(msgid: str, context: str = "") -> tuple[str, str]:
    """Mark a message for the catalogs (gettext's ``N_``; render.py reads this module's too)."""
    return (context, msgid)


class FormulaError(SpecError):
    """An expression the rule documents cannot put into words."""


class _Unworded(Exception):
    def __init__(self, node: ast.AST, why: str) -> None:
        super().__init__(why)
        self.node = node
        self.why = why


#: True-or-false names of the hand and payment vocabularies: (when true, when false).
_FLAGS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "dealer": (N_("the winner is the dealer"), N_("the winner is not the dealer")),
    "limit": (N_("a limit pattern counts"), N_("no limit pattern counts")),
    "tsumo": (N_("the win is a self-draw"), N_("the win is not a self-draw")),
    "ron": (N_("the win is on a discard"), N_("the win is not on a discard")),
    "is_closed": (N_("the hand is closed"), N_("the hand is open")),
    "winner": (N_("the hand is the winner's"), N_("the hand is a loser's")),
    "after_kong": (
        N_("the win is on a kong's replacement tile"),
        N_("the win is not on a kong's replacement tile"),
    ),
    "only_live_wait": (
        N_("the winning tile was the only kind still live that completed the hand"),
        N_("another live kind would also have completed the hand"),
    ),
}

#: Number-valued names: their meaning.
_AMOUNTS: dict[str, tuple[str, str]] = {
    "honba": N_("the honba count"),
    "flowers": N_("the number of flowers and seasons the winner exposed"),
    "own_bonus": N_("the number of the player's own flower and season exposed"),
    "bonus_sets": N_("the number of complete sets of four flowers or four seasons"),
}

#: A group's true-or-false attributes; ``{subject}`` is the group ("it", "the pair").
_ATTRIBUTES: dict[str, tuple[str, str]] = {
    "is_triplet": N_("{subject} is a triplet or kong"),
    "is_kong": N_("{subject} is a kong"),
    "is_claimed_kong": N_("{subject} is a kong made from a discard"),
    "is_sequence": N_("{subject} is a sequence"),
    "is_pair": N_("{subject} is the pair"),
    "is_dragon": N_("{subject} is of a dragon"),
    "is_wind": N_("{subject} is of a wind"),
    "is_honor": N_("{subject} is of an honor"),
    "concealed": N_("{subject} is concealed"),
    "has_terminal_or_honor": N_("{subject} holds a terminal or an honor"),
    "is_terminal_or_honor_group": N_("{subject} is of terminals or honors only"),
}

#: The hand's lists of groups, as the collection a sum or "every" runs over.
_COLLECTIONS: dict[str, tuple[str, str]] = {
    "sets": N_("set of the hand (sequence, triplet or kong)"),
    "groups": N_("group of the hand, the pair included"),
    "melds": N_("declared meld"),
}

#: ``shape == '...'`` and ``wait == '...'``: the hand's shape, the kind of wait.
_SHAPES: dict[str, tuple[str, str]] = {
    "standard": N_("four groups and a pair"),
    "seven_pairs": N_("seven pairs"),
    "thirteen_orphans": N_("thirteen orphans"),
    "knitted": N_("knitted shapes"),
}
_WAITS: dict[str, tuple[str, str]] = {
    "edge": N_("an edge wait"),
    "closed": N_("a closed wait"),
    "single": N_("a single wait on the pair"),
    "open": N_("an open wait on both sides"),
    "pair": N_("a wait on either of two pairs"),
}
_WINDS: dict[str, tuple[str, str]] = {
    "seat_wind": N_("the seat wind"),
    "round_wind": N_("the round wind"),
}

_ARITHMETIC: dict[type, tuple[str, int]] = {
    ast.Add: ("+", 5),
    ast.Sub: ("\u2212", 5),
    ast.Mult: ("\u00d7", 6),
}
_COMPARISON: dict[type, str] = {
    ast.Eq: "=",
    ast.NotEq: "\u2260",
    ast.Lt: "<",
    ast.LtE: "\u2264",
    ast.Gt: ">",
    ast.GtE: "\u2265",
}


class Describer:
    """Words the expressions of one profile in one language.

    ``tr`` is the document's translator (a callable returning composed text, with ``marked`` and
    ``join``); ``wrap`` makes composed text of a plain string (render.py's ``Md``), ``escape``
    escapes a spec string for it. ``unit`` is the total's unit ("han"), ``points_unit`` the
    second count's ("fu", or None), ``named`` the payment amounts the spec names (``base``),
    shown as terms, and ``pattern_name`` a pattern's name in the document's language.
    """

    def __init__(
        self,
        tr: Callable[..., str],
        wrap: Callable[[str], str],
        escape: Callable[[str], str],
        *,
        unit: str,
        points_unit: str | None,
        named: Mapping[str, str],
        pattern_name: Callable[[str], str],
    ) -> None:
        self._ = tr
        self.wrap = wrap
        self.escape = escape
        self.unit = unit
        self.points_unit = points_unit
        self.named = dict(named)
        self.pattern_name = pattern_name

    # -- the entry points --

    def value(self, expr: ExprIR, *, result: bool = False) -> str:
        """A number-valued expression in words (``result``: the points' result formula, where
        ``points`` is the sum of the items)."""
        return self._read(expr, lambda tree: self._v(tree, 0, {}, result))

    def condition(self, expr: ExprIR) -> str:
        """A true-or-false expression in words."""
        return self._read(expr, lambda tree: self._c(tree, {}))

    def _read(self, expr: ExprIR, read: Callable[[ast.expr], str]) -> str:
        try:
            tree = ast.parse(expr.source, mode="eval").body
        except SyntaxError as e:  # the checker parsed it; a document never shows what it did not
            raise FormulaError(f"cannot read the expression {expr.source!r}: {e}", expr.location)
        try:
            return read(tree)
        except _Unworded as e:
            raise FormulaError(
                f"the rule documents cannot put {ast.unparse(e.node)!r} (in {expr.source!r}) "
                f"into words: {e.why}; add its wording to compiler/describe.py and the catalogs",
                expr.location,
            ) from None

    # -- pieces --

    def _m(self, message: tuple[str, str], **values: object) -> str:
        return self._.marked(message, **values)  # type: ignore[attr-defined,no-any-return]

    def _subject(self, node: ast.expr, scope: Mapping[str, str]) -> str:
        if isinstance(node, ast.Name) and node.id in scope:
            return scope[node.id]
        if isinstance(node, ast.Name) and node.id == "pair":
            return self._("the pair", context="subject")
        raise _Unworded(node, "no wording for this group")

    def _name(self, node: ast.Name, result: bool) -> str:
        _ = self._
        name = node.id
        if name == "fan":
            return self.unit
        if name == "capped":
            return _("the capped {unit}", unit=self.unit)
        if name == "points":
            if result:
                return _("the sum of the items")
            if self.points_unit is not None:
                return self.points_unit
            return _("the points")
        if name in self.named:
            return self.named[name]
        if name in _AMOUNTS:
            return self._m(_AMOUNTS[name])
        raise _Unworded(node, f"no wording for the name {name!r}")

    def _v(self, node: ast.expr, outer: int, scope: Mapping[str, str], result: bool) -> str:
        """A number-valued node; bracketed when it binds looser than ``outer`` (0 loosest, 9 an
        atom)."""
        _ = self._
        own = 9
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, int)
            and not isinstance(node.value, bool)
        ):
            return self.wrap(str(node.value))
        if isinstance(node, ast.Name):
            return self._name(node, result)
        if isinstance(node, ast.IfExp):
            chain: list[tuple[ast.expr, ast.expr]] = []
            last: ast.expr = node
            while isinstance(last, ast.IfExp):  # a if p else b if q else c: one list of cases
                chain.append((last.body, last.test))
                last = last.orelse
            cases = [(self._v(v, 1, scope, result), self._c(c, scope)) for v, c in chain]
            other = self._v(last, 1, scope, result)
            if len(cases) == 1:
                text = _(
                    "{value} if {condition}, otherwise {other}",
                    value=cases[0][0],
                    condition=cases[0][1],
                    other=other,
                )
            else:
                listed = [_("{value} if {condition}", value=v, condition=c) for v, c in cases]
                text = _.join(  # type: ignore[attr-defined]
                    [*listed, _("otherwise {other}", other=other)], clauses=True
                )
            own = 0
        elif isinstance(node, ast.BinOp):
            text, own = self._binop(node, scope, result)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            text, own = self.wrap(f"\u2212{self._v(node.operand, 7, scope, result)}"), 7
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            text, own = self._call(node, scope, result)
        else:
            raise _Unworded(node, "no wording for this kind of amount")
        return self.wrap(f"({text})") if own < outer else text

    def _binop(self, node: ast.BinOp, scope: Mapping[str, str], result: bool) -> tuple[str, int]:
        _ = self._
        rounded = self._rounded_up(node, scope, result)
        if rounded is not None:
            return rounded, 0
        if isinstance(node.op, ast.Pow):
            base, power = self._v(node.left, 9, scope, result), self._v(
                node.right, 9, scope, result
            )
            if not isinstance(node.right, (ast.Name, ast.Constant)) and not power.startswith("("):
                power = self.wrap(f"({power})")  # 2^(the lower of fan and 3)
            return self.wrap(f"{base}^{power}"), 8
        if isinstance(node.op, ast.FloorDiv):
            left, right = self._v(node.left, 6, scope, result), self._v(
                node.right, 7, scope, result
            )
            return _("{amount} \u00f7 {divisor}, rounded down", amount=left, divisor=right), 0
        if type(node.op) in _ARITHMETIC:
            sign, own = _ARITHMETIC[type(node.op)]
            left = self._v(node.left, own, scope, result)
            right = self._v(node.right, own + 1, scope, result)
            return self.wrap(f"{left} {sign} {right}"), own
        raise _Unworded(node, "no wording for this operator")

    def _rounded_up(self, node: ast.BinOp, scope: Mapping[str, str], result: bool) -> str | None:
        """``(x + k - 1) // k * k``: x rounded up to a multiple of k (riichi's payments, fu)."""
        inner = node.left
        if not (
            isinstance(node.op, ast.Mult)
            and isinstance(node.right, ast.Constant)
            and isinstance(inner, ast.BinOp)
            and isinstance(inner.op, ast.FloorDiv)
            and isinstance(inner.right, ast.Constant)
            and isinstance(inner.left, ast.BinOp)
            and isinstance(inner.left.op, ast.Add)
            and isinstance(inner.left.right, ast.Constant)
        ):
            return None
        step, divisor, less = node.right.value, inner.right.value, inner.left.right.value
        if not (isinstance(step, int) and step == divisor and less == step - 1):
            return None
        amount = self._v(inner.left.left, 1, scope, result)
        return self._("{amount}, rounded up to a multiple of {step}", amount=amount, step=step)

    def _option(self, node: ast.Call) -> str:
        if (
            len(node.args) == 1
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            return self._("option “{option}”", option=node.args[0].value)
        raise _Unworded(node, "an option is read by its name")

    def _call(self, node: ast.Call, scope: Mapping[str, str], result: bool) -> tuple[str, int]:
        _ = self._
        assert isinstance(node.func, ast.Name)
        name = node.func.id
        if name in ("min", "max") and len(node.args) == 2:
            first = self._v(node.args[0], 1, scope, result)
            second = self._v(node.args[1], 1, scope, result)
            if name == "min":
                return _("the lower of {first} and {second}", first=first, second=second), 0
            return _("the higher of {first} and {second}", first=first, second=second), 0
        if name == "option_value":
            return _("the value of {option}", option=self._option(node)), 9
        if name == "option_points":
            return _("the points of {option}", option=self._option(node)), 9
        if name == "option_doubles":
            return _("the doubles of {option}", option=self._option(node)), 9
        if name == "sum" and len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp):
            item, inner, condition = self._over(node.args[0], scope)
            value = self._v(node.args[0].elt, 1, inner, result)
            if condition is None:
                return _("the sum, over each {item}, of {value}", item=item, value=value), 0
            return (
                _(
                    "the sum, over each {item} where {condition}, of {value}",
                    item=item,
                    condition=condition,
                    value=value,
                ),
                0,
            )
        raise _Unworded(node, f"no wording for the function {name!r} used this way")

    def _over(
        self, gen: ast.GeneratorExp, scope: Mapping[str, str]
    ) -> tuple[str, dict[str, str], str | None]:
        """A generator over one of the hand's group lists: the collection's word, the scope with
        the loop variable as "it", and the filter's words (None without one)."""
        if len(gen.generators) != 1:
            raise _Unworded(gen, "one loop over the hand's groups is worded, not several")
        loop = gen.generators[0]
        if not (
            isinstance(loop.target, ast.Name)
            and isinstance(loop.iter, ast.Name)
            and loop.iter.id in _COLLECTIONS
            and not loop.is_async
        ):
            raise _Unworded(gen, "a loop is worded over the hand's sets, groups or melds")
        inner = {**scope, loop.target.id: self._("it", context="subject")}
        condition = None
        if loop.ifs:
            parts = [self._c(test, inner) for test in loop.ifs]
            condition = parts[0]
            for part in parts[1:]:
                condition = self._("{left} and {right}", left=condition, right=part)
        return self._m(_COLLECTIONS[loop.iter.id]), inner, condition

    # -- conditions --

    def _c(self, node: ast.expr, scope: Mapping[str, str], negated: bool = False) -> str:
        """A true-or-false node in words (``negated``: the words of its opposite)."""
        _ = self._
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self._c(node.operand, scope, not negated)
        if isinstance(node, ast.Name) and node.id in _FLAGS:
            return self._m(_FLAGS[node.id][1 if negated else 0])
        if isinstance(node, ast.Attribute) and node.attr in _ATTRIBUTES:
            subject = self._subject(node.value, scope)
            text = self._m(_ATTRIBUTES[node.attr], subject=subject)
            return _("not: {condition}", condition=text) if negated else text
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            return self._c_call(node, scope, negated)
        if isinstance(node, ast.BoolOp):
            values = _without_implied(node)
            if len(values) == 1:
                return self._c(values[0], scope, negated)
            # not (a and b) reads "a and b" under one "not"; an inner and/or keeps its brackets
            parts = [
                (
                    self.wrap(f"({self._c(v, scope)})")
                    if isinstance(v, ast.BoolOp)
                    else self._c(v, scope)
                )
                for v in values
            ]
            out = parts[0]
            for part in parts[1:]:
                if isinstance(node.op, ast.And):
                    out = _("{left} and {right}", left=out, right=part)
                else:
                    out = _("{left} or {right}", left=out, right=part)
            return _("not: {condition}", condition=out) if negated else out
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            text = self._compare(node, scope)
            return _("not: {condition}", condition=text) if negated else text
        raise _Unworded(node, "no wording for this kind of condition")

    def _c_call(self, node: ast.Call, scope: Mapping[str, str], negated: bool) -> str:
        _ = self._
        assert isinstance(node.func, ast.Name)
        name = node.func.id
        if name == "option_on":
            option = self._option(node)
            return (
                _("{option} is off", option=option)
                if negated
                else _("{option} is on", option=option)
            )
        if name == "option_limit":
            text = _("{option} is the limit", option=self._option(node))
        elif name == "counted" and len(node.args) == 1:
            arg = node.args[0]
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                raise _Unworded(node, "a pattern is named by its id")
            pattern = self.escape(self.pattern_name(arg.value))
            if negated:
                return _("{pattern} does not count", pattern=pattern)
            return _("{pattern} counts", pattern=pattern)
        elif name == "concealed_at_win" and len(node.args) == 1:
            subject = self._subject(node.args[0], scope)
            if negated:
                return _("{subject} is exposed at the win", subject=subject)
            return _("{subject} is concealed at the win", subject=subject)
        elif name == "all" and len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp):
            item, inner, condition = self._over(node.args[0], scope)
            what = self._c(node.args[0].elt, inner)
            if condition is not None:
                text = _(
                    "for each {item} where {condition}: {what}",
                    item=item,
                    condition=condition,
                    what=what,
                )
            else:
                text = _("for each {item}: {what}", item=item, what=what)
        else:
            raise _Unworded(node, f"no wording for the function {name!r} used this way")
        return _("not: {condition}", condition=text) if negated else text

    def _compare(self, node: ast.Compare, scope: Mapping[str, str]) -> str:
        _ = self._
        op, left, right = node.ops[0], node.left, node.comparators[0]
        # shape == 'seven_pairs', wait == 'single', wait in ('edge', 'closed', 'single')
        if isinstance(left, ast.Name) and left.id in ("shape", "wait"):
            words = _SHAPES if left.id == "shape" else _WAITS
            if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(right, ast.Constant):
                kinds = [right.value]
            elif isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (ast.Tuple, ast.List)):
                kinds = [e.value if isinstance(e, ast.Constant) else None for e in right.elts]
            else:
                raise _Unworded(node, f"{left.id} is compared with a kind, or a list of kinds")
            if any(k not in words for k in kinds):
                raise _Unworded(node, f"no wording for one of the kinds {kinds!r}")
            shown = _.either([self._m(words[str(k)]) for k in kinds])  # type: ignore[attr-defined]
            negative = isinstance(op, (ast.NotEq, ast.NotIn))
            if left.id == "shape":
                if negative:
                    return _("the hand is not {shape}", shape=shown)
                return _("the hand is {shape}", shape=shown)
            if negative:
                return _("the wait is not {wait}", wait=shown)
            return _("the wait is {wait}", wait=shown)
        # pair is None, g.wind is not None, g.wind == seat_wind
        if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(right, ast.Constant):
            if right.value is None and isinstance(left, ast.Name) and left.id == "pair":
                return (
                    _("the hand has a pair")
                    if isinstance(op, ast.IsNot)
                    else _("the hand has no pair")
                )
            if right.value is None and isinstance(left, ast.Attribute) and left.attr == "wind":
                subject = self._subject(left.value, scope)
                if isinstance(op, ast.IsNot):
                    return _("{subject} is of a wind", subject=subject)
                return _("{subject} is not of a wind", subject=subject)
        if (
            isinstance(left, ast.Attribute)
            and left.attr == "wind"
            and isinstance(right, ast.Name)
            and right.id in _WINDS
            and isinstance(op, (ast.Eq, ast.NotEq))
        ):
            subject, wind = self._subject(left.value, scope), self._m(_WINDS[right.id])
            if isinstance(op, ast.NotEq):
                return _("{subject} is not of {wind}", subject=subject, wind=wind)
            return _("{subject} is of {wind}", subject=subject, wind=wind)
        if type(op) in _COMPARISON:
            return self.wrap(
                f"{self._v(left, 5, scope, False)} {_COMPARISON[type(op)]} "
                f"{self._v(right, 5, scope, False)}"
            )
        raise _Unworded(node, "no wording for this comparison")


def _without_implied(node: ast.BoolOp) -> list[ast.expr]:
    """The operands of an ``and`` less each ``x.wind is not None`` that a ``x.wind == ...`` beside
    it implies (a wind equal to the seat wind is a wind): the reader is spared a needless clause."""
    values = list(node.values)
    if not isinstance(node.op, ast.And):
        return values

    def wind_of(v: ast.expr, op: type) -> str | None:
        if (
            isinstance(v, ast.Compare)
            and len(v.ops) == 1
            and isinstance(v.ops[0], op)
            and isinstance(v.left, ast.Attribute)
            and v.left.attr == "wind"
        ):
            return ast.dump(v.left)
        return None

    compared = {wind_of(v, ast.Eq) for v in values} - {None}
    kept = [
        v
        for v in values
        if not (
            wind_of(v, ast.IsNot) in compared
            and isinstance(v, ast.Compare)
            and isinstance(v.comparators[0], ast.Constant)
            and v.comparators[0].value is None
        )
    ]
    return kept or values
