"""Turn a scoring request of contracts/scoring.md into a hand and a context, with clear errors."""

from __future__ import annotations

from typing import Any, Mapping

from .context import ContextError, WinContext, WinKind
from .hand import Meld, MeldError, MeldType
from .profile import Profile
from .scoring import WinningHand
from .tiles import NotationError, Tile, parse_tiles

REQUEST_KEYS = ("profile", "concealed", "melds", "win_tile", "win", "context")


class RequestError(ValueError):
    """A request that is not well formed."""


def parse_request(profile: Profile, raw: Mapping[str, Any]) -> tuple[WinningHand, WinContext]:
    """Read ``raw`` (one request object) against ``profile``'s tile set."""
    for key in raw:
        if key not in REQUEST_KEYS:
            raise RequestError(f"unknown request field {key!r} (fields: {', '.join(REQUEST_KEYS)})")
    tiles = profile.tiles
    try:
        concealed = tuple(parse_tiles(_str(raw, "concealed"), tiles))
    except NotationError as e:
        raise RequestError(f"concealed: {e}") from None
    try:
        win_tiles = parse_tiles(_str(raw, "win_tile"), tiles)
    except NotationError as e:
        raise RequestError(f"win_tile: {e}") from None
    if len(win_tiles) != 1:
        raise RequestError(f"win_tile must be exactly one tile, got {len(win_tiles)}")
    win_raw = raw.get("win")
    if win_raw not in ("tsumo", "ron"):
        raise RequestError(f"win must be 'tsumo' or 'ron', got {win_raw!r}")
    melds = tuple(_meld(profile, m, i) for i, m in enumerate(_list(raw, "melds")))
    ctx_raw = raw.get("context", {})
    if not isinstance(ctx_raw, dict):
        raise RequestError("context must be an object")
    try:
        ctx = WinContext.from_mapping(ctx_raw)
    except ContextError as e:
        raise RequestError(str(e)) from None
    if ctx.losing_hand and profile.table.settlement is None:
        raise RequestError(
            f"context.losing_hand: {profile.id} scores no losing hands (only a profile whose "
            "hands are all "
            "scored at settlement does)"
        )
    return WinningHand(concealed, melds, win_tiles[0], WinKind(win_raw)), ctx


def _str(raw: Mapping[str, Any], key: str) -> str:
    value = raw.get(key, "")
    if not isinstance(value, str):
        raise RequestError(f"{key} must be mpsz text, got {value!r}")
    return value


def _list(raw: Mapping[str, Any], key: str) -> list[Any]:
    value = raw.get(key, [])
    if not isinstance(value, list):
        raise RequestError(f"{key} must be a list")
    return value


def _meld(profile: Profile, raw: Any, i: int) -> Meld:
    if not isinstance(raw, dict):
        raise RequestError(f"melds[{i}] must be an object with type and tiles")
    for key in raw:
        if key not in ("type", "tiles", "from", "claimed"):
            raise RequestError(
                f"melds[{i}]: unknown field {key!r} (fields: type, tiles, from, claimed)"
            )
    try:
        mtype = MeldType(str(raw.get("type")))
    except ValueError:
        raise RequestError(
            f"melds[{i}].type must be one of {', '.join(m.value for m in MeldType)}, got "
            f"{raw.get('type')!r}"
        ) from None
    try:
        tiles = tuple(parse_tiles(_str(raw, "tiles"), profile.tiles))
        claimed: Tile | None = None
        if raw.get("claimed") is not None:
            c = parse_tiles(_str(raw, "claimed"), profile.tiles)
            if len(c) != 1:
                raise RequestError(f"melds[{i}].claimed must be one tile")
            claimed = c[0]
    except NotationError as e:
        raise RequestError(f"melds[{i}].tiles: {e}") from None
    source = raw.get("from")
    if source not in (None, "left", "across", "right"):
        raise RequestError(f"melds[{i}].from must be left, across or right, got {source!r}")
    try:
        return Meld(mtype, tiles, claimed, source)
    except MeldError as e:
        raise RequestError(f"melds[{i}]: {e}") from None
