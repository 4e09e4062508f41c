"""The native contract path (runtime/native/request.c, then the core) answers as the Python path
does.

`score_contract` answers a request end to end in C, or None (the Python path
reads it). Wherever it answers, the answer must be the Python engine's to the
byte: on every profile's seeded corpus (benchmarks/corpus.py, the generator the
speed figures use), on every spec example as a request, and on mutated requests
(changed tiles, counts, keys and types), where it mostly declines and the Python
path writes the error. It must take most plain requests, or it would be no fast
path at all.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from handkit import example_hand
from mjspec.app.batch import score_request
from mjspec.runtime.backend import native_module
from mjspec.runtime.native_contract import score_contract
from mjspec.app.registry import load_profile, profile_ids
from mjspec.runtime.request import parse_request
from mjspec.runtime.scoring import evaluate

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import corpus  # noqa: E402

IDS = profile_ids()


def _python_answer(request: dict[str, Any]) -> dict[str, Any] | None:
    """The Python engine's own answer (None where the request is refused: the Python path's
    error)."""
    profile = load_profile(request["profile"])
    try:
        hand, ctx = parse_request(profile, request)
        return evaluate(profile, hand, ctx, reference=True).to_contract()
    except Exception:
        return None


def _mutations(rng: random.Random, request: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for _ in range(4):
        r = copy.deepcopy(request)
        what = rng.randrange(9)
        ctx = r.setdefault("context", {})
        if what == 0:
            r["concealed"] = r["concealed"][:-2]
        elif what == 1:
            r["win_tile"] = rng.choice(["5m", "0m", "1z", "9s", "1f", "0p", "5z", "x"])
        elif what == 2:
            ctx[rng.choice(["honba", "dealer_wins", "riichi_sticks"])] = rng.choice(
                [-1, 3, 100, 101, 10**30, True, "2"]
            )
        elif what == 3:
            ctx[rng.choice(["riichi", "last_tile", "dealer", "first_draw"])] = rng.choice(
                [True, 1, None]
            )
        elif what == 4:
            ctx["dora_indicators"] = rng.choice(
                ["", "1z", "0m0m", "5m5m5m5m5m", "1f", "1z2z3z4z5z6z"]
            )
        elif what == 5:
            r["melds"] = [
                *r.get("melds", []),
                rng.choice(
                    [
                        {"type": "pon", "tiles": "111z"},
                        {"type": "chi", "tiles": "135m"},
                        {"type": "pon", "tiles": "111z", "from": "left"},
                    ]
                ),
            ]
        elif what == 6:
            ctx[rng.choice(["seat_wind", "round_wind", "missing_suit"])] = rng.choice(
                ["E", "N", "m", "z", 3, None]
            )
        elif what == 7:  # situations no table produces (runtime/situation.py refuses them)
            for flag in rng.sample(["robbing_kong", "last_tile", "first_draw", "after_kong"], 2):
                ctx[flag] = True
            if rng.random() < 0.5:
                r["win"] = "tsumo"
        elif what == 8:  # a call the profile may not have, and indicators it may not show
            r["melds"] = [{"type": "chi", "tiles": "123m"}]
            r["concealed"] = r["concealed"][:-6] if len(r["concealed"]) > 6 else r["concealed"]
            ctx["dora_indicators"] = rng.choice(["1m", "1m2m", "1m2m3m4m5m6m"])
        else:
            ctx[rng.choice(["flowers", "exhausted", "options", "unknown_key"])] = rng.choice(
                ["1f", "1f1f", "", {}, {"x": 1}]
            )
        out.append(r)
    return out


@pytest.mark.parametrize("profile_id", IDS)
def test_the_native_contract_path_answers_as_python(profile_id: str) -> None:
    if native_module("runtime._request") is None or native_module("runtime._score") is None:
        pytest.skip("the native core was not built (or MJSPEC_BACKEND=python)")
    profile = load_profile(profile_id)
    requests = corpus.requests(profile_id, 150, seed=3)
    for ex in profile.examples:
        hand, ctx = example_hand(profile, ex)
        requests.append(corpus.hand_request(profile_id, hand, ctx))
    rng = random.Random(4)
    plain = len(requests)
    requests += [m for r in requests[:100] for m in _mutations(rng, r)]
    taken = taken_plain = 0
    for i, request in enumerate(requests):
        native = score_contract(profile, copy.deepcopy(request))
        if native is None:
            continue
        taken += 1
        taken_plain += i < plain
        expected = _python_answer(request)
        assert expected is not None, f"native answered a request Python refuses: {request}"
        assert json.dumps(native, ensure_ascii=False) == json.dumps(
            expected, ensure_ascii=False
        ), request
        assert score_request(copy.deepcopy(request)) == expected
    # Plain requests go the native way (options, exhausted kinds and unusual fields do not).
    assert taken_plain >= 0.8 * plain, (taken_plain, plain)
    assert taken > taken_plain  # some mutated requests are still plain, and answered alike


def test_the_line_loop_takes_only_native_profiles_and_is_off_on_the_python_backend() -> None:
    """The loop leaves a line whose profile is unknown to the Python path (which names the
    error), answers a native profile's, and MJSPEC_BACKEND=python leaves no native loop at all."""
    import os
    import subprocess

    from mjspec.runtime.native_contract import batch_profile, native_lines

    if native_module("runtime._batch") is not None and native_module("runtime._score") is not None:
        made = batch_profile(load_profile("riichi_planet"))
        assert made is not None
        fragments = made[5]
        assert len(fragments) == len(load_profile("riichi_planet").patterns)
        assert all(f.startswith(b'{"id": ') and f.endswith(b', "value": ') for f in fragments)
        loop = native_lines(8, load_profile)
        assert loop is not None
        [request] = corpus.requests("riichi_planet", 1, seed=2)
        plain = json.dumps(request).encode()
        for unknown in ("no_such_profile", "../riichi_planet", "Riichi_planet"):
            line = json.dumps({**request, "profile": unknown}).encode()
            assert loop([line, plain], 0) == (b"", 0)  # declined: the Python path answers it
        out, end = loop([plain, plain], 0)
        assert end == 2 and out.count(b"\n") == 2
    res = subprocess.run(
        [
            sys.executable,
            "-c",
            "from mjspec.runtime.native_contract import native_lines\n"
            "print(native_lines(8, lambda profile_id: None))",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "MJSPEC_BACKEND": "python"},
        timeout=120,
    )
    assert res.returncode == 0 and res.stdout == "None\n", res.stderr
