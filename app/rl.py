"""The table as a PettingZoo AEC environment, for reinforcement learning on any profile.

An optional extra (``pip install -e '.[rl]'`` in the checkout): this is the only module of the
package that imports ``pettingzoo``, ``gymnasium`` or ``numpy``; ``import mjspec`` and the
command line never import it. docs/rl.md shows it in use.

:class:`MahjongEnv` seats four agents, ``seat_0`` .. ``seat_3`` (the table's seats 0-3), at one
profile's table. Each agent is asked in turn (``env.agent_selection``: the first seat the table
waits for) and answers with one index of the fixed action space below; its observation is a dict
``{"observation": int32 vector, "action_mask": int8 vector}``, both built only from the seat's
:class:`~mjspec.runtime.observation.Observation` (what that seat may know: never another seat's
concealed tiles, the wall or a hidden choice of another seat), and the mask marks exactly the
seat's legal actions. Every profile has the same spaces, so one policy can be trained across
profiles.

Tile faces
----------
Tiles are indexed by *face*, 45 of them: faces 0-33 are the hand-forming kinds (1m-9m, 1p-9p,
1s-9s, then 1z-7z: East, South, West, North, White, Green, Red), faces 34-41 the flowers (1f-8f),
and faces 42, 43, 44 the red fives 0m, 0p, 0s (a red five is counted under its face, not under
its kind's, so a hand's red fives can be seen and discarded apart from its plain fives).

Actions
-------
One ``Discrete(273)`` space; each index means one decision:

=========  =================  ===============================================================
index      block              meaning
=========  =================  ===============================================================
0-44       ``discard``        discard a tile of face ``i``
45-89      ``riichi``         declare riichi, discarding a tile of face ``i - 45``
90-134     ``original_call``  declare Original Call with a first discard of face ``i - 90``
135-179    ``exchange``       add a tile of face ``i - 135`` to the seat's exchange selection
180-213    ``ankan``          declare a concealed kong of kind ``i - 180``
214-247    ``kakan``          add the fourth tile of kind ``i - 214`` to an exposed pon
248-255    ``flower``         expose the flower of kind ``34 + (i - 248)`` (1f-8f)
256-261    ``chi``            chi the discard; ``j = i - 256``: the discard is the sequence's
                              lowest (``j // 2 == 0``), middle (1) or highest (2) tile, and
                              ``j % 2 == 1``: a red five from the hand goes into the sequence
262-264    ``pon``            pon the discard with ``i - 262`` red fives from the hand, where
                              the table offers a choice of tiles (262 also when it offers one
                              pon only and chooses the tiles itself)
265        ``minkan``         claim the discard for an open kong
266        ``ron``            win on the discard (or rob the kong)
267        ``tsumo``          win on the own draw
268        ``pass``           decline every claim
269-271    ``declare``        declare the missing suit m, p, s (``i - 269``)
272        ``nine_terminals`` declare the abortive draw of nine terminals and honors
=========  =================  ===============================================================

Each of the table's :class:`~mjspec.runtime.actions.ActionKind` has one block. An exchange (the
Sichuan opening's three tiles to pass, one :class:`~mjspec.runtime.actions.Action` at the table)
is chosen as a sequence of picks, one tile a step: the mask offers the faces that extend the
seat's selection so far toward one of its legal exchanges, the pick that completes one is played
at the table, and the selection so far is part of the observation (``exchange_picked``). The
same seat stays selected until its exchange is complete. Any other legal action is one index:
the mask has exactly as many ones as the seat has legal actions. Should two legal actions fall
on one index, or an action have a shape the space does not know, :class:`UnsupportedAction` is
raised; neither happens with the bundled profiles (tests/test_rl.py plays each one's hands,
checking the mask at every decision).

Observation
-----------
A vector of 1312 ``int32`` (int32 so that points fit unscaled); seats are *relative* to the
observing seat: ``rel`` 0 is the seat itself, 1 the next seat in turn order (on its right), 2
the seat across, 3 the previous one (on its left). One-hot blocks are all zero when the value
does not apply. Offsets (``OBSERVATION_LAYOUT`` holds the same, as data):

===========  =====================  ==========================================================
offsets      field                  meaning
===========  =====================  ==========================================================
0-6          ``phase``              one-hot: exchange, declare, turn, claim, rob, step, over
7-10         ``round_wind``         one-hot: E, S, W, N
11-14        ``seat_wind``          the seat's own wind, one-hot: E, S, W, N
15-18        ``dealer``             the dealer, one-hot by ``rel``
19-22        ``turn``               the seat on turn (the discarder in a claim window), by ``rel``
23-26        ``claim_from``         in a claim or rob window: who gave the tile, by ``rel``
27-71        ``claim_tile``         in a claim or rob window: the tile, one-hot by face
72-116       ``hand``               the seat's concealed tiles, counted by face
117-161      ``drawn``              the tile the seat just drew, one-hot by face
162-206      ``exchange_picked``    the exchange selection so far (the picks above), by face
207-251      ``exchange_chosen``    the exchange the seat chose while others choose, by face
252-254      ``exchange_direction`` where exchanged tiles went, one-hot: left, across, right
255-299      ``dora_indicators``    the indicators turned over, counted by face
300-302      ``riichi_flags``       the seat's own riichi, double riichi, ippatsu
303          ``holds_missing``      the seat still holds its missing suit (it must go first)
304-306      ``suits``              the suited suits in play: m, p, s
307          ``plays_riichi``       the profile has riichi
308          ``wall_remaining``     tiles left to draw
309          ``honba``              the repeat counter
310          ``deposits``           riichi sticks on the table
311          ``dealer_wins``        the dealer's consecutive wins before this round
312-561      ``seat[0]``            the seat itself (250 values, below)
562-811      ``seat[1]``            the next seat
812-1061     ``seat[2]``            the seat across
1062-1311    ``seat[3]``            the previous seat
===========  =====================  ==========================================================

Each seat's 250 values, by offset within its block:

===========  =====================  ==========================================================
0            ``concealed_count``    how many concealed tiles it holds
1            ``riichi``             it declared riichi
2            ``original_call``      it declared Original Call
3            ``active``             it still plays (Sichuan: a winner leaves the bloody battle)
4-6          ``missing``            its missing suit once shown (the seat's own as soon as it
                                    declared), one-hot: m, p, s
7            ``points``             its points when the round began (the profile's units)
8            ``round_score``        its gains and losses in this round so far
9            ``wins``               its wins this round
10           ``dealt_in``           wins this round on its discards
11-26        ``melds``              its first four melds, four values each: type (0 none, 1 chi,
                                    2 pon, 3 minkan, 4 ankan, 5 kakan), lowest kind + 1, the
                                    claimed tile's face + 1 (0: none), the claimed tile's
                                    source (0 none, 1 left, 2 across, 3 right)
27-71        ``meld_tiles``         every tile of its melds, counted by face
72-116       ``river_counts``       every discard it made, claimed ones included, by face
117-161      ``river_left``         its discards still in its river, by face
162-201      ``river``              its first 40 discards in order: face + 1 (0: none)
202-241      ``river_flags``        the same discards: 1 claimed by another seat, + 2 its riichi
                                    declaration discard
242-249      ``flowers``            its exposed flowers 1f-8f
===========  =====================  ==========================================================

A profile whose hands can hold more melds than four is refused by the constructor; a river of
more than 40 discards keeps its first 40 in ``river`` (its counts stay whole).

Rewards and episodes
--------------------
When a hand ends each seat is rewarded its score change in that hand (``Round.scores``: every
payment of the hand, in the profile's own points), divided by ``reward_scale`` (default 1: raw
points; riichi points are in the thousands, so ``reward_scale=1000`` gives rewards of a few
units). Every other step rewards 0. An episode is one hand (``episode="hand"``, the default) or a
match (``episode="match"``, ``hands=N`` to stop after N hands; the match's placement bonuses are
not rewarded). ``reset(seed=N)`` deals the same episode again for the same ``N`` and the same
actions; ``reset()`` without a seed continues the last seeded sequence.
"""

from __future__ import annotations

import random
from array import array
from collections import Counter
from typing import Any, Literal, NamedTuple, Sequence

# The optional extra (pyproject's ``rl``): pettingzoo ships no type information (no py.typed), and
# none of the three is installed where the extra is not (CI installs ``.[test]``), so mypy may
# find each missing or untyped; the ignores say only that.
import numpy as np  # type: ignore[import-not-found, unused-ignore]
import numpy.typing as npt  # type: ignore[import-not-found, unused-ignore]
from gymnasium import spaces  # type: ignore[import-not-found, unused-ignore]
from pettingzoo import AECEnv  # type: ignore[import-not-found, import-untyped, unused-ignore]

from mjspec.app.registry import load_profile
from mjspec.runtime.actions import Action, ActionKind
from mjspec.runtime.context import Wind
from mjspec.runtime.hand import MeldType
from mjspec.runtime.match import Match
from mjspec.runtime.narrate import describe_event
from mjspec.runtime.observation import Observation, observe
from mjspec.runtime.profile import Profile
from mjspec.runtime.rules import ExchangeDirection
from mjspec.runtime.table import SEATS, Phase, Round
from mjspec.runtime.tiles import N_KINDS, Suit, Tile

__all__ = [
    "ACTION_BLOCKS",
    "Block",
    "FACES",
    "Field",
    "MahjongEnv",
    "N_ACTIONS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "UnsupportedAction",
    "action_indices",
    "action_mask",
    "describe_index",
    "encode",
    "env",
    "face",
    "legal_indices",
]


class UnsupportedAction(ValueError):
    """A legal action the fixed action space cannot index (its shape is unknown to it, or it would
    share an index with another legal action)."""


# ------------------------------------------------------------------ tile faces

FACES = 45
"""Kinds 0-33, flowers 34-41, red fives 0m 0p 0s at 42-44."""
_SUITED = (Suit.MAN, Suit.PIN, Suit.SOU)
_RED_FACE = {s: 42 + i for i, s in enumerate(_SUITED)}
_FACE_TILE: tuple[Tile, ...] = tuple(Tile(k) for k in range(42)) + tuple(
    Tile(9 * i + 4, red=True) for i in range(3)
)


def face(tile: Tile) -> int:
    """A tile's face (0-44): its kind, or 42-44 for a red five of m, p, s."""
    return _RED_FACE[tile.suit] if tile.red else tile.kind


def _face_counts(tiles: Sequence[Tile]) -> list[int]:
    out = [0] * FACES
    red = _RED_FACE
    for t in tiles:  # face(t), inline: the encoding counts some 200 tiles a decision
        out[red[t.suit] if t.red else t.kind] += 1
    return out


def _one_hot(size: int, index: int | None) -> list[int]:
    out = [0] * size
    if index is not None:
        out[index] = 1
    return out


# ------------------------------------------------------------------ the action space


class Block(NamedTuple):
    """A run of action indices for one kind of decision."""

    name: str
    kind: ActionKind
    start: int
    size: int


def _blocks(*spec: tuple[ActionKind, int]) -> tuple[Block, ...]:
    out, start = [], 0
    for kind, size in spec:
        out.append(Block(kind.value, kind, start, size))
        start += size
    return tuple(out)


K = ActionKind  # the blocks below read as a table
ACTION_BLOCKS: tuple[Block, ...] = _blocks(
    (K.DISCARD, FACES),
    (K.RIICHI, FACES),
    (K.ORIGINAL_CALL, FACES),
    (K.EXCHANGE, FACES),
    (K.ANKAN, N_KINDS),
    (K.KAKAN, N_KINDS),
    (K.FLOWER, 8),
    (K.CHI, 6),
    (K.PON, 3),
    (K.MINKAN, 1),
    (K.RON, 1),
    (K.TSUMO, 1),
    (K.PASS, 1),
    (K.DECLARE, len(_SUITED)),
    (K.NINE_TERMINALS, 1),
)
"""The action space's blocks in index order (the module docstring says what each index means)."""
_BLOCK = {b.kind: b for b in ACTION_BLOCKS}
N_ACTIONS = ACTION_BLOCKS[-1].start + ACTION_BLOCKS[-1].size
_CHI_PLACES = ("lowest", "middle", "highest")


def _index(action: Action, claim_tile: Tile | None) -> int:
    """The index of a one-step action (every kind but the exchange)."""
    block = _BLOCK[action.kind]
    kind = action.kind
    tile = action.tile
    if kind in (K.DISCARD, K.RIICHI, K.ORIGINAL_CALL) and tile is not None:
        return block.start + face(tile)
    if kind in (K.ANKAN, K.KAKAN) and tile is not None and tile.kind < N_KINDS:
        return block.start + tile.kind
    if kind is K.FLOWER and tile is not None and tile.is_flower:
        return block.start + tile.kind - N_KINDS
    if kind is K.CHI and len(action.tiles) == 2 and claim_tile is not None:
        place = sum(t.kind < claim_tile.kind for t in action.tiles)
        return block.start + 2 * place + any(t.red for t in action.tiles)
    if kind is K.PON and tile is None and len(action.tiles) in (0, 2):
        return block.start + sum(t.red for t in action.tiles)
    if kind is K.DECLARE and action.suit in _SUITED:
        return block.start + _SUITED.index(action.suit)
    if block.size == 1 and tile is None and not action.tiles and action.suit is None:
        return block.start
    raise UnsupportedAction(f"the action space has no index for {action} ({action.to_json()})")


def describe_index(index: int) -> str:
    """What an action index means, in words (``discard 5m``, ``chi (discard lowest, red five)``)."""
    if not 0 <= index < N_ACTIONS:
        raise ValueError(f"action index {index} is outside 0..{N_ACTIONS - 1}")
    block = next(b for b in ACTION_BLOCKS if b.start <= index < b.start + b.size)
    j = index - block.start
    kind = block.kind
    if kind in (K.DISCARD, K.RIICHI, K.ORIGINAL_CALL, K.EXCHANGE):
        return f"{block.name} {_FACE_TILE[j].mpsz}"
    if kind in (K.ANKAN, K.KAKAN):
        return f"{block.name} {Tile(j).mpsz}"
    if kind is K.FLOWER:
        return f"flower {Tile(N_KINDS + j).mpsz}"
    if kind is K.CHI:
        red = ", red five" if j % 2 else ""
        return f"chi (discard {_CHI_PLACES[j // 2]}{red})"
    if kind is K.PON:
        return f"pon ({j} red five{'s' if j != 1 else ''} from the hand)" if j else "pon"
    if kind is K.DECLARE:
        return f"declare {_SUITED[j].value}"
    return block.name


def legal_indices(observation: Observation, picked: Sequence[int] = ()) -> dict[int, Action | None]:
    """The seat's legal actions by index: the action an index plays at the table, or None for an
    exchange pick that does not yet complete an exchange. ``picked``: the faces of the seat's
    exchange selection so far."""
    out: dict[int, Action | None] = {}
    claim = observation.claim_tile
    exchanges = []
    for action in observation.legal:
        if action.kind is K.EXCHANGE:
            exchanges.append(action)
            continue
        i = _index(action, claim)
        if i in out:
            raise UnsupportedAction(
                f"{action} and {out[i]} would share the action index {i} ({describe_index(i)})"
            )
        out[i] = action
    if exchanges:
        sizes = {len(a.tiles) for a in exchanges}
        if len(sizes) != 1:
            raise UnsupportedAction("exchanges of different sizes cannot be picked tile by tile")
        chosen = Counter(picked)
        start = _BLOCK[K.EXCHANGE].start
        for action in exchanges:
            rest = Counter(face(t) for t in action.tiles)
            rest.subtract(chosen)
            if min(rest.values(), default=0) < 0:
                continue  # the selection so far is not part of this exchange
            left = sum(rest.values())
            for f, n in rest.items():
                if n > 0:
                    i = start + f
                    out[i] = action if left == 1 else out.get(i)
    return out


def action_indices(action: Action, observation: Observation) -> list[int]:
    """The indices that play ``action`` (one of ``observation.legal``) from an empty exchange
    selection: one index, or for an exchange one pick per tile (red fives last)."""
    if action.kind is K.EXCHANGE:
        start = _BLOCK[K.EXCHANGE].start
        return [start + f for f in sorted(face(t) for t in action.tiles)]
    return [_index(action, observation.claim_tile)]


def action_mask(observation: Observation, picked: Sequence[int] = ()) -> npt.NDArray[np.int8]:
    """The int8 mask of the seat's legal actions (:func:`legal_indices`)."""
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    for i in legal_indices(observation, picked):
        mask[i] = 1
    return mask


# ------------------------------------------------------------------ the observation vector

INT32 = (-(2**31), 2**31 - 1)


class Field(NamedTuple):
    """A run of observation values: its name, offset, size and the bounds of each value."""

    name: str
    start: int
    size: int
    low: int
    high: int


_GLOBAL: tuple[tuple[str, int, int, int], ...] = (
    ("phase", 7, 0, 1),
    ("round_wind", 4, 0, 1),
    ("seat_wind", 4, 0, 1),
    ("dealer", 4, 0, 1),
    ("turn", 4, 0, 1),
    ("claim_from", 4, 0, 1),
    ("claim_tile", FACES, 0, 1),
    ("hand", FACES, 0, 4),
    ("drawn", FACES, 0, 1),
    ("exchange_picked", FACES, 0, 4),
    ("exchange_chosen", FACES, 0, 4),
    ("exchange_direction", 3, 0, 1),
    ("dora_indicators", FACES, 0, 4),
    ("riichi_flags", 3, 0, 1),
    ("holds_missing", 1, 0, 1),
    ("suits", 3, 0, 1),
    ("plays_riichi", 1, 0, 1),
    ("wall_remaining", 1, 0, INT32[1]),
    ("honba", 1, 0, INT32[1]),
    ("deposits", 1, 0, INT32[1]),
    ("dealer_wins", 1, 0, INT32[1]),
)
MELD_SLOTS = 4
RIVER_SLOTS = 40
_PER_SEAT: tuple[tuple[str, int, int, int], ...] = (
    ("concealed_count", 1, 0, INT32[1]),
    ("riichi", 1, 0, 1),
    ("original_call", 1, 0, 1),
    ("active", 1, 0, 1),
    ("missing", 3, 0, 1),
    ("points", 1, *INT32),
    ("round_score", 1, *INT32),
    ("wins", 1, 0, INT32[1]),
    ("dealt_in", 1, 0, INT32[1]),
    ("melds", 4 * MELD_SLOTS, 0, FACES + 1),
    ("meld_tiles", FACES, 0, 4),
    ("river_counts", FACES, 0, 4),
    ("river_left", FACES, 0, 4),
    ("river", RIVER_SLOTS, 0, FACES),
    ("river_flags", RIVER_SLOTS, 0, 3),
    ("flowers", 8, 0, 1),
)
SEAT_SIZE = sum(n for _, n, _, _ in _PER_SEAT)


def _layout() -> tuple[Field, ...]:
    out, at = [], 0
    for name, size, low, high in _GLOBAL:
        out.append(Field(name, at, size, low, high))
        at += size
    for rel in range(SEATS):
        for name, size, low, high in _PER_SEAT:
            out.append(Field(f"seat[{rel}].{name}", at, size, low, high))
            at += size
    return tuple(out)


OBSERVATION_LAYOUT: tuple[Field, ...] = _layout()
"""Every field of the observation vector in order (the module docstring's tables)."""
OBSERVATION_SIZE = OBSERVATION_LAYOUT[-1].start + OBSERVATION_LAYOUT[-1].size

_PHASES = (
    Phase.EXCHANGE,
    Phase.DECLARE,
    Phase.TURN,
    Phase.CLAIM,
    Phase.ROB,
    Phase.STEP,
    Phase.OVER,
)
_WINDS = (Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH)
_DIRECTIONS = (ExchangeDirection.LEFT, ExchangeDirection.ACROSS, ExchangeDirection.RIGHT)
_C_INT32 = next(code for code in "ilq" if array(code).itemsize == 4)
"""The array typecode of a 32-bit int on this platform (``i`` wherever C's int has 32 bits)."""
_MELD_TYPES = (MeldType.CHI, MeldType.PON, MeldType.MINKAN, MeldType.ANKAN, MeldType.KAKAN)
_SOURCES = ("left", "across", "right")


def encode(observation: Observation, picked: Sequence[int] = ()) -> npt.NDArray[np.int32]:
    """The observation vector (``int32``, :data:`OBSERVATION_SIZE` values, laid out as the module
    docstring says) of a seat's :class:`Observation` and its exchange selection so far
    (``picked``, faces). Read from the observation only."""
    o = observation
    me = o.seat

    def rel(seat: int | None) -> int | None:
        return None if seat is None else (seat - me) % SEATS

    v: list[int] = []
    v += _one_hot(len(_PHASES), _PHASES.index(o.phase))
    v += _one_hot(4, _WINDS.index(o.round_wind))
    v += _one_hot(4, _WINDS.index(o.seat_wind))
    v += _one_hot(4, rel(o.dealer))
    v += _one_hot(4, rel(o.turn))
    v += _one_hot(4, rel(o.claim_from))
    v += _one_hot(FACES, face(o.claim_tile) if o.claim_tile is not None else None)
    v += _face_counts(o.hand)
    v += _one_hot(FACES, face(o.drawn) if o.drawn is not None else None)
    v += _face_counts([_FACE_TILE[f] for f in picked])
    v += _face_counts(o.exchange or ())
    direction = o.exchange_direction
    v += _one_hot(3, _DIRECTIONS.index(direction) if direction is not None else None)
    v += _face_counts(o.dora_indicators)
    v += [int(f) for f in o.riichi_flags]
    v.append(int(o.holds_missing))
    v += [int(s in o.suits) for s in _SUITED]
    v.append(int(o.plays_riichi))
    v += [o.wall_remaining, o.honba, o.deposits, o.dealer_wins]
    # Each per-seat field read once (a field is a property; discards are derived on each read).
    concealed, riichi, original_call = o.concealed_counts, o.riichi, o.original_call
    active, missings, points, scores, wins = o.active, o.missing, o.points, o.scores, o.wins
    all_melds, rivers, discards, all_called = o.melds, o.rivers, o.discards, o.called
    all_sideways, flowers = o.sideways, o.flowers
    for r in range(SEATS):
        s = (me + r) % SEATS
        v += [concealed[s], int(riichi[s]), int(original_call[s]), int(active[s])]
        missing = missings[s]
        v += _one_hot(3, _SUITED.index(missing) if missing is not None else None)
        v += [points[s], scores[s]]
        v.append(sum(1 for w in wins if w.seat == s))
        v.append(sum(1 for w in wins if w.discarder == s))
        melds = all_melds[s]
        slots = [0] * (4 * MELD_SLOTS)
        for m_at, meld in enumerate(melds[:MELD_SLOTS]):
            slots[4 * m_at] = _MELD_TYPES.index(meld.type) + 1
            slots[4 * m_at + 1] = min(t.kind for t in meld.tiles) + 1
            slots[4 * m_at + 2] = face(meld.claimed) + 1 if meld.claimed is not None else 0
            slots[4 * m_at + 3] = _SOURCES.index(meld.source) + 1 if meld.source else 0
        v += slots
        v += _face_counts([t for meld in melds for t in meld.tiles])
        river = rivers[s]
        v += _face_counts(river)
        v += _face_counts(discards[s])
        called = set(all_called[s])
        sideways = all_sideways[s]
        order = [0] * RIVER_SLOTS
        flags = [0] * RIVER_SLOTS
        for i, t in enumerate(river[:RIVER_SLOTS]):
            order[i] = face(t) + 1
            flags[i] = (i in called) + 2 * (i == sideways)
        v += order
        v += flags
        shown = [0] * 8
        for t in flowers[s]:
            shown[t.kind - N_KINDS] = 1
        v += shown
    assert len(v) == OBSERVATION_SIZE
    # Through a C int buffer: numpy converts a list of ints one Python object at a time.
    return np.frombuffer(array(_C_INT32, v), dtype=np.int32)


# ------------------------------------------------------------------ the environment

Episode = Literal["hand", "match"]


class MahjongEnv(AECEnv):  # type: ignore[misc, unused-ignore]  # AECEnv is untyped (above)
    """One profile's table as a PettingZoo AEC environment (the module docstring: spaces,
    rewards, episodes).

    ``profile``: a profile id or a :class:`Profile`; ``episode``: ``"hand"`` or ``"match"``;
    ``hands``: in a match episode, stop after this many hands (None: the profile's whole match);
    ``reward_scale``: points per reward unit; ``render_mode``: None, ``"human"`` (print the
    hand's readable log as it grows) or ``"ansi"`` (``render()`` returns it).
    """

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi"],
        "name": "mjspec_v0",
        "is_parallelizable": False,
    }

    possible_agents: list[str]
    agents: list[str]
    agent_selection: str
    rewards: dict[str, float]
    _cumulative_rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]

    def __init__(
        self,
        profile: str | Profile,
        *,
        episode: Episode = "hand",
        hands: int | None = None,
        reward_scale: float = 1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.profile = load_profile(profile) if isinstance(profile, str) else profile
        if episode not in ("hand", "match"):
            raise ValueError(f"episode must be 'hand' or 'match', not {episode!r}")
        if hands is not None and episode != "match":
            raise ValueError("hands counts the hands of a match episode (episode='match')")
        if hands is not None and hands < 1:
            raise ValueError(f"hands must be at least 1, not {hands}")
        if not reward_scale > 0:
            raise ValueError(f"reward_scale must be positive, not {reward_scale}")
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        most = max(self.profile.deal.dealer, self.profile.deal.others) // 3
        if most > MELD_SLOTS:
            raise ValueError(
                f"{self.profile.id}: a hand may hold {most} melds, the observation has room for "
                f"{MELD_SLOTS}"
            )
        self.episode = episode
        self.hands = hands
        self.reward_scale = reward_scale
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{s}" for s in range(SEATS)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        low = np.array([f.low for f in OBSERVATION_LAYOUT for _ in range(f.size)], dtype=np.int32)
        high = np.array([f.high for f in OBSERVATION_LAYOUT for _ in range(f.size)], dtype=np.int32)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.int32),
                    "action_mask": spaces.Box(0, 1, (N_ACTIONS,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self._seeds = random.Random()
        self._match: Match | None = None
        self._hand: Round | None = None
        self._picked: list[list[int]] = [[] for _ in range(SEATS)]
        self._views: dict[int, tuple[tuple[int, int, tuple[int, ...]], Observation]] = {}
        self._logged = 0
        self._log: list[str] = []

    # -------------------------------------------------------------- the PettingZoo API

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self._match = Match(
            self.profile,
            self._seeds.getrandbits(63),
            self.hands if self.episode == "match" else 1,
        )
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._log = []
        self._deal()
        self._advance()

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        seat = self._seat[agent]
        obs = self.observation_of(agent)
        picked = self._picked[seat]
        return {"observation": encode(obs, picked), "action_mask": action_mask(obs, picked)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        obs = self.observation_of(agent)
        legal = legal_indices(obs, self._picked[seat])
        try:
            index = int(action)
        except (TypeError, ValueError):
            raise ValueError(
                f"{agent}: an action is an index 0-{N_ACTIONS - 1}, not {action!r}"
            ) from None
        if index not in legal:
            offered = ", ".join(f"{i} ({describe_index(i)})" for i in sorted(legal))
            raise ValueError(
                f"{agent}: action {index} is not legal now (legal: {offered or 'none'})"
            )
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        chosen = legal[index]
        if chosen is None:  # an exchange pick that completes no exchange yet
            self._picked[seat].append(index - _BLOCK[K.EXCHANGE].start)
        else:
            self._picked[seat] = []
            assert self._hand is not None
            self._hand.apply(chosen)
            self._advance()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The hand's readable log since the last render (``"human"``: printed)."""
        if self._hand is None:
            return None
        self._collect()
        text = "\n".join(self._log)
        self._log = []
        if self.render_mode == "human":
            if text:
                print(text)
            return None
        return text

    def close(self) -> None:
        self._views.clear()

    def _collect(self) -> None:
        """Add the readable lines of the hand's events since the last collection to the log."""
        hand = self.hand
        for event in hand.events[self._logged :]:
            line = describe_event(event)
            if line is not None:
                self._log.append(line)
        self._logged = len(hand.events)

    # -------------------------------------------------------------- beyond the API

    @property
    def hand(self) -> Round:
        """The hand being played (the whole table: for logs and records, not for an agent)."""
        if self._hand is None:
            raise RuntimeError("call reset() first")
        return self._hand

    def observation_of(self, agent: str) -> Observation:
        """The seat's typed :class:`Observation` now (what :meth:`observe` encodes)."""
        seat = self._seat[agent]
        hand = self.hand
        key = (id(hand), len(hand.events), tuple(self._picked[seat]))
        seen = self._views.get(seat)
        if seen is not None and seen[0] == key:
            return seen[1]
        obs = observe(hand, seat)
        self._views[seat] = (key, obs)
        return obs

    def exchange_selection(self, agent: str) -> tuple[int, ...]:
        """The faces the agent picked so far toward its exchange (empty: none)."""
        return tuple(self._picked[self._seat[agent]])

    def legal(self, agent: str) -> dict[int, Action | None]:
        """The agent's legal indices now and the action each plays (:func:`legal_indices`)."""
        return legal_indices(self.observation_of(agent), self._picked[self._seat[agent]])

    # -------------------------------------------------------------- the table

    def _deal(self) -> None:
        assert self._match is not None
        self._hand = self._match.new_hand()
        self._picked = [[] for _ in range(SEATS)]
        self._views.clear()
        self._logged = 0

    def _advance(self) -> None:
        """Play the table's own steps, reward a finished hand, deal the next one of a match
        episode, and select the first seat the table waits for (or end the episode)."""
        assert self._match is not None
        while True:
            hand = self.hand
            while hand.pending_step is not None:
                hand.step()
            if hand.over:
                for s, agent in enumerate(self.possible_agents):
                    self.rewards[agent] += hand.scores[s] / self.reward_scale
                if self.episode == "hand" or self._match.over:
                    self.terminations = {a: True for a in self.agents}
                    return
                self._collect()  # the finished hand's log lines, before the next deal
                self._deal()
                continue
            pending = hand.pending_seats()
            if not pending:
                raise RuntimeError(f"the table waits for nobody in phase {hand.phase.value}")
            self.agent_selection = self.possible_agents[pending[0]]
            return


def env(profile: str | Profile, **options: Any) -> MahjongEnv:
    """A :class:`MahjongEnv` (PettingZoo's usual constructor name); ``options`` as its
    constructor's."""
    return MahjongEnv(profile, **options)
