"""``mjspec simulate --backend ray``: the games of a run as Ray tasks, on this machine or a cluster.

The optional extra ``ray`` (``pip install 'mjspec[ray]'``); nothing else imports Ray. The jobs are
the local backend's (:data:`mjspec.app.simulate.Job`: profile id, seed, agent specs as text,
hands, options) cut into chunks, and each chunk is one task that plays its games with the local
backend's worker entry point (:func:`mjspec.app.simulate.play_one`) and hands back their
summaries. The statistics add the same summaries whatever the order the chunks finish in, so a
run on Ray gives the local backend's numbers for the same seeds, exactly.

A chunk whose worker dies (a crashed process, a lost node) is run again by Ray up to ``retries``
times (``max_retries``); an error of the game itself (an agent breaking the rules) is not retried
and stops the run as it does locally. ``address`` joins an existing cluster (``ray start
--head`` there; every node needs mjspec installed, and an agent given as a file needs the file at
the same path); without it a local Ray is started with ``workers`` CPUs and stopped at the end.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Generator, Iterator, Sequence

from mjspec.app.statistics import GameSummary

if TYPE_CHECKING:
    from mjspec.app.simulate import Job


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached: says what to do."""


def _ray() -> Any:
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise RayUnavailable(
            "--backend ray needs Ray: pip install 'mjspec[ray]' (or use the local backend)"
        ) from None
    return ray


def available() -> bool:
    import importlib.util

    return importlib.util.find_spec("ray") is not None


def connect(workers: int, address: str | None) -> bool:
    """Start a local Ray with ``workers`` CPUs, or join the cluster at ``address``, unless this
    process is connected already; whether it connected now (and so should shut Ray down)."""
    ray = _ray()
    if ray.is_initialized():
        return False
    try:
        if address is None:
            ray.init(
                num_cpus=max(1, workers),
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.ERROR,
            )
        else:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    except (ConnectionError, RuntimeError, ValueError) as e:
        where = address or "a local Ray"
        raise RayUnavailable(f"cannot start or reach {where}: {e}") from None
    return True


@contextmanager
def session(workers: int, address: str | None) -> Iterator[None]:
    """One Ray for several runs (``--versus``: both profiles), shut down at the end if started."""
    started = connect(workers, address)
    try:
        yield
    finally:
        if started:
            _ray().shutdown()


def play_chunk(jobs: Sequence[Job]) -> list[GameSummary]:
    """One task: the chunk's games, played as a local worker plays them."""
    from mjspec.app.simulate import play_one

    return [play_one(job) for job in jobs]


def chunk_size(games: int, workers: int) -> int:
    """Chunks of a few dozen games: a task costs Ray a few milliseconds, a game about as much,
    and about eight chunks a worker keep the workers busy to the end and a retry small."""
    return max(1, min(64, games // (max(1, workers) * 8)))


def play(
    jobs: Sequence[Job],
    *,
    workers: int,
    address: str | None = None,
    retries: int = 3,
    chunk: int | None = None,
) -> Generator[GameSummary, None, None]:
    """The summaries of ``jobs`` as their chunks finish. Closing the iterator early (Ctrl-C)
    cancels the chunks not yet finished; a Ray started here is stopped either way."""
    ray = _ray()
    started = connect(workers, address)
    task = ray.remote(play_chunk).options(max_retries=retries, retry_exceptions=False)
    size = chunk or chunk_size(len(jobs), workers)
    pending = [task.remote(list(jobs[i : i + size])) for i in range(0, len(jobs), size)]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield from ray.get(ref)
    finally:
        for ref in pending:  # an interrupted run: the chunks still running are not wanted
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
