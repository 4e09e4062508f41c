"""What a record must be before and after it replays: its schema, its chance, its outcomes, its
seal.

- :func:`validate_record` checks a parsed record against ``docs/records.schema.json`` (JSON
  Schema 2020-12) before replay reads any field, and raises :class:`RecordError` naming the path
  inside the record (``hands[2].events[5].kind: ...``). The runtime imports only the standard
  library, so the schema is checked by the small validator below; it knows exactly the keywords
  the schema uses and refuses a schema with any other, so no keyword is silently skipped
  (``tests/test_records.py`` holds it to ``jsonschema`` on the schema and on mutated records).
  One difference, on purpose: an ``integer`` is a JSON number written without a fraction or
  an exponent (JSON Schema also counts ``1.0`` and ``1e300``), so a seed of ``3.0`` is refused
  rather than read as 3.
- :func:`check_chance`: a record says how its chance was made (``seeded``: the match seed and
  every hand seed are integers; ``explicit``: both null), so turning a played record into an
  explicit one is refused.
- :func:`check_rederived` compares every recorded field with the record the replayed match
  gives (placements, result, strict_preset, each hand's points, ...).
- :func:`seal` / :func:`check_seal`: the ``digest`` (sha256 of the canonical content: every field
  but ``digest`` and ``signature``, keys sorted, no spaces, UTF-8) and, with a key, the
  ``signature`` (HMAC-SHA256 of the same bytes). The digest shows an edit; only the signature
  shows an edit made by someone who recomputed the digest.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Mapping

#: The record format this runtime writes and reads.
FORMAT = "mjspec-record/2"
#: Fields outside the canonical content.
SEAL_FIELDS = ("digest", "signature")


class ReplayError(ValueError):
    """A record that does not replay: names the hand and step, and what differs or which rule
    refused (``mjspec replay`` exits 1: a check failed)."""


class RecordError(ReplayError):
    """A record that is not a well-formed mjspec record: the path inside it and what is wrong
    (``mjspec replay`` exits 2: bad input)."""


class SealError(ReplayError):
    """A record whose digest or signature does not match its content (it was edited)."""


class SchemaError(RuntimeError):
    """The bundled schema uses a keyword the validator does not implement (a bug, never user
    input)."""


# ---------------------------------------------------------------- the schema


@lru_cache(maxsize=1)
def record_schema() -> dict[str, Any]:
    """``docs/records.schema.json``, packaged with mjspec; every keyword checked to be one we
    implement."""
    text = resources.files("mjspec").joinpath("docs/records.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    _check_keywords(schema, "#")
    return schema


_KEYWORDS = frozenset(
    {
        "$schema",
        "$id",
        "title",
        "description",
        "$defs",
        "$ref",
        "type",
        "const",
        "enum",
        "properties",
        "required",
        "additionalProperties",
        "maxProperties",
        "items",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "maxLength",
        "pattern",
    }
)
_SUBSCHEMA_MAPS = ("properties", "$defs")


def _check_keywords(schema: Any, where: str) -> None:
    if not isinstance(schema, dict):
        raise SchemaError(f"{where}: a schema must be an object")
    unknown = set(schema) - _KEYWORDS
    if unknown:
        raise SchemaError(
            f"{where}: keywords {sorted(unknown)} are not implemented by runtime/record_check.py"
        )
    for key in _SUBSCHEMA_MAPS:
        for name, sub in schema.get(key, {}).items():
            _check_keywords(sub, f"{where}/{key}/{name}")
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            _check_keywords(schema[key], f"{where}/{key}")


def schema_errors(record: Any, limit: int = 1) -> list[str]:
    """Up to ``limit`` violations of the record schema, each as ``path: message`` (path inside the
    record)."""
    if _record_conforms()(record):
        return []
    # Only a record that fails is walked again by the validator that names paths and reasons.
    schema = record_schema()
    out: list[str] = []
    _validate(record, schema, schema, "", out, limit)
    return out


@lru_cache(maxsize=1)
def _record_conforms() -> Callable[[Any], bool]:
    """The schema made once into nested predicates: the same verdict as :func:`_validate` (the tests
    hold the two to each other and to ``jsonschema``), without building a path for every value."""
    schema = record_schema()
    return _conforms(schema, schema, {})


def _conforms(
    schema: dict[str, Any], root: dict[str, Any], refs: dict[str, Callable[[Any], bool]]
) -> Callable[[Any], bool]:
    if "$ref" in schema:
        ref = schema["$ref"]
        if ref not in refs:
            target: Any = root
            for part in ref.removeprefix("#/").split("/"):
                target = target[part]
            slot: list[Callable[[Any], bool]] = []
            refs[ref] = lambda v: slot[0](v)  # a reference may lead back to itself
            slot.append(_conforms(target, root, refs))
            refs[ref] = slot[0]
        return refs[ref]
    tests: list[Callable[[Any], bool]] = []
    if "type" in schema:
        kinds = [
            _TYPES[t]
            for t in (schema["type"] if isinstance(schema["type"], list) else [schema["type"]])
        ]
        tests.append(kinds[0] if len(kinds) == 1 else lambda v: any(k(v) for k in kinds))
    if "const" in schema:
        const = schema["const"]
        tests.append(lambda v: v == const and type(v) is type(const))
    if "enum" in schema:
        options = schema["enum"]
        tests.append(lambda v: any(v == e and type(v) is type(e) for e in options))
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None or high is not None:

        def in_range(v: Any) -> bool:
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                return True
            return (low is None or v >= low) and (high is None or v <= high)

        tests.append(in_range)
    longest, pattern = schema.get("maxLength"), schema.get("pattern")
    if longest is not None or pattern is not None:
        regex = re.compile(pattern) if pattern is not None else None

        def string_ok(v: Any) -> bool:
            if not isinstance(v, str):
                return True
            return (longest is None or len(v) <= longest) and (
                regex is None or regex.search(v) is not None
            )

        tests.append(string_ok)
    fewest, most = schema.get("minItems"), schema.get("maxItems")
    item = _conforms(schema["items"], root, refs) if isinstance(schema.get("items"), dict) else None
    if fewest is not None or most is not None or item is not None:

        def list_ok(v: Any) -> bool:
            if not isinstance(v, list):
                return True
            if (fewest is not None and len(v) < fewest) or (most is not None and len(v) > most):
                return False
            return item is None or all(item(x) for x in v)

        tests.append(list_ok)
    fields = {key: _conforms(sub, root, refs) for key, sub in schema.get("properties", {}).items()}
    extra = schema.get("additionalProperties", True)
    other = _conforms(extra, root, refs) if isinstance(extra, dict) else None
    required = tuple(schema.get("required", ()))
    widest = schema.get("maxProperties")
    if fields or required or widest is not None or extra is not True:

        def object_ok(v: Any) -> bool:
            if not isinstance(v, dict):
                return True
            if widest is not None and len(v) > widest:
                return False
            if any(key not in v for key in required):
                return False
            for key, x in v.items():
                check = fields.get(key)
                if check is not None:
                    if not check(x):
                        return False
                elif extra is False or (other is not None and not other(x)):
                    return False
            return True

        tests.append(object_ok)
    if not tests:
        return lambda v: True
    if len(tests) == 1:
        return tests[0]
    return lambda v: all(t(v) for t in tests)


_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


_TYPE_NAMES = {
    "object": "an object",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def _show(value: Any) -> str:
    if isinstance(value, dict):
        text = "an object"
    elif isinstance(value, list):
        text = "a list"
    else:
        text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _validate(
    value: Any, schema: dict[str, Any], root: dict[str, Any], path: str, out: list[str], limit: int
) -> None:
    if len(out) >= limit:
        return
    where = path or "(top)"

    def fail(message: str) -> None:
        out.append(f"{where}: {message}")

    if "$ref" in schema:
        ref = schema["$ref"]
        target: Any = root
        for part in ref.removeprefix("#/").split("/"):
            target = target[part]
        _validate(value, target, root, path, out, limit)
        return
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[t](value) for t in types):
            return fail(f"{_show(value)} is not {' or '.join(_TYPE_NAMES[t] for t in types)}")
    if "const" in schema and (value != schema["const"] or type(value) is not type(schema["const"])):
        return fail(f"{_show(value)} is not {_show(schema['const'])}")
    if "enum" in schema and not any(value == e and type(value) is type(e) for e in schema["enum"]):
        return fail(f"{_show(value)} is not one of {', '.join(_show(e) for e in schema['enum'])}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            return fail(f"{value} is below the minimum {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            return fail(f"{value} is above the maximum {schema['maximum']}")
    if isinstance(value, str):
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            return fail(f"a string of {len(value)} characters (at most {schema['maxLength']})")
        if "pattern" in schema and re.search(schema["pattern"], value) is None:
            return fail(f"{_show(value)} does not match {schema['pattern']!r}")
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            return fail(f"{len(value)} item(s), at least {schema['minItems']} needed")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            return fail(f"{len(value)} items, at most {schema['maxItems']}")
        if isinstance(schema.get("items"), dict):
            for i, item in enumerate(value):
                _validate(item, schema["items"], root, f"{path}[{i}]", out, limit)
    if isinstance(value, dict):
        if "maxProperties" in schema and len(value) > schema["maxProperties"]:
            return fail(f"{len(value)} fields, at most {schema['maxProperties']}")
        for key in schema.get("required", ()):
            if key not in value:
                return fail(f"the field {key!r} is missing")
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            sub = f"{path}.{key}" if path else key
            if key in props:
                _validate(item, props[key], root, sub, out, limit)
            elif extra is False:
                known = ", ".join(sorted(props))
                out.append(f"{sub}: unknown field (known: {known})")
            elif isinstance(extra, dict):
                _validate(item, extra, root, sub, out, limit)
            if len(out) >= limit:
                return


def validate_record(record: Any) -> None:
    """Raise :class:`RecordError` unless ``record`` is a well-formed mjspec record (schema and
    chance)."""
    if isinstance(record, dict) and record.get("format") == "mjspec-record/1":
        raise RecordError(
            "format: 'mjspec-record/1' is the older record format, without a digest or a "
            "stated chance; "
            f"this mjspec reads {FORMAT} (play or import the game again)"
        )
    errors = schema_errors(record)
    if errors:
        raise RecordError(errors[0])
    check_chance(record)


def check_chance(record: Mapping[str, Any]) -> None:
    """A record's chance is stated once and every seed agrees with it (refused:
    :class:`RecordError`)."""
    seeded = record["chance"] == "seeded"
    want = "an integer" if seeded else "null"
    if (record["seed"] is not None) != seeded:
        raise RecordError(
            f"seed: a record whose chance is {record['chance']!r} has {want} as its seed, not "
            f"{_show(record['seed'])}"
        )
    for i, hand in enumerate(record["hands"]):
        if (hand["seed"] is not None) != seeded:
            raise RecordError(
                f"hands[{i}].seed: a record whose chance is {record['chance']!r} has {want} "
                f"hand seeds, not {_show(hand['seed'])}"
            )


# ---------------------------------------------------------------- outcomes


#: Fields the replayed match cannot give back, each with why: the seeds of an explicit-chance
#: record are null (checked by check_chance), the source is the importer's description.
_NOT_REDERIVED = frozenset({"source", "chance", *SEAL_FIELDS})


def check_rederived(record: Mapping[str, Any], again: Mapping[str, Any]) -> None:
    """Compare every recorded field with ``again`` (the record of the replayed match); raise at the
    first difference."""
    explicit = record["chance"] == "explicit"
    for key in sorted(set(record) | set(again)):
        if key in _NOT_REDERIVED or (explicit and key == "seed"):
            continue
        if not explicit and _same_json(record.get(key), again.get(key)):
            # the common case: no path to find (JSON text tells true from 1 and 1.0 from 1)
            continue
        diff = _first_difference(record.get(key), again.get(key), key, skip_seed=explicit)
        if diff is not None:
            path, recorded, replayed = diff
            raise ReplayError(
                f"{path}: recorded {_show_full(recorded)} but the replay gives "
                f"{_show_full(replayed)}"
            )


def _first_difference(a: Any, b: Any, path: str, *, skip_seed: bool) -> tuple[str, Any, Any] | None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if skip_seed and key == "seed" and path.startswith("hands["):
                continue
            d = _first_difference(a.get(key), b.get(key), f"{path}.{key}", skip_seed=skip_seed)
            if d is not None:
                return d
        return None
    if (
        isinstance(a, list)
        and isinstance(b, list)
        and len(a) == len(b)
        and any(isinstance(x, (dict, list)) for x in a)
    ):
        for i, (x, y) in enumerate(zip(a, b)):
            d = _first_difference(x, y, f"{path}[{i}]", skip_seed=skip_seed)
            if d is not None:
                return d
        return None
    if a != b or type(a) is not type(b):
        return (path, a, b)
    return None


def _same_json(a: Any, b: Any) -> bool:
    if a != b:
        return False
    try:
        return json.dumps(a) == json.dumps(b)  # keys in another order: the walk below decides
    except (TypeError, ValueError):
        return False  # not JSON text: the walk below says where


def _show_full(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 200 else text[:197] + "..."


# ---------------------------------------------------------------- digest and signature


def canonical_bytes(record: Mapping[str, Any]) -> bytes:
    """The content the digest and the signature cover: every field but theirs, keys sorted, compact,
    UTF-8."""
    content = {k: v for k, v in record.items() if k not in SEAL_FIELDS}
    return json.dumps(
        content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def digest_of(record: Mapping[str, Any]) -> str:
    return "sha256:" + hashlib.sha256(canonical_bytes(record)).hexdigest()


def signature_of(record: Mapping[str, Any], key: bytes) -> str:
    return "hmac-sha256:" + hmac.new(key, canonical_bytes(record), hashlib.sha256).hexdigest()


def seal(record: dict[str, Any], key: bytes | None = None) -> dict[str, Any]:
    """``record`` with its digest (and, with ``key``, its signature) computed afresh, as the last
    fields."""
    out = {k: v for k, v in record.items() if k not in SEAL_FIELDS}
    out["digest"] = digest_of(out)
    if key is not None:
        out["signature"] = signature_of(out, key)
    return out


def check_seal(record: Mapping[str, Any], key: bytes | None = None) -> str:
    """Raise :class:`SealError` if the digest (or, with ``key``, the signature) does not match the
    content.

    Returns how the record stands: ``"signed"`` (the signature checked), ``"signed, not checked"``
    (a signature but no key given) or ``"unsigned"``.
    """
    if not hmac.compare_digest(record["digest"], digest_of(record)):
        raise SealError(
            "digest: the record's content does not match its digest: it was edited after it "
            "was written"
        )
    if key is None:
        return "signed, not checked (no key given)" if "signature" in record else "unsigned"
    if "signature" not in record:
        raise SealError("signature: the record is not signed, and a key was given to check it")
    if not hmac.compare_digest(record["signature"], signature_of(record, key)):
        raise SealError(
            "signature: the record was not signed with this key, or was edited and its digest "
            "recomputed"
        )
    return "signed"
