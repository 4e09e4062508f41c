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
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from mjspec.app.agents import BUILTIN, load_agent, portable
from mjspec.app.statistics import GameSummary, Statistics, joined_ranges, summarise
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
    """How worker processes start: ``given``, else ``MJSPEC_START_METHOD``, else spawn.

    Spawn is the one start every platform has (Windows has no fork, and fork is unsafe on
    macOS), so ``--workers`` behaves alike everywhere; on Linux it costs a fresh interpreter
    per worker at the start (docs/simulation.md gives the figure), and
    ``MJSPEC_START_METHOD=fork`` takes fork back."""
    method = given or os.environ.get("MJSPEC_START_METHOD") or "spawn"
    available = multiprocessing.get_all_start_methods()
    if method not in available:
        raise ValueError(
            f"worker start method {method!r} is not available here ({', '.join(available)})"
        )
    return method


#: One game of a run: profile id, seed, bot names, hands (None: the profile's), options given by
#: name.
Job = tuple[str, int, tuple[str, ...], int | None, tuple[tuple[str, object], ...]]


def play_one(args: Job) -> GameSummary:
    """The worker's entry point: play one seeded game and summarise it
    (:func:`mjspec.app.statistics.summarise`)."""
    profile_id, seed, bots, hands, options = args
    profile = bind_options(load_profile(profile_id), dict(options))
    match = play_match(profile, make_players(bots, seed), seed, hands)
    return summarise(match, seed)


class SimulationInterrupted(Exception):
    """Ctrl-C stopped a run: the workers are gone; says how far it got. ``partial`` is the report
    of the games that finished where the backend keeps them (Ray), else None: nothing written."""

    def __init__(self, finished: int, games: int, partial: SimulationReport | None = None) -> None:
        kept = "their statistics kept" if partial is not None else "nothing written"
        super().__init__(f"interrupted: {finished} of {games} game(s) finished; {kept}")
        self.finished = finished
        self.games = games
        self.partial = partial


def _ignore_interrupt() -> None:
    """A worker leaves Ctrl-C to the parent, which stops every worker at once and reports once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@dataclass
class SimulationReport:
    """A run: its statistics (exact counts, :class:`~mjspec.app.statistics.Statistics`) and how it
    ran (workers, start method, seconds: these alone differ between two runs of the same games)."""

    statistics: Statistics
    workers: int
    seconds: float
    start_method: str | None = None
    summaries: list[GameSummary] | None = None
    """Each game's summary, by seed, when the run was asked to keep them (``--versus`` pairs
    them)."""
    backend: str = "local"

    @property
    def profile(self) -> str:
        return self.statistics.profile

    @property
    def games(self) -> int:
        return self.statistics.games

    def run_json(self) -> dict[str, Any]:
        hands = self.statistics.hands
        return {
            "backend": self.backend,
            "workers": self.workers,
            "start_method": self.start_method,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(hands / self.seconds, 1) if self.seconds else None,
        }

    def to_json(self) -> dict[str, Any]:
        """The statistics' JSON (docs/simulation.schema.json) with ``run``: how it ran."""
        out = self.statistics.to_json()
        out["run"] = self.run_json()
        return out

    def header(self) -> str:
        st, run = self.statistics, self.run_json()
        return (
            f"{st.profile}: {st.games} games, {st.hands} hands (seeds {seeds_text(st.seeds)}) in "
            f"{run['seconds']} s ({run['hands_per_second']} hands/s, {self.workers} worker(s)"
            f"{' on Ray' if self.backend == 'ray' else ''})"
        )

    def table(self) -> str:
        return self.header() + "\n" + self.statistics.table()


def seeds_text(ranges: Sequence[Sequence[int]]) -> str:
    return ", ".join(f"{lo}" if lo == hi else f"{lo}-{hi}" for lo, hi in ranges) or "none"


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
    keep: bool = False,
    backend: str = "local",
    address: str | None = None,
) -> SimulationReport:
    """Play ``games`` seeded games with ``workers`` processes (started by ``start``:
    :func:`start_method`), or as Ray tasks (``backend="ray"``, on the cluster at ``address`` or a
    local Ray: :mod:`mjspec.app.ray_backend`); return the report (with each game's summary when
    ``keep``). Ctrl-C raises :class:`SimulationInterrupted`, which on Ray carries the report of
    the games that finished."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    profile = bind_options(load_profile(profile_id), options)  # fail early on a bad option
    specs = tuple(portable(b) for b in bots)  # the jobs carry text: a spawned worker loads them
    make_players(specs, 0)  # fail early on a bad bot spec
    given = tuple(sorted((options or {}).items()))
    jobs: list[Job] = [(profile_id, seed + i, specs, hands, given) for i in range(games)]
    stats = Statistics.for_run(profile, [b.strip() for b in bots], hands, options)
    run = _Run(stats, [] if keep else None)
    method = None
    t0 = time.perf_counter()

    def report() -> SimulationReport:
        stats.seeds = joined_ranges([[x, x] for x in run.seeds])
        if run.summaries is not None:
            run.summaries.sort(key=lambda s: s.seed)
        return SimulationReport(
            stats, workers, time.perf_counter() - t0, method, run.summaries, backend
        )

    try:
        if backend == "ray":
            from mjspec.app import ray_backend

            source = ray_backend.play(jobs, workers=workers, address=address)
            try:
                _collect(source, games, progress, run)
            except KeyboardInterrupt:
                source.close()  # cancels the chunks still running, stops a Ray started here
                raise SimulationInterrupted(stats.games, games, report()) from None
        elif workers <= 1:
            _collect(map(play_one, jobs), games, progress, run)
        else:
            method = start_method(start)
            context = multiprocessing.get_context(method)
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
                    pool.imap_unordered(play_one, jobs, chunksize=chunks), games, progress, run
                )
    except KeyboardInterrupt:
        raise SimulationInterrupted(stats.games, games) from None
    return report()


BACKENDS = ("local", "ray")
"""Where the games are played: worker processes here, or Ray tasks (app/ray_backend.py)."""


@dataclass
class _Run:
    """What a run gathers as its games finish: the statistics, the seeds, and the summaries when
    they are kept."""

    statistics: Statistics
    summaries: list[GameSummary] | None
    seeds: list[int] = field(default_factory=list)

    def add(self, s: GameSummary) -> None:
        self.statistics.add(s)
        self.seeds.append(s.seed)
        if self.summaries is not None:
            self.summaries.append(s)


def _collect(it: Iterable[GameSummary], total: int, progress: bool, run: _Run) -> None:
    """Add the games to ``run`` as they finish (so an interruption knows how many did), with a
    progress bar (:func:`progress_bar`) when asked for and stderr is a terminal."""
    bar = progress_bar(total, run.statistics.profile) if progress else None
    try:
        for s in it:
            run.add(s)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()


def progress_bar(total: int, label: str) -> Any:
    """tqdm's bar on stderr (games done, rate, elapsed and ETA), or None when stderr is not a
    terminal: a file or a pipe gets no carriage returns."""
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    try:
        size = os.get_terminal_size(sys.stderr.fileno())
    except (OSError, ValueError):
        size = os.terminal_size((0, 0))
    # A terminal that states no size (a fresh pty says 0 x 0) gets 80 x 24: tqdm would draw an
    # empty bar, and hide it as below the screen's last line.
    sized = size.columns > 0 and size.lines > 0
    return tqdm(
        total=total,
        desc=label,
        unit="game",
        file=sys.stderr,
        dynamic_ncols=sized,
        ncols=None if sized else 80,
        nrows=None if sized else 24,
    )
