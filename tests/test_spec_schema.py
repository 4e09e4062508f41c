"""The spec-file schema as an editor uses it: the raw ``docs/schema/spec-1.json``, read with
jsonschema and PyYAML alone (no project code between the file and the verdict), accepts every
spec ``mjspec validate`` accepts, a child's partial overrides included, and still refuses
misspelt keys and wrong types."""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from conftest import ROOT

SCHEMA_FILE = ROOT / "docs" / "schema" / "spec-1.json"
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$", re.M)


@functools.lru_cache(maxsize=1)
def editor_validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_FILE.read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def editor_errors(text: str) -> list[str]:
    data = yaml.safe_load(text)
    return [
        f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
        for e in editor_validator().iter_errors(data)
    ]


def test_the_schema_has_a_real_identifier() -> None:
    schema = json.loads(SCHEMA_FILE.read_text("utf-8"))
    assert schema["$id"] == "https://mjspec.dev/schema/spec-1.json"
    profile = json.loads((ROOT / "specs" / "schema" / "profile.schema.json").read_text("utf-8"))
    assert profile["$id"] == "https://mjspec.dev/schema/profile-1.json"
    assert "invalid" not in schema["$id"] + profile["$id"]


@pytest.mark.parametrize("spec", sorted(p.name for p in (ROOT / "specs").glob("*.yaml")))
def test_every_bundled_spec_passes_the_raw_schema(spec: str) -> None:
    text = (ROOT / "specs" / spec).read_text("utf-8")
    assert editor_errors(text) == []
    # Its editor line names the published schema, resolved as an editor does: beside the file.
    found = MODELINE.search(text)
    assert found is not None and text.startswith(found.group(0))
    assert (ROOT / "specs" / found.group(1)).resolve() == SCHEMA_FILE.resolve()


def test_the_readme_house_rule_passes_the_raw_schema(tmp_path: Path) -> None:
    """The README's walk-through: the file `mjspec new` writes, with the README's changes
    appended, checked as an editor would check it in the workspace."""
    env = {k: v for k, v in os.environ.items() if k != "MJSPEC_ROOT"}
    res = subprocess.run(
        [sys.executable, "-m", "mjspec.app.cli", "new", "house_sichuan", "--from", "sichuan_tfmj"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert res.returncode == 0, res.stderr
    spec = tmp_path / "specs" / "house_sichuan.yaml"
    readme = (ROOT / "README.md").read_text("utf-8").split("## Defining a house rule", 1)[1]
    changes = re.search(r"^```yaml\n(.*?)^```$", readme, flags=re.M | re.S)
    assert changes is not None
    text = spec.read_text("utf-8") + "\n" + changes.group(1)
    assert editor_errors(text) == []
    found = MODELINE.search(text)
    assert found is not None
    copy = (spec.parent / found.group(1)).resolve()
    assert copy == (tmp_path / "docs" / "schema" / "spec-1.json").resolve()
    assert (
        copy.read_bytes() == SCHEMA_FILE.read_bytes()
    )  # the workspace's copy is the published one


CHILD = "id: house\nextends: riichi_tenhou\n"


@pytest.mark.parametrize(
    "body",
    [
        "scoring:\n  patterns:\n    tanyao: {value: 2}\n",  # one field of an inherited pattern
        "scoring:\n  patterns:\n    ippatsu: null\n",  # an inherited pattern removed
        "opening:\n  exchange: null\n",
        "names: {en: House}\n",  # one language changed, the others inherited
    ],
)
def test_partial_overrides_in_a_child_pass(body: str) -> None:
    assert editor_errors(CHILD + body) == []


@pytest.mark.parametrize(
    "text, where",
    [
        (CHILD + "scorin: {cap: 4}\n", "'scorin' was unexpected"),  # a misspelt key
        (CHILD + "scoring: {cap: four}\n", "scoring"),  # a wrong type
        (CHILD + "scoring:\n  patterns:\n    tanyao: {valu: 2}\n", "scoring"),
        (CHILD + "players: 3\n", "players"),  # outside the enum
        ("id: house\nextends: [riichi_tenhou]\n", "extends"),
        ("id: solo\nnames: {en: S, zh: S, ja: S, pt: S, fr: S}\n", "required property"),
        ("id: Bad-Id\nextends: riichi_tenhou\n", "id"),
    ],
)
def test_invalid_specs_are_still_refused(text: str, where: str) -> None:
    errors = editor_errors(text)
    assert errors, text
    assert any(where in e for e in errors), errors


def _validated(tmp_path: Path, text: str) -> int:
    spec = tmp_path / "specs" / "house.yaml"
    spec.parent.mkdir(exist_ok=True)
    spec.write_text(text, "utf-8")
    env = {k: v for k, v in os.environ.items() if k != "MJSPEC_ROOT"}
    return subprocess.run(
        [sys.executable, "-m", "mjspec.app.cli", "validate", str(spec)],
        capture_output=True,
        text=True,
        env=env,
    ).returncode


def test_the_partial_override_is_one_validate_accepts(tmp_path: Path) -> None:
    """The schema's leniency is the compiler's: the child above validates and builds."""
    text: Any = CHILD + "names: {en: House}\nscoring:\n  patterns:\n    tanyao: {value: 2}\n"
    assert editor_errors(text) == []
    assert _validated(tmp_path, text) == 0
