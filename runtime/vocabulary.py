"""The spec language's vocabulary, declared once: every name an expression may use, with its type
and meaning, and the types themselves.

Hand expressions (``when``, ``value``, ``count``, requirements) see one arrangement of a winning
hand (:class:`mjspec.runtime.view.HandView`, whose slots are the names declared here); payment
formulas see the hand's count and earlier named amounts (:class:`mjspec.runtime.view.PaymentView`).
The compiler (``mjspec.compiler.vocabulary``, ``mjspec.compiler.expr``) reads this module to check
expressions and to say what each name means; the runtime imports nothing of the compiler. Standard
library only.
"""

from __future__ import annotations

import keyword
import types as _pytypes
from collections.abc import Mapping
from dataclasses import dataclass


# --------------------------------------------------------------------------- types


class Type:
    """Base of all expression types."""

    def describe(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.describe()


@dataclass(frozen=True)
class Prim(Type):
    """A primitive type: use the constants ``BOOL``, ``INT``, ``STR``."""

    name: str

    def describe(self) -> str:
        return self.name


BOOL = Prim("bool")
INT = Prim("int")
STR = Prim("str")
#: The type of the constant ``None``; only meaningful next to ``is``/``is not``,
#: as an ``if``/``else`` branch, or as an argument for an optional parameter.
NONE = Prim("None")


@dataclass(frozen=True)
class Enum(Type):
    """A string with a fixed set of values, e.g. ``Enum("suit", {"m", "p", "s", "z"})``."""

    name: str
    values: frozenset[str]

    def __post_init__(self) -> None:
        values = frozenset(self.values)
        if not values or not all(isinstance(x, str) and x for x in values):
            raise ValueError(f"enum {self.name!r} needs a non-empty set of non-empty strings")
        object.__setattr__(self, "values", values)

    def describe(self) -> str:
        return self.name


@dataclass(frozen=True)
class Record(Type):
    """An object type whose declared attributes (and only those) may be read."""

    name: str
    attrs: Mapping[str, Type]

    def __post_init__(self) -> None:
        attrs = dict(self.attrs)
        for attr, typ in attrs.items():
            check_identifier(attr, f"attribute of record {self.name!r}")
            if not isinstance(typ, Type):
                raise TypeError(f"{self.name}.{attr}: {typ!r} is not an expression Type")
        object.__setattr__(self, "attrs", _pytypes.MappingProxyType(attrs))

    def __hash__(self) -> int:
        return hash((self.name, frozenset(self.attrs)))

    def describe(self) -> str:
        return self.name


@dataclass(frozen=True)
class ListOf(Type):
    elem: Type

    def describe(self) -> str:
        return f"list of {self.elem.describe()}"


@dataclass(frozen=True)
class SetOf(Type):
    elem: Type

    def describe(self) -> str:
        return f"set of {self.elem.describe()}"


@dataclass(frozen=True)
class IterOf(Type):
    """The type of a generator expression: only ``all/any/sum/min/max`` consume it."""

    elem: Type

    def describe(self) -> str:
        return f"generator of {self.elem.describe()}"


@dataclass(frozen=True)
class Optional(Type):
    inner: Type

    def __post_init__(self) -> None:
        if isinstance(self.inner, Optional) or self.inner == NONE:
            raise ValueError("Optional must wrap a non-optional type")

    def describe(self) -> str:
        return f"optional {self.inner.describe()}"


@dataclass(frozen=True)
class FuncSig:
    """Signature of a declared function: positional parameter types and the result type."""

    params: tuple[Type, ...]
    returns: Type

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", tuple(self.params))

    def describe(self) -> str:
        args = ", ".join(p.describe() for p in self.params)
        return f"({args}) -> {self.returns.describe()}"


def check_identifier(name: str, what: str) -> None:
    """Refuse a declared name that is no plain ASCII identifier, a keyword, or starts with ``_``."""
    if not (isinstance(name, str) and name.isidentifier() and name.isascii()):
        raise ValueError(f"{what} {name!r} is not an ASCII identifier")
    if keyword.iskeyword(name) or name.startswith("_"):
        raise ValueError(f"{what} {name!r} is a keyword or starts with '_'")


# --------------------------------------------------------------------------- the names


SUIT = Enum("suit", frozenset({"m", "p", "s", "z"}))
SHAPE = Enum(
    "shape",
    frozenset(
        {"standard", "seven_pairs", "thirteen_orphans", "knitted_straight", "honors_and_knitted"}
    ),
)
WAIT = Enum(
    "wait",
    frozenset({"two_sided", "edge", "closed", "single", "dual_pon", "thirteen_sided", "other"}),
)
GROUP_KIND = Enum(
    "group kind", frozenset({"sequence", "triplet", "kong", "pair", "knitted", "single"})
)
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
        "is_claimed_kong": BOOL,
        "is_sequence": BOOL,
        "is_pair": BOOL,
        "is_honor": BOOL,
        "is_wind": BOOL,
        "is_dragon": BOOL,
        "wind": Optional(WIND),
        "has_terminal_or_honor": BOOL,
        "is_terminal_or_honor_group": BOOL,
    },
)

#: Names a hand expression may use, each with its type and meaning.
HAND_NAMES: Mapping[str, tuple[Type, str]] = {
    "shape": (SHAPE, "the arrangement's shape"),
    "groups": (ListOf(GROUP), "every group of the arrangement, melds and pair included"),
    "sets": (
        ListOf(GROUP),
        "the sets of the arrangement, melds included: sequences, triplets and kongs (four in a "
        "standard hand, one beside a knitted straight, none in seven pairs)",
    ),
    "pair": (Optional(GROUP), "the pair of a standard arrangement"),
    "melds": (ListOf(GROUP), "the declared melds (exposed, and concealed kongs)"),
    "wait": (WAIT, "the wait the winning tile completed in this arrangement"),
    "win_tile": (TILE, "the winning tile"),
    "tiles": (ListOf(TILE), "every tile of the full hand, melds included"),
    "suits": (SetOf(SUIT), "the suits present in the full hand (z for honors)"),
    "tile_mask": (
        INT,
        "the kinds the full hand holds, as bits (bit k for kind k: 1m..9m are 0..8, 1p..9p 9..17, "
        "1s..9s 18..26, 1z..7z 27..33); the compiler tests a condition on every tile with it",
    ),
    "set_bits": (
        INT,
        "the arrangement's sets as bits: each kind of group and lowest tile owns four bits, as "
        "many "
        "set as the arrangement holds such sets; the compiler tests a condition on every set "
        "with it",
    ),
    "group_bits": (
        INT,
        "every group of the arrangement as bits, as set_bits; the compiler tests a condition "
        "on every "
        "group with it",
    ),
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
    "only_wait": (
        BOOL,
        "the hand before the winning tile waits on this one kind only, by shape alone: a kind "
        "whose "
        "every copy is already held still counts as a wait (a formally single wait)",
    ),
    "only_live_wait": (
        BOOL,
        "like only_wait, but a kind whose four copies were all exposed on the table (discards "
        "and declared "
        "sets; context.exhausted) is no wait; the winning kind always counts (003 'Filling the "
        "only place')",
    ),
    "winner": (
        BOOL,
        "the hand is the winner's; false when a loser's hand is scored for settlement",
    ),
    "own_bonus": (
        INT,
        "how many of the player's own flower and own season are exposed (0 to 2; seat East "
        "owns 1f and 5f, South 2f and 6f...)",
    ),
    "bonus_sets": (
        INT,
        "complete sets of bonus tiles exposed: all four flowers, all four seasons (0 to 2)",
    ),
    "original_call": (BOOL, "the winner declared Original Call with their first discard"),
    "kong_upon_kong": (
        BOOL,
        "self-drawn on a loose tile after a kong made with a previous loose tile",
    ),
    "dealer_wins": (
        INT,
        "the winner's consecutive wins as dealer before this hand (0 for a non-dealer)",
    ),
    "concealed_triplets": (
        INT,
        "triplets and kongs of the arrangement that are concealed; a triplet completed by a "
        "discard counts as exposed",
    ),
    "dora_indicators": (
        ListOf(TILE),
        "the dora indicators shown when the hand was won (context.dora_indicators)",
    ),
    "ura_indicators": (
        ListOf(TILE),
        "the indicators under the dora indicators (context.ura_indicators)",
    ),
}

#: Functions a hand expression may call, each with its signature and meaning.
HAND_FUNCTIONS: Mapping[str, tuple[FuncSig, str]] = {
    "count_of": (
        FuncSig((SUIT, INT), INT),
        "copies of the tile (suit, number) in the full hand, melds included",
    ),
    "concealed_count_of": (
        FuncSig((SUIT, INT), INT),
        "copies of the tile (suit, number) among the concealed tiles, the winning tile included",
    ),
    "concealed_at_win": (
        FuncSig((GROUP,), BOOL),
        "the group is concealed when the hand wins: not an exposed meld, and not a set that a "
        "discarded winning tile completed (a triplet won by ron counts as exposed)",
    ),
}

#: Names point items (scoring.points) see besides the hand names.
POINT_NAMES: Mapping[str, tuple[Type, str]] = {
    "points": (INT, "the raw sum of the point items that apply (in scoring.points.result only)"),
}

#: Names a combination pattern's expressions see besides the hand names: the
#: combined sets in tile order (``a``, ``b``... as many as the pattern combines).
COMBINATION_NAMES: Mapping[str, tuple[Type, str]] = {
    "a": (GROUP, "the first set of the combination (in tile order)"),
    "b": (GROUP, "the second set of the combination"),
    "c": (GROUP, "the third set of the combination"),
    "d": (GROUP, "the fourth set of the combination"),
    "members": (ListOf(GROUP), "every set of the combination, in tile order"),
}

#: Hand names and functions that cost time to compute; a profile's engine
#: records which of them its expressions use, and only those are computed.
COSTLY_NAMES: frozenset[str] = frozenset(
    {
        "only_wait",
        "only_live_wait",
        "concealed_triplets",
        "count_of",
        "concealed_count_of",
        "set_bits",
        "group_bits",
    }
)

#: Hand names and functions whose value depends only on the hand's tiles (its
#: concealed tiles, melds and winning tile), never on the situation of the win.
#: A pattern whose expressions read only these is marked ``tiles_only`` and the
#: scorer may reuse its result for the same tiles. Any name not listed here
#: counts as situational, so a new vocabulary name is safe by default.
TILES_ONLY_NAMES: frozenset[str] = frozenset(
    {
        "shape",
        "groups",
        "sets",
        "pair",
        "melds",
        "wait",
        "win_tile",
        "tiles",
        "suits",
        "tile_mask",
        "set_bits",
        "group_bits",
        "four_of_a_kinds",
        "is_closed",
        "only_wait",
        "count_of",
        "concealed_count_of",
        "a",
        "b",
        "c",
        "d",
        "members",
    }
)

#: The names of the combined sets. A combination pattern whose expressions read
#: only these is marked ``members_only``: its answer depends on those sets alone,
#: and the scorer remembers it per combination of sets.
MEMBERS_NAMES: frozenset[str] = frozenset(COMBINATION_NAMES)

#: Names every payment formula may use; earlier named amounts are added per profile.
PAYMENT_NAMES: Mapping[str, tuple[Type, str]] = {
    "fan": (INT, "the hand's total count before any cap"),
    "capped": (INT, "the total after the profile's cap"),
    "tsumo": (BOOL, "won by self-draw"),
    "ron": (BOOL, "won on a discard"),
    "dealer": (BOOL, "the winner is the dealer"),
    "points": (
        INT,
        "the hand's points (scoring.points: riichi fu, classical basic points); 0 for a limit hand",
    ),
    "limit": (BOOL, "a limit pattern counted (a yakuman, a limit hand)"),
    "honba": (INT, "the repeat counters on the table (context.honba)"),
}


#: Functions reading a game option (hand and payment expressions alike), each with the
#: option types it accepts, its result type and meaning. The argument is the option's
#: name as a string; the compiler accepts only names the profile declares with a fitting type.
OPTION_FUNCTIONS: Mapping[str, tuple[frozenset[str], Type, str]] = {
    "option_on": (frozenset({"bool"}), BOOL, "whether the bool option is set"),
    "option_value": (
        frozenset({"count", "seconds", "points"}),
        INT,
        "the value of a count, seconds or points option",
    ),
    "option_points": (
        frozenset({"score"}),
        INT,
        "the points of a score option (0 when it is doubles or the limit)",
    ),
    "option_doubles": (
        frozenset({"score"}),
        INT,
        "the doubles of a score option (0 when it is points or the limit)",
    ),
    "option_limit": (frozenset({"score"}), BOOL, "whether a score option is the limit"),
}

#: A profile's declared options: name -> type (``bool``, ``count``, ``seconds``, ``points``,
#: ``score``).
OptionTypes = Mapping[str, str]

#: The function point items may call besides the hand functions (its parameter: a pattern id).
POINT_FUNCTIONS: Mapping[str, str] = {
    "counted": "whether that pattern counted in the arrangement (point items and their result "
    "only)",
}
