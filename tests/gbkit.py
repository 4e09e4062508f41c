"""GB test helpers: random winning hands of every GB shape, and the bridge to PyMahjongGB.

Used by the GB differential test and the GB shape tests. The hands are built,
not drawn: sets and a pair (chows, pungs and kongs, concealed or declared),
seven pairs, thirteen orphans, knitted straights with a set and a pair, and
honors-and-knitted hands, with a situation (winds, flowers, self-draw, last
tile, kong-related wins, fourth tile) that is consistent with the hand.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from mjspec.runtime.context import WinContext, WinKind
from mjspec.runtime.hand import Meld, MeldType
from mjspec.runtime.scoring import WinningHand
from mjspec.runtime.tiles import Tile

# PyMahjongGB's tile codes: W characters, B dots, T bamboo, F1-F4 winds, J1 red, J2 green, J3 white.
_SUIT_CODE = {0: "W", 1: "B", 2: "T"}
_HONOR_CODE = ("F1", "F2", "F3", "F4", "J3", "J2", "J1")
WINDS = ("E", "S", "W", "N")

#: PyMahjongGB's fan names (Chinese, as the calculator returns them) -> gb_mcr pattern ids.
FAN_IDS: dict[str, str] = {
    "大四喜": "big_four_winds",
    "大三元": "big_three_dragons",
    "绿一色": "all_green",
    "九莲宝灯": "nine_gates",
    "四杠": "four_kongs",
    "连七对": "seven_shifted_pairs",
    "十三幺": "thirteen_orphans",
    "清幺九": "all_terminals",
    "小四喜": "little_four_winds",
    "小三元": "little_three_dragons",
    "字一色": "all_honors",
    "四暗刻": "four_concealed_pungs",
    "一色双龙会": "pure_terminal_chows",
    "一色四同顺": "quadruple_chow",
    "一色四节高": "four_pure_shifted_pungs",
    "一色四步高": "four_pure_shifted_chows",
    "三杠": "three_kongs",
    "混幺九": "all_terminals_and_honors",
    "七对": "seven_pairs",
    "七星不靠": "greater_honors_and_knitted_tiles",
    "全双刻": "all_even_pungs",
    "清一色": "full_flush",
    "一色三同顺": "pure_triple_chow",
    "一色三节高": "pure_shifted_pungs",
    "全大": "upper_tiles",
    "全中": "middle_tiles",
    "全小": "lower_tiles",
    "清龙": "pure_straight",
    "三色双龙会": "three_suited_terminal_chows",
    "一色三步高": "pure_shifted_chows",
    "全带五": "all_fives",
    "三同刻": "triple_pung",
    "三暗刻": "three_concealed_pungs",
    "全不靠": "lesser_honors_and_knitted_tiles",
    "组合龙": "knitted_straight",
    "大于五": "upper_four",
    "小于五": "lower_four",
    "三风刻": "big_three_winds",
    "花龙": "mixed_straight",
    "推不倒": "reversible_tiles",
    "三色三同顺": "mixed_triple_chow",
    "三色三节高": "mixed_shifted_pungs",
    "无番和": "chicken_hand",
    "妙手回春": "last_tile_draw",
    "海底捞月": "last_tile_claim",
    "杠上开花": "out_with_replacement_tile",
    "抢杠和": "robbing_the_kong",
    "碰碰和": "all_pungs",
    "混一色": "half_flush",
    "三色三步高": "mixed_shifted_chows",
    "五门齐": "all_types",
    "全求人": "melded_hand",
    "双暗杠": "two_concealed_kongs",
    "双箭刻": "two_dragon_pungs",
    "全带幺": "outside_hand",
    "不求人": "fully_concealed_hand",
    "双明杠": "two_melded_kongs",
    "和绝张": "last_tile",
    "箭刻": "dragon_pung",
    "圈风刻": "prevalent_wind",
    "门风刻": "seat_wind",
    "门前清": "concealed_hand",
    "平和": "all_chows",
    "四归一": "tile_hog",
    "双同刻": "double_pung",
    "双暗刻": "two_concealed_pungs",
    "暗杠": "concealed_kong",
    "断幺": "all_simples",
    "一般高": "pure_double_chow",
    "喜相逢": "mixed_double_chow",
    "连六": "short_straight",
    "老少副": "two_terminal_chows",
    "幺九刻": "pung_of_terminals_or_honors",
    "明杠": "melded_kong",
    "缺一门": "one_voided_suit",
    "无字": "no_honors",
    "独听・边张": "edge_wait",
    "独听・嵌张": "closed_wait",
    "独听・单钓": "single_wait",
    "自摸": "self_drawn",
    "花牌": "flower_tiles",
}


def code(kind: int) -> str:
    """A tile kind in PyMahjongGB's notation."""
    return f"{_SUIT_CODE[kind // 9]}{kind % 9 + 1}" if kind < 27 else _HONOR_CODE[kind - 27]


def calculator_request(hand: WinningHand, ctx: WinContext) -> dict[str, Any]:
    """The keyword arguments of ``MahjongGB.MahjongFanCalculator`` for this hand and situation."""
    packs = []
    for m in hand.melds:
        if m.type is MeldType.CHI:
            packs.append(("CHI", code(m.kind + 1), 1))
        elif m.type is MeldType.PON:
            packs.append(("PENG", code(m.kind), 1))
        else:
            packs.append(("GANG", code(m.kind), 0 if m.type is MeldType.ANKAN else 1))
    tsumo = hand.win is WinKind.TSUMO
    return {
        "pack": tuple(packs),
        "hand": tuple(code(t.kind) for t in hand.concealed),
        "winTile": code(hand.win_tile.kind),
        "flowerCount": len(ctx.flowers) // 2,
        "isSelfDrawn": tsumo,
        "is4thTile": ctx.fourth_tile,
        "isAboutKong": ctx.after_kong if tsumo else ctx.robbing_kong,
        "isWallLast": ctx.last_tile,
        "seatWind": WINDS.index(ctx.seat_wind.value),
        "prevalentWind": WINDS.index(ctx.round_wind.value),
    }


def calculator_fans(
    calculate: Any, hand: WinningHand, ctx: WinContext
) -> dict[tuple[str, int], int] | None:
    """PyMahjongGB's answer as {(pattern id, value): count}; None when it says the hand is no win.

    Its "concealed kong and melded kong" (5) is kept under the key
    ``("concealed_kong_and_melded_kong", 5)``.
    """
    try:
        fans = calculate(**calculator_request(hand, ctx), verbose=True)
    except TypeError as e:
        if "ERROR_NOT_WIN" in str(e):
            return None
        raise
    out: dict[tuple[str, int], int] = {}
    for value, count, zh, _en in fans:
        key = (FAN_IDS.get(zh, "concealed_kong_and_melded_kong" if zh == "明暗杠" else zh), value)
        out[key] = out.get(key, 0) + count
    return out


# ---- random winning hands ---------------------------------------------------------------


def _knitted_straights() -> list[tuple[int, ...]]:
    return [
        tuple(
            9 * suit + start + step for suit, start in zip(order, (0, 1, 2)) for step in (0, 3, 6)
        )
        for order in itertools.permutations(range(3))
    ]


KNITTED = _knitted_straights()
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _pool(rng: random.Random) -> list[int]:
    """Kinds to build sets from: often narrowed, so rare fans (flushes, honors, terminals) come
    up."""
    r = rng.random()
    suits = rng.sample(range(3), rng.choice((1, 1, 2, 2, 3)))
    if r < 0.15:
        return [k for k in range(34) if k >= 27 or (k < 27 and k % 9 in (0, 8))]
    if r < 0.25:
        return [k for s in suits for k in range(9 * s, 9 * s + 9)] + list(range(27, 34))
    if r < 0.35:
        lo, hi = rng.choice(((0, 2), (3, 5), (6, 8), (0, 3), (5, 8), (1, 7)))
        return [k for s in suits for k in range(9 * s + lo, 9 * s + hi + 1)]
    if r < 0.45:
        return list(range(27, 34)) + [k for k in range(27) if k % 9 in (1, 4, 7)]
    if r < 0.55:  # reversible tiles and greens
        return rng.choice(
            ([9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31], [19, 20, 21, 23, 25, 32])
        )
    return [k for s in suits for k in range(9 * s, 9 * s + 9)] + (
        list(range(27, 34)) if rng.random() < 0.4 else []
    )


def _template(rng: random.Random) -> tuple[list[tuple[str, int]], int | None]:
    """Sets (and maybe the pair) of a fan built from several chows or pungs, in random suits."""
    a, b, c = rng.sample(range(3), 3)
    n = rng.randrange(7)
    choice = rng.randrange(9)
    if choice == 0:  # mixed triple chow / triple pung
        kind = rng.choice(("seq", "tri"))
        return [(kind, 9 * s + n) for s in (a, b, c)], None
    if choice == 1:  # mixed straight
        return [("seq", 9 * s + m) for s, m in zip((a, b, c), (0, 3, 6))], None
    if choice == 2:  # mixed shifted chows / pungs
        kind = rng.choice(("seq", "tri"))
        n = rng.randrange(7 if kind == "seq" else 7)
        return [(kind, 9 * s + n + i) for i, s in enumerate((a, b, c))], None
    if choice == 3:  # three-suited terminal chows
        return [("seq", 9 * a), ("seq", 9 * a + 6), ("seq", 9 * b), ("seq", 9 * b + 6)], 9 * c + 4
    if choice == 4:  # pure terminal chows
        return [("seq", 9 * a), ("seq", 9 * a), ("seq", 9 * a + 6), ("seq", 9 * a + 6)], 9 * a + 4
    if choice == 5:  # pure shifted / straight / triple in one suit
        step = rng.choice((0, 1, 2, 3))
        n = rng.randrange(7 - 2 * step) if step < 3 else 0
        return [
            ("seq", 9 * a + n + i * step) for i in range(rng.choice((3, 4)) if step < 3 else 3)
        ], None
    if choice == 6:  # shifted pungs in one suit
        n = rng.randrange(6)
        return [("tri", 9 * a + n + i) for i in range(rng.choice((3, 4)))], None
    if choice == 7:  # two pairs of chows
        return [
            ("seq", 9 * a + n),
            ("seq", 9 * rng.choice((a, b)) + rng.choice((n, min(n + 3, 6), 6 - n))),
        ], None
    return [("tri", 27 + w) for w in rng.sample(range(7), rng.choice((2, 3)))], None


def _sets_hand(rng: random.Random) -> tuple[list[int], list[Meld]] | None:
    pool = _pool(rng)
    used = [0] * 34
    concealed: list[int] = []
    melds: list[Meld] = []
    open_bias = rng.random()
    kong_bias = rng.random() * 0.3
    chow_bias = rng.choice((0.2, 0.5, 0.8, 1.0))
    seeded: list[tuple[str, int]] = []
    forced_pair: int | None = None
    if rng.random() < 0.35:
        seeded, forced_pair = _template(rng)
        pool = pool + [k for _, k in seeded]
    for i in range(4):
        if i < len(seeded):
            kind, k = seeded[i]
            if kind == "seq" and k < 27 and k % 9 <= 6 and all(used[k + j] < 4 for j in range(3)):
                for j in range(3):
                    used[k + j] += 1
                if rng.random() < open_bias * 0.6:
                    melds.append(Meld(MeldType.CHI, (Tile(k), Tile(k + 1), Tile(k + 2))))
                else:
                    concealed += [k, k + 1, k + 2]
                continue
            if kind == "tri" and used[k] <= 1:
                used[k] += 3
                if rng.random() < open_bias * 0.6:
                    melds.append(Meld(MeldType.PON, (Tile(k),) * 3))
                else:
                    concealed += [k, k, k]
                continue
            return None
        for _attempt in range(30):
            k = rng.choice(pool)
            if (
                rng.random() < chow_bias
                and k < 27
                and k % 9 <= 6
                and all(k + i in pool and used[k + i] < 4 for i in range(3))
            ):
                for i in range(3):
                    used[k + i] += 1
                if rng.random() < open_bias * 0.6:
                    melds.append(Meld(MeldType.CHI, (Tile(k), Tile(k + 1), Tile(k + 2))))
                else:
                    concealed += [k, k + 1, k + 2]
                break
            if used[k] == 0 and rng.random() < kong_bias:
                used[k] = 4
                mt = rng.choice((MeldType.ANKAN, MeldType.MINKAN, MeldType.KAKAN))
                melds.append(Meld(mt, (Tile(k),) * 4))
                break
            if used[k] <= 1:
                used[k] += 3
                if rng.random() < open_bias * 0.6:
                    melds.append(Meld(MeldType.PON, (Tile(k),) * 3))
                else:
                    concealed += [k, k, k]
                break
        else:
            return None
    pair = [k for k in pool if used[k] <= 2]
    if forced_pair is not None:
        pair = [forced_pair] if used[forced_pair] <= 2 else []
    if not pair:
        return None
    k = rng.choice(pair)
    concealed += [k, k]
    return concealed, melds


def _seven_pairs(rng: random.Random) -> list[int] | None:
    if rng.random() < 0.2:  # shifted pairs
        s, lo = rng.randrange(3), rng.randrange(3)
        return [9 * s + lo + i for i in range(7) for _ in range(2)]
    pool = _pool(rng)
    out: list[int] = []
    used = [0] * 34
    for _ in range(7):
        k = rng.choice(pool)
        if used[k] > 2:
            return None
        used[k] += 2
        out += [k, k]
    return out


def _knitted_hand(rng: random.Random) -> tuple[list[int], list[Meld]] | None:
    straight = list(rng.choice(KNITTED))
    if rng.random() < 0.5:  # honors and knitted: 14 distinct
        honors = list(range(27, 34))
        n_honors = rng.randint(5, 7)
        return sorted(rng.sample(straight, 14 - n_honors) + rng.sample(honors, n_honors)), []
    used = [0] * 34
    for k in straight:
        used[k] += 1
    rest = _sets_hand(rng)
    if rest is None:
        return None
    concealed, melds = rest
    # keep one set and the pair of the random hand: its last five concealed tiles or a meld
    pair = concealed[-2:]
    if melds and rng.random() < 0.5:
        meld = melds[0]
        if any(used[t.kind] + 1 > 4 for t in meld.tiles):
            return None
        tiles = straight + pair
        out_melds = [meld]
    else:
        sets = concealed[:-2]
        if len(sets) < 3:
            return None
        tiles = straight + sets[:3] + pair
        out_melds = []
    for k in tiles:
        used[k] += 1
    for m in out_melds:
        for t in m.tiles:
            used[t.kind] += 1
    if max(used) > 4:
        return None
    return tiles, out_melds


def random_gb_win(rng: random.Random) -> tuple[WinningHand, WinContext] | None:
    """A random winning hand of any GB shape with a consistent situation (None: try again)."""
    r = rng.random()
    melds: list[Meld] = []
    if r < 0.08:
        tiles = _seven_pairs(rng)
    elif r < 0.11:
        tiles = list(ORPHANS) + [rng.choice(ORPHANS)]
    elif r < 0.19:
        got = _knitted_hand(rng)
        if got is None:
            return None
        tiles, melds = got
    elif r < 0.21:  # nine gates
        s = rng.randrange(3)
        tiles = [9 * s + n for n in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)] + [
            9 * s + rng.randrange(9)
        ]
    else:
        got = _sets_hand(rng)
        if got is None:
            return None
        tiles, melds = got
    if tiles is None:
        return None
    counts = [0] * 34
    for k in tiles:
        counts[k] += 1
    for m in melds:
        for t in m.tiles:
            counts[t.kind] += 1
    if max(counts) > 4:
        return None
    rng.shuffle(tiles)
    win = tiles.pop(rng.randrange(len(tiles)))
    tsumo = rng.random() < 0.45
    raw: dict[str, Any] = {"seat_wind": rng.choice(WINDS), "round_wind": rng.choice(WINDS)}
    if rng.random() < 0.3:
        raw["flowers"] = "".join(
            f"{n}f" for n in sorted(rng.sample(range(1, 9), rng.randint(1, 8)))
        )
    if rng.random() < 0.08:
        raw["last_tile"] = True
    if tsumo and any(m.type.is_kong for m in melds) and rng.random() < 0.2:
        raw["after_kong"] = True
    if not tsumo and counts[win] == 1 and rng.random() < 0.15:
        raw["robbing_kong"] = True
        raw.pop(
            "last_tile", None
        )  # no kong with no tile left to draw (runtime/situation.py, issue 13 item 8)
    if rng.random() < 0.1:
        raw["fourth_tile"] = True
    hand = WinningHand(
        tuple(Tile(k) for k in tiles),
        tuple(melds),
        Tile(win),
        WinKind.TSUMO if tsumo else WinKind.RON,
    )
    return hand, WinContext.from_mapping(raw)
