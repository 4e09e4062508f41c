"""Words for readers: every formula in words, plural forms from the catalogs, the field's terms.

The rule documents show no spec expression as code: a form the describer (compiler/describe.py)
cannot word stops the build at the expression's place. Counts take the catalog's plural forms
(gettext's rules), and each language's glossary (msgctxt "glossary" in compiler/locale/*.po)
names the terms a profile's documents must use and the words they avoid.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mjspec.compiler.build import BuildOutput, Layout, compile_library
from mjspec.compiler.catalog import CatalogError, load_catalogs, parse_po
from mjspec.compiler.check import check
from mjspec.compiler.render import glossary, glossary_terms
from mjspec.compiler.resolve import SpecLibrary
from mjspec.runtime.text import LANGUAGES

from test_docs import BASE, child, make_layout


@pytest.fixture(scope="module")
def bundled(bundled_build: BuildOutput) -> dict[str, str]:
    rules = Layout.bundled().rules
    return {p.name: text for p, text in bundled_build.files.items() if p.parent == rules}


@pytest.fixture(scope="module")
def irs() -> dict[str, object]:
    layout = Layout.bundled()
    lib = SpecLibrary(layout.specs, layout.root)
    return {
        pid: check(lib.resolve_file(lib.path_of(pid)), expected_id=pid) for pid in lib.profile_ids()
    }


_CODE_SPAN = re.compile(r"`([^`]+)`")
#: What a spec expression looks like in code: calls, comparisons, attribute reads, conditionals.
_EXPRESSION = re.compile(r"\(|==|\bif\b|\belse\b|\bis_\w+|\b[a-z]\.\w|\bfor\b|//|\*\*")


def test_no_document_shows_an_expression_as_code(bundled: dict[str, str]) -> None:
    for name, doc in bundled.items():
        for span in _CODE_SPAN.findall(doc):
            assert not _EXPRESSION.search(span), (name, span)
        for raw in ("sum((", "option_on(", "counted(", "g.is_", "concealed_at_win"):
            assert raw not in doc, (name, raw)


def test_point_items_and_their_conditions_read_as_words(bundled: dict[str, str]) -> None:
    en = bundled["riichi_planet.en.md"]
    assert (
        "| **triplets and kans** | the sum, over each set of the hand (sequence, triplet or kong) "
        "where it is a triplet or kong, of (4 if it holds a terminal or an honor, otherwise 2) × "
        "(2 if it is concealed at the win, otherwise 1) × (4 if it is a kong, otherwise 1) | always"
        in en
    )
    assert "| 2 | the win is a self-draw and Pinfu does not count |" in en
    assert "the wait is an edge wait, a closed wait or a single wait on the pair" in en
    # the pair's wind: "is not None and ==" reads as one clause
    assert "(2 if the pair is of the seat wind, otherwise 0)" in en
    assert (
        "The hand's fu are then 25 if the hand is seven pairs, otherwise (the higher of (30 if the "
        "win is on a discard and the hand is open, otherwise 0) and (the sum of the items, rounded "
        "up to a multiple of 10))." in en
    )
    ja = bundled["riichi_planet.ja.md"]
    assert "門前かつ" in ja and "七対子なら25" in ja


def test_a_formula_the_documents_cannot_word_stops_the_build(tmp_path: Path) -> None:
    body = (
        'payments:\n  values:\n    unit: "2 ** min(fan, 3) + (fan if fan in (1, 2) else '
        '3)"\nexamples: []\n'
    )
    out = compile_library(make_layout(tmp_path, {"sichuan_tfmj": BASE, "house": child(body)}))
    assert out.errors
    message = "\n".join(map(str, out.errors))
    assert "specs/house.yaml:" in message
    assert "cannot put 'fan in (1, 2)'" in message and "into words" in message


def test_counts_take_the_catalogs_plural_forms(bundled: dict[str, str]) -> None:
    for name, doc in bundled.items():
        assert "(s)" not in doc, name
    assert "(at most one more round)" in bundled["riichi_tenhou.en.md"]
    assert "(au plus un tour de plus)" in bundled["riichi_tenhou.fr.md"]
    header = (
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
    )
    entry = (
        '#, python-brace-format\nmsgid "{count} round"\nmsgid_plural "{count} rounds"\n'
        'msgstr[0] "{count} tour"\nmsgstr[1] "{count} tours"\n'
    )
    cat = parse_po(header + entry, "x.po", "fr")
    assert [cat.lookup_plural("{count} round", n) for n in (0, 1, 2)] == [
        "{count} tour",
        "{count} tour",
        "{count} tours",
    ]
    with pytest.raises(CatalogError, match="1 plural form"):
        parse_po(header + entry.replace('msgstr[1] "{count} tours"\n', ""), "x.po", "fr")
    with pytest.raises(CatalogError, match="placeholders"):
        parse_po(header + entry.replace("{count} tours", "{n} tours"), "x.po", "fr")
    with pytest.raises(CatalogError, match="Plural-Forms"):
        parse_po(header.replace("nplurals=2; ", "") + entry, "x.po", "fr")
    assert load_catalogs()["ja"].nplurals == 1


def test_each_profiles_documents_use_the_glossary(
    bundled: dict[str, str], irs: dict[str, object]
) -> None:
    catalogs = load_catalogs()
    seen = set()
    for pid, ir in irs.items():
        for lang in LANGUAGES:
            doc = bundled[f"{pid}.{lang}.md"]
            use, avoid = glossary(ir, catalogs[lang])  # type: ignore[arg-type]
            for key, word in use.items():
                assert word in doc, (pid, lang, key, word)
                seen.add(key)
            for word in avoid:
                assert word not in doc, (pid, lang, word)
    assert seen == {"han", "limit", "east_game", "east_south_game"}
    ja = bundled["riichi_planet.ja.md"]
    assert "翻" in ja and "役満" in ja and "符" in ja and "東風戦" in ja
    assert "東南戦" in bundled["riichi_tenhou.ja.md"]
    assert glossary_terms(irs["gb_mcr"]) == []  # type: ignore[arg-type]


def test_impossible_payment_cells_are_empty_with_a_note(
    bundled: dict[str, str], irs: dict[str, object]
) -> None:
    from mjspec.app.registry import load_profile
    from mjspec.compiler.cells import least_totals
    from mjspec.compiler.render import example_hand
    from mjspec.runtime.scoring import evaluate

    en = bundled["riichi_planet.en.md"]
    # 1 han: 20 and 25 fu are empty on a discard and on a self-draw; 2 han 25 fu only on a
    # self-draw; 20 fu never on a discard
    assert "| 1 |  |  | 1000 | 1300 |" in en and "| 2 |  | 1600 | 2000 |" in en
    assert "| 1 |  |  | 500 / 300 |" in en and "| 2 | 700 / 400 |  | 1000 / 500 |" in en
    assert "| 3 |  | 3200 | 3900 |" in en and "| 3 | 1300 / 700 | 1600 / 800 |" in en
    assert (
        "no discard win has 20 fu" in en and "a self-drawn hand with 25 fu has at least 3 han" in en
    )
    assert "空欄" in bundled["riichi_planet.ja.md"]
    # sound: every worked example with points lies in a cell the analysis leaves filled
    for pid, ir in irs.items():
        if ir.points is None or not ir.points.shown:  # type: ignore[attr-defined]
            continue
        least = least_totals(ir)  # type: ignore[arg-type]
        prof = load_profile(pid)
        for ex in ir.examples:  # type: ignore[attr-defined]
            hand, ctx = example_hand(prof, ex)
            score = evaluate(prof, hand, ctx)
            if score.legal and not score.limit and score.fu in ir.points.shown:  # type: ignore
                assert score.total >= least[(ex.win == "tsumo", score.fu)], (pid, ex.name.en)
