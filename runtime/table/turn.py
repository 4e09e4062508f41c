"""The turn's own rules: what the player on turn may declare from hand and discard.

Kongs from hand (concealed, or a tile added to a pon; ``CallRules.kakan_drawn_tile_only``),
exposing a bonus tile (002 §1, M 31), and the discards in tile order with their restrictions: a
bonus tile that must be declared is never discarded (M 31), the declared missing suit goes
first (000 §3), and after a call the kinds kuikae forbids (001). Always present (every table has
turns); it holds no state: the machine hands it the seat's tiles.
"""

from __future__ import annotations

from typing import Sequence

from ..actions import Action, ActionKind
from ..hand import Meld, MeldType
from ..rules import CallRules
from ..tiles import N_KINDS, Suit, Tile
from .common import SUIT_FIRST_KIND, Seat, action, discard_actions, kind_discards, tile_key


def kong_offers(
    seat: Seat,
    counts: Sequence[int],
    melds: Sequence[Meld],
    calls: CallRules,
    last_draw: Tile | None,
) -> list[Action]:
    """The concealed kongs (four of a kind held) and added kongs (a held fourth tile of a pon)."""
    out: list[Action] = []
    if calls.ankan and 4 in counts:  # rare: spare the scan of every kind
        for kind in sorted(k for k in range(N_KINDS) if counts[k] == 4):
            out.append(action(ActionKind.ANKAN, seat, Tile(kind)))
    if calls.kakan:
        for meld in melds:
            if meld.type is MeldType.PON and counts[meld.kind] >= 1:
                if calls.kakan_drawn_tile_only and (
                    last_draw is None or last_draw.kind != meld.kind
                ):
                    continue
                out.append(action(ActionKind.KAKAN, seat, Tile(meld.kind)))
    return out


def flower_offers(seat: Seat, hand: Sequence[Tile]) -> list[Action]:
    """One FLOWER per distinct bonus tile held, in tile order."""
    return [
        action(ActionKind.FLOWER, seat, flower)
        for flower in sorted({t for t in hand if t.is_flower}, key=tile_key)
    ]


def discards(
    seat: Seat,
    hand: Sequence[Tile],
    counts: Sequence[int],
    *,
    red_fives: bool,
    keep_flowers: bool,
    missing_first: Suit | None,
    kuikae: set[int],
) -> list[Action]:
    """One DISCARD per distinct tile that may go now, in tile order (``keep_flowers``: no bonus
    tile, M 31; ``missing_first``: only that suit, 000 §3; ``kuikae``: not those kinds, 001)."""
    out = discard_actions(seat, hand) if red_fives else kind_discards(seat, counts)
    if keep_flowers:
        out = [a for a in out if not a.tile.is_flower]  # type: ignore[union-attr]
    if missing_first is not None:
        lo = SUIT_FIRST_KIND[missing_first]
        out = [a for a in out if lo <= a.tile.kind < lo + 9]  # type: ignore[union-attr]
    if kuikae:
        out = [a for a in out if a.tile.kind not in kuikae]  # type: ignore[union-attr]
    return out


def refusal(
    action: Action,
    legal: Sequence[Action],
    *,
    on_turn: bool,
    hand: Sequence[Tile],
    in_riichi: bool,
    kuikae: set[int],
    missing: Suit | None,
    no_riichi: str,
    kong_limit: int | None,
    kongs: int,
    wall_remaining: int,
    riichi_kong: bool,
    no_nine_terminals: tuple[str, str] | None,
    no_exchange: tuple[str, str],
    kakan_drawn_tile_only: bool,
) -> tuple[str, str]:
    """The rule that refuses ``action`` (not among the ``legal`` ones) and why, for
    :class:`~mjspec.runtime.actions.IllegalAction`. ``on_turn``: the seat is on turn. What the
    mechanisms say comes in: ``no_riichi`` (why riichi is refused), ``riichi_kong`` (after riichi a
    concealed kong must keep the waits, 001), ``no_nine_terminals`` (the abortive draw's rule, when
    the table has it), ``no_exchange`` (the exchange's rule)."""
    kinds = sorted({a.kind.value for a in legal})
    kind = action.kind
    if kind is ActionKind.RIICHI and on_turn and ActionKind.DISCARD.value in kinds:
        return ("riichi", no_riichi)
    if on_turn and kind in (ActionKind.ANKAN, ActionKind.KAKAN, ActionKind.MINKAN):
        # The rules that refuse a kong on one's turn (001).
        if kong_limit is not None and kongs >= kong_limit:
            return (
                "kong-limit",
                f"no kong may be declared once {kong_limit} kongs are on the table",
            )
        if wall_remaining <= 0:
            return ("kong-wall", "no kong with no tile left to draw in the live wall")
        if kind is ActionKind.ANKAN and in_riichi and riichi_kong:
            return (
                "riichi-kong",
                "after riichi a concealed kong must be made with the drawn tile and keep exactly "
                "the same waits",
            )
    if on_turn and kind is ActionKind.NINE_TERMINALS and no_nine_terminals is not None:
        return no_nine_terminals
    if kind.value not in kinds:
        return ("phase", f"{kind.value} is not possible now; legal: {', '.join(kinds)}")
    seat = action.seat
    if kind in (ActionKind.DISCARD, ActionKind.RIICHI) and action.tile is not None:
        if action.tile not in hand:
            return ("own-tiles", f"seat {seat} does not hold {action.tile}")
        if in_riichi:
            return (
                "riichi-fixed-hand",
                f"after riichi seat {seat} may only discard the drawn tile",
            )
        if action.tile.kind in kuikae:
            return (
                "kuikae",
                f"after the call seat {seat} may not discard {action.tile} (kuikae)",
            )
        if kind is ActionKind.RIICHI:
            return ("riichi", no_riichi)
        return (
            "missing-suit-first",
            f"seat {seat} must discard the declared missing suit ({missing}) first",
        )
    if kind is ActionKind.EXCHANGE:
        return no_exchange
    if kind is ActionKind.KAKAN and kakan_drawn_tile_only:
        return ("kakan-drawn-tile", "the tile added to a pon must be the tile just drawn")
    return (
        "tiles",
        f"{action} does not match any legal {kind.value}: the tiles are not there",
    )
