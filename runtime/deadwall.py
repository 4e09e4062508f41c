"""The dead wall: the last tiles of the wall, set aside for kong replacements and bonus indicators
(001).

Layout. After the wall is broken, the engine's wall is one list in drawing
order; the dead wall is its last ``size`` tiles, ``d[0] .. d[size-1]``. Read
as seven stacks of two (top, bottom) counted from the live wall's end:

- replacement tiles are drawn in the order ``d[12], d[13], d[10], d[11]``
  (the far end first, top before bottom);
- indicators are ``d[8], d[6], d[4], d[2], d[0]`` (the first at the start,
  the others one per kong, toward the live wall); the tile under each one
  (``d[9], d[7], d[5], d[3], d[1]``) is its under-indicator (ura).

Each replacement shortens the live wall by one tile at its end (the last
live tile joins the dead wall, which stays at ``size`` tiles). This is the
layout of a physical table and of Tenhou's logs, so a record's explicit wall
reproduces real games.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .rules import DeadWallRules
from .tiles import Tile

REPLACEMENTS = (12, 13, 10, 11)
"""Dead-wall positions of the replacement tiles, in drawing order."""
INDICATORS = (8, 6, 4, 2, 0)
"""Dead-wall positions of the indicators, in the order they are turned over."""
UNDER = (9, 7, 5, 3, 1)
"""The tile under each indicator (same order)."""


def next_kind(kind: int) -> int:
    """The kind an indicator names: the next number in its suit (9 to 1), winds E-S-W-N-E, dragons
    white-green-red-white."""
    if kind < 27:
        return kind - kind % 9 + (kind % 9 + 1) % 9
    if kind < 31:
        return 27 + (kind - 27 + 1) % 4
    return 31 + (kind - 31 + 1) % 3


@dataclass
class DeadWall:
    """The dead wall of one hand: what has been drawn from it and which indicators are turned
    over."""

    rules: DeadWallRules
    tiles: tuple[Tile, ...]
    drawn: int = 0
    """Replacement tiles drawn so far."""
    revealed: int = 0
    """Indicators turned over so far."""
    pending: int = 0
    """Kong indicators owed but not yet turned over (an open kong's waits for its discard)."""
    _taken: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        if len(self.tiles) != self.rules.tiles or self.rules.tiles < 14:
            raise ValueError(
                f"the dead wall needs {max(14, self.rules.tiles)} tiles, got {len(self.tiles)}"
            )
        if self.rules.indicators:
            self.revealed = 1

    @property
    def replacements_left(self) -> int:
        return len(REPLACEMENTS) - self.drawn

    def draw(self) -> Tile:
        """The next replacement tile."""
        if self.drawn >= len(REPLACEMENTS):
            raise IndexError("the dead wall has no replacement tile left")
        pos = REPLACEMENTS[self.drawn]
        self.drawn += 1
        self._taken.add(pos)
        return self.tiles[pos]

    def reveal(self) -> Tile | None:
        """Turn over the next indicator; return it (None if every indicator is already turned)."""
        if self.revealed >= len(INDICATORS):
            return None
        self.revealed += 1
        return self.tiles[INDICATORS[self.revealed - 1]]

    def indicators(self) -> list[Tile]:
        """The indicators turned over, in order."""
        return [self.tiles[INDICATORS[i]] for i in range(self.revealed)]

    def under_indicators(self) -> list[Tile]:
        """The tiles under the turned indicators (only the first when kong under-indicators are
        off)."""
        n = self.revealed if self.rules.kong_under_indicators else min(1, self.revealed)
        return [self.tiles[UNDER[i]] for i in range(n)]

    def remaining(self) -> list[Tile]:
        """Every dead-wall tile not drawn (for the tile census)."""
        return [t for i, t in enumerate(self.tiles) if i not in self._taken]
