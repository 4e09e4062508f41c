"""The catalog of invariants a spec may name.

Each name is a property that the test suite checks against the profile's
generated engine (``tests/test_invariants.py`` maps every name here to a
Hypothesis property, and fails if one has none). The compiler refuses any
other name, so a spec can never claim a check that does not exist.
"""

from __future__ import annotations

from typing import Mapping

INVARIANTS: Mapping[str, str] = {
    "legal_wins_are_complete_shapes": (
        "every hand the engine calls a legal win is a complete winning shape of the profile, "
        "confirmed by an independent brute-force check"
    ),
    "wins_satisfy_requirements": (
        "every legal win meets the profile's requirements (e.g. the declared missing suit is "
        "absent), "
        "and a hand that breaks one is refused"
    ),
    "fan_within_cap": "the count used for payment never exceeds the profile's cap",
    "payments_follow_formulas": (
        "every payment equals the spec's formula evaluated independently of the generated engine"
    ),
    "waits_exclude_fifth_copy": "a ready hand never waits on a tile whose four copies it "
    "already holds",
    # Game-level invariants: checked over many seeded bot games.
    "zero_sum": "every event's score changes sum to zero, so every hand and match does",
    "tile_conservation": "wall + hands + melds + discards + won tiles equal the tile set after "
    "every event",
    "no_chii": "no chii is ever offered or made",
    "at_most_three_winners": "a hand never has more than three winners",
    "departed_players_not_charged": "a player who has won and left never pays for later wins, "
    "kongs or penalties",
    "payments_within_cap": "no single win payment exceeds the largest amount the spec's "
    "formulas allow at the cap",
    "replay_reproduces": "replaying a game record reproduces every event and score exactly",
    "never_stalls": "until a hand is over some seat always has a legal action, and every hand ends",
}
