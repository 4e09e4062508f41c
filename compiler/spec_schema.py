"""The schema of a spec *file*, for editors: derived from the schema of a resolved profile.

``specs/schema/profile.schema.json`` describes a profile once ``extends`` is resolved: every
required key present, no ``null``. The compiler checks the resolved profile against it. An editor
sees the file as written, which differs in two ways (compiler/resolve.py):

* a ``key: null`` in any mapping removes that key (a child removes an inherited entry; in any
  spec the key is simply absent), so every mapping value may also be ``null``;
* a profile that ``extends`` another states only what differs, so in such a file nothing is
  required, at any depth: ``tanyao: {value: 2}`` overrides one field of an inherited pattern.

:func:`spec_file_schema` writes both into one self-contained schema (the build publishes it as
``docs/schema/spec-1.json``, whose ``$id`` is :data:`SPEC_SCHEMA_ID`): a file without ``extends``
is held to the profile schema with nulls allowed; a file with ``extends`` to the same schema with
every ``required`` dropped. Everything else (key names, types, enums, patterns, bounds) is the
profile schema's, so a misspelt key or a wrong type is still an editor's error.
"""

from __future__ import annotations

import copy
import json
from typing import Any

#: The identifier of the spec-file schema (an identifier, not a promise that the URL serves it;
#: the file is ``docs/schema/spec-1.json`` and, in a workspace, the copy ``mjspec new`` writes).
SPEC_SCHEMA_ID = "https://mjspec.dev/schema/spec-1.json"
#: Where the build writes it, relative to the docs folder; a spec names it relative to itself.
SPEC_SCHEMA_FILE = "schema/spec-1.json"
#: The modeline a spec carries (specs/ and docs/ are siblings in the project and in a workspace).
MODELINE = f"# yaml-language-server: $schema=../docs/{SPEC_SCHEMA_FILE}"

#: Keywords whose value is one schema, or a mapping / list of schemas.
_ONE = ("items", "not", "propertyNames", "contains", "if", "then", "else")
_MAP = ("properties", "patternProperties", "$defs", "dependentSchemas")
_LIST = ("anyOf", "allOf", "oneOf", "prefixItems")


def _nullable(schema: Any) -> Any:
    """``schema`` or null (a key set to null is removed, compiler/resolve.py)."""
    if schema is True or schema is False:
        return schema
    if isinstance(schema, dict) and schema.get("type") == "null":
        return schema
    return {"anyOf": [{"type": "null"}, schema]}


def _rewrite(schema: Any, partial: bool) -> Any:
    """A copy of ``schema`` whose mapping values may be null, and (``partial``) nothing
    required."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "required" and partial:
            continue
        if key == "$ref" and isinstance(value, str) and value.startswith("#/$defs/"):
            name = value.removeprefix("#/$defs/")
            out[key] = f"#/$defs/{_def_name(name, partial)}"
        elif key in ("properties", "patternProperties"):
            out[key] = {k: _nullable(_rewrite(v, partial)) for k, v in value.items()}
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = _nullable(_rewrite(value, partial))
        elif key in _MAP:
            out[key] = {k: _rewrite(v, partial) for k, v in value.items()}
        elif key in _LIST:
            out[key] = [_rewrite(v, partial) for v in value]
        elif key in _ONE:
            out[key] = _rewrite(value, partial)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _def_name(name: str, partial: bool) -> str:
    return f"{name}.override" if partial else name


def spec_file_schema(profile_schema: dict[str, Any]) -> dict[str, Any]:
    """The schema of a spec file as written (see the module's docstring)."""
    defs = profile_schema.get("$defs", {})
    body = {k: v for k, v in profile_schema.items() if not k.startswith("$") and k != "title"}
    body.pop("description", None)
    all_defs: dict[str, Any] = {}
    for name, schema in defs.items():
        all_defs[_def_name(name, False)] = _rewrite(schema, False)
        all_defs[_def_name(name, True)] = _rewrite(schema, True)
    all_defs["profile"] = _rewrite(body, False)
    all_defs["override"] = _rewrite(body, True)
    return {
        "$schema": profile_schema.get("$schema", "https://json-schema.org/draft/2020-12/schema"),
        "$id": SPEC_SCHEMA_ID,
        "title": "mjspec spec file",
        "description": (
            "One mahjong rule book as written in specs/ID.yaml. "
            + str(profile_schema.get("description", ""))
            + " A spec with `extends` states only what differs: nothing is required in it, and "
            "`key: null` removes an inherited entry."
        ),
        "if": {"type": "object", "required": ["extends"]},
        "then": {"$ref": "#/$defs/override"},
        "else": {"$ref": "#/$defs/profile"},
        "$defs": all_defs,
    }


def spec_file_schema_text(profile_schema: dict[str, Any]) -> str:
    """:func:`spec_file_schema` as the file the build writes."""
    return json.dumps(spec_file_schema(profile_schema), ensure_ascii=False, indent=1) + "\n"
