"""Many seeded bot games, in parallel processes, summarised.

Game ``i`` of a run uses seed ``seed + i``, so any game of a run can be
played again alone with ``mjspec play PROFILE --seed N``. The seats' agents are named by specs
(:mod:`mjspec.app.agents`), which the jobs carry as text: each worker process loads the agents
itself, also when it is spawned rather than forked (macOS and Windows have no fork).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from mjspec.app.agents import BUILTIN, load_agent, portable
from mjspec.runtime.match import play_match
from mjspec.runtime.observation import Agent
from mjspec.runtime.options import bind_options
from mjspec.app.registry import load_profile
from mjspec.runtime.table import SEATS

BOTS: dict[str, Callable[[int], Agent]] = BUILTIN
"""The bundled bots by name (:data:`mjspec.app.agents.BUILTIN`)."""


def make_players(names: Sequence[str], seed: int) -> list[Agent]:
    """One agent per seat by spec (``greedy``, ``random``, ``FILE.py:CLASS``, ``MODULE:CLASS``:
    :mod:`mjspec.app.agents`), seat ``i``'s seeded with ``seed * 4 + i``;
    :class:`~mjspec.app.agents.AgentSpecError` for a spec that names no agent."""
    if len(names) == 1:
        names = list(names) * SEATS
    if len(names) != SEATS:
        raise ValueError(f"give one bot name or {SEATS}, got {len(names)}")
    return [load_agent(n)(seed * SEATS + i) for i, n in enumerate(names)]


def start_method(given: str | None = None) -> str:
    """How worker processes start: ``given``, else ``MJSPEC_START_METHOD``, else fork where the
    platform has it and it is safe (not macOS), else spawn."""
    method = given or os.environ.get("MJSPEC_START_METHOD") or None
    available = multiprocessing.get_all_start_methods()
    if method is None:
        method = "fork" if "fork" in available and sys.platform != "darwin" else "spawn"
    if method not in available:
        raise ValueError(
            f"worker start method {method!r} is not available here ({', '.join(available)})"
        )
    return method


@dataclass
class GameSummary:
    """What one game contributes to the statistics (plain data, so it crosses process
    boundaries)."""

    seed: int
    hands: int = 0
    wins_by_seat: list[int] = field(default_factory=lambda: [0] * SEATS)
    patterns: Counter[str] = field(default_factory=Counter)
    payments: Counter[str] = field(default_factory=Counter)
    exhausted: int = 0
    decisions: int = 0
    draws: int = 0
    totals: list[int] = field(default_factory=lambda: [0] * SEATS)
    fans: Counter[int] = field(default_factory=Counter)


#: One game of a run: profile id, seed, bot names, hands (None: the profile's), options given by
#: name.
Job = tuple[str, int, tuple[str, ...], int | None, tuple[tuple[str, object], ...]]


def play_one(args: Job) -> GameSummary:
    profile_id, seed, bots, hands, options = args
    profile = bind_options(load_profile(profile_id), dict(options))
    match = play_match(profile, make_players(bots, seed), seed, hands)
    s = GameSummary(seed)
    for hand in match.hands:
        s.hands += 1
        s.exhausted += int(hand.exhausted)
        s.decisions += len(hand.decisions)
        for w in hand.wins:
            s.wins_by_seat[w.seat] += 1
            s.fans[w.score.total] += 1
            for p in w.score.patterns:
                s.patterns[p.id] += p.count
        for ev in hand.events:
            if ev.kind == "draw":
                s.draws += 1
            elif "amount" in ev.data:
                s.payments[ev.kind] += int(ev.data["amount"])
    s.totals = list(match.totals)
    return s


class SimulationInterrupted(Exception):
    """Ctrl-C stopped a run: the workers are gone and nothing was written; says how far it got."""

    def __init__(self, finished: int, games: int) -> None:
        super().__init__(f"interrupted: {finished} of {games} game(s) finished; nothing written")
        self.finished = finished
        self.games = games


def _ignore_interrupt() -> None:
    """A worker leaves Ctrl-C to the parent, which stops every worker at once and reports once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass
class SimulationReport:
    profile: str
    games: int
    workers: int
    seconds: float
    summaries: list[GameSummary]

    def to_json(self) -> dict[str, Any]:
        hands = sum(s.hands for s in self.summaries) or 1
        wins = [sum(s.wins_by_seat[i] for s in self.summaries) for i in range(SEATS)]
        patterns: Counter[str] = Counter()
        payments: Counter[str] = Counter()
        fans: Counter[int] = Counter()
        for s in self.summaries:
            patterns.update(s.patterns)
            payments.update(s.payments)
            fans.update(s.fans)
        total_wins = sum(wins) or 1
        return {
            "profile": self.profile,
            "games": self.games,
            "hands": hands,
            "workers": self.workers,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(hands / self.seconds, 1) if self.seconds else None,
            "wins_per_hand_by_seat": [round(w / hands, 4) for w in wins],
            "win_share_by_seat": [round(w / total_wins, 4) for w in wins],
            "wins_per_hand": round(sum(wins) / hands, 4),
            "exhaustion_rate": round(sum(s.exhausted for s in self.summaries) / hands, 4),
            "pattern_frequency_per_win": {
                k: round(v / total_wins, 4) for k, v in sorted(patterns.items())
            },
            "fan_distribution": {str(k): v for k, v in sorted(fans.items())},
            "payments_total_by_kind": dict(sorted(payments.items())),
            "decisions_per_hand": round(sum(s.decisions for s in self.summaries) / hands, 2),
            "draws_per_hand": round(sum(s.draws for s in self.summaries) / hands, 2),
            "first_seed": min((s.seed for s in self.summaries), default=None),
        }

    def table(self) -> str:
        j = self.to_json()
        lines = [
            f"{j['profile']}: {j['games']} games, {j['hands']} hands in {j['seconds']} s "
            f"({j['hands_per_second']} hands/s, {j['workers']} worker(s))",
            f"  wins per hand {j['wins_per_hand']}, exhaustion rate {j['exhaustion_rate']}, "
            f"{j['decisions_per_hand']} decisions and {j['draws_per_hand']} draws per hand",
            "  seat        " + "".join(f"{i:>9}" for i in range(SEATS)),
            "  wins/hand   " + "".join(f"{w:>9}" for w in j["wins_per_hand_by_seat"]),
            "  pattern                 per win",
        ]
        for k, v in sorted(j["pattern_frequency_per_win"].items(), key=lambda kv: -kv[1]):
            lines.append(f"    {k:<22}{v:>8}")
        lines.append("  fan   wins")
        for k, v in j["fan_distribution"].items():
            lines.append(f"    {k:<4}{v:>6}")
        lines.append("  payments (total units by kind)")
        for k, v in j["payments_total_by_kind"].items():
            lines.append(f"    {k:<22}{v:>8}")
        return "\n".join(lines)


def simulate(
    profile_id: str,
    games: int,
    *,
    workers: int = 1,
    seed: int = 0,
    bots: Sequence[str] = ("greedy",),
    hands: int | None = None,
    progress: bool = True,
    options: Mapping[str, object] | None = None,
    start: str | None = None,
) -> SimulationReport:
    """Play ``games`` seeded games with ``workers`` processes (started by ``start``:
    :func:`start_method`); return the report."""
    bind_options(load_profile(profile_id), options)  # fail early on a bad option
    specs = tuple(portable(b) for b in bots)  # the jobs carry text: a spawned worker loads them
    make_players(specs, 0)  # fail early on a bad bot spec
    given = tuple(sorted((options or {}).items()))
    jobs: list[Job] = [(profile_id, seed + i, specs, hands, given) for i in range(games)]
    t0 = time.perf_counter()
    results: list[GameSummary] = []
    try:
        if workers <= 1:
            _collect(map(play_one, jobs), games, progress, results)
        else:
            context = multiprocessing.get_context(start_method(start))
            # Forked workers inherit SIGINT ignored from the moment they exist (the initializer
            # covers spawn).
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                pool = context.Pool(workers, initializer=_ignore_interrupt)
            finally:
                signal.signal(signal.SIGINT, previous)
            with pool:  # leaving it terminates the workers, on Ctrl-C too: no orphans
                # Small chunks: a game is milliseconds of work, so 16 at a time costs little in
                # transport, while the progress line and Ctrl-C (which waits on the chunk in hand)
                # stay responsive even when the machine is loaded.
                chunks = max(1, min(16, games // (workers * 20)))
                _collect(
                    pool.imap_unordered(play_one, jobs, chunksize=chunks), games, progress, results
                )
    except KeyboardInterrupt:
        if progress:
            sys.stderr.write("\n")
        raise SimulationInterrupted(len(results), games) from None
    results.sort(key=lambda s: s.seed)
    return SimulationReport(profile_id, games, workers, time.perf_counter() - t0, results)


def _collect(it: Iterable[GameSummary], total: int, progress: bool, out: list[GameSummary]) -> None:
    """Gather the games into ``out`` as they finish (so an interruption knows how many did)."""
    width = 30
    for n, s in enumerate(it, 1):
        out.append(s)
        if progress and (n == total or n % max(1, total // 100) == 0):
            done = int(width * n / total)
            sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {n}/{total} games")
            sys.stderr.flush()
    if progress:
        sys.stderr.write("\n")
