"""Which generated function tests the ``when`` of each whole-hand pattern, and at which bit.

The scorer tests the ``when`` of every whole-hand pattern (no ``combine``) of a list in one call of
a generated function: one list for the patterns reading the tiles only, one for the others (what
``ProfileIR.whole_hand_lists`` splits). A profile that extends nothing defines one function per
list, bit i for the i-th pattern of the list, as before.

A profile that extends another keeps its parent's functions and their bits: each pattern whose
``when`` reads as the parent's (same spec text, same Python) is tested by the function that tests
it in the parent, at the bit it has there. Only the patterns it changes or adds are written in a
function of its own (named for the profile, so that it never takes the name of a function it
imports). A pattern it removes, or one it changes, leaves a bit of the parent's function that this
profile never asks for (``None`` in its ``whole_hand_conditions``). So the child's module imports
the parent's functions (compiler/share.py finds their text unchanged) instead of writing them
again because a bit moved, and the scorer (runtime/scoring.py ``_plan``) joins the functions a list
needs, each asked for the bits this profile uses.
"""

from __future__ import annotations

from dataclasses import dataclass

from .ir import PatternIR, ProfileIR


@dataclass(frozen=True)
class FusedWhen:
    """One generated function testing several ``when`` at once: bit i for ``members[i]``."""

    name: str
    what: str
    """What its patterns are, for its comment ("reading the tiles only"...)."""
    tiles_only: bool
    """Whether its patterns read the tiles only (the scorer's first list) or the situation."""
    members: tuple[PatternIR, ...]
    """The patterns it tests, as the profile that defines the function states them."""
    note: str | None = None
    """What else its comment says (a child's function: which patterns it holds)."""


@dataclass(frozen=True)
class WholeHandLayout:
    """The functions a profile's module holds (its own and those it shares) and what it asks of
    each."""

    uses: tuple[tuple[FusedWhen, tuple[str | None, ...]], ...]
    """Each function with the pattern id of each of its bits for this profile (None: a bit this
    profile does not ask for); what ``Profile.whole_hand_conditions`` lists."""

    @property
    def functions(self) -> tuple[FusedWhen, ...]:
        return tuple(f for f, _ in self.uses)

    @property
    def bits(self) -> dict[str, tuple[str, int]]:
        """Pattern id: the function that tests its ``when`` and its bit there (patterns with a
        ``when`` only; one without is always met and needs no ``ListedWhen``)."""
        out: dict[str, tuple[str, int]] = {}
        for f, ids in self.uses:
            for bit, (pid, member) in enumerate(zip(ids, f.members)):
                if pid is not None and member.when is not None:
                    out[pid] = (f.name, bit)
        return out


def _same_when(a: PatternIR, b: PatternIR) -> bool:
    """Whether two statements of a pattern test the same ``when``: the same spec text compiled to
    the same Python (the function's text quotes the one and runs the other), or neither has one."""
    if a.when is None or b.when is None:
        return a.when is None and b.when is None
    return a.when.source == b.when.source and a.when.python == b.when.python


def whole_hand_layout(ir: ProfileIR, parent: WholeHandLayout | None = None) -> WholeHandLayout:
    """The layout of ``ir``'s whole-hand functions: its own lists when it extends nothing (or its
    parent's layout is not known), else its parent's functions and bits, with a function of its own
    for the patterns whose ``when`` it changes or adds."""
    lists = ir.whole_hand_lists
    if parent is None:
        return WholeHandLayout(
            tuple(
                (FusedWhen(name, what, i == 0, listed), tuple(p.id for p in listed))
                for i, (name, what, listed) in enumerate(lists)
            )
        )
    taken: dict[int, list[str | None]] = {
        i: [None] * len(f.members) for i, f in enumerate(parent.functions)
    }
    own: list[tuple[FusedWhen, tuple[str | None, ...]]] = []
    for kind, (name, what, listed) in enumerate(lists):
        tiles_only = kind == 0
        left: list[PatternIR] = []
        for p in listed:
            place = next(
                (
                    (i, bit)
                    for i, f in enumerate(parent.functions)
                    if f.tiles_only == tiles_only
                    for bit, m in enumerate(f.members)
                    if m.id == p.id and taken[i][bit] is None and _same_when(m, p)
                ),
                None,
            )
            if place is None:
                left.append(p)
            else:
                taken[place[0]][place[1]] = p.id
        if left:
            mine = FusedWhen(
                f"{name}_{ir.id}",
                what,
                tiles_only,
                tuple(left),
                f"Only those whose `when` {ir.id} changes or adds: the function of the profile "
                "it extends tests the others.",
            )
            own.append((mine, tuple(p.id for p in left)))
    inherited = [
        (f, tuple(taken[i]))
        for i, f in enumerate(parent.functions)
        if any(pid is not None for pid in taken[i])
    ]
    return WholeHandLayout((*inherited, *own))
