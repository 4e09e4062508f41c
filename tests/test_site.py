"""The HTML site (``mjspec docs --html DIR``, compiler/site.py): every page, links that resolve,
tiles drawn as SVG, a language switcher, no script and no network resource; and, where Chromium
is installed, the pages as a browser shows them."""

from __future__ import annotations

import bisect
import functools
import html
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from mjspec.app.registry import load_profile
from mjspec.compiler.build import BuildOutput, Layout
from mjspec.compiler.profile_diff import diff_profiles
from mjspec.compiler.resolve import SpecLibrary
from mjspec.compiler.site import render_site, tile_symbol
from mjspec.runtime.text import LANGUAGES
from mjspec.runtime.tiles import Tile


class _Page(HTMLParser):
    """What the tests read of a page: its lang, links, tile uses and symbols, the switcher."""

    def __init__(self) -> None:
        super().__init__()
        self.lang = ""
        self.hrefs: list[str] = []
        self.uses: list[str] = []
        self.symbols: set[str] = set()
        self.tiles = 0
        self.switcher: list[tuple[str, str, bool]] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.add(tag)
        if tag == "html":
            self.lang = a.get("lang") or ""
        elif tag == "a":
            self.hrefs.append(a.get("href") or "")
            if a.get("hreflang"):
                self.switcher.append((a["hreflang"] or "", a["href"] or "", "aria-current" in a))
        elif tag == "use":
            self.uses.append(a.get("href") or "")
        elif tag == "symbol":
            self.symbols.add(a.get("id") or "")
        elif tag == "svg" and a.get("class") == "t":
            self.tiles += 1


@pytest.fixture(scope="module")
def site(bundled_build: BuildOutput, tmp_path_factory: pytest.TempPathFactory) -> Path:
    irs = bundled_build.profiles
    layout = Layout.bundled()
    lib = SpecLibrary(layout.specs, layout.root)
    diffs = {ir.id: diff_profiles(lib, ir.extends, ir.id) for ir in irs if ir.extends}
    pages, errors = render_site(irs, {ir.id: load_profile(ir.id) for ir in irs}, diffs)
    assert not errors, errors
    out = tmp_path_factory.mktemp("site")
    for name, text in pages.items():
        (out / name).write_text(text, "utf-8")
    return out


@functools.lru_cache(maxsize=None)
def _read(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text("utf-8"))
    return page


def test_every_page_is_there_and_every_link_resolves(
    site: Path, bundled_build: BuildOutput
) -> None:
    irs = bundled_build.profiles
    expected = {"index.html"} | {f"index.{lang}.html" for lang in LANGUAGES}
    for ir in irs:
        expected |= {f"{ir.id}.{lang}.html" for lang in LANGUAGES}
        if ir.extends:
            expected |= {f"{ir.id}.diff.{lang}.html" for lang in LANGUAGES}
    assert {p.name for p in site.iterdir()} == expected
    for path in sorted(site.iterdir()):
        text = path.read_text("utf-8")
        page = _read(path)
        lang = "en" if path.name == "index.html" else path.name.split(".")[-2]
        assert page.lang == lang, path.name
        for href in page.hrefs:
            assert not re.match(r"[a-z]+:", href), (path.name, href)  # no network, no scheme
            assert (site / href.split("#")[0]).is_file(), (path.name, href)
        assert "script" not in page.tags and "<mj-tiles" not in text, path.name
        assert not re.search(r"\bsrc=|url\(|@import", text), path.name  # nothing loaded
        # no character of the Mahjong Tiles block: tiles are drawn, so no font needs them
        assert not any(0x1F000 <= ord(c) <= 0x1F02F for c in text), path.name
        # the language switcher: every language, each to the same page in it, this one current
        assert [s[0] for s in page.switcher[: len(LANGUAGES)]] == list(LANGUAGES), path.name
        for other, href, current in page.switcher[: len(LANGUAGES)]:
            assert current == (other == lang), (path.name, other)
            assert _read(site / href).lang == other


def test_tiles_are_svg_drawn_from_tile_data(site: Path, bundled_build: BuildOutput) -> None:
    for ir in bundled_build.profiles:
        for lang in LANGUAGES:
            page = _read(site / f"{ir.id}.{lang}.html")
            assert page.tiles >= 27 and page.tiles == len(page.uses), (ir.id, lang)
            assert {u.lstrip("#") for u in page.uses} == page.symbols, (ir.id, lang)
    riichi = (site / "riichi_planet.en.html").read_text("utf-8")
    assert "aria-label='0p'" in riichi  # the red five of circles, drawn as its own kind
    # the drawings' letters are digits and Latin capitals, which every font has
    for k in range(42):
        for letter in re.findall(r">([^<>]+)</text>", tile_symbol(Tile(k))):
            assert re.fullmatch(r"[0-9A-Z]", letter), (k, letter)


def test_cells_no_hand_reaches_are_hatched(site: Path, bundled_build: BuildOutput) -> None:
    from mjspec.compiler.cells import least_totals

    for ir in bundled_build.profiles:
        text = (site / f"{ir.id}.en.html").read_text("utf-8")
        expected = 0
        if ir.points is not None and ir.points.shown:
            least = least_totals(ir)
            expected = 2 * sum(  # the tables of a dealer's win and of another player's
                1 for (_tsumo, _pts), total in least.items() for n in range(1, 14) if n < total
            )
        assert text.count('<td class="empty">') == expected, ir.id
        assert expected or ir.id != "riichi_planet"  # riichi has such cells (1 han 20 fu...)


def test_diff_pages_list_what_a_child_changes(site: Path) -> None:
    text = (site / "riichi_tenhou_east.diff.en.html").read_text("utf-8")
    assert "<code>match.rounds</code></td><td>2</td><td>1</td>" in text
    ja = (site / "riichi_tenhou_east.diff.ja.html").read_text("utf-8")
    assert "東風戦" in ja  # the rule reading, in the page's language


def test_docs_html_refuses_a_file_for_its_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mjspec.app.cli import main

    target = tmp_path / "site"
    target.write_text("not a folder", "utf-8")
    assert main(["docs", "--html", str(target)]) == 2
    assert "is not a folder (nothing was written)" in capsys.readouterr().err
    assert target.read_text("utf-8") == "not a folder"


def test_the_site_is_deterministic(bundled_build: BuildOutput) -> None:
    irs = [ir for ir in bundled_build.profiles if ir.id == "sichuan_tfmj"]
    engines = {"sichuan_tfmj": load_profile("sichuan_tfmj")}
    first, _ = render_site(irs, engines, {})
    second, _ = render_site(irs, engines, {})
    assert first == second and first


_CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.slow  # about 10 s: two browser starts
@pytest.mark.skipif(_CHROMIUM is None, reason="no chromium on this machine")
def test_pages_in_a_headless_browser(site: Path, tmp_path: Path) -> None:
    """Chromium loads a page: its DOM holds every tile as an SVG element that the browser kept,
    and the screenshot is a real picture."""
    assert _CHROMIUM is not None
    page = site / "riichi_planet.ja.html"
    base = [_CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    dom = subprocess.run(
        [*base, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120
    ).stdout
    assert dom.count('<svg class="t"') == _read(page).tiles > 100
    assert '<html lang="ja">' in dom and "東風戦" in dom
    shot = tmp_path / "page.png"
    subprocess.run(
        [*base, "--window-size=390,900", f"--screenshot={shot}", page.as_uri()],
        capture_output=True,
        timeout=120,
    )
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


@pytest.mark.skipif(
    _CHROMIUM is None or shutil.which("fc-list") is None,
    reason="no browser set up on this machine (chromium and fontconfig)",
)
def test_every_character_of_the_site_has_a_font_here(site: Path) -> None:
    """No page shows a missing-glyph box on this machine: every character of its text is in the
    charset of an installed font (fontconfig's), the tiles being drawings, not characters."""
    listing = subprocess.run(
        ["fc-list", "--format=%{charset}\\n"], capture_output=True, text=True, timeout=60
    ).stdout
    ranges = []
    for part in listing.split():
        low, _, high = part.partition("-")
        ranges.append((int(low, 16), int(high or low, 16)))
    if not ranges:
        pytest.skip("fontconfig lists no font")
    merged: list[tuple[int, int]] = []
    for low, high in sorted(ranges):
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    starts = [low for low, _ in merged]

    def covered(c: str) -> bool:
        i = bisect.bisect_right(starts, ord(c)) - 1
        return i >= 0 and ord(c) <= merged[i][1]

    for path in sorted(site.iterdir()):
        text = re.sub(r"<style>.*?</style>", "", path.read_text("utf-8"), flags=re.S)
        shown = set(html.unescape(re.sub(r"<[^>]+>", "", text)))
        missing = sorted(c for c in shown if ord(c) >= 0x20 and not covered(c))
        assert not missing, (path.name, [hex(ord(c)) for c in missing[:10]])
