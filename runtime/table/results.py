"""The round's outcome: the ``hand_end`` event that closes it, and who deals the next round (000
§11 style rules: the first winner; the discarder after several rons on the first winning
discard; else the same dealer). Always present; it holds no state: it reads the table and the
round's wins."""

from __future__ import annotations

from typing import Sequence

from ..actions import Event, EventKind
from .common import Seat, Table, WinRecord


def hand_end(table: Table, wins: Sequence[WinRecord], *, exhausted: bool) -> Event:
    """The event that ends the round: the points it moved, who won, whether the wall ran out."""
    return Event(
        EventKind.HAND_END,
        None,
        {
            "scores": list(table.scores),
            "winners": [w.seat for w in wins],
            "exhausted": exhausted,
        },
    )


def next_dealer(dealer: Seat, wins: Sequence[WinRecord]) -> Seat:
    """Who deals next: the first winner; the discarder after a multi-ron first win; else
    ``dealer``."""
    first = [w for w in wins if w.order == 0]
    if not first:
        return dealer
    if len(first) > 1 and first[0].discarder is not None:
        return first[0].discarder
    return first[0].seat
