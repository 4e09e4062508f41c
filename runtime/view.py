"""What a spec expression can see: one arrangement of one winning hand in its context.

Every attribute here is part of the spec language's vocabulary
(``mjspec.compiler.vocabulary`` declares the same names with their types, and a
test keeps the two in step). Attributes are plain slots, filled once per
arrangement: the hot path reads them many times.
"""

from __future__ import annotations


from .hand import Group
from .tiles import Tile


class HandView:
    """One arrangement of a winning hand plus the situation of the win."""

    __slots__ = (
        "shape",
        "groups",
        "sets",
        "pair",
        "melds",
        "wait",
        "win_tile",
        "tiles",
        "suits",
        "four_of_a_kinds",
        "is_closed",
        "tsumo",
        "ron",
        "last_tile",
        "after_kong",
        "kong_shot",
        "robbing_kong",
        "first_draw",
        "fourth_tile",
        "riichi",
        "double_riichi",
        "ippatsu",
        "dealer",
        "seat_wind",
        "round_wind",
        "missing_suit",
        "flowers",
    )

    shape: str
    groups: tuple[Group, ...]
    sets: tuple[Group, ...]
    pair: Group | None
    melds: tuple[Group, ...]
    wait: str
    win_tile: Tile
    tiles: tuple[Tile, ...]
    suits: frozenset[str]
    four_of_a_kinds: int
    is_closed: bool
    tsumo: bool
    ron: bool
    last_tile: bool
    after_kong: bool
    kong_shot: bool
    robbing_kong: bool
    first_draw: bool
    fourth_tile: bool
    riichi: bool
    double_riichi: bool
    ippatsu: bool
    dealer: bool
    seat_wind: str
    round_wind: str
    missing_suit: str | None
    flowers: int


class PaymentView:
    """What a payment formula can see: the hand's count and every earlier named amount."""

    def __init__(self, fan: int, capped: int, tsumo: bool, dealer: bool) -> None:
        self.fan = fan
        self.capped = capped
        self.tsumo = tsumo
        self.ron = not tsumo
        self.dealer = dealer

    def __getattr__(self, name: str) -> int:  # named values are set as attributes
        raise AttributeError(f"no payment value named {name!r}")
