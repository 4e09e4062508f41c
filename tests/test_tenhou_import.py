"""The Tenhou log importer: mjlog and tenhou.net/6 parsing, meld bit fields, red fives, and the
rebuilt wall.

The logs are real Tenhou games copied into tests/data/tenhou/ with their
licences (see tests/data/README.md).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mjspec.app.tenhou import (
    RED_FIVE_IDS,
    YAKU,
    Call,
    Discard,
    DoraRevealed,
    Draw,
    Drawn,
    MeldKind,
    RiichiStep,
    TenhouFormatError,
    TenhouGame,
    TenhouHand,
    Win,
    decode_meld,
    load_log,
    parse_mjlog,
    parse_tenhou6,
    tile_of,
)

DATA = Path(__file__).parent / "data" / "tenhou"
STANDARD_MJLOGS = sorted((DATA / "tenhou-mjx" / "mjlog").glob("*.mjlog")) + sorted(
    (DATA / "tenhou-dnovikoff" / "mjlog").glob("*.xml")
)
OTHER_MJLOGS = sorted(
    (DATA / "tenhou-dnovikoff" / "mjlog-nonstandard-rules").glob("*.xml")
) + sorted((DATA / "tenhou-dnovikoff" / "mjlog-sanma").glob("*.xml"))
MJSCORE = sorted((DATA / "tenhou-mjx" / "mjscore").glob("*.json"))
EXCERPTS = sorted(
    p for p in (DATA / "tenhou6json-mjai-reviewer").glob("*.json") if p.name != "manifest.json"
)
SYNTHETIC = {
    "confusing_nakis_2.json"
}  # a constructed converter case: five copies of 3s, not a playable hand


def _games(paths: list[Path]) -> list[TenhouGame]:
    return [load_log(p) for p in paths]


# ---------------------------------------------------------------- meld codes


def test_meld_bit_fields_decode_each_call_kind() -> None:
    # Chi by seat 3 of seat 2's 2p (id 40), with 3p 44 and 4p 48 (bug1.xml, hand 1).
    chi = decode_meld(3, 24583)
    assert (chi.kind, chi.source, chi.tiles, chi.called) == (MeldKind.CHI, 2, (40, 44, 48), 40)
    # Seat 0's pon of white dragons (m=47658, 125 left out) and the added kan of 125 on it (same
    # hand).
    pon_white = decode_meld(0, 47658)
    assert (pon_white.kind, pon_white.tiles) == (MeldKind.PON, (124, 126, 127))
    kakan = decode_meld(0, 47666)
    assert (kakan.kind, kakan.source, kakan.tiles, kakan.added) == (
        MeldKind.KAKAN,
        0,
        (124, 125, 126, 127),
        125,
    )
    # Pon: kind 11 (3p), copy 1 left out, the first remaining copy called, from the left (relative
    # 3).
    code = ((11 * 3 + 0) << 9) | (1 << 5) | 0x8 | 3
    pon = decode_meld(1, code)
    assert (pon.kind, pon.source, pon.tiles, pon.called) == (MeldKind.PON, 0, (44, 46, 47), 44)
    # Concealed kan of white dragons (ids 124..127) and an open kan of 1m taken from across.
    ankan = decode_meld(2, 125 << 8)
    assert (ankan.kind, ankan.source, ankan.tiles, ankan.called) == (
        MeldKind.ANKAN,
        2,
        (124, 125, 126, 127),
        None,
    )
    minkan = decode_meld(2, (2 << 8) | 2)
    assert (minkan.kind, minkan.source, minkan.tiles, minkan.called) == (
        MeldKind.MINKAN,
        0,
        (0, 1, 2, 3),
        2,
    )


def test_red_fives_are_ids_16_52_88() -> None:
    assert [tile_of(i).mpsz for i in (16, 17, 52, 53, 88, 89)] == [
        "0m",
        "5m",
        "0p",
        "5p",
        "0s",
        "5s",
    ]
    assert not tile_of(16, red_fives=False).red
    with pytest.raises(ValueError, match="0-135"):
        tile_of(136)


# -------------------------------------------------- every call in the corpus


def _follow(hand: TenhouHand) -> None:
    """Walk a hand's steps keeping each seat's tiles; fail on any step a real table could not have
    made."""
    held = [Counter(h) for h in hand.dealt]
    melds: list[list[tuple[int, ...]]] = [[] for _ in range(4)]
    last_discard: tuple[int, int] | None = None
    for step in hand.steps:
        if isinstance(step, Draw):
            held[step.seat][step.tile] += 1
        elif isinstance(step, Discard):
            assert (
                held[step.seat][step.tile] > 0
            ), f"hand {hand.index}: seat {step.seat} discards {step.tile} it does not hold"
            held[step.seat][step.tile] -= 1
            last_discard = (step.seat, step.tile)
        elif isinstance(step, Call):
            m = step.meld
            if m.kind in (MeldKind.CHI, MeldKind.PON, MeldKind.MINKAN):
                assert last_discard == (
                    m.source,
                    m.called,
                ), f"hand {hand.index}: {m} does not claim the last discard {last_discard}"
                own = [t for t in m.tiles if t != m.called]
                if m.kind is MeldKind.CHI:
                    assert m.source == (m.seat + 3) % 4 and len({t // 4 for t in m.tiles}) == 3
            elif m.kind is MeldKind.KAKAN:
                assert m.added is not None
                own = [m.added]
                pon = [x for x in melds[m.seat] if set(x) == set(m.tiles) - {m.added}]
                assert pon, f"hand {hand.index}: added kan {m} has no pon of those tiles"
                melds[m.seat].remove(pon[0])
            else:
                own = list(m.tiles)
            for t in own:
                assert (
                    held[m.seat][t] > 0
                ), f"hand {hand.index}: seat {m.seat} calls {m} without holding {t}"
                held[m.seat][t] -= 1
            melds[m.seat].append(m.tiles)
    for result in hand.results:
        if isinstance(result, Win) and result.closed:
            expect = +held[result.seat]
            if not result.tsumo:
                assert result.win_tile is not None
                expect[result.win_tile] += 1
            assert expect == Counter(
                result.closed
            ), f"hand {hand.index}: the winner's concealed tiles differ"
            if result.yakuman:
                continue  # a yakuman lists no dora
            # Red fives: the aka dora han equal the red ids in the winning hand, melds included.
            reds = sum(1 for t in result.closed if t in RED_FIVE_IDS) + sum(
                1 for meld in melds[result.seat] for t in meld if t in RED_FIVE_IDS
            )
            assert (
                dict(result.yaku).get(54, 0) == reds
            ), f"hand {hand.index}: aka dora {dict(result.yaku).get(54, 0)} vs {reds} red ids"


@pytest.mark.parametrize("path", STANDARD_MJLOGS, ids=lambda p: p.name)
def test_every_mjlog_step_is_a_possible_table_step(path: Path) -> None:
    game = load_log(path)
    assert (
        game.format == "mjlog"
        and game.complete
        and game.rules.standard_four_player
        and game.rules.red_fives
    )
    for hand in game.hands:
        _follow(hand)
        # The score chain: each hand starts from the previous hand's scores plus its changes and
        # riichi deposits.
    for prev, nxt in zip(game.hands, game.hands[1:]):
        deposits = [0] * 4
        for st in prev.steps:
            if isinstance(st, RiichiStep) and st.step == 2:
                deposits[st.seat] += 1000
        changes = [sum(r.deltas[s] for r in prev.results) for s in range(4)]
        assert [prev.scores[s] - deposits[s] + changes[s] for s in range(4)] == list(nxt.scores)


def test_game_rules_and_results_are_read() -> None:
    games = {p.name: load_log(p) for p in STANDARD_MJLOGS}
    pao = games["pao-tsumo.mjlog"]
    win = pao.hands[-1].results[0]
    assert (
        isinstance(win, Win)
        and win.tsumo
        and win.pao == 0
        and win.yakuman == (39,)
        and win.han == 13
        and win.limit == 5
    )
    assert pao.final is not None and pao.final[0] == (-100, -50.0)
    doubles = [h for h in games["double-ron.mjlog"].hands if len(h.results) == 2]
    assert doubles and all(isinstance(r, Win) and not r.tsumo for r in doubles[0].results)
    kinds = Counter(
        r.kind for g in games.values() for h in g.hands for r in h.results if isinstance(r, Drawn)
    )
    assert {"exhaustive", "yao9", "reach4", "kaze4", "kan4", "nm"} <= set(kinds)
    east_only = games["bye.xml"].rules
    assert not east_only.south_round and east_only.type_bits == 161
    # Every yaku id of every win is one the table knows, and ordinary wins carry fu.
    for g in games.values():
        for h in g.hands:
            for r in h.results:
                if isinstance(r, Win):
                    assert all(y in YAKU for y in r.yaku_ids) and (r.fu or 0) >= 20


def test_non_standard_and_three_player_logs_are_read_and_marked() -> None:
    for game in _games(OTHER_MJLOGS):
        assert not game.rules.standard_four_player, game.source


# ------------------------------------------------ tenhou.net/6 JSON twins


def _kinds(hand: TenhouHand) -> list[tuple[str, int, str]]:
    """The play of a hand as (step, seat, tile in mpsz): what both formats must agree on."""
    out: list[tuple[str, int, str]] = []
    for st in hand.steps:
        if isinstance(st, Draw):
            out.append(("draw", st.seat, tile_of(st.tile).mpsz))
        elif isinstance(st, Discard):
            out.append(("discard", st.seat, tile_of(st.tile).mpsz))
        elif isinstance(st, Call):
            tiles = "".join(tile_of(t).mpsz for t in st.meld.tiles)
            out.append((st.meld.kind.value, st.meld.seat, tiles))
        elif isinstance(st, RiichiStep):
            out.append((f"riichi{st.step}", st.seat, ""))
    return out


@pytest.mark.parametrize("path", MJSCORE, ids=lambda p: p.name)
def test_tenhou6_json_twin_reads_as_the_same_game(path: Path) -> None:
    json_game = load_log(path)
    xml_game = load_log(path.parent.parent / "mjlog" / (path.stem + ".mjlog"))
    assert (
        json_game.format == "tenhou6" and json_game.rules.red_fives and json_game.rules.south_round
    )
    assert len(json_game.hands) == len(xml_game.hands)
    for jh, xh in zip(json_game.hands, xml_game.hands):
        assert (jh.round, jh.honba, jh.deposits, jh.dealer, jh.scores) == (
            xh.round,
            xh.honba,
            xh.deposits,
            xh.dealer,
            xh.scores,
        )
        assert [sorted(tile_of(t).mpsz for t in d) for d in jh.dealt] == [
            sorted(tile_of(t).mpsz for t in d) for d in xh.dealt
        ]
        assert _kinds(jh) == _kinds(xh), f"hand {jh.index}"
        _follow(jh)
        assert tile_of(jh.dora_indicator) == tile_of(xh.dora_indicator)
        assert [tile_of(t) for t in jh.kan_indicators] == [tile_of(t) for t in xh.kan_indicators]
        assert len(jh.results) == len(xh.results)
        for jr, xr in zip(jh.results, xh.results):
            assert jr.deltas == xr.deltas
            if isinstance(xr, Win):
                assert isinstance(jr, Win)
                assert (jr.seat, jr.source, jr.han, jr.points, jr.pao) == (
                    xr.seat,
                    xr.source,
                    xr.han,
                    xr.points,
                    xr.pao,
                )
                assert sorted(y for y, h in jr.yaku if h) == sorted(
                    y for y, h in xr.yaku if h
                )  # mjlog also lists 0-han dora
                assert jr.fu in (None, xr.fu) and (jr.fu is not None or xr.limit > 0)
            else:
                assert isinstance(jr, Drawn) and jr.kind == xr.kind


@pytest.mark.parametrize(
    "path", [p for p in EXCERPTS if p.name not in SYNTHETIC], ids=lambda p: p.name
)
def test_tenhou6_excerpts_read_in_play_order(path: Path) -> None:
    game = load_log(path)
    for hand in game.hands:
        _follow(hand)
        for r in hand.results:
            if isinstance(r, Win):
                assert r.win_tile is not None and r.han >= 1


def test_ambiguous_calls_are_placed_by_search() -> None:
    # Seat 2 discards 7z before seat 3's "4747p47" (a pon from the left: seat 2); seat 2's own
    # 5m pon comes from seat 1 and is later made an added kan with the red 5m ("k51151515").
    game = load_log(DATA / "tenhou6json-mjai-reviewer" / "confusing_nakis_0.json")
    calls = [
        (
            st.meld.kind.value,
            st.meld.seat,
            st.meld.source,
            "".join(tile_of(t).mpsz for t in st.meld.tiles),
        )
        for st in game.hands[0].steps
        if isinstance(st, Call)
    ]
    assert calls == [
        ("pon", 3, 2, "6z6z6z"),
        ("pon", 2, 3, "7z7z7z"),
        ("pon", 2, 1, "5m5m5m"),
        ("chi", 2, 1, "0s6s7s"),
        ("kakan", 2, 2, "0m5m5m5m"),
        ("pon", 1, 2, "2z2z2z"),
        ("pon", 0, 1, "7m7m7m"),
    ]


# ------------------------------------------------------------------- errors


def test_a_synthetic_log_with_five_copies_is_refused_naming_file_and_hand() -> None:
    with pytest.raises(
        TenhouFormatError, match=r"confusing_nakis_2\.json, hand 0, log: a fifth copy of tile 35"
    ):
        load_log(DATA / "tenhou6json-mjai-reviewer" / "confusing_nakis_2.json")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "<mjloggm><GO type='169'/><INIT seed='0,0,0,1,2' ten='250,250,250,250' oya='0' "
            "hai0='1' hai1='' hai2='' hai3=''/></mjloggm>",
            r"x\.mjlog, hand 0, <INIT seed=\"0,0,0,1,2\".*seed needs 6 numbers",
        ),
        (
            "<mjloggm><GO type='169'/><T5/></mjloggm>",
            r"x\.mjlog, <T5>: a draw or discard outside a hand",
        ),
        (
            "<mjloggm><GO type='169'/><N who='9' m='1'/></mjloggm>",
            r"x\.mjlog, <N who=\"9\" m=\"1\">: a call outside a hand",
        ),
        ("<mjloggm><INIT/>", r"x\.mjlog: not XML"),
        ("<mjloggm></mjloggm>", r"x\.mjlog: no <GO type> tag"),
    ],
)
def test_malformed_mjlog_errors_name_file_hand_and_tag(text: str, message: str) -> None:
    with pytest.raises(TenhouFormatError, match=message):
        parse_mjlog(text, "x.mjlog")


def test_malformed_tile_and_result_are_refused() -> None:
    good = (DATA / "tenhou-dnovikoff" / "mjlog" / "bug1.xml").read_text("utf-8")
    with pytest.raises(TenhouFormatError, match=r"bug1, hand 0, <T999>: tile id 999 is not 0-135"):
        parse_mjlog(good.replace("<T118/>", "<T999/>", 1), "bug1")
    with pytest.raises(TenhouFormatError, match=r"hand 0, <AGARI .*unknown yaku id 99"):
        parse_mjlog(good.replace('yaku="8,1,52,1,54,2"', 'yaku="99,1"', 1), "bug1")
    with pytest.raises(TenhouFormatError, match=r"t\.json, hand 0, log.*"):
        parse_tenhou6('{"log": [[[0,0,0],[25000,25000,25000,25000],[11],[]]]}', "t.json")


def test_unknown_file_kind_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "x.txt"
    p.write_text("hello", "utf-8")
    with pytest.raises(TenhouFormatError, match="neither an mjlog"):
        load_log(p)


def test_dora_steps_match_the_indicators_of_wins() -> None:
    for game in _games(STANDARD_MJLOGS):
        for hand in game.hands:
            revealed = [hand.dora_indicator] + [
                st.tile for st in hand.steps if isinstance(st, DoraRevealed)
            ]
            for r in hand.results:
                if isinstance(r, Win):
                    assert list(r.dora) == revealed, f"{game.source} hand {hand.index}"


# ------------------------------------------------------------ the rebuilt wall


def test_rebuilt_wall_deals_the_logged_hands_indicators_and_replacements() -> None:
    from mjspec.app.registry import load_profile
    from mjspec.runtime.table import Round
    from mjspec.app.tenhou_replay import hand_wall

    profile = load_profile("riichi_planet")
    hands = 0
    for game in _games(STANDARD_MJLOGS):
        for th in game.hands:
            wall = hand_wall(th, profile, game.source)
            assert sorted(wall.drawing_order) == list(range(136)) and wall.dice == th.dice
            table = Round(profile, dealer=th.dealer, seed=0, wall=wall.tiles(True), dice=wall.dice)
            first = th.steps[0]
            assert isinstance(first, Draw) and first.seat == th.dealer
            for s in range(4):
                logged = list(th.dealt[s]) + ([first.tile] if s == th.dealer else [])
                assert sorted(table.hands[s]) == sorted(
                    tile_of(t) for t in logged
                ), f"{game.source} hand {th.index} seat {s}"
            assert table.dead is not None
            assert table.dead.indicators() == [tile_of(th.dora_indicator)]
            # Replacement draws: the draw right after a kan, in order, comes from the dead wall.
            replacements = [
                st.tile
                for prev, st in zip(
                    [s for s in th.steps if not isinstance(s, (RiichiStep, DoraRevealed))][:-1],
                    [s for s in th.steps if not isinstance(s, (RiichiStep, DoraRevealed))][1:],
                )
                if isinstance(st, Draw)
                and isinstance(prev, Call)
                and prev.meld.seat == st.seat
                and prev.meld.kind in (MeldKind.ANKAN, MeldKind.MINKAN, MeldKind.KAKAN)
            ]
            for k, t in enumerate(replacements):
                assert table.dead.draw() == tile_of(
                    t
                ), f"{game.source} hand {th.index}: replacement {k}"
            hands += 1
    assert hands == sum(len(g.hands) for g in _games(STANDARD_MJLOGS))


def test_rebuilt_wall_reproduces_every_draw_when_played() -> None:
    """Playing the logged decisions on the rebuilt wall leaves every non-winner holding the log's
    tiles."""
    from mjspec.app.registry import load_profile
    from mjspec.app.tenhou_replay import replay_hand

    profile = load_profile("riichi_planet")
    game = load_log(DATA / "tenhou-dnovikoff" / "mjlog" / "bug1.xml")
    for th in game.hands:
        outcome = replay_hand(th, profile, source=game.source)
        assert outcome.legal, outcome.problems
        assert not [p for p in outcome.problems if " holds " in p], outcome.problems


def test_match_result_rounds_halves_away_from_zero_like_tenhou() -> None:
    """bug3.xml ends with -7,500 points for seat 3: Tenhou counts -8,000 (result -58), and 51,400
    for first place."""
    from mjspec.runtime.match import Match
    from mjspec.app.registry import load_profile

    game = load_log(DATA / "tenhou-dnovikoff" / "mjlog" / "bug3.xml")
    assert game.final is not None
    match = Match(load_profile("riichi_tenhou"), 0)
    match.totals = [score for score, _ in game.final]
    result = match.result()
    assert result is not None
    assert (
        [round(r, 1) for r in result] == [uma for _, uma in game.final] == [-13.0, 9.0, 62.0, -58.0]
    )


def test_every_mapped_yaku_is_a_pattern_of_riichi_tenhou() -> None:
    from mjspec.app.registry import load_profile

    ids = {p.id for p in load_profile("riichi_tenhou").patterns}
    mapped = {pattern for _, pattern in YAKU.values() if pattern is not None}
    assert mapped <= ids, sorted(mapped - ids)
    assert [i for i, (_, pattern) in YAKU.items() if pattern is None] == [
        36
    ]  # renhou, in neither rule set
