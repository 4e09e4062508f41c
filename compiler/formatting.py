"""Black, one top-level statement at a time: a changed spec reformats only what it changed.

Black formats each top-level statement of a module independently of the others; what joins them
is only the number of blank lines between two statements, and at the top level of a module black
decides that from the two statements alone (black 24, the version pyproject.toml pins):

- none before the first statement;
- one after a module docstring (a triple-quoted string on the module's first line, blank lines
  aside; under a comment it is an ordinary statement), two where a definition follows it;
- two before every function or class definition (decorators and the comments above it belong to
  it), and two after every statement that ends in one (``if x:`` whose last statement is a
  ``def``: black leaves each definition with two blank lines at the top level unless a later
  statement or clause of its own block came first);
- elsewhere what the text had, at most two.

So :func:`format_module` splits the module at its top-level statements (``ast``: each statement
with the comments and blank lines above it), formats each alone, and joins them by those rules.
The answer is black's own for the whole text; ``tests/test_formatting.py`` holds the two to each
other on every shape the rules name, and ``mjspec build --check`` on every bundled engine, whose
committed files black formatted whole. Where the text falls outside those shapes (code after the
last statement, an indented comment after a block's last line, a statement sharing a line with
another, a stub whose body is ``...`` (black keeps consecutive stubs together), anything ``ast``
cannot read) the whole text goes to black at once.

Each statement's answer is kept by its text, so the many builds of one profile that differ in a
pattern or two (a house rule, the test suite's mutated specs) format the unchanged definitions
once: most of a build's time was black.
"""

from __future__ import annotations

import ast
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable

#: Formats one piece of source text (black with the build's mode, perhaps through a memo).
Formatter = Callable[[str], str]

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)

#: Statements formatted in this process, by their text (bounded: a build holds a few modules).
_STATEMENTS: OrderedDict[str, str] = OrderedDict()
_STATEMENTS_KEPT = 20_000


def format_module(raw: str, black: Formatter) -> str:
    """``raw`` as black formats it whole, made from black's answers for each top-level statement
    (see the module docstring); ``black`` formats one piece of text."""
    pieces = _statements(raw)
    if pieces is None:
        return black(raw)
    out: list[str] = []
    for i, piece in enumerate(pieces):
        body = _format_statement(piece.text, black).strip("\n")
        before = pieces[i - 1] if i else None
        if before is None:
            blank = 0
        elif piece.is_definition or before.ends_in_definition:
            blank = 2
        elif before.is_docstring:
            blank = 1
        elif before.is_import and not (piece.is_import and not piece.has_comments):
            blank = max(1, min(piece.blank_lines, 2))  # black: a blank line after imports
        else:
            blank = min(piece.blank_lines, 2)
        out.append("\n" * blank + body + "\n")
    return "".join(out)


def statement_texts(raw: str) -> list[str]:
    """The pieces :func:`format_module` hands to black one by one (none where it hands over the
    whole text)."""
    return [piece.text for piece in _statements(raw) or ()]


@dataclass(frozen=True, slots=True)
class _Statement:
    """One top-level statement's text, the comments and blank lines above it included."""

    text: str
    blank_lines: int
    """The blank lines above its first line (comment or code)."""
    has_comments: bool
    """Comment lines stand above its code."""
    is_definition: bool
    ends_in_definition: bool
    is_import: bool
    is_docstring: bool


def _format_statement(text: str, black: Formatter) -> str:
    done = _STATEMENTS.get(text)
    if done is None:
        done = black(text)
        _STATEMENTS[text] = done
        if len(_STATEMENTS) > _STATEMENTS_KEPT:
            _STATEMENTS.popitem(last=False)
    else:
        _STATEMENTS.move_to_end(text)
    return done


def _statements(raw: str) -> list[_Statement] | None:
    """Each top-level statement's text (with the lines above it back to the previous statement)
    and what the joining rules ask of it; None where the text is outside the shapes they cover."""
    if "\f" in raw or "fmt:" in raw:
        return None  # form feeds and black's own on/off comments: black's rules for them
    try:
        tree = ast.parse(raw)
    except (SyntaxError, ValueError):
        return None  # black reports it, as it would have
    if not tree.body:
        return None
    lines = raw.splitlines(keepends=True)
    pieces: list[_Statement] = []
    start = 0
    for node in tree.body:
        end = node.end_lineno
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", ())])
        if end is None or first <= start:
            return None  # two statements on one line
        above = lines[start : first - 1]
        if any(line[:1].isspace() and line.strip() for line in above):
            return None  # an indented comment: black keeps it in the block before
        if _is_stub(node) or isinstance(node, ast.AsyncFor | ast.AsyncWith):
            return None  # black's rules for stubs; ``async for`` after a nested def
        comments = [k for k, line in enumerate(above) if line.strip()]
        is_definition = isinstance(node, _DEFINITIONS)
        if is_definition and comments and comments[-1] != len(above) - 1:
            return None  # a comment above a definition with a blank line between
        value = node.value if isinstance(node, ast.Expr) else None
        string = isinstance(value, ast.Constant | ast.JoinedStr)
        if pieces and string:
            return None  # alone, black would read it as a module docstring
        pieces.append(
            _Statement(
                text="".join(lines[start:end]),
                blank_lines=comments[0] if comments else len(above),
                has_comments=bool(comments),
                is_definition=is_definition,
                ends_in_definition=_ends_in_definition(node),
                is_import=isinstance(node, ast.Import | ast.ImportFrom),
                is_docstring=(
                    not comments
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                    and _triple_quoted(lines[node.lineno - 1])
                ),
            )
        )
        start = end
    if any(line.strip() for line in lines[start:]):
        return None  # comments after the last statement
    return pieces


def _ends_in_definition(node: ast.stmt) -> bool:
    """``node`` is a definition, or a block whose last statement ends in one (``if x: def f()``):
    black leaves a definition with two blank lines only where nothing follows it inside its block
    (a later statement or clause of the block takes the blank lines instead)."""
    if isinstance(node, _DEFINITIONS):
        return True
    last: list[ast.stmt] = []
    if isinstance(node, ast.If | ast.For | ast.AsyncFor | ast.While):
        last = node.orelse or node.body
    elif isinstance(node, ast.Try | ast.TryStar):
        last = node.finalbody or node.orelse or (node.handlers[-1].body if node.handlers else [])
    elif isinstance(node, ast.With | ast.AsyncWith):
        last = node.body
    elif isinstance(node, ast.Match):
        last = node.cases[-1].body if node.cases else []
    return bool(last) and _ends_in_definition(last[-1])


def _is_stub(node: ast.AST) -> bool:
    """A body of ``...`` somewhere inside ``node`` (black keeps such stubs together)."""
    return any(
        isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and n.value.value is ...
        for n in ast.walk(node)
    )


def _triple_quoted(line: str) -> bool:
    """The string starting ``line`` is triple-quoted (black's test for a module docstring)."""
    text = line.lstrip()
    text = text[1:] if text[:1] in ("r", "R") else text
    return text.startswith(('"""', "'''"))


def _leading_blank_lines(text: str) -> int:
    n = 0
    for line in text.splitlines():
        if line.strip():
            break
        n += 1
    return n
