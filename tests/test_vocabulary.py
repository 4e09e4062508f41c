"""The spec language's vocabulary and the runtime classes it compiles to stay in step."""

from __future__ import annotations

from mjspec.compiler.vocabulary import (
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
