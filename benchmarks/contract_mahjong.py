"""The `mahjong` package (2.1) answering riichi requests through the scoring contract.

Run ``python benchmarks/contract_mahjong.py < corpus.jsonl > answers.jsonl``:
the same requests as ``mjspec score --jsonl`` (contracts/scoring.md), read and
written with the same JSON handling (benchmarks/contract_io.py), each scored
by ``HandCalculator.estimate_hand_value`` configured as rule book 001 plays
(the options of tests/riichikit.py ``rules_of_001``, restated here so that
this process imports no mjspec code; tests/test_bench_adapters.py holds the
two equal).

The tiles are read by the package's own parser
(``TilesConverter.one_line_string_to_136_array`` with red fives), piece by
piece (the concealed tiles, each meld, the winning tile, the indicators); each
tile then takes the next free copy of its kind, the red five keeping copy 0,
so that no two tiles of the request share a 136-id.

Answer fields: ``legal``; ``reason`` (the package's error, e.g. ``no_yaku``);
``patterns``, one per yaku as the package names it (``id`` and ``name`` both
``Yaku.name``, ``value`` its han, open or closed, ``count`` 1: the package
reports dora as one yaku worth their number); ``total`` (han; 13 per
yakuman); ``fu`` (None for a yakuman); ``payments`` as the contract's roles,
honba included, riichi sticks not. A request the package cannot take answers
``{"error": ...}`` and the batch goes on.
"""

from __future__ import annotations

import sys
from typing import Any

from contract_io import serve
from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld
from mahjong.tile import TilesConverter

WINDS = ("E", "S", "W", "N")
RED_FIVES = (16, 52, 88)  # the package's 0m, 0p, 0s
MELD_TYPES = {
    "chi": Meld.CHI,
    "pon": Meld.PON,
    "minkan": Meld.KAN,
    "ankan": Meld.KAN,
    "kakan": Meld.SHOUMINKAN,
}

#: Rule book 001's options, as tests/riichikit.py ``rules_of_001`` sets them.
RULES_OF_001 = OptionalRules(
    has_open_tanyao=True,
    has_aka_dora=True,
    has_double_yakuman=True,
    kazoe_limit=HandConstants.KAZOE_LIMITED,
    kiriage=False,
    fu_for_open_pinfu=True,
    fu_for_pinfu_tsumo=False,
    renhou_as_yakuman=False,
    has_daisharin=False,
    has_daichisei=False,
    has_sashikomi_yakuman=False,
    paarenchan_needs_yaku=True,
    limit_to_sextuple_yakuman=False,
)


class TooManyCopies(ValueError):
    """The request holds a fifth copy of a kind (or a second red five)."""


class Copies:
    """136-ids for one request: each kind's copies handed out in turn, a red five always copy 0."""

    def __init__(self) -> None:
        self.next = [0] * 34
        for red in RED_FIVES:
            self.next[red // 4] = 1
        self.reds: set[int] = set()

    def ids(self, mpsz: str) -> list[int]:
        out = []
        for parsed in TilesConverter.one_line_string_to_136_array(mpsz, has_aka_dora=True):
            if parsed in RED_FIVES:
                if parsed in self.reds:
                    raise TooManyCopies(f"a second red five in {mpsz!r}")
                self.reds.add(parsed)
                out.append(parsed)
                continue
            kind = parsed // 4
            if self.next[kind] > 3:
                raise TooManyCopies(f"a fifth copy of a tile in {mpsz!r}")
            out.append(4 * kind + self.next[kind])
            self.next[kind] += 1
        return out


def answer(raw: Any) -> dict[str, Any]:
    """The contract answer of one request; never raises for bad input."""
    if not isinstance(raw, dict):
        return {"error": "a request must be a JSON object"}
    try:
        return _answer(raw)
    except (KeyError, ValueError, TypeError, IndexError) as e:
        return {"error": f"{type(e).__name__}: {e}"}


def prepare(raw: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``HandCalculator.estimate_hand_value`` for one request."""
    ctx = raw.get("context") or {}
    copies = Copies()
    tiles: list[int] = []
    melds = []
    for m in raw.get("melds", ()):
        ids = copies.ids(m["tiles"])
        tiles += ids
        melds.append(Meld(meld_type=MELD_TYPES[m["type"]], tiles=ids, opened=m["type"] != "ankan"))
    tiles += copies.ids(raw["concealed"])
    (win_tile,) = copies.ids(raw["win_tile"])
    tiles.append(win_tile)
    dora = copies.ids(ctx.get("dora_indicators", ""))
    ura = copies.ids(ctx.get("ura_indicators", ""))
    tsumo = raw["win"] == "tsumo"
    seat = WINDS.index(ctx.get("seat_wind", "E"))
    first = bool(ctx.get("first_draw"))
    last = bool(ctx.get("last_tile"))
    config = HandConfig(
        is_tsumo=tsumo,
        is_riichi=bool(ctx.get("riichi")),
        is_daburu_riichi=bool(ctx.get("double_riichi")),
        is_ippatsu=bool(ctx.get("ippatsu")),
        is_rinshan=bool(ctx.get("after_kong")),
        is_chankan=bool(ctx.get("robbing_kong")),
        is_haitei=last and tsumo,
        is_houtei=last and not tsumo,
        is_tenhou=first and seat == 0,
        is_chiihou=first and seat != 0,
        player_wind=EAST + seat,
        round_wind=EAST + WINDS.index(ctx.get("round_wind", "E")),
        tsumi_number=int(ctx.get("honba", 0)),
        kyoutaku_number=int(ctx.get("riichi_sticks", 0)),
        options=RULES_OF_001,
    )
    return {
        "tiles": tiles,
        "win_tile": win_tile,
        "melds": melds,
        "dora_indicators": dora,
        "ura_dora_indicators": ura,
        "config": config,
    }


def _answer(raw: dict[str, Any]) -> dict[str, Any]:
    result = HandCalculator.estimate_hand_value(**prepare(raw))
    if result.error is not None:
        return {
            "legal": False,
            "reason": result.error,
            "patterns": [],
            "total": 0,
            "fu": None,
            "payments": {},
        }
    patterns = []
    yakuman = False
    for y in result.yaku or ():
        han = y.han_open if result.is_open_hand and y.han_open else y.han_closed
        yakuman = yakuman or y.is_yakuman
        patterns.append({"id": y.name, "name": y.name, "value": han, "count": 1})
    cost = result.cost
    if cost is None:
        return {"error": "the package answered no cost and no error"}
    ctx = raw.get("context") or {}
    tsumo = raw["win"] == "tsumo"
    dealer = ctx.get("dealer", ctx.get("seat_wind", "E") == "E")
    if not tsumo:
        payments = {"discarder": cost["main"] + cost["main_bonus"]}
    elif dealer:
        payments = {"non_dealer": cost["main"] + cost["main_bonus"]}
    else:
        payments = {
            "dealer": cost["main"] + cost["main_bonus"],
            "non_dealer": cost["additional"] + cost["additional_bonus"],
        }
    return {
        "legal": True,
        "patterns": patterns,
        "total": result.han,
        "fu": None if yakuman else result.fu,
        "payments": payments,
    }


if __name__ == "__main__":
    sys.exit(serve(answer))
