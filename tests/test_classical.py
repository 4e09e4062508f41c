"""classical_xmj (book 003 + classical-complement.md): options, loose tiles, Original Call, cannon,
scored settlement, the match, and that the spec's examples cover every point item, double and limit
hand."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjspec.app.cli import main, score_request
from mjspec.runtime.actions import Action, ActionKind
from mjspec.runtime.bots import GreedyBot
from mjspec.runtime.observation import Observation, observe
from mjspec.runtime.context import WinContext
from mjspec.runtime.hand import Meld, MeldType
from mjspec.runtime.match import Match, play_hand, play_match
from mjspec.runtime.options import OptionError, bind_options
from mjspec.app.records import match_record, replay
from mjspec.app.registry import load_profile
from mjspec.runtime.request import parse_request
from mjspec.runtime.scoring import evaluate, score_losing_hand
from mjspec.runtime.table import Round
from mjspec.runtime.tiles import parse_tiles

from handkit import scored_settlement

PID = "classical_xmj"

#: Non-default option sets a full match is played under (plus the defaults).
OPTION_SETS: list[dict[str, object]] = [
    {},
    {"DeadWall16": False, "FlowersLoose": True, "EastDoubles": False, "NumRounds": 1},
    {
        "DeadWall": False,
        "Flowers": False,
        "LosersSettle": False,
        "DiscDoubles": True,
        "NumRounds": 1,
    },
    {
        "NoLimit": True,
        "SevenPairs": True,
        "KongHas3Types": True,
        "LosersPurity": True,
        "NumRounds": 1,
        "FlowersOwnBoth": {"points": 8},
        "ConcealedFully": {"doubles": 3},
        "ScoreLimit": 500,
    },
]


def bots(seed: int) -> list[GreedyBot]:
    return [GreedyBot(seed * 4 + i) for i in range(4)]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_a_match_plays_records_and_replays(options: dict[str, object], tmp_path: Path) -> None:
    profile = bind_options(load_profile(PID), options)
    match = play_match(profile, bots(3), seed=3)
    assert match.over and len(match.hands) >= profile.table.match.rounds * 4
    record = match_record(match)
    for name, value in options.items():
        assert record["options"][name] == value  # the record states the options in force
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), "utf-8")
    summary = replay(json.loads(path.read_text("utf-8")))
    assert list(summary.totals) == match.totals
    assert sum(match.totals) == 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), options=st.sampled_from(OPTION_SETS))
def test_settlement_is_zero_sum_in_every_hand(seed: int, options: dict[str, object]) -> None:
    profile = bind_options(load_profile(PID), {**options, "NumRounds": 1})
    match = Match(profile, seed)
    players = bots(seed)
    for _ in range(6):
        if match.over:
            break
        hand = match.new_hand()
        play_hand(hand, players)
        assert sum(hand.scores) == 0, (seed, options, hand.scores)
        for ev in hand.events:
            assert sum(ev.deltas) == 0, ev


def test_the_dead_wall_options_set_the_live_wall() -> None:
    base = load_profile(PID)
    dealt = 13 * 4 + 1
    cases = [
        ({}, 144 - dealt - 16),
        ({"DeadWall16": False}, 144 - dealt - 14),
        ({"DeadWall": False}, 144 - dealt),
        ({"Flowers": False}, 136 - dealt - 16),
    ]
    for options, live in cases:
        hand = Round(bind_options(base, options), seed=5)
        # The bonus tiles dealt were declared and replaced from the live wall's front (M 31-33).
        assert hand.wall_remaining + sum(len(f) for f in hand.flowers) == live, options
        assert sorted(hand.tile_census()) == sorted(hand.profile.tiles.all_tiles())


def test_fourteen_loose_tiles_are_kept_at_thirteen_or_fourteen() -> None:
    hand = Round(bind_options(load_profile(PID), {"DeadWall16": False}), seed=1)
    live = hand.wall_remaining
    hand.wall.replacement(kong=True)
    assert (hand.wall.loose_end - hand.wall.back, hand.wall_remaining) == (13, live)
    hand.wall.replacement(kong=True)
    assert (hand.wall.loose_end - hand.wall.back, hand.wall_remaining) == (
        14,
        live - 2,
    )  # 12 -> 14 from the live wall


def test_sixteen_loose_tiles_are_used_up_then_the_live_wall_end() -> None:
    hand = Round(load_profile(PID), seed=1)
    live = hand.wall_remaining
    for _ in range(16):
        hand.wall.replacement(kong=True)
    assert hand.wall_remaining == live and hand.wall.loose_end == hand.wall.back
    hand.wall.replacement(kong=True)
    assert hand.wall_remaining == live - 1


def test_bonus_replacements_come_from_the_live_wall_unless_flowers_loose() -> None:
    for loose, front_moves in ((False, 1), (True, 0)):
        hand = Round(bind_options(load_profile(PID), {"FlowersLoose": loose}), seed=1)
        front = hand.wall.front
        hand.wall.replacement(kong=False)
        assert hand.wall.front - front == front_moves


def test_original_call_is_made_with_the_first_discard_and_fixes_the_hand() -> None:
    hand = Round(load_profile(PID), seed=11)
    while ActionKind.FLOWER in {a.kind for a in hand.legal_actions(hand.turn)}:
        hand.apply(next(a for a in hand.legal_actions(hand.turn) if a.kind is ActionKind.FLOWER))
    seat = hand.turn
    calls = [a for a in hand.legal_actions(seat) if a.kind is ActionKind.ORIGINAL_CALL]
    assert calls and all(a.tile is not None and not a.tile.is_flower for a in calls)
    hand.apply(calls[0])
    assert hand.original_call.called[seat]
    # Every later turn of the declarer: only the drawn tile may go (or a win, or a bonus tile).
    for _ in range(400):
        if hand.over:
            break
        who = hand.pending_seats()[0]
        legal = hand.legal_actions(who)
        if who == seat and hand.phase.value == "turn":
            assert {a.kind for a in legal} <= {
                ActionKind.TSUMO,
                ActionKind.FLOWER,
                ActionKind.DISCARD,
            }
            assert all(a.tile == hand.last_draw for a in legal if a.kind is ActionKind.DISCARD)
        if who == seat and hand.phase.value == "claim":
            assert {a.kind for a in legal} <= {ActionKind.RON, ActionKind.PASS}
        if who != seat:
            assert (
                not any(a.kind is ActionKind.ORIGINAL_CALL for a in legal)
                or hand.turns_taken[who] == 0
            )
        hand.apply(GreedyBot(1).choose(observe(hand, who, legal)))


def _table_with_melds(winner_melds: list[str], discarder_hand: str) -> Round:
    hand = Round(load_profile(PID), seed=2)
    hand.melds[1] = [Meld(MeldType.PON, tuple(parse_tiles(m))) for m in winner_melds]
    hand.hands[2] = list(parse_tiles(discarder_hand))
    return hand


def test_a_dangerous_discard_lets_off_a_cannon_unless_there_was_no_choice() -> None:
    three_bamboo = ["111s", "555s", "999s"]
    (tile,) = parse_tiles("2s")
    assert _table_with_melds(three_bamboo, "123m4p").let_off_cannon(
        1, 2, tile
    )  # a safe tile was held
    assert not _table_with_melds(three_bamboo, "3s4s6s").let_off_cannon(1, 2, tile)  # no choice
    # an honour is not the danger bamboo is (issue 13 item 15): holding 7z was a choice
    assert _table_with_melds(three_bamboo, "3s4s7z").let_off_cannon(1, 2, tile)
    assert not _table_with_melds(["111s", "555s", "999p"], "123m").let_off_cannon(
        1, 2, tile
    )  # two suits: not dangerous
    assert not _table_with_melds(three_bamboo, "123m").let_off_cannon(
        1, 2, parse_tiles("2m")[0]
    )  # other suit
    assert _table_with_melds(["111z", "555z", "666z"], "123m").let_off_cannon(
        1, 2, parse_tiles("7z")[0]
    )  # honours


def test_a_cannon_pays_for_everybody_and_losers_do_not_settle() -> None:
    hand = _table_with_melds(["111s", "555s", "999s"], "123m4p5p")
    hand.hands[1] = list(parse_tiles("34s77z"))
    win, ctx = parse_request(
        hand.profile,
        {
            "concealed": "34s77z",
            "melds": [{"type": "pon", "tiles": t} for t in ("111s", "555s", "999s")],
            "win_tile": "2s",
            "win": "ron",
            "context": {"seat_wind": "S"},
        },
    )
    score = evaluate(hand.profile, win, ctx)
    before = list(hand.scores)
    scored_settlement(hand, 1, score, 2, tile=parse_tiles("2s")[0])
    paid = [a - b for a, b in zip(hand.scores, before)]
    value = score.value or 0
    assert paid[1] == 2 * value + value + value  # East pays double; all of it through the cannon
    assert paid[2] == -paid[1] and paid[0] == paid[3] == 0
    assert any(e.kind == "cannon" for e in hand.events)


def test_losers_pay_one_another_the_differences_with_easts_double() -> None:
    hand = Round(load_profile(PID), seed=4)
    hand.hands[2] = list(
        parse_tiles("555z666z")
    )  # two concealed dragon pungs: (8 + 8) x 2 x 2 = 64
    hand.hands[3] = list(
        parse_tiles("11z")
    )  # seat 3 is North: East pair of the prevailing wind, 2 points
    hand.hands[0] = list(parse_tiles("123m"))  # East (the dealer): nothing
    hand.flowers = [[], [], [], []]  # no bonus tiles declared at the deal (M 32-33) in this setting
    win, ctx = parse_request(
        hand.profile,
        {
            "concealed": "234m456p789s78s55m",
            "win_tile": "9s",
            "win": "tsumo",
            "context": {"seat_wind": "S"},
        },
    )
    score = evaluate(hand.profile, win, ctx)
    before = list(hand.scores)
    scored_settlement(hand, 1, score, None, tile=None)
    paid = [a - b for a, b in zip(hand.scores, before)]
    values = {e.seat: e.data["score"] for e in hand.events if e.kind == "hand_score"}
    assert values == {0: 0, 2: 64, 3: 2}
    v = score.value or 0
    assert paid[2] == -v + (64 - 0) * 2 + (64 - 2)
    assert paid[3] == -v + (2 - 0) * 2 - (64 - 2)
    assert paid[0] == -2 * v - (64 - 0) * 2 - (2 - 0) * 2
    assert sum(paid) == 0


def test_losing_hands_take_their_best_reading() -> None:
    profile = load_profile(PID)
    score = score_losing_hand(profile, tuple(parse_tiles("555z66z77z123m")), (), WinContext())
    assert score.fu == 8 + 2 + 2 and [p.id for p in score.patterns] == ["dragon_set"]
    assert score.value == 24


def test_east_keeps_the_deal_after_a_win_and_a_wash_out() -> None:
    match = play_match(bind_options(load_profile(PID), {"NumRounds": 1}), bots(8), seed=8)
    for before, after in zip(match.hands, match.hands[1:]):
        kept = not before.wins or before.wins[0].seat == before.dealer
        assert after.dealer == (before.dealer if kept else (before.dealer + 1) % 4)


def test_every_point_item_double_and_limit_hand_has_an_example() -> None:
    profile = load_profile(PID)
    seen_items: set[str] = set()
    seen_patterns: set[str] = set()
    for ex in profile.examples:
        req = {
            "concealed": ex.concealed,
            "win_tile": ex.win_tile,
            "win": ex.win,
            "context": dict(ex.context),
            "melds": [{"type": m.type, "tiles": m.tiles} for m in ex.melds],
        }
        hand, ctx = parse_request(profile, req)
        score = evaluate(profile, hand, ctx)
        seen_items |= {i.id for i in score.point_items}
        seen_patterns |= {p.id for p in score.patterns}
    assert profile.points is not None
    assert {i.id for i in profile.points.items} <= seen_items
    assert {p.id for p in profile.patterns} <= seen_patterns


def test_score_answers_the_contract_with_options() -> None:
    req = {
        "profile": PID,
        "concealed": "234m9p",
        "win_tile": "9p",
        "win": "ron",
        "melds": [{"type": "pon", "tiles": t} for t in ("555z", "666z", "777z")],
        "context": {"seat_wind": "S"},
    }
    assert score_request(req)["score"] == 1000
    limited = score_request({**req, "context": {"seat_wind": "S", "options": {"ScoreLimit": 800}}})
    assert limited["score"] == 800 and limited["payments"] == {"east": 1600, "non_east": 800}
    limit_hand = score_request({**req, "concealed": "222m9p"})
    assert limit_hand["total"] is None and limit_hand["fu"] is None and limit_hand["score"] == 1000
    east = score_request({**req, "context": {}})
    assert east["payments"] == {"each": 2000}
    bad = score_request({**req, "context": {"options": {"NoLimit": "perhaps"}}})
    assert "NoLimit" in bad["error"]


def test_cli_options_for_classical(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", PID, "--option", "NumRounds=x", "--quiet"]) == 2
    assert "NumRounds" in capsys.readouterr().err
    assert (
        main(
            [
                "score",
                PID,
                "234m9p",
                "--win",
                "9p",
                "--meld",
                "pon:555z",
                "--meld",
                "pon:666z",
                "--meld",
                "pon:777z",
                "--context",
                "seat_wind=S",
                "--option",
                "NoLimit=true",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["score"] == 38 * 32
    with pytest.raises(OptionError):
        bind_options(load_profile(PID), {"ConcealedFully": "3"})


def test_easts_deal_passes_after_the_thirteenth_consecutive_win() -> None:
    from types import SimpleNamespace

    match = Match(load_profile(PID), seed=0)
    won = SimpleNamespace(
        dealer=0,
        wins=[SimpleNamespace(seat=0)],
        aborted=None,
        exhausted=False,
        ready_at_end=(),
        deposits=0,
    )
    washout = SimpleNamespace(
        dealer=0, wins=[], aborted=None, exhausted=True, ready_at_end=(), deposits=0
    )
    for n in range(12):
        match._advance_round(won)  # type: ignore[arg-type]
        # a wash-out neither counts nor breaks the run
        match._advance_round(washout)  # type: ignore[arg-type]
        assert match.dealer == 0 and match.dealer_wins == n + 1
    assert match.make_hand(1).win_context(0).dealer_wins == 12
    match._advance_round(won)  # type: ignore[arg-type]
    assert match.dealer == 1 and match.dealer_wins == 0


def test_no_spec_text_loses_words_to_a_flow_mapping_comma() -> None:
    """``{en: a, b, zh: ...}`` in YAML makes ``b`` a key with no value, which the resolver drops as
    a null: the text silently loses its end. No spec may hold a language mapping with such a stray
    key.
    """
    import yaml

    languages = {"en", "zh", "ja", "pt", "fr"}
    stray: list[tuple[str, tuple[object, ...], set[str]]] = []

    def walk(node: object, path: tuple[object, ...], name: str) -> None:
        if isinstance(node, dict):
            if set(node) & languages and set(node) - languages:
                stray.append((name, path, set(node) - languages))
            for key, value in node.items():
                walk(value, path + (key,), name)
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, path + (i,), name)

    specs = Path(__file__).resolve().parent.parent / "specs"
    for spec in sorted(specs.glob("*.yaml")):
        walk(yaml.safe_load(spec.read_text("utf-8")), (), spec.name)
    assert not stray, stray


class _SlowAt:
    """A clock that runs ``seconds`` on while ``seat`` thinks about a claim (its other decisions
    take no time)."""

    def __init__(self, hand: Round, seat: int, seconds: float) -> None:
        self.hand, self.seat, self.seconds, self.now = hand, seat, seconds, 0.0
        self.thinking = False

    def __call__(self) -> float:
        # play_hand reads the clock before and after each timed answer: the second read of the slow
        # seat's answer is late.
        if (
            self.hand.pending_seats()[:1] == [self.seat]
            and self.hand.time_limit(self.seat) is not None
        ):
            self.thinking = not self.thinking
            if not self.thinking:
                self.now += self.seconds
        return self.now


class _Recorder:
    """A greedy bot that notes what it chose in every claim window."""

    def __init__(self, seed: int) -> None:
        self.bot = GreedyBot(seed)
        self.claims: list[ActionKind] = []

    def choose(self, observation: Observation) -> Action:
        action = self.bot.choose(observation)
        if observation.phase.value in ("claim", "rob"):
            self.claims.append(action.kind)
        return action


def _play_with_a_slow_seat(
    options: dict[str, object], seed: int, seconds: float
) -> tuple[Round, _Recorder, list[Action]]:
    hand = Round(bind_options(load_profile(PID), options), seed=seed)
    players: list[object] = [GreedyBot(seed * 4 + i) for i in range(4)]
    slow = _Recorder(seed)
    players[2] = slow
    applied: list[Action] = []
    slow_at = _SlowAt(hand, 2, seconds)
    play_hand(hand, players, on_step=applied.append, clock=slow_at)  # type: ignore[arg-type]
    return hand, slow, applied


def test_a_seat_that_does_not_answer_a_claim_in_time_passes() -> None:
    """003 "Precedence of claims for discard": players that do not claim within Timeout seconds are
    deemed to pass."""
    answers = (ActionKind.PASS, ActionKind.PON, ActionKind.CHI, ActionKind.MINKAN, ActionKind.RON)
    late_claims = 0
    for seed in range(30):
        hand, slow, applied = _play_with_a_slow_seat(
            {}, seed, 16.0
        )  # Timeout 15 by default: every answer of seat 2 is late
        taken = [a.kind for a in applied if a.seat == 2 and a.kind in answers]
        assert taken == [ActionKind.PASS] * len(slow.claims), seed
        late_claims += sum(1 for k in slow.claims if k is not ActionKind.PASS)
        # In time (14 s), or with no limit (Timeout 0), the same seat's answers are all taken as
        # given.
        for options, seconds in (({}, 14.0), ({"Timeout": 0}, 1000.0)):
            hand, slow, applied = _play_with_a_slow_seat(options, seed, seconds)
            assert [a.kind for a in applied if a.seat == 2 and a.kind in answers] == slow.claims, (
                seed,
                options,
            )
    assert late_claims > 0  # the slow seat did want to claim (or go out), and was made to pass


def test_the_timeout_binds_the_claim_window_and_not_the_turn() -> None:
    assert load_profile(PID).table.timeout.claim_seconds == 15
    hand = Round(bind_options(load_profile(PID), {"Timeout": 5}), seed=3)
    assert hand.rules.timeout.claim_seconds == 5
    assert hand.time_limit(hand.turn) is None  # the player on turn has no limit
    while hand.phase.value != "claim":
        seat = hand.pending_seats()[0]
        hand.apply(GreedyBot(0).choose(observe(hand, seat)))
    waiting = hand.pending_seats()
    assert waiting and all(hand.time_limit(s) == 5 for s in waiting)
    assert all(hand.timeout_action(s) == Action(ActionKind.PASS, s) for s in waiting)
    assert (
        Round(bind_options(load_profile(PID), {"Timeout": 0}), seed=3).rules.timeout.claim_seconds
        == 0
    )


def test_filling_the_only_place_does_not_count_an_exhausted_wait() -> None:
    """003 "Filling the only place": a kind all four of whose copies are exposed on the table is not
    available."""
    hand = Round(load_profile(PID), seed=2)
    for s in range(4):
        hand.discards[s], hand.melds[s] = [], []
    hand.discards[0] = list(parse_tiles("6s"))
    hand.melds[3] = [Meld(MeldType.PON, tuple(parse_tiles("666s")))]
    hand.melds[2] = [
        Meld(MeldType.ANKAN, tuple(parse_tiles("1111z")))
    ]  # a concealed kong's kind is declared too
    assert hand.exhausted_kinds() == "6s1z"
    ctx = hand.win_context(1)
    assert ctx.exhausted == "6s1z"
    win, _ = parse_request(
        hand.profile, {"concealed": "234m456p789s78s55m", "win_tile": "9s", "win": "ron"}
    )
    with_exhausted = evaluate(hand.profile, win, ctx)
    assert [i.id for i in with_exhausted.point_items] == ["mah_jong", "only_place"]
    hand.discards[0] = []  # three 6s exposed: 6s could still come, the wait is double
    plain = evaluate(hand.profile, win, hand.win_context(1))
    assert [i.id for i in plain.point_items] == ["mah_jong"]
    # The winning kind itself is never exhausted (it was available when it was claimed).
    same = evaluate(hand.profile, win, replace(ctx, exhausted="9s"))
    assert [i.id for i in same.point_items] == ["mah_jong"]


def test_the_exhausted_context_key_is_checked() -> None:
    req = {
        "profile": PID,
        "concealed": "234m456p789s78s55m",
        "win_tile": "9s",
        "win": "ron",
        "context": {"exhausted": "6x"},
    }
    assert "context.exhausted" in score_request(req)["error"]
    assert "bonus tile" in score_request({**req, "context": {"exhausted": "1f"}})["error"]
    assert score_request({**req, "context": {"exhausted": "6s"}})["fu"] == 22


def _declarations(counts: dict[int, int]) -> list[dict[int, int]]:
    """Every way a loser can declare concealed kinds: per kind, nothing (one tile kept), a pair or a
    pung."""
    choices = [[(k, n) for n in range(1, min(c, 3) + 1)] for k, c in sorted(counts.items())]
    out: list[dict[int, int]] = [{}]
    for options in choices:
        out = [{**done, k: n} for done in out for k, n in options]
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kinds=st.lists(
        st.sampled_from([0, 8, 9, 13, 18, 26, 27, 28, 29, 30, 31, 32, 33]), min_size=4, max_size=13
    ),
    seat=st.sampled_from(["E", "S", "W", "N"]),
    purity=st.booleans(),
)
def test_no_declaration_of_a_loser_scores_more_than_the_tables(
    kinds: list[int], seat: str, purity: bool
) -> None:
    """The ``losers_declare`` reading: the table's declaration (pungs of threes, pairs of twos) is a
    loser's best."""
    from collections import Counter

    from mjspec.runtime.tiles import Tile

    counts = {k: min(c, 4) for k, c in Counter(kinds).items()}
    ctx = WinContext.from_mapping(
        {"seat_wind": seat, "losing_hand": True, "options": {"LosersPurity": purity}}
    )
    profile = load_profile(PID)

    def value(held: dict[int, int]) -> int:
        tiles = tuple(Tile(k) for k, n in sorted(held.items()) for _ in range(n))
        return score_losing_hand(profile, tiles, (), ctx).value or 0

    tables = value(counts)
    others = [value(d) for d in _declarations(counts)]
    assert tables == max(others), (counts, tables, max(others))


def test_nine_gates_needs_the_gates_before_the_last_tile() -> None:
    """The same fourteen tiles are Nine Gates won on a 1 (before: 1112345678999) and not on a 9
    (before: 1111234567899)."""
    base = {"profile": PID, "win": "ron", "context": {"seat_wind": "S"}}
    on_one = score_request({**base, "concealed": "1112345678999m", "win_tile": "1m"})
    on_nine = score_request({**base, "concealed": "1111234567899m", "win_tile": "9m"})
    assert on_one["legal"] and on_nine["legal"]
    assert "nine_gates" in [p["id"] for p in on_one["patterns"]]
    assert "nine_gates" not in [p["id"] for p in on_nine["patterns"]]
