"""In-process speed on hands never seen before: mjspec's Python and native backends beside the
anchors.

Run ``python benchmarks/bench_native.py`` (add ``--profile P`` (repeatable),
``--hands N`` per round, ``--rounds R``). For each profile it measures, in
one run:

(a) full evaluations/s: ``mjspec.runtime.scoring.evaluate`` on parsed hands
    and contexts (the requests of benchmarks/corpus.py, parsed before the
    clock starts), once with ``MJSPEC_BACKEND=python`` (the Python reference)
    and once without it (the native backend wherever it was built and wired
    into ``evaluate``; the Python engine where not);
(b) the anchors' raw calls on prepared arguments, the same hands: the
    `mahjong` package's ``HandCalculator.estimate_hand_value`` for the riichi
    profiles (arguments from benchmarks/contract_mahjong.py ``prepare``: rule
    book 001's options, which riichi_tenhou shares but for its own rules) and
    PyMahjongGB's ``MahjongFanCalculator`` for gb_mcr (benchmarks/
    contract_pymahjonggb.py ``prepare``);
(c) win checks/s: ``mjspec.runtime.shapes.is_complete`` on counts34 vectors
    under the profile's shapes: the 14-tile concealed parts of the corpus
    hands (complete) interleaved with as many random 14-tile draws from the
    profile's wall (almost never complete), as a table asks after each draw;
(d) shanten calls/s: ``mjspec.runtime.shapes.shanten`` under the profile's
    shapes on 13-tile hands (the corpus hands' concealed parts without the
    winning tile, with their melds, interleaved with random 13-tile draws)
    beside PyMahjongGB's ``MahjongShanten`` on the same hands (it always
    counts the GB shapes; on gb_mcr both count the same ones).

Each figure is printed with its target from issue 12 beside it: riichi
evaluation >= 10x the HandCalculator, GB evaluation >= 1x the raw call,
Sichuan and classical >= 200,000 evaluations/s and >= 1,000,000 win checks/s,
shanten >= PyMahjongGB's.

Cold, and how: every round measures a fresh slice of one seeded corpus of distinct tile sets (no
hand is measured twice in a run), in fresh processes (one per side and round: mjspec Python, mjspec
default, anchor; run in turn, round after round). An mjspec process first scores a separate warm-up
slice of the corpus (``--warm``, 5,000 hands, with their win checks and shanten: the per-suit
decomposition tables, the profile's plan and its native scorer fill, as in any long-running engine,
and stay warm; a suit vector the warm-up missed is still solved inside the timed pass), then calls
``mjspec.runtime.scoring.clear_memo(profile)`` before each timed pass, so no answer comes from the
per-hand memo (it keeps only what the profile alone decides: ``scoring.PROFILE_DERIVED``). The
figure is the process's CPU time (``time.process_time``) around each pass alone; the table gives the
median over the rounds with the slowest and fastest round (on a shared machine the spread says how
far to trust a figure), and each ratio is the median of the rounds' own ratios (mjspec and the
anchor timed in the same round). After timing, each mjspec process digests its answers (legal,
total, fu, payments of every hand; every win check and shanten), and the run says whether the two
backends agreed. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

RIICHI = ("riichi_planet", "riichi_tenhou", "riichi_tenhou_east")
SICHUAN_LIKE = ("sichuan_tfmj", "sichuan_planet", "classical_xmj")
PROFILES = ("sichuan_tfmj", "sichuan_planet", *RIICHI, "gb_mcr", "classical_xmj")
EVALUATIONS_TARGET = 200_000
WIN_CHECKS_TARGET = 1_000_000


# ---- the corpora (parent, untimed) ----------------------------------------------------------


def kind_mpsz(kind: int) -> str:
    return f"{kind % 9 + 1}{'mps'[kind // 9]}" if kind < 27 else f"{kind - 26}z"


def wall_draws(profile_id: str, n: int, size: int, seed: int) -> list[dict[str, Any]]:
    """``n`` random draws of ``size`` tiles from the profile's wall (no flowers), as requests'
    tiles."""
    from mjspec.app.registry import load_profile

    profile = load_profile(profile_id)
    wall = [k for k in profile.tiles.kinds() if k < 34 for _ in range(profile.tiles.copies)]
    rng = random.Random(seed)
    return [
        {"concealed": "".join(kind_mpsz(k) for k in sorted(rng.sample(wall, size))), "melds": []}
        for _ in range(n)
    ]


def write_round(path: Path, hands: list[dict[str, Any]], draws: dict[str, list[Any]]) -> None:
    path.write_text(json.dumps({"hands": hands, **draws}), encoding="utf-8")


# ---- the measuring processes ----------------------------------------------------------------


def cpu(fn: Callable[[], object]) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def mjspec_child(profile_id: str, warm_path: Path, round_path: Path) -> dict[str, Any]:
    from mjspec.app.registry import load_profile
    from mjspec.runtime.request import parse_request
    from mjspec.runtime.scoring import clear_memo, evaluate
    from mjspec.runtime.shapes import is_complete, shanten
    from mjspec.runtime.tiles import counts34, parse_tiles

    profile = load_profile(profile_id)
    rules = profile.shapes

    def load(path: Path) -> tuple[list[Any], list[Any], list[Any]]:
        data = json.loads(path.read_text("utf-8"))
        hands = [parse_request(profile, r) for r in data["hands"]]
        checks, shantens = [], []
        for (hand, _), draw14, draw13 in zip(hands, data["draws14"], data["draws13"]):
            n_melds = len(hand.melds)
            checks.append((counts34([*hand.concealed, hand.win_tile]), n_melds))
            checks.append((counts34(parse_tiles(draw14["concealed"])), 0))
            shantens.append((counts34(hand.concealed), n_melds))
            shantens.append((counts34(parse_tiles(draw13["concealed"])), 0))
        return hands, checks, shantens

    warm = load(warm_path)
    hands, checks, shantens = load(round_path)

    def evaluations(hs: list[Any]) -> Callable[[], None]:
        def run() -> None:
            for hand, ctx in hs:
                evaluate(profile, hand, ctx)

        return run

    def win_checks(cs: list[Any]) -> Callable[[], None]:
        def run() -> None:
            for counts, n_melds in cs:
                is_complete(counts, n_melds, rules)

        return run

    def shanten_calls(cs: list[Any]) -> Callable[[], None]:
        def run() -> None:
            for counts, n_melds in cs:
                shanten(counts, n_melds, rules)

        return run

    evaluations(warm[0])()
    win_checks(warm[1])()
    shanten_calls(warm[2])()
    out: dict[str, Any] = {}
    clear_memo(profile)
    out["evaluate"] = (cpu(evaluations(hands)), len(hands))
    clear_memo(profile)
    out["is_complete"] = (cpu(win_checks(checks)), len(checks))
    clear_memo(profile)
    out["shanten"] = (cpu(shanten_calls(shantens)), len(shantens))
    digest = hashlib.sha256()
    legal = 0
    for hand, ctx in hands:
        score = evaluate(profile, hand, ctx).to_contract()
        legal += score.get("legal") is True
        digest.update(json.dumps(score, sort_keys=True).encode())
    digest.update(bytes(is_complete(c, n, rules) for c, n in checks))
    digest.update(bytes(shanten(c, n, rules) + 1 for c, n in shantens))
    out["digest"] = digest.hexdigest()[:16]
    out["legal"] = legal
    return out


def anchor_child(profile_id: str, round_path: Path) -> dict[str, Any]:
    data = json.loads(round_path.read_text("utf-8"))
    out: dict[str, Any] = {}
    if profile_id in RIICHI and importlib.util.find_spec("mahjong"):
        from contract_mahjong import prepare as riichi_prepare
        from mahjong.hand_calculating.hand import HandCalculator

        calls = [riichi_prepare(r) for r in data["hands"]]

        def riichi_run() -> None:
            for kwargs in calls:
                HandCalculator.estimate_hand_value(**kwargs)

        out["anchor_evaluate"] = (cpu(riichi_run), len(calls))
    if not importlib.util.find_spec("MahjongGB"):
        return out
    from contract_pymahjonggb import pack, tile_names
    from contract_pymahjonggb import prepare as gb_prepare
    from MahjongGB import MahjongFanCalculator, MahjongShanten

    if profile_id == "gb_mcr":
        fan_calls = [gb_prepare(r) for r in data["hands"]]

        def gb_run() -> None:
            for kwargs in fan_calls:
                try:
                    MahjongFanCalculator(**kwargs)
                except TypeError:  # ERROR_NOT_WIN: still a call answered
                    pass

        out["anchor_evaluate"] = (cpu(gb_run), len(fan_calls))
    shanten_calls = []
    for hand, draw in zip(data["hands"], data["draws13"]):
        packs = tuple(pack(m) for m in hand["melds"])
        shanten_calls.append((packs, tuple(tile_names(hand["concealed"]))))
        shanten_calls.append(((), tuple(tile_names(draw["concealed"]))))

    def shanten_run() -> None:
        for packs, tiles in shanten_calls:
            MahjongShanten(pack=packs, hand=tiles)

    out["anchor_shanten"] = (cpu(shanten_run), len(shanten_calls))
    return out


# ---- the parent: rounds, medians, the table -------------------------------------------------


def run_child(argv: list[str], env: dict[str, str]) -> dict[str, Any]:
    """Run one measuring process with ``env`` as its whole environment; its JSON result."""
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


Results = list[dict[str, Any]]


def rates(results: Results, key: str) -> list[float]:
    """Calls per second of each round: the count over the CPU seconds of the pass."""
    return [r[key][1] / r[key][0] for r in results if key in r and r[key][0] > 0]


def shown(results: Results, key: str) -> str:
    """The median over the rounds, and the slowest and fastest round."""
    xs = rates(results, key)
    if not xs:
        return f"{'-':>12}  {'':>19}"
    spread = f"{min(xs):,.0f}-{max(xs):,.0f}"
    return f"{statistics.median(xs):>12,.0f}  {spread:>19}"


def ratio(mine: Results, key: str, ref: Results, ref_key: str, need: float) -> str:
    """The median over the rounds of mjspec's rate over the anchor's in the same round."""
    paired = [m / r for m, r in zip(rates(mine, key), rates(ref, ref_key))]
    if not paired:
        return "(anchor not installed)"
    return f"{statistics.median(paired):.2f}x the anchor (target >= {need:g}x)"


def bench_profile(profile_id: str, args: argparse.Namespace, tmp: Path) -> None:
    from corpus import requests

    n, rounds = args.hands, args.rounds
    warm_n = args.warm
    corpus = requests(profile_id, warm_n + n * rounds, args.seed)
    paths = []
    for r in range(rounds + 1):
        hands = corpus[:warm_n] if r == 0 else corpus[warm_n + (r - 1) * n :][:n]
        size = len(hands)
        draws = {
            "draws14": wall_draws(profile_id, size, 14, args.seed * 1000 + 2 * r),
            "draws13": wall_draws(profile_id, size, 13, args.seed * 1000 + 2 * r + 1),
        }
        path = tmp / f"{profile_id}-{r}.json"
        write_round(path, hands, draws)
        paths.append(path)
    me = [sys.executable, str(Path(__file__).resolve()), "--child"]
    sides: dict[str, list[dict[str, Any]]] = {"python": [], "default": [], "anchor": []}
    default = {k: v for k, v in os.environ.items() if k != "MJSPEC_BACKEND"}
    python = {**default, "MJSPEC_BACKEND": "python"}
    for r in range(1, rounds + 1):
        warm, this = str(paths[0]), str(paths[r])
        sides["python"].append(run_child([*me, "mjspec", profile_id, warm, this], python))
        sides["default"].append(run_child([*me, "mjspec", profile_id, warm, this], default))
        sides["anchor"].append(run_child([*me, "anchor", profile_id, warm, this], default))
    py, native, anchor = sides["python"], sides["default"], sides["anchor"]
    agree = all(a["digest"] == b["digest"] for a, b in zip(py, native))
    print(
        f"{profile_id}: {n:,} fresh hands a round, {rounds} rounds (corpus.py seed {args.seed}; "
        f"{py[0]['legal']:,} of round 1's legal); CPU time of each pass"
    )
    print(f"  answers of the two backends identical: {'yes' if agree else 'NO'}")
    anchor_name = "mahjong HandCalculator" if profile_id in RIICHI else "PyMahjongGB fan calculator"
    rows: list[tuple[str, Results, str, str]] = []
    if profile_id in RIICHI or profile_id == "gb_mcr":
        need = 10 if profile_id in RIICHI else 1
        ev = ratio(py, "evaluate", anchor, "anchor_evaluate", need)
        rows.append(("(a) evaluate, MJSPEC_BACKEND=python", py, "evaluate", ev))
        ev = ratio(native, "evaluate", anchor, "anchor_evaluate", need)
        rows.append(("(a) evaluate, default backend", native, "evaluate", ev))
        rows.append((f"(b) {anchor_name} raw call", anchor, "anchor_evaluate", "the anchor"))
    else:
        target = f"target >= {EVALUATIONS_TARGET:,}/s"
        rows.append(("(a) evaluate, MJSPEC_BACKEND=python", py, "evaluate", target))
        rows.append(("(a) evaluate, default backend", native, "evaluate", target))
    checks = f"target >= {WIN_CHECKS_TARGET:,}/s" if profile_id in SICHUAN_LIKE else "(no target)"
    rows.append(("(c) is_complete, MJSPEC_BACKEND=python", py, "is_complete", checks))
    rows.append(("(c) is_complete, default backend", native, "is_complete", checks))
    sh = ratio(py, "shanten", anchor, "anchor_shanten", 1)
    rows.append(("(d) shanten, MJSPEC_BACKEND=python", py, "shanten", sh))
    sh = ratio(native, "shanten", anchor, "anchor_shanten", 1)
    rows.append(("(d) shanten, default backend", native, "shanten", sh))
    rows.append(
        ("(d) PyMahjongGB MahjongShanten", anchor, "anchor_shanten", "the anchor (GB shapes)")
    )
    print(f"  {'calls per second':<40} {'median':>12}  {'rounds min-max':>19}")
    for label, results, key, note in rows:
        print(f"  {label:<40} {shown(results, key)}   {note}")
    print()


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        side, profile_id, warm, this = sys.argv[2:6]
        if side == "mjspec":
            result = mjspec_child(profile_id, Path(warm), Path(this))
        else:
            result = anchor_child(profile_id, Path(this))
        print(json.dumps(result))
        return
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--profile", action="append", choices=PROFILES, help="repeatable; default: all"
    )
    parser.add_argument("--hands", type=int, default=5000, help="fresh hands per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--warm", type=int, default=5000, help="warm-up hands scored before the timed passes"
    )
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    print(f"MJSPEC_BACKEND in this shell: {os.environ.get('MJSPEC_BACKEND') or 'unset'}")
    with tempfile.TemporaryDirectory(prefix="mjspec-native-") as tmp:
        for profile_id in args.profile or PROFILES:
            bench_profile(profile_id, args, Path(tmp))


if __name__ == "__main__":
    main()
