"""The integer codes the native core and the Python glue give each value of an enum, listed once.

The native backend passes a tile's suit, a group's kind, a hand's shape and wait, a wind, a meld
type as small integers, and a profile's tables name a combination's kind of sets, a group's pick
and the preference keys the same way. This table is the one place those numbers come from:
``mjspec build`` writes ``runtime/native/mjenums.h`` from it (the C constants ``MJ_<stem>_<VALUE>``
that the core, its readers and the generated modules use), the lowering (compiler/native.py) names
those constants from it, and the glue (runtime/native_score.py, runtime/native_contract.py) and
the tests' ctypes mirror (tests/nativekit.py) take their codes from it. Reordering a list changes
the numbers the compiled core was built with: rebuild it and bump ``MJ_ABI`` (mjscore.h).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .context import Wind
from .hand import GroupKind, MeldType, ShapeKind, WaitKind
from .profile import Combine, Pick
from .tiles import Suit

__all__ = [
    "NativeEnum",
    "NATIVE_ENUMS",
    "SUIT_CODES",
    "SHAPE_CODES",
    "WAIT_CODES",
    "GROUP_KIND_CODES",
    "WIND_CODES",
    "MELD_CODES",
    "COMBINE_CODES",
    "PICK_CODES",
    "PREFER_CODES",
]


@dataclass(frozen=True)
class NativeEnum:
    """One enum as the native side numbers it: value ``values[i]`` is ``i``, and its C constant is
    ``MJ_<stem>_<VALUE>`` (the value upper-cased)."""

    what: str
    """What it numbers (the header's comment)."""
    stem: str
    values: tuple[str, ...]
    """In code order."""

    @property
    def codes(self) -> dict[str, int]:
        return {v: i for i, v in enumerate(self.values)}

    def constant(self, value: str) -> str:
        """The C constant of ``value`` (KeyError for a value the enum does not have)."""
        return f"MJ_{self.stem}_{self.values[self.values.index(value)].upper()}"


def _values(enum: type[StrEnum]) -> tuple[str, ...]:
    """The values of ``enum`` in declaration order, as plain strings."""
    return tuple(member.value for member in enum)


SUIT_CODES = NativeEnum(
    "suit: m p s z (the vocabulary's suit; flowers never reach the core's expressions)",
    "SUIT",
    tuple(s.value for s in Suit if s is not Suit.FLOWER),
)
SHAPE_CODES = NativeEnum("shape (runtime/hand.py ShapeKind)", "SHAPE", _values(ShapeKind))
WAIT_CODES = NativeEnum("wait (runtime/hand.py WaitKind)", "WAIT", _values(WaitKind))
GROUP_KIND_CODES = NativeEnum("group kind (runtime/hand.py GroupKind)", "GK", _values(GroupKind))
WIND_CODES = NativeEnum(
    "wind: E S W N; an Optional(wind) that is None is MJ_NONE", "WIND", _values(Wind)
)
MELD_CODES = NativeEnum(
    "meld type of a declared group (the open calls, then the concealed kong: not MeldType's "
    "order); a group read from the hand has MJ_NONE",
    "MELD",
    tuple(MeldType(v).value for v in ("chi", "pon", "minkan", "kakan", "ankan")),
)
COMBINE_CODES = NativeEnum(
    "the sets a combination pattern counts (runtime/profile.py Combine)",
    "COMBINE",
    _values(Combine),
)
PICK_CODES = NativeEnum(
    "how a pattern group's members count (runtime/profile.py Pick)", "PICK", _values(Pick)
)
PREFER_CODES = NativeEnum(
    "a key of scoring.prefer (how the best arrangement is chosen)",
    "PREFER",
    ("total", "payment", "points"),
)

#: Every enum the native side numbers, in the order mjenums.h lists them.
NATIVE_ENUMS: tuple[NativeEnum, ...] = (
    SUIT_CODES,
    SHAPE_CODES,
    WAIT_CODES,
    GROUP_KIND_CODES,
    WIND_CODES,
    MELD_CODES,
    COMBINE_CODES,
    PICK_CODES,
    PREFER_CODES,
)
assert set(MELD_CODES.values) == set(MeldType), "a meld type the core does not number"
