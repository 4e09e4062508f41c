"""The table as plain data (what a client shows); with a seat, what that seat may see."""

from __future__ import annotations

from typing import Any, Sequence

from ..deadwall import DeadWall
from ..hand import Meld
from ..tiles import Suit, Tile, format_tiles
from .common import SEATS, Phase, Seat, Table, WinRecord


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


def table_view(
    table: Table,
    seat: Seat | None,
    *,
    claim_tile: Tile | None,
    dead: DeadWall | None,
    missing: Sequence[Suit | None],
    exchange: Sequence[tuple[Tile, ...] | None] | None,
    riichi: Sequence[bool],
) -> dict[str, Any]:
    """The table as plain data; with ``seat``, other players' concealed tiles and hidden choices
    masked (the declared missing suits too, while the declaration is hidden). What the mechanisms
    hold comes in: the claim window's tile, the dead wall's indicators, the declared missing suits,
    the exchange's choices, who declared riichi."""
    missing_shown = table.phase is not Phase.DECLARE
    scores = table.scores
    players = [
        player_view(
            s,
            own=own,
            hand=table.hands[s],
            melds=table.melds[s],
            discards=table.discards[s],
            missing=missing[s],
            missing_shown=missing_shown,
            exchange=exchange[s] if exchange is not None else None,
            active=table.active[s],
            score=scores[s],
            riichi=riichi[s],
        )
        for s, own in enumerate(masked(seat))
    ]
    return {
        "profile": table.profile.id,
        "phase": table.phase.value,
        "dealer": table.dealer,
        "turn": table.turn,
        "wall_remaining": table.wall_remaining,
        "claim_tile": claim_tile.mpsz if claim_tile else None,
        "pending": table.pending_seats(),
        "dora_indicators": format_tiles(dead.indicators()) if dead is not None else "",
        "honba": table.honba,
        "deposits": table.deposits,
        "players": players,
    }


def census(
    table: Table, wall: list[Tile], wins: Sequence[WinRecord], pending_kong: Tile | None
) -> list[Tile]:
    """Every tile at the table: ``wall`` (the wall's tiles not yet dealt or drawn), hands, melds,
    discards, flowers, won tiles and a kong's tile awaiting its robbery window."""
    out = wall
    for s in range(SEATS):
        out += table.hands[s]
        out += table.discards[s]
        out += table.flowers[s]
        for m in table.melds[s]:
            out += m.tiles
    seen: set[int] = set()
    for w in wins:
        if w.order not in seen:  # several rons on one discard share one tile
            seen.add(w.order)
            out.append(w.tile)
    if pending_kong is not None:
        out.append(pending_kong)
    return out
