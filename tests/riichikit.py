"""Riichi test helpers: random legal winning hands, and the bridge to the `mahjong` package.

Used by the riichi differential test and the riichi evaluation benchmark. The
hands are built, not drawn: four sets and a pair (chis, pons, open, added and
concealed kans, concealed sequences and triplets), seven pairs, thirteen
orphans (the thirteen-sided wait included) and nine gates, each with a
situation that could occur at a table of rule book 001:

- tile counts: at most four of a kind over the hand, the dora and ura-dora
  indicators and the three tiles of a robbed added kan; one red five per suit,
  and a suit whose four fives are all in view shows its red one;
- riichi and double riichi only with a closed hand (concealed kans allowed),
  ippatsu only after riichi and never on a kan replacement (one's own kan ends
  the first uninterrupted turn), ura-dora indicators exactly when riichi;
- rinshan only as a self-draw with a kan in the hand; robbing a kan only on a
  discard-type win of a kind of which the winner holds no other copy (the
  other three are in the robbed pon); the last tile neither on a replacement
  draw (it comes from the dead wall) nor on a robbed kan;
- first-draw wins (heavenly for the dealer, earthly otherwise) only as a
  self-draw with no meld and no riichi;
- one dora indicator plus at most one per kan.

One generator serves two sources of choices: :class:`SeededChooser` (a
``random.Random``, for seeded corpora) and :func:`riichi_wins` (a Hypothesis
strategy, whose failures shrink toward plain hands: every optional feature is
drawn so that its minimal value means "absent").

The bridge, :func:`calculator_answer`, scores a hand with the `mahjong`
package's ``HandCalculator`` configured as 001 plays (open tanyao, red fives,
double yakuman, counted yakuman capped at one yakuman, no kiriage, 30 fu for
an open 20-fu hand, no tsumo fu for pinfu) and writes its answer in the
fields of contracts/scoring.md, so it compares with ``mjspec score --jsonl``
field by field.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from hypothesis import assume
from hypothesis import strategies as st

from mjspec.runtime.hand import Meld, MeldType
from mjspec.runtime.tiles import Tile

WINDS = ("E", "S", "W", "N")
PROFILE = "riichi_planet"
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
GREENS = (19, 20, 21, 23, 25, 32)
DRAGONS = (31, 32, 33)
WIND_KINDS = (27, 28, 29, 30)

T = TypeVar("T")


# ---- choices ------------------------------------------------------------------------------


class Chooser(Protocol):
    """Where the generator's choices come from."""

    def below(self, n: int) -> int:
        """A whole number in 0..n-1."""

    def chance(self, p: float) -> bool:
        """True with probability about ``p``."""


class SeededChooser:
    """Choices from a seeded ``random.Random`` (reproducible corpora)."""

    def __init__(self, rng: Any) -> None:
        self.rng = rng

    def below(self, n: int) -> int:
        return int(self.rng.randrange(n))

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)


class DrawChooser:
    """Choices drawn by Hypothesis; the minimal draw (0) means "the first option" and "no"."""

    def __init__(self, draw: Callable[[st.SearchStrategy[int]], int]) -> None:
        self.draw = draw

    def below(self, n: int) -> int:
        return self.draw(st.integers(0, n - 1))

    def chance(self, p: float) -> bool:
        return self.draw(st.integers(0, 999)) >= 1000 - round(p * 1000)


def _pick(ch: Chooser, seq: Sequence[T]) -> T:
    return seq[ch.below(len(seq))]


# ---- the hand -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RiichiWin:
    """A winning hand in the request's terms: concealed tiles without the winning tile."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile
    tsumo: bool
    context: dict[str, Any] = field(default_factory=dict)

    @property
    def dealer(self) -> bool:
        return bool(self.context.get("seat_wind", "E") == "E")

    def request(self, profile: str = PROFILE) -> dict[str, Any]:
        """The request of contracts/scoring.md for this hand."""
        return {
            "profile": profile,
            "concealed": "".join(t.mpsz for t in self.concealed),
            "melds": [
                {"type": m.type.value, "tiles": "".join(t.mpsz for t in m.tiles)}
                for m in self.melds
            ],
            "win_tile": self.win_tile.mpsz,
            "win": "tsumo" if self.tsumo else "ron",
            "context": dict(self.context),
        }

    def describe(self) -> str:
        melds = " ".join(f"{m.type.value}:{''.join(t.mpsz for t in m.tiles)}" for m in self.melds)
        flags = {k: v for k, v in self.context.items()}
        return (
            f"{''.join(t.mpsz for t in self.concealed)} [{melds}] +{self.win_tile.mpsz} "
            f"{'tsumo' if self.tsumo else 'ron'} {flags}"
        )


class _Budget:
    """Copies of each kind still unseen: four, less the hand, the indicators and a robbed kan's
    pon."""

    def __init__(self) -> None:
        self.used = [0] * 34

    def room(self, kind: int, n: int = 1) -> bool:
        return self.used[kind] + n <= 4

    def take(self, kind: int, n: int = 1) -> None:
        assert self.room(kind, n), kind
        self.used[kind] += n


# Set shapes: ("seq", first kind) or ("tri", kind) or ("kan", kind).
SetSpec = tuple[str, int]


def _pool(ch: Chooser) -> list[int]:
    """Kinds to build sets from; often narrowed so flushes, honors, terminals and greens come up."""
    suits = [s for s in range(3) if ch.chance(0.6)] or [ch.below(3)]
    suited = [9 * s + n for s in suits for n in range(9)]
    honors = list(range(27, 34))
    r = ch.below(100)
    if r < 40:
        return list(range(34))
    if r < 50:
        one = 9 * ch.below(3)
        return list(range(one, one + 9)) + honors  # half flush
    if r < 58:
        one = 9 * ch.below(3)
        return list(range(one, one + 9))  # full flush
    if r < 70:
        return [k for k in suited if k % 9 not in (0, 8)] or list(range(1, 8))  # all simples
    if r < 80:
        return [k for k in ORPHANS] + [k for k in suited if k % 9 in (1, 6, 7)]  # outside hands
    if r < 84:
        return [k for k in ORPHANS if k < 27 or ch.chance(0.3)]  # terminals
    if r < 86:
        return honors
    if r < 88:
        return list(GREENS)
    return suited + honors


# How often each template is chosen (out of the sum): yakuman templates are kept rare.
_TEMPLATE_WEIGHTS = (
    ("mixed_triple_sequence", 6),
    ("triple_triplets", 4),
    ("pure_straight", 6),
    ("identical_sequences", 8),
    ("two_identical_pairs", 4),
    ("outside", 8),
    ("pure_outside", 6),
    ("big_three_dragons", 1),
    ("little_three_dragons", 3),
    ("little_four_winds", 1),
    ("big_four_winds", 1),
    ("value_honor", 8),
    ("kans", 3),
    ("four_triplets", 2),
    ("value_pair", 4),
    ("pinfu", 12),
)


def _template(ch: Chooser, seat: int, round_: int) -> tuple[list[SetSpec], int | None]:
    """Sets (and maybe the pair) of a yaku built from several sets."""
    a, b, c = _pick(ch, ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)))
    n = ch.below(7)
    roll = ch.below(sum(w for _, w in _TEMPLATE_WEIGHTS))
    for which, weight in _TEMPLATE_WEIGHTS:
        if roll < weight:
            break
        roll -= weight
    if which == "mixed_triple_sequence":
        return [("seq", 9 * s + n) for s in (a, b, c)], None
    if which == "triple_triplets":
        n = ch.below(9)
        return [("tri", 9 * s + n) for s in (a, b, c)], None
    if which == "pure_straight":
        return [("seq", 9 * a), ("seq", 9 * a + 3), ("seq", 9 * a + 6)], None
    if which == "identical_sequences":
        return [("seq", 9 * a + n), ("seq", 9 * a + n)], None
    if which == "two_identical_pairs":
        m = ch.below(7)
        return [
            ("seq", 9 * a + n),
            ("seq", 9 * a + n),
            ("seq", 9 * b + m),
            ("seq", 9 * b + m),
        ], None
    if which in ("outside", "pure_outside"):
        honors = which == "outside"
        sets: list[SetSpec] = []
        for _ in range(4):
            s = ch.below(3)
            options: list[SetSpec] = [
                ("seq", 9 * s),
                ("seq", 9 * s + 6),
                ("seq", 9 * s),
                ("tri", 9 * s),
                ("tri", 9 * s + 8),
            ]
            if honors:
                options.append(("tri", 27 + ch.below(7)))
            sets.append(_pick(ch, options))
        return sets, _pick(ch, ORPHANS if honors else ORPHANS[:6])
    if which == "big_three_dragons":
        return [("tri", k) for k in DRAGONS], None
    if which == "little_three_dragons":
        d = list(DRAGONS)
        pair = d.pop(ch.below(3))
        return [("tri", k) for k in d], pair
    if which == "little_four_winds":
        w = list(WIND_KINDS)
        pair = w.pop(ch.below(4))
        return [("tri", k) for k in w], pair
    if which == "big_four_winds":
        return [("tri", k) for k in WIND_KINDS], None
    if which == "value_honor":
        return [("tri", _pick(ch, (27 + seat, 27 + round_, 31 + ch.below(3))))], None
    if which == "kans":  # three kans, sometimes four
        kinds: list[int] = []
        while len(kinds) < 3 + ch.chance(0.3):
            k = ch.below(34)
            if k not in kinds:
                kinds.append(k)
        return [("kan", k) for k in kinds], None
    if which == "four_triplets":
        kinds = []
        while len(kinds) < 4:
            k = ch.below(34)
            if k not in kinds:
                kinds.append(k)
        return [("tri", k) for k in kinds], None
    if which == "value_pair":  # seat, round (a double wind when equal) or dragon pair
        return [], _pick(ch, (27 + seat, 27 + round_, 31 + ch.below(3)))
    # four sequences and a plain pair: pinfu when closed and the wait is two-sided
    return [("seq", 9 * ch.below(3) + ch.below(7)) for _ in range(4)], 9 * ch.below(3) + ch.below(9)


@dataclass
class _Build:
    """A hand under construction, as tile kinds (red fives are chosen at the end)."""

    concealed: list[int] = field(
        default_factory=list
    )  # the 14-tile concealed part, win tile included
    melds: list[tuple[MeldType, list[int]]] = field(default_factory=list)


def _add_set(
    ch: Chooser,
    budget: _Budget,
    build: _Build,
    spec: SetSpec,
    open_p: float,
    kan_types: Sequence[MeldType],
) -> bool:
    shape, k = spec
    if shape == "seq":
        if k >= 27 or k % 9 > 6 or not all(budget.room(k + i) for i in range(3)):
            return False
        for i in range(3):
            budget.take(k + i)
        if ch.chance(open_p):
            build.melds.append((MeldType.CHI, [k, k + 1, k + 2]))
        else:
            build.concealed += [k, k + 1, k + 2]
        return True
    if shape == "tri":
        if not budget.room(k, 3):
            return False
        budget.take(k, 3)
        if ch.chance(open_p):
            build.melds.append((MeldType.PON, [k] * 3))
        else:
            build.concealed += [k] * 3
        return True
    if not budget.room(k, 4):
        return False
    budget.take(k, 4)
    build.melds.append((_pick(ch, kan_types), [k] * 4))
    return True


def _standard(ch: Chooser, budget: _Budget, seat: int, round_: int) -> _Build | None:
    pool = _pool(ch)
    closed = ch.chance(0.5)
    open_p = 0.0 if closed else 0.3 + 0.5 * ch.below(2)
    kan_types = (MeldType.ANKAN,) if closed else (MeldType.ANKAN, MeldType.MINKAN, MeldType.KAKAN)
    kan_p = 0.1 if ch.chance(0.4) else 0.0
    seq_p = _pick(ch, (0.2, 0.6, 0.85, 1.0))
    build = _Build()
    seeded: list[SetSpec] = []
    pair: int | None = None
    if ch.chance(0.45):
        seeded, pair = _template(ch, seat, round_)
    for spec in seeded[:4]:
        if not _add_set(ch, budget, build, spec, open_p, kan_types):
            return None
    while len(build.melds) + len(build.concealed) // 3 < 4:
        for _attempt in range(40):
            k = _pick(ch, pool)
            if ch.chance(kan_p):
                spec: SetSpec = ("kan", k)
            elif ch.chance(seq_p) and k < 27 and k % 9 <= 6 and k + 2 in pool:
                spec = ("seq", k)
            else:
                spec = ("tri", k)
            if _add_set(ch, budget, build, spec, open_p, kan_types):
                break
        else:
            return None
    if pair is None:
        choices = [k for k in pool if budget.room(k, 2)]
        if not choices:
            return None
        pair = _pick(ch, choices)
    if not budget.room(pair, 2):
        return None
    budget.take(pair, 2)
    build.concealed += [pair, pair]
    return build


def _seven_pairs(ch: Chooser, budget: _Budget) -> _Build | None:
    pool = _pool(ch)
    kinds: list[int] = []
    for _attempt in range(60):
        k = _pick(ch, pool)
        if k not in kinds:
            kinds.append(k)
        if len(kinds) == 7:
            break
    else:
        return None
    for k in kinds:
        budget.take(k, 2)
    return _Build(concealed=[k for k in kinds for _ in range(2)])


def _thirteen_orphans(ch: Chooser, budget: _Budget) -> _Build:
    extra = _pick(ch, ORPHANS)
    tiles = list(ORPHANS) + [extra]
    for k in tiles:
        budget.take(k)
    return _Build(concealed=tiles)


def _nine_gates(ch: Chooser, budget: _Budget) -> _Build:
    s = 9 * ch.below(3)
    tiles = [s + n for n in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)] + [s + ch.below(9)]
    for k in tiles:
        budget.take(k)
    return _Build(concealed=tiles)


def _dora_of(indicator: int) -> int:
    """001: the tile after the indicator; 9 cycles to 1, winds E-S-W-N, dragons white-green-red."""
    if indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator < 31:
        return 27 + (indicator - 27 + 1) % 4
    return 31 + (indicator - 31 + 1) % 3


_INDICATOR_OF = {_dora_of(i): i for i in range(34)}


def _indicators(
    ch: Chooser, budget: _Budget, count: int, hand_kinds: Sequence[int]
) -> list[int] | None:
    out: list[int] = []
    for _ in range(count):
        for _attempt in range(40):
            # Half the time point at a kind in the hand, so dora counts above zero are common.
            k = _INDICATOR_OF[_pick(ch, hand_kinds)] if ch.chance(0.5) else ch.below(34)
            if budget.room(k):
                budget.take(k)
                out.append(k)
                break
        else:
            return None
    return out


def _win_once(ch: Chooser) -> RiichiWin | None:
    """One attempt at a random legal winning hand and situation; None when the attempt fails."""
    seat, round_ = ch.below(4), ch.below(4)
    budget = _Budget()
    r = ch.below(100)
    build: _Build | None
    if r < 8:
        build = _seven_pairs(ch, budget)
    elif r < 10:
        build = _thirteen_orphans(ch, budget)
    elif r < 11:
        build = _nine_gates(ch, budget)
    else:
        build = _standard(ch, budget, seat, round_)
    if build is None:
        return None
    open_hand = any(mt is not MeldType.ANKAN for mt, _ in build.melds)
    kans = sum(1 for mt, _ in build.melds if mt.is_kong)
    ctx: dict[str, Any] = {}
    if seat or ch.chance(0.5):
        ctx["seat_wind"] = WINDS[seat]
    if round_ or ch.chance(0.5):
        ctx["round_wind"] = WINDS[round_]

    first_draw = not build.melds and ch.chance(0.03)
    tsumo = first_draw or ch.chance(0.45)
    # The winning tile is any tile of the concealed part: the hand is complete whichever came last.
    win_index = ch.below(len(build.concealed))
    win_kind = build.concealed[win_index]
    if first_draw:
        ctx["first_draw"] = True
    riichi = not open_hand and not first_draw and ch.chance(0.5)
    if riichi:
        ctx["riichi"] = True
        if ch.chance(0.12):
            ctx["double_riichi"] = True
    rinshan = tsumo and kans > 0 and ch.chance(0.5)
    if rinshan:
        ctx["after_kong"] = True
    # Robbing an added kan: the other three copies sit in the robbed pon.
    chankan = (
        not tsumo
        and build.concealed.count(win_kind) == 1
        and budget.room(win_kind, 3)
        and ch.chance(0.12)
    )
    if chankan:
        budget.take(win_kind, 3)
        ctx["robbing_kong"] = True
    if riichi and not rinshan and ch.chance(0.25):
        ctx["ippatsu"] = True
    if not first_draw and not rinshan and not chankan and ch.chance(0.07):
        ctx["last_tile"] = True

    hand_kinds = build.concealed + [k for _, tiles in build.melds for k in tiles]
    dora = _indicators(ch, budget, 1 + ch.below(kans + 1), hand_kinds)
    ura = _indicators(ch, budget, len(dora), hand_kinds) if riichi and dora is not None else []
    if dora is None or ura is None:
        return None
    if ch.chance(0.3):
        ctx["honba"] = 1 + ch.below(6)
    if ch.chance(0.2):
        ctx["riichi_sticks"] = 1 + ch.below(3)

    # Red fives: a suit with all four fives in view shows its red one; otherwise one five may be
    # red.
    slots: list[tuple[str, int, int]] = []  # (where, index, sub-index) of each five
    for i, k in enumerate(build.concealed):
        slots.append(("c", i, 0))
    for i, (_, tiles) in enumerate(build.melds):
        for j in range(len(tiles)):
            slots.append(("m", i, j))
    for i in range(len(dora)):
        slots.append(("d", i, 0))
    for i in range(len(ura)):
        slots.append(("u", i, 0))

    def kind_at(slot: tuple[str, int, int]) -> int:
        where, i, j = slot
        if where == "c":
            return build.concealed[i]
        if where == "m":
            return build.melds[i][1][j]
        return (dora if where == "d" else ura)[i]

    red: set[tuple[str, int, int]] = set()
    for suit in range(3):
        five = 9 * suit + 4
        fives = [s for s in slots if kind_at(s) == five]
        if fives and (len(fives) == 4 or ch.chance(0.5)):
            red.add(fives[ch.below(len(fives))])

    def tile(slot: tuple[str, int, int]) -> Tile:
        return Tile(kind_at(slot), red=slot in red)

    concealed = [tile(("c", i, 0)) for i in range(len(build.concealed))]
    win_tile = concealed.pop(win_index)
    melds = tuple(
        Meld(mt, tuple(tile(("m", i, j)) for j in range(len(tiles))))
        for i, (mt, tiles) in enumerate(build.melds)
    )
    ctx["dora_indicators"] = "".join(tile(("d", i, 0)).mpsz for i in range(len(dora)))
    if riichi:
        ctx["ura_indicators"] = "".join(tile(("u", i, 0)).mpsz for i in range(len(ura)))
    concealed.sort()
    return RiichiWin(tuple(concealed), melds, win_tile, tsumo, ctx)


def random_riichi_win(ch: Chooser) -> RiichiWin:
    """A random legal winning hand with a consistent situation."""
    while True:
        got = _win_once(ch)
        if got is not None:
            return got


def seeded_wins(seed: int, n: int) -> list[RiichiWin]:
    """``n`` hands from one seed: the fixed corpus of the seeded test and the benchmark."""
    import random

    ch = SeededChooser(random.Random(seed))
    return [random_riichi_win(ch) for _ in range(n)]


@st.composite
def riichi_wins(draw: Callable[[st.SearchStrategy[Any]], Any]) -> RiichiWin:
    """Hypothesis strategy: a random legal winning hand with a consistent situation."""
    ch = DrawChooser(draw)
    for _attempt in range(20):
        got = _win_once(ch)
        if got is not None:
            return got
    assume(False)
    raise AssertionError("unreachable")  # pragma: no cover


# ---- the `mahjong` package ---------------------------------------------------------------


@dataclass(frozen=True)
class CalculatorCall:
    """The arguments of ``HandCalculator.estimate_hand_value`` for one hand (136-tile ids)."""

    tiles: list[int]
    win_tile: int
    melds: list[Any]
    dora_indicators: list[int]
    ura_dora_indicators: list[int]
    config: Any

    def run(self) -> Any:
        from mahjong.hand_calculating.hand import HandCalculator

        return HandCalculator.estimate_hand_value(
            self.tiles,
            self.win_tile,
            melds=self.melds,
            dora_indicators=self.dora_indicators,
            ura_dora_indicators=self.ura_dora_indicators,
            config=self.config,
        )


def rules_of_001() -> Any:
    """The package's optional rules set as book 001 plays, where it has an option for them."""
    from mahjong.hand_calculating.hand_config import HandConstants, OptionalRules

    return OptionalRules(
        has_open_tanyao=True,  # 001 yaku table: "Abrir Todas simples é permitido"
        has_aka_dora=True,  # three red fives, +1 han each
        # 13-sided orphans, single-wait four concealed triplets, pure nine gates, big four winds
        has_double_yakuman=True,
        kazoe_limit=HandConstants.KAZOE_LIMITED,  # "yakuman contado começa em 13 han": one yakuman
        kiriage=False,  # "Não há arredondamento de mãos 4-han 30-fu ou 3-han 60-fu"
        fu_for_open_pinfu=True,  # "Um ron aberto de 20 fu é tratado como 30 fu"
        fu_for_pinfu_tsumo=False,  # "Pinfu vitória por compra permanece em 20 fu"
        renhou_as_yakuman=False,  # 001 has no renhou; the calculator adds it only when asked
        has_daisharin=False,
        has_daichisei=False,
        has_sashikomi_yakuman=False,
        paarenchan_needs_yaku=True,
        limit_to_sextuple_yakuman=False,  # 001 stacks compatible yakuman with no ceiling
    )


#: The package's yaku (``Yaku.name``) -> riichi_planet pattern ids. A double wind
#: is a seat-wind and a round-wind yaku in both.
YAKU_IDS: dict[str, str] = {
    "Menzen Tsumo": "menzen_tsumo",
    "Riichi": "riichi",
    "Double Riichi": "double_riichi",
    "Ippatsu": "ippatsu",
    "Chankan": "chankan",
    "Rinshan Kaihou": "rinshan",
    "Haitei Raoyue": "haitei",
    "Houtei Raoyui": "houtei",
    "Pinfu": "pinfu",
    "Tanyao": "tanyao",
    "Iipeiko": "iipeikou",
    "Yakuhai (haku)": "white_dragon",
    "Yakuhai (hatsu)": "green_dragon",
    "Yakuhai (chun)": "red_dragon",
    **{f"Yakuhai (seat wind {w})": "seat_wind" for w in ("east", "south", "west", "north")},
    **{f"Yakuhai (round wind {w})": "round_wind" for w in ("east", "south", "west", "north")},
    "Sanshoku Doujun": "sanshoku",
    "Ittsu": "ittsu",
    "Chantai": "chanta",
    "Honroutou": "honroutou",
    "Toitoi": "toitoi",
    "San Ankou": "sanankou",
    "San Kantsu": "sankantsu",
    "Sanshoku Doukou": "sanshoku_doukou",
    "Chiitoitsu": "chiitoitsu",
    "Shou Sangen": "shousangen",
    "Honitsu": "honitsu",
    "Junchan": "junchan",
    "Ryanpeikou": "ryanpeikou",
    "Chinitsu": "chinitsu",
    "Kokushi Musou": "kokushi",
    "Kokushi Musou Juusanmen Matchi": "kokushi_thirteen_wait",
    "Chuuren Poutou": "chuuren",
    "Daburu Chuuren Poutou": "junsei_chuuren",
    "Suu Ankou": "suuankou",
    "Suu Ankou Tanki": "suuankou_single_wait",
    "Daisangen": "daisangen",
    "Shousuushii": "shousuushii",
    "Dai Suushii": "daisuushii",
    "Ryuuiisou": "ryuuiisou",
    "Suu Kantsu": "suukantsu",
    "Tsuu Iisou": "tsuuiisou",
    "Chinroutou": "chinroutou",
    "Tenhou": "tenhou",
    "Chiihou": "chiihou",
    "Dora": "dora",
    "Aka Dora": "red_fives",
    "Ura Dora": "ura_dora",
}

_RED_ID = {4: 16, 13: 52, 22: 88}  # the package's red fives: 136-ids 16 (0m), 52 (0p), 88 (0s)


class _Ids:
    """136-tile ids: kind * 4 + copy, the red five of a suit always copy 0."""

    def __init__(self) -> None:
        self.next = [0] * 34
        for k in _RED_ID:
            self.next[k] = 1

    def id(self, t: Tile) -> int:
        if t.red:
            return _RED_ID[t.kind]
        i = t.kind * 4 + self.next[t.kind]
        self.next[t.kind] += 1
        assert self.next[t.kind] <= 4, f"more than four of {t}"
        return i


def calculator_call(win: RiichiWin) -> CalculatorCall:
    """The package's input for ``win``."""
    from mahjong.constants import EAST
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.meld import Meld as PMeld

    from mjspec.runtime.tiles import parse_tiles

    ids = _Ids()
    kinds = {
        MeldType.CHI: PMeld.CHI,
        MeldType.PON: PMeld.PON,
        MeldType.MINKAN: PMeld.KAN,
        MeldType.ANKAN: PMeld.KAN,
        MeldType.KAKAN: PMeld.SHOUMINKAN,
    }
    melds = []
    tiles: list[int] = []
    for m in win.melds:
        mt = [ids.id(t) for t in m.tiles]
        tiles += mt
        melds.append(PMeld(meld_type=kinds[m.type], tiles=mt, opened=m.type is not MeldType.ANKAN))
    tiles += [ids.id(t) for t in win.concealed]
    win_id = ids.id(win.win_tile)
    tiles.append(win_id)
    ctx = win.context
    dora = [ids.id(t) for t in parse_tiles(ctx.get("dora_indicators", ""))]
    ura = [ids.id(t) for t in parse_tiles(ctx.get("ura_indicators", ""))]
    seat = WINDS.index(ctx.get("seat_wind", "E"))
    first = bool(ctx.get("first_draw"))
    last = bool(ctx.get("last_tile"))
    config = HandConfig(
        is_tsumo=win.tsumo,
        is_riichi=bool(ctx.get("riichi")),
        is_daburu_riichi=bool(ctx.get("double_riichi")),
        is_ippatsu=bool(ctx.get("ippatsu")),
        is_rinshan=bool(ctx.get("after_kong")),
        is_chankan=bool(ctx.get("robbing_kong")),
        is_haitei=last and win.tsumo,
        is_houtei=last and not win.tsumo,
        is_tenhou=first and seat == 0,
        is_chiihou=first and seat != 0,
        player_wind=EAST + seat,
        round_wind=EAST + WINDS.index(ctx.get("round_wind", "E")),
        tsumi_number=int(ctx.get("honba", 0)),
        kyoutaku_number=int(ctx.get("riichi_sticks", 0)),
        options=rules_of_001(),
    )
    return CalculatorCall(tiles, win_id, melds, dora, ura, config)


class CalculatorRefused(RuntimeError):
    """The package refused the input itself (not a no-yaku answer): a generator bug."""


def calculator_answer(win: RiichiWin) -> dict[str, Any]:
    """The package's score of ``win`` in the answer fields of contracts/scoring.md.

    Adds ``yaku`` (the package's yaku names, for messages) and ``han_by_id``
    (each yaku's han under the riichi_planet pattern id of YAKU_IDS). ``fu`` is None for a
    yakuman hand; a dealer's self-draw is paid as ``non_dealer``; honba are
    included, riichi deposits are not.
    """
    result = calculator_call(win).run()
    if result.error is not None:
        if result.error == "no_yaku":
            return {"legal": False, "reason": "no_yaku", "yaku": [], "han_by_id": {}}
        raise CalculatorRefused(f"{result.error}: {win.describe()}")
    cost = result.cost
    yakuman = any(y.is_yakuman for y in result.yaku)
    if not win.tsumo:
        payments = {"discarder": cost["main"] + cost["main_bonus"]}
    elif win.dealer:
        payments = {"non_dealer": cost["main"] + cost["main_bonus"]}
    else:
        payments = {
            "dealer": cost["main"] + cost["main_bonus"],
            "non_dealer": cost["additional"] + cost["additional_bonus"],
        }
    han_by_id: dict[str, int] = {}
    for y in result.yaku:
        han = y.han_open if result.is_open_hand and y.han_open else y.han_closed
        key = YAKU_IDS.get(y.name, y.name)
        han_by_id[key] = han_by_id.get(key, 0) + han
    return {
        "legal": True,
        "han_by_id": han_by_id,
        "total": result.han,
        "fu": None if yakuman else result.fu,
        "payments": payments,
        "yaku": [
            f"{y.name}({y.han_open if result.is_open_hand and y.han_open else y.han_closed})"
            for y in result.yaku
        ],
        "kazoe": not yakuman and result.han >= 13,
    }
