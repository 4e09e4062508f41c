"""Score a winning hand under a profile: every arrangement, every pattern, the best result.

The algorithm is one function for every profile; what differs is data in the
:class:`~mjspec.runtime.profile.Profile`: the shapes, the requirements, the
patterns with their relations (``excludes``, groups that pick the highest,
combination patterns, fallback and bonus patterns), the cap, the minimum a win
must reach, how the best arrangement is preferred, and the payment formulas.
How patterns combine is decided in one function, :func:`apply_relations`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence, cast

from .context import WinContext, WinKind
from .options import OptionValue, bind_options, options_in_force
from .hand import Arrangement, Group, GroupKind, Meld, MeldType, group_bits
from .profile import (
    Combine,
    ListedConditions,
    ListedWhen,
    Pattern,
    Pick,
    PointItem,
    Points,
    Profile,
)
from .situation import impossible_win
from .shapes import arrangements, forget_waits, formal_waits, is_only_wait
from .tiles import (
    N_ALL_KINDS,
    N_KINDS,
    SUIT_LAYOUT,
    NotationError,
    Suit,
    Tile,
    counts34,
    parse_tiles,
)
from .view import HandView, Lazy, PaymentView


class HandError(ValueError):
    """A hand that is not well formed: wrong tile count, a tile the profile lacks, a fifth copy."""


@dataclass(frozen=True, slots=True)
class WinningHand:
    """The tiles of a hand claimed as a win: concealed tiles without the winning tile, melds, the
    winning tile."""

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
class ScoredPoints:
    """A point item that applied (a fu item): its id, English name and points."""

    id: str
    name: str
    points: int
    section: str | None = None


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
    limit: bool = False
    """A limit pattern counted (a yakuman): only limit patterns count and ``fu`` is None."""
    point_items: tuple[ScoredPoints, ...] = ()
    """The point items that made up ``fu``, before the profile's result formula (rounding)."""
    value: int | None = None
    """The hand's final value (``payments.hand_value``: classical points after doubling and the
    limit)."""

    def to_contract(self) -> dict[str, Any]:
        """The answer object of contracts/scoring.md."""
        out: dict[str, Any] = {"legal": self.legal}
        if not self.legal:
            out["reason"] = self.reason or "not a legal win"
        out["patterns"] = [
            {"id": p.id, "name": p.name, "value": p.value, "count": p.count} for p in self.patterns
        ]
        # A profile with a hand value states a limit hand by its value alone (contract, classical).
        out["total"] = None if self.value is not None and self.limit else self.total
        out["fu"] = self.fu
        out["payments"] = dict(self.payments)
        if self.value is not None:
            out["score"] = self.value
        return out


def check_hand(profile: Profile, hand: WinningHand) -> list[int]:
    """Refuse a malformed hand with a :class:`HandError`; return the concealed counts with the
    winning tile."""
    tiles = profile.tiles
    everything: list[Tile] = [*hand.concealed, hand.win_tile]
    for meld in hand.melds:
        everything.extend(meld.tiles)
    accepted = _accepted(profile)
    for tile in everything:
        if accepted[tile.kind * 2 + tile.red]:
            continue
        why = tiles.refusal(tile)
        if why is not None:
            raise HandError(why)
        if tile.is_flower:
            raise HandError(
                f"a flower ({tile}) is never part of a hand; give exposed flowers in "
                "context.flowers"
            )
    expected = 14 - 3 * len(hand.melds)
    got = len(hand.concealed) + 1
    if got != expected:
        raise HandError(
            f"with {len(hand.melds)} meld(s) the concealed tiles plus the winning tile must be "
            f"{expected}, got {got}"
        )
    concealed = [0] * N_KINDS
    for tile in hand.concealed:
        concealed[tile.kind] += 1
    concealed[hand.win_tile.kind] += 1
    total = list(concealed)
    for meld in hand.melds:
        for tile in meld.tiles:
            total[tile.kind] += 1
    if max(total) > tiles.copies:
        for kind in range(N_KINDS):
            if total[kind] > tiles.copies:
                raise HandError(
                    f"{total[kind]} copies of {Tile(kind)}: the set has only {tiles.copies}"
                )
    return concealed


def _accepted(profile: Profile) -> list[bool]:
    """By tile code (kind * 2 + red): whether the tile may stand in a hand of this profile
    (in the set, and not a flower); the others are looked at one by one."""
    accepted: list[bool] | None = profile.memo.get("accepted")
    if accepted is None:
        accepted = [False] * (2 * N_ALL_KINDS)
        for t in profile.tiles.all_tiles():
            if not t.is_flower and profile.tiles.refusal(t) is None:
                accepted[t.kind * 2 + t.red] = True
        profile.memo["accepted"] = accepted
    return accepted


def evaluate(
    profile: Profile, hand: WinningHand, ctx: WinContext, *, reference: bool = False
) -> Score:
    """Score ``hand`` won in situation ``ctx``; raise :class:`HandError` if the hand is malformed.

    With ``ctx.losing_hand`` the tiles are a loser's hand scored for settlement (no win claimed).
    The native backend answers where it is built and takes the request (runtime/native_score.py),
    with the very answer of this Python engine but for ``Score.arrangement``, which it leaves None;
    ``reference=True`` asks this engine alone (its answer names the arrangement)."""
    if not reference:
        native = profile.memo.get("native_evaluate")
        if native is None:
            native = _native_evaluator(profile)
        if native:
            answer = native(profile, hand, ctx)
            if answer is NotImplemented:
                answer = _NATIVE[1](profile, hand, ctx)
            if answer is not None:
                return answer  # type: ignore[no-any-return]
    if ctx.options:
        # Options that set rule fields (shapes, tiles) take effect for this request too.
        profile = bind_options(profile, {**profile.option_values.as_dict(), **dict(ctx.options)})
    if ctx.losing_hand:
        if (
            profile.table.settlement is None
        ):  # issue 13 item 17: only a scored settlement scores losers
            why = (
                f"{profile.id} scores no losing hand: context.losing_hand needs a settlement "
                "that scores every hand"
            )
            return Score(False, why)
        return score_losing_hand(profile, (*hand.concealed, hand.win_tile), hand.melds, ctx)
    score = _evaluate(profile, hand, ctx, None)
    if score.legal:
        impossible = impossible_win(
            profile, hand, ctx
        )  # issue 13 items 4, 8, 9: no table produces this win
        if impossible is not None:
            return Score(False, impossible)
    return score


#: runtime/native_score.py's native_evaluator and evaluate_general when the native core is built
#: and allowed, else (None, None); looked up once (it imports this module).
_NATIVE: list[Any] = []


def _native_evaluator(profile: Profile) -> Any:
    """The evaluator :func:`evaluate` calls first (native_score.native_evaluator), or False where
    the native core is not built or not allowed; remembered in the profile's memo."""
    if not _NATIVE:
        from .native_score import evaluate_general, native_core, native_evaluator

        _NATIVE.extend(
            (native_evaluator, evaluate_general) if native_core() is not None else (None, None)
        )
    if _NATIVE[0] is None:
        profile.memo["native_evaluate"] = False
        return False
    return _NATIVE[0](profile)


def score_every_arrangement(profile: Profile, hand: WinningHand, ctx: WinContext) -> list[Score]:
    """The score of every arrangement that meets the requirements, short of the minimum or not.

    :func:`evaluate` answers the best of these (by the profile's preference) that
    reaches the minimum. Several arrangements can tie on the total with different
    patterns (a winning tile read as an edge or a closed wait); this lists them all.
    """
    every: list[Score] = []
    _evaluate(profile, hand, ctx, every)
    return every


def _evaluate(
    profile: Profile, hand: WinningHand, ctx: WinContext, every: list[Score] | None
) -> Score:
    known = _known_tiles(profile, hand)
    if not known.readings:
        return Score(False, "not a winning shape")

    tsumo = hand.win is WinKind.TSUMO
    dealer = ctx.is_dealer
    needs = profile.needs
    minimum = profile.minimum
    plan = _plan(profile)
    points_rule = profile.points

    # One view per hand: the hand-wide names once, then each reading's names in turn.
    view = HandView()
    view.melds = known.meld_groups
    view.win_tile = hand.win_tile
    view.tiles = known.tiles
    view.suits = known.suits
    view.tile_mask = known.mask
    view.four_of_a_kinds = known.fours
    view.is_closed = known.is_closed
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
    view.flowers = _flower_count(profile, ctx.flowers) if ctx.flowers else 0
    view.own_bonus, view.bonus_sets = bonus_tiles(ctx.flowers, ctx.seat_wind.value)
    view.winner = True
    view.original_call = ctx.original_call
    view.kong_upon_kong = ctx.kong_upon_kong
    view.dealer_wins = ctx.dealer_wins
    view.dora_indicators = (
        _indicators(profile, "dora_indicators", ctx.dora_indicators) if ctx.dora_indicators else ()
    )
    view.ura_indicators = (
        _indicators(profile, "ura_indicators", ctx.ura_indicators) if ctx.ura_indicators else ()
    )
    view._only_wait = known.only_wait
    if "only_live_wait" in needs:
        # 003 "Filling the only place": kinds whose four copies are exposed count as no wait.
        view._only_live_wait = (
            Lazy(lambda: _only_live_wait(profile, hand, ctx.exhausted))
            if ctx.exhausted
            else known.only_wait
        )
    options = options_in_force(profile, ctx.options)
    view._options = options
    if known.counts is not None:
        view._counts, view._concealed_counts = known.counts

    want_triplets = "concealed_triplets" in needs
    best: Score | None = None
    best_key: tuple[int, ...] = ()
    failed: str | None = None
    under: Score | None = (
        None  # the best arrangement short of the minimum, reported when nothing reaches it
    )
    for reading in known.readings:
        arr = reading.arr
        view.shape = reading.shape
        view.groups = arr.groups
        view.sets = reading.sets
        view.pair = reading.pair
        view.wait = reading.wait
        view.set_bits = reading.set_bits
        view.group_bits = reading.group_bits
        view._discard_group = None if tsumo or arr.win_group is None else arr.groups[arr.win_group]
        if want_triplets:
            # A triplet the discard completed is exposed (computed per reading, corrected for ron
            # here).
            view.concealed_triplets = reading.concealed_triplets - (
                not tsumo and reading.discard_triplet
            )

        reason = _unmet_requirement(profile, view)
        if reason is not None:
            failed = failed or reason
            continue
        scored, total, limit = _score_reading(profile, plan, reading, view)
        capped = total if profile.cap is None else min(total, profile.cap)
        if minimum is not None:
            counting = total - sum(p.points for p in scored if p.id in minimum.without)
            if counting < minimum.at_least:
                short = Score(False, minimum.reason.en, scored, total, capped, None, {}, arr, limit)
                if every is not None:
                    every.append(short)
                if under is None or total > under.total:
                    under = short
                continue
        fu: int | None = None
        items: tuple[ScoredPoints, ...] = ()
        if points_rule is not None and not limit:
            view._counted = frozenset(p.id for p in scored)
            fu, items = count_points(points_rule, view)
        named: dict[str, int] = {}
        payments = compute_payments(
            profile,
            total,
            capped,
            tsumo,
            dealer,
            points=fu or 0,
            limit=limit,
            honba=ctx.honba,
            options=options,
            named=named,
        )
        value = named.get(profile.payments.hand_value) if profile.payments.hand_value else None
        result = Score(True, None, scored, total, capped, fu, payments, arr, limit, items, value)
        if every is not None:
            every.append(result)
        key = _preference_key(profile.prefer, result)
        if best is None or key > best_key:
            best, best_key = result, key
    if best is None:
        if under is not None and failed is None:
            return under
        return Score(False, failed or "not a legal win")
    if best.limit and profile.limit_hands_counted and options.get(profile.limit_hands_counted):
        return _counted_beside_limit(profile, hand, ctx, best)
    return best


def _counted_beside_limit(
    profile: Profile, hand: WinningHand, ctx: WinContext, limit: Score
) -> Score:
    """A limit hand in a game whose option ``scoring.limit_hands_counted`` is set (classical
    NoLimit): the hand is also counted without its limit patterns; when that counted value beats the
    limit hand's value, the counted figures are the answer (its patterns the counted ones, so that
    they add up to its total)."""
    ordinary = replace(
        profile,
        patterns=tuple(p for p in profile.patterns if not p.limit),
        limit_hands_counted=None,
    )
    counted = _evaluate(ordinary, hand, ctx, None)
    if (
        not counted.legal
        or counted.value is None
        or limit.value is None
        or counted.value <= limit.value
    ):
        return limit
    return counted


# ---------------------------------------------------------------------------
# What the tiles alone decide, learnt once per hand's tiles
# ---------------------------------------------------------------------------
#
# Scoring the same tiles again (a bot weighing its waits every turn, a table
# re-scoring a claimed win, a benchmark's repeats) finds the arrangements, the
# formal wait and every ``tiles_only`` pattern's hits already known: only the
# patterns that read the situation of the win are evaluated again. The
# compiler marks a pattern ``tiles_only`` from the names its expressions read,
# and the reused hits are computed with a view that holds no situation at all,
# so a mismarked pattern fails loudly instead of scoring wrongly.

#: Hands' tiles remembered per profile (those seen at least twice); the table is emptied when full.
MEMO_LIMIT = 1 << 14

#: One scoring hit: the pattern, its value per occurrence, how many occurrences,
#: and for a combination pattern's occurrence the positions (in ``view.sets``)
#: of the sets it combines.
Hit = tuple[Pattern, int, int, frozenset[int] | None]


#: A hit keyed by (declaration index, combination index) for declaration order.
_Keyed = tuple[tuple[int, int], Hit]


#: The patterns that count for a reading, their total, and whether a limit pattern is among them.
_Counted = tuple[tuple[ScoredPattern, ...], int, bool]


@dataclass(slots=True)
class _Reading:
    """One arrangement with what its tiles decide: its view names and the hits of ``tiles_only``
    patterns."""

    arr: Arrangement
    shape: str
    sets: tuple[Group, ...]
    pair: Group | None
    wait: str
    pools: dict[Combine, list[int]] | None
    fixed: list[_Keyed]
    set_bits: int
    group_bits: int
    concealed_triplets: int
    """Concealed triplets and kongs when self-drawn."""
    discard_triplet: bool
    """The winning tile completes a concealed triplet: won on a discard, that triplet is exposed."""
    scored: dict[tuple[tuple[tuple[int, int], int, int], ...], _Counted] = field(
        default_factory=dict
    )
    """Scored patterns after the relations, their total and whether a limit pattern counted,
    by the situational hits that joined ``fixed``."""


@dataclass(slots=True)
class _Tiles:
    """What one hand's tiles decide whatever the situation: the hand-wide view names and every
    reading."""

    tiles: tuple[Tile, ...]
    meld_groups: tuple[Group, ...]
    suits: frozenset[str]
    mask: int
    fours: int
    is_closed: bool
    only_wait: Lazy
    counts: tuple[list[int], list[int]] | None
    readings: list[_Reading]


#: A whole-hand pattern as :func:`_plain_hits` reads it: declaration index, the pattern,
#: its ``when``, ``count``, ``value`` and ``open_value`` (the fields read on every reading, unpacked
#: once).
_Plain = tuple[int, Pattern, Any, Any, Any, Any]


@dataclass(frozen=True, slots=True)
class _Plan:
    """A profile's patterns split by what they read: the tiles only (their hits are reused) or the
    situation too."""

    fixed_plain: tuple[_Plain, ...]
    fixed_conditions: Callable[[HandView], int] | None
    """The generated test of every ``when`` of ``fixed_plain`` at once (bit i: the i-th), if it
    fits."""
    member_combinations: tuple[tuple[tuple[Combine, int], tuple[tuple[int, Pattern], ...]], ...]
    """Combination patterns that read only the combined sets: their answers are remembered per
    sets."""
    fixed_combinations: tuple[tuple[tuple[Combine, int], tuple[tuple[int, Pattern], ...]], ...]
    situational_plain: tuple[_Plain, ...]
    situational_conditions: Callable[[HandView], int] | None
    situational_combinations: tuple[
        tuple[tuple[Combine, int], tuple[tuple[int, Pattern], ...]], ...
    ]


def _plan(profile: Profile) -> _Plan:
    plan: _Plan | None = profile.memo.get("plan")
    if plan is None:
        plain = [(i, p) for i, p in enumerate(profile.patterns) if p.combine is None]

        def combos(
            take: Callable[[Pattern], bool],
        ) -> tuple[tuple[tuple[Combine, int], tuple[tuple[int, Pattern], ...]], ...]:
            out = []
            for key, patterns in profile.combination_patterns:
                chosen = tuple((i, p) for i, p in patterns if take(p))
                if chosen:
                    out.append((key, chosen))
            return tuple(out)

        def unpacked(take: Callable[[Pattern], bool]) -> tuple[_Plain, ...]:
            return tuple(
                (i, p, p.when, p.count, p.value, p.open_value) for i, p in plain if take(p)
            )

        def conditions(listed: tuple[_Plain, ...]) -> Callable[[HandView], int] | None:
            return _listed_conditions(profile, tuple(entry[1] for entry in listed))

        fixed_plain = unpacked(lambda p: p.tiles_only)
        situational_plain = unpacked(lambda p: not p.tiles_only)
        plan = _Plan(
            fixed_plain,
            conditions(fixed_plain),
            combos(lambda p: p.members_only),
            combos(lambda p: p.tiles_only and not p.members_only),
            situational_plain,
            conditions(situational_plain),
            combos(lambda p: not p.tiles_only),
        )
        profile.memo["plan"] = plan
    return plan


def _listed_conditions(
    profile: Profile, listed: tuple[Pattern, ...]
) -> Callable[[HandView], int] | None:
    """The test of every ``when`` of ``listed`` at once (bit i: ``listed[i]`` meets it), from the
    generated functions of ``profile.whole_hand_conditions``; None where they do not fit.

    A profile that extends another shares its parent's functions (compiler/fused.py): one may hold
    a bit this profile does not use (None in its list: a pattern it removed, or changed and tests
    in a function of its own), and a list may need several functions, each asked for its bits,
    whose bits are moved to the positions of ``listed``. Each pattern is tested by exactly one
    function, at the bit its own ``ListedWhen`` names; anything else (a profile whose patterns
    were changed after it was generated) is tested one by one."""
    ids = tuple(p.id for p in listed)
    position = {pid: i for i, pid in enumerate(ids)}
    parts: list[tuple[ListedConditions, tuple[str | None, ...], int, dict[int, int]]] = []
    covered = 0
    for fn, bits in profile.whole_hand_conditions:
        if not any(pid in position for pid in bits if pid is not None):
            continue  # a function of the other list
        asked = 0
        moves: dict[int, int] = {}  # how far bits move to their patterns' positions: those bits
        for bit, pid in enumerate(bits):
            if pid is None:
                continue
            at = position.get(pid)
            if at is None or covered >> at & 1:
                return None  # a pattern the profile no longer lists, or one tested twice
            when = listed[at].when
            if when is not None and not (
                isinstance(when, ListedWhen) and when.conditions is fn and when.bit == 1 << bit
            ):
                return None  # the pattern's `when` is no longer this function's bit
            covered |= 1 << at
            asked |= 1 << bit
            moves[bit - at] = moves.get(bit - at, 0) | 1 << bit
        parts.append((fn, bits, asked, moves))
    if covered != (1 << len(ids)) - 1 or not parts:
        return None
    if len(parts) == 1:
        fn, bits, asked, moves = parts[0]
        if bits == ids:
            # Every bit its pattern's, asked for all (the default): the function as generated.
            return cast(Callable[[HandView], int], fn)
        if moves == {0: asked}:
            return lambda view: fn(view, asked)
    joined = tuple(
        (fn, asked, tuple((mask, max(by, 0), max(-by, 0)) for by, mask in moves.items()))
        for fn, _, asked, moves in parts
    )

    def conditions(view: HandView) -> int:
        met = 0
        for fn, asked, shifts in joined:
            got = fn(view, asked)
            for mask, right, left in shifts:
                met |= (got & mask) >> right << left
        return met

    return conditions


#: The entries of ``Profile.memo`` made from the profile alone, never from a hand: its scoring
#: plan, its native scorer and what the native glue reads of its rules once. A long-running engine
#: holds them whatever hands it has seen, so :func:`clear_memo` keeps them.
PROFILE_DERIVED = frozenset(
    {
        "plan",
        "losing_plan",
        "native_score",
        "native_evaluate",
        "accepted",
        "native_accepted",
        "native_limits",
        "native_names",
        "native_fragments",
    }
)


def clear_memo(profile: Profile) -> None:
    """Forget every hand ``profile`` has scored (and the formal waits of every hand); for cold
    measurements. What the profile alone decides (:data:`PROFILE_DERIVED`) stays."""
    kept = {k: v for k, v in profile.memo.items() if k in PROFILE_DERIVED}
    profile.memo.clear()
    profile.memo.update(kept)
    forget_waits()


def _known_tiles(profile: Profile, hand: WinningHand) -> _Tiles:
    memo: dict[bytes, _Tiles] | None = profile.memo.get("tiles")
    if memo is None:
        memo = profile.memo["tiles"] = {}
        profile.memo["seen"] = set()
    key = _tiles_key(hand)
    known = memo.get(key)
    if known is None:
        known = _learn_tiles(profile, hand)
        # Remember tiles seen a second time only: what a hand's tiles decide
        # is dozens of objects, and keeping every one-off hand would make the
        # garbage collector walk them all again and again. A first sight
        # leaves only the key's hash (an int, which the collector skips).
        seen: set[int] = profile.memo["seen"]
        h = hash(key)
        if h in seen:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            memo[key] = known
        else:
            if len(seen) >= 4 * MEMO_LIMIT:
                seen.clear()
            seen.add(h)
    return known


#: Each suit's letter and the mask of its kinds (as in ``tile_mask``).
_SUIT_MASKS: tuple[tuple[str, int], ...] = tuple(
    (suit.value, ((1 << size) - 1) << base)
    for suit, (base, size) in SUIT_LAYOUT.items()
    if suit is not Suit.FLOWER
)

_MELD_MARK: dict[MeldType, int] = {m: 250 + i for i, m in enumerate(MeldType)}
_WIN_MARK = 255


def _tiles_key(hand: WinningHand) -> bytes:
    """The hand's tiles as bytes: every tile (kind and red) in order, each meld's type, the winning
    tile.

    Everything the tiles decide is read from these (the view's tiles keep this
    order); who a meld was claimed from is not among them. Tile codes are
    below 84 and the marks above 249, so the bytes read back one way only.
    """
    out = [t.kind * 2 + t.red for t in hand.concealed]
    out.append(_WIN_MARK)
    out.append(hand.win_tile.kind * 2 + hand.win_tile.red)
    for m in hand.melds:
        out.append(_MELD_MARK[m.type])
        out.extend([t.kind * 2 + t.red for t in m.tiles])
    return bytes(out)


_NOT_WINNING = _Tiles((), (), frozenset(), 0, 0, True, Lazy(lambda: False), None, [])
"""What the tiles of every hand that forms no winning shape decide: no reading (nothing else is
read)."""


def _learn_tiles(profile: Profile, hand: WinningHand) -> _Tiles:
    concealed = check_hand(
        profile, hand
    )  # a hand is checked once: a malformed one is never remembered
    arrs = arrangements(concealed, hand.melds, hand.win_tile.kind, profile.shapes)
    if not arrs:
        return _NOT_WINNING
    melds = hand.melds
    meld_groups = tuple([m.group for m in melds])
    totals = list(concealed)
    if melds:
        all_tiles = (*hand.concealed, hand.win_tile, *[t for m in melds for t in m.tiles])
        for m in melds:
            for t in m.tiles:
                totals[t.kind] += 1
    else:
        all_tiles = (*hand.concealed, hand.win_tile)
    mask = 0
    for t in all_tiles:
        mask |= 1 << t.kind
    needs = profile.needs
    counts = (totals, concealed) if "count_of" in needs or "concealed_count_of" in needs else None
    known = _Tiles(
        tiles=all_tiles,
        meld_groups=meld_groups,
        suits=frozenset([suit for suit, kinds in _SUIT_MASKS if mask & kinds]),
        mask=mask,
        fours=totals.count(4),
        is_closed=all(m.type.is_concealed for m in hand.melds),
        only_wait=Lazy(lambda: _only_wait(profile, concealed, hand)),
        counts=counts,
        readings=[],
    )
    plan = _plan(profile)
    # A view of the tiles alone: a tiles_only pattern that read the situation would fail here.
    view = HandView()
    view.melds = meld_groups
    view.win_tile = hand.win_tile
    view.tiles = all_tiles
    view.suits = known.suits
    view.tile_mask = known.mask
    view.four_of_a_kinds = known.fours
    view.is_closed = known.is_closed
    view._only_wait = known.only_wait
    if counts is not None:
        view._counts, view._concealed_counts = counts
    want_set_bits = "set_bits" in needs
    want_group_bits = "group_bits" in needs
    want_triplets = "concealed_triplets" in needs
    for arr in arrs:
        sets = tuple([g for g in arr.groups if g.kind in _SET_KINDS])
        view.shape = arr.shape.value
        view.groups = arr.groups
        view.sets = sets
        view.pair = arr.pair
        view.wait = arr.wait.value
        view.set_bits = group_bits(sets) if want_set_bits else 0
        view.group_bits = group_bits(arr.groups) if want_group_bits else 0
        fixed = _plain_hits(plan.fixed_plain, plan.fixed_conditions, view)
        pools = _pools(sets) if profile.combination_patterns else None
        if pools is not None and (plan.member_combinations or plan.fixed_combinations):
            fixed.extend(_member_combination_hits(profile, plan.member_combinations, view, pools))
            fixed.extend(_combination_hits(plan.fixed_combinations, view, pools))
            fixed.sort(key=_by_key)
        triplets, discard_triplet = _concealed_triplets(arr) if want_triplets else (0, False)
        known.readings.append(
            _Reading(
                arr,
                view.shape,
                sets,
                view.pair,
                view.wait,
                pools,
                fixed,
                view.set_bits,
                view.group_bits,
                triplets,
                discard_triplet,
            )
        )
    return known


def _by_key(keyed: _Keyed) -> tuple[int, int]:
    return keyed[0]


_SEAT_NUMBER = {"E": 1, "S": 2, "W": 3, "N": 4}


def bonus_tiles(text: str, seat_wind: str) -> tuple[int, int]:
    """Of the exposed bonus tiles (mpsz, already checked): how many are the seat's own flower
    and own season (East 1f and 5f, South 2f and 6f...), and how many complete sets of four."""
    if not text:
        return 0, 0
    numbers = {t.number for t in parse_tiles(text)}
    own = _SEAT_NUMBER[seat_wind]
    owned = int(own in numbers) + int(own + 4 in numbers)
    sets = int({1, 2, 3, 4} <= numbers) + int({5, 6, 7, 8} <= numbers)
    return owned, sets


def _flower_count(profile: Profile, text: str) -> int:
    """How many flowers ``context.flowers`` names; each must be a flower of the set, once."""
    memo: dict[str, int] | None = profile.memo.get("flowers")
    if memo is None:
        memo = profile.memo["flowers"] = {}
    n = memo.get(text)
    if n is None:
        n = _count_flowers(profile, text)
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[text] = n
    return n


def _count_flowers(profile: Profile, text: str) -> int:
    try:
        shown = parse_tiles(text)
    except NotationError as e:
        raise HandError(f"context.flowers: {e}") from None
    for t in shown:
        if not t.is_flower:
            raise HandError(f"context.flowers holds {t}, which is not a flower")
        why = profile.tiles.refusal(t)
        if why is not None:
            raise HandError(why)
    if len(set(shown)) != len(shown):
        raise HandError("context.flowers names a flower twice: each flower exists once")
    return len(shown)


def _indicators(profile: Profile, key: str, text: str) -> tuple[Tile, ...]:
    """The tiles of ``context.<key>`` (dora or ura-dora indicators), each a tile of the set."""
    memo: dict[str, tuple[Tile, ...]] | None = profile.memo.get("indicators")
    if memo is None:
        memo = profile.memo["indicators"] = {}
    shown = memo.get(text)
    if shown is None:
        try:
            shown = tuple(parse_tiles(text, profile.tiles))
        except NotationError as e:
            raise HandError(f"context.{key}: {e}") from None
        for t in shown:
            if t.is_flower:
                raise HandError(f"context.{key} holds the flower {t}, which cannot indicate a tile")
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[text] = shown
    return shown


def count_points(rule: Points, view: HandView) -> tuple[int, tuple[ScoredPoints, ...]]:
    """The hand's points under ``rule`` (riichi fu): every item that applies, then
    ``rule.result``."""
    items: list[ScoredPoints] = []
    raw = 0
    for item in rule.items:
        if item.when is not None and not item.when(view):
            continue
        value = item.value if isinstance(item.value, int) else item.value(view)
        if value:
            raw += value
            items.append(_scored_points(item, value))
    if rule.result is None:
        return raw, tuple(items)
    view.points = raw
    return rule.result(view), tuple(items)


# Kinds are tested with ``in`` on tuples and ranked with ``index``: both
# compare members by identity first, where a dict or set of enum members
# would run the enum's hash (Python code) on every group.
_SET_KINDS: tuple[GroupKind, ...] = (GroupKind.SEQUENCE, GroupKind.TRIPLET, GroupKind.KONG)
_COMBINE_KINDS: tuple[tuple[Combine, tuple[GroupKind, ...]], ...] = (
    (Combine.SEQUENCES, (GroupKind.SEQUENCE,)),
    (Combine.TRIPLETS, (GroupKind.TRIPLET, GroupKind.KONG)),
    (Combine.SETS, _SET_KINDS),
)
_KIND_ORDER: tuple[GroupKind, ...] = tuple(GroupKind)
_MELD_ORDER: tuple[MeldType | None, ...] = (None, *MeldType)


def _only_wait(profile: Profile, concealed: list[int], hand: WinningHand) -> bool:
    """Whether the hand before its winning tile waits on that kind alone, by shape.

    Kinds whose every copy the player holds still count as waits: a wait is
    formally single only if no other kind would complete the shape.
    """
    before = list(concealed)
    before[hand.win_tile.kind] -= 1
    return is_only_wait(before, hand.melds, profile.shapes, hand.win_tile.kind)


def _only_live_wait(profile: Profile, hand: WinningHand, exhausted: str) -> bool:
    """Whether the winning kind is the only one that completes the hand, a kind all four of whose
    copies were exposed on the table (``context.exhausted``) not counting as one; the winning kind
    itself always counts.
    """
    try:
        dead = {t.kind for t in parse_tiles(exhausted)}
    except NotationError as e:
        raise HandError(f"context.exhausted: {e}") from None
    if any(k >= N_KINDS for k in dead):
        raise HandError(
            "context.exhausted names a bonus tile: only hand-forming kinds can be exhausted"
        )
    dead.discard(hand.win_tile.kind)
    before = counts34(list(hand.concealed))
    live = formal_waits(before, hand.melds, profile.shapes) - dead
    return live == frozenset((hand.win_tile.kind,))


def _concealed_triplets(arr: Arrangement) -> tuple[int, bool]:
    """The concealed triplets and kongs of a self-drawn win, and whether the winning tile completes
    a concealed triplet (won on a discard, that one counts as exposed)."""
    n = sum(1 for g in arr.groups if g.concealed and g.is_triplet)
    if arr.win_group is not None:
        g = arr.groups[arr.win_group]
        if g.kind is GroupKind.TRIPLET and g.meld is None:
            return n, True
    return n, False


def _unmet_requirement(profile: Profile, view: HandView) -> str | None:
    for req in profile.requirements:
        if not req.when(view):
            return req.reason.en
    return None


def _plain_hits(
    patterns: tuple[_Plain, ...], conditions: Callable[[HandView], int] | None, view: HandView
) -> list[_Keyed]:
    """The hits of these whole-hand patterns on the view, keyed by (declaration index, 0).

    In an open hand a pattern with an ``open_value`` is worth that (0: it does not count).
    With ``conditions`` (the generated test of every ``when`` at once) only the patterns whose
    ``when`` holds are looked at further."""
    if conditions is not None:
        return _met_hits(patterns, conditions(view), view)
    met = 0
    for i, entry in enumerate(patterns):
        when = entry[2]
        if when is None or when(view):
            met |= 1 << i
    return _met_hits(patterns, met, view)


def _met_hits(patterns: tuple[_Plain, ...], met: int, view: HandView) -> list[_Keyed]:
    """The hits of the patterns whose ``when`` holds (bit i of ``met`` for ``patterns[i]``), in
    declaration order."""
    out: list[_Keyed] = []
    is_open = not view.is_closed
    while met:
        low = met & -met
        met ^= low
        idx, p, _, count, value, open_value = patterns[low.bit_length() - 1]
        if is_open and open_value is not None:
            if open_value == 0:
                continue  # a closed-only pattern in an open hand
            value = open_value
        n = 1 if count is None else count(view)
        if n <= 0:
            continue
        if type(value) is not int:
            value = value(view)
        if is_open and open_value is not None and value <= 0:
            continue
        out.append(((idx, 0), (p, value, n, None)))
    return out


def _valued(
    p: Pattern, view: HandView, is_open: bool, n: int, members: frozenset[int] | None
) -> Hit | None:
    """The hit with its value per occurrence: ``open_value`` in an open hand when given (0: no
    hit)."""
    if is_open:
        ov = p.open_value
        value = ov if isinstance(ov, int) else ov(view)  # type: ignore[misc]
        return (p, value, n, members) if value > 0 else None
    return (p, p.value if isinstance(p.value, int) else p.value(view), n, members)


def _score_reading(profile: Profile, plan: _Plan, reading: _Reading, view: HandView) -> _Counted:
    """The patterns that count for one reading (its ``tiles_only`` hits plus the situation's, after
    the relations), their total, and whether a limit pattern counted."""
    situational = _plain_hits(plan.situational_plain, plan.situational_conditions, view)
    if plan.situational_combinations and reading.pools is not None:
        situational.extend(_combination_hits(plan.situational_combinations, view, reading.pools))
    # The hits of the situation (pattern, occurrence, value, count) decide the rest.
    sig = tuple((k, h[1], h[2]) for k, h in situational)
    scored = reading.scored.get(sig)
    if scored is None:
        keyed = reading.fixed + situational
        if situational and reading.fixed:
            keyed.sort(
                key=_by_key
            )  # back into declaration order, a pattern's occurrences in combination order
        patterns = _relate(profile, [h for _, h in keyed])
        total = 0
        for p in patterns:
            total += p.value * p.count
        limit = profile.has_limits and any(profile.pattern_index[p.id].limit for p in patterns)
        scored = reading.scored[sig] = (patterns, total, limit)
    return scored


def _relate(profile: Profile, hits: list[Hit]) -> tuple[ScoredPattern, ...]:
    if len(hits) > 1:
        hits = (
            apply_relations(profile, hits) if profile.relational else _pick_highest(profile, hits)
        )
    if profile.relational:
        return _aggregate(hits)
    return tuple([_scored_pattern(p, v, n) for p, v, n, _ in hits])


def _combination_hits(
    patterns_by_kind: tuple[tuple[tuple[Combine, int], tuple[tuple[int, Pattern], ...]], ...],
    view: HandView,
    pools: dict[Combine, list[int]],
) -> list[_Keyed]:
    """Every occurrence of these combination patterns, keyed by (declaration index, combination
    index)."""
    sets = view.sets
    out: list[_Keyed] = []
    for (kind, size), patterns in patterns_by_kind:
        pool = pools[kind]
        if len(pool) < size:
            continue
        for ci, combo in enumerate(itertools.combinations(pool, size)):
            _set_members(view, tuple([sets[i] for i in combo]))
            members: frozenset[int] | None = None
            for idx, p in patterns:
                if p.when is not None and not p.when(view):
                    continue
                if members is None:
                    members = frozenset(combo)
                hit = _valued(p, view, p.open_value is not None and not view.is_closed, 1, members)
                if hit is not None:
                    out.append(((idx, ci), hit))
    return out


def _member_combination_hits(
    profile: Profile,
    patterns_by_kind: tuple[tuple[tuple[Combine, int], tuple[tuple[int, Pattern], ...]], ...],
    view: HandView,
    pools: dict[Combine, list[int]],
) -> list[_Keyed]:
    """:func:`_combination_hits` for patterns that read only the combined sets, remembered per sets.

    One table per kind of combination maps the sets' codes to the (declaration
    index, value) of every pattern those sets meet: plain ints, which the
    garbage collector soon stops tracking. The tables are bounded by the sets
    that exist, and emptied at ``MEMO_LIMIT`` entries all the same.
    """
    tables: list[dict[tuple[int, ...], tuple[tuple[int, int], ...]]] | None = profile.memo.get(
        "combinations"
    )
    if tables is None:
        tables = profile.memo["combinations"] = [{} for _ in patterns_by_kind]
    sets = view.sets
    codes = [_group_code(g) for g in sets]
    patterns_of = profile.patterns
    out: list[_Keyed] = []
    for table, ((kind, size), patterns) in zip(tables, patterns_by_kind):
        pool = pools[kind]
        if len(pool) < size:
            continue
        pool_codes = [codes[i] for i in pool]
        combos = zip(itertools.combinations(pool, size), itertools.combinations(pool_codes, size))
        for ci, (combo, key) in enumerate(combos):
            found = table.get(key)
            if found is None:
                _set_members(view, tuple([sets[i] for i in combo]))
                found = tuple(
                    [
                        (idx, p.value if isinstance(p.value, int) else p.value(view))
                        for idx, p in patterns
                        if p.when is None or p.when(view)
                    ]
                )
                if len(table) >= MEMO_LIMIT:
                    table.clear()
                table[key] = found
            if found:
                members = frozenset(combo)
                for idx, value in found:
                    out.append(((idx, ci), (patterns_of[idx], value, 1, members)))
    return out


def _group_code(g: Group) -> int:
    """One int for every field of a group: equal codes, equal groups."""
    return ((g.tile * 8 + _KIND_ORDER.index(g.kind)) * 2 + g.concealed) * 8 + _MELD_ORDER.index(
        g.meld
    )


def _pools(sets: tuple[Group, ...]) -> dict[Combine, list[int]]:
    """Positions of the sets of each combinable kind, in tile order."""
    order = sorted(range(len(sets)), key=lambda i: (sets[i].tile, _KIND_ORDER.index(sets[i].kind)))
    return {c: [i for i in order if sets[i].kind in kinds] for c, kinds in _COMBINE_KINDS}


def _set_members(view: HandView, members: tuple[Group, ...]) -> None:
    view.members = members
    n = len(members)
    view.a = members[0]
    if n > 1:
        view.b = members[1]
        if n > 2:
            view.c = members[2]
            if n > 3:
                view.d = members[3]


def _aggregate(hits: list[Hit]) -> tuple[ScoredPattern, ...]:
    out: list[ScoredPattern] = []
    index: dict[tuple[str, int], int] = {}
    for p, v, n, _ in hits:
        at = index.get((p.id, v))
        if at is None:
            index[(p.id, v)] = len(out)
            out.append(_scored_pattern(p, v, n))
        else:
            old = out[at]
            out[at] = _scored_pattern(p, v, old.count + n)
    return tuple(out)


# Scored patterns and point items are immutable values made again and again with
# the same fields: one object is shared per (pattern or item, value, count). Keyed by
# the pattern's identity, which the entry keeps alive; bounded like the memo tables.
_SCORED_PATTERNS: dict[tuple[int, int, int], tuple[Pattern, ScoredPattern]] = {}
_SCORED_POINTS: dict[tuple[int, int], tuple[PointItem, ScoredPoints]] = {}


def _scored_pattern(p: Pattern, value: int, count: int) -> ScoredPattern:
    key = (id(p), value, count)
    known = _SCORED_PATTERNS.get(key)
    if known is not None and known[0] is p:
        return known[1]
    scored = ScoredPattern(p.id, p.names.en, value, count, p.section)
    if len(_SCORED_PATTERNS) >= MEMO_LIMIT:
        _SCORED_PATTERNS.clear()
    _SCORED_PATTERNS[key] = (p, scored)
    return scored


def _scored_points(item: PointItem, value: int) -> ScoredPoints:
    key = (id(item), value)
    known = _SCORED_POINTS.get(key)
    if known is not None and known[0] is item:
        return known[1]
    scored = ScoredPoints(item.id, item.names.en, value, item.section)
    if len(_SCORED_POINTS) >= MEMO_LIMIT:
        _SCORED_POINTS.clear()
    _SCORED_POINTS[key] = (item, scored)
    return scored


_NO_LIMITS: dict[str, int] = {}


def apply_relations(profile: Profile, hits: list[Hit]) -> list[Hit]:
    """Decide which hits count together: every relation between patterns is applied here and nowhere
    else.

    1. Bonus patterns stand aside: they always count and exclude nothing.
    2. The other hits are visited from the highest points down (value times
       occurrences; ties in declaration order, a combination pattern's
       occurrences in tile order). A hit that an earlier hit removed is
       skipped and removes nothing.
    3. A combination occurrence is also skipped when it shares a set with a
       counted occurrence of the same pattern (*non-identical*: a set forms
       each fan once), or when two of its sets are already joined through
       counted combinations (*account once*: the counted combinations never
       close a cycle, so a set left over joins already-combined ones once).
    4. A counted hit removes what it ``excludes``. A whole-hand pattern removes
       every occurrence of an excluded pattern (or only as many as its limit
       says, last visited first); a combination occurrence removes the
       occurrences of an excluded combination pattern made only of its own
       sets (what it implies on those sets), and an excluded whole-hand
       pattern outright. Removal also takes back a hit counted earlier
       (what that hit kept out by steps 3 stays out).
    5. Groups with ``pick: highest`` keep only their highest-valued member.
    6. A ``fallback`` pattern counts only if no other pattern (bonus patterns
       aside) still counts.
    7. When a ``limit`` pattern still counts, only limit patterns count (a
       yakuman hand adds no ordinary yaku and no bonus han).
    """
    if _nothing_removed(hits):
        # No hit excludes another and none is a combination occurrence: every hit counts
        # (steps 2-4 remove nothing), in declaration order; steps 5-7 still apply.
        return _last_steps(profile, list(hits))
    order = sorted(range(len(hits)), key=lambda i: -hits[i][1] * hits[i][2])
    removed_ids: set[str] = set()
    removed: set[int] = set()
    reduced: dict[int, int] = {}
    parent: dict[int, int] = {}
    used: dict[str, set[int]] = {}
    counted: list[int] = []
    by_id: dict[str, list[int]] = {}  # each pattern's hits in visiting order
    for i in order:
        by_id.setdefault(hits[i][0].id, []).append(i)

    def find(x: int) -> int:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for i in order:
        p, _, _, members = hits[i]
        if p.bonus:
            counted.append(i)
            continue
        if i in removed or p.id in removed_ids:
            continue
        if members is not None and len(members) > 0:
            if used.get(p.id, set()) & members:
                continue
            roots = {find(m) for m in members}
            if len(roots) < len(members):
                continue
            first = roots.pop()
            for r in roots:
                parent[r] = first
            used.setdefault(p.id, set()).update(members)
        counted.append(i)
        if not p.excludes:
            continue
        limits = dict(p.exclude_limits) if p.exclude_limits else _NO_LIMITS
        for x in p.excludes:
            if x == p.id or x not in by_id:
                continue  # removing a pattern with no hit changes nothing
            targets = [j for j in by_id[x] if j not in removed]
            if members is not None and targets and hits[targets[0]][3] is not None:
                removed.update(
                    j
                    for j in targets
                    if hits[j][3] is not None and hits[j][3] <= members  # type: ignore[operator]
                )
                continue
            limit = limits.get(x)
            if limit is None:
                removed_ids.add(x)
                continue
            for j in reversed(targets):
                if limit <= 0:
                    break
                if hits[j][3] is None:
                    take = min(limit, hits[j][2] - reduced.get(j, 0))
                    reduced[j] = reduced.get(j, 0) + take
                    limit -= take
                    if reduced[j] >= hits[j][2]:
                        removed.add(j)
                else:
                    removed.add(j)
                    limit -= 1
    kept: list[Hit] = []
    for i in sorted(counted):
        p, v, n, members = hits[i]
        if not p.bonus and (i in removed or p.id in removed_ids):
            continue
        kept.append((p, v, n - reduced.get(i, 0), members))
    return _last_steps(profile, kept)


def _nothing_removed(hits: list[Hit]) -> bool:
    """Whether no hit is a combination occurrence and no hit (bonus hits aside) excludes another
    hit's pattern."""
    ids: set[str] | None = None
    for p, _, _, members in hits:
        if members is not None:
            return False
        if p.excludes and not p.bonus:
            if ids is None:
                ids = {h[0].id for h in hits}
            for x in p.excludes:
                if x in ids and x != p.id:
                    return False
    return True


def _last_steps(profile: Profile, kept: list[Hit]) -> list[Hit]:
    """Steps 5 to 7 of :func:`apply_relations`: groups that pick the highest, fallback, limit
    patterns."""
    kept = _pick_highest(profile, kept)
    if any(h[0].fallback for h in kept) and any(not h[0].fallback and not h[0].bonus for h in kept):
        kept = [h for h in kept if not h[0].fallback]
    if profile.has_limits and any(h[0].limit for h in kept):
        kept = [h for h in kept if h[0].limit]
    return kept


def _pick_highest(profile: Profile, kept: list[Hit]) -> list[Hit]:
    """Groups with ``pick: highest`` keep only their highest-valued member (the first of equals)."""
    for group in profile.groups:
        if group.pick is not Pick.HIGHEST:
            continue
        in_group = [h for h in kept if h[0].group == group.id]
        if len(in_group) > 1:
            winner = max(in_group, key=lambda h: h[1] * h[2])  # max keeps the first of equals
            kept = [h for h in kept if h[0].group != group.id or h is winner]
    return kept


def compute_payments(
    profile: Profile,
    fan: int,
    capped: int,
    tsumo: bool,
    dealer: bool,
    *,
    points: int = 0,
    limit: bool = False,
    honba: int = 0,
    options: Mapping[str, OptionValue] | None = None,
    named: dict[str, int] | None = None,
) -> dict[str, int]:
    """Evaluate the profile's payment formulas for a hand worth ``fan`` (``capped`` after the cap).

    ``points`` are the hand's points (fu; 0 for a limit hand), ``limit`` whether a
    limit pattern counted, ``honba`` the repeat counters on the table.
    """
    pv = PaymentView(
        fan,
        capped,
        tsumo,
        dealer,
        points,
        limit,
        honba,
        options=profile.option_values.as_dict() if options is None else options,
    )
    for name, fn in profile.payments.values:
        setattr(pv, name, fn(pv))
        if named is not None:
            named[name] = getattr(pv, name)
    rules = profile.payments.tsumo if tsumo else profile.payments.ron
    out: dict[str, int] = {}
    roles = dict(rules)
    if tsumo and "dealer" in roles and dealer:
        # The dealer's own self-draw: everyone else pays the non-dealer amount of a dealer win.
        out["non_dealer"] = roles["non_dealer"](pv)
        return out
    if "east" in roles and dealer:
        # East (the dealer) wins: every loser pays the non-East amount, doubled by the formula where
        # East doubles.
        out["each"] = roles["non_east"](pv)
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
        elif k == "points":
            key.append(s.fu or 0)
    return tuple(key)


# ---------------------------------------------------------------------------
# Losing hands (scored settlement: 003 "Procedure in Settlement", M 103-111)
# ---------------------------------------------------------------------------


#: The concealed groups a loser's tiles are read as, by kind: a pung where three or more of a kind
#: are held, a pair where two are (immutable values, made once).
_LOSING_TRIPLETS = tuple(Group(GroupKind.TRIPLET, kind, True) for kind in range(N_KINDS))
_LOSING_PAIRS = tuple(Group(GroupKind.PAIR, kind, True) for kind in range(N_KINDS))
_NEVER = Lazy(lambda: False)
"""A loser has no winning tile, so no (live) only wait: a shared Lazy that is always False."""


def _losing_plan(profile: Profile) -> tuple[Any, ...] | None:
    """How :func:`score_losing_hand` tests the profile's patterns, remembered in its memo: per
    list of the scorer's plan (``tiles_only`` patterns, the others), the generated test of every
    ``when`` at once and each pattern's (declaration index, pattern, count, value); None when a
    combination pattern (which a loser's reading cannot score) or a pattern tested one by one
    sends it the long way."""
    memo = profile.memo
    if "losing_plan" in memo:
        return memo["losing_plan"]  # type: ignore[no-any-return]
    plan = _plan(profile)
    lists = (
        (plan.fixed_plain, plan.fixed_conditions),
        (plan.situational_plain, plan.situational_conditions),
    )
    found: tuple[Any, ...] | None = tuple(
        (conditions, tuple((i, p, count, value) for i, p, _, count, value, _ in plain))
        for plain, conditions in lists
    )
    if profile.combination_patterns or any(
        conditions is None and plain for plain, conditions in lists
    ):
        found = None
    memo["losing_plan"] = found
    return found


def score_losing_hand(
    profile: Profile, concealed: Sequence[Tile], melds: Sequence[Meld], ctx: WinContext
) -> Score:
    """Score a loser's hand for settlement: the declared melds, and the concealed tiles read as
    pungs where three or more of a kind are held and pairs where two are (the reading that scores
    most: chows score nothing, and 003 lets losers declare several scoring pairs). The profile's
    patterns and point items see ``winner`` false; ``Score.value`` is the hand's value."""
    meld_tiles = [t for m in melds for t in m.tiles]
    accepted = _accepted(profile)  # every tile of the set but the flowers: refusal() says None
    for tile in (*concealed, *meld_tiles):
        if not accepted[2 * tile.kind + tile.red]:
            why = profile.tiles.refusal(tile)
            if why is not None:
                raise HandError(why)
    counts = counts34([t for t in concealed if t.kind < N_KINDS])  # a flower is in no reading
    groups: list[Group] = [m.group for m in melds]
    for kind in range(N_KINDS):
        n = counts[kind]
        if n >= 2:
            groups.append(_LOSING_TRIPLETS[kind] if n >= 3 else _LOSING_PAIRS[kind])
    all_tiles = tuple([t for t in (*concealed, *meld_tiles) if t.kind < N_KINDS])
    totals = list(counts)
    for t in meld_tiles:
        totals[t.kind] += 1
    mask = 0
    for t in all_tiles:
        mask |= 1 << t.kind
    options = options_in_force(profile, ctx.options)
    view = HandView()
    view.shape = "standard"
    view.groups = tuple(groups)
    view.sets = tuple([g for g in groups if g.kind in _SET_KINDS])
    view.set_bits = group_bits(view.sets)
    view.group_bits = group_bits(groups)
    view.pair = None
    view.melds = tuple([m.group for m in melds])
    view.wait = "other"
    view.win_tile = all_tiles[0] if all_tiles else Tile(0)
    view.tiles = all_tiles
    view.tile_mask = mask
    view.suits = frozenset([suit for suit, kinds in _SUIT_MASKS if mask & kinds])
    view.four_of_a_kinds = totals.count(4)
    view.is_closed = all(m.type.is_concealed for m in melds)
    view.tsumo = view.ron = False
    view.last_tile = view.after_kong = view.kong_shot = view.robbing_kong = view.first_draw = (
        view.fourth_tile
    ) = False
    view.riichi = view.double_riichi = view.ippatsu = False
    view.dealer = ctx.is_dealer
    view.seat_wind = ctx.seat_wind.value
    view.round_wind = ctx.round_wind.value
    view.missing_suit = None
    view.flowers = _flower_count(profile, ctx.flowers) if ctx.flowers else 0
    view.own_bonus, view.bonus_sets = bonus_tiles(ctx.flowers, ctx.seat_wind.value)
    view.winner = view.original_call = view.kong_upon_kong = False
    view.dealer_wins = 0
    view.dora_indicators = view.ura_indicators = ()
    concealed_triplets = 0
    for g in groups:
        if g.is_triplet and g.concealed:
            concealed_triplets += 1
    view.concealed_triplets = concealed_triplets
    view._only_wait = view._only_live_wait = _NEVER
    view._options = options
    view._discard_group = None
    view._counts, view._concealed_counts = totals, counts
    hits: list[Hit] = []
    losing = _losing_plan(profile)
    if losing is None:
        for p in profile.patterns:
            if p.combine is not None:
                raise NotImplementedError(
                    f"scoring a losing hand with the combination pattern {p.id!r}"
                )
            if p.when is not None and not p.when(view):
                continue
            n = p.count(view) if p.count is not None else 1
            if n > 0:
                hits.append((p, p.value if isinstance(p.value, int) else p.value(view), n, None))
    else:
        # Every pattern's `when` in one call per list of the plan (the generated test of them
        # all), the patterns met then taken in declaration order, as the long way takes them.
        met: list[tuple[int, Pattern, Any, Any]] = []
        for conditions, entries in losing:
            if not entries:
                continue
            bits = conditions(view)
            while bits:
                low = bits & -bits
                bits ^= low
                met.append(entries[low.bit_length() - 1])
        met.sort(key=_first)
        for _, p, count, value in met:
            n = count(view) if count is not None else 1
            if n > 0:
                hits.append((p, value if isinstance(value, int) else value(view), n, None))
    kept = apply_relations(profile, hits) if len(hits) > 1 else hits
    scored = _aggregate(kept)
    total = sum(p.points for p in scored)
    capped = total if profile.cap is None else min(total, profile.cap)
    limit = any(profile.pattern_index[p.id].limit for p in scored)
    fu: int | None = None
    items: tuple[ScoredPoints, ...] = ()
    if profile.points is not None and not limit:
        view._counted = frozenset(p.id for p in scored)
        fu, items = count_points(profile.points, view)
    named: dict[str, int] = {}
    compute_payments(
        profile,
        total,
        capped,
        False,
        view.dealer,
        points=fu or 0,
        limit=limit,
        options=options,
        named=named,
    )
    value = named.get(profile.payments.hand_value) if profile.payments.hand_value else None
    return Score(True, None, scored, total, capped, fu, {}, None, limit, items, value)


def _first(entry: tuple[int, Pattern, Any, Any]) -> int:
    return entry[0]
