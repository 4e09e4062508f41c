"""The ``mjspec`` command line.

Exit statuses: 0 success; 1 a check that failed (``build --check`` finding
stale output, a ``replay`` that diverges from its record); 2 bad usage or bad
input (bad YAML, an unknown key, bad tile notation, an unknown profile, a
malformed record), reported as ``file:line: path: message`` or one line and
never a traceback; 130 interrupted (Ctrl-C).

Only ``build``, ``validate``, ``diff``, ``new`` and ``docs`` import the compiler (and with
it black, jinja2 and jsonschema), inside the command: scoring, play, replay and
simulation start on the runtime alone.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import mjspec
from mjspec.runtime.context import ContextError
from mjspec.runtime.native_score import backend_of
from mjspec.runtime.options import OptionError, bind_options, parse_assignments
from mjspec.runtime.profile import Profile
from mjspec.app.registry import UnknownProfile, load_profile, profile_ids, use_workspace
from mjspec.runtime.workspace import ENV as WORKSPACE_ENV
from mjspec.runtime.request import RequestError, parse_request
from mjspec.runtime.scoring import HandError, Score, WinningHand, evaluate

from .batch import StreamError, score_jsonl, score_request

if TYPE_CHECKING:
    import argparse

__all__ = ["main", "score_jsonl", "score_request", "UserError"]

#: The bundled profile that plays each Tenhou ranked game type, by its South-round flag (the log's
#: ``GO type`` bit 0x08, or the tenhou.net/6 rule's name): East-South games and East-only games
#: (issue 13 item 11: an East-only log is played under riichi_tenhou_east without being told).
#: The command line chooses; the runtime names no profile.
TENHOU_PROFILES = {True: "riichi_tenhou", False: "riichi_tenhou_east"}

#: Exit statuses (README: "Exit statuses").
OK, CHECK_FAILED, BAD_INPUT, INTERRUPTED = 0, 1, 2, 130


class UserError(Exception):
    """A mistake in what the user asked for: reported in one line, exit status 2."""


class CheckFailed(Exception):
    """A check that ran and found a difference (a diverging replay): one line, exit status 1."""


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    run: Callable[[], int]
    if words == ["score", "--jsonl"]:
        # The batch form as a pipeline starts it: answered without building the parser (start-up).
        run = lambda: score_jsonl(sys.stdin, sys.stdout)  # noqa: E731
    else:
        parser = _parser()
        try:
            args = parser.parse_args(words)
        except KeyboardInterrupt:
            return INTERRUPTED
        if not getattr(args, "command", None):
            parser.print_help()
            return BAD_INPUT
        run = lambda: args.run(args)  # noqa: E731
    # The workspace (the current folder, or --root DIR): its house rules are found by id beside the
    # bundled profiles, here and in every process this one starts (simulate's workers).
    root: Path | None = None if words == ["score", "--jsonl"] else getattr(args, "root", None)
    before = os.environ.get(WORKSPACE_ENV)
    if root is None:
        try:
            root = Path.cwd()
        except OSError:  # the current folder was removed: the bundled profiles only
            pass
    use_workspace(root)
    try:
        result: int = run()
        return result
    except (
        UserError,
        UnknownProfile,
        RequestError,
        HandError,
        ContextError,
        OptionError,
        StreamError,
    ) as e:
        print(f"mjspec: {e}", file=sys.stderr)
        return BAD_INPUT
    except CheckFailed as e:
        print(f"mjspec: {e}", file=sys.stderr)
        return CHECK_FAILED
    except NotImplementedError as e:
        print(f"mjspec: not implemented: {e}", file=sys.stderr)
        return BAD_INPUT
    except BrokenPipeError:
        _silence_stdout()
        return OK
    except KeyboardInterrupt:
        print("\nmjspec: interrupted", file=sys.stderr)
        return INTERRUPTED
    finally:  # main() called from Python leaves the process's workspace as it found it
        if before is None:
            os.environ.pop(WORKSPACE_ENV, None)
        else:
            os.environ[WORKSPACE_ENV] = before


def _silence_stdout() -> None:
    """After the reader of stdout went away: point it at /dev/null, so the flush at exit cannot
    fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _compiling(command: str) -> Callable[[argparse.Namespace], int]:
    """A command that needs the compiler: imported only when it runs; spec errors listed, exit 2."""

    def run(args: argparse.Namespace) -> int:
        from mjspec.compiler.build import LayoutError
        from mjspec.compiler.errors import SpecErrors

        try:
            if command in ("diff", "new", "docs"):
                from mjspec.compiler import docs_cli

                run = {
                    "diff": docs_cli.run_diff,
                    "new": docs_cli.run_new,
                    "docs": docs_cli.run_docs,
                }
                return run[command](args)
            return _cmd_build(args) if command == "build" else _cmd_validate(args)
        except SpecErrors as e:
            for err in e.errors:
                print(err, file=sys.stderr)
            print(f"{len(e.errors)} error(s)", file=sys.stderr)
            return BAD_INPUT
        except LayoutError as e:
            print(f"mjspec: {e}", file=sys.stderr)
            return BAD_INPUT

    return run


OPTION_HELP = (
    "a game option of the profile, e.g. NoLimit=true or FlowersOwnBoth=doubles:2 "
    "(repeatable; see the rule document)"
)


def _parser() -> argparse.ArgumentParser:
    import argparse

    p = argparse.ArgumentParser(
        prog="mjspec",
        description="Compile mahjong rule specs (YAML) into typed engines, and use them.",
        epilog="exit status: 0 success, 1 a check that failed, 2 bad usage or bad input, 130 "
        "interrupted",
    )
    p.add_argument("--version", action="version", version=f"mjspec {mjspec.__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    b = sub.add_parser(
        "build",
        help="validate and compile the workspace's specs into its generated/ and docs/",
        description=(
            "Compile every spec of the workspace (DIR/specs/*.yaml; DIR is the current folder or "
            "--root) into its engines (DIR/generated/) and rule documents (DIR/docs/rules/). The "
            "bundled profiles are never written to, except in the package's own source folder "
            "(a checkout), whose build regenerates them."
        ),
    )
    b.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 naming every stale generated file",
    )
    b.add_argument(
        "--bundled",
        action="store_true",
        help="build the package's own bundled profiles, wherever the current folder is (only in "
        "the package's source: an installed package is never written to)",
    )
    b.set_defaults(run=_compiling("build"))

    v = sub.add_parser("validate", help="check spec files and report every error with file:line")
    v.add_argument(
        "files",
        nargs="*",
        type=Path,
        metavar="FILE",
        help="spec files (default: every spec of the workspace); a profile a spec extends is "
        "looked up beside it, then among the bundled profiles",
    )
    v.set_defaults(run=_compiling("validate"))

    ls = sub.add_parser("list", help="list the compiled profiles")
    ls.set_defaults(run=_cmd_list)

    s = sub.add_parser(
        "score",
        help="score one hand, or a batch of JSON requests (--jsonl)",
        description=(
            "Score a winning hand. Human form: mjspec score PROFILE CONCEALED --win TILE [--tsumo] "
            "[--meld pon:555m] [--missing s] [--context key=value]. Batch form "
            "(contracts/scoring.md): "
            "mjspec score --jsonl < requests.jsonl"
        ),
    )
    s.add_argument("profile", nargs="?", help="profile id (see `mjspec list`)")
    s.add_argument(
        "concealed",
        nargs="?",
        help="concealed tiles in mpsz, without the winning tile (e.g. 11122233m456p77p)",
    )
    s.add_argument("--win", dest="win_tile", metavar="TILE", help="the winning tile")
    how = s.add_mutually_exclusive_group()
    how.add_argument("--tsumo", action="store_true", help="won by self-draw")
    how.add_argument("--ron", action="store_true", help="won on a discard (the default)")
    s.add_argument(
        "--meld",
        action="append",
        default=[],
        metavar="TYPE:TILES",
        help="a declared meld, e.g. pon:555m or ankan:1111p (repeatable)",
    )
    s.add_argument("--missing", choices=["m", "p", "s"], help="the declared missing suit (Sichuan)")
    s.add_argument(
        "--context",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a context flag, e.g. last_tile=true or honba=2 (repeatable)",
    )
    s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=OPTION_HELP)
    s.add_argument(
        "--json", action="store_true", help="print the contract's JSON answer instead of a table"
    )
    s.add_argument(
        "--jsonl",
        action="store_true",
        help="read JSON requests from stdin, one per line; answer one per line",
    )
    s.set_defaults(run=_cmd_score)

    play = sub.add_parser(
        "play", help="play a match with bots, print a readable log, optionally write the record"
    )
    play.add_argument("profile", help="profile id")
    play.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the match seed: every random choice follows from it (default 0)",
    )
    play.add_argument(
        "--bots",
        default="greedy",
        help="one agent for all seats or four, comma-separated, each greedy, random, "
        "path/to/FILE.py:CLASS or package.module:CLASS (a class with choose(observation); made "
        "as CLASS(seed=N) if it takes a seed, else CLASS(); default greedy), or mjai:COMMAND, "
        "an external bot process speaking mjai on stdin/stdout (riichi only; docs/mjai.md)",
    )
    play.add_argument(
        "--hands", type=int, help="hands to play (default: the profile's match length)"
    )
    play.add_argument("--record", type=Path, metavar="FILE", help="write the JSON game record here")
    play.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help=OPTION_HELP
    )
    play.add_argument("--quiet", action="store_true", help="print only the result")
    play.add_argument(
        "--key",
        type=Path,
        metavar="FILE",
        help="sign the record (HMAC-SHA256) with the secret key held in FILE",
    )
    play.add_argument(
        "--clock",
        metavar="ID",
        help="play on one of the profile's clocks (e.g. bullet, blitz, standard, relaxed where "
        "the rule book has them): "
        "each decision is charged the seconds it took, a late one becomes the seat's timeout "
        "default, and the record keeps "
        "the clock and every decision's seconds for replay to re-check",
    )
    play.add_argument(
        "--think",
        type=float,
        metavar="SECONDS",
        help="with --clock: charge every bot decision this many seconds instead of the time it "
        "really took, so that the "
        "same seed gives the same record (bots answer in microseconds; e.g. --think 3 under "
        "bullet runs out the reserve)",
    )
    play.set_defaults(run=_cmd_play)

    rep = sub.add_parser("replay", help="re-execute a game record and check every event and score")
    rep.add_argument("record", type=Path, help="a record written by `mjspec play --record`")
    rep.add_argument(
        "--key",
        type=Path,
        metavar="FILE",
        help="require the record's signature to be made with the secret key held in FILE",
    )
    rep.set_defaults(run=_cmd_replay)

    imp = sub.add_parser(
        "import",
        aliases=["import-tenhou"],
        help="turn a game log (Tenhou mjlog or tenhou.net/6 JSON, or mjai) into a game record",
        description=(
            "Play a logged game at the table and write its record: a Tenhou log (--format tenhou, "
            "the default, as import-tenhou) or an mjai event log (--format mjai, JSON lines, "
            "docs/mjai.md). A log without the game's end (tenhou.net/6 JSON, mjai, a cut mjlog) "
            "that starts mid-match or stops before the match ends is written as an excerpt: the "
            "match starts where its first hand does and may stop unfinished (docs/records.md, "
            '"Excerpts").'
        ),
    )
    imp.add_argument("log", type=Path, help="the log file")
    imp.add_argument(
        "--out", type=Path, required=True, metavar="FILE", help="write the mjspec record here"
    )
    imp.add_argument(
        "--format",
        choices=["tenhou", "mjai"],
        default="tenhou",
        help="the log's format (default tenhou: mjlog XML or tenhou.net/6 JSON)",
    )
    imp.add_argument(
        "--profile",
        help="profile to play it under (default: the log's game type: riichi_tenhou, or "
        "riichi_tenhou_east for an East-only game)",
    )
    imp.set_defaults(run=_cmd_import)

    exp = sub.add_parser(
        "export",
        help="write a riichi game record as an mjai event log or as tenhou.net/6 JSON",
        description=(
            "Replay a riichi record (it must replay: a tampered record is refused) and write it "
            "as the mjai event stream of Mortal, akochan and mjai-reviewer (JSON lines) or as "
            "tenhou.net/6 JSON (the tenhou.net/6 viewer, mjai-reviewer). Other games are "
            "refused: both formats are riichi only (docs/mjai.md)."
        ),
    )
    exp.add_argument("record", type=Path, help="a record of mjspec play --record or import")
    exp.add_argument("--format", choices=["mjai", "tenhou6"], required=True, help="the format")
    exp.add_argument(
        "--out", type=Path, metavar="FILE", help="write it here (default: standard output)"
    )
    exp.set_defaults(run=_cmd_export)

    from mjspec.runtime.text import LANGUAGES  # the report's languages: the specs' own

    sim = sub.add_parser(
        "simulate", help="play many seeded bot games in parallel and summarise them"
    )
    sim.add_argument("profile", nargs="?", help="profile id (none with --merge: the files name it)")
    sim.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    sim.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    sim.add_argument("--seed", type=int, default=0, help="game i uses seed SEED+i (default 0)")
    sim.add_argument(
        "--bots",
        default="greedy",
        help="as for play: greedy, random, FILE.py:CLASS, MODULE:CLASS or mjai:COMMAND, one or "
        "four, comma-separated, seat 0 first (default greedy); the output names each seat's; "
        "each worker loads them again (workers are spawned, as macOS and Windows must; "
        "MJSPEC_START_METHOD=fork forks them)",
    )
    sim.add_argument(
        "--hands", type=int, help="hands per game (default: the profile's match length)"
    )
    sim.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help=OPTION_HELP
    )
    sim.add_argument(
        "--json",
        type=Path,
        metavar="FILE",
        help="also write the statistics as JSON here: exact counts (docs/simulation.schema.json) "
        "that --merge adds",
    )
    sim.add_argument(
        "--merge",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="add the --json files of runs over disjoint seeds (same profile, bots, options and "
        "hands) instead of playing; prints, and with --json writes, the sum",
    )
    sim.add_argument(
        "--versus",
        metavar="PROFILE",
        help="play the same seeds with the same bots under PROFILE too and compare, game by game: "
        "paired differences with 95%% intervals, and the patterns whose frequency changed "
        "(docs/simulation.md)",
    )
    sim.add_argument(
        "--report",
        type=Path,
        metavar="FILE",
        help="also write an HTML report with plots here: one self-contained file (needs the "
        "'report' extra: matplotlib)",
    )
    sim.add_argument(
        "--lang",
        default="en",
        choices=list(LANGUAGES),
        help="the report's language (default en)",
    )
    sim.add_argument(
        "--backend",
        choices=["local", "ray"],
        default="local",
        help="local: worker processes here (default); ray: Ray tasks in chunks, failed chunks "
        "retried, the same numbers (needs the 'ray' extra; Ctrl-C keeps the finished games)",
    )
    sim.add_argument(
        "--address",
        metavar="ADDRESS",
        help="with --backend ray: an existing Ray cluster's address (default: a local Ray with "
        "--workers CPUs)",
    )
    sim.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    sim.set_defaults(run=_cmd_simulate)

    bench = sub.add_parser("bench", help="measure hand-evaluation speed on a seeded corpus")
    bench.add_argument(
        "--profile", default="sichuan_tfmj", help="profile to measure (default sichuan_tfmj)"
    )
    bench.add_argument("--hands", type=int, default=10_000, help="corpus size (default 10000)")
    bench.add_argument(
        "--repeats", type=int, default=5, help="timed repeats; the median is reported (default 5)"
    )
    bench.add_argument("--seed", type=int, default=20261129, help="corpus seed")
    bench.set_defaults(run=_cmd_bench)

    d = sub.add_parser(
        "diff",
        help="list every rule on which two profiles differ",
        description=(
            "Compare two profiles' resolved specs rule by rule: tile set, opening, calls, win "
            "flow, "
            "each pattern present in one only or with another value, payments, exhaustion, match."
        ),
    )
    d.add_argument("a", metavar="A", help="first profile id")
    d.add_argument("b", metavar="B", help="second profile id")
    d.add_argument("--json", action="store_true", help="print the differences as JSON")
    d.set_defaults(run=_compiling("diff"))

    n = sub.add_parser(
        "new",
        help="start a house rule: a spec that extends an existing profile",
        description=(
            "Write specs/ID.yaml, a minimal spec that extends PROFILE (names in every "
            "language, the "
            "parent's source). It builds as it is; then state what differs."
        ),
    )
    n.add_argument(
        "id", metavar="ID", help="the new profile's id (snake_case; also its file and module name)"
    )
    n.add_argument(
        "--from", dest="parent", required=True, metavar="PROFILE", help="the profile to extend"
    )
    n.set_defaults(run=_compiling("new"))

    h = sub.add_parser(
        "docs",
        help="write the rule documents as an HTML site",
        description=(
            "Write every profile's rule document in every language as HTML pages (tiles drawn "
            "as SVG, a language switcher, the index of profiles, each profile's differences from "
            "its parent), for reading on a phone or printing. No script, no network resource."
        ),
    )
    h.add_argument(
        "--html", type=Path, required=True, metavar="DIR", help="the folder to write the site to"
    )
    h.set_defaults(run=_compiling("docs"))
    for command in {id(c): c for c in sub.choices.values()}.values():
        command.add_argument(
            "--root",
            type=Path,
            metavar="DIR",
            help="the workspace: the folder of your house rules (specs/, generated/, docs/; "
            "default: the current folder)",
        )
    return p


def _cmd_build(args: argparse.Namespace) -> int:
    from mjspec.compiler.build import Layout, LayoutError, build, stale_files, write_outputs
    from mjspec.compiler.errors import SpecErrors

    layout = Layout.chosen(args.root, args.bundled)
    if layout.bundled_specs is not None and not any(layout.specs.glob("*.yaml")):
        raise LayoutError(
            f"no specs in {layout.specs}: start a house rule there with `mjspec new ID --from "
            "PROFILE` (`mjspec list` names the profiles)"
        )
    output = build(layout)
    if output.errors:
        raise SpecErrors.of(output.errors)
    if args.check:
        stale = stale_files(layout, output)
        if stale:
            for path in stale:
                print(f"stale: {_rel(layout, path)}", file=sys.stderr)
            print("generated output is out of date: run `mjspec build`", file=sys.stderr)
            return CHECK_FAILED
        print(f"up to date: {len(output.summaries)} profile(s), {len(output.outputs)} file(s)")
        return OK
    changed = set(write_outputs(layout, output))
    from mjspec.compiler.native_build import compile_engines

    for p in output.summaries:
        if p.python_only is not None:
            print(f"{p.python_only}: profile {p.id} is built for the Python backend only")
    for note in compile_engines(layout.generated, [p.id for p in output.summaries]):
        print(note)
    for p in output.summaries:
        path = layout.generated / f"{p.id}.py"
        state = "written" if path in changed else "unchanged"
        print(
            f"{p.id}: {p.patterns} patterns, {p.requirements} requirement(s), "
            f"{p.examples} examples, {p.invariants} invariants -> {_rel(layout, path)} ({state})"
        )
    print(f"built {len(output.summaries)} profile(s); {len(changed)} file(s) changed")
    return OK


def _rel(layout: Any, path: Path) -> str:
    try:
        return str(path.relative_to(layout.root))
    except ValueError:
        return str(path)


def _from_here(path: Path) -> Path:
    """``path`` relative to the current folder when it is below it (as a user would type it)."""
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def _cmd_validate(args: argparse.Namespace) -> int:
    from mjspec.compiler.build import Layout, shadowing_error
    from mjspec.compiler.errors import SpecErrors
    from mjspec.compiler.resolve import SpecLibrary
    from mjspec.compiler.verify import compile_profile, document_errors

    files: list[Path] = list(args.files)
    bundled = Layout.bundled().specs.resolve()
    if not files:  # every spec of the workspace (of the package's source: the bundled ones)
        layout = Layout.chosen(args.root)
        files = [_from_here(p) for p in sorted(layout.specs.glob("*.yaml"))]
        if not files:
            raise UserError(
                f"no specs in {layout.specs}: name spec files, or start a house rule with "
                "`mjspec new ID --from PROFILE`"
            )
    bundled_ids = {p.stem for p in bundled.glob("*.yaml")}
    failures = 0
    for file in files:
        if not file.exists():
            print(f"{file}: no such file", file=sys.stderr)
            failures += 1
            continue
        # A user's spec may extend a bundled profile: looked up beside the file first, then among
        # the bundled specs (as the workspace's build does).
        own = file.parent.resolve() == bundled
        lib = SpecLibrary(file.parent, fallback=None if own else bundled)
        try:
            # The build's own steps (check, engine, payment formulas over their domain, the rule
            # documents), writing nothing: a spec that validates also builds. Black is left out:
            # it would only lay out a file that validate does not write.
            compiled = compile_profile(
                lib.resolve_file(file), expected_id=file.stem, formatted=False
            )
            _, doc_errors = document_errors([compiled], file.parent / "rules")
            if doc_errors:
                raise SpecErrors.of(doc_errors)
        except SpecErrors as e:
            for err in e.errors:
                print(err, file=sys.stderr)
            failures += 1
            continue
        ir = compiled.ir
        print(f"{file}: ok ({ir.id}: {len(ir.patterns)} patterns, {len(ir.examples)} examples)")
        if compiled.python_only is not None:
            print(f"{compiled.python_only}: {ir.id} would be built for the Python backend only")
        if not own and file.stem in bundled_ids:
            # Said, not refused: a changed copy of a bundled spec is worth checking, but a
            # workspace's build refuses it (the bundled profile would be unreachable by its id).
            print(f"note: {shadowing_error(str(file), file.stem)}", file=sys.stderr)
    return 2 if failures else 0


def _cmd_list(args: argparse.Namespace) -> int:
    stale = 0
    for pid in profile_ids():
        try:
            prof = load_profile(pid)
        except UnknownProfile as e:  # a house rule whose spec changed since the workspace's build
            print(f"{pid}\t{e}")
            stale += 1
            continue
        base = f" (extends {prof.extends})" if prof.extends else ""
        print(
            f"{pid}\tv{prof.version}\tbook "
            f"{prof.source.book}\t{backend_of(prof)}\t{prof.names.en}{base}"
        )
    return BAD_INPUT if stale else OK


def _cmd_score(args: argparse.Namespace) -> int:
    if args.jsonl:
        if args.profile or args.concealed:
            raise UserError(
                "--jsonl reads requests from stdin; give no profile or hand on the command line"
            )
        if args.option:
            raise UserError(
                "--jsonl requests carry their options in context.options; --option is for one hand"
            )
        return score_jsonl(sys.stdin, sys.stdout)
    if not args.profile or args.concealed is None or not args.win_tile:
        raise UserError(
            "usage: mjspec score PROFILE CONCEALED --win TILE [--tsumo] (or --jsonl); see "
            "mjspec score --help"
        )
    profile = load_profile(args.profile)
    context: dict[str, Any] = {}
    for item in args.context:
        key, sep, value = item.partition("=")
        if not sep:
            raise UserError(f"--context takes KEY=VALUE, got {item!r}")
        context[key] = _context_value(value)
    if args.missing:
        context["missing_suit"] = args.missing
    if args.option:
        context["options"] = bind_options(
            profile, parse_assignments(args.option)
        ).option_values.changed(profile.options)
    melds = []
    for item in args.meld:
        kind, sep, tiles = item.partition(":")
        if not sep:
            raise UserError(f"--meld takes TYPE:TILES such as pon:555m, got {item!r}")
        melds.append({"type": kind, "tiles": tiles})
    request = {
        "concealed": args.concealed,
        "melds": melds,
        "win_tile": args.win_tile,
        "win": "tsumo" if args.tsumo else "ron",
        "context": context,
    }
    hand, ctx = parse_request(profile, request)
    hand = _drop_included_win_tile(hand)
    score = evaluate(
        profile, hand, ctx, reference=not args.json
    )  # the human form names the arrangement
    if args.json:
        print(json.dumps(score.to_contract(), ensure_ascii=False))
    else:
        print(_describe(profile, hand, score))
    return 0


def _drop_included_win_tile(hand: WinningHand) -> WinningHand:
    """Accept a human's 14-tile hand that already holds the winning tile."""
    expected = 13 - 3 * len(hand.melds)
    if len(hand.concealed) == expected + 1 and hand.win_tile in hand.concealed:
        rest = list(hand.concealed)
        rest.remove(hand.win_tile)
        return WinningHand(tuple(rest), hand.melds, hand.win_tile, hand.win)
    return hand


def _context_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes"):
        return True
    if low in ("false", "no"):
        return False
    if text.isdigit():
        return int(text)
    return text


def _describe(profile: Profile, hand: WinningHand, score: Score) -> str:
    from mjspec.runtime.tiles import format_tiles

    lines = [
        f"{profile.names.en}: {format_tiles(hand.concealed)} + {hand.win_tile} ({hand.win.value})"
    ]
    if not score.legal:
        lines.append(f"not a legal win: {score.reason}")
        return "\n".join(lines)
    if score.arrangement is not None:
        lines.append(
            f"shape: {score.arrangement.shape.value}, wait: {score.arrangement.wait.value}"
        )
    width = max((len(p.name) for p in score.patterns), default=10)
    for p in score.patterns:
        times = f" x{p.count}" if p.count != 1 else ""
        sect = f"  ({p.section})" if p.section else ""
        lines.append(f"  {p.name:<{width}}  {p.value:>3}{times}{sect}")
    unit = profile.total_unit
    capped = f" (capped at {score.capped})" if score.capped != score.total else ""
    lines.append(f"total: {score.total} {unit}{capped}")
    pays = ", ".join(f"{role} pays {amount}" for role, amount in score.payments.items())
    lines.append(f"payments: {pays}")
    return "\n".join(lines)


def _bots(text: str) -> list[str]:
    """``--bots``: one agent spec for every seat or four, comma-separated (:mod:`.agents`), each
    loaded once here so that a bad one is refused before play."""
    from mjspec.app.agents import AgentSpecError, load_agent

    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) not in (1, 4):
        raise UserError(f"--bots takes one spec or four, comma-separated; got {text!r}")
    for n in names:
        try:
            load_agent(n)
        except AgentSpecError as e:  # the spec and why, in one line: exit 2
            raise UserError(str(e)) from None
    return names


def _cmd_play(args: argparse.Namespace) -> int:
    from mjspec.runtime.match import AgentError, Match, play_hand, tell_match_over
    from mjspec.runtime.narrate import describe_event
    from mjspec.runtime.record import match_record
    from mjspec.app.simulate import make_players

    profile = bind_options(load_profile(args.profile), parse_assignments(args.option))
    if args.hands is not None and args.hands < 1:
        raise UserError("--hands must be at least 1")
    players = make_players(_bots(args.bots), args.seed)
    if args.think is not None and (
        args.clock is None or not args.think >= 0 or args.think == float("inf")
    ):
        raise UserError("--think needs --clock and a number of seconds of at least 0")
    try:
        match = Match(profile, args.seed, args.hands, clock=args.clock)
    except ValueError as e:  # a clock the profile does not have, named with the ones it has
        raise UserError(f"--clock: {e}") from None
    timer: Callable[[], float] = time.monotonic
    if args.think is not None:
        thinking = _Thinking(args.think)
        players, timer = [thinking.player(p) for p in players], thinking.clock
    n = 0
    while not match.over:
        hand = match.new_hand()
        n += 1
        if not args.quiet:
            of = (
                f"/{match.hands_total}"
                if match.hands_total is not None
                else f" ({hand.round_wind.value} round, honba {hand.honba})"
            )
            print(f"== hand {n}{of}, dealer seat {hand.dealer} ==")
        start = 0

        def show(_action: object = None) -> None:
            nonlocal start
            for ev in hand.events[start:]:
                line = describe_event(ev)
                if line and not args.quiet:
                    print("  " + line)
            start = len(hand.events)

        timed = 0

        def show_late() -> None:
            nonlocal timed
            for action, timing in zip(hand.decisions[timed:], hand.timing[timed:]):
                if timing is not None and timing[1] and not args.quiet:
                    print(
                        f"  seat {action.seat} ran out of time after {timing[0]:g} s: the "
                        f"table played {action}"
                    )
            timed = len(hand.decisions)

        def step(_action: object = None) -> None:
            show_late()
            show()

        show()  # the deal
        try:
            play_hand(hand, players, on_step=step, clock=timer)
        except AgentError as e:  # a seat's agent answered outside its legal actions, or raised
            raise UserError(f"hand {n}: {e}") from None
    match.finish()
    try:
        tell_match_over(match, players)
    except AgentError as e:
        raise UserError(f"the match's end: {e}") from None
    print(
        f"{profile.id}, seed {args.seed}: totals {match.totals}; placement (first to last) "
        f"seats {match.placements()}"
    )
    result = match.result()
    if result is not None:
        print(
            "result (thousands, after return, winner bonus and placement): "
            + ", ".join(f"seat {s}: {r:+.1f}" for s, r in enumerate(result))
        )
    if args.record:
        _write_json_atomic(args.record, match_record(match, _read_key(args.key)))
        print(f"record written to {args.record}")
    return 0


class _Thinking:
    """``play --think S``: every bot decision takes exactly S seconds on a clock of its own, so a
    timed bot match is as reproducible as an untimed one. :func:`play_hand` reads the clock before a
    decision (0) and after it (S)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.decided = False

    def clock(self) -> float:
        if self.decided:
            self.decided = False
            return self.seconds
        return 0.0

    def player(self, bot: Any) -> Any:
        thinking = self

        class Timed:
            def choose(self, observation: Any) -> Any:
                thinking.decided = True
                return bot.choose(observation)

            def __getattr__(self, name: str) -> Any:  # hand_over, match_over: the bot's own
                return getattr(bot, name)

        return Timed()


def _write_json_atomic(path: Path, data: Any) -> None:
    """Write ``data`` as JSON, atomically; a path that cannot be written is the user's error (exit
    2)."""
    from mjspec.runtime.files import atomic_write

    try:
        atomic_write(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    except OSError as e:
        raise UserError(f"{path}: cannot write: {e.strerror}") from None


def _read_key(path: Path | None) -> bytes | None:
    """The secret of ``--key FILE`` (its bytes, without a final newline); never shown in
    messages."""
    if path is None:
        return None
    try:
        key = path.read_bytes().rstrip(b"\r\n")
    except OSError as e:
        raise UserError(f"{path}: cannot read the key: {e.strerror}") from None
    if not key:
        raise UserError(f"{path}: the key file is empty")
    return key


def _cmd_replay(args: argparse.Namespace) -> int:
    from mjspec.app.api import read_record_json
    from mjspec.app.records import RecordError, ReplayError, replay

    key = _read_key(args.key)
    try:
        record = read_record_json(args.record)  # the size is refused before the file is read
    except RecordError as e:
        raise UserError(str(e)) from None
    try:
        summary = replay(record, key)
    except RecordError as e:  # bad input: exit 2
        raise UserError(f"{args.record}: not a valid record: {e}") from None
    except ReplayError as e:  # a check that failed: exit 1
        raise CheckFailed(f"{args.record}: replay failed: {e}") from None
    except (KeyError, TypeError, AttributeError, IndexError, ValueError, RecursionError) as e:
        # The last guard for a malformed record that no check above names: one line, never a
        # traceback.
        raise UserError(f"{args.record}: malformed record ({type(e).__name__}: {e})") from None
    print(
        f"{args.record}: ok: {summary.profile}, {summary.hands} hand(s), {summary.decisions} "
        "decisions, "
        f"{summary.events} events reproduced; totals {list(summary.totals)}; {summary.seal}"
        + ("; an excerpt of a match" if summary.excerpt else "")
    )
    return 0


def _cmd_import_tenhou(args: argparse.Namespace) -> int:
    from mjspec.app.tenhou import TenhouFormatError, load_log
    from mjspec.app.tenhou_replay import WallError, game_record

    try:
        game = load_log(args.log)
        profile = load_profile(args.profile or TENHOU_PROFILES[game.rules.south_round])
        record = game_record(game, profile)
    except (TenhouFormatError, WallError, ValueError) as e:
        raise UserError(str(e)) from None
    _write_json_atomic(args.out, record)
    excerpt = record.get("excerpt")
    held = ""
    if excerpt is not None:  # docs/records.md, "Excerpts": the log holds some hands of a game
        start = (
            f"from {excerpt['round_wind']} round, dealer seat {excerpt['dealer']}, honba "
            f"{excerpt['honba']}"
        )
        end = "to the match's end" if excerpt["finished"] else "the match not over"
        held = f" (an excerpt of a match: {start}; {end})"
    print(
        f"{args.log}: {len(record['hands'])} hand(s) played under {profile.id}{held}; record "
        f"written to {args.out}"
    )
    return 0


def _cmd_import(args: argparse.Namespace) -> int:
    if args.format == "tenhou":
        return _cmd_import_tenhou(args)
    from mjspec.app.mjai import MjaiFormatError, load_mjai
    from mjspec.app.tenhou_replay import WallError, game_record

    try:
        game, lines = load_mjai(args.log)
        profile = load_profile(args.profile or TENHOU_PROFILES[game.rules.south_round])
        record = game_record(game, profile)
    except MjaiFormatError as e:
        raise UserError(str(e)) from None
    except (WallError, ValueError) as e:
        # The table's message names the hand; say where it starts in the log.
        text = str(e)
        for i, line in reversed(list(enumerate(lines))):
            if f"hand {i}" in text:
                text += f" (hand {i} starts on line {line})"
                break
        raise UserError(text) from None
    _write_json_atomic(args.out, record)
    excerpt = " (an excerpt of a match)" if record.get("excerpt") is not None else ""
    print(
        f"{args.log}: {len(record['hands'])} hand(s) played under {profile.id}{excerpt}; record "
        f"written to {args.out}"
    )
    return OK


def _cmd_export(args: argparse.Namespace) -> int:
    from mjspec.app import mjai, tenhou_export
    from mjspec.app.played import ExportError, played_match
    from mjspec.runtime.files import atomic_write
    from mjspec.runtime.safejson import MAX_BYTES, JsonInputError, loads

    try:
        if args.record.stat().st_size > MAX_BYTES:
            raise UserError(f"{args.record}: larger than {MAX_BYTES} bytes: not a game record")
        record = loads(args.record.read_bytes(), str(args.record))
    except OSError as e:
        raise UserError(f"{args.record}: cannot read: {e.strerror}") from None
    except JsonInputError as e:
        raise UserError(str(e)) from None
    try:
        played = played_match(record)
        if args.format == "mjai":
            text = mjai.dumps(mjai.mjai_events(played))
        else:
            text = tenhou_export.dumps(tenhou_export.tenhou6_document(played))
    except ExportError as e:
        raise UserError(f"{args.record}: {e}") from None
    if args.out is None:
        sys.stdout.write(text)
        return OK
    try:
        atomic_write(args.out, text)
    except OSError as e:
        raise UserError(f"{args.out}: cannot write: {e.strerror}") from None
    print(f"{args.record}: {len(played.hands)} hand(s) written to {args.out} as {args.format}")
    return OK


def _cmd_simulate(args: argparse.Namespace) -> int:
    from mjspec.app.simulate import SimulationInterrupted, simulate, start_method
    from mjspec.runtime.match import AgentError

    _report_ready(args)
    if args.merge is not None:
        return _simulate_merge(args)
    if args.profile is None:
        raise UserError("simulate needs a profile id (or --merge FILE FILE ...)")
    options = parse_assignments(args.option)
    bind_options(
        load_profile(args.profile), options
    )  # refuse a bad option before any worker starts
    if args.games < 1 or args.workers < 1:
        raise UserError("--games and --workers must be at least 1")
    if args.hands is not None and args.hands < 1:
        raise UserError("--hands must be at least 1")
    try:
        start = start_method()
    except ValueError as e:  # MJSPEC_START_METHOD names a method this platform does not have
        raise UserError(str(e)) from None
    if args.versus is not None:
        # The same options bind under both profiles, or the comparison is refused before play.
        bind_options(load_profile(args.versus), options)
    if args.address is not None and args.backend != "ray":
        raise UserError("--address names a Ray cluster: it goes with --backend ray")
    if args.backend == "ray":
        from mjspec.app import ray_backend

        if not ray_backend.available():
            raise UserError("--backend ray needs Ray: pip install 'mjspec[ray]'")
    run: dict[str, Any] = dict(
        workers=args.workers,
        seed=args.seed,
        bots=_bots(args.bots),
        hands=args.hands,
        progress=not args.no_progress,
        options=options,
        start=start,
        backend=args.backend,
        address=args.address,
    )
    try:
        if args.versus is not None:
            from mjspec.app.versus import versus

            result: Any = versus(args.profile, args.versus, args.games, **run)
        else:
            result = simulate(args.profile, args.games, **run)
    except AgentError as e:  # a seat's agent answered outside its legal actions, or raised
        raise UserError(str(e)) from None
    except SimulationInterrupted as e:
        if e.partial is None or args.versus is not None:  # a comparison needs both runs whole
            print(
                f"mjspec: simulate interrupted: {e.finished} of {e.games} game(s) finished; "
                "nothing written",
                file=sys.stderr,
            )
            return INTERRUPTED
        _simulate_output(args, e.partial)  # the finished games: a run over their seeds
        print(f"mjspec: simulate {e}", file=sys.stderr)
        return INTERRUPTED
    except RuntimeError as e:
        from mjspec.app.ray_backend import RayUnavailable

        if isinstance(e, RayUnavailable):
            raise UserError(str(e)) from None
        raise
    _simulate_output(args, result)
    return 0


def _simulate_output(args: argparse.Namespace, result: Any) -> None:
    """The table, and the JSON and the report where asked for."""
    print(result.table())
    if args.json:
        _write_json_atomic(args.json, result.to_json())
        print(f"statistics written to {args.json}")
    if args.report:
        _write_report(args.report, result, args.lang)


def _report_ready(args: argparse.Namespace) -> None:
    """Refuse ``--report`` before any game is played when matplotlib is missing."""
    if args.report is None:
        return
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise UserError(
            "--report draws its plots with matplotlib: pip install 'mjspec[report]' (or leave "
            "out --report)"
        )


def _write_report(path: Path, result: Any, lang: str) -> None:
    """The HTML report of a run, a --versus comparison or merged statistics, written atomically."""
    from mjspec.app.report import ReportError, run_report, versus_report
    from mjspec.app.versus import Comparison
    from mjspec.runtime.files import atomic_write

    try:
        page = (
            versus_report(result, lang)
            if isinstance(result, Comparison)
            else run_report(result, lang)
        )
    except ReportError as e:
        raise UserError(str(e)) from None
    try:
        atomic_write(path, page)
    except OSError as e:
        raise UserError(f"{path}: cannot write: {e.strerror}") from None
    print(f"report written to {path}")


def _simulate_merge(args: argparse.Namespace) -> int:
    """``simulate --merge``: add the statistics of runs over disjoint seeds, exactly."""
    from mjspec.app.simulate import seeds_text
    from mjspec.app.statistics import MergeError, merge_all, read_statistics

    if args.profile is not None or args.versus is not None:
        raise UserError(
            "simulate --merge takes no profile (each file names its own) and no --versus"
        )
    if len(args.merge) < 2:
        raise UserError("simulate --merge needs two files or more")
    runs = []
    seconds = 0.0
    try:
        for path in args.merge:
            try:
                raw = path.read_bytes()
            except OSError as e:
                raise UserError(f"{path}: cannot read: {e.strerror}") from None
            stats, run = read_statistics(raw, str(path))
            runs.append((str(path), stats))
            seconds += float(run.get("seconds", 0.0))
        total = merge_all(runs)
    except MergeError as e:
        raise UserError(str(e)) from None
    print(
        f"{total.profile}: {total.games} games, {total.hands} hands (seeds "
        f"{seeds_text(total.seeds)}), merged from {len(runs)} runs"
    )
    print(total.table())
    if args.json:
        out = total.to_json()
        out["run"] = {"merged_from": len(runs), "seconds": round(seconds, 3)}
        _write_json_atomic(args.json, out)
        print(f"statistics written to {args.json}")
    if args.report:
        _write_report(args.report, total, args.lang)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from mjspec.app.bench import run_benchmark

    load_profile(args.profile)
    report = run_benchmark(args.profile, hands=args.hands, repeats=args.repeats, seed=args.seed)
    print(report)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
