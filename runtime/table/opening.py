"""The opening: the tile exchange, the missing-suit declaration, bonus tiles declared at the deal,
and Original Call (a declaration made with one's first discard).

000 §3 (sichuan): every player passes three tiles (of one suit) in a direction the dice choose,
then declares a suit they will not keep; M 32-33 (classical): bonus tiles dealt are exposed and
replaced before play; 003 / M 55: Original Call.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Iterator, Sequence

from ..actions import Action, ActionKind
from ..rules import Exchange as ExchangeRules
from ..rules import ExchangeDirection
from ..tiles import N_KINDS, Suit, Tile
from .common import SEATS, Seat, Table, action, holds_suit, tile_key

_SHIFT = {ExchangeDirection.RIGHT: 1, ExchangeDirection.ACROSS: 2, ExchangeDirection.LEFT: 3}


class Exchange:
    """The opening exchange (``TableRules.exchange``): each seat's hidden choice and the
    direction."""

    def __init__(
        self, rules: ExchangeRules, rng: random.Random, direction: ExchangeDirection | None
    ) -> None:
        self.rules = rules
        self.direction: ExchangeDirection = direction or rng.choice(rules.directions)
        self.choice: list[tuple[Tile, ...] | None] = [None] * SEATS

    def pending(self) -> list[Seat]:
        return [s for s in range(SEATS) if self.choice[s] is None]

    def options(self, seat: Seat, held: Sequence[Tile], suits: Sequence[Suit]) -> list[Action]:
        """Every distinct choice of ``rules.tiles`` tiles (of one suit, under ``same_suit``), in
        tile order."""
        ex = self.rules
        out: list[Action] = []
        # The choices made so far, as tile keys (ints hash at C speed).
        seen: set[tuple[int, ...]] = set()
        ordered = sorted(held, key=tile_key)
        groups = [[t for t in ordered if t.suit == s] for s in suits] if ex.same_suit else [ordered]
        for tiles in groups:
            keys = [tile_key(t) for t in tiles]
            # Both enumerate the same index choices in the same order.
            for combo_keys, combo in zip(
                combinations(keys, ex.tiles), combinations(tiles, ex.tiles)
            ):
                if combo_keys not in seen:
                    seen.add(combo_keys)
                    out.append(action(ActionKind.EXCHANGE, seat, tiles=combo))
        return out

    def choose(self, seat: Seat, tiles: tuple[Tile, ...]) -> bool:
        """Record ``seat``'s choice; True once every seat has chosen (the tiles pass then)."""
        self.choice[seat] = tiles
        return all(c is not None for c in self.choice)

    def passes(self) -> list[tuple[Seat, Seat, Tile]]:
        """(giver, receiver, tile) of every tile passed, givers in seat order."""
        shift = _SHIFT[self.direction]
        return [
            (seat, (seat + shift) % SEATS, t)
            for seat in range(SEATS)
            for t in self.choice[seat] or ()
        ]

    def why_illegal(self) -> tuple[str, str]:
        ex = self.rules
        return (
            "exchange",
            f"exchange exactly {ex.tiles} tiles held{' of one suit' if ex.same_suit else ''}",
        )


class MissingSuit:
    """The missing-suit declaration (``OpeningRules.missing_suit`` = declare): each seat's suit."""

    def __init__(self) -> None:
        self.declared: list[Suit | None] = [None] * SEATS

    def pending(self) -> list[Seat]:
        return [s for s in range(SEATS) if self.declared[s] is None]

    def options(self, seat: Seat, suits: Sequence[Suit]) -> list[Action]:
        return [Action(ActionKind.DECLARE, seat, suit=s) for s in suits]

    def declare(self, seat: Seat, suit: Suit | None) -> bool:
        """Record the declaration; True once every seat has declared."""
        self.declared[seat] = suit
        return all(m is not None for m in self.declared)

    def holds(self, seat: Seat, counts: Sequence[int]) -> bool:
        """Whether ``counts`` still hold the suit ``seat`` declared missing (000 §3: it must go
        first)."""
        suit = self.declared[seat]
        return suit is not None and holds_suit(counts, suit)

    def least_held(self, held: Sequence[Tile], suits: Sequence[Suit]) -> Suit:
        """The timeout default: the suit held least (the first such in suit order)."""
        counts = {s: sum(1 for t in held if t.suit == s) for s in suits}
        return min(suits, key=lambda s: counts[s])


def dealt_bonus_tiles(table: Table) -> Iterator[tuple[Seat, Tile]]:
    """``BonusTiles.declare_at_deal`` (M 32-33, the xmj server's opening phase): the dealer first,
    then each player in turn exposes every bonus tile dealt and takes its replacement (again, when
    the replacement is a bonus tile), while the wall has tiles. Yields (seat, bonus tile) in that
    order; the machine exposes each and gives its replacement before asking for the next."""
    for seat in ((table.dealer + i) % SEATS for i in range(SEATS)):
        while table.wall_remaining > 0:
            flower = dealt_bonus_tile(table.hands[seat], table.counts[seat])
            if flower is None:
                break
            yield seat, flower


def dealt_bonus_tile(held: Sequence[Tile], counts: Sequence[int]) -> Tile | None:
    """``BonusTiles.declare_at_deal`` (M 32-33): the lowest bonus tile still in a dealt hand, if
    any."""
    if not any(counts[N_KINDS:]):
        return None
    return min((t for t in held if t.is_flower), key=tile_key)


class OriginalCall:
    """003 / M 55 (``TableRules.original_call``): who declared Original Call; their hand may not
    change."""

    def __init__(self) -> None:
        self.called = [False] * SEATS

    def options(
        self, table: Table, seat: Seat, out: list[Action], discards: Sequence[Action]
    ) -> list[Action]:
        """Original Call comes with one's first discard, nothing claimed before; after it the
        declarer may only go out, expose a bonus tile, or discard the tile just drawn.
        """
        if self.called[seat]:
            return [
                a
                for a in out
                if a.kind in (ActionKind.TSUMO, ActionKind.FLOWER)
                or (a.kind is ActionKind.DISCARD and a.tile == table.last_draw)
            ]
        if table.turns_taken[seat] == 0 and not table.melds[seat] and not table.must_discard:
            for a in discards:
                tile = a.tile
                if tile is not None and tile.kind < N_KINDS:
                    out.append(action(ActionKind.ORIGINAL_CALL, seat, tile))
        return out

    def claims(self, seat: Seat, acts: list[Action]) -> list[Action]:
        """M 55: after Original Call only a claim to go out."""
        if self.called[seat]:
            return [a for a in acts if a.kind is ActionKind.RON]
        return acts
