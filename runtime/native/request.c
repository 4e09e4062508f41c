/* request.c: a scoring request of contracts/scoring.md read into the native core's arguments.
 *
 * `pack(request, accepted, copies, max_count, meld_types, indicator_limit, dead_wall)` reads one
 * request object (a dict, as JSON gives it) and
 * returns the arguments `runtime._score.evaluate` takes after the profile's tables:
 *
 *     (concealed, melds, win, tsumo, situation, dora, ura)
 *
 * (tile codes kind * 2 + red; `situation` slot by slot as mjsituation.h numbers them,
 * with only_wait and only_live_wait -1), or None. None means "the Python path reads this
 * request": anything this reader is not sure of, every malformed request among them, so that
 * every error message is the one runtime/request.py and runtime/scoring.py write. It accepts
 * only requests whose Python reading is plain and certain: known keys and types, tiles the set
 * has (`accepted`: 84 bytes, 1 for each code the tile set holds), melds of type and tiles only,
 * the right number of tiles, no kind beyond `copies` and no red five twice (hand, melds and
 * indicators together), melds of a type the profile calls (`meld_types`: bit MJ_MELD_x), at most
 * `indicator_limit` indicators, no contradictory situation (`contradictions`: the rows of
 * runtime/situation.py CONTRADICTIONS that can hold for the profile, each the bits of its facts
 * over this module's FACTS, as runtime/native_contract.py builds them from that one table), no
 * options, no losing hand, no exhausted kinds: runtime/situation.py's refusals stay the Python path's.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "mjsituation.h" /* the situation's slots (MJ_SIT_*), written from runtime/context.py */
#include "mjenums.h"     /* MJ_WIND_*, MJ_MELD_*, written from runtime/native_enums.py */

#define N_CODES 84
#define MAX_PARSED 32

/* mpsz letters: first kind and size (runtime/tiles.py SUIT_LAYOUT). */
static int letter_layout(char ch, int *base, int *size, int *suited) {
    switch (ch) {
    case 'm': *base = 0; *size = 9; *suited = 1; return 1;
    case 'p': *base = 9; *size = 9; *suited = 1; return 1;
    case 's': *base = 18; *size = 9; *suited = 1; return 1;
    case 'z': *base = 27; *size = 7; *suited = 0; return 1;
    case 'f': *base = 34; *size = 8; *suited = 0; return 1;
    default: return 0;
    }
}

/* Parse mpsz text into codes (order kept); 0 on anything parse_tiles would refuse or is unsure of. */
static int parse_codes(PyObject *text, const uint8_t *accepted, uint8_t *out, int cap, int *n) {
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(text, &len);
    if (s == NULL) {
        PyErr_Clear();
        return 0;
    }
    int digits[MAX_PARSED];
    int pending = 0;
    *n = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        char ch = s[i];
        if (ch == ' ')
            continue;
        if (ch >= '0' && ch <= '9') {
            if (pending >= MAX_PARSED)
                return 0;
            digits[pending++] = ch - '0';
            continue;
        }
        int base, size, suited;
        if (!letter_layout(ch, &base, &size, &suited) || pending == 0)
            return 0;
        for (int d = 0; d < pending; d++) {
            int code;
            if (digits[d] == 0 && suited)
                code = (base + 4) * 2 + 1;
            else if (digits[d] >= 1 && digits[d] <= size)
                code = (base + digits[d] - 1) * 2;
            else
                return 0;
            if (!accepted[code] || *n >= cap)
                return 0;
            out[(*n)++] = (uint8_t)code;
        }
        pending = 0;
    }
    return pending == 0;
}

/* A key of a dict as UTF-8, or NULL when it is not text. */
static const char *key_text(PyObject *key) {
    if (!PyUnicode_Check(key))
        return NULL;
    const char *k = PyUnicode_AsUTF8(key);
    if (k == NULL)
        PyErr_Clear();
    return k;
}

/* A bool of the context (context.py _coerce): only True or False. */
static int read_bool(PyObject *v, int *out) {
    if (v != Py_True && v != Py_False)
        return 0;
    *out = v == Py_True;
    return 1;
}

/* A count of the context within 0..max_count (runtime/context.py MAX_COUNT, passed in). */
static long long max_count = 0;

static int read_count(PyObject *v, long long *out) {
    if (!PyLong_CheckExact(v))
        return 0;
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow || (x == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    if (x < 0 || x > max_count)
        return 0;
    *out = x;
    return 1;
}

static int wind_code(PyObject *v) {
    if (!PyUnicode_Check(v))
        return -1;
    const char *w = PyUnicode_AsUTF8(v);
    if (w == NULL) {
        PyErr_Clear();
        return -1;
    }
    if (w[0] != '\0' && w[1] == '\0') {
        switch (w[0]) {
        case 'E': return MJ_WIND_E;
        case 'S': return MJ_WIND_S;
        case 'W': return MJ_WIND_W;
        case 'N': return MJ_WIND_N;
        }
    }
    return -1;
}

static int meld_code(const char *t) {
    if (strcmp(t, "chi") == 0) return MJ_MELD_CHI;
    if (strcmp(t, "pon") == 0) return MJ_MELD_PON;
    if (strcmp(t, "minkan") == 0) return MJ_MELD_MINKAN;
    if (strcmp(t, "kakan") == 0) return MJ_MELD_KAKAN;
    if (strcmp(t, "ankan") == 0) return MJ_MELD_ANKAN;
    return -1;
}

/* The meld's tiles form its type (runtime/hand.py Meld.__post_init__). */
static int meld_shape_ok(int type, const uint8_t *codes, int n) {
    int want = (type == MJ_MELD_CHI || type == MJ_MELD_PON) ? 3 : 4;
    if (n != want)
        return 0;
    int k[4];
    for (int i = 0; i < n; i++) {
        k[i] = codes[i] >> 1;
        if (k[i] >= 34)
            return 0;
    }
    for (int i = 1; i < n; i++) /* sort */
        for (int j = i; j > 0 && k[j - 1] > k[j]; j--) {
            int t = k[j];
            k[j] = k[j - 1];
            k[j - 1] = t;
        }
    if (type == MJ_MELD_CHI)
        return k[0] < 27 && k[1] == k[0] + 1 && k[2] == k[0] + 2 && k[2] / 9 == k[0] / 9;
    for (int i = 1; i < n; i++)
        if (k[i] != k[0])
            return 0;
    return 1;
}


/* The facts a row of runtime/situation.py CONTRADICTIONS may name, by bit (the module's FACTS):
 * the context's flags as given (riichi before `or double_riichi`), how the hand was won, whether it
 * has melds. The profile's own facts (a dead wall) are settled by the glue, which drops the rows
 * they rule out. */
#define N_FACTS 15
static const char *FACTS[N_FACTS] = {"last_tile", "after_kong", "kong_shot", "robbing_kong", "first_draw",
                                     "fourth_tile", "riichi", "double_riichi", "ippatsu", "original_call",
                                     "kong_upon_kong", "tsumo", "ron", "melds", "not after_kong"};

static PyObject *pack(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *raw, *contradictions;
    Py_buffer acc;
    int copies, meld_types, indicator_limit;
    if (!PyArg_ParseTuple(args, "Oy*iLiiO!", &raw, &acc, &copies, &max_count, &meld_types, &indicator_limit,
                          &PyTuple_Type, &contradictions))
        return NULL;
    PyObject *result = NULL;
    if (acc.len != N_CODES || !PyDict_Check(raw))
        goto none;
    const uint8_t *accepted = (const uint8_t *)acc.buf;
    uint8_t concealed[MAX_PARSED], win[MAX_PARSED], dora[MAX_PARSED], ura[MAX_PARSED], flowers[MAX_PARSED];
    int n_concealed = 0, n_win = 0, n_dora = 0, n_ura = 0, n_flowers = 0;
    uint8_t meld_tiles[4][MAX_PARSED];
    int meld_n[4], meld_type[4], n_melds = 0;
    int tsumo = -1;
    long long sit[MJ_N_SITUATION];
    for (int i = 0; i < MJ_N_SITUATION; i++)
        sit[i] = 0;
    sit[MJ_SIT_MISSING_SUIT] = -1;
    sit[MJ_SIT_ONLY_WAIT] = sit[MJ_SIT_ONLY_LIVE_WAIT] = -1;
    int dealer_given = -1, riichi = 0, double_riichi = 0;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(raw, &pos, &key, &value)) {
        const char *k = key_text(key);
        if (k == NULL)
            goto none;
        if (strcmp(k, "profile") == 0)
            continue;
        if (strcmp(k, "concealed") == 0) {
            if (!PyUnicode_Check(value) || !parse_codes(value, accepted, concealed, MAX_PARSED, &n_concealed))
                goto none;
        } else if (strcmp(k, "win_tile") == 0) {
            if (!PyUnicode_Check(value) || !parse_codes(value, accepted, win, MAX_PARSED, &n_win))
                goto none;
        } else if (strcmp(k, "win") == 0) {
            if (!PyUnicode_Check(value))
                goto none;
            const char *w = PyUnicode_AsUTF8(value);
            if (w == NULL) {
                PyErr_Clear();
                goto none;
            }
            if (strcmp(w, "tsumo") == 0)
                tsumo = 1;
            else if (strcmp(w, "ron") == 0)
                tsumo = 0;
            else
                goto none;
        } else if (strcmp(k, "melds") == 0) {
            if (!PyList_Check(value) || PyList_GET_SIZE(value) > 4)
                goto none;
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(value); i++) {
                PyObject *m = PyList_GET_ITEM(value, i);
                if (!PyDict_Check(m) || PyDict_Size(m) != 2)
                    goto none; /* "from" and "claimed" are checked by the Python path */
                PyObject *type = PyDict_GetItemString(m, "type");
                PyObject *tiles = PyDict_GetItemString(m, "tiles");
                if (type == NULL || tiles == NULL || !PyUnicode_Check(type) || !PyUnicode_Check(tiles))
                    goto none;
                const char *t = PyUnicode_AsUTF8(type);
                if (t == NULL) {
                    PyErr_Clear();
                    goto none;
                }
                int code = meld_code(t);
                if (code < 0 || !((meld_types >> code) & 1) || !parse_codes(tiles, accepted, meld_tiles[n_melds], MAX_PARSED, &meld_n[n_melds]) ||
                    !meld_shape_ok(code, meld_tiles[n_melds], meld_n[n_melds]))
                    goto none;
                meld_type[n_melds++] = code;
            }
        } else if (strcmp(k, "context") == 0) {
            if (!PyDict_Check(value))
                goto none;
            PyObject *ck, *cv;
            Py_ssize_t cpos = 0;
            while (PyDict_Next(value, &cpos, &ck, &cv)) {
                const char *c = key_text(ck);
                int b;
                long long x;
                if (c == NULL)
                    goto none;
/* every flag of the situation (mjsituation.h), but the riichi flags, read below as given */
#define BOOL_KEY(name, slot, read)                                                                           \
    if (read == MJ_READ_FLAG && slot != MJ_SIT_RIICHI && slot != MJ_SIT_DOUBLE_RIICHI &&                \
        strcmp(c, #name) == 0) {                                                                         \
        if (!read_bool(cv, &b))                                                                          \
            goto none;                                                                                   \
        sit[slot] = b;                                                                                   \
        continue;                                                                                        \
    }
                MJ_SITUATION_CONTEXT(BOOL_KEY)
#undef BOOL_KEY
                if (strcmp(c, "riichi") == 0) {
                    if (!read_bool(cv, &riichi))
                        goto none;
                } else if (strcmp(c, "double_riichi") == 0) {
                    if (!read_bool(cv, &double_riichi))
                        goto none;
                } else if (strcmp(c, "dealer") == 0) {
                    if (!read_bool(cv, &dealer_given))
                        goto none;
                } else if (strcmp(c, "losing_hand") == 0) {
                    if (cv != Py_False)
                        goto none; /* a loser's hand: the Python path */
                } else if (strcmp(c, "honba") == 0) {
                    if (!read_count(cv, &x))
                        goto none;
                    sit[MJ_SIT_HONBA] = x;
                } else if (strcmp(c, "dealer_wins") == 0) {
                    if (!read_count(cv, &x))
                        goto none;
                    sit[MJ_SIT_DEALER_WINS] = x;
                } else if (strcmp(c, "riichi_sticks") == 0) {
                    if (!read_count(cv, &x))
                        goto none;
                } else if (strcmp(c, "seat_wind") == 0 || strcmp(c, "round_wind") == 0) {
                    int w = wind_code(cv);
                    if (w < 0)
                        goto none;
                    sit[c[0] == 's' ? MJ_SIT_SEAT_WIND : MJ_SIT_ROUND_WIND] = w;
                } else if (strcmp(c, "missing_suit") == 0) {
                    if (cv == Py_None)
                        continue;
                    if (!PyUnicode_Check(cv))
                        goto none;
                    const char *m = PyUnicode_AsUTF8(cv);
                    if (m == NULL) {
                        PyErr_Clear();
                        goto none;
                    }
                    if (strcmp(m, "m") == 0)
                        sit[MJ_SIT_MISSING_SUIT] = 0;
                    else if (strcmp(m, "p") == 0)
                        sit[MJ_SIT_MISSING_SUIT] = 1;
                    else if (strcmp(m, "s") == 0)
                        sit[MJ_SIT_MISSING_SUIT] = 2;
                    else
                        goto none;
                } else if (strcmp(c, "dora_indicators") == 0 || strcmp(c, "ura_indicators") == 0) {
                    int is_dora = c[0] == 'd';
                    if (!PyUnicode_Check(cv) || !parse_codes(cv, accepted, is_dora ? dora : ura, 8, is_dora ? &n_dora : &n_ura))
                        goto none;
                } else if (strcmp(c, "flowers") == 0) {
                    if (!PyUnicode_Check(cv) || !parse_codes(cv, accepted, flowers, 8, &n_flowers))
                        goto none;
                } else if (strcmp(c, "options") == 0) {
                    if (!PyDict_Check(cv) || PyDict_Size(cv) != 0)
                        goto none; /* options in force for this request: the Python path binds them */
                } else if (strcmp(c, "exhausted") == 0) {
                    if (!PyUnicode_Check(cv) || PyUnicode_GetLength(cv) != 0)
                        goto none;
                } else {
                    goto none; /* an unknown key: the Python path names it */
                }
            }
        } else {
            goto none;
        }
    }
    if (tsumo < 0 || n_win != 1)
        goto none;
    /* Tile counts (scoring.py check_hand), and the copies of each kind and red five everywhere. */
    if (n_concealed + 1 != 14 - 3 * n_melds)
        goto none;
    int kinds[42] = {0}, reds[84] = {0};
    for (int i = 0; i < n_concealed; i++) {
        kinds[concealed[i] >> 1]++;
        reds[concealed[i]]++;
    }
    kinds[win[0] >> 1]++;
    reds[win[0]]++;
    for (int m = 0; m < n_melds; m++)
        for (int i = 0; i < meld_n[m]; i++) {
            kinds[meld_tiles[m][i] >> 1]++;
            reds[meld_tiles[m][i]]++;
        }
    for (int i = 0; i < n_dora; i++) {
        kinds[dora[i] >> 1]++;
        reds[dora[i]]++;
    }
    for (int i = 0; i < n_ura; i++) {
        kinds[ura[i] >> 1]++;
        reds[ura[i]]++;
    }
    for (int k = 0; k < 34; k++)
        if (kinds[k] > copies || reds[k * 2 + 1] > 1)
            goto none;
    if (n_dora > indicator_limit || n_ura > indicator_limit)
        goto none; /* more indicators than the dead wall shows (runtime/situation.py too_many_copies) */
    /* Situations that exclude each other (runtime/situation.py contradictory_situation, its
     * CONTRADICTIONS rows as masks over FACTS): the Python path refuses them with its reason. */
    uint32_t facts = (tsumo ? 1u << 11 : 1u << 12) | (n_melds ? 1u << 13 : 0) | (sit[MJ_SIT_AFTER_KONG] ? 0 : 1u << 14);
    _Static_assert(MJ_SIT_LAST_TILE == 0 && MJ_SIT_FOURTH_TILE == 5 && MJ_SIT_RIICHI == 6 &&
                       MJ_SIT_DOUBLE_RIICHI == 7 && MJ_SIT_IPPATSU == 8,
                   "FACTS 0-8 are the situation's slots 0-8");
    for (int i = 0; i < 9; i++) /* FACTS 0-8 are situation slots 0-8 (the riichi flags as given) */
        if (i == MJ_SIT_RIICHI ? riichi : i == MJ_SIT_DOUBLE_RIICHI ? double_riichi : sit[i]) facts |= 1u << i;
    if (sit[MJ_SIT_ORIGINAL_CALL]) facts |= 1u << 9;
    if (sit[MJ_SIT_KONG_UPON_KONG]) facts |= 1u << 10;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(contradictions); i++) {
        PyObject *row = PyTuple_GET_ITEM(contradictions, i);
        long mask = PyLong_Check(row) ? PyLong_AsLong(row) : -1;
        if (mask <= 0 || mask >= 1L << N_FACTS) {
            PyErr_Clear();
            goto none; /* not a mask this reader knows: the Python path decides */
        }
        if ((facts & (uint32_t)mask) == (uint32_t)mask)
            goto none;
    }
    for (int i = 0; i < n_concealed; i++)
        if (concealed[i] >= 68)
            goto none;
    if (win[0] >= 68)
        goto none;
    for (int i = 0; i < n_dora; i++)
        if (dora[i] >= 68)
            goto none;
    for (int i = 0; i < n_ura; i++)
        if (ura[i] >= 68)
            goto none;
    /* Flowers: each a flower, each once (scoring.py _count_flowers); own and sets (bonus_tiles). */
    int seen_flower[8] = {0};
    for (int i = 0; i < n_flowers; i++) {
        if (flowers[i] < 68 || (flowers[i] & 1))
            goto none;
        int f = (flowers[i] >> 1) - 34;
        if (seen_flower[f]++)
            goto none;
    }
    sit[MJ_SIT_FLOWERS] = n_flowers;
    if (n_flowers) {
        int own = (int)sit[MJ_SIT_SEAT_WIND]; /* East owns 1f and 5f, South 2f and 6f... */
        sit[MJ_SIT_OWN_BONUS] = seen_flower[own] + seen_flower[own + 4];
        sit[MJ_SIT_BONUS_SETS] = (seen_flower[0] && seen_flower[1] && seen_flower[2] && seen_flower[3]) +
                            (seen_flower[4] && seen_flower[5] && seen_flower[6] && seen_flower[7]);
    }
    sit[MJ_SIT_RIICHI] = riichi || double_riichi;
    sit[MJ_SIT_DOUBLE_RIICHI] = double_riichi;
    sit[MJ_SIT_DEALER] = dealer_given >= 0 ? dealer_given : sit[MJ_SIT_SEAT_WIND] == 0;

    PyObject *melds = PyTuple_New(n_melds);
    if (melds == NULL)
        goto done;
    for (int m = 0; m < n_melds; m++) {
        PyObject *item = Py_BuildValue("(iy#)", meld_type[m], (const char *)meld_tiles[m], (Py_ssize_t)meld_n[m]);
        if (item == NULL) {
            Py_DECREF(melds);
            goto done;
        }
        PyTuple_SET_ITEM(melds, m, item);
    }
    PyObject *situation = PyTuple_New(MJ_N_SITUATION);
    if (situation == NULL) {
        Py_DECREF(melds);
        goto done;
    }
    for (int i = 0; i < MJ_N_SITUATION; i++) {
        PyObject *x = PyLong_FromLongLong(sit[i]);
        if (x == NULL) {
            Py_DECREF(melds);
            Py_DECREF(situation);
            goto done;
        }
        PyTuple_SET_ITEM(situation, i, x);
    }
    result = Py_BuildValue("(y#NiON y#y#)", (const char *)concealed, (Py_ssize_t)n_concealed, melds, (int)win[0],
                           tsumo ? Py_True : Py_False, situation, (const char *)dora, (Py_ssize_t)n_dora,
                           (const char *)ura, (Py_ssize_t)n_ura);
    goto done;
none:
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&acc);
    return result;
}

static PyMethodDef methods[] = {
    {"pack", pack, METH_VARARGS,
     "pack(request, accepted, copies, max_count, meld_types, indicator_limit, contradictions): the native core's arguments for one scoring "
     "request, or None when the Python path must read it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_request", "Scoring requests read for the native core.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__request(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    PyObject *facts = PyTuple_New(N_FACTS);
    for (int i = 0; facts && i < N_FACTS; i++) {
        PyObject *name = PyUnicode_FromString(FACTS[i]);
        if (name == NULL)
            Py_CLEAR(facts);
        else
            PyTuple_SET_ITEM(facts, i, name);
    }
    if (facts == NULL || PyModule_AddObject(m, "FACTS", facts) < 0) {
        Py_XDECREF(facts);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
