"""Test helpers: build hands from examples and requests, and an independent brute-force win check.

The brute-force checker is deliberately written differently from
``mjspec.runtime.shapes`` (plain recursion over a sorted tile list), so that
agreement between the two means something.
"""

from __future__ import annotations

from typing import Any

from mjspec.runtime.context import WinContext, WinKind
from mjspec.runtime.hand import Meld, MeldType
from mjspec.runtime.profile import Example, Profile
from mjspec.runtime.scoring import Score, WinningHand
from mjspec.runtime.table import Round
from mjspec.runtime.tiles import Tile, parse_tiles


def example_hand(profile: Profile, ex: Example) -> tuple[WinningHand, WinContext]:
    melds = tuple(
        Meld(MeldType(m.type), tuple(parse_tiles(m.tiles, profile.tiles)), None, m.source)
        for m in ex.melds
    )
    hand = WinningHand(
        tuple(parse_tiles(ex.concealed, profile.tiles)),
        melds,
        parse_tiles(ex.win_tile, profile.tiles)[0],
        WinKind(ex.win),
    )
    return hand, WinContext.from_mapping(dict(ex.context))


def brute_force_complete(
    kinds: list[int], sets_needed: int, seven_pairs: bool, quads_as_pairs: bool
) -> bool:
    """Is the sorted list of tile kinds ``kinds`` a complete hand: ``sets_needed`` sets and a pair,
    or seven pairs?"""
    kinds = sorted(kinds)
    if len(kinds) != 3 * sets_needed + 2:
        return False
    if _sets_and_pair(kinds, sets_needed, pair_left=True):
        return True
    if seven_pairs and sets_needed == 4:
        pairs = [kinds[i] for i in range(0, 14, 2)]
        if all(kinds[i] == kinds[i + 1] for i in range(0, 14, 2)):
            if quads_as_pairs or len(set(pairs)) == 7:
                return True
    return False


def _sets_and_pair(kinds: list[int], sets_left: int, pair_left: bool) -> bool:
    if not kinds:
        return sets_left == 0 and not pair_left
    first = kinds[0]
    # pair
    if pair_left and kinds.count(first) >= 2:
        rest = list(kinds)
        rest.remove(first)
        rest.remove(first)
        if _sets_and_pair(rest, sets_left, False):
            return True
    if sets_left == 0:
        return False
    # triplet
    if kinds.count(first) >= 3:
        rest = list(kinds)
        for _ in range(3):
            rest.remove(first)
        if _sets_and_pair(rest, sets_left - 1, pair_left):
            return True
    # sequence, suited tiles only, never wrapping
    if first < 27 and first % 9 <= 6 and (first + 1) in kinds and (first + 2) in kinds:
        rest = list(kinds)
        for k in (first, first + 1, first + 2):
            rest.remove(k)
        if _sets_and_pair(rest, sets_left - 1, pair_left):
            return True
    return False


def hand_kinds(hand: WinningHand) -> list[int]:
    return [t.kind for t in (*hand.concealed, hand.win_tile)]


def spec_payment(
    formulas: dict[str, Any], fan: int, capped: int, tsumo: bool, dealer: bool
) -> dict[str, int]:
    """Evaluate a spec's raw payment formulas with Python itself, independently of the generated
    engine."""
    env: dict[str, Any] = {
        "fan": fan,
        "capped": capped,
        "tsumo": tsumo,
        "ron": not tsumo,
        "dealer": dealer,
    }
    safe = {"min": min, "max": max, "abs": abs}
    for name, src in formulas.get("values", {}).items():
        env[name] = eval(
            str(src), {"__builtins__": safe}, dict(env)
        )  # noqa: S307 - trusted test input
    roles = formulas["tsumo" if tsumo else "ron"]
    return {
        role: eval(str(src), {"__builtins__": safe}, dict(env)) for role, src in roles.items()
    }  # noqa: S307


def tile_list(text: str) -> list[Tile]:
    return parse_tiles(text)


def random_hand(rng: "random.Random", profile: Profile) -> WinningHand:
    """A random hand of the profile: a third drawn at random from the wall, the rest built as wins
    (with melds)."""
    kinds = [k for k in profile.tiles.kinds()]
    if rng.random() < 0.3:
        wall = [k for k in kinds for _ in range(profile.tiles.copies)]
        picked = rng.sample(wall, 14)
        tiles = [Tile(k) for k in picked]
        return WinningHand(tuple(tiles[:13]), (), tiles[13], rng.choice(list(WinKind)))
    while True:
        hand = _built_win(rng, profile, kinds)
        if hand is not None:
            return hand


def _built_win(rng: "random.Random", profile: Profile, kinds: list[int]) -> WinningHand | None:
    suits = sorted({k // 9 for k in kinds})
    use = set(rng.sample(suits, rng.randint(1, len(suits))))
    pool = [k for k in kinds if k // 9 in use]
    count = [0] * 34
    concealed: list[int] = []
    melds: list[Meld] = []
    if profile.shapes.seven_pairs and rng.random() < 0.2:
        for _ in range(7):
            k = rng.choice(pool)
            if count[k] > 2:
                return None
            count[k] += 2
            concealed += [k, k]
    else:
        for _ in range(4):
            k = rng.choice(pool)
            r = rng.random()
            if r < 0.45 and k < 27 and k % 9 <= 6 and all(count[k + i] < 4 for i in range(3)):
                for i in range(3):
                    count[k + i] += 1
                concealed += [k, k + 1, k + 2]
            elif count[k] == 0 and r > 0.85:
                count[k] += 4
                melds.append(
                    Meld(
                        rng.choice([MeldType.MINKAN, MeldType.ANKAN, MeldType.KAKAN]),
                        (Tile(k),) * 4,
                    )
                )
            elif count[k] <= 1:
                count[k] += 3
                if r > 0.65:
                    melds.append(Meld(MeldType.PON, (Tile(k),) * 3))
                else:
                    concealed += [k, k, k]
            else:
                return None
        k = rng.choice(pool)
        if count[k] > 2:
            return None
        count[k] += 2
        concealed += [k, k]
    rng.shuffle(concealed)
    win = concealed.pop()
    return WinningHand(
        tuple(Tile(k) for k in concealed), tuple(melds), Tile(win), rng.choice(list(WinKind))
    )


def random_context(
    rng: "random.Random", profile: Profile, hand: WinningHand | None = None
) -> WinContext:
    """A random situation; with ``hand``, only one a table could produce for it
    (runtime/situation.py: no robbing a kong on a self-draw, no robbing on the last tile, no
    replacement from a dead wall that is the last tile, no replacement tile won on a discard, no
    shot after a kong on a self-draw nor on a robbed kong)."""
    raw: dict[str, Any] = {}
    if profile.opening.missing_suit.value == "declare" and rng.random() < 0.85:
        raw["missing_suit"] = rng.choice([s.value for s in profile.tiles.suits])
    for flag in ("last_tile", "after_kong", "kong_shot", "robbing_kong"):
        if rng.random() < 0.15:
            raw[flag] = True
    if hand is not None:
        if hand.win is WinKind.TSUMO:
            raw.pop("robbing_kong", None)
            raw.pop("kong_shot", None)
        else:
            raw.pop("after_kong", None)
        if raw.get("robbing_kong"):
            raw.pop("kong_shot", None)
        if raw.get("robbing_kong") or (
            raw.get("after_kong") and profile.table.dead_wall is not None
        ):
            raw.pop("last_tile", None)
    return WinContext.from_mapping(raw)


import random  # noqa: E402  (used in annotations above)


# ---- the special shapes (GB), checked by plain enumeration ---------------------------

_ORPHAN_KINDS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]


def _knitted_kinds() -> list[list[int]]:
    out = []
    for a in range(3):
        for b in range(3):
            for c in range(3):
                if len({a, b, c}) == 3:
                    out.append(
                        [
                            9 * a + 0,
                            9 * a + 3,
                            9 * a + 6,
                            9 * b + 1,
                            9 * b + 4,
                            9 * b + 7,
                            9 * c + 2,
                            9 * c + 5,
                            9 * c + 8,
                        ]
                    )
    return out


def brute_force_special(
    kinds: list[int], n_melds: int, thirteen_orphans: bool, knitted: bool
) -> bool:
    """Is the list of concealed kinds a thirteen-orphans, knitted-straight or honors-and-knitted
    hand?

    Written apart from ``mjspec.runtime.shapes``: thirteen orphans is every
    orphan plus one more of them; a knitted straight takes its nine tiles out
    of the list and asks the plain recursion above for a set and a pair (or
    only the pair beside one meld); honors-and-knitted is fourteen different
    tiles, each an honor or a tile of one knitted straight.
    """
    kinds = sorted(kinds)
    if thirteen_orphans and n_melds == 0 and len(kinds) == 14:
        if sorted(set(kinds)) == _ORPHAN_KINDS:
            return True
    if not knitted or n_melds > 1:
        return False
    for straight in _knitted_kinds():
        rest = list(kinds)
        try:
            for k in straight:
                rest.remove(k)
        except ValueError:
            continue
        if _sets_and_pair(rest, 1 - n_melds, pair_left=True):
            return True
    if n_melds == 0 and len(kinds) == 14 and len(set(kinds)) == 14:
        for straight in _knitted_kinds():
            if all(k >= 27 or k in straight for k in kinds):
                return True
    return False


def special_shape_hand(rng: "random.Random") -> WinningHand:
    """A thirteen-orphans, knitted-straight or honors-and-knitted hand, or one tile away from
    one."""
    straight = rng.choice(_knitted_kinds())
    r = rng.random()
    melds: list[Meld] = []
    if r < 0.3:
        kinds = _ORPHAN_KINDS + [rng.choice(_ORPHAN_KINDS)]
    elif r < 0.6:
        kinds = sorted(rng.sample(straight, rng.randint(7, 9)))
        kinds += rng.sample(range(27, 34), 14 - len(kinds))
    else:
        k = rng.randrange(34)
        if k < 27 and k % 9 <= 6 and rng.random() < 0.5:
            group = [k, k + 1, k + 2]
        else:
            group = [k, k, k]
        p = rng.randrange(34)
        kinds = straight + [p, p]
        if rng.random() < 0.3:
            melds.append(
                Meld(
                    MeldType.PON if group[0] == group[1] else MeldType.CHI,
                    tuple(Tile(x) for x in group),
                )
            )
        else:
            kinds += group
    if rng.random() < 0.3:  # one tile off: usually no win any more
        kinds[rng.randrange(len(kinds))] = rng.randrange(34)
    counts = [0] * 34
    for k in kinds + [t.kind for m in melds for t in m.tiles]:
        counts[k] += 1
    if max(counts) > 4:
        return special_shape_hand(rng)
    rng.shuffle(kinds)
    win = kinds.pop()
    return WinningHand(
        tuple(Tile(k) for k in kinds), tuple(melds), Tile(win), rng.choice(list(WinKind))
    )


def scored_settlement(
    hand: Round, winner: int, score: Score, discarder: int | None, *, tile: Tile | None
) -> None:
    """The scored settlement of a win (``Settlement.scored_win``, runtime/table/settlement.py),
    its events and payments emitted by the machine as a win's would be."""
    paid = hand.settlement.scored_win(
        winner,
        score,
        discarder,
        tile,
        hand.melds[winner],
        hand.hands,
        hand.dealer,
        lambda s: hand.winning.losing_value(hand, s),
    )
    hand._settle(paid)
