/* batch.c: the line loop of `mjspec score --jsonl` (app/batch.py) in C, as `runtime._batch`.
 *
 * `answer(lines, start, profiles, prepare, max_depth)` walks `lines` (a list of the input's
 * lines, each bytes without its line end; app/batch.py request_blocks) from index `start` and
 * answers each line natively while it can: it reads the line's JSON, reads the request with
 * `runtime._request.pack`, scores it with `runtime._score.evaluate` and writes the answer line
 * byte for byte as app/batch.py writes runtime/native_contract.py `contract_line`'s answer
 * (`json.dumps(answer, ensure_ascii=False)`, a newline, UTF-8). It stops at the first line it
 * declines and returns `(answer bytes, index of that line)` (or `len(lines)`): the caller
 * answers that line by the Python path, in order, then calls again after it. So every error
 * text stays the Python path's, and the robustness guarantees of app/batch.py (oversize lines,
 * text that is not UTF-8, deep nesting, huge numbers) stay where they are tested.
 *
 * It declines whatever it is not certain the Python path would answer the same way:
 * - a line that is not an exact `bytes` (an oversize line, app/batch.py OversizeLine);
 * - JSON outside a strict subset whose reading by `json.loads` is certain: printable ASCII
 *   only, strings without escapes, integers of at most 18 digits without sign or fraction,
 *   true/false/null, no key twice in one object (json.loads keeps the last: the Python path
 *   decides), at most `max_depth` nested arrays and objects (app/batch.py MAX_DEPTH), JSON
 *   whitespace between tokens; anything else (NaN, floats, escapes, UTF-8, trailing data) is
 *   the Python path's to read or to refuse with its message;
 * - a line that is not an object, or whose "profile" is not a string;
 * - a profile `prepare(id)` answers None for (app/batch.py: unknown, or not native);
 * - a request `pack` declines (None), or the core leaves to Python (None);
 * - any Python exception on the way (it is cleared: the Python path meets it again and
 *   answers it as it answers every defect, on that line only).
 *
 * `profiles` is a dict the caller owns: profile id -> the tuple runtime/native_contract.py
 * `batch_profile` makes, or None; on a miss `prepare(id)` is called and its answer stored.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------- */
/* Output: a growing byte buffer                                                             */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    char *data;
    Py_ssize_t len, cap;
} out_t;

static int out_reserve(out_t *o, Py_ssize_t extra) {
    if (o->len + extra <= o->cap)
        return 0;
    Py_ssize_t cap = o->cap ? o->cap : 4096;
    while (cap < o->len + extra)
        cap *= 2;
    char *data = PyMem_Realloc(o->data, (size_t)cap);
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    o->data = data;
    o->cap = cap;
    return 0;
}

static int out_put(out_t *o, const char *s, Py_ssize_t n) {
    if (out_reserve(o, n) < 0)
        return -1;
    memcpy(o->data + o->len, s, (size_t)n);
    o->len += n;
    return 0;
}

#define OUT_LIT(o, s) out_put((o), (s), (Py_ssize_t)(sizeof(s) - 1))

/* An int as str(int) writes it; anything that is not an int within long long fails. */
static int out_int(out_t *o, PyObject *x) {
    if (!PyLong_CheckExact(x))
        return -1;
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred()))
        return -1;
    char buf[24];
    char *end = buf + sizeof buf, *p = end;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    return out_put(o, p, end - p);
}

static int out_bytes(out_t *o, PyObject *b) {
    if (!PyBytes_CheckExact(b))
        return -1;
    return out_put(o, PyBytes_AS_STRING(b), PyBytes_GET_SIZE(b));
}

/* ---------------------------------------------------------------------------------------- */
/* JSON: the strict subset above, read into the objects json.loads builds                   */
/* ---------------------------------------------------------------------------------------- */

typedef struct {
    const char *p, *end;
    int depth, max_depth;
} json_t;

static void skip_ws(json_t *j) {
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r'))
        j->p++;
}

/* NULL: declined (or an exception, which the caller clears). */
static PyObject *read_value(json_t *j);

/* The keys and words a request holds, made once (interned, their hashes kept): a line's keys are
 * these objects rather than new strings. */
static const char *const KNOWN[] = {
    "profile", "concealed", "melds", "win_tile", "win", "context", "type", "tiles", "from",
    "seat_wind", "round_wind", "dealer", "riichi", "double_riichi", "ippatsu", "honba",
    "riichi_sticks", "dealer_wins", "dora_indicators", "ura_indicators", "flowers", "missing_suit",
    "last_tile", "after_kong", "kong_shot", "robbing_kong", "first_draw", "fourth_tile",
    "original_call", "kong_upon_kong", "losing_hand", "options", "exhausted", "tsumo", "ron",
    "pon", "chi", "minkan", "kakan", "ankan", "E", "S", "W", "N",
};
#define N_KNOWN (sizeof KNOWN / sizeof KNOWN[0])
#define KNOWN_MAX_LEN 16
static PyObject *KNOWN_OBJ[N_KNOWN];
static PyObject *PROFILE_KEY;
/* KNOWN's indices by length and first letter (a line's strings are looked up in a few compares). */
static int8_t KNOWN_AT[KNOWN_MAX_LEN + 1][128][4];

static PyObject *known_text(const char *s, Py_ssize_t n) {
    if (n < 1 || n > KNOWN_MAX_LEN)
        return NULL;
    const int8_t *at = KNOWN_AT[n][(unsigned char)s[0] & 127];
    for (int i = 0; i < 4 && at[i] >= 0; i++)
        if (memcmp(KNOWN[at[i]], s, (size_t)n) == 0)
            return Py_NewRef(KNOWN_OBJ[at[i]]);
    return NULL;
}

static PyObject *read_string(json_t *j) {
    const char *start = ++j->p; /* past the opening quote */
    while (j->p < j->end) {
        unsigned char c = (unsigned char)*j->p;
        if (c == '"') {
            PyObject *s = known_text(start, j->p - start);
            if (s == NULL)
                s = PyUnicode_DecodeASCII(start, j->p - start, NULL);
            j->p++;
            return s;
        }
        if (c < 0x20 || c > 0x7e || c == '\\')
            return NULL; /* control characters, escapes and non-ASCII: the Python path reads them */
        j->p++;
    }
    return NULL;
}

static PyObject *read_int(json_t *j) {
    const char *start = j->p;
    long long v = 0;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
        if (j->p - start >= 18)
            return NULL; /* 19 digits and more: beyond what this reader is sure of */
        v = v * 10 + (*j->p - '0');
        j->p++;
    }
    if (j->p - start > 1 && *start == '0')
        return NULL; /* a leading zero: json.loads refuses it */
    return PyLong_FromLongLong(v);
}

static int literal(json_t *j, const char *word, Py_ssize_t n) {
    if (j->end - j->p < n || memcmp(j->p, word, (size_t)n) != 0)
        return 0;
    j->p += n;
    return 1;
}

static PyObject *read_object(json_t *j) {
    if (++j->depth > j->max_depth)
        return NULL;
    j->p++;
    PyObject *d = PyDict_New();
    if (d == NULL)
        return NULL;
    skip_ws(j);
    if (j->p < j->end && *j->p == '}') {
        j->p++;
        j->depth--;
        return d;
    }
    for (;;) {
        skip_ws(j);
        if (j->p >= j->end || *j->p != '"')
            goto fail;
        PyObject *key = read_string(j);
        if (key == NULL)
            goto fail;
        skip_ws(j);
        if (j->p >= j->end || *j->p != ':') {
            Py_DECREF(key);
            goto fail;
        }
        j->p++;
        skip_ws(j);
        PyObject *value = read_value(j);
        if (value == NULL) {
            Py_DECREF(key);
            goto fail;
        }
        PyObject *held = PyDict_SetDefault(d, key, value);
        int err = held != value; /* a key twice (json.loads keeps the last): declined; or an error */
        Py_DECREF(key);
        Py_DECREF(value);
        if (err)
            goto fail;
        skip_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == '}') {
            j->p++;
            j->depth--;
            return d;
        }
        goto fail;
    }
fail:
    Py_DECREF(d);
    return NULL;
}

static PyObject *read_array(json_t *j) {
    if (++j->depth > j->max_depth)
        return NULL;
    j->p++;
    PyObject *list = PyList_New(0);
    if (list == NULL)
        return NULL;
    skip_ws(j);
    if (j->p < j->end && *j->p == ']') {
        j->p++;
        j->depth--;
        return list;
    }
    for (;;) {
        skip_ws(j);
        PyObject *value = read_value(j);
        if (value == NULL)
            goto fail;
        int err = PyList_Append(list, value);
        Py_DECREF(value);
        if (err < 0)
            goto fail;
        skip_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == ']') {
            j->p++;
            j->depth--;
            return list;
        }
        goto fail;
    }
fail:
    Py_DECREF(list);
    return NULL;
}

static PyObject *read_value(json_t *j) {
    if (j->p >= j->end)
        return NULL;
    switch (*j->p) {
    case '{': return read_object(j);
    case '[': return read_array(j);
    case '"': return read_string(j);
    case 't': return literal(j, "true", 4) ? Py_NewRef(Py_True) : NULL;
    case 'f': return literal(j, "false", 5) ? Py_NewRef(Py_False) : NULL;
    case 'n': return literal(j, "null", 4) ? Py_NewRef(Py_None) : NULL;
    default:
        if (*j->p >= '0' && *j->p <= '9')
            return read_int(j);
        return NULL; /* a sign, NaN, Infinity, anything else: the Python path */
    }
}

/* The request object of one line, or NULL (declined). */
static PyObject *read_request(const char *s, Py_ssize_t n, int max_depth) {
    json_t j = {s, s + n, 0, max_depth};
    skip_ws(&j);
    if (j.p >= j.end || *j.p != '{')
        return NULL; /* not an object (or empty): the Python path says so */
    PyObject *raw = read_object(&j);
    if (raw == NULL)
        return NULL;
    skip_ws(&j);
    if (j.p != j.end) {
        Py_DECREF(raw);
        return NULL; /* trailing data: json.loads refuses it */
    }
    return raw;
}

/* ---------------------------------------------------------------------------------------- */
/* One line answered                                                                        */
/* ---------------------------------------------------------------------------------------- */

/* runtime/native_contract.py batch_profile's tuple. */
enum { P_PACK, P_PACK_ARGS, P_EVALUATE, P_CAPSULE, P_OPTIONS, P_FRAGMENTS, P_TEXTS, P_TEXT, P_SIZE };

/* A str of the core's answer as its JSON text (UTF-8 bytes), through the profile's cache. */
static PyObject *json_text(PyObject *prof, PyObject *s) {
    PyObject *texts = PyTuple_GET_ITEM(prof, P_TEXTS);
    PyObject *known = PyDict_GetItemWithError(texts, s);
    if (known != NULL)
        return Py_NewRef(known);
    if (PyErr_Occurred())
        return NULL;
    PyObject *text = PyObject_CallOneArg(PyTuple_GET_ITEM(prof, P_TEXT), s);
    if (text == NULL)
        return NULL;
    PyObject *encoded = PyUnicode_Check(text) ? PyUnicode_AsUTF8String(text) : NULL;
    Py_DECREF(text);
    if (encoded == NULL)
        return NULL;
    if (PyDict_GET_SIZE(texts) < 4096 && PyDict_SetItem(texts, s, encoded) < 0) {
        Py_DECREF(encoded);
        return NULL;
    }
    return encoded;
}

/* The profile's tuple for `raw["profile"]`, borrowed, or NULL (declined). */
static PyObject *profile_of(PyObject *raw, PyObject *profiles, PyObject *prepare) {
    PyObject *id = PyDict_GetItemWithError(raw, PROFILE_KEY);
    if (id == NULL || !PyUnicode_CheckExact(id))
        return NULL;
    PyObject *prof = PyDict_GetItemWithError(profiles, id);
    if (prof == NULL) {
        if (PyErr_Occurred())
            return NULL;
        PyObject *made = PyObject_CallOneArg(prepare, id);
        if (made == NULL)
            return NULL;
        int err = PyDict_SetItem(profiles, id, made);
        Py_DECREF(made);
        if (err < 0)
            return NULL;
        prof = PyDict_GetItemWithError(profiles, id);
        if (prof == NULL)
            return NULL;
    }
    if (!PyTuple_CheckExact(prof) || PyTuple_GET_SIZE(prof) != P_SIZE)
        return NULL; /* None: the Python path answers this profile */
    return prof;
}

/* The core's answer tuple for `raw`, or NULL (declined). */
static PyObject *scored(PyObject *prof, PyObject *raw) {
    PyObject *tail = PyTuple_GET_ITEM(prof, P_PACK_ARGS);
    if (!PyTuple_CheckExact(tail) || PyTuple_GET_SIZE(tail) != 6)
        return NULL;
    PyObject *args[9];
    args[0] = raw;
    for (int i = 0; i < 6; i++)
        args[1 + i] = PyTuple_GET_ITEM(tail, i);
    PyObject *packed = PyObject_Vectorcall(PyTuple_GET_ITEM(prof, P_PACK), args, 7, NULL);
    if (packed == NULL)
        return NULL;
    if (!PyTuple_CheckExact(packed) || PyTuple_GET_SIZE(packed) != 7) {
        Py_DECREF(packed); /* None: the Python path reads this request */
        return NULL;
    }
    args[0] = PyTuple_GET_ITEM(prof, P_CAPSULE);
    for (int i = 0; i < 7; i++)
        args[1 + i] = PyTuple_GET_ITEM(packed, i);
    args[8] = PyTuple_GET_ITEM(prof, P_OPTIONS);
    PyObject *out = PyObject_Vectorcall(PyTuple_GET_ITEM(prof, P_EVALUATE), args, 9, NULL);
    Py_DECREF(packed);
    if (out == NULL)
        return NULL;
    if (!PyTuple_CheckExact(out) || PyTuple_GET_SIZE(out) != 10) {
        Py_DECREF(out); /* None: the core leaves this hand to Python */
        return NULL;
    }
    return out;
}

/* Write the answer to `out` as runtime/native_contract.py contract_line writes it; -1: declined. */
static int write_answer(out_t *o, PyObject *prof, PyObject *res) {
    PyObject *legal = PyTuple_GET_ITEM(res, 0), *reason = PyTuple_GET_ITEM(res, 1);
    PyObject *patterns = PyTuple_GET_ITEM(res, 2), *total = PyTuple_GET_ITEM(res, 3);
    PyObject *fu = PyTuple_GET_ITEM(res, 5), *payments = PyTuple_GET_ITEM(res, 6);
    PyObject *limit = PyTuple_GET_ITEM(res, 7), *value = PyTuple_GET_ITEM(res, 9);
    PyObject *frags = PyTuple_GET_ITEM(prof, P_FRAGMENTS);
    if (!PyTuple_CheckExact(patterns) || !PyTuple_CheckExact(payments) || !PyTuple_CheckExact(frags))
        return -1;
    if (legal == Py_True) {
        if (OUT_LIT(o, "{\"legal\": true") < 0)
            return -1;
    } else if (legal == Py_False) {
        /* reason or "not a legal win" */
        PyObject *why = reason;
        if (why == Py_None || (PyUnicode_Check(why) && PyUnicode_GET_LENGTH(why) == 0))
            why = NULL;
        else if (!PyUnicode_CheckExact(why))
            return -1;
        PyObject *text;
        if (why == NULL) {
            PyObject *fallback = PyUnicode_FromString("not a legal win");
            if (fallback == NULL)
                return -1;
            text = json_text(prof, fallback);
            Py_DECREF(fallback);
        } else {
            text = json_text(prof, why);
        }
        if (text == NULL)
            return -1;
        int err = OUT_LIT(o, "{\"legal\": false, \"reason\": ") < 0 || out_bytes(o, text) < 0;
        Py_DECREF(text);
        if (err)
            return -1;
    } else {
        return -1;
    }
    if (OUT_LIT(o, ", \"patterns\": [") < 0)
        return -1;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(patterns); k++) {
        PyObject *p = PyTuple_GET_ITEM(patterns, k);
        if (!PyTuple_CheckExact(p) || PyTuple_GET_SIZE(p) != 3)
            return -1;
        Py_ssize_t i = PyLong_AsSsize_t(PyTuple_GET_ITEM(p, 0));
        if (i < 0 || i >= PyTuple_GET_SIZE(frags))
            return -1;
        if ((k && OUT_LIT(o, ", ") < 0) || out_bytes(o, PyTuple_GET_ITEM(frags, i)) < 0 ||
            out_int(o, PyTuple_GET_ITEM(p, 1)) < 0 || OUT_LIT(o, ", \"count\": ") < 0 ||
            out_int(o, PyTuple_GET_ITEM(p, 2)) < 0 || OUT_LIT(o, "}") < 0)
            return -1;
    }
    /* As Score.to_contract: a profile with a hand value states a limit hand by its value alone. */
    if (OUT_LIT(o, "], \"total\": ") < 0)
        return -1;
    int hidden = (value != Py_None && PyObject_IsTrue(limit) == 1) || total == Py_None;
    if (hidden ? OUT_LIT(o, "null") < 0 : out_int(o, total) < 0)
        return -1;
    if (OUT_LIT(o, ", \"fu\": ") < 0 || (fu == Py_None ? OUT_LIT(o, "null") : out_int(o, fu)) < 0 ||
        OUT_LIT(o, ", \"payments\": {") < 0)
        return -1;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(payments); k++) {
        PyObject *p = PyTuple_GET_ITEM(payments, k);
        if (!PyTuple_CheckExact(p) || PyTuple_GET_SIZE(p) != 2 || !PyUnicode_CheckExact(PyTuple_GET_ITEM(p, 0)))
            return -1;
        PyObject *role = json_text(prof, PyTuple_GET_ITEM(p, 0));
        if (role == NULL)
            return -1;
        int err = (k && OUT_LIT(o, ", ") < 0) || out_bytes(o, role) < 0 || OUT_LIT(o, ": ") < 0 ||
                  out_int(o, PyTuple_GET_ITEM(p, 1)) < 0;
        Py_DECREF(role);
        if (err)
            return -1;
    }
    if (value == Py_None)
        return OUT_LIT(o, "}}\n");
    if (OUT_LIT(o, "}, \"score\": ") < 0 || out_int(o, value) < 0)
        return -1;
    return OUT_LIT(o, "}\n");
}

/* Answer one line into `o`; 0 answered, -1 declined (the buffer is left as it was). */
static int answer_line(out_t *o, PyObject *line, PyObject *profiles, PyObject *prepare, int max_depth) {
    if (!PyBytes_CheckExact(line))
        return -1; /* an oversize line: app/batch.py answers it */
    PyObject *raw = read_request(PyBytes_AS_STRING(line), PyBytes_GET_SIZE(line), max_depth);
    if (raw == NULL)
        return -1;
    int ret = -1;
    PyObject *prof = profile_of(raw, profiles, prepare);
    if (prof != NULL) {
        Py_INCREF(prof); /* the dict's entry could be replaced by a call below */
        PyObject *res = scored(prof, raw);
        if (res != NULL) {
            Py_ssize_t mark = o->len;
            ret = write_answer(o, prof, res);
            if (ret < 0)
                o->len = mark;
            Py_DECREF(res);
        }
        Py_DECREF(prof);
    }
    Py_DECREF(raw);
    return ret;
}

static PyObject *py_answer(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *lines, *profiles, *prepare;
    Py_ssize_t start;
    int max_depth;
    if (!PyArg_ParseTuple(args, "O!nO!Oi", &PyList_Type, &lines, &start, &PyDict_Type, &profiles, &prepare,
                          &max_depth))
        return NULL;
    out_t o = {NULL, 0, 0};
    Py_ssize_t i = start < 0 ? 0 : start;
    for (; i < PyList_GET_SIZE(lines); i++) {
        PyObject *line = PyList_GET_ITEM(lines, i);
        Py_INCREF(line);
        int ret = answer_line(&o, line, profiles, prepare, max_depth);
        Py_DECREF(line);
        if (ret < 0) {
            if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) { /* Ctrl-C is the user's, not the line's */
                PyMem_Free(o.data);
                return NULL;
            }
            PyErr_Clear();
            break;
        }
    }
    PyObject *data = PyBytes_FromStringAndSize(o.data ? o.data : "", o.len);
    PyMem_Free(o.data);
    if (data == NULL)
        return NULL;
    return Py_BuildValue("(Nn)", data, i);
}

static PyMethodDef methods[] = {
    {"answer", py_answer, METH_VARARGS,
     "answer(lines, start, profiles, prepare, max_depth) -> (bytes, index): the answer lines of lines[start:] "
     "up to the first line the Python path must answer (its index, or len(lines))."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_batch", "The line loop of `mjspec score --jsonl`, in C.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__batch(void) {
    memset(KNOWN_AT, -1, sizeof KNOWN_AT);
    for (size_t k = 0; k < N_KNOWN; k++) {
        KNOWN_OBJ[k] = PyUnicode_InternFromString(KNOWN[k]);
        if (KNOWN_OBJ[k] == NULL)
            return NULL;
        size_t n = strlen(KNOWN[k]);
        int8_t *at = KNOWN_AT[n][(unsigned char)KNOWN[k][0] & 127];
        int i = 0;
        while (i < 4 && at[i] >= 0)
            i++;
        if (i < 4) /* KNOWN holds at most 2 words of one length and first letter; a fifth would be made anew */
            at[i] = (int8_t)k;
    }
    PROFILE_KEY = KNOWN_OBJ[0];
    return PyModule_Create(&module);
}
