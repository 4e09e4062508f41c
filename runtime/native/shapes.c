/* mjspec.runtime._shapes: the Python binding of the native shape core (mjshapes.h).
 *
 * A thin layer: each function reads its arguments into a counts array and a mjs_rules value and
 * calls the core. Whatever lies outside what the core handles (a counts vector that is not a list
 * or tuple of 34 ints in 0..4, a wrong tile total, melds out of 0..4, rules that are not a
 * ShapeRules) gets NotImplemented back, without an exception and before any memory is touched:
 * runtime/shapes.py then answers with its Python reference, which raises the reference's own
 * errors. So every message and every answer outside the native domain is the reference's.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "mjshapes.h"

/* ------------------------------------------------------------ arguments */

/* 1: read; 0: not in the native domain (no exception set). */
static int read_counts(PyObject *obj, uint8_t c[MJS_KINDS], int *total) {
    PyObject **items;
    if (PyList_CheckExact(obj)) {
        if (PyList_GET_SIZE(obj) != MJS_KINDS) return 0;
        items = ((PyListObject *)obj)->ob_item;
    } else if (PyTuple_CheckExact(obj)) {
        if (PyTuple_GET_SIZE(obj) != MJS_KINDS) return 0;
        items = ((PyTupleObject *)obj)->ob_item;
    } else {
        return 0;
    }
    int sum = 0;
    for (int k = 0; k < MJS_KINDS; k++) {
        PyObject *item = items[k];
        if (!PyLong_Check(item)) return 0;
        int overflow = 0;
        long v = PyLong_AsLongAndOverflow(item, &overflow);
        if (overflow || v < 0 || v > 4) return 0;
        c[k] = (uint8_t)v;
        sum += (int)v;
    }
    *total = sum;
    return 1;
}

/* 1: an int 0..4 read into *n; 0 otherwise. */
static int read_small(PyObject *obj, int lo, int hi, int *n) {
    if (!PyLong_Check(obj)) return 0;
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(obj, &overflow);
    if (overflow || v < lo || v > hi) return 0;
    *n = (int)v;
    return 1;
}

/* ShapeRules objects seen lately, held by a strong reference so that an identity match is never
 * a different object at a reused address. ShapeRules is a frozen dataclass: its fields do not
 * change, so the flags read once stay right. */
#define RULES_CACHE 16
static struct {
    PyObject *obj;
    mjs_rules rules;
} rules_cache[RULES_CACHE];
static int rules_next;

static int read_flag(PyObject *obj, const char *name, uint8_t *out) {
    PyObject *v = PyObject_GetAttrString(obj, name);
    if (!v) return 0;
    int truth = PyBool_Check(v) ? v == Py_True : -1;
    Py_DECREF(v);
    if (truth < 0) return 0; /* not a bool: leave it to the reference */
    *out = (uint8_t)truth;
    return 1;
}

/* 1: read (or found); 0: not a ShapeRules as the core knows it (no exception set). */
static int read_rules(PyObject *obj, mjs_rules *r) {
    for (int i = 0; i < RULES_CACHE; i++) {
        if (rules_cache[i].obj == obj) {
            *r = rules_cache[i].rules;
            return 1;
        }
    }
    mjs_rules got;
    if (!read_flag(obj, "standard", &got.standard) || !read_flag(obj, "seven_pairs", &got.seven_pairs) ||
        !read_flag(obj, "seven_pairs_allow_four_of_a_kind", &got.seven_pairs_four) ||
        !read_flag(obj, "thirteen_orphans", &got.thirteen_orphans) ||
        !read_flag(obj, "knitted", &got.knitted)) {
        PyErr_Clear();
        return 0;
    }
    Py_XDECREF(rules_cache[rules_next].obj);
    Py_INCREF(obj);
    rules_cache[rules_next].obj = obj;
    rules_cache[rules_next].rules = got;
    rules_next = (rules_next + 1) % RULES_CACHE;
    *r = got;
    return 1;
}

/* counts, n_melds, rules with the tile total one of `want` (a or b; b < 0: only a). */
static int read_hand(PyObject *const *args, Py_ssize_t nargs, uint8_t c[MJS_KINDS], int *n_melds,
                     mjs_rules *r, int extra_a, int extra_b) {
    int total;
    if (nargs != 3) return 0;
    if (!read_small(args[1], 0, 4, n_melds)) return 0;
    if (!read_counts(args[0], c, &total)) return 0;
    int a = extra_a - 3 * *n_melds, b = extra_b - 3 * *n_melds;
    if (total != a && (extra_b < 0 || total != b)) return 0;
    return read_rules(args[2], r);
}

static int need_fronts(void) {
    if (mjs_init_fronts() < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ functions */

static PyObject *py_is_complete(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint8_t c[MJS_KINDS];
    int n_melds;
    mjs_rules r;
    if (!read_hand(args, nargs, c, &n_melds, &r, 14, -1)) Py_RETURN_NOTIMPLEMENTED;
    return PyBool_FromLong(mjs_is_complete(c, n_melds, &r));
}

static PyObject *py_wait_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint8_t c[MJS_KINDS];
    int n_melds;
    mjs_rules r;
    if (!read_hand(args, nargs, c, &n_melds, &r, 13, -1)) Py_RETURN_NOTIMPLEMENTED;
    return PyLong_FromUnsignedLongLong(mjs_wait_mask(c, n_melds, &r));
}

static PyObject *py_shanten(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint8_t c[MJS_KINDS];
    int n_melds;
    mjs_rules r;
    if (!read_hand(args, nargs, c, &n_melds, &r, 13, 14)) Py_RETURN_NOTIMPLEMENTED;
    if (need_fronts() < 0) return NULL;
    return PyLong_FromLong(mjs_shanten(c, n_melds, &r));
}

static PyObject *py_discard_shanten(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint8_t c[MJS_KINDS];
    int n_melds;
    mjs_rules r;
    if (!read_hand(args, nargs, c, &n_melds, &r, 14, -1)) Py_RETURN_NOTIMPLEMENTED;
    if (need_fronts() < 0) return NULL;
    int8_t after[MJS_KINDS];
    mjs_discard_shanten(c, n_melds, &r, after);
    PyObject *out = PyDict_New();
    if (!out) return NULL;
    for (int k = 0; k < MJS_KINDS; k++) {
        if (!c[k]) continue;
        PyObject *key = PyLong_FromLong(k), *value = PyLong_FromLong(after[k]);
        int failed = !key || !value || PyDict_SetItem(out, key, value) < 0;
        Py_XDECREF(key);
        Py_XDECREF(value);
        if (failed) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/* The kind of each tile of each meld into own[], 1 on success, 0 outside the native domain. */
static int add_meld_tiles(PyObject *melds, int own[MJS_KINDS]) {
    Py_ssize_t n = PyList_CheckExact(melds) ? PyList_GET_SIZE(melds) : PyTuple_GET_SIZE(melds);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *meld = PyList_CheckExact(melds) ? PyList_GET_ITEM(melds, i) : PyTuple_GET_ITEM(melds, i);
        PyObject *tiles = PyObject_GetAttrString(meld, "tiles");
        if (!tiles) {
            PyErr_Clear();
            return 0;
        }
        int ok = PyTuple_CheckExact(tiles);
        for (Py_ssize_t j = 0; ok && j < PyTuple_GET_SIZE(tiles); j++) {
            PyObject *kind = PyObject_GetAttrString(PyTuple_GET_ITEM(tiles, j), "kind");
            int k;
            if (!kind) {
                PyErr_Clear();
                ok = 0;
                break;
            }
            ok = read_small(kind, 0, MJS_KINDS - 1, &k);
            Py_DECREF(kind);
            if (ok) own[k]++;
        }
        Py_DECREF(tiles);
        if (!ok) return 0;
    }
    return 1;
}

/* waits(counts, melds, rules, kinds, copies): runtime/shapes.py:waits. */
static PyObject *py_waits(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    uint8_t c[MJS_KINDS];
    int total, n_melds, copies;
    mjs_rules r;
    if (nargs != 5) Py_RETURN_NOTIMPLEMENTED;
    PyObject *melds = args[1], *kinds = args[3];
    if (!PyList_CheckExact(melds) && !PyTuple_CheckExact(melds)) Py_RETURN_NOTIMPLEMENTED;
    if (!PyList_CheckExact(kinds) && !PyTuple_CheckExact(kinds)) Py_RETURN_NOTIMPLEMENTED;
    n_melds = (int)(PyList_CheckExact(melds) ? PyList_GET_SIZE(melds) : PyTuple_GET_SIZE(melds));
    if (n_melds > 4 || !read_counts(args[0], c, &total) || total != 13 - 3 * n_melds)
        Py_RETURN_NOTIMPLEMENTED;
    if (!read_small(args[4], -1000000, 1000000, &copies) || !read_rules(args[2], &r))
        Py_RETURN_NOTIMPLEMENTED;
    int own[MJS_KINDS];
    for (int k = 0; k < MJS_KINDS; k++) own[k] = c[k];
    if (!add_meld_tiles(melds, own)) Py_RETURN_NOTIMPLEMENTED;
    Py_ssize_t n = PyList_CheckExact(kinds) ? PyList_GET_SIZE(kinds) : PyTuple_GET_SIZE(kinds);
    PyObject **items = PyList_CheckExact(kinds) ? ((PyListObject *)kinds)->ob_item
                                                : ((PyTupleObject *)kinds)->ob_item;
    uint64_t asked = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int k;
        if (!read_small(items[i], 0, MJS_KINDS - 1, &k)) Py_RETURN_NOTIMPLEMENTED;
        if (own[k] < copies) asked |= (uint64_t)1 << k;
    }
    uint64_t found = asked ? mjs_wait_mask(c, n_melds, &r) & asked : 0;
    PyObject *out = PyFrozenSet_New(NULL);
    if (!out) return NULL;
    for (int k = 0; k < MJS_KINDS; k++) {
        if (!(found >> k & 1)) continue;
        PyObject *key = PyLong_FromLong(k);
        if (!key || PySet_Add(out, key) < 0) {
            Py_XDECREF(key);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(key);
    }
    return out;
}


/* claim_candidates(kind, discarder, counts, melds, active, masks, rules, chi_seat, flowers) -> int
 *
 * The seats a discard of `kind` may concern, as a bit set (runtime/shapes.py's reference says
 * which): an active other seat that holds two or more of the kind, the chi seat holding both other
 * tiles of a sequence with it, or one the kind completes by its wait mask (a seat holding a flower
 * aside when `flowers`). `masks` is the table's per-seat cache of (n_melds, mask): a missing or
 * stale entry is made here, as the table would. `counts` is per seat a list of the 34 kinds and
 * any flower kinds after them. NotImplemented, with nothing changed, outside the native domain. */
static PyObject *py_claim_candidates(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int kind, discarder, chi_seat;
    mjs_rules r;
    if (nargs != 9) Py_RETURN_NOTIMPLEMENTED;
    PyObject *counts = args[2], *melds = args[3], *active = args[4], *masks = args[5];
    if (!read_small(args[0], 0, MJS_KINDS - 1, &kind) || !read_small(args[1], 0, 3, &discarder) ||
        !read_small(args[7], -1, 3, &chi_seat) || !read_rules(args[6], &r))
        Py_RETURN_NOTIMPLEMENTED;
    if (!PyList_CheckExact(counts) || PyList_GET_SIZE(counts) != 4 || !PyList_CheckExact(melds) ||
        PyList_GET_SIZE(melds) != 4 || !PyList_CheckExact(active) || PyList_GET_SIZE(active) != 4 ||
        !PyList_CheckExact(masks) || PyList_GET_SIZE(masks) != 4 || !PyBool_Check(args[8]))
        Py_RETURN_NOTIMPLEMENTED;
    int flowers = args[8] == Py_True;
    /* Read every seat first: outside the native domain nothing is written (but for a later seat's
     * wrong tile total, below). */
    uint8_t c[4][MJS_KINDS];
    int n_melds[4], total[4], holds_flower[4], need[4];
    PyObject *seat_counts;
    for (int seat = 0; seat < 4; seat++) {
        need[seat] = 0;
        if (seat == discarder) continue;
        PyObject *on = PyList_GET_ITEM(active, seat);
        if (!PyBool_Check(on)) Py_RETURN_NOTIMPLEMENTED;
        if (on != Py_True) continue;
        seat_counts = PyList_GET_ITEM(counts, seat);
        if (!PyList_CheckExact(seat_counts) || PyList_GET_SIZE(seat_counts) < MJS_KINDS)
            Py_RETURN_NOTIMPLEMENTED;
        PyObject **items = ((PyListObject *)seat_counts)->ob_item;
        Py_ssize_t size = PyList_GET_SIZE(seat_counts);
        int sum = 0;
        for (int k = 0; k < MJS_KINDS; k++) {
            int v;
            if (!read_small(items[k], 0, 4, &v)) Py_RETURN_NOTIMPLEMENTED;
            c[seat][k] = (uint8_t)v;
            sum += v;
        }
        holds_flower[seat] = 0;
        for (Py_ssize_t k = MJS_KINDS; k < size; k++) {
            int v;
            if (!read_small(items[k], 0, 4, &v)) Py_RETURN_NOTIMPLEMENTED;
            if (v) holds_flower[seat] = 1;
        }
        PyObject *own = PyList_GET_ITEM(melds, seat);
        if (!PyList_CheckExact(own) || PyList_GET_SIZE(own) > 4) Py_RETURN_NOTIMPLEMENTED;
        n_melds[seat] = (int)PyList_GET_SIZE(own);
        total[seat] = sum;
        need[seat] = 1;
    }
    long found = 0;
    int suited = kind < 27, n = kind % 9;
    for (int seat = 0; seat < 4; seat++) {
        if (!need[seat]) continue;
        uint8_t *h = c[seat];
        if (h[kind] >= 2) {
            found |= 1L << seat;
            continue;
        }
        if (seat == chi_seat && suited &&
            ((n >= 2 && h[kind - 2] && h[kind - 1]) ||
             (n >= 1 && n <= 7 && h[kind - 1] && h[kind + 1]) ||
             (n <= 6 && h[kind + 1] && h[kind + 2]))) {
            found |= 1L << seat;
            continue;
        }
        if (flowers && holds_flower[seat]) continue;
        /* The cached mask, when it was made for this many melds. */
        PyObject *entry = PyList_GET_ITEM(masks, seat);
        uint64_t mask;
        int cached = 0;
        if (PyTuple_CheckExact(entry) && PyTuple_GET_SIZE(entry) == 2) {
            PyObject *made_for = PyTuple_GET_ITEM(entry, 0), *bits = PyTuple_GET_ITEM(entry, 1);
            int m;
            if (read_small(made_for, 0, 4, &m) && m == n_melds[seat] && PyLong_CheckExact(bits)) {
                mask = PyLong_AsUnsignedLongLong(bits);
                if (mask == (uint64_t)-1 && PyErr_Occurred()) return NULL;
                cached = 1;
            }
        } else if (entry != Py_None) {
            Py_RETURN_NOTIMPLEMENTED; /* not the table's (n_melds, mask) pair */
        }
        if (!cached) {
            /* Not a waiting hand's tile count: the reference raises what that means. A mask
             * written for an earlier seat stays: it is the one the table would make. */
            if (total[seat] != 13 - 3 * n_melds[seat]) Py_RETURN_NOTIMPLEMENTED;
            mask = mjs_wait_mask(h, n_melds[seat], &r);
            PyObject *made = Py_BuildValue("(iK)", n_melds[seat], (unsigned long long)mask);
            if (!made) return NULL;
            PyList_SetItem(masks, seat, made); /* steals the reference, drops the old entry */
        }
        if (mask >> kind & 1) found |= 1L << seat;
    }
    return PyLong_FromLong(found);
}

/* held_items(items, counts) -> list: items[k] for every k where counts[k] is not 0, in order (a
 * turn's discards, one per kind held). NotImplemented unless both are lists, items at least as long
 * as counts, and every count an int. */
static PyObject *py_held_items(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyList_CheckExact(args[0]) || !PyList_CheckExact(args[1]))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *items = args[0], *counts = args[1];
    Py_ssize_t n = PyList_GET_SIZE(counts);
    if (PyList_GET_SIZE(items) < n) Py_RETURN_NOTIMPLEMENTED;
    PyObject *chosen[64];
    Py_ssize_t found = 0;
    if (n > 64) Py_RETURN_NOTIMPLEMENTED; /* 42 kinds at most */
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *count = PyList_GET_ITEM(counts, k);
        if (!PyLong_CheckExact(count)) Py_RETURN_NOTIMPLEMENTED;
        int overflow = 0;
        if (PyLong_AsLongAndOverflow(count, &overflow) == 0 && !overflow) continue;
        chosen[found++] = PyList_GET_ITEM(items, k);
    }
    PyObject *out = PyList_New(found);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < found; i++) {
        Py_INCREF(chosen[i]);
        PyList_SET_ITEM(out, i, chosen[i]);
    }
    return out;
}

/* remove_identical(items, obj) -> bool: remove the first item that is `obj` itself (no ==); False
 * when none is (the table's tiles are the shared ones of runtime/tiles.py, so a tile taken from a
 * hand is found by identity; an equal copy is the caller's to look for). NotImplemented unless
 * `items` is a list. */
static PyObject *py_remove_identical(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyList_CheckExact(args[0])) Py_RETURN_NOTIMPLEMENTED;
    PyObject *items = args[0], *obj = args[1];
    Py_ssize_t n = PyList_GET_SIZE(items);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PyList_GET_ITEM(items, i) == obj) {
            if (PySequence_DelItem(items, i) < 0) return NULL;
            Py_RETURN_TRUE;
        }
    }
    Py_RETURN_FALSE;
}

static PyMethodDef methods[] = {
    {"is_complete", (PyCFunction)(void (*)(void))py_is_complete, METH_FASTCALL,
     "is_complete(counts, n_melds, rules) -> bool, or NotImplemented outside the native domain."},
    {"wait_mask", (PyCFunction)(void (*)(void))py_wait_mask, METH_FASTCALL,
     "wait_mask(counts, n_melds, rules) -> int: bit k when one more k completes the waiting hand."},
    {"waits", (PyCFunction)(void (*)(void))py_waits, METH_FASTCALL,
     "waits(counts, melds, rules, kinds, copies) -> frozenset, or NotImplemented."},
    {"shanten", (PyCFunction)(void (*)(void))py_shanten, METH_FASTCALL,
     "shanten(counts, n_melds, rules) -> int, or NotImplemented outside the native domain."},
    {"discard_shanten", (PyCFunction)(void (*)(void))py_discard_shanten, METH_FASTCALL,
     "discard_shanten(counts, n_melds, rules) -> {kind: shanten}, or NotImplemented."},
    {"claim_candidates", (PyCFunction)(void (*)(void))py_claim_candidates, METH_FASTCALL,
     "claim_candidates(kind, discarder, counts, melds, active, masks, rules, chi_seat, flowers) "
     "-> int: the seats a discard may concern, as bits, or NotImplemented."},
    {"held_items", (PyCFunction)(void (*)(void))py_held_items, METH_FASTCALL,
     "held_items(items, counts) -> [items[k] for k where counts[k]], or NotImplemented."},
    {"remove_identical", (PyCFunction)(void (*)(void))py_remove_identical, METH_FASTCALL,
     "remove_identical(items, obj) -> bool: the first item that is obj removed, or NotImplemented."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "mjspec.runtime._shapes",
    "The native shape core (runtime/native/mjshapes.h) behind runtime/shapes.py.", -1, methods,
};

PyMODINIT_FUNC PyInit__shapes(void) {
    if (mjs_init() < 0) return PyErr_NoMemory();
    return PyModule_Create(&module);
}
