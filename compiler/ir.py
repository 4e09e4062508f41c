"""The typed intermediate representation of a checked profile.

Built only by :mod:`mjspec.compiler.check` from a resolved, schema-valid spec;
read by the templates (engine module, rule documents), which only loop and
interpolate. Logic that templates would need (names of generated functions,
the Python text of an expression) lives here as properties.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from mjspec.runtime.options import OptionSpec
from mjspec.runtime.rules import TableRules
from mjspec.runtime.text import Text

from .errors import Location
from .vocabulary import COSTLY_NAMES, MEMBERS_NAMES, TILES_ONLY_NAMES


@dataclass(frozen=True)
class ExprIR:
    """A checked expression: its spec text, where it stands, and the Python it compiles to."""

    source: str
    python: str
    location: Location
    helpers: frozenset[str]
    names: frozenset[str] = frozenset()
    """Vocabulary names and functions the expression reads."""
    checked: str = ""
    """The checked Python before hoisting: what the native lowering (compiler/native.py) reads."""


@dataclass(frozen=True)
class TilesIR:
    suits: tuple[str, ...]
    honors: bool
    flowers: bool
    red_fives: tuple[str, ...]
    copies: int


@dataclass(frozen=True)
class ShapesIR:
    standard: bool
    seven_pairs: bool
    four_of_a_kind_as_two_pairs: bool
    thirteen_orphans: bool
    knitted: bool


@dataclass(frozen=True)
class RequirementIR:
    id: str
    when: ExprIR
    reason: Text
    section: str | None
    reading: Text | None

    @property
    def func(self) -> str:
        return f"_require_{self.id}"


@dataclass(frozen=True)
class GroupIR:
    id: str
    pick: str
    reading: Text | None


@dataclass(frozen=True)
class PatternIR:
    id: str
    names: Text
    definition: Text | None
    reading: Text | None
    section: str | None
    group: str | None
    value: int | ExprIR
    when: ExprIR | None
    count: ExprIR | None
    excludes: tuple[str, ...]
    location: Location
    combine: tuple[str, int] | None = None
    """A combination pattern's kind of set (sequences, triplets, sets) and how many sets."""
    exclude_limits: tuple[tuple[str, int], ...] = ()
    """Excluded patterns of which only this many occurrences are removed."""
    fallback: bool = False
    bonus: bool = False
    open_value: int | ExprIR | None = None
    """The value in an open hand (0: closed only); None: ``value`` either way."""
    limit: bool = False
    """A limit pattern (yakuman): when one counts, only limit patterns count."""

    @property
    def open_func(self) -> str:
        return f"_open_{self.id}"

    @property
    def open_is_constant(self) -> bool:
        return not isinstance(self.open_value, ExprIR)

    @property
    def when_func(self) -> str:
        return f"_when_{self.id}"

    @property
    def count_func(self) -> str:
        return f"_count_{self.id}"

    @property
    def value_func(self) -> str:
        return f"_value_{self.id}"

    @property
    def value_is_constant(self) -> bool:
        return isinstance(self.value, int)

    @property
    def members_only(self) -> bool:
        """Whether this combination pattern's expressions read only the combined sets
        (``MEMBERS_NAMES``): its answer then depends on those sets alone."""
        return (
            self.combine is not None and self.open_value is None and self._reads_only(MEMBERS_NAMES)
        )

    @property
    def tiles_only(self) -> bool:
        """Whether every expression of the pattern reads only the hand's tiles
        (``TILES_ONLY_NAMES``), never the situation of the win: the scorer may then reuse its result
        for the same tiles."""
        return self._reads_only(TILES_ONLY_NAMES)

    def _reads_only(self, names: frozenset[str]) -> bool:
        for f in fields(self):
            expr = getattr(self, f.name)
            if isinstance(expr, ExprIR) and not expr.names <= names:
                return False
        return True


@dataclass(frozen=True)
class PointItemIR:
    """One point item of ``scoring.points`` (a fu item)."""

    id: str
    names: Text
    definition: Text | None
    reading: Text | None
    section: str | None
    value: int | ExprIR
    when: ExprIR | None

    @property
    def when_func(self) -> str:
        return f"_point_when_{self.id}"

    @property
    def value_func(self) -> str:
        return f"_point_value_{self.id}"

    @property
    def value_is_constant(self) -> bool:
        return isinstance(self.value, int)


@dataclass(frozen=True)
class PointsIR:
    """``scoring.points``: a second count beside the total (riichi fu, classical basic points)."""

    unit: Text
    items: tuple[PointItemIR, ...]
    result: ExprIR | None
    section: str | None
    reading: Text | None
    shown: tuple[int, ...] = ()
    """Points values the rule document's payment tables show, one column each."""


@dataclass(frozen=True)
class MinimumIR:
    """The floor a win must reach: ``at_least`` of the total, leaving out the patterns
    ``without``."""

    at_least: int
    without: tuple[str, ...]
    reason: Text
    section: str | None
    reading: Text | None


@dataclass(frozen=True)
class AmountIR:
    """A named payment amount or a payer role's formula."""

    name: str
    expr: ExprIR
    kind: str  # "value", "ron" or "tsumo"

    @property
    def func(self) -> str:
        return f"_{self.kind}_{self.name}"


@dataclass(frozen=True)
class ExampleMeldIR:
    type: str
    tiles: str
    source: str | None
    claimed: str | None


@dataclass(frozen=True)
class ExampleIR:
    name: Text
    """The example's title in every language (``name.en`` is its id in tests)."""
    section: str | None
    concealed: str
    win_tile: str
    win: str
    melds: tuple[ExampleMeldIR, ...]
    context: tuple[tuple[str, object], ...]
    legal: bool
    patterns: tuple[str, ...] | None
    total: int | None
    payments: tuple[tuple[str, int], ...] | None
    location: Location
    fu: int | None = None
    checks_fu: bool = False
    """Whether the example states its points (``fu``, possibly null for a limit hand)."""


@dataclass(frozen=True)
class ReadingIR:
    id: str
    section: str | None
    text: Text


@dataclass(frozen=True)
class TableNoteIR:
    """The section and chosen reading attached to one block of table rules."""

    block: str
    section: str | None
    reading: Text | None


@dataclass(frozen=True)
class ProfileIR:
    """One profile, fully resolved and checked."""

    id: str
    version: int
    extends: str | None
    names: Text
    source_book: str
    source_title: str
    source_file: str | None
    spec_file: str
    spec_files: tuple[str, ...]
    players: int
    tiles: TilesIR
    deal_dealer: int
    deal_others: int
    missing_suit: str
    shapes: ShapesIR
    requirements: tuple[RequirementIR, ...]
    total_unit: str
    cap: int | None
    prefer: tuple[str, ...]
    groups: tuple[GroupIR, ...]
    patterns: tuple[PatternIR, ...]
    payment_values: tuple[AmountIR, ...]
    payment_ron: tuple[AmountIR, ...]
    payment_tsumo: tuple[AmountIR, ...]
    invariants: tuple[str, ...]
    examples: tuple[ExampleIR, ...]
    readings: tuple[ReadingIR, ...]
    table: TableRules
    table_notes: tuple[TableNoteIR, ...]
    clock_names: tuple[tuple[str, Text], ...] = ()
    playable: bool = True
    minimum: MinimumIR | None = None
    options: tuple[OptionSpec, ...] = ()
    payment_hand_value: str | None = None
    limit_hands_counted: str | None = None
    points: PointsIR | None = None

    @property
    def whole_hand_lists(self) -> tuple[tuple[str, str, tuple[PatternIR, ...]], ...]:
        """The whole-hand patterns (no ``combine``) in declaration order, split as the scorer splits
        them: those reading the tiles only, then the others; each list with the name of the
        generated function that tests every ``when`` of the list at once, and what it is for."""
        plain = [p for p in self.patterns if p.combine is None]
        return (
            (
                "_when_whole_hand_tiles",
                "reading the tiles only",
                tuple(p for p in plain if p.tiles_only),
            ),
            (
                "_when_whole_hand_situation",
                "reading the situation",
                tuple(p for p in plain if not p.tiles_only),
            ),
        )

    @property
    def has_combinations(self) -> bool:
        """Whether any pattern is a combination pattern (the engine module then imports
        ``Combine``)."""
        return any(p.combine is not None for p in self.patterns)

    @property
    def needs(self) -> tuple[str, ...]:
        """Costly hand-view names the expressions read (sorted): the engine computes only these."""
        used: set[str] = set()
        for e in self.expressions:
            used |= e.names
        return tuple(sorted(used & COSTLY_NAMES))

    @property
    def helpers(self) -> tuple[str, ...]:
        """Runtime helper functions the compiled expressions call (sorted, for determinism)."""
        used: set[str] = set()
        for e in self.expressions:
            used |= e.helpers
        return tuple(sorted(used))

    @property
    def expressions(self) -> tuple[ExprIR, ...]:
        out: list[ExprIR] = [r.when for r in self.requirements]
        for p in self.patterns:
            out += [x for x in (p.when, p.count) if x is not None]
            if isinstance(p.value, ExprIR):
                out.append(p.value)
            if isinstance(p.open_value, ExprIR):
                out.append(p.open_value)
        if self.points is not None:
            for it in self.points.items:
                out += [x for x in (it.when, it.value) if isinstance(x, ExprIR)]
            if self.points.result is not None:
                out.append(self.points.result)
        out += [a.expr for a in (*self.payment_values, *self.payment_ron, *self.payment_tsumo)]
        return tuple(out)
