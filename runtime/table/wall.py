"""The wall and the deal's chance: dice, the break, the live wall, the dead wall and loose tiles.

000 §1 / 002 §2: the first roll's sum picks the side the wall opens at; 001: a dead wall of
fourteen tiles holds the replacements and the indicators; 003 "The deal etc." / M 22: the loose
tiles (sixteen, or fourteen kept at 13-14) stand apart from the live wall.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from ..deadwall import DeadWall
from ..profile import Profile
from ..rules import IndicatorTiming
from ..tiles import Tile, format_tiles
from .common import SEATS, Seat


class Wall:
    """The wall in drawing order: the live wall is ``tiles[front:back]``; the loose tiles are
    ``tiles[back:loose_end]`` (with :class:`~mjspec.runtime.rules.LooseTiles`), the dead wall the
    last tiles (with :class:`~mjspec.runtime.rules.DeadWallRules`)."""

    __slots__ = (
        "initial",
        "dice",
        "tiles",
        "front",
        "back",
        "dead",
        "loose_end",
        "loose_from_live",
        "_loose",
    )

    def __init__(
        self,
        profile: Profile,
        rng: random.Random,
        *,
        tiles: Sequence[Tile] | None,
        dice: tuple[int, ...] | None,
    ) -> None:
        rules = profile.table
        # Chance, in a fixed order so that a seed replays exactly: the shuffle, then the dice.
        if tiles is None:
            shuffled = list(_all_tiles(profile))
            rng.shuffle(shuffled)
            tiles = shuffled
        elif sorted(tiles) != sorted(_all_tiles(profile)):
            raise ValueError("an explicit wall must hold exactly the profile's tile set")
        rolls = 2 * max(1, rules.dice)
        self.dice: tuple[int, ...] = (
            dice if dice is not None else tuple(rng.randint(1, 6) for _ in range(rolls))
        )
        self.initial: tuple[Tile, ...] = tuple(tiles)
        """The wall before the dice open it (a record stores this)."""
        self.tiles: list[Tile] = _break_wall(list(tiles), self.dice)
        self.front = 0
        self.back = len(self.tiles)
        # 001: a dead wall at the wall's end holds the replacements and indicators; the live wall
        # stops before it.
        self.dead: DeadWall | None = None
        if rules.dead_wall is not None:
            size = rules.dead_wall.tiles
            self.dead = DeadWall(rules.dead_wall, tuple(self.tiles[-size:]))
            self.back = len(self.tiles) - size
        # 003 / M 22: the loose tiles are tiles[back:loose_end], kept apart from the live wall.
        self.loose_end = len(self.tiles)
        self.loose_from_live = False  # the last replacement came from the live wall
        self._loose = rules.loose
        if self._loose is not None and self._loose.dead_wall:
            self.back = len(self.tiles) - (16 if self._loose.sixteen else 14)

    @property
    def remaining(self) -> int:
        """Tiles left to draw (front and replacement tiles come from the same live wall)."""
        return self.back - self.front

    def pop_front(self) -> Tile:
        tile = self.tiles[self.front]
        self.front += 1
        return tile

    def deal(
        self, dealer: Seat, *, dealer_tiles: int, others: int, in_blocks: bool
    ) -> list[tuple[Seat, Tile]]:
        """The deal from the front of the wall: who takes each tile, in order
        (:func:`deal_order`)."""
        order = deal_order(dealer, dealer_tiles=dealer_tiles, others=others, in_blocks=in_blocks)
        return [(seat, self.pop_front()) for seat in order]

    def dealt(self, dealer: Seat) -> dict[str, Any]:
        """The ``deal`` event's data: the dealer, the dice, the wall's size, the indicators."""
        data: dict[str, Any] = {"dealer": dealer, "dice": list(self.dice), "wall": len(self.tiles)}
        if self.dead is not None:
            data["indicators"] = format_tiles(self.dead.indicators())
        return data

    def pop_back(self) -> Tile:
        self.back -= 1
        return self.tiles[self.back]

    def replacement(self, *, kong: bool) -> Tile:
        """The tile that replaces a kong or a bonus tile: from the dead wall, the loose tiles or the
        wall's end."""
        self.loose_from_live = False
        if self.dead is not None:
            self.back -= 1  # the live wall's last tile joins the dead wall
            return self.dead.draw()
        if self._loose is not None:
            return self._loose_tile(kong=kong)
        return self.pop_back()

    def _loose_tile(self, *, kong: bool) -> Tile:
        """A replacement under :class:`LooseTiles` (003 "The deal etc.", M 22, M 31)."""
        loose = self._loose
        assert loose is not None
        if not kong and not loose.flowers_loose:
            self.loose_from_live = True
            return self.pop_front()  # M 31: a bonus tile's replacement comes from the live wall
        if not loose.dead_wall or self.loose_end == self.back:
            # No dead wall, or the 16 loose tiles are used up: the live wall's last tile.
            self.loose_from_live = True
            self.back -= 1
            self.loose_end = self.back
            return self.tiles[self.back]
        self.loose_end -= 1
        tile = self.tiles[self.loose_end]
        if not loose.sixteen and self.loose_end - self.back < 13 and self.remaining >= 2:
            self.back -= 2  # 14 loose tiles kept at 13 or 14: the live wall's last two join them
        return tile

    def replacement_is_loose(self) -> bool:
        """Whether the last replacement was a loose tile (a win on it is a win on a loose tile,
        003)."""
        return self._loose is not None and not self.loose_from_live

    def replacement_is_never_last(self) -> bool:
        """With a dead wall or a loose tile a replacement is never the live wall's last tile."""
        return self.dead is not None or self.replacement_is_loose()

    def kong_has_replacement(self) -> bool:
        """A kong needs a tile left to draw and, with a dead wall, a replacement in it."""
        if self.back <= self.front:
            return False
        return self.dead is None or self.dead.replacements_left > 0

    # ------------------------------------------------------------ indicators (001)

    def reveal_pending(self) -> list[Tile]:
        """The indicators kongs left pending, turned now (an open kong's with its replacement
        discard)."""
        dead = self.dead
        out: list[Tile] = []
        if dead is None:
            return out
        while dead.pending:
            dead.pending -= 1
            tile = dead.reveal()
            if tile is not None:
                out.append(tile)
        return out

    def kong_indicator(self, concealed: bool) -> list[Tile]:
        """A kong turns over one more indicator: at once, or after its replacement discard (001).
        Returns the indicators turned now (an earlier kong's pending one first)."""
        dead = self.dead
        if dead is None or not dead.rules.kong_indicators:
            return []
        # Another kong intervened: the earlier one's indicator is turned first.
        out = self.reveal_pending()
        timing = (
            dead.rules.concealed_kong_indicator if concealed else dead.rules.open_kong_indicator
        )
        if timing is IndicatorTiming.AT_ONCE:
            tile = dead.reveal()
            if tile is not None:
                out.append(tile)
        else:
            dead.pending += 1
        return out

    def census(self) -> list[Tile]:
        """The tiles still in the wall (live, loose and dead)."""
        if self.dead is not None:
            return (
                list(self.tiles[self.front : len(self.tiles) - len(self.dead.tiles)])
                + self.dead.remaining()
            )
        if self._loose is not None:
            return list(self.tiles[self.front : self.loose_end])
        return list(self.tiles[self.front : self.back])


_ALL_TILES: dict[Any, tuple[Tile, ...]] = {}


def deal_order(dealer: Seat, *, dealer_tiles: int, others: int, in_blocks: bool) -> list[Seat]:
    """The seat that receives each dealt tile, in drawing order, the dealer first. ``in_blocks``
    (002 §2): four tiles to each seat, three passes; one more each; the dealer's jump draw.
    Otherwise each seat takes its tiles at once."""
    order = [(dealer + i) % SEATS for i in range(SEATS)]
    out: list[Seat] = []
    if in_blocks:
        for _ in range(3):
            for seat in order:
                out.extend([seat] * 4)
        for seat in order:
            out.extend([seat] * (others - 12))
        out.extend([dealer] * (dealer_tiles - others))
    else:
        for seat in order:
            out.extend([seat] * (dealer_tiles if seat == dealer else others))
    return out


def _all_tiles(profile: Profile) -> tuple[Tile, ...]:
    """The profile's tile set in its fixed order (the order a seed shuffles), made once per tile
    set: making 136 tiles is a tenth of a first-legal hand's time."""
    tiles = _ALL_TILES.get(profile.tiles)
    if tiles is None:
        tiles = _ALL_TILES[profile.tiles] = tuple(profile.tiles.all_tiles())
    return tiles


def _wall_cut(size: int, dice: Sequence[int]) -> int:
    first = dice[0] + dice[1]
    side = (first - 1) % SEATS
    stack = min(dice[0], dice[1]) if len(dice) <= 2 else first + dice[2] + dice[3]
    return (side * (size // SEATS) + 2 * stack) % size


def _break_wall(tiles: list[Tile], dice: Sequence[int]) -> list[Tile]:
    """Open the wall where the dice say: the first roll's sum picks the side (000 §1, 002 §2);
    the stack is its lower die (one roll) or the two sums together (two rolls).

    The engine's wall is a shuffled ring; opening it at that point rotates the ring.
    """
    cut = _wall_cut(len(tiles), dice)
    return tiles[cut:] + tiles[:cut]


def open_wall(tiles: Sequence[Tile], dice: Sequence[int]) -> list[Tile]:
    """The wall in drawing order (deal, draws, then the dead wall at the end) that ``dice`` make of
    a record's wall."""
    return _break_wall(list(tiles), dice)


def closed_wall(drawing_order: Sequence[Tile], dice: Sequence[int]) -> list[Tile]:
    """The record's wall (before the dice open it) that ``dice`` turn into ``drawing_order``: the
    inverse of :func:`open_wall`.

    An importer of real games writes the tiles in the order they are dealt and drawn, the
    dead wall last (docs/records.md), and stores this."""
    tiles = list(drawing_order)
    cut = _wall_cut(len(tiles), dice)
    return tiles[len(tiles) - cut :] + tiles[: len(tiles) - cut]
