"""Load a spec file into plain data, remembering where every value came from.

YAML is composed into nodes first, so each mapping key and list item keeps its
line. Aliases and anchors are refused outright: a spec has no use for them,
and refusing them makes an alias bomb (billion laughs) impossible rather than
merely bounded. Duplicate keys are an error (YAML would silently keep the last).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .errors import Location, Path, SpecError, SpecErrors, nearest_location

#: Refuse files larger than this before parsing them (a spec is a few hundred lines).
MAX_SPEC_BYTES = 1_000_000
#: Refuse documents nested deeper than this.
MAX_DEPTH = 40
#: Refuse integers with more digits than this: no rule counts past a billion, and Python refuses
#: to convert past 4,300 digits (a ValueError, not a spec error).
MAX_INT_DIGITS = 12


@dataclass(frozen=True)
class Loaded:
    """A spec's data and the location of every path in it."""

    data: Any
    locations: dict[Path, Location]
    file: str

    def where(self, path: Path) -> Location:
        """The location of ``path``, or of its nearest located ancestor."""
        return nearest_location(self.locations, path, self.file)


if TYPE_CHECKING:
    _SafeLoader = yaml.SafeLoader
else:  # libyaml's parser where PyYAML was built with it: several times faster, and its nodes carry
    # the same line and column marks, so every error still names its line.
    _SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_SafeLoader):
    pass


#: The first pass only reads events; libyaml's parser does it in C when PyYAML has it.
_EventLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_spec_text(text: str, file: str) -> Loaded:
    """Parse one spec's YAML text; raise :class:`SpecErrors` on any problem."""
    if len(text.encode("utf-8")) > MAX_SPEC_BYTES:
        raise SpecErrors(
            [SpecError(f"file is larger than {MAX_SPEC_BYTES} bytes", Location(file, 1))]
        )
    try:
        events = _EventLoader(text)
        try:
            _refuse_aliases_and_depth(events, file)
        finally:
            events.dispose()
        # Re-read: the first pass consumed the event stream.
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else 1
        col = mark.column + 1 if mark else 1
        msg = " ".join(str(x) for x in (e.context, e.problem) if x)
        raise SpecErrors([SpecError(f"malformed YAML: {msg}", Location(file, line, col))]) from None
    except yaml.YAMLError as e:
        raise SpecErrors([SpecError(f"malformed YAML: {e}", Location(file, 1))]) from None
    if node is None:
        raise SpecErrors(
            [
                SpecError(
                    "the file is empty; a spec needs at least id, names and source",
                    Location(file, 1),
                )
            ]
        )
    locations: dict[Path, Location] = {}
    errors: list[SpecError] = []
    data = _convert(node, (), file, locations, errors, 0)
    if errors:
        raise SpecErrors.of(errors)
    return Loaded(data, locations, file)


def load_spec_file(path: FilePath, display: str | None = None) -> Loaded:
    """Read and parse a spec file; ``display`` is the name used in messages."""
    name = display or str(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise SpecErrors(
            [SpecError(f"cannot read the file: {e.strerror}", Location(name, 1))]
        ) from None
    if len(raw) > MAX_SPEC_BYTES:
        raise SpecErrors(
            [SpecError(f"file is larger than {MAX_SPEC_BYTES} bytes", Location(name, 1))]
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SpecErrors(
            [SpecError(f"not UTF-8 text (byte {e.start})", Location(name, 1))]
        ) from None
    return load_spec_text(text, name)


def _refuse_aliases_and_depth(loader: Any, file: str) -> None:
    """Refuse aliases and anchors, and nesting deeper than MAX_DEPTH, from the event stream.

    The depth is checked here, before any node is composed: PyYAML's composer recurses once per
    level (500 levels overflow Python's stack) and its scanner slows down quadratically with the
    depth (5,000 levels took 19 s), so the stream stops at the first level too deep.
    """
    depth = 0
    while loader.check_event():
        event = loader.get_event()
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH + 1:  # the top mapping is level 1 here, level 0 in _convert
                mark = event.start_mark
                where = (
                    Location(file, mark.line + 1, mark.column + 1) if mark else Location(file, 1)
                )
                raise SpecErrors([SpecError(f"nested deeper than {MAX_DEPTH} levels", where)])
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
        anchor = getattr(event, "anchor", None)
        if isinstance(event, yaml.AliasEvent) or anchor is not None:
            mark = event.start_mark
            raise SpecErrors(
                [
                    SpecError(
                        "YAML anchors and aliases (&name, *name) are not allowed in specs; "
                        "use `extends` to share rules between profiles",
                        Location(file, mark.line + 1, mark.column + 1),
                    )
                ]
            )


def _convert(
    node: Node,
    path: Path,
    file: str,
    locs: dict[Path, Location],
    errors: list[SpecError],
    depth: int,
) -> Any:
    loc = Location(file, node.start_mark.line + 1, node.start_mark.column + 1)
    locs[path] = loc
    if depth > MAX_DEPTH:
        errors.append(SpecError(f"nested deeper than {MAX_DEPTH} levels", loc, path))
        return None
    if isinstance(node, MappingNode):
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                errors.append(SpecError("mapping keys must be plain words", loc, path))
                continue
            key = _Loader.construct_scalar(_Loader(""), key_node)  # plain text, never a typed value
            if key_node.tag == "tag:yaml.org,2002:merge" or key == "<<":
                errors.append(
                    SpecError("YAML merge keys (<<) are not allowed; use `extends`", loc, path)
                )
                continue
            key = str(key)
            kloc = Location(file, key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if key in out:
                first = locs.get(path + (key,))
                errors.append(
                    SpecError(
                        f"duplicate key {key!r} (first defined at line "
                        f"{first.line if first else '?'})",
                        kloc,
                        path + (key,),
                    )
                )
                continue
            out[key] = _convert(value_node, path + (key,), file, locs, errors, depth + 1)
            locs[path + (key,)] = kloc
        return out
    if isinstance(node, SequenceNode):
        return [
            _convert(item, path + (i,), file, locs, errors, depth + 1)
            for i, item in enumerate(node.value)
        ]
    assert isinstance(node, ScalarNode)
    loader = _Loader("")
    try:
        if node.tag == "tag:yaml.org,2002:int":
            digits = sum(ch.isdigit() for ch in node.value)
            if digits > MAX_INT_DIGITS:
                errors.append(
                    SpecError(
                        f"an integer of {digits} digits is beyond any rule's range (at most "
                        f"{MAX_INT_DIGITS})",
                        loc,
                        path,
                    )
                )
                return None
        return loader.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError) as e:
        errors.append(SpecError(f"bad value: {e}", loc, path))
        return None
    finally:
        loader.dispose()
