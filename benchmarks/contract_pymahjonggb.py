"""PyMahjongGB (1.4) answering GB requests through the scoring contract.

Run ``python benchmarks/contract_pymahjonggb.py < corpus.jsonl > answers.jsonl``:
the same requests as ``mjspec score --jsonl`` (contracts/scoring.md), read and
written with the same JSON handling (benchmarks/contract_io.py), each scored
by ``MahjongGB.MahjongFanCalculator`` (``verbose=True``). This process
imports no mjspec code.

The request is converted as tests/gbkit.py ``calculator_request`` converts a
parsed hand, here straight from the mpsz text into the calculator's own tile
names (``W1``-``W9`` characters, ``B`` dots, ``T`` bamboo, ``F1``-``F4`` the
winds, ``J1`` red, ``J2`` green, ``J3`` white): a chow is ``("CHI", its
middle tile, 1)``, a pung ``("PENG", tile, 1)``, a kong ``("GANG", tile, 0)``
when concealed and ``1`` otherwise; the flower count is the number of tiles
in ``context.flowers``; "about kong" is ``after_kong`` on a self-draw and
``robbing_kong`` on a discard.

Answer fields: ``patterns`` one per fan as the calculator names it (``id``
the Chinese name, ``name`` the English one, ``value`` its points, ``count``);
``total`` the sum, flowers included; ``legal`` when the total without
flowers reaches 8 (a hand that is no win answers ``legal: false`` with the
calculator's ``ERROR_NOT_WIN``); ``fu`` None; ``payments`` on a legal win
``{"discarder": total + 8, "others": 8}`` for a discard and ``{"each":
total + 8}`` for a self-draw. The calculator's own fan for one melded and
one concealed kong (5) is kept as it is: tests/test_gb_differential.py
explains the 1-fan difference.
"""

from __future__ import annotations

import sys
from typing import Any

from contract_io import serve
from MahjongGB import MahjongFanCalculator

WINDS = ("E", "S", "W", "N")
SUITS = {"m": "W", "p": "B", "s": "T"}
HONORS = ("F1", "F2", "F3", "F4", "J3", "J2", "J1")  # East South West North, White Green Red
FLOWER_FAN = "花牌"


def tile_names(mpsz: str) -> list[str]:
    """The calculator's names of the tiles of an mpsz text (runs compress; spaces ignored)."""
    out: list[str] = []
    digits: list[str] = []
    for ch in mpsz:
        if ch.isdigit():
            digits.append(ch)
        elif ch in SUITS:
            out += [SUITS[ch] + ("5" if d == "0" else d) for d in digits]  # 0: a red five
            digits = []
        elif ch == "z":
            out += [HONORS[int(d) - 1] for d in digits]
            digits = []
        elif ch == "f":
            out += ["flower"] * len(digits)
            digits = []
        elif not ch.isspace():
            raise ValueError(f"not mpsz: {mpsz!r}")
    if digits:
        raise ValueError(f"digits without a suit in {mpsz!r}")
    return out


def pack(meld: dict[str, Any]) -> tuple[str, str, int]:
    tiles = tile_names(meld["tiles"])
    kind = meld["type"]
    if kind == "chi":
        return ("CHI", sorted(tiles)[1], 1)
    if kind == "pon":
        return ("PENG", tiles[0], 1)
    return ("GANG", tiles[0], 0 if kind == "ankan" else 1)


def answer(raw: Any) -> dict[str, Any]:
    """The contract answer of one request; never raises for bad input."""
    if not isinstance(raw, dict):
        return {"error": "a request must be a JSON object"}
    try:
        return _answer(raw)
    except (KeyError, ValueError, IndexError) as e:
        return {"error": f"{type(e).__name__}: {e}"}


def prepare(raw: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``MahjongFanCalculator`` for one request (``verbose`` left out)."""
    ctx = raw.get("context") or {}
    tsumo = raw["win"] == "tsumo"
    (win_tile,) = tile_names(raw["win_tile"])
    return {
        "pack": tuple(pack(m) for m in raw.get("melds", ())),
        "hand": tuple(tile_names(raw["concealed"])),
        "winTile": win_tile,
        "flowerCount": len(tile_names(ctx.get("flowers", ""))),
        "isSelfDrawn": tsumo,
        "is4thTile": bool(ctx.get("fourth_tile")),
        "isAboutKong": bool(ctx.get("after_kong") if tsumo else ctx.get("robbing_kong")),
        "isWallLast": bool(ctx.get("last_tile")),
        "seatWind": WINDS.index(ctx.get("seat_wind", "E")),
        "prevalentWind": WINDS.index(ctx.get("round_wind", "E")),
    }


def _answer(raw: dict[str, Any]) -> dict[str, Any]:
    kwargs = prepare(raw)
    tsumo = kwargs["isSelfDrawn"]
    try:
        fans = MahjongFanCalculator(**kwargs, verbose=True)
    except TypeError as e:
        if "ERROR_NOT_WIN" in str(e):
            return {
                "legal": False,
                "reason": "ERROR_NOT_WIN",
                "patterns": [],
                "total": 0,
                "fu": None,
                "payments": {},
            }
        return {"error": str(e)}
    patterns = [{"id": zh, "name": en, "value": v, "count": n} for v, n, zh, en in fans]
    total = sum(v * n for v, n, _, _ in fans)
    flowers = sum(v * n for v, n, zh, _ in fans if zh == FLOWER_FAN)
    legal = total - flowers >= 8
    out: dict[str, Any] = {"legal": legal}
    if not legal:
        out["reason"] = "fewer than 8 fan without the flowers"
    out["patterns"] = patterns
    out["total"] = total
    out["fu"] = None
    if not legal:
        out["payments"] = {}
    elif tsumo:
        out["payments"] = {"each": total + 8}
    else:
        out["payments"] = {"discarder": total + 8, "others": 8}
    return out


if __name__ == "__main__":
    sys.exit(serve(answer))
