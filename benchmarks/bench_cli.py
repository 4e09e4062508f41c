"""Start-up and edit-loop figures of the ``mjspec`` command line, optionally against a baseline
tree.

Measures, as CPU time (user + system) of each child process read with ``os.wait4``:

- ``score --jsonl`` answering one request line (the batch path's start-up),
- ``build --check`` and ``build`` with nothing changed (the edit loop).

With ``--baseline DIR`` (a folder holding an older copy of the package as
``DIR/mjspec``, e.g. ``git archive OLD | tar -x -C DIR/mjspec``) each command
runs in both trees, alternating round by round so that the machine's load falls
on both alike; the medians and their ratio are printed. Nothing is asserted.

    .venv/bin/python benchmarks/bench_cli.py --rounds 7 [--baseline /tmp/before]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REQUEST = (
    b'{"profile": "sichuan_tfmj", "concealed": "1111223344556p", "win_tile": "6p", "win": "ron", '
    b'"context": {"missing_suit": "m"}}\n'
)
COMMANDS = {
    "score --jsonl (1 line)": (["score", "--jsonl"], REQUEST),
    "build --check (unchanged)": (["build", "--check"], b""),
    "build (unchanged)": (["build"], b""),
}


def entry_module(tree: Path | None) -> str:
    """The module holding ``main`` in that tree (the command line moved from the compiler to
    app/)."""
    base = tree / "mjspec" if tree is not None else ROOT
    return "mjspec.app.cli" if (base / "app" / "cli.py").exists() else "mjspec.compiler.cli"


def cpu_seconds(argv: list[str], stdin: bytes, tree: Path | None) -> float:
    """Run one command to its end and return the CPU time it used; refuse a failing run."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    code = (
        f"import sys; from {entry_module(tree)} import main; raise SystemExit(main(sys.argv[1:]))"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None and proc.stderr is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(
            f"{' '.join(argv)} failed ({proc.returncode}): {err.decode(errors='replace')}"
        )
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--baseline", type=Path, help="a folder holding an older tree as DIR/mjspec"
    )
    parser.add_argument("--only", choices=list(COMMANDS), help="measure one command")
    args = parser.parse_args()
    sides: list[tuple[str, Path | None]] = [("this tree", None)]
    if args.baseline is not None:
        sides.insert(0, ("baseline", args.baseline.resolve()))
    names = [args.only] if args.only else list(COMMANDS)
    times: dict[tuple[str, str], list[float]] = {(n, s): [] for n in names for s, _ in sides}
    for _ in range(args.rounds):
        for name in names:
            argv, stdin = COMMANDS[name]
            for label, tree in sides:
                times[(name, label)].append(cpu_seconds(argv, stdin, tree))
    print(f"CPU seconds per run, median of {args.rounds} alternating rounds")
    for name in names:
        medians = {label: statistics.median(times[(name, label)]) for label, _ in sides}
        row = "  ".join(f"{label} {m:.3f}" for label, m in medians.items())
        ratio = ""
        if len(sides) == 2 and medians["this tree"] > 0:
            ratio = f"  ({medians['baseline'] / medians['this tree']:.1f}x faster)"
        print(f"  {name:<28}{row}{ratio}")


if __name__ == "__main__":
    main()
