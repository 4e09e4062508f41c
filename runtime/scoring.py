"""Score a winning hand under a profile: every arrangement, every pattern, the best result.

The algorithm is one function for every profile; what differs is data in the
:class:`~mjspec.runtime.profile.Profile`: the shapes, the requirements, the
patterns with their relations (``excludes``, groups that pick the highest),
the cap, how the best arrangement is preferred, and the payment formulas.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from .context import WinContext, WinKind
from .hand import Arrangement, Meld
from .profile import Pattern, Pick, Profile
from .shapes import arrangements
from .tiles import N_KINDS, Tile, counts34
from .view import HandView, PaymentView


class HandError(ValueError):
    """A hand that is not well formed: wrong tile count, a tile the profile lacks, a fifth copy."""


@dataclass(frozen=True, slots=True)
class WinningHand:
    """The tiles of a hand claimed as a win: concealed tiles without the winning tile, melds, the winning tile."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile
    win: WinKind


@dataclass(frozen=True, slots=True)
class ScoredPattern:
    """A pattern that counted: its value per occurrence and how many times it occurred."""

    id: str
    name: str
    value: int
    count: int
    section: str | None = None

    @property
    def points(self) -> int:
        return self.value * self.count


@dataclass(frozen=True, slots=True)
class Score:
    """The result of scoring one hand: legal or not (and why), the patterns, total and payments."""

    legal: bool
    reason: str | None = None
    patterns: tuple[ScoredPattern, ...] = ()
    total: int = 0
    capped: int = 0
    fu: int | None = None
    payments: dict[str, int] = field(default_factory=dict)
    arrangement: Arrangement | None = None

    def to_contract(self) -> dict[str, Any]:
        """The answer object of contracts/scoring.md."""
        out: dict[str, Any] = {"legal": self.legal}
        if not self.legal:
            out["reason"] = self.reason or "not a legal win"
        out["patterns"] = [{"id": p.id, "name": p.name, "value": p.value, "count": p.count} for p in self.patterns]
        out["total"] = self.total
        out["fu"] = self.fu
        out["payments"] = dict(self.payments)
        return out


def check_hand(profile: Profile, hand: WinningHand) -> list[int]:
    """Refuse a malformed hand with a :class:`HandError`; return the concealed counts with the winning tile."""
    tiles = profile.tiles
    everything: list[Tile] = [*hand.concealed, hand.win_tile]
    for meld in hand.melds:
        everything.extend(meld.tiles)
    for tile in everything:
        why = tiles.refusal(tile)
        if why is not None:
            raise HandError(why)
        if tile.is_flower:
            raise HandError(f"a flower ({tile}) is never part of a hand; give exposed flowers in context.flowers")
    expected = 14 - 3 * len(hand.melds)
    got = len(hand.concealed) + 1
    if got != expected:
        raise HandError(
            f"with {len(hand.melds)} meld(s) the concealed tiles plus the winning tile must be {expected}, got {got}"
        )
    concealed = counts34([*hand.concealed, hand.win_tile])
    total = list(concealed)
    for meld in hand.melds:
        for tile in meld.tiles:
            total[tile.kind] += 1
    for kind in range(N_KINDS):
        if total[kind] > tiles.copies:
            raise HandError(f"{total[kind]} copies of {Tile(kind)}: the set has only {tiles.copies}")
    return concealed


def evaluate(profile: Profile, hand: WinningHand, ctx: WinContext) -> Score:
    """Score ``hand`` won in situation ``ctx``; raise :class:`HandError` if the hand is malformed."""
    concealed = check_hand(profile, hand)
    arrs = arrangements(concealed, hand.melds, hand.win_tile.kind, profile.shapes)
    if not arrs:
        return Score(False, "not a winning shape")

    meld_groups = tuple(m.group for m in hand.melds)
    all_tiles = (*hand.concealed, hand.win_tile, *(t for m in hand.melds for t in m.tiles))
    totals = [0] * N_KINDS
    for t in all_tiles:
        totals[t.kind] += 1
    suits = frozenset(t.suit.value for t in all_tiles)
    fours = sum(1 for c in totals if c == 4)
    is_closed = all(m.type.is_concealed for m in hand.melds)
    tsumo = hand.win is WinKind.TSUMO
    dealer = ctx.is_dealer

    best: Score | None = None
    best_key: tuple[int, ...] = ()
    failed: str | None = None
    for arr in arrs:
        view = HandView()
        view.shape = arr.shape.value
        view.groups = arr.groups
        view.sets = tuple(g for g in arr.groups if not g.is_pair) if arr.shape.value == "standard" else ()
        view.pair = arr.pair
        view.melds = meld_groups
        view.wait = arr.wait.value
        view.win_tile = hand.win_tile
        view.tiles = all_tiles
        view.suits = suits
        view.four_of_a_kinds = fours
        view.is_closed = is_closed
        view.tsumo = tsumo
        view.ron = not tsumo
        view.last_tile = ctx.last_tile
        view.after_kong = ctx.after_kong
        view.kong_shot = ctx.kong_shot
        view.robbing_kong = ctx.robbing_kong
        view.first_draw = ctx.first_draw
        view.fourth_tile = ctx.fourth_tile
        view.riichi = ctx.riichi or ctx.double_riichi
        view.double_riichi = ctx.double_riichi
        view.ippatsu = ctx.ippatsu
        view.dealer = dealer
        view.seat_wind = ctx.seat_wind.value
        view.round_wind = ctx.round_wind.value
        view.missing_suit = ctx.missing_suit.value if ctx.missing_suit is not None else None
        view.flowers = len(ctx.flowers.replace(" ", "")) // 2 if ctx.flowers else 0

        reason = _unmet_requirement(profile, view)
        if reason is not None:
            failed = failed or reason
            continue
        scored = _score_patterns(profile, view)
        total = sum(p.points for p in scored)
        capped = total if profile.cap is None else min(total, profile.cap)
        payments = compute_payments(profile, total, capped, tsumo, dealer)
        result = Score(True, None, scored, total, capped, None, payments, arr)
        key = _preference_key(profile.prefer, result)
        if best is None or key > best_key:
            best, best_key = result, key
    if best is None:
        return Score(False, failed or "not a legal win")
    return best


def _unmet_requirement(profile: Profile, view: HandView) -> str | None:
    for req in profile.requirements:
        if not req.when(view):
            return req.reason.en
    return None


def _score_patterns(profile: Profile, view: HandView) -> tuple[ScoredPattern, ...]:
    hits: list[tuple[Pattern, int, int]] = []
    for p in profile.patterns:
        if p.when is not None and not p.when(view):
            continue
        n = p.count(view) if p.count is not None else 1
        if n <= 0:
            continue
        value = p.value if isinstance(p.value, int) else p.value(view)
        hits.append((p, value, n))
    if len(hits) > 1:
        hits = _apply_relations(profile, hits)
    return tuple(ScoredPattern(p.id, p.names.en, v, n, p.section) for p, v, n in hits)


def _apply_relations(profile: Profile, hits: list[tuple[Pattern, int, int]]) -> list[tuple[Pattern, int, int]]:
    """Apply ``excludes`` then groups; both decided here and nowhere else.

    ``excludes``: patterns are visited from the highest points down (ties in
    declaration order); a pattern still counted removes every pattern it
    excludes, and a removed pattern removes nothing.
    Groups with ``pick: highest`` keep only their highest-valued member.
    """
    removed: set[str] = set()
    order = sorted(range(len(hits)), key=lambda i: -hits[i][1] * hits[i][2])
    for i in order:
        p = hits[i][0]
        if p.id not in removed and p.excludes:
            removed.update(x for x in p.excludes if x != p.id)
    kept = [h for h in hits if h[0].id not in removed]
    for group in profile.groups:
        if group.pick is not Pick.HIGHEST:
            continue
        members = [h for h in kept if h[0].group == group.id]
        if len(members) > 1:
            winner = max(members, key=lambda h: h[1] * h[2])  # max keeps the first of equals
            kept = [h for h in kept if h[0].group != group.id or h is winner]
    return kept


def compute_payments(profile: Profile, fan: int, capped: int, tsumo: bool, dealer: bool) -> dict[str, int]:
    """Evaluate the profile's payment formulas for a hand worth ``fan`` (``capped`` after the cap)."""
    pv = PaymentView(fan, capped, tsumo, dealer)
    for name, fn in profile.payments.values:
        setattr(pv, name, fn(pv))
    rules = profile.payments.tsumo if tsumo else profile.payments.ron
    out: dict[str, int] = {}
    roles = dict(rules)
    if tsumo and "dealer" in roles and dealer:
        # The dealer's own self-draw: everyone else pays the non-dealer amount of a dealer win.
        out["non_dealer"] = roles["non_dealer"](pv)
        return out
    for role, fn in rules:
        out[role] = fn(pv)
    return out


def _preference_key(prefer: Sequence[str], s: Score) -> tuple[int, ...]:
    key: list[int] = []
    for k in prefer:
        if k == "total":
            key.append(s.total)
        elif k == "payment":
            key.append(sum(s.payments.values()))
    return tuple(key)
