"""Game options: named, typed settings a spec declares and a game, a scoring request or a CLI sets.

A profile declares its options (``options:`` in the spec) with a type, a
default and a description. A value given for a game (``--option NAME=VALUE``,
``context.options`` of a scoring request) is checked here: an unknown name or a
value of the wrong type is an :class:`OptionError` naming the option and why.

Options reach the rules in two ways, both data:

* an option may ``set`` table-rule fields (``table.dead_wall.enabled``): binding
  the options (:func:`bind_options`) returns the profile with those typed fields
  replaced, so the table engine reads plain fields and never an option name;
* spec expressions read options through the hand view's ``option_on``,
  ``option_value``, ``option_points``, ``option_doubles`` and ``option_limit``.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, fields, is_dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Mapping, Union

from .text import Text

if TYPE_CHECKING:
    from .profile import Profile


class OptionError(ValueError):
    """An option that does not exist, or a value of the wrong type."""


class OptionType(StrEnum):
    """What kind of value an option takes."""

    BOOL = "bool"
    """true or false."""
    COUNT = "count"
    """A whole number >= 0 (rounds, tiles)."""
    SECONDS = "seconds"
    """A whole number of seconds >= 0 (0: no limit)."""
    POINTS = "points"
    """A whole number of points >= 0."""
    SCORE = "score"
    """A scoring value: some points, some doubles, or the limit."""


@dataclass(frozen=True, slots=True)
class ScoreValue:
    """The value of a ``score`` option: points, doubles, or the limit (003: "a score option is
    either points or doubles")."""

    points: int = 0
    doubles: int = 0
    limit: bool = False

    def to_json(self) -> dict[str, Any]:
        if self.limit:
            return {"limit": True}
        if self.doubles:
            return {"doubles": self.doubles}
        return {"points": self.points}

    def __str__(self) -> str:
        if self.limit:
            return "limit"
        if self.doubles:
            return f"{self.doubles} double{'s' if self.doubles != 1 else ''}"
        return f"{self.points} point{'s' if self.points != 1 else ''}"


OptionValue = Union[bool, int, ScoreValue]

MAX_NUMBER = 1_000_000
"""No number option goes beyond this (a bound against overflow, as the xmj server keeps one)."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option a profile declares."""

    name: str
    type: OptionType
    default: OptionValue
    description: Text
    sets: tuple[str, ...] = ()
    """Rule fields that take this option's value: dotted paths from ``table`` (TableRules) or
    ``tiles`` (TileSet)."""
    minimum: int | None = None
    """The least value a number option takes (count, seconds, points), beyond its type's 0; None:
    0."""
    maximum: int | None = None
    """The greatest value a number option takes; None: the general bound, 1000000."""
    section: str = ""
    """The rule book's section, named when a value is refused."""

    def bounds(self) -> tuple[int, int]:
        """The range a number option's value must lie in (both ends included)."""
        return (
            0 if self.minimum is None else self.minimum,
            MAX_NUMBER if self.maximum is None else self.maximum,
        )


def parse_value(spec: OptionSpec, raw: object) -> OptionValue:
    """Check ``raw`` (JSON data, or CLI text) against the option's type and return the typed
    value."""
    where = f"option {spec.name} ({spec.type.value})"
    text = raw.strip() if isinstance(raw, str) else None
    if spec.type is OptionType.BOOL:
        if isinstance(raw, bool):
            return raw
        if text is not None and text.lower() in (
            "true",
            "false",
            "yes",
            "no",
            "on",
            "off",
            "1",
            "0",
        ):
            return text.lower() in ("true", "yes", "on", "1")
        raise OptionError(f"{where}: expected true or false, got {raw!r}")
    if spec.type is OptionType.SCORE:
        return _parse_score(where, raw, text)
    number: int | None = None
    if isinstance(raw, int) and not isinstance(raw, bool):
        number = raw
    elif text is not None and text.lstrip("-").isdigit():
        number = int(text)
    if number is None:
        raise OptionError(f"{where}: expected a whole number, got {raw!r}")
    low, high = spec.bounds()
    rule = f" ({spec.section})" if spec.section else ""
    if number < low:
        raise OptionError(f"{where}: {number} is below the least value {low}{rule}")
    if number > high:
        raise OptionError(f"{where}: {number} is above the greatest value {high}{rule}")
    return number


def _parse_score(where: str, raw: object, text: str | None) -> ScoreValue:
    if isinstance(raw, ScoreValue):
        return raw
    hint = (
        'expected {"points": P}, {"doubles": D} or {"limit": true} (CLI: points:P, '
        "doubles:D or limit)"
    )
    if text is not None:
        if text == "limit":
            return ScoreValue(limit=True)
        if text.startswith("{"):
            try:
                raw = json.loads(text)
            except json.JSONDecodeError:
                raise OptionError(f"{where}: {hint}, got {text!r}") from None
        else:
            key, sep, number = text.partition(":")
            if not sep:
                raise OptionError(f"{where}: {hint}, got {text!r}")
            raw = {key.strip(): int(number) if number.strip().isdigit() else number.strip()}
    if not isinstance(raw, dict) or len(raw) != 1:
        raise OptionError(f"{where}: {hint}, got {raw!r}")
    ((key, value),) = raw.items()
    if key == "limit":
        if value is not True:
            raise OptionError(f"{where}: limit must be true, got {value!r}")
        return ScoreValue(limit=True)
    if key not in ("points", "doubles"):
        raise OptionError(f"{where}: {hint}, got key {key!r}")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_NUMBER:
        raise OptionError(f"{where}: {key} must be a whole number 0..{MAX_NUMBER}, got {value!r}")
    return ScoreValue(points=value) if key == "points" else ScoreValue(doubles=value)


def value_to_json(value: OptionValue) -> object:
    """The JSON form of a value (records, answers)."""
    return value.to_json() if isinstance(value, ScoreValue) else value


def value_to_text(value: OptionValue) -> str:
    """The value as the documents and the CLI show it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True, slots=True)
class Options:
    """The value of every option of a profile (defaults filled in), in declaration order."""

    values: tuple[tuple[str, OptionValue], ...] = ()

    def get(self, name: str) -> OptionValue:
        for key, value in self.values:
            if key == name:
                return value
        raise OptionError(f"no option named {name!r}")

    def as_dict(self) -> dict[str, OptionValue]:
        return dict(self.values)

    def to_json(self) -> dict[str, object]:
        return {k: value_to_json(v) for k, v in self.values}

    def changed(self, declared: tuple[OptionSpec, ...]) -> dict[str, object]:
        """The options whose value differs from the default (JSON form)."""
        defaults = {o.name: o.default for o in declared}
        return {k: value_to_json(v) for k, v in self.values if defaults.get(k) != v}


def resolve_options(
    declared: tuple[OptionSpec, ...], given: Mapping[str, object] | None
) -> Options:
    """Every declared option with its value: ``given`` (checked) over the defaults."""
    by_name = {o.name: o for o in declared}
    chosen: dict[str, OptionValue] = {}
    for name, raw in (given or {}).items():
        spec = by_name.get(name)
        if spec is None:
            if not by_name:
                raise OptionError(f"unknown option {name!r}: this profile has no options")
            near = difflib.get_close_matches(name, list(by_name), n=1)
            hint = f"; did you mean {near[0]!r}?" if near else f" (known: {', '.join(by_name)})"
            raise OptionError(f"unknown option {name!r}{hint}")
        chosen[name] = parse_value(spec, raw)
    return Options(tuple((o.name, chosen.get(o.name, o.default)) for o in declared))


def parse_assignments(items: list[str] | None) -> dict[str, str]:
    """``NAME=VALUE`` texts (the CLI's ``--option``) as a mapping; a malformed one is an
    OptionError."""
    out: dict[str, str] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"--option expects NAME=VALUE, got {item!r}")
        if name.strip() in out:
            raise OptionError(f"option {name.strip()!r} is given twice")
        out[name.strip()] = value
    return out


def bind_options(profile: Profile, given: Mapping[str, object] | Options | None) -> Profile:
    """The profile with its options in force: the table-rule fields the options set are replaced.

    The bound profile carries the option values (``profile.option_values``), which
    the table hands to every scoring context, so a game's scores use the same values.
    """
    options = given if isinstance(given, Options) else resolve_options(profile.options, given)
    if options == profile.option_values:
        return profile
    roots: dict[str, Any] = {
        "table": profile.table,
        "tiles": profile.tiles,
        "shapes": profile.shapes,
    }
    for spec in profile.options:
        for path in spec.sets:
            root, *keys = path.split(".")
            if root not in roots:
                raise OptionError(
                    f"{path}: an option sets fields under table, tiles or shapes only"
                )
            roots[root] = set_table_field(roots[root], keys, options.get(spec.name), path)
    return replace(
        profile,
        table=roots["table"],
        tiles=roots["tiles"],
        shapes=roots["shapes"],
        option_values=options,
    )


def set_table_field(obj: Any, keys: list[str], value: OptionValue, path: str) -> Any:
    """``obj`` (a frozen table-rules dataclass) with the field at ``keys`` replaced by ``value``."""
    if not keys or not is_dataclass(obj) or isinstance(obj, type):
        raise OptionError(f"{path}: not a table-rule field")
    names = {f.name for f in fields(obj)}
    if keys[0] not in names:
        raise OptionError(f"{path}: no field {keys[0]!r}")
    if len(keys) == 1:
        return replace(obj, **{keys[0]: value})
    return replace(obj, **{keys[0]: set_table_field(getattr(obj, keys[0]), keys[1:], value, path)})


def options_in_force(
    profile: Profile, given: tuple[tuple[str, object], ...]
) -> dict[str, OptionValue]:
    """The option values a scoring sees: the profile's bound values, with a context's ``options``
    over them (checked)."""
    if not given:
        return profile.option_values.as_dict()
    base: dict[str, object] = dict(profile.option_values.as_dict())
    return resolve_options(profile.options, {**base, **dict(given)}).as_dict()
