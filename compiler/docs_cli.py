"""Commands about profiles as documents: ``mjspec diff``, ``mjspec new`` and ``mjspec docs``.

Their arguments are declared with the other commands in ``mjspec.app.cli``,
which imports this module only when one of them runs.

``diff A B`` prints every rule on which two profiles differ (a readable table,
or ``--json``). ``new ID --from PROFILE`` starts a house rule: a minimal spec
``specs/ID.yaml`` that extends PROFILE, which builds unchanged. Both work on the
workspace (the current folder or ``--root DIR``: ``DIR/specs``, ``DIR/generated``,
``DIR/docs``; ``runtime/workspace.py``), whose specs may extend the bundled ones; in the
package's own source folder, on the bundled specs. ``docs --html DIR`` writes the rule documents
of the workspace's profiles (and of the profiles they extend) as an HTML site
(``compiler/site.py``).
"""

from __future__ import annotations

import argparse
import difflib
import json
import keyword
import re
import sys
from pathlib import Path
from typing import Any, Callable

import yaml

from .build import Layout
from .check import check
from .errors import SpecErrors
from .profile_diff import diff_profiles, format_table
from .render import house_rule_names
from .resolve import SpecLibrary
from .spec_schema import MODELINE, SPEC_SCHEMA_FILE

_ID = re.compile(r"^[a-z][a-z0-9_]*$")


def _layout(root: Path | None) -> Layout:
    return Layout.chosen(root)


def _library(layout: Layout) -> SpecLibrary:
    """The workspace's specs first, then the bundled ones (a project's own folder alone)."""
    lib = SpecLibrary(layout.specs, layout.root, fallback=layout.bundled_specs)
    if layout.bundled_specs is not None:
        bundled = {p.stem for p in layout.bundled_specs.glob("*.yaml")}
        for pid in sorted(set(lib.own_ids()) & bundled):
            print(
                f"mjspec: note: {lib.display(lib.path_of(pid))} takes the bundled profile id "
                f"{pid!r}: it is read here in the bundled one's place, and `mjspec build` refuses "
                "it",
                file=sys.stderr,
            )
    return lib


def _shown(path: Path) -> str:
    """``path`` as the user would type it from the current folder."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


class DocsCommandError(Exception):
    """A mistake in what the user asked of ``diff`` or ``new``: one line on stderr, exit status
    2."""


def _user_error(message: str) -> Exception:
    return DocsCommandError(message)


def _one_line_errors(
    command: Callable[[argparse.Namespace], int]
) -> Callable[[argparse.Namespace], int]:
    """Report a :class:`DocsCommandError` as ``mjspec: message`` with status 2, as the other
    commands do."""

    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except DocsCommandError as e:
            print(f"mjspec: {e}", file=sys.stderr)
            return 2

    return run


def _known(lib: SpecLibrary, profile_id: str) -> None:
    ids = lib.profile_ids()
    if profile_id not in ids:
        near = difflib.get_close_matches(profile_id, ids, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise _user_error(
            f"no spec for profile {profile_id!r} in {lib.folder}{hint} (known: "
            f"{', '.join(ids) or 'none'})"
        )


def _cmd_diff(args: argparse.Namespace) -> int:
    layout = _layout(args.root)
    lib = _library(layout)
    for pid in (args.a, args.b):
        _known(lib, pid)
    diff = diff_profiles(lib, args.a, args.b)
    if args.json:
        print(json.dumps(diff.to_json(), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(format_table(diff))
    return 0


def new_spec_text(profile_id: str, parent_id: str, lib: SpecLibrary) -> str:
    """The text of a minimal spec for ``profile_id`` extending ``parent_id``."""
    parent = check(lib.resolve_file(lib.path_of(parent_id)), expected_id=parent_id)
    source: dict[str, Any] = {"book": parent.source_book, "title": parent.source_title}
    if parent.source_file:
        source["file"] = parent.source_file
    data = {
        "id": profile_id,
        "extends": parent_id,
        "version": 1,
        "names": house_rule_names(parent.names, profile_id),
        "source": source,
    }
    header = (
        # Editors with the YAML language server (VS Code's YAML extension, and others) check and
        # complete the spec against the schema copy beside it (mjspec new writes it there).
        f"{MODELINE}\n"
        f"# House rule {profile_id}, based on {parent_id} ({parent.names.en}).\n"
        f"# State only what differs from {parent_id}: a mapping merges key by key,\n"
        "# `key: null` removes an inherited entry, and a list replaces the parent's list.\n"
        f"# Every key is documented in ../docs/{SPEC_SCHEMA_FILE}. Then run\n"
        f"# `mjspec validate specs/{profile_id}.yaml` and `mjspec build`.\n"
    )
    body = yaml.safe_dump(
        data, allow_unicode=True, sort_keys=False, width=1000, default_flow_style=False
    )
    return header + body


def _cmd_new(args: argparse.Namespace) -> int:
    pid: str = args.id
    if not _ID.match(pid) or keyword.iskeyword(pid):
        raise _user_error(
            f"{pid!r} is not a valid profile id: use snake_case (a-z, 0-9, _), starting with a "
            "letter, and no Python keyword"
        )
    layout = _layout(args.root)
    lib = _library(layout)
    _known(lib, args.parent)
    path = layout.specs / f"{pid}.yaml"
    if pid in lib.profile_ids() or path.exists():
        where = "is a bundled profile" if not path.exists() else "already exists"
        raise _user_error(
            f"{_shown(lib.path_of(pid))} {where}; choose another id (nothing was written)"
        )
    text = new_spec_text(pid, args.parent, lib)
    try:
        layout.specs.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except FileExistsError:
        raise _user_error(
            f"{_shown(path)} already exists; choose another id (nothing was written)"
        ) from None
    except OSError as e:
        raise _user_error(f"{_shown(path)}: cannot write: {e.strerror}") from None
    try:
        fresh = SpecLibrary(layout.specs, layout.root, fallback=layout.bundled_specs)
        check(fresh.resolve_file(path), expected_id=pid)
        _write_schema_copy(layout)
    except (SpecErrors, OSError):
        path.unlink()
        raise
    shown = _shown(path)
    build = "mjspec build"
    if args.root is not None and layout.root.resolve() != Path.cwd().resolve():
        build += f" --root {_shown(layout.root)}"
    print(f"wrote {shown} (extends {args.parent})")
    print(f"next: state what differs in {shown}, then `mjspec validate {shown}` and `{build}`")
    return 0


def compile_for_site(layout: Layout) -> tuple[list[Any], list[Any]]:
    """The workspace's profiles and the profiles they extend, compiled in memory, parents first
    (what ``build`` compiles, writing nothing): the compiled profiles in the library's order, or
    the errors. A workspace spec that takes a bundled id is refused, as ``build`` refuses it."""
    from . import cache
    from .build import _black_salt, _parents_first, shadowing_error
    from .verify import compile_profile

    lib = _library(layout)
    own = lib.own_ids()
    errors: list[Any] = []
    if layout.bundled_specs is not None:
        for pid in sorted(set(own) & {p.stem for p in layout.bundled_specs.glob("*.yaml")}):
            errors.append(shadowing_error(lib.display(lib.path_of(pid)), pid))
    if errors:
        return [], errors
    ids = list(own)
    for pid in own:  # the parents' pages too: a child's page links to its parent and their diff
        seen = pid
        while True:
            try:
                above = lib.load(lib.path_of(seen)).data.get("extends")
            except (SpecErrors, AttributeError):
                break
            if not isinstance(above, str) or above in ids or above not in lib.profile_ids():
                break
            ids.append(above)
            seen = above
    memo = cache.Memo(cache.memo_folder(layout, "black"), _black_salt())
    done: dict[str, Any] = {}
    for pid in _parents_first(lib, ids):
        try:
            resolved = lib.resolve_file(lib.path_of(pid))
            parent = done.get(str(resolved.data.get("extends")))
            done[pid] = compile_profile(resolved, expected_id=pid, memo=memo, parent=parent)
        except SpecErrors as e:
            errors.extend(e.errors)
    return [done[pid] for pid in sorted(ids) if pid in done], errors


def _cmd_docs(args: argparse.Namespace) -> int:
    """``mjspec docs --html DIR``: the rule documents as an HTML site (compiler/site.py)."""
    from mjspec.runtime.files import atomic_write

    from .site import render_site

    out: Path = args.html
    if out.exists() and not out.is_dir():
        raise _user_error(f"{out} exists and is not a folder (nothing was written)")
    layout = _layout(args.root)
    compiled, errors = compile_for_site(layout)
    if errors:
        raise SpecErrors(errors)
    lib = _library(layout)
    ids = {c.ir.id for c in compiled}
    diffs = {
        c.ir.id: diff_profiles(lib, c.ir.extends, c.ir.id) for c in compiled if c.ir.extends in ids
    }
    pages, errors = render_site(
        [c.ir for c in compiled], {c.ir.id: c.engine for c in compiled}, diffs, layout.locale
    )
    if errors:
        raise SpecErrors(errors)
    out.mkdir(parents=True, exist_ok=True)
    changed = 0
    for name, text in pages.items():
        path, data = out / name, text.encode("utf-8")
        if not path.exists() or path.read_bytes() != data:
            atomic_write(path, data)
            path.chmod(0o644)  # pages to be served or shared: readable by all, as a web folder is
            changed += 1
    print(f"wrote {len(pages)} page(s) to {out} ({changed} changed); open {out / 'index.html'}")
    return 0


def _write_schema_copy(layout: Layout) -> None:
    """The spec-file schema at ``docs/schema/spec-1.json`` of a workspace, which the specs'
    ``yaml-language-server`` line names: an editor checks a spec offline, against the schema of
    the mjspec that builds it (``mjspec build`` rewrites it there too)."""
    from mjspec.runtime.files import atomic_write

    from .check import profile_schema
    from .spec_schema import spec_file_schema_text

    if layout.bundled_specs is None:  # the package's own source: its build writes the schema
        return
    target = layout.docs / SPEC_SCHEMA_FILE
    text = spec_file_schema_text(profile_schema())
    if not target.is_file() or target.read_text("utf-8") != text:
        atomic_write(target, text)


#: The commands as the command line (``mjspec.app.cli``) runs them: mistakes in one line, exit
#: status 2.
run_diff = _one_line_errors(_cmd_diff)
run_new = _one_line_errors(_cmd_new)
run_docs = _one_line_errors(_cmd_docs)
