"""Message catalogs for the rule documents: GNU gettext ``.po`` files, read with the standard
library.

One catalog per language lives in ``compiler/locale/<lang>.po``. The reader
understands the parts of the PO format a hand-kept catalog uses: the header
entry, translator and automatic comments, ``#,`` flags, ``msgctxt``, ``msgid``
and ``msgstr`` with C escapes and continuation lines, and obsolete ``#~``
entries (skipped). Plural forms are refused with a clear error (the documents
are phrased so they need none).

As with ``msgfmt``, an entry whose ``msgstr`` is empty or that is flagged
``fuzzy`` counts as untranslated. A message flagged ``python-brace-format``
must use exactly the placeholders of its ``msgid``; that is checked when the
catalog is read, so a translation can never drop or invent a figure.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

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


@dataclass
class Catalog:
    """The translated messages of one language, found by (context, msgid)."""

    language: str
    file: str
    messages: dict[tuple[str, str], Message] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    untranslated: set[tuple[str, str]] = field(default_factory=set)
    """Entries present but empty or fuzzy: treated as missing, like ``msgfmt`` does."""

    def lookup(self, msgid: str, context: str = NO_CONTEXT) -> str | None:
        """The translation of ``msgid``, or None when the catalog lacks it (or has it fuzzy or
        empty)."""
        m = self.messages.get((context, msgid))
        return m.msgstr if m is not None else None


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
        if key == "msgid_plural" or key.startswith("msgstr["):
            raise CatalogError(
                "plural forms are not used by the rule documents; phrase the message without one",
                Location(file, n),
            )
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
        if key == "msgstr" and "msgid" not in cur.parts:
            raise CatalogError("msgstr before msgid", Location(file, n))
        cur.parts[key] = [_unquote(rest, file, n)]
        cur.last = key
    return entries


def parse_po(text: str, file: str, language: str) -> Catalog:
    """Read the text of one ``.po`` file; raise :class:`CatalogError` at the first problem."""
    catalog = Catalog(language, file)
    seen: set[tuple[str, str]] = set()
    for e in _read_entries(text, file):
        if "msgid" not in e.parts or "msgstr" not in e.parts:
            raise CatalogError("an entry needs both msgid and msgstr", Location(file, e.line))
        msgid = "".join(e.parts["msgid"])
        msgstr = "".join(e.parts["msgstr"])
        context = "".join(e.parts.get("msgctxt", [NO_CONTEXT]))
        if msgid == "" and context == NO_CONTEXT:
            catalog.headers = _headers(msgstr)
            continue
        key = (context, msgid)
        if key in seen:
            raise CatalogError(f"duplicate entry for msgid {msgid!r}", Location(file, e.line))
        seen.add(key)
        if "python-brace-format" in e.flags and msgstr:
            want, got = placeholders(msgid), placeholders(msgstr)
            if want != got:
                raise CatalogError(
                    f"the translation of {msgid!r} must use the placeholders {_braces(want)}, "
                    f"not {_braces(got)}",
                    Location(file, e.line),
                )
        if not msgstr or "fuzzy" in e.flags:
            catalog.untranslated.add(key)
            continue
        catalog.messages[key] = Message(context, msgid, msgstr, frozenset(e.flags), e.line)

    charset = re.search(r"charset=([\w-]+)", catalog.headers.get("Content-Type", ""))
    if charset is None or charset.group(1).lower() != "utf-8":
        raise CatalogError(
            'the header must declare "Content-Type: text/plain; charset=UTF-8"', Location(file, 1)
        )
    declared = catalog.headers.get("Language", "")
    if declared.replace("-", "_").split("_")[0] != language:
        raise CatalogError(
            f"the header declares Language {declared!r}, expected {language!r}", Location(file, 1)
        )
    return catalog


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
