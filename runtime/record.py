"""Game records (JSON) and replay.

A record holds the profile id and spec version, the match seed, and for each
hand its seed, its explicit wall and dice, every decision and every event with
its score changes, then the match result. ``replay`` re-runs every decision on
a fresh table built from the recorded wall and checks each event; a tampered
or illegal record stops with a message naming the hand, the step and the rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .actions import Action, Event, IllegalAction
from .match import Match, MatchStart
from .options import OptionError, bind_options
from .profile import Profile
from .record_check import (
    FORMAT,
    RecordError,
    ReplayError,
    check_rederived,
    check_seal,
    seal,
    validate_record,
)
from .rules import ExchangeDirection
from .table import Round
from .tiles import NotationError, format_tiles, parse_tiles

__all__ = ["FORMAT", "RecordError", "ReplayError", "ReplaySummary", "match_record", "replay"]


def hand_record(hand: Round, index: int) -> dict[str, Any]:
    return {
        "index": index,
        "dealer": hand.dealer,
        "seed": hand.seed,
        "wall": format_tiles(hand.initial_wall),
        "dice": list(hand.dice),
        "exchange_direction": hand.exchange_direction.value if hand.exchange_direction else None,
        "round_wind": hand.round_wind.value,
        "honba": hand.honba,
        "deposits": hand.deposits_at_start,
        "points": list(hand.points),
        "decisions": [_decision(a, t) for a, t in zip(hand.decisions, hand.timing)],
        "events": [e.to_json() for e in hand.events],
        "scores": list(hand.scores),
    }


def _decision(action: Action, timing: tuple[float, bool] | None) -> dict[str, Any]:
    """A decision as JSON; a timed one carries its ``seconds`` and, when it came too late and the
    seat's timeout default was played instead, ``"late": true`` (the action recorded is the one
    applied).
    """
    out = action.to_json()
    if timing is not None:
        out["seconds"] = timing[0]
        if timing[1]:
            out["late"] = True
    return out


def match_record(match: Match, key: bytes | None = None) -> dict[str, Any]:
    """The JSON record of a finished (or partly played) match, sealed with its digest (and, with
    ``key``, signed: runtime/record_check.py)."""
    profile = match.profile
    record: dict[str, Any] = {
        "format": FORMAT,
        "profile": profile.id,
        "profile_version": profile.version,
        "seed": match.seed,
        # How the walls and dice were made, stated from the start: each follows from the seed.
        "chance": "seeded",
        # The game options in force (every declared option, by name); replay binds the same values.
        "options": profile.option_values.to_json(),
        "hands_total": match.hands_total,
        "clock": match.clock,
        # A match whose length differs from the profile's, or that changes any game option from its
        # default, is a custom-room game, not the strict preset (002 §6: the 16-hand match).
        "strict_preset": (
            match.hands_total is None
            if profile.table.match.rounds
            else match.hands_total == profile.table.match.hands
        )
        and not profile.option_values.changed(profile.options),
        "hands": [hand_record(h, i) for i, h in enumerate(match.hands)],
        "totals": list(match.totals),
        "placements": match.placements(),
        # An excerpt that stops before its match ends has standings, not a match result.
        "result": match.result() if match.excerpt is None or match.finished else None,
    }
    if match.excerpt is not None:
        # Only an excerpt carries the field, so a whole match's record reads as it always has.
        record["excerpt"] = {**match.excerpt.to_json(), "finished": match.finished}
    return seal(record, key)


@dataclass(frozen=True)
class ReplaySummary:
    profile: str
    hands: int
    decisions: int
    events: int
    totals: tuple[int, ...]
    seal: str = "unsigned"
    """``signed`` (the signature checked with the key), ``signed, not checked ...`` or
    ``unsigned``."""
    excerpt: bool = False
    """The record is an excerpt of a match (it starts mid-match or stops before the match ends)."""


#: Called as each hand is replayed: the hand's index, its table, the decision just applied (None
#: for the deal) and the events that step produced. An exporter reads the played tiles this way.
Observer = Callable[[int, Round, Action | None, list[Event]], None]


def replay(
    record: Mapping[str, Any],
    key: bytes | None = None,
    *,
    profiles: Callable[[str], Profile],
    observe: Observer | None = None,
) -> ReplaySummary:
    """Re-execute ``record`` and check it event by event; raise :class:`ReplayError` at the first
    difference.

    ``profiles`` finds the compiled profile a record names (the application layer's
    ``mjspec.app.registry.load_profile``; ``mjspec.app.records.replay`` passes it): the runtime
    knows no engine by name. It raises LookupError for an unknown id.

    A malformed record raises :class:`RecordError` (a ReplayError) before anything is replayed;
    after the replay every recorded field is compared with the replayed match's record, then the
    digest (and, with ``key``, the signature) is checked.

    ``observe`` (optional) sees every step of the replay as it happens (:data:`Observer`); what it
    saw is only trustworthy once ``replay`` has returned without raising.
    """
    validate_record(record)
    try:
        profile = profiles(record["profile"])
    except (KeyError, LookupError) as e:
        raise RecordError(f"profile: the record names no known profile: {e}") from None
    options = record.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError("options: record options must be an object of option names to values")
    try:
        profile = bind_options(profile, options)
    except OptionError as e:
        raise RecordError(f"options: {e}") from None
    if record.get("profile_version") != profile.version:
        raise ReplayError(
            f"record was made with {profile.id} version {record.get('profile_version')}, this "
            f"engine is version {profile.version}"
        )
    explicit = record["chance"] == "explicit"
    excerpt = _excerpt(record)
    try:
        match = Match(
            profile,
            0 if explicit else record["seed"],
            record.get("hands_total"),
            clock=record.get("clock"),
        )
    except ValueError as e:
        raise RecordError(f"clock: {e}") from None
    if excerpt is not None:
        try:
            match = Match(
                profile,
                match.seed,
                record.get("hands_total"),
                clock=record.get("clock"),
                excerpt=excerpt,
            )
        except ValueError as e:
            raise RecordError(f"excerpt: {e}") from None
    n_decisions = n_events = 0
    for i, raw in enumerate(record.get("hands", [])):
        hand = _rebuild_hand(profile, match, raw, i, explicit=explicit)
        match.hands.append(hand)
        try:
            events = [Event.from_json(e) for e in raw.get("events", [])]
        except ValueError as e:
            raise ReplayError(f"hand {i}: {e}") from None
        pos = _check_events(events, hand.events, 0, i, "the deal")
        if observe is not None:
            observe(i, hand, None, list(hand.events))
        for step, a in enumerate(raw.get("decisions", [])):
            try:
                action = Action.from_json(a)
            except ValueError as e:
                raise ReplayError(f"hand {i}, decision {step}: {e}") from None
            try:
                timing = _check_clock(hand, a, action, i, step)
                new = hand.apply(action)
                hand.timing[-1] = timing
            except IllegalAction as e:
                raise ReplayError(
                    f"hand {i}, decision {step} ({action}): illegal: {e.message} [rule: {e.rule}]"
                ) from None
            pos = _check_events(events, new, pos, i, f"decision {step} ({action})")
            if observe is not None:
                observe(i, hand, action, new)
        if pos != len(events):
            raise ReplayError(
                f"hand {i}: the record has {len(events) - pos} event(s) the replay never "
                f"produced, from {events[pos].kind.value!r}"
            )
        if list(hand.scores) != list(raw.get("scores", [])):
            raise ReplayError(
                f"hand {i}: recorded scores {raw.get('scores')} but the replay gives {hand.scores}"
            )
        n_decisions += len(hand.decisions)
        n_events += len(hand.events)
    match.finish()
    if not match.finished and excerpt is None:
        raise ReplayError(
            f"the record ends after {len(match.hands)} hand(s) but the match is not over by "
            "its rules"
        )
    if list(match.totals) != list(record.get("totals", [])):
        raise ReplayError(
            f"recorded totals {record.get('totals')} but the replay gives {match.totals}"
        )
    check_rederived(record, match_record(match))
    sealed = check_seal(record, key)
    return ReplaySummary(
        profile.id,
        len(match.hands),
        n_decisions,
        n_events,
        tuple(match.totals),
        sealed,
        excerpt is not None,
    )


def _excerpt(record: Mapping[str, Any]) -> MatchStart | None:
    """The start of an excerpt record (None: a whole match). The schema has checked its fields'
    types; an excerpt must hold at least one hand, and only an imported game (explicit chance) is
    one."""
    raw = record.get("excerpt")
    if raw is None:
        return None
    if record["chance"] != "explicit":
        raise RecordError(
            "excerpt: only a record whose chance is 'explicit' (an imported game) can be an "
            "excerpt of a match"
        )
    if not record["hands"]:
        raise RecordError("excerpt: an excerpt holds at least one hand")
    return MatchStart.from_json(raw)


def _rebuild_hand(
    profile: Profile, match: Match, raw: Mapping[str, Any], i: int, *, explicit: bool = False
) -> Round:
    """The recorded hand's table. ``explicit``: the walls and dice are the record's own (an imported
    game), not drawn from the match seed, so they are taken as given."""
    match.finish()  # the previous hand's scores and the dealer rule
    if match.finished:
        raise ReplayError(f"hand {i}: the match was already over by its rules")
    if raw.get("dealer") != match.dealer:
        raise ReplayError(
            f"hand {i}: recorded dealer {raw.get('dealer')} but the dealer rule gives seat "
            f"{match.dealer}"
        )
    for key, expected in (
        ("round_wind", match.round_wind.value),
        ("honba", match.honba),
        ("deposits", match.deposits),
    ):
        if key in raw and raw[key] != expected:
            raise ReplayError(
                f"hand {i}: recorded {key} {raw[key]!r} but the match rules give {expected!r}"
            )
    seed = 0 if explicit else match.rng.getrandbits(63)
    if not explicit and raw.get("seed") != seed:
        raise ReplayError(
            f"hand {i}: recorded hand seed {raw.get('seed')} does not follow from the match seed"
        )
    try:
        wall = parse_tiles(raw["wall"], profile.tiles)
        direction = (
            ExchangeDirection(raw["exchange_direction"]) if raw.get("exchange_direction") else None
        )
        dice = tuple(raw["dice"])
        if len(dice) not in (2, 4) or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
            raise ValueError(f"dice must be two or four numbers 1-6, got {raw['dice']!r}")
        hand = match.make_hand(seed, wall=wall, dice=dice, exchange_direction=direction)
    except (KeyError, ValueError, NotationError) as e:
        raise ReplayError(f"hand {i}: {e}") from None
    if explicit:
        return hand
    fresh = match.make_hand(seed)
    if (
        fresh.initial_wall != hand.initial_wall
        or fresh.dice != hand.dice
        or fresh.exchange_direction != hand.exchange_direction
    ):
        raise ReplayError(
            f"hand {i}: the recorded wall, dice or exchange direction do not follow from the seed"
        )
    return hand


def _check_clock(
    hand: Round, raw: Mapping[str, Any], action: Action, i: int, step: int
) -> tuple[float, bool] | None:
    """Re-check a timed decision against the hand's clock: the recorded seconds must leave it in
    time, or, when it is marked late, make it late and the action be the seat's timeout default
    (001, 004)."""
    from .clock import charge

    if hand.clock is None:
        if "seconds" in raw:
            raise ReplayError(f"hand {i}, decision {step}: timed, but the record names no clock")
        return None
    seconds = raw.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds < 0:
        raise ReplayError(
            f"hand {i}, decision {step}: a decision on a clock needs its seconds (a number >= "
            f"0), got {seconds!r}"
        )
    late = charge(hand, hand.clock, action.seat, float(seconds))
    if late != bool(raw.get("late", False)):
        state = "late" if late else "in time"
        raise ReplayError(
            f"hand {i}, decision {step}: {seconds} s is {state} by the clock, but the record "
            "says otherwise"
        )
    if late and action != hand.timeout_action(action.seat):
        raise ReplayError(
            f"hand {i}, decision {step}: a late decision must be the seat's timeout default"
        )
    return (float(seconds), late)


def _check_events(
    recorded: list[Event], produced: list[Event], pos: int, hand: int, where: str
) -> int:
    for ev in produced:
        if pos >= len(recorded):
            raise ReplayError(
                f"hand {hand}, {where}: the replay produced {ev.kind.value!r} but the record "
                "has no more events"
            )
        if recorded[pos].to_json() != ev.to_json():
            raise ReplayError(
                f"hand {hand}, {where}: event {pos} differs: recorded "
                f"{recorded[pos].to_json()}, replayed {ev.to_json()}"
            )
        pos += 1
    return pos
