"""The README's "Defining a house rule" tutorial, run as written.

Each command of the section's ``sh`` blocks runs in an empty folder, the
workspace a designer starts from (``runtime/workspace.py``): ``mjspec new`` writes
the spec there, ``mjspec build`` its engines and documents, and ``mjspec score``,
``play``, ``replay`` and ``simulate`` find the house rule there; the package
(this checkout, installed editable) is not written to. ``tests/test_installed.py``
(slow) runs the same walk from a non-editable install. A ``text`` block right after a
command is that command's exact output; the ``yaml`` block is appended to the
spec the tutorial created; the ``markdown`` block must appear in the rendered
English document. Commands whose output depends on the bots' play (``mjspec
play``, ``replay``, ``simulate``) show no output block; their output is checked
for the lines the README's prose promises (see :data:`PROMISED`).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

SECTION = "## Defining a house rule"

#: What the README says a command prints, for commands shown without an output block
#: (command prefix -> substrings of its standard output).
PROMISED = {
    "mjspec play house_sichuan --seed 1 --record game.json": (
        "house_sichuan, seed 1: totals",
        "record written to game.json",
    ),
    "mjspec replay game.json": ("game.json: ok: house_sichuan, 8 hand(s), ",),
    "mjspec simulate house_sichuan --games 50 --workers 2": (
        "house_sichuan: 50 games, 400 hands",
        "pattern",
        "payments",
    ),
}


def tutorial_blocks() -> list[tuple[str, str]]:
    """The fenced blocks of the README's tutorial section, as (language, text), in order."""
    readme = (ROOT / "README.md").read_text("utf-8")
    assert SECTION in readme, "the README has lost its tutorial"
    section = readme.split(SECTION, 1)[1]
    section = re.split(r"^## ", section, maxsplit=1, flags=re.M)[0]
    return [
        (m.group(1), m.group(2))
        for m in re.finditer(r"^```(\w+)\n(.*?)^```$", section, flags=re.M | re.S)
    ]


def mjspec(folder: Path, command: str) -> subprocess.CompletedProcess[str]:
    argv = shlex.split(command)
    assert argv[0] == "mjspec", command
    env = {k: v for k, v in os.environ.items() if k != "MJSPEC_ROOT"}
    return subprocess.run(
        [sys.executable, "-m", "mjspec.app.cli", *argv[1:]],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
    )


def test_tutorial_runs_as_written(tmp_path: Path) -> None:
    blocks = tutorial_blocks()
    kinds = [k for k, _ in blocks]
    assert "yaml" in kinds and "markdown" in kinds and kinds.count("sh") >= 5
    pkg = tmp_path / "house_rules"  # an empty folder of the designer's
    pkg.mkdir()
    # What a build that wrote into the package would touch: its specs, engines and documents.
    package = [
        ROOT / "specs",
        ROOT / "generated",
        *(ROOT / "docs" / d for d in ("rules", "schema")),
    ]
    package += [p for folder in package for p in folder.rglob("*") if p.suffix != ".pyc"]
    before = {p: p.stat().st_mtime_ns for p in package if "__pycache__" not in p.parts}
    spec: Path | None = None
    ran: list[str] = []
    for i, (kind, text) in enumerate(blocks):
        if kind == "sh":
            commands = [
                line for line in text.splitlines() if line.strip() and not line.startswith("#")
            ]
            for command in commands:
                res = mjspec(pkg, command)
                ran.append(command)
                assert res.returncode == 0, f"{command}\n{res.stderr}"
                assert "Traceback" not in res.stderr
                for promised in PROMISED.get(command, ()):
                    assert (
                        promised in res.stdout
                    ), f"{command!r} no longer prints {promised!r}:\n{res.stdout[-2000:]}"
                if command.startswith("mjspec new "):
                    spec = pkg / "specs" / f"{shlex.split(command)[2]}.yaml"
                    assert spec.exists()
            if i + 1 < len(blocks) and blocks[i + 1][0] == "text":
                assert len(commands) == 1, "a text block shows the output of one command"
                assert (
                    res.stdout.rstrip() == blocks[i + 1][1].rstrip()
                ), f"output of {commands[0]!r} differs from the README"
        elif kind == "yaml":
            assert spec is not None, "the tutorial edits the spec `mjspec new` wrote"
            with spec.open("a", encoding="utf-8") as f:
                f.write("\n" + text)
        elif kind == "markdown":
            assert spec is not None
            document = (pkg / "docs" / "rules" / f"{spec.stem}.en.md").read_text("utf-8")
            assert (
                text in document
            ), "the excerpt of the rendered document in the README is out of date"
    assert spec is not None
    assert not set(PROMISED) - set(ran), "the README lost a command whose output this test checks"
    record = json.loads((pkg / "game.json").read_text("utf-8"))
    assert record["profile"] == "house_sichuan" and record["seed"] == 1, sorted(record)
    # What the tutorial built is fresh, and rendered in every language.
    check = mjspec(pkg, "mjspec build --check")
    assert check.returncode == 0, check.stderr
    for lang in ("en", "zh", "ja", "pt", "fr"):
        assert (pkg / "docs" / "rules" / f"{spec.stem}.{lang}.md").exists()
    assert f"]({spec.stem}.en.md)" in (pkg / "docs" / "rules" / "index.md").read_text("utf-8")
    assert (pkg / "generated" / f"{spec.stem}.py").exists()
    assert (pkg / "docs" / "schema" / "spec-1.json").read_bytes() == (
        ROOT / "docs" / "schema" / "spec-1.json"
    ).read_bytes()
    # The package is never written to: no file of the checkout changed, none was added.
    assert not list((ROOT / "generated").glob(f"*{spec.stem}*"))
    assert not list((ROOT / "docs" / "rules").glob(f"{spec.stem}.*"))
    changed = [p for p, t in before.items() if not p.exists() or p.stat().st_mtime_ns != t]
    assert changed == [], changed


def test_tutorial_plays_replays_and_simulates_the_house_rule() -> None:
    commands = [
        line for kind, text in tutorial_blocks() if kind == "sh" for line in text.splitlines()
    ]
    for verb in ("play", "replay", "simulate"):
        assert any(c.startswith(f"mjspec {verb} ") for c in commands), verb
    assert commands.index("mjspec play house_sichuan --seed 1 --record game.json") < commands.index(
        "mjspec replay game.json"
    )
