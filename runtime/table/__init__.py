"""The table engine: one round of mahjong as a small machine over one module per mechanism.

:class:`Round` (:mod:`.machine`) is the state machine: ``legal_actions``, ``verify`` / ``can`` /
``apply``, and the automation loop (:class:`Automation`: which non-player steps the engine
performs itself), over the shared table state (:mod:`.state`). The mechanisms it composes each
live in their own module, own their state, are built only when their rules block is present, and
import none of each other (only :mod:`.common`, the shared vocabulary): :mod:`.wall` (dice, the
break, dead wall, loose tiles), :mod:`.opening` (exchange, missing suit, bonus tiles at the deal,
Original Call), :mod:`.claims` (priority, the ron limit, kuikae, passing), :mod:`.kongs` (robbing,
kong payments),
:mod:`.wins` (the win's situation and score, the round's wins), :mod:`.riichi` (deposits,
ippatsu), :mod:`.furiten`, :mod:`.abortive`, :mod:`.settlement` (the one reading of the payment
roles, pao, scored settlement and the cannon),
:mod:`.exhaustion` (and nagashi), :mod:`.turn` (what the player on turn may declare and
discard: kongs from hand, bonus tiles, the missing suit first, kuikae), :mod:`.results` (the
round's end, the next dealer), :mod:`.clocks` and :mod:`.snapshot`.
"""

from .common import (
    ALL_AUTOMATIONS,
    SEATS,
    WINDS,
    Automation,
    Phase,
    Seat,
    Step,
    StepKind,
    Transfer,
    WinRecord,
    next_seat,
    seat_wind,
)
from .machine import Round
from .settlement import PaymentRole, payers
from .wall import _break_wall, closed_wall, open_wall

__all__ = [
    "ALL_AUTOMATIONS",
    "SEATS",
    "WINDS",
    "Automation",
    "PaymentRole",
    "Phase",
    "Round",
    "Seat",
    "Step",
    "StepKind",
    "Transfer",
    "WinRecord",
    "_break_wall",
    "closed_wall",
    "next_seat",
    "open_wall",
    "payers",
    "seat_wind",
]
