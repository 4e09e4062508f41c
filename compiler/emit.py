"""Emit a profile's engine module from its IR: Jinja template, then black.

Output is byte-deterministic: no timestamps, iteration in spec order, black
pinned to an exact version in pyproject.toml. Every spec string reaches the
module through ``repr()`` (the ``pyrepr`` and ``text`` filters) or as Python
produced by the checked expression compiler; nothing else is interpolated.
"""

from __future__ import annotations

import re
import textwrap
from functools import lru_cache
from importlib import metadata
from dataclasses import fields, is_dataclass
from enum import StrEnum
from typing import Any

import black
from black.mode import TargetVersion
import jinja2

from mjspec.runtime import rules
from mjspec.runtime.options import OptionSpec, ScoreValue
from mjspec.runtime.text import LANGUAGES, Text

from .cache import Memo
from .formatting import format_module, statement_texts
from .fused import WholeHandLayout, whole_hand_layout
from .hoist import MaskNames
from .ir import ExprIR, ProfileIR
from .native import c_comment

BLACK_MODE = black.Mode(target_versions={TargetVersion.PY311}, line_length=100)


def _pyrepr(value: Any) -> str:
    """``repr`` of plain data only: refuse anything whose repr is not a Python literal."""
    _check_literal(value)
    return repr(value)


def _check_literal(value: Any) -> None:
    if value is None or isinstance(value, (bool, int, str)):
        return
    if isinstance(value, (tuple, list)):
        for v in value:
            _check_literal(v)
        return
    if isinstance(value, dict):
        for k, v in value.items():
            _check_literal(k)
            _check_literal(v)
        return
    raise TypeError(f"refusing to emit a non-literal value of type {type(value).__name__}")


_PLAIN = re.compile(r"^[A-Za-z0-9_./ -]*$")


def _plain(value: str) -> str:
    """A file name or id placed in a comment: only plain characters, or the build stops."""
    if not _PLAIN.match(value):
        raise ValueError(f"refusing to place {value!r} in a generated comment")
    return value


def _construct(value: Any) -> str:
    """Python source that rebuilds a table-rules value: dataclasses and enums of
    ``mjspec.runtime.rules`` and literals."""
    if is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        if getattr(rules, cls.__name__, None) is not cls:
            raise TypeError(f"refusing to emit an instance of {cls.__name__}")
        args = ", ".join(f"{f.name}={_construct(getattr(value, f.name))}" for f in fields(value))
        return f"rules.{cls.__name__}({args})"
    if isinstance(value, StrEnum):
        enum = type(value)
        if getattr(rules, enum.__name__, None) is not enum:
            raise TypeError(f"refusing to emit an enum {enum.__name__}")
        return f"rules.{enum.__name__}({_pyrepr(value.value)})"
    if isinstance(value, tuple):
        return "(" + "".join(f"{_construct(v)}, " for v in value) + ")"
    return _pyrepr(value)


def _text(value: Text) -> str:
    args = ", ".join(f"{lang}={_pyrepr(value.get(lang))}" for lang in LANGUAGES)
    return f"Text({args})"


def _option(value: OptionSpec) -> str:
    """Python source that rebuilds a declared option."""
    default = value.default
    if isinstance(default, ScoreValue):
        shown = (
            f"ScoreValue(points={default.points}, doubles={default.doubles}, limit={default.limit})"
        )
    else:
        shown = _pyrepr(default)
    return (
        f"OptionSpec(name={_pyrepr(value.name)}, type=OptionType({_pyrepr(value.type.value)}), "
        f"default={shown}, "
        f"description={_text(value.description)}, sets={_pyrepr(value.sets)}, "
        f"minimum={_pyrepr(value.minimum)}, maximum={_pyrepr(value.maximum)}, "
        f"section={_pyrepr(value.section)})"
    )


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("mjspec.compiler", "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["pyrepr"] = _pyrepr
    env.filters["text"] = _text
    env.filters["plain"] = _plain
    env.filters["construct"] = _construct
    env.filters["option"] = _option
    env.filters["comment"] = _comment
    return env


def render_engine(
    ir: ProfileIR,
    memo: Memo | None = None,
    native_digest: str | None = None,
    layout: WholeHandLayout | None = None,
) -> str:
    """The formatted source of ``generated/<id>.py``; ``native_digest`` names its native engine,
    ``layout`` its whole-hand functions (compiler/fused.py; None: its own, as extending nothing).
    """
    return format_python(render_engine_raw(ir, native_digest, layout=layout), memo)


def render_engine_raw(
    ir: ProfileIR,
    native_digest: str | None = None,
    shares: str | None = None,
    layout: WholeHandLayout | None = None,
) -> str:
    """The source of ``generated/<id>.py`` before black: the whole profile, as if it extended
    nothing (``shares``: the parent whose module compiler/share.py will make this one share, for the
    docstring), except that its whole-hand functions are ``layout``'s (compiler/fused.py: those of
    its parent with their bits, when it extends one; None: its own).
    """
    if layout is None:
        layout = whole_hand_layout(ir)
    masks = MaskNames()
    for (
        e
    ) in ir.expressions:  # every mask named once, in a fixed order, before the module is written
        masks.named(e.python)
    helpers = set(ir.helpers)
    for f in layout.functions:  # a shared function's members as its own profile states them
        for p in f.members:
            if p.when is not None:
                masks.named(p.when.python)
                helpers |= p.when.helpers
    return (
        environment()
        .get_template("engine.py.j2")
        .render(
            ir=ir,
            native_digest=native_digest,
            masks=masks,
            helpers=sorted(helpers),
            fused=layout,
            listed_ids=layout.bits,
            spec=_spec_comment,
            shares=shares,
        )
    )


#: How wide a comment line quoting spec text may grow (black leaves comments as they are).
_COMMENT_WIDTH = 96


def _spec_comment(where: str, expr: ExprIR, indent: str = "    ") -> str:
    """Comment lines quoting a spec expression with where it stands: ``# spec: <path> = <text>``."""
    return _comment(f"spec: {_plain(where)} = {expr.source}", indent)


def _comment(text: str, indent: str = "", lead: str = "#") -> str:
    """``text`` as comment lines: it passes :func:`~mjspec.compiler.native.c_comment` first (one
    line of printable ASCII), so nothing of it can end the comment, and is then wrapped at spaces.
    """
    lines = textwrap.wrap(
        c_comment(text),
        width=_COMMENT_WIDTH - len(indent) - len(lead) - 1,
        subsequent_indent="    ",
        break_long_words=False,
        break_on_hyphens=False,
    )
    return "\n".join(f"{indent}{lead} {line}" for line in lines)


def render_registry(ids: list[str], memo: Memo | None = None) -> str:
    """The source of ``generated/__init__.py``: which engines exist."""
    raw = environment().get_template("registry.py.j2").render(ids=sorted(ids))
    return format_python(raw, memo)


def format_python(raw: str, memo: Memo | None = None) -> str:
    """``raw`` formatted by black, one top-level statement at a time (compiler/formatting.py: the
    answer is black's for the whole text, and a changed spec reformats only the definitions it
    changed); with a ``memo``, black runs only on text it has not formatted before (it is most of
    a build's time, and formatting is a pure function of the text, black's version and mode).
    """
    if memo is not None:
        done = memo.get(raw)
        if done is not None:
            for text in statement_texts(raw):
                memo.keep(text)  # for the next build, which may change one definition of many
            return done
    formatted = format_module(raw, lambda text: _black(text, memo))
    if memo is not None:
        memo.put(raw, formatted)
    return formatted


def _black(text: str, memo: Memo | None) -> str:
    if memo is not None:
        done = memo.get(text)
        if done is not None:
            return done
    formatted = black.format_str(text, mode=BLACK_MODE)
    if memo is not None:
        memo.put(text, formatted)
    return formatted


def black_version() -> str:
    """The version of black that formats the generated modules (pinned in pyproject.toml)."""
    return metadata.version("black")
