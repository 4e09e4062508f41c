"""Whole-process batch scoring: ``mjspec score --jsonl`` beside an anchor answering the same
requests.

Run ``python benchmarks/bench_contract.py`` (add ``--hands``, ``--rounds``,
``--profile``). For each profile (``riichi_planet`` against the `mahjong`
package through benchmarks/contract_mahjong.py; ``gb_mcr`` against
PyMahjongGB through benchmarks/contract_pymahjonggb.py) it writes a corpus of
distinct requests (benchmarks/corpus.py, 20,000 by default) to a temporary
file and times whole processes reading it on stdin and writing their answers
to a file:

- ``mjspec score --jsonl < corpus``: the venv's ``mjspec`` console script;
- ``python benchmarks/contract_<anchor>.py < corpus``: the anchor behind the
  same contract and the same JSON handling (benchmarks/contract_io.py; when
  mjspec's own batch path imports orjson, ``--json auto`` makes the adapter
  use it too, and the line printed says which);
- with ``--also-python``, a third: ``mjspec score --jsonl`` under
  ``MJSPEC_BACKEND=python``, the Python reference beside the native backend.

Bytecode: pip compiled the anchors' packages to bytecode when it installed
them; mjspec's editable install has none until a run writes it, and a run
under ``PYTHONDONTWRITEBYTECODE`` (set on some machines) never does, so every
mjspec process would compile its sources again (about 75 ms of start-up
here). Before timing, the benchmark therefore compiles mjspec's modules with
``compileall`` into their ``__pycache__`` (git ignores it), as pip does for an
installed package, and says so; ``--no-compile`` skips that step.

Cold: every process is fresh, so every hand is one it has not seen (the
corpus holds each tile set once; mjspec's memo starts empty and only a
second sight of a tile set is remembered). The commands run in turn, round
after round (A B A B ...), so a change in the machine's load falls on all of
them; the figure is each child's CPU time (user + system, from
``os.wait4``), and the table gives the median over the rounds, microseconds
per line, lines per second and the ratio of the anchor's CPU time to
mjspec's, both of the medians and as the median of each round's own ratio
(above 1: mjspec is faster; issue 12's targets are 8x for riichi
and 1.5x for GB). Start-up is measured the same way on an empty input and
printed on its own line; "net" figures subtract it. Every run's answers are
counted (lines, legal, errors) so that a broken command cannot pass for a
fast one. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from corpus import requests, write_jsonl  # noqa: E402

ANCHORS = {
    "riichi_planet": ("mahjong", "contract_mahjong.py", "mahjong 2.1", 8.0),
    "gb_mcr": ("MahjongGB", "contract_pymahjonggb.py", "PyMahjongGB 1.4", 1.5),
}


@dataclass
class Command:
    """One timed command: its argument list, extra environment and the CPU seconds of each round."""

    label: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    cpu: list[float] = field(default_factory=list)
    startup: list[float] = field(default_factory=list)
    answers: str = ""


def child_cpu(cmd: Command, stdin: Path, stdout: Path) -> float:
    """Run ``cmd`` with ``stdin`` and ``stdout`` as files; its user + system CPU seconds."""
    env = {**os.environ, **cmd.env}
    with stdin.open("rb") as fin, stdout.open("wb") as fout:
        proc = subprocess.Popen(cmd.argv, stdin=fin, stdout=fout, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{cmd.label}: exit status {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def count_answers(path: Path) -> str:
    lines = legal = errors = 0
    with path.open(encoding="utf-8") as f:
        for line in f:
            lines += 1
            answer = json.loads(line)
            legal += answer.get("legal") is True
            errors += "error" in answer
    return f"{lines:,} answers, {legal:,} legal, {errors:,} errors"


def json_handling(choice: str) -> str:
    """``json`` or ``orjson``: with ``auto``, orjson exactly when mjspec's own code imports it."""
    if choice != "auto":
        return choice
    spec = importlib.util.find_spec("mjspec")
    if spec is None or not spec.submodule_search_locations:
        return "json"
    root = Path(next(iter(spec.submodule_search_locations)))
    pattern = re.compile(r"^\s*(import orjson|from orjson import)", re.M)
    uses = any(
        pattern.search(p.read_text("utf-8"))
        for d in (".", "compiler", "runtime")
        for p in (root / d).glob("*.py")
    )
    return "orjson" if uses and importlib.util.find_spec("orjson") else "json"


def compile_mjspec() -> str:
    """Compile mjspec's importable modules to bytecode, as pip does at install; what was done."""
    spec = importlib.util.find_spec("mjspec")
    if spec is None or not spec.submodule_search_locations:
        return "mjspec not found: nothing compiled"
    root = Path(next(iter(spec.submodule_search_locations)))
    folders = [root / d for d in ("app", "runtime", "generated")]
    ok = compileall.compile_file(root / "__init__.py", quiet=1)
    ok = all([ok, *(compileall.compile_dir(f, quiet=1, maxlevels=0) for f in folders)])
    state = "compiled" if ok else "compiled with errors in"
    return (
        f"bytecode: {state} mjspec's modules ({root}: __init__, app, runtime, generated), "
        "as pip does at install"
    )


def median_ms(xs: list[float]) -> float:
    return 1000 * statistics.median(xs)


def bench_profile(
    profile: str, args: argparse.Namespace, mjspec: Path, handling: str, tmp: Path
) -> None:
    module, script, anchor, target = ANCHORS[profile]
    if importlib.util.find_spec(module) is None:
        print(f"{profile}: {anchor} is not installed (pip install -e '.[test]'): skipped\n")
        return
    corpus = tmp / f"{profile}.jsonl"
    write_jsonl(requests(profile, args.hands, args.seed), corpus)
    empty = tmp / "empty.jsonl"
    empty.write_bytes(b"")
    backend = os.environ.get("MJSPEC_BACKEND", "") or "default"
    commands = [Command(f"mjspec ({backend})", [str(mjspec), "score", "--jsonl"])]
    if args.also_python:
        python = {"MJSPEC_BACKEND": "python"}
        commands.append(Command("mjspec (python)", [str(mjspec), "score", "--jsonl"], python))
    adapter = [sys.executable, str(BENCH / script)]
    commands.append(Command(anchor, adapter, {"MJSPEC_BENCH_JSON": handling}))
    print(f"corpus: {profile}, {args.hands:,} distinct requests (corpus.py, seed {args.seed})")
    print(f"JSON handling: {handling} on every side; CPU time of each child (user + system)")
    for cmd in commands:
        env = "".join(f"{k}={v} " for k, v in cmd.env.items())
        print(f"  {cmd.label}: {env}{' '.join(cmd.argv)} < corpus")
    out = tmp / "answers.jsonl"
    for r in range(args.rounds):
        for cmd in commands:
            cmd.startup.append(child_cpu(cmd, empty, out))
        for cmd in commands:
            cmd.cpu.append(child_cpu(cmd, corpus, out))
            if r == 0:
                cmd.answers = count_answers(out)
        print(f"  round {r + 1}: " + "  ".join(f"{c.label} {c.cpu[-1]:.2f} s" for c in commands))
    for cmd in commands:
        print(f"  answers of {cmd.label}: {cmd.answers}")
    startup = ", ".join(f"{c.label} {median_ms(c.startup):.0f} ms" for c in commands)
    print(f"  start-up (empty input, CPU, median of {args.rounds}): {startup}")
    width = max(len(c.label) for c in commands)
    print(
        f"  {'command':<{width}}  {'CPU s':>7}  {'us/line':>8}  {'lines/s':>9}  "
        f"{'net us/line':>11}  {'net lines/s':>11}"
    )
    n = args.hands
    for cmd in commands:
        total = statistics.median(cmd.cpu)
        net = total - statistics.median(cmd.startup)
        shown = (
            f"{1e6 * net / n:11.1f}  {n / net:11,.0f}" if net > 0 else f"{'n/a':>11}  {'n/a':>11}"
        )
        print(
            f"  {cmd.label:<{width}}  {total:7.3f}  {1e6 * total / n:8.1f}  {n / total:9,.0f}  "
            f"{shown}"
        )
    ref = commands[-1]
    for cmd in commands[:-1]:
        of_medians = statistics.median(ref.cpu) / statistics.median(cmd.cpu)
        paired = statistics.median(a / b for a, b in zip(ref.cpu, cmd.cpu))
        print(
            f"  ratio {anchor} CPU / {cmd.label} CPU: {of_medians:.2f}x of the medians, "
            f"{paired:.2f}x the median of the rounds' ratios   (target >= {target}x)"
        )
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="distinct requests per corpus")
    parser.add_argument("--rounds", type=int, default=5, help="alternating timed rounds")
    parser.add_argument(
        "--profile", action="append", choices=sorted(ANCHORS), help="repeatable; default: both"
    )
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument(
        "--json",
        choices=("auto", "json", "orjson"),
        default="auto",
        help="the adapters' JSON handling (auto: as mjspec's batch path)",
    )
    parser.add_argument(
        "--no-compile",
        action="store_true",
        help="do not compile mjspec's modules to bytecode first (see the docstring)",
    )
    parser.add_argument(
        "--also-python",
        action="store_true",
        help="also time mjspec under MJSPEC_BACKEND=python, in the same rounds",
    )
    args = parser.parse_args()
    mjspec = Path(sys.executable).with_name("mjspec")
    if not mjspec.exists():
        raise SystemExit(f"no console script {mjspec}: run this with the venv's python")
    handling = json_handling(args.json)
    print("bytecode: not compiled first (--no-compile)" if args.no_compile else compile_mjspec())
    with tempfile.TemporaryDirectory(prefix="mjspec-bench-") as tmp:
        for profile in args.profile or sorted(ANCHORS, reverse=True):
            bench_profile(profile, args, mjspec, handling, Path(tmp))


if __name__ == "__main__":
    main()
