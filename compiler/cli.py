"""The ``mjspec`` command line.

A user's mistake (bad YAML, an unknown key, bad tile notation, an unknown
profile) is reported as ``file:line: path: message`` or one line, with exit
status 2 and no traceback. ``build --check`` exits 1 when output is stale.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence, TextIO

from mjspec.runtime.context import ContextError, WinContext
from mjspec.runtime.options import OptionError, bind_options, parse_assignments
from mjspec.runtime.profile import Profile
from mjspec.runtime.registry import UnknownProfile, load_profile, profile_ids
from mjspec.runtime.request import RequestError, parse_request
from mjspec.runtime.scoring import HandError, Score, WinningHand, evaluate

from .build import Layout, atomic_write, compile_library, stale_files, write_outputs
from .check import check
from .errors import SpecErrors
from .resolve import SpecLibrary


class UserError(Exception):
    """A mistake in what the user asked for: reported in one line, exit status 2."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        result: int = args.run(args)
        return result
    except SpecErrors as e:
        for err in e.errors:
            print(err, file=sys.stderr)
        print(f"{len(e.errors)} error(s)", file=sys.stderr)
        return 2
    except (UserError, UnknownProfile, RequestError, HandError, ContextError, OptionError) as e:
        print(f"mjspec: {e}", file=sys.stderr)
        return 2
    except NotImplementedError as e:
        print(f"mjspec: not implemented: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


OPTION_HELP = "a game option of the profile, e.g. NoLimit=true or FlowersOwnBoth=doubles:2 (repeatable; see the rule document)"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mjspec",
        description="Compile mahjong rule specs (YAML) into typed engines, and use them.",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    b = sub.add_parser("build", help="validate and compile every bundled spec into generated/")
    b.add_argument("--check", action="store_true", help="write nothing; exit 1 naming every stale generated file")
    b.set_defaults(run=_cmd_build)

    v = sub.add_parser("validate", help="check spec files and report every error with file:line")
    v.add_argument("files", nargs="+", type=Path, metavar="FILE", help="spec files (extends are looked up beside each file)")
    v.set_defaults(run=_cmd_validate)

    ls = sub.add_parser("list", help="list the compiled profiles")
    ls.set_defaults(run=_cmd_list)

    s = sub.add_parser(
        "score",
        help="score one hand, or a batch of JSON requests (--jsonl)",
        description=(
            "Score a winning hand. Human form: mjspec score PROFILE CONCEALED --win TILE [--tsumo] "
            "[--meld pon:555m] [--missing s] [--context key=value]. Batch form (contracts/scoring.md): "
            "mjspec score --jsonl < requests.jsonl"
        ),
    )
    s.add_argument("profile", nargs="?", help="profile id (see `mjspec list`)")
    s.add_argument("concealed", nargs="?", help="concealed tiles in mpsz, without the winning tile (e.g. 11122233m456p77p)")
    s.add_argument("--win", dest="win_tile", metavar="TILE", help="the winning tile")
    how = s.add_mutually_exclusive_group()
    how.add_argument("--tsumo", action="store_true", help="won by self-draw")
    how.add_argument("--ron", action="store_true", help="won on a discard (the default)")
    s.add_argument("--meld", action="append", default=[], metavar="TYPE:TILES", help="a declared meld, e.g. pon:555m or ankan:1111p (repeatable)")
    s.add_argument("--missing", choices=["m", "p", "s"], help="the declared missing suit (Sichuan)")
    s.add_argument("--context", action="append", default=[], metavar="KEY=VALUE", help="a context flag, e.g. last_tile=true or honba=2 (repeatable)")
    s.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=OPTION_HELP)
    s.add_argument("--json", action="store_true", help="print the contract's JSON answer instead of a table")
    s.add_argument("--jsonl", action="store_true", help="read JSON requests from stdin, one per line; answer one per line")
    s.set_defaults(run=_cmd_score)

    play = sub.add_parser("play", help="play a match with bots, print a readable log, optionally write the record")
    play.add_argument("profile", help="profile id")
    play.add_argument("--seed", type=int, default=0, help="the match seed: every random choice follows from it (default 0)")
    play.add_argument("--bots", default="greedy", help="one bot for all seats or four, comma-separated: greedy, random (default greedy)")
    play.add_argument("--hands", type=int, help="hands to play (default: the profile's match length)")
    play.add_argument("--record", type=Path, metavar="FILE", help="write the JSON game record here")
    play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=OPTION_HELP)
    play.add_argument("--quiet", action="store_true", help="print only the result")
    play.set_defaults(run=_cmd_play)

    rep = sub.add_parser("replay", help="re-execute a game record and check every event and score")
    rep.add_argument("record", type=Path, help="a record written by `mjspec play --record`")
    rep.set_defaults(run=_cmd_replay)

    imp = sub.add_parser("import-tenhou", help="turn a Tenhou log (mjlog XML or tenhou.net/6 JSON) into a game record")
    imp.add_argument("log", type=Path, help="the Tenhou log file")
    imp.add_argument("--out", type=Path, required=True, metavar="FILE", help="write the mjspec record here")
    imp.add_argument("--profile", help="profile to play it under (default: the log's game type: riichi_tenhou, or riichi_tenhou_east for an East-only game)")
    imp.set_defaults(run=_cmd_import_tenhou)

    sim = sub.add_parser("simulate", help="play many seeded bot games in parallel and summarise them")
    sim.add_argument("profile", help="profile id")
    sim.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    sim.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    sim.add_argument("--seed", type=int, default=0, help="game i uses seed SEED+i (default 0)")
    sim.add_argument("--bots", default="greedy", help="as for play (default greedy)")
    sim.add_argument("--hands", type=int, help="hands per game (default: the profile's match length)")
    sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=OPTION_HELP)
    sim.add_argument("--json", type=Path, metavar="FILE", help="also write the statistics as JSON here")
    sim.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    sim.set_defaults(run=_cmd_simulate)

    bench = sub.add_parser("bench", help="measure hand-evaluation speed on a seeded corpus")
    bench.add_argument("--profile", default="sichuan_tfmj", help="profile to measure (default sichuan_tfmj)")
    bench.add_argument("--hands", type=int, default=10_000, help="corpus size (default 10000)")
    bench.add_argument("--repeats", type=int, default=5, help="timed repeats; the median is reported (default 5)")
    bench.add_argument("--seed", type=int, default=20261129, help="corpus seed")
    bench.set_defaults(run=_cmd_bench)

    from . import docs_cli

    docs_cli.add_commands(sub)
    return p


def _cmd_build(args: argparse.Namespace) -> int:
    layout = Layout.bundled()
    output = compile_library(layout)
    if output.errors:
        raise SpecErrors.of(output.errors)
    if args.check:
        stale = stale_files(layout, output)
        if stale:
            for path in stale:
                print(f"stale: {_rel(layout, path)}", file=sys.stderr)
            print("generated output is out of date: run `mjspec build`", file=sys.stderr)
            return 1
        print(f"up to date: {len(output.profiles)} profile(s), {len(output.files)} file(s)")
        return 0
    changed = set(write_outputs(layout, output))
    for ir in output.profiles:
        path = layout.generated / f"{ir.id}.py"
        state = "written" if path in changed else "unchanged"
        print(
            f"{ir.id}: {len(ir.patterns)} patterns, {len(ir.requirements)} requirement(s), "
            f"{len(ir.examples)} examples, {len(ir.invariants)} invariants -> {_rel(layout, path)} ({state})"
        )
    print(f"built {len(output.profiles)} profile(s); {len(changed)} file(s) changed")
    return 0


def _rel(layout: Layout, path: Path) -> str:
    try:
        return str(path.relative_to(layout.root))
    except ValueError:
        return str(path)


def _cmd_validate(args: argparse.Namespace) -> int:
    failures = 0
    for file in args.files:
        if not file.exists():
            print(f"{file}: no such file", file=sys.stderr)
            failures += 1
            continue
        lib = SpecLibrary(file.parent)
        try:
            ir = check(lib.resolve_file(file), expected_id=file.stem)
        except SpecErrors as e:
            for err in e.errors:
                print(err, file=sys.stderr)
            failures += 1
            continue
        print(f"{file}: ok ({ir.id}: {len(ir.patterns)} patterns, {len(ir.examples)} examples)")
    return 2 if failures else 0


def _cmd_list(args: argparse.Namespace) -> int:
    for pid in profile_ids():
        prof = load_profile(pid)
        base = f" (extends {prof.extends})" if prof.extends else ""
        print(f"{pid}\tv{prof.version}\tbook {prof.source.book}\t{prof.names.en}{base}")
    return 0


def _cmd_score(args: argparse.Namespace) -> int:
    if args.jsonl:
        if args.profile or args.concealed:
            raise UserError("--jsonl reads requests from stdin; give no profile or hand on the command line")
        if args.option:
            raise UserError("--jsonl requests carry their options in context.options; --option is for one hand")
        return score_jsonl(sys.stdin, sys.stdout)
    if not args.profile or args.concealed is None or not args.win_tile:
        raise UserError("usage: mjspec score PROFILE CONCEALED --win TILE [--tsumo] (or --jsonl); see mjspec score --help")
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
        context["options"] = bind_options(profile, parse_assignments(args.option)).option_values.changed(profile.options)
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
    score = evaluate(profile, hand, ctx)
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

    lines = [f"{profile.names.en}: {format_tiles(hand.concealed)} + {hand.win_tile} ({hand.win.value})"]
    if not score.legal:
        lines.append(f"not a legal win: {score.reason}")
        return "\n".join(lines)
    if score.arrangement is not None:
        lines.append(f"shape: {score.arrangement.shape.value}, wait: {score.arrangement.wait.value}")
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


def score_request(raw: Any) -> dict[str, Any]:
    """Answer one contract request (a parsed JSON value); never raises for bad input."""
    if not isinstance(raw, dict):
        return {"error": "a request must be a JSON object"}
    try:
        profile = load_profile(raw.get("profile", ""))
        hand, ctx = parse_request(profile, raw)
        return evaluate(profile, hand, ctx).to_contract()
    except (UnknownProfile, RequestError, HandError, ContextError, OptionError) as e:
        return {"error": str(e)}
    except NotImplementedError as e:
        return {"error": f"not implemented: {e}"}


def score_jsonl(stdin: TextIO, stdout: TextIO) -> int:
    """The batch form of contracts/scoring.md: one answer per request line, flushed line by line."""
    for n, line in enumerate(stdin, 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as e:
            answer: dict[str, Any] = {"error": f"line {n}: not JSON: {e.msg} at column {e.colno}"}
        else:
            answer = score_request(raw)
        stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0


def _bots(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) not in (1, 4):
        raise UserError(f"--bots takes one name or four, comma-separated; got {text!r}")
    from mjspec.runtime.simulate import BOTS

    for n in names:
        if n not in BOTS:
            raise UserError(f"unknown bot {n!r} (choose from {', '.join(BOTS)})")
    return names


def _cmd_play(args: argparse.Namespace) -> int:
    from mjspec.runtime.match import Match, play_hand
    from mjspec.runtime.narrate import describe_event
    from mjspec.runtime.record import match_record
    from mjspec.runtime.simulate import make_players

    profile = bind_options(load_profile(args.profile), parse_assignments(args.option))
    if args.hands is not None and args.hands < 1:
        raise UserError("--hands must be at least 1")
    players = make_players(_bots(args.bots), args.seed)
    match = Match(profile, args.seed, args.hands)
    n = 0
    while not match.over:
        hand = match.new_hand()
        n += 1
        if not args.quiet:
            of = f"/{match.hands_total}" if match.hands_total is not None else f" ({hand.round_wind.value} round, honba {hand.honba})"
            print(f"== hand {n}{of}, dealer seat {hand.dealer} ==")
        start = 0

        def show(_action: object = None) -> None:
            nonlocal start
            for ev in hand.events[start:]:
                line = describe_event(ev)
                if line and not args.quiet:
                    print("  " + line)
            start = len(hand.events)

        show()  # the deal
        play_hand(hand, players, on_step=show)
    match.finish()
    print(f"{profile.id}, seed {args.seed}: totals {match.totals}; placement (first to last) seats {match.placements()}")
    result = match.result()
    if result is not None:
        print("result (thousands, after return, winner bonus and placement): " + ", ".join(f"seat {s}: {r:+.1f}" for s, r in enumerate(result)))
    if args.record:
        _write_json_atomic(args.record, match_record(match))
        print(f"record written to {args.record}")
    return 0


def _write_json_atomic(path: Path, data: Any) -> None:
    atomic_write(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def _cmd_replay(args: argparse.Namespace) -> int:
    from mjspec.runtime.record import ReplayError, replay

    try:
        record = json.loads(args.record.read_text("utf-8"))
    except OSError as e:
        raise UserError(f"{args.record}: cannot read: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise UserError(f"{args.record}:{e.lineno}: not JSON: {e.msg}") from None
    try:
        summary = replay(record)
    except ReplayError as e:
        raise UserError(f"{args.record}: replay failed: {e}") from None
    print(
        f"{args.record}: ok: {summary.profile}, {summary.hands} hand(s), {summary.decisions} decisions, "
        f"{summary.events} events reproduced; totals {list(summary.totals)}"
    )
    return 0


def _cmd_import_tenhou(args: argparse.Namespace) -> int:
    from mjspec.runtime.tenhou import TenhouFormatError, load_log
    from mjspec.runtime.tenhou_replay import WallError, game_record, profile_id_for

    try:
        game = load_log(args.log)
        profile = load_profile(args.profile or profile_id_for(game))
        record = game_record(game, profile)
    except (TenhouFormatError, WallError, ValueError) as e:
        raise UserError(str(e)) from None
    _write_json_atomic(args.out, record)
    print(f"{args.log}: {len(record['hands'])} hand(s) played under {profile.id}; record written to {args.out}")
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from mjspec.runtime.simulate import simulate

    options = parse_assignments(args.option)
    bind_options(load_profile(args.profile), options)  # refuse a bad option before any worker starts
    if args.games < 1 or args.workers < 1:
        raise UserError("--games and --workers must be at least 1")
    report = simulate(
        args.profile, args.games, workers=args.workers, seed=args.seed, bots=_bots(args.bots), hands=args.hands,
        progress=not args.no_progress, options=options,
    )
    print(report.table())
    if args.json:
        _write_json_atomic(args.json, report.to_json())
        print(f"statistics written to {args.json}")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from mjspec.runtime.bench import run_benchmark

    load_profile(args.profile)
    report = run_benchmark(args.profile, hands=args.hands, repeats=args.repeats, seed=args.seed)
    print(report)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
