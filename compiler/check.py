"""Check a resolved spec (JSON Schema, then meaning) and build its typed IR.

Every problem found is collected and reported together, each with file, line
and spec path, so an author fixes a spec in one pass.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import fields, is_dataclass, replace
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

import jsonschema

from mjspec.runtime.invariants import INVARIANTS
from mjspec.runtime.options import OptionError, OptionSpec, OptionType, parse_value, set_table_field
from mjspec.runtime.text import LANGUAGES, Text
from mjspec.runtime.tiles import NotationError, TileSet, Suit, parse_tiles

from . import expr as X
from .errors import Path, SpecError, SpecErrors
from .hoist import hoist
from .ir import (
    AmountIR,
    ExampleIR,
    ExampleMeldIR,
    ExprIR,
    GroupIR,
    MinimumIR,
    PatternIR,
    PointItemIR,
    PointsIR,
    ProfileIR,
    ReadingIR,
    RequirementIR,
    ShapesIR,
    TableNoteIR,
    TilesIR,
)
from .resolve import Resolved
from .vocabulary import (
    PAYMENT_NAMES,
    combination_vocabulary,
    hand_vocabulary,
    payment_vocabulary,
    points_vocabulary,
)

from mjspec.runtime.rules import (
    AbortiveDraws,
    BonusTiles,
    CallRules,
    Clock,
    DeadWallRules,
    DealerRule,
    Exchange,
    ExchangeDirection,
    ExhaustionRules,
    FuritenRules,
    IndicatorTiming,
    KongPayments,
    LooseTiles,
    ScoredSettlement,
    MatchResult,
    MatchRules,
    NagashiMangan,
    Pao,
    PassRules,
    PassWinRule,
    RiichiRules,
    TableRules,
    TimeoutRules,
    WinFlow,
)

_NO_TEXT = Text(en="", zh="", ja="", pt="", fr="")

#: Spec blocks that hold table rules, in document order; each may carry `section` and `reading`.
TABLE_BLOCKS = (
    "wall",
    "opening",
    "turn",
    "calls",
    "passing",
    "flow",
    "kongs",
    "riichi",
    "furiten",
    "abortive",
    "pao",
    "exhaustion",
    "settlement",
    "match",
    "timeout",
)


@lru_cache(maxsize=1)
def profile_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a profile, bundled with the specs."""
    text = resources.files("mjspec.specs").joinpath("schema/profile.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def schema_errors(resolved: Resolved) -> list[SpecError]:
    """Every JSON Schema violation of ``resolved``, located, with did-you-mean for unknown keys."""
    schema = profile_schema()
    validator = jsonschema.Draft202012Validator(schema)
    out: list[SpecError] = []
    for err in sorted(
        validator.iter_errors(resolved.data), key=lambda e: list(map(str, e.absolute_path))
    ):
        out.extend(_explain(err, resolved))
    return out


def _explain(err: jsonschema.ValidationError, resolved: Resolved) -> list[SpecError]:
    path: Path = tuple(err.absolute_path)
    if "propertyNames" in err.absolute_schema_path and isinstance(err.instance, str):
        # A bad key is the key's own mistake: locate it at the key (in a child profile's file, not
        # at the inherited mapping's line in the parent's).
        path = path + (err.instance,)
        message = err.message
        if err.validator == "pattern":
            message = (
                f"{err.instance!r} is not a valid name here (it must match {err.validator_value!r})"
            )
        return [SpecError(message, resolved.where(path), path)]
    schema: dict[str, Any] = err.schema if isinstance(err.schema, dict) else {}
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = sorted(schema.get("properties", {}))
        out = []
        for key in err.instance:
            if key in allowed:
                continue
            near = difflib.get_close_matches(key, allowed, n=1)
            hint = (
                f"; did you mean {near[0]!r}?"
                if near
                else (f" (allowed: {', '.join(allowed)})" if allowed else "")
            )
            out.append(
                SpecError(
                    f"unknown key {key!r}{hint}", resolved.where(path + (key,)), path + (key,)
                )
            )
        if out:
            return out
    if err.validator == "anyOf" and err.context:
        best = jsonschema.exceptions.best_match(err.context)
        if best is not None and best.validator != "type":
            return _explain(best, resolved)
        kinds = sorted(
            {
                str(sub.schema.get("type"))
                for sub in err.context
                if isinstance(sub.schema, dict) and "type" in sub.schema
            }
        )
        return [
            SpecError(
                f"{err.instance!r} is not valid here (expected {' or '.join(kinds)})",
                resolved.where(path),
                path,
            )
        ]
    if (
        err.validator == "type"
        and isinstance(err.instance, str)
        and set(schema.get("properties", ())) == set(LANGUAGES)
    ):
        # a plain string where a text in every language belongs (a pattern's names, an example's
        # name...)
        langs = ", ".join(LANGUAGES)
        message = (
            f"a player-visible text needs every language ({langs}) as a mapping, not the "
            f"plain string {err.instance!r}"
        )
        return [SpecError(message, resolved.where(path), path)]
    if err.validator == "required":
        return [
            SpecError(
                err.message.replace("is a required property", "is required here"),
                resolved.where(path),
                path,
            )
        ]
    if err.validator == "enum":
        options = ", ".join(repr(x) for x in list(err.validator_value))  # type: ignore[arg-type]
        return [SpecError(f"{err.instance!r} is not one of {options}", resolved.where(path), path)]
    return [SpecError(err.message, resolved.where(path), path)]


class _Builder:
    def __init__(self, resolved: Resolved, expected_id: str | None) -> None:
        self.r = resolved
        self.d: dict[str, Any] = resolved.data
        self.errors: list[SpecError] = []
        self.expected_id = expected_id
        self.option_types: dict[str, str] = {}

    def err(self, path: Path, message: str) -> None:
        self.errors.append(SpecError(message, self.r.where(path), path))

    def text(self, raw: Any, path: Path, *, required: bool = True) -> Text | None:
        if raw is None:
            if required:
                self.err(path, "missing text (needs " + ", ".join(LANGUAGES) + ")")
            return None
        missing = [lang for lang in LANGUAGES if lang not in raw]
        for lang in missing:
            self.err(path + (lang,), f"missing {lang} translation of a player-visible string")
        if missing:
            return None
        return Text(**{lang: raw[lang] for lang in LANGUAGES})

    def expr(self, source: Any, path: Path, vocab: X.Vocabulary, expect: X.Type) -> ExprIR | None:
        if isinstance(source, bool):
            source = "True" if source else "False"
        if isinstance(source, int):
            source = str(source)
        try:
            compiled = X.compile_expr(str(source), vocab, expect)
        except X.ExprError as e:
            col = f" (column {e.col + 1})" if e.col is not None else ""
            self.err(path, f"in expression {str(source)!r}{col}: {e.message}")
            return None
        hoisted = hoist(compiled.python, vocab, compiled.helpers)
        names = compiled.names | compiled.functions | hoisted.names
        helpers = compiled.helpers | hoisted.helpers
        return ExprIR(
            str(source), hoisted.python, self.r.where(path), helpers, names, compiled.python
        )

    def build(self) -> ProfileIR | None:
        d = self.d
        pid = d["id"]
        if self.expected_id is not None and pid != self.expected_id:
            self.err(("id",), f"id {pid!r} must match the file name {self.expected_id + '.yaml'!r}")
        names = self.text(d.get("names"), ("names",))
        source = d["source"]

        t = d.get("tiles", {})
        tiles = TilesIR(
            suits=tuple(t.get("suits", ["m", "p", "s"])),
            honors=bool(t.get("honors", False)),
            flowers=bool(t.get("flowers", False)),
            red_fives=tuple(t.get("red_fives", [])),
            copies=int(t.get("copies", 4)),
        )
        for i, s in enumerate(tiles.red_fives):
            if s not in tiles.suits:
                self.err(
                    ("tiles", "red_fives", i),
                    f"a red five in suit {s!r}, which the tile set does not have",
                )
        tileset = TileSet(
            suits=tuple(Suit(s) for s in tiles.suits),
            honors=tiles.honors,
            flowers=tiles.flowers,
            red_fives=tuple(Suit(s) for s in tiles.red_fives),
            copies=tiles.copies,
        )

        sh = d.get("shapes", {})
        sp = sh.get("seven_pairs", False)
        shapes = ShapesIR(
            standard=bool(sh.get("standard", True)),
            seven_pairs=bool(sp),
            four_of_a_kind_as_two_pairs=(
                bool(sp.get("four_of_a_kind_as_two_pairs", False))
                if isinstance(sp, dict)
                else False
            ),
            thirteen_orphans=bool(sh.get("thirteen_orphans", False)),
            knitted=bool(sh.get("knitted", False)),
        )
        if not (shapes.standard or shapes.seven_pairs or shapes.thirteen_orphans or shapes.knitted):
            self.err(("shapes",), "the profile accepts no winning shape at all")

        missing_suit = d.get("opening", {}).get("missing_suit", "none")
        if missing_suit == "declare" and len(tiles.suits) < 2:
            self.err(
                ("opening", "missing_suit"),
                "a missing suit needs at least two suits in the tile set",
            )

        options = self.options()
        otypes = {o.name: o.type.value for o in options}
        self.option_types = otypes
        hv = hand_vocabulary(otypes)
        requirements = []
        seen_req: set[str] = set()
        for i, raw in enumerate(d.get("win", {}).get("requirements", [])):
            p = ("win", "requirements", i)
            if raw["id"] in seen_req:
                self.err(p + ("id",), f"duplicate requirement id {raw['id']!r}")
            seen_req.add(raw["id"])
            when = self.expr(raw["when"], p + ("when",), hv, X.BOOL)
            reason = self.text(raw.get("reason"), p + ("reason",))
            reading = self.text(raw.get("reading"), p + ("reading",), required=False)
            if when and reason:
                requirements.append(
                    RequirementIR(raw["id"], when, reason, raw.get("section"), reading)
                )

        sc = d["scoring"]
        groups = []
        for gid, g in sc.get("groups", {}).items():
            groups.append(
                GroupIR(
                    gid,
                    g["pick"],
                    self.text(
                        g.get("reading"), ("scoring", "groups", gid, "reading"), required=False
                    ),
                )
            )
        group_ids = {g.id for g in groups}
        patterns = []
        pattern_ids = list(sc["patterns"])
        for pid_, raw in sc["patterns"].items():
            p = ("scoring", "patterns", pid_)
            pnames = self.text(raw.get("names"), p + ("names",))
            definition = self.text(raw.get("definition"), p + ("definition",), required=False)
            reading = self.text(raw.get("reading"), p + ("reading",), required=False)
            group = raw.get("group")
            if group is not None and group not in group_ids:
                near = difflib.get_close_matches(group, group_ids, n=1)
                hint = (
                    f"; did you mean {near[0]!r}?"
                    if near
                    else f" (declare it under scoring.groups)"
                )
                self.err(p + ("group",), f"unknown pattern group {group!r}{hint}")
            raw_excludes = raw.get("excludes", [])
            excludes = tuple(x if isinstance(x, str) else x["pattern"] for x in raw_excludes)
            exclude_limits = tuple(
                (x["pattern"], int(x["occurrences"]))
                for x in raw_excludes
                if not isinstance(x, str)
            )
            for j, x in enumerate(excludes):
                if x == pid_:
                    self.err(p + ("excludes", j), "a pattern cannot exclude itself")
                elif x not in sc["patterns"]:
                    near = difflib.get_close_matches(x, pattern_ids, n=1)
                    hint = f"; did you mean {near[0]!r}?" if near else ""
                    self.err(p + ("excludes", j), f"excludes unknown pattern {x!r}{hint}")
            if "when" not in raw and "count" not in raw:
                self.err(
                    p, "a pattern needs `when` (a condition) or `count` (how many times it scores)"
                )
            combine: tuple[str, int] | None = None
            pv = hv
            if "combine" in raw:
                ((ckind, csize),) = raw["combine"].items()
                combine = (ckind, int(csize))
                pv = combination_vocabulary(combine[1], otypes)
                if "count" in raw:
                    self.err(
                        p + ("count",),
                        "a combination pattern scores once per combination that meets `when`; "
                        "drop `count`",
                    )
                if "when" not in raw:
                    self.err(
                        p,
                        "a combination pattern needs `when`: the condition on the combined "
                        "sets a, b, ...",
                    )
            if raw.get("bonus") and (raw.get("excludes") or raw.get("fallback") or combine):
                self.err(
                    p + ("bonus",),
                    "a bonus pattern stands outside every relation: no excludes, fallback or "
                    "combine",
                )
            when = self.expr(raw["when"], p + ("when",), pv, X.BOOL) if "when" in raw else None
            count = self.expr(raw["count"], p + ("count",), hv, X.INT) if "count" in raw else None
            rawv = raw["value"]
            value: int | ExprIR | None
            if isinstance(rawv, int) and not isinstance(rawv, bool):
                value = rawv
                if rawv < 0:
                    self.err(p + ("value",), f"a pattern value cannot be negative (got {rawv})")
            else:
                value = self.expr(rawv, p + ("value",), pv, X.INT)
            open_value: int | ExprIR | None = None
            if "open" in raw:
                rawo = raw["open"]
                if isinstance(rawo, int) and not isinstance(rawo, bool):
                    open_value = rawo
                    if rawo < 0:
                        self.err(
                            p + ("open",), f"a pattern's open value cannot be negative (got {rawo})"
                        )
                else:
                    open_value = self.expr(rawo, p + ("open",), pv, X.INT)
                    if open_value is None:
                        continue
            if raw.get("limit") and raw.get("bonus"):
                self.err(
                    p + ("limit",), "a pattern cannot be both a limit pattern and a bonus pattern"
                )
            if (
                pnames is None
                or value is None
                or ("when" in raw and when is None)
                or ("count" in raw and count is None)
            ):
                continue
            patterns.append(
                PatternIR(
                    pid_,
                    pnames,
                    definition,
                    reading,
                    raw.get("section"),
                    group,
                    value,
                    when,
                    count,
                    excludes,
                    self.r.where(p),
                    combine,
                    exclude_limits,
                    bool(raw.get("fallback", False)),
                    bool(raw.get("bonus", False)),
                    open_value,
                    bool(raw.get("limit", False)),
                )
            )
        if not sc["patterns"]:
            self.err(("scoring", "patterns"), "a profile needs at least one scoring pattern")
        minimum = self.minimum(d.get("win", {}).get("minimum"), set(sc["patterns"]))
        points = self.points(sc.get("points"), tuple(pattern_ids))
        prefer = tuple(sc.get("prefer", ["total"]))
        if "points" in prefer and points is None:
            self.err(("scoring", "prefer"), "`points` in prefer needs scoring.points")

        pay = d.get("payments")
        values: list[AmountIR] = []
        ron: list[AmountIR] = []
        tsumo: list[AmountIR] = []
        if pay is None:
            self.err(("payments",), "payments are required (ron and tsumo formulas)")
        else:
            named: list[str] = []
            for name, src in pay.get("values", {}).items():
                if name in PAYMENT_NAMES:
                    self.err(
                        ("payments", "values", name),
                        f"{name!r} is a built-in name of payment formulas; choose another",
                    )
                    continue
                e = self.expr(
                    src,
                    ("payments", "values", name),
                    payment_vocabulary(tuple(named), otypes),
                    X.INT,
                )
                named.append(name)
                if e:
                    values.append(AmountIR(name, e, "value"))
            pv = payment_vocabulary(tuple(named), otypes)
            for role, src in pay["ron"].items():
                e = self.expr(src, ("payments", "ron", role), pv, X.INT)
                if e:
                    ron.append(AmountIR(role, e, "ron"))
            if not pay["tsumo"]:
                self.err(
                    ("payments", "tsumo"),
                    "say what a self-draw is paid: `each`, `dealer` and `non_dealer`, or "
                    "`east` and `non_east`",
                )
            if "each" in pay["tsumo"] and len(pay["tsumo"]) > 1:
                self.err(
                    ("payments", "tsumo"),
                    "`each` cannot be combined with dealer/non_dealer amounts",
                )
            if ("dealer" in pay["tsumo"]) != ("non_dealer" in pay["tsumo"]):
                self.err(("payments", "tsumo"), "`dealer` and `non_dealer` go together")
            for block in ("ron", "tsumo"):
                east = {"east", "non_east"} & set(pay[block])
                if east and (east != {"east", "non_east"} or len(pay[block]) != 2):
                    self.err(
                        ("payments", block),
                        "`east` and `non_east` go together and alone (every loser pays the winner)",
                    )
            hand_value = pay.get("hand_value")
            if hand_value is not None and hand_value not in named:
                self.err(
                    ("payments", "hand_value"),
                    f"{hand_value!r} is not a value under payments.values",
                )
            for role, src in pay["tsumo"].items():
                e = self.expr(src, ("payments", "tsumo", role), pv, X.INT)
                if e:
                    tsumo.append(AmountIR(role, e, "tsumo"))

        invariants = tuple(d.get("invariants", []))
        for i, name in enumerate(invariants):
            if name not in INVARIANTS:
                near = difflib.get_close_matches(name, list(INVARIANTS), n=1)
                hint = (
                    f"; did you mean {near[0]!r}?" if near else f" (known: {', '.join(INVARIANTS)})"
                )
                self.err(("invariants", i), f"unknown invariant {name!r}{hint}")

        pattern_set = set(sc["patterns"])
        examples = []
        for i, raw in enumerate(d.get("examples", [])):
            ex = self.example(raw, ("examples", i), tileset, pattern_set)
            if ex:
                examples.append(ex)

        readings = []
        for i, raw in enumerate(d.get("readings", [])):
            txt = self.text(raw.get("text"), ("readings", i, "text"))
            if txt:
                readings.append(ReadingIR(raw["id"], raw.get("section"), txt))

        table, tileset, shapes = self.option_rules(self.table(), tileset, shapes, options)
        tiles = TilesIR(tiles.suits, tiles.honors, tileset.flowers, tiles.red_fives, tiles.copies)
        clock_names = []
        for i, c in enumerate(d.get("clocks", [])):
            txt = self.text(c.get("names"), ("clocks", i, "names"), required=False)
            if txt:
                clock_names.append((c["id"], txt))
        notes = []
        for block in TABLE_BLOCKS:
            raw_block = d.get(block, {})
            reading = self.text(raw_block.get("reading"), (block, "reading"), required=False)
            if raw_block.get("section") or reading:
                notes.append(TableNoteIR(block, raw_block.get("section"), reading))

        if self.errors or names is None:
            return None
        cap = sc.get("cap")
        limit_hands_counted = sc.get("limit_hands_counted")
        if limit_hands_counted is not None and self.option_types.get(limit_hands_counted) != "bool":
            self.err(
                ("scoring", "limit_hands_counted"),
                f"{limit_hands_counted!r} is not a bool option declared under options",
            )
        return ProfileIR(
            id=pid,
            version=int(d.get("version", 1)),
            extends=d.get("extends"),
            names=names,
            source_book=str(source["book"]),
            source_title=source["title"],
            source_file=source.get("file"),
            spec_file=self.r.files[0],
            spec_files=self.r.files,
            players=int(d.get("players", 4)),
            tiles=tiles,
            deal_dealer=int(d.get("deal", {}).get("dealer", 14)),
            deal_others=int(d.get("deal", {}).get("others", 13)),
            missing_suit=missing_suit,
            shapes=shapes,
            requirements=tuple(requirements),
            total_unit=sc.get("total", "fan"),
            cap=cap,
            prefer=prefer,
            groups=tuple(groups),
            patterns=tuple(patterns),
            payment_values=tuple(values),
            payment_ron=tuple(ron),
            payment_tsumo=tuple(tsumo),
            payment_hand_value=pay.get("hand_value") if pay else None,
            limit_hands_counted=limit_hands_counted,
            invariants=invariants,
            examples=tuple(examples),
            readings=tuple(readings),
            table=table,
            table_notes=tuple(notes),
            clock_names=tuple(clock_names),
            playable=bool(d.get("playable", True)),
            minimum=minimum,
            options=options,
            points=points,
        )

    def options(self) -> tuple[OptionSpec, ...]:
        """``options:``: each game option with its type, default and description."""
        out: list[OptionSpec] = []
        for name, raw in self.d.get("options", {}).items():
            p: Path = ("options", name)
            otype = OptionType(raw["type"])
            default = raw["default"]
            low, high = raw.get("minimum"), raw.get("maximum")
            if (low is not None or high is not None) and otype in (
                OptionType.BOOL,
                OptionType.SCORE,
            ):
                self.err(
                    p,
                    f"a {otype.value} option has no minimum or maximum (only count, seconds "
                    "and points do)",
                )
                continue
            if low is not None and high is not None and low > high:
                self.err(p + ("maximum",), f"maximum {high} is below minimum {low}")
                continue
            section = str(raw.get("section", ""))
            shape = OptionSpec(
                name, otype, False, _NO_TEXT, minimum=low, maximum=high, section=section
            )
            try:
                value = parse_value(shape, default)
            except OptionError as e:
                self.err(p + ("default",), str(e))
                continue
            description = self.text(raw.get("description"), p + ("description",))
            if description is None:
                continue
            out.append(
                OptionSpec(
                    name,
                    otype,
                    value,
                    description,
                    tuple(raw.get("sets", [])),
                    minimum=low,
                    maximum=high,
                    section=section,
                )
            )
        return tuple(out)

    def option_rules(
        self, table: TableRules, tileset: TileSet, shapes: ShapesIR, options: tuple[OptionSpec, ...]
    ) -> tuple[TableRules, TileSet, ShapesIR]:
        """The table rules, tile set and shapes with every option's default in the fields it
        ``sets`` (types checked)."""
        roots: dict[str, Any] = {"table": table, "tiles": tileset, "shapes": shapes}
        for o in options:
            for j, path in enumerate(o.sets):
                where: Path = ("options", o.name, "sets", j)
                current: Any = roots[path.split(".")[0]]
                found = True
                for key in path.split(".")[1:]:
                    if not is_dataclass(current) or key not in {f.name for f in fields(current)}:
                        self.err(where, f"{path}: no such table-rule field")
                        found = False
                        break
                    current = getattr(current, key)
                if not found:
                    continue
                fits = (
                    isinstance(current, bool)
                    if o.type is OptionType.BOOL
                    else (
                        isinstance(current, int)
                        and not isinstance(current, bool)
                        and o.type is not OptionType.SCORE
                    )
                )
                if not fits:
                    self.err(
                        where,
                        f"{path} holds {type(current).__name__}, which a {o.type.value} option "
                        "cannot set",
                    )
                    continue
                root, *keys = path.split(".")
                roots[root] = set_table_field(roots[root], keys, o.default, path)
        return roots["table"], roots["tiles"], roots["shapes"]

    def points(
        self, raw: Mapping[str, Any] | None, pattern_ids: tuple[str, ...]
    ) -> PointsIR | None:
        """``scoring.points``: the point items and the formula that turns their sum into the hand's
        points."""
        if raw is None:
            return None
        p: Path = ("scoring", "points")
        unit = self.text(raw.get("unit"), p + ("unit",))
        ids = pattern_ids or ("none",)
        iv = points_vocabulary(ids, result=False, options=self.option_types)
        items: list[PointItemIR] = []
        for iid, it in raw.get("items", {}).items():
            ip = p + ("items", iid)
            names = self.text(it.get("names"), ip + ("names",))
            definition = self.text(it.get("definition"), ip + ("definition",), required=False)
            reading = self.text(it.get("reading"), ip + ("reading",), required=False)
            when = self.expr(it["when"], ip + ("when",), iv, X.BOOL) if "when" in it else None
            rawv = it["value"]
            value: int | ExprIR | None
            if isinstance(rawv, int) and not isinstance(rawv, bool):
                value = rawv
            else:
                value = self.expr(rawv, ip + ("value",), iv, X.INT)
            if names is None or value is None or ("when" in it and when is None):
                continue
            items.append(
                PointItemIR(iid, names, definition, reading, it.get("section"), value, when)
            )
        if not raw.get("items"):
            self.err(p + ("items",), "scoring.points needs at least one item")
        result = None
        if "result" in raw:
            result = self.expr(
                raw["result"],
                p + ("result",),
                points_vocabulary(ids, result=True, options=self.option_types),
                X.INT,
            )
        reading = self.text(raw.get("reading"), p + ("reading",), required=False)
        if unit is None:
            return None
        return PointsIR(
            unit,
            tuple(items),
            result,
            raw.get("section"),
            reading,
            tuple(int(v) for v in raw.get("shown", [])),
        )

    def minimum(self, raw: Mapping[str, Any] | None, patterns: set[str]) -> MinimumIR | None:
        """``win.minimum``: the floor a scored win must reach."""
        if raw is None:
            return None
        p: Path = ("win", "minimum")
        without = tuple(raw.get("without", []))
        for j, x in enumerate(without):
            if x not in patterns:
                near = difflib.get_close_matches(x, sorted(patterns), n=1)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                self.err(p + ("without", j), f"unknown pattern {x!r}{hint}")
        reason = self.text(raw.get("reason"), p + ("reason",))
        reading = self.text(raw.get("reading"), p + ("reading",), required=False)
        if reason is None:
            return None
        return MinimumIR(int(raw["at_least"]), without, reason, raw.get("section"), reading)

    def table(self) -> TableRules:
        d = self.d

        def pick(block: str, *keys: str) -> dict[str, Any]:
            raw = d.get(block, {})
            return {k: raw[k] for k in keys if k in raw}

        ex_raw = d.get("opening", {}).get("exchange")
        exchange = None
        if ex_raw is not None:
            exchange = Exchange(
                tiles=int(ex_raw.get("tiles", 3)),
                same_suit=bool(ex_raw.get("same_suit", True)),
                directions=tuple(
                    ExchangeDirection(x)
                    for x in ex_raw.get("directions", ["left", "across", "right"])
                ),
            )
        calls = CallRules(
            **pick(
                "calls",
                "chi",
                "pon",
                "minkan",
                "ankan",
                "kakan",
                "kakan_drawn_tile_only",
                "robbable_kakan",
                "multiple_ron",
                "missing_suit_blocks_calls",
                "ron_limit",
                "kuikae",
                "max_kongs",
                "last_discard_callable",
            )
        )
        robbers = d.get("calls", {}).get("rob_concealed_kong")
        if robbers:
            known_patterns = set(d.get("scoring", {}).get("patterns", {}) or {})
            for j, pid in enumerate(robbers):
                if pid not in known_patterns:
                    near = difflib.get_close_matches(pid, sorted(known_patterns), n=1)
                    hint = f"; did you mean {near[0]!r}?" if near else ""
                    self.err(("calls", "rob_concealed_kong", j), f"unknown pattern {pid!r}{hint}")
            calls = replace(calls, rob_concealed_kong=tuple(robbers))
        if (
            calls.missing_suit_blocks_calls
            and d.get("opening", {}).get("missing_suit", "none") != "declare"
        ):
            self.err(("calls", "missing_suit_blocks_calls"), "needs opening.missing_suit: declare")
        passing_raw = pick("passing", "win", "call_counts_as_pass", "pon_blocks_same_tile")
        if "win" in passing_raw:
            passing_raw["win"] = PassWinRule(passing_raw["win"])
        match_raw = pick(
            "match",
            "hands",
            "dealer",
            "start_score",
            "rounds",
            "honba",
            "bust_ends",
            "dealer_win_limit",
            "last_dealer_stops_at",
            "extension_until",
            "extension_rounds",
            "leftover_deposits_to_first",
        )
        if "dealer" in match_raw:
            match_raw["dealer"] = DealerRule(match_raw["dealer"])
        result_raw = d.get("match", {}).get("result")
        if result_raw is not None:
            result: dict[str, Any] = dict(result_raw)
            if "uma" in result:
                result["uma"] = tuple(result["uma"])
            match_raw["result"] = MatchResult(**result)
        dead_raw = d.get("wall", {}).get("dead_wall")
        dead_wall = None
        if dead_raw is not None:
            dead: dict[str, Any] = dict(dead_raw)
            for key in ("open_kong_indicator", "concealed_kong_indicator"):
                if key in dead:
                    dead[key] = IndicatorTiming(dead[key])
            dead_wall = DeadWallRules(**dead)
        riichi_raw = d.get("riichi")
        riichi = (
            RiichiRules(**{k: v for k, v in riichi_raw.items() if k not in ("section", "reading")})
            if riichi_raw
            else None
        )
        if riichi is not None and dead_wall is None:
            self.err(
                ("riichi",),
                "riichi needs wall.dead_wall (its under-indicators and the declaration's wall "
                "count)",
            )
        pao_raw = d.get("pao")
        pao = (
            Pao(**{k: v for k, v in pao_raw.items() if k not in ("section", "reading")})
            if pao_raw
            else None
        )
        if pao is not None:
            known = set(d.get("scoring", {}).get("patterns", {}) or {})
            for key in ("dragons", "winds"):
                name = getattr(pao, key)
                if name is not None and name not in known:
                    self.err(("pao", key), f"unknown pattern {name!r}")
        exhaustion_raw = pick(
            "exhaustion",
            "missing_suit_penalty",
            "not_ready_pays_ready",
            "ready_value_cap",
            "refund_kong_income",
            "ready_pool",
            "ready_with_held_waits",
        )
        nagashi_raw = d.get("exhaustion", {}).get("nagashi")
        if nagashi_raw is not None:
            exhaustion_raw["nagashi"] = NagashiMangan(**nagashi_raw)
        calls_raw = d.get("calls", {})
        if (
            calls_raw.get("ron_limit") is not None
            and d.get("abortive", {}).get("triple_ron")
            and not calls.multiple_ron
        ):
            self.err(
                ("abortive", "triple_ron"),
                "needs calls.multiple_ron: true (a limit of several winners)",
            )
        clocks = tuple(
            Clock(id=c["id"], per_action=c["per_action"], reserve=c["reserve"])
            for c in d.get("clocks", [])
        )
        if len({c.id for c in clocks}) != len(clocks):
            self.err(("clocks",), "clock ids must be unique")
        return TableRules(
            dice=int(d.get("wall", {}).get("dice_rolls", 1)),
            deal_in_blocks=bool(d.get("wall", {}).get("deal_in_blocks", False)),
            exchange=exchange,
            discard_missing_suit_first=bool(
                d.get("turn", {}).get("discard_missing_suit_first", False)
            ),
            calls=calls,
            passing=PassRules(**passing_raw),
            flow=WinFlow(d.get("flow", {}).get("mode", "single")),
            kongs=KongPayments(
                **pick(
                    "kongs", "ankan_each", "minkan_discarder", "kakan_each", "transfer_on_kong_shot"
                )
            ),
            dead_wall=dead_wall,
            riichi=riichi,
            furiten=FuritenRules(
                **pick(
                    "furiten",
                    "own_discards",
                    "passed_completion",
                    "riichi_passed",
                    "passed_ends_at_discard",
                )
            ),
            abortive=AbortiveDraws(
                **pick(
                    "abortive",
                    "nine_terminals",
                    "four_winds",
                    "four_riichi",
                    "four_kongs",
                    "triple_ron",
                )
            ),
            pao=pao,
            exhaustion=ExhaustionRules(**exhaustion_raw),
            match=MatchRules(**match_raw),
            clocks=clocks,
            timeout=TimeoutRules(
                **pick("timeout", "claim_win", "claim_seconds", "opening_seconds")
            ),
            loose=self.loose_tiles(dead_wall),
            settlement=(
                ScoredSettlement(
                    **pick(
                        "settlement", "losers_settle", "east_doubles", "discarder_doubles", "cannon"
                    )
                )
                if "settlement" in d
                else None
            ),
            original_call=bool(d.get("calls", {}).get("original_call", False)),
            bonus=BonusTiles(
                **{
                    k: v
                    for k, v in d.get("opening", {}).get("bonus_tiles", {}).items()
                    if k in ("discard", "declare_at_deal")
                }
            ),
        )

    def loose_tiles(self, dead_wall: DeadWallRules | None) -> LooseTiles | None:
        """``wall.loose_tiles``: replacements from loose tiles kept apart (003, M 22)."""
        raw = self.d.get("wall", {}).get("loose_tiles")
        if raw is None:
            return None
        if dead_wall is not None:
            self.err(
                ("wall", "loose_tiles"),
                "wall.loose_tiles and wall.dead_wall are two ways of keeping replacement "
                "tiles: choose one",
            )
        return LooseTiles(
            **{k: raw[k] for k in ("dead_wall", "sixteen", "flowers_loose") if k in raw}
        )

    def example(
        self, raw: Mapping[str, Any], p: Path, tileset: TileSet, patterns: set[str]
    ) -> ExampleIR | None:
        ok = True
        for key in ("concealed", "win_tile"):
            try:
                parse_tiles(raw[key], tileset)
            except NotationError as e:
                self.err(p + (key,), str(e))
                ok = False
        melds = []
        for j, m in enumerate(raw.get("melds", [])):
            try:
                parse_tiles(m["tiles"], tileset)
            except NotationError as e:
                self.err(p + ("melds", j, "tiles"), str(e))
                ok = False
            melds.append(ExampleMeldIR(m["type"], m["tiles"], m.get("from"), m.get("claimed")))
        exp = raw["expect"]
        for j, pid in enumerate(exp.get("patterns", [])):
            if pid not in patterns:
                near = difflib.get_close_matches(pid, sorted(patterns), n=1)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                self.err(p + ("expect", "patterns", j), f"unknown pattern {pid!r}{hint}")
                ok = False
        name = self.text(raw.get("name"), p + ("name",))
        if not ok or name is None:
            return None
        pays = exp.get("payments")
        return ExampleIR(
            name=name,
            section=raw.get("section"),
            concealed=raw["concealed"],
            win_tile=raw["win_tile"],
            win=raw["win"],
            melds=tuple(melds),
            context=tuple(sorted(raw.get("context", {}).items())),
            legal=exp["legal"],
            patterns=tuple(exp["patterns"]) if "patterns" in exp else None,
            total=exp.get("total"),
            payments=tuple(sorted(pays.items())) if pays is not None else None,
            location=self.r.where(p),
            fu=exp.get("fu"),
            checks_fu="fu" in exp,
        )


def check(resolved: Resolved, expected_id: str | None = None) -> ProfileIR:
    """Validate ``resolved`` and return its IR, or raise :class:`SpecErrors` listing every
    problem."""
    errors = schema_errors(resolved)
    if errors:
        raise SpecErrors.of(errors)
    builder = _Builder(resolved, expected_id)
    ir = builder.build()
    if builder.errors or ir is None:
        raise SpecErrors.of(builder.errors)
    return ir
