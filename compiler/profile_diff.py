"""``mjspec diff A B``: every rule on which two profiles differ.

Each profile's spec is resolved (``extends`` merged) and checked, then
flattened into dotted spec paths (``scoring.patterns.golden_hook.value``,
``calls.kakan_drawn_tile_only``) and the two flat maps are compared. What is
compared is the rules, not the bookkeeping: ids, versions, names, sources,
rule-book section marks, examples and invariants are left out. Values a spec
leaves out are filled in first from the schema's ``default`` keywords, so
writing a default out explicitly is not a difference. Lists of mappings with
an ``id`` are compared item by item, by id; other lists as a whole. A
player-visible text is compared in all its languages and shown in English.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from mjspec.runtime.text import LANGUAGES

from .check import check, profile_schema
from .ir import ProfileIR
from .resolve import SpecLibrary

#: Top-level keys that describe the profile rather than its rules.
NOT_RULES = ("id", "version", "extends", "names", "source", "examples", "invariants")
#: Keys that only point into a rule book, at any depth.
NOT_RULE_KEYS = ("section",)

#: Areas in presentation order: the first path component, with its heading.
AREAS: tuple[tuple[str, str], ...] = (
    ("players", "players"),
    ("tiles", "tile set"),
    ("deal", "deal"),
    ("wall", "wall"),
    ("opening", "opening"),
    ("turn", "turns"),
    ("calls", "calls"),
    ("passing", "passing a win"),
    ("flow", "win flow"),
    ("shapes", "winning shapes"),
    ("win", "winning"),
    ("scoring", "scoring"),
    ("patterns", "patterns"),
    ("payments", "payments"),
    ("kongs", "kong payments"),
    ("exhaustion", "exhaustion"),
    ("match", "match"),
    ("clocks", "clocks"),
    ("timeout", "timeout"),
    ("readings", "readings"),
)
_AREA_ORDER = {key: i for i, (key, _) in enumerate(AREAS)}
_AREA_NAME = dict(AREAS)


class Missing:
    """The value of a path one profile does not have."""

    _instance: "Missing | None" = None

    def __new__(cls) -> "Missing":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"


MISSING = Missing()


@dataclass(frozen=True)
class Difference:
    """One rule on which the two profiles differ."""

    area: str
    path: str
    label: str
    a: Any
    b: Any

    def to_json(self) -> dict[str, Any]:
        return {
            "area": self.area,
            "path": self.path,
            "label": self.label,
            "a": None if self.a is MISSING else self.a,
            "b": None if self.b is MISSING else self.b,
            "in_a": self.a is not MISSING,
            "in_b": self.b is not MISSING,
        }


@dataclass(frozen=True)
class ProfileDiff:
    a: ProfileIR
    b: ProfileIR
    differences: tuple[Difference, ...]

    def to_json(self) -> dict[str, Any]:
        def side(ir: ProfileIR) -> dict[str, Any]:
            return {"id": ir.id, "name": ir.names.en, "book": ir.source_book, "extends": ir.extends}

        return {
            "a": side(self.a),
            "b": side(self.b),
            "differences": [d.to_json() for d in self.differences],
        }


# ---- flattening ---------------------------------------------------------------


def _is_text(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and bool(value)
        and set(value) <= set(LANGUAGES)
        and all(isinstance(v, str) for v in value.values())
    )


def flatten(data: Mapping[str, Any]) -> dict[str, Any]:
    """The rule-bearing leaves of a resolved spec, by dotted path."""
    return _walk(data)[0]


def _walk(data: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The leaves by dotted path, and the paths of items of id-keyed lists (in order)."""
    leaves: dict[str, Any] = {}
    items: list[str] = []
    for key, value in data.items():
        if key not in NOT_RULES:
            _flatten(value, key, leaves, items)
    return leaves, items


def _flatten(value: Any, path: str, leaves: dict[str, Any], items: list[str]) -> None:
    if _is_text(value):
        leaves[path] = dict(sorted(value.items()))
    elif isinstance(value, dict):
        if not value:
            leaves[path] = {}
        for key, sub in value.items():
            if key not in NOT_RULE_KEYS:
                _flatten(sub, f"{path}.{key}", leaves, items)
    elif (
        isinstance(value, list)
        and value
        and all(isinstance(v, dict) and isinstance(v.get("id"), str) for v in value)
    ):
        for item in value:
            items.append(f"{path}.{item['id']}")
            _flatten(
                {k: v for k, v in item.items() if k != "id"}, f"{path}.{item['id']}", leaves, items
            )
    elif isinstance(value, list):
        leaves[path] = list(value)
    else:
        leaves[path] = value


# ---- schema defaults ----------------------------------------------------------------


def _resolve_ref(schema: Any, root: Mapping[str, Any]) -> Any:
    while isinstance(schema, dict) and "$ref" in schema:
        ref = str(schema["$ref"])
        if not ref.startswith("#/"):
            return schema
        target: Any = root
        for part in ref[2:].split("/"):
            target = target[part]
        schema = target
    return schema


def _default_of(schema: Mapping[str, Any]) -> Any:
    """The property's ``default`` keyword (a copy), or :data:`MISSING` when it has none."""
    if "default" in schema:
        return copy.deepcopy(schema["default"])
    return MISSING


def with_defaults(value: Any, schema: Any, root: Mapping[str, Any]) -> Any:
    """``value`` with every absent property that has a default filled in, recursively."""
    schema = _resolve_ref(schema, root)
    if not isinstance(schema, dict):
        return value
    if isinstance(value, dict) and not _is_text(value):
        props: dict[str, Any] = schema.get("properties", {})
        out = dict(value)
        for key, sub in props.items():
            sub = _resolve_ref(sub, root)
            if key not in out and isinstance(sub, dict):
                default = _default_of(sub)
                if default is not MISSING:
                    out[key] = default
            if key in out:
                out[key] = with_defaults(out[key], sub, root)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            for key in out:
                if key not in props:
                    out[key] = with_defaults(out[key], _object_branch(extra, root), root)
        return out
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [with_defaults(v, schema["items"], root) for v in value]
    return value


def _object_branch(schema: Any, root: Mapping[str, Any]) -> Any:
    schema = _resolve_ref(schema, root)
    if isinstance(schema, dict) and "anyOf" in schema:
        for alt in schema["anyOf"]:
            alt = _resolve_ref(alt, root)
            if isinstance(alt, dict) and ("properties" in alt or alt.get("type") == "object"):
                return alt
    return schema


# ---- comparing --------------------------------------------------------------------------


def resolved_rules(
    lib: SpecLibrary, profile_id: str
) -> tuple[ProfileIR, dict[str, Any], list[str]]:
    """A profile's IR (so the spec is known to be valid), its flattened rules with defaults filled
    in, and the paths of its id-keyed list items."""
    resolved = lib.resolve_file(lib.path_of(profile_id))
    ir = check(resolved, expected_id=profile_id)
    schema = profile_schema()
    leaves, items = _walk(with_defaults(resolved.data, schema, schema))
    return ir, leaves, items


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(prefix + ".")


def _area(path: str) -> str:
    parts = path.split(".")
    if parts[:2] == ["scoring", "patterns"]:
        return "patterns"
    return parts[0]


def _label(path: str, patterns: Mapping[str, str]) -> str:
    parts = path.split(".")
    if parts[:2] == ["scoring", "patterns"] and len(parts) >= 3:
        name = patterns.get(parts[2], parts[2])
        rest = ".".join(parts[3:])
        return f"{parts[2]} ({name})" + (f": {rest}" if rest else "")
    return path


def diff_profiles(lib: SpecLibrary, a_id: str, b_id: str) -> ProfileDiff:
    """Every rule on which profiles ``a_id`` and ``b_id`` of ``lib`` differ, in presentation
    order."""
    a_ir, a, a_items = resolved_rules(lib, a_id)
    b_ir, b, b_items = resolved_rules(lib, b_id)
    names = {p.id: p.names.en for p in (*b_ir.patterns, *a_ir.patterns)}
    out: list[Difference] = []
    # Something in one profile only (a pattern, a clock, a reading...) is one
    # difference, summarised, not one per key.
    wholes = (
        [f"scoring.patterns.{p.id}" for p in (*a_ir.patterns, *b_ir.patterns)] + a_items + b_items
    )
    for prefix in dict.fromkeys(wholes):
        in_a = any(_under(k, prefix) for k in a)
        in_b = any(_under(k, prefix) for k in b)
        if in_a == in_b:
            continue
        side = a if in_a else b
        summary = {k[len(prefix) + 1 :] or "value": v for k, v in side.items() if _under(k, prefix)}
        out.append(
            Difference(
                _area(prefix),
                prefix,
                _label(prefix, names),
                summary if in_a else MISSING,
                MISSING if in_a else summary,
            )
        )
        a = {k: v for k, v in a.items() if not _under(k, prefix)}
        b = {k: v for k, v in b.items() if not _under(k, prefix)}
    for path in list(a) + [p for p in b if p not in a]:
        va, vb = a.get(path, MISSING), b.get(path, MISSING)
        if va != vb:
            out.append(Difference(_area(path), path, _label(path, names), va, vb))
    out.sort(key=lambda d: (_AREA_ORDER.get(d.area, len(AREAS)), d.area))
    return ProfileDiff(a_ir, b_ir, tuple(out))


# ---- presenting ---------------------------------------------------------------------------


def show(value: Any, width: int = 48) -> str:
    """A value in one short line: English for a text, ``-`` when absent."""
    if value is MISSING:
        return "-"
    if _is_text(value):
        text = str(value.get("en", next(iter(value.values()))))
    elif isinstance(value, dict) and all(isinstance(k, str) for k in value):
        text = "; ".join(
            f"{k}: {show(v, width)}"
            for k, v in value.items()
            if k not in ("names", "definition", "reading")
        )
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, list):
        text = ", ".join(show(v, width) for v in value) if value else "(none)"
    elif isinstance(value, (int, float)) or value is None:
        text = json.dumps(value, ensure_ascii=False)
    else:
        text = str(value)
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def format_table(diff: ProfileDiff) -> str:
    """The readable form: one block per area, one row per differing rule."""
    a, b = diff.a, diff.b
    lines = [
        f"A: {a.id} ({a.names.en}; rule book {a.source_book})",
        f"B: {b.id} ({b.names.en}; rule book {b.source_book})",
    ]
    if not diff.differences:
        lines.append("")
        lines.append("No rule differs.")
        return "\n".join(lines) + "\n"
    rows = [(d.area, d.label, show(d.a), show(d.b)) for d in diff.differences]
    w_rule = min(56, max(len("rule"), *(len(r[1]) for r in rows)))
    w_a = max(len(a.id), *(len(r[2]) for r in rows))
    lines.append("")
    lines.append(f"{'rule':<{w_rule}}  {a.id:<{w_a}}  {b.id}")
    area = None
    for row_area, label, va, vb in rows:
        if row_area != area:
            area = row_area
            lines.append("")
            lines.append(f"[{_AREA_NAME.get(area, area)}]")
        if len(label) > w_rule:
            lines.append(label)
            label = ""
        lines.append(f"{label:<{w_rule}}  {va:<{w_a}}  {vb}".rstrip())
    lines.append("")
    lines.append(f"{len(diff.differences)} difference(s).")
    return "\n".join(lines) + "\n"
