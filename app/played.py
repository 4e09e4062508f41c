"""A riichi record as it was played, tile by tile: what the exporters (mjai, tenhou.net/6) write.

A record stores the wall and the decisions, not every tile: a draw event says that a seat drew,
not what. :func:`played_hands` replays the record (``mjspec.app.records.replay``, so a tampered
record is refused before anything is written) and, watching each step, reads the tiles off the
table: the deal and every draw from the wall in drawing order (live draws from the front,
replacements from the dead-wall positions, docs/records.md "The dead wall (riichi)"), each
call's tiles from the caller's hand, each win's score from the table.

Only a riichi table can be read so (a dead wall, riichi deposits, 136 tiles, four seats): other
profiles are refused with :class:`ExportError`. Which seat discarded the tile it had just drawn
(mjai's ``tsumogiri``, tenhou.net/6's ``60``) is not a decision the engine records, since equal
tiles are not told apart: a discard counts as tsumogiri when the seat drew this turn and
discards a tile equal (kind and red) to the one it drew; a riichi player's automatic discards
always are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Union

from mjspec.app.records import RecordError, ReplayError, replay
from mjspec.app.registry import UnknownProfile, load_profile
from mjspec.runtime.actions import Action, Event
from mjspec.runtime.deadwall import INDICATORS, REPLACEMENTS
from mjspec.runtime.hand import MeldType
from mjspec.runtime.options import OptionError, bind_options
from mjspec.runtime.profile import Profile
from mjspec.runtime.context import WinKind
from mjspec.runtime.scoring import Score, WinningHand, evaluate
from mjspec.runtime.table import SEATS, Round
from mjspec.runtime.table.wall import deal_order
from mjspec.runtime.tiles import Tile

__all__ = [
    "ExportError",
    "Drew",
    "Discarded",
    "Declared",
    "Accepted",
    "Called",
    "Indicator",
    "Won",
    "Ended",
    "Step",
    "PlayedHand",
    "PlayedMatch",
    "played_match",
    "riichi_refusal",
]


class ExportError(ValueError):
    """A record that cannot be exported: not a riichi record, or not a valid record at all."""


@dataclass(frozen=True, slots=True)
class Drew:
    seat: int
    tile: Tile
    replacement: bool


@dataclass(frozen=True, slots=True)
class Discarded:
    seat: int
    tile: Tile
    tsumogiri: bool
    riichi: bool
    """The discard that declares riichi (turned sideways)."""


@dataclass(frozen=True, slots=True)
class Declared:
    """Riichi declared; the next discard of the seat is the declaration's."""

    seat: int


@dataclass(frozen=True, slots=True)
class Accepted:
    """The riichi deposit is taken (the declaring discard was not won on)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Called:
    """A meld: ``called`` is the claimed tile (chi, pon, open kong) or the tile added to a pon
    (added kong); ``consumed`` the caller's own tiles (for an added kong the pon's three)."""

    kind: MeldType
    seat: int
    source: int | None
    called: Tile | None
    consumed: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Indicator:
    tile: Tile


@dataclass(frozen=True, slots=True)
class Won:
    seat: int
    source: int
    """The discarder, the robbed kong's owner, or the winner (self-draw)."""
    tile: Tile
    score: Score
    deltas: tuple[int, ...] = ()
    """This win's score changes: its payments and the deposits it collects (this hand's own
    riichi deposits, paid at the declaration, left out)."""
    riichi: bool = False
    liable: int | None = None
    """The seat that pays for the win under a liability rule (pao), if any."""
    base: Mapping[str, int] = field(default_factory=dict)
    """The win's payments by role without repeat counters (honba), as Tenhou states them (empty:
    not re-derived, :meth:`_Watcher._without_honba`)."""


@dataclass(frozen=True, slots=True)
class Ended:
    """The hand ended without a win: ``exhaustion`` (with ``nagashi`` seats), or an abortive draw's
    reason (``nine_terminals``, ``four_winds``, ``four_riichi``, ``four_kongs``, ``triple_ron``)."""

    kind: str
    deltas: tuple[int, ...]
    nagashi: tuple[int, ...] = ()
    ready: tuple[int, ...] = ()


Step = Union[Drew, Discarded, Declared, Accepted, Called, Indicator, Won, Ended]


@dataclass
class PlayedHand:
    index: int
    dealer: int
    round_wind: str
    honba: int
    deposits: int
    points: tuple[int, ...]
    dealt: tuple[tuple[Tile, ...], ...]
    """Each seat's 13 starting tiles in the order dealt; the dealer's 14th is the first draw."""
    indicator: Tile
    steps: list[Step] = field(default_factory=list)
    ura: tuple[Tile, ...] = ()
    """The under-indicators, shown when a riichi player won."""
    indicators: tuple[Tile, ...] = ()
    """Every indicator turned, the first included, in order."""
    scores: tuple[int, ...] = ()


@dataclass
class PlayedMatch:
    profile: Profile
    record: Mapping[str, Any]
    hands: list[PlayedHand]


def riichi_refusal(profile: Profile) -> str | None:
    """Why ``profile`` cannot be written as mjai or tenhou.net/6 (None: it can): both formats
    describe four-player riichi mahjong only (136 tiles, a dead wall, riichi)."""
    rules = profile.table
    if rules.dead_wall is None or rules.riichi is None or profile.tiles.size() != 136:
        return (
            f"{profile.id} ({profile.names.en}) is not riichi mahjong: mjai and tenhou.net/6 "
            "describe four-player riichi only (136 tiles, a dead wall, riichi)"
        )
    return None


def _same(a: Tile, b: Tile) -> bool:
    return a.kind == b.kind and a.red == b.red


def _remove(hand: list[Tile], tile: Tile, seat: int) -> None:
    for i, t in enumerate(hand):
        if _same(t, tile):
            del hand[i]
            return
    raise ExportError(f"seat {seat} does not hold {tile.mpsz} (the record and the table disagree)")


class _Watcher:
    """Follows the replay step by step (``runtime.record.Observer``) and writes down the tiles."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.hands: list[PlayedHand] = []
        self._tables: list[Round] = []

    def __call__(self, index: int, table: Round, action: Action | None, new: list[Event]) -> None:
        if action is None:
            self._start(index, table)
        for ev in new:
            self._event(ev, table)

    # ------------------------------------------------------------ the deal

    def _start(self, index: int, table: Round) -> None:
        deal = self.profile.deal
        order = deal_order(
            table.dealer,
            dealer_tiles=deal.dealer,
            others=deal.others,
            in_blocks=self.profile.table.deal_in_blocks,
        )
        tiles = table.wall.tiles
        dealt: list[list[Tile]] = [[] for _ in range(SEATS)]
        for pos, seat in enumerate(order):
            dealt[seat].append(tiles[pos])
        first = dealt[table.dealer].pop()  # the dealer's 14th tile is its first draw
        dead = table.dead
        assert dead is not None  # riichi_refusal checked the profile
        hand = PlayedHand(
            index=index,
            dealer=table.dealer,
            round_wind=table.round_wind.value,
            honba=table.honba,
            deposits=table.deposits_at_start,
            points=tuple(table.points),
            dealt=tuple(tuple(d) for d in dealt),
            indicator=dead.tiles[INDICATORS[0]],
        )
        hand.steps.append(Drew(table.dealer, first, False))
        self.hands.append(hand)
        self._tables.append(table)
        self._held = [list(d) for d in dealt]
        self._held[table.dealer].append(first)
        self._melds: list[list[Called]] = [[] for _ in range(SEATS)]
        self._front = len(order)
        self._replacements = 0
        self._drawn: list[Tile | None] = [None] * SEATS
        self._drawn[table.dealer] = first
        self._declaring: set[int] = set()
        self._riichi: set[int] = set()
        self._kong_shown: set[int] = set()  # seats whose declared kong was already written

    # ------------------------------------------------------------ play

    def _event(self, ev: Event, table: Round) -> None:
        hand = self.hands[-1]
        kind = ev.kind.value
        seat = ev.seat
        data = ev.data
        if kind == "draw":
            assert seat is not None
            if data.get("replacement"):
                dead = table.dead
                assert dead is not None
                tile = dead.tiles[REPLACEMENTS[self._replacements]]
                self._replacements += 1
            else:
                tile = table.wall.tiles[self._front]
                self._front += 1
            self._held[seat].append(tile)
            self._drawn[seat] = tile
            hand.steps.append(Drew(seat, tile, bool(data.get("replacement"))))
        elif kind == "riichi":
            assert seat is not None
            self._declaring.add(seat)
            hand.steps.append(Declared(seat))
        elif kind == "discard":
            assert seat is not None
            tile = Tile.parse(data["tile"])
            drawn = self._drawn[seat]
            tsumogiri = drawn is not None and _same(drawn, tile)
            _remove(self._held[seat], tile, seat)
            self._drawn[seat] = None
            riichi = bool(data.get("riichi"))
            self._declaring.discard(seat)
            hand.steps.append(Discarded(seat, tile, tsumogiri, riichi))
        elif kind == "deposit":
            assert seat is not None
            self._riichi.add(seat)
            hand.steps.append(Accepted(seat))
        elif kind in ("chi", "pon", "minkan"):
            assert seat is not None
            self._claim(hand, MeldType(kind), seat, ev, table)
        elif kind in ("ankan_declared", "ankan"):
            assert seat is not None
            if kind == "ankan" and seat in self._kong_shown:
                self._kong_shown.discard(seat)
                return
            if kind == "ankan_declared":
                self._kong_shown.add(seat)
            tile = Tile.parse(data["tile"])
            four = tuple(t for t in self._held[seat] if t.kind == tile.kind)
            for t in four:
                _remove(self._held[seat], t, seat)
            meld = Called(MeldType.ANKAN, seat, None, None, four)
            self._melds[seat].append(meld)
            self._drawn[seat] = None
            hand.steps.append(meld)
        elif kind in ("kakan_declared", "kakan"):
            assert seat is not None
            if kind == "kakan" and seat in self._kong_shown:
                self._kong_shown.discard(seat)
                return
            if kind == "kakan_declared":
                self._kong_shown.add(seat)
            tile = Tile.parse(data["tile"])
            pon = next(
                m
                for m in self._melds[seat]
                if m.kind is MeldType.PON and m.called is not None and m.called.kind == tile.kind
            )
            _remove(self._held[seat], tile, seat)
            assert pon.called is not None
            meld = Called(MeldType.KAKAN, seat, pon.source, tile, (pon.called, *pon.consumed))
            self._melds[seat].append(meld)
            self._drawn[seat] = None
            hand.steps.append(meld)
        elif kind == "indicator":
            hand.steps.append(Indicator(Tile.parse(data["tile"])))
        elif kind == "win":
            assert seat is not None
            self._win(hand, ev, table)
        elif kind in ("exhaustion", "abortive_draw"):
            reason = "exhaustion" if kind == "exhaustion" else str(data["reason"])
            hand.steps.append(
                Ended(
                    reason,
                    (0,) * SEATS,
                    tuple(data.get("nagashi", ())),
                    tuple(data.get("ready", ())),
                )
            )
        elif kind == "hand_end":
            self._finish(hand, table)

    def _claim(self, hand: PlayedHand, kind: MeldType, seat: int, ev: Event, table: Round) -> None:
        called = Tile.parse(ev.data["tile"])
        # The meld the table made (its last): the caller's own tiles are its tiles but the claimed
        # one.
        made = table.melds[seat][-1]
        own = list(made.tiles)
        _remove(own, called, seat)
        for t in own:
            _remove(self._held[seat], t, seat)
        meld = Called(kind, seat, int(ev.data["from"]), called, tuple(own))
        self._melds[seat].append(meld)
        self._drawn = [None] * SEATS  # a call interrupts: the next discard is from the hand
        hand.steps.append(meld)

    def _win(self, hand: PlayedHand, ev: Event, table: Round) -> None:
        seat = ev.seat
        assert seat is not None
        record = next(
            w
            for w in table.wins
            if w.seat == seat and not any(isinstance(s, Won) and s.seat == seat for s in hand.steps)
        )
        ron = bool(ev.data.get("ron"))
        source = int(ev.data["from"]) if ron else seat
        tile = Tile.parse(ev.data["tile"])
        robbing = bool(ev.data.get("robbing"))
        base = self._without_honba(table, seat, tile, ron, record.score, robbing)
        hand.steps.append(
            Won(seat, source, tile, record.score, riichi=seat in self._riichi, base=base)
        )

    def _without_honba(
        self, table: Round, seat: int, tile: Tile, ron: bool, score: Score, robbing: bool
    ) -> dict[str, int]:
        """The win's payments with no repeat counters (honba), which Tenhou states: the same hand
        scored again in the same situation with honba 0 (as the table's liability rule does,
        runtime/table/wins.py ``without_honba``). Empty when that scoring does not reproduce the
        win's han and fu (then the value is given with the honba)."""
        if not table.honba:
            return dict(score.payments)
        rest = list(self._held[seat])
        if not ron:
            _remove(rest, tile, seat)
        ids = {p.id for p in score.patterns}
        last_draw = next(
            (s for s in reversed(self.hands[-1].steps) if isinstance(s, Drew) and s.seat == seat),
            None,
        )
        ctx = table.win_context(
            seat,
            after_kong=not ron and last_draw is not None and last_draw.replacement,
            honba=0,
            robbing_kong=robbing,
            last_tile="haitei" in ids or "houtei" in ids,
        )
        kind = WinKind.RON if ron else WinKind.TSUMO
        hand = WinningHand(tuple(rest), tuple(table.melds[seat]), tile, kind)
        again = evaluate(self.profile, hand, ctx)
        if again.total != score.total or again.fu != score.fu:
            return {}
        return dict(again.payments)

    def _finish(self, hand: PlayedHand, table: Round) -> None:
        """The hand's end: each win's (or the draw's) score changes and the indicators shown."""
        dead = table.dead
        assert dead is not None
        hand.indicators = tuple(dead.indicators())
        hand.scores = tuple(table.scores)
        wins = [s for s in hand.steps if isinstance(s, Won)]
        # Tenhou's and mjai's score changes leave out the hand's riichi deposits (paid when the
        # riichi was accepted, mjai's reach_accepted).
        rest = [0] * SEATS
        per_win: dict[int, list[int]] = {w.seat: [0] * SEATS for w in wins}
        liable: dict[int, int] = {}
        for ev in table.events:
            if ev.kind.value == "deposit" or not any(ev.deltas):
                continue
            target = per_win.get(ev.seat) if ev.seat is not None else None
            if target is None or ev.kind.value not in ("win_payment", "deposits"):
                target = rest
            for s in range(SEATS):
                target[s] += ev.deltas[s]
            if ev.data.get("liability") and ev.seat is not None:
                liable[ev.seat] = int(ev.data["from"])
        if wins and any(rest):
            raise ExportError(
                f"hand {hand.index}: score changes {rest} belong to no win; mjai and tenhou.net/6 "
                "give each win's changes only"
            )
        for i, st in enumerate(hand.steps):
            if isinstance(st, Won):
                hand.steps[i] = Won(
                    st.seat,
                    st.source,
                    st.tile,
                    st.score,
                    tuple(per_win[st.seat]),
                    st.riichi,
                    liable.get(st.seat),
                    st.base,
                )
            elif isinstance(st, Ended):
                hand.steps[i] = Ended(st.kind, tuple(rest), st.nagashi, st.ready)
        if any(w.riichi for w in wins):
            hand.ura = tuple(dead.under_indicators())


def played_match(record: Mapping[str, Any]) -> PlayedMatch:
    """Replay ``record`` and read its hands tile by tile (module docstring). Raises
    :class:`ExportError` for a record of another game than riichi, and for a record that does not
    replay (naming why)."""
    name = record.get("profile") if isinstance(record, Mapping) else None
    try:
        profile = load_profile(str(name))
    except UnknownProfile as e:
        raise ExportError(f"profile: {e}") from None
    refusal = riichi_refusal(profile)
    if refusal is not None:
        raise ExportError(refusal)
    options = record.get("options", {})
    try:
        # The options the record was played with (replay binds the same and refuses bad ones).
        profile = bind_options(profile, options if isinstance(options, Mapping) else {})
    except OptionError as e:
        raise ExportError(f"not a valid record: options: {e}") from None
    watcher = _Watcher(profile)
    try:
        replay(record, observe=watcher)
    except RecordError as e:
        raise ExportError(f"not a valid record: {e}") from None
    except ReplayError as e:
        raise ExportError(f"the record does not replay: {e}") from None
    return PlayedMatch(profile, record, watcher.hands)
