"""Message catalogs for the rule documents: GNU gettext ``.po`` files, read with the standard
library.

One catalog per language lives in ``compiler/locale/<lang>.po``. The reader
understands the parts of the PO format a hand-kept catalog uses: the header
entry, translator and automatic comments, ``#,`` flags, ``msgctxt``, ``msgid``
and ``msgstr`` with C escapes and continuation lines, and obsolete ``#~``
entries (skipped), and plural forms (``msgid_plural``, ``msgstr[N]``) chosen by
the header's ``Plural-Forms`` rule, as ``ngettext`` chooses them (the rule is
compiled by the standard library's ``gettext.c2py``, which accepts only C's
arithmetic, comparisons and ``?:`` over ``n``).

As with ``msgfmt``, an entry whose ``msgstr`` is empty or that is flagged
``fuzzy`` counts as untranslated. A message flagged ``python-brace-format``
must use exactly the placeholders of its ``msgid``; that is checked when the
catalog is read, so a translation can never drop or invent a figure.
"""

from __future__ import annotations

import gettext
import re
import string
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Callable

from mjspec.runtime.text import LANGUAGES

from .errors import Location, SpecError

#: The context key of messages without ``msgctxt``.
NO_CONTEXT = ""


class CatalogError(SpecError):
    """A problem with a message catalog: ``file:line: message`` (a catalog has no spec path)."""

    def __str__(self) -> str:
        if self.location is None:
            return self.message
        where = self.location.file if self.location.line < 1 else str(self.location)
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class Message:
    """One translated message."""

    context: str
    msgid: str
    msgstr: str
    flags: frozenset[str]
    line: int
    plurals: tuple[str, ...] = ()
    """The plural forms (``msgstr[0]``, ``msgstr[1]``, ...) of a message with ``msgid_plural``."""


@dataclass
class Catalog:
    """The translated messages of one language, found by (context, msgid)."""

    language: str
    file: str
    messages: dict[tuple[str, str], Message] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    untranslated: set[tuple[str, str]] = field(default_factory=set)
    """Entries present but empty or fuzzy: treated as missing, like ``msgfmt`` does."""
    plural_rule: Callable[[int], int] = field(default=lambda n: int(n != 1))
    """The header's ``Plural-Forms`` rule: the index of the form for a count."""
    nplurals: int = 2

    def lookup(self, msgid: str, context: str = NO_CONTEXT) -> str | None:
        """The translation of ``msgid``, or None when the catalog lacks it (or has it fuzzy or
        empty)."""
        m = self.messages.get((context, msgid))
        return m.msgstr if m is not None and not m.plurals else None

    def lookup_plural(self, msgid: str, count: int, context: str = NO_CONTEXT) -> str | None:
        """The form of a plural message for ``count`` (gettext's ``ngettext``), or None when the
        catalog lacks it."""
        m = self.messages.get((context, msgid))
        if m is None or not m.plurals:
            return None
        return m.plurals[self.plural_rule(count)]


_ESCAPES = {
    "\\": "\\",
    '"': '"',
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
}
_KEYWORD = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+(".*)$')


def _unquote(text: str, file: str, line: int) -> str:
    """The value of one C-quoted PO string such as ``"a \\"b\\"\\n"``."""
    text = text.strip()
    if len(text) < 2 or not (text.startswith('"') and text.endswith('"')):
        raise CatalogError(f"expected a quoted string, got {text!r}", Location(file, line))
    body = text[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == '"':
            raise CatalogError('an unescaped " inside a string', Location(file, line))
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        if i + 1 >= len(body):
            raise CatalogError("a string ends with a lone backslash", Location(file, line))
        nxt = body[i + 1]
        if nxt not in _ESCAPES:
            raise CatalogError(f"unknown escape \\{nxt} in a string", Location(file, line))
        out.append(_ESCAPES[nxt])
        i += 2
    return "".join(out)


def placeholders(text: str) -> frozenset[str]:
    """The ``{name}`` fields of a brace-format message (``{{``/``}}`` are literal braces)."""
    names = set()
    for _, name, _, _ in string.Formatter().parse(text):
        if name is not None:
            names.add(name)
    return frozenset(names)


@dataclass
class _Entry:
    line: int
    flags: set[str] = field(default_factory=set)
    parts: dict[str, list[str]] = field(default_factory=dict)
    last: str | None = None


def _read_entries(text: str, file: str) -> list[_Entry]:
    entries: list[_Entry] = []
    cur: _Entry | None = None
    flags: set[str] = set()
    first_comment = 0
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#~"):  # a blank line, or an obsolete entry
            if not line:
                cur = None
            continue
        if line.startswith("#"):
            if cur is not None and "msgstr" in cur.parts:
                cur = None
            if line.startswith("#,"):
                flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
            first_comment = first_comment or n
            continue
        if line.startswith('"'):
            if cur is None or cur.last is None:
                raise CatalogError("a continuation string outside any message", Location(file, n))
            cur.parts[cur.last].append(_unquote(line, file, n))
            continue
        m = _KEYWORD.match(line)
        if not m:
            raise CatalogError(f"cannot read this line: {line[:60]!r}", Location(file, n))
        key, rest = m.group(1), m.group(2)
        if key in ("msgctxt", "msgid") and (cur is None or "msgstr" in cur.parts):
            cur = _Entry(first_comment or n, flags)
            entries.append(cur)
            flags, first_comment = set(), 0
        if cur is None:
            raise CatalogError(f"{key} before any msgid", Location(file, n))
        if key in cur.parts:
            raise CatalogError(f"{key} given twice in one entry", Location(file, n))
        if key == "msgctxt" and "msgid" in cur.parts:
            raise CatalogError("msgctxt must come before msgid", Location(file, n))
        if key.startswith("msgstr") and "msgid" not in cur.parts:
            raise CatalogError("msgstr before msgid", Location(file, n))
        if key.startswith("msgstr[") and "msgid_plural" not in cur.parts:
            raise CatalogError("msgstr[N] without msgid_plural", Location(file, n))
        if key == "msgstr" and "msgid_plural" in cur.parts:
            raise CatalogError("a message with msgid_plural needs msgstr[N]", Location(file, n))
        cur.parts[key] = [_unquote(rest, file, n)]
        cur.last = key
    return entries


def parse_po(text: str, file: str, language: str) -> Catalog:
    """Read the text of one ``.po`` file; raise :class:`CatalogError` at the first problem."""
    catalog = Catalog(language, file)
    seen: set[tuple[str, str]] = set()
    entries = _read_entries(text, file)
    plural: list[tuple[_Entry, list[str]]] = []
    for e in entries:
        forms = sorted(
            (int(k[7:-1]), "".join(v)) for k, v in e.parts.items() if k.startswith("msgstr[")
        )
        if "msgid" not in e.parts or ("msgstr" not in e.parts and not forms):
            raise CatalogError("an entry needs both msgid and msgstr", Location(file, e.line))
        msgid = "".join(e.parts["msgid"])
        if forms:
            if [i for i, _ in forms] != list(range(len(forms))):
                raise CatalogError(
                    "plural forms must be msgstr[0], msgstr[1], ... in order",
                    Location(file, e.line),
                )
            plural.append((e, [f for _, f in forms]))
            msgstr = forms[0][1] if all(f for _, f in forms) else ""
        else:
            msgstr = "".join(e.parts["msgstr"])
        context = "".join(e.parts.get("msgctxt", [NO_CONTEXT]))
        if msgid == "" and context == NO_CONTEXT:
            catalog.headers = _headers(msgstr)
            continue
        key = (context, msgid)
        if key in seen:
            raise CatalogError(f"duplicate entry for msgid {msgid!r}", Location(file, e.line))
        seen.add(key)
        forms_of = [f for _, f in forms]
        if "python-brace-format" in e.flags and msgstr:
            if forms_of:
                # ngettext's rule: a form may leave the count out ("one round"), nothing else
                want = placeholders("".join(e.parts["msgid_plural"]))
                for form in forms_of:
                    got = placeholders(form)
                    if not (want - {"count"} <= got <= want):
                        raise CatalogError(
                            f"each plural form of {msgid!r} must use the placeholders "
                            f"{_braces(want)} ({{count}} may be left out), not {_braces(got)}",
                            Location(file, e.line),
                        )
            else:
                want, got = placeholders(msgid), placeholders(msgstr)
                if want != got:
                    raise CatalogError(
                        f"the translation of {msgid!r} must use the placeholders "
                        f"{_braces(want)}, not {_braces(got)}",
                        Location(file, e.line),
                    )
        if not msgstr or "fuzzy" in e.flags:
            catalog.untranslated.add(key)
            continue
        catalog.messages[key] = Message(
            context, msgid, msgstr, frozenset(e.flags), e.line, tuple(forms_of)
        )

    charset = re.search(r"charset=([\w-]+)", catalog.headers.get("Content-Type", ""))
    if charset is None or charset.group(1).lower() != "utf-8":
        raise CatalogError(
            'the header must declare "Content-Type: text/plain; charset=UTF-8"', Location(file, 1)
        )
    _plural_forms(catalog, file)
    for e, texts in plural:
        if len(texts) != catalog.nplurals:
            raise CatalogError(
                f"{len(texts)} plural form(s) where the header's Plural-Forms has "
                f"nplurals={catalog.nplurals}",
                Location(file, e.line),
            )
    declared = catalog.headers.get("Language", "")
    if declared.replace("-", "_").split("_")[0] != language:
        raise CatalogError(
            f"the header declares Language {declared!r}, expected {language!r}", Location(file, 1)
        )
    return catalog


_PLURAL_FORMS = re.compile(r"^\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]+);?\s*$")


def _plural_forms(catalog: Catalog, file: str) -> None:
    """Read the header's ``Plural-Forms`` (absent: English's two forms)."""
    text = catalog.headers.get("Plural-Forms")
    if text is None:
        return
    m = _PLURAL_FORMS.match(text)
    if m is None:
        raise CatalogError(
            f"cannot read the header's Plural-Forms {text!r} (expected "
            "'nplurals=N; plural=EXPRESSION;')",
            Location(file, 1),
        )
    try:
        rule = gettext.c2py(m.group(2))
    except (ValueError, SyntaxError) as e:
        raise CatalogError(f"the header's plural rule {m.group(2)!r}: {e}", Location(file, 1))
    nplurals = int(m.group(1))
    if not 1 <= nplurals <= 6 or any(not 0 <= rule(n) < nplurals for n in range(201)):
        raise CatalogError(
            f"the header's plural rule {m.group(2)!r} gives a form outside 0..{nplurals - 1}",
            Location(file, 1),
        )
    catalog.plural_rule, catalog.nplurals = rule, nplurals


def _braces(names: frozenset[str]) -> str:
    return ", ".join("{" + n + "}" for n in sorted(names)) or "none"


def _headers(text: str) -> dict[str, str]:
    out = {}
    for line in text.split("\n"):
        key, sep, value = line.partition(":")
        if sep:
            out[key.strip()] = value.strip()
    return out


def catalog_dir(override: Path | None = None) -> Path:
    """Where the catalogs are: ``override``, or the ones bundled with the compiler."""
    if override is not None:
        return override
    return Path(str(resources.files("mjspec.compiler"))) / "locale"


def load_catalogs(folder: Path | None = None) -> dict[str, Catalog]:
    """Every language's catalog; raise :class:`CatalogError` naming the file and line of a
    problem."""
    where = catalog_dir(folder)
    out = {}
    for lang in LANGUAGES:
        path = where / f"{lang}.po"
        shown = f"compiler/locale/{lang}.po" if folder is None else str(path)
        try:
            text = path.read_text("utf-8")
        except FileNotFoundError:
            raise CatalogError(
                f"no message catalog for language {lang!r}", Location(shown, 1)
            ) from None
        except UnicodeDecodeError as e:
            raise CatalogError(f"not UTF-8 text (byte {e.start})", Location(shown, 1)) from None
        out[lang] = parse_po(text, shown, lang)
    return out
