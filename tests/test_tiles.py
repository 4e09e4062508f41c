"""Tiles, tile sets and the mpsz notation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mjspec.runtime.tiles import (
    N_ALL_KINDS,
    N_KINDS,
    NotationError,
    Suit,
    Tile,
    TileSet,
    counts34,
    format_tiles,
    kind_of,
    number_of_kind,
    parse_tiles,
    suit_of_kind,
)

RED_FIVE_KINDS = (4, 13, 22)
RIICHI = TileSet(honors=True, red_fives=(Suit.MAN, Suit.PIN, Suit.SOU))

tiles_st = st.one_of(
    st.integers(0, N_ALL_KINDS - 1).map(Tile),
    st.sampled_from(RED_FIVE_KINDS).map(lambda k: Tile(k, red=True)),
)


# --- kinds and tiles ---------------------------------------------------------


def test_kind_helpers_round_trip_every_kind() -> None:
    for kind in range(N_ALL_KINDS):
        assert kind_of(suit_of_kind(kind), number_of_kind(kind)) == kind
    assert kind_of("m", 1) == 0
    assert kind_of(Suit.PIN, 5) == 13
    assert kind_of("z", 7) == 33
    assert kind_of("f", 8) == 41


@pytest.mark.parametrize(("suit", "number"), [("z", 8), ("m", 0), ("m", 10), ("f", 9), ("x", 1)])
def test_kind_of_rejects_what_does_not_exist(suit: str, number: int) -> None:
    with pytest.raises(ValueError):
        kind_of(suit, number)


@pytest.mark.parametrize(
    ("kind", "red"), [(-1, False), (42, False), (0, True), (27, True), (31, True)]
)
def test_tile_constructor_validates(kind: int, red: bool) -> None:
    with pytest.raises(ValueError):
        Tile(kind, red=red)


def test_tile_properties() -> None:
    five = Tile(4, red=True)
    assert (five.suit, five.number, five.mpsz, str(five)) == (Suit.MAN, 5, "0m", "0m")
    assert Tile(4) < five < Tile(5)
    east, white, plum, nine_sou = Tile(27), Tile(31), Tile(34), Tile(26)
    assert east.is_wind and east.is_honor and not east.is_dragon and not east.is_terminal
    assert white.is_dragon and white.mpsz == "5z"
    assert plum.is_flower and not plum.is_honor and plum.mpsz == "1f"
    assert nine_sou.is_terminal and nine_sou.is_terminal_or_honor and nine_sou.is_suited
    assert not Tile(13).is_terminal_or_honor
    assert Tile(41).number == 8


def test_tile_parse_one() -> None:
    assert Tile.parse("0p") == Tile(13, red=True)
    assert Tile.parse(" 7z ") == Tile(33)
    with pytest.raises(NotationError, match="exactly one tile"):
        Tile.parse("12m")


# --- notation -----------------------------------------------------------------


def test_parse_runs_and_order() -> None:
    assert parse_tiles("123m456p11z") == [Tile(k) for k in (0, 1, 2, 12, 13, 14, 27, 27)]
    assert parse_tiles("3m1m 2m") == [Tile(2), Tile(0), Tile(1)]
    assert parse_tiles("1 2 m") == [Tile(0), Tile(1)]
    assert parse_tiles("0s8f") == [Tile(22, red=True), Tile(41)]
    assert parse_tiles("") == []
    assert parse_tiles("   ") == []


@given(st.lists(tiles_st, max_size=30))
def test_format_parse_round_trip(tiles: list[Tile]) -> None:
    text = format_tiles(tiles)
    assert parse_tiles(text) == tiles
    # Printing again is stable: the compressed form is canonical.
    assert format_tiles(parse_tiles(text)) == text


def test_format_compresses_consecutive_suits_only() -> None:
    assert format_tiles(parse_tiles("1m2m1p3m0m")) == "12m1p30m"
    assert format_tiles([]) == ""


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("123m12", 4, "'12' at position 4 has no suit letter"),
        ("1m 2", 3, "'2' at position 3 has no suit letter"),
        ("12x", 2, "unknown suit letter 'x' at position 2"),
        ("12M", 2, "unknown suit letter 'M'"),
        ("m", 0, "suit letter 'm' at position 0 has no digits"),
        ("11m p", 4, "suit letter 'p' at position 4 has no digits"),
        ("18z", 1, "'8z' at position 1 is not a tile"),
        ("0z", 0, "'0z' at position 0 is not a tile"),
        ("9f", 0, "'9f' at position 0 is not a tile"),
        ("0f", 0, "'0f' at position 0 is not a tile"),
        ("1m,2m", 2, "unexpected character ',' at position 2"),
    ],
)
def test_notation_errors_name_text_and_position(text: str, position: int, fragment: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_tiles(text)
    assert fragment in str(info.value)
    assert repr(text) in str(info.value)
    assert info.value.position == position
    assert info.value.text == text


def test_notation_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_tiles("1")


# --- tile sets -----------------------------------------------------------------


def test_tileset_sizes() -> None:
    sichuan = TileSet()
    assert sichuan.size() == len(sichuan.all_tiles()) == 108
    assert sichuan.kinds() == tuple(range(27))
    assert RIICHI.size() == len(RIICHI.all_tiles()) == 136
    assert sum(t.red for t in RIICHI.all_tiles()) == 3
    assert RIICHI.kinds() == tuple(range(34))
    flowers = TileSet(honors=True, flowers=True)
    assert flowers.size() == len(flowers.all_tiles()) == 144
    assert flowers.flower_kinds() == tuple(range(34, 42))
    assert flowers.kinds() == tuple(range(N_KINDS))
    assert TileSet(suits=(Suit.PIN, Suit.MAN), copies=2).size() == 36


def test_all_tiles_is_the_canonical_wall() -> None:
    wall = RIICHI.all_tiles()
    assert wall == sorted(wall)
    assert counts34(wall) == [4] * N_KINDS
    fives = [t for t in wall if t.kind == 4]
    assert fives == [Tile(4), Tile(4), Tile(4), Tile(4, red=True)]


def test_tileset_normalises_and_validates() -> None:
    assert TileSet(suits=(Suit.SOU, Suit.MAN)) == TileSet(suits=(Suit.MAN, Suit.SOU))
    with pytest.raises(ValueError, match="red_fives"):
        TileSet(suits=(Suit.MAN,), red_fives=(Suit.PIN,))
    with pytest.raises(ValueError):
        TileSet(suits=(Suit.HONOR,))
    with pytest.raises(ValueError):
        TileSet(suits=(Suit.MAN, Suit.MAN))
    with pytest.raises(ValueError):
        TileSet(copies=0)


def test_refusals() -> None:
    sichuan = TileSet()
    assert sichuan.refusal(Tile(4)) is None
    assert sichuan.refusal(Tile.parse("1z")) == "this profile has no honor tiles (got 1z)"
    assert sichuan.refusal(Tile.parse("0m")) == "this profile has no red fives (got 0m)"
    assert sichuan.refusal(Tile.parse("3f")) == "this profile has no flowers (got 3f)"
    assert (
        TileSet(suits=(Suit.MAN, Suit.PIN)).refusal(Tile.parse("1s"))
        == "this profile has no sou tiles (got 1s)"
    )
    only_pin = TileSet(red_fives=(Suit.PIN,))
    assert only_pin.refusal(Tile.parse("0p")) is None
    assert only_pin.refusal(Tile.parse("0s")) == "this profile has red fives only in p (got 0s)"
    assert all(RIICHI.refusal(t) is None for t in RIICHI.all_tiles())


def test_parse_with_tileset_refuses_missing_tiles() -> None:
    assert parse_tiles("123m0p", RIICHI)[-1] == Tile(13, red=True)
    with pytest.raises(NotationError) as info:
        parse_tiles("123m1z", TileSet())
    assert "this profile has no honor tiles (got 1z)" in str(info.value)
    assert info.value.position == 4
    with pytest.raises(NotationError, match="no flowers"):
        parse_tiles("2f", RIICHI)


# --- counts ----------------------------------------------------------------------


def test_counts34() -> None:
    counts = counts34(parse_tiles("0m55m7z"))
    assert len(counts) == N_KINDS
    assert counts[4] == 3 and counts[33] == 1 and sum(counts) == 4
    with pytest.raises(ValueError, match="flowers"):
        counts34(parse_tiles("1m1f"))
