"""Riichi table rules (book 001) on arranged walls: each test sets the tiles so that one rule must act.

Section names are the book's (Portuguese) headings. Payments are whatever the
profile's scorer says a hand is worth (the scorer has its own tests); these
tests check who pays whom, the deposits, the honba hand-off, the indicators,
the furiten blocks and the flow of the hand and the match.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Sequence

import pytest

from mjspec.runtime.actions import Action, ActionKind, IllegalAction
from mjspec.runtime.context import Wind
from mjspec.runtime.deadwall import INDICATORS, REPLACEMENTS, UNDER, next_kind
from mjspec.runtime.match import Match
from mjspec.runtime.profile import Profile
from mjspec.runtime.registry import load_profile
from mjspec.runtime.table import Hand, Phase, _break_wall
from mjspec.runtime.tiles import Tile, parse_tiles

RIICHI = load_profile("riichi_planet")
DICE = (1, 1)
FILLER_HAND = "1m4m7m1p4p7p1s4s7s1z2z3z4z"  # far from ready, no pair


def riichi_wall(
    hands: Sequence[str | None],
    draws: str = "",
    *,
    replacements: str = "",
    indicators: str = "",
    under: str = "",
    dealer: int = 0,
    profile: Profile = RIICHI,
) -> tuple[Tile, ...]:
    """An explicit wall (before the dice break) dealing ``hands`` by seat, then ``draws`` from the front.

    ``replacements``, ``indicators`` and ``under`` fill the dead wall's replacement,
    indicator and under-indicator positions in order (docs/records.md). A seat given
    as None gets scattered tiles drawn from what is left.
    """
    pool = Counter(profile.tiles.all_tiles())
    given = [parse_tiles(h) if h is not None else None for h in hands]
    rep, ind, und = parse_tiles(replacements), parse_tiles(indicators), parse_tiles(under)
    used = [t for h in given if h for t in h] + parse_tiles(draws) + rep + ind + und
    pool.subtract(Counter(used))
    assert all(v >= 0 for v in pool.values()), f"over-used: {[str(t) for t, v in pool.items() if v < 0]}"
    for seat in range(4):
        if given[seat] is None:
            n = 14 if seat == dealer else 13
            wanted = [t for t in parse_tiles(FILLER_HAND) + parse_tiles("2m5m8m") if pool[t] > 0]
            picked: list[Tile] = []
            for t in wanted:
                if len(picked) < n and pool[t] > 0 and t not in picked:
                    picked.append(t)
                    pool[t] -= 1
            while len(picked) < n:  # fall back to any tile
                t = next(t for t in sorted(pool.elements()) if t.is_suited)
                picked.append(t)
                pool[t] -= 1
            given[seat] = picked
    order = [(dealer + i) % 4 for i in range(4)]
    front = [t for seat in order for t in (given[seat] or [])] + parse_tiles(draws)
    dead: list[Tile | None] = [None] * 14
    for positions, tiles in ((REPLACEMENTS, rep), (INDICATORS, ind), (UNDER, und)):
        for pos, t in zip(positions, tiles):
            dead[pos] = t
    rest = sorted(pool.elements())
    # Fill the dead wall's unset positions with tiles no scenario cares about (kept off the live wall's front).
    for i in range(14):
        if dead[i] is None:
            dead[i] = rest.pop()
    middle = rest
    ring = front + middle + [t for t in dead if t is not None]
    assert len(ring) == 136
    for cut in range(len(ring)):
        wall = ring[len(ring) - cut :] + ring[: len(ring) - cut]
        if _break_wall(list(wall), DICE) == ring:
            return tuple(wall)
    raise AssertionError("no cut reproduces the ring")


def arranged(hands: Sequence[str | None], draws: str = "", *, dealer: int = 0, profile: Profile = RIICHI, **kw: object) -> Hand:
    options = {k: v for k, v in kw.items() if k in ("replacements", "indicators", "under")}
    setup = {k: v for k, v in kw.items() if k not in options}
    wall = riichi_wall(hands, draws, dealer=dealer, profile=profile, **options)  # type: ignore[arg-type]
    return Hand(profile, dealer=dealer, wall=wall, dice=DICE, **setup)  # type: ignore[arg-type]


def act(hand: Hand, kind: ActionKind, seat: int, tile: str | None = None) -> None:
    hand.apply(Action(kind, seat, Tile.parse(tile) if tile else None))


def discard(hand: Hand, seat: int, tile: str) -> None:
    act(hand, ActionKind.DISCARD, seat, tile)


def pass_all(hand: Hand) -> None:
    while hand.phase is Phase.CLAIM:
        act(hand, ActionKind.PASS, hand.pending_seats()[0])


def kinds(hand: Hand, seat: int) -> set[ActionKind]:
    return {a.kind for a in hand.legal_actions(seat)}


# ---- the dead wall and indicators ("peças, configuração e objetivo"; "Chamadas, riichi e dora")


def test_dead_wall_holds_fourteen_tiles_and_the_first_indicator() -> None:
    hand = arranged([None, None, None, None], indicators="3p")
    assert hand.wall_remaining == 136 - 14 - 53
    assert hand.dead is not None and [t.mpsz for t in hand.dead.indicators()] == ["3p"]
    assert hand.events[0].data["indicators"] == "3p"
    assert hand.dora_kinds() == [Tile.parse("4p").kind]


def test_indicator_cycles() -> None:
    """'adequado 9 ciclos a 1; ciclo dos ventos Leste-Sul-Oeste-Norte; ciclo dos dragões Branco-Verde-Vermelho'."""
    pairs = {"9m": "1m", "5p": "6p", "4z": "1z", "1z": "2z", "7z": "5z", "5z": "6z"}
    for indicator, dora in pairs.items():
        assert next_kind(Tile.parse(indicator).kind) == Tile.parse(dora).kind
