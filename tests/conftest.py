"""Shared fixtures: the compiled profiles, the project's folders, and what a test run builds once.

Compiling the bundled specs takes about 18 s of CPU (black, the payment-domain check and the
rule documents); several modules read that same output, so it is built once per test run by
:func:`bundled_build` (by the first xdist worker to ask; the others read its result). Black is a
pure function of its input text, so a test run also keeps its results by the text, for all its
workers, starting from the memo of the last ``mjspec build`` (:func:`_black_once_per_text`): the
many small builds of ``sichuan_tfmj`` plus a house rule format the unchanged parent engine at most
once.
"""

from __future__ import annotations

import functools
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

import pytest
from hypothesis import HealthCheck, settings

from mjspec.runtime.profile import Profile
from mjspec.app.registry import load_profile, profile_ids

if TYPE_CHECKING:
    from mjspec.compiler.build import BuildOutput

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"

# `pytest --hypothesis-profile=slow` picks the long profile; tests whose own @settings name
# max_examples keep theirs (their long runs are separate tests marked `slow`). The default run's
# 100 examples a property keep the suite inside its three minutes on two cores; the slow profile
# is the thorough one.
settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "slow", max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci")


#: The longest tests (CPU on this project's two-core machine, measured cold), longest first.
#: xdist hands the tests out in collection order, so one of these collected near the end
#: (test_tutorial.py, test_typing.py) would leave one worker running it alone while the other idles.
STARTED_FIRST = (
    "test_typing.py::test_mypy_strict",  # the longest in a fresh clone (no mypy cache): ~18 s
    "test_tutorial.py::test_tutorial_runs_as_written",
    "test_build_cache.py::test_a_changed_spec_fails_check_whatever_the_cache_holds",
    "test_diff.py::test_every_stated_default_is_a_default_keyword_and_back",
    "test_hostile_specs.py::test_bundled_specs_validate",
    "test_backend_records.py::test_records_identical_on_both_backends",
    "test_expr.py::test_generated_well_typed_expressions_compile",
    "test_hostile_specs.py::test_mutated_specs_validate_and_build_alike",
    "test_batch.py::test_fuzzed_batches_answer_every_line",
    "test_format.py::test_hand_written_code_is_black_formatted",
)


#: The folders of Python code whose bytecode a test run makes (:func:`pytest_configure`).
_CODE = ("app", "compiler", "generated", "runtime", "benchmarks")
_COMPILING: list["subprocess.Popen[bytes]"] = []


def pytest_configure(config: pytest.Config) -> None:
    """Make the project's bytecode beside the run, once, in the process that starts the workers.

    Where PYTHONDONTWRITEBYTECODE is set (as on these machines), no process writes bytecode, so
    every ``mjspec`` command a test starts, and every worker, compiles the engines and the runtime
    from source again (about 0.15 s of CPU per command). ``compileall`` writes it once, into the
    git-ignored ``__pycache__`` folders, and skips what is already fresh; Python reads it whatever
    the variable says. It runs in a process of its own while the workers start."""
    if os.environ.get("PYTEST_XDIST_WORKER") is not None or not os.environ.get(
        "PYTHONDONTWRITEBYTECODE"
    ):
        return
    folders = [str(ROOT / name) for name in _CODE if (ROOT / name).is_dir()]
    _COMPILING.append(
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "compileall",
                "-q",
                "-j",
                "1",
                *folders,
                str(ROOT / "__init__.py"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    for process in _COMPILING:
        process.wait()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of :data:`STARTED_FIRST` spread over the first half of the run, in that order;
    the others keep theirs. Spread, not gathered at the front: xdist starts each worker on a block
    of consecutive tests (an eighth of them each, with two workers), and one block holding them
    all would make that worker the last to finish."""
    rank = {name: i for i, name in enumerate(STARTED_FIRST)}

    def name(item: pytest.Item) -> str:
        return f"{item.path.name}::{item.name.split('[')[0]}"

    first = sorted((item for item in items if name(item) in rank), key=lambda i: rank[name(i)])
    if not first:
        return
    rest = [item for item in items if name(item) not in rank]
    step = max(1, len(items) // 2 // len(first))
    for place, item in enumerate(first):
        rest.insert(place * step, item)
    items[:] = rest


def all_profiles() -> list[Profile]:
    return [load_profile(pid) for pid in profile_ids()]


@pytest.fixture(params=profile_ids())
def profile(request: pytest.FixtureRequest) -> Profile:
    return load_profile(request.param)


@pytest.fixture(scope="session")
def bundled_build(tmp_path_factory: pytest.TempPathFactory) -> "BuildOutput":
    """The bundled specs compiled once per test run (read it, never change it).

    Under xdist the first worker to ask compiles them and leaves the result, pickled, in the
    run's own temporary folder (shared by its workers, new for every run); the other workers wait
    for it and read it instead of compiling the same specs again. The output is plain data (the
    IR, bytes and errors), so what they read is what the compile returned.
    """
    from mjspec.compiler.build import Layout, compile_library

    def compiled() -> "BuildOutput":
        out = compile_library(Layout.bundled())
        assert not out.errors, "\n".join(map(str, out.errors))
        return out

    if os.environ.get("PYTEST_XDIST_WORKER") is None:  # one process: nothing to share
        return compiled()
    shared = _run_folder(tmp_path_factory) / "bundled_build.pickle"

    def share() -> None:
        partial = shared.with_suffix(".partial")
        partial.write_bytes(pickle.dumps(compiled()))
        partial.rename(shared)  # whole or not at all, should this worker die while writing

    _once(shared.with_suffix(".done"), share)
    out: BuildOutput = pickle.loads(shared.read_bytes())
    return out


def _run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of this test run's own, shared by its xdist workers (new for every run)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") is not None else base


@pytest.fixture(scope="session", autouse=True)
def _black_once_per_text(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """Black's answer kept by its input text for the test run, where a build has no memo of its own.

    Exact, not an approximation: ``format_python`` without a memo is black on the text with one
    fixed mode, a pure function, and the memo (``compiler/cache.py``) is the one ``mjspec build``
    keeps: keyed by the text, black's version and mode, each entry checked against its hash (a
    damaged or half-written entry is computed again). The run's memo starts as a copy of the
    project's and of what the last test run formatted (kept in pytest's cache folder, pruned to
    what that run used: :func:`pytest_sessionfinish`), made by the first worker. Builds given a
    memo (``mjspec build``) keep their own, and builds in a subprocess run black as always.
    """
    from mjspec.compiler import cache, emit
    from mjspec.compiler.build import Layout, _black_salt

    folder = _run_folder(tmp_path_factory) / "black"
    project = cache.memo_folder(Layout.bundled(), "black")
    kept = _kept_black(request.config)
    _once(folder.with_name("black.seeded"), lambda: _seed(folder, project, kept))
    memo = cache.Memo(folder, _black_salt())
    original = emit.format_python
    formatted = functools.lru_cache(maxsize=None)(lambda raw: original(raw, memo))

    def format_python(raw: str, memo: "emit.Memo | None" = None) -> str:
        return original(raw, memo) if memo is not None else formatted(raw)

    emit.format_python = format_python  # type: ignore[assignment]
    try:
        yield
    finally:
        emit.format_python = original  # type: ignore[assignment]
        if kept is not None:
            _keep(folder, kept, memo.used)


def _seed(folder: Path, project: Path, kept: Path | None) -> None:
    for source in (project, kept):
        if source is not None and source.is_dir():
            shutil.copytree(source, folder, dirs_exist_ok=True)
    folder.mkdir(parents=True, exist_ok=True)


def _kept_black(config: pytest.Config) -> Path | None:
    """Where black's answers outlive the test run (None: pytest runs without its cache)."""
    store = getattr(config, "cache", None)
    return None if store is None else Path(store.mkdir("mjspec-black"))


def _keep(folder: Path, kept: Path, used: set[str]) -> None:
    """Copy the run memo's entries this process used to ``kept`` (each whole or not at all), and
    say which they were, for :func:`pytest_sessionfinish` to prune ``kept`` to the run's."""
    for key in sorted(used):
        entry, target = folder / key, kept / key
        if entry.exists() and not target.exists():
            # Staged under a name of this process's own: both workers may keep the same entry.
            staged = target.with_name(f".{key}.{os.getpid()}.tmp")
            shutil.copyfile(entry, staged)
            os.replace(staged, target)
    said = folder.with_name("black.used")
    said.mkdir(exist_ok=True)
    (said / os.environ.get("PYTEST_XDIST_WORKER", "main")).write_text("\n".join(sorted(used)))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Prune the kept black answers to those the run's processes used (run once, by the process
    that started the workers, after they are done)."""
    if os.environ.get("PYTEST_XDIST_WORKER") is not None:
        return
    kept = _kept_black(session.config)
    factory = getattr(session.config, "_tmp_path_factory", None)
    if kept is None or factory is None:
        return
    said = factory.getbasetemp() / "black.used"
    if not said.is_dir():  # no test asked for the memo
        return
    used = {key for part in said.iterdir() for key in part.read_text().split()}
    for entry in kept.iterdir():
        if entry.name not in used:
            entry.unlink()


def _once(marker: Path, step: "Callable[[], None]") -> None:
    """Run ``step`` in the first process of the run to get here; the others wait until it is
    done."""
    try:
        import fcntl
    except ImportError:  # no POSIX file locks: run it here too (the steps are idempotent)
        step()
        return
    with open(marker.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not marker.exists():
            step()
            marker.touch()


@pytest.fixture(autouse=True)
def _every_event_carries_its_kinds_payload(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every event of every round a test plays carries the fields its kind declares
    (runtime/actions.py ``PAYLOADS``): the rare ones too (pao, kong transfers, nagashi, the
    missing-suit penalty, abortive draws), which the scenario tests reach."""
    from mjspec.runtime.actions import payload_errors
    from mjspec.runtime.table import Round

    played: list[Round] = []
    make = Round.__init__

    def init(self: Round, *args: object, **kwargs: object) -> None:
        make(self, *args, **kwargs)  # type: ignore[arg-type]
        played.append(self)

    monkeypatch.setattr(Round, "__init__", init)
    yield
    wrong = [e for r in played for ev in r.events for e in payload_errors(ev)]
    assert not wrong, f"{len(wrong)} event field(s) unlike their kind's payload: {wrong[:5]}"
