"""Tenhou games at mjspec's table: each hand's wall rebuilt, its decisions replayed, its results
compared.

The wall (docs/records.md, "Imported Tenhou games"). mjspec's table opens an
explicit wall where the dice say (:func:`mjspec.runtime.table.open_wall`)
and then reads it in drawing order: the deal, the live draws from the front,
and the dead wall as the last 14 tiles, laid out as in
:mod:`mjspec.runtime.deadwall`. :func:`hand_wall` fills that drawing order from
the log:

- the deal, in the order the profile deals (the dealer's 14th tile is the
  log's first draw), then every live-wall draw in play order;
- in the dead wall: replacement draws (after a kan) at the replacement
  positions in order, the first indicator and each kan indicator at the
  indicator positions, the under-indicators a riichi win showed under them;
- every tile the log never shows (the rest of the live wall, the dead-wall
  tiles nobody saw) in ascending Tenhou id order into the remaining positions,
  live wall first, then the dead wall from its first position.

Then the drawing order is turned back into the order before the wall is
opened, with the hand's dice, so that dealing it reproduces the log.

:func:`replay_hand` plays one logged hand at the table: each logged decision
is matched to one of the seat's legal actions (so an illegal decision stops
the replay naming it and the rule), seats the log shows doing nothing on a
discard pass, a riichi player's forced discards are the table's. The result
is compared with the log: who won, the yaku (through :data:`YAKU`), han, fu
and every seat's score change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mjspec.runtime.actions import Action, ActionKind, Event, IllegalAction
from mjspec.runtime.deadwall import INDICATORS, REPLACEMENTS, UNDER
from mjspec.runtime.match import Match, MatchStart
from mjspec.runtime.profile import Profile
from mjspec.runtime.record import match_record
from mjspec.runtime.record_check import seal
from mjspec.runtime.table import SEATS, WINDS, Round, closed_wall
from mjspec.runtime.table.wall import deal_order as table_deal_order
from mjspec.app.tenhou import (
    YAKU,
    Call,
    Discard,
    DoraRevealed,
    Draw,
    Drawn,
    MeldKind,
    RiichiStep,
    TenhouFormatError,
    TenhouGame,
    TenhouHand,
    Win,
    tile_of,
)
from mjspec.runtime.tiles import Tile

__all__ = [
    "WallError",
    "HandWall",
    "hand_wall",
    "deal_order",
    "log_decisions",
    "HandOutcome",
    "replay_hand",
    "GameOutcome",
    "replay_game",
    "game_record",
]

DEFAULT_DICE = (1, 1)
"""Dice used for a log that does not record them (tenhou.net/6 JSON); any pair opens the same
rebuilt wall."""


class WallError(ValueError):
    """The log's tiles do not fit one wall: names the game and hand."""


@dataclass(frozen=True, slots=True)
class HandWall:
    """A rebuilt wall: Tenhou ids in drawing order (deal, live draws, ..., dead wall last), and the
    dice that open it."""

    drawing_order: tuple[int, ...]
    dice: tuple[int, int]
    known: int
    """How many positions the log shows; the rest are filled in ascending id order."""

    def tiles(self, red_fives: bool) -> list[Tile]:
        """The wall as mjspec tiles in the order before it is opened (what ``Round(wall=...)``
        takes)."""
        return closed_wall([tile_of(t, red_fives) for t in self.drawing_order], self.dice)


def deal_order(profile: Profile, dealer: int) -> list[int]:
    """The seat that receives each dealt tile, in drawing order, as the table deals
    (runtime/table/wall.py ``deal_order``)."""
    deal = profile.deal
    return table_deal_order(
        dealer,
        dealer_tiles=deal.dealer,
        others=deal.others,
        in_blocks=profile.table.deal_in_blocks,
    )


def _is_kan(step: object, seat: int) -> bool:
    return (
        isinstance(step, Call)
        and step.meld.seat == seat
        and step.meld.kind in (MeldKind.ANKAN, MeldKind.MINKAN, MeldKind.KAKAN)
    )


def hand_wall(hand: TenhouHand, profile: Profile, source: str = "") -> HandWall:
    """Rebuild the wall ``hand`` was played from, in the layout described in this module's
    docstring."""
    where = f"{source}, hand {hand.index}" if source else f"hand {hand.index}"
    dead_rules = profile.table.dead_wall
    size = profile.tiles.size()
    if dead_rules is None:
        raise WallError(f"{where}: profile {profile.id} has no dead wall; Tenhou logs need one")
    if size != 136:
        raise WallError(f"{where}: profile {profile.id} has {size} tiles; Tenhou walls have 136")
    dead_start = size - dead_rules.tiles
    slots: list[int | None] = [None] * size

    def put(pos: int, tile: int, what: str) -> None:
        if slots[pos] is not None and slots[pos] != tile:
            raise WallError(
                f"{where}: {what} {tile} and {slots[pos]} both fall on wall position {pos}"
            )
        slots[pos] = tile

    # The deal: per seat, the log's 13 tiles in order; the dealer's 14th is the first draw.
    draws = [st for st in hand.steps if isinstance(st, Draw)]
    if not draws or draws[0].seat != hand.dealer:
        raise WallError(f"{where}: the first step must be the dealer's draw")
    queues = [list(hand.dealt[s]) for s in range(SEATS)]
    queues[hand.dealer].append(draws[0].tile)
    pos = 0
    for seat in deal_order(profile, hand.dealer):
        if not queues[seat]:
            raise WallError(f"{where}: the profile deals seat {seat} more tiles than the log")
        put(pos, queues[seat].pop(0), "dealt tile")
        pos += 1
    if any(queues):
        raise WallError(f"{where}: the log deals more tiles than the profile")
    # Live draws and replacement draws.
    replacements = 0
    previous: object = None
    first = True
    for st in hand.steps:
        if isinstance(st, Draw):
            if first:
                first = False
            elif _is_kan(previous, st.seat):
                if replacements >= len(REPLACEMENTS):
                    raise WallError(f"{where}: more than {len(REPLACEMENTS)} replacement draws")
                put(dead_start + REPLACEMENTS[replacements], st.tile, "replacement draw")
                replacements += 1
            else:
                if pos >= dead_start - replacements:
                    raise WallError(f"{where}: more draws than the live wall holds")
                put(pos, st.tile, "draw")
                pos += 1
        if not isinstance(st, (RiichiStep, DoraRevealed)):
            previous = st  # a kan's replacement may follow its indicator or riichi bookkeeping
    # Indicators and the tiles under them.
    indicators = [hand.dora_indicator, *hand.kan_indicators]
    if len(indicators) > len(INDICATORS):
        raise WallError(
            f"{where}: {len(indicators)} indicators, the dead wall has {len(INDICATORS)}"
        )
    for i, t in enumerate(indicators):
        put(dead_start + INDICATORS[i], t, "indicator")
    for i, t in enumerate(hand.ura_indicators[: len(UNDER)]):
        put(dead_start + UNDER[i], t, "under-indicator")
    known = sum(1 for s in slots if s is not None)
    seen = [s for s in slots if s is not None]
    if len(set(seen)) != len(seen):
        dup = next(t for t in seen if seen.count(t) > 1)
        raise WallError(f"{where}: tile id {dup} appears twice in the wall")
    rest = iter(sorted(set(range(size)) - set(seen)))
    for i in range(size):
        if slots[i] is None:
            slots[i] = next(rest)
    dice = hand.dice if hand.dice != (0, 0) else DEFAULT_DICE
    return HandWall(tuple(t for t in slots if t is not None), dice, known)


# ----------------------------------------------------------------- decisions

_RESPONSES = (ActionKind.RON, ActionKind.PON, ActionKind.CHI, ActionKind.MINKAN)
_ABORTIVE = {
    "yao9": "nine_terminals",
    "reach4": "four_riichi",
    "kaze4": "four_winds",
    "kan4": "four_kongs",
    "ron3": "triple_ron",
}


def log_decisions(hand: TenhouHand, red_fives: bool = True) -> list[Action]:
    """The decisions the log shows, in order, as mjspec actions (passes are not in a log; draws and
    indicators are the table's)."""
    out: list[Action] = []
    declaring: set[int] = set()
    last_draw_seat = hand.dealer
    for st in hand.steps:
        if isinstance(st, RiichiStep):
            if st.step == 1:
                declaring.add(st.seat)
        elif isinstance(st, Draw):
            last_draw_seat = st.seat
        elif isinstance(st, Discard):
            kind = ActionKind.RIICHI if st.seat in declaring else ActionKind.DISCARD
            declaring.discard(st.seat)
            out.append(Action(kind, st.seat, tile=tile_of(st.tile, red_fives)))
        elif isinstance(st, Call):
            m = st.meld
            if m.kind in (MeldKind.CHI, MeldKind.PON):
                own = sorted(
                    (tile_of(t, red_fives) for t in m.tiles if t != m.called), key=_tile_key
                )
                out.append(
                    Action(
                        ActionKind.CHI if m.kind is MeldKind.CHI else ActionKind.PON,
                        m.seat,
                        tiles=tuple(own),
                    )
                )
            elif m.kind is MeldKind.MINKAN:
                out.append(Action(ActionKind.MINKAN, m.seat))
            elif m.kind is MeldKind.ANKAN:
                out.append(Action(ActionKind.ANKAN, m.seat, tile=Tile(m.tiles[0] // 4)))
            elif m.kind is MeldKind.KAKAN:
                out.append(Action(ActionKind.KAKAN, m.seat, tile=Tile(m.tiles[0] // 4)))
            else:
                raise ValueError(
                    f"hand {hand.index}: a three-player north call in a four-player replay"
                )
    for r in hand.results:
        if isinstance(r, Win):
            out.append(Action(ActionKind.TSUMO if r.tsumo else ActionKind.RON, r.seat))
        elif r.kind == "yao9":
            out.append(Action(ActionKind.NINE_TERMINALS, last_draw_seat))
        elif r.kind == "ron3":
            # Three players won on one discard (or robbed kan): the log writes the abortive draw,
            # the table needs each of the three ron declarations to declare it (001).
            out.extend(Action(ActionKind.RON, s) for s in range(SEATS) if s != last_giver(hand))
    return out


def last_giver(hand: TenhouHand) -> int:
    """The seat whose discard (or added kan) was the last tile given to the table."""
    for st in reversed(hand.steps):
        if isinstance(st, Discard):
            return st.seat
        if isinstance(st, Call) and st.meld.kind is MeldKind.KAKAN:
            return st.meld.seat
    return hand.dealer


def _tile_key(t: Tile) -> tuple[int, bool]:
    return (t.kind, t.red)


def _same(a: Action, b: Action) -> bool:
    """The logged decision ``a`` is the legal action ``b``: same kind and tiles (red fives
    distinct); a call offered without tiles (only one way to make it) matches whatever tiles the log
    names."""
    if a.kind is not b.kind or a.seat != b.seat or a.tile != b.tile:
        return False
    if b.tiles and sorted(a.tiles, key=_tile_key) != sorted(b.tiles, key=_tile_key):
        return False
    return True


class ReplayStop(Exception):
    """The table and the log part ways (an illegal decision, or the table waits for something
    else)."""


def _legal_match(table: Round, want: Action) -> Action:
    legal = table.legal_actions(want.seat)
    for act in legal:
        if _same(want, act):
            return act
    try:
        table.verify(want)
    except IllegalAction as e:
        raise ReplayStop(f"{want}: illegal: {e.message} [rule: {e.rule}]") from None
    raise ReplayStop(
        f"{want}: the table offers no such action (legal: {', '.join(map(str, legal))})"
    )


# ------------------------------------------------------------------ outcomes


@dataclass
class HandOutcome:
    """How one logged hand replayed."""

    index: int
    legal: bool = False
    """Every logged decision was legal and the table reached the end of the hand with the log."""
    problems: list[str] = field(default_factory=list)
    """Each difference from the log (empty: the hand reproduced exactly)."""
    decisions: int = 0
    table: Round | None = None

    @property
    def exact(self) -> bool:
        return self.legal and not self.problems


def _pattern_han(win: Win) -> dict[str, int]:
    out: dict[str, int] = {}
    for y, han in win.yaku:
        if han == 0:
            continue
        pattern = YAKU[y][1]
        key = pattern if pattern is not None else f"tenhou:{y}"
        out[key] = out.get(key, 0) + han
    return out


def _compare(thand: TenhouHand, table: Round, outcome: HandOutcome) -> None:
    """Compare the table's end of the hand with the log's results."""
    wins = [r for r in thand.results if isinstance(r, Win)]
    drawn = [r for r in thand.results if isinstance(r, Drawn)]
    got = {w.seat: w for w in table.wins}
    if sorted(got) != sorted(w.seat for w in wins):
        outcome.problems.append(f"winners: log {sorted(w.seat for w in wins)}, table {sorted(got)}")
    for w in wins:
        rec = got.get(w.seat)
        if rec is None:
            continue
        score = rec.score
        table_patterns: dict[str, int] = {}
        for p in score.patterns:
            if p.points:
                table_patterns[p.id] = table_patterns.get(p.id, 0) + p.points
        if not w.scored:  # an mjai hora: the winner and the score changes only (compared below)
            continue
        log_patterns = _pattern_han(w)
        if w.yakuman:
            if sorted(table_patterns) != sorted(log_patterns):
                outcome.problems.append(
                    f"seat {w.seat} yakuman: log {sorted(log_patterns)}, table "
                    f"{sorted(table_patterns)}"
                )
            continue
        if table_patterns != log_patterns:
            outcome.problems.append(
                f"seat {w.seat} yaku: log {log_patterns}, table {table_patterns}"
            )
        if score.total != w.han:
            outcome.problems.append(f"seat {w.seat} han: log {w.han}, table {score.total}")
        if w.fu is not None and score.fu != w.fu:
            outcome.problems.append(f"seat {w.seat} fu: log {w.fu}, table {score.fu}")
    if drawn:
        kind = drawn[0].kind
        if kind in _ABORTIVE and table.aborted != _ABORTIVE[kind]:
            outcome.problems.append(
                f"draw: log {kind}, table aborted={table.aborted} exhausted={table.exhausted}"
            )
        if kind in ("exhaustive", "nm") and not table.exhausted:
            outcome.problems.append(
                f"draw: log {kind}, table aborted={table.aborted} exhausted={table.exhausted}"
            )
    # Every seat that did not win holds, at the end, the tiles the log's draws, discards and calls
    # leave it.
    held = _held_at_end(thand, table.profile.tiles.red_fives != ())
    for s in range(SEATS):
        if s not in got and sorted(table.hands[s], key=_tile_key) != held[s]:
            outcome.problems.append(
                f"seat {s} holds {''.join(t.mpsz for t in sorted(table.hands[s], key=_tile_key))}, "
                f"the log {''.join(t.mpsz for t in held[s])}"
            )
    # Tenhou's score changes leave out this hand's riichi deposits; the table's include them as
    # events.
    deposits = [0] * SEATS
    for ev in table.events:
        if ev.kind == "deposit":
            for s in range(SEATS):
                deposits[s] += ev.deltas[s]
    changes = [table.scores[s] - deposits[s] for s in range(SEATS)]
    log_changes = [sum(r.deltas[s] for r in thand.results) for s in range(SEATS)]
    if changes != log_changes:
        outcome.problems.append(f"score changes: log {log_changes}, table {changes}")


def _held_at_end(thand: TenhouHand, red_fives: bool) -> list[list[Tile]]:
    held = [list(d) for d in thand.dealt]
    for st in thand.steps:
        if isinstance(st, Draw):
            held[st.seat].append(st.tile)
        elif isinstance(st, Discard):
            held[st.seat].remove(st.tile)
        elif isinstance(st, Call):
            m = st.meld
            own = [m.added] if m.kind is MeldKind.KAKAN else [t for t in m.tiles if t != m.called]
            for t in own:
                if t is not None:
                    held[m.seat].remove(t)
    return [sorted((tile_of(t, red_fives) for t in h), key=_tile_key) for h in held]


def _check_automatic(new: list[Event], queue: list[Action], red_fives: bool) -> None:
    """The table discarded for a riichi player: the log's next decision must be that very
    discard."""
    for ev in new:
        if ev.kind == "discard" and ev.data.get("automatic"):
            if (
                not queue
                or queue[0].kind is not ActionKind.DISCARD
                or queue[0].seat != ev.seat
                or queue[0].tile is None
                or queue[0].tile.mpsz != ev.data["tile"]
            ):
                head = queue[0] if queue else "the end of the hand"
                raise ReplayStop(
                    f"the table discarded {ev.data['tile']} for riichi seat {ev.seat} but the "
                    f"log goes on with {head}"
                )
            queue.pop(0)


def play_logged(thand: TenhouHand, table: Round, red_fives: bool) -> HandOutcome:
    """Drive ``table`` through the logged decisions of ``thand`` and compare the result."""
    outcome = HandOutcome(thand.index, table=table)
    queue = log_decisions(thand, red_fives)
    try:
        while queue:
            want = queue[0]
            if table.over:
                raise ReplayStop(f"the table ended the hand but the log goes on with {want}")
            pending = table.pending_seats()
            claiming = table.phase.value in ("claim", "rob")
            if claiming and not (want.kind in _RESPONSES and want.seat in pending):
                # Seats that the log shows doing nothing on this discard pass; those about to claim
                # wait.
                responders = set()
                for a in queue:
                    if a.kind not in _RESPONSES:
                        break
                    responders.add(a.seat)
                passers = [s for s in pending if s not in responders]
                if not passers:
                    raise ReplayStop(
                        f"{want}: illegal: the table offers seat {want.seat} no claim here"
                    )
                new = table.apply(Action(ActionKind.PASS, passers[0]))
                _check_automatic(new, queue, red_fives)
                continue
            if want.seat not in pending:
                raise ReplayStop(
                    f"the log has {want} but the table waits for seat(s) {pending} "
                    f"({table.phase.value})"
                )
            action = _legal_match(table, want)
            queue.pop(0)
            new = table.apply(action)
            outcome.decisions += 1
            _check_automatic(new, queue, red_fives)
        while not table.over:
            pending = table.pending_seats()
            if table.phase.value not in ("claim", "rob") or not pending:
                raise ReplayStop(
                    f"the log ends but the table waits for seat(s) {pending} ({table.phase.value})"
                )
            table.apply(Action(ActionKind.PASS, pending[0]))
    except ReplayStop as e:
        outcome.problems.append(f"decision {outcome.decisions}: {e}")
        return outcome
    outcome.legal = True
    _compare(thand, table, outcome)
    return outcome


def _red(game: TenhouGame) -> bool:
    return game.rules.red_fives


def replay_hand(
    thand: TenhouHand, profile: Profile, *, red_fives: bool = True, source: str = ""
) -> HandOutcome:
    """Play one logged hand on its own, from the log's start (dealer, round, honba, deposits,
    points).

    A log whose tiles do not add up (a discard of a tile never held, a fifth copy) is refused naming
    the file and the hand: :class:`TenhouFormatError`, never a bare ``ValueError`` from deep inside.
    """
    try:
        wall = hand_wall(thand, profile, source)
        table = Round(
            profile,
            dealer=thand.dealer,
            seed=0,
            wall=wall.tiles(red_fives),
            dice=wall.dice,
            round_wind=WINDS[min(thand.round // SEATS, SEATS - 1)],
            honba=thand.honba,
            deposits=thand.deposits,
            points=thand.scores,
        )
        return play_logged(thand, table, red_fives)
    except (WallError, TenhouFormatError):
        raise
    except (ValueError, IndexError, KeyError) as e:
        raise TenhouFormatError(
            source, f"the log's tiles and steps do not add up: {e}", hand=thand.index
        ) from None


@dataclass
class GameOutcome:
    """How one logged game replayed: each hand on its own, then the whole game as one match."""

    source: str
    hands: list[HandOutcome]
    flow: list[str] = field(default_factory=list)
    """Where the match rules (dealer, repeat counter, deposits, points, the end) part from the log;
    empty when they agree."""
    match: Match | None = None
    """The game played as one match, when every hand was legal and the match rules followed the log
    to its end (the same dealers, repeat counters, deposits and points before every hand, the same
    end and standings). A log without the game's end is played as an excerpt (``match.excerpt``)
    from its first hand's start, and may stop before the match rules end the match."""

    @property
    def exact(self) -> bool:
        return all(h.exact for h in self.hands) and not self.flow and self.match is not None


def replay_game(game: TenhouGame, profile: Profile) -> GameOutcome:
    """Replay every hand of ``game`` (each from the log's start), then, if all are legal, the whole
    game as one match (an excerpt of one when the log does not record the game's end:
    docs/records.md, "Excerpts")."""
    red = _red(game)
    outcome = GameOutcome(
        game.source,
        [replay_hand(h, profile, red_fives=red, source=game.source) for h in game.hands],
    )
    if not all(h.legal for h in outcome.hands):
        outcome.flow.append("not played as one match: a hand has an illegal decision")
        return outcome
    # A log without the game's end (tenhou.net/6 JSON, a cut mjlog) may hold only some hands of a
    # game:
    # it is played as an excerpt, from the state its first hand starts at (docs/records.md,
    # "Excerpts").
    first = game.hands[0] if game.hands else None
    excerpt = None
    if game.final is None and first is not None:
        excerpt = MatchStart(
            WINDS[min(first.round // SEATS, SEATS - 1)],
            first.dealer,
            first.honba,
            first.deposits,
            tuple(first.scores),
        )
    try:
        match = Match(profile, 0, excerpt=excerpt)
    except ValueError as e:
        outcome.flow.append(f"not played as one match: {e}")
        return outcome
    for thand in game.hands:
        match.finish()
        if match.finished:
            outcome.flow.append(
                f"hand {thand.index}: the match rules ended the game before this hand"
            )
            return outcome
        state = (match.dealer, match.round_wind, match.honba, match.deposits, list(match.totals))
        logged = (
            thand.dealer,
            WINDS[min(thand.round // SEATS, SEATS - 1)],
            thand.honba,
            thand.deposits,
            list(thand.scores),
        )
        if state != logged:
            outcome.flow.append(
                f"hand {thand.index}: the match gives dealer {state[0]}, {state[1].value} "
                f"round, honba {state[2]}, "
                f"deposits {state[3]}, points {state[4]}; the log {logged[0]}, "
                f"{logged[1].value}, {logged[2]}, {logged[3]}, {logged[4]}"
            )
            return outcome
        wall = hand_wall(thand, profile, game.source)
        table = match.make_hand(0, wall=wall.tiles(red), dice=wall.dice)
        match.hands.append(table)
        played = play_logged(thand, table, red)
        if not played.legal:  # cannot happen when the hand alone was legal from the same start
            outcome.flow.append(f"hand {thand.index}: {played.problems}")
            return outcome
    match.finish()
    if not match.finished and excerpt is None:
        outcome.flow.append("the log ends but the match rules would play on")
        return outcome
    if excerpt is not None and match.finished and excerpt == _match_start(profile):
        # the log holds a whole game after all: it started where the match starts and reached its
        # end
        match.excerpt = None
    if game.final is not None:
        final = [score for score, _ in game.final]
        if list(match.totals) != final:
            outcome.flow.append(f"final points: log {final}, match {match.totals}")
        result = match.result()
        uma = [u for _, u in game.final]
        if result is not None and [round(r, 1) for r in result] != uma:
            outcome.flow.append(f"final result: log {uma}, match {[round(r, 1) for r in result]}")
    if not outcome.flow:
        outcome.match = match
    return outcome


def _match_start(profile: Profile) -> MatchStart:
    """Where a match of ``profile`` starts: East round, seat 0 deals, no counters, the start score
    each."""
    return MatchStart(WINDS[0], 0, 0, 0, (profile.table.match.start_score,) * SEATS)


def game_record(game: TenhouGame, profile: Profile) -> dict[str, Any]:
    """The mjspec game record of ``game`` played under ``profile``: explicit walls and dice, every
    decision (passes included), every event the table produced. Raises :class:`ValueError` naming
    the hand when the game cannot be played at the table as the log has it (an illegal decision, or
    match rules or scores that part from the log, so that a later logged hand would start
    elsewhere)."""
    if not game.rules.standard_four_player:
        raise ValueError(
            f"{game.source}: not Tenhou's standard four-player rules (GO type "
            f"{game.rules.type_bits}); not imported"
        )
    outcome = replay_game(game, profile)
    if outcome.match is None:
        bad = next((h for h in outcome.hands if not h.legal), None)
        why = (
            f"hand {bad.index}: {'; '.join(bad.problems)}"
            if bad is not None
            else "; ".join(outcome.flow)
        )
        raise ValueError(f"{game.source}: cannot be played under {profile.id}: {why}")
    record = match_record(outcome.match)
    record["seed"] = None
    record["chance"] = "explicit"
    for raw in record["hands"]:
        raw["seed"] = None
    record["source"] = {
        "format": game.format,
        "file": game.source.rsplit("/", 1)[-1],
        "rules": {
            "red_fives": game.rules.red_fives,
            "open_tanyao": game.rules.open_tanyao,
            "south_round": game.rules.south_round,
        },
        "agrees_with_log": outcome.exact,
        "differences": [
            p for h in outcome.hands for p in (f"hand {h.index}: {x}" for x in h.problems)
        ]
        + outcome.flow,
    }
    return seal(record)  # the digest covers the explicit chance and the source set above
