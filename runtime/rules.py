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
    """Every win on a discard (robbing a kong included) is blocked; self-draw stays allowed
    (004)."""


class WinFlow(StrEnum):
    """What happens to the hand after a win."""

    BLOODY_BATTLE = "bloody_battle"
    """Winners are settled and leave; the others play on with the same wall (000 §4)."""
    SINGLE = "single"
    """The first win ends the hand."""


class DealerRule(StrEnum):
    """Who deals the next hand."""

    REPEAT = "repeat"
    """The dealer deals again after winning, after an exhaustive draw they were ready at, and after
    an abortive draw; otherwise the next seat deals (001 "Empates, repetições do dealer e final do
    jogo")."""
    FIRST_WINNER = "first_winner"
    """The first winner; the discarder if the first win was a multi-ron; otherwise the same dealer
    (000 §11)."""
    ROTATE = "rotate"
    """The next seat after every hand."""
    KEEP_ON_WIN_OR_WASHOUT = "keep_on_win_or_washout"
    """East deals again after winning and after a wash-out; the deal passes when another player wins
    (003 "Duration of the game", M 11-14). With ``rounds``, the round ends when the deal has gone
    round."""


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
    directions: tuple[ExchangeDirection, ...] = (
        ExchangeDirection.LEFT,
        ExchangeDirection.ACROSS,
        ExchangeDirection.RIGHT,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class CallRules:
    """Which calls exist and how they are restricted."""

    chi: bool = False
    """A sequence from the previous player's discard; claims rank ron, then pon and kongs, then
    chi."""
    pon: bool = True
    minkan: bool = True
    ankan: bool = True
    kakan: bool = True
    kakan_drawn_tile_only: bool = False
    """The tile added to a pon must be the one just drawn (000 §3)."""
    robbable_kakan: bool = True
    """A tile added to a pon may be robbed by a win (000 §3, 004)."""
    rob_concealed_kong: tuple[str, ...] = ()
    """The patterns (by id) whose win may rob a concealed kong, as a win on the kong's tile; empty:
    a concealed kong is never robbed (001: "Kans ocultos não podem ser roubados [...] inclusive por
    treze órfãos"). Robbing follows ``ron_limit`` and the triple-ron abort like any claim."""
    multiple_ron: bool = True
    """Every player who can win on a discard wins; otherwise only the nearest in turn order."""
    missing_suit_blocks_calls: bool = False
    """While the declared missing suit is held: no pon, kong or win, and no call on a tile of that
    suit (004)."""
    ron_limit: int | None = None
    """The most players who may win on one discard (001: two); None = no limit. More claims than
    this abort the hand when ``AbortiveDraws.triple_ron`` is on, else the nearest ones in turn order
    win."""
    kuikae: bool = False
    """After a chi or pon the caller may not discard the called kind, nor the other end of the
    sequence the called tile completed (001 "Chamadas, riichi e dora")."""
    last_discard_callable: bool = True
    """The discard after the last live-wall draw may be claimed by a pon or chi (a win is always
    possible)."""
    max_kongs: int | None = None
    """No kong may be declared once this many are on the table (001: four, the dead wall's
    replacements)."""


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
    """A kong declarer who deals into a win right after the kong (chain included) hands that income
    to the winners."""


class IndicatorTiming(StrEnum):
    """When a kong's new bonus indicator is turned over."""

    AT_ONCE = "at_once"
    """As soon as the kong is declared, before its replacement draw."""
    AFTER_DISCARD = "after_discard"
    """When the kong's player discards after the replacement (or at the next kong, if one comes
    first)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DeadWallRules:
    """A dead wall at the end of the wall for kong replacements and bonus indicators (001).

    The layout (which dead-wall position is drawn or turned over when) is fixed in
    :mod:`mjspec.runtime.deadwall` and documented in docs/records.md.
    """

    tiles: int = 14
    indicators: bool = True
    """One indicator is turned over when the hand starts; each names the next kind as a bonus
    (dora)."""
    kong_indicators: bool = True
    """Every kong turns over one more indicator (kan-dora)."""
    open_kong_indicator: IndicatorTiming = IndicatorTiming.AFTER_DISCARD
    """When an exposed or added kong's indicator is turned over."""
    concealed_kong_indicator: IndicatorTiming = IndicatorTiming.AT_ONCE
    """When a concealed kong's indicator is turned over."""
    under_indicators: bool = True
    """A riichi winner also counts the tiles under the turned indicators (ura-dora)."""
    kong_under_indicators: bool = True
    """The tiles under kong indicators count too (kan-ura)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RiichiRules:
    """The riichi declaration (001 "Chamadas, riichi e dora")."""

    deposit: int = 1000
    """Points the declarer puts on the table; the next winner takes every deposit."""
    min_points: int = 1000
    """The declarer must hold at least this many points."""
    min_wall: int = 4
    """At least this many tiles must be left in the live wall."""
    double_riichi: bool = True
    """A declaration on one's first discard, before any call, is a double riichi."""
    ippatsu: bool = True
    """A win within one uninterrupted go-around after the declaration is marked (any call breaks
    it)."""
    automatic_discard: bool = True
    """After declaring, a drawn tile is discarded automatically unless the player can win or make an
    allowed concealed kong (then they choose)."""
    kong_keeps_waits: bool = True
    """After declaring, a concealed kong is allowed only with the drawn tile and only if the waits
    stay the same."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FuritenRules:
    """When a player may not win on a discard (001 "Furiten")."""

    own_discards: bool = False
    """No discard win while any wait is among one's own discards, called ones included."""
    passed_completion: bool = False
    """Letting pass a discard that completes the hand (with or without a yaku) blocks discard wins
    until one's next draw."""
    riichi_passed: bool = False
    """After riichi, letting pass a legal discard win blocks discard wins for the rest of the
    hand."""
    passed_ends_at_discard: bool = False
    """The furiten of ``passed_completion`` also ends at the player's own next discard, so a call
    and its discard end it too (Tenhou); else only the next draw ends it (001: "até a próxima compra
    de peça")."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AbortiveDraws:
    """Hands that end with no winner and no payment (001 "Empates")."""

    nine_terminals: bool = False
    """On an uninterrupted first turn, a player holding nine distinct terminal and honor kinds may
    declare a draw."""
    four_winds: bool = False
    """The four first discards are the same wind, with no call before."""
    four_riichi: bool = False
    """All four players have declared riichi."""
    four_kongs: bool = False
    """Four kongs by more than one player: the hand ends when the fourth kong's discard is not won
    on."""
    triple_ron: bool = False
    """More players claim a win on one discard than ``CallRules.ron_limit`` allows."""


@dataclass(frozen=True, slots=True, kw_only=True)
class NagashiMangan:
    """An exhaustive draw pays a limit-hand self-draw to a player whose discards are all terminals
    and honors and none was called (001)."""

    from_dealer: int = 4000
    from_non_dealer: int = 2000
    dealer_from_each: int = 4000
    """What each player pays a dealer who achieves it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Pao:
    """Liability: a call that completes the exposed sets of a listed yakuman makes the discarder
    responsible for that yakuman's value (001 "Yakuman e mãos limitadas")."""

    dragons: str | None = None
    """The pattern (big three dragons) whose third dragon set, completed by a call, makes its
    discarder liable."""
    winds: str | None = None
    """The pattern (big four winds) whose fourth wind set, completed by a call, makes its discarder
    liable."""
    split_on_ron: bool = True
    """On a discard win the covered value is shared half and half with the discarder (unless they
    are the same player)."""
    liable_pays_honba: bool = False
    """The liable player also pays the win's honba (else the honba are paid as without
    liability)."""
    covers_whole_hand: bool = False
    """The liability covers the whole hand, other yakuman stacked with the liable one included
    (Tenhou); else only the liable yakuman's share of the hand (001: "As demais parcelas yakuman são
    pagas normalmente")."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ExhaustionRules:
    """Settlement when the wall runs out (000 §10, 004)."""

    missing_suit_penalty: int = 0
    """A player still holding the missing suit pays this to each remaining player who cleared theirs
    (004: 8); 0 = none."""
    not_ready_pays_ready: bool = False
    """Each not-ready player pays each ready player the best value that player could complete (cha
    jiao)."""
    ready_value_cap: int | None = None
    """The most a ready player can be paid by one not-ready player."""
    refund_kong_income: bool = False
    """Not-ready players return the kong income of the hand to its payers."""
    ready_pool: int = 0
    """Points that pass in total from not-ready to ready players when some but not all are ready
    (001: 3,000); a ready hand is a shape wait, with or without a yaku."""
    nagashi: NagashiMangan | None = None
    """Checked first; when a player achieves it, it replaces the not-ready payments."""
    ready_with_held_waits: bool = False
    """A hand whose every wait is a kind the player holds all copies of still counts as ready."""


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
    opening_seconds: int = 0
    """The least thinking time of an opening choice (the exchange, the missing suit), whatever the
    clock's per-action time (004: "les échanges d'ouverture et les choix d'atout obtiennent au moins
    15 secondes")."""
    claim_seconds: int = 0
    """Seconds every player has to answer a claim window (a discard, or an added kong that may be
    robbed): a seat that has not answered when they run out is deemed to pass, whatever it could
    claim (003 "Precedence of claims for discard", option Timeout). 0: no limit."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchResult:
    """The result record of a match: points against a return, a winner bonus and placement
    adjustments (001)."""

    return_points: int = 30000
    winner_bonus: int = 20000
    """Added to first place (oka)."""
    uma: tuple[int, ...] = (20, 10, -10, -20)
    """Placement adjustments in thousands, first to last."""
    round_to: int | None = None
    """Points are rounded to this (a half away from zero) before the result; first place then takes
    the balance so the results sum to zero."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchRules:
    """How long a match lasts and who deals."""

    hands: int = 1
    dealer: DealerRule = DealerRule.FIRST_WINNER
    start_score: int = 0
    rounds: int = 0
    """Wind rounds of four dealer turns each (1: East only; 2: East and South); 0: a fixed number of
    ``hands``."""
    honba: bool = False
    """Count repeat hands: one more after a drawn hand or a dealer win, back to zero after another's
    win."""
    bust_ends: bool = False
    """A score below zero ends the match at once."""
    last_dealer_stops_at: int | None = None
    """In the last hand, a dealer who would repeat ends the match instead when first with at least
    this many points."""
    extension_until: int | None = None
    """If nobody has this many points when the rounds end, the next wind round is played until
    someone does."""
    extension_rounds: int = 0
    """How many extension rounds at most."""
    leftover_deposits_to_first: bool = True
    """Riichi deposits still on the table at the end go to first place."""
    result: MatchResult | None = None
    dealer_win_limit: int | None = None
    """The deal passes after the dealer's this-many-th consecutive win even so (003 complement:
    East's 13th)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LooseTiles:
    """Loose tiles for kong and bonus-tile replacements, kept apart from the live wall (003 "The
    deal etc.", M 22, M 31).

    The loose tiles are the wall's last tiles. A hand ends in a wash-out when the live wall is
    empty.
    """

    dead_wall: bool = True
    """A dead wall is set aside (003 option DeadWall); without one, loose tiles are drawn from the
    live wall's end."""
    sixteen: bool = True
    """The dead wall is 16 tiles and not replenished (M 22, option DeadWall16); when it is used up,
    loose tiles come from the live wall's end. Otherwise it is 14 tiles kept at 13 or 14: when it
    falls to 12, the live wall's last two tiles join it."""
    flowers_loose: bool = False
    """Bonus-tile replacements are drawn from the loose tiles (option FlowersLoose); otherwise from
    the live wall (M 31)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BonusTiles:
    """What a player may do with a bonus tile (flower or season) in hand (002 §1, 003 / M 31-33)."""

    discard: bool = True
    """A held bonus tile may be discarded instead of exposed (002 §1: "retain it and later discard
    it"). When false (M 31: bonus tiles are declared and replaced), a bonus tile may be discarded
    only once it can no longer be exposed, because no tile is left to replace it."""
    declare_at_deal: bool = False
    """Bonus tiles dealt in the opening hands are exposed and replaced, dealer first and then in
    turn order, replacements that are bonus tiles again, before the dealer's first discard (M 32-33
    as the xmj server's opening phase does). The replacements are part of the deal: no first turn is
    lost."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoredSettlement:
    """Settlement in which every hand is scored, the losers' too (003 "Procedure in Settlement", M
    107-111).

    The winner is paid the value of their hand by each loser; the losers pay one another the
    differences of their hand values. The losers' hands are scored by the profile's patterns and
    point items with ``winner`` false, from the best arrangement of their concealed tiles.
    """

    losers_settle: bool = True
    """Losers pay one another the differences of their scores (option LosersSettle)."""
    east_doubles: bool = True
    """Payments between losers to or from East (the dealer) are doubled (option EastDoubles; the
    winner's payments carry East's double through the payment formulas, as the scoring contract
    shows them)."""
    discarder_doubles: bool = False
    """The discarder of the winning tile pays double (option DiscDoubles; a self-draw's double for
    everybody is in the payment formulas)."""
    cannon: bool = True
    """A player who let off a cannon (M 90-96) pays the winner for everybody, and the losers do not
    settle among themselves."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRules:
    """Every table mechanism's parameters for one profile."""

    dice: int = 1
    """Rolls of two dice that open the wall (000: one; 002 §2: two)."""
    deal_in_blocks: bool = False
    """The physical deal: four tiles to each seat three times, one each, then the dealer's jump draw
    (002 §2)."""
    exchange: Exchange | None = None
    discard_missing_suit_first: bool = False
    calls: CallRules = CallRules()
    passing: PassRules = PassRules()
    flow: WinFlow = WinFlow.SINGLE
    kongs: KongPayments = KongPayments()
    dead_wall: DeadWallRules | None = None
    """None: replacements come from the back of the live wall and there are no indicators."""
    riichi: RiichiRules | None = None
    furiten: FuritenRules = FuritenRules()
    abortive: AbortiveDraws = AbortiveDraws()
    pao: Pao | None = None
    exhaustion: ExhaustionRules = ExhaustionRules()
    match: MatchRules = MatchRules()
    clocks: tuple[Clock, ...] = ()
    timeout: TimeoutRules = TimeoutRules()
    loose: LooseTiles | None = None
    """Loose tiles kept apart for replacements (003, M 22); None: replacements from the wall's end
    (or ``dead_wall``)."""
    settlement: ScoredSettlement | None = None
    """Every hand scored and settled (003, M 107-111); None: the winner is paid by the payment
    roles."""
    bonus: BonusTiles = BonusTiles()
    """Bonus tiles in hand: discarded or not, declared during the deal or on one's turn."""
    original_call: bool = False
    """A player may declare Original Call with their first discard; their hand may not change after
    it (003, M 55)."""
