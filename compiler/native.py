"""Lower checked spec expressions to C for the native backend.

The input is the checked Python of :func:`mjspec.compiler.expr.compile_expr`
(before hoisting: C loops over a hand's few groups cost nanoseconds, so the
mask rewrites of ``hoist.py`` are not needed here). That text has passed the
checker, so every name, attribute and call in it is one the vocabulary
declares; this pass recovers each node's type from the same vocabulary and
writes a C expression over ``runtime/native/mjscore.h``'s structs.

Integer arithmetic goes through ``mjexpr.h`` (Python's floor division and
modulo, overflow and division by zero flagged), so a C answer is either the
Python answer or no answer (the request then goes to the Python engine).
Anything this pass cannot express raises :class:`NativeUnsupported`: the
profile is then built for the Python backend only, and the build says where
and why. It never emits a silently different meaning.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Mapping

from mjspec.runtime.native_enums import (
    COMBINE_CODES,
    GROUP_KIND_CODES,
    PICK_CODES,
    PREFER_CODES,
    SHAPE_CODES,
    SUIT_CODES,
    WAIT_CODES,
    WIND_CODES,
)

from . import expr as X
from .vocabulary import (
    COMBINATION_NAMES,
    GROUP,
    GROUP_KIND,
    HAND_NAMES,
    PAYMENT_NAMES,
    POINT_NAMES,
    SHAPE,
    SUIT,
    TILE,
    WAIT,
    WIND,
)

if TYPE_CHECKING:
    from .ir import AmountIR, ExprIR, ProfileIR

__all__ = [
    "NativeUnsupported",
    "Scope",
    "lower",
    "c_string",
    "c_comment",
    "enums_header",
    "situation_header",
]


class NativeUnsupported(Exception):
    """An expression (or a profile feature) the native lowering cannot express."""


#: The native numbering of each vocabulary enum (runtime/native_enums.py, written into mjenums.h),
#: by the enum's vocabulary name.
_NATIVE_ENUM = {
    SUIT.name: SUIT_CODES,
    SHAPE.name: SHAPE_CODES,
    WAIT.name: WAIT_CODES,
    GROUP_KIND.name: GROUP_KIND_CODES,
    WIND.name: WIND_CODES,
}
#: The number of every enum member, by the enum's vocabulary name.
_ENUM_VALUE: dict[str, dict[str, int]] = {name: e.codes for name, e in _NATIVE_ENUM.items()}
#: The C constant of every enum member, by the enum's vocabulary name.
_ENUM_C: dict[str, dict[str, str]] = {
    name: {member: e.constant(member) for member in e.values} for name, e in _NATIVE_ENUM.items()
}
for _enum in (SUIT, SHAPE, WAIT, GROUP_KIND, WIND):
    assert set(_ENUM_VALUE[_enum.name]) == set(_enum.values), _enum.name

#: How a hand-view list reads in C: (items, count, whether the items are pointers).
_LISTS: dict[str, tuple[str, str, bool]] = {
    "groups": ("v->groups", "v->n_groups", True),
    "sets": ("v->sets", "v->n_sets", True),
    "melds": ("v->melds", "v->n_melds", True),
    "members": ("v->members", "v->n_members", True),
    "tiles": ("v->tiles", "v->n_tiles", False),
    "dora_indicators": ("v->dora_indicators", "v->n_dora_indicators", False),
    "ura_indicators": ("v->ura_indicators", "v->n_ura_indicators", False),
}
#: Hand-view names read by other than ``v-><name>``.
_SPECIAL: dict[str, str] = {
    "win_tile": "(&v->win_tile)",
    "a": "v->members[0]",
    "b": "v->members[1]",
    "c": "v->members[2]",
    "d": "v->members[3]",
    # computed on first read (mjexpr.h): most hands never need the formal waits
    "only_wait": "mj_wait_fact(v, &v->only_wait)",
    "only_live_wait": "mj_wait_fact(v, &v->only_live_wait)",
}
#: Names too wide for 64 bits; specs never need them (the hoisting step adds them to Python only).
_WIDE = frozenset({"set_bits", "group_bits"})

_CMP_C = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


@dataclass(frozen=True)
class Scope:
    """What the expressions of one kind may read: the hand (patterns, requirements, point items)
    or a payment formula; with the profile's pattern ids, option names and named payment values."""

    payment: bool
    pattern_ids: tuple[str, ...] = ()
    option_names: tuple[str, ...] = ()
    named_values: tuple[str, ...] = ()

    @property
    def names(self) -> Mapping[str, X.Type]:
        if self.payment:
            out: dict[str, X.Type] = {k: t for k, (t, _) in PAYMENT_NAMES.items()}
            for n in self.named_values:
                out[n] = X.INT
            return out
        out = {k: t for k, (t, _) in HAND_NAMES.items()}
        out.update({k: t for k, (t, _) in COMBINATION_NAMES.items()})
        out.update({k: t for k, (t, _) in POINT_NAMES.items()})
        return out


@dataclass
class _Lowering:
    scope: Scope
    names: Mapping[str, X.Type]
    counter: int = 0
    bound: dict[str, tuple[str, X.Type]] = field(default_factory=dict)

    # -- helpers
    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"_{stem}{self.counter}"

    def fail(self, node: ast.AST, why: str) -> NativeUnsupported:
        return NativeUnsupported(f"{why}: {ast.unparse(node)}")

    # -- entry
    def value(self, node: ast.expr) -> tuple[str, X.Type]:
        """C text and type of ``node``."""
        method = getattr(self, f"lower_{type(node).__name__}", None)
        if method is None:
            raise self.fail(node, f"no native form for {type(node).__name__}")
        out: tuple[str, X.Type] = method(node)
        return out

    def truth(self, node: ast.expr) -> str:
        """``node`` tested for truth as Python does, as a C int."""
        text, typ = self.value(node)
        return self.truth_of(text, typ, node)

    def truth_of(self, text: str, typ: X.Type, node: ast.AST) -> str:
        if typ == X.BOOL:
            return text
        if typ == X.INT:
            return f"(({text}) != 0)"
        if isinstance(typ, X.Optional):
            return f"(({text}) != {'NULL' if isinstance(typ.inner, X.Record) else 'MJ_NONE'})"
        if isinstance(typ, X.Enum):
            return "1"  # an enum member is a non-empty string
        if isinstance(typ, X.ListOf) and isinstance(node, ast.Attribute) and node.attr in _LISTS:
            return f"({_LISTS[node.attr][1]} > 0)"
        if isinstance(typ, X.SetOf):
            return f"(({text}) != 0)"  # a set is a bit mask of its members
        raise self.fail(node, f"no native truth test for {typ.describe()}")

    def int_of(self, node: ast.expr) -> str:
        text, typ = self.value(node)
        if typ not in (X.INT, X.BOOL):
            raise self.fail(node, f"expected an int, got {typ.describe()}")
        return f"((int64_t)({text}))"

    # -- leaves
    def lower_Constant(self, node: ast.Constant) -> tuple[str, X.Type]:
        v = node.value
        if isinstance(v, bool):
            return ("1" if v else "0"), X.BOOL
        if isinstance(v, int):
            if not -(2**62) < v < 2**62:
                raise self.fail(node, "an int constant too large for int64")
            return f"INT64_C({v})", X.INT
        if isinstance(v, str):
            return repr(v), X.STR  # resolved against its enum where compared (see enum_text)
        if v is None:
            return "MJ_NONE", X.NONE
        raise self.fail(node, "a constant of no native type")

    def lower_Name(self, node: ast.Name) -> tuple[str, X.Type]:
        if node.id in self.bound:
            return self.bound[node.id]
        raise self.fail(node, f"unknown name {node.id!r}")

    def lower_Attribute(self, node: ast.Attribute) -> tuple[str, X.Type]:
        if isinstance(node.value, ast.Name) and node.value.id == "v" and "v" not in self.bound:
            name = node.attr
            if name in _WIDE:
                raise self.fail(node, f"{name} is wider than 64 bits")
            typ = self.names.get(name)
            if typ is None:
                raise self.fail(node, f"{name!r} is not in this scope's vocabulary")
            if name in self.scope.named_values:
                return f"v->named[{self.scope.named_values.index(name)}]", typ
            if name in _LISTS:
                return _LISTS[name][0], typ
            if name == "suits":
                return "((uint64_t)v->suits)", typ
            return _SPECIAL.get(name, f"v->{name}"), typ
        base, typ = self.value(node.value)
        record = typ.inner if isinstance(typ, X.Optional) else typ
        if not isinstance(record, X.Record) or node.attr not in record.attrs:
            raise self.fail(node, f"no attribute {node.attr!r} on {typ.describe()}")
        return f"({base})->{node.attr}", record.attrs[node.attr]

    # -- operators
    def lower_BoolOp(self, node: ast.BoolOp) -> tuple[str, X.Type]:
        op = " && " if isinstance(node.op, ast.And) else " || "
        return "(" + op.join(self.truth(v) for v in node.values) + ")", X.BOOL

    def lower_UnaryOp(self, node: ast.UnaryOp) -> tuple[str, X.Type]:
        if isinstance(node.op, ast.Not):
            return f"(!{self.truth(node.operand)})", X.BOOL
        operand = self.int_of(node.operand)
        if isinstance(node.op, ast.USub):
            return f"mj_neg(&v->overflow, {operand})", X.INT
        if isinstance(node.op, ast.UAdd):
            return operand, X.INT
        raise self.fail(node, "no native form for this unary operator")

    def lower_BinOp(self, node: ast.BinOp) -> tuple[str, X.Type]:
        fn = {
            ast.Add: "mj_add",
            ast.Sub: "mj_sub",
            ast.Mult: "mj_mul",
            ast.FloorDiv: "mj_floordiv",
            ast.Mod: "mj_mod",
        }.get(type(node.op))
        if fn is None:
            raise self.fail(node, "no native form for this operator")
        return f"{fn}(&v->overflow, {self.int_of(node.left)}, {self.int_of(node.right)})", X.INT

    def lower_IfExp(self, node: ast.IfExp) -> tuple[str, X.Type]:
        test = self.truth(node.test)
        body, bt = self.value(node.body)
        orelse, ot = self.value(node.orelse)
        typ = bt if bt != X.NONE else ot
        for t, n in ((bt, node.body), (ot, node.orelse)):
            if (
                t not in (X.INT, X.BOOL, X.NONE)
                and not isinstance(t, (X.Enum, X.Optional))
                and t != X.STR
            ):
                raise self.fail(n, f"no native `if` branch of {t.describe()}")
        if bt == X.STR or ot == X.STR:
            raise self.fail(node, "an `if` choosing between texts")
        if {bt, ot} == {X.INT, X.BOOL}:
            typ = X.INT
        return f"(({test}) ? ({body}) : ({orelse}))", typ

    def enum_text(self, text: str, typ: X.Type, other: X.Type, node: ast.AST) -> str:
        """A string constant compared with an enum value becomes that enum's C constant."""
        if typ != X.STR:
            return text
        target = other.inner if isinstance(other, X.Optional) else other
        if not isinstance(target, X.Enum) or target.name not in _ENUM_C:
            raise self.fail(node, "a text compared with something that is not a known enum")
        value = ast.literal_eval(text)
        if value not in _ENUM_C[target.name]:
            raise self.fail(node, f"{value!r} is not a {target.name}")
        return _ENUM_C[target.name][value]

    def lower_Compare(self, node: ast.Compare) -> tuple[str, X.Type]:
        parts: list[str] = []
        left_node: ast.expr = node.left
        right: str
        rt: X.Type
        left, lt = self.value(left_node)
        for op, right_node in zip(node.ops, node.comparators):
            if isinstance(op, (ast.Is, ast.IsNot)):
                none = (
                    "NULL"
                    if isinstance(lt, X.Optional) and isinstance(lt.inner, X.Record)
                    else "MJ_NONE"
                )
                parts.append(f"(({left}) {'==' if isinstance(op, ast.Is) else '!='} {none})")
                right, rt = "MJ_NONE", X.NONE
            elif isinstance(op, (ast.In, ast.NotIn)):
                test = self.membership(left, lt, left_node, right_node)
                parts.append(test if isinstance(op, ast.In) else f"(!{test})")
                right, rt = (
                    "",
                    X.NONE,
                )  # `in` ends a comparison chain in every spec; refuse a longer one
                if op is not node.ops[-1]:
                    raise self.fail(node, "a comparison chain continuing after `in`")
            elif isinstance(right_node, ast.Set) and isinstance(lt, X.SetOf):
                right, rt = self.set_literal(right_node, lt.elem), lt
                parts.append(f"(({left}) {_CMP_C[type(op)]} ({right}))")
            elif isinstance(left_node, ast.Set) and isinstance(op, (ast.Eq, ast.NotEq)):
                right, rt = self.value(right_node)
                if not isinstance(rt, X.SetOf):
                    raise self.fail(node, "a set compared with something that is not a set")
                parts.append(
                    f"(({self.set_literal(left_node, rt.elem)}) {_CMP_C[type(op)]} ({right}))"
                )
            else:
                right, rt = self.value(right_node)
                if isinstance(lt, X.Record) or isinstance(rt, X.Record):
                    raise self.fail(node, "comparing records")
                a = self.enum_text(left, lt, rt, node)
                b = self.enum_text(right, rt, lt, node)
                parts.append(f"(({a}) {_CMP_C[type(op)]} ({b}))")
            left, lt, left_node = right, rt, right_node
        return "(" + " && ".join(parts) + ")", X.BOOL

    def set_literal(self, node: ast.Set, elem: X.Type) -> str:
        """A set of constants as the bit mask of its members (sets of small ints and enums only)."""
        bits = 0
        for elt in node.elts:
            text, typ = self.value(elt)
            if typ == X.STR:
                target = elem.inner if isinstance(elem, X.Optional) else elem
                if not isinstance(target, X.Enum) or target.name not in _ENUM_C:
                    raise self.fail(node, "a set of texts that are not enum members")
                member = ast.literal_eval(text)
                value = _ENUM_VALUE[target.name][member]
            elif (
                isinstance(elt, ast.Constant)
                and isinstance(elt.value, int)
                and not isinstance(elt.value, bool)
            ):
                value = elt.value
            else:
                raise self.fail(node, "a set literal of no constant members")
            if not 0 <= value < 64:
                raise self.fail(node, "a set member outside 0..63")
            bits |= 1 << value
        return f"UINT64_C({bits:#x})"

    def lower_SetComp(self, node: ast.SetComp) -> tuple[str, X.Type]:
        """The set as a bit mask of its members (each an int 0..63; another value: no native
        answer)."""
        mask = self.fresh("m")
        x = self.fresh("x")
        elem: list[X.Type] = []

        def body(e: str) -> str:
            return (
                f"{{ int64_t {x} = (int64_t)({e}); if ({x} < 0 || {x} > 63) v->overflow = "
                f"1; else {mask} |= UINT64_C(1) << {x}; }}"
            )

        loop = self.loop(node, body, mask, elem_types=elem)
        return "({ uint64_t %s = 0; %s %s; })" % (mask, loop, mask), X.SetOf(
            elem[0] if elem else X.INT
        )

    def membership(self, left: str, lt: X.Type, left_node: ast.AST, right_node: ast.expr) -> str:
        if isinstance(right_node, (ast.Tuple, ast.List, ast.Set)):
            items = []
            for elt in right_node.elts:
                text, typ = self.value(elt)
                items.append(self.enum_text(text, typ, lt, elt))
            if not items:
                return "0"
            x = self.fresh("x")
            return "({ int64_t %s = (int64_t)(%s); (%s); })" % (
                x,
                left,
                " || ".join(f"{x} == ({i})" for i in items),
            )
        if isinstance(right_node, (ast.Attribute, ast.SetComp)):
            mask, mt = self.value(right_node)
            if isinstance(mt, X.SetOf):
                x = self.fresh("x")
                item = self.enum_text(left, lt, mt.elem, left_node)
                return (
                    "({ int64_t %s = (int64_t)(%s); (%s >= 0 && %s < 64 && ((%s >> %s) & 1u)); })"
                    % (x, item, x, x, mask, x)
                )
        if isinstance(right_node, ast.ListComp):
            x = self.fresh("x")
            found = self.fresh("found")
            elt_var = self.fresh("e")

            def body(elt_text: str) -> str:
                return f"if ({x} == (int64_t)({elt_text})) {{ {found} = 1; goto {found}_end; }}"

            loop = self.loop(right_node, body, elt_var)
            return "({ int64_t %s = (int64_t)(%s); int %s = 0; %s %s_end: ; %s; })" % (
                x,
                left,
                found,
                loop,
                found,
                found,
            )
        raise self.fail(right_node, "no native `in` over this collection")

    # -- calls
    def lower_Call(self, node: ast.Call) -> tuple[str, X.Type]:
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "v"
        ):
            return self.declared(func.attr, node)
        if not isinstance(func, ast.Name):
            raise self.fail(node, "a call of no declared function")
        name = func.id
        args = node.args
        if name == "bool":
            return self.truth(args[0]), X.BOOL
        if name == "bounded_pow":
            return f"mj_pow(&v->overflow, {self.int_of(args[0])}, {self.int_of(args[1])})", X.INT
        if name == "abs":
            return f"mj_abs(&v->overflow, {self.int_of(args[0])})", X.INT
        if name in ("min", "max") and len(args) > 1:
            out = self.int_of(args[0])
            for a in args[1:]:
                out = f"mj_{name}2({out}, {self.int_of(a)})"
            return out, X.INT
        if name in ("any", "all", "sum", "min", "max", "len"):
            return self.reduce(name, args[0]), (X.BOOL if name in ("any", "all") else X.INT)
        raise self.fail(node, f"no native form for {name}()")

    def declared(self, name: str, node: ast.Call) -> tuple[str, X.Type]:
        args = node.args
        if name in ("count_of", "concealed_count_of") and not self.scope.payment:
            suit, st = self.value(args[0])
            suit = self.enum_text(suit, st, SUIT, args[0])
            counts = "v->counts" if name == "count_of" else "v->concealed_counts"
            return f"mj_count_in({counts}, (int)({suit}), {self.int_of(args[1])})", X.INT
        if name == "concealed_at_win" and not self.scope.payment:
            group, _ = self.value(args[0])
            return f"mj_concealed_at_win(v, {group})", X.BOOL
        if name == "counted" and not self.scope.payment:
            pid = self.constant_text(args[0])
            if pid not in self.scope.pattern_ids:
                raise self.fail(node, f"counted() of an unknown pattern {pid!r}")
            return f"mj_counted(v, {self.scope.pattern_ids.index(pid)})", X.BOOL
        slot = {
            "option_on": 0,
            "option_value": 0,
            "option_points": 0,
            "option_doubles": 1,
            "option_limit": 2,
        }.get(name)
        if slot is not None:
            option = self.constant_text(args[0])
            if option not in self.scope.option_names:
                raise self.fail(node, f"{name}() of an undeclared option {option!r}")
            read = f"v->options[{3 * self.scope.option_names.index(option) + slot}]"
            if name in ("option_on", "option_limit"):
                return f"({read} != 0)", X.BOOL
            return read, X.INT
        raise self.fail(node, f"no native form for {name}()")

    def constant_text(self, node: ast.expr) -> str:
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            raise self.fail(node, "expected a text constant")
        return node.value

    # -- loops
    def iterate(self, iter_node: ast.expr) -> tuple[str, str, X.Type]:
        """A C loop header over ``iter_node`` binding a fresh variable: (header, variable, element
        type)."""
        i = self.fresh("i")
        var = self.fresh("it")
        if (
            isinstance(iter_node, ast.Attribute)
            and isinstance(iter_node.value, ast.Name)
            and iter_node.value.id == "v"
        ):
            if iter_node.attr in _LISTS:
                _, typ = self.value(iter_node)
                assert isinstance(typ, X.ListOf)
                items, count, pointers = _LISTS[iter_node.attr]
                ctype = "const mj_group *" if typ.elem == GROUP else "const mj_tile *"
                item = f"{items}[{i}]" if pointers else f"&{items}[{i}]"
                return (
                    f"for (int {i} = 0; {i} < {count}; {i}++) {{ {ctype}{var} = {item};",
                    var,
                    typ.elem,
                )
            if iter_node.attr == "suits":
                return (
                    f"for (int64_t {var} = 0; {var} < 4; {var}++) {{ if (!((v->suits >> {var}) "
                    "& 1u)) continue;",
                    var,
                    SUIT,
                )
        if isinstance(iter_node, (ast.Tuple, ast.List, ast.Set)):
            consts: list[str] = []
            elem: X.Type = X.INT
            for elt in iter_node.elts:
                text, typ = self.value(elt)
                if typ == X.STR:
                    raise self.fail(iter_node, "a loop over texts")
                if typ not in (X.INT, X.BOOL):
                    raise self.fail(iter_node, f"a loop over {typ.describe()}")
                consts.append(text)
            arr = self.fresh("a")
            if not consts:
                return f"for (int {i} = 0; {i} < 0; {i}++) {{ int64_t {var} = 0;", var, elem
            return (
                f"static const int64_t {arr}[] = {{{', '.join(consts)}}}; "
                f"for (int {i} = 0; {i} < {len(consts)}; {i}++) {{ int64_t {var} = {arr}[{i}];",
                var,
                elem,
            )
        raise self.fail(iter_node, "no native loop over this collection")

    def loop(
        self,
        comp: ast.GeneratorExp | ast.ListComp | ast.SetComp,
        body: Callable[[str], str],
        elt_var: str,
        *,
        counts_only: bool = False,
        elem_types: list[X.Type] | None = None,
    ) -> str:
        """C statements running ``body`` on every element of ``comp`` that passes its filters."""
        if len(comp.generators) != 1:
            raise self.fail(comp, "a comprehension with more than one `for`")
        gen = comp.generators[0]
        if not isinstance(gen.target, ast.Name):
            raise self.fail(comp, "a loop variable that is not a name")
        header, var, elem = self.iterate(gen.iter)
        outer = self.bound.get(gen.target.id)
        self.bound[gen.target.id] = (var, elem)
        try:
            filters = [self.truth(c) for c in gen.ifs]
            elt, et = self.value(comp.elt)
            if elem_types is not None:
                elem_types.append(et)
            if counts_only:
                elt, et = "0", X.INT  # only how many items pass the filters is read (len of a list)
            if isinstance(et, X.Record) or et == X.STR:
                raise self.fail(comp, f"a comprehension yielding {et.describe()}")
        finally:
            if outer is None:
                del self.bound[gen.target.id]
            else:
                self.bound[gen.target.id] = outer
        inner = body(elt)
        if filters:
            inner = f"if ({' && '.join(filters)}) {{ {inner} }}"
        return f"{header} {inner} }}"

    def reduce(self, name: str, arg: ast.expr) -> str:
        """any / all / sum / min / max / len over a comprehension or a list (Python's order of
        visits)."""
        if name == "len" and not isinstance(arg, (ast.ListComp, ast.SetComp)):
            if (
                isinstance(arg, ast.Attribute)
                and isinstance(arg.value, ast.Name)
                and arg.value.id == "v"
            ):
                if arg.attr in _LISTS:
                    self.value(arg)
                    return f"((int64_t){_LISTS[arg.attr][1]})"
                if arg.attr == "suits":
                    self.value(arg)
                    return "mj_popcount(v->suits)"
            if isinstance(arg, (ast.Tuple, ast.List)):
                return f"INT64_C({len(arg.elts)})"
            raise self.fail(arg, "no native len() of this collection")
        if name == "len" and isinstance(arg, ast.SetComp):
            mask, _ = self.lower_SetComp(arg)
            return f"mj_popcount({mask})"
        if isinstance(arg, (ast.GeneratorExp, ast.ListComp, ast.SetComp)):
            comp = arg
        else:
            raise self.fail(arg, f"no native {name}() of this collection")
        r = self.fresh("r")
        end = self.fresh("end")
        if name == "any":
            loop = self.loop(comp, lambda e: f"if ({e}) {{ {r} = 1; goto {end}; }}", r)
            return "({ int %s = 0; %s %s: ; %s; })" % (r, loop, end, r)
        if name == "all":
            loop = self.loop(comp, lambda e: f"if (!({e})) {{ {r} = 0; goto {end}; }}", r)
            return "({ int %s = 1; %s %s: ; %s; })" % (r, loop, end, r)
        if name == "sum":
            loop = self.loop(comp, lambda e: f"{r} = mj_add(&v->overflow, {r}, (int64_t)({e}));", r)
            return "({ int64_t %s = 0; %s %s; })" % (r, loop, r)
        if name in ("min", "max"):
            have = self.fresh("have")
            better = "<" if name == "min" else ">"
            x = self.fresh("x")
            loop = self.loop(
                comp,
                lambda e: f"{{ int64_t {x} = (int64_t)({e}); if (!{have} || {x} {better} {r}) "
                f"{{ {r} = {x}; {have} = 1; }} }}",
                r,
            )
            # Python raises on an empty sequence: no native answer then.
            return "({ int64_t %s = 0; int %s = 0; %s if (!%s) v->overflow = 1; %s; })" % (
                r,
                have,
                loop,
                have,
                r,
            )
        # len of a list or set comprehension
        if isinstance(comp, ast.ListComp):
            loop = self.loop(comp, lambda e: f"{r}++;", r, counts_only=True)
            return "({ int64_t %s = 0; %s %s; })" % (r, loop, r)
        raise self.fail(comp, f"no native {name}() of this comprehension")


def lower(checked_python: str, scope: Scope) -> str:
    """The C expression of one checked expression (an int64_t or int value)."""
    tree = ast.parse(checked_python, mode="eval")
    lowering = _Lowering(scope, scope.names)
    text, typ = lowering.value(tree.body)
    if typ == X.BOOL:
        return text
    if typ == X.INT:
        return text
    return lowering.truth_of(text, typ, tree.body)


def c_string(value: str | None) -> str:
    """A C string literal holding ``value`` exactly (UTF-8 bytes, every byte outside plain ASCII
    escaped in octal, no trigraphs), or NULL."""
    if value is None:
        return "NULL"
    out = ['"']
    for b in value.encode("utf-8"):
        ch = chr(b)
        if ch in '\\"?':
            out.append("\\" + ch)
        elif 0x20 <= b < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\{b:03o}")
    out.append('"')
    return "".join(out)


def c_comment(text: str) -> str:
    """Spec text placed inside a C comment: one line, no comment terminator, plain ASCII."""
    flat = " ".join(text.split())
    flat = flat.replace("*/", "* /").replace("/*", "/ *")
    return "".join(ch if 0x20 <= ord(ch) < 0x7F else "?" for ch in flat)


# --------------------------------------------------------------------------- the module


@dataclass(frozen=True)
class CFunction:
    """One lowered expression: its C name, the spec text it came from (and where), its C body."""

    name: str
    spec: str
    where: str
    body: str
    payment: bool = False


@dataclass(frozen=True)
class CTable:
    """One table of the profile (``const <ctype> <name>[]``): each row is a macro named for what
    it stands for (a pattern's id, ...), and the table lists the macros by name. ``rows`` are the
    (macro, initializer) this file defines; a row the same as an ancestor's (or one defined
    earlier here) is that one's macro, so a profile extending another writes only the rows it
    changes, and its table reads as the parent's list with those names replaced."""

    ctype: str
    name: str
    rows: tuple[tuple[str, str], ...]
    listing: tuple[str, ...]
    """The table's row macros, a few to a line (each line ends with a comma)."""


#: Width of a line listing a table's row macros (the generated C is not reformatted).
_LISTING_WIDTH = 100


def _listing(names: list[str]) -> tuple[str, ...]:
    """``names`` joined by commas, as few to a line as fit in :data:`_LISTING_WIDTH`."""
    lines: list[str] = []
    line = ""
    for n in names:
        item = f"{n},"
        if line and len(line) + 1 + len(item) > _LISTING_WIDTH:
            lines.append(line)
            line = item
        else:
            line = f"{line} {item}" if line else item
    if line:
        lines.append(line)
    return tuple(lines)


@dataclass(frozen=True)
class NativeModule:
    """Everything ``templates/engine.c.j2`` interpolates: functions, then the profile's tables as
    C initializers (each built here from the IR; the template only loops).

    Every C name starts with the profile's id, so that the module of a profile extending this one
    can include this file and use its functions and tables (``parent``): such a module writes only
    the functions and tables that differ from every one of its ancestors'."""

    profile_id: str
    spec_file: str
    functions: tuple[CFunction, ...]
    """The functions written in this file (not those it shares)."""
    arrays: tuple[tuple[str, str, str], ...]
    """(C type, name, initializer) of the small index arrays the tables point at, written here."""
    tables: "tuple[CTable, ...]"
    """The tables of patterns, requirements, point items and formulas written here."""
    fields: tuple[tuple[str, str], ...]
    """The scalar fields of mj_profile, (name, C value)."""
    parent: "NativeModule | None" = None
    """The native engine of the profile this one extends, whose file this one includes."""
    parent_digest: str | None = None
    """That file's digest: part of this file's text, so that this one's digest follows it."""
    known: "dict[tuple[str, ...], str]" = field(default_factory=dict, compare=False)
    """Every function, array and table this module can use (its own and its ancestors'), by what
    it is (its C text), with its C name: what a child module looks its own up in."""

    @property
    def written_fields(self) -> tuple[tuple[str, str], ...]:
        """The fields of mj_profile this file writes: those that differ from the parent's, or
        (no parent) those that are not 0 or NULL, which a designated initializer leaves so."""
        if self.parent is not None:
            inherited = set(self.parent.fields)
            return tuple(f for f in self.fields if f not in inherited)
        return tuple(f for f in self.fields if f[1] not in _ZERO)


#: C values a designated initializer gives a field it leaves out.
_ZERO = frozenset({"0", "NULL", "INT64_C(0)"})


_PREFER_C = {key: PREFER_CODES.constant(key) for key in PREFER_CODES.values}
_COMBINE_C = {kind: COMBINE_CODES.constant(kind) for kind in COMBINE_CODES.values}
_PICK_C = {pick: PICK_CODES.constant(pick) for pick in PICK_CODES.values}


def native_module(
    ir: "ProfileIR", parent: NativeModule | None = None, parent_digest: str | None = None
) -> NativeModule:
    """Lower every expression of ``ir`` and lay out its tables; :class:`NativeUnsupported` names the
    first expression (file:line and spec path) or feature the native backend cannot take.

    With ``parent`` (the native engine of the profile ``ir`` extends, and its digest) a function,
    array or table the same as one of an ancestor's (or one written earlier here) is used, not
    written again."""
    from .ir import ExprIR

    if not re.fullmatch(r"[a-z][a-z0-9_]*", ir.id):
        raise NativeUnsupported(f"{ir.spec_file}: profile id {ir.id!r} is not a plain identifier")
    pattern_ids = tuple(p.id for p in ir.patterns)
    option_names = tuple(o.name for o in ir.options)
    hand = Scope(payment=False, pattern_ids=pattern_ids, option_names=option_names)
    functions: list[CFunction] = []
    arrays: list[tuple[str, str, str]] = []
    tables: list[CTable] = []
    known: dict[tuple[str, ...], str] = dict(parent.known) if parent is not None else {}

    def fn(e: "ExprIR | None", name: str, what: str, scope: Scope = hand) -> str:
        if e is None:
            return "NULL"
        try:
            body = lower(e.checked or e.python, scope)
        except NativeUnsupported as why:
            raise NativeUnsupported(f"{e.location}: {what}: {why}") from None
        key = ("function", "mj_pay" if scope.payment else "mj_view", body)
        if key not in known:
            known[key] = f"{ir.id}_{name}"
            where = c_comment(f"{e.location.file}:{e.location.line} {what}")
            functions.append(CFunction(known[key], c_comment(e.source), where, body, scope.payment))
        return known[key]

    def array(ctype: str, name: str, init: str) -> str:
        key = ("array", ctype, init)
        if key not in known:
            known[key] = f"{ir.id}_{name}"
            arrays.append((ctype, known[key], init))
        return known[key]

    def table(ctype: str, name: str, stem: str, rows: list[tuple[str, str]]) -> str:
        """The table of ``rows`` ((what the row stands for, its initializer)), each row a macro
        ``<id>_<STEM>_<what>`` (an upper-case stem: no function shares the name)."""
        if not rows:
            return "NULL"
        new: list[tuple[str, str]] = []
        names: list[str] = []
        for i, (what, text) in enumerate(rows):
            key = ("row", ctype, text)
            if key not in known:
                # an id is a plain identifier (the schema says so); anything else goes by position
                tail = what if re.fullmatch(r"[a-z][a-z0-9_]*", what) else f"_{i}"
                known[key] = f"{ir.id}_{stem}_{tail}"
                new.append((known[key], text))
            names.append(known[key])
        listed: tuple[str, ...] = ("table", ctype, *names)
        if listed not in known:
            known[listed] = f"{ir.id}_{name}"
            tables.append(CTable(ctype, known[listed], tuple(new), _listing(names)))
        return known[listed]

    def amount(value: "int | ExprIR | None", name: str, what: str) -> str:
        if value is None:
            return "{0, NULL}"
        if isinstance(value, ExprIR):
            return f"{{0, {fn(value, name, what)}}}"
        return f"{{INT64_C({int(value)}), NULL}}"

    group_ids = tuple(g.id for g in ir.groups)
    patterns: list[tuple[str, str]] = []
    for i, p in enumerate(ir.patterns):
        where = f"scoring.patterns.{p.id}"
        excludes = [pattern_ids.index(x) for x in p.excludes if x in pattern_ids]
        limits = dict(p.exclude_limits)
        ex_name = lim_name = "NULL"
        if excludes:
            ex_name = array("int", f"excludes_{i}", ", ".join(str(x) for x in excludes))
            lim_name = array(
                "int",
                f"exclude_limit_{i}",
                ", ".join(str(limits.get(pattern_ids[x], -1)) for x in excludes),
            )
        combine = _COMBINE_C[p.combine[0]] if p.combine is not None else "MJ_NONE"
        size = p.combine[1] if p.combine is not None else 0
        row = ", ".join(
            [
                c_string(p.id),
                c_string(p.names.en),
                c_string(p.section),
                fn(p.when, f"when_{i}", f"{where}.when"),
                fn(p.count, f"count_{i}", f"{where}.count"),
                amount(p.value, f"value_{i}", f"{where}.value"),
                "1" if p.open_value is not None else "0",
                amount(p.open_value, f"open_value_{i}", f"{where}.open_value"),
                str(group_ids.index(p.group)) if p.group is not None else "MJ_NONE",
                ex_name,
                lim_name,
                str(len(excludes)),
                combine,
                str(size),
                *(
                    "1" if flag else "0"
                    for flag in (p.fallback, p.bonus, p.limit, p.tiles_only, p.members_only)
                ),
            ]
        )
        patterns.append((p.id, "{" + row + "}"))
    requirements = [
        (
            r.id,
            "{"
            + f"{c_string(r.reason.en)}, {fn(r.when, f'require_{i}', f'win.requirements.{r.id}')}"
            + "}",
        )
        for i, r in enumerate(ir.requirements)
    ]
    point_items: list[tuple[str, str]] = []
    result = "NULL"
    if ir.points is not None:
        for i, it in enumerate(ir.points.items):
            where = f"scoring.points.items.{it.id}"
            row = ", ".join(
                [
                    c_string(it.id),
                    c_string(it.names.en),
                    c_string(it.section),
                    fn(it.when, f"point_when_{i}", f"{where}.when"),
                    amount(it.value, f"point_value_{i}", f"{where}.value"),
                ]
            )
            point_items.append((it.id, "{" + row + "}"))
        result = fn(ir.points.result, "points_result", "scoring.points.result")
    named = tuple(a.name for a in ir.payment_values)
    if len(named) > 16:
        raise NativeUnsupported(f"{ir.spec_file}: more than 16 named payment values")

    def formulas(amounts: tuple[AmountIR, ...], kind: str) -> list[tuple[str, str]]:
        out = []
        for i, a in enumerate(amounts):
            scope = Scope(
                payment=True,
                option_names=option_names,
                named_values=named[:i] if kind == "values" else named,
            )
            body = fn(a.expr, f"{kind}_{i}", f"payments.{kind}.{a.name}", scope)
            out.append((a.name, "{" + f"{c_string(a.name)}, {body}" + "}"))
        return out

    values = formulas(ir.payment_values, "values")
    ron = formulas(ir.payment_ron, "ron")
    tsumo = formulas(ir.payment_tsumo, "tsumo")
    if len(ir.patterns) > 192:
        raise NativeUnsupported(f"{ir.spec_file}: more than 192 patterns")
    group_pick = (
        array("int", "group_pick", ", ".join(_PICK_C[g.pick] for g in ir.groups))
        if ir.groups
        else "NULL"
    )
    prefer = (
        array("int", "prefer", ", ".join(_PREFER_C[k] for k in ir.prefer)) if ir.prefer else "NULL"
    )
    minimum = ir.minimum
    minimum_without = "NULL"
    if minimum is not None and minimum.without:
        minimum_without = array(
            "int", "minimum_without", ", ".join(str(pattern_ids.index(x)) for x in minimum.without)
        )
    requirements_table = table("mj_requirement", "requirements", "REQUIREMENT", requirements)
    patterns_table = table("mj_pattern", "patterns", "PATTERN", patterns)
    point_items_table = table("mj_point_item", "point_items", "POINT_ITEM", point_items)
    values_table = table("mj_formula", "values", "VALUE", values)
    ron_table = table("mj_formula", "ron", "RON", ron)
    tsumo_table = table("mj_formula", "tsumo", "TSUMO", tsumo)
    needs = set(ir.needs)
    shapes = ir.shapes
    fields = (
        ("standard", str(int(shapes.standard))),
        ("seven_pairs", str(int(shapes.seven_pairs))),
        ("seven_pairs_allow_four_of_a_kind", str(int(shapes.four_of_a_kind_as_two_pairs))),
        ("thirteen_orphans", str(int(shapes.thirteen_orphans))),
        ("knitted", str(int(shapes.knitted))),
        ("needs_only_wait", str(int("only_wait" in needs))),
        ("needs_only_live_wait", str(int("only_live_wait" in needs))),
        ("needs_concealed_triplets", str(int("concealed_triplets" in needs))),
        ("needs_counts", str(int(bool({"count_of", "concealed_count_of"} & needs)))),
        ("requirements", requirements_table),
        ("n_requirements", str(len(requirements))),
        ("patterns", patterns_table),
        ("n_patterns", str(len(patterns))),
        ("group_pick", group_pick),
        ("n_groups", str(len(ir.groups))),
        ("has_cap", str(int(ir.cap is not None))),
        ("cap", f"INT64_C({ir.cap or 0})"),
        ("prefer", prefer),
        ("n_prefer", str(len(ir.prefer))),
        ("has_minimum", str(int(minimum is not None))),
        ("minimum_at_least", f"INT64_C({minimum.at_least if minimum else 0})"),
        ("minimum_without", minimum_without),
        ("n_minimum_without", str(len(minimum.without) if minimum else 0)),
        ("minimum_reason_en", c_string(minimum.reason.en if minimum else None)),
        ("has_points", str(int(ir.points is not None))),
        ("point_items", point_items_table),
        ("n_point_items", str(len(point_items))),
        ("points_result", result),
        ("values", values_table),
        ("n_values", str(len(values))),
        ("ron", ron_table),
        ("n_ron", str(len(ron))),
        ("tsumo", tsumo_table),
        ("n_tsumo", str(len(tsumo))),
        (
            "hand_value",
            str(named.index(ir.payment_hand_value)) if ir.payment_hand_value else "MJ_NONE",
        ),
        ("n_options", str(len(option_names))),
        (
            "limit_hands_counted",
            (
                str(option_names.index(ir.limit_hands_counted))
                if ir.limit_hands_counted
                else "MJ_NONE"
            ),
        ),
        ("has_combinations", str(int(ir.has_combinations))),
    )
    return NativeModule(
        profile_id=ir.id,
        spec_file=ir.spec_file,
        functions=tuple(functions),
        arrays=tuple(arrays),
        tables=tuple(tables),
        fields=fields,
        parent=parent,
        parent_digest=parent_digest,
        known=known,
    )


def render_native(
    ir: "ProfileIR", parent: "tuple[NativeModule, str] | None" = None
) -> tuple[str | None, str | None, NativeModule | None]:
    """``generated/native/<id>.c`` for ``ir``, its digest and its module, or (None, why, None) when
    the native backend cannot take the profile (it then runs on the Python backend). With
    ``parent`` (the native engine of the profile ``ir`` extends, and its digest) the file includes
    the parent's and writes only what differs from it."""
    import hashlib

    from .emit import environment

    try:
        module = native_module(ir, *(parent or (None, None)))
    except NativeUnsupported as why:
        return None, str(why), None
    template = environment().get_template("engine.c.j2")
    body = template.render(m=module, digest="@DIGEST@")
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()[:32]
    return body.replace("@DIGEST@", digest), digest, module


# --------------------------------------------------------------------------- the situation header


def enums_header() -> str:
    """``runtime/native/mjenums.h``: runtime/native_enums.py's NATIVE_ENUMS as C, the one place
    the native side takes the numbers of the enums it shares with the glue from (mjscore.h
    includes it; the lowering writes its constants)."""
    from mjspec.runtime.native_enums import NATIVE_ENUMS

    lines = [
        "/* Generated by mjspec from runtime/native_enums.py (NATIVE_ENUMS).",
        " * Do not edit: change that table and run `mjspec build`.",
        " *",
        " * The number of each value of the enums the native core shares with the Python glue",
        " * (runtime/native_score.py, runtime/native_contract.py) and the generated modules",
        " * (compiler/native.py writes these constants): value i of a list is i, and MJ_N_<stem>",
        " * is how many values the list has. Reordering a list changes the numbers compiled",
        " * modules were built with: bump MJ_ABI (mjscore.h) with it.",
        " */",
        "#ifndef MJENUMS_H",
        "#define MJENUMS_H",
    ]
    for e in NATIVE_ENUMS:
        lines += ["", f"/* {c_comment(e.what)} */", "enum {"]
        lines += [f"    {e.constant(v)} = {i}," for i, v in enumerate(e.values)]
        lines += [f"    MJ_N_{e.stem} = {len(e.values)} /* how many */", "};"]
    lines += ["", "#endif", ""]
    return "\n".join(lines)


def situation_header() -> str:
    """``runtime/native/mjsituation.h``: runtime/context.py's SITUATION as C, the one place the
    native side takes the situation's names from (mjscore.h's ``mj_view``, score.c, request.c)."""
    from mjspec.runtime.context import SITUATION, SlotRead

    def macro(name: str, args: str, rows: list[str]) -> list[str]:
        head = f"#define {name}({args})"
        width = max(len(head) - 4, *(len(r) for r in rows))
        return [f"{head.ljust(width + 4)} \\"] + [
            f"    {r.ljust(width)} \\" if i < len(rows) - 1 else f"    {r}"
            for i, r in enumerate(rows)
        ]

    slot = {s.name: f"MJ_SIT_{s.name.upper()}" for s in SITUATION}
    reads = list(SlotRead)
    lines = [
        "/* Generated by mjspec from runtime/context.py (SITUATION).",
        " * Do not edit: change that table and run `mjspec build`.",
        " *",
        " * The situation of a win as the native core takes it beside the tiles: the slots of the",
        " * `situation` tuple (runtime/native_score.py packs it, runtime/native/request.c reads it",
        " * from a request), the situation fields of mj_view (mjscore.h) and the WinContext fields",
        " * score.c reads. A change of the table changes mj_view: bump MJ_ABI with it.",
        " */",
        "#ifndef MJSITUATION_H",
        "#define MJSITUATION_H",
        "",
        "/* The slots, in order. */",
        "enum {",
        *(f"    {slot[s.name]} = {i}, /* {s.read.value} */" for i, s in enumerate(SITUATION)),
        f"    MJ_N_SITUATION = {len(SITUATION)}",
        "};",
        "",
        "/* How a reader fills a slot (runtime/context.py SlotRead). */",
        "enum {",
        *(
            f"    MJ_READ_{r.name} = {i}{',' if i < len(reads) - 1 else ''}"
            for i, r in enumerate(reads)
        ),
        "};",
        "",
        "/* X(C type, name, slot): the slots mj_view holds (a field of each name), in slot "
        "order. */",
        *macro(
            "MJ_SITUATION_VIEW",
            "X",
            [f"X({s.view}, {s.name}, {slot[s.name]})" for s in SITUATION if s.view is not None],
        ),
        "",
        "/* X(name, slot, read): the slots read from the WinContext field of their name. */",
        *macro(
            "MJ_SITUATION_CONTEXT",
            "X",
            [
                f"X({s.name}, {slot[s.name]}, MJ_READ_{s.read.name})"
                for s in SITUATION
                if s.read is not SlotRead.DERIVED
            ],
        ),
        "",
        "#endif",
        "",
    ]
    return "\n".join(lines)
