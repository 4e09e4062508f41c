"""The rule documents as an HTML site: ``mjspec docs --html DIR``.

Every profile in every language (``<id>.<lang>.html``), an index of the profiles per language
(``index.<lang>.html``, and ``index.html`` in English) and, for a profile that extends another,
the rules on which it differs from its parent (``<id>.diff.<lang>.html``, from
:mod:`compiler.profile_diff`). The pages are made from the same document model as the Markdown
(``render._Builder``), so their words and figures are the documents'; only the markup differs:

- tiles are drawn as inline SVG (one ``<symbol>`` per kind a page shows, one ``<use>`` per tile),
  from the tile's suit and number: a digit and a suit mark, a Latin letter for a wind, shapes for
  the dragons and flowers. No font needs the Mahjong Tiles block, and the mpsz text stands beside
  them for copying and for screen readers;
- every page carries its own CSS (read on a phone, printed on paper), a language switcher, and
  links only to pages of the site: no script, no network resource.

Output is deterministic (the same specs give the same bytes). The site is not part of ``mjspec
build``: the repository keeps the Markdown documents for browsing, and the site (some megabytes of
tables) is made on demand.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any, Mapping, Sequence

from mjspec.runtime.profile import Profile
from mjspec.runtime.text import LANGUAGES, Text
from mjspec.runtime.tiles import Suit, Tile, parse_tiles

from .catalog import load_catalogs
from .errors import SpecError
from .ir import ProfileIR
from .render import (
    IMPOSSIBLE,
    LANGUAGE_NAMES,
    N_,
    Md,
    Translator,
    _Builder,
    environment,
    escape_md,
)

# ---- tiles as SVG ---------------------------------------------------------------------

_INK = {Suit.MAN: "#b3261e", Suit.PIN: "#1c4f9c", Suit.SOU: "#1d7a3a"}
_FONT = "font-family='DejaVu Sans,Arial,Helvetica,sans-serif' font-weight='bold'"
_FACE = "<rect x='1' y='1' width='28' height='38' rx='4' fill='#fbf8ef' stroke='#8a8270'/>"


def _suit_mark(suit: Suit, ink: str) -> str:
    """The small mark under a suited tile's digit: a seal (characters), a ring (circles), a stalk
    (bamboo)."""
    if suit is Suit.MAN:
        return (
            f"<rect x='10' y='26' width='10' height='9' rx='1' fill='none' stroke='{ink}' "
            f"stroke-width='2'/><path d='M15 26v9M10 30.5h10' stroke='{ink}' stroke-width='1.5'/>"
        )
    if suit is Suit.PIN:
        return (
            f"<circle cx='15' cy='30.5' r='4.5' fill='none' stroke='{ink}' stroke-width='2'/>"
            f"<circle cx='15' cy='30.5' r='1.5' fill='{ink}'/>"
        )
    return (
        f"<rect x='12.5' y='25.5' width='5' height='10' rx='2' fill='{ink}'/>"
        "<path d='M12.5 30.5h5' stroke='#fbf8ef' stroke-width='1'/>"
    )


def tile_symbol(tile: Tile) -> str:
    """The ``<symbol>`` that draws one kind of tile (a red five drawn red, with a dot)."""
    body = [_FACE]
    if tile.suit in _INK:
        ink = "#d0021b" if tile.red else _INK[tile.suit]
        body.append(
            f"<text x='15' y='22' text-anchor='middle' font-size='19' {_FONT} "
            f"fill='{ink}'>{tile.number}</text>"
        )
        body.append(_suit_mark(tile.suit, ink))
        if tile.red:
            body.append("<circle cx='24.5' cy='6.5' r='2.5' fill='#d0021b'/>")
    elif tile.suit is Suit.HONOR and tile.number <= 4:
        letter = "ESWN"[tile.number - 1]
        body.append(
            f"<text x='15' y='28' text-anchor='middle' font-size='22' {_FONT} "
            f"fill='#1f1f1f'>{letter}</text>"
        )
    elif tile.suit is Suit.HONOR and tile.number == 5:  # white dragon: the blue frame
        body.append(
            "<rect x='6' y='7' width='18' height='26' rx='2' fill='none' stroke='#1c4f9c' "
            "stroke-width='2.5'/>"
        )
    elif tile.suit is Suit.HONOR and tile.number == 6:  # green dragon
        body.append(
            f"<text x='15' y='28' text-anchor='middle' font-size='22' {_FONT} "
            "fill='#1d7a3a'>F</text>"
        )
    elif tile.suit is Suit.HONOR:  # red dragon: the centre mark, box and stroke
        body.append(
            "<rect x='7' y='12' width='16' height='12' rx='1' fill='none' stroke='#b3261e' "
            "stroke-width='3'/><path d='M15 6v28' stroke='#b3261e' stroke-width='3.5'/>"
        )
    else:  # flowers 1f..4f, seasons 5f..8f: a blossom or a sun, and the number
        n = (tile.number - 1) % 4 + 1
        if tile.number <= 4:
            petals = "".join(
                f"<circle cx='{cx}' cy='{cy}' r='3.6' fill='#c2185b'/>"
                for cx, cy in ((15, 9), (20.5, 13), (18.5, 19.5), (11.5, 19.5), (9.5, 13))
            )
            body.append(petals + "<circle cx='15' cy='15' r='2.5' fill='#f9a825'/>")
        else:
            rays = "".join(
                f"<path d='M15 15L{x} {y}' stroke='#ef6c00' stroke-width='2'/>"
                for x, y in (
                    (15, 4),
                    (26, 15),
                    (15, 26),
                    (4, 15),
                    (22, 8),
                    (8, 8),
                    (22, 22),
                    (8, 22),
                )
            )
            body.append(rays + "<circle cx='15' cy='15' r='5' fill='#ef6c00'/>")
        body.append(
            f"<text x='15' y='37' text-anchor='middle' font-size='10' {_FONT} "
            f"fill='#1f1f1f'>{n}</text>"
        )
    return f"<symbol id='t-{_key(tile)}' viewBox='0 0 30 40'>{''.join(body)}</symbol>"


def _key(tile: Tile) -> str:
    """A kind's id in the sprite: its mpsz text (``0m`` a red five)."""
    number = 0 if tile.red else tile.number
    return f"{number}{tile.suit.value}"


class _Tiles:
    """Draws tiles for one page and remembers which kinds it drew (the page's sprite)."""

    def __init__(self) -> None:
        self.used: dict[str, Tile] = {}

    def __call__(self, mpsz: str) -> Md:
        return Md(f"<mj-tiles {mpsz}>")  # escape_md turns any "<" of a spec string into &lt;

    def html(self, mpsz: str) -> str:
        out = []
        for i, tile in enumerate(parse_tiles(mpsz)):
            key = _key(tile)
            self.used[key] = tile
            out.append(
                f"<svg class='t' viewBox='0 0 30 40' role='img' aria-label='{key}'>"
                f"<use href='#t-{key}'/></svg>"
            )
        return f"<span class='tiles'>{''.join(out)} <code>{html.escape(mpsz)}</code></span>"

    def sprite(self) -> str:
        symbols = "".join(tile_symbol(self.used[k]) for k in sorted(self.used))
        return f"<svg class='sprite' aria-hidden='true'>{symbols}</svg>"


# ---- Markdown inline text as HTML -------------------------------------------------------

_TOKEN = re.compile(
    r"(?P<code>`+)|(?P<escape>\\.)|(?P<strong>\*\*)|(?P<em>\*)|(?P<br><br>)"
    r"|(?P<tiles><mj-tiles ([0-9mpszf]+)>)|(?P<entity>&(?:#?[0-9A-Za-z]+);)|(?P<link>\[)"
    r"|(?P<special>[<>&\"])"
)


def inline_html(text: str, tiles: _Tiles) -> str:
    """The HTML of one piece of the document model's inline Markdown (what render.py composes:
    escapes, ``**``, ``*``, code spans, links, ``<br>``, entities, drawn tiles)."""
    out: list[str] = []
    open_tags: list[str] = []
    i = 0
    while i < len(text):
        m = _TOKEN.search(text, i)
        if m is None:
            out.append(text[i:])
            break
        out.append(text[i : m.start()])
        kind = m.lastgroup
        i = m.end()
        if kind == "code":
            ticks = m.group()
            end = text.find(ticks, i)
            if end < 0:
                raise ValueError(f"an unclosed code span in {text!r}")
            body = text[i:end].replace("\\|", "|").strip()
            out.append(f"<code>{html.escape(body)}</code>")
            i = end + len(ticks)
        elif kind == "escape":
            out.append(html.escape(m.group()[1]))
        elif kind in ("strong", "em"):
            tag = "strong" if kind == "strong" else "em"
            if open_tags and open_tags[-1] == tag:
                open_tags.pop()
                out.append(f"</{tag}>")
            else:
                open_tags.append(tag)
                out.append(f"<{tag}>")
        elif kind == "br":
            out.append("<br>")
        elif kind == "tiles":
            out.append(tiles.html(m.group(7)))
        elif kind == "entity":
            out.append(m.group())
        elif kind == "link":
            close = text.find("](", i)
            end = text.find(")", close + 2) if close >= 0 else -1
            if close < 0 or end < 0:
                raise ValueError(f"an unclosed link in {text!r}")
            label, href = text[i:close], text[close + 2 : end]
            out.append(f"<a href='{html.escape(_page_href(href))}'>{inline_html(label, tiles)}</a>")
            i = end + 1
        else:
            out.append(html.escape(m.group()))
    if open_tags:
        raise ValueError(f"unbalanced emphasis in {text!r}")
    return "".join(out)


def _page_href(href: str) -> str:
    """A link of the Markdown documents (``riichi_planet.ja.md``) as the site's page."""
    return href[:-3] + ".html" if href.endswith(".md") else href


# ---- pages ------------------------------------------------------------------------------

_CSS = """
:root{--ink:#1f1f1f;--muted:#5f5a50;--rule:#d9d3c4;--band:#f4f1e8;--link:#1c4f9c}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;color:var(--ink);background:#fff;font:16px/1.55 system-ui,-apple-system,"Segoe UI",
Roboto,"Noto Sans","Noto Sans CJK SC","Noto Sans CJK JP",sans-serif}
main{max-width:60rem;margin:0 auto;padding:0 1rem 3rem}
nav.top{position:sticky;top:0;z-index:1;background:var(--band);border-bottom:1px solid var(--rule);
padding:.4rem 1rem;font-size:.9rem;display:flex;flex-wrap:wrap;gap:.3rem 1rem;align-items:center}
nav.top .langs{margin-left:auto;display:flex;flex-wrap:wrap;gap:.2rem .7rem}
nav.top [aria-current]{font-weight:bold;color:var(--ink);text-decoration:none}
a{color:var(--link)}
a[hreflang]{white-space:nowrap}
h1{font-size:1.6rem;line-height:1.25;margin:1.2rem 0 .6rem}
h2{font-size:1.25rem;margin:2rem 0 .6rem;padding-bottom:.2rem;border-bottom:2px solid var(--rule)}
h3{font-size:1.05rem;margin:1.4rem 0 .4rem}
p,li{max-width:48rem}
ul{padding-left:1.3rem}
code{font-family:"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:.85em;background:var(--band);
padding:0 .2em;border-radius:3px}
.scroll{overflow-x:auto;margin:.6rem 0 1rem;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;font-size:.9rem;min-width:60%}
th,td{border:1px solid var(--rule);padding:.3rem .5rem;vertical-align:top;text-align:left}
th{background:var(--band)}
td.r,th.r{text-align:right;font-variant-numeric:tabular-nums}
td.empty{background:repeating-linear-gradient(135deg,#fff,#fff 4px,var(--band) 4px,var(--band) 8px)}
.tiles code{white-space:nowrap}
p code,li code{overflow-wrap:anywhere}
.tiles code{font-size:.75em;color:var(--muted);background:none}
svg.t{width:1.5em;height:2em;vertical-align:-.55em;margin-right:1px}
svg.sprite{position:absolute;width:0;height:0;overflow:hidden}
.note{color:var(--muted)}
@media (max-width:40rem){body{font-size:15px}h1{font-size:1.35rem}table{font-size:.8rem}
th,td{padding:.2rem .3rem}}
@media print{nav.top{display:none}body{font-size:10.5pt;color:#000}main{max-width:none;padding:0}
a{color:#000;text-decoration:none}h2{break-after:avoid;page-break-after:avoid}
tr,.example{break-inside:avoid;page-break-inside:avoid}.scroll{overflow:visible}
svg.t{width:1.2em;height:1.6em}}
""".strip()

_INDEX = N_("Index of profiles")
_DIFF_LINK = N_("Differences from {parent}")
_DIFF_TITLE = N_("{profile}: what differs from {parent}")
_DIFF_INTRO = N_(
    "Every rule on which {profile} differs from the profile it extends, {parent}, read from the "
    "two resolved specs ({command} prints the same list)."
)
_DIFF_NONE = N_("No rule differs.")
_DIFF_RULE = N_("Rule")
_DIFF_ABSENT = N_("(not set)")
_LANGUAGE = N_("Language")


def _page(lang: str, title: str, nav: str, body: str, tiles: _Tiles) -> str:
    return (
        "<!DOCTYPE html>\n"
        f"<html lang='{lang}'>\n<head>\n<meta charset='utf-8'>\n"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>\n"
        f"<title>{title}</title>\n<style>\n{_CSS}\n</style>\n</head>\n<body>\n"
        f"{tiles.sprite()}\n<nav class='top'>{nav}</nav>\n<main>\n{body}\n</main>\n</body>\n"
        "</html>\n"
    )


def _nav(
    tr: Translator, lang: str, page: str, extra: Sequence[str] = (), index: str = "index"
) -> str:
    """The bar on every page: the index, other links, and the language switcher (``page`` with
    ``{lang}`` for the language)."""
    links = [f"<a href='{index}.{lang}.html'>{html.escape(str(tr.marked(_INDEX)))}</a>", *extra]
    langs = []
    for other in LANGUAGES:
        name = html.escape(LANGUAGE_NAMES[other])
        href = page.format(lang=other)
        current = " aria-current='page'" if other == lang else ""
        langs.append(f"<a href='{href}' hreflang='{other}' lang='{other}'{current}>{name}</a>")
    label = html.escape(str(tr.marked(_LANGUAGE)))
    return "".join(links) + f"<span class='langs' aria-label='{label}'>{''.join(langs)}</span>"


def _finalize_for(tiles: _Tiles) -> Any:
    def finalize(value: Any) -> str:
        if isinstance(value, Md):
            return inline_html(str(value), tiles)
        if isinstance(value, str):
            return inline_html(escape_md(value), tiles)
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        raise TypeError(f"a template interpolated a {type(value).__name__}")

    return finalize


def render_profile_page(
    ir: ProfileIR,
    engine: Profile,
    lang: str,
    tr: Translator,
    names: Mapping[str, Text],
) -> str:
    """One profile's page in one language."""
    tiles = _Tiles()
    doc = _Builder(ir, engine, lang, tr, names, show_tiles=tiles, page="html").build()
    env = environment().overlay(finalize=_finalize_for(tiles))
    body = env.get_template("rules.html.j2").render(doc=doc, _=tr, impossible=IMPOSSIBLE)
    extra = []
    if ir.extends:
        parent = names[ir.extends].get(lang) if ir.extends in names else ir.extends
        label = inline_html(str(tr.marked(_DIFF_LINK, parent=parent)), tiles)
        extra.append(f"<a href='{ir.id}.diff.{lang}.html'>{label}</a>")
    nav = _nav(tr, lang, f"{ir.id}.{{lang}}.html", extra)
    title = html.escape(ir.names.get(lang))
    return _page(lang, title, nav, body, tiles)


def render_index_page(irs: Sequence[ProfileIR], lang: str, tr: Translator) -> str:
    """The index of profiles in one language: name, rule book, parent, a link per language."""
    _ = tr
    tiles = _Tiles()
    names = {ir.id: ir.names for ir in irs}
    rows = []
    for ir in sorted(irs, key=lambda p: p.id):
        links = " · ".join(
            f"<a href='{ir.id}.{other}.html' hreflang='{other}' lang='{other}'>"
            f"{html.escape(LANGUAGE_NAMES[other])}</a>"
            for other in LANGUAGES
        )
        book = inline_html(
            str(
                _(
                    "{book}: {title}",
                    book=ir.source_book,
                    title=Md(f"*{escape_md(ir.source_title)}*"),
                )
            ),
            tiles,
        )
        if ir.extends in names:
            parent_text = names[ir.extends].get(lang)
            parent = html.escape(parent_text)
            base = (
                f"<a href='{ir.extends}.{lang}.html'>{parent}</a><br>"
                f"<a href='{ir.id}.diff.{lang}.html'>"
                f"{inline_html(str(_.marked(_DIFF_LINK, parent=parent_text)), tiles)}</a>"
            )
        else:
            base = "—"
        name = html.escape(ir.names.get(lang))
        rows.append(
            f"<tr><td><a href='{ir.id}.{lang}.html'><strong>{name}</strong></a><br>"
            f"<code>{ir.id}</code></td><td>{book}</td><td>{base}</td><td>{links}</td></tr>"
        )
    head = "".join(
        f"<th>{inline_html(str(_(h)), tiles)}</th>"
        for h in ("Profile", "Rule book", "Extends", "Documents")
    )
    intro = inline_html(
        str(
            _(
                "One page per profile and language, generated from the specs in {folder} by "
                "{command}.",
                folder=Md("`specs/`"),
                command=Md("`mjspec build`"),
            )
        ),
        tiles,
    )
    title = html.escape(str(_("Rule documents")))
    body = (
        f"<h1>{title}</h1>\n<p>{intro}</p>\n<div class='scroll'><table><thead><tr>{head}</tr>"
        f"</thead><tbody>{''.join(rows)}</tbody></table></div>"
    )
    return _page(lang, title, _nav(tr, lang, "index.{lang}.html"), body, tiles)


def _shown(value: Any, lang: str) -> str:
    """A resolved spec value for the diff page: a text in the page's language, else as the
    command line's diff shows it."""
    from .profile_diff import MISSING, _is_text, show

    if value is MISSING:
        return ""
    if _is_text(value):
        return str(value.get(lang, value.get("en", "")))
    return show(value, width=400)


def render_diff_page(diff: Any, lang: str, tr: Translator, names: Mapping[str, Text]) -> str:
    """The rules on which a profile differs from its parent, in one language."""
    from .profile_diff import MISSING

    tiles = _Tiles()
    child, parent = diff.b, diff.a
    child_name, parent_name = child.names.get(lang), parent.names.get(lang)
    title = str(tr.marked(_DIFF_TITLE, profile=child_name, parent=parent_name))
    intro = tr.marked(
        _DIFF_INTRO,
        profile=Md(f"[{escape_md(child_name)}]({child.id}.{lang}.md)"),
        parent=Md(f"[{escape_md(parent_name)}]({parent.id}.{lang}.md)"),
        command=Md(f"`mjspec diff {parent.id} {child.id}`"),
    )
    rows = []
    absent = html.escape(str(tr.marked(_DIFF_ABSENT)))
    for d in diff.differences:
        a = absent if d.a is MISSING else html.escape(_shown(d.a, lang))
        b = absent if d.b is MISSING else html.escape(_shown(d.b, lang))
        rows.append(
            f"<tr><td><code>{html.escape(d.label)}</code></td><td>{a}</td><td>{b}</td></tr>"
        )
    if rows:
        head = (
            f"<th>{html.escape(str(tr.marked(_DIFF_RULE)))}</th>"
            f"<th>{html.escape(parent_name)}</th><th>{html.escape(child_name)}</th>"
        )
        table = (
            f"<div class='scroll'><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>"
        )
    else:
        table = f"<p>{html.escape(str(tr.marked(_DIFF_NONE)))}</p>"
    body = f"<h1>{html.escape(title)}</h1>\n<p>{inline_html(str(intro), tiles)}</p>\n{table}"
    nav = _nav(
        tr,
        lang,
        f"{child.id}.diff.{{lang}}.html",
        [f"<a href='{child.id}.{lang}.html'>{html.escape(child_name)}</a>"],
    )
    return _page(lang, html.escape(title), nav, body, tiles)


def render_site(
    irs: Sequence[ProfileIR],
    engines: Mapping[str, Profile],
    diffs: Mapping[str, Any],
    locale: Path | None = None,
) -> tuple[dict[str, str], list[SpecError]]:
    """Every page of the site by file name, or the errors that stop it (a message a catalog
    lacks, a formula the documents cannot word). ``diffs`` maps a child's id to its
    :class:`~compiler.profile_diff.ProfileDiff` against its parent."""
    from .describe import FormulaError
    from .render import _missing_message_errors

    catalogs = load_catalogs(locale)
    translators = {lang: Translator(lang, catalogs[lang]) for lang in LANGUAGES}
    names = {ir.id: ir.names for ir in irs}
    pages: dict[str, str] = {}
    try:
        for ir in irs:
            for lang in LANGUAGES:
                tr = translators[lang]
                pages[f"{ir.id}.{lang}.html"] = render_profile_page(
                    ir, engines[ir.id], lang, tr, names
                )
                if ir.id in diffs:
                    pages[f"{ir.id}.diff.{lang}.html"] = render_diff_page(
                        diffs[ir.id], lang, tr, names
                    )
    except FormulaError as e:
        return {}, [e]
    for lang in LANGUAGES:
        pages[f"index.{lang}.html"] = render_index_page(irs, lang, translators[lang])
    pages["index.html"] = pages["index.en.html"]
    errors = _missing_message_errors(translators.values(), catalogs)
    return ({}, errors) if errors else (dict(sorted(pages.items())), [])
