"""What one seat may know at a decision (:class:`Observation`), and the agent protocol.

An agent (:class:`Agent`) is asked ``choose(observation)`` and answers with one of
``observation.legal``; it is never handed the table (:class:`~.table.Round`). The table builds the
observation (:func:`observe`) from what the seat may see: its own concealed tiles and hidden
choices, and the public table. Other seats' concealed tiles, the wall's order, the dead wall's
unturned tiles (the ura indicators among them) and hidden choices of other seats (their exchange
tiles, a missing suit while the declarations are still hidden, their answers to a claim window)
are never in it.

An observation is immutable (a typed named tuple of tuples: cheap to build, since one is built for
every decision) and serialises to plain JSON (:meth:`Observation.to_json`; back with
:meth:`Observation.from_json`) for a client over a network. The JSON fields, always all present
(``null`` where a value does not apply):

==================  ===========================================================================
``profile``         the profile's id (the rules; the Python object carries the whole profile)
``seat``            the observing seat, 0-3
``phase``           ``exchange``, ``declare``, ``turn``, ``claim`` (a discard may be claimed),
                    ``rob`` (an added or concealed kong may be robbed), ``step``, ``over``
``turn``            the seat on turn (the discarder, during a claim window)
``dealer``          the dealer's seat
``round_wind``      ``E``, ``S``, ``W``, ``N``
``seat_wind``       the observing seat's wind
``hand``            the seat's concealed tiles, mpsz each (``["1m", "0p", "7z"]``), table order
``drawn``           the tile the seat just drew when it is on turn, else null
``legal``           the actions the seat may take now, each as ``Action.to_json`` gives it
                    (``{"kind": "discard", "seat": 0, "tile": "5m"}``)
``melds``           per seat, its melds: ``{"type", "tiles", "claimed", "source"}``
``rivers``          per seat, every discard it made, claimed ones included, mpsz each
``called``          per seat, the indices in its river of the discards another seat claimed
``sideways``        per seat, the index in its river of its riichi declaration discard, or null
``flowers``         per seat, its exposed bonus tiles
``concealed_counts``  per seat, how many concealed tiles it holds
``riichi``          per seat, whether it has declared riichi
``original_call``   per seat, whether it declared Original Call (003, M 55)
``missing``         per seat, its declared missing suit (``m``, ``p``, ``s``) once shown; the
                    observing seat's own as soon as it declared; null otherwise
``active``          per seat, whether it still plays (Sichuan's bloody battle: a winner leaves)
``wins``            the round's wins so far: ``{"seat", "from", "tile"}`` (``from`` null: tsumo)
``points``          per seat, its points when the round began
``scores``          per seat, the points it gained or lost in this round so far
``dora_indicators`` the indicators turned over, mpsz each
``dice``            the dice thrown at the deal
``wall_remaining``  tiles left to draw
``honba``           the repeat counter carried into the round
``deposits``        riichi deposits on the table, in sticks
``dealer_wins``     the dealer's consecutive wins before this round
``claim_tile``      in a claim or rob window: the tile that may be claimed, else null
``claim_from``      in a claim or rob window: the seat that gave it, else null
``exchange``        the tiles the seat chose to pass while the exchange waits for others, else null
``exchange_direction``  ``left``, ``right``, ``across`` once the tiles have passed, else null
``riichi_flags``    the seat's own ``[riichi, double_riichi, ippatsu]``
``holds_missing``   whether the seat still holds a tile of its missing suit (it must go first)
``suits``           the suited suits in play, e.g. ``["m", "p", "s"]``
``plays_riichi``    whether the profile has riichi at all
``result``          null until the hand is over; then how it ended, as every seat sees it:
                    ``{"end", "win_deltas", "other_deltas", "ura_indicators"}`` (``end``:
                    ``win``, ``exhaustion`` or an abortive draw's reason; ``win_deltas``: per
                    win of ``wins``, in order, its score change per seat, its payments and the
                    deposits it collects; ``other_deltas``: every other change of the hand, per
                    seat; the riichi deposits, paid at the declaration, are in neither, but in
                    ``scores``; ``ura_indicators``: the under-indicators, which a riichi winner
                    turns, mpsz each)
==================  ===========================================================================

The Python object has the same fields (tiles as :class:`~.tiles.Tile`, actions as
:class:`~.actions.Action`, melds as :class:`~.hand.Meld`, winds and suits as enums), plus
``profile`` as the :class:`~.profile.Profile` itself (the rules, which a bot may consult: shapes,
the win minimum, the scorer) and ``counts`` (the seat's concealed tiles counted by kind, 42 kinds,
flowers after the 34 hand-forming ones). Derived values are computed on use from the fields:
:attr:`Observation.discards` (the tiles still in each river), :meth:`Observation.win_context` (the
situation the seat's win would be scored in, as far as the seat can see it).
"""

from __future__ import annotations

import sys
from operator import itemgetter

try:  # the C getter of a named tuple's fields: the fastest read of a tuple's item by name
    from collections import _tuplegetter as _item  # type: ignore[attr-defined]
except ImportError:  # another interpreter: an item getter in a property

    def _item(index: int, doc: str) -> Any:
        return property(itemgetter(index), doc=doc)


from typing import TYPE_CHECKING, Any, Callable, Mapping, NamedTuple, Protocol, Sequence

from .actions import Action, EventKind
from .context import WinContext, Wind
from .deadwall import INDICATORS
from .hand import Meld, MeldType
from .profile import Profile
from .rules import ExchangeDirection
from .tiles import N_ALL_KINDS, Suit, Tile, format_tiles
from .table import SEATS, WINDS, Phase, Round
from .table.common import SUIT_FIRST_KIND
from .table.wins import exposed_fours


class SeenWin(NamedTuple):
    """A win of the round as the table shows it: who won, from whom (None: self-drawn), on what."""

    seat: int
    discarder: int | None
    tile: Tile


class HandResult(NamedTuple):
    """How a hand ended, as every seat sees it once it is over (the ``result`` field; the module
    docstring says what each holds)."""

    end: str
    win_deltas: tuple[tuple[int, ...], ...]
    other_deltas: tuple[int, ...]
    ura_indicators: tuple[Tile, ...]


FIELDS: tuple[str, ...] = (
    "profile",
    "seat",
    "phase",
    "turn",
    "dealer",
    "round_wind",
    "seat_wind",
    "hand",
    "counts",
    "drawn",
    "legal",
    "melds",
    "rivers",
    "called",
    "sideways",
    "flowers",
    "concealed_counts",
    "riichi",
    "original_call",
    "missing",
    "active",
    "wins",
    "points",
    "scores",
    "dora_indicators",
    "dice",
    "wall_remaining",
    "honba",
    "deposits",
    "dealer_wins",
    "claim_tile",
    "claim_from",
    "exchange",
    "exchange_direction",
    "riichi_flags",
    "holds_missing",
    "suits",
    "plays_riichi",
    "result",
)
"""The observation's fields, in order (the module docstring says what each holds)."""

_refcount: Callable[[object], int] | None = getattr(sys, "getrefcount", None)
"""Reference counts, where the interpreter has them (CPython): :func:`~.match.play_hand` asks
whether an agent kept its observation."""
_tuple_new = tuple.__new__


class Observation(tuple):  # type: ignore[type-arg]  # the fields set at once (see below)
    """Everything one seat may know when it is asked to decide (the module docstring lists the
    fields and their JSON form). Immutable: a field cannot be set or deleted.

    The table builds one for every decision, so it is built lazily: the fields a bot reads on
    every decision (the seat, the legal actions, its tiles by kind, the melds, the profile ...) and
    every single value are set at once; the per-seat lists (rivers, flowers, points ...) are copied
    the first time they are asked for during the decision, and kept. They are copied from the
    decision's source, which holds the table's public lists and the seat's own tiles, never the
    table (:class:`~.table.Round`), the wall or another seat's concealed tiles. When the agent
    has answered, the source is emptied; when the agent kept a reference to the observation (or
    to something holding it), the observation is completed from it first: a kept observation
    always holds the values of its own decision. :func:`observe` gives a complete one at once.
    """

    # The fields set at once are the items of a tuple (made in one step, read by a C item getter);
    # each other one is a property that copies it from the source on first use and keeps it in the
    # instance's dict. The tuple's last item is the source: a list, emptied when the decision
    # returns (see decision_observation).
    if TYPE_CHECKING:
        profile: Profile
        seat: int
        phase: Phase
        turn: int
        dealer: int
        round_wind: Wind
        seat_wind: Wind
        hand: tuple[Tile, ...]
        counts: tuple[int, ...]
        drawn: Tile | None
        legal: tuple[Action, ...]
        melds: tuple[tuple[Meld, ...], ...]
        rivers: tuple[tuple[Tile, ...], ...]
        called: tuple[tuple[int, ...], ...]
        sideways: tuple[int | None, ...]
        flowers: tuple[tuple[Tile, ...], ...]
        concealed_counts: tuple[int, ...]
        riichi: tuple[bool, ...]
        original_call: tuple[bool, ...]
        missing: tuple[Suit | None, ...]
        active: tuple[bool, ...]
        wins: tuple[SeenWin, ...]
        points: tuple[int, ...]
        scores: tuple[int, ...]
        dora_indicators: tuple[Tile, ...]
        dice: tuple[int, ...]
        wall_remaining: int
        honba: int
        deposits: int
        dealer_wins: int
        claim_tile: Tile | None
        claim_from: int | None
        exchange: tuple[Tile, ...] | None
        exchange_direction: ExchangeDirection | None
        riichi_flags: tuple[bool, bool, bool]
        holds_missing: bool
        suits: tuple[Suit, ...]
        plays_riichi: bool
        result: HandResult | None

    def __new__(cls, **fields: Any) -> "Observation":
        """An observation of these fields, every one of :data:`FIELDS` given by name."""
        given = set(fields)
        if given != set(FIELDS):
            missing = ", ".join(f for f in FIELDS if f not in given) or "none"
            unknown = ", ".join(sorted(given - set(FIELDS))) or "none"
            raise TypeError(
                f"an observation needs every field (missing: {missing}; unknown: {unknown})"
            )
        obs = _tuple_new(cls, (*(fields[name] for name in _AT_ONCE), []))
        obs.__dict__.update((name, fields[name]) for name in _LATER)
        return obs

    def _complete(self) -> None:
        """Copy every field not yet read from the decision's source, and let go of it."""
        source = self[_SOURCE]
        if not source:
            return
        values = self.__dict__
        seat = self[_SEAT]
        for name, build in _LATER.items():
            if name not in values:
                values[name] = build(source, seat)
        source.clear()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"an observation is immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"an observation is immutable (cannot delete {name!r})")

    def fields(self) -> dict[str, Any]:
        """Every field by name, in :data:`FIELDS` order."""
        self._complete()
        values = {**self.__dict__, **dict(zip(_AT_ONCE, self))}
        return {name: values[name] for name in FIELDS}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return self.fields() == other.fields()

    __hash__ = None  # type: ignore[assignment]  # compared by value, never hashed

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={v!r}" for n, v in self.fields().items() if n != "profile")
        return f"Observation(profile={self.profile.id!r}, {shown})"

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.fields(),))

    # ------------------------------------------------------------ derived (computed on use)

    @property
    def discards(self) -> tuple[tuple[Tile, ...], ...]:
        """Per seat, the discards still in its river (the claimed ones taken out)."""
        out = []
        for river, called in zip(self.rivers, self.called):
            gone = set(called)
            out.append(tuple(t for i, t in enumerate(river) if i not in gone))
        return tuple(out)

    @property
    def missing_suit(self) -> Suit | None:
        """The seat's own declared missing suit (None: none declared, or none in this game)."""
        return self.missing[self.seat]

    def standing(self, seat: int) -> int:
        """A seat's points now: its points at the round's start and this round's changes."""
        return self.points[seat] + self.scores[seat]

    def exhausted_kinds(self) -> str:
        """Kinds (mpsz) whose four copies are all in view in the discards and melds
        (:func:`~.table.wins.exhausted_kinds`, from the seat's view, which sees all of them)."""
        return exposed_fours(self.discards, self.melds)

    def win_context(self) -> WinContext:
        """The situation the seat's win would be scored in now, as the seat sees it: what
        :meth:`Round.win_context` gives with no special situation, except that the ura
        indicators (hidden under the dead wall until a riichi win turns them) stay empty. Made
        once, from the fields."""
        values = self.__dict__
        known: WinContext | None = values.get("_situation")
        if known is None:
            known = values["_situation"] = self._situation()
        return known

    def _situation(self) -> WinContext:
        """:meth:`win_context` from the fields."""
        seat = self.seat
        riichi, double, ippatsu = self.riichi_flags
        live_wait = "only_live_wait" in self.profile.needs
        return WinContext(
            seat_wind=self.seat_wind,
            round_wind=self.round_wind,
            flowers=format_tiles(self.flowers[seat]),
            missing_suit=self.missing[seat],
            dealer=seat == self.dealer,
            riichi=riichi,
            double_riichi=double,
            ippatsu=ippatsu,
            dora_indicators=format_tiles(self.dora_indicators),
            honba=self.honba,
            original_call=self.original_call[seat],
            dealer_wins=self.dealer_wins if seat == self.dealer else 0,
            riichi_sticks=self.deposits,
            exhausted=self.exhausted_kinds() if live_wait else "",
        )

    # ------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        """The observation as plain JSON data (field names and forms: the module docstring)."""

        def tiles(ts: Sequence[Tile]) -> list[str]:
            return [t.mpsz for t in ts]

        def tile(t: Tile | None) -> str | None:
            return t.mpsz if t is not None else None

        return {
            "profile": self.profile.id,
            "seat": self.seat,
            "phase": self.phase.value,
            "turn": self.turn,
            "dealer": self.dealer,
            "round_wind": self.round_wind.value,
            "seat_wind": self.seat_wind.value,
            "hand": tiles(self.hand),
            "drawn": tile(self.drawn),
            "legal": [a.to_json() for a in self.legal],
            "melds": [[_meld_json(m) for m in ms] for ms in self.melds],
            "rivers": [tiles(r) for r in self.rivers],
            "called": [list(c) for c in self.called],
            "sideways": list(self.sideways),
            "flowers": [tiles(f) for f in self.flowers],
            "concealed_counts": list(self.concealed_counts),
            "riichi": list(self.riichi),
            "original_call": list(self.original_call),
            "missing": [m.value if m is not None else None for m in self.missing],
            "active": list(self.active),
            "wins": [{"seat": w.seat, "from": w.discarder, "tile": w.tile.mpsz} for w in self.wins],
            "points": list(self.points),
            "scores": list(self.scores),
            "dora_indicators": tiles(self.dora_indicators),
            "dice": list(self.dice),
            "wall_remaining": self.wall_remaining,
            "honba": self.honba,
            "deposits": self.deposits,
            "dealer_wins": self.dealer_wins,
            "claim_tile": tile(self.claim_tile),
            "claim_from": self.claim_from,
            "exchange": tiles(self.exchange) if self.exchange is not None else None,
            "exchange_direction": (
                self.exchange_direction.value if self.exchange_direction is not None else None
            ),
            "riichi_flags": list(self.riichi_flags),
            "holds_missing": self.holds_missing,
            "suits": [s.value for s in self.suits],
            "plays_riichi": self.plays_riichi,
            "result": _result_json(self.result),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any], profile: Profile) -> "Observation":
        """An observation read back from :meth:`to_json`'s data, under ``profile`` (the one its
        ``profile`` field names); ValueError when it is not such data."""
        if raw.get("profile") != profile.id:
            raise ValueError(
                f"the observation is of profile {raw.get('profile')!r}, not {profile.id}"
            )
        try:
            return _from_json(raw, profile)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise ValueError(f"malformed observation: {type(e).__name__}: {e}") from None


def _result_json(result: HandResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "end": result.end,
        "win_deltas": [list(d) for d in result.win_deltas],
        "other_deltas": list(result.other_deltas),
        "ura_indicators": [t.mpsz for t in result.ura_indicators],
    }


def _result_of_json(raw: Mapping[str, Any] | None) -> HandResult | None:
    if raw is None:
        return None
    return HandResult(
        str(raw["end"]),
        tuple(tuple(int(n) for n in d) for d in raw["win_deltas"]),
        tuple(int(n) for n in raw["other_deltas"]),
        tuple(Tile.parse(t) for t in raw["ura_indicators"]),
    )


def _meld_json(m: Meld) -> dict[str, Any]:
    return {
        "type": m.type.value,
        "tiles": [t.mpsz for t in m.tiles],
        "claimed": m.claimed.mpsz if m.claimed is not None else None,
        "source": m.source,
    }


def _from_json(raw: Mapping[str, Any], profile: Profile) -> Observation:
    def tiles(ts: Sequence[str]) -> tuple[Tile, ...]:
        return tuple(Tile.parse(t) for t in ts)

    def tile(t: str | None) -> Tile | None:
        return Tile.parse(t) if t is not None else None

    def meld(m: Mapping[str, Any]) -> Meld:
        return Meld(MeldType(m["type"]), tiles(m["tiles"]), tile(m["claimed"]), m["source"])

    flags = tuple(bool(f) for f in raw["riichi_flags"])
    if len(flags) != 3:
        raise ValueError("riichi_flags holds three flags")
    direction = raw["exchange_direction"]
    return Observation(
        profile=profile,
        seat=int(raw["seat"]),
        phase=Phase(raw["phase"]),
        turn=int(raw["turn"]),
        dealer=int(raw["dealer"]),
        round_wind=Wind(raw["round_wind"]),
        seat_wind=Wind(raw["seat_wind"]),
        hand=tiles(raw["hand"]),
        counts=_counts(tiles(raw["hand"])),
        drawn=tile(raw["drawn"]),
        legal=tuple(Action.from_json(a) for a in raw["legal"]),
        melds=tuple(tuple(meld(m) for m in ms) for ms in raw["melds"]),
        rivers=tuple(tiles(r) for r in raw["rivers"]),
        called=tuple(tuple(int(i) for i in c) for c in raw["called"]),
        sideways=tuple(None if i is None else int(i) for i in raw["sideways"]),
        flowers=tuple(tiles(f) for f in raw["flowers"]),
        concealed_counts=tuple(int(n) for n in raw["concealed_counts"]),
        riichi=tuple(bool(r) for r in raw["riichi"]),
        original_call=tuple(bool(r) for r in raw["original_call"]),
        missing=tuple(Suit(m) if m is not None else None for m in raw["missing"]),
        active=tuple(bool(a) for a in raw["active"]),
        wins=tuple(SeenWin(int(w["seat"]), w["from"], Tile.parse(w["tile"])) for w in raw["wins"]),
        points=tuple(int(p) for p in raw["points"]),
        scores=tuple(int(p) for p in raw["scores"]),
        dora_indicators=tiles(raw["dora_indicators"]),
        dice=tuple(int(d) for d in raw["dice"]),
        wall_remaining=int(raw["wall_remaining"]),
        honba=int(raw["honba"]),
        deposits=int(raw["deposits"]),
        dealer_wins=int(raw["dealer_wins"]),
        claim_tile=tile(raw["claim_tile"]),
        claim_from=raw["claim_from"],
        exchange=tiles(raw["exchange"]) if raw["exchange"] is not None else None,
        exchange_direction=ExchangeDirection(direction) if direction is not None else None,
        riichi_flags=(flags[0], flags[1], flags[2]),
        holds_missing=bool(raw["holds_missing"]),
        suits=tuple(Suit(s) for s in raw["suits"]),
        plays_riichi=bool(raw["plays_riichi"]),
        result=_result_of_json(raw["result"]),
    )


def _counts(hand: Sequence[Tile]) -> tuple[int, ...]:
    out = [0] * N_ALL_KINDS
    for t in hand:
        out[t.kind] += 1
    return tuple(out)


class Agent(Protocol):
    """A player: given what its seat may know, it chooses one of ``observation.legal``.

    An agent may also have ``hand_over(observation)``, which :func:`~.match.play_hand` calls for
    each seat the agent plays once the hand is over (the seat's observation of the ended hand:
    phase ``over``, no legal action, its ``result``), and ``match_over(seat, totals)``, which
    :func:`~.match.play_match` (and ``mjspec play``) calls once the match is over, with each seat's
    final points. Both are optional (a bot that keeps nothing between decisions needs neither);
    what they return is not read."""

    def choose(self, observation: Observation) -> Action: ...


def observe(hand: Round, seat: int, legal: Sequence[Action] | None = None) -> Observation:
    """What ``seat`` may know of ``hand`` now, with its legal actions (``legal``: the list
    :meth:`Round.legal_actions` just gave, to spare asking again), every field read at once."""
    if legal is None:
        legal = hand.legal_actions(seat)
    obs = decision_observation(hand, seat, tuple(legal))
    obs._complete()
    return obs


def _rebuild(fields: dict[str, Any]) -> Observation:
    return Observation(**fields)


# ------------------------------------------------------------ the decision's observation
#
# The observation of a decision is one tuple: the fields of _AT_ONCE (read from the table at once,
# each an immutable value the seat may know), then its source: a list of the table's public lists
# (and the seat's own concealed tiles) the fields of _LATER are copied from on first use. The
# source never holds the table, the wall, the dead wall, another seat's concealed tiles or a
# mechanism holding hidden state (the riichi waits, the claim window's answers, the exchange's
# choices): only the lists below, each public or the seat's own. It is emptied when the decision
# returns (completing the observation first when the agent kept it), so nothing read later sees
# the table move on.

_NO_SIDEWAYS: tuple[int | None, ...] = (None,) * SEATS
_NO_FLAGS: tuple[bool, ...] = (False,) * SEATS
_NO_RIICHI = (False, False, False)
_NO_MISSING: tuple[Suit | None, ...] = (None,) * SEATS
_NO_MELDS: tuple[tuple[Meld, ...], ...] = ((),) * SEATS

# The source is a list of two items: the seat's concealed tiles (Round.hands[seat]), and the
# round's public lists (_public_lists), whose items by index are:
_RIVERS = 0  # Round.river: every seat's discards, claimed ones included
_CALLED = 1  # Round.called_discards
_FLOWERS = 2  # Round.flowers: the exposed bonus tiles
_POINTS = 3  # Round.points
_SCORES = 4  # Round.scores
_ACTIVE = 5  # Round.active
_DECLARED = 6  # Riichi.declared, or None (no riichi in the game)
_DOUBLE = 7  # Riichi.double
_IPPATSU = 8  # Riichi.ippatsu
_SIDEWAYS = 9  # Riichi.sideways
_ORIGINAL_CALL = 10  # OriginalCall.called, or None


def _riichi_flags(source: list[Any], seat: int) -> tuple[bool, bool, bool]:
    public = source[1]
    declared = public[_DECLARED]
    if declared is None:
        return _NO_RIICHI
    return (declared[seat], public[_DOUBLE][seat], public[_IPPATSU][seat])


def _sideways(source: list[Any], seat: int) -> tuple[int | None, ...]:
    sideways = source[1][_SIDEWAYS]
    return tuple(sideways) if sideways is not None else _NO_SIDEWAYS


def _riichi(source: list[Any], seat: int) -> tuple[bool, ...]:
    declared = source[1][_DECLARED]
    return tuple(declared) if declared is not None else _NO_FLAGS


def _original_call(source: list[Any], seat: int) -> tuple[bool, ...]:
    called = source[1][_ORIGINAL_CALL]
    return tuple(called) if called is not None else _NO_FLAGS


_LATER: dict[str, Callable[[list[Any], int], Any]] = {
    "hand": lambda source, seat: tuple(source[0]),
    "rivers": lambda source, seat: tuple(map(tuple, source[1][_RIVERS])),
    "called": lambda source, seat: tuple(map(tuple, source[1][_CALLED])),
    "sideways": _sideways,
    "flowers": lambda source, seat: tuple(map(tuple, source[1][_FLOWERS])),
    "riichi": _riichi,
    "original_call": _original_call,
    "active": lambda source, seat: tuple(source[1][_ACTIVE]),
    "points": lambda source, seat: tuple(source[1][_POINTS]),
    "scores": lambda source, seat: tuple(source[1][_SCORES]),
    "riichi_flags": _riichi_flags,
}
"""The fields copied from the decision's source on first use (each a copy: a tuple), from the
source and the seat."""

#: The fields :func:`decision_observation` sets at once, in the tuple's order: what a bot reads
#: every decision, and every value the source does not hold (cheap to read: one value each).
_AT_ONCE = (
    "seat",
    "legal",
    "phase",
    "profile",
    "counts",
    "melds",
    "missing",
    "holds_missing",
    "claim_tile",
    "suits",
    "plays_riichi",
    "turn",
    "dealer",
    "round_wind",
    "seat_wind",
    "drawn",
    "concealed_counts",
    "wins",
    "dora_indicators",
    "dice",
    "wall_remaining",
    "honba",
    "deposits",
    "dealer_wins",
    "claim_from",
    "exchange",
    "exchange_direction",
    "result",
)
assert set(_AT_ONCE) | set(_LATER) == set(FIELDS) and not set(_AT_ONCE) & set(_LATER)
_SEAT = _AT_ONCE.index("seat")
_SOURCE = len(_AT_ONCE)  # the tuple's last item: the decision's source, emptied after it

_CLAIM = Phase.CLAIM
_ROB = Phase.ROB
_DECLARE = Phase.DECLARE
_EXCHANGE = Phase.EXCHANGE
_TURN = Phase.TURN
_OVER = Phase.OVER
_SUIT_FIRST = SUIT_FIRST_KIND
_FIRST_INDICATOR = INDICATORS[0]


def decision_observation(hand: Round, seat: int, legal: tuple[Action, ...]) -> Observation:
    """The lazy observation of ``seat``'s decision now (:func:`~.match.play_hand`'s, one per
    decision; see :class:`Observation`): the fields of :data:`_AT_ONCE` set, the fields of
    :data:`_LATER` copied on first use from the source (the table's public lists, never the
    table). The caller empties the source (the tuple's last item) once the decision returns:
    :func:`~.match.play_hand` completes the observation first when the agent kept it."""
    phase = hand.phase
    profile = hand.profile
    counts = hand.counts[seat]
    ms = hand.missing_suit
    if ms is None:
        missing, holds = _NO_MISSING, False
    elif phase is _DECLARE:  # the declarations are shown once every seat has made one
        missing, holds = tuple(d if s == seat else None for s, d in enumerate(ms.declared)), False
    else:  # while the declarations are hidden none binds the seat yet (it declares, then they show)
        declared = ms.declared
        missing, own = tuple(declared), declared[seat]
        holds = own is not None and any(counts[_SUIT_FIRST[own] : _SUIT_FIRST[own] + 9])
    if phase is _CLAIM or phase is _ROB:
        claims = hand.claims
        claim_tile, claim_from = claims.tile, claims.discarder
    else:
        claim_tile = claim_from = None
    turn = hand.turn
    dealer = hand.dealer
    wall = hand.wall
    dead = wall.dead
    if dead is None:
        dora: tuple[Tile, ...] = ()
    elif dead.revealed == 1:  # the commonest case, spared the list
        dora = (dead.tiles[_FIRST_INDICATOR],)
    else:
        dora = tuple(dead.indicators())
    won = hand.wins
    ex = hand.exchange
    if ex is None:
        exchange = direction = None
    elif phase is _EXCHANGE:  # the seat's own choice while the others choose
        exchange, direction = ex.choice[seat], None
    else:  # the direction is shown when the tiles pass (the ``exchange`` event), not before
        exchange, direction = None, ex.direction
    hands = hand.hands
    melds = hand.melds
    global _last_public
    public = _last_public  # read once: another thread may set it meanwhile
    if public[0] is not hand.river:  # a new round (its lists live as long as it does)
        public = _last_public = _public_lists(hand)
    return _tuple_new(  # in the order of _AT_ONCE, and the source last
        Observation,
        (
            seat,
            legal,
            phase,
            profile,
            tuple(counts),
            tuple(map(tuple, melds)) if melds[0] or melds[1] or melds[2] or melds[3] else _NO_MELDS,
            missing,
            holds,
            claim_tile,
            profile.tiles.suits,
            profile.table.riichi is not None,
            turn,
            dealer,
            hand.round_wind,
            WINDS[(seat - dealer) % SEATS],
            hand.last_draw if phase is _TURN and seat == turn else None,
            (len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3])),
            _seen_wins(won) if won else (),
            dora,
            hand.dice,
            wall.back - wall.front,  # Round.wall_remaining, without the property call
            hand.honba,
            hand.deposits,
            hand.dealer_wins,
            claim_from,
            exchange,
            direction,
            _result(hand) if phase is _OVER else None,
            [hands[seat], public],
        ),
    )


def _public_lists(hand: Round) -> tuple[Any, ...]:
    """The round's public lists, the source's second item (``_RIVERS`` ...): the same list
    objects the whole round (the table changes them in place, never binds new ones)."""
    r = hand.riichi
    oc = hand.original_call
    return (
        hand.river,
        hand.called_discards,
        hand.flowers,
        hand.points,
        hand.scores,
        hand.active,
        r.declared if r is not None else None,
        r.double if r is not None else None,
        r.ippatsu if r is not None else None,
        r.sideways if r is not None else None,
        oc.called if oc is not None else None,
    )


def _result(hand: Round) -> HandResult:
    """How the hand ended (the round is over), from its events: each win's score changes are
    those of its payments and of the deposits it collects (events of the winner), every other
    change but the riichi deposits is the rest (as mjai and Tenhou give them; app/played.py)."""
    end = "win"
    per_win = {w.seat: [0] * SEATS for w in hand.wins}
    rest = [0] * SEATS
    for ev in hand.events:
        kind = ev.kind
        if kind is EventKind.EXHAUSTION:
            end = "exhaustion"
        elif kind is EventKind.ABORTIVE_DRAW:
            end = str(ev.data["reason"])
        if kind is EventKind.DEPOSIT or not any(ev.deltas):
            continue
        target = rest
        if kind is EventKind.WIN_PAYMENT or kind is EventKind.DEPOSITS:
            target = per_win.get(ev.seat, rest) if ev.seat is not None else rest
        for s in range(SEATS):
            target[s] += ev.deltas[s]
    ura: tuple[Tile, ...] = ()
    dead, r = hand.wall.dead, hand.riichi
    if dead is not None and r is not None and dead.rules.under_indicators:
        if any(r.declared[w.seat] for w in hand.wins):  # a riichi win turns them (001)
            ura = tuple(dead.under_indicators())
    return HandResult(
        end,
        tuple(tuple(per_win[w.seat]) for w in hand.wins),
        tuple(rest),
        ura,
    )


def _seen_wins(won: list[Any]) -> tuple[SeenWin, ...]:
    """The round's wins as the table shows them (``Round.wins``: a list that only grows, so the
    tuple is made once a win, not once a decision: Sichuan's bloody battle plays on after one)."""
    global _last_wins
    known = _last_wins  # read once: another thread may set it meanwhile
    if known[0] is won and len(known[1]) == len(won):
        return known[1]
    seen = tuple([SeenWin(w.seat, w.discarder, w.tile) for w in won])
    _last_wins = (won, seen)
    return seen


_last_wins: tuple[Any, tuple[SeenWin, ...]] = (None, ())
"""The wins list last shown and its tuple (public: every win is shown when it is made)."""

_last_public: tuple[Any, ...] = (None,)
"""The public lists of the round last observed: a round's decisions follow one another, so they
are gathered once a round. Only public lists (never the table, the wall or a concealed hand)."""


def _later(name: str, build: Callable[[list[Any], int], Any]) -> property:
    """The property of a field copied on first use: from the instance's dict once read."""

    def read(self: Observation) -> Any:
        values = self.__dict__
        value = values.get(name, _UNREAD)
        if value is _UNREAD:
            source = self[_SOURCE]
            if not source:
                raise RuntimeError(
                    f"the observation's {name!r} was not read during its decision, and the "
                    "observation was not kept (the table keeps no observation nobody holds)"
                )
            value = values[name] = build(source, self[_SEAT])
        return value

    read.__name__ = name
    return property(read, doc=f"The observation's ``{name}`` (the module docstring).")


_UNREAD = object()
for _index, _name in enumerate(_AT_ONCE):
    setattr(Observation, _name, _item(_index, f"The observation's ``{_name}``."))
for _name, _build in _LATER.items():
    setattr(Observation, _name, _later(_name, _build))
