"""Table rules: the parameters of the runtime's table mechanics that a spec selects.

Each field names the mechanism it switches and the rule it encodes; defaults
are the plainest reading (no special rule). A difference between profiles is
always one of these fields, never a test of a profile's id.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class PassWinRule(StrEnum):
    """What declining a legal win costs until the player's next draw."""

    NONE = "none"
    """Nothing: a declined win may be taken on the next chance."""
    SAME_OR_LOWER_FAN = "same_or_lower_fan"
    """Wins of the same or a lower fan are blocked; a strictly higher one stays legal (000 §5)."""
    DISCARD_WINS = "discard_wins"
    """Every win on a discard (robbing a kong included) is blocked; self-draw stays allowed (004)."""


class WinFlow(StrEnum):
    """What happens to the hand after a win."""

    BLOODY_BATTLE = "bloody_battle"
    """Winners are settled and leave; the others play on with the same wall (000 §4)."""
    SINGLE = "single"
    """The first win ends the hand."""


class DealerRule(StrEnum):
    """Who deals the next hand."""

    FIRST_WINNER = "first_winner"
    """The first winner; the discarder if the first win was a multi-ron; otherwise the same dealer (000 §11)."""
    ROTATE = "rotate"
    """The next seat after every hand."""


class ExchangeDirection(StrEnum):
    """Where exchanged tiles go."""

    LEFT = "left"
    """To the previous player in turn order."""
    ACROSS = "across"
    """To the player opposite."""
    RIGHT = "right"
    """To the next player in turn order."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Exchange:
    """Exchange of tiles after the deal (004: three of one suit, hidden, one random direction)."""

    tiles: int = 3
    same_suit: bool = True
    directions: tuple[ExchangeDirection, ...] = (ExchangeDirection.LEFT, ExchangeDirection.ACROSS, ExchangeDirection.RIGHT)


@dataclass(frozen=True, slots=True, kw_only=True)
class CallRules:
    """Which calls exist and how they are restricted."""

    chi: bool = False
    """A sequence from the previous player's discard; claims rank ron, then pon and kongs, then chi."""
    pon: bool = True
    minkan: bool = True
    ankan: bool = True
    kakan: bool = True
    kakan_drawn_tile_only: bool = False
    """The tile added to a pon must be the one just drawn (000 §3)."""
    robbable_kakan: bool = True
    """A tile added to a pon may be robbed by a win (000 §3, 004)."""
    multiple_ron: bool = True
    """Every player who can win on a discard wins; otherwise only the nearest in turn order."""
    missing_suit_blocks_calls: bool = False
    """While the declared missing suit is held: no pon, kong or win, and no call on a tile of that suit (004)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PassRules:
    """What passing a chance costs."""

    win: PassWinRule = PassWinRule.NONE
    call_counts_as_pass: bool = False
    """Choosing pon or kong when a win was available counts as passing that win (000 §5)."""
    pon_blocks_same_tile: bool = False
    """Passing a pon blocks pon of that tile until the next draw (004)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class KongPayments:
    """Immediate kong payments and their transfer (000 §9)."""

    ankan_each: int = 0
    minkan_discarder: int = 0
    kakan_each: int = 0
    transfer_on_kong_shot: bool = False
    """A kong declarer who deals into a win right after the kong (chain included) hands that income to the winners."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ExhaustionRules:
    """Settlement when the wall runs out (000 §10, 004)."""

    missing_suit_penalty: int = 0
    """A player still holding the missing suit pays this to each remaining player who cleared theirs (004: 8); 0 = none."""
    not_ready_pays_ready: bool = False
    """Each not-ready player pays each ready player the best value that player could complete (cha jiao)."""
    ready_value_cap: int | None = None
    """The most a ready player can be paid by one not-ready player."""
    refund_kong_income: bool = False
    """Not-ready players return the kong income of the hand to its payers."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Clock:
    """A time control: seconds per action plus a reserve per hand (004)."""

    id: str
    per_action: int
    reserve: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeoutRules:
    """What a player who runs out of time does."""

    claim_win: bool = False
    """An available win is taken (004) or not (000 §6: automation never forces a win)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchRules:
    """How long a match lasts and who deals."""

    hands: int = 1
    dealer: DealerRule = DealerRule.FIRST_WINNER
    start_score: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRules:
    """Every table mechanism's parameters for one profile."""

    dice: int = 1
    """Rolls of two dice that open the wall (000: one; 002 §2: two)."""
    deal_in_blocks: bool = False
    """The physical deal: four tiles to each seat three times, one each, then the dealer's jump draw (002 §2)."""
    exchange: Exchange | None = None
    discard_missing_suit_first: bool = False
    calls: CallRules = CallRules()
    passing: PassRules = PassRules()
    flow: WinFlow = WinFlow.SINGLE
    kongs: KongPayments = KongPayments()
    exhaustion: ExhaustionRules = ExhaustionRules()
    match: MatchRules = MatchRules()
    clocks: tuple[Clock, ...] = ()
    timeout: TimeoutRules = TimeoutRules()
