"""A compiled profile: the typed data a generated engine module hands to the runtime.

Generated modules build one :class:`Profile` from these frozen dataclasses plus
small typed predicates compiled from the spec's expressions. The runtime reads
only these fields; it never looks at a profile's id to decide a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Callable, Protocol, TypeVar

from .options import Options, OptionSpec, resolve_options
from .rules import TableRules
from .shapes import ShapeRules
from .text import Text
from .tiles import TileSet

if TYPE_CHECKING:
    from .view import HandView, PaymentView

HandPredicate = Callable[["HandView"], bool]
HandAmount = Callable[["HandView"], int]
#: A generated test of the ``when`` of every pattern of a list at once (bit i: the i-th meets it),
#: limited to the bits asked (by default all).
ListedConditions = Callable[["HandView", int], int]


class _Keyed(Protocol):
    @property
    def id(self) -> str: ...


_K = TypeVar("_K", bound=_Keyed)


def with_changes(inherited: tuple[_K, ...], changed: tuple[_K, ...]) -> tuple[_K, ...]:
    """``inherited`` (a parent profile's patterns, requirements...) with each item whose id is in
    ``changed`` replaced by that item, in the same place: how the module of a profile that extends
    another states the items it changes (compiler/share.py)."""
    by_id = {item.id: item for item in changed}
    if not by_id.keys() <= {item.id for item in inherited}:
        raise ValueError(
            f"no inherited item to change for {sorted(by_id.keys() - {i.id for i in inherited})}"
        )
    return tuple(by_id.get(item.id, item) for item in inherited)


class ListedWhen:
    """The ``when`` of a whole-hand pattern, written once in its list's generated test
    (``Profile.whole_hand_conditions``): that test asked for this pattern's bit alone."""

    __slots__ = ("conditions", "bit")

    def __init__(self, conditions: ListedConditions, bit: int) -> None:
        self.conditions = conditions
        self.bit = bit

    def __call__(self, view: "HandView") -> bool:
        return bool(self.conditions(view, self.bit))


PaymentAmount = Callable[["PaymentView"], int]


class MissingSuitRule(StrEnum):
    """Whether players declare a suit that must be gone from a winning hand."""

    NONE = "none"
    """No declaration."""
    DECLARE = "declare"
    """Every player declares one suit (ding que); a win must hold none of it."""


class Pick(StrEnum):
    """How the scoring members of a pattern group combine."""

    HIGHEST = "highest"
    """Only the highest-valued member counts (ties: the first declared)."""
    ALL = "all"
    """Every member counts."""


@dataclass(frozen=True, slots=True)
class Source:
    """The rule book a profile follows."""

    book: str
    title: str
    file: str | None = None


@dataclass(frozen=True, slots=True)
class Deal:
    """Starting hand sizes."""

    dealer: int = 14
    others: int = 13


@dataclass(frozen=True, slots=True)
class Opening:
    """Phases between the deal and the first discard."""

    missing_suit: MissingSuitRule = MissingSuitRule.NONE


@dataclass(frozen=True, slots=True)
class Requirement:
    """A condition every win must meet besides its shape (e.g. the missing suit is gone)."""

    id: str
    when: HandPredicate
    reason: Text
    section: str | None = None


@dataclass(frozen=True, slots=True)
class PatternGroup:
    """Patterns of which only some count together (e.g. one base pattern)."""

    id: str
    pick: Pick


class Combine(StrEnum):
    """Which sets a combination pattern is counted over (see :class:`Pattern`)."""

    SEQUENCES = "sequences"
    """Sequences (chows) only."""
    TRIPLETS = "triplets"
    """Triplets and kongs (pungs) only."""
    SETS = "sets"
    """Any set: sequences, triplets and kongs."""


@dataclass(frozen=True, slots=True)
class Pattern:
    """One fan / yaku / double: when it applies, how often, and what it is worth.

    A *combination* pattern (``combine`` set) is tested once per combination of
    ``combine[1]`` sets of the kind ``combine[0]`` of the arrangement; each
    combination meeting ``when`` is one occurrence, tied to those sets. How
    occurrences and ``excludes`` combine is decided in one place,
    :func:`mjspec.runtime.scoring.apply_relations`.
    """

    id: str
    names: Text
    value: int | HandAmount
    when: HandPredicate | None = None
    count: HandAmount | None = None
    group: str | None = None
    excludes: tuple[str, ...] = ()
    section: str | None = None
    combine: tuple[Combine, int] | None = None
    """For a combination pattern: the kind of set and how many sets form one occurrence."""
    exclude_limits: tuple[tuple[str, int], ...] = ()
    """Excluded patterns of which at most this many occurrences are removed (the others: all)."""
    fallback: bool = False
    """Counts only when no other pattern counts, bonus patterns aside (GB's Chicken Hand)."""
    bonus: bool = False
    """Stands outside every relation: never excluded, never excludes, ignored by ``fallback``
    and left out of the win minimum when the minimum says so (GB's flowers)."""
    tiles_only: bool = False
    """Every expression of the pattern reads only the hand's tiles, never the situation of
    the win (the compiler decides): the scorer reuses its result for the same tiles."""
    members_only: bool = False
    """A combination pattern whose expressions read only the combined sets (the compiler
    decides): the scorer remembers its answer per combination of sets."""
    open_value: int | HandAmount | None = None
    """The value when the hand is open (an exposed meld); 0: the pattern does not count in an
    open hand (a closed-only yaku). None: ``value`` whether open or closed."""
    limit: bool = False
    """A limit pattern (a yakuman, a classical limit hand): when one counts, only limit patterns
    count, and the hand has no points (see :class:`Points`)."""


@dataclass(frozen=True, slots=True)
class PointItem:
    """One source of points beside the patterns' total (a fu item, a classical set's points)."""

    id: str
    names: Text
    value: int | HandAmount
    when: HandPredicate | None = None
    section: str | None = None


@dataclass(frozen=True, slots=True)
class Points:
    """A second count of a hand beside its total: riichi's fu, classical basic points.

    Every item that applies adds its value; ``result`` turns that raw sum (seen by
    expressions as ``points``) into the hand's points (rounding, fixed values).
    A hand with a limit pattern has no points. Items and ``result`` may ask
    ``counted(pattern)``: whether that pattern counted in the arrangement.
    """

    unit: Text
    items: tuple[PointItem, ...]
    result: HandAmount | None = None
    """The hand's points from the raw sum; None: the raw sum itself."""


@dataclass(frozen=True, slots=True)
class Minimum:
    """A floor every win must reach after scoring: ``at_least`` of the total, not counting
    ``without``."""

    at_least: int
    without: tuple[str, ...]
    reason: Text


@dataclass(frozen=True, slots=True)
class Payments:
    """Formulas for what each payer owes a winner, in the profile's units."""

    values: tuple[tuple[str, PaymentAmount], ...]
    ron: tuple[tuple[str, PaymentAmount], ...]
    tsumo: tuple[tuple[str, PaymentAmount], ...]
    hand_value: str | None = None
    """The named value that is the hand's final value (reported as ``score``; paid by scored
    settlement)."""


@dataclass(frozen=True, slots=True)
class ExampleMeld:
    type: str
    tiles: str
    source: str | None = None
    claimed: str | None = None


@dataclass(frozen=True, slots=True)
class Example:
    """A worked hand stated in the spec: run as a test, shown in the rule document."""

    name: str
    """The English title; also the example's id in tests."""
    concealed: str
    win_tile: str
    win: str
    melds: tuple[ExampleMeld, ...] = ()
    context: tuple[tuple[str, object], ...] = ()
    legal: bool = True
    patterns: tuple[str, ...] | None = None
    total: int | None = None
    payments: tuple[tuple[str, int], ...] | None = None
    section: str | None = None
    names: Text | None = None
    """The title in every language (``names.en == name``)."""
    fu: int | None = None
    checks_fu: bool = False
    """Whether the example states its points (``fu``; None for a limit hand)."""


@dataclass(frozen=True, slots=True)
class Profile:
    """Everything the runtime needs to know about one rule book."""

    id: str
    version: int
    names: Text
    source: Source
    spec_file: str
    players: int
    tiles: TileSet
    deal: Deal
    opening: Opening
    shapes: ShapeRules
    requirements: tuple[Requirement, ...]
    patterns: tuple[Pattern, ...]
    groups: tuple[PatternGroup, ...]
    total_unit: str
    cap: int | None
    prefer: tuple[str, ...]
    payments: Payments
    invariants: tuple[str, ...]
    examples: tuple[Example, ...] = ()
    extends: str | None = None
    table: TableRules = TableRules()
    playable: bool = True
    minimum: Minimum | None = None
    points: Points | None = None
    """The second count beside the total (fu), when the profile has one."""
    needs: tuple[str, ...] = ()
    """Hand-view names the profile's expressions read that cost time to compute
    (``only_wait``, ``concealed_triplets``...): the scorer computes only these."""
    whole_hand_conditions: tuple[tuple[ListedConditions, tuple[str | None, ...]], ...] = ()
    """Generated functions that test the ``when`` of several whole-hand patterns in one call, each
    with the pattern of each of its bits (bit i set: ``ids[i]`` meets it, when asked for bit i): the
    patterns reading the tiles only, then the others. A profile that extends another shares its
    parent's functions (compiler/fused.py): a bit it does not use is None (a pattern it removed,
    or changed and tests in a function of its own). The scorer uses them only while they test each
    pattern of a list exactly once, at the bit of its ``ListedWhen`` (a profile whose patterns were
    changed falls back to testing them one by one)."""
    options: tuple[OptionSpec, ...] = ()
    """The game options the profile declares (runtime/options.py)."""
    option_values: Options = Options()
    limit_hands_counted: str | None = None
    """A bool option under which a limit hand is also counted, and paid its counted value when that
    is higher (classical NoLimit: "limit hands then score at least the limit")."""
    """The value of every option in force: the defaults, or what
    :func:`~mjspec.runtime.options.bind_options` bound."""
    pattern_index: dict[str, Pattern] = field(init=False, repr=False, compare=False)
    pattern_order: dict[str, int] = field(init=False, repr=False, compare=False)
    """Each pattern's position in declaration order."""
    relational: bool = field(init=False, repr=False, compare=False)
    """Whether any pattern excludes, combines, falls back, is a bonus or a limit (else scoring takes
    a short cut)."""
    has_limits: bool = field(init=False, repr=False, compare=False)
    """Whether any pattern is a limit pattern."""
    combination_patterns: tuple[
        tuple[tuple[Combine, int], tuple[tuple[int, Pattern], ...]], ...
    ] = field(init=False, repr=False, compare=False)
    """The combination patterns with their declaration index, by (kind of set, size): each
    combination of sets is built once and tested against every pattern of its kind."""
    memo: dict[Any, Any] = field(init=False, repr=False, compare=False)
    """The scorer's memo tables for this profile (what it learnt about tiles it has scored;
    see :mod:`mjspec.runtime.scoring`). Each profile object has its own."""

    def __post_init__(self) -> None:
        if self.options and not self.option_values.values:
            object.__setattr__(self, "option_values", resolve_options(self.options, None))
        object.__setattr__(self, "pattern_index", {p.id: p for p in self.patterns})
        object.__setattr__(self, "pattern_order", {p.id: i for i, p in enumerate(self.patterns)})
        has_limits = any(p.limit for p in self.patterns)
        relational = has_limits or any(
            p.excludes or p.combine or p.fallback or p.bonus for p in self.patterns
        )
        object.__setattr__(self, "relational", relational)
        object.__setattr__(self, "has_limits", has_limits)
        by: dict[tuple[Combine, int], list[tuple[int, Pattern]]] = {}
        for i, p in enumerate(self.patterns):
            if p.combine is not None:
                by.setdefault(p.combine, []).append((i, p))
        object.__setattr__(
            self, "combination_patterns", tuple((k, tuple(v)) for k, v in by.items())
        )
        object.__setattr__(self, "memo", {})
