"""The engine module of a profile that ``extends`` another: what it changes, sharing the rest.

The emitter renders every profile's module whole (``emit.render_engine_raw``). For a profile
that extends another this pass compares that text with its parent's, keyword by keyword of
``PROFILE = Profile(...)``, and writes only what differs:

* ``PROFILE = replace(PARENT, <changed fields>)``: a field equal to the parent's (its text, and
  the text of every predicate and mask it refers to) is the parent's own object;
* a field of table rules (``rules.X(...)``, ``Points(...)``...) that differs in a few of its
  fields becomes ``replace(PARENT.<path>, <those fields>)``, nested as deep as it differs;
* a tuple of patterns, requirements or point items with the parent's ids in the parent's order
  becomes ``with_changes(PARENT.<field>, (<the changed items>))``;
* a predicate or mask the written fields refer to is imported from the module that defines it
  when its text (and that of everything it refers to) is the same there, else written here.

So the module's size follows the spec's: a child stating three differences gets a module of
three differences. The Profile it builds equals the one the whole module builds (a test holds
the two to each other), and it works alone as far as a user sees: importing it imports its
parent's module, as Python imports any module.

The comparison is on the checked, audited output of the emitter: nothing here writes text that
did not come from it, except names of fields, definitions and parent modules (identifiers).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass, is_dataclass

from mjspec.runtime import rules
from mjspec.runtime.profile import Deal, Minimum, Opening, Payments, Points, Profile, Source
from mjspec.runtime.shapes import ShapeRules
from mjspec.runtime.tiles import TileSet

#: The name the parent's PROFILE is imported under.
PARENT = "PARENT"
#: Records whose differing fields are written as ``replace(PARENT.<path>, ...)``, by the name the
#: engine module calls them by: the profile's records of settings and every record of the table
#: rules. A pattern, an example, a text is written whole, as it reads in its spec.
_RECORDS: dict[str, type] = {
    "Source": Source,
    "TileSet": TileSet,
    "Deal": Deal,
    "Opening": Opening,
    "ShapeRules": ShapeRules,
    "Payments": Payments,
    "Points": Points,
    "Minimum": Minimum,
}


def _record(func: str) -> type | None:
    """The record class a constructor call in an engine module names, if it is one to ``replace``
    in."""
    if func.startswith("rules."):
        found = getattr(rules, func.removeprefix("rules."), None)
        return found if isinstance(found, type) and is_dataclass(found) else None
    return _RECORDS.get(func)


def _optional(owner: type, name: str) -> bool:
    """Whether the field ``name`` of ``owner`` may be None (or is not known to be a record)."""
    hint = next(
        (
            c.__annotations__[name]
            for c in owner.__mro__
            if name in getattr(c, "__annotations__", {})
        ),
        None,
    )
    if not isinstance(hint, str):  # every module of the runtime has postponed annotations
        return True
    return "None" in (part.strip() for part in hint.split("|")) or "Optional[" in hint


#: Tuples of items with an ``id``, which ``with_changes`` updates in place.
_KEYED = frozenset({"patterns", "requirements", "groups", "items"})
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: One line of source with its end, as the parser (and ``ast.get_source_segment``) splits them.
_PARSER_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


@dataclass(frozen=True)
class Shared:
    """A child's module, and where each of its definitions lives (for its own children)."""

    raw: str
    defined_in: Mapping[str, str]


class _Module:
    """One whole engine module (the emitter's unformatted text), taken apart."""

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.lines = raw.splitlines(keepends=True)
        # Lines as the parser counts them (only \r\n, \r and \n end one), for ``text``.
        self._segment_lines: list[str] = _PARSER_LINE.findall(raw)
        self.tree = ast.parse(raw)
        self.defs: dict[str, ast.stmt] = {}
        self.imports: list[ast.ImportFrom] = []
        self.profile: ast.Call | None = None
        for node in self.tree.body:
            if isinstance(node, ast.FunctionDef):
                self.defs[node.name] = node
            elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                name = node.targets[0].id
                if name == "PROFILE":
                    assert isinstance(node.value, ast.Call)
                    self.profile = node.value
                else:
                    self.defs[name] = node
            elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
                self.imports.append(node)
        assert self.profile is not None, "an engine module without PROFILE"
        self.fields = {k.arg: k.value for k in self.profile.keywords if k.arg is not None}
        self._keys: dict[str, str] = {}

    def text(self, node: ast.expr) -> str:
        """``node``'s source text, as ``ast.get_source_segment`` gives it, from lines split once:
        that function splits the whole module again at every call, and this is asked for every
        field and item compared (most of the time of sharing a module)."""
        assert node.end_lineno is not None and node.end_col_offset is not None
        lines, first, last = self._segment_lines, node.lineno - 1, node.end_lineno - 1
        if first == last:
            return lines[first].encode()[node.col_offset : node.end_col_offset].decode()
        head = lines[first].encode()[node.col_offset :].decode()
        tail = lines[last].encode()[: node.end_col_offset].decode()
        return "".join([head, *lines[first + 1 : last], tail])

    def definition_text(self, name: str) -> str:
        """The definition's lines, with the comments above and inside it (its spec text)."""
        node = self.defs[name]
        start = node.lineno - 1
        while start > 0 and self.lines[start - 1].startswith("#:"):
            start -= 1
        assert node.end_lineno is not None
        return "".join(self.lines[start : node.end_lineno])

    def refers(self, node: ast.AST) -> list[str]:
        """The module's definitions ``node`` reads, in order of first use."""
        out: list[str] = []
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id in self.defs and sub.id not in out:
                out.append(sub.id)
        return out

    def key(self, name: str) -> str:
        """What decides a definition: its text and the keys of the definitions it reads."""
        known = self._keys.get(name)
        if known is None:
            self._keys[name] = ""  # a definition never reads itself; guard all the same
            node = self.defs[name]
            inner = [self.key(n) for n in self.refers(node) if n != name]
            known = self._keys[name] = self.definition_text(name) + "\0" + "\0".join(inner)
        return known

    def value_key(self, node: ast.AST) -> str:
        return ast.dump(node) + "\0" + "\0".join(self.key(n) for n in self.refers(node))


def share(
    child_raw: str,
    parent_raw: str,
    parent_id: str,
    parent_defined_in: Mapping[str, str],
    child_id: str,
) -> Shared | None:
    """The module of ``child_id`` (whole in ``child_raw``) as its differences from ``parent_id``;
    None when the differences cannot be written so (the module is then written whole)."""
    child, parent = _Module(child_raw), _Module(parent_raw)
    written: list[str] = []
    for name, value in child.fields.items():
        before = parent.fields.get(name)
        if before is not None and child.value_key(value) == parent.value_key(before):
            continue  # the parent's own
        written.append(
            f"{name}={_changed(child, parent, value, before, f'{PARENT}.{name}', name, Profile)}"
        )
    if any(name not in child.fields for name in parent.fields):
        return None  # the child leaves a field of the parent's at its default: written whole
    body = f"PROFILE = replace(\n    {PARENT},\n" + "".join(f"    {w},\n" for w in written) + ")\n"

    # The definitions the written text reads: each imported when the parent's is the same, else
    # written here, with what it reads in turn (an imported one reads its own module's).
    local: list[str] = []
    imported: list[str] = []
    todo = _names_in(body, child.defs)
    while todo:
        name = todo.pop(0)
        if name in local or name in imported:
            continue
        if name in parent.defs and child.key(name) == parent.key(name):
            imported.append(name)
        else:
            local.append(name)
            todo += child.refers(child.defs[name])
    defined_in = {}
    for name in child.defs:
        if name in local:
            defined_in[name] = child_id
        elif (
            name in parent.defs
            and child.key(name) == parent.key(name)
            and name in parent_defined_in
        ):
            defined_in[name] = parent_defined_in[name]
        else:  # a definition no written field reads, unlike the parent's: cannot be shared safely
            return None

    definitions = "".join(
        "\n\n" + child.definition_text(n) for n in sorted(local, key=lambda n: child.defs[n].lineno)
    )
    tail = _tail(
        child
    )  # the native digest and the engine's registration, which read imported names too
    used = set(_names_in(body + definitions + tail, None))
    out = [_head(child)]
    out.append("from dataclasses import replace\n\n")
    for node in child.imports:
        kept = [a.name for a in node.names if (a.asname or a.name) in used]
        if node.module == "mjspec.runtime.profile" and "with_changes" in used:
            kept.append("with_changes")
        if kept:
            out.append(f"from {node.module} import {', '.join(kept)}\n")
    out.append(f"from .{_ident(parent_id)} import PROFILE as {PARENT}\n")
    origins: dict[str, list[str]] = {}
    for name in imported:
        origins.setdefault(parent_defined_in[name], []).append(name)
    for origin in sorted(origins):
        names = ", ".join(f"{_ident(n)} as {_ident(n)}" for n in origins[origin])
        out.append(f"from .{_ident(origin)} import {names}\n")
    out.append(definitions)
    out.append("\n\n" + body)
    out.append(tail)
    return Shared("".join(out), defined_in)


def definitions(raw: str) -> list[str]:
    """The predicates and masks a whole engine module defines."""
    return list(_Module(raw).defs)


def _changed(
    child: _Module,
    parent: _Module,
    value: ast.expr,
    before: ast.expr | None,
    path: str,
    name: str,
    owner: type,
) -> str:
    """The text of a changed field ``name`` of an ``owner``: a nested ``replace`` or
    ``with_changes`` where that is shorter, else whole. A field that may be None is written whole
    (the parent's value is then no record to ``replace`` in as far as the type checker knows)."""
    record = _record(child.text(value.func)) if isinstance(value, ast.Call) else None
    if (
        record is not None
        and isinstance(value, ast.Call)
        and isinstance(before, ast.Call)
        and not value.args
        and not before.args
        and child.text(value.func) == parent.text(before.func)
        and not _optional(owner, name)
    ):
        mine = {k.arg: k.value for k in value.keywords if k.arg is not None}
        theirs = {k.arg: k.value for k in before.keywords if k.arg is not None}
        if mine.keys() == theirs.keys():
            parts = [
                f"{k}={_changed(child, parent, v, theirs[k], f'{path}.{k}', k, record)}"
                for k, v in mine.items()
                if child.value_key(v) != parent.value_key(theirs[k])
            ]
            if len(parts) < len(mine):
                return f"replace({path}, " + ", ".join(parts) + ")"
    if (
        name in _KEYED
        and isinstance(value, ast.Tuple)
        and isinstance(before, ast.Tuple)
        and _ids(child, value) is not None
        and _ids(child, value) == _ids(parent, before)
    ):
        changed = [
            child.text(item)
            for item, old in zip(value.elts, before.elts)
            if child.value_key(item) != parent.value_key(old)
        ]
        if len(changed) < len(value.elts):
            return f"with_changes({path}, (" + "".join(f"{c}, " for c in changed) + "))"
    return child.text(value)


def _ids(module: _Module, items: ast.Tuple) -> tuple[str, ...] | None:
    """The ``id=`` of every item of a tuple of constructors, or None if one has none."""
    out = []
    for item in items.elts:
        if not isinstance(item, ast.Call):
            return None
        ids = [k.value for k in item.keywords if k.arg == "id"]
        if (
            len(ids) != 1
            or not isinstance(ids[0], ast.Constant)
            or not isinstance(ids[0].value, str)
        ):
            return None
        out.append(ids[0].value)
    return tuple(out)


def _names_in(text: str, among: Mapping[str, object] | None) -> list[str]:
    """Names read in ``text`` (those of ``among`` only, when given), in order of first use."""
    out: list[str] = []
    for node in ast.walk(ast.parse(text)):
        if (
            isinstance(node, ast.Name)
            and (among is None or node.id in among)
            and node.id not in out
        ):
            out.append(node.id)
    return out


def _head(module: _Module) -> str:
    """The module's header comments, docstring and ``from __future__`` line."""
    first_import = min(n.lineno for n in module.imports)
    return "".join(module.lines[: first_import - 1])


def _tail(module: _Module) -> str:
    """Everything after ``PROFILE = ...`` (the native digest, the engine's registration)."""
    profile_end = max(
        n.end_lineno or 0
        for n in module.tree.body
        if isinstance(n, ast.Assign)
        and isinstance(n.targets[0], ast.Name)
        and n.targets[0].id == "PROFILE"
    )
    return "".join(module.lines[profile_end:])


def _ident(name: str) -> str:
    if not _IDENT.fullmatch(name):
        raise ValueError(f"refusing to place {name!r} in a generated import")
    return name
