"""The checked expression compiler: compilation, evaluation, rejection of hostile input."""

from __future__ import annotations

import ast
import builtins
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjspec.compiler.expr import (
    BOOL,
    BUILTIN_FUNCTIONS,
    INT,
    MAX_DEPTH,
    MAX_SOURCE_LENGTH,
    NONE,
    RUNTIME_HELPERS,
    STR,
    CompiledExpr,
    Enum,
    ExprError,
    FuncSig,
    ListOf,
    Optional,
    Record,
    SetOf,
    Type,
    Vocabulary,
    compile_expr,
    emitted_builtins,
)
from mjspec.runtime import exprlib
from mjspec.runtime.exprlib import bounded_pow

# --------------------------------------------------------------------------- vocabulary

SUIT = Enum("suit", frozenset({"m", "p", "s", "z"}))
SHAPE = Enum("shape", frozenset({"standard", "seven_pairs", "thirteen_orphans"}))
GROUP = Record(
    "Group",
    {
        "is_triplet": BOOL,
        "is_sequence": BOOL,
        "suit": SUIT,
        "number": INT,
        "bonus": Optional(INT),
    },
)
VOCAB = Vocabulary(
    names={
        "groups": ListOf(GROUP),
        "melds": ListOf(GROUP),
        "suits": SetOf(SUIT),
        "fan": INT,
        "missing_suit": Optional(SUIT),
        "tsumo": BOOL,
        "shape": SHAPE,
        "name": STR,
        "first": GROUP,
        "spare": Optional(GROUP),
    },
    functions={
        "count_kind": FuncSig((INT,), INT),
        "has_suit": FuncSig((SUIT,), BOOL),
    },
)


def group(suit: str, number: int, triplet: bool, bonus: int | None = None) -> SimpleNamespace:
    return SimpleNamespace(
        is_triplet=triplet,
        is_sequence=not triplet,
        suit=suit,
        number=number,
        bonus=bonus,
    )


def make_obj(**overrides: Any) -> SimpleNamespace:
    groups = [
        group("m", 1, True),
        group("p", 2, False, 3),
        group("s", 5, True, 4),
        group("m", 9, True),
    ]
    fields: dict[str, Any] = dict(
        groups=groups,
        melds=groups[:2],
        suits={"m", "p", "s"},
        fan=5,
        missing_suit="z",
        tsumo=True,
        shape="standard",
        name="mjspec",
        first=groups[0],
        spare=None,
        count_kind=lambda n: n * 2,
        has_suit=lambda s: s in {"m", "p", "s"},
    )
    fields.update(overrides)
    return SimpleNamespace(**fields)


NAMESPACE_BUILTINS = {n: getattr(builtins, n) for n in emitted_builtins()}


def run(compiled: CompiledExpr, obj: Any | None = None) -> Any:
    namespace: dict[str, Any] = {"__builtins__": {}, **NAMESPACE_BUILTINS}
    namespace[VOCAB.receiver] = make_obj() if obj is None else obj
    for helper in compiled.helpers:
        namespace[helper] = getattr(exprlib, helper)
    return eval(compiled.python, namespace)  # noqa: S307 - the point of the test


def evaluate(source: str, expect: Type | None = None, obj: Any | None = None) -> Any:
    return run(compile_expr(source, VOCAB, expect), obj)


# --------------------------------------------------------------------------- an independent
# verifier

ALLOWED_NODE_KINDS = {
    "Expression", "BoolOp", "And", "Or", "UnaryOp", "Not", "USub", "UAdd", "BinOp", "Add", "Sub",
    "Mult", "FloorDiv", "Mod", "Compare", "Eq", "NotEq", "Lt", "LtE", "Gt", "GtE", "In", "NotIn",
    "Is", "IsNot", "IfExp", "Call", "Attribute", "Name", "Load", "Store", "Constant", "Tuple",
    "List", "Set", "GeneratorExp", "ListComp", "SetComp", "comprehension",
}  # fmt: skip


def assert_safe(python: str, vocab: Vocabulary = VOCAB) -> None:
    """Re-check emitted code from scratch: node kinds, free names, attributes, constants."""
    tree = ast.parse(python, mode="eval")
    bound: set[str] = set()
    for node in ast.walk(tree):
        assert type(node).__name__ in ALLOWED_NODE_KINDS, (python, type(node).__name__)
        if isinstance(node, ast.comprehension):
            assert isinstance(node.target, ast.Name)
            bound.add(node.target.id)
    allowed_free = {vocab.receiver, *BUILTIN_FUNCTIONS, "bool", *RUNTIME_HELPERS}
    assert not bound & allowed_free, python
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            assert node.id in allowed_free or node.id in bound, (python, node.id)
            assert node.id.isascii() and not node.id.startswith("_")
        elif isinstance(node, ast.Attribute):
            assert not node.attr.startswith("_") and node.attr.isascii(), python
        elif isinstance(node, ast.Constant):
            assert node.value is None or type(node.value) in (int, bool, str), python
        elif isinstance(node, ast.Call):
            assert not node.keywords
            assert isinstance(node.func, (ast.Name, ast.Attribute)), python
            if isinstance(node.func, ast.Attribute):
                assert (
                    isinstance(node.func.value, ast.Name) and node.func.value.id == vocab.receiver
                )
                assert node.func.attr in vocab.functions
            else:
                assert node.func.id in allowed_free - {vocab.receiver}


def conforms(value: Any, typ: Type) -> bool:
    """Does a run-time value have the static type the compiler inferred?"""
    if typ == BOOL:
        return type(value) is bool
    if typ == INT:
        return type(value) is int
    if typ == STR:
        return type(value) is str
    if typ == NONE:
        return value is None
    if isinstance(typ, Enum):
        return value in typ.values
    if isinstance(typ, Optional):
        return value is None or conforms(value, typ.inner)
    if isinstance(typ, ListOf):
        return isinstance(value, (list, tuple)) and all(conforms(x, typ.elem) for x in value)
    if isinstance(typ, SetOf):
        return isinstance(value, (set, frozenset)) and all(conforms(x, typ.elem) for x in value)
    if isinstance(typ, Record):
        return all(conforms(getattr(value, a), t) for a, t in typ.attrs.items())
    return False


# --------------------------------------------------------------------------- compiling and
# evaluating

VALID = [
    # (source, expected type, value on make_obj())
    ("all(g.is_triplet for g in groups) and len(melds) == 4", BOOL, False),
    (
        "all(g.is_triplet for g in groups if g.suit == 'm') and len(melds) == 2",
        BOOL,
        True,
    ),
    ("2 ** min(fan, 3) + 1", INT, 9),
    ("missing_suit not in suits if missing_suit else len(suits) < 3", BOOL, True),
    ("missing_suit is not None and missing_suit in suits", BOOL, False),
    ("missing_suit is None or missing_suit in suits", BOOL, False),
    ("not missing_suit or missing_suit == 'z'", BOOL, True),
    ("shape in ('seven_pairs', 'thirteen_orphans')", BOOL, False),
    ("shape == 'standard' and not tsumo", BOOL, False),
    ("'m' in suits and 'z' not in suits", BOOL, True),
    ("fan // 2 + fan % 2 - -1", INT, 4),
    ("max(fan, 8, count_kind(fan))", INT, 10),
    ("min(g.number for g in groups)", INT, 1),
    ("max([g.number for g in groups if g.is_triplet])", INT, 9),
    ("sum(g.number for g in groups)", INT, 17),
    ("sum(g.is_triplet for g in groups)", INT, 3),
    ("sum(g.bonus for g in groups if g.bonus is not None)", INT, 7),
    ("sum(g.bonus if g.bonus else 0 for g in groups)", INT, 7),
    ("len({g.suit for g in groups})", INT, 3),
    ("abs(1 - fan)", INT, 4),
    ("1 <= fan <= 9", BOOL, True),
    ("fan if tsumo else 0", INT, 5),
    ("has_suit('m') and not has_suit('z')", BOOL, True),
    ("any(g.number in (1, 9) for g in groups)", BOOL, True),
    ("first.suit == 'm' and first.number == 1", BOOL, True),
    ("spare is not None and spare.is_triplet", BOOL, False),
    ("spare.number if spare else -1", INT, -1),
    ("suits and tsumo", BOOL, True),
    ("name == 'mjspec' and shape != name", BOOL, True),
    ("{g.suit for g in groups} == {'m', 'p', 's'}", BOOL, True),
    ("any(all(h.number >= g.number for h in groups) for g in groups)", BOOL, True),
    ("True", BOOL, True),
    ("  fan + 1", INT, 6),  # leading blanks (as YAML may leave them) are fine
    ("(fan\n + 1)", INT, 6),
]


@pytest.mark.parametrize(("source", "expect", "value"), VALID)
def test_valid_expressions_compile_and_evaluate(source: str, expect: Type, value: Any) -> None:
    compiled = compile_expr(source, VOCAB, expect)
    assert compiled.type == expect
    assert_safe(compiled.python)
    assert "\n" not in compiled.python
    result = run(compiled)
    assert result == value and type(result) is type(value)


def test_emission_details() -> None:
    c = compile_expr("2 ** min(fan, 3) + 1", VOCAB, INT)
    assert c.python == "bounded_pow(2, min(v.fan, 3)) + 1"
    assert c.helpers == {"bounded_pow"} and c.names == {"fan"}
    c = compile_expr("all(g.is_triplet for g in groups) and count_kind(fan) > 2", VOCAB, BOOL)
    assert "v.groups" in c.python and "v.count_kind(v.fan)" in c.python
    assert c.names == {"groups", "fan"} and c.functions == {"count_kind"} and not c.helpers
    # optionals and collections used in and/or become real bools
    c = compile_expr("missing_suit and tsumo", VOCAB, BOOL)
    assert c.python == "bool(v.missing_suit) and v.tsumo"
    assert run(c, make_obj(missing_suit=None)) is False


def test_receiver_is_configurable() -> None:
    vocab = Vocabulary({"fan": INT}, {"f": FuncSig((INT,), INT)}, receiver="ctx")
    c = compile_expr("f(fan) + fan", vocab, INT)
    assert c.python == "ctx.f(ctx.fan) + ctx.fan"
    assert_safe(c.python, vocab)
    with pytest.raises(ExprError):
        compile_expr("v.fan", vocab, INT)


def test_values_follow_the_object() -> None:
    obj = make_obj(fan=1, groups=[group("z", 1, True)] * 4, missing_suit=None, suits={"m"})
    assert evaluate("all(g.is_triplet for g in groups) and len(groups) == 4", BOOL, obj) is True
    assert (
        evaluate("missing_suit not in suits if missing_suit else len(suits) < 3", BOOL, obj) is True
    )
    assert evaluate("2 ** min(fan, 3) + 1", INT, obj) == 3


# --------------------------------------------------------------------------- bounded_pow


def test_pow_is_bounded_at_run_time() -> None:
    c = compile_expr("2 ** 2 ** 100", VOCAB, INT)
    assert c.python == "bounded_pow(2, bounded_pow(2, 100))"
    assert_safe(c.python)
    with pytest.raises(ValueError, match="exponent"):
        run(c)
    c = compile_expr("((1000000000 ** 64) ** 64) ** 64", VOCAB, INT)
    with pytest.raises(ValueError, match="bits"):
        run(c)
    assert evaluate("(-2) ** 3 + 0 ** 0", INT) == -7


def test_bounded_pow_directly() -> None:
    assert bounded_pow(2, 64) == 2**64
    assert bounded_pow(-1, 64) == 1 and bounded_pow(1, 0) == 1
    with pytest.raises(ValueError):
        bounded_pow(2, -1)
    with pytest.raises(ValueError):
        bounded_pow(2, 65)
    with pytest.raises(ValueError):
        bounded_pow(2**100, 64)
    with pytest.raises(TypeError):
        bounded_pow(2.0, 2)  # type: ignore[arg-type]
    assert RUNTIME_HELPERS == ("bounded_pow", "count_bits")
    assert all(
        name in exprlib.__all__ and callable(getattr(exprlib, name)) for name in RUNTIME_HELPERS
    )
    assert exprlib.count_bits(0) == 0 and exprlib.count_bits(0b1011 << 200) == 3


# --------------------------------------------------------------------------- hostile input

ADVERSARIAL = [
    "__import__('os')",
    "__import__('os').system('rm -rf /')",
    "().__class__.__bases__",
    "().__class__.__bases__[0].__subclasses__()",
    "groups.__class__",
    "any(g.__dict__ for g in groups)",
    "[g.__dict__ for g in groups]",
    "first.__init__.__globals__",
    "eval('1')",
    "exec('import os')",
    "open('x')",
    "getattr(v, 'x')",
    "type(fan)",
    "globals()",
    "vars()",
    "print(fan)",
    "bool(fan)",  # emitted internally, never callable from a spec
    "bounded_pow(2, 3)",
    "v",
    "v.fan",
    "lambda: 1",
    "(lambda: 1)()",
    "(x := 1)",
    "f'{fan}'",
    "f'{__import__(\"os\")}'",
    "groups[0]",
    "groups[0:2]",
    "fan; import os",
    "import os",
    "fan\nimport os",
    "*groups",
    "len(*groups)",
    "max(fan, key=abs)",
    "{'a': 1}",
    "{k: 1 for k in suits}",
    "await fan",
    "(yield)",
    "fan.real",
    "fan / 2",
    "fan << 40",
    "~fan",
    "fan & 1",
    "1.5",
    "1j",
    "b'x'",
    "...",
    "10000000000 > fan",
    "'x' * 1000000000",
    "'%s' % fan",
    "name + name",
    "shape.upper()",
    "len(name)",
    "g for g in groups",
    "any(g for g, h in groups)",
    "any((g, h) for g in groups)",
    "any(v.is_triplet for v in groups)",
    "any(len for len in groups)",
    "any(fan for fan in groups)",
    "any(bounded_pow for bounded_pow in groups)",
    "any(bool for bool in groups)",
    "any(_g.is_triplet for _g in groups)",
    "any(True for g in groups for h in groups)",
    "all(any(g.is_triplet for g in groups) for g in groups)",
    "any(g.is_triplet for g in groups) and g.is_triplet",
    "count_kind(fan)(1)",
    "first.is_triplet()",
    "(fan if tsumo else count_kind)(1)",
    "shape in ('standard' 'seven_pairs')",
    "shape in ('standard', 'seven_' 'pairs')",
]


@pytest.mark.parametrize("source", ADVERSARIAL)
def test_adversarial_inputs_are_rejected(source: str) -> None:
    with pytest.raises(ExprError) as info:
        compile_expr(source, VOCAB, None)
    assert info.value.message
    assert info.value.col is None or 0 <= info.value.col <= len(source)


def test_string_constants_cannot_break_out() -> None:
    source = '"x\'\\nimport os\\n\'" == "y"'
    compiled = compile_expr(source, VOCAB, BOOL)
    assert_safe(compiled.python)
    tree = ast.parse(compiled.python, mode="eval")
    assert isinstance(tree.body, ast.Compare)
    constants = [n for n in ast.walk(tree) if isinstance(n, ast.Constant)]
    assert [c.value for c in constants] == ["x'\nimport os\n'", "y"]
    assert "\n" not in compiled.python
    assert run(compiled) is False
    # a quote-heavy string is still exactly one constant
    tricky = "'''\"\"\"\\\\'; import os #"
    compiled = compile_expr(repr(tricky) + " == name", VOCAB, BOOL)
    tree = ast.parse(compiled.python, mode="eval")
    assert isinstance(tree.body, ast.Compare)
    assert tree.body.left.value == tricky  # type: ignore[attr-defined]
    assert run(compiled) is False


@pytest.mark.parametrize(
    ("source", "raw"),
    [
        ("ｆan", "ｆan"),  # fullwidth f: NFKC makes it `fan`
        ("ｇroups", "ｇroups"),
        ("ⅰ", "ⅰ"),  # small roman numeral one: NFKC makes it `i`
        ("а == 1", "а"),  # Cyrillic a
        ("fan + ﬁrst.number", "ﬁrst"),  # fi ligature
        ("any(g.ｓuit == 'm' for g in groups)", "ｓuit"),
        ("any(ｇ.is_triplet for ｇ in groups)", "ｇ"),
        ("len(groups) == 4 and 𝐭sumo", "𝐭sumo"),  # mathematical bold t
    ],
)
def test_non_ascii_identifiers_are_rejected(source: str, raw: str) -> None:
    with pytest.raises(ExprError) as info:
        compile_expr(source, VOCAB, None)
    assert "non-ASCII" in info.value.message and raw in info.value.message
    assert info.value.col == source.index(raw)


def test_non_ascii_is_fine_inside_strings() -> None:
    assert evaluate("name == '麻雀ｆ'", BOOL) is False


def test_unknown_attribute_suggests() -> None:
    source = "any(g.is_tripet for g in groups)"
    with pytest.raises(ExprError) as info:
        compile_expr(source, VOCAB, BOOL)
    assert "is_tripet" in info.value.message and "did you mean 'is_triplet'" in info.value.message
    assert info.value.col == source.index("is_tripet")


def test_enum_typo_suggests() -> None:
    source = "shape == 'seven_pair'"
    with pytest.raises(ExprError) as info:
        compile_expr(source, VOCAB, BOOL)
    assert "did you mean 'seven_pairs'" in info.value.message
    assert info.value.col == source.index("'seven_pair'")
    for bad in (
        "shape in ('seven_pairs', 'thirteen_orphan')",
        "'q' in suits",
        "has_suit('x')",
        "any(g.suit == 'n' for g in groups)",
        "missing_suit is not None and missing_suit != 'zz'",
    ):
        with pytest.raises(ExprError, match="not a (shape|suit) value"):
            compile_expr(bad, VOCAB, BOOL)


def test_unknown_names_suggest() -> None:
    with pytest.raises(ExprError, match="did you mean 'fan'") as info:
        compile_expr("fna + 1", VOCAB, INT)
    assert info.value.col == 0
    with pytest.raises(ExprError, match="did you mean 'count_kind'"):
        compile_expr("count_knd(1)", VOCAB, INT)
    with pytest.raises(ExprError, match="unknown function 'eval'"):
        compile_expr("eval('1')", VOCAB, INT)


def test_limits() -> None:
    long = "fan + " * (MAX_SOURCE_LENGTH // 6 + 1) + "1"
    assert len(long) > MAX_SOURCE_LENGTH
    with pytest.raises(ExprError, match="characters long"):
        compile_expr(long, VOCAB, INT)
    with pytest.raises(ExprError, match="nested more than"):
        compile_expr("-" * (MAX_DEPTH + 5) + "fan", VOCAB, INT)
    with pytest.raises(ExprError, match="nested more than"):
        compile_expr("not " * (MAX_DEPTH + 5) + "tsumo", VOCAB, BOOL)
    with pytest.raises(ExprError):  # the parser's own limit on parentheses
        compile_expr("(" * 300 + "fan" + ")" * 300, VOCAB, INT)
    assert evaluate("-" * (MAX_DEPTH - 2) + "fan", INT) == 5
    with pytest.raises(ExprError, match="too large"):
        compile_expr("fan + 1000000001", VOCAB, INT)
    with pytest.raises(ExprError, match="limit is 200"):
        compile_expr("name == '" + "x" * 201 + "'", VOCAB, BOOL)
    with pytest.raises(ExprError, match="empty"):
        compile_expr("   ", VOCAB, BOOL)


def test_syntax_errors_carry_columns() -> None:
    with pytest.raises(ExprError, match="syntax error") as info:
        compile_expr("fan; import os", VOCAB, INT)
    assert info.value.col == 3
    with pytest.raises(ExprError) as info:
        compile_expr("  fan + )", VOCAB, INT)
    assert info.value.col == 8
    with pytest.raises(ExprError) as info:
        compile_expr("fan\x00", VOCAB, INT)
    with pytest.raises(ExprError) as info:  # columns count characters, not UTF-8 bytes
        compile_expr("name == 'é' and fna", VOCAB, BOOL)
    assert info.value.col == len("name == 'é' and ")


TYPE_ERRORS = [
    ("fan", BOOL, "condition must be"),
    ("tsumo", INT, "value must be an int"),
    ("fan and tsumo", BOOL, "needs a bool"),
    ("not fan", BOOL, "needs a bool"),
    ("tsumo + 1", INT, "ints only"),
    ("fan + name", INT, "ints only"),
    ("fan == 'x'", BOOL, "cannot compare"),
    ("fan == tsumo", BOOL, "cannot compare"),
    ("shape == suits", BOOL, "cannot compare"),
    ("missing_suit == shape", BOOL, "may be None"),
    ("shape == missing_suit", BOOL, "may be None"),
    ("any(g.suit == shape for g in groups)", BOOL, "different kinds"),
    ("fan == None", BOOL, "is None"),
    ("fan is None", BOOL, "never None"),
    ("missing_suit is 'm'", BOOL, "x is None"),
    ("missing_suit in suits", BOOL, "may be None"),
    ("fan in suits", BOOL, "items of"),
    ("fan in fan", BOOL, "list or set"),
    ("fan in (g.number for g in groups)", BOOL, "any"),
    ("fan in ()", BOOL, "empty"),
    ("fan in (1, 'a')", BOOL, "same type"),
    ("fan in (1, fan)", BOOL, "only hold constants"),
    ("name < 'b'", BOOL, "ints only"),
    ("len(fan)", INT, "list or set"),
    ("len(g for g in groups)", INT, "generator"),
    ("all(g.number for g in groups)", BOOL, "bools"),
    ("sum(g.suit for g in groups)", INT, "ints"),
    ("min(fan)", INT, "list, set or generator"),
    ("min()", INT, "needs one"),
    ("max(fan, tsumo)", INT, "compares ints"),
    ("abs(tsumo)", INT, "needs an int"),
    ("abs(fan, fan)", INT, "one argument"),
    ("count_kind(tsumo)", INT, "argument 1"),
    ("count_kind(1, 2)", INT, "takes 1 argument"),
    ("count_kind", INT, "is a function"),
    ("fan(1)", INT, "not a function"),
    ("fan if tsumo else tsumo", INT, "same type"),
    ("fan if fan else 0", INT, "needs a bool"),
    ("any(g for g in groups)", BOOL, "bools"),
    ("spare.number", INT, "may be None"),
    ("spare.number if tsumo else 0", INT, "may be None"),
    ("(g.bonus for g in groups)", None, "bare generator"),
    ("any(g.bonus > 1 for g in groups)", BOOL, "may be None"),
    ("any(x.suit for x in fan)", BOOL, "list or set"),
    ("{g for g in groups}", None, "set items"),
    ("missing_suit if tsumo else 0", None, "same type"),
    ("-tsumo", INT, "needs an int"),
    ("(g.number for g in groups) if tsumo else [1]", None, "generator"),
]


@pytest.mark.parametrize(("source", "expect", "fragment"), TYPE_ERRORS)
def test_type_errors(source: str, expect: Type | None, fragment: str) -> None:
    with pytest.raises(ExprError) as info:
        compile_expr(source, VOCAB, expect)
    assert fragment in info.value.message, info.value.message


def test_narrowing_is_scoped() -> None:
    # narrowing holds only where the test guarantees it
    with pytest.raises(ExprError, match="may be None"):
        compile_expr("missing_suit in suits if not missing_suit else False", VOCAB, BOOL)
    with pytest.raises(ExprError, match="may be None"):
        compile_expr("missing_suit is not None or missing_suit in suits", VOCAB, BOOL)
    with pytest.raises(ExprError, match="may be None"):
        compile_expr("(missing_suit is not None) == tsumo and missing_suit in suits", VOCAB, BOOL)
    assert evaluate("False if not missing_suit else missing_suit in suits", BOOL) is False
    assert evaluate("False if missing_suit is None else missing_suit in suits", BOOL) is False
    assert evaluate("tsumo and missing_suit is not None and missing_suit in suits", BOOL) is False
    assert evaluate("not (missing_suit is None or missing_suit not in suits)", BOOL) is False
    assert evaluate("any(g.bonus > 3 for g in groups if g.bonus is not None)", BOOL) is True


def test_vocabulary_is_validated() -> None:
    for names in (
        {"_x": INT},
        {"len": INT},
        {"v": INT},
        {"class": INT},
        {"ｆan": INT},
        {"bool": INT},
    ):
        with pytest.raises(ValueError):
            Vocabulary(names)
    with pytest.raises(ValueError):
        Vocabulary({"fan": INT}, {"fan": FuncSig((), INT)})
    with pytest.raises(ValueError):
        Vocabulary({"fan": INT}, receiver="len")
    with pytest.raises(ValueError):
        Record("R", {"__dict__": INT})
    with pytest.raises(ValueError):
        Enum("e", frozenset())
    assert hash(GROUP) == hash(Record("Group", dict(GROUP.attrs)))
    assert ListOf(GROUP) == ListOf(Record("Group", dict(GROUP.attrs)))


# --------------------------------------------------------------------------- properties

TOKENS = [
    "fan", "tsumo", "groups", "melds", "suits", "missing_suit", "shape", "name", "first", "spare",
    "count_kind", "has_suit", "len", "all", "any", "sum", "min", "max", "abs", "bool", "v", "g",
    "h", ".is_triplet", ".suit", ".number", ".bonus", ".__class__", "__import__", "eval", "open",
    "for g in groups", "for h in melds", "if", "else", "and", "or", "not", "in", "not in", "is",
    "is not", "None", "True", "False", "0", "1", "2", "3", "64", "65", "'m'", "'z'", "'q'",
    "'standard'", "'seven_pairs'", "+", "-", "*", "//", "%", "**", "/", "==", "!=", "<", "<=", ">",
    ">=", "(", ")", "[", "]", "{", "}", ",", ":", "lambda", ":=", "ｆan", "'\\n'", ";",
]  # fmt: skip

_OK_AT_RUN_TIME = (ValueError, ZeroDivisionError)


def check_random_source(source: str) -> None:
    try:
        compiled = compile_expr(source, VOCAB, None)
    except ExprError as exc:
        assert isinstance(exc.message, str) and exc.message
        assert exc.col is None or 0 <= exc.col <= len(source)
        return
    assert_safe(compiled.python)
    # the static type is sound: what runs is what the checker said
    for obj in (
        make_obj(),
        make_obj(missing_suit=None, spare=make_obj().groups[1], fan=0, suits=set()),
    ):
        try:
            value = run(compiled, obj)
        except _OK_AT_RUN_TIME:
            continue
        assert conforms(value, compiled.type), (
            source,
            compiled.python,
            value,
            compiled.type,
        )


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=80))
def test_random_text_is_rejected_or_safe(source: str) -> None:
    check_random_source(source)


@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=14).map(" ".join))
def test_token_soup_is_rejected_or_safe(source: str) -> None:
    check_random_source(source)


def _well_typed() -> st.SearchStrategy[tuple[str, str]]:
    """(kind, source) pairs, kind "I" for int and "B" for bool expressions."""
    ints = st.sampled_from(
        ["fan", "0", "1", "2", "3", "count_kind(fan)", "len(groups)", "first.number"]
    )
    bools = st.sampled_from(
        ["tsumo", "True", "missing_suit is None", "'m' in suits", "shape == 'standard'"]
    )
    base = st.one_of(ints.map(lambda s: ("I", s)), bools.map(lambda s: ("B", s)))
    var = st.sampled_from(["a", "b", "c", "d", "e"])

    def extend(children: st.SearchStrategy[tuple[str, str]]) -> st.SearchStrategy[tuple[str, str]]:
        sub_i = children.filter(lambda t: t[0] == "I").map(lambda t: t[1])
        sub_b = children.filter(lambda t: t[0] == "B").map(lambda t: t[1])
        ops = st.sampled_from(["+", "-", "*", "//", "%", "**"])
        cmps = st.sampled_from(["<", "==", ">="])
        return st.one_of(
            st.builds(lambda a, op, b: ("I", f"({a} {op} {b})"), sub_i, ops, sub_i),
            st.builds(lambda a, b: ("I", f"max({a}, {b})"), sub_i, sub_i),
            st.builds(lambda a, b, c: ("I", f"({a} if {b} else {c})"), sub_i, sub_b, sub_i),
            st.builds(
                lambda x, a: (
                    "I",
                    f"sum({x}.number + {a} for {x} in groups if {x}.is_triplet)",
                ),
                var,
                sub_i,
            ),
            st.builds(lambda a, op, b: ("B", f"({a} {op} {b})"), sub_i, cmps, sub_i),
            st.builds(
                lambda a, op, b: ("B", f"({a} {op} {b})"),
                sub_b,
                st.sampled_from(["and", "or"]),
                sub_b,
            ),
            st.builds(lambda a: ("B", f"(not {a})"), sub_b),
            st.builds(
                lambda x, a: ("B", f"any({x}.number < {a} for {x} in groups)"),
                var,
                sub_i,
            ),
        )

    return st.recursive(base, extend, max_leaves=12)


WELL_TYPED = _well_typed()


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(WELL_TYPED)
def test_generated_well_typed_expressions_compile(tagged: tuple[str, str]) -> None:
    kind, source = tagged
    try:
        compiled = compile_expr(source, VOCAB, INT if kind == "I" else BOOL)
    except ExprError as exc:
        # the generator may nest two loops over the same variable name, which is refused
        assert "already in use" in exc.message or "nested more than" in exc.message, (
            source,
            exc,
        )
        return
    assert_safe(compiled.python)
    try:
        value = run(compiled)
    except _OK_AT_RUN_TIME:
        return
    # the compiled expression means what Python means by the same text
    namespace = {"__builtins__": {}, **NAMESPACE_BUILTINS, **vars(make_obj())}
    try:
        expected = eval(source, namespace)  # noqa: S307
    except (OverflowError, MemoryError):  # pragma: no cover
        return
    except _OK_AT_RUN_TIME:
        return
    assert value == expected


def test_redundant_none_tests_after_narrowing_are_allowed() -> None:
    assert evaluate("missing_suit is None or missing_suit is None", BOOL) is False
    assert (
        evaluate(
            "spare is not None and spare.bonus is not None and spare.bonus is not None",
            BOOL,
        )
        is False
    )
    with pytest.raises(ExprError, match="never None"):
        compile_expr("tsumo and tsumo is None", VOCAB, BOOL)


def test_enum_spelling_is_checked_through_if_else() -> None:
    with pytest.raises(ExprError, match="did you mean 'seven_pairs'"):
        compile_expr("shape == ('standard' if tsumo else 'seven_pair')", VOCAB, BOOL)
    assert evaluate("shape == ('standard' if tsumo else 'seven_pairs')", BOOL) is True


def test_parser_warnings_do_not_leak(recwarn: pytest.WarningsRecorder) -> None:
    with pytest.raises(ExprError):
        compile_expr("fan is 1", VOCAB, BOOL)
    assert evaluate("name == '\\d'", BOOL) is False
    assert not [w for w in recwarn if issubclass(w.category, (SyntaxWarning, DeprecationWarning))]
