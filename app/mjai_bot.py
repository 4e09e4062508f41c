"""An external bot process at the table, speaking mjai over its standard input and output
(``--bots "mjai:COMMAND"``; docs/mjai.md, "A bot process at the table").

:class:`MjaiBot` is an agent (:class:`~mjspec.runtime.observation.Agent`) like any other: it is
handed its seat's observations and answers with one of their legal actions. It owns a process
started from ``COMMAND`` (split as a shell would, :func:`shlex.split`, but run without a shell),
started at the seat's first decision and stopped when the agent is dropped, when the program
exits (Ctrl-C included) or after the first error.

The protocol is the original mjai one (gimite's mjai server: server and client send each other
one JSON line in turn): the table sends one event per line as the seat sees it (other seats'
draws as ``"?"``, their starting tiles as ``"?"`` too), and the bot answers each event with one
line: an action, or ``{"type":"none"}``. ``mjai_batch:COMMAND`` speaks mjai.app's dialect instead
(the ``mjai`` package's ``Bot.start``): at each decision the events since the last one as one
JSON array on one line, and one answer. Its answer to the event at which the table asks the seat
to decide is translated into one of the observation's legal actions; its answers to the other
events are read and checked to be JSON objects, and otherwise not taken (the table did not ask the
seat then). Riichi takes two answers, as in mjai: ``reach``, then, to the ``reach`` event sent
back, the declaring ``dahai``.

The events are derived from the observations alone (the agent is never handed the table): each
decision's observation is compared with the events already sent, and the public steps between
them are replayed in turn order (draws, discards, calls, kongs and their replacement draws, riichi,
indicators at the moments the profile's rules turn them). At the end of a hand the agent is shown
the seat's observation of the ended hand (``hand_over``, see
:class:`~mjspec.runtime.observation.Agent`): the steps after the seat's last decision are
replayed up to it, then come each win's ``hora`` (its ``deltas`` and, for a riichi winner, its
``ura_markers``) or the ``ryukyoku``, and ``end_kyoku``; at the end of the match
(``match_over``) ``end_game``, after which the process is stopped. What an observation does not
show is not sent: whether another seat's discard was the tile it had just drawn (``tsumogiri`` is
false for other seats).
"""

from __future__ import annotations

import copy
import json
import os
import queue
import shlex
import shutil
import subprocess
import tempfile
import threading
import weakref
from typing import IO, Any, Sequence

from mjspec.app.agents import AgentFactory, AgentSpecError, register_kind
from mjspec.runtime.actions import Action, ActionKind
from mjspec.runtime.hand import Meld, MeldType
from mjspec.runtime.observation import Agent, Observation, SeenWin
from mjspec.runtime.rules import IndicatorTiming
from mjspec.runtime.table import SEATS, Phase
from mjspec.runtime.tiles import Tile

__all__ = ["MjaiBot", "MjaiBotError", "TIMEOUT_ENV", "DEFAULT_TIMEOUT"]

TIMEOUT_ENV = "MJSPEC_MJAI_TIMEOUT"
"""The environment variable that sets how long a bot may take to answer one event (seconds)."""
DEFAULT_TIMEOUT = 10.0
"""Seconds a bot may take to answer one event, unless ``MJSPEC_MJAI_TIMEOUT`` says otherwise (the
mjai.app referee's limit)."""
_MAX_LINE = 1 << 20  # no mjai answer comes near a megabyte: a longer line is garbage


class MjaiBotError(RuntimeError):
    """A bot process that did not play: crashed, answered garbage or an illegal action, or took
    too long. One line naming the command, the event it was answering, and why."""


def _line(event: dict[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


# ------------------------------------------------------------------ the process


class _Process:
    """The bot's process: one line written to its input, one line read from its output, with a
    timeout (a thread reads its output, so a silent bot cannot hang the table). Its standard error
    goes to a temporary file, whose last line explains a crash."""

    def __init__(self, argv: list[str]) -> None:
        self.stderr: IO[bytes] = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            bufsize=0,
            # Its own session: Ctrl-C at the terminal reaches mjspec, which stops the bot itself
            # (rather than the bot printing its own traceback in the middle of ours).
            start_new_session=os.name == "posix",
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        # The reader holds the pipe and the queue, not this object: dropping the agent drops it,
        # and its finalizer stops the process (whose output then ends, and the reader with it).
        reader = threading.Thread(target=_read, args=(self.proc.stdout, self.lines), daemon=True)
        reader.start()
        self._finalizer = weakref.finalize(self, _stop, self.proc, self.stderr)

    def send(self, text: str) -> None:
        """Write one line (raises OSError when the process has gone)."""
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(text.encode("utf-8") + b"\n")
        stdin.flush()

    def receive(self, timeout: float) -> bytes | None:
        """The next line, None when the process closed its output; raises queue.Empty after
        ``timeout`` seconds."""
        return self.lines.get(timeout=timeout)

    def why_gone(self) -> str:
        """How the process ended (its exit status and the last line it wrote to standard error),
        waiting a moment for it to end."""
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "it closed its output but is still running"
        said = ""
        try:
            self.stderr.seek(0)
            text = self.stderr.read()[-4096:].decode("utf-8", "replace")
            tail = [ln.strip() for ln in text.splitlines() if ln.strip()]
            if tail:
                said = f"; its last words on standard error: {tail[-1]}"
        except OSError:
            pass
        return f"it exited with status {code}{said}"

    def close(self) -> None:
        self._finalizer()


def _read(out: IO[bytes] | None, lines: queue.Queue[bytes | None]) -> None:
    """Put each line the process writes into ``lines``, then None when its output ends."""
    assert out is not None
    try:
        while True:
            line = out.readline(_MAX_LINE)
            if not line:
                break
            lines.put(line)
    except (OSError, ValueError):  # the pipe was closed under us: the process is gone
        pass
    lines.put(None)


def _stop(proc: subprocess.Popen[bytes], stderr: IO[bytes]) -> None:
    """Stop a bot process: its input closed (an mjai bot ends at the end of its input), then, if
    it has not ended within a moment, killed."""
    try:
        if proc.stdin is not None:
            proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(timeout=0.5)
    except subprocess.TimeoutExpired:
        proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process that survives SIGKILL
            pass
    if proc.stdout is not None:
        proc.stdout.close()
    stderr.close()


# ------------------------------------------------------------------ events from observations


class _Desync(Exception):
    """The observation cannot follow from the events sent (a bug of this module, not the bot's)."""


def _hand_key(obs: Observation) -> tuple[Any, ...]:
    # What stays the same through a hand and changes from one hand to the next in a riichi match
    # (a dealer who keeps the deal adds a repeat counter; 001).
    return (obs.round_wind, obs.dealer, obs.honba, obs.points, obs.dora_indicators[:1])


class _Hand:
    """The events of one hand already sent to the bot, as far as the observations show them, and
    the replay of the public steps up to the next observation (module docstring)."""

    def __init__(self, obs: Observation) -> None:
        self.me = obs.seat
        self.key = _hand_key(obs)
        self.wall = obs.wall_remaining
        self.rivers = [0] * SEATS
        self.melds: list[list[Meld]] = [[] for _ in range(SEATS)]
        self.reach = [False] * SEATS
        self.accept: int | None = None  # a declaring discard waiting for its deposit
        self.dora = 1  # the first indicator comes with start_kyoku
        self.pending_open = 0  # kongs whose indicator comes with the next discard
        self.cursor: tuple[str, int] = ("start", obs.dealer)
        self.robbed: Tile | None = None  # a kong announced during a rob window, not yet made
        self.tsumogiri = False  # whether the seat's own last discard was its drawn tile
        self.forced: int | None = None  # the caller a trial replay takes (_caller)
        rules = obs.profile.table.dead_wall
        self.indicators = rules is not None and rules.kong_indicators
        self.open_timing = rules.open_kong_indicator if rules is not None else None
        self.concealed_timing = rules.concealed_kong_indicator if rules is not None else None

    def same(self, obs: Observation) -> bool:
        """Whether ``obs`` is of this hand (not of a later one)."""
        return (
            _hand_key(obs) == self.key
            and obs.wall_remaining <= self.wall
            and all(len(r) >= n for r, n in zip(obs.rivers, self.rivers))
        )

    def start(self, obs: Observation) -> dict[str, Any]:
        """The ``start_kyoku`` of the hand ``obs`` is in."""
        from mjspec.app.mjai import kyoku_start, mjai_tile

        dealt = list(obs.hand)
        if obs.drawn is not None:
            dealt.remove(obs.drawn)
        if len(dealt) != 13 or obs.melds[self.me] or obs.rivers[self.me]:
            raise _Desync(f"the seat's first decision of a hand holds {len(dealt)} dealt tiles")
        # The deposits on the table when the hand began: those of riichi declared in this hand and
        # already paid are taken back out (a declaration whose discard is still open is unpaid).
        paid = sum(
            1
            for s in range(SEATS)
            if obs.riichi[s] and not (obs.phase is Phase.CLAIM and self._declaring(obs, s))
        )
        on_table = obs.deposits
        if obs.phase is Phase.OVER and obs.result is not None:
            # The hand is seen first at its end (it ended before the seat's first decision).
            # A declaration won on is void, unpaid; a win took the deposits off the table: the
            # first winner's changes add up to them (the payments between seats cancel out).
            paid -= sum(
                1 for w in obs.wins if w.discarder is not None and self._declaring_won(obs, w)
            )
            if obs.wins:
                rules = obs.profile.table.riichi
                assert rules is not None  # riichi_refusal checked the profile
                on_table = sum(obs.result.win_deltas[0]) // rules.deposit
        tehais = [
            [mjai_tile(t) for t in dealt] if s == self.me else ["?"] * 13 for s in range(SEATS)
        ]
        return kyoku_start(
            obs.round_wind.value,
            obs.dealer,
            obs.honba,
            on_table - paid,
            obs.points,
            obs.dora_indicators[0],
            tehais,
        )

    @staticmethod
    def _declaring(obs: Observation, s: int) -> bool:
        return obs.claim_from == s and obs.sideways[s] == len(obs.rivers[s]) - 1

    @staticmethod
    def _declaring_won(obs: Observation, win: SeenWin) -> bool:
        """Whether ``win`` (of a hand over) was on the discard declaring its discarder's riichi."""
        s = win.discarder
        assert s is not None  # a win on a discard
        return obs.riichi[s] and obs.sideways[s] == len(obs.rivers[s]) - 1

    # ---------------------------------------------------------------- the replay

    def catch_up(self, obs: Observation) -> list[dict[str, Any]]:
        """The events from the last one sent up to the decision ``obs`` is for."""
        self.wall = obs.wall_remaining
        out: list[dict[str, Any]] = []
        for _ in range(1000):
            if self._at(obs):
                # Indicators the table turned that the replay has not placed yet come now.
                self._reveal(obs, out, len(obs.dora_indicators) - self.dora)
                return out
            self._step(obs, out)
        raise _Desync("the replay does not reach the observation")

    def finish(self, obs: Observation) -> list[dict[str, Any]]:
        """The events from the last one sent to the end of the hand ``obs`` shows over: the steps
        after the seat's last decision, the deposit of a declaration nobody won on, indicators
        turned, then each win's ``hora`` (or the ``ryukyoku``) with its score changes."""
        from mjspec.app.mjai import hora_event, ryukyoku_event, step_event
        from mjspec.app.played import Accepted

        result = obs.result
        if result is None:
            raise _Desync("the hand is not over")
        self.wall = obs.wall_remaining
        out: list[dict[str, Any]] = []
        for _ in range(1000):
            if self._ended(obs):
                break
            self._step(obs, out)
        else:
            raise _Desync("the replay does not reach the hand's end")
        if self.accept is not None and not any(w.discarder == self.accept for w in obs.wins):
            out.append(step_event(Accepted(self.accept)))  # the declaring discard passed
            self.accept = None
        self._reveal(obs, out, len(obs.dora_indicators) - self.dora)
        if obs.wins:
            if any(result.other_deltas):
                raise _Desync(f"score changes {list(result.other_deltas)} belong to no win")
            for win, deltas in zip(obs.wins, result.win_deltas):
                ura = result.ura_indicators if obs.riichi[win.seat] else ()
                target = win.seat if win.discarder is None else win.discarder
                out.append(hora_event(win.seat, target, win.tile, deltas, ura))
        else:
            out.append(ryukyoku_event(result.other_deltas))
        return out

    def _ended(self, obs: Observation) -> bool:
        """Whether the replay stands where the hand ``obs`` shows over ended: after the winner's
        draw (a self-draw, or nine terminals declared), after the discard won on or the kong
        robbed, or after the last discard (a draw)."""
        if not (
            all(len(r) == n for r, n in zip(obs.rivers, self.rivers))
            and all(tuple(m) == tuple(v) for m, v in zip(obs.melds, self.melds))
        ):
            return False
        kind, seat = self.cursor
        if obs.wins:
            first = obs.wins[0]
            if first.discarder is None:
                return kind == "turn" and seat == first.seat
            robbed = self.robbed is not None
            return seat == first.discarder and kind == ("kan" if robbed else "dahai")
        assert obs.result is not None
        if obs.result.end == "nine_terminals":  # declared on a turn, before its discard
            return kind == "turn"
        return kind == "dahai"

    def _at(self, obs: Observation) -> bool:
        kind, seat = self.cursor
        if obs.phase is Phase.TURN:
            if kind != "turn" or seat != self.me or obs.turn != self.me:
                return False
        elif obs.phase is Phase.CLAIM:
            if kind != "dahai" or seat != obs.claim_from:
                return False
        elif obs.phase is Phase.ROB:
            if not (kind == "kan" and seat == obs.claim_from and self.robbed is not None):
                return False
        else:
            raise _Desync(f"no mjai decision in phase {obs.phase.value}")
        return all(len(r) == n for r, n in zip(obs.rivers, self.rivers)) and all(
            tuple(m) == tuple(v) for m, v in zip(obs.melds, self.melds)
        )

    def _step(self, obs: Observation, out: list[dict[str, Any]]) -> None:
        kind, seat = self.cursor
        if kind == "start":
            self._draw(obs, out, seat)
        elif kind == "turn":
            self._turn(obs, out, seat)
        elif kind == "dahai":
            self._after_discard(obs, out, seat)
        elif kind == "kan":
            self._kan_made(obs, out, seat)
        else:  # pragma: no cover - every cursor is above
            raise _Desync(f"cursor {self.cursor}")

    def _draw(self, obs: Observation, out: list[dict[str, Any]], seat: int) -> None:
        from mjspec.app.mjai import mjai_tile

        if seat == self.me and obs.riichi[seat] and not self._asked(obs):
            # A turn the table played for the seat: after riichi, a drawn tile that can only be
            # discarded is discarded for it (RiichiRules.automatic_discard, 001). It is the next
            # tile of the seat's river.
            index = self.rivers[seat]
            if len(obs.rivers[seat]) <= index:
                raise _Desync("the seat drew after riichi, but its discard is not in view")
            pai = mjai_tile(obs.rivers[seat][index])
            self.tsumogiri = True
        elif seat == self.me:
            # The seat is asked on every other turn of its own: its draw is this decision's.
            if not self._asked(obs) or obs.drawn is None:
                raise _Desync("the seat drew, but the observation is not of its turn")
            pai = mjai_tile(obs.drawn)
        else:
            pai = "?"  # another seat's draw is hidden, as mjai sends it
        out.append({"type": "tsumo", "actor": seat, "pai": pai})
        self.cursor = ("turn", seat)

    def _asked(self, obs: Observation) -> bool:
        """Whether ``obs`` is the seat's own turn and every discard it shows has been sent (the
        seat's draw now is the one it is asked about)."""
        return (
            obs.phase is Phase.TURN
            and obs.turn == self.me
            and all(len(r) == n for r, n in zip(obs.rivers, self.rivers))
        )

    def _reveal(self, obs: Observation, out: list[dict[str, Any]], count: int) -> None:
        from mjspec.app.mjai import step_event
        from mjspec.app.played import Indicator

        for tile in obs.dora_indicators[self.dora : self.dora + count]:
            out.append(step_event(Indicator(tile)))
            self.dora += 1

    def _kong(self, obs: Observation, out: list[dict[str, Any]], concealed: bool) -> None:
        """The indicators a kong turns (001): an earlier kong's pending one first, then its own at
        once or with its replacement discard, as the profile's dead wall rules say."""
        if not self.indicators:
            return
        self._reveal(obs, out, self.pending_open)
        self.pending_open = 0
        timing = self.concealed_timing if concealed else self.open_timing
        if timing is IndicatorTiming.AT_ONCE:
            self._reveal(obs, out, 1)
        else:
            self.pending_open += 1

    def _turn(self, obs: Observation, out: list[dict[str, Any]], seat: int) -> None:
        from mjspec.app.mjai import step_event
        from mjspec.app.played import Called, Declared, Discarded

        seen, sent = obs.melds[seat], self.melds[seat]
        robbed = self._robbed_at_the_end(obs, seat)
        if robbed is not None or (
            obs.phase is Phase.ROB
            and obs.claim_from == seat
            and self.robbed is None
            and tuple(seen) == tuple(sent)  # a kong made earlier in the turn comes first
        ):
            # A kong announced, its tile open to robbing: the kong is made after the window.
            if robbed is None:
                assert obs.claim_tile is not None
                robbed = obs.claim_tile
            self.robbed = robbed
            pon = next(
                (
                    m
                    for m in sent
                    if m.type is MeldType.PON and m.tiles[0].kind == robbed.kind
                ),
                None,
            )
            if pon is not None:
                out.append(step_event(Called(MeldType.KAKAN, seat, seat, robbed, pon.tiles)))
            else:
                # Only a thirteen-orphans hand robs a concealed kong (001): of a terminal or an
                # honor, so its four tiles are four of the robbed one (no red five among them).
                four = (robbed,) * 4
                out.append(step_event(Called(MeldType.ANKAN, seat, None, None, four)))
            self.cursor = ("kan", seat)
            return
        for i, meld in enumerate(seen):
            if i < len(sent) and sent[i] == meld:
                continue
            if meld.type is MeldType.KAKAN and i < len(sent) and sent[i].type is MeldType.PON:
                out.append(
                    step_event(Called(MeldType.KAKAN, seat, seat, meld.tiles[-1], sent[i].tiles))
                )
                sent[i] = meld
                self._kong(obs, out, concealed=False)
            elif meld.type is MeldType.ANKAN and i == len(sent):
                out.append(step_event(Called(MeldType.ANKAN, seat, None, None, meld.tiles)))
                sent.append(meld)
                self._kong(obs, out, concealed=True)
            else:
                break  # a call on a discard: it comes after a discard, not in a turn
            self._draw(obs, out, seat)  # the replacement
            return
        index = self.rivers[seat]
        if obs.sideways[seat] == index and not self.reach[seat]:
            out.append(step_event(Declared(seat)))
            self.reach[seat] = True
        if len(obs.rivers[seat]) <= index:
            raise _Desync(f"seat {seat} is on turn, but its next step is not in view")
        tile = obs.rivers[seat][index]
        tsumogiri = self.tsumogiri if seat == self.me else False
        declaring = obs.sideways[seat] == index
        out.append(step_event(Discarded(seat, tile, tsumogiri, declaring)))
        self.rivers[seat] += 1
        if declaring:
            self.accept = seat
        if self.indicators and self.pending_open:
            self._reveal(obs, out, self.pending_open)
            self.pending_open = 0
        self.cursor = ("dahai", seat)

    def _robbed_at_the_end(self, obs: Observation, seat: int) -> Tile | None:
        """The tile of ``seat``'s kong robbed to end the hand ``obs`` shows over (None: none):
        a win on the seat's tile while its river and melds are as sent (no discard was won on,
        the robbed kong was never made)."""
        if obs.phase is not Phase.OVER or self.robbed is not None:
            return None
        if len(obs.rivers[seat]) != self.rivers[seat] or tuple(obs.melds[seat]) != tuple(
            self.melds[seat]
        ):
            return None
        return next((w.tile for w in obs.wins if w.discarder == seat), None)

    def _after_discard(self, obs: Observation, out: list[dict[str, Any]], seat: int) -> None:
        from mjspec.app.mjai import step_event
        from mjspec.app.played import Accepted, Called

        index = self.rivers[seat] - 1
        caller: int | None = None
        if index in obs.called[seat]:
            discard = obs.rivers[seat][index]
            candidates = []
            for t in range(SEATS):
                new = obs.melds[t][len(self.melds[t]) :]
                if t == seat or not new or _SOURCE.get(new[0].source) != (t - seat) % SEATS:
                    continue
                if new[0].claimed is not None and new[0].claimed != discard:
                    continue  # a later call on another discard of the seat (seen since)
                # A call, or a pon that has since been added to (its kong came on a later turn).
                if new[0].type in _CALLS or new[0].type is MeldType.KAKAN:
                    candidates.append(t)
            if not candidates:
                raise _Desync(f"seat {seat}'s discard was called, but by no meld in view")
            caller = self._caller(obs, candidates)
        if self.accept is not None:
            out.append(step_event(Accepted(self.accept)))
            self.accept = None
        if caller is None:
            self._draw(obs, out, (seat + 1) % SEATS)
            return
        meld = obs.melds[caller][len(self.melds[caller])]
        if meld.type is MeldType.KAKAN:
            meld = Meld(MeldType.PON, meld.tiles[:3], meld.claimed, meld.source)
        claimed = meld.claimed if meld.claimed is not None else obs.rivers[seat][index]
        consumed = list(meld.tiles)
        consumed.remove(claimed)
        out.append(step_event(Called(meld.type, caller, seat, claimed, tuple(consumed))))
        self.melds[caller].append(meld)
        if meld.type is MeldType.MINKAN:
            self._kong(obs, out, concealed=False)
            self._draw(obs, out, caller)
        else:
            self.cursor = ("turn", caller)

    def _caller(self, obs: Observation, candidates: list[int]) -> int:
        """Which of ``candidates`` called the discard: the one seat whose new meld claimed it,
        or, where two seats called tiles of that kind from the same discarder since the last
        decision (the observation does not say which call came first), the one after whose call
        the replay reaches the observation."""
        forced, self.forced = self.forced, None
        if forced is not None:
            return forced
        if len(candidates) == 1:
            return candidates[0]
        for t in candidates:
            trial = copy.deepcopy(self)
            trial.forced = t
            try:
                trial.finish(obs) if obs.phase is Phase.OVER else trial.catch_up(obs)
            except _Desync:
                continue
            return t
        raise _Desync(f"no order of the calls by seats {candidates} reaches the table's view")

    def _kan_made(self, obs: Observation, out: list[dict[str, Any]], seat: int) -> None:
        """After a rob window on a kong nobody robbed: the kong is made, then its replacement."""
        if self.robbed is None:
            raise _Desync("a kong without its rob window")
        seen, sent = obs.melds[seat], self.melds[seat]
        kind = self.robbed.kind
        for i, meld in enumerate(seen):
            if meld.tiles[0].kind != kind or meld.type not in (MeldType.KAKAN, MeldType.ANKAN):
                continue
            if i < len(sent):
                sent[i] = meld
            else:
                sent.append(meld)
            self.robbed = None
            self._kong(obs, out, concealed=meld.type is MeldType.ANKAN)
            self._draw(obs, out, seat)
            return
        raise _Desync(f"seat {seat}'s kong of {self.robbed.mpsz} is not in view after its window")


_CALLS = (MeldType.CHI, MeldType.PON, MeldType.MINKAN)
_SOURCE: dict[str | None, int] = {"left": 1, "across": 2, "right": 3}
"""A meld's ``source`` (the discarder, seen from the caller) as seats from the discarder to the
caller."""


# ------------------------------------------------------------------ the agent


class MjaiBot:
    """The agent of one seat played by an mjai bot process (module docstring). ``command`` is the
    text after ``mjai:``, ``argv`` its words; ``timeout``: seconds the bot may take to answer one
    event."""

    def __init__(
        self,
        command: str,
        argv: Sequence[str],
        timeout: float = DEFAULT_TIMEOUT,
        batch: bool = False,
    ) -> None:
        self.command = command
        self.argv = list(argv)
        self.timeout = timeout
        self.batch = batch
        """mjai.app's dialect: the events up to a decision as one JSON array a line, one answer a
        line (``mjai_batch:COMMAND``)."""
        self._process: _Process | None = None
        self._hand: _Hand | None = None
        self._last: dict[str, Any] | None = None  # the last event sent (for messages)

    # ---------------------------------------------------------------- errors

    def _fail(self, why: str) -> MjaiBotError:
        event = f" answering {_line(self._last)}" if self._last is not None else ""
        self.close()
        return MjaiBotError(f"mjai bot {self.command!r}{event}: {why}")

    # ---------------------------------------------------------------- the conversation

    def _exchange(self, *events: dict[str, Any], end: bool = False) -> dict[str, Any]:
        """Send one event (or, in the batch dialect, these events as one array), read the bot's
        one answer (a JSON object with a ``type``); ``end``: the last event (``end_game``), to
        which a bot may answer by ending instead."""
        process = self._process
        assert process is not None
        self._last = events[-1]
        text = "[" + ",".join(map(_line, events)) + "]" if self.batch else _line(events[0])
        try:
            process.send(text)
        except OSError:
            if end:
                return {"type": "none"}
            raise self._fail(f"it stopped reading its input ({process.why_gone()})") from None
        try:
            raw = process.receive(self.timeout)
        except queue.Empty:
            raise self._fail(f"no answer within {self.timeout:g} s") from None
        if raw is None:
            if end:
                return {"type": "none"}
            raise self._fail(f"it ended without answering ({process.why_gone()})")
        text = raw.decode("utf-8", "replace").strip()
        shown = text if len(text) <= 200 else text[:200] + "..."
        try:
            reply = json.loads(text)
        except ValueError:
            raise self._fail(f"the answer {shown!r} is not JSON") from None
        if not isinstance(reply, dict) or not isinstance(reply.get("type"), str):
            raise self._fail(
                f"the answer {shown} is not an mjai action (a JSON object with a type)"
            )
        return reply

    def _begin(self, obs: Observation) -> None:
        from mjspec.app.mjai import game_start
        from mjspec.app.played import riichi_refusal

        refusal = riichi_refusal(obs.profile)
        if refusal is not None:
            raise MjaiBotError(f"mjai bot {self.command!r}: {refusal}")
        try:
            self._process = _Process(self.argv)
        except OSError as e:
            raise MjaiBotError(
                f"mjai bot {self.command!r}: cannot start it: {e.strerror or e}"
            ) from None
        self._exchange(game_start(obs.profile, obs.seat))

    def choose(self, observation: Observation) -> Action:
        obs = observation
        if self._process is None:
            self._begin(obs)
        try:
            events = self._events(obs)
        except _Desync as e:
            raise self._fail(f"the table's view cannot be told in mjai events ({e})") from None
        if not events:
            raise self._fail("nothing happened since its last decision")
        if self.batch:
            reply = self._exchange(*events)
        else:
            for event in events[:-1]:
                self._exchange(event)  # not a decision: the answer is checked, not taken
            reply = self._exchange(events[-1])
        return self._action(obs, reply)

    def hand_over(self, observation: Observation) -> None:
        """The hand is over (:class:`~mjspec.runtime.observation.Agent`): send its last steps,
        its ``hora`` or ``ryukyoku`` and ``end_kyoku`` (in the batch dialect: the steps and the
        result as one array, ``end_kyoku`` alone, as mjai.app sends it); each answer is read and
        checked, and not taken."""
        if self._process is None:  # the hand ended before the seat's first decision
            self._begin(observation)
        try:
            out = self._end_events(observation)
        except _Desync as e:
            raise self._fail(f"the table's view cannot be told in mjai events ({e})") from None
        self._send(out)
        self._send([{"type": "end_kyoku"}])

    def _end_events(self, obs: Observation) -> list[dict[str, Any]]:
        """The events from the last one sent to the result of the hand ``obs`` shows over (its
        ``start_kyoku`` first, when the seat had no decision in it); the hand is closed."""
        out: list[dict[str, Any]] = []
        out.extend(self._hand_of(obs, out).finish(obs))
        self._hand = None
        return out

    def _hand_of(self, obs: Observation, out: list[dict[str, Any]]) -> _Hand:
        """The hand ``obs`` is of: the one being told, or a new one, whose ``start_kyoku`` goes
        to ``out`` (after an ``end_kyoku`` of the last one, when no driver told its end)."""
        hand = self._hand
        if hand is None or not hand.same(obs):
            if hand is not None:
                out.append({"type": "end_kyoku"})
            hand = self._hand = _Hand(obs)
            out.append(hand.start(obs))
        return hand

    def match_over(self, seat: int, totals: Sequence[int]) -> None:
        """The match is over (:class:`~mjspec.runtime.observation.Agent`): send ``end_game``,
        read its answer (a bot that ends its output instead has ended as it may), stop the
        process."""
        if self._process is None:
            return
        event = {"type": "end_game"}
        if self._hand is not None:  # a driver that did not tell the hand's end
            self._send([{"type": "end_kyoku"}])
            self._hand = None
        self._exchange(event, end=True)
        self.close()

    def _send(self, events: list[dict[str, Any]]) -> None:
        """Send events that ask nothing: one line each (one array, batch dialect), each answer
        read and checked, not taken."""
        if self.batch:
            self._exchange(*events)
        else:
            for event in events:
                self._exchange(event)

    def _events(self, obs: Observation) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        out.extend(self._hand_of(obs, out).catch_up(obs))
        return out

    # ---------------------------------------------------------------- the answer

    def _action(self, obs: Observation, reply: dict[str, Any]) -> Action:
        from mjspec.app.mjai import tile_of_mjai

        kind = reply["type"]
        actor = reply.get("actor", obs.seat)
        if kind != "none" and actor != obs.seat:
            raise self._fail(f"it answered for seat {actor!r}, but it plays seat {obs.seat}")
        legal = obs.legal
        offered = ", ".join(sorted({a.kind.value for a in legal}))

        def only(*kinds: ActionKind) -> list[Action]:
            return [a for a in legal if a.kind in kinds]

        def tile(field: str) -> Tile:
            try:
                return tile_of_mjai(reply.get(field))
            except ValueError as e:
                raise self._fail(f"{kind}: {field}: {e}") from None

        def refuse(why: str) -> MjaiBotError:
            return self._fail(
                f"{_line(reply)} is not legal now: {why} (the table offers {offered})"
            )

        if kind == "none":
            found = only(ActionKind.PASS)
            if not found:
                raise refuse("the seat must act")
            return found[0]
        if kind == "hora":
            found = only(ActionKind.TSUMO, ActionKind.RON)
            if not found:
                raise refuse("no win is possible")
            return found[0]
        if kind == "dahai":
            pai = tile("pai")
            found = [a for a in only(ActionKind.DISCARD) if a.tile == pai]
            if not found:
                raise refuse(f"{reply.get('pai')} cannot be discarded")
            self._discarded(obs, pai, reply)
            return found[0]
        if kind == "reach":
            return self._reach(obs, reply, refuse)
        if kind in ("chi", "pon", "daiminkan"):
            want = {"chi": ActionKind.CHI, "pon": ActionKind.PON, "daiminkan": ActionKind.MINKAN}
            found = only(want[kind])
            if kind == "chi":
                consumed = reply.get("consumed")
                if not isinstance(consumed, list):
                    raise refuse("a chi names its consumed tiles")
                try:
                    mine = sorted((t.kind, t.red) for t in map(tile_of_mjai, consumed))
                except ValueError as e:
                    raise self._fail(f"chi: consumed: {e}") from None
                found = [a for a in found if sorted((t.kind, t.red) for t in a.tiles) == mine]
            if not found:
                raise refuse(f"no {kind} of that discard")
            return found[0]
        if kind == "ankan":
            consumed = reply.get("consumed")
            kinds = set()
            if isinstance(consumed, list) and consumed:
                try:
                    kinds = {tile_of_mjai(c).kind for c in consumed}
                except ValueError as e:
                    raise self._fail(f"ankan: consumed: {e}") from None
            found = [
                a
                for a in only(ActionKind.ANKAN)
                if len(kinds) == 1 and a.tile is not None and a.tile.kind in kinds
            ]
            if not found:
                raise refuse("no concealed kong of those tiles")
            return found[0]
        if kind == "kakan":
            pai = tile("pai")
            found = [
                a for a in only(ActionKind.KAKAN) if a.tile is not None and a.tile.kind == pai.kind
            ]
            if not found:
                raise refuse(f"no pon of {reply.get('pai')} to add to")
            return found[0]
        if kind == "ryukyoku":
            found = only(ActionKind.NINE_TERMINALS)
            if not found:
                raise refuse("no abortive draw may be declared")
            return found[0]
        raise refuse(f"{kind!r} is not an mjai action")

    def _discarded(self, obs: Observation, pai: Tile, reply: dict[str, Any]) -> None:
        # Whether the discard was the tile just drawn: the bot's word, when it can be true.
        hand = self._hand
        if hand is not None:
            hand.tsumogiri = obs.drawn == pai and reply.get("tsumogiri") is not False

    def _reach(self, obs: Observation, reply: dict[str, Any], refuse: Any) -> Action:
        """mjai's riichi is two answers: ``reach``, then the declaring ``dahai`` in answer to the
        ``reach`` event (the table's riichi is one action: declare and discard)."""
        from mjspec.app.mjai import step_event, tile_of_mjai
        from mjspec.app.played import Declared

        declarations = [a for a in obs.legal if a.kind is ActionKind.RIICHI]
        if not declarations:
            raise refuse("riichi cannot be declared")
        hand = self._hand
        assert hand is not None
        hand.reach[obs.seat] = True
        second = self._exchange(step_event(Declared(obs.seat)))
        try:
            pai = tile_of_mjai(second.get("pai")) if second["type"] == "dahai" else None
        except ValueError as e:
            raise self._fail(f"dahai: pai: {e}") from None
        found = [a for a in declarations if pai is not None and a.tile == pai]
        if not found:
            tiles = ", ".join(sorted({a.tile.mpsz for a in declarations if a.tile is not None}))
            raise self._fail(
                f"{_line(second)} is not legal now: after reach it must discard one of the tiles "
                f"that keep the hand ready ({tiles})"
            )
        assert pai is not None
        self._discarded(obs, pai, second)
        return found[0]

    def close(self) -> None:
        """Stop the bot process (it is also stopped when the agent is dropped, and at exit)."""
        process, self._process = self._process, None
        if process is not None:
            process.close()


# ------------------------------------------------------------------ --bots "mjai:COMMAND"


def _timeout(spec: str) -> float:
    raw = os.environ.get(TIMEOUT_ENV)
    if raw is None or not raw.strip():
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0 or value != value or value == float("inf"):
        raise AgentSpecError(spec, f"{TIMEOUT_ENV}={raw!r} is not a number of seconds above 0")
    return value


def load(command: str, batch: bool = False) -> AgentFactory:
    """The factory of ``mjai:COMMAND`` agents (``batch``: ``mjai_batch:COMMAND``): the command is
    checked now (it parses, its program exists); each agent starts its own process at its first
    decision."""
    spec = f"{'mjai_batch' if batch else 'mjai'}:{command}"
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise AgentSpecError(spec, f"the command does not parse: {e}") from None
    if not argv:
        raise AgentSpecError(spec, "no command after the colon (mjai:COMMAND runs an mjai bot)")
    program = argv[0]
    if shutil.which(program) is None:
        where = "no such file" if os.sep in program or "/" in program else "not found on PATH"
        if not (os.path.isfile(program) and not os.access(program, os.X_OK)):
            raise AgentSpecError(spec, f"cannot run {program!r}: {where}")
        raise AgentSpecError(spec, f"cannot run {program!r}: it is not executable")
    timeout = _timeout(spec)
    text = command.strip()

    def make(seed: int) -> Agent:
        return MjaiBot(text, argv, timeout, batch)

    return make


def load_batch(command: str) -> AgentFactory:
    """The factory of ``mjai_batch:COMMAND`` agents (mjai.app's dialect)."""
    return load(command, batch=True)


register_kind("mjai", load)
register_kind("mjai_batch", load_batch)
