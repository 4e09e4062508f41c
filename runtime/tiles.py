"""Tiles, tile sets and the mpsz notation.

A tile *kind* is a plain ``int`` so that hands can be counted in flat vectors
(``counts34``) on the hot paths; :class:`Tile` wraps a kind with the one
property a kind cannot carry, being a red five.

Kind layout::

    0..8    1m..9m   characters (man)
    9..17   1p..9p   circles (pin)
    18..26  1s..9s   bamboo (sou)
    27..33  1z..7z   East, South, West, North, White, Green, Red
    34..41  1f..8f   plum, orchid, chrysanthemum, bamboo, spring .. winter

Only the first :data:`N_KINDS` kinds form hands; flowers are set aside when
drawn, so they are kept out of ``counts34`` vectors.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from enum import StrEnum

__all__ = [
    "N_KINDS",
    "N_ALL_KINDS",
    "Suit",
    "Tile",
    "TileSet",
    "NotationError",
    "kind_of",
    "suit_of_kind",
    "number_of_kind",
    "parse_tiles",
    "format_tiles",
    "counts34",
]

N_KINDS = 34
"""Kinds that form hands: three suits of nine and seven honors."""

N_ALL_KINDS = 42
"""All kinds, the eight flowers included."""


class Suit(StrEnum):
    """The suit of a tile, spelled as its mpsz letter."""

    MAN = "m"
    """Characters (wan, manzu): kinds 0..8."""
    PIN = "p"
    """Circles (tong, pinzu): kinds 9..17."""
    SOU = "s"
    """Bamboo (tiao, souzu): kinds 18..26."""
    HONOR = "z"
    """Winds then dragons: 1z..4z East, South, West, North; 5z..7z White, Green, Red."""
    FLOWER = "f"
    """Flowers and seasons, one copy each: 1f..4f plum, orchid, chrysanthemum, bamboo; 5f..8f
    spring..winter."""


# (suit, first kind, how many numbers) in kind order; the one table every
# kind <-> (suit, number) conversion reads.
_SUIT_LAYOUT: tuple[tuple[Suit, int, int], ...] = (
    (Suit.MAN, 0, 9),
    (Suit.PIN, 9, 9),
    (Suit.SOU, 18, 9),
    (Suit.HONOR, 27, 7),
    (Suit.FLOWER, 34, 8),
)
_SUIT_BASE: dict[Suit, tuple[int, int]] = {s: (b, n) for s, b, n in _SUIT_LAYOUT}
#: Each suit's first kind index and number of kinds (m, p, s: 9; z: 7; f: 8).
SUIT_LAYOUT: dict[Suit, tuple[int, int]] = dict(_SUIT_BASE)
_KIND_SUIT: tuple[Suit, ...] = tuple(s for s, _, n in _SUIT_LAYOUT for _ in range(n))
_KIND_NUMBER: tuple[int, ...] = tuple(i + 1 for _, _, n in _SUIT_LAYOUT for i in range(n))
# Each kind's mpsz text, plain and red (a red five is 0): made once, as every event writes tiles.
_MPSZ: tuple[tuple[str, str], ...] = tuple(
    (f"{n}{s.value}", f"0{s.value}") for s, n in zip(_KIND_SUIT, _KIND_NUMBER)
)
_SUITED = (Suit.MAN, Suit.PIN, Suit.SOU)


def kind_of(suit: str, number: int) -> int:
    """The kind index of ``number`` in ``suit`` (a :class:`Suit` or its letter).

    >>> kind_of("p", 5)
    13
    """
    try:
        s = Suit(suit)
    except ValueError:
        raise ValueError(f"unknown suit {suit!r}; expected one of m, p, s, z, f") from None
    base, size = _SUIT_BASE[s]
    if not 1 <= number <= size:
        raise ValueError(f"suit {s.value!r} has numbers 1..{size}, got {number}")
    return base + number - 1


def _check_kind(kind: int) -> None:
    if not 0 <= kind < N_ALL_KINDS:
        raise ValueError(f"tile kind must be in 0..{N_ALL_KINDS - 1}, got {kind}")


def suit_of_kind(kind: int) -> Suit:
    """The suit of a kind index."""
    _check_kind(kind)
    return _KIND_SUIT[kind]


def number_of_kind(kind: int) -> int:
    """The number of a kind within its suit: 1-9 suited, 1-7 honors, 1-8 flowers."""
    _check_kind(kind)
    return _KIND_NUMBER[kind]


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One physical tile: a kind, and whether it is a red five.

    A red five counts as an ordinary five for every shape and pattern; only
    bonus-counting rules look at :attr:`red`. Ordering is by kind, a red five
    after the plain fives of its suit.
    """

    kind: int
    red: bool = False

    def __post_init__(self) -> None:
        # bool is an int subclass: refuse it so Tile(True) is not 2m.
        if not isinstance(self.kind, int) or isinstance(self.kind, bool):
            raise ValueError(f"tile kind must be an int, got {self.kind!r}")
        _check_kind(self.kind)
        if self.red and not (_KIND_SUIT[self.kind] in _SUITED and _KIND_NUMBER[self.kind] == 5):
            raise ValueError(f"only a suited five can be red, got kind {self.kind}")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse exactly one tile in mpsz notation, such as ``"5m"`` or ``"0p"``."""
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise NotationError(
                f"expected exactly one tile, got {len(tiles)}", text=text, position=0
            )
        return tiles[0]

    @property
    def suit(self) -> Suit:
        return _KIND_SUIT[self.kind]

    @property
    def number(self) -> int:
        """1-9 for suited tiles (a red five is 5), 1-7 honors, 1-8 flowers."""
        return _KIND_NUMBER[self.kind]

    @property
    def is_suited(self) -> bool:
        return self.kind < 27

    @property
    def is_honor(self) -> bool:
        return 27 <= self.kind < 34

    @property
    def is_wind(self) -> bool:
        return 27 <= self.kind < 31

    @property
    def is_dragon(self) -> bool:
        return 31 <= self.kind < 34

    @property
    def is_terminal(self) -> bool:
        """A 1 or 9 of a suit (honors are not terminals)."""
        return self.kind < 27 and _KIND_NUMBER[self.kind] in (1, 9)

    @property
    def is_terminal_or_honor(self) -> bool:
        return self.is_terminal or self.is_honor

    @property
    def is_flower(self) -> bool:
        return self.kind >= 34

    @property
    def mpsz(self) -> str:
        """The tile in mpsz notation: ``"5m"``, ``"0m"`` for a red five, ``"3z"``, ``"2f"``."""
        return _MPSZ[self.kind][self.red]

    def __str__(self) -> str:
        return self.mpsz


@dataclass(frozen=True, kw_only=True)
class TileSet:
    """Which tiles a profile plays with.

    The defaults are the 108-tile three-suit set (Sichuan); riichi is
    ``TileSet(honors=True, red_fives=(Suit.MAN, Suit.PIN, Suit.SOU))``.
    """

    suits: tuple[Suit, ...] = _SUITED
    """Suited suits in play, a subset of man, pin, sou."""
    honors: bool = False
    """Whether the seven honor kinds are in play."""
    flowers: bool = False
    """Whether the eight flowers are in play (one copy of each)."""
    red_fives: tuple[Suit, ...] = ()
    """Suits whose fives include one red five, replacing one ordinary five."""
    copies: int = 4
    """Copies of each hand-forming kind."""

    def __post_init__(self) -> None:
        suits = tuple(self._suit(s, "suits") for s in self.suits)
        reds = tuple(self._suit(s, "red_fives") for s in self.red_fives)
        for name, value in (("suits", suits), ("red_fives", reds)):
            if len(set(value)) != len(value):
                raise ValueError(f"TileSet.{name} lists a suit twice: {value}")
        for s in reds:
            if s not in suits:
                raise ValueError(f"TileSet.red_fives has {s.name} but suits do not")
        if self.copies < 1:
            raise ValueError(f"TileSet.copies must be at least 1, got {self.copies}")
        # Canonical suit order keeps kinds() and all_tiles() sorted and makes
        # equal sets compare equal whatever order the profile listed them in.
        object.__setattr__(self, "suits", tuple(s for s in _SUITED if s in suits))
        object.__setattr__(self, "red_fives", tuple(s for s in _SUITED if s in reds))

    @staticmethod
    def _suit(value: str, field: str) -> Suit:
        try:
            s = Suit(value)
        except ValueError:
            raise ValueError(f"TileSet.{field}: unknown suit {value!r}") from None
        if s not in _SUITED:
            raise ValueError(f"TileSet.{field} takes only m, p, s; got {s.value!r}")
        return s

    def kinds(self) -> tuple[int, ...]:
        """The hand-forming kinds in play, sorted (flowers excluded)."""
        out = [k for s in self.suits for k in range(_SUIT_BASE[s][0], _SUIT_BASE[s][0] + 9)]
        if self.honors:
            out.extend(range(27, 34))
        return tuple(out)

    def flower_kinds(self) -> tuple[int, ...]:
        """The flower kinds in play: all eight or none."""
        return tuple(range(34, 42)) if self.flowers else ()

    def size(self) -> int:
        """Number of tiles in the wall: 108 Sichuan, 136 riichi, 144 with flowers."""
        return len(self.kinds()) * self.copies + len(self.flower_kinds())

    def all_tiles(self) -> list[Tile]:
        """The full wall in canonical (sorted) order, red fives included: the shared tile of each
        kind (tiles are values; a table that finds a held tile by identity finds it at once)."""
        out: list[Tile] = []
        for k in self.kinds():
            red = _KIND_NUMBER[k] == 5 and _KIND_SUIT[k] in self.red_fives
            out.extend([_PLAIN_TILES[k]] * (self.copies - red))
            if red:
                out.append(_RED_TILES[k])
        out.extend(_PLAIN_TILES[k] for k in self.flower_kinds())
        return out

    def refusal(self, tile: Tile) -> str | None:
        """None if ``tile`` exists in this set, else the reason it does not."""
        suit = tile.suit
        if suit is Suit.FLOWER:
            return None if self.flowers else f"this profile has no flowers (got {tile})"
        if suit is Suit.HONOR:
            return None if self.honors else f"this profile has no honor tiles (got {tile})"
        if suit not in self.suits:
            return f"this profile has no {suit.name.lower()} tiles (got {tile})"
        if tile.red and suit not in self.red_fives:
            if not self.red_fives:
                return f"this profile has no red fives (got {tile})"
            have = ", ".join(s.value for s in self.red_fives)
            return f"this profile has red fives only in {have} (got {tile})"
        return None

    @cached_property
    def accepted_codes(self) -> frozenset[int]:
        """Every tile of the set as its code ``kind * 2 + red``: the tiles :meth:`refusal` accepts
        (worked out once per tile set; parsing tests each tile against it)."""
        return frozenset(
            k * 2 + red
            for k in range(N_ALL_KINDS)
            for red in (0, 1)
            if (not red or (_KIND_SUIT[k] in _SUITED and _KIND_NUMBER[k] == 5))
            and self.refusal(Tile(k, bool(red))) is None
        )


class NotationError(ValueError):
    """Malformed mpsz text; the message names the offending text and position."""

    def __init__(self, message: str, *, text: str, position: int) -> None:
        super().__init__(f"{message} (in {text!r})")
        self.text = text
        """The whole text being parsed."""
        self.position = position
        """0-based index in :attr:`text` where the problem starts."""


_SUIT_LETTERS = frozenset(s.value for s in Suit)
# By suit letter: the first kind, how many numbers, whether it has a red five (suited).
_LETTER_LAYOUT: dict[str, tuple[int, int, bool]] = {
    s.value: (b, n, s in _SUITED) for s, b, n in _SUIT_LAYOUT
}
# Tiles are immutable values: parsing hands out one shared object per kind (and red five).
_PLAIN_TILES: tuple[Tile, ...] = tuple(Tile(k) for k in range(N_ALL_KINDS))
_RED_TILES: dict[int, Tile] = {
    b + 4: Tile(b + 4, red=True) for s, b, _ in _SUIT_LAYOUT if s in _SUITED
}


def parse_tiles(text: str, tileset: TileSet | None = None) -> list[Tile]:
    """Parse mpsz notation into tiles, preserving order.

    Digits take the suit letter that follows them: ``"123m456p11z"``. ``0m``,
    ``0p``, ``0s`` are red fives. Spaces are ignored anywhere. With a
    ``tileset``, tiles it lacks are refused with :meth:`TileSet.refusal`.

    >>> [str(t) for t in parse_tiles("12m 0p7z")]
    ['1m', '2m', '0p', '7z']
    """
    tiles: list[Tile] = []
    pending: list[tuple[int, int]] = []  # (digit, position) waiting for a letter
    accepted = tileset.accepted_codes if tileset is not None else None
    for pos, ch in enumerate(text):
        if ch == " ":
            continue
        if "0" <= ch <= "9":
            pending.append((ord(ch) - 48, pos))
            continue
        if ch not in _SUIT_LETTERS:
            if ch.isalpha():
                raise NotationError(
                    f"unknown suit letter {ch!r} at position {pos}; expected m, p, s, z or f",
                    text=text,
                    position=pos,
                )
            raise NotationError(
                f"unexpected character {ch!r} at position {pos}", text=text, position=pos
            )
        if not pending:
            raise NotationError(
                f"suit letter {ch!r} at position {pos} has no digits before it",
                text=text,
                position=pos,
            )
        base, size, suited = _LETTER_LAYOUT[ch]
        for digit, dpos in pending:
            if digit == 0 and suited:
                tile = _RED_TILES[base + 4]
            elif 1 <= digit <= size:
                tile = _PLAIN_TILES[base + digit - 1]
            else:
                allowed = f"1{ch}..{size}{ch}" + (f" and 0{ch} for the red five" if suited else "")
                raise NotationError(
                    f"'{digit}{ch}' at position {dpos} is not a tile; suit {ch!r} has {allowed}",
                    text=text,
                    position=dpos,
                )
            if (
                tileset is not None
                and accepted is not None
                and tile.kind * 2 + tile.red not in accepted
            ):
                reason = tileset.refusal(tile)
                if reason is not None:
                    raise NotationError(f"{reason} at position {dpos}", text=text, position=dpos)
            tiles.append(tile)
        pending.clear()
    if pending:
        start = pending[0][1]
        digits = "".join(str(d) for d, _ in pending)
        raise NotationError(
            f"'{digits}' at position {start} has no suit letter", text=text, position=start
        )
    return tiles


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Compressed mpsz, order preserved: consecutive tiles of one suit share a letter.

    ``parse_tiles(format_tiles(ts)) == list(ts)`` for every list of tiles.
    """
    parts: list[str] = []
    suit: Suit | None = None
    for t in tiles:
        if suit is not None and t.suit is not suit:
            parts.append(suit.value)
        suit = t.suit
        parts.append("0" if t.red else str(t.number))
    if suit is not None:
        parts.append(suit.value)
    return "".join(parts)


def counts34(tiles: Iterable[Tile]) -> list[int]:
    """How many of each hand-forming kind: a list of 34 ints, red fives counted as fives.

    Flowers never form hands, so passing one is a caller bug: ValueError.
    """
    counts = [0] * N_KINDS
    for t in tiles:
        if t.kind >= N_KINDS:
            raise ValueError(f"flowers have no place in a counts34 vector (got {t})")
        counts[t.kind] += 1
    return counts
