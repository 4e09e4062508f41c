"""One readable line per table event, for logs."""

from __future__ import annotations

from .actions import Event

SEAT_NAMES = ("East seat 0", "seat 1", "seat 2", "seat 3")


def _deltas(e: Event) -> str:
    if not any(e.deltas):
        return ""
    return "  [" + ", ".join(f"{d:+d}" for d in e.deltas) + "]"


def describe_event(e: Event) -> str | None:
    """A line for ``e``, or None for events a reader does not need (hidden choices, plain draws)."""
    d = e.data
    s = f"seat {e.seat}" if e.seat is not None else ""
    k = e.kind
    if k == "deal":
        return f"deal: dealer seat {d['dealer']}, dice {d['dice']}"
    if k == "exchange":
        return f"tiles exchanged, direction {d['direction']}"
    if k == "declare":
        return "missing suits: " + ", ".join(f"seat {i} {m}" for i, m in enumerate(d["missing"]))
    if k in ("draw", "exchange_chosen", "declare_chosen", "respond"):
        return None
    if k == "discard":
        riichi = " (riichi)" if d.get("riichi") else ""
        automatic = " (automatically)" if d.get("automatic") else ""
        return f"{s} discards {d['tile']}{riichi}{automatic}"
    if k in ("pon", "minkan"):
        return f"{s} calls {k} on {d['tile']} from seat {d['from']}"
    if k == "chi":
        return f"{s} calls chi {d['tiles']} on {d['tile']} from seat {d['from']}"
    if k == "flower":
        return f"{s} exposes flower {d['tile']}"
    if k in ("ankan", "kakan"):
        return f"{s} declares {k} of {d['tile']}"
    if k == "kakan_declared":
        return f"{s} adds {d['tile']} to a pon"
    if k == "win":
        how = (
            ("robs the kong of" if d.get("robbing") else "wins on the discard of")
            + f" seat {d['from']}"
            if d.get("ron")
            else "wins by self-draw"
        )
        return f"{s} {how} with {d['tile']}: {', '.join(d['patterns'])} = {d['total']} fan"
    if k == "exhaustion" and "ready" not in d:
        return "wall exhausted: no settlement"
    if k == "exhaustion" and "nagashi" in d:
        return f"wall exhausted: ready {d['ready']}, not ready {d['not_ready']}" + (
            f", nagashi mangan {d['nagashi']}" if d["nagashi"] else ""
        )
    if k == "exhaustion":
        return (
            f"wall exhausted: ready {d['ready']}, not ready {d['not_ready']}, missing suit "
            f"still held {d['missing_suit_held']}"
        )
    if k == "riichi":
        return f"{s} declares {'double ' if d.get('double') else ''}riichi"
    if k == "deposit":
        return f"{s} puts a riichi deposit of {d['amount']} on the table{_deltas(e)}"
    if k == "deposits":
        return f"{s} takes {d['sticks']} riichi deposit(s): {d['amount']}{_deltas(e)}"
    if k == "indicator":
        return f"new bonus indicator {d['tile']}"
    if k == "abortive_draw":
        return f"abortive draw ({d['reason'].replace('_', ' ')}){' declared by ' + s if s else ''}"
    if k == "hand_end":
        return f"hand over: scores {d['scores']}, winners {d['winners']}"
    if "amount" in d:
        return (
            f"  {k.replace('_', ' ')}: seat {d['from']} pays seat {e.seat} "
            f"{d['amount']}{_deltas(e)}"
        )
    return f"{k} {s}{_deltas(e)}"
