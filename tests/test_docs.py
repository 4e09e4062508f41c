"""Rule documents: rendered for every profile in five languages from the spec, the catalogs and the
engine.

A document's wording comes from the message catalogs (a missing entry stops
the build, naming the msgid and the language), its rule words from the spec,
and every figure from the profile's engine.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from mjspec.compiler.build import BuildOutput, Layout, compile_library, stale_files, write_outputs
from mjspec.compiler.catalog import CatalogError, load_catalogs, parse_po, placeholders
from mjspec.compiler.check import check
from mjspec.compiler.render import (
    Md,
    Translator,
    all_messages,
    escape_md,
    example_hand,
    load_engine,
    load_engine_module,
    render_document,
    render_rule_documents,
)
from mjspec.compiler.emit import render_engine
from mjspec.compiler.resolve import SpecLibrary
from mjspec.app.registry import load_profile, profile_ids
from mjspec.runtime.scoring import compute_payments, evaluate
from mjspec.runtime.text import LANGUAGES
from mjspec.runtime.tiles import Tile, parse_tiles

from conftest import ROOT

BASE = (ROOT / "specs" / "sichuan_tfmj.yaml").read_text("utf-8")
LOCALE = ROOT / "compiler" / "locale"


def make_layout(tmp_path: Path, specs: dict[str, str], locale: Path | None = None) -> Layout:
    spec_dir = tmp_path / "specs"
    spec_dir.mkdir(parents=True)
    for name, text in specs.items():
        (spec_dir / f"{name}.yaml").write_text(text, "utf-8")
    (tmp_path / "generated").mkdir()
    return dataclasses.replace(Layout.at(tmp_path), locale=locale)


def child(body: str, pid: str = "house") -> str:
    names = "{en: House rule, zh: 家规, ja: ハウスルール, pt: Regra da casa, fr: Règle maison}"
    return f"id: {pid}\nextends: sichuan_tfmj\nnames: {names}\n{body}"


def docs_of(
    tmp_path: Path, specs: dict[str, str], locale: Path | None = None
) -> tuple[Layout, dict[str, str]]:
    layout = make_layout(tmp_path, specs, locale)
    out = compile_library(layout)
    assert not out.errors, "\n".join(map(str, out.errors))
    return layout, {p.name: text for p, text in out.files.items() if p.parent == layout.rules}


@pytest.fixture(scope="module")
def bundled(bundled_build: BuildOutput) -> dict[str, str]:
    rules = Layout.bundled().rules
    return {p.name: text for p, text in bundled_build.files.items() if p.parent == rules}


# ---- what is rendered -----------------------------------------------------------------


def test_every_profile_renders_in_every_language_with_an_index(bundled: dict[str, str]) -> None:
    ids = profile_ids()
    assert set(bundled) == {f"{pid}.{lang}.md" for pid in ids for lang in LANGUAGES} | {"index.md"}
    index = bundled["index.md"]
    for pid in ids:
        prof = load_profile(pid)
        assert f"`{pid}`" in index and prof.source.book in index
        for lang in LANGUAGES:
            assert f"]({pid}.{lang}.md)" in index


def test_bundled_documents_are_fresh_on_disk(bundled: dict[str, str]) -> None:
    rules = Layout.bundled().rules
    for name, text in bundled.items():
        assert (rules / name).read_text(
            "utf-8"
        ) == text, f"docs/rules/{name} is stale: run `mjspec build`"


def test_sections_players_expect(bundled: dict[str, str]) -> None:
    doc = bundled["sichuan_tfmj.en.md"]
    headings = re.findall(r"^## (.+)$", doc, flags=re.M)
    for needed in (
        "Quick reference",
        "Tiles and deal",
        "Opening",
        "Calls and priority",
        "Winning",
        "Scoring patterns",
        "Payments",
        "Worked examples",
        "Exhaustive draw",
        "Match length and dealer",
        "Rule readings",
    ):
        assert needed in headings, needed
    assert headings.index("Quick reference") == 0


def test_rule_words_come_from_the_spec_in_each_language(bundled: dict[str, str]) -> None:
    prof = load_profile("sichuan_tfmj")
    for lang in LANGUAGES:
        doc = bundled[f"sichuan_tfmj.{lang}.md"]
        assert doc.splitlines()[2] == f"# {escape_md(prof.names.get(lang))}"
        for p in prof.patterns:
            assert escape_md(p.names.get(lang)) in doc, (lang, p.id)


def test_template_wording_is_translated(bundled: dict[str, str]) -> None:
    english = set(re.findall(r"^##+ .+$", bundled["sichuan_tfmj.en.md"], flags=re.M))
    for lang in ("zh", "ja", "pt", "fr"):
        doc = bundled[f"sichuan_tfmj.{lang}.md"]
        left = english & set(re.findall(r"^##+ .+$", doc, flags=re.M))
        assert not left, (lang, left)
    assert (
        "## 速览" in bundled["sichuan_tfmj.zh.md"] and "## 早見表" in bundled["sichuan_tfmj.ja.md"]
    )


def test_payment_table_is_the_engines(bundled: dict[str, str]) -> None:
    prof = load_profile("sichuan_tfmj")
    doc = bundled["sichuan_tfmj.en.md"]
    assert prof.cap is not None
    for fan in range(prof.cap + 2):
        capped = min(fan, prof.cap)
        ron = compute_payments(prof, fan, capped, False, False)["discarder"]
        tsumo = compute_payments(prof, fan, capped, True, False)["each"]
        label = str(fan) if fan <= prof.cap else f"{fan} or more"
        assert f"| {label} | {2 ** capped} | {ron} | {tsumo} |" in doc


def test_payment_table_follows_a_changed_formula(tmp_path: Path) -> None:
    body = 'scoring: {cap: 4}\npayments:\n  values:\n    unit: "3 ** min(fan, 4)"\nexamples: []\n'
    _, docs = docs_of(tmp_path, {"sichuan_tfmj": BASE, "house": child(body)})
    doc = docs["house.en.md"]
    assert "| 4 | 81 | 81 | 82 |" in doc and "| 5 or more | 81 | 81 | 82 |" in doc
    assert "*unit* = 3^(the lower of fan and 4)" in doc  # the formula, read aloud
    assert "Worked examples" not in doc  # no examples, no section


def test_payment_formulas_read_as_arithmetic_and_words(bundled: dict[str, str]) -> None:
    """Payment lines show formulas with signs and words (options by name), never the spec's raw
    expression."""
    for name, doc in bundled.items():
        if not name.endswith(".en.md"):
            continue
        row = next(line for line in doc.splitlines() if line.startswith("| Payment |"))
        for raw in ("option_on(", "option_value(", " ** ", "min(", " else ", "//"):
            assert raw not in row, (name, raw, row)
    english = bundled["classical_xmj.en.md"]
    assert (
        "each player other than East pays *score* × (2 if the winner is the dealer and option "
        "“EastDoubles” is on, otherwise 1)" in english
    )
    assert (
        "*counted* = the lower of points × 2^(the lower of doubles and 27) and 100000000" in english
    )
    riichi = bundled["riichi_planet.en.md"]
    assert (
        "((6 if the winner is the dealer, otherwise 4) × *base*, rounded up to a multiple of "
        "100) + 300 × the honba count" in riichi
    )
    assert "8000 if han ≥ 13; 6000 if han ≥ 11;" in riichi


def test_worked_examples_show_the_engines_result(bundled: dict[str, str]) -> None:
    for pid in profile_ids():
        prof = load_profile(pid)
        doc = bundled[f"{pid}.en.md"]
        if not prof.examples:
            assert "## Worked examples" not in doc
            continue
        blocks = re.split(r"^### ", doc.split("## Worked examples", 1)[1], flags=re.M)[1:]
        assert len(blocks) == len(prof.examples)
        for block, ex in zip(blocks, prof.examples):
            hand, ctx = example_hand(prof, ex)  # type: ignore[arg-type]
            score = evaluate(prof, hand, ctx)
            assert f"`{ex.concealed}`" in block
            assert f"`{ex.win_tile}`" in block
            if score.legal:
                assert f"**Total:** {score.total} {prof.total_unit}" in block
                for amount in score.payments.values():
                    assert f"pays {amount}" in block
            else:
                assert "**Result:** not a win" in block


def test_markdown_tiles_need_no_special_font(bundled: dict[str, str]) -> None:
    """Tiles are mpsz text in the Markdown documents: no character of the Mahjong Tiles block,
    which most fonts lack (the HTML site draws tiles as SVG)."""
    for name, doc in bundled.items():
        assert not any(0x1F000 <= ord(c) <= 0x1F02F for c in doc), name


def test_table_rules_are_read_only_where_the_engine_plays_them(tmp_path: Path) -> None:
    """The renderer reads the typed table rules (``ir.table``) only for a playable profile: with
    ``playable`` false it never touches them, and the table sections do not appear."""
    lib = SpecLibrary(ROOT / "specs", ROOT)
    ir = check(lib.resolve_file(lib.path_of("sichuan_tfmj")), expected_id="sichuan_tfmj")
    engine = load_engine(render_engine(ir), ir.id)

    class Untouchable:
        def __getattribute__(self, name: str) -> Any:
            raise AssertionError(f"the renderer read table.{name} of a profile it does not play")

    untouchable = Untouchable()
    unplayed = dataclasses.replace(ir, playable=False, table=untouchable)  # type: ignore[arg-type]
    tr = Translator("en", load_catalogs()["en"])
    doc = render_document(unplayed, engine, "en", tr, {ir.id: ir.names})
    assert not tr.missing
    for heading in (
        "Opening",
        "Calls and priority",
        "Exhaustive draw",
        "Match length and dealer",
        "Kong payments",
    ):
        assert f"## {heading}" not in doc
    for heading in ("Quick reference", "Scoring patterns", "Payments"):
        assert f"## {heading}" in doc
    played = render_document(ir, engine, "en", tr, {ir.id: ir.names})
    assert "## Calls and priority" in played and "## Exhaustive draw" in played


def test_spec_strings_cannot_inject_markdown(tmp_path: Path) -> None:
    import json

    nasty = "Evil | <script>x</script> [link](http://x) **b** _i_ {{ ir }}\n# heading"
    q = json.dumps(nasty)
    body = (
        "scoring:\n  patterns:\n"
        f"    root: {{names: {{en: {q}, zh: {q}, ja: {q}, pt: {q}, fr: {q}}}, definition: "
        f"{{en: {q}, zh: {q}, ja: {q}, pt: {q}, fr: {q}}}}}\n"
    )
    _, docs = docs_of(tmp_path, {"sichuan_tfmj": BASE, "house": child(body)})
    for lang in LANGUAGES:
        doc = docs[f"house.{lang}.md"]
        assert "<script>" not in doc and "\n# heading" not in doc
        assert not re.search(r"(?<!\\)\[link(?<!\\)\]\(", doc)  # the link stayed text
        row = next(line for line in doc.splitlines() if "Evil" in line and line.startswith("| **"))
        assert len(re.findall(r"(?<!\\)\|", row)) == 5, row  # four cells: the pipe stayed text


def test_rendering_is_deterministic(bundled_build: BuildOutput) -> None:
    """The documents rendered a second time, in the same process, from the same profiles and the
    engines the build made, are the same bytes (the session build is not compiled again for it:
    that the whole output does not depend on the hash seed is test_compiler's to show)."""
    first = bundled_build.files
    layout = Layout.bundled()
    irs = {ir.id: ir for ir in bundled_build.profiles}
    modules: dict[str, ModuleType] = {}

    def load(pid: str) -> None:  # a child's module imports its parent's: the parent first
        parent = irs[pid].extends
        if parent is not None and parent not in modules:
            load(parent)
        modules[pid] = load_engine_module(first[layout.generated / f"{pid}.py"], pid, modules)

    for pid in irs:
        if pid not in modules:
            load(pid)
    engines = {pid: module.PROFILE for pid, module in modules.items()}
    second, errors = render_rule_documents(bundled_build.profiles, engines, layout.rules)
    docs = sorted(p for p in first if p.suffix == ".md")
    assert not errors and docs and sorted(second) == docs
    assert all(first[p].encode() == second[p].encode() for p in docs)


def test_stale_and_orphaned_documents_are_reported(tmp_path: Path) -> None:
    layout = make_layout(tmp_path, {"sichuan_tfmj": BASE})
    write_outputs(layout, compile_library(layout))
    assert stale_files(layout, compile_library(layout)) == []
    doc = layout.rules / "sichuan_tfmj.fr.md"
    doc.write_text(doc.read_text("utf-8") + "edited\n", "utf-8")
    orphan = layout.rules / "gone.en.md"
    orphan.write_text("old\n", "utf-8")
    stale = stale_files(layout, compile_library(layout))
    assert doc in stale and orphan in stale
    write_outputs(layout, compile_library(layout))
    assert not orphan.exists() and stale_files(layout, compile_library(layout)) == []


# ---- the catalogs ------------------------------------------------------------------------


def test_every_catalog_has_exactly_the_messages_used() -> None:
    used = all_messages()
    for lang, cat in load_catalogs().items():
        have = set(cat.messages)
        assert not used - have, (lang, sorted(used - have))
        assert not have - used, (lang, "stale entries", sorted(have - used))
        for key, m in cat.messages.items():
            if placeholders(key[1]):
                assert "python-brace-format" in m.flags, (lang, key)


def _copy_locale(tmp_path: Path) -> Path:
    dest = tmp_path / "locale"
    shutil.copytree(LOCALE, dest)
    return dest


def _drop_entry(po: Path, msgid: str) -> None:
    text = po.read_text("utf-8")
    pattern = re.compile(r'(#[^\n]*\n)*msgid "' + re.escape(msgid) + r'"\nmsgstr "[^\n]*"\n\n?')
    new, n = pattern.subn("", text)
    assert n == 1
    po.write_text(new, "utf-8")


def test_missing_catalog_entry_is_a_build_error_naming_msgid_and_language(tmp_path: Path) -> None:
    locale = _copy_locale(tmp_path)
    _drop_entry(locale / "ja.po", "Quick reference")
    _drop_entry(locale / "fr.po", "Rule readings")
    layout = make_layout(tmp_path / "p", {"sichuan_tfmj": BASE}, locale)
    out = compile_library(layout)
    errors = [str(e) for e in out.errors]
    assert (
        f"{locale / 'ja.po'}: the entry for msgid 'Quick reference' (language ja) is missing"
        in "\n".join(errors)
    )
    assert any("(language fr)" in e and "'Rule readings'" in e for e in errors), errors
    assert not [p for p in out.files if p.suffix == ".md"]


def test_fuzzy_or_empty_entry_counts_as_missing(tmp_path: Path) -> None:
    locale = _copy_locale(tmp_path)
    po = locale / "pt.po"
    po.write_text(
        po.read_text("utf-8").replace(
            'msgid "Quick reference"\n', '#, fuzzy\nmsgid "Quick reference"\n'
        ),
        "utf-8",
    )
    po = locale / "zh.po"
    po.write_text(
        po.read_text("utf-8").replace(
            'msgid "Worked examples"\nmsgstr "计分示例"', 'msgid "Worked examples"\nmsgstr ""'
        ),
        "utf-8",
    )
    out = compile_library(make_layout(tmp_path / "p", {"sichuan_tfmj": BASE}, locale))
    errors = [str(e) for e in out.errors]
    assert any(
        "(language pt)" in e and "'Quick reference'" in e and "untranslated" in e for e in errors
    ), errors
    assert any("(language zh)" in e and "'Worked examples'" in e for e in errors), errors


def test_catalog_problems_are_located() -> None:
    header = (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n\n'
    )
    cases = {
        '#, python-brace-format\nmsgid "{count} tiles"\nmsgstr "{nombre} tuiles"\n': (
            "x.po:6",
            "placeholders {count}",
        ),
        'msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n': ("x.po:9", "duplicate entry"),
        'msgid "a"\nmsgstr "b\\q"\n': ("x.po:7", "unknown escape"),
        'msgid "a"\nmsgid_plural "as"\nmsgstr[0] "b"\n': ("x.po:6", "1 plural form(s)"),
        'msgid "a"\nmsgstr "b"\nbogus\n': ("x.po:8", "cannot read"),
    }
    for body, (where, what) in cases.items():
        with pytest.raises(CatalogError) as e:
            parse_po(header + body, "x.po", "fr")
        assert str(e.value).startswith(where) and what in str(e.value), str(e.value)
    with pytest.raises(CatalogError, match="expected 'fr'"):
        parse_po(header.replace("Language: fr", "Language: de"), "x.po", "fr")


def test_po_reader_reads_continuations_context_and_escapes() -> None:
    text = (
        '# comment\nmsgid ""\nmsgstr ""\n"Language: ja\\n"\n"Content-Type: text/plain; '
        'charset=UTF-8\\n"\n\n'
        'msgctxt "list separator"\nmsgid ", "\nmsgstr "、"\n\n'
        'msgid ""\n"two "\n"lines"\nmsgstr "二"\n"行 \\"q\\"\\n"\n\n'
        '#~ msgid "old"\n#~ msgstr "古"\n'
    )
    cat = parse_po(text, "ja.po", "ja")
    assert cat.lookup(", ", "list separator") == "、"
    assert cat.lookup("two lines") == '二行 "q"\n'
    assert cat.lookup("old") is None and cat.headers["Language"] == "ja"


def test_missing_catalog_file_is_an_error(tmp_path: Path) -> None:
    locale = _copy_locale(tmp_path)
    (locale / "pt.po").unlink()
    out = compile_library(make_layout(tmp_path / "p", {"sichuan_tfmj": BASE}, locale))
    assert any("no message catalog for language 'pt'" in str(e) for e in out.errors)


# ---- example names, clocks, playable, section references ---------------------------------


def test_example_headings_carry_the_name_in_each_language(bundled: dict[str, str]) -> None:
    for pid in profile_ids():
        prof = load_profile(pid)
        for lang in LANGUAGES:
            headings = re.findall(r"^### (.+)$", bundled[f"{pid}.{lang}.md"], flags=re.M)
            assert len(headings) == len(prof.examples)
            for heading, ex in zip(headings, prof.examples):
                assert ex.names is not None and ex.names.en == ex.name
                assert escape_md(ex.names.get(lang)) in heading, (pid, lang, heading)


EXAMPLE = (
    "concealed: 111m234567m234p9p, win_tile: 9p, win: ron, context: {missing_suit: s}, "
    "expect: {legal: true}"
)


@pytest.mark.parametrize(
    "name,needles",
    [
        ("{en: x, zh: x, ja: x, fr: x}", ("examples[0].name.pt", "missing pt translation")),
        ("{en: x}", ("examples[0].name.zh", "examples[0].name.fr")),
        (
            "just english",
            ("examples[0].name", "every language (en, zh, ja, pt, fr)", "'just english'"),
        ),
    ],
)
def test_example_name_needs_every_language(
    tmp_path: Path, name: str, needles: tuple[str, ...]
) -> None:
    layout = make_layout(
        tmp_path,
        {"sichuan_tfmj": BASE, "house": child(f"examples:\n  - {{name: {name}, {EXAMPLE}}}\n")},
    )
    errors = "\n".join(map(str, compile_library(layout).errors))
    assert "house.yaml:" in errors, errors
    for needle in needles:
        assert needle in errors, (needle, errors)


def test_clock_names_come_from_the_spec(bundled: dict[str, str]) -> None:
    lib = SpecLibrary(ROOT / "specs", ROOT)
    ir = check(lib.resolve_file(lib.path_of("sichuan_planet")), expected_id="sichuan_planet")
    assert ir.clock_names and [cid for cid, _ in ir.clock_names] == [c.id for c in ir.table.clocks]
    catalogs = load_catalogs()
    for lang in LANGUAGES:
        doc = bundled[f"sichuan_planet.{lang}.md"]
        tr = Translator(lang, catalogs[lang])
        for clock, (cid, names) in zip(ir.table.clocks, ir.clock_names):
            seconds = [tr("{seconds} s", seconds=n) for n in (clock.per_action, clock.reserve)]
            assert f"| {escape_md(names.get(lang))} | {seconds[0]} | {seconds[1]} |" in doc, (
                lang,
                cid,
            )
    assert (
        "| Relax |" in bundled["sichuan_planet.fr.md"]
        and "| 子弹 |" in bundled["sichuan_planet.zh.md"]
    )


def test_a_profile_that_is_not_playable_says_so_and_states_no_table_rules(tmp_path: Path) -> None:
    _, docs = docs_of(tmp_path, {"sichuan_tfmj": BASE, "house": child("playable: false\n")})
    catalogs = load_catalogs()
    for lang in LANGUAGES:
        doc = docs[f"house.{lang}.md"]
        tr = Translator(lang, catalogs[lang])
        notice = str(
            tr(
                "**Not playable yet.** The engine scores this profile's hands, but it does not "
                "implement the profile's table rules (the opening, calls, win flow, kong "
                "payments, exhaustive draw and match) yet. This page leaves them out, and "
                "{play} and {simulate} refuse the profile.",
                play="`mjspec play`",
                simulate="`mjspec simulate`",
            )
        )
        assert not tr.missing and notice.split("**")[1] in doc, lang
        headings = set(re.findall(r"^## (.+)$", doc, flags=re.M))
        for title in (
            "Opening",
            "Calls and priority",
            "Win flow and passing",
            "Kong payments",
            "Exhaustive draw",
            "Match length and dealer",
        ):
            assert f"{tr(title)}" not in headings, (lang, title)
        for title in (
            "Quick reference",
            "Winning",
            "Scoring patterns",
            "Payments",
            "Worked examples",
        ):
            assert f"{tr(title)}" in headings, (lang, title)
        assert f"| {tr('Table play')} | {tr('not implemented by the engine yet')} |" in doc
    english = docs["house.en.md"]
    assert (
        "Not playable yet." in english
        and "Bloody Battle: " not in english
        and "kong income" not in english
    )
    assert "**Calls**" not in english  # no reading of an unplayed table rule either
    parent = docs["sichuan_tfmj.en.md"]
    assert "Not playable" not in parent and "## Calls and priority" in parent


def test_sichuan_planet_cites_only_its_own_book(bundled: dict[str, str]) -> None:
    """Book 004 names its sections; nothing on the planet pages may cite book 000's §-marks."""
    for lang in LANGUAGES:
        doc = bundled[f"sichuan_planet.{lang}.md"]
        assert "§" not in doc, (lang, [line for line in doc.splitlines() if "§" in line][:3])
    english = bundled["sichuan_planet.en.md"]
    assert (
        "*Rule book: “Tours, annonces et départ après une victoire”; “Kongs, vol et passage”*"
        in english
    )
    assert "| Modèles de notation; Kongs, vol et passage |" in english
    assert (
        "*Livre de règles : «\u00a0Tuiles et l'ouverture\u00a0»*" in bundled["sichuan_planet.fr.md"]
    )
    assert "§7" in bundled["sichuan_tfmj.en.md"]


def test_section_references_split_marks_and_titles() -> None:
    from mjspec.compiler.render import _section_parts

    assert _section_parts("§9, §10") == ["§9", "§10"]
    assert _section_parts("Tours, annonces et départ après une victoire") == [
        "Tours, annonces et départ après une victoire"
    ]
    assert _section_parts("Modèles de notation; Kongs, vol et passage") == [
        "Modèles de notation",
        "Kongs, vol et passage",
    ]
    assert _section_parts("§3; Modèles de notation") == ["§3", "Modèles de notation"]
    assert _section_parts(" ") == []


# ---- pattern definitions and the relations between patterns -----------------------------


def _profiles_ir() -> list[Any]:
    lib = SpecLibrary(ROOT / "specs", ROOT)
    return [check(lib.resolve_file(lib.path_of(pid)), expected_id=pid) for pid in lib.profile_ids()]


def undefined_patterns(profiles: list[Any], docs: dict[str, str]) -> list[tuple[str, str, str]]:
    """(profile, pattern, language) for every pattern of a playable profile whose definition is
    missing from the spec or not in the pattern's row of that language's document."""
    missing = []
    for ir in profiles:
        if not ir.playable:
            continue
        for p in ir.patterns:
            for lang in LANGUAGES:
                text = p.definition.get(lang).strip() if p.definition is not None else ""
                head = f"| **{escape_md(p.names.get(lang))}** |"
                rows = [
                    line
                    for line in docs[f"{ir.id}.{lang}.md"].splitlines()
                    if line.startswith(head)
                ]
                if not text or len(rows) != 1 or f"| {escape_md(text)} |" not in rows[0]:
                    missing.append((ir.id, p.id, lang))
    return missing


def test_every_pattern_of_a_playable_profile_is_defined_in_every_document(
    bundled: dict[str, str]
) -> None:
    profiles = _profiles_ir()
    assert any(ir.id == "gb_mcr" and len(ir.patterns) == 81 for ir in profiles)
    assert undefined_patterns(profiles, bundled) == []


def test_a_removed_definition_is_caught(tmp_path: Path) -> None:
    spec = (ROOT / "specs" / "gb_mcr.yaml").read_text("utf-8")
    block = re.search(
        r"^(    flower_tiles:\n(?:      .*\n)*?)(      definition:\n(?:        .*\n)+)",
        spec,
        flags=re.M,
    )
    assert block is not None, "flower_tiles has no definition block to remove"
    layout, docs = docs_of(tmp_path, {"gb_mcr": spec[: block.start(2)] + spec[block.end(2) :]})
    lib = SpecLibrary(layout.specs, layout.root)
    ir = check(lib.resolve_file(lib.path_of("gb_mcr")), expected_id="gb_mcr")
    assert undefined_patterns([ir], docs) == [
        ("gb_mcr", "flower_tiles", lang) for lang in LANGUAGES
    ]


def test_gb_relations_are_explained_in_every_language(bundled: dict[str, str]) -> None:
    """win.minimum with `without`, `combine`, `excludes`, `fallback` and
    `bonus` each have a plain-words note in the patterns or winning section."""
    catalogs = load_catalogs()
    for lang in LANGUAGES:
        tr = Translator(lang, catalogs[lang])
        doc = bundled[f"gb_mcr.{lang}.md"]
        names = {p.id: escape_md(p.names.get(lang)) for p in load_profile("gb_mcr").patterns}
        unit = tr("fan")
        floor = tr(
            "{text} ({reference})",
            text=tr("{total} {unit}", total=8, unit=unit),
            reference=tr("rule book {section}", section="§4"),
        )
        expected = [
            tr(
                "A hand is a win only if it scores at least {floor} without counting "
                "{patterns}, which still add to the total once it wins.",
                floor=floor,
                patterns=Md(names["flower_tiles"]),
            ),
            tr(
                "Formed by {sets}: {patterns}.",
                sets=tr("{count} triplets or kongs", count=4),
                patterns=tr.join(
                    [Md(names["big_four_winds"]), Md(names["four_pure_shifted_pungs"])]
                ),
            ),
            tr(
                "{pattern} counts only when no other pattern counts, {bonus} aside.",
                pattern=Md(names["chicken_hand"]),
                bonus=Md(names["flower_tiles"]),
            ),
            tr(
                "Always counted when met, never removed by another pattern and removing none: "
                "{patterns}.",
                patterns=Md(names["flower_tiles"]),
            ),
        ]
        for text in expected:
            assert str(text) in doc, (lang, text)
        assert not tr.missing, tr.missing
