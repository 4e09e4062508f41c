"""A compiled profile: the typed data a generated engine module hands to the runtime.

Generated modules build one :class:`Profile` from these frozen dataclasses plus
small typed predicates compiled from the spec's expressions. The runtime reads
only these fields; it never looks at a profile's id to decide a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Callable

from .rules import TableRules
from .shapes import ShapeRules
from .text import Text
from .tiles import TileSet

if TYPE_CHECKING:
    from .view import HandView, PaymentView

HandPredicate = Callable[["HandView"], bool]
HandAmount = Callable[["HandView"], int]
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


@dataclass(frozen=True, slots=True)
class Pattern:
    """One fan / yaku / double: when it applies, how often, and what it is worth."""

    id: str
    names: Text
    value: int | HandAmount
    when: HandPredicate | None = None
    count: HandAmount | None = None
    group: str | None = None
    excludes: tuple[str, ...] = ()
    section: str | None = None


@dataclass(frozen=True, slots=True)
class Payments:
    """Formulas for what each payer owes a winner, in the profile's units."""

    values: tuple[tuple[str, PaymentAmount], ...]
    ron: tuple[tuple[str, PaymentAmount], ...]
    tsumo: tuple[tuple[str, PaymentAmount], ...]


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
    pattern_index: dict[str, Pattern] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pattern_index", {p.id: p for p in self.patterns})
