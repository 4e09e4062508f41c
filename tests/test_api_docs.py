"""docs/api.md runs as written, and the package root's public names are what it promises."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mjspec

ROOT = Path(__file__).resolve().parent.parent


def python_blocks(path: Path) -> list[str]:
    text = path.read_text("utf-8")
    return [m.group(1) for m in re.finditer(r"^```python\n(.*?)^```$", text, flags=re.M | re.S)]


def test_every_python_block_of_the_api_page_runs(tmp_path: Path) -> None:
    blocks = python_blocks(ROOT / "docs" / "api.md")
    assert len(blocks) >= 10
    namespace: dict[str, object] = {"__name__": "__api_docs__"}
    here = os.getcwd()
    os.chdir(tmp_path)
    out = io.StringIO()
    try:
        for i, block in enumerate(blocks):
            with contextlib.redirect_stdout(out):
                exec(compile(block, f"docs/api.md block {i + 1}", "exec"), namespace)
    finally:
        os.chdir(here)
    printed = out.getvalue()
    # What the page's prose promises of its examples:
    assert "unknown profile 'sichuan'; did you mean 'sichuan_tfmj'?" in printed
    assert "house extends sichuan_tfmj" in printed
    assert "broken.yaml" in printed  # the spec error names its file
    assert "refused:" in printed
    assert (tmp_path / "match.json").exists()
    # Each documented agent played a match of its game, seated from Python (tests/test_agents.py
    # runs the same files with --bots).
    for pid in ("riichi_tenhou", "sichuan_tfmj", "gb_mcr"):
        assert f"{pid} totals [" in printed
    house = namespace["house"]
    assert isinstance(house, mjspec.Profile) and house.id == "house"


def test_a_house_rule_from_a_folder_scores_by_its_own_rules(tmp_path: Path) -> None:
    """The cap of 4 the page's house rule states reaches its scoring: a hand of more than 4 fan
    pays 2 ** 4, where the parent (cap 3) pays 2 ** 3."""
    spec = (ROOT / "docs" / "api.md").read_text("utf-8").split('"""\\\n', 1)[1].split('"""', 1)[0]
    (tmp_path / "house.yaml").write_text(spec, encoding="utf-8")
    house = mjspec.load_profile("house", specs=tmp_path)
    hand = dict(
        tsumo=True,
        melds=["minkan:2222p", "pon:555p", "pon:333p", "pon:888p"],
        missing_suit="s",
        after_kong=True,
    )
    ours = mjspec.score_hand(house, "9p", "9p", **hand)  # type: ignore[arg-type]
    parents = mjspec.score_hand("sichuan_tfmj", "9p", "9p", **hand)  # type: ignore[arg-type]
    assert ours.total == parents.total and ours.total > 4
    assert ours.capped == 4 and parents.capped == 3
    assert ours.payments["each"] > parents.payments["each"]


def test_a_missing_spec_or_a_broken_one_is_refused_with_where(tmp_path: Path) -> None:
    with pytest.raises(mjspec.SpecFolderError, match="no such spec"):
        mjspec.load_profile("absent", specs=tmp_path)
    (tmp_path / "bad.yaml").write_text("id: bad\nextends: nowhere\n", encoding="utf-8")
    with pytest.raises(mjspec.SpecFolderError) as caught:
        mjspec.load_profile("bad", specs=tmp_path)
    assert any("bad.yaml:2" in e and "nowhere" in e for e in caught.value.errors), caught.value


def test_every_public_name_resolves_and_an_unknown_one_is_an_attribute_error() -> None:
    for name in mjspec.__all__:
        assert getattr(mjspec, name) is not None
    assert set(mjspec._PUBLIC) <= set(dir(mjspec))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        mjspec.nothing  # type: ignore[attr-defined]  # noqa: B018


def test_importing_the_package_loads_neither_the_compiler_nor_the_engines() -> None:
    code = (
        "import sys, mjspec\n"
        "mjspec.score_hand('sichuan_tfmj', '1112223334445m', '5m', tsumo=True, missing_suit='s')\n"
        "heavy = [m for m in sys.modules if m.startswith(('mjspec.compiler', 'black', 'jinja2',"
        " 'jsonschema', 'mjspec.generated.gb_mcr'))]\n"
        "print(heavy)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT.parent
    )
    assert done.stdout.strip() == "[]", done.stdout


def test_the_readme_python_example_runs(tmp_path: Path) -> None:
    blocks = python_blocks(ROOT / "README.md")
    assert blocks, "the README lost its Python example"
    here = os.getcwd()
    os.chdir(tmp_path)
    out = io.StringIO()
    try:
        for block in blocks:
            with contextlib.redirect_stdout(out):
                exec(compile(block, "README.md", "exec"), {"__name__": "__readme__"})
    finally:
        os.chdir(here)
    assert out.getvalue().splitlines()[-1] == "16"  # the GB match's hands, replayed
