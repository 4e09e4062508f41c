"""mjai, the event protocol of Mortal, akochan and mjai-reviewer: riichi records written as mjai
event streams, and mjai logs read into records.

The format, as this module writes and reads it (one JSON object per line, in play order):

- ``start_game`` (``names``; and ``kyoku_first``, 0 for an East-South game and 4 for an
  East-only one, and ``aka_flag``, red fives, as mjai-reviewer's convlog writes them);
- ``start_kyoku``: ``bakaze`` (the round wind, ``E`` ``S`` ``W`` ``N``), ``kyoku`` (1-4, the
  dealer's turn within the wind round), ``honba``, ``kyotaku`` (riichi sticks on the table),
  ``oya`` (the dealer's seat), ``dora_marker`` (the first indicator), ``scores`` (each seat's
  points) and ``tehais`` (each seat's 13 starting tiles);
- ``tsumo`` (``actor``, ``pai``); ``dahai`` (``actor``, ``pai``, ``tsumogiri``: the tile just
  drawn was discarded);
- ``chi`` / ``pon`` / ``daiminkan`` (``actor``, ``target``: the discarder, ``pai``: the claimed
  tile, ``consumed``: the caller's own tiles), ``kakan`` (``actor``, ``pai``: the added tile,
  ``consumed``: the pon's three), ``ankan`` (``actor``, ``consumed``: the four);
- ``dora`` (``dora_marker``: a new indicator), ``reach`` (``actor``: riichi declared; the next
  ``dahai`` is the declaring discard) and ``reach_accepted`` (``actor``: the 1000-point deposit
  is taken, after nobody won on that discard);
- ``hora`` (``actor``: the winner, ``target``: the discarder, or the winner for a self-draw,
  ``deltas``: this win's score change per seat, its collected sticks included and the hand's
  riichi deposits, already paid at ``reach_accepted``, left out; ``ura_markers``: the
  under-indicators a riichi win shows; and ``pai``, the winning tile, from the original
  protocol); ``ryukyoku`` (``deltas``); ``end_kyoku``; ``end_game``.

Tiles: ``1m``-``9m``, ``1p``-``9p``, ``1s``-``9s``, ``E`` ``S`` ``W`` ``N`` (winds), ``P``
``F`` ``C`` (white, green, red dragons), red fives ``5mr`` ``5pr`` ``5sr``.

Where these field meanings come from: Mortal's ``libriichi/src/mjai/event.rs`` (the ``Event``
enum: every event above with its fields, ``kyoku`` counting from 1, ``hora.deltas`` and
``hora.ura_markers`` optional) and its test ``json_consistency`` (one line of every event);
mjai-reviewer's ``convlog/src/mjai.rs`` (``start_game`` with ``kyoku_first``, ``aka_flag`` and
``names``) and ``convlog/src/conv.rs``, the tenhou.net/6-to-mjai converter (``reach`` before
its ``dahai`` and ``reach_accepted`` when the next tile is taken; ``hora`` deltas are Tenhou's,
which leave out the hand's riichi deposits; ``tsumogiri`` for Tenhou's ``60``; the event order
of a kan and its ``dora``). The original protocol is gimite's mjai (cited by Mortal's source).
RiichiEnv's ``MjaiReplay`` reads the same events (``riichienv-core/src/replay/mjai_replay.rs``).

Reading (:func:`read_mjai`): the log is read into the same hands as a Tenhou log
(:mod:`mjspec.app.tenhou`), then played at the table by :mod:`mjspec.app.tenhou_replay`, which
rebuilds each wall and writes the record; mjai states no yaku, han or fu, so the comparison with
the log is of the winners and every score change. A log that cannot be read stops with the
file, the line and why (:class:`MjaiFormatError`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NoReturn, Sequence

from mjspec.app.played import (
    Accepted,
    Called,
    Declared,
    Discarded,
    Drew,
    Ended,
    ExportError,
    Indicator,
    PlayedMatch,
    Won,
)
from mjspec.app.tenhou_export import tenhou_code
from mjspec.app.tenhou import (
    RED_FIVE_IDS,
    Call,
    Discard,
    DoraRevealed,
    Draw,
    Drawn,
    GameRules,
    MeldKind,
    Result,
    RiichiStep,
    Step,
    TenhouGame,
    TenhouHand,
    TenhouMeld,
    Win,
    _Ids,
)
from mjspec.runtime.hand import MeldType
from mjspec.runtime.profile import Profile
from mjspec.runtime.safejson import JsonInputError, loads
from mjspec.runtime.table import SEATS
from mjspec.runtime.tiles import Tile

__all__ = [
    "MjaiFormatError",
    "mjai_tile",
    "tile_of_mjai",
    "mjai_events",
    "game_start",
    "kyoku_start",
    "step_event",
    "dumps",
    "read_mjai",
    "load_mjai",
]

_HONORS = ("E", "S", "W", "N", "P", "F", "C")
_SUITS = "mps"
WINDS = ("E", "S", "W", "N")
#: No mjai log of one game comes near this (a whole game is a few hundred kilobytes).
MAX_LOG_BYTES = 32_000_000


def mjai_tile(tile: Tile) -> str:
    """The mjai name of a tile: ``5m``, ``5mr`` (red), ``E`` ... ``C``."""
    if tile.kind < 27:
        name = f"{tile.kind % 9 + 1}{_SUITS[tile.kind // 9]}"
        return name + "r" if tile.red else name
    return _HONORS[tile.kind - 27]


_TILE_NAMES = "1m-9m, 1p-9p, 1s-9s, E S W N P F C, 5mr 5pr 5sr"
_BY_NAME: dict[str, Tile] = {mjai_tile(Tile(k)): Tile(k) for k in range(34)} | {
    f"5{s}r": Tile(9 * i + 4, True) for i, s in enumerate(_SUITS)
}


def tile_of_mjai(name: object) -> Tile:
    """The tile an mjai name stands for; ValueError for anything else (``?``, the hidden tile of
    a live stream, included: a log to import must show every tile)."""
    tile = _BY_NAME.get(name) if isinstance(name, str) else None
    if tile is None:
        raise ValueError(f"{json.dumps(name)} is not an mjai tile ({_TILE_NAMES})")
    return tile


# ------------------------------------------------------------------ writing


def mjai_events(played: PlayedMatch) -> list[dict[str, Any]]:
    """The mjai event stream of a played riichi match (module docstring)."""
    out: list[dict[str, Any]] = [game_start(played.profile)]
    for hand in played.hands:
        out.append(
            kyoku_start(
                hand.round_wind,
                hand.dealer,
                hand.honba,
                hand.deposits,
                hand.points,
                hand.indicator,
                [[mjai_tile(t) for t in hand.dealt[s]] for s in range(SEATS)],
            )
        )
        for st in hand.steps:
            out.append(step_event(st, hand.ura))
        out.append({"type": "end_kyoku"})
    out.append({"type": "end_game"})
    return out


def game_start(profile: Profile, seat: int | None = None) -> dict[str, Any]:
    """The ``start_game`` event of a match under ``profile``; with ``seat``, as a live game sends
    it to that seat's bot (``id``: the seat the bot plays)."""
    event: dict[str, Any] = {"type": "start_game"}
    if seat is not None:
        event["id"] = seat
    event["names"] = [f"seat {s}" for s in range(SEATS)]
    event["kyoku_first"] = 4 if profile.table.match.rounds == 1 else 0
    event["aka_flag"] = bool(profile.tiles.red_fives)
    return event


def kyoku_start(
    round_wind: str,
    dealer: int,
    honba: int,
    deposits: int,
    points: Sequence[int],
    indicator: Tile,
    tehais: list[list[str]],
) -> dict[str, Any]:
    """The ``start_kyoku`` event of a hand (``tehais``: each seat's 13 tiles as mjai names, ``?``
    for a tile the receiver may not see)."""
    return {
        "type": "start_kyoku",
        "bakaze": round_wind,
        "dora_marker": mjai_tile(indicator),
        "kyoku": dealer + 1,
        "honba": honba,
        "kyotaku": deposits,
        "oya": dealer,
        "scores": list(points),
        "tehais": tehais,
    }


def _names(tiles: tuple[Tile, ...]) -> list[str]:
    return [mjai_tile(t) for t in sorted(tiles, key=lambda t: (t.kind, t.red))]


def step_event(st: object, ura: tuple[Tile, ...] = ()) -> dict[str, Any]:
    """The mjai event of one played step (:mod:`mjspec.app.played`); ``ura``: the hand's
    under-indicators, which a riichi win shows."""
    if isinstance(st, Drew):
        return {"type": "tsumo", "actor": st.seat, "pai": mjai_tile(st.tile)}
    if isinstance(st, Discarded):
        return {
            "type": "dahai",
            "actor": st.seat,
            "pai": mjai_tile(st.tile),
            "tsumogiri": st.tsumogiri,
        }
    if isinstance(st, Declared):
        return {"type": "reach", "actor": st.seat}
    if isinstance(st, Accepted):
        return {"type": "reach_accepted", "actor": st.seat}
    if isinstance(st, Indicator):
        return {"type": "dora", "dora_marker": mjai_tile(st.tile)}
    if isinstance(st, Called):
        if st.kind is MeldType.ANKAN:
            return {"type": "ankan", "actor": st.seat, "consumed": _names(st.consumed)}
        assert st.called is not None
        if st.kind is MeldType.KAKAN:
            return {
                "type": "kakan",
                "actor": st.seat,
                "pai": mjai_tile(st.called),
                "consumed": _names(st.consumed),
            }
        kind = {MeldType.CHI: "chi", MeldType.PON: "pon", MeldType.MINKAN: "daiminkan"}[st.kind]
        return {
            "type": kind,
            "actor": st.seat,
            "target": st.source,
            "pai": mjai_tile(st.called),
            "consumed": _names(st.consumed),
        }
    if isinstance(st, Won):
        return hora_event(st.seat, st.source, st.tile, st.deltas, ura if st.riichi else ())
    if isinstance(st, Ended):
        return ryukyoku_event(st.deltas)
    raise ExportError(f"no mjai event for {st!r}")  # pragma: no cover - every step kind is above


def hora_event(
    seat: int, target: int, tile: Tile, deltas: Sequence[int], ura: Sequence[Tile] = ()
) -> dict[str, Any]:
    """A win's ``hora``: ``target`` the discarder (or the winner, for a self-draw), ``deltas``
    the win's score changes (its collected sticks included, the hand's riichi deposits left out),
    ``ura`` the under-indicators a riichi winner shows (none: an empty list)."""
    return {
        "type": "hora",
        "actor": seat,
        "target": target,
        "pai": mjai_tile(tile),
        "deltas": list(deltas),
        "ura_markers": [mjai_tile(t) for t in ura],
    }


def ryukyoku_event(deltas: Sequence[int]) -> dict[str, Any]:
    """A drawn hand's ``ryukyoku`` with its score changes (the riichi deposits left out)."""
    return {"type": "ryukyoku", "deltas": list(deltas)}


def dumps(events: list[dict[str, Any]]) -> str:
    """JSON lines: one event per line, keys in the order written, no spaces (as Mortal writes)."""
    return "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in events)


# ------------------------------------------------------------------ reading


class MjaiFormatError(ValueError):
    """An mjai log that cannot be read: names the file, the line (1-based) and why."""

    def __init__(self, source: str, message: str, line: int | None = None) -> None:
        where = f"{source}, line {line}" if line is not None else source
        super().__init__(f"{where}: {message}")
        self.source = source
        self.line = line


_FIELDS: dict[str, tuple[str, ...]] = {
    "start_game": (),
    "start_kyoku": (
        "bakaze",
        "kyoku",
        "honba",
        "kyotaku",
        "oya",
        "scores",
        "dora_marker",
        "tehais",
    ),
    "tsumo": ("actor", "pai"),
    "dahai": ("actor", "pai", "tsumogiri"),
    "chi": ("actor", "target", "pai", "consumed"),
    "pon": ("actor", "target", "pai", "consumed"),
    "daiminkan": ("actor", "target", "pai", "consumed"),
    "kakan": ("actor", "pai", "consumed"),
    "ankan": ("actor", "consumed"),
    "dora": ("dora_marker",),
    "reach": ("actor",),
    "reach_accepted": ("actor",),
    "hora": ("actor", "target"),
    "ryukyoku": (),
    "end_kyoku": (),
    "end_game": (),
    "none": (),
}
_CONSUMED = {"chi": 2, "pon": 2, "daiminkan": 3, "kakan": 3, "ankan": 4}


def _seat(raw: dict[str, Any], key: str) -> int:
    value = raw[key]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < SEATS:
        raise ValueError(f"{key} must be a seat 0-3, got {json.dumps(value)}")
    return value


def _count(raw: dict[str, Any], key: str, low: int, high: int) -> int:
    value = raw[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{key} must be a whole number {low}-{high}, got {json.dumps(value)}")
    return value


def _deltas(raw: dict[str, Any]) -> tuple[int, ...]:
    value = raw.get("deltas")
    if value is None:
        raise ValueError("deltas are missing: a log to import must give every score change")
    if (
        not isinstance(value, list)
        or len(value) != SEATS
        or not all(isinstance(d, int) and not isinstance(d, bool) for d in value)
    ):
        raise ValueError(f"deltas must be four whole numbers, got {json.dumps(value)}")
    return tuple(value)


class _Kyoku:
    """One hand being read: each seat's tiles (Tenhou ids), what may come next, the steps."""

    def __init__(self, raw: dict[str, Any], index: int, red: bool, line: int) -> None:
        self.line = line
        self.index = index
        wind = raw["bakaze"]
        if wind not in WINDS:
            raise ValueError(f"bakaze must be one of E S W N, got {json.dumps(wind)}")
        kyoku = _count(raw, "kyoku", 1, 4)
        self.oya = _seat(raw, "oya")
        if self.oya != kyoku - 1:
            raise ValueError(
                f"oya {self.oya} is not the dealer of kyoku {kyoku} (seat {kyoku - 1}): in a "
                "four-player game seat 0 deals first"
            )
        self.round = WINDS.index(wind) * SEATS + kyoku - 1
        self.honba = _count(raw, "honba", 0, 10**6)
        self.kyotaku = _count(raw, "kyotaku", 0, 10**6)
        scores = raw["scores"]
        if (
            not isinstance(scores, list)
            or len(scores) != SEATS
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)
        ):
            raise ValueError(f"scores must be four whole numbers, got {json.dumps(scores)}")
        self.scores = tuple(scores)
        self.ids = _Ids(red)
        self.red = red
        tehais = raw["tehais"]
        if not isinstance(tehais, list) or len(tehais) != SEATS:
            raise ValueError("tehais must list four hands")
        self.held: list[list[int]] = []
        for s, tiles in enumerate(tehais):
            if not isinstance(tiles, list) or len(tiles) != 13:
                raise ValueError(f"tehais[{s}] must hold 13 tiles")
            self.held.append([self._new(t) for t in tiles])
        self.dealt = tuple(tuple(h) for h in self.held)
        self.indicator = self._new(raw["dora_marker"])
        self.steps: list[Step] = []
        self.kan_indicators: list[int] = []
        self.results: list[Result] = []
        self.ura: tuple[int, ...] = ()
        self.melds: list[list[TenhouMeld]] = [[] for _ in range(SEATS)]
        # What may come next: ("draw", seat) after a discard settles, ("turn", seat) when a seat
        # holds 14 and acts, ("discard", seat) after a call or a reach, ("claim", discarder) just
        # after a discard, ("robbed", seat) after an added kong, ("end",) after a result.
        self.state: tuple[Any, ...] = ("turn_start", self.oya)
        self.reaching: int | None = None
        self.last_discard: int | None = None
        self.last_draw: dict[int, int] = {}

    def _new(self, name: object) -> int:
        return self.ids.new(tenhou_code(tile_of_mjai(name)))

    def _pick(self, seat: int, name: object) -> int:
        tile = tile_of_mjai(name)
        for t in sorted(self.held[seat]):
            if t // 4 == tile.kind and (self.red and t in RED_FIVE_IDS) == tile.red:
                self.held[seat].remove(t)
                return t
        raise ValueError(f"seat {seat} does not hold {json.dumps(name)}")

    def _expect(self, kind: str, seat: int | None, allowed: str) -> NoReturn:
        raise ValueError(
            f"{kind}{'' if seat is None else f' by seat {seat}'} out of order: {allowed}"
        )

    def event(self, kind: str, raw: dict[str, Any]) -> None:
        st = self.state
        if st[0] == "end" and kind not in ("hora",):
            self._expect(kind, None, "the hand has ended; end_kyoku must follow")
        if kind == "tsumo":
            seat = _seat(raw, "actor")
            if st[0] == "claim" and seat == (st[1] + 1) % SEATS:
                pass  # nobody called: the next seat draws
            elif st[0] in ("turn_start", "rinshan", "robbed") and st[1] == seat:
                pass  # the dealer's first draw, a kong's replacement
            else:
                self._expect(kind, seat, f"the table is at {self._where()}")
            self._accept_reach()
            tile = self._new(raw["pai"])
            self.held[seat].append(tile)
            self.last_draw[seat] = tile
            self.steps.append(Draw(seat, tile))
            self.state = ("turn", seat)
        elif kind == "reach":
            seat = _seat(raw, "actor")
            if st != ("turn", seat):
                self._expect(kind, seat, f"riichi is declared on one's own turn ({self._where()})")
            self.steps.append(RiichiStep(seat, 1))
            self.reaching = seat
            self.state = ("discard", seat)
        elif kind == "dahai":
            seat = _seat(raw, "actor")
            if st not in (("turn", seat), ("discard", seat)):
                self._expect(kind, seat, f"the table is at {self._where()}")
            if not isinstance(raw["tsumogiri"], bool):
                raise ValueError("tsumogiri must be true or false")
            if raw["tsumogiri"]:
                drawn = self.last_draw.get(seat)
                if drawn is None or drawn not in self.held[seat]:
                    raise ValueError(f"tsumogiri, but seat {seat} has no tile just drawn")
                if tile_of_mjai(raw["pai"]) != _tile(drawn, self.red):
                    raise ValueError(
                        f"tsumogiri of {raw['pai']}, but seat {seat} drew {_name(drawn, self.red)}"
                    )
                self.held[seat].remove(drawn)
                tile = drawn
            else:
                tile = self._pick(seat, raw["pai"])
            self.last_draw.pop(seat, None)
            self.steps.append(Discard(seat, tile))
            self.last_discard = tile
            self.state = ("claim", seat)
        elif kind == "reach_accepted":
            seat = _seat(raw, "actor")
            if self.reaching != seat or st[0] != "claim":
                self._expect(kind, seat, "it follows that seat's reach and its discard")
            self._accept_reach()
        elif kind in ("chi", "pon", "daiminkan"):
            self._claim(kind, raw)
        elif kind in ("ankan", "kakan"):
            self._kong(kind, raw)
        elif kind == "dora":
            tile = self._new(raw["dora_marker"])
            self.kan_indicators.append(tile)
            self.steps.append(DoraRevealed(tile))
        elif kind == "hora":
            self._hora(raw)
        elif kind == "ryukyoku":
            if st[0] == "end":
                self._expect(kind, None, "the hand has already ended")
            which = self._draw_kind()
            if which != "ron3":
                self._accept_reach()
            self.results.append(Drawn(kind=which, deltas=_deltas(raw)))
            self.state = ("end",)
        else:
            raise ValueError(f"{kind} cannot stand inside a hand")

    def _draw_kind(self) -> str:
        """Which draw a ``ryukyoku`` is, as far as the log shows (mjai names none): nine terminals
        is declared on one's own first draw; after a discard (or an added kan) with live tiles
        left and no four riichi, four winds or four kans, only a triple ron ends the hand, whose
        three ron declarations the table needs; any other draw is the table's own (exhaustion,
        the abortive draws it declares itself) and is left to it (``unstated``). The table then
        checks whichever it is."""
        st = self.state
        if st[0] == "turn" and self.steps and isinstance(self.steps[-1], Draw):
            return "yao9"
        if st[0] not in ("claim", "robbed"):
            return "unstated"
        draws = sum(1 for s in self.steps if isinstance(s, Draw))
        accepted = sum(1 for s in self.steps if isinstance(s, RiichiStep) and s.step == 2)
        kans = sum(
            1
            for s in self.steps
            if isinstance(s, Call)
            and s.meld.kind in (MeldKind.MINKAN, MeldKind.ANKAN, MeldKind.KAKAN)
        )
        discards = [s for s in self.steps if isinstance(s, Discard)]
        calls = any(isinstance(s, Call) for s in self.steps)
        winds = (
            len(discards) == SEATS
            and not calls
            and len({d.tile // 4 for d in discards}) == 1
            and 27 <= discards[0].tile // 4 <= 30
        )
        # The live wall: 136 - 14 (dead wall) - 52 (the deal) tiles, replacements included.
        if draws >= 136 - 14 - 52 or accepted + (self.reaching is not None) >= SEATS or winds:
            return "unstated"
        return "unstated" if kans >= 4 else "ron3"

    def _where(self) -> str:
        st = self.state
        return {
            "turn_start": "the dealer's first draw",
            "turn": f"seat {st[1] if len(st) > 1 else '?'}'s turn",
            "discard": f"seat {st[1] if len(st) > 1 else '?'}'s discard",
            "claim": f"seat {st[1] if len(st) > 1 else '?'}'s discard, waiting for a call or draw",
            "rinshan": f"seat {st[1] if len(st) > 1 else '?'}'s replacement draw",
            "robbed": f"seat {st[1] if len(st) > 1 else '?'}'s added kong",
            "end": "the hand's end",
        }[st[0]]

    def _accept_reach(self) -> None:
        if self.reaching is not None and self.state[0] == "claim":
            self.steps.append(RiichiStep(self.reaching, 2))
            self.reaching = None

    def _consumed(self, raw: dict[str, Any], kind: str) -> list[object]:
        value = raw["consumed"]
        if not isinstance(value, list) or len(value) != _CONSUMED[kind]:
            raise ValueError(f"a {kind} consumes {_CONSUMED[kind]} tiles, got {json.dumps(value)}")
        return value

    def _claim(self, kind: str, raw: dict[str, Any]) -> None:
        seat = _seat(raw, "actor")
        target = _seat(raw, "target")
        st = self.state
        if st[0] != "claim" or st[1] != target or seat == target:
            self._expect(kind, seat, f"a call takes the discard just made ({self._where()})")
        if kind == "chi" and seat != (target + 1) % SEATS:
            raise ValueError(f"seat {seat} cannot chi from seat {target}: only from the left")
        assert self.last_discard is not None
        if tile_of_mjai(raw["pai"]) != _tile(self.last_discard, self.red):
            made = _name(self.last_discard, self.red)
            raise ValueError(f"pai {raw['pai']} is not the discard just made ({made})")
        self._accept_reach()
        self.last_draw.pop(seat, None)
        own = [self._pick(seat, t) for t in self._consumed(raw, kind)]
        mk = {"chi": MeldKind.CHI, "pon": MeldKind.PON, "daiminkan": MeldKind.MINKAN}[kind]
        meld = TenhouMeld(
            mk, seat, target, tuple(sorted(own + [self.last_discard])), self.last_discard
        )
        self.melds[seat].append(meld)
        self.steps.append(Call(meld))
        self.state = ("rinshan", seat) if kind == "daiminkan" else ("discard", seat)

    def _kong(self, kind: str, raw: dict[str, Any]) -> None:
        seat = _seat(raw, "actor")
        if self.state != ("turn", seat):
            self._expect(
                kind, seat, f"a kong from the hand is made on one's own turn ({self._where()})"
            )
        consumed = self._consumed(raw, kind)
        if kind == "ankan":
            four = tuple(sorted(self._pick(seat, t) for t in consumed))
            if len({t // 4 for t in four}) != 1:
                raise ValueError("an ankan consumes four tiles of one kind")
            meld = TenhouMeld(MeldKind.ANKAN, seat, seat, four, None)
            self.state = ("rinshan", seat)
        else:
            added = self._pick(seat, raw["pai"])
            pon = next(
                (
                    m
                    for m in self.melds[seat]
                    if m.kind is MeldKind.PON and m.tiles[0] // 4 == added // 4
                ),
                None,
            )
            if pon is None:
                raise ValueError(f"seat {seat} has no pon of {raw['pai']} to add to")
            if sorted(_name(t, self.red) for t in pon.tiles) != sorted(
                mjai_tile(tile_of_mjai(c)) for c in consumed
            ):
                raise ValueError(f"consumed {json.dumps(consumed)} is not the pon's tiles")
            meld = TenhouMeld(
                MeldKind.KAKAN, seat, seat, tuple(sorted(pon.tiles + (added,))), pon.called, added
            )
            self.state = ("robbed", seat)
        self.last_draw.pop(seat, None)
        self.melds[seat].append(meld)
        self.steps.append(Call(meld))

    def _hora(self, raw: dict[str, Any]) -> None:
        seat = _seat(raw, "actor")
        target = _seat(raw, "target")
        st = self.state
        ura_raw = raw.get("ura_markers", raw.get("uradora_markers"))
        if seat == target:
            if st != ("turn", seat):
                self._expect(
                    "hora", seat, f"a self-draw win comes on one's own turn ({self._where()})"
                )
            tile = self.last_draw.get(seat)
        elif st[0] in ("claim", "robbed") or (
            st[0] == "end" and self.results and isinstance(self.results[-1], Win)
        ):
            if st[0] == "end":
                prev = self.results[-1]
                assert isinstance(prev, Win)
                if prev.source != target or prev.tsumo:
                    self._expect("hora", seat, "a second win takes the same discard")
            elif st[1] != target:
                self._expect(
                    "hora", seat, f"target {target} made no discard just now ({self._where()})"
                )
            tile = self._win_tile(target)
        else:
            self._expect("hora", seat, f"the table is at {self._where()}")
        if "pai" in raw and tile is not None and tile_of_mjai(raw["pai"]) != _tile(tile, self.red):
            raise ValueError(f"pai {raw['pai']} is not the winning tile ({_name(tile, self.red)})")
        if ura_raw and not self.ura:
            if not isinstance(ura_raw, list):
                raise ValueError("ura_markers must be a list of tiles")
            self.ura = tuple(self._new(t) for t in ura_raw)
        self.results.append(
            Win(
                seat=seat,
                source=target,
                win_tile=tile,
                fu=None,
                han=0,
                points=0,
                limit=0,
                yaku=(),
                yakuman=(),
                deltas=_deltas(raw),
                scored=False,
            )
        )
        self.state = ("end",)

    def _win_tile(self, target: int) -> int | None:
        for st in reversed(self.steps):
            if isinstance(st, Discard):
                return st.tile
            if isinstance(st, Call) and st.meld.kind is MeldKind.KAKAN:
                return st.meld.added
        return None

    def hand(self) -> TenhouHand:
        if self.state[0] != "end":
            raise ValueError("the hand ends with neither hora nor ryukyoku")
        return TenhouHand(
            index=self.index,
            round=self.round,
            honba=self.honba,
            deposits=self.kyotaku,
            dice=(0, 0),
            dealer=self.oya,
            scores=self.scores,
            dealt=self.dealt,
            dora_indicator=self.indicator,
            steps=tuple(self.steps),
            results=tuple(self.results),
            ura_indicators=self.ura,
            kan_indicators=tuple(self.kan_indicators),
        )


def _tile(tile_id: int, red: bool) -> Tile:
    return Tile(tile_id // 4, red and tile_id in RED_FIVE_IDS)


def _name(tile_id: int, red: bool) -> str:
    return mjai_tile(_tile(tile_id, red))


def read_mjai(text: str, source: str = "<mjai>") -> tuple[TenhouGame, list[int]]:
    """Read an mjai log (module docstring) into the hands of a game, and the line each hand starts
    on. Raises :class:`MjaiFormatError` naming the line and why: a line that is not one JSON
    object, an unknown event type, a missing or malformed field, an impossible tile (a name that
    is no tile, a fifth copy, a tile the seat does not hold), or an event out of order."""
    red = True
    south = True
    names: tuple[str, ...] = ("",) * SEATS
    started = ended = False
    kyoku: _Kyoku | None = None
    hands: list[TenhouHand] = []
    lines: list[int] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            raw = loads(line, "event")
        except JsonInputError as e:
            # safejson names its source first ("event:1: not JSON: ..."); the line is named here.
            why = str(e).split(": ", 1)[-1]
            raise MjaiFormatError(source, why, n) from None
        try:
            if not isinstance(raw, dict):
                raise ValueError("an mjai event is a JSON object")
            kind = raw.get("type")
            if kind not in _FIELDS:
                raise ValueError(f"unknown event type {json.dumps(kind)}")
            missing = [f for f in _FIELDS[kind] if f not in raw]
            if missing:
                raise ValueError(f"{kind} lacks {', '.join(missing)}")
            if ended:
                raise ValueError(f"{kind} after end_game")
            if kind == "none":
                continue
            if kind == "start_game":
                if started:
                    raise ValueError("a second start_game")
                started = True
                aka = raw.get("aka_flag", True)
                first = raw.get("kyoku_first", 0)
                if not isinstance(aka, bool) or first not in (0, 4):
                    raise ValueError("aka_flag must be true or false and kyoku_first 0 or 4")
                red, south = aka, first == 0
                got = raw.get("names", names)
                if isinstance(got, list) and len(got) == SEATS:
                    names = tuple(str(x) for x in got)
                continue
            if not started:
                raise ValueError(f"{kind} before start_game")
            if kind == "start_kyoku":
                if kyoku is not None:
                    raise ValueError("start_kyoku inside a hand (end_kyoku missing)")
                kyoku = _Kyoku(raw, len(hands), red, n)
                lines.append(n)
            elif kind == "end_kyoku":
                if kyoku is None:
                    raise ValueError("end_kyoku outside a hand")
                hands.append(kyoku.hand())
                kyoku = None
            elif kind == "end_game":
                if kyoku is not None:
                    raise ValueError("end_game inside a hand (end_kyoku missing)")
                ended = True
            else:
                if kyoku is None:
                    raise ValueError(f"{kind} outside a hand (start_kyoku missing)")
                kyoku.event(kind, raw)
        except (ValueError, KeyError, TypeError) as e:
            why = f"the field {e} is missing" if isinstance(e, KeyError) else str(e)
            raise MjaiFormatError(source, why, n) from None
    if kyoku is not None:
        raise MjaiFormatError(source, "the log ends inside a hand (end_kyoku missing)")
    if not hands:
        raise MjaiFormatError(source, "no hand (start_kyoku ... end_kyoku) in the log")
    rules = GameRules(
        type_bits=None,
        red_fives=red,
        # mjai states no rule flags beyond these: the profile it is played under decides.
        open_tanyao=True,
        south_round=south,
        three_player=False,
        custom=False,
    )
    game = TenhouGame(
        source=source, format="mjai", rules=rules, players=names, hands=tuple(hands), final=None
    )
    return game, lines


def load_mjai(path: Path) -> tuple[TenhouGame, list[int]]:
    """Read an mjai log file (UTF-8 JSON lines): :func:`read_mjai`."""
    try:
        if path.stat().st_size > MAX_LOG_BYTES:
            raise MjaiFormatError(str(path), f"larger than {MAX_LOG_BYTES} bytes: not an mjai log")
        text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise MjaiFormatError(str(path), f"cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise MjaiFormatError(str(path), f"not UTF-8 text (byte {e.start})") from None
    return read_mjai(text, str(path))
