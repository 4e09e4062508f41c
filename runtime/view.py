"""What a spec expression can see: one arrangement of one winning hand in its context.

Every public attribute and method here is a name of the spec language's vocabulary, declared
once, with its type and meaning, in :mod:`mjspec.runtime.vocabulary`: the view's slots are made
from that declaration (the annotations below give the same names their Python types, which
``mypy --strict`` holds the generated engines to). Attributes are plain slots, filled
once per arrangement: the hot path reads them many times. A few cost time to
compute (``only_wait``, ``concealed_triplets``, the counts behind
``count_of``): the scorer fills those only for a profile whose expressions
read them (``Profile.needs``). The combination names (``a``..``d``,
``members``) are set per combination while a combination pattern is tested.
"""

from __future__ import annotations


from collections.abc import Callable, Mapping, Sequence

from .hand import Group
from .options import OptionValue, ScoreValue
from .tiles import SUIT_LAYOUT, Suit, Tile
from .vocabulary import COMBINATION_NAMES, HAND_NAMES, POINT_NAMES

#: Declared names the view computes on first use (properties), not slots.
_COMPUTED = frozenset({"only_wait", "only_live_wait"})
#: The view's own state behind its computed names and functions (not in the vocabulary).
_PRIVATE = (
    "_counts",
    "_concealed_counts",
    "_only_wait",
    "_only_live_wait",
    "_options",
    "_discard_group",
    "_counted",
)


class OptionReader:
    """Game options as spec expressions read them (runtime/options.py); the compiler checks each
    name and its type."""

    __slots__ = ()
    _options: Mapping[str, OptionValue]

    def option_on(self, name: str) -> bool:
        """Whether the bool option ``name`` is set."""
        return bool(self._options[name])

    def option_value(self, name: str) -> int:
        """The value of the count, seconds or points option ``name``."""
        return int(self._options[name])  # type: ignore[arg-type]

    def option_points(self, name: str) -> int:
        """The points of the score option ``name`` (0 when it is doubles or the limit)."""
        return _score(self._options[name]).points

    def option_doubles(self, name: str) -> int:
        """The doubles of the score option ``name`` (0 when it is points or the limit)."""
        return _score(self._options[name]).doubles

    def option_limit(self, name: str) -> bool:
        """Whether the score option ``name`` is the limit."""
        return _score(self._options[name]).limit


class HandView(OptionReader):
    """One arrangement of a winning hand plus the situation of the win."""

    __slots__ = (
        tuple(n for n in (*HAND_NAMES, *COMBINATION_NAMES, *POINT_NAMES) if n not in _COMPUTED)
        + _PRIVATE
    )

    shape: str
    groups: tuple[Group, ...]
    sets: tuple[Group, ...]
    pair: Group | None
    melds: tuple[Group, ...]
    wait: str
    win_tile: Tile
    tiles: tuple[Tile, ...]
    suits: frozenset[str]
    tile_mask: int
    set_bits: int
    group_bits: int
    four_of_a_kinds: int
    is_closed: bool
    tsumo: bool
    ron: bool
    last_tile: bool
    after_kong: bool
    kong_shot: bool
    robbing_kong: bool
    first_draw: bool
    fourth_tile: bool
    riichi: bool
    double_riichi: bool
    ippatsu: bool
    dealer: bool
    seat_wind: str
    round_wind: str
    missing_suit: str | None
    winner: bool
    own_bonus: int
    bonus_sets: int
    original_call: bool
    kong_upon_kong: bool
    dealer_wins: int
    flowers: int
    concealed_triplets: int
    dora_indicators: tuple[Tile, ...]
    ura_indicators: tuple[Tile, ...]
    points: int
    a: Group
    b: Group
    c: Group
    d: Group
    members: tuple[Group, ...]
    _counts: Sequence[int]
    _concealed_counts: Sequence[int]
    _only_wait: Lazy
    _only_live_wait: Lazy
    _options: Mapping[str, OptionValue]
    _discard_group: Group | None
    _counted: frozenset[str]

    @property
    def only_wait(self) -> bool:
        """Whether the hand before the winning tile waits on that kind alone (computed once per
        hand, on first use)."""
        return self._only_wait.get()

    @property
    def only_live_wait(self) -> bool:
        """Like ``only_wait``, but a kind whose four copies were exposed on the table
        (``context.exhausted``) is no wait (003 "Filling the only place"; computed once per hand, on
        first use)."""
        return self._only_live_wait.get()

    def concealed_at_win(self, group: Group) -> bool:
        """Whether ``group`` is concealed when the hand wins: not an exposed meld, and not the
        set a discarded winning tile completed (a triplet won by ron counts as exposed)."""
        return group.concealed and group is not self._discard_group

    def counted(self, pattern: str) -> bool:
        """Whether the pattern counted in this arrangement (seen by point items only)."""
        return pattern in self._counted

    def count_of(self, suit: str, number: int) -> int:
        """Copies of the tile ``number`` of ``suit`` in the full hand, melds included (0 for no such
        tile)."""
        return _count(self._counts, suit, number)

    def concealed_count_of(self, suit: str, number: int) -> int:
        """Copies of that tile among the concealed tiles, the winning tile included."""
        return _count(self._concealed_counts, suit, number)


def _score(value: OptionValue) -> ScoreValue:
    assert isinstance(value, ScoreValue), value
    return value


class Lazy:
    """A bool computed on first use and shared by every arrangement of one hand."""

    __slots__ = ("_fn", "_value")

    def __init__(self, fn: Callable[[], bool]) -> None:
        self._fn = fn
        self._value: bool | None = None

    def get(self) -> bool:
        if self._value is None:
            self._value = self._fn()
        return self._value


_SUIT_BASE = {suit.value: layout for suit, layout in SUIT_LAYOUT.items() if suit is not Suit.FLOWER}


def _count(counts: Sequence[int], suit: str, number: int) -> int:
    base, size = _SUIT_BASE.get(suit, (0, 0))
    return counts[base + number - 1] if 1 <= number <= size else 0


class PaymentView(OptionReader):
    """What a payment formula can see: the hand's count and every earlier named amount."""

    def __init__(
        self,
        fan: int,
        capped: int,
        tsumo: bool,
        dealer: bool,
        points: int = 0,
        limit: bool = False,
        honba: int = 0,
        *,
        options: Mapping[str, OptionValue] | None = None,
    ) -> None:
        self._options = options or {}
        self.fan = fan
        self.capped = capped
        self.tsumo = tsumo
        self.ron = not tsumo
        self.dealer = dealer
        self.points = points
        self.limit = limit
        self.honba = honba

    def __getattr__(self, name: str) -> int:  # named values are set as attributes
        raise AttributeError(f"no payment value named {name!r}")
