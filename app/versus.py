"""Two profiles on the same seeds and bots, compared game by game (``simulate A --versus B``).

Game ``i`` of both runs uses seed ``SEED + i`` and the same agents, so the two games share their
walls and, until the rules make them differ, their play: the comparison is paired by game.

Every statistic of the report is a ratio of sums over the games, R = sum(x) / sum(h): a seat's
points (x the points, h = 1), a rate per hand (x the wins, h the hands), a frequency per win
(x the wins with the pattern, h the wins). Its difference D = R_A - R_B has the standard error
of the mean of the per-game linearised differences (the delta method, the game as the unit)

    z_i = (x_Ai - R_A h_Ai) / mean(h_A) - (x_Bi - R_B h_Bi) / mean(h_B)
    SE  = stdev(z) / sqrt(n)

which keeps the pairing (the same game under both rules) and the dependence between the hands
and wins of one game. The 95% interval is D +- 1.96 SE. The spread of points is compared as the
root mean square of the points (the mean is zero when every payment goes from seat to seat).

A pattern's frequency is said to have changed when the two-sided p-value of D / SE (the standard
normal distribution), adjusted for the number of patterns compared by Holm's step-down method,
is below 0.05. A pattern that counted in every game's wins alike on both sides has SE = 0 and is
unchanged; one whose difference is the same in every game has SE = 0 and D != 0, p = 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from mjspec.app.simulate import SimulationReport, seeds_text
from mjspec.app.statistics import Z95, GameSummary, figure
from mjspec.runtime.table import SEATS

ALPHA = 0.05
METHOD = (
    "paired by game: ratio estimators with delta-method standard errors over games; patterns: "
    "two-sided z-test of the paired difference, Holm-corrected over the patterns compared, 5%"
)

Extract = Callable[[GameSummary], float]


@dataclass
class Difference:
    """One statistic under A and B, their difference, its 95% interval and p-value."""

    name: str
    seat: int | None
    a: float | None
    b: float | None
    difference: float | None
    ci95: list[float] | None
    p: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "seat": self.seat,
            "a": self.a,
            "b": self.b,
            "difference": self.difference,
            "ci95": self.ci95,
            "p": self.p,
        }


def paired(
    name: str,
    seat: int | None,
    games_a: Sequence[GameSummary],
    games_b: Sequence[GameSummary],
    x: Extract,
    h: Extract,
    root: bool = False,
) -> Difference:
    """The difference of sum(x) / sum(h) between the paired games (the module docstring); with
    ``root`` of its square root."""
    n = len(games_a)
    xa, ha = [x(g) for g in games_a], [h(g) for g in games_a]
    xb, hb = [x(g) for g in games_b], [h(g) for g in games_b]
    sum_a, sum_b = math.fsum(ha), math.fsum(hb)
    if not n or not sum_a or not sum_b:
        given_a = math.fsum(xa) / sum_a if sum_a else None
        given_b = math.fsum(xb) / sum_b if sum_b else None
        return Difference(name, seat, given_a, given_b, None, None, None)
    ra, rb = math.fsum(xa) / sum_a, math.fsum(xb) / sum_b
    scale_a, scale_b = sum_a / n, sum_b / n
    if root:  # d sqrt(R) = dR / (2 sqrt(R))
        ra, rb = math.sqrt(ra), math.sqrt(rb)
        scale_a *= 2 * ra or 1.0
        scale_b *= 2 * rb or 1.0
        za = [(x_ - ra * ra * h_) / scale_a for x_, h_ in zip(xa, ha)]
        zb = [(x_ - rb * rb * h_) / scale_b for x_, h_ in zip(xb, hb)]
    else:
        za = [(x_ - ra * h_) / scale_a for x_, h_ in zip(xa, ha)]
        zb = [(x_ - rb * h_) / scale_b for x_, h_ in zip(xb, hb)]
    z = [p - q for p, q in zip(za, zb)]
    d = ra - rb
    if n < 2:
        return Difference(name, seat, ra, rb, d, None, None)
    mean = sum(z) / n
    se = math.sqrt(sum((v - mean) ** 2 for v in z) / (n - 1) / n)
    if se < 1e-12 * max(1.0, abs(d)):  # every game differs alike (rounding aside)
        return Difference(name, seat, ra, rb, d, [d, d], 1.0 if abs(d) < 1e-12 else 0.0)
    return Difference(
        name, seat, ra, rb, d, [d - Z95 * se, d + Z95 * se], math.erfc(abs(d) / se / math.sqrt(2))
    )


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out = [1.0] * len(ps)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        out[i] = running
    return out


def _one(_: GameSummary) -> float:
    return 1.0


def _hands(g: GameSummary) -> float:
    return float(g.hands)


def _wins(g: GameSummary) -> float:
    return float(sum(g.wins))


def _four(_: GameSummary) -> float:
    return 4.0


def _at(field_: str, seat: int) -> Extract:
    """The seat's entry of a per-seat list of the summary."""

    def get(g: GameSummary) -> float:
        return float(getattr(g, field_)[seat])

    return get


def _summed(field_: str) -> Extract:
    def get(g: GameSummary) -> float:
        return float(sum(getattr(g, field_)))

    return get


def _rank(seat: int) -> Extract:
    def get(g: GameSummary) -> float:
        return g.places[seat] + 1.0

    return get


def _with_pattern(pattern: str) -> Extract:
    def get(g: GameSummary) -> float:
        return float(g.pattern_wins[pattern])

    return get


def _squared_points(g: GameSummary) -> float:
    return float(sum(p * p for p in g.points))


def _exhausted(g: GameSummary) -> float:
    return float(g.exhausted)


def _aborted(g: GameSummary) -> float:
    return float(sum(g.aborted.values()))


def _decisions(g: GameSummary) -> float:
    return float(g.decisions.total)


def _turns(g: GameSummary) -> float:
    return float(g.turns.total)


def _total_sum(g: GameSummary) -> float:
    return float(sum(k * v for k, v in g.totals.items()))


def _fu_sum(g: GameSummary) -> float:
    return float(sum(k * v for k, v in g.fu.items()))


def _fu_wins(g: GameSummary) -> float:
    return float(sum(g.fu.values()))


@dataclass
class Comparison:
    a: SimulationReport
    b: SimulationReport
    statistics: list[Difference]
    patterns: list[Difference]
    adjusted: list[float | None]
    """Each pattern's Holm-adjusted p-value (None where it has no p-value)."""

    def changed(self) -> list[tuple[Difference, float]]:
        """The patterns whose frequency per win changed significantly, largest change first."""
        out = [(d, p) for d, p in zip(self.patterns, self.adjusted) if p is not None and p < ALPHA]
        return sorted(out, key=lambda dp: -abs(dp[0].difference or 0.0))

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "mjspec-simulation-versus",
            "version": 1,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "comparison": {
                "method": METHOD,
                "alpha": ALPHA,
                "statistics": [d.to_json() for d in self.statistics],
                "patterns": [
                    {**d.to_json(), "p_holm": p, "significant": p is not None and p < ALPHA}
                    for d, p in zip(self.patterns, self.adjusted)
                ],
            },
        }

    def table(self) -> str:
        sa, sb = self.a.statistics, self.b.statistics
        lines = [
            f"{sa.profile} (A) versus {sb.profile} (B): {sa.games} games each (seeds "
            f"{seeds_text(sa.seeds)}), {sa.hands} and {sb.hands} hands",
            "  bots: " + ", ".join(f"seat {i} {b}" for i, b in enumerate(sa.bots)),
            f"  {'statistic':<30}{'A':>11}{'B':>11}{'A - B':>11}   95% CI of A - B",
        ]
        for d in self.statistics:
            label = d.name if d.seat is None else f"{d.name}, seat {d.seat}"
            ci = "-" if d.ci95 is None else f"[{figure(d.ci95[0])}, {figure(d.ci95[1])}]"
            mark = " *" if d.ci95 is not None and (d.ci95[0] > 0 or d.ci95[1] < 0) else ""
            lines.append(
                f"  {label:<30}{figure(d.a):>11}{figure(d.b):>11}{figure(d.difference):>11}"
                f"   {ci}{mark}"
            )
        lines.append("  (* : the interval leaves out 0)")
        changed = self.changed()
        lines.append(
            f"  patterns whose frequency per win changed ({len(changed)} of {len(self.patterns)}; "
            "paired z-test over games, Holm-corrected, 5%):"
        )
        if changed:
            lines.append(f"    {'pattern':<24}{'A':>9}{'B':>9}{'A - B':>10}{'p (Holm)':>11}")
        for d, p in changed:
            lines.append(
                f"    {d.name:<24}{figure(d.a):>9}{figure(d.b):>9}{figure(d.difference):>10}"
                f"{p:>11.2g}"
            )
        if not changed:
            lines.append("    none")
        return "\n".join(lines)


def compare(a: SimulationReport, b: SimulationReport) -> Comparison:
    """The paired comparison of two runs over the same seeds (each run kept its summaries)."""
    ga, gb = a.summaries, b.summaries
    if ga is None or gb is None:
        raise ValueError("compare needs each game's summary: simulate(..., keep=True)")
    if [g.seed for g in ga] != [g.seed for g in gb]:
        raise ValueError("compare needs the same seeds on both sides")

    def pair(
        name: str, x: Extract, h: Extract, seat: int | None = None, root: bool = False
    ) -> Difference:
        return paired(name, seat, ga, gb, x, h, root)

    stats: list[Difference] = []
    for i in range(SEATS):
        stats.append(pair("points", _at("points", i), _one, i))
    stats.append(pair("points spread (RMS)", _squared_points, _four, root=True))
    for i in range(SEATS):
        stats.append(pair("average rank", _rank(i), _one, i))
    for name, field_ in (
        ("wins/hand", "wins"),
        ("self-draws/hand", "self_draws"),
        ("deal-ins/hand", "deal_ins"),
    ):
        for i in range(SEATS):
            stats.append(pair(name, _at(field_, i), _hands, i))
        stats.append(pair(name, _summed(field_), _hands))
    stats.append(pair("exhaustion rate", _exhausted, _hands))
    stats.append(pair("abortive draws/hand", _aborted, _hands))
    stats.append(pair("hands per game", _hands, _one))
    stats.append(pair("decisions per hand", _decisions, _hands))
    stats.append(pair("turns per hand", _turns, _hands))
    unit = a.statistics.total_unit
    if b.statistics.total_unit == unit:
        stats.append(pair(f"{unit} per win", _total_sum, _wins))
    points_unit = a.statistics.points_unit
    if points_unit is not None and b.statistics.points_unit == points_unit:
        stats.append(
            pair(
                f"{points_unit} per win",
                _fu_sum,
                _fu_wins,
            )
        )
    ids = sorted(set(a.statistics.pattern_wins) | set(b.statistics.pattern_wins))
    patterns = [pair(p, _with_pattern(p), _wins) for p in ids]
    tested = [i for i, d in enumerate(patterns) if d.p is not None]
    adjusted_tested = holm([patterns[i].p or 0.0 for i in tested])
    adjusted: list[float | None] = [None] * len(patterns)
    for i, p in zip(tested, adjusted_tested):
        adjusted[i] = p
    return Comparison(a, b, stats, patterns, adjusted)


def versus(profile_a: str, profile_b: str, games: int, **run: Any) -> Comparison:
    """Play the same ``games`` seeded games under each profile (``run``: the keywords of
    :func:`~mjspec.app.simulate.simulate`) and compare them."""
    from contextlib import nullcontext

    from mjspec.app.simulate import simulate

    shared: Any = nullcontext()
    if run.get("backend") == "ray":  # one Ray for both runs: it takes seconds to start
        from mjspec.app import ray_backend

        shared = ray_backend.session(run.get("workers", 1), run.get("address"))
    with shared:
        a = simulate(profile_a, games, keep=True, **run)
        b = simulate(profile_b, games, keep=True, **run)
    return compare(a, b)
