"""gb_mcr at the table (book 002): single ron to the nearest seat, the 8-fan floor without
flowers, settlement of fan + 8, and the 16-hand match with a rotating dealer.

Deals are arranged with the helpers of tests/test_table.py (explicit walls, 002 §2's
block deal), so each scenario makes exactly one rule act.
"""

from __future__ import annotations

from mjspec.runtime.actions import ActionKind
from mjspec.runtime.bots import GreedyBot
from mjspec.runtime.match import play_match
from mjspec.runtime.options import bind_options
from mjspec.app.records import match_record, replay
from mjspec.runtime.table import Phase, Round

from test_table import GB, act, arranged, options, pass_claims, tsumogiri


def _wins(hand: Round) -> list[tuple[int, int | None, int]]:
    """(winner, payer, amount) of every win payment."""
    return [
        (e.seat, e.data["from"], e.data["amount"]) for e in hand.events if e.kind == "win_payment"
    ]


def test_single_ron_goes_to_the_nearest_claimant_and_the_discarder_pays_fan_plus_8() -> None:
    # 002 §3: a single winner; several ron claims resolve to the nearest seat in turn order.
    # §5: the discarder pays F + 8, each other opponent 8.
    hand = arranged(
        GB,
        ["9s147p258m369p1z2z3z4z6z", None, "123456789m234p9s", "123456789p567s9s"],
        missing="ssss",
    )
    act(hand, ActionKind.DISCARD, 0, "9s")
    assert ActionKind.RON in options(hand, 2) and ActionKind.RON in options(hand, 3)
    act(hand, ActionKind.RON, 3)  # the farther seat claims first: the nearer one still decides
    assert not hand.over and hand.pending_seats() == [2]
    act(hand, ActionKind.RON, 2)
    assert hand.over
    wins = [e for e in hand.events if e.kind == "win"]
    assert [w.seat for w in wins] == [2]
    fan = wins[0].data["total"]
    assert fan >= 8 and "pure_straight" in wins[0].data["patterns"]
    assert sorted(_wins(hand)) == [(2, 0, fan + 8), (2, 1, 8), (2, 3, 8)]
    assert sum(hand.scores) == 0


def test_a_hand_short_of_8_without_flowers_cannot_ron_but_the_self_drawn_fan_lifts_it() -> None:
    # 002 §4: 8 fan excluding flowers; a hand that reaches 8 only through the self-drawn fan
    # may win by self-draw; flowers count for payment only. Seat 1 holds an open hand of
    # Mixed Shifted Chows (6) waiting singly on 5z (1): 7 fan on a discard, 8 self-drawn.
    hand = arranged(
        GB,
        ["3m5z147p258s369p1z2z3z", "12m234p345s678m5z9p", None, None],
        draws="9s9s8p1f7s7s2s5z",
        back="8s",
        missing="mmmm",
    )
    act(hand, ActionKind.DISCARD, 0, "3m")
    hand.apply(next(a for a in hand.legal_actions(1) if a.kind is ActionKind.CHI))
    pass_claims(hand)
    act(hand, ActionKind.DISCARD, 1, "9p")
    pass_claims(hand)
    for _ in range(3):
        tsumogiri(hand)
    act(hand, ActionKind.FLOWER, 1, "1f")  # an exposed flower: 1 fan at settlement only
    for _ in range(3):
        tsumogiri(hand)
    assert hand.turn == 0
    act(hand, ActionKind.DISCARD, 0, "5z")  # 7 fan + 1 flower: not a win on a discard
    assert 1 not in hand.claims.options and hand.phase is Phase.TURN
    assert hand.turn == 1 and str(hand.last_draw) == "5z"
    assert ActionKind.TSUMO in options(hand, 1)
    act(hand, ActionKind.TSUMO, 1)
    win = next(e for e in hand.events if e.kind == "win")
    assert set(win.data["patterns"]) == {
        "mixed_shifted_chows",
        "single_wait",
        "self_drawn",
        "flower_tiles",
    }
    assert win.data["total"] == 9  # 6 + 1 + 1, and the flower
    assert sorted(_wins(hand)) == [(1, 0, 17), (1, 2, 17), (1, 3, 17)]  # §5: each pays F + 8


def test_the_sixteen_hand_match_rotates_the_dealer_and_replays() -> None:
    # 002 §6: 16 hands, East 1 to North 4; the dealer passes on after every hand, no repeats;
    # net scores from 0.
    match = play_match(GB, [GreedyBot(i) for i in range(4)], seed=11)
    assert len(match.hands) == 16
    assert [h.dealer for h in match.hands] == [i % 4 for i in range(16)]
    assert sum(match.totals) == 0
    record = match_record(match)
    assert record["strict_preset"] is True
    assert replay(record).hands == 16


def test_a_shorter_match_is_labelled_a_custom_room_game() -> None:
    match = play_match(GB, [GreedyBot(i) for i in range(4)], seed=12, hands=4)
    assert len(match.hands) == 4
    assert match_record(match)["strict_preset"] is False


def test_a_changed_option_is_labelled_a_custom_room_game() -> None:
    # The label is a mechanism of every profile: a match under any non-default option is custom.
    from mjspec.app.registry import load_profile

    classical = load_profile("classical_xmj")
    bots = [GreedyBot(i) for i in range(4)]
    assert match_record(play_match(classical, bots, seed=1))["strict_preset"] is True
    one_round = bind_options(classical, {"NumRounds": 1})
    record = match_record(play_match(one_round, bots, seed=1))
    assert record["options"]["NumRounds"] == 1 and record["strict_preset"] is False
