"""Black one top-level statement at a time gives black's answer for the whole text
(compiler/formatting.py): on every shape its joining rules name, on the shapes it hands to black
whole, and on a real engine module with its blank lines shuffled."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import black
import pytest

from mjspec.compiler import formatting
from mjspec.compiler.emit import BLACK_MODE

ROOT = Path(__file__).resolve().parent.parent


def whole(text: str) -> str:
    return black.format_str(text, mode=BLACK_MODE)


def pieces_of(text: str) -> str:
    seen: list[str] = []

    def fmt(piece: str) -> str:
        seen.append(piece)
        return whole(piece)

    formatting._STATEMENTS.clear()
    out = formatting.format_module(text, fmt)
    assert seen, "nothing was formatted"
    return out


JOINED = {
    "docstring then import": '"""doc"""\nimport x\n',
    "docstring, blank lines, comment, import": '"""doc"""\n\n\n\n# c\n\nimport x\n',
    "docstring then def": '"""doc"""\ndef f(): pass\n',
    "header comments and docstring": '# hdr\n# hdr2\n"""doc"""\n\nfrom a import b\n',
    "header comment, docstring, blank lines": '# h\n"""doc"""\n\n\n\n# c\nfrom a import b\n',
    "header comment, docstring, nothing between": '# h\n"""doc"""\nimport x\n',
    "blank lines, then the docstring": '\n\n"""doc"""\nimport x\n',
    "a raw docstring": 'r"""doc"""\nx=1\n',
    "a one-quoted first string": '"doc"\n\n\n\nx=1\n',
    "a bytes first string": 'b"""doc"""\nx=1\n',
    "an f-string first": 'f"""doc"""\nx=1\n',
    "defs, decorators, comments, classes": (
        "import x\ndef f(): pass\nx=1\n\n\n\n\ny=2\n@d\ndef g(): pass\n\n# c\nclass A: pass\nz=1\n"
    ),
    "a comment right above a def": "x = 1\n# about f\ndef f():\n    return 1\ny = 2\n",
    "comments above a decorated def": "x = 1\n\n# a\n# b\n@d\ndef f():\n    return 1\n",
    "a comment after imports": "import a\n# c\nimport b\nimport c\n\n\n\nx = 1\n",
    "code after imports": "import a\nfrom b import c\nx = 1\n",
    "a comment after a def": "def f(): pass\n# c\n\nx = 1\n",
    "a def inside an if": "if x:\n    def f(): pass\ny=1\n",
    "a class inside a try": "try:\n    class A: pass\nexcept E:\n    A = None\nz = 1\n",
    "a def, then more of its block": "if x:\n    def f(): pass\n    y=1\nz=2\n",
    "a def last in its block": "if x:\n    y=1\n    def f(): pass\nz=2\n",
    "a def, then an else": "if x:\n    def f(): pass\nelse:\n    y=1\nz=2\n",
    "a def in the else": "if x:\n    y=1\nelse:\n    def f(): pass\nz=2\n",
    "a def in an elif": "if x:\n    y=1\nelif w:\n    def f(): pass\nz=2\n",
    "a def in a finally": "try:\n    y=1\nfinally:\n    def f(): pass\nz=2\n",
    "a def in a loop's else": "for i in r:\n    y=1\nelse:\n    def f(): pass\nz=2\n",
    "a def in a with": "with o:\n    def f(): pass\nz=2\n",
    "a def in a match": "match x:\n    case 1:\n        def f(): pass\nz=2\n",
    "plain blocks keep their blank lines": (
        "if x:\n    pass\ny=1\n\n\n\nfor i in r:\n    y += i\nwith o:\n    pass\n"
    ),
    "imports, blank lines capped at two": "import a\n\n\n\n\nimport b\nfrom c import (d,\n e)\n",
    "a long call black wraps": "x = f(" + ", ".join(f"argument_{i}" for i in range(30)) + ")\n",
}

WHOLE = {
    "two statements on a line": "x = 1; y = 2\n",
    "a comment after the last statement": "x = 1\n# tail\n",
    "an indented comment after a block": "if x:\n    y = 1\n    # still in the block\nz = 2\n",
    "stub overloads": "@overload\ndef f(): ...\n@overload\ndef f(x): ...\n",
    "a syntax error": "def f(:\n",
    "a string statement after the first": '"""doc"""\n"""two"""\nx=1\n',
    "a comment above a def with a blank line between": "x = 1\n# c\n\ndef f(): pass\n",
    "an async with": "async def f(): pass\nasync with o:\n    pass\n",
    "black's own off switch": "x = [1,\n  2]  # fmt: skip\n",
}


@pytest.mark.parametrize("text", JOINED.values(), ids=JOINED.keys())
def test_statement_by_statement_is_black_on_the_whole(text: str) -> None:
    assert formatting._statements(text) is not None, "this shape should be joined, not handed over"
    assert pieces_of(text) == whole(text)


@pytest.mark.parametrize("text", WHOLE.values(), ids=WHOLE.keys())
def test_shapes_outside_the_rules_go_to_black_whole(text: str) -> None:
    assert formatting._statements(text) is None
    try:
        expected = whole(text)
    except black.InvalidInput:
        with pytest.raises(black.InvalidInput):
            formatting.format_module(text, whole)
        return
    assert formatting.format_module(text, whole) == expected


def test_a_real_engine_with_its_blank_lines_shuffled_formats_as_black_whole() -> None:
    """The committed sichuan_tfmj engine rebuilt with 0 to 3 blank lines before each top-level
    statement and, before some, a comment (right above a definition; elsewhere with 0 to 2 blank
    lines below it), two ways."""
    source = (ROOT / "generated" / "sichuan_tfmj.py").read_text("utf-8")
    lines = source.splitlines(keepends=True)
    tree = ast.parse(source)
    for seed in range(2):
        rng = random.Random(seed)
        out: list[str] = []
        start = 0
        for node in tree.body:
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", ())])
            above = lines[start : first - 1]
            if start == 0:
                out += above  # the generated header
            else:
                out.append("\n" * rng.randrange(4))
                if rng.random() < 0.3:
                    below = 0 if isinstance(node, ast.FunctionDef | ast.ClassDef) else 2
                    out.append("# a comment between statements\n" + "\n" * rng.randrange(below + 1))
            assert node.end_lineno is not None
            out += lines[first - 1 : node.end_lineno]
            start = node.end_lineno
        text = "".join(out)
        assert formatting._statements(text) is not None
        assert pieces_of(text) == whole(text)


def test_each_statement_is_formatted_once_per_text() -> None:
    formatting._STATEMENTS.clear()
    calls: list[str] = []

    def fmt(piece: str) -> str:
        calls.append(piece)
        return whole(piece)

    first = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
    second = "def f():\n    return 1\n\n\ndef g():\n    return 3\n"
    assert formatting.format_module(first, fmt) == whole(first)
    assert formatting.format_module(second, fmt) == whole(second)
    assert len(calls) == 3  # f once, each g once


def test_a_whole_module_memo_hit_keeps_its_statements_for_the_next_build(tmp_path: Path) -> None:
    """A build answered from the memo for a whole module still keeps that module's statements
    through :meth:`Memo.prune`: the next build, which changes one definition, finds the rest."""
    from mjspec.compiler import emit
    from mjspec.compiler.cache import Memo

    first = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
    second = "def f():\n    return 1\n\n\ndef g():\n    return 3\n"
    formatting._STATEMENTS.clear()
    emit.format_python(first, Memo(tmp_path, "salt"))
    stored = len(list(tmp_path.iterdir()))
    assert stored == 3  # the module and its two statements
    memo = Memo(tmp_path, "salt")
    emit.format_python(first, memo)  # the whole module from the memo
    memo.prune()
    assert len(list(tmp_path.iterdir())) == stored
    formatting._STATEMENTS.clear()
    asked: list[str] = []
    original = black.format_str

    def counting(text: str, mode: black.Mode) -> str:
        asked.append(text)
        return original(text, mode=mode)

    expected = whole(second)
    emit.black.format_str = counting  # type: ignore[assignment]
    try:
        assert emit.format_python(second, Memo(tmp_path, "salt")) == expected
    finally:
        emit.black.format_str = original  # type: ignore[assignment]
    assert asked == ["\n\ndef g():\n    return 3\n"]
