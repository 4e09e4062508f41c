"""The turn's own rules: what the player on turn may declare from hand and discard.

Kongs from hand (concealed, or a tile added to a pon; ``CallRules.kakan_drawn_tile_only``),
exposing a bonus tile (002 §1, M 31), and the discards in tile order with their restrictions: a
bonus tile that must be declared is never discarded (M 31), the declared missing suit goes
first (000 §3), and after a call the kinds kuikae forbids (001). Always present (every table has
turns); it holds no state: it reads the seat's tiles from the table (:class:`~.common.Table`), and
the machine hands it what other mechanisms say (the missing suit, kuikae, why riichi is refused).
"""

from __future__ import annotations

from typing import Sequence

from ..actions import Action, ActionKind
from ..hand import Meld, MeldType
from ..rules import CallRules
from ..tiles import N_KINDS, Suit, Tile
from .common import (
    SUIT_FIRST_KIND,
    TSUMO,
    Phase,
    Seat,
    Table,
    action,
    discard_actions,
    kind_discards,
    tile_key,
)

_NO_KINDS: set[int] = set()
"""No kind forbidden (kuikae applies only right after a call); never changed."""


def options(
    table: Table, seat: Seat, *, missing: Suit | None, kuikae: set[int]
) -> tuple[list[Action], list[Action]]:
    """What the player on turn (not in riichi) may do by the turn's own rules, and the discards
    among them (riichi and Original Call build on those): a self-drawn win and kongs from hand
    (neither right after a call, nor while the missing suit blocks calls), bonus tiles to expose,
    the discards. ``missing``: the seat's declared missing suit while it still holds it (000 §3);
    ``kuikae``: the kinds a call forbids (001), applied only right after the call."""
    profile = table.profile
    rules = profile.table
    calls = rules.calls
    hand = table.hands[seat]
    counts = table.counts[seat]
    must_discard = table.must_discard
    out: list[Action] = []
    holds_flower = bool(profile.tiles.flowers) and any(counts[N_KINDS:])
    if not must_discard and not (missing is not None and calls.missing_suit_blocks_calls):
        # A win needs a complete hand first (a held flower is never part of one): most turns spare
        # the score's look.
        if (
            not holds_flower
            and table.last_draw is not None  # a self-drawn win is on a drawn tile
            and table.concealed_complete(seat)
            and table.tsumo_score(seat) is not None
        ):
            out.append(TSUMO[seat])
        melds = table.melds[seat]
        # Only four of a kind held or a pon can make a kong: most turns spare the offers' call,
        # and most pons have no fourth tile in hand, which spares the look at the wall.
        if (calls.ankan and 4 in counts) or (calls.kakan and melds):
            kongs = kong_offers(seat, counts, melds, calls, table.last_draw)
            if kongs and table.kong_allowed():
                out.extend(kongs)
    exposable = False
    if holds_flower:
        # A held flower may be exposed on one's turn, after a call too; its replacement needs a
        # tile.
        exposable = table.wall_remaining > 0
        if exposable:
            out.extend(flower_offers(seat, hand))
    found = discards(
        seat,
        hand,
        counts,
        red_fives=table.reds_held[seat] > 0,
        keep_flowers=exposable and not rules.bonus.discard,
        missing_first=missing if rules.discard_missing_suit_first else None,
        kuikae=kuikae if must_discard else _NO_KINDS,
    )
    out.extend(found)
    return out, found


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
    """One DISCARD per distinct tile that may go now, in tile order (``red_fives``: the hand holds
    a red five, so a kind may be two tiles; ``keep_flowers``: no bonus tile, M 31;
    ``missing_first``: only that suit, 000 §3; ``kuikae``: not those kinds, 001)."""
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
    table: Table,
    action: Action,
    legal: Sequence[Action],
    *,
    kuikae: set[int],
    missing: Suit | None,
    no_riichi: str,
    riichi_kong: bool,
    no_nine_terminals: tuple[str, str] | None,
    no_exchange: tuple[str, str],
) -> tuple[str, str]:
    """The rule that refuses ``action`` (not among the ``legal`` ones) and why, for
    :class:`~mjspec.runtime.actions.IllegalAction`. The seat's tiles, the kongs on the table and
    the live wall are read from the table; what the mechanisms say comes in: ``no_riichi`` (why
    riichi is refused), ``riichi_kong`` (after riichi a concealed kong must keep the waits, 001),
    ``no_nine_terminals`` (the abortive draw's rule, when the table has it), ``no_exchange`` (the
    exchange's rule)."""
    seat = action.seat
    on_turn = table.phase is Phase.TURN
    hand = table.hands[seat]
    in_riichi = table.in_riichi(seat)
    calls = table.profile.table.calls
    kong_limit = calls.max_kongs
    kinds = sorted({a.kind.value for a in legal})
    kind = action.kind
    if kind is ActionKind.RIICHI and on_turn and ActionKind.DISCARD.value in kinds:
        return ("riichi", no_riichi)
    if on_turn and kind in (ActionKind.ANKAN, ActionKind.KAKAN, ActionKind.MINKAN):
        # The rules that refuse a kong on one's turn (001).
        if kong_limit is not None and table.kong_count() >= kong_limit:
            return (
                "kong-limit",
                f"no kong may be declared once {kong_limit} kongs are on the table",
            )
        if table.wall_remaining <= 0:
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
    if kind is ActionKind.KAKAN and calls.kakan_drawn_tile_only:
        return ("kakan-drawn-tile", "the tile added to a pon must be the tile just drawn")
    return (
        "tiles",
        f"{action} does not match any legal {kind.value}: the tiles are not there",
    )
