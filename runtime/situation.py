"""Requests that describe a win no table could produce, refused with the reason (issue 13).

A scoring request states a hand and its situation (``context``). Some combinations are
well formed but impossible: a meld the profile has no call for, more copies of a tile than
the set holds, situations that exclude each other. Scoring them would answer a legal win
that never happens at the table, so :func:`impossible_win` names why instead, and the
scorer answers ``legal: false`` with that reason. Every rule here is read from the
profile's data (its tile set, call rules, dead wall and settlement), never from its id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .context import WinContext, WinKind
from .hand import MeldType
from .profile import Profile
from .tiles import N_KINDS, Tile, parse_tiles

if TYPE_CHECKING:
    from .scoring import WinningHand

#: Which call rule a meld type needs (``CallRules`` field names).
_MELD_CALL = {
    MeldType.CHI: "chi",
    MeldType.PON: "pon",
    MeldType.MINKAN: "minkan",
    MeldType.ANKAN: "ankan",
    MeldType.KAKAN: "kakan",
}


def impossible_win(profile: Profile, hand: WinningHand, ctx: WinContext) -> str | None:
    """Why the win ``hand`` in situation ``ctx`` cannot happen under ``profile`` (None if it
    can)."""
    return (
        missing_call(profile, hand)
        or contradictory_situation(profile, hand, ctx)
        or too_many_copies(profile, hand, ctx)
    )


def missing_call(profile: Profile, hand: WinningHand) -> str | None:
    """A meld of a kind the profile's calls do not allow (000 and 004 have no chi, issue 13 item
    4)."""
    calls = profile.table.calls
    for i, meld in enumerate(hand.melds):
        name = _MELD_CALL[meld.type]
        if not getattr(calls, name):
            return (
                f"melds[{i}] is a {meld.type.value}, which {profile.id} does not allow (no "
                f"{name} in its calls)"
            )
    return None


#: Situations that exclude each other at any table (001: Tenhou and Chiihou come before any call
#: or kong; robbing a kong is a win on another's tile; issue 13 item 8): the facts that cannot all
#: hold, and why. A fact is a flag of the context, how the hand was won ("tsumo", "ron"), "melds"
#: (the hand has melds), "not after_kong" (that flag unset) or a fact of the profile
#: (profile_facts). Data, so that the native reader
#: (runtime/native_score.py) checks these very rows.
CONTRADICTIONS: tuple[tuple[tuple[str, ...], str], ...] = (
    (
        ("robbing_kong", "tsumo"),
        "robbing_kong contradicts a tsumo win: a robbed kong's tile is another player's",
    ),
    (
        ("robbing_kong", "last_tile"),
        "robbing_kong contradicts last_tile: no kong may be declared with no tile left to draw",
    ),
    (
        ("first_draw", "melds"),
        "first_draw contradicts the melds: a first draw comes before any call or kong",
    ),
    (
        ("after_kong", "last_tile", "dead_wall"),
        "after_kong contradicts last_tile: a kong's replacement comes from the dead wall, "
        "never the live wall's last tile",
    ),
    # after_kong is a self-draw on the replacement tile (001 rinshan, 000 §7 Kong Bloom, 002 Out
    # with Replacement Tile, classical-complement.md "winning with a loose tile"): never a ron.
    (
        ("after_kong", "ron"),
        "after_kong contradicts a ron win: a kong's replacement tile is drawn by the winner",
    ),
    # kong_shot is a win on the discard that follows the discarder's kong (000 §7 Shoot After Kong).
    (
        ("kong_shot", "tsumo"),
        "kong_shot contradicts a tsumo win: a shot after a kong is a win on the kong player's "
        "discard",
    ),
    (
        ("kong_shot", "robbing_kong"),
        "kong_shot contradicts robbing_kong: the winning tile is either a discard or the tile "
        "added to a kong",
    ),
    # 001: Tenhou/Chiihou come before any kan; classical_xmj: the opening bonus tiles' replacements
    # belong to the deal (its bonus-tile reading), and a kong is a call: a first draw is never a
    # kong's replacement, nor a discard made after a kong.
    (
        ("first_draw", "after_kong"),
        "first_draw contradicts after_kong: a first draw comes before any kong, so it is no "
        "replacement tile",
    ),
    (
        ("first_draw", "kong_shot"),
        "first_draw contradicts kong_shot: a first draw or first discard comes before any kong",
    ),
    (
        ("first_draw", "robbing_kong"),
        "first_draw contradicts robbing_kong: a first draw or first discard comes before any kong",
    ),
    # 001: riichi is declared with a discard (the sideways tile); Tenhou and Chiihou are won before
    # the
    # winner's first discard. classical_xmj (M 55): Original Call is declared with the first
    # discard,
    # and both blessings are won before the winner discards.
    *(
        (
            ("first_draw", declared),
            f"first_draw contradicts {declared}: it is declared with a discard, and a "
            "first-draw win "
            "comes before the winner's first discard",
        )
        for declared in ("riichi", "double_riichi", "ippatsu", "original_call")
    ),
    # classical-complement.md Kong upon Kong: "winning on a loose tile drawn after a kong made with
    # a
    # previous loose tile": a self-draw on a loose tile.
    *(
        (
            ("kong_upon_kong", fact),
            "kong_upon_kong contradicts the win: kong upon kong is a self-draw on a loose tile "
            "(after_kong, tsumo)",
        )
        for fact in ("ron", "not after_kong")
    ),
)


def profile_facts(profile: Profile) -> dict[str, bool]:
    """The facts of the profile a row of CONTRADICTIONS may name: "dead_wall", its table has one."""
    return {"dead_wall": profile.table.dead_wall is not None}


def contradictory_situation(profile: Profile, hand: WinningHand, ctx: WinContext) -> str | None:
    """The reason of the first row of CONTRADICTIONS whose facts all hold, or None."""
    known = {
        "tsumo": hand.win is WinKind.TSUMO,
        "ron": hand.win is WinKind.RON,
        "melds": bool(hand.melds),
        **profile_facts(profile),
    }  # the facts that are not context flags, settled once per request
    for facts, why in CONTRADICTIONS:
        if all(_holds(fact, known, ctx) for fact in facts):
            return why
    return None


def _holds(fact: str, known: dict[str, bool], ctx: WinContext) -> bool:
    if fact.startswith("not "):
        return not _holds(fact[4:], known, ctx)
    if fact in known:
        return known[fact]
    return bool(getattr(ctx, fact))


def indicator_limit(profile: Profile) -> int:
    """How many indicators the dead wall can show: one at the start, one more per kong up to the
    kong limit (001: 1 + 4 = 5); 0 without a dead wall that shows indicators."""
    dead = profile.table.dead_wall
    if dead is None or not dead.indicators:
        return 0
    if not dead.kong_indicators:
        return 1
    return 1 + (profile.table.calls.max_kongs if profile.table.calls.max_kongs is not None else 4)


def too_many_copies(profile: Profile, hand: WinningHand, ctx: WinContext) -> str | None:
    """More copies of a tile (or of a red five) across the hand, its melds, the winning tile and the
    indicators than the set holds, or more indicators than the dead wall shows (issue 13 item 9)."""
    dora = parse_tiles(ctx.dora_indicators) if ctx.dora_indicators else []
    ura = parse_tiles(ctx.ura_indicators) if ctx.ura_indicators else []
    if dora or ura:
        limit = indicator_limit(profile)
        if len(dora) > limit:
            return (
                f"context.dora_indicators names {len(dora)} indicators; the dead wall shows "
                f"at most {limit}"
            )
        if len(ura) > limit:
            return (
                f"context.ura_indicators names {len(ura)} tiles; at most {limit} lie under "
                "the indicators"
            )
    counts = [0] * N_KINDS
    reds = [0] * N_KINDS
    tiles: list[Tile] = [*hand.concealed, hand.win_tile, *dora, *ura]
    for meld in hand.melds:
        tiles.extend(meld.tiles)
    for t in tiles:
        if t.kind < N_KINDS:
            counts[t.kind] += 1
            reds[t.kind] += t.red
    copies = profile.tiles.copies
    red_suits = set(profile.tiles.red_fives)
    for kind in range(N_KINDS):
        if counts[kind] > copies:
            return (
                f"{counts[kind]} copies of {Tile(kind)} in the hand, its melds and the "
                f"indicators: the set has {copies}"
            )
        if reds[kind]:
            held = 1 if Tile(kind).suit in red_suits else 0
            if reds[kind] > held:
                return f"{reds[kind]} red fives of {Tile(kind).suit.value}: the set has {held}"
    return None
