"""The spec language's vocabulary as the expression compiler reads it.

Every name, function and type is declared once, in :mod:`mjspec.runtime.vocabulary` (the runtime
imports nothing of the compiler, and :class:`mjspec.runtime.view.HandView` takes its slots from
there). This module re-exports those declarations for the compiler and builds the typed
:class:`~mjspec.compiler.expr.Vocabulary` of each kind of expression from them.
"""

from __future__ import annotations

from mjspec.runtime.vocabulary import (
    COMBINATION_NAMES,
    COSTLY_NAMES,
    GROUP,
    GROUP_KIND,
    HAND_FUNCTIONS,
    HAND_NAMES,
    MEMBERS_NAMES,
    OPTION_FUNCTIONS,
    PAYMENT_NAMES,
    POINT_FUNCTIONS,
    POINT_NAMES,
    SHAPE,
    SUIT,
    TILE,
    TILES_ONLY_NAMES,
    WAIT,
    WIND,
    OptionTypes,
)

from .expr import BOOL, INT, Enum, FuncSig, Type, Vocabulary

__all__ = [
    "COMBINATION_NAMES",
    "COSTLY_NAMES",
    "GROUP",
    "GROUP_KIND",
    "HAND_FUNCTIONS",
    "HAND_NAMES",
    "MEMBERS_NAMES",
    "OPTION_FUNCTIONS",
    "PAYMENT_NAMES",
    "POINT_FUNCTIONS",
    "POINT_NAMES",
    "SHAPE",
    "SUIT",
    "TILE",
    "TILES_ONLY_NAMES",
    "WAIT",
    "WIND",
    "OptionTypes",
    "combination_vocabulary",
    "hand_vocabulary",
    "option_functions",
    "payment_vocabulary",
    "points_vocabulary",
]


def option_functions(options: OptionTypes) -> dict[str, FuncSig]:
    """The option functions this profile can call: one per kind of option it declares."""
    out: dict[str, FuncSig] = {}
    for fn, (types, returns, _) in OPTION_FUNCTIONS.items():
        names = frozenset(n for n, t in options.items() if t in types)
        if names:
            out[fn] = FuncSig((Enum(f"{'/'.join(sorted(types))} option", names),), returns)
    return out


def hand_vocabulary(options: OptionTypes | None = None) -> Vocabulary:
    return Vocabulary(
        names={k: t for k, (t, _) in HAND_NAMES.items()},
        functions={
            **{k: sig for k, (sig, _) in HAND_FUNCTIONS.items()},
            **option_functions(options or {}),
        },
    )


def combination_vocabulary(size: int, options: OptionTypes | None = None) -> Vocabulary:
    """The hand vocabulary plus the first ``size`` combination members and ``members``."""
    names: dict[str, Type] = {k: t for k, (t, _) in HAND_NAMES.items()}
    for k in ("a", "b", "c", "d")[:size]:
        names[k] = COMBINATION_NAMES[k][0]
    names["members"] = COMBINATION_NAMES["members"][0]
    functions = {
        **{k: sig for k, (sig, _) in HAND_FUNCTIONS.items()},
        **option_functions(options or {}),
    }
    return Vocabulary(names=names, functions=functions)


def points_vocabulary(
    pattern_ids: tuple[str, ...], *, result: bool, options: OptionTypes | None = None
) -> Vocabulary:
    """The hand vocabulary plus ``counted(pattern)`` (and ``points`` in the result formula)."""
    names: dict[str, Type] = {k: t for k, (t, _) in HAND_NAMES.items()}
    if result:
        names["points"] = POINT_NAMES["points"][0]
    functions = {
        **{k: sig for k, (sig, _) in HAND_FUNCTIONS.items()},
        **option_functions(options or {}),
    }
    functions["counted"] = FuncSig((Enum("pattern id", frozenset(pattern_ids)),), BOOL)
    return Vocabulary(names=names, functions=functions)


def payment_vocabulary(named: tuple[str, ...], options: OptionTypes | None = None) -> Vocabulary:
    names: dict[str, Type] = {k: t for k, (t, _) in PAYMENT_NAMES.items()}
    for n in named:
        names[n] = INT
    return Vocabulary(names=names, functions=option_functions(options or {}))
