"""Each kind of event declares its payload (runtime/actions.py ``PAYLOADS``); the checker that
holds the table to it (tests/conftest.py checks every event of every round a test plays)."""

from __future__ import annotations

from mjspec.runtime.actions import PAYLOADS, Event, EventKind, payload_errors


def test_every_kind_of_event_declares_its_payload() -> None:
    assert set(PAYLOADS) == set(EventKind)


def test_a_conforming_event_has_no_errors() -> None:
    ev = Event(EventKind.WIN_PAYMENT, 1, {"from": 2, "amount": 8000, "liability": "daisangen"})
    assert payload_errors(ev) == []
    assert payload_errors(Event(EventKind.CANNON, 2, {"winner": 1, "tile": None})) == []


def test_a_missing_unknown_or_mistyped_field_is_named() -> None:
    assert payload_errors(Event(EventKind.PON, 1, {"tile": "5p"})) == ["pon event: from is missing"]
    assert payload_errors(Event(EventKind.RIICHI, 0, {"double": False, "extra": 1})) == [
        "riichi event: unknown field 'extra' (known: double)"
    ]
    # A flag is not a count and a count is not a flag, though Python's bool is an int.
    assert payload_errors(Event(EventKind.DRAW, 0, {"replacement": 0, "left": True})) == [
        "draw event: replacement: 0 is not bool",
        "draw event: left: True is not int",
    ]
    assert payload_errors(
        Event(EventKind.HAND_END, None, {"scores": [1, "2"], "winners": [], "exhausted": False})
    ) == ["hand_end event: scores: [1, '2'] is not a list of int"]
    assert payload_errors(Event(EventKind.CHI, 1, {"tile": None, "tiles": "123m", "from": 0})) == [
        "chi event: tile: None is not str"
    ]
