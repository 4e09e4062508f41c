"""Render a profile's rule documents: ``docs/rules/<profile>.<lang>.md`` and
``docs/rules/index.md``.

Three sources make a document, and each word comes from exactly one of them:

- the **spec** (through the IR): every rule-specific word, such as pattern
  names, definitions, requirement reasons and rule readings, in the
  document's language;
- the **message catalogs** (``compiler/locale/<lang>.po``, GNU gettext):
  the fixed wording of the templates and of the sentences this module
  composes around spec data; a message missing from any catalog is a build
  error naming the msgid and the language;
- the profile's **engine** (the generated module, loaded from the source the
  build is about to write): every figure. Payment tables call
  :func:`~mjspec.runtime.scoring.compute_payments`, worked examples call
  :func:`~mjspec.runtime.scoring.evaluate`, so a document can never show a
  figure the engine disagrees with.

This module builds a small typed *document model* (:class:`RuleDocument`)
from the IR; the templates (``templates/rules.md.j2``, ``index.md.j2``) only
loop over it and interpolate. Sections whose data the IR does not have yet
are empty tuples, so they simply do not appear.

Markdown safety: every value a template interpolates is escaped for
Markdown unless it is an :class:`Md` (text this module composed from catalog
messages and already-escaped parts), so no spec string can inject markup,
links or HTML into a document. Output is deterministic: spec order, sorted
ids, no timestamps.
"""

from __future__ import annotations

import ast
import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable, Mapping, Sequence

import jinja2
from jinja2.ext import extract_from_ast

from mjspec.runtime.context import WinContext, WinKind
from mjspec.runtime.hand import Meld, MeldType
from mjspec.runtime.profile import Profile
from mjspec.runtime.scoring import Score, WinningHand, compute_payments, evaluate
from mjspec.runtime.text import LANGUAGES, Text
from mjspec.runtime.tiles import Suit, Tile, parse_tiles
from mjspec.runtime.options import value_to_json
from mjspec.runtime.rules import (
    CallRules,
    Clock,
    DealerRule,
    ExchangeDirection,
    IndicatorTiming,
    PassWinRule,
    TableRules,
    WinFlow,
)
from mjspec.runtime.view import PaymentView

from .catalog import NO_CONTEXT, Catalog, CatalogError, load_catalogs
from .cells import least_totals
from .describe import Describer, FormulaError
from .errors import Location, SpecError
from .ir import ExampleIR, ExprIR, MinimumIR, PatternIR, ProfileIR, TableNoteIR

#: Each language's name in that language, for the language links.
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "zh": "简体中文",
    "ja": "日本語",
    "pt": "Português",
    "fr": "Français",
}

#: The language of the index page.
INDEX_LANGUAGE = "en"


# ---- Markdown ---------------------------------------------------------------


class Md(str):
    """Markdown this module composed itself: interpolated as is (every other string is escaped)."""

    __slots__ = ()


_INLINE = re.compile(r"([\\`*\[\]|~])")
_LONE_UNDERSCORE = re.compile(r"(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")
_LINE_START = re.compile(r"^(#+(?=\s|$)|[-+=](?=\s|$)|=+$|-+$)")
_ORDERED = re.compile(r"^(\d+)([.)])(?=\s|$)")
_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")


def escape_md(text: str) -> str:
    """``text`` as literal Markdown inline content: one line, no emphasis, links, tables or HTML."""
    text = " ".join(text.split())
    text = _ENTITY.sub("&amp;", text).replace("<", "&lt;").replace(">", "&gt;")
    text = _INLINE.sub(r"\\\1", text)
    text = _LONE_UNDERSCORE.sub(r"\\_", text)  # an underscore inside a word emphasises nothing
    text = _ORDERED.sub(r"\1\\\2", text)
    return _LINE_START.sub(r"\\\1", text)


def code(text: str) -> Md:
    """``text`` as a code span (safe in table cells)."""
    text = " ".join(text.split()).replace("|", "\\|")
    ticks = "`"
    while ticks in text:
        ticks += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return Md(f"{ticks}{pad}{text}{pad}{ticks}")


def _finalize(value: Any) -> str:
    """Jinja's last step for every ``{{ ... }}``: escape plain text, keep :class:`Md`, refuse
    anything odd."""
    try:
        return _piece(value)
    except TypeError:
        raise TypeError(
            f"a template interpolated a {type(value).__name__}; the document model must give text"
        ) from None


# ---- messages ---------------------------------------------------------------


def N_(msgid: str, context: str = NO_CONTEXT) -> tuple[str, str]:
    """Mark a message for the catalogs without translating it yet (gettext's ``N_``)."""
    return (context, msgid)


@dataclass(frozen=True)
class MissingMessage:
    language: str
    context: str
    msgid: str


class Translator:
    """The fixed wording in one language; records every message its catalog lacks."""

    def __init__(self, language: str, catalog: Catalog) -> None:
        self.language = language
        self.catalog = catalog
        self.missing: list[MissingMessage] = []

    def __call__(self, msgid: str, /, context: str = NO_CONTEXT, **values: object) -> Md:
        """The translation of ``msgid`` with its ``{placeholders}`` filled (plain strings
        escaped)."""
        text = self.catalog.lookup(msgid, context)
        if text is None:
            self.missing.append(MissingMessage(self.language, context, msgid))
            text = msgid
        args = {k: _piece(v) for k, v in values.items()}
        return Md(text.format(**args)) if args or "{" in text else Md(text)

    def marked(self, message: tuple[str, str], **values: object) -> Md:
        """Translate a message marked with :func:`N_`."""
        context, msgid = message
        return self(msgid, context=context, **values)

    def plural(
        self,
        msgid: str,
        msgid_plural: str,
        count: int,
        /,
        context: str = NO_CONTEXT,
        **values: object,
    ) -> Md:
        """The form of a plural message for ``count`` (gettext's ``ngettext``), ``{count}`` and the
        other placeholders filled."""
        text = self.catalog.lookup_plural(msgid, count, context)
        if text is None:
            self.missing.append(MissingMessage(self.language, context, msgid))
            text = msgid if count == 1 else msgid_plural
        args = {k: _piece(v) for k, v in {"count": count, **values}.items()}
        return Md(text.format(**args))

    def either(self, parts: Sequence[str]) -> Md:
        """Alternatives: "a, b or c" in the language's words."""
        if len(parts) == 1:
            return Md(_piece(parts[0]))
        return self.marked(_ALTERNATIVES, first=self.join(parts[:-1]), last=parts[-1])

    def join(self, parts: Iterable[str], *, clauses: bool = False) -> Md:
        """Join pieces with the language's list (``, ``) or clause (``; ``) separator."""
        sep = self.marked(_CLAUSE_SEPARATOR if clauses else _LIST_SEPARATOR)
        return Md(sep.join(_piece(p) for p in parts))


_LIST_SEPARATOR = N_(", ", "list separator")
_CLAUSE_SEPARATOR = N_("; ", "clause separator")
_ALTERNATIVES = N_("{first} or {last}", "alternatives")


def _piece(value: object) -> str:
    if isinstance(value, Md):
        return str(value)
    if isinstance(value, str):
        return escape_md(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise TypeError(f"cannot place a {type(value).__name__} in a message")


# ---- tiles ------------------------------------------------------------------


def tiles_md(mpsz: str) -> Md:
    """Tiles in a Markdown document: the mpsz text as code, which every font shows (the Mahjong
    Tiles glyphs render as boxes without a font that has them; the HTML site draws tiles)."""
    return Md(code(mpsz))


# ---- the document model -----------------------------------------------------

#: The cell of a payment table that no hand reaches: empty (the HTML site hatches it).
IMPOSSIBLE = Md("")


@dataclass(frozen=True)
class Table:
    """A Markdown table: header cells, alignment markers, rows of cells."""

    header: tuple[Md, ...]
    align: tuple[Md, ...]
    rows: tuple[tuple[Md, ...], ...]


@dataclass(frozen=True)
class Section:
    """A section's body, in reading order: paragraphs, bullets, tables, then notes."""

    paragraphs: tuple[Md, ...] = ()
    bullets: tuple[Md, ...] = ()
    tables: tuple[Table, ...] = ()
    notes: tuple[Md, ...] = ()


@dataclass(frozen=True)
class WorkedExample:
    heading: Md
    lines: tuple[Md, ...]


@dataclass(frozen=True)
class ExampleSection:
    intro: Md
    items: tuple[WorkedExample, ...]


@dataclass(frozen=True)
class RuleDocument:
    """Everything ``rules.md.j2`` shows; optional sections are tuples of zero or one section."""

    header: Md
    title: Md
    languages: Md
    intro: tuple[Md, ...]
    quick_reference: Table
    tiles: Section
    opening: tuple[Section, ...]
    calls: tuple[Section, ...]
    winning: Section
    flow: tuple[Section, ...]
    riichi: tuple[Section, ...]
    patterns: Section
    points: tuple[Section, ...]
    payments: Section
    options: tuple[Section, ...]
    kongs: tuple[Section, ...]
    examples: tuple[ExampleSection, ...]
    exhaustion: tuple[Section, ...]
    match: tuple[Section, ...]
    readings: tuple[Section, ...]


@dataclass(frozen=True)
class IndexDocument:
    header: Md
    intro: tuple[Md, ...]
    profiles: Table


# ---- wording tables (marked for the catalogs) ----------------------------------

_UNIT = {
    "fan": N_("fan"),
    "han": N_("han"),
    "doubles": N_("doubles"),
    "points": N_("points"),
}
_UNIT_HEADER = {
    "fan": N_("Fan"),
    "han": N_("Han"),
    "doubles": N_("Doubles"),
    "points": N_("Points"),
}
_SUIT_NAME = {
    "m": N_("Characters (man)"),
    "p": N_("Circles (pin)"),
    "s": N_("Bamboo (sou)"),
}
_SUIT_WORD = {
    "m": N_("characters"),
    "p": N_("circles"),
    "s": N_("bamboo"),
}
_WIND = {"E": N_("East"), "S": N_("South"), "W": N_("West"), "N": N_("North")}
_DRAGONS = (N_("White"), N_("Green"), N_("Red"))
_MELD = {
    "chi": N_("chow (chi)"),
    "pon": N_("pung (pon)"),
    "minkan": N_("open kong (minkan)"),
    "ankan": N_("concealed kong (ankan)"),
    "kakan": N_("added kong (kakan)"),
}
_PAYS = {
    ("ron", "discarder"): N_("the discarder pays {amount}"),
    ("ron", "others"): N_("each other opponent pays {amount}"),
    ("tsumo", "each"): N_("each opponent pays {amount}"),
    ("tsumo", "dealer"): N_("the dealer pays {amount}"),
    ("tsumo", "non_dealer"): N_("each non-dealer pays {amount}"),
    ("ron", "east"): N_("East pays {amount}"),
    ("ron", "non_east"): N_("each player other than East pays {amount}"),
    ("tsumo", "east"): N_("East pays {amount}"),
    ("tsumo", "non_east"): N_("each player other than East pays {amount}"),
}
_PAY_HEADER = {
    ("ron", "discarder"): N_("Discard win: the discarder pays"),
    ("ron", "others"): N_("Discard win: each other opponent pays"),
    ("tsumo", "each"): N_("Self-draw: each opponent pays"),
    ("tsumo", "dealer"): N_("Self-draw: the dealer pays"),
    ("tsumo", "non_dealer"): N_("Self-draw: each non-dealer pays"),
    ("ron", "east"): N_("Discard win: East pays"),
    ("ron", "non_east"): N_("Discard win: each player other than East pays"),
    ("tsumo", "east"): N_("Self-draw: East pays"),
    ("tsumo", "non_east"): N_("Self-draw: each player other than East pays"),
}
_FLAG = {
    "riichi": N_("riichi declared"),
    "double_riichi": N_("double riichi declared"),
    "ippatsu": N_("within one turn of riichi (ippatsu)"),
    "last_tile": N_("on the last tile of the wall, or its discard"),
    "after_kong": N_("on a kong's replacement tile"),
    "kong_shot": N_("on a discard made right after a kong"),
    "robbing_kong": N_("robbing a kong"),
    "first_draw": N_("on the first draw"),
    "fourth_tile": N_("on the last copy of a tile"),
}
_BLOCK = {
    "wall": N_("The wall"),
    "opening": N_("Opening"),
    "turn": N_("Turns"),
    "calls": N_("Calls"),
    "passing": N_("Passing a win"),
    "flow": N_("Win flow"),
    "kongs": N_("Kong payments"),
    "riichi": N_("Riichi"),
    "furiten": N_("Furiten"),
    "abortive": N_("Abortive draws"),
    "pao": N_("Liability (pao)"),
    "exhaustion": N_("Exhaustive draw"),
    "match": N_("Match"),
    "timeout": N_("Running out of time"),
}
_DIRECTION = {
    ExchangeDirection.LEFT: N_("to the left"),
    ExchangeDirection.ACROSS: N_("across"),
    ExchangeDirection.RIGHT: N_("to the right"),
}
# Match lengths by their names (riichi's tonpuusen and hanchan, the full game of four winds).
_MATCH_LENGTH = {
    1: N_("an East game (one wind round)"),
    2: N_("an East-South game (two wind rounds)"),
    4: N_("a full game of four wind rounds (East, South, West and North)"),
}
_PREFER = {
    "total": N_("the highest total"),
    "payment": N_("the highest payment"),
    "points": N_("the most points"),
}
# What a combination pattern (``combine: {kind: n}``) is formed by: one set, or n sets.
_COMBINE_ONE = {
    "sequences": N_("one sequence"),
    "triplets": N_("one triplet or kong"),
    "sets": N_("one group"),
}
_COMBINE_MANY = {
    "sequences": N_("{count} sequences"),
    "triplets": N_("{count} triplets or kongs"),
    "sets": N_("{count} groups"),
}


# ---- the glossary ----------------------------------------------------------------

#: The field's usual terms in each language (msgctxt "glossary" in the catalogs): the word a
#: document of a profile that needs the term must use (tests/test_words.py holds every document
#: to it), and the words the documents avoid (alternatives a catalog once had, "(s)" plurals).
GLOSSARY = {
    "han": N_("han", "glossary"),
    "limit": N_("limit pattern", "glossary"),
    "east_game": N_("East game", "glossary"),
    "east_south_game": N_("East-South game", "glossary"),
}
GLOSSARY_AVOID = N_("words every document avoids", "glossary")
GLOSSARY_AVOID_HAN = N_("words the documents of a profile counted in han avoid", "glossary")


def glossary_terms(ir: ProfileIR) -> list[str]:
    """The glossary terms a profile's documents need (keys of :data:`GLOSSARY`)."""
    out = []
    if ir.total_unit == "han":
        out.append("han")
    if any(p.limit for p in ir.patterns):
        out.append("limit")
    rounds = ir.table.match.rounds if ir.playable else 0
    if rounds == 1:
        out.append("east_game")
    elif rounds == 2:
        out.append("east_south_game")
    return out


def glossary(ir: ProfileIR, catalog: Catalog) -> tuple[dict[str, str], list[str]]:
    """A profile's glossary in one language: the words its documents use, and those they
    avoid."""
    use = {}
    for key in glossary_terms(ir):
        context, msgid = GLOSSARY[key]
        use[key] = catalog.lookup(msgid, context) or msgid
    avoid_keys = [GLOSSARY_AVOID] + ([GLOSSARY_AVOID_HAN] if ir.total_unit == "han" else [])
    avoid = []
    for context, msgid in avoid_keys:
        text = catalog.lookup(msgid, context) or ""
        avoid += [w.strip() for w in text.split(";") if w.strip() and w.strip() != "-"]
    return use, avoid


_TSUMO_LEAST = N_("a self-drawn hand with {points} {unit} has at least {total} {total_unit}")
_RON_LEAST = N_("a discard win with {points} {unit} has at least {total} {total_unit}")


# ---- building a document --------------------------------------------------------


class _Builder:
    """Builds one :class:`RuleDocument` from a profile's IR and engine in one language."""

    def __init__(
        self,
        ir: ProfileIR,
        engine: Profile,
        lang: str,
        tr: Translator,
        names: Mapping[str, Text],
        show_tiles: Callable[[str], Md] = tiles_md,
        page: str = "md",
    ) -> None:
        self.ir = ir
        #: How tiles are shown (Markdown: mpsz as code; the HTML site: drawn) and the pages' suffix.
        self.show_tiles = show_tiles
        self.page = page
        self.engine = engine
        self.lang = lang
        self._ = tr
        self.names = names
        # The table rules, read only where the engine plays them: a profile marked
        # `playable: false` states no table rules the engine could be held to, so every section
        # of table play is left out (``table`` None).
        self.playable = ir.playable
        self.table: TableRules | None = ir.table if ir.playable else None
        self.table_notes: tuple[TableNoteIR, ...] = ir.table_notes if ir.playable else ()
        self.clock_names: dict[str, Text] = dict(ir.clock_names)
        self.describe = Describer(
            tr,
            Md,
            escape_md,
            unit=self.unit(),
            points_unit=self.points_unit() if ir.points is not None else None,
            named={a.name: self.term(a.name) for a in ir.payment_values},
            pattern_name=self.pattern_name,
        )

    # -- small helpers --

    def text(self, t: Text) -> str:
        return t.get(self.lang)

    def unit(self) -> Md:
        return self._.marked(_UNIT.get(self.ir.total_unit, N_("fan")))

    def words(self, expr: ExprIR, *, result: bool = False) -> Md:
        """A number-valued formula in words (compiler/describe.py); never code."""
        return Md(self.describe.value(expr, result=result))

    def words_when(self, expr: ExprIR) -> Md:
        """A condition in words."""
        return Md(self.describe.condition(expr))

    @staticmethod
    def term(name: str) -> Md:
        """A payment amount the spec names (``base``), as a term of the formulas: in italics."""
        return Md(f"*{escape_md(name.replace('_', ' '))}*")

    def sections(self, parts: Sequence[str]) -> Md:
        """Rule-book sections for prose: §-marks as a list ("§9, §10"); section titles quoted and
        separated by the language's clause separator (a title may hold commas)."""
        if all(p.startswith("§") for p in parts):
            return self._.join(parts)
        shown = [
            (
                Md(escape_md(p))
                if p.startswith("§")
                else self._("“{title}”", context="section title", title=p)
            )
            for p in parts
        ]
        return self._.join(shown, clauses=True)

    def section_cell(self, section: str | None) -> Md:
        """Rule-book sections for a table cell: unquoted, titles separated by the clause
        separator."""
        parts = _section_parts(section or "")
        return self._.join(parts, clauses=not all(p.startswith("§") for p in parts))

    def section_ref(self, section: str | None) -> Md:
        """ "rule book §7", "rule book “Modèles de notation”"."""
        parts = _section_parts(section or "")
        if not parts:
            return Md("")
        return self._("rule book {section}", section=self.sections(parts))

    def with_ref(self, text: Md, section: str | None) -> Md:
        if not section:
            return text
        return self._("{text} ({reference})", text=text, reference=self.section_ref(section))

    def pattern_name(self, pid: str) -> str:
        for p in self.ir.patterns:
            if p.id == pid:
                return self.text(p.names)
        return pid

    def doc_link(self, pid: str, lang: str | None = None) -> Md:
        lang = lang or self.lang
        label = escape_md(self.names[pid].get(lang)) if pid in self.names else escape_md(pid)
        return Md(f"[{label}]({pid}.{lang}.{self.page})")

    # -- the document --

    def build(self) -> RuleDocument:
        ir = self.ir
        return RuleDocument(
            header=_header(ir.spec_files),
            title=Md(escape_md(self.text(ir.names))),
            languages=self.language_links(),
            intro=self.intro(),
            quick_reference=self.quick_reference(),
            tiles=self.tiles(),
            opening=self.opening(),
            calls=self.calls(),
            winning=self.winning(),
            flow=self.flow(),
            riichi=self.riichi(),
            patterns=self.patterns(),
            points=self.points(),
            payments=self.payments(),
            options=self.options(),
            kongs=self.kongs(),
            examples=self.examples(),
            exhaustion=self.exhaustion(),
            match=self.match(),
            readings=self.readings(),
        )

    def language_links(self) -> Md:
        parts = []
        for lang in LANGUAGES:
            name = LANGUAGE_NAMES[lang]
            parts.append(
                f"**{name}**" if lang == self.lang else f"[{name}]({self.ir.id}.{lang}.{self.page})"
            )
        return Md(" · ".join(parts))

    def intro(self) -> tuple[Md, ...]:
        ir, _ = self.ir, self._
        out = [
            _(
                "Profile {id}, version {version}. It follows rule book {book}: {title}.",
                id=code(ir.id),
                version=ir.version,
                book=ir.source_book,
                title=Md(f"*{escape_md(ir.source_title)}*"),
            )
        ]
        if ir.extends:
            out.append(
                _(
                    "It extends {parent} and states only what differs from it.",
                    parent=self.doc_link(ir.extends),
                )
            )
        example = self.first_section()
        if example is None:
            out.append(
                _(
                    "This page is generated from {spec} by {command}. Rule names, definitions "
                    "and readings come from the spec; every figure in the tables and examples "
                    "was computed by the profile's engine.",
                    spec=code(ir.spec_file),
                    command=code("mjspec build"),
                )
            )
        else:
            out.append(
                _(
                    "This page is generated from {spec} by {command}. Rule names, definitions "
                    "and readings come from the spec; every figure in the tables and examples "
                    "was computed by the profile's engine. References such as {example} are to "
                    "sections of the rule book.",
                    spec=code(ir.spec_file),
                    command=code("mjspec build"),
                    example=self.sections([example]),
                )
            )
        if not self.playable:
            out.append(
                _(
                    "**Not playable yet.** The engine scores this profile's hands, but it does "
                    "not implement the profile's table rules (the opening, calls, win flow, "
                    "kong payments, exhaustive draw and match) yet. This page leaves them out, "
                    "and {play} and {simulate} refuse the profile.",
                    play=code("mjspec play"),
                    simulate=code("mjspec simulate"),
                )
            )
        return tuple(out)

    def first_section(self) -> str | None:
        """The first rule-book section the page cites (for the intro's example of a reference)."""
        ir = self.ir
        cited = [n.section for n in self.table_notes] + [r.section for r in ir.requirements]
        cited += [p.section for p in ir.patterns] + [e.section for e in ir.examples]
        for section in cited:
            parts = _section_parts(section or "")
            if parts:
                return parts[0]
        return None

    def quick_reference(self) -> Table:
        ir, _ = self.ir, self._
        rows: list[tuple[Md, Md]] = [
            (_("Players"), Md(str(ir.players))),
            (_("Tiles"), self.tile_summary()),
            (
                _("Starting hand"),
                _(
                    "dealer {dealer} tiles, the others {others}",
                    dealer=ir.deal_dealer,
                    others=ir.deal_others,
                ),
            ),
        ]
        opening = []
        exchange = self.table.exchange if self.table is not None else None
        if exchange is not None:
            opening.append(_("exchange of {count} tiles", count=exchange.tiles))
        if ir.missing_suit == "declare":
            opening.append(_("every player declares a missing suit"))
        if opening and self.playable:
            rows.append((_("Opening"), _.join(opening, clauses=True)))
        rows.append((_("Winning shapes"), _.join(self.shape_names(), clauses=True)))
        scoring = [
            _("{count} patterns, counted in {unit}", count=len(ir.patterns), unit=self.unit())
        ]
        if ir.cap is not None:
            scoring.append(_("capped at {cap} {unit}", cap=ir.cap, unit=self.unit()))
        rows.append((_("Scoring"), _.join(scoring, clauses=True)))
        rows.append((_("Payment"), Md("<br>".join(self.payment_rules()))))
        rows.extend(self.table_quick_reference())
        if not self.playable:
            rows.append((_("Table play"), _("not implemented by the engine yet")))
        return Table((_("Rule"), _("This profile")), (Md("---"), Md("---")), tuple(rows))

    # -- tiles and deal --

    def tile_summary(self) -> Md:
        t, _ = self.ir.tiles, self._
        parts = [
            _("{count} tiles", count=self.engine.tiles.size()),
            _.join(_.marked(_SUIT_WORD[s]) for s in t.suits),
            _("winds and dragons") if t.honors else _("no honors"),
            _("8 flowers") if t.flowers else _("no flowers"),
        ]
        if t.red_fives:
            parts.append(
                _(
                    "red fives in {suits}",
                    suits=_.join(_.marked(_SUIT_WORD[s]) for s in t.red_fives),
                )
            )
        else:
            parts.append(_("no red fives"))
        return _.join(parts, clauses=True)

    def tiles(self) -> Section:
        ir, _ = self.ir, self._
        t = ir.tiles
        rows: list[tuple[Md, ...]] = []
        for s in t.suits:
            rows.append(
                (_.marked(_SUIT_NAME[s]), code(f"1{s}–9{s}"), self.show_tiles(f"123456789{s}"))
            )
        if t.honors:
            winds = _.join(_.marked(_WIND[w]) for w in "ESWN")
            dragons = _.join(_.marked(d) for d in _DRAGONS)
            rows.append(
                (_("Winds ({names})", names=winds), code("1z–4z"), self.show_tiles("1234z"))
            )
            rows.append(
                (
                    _("Dragons ({names})", names=dragons),
                    code("5z–7z"),
                    self.show_tiles("567z"),
                )
            )
        if t.flowers:
            rows.append((_("Flowers and seasons"), code("1f–8f"), self.show_tiles("12345678f")))
        if t.red_fives:
            reds = "".join(f"0{s}" for s in t.red_fives)
            rows.append(
                (
                    _("Red fives"),
                    code(" ".join(f"0{s}" for s in t.red_fives)),
                    self.show_tiles(reds),
                )
            )
        none, dash = _("none in this set"), Md("—")
        if not t.honors:
            rows.append((_("Honors (winds and dragons)"), dash, none))
        if not t.flowers:
            rows.append((_("Flowers and seasons"), dash, none))
        if not t.red_fives:
            rows.append((_("Red fives"), dash, none))
        table = Table(
            (_("Kind"), _("Notation"), _("Tiles")), (Md("---"), Md("---"), Md("---")), tuple(rows)
        )
        paragraphs = self.refs("wall") + [
            _(
                "The wall holds {count} tiles: {copies} copies of each kind.",
                count=self.engine.tiles.size(),
                copies=t.copies,
            )
        ]
        if t.flowers:
            paragraphs.append(_("There is one of each flower and season."))
        if t.red_fives:
            paragraphs.append(_("In each suit listed as red, one of the four fives is red."))
        notes = [
            _(
                "Tiles are written in mpsz notation: digits followed by the suit letter, m for "
                "characters, p for circles, s for bamboo, z for honors and f for flowers; 0 is "
                "a red five. For example {example} is 1-2-3 of characters and a pair of 7 "
                "circles.",
                example=code("123m77p"),
            ),
            _(
                "{players} players. The dealer starts with {dealer} tiles, every other player "
                "with {others}.",
                players=ir.players,
                dealer=ir.deal_dealer,
                others=ir.deal_others,
            ),
        ]
        dice = self.table.dice if self.table is not None else 0
        if dice == 1:
            notes.append(_("One roll of two dice opens the wall."))
        elif dice > 1:
            notes.append(_("{count} rolls of two dice open the wall.", count=dice))
        return Section(paragraphs=tuple(paragraphs), tables=(table,), notes=tuple(notes))

    # -- opening, calls, exhaustion, match --

    def notes_of(self, *blocks: str) -> list[TableNoteIR]:
        return [n for n in self.table_notes if n.block in blocks]

    def refs(self, *blocks: str) -> list[Md]:
        """A line naming the rule-book sections of some table-rule blocks (none if they name
        none)."""
        sections: list[str] = []
        notes = sorted(self.notes_of(*blocks), key=lambda n: blocks.index(n.block))
        for n in notes:
            for part in _section_parts(n.section or ""):
                if part not in sections:
                    sections.append(part)
        if not sections:
            return []
        if all(p.startswith("§") for p in sections):
            sections.sort(key=_section_key)
        return [Md(f"*{self._('Rule book: {sections}', sections=self.sections(sections))}*")]

    def opening(self) -> tuple[Section, ...]:
        _, table = self._, self.table
        # The opening is a table rule; the missing suit's effect on a win stays under Winning.
        if table is None:
            return ()
        bullets = []
        exchange = table.exchange
        if exchange is not None:
            count = exchange.tiles
            if exchange.same_suit:
                bullets.append(
                    _(
                        "After the deal every player chooses {count} tiles of one suit, face "
                        "down, and passes them on.",
                        count=count,
                    )
                )
            else:
                bullets.append(
                    _(
                        "After the deal every player chooses {count} tiles, face down, and "
                        "passes them on.",
                        count=count,
                    )
                )
            directions = [_.marked(_DIRECTION[d]) for d in exchange.directions]
            if len(directions) > 1:
                bullets.append(
                    _(
                        "One direction, the same for everyone, is drawn at random: {directions}.",
                        directions=_.join(directions),
                    )
                )
            elif directions:
                bullets.append(_("The tiles are passed {direction}.", direction=directions[0]))
        if self.ir.missing_suit == "declare":
            suits = _.join(_.marked(_SUIT_WORD[s]) for s in self.ir.tiles.suits)
            bullets.append(
                _(
                    "Every player then declares one missing suit ({suits}). A winning hand "
                    "must hold no tile of the suit its player declared.",
                    suits=suits,
                )
                if exchange is not None
                else _(
                    "After the deal every player declares one missing suit ({suits}). A "
                    "winning hand must hold no tile of the suit its player declared.",
                    suits=suits,
                )
            )
        if table.discard_missing_suit_first:
            bullets.append(
                _(
                    "While a player still holds tiles of the declared suit, they must discard "
                    "those first."
                )
            )
        if not bullets:
            return ()
        return (Section(paragraphs=tuple(self.refs("opening", "turn")), bullets=tuple(bullets)),)

    def call_names(self) -> tuple[list[Md], list[Md]]:
        """The calls the profile allows and those it does not (none either way without table
        rules)."""
        allowed: list[Md] = []
        refused: list[Md] = []
        if self.table is not None:
            for key, value in _call_switches(self.table.calls):
                (allowed if value else refused).append(self._.marked(_MELD[key]))
        return allowed, refused

    def calls(self) -> tuple[Section, ...]:
        _ = self._
        if self.table is None:
            return ()
        calls = self.table.calls
        bullets = []
        allowed, refused = self.call_names()
        if allowed:
            bullets.append(_("Allowed calls: {calls}.", calls=_.join(allowed)))
        if refused:
            bullets.append(_("Never allowed: {calls}.", calls=_.join(refused)))
        multiple = calls.multiple_ron
        limit = calls.ron_limit
        if multiple and limit is not None:
            bullets.append(
                _(
                    "A win on a discard comes before any pung or kong of it, and a pung or "
                    "kong before a chow; up to {count} players may win on the same discard.",
                    count=limit,
                )
            )
        elif multiple:
            bullets.append(
                _(
                    "A win on a discard comes before any pung or kong of it; when several "
                    "players can win on the same discard, all of them win."
                )
            )
        else:
            bullets.append(
                _(
                    "A win on a discard comes before any pung or kong of it; when several "
                    "players can win on the same discard, only the nearest in turn order wins."
                )
            )
        if calls.kakan_drawn_tile_only:
            bullets.append(_("An added kong may only be made with the tile just drawn."))
        robbable = calls.robbable_kakan
        if robbable:
            bullets.append(
                _(
                    "The tile added to make an added kong can be robbed: another player may "
                    "win on it."
                )
            )
        else:
            bullets.append(_("An added kong cannot be robbed."))
        robbers = calls.rob_concealed_kong
        if robbers:
            names = _.join(escape_md(self.pattern_name(pid)) for pid in robbers)
            bullets.append(
                _(
                    "A win with {patterns} may also rob a concealed kong: its tile is claimed "
                    "like a discard.",
                    patterns=names,
                )
            )
        elif robbable and calls.ankan:
            bullets.append(_("A concealed kong can never be robbed."))
        if robbable and multiple and limit is not None:
            bullets.append(
                _(
                    "A robbed kong's tile counts as a discard for the number of winners: up to "
                    "{count} players may win on it.",
                    count=limit,
                )
            )
        if calls.kuikae:
            bullets.append(
                _(
                    "After a chow or pung the caller may not discard the called kind, nor the "
                    "tile beyond the other end of the sequence the called tile completed "
                    "(kuikae); a call that would leave no other discard is not offered."
                )
            )
        kongs = calls.max_kongs
        if kongs is not None:
            bullets.append(
                _("No kong may be declared once {count} kongs are on the table.", count=kongs)
            )
        if not calls.last_discard_callable:
            bullets.append(
                _(
                    "The discard after the last draw from the live wall cannot be claimed by a "
                    "pung or chow."
                )
            )
        if calls.missing_suit_blocks_calls:
            bullets.append(
                _(
                    "While a player still holds tiles of their missing suit they may not pung, "
                    "kong or win; nor may a player call a tile of their own missing suit."
                )
            )
        return (Section(paragraphs=tuple(self.refs("calls")), bullets=tuple(bullets)),)

    def flow_and_passing(self) -> list[Md]:
        _, table = self._, self.table
        out: list[Md] = []
        if table is None:
            return out
        flow = table.flow
        if flow is WinFlow.BLOODY_BATTLE:
            out.append(
                _(
                    "Bloody Battle: a winner is paid and leaves the hand; the others play on "
                    "with the same wall until only one player is left or the wall runs out. A "
                    "player who has left pays nothing afterwards and is no longer an opponent "
                    "in later payments (only refunds of kong payments they made still reach "
                    "them)."
                )
            )
        elif flow is WinFlow.SINGLE:
            out.append(_("The first win ends the hand."))
        passing = table.passing
        rule = passing.win
        if rule is PassWinRule.SAME_OR_LOWER_FAN:
            out.append(
                _(
                    "A player who declines a win may not win with the same or a lower value "
                    "until their next draw; a strictly higher one stays allowed."
                )
            )
        elif rule is PassWinRule.DISCARD_WINS:
            out.append(
                _(
                    "A player who declines a win on a discard may not win on a discard "
                    "(robbing a kong included) until their next draw; a self-draw stays "
                    "allowed."
                )
            )
        elif rule is PassWinRule.NONE and not self.furiten_rules():
            out.append(_("Declining a win costs nothing."))
        if passing.call_counts_as_pass:
            out.append(
                _("Calling pung or kong when a win was available counts as declining that win.")
            )
        if passing.pon_blocks_same_tile:
            out.append(
                _("A player who declines a pung may not pung the same tile until their next draw.")
            )
        return out

    def furiten_rules(self) -> list[Md]:
        _ = self._
        out: list[Md] = []
        if self.table is None:
            return out
        furiten = self.table.furiten
        if furiten.own_discards:
            out.append(
                _(
                    "Furiten: a player may not win on a discard while any tile that would "
                    "complete their hand is among their own discards, called ones included; a "
                    "self-draw stays allowed."
                )
            )
        if furiten.passed_completion:
            out.append(
                _(
                    "A player who lets pass a discard that would complete their hand, with or "
                    "without a yaku, may not win on a discard until their next draw."
                )
            )
            if furiten.passed_ends_at_discard:
                out.append(
                    _(
                        "That furiten also ends with the player's own next discard, after a "
                        "call too."
                    )
                )
        if furiten.riichi_passed:
            out.append(
                _(
                    "After riichi, letting a winning discard pass forbids discard wins for the "
                    "rest of the hand."
                )
            )
        return out

    def riichi(self) -> tuple[Section, ...]:
        """The dead wall and indicators, riichi, furiten, liability and abortive draws (001)."""
        _, table = self._, self.table
        if table is None:
            return ()
        bullets: list[Md] = []
        dead = table.dead_wall
        if dead is not None:
            bullets.append(
                _(
                    "A dead wall of {count} tiles at the end of the wall holds the kong "
                    "replacement tiles and the bonus indicators; each replacement shortens the "
                    "live wall by one tile.",
                    count=dead.tiles,
                )
            )
            if dead.indicators:
                bullets.append(
                    _(
                        "One indicator is turned over at the start; the kind after it is a "
                        "bonus tile (dora): 9 is followed by 1, the winds run East, South, "
                        "West, North, the dragons White, Green, Red."
                    )
                )
            if dead.kong_indicators:
                bullets.append(
                    _("A concealed kong turns over one more indicator at once.")
                    if dead.concealed_kong_indicator is IndicatorTiming.AT_ONCE
                    else _(
                        "A concealed kong turns over one more indicator when its player "
                        "discards after the replacement."
                    )
                )
                bullets.append(
                    _("An exposed or added kong turns over one more indicator at once.")
                    if dead.open_kong_indicator is IndicatorTiming.AT_ONCE
                    else _(
                        "An exposed or added kong turns over one more indicator when its "
                        "player discards after the replacement, or at the next kong if one "
                        "comes first."
                    )
                )
            if dead.under_indicators:
                bullets.append(
                    _(
                        "A riichi winner also counts the tiles under the turned indicators "
                        "(ura-dora)."
                    )
                )
        riichi = table.riichi
        if riichi is not None:
            bullets.append(
                _(
                    "Riichi: a player with a closed ready hand, at least {points} points and "
                    "at least {tiles} tiles left in the live wall may declare riichi with a "
                    "discard; the deposit of {deposit} is paid once no one wins on that "
                    "discard, and the next winner takes every deposit on the table.",
                    points=riichi.min_points,
                    tiles=riichi.min_wall,
                    deposit=riichi.deposit,
                )
            )
            if riichi.automatic_discard:
                bullets.append(
                    _(
                        "After riichi each drawn tile is discarded automatically unless the "
                        "player can win or declare an allowed concealed kong."
                    )
                )
            if riichi.kong_keeps_waits:
                bullets.append(
                    _(
                        "After riichi a concealed kong must use the drawn tile and keep the "
                        "same waits."
                    )
                )
            if riichi.double_riichi:
                bullets.append(
                    _(
                        "A riichi declared with one's first discard, before any call, is a "
                        "double riichi."
                    )
                )
            if riichi.ippatsu:
                bullets.append(
                    _(
                        "A win before the declarer's next discard, with no call or kong in "
                        "between, is made within one turn (ippatsu)."
                    )
                )
        bullets += self.furiten_rules()
        pao = table.pao
        if pao is not None and (pao.dragons or pao.winds):
            bullets.append(
                _(
                    "Liability (pao): a player whose discard, called, completes another "
                    "player's third dragon set or fourth wind set pays that yakuman's value in "
                    "full on a self-draw, and half of it on a discard win (the discarder pays "
                    "the rest)."
                )
            )
            if pao.liable_pays_honba:
                bullets.append(_("The liable player also pays the honba of that win."))
            if pao.covers_whole_hand:
                bullets.append(
                    _(
                        "The liability covers the whole hand, other yakuman stacked with that "
                        "one included."
                    )
                )
        abortive = table.abortive
        aborts = []
        if abortive.nine_terminals:
            aborts.append(
                _(
                    "a player holding nine different terminal and honor kinds on an "
                    "uninterrupted first turn declares it"
                )
            )
        if abortive.four_winds:
            aborts.append(_("the four first discards are the same wind, with no call before"))
        if abortive.four_riichi:
            aborts.append(_("all four players have declared riichi"))
        if abortive.four_kongs:
            aborts.append(
                _(
                    "four kongs by more than one player, once the discard after the fourth is "
                    "not won on"
                )
            )
        if abortive.triple_ron:
            aborts.append(_("more players claim a win on one discard than may win on it"))
        if aborts:
            bullets.append(
                _(
                    "The hand ends with no winner and no payment when {cases}.",
                    cases=_.join(aborts, clauses=True),
                )
            )
        if not bullets:
            return ()
        return (
            Section(
                paragraphs=tuple(self.refs("wall", "riichi", "furiten", "pao", "abortive")),
                bullets=tuple(bullets),
            ),
        )

    def flow(self) -> tuple[Section, ...]:
        bullets = self.flow_and_passing()
        if not bullets:
            return ()
        return (Section(paragraphs=tuple(self.refs("flow", "passing")), bullets=tuple(bullets)),)

    def kongs(self) -> tuple[Section, ...]:
        bullets = self.kong_payments()
        if not bullets:
            return ()
        return (Section(paragraphs=tuple(self.refs("kongs")), bullets=tuple(bullets)),)

    def kong_payments(self) -> list[Md]:
        _ = self._
        out: list[Md] = []
        if self.table is None:
            return out
        kongs = self.table.kongs
        for amount, message in (
            (
                kongs.ankan_each,
                N_("Concealed kong: each other player still in the hand pays {amount}, at once."),
            ),
            (
                kongs.minkan_discarder,
                N_("Open kong: the player whose discard completed it pays {amount}, at once."),
            ),
            (
                kongs.kakan_each,
                N_("Added kong: each other player still in the hand pays {amount}, at once."),
            ),
        ):
            if amount > 0:
                out.append(_.marked(message, amount=amount))
        if kongs.transfer_on_kong_shot:
            out.append(
                _(
                    "A player who declares a kong and then deals into a win hands the income "
                    "of that kong (and of every kong in the same chain) to the winner."
                )
            )
        return out

    def exhaustion(self) -> tuple[Section, ...]:
        _, table = self._, self.table
        if table is None:
            return ()
        ex = table.exhaustion
        bullets = []
        penalty = ex.missing_suit_penalty
        if penalty > 0:
            bullets.append(
                _(
                    "A player still holding tiles of their missing suit pays {amount} to each "
                    "remaining player who cleared theirs.",
                    amount=penalty,
                )
            )
        if ex.refund_kong_income:
            bullets.append(
                _(
                    "Players who are not ready return the kong income of the hand to those who "
                    "paid it."
                )
            )
        if ex.not_ready_pays_ready:
            cap = ex.ready_value_cap
            if cap is not None:
                bullets.append(
                    _(
                        "Each player who is not ready pays each ready player the most that "
                        "player's hand could win on a discard, at most {cap}.",
                        cap=cap,
                    )
                )
            else:
                bullets.append(
                    _(
                        "Each player who is not ready pays each ready player the most that "
                        "player's hand could win on a discard."
                    )
                )
        nagashi = ex.nagashi
        if nagashi is not None:
            bullets.append(
                _(
                    "Checked first: a player whose discards are all terminals and honors, none "
                    "of them called, is paid {dealer} by the dealer and {other} by each other "
                    "player ({each} by each player if that player is the dealer); the ready "
                    "payments are then not made.",
                    dealer=nagashi.from_dealer,
                    other=nagashi.from_non_dealer,
                    each=nagashi.dealer_from_each,
                )
            )
        pool = ex.ready_pool
        if pool > 0:
            bullets.append(
                _(
                    "The players who are not ready pay {amount} in all to the ready players, "
                    "shared equally on both sides; nothing is paid when all or none are ready.",
                    amount=pool,
                )
            )
            bullets.append(
                _(
                    "A hand is ready when one tile would complete its shape, with or without a "
                    "yaku, even when the player holds every copy of that tile."
                )
                if ex.ready_with_held_waits
                else _(
                    "A hand is ready when one tile would complete its shape, with or without a "
                    "yaku, but not when the player holds every copy of each such tile."
                )
            )
        if not bullets:
            bullets.append(_("When the wall runs out the hand ends with no payment."))
        intro = (
            _("When the wall runs out, the players still in the hand settle:")
            if table.flow is WinFlow.BLOODY_BATTLE
            else _("When the wall runs out:")
        )
        paragraphs = self.refs("exhaustion") + [intro]
        return (Section(paragraphs=tuple(paragraphs), bullets=tuple(bullets)),)

    def match(self) -> tuple[Section, ...]:
        _, table = self._, self.table
        if table is None:
            return ()
        match = table.match
        bullets = []
        rounds = match.rounds
        # A match of wind rounds has no fixed number of hands.
        hands = match.hands if rounds <= 0 else None
        if rounds > 0:
            bullets.append(
                _(
                    "A game is {length}, each wind round of four dealer turns, East first.",
                    length=self.match_length(rounds),
                )
            )
        elif hands == 1:
            bullets.append(_("A game is a single hand."))
        elif hands is not None:
            bullets.append(_("A match lasts {count} hands.", count=hands))
        bullets.append(_("Every player starts with a score of {score}.", score=match.start_score))
        dealer = match.dealer
        if dealer is DealerRule.FIRST_WINNER and hands != 1:
            bullets.append(
                _(
                    "The first winner of a hand deals the next one; if several players won on "
                    "the first winning discard, its discarder deals; with no win the dealer "
                    "stays."
                )
            )
        elif dealer is DealerRule.ROTATE and hands != 1:
            bullets.append(_("The deal passes to the next player after every hand."))
        elif dealer is DealerRule.REPEAT:
            bullets.append(
                _(
                    "The dealer deals again after winning (alone or with another winner), "
                    "after an exhaustive draw at which they are ready, and after an abortive "
                    "draw; otherwise the next player deals."
                )
            )
        if match.honba:
            bullets.append(
                _(
                    "A hand with no winner or won by the dealer adds one honba, another "
                    "player's win resets them; the winner's payment includes them."
                )
            )
        if match.bust_ends:
            bullets.append(_("A score below zero ends the game at once."))
        stop = match.last_dealer_stops_at
        if stop is not None:
            bullets.append(
                _(
                    "In the last hand a dealer who would deal again ends the game instead when "
                    "first with at least {points} points.",
                    points=stop,
                )
            )
        target = match.extension_until
        if target is not None:
            bullets.append(
                _.plural(
                    "If nobody has {points} points when the rounds end, the next wind round is "
                    "played, ending after the first hand that leaves someone with that many (at "
                    "most one more round).",
                    "If nobody has {points} points when the rounds end, the next wind round is "
                    "played, ending after the first hand that leaves someone with that many (at "
                    "most {count} more rounds).",
                    match.extension_rounds,
                    points=target,
                )
            )
        if match.leftover_deposits_to_first and table.riichi is not None:
            bullets.append(_("Riichi deposits left on the table at the end go to first place."))
        result = match.result
        if result is not None:
            bullets.append(
                _(
                    "Placement is by points, ties going to the earlier seat; the result is the "
                    "points minus the return of {points}, plus {bonus} to first place, plus "
                    "placement adjustments of {uma} thousand.",
                    points=result.return_points,
                    bonus=result.winner_bonus,
                    uma=Md("/".join(f"{u:+d}" for u in result.uma)),
                )
            )
            step = result.round_to
            if step is not None:
                bullets.append(
                    _(
                        "For the result, points are rounded to the nearest {amount} (a half "
                        "away from zero) and first place takes the balance.",
                        amount=step,
                    )
                )
        if table.timeout.claim_win:
            bullets.append(_("A player who runs out of time takes an available win."))
        else:
            bullets.append(_("Running out of time never makes a player win."))
        window = table.timeout.claim_seconds
        if window > 0:
            bullets.append(
                _(
                    "Every player has {seconds} seconds to claim a discard (or rob a kong) or "
                    "pass; one who has not answered by then passes.",
                    seconds=window,
                )
            )
        tables = []
        clocks = table.clocks
        if clocks:
            rows = tuple(
                (
                    self.clock_name(c),
                    _("{seconds} s", seconds=c.per_action),
                    _("{seconds} s", seconds=c.reserve),
                )
                for c in clocks
            )
            tables.append(
                Table(
                    (_("Time control"), _("Per action"), _("Reserve per hand")),
                    (Md("---"), Md("--:"), Md("--:")),
                    rows,
                )
            )
        return (
            Section(
                paragraphs=tuple(self.refs("match", "timeout")),
                bullets=tuple(bullets),
                tables=tuple(tables),
            ),
        )

    def match_length(self, rounds: int) -> Md:
        """A match of ``rounds`` wind rounds by the name players give it (the East game, the
        East-South game), else counted with the catalog's plural forms."""
        named = _MATCH_LENGTH.get(rounds)
        if named is not None:
            return self._.marked(named)
        return self._.plural("{count} wind round", "{count} wind rounds", rounds)

    def clock_name(self, clock: Clock) -> Md:
        """The clock's name in the document's language (its id when the spec names it in no
        language)."""
        names = self.clock_names.get(clock.id)
        return Md(escape_md(self.text(names))) if names is not None else code(clock.id)

    def table_quick_reference(self) -> list[tuple[Md, Md]]:
        _, table = self._, self.table
        rows: list[tuple[Md, Md]] = []
        if table is None:
            return rows
        allowed, refused = self.call_names()
        if allowed or refused:
            parts = [_.join(allowed)] if allowed else []
            if refused:
                parts.append(_("no {calls}", calls=_.join(refused)))
            rows.append((_("Calls"), _.join(parts, clauses=True)))
        if table.flow is WinFlow.BLOODY_BATTLE:
            rows.append((_("Win flow"), _("Bloody Battle: winners leave, play goes on")))
        elif table.flow is WinFlow.SINGLE:
            rows.append((_("Win flow"), _("the first win ends the hand")))
        match = table.match
        if match.rounds > 0:
            rows.append((_("Match"), self.match_length(match.rounds)))
        elif match.hands == 1:
            rows.append((_("Match"), _("a single hand")))
        else:
            rows.append((_("Match"), _("{count} hands", count=match.hands)))
        return rows

    # -- winning --

    def shape_names(self) -> list[Md]:
        sh, _ = self.ir.shapes, self._
        out = []
        if sh.standard:
            out.append(_("four groups and a pair"))
        if sh.seven_pairs:
            out.append(_("seven pairs"))
        if sh.thirteen_orphans:
            out.append(_("thirteen orphans"))
        if sh.knitted:
            out.append(_("knitted shapes"))
        return out

    def winning(self) -> Section:
        ir, _ = self.ir, self._
        sh = ir.shapes
        bullets = []
        if sh.standard:
            bullets.append(
                _("Four groups and a pair: each group a sequence of three, a triplet or a kong.")
            )
        if sh.seven_pairs:
            bullets.append(
                _("Seven pairs; four identical tiles count as two pairs.")
                if sh.four_of_a_kind_as_two_pairs
                else _("Seven pairs, all different.")
            )
        if sh.thirteen_orphans:
            bullets.append(
                _("Thirteen orphans: one of each terminal and honor, plus a pair of one of them.")
            )
        if sh.knitted:
            bullets.append(
                _("Knitted shapes: knitted sequences of 1-4-7, 2-5-8 and 3-6-9 in different suits.")
            )
        paragraphs = [_("A winning hand has one of these shapes:")]
        notes: list[Md] = []
        for r in ir.requirements:
            reason = self.with_ref(Md(escape_md(self.text(r.reason))), r.section)
            notes.append(_("A hand is not a win if {reason}.", reason=reason))
        if ir.minimum is not None:
            notes.append(self.minimum_note(ir.minimum))
        criteria = [_.marked(_PREFER[k]) for k in ir.prefer if k in _PREFER]
        if criteria:
            notes.append(
                _(
                    "When a hand can be read in more than one way, the reading with {criteria} "
                    "counts.",
                    criteria=Md(str(_(", then ", context="preference")).join(criteria)),
                )
            )
        return Section(paragraphs=tuple(paragraphs), bullets=tuple(bullets), notes=tuple(notes))

    def minimum_note(self, m: MinimumIR) -> Md:
        """``win.minimum``: the floor in plain words, naming the patterns it leaves out
        (``without``)."""
        _ = self._
        floor = self.with_ref(_("{total} {unit}", total=m.at_least, unit=self.unit()), m.section)
        if m.without:
            return _(
                "A hand is a win only if it scores at least {floor} without counting "
                "{patterns}, which still add to the total once it wins.",
                floor=floor,
                patterns=_.join(self.pattern_name(x) for x in m.without),
            )
        return _("A hand is a win only if it scores at least {floor}.", floor=floor)

    # -- patterns --

    def pattern_value(self, p: PatternIR) -> Md:
        if isinstance(p.value, ExprIR):
            shown = self.words(p.value)
        else:
            shown = Md(str(p.value))
        if p.count is not None:
            shown = self._("{value} each", value=shown)
        if p.open_value == 0:
            shown = self._("{value}, closed hand only", value=shown)
        elif p.open_value is not None:
            opened = (
                self.words(p.open_value)
                if isinstance(p.open_value, ExprIR)
                else Md(str(p.open_value))
            )
            shown = self._("{value} closed, {open} open", value=shown, open=opened)
        if p.limit:
            shown = self._("{value} (limit)", value=shown)
        return shown

    def patterns(self) -> Section:
        ir, _ = self.ir, self._
        rows = []
        for p in ir.patterns:
            definition = Md(escape_md(self.text(p.definition))) if p.definition else Md("")
            rows.append(
                (
                    Md(f"**{escape_md(self.text(p.names))}**"),
                    self.pattern_value(p),
                    definition,
                    self.section_cell(p.section),
                )
            )
        table = Table(
            (_("Pattern"), _("Value ({unit})", unit=self.unit()), _("Definition"), _("Rule book")),
            (Md("---"), Md("--:"), Md("---"), Md("---")),
            tuple(rows),
        )
        notes = []
        for g in ir.groups:
            members = [self.text(p.names) for p in ir.patterns if p.group == g.id]
            if g.pick == "highest" and len(members) > 1:
                notes.append(
                    _("Only the highest of these counts: {patterns}.", patterns=_.join(members))
                )
        notes.extend(self.relation_notes())
        paragraphs = [
            (
                _(
                    "A winning hand scores the patterns it meets, except as the notes below "
                    "the table say; their values add up to its total in {unit}.",
                    unit=self.unit(),
                )
                if notes  # some patterns do not count together
                else _(
                    "A winning hand scores every pattern it meets, and their values add up to "
                    "its total in {unit}.",
                    unit=self.unit(),
                )
            )
        ]
        if ir.cap is not None:
            notes.append(
                _("For payment the total is capped at {cap} {unit}.", cap=ir.cap, unit=self.unit())
            )
        return Section(paragraphs=tuple(paragraphs), tables=(table,), notes=tuple(notes))

    def relation_notes(self) -> list[Md]:
        """How patterns count together, in plain words: combination patterns (``combine``), what
        each pattern excludes (``excludes``, with occurrence limits), ``fallback`` and ``bonus``
        patterns. The wording follows apply_relations in runtime/scoring.py, which applies them."""
        ir, _ = self.ir, self._
        notes: list[Md] = []
        combos = [p for p in ir.patterns if p.combine is not None]
        if combos:
            notes.append(
                _(
                    "Combination patterns are formed by some of the hand's groups rather than "
                    "by the whole hand, and count once for each combination of groups that "
                    "forms them. A group forms the same pattern only once, and a combination "
                    "does not count if two of its groups are already linked through "
                    "combinations counted before it (so a group left over joins the others in "
                    "only one more combination)."
                )
            )
            kinds: dict[tuple[str, int], list[str]] = {}
            for p in combos:
                assert p.combine is not None
                kinds.setdefault(p.combine, []).append(self.text(p.names))
            for (kind, size), names in sorted(kinds.items(), key=lambda k: (k[0][0], k[0][1])):
                sets = (
                    _.marked(_COMBINE_ONE[kind])
                    if size == 1
                    else _.marked(_COMBINE_MANY[kind], count=size)
                )
                notes.append(_("Formed by {sets}: {patterns}.", sets=sets, patterns=_.join(names)))
        if any(p.excludes for p in ir.patterns):
            notes.append(
                _(
                    "Patterns are weighed from the highest points down: a pattern that counts "
                    "removes the patterns it excludes, and a pattern removed this way removes "
                    "nothing itself."
                )
            )
            if any(p.excludes for p in combos):
                notes.append(
                    _(
                        "When a combination pattern excludes another combination pattern, only "
                        "the occurrences formed from its own groups are removed; a whole-hand "
                        "pattern it excludes does not count at all."
                    )
                )
        for p in ir.patterns:
            if not p.excludes:
                continue
            limits = dict(p.exclude_limits)
            excluded = [self.excluded_name(x, limits.get(x)) for x in p.excludes]
            if len(excluded) == 1:
                notes.append(
                    _(
                        "When {pattern} counts, {excluded} does not.",
                        pattern=self.text(p.names),
                        excluded=excluded[0],
                    )
                )
            else:
                notes.append(
                    _(
                        "When {pattern} counts, these do not: {excluded}.",
                        pattern=self.text(p.names),
                        excluded=_.join(excluded),
                    )
                )
        bonus = [self.text(p.names) for p in ir.patterns if p.bonus]
        for p in ir.patterns:
            if p.fallback:
                if bonus:
                    notes.append(
                        _(
                            "{pattern} counts only when no other pattern counts, {bonus} aside.",
                            pattern=self.text(p.names),
                            bonus=_.join(bonus),
                        )
                    )
                else:
                    notes.append(
                        _(
                            "{pattern} counts only when no other pattern counts.",
                            pattern=self.text(p.names),
                        )
                    )
        if bonus:
            notes.append(
                _(
                    "Always counted when met, never removed by another pattern and removing "
                    "none: {patterns}.",
                    patterns=_.join(bonus),
                )
            )
        limit_names = [self.text(p.names) for p in ir.patterns if p.limit]
        if limit_names:
            notes.append(
                _(
                    "Limit patterns: {patterns}. When one counts, only limit patterns count "
                    "(they add up); no other pattern is added.",
                    patterns=_.join(limit_names),
                )
            )
        return notes

    def excluded_name(self, pid: str, limit: int | None) -> Md:
        """An excluded pattern's name; with an occurrence limit, how many of its occurrences are
        removed."""
        name = self.pattern_name(pid)
        if limit is None:
            return Md(escape_md(name))
        if limit == 1:
            return self._("{pattern} (one occurrence)", pattern=name)
        return self._("{pattern} ({count} occurrences)", pattern=name, count=limit)

    # -- payments --

    def payment_rules(self) -> list[Md]:
        """Each payer's formula, e.g. "discard win: the discarder pays `unit`"."""
        _ = self._
        out = []
        for kind, amounts, label in (
            ("ron", self.ir.payment_ron, _("Discard win")),
            ("tsumo", self.ir.payment_tsumo, _("Self-draw")),
        ):
            phrases = [self.pays(kind, a.name, self.words(a.expr)) for a in amounts]
            out.append(_("{situation}: {payers}", situation=label, payers=_.join(phrases)))
        for a in self.ir.payment_values:
            out.append(_("{name} = {formula}", name=self.term(a.name), formula=self.words(a.expr)))
        return out

    def pays(self, kind: str, role: str, amount: Md | int) -> Md:
        message = _PAYS.get((kind, role))
        if message is None:
            return self._("{name} pays {amount}", name=self.term(role), amount=amount)
        return self._.marked(message, amount=amount)

    def payments(self) -> Section:
        ir, _ = self.ir, self._
        bullets = self.payment_rules()
        paragraphs = [_("Payments follow the spec's formulas:")]
        if ir.points is not None:
            tables, notes = self.points_payment_tables()
        else:
            tables, notes = self.payment_tables()
        return Section(
            paragraphs=tuple(paragraphs), bullets=tuple(bullets), tables=tables, notes=notes
        )

    def options(self) -> tuple[Section, ...]:
        """The game options: name, type, default and description (none: no section)."""
        ir, _ = self.ir, self._
        if not ir.options:
            return ()
        kinds = {
            "bool": _("true or false"),
            "count": _("a whole number"),
            "seconds": _("seconds"),
            "points": _("points"),
            "score": _("points, doubles or the limit"),
        }
        rows = []
        for o in ir.options:
            default = json.dumps(value_to_json(o.default)).replace('"', "")
            kind = kinds[o.type.value]
            if o.minimum is not None and o.maximum is not None:
                kind = _("{kind}, {low} to {high}", kind=kind, low=o.minimum, high=o.maximum)
            elif o.minimum is not None:
                kind = _("{kind}, at least {low}", kind=kind, low=o.minimum)
            elif o.maximum is not None:
                kind = _("{kind}, at most {high}", kind=kind, high=o.maximum)
            rows.append(
                (code(o.name), kind, code(default), Md(escape_md(o.description.get(self.lang))))
            )
        table = Table(
            (_("Option"), _("Type"), _("Default"), _("Description")),
            (Md("---"), Md("---"), Md("---"), Md("---")),
            tuple(rows),
        )
        paragraph = _(
            "Options change the rules of a game: {play} and {score} take {option}; a scoring "
            "request gives them in {request_key}. A score option is given as points, doubles "
            "or the limit ({example}).",
            play=code("mjspec play"),
            score=code("mjspec score"),
            option=code("--option NAME=VALUE"),
            request_key=code("context.options"),
            example=code("points:10, doubles:2, limit"),
        )
        return (Section(paragraphs=(paragraph,), tables=(table,)),)

    def points_unit(self) -> Md:
        assert self.ir.points is not None
        return Md(escape_md(self.text(self.ir.points.unit)))

    def points(self) -> tuple[Section, ...]:
        """``scoring.points``: every item, its value and condition, then the result formula."""
        ir, _ = self.ir, self._
        pts = ir.points
        if pts is None:
            return ()
        unit = self.points_unit()
        rows = []
        for it in pts.items:
            value = self.words(it.value) if isinstance(it.value, ExprIR) else Md(str(it.value))
            when = self.words_when(it.when) if it.when is not None else _("always")
            definition = Md(escape_md(self.text(it.definition))) if it.definition else Md("")
            rows.append(
                (
                    Md(f"**{escape_md(self.text(it.names))}**"),
                    value,
                    when,
                    definition,
                    self.section_cell(it.section),
                )
            )
        table = Table(
            (_("Item"), _("Value ({unit})", unit=unit), _("When"), _("Definition"), _("Rule book")),
            (Md("---"), Md("--:"), Md("---"), Md("---"), Md("---")),
            tuple(rows),
        )
        paragraphs = [
            self.with_ref(
                _(
                    "Besides its total, a hand counts {unit}: every item below that applies "
                    "adds its value. A hand with a limit pattern has no {unit}.",
                    unit=unit,
                ),
                pts.section,
            )
        ]
        notes = []
        if pts.result is not None:
            notes.append(
                _(
                    "The hand's {unit} are then {formula}.",
                    unit=unit,
                    formula=self.words(pts.result, result=True),
                )
            )
        return (Section(paragraphs=tuple(paragraphs), tables=(table,), notes=tuple(notes)),)

    def points_payment_tables(self) -> tuple[tuple[Table, ...], tuple[Md, ...]]:
        """One table per (dealer or not, discard or self-draw): a row per total, a column per shown
        points value."""
        ir, _ = self.ir, self._
        assert ir.points is not None
        shown = ir.points.shown
        if not shown:
            return (), ()
        engine = self.engine
        least = least_totals(ir)  # cells no hand reaches stay empty (compiler/cells.py)
        tables = []
        for dealer in (False, True):
            for is_tsumo, kind in ((False, "ron"), (True, "tsumo")):
                roles: list[str] = []
                body = []
                for n in range(1, 14):
                    cells = []
                    for pts in shown:
                        paid = compute_payments(
                            engine,
                            n,
                            n if ir.cap is None else min(n, ir.cap),
                            is_tsumo,
                            dealer,
                            points=pts,
                        )
                        roles.extend(r for r in paid if r not in roles)
                        possible = n >= least[(is_tsumo, pts)]
                        cells.append(
                            Md(" / ".join(str(v) for v in paid.values()))
                            if possible
                            else IMPOSSIBLE
                        )
                    body.append((Md(str(n)),) + tuple(cells))
                paid = compute_payments(engine, 13, 13, is_tsumo, dealer, limit=True)
                body.append(
                    (_("limit pattern"),)
                    + tuple(Md(" / ".join(str(v) for v in paid.values())) for _p in shown)
                )
                who = [
                    _.marked(_PAY_HEADER[(kind, r)]) if (kind, r) in _PAY_HEADER else self.term(r)
                    for r in roles
                ]
                corner = (
                    _(
                        "{unit} (dealer wins): {payers}",
                        unit=self.unit(),
                        payers=Md(" / ".join(who)),
                    )
                    if dealer
                    else _(
                        "{unit} (non-dealer wins): {payers}",
                        unit=self.unit(),
                        payers=Md(" / ".join(who)),
                    )
                )
                header = (corner,) + tuple(Md(f"{v} {self.points_unit()}") for v in shown)
                tables.append(Table(header, tuple(Md("--:") for _x in header), tuple(body)))
        notes = [
            _(
                "Every figure is computed by the profile's engine: a row per total, a column "
                "per {unit}; a cell lists each payer's amount in the order of the first "
                "column's heading. The limit row is one limit pattern.",
                unit=self.points_unit(),
            )
        ]
        facts = self.impossible_cells(least, shown)
        if facts:
            notes.append(
                _(
                    "An empty cell is a hand the rules cannot make: {facts}. This follows from "
                    "the point items and the patterns every such hand scores.",
                    facts=_.join(facts, clauses=True),
                )
            )
        return tuple(tables), tuple(notes)

    def impossible_cells(
        self, least: Mapping[tuple[bool, int], float], shown: Sequence[int]
    ) -> list[Md]:
        """Why cells are empty: points no discard win (or self-draw) reaches, and the least total
        of a hand with some points."""
        _, unit, points_unit = self._, self.unit(), self.points_unit()
        out = []
        for is_tsumo in (False, True):
            for pts in shown:
                total = least[(is_tsumo, pts)]
                if total == math.inf:
                    message = (
                        N_("no self-drawn hand has {points} {unit}")
                        if is_tsumo
                        else N_("no discard win has {points} {unit}")
                    )
                    out.append(_.marked(message, points=pts, unit=points_unit))
                elif total > 1:
                    message = _TSUMO_LEAST if is_tsumo else _RON_LEAST
                    out.append(
                        _.marked(
                            message,
                            points=pts,
                            unit=points_unit,
                            total=int(total),
                            total_unit=unit,
                        )
                    )
        return out

    def payment_rows(self) -> list[tuple[Md, int, int]]:
        """(row label, total, capped total) for the worked payment table."""
        cap = self.ir.cap
        top = cap if cap is not None else 13
        rows = [(Md(str(n)), n, n if cap is None else min(n, cap)) for n in range(top + 1)]
        if cap is not None:
            rows.append((self._("{count} or more", count=cap + 1), cap + 1, cap))
        return rows

    def payment_tables(self) -> tuple[tuple[Table, ...], tuple[Md, ...]]:
        _ = self._
        by_dealer = [self.payment_table(dealer) for dealer in (False, True)]
        if by_dealer[0] == by_dealer[1]:
            return (by_dealer[0],), (
                _("The table is computed by the profile's engine from these formulas."),
            )
        return tuple(by_dealer), (
            _(
                "The first table is for a win by a non-dealer, the second for a win by the "
                "dealer; both are computed by the profile's engine."
            ),
        )

    def payment_table(self, dealer: bool) -> Table:
        """One row per total, one column per named amount and per payer, every figure from the
        engine."""
        _ = self._
        engine = self.engine
        rows = self.payment_rows()
        columns: list[tuple[Md, list[int]]] = []
        for name, _fn in engine.payments.values:
            ron, tsumo = (
                [_named_value(engine, name, n, c, t, dealer) for _l, n, c in rows]
                for t in (False, True)
            )
            if ron == tsumo:  # a named amount that does not depend on how the hand was won
                columns.append((self.term(name), ron))
        for is_tsumo, kind in ((False, "ron"), (True, "tsumo")):
            paid = [compute_payments(engine, n, c, is_tsumo, dealer) for _l, n, c in rows]
            roles: list[str] = []
            for payments in paid:
                roles.extend(r for r in payments if r not in roles)
            for role in roles:
                header = _PAY_HEADER.get((kind, role))
                columns.append(
                    (
                        _.marked(header) if header else self.term(role),
                        [p.get(role, 0) for p in paid],
                    )
                )
        header_row = (_.marked(_UNIT_HEADER.get(self.ir.total_unit, N_("Fan"))),) + tuple(
            h for h, _v in columns
        )
        body = tuple(
            (label,) + tuple(Md(str(values[i])) for _h, values in columns)
            for i, (label, _n, _c) in enumerate(rows)
        )
        return Table(header_row, tuple(Md("--:") for _x in header_row), body)

    # -- worked examples --

    def examples(self) -> tuple[ExampleSection, ...]:
        if not self.ir.examples:
            return ()
        intro = self._(
            "Each example is a hand stated in the spec, scored by the profile's engine; the "
            "results shown are the engine's."
        )
        return (
            ExampleSection(
                intro, tuple(self.example(i, ex) for i, ex in enumerate(self.ir.examples, 1))
            ),
        )

    def example(self, number: int, ex: ExampleIR) -> WorkedExample:
        _ = self._
        heading = self.with_ref(
            _("Example {number}: {name}", number=number, name=self.text(ex.name)), ex.section
        )
        hand, ctx = example_hand(self.engine, ex)
        score = evaluate(self.engine, hand, ctx)
        lines = [_("**Hand:** {tiles}", tiles=self.show_tiles(ex.concealed))]
        if ex.melds:
            melds = [Md(f"{self.meld_name(m.type)} {self.show_tiles(m.tiles)}") for m in ex.melds]
            lines.append(_("**Melds:** {melds}", melds=_.join(melds, clauses=True)))
        how = _("won on a discard") if ex.win == "ron" else _("self-drawn")
        lines.append(
            _("**Winning tile:** {tile}, {how}", tile=self.show_tiles(ex.win_tile), how=how)
        )
        situation = self.situation(ex.context)
        if self.ir.missing_suit == "declare" and "missing_suit" not in dict(ex.context):
            situation.append(_("no missing suit declared"))
        lines.append(
            _(
                "**Situation:** {facts}",
                facts=_.join(situation, clauses=True) if situation else _("nothing stated"),
            )
        )
        lines.extend(self.result(score, ex.win))
        return WorkedExample(heading, tuple(lines))

    def meld_name(self, mtype: str) -> Md:
        message = _MELD.get(mtype)
        return self._.marked(message) if message else code(mtype)

    def situation(self, context: tuple[tuple[str, object], ...]) -> list[Md]:
        _ = self._
        out = []
        for key, value in context:
            if key in _FLAG and isinstance(value, bool):
                if value:
                    out.append(_.marked(_FLAG[key]))
                else:
                    out.append(_("not {fact}", fact=_.marked(_FLAG[key])))
            elif key == "missing_suit" and isinstance(value, str) and value in _SUIT_WORD:
                out.append(_("declared missing suit: {suit}", suit=_.marked(_SUIT_WORD[value])))
            elif key == "missing_suit" and value is None:
                out.append(_("no missing suit declared"))
            elif key == "dealer" and isinstance(value, bool):
                out.append(
                    _("the winner is the dealer") if value else _("the winner is not the dealer")
                )
            elif key in ("seat_wind", "round_wind") and isinstance(value, str) and value in _WIND:
                wind = _.marked(_WIND[value])
                out.append(
                    _("seat wind: {wind}", wind=wind)
                    if key == "seat_wind"
                    else _("round wind: {wind}", wind=wind)
                )
            elif key in ("dora_indicators", "ura_indicators", "flowers") and isinstance(value, str):
                tiles = self.show_tiles(value) if value else Md("—")
                label = {
                    "dora_indicators": _("dora indicators: {tiles}", tiles=tiles),
                    "ura_indicators": _("ura-dora indicators: {tiles}", tiles=tiles),
                    "flowers": _("flowers: {tiles}", tiles=tiles),
                }
                out.append(label[key])
            elif key == "honba" and isinstance(value, int):
                out.append(_("repeat counters (honba): {count}", count=value))
            elif key == "riichi_sticks" and isinstance(value, int):
                out.append(_("riichi sticks on the table: {count}", count=value))
            else:
                out.append(code(f"{key}: {value}"))
        return out

    def result(self, score: Score, win: str) -> list[Md]:
        _ = self._
        if not score.legal:
            return [
                _("**Result:** not a win, because {reason}.", reason=self.refusal(score.reason))
            ]
        parts = []
        for p in score.patterns:
            value = Md(f"{p.value} × {p.count}") if p.count != 1 else Md(str(p.value))
            parts.append(Md(f"{escape_md(self.pattern_name(p.id))} {value}"))
        total = _("{total} {unit}", total=score.total, unit=self.unit())
        if score.fu is not None and self.ir.points is not None:
            total = _(
                "{total}, {points} {unit}", total=total, points=score.fu, unit=self.points_unit()
            )
        elif score.limit:
            total = _("{total} (limit)", total=total)
        if score.capped != score.total:
            total = _(
                "{total}, counted as {capped} after the cap", total=total, capped=score.capped
            )
        pays = [self.pays(win, role, amount) for role, amount in score.payments.items()]
        return [
            _("**Patterns:** {patterns}", patterns=Md(" + ".join(parts))),
            _("**Total:** {total}", total=total),
            _("**Payment:** {payers}", payers=_.join(pays)),
        ]

    def refusal(self, reason: str | None) -> Md:
        for r in self.ir.requirements:
            if r.reason.en == reason:
                return Md(escape_md(self.text(r.reason)))
        minimum = self.ir.minimum
        if minimum is not None and minimum.reason.en == reason:
            return Md(escape_md(self.text(minimum.reason)))
        if reason == "not a winning shape":
            return self._("the tiles do not form a winning shape")
        return code(reason or "?")

    # -- readings --

    def readings(self) -> tuple[Section, ...]:
        ir, _ = self.ir, self._
        items: list[Md] = []

        def add(subject: Md, section: str | None, text: Text) -> None:
            head = self.with_ref(Md(f"**{subject}**"), section)
            items.append(_("{subject}: {text}", subject=head, text=self.text(text)))

        for r in ir.requirements:
            if r.reading:
                add(_("Winning requirement"), r.section, r.reading)
        if ir.minimum is not None and ir.minimum.reading:
            add(_("Minimum to win"), ir.minimum.section, ir.minimum.reading)
        for g in ir.groups:
            if g.reading:
                members = [self.text(p.names) for p in ir.patterns if p.group == g.id]
                add(_("Pattern group: {patterns}", patterns=_.join(members)), None, g.reading)
        for p in ir.patterns:
            if p.reading:
                add(Md(escape_md(self.text(p.names))), p.section, p.reading)
        for note in self.table_notes:
            if note.reading is not None:
                block = note.block
                subject = _.marked(_BLOCK[block]) if block in _BLOCK else code(block)
                add(subject, note.section, note.reading)
        for rd in ir.readings:
            add(_("General"), rd.section, rd.text)
        if not items:
            return ()
        return (
            Section(
                paragraphs=(
                    _(
                        "Where the rule book can be read more than one way, this profile reads "
                        "it so:"
                    ),
                ),
                bullets=tuple(items),
            ),
        )


def _call_switches(calls: CallRules) -> tuple[tuple[str, bool], ...]:
    """Each call the table rules switch on or off, by its key in ``_MELD``, in the documents'
    order."""
    return (
        ("chi", calls.chi),
        ("pon", calls.pon),
        ("minkan", calls.minkan),
        ("ankan", calls.ankan),
        ("kakan", calls.kakan),
    )


def _section_parts(section: str) -> list[str]:
    """The sections a spec's ``section`` names: "§9, §10" -> ["§9", "§10"]; titles are separated by
    semicolons, "Modèles de notation; Kongs, vol et passage" -> two titles (a title may hold
    commas).
    """
    out: list[str] = []
    for item in (s.strip() for s in section.split(";")):
        marks = [m.strip() for m in item.split(",") if m.strip()]
        if marks and all(m.startswith("§") for m in marks):
            out.extend(marks)
        elif item:
            out.append(item)
    return out


def _section_key(section: str) -> tuple[int, str]:
    """Sort "§10" after "§9"; anything without a number last."""
    digits = re.search(r"\d+", section)
    return (int(digits.group()) if digits else 1 << 30, section)


def _named_value(
    engine: Profile, name: str, fan: int, capped: int, tsumo: bool, dealer: bool
) -> int:
    """A named payment amount (such as Sichuan's ``unit``), evaluated as the engine does."""
    pv = PaymentView(fan, capped, tsumo, dealer, options=engine.option_values.as_dict())
    for n, fn in engine.payments.values:
        value = fn(pv)
        setattr(pv, n, value)
        if n == name:
            return value
    raise KeyError(name)


def _header(files: Sequence[str]) -> Md:
    """The HTML comment that opens every generated page (file names only: plain characters)."""
    rest = f" (inheriting from {', '.join(files[1:])})" if len(files) > 1 else ""
    text = (
        f"Generated by mjspec from {files[0]}{rest}. Do not edit: change the spec and run "
        "`mjspec build`."
    )
    return Md("<!-- " + text.replace("--", "- -") + " -->")


def example_hand(profile: Profile, ex: ExampleIR) -> tuple[WinningHand, WinContext]:
    """The hand and situation a spec example states, read against ``profile``'s tile set."""
    melds = []
    for m in ex.melds:
        claimed = parse_tiles(m.claimed, profile.tiles)[0] if m.claimed else None
        melds.append(
            Meld(MeldType(m.type), tuple(parse_tiles(m.tiles, profile.tiles)), claimed, m.source)
        )
    hand = WinningHand(
        tuple(parse_tiles(ex.concealed, profile.tiles)),
        tuple(melds),
        parse_tiles(ex.win_tile, profile.tiles)[0],
        WinKind(ex.win),
    )
    return hand, WinContext.from_mapping(dict(ex.context))


# ---- templates and output ---------------------------------------------------------


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("mjspec.compiler", "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        finalize=_finalize,
    )


_BLANK_RUNS = re.compile(r"\n{3,}")


def _tidy(text: str) -> str:
    lines = [line.rstrip() for line in text.split("\n")]
    return _BLANK_RUNS.sub("\n\n", "\n".join(lines)).strip("\n") + "\n"


def load_engine(
    source: str, profile_id: str, built: Mapping[str, ModuleType] | None = None
) -> Profile:
    """The :class:`Profile` a generated module's source builds (the module the build is about to
    write).

    The source is the emitter's output, which imports only the runtime, and the modules of the
    profiles it extends (``built``: this build's, not what is on disk), and holds spec strings
    only as literals (see ``tests/test_compiler.py``'s audit), so running it is what importing
    the written module would do.
    """
    profile = load_engine_module(source, profile_id, built or {}).PROFILE
    if not isinstance(profile, Profile):
        raise TypeError(f"the engine of {profile_id} defines no PROFILE")
    return profile


def load_engine_module(source: str, profile_id: str, built: Mapping[str, ModuleType]) -> ModuleType:
    """The module a generated source makes; its relative imports (``from .<id> import ...``: a
    profile it extends) are served from ``built``, the modules this build made before it."""
    import builtins

    def imports(
        name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
    ) -> ModuleType:
        if level == 0:
            return builtins.__import__(name, globals, locals, fromlist, level)
        if level != 1 or name not in built:
            raise ImportError(
                f"generated/{profile_id}.py imports .{name}, which this build did not make"
            )
        return built[name]

    module = ModuleType(f"mjspec.generated.{profile_id}")
    module.__dict__["__package__"] = "mjspec.generated"
    module.__dict__["__builtins__"] = {**vars(builtins), "__import__": imports}
    exec(compile(source, f"generated/{profile_id}.py", "exec"), module.__dict__)
    if "PROFILE" not in module.__dict__:
        raise TypeError(f"the engine of {profile_id} defines no PROFILE")
    return module


def render_document(
    ir: ProfileIR, engine: Profile, lang: str, tr: Translator, names: Mapping[str, Text]
) -> str:
    """The Markdown of ``docs/rules/<id>.<lang>.md``."""
    doc = _Builder(ir, engine, lang, tr, names).build()
    return _tidy(environment().get_template("rules.md.j2").render(doc=doc, _=tr))


def render_index(irs: Sequence[ProfileIR], tr: Translator) -> str:
    """The Markdown of ``docs/rules/index.md``: every profile, its rule book, a link per
    language."""
    _ = tr
    rows = []
    names = {ir.id: ir.names for ir in irs}
    for ir in sorted(irs, key=lambda p: p.id):
        links = " · ".join(f"[{LANGUAGE_NAMES[lang]}]({ir.id}.{lang}.md)" for lang in LANGUAGES)
        book = _(
            "{book}: {title}", book=ir.source_book, title=Md(f"*{escape_md(ir.source_title)}*")
        )
        base = (
            Md(f"[{escape_md(names[ir.extends].en)}]({ir.extends}.en.md)")
            if ir.extends in names
            else Md("—")
        )
        rows.append((Md(f"**{escape_md(ir.names.en)}**<br>{code(ir.id)}"), book, base, Md(links)))
    table = Table(
        (_("Profile"), _("Rule book"), _("Extends"), _("Documents")),
        (Md("---"), Md("---"), Md("---"), Md("---")),
        tuple(rows),
    )
    intro = (
        _(
            "One page per profile and language, generated from the specs in {folder} by {command}.",
            folder=code("specs/"),
            command=code("mjspec build"),
        ),
    )
    doc = IndexDocument(header=_header(("specs/*.yaml",)), intro=intro, profiles=table)
    return _tidy(environment().get_template("index.md.j2").render(doc=doc, _=tr))


def render_rule_documents(
    irs: Sequence[ProfileIR],
    engines: Mapping[str, Profile],
    rules_dir: Path,
    locale: Path | None = None,
) -> tuple[dict[Path, str], list[SpecError]]:
    """Every profile's document in every language, plus the index; or the errors that stop the
    build.

    ``engines`` maps a profile id to the Profile its engine module builds. A message
    missing from a catalog is reported once per (language, msgid).
    """
    try:
        catalogs = load_catalogs(locale)
    except CatalogError as e:
        return {}, [e]
    files: dict[Path, str] = {}
    translators = {lang: Translator(lang, catalogs[lang]) for lang in LANGUAGES}
    names = {ir.id: ir.names for ir in irs}
    for ir in irs:
        engine = engines[ir.id]
        for lang in LANGUAGES:
            try:
                files[rules_dir / f"{ir.id}.{lang}.md"] = render_document(
                    ir, engine, lang, translators[lang], names
                )
            except FormulaError as e:  # the same form fails in every language: report it once
                return {}, [e]
    files[rules_dir / "index.md"] = render_index(irs, translators[INDEX_LANGUAGE])
    errors = _missing_message_errors(translators.values(), catalogs)
    return ({}, errors) if errors else (files, [])


def _missing_message_errors(
    translators: Iterable[Translator], catalogs: Mapping[str, Catalog]
) -> list[SpecError]:
    seen: set[MissingMessage] = set()
    errors: list[SpecError] = []
    for tr in translators:
        for m in tr.missing:
            if m in seen:
                continue
            seen.add(m)
            cat = catalogs[m.language]
            state = (
                "is untranslated (empty or fuzzy)"
                if (m.context, m.msgid) in cat.untranslated
                else "is missing"
            )
            ctx = f", msgctxt {m.context!r}" if m.context else ""
            errors.append(
                CatalogError(
                    f"the entry for msgid {m.msgid!r} (language {m.language}{ctx}) {state}; "
                    f"add its {m.language} translation to this catalog",
                    Location(cat.file, 0),
                )
            )
    return sorted(errors, key=str)


# ---- the set of messages, for catalog maintenance --------------------------------------


def template_messages() -> set[tuple[str, str]]:
    """Every ``_("...")`` of the document templates, as (context, msgid)."""
    env = environment()
    out: set[tuple[str, str]] = set()
    assert env.loader is not None
    for name in env.loader.list_templates():
        if not name.endswith((".md.j2", ".html.j2")):
            continue
        source = env.loader.get_source(env, name)[0]
        for _line, func, message in extract_from_ast(env.parse(source), gettext_functions=("_",)):
            if func == "_" and isinstance(message, str):
                out.add((NO_CONTEXT, message))
    return out


def code_messages() -> set[tuple[str, str]]:
    """Every literal message of this module: ``_("...")``, ``self._("...")``, ``N_("...")``, with
    ``context=``."""
    here = Path(__file__).parent
    out: set[tuple[str, str]] = set()
    for module in (Path(__file__), here / "describe.py", *here.glob("site*.py")):
        out |= _messages_of(ast.parse(module.read_text("utf-8")))
    return out


def _messages_of(tree: ast.Module) -> set[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if name not in ("_", "N_", "plural"):
            continue
        first = node.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            continue
        context = NO_CONTEXT
        for kw in node.keywords:
            if (
                kw.arg == "context"
                and isinstance(kw.value, ast.Constant)
                and isinstance(kw.value.value, str)
            ):
                context = kw.value.value
        if (
            name != "plural"  # plural(msgid, msgid_plural, count): its second is the plural
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            context = node.args[1].value
        out.add((context, first.value))
    return out


def all_messages() -> set[tuple[str, str]]:
    """Every message the documents can use (the content of a ``.pot`` file)."""
    return template_messages() | code_messages()


# ---- wording outside the documents ------------------------------------------------------

_HOUSE_RULE_NAME = N_("{name} — house rule {id}")


def house_rule_names(parent: Text, profile_id: str, locale: Path | None = None) -> dict[str, str]:
    """Names in every language for a new profile derived from ``parent`` (plain text, for a
    spec)."""
    catalogs = load_catalogs(locale)
    context, msgid = _HOUSE_RULE_NAME
    out = {}
    for lang in LANGUAGES:
        text = catalogs[lang].lookup(msgid, context)
        if text is None:
            cat = catalogs[lang]
            raise CatalogError(
                f"the entry for msgid {msgid!r} (language {lang}) is missing", Location(cat.file, 0)
            )
        out[lang] = text.format(name=parent.get(lang), id=profile_id)
    return out
