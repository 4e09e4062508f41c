"""A seeded corpus of distinct scoring requests (contracts/scoring.md) for one profile, as JSONL.

Run ``python benchmarks/corpus.py PROFILE --hands N --seed S > corpus.jsonl``.
Each line is one request of ``mjspec score --jsonl``: a winning hand in a
random situation, built by the test kits that the differential tests use:

- riichi profiles (``riichi_planet``, ``riichi_tenhou``, ``riichi_tenhou_east``):
  tests/riichikit.py, the generator behind ``seeded_wins``: legal winning hands
  of every riichi shape with a consistent situation (winds, riichi, ippatsu,
  rinshan, robbing a kan, last tile, first draw, dora and ura-dora indicators,
  red fives, honba, riichi sticks), written with :meth:`RiichiWin.request`;
- ``gb_mcr``: tests/gbkit.py ``random_gb_win``: winning hands of every GB shape
  (sets, seven pairs, thirteen orphans, knitted, nine gates) with winds,
  flowers, self-draw, last tile, kong wins and fourth tile;
- Sichuan and classical: tests/handkit.py ``random_hand`` and
  ``random_context``. Only the kit's built wins are kept (its random wall
  draws, almost never complete, are dropped), so every line has a winning
  shape. Where the kit declares a missing suit that the hand holds while
  another suit is absent, the absent suit is declared instead; the lines
  that remain illegal (all three suits held, a rule's floor) are a stated
  part of the mix, answered ``legal: false`` by the rules' own reasons.

The hands are distinct: a tile set (the sorted concealed tiles, the melds and
the winning tile) already written is drawn again, so N lines are N tile sets.
The same profile, N and seed always give the same file.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from mjspec.runtime.context import WinContext  # noqa: E402
from mjspec.runtime.hand import Meld  # noqa: E402
from mjspec.app.registry import load_profile  # noqa: E402
from mjspec.runtime.scoring import WinningHand  # noqa: E402
from mjspec.runtime.shapes import is_complete  # noqa: E402
from mjspec.runtime.tiles import counts34  # noqa: E402

RIICHI = ("riichi_planet", "riichi_tenhou", "riichi_tenhou_east")
PROFILES = ("sichuan_tfmj", "sichuan_planet", *RIICHI, "gb_mcr", "classical_xmj")
SUITS = ("m", "p", "s")

_DEFAULT_CONTEXT = WinContext()


def context_mapping(ctx: WinContext) -> dict[str, Any]:
    """The request's ``context`` object for ``ctx``: every field that differs from its default."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(ctx):
        value = getattr(ctx, f.name)
        if value == getattr(_DEFAULT_CONTEXT, f.name):
            continue
        if f.name == "options":
            out[f.name] = dict(value)
        elif hasattr(value, "value"):  # a wind or a suit
            out[f.name] = value.value
        else:
            out[f.name] = value
    return out


def hand_request(profile_id: str, hand: WinningHand, ctx: WinContext) -> dict[str, Any]:
    """The contract request of a parsed hand and its situation."""
    return {
        "profile": profile_id,
        "concealed": "".join(t.mpsz for t in hand.concealed),
        "melds": [meld_mapping(m) for m in hand.melds],
        "win_tile": hand.win_tile.mpsz,
        "win": hand.win.value,
        "context": context_mapping(ctx),
    }


def meld_mapping(meld: Meld) -> dict[str, str]:
    return {"type": meld.type.value, "tiles": "".join(t.mpsz for t in meld.tiles)}


def tile_set(request: dict[str, Any]) -> tuple[Any, ...]:
    """What makes two requests the same tile set: sorted concealed tiles, sorted melds, winning
    tile."""
    concealed = request["concealed"]
    pairs = sorted(concealed[i : i + 2] for i in range(0, len(concealed), 2))
    melds = sorted((m["type"], m["tiles"]) for m in request["melds"])
    return tuple(pairs), tuple(melds), request["win_tile"]


def _riichi_requests(profile_id: str, rng: random.Random) -> Iterator[dict[str, Any]]:
    from riichikit import SeededChooser, random_riichi_win

    chooser = SeededChooser(rng)
    while True:
        yield random_riichi_win(chooser).request(profile_id)


def _gb_requests(rng: random.Random) -> Iterator[dict[str, Any]]:
    from gbkit import random_gb_win

    while True:
        got = random_gb_win(rng)
        if got is not None:
            yield hand_request("gb_mcr", *got)


def _held_suits(hand: WinningHand) -> set[str]:
    tiles = [*hand.concealed, hand.win_tile, *(t for m in hand.melds for t in m.tiles)]
    return {t.mpsz[1] for t in tiles}


def _kit_requests(profile_id: str, rng: random.Random) -> Iterator[dict[str, Any]]:
    from handkit import random_context, random_hand

    profile = load_profile(profile_id)
    while True:
        hand = random_hand(rng, profile)
        ctx = random_context(
            rng, profile, hand
        )  # only situations a table could produce (situation.py)
        counts = counts34([*hand.concealed, hand.win_tile])
        if not is_complete(counts, len(hand.melds), profile.shapes):
            continue  # one of the kit's random wall draws
        if ctx.missing_suit is not None:
            held = _held_suits(hand)
            absent = [s for s in SUITS if s not in held]
            if ctx.missing_suit.value in held and absent:
                ctx = dataclasses.replace(
                    ctx, missing_suit=type(ctx.missing_suit)(rng.choice(absent))
                )
        yield hand_request(profile_id, hand, ctx)


def requests(profile_id: str, n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` requests of distinct tile sets for ``profile_id``, the same for the same seed."""
    if profile_id not in PROFILES:
        raise SystemExit(f"unknown profile {profile_id!r}; one of {', '.join(PROFILES)}")
    rng = random.Random(seed)
    if profile_id in RIICHI:
        source = _riichi_requests(profile_id, rng)
    elif profile_id == "gb_mcr":
        source = _gb_requests(rng)
    else:
        source = _kit_requests(profile_id, rng)
    seen: set[tuple[Any, ...]] = set()
    out: list[dict[str, Any]] = []
    for request in source:
        key = tile_set(request)
        if key in seen:
            continue
        seen.add(key)
        out.append(request)
        if len(out) == n:
            break
    return out


def write_jsonl(reqs: list[dict[str, Any]], path: Path) -> None:
    """One request per line, as ``json.dumps`` writes it."""
    with path.open("w", encoding="utf-8") as f:
        for r in reqs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("profile", choices=PROFILES)
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    out = sys.stdout
    for r in requests(args.profile, args.hands, args.seed):
        out.write(json.dumps(r, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
