"""Tile conditions decided at build time: a loop over the hand's tiles becomes one mask test.

A condition on each tile of the hand that reads only what the tile's kind
decides (its suit, number and the honor/terminal flags, not ``red``) answers
alike for every copy of a kind. So the compiler evaluates it once per kind,
at build time, on the runtime's own :class:`~mjspec.runtime.tiles.Tile`, and
emits a test of the hand's ``tile_mask`` (bit k set when the hand holds kind
k) in place of the loop:

* ``all(C for t in tiles)`` -> ``tile_mask & <kinds failing C> == 0``
* ``any(C for t in tiles)`` -> ``tile_mask & <kinds meeting C> != 0``
* ``len({F for t in tiles if C})`` -> ``0 + (tile_mask & <kinds meeting C with F = x> != 0) + ...``,
  one term per value x of F.

Loops over the arrangement's groups get the same treatment when the condition
reads only what a group's kind and lowest tile decide (``is_triplet``,
``suit``, ``number``, ``wind``..., not ``concealed`` or ``is_claimed_kong``):
the compiler evaluates it at build time on the runtime's own
:class:`~mjspec.runtime.hand.Group` for every kind and tile, and tests the
arrangement's ``set_bits`` (for ``sets``) or ``group_bits`` (for ``groups``),
where each group kind and tile owns a field of bits with as many set as the
arrangement holds such groups (:func:`mjspec.runtime.hand.group_bits`):

* ``any(C for g in sets)`` -> ``set_bits & <fields meeting C> != 0``
* ``all(C for g in sets)`` -> ``set_bits & <fields failing C> == 0``
  (a filter ``if D`` narrows the fields to those meeting D in both)
* ``sum(1 for g in sets if C)``, ``len([g for g in sets if C])`` ->
  ``count_bits(set_bits & <fields meeting C>)``; ``sum(F for g in sets if C)``
  with an int F -> one such term per value of F, times the value
* ``len({F for g in sets if C})`` -> ``0 + (set_bits & <fields with F = x> != 0) + ...``

The input is the checked, verified output of :func:`mjspec.compiler.expr.compile_expr`;
the rewritten expression is verified again against the same whitelist. Only
the hand vocabulary, which declares ``tile_mask``, ``set_bits`` and
``group_bits``, is rewritten. The kind-only
sub-expressions hold no call and no name but the loop variable, and are
evaluated with no builtins at all.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from typing import Any

from dataclasses import dataclass

from mjspec.runtime.hand import GROUP_FIELD, Group, GroupKind, group_unit
from mjspec.runtime.tiles import N_KINDS, Tile

from . import expr as X
from .vocabulary import GROUP, TILE

MASK_NAME = "tile_mask"
TILES_NAME = "tiles"
#: Tile attributes fixed by the kind: every copy of a kind answers alike.
KIND_ATTRS: frozenset[str] = frozenset(TILE.attrs) - {"red"}

#: Group lists the compiler hoists, each with the name of its bits.
GROUP_LISTS: dict[str, str] = {"sets": "set_bits", "groups": "group_bits"}
#: Group attributes fixed by the group's kind and lowest tile (not whether it is concealed or
#: claimed).
GROUP_KIND_ATTRS: frozenset[str] = frozenset(GROUP.attrs) - {"concealed", "is_claimed_kong"}
#: The runtime helper counting a mask's set bits.
COUNT_HELPER = "count_bits"


@functools.cache
def _every_group() -> tuple[Group, ...]:
    """One group of every kind and lowest tile there is, in GroupKind order then tile order."""
    out: list[Group] = []
    for kind in GroupKind:
        for tile in range(N_KINDS):
            try:
                out.append(Group(kind, tile, True))
            except ValueError:
                continue  # no such group (a sequence leaving its suit, a sequence of honors)
    return tuple(out)


@dataclass(frozen=True)
class Hoisted:
    """An expression after hoisting: its Python text, and the names and helpers the rewrite
    added."""

    python: str
    names: frozenset[str]
    helpers: frozenset[str]


def hoist_tile_conditions(python: str, vocab: X.Vocabulary, helpers: frozenset[str]) -> str:
    """``python`` with every kind-only loop over the tiles or groups replaced by a mask test
    (unchanged if none)."""
    return hoist(python, vocab, helpers).python


def hoist(python: str, vocab: X.Vocabulary, helpers: frozenset[str]) -> Hoisted:
    """``python`` with every kind-only loop over the tiles or groups replaced by a mask test."""
    unchanged = Hoisted(python, frozenset(), frozenset())
    if MASK_NAME not in vocab.names or TILES_NAME not in vocab.names:
        return unchanged
    tree = ast.parse(python, mode="eval")
    groups = {
        lst: bits for lst, bits in GROUP_LISTS.items() if lst in vocab.names and bits in vocab.names
    }
    hoister = _Hoister(vocab.receiver, groups)
    out = hoister.visit(tree)
    if not hoister.names:
        return unchanged
    assert isinstance(out, ast.Expression)
    ast.fix_missing_locations(out)
    text = ast.unparse(out)
    added = frozenset(hoister.helpers)
    X.verify_python_ast(ast.parse(text, mode="eval"), vocab, helpers | added)
    return Hoisted(text, frozenset(hoister.names), added)


class _Hoister(ast.NodeTransformer):
    def __init__(self, receiver: str, group_lists: dict[str, str]) -> None:
        self.receiver = receiver
        self.group_lists = group_lists
        self.names: set[str] = set()
        self.helpers: set[str] = set()

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.func, ast.Name) or len(node.args) != 1 or node.keywords:
            return node
        grouped = self._group_loop(node.func.id, node.args[0])
        if grouped is not None:
            return grouped
        guarded = self._guarded_group_loop(node)
        if guarded is not None:
            return guarded
        name, arg = node.func.id, node.args[0]
        if name in ("all", "any") and isinstance(arg, ast.GeneratorExp):
            loop = self._tile_loop(arg)
            if loop is None or arg.generators[0].ifs:
                return node
            test = _kind_function(loop, arg.elt)
            if test is None:
                return node
            meets = [bool(test(Tile(k))) for k in range(N_KINDS)]
            self.names.add(MASK_NAME)
            if name == "all":
                return self._mask_test([k for k in range(N_KINDS) if not meets[k]], ast.Eq())
            return self._mask_test([k for k in range(N_KINDS) if meets[k]], ast.NotEq())
        if name == "len" and isinstance(arg, ast.SetComp):
            loop = self._tile_loop(arg)
            if loop is None:
                return node
            value = _kind_function(loop, arg.elt)
            filters = [_kind_function(loop, cond) for cond in arg.generators[0].ifs]
            if value is None or any(f is None for f in filters):
                return node
            groups: dict[object, list[int]] = {}
            for k in range(N_KINDS):
                tile = Tile(k)
                if all(bool(f(tile)) for f in filters if f is not None):
                    groups.setdefault(value(tile), []).append(k)
            self.names.add(MASK_NAME)
            total: ast.expr = ast.Constant(0)
            for kinds in groups.values():  # in kind order of each value's first kind: deterministic
                total = ast.BinOp(
                    left=total, op=ast.Add(), right=self._mask_test(kinds, ast.NotEq())
                )
            return total
        return node

    def _group_loop(self, name: str, arg: ast.expr) -> ast.expr | None:
        """The mask test standing for ``name(arg)`` when ``arg`` loops over a group list on
        kind-only terms."""
        if (
            not isinstance(arg, (ast.GeneratorExp, ast.SetComp, ast.ListComp))
            or len(arg.generators) != 1
        ):
            return None
        gen = arg.generators[0]
        it = gen.iter
        if not (
            isinstance(gen.target, ast.Name)
            and isinstance(it, ast.Attribute)
            and it.attr in self.group_lists
            and isinstance(it.value, ast.Name)
            and it.value.id == self.receiver
        ):
            return None
        var, bits = gen.target.id, self.group_lists[it.attr]
        filters = [_kind_function(var, cond, GROUP_KIND_ATTRS) for cond in gen.ifs]
        value = _kind_function(var, arg.elt, GROUP_KIND_ATTRS)
        if value is None or any(f is None for f in filters):
            return None
        kept = [g for g in _every_group() if all(bool(f(g)) for f in filters if f is not None)]
        if isinstance(arg, ast.GeneratorExp) and name in ("any", "all"):
            meets = [g for g in kept if bool(value(g))]
            self.names.add(bits)
            if name == "any":
                return self._bits_test(bits, meets, ast.NotEq())
            return self._bits_test(bits, [g for g in kept if not bool(value(g))], ast.Eq())
        if (isinstance(arg, ast.GeneratorExp) and name == "sum") or (
            isinstance(arg, ast.ListComp) and name == "len"
        ):
            by_value: dict[int, list[Group]] = {}
            for g in kept:
                x = 1 if name == "len" else value(g)
                if type(x) is not int:  # bools and anything else: leave the loop alone
                    return None
                if x:
                    by_value.setdefault(x, []).append(g)
            self.names.add(bits)
            self.helpers.add(COUNT_HELPER)
            total: ast.expr | None = None
            for x in sorted(by_value):
                counted: ast.expr = ast.Call(
                    func=ast.Name(id=COUNT_HELPER, ctx=ast.Load()),
                    args=[self._masked(bits, by_value[x])],
                    keywords=[],
                )
                if x != 1:
                    counted = ast.BinOp(left=ast.Constant(x), op=ast.Mult(), right=counted)
                total = (
                    counted if total is None else ast.BinOp(left=total, op=ast.Add(), right=counted)
                )
            return ast.Constant(0) if total is None else total
        if isinstance(arg, ast.SetComp) and name == "len":
            values: dict[object, list[Group]] = {}
            for g in kept:
                x = value(g)
                if isinstance(x, Group):  # equal groups differ by concealment: not the kind's alone
                    return None
                values.setdefault(x, []).append(g)
            self.names.add(bits)
            distinct: ast.expr = ast.Constant(0)
            for members in values.values():  # in the order of GroupKind, then tile: deterministic
                distinct = ast.BinOp(
                    left=distinct, op=ast.Add(), right=self._bits_test(bits, members, ast.NotEq())
                )
            return distinct
        return None

    def _group_list(self, arg: ast.expr) -> tuple[str, str, list[ast.expr]] | None:
        """For a comprehension looping once over a group list: its variable, the list's bits and its
        filters."""
        if (
            not isinstance(arg, (ast.GeneratorExp, ast.SetComp, ast.ListComp))
            or len(arg.generators) != 1
        ):
            return None
        gen = arg.generators[0]
        it = gen.iter
        if (
            isinstance(gen.target, ast.Name)
            and isinstance(it, ast.Attribute)
            and it.attr in self.group_lists
            and isinstance(it.value, ast.Name)
            and it.value.id == self.receiver
        ):
            return gen.target.id, self.group_lists[it.attr], list(gen.ifs)
        return None

    def _guarded_group_loop(self, node: ast.Call) -> ast.expr | None:
        """``any``/``all`` over a group list whose condition is not the group's kind alone, behind
        a cheap necessary condition the compiler derives from it (the loop runs only when it holds).

        * ``all(A and B for g in L)``: ``all(A for g in L)`` with the conjuncts A on g's kind and
          tile;
        * ``any(A and B for g in L)``: ``any(A for g in L)``, and for each conjunct B that counts
          the groups h of a list meeting a filter (``len({F for h in L2 if D})``, ``len([...])``,
          ``sum(1 for h in L2 if D)``) and compares the count with ``==``, ``>=`` or ``>`` to a
          constant (or ``in`` a tuple of constants), at least that many groups of L2 meet the
          conjuncts of D on h's kind and tile; for ``any(D for h in L2)``, one does.

        These follow from the condition whatever the other conjuncts read (a set has at most as
        many members as there are items passing the filter), so the answer never changes.
        """
        name = node.func.id if isinstance(node.func, ast.Name) else ""
        arg = node.args[0]
        loop = self._group_list(arg)
        if name not in ("any", "all") or loop is None or not isinstance(arg, ast.GeneratorExp):
            return None
        var, bits, ifs = loop
        if ifs:
            return None
        parts = _conjuncts(arg.elt)
        guards: list[ast.expr] = []
        inner: list[tuple[ast.expr, str, int]] = []
        if name == "any":  # an empty list makes all() true: only any() gives the inner guards
            for part in parts:
                guard = self._inner_guard(part)
                if guard is not None:
                    inner.append(guard)
        own = _kind_conjunction(var, parts)
        if own is not None:
            kept = _every_group()
            if name == "all":
                guards.append(
                    self._bits_test(bits, [g for g in kept if not bool(own(g))], ast.Eq())
                )
            else:
                meets = [g for g in kept if bool(own(g))]
                mask = _fields(meets)
                # Implied when an inner guard already asks for a group of these (same list, fewer
                # fields).
                if not any(b == bits and m & ~mask == 0 for _, b, m in inner):
                    guards.append(self._bits_test(bits, meets, ast.NotEq()))
        guards += [g for g, _, _ in inner]
        if not guards:
            return None
        self.names.update(self._bits_names(guards))
        return ast.BoolOp(op=ast.And(), values=[*guards, node])

    def _inner_guard(self, part: ast.expr) -> tuple[ast.expr, str, int] | None:
        """A necessary condition of ``part`` on one group list's bits alone (with the bits' name and
        the fields it asks at least one group of), or None."""
        if (
            isinstance(part, ast.Call)
            and isinstance(part.func, ast.Name)
            and part.func.id == "any"
            and len(part.args) == 1
        ):
            loop = self._group_list(part.args[0])
            if loop is None or not isinstance(part.args[0], ast.GeneratorExp) or loop[2]:
                return None
            var, bits, _ = loop
            own = _kind_conjunction(var, _conjuncts(part.args[0].elt))
            if own is None:
                return None
            meets = [g for g in _every_group() if bool(own(g))]
            return self._bits_test(bits, meets, ast.NotEq()), bits, _fields(meets)
        if not (
            isinstance(part, ast.Compare) and len(part.ops) == 1 and isinstance(part.left, ast.Call)
        ):
            return None
        call, op, right = part.left, part.ops[0], part.comparators[0]
        if not isinstance(call.func, ast.Name) or len(call.args) != 1:
            return None
        counted = call.args[0]
        if call.func.id == "len" and isinstance(counted, (ast.SetComp, ast.ListComp)):
            pass
        elif (
            call.func.id == "sum"
            and isinstance(counted, ast.GeneratorExp)
            and isinstance(counted.elt, ast.Constant)
            and counted.elt.value == 1
        ):
            pass
        else:
            return None
        loop = self._group_list(counted)
        if loop is None:
            return None
        var, bits, ifs = loop
        least = _least(op, right)
        if least is None or least <= 0:
            return None
        filters = [c for cond in ifs for c in _conjuncts(cond)]
        own = _kind_conjunction(var, filters)
        if own is None:
            return None
        meets = [g for g in _every_group() if bool(own(g))]
        if least == 1:
            return self._bits_test(bits, meets, ast.NotEq()), bits, _fields(meets)
        self.helpers.add(COUNT_HELPER)
        count = ast.Call(
            func=ast.Name(id=COUNT_HELPER, ctx=ast.Load()),
            args=[self._masked(bits, meets)],
            keywords=[],
        )
        return (
            ast.Compare(left=count, ops=[ast.GtE()], comparators=[ast.Constant(least)]),
            bits,
            _fields(meets),
        )

    def _bits_names(self, nodes: list[ast.expr]) -> set[str]:
        return {
            sub.attr
            for n in nodes
            for sub in ast.walk(n)
            if isinstance(sub, ast.Attribute) and sub.attr in self.group_lists.values()
        }

    def _masked(self, bits: str, groups: list[Group]) -> ast.BinOp:
        mask = _fields(groups)
        held = ast.Attribute(
            value=ast.Name(id=self.receiver, ctx=ast.Load()), attr=bits, ctx=ast.Load()
        )
        return ast.BinOp(left=held, op=ast.BitAnd(), right=ast.Constant(mask))

    def _bits_test(self, bits: str, groups: list[Group], op: ast.cmpop) -> ast.Compare:
        return ast.Compare(left=self._masked(bits, groups), ops=[op], comparators=[ast.Constant(0)])

    def _tile_loop(self, node: ast.GeneratorExp | ast.SetComp) -> str | None:
        """The loop variable if ``node`` loops once over the receiver's tiles, else None."""
        if len(node.generators) != 1:
            return None
        gen = node.generators[0]
        it = gen.iter
        if (
            isinstance(gen.target, ast.Name)
            and isinstance(it, ast.Attribute)
            and it.attr == TILES_NAME
            and isinstance(it.value, ast.Name)
            and it.value.id == self.receiver
        ):
            return gen.target.id
        return None

    def _mask_test(self, kinds: list[int], op: ast.cmpop) -> ast.Compare:
        mask = 0
        for k in kinds:
            mask |= 1 << k
        held = ast.Attribute(
            value=ast.Name(id=self.receiver, ctx=ast.Load()), attr=MASK_NAME, ctx=ast.Load()
        )
        return ast.Compare(
            left=ast.BinOp(left=held, op=ast.BitAnd(), right=ast.Constant(mask)),
            ops=[op],
            comparators=[ast.Constant(0)],
        )


def _fields(groups: list[Group]) -> int:
    """Every bit of the fields of these groups' kinds and tiles."""
    field = (1 << GROUP_FIELD) - 1
    mask = 0
    for g in groups:
        mask |= g.unit * field
    return mask


def _conjuncts(node: ast.expr) -> list[ast.expr]:
    """The operands of a chain of ``and`` (nested chains flattened); the node itself otherwise."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [c for v in node.values for c in _conjuncts(v)]
    return [node]


def _kind_conjunction(var: str, parts: list[ast.expr]) -> Callable[[Any], object] | None:
    """The conjunction of the parts that read only the kind and tile of the group ``var`` (None if
    none do)."""
    own = [p for p in parts if _kind_function(var, p, GROUP_KIND_ATTRS) is not None]
    if not own:
        return None
    return _kind_function(
        var, own[0] if len(own) == 1 else ast.BoolOp(op=ast.And(), values=own), GROUP_KIND_ATTRS
    )


def _least(op: ast.cmpop, right: ast.expr) -> int | None:
    """The least count that ``count <op> right`` allows, for a constant right side; None if
    unknown."""
    if isinstance(op, ast.In) and isinstance(right, ast.Tuple) and right.elts:
        values = [
            e.value for e in right.elts if isinstance(e, ast.Constant) and type(e.value) is int
        ]
        return min(values) if len(values) == len(right.elts) else None
    if not (isinstance(right, ast.Constant) and type(right.value) is int):
        return None
    if isinstance(op, (ast.Eq, ast.GtE)):
        return int(right.value)
    if isinstance(op, ast.Gt):
        return int(right.value) + 1
    return None


def _kind_function(
    var: str, node: ast.expr, attrs: frozenset[str] = KIND_ATTRS
) -> Callable[[Any], object] | None:
    """``node`` as a function of the tile or group ``var`` if it reads only the fixed ``attrs`` of
    it, else None."""
    for sub in ast.walk(node):
        if isinstance(
            sub, (ast.Call, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp, ast.Lambda)
        ):
            return None
        if isinstance(sub, ast.Name) and sub.id != var:
            return None
        if isinstance(sub, ast.Attribute) and not (
            isinstance(sub.value, ast.Name) and sub.value.id == var and sub.attr in attrs
        ):
            return None
    lam = ast.Expression(
        body=ast.Lambda(
            args=ast.arguments(
                posonlyargs=[], args=[ast.arg(arg=var)], kwonlyargs=[], kw_defaults=[], defaults=[]
            ),
            body=node,
        )
    )
    ast.fix_missing_locations(lam)
    # Safe to evaluate: verified code with no call, no name but the tile, no builtins.
    fn: Callable[[Any], object] = eval(
        compile(lam, "<tile condition>", "eval"), {"__builtins__": {}}
    )
    return fn


# --------------------------------------------------------------------------- naming the masks

#: The prefix of a named mask constant of each kind: tile kinds (``tile_mask``) or group fields
#: (``set_bits`` and ``group_bits``, which share one layout).
MASK_PREFIX: dict[str, str] = {
    MASK_NAME: "_TILE_KINDS_",
    "set_bits": "_GROUP_FIELDS_",
    "group_bits": "_GROUP_FIELDS_",
}


@dataclass(frozen=True)
class MaskConstant:
    """A mask the hoisting made, named for the engine module: its name, value, hex text and what it
    selects."""

    name: str
    value: int
    selects: str

    @property
    def hex(self) -> str:
        """The value in hex; a group mask with ``_`` between the fields of two kinds of group (one
        hex digit is one kind and lowest tile), so a reader can tell which kinds it selects."""
        if self.name.startswith(MASK_PREFIX[MASK_NAME]):
            return f"{self.value:#x}"
        digits = f"{self.value:x}"
        width = N_KINDS * GROUP_FIELD // 4
        digits = digits.zfill(-(-len(digits) // width) * width)
        return "0x" + "_".join(digits[i : i + width] for i in range(0, len(digits), width))


class MaskNames:
    """Names the masks of one engine module's hoisted expressions, each value once, in order of
    first use."""

    def __init__(self) -> None:
        self._by_value: dict[tuple[str, int], MaskConstant] = {}

    @property
    def constants(self) -> tuple[MaskConstant, ...]:
        return tuple(self._by_value.values())

    def named(self, python: str, receiver: str = "v") -> str:
        """``python`` with every mask of a hoisted test (``v.tile_mask & <mask>``, ``v.set_bits &
        <mask>``...) written as the name of its module constant (0 stays 0: no mask selects nothing
        worth a name).
        """
        if not any(f"{bits} &" in python for bits in MASK_PREFIX):
            return python
        tree = ast.parse(python, mode="eval")
        changed = False
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.BinOp)
                and isinstance(node.op, ast.BitAnd)
                and isinstance(node.left, ast.Attribute)
                and isinstance(node.left.value, ast.Name)
                and node.left.value.id == receiver
                and node.left.attr in MASK_PREFIX
                and isinstance(node.right, ast.Constant)
                and type(node.right.value) is int
                and node.right.value > 0
            ):
                continue
            node.right = ast.Name(id=self._name(node.left.attr, node.right.value), ctx=ast.Load())
            changed = True
        return ast.unparse(tree) if changed else python

    def _name(self, bits: str, value: int) -> str:
        prefix = MASK_PREFIX[bits]
        key = (prefix, value)
        known = self._by_value.get(key)
        if known is None:
            n = 1 + sum(1 for p, _ in self._by_value if p == prefix)
            selects = (
                describe_kinds(value)
                if prefix == MASK_PREFIX[MASK_NAME]
                else describe_fields(value)
            )
            known = self._by_value[key] = MaskConstant(f"{prefix}{n}", value, selects)
        return known.name


def describe_kinds(mask: int) -> str:
    """The tile kinds of ``mask`` in the spec's notation, runs joined: ``1-9m 1,9p 5-7z``."""
    return _tile_runs([k for k in range(N_KINDS) if mask >> k & 1])


def describe_fields(mask: int) -> str:
    """The groups (kind and lowest tile) whose fields ``mask`` covers: ``triplet 1-9m 1-7z; pair
    2-8p``."""
    field = (1 << GROUP_FIELD) - 1
    parts = []
    for kind in GroupKind:
        tiles = [t for t in range(N_KINDS) if mask & group_unit(kind, t) * field]
        if tiles:
            parts.append(f"{kind.value} {_tile_runs(tiles)}")
    return "; ".join(parts)


def _tile_runs(kinds: list[int]) -> str:
    by_suit: dict[str, list[int]] = {}
    for k in kinds:
        t = Tile(k)
        by_suit.setdefault(t.suit.value, []).append(t.number)
    out = []
    for suit, numbers in by_suit.items():
        runs: list[list[int]] = []
        for n in numbers:
            if runs and runs[-1][-1] == n - 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        out.append(
            ",".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ",".join(map(str, r)) for r in runs)
            + suit
        )
    return " ".join(out)
