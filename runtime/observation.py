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
from typing import TYPE_CHECKING, Any, Callable, Mapping, NamedTuple, Protocol, Sequence

from .actions import Action
from .context import WinContext, Wind
from .hand import Meld, MeldType
from .profile import Profile
from .rules import ExchangeDirection
from .tiles import N_ALL_KINDS, Suit, Tile, format_tiles
from .table import SEATS, WINDS, Phase, Round
from .table.wins import exposed_fours


class SeenWin(NamedTuple):
    """A win of the round as the table shows it: who won, from whom (None: self-drawn), on what."""

    seat: int
    discarder: int | None
    tile: Tile


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
)
"""The observation's fields, in order (the module docstring says what each holds)."""

_refcount: Callable[[object], int] | None = getattr(sys, "getrefcount", None)
_new = object.__new__
_set = object.__setattr__
_get = object.__getattribute__


class Observation:
    """Everything one seat may know when it is asked to decide (the module docstring lists the
    fields and their JSON form). Immutable: a field cannot be set or deleted.

    The table builds one for every decision, so it is built lazily: the seat and the legal
    actions are set at once, every other field is read from the table the first time it is asked
    for during the decision (a bot reads a few), and kept. When the agent has answered, the
    observation is either dropped by everybody, or, when the agent kept a reference to it (or to
    something holding it), completed from the table before the table moves on: a kept observation
    always holds the values of its own decision. :func:`observe` gives a complete one at once.
    """

    __slots__ = ("_values", "_source")

    if TYPE_CHECKING:  # the fields, as properties made from FIELDS below the class
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

    _values: list[Any]
    _source: Round | None

    def __init__(self, **fields: Any) -> None:
        """An observation of these fields, every one of :data:`FIELDS` given by name."""
        given = set(fields)
        if given != set(FIELDS):
            missing = ", ".join(f for f in FIELDS if f not in given) or "none"
            unknown = ", ".join(sorted(given - set(FIELDS))) or "none"
            raise TypeError(
                f"an observation needs every field (missing: {missing}; unknown: {unknown})"
            )
        _set(self, "_values", [fields[name] for name in FIELDS])
        _set(self, "_source", None)

    @classmethod
    def _of_decision(cls, hand: Round, seat: int, legal: tuple[Action, ...]) -> "Observation":
        """The lazy observation of ``seat``'s decision now (:func:`~.match.play_hand`'s; see the
        class docstring): it reads the table while the table stands still, until
        :meth:`_settle`."""
        obs = _new(cls)
        values = _BLANK.copy()
        values[_SEAT] = seat
        values[_LEGAL] = legal
        _set(obs, "_values", values)
        _set(obs, "_source", hand)
        return obs

    def _settle(self) -> None:
        """After the agent answered: complete the observation if anything but its one caller's
        variable holds it (the agent kept it), so that it keeps its decision's values; else
        nobody can read it any more and it is left as it is. Without reference counts (an
        interpreter other than CPython) it is always completed."""
        if _refcount is None or _refcount(self) > _ALONE:
            self._complete()

    def _references(self) -> int:
        """:meth:`_settle`'s count, asked the same way (the count it compares with is this one's,
        of an observation held by one variable only)."""
        return _refcount(self) if _refcount is not None else 0

    def _complete(self) -> None:
        """Read every field not yet read, and let go of the table."""
        hand = self._source
        if hand is None:
            return
        values = self._values
        seat = values[_SEAT]
        for i, build in enumerate(_BUILD_AT):
            if values[i] is _UNSET:
                values[i] = build(hand, seat)
        _set(self, "_source", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"an observation is immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"an observation is immutable (cannot delete {name!r})")

    def fields(self) -> dict[str, Any]:
        """Every field by name, in :data:`FIELDS` order."""
        self._complete()
        return dict(zip(FIELDS, self._values))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        self._complete()
        other._complete()
        return self._values == other._values

    __hash__ = None  # type: ignore[assignment]  # compared by value, never hashed

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={v!r}" for n, v in self.fields().items() if n != "profile")
        return f"Observation(profile={self.profile.id!r}, {shown})"

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
        indicators (hidden under the dead wall until a riichi win turns them) stay empty."""
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
    )


def _counts(hand: Sequence[Tile]) -> tuple[int, ...]:
    out = [0] * N_ALL_KINDS
    for t in hand:
        out[t.kind] += 1
    return tuple(out)


class Agent(Protocol):
    """A player: given what its seat may know, it chooses one of ``observation.legal``."""

    def choose(self, observation: Observation) -> Action: ...


def observe(hand: Round, seat: int, legal: Sequence[Action] | None = None) -> Observation:
    """What ``seat`` may know of ``hand`` now, with its legal actions (``legal``: the list
    :meth:`Round.legal_actions` just gave, to spare asking again), every field read at once."""
    if legal is None:
        legal = hand.legal_actions(seat)
    obs = Observation._of_decision(hand, seat, tuple(legal))
    obs._complete()
    return obs


def _rebuild(fields: dict[str, Any]) -> Observation:
    return Observation(**fields)


# ------------------------------------------------------------ reading each field from the table
#
# One function a field, ``(hand, seat) -> value``: what the seat may see of the table now. Each
# copies (tuples), so the value stays as it was when the table moves on.

_NO_SIDEWAYS: tuple[int | None, ...] = (None,) * SEATS
_NO_FLAGS: tuple[bool, ...] = (False,) * SEATS
_NO_RIICHI = (False, False, False)
_NO_MISSING: tuple[Suit | None, ...] = (None,) * SEATS


def _claim_tile(hand: Round, seat: int) -> Tile | None:
    phase = hand.phase
    return hand.claims.tile if phase is Phase.CLAIM or phase is Phase.ROB else None


def _claim_from(hand: Round, seat: int) -> int | None:
    phase = hand.phase
    return hand.claims.discarder if phase is Phase.CLAIM or phase is Phase.ROB else None


def _riichi_flags(hand: Round, seat: int) -> tuple[bool, bool, bool]:
    r = hand.riichi
    return (r.declared[seat], r.double[seat], r.ippatsu[seat]) if r is not None else _NO_RIICHI


def _missing(hand: Round, seat: int) -> tuple[Suit | None, ...]:
    ms = hand.missing_suit
    if ms is None:
        return _NO_MISSING
    if hand.phase is Phase.DECLARE:  # the declarations are shown once every seat has made one
        return tuple(ms.declared[s] if s == seat else None for s in range(SEATS))
    return tuple(ms.declared)


def _holds_missing(hand: Round, seat: int) -> bool:
    # While the declarations are hidden none binds the seat yet (it declares, then they show).
    return hand.phase is not Phase.DECLARE and hand.holds_missing(seat)


def _exchange(hand: Round, seat: int) -> tuple[Tile, ...] | None:
    ex = hand.exchange
    return ex.choice[seat] if ex is not None and hand.phase is Phase.EXCHANGE else None


def _exchange_direction(hand: Round, seat: int) -> ExchangeDirection | None:
    # The direction is shown when the tiles pass (the ``exchange`` event), not before.
    ex = hand.exchange
    return ex.direction if ex is not None and hand.phase is not Phase.EXCHANGE else None


def _drawn(hand: Round, seat: int) -> Tile | None:
    return hand.last_draw if hand.phase is Phase.TURN and seat == hand.turn else None


def _dora(hand: Round, seat: int) -> tuple[Tile, ...]:
    dead = hand.wall.dead
    return tuple(dead.indicators()) if dead is not None else ()


def _wins(hand: Round, seat: int) -> tuple[SeenWin, ...]:
    return tuple(SeenWin(w.seat, w.discarder, w.tile) for w in hand.wins)


def _sideways(hand: Round, seat: int) -> tuple[int | None, ...]:
    r = hand.riichi
    return tuple(r.sideways) if r is not None else _NO_SIDEWAYS


def _riichi(hand: Round, seat: int) -> tuple[bool, ...]:
    r = hand.riichi
    return tuple(r.declared) if r is not None else _NO_FLAGS


def _original_call(hand: Round, seat: int) -> tuple[bool, ...]:
    oc = hand.original_call
    return tuple(oc.called) if oc is not None else _NO_FLAGS


_BUILDERS: dict[str, Callable[[Round, int], Any]] = {
    "profile": lambda hand, seat: hand.profile,
    "phase": lambda hand, seat: hand.phase,
    "turn": lambda hand, seat: hand.turn,
    "dealer": lambda hand, seat: hand.dealer,
    "round_wind": lambda hand, seat: hand.round_wind,
    "seat_wind": lambda hand, seat: WINDS[(seat - hand.dealer) % SEATS],
    "hand": lambda hand, seat: tuple(hand.hands[seat]),
    "counts": lambda hand, seat: tuple(hand.counts[seat]),
    "drawn": _drawn,
    "melds": lambda hand, seat: tuple(map(tuple, hand.melds)),
    "rivers": lambda hand, seat: tuple(map(tuple, hand.river)),
    "called": lambda hand, seat: tuple(map(tuple, hand.called_discards)),
    "sideways": _sideways,
    "flowers": lambda hand, seat: tuple(map(tuple, hand.flowers)),
    "concealed_counts": lambda hand, seat: tuple(map(len, hand.hands)),
    "riichi": _riichi,
    "original_call": _original_call,
    "missing": _missing,
    "active": lambda hand, seat: tuple(hand.active),
    "wins": _wins,
    "points": lambda hand, seat: tuple(hand.points),
    "scores": lambda hand, seat: tuple(hand.scores),
    "dora_indicators": _dora,
    "dice": lambda hand, seat: tuple(hand.dice),
    "wall_remaining": lambda hand, seat: hand.wall_remaining,
    "honba": lambda hand, seat: hand.honba,
    "deposits": lambda hand, seat: hand.deposits,
    "dealer_wins": lambda hand, seat: hand.dealer_wins,
    "claim_tile": _claim_tile,
    "claim_from": _claim_from,
    "exchange": _exchange,
    "exchange_direction": _exchange_direction,
    "riichi_flags": _riichi_flags,
    "holds_missing": _holds_missing,
    "suits": lambda hand, seat: hand.profile.tiles.suits,
    "plays_riichi": lambda hand, seat: hand.rules.riichi is not None,
}
"""How each field not set at once is read (every field but the seat and the legal actions)."""
assert set(_BUILDERS) | {"seat", "legal"} == set(FIELDS)


class _Unset:
    """A field not read yet."""

    __slots__ = ()


_UNSET = _Unset()
_BLANK: list[Any] = [_UNSET] * len(FIELDS)
_SEAT = FIELDS.index("seat")
_LEGAL = FIELDS.index("legal")


def _given(hand: Round, seat: int) -> Any:
    raise AssertionError("the seat and the legal actions are given when the observation is made")


_BUILD_AT: tuple[Callable[[Round, int], Any], ...] = tuple(
    _BUILDERS.get(name, _given) for name in FIELDS
)


def _field(index: int, name: str, build: Callable[[Round, int], Any]) -> property:
    def read(self: Observation) -> Any:
        values = self._values
        value = values[index]
        if value is _UNSET:  # first asked during the decision: read it from the table now
            hand = self._source
            assert hand is not None  # a completed observation has every field
            value = values[index] = build(hand, values[_SEAT])
        return value

    read.__name__ = name
    return property(read, doc=f"The observation's ``{name}`` (the module docstring).")


for _index, _name in enumerate(FIELDS):
    setattr(Observation, _name, _field(_index, _name, _BUILD_AT[_index]))


def _alone() -> int:
    probe = _new(Observation)  # held by this variable only, as play_hand holds its observation
    return probe._references()


_ALONE = _alone()
"""References to an observation that only its caller's variable holds, as :meth:`_settle` counts
them."""
