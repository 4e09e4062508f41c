"""Issue 13 (rule fidelity): each defect that outside checks found, pinned by a scenario on an
arranged wall or a scoring request. Each test names the item and the rule it checks."""

from __future__ import annotations

from pathlib import Path

from mjspec.runtime.actions import Action, ActionKind
from mjspec.runtime.bots import RandomBot
from mjspec.runtime.match import play_hand
from mjspec.runtime.options import bind_options
from mjspec.app.records import match_record, replay
from mjspec.app.registry import load_profile
from mjspec.runtime.scoring import evaluate
from mjspec.runtime.table import Phase, Round
from mjspec.runtime.tiles import Tile

from test_table import GB, act, arranged, options, pass_claims, tsumogiri
from handkit import scored_settlement

CLASSICAL = load_profile("classical_xmj")


# ---- item 12: bonus tiles wherever they can be --------------------------------------------------


def test_12_a_classical_bonus_tile_is_declared_never_discarded_while_it_can_be_replaced() -> None:
    # M 31: bonus tiles are declared; the book lets them be declared at any time, not discarded.
    hand = arranged(CLASSICAL, ["123456789m1234p5p", None, None, None], draws="1f")
    act(hand, ActionKind.DISCARD, 0, "4p")
    while hand.phase is Phase.CLAIM:
        act(hand, ActionKind.PASS, hand.pending_seats()[0])
    assert hand.turn == 1 and str(hand.last_draw) == "1f"
    legal = hand.legal_actions(1)
    assert Action(ActionKind.FLOWER, 1, tile=Tile.parse("1f")) in legal
    assert not any(
        a.kind is ActionKind.DISCARD and a.tile is not None and a.tile.is_flower for a in legal
    )


def test_12_a_gb_flower_may_be_discarded_and_nobody_claims_it() -> None:
    # 002 §1: a flower may be retained and later discarded; a discarded flower cannot be claimed.
    hand = arranged(GB, ["1f123456789m234p", None, None, None], missing="ssss")
    assert ActionKind.FLOWER in options(hand, 0)
    act(hand, ActionKind.DISCARD, 0, "1f")
    assert hand.phase is Phase.TURN and hand.turn == 1  # no claim window on a flower
    assert (
        hand.exhausted_kinds() == ""
    )  # a discarded flower is no hand-forming kind (the IndexError of item 12)


def test_12_random_bots_play_classical_hands_to_their_end() -> None:
    # The crash of item 12: a random bot's hand holding a flower ended in IndexError.
    for seed in range(12):
        hand = Round(CLASSICAL, seed=seed)
        play_hand(hand, [RandomBot(seed * 4 + i) for i in range(4)])
        assert hand.over and hand.events[-1].kind == "hand_end"
        assert not any(t.is_flower for ds in hand.discards for t in ds if hand.wall_remaining > 0)


# ---- item 13: the opening declaration of bonus tiles (M 32-33) --------------------------------


def test_13_dealt_bonus_tiles_are_declared_and_replaced_before_easts_first_discard() -> None:
    # Seat 1 is dealt a flower; its replacement (from the live wall's front, M 31) completes a
    # hand that wins on East's first discard: Earth's Blessing.
    hand = arranged(CLASSICAL, ["1z23456789m12345p", "1f11m234p567p789s9s", None, None], draws="9s")
    assert [t.mpsz for t in hand.flowers[1]] == ["1f"] and "9s" in [t.mpsz for t in hand.hands[1]]
    assert hand.phase is Phase.TURN and hand.turn == 0 and hand.turns_taken == [0, 0, 0, 0]
    act(hand, ActionKind.DISCARD, 0, "1z")
    assert hand.phase is Phase.TURN  # 1z completes nobody's hand
    hand = arranged(CLASSICAL, ["1m23456789m12345p", "1f11m234p567p789s9s", None, None], draws="9s")
    act(hand, ActionKind.DISCARD, 0, "1m")
    assert ActionKind.RON in options(hand, 1)
    act(hand, ActionKind.RON, 1)
    win = next(e for e in hand.events if e.kind == "win")
    assert "earths_blessing" in win.data["patterns"]


def test_13_with_flowers_loose_east_keeps_heavens_blessing() -> None:
    # East is dealt a flower and a complete hand but for one tile; the loose-tile replacement
    # completes it. The replacement belongs to the deal, so it is Heaven's Blessing.
    loose = bind_options(CLASSICAL, {"FlowersLoose": True})
    hand = arranged(loose, ["1f123456789m123p5p", None, None, None], back="5p")
    assert [t.mpsz for t in hand.flowers[0]] == ["1f"]
    assert ActionKind.TSUMO in options(hand, 0)
    act(hand, ActionKind.TSUMO, 0)
    win = next(e for e in hand.events if e.kind == "win")
    assert "heavens_blessing" in win.data["patterns"]


# ---- item 1: the GB round wind (002 §6) ----------------------------------------------------------


def test_01_a_gb_match_plays_four_wind_rounds_of_four_hands() -> None:
    # 002 §6: East 1 to North 4. Every win's prevalent-wind pung is a pung of the round's wind.
    from mjspec.runtime.bots import GreedyBot
    from mjspec.runtime.observation import observe
    from mjspec.runtime.match import play_match
    from mjspec.runtime.table import WINDS

    match = play_match(GB, [GreedyBot(2 * 4 + i) for i in range(4)], seed=2)
    assert len(match.hands) == 16 and match.over
    assert [h.round_wind for h in match.hands] == [w for w in WINDS for _ in range(4)]
    assert [h.dealer for h in match.hands] == [0, 1, 2, 3] * 4
    assert (
        GB.table.match.rounds == 4
    )  # the spec states the structure; no fixed hand count stands in for it
    record = match_record(match)
    assert [h["round_wind"] for h in record["hands"]] == list("EEEESSSSWWWWNNNN")
    assert replay(record).totals == tuple(match.totals)
    # The round wind reaches the score: a win's prevalent-wind pung is of the round's wind.
    for h in match.hands:
        for w in h.wins:
            if "prevalent_wind" in [p.id for p in w.score.patterns]:
                kind = 27 + WINDS.index(h.round_wind)
                held = (
                    [t.kind for t in h.hands[w.seat]]
                    + [t.kind for m in h.melds[w.seat] for t in m.tiles]
                    + [w.tile.kind]
                )
                assert held.count(kind) >= 3


# ---- item 2: Last Tile at the GB table (002 §4) --------------------------------------------------


def test_02_winning_on_the_last_copy_in_view_scores_last_tile() -> None:
    # Seat 1 waits on 5p alone (Pure Straight, 16 fan). East discards three 5p, which seat 1 lets
    # pass; seat 2 then discards the fourth, the last copy not yet in view: Last Tile, 4 fan.
    hand = arranged(
        GB,
        ["555p123s456s789s1z2z", "123456789m11p46p", "5p147s258s369s3z4z6z", None],
        draws="6z6z6z7z7z7z2z3z4z1z",
        missing="mmmm",
    )
    for turn in range(3):
        assert hand.turn == 0
        act(hand, ActionKind.DISCARD, 0, "5p")
        assert ActionKind.RON in options(hand, 1)
        if turn == 0:  # the first copy: nothing else of it in view
            score = hand.ron_score(1, Tile.parse("5p"), robbing=False)
            assert score is not None and "last_tile" not in [p.id for p in score.patterns]
        pass_claims(hand)
        for _ in range(3 if turn < 2 else 1):
            tsumogiri(hand)
    assert hand.turn == 2 and hand.shown_copies(Tile.parse("5p").kind) == 3
    act(hand, ActionKind.DISCARD, 2, "5p")
    act(hand, ActionKind.RON, 1)
    pass_claims(hand)
    win = next(e for e in hand.events if e.kind == "win")
    assert "last_tile" in win.data["patterns"]


# ---- items 4, 8, 9, 17: requests no table could produce are refused with a reason ---------------


def _answer(
    profile: str,
    concealed: str,
    win_tile: str,
    win: str,
    melds: list[tuple[str, str]] = (),
    **context: object,
) -> dict[str, object]:
    from mjspec.app.cli import score_request

    return score_request(
        {
            "profile": profile,
            "concealed": concealed,
            "win_tile": win_tile,
            "win": win,
            "melds": [{"type": t, "tiles": m} for t, m in melds],
            "context": context,
        }
    )


def test_04_a_chi_meld_is_no_legal_sichuan_win() -> None:
    # 000 and 004 have no chii: the request (pon 777p, chi 123p, win 2s tsumo, missing m).
    for pid in ("sichuan_tfmj", "sichuan_planet"):
        got = _answer(
            pid, "2345678s", "2s", "tsumo", [("pon", "777p"), ("chi", "123p")], missing_suit="m"
        )
        assert (
            got["legal"] is False
            and "chi" in str(got["reason"])
            and "melds[1]" in str(got["reason"])
        )
        pons = _answer(
            pid, "2345678s", "2s", "tsumo", [("pon", "777p"), ("pon", "111p")], missing_suit="m"
        )
        assert pons["legal"] is True  # the same hand with pungs only is a win
    gb = _answer("gb_mcr", "2345678s55z", "2s", "ron", [("chi", "123p")])
    assert "error" in gb or "chi" not in str(gb.get("reason"))  # GB has chi: never refused for it


def test_08_contradictory_situations_are_refused() -> None:
    hand = ("123m456p789s1z", "1z")
    kong = [("ankan", "2222z")]
    cases = [
        # 001: Tenhou/Chiihou come before any kan (and any call)
        ("riichi_planet", "tsumo", kong, {"first_draw": True, "seat_wind": "S"}, "first_draw"),
        # robbing a kong is a win on another player's tile, never a self-draw (classical_xmj too)
        ("riichi_planet", "tsumo", kong, {"robbing_kong": True}, "robbing_kong"),
        ("classical_xmj", "tsumo", kong, {"robbing_kong": True}, "robbing_kong"),
        # 001: a kong's replacement comes from the dead wall: Rinshan is never Haitei
        ("riichi_planet", "tsumo", kong, {"after_kong": True, "last_tile": True}, "after_kong"),
        # no kong with no tile left to draw: Chankan is never Houtei
        ("riichi_planet", "ron", kong, {"robbing_kong": True, "last_tile": True}, "last_tile"),
    ]
    for pid, win, melds, ctx, named in cases:
        got = _answer(pid, *hand, win, melds, **ctx)
        assert got["legal"] is False and named in str(got["reason"]), (pid, ctx, got)
        alone = {k: v for k, v in ctx.items() if k in ("seat_wind", named)}
        fine = _answer(
            pid,
            *hand,
            "ron" if named == "robbing_kong" else win,
            [] if named == "first_draw" else melds,
            **alone,
        )
        assert "contradicts" not in str(fine.get("reason")), (pid, alone, fine)
    # Without a dead wall a kong's replacement may be the wall's last tile (000: both count).
    both = _answer(
        "sichuan_tfmj",
        "123456789m1s",
        "1s",
        "tsumo",
        [("ankan", "2222s")],
        missing_suit="p",
        after_kong=True,
        last_tile=True,
    )
    assert both["legal"] is True


def _both_backends(request: dict[str, object]) -> dict[str, object]:
    """The answer of the contract path (native where built) and of the Python path, which must
    agree; a refused situation must be declined by the C request reader so the reason stays
    Python's."""
    from mjspec.app.cli import score_request
    from mjspec.runtime.backend import native_module
    from mjspec.runtime.native_contract import _accepted, _limits
    from mjspec.runtime.context import MAX_COUNT
    from mjspec.runtime.request import parse_request

    profile = load_profile(str(request["profile"]))
    hand, ctx = parse_request(profile, request)
    python = evaluate(profile, hand, ctx).to_contract()
    assert score_request(dict(request)) == python, request
    reader = native_module("runtime._request")
    if reader is not None and python["legal"] is False:
        packed = reader.pack(
            dict(request), _accepted(profile), profile.tiles.copies, MAX_COUNT, *_limits(profile)
        )
        assert packed is None, request  # declined: the Python path answers with its reason
    return python


def test_08_more_contradictory_situations_are_refused_on_both_backends() -> None:
    kong = [{"type": "ankan", "tiles": "2222s"}]
    sichuan = {"concealed": "123456789m1s", "win_tile": "1s", "melds": kong}
    riichi = {
        "concealed": "123m456p789s1z",
        "win_tile": "1z",
        "melds": [{"type": "ankan", "tiles": "2222z"}],
    }
    open_hand = {"concealed": "123m456p789s11z22z", "win_tile": "2z", "melds": []}
    cases = [
        # 000 §7 Shoot After Kong: a win on the kong player's discard, never a self-draw
        (
            "sichuan_tfmj",
            sichuan,
            "tsumo",
            {"missing_suit": "p", "kong_shot": True},
            "kong_shot contradicts a tsumo",
        ),
        (
            "sichuan_planet",
            sichuan,
            "tsumo",
            {"missing_suit": "p", "kong_shot": True},
            "kong_shot contradicts a tsumo",
        ),
        # 001 rinshan, 000 §7 Kong Bloom: a self-draw on the replacement tile, never a ron
        (
            "riichi_planet",
            riichi,
            "ron",
            {"after_kong": True, "riichi": True},
            "after_kong contradicts a ron",
        ),
        (
            "sichuan_tfmj",
            sichuan,
            "ron",
            {"missing_suit": "p", "after_kong": True},
            "after_kong contradicts a ron",
        ),
        (
            "gb_mcr",
            {**riichi, "concealed": "123m456p789s1z"},
            "ron",
            {"after_kong": True},
            "after_kong contradicts a ron",
        ),
        # the winning tile is a discard or an added kong's tile, not both
        (
            "sichuan_tfmj",
            sichuan,
            "ron",
            {"missing_suit": "p", "kong_shot": True, "robbing_kong": True},
            "kong_shot contradicts robbing_kong",
        ),
        # 001: Tenhou/Chiihou before any kan; classical_xmj's reading beside its blessings
        (
            "riichi_planet",
            open_hand,
            "tsumo",
            {"first_draw": True, "after_kong": True},
            "first_draw contradicts after_kong",
        ),
        (
            "classical_xmj",
            open_hand,
            "tsumo",
            {"first_draw": True, "after_kong": True},
            "first_draw contradicts after_kong",
        ),
        (
            "classical_xmj",
            open_hand,
            "ron",
            {"first_draw": True, "kong_shot": True, "seat_wind": "S"},
            "first_draw contradicts kong_shot",
        ),
        (
            "classical_xmj",
            open_hand,
            "ron",
            {"first_draw": True, "robbing_kong": True, "seat_wind": "S"},
            "first_draw contradicts robbing_kong",
        ),
        # 001: riichi is declared with a discard, Tenhou/Chiihou come before the winner's first
        # discard
        (
            "riichi_planet",
            open_hand,
            "tsumo",
            {"first_draw": True, "riichi": True, "seat_wind": "S"},
            "first_draw contradicts riichi",
        ),
        (
            "riichi_planet",
            open_hand,
            "tsumo",
            {"first_draw": True, "double_riichi": True},
            "first_draw contradicts double_riichi",
        ),
        # M 55: Original Call is declared with the first discard
        (
            "classical_xmj",
            open_hand,
            "tsumo",
            {"first_draw": True, "original_call": True},
            "first_draw contradicts original_call",
        ),
        # Kong upon Kong: a self-draw on a loose tile
        (
            "classical_xmj",
            {**riichi, "concealed": "123m456p789s1z"},
            "ron",
            {"kong_upon_kong": True},
            "kong_upon_kong contradicts",
        ),
        (
            "classical_xmj",
            {**riichi, "concealed": "123m456p789s1z"},
            "tsumo",
            {"kong_upon_kong": True},
            "kong_upon_kong contradicts",
        ),
    ]
    for pid, shape, win, ctx, reason in cases:
        got = _both_backends({"profile": pid, **shape, "win": win, "context": ctx})
        assert got["legal"] is False and reason in str(got["reason"]), (pid, ctx, got)
    # Each key on its own, on the win it belongs to, is no contradiction (the refusal is the
    # pair's).
    fine = [
        ("sichuan_tfmj", sichuan, "ron", {"missing_suit": "p", "kong_shot": True}),
        ("sichuan_tfmj", sichuan, "tsumo", {"missing_suit": "p", "after_kong": True}),
        ("riichi_planet", riichi, "tsumo", {"after_kong": True, "riichi": True}),
        ("classical_xmj", open_hand, "tsumo", {"first_draw": True}),
        ("classical_xmj", open_hand, "ron", {"first_draw": True, "seat_wind": "S"}),
        ("riichi_planet", open_hand, "tsumo", {"first_draw": True, "seat_wind": "S"}),
        (
            "classical_xmj",
            {**riichi, "concealed": "123m456p789s1z"},
            "tsumo",
            {"kong_upon_kong": True, "after_kong": True},
        ),
        # kong_shot with the last tile is possible: a kong's replacement, then the last discard
        # (000)
        (
            "sichuan_tfmj",
            sichuan,
            "ron",
            {"missing_suit": "p", "kong_shot": True, "last_tile": True},
        ),
    ]
    for pid, shape, win, ctx in fine:
        got = _both_backends({"profile": pid, **shape, "win": win, "context": ctx})
        assert got["legal"] is True, (pid, ctx, got)


def test_09_impossible_tiles_are_refused() -> None:
    # One red 5m exists in riichi_planet.
    reds = _answer("riichi_planet", "000m456p789s11z22z", "1z", "ron", riichi=True)
    assert reds["legal"] is False and "red fives" in str(reds["reason"])
    one_red = _answer("riichi_planet", "055m456p789s11z22z", "1z", "ron", riichi=True)
    assert one_red["legal"] is True
    # Seven East indicators: the dead wall shows at most 1 + 4 kongs.
    seven = _answer(
        "riichi_planet", "123m456p789s11z22z", "1z", "ron", riichi=True, dora_indicators="4z" * 7
    )
    assert seven["legal"] is False and "at most 5" in str(seven["reason"])
    # Two East indicators beside a hand holding three East: five copies of East.
    copies = _answer(
        "riichi_planet", "123m456p789s111z2z", "2z", "ron", riichi=True, dora_indicators="1z1z"
    )
    assert copies["legal"] is False and "copies of 1z" in str(copies["reason"])
    under = _answer(
        "riichi_planet",
        "123m456p789s11z22z",
        "1z",
        "ron",
        riichi=True,
        ura_indicators="3m4m5m6m7m8m",
    )
    assert under["legal"] is False and "ura_indicators" in str(under["reason"])


def test_17_losing_hand_is_refused_where_no_loser_is_scored() -> None:
    # The request is refused where it is read (runtime/request.py), naming the key ...
    got = _answer("sichuan_tfmj", "1112223334445s", "5s", "ron", missing_suit="m", losing_hand=True)
    assert "context.losing_hand" in str(got["error"]) and "losing" in str(got["error"])
    # ... and the engine itself answers no legal loser's score for a context made in code.
    from mjspec.runtime.context import WinContext
    from mjspec.runtime.request import parse_request

    tfmj = load_profile("sichuan_tfmj")
    hand, _ = parse_request(tfmj, {"concealed": "1112223334445s", "win_tile": "5s", "win": "ron"})
    score = evaluate(tfmj, hand, WinContext(losing_hand=True, missing_suit=None))
    assert score.legal is False and "losing hand" in str(score.reason)
    classical = _answer("classical_xmj", "1112223334445s", "5s", "ron", losing_hand=True)
    assert "error" not in classical and classical.get("score") is not None


# ---- item 6: the kong-income ledger after a call transfer (000 §9, §10) --------------------------


def test_06_a_transfer_leaves_an_earlier_kongs_equal_entries_in_the_ledger() -> None:
    # Seat 0 makes concealed kongs of 2m and then 3m (2 from each opponent each time), then deals
    # into
    # seat 1's ron right after the second: that kong's income goes to the winner (§9). At exhaustion
    # seat 0 is not ready and refunds the 2m kong's income, which was never transferred (§10).
    tfmj = load_profile("sichuan_tfmj")
    hand = arranged(
        tfmj,
        ["2222m333m5s9m7m6m1s4s8s", "123p456p789p11s46s", None, None],
        draws="1p1p1p3m",
        back="9p9s",
        missing=("p", "m", "s", "s"),
    )
    act(hand, ActionKind.ANKAN, 0, "2m")
    act(hand, ActionKind.DISCARD, 0, "9p")
    pass_claims(hand)
    for _ in range(3):
        tsumogiri(hand)
    assert hand.turn == 0 and str(hand.last_draw) == "3m"
    act(hand, ActionKind.ANKAN, 0, "3m")
    act(hand, ActionKind.DISCARD, 0, "5s")
    act(hand, ActionKind.RON, 1)
    pass_claims(hand)
    transfers = [
        (e.seat, e.data["from"], e.data["amount"]) for e in hand.events if e.kind == "kong_transfer"
    ]
    assert transfers == [(1, 0, 6)]
    assert sorted(hand.kongs.income) == [
        (0, 1, 2),
        (0, 2, 2),
        (0, 3, 2),
    ]  # the 2m kong's entries stay
    while not hand.over:
        tsumogiri(hand)
    assert hand.exhausted and 0 not in hand.ready_at_end
    refunds = sorted(
        (e.seat, e.data["from"], e.data["amount"]) for e in hand.events if e.kind == "kong_refund"
    )
    assert refunds == [(1, 0, 2), (2, 0, 2), (3, 0, 2)]
    assert hand.scores == [-2, 6, -2, -2]


# ---- item 14: robbing a concealed kong for Thirteen Unique Wonders (M 57-60, xmj) ----------------


def test_14_thirteen_unique_wonders_robs_a_concealed_kong() -> None:
    hand = arranged(CLASSICAL, ["1111m234p567p234s5s", "9m1p9p1s9s1z2z3z4z5z6z7z7z", None, None])
    act(hand, ActionKind.ANKAN, 0, "1m")
    assert hand.phase is Phase.ROB and ActionKind.RON in options(hand, 1)
    act(hand, ActionKind.RON, 1)
    win = next(e for e in hand.events if e.kind == "win")
    assert win.data["robbing"] and "thirteen_unique_wonders" in win.data["patterns"]
    # Any other win may not rob a concealed kong: seat 1 waiting on 1m-4m with plain sets is not
    # asked.
    plain = arranged(CLASSICAL, ["1111m234p567p234s5s", "23m456p789p678s55s", None, None])
    act(plain, ActionKind.ANKAN, 0, "1m")
    assert plain.phase is Phase.TURN and plain.turn == 0


# ---- item 16: the loose-tile reading of "drawn from the wall" (003, as xmj scores it) ------------


def test_16_a_loose_tile_win_earns_no_points_for_winning_from_the_wall() -> None:
    from mjspec.runtime.request import parse_request
    from mjspec.runtime.scoring import evaluate

    req = {
        "concealed": "345p678s789m5s",
        "melds": [{"type": "ankan", "tiles": "2222m"}],
        "win_tile": "5s",
        "win": "tsumo",
    }
    items = {}
    for loose in (False, True):
        hand, ctx = parse_request(
            CLASSICAL, {**req, "context": {"seat_wind": "S", "after_kong": loose}}
        )
        items[loose] = {p.id for p in evaluate(CLASSICAL, hand, ctx).point_items}
    assert "from_the_wall" in items[False] and "from_the_wall" not in items[True]


# ---- item 7: opening choices get at least 15 seconds whatever the clock (004) -------------------


def test_07_opening_choices_get_fifteen_seconds_under_a_bullet_clock() -> None:
    from mjspec.runtime.clock import hand_clock, timed_decision

    planet = load_profile("sichuan_planet")
    bullet = next(c for c in planet.table.clocks if c.id == "bullet")  # 2 s + 5 s reserve
    hand = Round(planet, seed=3)
    assert hand.phase is Phase.EXCHANGE
    clock = hand_clock(hand, bullet)
    chosen = hand.legal_actions(1)[-1]
    assert timed_decision(hand, clock, chosen, 14.0) == chosen  # 14 s: within the opening's 15
    assert clock.reserve[1] == bullet.reserve  # and the reserve untouched
    late = timed_decision(hand, clock, chosen, 21.0)  # 15 s + the 5 s reserve spent: out of time
    assert late == hand.timeout_action(1) and late != chosen
    # On one's turn the same clock gives 2 s and the reserve.
    tfmj_clock = hand_clock(hand, bullet)
    assert tfmj_clock.allowance(0, call=False) == bullet.per_action + bullet.reserve
    assert tfmj_clock.allowance(0, call=False, opening=True) == 15 + bullet.reserve


# ---- item 15: letting off a cannon as xmj judges it (M 90-96)
# -------------------------------------


def _cannon_table(winner_melds: list[str], discarder_hand: str) -> Round:
    from mjspec.runtime.hand import Meld, MeldType
    from mjspec.runtime.tiles import parse_tiles

    hand = Round(CLASSICAL, seed=2)
    hand.melds[1] = [Meld(MeldType.PON, tuple(parse_tiles(m))) for m in winner_melds]
    hand.hands[2] = list(parse_tiles(discarder_hand))
    return hand


def test_15_an_honour_is_not_the_danger_a_suit_is() -> None:
    three_bamboo = ["111s", "555s", "999s"]
    assert not _cannon_table(three_bamboo, "123m4p").let_off_cannon(1, 2, Tile.parse("7z"))
    assert _cannon_table(three_bamboo, "123m4p").let_off_cannon(1, 2, Tile.parse("2s"))
    assert _cannon_table(["111z", "555z", "666z"], "123m").let_off_cannon(1, 2, Tile.parse("7z"))


def test_15_a_claimed_dangerous_discard_makes_its_discarder_pay_for_a_later_win() -> None:
    # Seat 1 has exposed three bamboo sets; seat 2, holding safe tiles, discards 8s and seat 1
    # pungs it (the claim records the cannon). Seat 1 later goes out by self-draw: seat 2 pays all.
    from mjspec.runtime.request import parse_request
    from mjspec.runtime.scoring import evaluate

    hand = _cannon_table(["111s", "555s", "999s"], "123m4p5p")
    hand.settlement.note_call(hand, 1, Tile.parse("8s"), 2, liability=False)
    assert hand.scored.cannon_liable[1] == 2
    request = {
        "concealed": "7z",
        "melds": [{"type": "pon", "tiles": t} for t in ("111s", "555s", "999s", "888s")],
        "win_tile": "7z",
        "win": "tsumo",
        "context": {"seat_wind": "S"},
    }
    win, ctx = parse_request(CLASSICAL, request)
    score = evaluate(CLASSICAL, win, ctx)
    assert score.legal
    before = list(hand.scores)
    scored_settlement(hand, 1, score, None, tile=None)
    paid = [a - b for a, b in zip(hand.scores, before)]
    assert paid[2] == -paid[1] and paid[0] == paid[3] == 0
    assert any(e.kind == "cannon" and e.seat == 2 for e in hand.events)
    # An honour claimed against the three bamboo sets records nothing.
    other = _cannon_table(["111s", "555s", "999s"], "123m4p5p")
    other.settlement.note_call(other, 1, Tile.parse("6z"), 2, liability=False)
    assert other.scored.cannon_liable[1] is None


# ---- item 11: import-tenhou picks the profile the log's game type states -------------------------


def _imported_profile(log: Path, out: Path) -> str:
    """``mjspec import-tenhou LOG --out OUT`` without --profile; the record's profile (replayed
    first)."""
    import json

    from mjspec.app.cli import main

    assert main(["import-tenhou", str(log), "--out", str(out)]) == 0
    record = json.loads(out.read_text("utf-8"))
    assert replay(record).hands == len(record["hands"])
    return str(record["profile"])


def test_11_an_east_only_log_is_imported_under_riichi_tenhou_east(tmp_path: Path) -> None:
    from conftest import DATA

    logs = DATA / "tenhou"
    east_only = _imported_profile(
        logs / "tenhou-dnovikoff" / "mjlog" / "bye.xml", tmp_path / "bye.json"
    )
    assert east_only == "riichi_tenhou_east"
    east_south = _imported_profile(
        logs / "tenhou-mjx" / "mjlog" / "double-ron.mjlog", tmp_path / "d.json"
    )
    assert east_south == "riichi_tenhou"


# ---- item 11: a tenhou.net/6 log that starts mid-match is imported as the hands it holds ---------


def _excerpt_files() -> list[Path]:
    from conftest import DATA

    folder = (
        DATA / "tenhou" / "tenhou6json-mjai-reviewer"
    )  # Apache-2.0, LICENSE.upstream.txt beside them
    # confusing_nakis_2.json holds a fifth 3s (constructed upstream): the reader refuses it
    # (test_tenhou_import).
    return sorted(
        p
        for p in folder.glob("*.json")
        if p.name not in ("manifest.json", "confusing_nakis_2.json")
    )


def test_11_mid_match_tenhou6_logs_are_imported_as_excerpts_and_replay(tmp_path: Path) -> None:
    import json

    from mjspec.app.cli import main
    from mjspec.app.tenhou import load_log
    from mjspec.runtime.table import WINDS

    excerpts = wholes = finished = 0
    for path in _excerpt_files():
        out = tmp_path / f"{path.stem}.record.json"
        assert main(["import-tenhou", str(path), "--out", str(out)]) == 0, path.name
        record = json.loads(out.read_text("utf-8"))
        game = load_log(path)
        summary = replay(record)
        assert summary.hands == len(game.hands) == len(record["hands"])
        first = game.hands[0]
        start = record["hands"][0]
        assert (
            start["dealer"],
            start["round_wind"],
            start["honba"],
            start["deposits"],
            start["points"],
        ) == (
            first.dealer,
            WINDS[first.round // 4].value,
            first.honba,
            first.deposits,
            list(first.scores),
        ), path.name
        excerpt = record.get("excerpt")
        if excerpt is None:
            # The log held a whole game after all: from the match's start to an end by its rules.
            wholes += 1
            assert (
                start["points"] == [25000] * 4
                and start["dealer"] == 0
                and record["result"] is not None
            )
            continue
        excerpts += 1
        assert summary.excerpt
        assert {k: excerpt[k] for k in ("dealer", "round_wind", "honba", "deposits", "points")} == {
            k: start[k] for k in ("dealer", "round_wind", "honba", "deposits", "points")
        }
        # A result only where the match rules end the match with the excerpt's last hand.
        assert (record["result"] is not None) == excerpt["finished"], path.name
        finished += excerpt["finished"]
    # 19 readable files: 17 start mid-match or stop before the end (4 of them reach the end: a bust
    # or all-last), two (ranked_game, suukantsu_1) are whole games ended by a bust.
    assert (excerpts, wholes, finished) == (17, 2, 4)


def test_11_an_excerpt_record_is_checked_where_it_starts_and_how_it_ends(
    tmp_path: Path, capsys: object
) -> None:
    import copy
    import json

    import pytest

    from mjspec.app.cli import main
    from mjspec.runtime.record import RecordError, ReplayError
    from mjspec.runtime.record_check import seal

    path = next(
        p for p in _excerpt_files() if p.name == "confusing_nakis_5.json"
    )  # South 1, not the end
    out = tmp_path / "excerpt.json"
    assert main(["import-tenhou", str(path), "--out", str(out)]) == 0
    record = json.loads(out.read_text("utf-8"))
    assert record["excerpt"]["finished"] is False and record["result"] is None
    assert replay(record).excerpt
    shown = capsys.readouterr().out  # type: ignore[attr-defined]
    assert (
        "(an excerpt of a match: from S round, dealer seat 0, honba 0; the match not over)" in shown
    )
    assert main(["replay", str(out)]) == 0
    shown = capsys.readouterr().out  # type: ignore[attr-defined]
    assert shown.rstrip().endswith("; an excerpt of a match")

    def edited(edit: object) -> dict[str, object]:
        bad = copy.deepcopy(record)
        edit(bad)  # type: ignore[operator]
        return seal(bad)  # a fresh digest: only the replay's own checks can find the edit

    def points(r: dict) -> None:
        r["excerpt"]["points"][0] += 1000

    def dealer(r: dict) -> None:
        r["excerpt"]["dealer"] = 1

    def wind(r: dict) -> None:
        r["excerpt"]["round_wind"] = "E"

    def finish(r: dict) -> None:
        r["excerpt"]["finished"] = True

    def whole(r: dict) -> None:
        del r["excerpt"]

    def result(r: dict) -> None:
        r["result"] = [0.0, 0.0, 0.0, 0.0]

    for edit, message in [
        (points, r"recorded totals \[39000, 31400, 16000, 13600\] but the replay gives \[40000"),
        (dealer, r"hand 0: recorded dealer 0 but the dealer rule gives seat 1"),
        (wind, r"hand 0: recorded round_wind 'S' but the match rules give 'E'"),
        (finish, r"excerpt\.finished: recorded true but the replay gives false"),
        (whole, r"hand 0: recorded dealer 0|round_wind"),
        (result, r"result: recorded"),
    ]:
        with pytest.raises(ReplayError, match=message):
            replay(edited(edit))
    # Only an imported game (explicit chance) may be an excerpt, and only a match of wind rounds.
    from test_records import played

    seeded = played("riichi_tenhou_east")
    seeded["excerpt"] = copy.deepcopy(record["excerpt"])
    with pytest.raises(RecordError, match="only a record whose chance is 'explicit'"):
        replay(seal(seeded))
    sichuan = played("sichuan_tfmj")
    sichuan.update(
        chance="explicit", seed=None, excerpt={**record["excerpt"], "honba": 0, "deposits": 0}
    )
    for h in sichuan["hands"]:
        h["seed"] = None
    with pytest.raises(
        RecordError, match="excerpt: sichuan_tfmj does not play its match in wind rounds"
    ):
        replay(seal(sichuan))


def test_11_an_excerpt_whose_later_hand_does_not_follow_is_refused(
    tmp_path: Path, capsys: object
) -> None:
    from mjspec.app.cli import main

    files = {p.name: p for p in _excerpt_files()}
    # One hand per line is a tenhou.net/6 log too: East 1, then a South 1 hand that cannot follow
    # it.
    joined = tmp_path / "joined.json"
    joined.write_text(
        files["complex_nakis_1.json"].read_text("utf-8").strip()
        + "\n"
        + files["confusing_nakis_5.json"].read_text("utf-8").strip()
        + "\n",
        "utf-8",
    )
    assert main(["import-tenhou", str(joined), "--out", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "hand 1: the match gives dealer 1, E round" in err and "the log 0, S" in err
    assert not (tmp_path / "x.json").exists()


# ---- item 10: the clocks at the table, in records and in replay (001, 004) -----------------------


def test_10_a_clock_applies_at_the_table_is_recorded_and_rechecked_by_replay() -> None:
    import json

    import pytest

    from mjspec.runtime.bots import GreedyBot
    from mjspec.runtime.observation import observe
    from mjspec.runtime.match import Match
    from mjspec.runtime.record import ReplayError

    planet = load_profile("riichi_planet")
    match = Match(planet, 7, 1, clock="bullet")  # 001 Bullet: 2 s a decision, 5 s of reserve a hand
    hand = match.new_hand()
    seat = hand.turn
    first = next(a for a in hand.legal_actions(seat) if a.kind is ActionKind.DISCARD)
    hand.apply_timed(first, 4.0)  # 2 s of thinking time and 2 s of the reserve
    assert hand.clock.reserve[seat] == 3.0 and hand.decisions[-1] == first
    late_at = None
    while not hand.over:
        s = hand.pending_seats()[0]
        action = GreedyBot(s).choose(observe(hand, s))
        took = 1.0
        if late_at is None and s == seat and hand.phase is Phase.TURN:
            took, default = 10.0, hand.timeout_action(s)  # beyond 2 s + the 3 s left: out of time
        hand.apply_timed(action, took)
        if took == 10.0:
            late_at = len(hand.decisions) - 1
            assert hand.decisions[-1] == default and hand.timing[-1] == (10.0, True)
    assert late_at is not None
    match.finish()
    record = json.loads(json.dumps(match_record(match)))
    assert record["clock"] == "bullet" and record["hands"][0]["decisions"][late_at]["late"] is True
    assert replay(record).totals == tuple(match.totals)
    record["hands"][0]["decisions"][late_at][
        "seconds"
    ] = 1.0  # a tampered time: in time, yet marked late
    with pytest.raises(ReplayError, match=rf"decision {late_at}: 1.0 s is in time"):
        replay(record)


def test_10_play_with_a_clock_records_a_bot_match_that_replay_rechecks(
    tmp_path: Path, capsys: object
) -> None:
    import json

    from mjspec.app.cli import main

    out, again = tmp_path / "timed.json", tmp_path / "again.json"
    # 001 Bullet: 2 s a decision and 5 s of reserve; 3 s each empties the reserve, answers to a call
    # have none.
    args = [
        "play",
        "riichi_planet",
        "--seed",
        "3",
        "--hands",
        "1",
        "--clock",
        "bullet",
        "--think",
        "3",
    ]
    assert main([*args, "--record", str(out)]) == 0
    printed = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "ran out of time after 3 s: the table played" in printed
    record = json.loads(out.read_text("utf-8"))
    decisions = [d for h in record["hands"] for d in h["decisions"]]
    assert record["clock"] == "bullet" and all(d["seconds"] == 3.0 for d in decisions)
    assert any(d.get("late") for d in decisions) and not all(d.get("late") for d in decisions)
    assert main(["replay", str(out)]) == 0
    assert (
        main([*args, "--record", str(again)]) == 0
    )  # a stated thinking time: the same seed, the same record
    assert again.read_text("utf-8") == out.read_text("utf-8")
    # Measured time: bots answer well within 2 s, so nothing is late, and the record still replays.
    measured = tmp_path / "measured.json"
    assert (
        main(
            [
                "play",
                "sichuan_planet",
                "--seed",
                "1",
                "--hands",
                "1",
                "--clock",
                "blitz",
                "--quiet",
                "--record",
                str(measured),
            ]
        )
        == 0
    )
    timed = json.loads(measured.read_text("utf-8"))
    assert timed["clock"] == "blitz" and all(
        "seconds" in d and not d.get("late") for h in timed["hands"] for d in h["decisions"]
    )
    assert main(["replay", str(measured)]) == 0
    capsys.readouterr()  # type: ignore[attr-defined]
    # A clock the profile lacks, and --think without a clock, are the user's errors.
    assert main(["play", "gb_mcr", "--clock", "bullet", "--quiet"]) == 2
    said = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "gb_mcr has no clock 'bullet' (its clocks: none)" in said
    assert main(["play", "riichi_planet", "--think", "2", "--quiet"]) == 2
    assert "--think needs --clock" in capsys.readouterr().err  # type: ignore[attr-defined]
