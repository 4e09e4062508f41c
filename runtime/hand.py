"""The vocabulary of a hand: melds, groups and complete-hand arrangements.

A :class:`Meld` is what a player declared at the table (physical tiles, who
it was claimed from). A :class:`Group` is the rules-level reading of some
tiles (a sequence of 3m, a pair of 7z), whether they came from a meld or the
concealed hand; patterns and scoring look only at groups. An
:class:`Arrangement` is one full reading of a complete hand, as produced by
:func:`mjspec.runtime.shapes.arrangements`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .tiles import N_KINDS, Suit, Tile, number_of_kind, suit_of_kind

__all__ = [
    "MeldType",
    "MeldError",
    "Meld",
    "GroupKind",
    "Group",
    "ShapeKind",
    "WaitKind",
    "Arrangement",
    "GROUP_FIELD",
    "group_unit",
    "group_bits",
]


class MeldType(StrEnum):
    """How a meld was declared."""

    CHI = "chi"
    """A sequence completed with the discard of the player on the left."""
    PON = "pon"
    """A triplet completed with anyone's discard."""
    MINKAN = "minkan"
    """An open kong: three concealed tiles plus anyone's discard."""
    ANKAN = "ankan"
    """A concealed kong: four tiles from the player's own hand."""
    KAKAN = "kakan"
    """An added kong: a drawn fourth tile added to an earlier pon."""

    @property
    def is_kong(self) -> bool:
        return self in (MeldType.MINKAN, MeldType.ANKAN, MeldType.KAKAN)

    @property
    def is_concealed(self) -> bool:
        """Only a concealed kong keeps the hand concealed."""
        return self is MeldType.ANKAN


class MeldError(ValueError):
    """The tiles given do not form the meld declared."""


_SOURCES = ("left", "across", "right")


class GroupKind(StrEnum):
    """The shape of one group of tiles in an arrangement."""

    SEQUENCE = "sequence"
    """Three consecutive numbers of one suit (chow, shuntsu)."""
    TRIPLET = "triplet"
    """Three of a kind (pung, koutsu)."""
    KONG = "kong"
    """Four of a kind, always a declared meld (kan)."""
    PAIR = "pair"
    """Two of a kind: the head of a standard hand, or one of seven pairs."""
    KNITTED = "knitted"
    """1-4-7, 2-5-8 or 3-6-9 of one suit, as in knitted-straight shapes."""
    SINGLE = "single"
    """A lone tile of thirteen-orphans or honors-and-knitted shapes."""


# Tiles each group kind covers, as offsets from its lowest kind.
_OFFSETS: dict[GroupKind, tuple[int, ...]] = {
    GroupKind.SEQUENCE: (0, 1, 2),
    GroupKind.TRIPLET: (0, 0, 0),
    GroupKind.KONG: (0, 0, 0, 0),
    GroupKind.PAIR: (0, 0),
    GroupKind.KNITTED: (0, 3, 6),
    GroupKind.SINGLE: (0,),
}

_MELD_GROUP: dict[MeldType, GroupKind] = {
    MeldType.CHI: GroupKind.SEQUENCE,
    MeldType.PON: GroupKind.TRIPLET,
    MeldType.MINKAN: GroupKind.KONG,
    MeldType.ANKAN: GroupKind.KONG,
    MeldType.KAKAN: GroupKind.KONG,
}


_WIND_LETTERS = ("E", "S", "W", "N")
# Suit and number of each hand-forming kind, looked up on the scoring hot path.
_GROUP_SUIT: tuple[Suit, ...] = tuple(suit_of_kind(k) for k in range(N_KINDS))
_GROUP_NUMBER: tuple[int, ...] = tuple(number_of_kind(k) for k in range(N_KINDS))


#: Bits each (group kind, lowest tile) owns in an arrangement's ``set_bits`` and
#: ``group_bits``: as many of them set, from the lowest, as the arrangement holds
#: such groups. A kind of tile has at most four copies, so no group repeats more
#: than four times in one hand.
GROUP_FIELD = 4


def group_unit(kind: GroupKind, tile: int) -> int:
    """The lowest bit of the field that groups of ``kind`` starting at ``tile`` own."""
    return 1 << (GROUP_FIELD * (_KIND_INDEX[kind] * N_KINDS + tile))


_KIND_INDEX: dict[GroupKind, int] = {k: i for i, k in enumerate(GroupKind)}


def _is_terminal_or_honor(kind: int) -> bool:
    return kind >= 27 or kind % 9 in (0, 8)


@dataclass(frozen=True, slots=True)
class Group:
    """One group of a hand read as a shape.

    ``tile`` is the lowest kind covered; ``meld`` is the declared meld type,
    or None for a group read from the concealed hand. ``concealed`` is False
    only for open melds (a concealed kong stays concealed).

    What the kind and tile decide (``is_triplet``, ``suit``, ``wind``...) is
    worked out once when the group is made and kept as plain attributes:
    spec expressions read them for every group of every arrangement, and a
    slot is read several times faster than a property is computed. They take
    no part in equality or hashing (the four fields decide those).
    """

    kind: GroupKind
    tile: int
    concealed: bool
    meld: MeldType | None = None
    kinds: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Every kind covered, with repeats: a triplet of 3 is ``(3, 3, 3)``."""
    suit: Suit = field(init=False, repr=False, compare=False)
    number: int = field(init=False, repr=False, compare=False)
    """Number of the lowest tile within its suit."""
    is_claimed_kong: bool = field(init=False, repr=False, compare=False)
    """A kong made by claiming a discard (neither concealed nor added to an exposed pung)."""
    is_triplet: bool = field(init=False, repr=False, compare=False)
    """A triplet or a kong: most patterns treat them alike."""
    is_kong: bool = field(init=False, repr=False, compare=False)
    is_sequence: bool = field(init=False, repr=False, compare=False)
    is_pair: bool = field(init=False, repr=False, compare=False)
    is_terminal_or_honor_group: bool = field(init=False, repr=False, compare=False)
    """Every tile is a terminal or an honor."""
    has_terminal_or_honor: bool = field(init=False, repr=False, compare=False)
    """At least one tile is a terminal or an honor."""
    is_honor: bool = field(init=False, repr=False, compare=False)
    is_wind: bool = field(init=False, repr=False, compare=False)
    """Made of a wind (East, South, West, North)."""
    is_dragon: bool = field(init=False, repr=False, compare=False)
    """Made of a dragon (White, Green, Red)."""
    wind: str | None = field(init=False, repr=False, compare=False)
    """The wind of a wind group as its letter (``"E"``, ``"S"``, ``"W"``, ``"N"``); None
    otherwise."""
    unit: int = field(init=False, repr=False, compare=False)
    """:func:`group_unit` of its kind and tile (not in the spec vocabulary: the scorer's bits)."""
    covers: int = field(init=False, repr=False, compare=False)
    """The kinds covered as bits (bit k for kind k): whether it holds a kind is one shift and
    mask."""

    def __post_init__(self) -> None:
        kind, tile = self.kind, self.tile
        if not 0 <= tile < N_KINDS:
            raise ValueError(f"group tile must be a hand-forming kind 0..33, got {tile}")
        last = tile + _OFFSETS[kind][-1]
        if last != tile and (tile >= 27 or last // 9 != tile // 9):
            raise ValueError(f"a {kind} group cannot start at kind {tile}: it leaves its suit")
        if self.meld is not None and _MELD_GROUP[self.meld] is not kind:
            raise ValueError(f"a {self.meld} meld forms a {_MELD_GROUP[self.meld]}, not a {kind}")
        kinds = tuple(tile + d for d in _OFFSETS[kind])
        put = object.__setattr__  # frozen: the derived attributes are set once, here
        put(self, "kinds", kinds)
        put(self, "suit", _GROUP_SUIT[tile])
        put(self, "number", _GROUP_NUMBER[tile])
        put(self, "is_claimed_kong", self.meld is MeldType.MINKAN)
        put(self, "is_triplet", kind is GroupKind.TRIPLET or kind is GroupKind.KONG)
        put(self, "is_kong", kind is GroupKind.KONG)
        put(self, "is_sequence", kind is GroupKind.SEQUENCE)
        put(self, "is_pair", kind is GroupKind.PAIR)
        put(self, "is_terminal_or_honor_group", all(_is_terminal_or_honor(k) for k in kinds))
        put(self, "has_terminal_or_honor", any(_is_terminal_or_honor(k) for k in kinds))
        put(self, "is_honor", tile >= 27)
        put(self, "is_wind", 27 <= tile < 31)
        put(self, "is_dragon", tile >= 31)
        put(self, "wind", _WIND_LETTERS[tile - 27] if 27 <= tile < 31 else None)
        put(self, "unit", group_unit(kind, tile))
        put(self, "covers", sum(1 << k for k in set(kinds)))

    def contains(self, kind: int) -> bool:
        return kind >= 0 and bool(self.covers >> kind & 1)


_MELD_GROUPS: dict[tuple[MeldType, int], Group] = {}


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared meld: its type, its physical tiles and where the claimed tile came from.

    ``claimed`` is the tile taken from another player (None for a concealed
    kong, or when unknown); ``source`` is that player's seat relative to the
    claimer: ``"left"``, ``"across"`` or ``"right"``.
    """

    type: MeldType
    tiles: tuple[Tile, ...]
    claimed: Tile | None = None
    source: str | None = None
    group: Group = field(init=False, repr=False, compare=False)
    """The group this meld forms in every arrangement of the hand (made once, with the meld)."""

    def __post_init__(self) -> None:
        mt = self.type
        tiles = self.tiles

        def shown() -> str:  # for the messages only
            return " ".join(str(t) for t in tiles)

        want = 4 if mt.is_kong else 3
        if len(tiles) != want:
            raise MeldError(f"a {mt} takes {want} tiles, got {len(tiles)}: {shown()}")
        kinds = sorted([t.kind for t in tiles])
        if kinds[-1] >= N_KINDS:
            raise MeldError(f"flowers cannot be melded: {shown()}")
        if mt is MeldType.CHI:
            if (
                kinds[0] >= 27
                or kinds != [kinds[0], kinds[0] + 1, kinds[0] + 2]
                or kinds[2] // 9 != kinds[0] // 9
            ):
                raise MeldError(f"a chi needs three consecutive tiles of one suit, got {shown()}")
        elif kinds.count(kinds[0]) != want:
            raise MeldError(f"a {mt} needs {want} tiles of one kind, got {shown()}")
        if self.claimed is not None and self.claimed not in tiles:
            raise MeldError(
                f"the claimed tile {self.claimed} is not among the meld's tiles {shown()}"
            )
        if mt is MeldType.ANKAN and (self.claimed is not None or self.source is not None):
            raise MeldError("a concealed kong has no claimed tile and no source")
        if self.source is not None and self.source not in _SOURCES:
            raise MeldError(
                f"meld source must be one of {', '.join(_SOURCES)}; got {self.source!r}"
            )
        group = _MELD_GROUPS.get((mt, kinds[0]))
        if group is None:  # a group is an immutable value: made once per meld type and kind
            group = _MELD_GROUPS[(mt, kinds[0])] = Group(
                _MELD_GROUP[mt], kinds[0], mt.is_concealed, mt
            )
        object.__setattr__(self, "group", group)

    @property
    def kind(self) -> int:
        """The lowest kind in the meld (its group's first kind, made with the meld)."""
        return self.group.tile


class ShapeKind(StrEnum):
    """The overall shape of a complete hand."""

    STANDARD = "standard"
    """Four sets (sequences, triplets, kongs) and a pair."""
    SEVEN_PAIRS = "seven_pairs"
    """Seven pairs, fully concealed (chiitoitsu, qi dui)."""
    THIRTEEN_ORPHANS = "thirteen_orphans"
    """One of each terminal and honor plus a duplicate of one (kokushi musou)."""
    KNITTED_STRAIGHT = "knitted_straight"
    """1-4-7, 2-5-8, 3-6-9 in three different suits, plus a set and a pair (GB)."""
    HONORS_AND_KNITTED = "honors_and_knitted"
    """Fourteen distinct honors and knitted-suit tiles (GB quan bu kao)."""


class WaitKind(StrEnum):
    """How the winning tile completed the hand."""

    TWO_SIDED = "two_sided"
    """A sequence completed at either end of an open pair such as 23 (ryanmen)."""
    EDGE = "edge"
    """12 waiting on 3, or 89 waiting on 7 (penchan)."""
    CLOSED = "closed"
    """A sequence completed in the middle, 13 waiting on 2 (kanchan)."""
    SINGLE = "single"
    """A pair completed from a lone tile (tanki); also every seven-pairs wait."""
    DUAL_PON = "dual_pon"
    """A triplet completed from a pair, while another pair waited too (shanpon)."""
    THIRTEEN_SIDED = "thirteen_sided"
    """Thirteen orphans whose thirteen tiles before the win were all distinct."""
    OTHER = "other"
    """No winning tile was given, or the shape's wait has no name."""


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One way to read a complete hand.

    ``groups`` holds every group of the hand, declared melds first in their
    given order, then the concealed groups sorted by lowest kind. For the
    standard shape that is the sets and the pair; for seven pairs, seven
    PAIR groups; for thirteen orphans, twelve SINGLE groups and a PAIR.
    ``win_group`` indexes the group the winning tile completed.
    """

    shape: ShapeKind
    groups: tuple[Group, ...]
    win_group: int | None
    wait: WaitKind

    @property
    def pair(self) -> Group | None:
        """The first pair group (the head of a standard hand), if any."""
        for g in self.groups:
            if g.kind is GroupKind.PAIR:
                return g
        return None

    @property
    def sets(self) -> tuple[Group, ...]:
        """Every group that is not a pair."""
        return tuple(g for g in self.groups if g.kind is not GroupKind.PAIR)

    @property
    def winning_group(self) -> Group | None:
        """The group the winning tile completed, if a winning tile was given."""
        return None if self.win_group is None else self.groups[self.win_group]


def group_bits(groups: tuple[Group, ...] | list[Group]) -> int:
    """The groups as bits: each group sets the lowest unset bit of its field (:func:`group_unit`).

    A condition on a group that only its kind and tile decide then reads as a
    mask test: ``bits & <fields of the groups meeting it> != 0`` (some group
    meets it), and the number of groups meeting it is that masked value's
    ``bit_count()``.
    """
    bits = 0
    for g in groups:
        u = g.unit
        if bits & u:
            top = u << (GROUP_FIELD - 1)
            while bits & u:
                if u == top:
                    raise ValueError(
                        f"more than {GROUP_FIELD} equal groups ({g}) in one arrangement"
                    )
                u <<= 1
        bits |= u
    return bits
