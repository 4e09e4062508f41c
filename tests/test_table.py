"""The table engine on arranged deals: each test sets the tiles so that one rule must act.

Walls are built explicitly (the deal, then the draws from the front, then the
replacement tiles from the back), so every scenario is exact and cites the
rule it checks. Planet scenarios that are not about the opening exchange use
the planet rules with the exchange switched off, so the deal stays as written.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Callable, Sequence

import pytest

from mjspec.runtime.actions import Action, ActionKind, IllegalAction
from mjspec.runtime.profile import Profile
from mjspec.app.registry import load_profile
from mjspec.runtime.rules import ExchangeDirection
from mjspec.runtime.table import Phase, Round, _break_wall
from mjspec.runtime.tiles import Suit, Tile, parse_tiles

TFMJ = load_profile("sichuan_tfmj")
PLANET = load_profile("sichuan_planet")
PLANET_NO_EXCHANGE = dataclasses.replace(
    PLANET, table=dataclasses.replace(PLANET.table, exchange=None)
)
DICE = (1, 1)


def arranged(
    profile: Profile,
    hands: Sequence[str | None],
    draws: str = "",
    back: str = "",
    *,
    dealer: int = 0,
    missing: Sequence[str] = ("s", "s", "s", "s"),
    direction: ExchangeDirection = ExchangeDirection.LEFT,
) -> Round:
    """A hand whose deal gives ``hands`` by seat (the dealer's has 14 tiles), then ``draws`` from
    the front.

    ``back`` lists replacement tiles in the order they are drawn. A seat given as
    None gets scattered tiles (1-4-7 style, not near ready) outside its missing
    suit. Missing suits are declared when the profile has no exchange.
    """
    pool = Counter(profile.tiles.all_tiles())
    given = [parse_tiles(h) if h is not None else None for h in hands]
    used = [t for h in given if h for t in h] + parse_tiles(draws) + parse_tiles(back)
    pool.subtract(Counter(used))
    assert all(
        v >= 0 for v in pool.values()
    ), f"over-used: {[str(t) for t, v in pool.items() if v < 0]}"
    for seat in range(4):
        if given[seat] is None:
            n = 14 if seat == dealer else 13
            avoid = Suit(missing[seat])
            spread = sorted(
                (
                    t
                    for t in pool.elements()
                    if t.suit != avoid and not t.is_flower and not t.is_honor
                ),
                key=lambda t: ((t.kind % 9) % 3, t.kind),
            )
            picked = _distinct_first(spread, n)
            pool.subtract(Counter(picked))
            given[seat] = picked
    order = [(dealer + i) % 4 for i in range(4)]
    if profile.table.deal_in_blocks:  # 002 §2: 4 tiles each three times, 1 each, the dealer's jump
        dealt: list[Tile] = []
        for k in range(3):
            for seat in order:
                dealt += (given[seat] or [])[4 * k : 4 * k + 4]
        for seat in order:
            dealt += (given[seat] or [])[12:13]
        dealt += (given[dealer] or [])[13:]
        front = dealt + parse_tiles(draws)
    else:
        front = [t for seat in order for t in (given[seat] or [])] + parse_tiles(draws)
    rear = list(reversed(parse_tiles(back)))
    ring = front + sorted(pool.elements()) + rear
    for cut in range(len(ring)):
        wall = ring[len(ring) - cut :] + ring[: len(ring) - cut]
        if _break_wall(list(wall), DICE) == ring:
            break
    hand = Round(profile, dealer=dealer, wall=wall, dice=DICE, exchange_direction=direction)
    if hand.phase is Phase.DECLARE:
        for seat, suit in enumerate(missing):
            hand.apply(Action(ActionKind.DECLARE, seat, suit=Suit(suit)))
    return hand


def _distinct_first(tiles: list[Tile], n: int) -> list[Tile]:
    """The first ``n`` tiles, taking each kind once before taking any kind twice."""
    firsts: list[Tile] = []
    rest: list[Tile] = []
    for t in tiles:
        (rest if t in firsts else firsts).append(t)
    return (firsts + rest)[:n]


def act(hand: Round, kind: ActionKind, seat: int, tile: str | None = None) -> None:
    hand.apply(Action(kind, seat, tile=Tile.parse(tile) if tile else None))


def options(hand: Round, seat: int) -> set[ActionKind]:
    return {a.kind for a in hand.legal_actions(seat)}


def pass_claims(hand: Round) -> None:
    while hand.phase in (Phase.CLAIM, Phase.ROB):
        act(hand, ActionKind.PASS, hand.pending_seats()[0])


def tsumogiri(hand: Round) -> None:
    """The player on turn discards the drawn tile (or the first legal discard); claims are
    passed."""
    seat = hand.turn
    legal = [a for a in hand.legal_actions(seat) if a.kind is ActionKind.DISCARD]
    drawn = [a for a in legal if a.tile == hand.last_draw]
    hand.apply(drawn[0] if drawn else legal[0])
    pass_claims(hand)


WAIT_9P = "111m234567m234p9p"  # a basic hand waiting on 9p alone (0 fan)
WAIT_9P_B = "456789m345678p9p"  # another basic hand waiting on 9p


# ---------------------------------------------------------------- the turn


def test_missing_suit_must_be_discarded_first_and_a_refusal_changes_nothing() -> None:
    # 000 §2: while the declared suit is held it must be discarded before any other suit.
    hand = arranged(TFMJ, ["1234567m123p11s99p", None, None, None])
    assert hand.phase is Phase.TURN and hand.turn == 0
    assert {a.tile for a in hand.legal_actions(0) if a.kind is ActionKind.DISCARD} == {
        Tile.parse("1s")
    }
    before = (hand.snapshot(), len(hand.events), list(hand.decisions), list(hand.scores))
    with pytest.raises(IllegalAction) as e:
        act(hand, ActionKind.DISCARD, 0, "9p")
    assert e.value.rule == "missing-suit-first"
    with pytest.raises(IllegalAction) as e:
        act(hand, ActionKind.DISCARD, 1, "1m")
    assert e.value.rule == "turn-order"
    with pytest.raises(IllegalAction) as e:
        act(hand, ActionKind.PON, 0)
    assert e.value.rule == "phase"
    assert (hand.snapshot(), len(hand.events), list(hand.decisions), list(hand.scores)) == before


def test_snapshot_hides_other_hands() -> None:
    hand = arranged(TFMJ, ["1234567m123p11s99p", None, None, None])
    view = hand.snapshot(seat=1)
    assert view["players"][1]["concealed"] is not None
    assert all(view["players"][s]["concealed"] is None for s in (0, 2, 3))
    assert view["players"][0]["concealed_count"] == 14


# ------------------------------------------------------------- wins on discards


def test_multi_ron_pays_each_winner_and_the_discarder_deals_next() -> None:
    # 000 §3-§4, §8: several rons on one discard all win and the discarder pays P to each;
    # §11: the first win was a multi-ron, so the discarder deals next.
    hand = arranged(TFMJ, ["44556m456p78p99p1p2p", WAIT_9P, WAIT_9P_B, None])
    act(hand, ActionKind.DISCARD, 0, "9p")
    assert ActionKind.RON in options(hand, 1) and ActionKind.RON in options(hand, 2)
    act(hand, ActionKind.RON, 1)
    if 3 in hand.pending_seats():
        act(hand, ActionKind.PASS, 3)
    act(hand, ActionKind.RON, 2)
    pays = [
        (e.seat, e.data["from"], e.data["amount"]) for e in hand.events if e.kind == "win_payment"
    ]
    assert pays == [(1, 0, 1), (2, 0, 1)]
    assert not hand.active[1] and not hand.active[2]
    assert hand.next_dealer() == 0
    # Play goes on after the last winner in turn order: seat 3 draws (reading of §4).
    assert hand.phase is Phase.TURN and hand.turn == 3


def test_single_winner_deals_next_and_the_hand_goes_on() -> None:
    hand = arranged(TFMJ, ["44556m456p78p99p1p2p", None, WAIT_9P, None])
    act(hand, ActionKind.DISCARD, 0, "9p")
    pending = list(hand.pending_seats())
    for seat in pending:
        act(hand, ActionKind.RON if seat == 2 else ActionKind.PASS, seat)
    assert hand.next_dealer() == 2
    assert hand.turn == 3 and not hand.over


def test_planet_missing_suit_blocks_win_and_calls() -> None:
    # 004: no pon, kong or win while the missing suit is held, and no call on tiles of that suit.
    hand = arranged(
        PLANET_NO_EXCHANGE,
        ["44556m456p78p99p1p2p", "111m23456m234p9p1s", None, None],
        missing="smss",
    )
    # Seat 1 declared m but holds manzu: cannot win on 9p even though the shape is complete.
    act(hand, ActionKind.DISCARD, 0, "9p")
    assert ActionKind.RON not in options(hand, 1)
    hand2 = arranged(
        TFMJ, ["44556m456p78p99p1p2p", "111m23456m234p9p1s", None, None], missing="smss"
    )
    act(hand2, ActionKind.DISCARD, 0, "9p")
    # 000 has no such block, but the win is still illegal there because the declared suit is held.
    assert ActionKind.RON not in options(hand2, 1)


# ------------------------------------------------------------------ passing


PASSER = "111222333m5556p"  # waits 4p and 7p (basic hand, 0 fan) and 6p (all triplets, 1 fan)
PASS_DEALER = "4566m789m789p99p4p1p"


def _pass_setup(profile: Profile, second: str) -> Round:
    # Seat 0 discards 4p; seat 2 could win and passes; seat 1 then draws `second` and discards it.
    hand = arranged(profile, [PASS_DEALER, None, PASSER, None], draws=second)
    act(hand, ActionKind.DISCARD, 0, "4p")
    assert ActionKind.RON in options(hand, 2)
    pass_claims(hand)
    assert hand.turn == 1 and hand.last_draw == Tile.parse(second)
    act(hand, ActionKind.DISCARD, 1, second)
    return hand


def test_passing_blocks_the_same_fan_until_the_next_draw() -> None:
    # 000 §5: declining a 0-fan win blocks wins of 0 fan until the player's next draw.
    hand = _pass_setup(TFMJ, "7p")
    assert 2 not in hand.claims.options or ActionKind.RON not in options(hand, 2)


def test_passing_leaves_a_strictly_higher_fan_legal() -> None:
    # 000 §5: "A strictly higher-fan win remains legal"; 6p makes all triplets (1 fan > 0).
    hand = _pass_setup(TFMJ, "6p")
    assert ActionKind.RON in options(hand, 2)


def test_planet_passing_blocks_every_discard_win() -> None:
    # 004: passing a discard win blocks further discard wins until the next draw, whatever their
    # value.
    hand = _pass_setup(PLANET_NO_EXCHANGE, "6p")
    assert 2 not in hand.claims.options or ActionKind.RON not in options(hand, 2)


def test_planet_passing_a_pon_blocks_that_pon_until_the_next_draw() -> None:
    # 004: "Passer un pung bloque un autre pung de cette tuile jusqu'à votre prochain tirage."
    seat2 = "55m11p22p33p4m7m9m6p8p"
    for profile, blocked in ((PLANET_NO_EXCHANGE, True), (TFMJ, False)):
        hand = arranged(profile, ["12356m789p99p4p1p78m", None, seat2, None], draws="5m")
        act(hand, ActionKind.DISCARD, 0, "5m")
        assert ActionKind.PON in options(hand, 2)
        pass_claims(hand)
        assert hand.turn == 1 and hand.last_draw == Tile.parse("5m")
        act(hand, ActionKind.DISCARD, 1, "5m")  # the fourth 5m, before seat 2 draws again
        offered = 2 in hand.claims.options and ActionKind.PON in options(hand, 2)
        assert offered is not blocked


# ------------------------------------------------------------------ kongs


def test_kong_shot_transfers_the_kong_income_to_the_winner() -> None:
    # 000 §9: a kong declarer who deals into a win right after the kong hands that income over.
    hand = arranged(
        TFMJ, ["1234m6789m123p11m5m", "555m1122p3344p88m", "333444678m234p9p", None], back="9p"
    )
    act(hand, ActionKind.DISCARD, 0, "5m")
    assert ActionKind.MINKAN in options(hand, 1)
    act(hand, ActionKind.MINKAN, 1)
    pass_claims(hand)
    kong = [
        (e.seat, e.data["from"], e.data["amount"]) for e in hand.events if e.kind == "kong_payment"
    ]
    assert kong == [(1, 0, 2)]  # minkan: the discarder pays 2
    assert hand.turn == 1 and hand.last_draw == Tile.parse("9p")
    act(hand, ActionKind.DISCARD, 1, "9p")
    act(hand, ActionKind.RON, 2)
    pass_claims(hand)
    win = next(e for e in hand.events if e.kind == "win")
    assert "kong_shot" in win.data["patterns"]
    assert [
        (e.seat, e.data["from"], e.data["amount"]) for e in hand.events if e.kind == "kong_transfer"
    ] == [(2, 1, 2)]
    # seat 0 paid the kong; seat 1 received 2, paid 2 for the win (1 fan) and transferred 2.
    assert hand.scores == [-2, 2 - 2 - 2, 2 + 2, 0]


def test_planet_has_no_transfer_and_no_kong_shot_fan() -> None:
    # 004: "Un défausse de remplacement de kong n'a aucun transfert de paiement spécial".
    hand = arranged(
        PLANET_NO_EXCHANGE,
        ["1234m6789m123p11m5m", "555m1122p3344p88m", "333444678m234p9p", None],
        back="9p",
    )
    act(hand, ActionKind.DISCARD, 0, "5m")
    act(hand, ActionKind.MINKAN, 1)
    pass_claims(hand)
    act(hand, ActionKind.DISCARD, 1, "9p")
    act(hand, ActionKind.RON, 2)
    assert not [e for e in hand.events if e.kind == "kong_transfer"]
    win = next(e for e in hand.events if e.kind == "win")
    assert "kong_shot" not in win.data["patterns"]


def test_ankan_is_paid_by_every_other_active_player() -> None:
    # 000 §9: ankan, every other active player pays 2.
    hand = arranged(TFMJ, ["2222m3456m11p456p9p", None, None, None], back="7p")
    act(hand, ActionKind.ANKAN, 0, "2m")
    pays = sorted(
        (e.data["from"], e.data["amount"]) for e in hand.events if e.kind == "kong_payment"
    )
    assert pays == [(1, 2), (2, 2), (3, 2)]
    assert hand.scores == [6, -2, -2, -2]
    assert hand.turn == 0 and hand.last_draw == Tile.parse("7p")


def _kakan_setup(
    profile: Profile,
    robber: str | None,
    seat1: str = "55m11p22p33p4p6p7p8p9p",
    draws: str = "1s2s3s5m",
) -> Round:
    # Seat 1 pons seat 0's 5m, throws 4p; seats 2, 3 and 0 draw bamboo and throw it; seat 1 draws.
    hand = arranged(profile, ["2234m6789m123p88m5m", seat1, robber, None], draws=draws)
    act(hand, ActionKind.DISCARD, 0, "5m")
    act(hand, ActionKind.PON, 1)
    pass_claims(hand)
    act(hand, ActionKind.DISCARD, 1, "4p")
    pass_claims(hand)
    for _ in range(3):
        tsumogiri(hand)
    assert hand.turn == 1 and hand.last_draw == parse_tiles(draws)[-1]
    return hand


def test_an_added_kong_can_be_robbed_and_pays_nothing() -> None:
    # 000 §3: an added kong can be robbed before it completes; the robber wins with +1 fan.
    hand = _kakan_setup(TFMJ, "123p456p789p11m46m")
    assert ActionKind.KAKAN in options(hand, 1)
    act(hand, ActionKind.KAKAN, 1, "5m")
    assert hand.phase is Phase.ROB and options(hand, 2) == {ActionKind.RON, ActionKind.PASS}
    act(hand, ActionKind.RON, 2)
    win = next(e for e in hand.events if e.kind == "win")
    assert win.data["robbing"] and "robbing_kong" in win.data["patterns"]
    assert not [e for e in hand.events if e.kind == "kong_payment"]
    assert [
        (e.seat, e.data["from"], e.data["amount"]) for e in hand.events if e.kind == "win_payment"
    ] == [(2, 1, 2)]
    assert [m.type.value for m in hand.melds[1]] == ["pon"]
    assert hand.turn == 3 and not hand.over


def test_an_unrobbed_added_kong_is_paid_one_by_each() -> None:
    # 000 §9: kakan, every other active player pays 1.
    hand = _kakan_setup(TFMJ, None)
    act(hand, ActionKind.KAKAN, 1, "5m")
    pays = sorted(
        (e.data["from"], e.data["amount"]) for e in hand.events if e.kind == "kong_payment"
    )
    assert pays == [(0, 1), (2, 1), (3, 1)]
    assert [m.type.value for m in hand.melds[1]] == ["kakan"]


def test_kakan_needs_the_drawn_tile_in_tfmj_but_not_in_planet() -> None:
    # 000 §3: "The fourth tile used for kakan must be the tile just drawn on that turn";
    # 004 sets no such condition. Seat 1 keeps its third 5m, pons, and later draws 6p.
    for profile, offered in ((TFMJ, False), (PLANET_NO_EXCHANGE, True)):
        hand = _kakan_setup(profile, None, seat1="555m11p22p33p4p7p8p9p", draws="1s2s3s6p")
        assert (ActionKind.KAKAN in options(hand, 1)) is offered


# --------------------------------------------------------------- exhaustion


def _drained(profile: Profile) -> Round:
    """Seat 0 makes a concealed kong (and is then not ready); seat 1 is ready (pure pinzu); seat 2
    declared manzu missing yet holds it; seat 3 is scattered. The wall is then emptied (a test
    shortcut: tiles leave play), so the next draw exhausts it."""
    hand = arranged(
        profile,
        ["8888m99m11m33m6m7m9p5p", "1112223334445p", "1234567m667788p", None],
        back="9s",
        missing="ssms",
    )
    act(hand, ActionKind.ANKAN, 0, "8m")
    assert hand.last_draw == Tile.parse("9s")
    hand.wall.front = hand.wall.back  # empty the wall
    act(hand, ActionKind.DISCARD, 0, "9s")
    pass_claims(hand)
    assert hand.over and hand.exhausted
    return hand


def _paid(hand: Round, kind: str) -> list[tuple[int, int, int]]:
    return sorted(
        (e.data["from"], e.seat or 0, e.data["amount"]) for e in hand.events if e.kind == kind
    )


def test_exhaustion_tfmj_refunds_then_cha_jiao() -> None:
    # 000 §10: not-ready players refund kong income, then pay each ready player that player's
    # best unit (at most 8); holding the missing suit is simply not ready (no fixed penalty).
    hand = _drained(TFMJ)
    # Seat 1 waits on 2p-6p; 5p and 6p give a full flush (2 fan, unit 4), while 2p, 3p or 4p
    # make a fourth copy, a root: 3 fan, unit 8. The best unit counts.
    assert hand.ready_value(1) == 8
    assert _paid(hand, "kong_refund") == [(0, 1, 2), (0, 2, 2), (0, 3, 2)]
    assert _paid(hand, "not_ready_payment") == [(0, 1, 8), (2, 1, 8), (3, 1, 8)]
    assert not _paid(hand, "missing_suit_penalty")
    assert hand.scores == [6 - 6 - 8, -2 + 2 + 24, -2 + 2 - 8, -2 + 2 - 8]


def test_exhaustion_planet_missing_suit_penalty_replaces_cha_jiao() -> None:
    # 004: a player still holding the missing suit pays 8 to each remaining player who cleared
    # theirs, instead of the not-ready payment; clean not-ready players pay clean ready ones.
    hand = _drained(PLANET_NO_EXCHANGE)
    assert _paid(hand, "missing_suit_penalty") == [(2, 0, 8), (2, 1, 8), (2, 3, 8)]
    # Planet: full flush with a root (or all triplets) reaches the cap, so the best wait is worth 8.
    assert hand.ready_value(1) == 8
    assert _paid(hand, "not_ready_payment") == [(0, 1, 8), (3, 1, 8)]
    assert _paid(hand, "kong_refund") == [(0, 1, 2), (0, 2, 2), (0, 3, 2)]
    assert hand.scores == [6 - 6 + 8 - 8, -2 + 2 + 8 + 16, -2 + 2 - 24, -2 + 2 + 8 - 8]
    assert sum(hand.scores) == 0


# ------------------------------------------------------------ opening, timeouts


def test_planet_exchange_is_hidden_simultaneous_and_one_direction() -> None:
    # 004: three tiles of one suit, hidden until all four chose, one random direction for all.
    hand = Round(PLANET, seed=7, exchange_direction=ExchangeDirection.ACROSS)
    assert hand.phase is Phase.EXCHANGE and hand.pending_seats() == [0, 1, 2, 3]
    chosen = {}
    for seat in range(4):
        legal = hand.legal_actions(seat)
        assert all(len(a.tiles) == 3 and len({t.suit for t in a.tiles}) == 1 for a in legal)
        suits = sorted({t.suit for t in hand.hands[seat]})
        assert len(suits) >= 2, "seed 7 deals every seat at least two suits"
        first = [t for t in hand.hands[seat] if t.suit == suits[0]]
        second = [t for t in hand.hands[seat] if t.suit == suits[1]]
        mixed = (first[0], *second[:2]) if len(second) >= 2 else (*first[:2], second[0])
        with pytest.raises(IllegalAction) as refused:
            hand.apply(Action(ActionKind.EXCHANGE, seat, tiles=mixed))
        assert refused.value.rule == "exchange"
        chosen[seat] = legal[0].tiles
        hand.apply(legal[0])
        if seat < 3:
            other = (seat + 1) % 4
            assert hand.snapshot(seat=other)["players"][seat]["exchange"] is None
    before = {s: Counter(hand.hands[s]) for s in range(4)}
    assert hand.phase is Phase.DECLARE
    for seat in range(4):
        giver = (seat + 2) % 4
        assert Counter(chosen[giver]) <= before[seat]


def test_timeout_defaults() -> None:
    # 004: exchange the first legal same-suit triple, declare the least-held suit; a timed-out
    # turn claims a win if one is available (004) but never does in 000 §6.
    hand = Round(PLANET, seed=11)
    first = hand.legal_actions(0)[0]
    assert hand.timeout_action(0) == first
    for seat in range(4):
        hand.apply(hand.legal_actions(seat)[0])
    action = hand.timeout_action(0)
    assert action is not None and action.kind is ActionKind.DECLARE
    held = Counter(t.suit for t in hand.hands[0])
    assert held[action.suit] == min(held[s] for s in PLANET.tiles.suits)
    win_hand = arranged(TFMJ, ["44556m456p78p99p1p2p", WAIT_9P, None, None])
    act(win_hand, ActionKind.DISCARD, 0, "9p")
    assert win_hand.timeout_action(1) == Action(ActionKind.PASS, 1)
    win_planet = arranged(PLANET_NO_EXCHANGE, ["44556m456p78p99p1p2p", WAIT_9P, None, None])
    act(win_planet, ActionKind.DISCARD, 0, "9p")
    assert win_planet.timeout_action(1) == Action(ActionKind.RON, 1)


def test_clocks_are_data() -> None:
    assert [(c.id, c.per_action, c.reserve) for c in PLANET.table.clocks] == [
        ("bullet", 2, 5),
        ("blitz", 3, 10),
        ("standard", 5, 20),
        ("relaxed", 15, 60),
    ]
    assert TFMJ.table.clocks == ()


def test_match_lengths_and_dealer_rule() -> None:
    from mjspec.runtime.bots import GreedyBot
    from mjspec.runtime.match import play_match

    m = play_match(TFMJ, [GreedyBot(i) for i in range(4)], seed=3)
    assert len(m.hands) == 8 and sum(m.totals) == 0
    for prev, nxt in zip(m.hands, m.hands[1:]):
        first = [w for w in prev.wins if w.order == 0]
        if not first:
            assert nxt.dealer == prev.dealer
        elif len(first) > 1:
            assert nxt.dealer == first[0].discarder
        else:
            assert nxt.dealer == first[0].seat
    assert len(play_match(PLANET, [GreedyBot(i) for i in range(4)], seed=3).hands) == 1


# ------------------------------------------------------------------- GB calls

GB = load_profile("gb_mcr")


def test_gb_chi_only_from_the_previous_player_and_below_pon() -> None:
    # 002 §3: chii only by the next player in turn order; ron, then pon or minkan, then chii.
    hand = arranged(
        GB,
        [
            "5m" + "1z1z2z2z3z3z4z4z5z5z6z6z7z",
            "46m" + "19p19s1z2z3z4z5z6z7z",
            "55m" + "29p29s37z36p45p8s",
            None,
        ],
        missing="ssss",
    )
    act(hand, ActionKind.DISCARD, 0, "5m")
    assert ActionKind.CHI in options(hand, 1) and ActionKind.PON in options(hand, 2)
    assert 3 not in hand.claims.options or ActionKind.CHI not in options(hand, 3)
    chi = next(a for a in hand.legal_actions(1) if a.kind is ActionKind.CHI)
    hand.apply(chi)
    act(hand, ActionKind.PON, 2)
    pass_claims(hand)
    assert [m.type.value for m in hand.melds[2]] == ["pon"] and not hand.melds[1]
    assert hand.turn == 2 and hand.must_discard


def test_gb_flowers_are_exposed_with_a_back_replacement_and_never_claimed() -> None:
    # 002 §1: expose a flower and take a replacement from the back, or keep it and discard it
    # later; a discarded flower cannot be claimed.
    hand = arranged(
        GB,
        ["1f2f" + "123m456p789s1z1z2z", None, "1z1z" + "19m19p19s2z3z4z5z6z", None],
        back="3f9m",
        missing="ssss",
    )
    assert ActionKind.FLOWER in options(hand, 0)
    act(hand, ActionKind.FLOWER, 0, "1f")
    assert hand.flowers[0] == [Tile.parse("1f")] and hand.last_draw == Tile.parse("3f")
    act(hand, ActionKind.FLOWER, 0, "3f")  # the replacement was a flower: the same choice again
    assert hand.last_draw == Tile.parse("9m")
    assert not hand.drew_replacement  # a flower replacement is no kong replacement
    act(hand, ActionKind.DISCARD, 0, "2f")  # keeping 2f until now, then throwing it
    assert hand.phase is Phase.TURN and hand.turn == 1  # nobody may claim a flower
