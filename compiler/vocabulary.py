"""The spec language's vocabulary: every name an expression may use, with its type.

Hand expressions (``when``, ``value``, ``count``, requirements) see one
arrangement of a winning hand (:class:`mjspec.runtime.view.HandView`); payment
formulas see the hand's count and earlier named amounts
(:class:`mjspec.runtime.view.PaymentView`). ``tests/test_vocabulary.py`` checks
that every name declared here exists on the runtime class it compiles to.
"""

from __future__ import annotations

from typing import Mapping

from .expr import BOOL, INT, Enum, ListOf, Optional, Record, SetOf, Type, Vocabulary

SUIT = Enum("suit", frozenset({"m", "p", "s", "z"}))
SHAPE = Enum("shape", frozenset({"standard", "seven_pairs", "thirteen_orphans", "knitted_straight", "honors_and_knitted"}))
WAIT = Enum("wait", frozenset({"two_sided", "edge", "closed", "single", "dual_pon", "thirteen_sided", "other"}))
GROUP_KIND = Enum("group kind", frozenset({"sequence", "triplet", "kong", "pair", "knitted", "single"}))
WIND = Enum("wind", frozenset({"E", "S", "W", "N"}))

TILE = Record(
    "Tile",
    {
        "suit": SUIT,
        "number": INT,
        "red": BOOL,
        "is_suited": BOOL,
        "is_honor": BOOL,
        "is_wind": BOOL,
        "is_dragon": BOOL,
        "is_terminal": BOOL,
        "is_terminal_or_honor": BOOL,
    },
)

GROUP = Record(
    "Group",
    {
        "kind": GROUP_KIND,
        "suit": SUIT,
        "number": INT,
        "concealed": BOOL,
        "is_triplet": BOOL,
        "is_kong": BOOL,
        "is_sequence": BOOL,
        "is_pair": BOOL,
        "is_honor": BOOL,
        "has_terminal_or_honor": BOOL,
        "is_terminal_or_honor_group": BOOL,
    },
)

#: Names a hand expression may use, each with its type and meaning.
HAND_NAMES: Mapping[str, tuple[Type, str]] = {
    "shape": (SHAPE, "the arrangement's shape"),
    "groups": (ListOf(GROUP), "every group of the arrangement, melds and pair included"),
    "sets": (ListOf(GROUP), "the four sets of a standard arrangement (no pair)"),
    "pair": (Optional(GROUP), "the pair of a standard arrangement"),
    "melds": (ListOf(GROUP), "the declared melds (exposed, and concealed kongs)"),
    "wait": (WAIT, "the wait the winning tile completed in this arrangement"),
    "win_tile": (TILE, "the winning tile"),
    "tiles": (ListOf(TILE), "every tile of the full hand, melds included"),
    "suits": (SetOf(SUIT), "the suits present in the full hand (z for honors)"),
    "four_of_a_kinds": (INT, "how many kinds the full hand holds all four copies of"),
    "is_closed": (BOOL, "no exposed meld (concealed kongs allowed)"),
    "tsumo": (BOOL, "won by self-draw"),
    "ron": (BOOL, "won on a discard or by robbing a kong"),
    "last_tile": (BOOL, "won on the last wall tile or its discard"),
    "after_kong": (BOOL, "self-drawn on a kong replacement"),
    "kong_shot": (BOOL, "won on the discard right after a kong"),
    "robbing_kong": (BOOL, "won on a tile added to a kong"),
    "first_draw": (BOOL, "won on the first draw of the hand"),
    "fourth_tile": (BOOL, "the winning tile was the last unseen copy"),
    "riichi": (BOOL, "the winner declared riichi"),
    "double_riichi": (BOOL, "the winner declared riichi on the first turn"),
    "ippatsu": (BOOL, "won within one turn of riichi"),
    "dealer": (BOOL, "the winner is the dealer"),
    "seat_wind": (WIND, "the winner's seat wind"),
    "round_wind": (WIND, "the round wind"),
    "missing_suit": (Optional(SUIT), "the suit the winner declared missing, if any"),
    "flowers": (INT, "how many flowers the winner exposed"),
}

#: Names every payment formula may use; earlier named amounts are added per profile.
PAYMENT_NAMES: Mapping[str, tuple[Type, str]] = {
    "fan": (INT, "the hand's total count before any cap"),
    "capped": (INT, "the total after the profile's cap"),
    "tsumo": (BOOL, "won by self-draw"),
    "ron": (BOOL, "won on a discard"),
    "dealer": (BOOL, "the winner is the dealer"),
}


def hand_vocabulary() -> Vocabulary:
    return Vocabulary(names={k: t for k, (t, _) in HAND_NAMES.items()}, functions={})


def payment_vocabulary(named: tuple[str, ...]) -> Vocabulary:
    names: dict[str, Type] = {k: t for k, (t, _) in PAYMENT_NAMES.items()}
    for n in named:
        names[n] = INT
    return Vocabulary(names=names, functions={})
