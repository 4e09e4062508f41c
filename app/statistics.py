"""The statistics of a simulation: plain data of exact integer counts, merged by addition.

A game contributes a :class:`GameSummary` (made in the worker that played it, by
:func:`summarise`); a run adds them into :class:`Statistics`. Everything a run reports is derived
from the integer counts alone (counts, sums and sums of squares), so two runs over disjoint seed
ranges added together (:meth:`Statistics.merge`) are exactly the run over both ranges, and the
JSON form (:meth:`Statistics.to_json`, ``docs/simulation.schema.json``) keeps those counts so that
``mjspec simulate --merge`` can add files written on different machines.

Definitions (docs/simulation.md says the same for readers of the output):

- *points*: a seat's final score less the match's start score (what it won or lost).
- *place*: the match's own order (:meth:`~mjspec.runtime.match.Match.placements`): by total,
  equal totals ranked by seat order (seat 0 first), as the match pays its placement bonuses;
  ``tied_games`` counts the games in which two seats had equal totals.
- *wins*, *self-draws* and *deal-ins* count wins (a double ron is two wins, and two deal-ins of
  its discarder); a win on a robbed kong is a deal-in of the kong's owner. Rates are per hand.
- *exhausted*: hands that ended with the wall used up; *aborted*: abortive draws by reason.
- *decisions*: the actions the seats chose in a hand; *turns*: the tiles drawn from the wall, not
  counting replacement tiles.
- *patterns*: for each pattern, the wins it counted in (``pattern_wins``) and its counts summed
  (``pattern_counts``: a pattern that counts twice in one win adds two).
- *totals*: wins by their total, in the profile's own unit (han, fan, doubles); *points of a win*
  (fu): wins by their second count, where the profile has one.
- *payments*: by event kind, how many payment events and the amount they moved.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from mjspec.runtime.match import Match
from mjspec.runtime.profile import Profile
from mjspec.runtime.table import SEATS

FORMAT = "mjspec-simulation"
VERSION = 1
Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


class MergeError(ValueError):
    """Two runs that cannot be added: other profiles, bots, options or hands, or shared seeds."""


@dataclass
class Moments:
    """Count, sum and sum of squares of integer observations: exact, merged by addition."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def add(self, x: int) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    @property
    def mean(self) -> float | None:
        return self.total / self.n if self.n else None

    @property
    def spread(self) -> float | None:
        """The sample standard deviation (n - 1 in the denominator); None below two."""
        if self.n < 2:
            return None
        # Exact in integers up to the last step: n * sum(x^2) - sum(x)^2 >= 0 always.
        return math.sqrt(
            (self.n * self.squares - self.total * self.total) / (self.n * (self.n - 1))
        )

    def interval(self) -> list[float] | None:
        """The mean's 95% confidence interval (normal approximation); None below two."""
        mean, spread = self.mean, self.spread
        if mean is None or spread is None:
            return None
        half = Z95 * spread / math.sqrt(self.n)
        return [mean - half, mean + half]

    def counts(self) -> dict[str, int]:
        return {"n": self.n, "sum": self.total, "sum_of_squares": self.squares}

    @classmethod
    def from_counts(cls, raw: Mapping[str, int]) -> Moments:
        return cls(raw["n"], raw["sum"], raw["sum_of_squares"])

    def described(self) -> dict[str, Any]:
        return {"mean": self.mean, "spread": self.spread, "ci95": self.interval()}


@dataclass(kw_only=True)
class Tallies:
    """The counts a game and a run both keep, added the same way."""

    exhausted: int = 0
    aborted: Counter[str] = field(default_factory=Counter)
    decisions: Moments = field(default_factory=Moments)
    """Decisions per hand (one observation a hand)."""
    turns: Moments = field(default_factory=Moments)
    """Turns per hand (one observation a hand)."""
    hand_lengths: Counter[int] = field(default_factory=Counter)
    """Hands by their number of turns (the distribution behind ``turns``)."""
    pattern_wins: Counter[str] = field(default_factory=Counter)
    pattern_counts: Counter[str] = field(default_factory=Counter)
    totals: Counter[int] = field(default_factory=Counter)
    fu: Counter[int] = field(default_factory=Counter)
    payment_events: Counter[str] = field(default_factory=Counter)
    payment_amounts: Counter[str] = field(default_factory=Counter)

    def add_tallies(self, other: Tallies) -> None:
        self.exhausted += other.exhausted
        self.aborted.update(other.aborted)
        self.decisions.merge(other.decisions)
        self.turns.merge(other.turns)
        self.hand_lengths.update(other.hand_lengths)
        self.pattern_wins.update(other.pattern_wins)
        self.pattern_counts.update(other.pattern_counts)
        self.totals.update(other.totals)
        self.fu.update(other.fu)
        self.payment_events.update(other.payment_events)
        self.payment_amounts.update(other.payment_amounts)


@dataclass
class GameSummary(Tallies):
    """What one game contributes (plain data, so it crosses process boundaries)."""

    seed: int
    hands: int = 0
    points: list[int] = field(default_factory=lambda: [0] * SEATS)
    places: list[int] = field(default_factory=lambda: [0] * SEATS)
    """Each seat's place, 0 for first."""
    tied: bool = False
    wins: list[int] = field(default_factory=lambda: [0] * SEATS)
    self_draws: list[int] = field(default_factory=lambda: [0] * SEATS)
    deal_ins: list[int] = field(default_factory=lambda: [0] * SEATS)


def summarise(match: Match, seed: int) -> GameSummary:
    """The summary of a finished match (the module docstring defines each count)."""
    s = GameSummary(seed)
    for hand in match.hands:
        s.hands += 1
        s.exhausted += hand.exhausted
        if hand.aborted is not None:
            s.aborted[hand.aborted] += 1
        s.decisions.add(len(hand.decisions))
        for w in hand.wins:
            s.wins[w.seat] += 1
            if w.discarder is None:
                s.self_draws[w.seat] += 1
            else:
                s.deal_ins[w.discarder] += 1
            score = w.score
            s.totals[score.total] += 1
            if score.fu is not None:
                s.fu[score.fu] += 1
            for p in score.patterns:
                s.pattern_wins[p.id] += 1
                s.pattern_counts[p.id] += p.count
        turns = 0
        for ev in hand.events:
            data = ev.data
            if ev.kind == "draw":
                if not data.get("replacement"):
                    turns += 1
            elif "amount" in data:
                s.payment_events[ev.kind] += 1
                s.payment_amounts[ev.kind] += int(data["amount"])
        s.turns.add(turns)
        s.hand_lengths[turns] += 1
    start = match.profile.table.match.start_score
    s.points = [t - start for t in match.totals]
    order = match.placements()
    for place, seat in enumerate(order):
        s.places[seat] = place
    s.tied = len(set(match.totals)) < SEATS
    return s


def _ranges(seeds: Iterable[int]) -> list[list[int]]:
    """Sorted seeds as inclusive ranges ``[first, last]``."""
    out: list[list[int]] = []
    for x in sorted(seeds):
        if out and x == out[-1][1] + 1:
            out[-1][1] = x
        else:
            out.append([x, x])
    return out


def joined_ranges(ranges: Iterable[Sequence[int]]) -> list[list[int]]:
    """Disjoint inclusive ranges, sorted, adjacent ones joined."""
    out: list[list[int]] = []
    for lo, hi in sorted((r[0], r[1]) for r in ranges):
        if out and lo == out[-1][1] + 1:
            out[-1][1] = hi
        else:
            out.append([lo, hi])
    return out


def _overlap(a: list[list[int]], b: list[list[int]]) -> list[int] | None:
    """The first seed range shared by two lists of ranges, or None."""
    for lo, hi in a:
        for lo2, hi2 in b:
            if lo <= hi2 and lo2 <= hi:
                return [max(lo, lo2), min(hi, hi2)]
    return None


@dataclass
class SeatCounts:
    points: Moments = field(default_factory=Moments)
    places: list[int] = field(default_factory=lambda: [0] * SEATS)
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    point_counts: Counter[int] = field(default_factory=Counter)
    """Games by the seat's points (the distribution behind ``points``)."""

    def counts(self) -> dict[str, Any]:
        return {
            "points": self.points.counts(),
            "places": list(self.places),
            "wins": self.wins,
            "self_draws": self.self_draws,
            "deal_ins": self.deal_ins,
            "point_counts": _counter_json(self.point_counts),
        }

    @classmethod
    def from_counts(cls, raw: Mapping[str, Any]) -> SeatCounts:
        return cls(
            Moments.from_counts(raw["points"]),
            list(raw["places"]),
            raw["wins"],
            raw["self_draws"],
            raw["deal_ins"],
            Counter({int(k): v for k, v in raw["point_counts"].items()}),
        )

    def merge(self, other: SeatCounts) -> None:
        self.points.merge(other.points)
        self.point_counts.update(other.point_counts)
        self.places = [a + b for a, b in zip(self.places, other.places)]
        self.wins += other.wins
        self.self_draws += other.self_draws
        self.deal_ins += other.deal_ins


def _counter_json(c: Mapping[Any, int]) -> dict[str, int]:
    """A counter as JSON: keys as text, in a stable order (numbers by value)."""
    keys = sorted(c, key=lambda k: (0, k, "") if isinstance(k, int) else (1, 0, str(k)))
    return {str(k): c[k] for k in keys if c[k]}


@dataclass
class Statistics(Tallies):
    """A run's statistics: what identifies the run, then exact counts (added game by game)."""

    profile: str
    total_unit: str
    """The profile's own name for a win's total (``Profile.total_unit``: han, fan, doubles)."""
    points_unit: str | None
    """The English name of the profile's second count (``Profile.points.unit``: fu), or None."""
    bots: list[str]
    """The agent spec of each seat (app/agents.py), as given."""
    hands_per_game: int | None = None
    """``--hands``, or None for the profile's match length."""
    options: dict[str, Any] = field(default_factory=dict)
    seeds: list[list[int]] = field(default_factory=list)
    games: int = 0
    hands: int = 0
    seats: list[SeatCounts] = field(default_factory=lambda: [SeatCounts() for _ in range(SEATS)])
    tied_games: int = 0
    hands_in_game: Moments = field(default_factory=Moments)

    @classmethod
    def for_run(
        cls,
        profile: Profile,
        bots: Sequence[str],
        hands: int | None,
        options: Mapping[str, Any] | None,
        summaries: Iterable[GameSummary] = (),
    ) -> Statistics:
        names = list(bots) * SEATS if len(bots) == 1 else list(bots)
        unit = profile.points.unit.en if profile.points is not None else None
        stats = cls(profile.id, profile.total_unit, unit, names, hands, dict(options or {}))
        seeds = []
        for s in summaries:
            stats.add(s)
            seeds.append(s.seed)
        stats.seeds = _ranges(seeds)
        return stats

    def add(self, s: GameSummary) -> None:
        """Add one game (the caller keeps :attr:`seeds`)."""
        self.games += 1
        self.hands += s.hands
        for i, seat in enumerate(self.seats):
            seat.points.add(s.points[i])
            seat.point_counts[s.points[i]] += 1
            seat.places[s.places[i]] += 1
            seat.wins += s.wins[i]
            seat.self_draws += s.self_draws[i]
            seat.deal_ins += s.deal_ins[i]
        self.tied_games += s.tied
        self.hands_in_game.add(s.hands)
        self.add_tallies(s)

    def identity(self) -> dict[str, Any]:
        """What two runs must share to be added."""
        return {
            "profile": self.profile,
            "bots": self.bots,
            "hands_per_game": self.hands_per_game,
            "options": self.options,
        }

    def merge(self, other: Statistics) -> None:
        """Add ``other``, a run over other seeds of the same profile, bots, options and hands;
        :class:`MergeError` otherwise."""
        mine, theirs = self.identity(), other.identity()
        for key in mine:
            if mine[key] != theirs[key]:
                raise MergeError(
                    f"the runs differ in {key.replace('_', ' ')}: {mine[key]!r} and {theirs[key]!r}"
                )
        shared = _overlap(self.seeds, other.seeds)
        if shared is not None:
            lo, hi = shared
            where = f"seed {lo}" if lo == hi else f"seeds {lo}-{hi}"
            raise MergeError(f"the runs overlap: both played {where}")
        self.seeds = joined_ranges(self.seeds + other.seeds)
        self.games += other.games
        self.hands += other.hands
        for a, b in zip(self.seats, other.seats):
            a.merge(b)
        self.tied_games += other.tied_games
        self.hands_in_game.merge(other.hands_in_game)
        self.add_tallies(other)

    # -- derived figures ---------------------------------------------------------------------

    @property
    def wins(self) -> int:
        return sum(seat.wins for seat in self.seats)

    def points_overall(self) -> Moments:
        """Every seat's points of every game, as one sample."""
        m = Moments()
        for seat in self.seats:
            m.merge(seat.points)
        return m

    def derived(self) -> dict[str, Any]:
        """Every figure the report shows, computed from the counts alone."""
        hands = self.hands
        wins = self.wins

        def per(x: int, n: int) -> float | None:
            return x / n if n else None

        seats = []
        for i, seat in enumerate(self.seats):
            games = sum(seat.places)
            seats.append(
                {
                    "seat": i,
                    "bot": self.bots[i],
                    "points": seat.points.described(),
                    "places": [per(c, games) for c in seat.places],
                    "average_rank": per(sum((k + 1) * c for k, c in enumerate(seat.places)), games),
                    "win_rate": per(seat.wins, hands),
                    "self_draw_rate": per(seat.self_draws, hands),
                    "deal_in_rate": per(seat.deal_ins, hands),
                    "win_share": per(seat.wins, wins),
                }
            )
        total_sum = sum(k * v for k, v in self.totals.items())
        fu_wins = sum(self.fu.values())
        aborted = sum(self.aborted.values())
        return {
            "seats": seats,
            "overall": {
                "points": self.points_overall().described(),
                "wins_per_hand": per(wins, hands),
                "self_draws_per_hand": per(sum(s.self_draws for s in self.seats), hands),
                "deal_ins_per_hand": per(sum(s.deal_ins for s in self.seats), hands),
                "exhaustion_rate": per(self.exhausted, hands),
                "abortive_draw_rate": per(aborted, hands),
                "tied_game_rate": per(self.tied_games, self.games),
                "hands_per_game": self.hands_in_game.described(),
                "decisions_per_hand": self.decisions.described(),
                "turns_per_hand": self.turns.described(),
                "total_per_win": per(total_sum, wins),
                "fu_per_win": per(sum(k * v for k, v in self.fu.items()), fu_wins),
            },
            "pattern_frequency_per_win": {
                k: per(v, wins) for k, v in _counter_json(self.pattern_wins).items()
            },
        }

    def counts(self) -> dict[str, Any]:
        return {
            "seats": [seat.counts() for seat in self.seats],
            "tied_games": self.tied_games,
            "exhausted": self.exhausted,
            "aborted": _counter_json(self.aborted),
            "hands_in_game": self.hands_in_game.counts(),
            "decisions": self.decisions.counts(),
            "turns": self.turns.counts(),
            "hand_lengths": _counter_json(self.hand_lengths),
            "pattern_wins": _counter_json(self.pattern_wins),
            "pattern_counts": _counter_json(self.pattern_counts),
            "totals": _counter_json(self.totals),
            "fu": _counter_json(self.fu),
            "payment_events": _counter_json(self.payment_events),
            "payment_amounts": _counter_json(self.payment_amounts),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "profile": self.profile,
            "total_unit": self.total_unit,
            "points_unit": self.points_unit,
            "bots": list(self.bots),
            "hands_per_game": self.hands_per_game,
            "options": dict(self.options),
            "seeds": [list(r) for r in self.seeds],
            "games": self.games,
            "hands": self.hands,
            "counts": self.counts(),
            "statistics": self.derived(),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Statistics:
        """The statistics of :meth:`to_json`'s output (checked against the schema by the caller);
        the derived figures are computed again from the counts."""
        c = raw["counts"]
        return cls(
            profile=raw["profile"],
            total_unit=raw["total_unit"],
            points_unit=raw["points_unit"],
            bots=list(raw["bots"]),
            hands_per_game=raw["hands_per_game"],
            options=dict(raw["options"]),
            seeds=[list(r) for r in raw["seeds"]],
            games=raw["games"],
            hands=raw["hands"],
            seats=[SeatCounts.from_counts(s) for s in c["seats"]],
            tied_games=c["tied_games"],
            exhausted=c["exhausted"],
            aborted=Counter(c["aborted"]),
            hands_in_game=Moments.from_counts(c["hands_in_game"]),
            decisions=Moments.from_counts(c["decisions"]),
            turns=Moments.from_counts(c["turns"]),
            hand_lengths=Counter({int(k): v for k, v in c["hand_lengths"].items()}),
            pattern_wins=Counter(c["pattern_wins"]),
            pattern_counts=Counter(c["pattern_counts"]),
            totals=Counter({int(k): v for k, v in c["totals"].items()}),
            fu=Counter({int(k): v for k, v in c["fu"].items()}),
            payment_events=Counter(c["payment_events"]),
            payment_amounts=Counter(c["payment_amounts"]),
        )

    # -- text --------------------------------------------------------------------------------

    def table(self) -> str:
        """The statistics as a text table (the run's header is the caller's)."""
        d = self.derived()
        seats, overall = d["seats"], d["overall"]
        lines = ["  bots: " + ", ".join(f"seat {s['seat']} {s['bot']}" for s in seats)]
        head = "  " + f"{'seat':<18}" + "".join(f"{i:>10}" for i in range(SEATS)) + f"{'all':>10}"
        lines.append(head)

        def row(label: str, values: Sequence[Any], last: Any = "") -> str:
            return (
                "  "
                + f"{label:<18}"
                + "".join(f"{figure(v):>10}" for v in values)
                + f"{figure(last):>10}"
            )

        pts = overall["points"]
        lines.append(row("points mean", [s["points"]["mean"] for s in seats], pts["mean"]))
        lines.append(row("points spread", [s["points"]["spread"] for s in seats], pts["spread"]))
        for end, label in ((0, "points 95% CI low"), (1, "points 95% CI high")):
            lines.append(
                row(
                    label,
                    [(s["points"]["ci95"] or [None, None])[end] for s in seats],
                    (pts["ci95"] or [None, None])[end],
                )
            )
        for place in range(SEATS):
            lines.append(row(f"place {place + 1}", [s["places"][place] for s in seats]))
        lines.append(row("average rank", [s["average_rank"] for s in seats], 2.5))
        lines.append(row("wins/hand", [s["win_rate"] for s in seats], overall["wins_per_hand"]))
        lines.append(
            row(
                "self-draws/hand",
                [s["self_draw_rate"] for s in seats],
                overall["self_draws_per_hand"],
            )
        )
        lines.append(
            row("deal-ins/hand", [s["deal_in_rate"] for s in seats], overall["deal_ins_per_hand"])
        )
        aborted = ", ".join(f"{k} {v}" for k, v in _counter_json(self.aborted).items())
        lines.append(
            f"  hands: exhaustion rate {figure(overall['exhaustion_rate'])}, abortive draws "
            f"{sum(self.aborted.values())}{f' ({aborted})' if aborted else ''}, tied games "
            f"{self.tied_games}"
        )
        for label, key in (
            ("hands per game", "hands_per_game"),
            ("decisions per hand", "decisions_per_hand"),
            ("turns per hand", "turns_per_hand"),
        ):
            m = overall[key]
            lines.append(f"  {label:<20}mean {figure(m['mean'])}, spread {figure(m['spread'])}")
        lines.append(f"  {'pattern':<24}{'wins':>8}{'per win':>10}{'counted':>9}")
        for k, v in sorted(self.pattern_wins.items(), key=lambda kv: (-kv[1], kv[0])):
            freq = d["pattern_frequency_per_win"].get(k)
            lines.append(f"    {k:<22}{v:>8}{figure(freq):>10}{self.pattern_counts[k]:>9}")
        lines.append(
            f"  {self.total_unit:<8}{'wins':>8}   (mean {figure(overall['total_per_win'])})"
        )
        for k, v in _counter_json(self.totals).items():
            lines.append(f"    {k:<6}{v:>8}")
        if self.points_unit is not None:
            lines.append(
                f"  {self.points_unit:<8}{'wins':>8}   (mean {figure(overall['fu_per_win'])})"
            )
            for k, v in _counter_json(self.fu).items():
                lines.append(f"    {k:<6}{v:>8}")
        lines.append(f"  {'payments by kind':<24}{'events':>8}{'amount':>12}")
        for k, v in _counter_json(self.payment_events).items():
            lines.append(f"    {k:<22}{v:>8}{self.payment_amounts[k]:>12}")
        return "\n".join(lines)


def figure(v: Any) -> str:
    """A figure for the text table: 4 decimals below 100, 1 above, '-' for none."""
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.4f}" if abs(v) < 100 else f"{v:.1f}"
    return str(v)


def _schema() -> dict[str, Any]:
    from importlib import resources
    import json

    text = resources.files("mjspec").joinpath("docs/simulation.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def read_statistics(raw: bytes, source: str) -> tuple[Statistics, dict[str, Any]]:
    """The statistics and the ``run`` of one ``mjspec simulate --json`` file; :class:`MergeError`
    naming ``source`` and why for anything else (not JSON, not of the schema, counts that do not
    add up to the figures beside them)."""
    import jsonschema  # only --merge reads files back: a plain run never loads it

    from mjspec.runtime.safejson import JsonInputError, loads

    try:
        data = loads(raw, source)
    except JsonInputError as e:
        raise MergeError(str(e)) from None
    if isinstance(data, dict) and data.get("format") == FORMAT + "-versus":
        raise MergeError(f"{source}: a --versus comparison; --merge adds plain runs")
    schema = _schema()  # its plain run, not the --versus form beside it
    run_schema = {"$ref": "#/$defs/simulation", "$defs": schema["$defs"]}
    errors = sorted(
        jsonschema.Draft202012Validator(run_schema).iter_errors(data), key=lambda e: list(e.path)
    )
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.path) or "(top)"
        raise MergeError(
            f"{source}: not mjspec simulate --json output (docs/simulation.schema.json): "
            f"at {where}: {first.message}"
        )
    stats = Statistics.from_json(data)
    played = sum(hi - lo + 1 for lo, hi in stats.seeds)
    if joined_ranges(stats.seeds) != stats.seeds or any(lo > hi for lo, hi in stats.seeds):
        raise MergeError(f"{source}: seeds are not sorted disjoint ranges: {stats.seeds}")
    if played != stats.games:
        raise MergeError(f"{source}: {stats.games} games but {played} seeds")
    if stats.derived() != data["statistics"]:
        raise MergeError(f"{source}: its statistics do not follow from its counts (edited?)")
    return stats, dict(data.get("run") or {})


def merge_all(runs: Sequence[tuple[str, Statistics]]) -> Statistics:
    """The sum of runs over disjoint seeds, each named by its source in any refusal."""
    (first, total), *rest = runs
    total = Statistics.from_json(total.to_json())  # a copy: the caller's stays as read
    added = [first]
    for source, stats in rest:
        try:
            total.merge(stats)
        except MergeError as e:
            raise MergeError(f"{source}: cannot be added to {', '.join(added)}: {e}") from None
        added.append(source)
    return total
