"""Tenhou game logs: mjlog XML and tenhou.net/6 JSON read into typed hands.

Both formats are read into the same vocabulary: a :class:`TenhouGame` of
:class:`TenhouHand` s, each with its start (round, repeat count, deposits,
dice, scores, dealt tiles), every step in play order (:class:`Draw`,
:class:`Discard`, :class:`Call`, :class:`RiichiStep`, :class:`DoraRevealed`)
and its results (:class:`Win`, :class:`Drawn`). Tiles are Tenhou's physical
ids 0-135 (``id // 4`` is the kind in mjspec's kind order; 16, 52 and 88 are
the red fives when the game has them); the tenhou.net/6 JSON names only kinds,
so its ids are assigned deterministically (see :func:`parse_tenhou6`).

:func:`hand_wall` rebuilds the whole wall a hand was played from, laid out
the way mjspec's table reads an explicit wall (docs/records.md, "Imported
Tenhou games"), so that dealing it reproduces the log's hands and draws.

A malformed log raises :class:`TenhouFormatError` naming the file, the hand
and the tag (or JSON entry) at fault.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Sequence, Union
from urllib.parse import unquote

from mjspec.runtime.safejson import JsonInputError, nesting_depth
from mjspec.runtime.safejson import loads as safe_json
from mjspec.runtime.tiles import Tile

__all__ = [
    "TenhouFormatError",
    "GameRules",
    "MeldKind",
    "TenhouMeld",
    "Draw",
    "Discard",
    "Call",
    "RiichiStep",
    "DoraRevealed",
    "Step",
    "Win",
    "Drawn",
    "Result",
    "TenhouHand",
    "TenhouGame",
    "RED_FIVE_IDS",
    "YAKU",
    "YAKU_BY_NAME",
    "decode_meld",
    "tile_of",
    "parse_mjlog",
    "parse_tenhou6",
    "load_log",
]

SEATS = 4
RED_FIVE_IDS = frozenset({16, 52, 88})
"""The Tenhou tile ids that are red fives (5m, 5p, 5s) when the rules have them."""


#: A tenhou.net/6 document nests five levels (document, log, hand, column, a call's list).
MAX_JSON_DEPTH = 16
#: No Tenhou log comes near this size (a whole game is tens of kilobytes).
MAX_LOG_BYTES = 16_000_000


class TenhouFormatError(ValueError):
    """A log that cannot be read: names the file, the hand (0-based, when inside one) and the tag at
    fault."""

    def __init__(
        self, source: str, message: str, *, hand: int | None = None, tag: str | None = None
    ) -> None:
        where = source
        if hand is not None:
            where += f", hand {hand}"
        if tag is not None:
            where += f", {tag}"
        super().__init__(f"{where}: {message}")
        self.source = source
        self.hand = hand
        self.tag = tag


# ----------------------------------------------------------------- vocabulary


@dataclass(frozen=True, slots=True, kw_only=True)
class GameRules:
    """The rule flags of a Tenhou game (the mjlog ``GO type`` bits, or the JSON ``rule`` block)."""

    type_bits: int | None
    """The raw ``GO type`` (None for a JSON log, which has no such number)."""
    red_fives: bool
    """Three red fives (ids 16, 52, 88)."""
    open_tanyao: bool
    """All simples counts with calls (kuitan)."""
    south_round: bool
    """East and South rounds (hanchan); else East only."""
    three_player: bool
    custom: bool
    """Custom or settlement rules (chips, ratio, lobby ``csrule``, bits above 0xff): not Tenhou's
    ranked rules."""

    @property
    def standard_four_player(self) -> bool:
        """Tenhou's ranked four-player rules: four players, open tanyao, no custom settlement."""
        return not self.three_player and not self.custom and self.open_tanyao


class MeldKind(StrEnum):
    """A call as Tenhou encodes it."""

    CHI = "chi"
    PON = "pon"
    KAKAN = "kakan"
    """Added kan: the fourth tile added to a pon."""
    MINKAN = "minkan"
    """Open kan on a discard (daiminkan)."""
    ANKAN = "ankan"
    NUKI = "nuki"
    """Three-player north set aside (never in a four-player game)."""


@dataclass(frozen=True, slots=True)
class TenhouMeld:
    """One decoded call."""

    kind: MeldKind
    seat: int
    source: int
    """The seat the claimed tile came from (the caller's own seat for an added or concealed kan)."""
    tiles: tuple[int, ...]
    """Every tile id of the finished meld, ascending (four for a kan, including an added tile)."""
    called: int | None
    """The claimed tile (chi, pon, open kan, and for an added kan the tile of the original pon);
    None for a concealed kan."""
    added: int | None = None
    """The tile added to the pon (added kan only)."""


def _rel_source(seat: int, rel: int) -> int:
    return (seat + rel) % SEATS


def decode_meld(seat: int, m: int) -> TenhouMeld:
    """Decode an mjlog ``<N who m>`` bit field.

    Layout (Tenhou's client): bits 0-1 the relative seat the tile came from
    (0 = own, 1 = right, 2 = across, 3 = left); bit 2 chi, bit 3 pon, bit 4
    added kan, bit 5 north; otherwise a kan (concealed when the source is 0).
    """
    rel = m & 3
    if m & 0x4:  # chi: base index of 7 starts per suit, which copy of each of the three tiles
        t = (m & 0xFC00) >> 10
        called_pos = t % 3
        t //= 3
        base = (t // 7) * 9 + t % 7
        copies = ((m >> 3) & 3, (m >> 5) & 3, (m >> 7) & 3)
        tiles = tuple((base + i) * 4 + copies[i] for i in range(3))
        return TenhouMeld(MeldKind.CHI, seat, _rel_source(seat, rel), tiles, tiles[called_pos])
    if (
        m & 0x18
    ):  # pon or added kan: kind, which copy is not in the pon, which of the three was called
        t = (m & 0xFE00) >> 9
        called_pos = t % 3
        kind = t // 3
        unused = (m >> 5) & 3
        pon = tuple(kind * 4 + i for i in range(4) if i != unused)
        if m & 0x8:
            return TenhouMeld(MeldKind.PON, seat, _rel_source(seat, rel), pon, pon[called_pos])
        added = kind * 4 + unused
        return TenhouMeld(
            MeldKind.KAKAN, seat, seat, tuple(sorted(pon + (added,))), pon[called_pos], added
        )
    if m & 0x20:
        return TenhouMeld(MeldKind.NUKI, seat, seat, ((m >> 8) & 0xFF,), None)
    tile = (m & 0xFF00) >> 8
    four = tuple(tile - tile % 4 + i for i in range(4))
    if rel == 0:
        return TenhouMeld(MeldKind.ANKAN, seat, seat, four, None)
    return TenhouMeld(MeldKind.MINKAN, seat, _rel_source(seat, rel), four, tile)


@dataclass(frozen=True, slots=True)
class Draw:
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class Call:
    meld: TenhouMeld


@dataclass(frozen=True, slots=True)
class RiichiStep:
    """Step 1: the declaration (the next discard is sideways); step 2: the deposit is taken (the
    discard was not won on)."""

    seat: int
    step: int


@dataclass(frozen=True, slots=True)
class DoraRevealed:
    """A kan turned over a new indicator."""

    tile: int


Step = Union[Draw, Discard, Call, RiichiStep, DoraRevealed]


@dataclass(frozen=True, slots=True, kw_only=True)
class Win:
    """One win (a double ron is two of these)."""

    seat: int
    source: int
    """The discarder (or the kan declarer robbed); the winner's own seat for a self-draw."""
    win_tile: int | None
    """The winning tile's id (None only when a JSON log does not say it)."""
    fu: int | None
    """None when a JSON log names a limit hand without its fu."""
    han: int
    """Sum of the han of every yaku and dora listed (13 per yakuman for a yakuman hand)."""
    points: int
    """The hand's value before repeat counters and deposits (Tenhou's ``ten`` second field)."""
    limit: int
    """0 none, 1 mangan, 2 haneman, 3 baiman, 4 sanbaiman, 5 yakuman (mjlog ``ten`` third field)."""
    yaku: tuple[tuple[int, int], ...]
    """(Tenhou yaku id, han) for every ordinary yaku and dora entry, in the log's order; yakuman as
    (id, 13)."""
    yakuman: tuple[int, ...]
    dora: tuple[int, ...] = ()
    """Every indicator turned over (mjlog ``doraHai``)."""
    ura: tuple[int, ...] = ()
    """Under-indicators (mjlog ``doraHaiUra``; only for a riichi winner)."""
    deltas: tuple[int, ...]
    """Score change per seat in points: repeat counters and collected deposits included, this hand's
    riichi deposits not."""
    pao: int | None = None
    closed: tuple[int, ...] = ()
    """The winner's concealed tiles including the winning tile (mjlog ``hai``)."""
    scored: bool = True
    """Whether the log states the win's yaku, han and fu (an mjai ``hora`` gives only the winner
    and the score changes: then ``yaku``, ``han`` and ``fu`` are empty and not compared)."""

    @property
    def tsumo(self) -> bool:
        return self.seat == self.source

    @property
    def yaku_ids(self) -> tuple[int, ...]:
        return tuple(y for y, _ in self.yaku)


@dataclass(frozen=True, slots=True, kw_only=True)
class Drawn:
    """A hand that ended with no winner."""

    kind: str
    """``exhaustive`` or Tenhou's type: ``yao9``, ``reach4``, ``kaze4``, ``kan4``, ``ron3``, ``nm``
    (nagashi mangan); ``unstated`` for a log that does not say which draw (an mjai
    ``ryukyoku``): the table's own draw is then compared by its score changes only."""
    deltas: tuple[int, ...]
    tenpai: tuple[int, ...] = ()
    """Seats shown ready (mjlog ``haiN``)."""


Result = Union[Win, Drawn]


@dataclass(frozen=True, slots=True, kw_only=True)
class TenhouHand:
    index: int
    """0-based position in the game."""
    round: int
    """Tenhou's kyoku: 0-3 East 1-4, 4-7 South 1-4, 8+ West."""
    honba: int
    deposits: int
    """Riichi sticks on the table when the hand starts."""
    dice: tuple[int, int]
    dealer: int
    scores: tuple[int, ...]
    """Each seat's points when the hand starts."""
    dealt: tuple[tuple[int, ...], ...]
    """Each seat's 13 starting tiles, in the log's order."""
    dora_indicator: int
    steps: tuple[Step, ...]
    results: tuple[Result, ...]
    ura_indicators: tuple[int, ...] = ()
    """Under-indicators shown by any win of the hand."""
    kan_indicators: tuple[int, ...] = ()
    """Kan indicators in the order they were turned over."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TenhouGame:
    source: str
    """The file it was read from (for messages)."""
    format: str
    """``mjlog`` or ``tenhou6``."""
    rules: GameRules
    players: tuple[str, ...]
    hands: tuple[TenhouHand, ...]
    final: tuple[tuple[int, float], ...] | None
    """(score, uma) per seat from ``owari``: the game ended here. None: the log stops before the
    end."""

    @property
    def complete(self) -> bool:
        return self.final is not None


def tile_of(tile_id: int, red_fives: bool = True) -> Tile:
    """The mjspec tile of a Tenhou id (``id // 4`` is the kind; 16, 52, 88 are red when the game has
    red fives)."""
    if not 0 <= tile_id < 136:
        raise ValueError(f"Tenhou tile ids are 0-135, got {tile_id}")
    return Tile(tile_id // 4, red_fives and tile_id in RED_FIVE_IDS)


# ------------------------------------------------------------------ the yaku

# The one table from Tenhou's yaku ids (the mjlog ``yaku``/``yakuman``
# attributes) to their tenhou.net/6 names and the pattern id each is in
# specs/riichi_planet.yaml (seat and round winds are one pattern each there;
# ``None``: no such pattern).
YAKU: dict[int, tuple[str, str | None]] = {
    0: ("門前清自摸和", "menzen_tsumo"),
    1: ("立直", "riichi"),
    2: ("一発", "ippatsu"),
    3: ("槍槓", "chankan"),
    4: ("嶺上開花", "rinshan"),
    5: ("海底摸月", "haitei"),
    6: ("河底撈魚", "houtei"),
    7: ("平和", "pinfu"),
    8: ("断幺九", "tanyao"),
    9: ("一盃口", "iipeikou"),
    10: ("自風 東", "seat_wind"),
    11: ("自風 南", "seat_wind"),
    12: ("自風 西", "seat_wind"),
    13: ("自風 北", "seat_wind"),
    14: ("場風 東", "round_wind"),
    15: ("場風 南", "round_wind"),
    16: ("場風 西", "round_wind"),
    17: ("場風 北", "round_wind"),
    18: ("役牌 白", "white_dragon"),
    19: ("役牌 發", "green_dragon"),
    20: ("役牌 中", "red_dragon"),
    21: ("両立直", "double_riichi"),
    22: ("七対子", "chiitoitsu"),
    23: ("混全帯幺九", "chanta"),
    24: ("一気通貫", "ittsu"),
    25: ("三色同順", "sanshoku"),
    26: ("三色同刻", "sanshoku_doukou"),
    27: ("三槓子", "sankantsu"),
    28: ("対々和", "toitoi"),
    29: ("三暗刻", "sanankou"),
    30: ("小三元", "shousangen"),
    31: ("混老頭", "honroutou"),
    32: ("二盃口", "ryanpeikou"),
    33: ("純全帯幺九", "junchan"),
    34: ("混一色", "honitsu"),
    35: ("清一色", "chinitsu"),
    36: ("人和", None),  # renhou: not a yaku of Tenhou's ranked rules nor of 001
    37: ("天和", "tenhou"),
    38: ("地和", "chiihou"),
    39: ("大三元", "daisangen"),
    40: ("四暗刻", "suuankou"),
    41: ("四暗刻単騎", "suuankou_single_wait"),
    42: ("字一色", "tsuuiisou"),
    43: ("緑一色", "ryuuiisou"),
    44: ("清老頭", "chinroutou"),
    45: ("九蓮宝燈", "chuuren"),
    46: ("純正九蓮宝燈", "junsei_chuuren"),
    47: ("国士無双", "kokushi"),
    48: ("国士無双１３面", "kokushi_thirteen_wait"),
    49: ("大四喜", "daisuushii"),
    50: ("小四喜", "shousuushii"),
    51: ("四槓子", "suukantsu"),
    52: ("ドラ", "dora"),
    53: ("裏ドラ", "ura_dora"),
    54: ("赤ドラ", "red_fives"),
}
_ENGLISH_NAMES = {"Riichi": 1, "Dora": 52, "Ura Dora": 53, "Red Five": 54}
YAKU_BY_NAME: dict[str, int] = {name: i for i, (name, _) in YAKU.items()} | _ENGLISH_NAMES
"""Tenhou yaku id by its tenhou.net/6 name (plus the English names some converters write)."""
DORA_IDS = frozenset({52, 53, 54})
"""Counted bonuses, not yaku: a hand of only these does not win."""


# ------------------------------------------------------------------ mjlog XML


def _ints(text: str | None, source: str, hand: int | None, tag: str, attr: str) -> list[int]:
    if text is None:
        raise TenhouFormatError(source, f"attribute {attr!r} is missing", hand=hand, tag=tag)
    if text == "":
        return []
    shown = text if len(text) <= 60 else text[:57] + "..."
    parts = text.split(",")
    if any(len(x.strip().lstrip("-")) > _MAX_DIGITS for x in parts):
        raise TenhouFormatError(
            source,
            f"attribute {attr}={shown!r} has a number of more than {_MAX_DIGITS} digits",
            hand=hand,
            tag=tag,
        )
    try:
        return [int(x) for x in parts]
    except ValueError:
        raise TenhouFormatError(
            source, f"attribute {attr}={shown!r} is not a list of integers", hand=hand, tag=tag
        ) from None


#: No number in a Tenhou log has more digits than this (scores in hundreds, seeds' six fields).
_MAX_DIGITS = 12


def _tile_ids(text: str | None, source: str, hand: int | None, tag: str, attr: str) -> list[int]:
    """An attribute of Tenhou tile ids, each 0-135 (refused here, where the file, hand and tag are
    known)."""
    ids = _ints(text, source, hand, tag, attr)
    for t in ids:
        if not 0 <= t < 136:
            raise TenhouFormatError(source, f"{attr}: tile id {t} is not 0-135", hand=hand, tag=tag)
    return ids


def _tag_text(el: ET.Element) -> str:
    # a hostile attribute (thousands of digits) is shortened: the message stays readable
    attrs = " ".join(f'{k}="{v if len(v) <= 60 else v[:57] + "..."}"' for k, v in el.attrib.items())
    return f"<{el.tag}{' ' + attrs if attrs else ''}>"


_DRAW_TAGS = "TUVW"
_DISCARD_TAGS = "DEFG"
_TILE_TAG = re.compile(r"^([TUVWDEFG])(\d+)$")


@dataclass
class _HandBuilder:
    """The hand being read, step by step (mjlog)."""

    index: int
    round: int
    honba: int
    deposits: int
    dice: tuple[int, int]
    dealer: int
    scores: tuple[int, ...]
    dealt: tuple[tuple[int, ...], ...]
    dora_indicator: int
    steps: list[Step] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    kan_indicators: list[int] = field(default_factory=list)
    ura: tuple[int, ...] = ()

    def build(self) -> TenhouHand:
        return TenhouHand(
            index=self.index,
            round=self.round,
            honba=self.honba,
            deposits=self.deposits,
            dice=self.dice,
            dealer=self.dealer,
            scores=self.scores,
            dealt=self.dealt,
            dora_indicator=self.dora_indicator,
            steps=tuple(self.steps),
            results=tuple(self.results),
            ura_indicators=self.ura,
            kan_indicators=tuple(self.kan_indicators),
        )


def _rules_from_type(bits: int, custom_attr: bool) -> GameRules:
    return GameRules(
        type_bits=bits,
        red_fives=not bits & 0x02,
        open_tanyao=not bits & 0x04,
        south_round=bool(bits & 0x08),
        three_player=bool(bits & 0x10),
        custom=custom_attr or bits & ~0xFF != 0,
    )


def parse_mjlog(text: str, source: str = "<mjlog>") -> TenhouGame:
    """Read a Tenhou mjlog (``<mjloggm ver="2.3">``) into a :class:`TenhouGame`."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise TenhouFormatError(source, f"not XML: {e}") from None
    if root.tag != "mjloggm":
        raise TenhouFormatError(source, f"root tag is <{root.tag}>, expected <mjloggm>")
    rules: GameRules | None = None
    players: list[str] = [""] * SEATS
    hands: list[TenhouHand] = []
    cur: _HandBuilder | None = None
    final: tuple[tuple[int, float], ...] | None = None
    for el in root:
        tag = el.tag
        where = _tag_text(el)
        hand_no = cur.index if cur is not None else None
        m = _TILE_TAG.match(tag)
        if m:
            if cur is None or cur.results:
                raise TenhouFormatError(
                    source, "a draw or discard outside a hand in play", hand=hand_no, tag=where
                )
            letter, tile = m.group(1), int(m.group(2))
            if tile > 135 or len(m.group(2)) > _MAX_DIGITS:
                raise TenhouFormatError(
                    source, f"tile id {m.group(2)[:20]} is not 0-135", hand=hand_no, tag=where
                )
            if letter in _DRAW_TAGS:
                cur.steps.append(Draw(_DRAW_TAGS.index(letter), tile))
            else:
                cur.steps.append(Discard(_DISCARD_TAGS.index(letter), tile))
            continue
        if tag == "GO":
            bits = _ints(el.get("type"), source, None, where, "type")
            if len(bits) != 1:
                raise TenhouFormatError(source, "type must be one integer", tag=where)
            rules = _rules_from_type(bits[0], "csrule" in el.attrib)
        elif tag == "UN":
            for s in range(SEATS):
                name = el.get(f"n{s}")
                if name is not None:
                    players[s] = unquote(name)
        elif tag == "INIT":
            if cur is not None:
                hands.append(_finish_hand(cur, source))
            cur = _read_init(
                el, len(hands), source, where, rules is not None and rules.three_player
            )
        elif tag == "N":
            if cur is None:
                raise TenhouFormatError(source, "a call outside a hand", tag=where)
            who = _ints(el.get("who"), source, hand_no, where, "who")
            code = _ints(el.get("m"), source, hand_no, where, "m")
            if len(who) != 1 or not 0 <= who[0] < SEATS or len(code) != 1:
                raise TenhouFormatError(
                    source, "who must be a seat 0-3 and m one integer", hand=hand_no, tag=where
                )
            try:
                meld = decode_meld(who[0], code[0])
            except (ValueError, IndexError) as e:
                raise TenhouFormatError(
                    source, f"m={code[0]} is not a meld: {e}", hand=hand_no, tag=where
                ) from None
            if not all(
                0 <= t < 136
                for t in (*meld.tiles, *((meld.added,) if meld.added is not None else ()))
            ):
                raise TenhouFormatError(
                    source,
                    f"m={code[0]} decodes to tile ids outside 0-135",
                    hand=hand_no,
                    tag=where,
                )
            cur.steps.append(Call(meld))
        elif tag == "REACH":
            if cur is None:
                raise TenhouFormatError(source, "a riichi outside a hand", tag=where)
            who = _ints(el.get("who"), source, hand_no, where, "who")
            step = _ints(el.get("step"), source, hand_no, where, "step")
            if len(who) != 1 or not 0 <= who[0] < SEATS or step not in ([1], [2]):
                raise TenhouFormatError(
                    source, "who must be a seat 0-3 and step 1 or 2", hand=hand_no, tag=where
                )
            cur.steps.append(RiichiStep(who[0], step[0]))
        elif tag == "DORA":
            if cur is None:
                raise TenhouFormatError(source, "a dora outside a hand", tag=where)
            hai = _tile_ids(el.get("hai"), source, hand_no, where, "hai")
            if len(hai) != 1:
                raise TenhouFormatError(source, "hai must be one tile", hand=hand_no, tag=where)
            cur.steps.append(DoraRevealed(hai[0]))
            cur.kan_indicators.append(hai[0])
        elif tag in ("AGARI", "RYUUKYOKU"):
            if cur is None:
                raise TenhouFormatError(source, "a result outside a hand", tag=where)
            if tag == "AGARI":
                win = _read_agari(el, cur, source, where)
                cur.results.append(win)
            else:
                cur.results.append(_read_ryuukyoku(el, cur.index, source, where))
            owari = el.get("owari")
            if owari is not None:
                final = _read_owari(owari, source, cur.index, where)
        # SHUFFLE, TAIKYOKU, BYE and reconnection tags carry nothing the hands need.
    if rules is None:
        raise TenhouFormatError(source, "no <GO type> tag: the rule flags are unknown")
    if cur is not None:
        hands.append(_finish_hand(cur, source))
    return TenhouGame(
        source=source,
        format="mjlog",
        rules=rules,
        players=tuple(players),
        hands=tuple(hands),
        final=final,
    )


def _read_init(
    el: ET.Element, index: int, source: str, where: str, three_player: bool
) -> _HandBuilder:
    seed = _ints(el.get("seed"), source, index, where, "seed")
    ten = _ints(el.get("ten"), source, index, where, "ten")
    oya = _ints(el.get("oya"), source, index, where, "oya")
    if len(seed) != 6 or len(ten) != SEATS or len(oya) != 1 or not 0 <= oya[0] < SEATS:
        raise TenhouFormatError(
            source, "seed needs 6 numbers, ten 4, oya one seat", hand=index, tag=where
        )
    dealt = []
    for s in range(SEATS):
        tiles = _tile_ids(el.get(f"hai{s}"), source, index, where, f"hai{s}")
        if len(tiles) != 13 and not (three_player and s == 3 and not tiles):
            raise TenhouFormatError(
                source, f"hai{s} has {len(tiles)} tiles, expected 13", hand=index, tag=where
            )
        dealt.append(tuple(tiles))
    if not 0 <= seed[5] < 136:
        raise TenhouFormatError(
            source,
            f"seed: the dora indicator's tile id {seed[5]} is not 0-135",
            hand=index,
            tag=where,
        )
    d1, d2 = seed[3] + 1, seed[4] + 1  # Tenhou writes the dice 0-5
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise TenhouFormatError(
            source, f"dice {seed[3]},{seed[4]} are not 0-5", hand=index, tag=where
        )
    return _HandBuilder(
        index=index,
        round=seed[0],
        honba=seed[1],
        deposits=seed[2],
        dice=(d1, d2),
        dealer=oya[0],
        scores=tuple(t * 100 for t in ten),
        dealt=tuple(dealt),
        dora_indicator=seed[5],
    )


def _sc_deltas(el: ET.Element, source: str, hand: int, where: str) -> tuple[int, ...]:
    sc = _ints(el.get("sc"), source, hand, where, "sc")
    # Chip games append a second block of (chips before, chip change) pairs; only the points are
    # read.
    if len(sc) not in (2 * SEATS, 4 * SEATS):
        raise TenhouFormatError(
            source, f"sc has {len(sc)} numbers, expected 8 (or 16 with chips)", hand=hand, tag=where
        )
    return tuple(sc[2 * s + 1] * 100 for s in range(SEATS))


def _read_agari(el: ET.Element, cur: _HandBuilder, source: str, where: str) -> Win:
    h = cur.index
    who = _ints(el.get("who"), source, h, where, "who")
    from_who = _ints(el.get("fromWho"), source, h, where, "fromWho")
    ten = _ints(el.get("ten"), source, h, where, "ten")
    machi = _tile_ids(el.get("machi"), source, h, where, "machi")
    if len(who) != 1 or len(from_who) != 1 or len(ten) != 3 or len(machi) != 1:
        raise TenhouFormatError(
            source, "who, fromWho, machi need one number and ten three", hand=h, tag=where
        )
    raw_yaku = _ints(el.get("yaku", ""), source, h, where, "yaku")
    if len(raw_yaku) % 2:
        raise TenhouFormatError(source, "yaku must be id,han pairs", hand=h, tag=where)
    yakuman = tuple(_ints(el.get("yakuman", ""), source, h, where, "yakuman"))
    for y in list(raw_yaku[::2]) + list(yakuman):
        if y not in YAKU:
            raise TenhouFormatError(source, f"unknown yaku id {y}", hand=h, tag=where)
    yaku = tuple((raw_yaku[i], raw_yaku[i + 1]) for i in range(0, len(raw_yaku), 2))
    # Tenhou counts every yakuman once (no double yakuman) and lists them apart from the han of
    # ordinary yaku.
    han = 13 * len(yakuman) if yakuman else sum(v for _, v in yaku)
    pao = el.get("paoWho")
    ura = tuple(_tile_ids(el.get("doraHaiUra", ""), source, h, where, "doraHaiUra"))
    if ura:
        cur.ura = ura
    return Win(
        seat=who[0],
        source=from_who[0],
        win_tile=machi[0],
        fu=ten[0],
        han=han,
        points=ten[1],
        limit=ten[2],
        yaku=yaku + tuple((y, 13) for y in yakuman),
        yakuman=yakuman,
        dora=tuple(_ints(el.get("doraHai"), source, h, where, "doraHai")),
        ura=ura,
        deltas=_sc_deltas(el, source, h, where),
        pao=int(pao) if pao is not None else None,
        closed=tuple(_ints(el.get("hai"), source, h, where, "hai")),
    )


def _read_ryuukyoku(el: ET.Element, hand: int, source: str, where: str) -> Drawn:
    tenpai = tuple(s for s in range(SEATS) if el.get(f"hai{s}") is not None)
    return Drawn(
        kind=el.get("type", "exhaustive"), deltas=_sc_deltas(el, source, hand, where), tenpai=tenpai
    )


def _read_owari(text: str, source: str, hand: int, where: str) -> tuple[tuple[int, float], ...]:
    parts = text.split(",")
    if len(parts) not in (2 * SEATS, 4 * SEATS):  # chip games add (chips, chip change) pairs
        raise TenhouFormatError(
            source,
            f"owari has {len(parts)} fields, expected 8 (or 16 with chips)",
            hand=hand,
            tag=where,
        )
    try:
        return tuple((int(parts[2 * s]) * 100, float(parts[2 * s + 1])) for s in range(SEATS))
    except ValueError:
        raise TenhouFormatError(
            source, f"owari={text!r} is not score,uma pairs", hand=hand, tag=where
        ) from None


def _finish_hand(cur: _HandBuilder, source: str) -> TenhouHand:
    if not cur.results:
        raise TenhouFormatError(
            source, "the hand has no result (AGARI or RYUUKYOKU)", hand=cur.index
        )
    return cur.build()


# ------------------------------------------------------------ tenhou.net/6 JSON

_JSON_DRAWS = {
    "流局": "exhaustive",
    "全員聴牌": "exhaustive",
    "全員不聴": "exhaustive",
    "九種九牌": "yao9",
    "四家立直": "reach4",
    "四風連打": "kaze4",
    "四槓散了": "kan4",
    "三家和了": "ron3",
    "流し満貫": "nm",
}
_LIMITS = {"満貫": 1, "跳満": 2, "倍満": 3, "三倍満": 4, "役満": 5, "数え役満": 5}
_VALUE = re.compile(
    r"^(?:(\d+)符(\d+)飜|(満貫|跳満|倍満|三倍満|数え役満|役満))(\d+)(?:-(\d+))?点(∀)?$"
)
_YAKU_TEXT = re.compile(r"^(.+)\((\d+)飜\)$|^(.+)\(役満\)$")
_CALL_LETTERS = "cpmka"
# Which seat a called tile came from, by the character position of the call letter (tenhou.net/6).
_CALL_SOURCE = {
    ("p", 0): 3,
    ("p", 2): 2,
    ("p", 4): 1,
    ("m", 0): 3,
    ("m", 2): 2,
    ("m", 6): 1,
    ("c", 0): 3,
    ("k", 0): 3,
    ("k", 2): 2,
    ("k", 4): 1,
}


def _json_kind(code: int) -> tuple[int, bool]:
    """(kind, red) of a tenhou.net/6 tile code: 11-19 m, 21-29 p, 31-39 s, 41-47 honors, 51-53 red
    fives."""
    if code in (51, 52, 53):
        return (code - 51) * 9 + 4, True
    suit, number = divmod(code, 10)
    if suit in (1, 2, 3) and 1 <= number <= 9:
        return (suit - 1) * 9 + number - 1, False
    if suit == 4 and 1 <= number <= 7:
        return 27 + number - 1, False
    raise ValueError(f"{code} is not a tenhou.net/6 tile code")


@dataclass(frozen=True, slots=True)
class _JsonCall:
    letter: str
    tiles: tuple[int, ...]  # codes, the called (or added) tile first
    source_rel: int  # 1 right, 2 across, 3 left; 0 own


def _json_call(text: str) -> _JsonCall:
    letters = [(i, c) for i, c in enumerate(text) if c in _CALL_LETTERS]
    if len(letters) != 1:
        raise ValueError(f"call {text!r} must hold exactly one of the letters c p m k a")
    pos, letter = letters[0]
    body = text[:pos] + text[pos + 1 :]
    if len(body) % 2 or not body.isdigit():
        raise ValueError(f"call {text!r} is not two-digit tile codes around one letter")
    codes = [int(body[i : i + 2]) for i in range(0, len(body), 2)]
    want = {"c": 3, "p": 3, "m": 4, "k": 4, "a": 4}[letter]
    if len(codes) != want:
        raise ValueError(f"call {text!r} has {len(codes)} tiles, a {letter!r} call has {want}")
    first = pos // 2
    if pos % 2 or first >= len(codes):  # the letter marks the tile code that follows it
        raise ValueError(f"call {text!r}: the letter {letter!r} must stand before a tile code")
    ordered = (codes[first],) + tuple(codes[:first] + codes[first + 1 :])
    rel = 0 if letter == "a" else _CALL_SOURCE.get((letter, pos), -1)
    if rel < 0:
        raise ValueError(f"call {text!r}: the letter {letter!r} cannot stand at position {pos}")
    return _JsonCall(letter, ordered, rel)


# A play-order event of a JSON hand before tile ids are known:
# ("draw", seat, code) ("discard", seat, code, riichi, tsumogiri) ("call", seat, _JsonCall,
# discarder)
_JEvent = tuple[Any, ...]


def _interleave(
    takes: list[list[Any]], discards: list[list[Any]], dealer: int
) -> list[_JEvent] | None:
    """Put the per-seat take and discard columns into play order; None if no order uses every entry.

    After a discard, a seat whose next take is a pon or open kan of that tile
    from that seat may have called it, or the next seat whose next take is a
    chi of it; if not, the next seat draws. A call that matches is tried
    first, and the search backs up when the columns then cannot be used up
    (two calls on the same kind, the mjai-reviewer ``confusing_nakis`` cases).
    """
    ti = [0] * SEATS
    di = [0] * SEATS
    out: list[_JEvent] = []

    def done() -> bool:
        return all(ti[s] == len(takes[s]) and di[s] == len(discards[s]) for s in range(SEATS))

    def turn(seat: int, after_call: bool) -> bool:
        """``seat`` has taken a tile (or called); it now discards or makes a kan."""
        if di[seat] == len(discards[seat]):
            return done()  # self-draw win, nine terminals, or the hand ended otherwise
        entry = discards[seat][di[seat]]
        if isinstance(entry, str) and entry[:1] != "r":
            call = _json_call(entry)
            if call.letter not in "ka":
                raise ValueError(f"seat {seat}: {entry!r} in the discard column")
            di[seat] += 1
            out.append(("call", seat, call, seat))
            mark = len(out)
            # After the kan: the replacement draw, or nothing more (the kan was robbed, or four kans
            # ended the hand).
            if take(seat, rinshan=True) or ti[seat] == len(takes[seat]) and done():
                return True
            di[seat] -= 1
            del out[mark - 1 :]
            return False
        riichi = isinstance(entry, str)
        code = int(entry[1:]) if isinstance(entry, str) else int(entry)
        tsumogiri = code == 60
        if code == 0:
            raise ValueError(
                f"seat {seat}: a 0 (open-kan placeholder) where a discard was expected"
            )
        if tsumogiri:
            if after_call:
                raise ValueError(f"seat {seat}: a tsumogiri right after a call")
            last = next(e for e in reversed(out) if e[0] == "draw" and e[1] == seat)
            code = last[2]
        di[seat] += 1
        out.append(("discard", seat, code, riichi, tsumogiri))
        mark = len(out)
        if after_discard(seat, code):
            return True
        di[seat] -= 1
        del out[mark - 1 :]
        return False

    def take(seat: int, rinshan: bool = False) -> bool:
        if ti[seat] == len(takes[seat]):
            return False
        entry = takes[seat][ti[seat]]
        if isinstance(entry, str):
            return False
        ti[seat] += 1
        out.append(("draw", seat, int(entry), rinshan))
        mark = len(out)
        if turn(seat, after_call=False):
            return True
        ti[seat] -= 1
        del out[mark - 1 :]
        return False

    def after_discard(discarder: int, code: int) -> bool:
        kind = _json_kind(code)[0]
        options: list[tuple[int, _JsonCall]] = []
        for off in (1, 2, 3):
            seat = (discarder + off) % SEATS
            if ti[seat] == len(takes[seat]) or not isinstance(takes[seat][ti[seat]], str):
                continue
            call = _json_call(takes[seat][ti[seat]])
            if (seat + call.source_rel) % SEATS != discarder or _json_kind(call.tiles[0])[
                0
            ] != kind:
                continue
            if call.letter in "pm" or (call.letter == "c" and off == 1):
                options.append((seat, call))
        options.sort(key=lambda o: o[1].letter == "c")  # pon and kan before chi
        for seat, call in options:
            ti[seat] += 1
            out.append(("call", seat, call, discarder))
            mark = len(out)
            ok = False
            if call.letter == "m":
                # The open kan uses up the caller's discard slot (written 0), then the replacement
                # draw.
                if di[seat] < len(discards[seat]) and discards[seat][di[seat]] == 0:
                    di[seat] += 1
                    ok = take(seat, rinshan=True)
                    if not ok:
                        di[seat] -= 1
            else:
                ok = turn(seat, after_call=True)
            if ok:
                return True
            ti[seat] -= 1
            del out[mark - 1 :]
        nxt = (discarder + 1) % SEATS
        if ti[nxt] == len(takes[nxt]):
            return done()  # won on, or the wall ran out
        return take(nxt)

    return out if take(dealer) else None


def _json_rules(doc: dict[str, Any]) -> GameRules:
    rule = doc.get("rule", {})
    if not isinstance(rule, dict):
        rule = {}
    disp = str(rule.get("disp", ""))
    red = bool(rule.get("aka")) or any(rule.get(k) for k in ("aka51", "aka52", "aka53"))
    return GameRules(
        type_bits=None,
        red_fives=red,
        open_tanyao="喰" in disp
        or "Gold" in disp
        or "Jade" in disp
        or "Throne" in disp
        or "Silver" in disp
        or "Bronze" in disp,
        south_round="南" in disp or "South" in disp,
        three_player=disp.startswith("三") or "3-Player" in disp,
        custom=False,
    )


class _Ids:
    """Deterministic tile ids for a JSON hand: each new tile takes the lowest free id of its kind
    (the red id for a red five)."""

    def __init__(self, red_fives: bool) -> None:
        self.red_fives = red_fives
        self.free: list[list[int]] = []
        for kind in range(34):
            ids = [kind * 4 + c for c in range(4)]
            if red_fives and kind * 4 in RED_FIVE_IDS:
                ids = ids[1:]  # the red copy is handed out only for a red code
            self.free.append(ids)
        self.red_free = set(RED_FIVE_IDS) if red_fives else set()

    def new(self, code: int) -> int:
        kind, red = _json_kind(code)
        if red:
            rid = kind * 4
            if rid not in self.red_free:
                raise ValueError(f"red five {code} appears twice (or the game has no red fives)")
            self.red_free.discard(rid)
            return rid
        if not self.free[kind]:
            raise ValueError(f"a fifth copy of tile {code}")
        return self.free[kind].pop(0)


def _pick(held: list[int], code: int, red_fives: bool) -> int:
    """Take the tile of ``code`` out of ``held`` (red or not as the code says); its lowest id."""
    kind, red = _json_kind(code)
    matches = sorted(t for t in held if t // 4 == kind and (red_fives and t in RED_FIVE_IDS) == red)
    if not matches:
        raise ValueError(f"tile {code} is not in the hand")
    held.remove(matches[0])
    return matches[0]


def _json_hand(raw: list[Any], index: int, rules: GameRules, source: str) -> TenhouHand:
    if not isinstance(raw, list) or len(raw) != 17:
        raise TenhouFormatError(
            source, "a hand must be a list of 17 entries", hand=index, tag="log"
        )
    try:
        kyoku, honba, kyotaku = (int(x) for x in raw[0])
        scores = tuple(int(x) for x in raw[1])
        dora_codes = [int(x) for x in raw[2]]
        ura_codes = [int(x) for x in raw[3]]
    except (TypeError, ValueError):
        raise TenhouFormatError(
            source,
            "entries 0-3 must be [kyoku, honba, sticks], scores, dora and ura tile lists",
            hand=index,
            tag="log[0:4]",
        ) from None
    if len(scores) != SEATS or not dora_codes:
        raise TenhouFormatError(
            source,
            "four scores and at least one dora indicator are needed",
            hand=index,
            tag="log[1:3]",
        )
    dealer = kyoku % SEATS
    haipai = [raw[4 + 3 * s] for s in range(SEATS)]
    takes = [list(raw[5 + 3 * s]) for s in range(SEATS)]
    discards = [list(raw[6 + 3 * s]) for s in range(SEATS)]
    result = raw[16]
    try:
        events = _interleave(takes, discards, dealer)
    except ValueError as e:
        raise TenhouFormatError(
            source,
            f"the take and discard columns do not read as play: {e}",
            hand=index,
            tag="log[4:16]",
        ) from None
    if events is None:
        raise TenhouFormatError(
            source, "no play order uses every take and discard entry", hand=index, tag="log[4:16]"
        )
    ids = _Ids(rules.red_fives)
    red = rules.red_fives
    try:
        held = [[ids.new(int(c)) for c in haipai[s]] for s in range(SEATS)]
        for s in range(SEATS):
            if len(held[s]) != 13:
                raise ValueError(f"seat {s} is dealt {len(held[s])} tiles")
        dealt = tuple(tuple(h) for h in held)
        dora_ids = [ids.new(dora_codes[0])]
        steps: list[Step] = []
        last_draw: dict[int, int] = {}
        last_discard: int | None = None
        pending_riichi: int | None = None
        kans = 0
        kan_indicators: list[int] = []
        for ev in events:
            if ev[0] != "discard" and pending_riichi is not None:
                steps.append(RiichiStep(pending_riichi, 2))
                pending_riichi = None
            if ev[0] == "draw":
                _, seat, code, rinshan = ev
                tile = ids.new(code)
                held[seat].append(tile)
                last_draw[seat] = tile
                steps.append(Draw(seat, tile))
                if rinshan and kans < len(dora_codes):
                    # JSON logs do not say when a kan indicator turned; it is put after the
                    # replacement draw.
                    ind = ids.new(dora_codes[kans])
                    kan_indicators.append(ind)
                    steps.append(DoraRevealed(ind))
            elif ev[0] == "discard":
                _, seat, code, riichi, tsumogiri = ev
                if riichi:
                    steps.append(RiichiStep(seat, 1))
                if tsumogiri:
                    tile = last_draw[seat]
                    held[seat].remove(tile)
                else:
                    tile = _pick(held[seat], code, red)
                steps.append(Discard(seat, tile))
                last_discard = tile
                if riichi:
                    pending_riichi = seat
            else:
                _, seat, call, discarder = ev
                steps.append(Call(_json_meld(call, seat, discarder, held[seat], last_discard, red)))
                if call.letter in "mka":
                    kans += 1
        if pending_riichi is not None and not _ron_on_last(result, pending_riichi):
            steps.append(RiichiStep(pending_riichi, 2))
        results, ura = _json_results(
            result, steps, ids, ura_codes, dora_ids + kan_indicators, index, source
        )
        # Indicators the JSON lists beyond those a replacement draw turned (a kan robbed or won on
        # at once).
        for code in dora_codes[1 + len(kan_indicators) :]:
            kan_indicators.append(ids.new(code))
    except (ValueError, TypeError, IndexError, KeyError) as e:
        raise TenhouFormatError(source, str(e), hand=index, tag="log") from None
    return TenhouHand(
        index=index,
        round=kyoku,
        honba=honba,
        deposits=kyotaku,
        dice=(0, 0),
        dealer=dealer,
        scores=scores,
        dealt=dealt,
        dora_indicator=dora_ids[0],
        steps=tuple(steps),
        results=tuple(results),
        ura_indicators=ura,
        kan_indicators=tuple(kan_indicators),
    )


def _ron_on_last(result: Any, seat: int) -> bool:
    if not isinstance(result, list) or not result or result[0] != "和了":
        return False
    return any(info[1] == seat and info[0] != seat for info in result[2::2])


def _json_meld(
    call: _JsonCall, seat: int, discarder: int, held: list[int], last_discard: int | None, red: bool
) -> TenhouMeld:
    if call.letter in "cpm":
        if last_discard is None:
            raise ValueError(f"seat {seat} calls with no discard before")
        rest = tuple(_pick(held, c, red) for c in call.tiles[1:])
        kind = {"c": MeldKind.CHI, "p": MeldKind.PON, "m": MeldKind.MINKAN}[call.letter]
        return TenhouMeld(
            kind, seat, discarder, tuple(sorted(rest + (last_discard,))), last_discard
        )
    if call.letter == "a":
        four = tuple(sorted(_pick(held, c, red) for c in call.tiles))
        return TenhouMeld(MeldKind.ANKAN, seat, seat, four, None)
    added = _pick(held, call.tiles[0], red)
    pon_kind = added // 4
    # The pon's tiles are already exposed: ids of that kind not in the hand, nor the added one, are
    # the pon's.
    pon = tuple(t for t in range(pon_kind * 4, pon_kind * 4 + 4) if t != added)
    return TenhouMeld(MeldKind.KAKAN, seat, seat, tuple(sorted(pon + (added,))), None, added)


def _json_results(
    result: Any,
    steps: list[Step],
    ids: _Ids,
    ura_codes: list[int],
    indicators: list[int],
    index: int,
    source: str,
) -> tuple[list[Result], tuple[int, ...]]:
    if not isinstance(result, list) or not result or not isinstance(result[0], str):
        raise ValueError("the result entry must be a list starting with its name")
    name = result[0]
    if name in _JSON_DRAWS:
        deltas = tuple(int(x) for x in result[1]) if len(result) > 1 else (0,) * SEATS
        return [Drawn(kind=_JSON_DRAWS[name], deltas=deltas)], ()
    if name != "和了":
        raise ValueError(f"unknown result {name!r}")
    ura = tuple(ids.new(c) for c in ura_codes)
    out: list[Result] = []
    for k in range(1, len(result), 2):
        deltas = tuple(int(x) for x in result[k])
        info = result[k + 1]
        who, from_who, pao = int(info[0]), int(info[1]), int(info[2])
        m = _VALUE.match(str(info[3]))
        if m is None:
            raise ValueError(f"cannot read the value {info[3]!r}")
        fu = int(m.group(1)) if m.group(1) else None
        limit = _LIMITS[m.group(3)] if m.group(3) else 0
        a, b, each = int(m.group(4)), m.group(5), m.group(6)
        points = a if who != from_who else (3 * a if each or b is None else 2 * a + int(b))
        yaku: list[tuple[int, int]] = []
        yakuman: list[int] = []
        for text in info[4:]:
            ym = _YAKU_TEXT.match(str(text))
            if ym is None:
                raise ValueError(f"cannot read the yaku {text!r}")
            yname = ym.group(1) or ym.group(3)
            if yname not in YAKU_BY_NAME:
                raise ValueError(f"unknown yaku name {yname!r}")
            if ym.group(3):
                yakuman.append(YAKU_BY_NAME[yname])
                yaku.append((YAKU_BY_NAME[yname], 13))
            else:
                yaku.append((YAKU_BY_NAME[yname], int(ym.group(2))))
        han = 13 * len(yakuman) if yakuman else sum(v for _, v in yaku)
        if limit == 0 and fu is None:
            raise ValueError(f"value {info[3]!r} names neither fu nor a limit")
        if yakuman:
            limit = 5
        win_tile = _win_tile(steps, who, from_who)
        out.append(
            Win(
                seat=who,
                source=from_who,
                win_tile=win_tile,
                fu=fu,
                han=han,
                points=points,
                limit=limit,
                yaku=tuple(yaku),
                yakuman=tuple(yakuman),
                dora=tuple(indicators),
                ura=ura if any(y in (1, 21) for y, _ in yaku) else (),
                deltas=deltas,
                pao=pao if pao != who else None,
            )
        )
    return out, ura


def _win_tile(steps: list[Step], who: int, from_who: int) -> int | None:
    for st in reversed(steps):
        if who == from_who and isinstance(st, Draw) and st.seat == who:
            return st.tile
        if who != from_who and isinstance(st, Discard):
            return st.tile
        if who != from_who and isinstance(st, Call) and st.meld.kind is MeldKind.KAKAN:
            return st.meld.added
    return None


def parse_tenhou6(text: str, source: str = "<tenhou6>") -> TenhouGame:
    """Read tenhou.net/6 JSON: one document whose ``log`` holds the hands, or one document per line
    (one hand each).

    Tile ids are not in this format: each tile takes the lowest free id of its
    kind when it first appears (deal, draws, indicators in play order; the red
    id for a red-five code), so the same log always gives the same ids. The
    dice are not recorded either: (0, 0) stands for "unknown". A kan's new
    indicator is placed right after its replacement draw.
    """
    docs: list[dict[str, Any]] = []
    # Deep nesting is refused before json reads it (100,000 levels were a RecursionError);
    # huge integers and non-finite numbers by the same reader as records'.
    depth = nesting_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise TenhouFormatError(
            source,
            f"nested {depth} levels deep, more than the {MAX_JSON_DEPTH} a tenhou.net/6 log has",
        )
    try:
        whole = safe_json(text, source)
        docs = [whole]
    except JsonInputError:
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                docs.append(safe_json(line, f"line {n}"))
            except JsonInputError as e:
                raise TenhouFormatError(source, str(e)) from None
    if not docs or not all(isinstance(d, dict) and isinstance(d.get("log"), list) for d in docs):
        raise TenhouFormatError(source, "expected tenhou.net/6 JSON objects with a 'log' list")
    rules = _json_rules(docs[0])
    names = docs[0].get("name", [""] * SEATS)
    hands: list[TenhouHand] = []
    for doc in docs:
        for raw in doc["log"]:
            hands.append(_json_hand(raw, len(hands), rules, source))
    return TenhouGame(
        source=source,
        format="tenhou6",
        rules=rules,
        players=tuple(str(n) for n in names),
        hands=tuple(hands),
        final=None,
    )


def load_log(path: Path) -> TenhouGame:
    """Read a Tenhou log file, mjlog XML or tenhou.net/6 JSON, chosen by its content."""
    try:
        if path.stat().st_size > MAX_LOG_BYTES:
            raise TenhouFormatError(
                str(path), f"larger than {MAX_LOG_BYTES} bytes: not a Tenhou log"
            )
        text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise TenhouFormatError(str(path), f"cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise TenhouFormatError(str(path), f"not UTF-8 text (byte {e.start})") from None
    head = text.lstrip()[:1]
    if head == "<":
        return parse_mjlog(text, str(path))
    if head == "{":
        return parse_tenhou6(text, str(path))
    raise TenhouFormatError(str(path), "neither an mjlog (XML) nor a tenhou.net/6 (JSON) log")
