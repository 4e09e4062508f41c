"""Hand shapes: completeness, arrangements, waits and shanten.

Everything here works on ``counts34`` vectors (see
:func:`mjspec.runtime.tiles.counts34`), the concealed part of the hand only;
declared melds are passed separately. The hot paths rest on one fact: the
three suits and the honors never share a group, so each suit's 9-count (or
the honors' 7-count) tuple is solved once and the answer memoised by that
tuple. A random hand then costs four dictionary look-ups.

Which shapes count is data, a :class:`ShapeRules`, never a profile name.

Where the native core was built (``runtime/native/mjshapes.h``, as the extension
``mjspec.runtime._shapes``), :func:`is_complete`, :func:`waits`, :func:`wait_mask`,
:func:`formal_waits`, :func:`is_only_wait`, :func:`shanten` and
:func:`discard_shanten` ask it first; it answers NotImplemented for anything outside
what it handles (a count above 4, a wrong tile total, an unusual argument type), and
the Python code below answers then, raising its own errors. The Python code is the
reference the native answers are tested against (``tests/test_native_shapes.py``);
``MJSPEC_BACKEND=python`` switches the native core off. :func:`arrangements` is
Python only.

The memo tables grow with the distinct suit tuples seen; for tiles of at most
four copies and hands of at most fourteen tiles that is bounded (a few
hundred thousand tuples at worst, far fewer in play), so they are never
evicted.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import NotImplementedType
from typing import Protocol, TypeVar, cast

from .backend import native_module
from .hand import Arrangement, Group, GroupKind, Meld, ShapeKind, WaitKind
from .tiles import N_KINDS

__all__ = [
    "ShapeRules",
    "arrangements",
    "is_complete",
    "waits",
    "wait_mask",
    "is_ready",
    "formal_waits",
    "is_only_wait",
    "shanten",
    "discard_shanten",
]


@dataclass(frozen=True, kw_only=True)
class ShapeRules:
    """Which complete-hand shapes a profile accepts."""

    standard: bool = True
    """Four sets (melds included) and a pair."""
    seven_pairs: bool = False
    """Seven pairs."""
    seven_pairs_allow_four_of_a_kind: bool = False
    """A four of a kind counts as two pairs (Sichuan, GB); riichi needs seven distinct pairs."""
    seven_pairs_concealed_only: bool = True
    """Seven pairs only with no declared meld. Stated for the profile's sake: any meld
    leaves fewer than 14 concealed tiles, so the shape functions consider seven pairs
    only for meld-free hands whatever this says."""
    thirteen_orphans: bool = False
    """One of each terminal and honor plus one duplicate; needs honors in the tile set."""
    knitted: bool = False
    """Knitted straight (1-4-7, 2-5-8 and 3-6-9 in three different suits, plus one set
    and a pair; at most one declared meld) and honors-and-knitted (fourteen distinct
    tiles drawn from the seven honors and one knitted straight; no meld), as in GB."""

    def __post_init__(self) -> None:
        if not (self.standard or self.seven_pairs or self.thirteen_orphans or self.knitted):
            raise ValueError("ShapeRules enables no shape at all")


# Suits as (first kind, slice end); the honors are the last entry and are the
# only one without sequences.
_SUITS: tuple[tuple[int, int], ...] = ((0, 9), (9, 18), (18, 27), (27, 34))
_HONOR_BASE = 27
_ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_ORPHAN_SET = frozenset(_ORPHANS)

# The six knitted straights: 1-4-7 in one suit, 2-5-8 in another, 3-6-9 in the
# third, as tuples of nine kinds; and each one's three KNITTED group starts.
_KNITTED: tuple[tuple[int, ...], ...] = tuple(
    tuple(9 * suit + start + step for suit, start in zip(order, (0, 1, 2)) for step in (0, 3, 6))
    for order in itertools.permutations(range(3))
)
_KNITTED_STARTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(9 * suit + start for suit, start in zip(order, (0, 1, 2)))
    for order in itertools.permutations(range(3))
)
_HONORS: tuple[int, ...] = tuple(range(27, 34))
_ORPHAN_GET = operator.itemgetter(*_ORPHANS)
_KNITTED_GET = tuple(operator.itemgetter(*straight) for straight in _KNITTED)


T = TypeVar("T")


class _NativeShapes(Protocol):
    """The functions of ``mjspec.runtime._shapes`` (runtime/native/shapes.c)."""

    def is_complete(
        self, counts: Sequence[int], n_melds: int, rules: ShapeRules
    ) -> bool | NotImplementedType: ...
    def wait_mask(
        self, counts: Sequence[int], n_melds: int, rules: ShapeRules
    ) -> int | NotImplementedType: ...
    def shanten(
        self, counts: Sequence[int], n_melds: int, rules: ShapeRules
    ) -> int | NotImplementedType: ...
    def discard_shanten(
        self, counts: Sequence[int], n_melds: int, rules: ShapeRules
    ) -> dict[int, int] | NotImplementedType: ...
    def waits(
        self,
        counts: Sequence[int],
        melds: Sequence[Meld],
        rules: ShapeRules,
        kinds: Iterable[int],
        copies: int,
    ) -> frozenset[int] | NotImplementedType: ...
    def remove_identical(self, items: list[T], obj: T) -> bool | NotImplementedType: ...
    def held_items(
        self, items: Sequence[T], counts: Sequence[int]
    ) -> list[T] | NotImplementedType: ...
    def claim_candidates(
        self,
        kind: int,
        discarder: int,
        counts: list[list[int]],
        melds: list[list[Meld]],
        active: list[bool],
        masks: list[tuple[int, int] | None],
        rules: ShapeRules,
        chi_seat: int,
        flowers: bool,
    ) -> int | NotImplementedType: ...


_NATIVE = cast("_NativeShapes | None", native_module("runtime._shapes"))
"""The native core, or None (not built, or ``MJSPEC_BACKEND=python``)."""


def _check_counts(counts: Sequence[int], expected: Iterable[int], what: str) -> int:
    if len(counts) != N_KINDS:
        raise ValueError(
            f"{what} must be a counts34 vector of length {N_KINDS}, got length {len(counts)}"
        )
    total = sum(counts)
    allowed = tuple(expected)
    if total not in allowed:
        want = " or ".join(str(n) for n in allowed)
        raise ValueError(f"{what} holds {total} tiles; with these melds it must hold {want}")
    return total


def _melds_count(melds: Sequence[Meld]) -> int:
    if len(melds) > 4:
        raise ValueError(f"a hand has at most 4 melds, got {len(melds)}")
    return len(melds)


# ---------------------------------------------------------------------------
# is_complete: per-suit flags
# ---------------------------------------------------------------------------

_NO = 8
"""Flag for a suit tuple that is neither sets nor sets-plus-pair. Any sum of four
flags that includes it exceeds 1, the only sum that means complete."""

_FLAGS: dict[tuple[int, ...], int] = {}
"""Suit tuple -> 0 (splits into sets), 1 (sets plus exactly one pair), or _NO."""


def _sets_only(c: list[int], honors: bool) -> bool:
    """Whether counts split into sets alone; consumes ``c``.

    Greedy is exact: the lowest tile must start its groups, and three
    sequences from one tile read equally as three triplets, so take a triplet
    whenever there are three, and sequences for the rest.
    """
    n = len(c)
    for i in range(n):
        x = c[i]
        if x >= 3:
            x -= 3
        if x == 0:
            continue
        if honors or i + 2 >= n or c[i + 1] < x or c[i + 2] < x:
            return False
        c[i + 1] -= x
        c[i + 2] -= x
    return True


def _flag(key: tuple[int, ...]) -> int:
    honors = len(key) == 7
    total = sum(key)
    if total % 3 == 0:
        flag = 0 if _sets_only(list(key), honors) else _NO
    elif total % 3 == 2:
        flag = _NO
        for i, x in enumerate(key):
            if x >= 2:
                c = list(key)
                c[i] -= 2
                if _sets_only(c, honors):
                    flag = 1
                    break
    else:
        flag = _NO
    _FLAGS[key] = flag
    return flag


def _standard_complete(counts: Sequence[int]) -> bool:
    f = _FLAGS
    m = tuple(counts[0:9])
    p = tuple(counts[9:18])
    s = tuple(counts[18:27])
    z = tuple(counts[27:34])
    try:
        return f[m] + f[p] + f[s] + f[z] == 1
    except KeyError:
        # First sight of some suit tuple: fill the table, then answer.
        return sum(f[k] if k in f else _flag(k) for k in (m, p, s, z)) == 1


def _seven_pairs_complete(counts: Sequence[int], allow_four: bool) -> bool:
    # Callers have checked the total is 14, so "only even counts" means seven
    # pairs when fours are allowed, and "only 0 or 2" seven distinct pairs.
    # Scans in C: no odd count, and none above a pair (or two pairs of one kind when fours count).
    return 1 not in counts and 3 not in counts and max(counts) <= (4 if allow_four else 2)


def _thirteen_orphans_complete(counts: Sequence[int]) -> bool:
    # With 14 tiles in all, 14 tiles on the 13 orphan kinds, each present,
    # leaves exactly one duplicate and nothing else.
    held = _ORPHAN_GET(counts)
    return sum(held) == 14 and 0 not in held


def _knitted_rest(counts: Sequence[int], n_melds: int) -> list[list[int]]:
    """For each knitted straight the concealed tiles hold whole: the counts left once it is taken
    out."""
    if n_melds > 1:
        return []
    out = []
    for straight, get in zip(_KNITTED, _KNITTED_GET):
        if 0 not in get(counts):
            rest = list(counts)
            for k in straight:
                rest[k] -= 1
            out.append(rest)
    return out


def _knitted_straight_complete(counts: Sequence[int], n_melds: int) -> bool:
    # A knitted straight stands for three sets: the rest is a set and a pair
    # (or only the pair beside one declared meld). Two knitted straights never
    # fit in fourteen tiles, so at most one rest is complete.
    return any(_standard_complete(rest) for rest in _knitted_rest(counts, n_melds))


def _honors_and_knitted_complete(counts: Sequence[int], n_melds: int) -> bool:
    if n_melds or max(counts) > 1:
        return False
    suited = {k for k in range(27) if counts[k]}
    return any(suited <= set(straight) for straight in _KNITTED)


def is_complete(counts: Sequence[int], n_melds: int, rules: ShapeRules) -> bool:
    """Whether the concealed ``counts`` plus ``n_melds`` declared melds form a complete hand.

    ``counts`` is a counts34 vector of ``14 - 3 * n_melds`` tiles (ValueError
    otherwise). This is the hot path: four table look-ups natively, a few dictionary
    look-ups in Python.
    """
    if _NATIVE is not None:
        answer = _NATIVE.is_complete(counts, n_melds, rules)
        if answer is not NotImplemented:
            return answer
    return _py_is_complete(counts, n_melds, rules)


def _py_is_complete(counts: Sequence[int], n_melds: int, rules: ShapeRules) -> bool:
    """The Python reference of :func:`is_complete`."""
    if len(counts) != N_KINDS or sum(counts) != 14 - 3 * n_melds:
        _check_counts(counts, (14 - 3 * n_melds,), "concealed")
    if rules.standard and _standard_complete(counts):
        return True
    if n_melds == 0:
        if rules.seven_pairs and _seven_pairs_complete(
            counts, rules.seven_pairs_allow_four_of_a_kind
        ):
            return True
        if rules.thirteen_orphans and _thirteen_orphans_complete(counts):
            return True
    if rules.knitted:
        return _knitted_straight_complete(counts, n_melds) or _honors_and_knitted_complete(
            counts, n_melds
        )
    return False


# ---------------------------------------------------------------------------
# arrangements: per-suit decompositions
# ---------------------------------------------------------------------------

_Decomposition = tuple[Group, ...]
_DECOMPOSITIONS: dict[
    tuple[int, tuple[int, ...]], tuple[tuple[_Decomposition, ...], tuple[_Decomposition, ...]]
] = {}
"""(first kind, suit tuple) -> (ways into sets alone, ways into sets plus one pair)."""

# Concealed groups sort by lowest kind, then in GroupKind declaration order.
_RANK: dict[GroupKind, int] = {k: i for i, k in enumerate(GroupKind)}


def _group_key(g: Group) -> tuple[int, int]:
    return (g.tile, _RANK[g.kind])


def _suit_decompositions(
    base: int, key: tuple[int, ...]
) -> tuple[tuple[_Decomposition, ...], tuple[_Decomposition, ...]]:
    memo_key = (base, key)
    hit = _DECOMPOSITIONS.get(memo_key)
    if hit is not None:
        return hit
    honors = base == _HONOR_BASE
    n = len(key)
    c = list(key)
    found: tuple[set[tuple[tuple[int, int], ...]], set[tuple[tuple[int, int], ...]]] = (
        set(),
        set(),
    )
    acc: list[tuple[int, int]] = []
    seq, trip, pair = _RANK[GroupKind.SEQUENCE], _RANK[GroupKind.TRIPLET], _RANK[GroupKind.PAIR]

    # Every group containing the lowest remaining tile starts there, so trying
    # each group that starts at it reaches every decomposition; different
    # orders reach the same multiset, hence the sets of sorted tuples.
    def walk(i: int, pair_used: bool) -> None:
        while i < n and c[i] == 0:
            i += 1
        if i == n:
            found[int(pair_used)].add(tuple(sorted(acc)))
            return
        if c[i] >= 3:
            c[i] -= 3
            acc.append((i, trip))
            walk(i, pair_used)
            acc.pop()
            c[i] += 3
        if not honors and i + 2 < n and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            acc.append((i, seq))
            walk(i, pair_used)
            acc.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if not pair_used and c[i] >= 2:
            c[i] -= 2
            acc.append((i, pair))
            walk(i, True)
            acc.pop()
            c[i] += 2

    if sum(key) % 3 != 1:
        walk(0, False)
    kinds = list(GroupKind)
    result = tuple(
        tuple(tuple(_concealed_group(kinds[r], base + off) for off, r in d) for d in sorted(ways))
        for ways in found
    )
    out = (result[0], result[1])
    _DECOMPOSITIONS[memo_key] = out
    return out


_CONCEALED_GROUPS: dict[tuple[GroupKind, int], Group] = {}
"""One concealed group per kind and tile (at most 6 x 34): equal groups of a
decomposition are then the same object, which ``in`` and ``==`` settle by identity."""


def _concealed_group(kind: GroupKind, tile: int) -> Group:
    g = _CONCEALED_GROUPS.get((kind, tile))
    if g is None:
        g = _CONCEALED_GROUPS[(kind, tile)] = Group(kind, tile, True)
    return g


def _standard_readings(counts: Sequence[int]) -> list[_Decomposition]:
    memo = _DECOMPOSITIONS
    per = []
    for lo, hi in _SUITS:
        key = tuple(counts[lo:hi])
        ways = memo.get((lo, key))
        per.append(_suit_decompositions(lo, key) if ways is None else ways)
    readings: list[_Decomposition] = []
    for pair_suit in range(len(per)):
        if not per[pair_suit][1]:
            continue  # the pair cannot stand in this suit (a suit's tile count decides: 3n + 2)
        choices = [ways[1] if j == pair_suit else ways[0] for j, ways in enumerate(per)]
        if not all(choices):
            continue
        if all(len(c) == 1 for c in choices):  # the usual case: one way in every suit
            m, p, s, z = choices
            readings.append(m[0] + p[0] + s[0] + z[0])
            continue
        for combo in itertools.product(*choices):
            readings.append(tuple(itertools.chain.from_iterable(combo)))
    return readings


def _seven_pairs_reading(counts: Sequence[int], allow_four: bool) -> list[_Decomposition]:
    if not _seven_pairs_complete(counts, allow_four):
        return []
    return [
        tuple(
            _concealed_group(GroupKind.PAIR, k) for k, n in enumerate(counts) for _ in range(n // 2)
        )
    ]


def _thirteen_orphans_reading(counts: Sequence[int]) -> list[_Decomposition]:
    if not _thirteen_orphans_complete(counts):
        return []
    return [
        tuple(
            _concealed_group(GroupKind.PAIR if counts[k] == 2 else GroupKind.SINGLE, k)
            for k in _ORPHANS
        )
    ]


def _knitted_straight_readings(counts: Sequence[int], n_melds: int) -> list[_Decomposition]:
    out: list[_Decomposition] = []
    if n_melds > 1:
        return out
    for straight, starts, get in zip(_KNITTED, _KNITTED_STARTS, _KNITTED_GET):
        if 0 in get(counts):
            continue
        rest = list(counts)
        for k in straight:
            rest[k] -= 1
        knitted = tuple(_concealed_group(GroupKind.KNITTED, k) for k in sorted(starts))
        for reading in _standard_readings(rest):
            out.append(tuple(sorted(knitted + reading, key=_group_key)))
    return out


def _honors_and_knitted_readings(counts: Sequence[int], n_melds: int) -> list[_Decomposition]:
    if not _honors_and_knitted_complete(counts, n_melds):
        return []
    return [tuple(_concealed_group(GroupKind.SINGLE, k) for k in range(N_KINDS) if counts[k])]


def _sequence_wait(group: Group, win_kind: int) -> WaitKind:
    offset = win_kind - group.tile
    number = group.number
    if offset == 1:
        return WaitKind.CLOSED
    if (offset == 2 and number == 1) or (offset == 0 and number == 7):
        return WaitKind.EDGE
    return WaitKind.TWO_SIDED


def _classify(shape: ShapeKind, group: Group, win_kind: int, counts: Sequence[int]) -> WaitKind:
    if shape is ShapeKind.THIRTEEN_ORPHANS:
        # The duplicate was drawn last exactly when the 13 tiles before were distinct.
        return WaitKind.THIRTEEN_SIDED if counts[win_kind] == 2 else WaitKind.SINGLE
    if shape is ShapeKind.SEVEN_PAIRS:
        return WaitKind.SINGLE
    if shape is ShapeKind.HONORS_AND_KNITTED or group.kind is GroupKind.KNITTED:
        return WaitKind.OTHER  # a lone knitted tile: no named wait
    if group.kind is GroupKind.SEQUENCE:
        return _sequence_wait(group, win_kind)
    if group.kind is GroupKind.TRIPLET:
        return WaitKind.DUAL_PON
    if group.kind is GroupKind.PAIR or group.kind is GroupKind.SINGLE:
        return WaitKind.SINGLE
    return WaitKind.OTHER


def arrangements(
    concealed: Sequence[int], melds: Sequence[Meld], win_kind: int | None, rules: ShapeRules
) -> list[Arrangement]:
    """Every distinct reading of the hand as a complete shape.

    ``concealed`` is the counts34 vector of the concealed tiles, the winning
    tile included (``14 - 3 * len(melds)`` tiles). With ``win_kind``, each
    reading yields one arrangement per distinct concealed group containing
    the winning kind, its wait classified; without, one arrangement per
    reading with ``win_group=None`` and ``wait=WaitKind.OTHER``. An empty
    list means the hand is not complete. Order: standard readings, then
    seven pairs, thirteen orphans, knitted shapes; each deterministic.
    """
    n_melds = _melds_count(melds)
    _check_counts(concealed, (14 - 3 * n_melds,), "concealed")
    if win_kind is not None and not (0 <= win_kind < N_KINDS and concealed[win_kind] > 0):
        raise ValueError(f"the winning kind {win_kind} must be among the concealed tiles")
    readings: list[tuple[ShapeKind, _Decomposition]] = []
    if rules.standard:
        readings.extend((ShapeKind.STANDARD, d) for d in _standard_readings(concealed))
    if n_melds == 0:
        if rules.seven_pairs:
            allow_four = rules.seven_pairs_allow_four_of_a_kind
            readings.extend(
                (ShapeKind.SEVEN_PAIRS, d) for d in _seven_pairs_reading(concealed, allow_four)
            )
        if rules.thirteen_orphans:
            readings.extend(
                (ShapeKind.THIRTEEN_ORPHANS, d) for d in _thirteen_orphans_reading(concealed)
            )
    if rules.knitted:
        readings.extend(
            (ShapeKind.KNITTED_STRAIGHT, d) for d in _knitted_straight_readings(concealed, n_melds)
        )
        readings.extend(
            (ShapeKind.HONORS_AND_KNITTED, d)
            for d in _honors_and_knitted_readings(concealed, n_melds)
        )

    declared = tuple(m.group for m in melds)
    # The readings are distinct (each shape's are built as distinct multisets,
    # and shapes differ), so their arrangements are too: no set is needed.
    out: list[Arrangement] = []
    for shape, reading in readings:
        groups = declared + reading
        if win_kind is None:
            out.append(Arrangement(shape, groups, None, WaitKind.OTHER))
            continue
        seen: list[Group] = []
        for i in range(n_melds, len(groups)):
            g = groups[i]
            # Equal groups (two 123m) are one choice: keep the first index.
            if not g.covers >> win_kind & 1 or g in seen:
                continue
            seen.append(g)
            out.append(Arrangement(shape, groups, i, _classify(shape, g, win_kind, concealed)))
    return out


# ---------------------------------------------------------------------------
# waits
# ---------------------------------------------------------------------------


def waits(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    rules: ShapeRules,
    kinds: Iterable[int],
    *,
    copies: int = 4,
) -> frozenset[int]:
    """The kinds among ``kinds`` that would complete the hand.

    ``concealed`` is the counts34 vector of a waiting hand (``13 - 3 *
    len(melds)`` tiles). A kind whose every copy (``copies``, 4 by default) is
    already in the player's own hand and melds is excluded: there is no
    fifth tile to win on. Other players' discards are not considered.
    """
    if _NATIVE is not None:
        answer = _NATIVE.waits(concealed, melds, rules, kinds, copies)
        if answer is not NotImplemented:
            return answer
    return _py_waits(concealed, melds, rules, kinds, copies=copies)


def _py_waits(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    rules: ShapeRules,
    kinds: Iterable[int],
    *,
    copies: int = 4,
) -> frozenset[int]:
    """The Python reference of :func:`waits`."""
    n_melds = _melds_count(melds)
    _check_counts(concealed, (13 - 3 * n_melds,), "concealed")
    own = list(concealed)
    for meld in melds:
        for t in meld.tiles:
            own[t.kind] += 1
    c = list(concealed)
    out: list[int] = []
    for k in kinds:
        if not 0 <= k < N_KINDS:
            raise ValueError(f"waits are hand-forming kinds 0..{N_KINDS - 1}, got {k}")
        if own[k] >= copies:
            continue
        c[k] += 1
        if _py_is_complete(c, n_melds, rules):
            out.append(k)
        c[k] -= 1
    return frozenset(out)


def is_only_wait(
    concealed: Sequence[int], melds: Sequence[Meld], rules: ShapeRules, kind: int
) -> bool:
    """Whether ``kind`` is the one kind that completes the waiting hand, by shape alone.

    ``concealed`` is the counts34 vector of the hand before its winning tile
    (``13 - 3 * len(melds)`` tiles). Unlike :func:`waits`, a kind whose every
    copy the player holds still counts as a wait: this is the formal test of
    a single wait (edge, closed, single), where an exhausted alternative
    still makes the wait multiple.
    """
    n_melds = _melds_count(melds)
    if _NATIVE is not None:
        mask = _NATIVE.wait_mask(concealed, n_melds, rules)
        if mask is not NotImplemented:
            return isinstance(kind, int) and 0 <= kind < N_KINDS and mask == 1 << kind
    _check_counts(concealed, (13 - 3 * n_melds,), "concealed")
    return _formal_waits(concealed, n_melds, rules) == frozenset((kind,))


def formal_waits(
    concealed: Sequence[int], melds: Sequence[Meld], rules: ShapeRules
) -> frozenset[int]:
    """Every kind that completes the waiting hand by shape, a kind whose every copy is held included
    (``concealed``: the counts34 vector before the winning tile)."""
    n_melds = _melds_count(melds)
    if _NATIVE is not None:
        mask = _NATIVE.wait_mask(concealed, n_melds, rules)
        if mask is not NotImplemented:
            kinds = _MASK_KINDS.get(mask)
            return kinds if kinds is not None else _mask_kinds(mask)
    _check_counts(concealed, (13 - 3 * n_melds,), "concealed")
    return _formal_waits(concealed, n_melds, rules)


def wait_mask(concealed: Sequence[int], n_melds: int, rules: ShapeRules) -> int:
    """:func:`formal_waits` as a bit set: bit ``k`` when one more tile of kind ``k`` completes the
    waiting hand (``concealed``: ``13 - 3 * n_melds`` tiles), a kind whose every copy is held
    included. A claim check on a discard is then one bit test (the table keeps one per seat)."""
    if _NATIVE is not None:
        mask = _NATIVE.wait_mask(concealed, n_melds, rules)
        if mask is not NotImplemented:
            return mask
    return _py_wait_mask(concealed, n_melds, rules)


def remove_identical(items: list[T], obj: T) -> bool:
    """Remove the first item that is ``obj`` itself (never an equal copy: no ``==`` is asked);
    False when none is. A tile taken from a hand is the very one the table dealt (the shared tiles
    of :mod:`~mjspec.runtime.tiles`)."""
    if _NATIVE is not None:
        removed = _NATIVE.remove_identical(items, obj)
        if removed is not NotImplemented:
            return removed
    for i, item in enumerate(items):
        if item is obj:
            del items[i]
            return True
    return False


def held_items(items: Sequence[T], counts: Sequence[int]) -> list[T]:
    """``items[k]`` for every kind ``k`` of ``counts`` held, in order: a turn's discards, one per
    kind held, from the seat's discard of each kind."""
    if _NATIVE is not None:
        chosen = _NATIVE.held_items(items, counts)
        if chosen is not NotImplemented:
            return chosen
    return [item for item, n in zip(items, counts) if n]


def claim_candidates(
    kind: int,
    discarder: int,
    counts: list[list[int]],
    melds: list[list[Meld]],
    active: list[bool],
    masks: list[tuple[int, int] | None],
    rules: ShapeRules,
    chi_seat: int,
    flowers: bool,
) -> int:
    """The seats a discard of the hand-forming ``kind`` by ``discarder`` may concern, as a bit set
    (bit ``s`` for seat ``s``): an active other seat holding two or more of the kind (a pon), the
    ``chi_seat`` (-1: none) holding both other tiles of a sequence with it, or one the kind
    completes by shape (a seat holding a flower aside when ``flowers``: a held flower is never part
    of a win). A claim window looks closer only at these; most discards concern nobody.

    ``counts`` per seat: the table's counts by kind, flowers after the 34 hand-forming kinds;
    ``melds`` per seat its melds; ``masks`` the table's per-seat ``(n_melds, wait_mask)`` cache,
    where a missing or stale entry is made as :meth:`~.table.state.TableState.completed_by` makes
    it."""
    if _NATIVE is not None:
        found = _NATIVE.claim_candidates(
            kind, discarder, counts, melds, active, masks, rules, chi_seat, flowers
        )
        if found is not NotImplemented:
            return found
    return _py_claim_candidates(
        kind, discarder, counts, melds, active, masks, rules, chi_seat, flowers
    )


def _py_claim_candidates(
    kind: int,
    discarder: int,
    counts: list[list[int]],
    melds: list[list[Meld]],
    active: list[bool],
    masks: list[tuple[int, int] | None],
    rules: ShapeRules,
    chi_seat: int,
    flowers: bool,
) -> int:
    """The Python reference of :func:`claim_candidates`."""
    found = 0
    number = kind % 9
    for seat in range(len(counts)):
        if seat == discarder or not active[seat]:
            continue
        held = counts[seat]
        if held[kind] >= 2:
            found |= 1 << seat
            continue
        if (
            seat == chi_seat
            and kind < 27
            and (
                (number >= 2 and held[kind - 2] and held[kind - 1])
                or (1 <= number <= 7 and held[kind - 1] and held[kind + 1])
                or (number <= 6 and held[kind + 1] and held[kind + 2])
            )
        ):
            found |= 1 << seat
            continue
        if flowers and any(held[N_KINDS:]):
            continue
        n_melds = len(melds[seat])
        cached = masks[seat]
        if cached is None or cached[0] != n_melds:
            cached = masks[seat] = (n_melds, wait_mask(held[:N_KINDS], n_melds, rules))
        if cached[1] >> kind & 1:
            found |= 1 << seat
    return found


def _py_wait_mask(concealed: Sequence[int], n_melds: int, rules: ShapeRules) -> int:
    """The Python reference of :func:`wait_mask`."""
    if not 0 <= n_melds <= 4:
        raise ValueError(f"a hand has 0..4 melds, got {n_melds}")
    _check_counts(concealed, (13 - 3 * n_melds,), "concealed")
    mask = 0
    for k in _formal_waits(concealed, n_melds, rules):
        mask |= 1 << k
    return mask


_MASK_KINDS: dict[int, frozenset[int]] = {}
"""Wait mask -> its kinds. Masks in play are few (most hands wait on one to three kinds);
the table is emptied when it reaches _FORMAL_WAITS_LIMIT."""


def _mask_kinds(mask: int) -> frozenset[int]:
    kinds = frozenset(k for k in range(N_KINDS) if mask >> k & 1)
    if len(_MASK_KINDS) >= _FORMAL_WAITS_LIMIT:
        _MASK_KINDS.clear()
    _MASK_KINDS[mask] = kinds
    return kinds


_FORMAL_WAITS: dict[tuple[tuple[int, ...], int, ShapeRules], frozenset[int]] = {}
"""(waiting counts, melds, rules) -> every kind completing the hand, exhausted kinds included."""
_FORMAL_WAITS_LIMIT = 1 << 16
"""Hands are many, unlike suit tuples: the table is emptied when it reaches this size."""


def _formal_waits(concealed: Sequence[int], n_melds: int, rules: ShapeRules) -> frozenset[int]:
    key = (tuple(concealed), n_melds, rules)
    hit = _FORMAL_WAITS.get(key)
    if hit is not None:
        return hit
    c = list(concealed)
    if rules.knitted and _knitted_may_be_ready(c, n_melds):
        # Rare: try every kind against the full completeness test.
        found: set[int] = set()
        for k in range(N_KINDS):
            c[k] += 1
            if _py_is_complete(c, n_melds, rules):
                found.add(k)
            c[k] -= 1
    else:
        found = _standard_waits(c) if rules.standard else set()
        if n_melds == 0:
            # Seven pairs and thirteen orphans complete only from a ready hand
            # of that shape; each then has few candidates to try.
            if rules.seven_pairs:
                odd = [k for k in range(N_KINDS) if c[k] % 2]
                if len(odd) == 1:
                    c[odd[0]] += 1
                    if _seven_pairs_complete(c, rules.seven_pairs_allow_four_of_a_kind):
                        found.add(odd[0])
                    c[odd[0]] -= 1
            if rules.thirteen_orphans and _thirteen_orphans_shanten(c) == 0:
                for k in _ORPHANS:
                    c[k] += 1
                    if _thirteen_orphans_complete(c):
                        found.add(k)
                    c[k] -= 1
    out = frozenset(found)
    if len(_FORMAL_WAITS) >= _FORMAL_WAITS_LIMIT:
        _FORMAL_WAITS.clear()
    _FORMAL_WAITS[key] = out
    return out


def forget_waits() -> None:
    """Empty the per-hand table of formal waits (the per-suit tables stay: they are bounded)."""
    _FORMAL_WAITS.clear()
    _MASK_KINDS.clear()


def _knitted_may_be_ready(c: Sequence[int], n_melds: int) -> bool:
    """False when no knitted shape can be one tile short: a cheap bound on :func:`_knitted_shanten`.

    A ready knitted straight holds at least 8 of its 9 kinds; a ready
    honors-and-knitted hand at least 13 useful kinds.
    """
    present = max(sum(1 for x in get(c) if x) for get in _KNITTED_GET)
    if n_melds <= 1 and present >= 8:
        return True
    return n_melds == 0 and present + sum(1 for k in _HONORS if c[k]) >= 13


_PLUS_FLAGS: dict[tuple[int, ...], tuple[int, ...]] = {}
"""Suit tuple -> the completeness flag of the tuple with one more tile at each position."""


def _plus_flags(key: tuple[int, ...]) -> tuple[int, ...]:
    hit = _PLUS_FLAGS.get(key)
    if hit is not None:
        return hit
    f = _FLAGS
    out = []
    for i in range(len(key)):
        plus = key[:i] + (key[i] + 1,) + key[i + 1 :]
        out.append(f[plus] if plus in f else _flag(plus))
    flags = _PLUS_FLAGS[key] = tuple(out)
    return flags


def _standard_waits(c: Sequence[int]) -> set[int]:
    """Kinds that make ``c`` four sets and a pair (melds aside): one suit takes the tile, the others
    stay."""
    f = _FLAGS
    keys = [tuple(c[lo:hi]) for lo, hi in _SUITS]
    flags = [f[k] if k in f else _flag(k) for k in keys]
    total = sum(flags)
    found: set[int] = set()
    for (lo, _), key, flag in zip(_SUITS, keys, flags):
        rest = total - flag  # the other suits: 0 all sets, 1 holding the pair
        if rest > 1:
            continue
        want = 1 - rest
        for i, g in enumerate(_plus_flags(key)):
            if g == want:
                found.add(lo + i)
    return found


def is_ready(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    rules: ShapeRules,
    kinds: Iterable[int],
    *,
    copies: int = 4,
) -> bool:
    """Whether the hand waits on at least one tile that can still exist (tenpai)."""
    return bool(waits(concealed, melds, rules, kinds, copies=copies))


# ---------------------------------------------------------------------------
# shanten
# ---------------------------------------------------------------------------

_Frontier = tuple[tuple[int, int, int], ...]
_FRONTIERS: dict[tuple[int, ...], _Frontier] = {}
"""Suit tuple -> the best (head, sets, partials) triples it can be split into.

head is 0 or 1 (a pair kept as the hand's pair); partials are pairs, 12 and
13 shapes. Only triples not dominated by another with the same head are kept.
"""


def _prune(found: Iterable[tuple[int, int, int]]) -> _Frontier:
    # A triple is useless if another with the same head has at least as many
    # sets and partials: the shanten value never decreases with either.
    items = sorted(set(found), key=lambda x: (x[0], -x[1], -x[2]))
    out: list[tuple[int, int, int]] = []
    for h, m, t in items:
        if any(h2 == h and m2 >= m and t2 >= t for h2, m2, t2 in out):
            continue
        out.append((h, m, t))
    return tuple(out)


def _frontier(key: tuple[int, ...]) -> _Frontier:
    hit = _FRONTIERS.get(key)
    if hit is not None:
        return hit
    n = len(key)
    i = 0
    while i < n and key[i] == 0:
        i += 1
    if i == n:
        out: _Frontier = ((0, 0, 0),)
        _FRONTIERS[key] = out
        return out
    honors = n == 7
    found: list[tuple[int, int, int]] = []

    def take(offsets: tuple[int, ...], dh: int, dm: int, dt: int) -> None:
        c = list(key)
        for d in offsets:
            c[i + d] -= 1
        for h, m, t in _frontier(tuple(c)):
            if h + dh <= 1:
                found.append((h + dh, m + dm, t + dt))

    x = key[i]
    # The lowest tile is either used by a group starting at it or left alone.
    take((0,), 0, 0, 0)
    if x >= 2:
        take((0, 0), 1, 0, 0)
        take((0, 0), 0, 0, 1)
    if x >= 3:
        take((0, 0, 0), 0, 1, 0)
    if not honors:
        if i + 1 < n and key[i + 1]:
            take((0, 1), 0, 0, 1)
        if i + 2 < n and key[i + 2]:
            take((0, 2), 0, 0, 1)
            if key[i + 1]:
                take((0, 1, 2), 0, 1, 0)
    out = _prune(found)
    _FRONTIERS[key] = out
    return out


_Acc = dict[tuple[int, int], int]  # (head, sets) -> best partials


_AccItems = tuple[tuple[tuple[int, int], int], ...]
_COMBINED: dict[tuple[_AccItems, _Frontier, int], _Acc] = {}
_COMBINED_VALUE: dict[tuple[_AccItems, _Frontier, int], int] = {}


def _combine(acc: _Acc, front: _Frontier, cap: int, items: _AccItems | None = None) -> _Acc:
    # Partials beyond the free slots are worth nothing, so clip them to keep
    # the combined frontier small. Accumulators and frontiers are few and
    # recur constantly, so the combination is memoised too.
    key = (items if items is not None else tuple(acc.items()), front, cap)
    hit = _COMBINED.get(key)
    if hit is not None:
        return hit
    nxt: _Acc = {}
    for (h1, m1), t1 in acc.items():
        for h2, m2, t2 in front:
            h = h1 + h2
            if h > 1:
                continue
            m = m1 + m2
            t = min(t1 + t2, cap - m)
            if nxt.get((h, m), -1) < t:
                nxt[(h, m)] = t
    _COMBINED[key] = nxt
    return nxt


def _combined_value(acc: _Acc, items: _AccItems, front: _Frontier, cap: int) -> int:
    """``_acc_value(_combine(acc, front, cap), cap)``, memoised: the greedy bot's innermost step."""
    key = (items, front, cap)
    hit = _COMBINED_VALUE.get(key)
    if hit is None:
        hit = _COMBINED_VALUE[key] = _acc_value(_combine(acc, front, cap, items), cap)
    return hit


def _acc_value(acc: _Acc, cap: int) -> int:
    best = max(2 * m + t + h for (h, m), t in acc.items())
    return 2 * cap - best


_EMPTY_FRONTIER: _Frontier = ((0, 0, 0),)


def _standard_shanten(counts: Sequence[int], n_melds: int) -> int:
    cap = 4 - n_melds  # sets still to form from the concealed tiles
    acc: _Acc = {(0, 0): 0}
    for lo, hi in _SUITS:
        key = tuple(counts[lo:hi])
        acc = _combine(acc, _FRONTIERS.get(key) or _frontier(key), cap)
    return _acc_value(acc, cap)


def discard_shanten(concealed: Sequence[int], n_melds: int, rules: ShapeRules) -> dict[int, int]:
    """Shanten after discarding one tile of each kind held: ``{kind: shanten}``.

    ``concealed`` holds ``14 - 3 * n_melds`` tiles. Equal to calling
    :func:`shanten` once per kind, but each suit's frontier is combined once:
    a discard changes one suit only (the greedy bot's hot path).
    """
    if _NATIVE is not None:
        answer = _NATIVE.discard_shanten(concealed, n_melds, rules)
        if answer is not NotImplemented:
            return answer
    return _py_discard_shanten(concealed, n_melds, rules)


def _py_discard_shanten(
    concealed: Sequence[int], n_melds: int, rules: ShapeRules
) -> dict[int, int]:
    """The Python reference of :func:`discard_shanten`."""
    if not 0 <= n_melds <= 4:
        raise ValueError(f"a hand has 0..4 melds, got {n_melds}")
    _check_counts(concealed, (14 - 3 * n_melds,), "concealed")
    out: dict[int, int] = {}
    if rules.standard:
        cap = 4 - n_melds
        keys = [tuple(concealed[lo:hi]) for lo, hi in _SUITS]
        fronts = [_FRONTIERS.get(k) or _frontier(k) for k in keys]
        for i, (lo, hi) in enumerate(_SUITS):
            if not any(keys[i]):
                continue
            others: _Acc = {(0, 0): 0}
            for j in range(len(_SUITS)):
                if j != i and fronts[j] != _EMPTY_FRONTIER:
                    others = _combine(others, fronts[j], cap)
            items = tuple(others.items())
            for d in range(hi - lo):
                if keys[i][d]:
                    key = list(keys[i])
                    key[d] -= 1
                    suit_key = tuple(key)
                    front = _FRONTIERS.get(suit_key) or _frontier(suit_key)
                    out[lo + d] = _combined_value(others, items, front, cap)
    else:
        out = {k: 99 for k in range(N_KINDS) if concealed[k]}
    if n_melds == 0 and (rules.seven_pairs or rules.thirteen_orphans) or rules.knitted:
        c = list(concealed)
        halves = sum(x // 2 for x in c)
        for k in out:
            if n_melds == 0 and rules.seven_pairs and rules.seven_pairs_allow_four_of_a_kind:
                # Removing one tile changes only its own kind's pair count.
                pairs = halves - c[k] // 2 + (c[k] - 1) // 2
                out[k] = min(out[k], 6 - min(7, pairs))
            c[k] -= 1
            if n_melds == 0 and rules.seven_pairs and not rules.seven_pairs_allow_four_of_a_kind:
                out[k] = min(out[k], _seven_pairs_shanten(c, False))
            if n_melds == 0 and rules.thirteen_orphans:
                out[k] = min(out[k], _thirteen_orphans_shanten(c))
            if rules.knitted:
                out[k] = min(out[k], _knitted_shanten(c, n_melds))
            c[k] += 1
    return out


def _seven_pairs_shanten(counts: Sequence[int], allow_four: bool) -> int:
    if allow_four:
        return 6 - min(7, sum(c // 2 for c in counts))
    pairs = sum(1 for c in counts if c >= 2)
    kinds = sum(1 for c in counts if c)
    return 6 - pairs + max(0, 7 - kinds)


def _thirteen_orphans_shanten(counts: Sequence[int]) -> int:
    present = sum(1 for k in _ORPHANS if counts[k])
    has_pair = any(counts[k] >= 2 for k in _ORPHANS)
    return 13 - present - has_pair


def _sets_and_pair_shanten(counts: Sequence[int], cap: int) -> int:
    """Standard shanten of ``counts`` toward ``cap`` sets and a pair, however many tiles it
    holds."""
    acc: _Acc = {(0, 0): 0}
    for lo, hi in _SUITS:
        key = tuple(counts[lo:hi])
        acc = _combine(acc, _FRONTIERS.get(key) or _frontier(key), 4)
    best = 0
    for (h, m), t in acc.items():
        sets = min(m, cap)
        best = max(best, 2 * sets + min(t, cap - sets) + h)
    return 2 * cap - best


def _knitted_shanten(counts: Sequence[int], n_melds: int) -> int:
    """Tiles short of ready for the knitted shapes (99 where they cannot be formed)."""
    best = 99
    if n_melds <= 1:
        for straight in _KNITTED:
            # The knitted straight stands for three sets: the tiles of it still
            # missing, plus the standard count of what remains with one set
            # (or none, beside a meld) and a pair to form.
            rest = list(counts)
            present = 0
            for k in straight:
                if rest[k]:
                    rest[k] -= 1
                    present += 1
            best = min(best, 9 - present + _sets_and_pair_shanten(rest, 1 - n_melds))
    if n_melds == 0:
        honors = sum(1 for k in _HONORS if counts[k])
        for straight in _KNITTED:
            useful = honors + sum(1 for k in straight if counts[k])
            best = min(best, 13 - min(14, useful))
    return best


def shanten(concealed: Sequence[int], n_melds: int, rules: ShapeRules) -> int:
    """Tiles short of ready, minimised over the enabled shapes: -1 complete, 0 ready.

    ``concealed`` holds ``13 - 3 * n_melds`` tiles (a waiting hand) or ``14 -
    3 * n_melds`` (just drew). The count is of tile exchanges by shape alone:
    it does not know which tiles are still live, so a hand waiting only on a
    kind it holds all four of counts as ready.
    """
    if _NATIVE is not None:
        answer = _NATIVE.shanten(concealed, n_melds, rules)
        if answer is not NotImplemented:
            return answer
    return _py_shanten(concealed, n_melds, rules)


def _py_shanten(concealed: Sequence[int], n_melds: int, rules: ShapeRules) -> int:
    """The Python reference of :func:`shanten`."""
    if not 0 <= n_melds <= 4:
        raise ValueError(f"a hand has 0..4 melds, got {n_melds}")
    _check_counts(concealed, (13 - 3 * n_melds, 14 - 3 * n_melds), "concealed")
    best = 99
    if rules.standard:
        best = _standard_shanten(concealed, n_melds)
    if n_melds == 0:
        if rules.seven_pairs:
            best = min(
                best, _seven_pairs_shanten(concealed, rules.seven_pairs_allow_four_of_a_kind)
            )
        if rules.thirteen_orphans:
            best = min(best, _thirteen_orphans_shanten(concealed))
    if rules.knitted:
        best = min(best, _knitted_shanten(concealed, n_melds))
    return best
