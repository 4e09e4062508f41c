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

The input is the checked, verified output of :func:`mjspec.compiler.expr.compile_expr`;
the rewritten expression is verified again against the same whitelist. Only
the hand vocabulary, which declares ``tile_mask``, is rewritten. The kind-only
sub-expressions hold no call and no name but the loop variable, and are
evaluated with no builtins at all.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from mjspec.runtime.tiles import N_KINDS, Tile

from . import expr as X
from .vocabulary import TILE

MASK_NAME = "tile_mask"
TILES_NAME = "tiles"
#: Tile attributes fixed by the kind: every copy of a kind answers alike.
KIND_ATTRS: frozenset[str] = frozenset(TILE.attrs) - {"red"}


def hoist_tile_conditions(python: str, vocab: X.Vocabulary, helpers: frozenset[str]) -> str:
    """``python`` with every kind-only loop over the tiles replaced by a mask test (unchanged if none)."""
    if MASK_NAME not in vocab.names or TILES_NAME not in vocab.names:
        return python
    tree = ast.parse(python, mode="eval")
    hoister = _Hoister(vocab.receiver)
    out = hoister.visit(tree)
    if not hoister.changed:
        return python
    assert isinstance(out, ast.Expression)
    ast.fix_missing_locations(out)
    text = ast.unparse(out)
    X.verify_python_ast(ast.parse(text, mode="eval"), vocab, helpers)
    return text


class _Hoister(ast.NodeTransformer):
    def __init__(self, receiver: str) -> None:
        self.receiver = receiver
        self.changed = False

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.func, ast.Name) or len(node.args) != 1 or node.keywords:
            return node
        name, arg = node.func.id, node.args[0]
        if name in ("all", "any") and isinstance(arg, ast.GeneratorExp):
            loop = self._tile_loop(arg)
            if loop is None or arg.generators[0].ifs:
                return node
            test = _kind_function(loop, arg.elt)
            if test is None:
                return node
            meets = [bool(test(Tile(k))) for k in range(N_KINDS)]
            self.changed = True
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
            self.changed = True
            total: ast.expr = ast.Constant(0)
            for kinds in groups.values():  # in kind order of each value's first kind: deterministic
                total = ast.BinOp(left=total, op=ast.Add(), right=self._mask_test(kinds, ast.NotEq()))
            return total
        return node

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
        held = ast.Attribute(value=ast.Name(id=self.receiver, ctx=ast.Load()), attr=MASK_NAME, ctx=ast.Load())
        return ast.Compare(
            left=ast.BinOp(left=held, op=ast.BitAnd(), right=ast.Constant(mask)),
            ops=[op],
            comparators=[ast.Constant(0)],
        )


def _kind_function(var: str, node: ast.expr) -> Callable[[Tile], object] | None:
    """``node`` as a function of the tile ``var`` if it reads only kind-fixed attributes of it, else None."""
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Call, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp, ast.Lambda)):
            return None
        if isinstance(sub, ast.Name) and sub.id != var:
            return None
        if isinstance(sub, ast.Attribute) and not (
            isinstance(sub.value, ast.Name) and sub.value.id == var and sub.attr in KIND_ATTRS
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
    fn: Callable[[Tile], object] = eval(compile(lam, "<tile condition>", "eval"), {"__builtins__": {}})
    return fn
