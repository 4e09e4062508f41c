"""Riichi records written as tenhou.net/6 JSON: what the tenhou.net/6 viewer and mjai-reviewer
read, and what ``mjspec import-tenhou`` reads back (:mod:`mjspec.app.tenhou`).

The format is the one :func:`mjspec.app.tenhou.parse_tenhou6` reads, with the same codes: one
document ``{"title", "name", "rule": {"disp", "aka"}, "log": [hand, ...]}``; each hand a list of
17 entries: ``[kyoku, honba, sticks]`` (kyoku 0-3 East 1-4, 4-7 South 1-4), the points, the
indicators, the under-indicators (shown after a riichi win), then per seat its 13 dealt tiles,
its takes (draws, and calls: ``c`` chi, ``p`` pon, ``m`` open kan, the letter's place saying
whose discard it was) and its discards (``60`` the tile just drawn, ``r`` riichi, ``a`` and
``k`` the concealed and added kans, ``0`` the slot an open kan uses up), and the result
(``和了`` with each win's score changes and ``[who, from, liable, value, yaku...]``, or a draw's
name and score changes). Tile codes: 11-19 man, 21-29 pin, 31-39 sou, 41-47 E S W N and the
white, green and red dragons, 51-53 the red fives. The yaku are Tenhou's names through
:data:`mjspec.app.tenhou.YAKU`, so an export imports back to the same decisions, yaku, han, fu
and score changes (``tests/test_export.py``).
"""

from __future__ import annotations

import json
from typing import Any

from mjspec.app.played import (
    Accepted,
    Called,
    Declared,
    Discarded,
    Drew,
    Ended,
    ExportError,
    Indicator,
    PlayedHand,
    PlayedMatch,
    Won,
)
from mjspec.app.tenhou import YAKU
from mjspec.runtime.hand import MeldType
from mjspec.runtime.table import SEATS
from mjspec.runtime.tiles import Tile

__all__ = ["tenhou_code", "tenhou6_document", "dumps"]

WINDS = ("E", "S", "W", "N")
_WIND_NAMES = ("東", "南", "西", "北")
# Tenhou's yaku id of each pattern; the wind patterns by the wind (10-13 seat, 14-17 round).
_PATTERN_YAKU: dict[str, int] = {
    pattern: i
    for i, (_, pattern) in sorted(YAKU.items(), reverse=True)
    if pattern is not None and pattern not in ("seat_wind", "round_wind")
}
_DRAWS = {
    "nine_terminals": "九種九牌",
    "four_riichi": "四家立直",
    "four_winds": "四風連打",
    "four_kongs": "四槓散了",
    "triple_ron": "三家和了",
}
_LIMIT_NAMES = ((13, "数え役満"), (11, "三倍満"), (8, "倍満"), (6, "跳満"), (5, "満貫"))
#: A hand's basic points (the payment a non-dealer's ron is four times) at a mangan.
MANGAN_BASIC = 2000


def tenhou_code(tile: Tile) -> int:
    """A tile's tenhou.net/6 code (module docstring)."""
    if tile.red:
        return 51 + tile.kind // 9
    if tile.kind < 27:
        return (tile.kind // 9 + 1) * 10 + tile.kind % 9 + 1
    return 41 + tile.kind - 27


def _codes(tiles: tuple[Tile, ...]) -> list[str]:
    """Codes in Tenhou's tile-id order: by kind, a red five before the plain ones (id 16 is the
    first 5m)."""
    return [f"{tenhou_code(t):02d}" for t in sorted(tiles, key=lambda t: (t.kind, not t.red))]


def _relative(caller: int, source: int) -> int:
    """Where the discarder sits from the caller: 1 right (shimocha), 2 across, 3 left."""
    return (source - caller) % SEATS


def _call(st: Called) -> str:
    """A call as tenhou.net/6 writes it: the letter stands before the claimed tile (for an added
    kan the added one), at the place of the seat the claimed tile came from: first for the left,
    after one own tile for across, last for the right (before the last own tile of an added kan);
    ``mjspec.app.tenhou._CALL_SOURCE`` reads these places."""
    own = _codes(st.consumed)
    if st.kind is MeldType.ANKAN:
        return "".join(own[:3]) + "a" + own[3]
    assert st.called is not None and st.source is not None
    called = f"{tenhou_code(st.called):02d}"
    if st.kind is MeldType.CHI:
        return "c" + called + "".join(own)
    letter = {MeldType.PON: "p", MeldType.MINKAN: "m", MeldType.KAKAN: "k"}[st.kind]
    rel = _relative(st.seat, st.source)
    at = {3: 0, 2: 1, 1: 3 if st.kind is MeldType.MINKAN else 2}[rel]
    return "".join(own[:at]) + letter + called + "".join(own[at:])


def _value(won: Won, dealer: int) -> str:
    """``30符2飜2000点``, ``満貫8000点``, ``300-500点`` (a non-dealer's self-draw: what each
    non-dealer and the dealer pay), ``500点∀`` (the dealer's: each pays)."""
    score = won.score
    pay = won.base or score.payments
    tsumo = won.source == won.seat
    if not tsumo:
        points = f"{pay['discarder']}"
        basic = pay["discarder"] / (6 if won.seat == dealer else 4)
    elif won.seat == dealer:
        points = f"{pay['non_dealer']}点∀"
        basic = pay["non_dealer"] / 2
    else:
        points = f"{pay['non_dealer']}-{pay['dealer']}"
        basic = pay["dealer"] / 2
    if not points.endswith("∀"):
        points += "点"
    if score.limit:
        return "役満" + points
    for han, name in _LIMIT_NAMES:
        if score.total >= han:
            return name + points
    if basic >= MANGAN_BASIC:
        return "満貫" + points
    return f"{score.fu}符{score.total}飜" + points


def _yaku(won: Won, hand: PlayedHand) -> list[str]:
    out: list[str] = []
    for p in won.score.patterns:
        if not p.points:
            continue
        if p.id == "seat_wind":
            wind = (won.seat - hand.dealer) % SEATS
            yaku = 10 + wind
        elif p.id == "round_wind":
            yaku = 14 + WINDS.index(hand.round_wind)
        elif p.id in _PATTERN_YAKU:
            yaku = _PATTERN_YAKU[p.id]
        else:
            raise ExportError(
                f"hand {hand.index}: the pattern {p.id!r} has no Tenhou yaku, so tenhou.net/6 "
                "cannot name it"
            )
        name = YAKU[yaku][0]
        out.append(f"{name}(役満)" if won.score.limit else f"{name}({p.points}飜)")
    return out


def _hand(hand: PlayedHand) -> list[Any]:
    takes: list[list[Any]] = [[] for _ in range(SEATS)]
    discards: list[list[Any]] = [[] for _ in range(SEATS)]
    declaring: set[int] = set()
    result: list[Any] = []
    wins = [s for s in hand.steps if isinstance(s, Won)]
    for st in hand.steps:
        if isinstance(st, Drew):
            takes[st.seat].append(tenhou_code(st.tile))
        elif isinstance(st, Declared):
            declaring.add(st.seat)
        elif isinstance(st, Discarded):
            code: Any = 60 if st.tsumogiri else tenhou_code(st.tile)
            if st.seat in declaring:
                declaring.discard(st.seat)
                code = f"r{code}"
            discards[st.seat].append(code)
        elif isinstance(st, Called):
            if st.kind in (MeldType.ANKAN, MeldType.KAKAN):
                discards[st.seat].append(_call(st))
            else:
                takes[st.seat].append(_call(st))
                if st.kind is MeldType.MINKAN:
                    discards[st.seat].append(0)  # the open kan's discard slot
        elif isinstance(st, Ended):
            if st.kind == "exhaustion":
                name = "流し満貫" if st.nagashi else _exhaustion_name(st)
                result = [name, list(st.deltas)] if any(st.deltas) else [name]
            else:
                result = [_DRAWS[st.kind]]
                if any(st.deltas):
                    result.append(list(st.deltas))
        elif isinstance(st, (Accepted, Indicator, Won)):
            pass  # the deposits are in the points; indicators listed below; wins at the end
    if wins:
        result = ["和了"]
        for w in wins:
            liable = w.liable if w.liable is not None else w.seat
            result.append(list(w.deltas))
            result.append([w.seat, w.source, liable, _value(w, hand.dealer), *_yaku(w, hand)])
    if not result:
        raise ExportError(f"hand {hand.index} has no result")
    out: list[Any] = [
        [WINDS.index(hand.round_wind) * SEATS + hand.dealer, hand.honba, hand.deposits],
        list(hand.points),
        [tenhou_code(t) for t in hand.indicators],
        [tenhou_code(t) for t in hand.ura],
    ]
    for s in range(SEATS):
        out.extend([[tenhou_code(t) for t in hand.dealt[s]], takes[s], discards[s]])
    out.append(result)
    return out


def _exhaustion_name(st: Ended) -> str:
    if len(st.ready) == SEATS:
        return "全員聴牌"
    if not st.ready:
        return "全員不聴"
    return "流局"


def tenhou6_document(played: PlayedMatch) -> dict[str, Any]:
    """The tenhou.net/6 document of a played riichi match (module docstring)."""
    profile = played.profile
    tanyao = next((p for p in profile.patterns if p.id == "tanyao"), None)
    open_tanyao = tanyao is not None and tanyao.open_value != 0
    south = profile.table.match.rounds != 1
    disp = (
        "般"
        + ("南" if south else "東")
        + ("喰" if open_tanyao else "")
        + ("赤" if profile.tiles.red_fives else "")
    )
    record = played.record
    seed = record.get("seed")
    return {
        "title": ["mjspec", f"{profile.id}" + (f" seed {seed}" if seed is not None else "")],
        "name": [f"seat {s}" for s in range(SEATS)],
        "rule": {"disp": disp, "aka": 1 if profile.tiles.red_fives else 0},
        "log": [_hand(h) for h in played.hands],
    }


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"
