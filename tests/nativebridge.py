"""A test-only native profile whose expressions are the Python engine's own predicates.

The native core (runtime/native/score.c) reads a profile as C tables of function pointers.
To test the core apart from the compiler's lowering, this module writes, for one Python
:class:`Profile`, a small C extension holding the same tables (patterns, groups, excludes,
requirements, minimum, point items, payments) whose every function is a trampoline: it turns the
core's ``mj_view`` (or ``mj_pay``) back into a Python ``HandView`` (``PaymentView``) and calls
the generated Python predicate. When the core's answers equal the Python engine's on such a
profile, the core's arrangements, its view of each reading (rebuilt here field by field), the
relations, points, payments and preference are right, whatever the lowering does.

Nothing here ships: the extension is compiled into a temporary folder by the tests.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sysconfig
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from mjspec.runtime.hand import Group, GroupKind, MeldType, group_bits
from mjspec.runtime.native_enums import (
    COMBINE_CODES,
    GROUP_KIND_CODES,
    MELD_CODES,
    PICK_CODES,
    PREFER_CODES,
    SHAPE_CODES,
    SUIT_CODES,
    WAIT_CODES,
    WIND_CODES,
)
from mjspec.runtime.profile import Profile
from mjspec.runtime.tiles import Tile
from mjspec.runtime.view import HandView, Lazy, PaymentView

ROOT = Path(__file__).resolve().parent.parent
# The core's numbering (runtime/native_enums.py, written into mjenums.h), code to value.
_KINDS = [GroupKind(k) for k in GROUP_KIND_CODES.values]
_MELDS = {i: MeldType(m) for i, m in enumerate(MELD_CODES.values)}
_WINDS = "".join(WIND_CODES.values)
_SUITS = "".join(SUIT_CODES.values)
_SHAPES = list(SHAPE_CODES.values)
_WAITS = list(WAIT_CODES.values)
_COMBINE = COMBINE_CODES.codes
_PREFER = PREFER_CODES.codes

_C_HEAD = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include "mjscore.h"

static PyObject *HAND_DISPATCH, *PAY_DISPATCH;
static mj_view LAST;
static PyObject *LAST_RAW;

static PyObject *group_tuple(const mj_group *g) {
    return Py_BuildValue("(iiii)", g->kind, g->tile, g->concealed, g->meld);
}

static int index_of(const mj_view *v, const mj_group *g) {
    for (int i = 0; i < v->n_groups; i++)
        if (v->groups[i] == g) return i;
    return -2;
}

static PyObject *tiles_bytes(const mj_tile *t, int n) {
    char buf[64];
    for (int i = 0; i < n; i++) buf[i] = (char)(t[i].kind * 2 + t[i].red);
    return PyBytes_FromStringAndSize(buf, n);
}

static PyObject *raw_view(mj_view *v) {
    if (LAST_RAW && memcmp(v, &LAST, sizeof LAST) == 0) return Py_NewRef(LAST_RAW);
    PyObject *groups = PyTuple_New(v->n_groups);
    for (int i = 0; i < v->n_groups; i++) PyTuple_SET_ITEM(groups, i, group_tuple(v->groups[i]));
    PyObject *sets = PyTuple_New(v->n_sets);
    for (int i = 0; i < v->n_sets; i++)
        PyTuple_SET_ITEM(sets, i, PyLong_FromLong(index_of(v, v->sets[i])));
    PyObject *melds = PyTuple_New(v->n_melds);
    for (int i = 0; i < v->n_melds; i++)
        PyTuple_SET_ITEM(melds, i, PyLong_FromLong(index_of(v, v->melds[i])));
    PyObject *members = PyTuple_New(v->n_members);
    for (int i = 0; i < v->n_members; i++)
        PyTuple_SET_ITEM(members, i, PyLong_FromLong(index_of(v, v->members[i])));
    PyObject *counted = PyTuple_New((MJ_MAX_PATTERNS + 63) / 64);
    for (int i = 0; i < (MJ_MAX_PATTERNS + 63) / 64; i++)
        PyTuple_SET_ITEM(counted, i, PyLong_FromUnsignedLongLong(v->counted[i]));
    PyObject *raw = Py_BuildValue(
        "(iiNNiNiNNIKLi iiiiiiii iiiii iiiii LLLLL iiNNNNiNLN)",
        v->shape, v->wait, groups, sets, v->pair ? index_of(v, v->pair) : -1, melds,
        v->win_tile.kind * 2 + v->win_tile.red, tiles_bytes(v->tiles, v->n_tiles),
        PyBytes_FromStringAndSize((const char *)v->counts, 34), v->suits,
        (unsigned long long)v->tile_mask,
        (long long)v->four_of_a_kinds, v->is_closed,
        v->tsumo, v->ron, v->last_tile, v->after_kong, v->kong_shot, v->robbing_kong, v->first_draw,
        v->fourth_tile,
        v->riichi, v->double_riichi, v->ippatsu, v->dealer, v->seat_wind,
        v->round_wind, v->missing_suit, v->winner, v->original_call, v->kong_upon_kong,
        (long long)v->flowers, (long long)v->own_bonus, (long long)v->bonus_sets,
        (long long)v->dealer_wins,
        (long long)v->concealed_triplets,
        v->only_wait, v->only_live_wait, tiles_bytes(v->dora_indicators, v->n_dora_indicators),
        tiles_bytes(v->ura_indicators, v->n_ura_indicators),
        PyBytes_FromStringAndSize((const char *)v->concealed_counts, 34), members,
        v->discard_group ? index_of(v, v->discard_group) : -1, counted, (long long)v->points,
        PyLong_FromVoidPtr((void *)v->options));
    if (!raw) return NULL;
    Py_XDECREF(LAST_RAW);
    LAST_RAW = Py_NewRef(raw);
    memcpy(&LAST, v, sizeof LAST);
    return raw;
}

static int64_t answer(PyObject *r, int *overflow) {
    if (!r) {
        PyErr_Print();
        *overflow = 1;
        return 0;
    }
    int of = 0;
    long long x = PyLong_AsLongLongAndOverflow(r, &of);
    Py_DECREF(r);
    if (of || (x == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        *overflow = 1;
        return 0;
    }
    return x;
}

static int64_t hand(int slot, mj_view *v) {
    PyObject *raw = raw_view(v);
    if (!raw) return answer(NULL, &v->overflow);
    PyObject *r = PyObject_CallFunction(HAND_DISPATCH, "iN", slot, raw);
    return answer(r, &v->overflow);
}

static int64_t pay(int slot, mj_pay *p) {
    PyObject *named = PyTuple_New(16);
    for (int i = 0; i < 16; i++) PyTuple_SET_ITEM(named, i, PyLong_FromLongLong(p->named[i]));
    PyObject *r = PyObject_CallFunction(PAY_DISPATCH, "i(LLLLiiiiN)", slot, (long long)p->fan,
                                        (long long)p->capped, (long long)p->points,
                                        (long long)p->honba, p->tsumo, p->ron, p->dealer, p->limit,
                                        named);
    return answer(r, &p->overflow);
}

static PyObject *py_set(PyObject *self, PyObject *args) {
    PyObject *h, *p;
    if (!PyArg_ParseTuple(args, "OO", &h, &p)) return NULL;
    Py_XSETREF(HAND_DISPATCH, Py_NewRef(h));
    Py_XSETREF(PAY_DISPATCH, Py_NewRef(p));
    Py_RETURN_NONE;
}

static PyObject *py_reset(PyObject *self, PyObject *noargs) {
    Py_CLEAR(LAST_RAW);
    Py_RETURN_NONE;
}
"""


class Bridge:
    """The C text of one profile's tables, and the Python callables behind its trampolines."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.hand_slots: list[Callable[[HandView], Any]] = []
        self.pay_slots: list[tuple[Callable[[PaymentView], Any], tuple[str, ...]]] = []
        self.lines: list[str] = []

    def hand(self, fn: Callable[[HandView], Any]) -> str:
        self.hand_slots.append(fn)
        return f"h{len(self.hand_slots) - 1}"

    def amount(self, value: Any) -> str:
        if isinstance(value, int):
            return f"{{{value}LL, NULL}}"
        return f"{{0, {self.hand(value)}}}"

    def pay(self, fn: Callable[[PaymentView], Any], earlier: tuple[str, ...]) -> str:
        self.pay_slots.append((fn, earlier))
        return f"p{len(self.pay_slots) - 1}"

    def source(self) -> str:
        P = self.profile
        out: list[str] = []
        idx = {p.id: i for i, p in enumerate(P.patterns)}
        gidx = {g.id: i for i, g in enumerate(P.groups)}
        pats = []
        for i, p in enumerate(P.patterns):
            ex = [idx[x] for x in p.excludes if x in idx]
            limits = dict(p.exclude_limits)
            lim = [limits.get(x, -1) for x in p.excludes if x in idx]
            out.append(f"static const int EX{i}[] = {{{', '.join(map(str, ex)) or '0'}}};")
            out.append(f"static const int EL{i}[] = {{{', '.join(map(str, lim)) or '0'}}};")
            when = self.hand(p.when) if p.when is not None else "NULL"
            count = self.hand(p.count) if p.count is not None else "NULL"
            value = self.amount(p.value)
            has_open = p.open_value is not None
            open_value = self.amount(p.open_value) if has_open else "{0, NULL}"
            kind, size = (_COMBINE[p.combine[0].value], p.combine[1]) if p.combine else (-1, 0)
            group = gidx[p.group] if p.group is not None else -1
            pats.append(
                f'{{"{p.id}", "", NULL, {when}, {count}, {value}, {int(has_open)}, '
                f"{open_value}, {group}, EX{i}, EL{i}, "
                f"{len(ex)}, {kind}, {size}, {int(p.fallback)}, {int(p.bonus)}, {int(p.limit)}, "
                f"{int(p.tiles_only)}, {int(p.members_only)}}}"
            )
        reqs = [f"{{{_c(r.reason.en)}, {self.hand(r.when)}}}" for r in P.requirements]
        items = []
        if P.points is not None:
            for it in P.points.items:
                when = self.hand(it.when) if it.when is not None else "NULL"
                items.append(f'{{"{it.id}", "", NULL, {when}, {self.amount(it.value)}}}')
            result = self.hand(P.points.result) if P.points.result is not None else "NULL"
        else:
            result = "NULL"
        names: list[str] = []
        values = []
        for name, fn in P.payments.values:
            values.append(f'{{"{name}", {self.pay(fn, tuple(names))}}}')
            names.append(name)
        ron = [f'{{"{role}", {self.pay(fn, tuple(names))}}}' for role, fn in P.payments.ron]
        tsumo = [f'{{"{role}", {self.pay(fn, tuple(names))}}}' for role, fn in P.payments.tsumo]
        picks = [PICK_CODES.codes[g.pick.value] for g in P.groups]
        without = [idx[x] for x in P.minimum.without if x in idx] if P.minimum else []
        prefer = [_PREFER[k] for k in P.prefer]
        options = [o.name for o in P.options]
        lhc = options.index(P.limit_hands_counted) if P.limit_hands_counted else -1
        hv = names.index(P.payments.hand_value) if P.payments.hand_value else -1
        s = P.shapes
        body = [_C_HEAD]
        for i in range(len(self.hand_slots)):
            body.append(f"static int64_t h{i}(mj_view *v) {{ return hand({i}, v); }}")
        for i in range(len(self.pay_slots)):
            body.append(f"static int64_t p{i}(mj_pay *p) {{ return pay({i}, p); }}")
        body += out

        def table(ctype: str, name: str, rows: list[str]) -> None:
            body.append(f"static const {ctype} {name}[] = {{{', '.join(rows) or '{0}'}}};")

        table("mj_pattern", "PATTERNS", pats)
        table("mj_requirement", "REQS", reqs)
        table("mj_point_item", "ITEMS", items)
        table("mj_formula", "VALUES", values)
        table("mj_formula", "RON", ron)
        table("mj_formula", "TSUMO", tsumo)
        table("int", "PICKS", [str(x) for x in picks])
        table("int", "WITHOUT", [str(x) for x in without])
        table("int", "PREFER", [str(x) for x in prefer])
        m = P.minimum
        body.append(
            "static const mj_profile PROFILE = {MJ_ABI, "
            f'"{P.id}", {int(s.standard)}, {int(s.seven_pairs)}, '
            f"{int(s.seven_pairs_allow_four_of_a_kind)}, "
            f"{int(s.thirteen_orphans)}, {int(s.knitted)}, 0, 0, 0, 0, REQS, {len(reqs)}, "
            f"PATTERNS, {len(pats)}, "
            f"PICKS, {len(picks)}, {int(P.cap is not None)}, {P.cap or 0}, PREFER, {len(prefer)}, "
            f"{int(m is not None)}, {m.at_least if m else 0}, WITHOUT, {len(without)}, "
            f"{_c(m.reason.en) if m else 'NULL'}, {int(P.points is not None)}, ITEMS, "
            f"{len(items)}, {result}, "
            f"VALUES, {len(values)}, RON, {len(ron)}, TSUMO, {len(tsumo)}, {hv}, "
            f"{len(options)}, {lhc}, "
            f"{int(any(p.combine for p in P.patterns))}}};"
        )
        body.append(
            r"""
static PyMethodDef METHODS[] = {
    {"set_dispatch", py_set, METH_VARARGS, ""}, {"reset", py_reset, METH_NOARGS, ""}, {NULL}};
static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "NAME", "", -1, METHODS};
PyMODINIT_FUNC PyInit_NAME(void) {
    PyObject *m = PyModule_Create(&MODULE);
    if (!m) return NULL;
    PyModule_AddObject(m, "PROFILE",
                       PyCapsule_New((void *)&PROFILE, "mjspec.native_profile", NULL));
    return m;
}
""".replace(
                "NAME", f"_bridge_{P.id}"
            )
        )
        return "\n".join(body)

    def dispatchers(
        self,
    ) -> tuple[Callable[[int, tuple[Any, ...]], int], Callable[[int, tuple[Any, ...]], int]]:
        P = self.profile
        options = P.option_values.as_dict()
        slots = self.hand_slots
        pays = self.pay_slots
        views: dict[tuple[Any, ...], HandView] = {}

        def hand(slot: int, raw: tuple[Any, ...]) -> int:
            view = views.get(raw)
            if view is None:
                views.clear()
                view = views[raw] = _view(raw, options)
            return int(slots[slot](view))

        def pay(slot: int, raw: tuple[Any, ...]) -> int:
            fan, capped, points, honba, tsumo, _ron, dealer, limit, named = raw
            fn, earlier = pays[slot]
            pv = PaymentView(
                fan, capped, bool(tsumo), bool(dealer), points, bool(limit), honba, options=options
            )
            for i, name in enumerate(earlier):
                setattr(pv, name, named[i])
            return int(fn(pv))

        return hand, pay


def _c(text: str) -> str:
    """A C string literal of ``text`` (UTF-8, every byte escaped; the empty literal ends the
    escapes)."""
    return '"' + "".join(f"\\x{b:02x}" for b in text.encode("utf-8")) + '" ""'


def _tiles(codes: bytes) -> tuple[Tile, ...]:
    return tuple(Tile(c >> 1, bool(c & 1)) for c in codes)


def _view(raw: tuple[Any, ...], options: dict[str, Any]) -> HandView:
    (
        shape, wait, groups, sets, pair, melds, win, tiles, counts, suits, mask, fours, is_closed,
        tsumo, ron, last_tile, after_kong, kong_shot, robbing_kong, first_draw, fourth_tile,
        riichi, double_riichi, ippatsu, dealer, seat_wind,
        round_wind, missing_suit, winner, original_call, kong_upon_kong,
        flowers, own_bonus, bonus_sets, dealer_wins, concealed_triplets,
        only_wait, only_live_wait, dora, ura, concealed_counts, members, discard, counted, points,
        _options,
    ) = raw  # fmt: skip
    gs = tuple(Group(_KINDS[k], t, bool(c), None if m < 0 else _MELDS[m]) for k, t, c, m in groups)
    v = HandView()
    v.shape = _SHAPES[shape]
    v.wait = _WAITS[wait]
    v.groups = gs
    v.sets = tuple(gs[i] for i in sets)
    v.pair = gs[pair] if pair >= 0 else None
    v.melds = tuple(gs[i] for i in melds)
    v.win_tile = _tiles(bytes([win]))[0]
    v.tiles = _tiles(tiles)
    v.suits = frozenset(_SUITS[i] for i in range(4) if suits >> i & 1)
    v.tile_mask = mask
    v.set_bits = group_bits(v.sets)
    v.group_bits = group_bits(gs)
    v.four_of_a_kinds = fours
    v.is_closed = bool(is_closed)
    v.tsumo, v.ron = bool(tsumo), bool(ron)
    v.last_tile, v.after_kong, v.kong_shot = bool(last_tile), bool(after_kong), bool(kong_shot)
    v.robbing_kong, v.first_draw, v.fourth_tile = (
        bool(robbing_kong),
        bool(first_draw),
        bool(fourth_tile),
    )
    v.riichi, v.double_riichi, v.ippatsu, v.dealer = (
        bool(riichi),
        bool(double_riichi),
        bool(ippatsu),
        bool(dealer),
    )
    v.seat_wind, v.round_wind = _WINDS[seat_wind], _WINDS[round_wind]
    v.missing_suit = None if missing_suit < 0 else _SUITS[missing_suit]
    v.winner, v.original_call, v.kong_upon_kong = (
        bool(winner),
        bool(original_call),
        bool(kong_upon_kong),
    )
    v.flowers, v.own_bonus, v.bonus_sets, v.dealer_wins = (
        flowers,
        own_bonus,
        bonus_sets,
        dealer_wins,
    )
    v.concealed_triplets = concealed_triplets
    v._only_wait = Lazy(lambda: _known(only_wait, "only_wait"))
    v._only_live_wait = Lazy(lambda: _known(only_live_wait, "only_live_wait"))
    v.dora_indicators, v.ura_indicators = _tiles(dora), _tiles(ura)
    v._counts, v._concealed_counts = list(counts), list(concealed_counts)
    v._options = options
    v._discard_group = gs[discard] if discard >= 0 else None
    mem = tuple(gs[i] for i in members)
    if mem:
        v.members = mem
        for name, g in zip("abcd", mem):
            setattr(v, name, g)
    bits = sum(w << (64 * i) for i, w in enumerate(counted))
    P = _CURRENT[0]
    v._counted = frozenset(p.id for i, p in enumerate(P.patterns) if bits >> i & 1)
    v.points = points
    return v


_CURRENT: list[Profile] = []


def _known(value: int, name: str) -> bool:
    if value < 0:
        raise AssertionError(f"the core passed {name} as not computed, and an expression read it")
    return bool(value)


_BUILT: dict[str, ModuleType] = {}


def bridge_module(profile: Profile) -> ModuleType:
    """The compiled bridge of ``profile`` (built once per process into a temporary folder)."""
    known = _BUILT.get(profile.id)
    if known is not None:
        return known
    bridge = Bridge(profile)
    src = bridge.source()
    folder = Path(tempfile.mkdtemp(prefix="mjbridge-"))
    c_file = folder / f"_bridge_{profile.id}.c"
    c_file.write_text(src)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    so = folder / f"_bridge_{profile.id}{suffix}"
    cc = os.environ.get("CC", "cc")
    subprocess.run(
        [
            cc, "-shared", "-fPIC", "-O0", "-w", f"-I{sysconfig.get_paths()['include']}",
            f"-I{ROOT / 'runtime' / 'native'}", str(c_file), "-o", str(so),
        ],
        check=True,
    )  # fmt: skip
    spec = importlib.util.spec_from_file_location(f"_bridge_{profile.id}", so)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    hand, pay = bridge.dispatchers()

    def hand_in(slot: int, raw: tuple[Any, ...]) -> int:
        _CURRENT[:] = [profile]
        return hand(slot, raw)

    module.set_dispatch(hand_in, pay)
    _BUILT[profile.id] = module
    return module
