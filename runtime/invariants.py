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
        "every legal win meets the profile's requirements (e.g. the declared missing suit is absent), "
        "and a hand that breaks one is refused"
    ),
    "fan_within_cap": "the count used for payment never exceeds the profile's cap",
    "payments_follow_formulas": (
        "every payment equals the spec's formula evaluated independently of the generated engine"
    ),
    "waits_exclude_fifth_copy": "a ready hand never waits on a tile whose four copies it already holds",
}
