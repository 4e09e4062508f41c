"""The checked expression compiler.

Specs hold small expressions (``when: all(g.is_triplet for g in groups)``,
``value: 2 ** min(fan, 3) + 1``).  ``compile_expr`` parses one with Python's
own parser (mode ``eval``), checks it against a whitelist of node kinds and a
typed :class:`Vocabulary`, and emits Python source for a generated module.

Safety rests on three layers:

1. the raw source is screened (length, non-ASCII identifiers, nesting depth);
2. the tree is type-checked node by node, and a *new* tree is built from the
   checked parts only (user nodes are never passed through);
3. the emitted string is parsed again and verified against the whitelist:
   node kinds, names (the receiver, whitelisted builtins, runtime helpers,
   bound comprehension variables), calls and constants.

Semantics in brief (see ``docs`` for the user-facing version):

* types: ``bool``, ``int``, ``str``, enums (strings with a fixed value set),
  records (declared attributes), lists, sets, optionals; no floats;
* ``and``/``or``/``not``, ``if``-tests and comprehension filters take a bool,
  an optional (true when not None and truthy) or a list/set (true when
  non-empty); ``and``/``or`` always produce a bool;
* arithmetic is on ints only: ``+ - * // %`` and ``**`` (emitted as
  ``bounded_pow``, exponent 0..64);
* an optional value must be narrowed before use: ``x is not None and ...``,
  ``x and ...``, ``... if x else ...``, ``x is None or ...`` and comprehension
  filters narrow names and attribute paths (``g.extra``);
* ``sum`` accepts ints or bools (counting the true ones);
* comprehension variables may not shadow the receiver, a vocabulary name, a
  builtin, a runtime helper or an enclosing loop variable;
* two string literals side by side (implicit concatenation) are refused: it
  is almost always a missing comma in ``x in ('a' 'b')``.

Generated code needs, in scope: the receiver, the builtins in
``emitted_builtins()`` (never shadowed), and ``CompiledExpr.helpers``
imported from ``RUNTIME_MODULE``.
"""

from __future__ import annotations

import ast
import difflib
import io
import keyword
import tokenize
import types as _pytypes
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from mjspec.runtime.vocabulary import (
    BOOL,
    INT,
    NONE,
    STR,
    Enum,
    FuncSig,
    IterOf,
    ListOf,
    Optional,
    Prim,
    Record,
    SetOf,
    Type,
    check_identifier,
)

__all__ = [
    "BOOL",
    "BUILTIN_FUNCTIONS",
    "INT",
    "MAX_DEPTH",
    "MAX_INT",
    "MAX_SOURCE_LENGTH",
    "MAX_STR_LENGTH",
    "NONE",
    "RUNTIME_HELPERS",
    "RUNTIME_MODULE",
    "STR",
    "CompiledExpr",
    "Enum",
    "ExprError",
    "FuncSig",
    "IterOf",
    "ListOf",
    "Optional",
    "Prim",
    "Record",
    "SetOf",
    "Type",
    "Vocabulary",
    "compile_expr",
    "emitted_builtins",
]

MAX_SOURCE_LENGTH = 2000
MAX_DEPTH = 50
MAX_STR_LENGTH = 200
MAX_INT = 10**9
#: Bound on the masks the build-time tile and group tests emit (one bit per tile kind;
#: four bits per group kind and lowest tile, six kinds of group by 34 tiles: 816 bits).
MAX_MASK = 1 << 1024

#: Module generated code imports runtime helpers from.
RUNTIME_MODULE = "mjspec.runtime.exprlib"
#: Every helper name compiled expressions may use (``CompiledExpr.helpers`` is a subset).
RUNTIME_HELPERS: tuple[str, ...] = ("bounded_pow", "count_bits")

#: Builtins a spec may call.
BUILTIN_FUNCTIONS: tuple[str, ...] = ("len", "all", "any", "sum", "min", "max", "abs")
# ``bool`` is never callable from a spec; the compiler emits it to turn a
# truth-tested optional or collection into a bool inside ``and``/``or``.
_INTERNAL_BUILTINS: tuple[str, ...] = ("bool",)
_EMITTED_BUILTINS = frozenset(BUILTIN_FUNCTIONS + _INTERNAL_BUILTINS)


def emitted_builtins() -> frozenset[str]:
    """Builtin names that compiled expressions may reference (for the emitter's namespace
    checks)."""
    return _EMITTED_BUILTINS


# --------------------------------------------------------------------------- types


# The types are declared with the vocabulary, in the runtime (mjspec.runtime.vocabulary), which
# imports nothing of the compiler; they are this module's as well.


@dataclass(frozen=True, eq=False)
class Vocabulary:
    """What an expression may read: typed names, typed functions, and the receiver.

    A name ``foo`` is emitted as ``<receiver>.foo`` and a function call
    ``fn(x)`` as ``<receiver>.fn(x)``.
    """

    names: Mapping[str, Type]
    functions: Mapping[str, FuncSig] = field(default_factory=dict)
    receiver: str = "v"

    def __post_init__(self) -> None:
        names = dict(self.names)
        functions = dict(self.functions)
        if not self.receiver.isidentifier() or not self.receiver.isascii():
            raise ValueError(f"receiver {self.receiver!r} is not an ASCII identifier")
        if keyword.iskeyword(self.receiver) or self.receiver in _EMITTED_BUILTINS:
            raise ValueError(f"receiver {self.receiver!r} is a keyword or builtin")
        if self.receiver in RUNTIME_HELPERS:
            raise ValueError(f"receiver {self.receiver!r} is a runtime helper name")
        reserved = _EMITTED_BUILTINS | set(RUNTIME_HELPERS) | {self.receiver}
        for kind, table in (("name", names), ("function", functions)):
            for name, typ in table.items():
                check_identifier(name, f"vocabulary {kind}")
                if name in reserved:
                    raise ValueError(
                        f"vocabulary {kind} {name!r} clashes with a builtin, helper or the receiver"
                    )
                expected = FuncSig if kind == "function" else Type
                if not isinstance(typ, expected):
                    raise TypeError(
                        f"vocabulary {kind} {name!r}: {typ!r} is not a {expected.__name__}"
                    )
        clash = names.keys() & functions.keys()
        if clash:
            raise ValueError(f"declared both as name and function: {sorted(clash)}")
        object.__setattr__(self, "names", _pytypes.MappingProxyType(names))
        object.__setattr__(self, "functions", _pytypes.MappingProxyType(functions))


# --------------------------------------------------------------------------- results


class ExprError(Exception):
    """A user's mistake in an expression.

    ``message`` says what is wrong and what to do; ``col`` is the 0-based
    character offset in the expression source (the column, for one-line
    expressions), or None when no single position applies.
    """

    def __init__(self, message: str, col: int | None = None) -> None:
        super().__init__(message if col is None else f"{message} (at column {col})")
        self.message = message
        self.col = col


@dataclass(frozen=True)
class CompiledExpr:
    """A checked expression.

    ``python`` is a Python expression reading the vocabulary through the
    receiver; it may call the builtins in ``BUILTIN_FUNCTIONS`` and ``bool``,
    and the runtime helpers in ``helpers`` (import them from ``RUNTIME_MODULE``).
    """

    source: str
    python: str
    type: Type
    names: frozenset[str]
    functions: frozenset[str] = frozenset()
    helpers: frozenset[str] = frozenset()


# --------------------------------------------------------------------------- compile


def compile_expr(source: str, vocab: Vocabulary, expect: Type | None) -> CompiledExpr:
    """Check ``source`` against ``vocab`` and return it as Python source.

    ``expect`` is the required type (``BOOL`` for conditions, ``INT`` for
    values) or None to accept any type.  Raises :class:`ExprError` for every
    problem in ``source``; never returns unchecked code.
    """
    if not isinstance(source, str):
        raise ExprError(f"an expression must be text, got {type(source).__name__}")
    if len(source) > MAX_SOURCE_LENGTH:
        raise ExprError(
            f"expression is {len(source)} characters long, the limit is {MAX_SOURCE_LENGTH}; "
            "split it, or move the logic into a declared function",
            MAX_SOURCE_LENGTH,
        )
    stripped = source.lstrip(" \t\f\r\n")
    if not stripped.strip():
        raise ExprError("the expression is empty; write a condition or a value", 0)
    pos = _Positions(stripped, len(source) - len(stripped))
    tree = _parse(stripped, pos)
    _check_tokens(stripped, tree, pos)
    _check_depth(tree, pos)

    checker = _Checker(vocab, pos)
    result = checker.check(tree.body, _Ctx.empty())
    if expect is not None:
        problem = _accepts(expect, result)
        if problem is not None:
            if expect in (BOOL, INT) or problem.startswith("expected"):
                problem = _expect_message(expect, result.type)
            raise ExprError(problem, pos.col(tree.body))
    if isinstance(result.type, IterOf):
        raise ExprError(
            "a bare generator is not a value; wrap it: all(...), any(...), sum(...), min(...) "
            "or max(...)",
            pos.col(tree.body),
        )
    out = ast.Expression(body=result.node)
    ast.fix_missing_locations(out)
    python = ast.unparse(out)
    _verify(python, out, vocab, checker.helpers)
    return CompiledExpr(
        source=source,
        python=python,
        type=result.type,
        names=frozenset(checker.names),
        functions=frozenset(checker.functions),
        helpers=frozenset(checker.helpers),
    )


def _expect_message(expect: Type, got: Type) -> str:
    if expect == BOOL:
        hint = "; compare it, e.g. `... > 0`" if got == INT else ""
        if isinstance(got, (Optional, ListOf, SetOf)):
            hint = "; test it explicitly, e.g. `x is not None` or `len(x) > 0`"
        return (
            f"a condition must be true/false (bool), but this expression is {got.describe()}{hint}"
        )
    if expect == INT:
        hint = "; a condition is not a number: write e.g. `1 if ... else 0`" if got == BOOL else ""
        return f"a value must be an int, but this expression is {got.describe()}{hint}"
    return f"this expression must be {expect.describe()}, but it is {got.describe()}"


class _Positions:
    """Maps the parser's (line, UTF-8 byte column) to character offsets in the original source."""

    def __init__(self, text: str, delta: int) -> None:
        self.delta = delta
        self.lines: list[str] = []
        self.starts: list[int] = []
        start = 0
        i = 0
        n = len(text)
        # Python's tokenizer ends lines at \n, \r\n and \r only.
        while i <= n:
            if i == n or text[i] in "\r\n":
                end = i
                if i < n and text[i] == "\r" and i + 1 < n and text[i + 1] == "\n":
                    i += 1
                self.lines.append(text[start:end])
                self.starts.append(start)
                start = i + 1
            i += 1

    def at(self, lineno: int | None, byte_col: int | None) -> int | None:
        if lineno is None or byte_col is None or not 1 <= lineno <= len(self.lines):
            return None
        line = self.lines[lineno - 1]
        chars = len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))
        return self.delta + self.starts[lineno - 1] + chars

    def char_at(self, lineno: int | None, char_col: int | None) -> int | None:
        if lineno is None or char_col is None or not 1 <= lineno <= len(self.lines):
            return None
        return self.delta + self.starts[lineno - 1] + max(char_col, 0)

    def col(self, node: ast.AST) -> int | None:
        return self.at(getattr(node, "lineno", None), getattr(node, "col_offset", None))


def _parse(text: str, pos: _Positions) -> ast.Expression:
    try:
        with warnings.catch_warnings():
            # e.g. "invalid escape sequence" or "'is' with a literal": the checker reports what
            # matters
            warnings.simplefilter("ignore")
            return ast.parse(text, mode="eval")
    except SyntaxError as exc:
        col = pos.char_at(exc.lineno, (exc.offset - 1) if exc.offset else None)
        if col is not None:
            col = min(col, pos.delta + len(text))
        msg = exc.msg or "invalid syntax"
        if "null bytes" in msg:
            col = None
        hint = ""
        if msg in ("invalid syntax", "invalid syntax. Perhaps you forgot a comma?"):
            hint = (
                "; an expression is one Python-style expression (no statements, imports or "
                "assignments)"
            )
        raise ExprError(f"syntax error: {msg}{hint}", col) from None
    except (ValueError, MemoryError, RecursionError) as exc:
        raise ExprError(f"the expression cannot be parsed: {exc}") from None


def _check_tokens(text: str, tree: ast.Expression, pos: _Positions) -> None:
    """Reject non-ASCII identifiers and implicitly joined strings in the raw source.

    Python normalises identifiers with NFKC, so ``ｆan`` (fullwidth f) would
    silently read ``fan``; a spec must spell names exactly.
    """
    previous: tokenize.TokenInfo | None = None
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.NAME and not tok.string.isascii():
                _raise_non_ascii(tok.string, pos.char_at(tok.start[0], tok.start[1]))
            if (
                tok.type == tokenize.STRING
                and previous is not None
                and previous.type == tokenize.STRING
            ):
                raise ExprError(
                    "two strings side by side are silently joined into one; "
                    "add the missing comma or operator between them",
                    pos.char_at(tok.start[0], tok.start[1]),
                )
            if tok.type not in (tokenize.NL, tokenize.COMMENT):
                previous = tok
    except (tokenize.TokenError, SyntaxError):
        pass  # the parser accepted it; the AST-based check below still applies
    # Second line of defence, using the parser's own positions.
    for node in ast.walk(tree):
        raw: str | None = None
        name: str | None = None
        if isinstance(node, ast.Name):
            name, raw = node.id, ast.get_source_segment(text, node)
        elif isinstance(node, ast.Attribute):
            name, raw = node.attr, ast.get_source_segment(text, node)
            if raw is not None and raw.endswith(node.attr):
                raw = node.attr
        if name is not None and (raw is None or raw != name):
            _raise_non_ascii(raw if raw is not None else name, pos.col(node))


def _raise_non_ascii(raw: str, col: int | None) -> NoReturn:
    names = ", ".join(f"U+{ord(c):04X}" for c in raw if not c.isascii())
    raise ExprError(
        f"identifier {raw!r} contains non-ASCII characters ({names}); Python would silently "
        "read it as a different name, so identifiers must be plain ASCII: retype it",
        col,
    )


def _check_depth(tree: ast.Expression, pos: _Positions) -> None:
    stack: list[tuple[ast.AST, int]] = [(tree.body, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ExprError(
                f"the expression is nested more than {MAX_DEPTH} levels deep; simplify it",
                pos.col(node),
            )
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.expr, ast.comprehension)):
                stack.append((child, depth + 1))


# --------------------------------------------------------------------------- checker


@dataclass(frozen=True)
class _Checked:
    type: Type
    node: ast.expr
    col: int | None
    consts: tuple[object, ...] | None = None  # value(s) of a constant or a literal of constants
    path: tuple[str, ...] | None = None  # dotted path, for narrowing optionals
    narrowed: bool = False  # declared optional, known not None here


@dataclass(frozen=True)
class _Ctx:
    bound: Mapping[str, Type]  # comprehension variables in scope
    nonnull: frozenset[tuple[str, ...]]  # paths known not to be None here

    @staticmethod
    def empty() -> _Ctx:
        return _Ctx(_pytypes.MappingProxyType({}), frozenset())

    def narrowed(self, paths: Iterable[tuple[str, ...]]) -> _Ctx:
        paths = frozenset(paths)
        if not paths:
            return self
        return _Ctx(self.bound, self.nonnull | paths)

    def bind(self, name: str, typ: Type) -> _Ctx:
        bound = dict(self.bound)
        bound[name] = typ
        return _Ctx(_pytypes.MappingProxyType(bound), self.nonnull)


_REJECTED: dict[type, str] = {
    ast.Lambda: "lambda is not allowed; write the condition directly, or declare a function in "
    "the vocabulary",
    ast.NamedExpr: "assignment expressions (:=) are not allowed; expressions cannot set variables",
    ast.JoinedStr: "f-strings are not allowed; expressions compute bools and ints, not text",
    ast.FormattedValue: "f-strings are not allowed; expressions compute bools and ints, not text",
    ast.Subscript: "indexing and slicing (x[...]) are not allowed; use any()/all() over the "
    "items or a declared function",
    ast.Slice: "slices are not allowed",
    ast.Starred: "*-unpacking is not allowed; pass arguments one by one",
    ast.Dict: "dict literals are not allowed; use a tuple of constants, e.g. (1, 9)",
    ast.DictComp: "dict comprehensions are not allowed",
    ast.Await: "await is not allowed",
    ast.Yield: "yield is not allowed",
    ast.YieldFrom: "yield is not allowed",
}

_BINOPS: dict[type, str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
}
_REJECTED_BINOPS: dict[type, str] = {
    ast.Div: "`/` is not allowed (it produces fractions); use `//` for integer division",
    ast.MatMult: "`@` is not allowed",
    ast.BitAnd: "bitwise `&` is not allowed; use `and` for logic",
    ast.BitOr: "bitwise `|` is not allowed; use `or` for logic",
    ast.BitXor: "bitwise `^` is not allowed; use `!=` between bools",
    ast.LShift: "`<<` is not allowed; use `2 ** n` (bounded) instead",
    ast.RShift: "`>>` is not allowed; use `//` instead",
}
_CMP_TEXT: dict[type, str] = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
}
_ORDER_OPS = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def _suggest(word: str, candidates: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest candidates, or an empty string."""
    matches = difflib.get_close_matches(word, sorted(set(candidates)), n=3, cutoff=0.6)
    if not matches:
        return ""
    return " (did you mean " + " or ".join(repr(m) for m in matches) + "?)"


def _listing(candidates: Iterable[str], limit: int = 12) -> str:
    items = sorted(set(candidates))
    shown = ", ".join(items[:limit])
    if len(items) > limit:
        shown += f", ... ({len(items)} in all)"
    return shown


def _enum_problem(enum: Enum, value: object) -> str | None:
    if isinstance(value, str) and value in enum.values:
        return None
    if not isinstance(value, str):
        return f"{value!r} is not a {enum.name} value ({enum.name} values are strings)"
    return (
        f"{value!r} is not a {enum.name} value{_suggest(value, enum.values)}; "
        f"{enum.name} values are: {_listing(enum.values)}"
    )


def _accepts(expected: Type, got: _Checked) -> str | None:
    """Return None if ``got`` may be used where ``expected`` is required, else a reason."""
    return _accepts_type(expected, got.type, got.consts)


def _accepts_type(expected: Type, actual: Type, consts: tuple[object, ...] | None) -> str | None:
    if expected == actual:
        return None
    if isinstance(expected, Optional):
        if actual == NONE:
            return None
        return _accepts_type(expected.inner, actual, consts)
    if expected == STR and isinstance(actual, Enum):
        return None
    if isinstance(expected, Enum) and actual == STR and consts is not None:
        for value in consts:
            problem = _enum_problem(expected, value)
            if problem:
                return problem
        return None
    if isinstance(expected, (ListOf, SetOf)) and type(expected) is type(actual):
        assert isinstance(actual, (ListOf, SetOf))
        return _accepts_type(expected.elem, actual.elem, consts)
    return f"expected {expected.describe()}, got {actual.describe()}"


def _comparable(
    a: Type,
    a_consts: tuple[object, ...] | None,
    b: Type,
    b_consts: tuple[object, ...] | None,
) -> str | None:
    """Why ``a == b`` makes no sense, or None if it does."""
    if a == NONE or b == NONE:
        return "compare with None using `is None` / `is not None`"
    for t in (a, b):
        if isinstance(t, Optional):
            return (
                f"one side is {t.describe()} and may be None; check `... is not None and ...` first"
            )
        if isinstance(t, IterOf):
            return "a generator cannot be compared; use all(...)/any(...) or a list [...]"
    if isinstance(a, Enum) and b == STR and b_consts is not None:
        return _accepts_type(a, b, b_consts)
    if isinstance(b, Enum) and a == STR and a_consts is not None:
        return _accepts_type(b, a, a_consts)
    if a == b:
        return None
    if {type(a), type(b)} == {Enum, Prim} and STR in (a, b):
        return None
    if isinstance(a, Enum) and isinstance(b, Enum):
        return f"{a.name} and {b.name} are different kinds of value and never equal"
    if isinstance(a, (ListOf, SetOf)) and type(a) is type(b):
        assert isinstance(b, (ListOf, SetOf))
        return _comparable(a.elem, a_consts, b.elem, b_consts)
    return f"cannot compare {a.describe()} with {b.describe()}"


class _Checker:
    def __init__(self, vocab: Vocabulary, pos: _Positions) -> None:
        self.vocab = vocab
        self.pos = pos
        self.names: set[str] = set()
        self.functions: set[str] = set()
        self.helpers: set[str] = set()

    # -- helpers
    def fail(self, message: str, node: ast.AST | None) -> NoReturn:
        raise ExprError(message, self.pos.col(node) if node is not None else None)

    def attr_col(self, node: ast.Attribute) -> int | None:
        """Offset of the attribute name in ``x.attr`` (attribute names are ASCII here)."""
        end = node.end_col_offset
        if end is None:
            return self.pos.col(node)
        return self.pos.at(node.end_lineno, end - len(node.attr))

    def known_names(self, ctx: _Ctx) -> list[str]:
        return [
            *self.vocab.names,
            *self.vocab.functions,
            *BUILTIN_FUNCTIONS,
            *ctx.bound,
        ]

    def check(self, node: ast.AST, ctx: _Ctx) -> _Checked:
        rejected = _REJECTED.get(type(node))
        if rejected is not None:
            self.fail(rejected, node)
        method = _DISPATCH.get(type(node))
        if method is None:
            self.fail(f"{type(node).__name__} expressions are not allowed in rules", node)
        return method(self, node, ctx)

    def out(self, typ: Type, node: ast.expr, src: ast.AST, **kw: object) -> _Checked:
        return _Checked(typ, node, self.pos.col(src), **kw)  # type: ignore[arg-type]

    def truth(self, node: ast.expr, ctx: _Ctx, what: str) -> _Checked:
        """Check ``node`` in a truth-testing position."""
        checked = self.check(node, ctx)
        t = checked.type
        if t == BOOL or isinstance(t, (Optional, ListOf, SetOf)):
            return checked
        if isinstance(t, IterOf):
            self.fail(
                f"a generator is always true; wrap it in any(...) or all(...) to use it in {what}",
                node,
            )
        hint = ""
        if t == INT:
            hint = "; compare it, e.g. `... > 0`"
        elif t == STR or isinstance(t, Enum):
            hint = "; compare it, e.g. `... == 'value'`"
        self.fail(f"{what} needs a bool, but this is {t.describe()}{hint}", node)

    def facts(self, node: ast.expr, ctx: _Ctx, when: bool) -> set[tuple[str, ...]]:
        """Paths known not to be None when ``node`` evaluates truthy (``when``) or falsy."""
        if isinstance(node, (ast.Name, ast.Attribute)):
            path = _path_of(node)
            return {path} if (when and path is not None) else set()
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.facts(node.operand, ctx, not when)
        if isinstance(node, ast.BoolOp):
            if isinstance(node.op, ast.And) and when:
                return set().union(*(self.facts(v, ctx, True) for v in node.values))
            if isinstance(node.op, ast.Or) and not when:
                return set().union(*(self.facts(v, ctx, False) for v in node.values))
            return set()
        if (
            isinstance(node, ast.Compare)
            and len(node.ops) == 1
            and isinstance(node.comparators[0], ast.Constant)
            and node.comparators[0].value is None
            and isinstance(node.left, (ast.Name, ast.Attribute))
        ):
            path = _path_of(node.left)
            if path is None:
                return set()
            if isinstance(node.ops[0], ast.IsNot) and when:
                return {path}
            if isinstance(node.ops[0], ast.Is) and not when:
                return {path}
        return set()

    # -- leaves
    def check_constant(self, node: ast.Constant, ctx: _Ctx) -> _Checked:
        value = node.value
        if value is None:
            return self.out(NONE, ast.Constant(value=None), node, consts=(None,))
        if isinstance(value, bool):
            return self.out(BOOL, ast.Constant(value=bool(value)), node, consts=(value,))
        if isinstance(value, int):
            if abs(value) > MAX_INT:
                self.fail(
                    f"integer {value} is too large; rule constants are at most {MAX_INT}",
                    node,
                )
            return self.out(INT, ast.Constant(value=int(value)), node, consts=(value,))
        if isinstance(value, str):
            if len(value) > MAX_STR_LENGTH:
                self.fail(
                    f"string constant is {len(value)} characters; the limit is {MAX_STR_LENGTH}",
                    node,
                )
            return self.out(STR, ast.Constant(value=str(value)), node, consts=(value,))
        if isinstance(value, float):
            self.fail(
                "floats are not allowed; use integers (and // for integer division)",
                node,
            )
        if isinstance(value, complex):
            self.fail("complex numbers are not allowed; use integers", node)
        if isinstance(value, bytes):
            self.fail("bytes literals are not allowed; use a plain string 'like this'", node)
        self.fail(f"the constant {value!r} is not allowed", node)

    def name_text(self, name: str, node: ast.AST) -> None:
        if name.startswith("_"):
            self.fail(
                f"names beginning with '_' are not allowed ({name!r}); use a declared name",
                node,
            )

    def check_name(self, node: ast.Name, ctx: _Ctx) -> _Checked:
        name = node.id
        self.name_text(name, node)
        if name in ctx.bound:
            typ = ctx.bound[name]
            emitted: ast.expr = ast.Name(id=name, ctx=ast.Load())
        elif name in self.vocab.names:
            typ = self.vocab.names[name]
            self.names.add(name)
            emitted = ast.Attribute(
                value=ast.Name(id=self.vocab.receiver, ctx=ast.Load()),
                attr=name,
                ctx=ast.Load(),
            )
        elif name in self.vocab.functions or name in BUILTIN_FUNCTIONS:
            self.fail(f"{name!r} is a function; call it: {name}(...)", node)
        else:
            self.fail(
                f"unknown name {name!r}{_suggest(name, self.known_names(ctx))}; "
                f"names you can use: {_listing(self.known_names(ctx))}",
                node,
            )
        path = (name,)
        narrowed = isinstance(typ, Optional) and path in ctx.nonnull
        if isinstance(typ, Optional) and narrowed:
            typ = typ.inner
        return self.out(typ, emitted, node, path=path, narrowed=narrowed)

    def check_attribute(self, node: ast.Attribute, ctx: _Ctx) -> _Checked:
        attr = node.attr
        if attr.startswith("_"):
            raise ExprError(
                f"attributes beginning with '_' are not allowed ({attr!r}); use a declared "
                "attribute",
                self.attr_col(node),
            )
        base = self.check(node.value, ctx)
        t = base.type
        if isinstance(t, Optional) and isinstance(t.inner, Record):
            self.fail(
                f"{ast.unparse(node.value)} may be None; check `{ast.unparse(node.value)} is "
                "not None and ...` first",
                node,
            )
        if not isinstance(t, Record):
            self.fail(
                f"{ast.unparse(node.value)} is {t.describe()} and has no attributes",
                node,
            )
        if attr not in t.attrs:
            raise ExprError(
                f"{t.name} has no attribute {attr!r}{_suggest(attr, t.attrs)}; "
                f"{t.name} attributes are: {_listing(t.attrs)}",
                self.attr_col(node),
            )
        typ = t.attrs[attr]
        path = base.path + (attr,) if base.path is not None else None
        narrowed = isinstance(typ, Optional) and path is not None and path in ctx.nonnull
        if isinstance(typ, Optional) and narrowed:
            typ = typ.inner
        return self.out(
            typ,
            ast.Attribute(value=base.node, attr=attr, ctx=ast.Load()),
            node,
            path=path,
            narrowed=narrowed,
        )

    def check_literal(self, node: ast.Tuple | ast.List | ast.Set, ctx: _Ctx) -> _Checked:
        if not node.elts:
            self.fail("empty literals are not allowed; list at least one constant", node)
        elts: list[ast.expr] = []
        values: list[object] = []
        elem_type: Type | None = None
        for elt in node.elts:
            if isinstance(elt, ast.Starred):
                self.fail(_REJECTED[ast.Starred], elt)
            negate = False
            inner = elt
            if (
                isinstance(elt, ast.UnaryOp)
                and isinstance(elt.op, ast.USub)
                and isinstance(elt.operand, ast.Constant)
            ):
                negate, inner = True, elt.operand
            if not isinstance(inner, ast.Constant):
                self.fail("literals may only hold constants, e.g. (1, 9) or ('m', 'p')", elt)
            checked = self.check_constant(inner, ctx)
            if checked.type not in (INT, STR, BOOL):
                self.fail(
                    f"literals may hold ints, strings or bools, not {checked.type.describe()}",
                    elt,
                )
            if negate and checked.type != INT:
                self.fail("unary minus needs an int", elt)
            if elem_type is not None and checked.type != elem_type:
                self.fail(
                    f"all items of a literal must have the same type; found {elem_type.describe()} "
                    f"and {checked.type.describe()}",
                    elt,
                )
            elem_type = checked.type
            assert checked.consts is not None
            value = checked.consts[0]
            if negate:
                assert isinstance(value, int)
                value = -value
                elts.append(ast.UnaryOp(op=ast.USub(), operand=checked.node))
            else:
                elts.append(checked.node)
            values.append(value)
        assert elem_type is not None
        emitted: ast.expr
        if isinstance(node, ast.Set):
            emitted = ast.Set(elts=elts)
            typ: Type = SetOf(elem_type)
        elif isinstance(node, ast.List):
            emitted = ast.List(elts=elts, ctx=ast.Load())
            typ = ListOf(elem_type)
        else:
            emitted = ast.Tuple(elts=elts, ctx=ast.Load())
            typ = ListOf(elem_type)
        return self.out(typ, emitted, node, consts=tuple(values))

    # -- operators
    def check_boolop(self, node: ast.BoolOp, ctx: _Ctx) -> _Checked:
        is_and = isinstance(node.op, ast.And)
        word = "and" if is_and else "or"
        values: list[ast.expr] = []
        cur = ctx
        for value in node.values:
            checked = self.truth(value, cur, f"`{word}`")
            emitted = checked.node
            if checked.type != BOOL:
                emitted = ast.Call(
                    func=ast.Name(id="bool", ctx=ast.Load()),
                    args=[emitted],
                    keywords=[],
                )
            values.append(emitted)
            cur = cur.narrowed(self.facts(value, cur, is_and))
        op: ast.boolop = ast.And() if is_and else ast.Or()
        return self.out(BOOL, ast.BoolOp(op=op, values=values), node)

    def check_unaryop(self, node: ast.UnaryOp, ctx: _Ctx) -> _Checked:
        if isinstance(node.op, ast.Not):
            checked = self.truth(node.operand, ctx, "`not`")
            return self.out(BOOL, ast.UnaryOp(op=ast.Not(), operand=checked.node), node)
        if isinstance(node.op, (ast.USub, ast.UAdd)):
            checked = self.check(node.operand, ctx)
            sign = "-" if isinstance(node.op, ast.USub) else "+"
            if checked.type != INT:
                self.fail(
                    f"unary {sign} needs an int, but this is {checked.type.describe()}",
                    node,
                )
            op: ast.unaryop = ast.USub() if isinstance(node.op, ast.USub) else ast.UAdd()
            return self.out(INT, ast.UnaryOp(op=op, operand=checked.node), node)
        self.fail(
            "bitwise `~` is not allowed; use `not` for logic or `-x - 1` for arithmetic",
            node,
        )

    def check_binop(self, node: ast.BinOp, ctx: _Ctx) -> _Checked:
        rejected = _REJECTED_BINOPS.get(type(node.op))
        if rejected is not None:
            self.fail(rejected, node)
        text = _BINOPS.get(type(node.op))
        if text is None:
            self.fail(f"operator {type(node.op).__name__} is not allowed", node)
        left = self.check(node.left, ctx)
        right = self.check(node.right, ctx)
        for side, name in ((left, "left"), (right, "right")):
            if side.type != INT:
                extra = ""
                if side.type == BOOL:
                    extra = "; to count a condition use `1 if ... else 0`"
                elif isinstance(side.type, Optional) and side.type.inner == INT:
                    extra = "; it may be None: check `... is not None and ...` first"
                self.fail(
                    f"`{text}` works on ints only, but its {name} side is "
                    f"{side.type.describe()}{extra}",
                    node.left if name == "left" else node.right,
                )
        if isinstance(node.op, ast.Pow):
            self.helpers.add("bounded_pow")
            emitted: ast.expr = ast.Call(
                func=ast.Name(id="bounded_pow", ctx=ast.Load()),
                args=[left.node, right.node],
                keywords=[],
            )
        else:
            op = type(node.op)()
            emitted = ast.BinOp(left=left.node, op=op, right=right.node)
        return self.out(INT, emitted, node)

    def check_compare(self, node: ast.Compare, ctx: _Ctx) -> _Checked:
        left_src: ast.expr = node.left
        left = self.check(left_src, ctx)
        first_node = left.node
        ops: list[ast.cmpop] = []
        comparators: list[ast.expr] = []
        for op, right_src in zip(node.ops, node.comparators):
            text = _CMP_TEXT[type(op)]
            if isinstance(op, (ast.Is, ast.IsNot)):
                if not (isinstance(right_src, ast.Constant) and right_src.value is None):
                    self.fail(
                        f"`{text}` may only be used as `x {text} None`; compare values with == "
                        "or !=",
                        right_src,
                    )
                if not isinstance(left.type, Optional) and not left.narrowed:
                    self.fail(
                        f"{ast.unparse(left_src)} is {left.type.describe()} and never None, so "
                        f"`{text} None` "
                        "is pointless; remove the test",
                        left_src,
                    )
                right = self.check(right_src, ctx)
            else:
                right = self.check(right_src, ctx)
                if isinstance(op, (ast.Eq, ast.NotEq)):
                    problem = _comparable(left.type, left.consts, right.type, right.consts)
                    if problem:
                        bad = right_src if right.consts is not None else node
                        self.fail(f"`{text}`: {problem}", bad)
                elif isinstance(op, _ORDER_OPS):
                    for side, src in ((left, left_src), (right, right_src)):
                        if side.type != INT:
                            extra = ""
                            if isinstance(side.type, Optional):
                                extra = "; it may be None: check `... is not None and ...` first"
                            self.fail(
                                f"`{text}` compares ints only, but this is "
                                f"{side.type.describe()}{extra}",
                                src,
                            )
                else:  # in / not in
                    self.membership(text, left, left_src, right, right_src)
            ops.append(type(op)())
            comparators.append(right.node)
            left, left_src = right, right_src
        return self.out(BOOL, ast.Compare(left=first_node, ops=ops, comparators=comparators), node)

    def membership(
        self,
        text: str,
        left: _Checked,
        left_src: ast.expr,
        right: _Checked,
        right_src: ast.expr,
    ) -> None:
        coll = right.type
        if isinstance(coll, Optional):
            self.fail(
                f"the right side of `{text}` is {coll.describe()} and may be None; check `... "
                "is not None and ...` first",
                right_src,
            )
        if isinstance(coll, IterOf):
            self.fail(f"`{text}` needs a list or set; for a generator use any(...)", right_src)
        if not isinstance(coll, (ListOf, SetOf)):
            self.fail(
                f"the right side of `{text}` must be a list or set, but it is {coll.describe()}",
                right_src,
            )
        if isinstance(left.type, Optional):
            name = ast.unparse(left_src)
            self.fail(
                f"{name} is {left.type.describe()} and may be None; narrow it first, e.g. "
                f"`{name} is not None and {name} {text} ...` or `... if {name} else ...`",
                left_src,
            )
        problem = _comparable(left.type, left.consts, coll.elem, right.consts)
        if problem:
            bad = right_src if right.consts is not None else left_src
            if problem.startswith("cannot compare"):
                problem = (
                    f"{ast.unparse(left_src)} is {left.type.describe()} but the items of "
                    f"{ast.unparse(right_src)} are {coll.elem.describe()}"
                )
            self.fail(f"`{text}`: {problem}", bad)

    def check_ifexp(self, node: ast.IfExp, ctx: _Ctx) -> _Checked:
        test = self.truth(node.test, ctx, "an `if` test")
        body = self.check(node.body, ctx.narrowed(self.facts(node.test, ctx, True)))
        orelse = self.check(node.orelse, ctx.narrowed(self.facts(node.test, ctx, False)))
        typ = self.unify(body, orelse, node)
        consts = None
        if (
            body.consts is not None
            and orelse.consts is not None
            and body.type == orelse.type == typ
        ):
            consts = body.consts + orelse.consts  # keep checking enum spellings through `if`/`else`
        return self.out(
            typ,
            ast.IfExp(test=test.node, body=body.node, orelse=orelse.node),
            node,
            consts=consts,
        )

    def unify(self, a: _Checked, b: _Checked, node: ast.AST) -> Type:
        if isinstance(a.type, IterOf) or isinstance(b.type, IterOf):
            self.fail(
                "a generator cannot be a branch of `if`/`else`; use a list [...] or wrap it in "
                "any/all",
                node,
            )
        if a.type == b.type:
            return a.type
        if a.type == NONE:
            return b.type if isinstance(b.type, Optional) else Optional(b.type)
        if b.type == NONE:
            return a.type if isinstance(a.type, Optional) else Optional(a.type)
        if _accepts(a.type, b) is None:
            return a.type
        if _accepts(b.type, a) is None:
            return b.type
        enum_problem = None
        if isinstance(a.type, Enum) and b.type == STR:
            enum_problem = _accepts(a.type, b)
        elif isinstance(b.type, Enum) and a.type == STR:
            enum_problem = _accepts(b.type, a)
        if enum_problem:
            self.fail(enum_problem, node)
        self.fail(
            f"both branches of `... if ... else ...` must have the same type, but one is "
            f"{a.type.describe()} and the other {b.type.describe()}",
            node,
        )

    # -- calls
    def check_call(self, node: ast.Call, ctx: _Ctx) -> _Checked:
        if node.keywords:
            self.fail(
                "keyword arguments are not allowed; pass arguments by position",
                node.keywords[0],
            )
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                self.fail(_REJECTED[ast.Starred], arg)
        if not isinstance(node.func, ast.Name):
            what = "methods" if isinstance(node.func, ast.Attribute) else "computed functions"
            self.fail(
                f"only declared functions and {', '.join(BUILTIN_FUNCTIONS)} can be called; "
                f"{what} cannot",
                node.func,
            )
        name = node.func.id
        self.name_text(name, node.func)
        if name in ctx.bound or name in self.vocab.names:
            self.fail(f"{name!r} is not a function and cannot be called", node.func)
        if name in self.vocab.functions:
            return self.call_declared(name, self.vocab.functions[name], node, ctx)
        if name in BUILTIN_FUNCTIONS:
            return self.call_builtin(name, node, ctx)
        callables = [*self.vocab.functions, *BUILTIN_FUNCTIONS]
        self.fail(
            f"unknown function {name!r}{_suggest(name, callables)}; functions you can call: "
            f"{_listing(callables)}",
            node.func,
        )

    def call_declared(self, name: str, sig: FuncSig, node: ast.Call, ctx: _Ctx) -> _Checked:
        if len(node.args) != len(sig.params):
            self.fail(
                f"{name}{sig.describe()} takes {len(sig.params)} argument(s), got {len(node.args)}",
                node,
            )
        args: list[ast.expr] = []
        for i, (arg, param) in enumerate(zip(node.args, sig.params), start=1):
            checked = self.check(arg, ctx)
            problem = _accepts(param, checked)
            if problem:
                self.fail(f"argument {i} of {name}: {problem}", arg)
            args.append(checked.node)
        self.functions.add(name)
        func = ast.Attribute(
            value=ast.Name(id=self.vocab.receiver, ctx=ast.Load()),
            attr=name,
            ctx=ast.Load(),
        )
        return self.out(sig.returns, ast.Call(func=func, args=args, keywords=[]), node)

    def call_builtin(self, name: str, node: ast.Call, ctx: _Ctx) -> _Checked:
        nargs = len(node.args)

        def emit(args: Sequence[_Checked]) -> ast.expr:
            return ast.Call(
                func=ast.Name(id=name, ctx=ast.Load()),
                args=[a.node for a in args],
                keywords=[],
            )

        def one_iterable(accept: tuple[Type, ...], what: str) -> _Checked:
            if nargs != 1:
                self.fail(f"{name}(...) takes one argument, got {nargs}", node)
            arg = self.check(node.args[0], ctx)
            t = arg.type
            if not isinstance(t, (ListOf, SetOf, IterOf)):
                self.fail(
                    f"{name}(...) needs a list, set or generator, but this is {t.describe()}",
                    node.args[0],
                )
            if t.elem not in accept:
                self.fail(
                    f"{name}(...) needs {what}, but the items are {t.elem.describe()}",
                    node.args[0],
                )
            return arg

        if name == "len":
            if nargs != 1:
                self.fail(f"len(...) takes one argument, got {nargs}", node)
            arg = self.check(node.args[0], ctx)
            if isinstance(arg.type, IterOf):
                self.fail(
                    "len() of a generator is not possible; use sum(1 for ...) or a list [...]",
                    node.args[0],
                )
            if not isinstance(arg.type, (ListOf, SetOf)):
                self.fail(
                    f"len(...) needs a list or set, but this is {arg.type.describe()}",
                    node.args[0],
                )
            return self.out(INT, emit([arg]), node)
        if name in ("all", "any"):
            arg = one_iterable((BOOL,), "bools (conditions)")
            return self.out(BOOL, emit([arg]), node)
        if name == "sum":
            arg = one_iterable((INT, BOOL), "ints (or bools, to count)")
            return self.out(INT, emit([arg]), node)
        if name in ("min", "max"):
            if nargs == 0:
                self.fail(f"{name}(...) needs one list/generator or two or more ints", node)
            if nargs == 1:
                arg = one_iterable((INT,), "ints")
                return self.out(INT, emit([arg]), node)
            args = [self.check(a, ctx) for a in node.args]
            for a, src in zip(args, node.args):
                if a.type != INT:
                    self.fail(
                        f"{name}(...) compares ints, but this is {a.type.describe()}",
                        src,
                    )
            return self.out(INT, emit(args), node)
        # abs
        if nargs != 1:
            self.fail(f"abs(...) takes one argument, got {nargs}", node)
        arg = self.check(node.args[0], ctx)
        if arg.type != INT:
            self.fail(
                f"abs(...) needs an int, but this is {arg.type.describe()}",
                node.args[0],
            )
        return self.out(INT, emit([arg]), node)

    # -- comprehensions
    def check_comprehension(
        self, node: ast.GeneratorExp | ast.ListComp | ast.SetComp, ctx: _Ctx
    ) -> _Checked:
        if len(node.generators) != 1:
            self.fail(
                "a comprehension may have only one `for`; nest any(...)/all(...) instead",
                node,
            )
        gen = node.generators[0]
        if gen.is_async:
            self.fail("async comprehensions are not allowed", node)
        target = gen.target
        if not isinstance(target, ast.Name):
            self.fail(
                "the loop variable must be a single name, e.g. `for g in groups`",
                target,
            )
        var = target.id
        self.name_text(var, target)
        if var == self.vocab.receiver:
            self.fail(
                f"the loop variable cannot be named {var!r}: generated code reads the rule's "
                "data through it; "
                "pick another name",
                target,
            )
        if var in self.vocab.names or var in self.vocab.functions:
            self.fail(
                f"the loop variable {var!r} would hide the vocabulary name {var!r}; pick "
                "another name",
                target,
            )
        if var in _EMITTED_BUILTINS or var in RUNTIME_HELPERS:
            self.fail(
                f"the loop variable {var!r} would hide the builtin {var!r}; pick another name",
                target,
            )
        if var in ctx.bound:
            self.fail(
                f"the loop variable {var!r} is already in use by an enclosing loop; pick "
                "another name",
                target,
            )
        iterable = self.check(gen.iter, ctx)
        it = iterable.type
        if isinstance(it, Optional):
            self.fail(
                f"{ast.unparse(gen.iter)} may be None; check it `is not None` first",
                gen.iter,
            )
        if not isinstance(it, (ListOf, SetOf)):
            extra = "; nest any(...)/all(...) instead" if isinstance(it, IterOf) else ""
            self.fail(
                f"`for` needs a list or set, but this is {it.describe()}{extra}",
                gen.iter,
            )
        inner = ctx.bind(var, it.elem)
        ifs: list[ast.expr] = []
        for cond in gen.ifs:
            checked = self.truth(cond, inner, "an `if` filter")
            ifs.append(checked.node)
            inner = inner.narrowed(self.facts(cond, inner, True))
        elt = self.check(node.elt, inner)
        if isinstance(elt.type, IterOf):
            self.fail(
                "a generator cannot produce generators; wrap the inner one in any/all/sum",
                node.elt,
            )
        comp = ast.comprehension(
            target=ast.Name(id=var, ctx=ast.Store()),
            iter=iterable.node,
            ifs=ifs,
            is_async=0,
        )
        if isinstance(node, ast.SetComp):
            if not (elt.type in (INT, STR, BOOL) or isinstance(elt.type, Enum)):
                self.fail(
                    f"set items must be ints, strings, bools or enums, not {elt.type.describe()}",
                    node.elt,
                )
            return self.out(SetOf(elt.type), ast.SetComp(elt=elt.node, generators=[comp]), node)
        if isinstance(node, ast.ListComp):
            return self.out(ListOf(elt.type), ast.ListComp(elt=elt.node, generators=[comp]), node)
        return self.out(IterOf(elt.type), ast.GeneratorExp(elt=elt.node, generators=[comp]), node)


_DISPATCH: dict[type, Callable[[Any, Any, _Ctx], _Checked]] = {
    ast.Constant: _Checker.check_constant,
    ast.Name: _Checker.check_name,
    ast.Attribute: _Checker.check_attribute,
    ast.Tuple: _Checker.check_literal,
    ast.List: _Checker.check_literal,
    ast.Set: _Checker.check_literal,
    ast.BoolOp: _Checker.check_boolop,
    ast.UnaryOp: _Checker.check_unaryop,
    ast.BinOp: _Checker.check_binop,
    ast.Compare: _Checker.check_compare,
    ast.IfExp: _Checker.check_ifexp,
    ast.Call: _Checker.check_call,
    ast.GeneratorExp: _Checker.check_comprehension,
    ast.ListComp: _Checker.check_comprehension,
    ast.SetComp: _Checker.check_comprehension,
}


def _path_of(node: ast.expr) -> tuple[str, ...] | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return tuple(reversed(parts))


# --------------------------------------------------------------------------- verifier

_ALLOWED_NODES: frozenset[type] = frozenset(
    {
        ast.Expression,
        ast.BoolOp,
        ast.And,
        ast.Or,
        ast.UnaryOp,
        ast.Not,
        ast.USub,
        ast.UAdd,
        ast.BinOp,
        ast.Add,
        ast.Sub,
        ast.Mult,
        ast.FloorDiv,
        ast.Mod,
        # Never from a spec (the checker refuses `&`): the build-time tile and
        # group tests of ``mjspec.compiler.hoist`` emit ``v.tile_mask & <mask> == 0``.
        ast.BitAnd,
        ast.Compare,
        ast.Eq,
        ast.NotEq,
        ast.Lt,
        ast.LtE,
        ast.Gt,
        ast.GtE,
        ast.In,
        ast.NotIn,
        ast.Is,
        ast.IsNot,
        ast.IfExp,
        ast.Call,
        ast.Attribute,
        ast.Name,
        ast.Load,
        ast.Store,
        ast.Constant,
        ast.Tuple,
        ast.List,
        ast.Set,
        ast.GeneratorExp,
        ast.ListComp,
        ast.SetComp,
        ast.comprehension,
    }
)


class _InternalError(AssertionError):
    pass


def _verify(python: str, built: ast.Expression, vocab: Vocabulary, helpers: Iterable[str]) -> None:
    """Defence in depth: the emitted text must parse back to exactly what was built, within the
    whitelist."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reparsed = ast.parse(python, mode="eval")
    except SyntaxError as exc:  # pragma: no cover - would be a compiler bug
        raise _InternalError(f"emitted code does not parse: {python!r}: {exc}") from None
    if ast.dump(reparsed) != ast.dump(built):
        raise _InternalError(f"emitted code does not round-trip: {python!r}")
    verify_python_ast(reparsed, vocab, frozenset(helpers))


def verify_python_ast(tree: ast.Expression, vocab: Vocabulary, helpers: frozenset[str]) -> None:
    """Assert that ``tree`` only uses whitelisted nodes, names, calls and constants."""
    receiver = vocab.receiver
    free_names = _EMITTED_BUILTINS | helpers | {receiver}

    def fail(why: str, node: ast.AST) -> NoReturn:
        raise _InternalError(f"emitted code failed verification: {why}: {ast.dump(node)[:200]}")

    def visit(node: ast.AST, bound: frozenset[str]) -> None:
        if type(node) not in _ALLOWED_NODES:
            fail(f"node {type(node).__name__} is not whitelisted", node)
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Store):
                fail("stray Store", node)
            if node.id not in bound and node.id not in free_names:
                fail(f"name {node.id!r} is not allowed", node)
            if node.id in bound and node.id in free_names:
                fail(f"loop variable {node.id!r} shadows a reserved name", node)
            return
        if isinstance(node, ast.Attribute):
            if node.attr.startswith("_") or not node.attr.isascii():
                fail(f"attribute {node.attr!r}", node)
            if (
                isinstance(node.value, ast.Name)
                and node.value.id == receiver
                and node.value.id not in bound
            ):
                if node.attr not in vocab.names and node.attr not in vocab.functions:
                    fail(
                        f"receiver attribute {node.attr!r} is not in the vocabulary",
                        node,
                    )
            visit(node.value, bound)
            return
        if isinstance(node, ast.Constant):
            value = node.value
            ok = (
                value is None
                or isinstance(value, (bool, str))
                or (isinstance(value, int) and (abs(value) <= MAX_INT or 0 <= value < MAX_MASK))
            )
            if not ok or (isinstance(value, str) and len(value) > MAX_STR_LENGTH):
                fail("constant", node)
            return
        if isinstance(node, ast.Call):
            if node.keywords:
                fail("keywords", node)
            func = node.func
            if isinstance(func, ast.Name):
                if func.id in bound or func.id not in (_EMITTED_BUILTINS | helpers):
                    fail(f"call to {func.id!r}", node)
            elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                if (
                    func.value.id != receiver
                    or func.value.id in bound
                    or func.attr not in vocab.functions
                ):
                    fail("call to an undeclared function", node)
            else:
                fail("computed call", node)
            for arg in node.args:
                visit(arg, bound)
            return
        if isinstance(node, ast.Compare):
            for op, comp in zip(node.ops, node.comparators):
                if isinstance(op, (ast.Is, ast.IsNot)) and not (
                    isinstance(comp, ast.Constant) and comp.value is None
                ):
                    fail("`is` with something other than None", node)
        if isinstance(node, (ast.GeneratorExp, ast.ListComp, ast.SetComp)):
            if len(node.generators) != 1:
                fail("several generators", node)
            gen = node.generators[0]
            if gen.is_async or not isinstance(gen.target, ast.Name):
                fail("comprehension target", node)
            var = gen.target.id
            if var in free_names or var in bound or var.startswith("_") or not var.isascii():
                fail(f"loop variable {var!r}", node)
            visit(gen.iter, bound)
            inner = bound | {var}
            for cond in gen.ifs:
                visit(cond, inner)
            visit(node.elt, inner)
            return
        for child in ast.iter_child_nodes(node):
            visit(child, bound)

    visit(tree, frozenset())
