"""The spec language's vocabulary, declared once in the runtime, and the runtime classes it compiles
to."""

from __future__ import annotations

from mjspec.runtime.vocabulary import (
    COMBINATION_NAMES,
    COSTLY_NAMES,
    GROUP,
    HAND_FUNCTIONS,
    HAND_NAMES,
    PAYMENT_NAMES,
    POINT_FUNCTIONS,
    POINT_NAMES,
    TILE,
)
from mjspec.runtime.hand import Group, GroupKind
from mjspec.runtime.tiles import Tile
from mjspec.runtime.view import HandView, PaymentView


def test_every_hand_name_is_a_view_slot() -> None:
    public = {s for s in HandView.__slots__ if not s.startswith("_")}
    public |= {k for k, v in vars(HandView).items() if isinstance(v, property)}
    assert set(HAND_NAMES) | set(COMBINATION_NAMES) | set(POINT_NAMES) == public
    assert not set(HAND_NAMES) & set(COMBINATION_NAMES)
    assert not set(HAND_NAMES) & set(POINT_NAMES)


def test_every_hand_function_is_a_view_method() -> None:
    for name, (sig, _) in HAND_FUNCTIONS.items():
        assert callable(getattr(HandView, name, None)), name
    for name in POINT_FUNCTIONS:
        assert callable(getattr(HandView, name, None)), name
    assert COSTLY_NAMES <= set(HAND_NAMES) | set(HAND_FUNCTIONS)


def test_every_payment_name_is_set_by_the_payment_view() -> None:
    pv = PaymentView(fan=2, capped=2, tsumo=True, dealer=False)
    for name in PAYMENT_NAMES:
        getattr(pv, name)


def test_group_record_attributes_exist_on_group() -> None:
    g = Group(GroupKind.TRIPLET, 0, True)
    for attr in GROUP.attrs:
        getattr(g, attr)


def test_tile_record_attributes_exist_on_tile() -> None:
    t = Tile(4, red=True)
    for attr in TILE.attrs:
        getattr(t, attr)


def test_the_view_takes_its_slots_from_the_vocabulary_and_types_every_one() -> None:
    import typing

    from mjspec.runtime import view

    public = {s for s in HandView.__slots__ if not s.startswith("_")}
    assert public == (set(HAND_NAMES) | set(COMBINATION_NAMES) | set(POINT_NAMES)) - view._COMPUTED
    # The annotations give each slot its Python type (what mypy --strict checks generated engines
    # by).
    assert public <= set(typing.get_type_hints(HandView))


def test_the_vocabulary_is_declared_once_in_the_runtime_which_imports_no_compiler() -> None:
    import ast
    import sys

    import mjspec.compiler.expr as X
    import mjspec.compiler.vocabulary as compiled
    import mjspec.runtime.vocabulary as declared

    tree = ast.parse(open(declared.__file__, encoding="utf-8").read())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and (node.module or "").split(".")[0] in sys.stdlib_module_names
        elif isinstance(node, ast.Import):
            assert all(a.name.split(".")[0] in sys.stdlib_module_names for a in node.names)
    # The compiler's names are the runtime's own objects, not copies.
    assert compiled.HAND_NAMES is declared.HAND_NAMES and compiled.GROUP is declared.GROUP
    assert X.Record is declared.Record and X.INT is declared.INT
