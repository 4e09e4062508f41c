"""The table as plain data (what a client shows); with a seat, what that seat may see."""

from __future__ import annotations

from typing import Any, Sequence

from ..hand import Meld
from ..tiles import Suit, Tile, format_tiles
from .common import SEATS, Seat


def player_view(
    s: Seat,
    *,
    own: bool,
    hand: Sequence[Tile],
    melds: Sequence[Meld],
    discards: Sequence[Tile],
    missing: Suit | None,
    missing_shown: bool,
    exchange: tuple[Tile, ...] | None,
    active: bool,
    score: int,
    riichi: bool,
) -> dict[str, Any]:
    """One seat's part: its concealed tiles and hidden choices only when ``own``."""
    return {
        "seat": s,
        "concealed": format_tiles(sorted(hand)) if own else None,
        "concealed_count": len(hand),
        "melds": [{"type": m.type.value, "tiles": format_tiles(m.tiles)} for m in melds],
        "discards": format_tiles(discards),
        "missing_suit": missing.value if missing is not None and (own or missing_shown) else None,
        "exchange": format_tiles(exchange or ()) if own and exchange else None,
        "active": active,
        "score": score,
        "riichi": riichi,
    }


def masked(seat: Seat | None) -> list[bool]:
    """Per seat: whether the viewer (``seat``; None: everybody) sees its concealed tiles."""
    return [seat is None or s == seat for s in range(SEATS)]
