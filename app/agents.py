"""Agents named by text (``--bots`` of ``mjspec play`` and ``mjspec simulate``), loaded and seeded.

A spec names one agent:

- ``greedy``, ``random``: the bundled bots (:class:`~mjspec.runtime.bots.GreedyBot`,
  :class:`~mjspec.runtime.bots.RandomBot`);
- ``path/to/FILE.py:ClassName``: a class defined in a Python file (the file is run as a module
  of its own; a relative path is read from the current directory);
- ``package.module:ClassName``: a class of an importable module.

A class is an agent when its instances have ``choose(observation) -> Action``
(:class:`~mjspec.runtime.observation.Agent`). Each seat gets its own instance, made as
``ClassName(seed=N)`` when the class takes a ``seed`` argument (or ``**kwargs``), else as
``ClassName()``; ``N`` is ``game_seed * 4 + seat``, as for the bundled bots, so a seeded game
replays.

Other kinds of agent are added with :func:`register_kind` under a prefix (``PREFIX:REST``: the
loader gets ``REST``), without touching the parser; a bot process speaking mjai over stdin and
stdout is ``mjai:COMMAND`` (app/mjai_bot.py, which registers it). A spec is plain text, so it
crosses process boundaries: a spawned simulation worker loads the same agents again from the specs
(:func:`portable`).

Every mistake in a spec (no such file, a syntax error in it, no such class, a class without
``choose``, a constructor that fails) is an :class:`AgentSpecError` naming the spec and why.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
from pathlib import Path
from typing import Callable

from mjspec.runtime.bots import GreedyBot, RandomBot
from mjspec.runtime.observation import Agent

AgentFactory = Callable[[int], Agent]
"""Makes one seat's agent from its seed."""

BUILTIN: dict[str, AgentFactory] = {"greedy": GreedyBot, "random": RandomBot}
"""The bundled bots, by name."""

_KINDS: dict[str, Callable[[str], AgentFactory]] = {}
_LOADED: dict[str, AgentFactory] = {}


class AgentSpecError(ValueError):
    """A spec that names no usable agent: says which spec and why, in one line."""

    def __init__(self, spec: str, why: str) -> None:
        super().__init__(f"--bots {spec!r}: {why}")
        self.spec = spec
        self.why = why


def register_kind(prefix: str, loader: Callable[[str], AgentFactory]) -> None:
    """Let ``PREFIX:REST`` name an agent made by ``loader(REST)`` (which raises
    :class:`AgentSpecError` for a bad ``REST``)."""
    if not prefix.isidentifier() or prefix in BUILTIN:
        raise ValueError(f"an agent kind's prefix must be a new name, got {prefix!r}")
    _KINDS[prefix] = loader


def kinds() -> list[str]:
    """The forms a spec may take (for help texts and messages)."""
    forms = [*BUILTIN, "FILE.py:CLASS", "MODULE:CLASS"]
    return forms + [f"{p}:..." for p in _KINDS]


def load_agent(spec: str) -> AgentFactory:
    """The factory of the agent ``spec`` names, loaded once per process; checked by making one
    agent (seed 0), so a constructor's failure shows here."""
    text = spec.strip()
    found = BUILTIN.get(text)
    if found is not None:
        return found
    key = portable(text)  # a file by its absolute path: the same name elsewhere is another file
    cached = _LOADED.get(key)
    if cached is not None:
        return cached
    prefix, sep, rest = text.partition(":")
    if sep and prefix in _KINDS:
        factory = _KINDS[prefix](rest)
    else:
        where, sep, name = text.rpartition(":")
        if not sep or not where or not name:
            raise AgentSpecError(spec, f"unknown bot (choose from {', '.join(kinds())})")
        cls = _class_in(spec, where, name)
        factory = _factory(spec, cls)
    factory(0)  # fail now, with the spec named, rather than in the middle of a game
    _LOADED[key] = factory
    return factory


def portable(spec: str) -> str:
    """``spec`` as another process started elsewhere reads it the same: a file's path made
    absolute (a spawned worker need not share the current directory)."""
    text = spec.strip()
    where, sep, name = text.rpartition(":")
    if sep and where and _is_file(where) and text.partition(":")[0] not in _KINDS:
        return f"{os.path.abspath(where)}:{name}"
    return text


def _is_file(where: str) -> bool:
    return where.endswith(".py") or "/" in where or os.sep in where


def _class_in(spec: str, where: str, name: str) -> type:
    module = _load_file(spec, where) if _is_file(where) else _import(spec, where)
    cls = getattr(module, name, None)
    if cls is None:
        classes = sorted(
            n for n, v in vars(module).items() if inspect.isclass(v) and not n.startswith("_")
        )
        has = f" (it has: {', '.join(classes)})" if classes else " (it defines no class)"
        raise AgentSpecError(spec, f"{where} has no class {name!r}{has}")
    if not inspect.isclass(cls):
        raise AgentSpecError(spec, f"{where}: {name} is not a class")
    if not callable(getattr(cls, "choose", None)):
        raise AgentSpecError(
            spec, f"{where}: class {name} has no choose(observation) method: it is no agent"
        )
    return cls


def _load_file(spec: str, where: str) -> object:
    path = Path(where)
    if not path.is_file():
        raise AgentSpecError(spec, f"no such file {where}")
    # A module name of its own per file (its absolute path's hash), registered before it runs:
    # dataclasses and pickling look a class's module up in sys.modules.
    full = str(path.resolve())
    module_name = "mjspec_agent_" + hashlib.sha256(full.encode()).hexdigest()[:16]
    if module_name in sys.modules:
        return sys.modules[module_name]
    loader = importlib.util.spec_from_file_location(module_name, full)
    if loader is None or loader.loader is None:
        raise AgentSpecError(spec, f"{where} cannot be loaded as Python")
    module = importlib.util.module_from_spec(loader)
    sys.modules[module_name] = module
    try:
        loader.loader.exec_module(module)
    except SyntaxError as e:
        del sys.modules[module_name]
        raise AgentSpecError(spec, f"{where}: syntax error at line {e.lineno}: {e.msg}") from None
    except Exception as e:  # the file's own code failed: one line, naming it
        del sys.modules[module_name]
        raise AgentSpecError(spec, f"{where}: running it raised {_said(e)}") from None
    return module


def _import(spec: str, where: str) -> object:
    try:
        return importlib.import_module(where)
    except ModuleNotFoundError as e:
        raise AgentSpecError(spec, f"no module named {e.name or where!r}") from None
    except SyntaxError as e:
        raise AgentSpecError(
            spec, f"{where}: syntax error in {e.filename} at line {e.lineno}: {e.msg}"
        ) from None
    except Exception as e:  # the module's own code failed on import
        raise AgentSpecError(spec, f"importing {where} raised {_said(e)}") from None


def _factory(spec: str, cls: type) -> AgentFactory:
    """``cls(seed=N)`` when the class takes a seed, else ``cls()``; a failing constructor is the
    spec's error."""
    try:
        parameters = list(inspect.signature(cls).parameters.values())
    except (TypeError, ValueError):  # no signature to read (a builtin): made without a seed
        parameters = []
    seeded = any(p.name == "seed" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)

    def make(seed: int) -> Agent:
        try:
            agent: Agent = cls(seed=seed) if seeded else cls()
        except Exception as e:
            raise AgentSpecError(spec, f"making {cls.__name__} raised {_said(e)}") from None
        return agent

    return make


def _said(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}" if str(e) else type(e).__name__


from mjspec.app import mjai_bot as _mjai_bot  # noqa: E402,F401  (registers the mjai: kind)
