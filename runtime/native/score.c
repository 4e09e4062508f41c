/* score.c: the native scoring core (mjspec.runtime._score), written once for every profile.
 *
 * It reproduces runtime/scoring.py:_evaluate over the tables of a generated profile module
 * (mjscore.h): the arrangements in the order of runtime/shapes.py:arrangements(), the view of
 * each reading, requirements, pattern hits, scoring.py:apply_relations, the minimum, point
 * items, payments (compute_payments), the cap and _preference_key, combination patterns
 * included. Wherever it does not support something (a limit hand under limit_hands_counted in
 * force, an expression that set `overflow`, a value beyond int64, more readings than its
 * buffers hold, more than four copies of a kind) it answers None, and the caller lets the
 * Python engine answer: the core never gives a different answer, only none.
 *
 * evaluate(profile, concealed, melds, win, tsumo, situation, dora, ura, options)
 *   profile    PyCapsule "mjspec.native_profile" holding a const mj_profile *
 *   concealed  bytes: tile codes (kind * 2 + red) without the winning tile, in hand order
 *   melds      tuple of (MJ_MELD_* code, bytes of tile codes)
 *   win        int: the winning tile's code
 *   tsumo      bool
 *   situation  tuple of SITUATION_FIELDS ints, slot by slot as mjsituation.h numbers them
 *              (runtime/context.py SITUATION; runtime/native_score.py packs it): riichi is
 *              already `riichi or double_riichi`, dealer WinContext.is_dealer, the winds
 *              MJ_WIND_*, missing_suit MJ_SUIT_* or MJ_NONE, only_wait and only_live_wait 1/0,
 *              or -1 when the profile reads neither
 *   dora, ura  bytes: indicator tile codes
 *   options    bytes: 3 native int64 per declared option (value or points, doubles, limit)
 * -> (legal, reason, patterns, total, capped, fu, payments, limit, point_items, value) or None
 *    patterns: ((pattern index, value, count), ...) in Python's order
 *    payments: ((role, amount), ...) in Python's dict order
 *    point_items: ((item index, value), ...)
 *
 * scorer(profile, tiles, copies, options, build, meld_types, indicator_limit, red_suits,
 *        contradictions, refuse, known) -> PyCapsule "mjspec.native_scorer": what score_hand needs to know
 *        of one profile object, learnt once (runtime/native_score.py _scorer builds it)
 *   tiles           84 bytes by tile code: TILE_HAND (1) when the tile may stand in a hand or
 *                   indicate one (scoring.py _accepted), TILE_FLOWER (2) for a flower of the set
 *   copies          TileSet.copies; options as evaluate's
 *   build           (Score, ScoredPattern, ScoredPoints, patterns, items): see parse_builder
 *   meld_types      bits 1 << MJ_MELD_* of the melds the profile's calls allow (situation.py missing_call)
 *   indicator_limit situation.py indicator_limit; red_suits: bits 1 << MJ_SUIT_* with a red five
 *   contradictions  ((mask, reason), ...): situation.py CONTRADICTIONS, each row's facts as bits
 *                   over FACTS (this module's tuple of the fact names it reads)
 *   refuse          situation.py impossible_win, asked for the words of the refusals this core
 *                   detects but does not word (missing_call, too_many_copies)
 *   known           the Tile objects runtime/tiles.py parsing hands out, known by identity after
 *                   (any other Tile is read by its slots)
 * score_hand(scorer, profile, hand, ctx) -> the Score scoring.py evaluate answers (arrangement
 *   None), refusals included; None: the Python engine answers; NotImplemented: this reader is not
 *   certain of the request (a hand check_hand might refuse, a value of an unexpected type, a text
 *   it does not read plainly, options, a losing hand) and the glue's general path answers. It
 *   reads the WinningHand and the WinContext itself (slots), the texts of the flowers,
 *   indicators and exhausted kinds included, and builds the Score objects.
 * check_tiles(concealed, melds, win, accepted, copies): whether check_hand certainly accepts
 * only_wait(counts, n_melds, win_kind, shape flags...): the formal single-wait test
 * profile_info(profile): the ids and counts the glue checks against the Python profile
 *
 * only_wait is computed here (shapes.py is_only_wait's answer) when the profile reads it and
 * the caller passes -1; only_live_wait likewise, the kinds score_hand read from context.exhausted
 * left out of the waits (evaluate passes none: its caller computes only_live_wait then).
 *
 * arrangements(counts, melds, win_kind, standard, seven_pairs, allow_four, thirteen_orphans, knitted)
 *   counts: bytes(34), the concealed counts with the winning tile; win_kind -1 for None
 * -> [(shape, ((kind, tile, concealed, meld), ...), win_group or None, wait), ...]
 *    (MJ_SHAPE_*, MJ_GK_*, MJ_MELD_* or -1, MJ_WAIT_*), exactly shapes.py's list.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stddef.h>
#include <structmember.h> /* T_OBJECT_EX: a slot's member type */
#include <string.h>

#include "mjscore.h"

#define N_KINDS 34
#define SITUATION_FIELDS MJ_N_SITUATION
#define MAX_SUIT_WAYS 64   /* distinct decompositions of one suit's tiles (far fewer occur) */
#define MAX_READINGS 256   /* complete readings of one hand */
#define MAX_ARRS 1024      /* arrangements of one hand (readings x distinct winning groups) */
#define MAX_ITEMS 64       /* point items of a profile */
#define MAX_ROLES 16       /* payer roles of a profile */
#define MAX_VALUES 16      /* named payment values (mj_pay.named) */
#define MAX_HITS 1024      /* hits of one reading, combination occurrences included */

/* ------------------------------------------------------------------------------------------ */
/* Tiles and groups                                                                            */
/* ------------------------------------------------------------------------------------------ */

static mj_tile TILES[2 * N_KINDS]; /* by code kind * 2 + red */

static int is_toh(int kind) { return kind >= 27 || kind % 9 == 0 || kind % 9 == 8; }

static void fill_tile(mj_tile *t, int kind, int red) {
    t->kind = (uint8_t)kind;
    t->red = (uint8_t)red;
    t->suit = (int8_t)(kind < 27 ? kind / 9 : MJ_SUIT_Z);
    t->number = (int8_t)(kind < 27 ? kind % 9 + 1 : kind - 27 + 1);
    t->is_suited = kind < 27;
    t->is_honor = kind >= 27;
    t->is_wind = kind >= 27 && kind < 31;
    t->is_dragon = kind >= 31;
    t->is_terminal = kind < 27 && (kind % 9 == 0 || kind % 9 == 8);
    t->is_terminal_or_honor = t->is_terminal || t->is_honor;
}

/* Offsets each group kind covers (runtime/hand.py _OFFSETS). */
static const int OFFSETS[6][4] = {{0, 1, 2, -1}, {0, 0, 0, -1}, {0, 0, 0, 0}, {0, 0, -1, -1}, {0, 3, 6, -1}, {0, -1, -1, -1}};

static void fill_group(mj_group *g, int kind, int tile, int concealed, int meld) {
    memset(g, 0, sizeof *g);
    g->kind = (int8_t)kind;
    g->tile = (uint8_t)tile;
    g->suit = (int8_t)(tile < 27 ? tile / 9 : MJ_SUIT_Z);
    g->number = (int8_t)(tile < 27 ? tile % 9 + 1 : tile - 27 + 1);
    g->meld = (int8_t)meld;
    g->wind = (int8_t)(tile >= 27 && tile < 31 ? tile - 27 : MJ_NONE);
    g->concealed = (uint8_t)concealed;
    g->is_triplet = kind == MJ_GK_TRIPLET || kind == MJ_GK_KONG;
    g->is_kong = kind == MJ_GK_KONG;
    g->is_claimed_kong = meld == MJ_MELD_MINKAN; /* hand.py: self.meld is MeldType.MINKAN */
    g->is_sequence = kind == MJ_GK_SEQUENCE;
    g->is_pair = kind == MJ_GK_PAIR;
    g->is_honor = tile >= 27;
    g->is_wind = tile >= 27 && tile < 31;
    g->is_dragon = tile >= 31;
    int any = 0, all = 1;
    for (int i = 0; i < 4 && OFFSETS[kind][i] >= 0; i++) {
        int t = is_toh(tile + OFFSETS[kind][i]);
        any |= t;
        all &= t;
    }
    g->has_terminal_or_honor = (uint8_t)any;
    g->is_terminal_or_honor_group = (uint8_t)all;
}

/* One concealed group per (kind, tile), shared like shapes.py _concealed_group: equal concealed
 * groups of a reading are then one object, so comparing pointers is Python's `is`. */
static mj_group CONCEALED[6][N_KINDS];

static const mj_group *cg(int kind, int tile) { return &CONCEALED[kind][tile]; }

/* The group of each meld type (MJ_MELD_*) from each lowest kind, made once: a declared meld's
 * group is copied from here (fill_group works out its flags once, not per request). */
static mj_group MELDED[5][N_KINDS];

static int covers(const mj_group *g, int kind) {
    for (int i = 0; i < 4 && OFFSETS[g->kind][i] >= 0; i++)
        if (g->tile + OFFSETS[g->kind][i] == kind) return 1;
    return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Arrangements (runtime/shapes.py)                                                            */
/* ------------------------------------------------------------------------------------------ */

/* A suit's decomposition: group codes off * 8 + rank (GroupKind order), sorted; so comparing
 * the code bytes orders decompositions as Python orders its tuples of (offset, rank). */
typedef struct {
    uint8_t n;
    uint8_t code[6];
} suit_way;

typedef struct {
    suit_way ways[2][MAX_SUIT_WAYS]; /* [0] sets alone, [1] sets plus one pair */
    int n[2];
    int overflow;
} suit_ways;

typedef struct {
    int shape;
    int n; /* concealed groups */
    const mj_group *g[MJ_MAX_GROUPS];
} reading_t;

typedef struct {
    int shape;
    int reading;   /* index into the readings */
    int win_group; /* index into melds + reading groups, -1: none */
    int wait;
} arr_t;

typedef struct {
    reading_t readings[MAX_READINGS];
    int n_readings;
    arr_t arrs[MAX_ARRS];
    int n_arrs;
    int overflow; /* more than the buffers hold: the caller answers None */
} enum_t;

static void add_way(suit_ways *w, int pair_used, const uint8_t *acc, int n) {
    suit_way way;
    way.n = (uint8_t)n;
    memcpy(way.code, acc, (size_t)n);
    for (int i = 1; i < n; i++) { /* sorted(acc) */
        uint8_t x = way.code[i];
        int j = i - 1;
        while (j >= 0 && way.code[j] > x) {
            way.code[j + 1] = way.code[j];
            j--;
        }
        way.code[j + 1] = x;
    }
    int *cnt = &w->n[pair_used];
    for (int i = 0; i < *cnt; i++) /* a set of sorted tuples: different orders reach one multiset */
        if (w->ways[pair_used][i].n == n && memcmp(w->ways[pair_used][i].code, way.code, (size_t)n) == 0) return;
    if (*cnt >= MAX_SUIT_WAYS) {
        w->overflow = 1;
        return;
    }
    w->ways[pair_used][(*cnt)++] = way;
}

/* shapes.py _suit_decompositions.walk: every group holding the lowest remaining tile starts there. */
static void walk(suit_ways *w, int *c, int n, int honors, int i, int pair_used, uint8_t *acc, int depth) {
    while (i < n && c[i] == 0) i++;
    if (i == n) {
        add_way(w, pair_used, acc, depth);
        return;
    }
    if (depth >= 6) return; /* cannot happen with at most 14 tiles; guards acc */
    if (c[i] >= 3) {
        c[i] -= 3;
        acc[depth] = (uint8_t)(i * 8 + MJ_GK_TRIPLET);
        walk(w, c, n, honors, i, pair_used, acc, depth + 1);
        c[i] += 3;
    }
    if (!honors && i + 2 < n && c[i + 1] && c[i + 2]) {
        c[i]--, c[i + 1]--, c[i + 2]--;
        acc[depth] = (uint8_t)(i * 8 + MJ_GK_SEQUENCE);
        walk(w, c, n, honors, i, pair_used, acc, depth + 1);
        c[i]++, c[i + 1]++, c[i + 2]++;
    }
    if (!pair_used && c[i] >= 2) {
        c[i] -= 2;
        acc[depth] = (uint8_t)(i * 8 + MJ_GK_PAIR);
        walk(w, c, n, honors, i, 1, acc, depth + 1);
        c[i] += 2;
    }
}

static int way_cmp(const suit_way *a, const suit_way *b) {
    int n = a->n < b->n ? a->n : b->n;
    int r = memcmp(a->code, b->code, (size_t)n);
    if (r) return r;
    return (int)a->n - (int)b->n;
}

static void suit_decompositions(suit_ways *w, const uint8_t *counts, int base, int n) {
    int c[9], total = 0;
    uint8_t acc[6];
    w->n[0] = w->n[1] = 0;
    w->overflow = 0;
    for (int i = 0; i < n; i++) {
        c[i] = counts[base + i];
        total += c[i];
    }
    if (total % 3 != 1) walk(w, c, n, base == 27, 0, 0, acc, 0);
    for (int p = 0; p < 2; p++) /* sorted(ways) */
        for (int i = 1; i < w->n[p]; i++) {
            suit_way x = w->ways[p][i];
            int j = i - 1;
            while (j >= 0 && way_cmp(&w->ways[p][j], &x) > 0) {
                w->ways[p][j + 1] = w->ways[p][j];
                j--;
            }
            w->ways[p][j + 1] = x;
        }
}

static const int SUIT_BASE[4] = {0, 9, 18, 27};
static const int SUIT_SIZE[4] = {9, 9, 9, 7};

/* ------------------------------------------------------------------------------------------ */
/* Per-suit tables, filled as vectors are first met                                            */
/* ------------------------------------------------------------------------------------------ */

/* The three suits and the honors never share a group, so what a hand's tiles split into is
 * decided suit by suit, and a suit's tiles as a vector of counts (0..4 each) read as a base-5
 * number index these tables:
 *   - FLAG_SUIT / FLAG_HONOR: suit_flag's answer plus one (0: not yet known), worked out on first
 *     use from the flags of smaller vectors (the lowest tile starts a triplet, a sequence or the
 *     pair), so a vector costs a few lookups once and one lookup after. They are zero-filled
 *     static arrays: the pages of the 2 million suit vectors a process never meets are never
 *     touched.
 *   - the decompositions of each complete vector met (suit_decompositions' sorted ways, the only
 *     nonempty half of the two), kept in WAYS_POOL and found through WAYS_INDEX.
 * Vectors of more than 14 tiles or a count above four (a formal wait on a kind whose every copy
 * is held) are worked out each time by the functions below, as before. */
#define SUIT_VECTORS 1953125u /* 5^9 */
#define HONOR_VECTORS 78125u  /* 5^7 */
static const uint32_t POW5[10] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125};
static uint8_t FLAG_SUIT[SUIT_VECTORS];
static uint8_t FLAG_HONOR[HONOR_VECTORS];

/* The flag (suit_flag's 0, 1, 2) of vector idx of n kinds (9, or 7 for the honors). */
static int vector_flag(uint32_t idx, int n) {
    uint8_t *tab = n == 9 ? FLAG_SUIT : FLAG_HONOR;
    if (tab[idx]) return tab[idx] - 1;
    int flag = 2;
    if (idx == 0) flag = 0;
    else {
        uint32_t rest = idx;
        int i = 0;
        while (rest % 5 == 0) rest /= 5, i++;
        int x = (int)(rest % 5), d1 = (int)(rest / 5 % 5), d2 = (int)(rest / 25 % 5);
        int sets = 0, pair = 0;
        if (x >= 3) { /* a triplet: what is left keeps its flag */
            int f = vector_flag(idx - 3 * POW5[i], n);
            sets |= f == 0, pair |= f == 1;
        }
        if (n == 9 && i + 2 < n && d1 && d2) { /* a sequence */
            int f = vector_flag(idx - POW5[i] - POW5[i + 1] - POW5[i + 2], n);
            sets |= f == 0, pair |= f == 1;
        }
        if (x >= 2 && vector_flag(idx - 2 * POW5[i], n) == 0) pair = 1; /* the pair */
        flag = sets ? 0 : pair ? 1 : 2;
    }
    tab[idx] = (uint8_t)(flag + 1);
    return flag;
}

/* The index of suit s of `counts` and its number of tiles; -1 when a count is above four. */
static int64_t vector_index(const uint8_t *counts, int s, int *total) {
    /* written out for the two sizes (every hand asks it of each suit, the formal waits again) */
    const uint8_t *c = counts + SUIT_BASE[s];
    uint32_t idx = 0;
    int t = 0, over = 0;
#define DIGIT(i) (idx = idx * 5 + (uint32_t)c[i], t += c[i], over |= c[i] > 4)
    if (s < 3) {
        DIGIT(8), DIGIT(7);
    }
    DIGIT(6), DIGIT(5), DIGIT(4), DIGIT(3), DIGIT(2), DIGIT(1), DIGIT(0);
#undef DIGIT
    if (over) return -1;
    *total = t;
    return idx;
}

/* The decompositions of the complete vectors met, kept in chunks that never move (a pointer
 * handed out stays good while later vectors are added), found by an open-addressed index keyed
 * by the vector (honors apart). When either is full, vectors are decomposed each time. */
#define WAYS_SLOTS (1u << 16)
#define WAYS_CHUNK 4096u /* ways per chunk: above MAX_SUIT_WAYS, so one vector's fit in one chunk */
#define WAYS_CHUNKS 64
typedef struct {
    uint32_t key; /* 0: empty; else 1 + vector index, honors offset by SUIT_VECTORS */
    uint16_t n;
    const suit_way *ways;
} ways_slot;
static ways_slot WAYS_INDEX[WAYS_SLOTS];
static uint32_t WAYS_FILLED;
static suit_way *WAYS_POOL[WAYS_CHUNKS];
static uint32_t WAYS_CHUNKS_USED, WAYS_USED; /* WAYS_USED: of the last chunk */

/* The sorted decompositions of suit s of `counts` (suit_decompositions' nonempty half: `*half` is
 * 1 when they hold the pair, 0 when sets alone), into *ways; their number, or -1 when there are
 * more than MAX_SUIT_WAYS. `scratch` holds them when they are not kept. */
static int suit_ways_of(const uint8_t *counts, int s, const suit_way **ways, int *half, suit_ways *scratch) {
    int total, n = SUIT_SIZE[s];
    int64_t idx = vector_index(counts, s, &total);
    *half = total % 3 == 2;
    if (idx >= 0 && total <= 14) {
        if (vector_flag((uint32_t)idx, n) == 2) {
            *ways = NULL;
            return 0; /* neither sets nor sets and a pair: no decomposition */
        }
        uint32_t key = 1 + (uint32_t)idx + (n == 9 ? 0 : SUIT_VECTORS);
        uint32_t h = (key * 2654435761u) >> 16;
        for (;; h = (h + 1) & (WAYS_SLOTS - 1)) {
            if (WAYS_INDEX[h].key == key) {
                *ways = WAYS_INDEX[h].ways;
                return WAYS_INDEX[h].n;
            }
            if (!WAYS_INDEX[h].key) break;
        }
        suit_decompositions(scratch, counts, SUIT_BASE[s], n);
        if (scratch->overflow) return -1;
        int got = scratch->n[*half];
        *ways = scratch->ways[*half];
        if (WAYS_FILLED >= WAYS_SLOTS / 4 * 3) return got;
        if (!WAYS_CHUNKS_USED || WAYS_USED + (uint32_t)got > WAYS_CHUNK) {
            if (WAYS_CHUNKS_USED == WAYS_CHUNKS) return got;
            suit_way *chunk = malloc(WAYS_CHUNK * sizeof *chunk);
            if (!chunk) return got;
            WAYS_POOL[WAYS_CHUNKS_USED++] = chunk;
            WAYS_USED = 0;
        }
        suit_way *kept = WAYS_POOL[WAYS_CHUNKS_USED - 1] + WAYS_USED;
        memcpy(kept, scratch->ways[*half], (size_t)got * sizeof *kept);
        WAYS_USED += (uint32_t)got;
        WAYS_INDEX[h] = (ways_slot){key, (uint16_t)got, kept};
        WAYS_FILLED++;
        *ways = kept;
        return got;
    }
    suit_decompositions(scratch, counts, SUIT_BASE[s], n);
    if (scratch->overflow) return -1;
    *ways = scratch->ways[*half];
    return scratch->n[*half];
}

static reading_t *new_reading(enum_t *e, int shape) {
    if (e->n_readings >= MAX_READINGS) {
        e->overflow = 1;
        return NULL;
    }
    reading_t *r = &e->readings[e->n_readings++];
    r->shape = shape;
    r->n = 0;
    return r;
}

static int push_group(enum_t *e, reading_t *r, const mj_group *g) {
    if (r->n >= MJ_MAX_GROUPS) {
        e->overflow = 1;
        return 0;
    }
    r->g[r->n++] = g;
    return 1;
}

/* shapes.py _standard_readings: the pair in one suit, sets elsewhere; itertools.product order.
 * Each reading is prefixed by `prefix` (the knitted groups) and then sorted when `sort` is set. */
static suit_ways SW[4]; /* scratch: the core runs under the GIL and never re-enters itself */

static int group_key_cmp(const mj_group *a, const mj_group *b) {
    if (a->tile != b->tile) return (int)a->tile - (int)b->tile;
    return (int)a->kind - (int)b->kind;
}

static void standard_readings(enum_t *e, const uint8_t *counts, int shape, const mj_group *const *prefix, int n_prefix) {
    const suit_way *ways[4];
    int n_ways[4], half[4];
    for (int s = 0; s < 4; s++) {
        n_ways[s] = suit_ways_of(counts, s, &ways[s], &half[s], &SW[s]);
        if (n_ways[s] < 0) {
            e->overflow = 1;
            return;
        }
    }
    for (int pair_suit = 0; pair_suit < 4; pair_suit++) {
        int len[4], idx[4] = {0, 0, 0, 0}, ok = 1;
        for (int j = 0; j < 4; j++) {
            len[j] = half[j] == (j == pair_suit) ? n_ways[j] : 0;
            if (!len[j]) ok = 0;
        }
        if (!ok) continue;
        for (;;) {
            reading_t *r = new_reading(e, shape);
            if (!r) return;
            for (int k = 0; k < n_prefix; k++)
                if (!push_group(e, r, prefix[k])) return;
            for (int j = 0; j < 4; j++) {
                const suit_way *w = &ways[j][idx[j]];
                for (int k = 0; k < w->n; k++)
                    if (!push_group(e, r, cg(w->code[k] & 7, SUIT_BASE[j] + (w->code[k] >> 3)))) return;
            }
            if (n_prefix) /* sorted(knitted + reading, key=_group_key): stable insertion sort */
                for (int a = 1; a < r->n; a++) {
                    const mj_group *x = r->g[a];
                    int b = a - 1;
                    while (b >= 0 && group_key_cmp(r->g[b], x) > 0) {
                        r->g[b + 1] = r->g[b];
                        b--;
                    }
                    r->g[b + 1] = x;
                }
            int j = 3; /* itertools.product: the last suit varies fastest */
            while (j >= 0) {
                if (++idx[j] < len[j]) break;
                idx[j] = 0;
                j--;
            }
            if (j < 0) break;
        }
    }
}

static int seven_pairs_complete(const uint8_t *c, int allow_four) {
    for (int k = 0; k < N_KINDS; k++) {
        if (c[k] == 1 || c[k] == 3) return 0;
        if (c[k] > (allow_four ? 4 : 2)) return 0;
    }
    return 1;
}

static const int ORPHANS[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};

static int thirteen_orphans_complete(const uint8_t *c) {
    int sum = 0;
    for (int i = 0; i < 13; i++) {
        if (!c[ORPHANS[i]]) return 0;
        sum += c[ORPHANS[i]];
    }
    return sum == 14;
}

/* itertools.permutations(range(3)) order: suit of 1-4-7, of 2-5-8, of 3-6-9. */
static const int PERMS[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
/* The nine kinds of knitted straight p: tile j is 9 * PERMS[p][j / 3] + j / 3 + 3 * (j % 3)
 * (1-4-7 in the first suit of the permutation, 2-5-8 in the second, 3-6-9 in the third). */
static const uint8_t KNITTED[6][9] = {
    {0, 3, 6, 10, 13, 16, 20, 23, 26}, {0, 3, 6, 19, 22, 25, 11, 14, 17}, {9, 12, 15, 1, 4, 7, 20, 23, 26},
    {9, 12, 15, 19, 22, 25, 2, 5, 8},  {18, 21, 24, 1, 4, 7, 11, 14, 17}, {18, 21, 24, 10, 13, 16, 2, 5, 8},
};
/* The same nine kinds as bits (bit k: kind k). */
static const uint32_t KNITTED_BITS[6] = {0x4912449, 0x24a4849, 0x4909292, 0x2489324, 0x1264892, 0x1252524};

/* Bit k set where the hand holds kind k (k < 27). */
static uint32_t suited_held(const uint8_t *c) {
    uint32_t held = 0;
    for (int k = 0; k < 27; k++)
        if (c[k]) held |= 1u << k;
    return held;
}

static void enumerate_readings(enum_t *e, const uint8_t *c, int n_melds, int standard, int seven_pairs,
                               int allow_four, int thirteen, int knitted) {
    e->n_readings = 0;
    e->overflow = 0;
    if (standard) standard_readings(e, c, MJ_SHAPE_STANDARD, NULL, 0);
    if (e->overflow) return;
    if (n_melds == 0) {
        if (seven_pairs && seven_pairs_complete(c, allow_four)) {
            reading_t *r = new_reading(e, MJ_SHAPE_SEVEN_PAIRS);
            if (!r) return;
            for (int k = 0; k < N_KINDS; k++)
                for (int x = 0; x < c[k] / 2; x++)
                    if (!push_group(e, r, cg(MJ_GK_PAIR, k))) return;
        }
        if (thirteen && thirteen_orphans_complete(c)) {
            reading_t *r = new_reading(e, MJ_SHAPE_THIRTEEN_ORPHANS);
            if (!r) return;
            for (int i = 0; i < 13; i++)
                if (!push_group(e, r, cg(c[ORPHANS[i]] == 2 ? MJ_GK_PAIR : MJ_GK_SINGLE, ORPHANS[i]))) return;
        }
    }
    if (knitted) {
        uint32_t held = n_melds <= 1 ? suited_held(c) : 0;
        if (n_melds <= 1) /* shapes.py _knitted_straight_readings */
            for (int p = 0; p < 6; p++) {
                if ((held & KNITTED_BITS[p]) != KNITTED_BITS[p]) continue; /* a tile of it missing */
                int ok = 1;
                uint8_t rest[N_KINDS];
                memcpy(rest, c, N_KINDS);
                for (int j = 0; j < 9; j++) {
                    int k = KNITTED[p][j];
                    if (!rest[k]) ok = 0;
                    else rest[k]--;
                }
                if (!ok) continue;
                const mj_group *kn[3];
                int starts[3];
                for (int j = 0; j < 3; j++) starts[j] = 9 * PERMS[p][j] + j;
                for (int a = 1; a < 3; a++) /* sorted(starts) */
                    for (int b = a; b > 0 && starts[b - 1] > starts[b]; b--) {
                        int t = starts[b];
                        starts[b] = starts[b - 1];
                        starts[b - 1] = t;
                    }
                for (int j = 0; j < 3; j++) kn[j] = cg(MJ_GK_KNITTED, starts[j]);
                standard_readings(e, rest, MJ_SHAPE_KNITTED_STRAIGHT, kn, 3);
                if (e->overflow) return;
            }
        /* shapes.py _honors_and_knitted_complete */
        int ok = n_melds == 0;
        for (int k = 0; ok && k < N_KINDS; k++)
            if (c[k] > 1) ok = 0;
        if (ok) {
            int any = 0;
            for (int p = 0; p < 6 && !any; p++) {
                uint8_t in[27] = {0};
                for (int j = 0; j < 9; j++) in[KNITTED[p][j]] = 1;
                int sub = 1;
                for (int k = 0; k < 27; k++)
                    if (c[k] && !in[k]) sub = 0;
                any = sub;
            }
            if (any) {
                reading_t *r = new_reading(e, MJ_SHAPE_HONORS_AND_KNITTED);
                if (!r) return;
                for (int k = 0; k < N_KINDS; k++)
                    if (c[k] && !push_group(e, r, cg(MJ_GK_SINGLE, k))) return;
            }
        }
    }
}

/* shapes.py _classify */
static int classify(int shape, const mj_group *g, int win, const uint8_t *c) {
    if (shape == MJ_SHAPE_THIRTEEN_ORPHANS) return c[win] == 2 ? MJ_WAIT_THIRTEEN_SIDED : MJ_WAIT_SINGLE;
    if (shape == MJ_SHAPE_SEVEN_PAIRS) return MJ_WAIT_SINGLE;
    if (shape == MJ_SHAPE_HONORS_AND_KNITTED || g->kind == MJ_GK_KNITTED) return MJ_WAIT_OTHER;
    if (g->kind == MJ_GK_SEQUENCE) {
        int offset = win - g->tile;
        if (offset == 1) return MJ_WAIT_CLOSED;
        if ((offset == 2 && g->number == 1) || (offset == 0 && g->number == 7)) return MJ_WAIT_EDGE;
        return MJ_WAIT_TWO_SIDED;
    }
    if (g->kind == MJ_GK_TRIPLET) return MJ_WAIT_DUAL_PON;
    if (g->kind == MJ_GK_PAIR || g->kind == MJ_GK_SINGLE) return MJ_WAIT_SINGLE;
    return MJ_WAIT_OTHER;
}

/* shapes.py arrangements: per reading, one arrangement per distinct concealed group holding the
 * winning kind (the first index of equal groups); win < 0: one per reading, no wait. */
static void enumerate_arrangements(enum_t *e, const uint8_t *c, int n_melds, int win) {
    e->n_arrs = 0;
    for (int r = 0; r < e->n_readings; r++) {
        const reading_t *rd = &e->readings[r];
        if (win < 0) {
            if (e->n_arrs >= MAX_ARRS) {
                e->overflow = 1;
                return;
            }
            e->arrs[e->n_arrs++] = (arr_t){rd->shape, r, -1, MJ_WAIT_OTHER};
            continue;
        }
        const mj_group *seen[MJ_MAX_GROUPS];
        int n_seen = 0;
        for (int i = 0; i < rd->n; i++) {
            const mj_group *g = rd->g[i];
            if (!covers(g, win)) continue;
            int dup = 0;
            for (int s = 0; s < n_seen; s++) /* concealed groups are interned: `==` is identity */
                if (seen[s] == g) dup = 1;
            if (dup) continue;
            seen[n_seen++] = g;
            if (e->n_arrs >= MAX_ARRS) {
                e->overflow = 1;
                return;
            }
            e->arrs[e->n_arrs++] = (arr_t){rd->shape, r, n_melds + i, classify(rd->shape, g, win, c)};
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Completeness and the formal wait (runtime/shapes.py is_complete, is_only_wait)              */
/* ------------------------------------------------------------------------------------------ */

/* shapes.py _sets_only: whether counts split into sets alone (greedy is exact: the lowest tile
 * starts its groups, and three sequences from one tile read as three triplets). Consumes c. */
static int sets_only(int *c, int n, int honors) {
    for (int i = 0; i < n; i++) {
        int x = c[i];
        if (x >= 3) x -= 3;
        if (x == 0) continue;
        if (honors || i + 2 >= n || c[i + 1] < x || c[i + 2] < x) return 0;
        c[i + 1] -= x;
        c[i + 2] -= x;
    }
    return 1;
}

/* shapes.py _flag: 0 sets alone, 1 sets plus exactly one pair, 2 neither. */
static int suit_flag(const uint8_t *counts, int base, int n) {
    int c[9], total = 0, honors = base == 27;
    for (int i = 0; i < n; i++) total += c[i] = counts[base + i];
    if (total % 3 == 0) return sets_only(c, n, honors) ? 0 : 2;
    if (total % 3 == 1) return 2;
    for (int i = 0; i < n; i++) {
        if (counts[base + i] < 2) continue;
        for (int j = 0; j < n; j++) c[j] = counts[base + j];
        c[i] -= 2;
        if (sets_only(c, n, honors)) return 1;
    }
    return 2;
}

/* suit_flag of suit s, from the tables where the vector is in them. */
static int suit_flag_of(const uint8_t *counts, int s) {
    int total;
    int64_t idx = vector_index(counts, s, &total);
    if (idx < 0 || total > 14) return suit_flag(counts, SUIT_BASE[s], SUIT_SIZE[s]);
    return vector_flag((uint32_t)idx, SUIT_SIZE[s]);
}

static int standard_complete(const uint8_t *c) {
    int sum = 0;
    for (int s = 0; s < 4; s++) sum += suit_flag_of(c, s);
    return sum == 1;
}

/* shapes.py is_complete for 14 - 3 * n_melds concealed tiles (kinds may hold five: a formal
 * wait on a kind whose every copy is held still counts) is standard_complete (when the profile
 * has the standard shape) or this: seven pairs, thirteen orphans, the knitted shapes.
 * `c` is a hand before its winning tile with kind `k` added (formal_waits): seven pairs need k to
 * be `pairs_k` (the one kind of an odd count before), thirteen orphans a terminal or honor
 * added to a hand of them alone (`orphans`), the knitted
 * straights only the permutations in `perms` (those the hand before lacks at most k of), and
 * honors and knitted tiles one of `hk_perms` (the permutations holding every suited tile of the
 * hand before, when it holds no kind twice), k a kind the hand before lacks. */
static int other_complete(const uint8_t *c, int n_melds, const mj_profile *P, int k_added, int pairs_k,
                          int orphans, unsigned perms, unsigned hk_perms) {
    if (n_melds == 0) {
        if (k_added == pairs_k && seven_pairs_complete(c, P->seven_pairs_allow_four_of_a_kind)) return 1;
        if (orphans && is_toh(k_added) && thirteen_orphans_complete(c)) return 1;
    }
    if (P->knitted) {
        if (n_melds <= 1)
            for (int p = 0; p < 6; p++) { /* _knitted_straight_complete: the rest is a set and a pair */
                if (!(perms >> p & 1)) continue;
                uint8_t rest[N_KINDS];
                int ok = 1;
                memcpy(rest, c, N_KINDS);
                for (int j = 0; j < 9 && ok; j++) {
                    int k = KNITTED[p][j];
                    if (!rest[k]) ok = 0;
                    else rest[k]--;
                }
                if (ok && standard_complete(rest)) return 1;
            }
        if (n_melds == 0 && hk_perms && c[k_added] == 1) { /* _honors_and_knitted_complete */
            if (k_added >= 27) return 1;
            for (int p = 0; p < 6; p++) /* suit PERMS[p][r] holds the ranks r, r + 3, r + 6 */
                if (hk_perms >> p & 1 && PERMS[p][k_added % 9 % 3] == k_added / 9) return 1;
        }
    }
    return 0;
}

/* The formal waits of the hand before its winning tile (shapes.py formal_waits), as bits by
 * kind: the kinds k with is_complete(before + k), a kind whose every copy is held included
 * (shapes.py _formal_waits reaches the same set through its short cuts). */
static uint64_t formal_waits_until(const uint8_t *with_win, int n_melds, int win, const mj_profile *P, uint64_t stop);

static uint64_t formal_waits(const uint8_t *with_win, int n_melds, int win, const mj_profile *P) {
    return formal_waits_until(with_win, n_melds, win, P, 0);
}

/* formal_waits, but the search stops at the first wait among the kinds of `stop` (then the bits
 * answered are only those found so far, that one included): whether a hand waits on its winning
 * kind alone is settled by the first other wait. */
static uint64_t formal_waits_until(const uint8_t *with_win, int n_melds, int win, const mj_profile *P, uint64_t stop) {
    uint8_t c[N_KINDS];
    memcpy(c, with_win, N_KINDS);
    c[win]--;
    /* The standard shape suit by suit (standard_complete): a kind added to one suit leaves the
     * other suits' flags as they are, so those are worked out once, and a suit is skipped whole
     * when the others already hold a pair or a suit that is neither sets nor sets and a pair. */
    int flag[4], sum = 0, total[4];
    int64_t index[4]; /* each suit's vector (-1: outside the tables) */
    if (P->standard)
        for (int s = 0; s < 4; s++) {
            index[s] = vector_index(c, s, &total[s]);
            if (index[s] >= 0 && total[s] > 13) index[s] = -1; /* a tile added must stay within them */
            sum += flag[s] = index[s] >= 0 ? vector_flag((uint32_t)index[s], SUIT_SIZE[s])
                                           : suit_flag(c, SUIT_BASE[s], SUIT_SIZE[s]);
        }
    int pairs_k = -1, orphans = 0; /* seven pairs: the one odd kind; thirteen orphans: none other held */
    if (n_melds == 0 && P->seven_pairs)
        for (int t = 0, odd = 0; t < N_KINDS; t++)
            if (c[t] % 2) pairs_k = ++odd == 1 ? t : -2;
    if (n_melds == 0 && P->thirteen_orphans) {
        orphans = 1;
        for (int t = 0; t < N_KINDS; t++) orphans = orphans && (!c[t] || is_toh(t));
    }
    /* per knitted straight (PERMS), the one tile of its nine the hand lacks (-1: none; -2: more) */
    int lacks[6] = {-2, -2, -2, -2, -2, -2};
    if (P->knitted && n_melds <= 1) {
        uint32_t held = suited_held(c);
        for (int p = 0; p < 6; p++) {
            uint32_t missing = KNITTED_BITS[p] & ~held;
            lacks[p] = !missing ? -1 : missing & (missing - 1) ? -2 : __builtin_ctz(missing);
        }
    }
    unsigned hk_perms = 0;
    if (P->knitted && n_melds == 0) {
        int single = 1;
        for (int t = 0; t < N_KINDS; t++) single = single && c[t] <= 1;
        for (int p = 0; single && p < 6; p++) {
            int sub = 1;
            for (int t = 0; t < 27; t++) sub = sub && (!c[t] || PERMS[p][t % 9 % 3] == t / 9);
            if (sub) hk_perms |= 1u << p;
        }
    }
    /* The kinds the other shapes may complete: any kind (thirteen orphans, honors and knitted
     * tiles, a knitted straight the hand holds whole: `wide`), or only some (seven pairs' odd
     * kind, a knitted straight's one missing tile: `narrow`). */
    int wide = orphans || hk_perms;
    unsigned whole = 0; /* the knitted straights the hand holds whole */
    uint64_t narrow = pairs_k >= 0 ? (uint64_t)1 << pairs_k : 0;
    for (int p = 0; p < 6; p++) {
        if (lacks[p] == -1) whole |= 1u << p;
        else if (lacks[p] >= 0) narrow |= (uint64_t)1 << lacks[p];
    }
    wide = wide || whole;
    uint64_t waits = 0;
    for (int s = 0; s < 4; s++) {
        int rest = P->standard ? sum - flag[s] : 2;
        uint64_t suit_bits = (((uint64_t)1 << SUIT_SIZE[s]) - 1) << SUIT_BASE[s];
        if (rest > 1 && !wide && !(narrow & suit_bits)) continue; /* no kind of this suit completes the hand */
        for (int k = SUIT_BASE[s]; k < SUIT_BASE[s] + SUIT_SIZE[s]; k++) {
            int added = 2; /* the suit's flag with kind k added (2 where it cannot matter) */
            if (rest <= 1)
                added = index[s] >= 0 && c[k] < 4
                            ? vector_flag((uint32_t)index[s] + POW5[k - SUIT_BASE[s]], SUIT_SIZE[s])
                            : -1;
            c[k]++;
            if (added < 0) added = suit_flag(c, SUIT_BASE[s], SUIT_SIZE[s]);
            int done = rest <= 1 && rest + added == 1;
            if (!done && (wide || (narrow >> k & 1))) {
                unsigned perms = whole;
                for (int p = 0; p < 6; p++)
                    if (lacks[p] == k) perms |= 1u << p;
                done = other_complete(c, n_melds, P, k, pairs_k, orphans, perms, hk_perms);
            }
            c[k]--;
            if (done) {
                waits |= (uint64_t)1 << k;
                if (waits & stop) return waits;
            }
        }
    }
    return waits;
}

/* scoring.py _only_wait (shapes.py is_only_wait): the winning kind is the hand's one formal wait. */
static int only_wait(const uint8_t *with_win, int n_melds, int win, const mj_profile *P) {
    return formal_waits(with_win, n_melds, win, P) == (uint64_t)1 << win;
}

/* ------------------------------------------------------------------------------------------ */
/* Argument parsing                                                                            */
/* ------------------------------------------------------------------------------------------ */

typedef struct {
    int n_melds;
    mj_group groups[4];
    uint8_t codes[4][4];
    int n_codes[4];
} melds_t;

/* A meld (hand.py Meld.__post_init__): 3 tiles for chi/pon, 4 for a kong; one kind, or a run. */
static int parse_melds(PyObject *melds, melds_t *out) {
    if (!PyTuple_Check(melds)) {
        PyErr_SetString(PyExc_TypeError, "melds must be a tuple of (meld type, bytes)");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(melds);
    if (n > 4) {
        PyErr_SetString(PyExc_ValueError, "a hand has at most 4 melds");
        return -1;
    }
    out->n_melds = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *m = PyTuple_GET_ITEM(melds, i);
        if (!PyTuple_Check(m) || PyTuple_GET_SIZE(m) != 2 || !PyLong_Check(PyTuple_GET_ITEM(m, 0)) ||
            !PyBytes_Check(PyTuple_GET_ITEM(m, 1))) {
            PyErr_SetString(PyExc_TypeError, "a meld is (meld type: int, tiles: bytes)");
            return -1;
        }
        long type = PyLong_AsLong(PyTuple_GET_ITEM(m, 0));
        if (type == -1 && PyErr_Occurred()) return -1;
        if (type < 0 || type >= MJ_N_MELD) {
            PyErr_SetString(PyExc_ValueError, "meld type out of range");
            return -1;
        }
        PyObject *b = PyTuple_GET_ITEM(m, 1);
        Py_ssize_t nt = PyBytes_GET_SIZE(b);
        int want = type == MJ_MELD_CHI || type == MJ_MELD_PON ? 3 : 4;
        if (nt != want) {
            PyErr_SetString(PyExc_ValueError, "wrong number of tiles for the meld type");
            return -1;
        }
        const uint8_t *t = (const uint8_t *)PyBytes_AS_STRING(b);
        int kinds[4];
        for (int k = 0; k < want; k++) {
            if (t[k] >= 2 * N_KINDS) {
                PyErr_SetString(PyExc_ValueError, "meld tile code out of range");
                return -1;
            }
            out->codes[i][k] = t[k];
            kinds[k] = t[k] >> 1;
        }
        out->n_codes[i] = want;
        for (int a = 1; a < want; a++) /* sorted kinds */
            for (int c = a; c > 0 && kinds[c - 1] > kinds[c]; c--) {
                int x = kinds[c];
                kinds[c] = kinds[c - 1];
                kinds[c - 1] = x;
            }
        int gk;
        if (type == MJ_MELD_CHI) {
            if (kinds[0] >= 27 || kinds[1] != kinds[0] + 1 || kinds[2] != kinds[0] + 2 || kinds[2] / 9 != kinds[0] / 9) {
                PyErr_SetString(PyExc_ValueError, "a chi needs three consecutive tiles of one suit");
                return -1;
            }
            gk = MJ_GK_SEQUENCE;
        } else {
            for (int k = 1; k < want; k++)
                if (kinds[k] != kinds[0]) {
                    PyErr_SetString(PyExc_ValueError, "a pon or kong needs tiles of one kind");
                    return -1;
                }
            gk = type == MJ_MELD_PON ? MJ_GK_TRIPLET : MJ_GK_KONG;
        }
        fill_group(&out->groups[i], gk, kinds[0], type == MJ_MELD_ANKAN, (int)type);
    }
    return 0;
}

static int shapes_arrangements(const uint8_t *counts, int n_melds, int win, const mj_profile *P, enum_t *e) {
    enumerate_readings(e, counts, n_melds, P->standard, P->seven_pairs, P->seven_pairs_allow_four_of_a_kind,
                       P->thirteen_orphans, P->knitted);
    if (!e->overflow) enumerate_arrangements(e, counts, n_melds, win);
    return e->overflow ? -1 : 0;
}

static PyObject *py_arrangements(PyObject *self, PyObject *args) {
    Py_buffer counts;
    PyObject *melds;
    int win, standard, seven_pairs, allow_four, thirteen, knitted;
    if (!PyArg_ParseTuple(args, "y*O!ippppp", &counts, &PyTuple_Type, &melds, &win, &standard, &seven_pairs,
                          &allow_four, &thirteen, &knitted))
        return NULL;
    uint8_t c[N_KINDS];
    int total = 0, bad = counts.len != N_KINDS;
    if (!bad) {
        memcpy(c, counts.buf, N_KINDS);
        for (int k = 0; k < N_KINDS; k++) {
            if (c[k] > 4) bad = 1;
            total += c[k];
        }
    }
    PyBuffer_Release(&counts);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "counts must be 34 bytes, each at most 4");
        return NULL;
    }
    melds_t m;
    if (parse_melds(melds, &m) < 0) return NULL;
    if (total != 14 - 3 * m.n_melds) {
        PyErr_SetString(PyExc_ValueError, "concealed tile count does not fit the melds");
        return NULL;
    }
    if (win >= 0 && (win >= N_KINDS || !c[win])) {
        PyErr_SetString(PyExc_ValueError, "the winning kind must be among the concealed tiles");
        return NULL;
    }
    enum_t *e = PyMem_Malloc(sizeof *e);
    if (!e) return PyErr_NoMemory();
    enumerate_readings(e, c, m.n_melds, standard, seven_pairs, allow_four, thirteen, knitted);
    if (!e->overflow) enumerate_arrangements(e, c, m.n_melds, win < 0 ? -1 : win);
    if (e->overflow) {
        PyMem_Free(e);
        Py_RETURN_NONE;
    }
    PyObject *out = PyList_New(e->n_arrs);
    if (!out) {
        PyMem_Free(e);
        return NULL;
    }
    for (int a = 0; a < e->n_arrs; a++) {
        const arr_t *ar = &e->arrs[a];
        const reading_t *rd = &e->readings[ar->reading];
        int ng = m.n_melds + rd->n;
        PyObject *groups = PyTuple_New(ng);
        if (!groups) goto fail;
        for (int i = 0; i < ng; i++) {
            const mj_group *g = i < m.n_melds ? &m.groups[i] : rd->g[i - m.n_melds];
            PyObject *t = Py_BuildValue("(iiii)", g->kind, g->tile, g->concealed, g->meld);
            if (!t) {
                Py_DECREF(groups);
                goto fail;
            }
            PyTuple_SET_ITEM(groups, i, t);
        }
        PyObject *item;
        if (ar->win_group < 0)
            item = Py_BuildValue("(iNOi)", ar->shape, groups, Py_None, ar->wait);
        else
            item = Py_BuildValue("(iNii)", ar->shape, groups, ar->win_group, ar->wait);
        if (!item) goto fail;
        PyList_SET_ITEM(out, a, item);
    }
    PyMem_Free(e);
    return out;
fail:
    PyMem_Free(e);
    Py_DECREF(out);
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Profile checks                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* Whether the core can read the profile's tables without leaving them: indices in range, counts
 * within the buffers. -1 with an exception: the module is not one this core understands. */
static int check_profile(const mj_profile *P) {
    const char *why = NULL;
    int combos = 0;
    if (P->abi != MJ_ABI) why = "the profile module was built for another MJ_ABI";
    else if (P->n_patterns < 0 || P->n_patterns > MJ_MAX_PATTERNS) why = "too many patterns";
    else if (P->n_patterns && !P->patterns) why = "no pattern table";
    else if (P->n_requirements < 0 || (P->n_requirements && !P->requirements)) why = "bad requirements";
    else if (P->n_groups < 0 || (P->n_groups && !P->group_pick)) why = "bad groups";
    else if (P->n_prefer < 0 || P->n_prefer > 16 || (P->n_prefer && !P->prefer)) why = "bad prefer";
    else if (P->n_minimum_without < 0 || (P->n_minimum_without && !P->minimum_without)) why = "bad minimum";
    else if (P->n_point_items < 0 || P->n_point_items > MAX_ITEMS || (P->n_point_items && !P->point_items))
        why = "bad point items";
    else if (P->n_values < 0 || P->n_values > MAX_VALUES || (P->n_values && !P->values)) why = "bad values";
    else if (P->n_ron < 0 || P->n_ron > MAX_ROLES || (P->n_ron && !P->ron)) why = "bad ron roles";
    else if (P->n_tsumo < 0 || P->n_tsumo > MAX_ROLES || (P->n_tsumo && !P->tsumo)) why = "bad tsumo roles";
    else if (P->hand_value != MJ_NONE && (P->hand_value < 0 || P->hand_value >= P->n_values)) why = "bad hand_value";
    else if (P->n_options < 0 || P->n_options > 4096) why = "bad option count";
    else if (P->limit_hands_counted != MJ_NONE && (P->limit_hands_counted < 0 || P->limit_hands_counted >= P->n_options))
        why = "bad limit_hands_counted";
    for (int i = 0; !why && i < P->n_patterns; i++) {
        const mj_pattern *p = &P->patterns[i];
        if (p->n_excludes && !p->excludes) why = "bad excludes";
        else if (p->group != MJ_NONE && (p->group < 0 || p->group >= P->n_groups)) why = "pattern group out of range";
        if (p->n_excludes < 0 || (p->n_excludes && !p->excludes)) why = "bad excludes";
        for (int x = 0; !why && x < p->n_excludes; x++)
            if (p->excludes[x] < 0 || p->excludes[x] >= P->n_patterns) why = "excluded pattern out of range";
        if (p->combine_kind != MJ_NONE) {
            combos = 1;
            /* mj_view.members holds four sets; a combination of more is not one this core reads */
            if (p->combine_kind < MJ_COMBINE_SEQUENCES || p->combine_kind > MJ_COMBINE_SETS || p->combine_size < 1 ||
                p->combine_size > 4)
                why = "combination out of range";
        }
    }
    if (!why && !combos != !P->has_combinations) why = "has_combinations disagrees with the patterns";
    for (int i = 0; !why && i < P->n_minimum_without; i++)
        if (P->minimum_without[i] < 0 || P->minimum_without[i] >= P->n_patterns) why = "minimum without out of range";
    for (int i = 0; !why && i < P->n_requirements; i++)
        if (!P->requirements[i].when || !P->requirements[i].reason_en) why = "a requirement without a test";
    for (int i = 0; !why && i < P->n_values; i++)
        if (!P->values[i].fn || !P->values[i].name) why = "a payment value without a formula";
    for (int i = 0; !why && i < P->n_ron; i++)
        if (!P->ron[i].fn || !P->ron[i].name) why = "a payment role without a formula";
    for (int i = 0; !why && i < P->n_tsumo; i++)
        if (!P->tsumo[i].fn || !P->tsumo[i].name) why = "a payment role without a formula";
    if (why) {
        PyErr_Format(PyExc_ValueError, "native profile %s: %s", P->id ? P->id : "?", why);
        return -1;
    }
    return 0;
}

static const mj_formula *find_role(const mj_formula *f, int n, const char *name) {
    for (int i = n - 1; i >= 0; i--) /* dict(rules): the last of a name */
        if (strcmp(f[i].name, name) == 0) return &f[i];
    return NULL;
}

/* The roles a profile's rule sets name, looked up once (make_plan) rather than per payment:
 * per rule set (ron 0, tsumo 1) the "dealer", "non_dealer", "east" and "non_east" rules
 * (find_role: the last of a name; NULL: none) and whether a name repeats (dict order of a repeat:
 * left to Python). */
typedef struct {
    const mj_formula *dealer, *non_dealer, *east, *non_east;
    int repeats;
} roles_t;

static void find_roles(const mj_formula *rules, int n, roles_t *out) {
    out->dealer = find_role(rules, n, "dealer");
    out->non_dealer = find_role(rules, n, "non_dealer");
    out->east = find_role(rules, n, "east");
    out->non_east = find_role(rules, n, "non_east");
    out->repeats = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(rules[j].name, rules[i].name) == 0) out->repeats = 1;
}

/* A checked profile's patterns sorted once by how scoring.py _plan splits them: the whole-hand
 * patterns reading the tiles only, and the others, each in declaration order; the combination
 * patterns by (kind, size) in Profile.combination_patterns order (first appearance), each
 * group's patterns of the three passes (member, fixed, situational) in declaration order. */
#define MAX_COMBO_GROUPS 12 /* three kinds of set, combinations of one to four */
typedef struct {
    int kind, size;
    int n[3];
    int16_t pat[3][MJ_MAX_PATTERNS];
    mj_hand_fn when[3][MJ_MAX_PATTERNS]; /* pat's tests beside them (NULL: always) */
} combo_group_t;

/* A whole-hand pattern as plain_hits reads it: its test beside its index, so that the loop over
 * the patterns that do not hit (most of them) reads one array. */
typedef struct {
    mj_hand_fn when; /* NULL: always */
    int pat;
} plain_t;

typedef struct {
    int n_plain[2][2];
    plain_t plain[2][2][MJ_MAX_PATTERNS]; /* [skip_limits][tiles_only]: [1][.] leaves the limit patterns out */
    int n_groups;
    combo_group_t groups[MAX_COMBO_GROUPS];
    uint8_t has_limits;     /* a limit pattern is declared (Profile.has_limits) */
    uint8_t limit_combines; /* ... and one of them is a combination pattern */
    roles_t roles[2];       /* the payment roles of P->ron [0] and P->tsumo [1] */
} plan_t;

static int combo_taken(const mj_pattern *p, int which);

static void make_plan(const mj_profile *P, plan_t *plan) {
    memset(plan, 0, sizeof *plan);
    find_roles(P->ron, P->n_ron, &plan->roles[0]);
    find_roles(P->tsumo, P->n_tsumo, &plan->roles[1]);
    for (int i = 0; i < P->n_patterns; i++) {
        const mj_pattern *p = &P->patterns[i];
        if (p->limit) {
            plan->has_limits = 1;
            if (p->combine_kind != MJ_NONE) plan->limit_combines = 1;
        }
        if (p->combine_kind == MJ_NONE) {
            int t = p->tiles_only ? 1 : 0;
            for (int skip = 0; skip < 2; skip++)
                if (!(skip && p->limit)) plan->plain[skip][t][plan->n_plain[skip][t]++] = (plain_t){p->when, i};
            continue;
        }
        int g = 0;
        while (g < plan->n_groups &&
               (plan->groups[g].kind != p->combine_kind || plan->groups[g].size != p->combine_size))
            g++;
        if (g == plan->n_groups) { /* check_profile bounds kind and size: at most 12 groups */
            plan->groups[g].kind = p->combine_kind;
            plan->groups[g].size = p->combine_size;
            plan->n_groups++;
        }
        for (int which = 0; which < 3; which++)
            if (combo_taken(p, which)) {
                combo_group_t *grp = &plan->groups[g];
                grp->when[which][grp->n[which]] = p->when;
                grp->pat[which][grp->n[which]++] = (int16_t)i;
            }
    }
}

#define N_CHECKED 32
static const mj_profile *CHECKED[N_CHECKED];
static plan_t *PLANS[N_CHECKED];

/* The profile of a capsule, checked once, with its plan (NULL with an exception: not one this
 * core reads, or no room to remember it). */
static const mj_profile *profile_of(PyObject *capsule, const plan_t **plan) {
    const mj_profile *P = PyCapsule_GetPointer(capsule, "mjspec.native_profile");
    if (!P) return NULL;
    for (int i = 0; i < N_CHECKED; i++)
        if (CHECKED[i] == P) {
            if (plan) *plan = PLANS[i];
            return P;
        }
    if (check_profile(P) < 0) return NULL;
    for (int i = 0; i < N_CHECKED; i++)
        if (!CHECKED[i]) {
            plan_t *made = PyMem_Malloc(sizeof *made);
            if (!made) {
                PyErr_NoMemory();
                return NULL;
            }
            make_plan(P, made);
            CHECKED[i] = P;
            PLANS[i] = made;
            if (plan) *plan = made;
            return P;
        }
    PyErr_SetString(PyExc_RuntimeError, "more native profiles than the core remembers");
    return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Scoring (runtime/scoring.py _evaluate)                                                      */
/* ------------------------------------------------------------------------------------------ */

/* One reading's Score (scoring.py Score fields): the scalars first, so that clearing a result is
 * clearing them (up to `pat`); the arrays are valid up to their counts. */
typedef struct {
    int legal;
    const char *reason;
    int n_pat, n_pay, n_items;
    int64_t total, capped;
    int has_fu;
    int64_t fu;
    int limit;
    int has_value;
    int64_t value;
    int pat[MAX_HITS];
    int64_t val[MAX_HITS], cnt[MAX_HITS];
    const char *role[MAX_ROLES];
    int64_t pay[MAX_ROLES];
    int item[MAX_ITEMS];
    int64_t item_val[MAX_ITEMS];
} result_t;

static void clear_result(result_t *r) { memset(r, 0, offsetof(result_t, pat)); }

/* *to = *from, copying only what the counts say is there (a result_t is some 30 KB). */
static void copy_result(result_t *to, const result_t *from) {
    if (to == from) return;
    memcpy(to, from, offsetof(result_t, pat));
    size_t n = (size_t)from->n_pat;
    memcpy(to->pat, from->pat, n * sizeof to->pat[0]);
    memcpy(to->val, from->val, n * sizeof to->val[0]);
    memcpy(to->cnt, from->cnt, n * sizeof to->cnt[0]);
    memcpy(to->role, from->role, (size_t)from->n_pay * sizeof to->role[0]);
    memcpy(to->pay, from->pay, (size_t)from->n_pay * sizeof to->pay[0]);
    memcpy(to->item, from->item, (size_t)from->n_items * sizeof to->item[0]);
    memcpy(to->item_val, from->item_val, (size_t)from->n_items * sizeof to->item_val[0]);
}

/* Why the core gives up on a request (the Python engine answers it). */
enum { OK = 0, UNSUPPORTED = 1 };

static int64_t amount(const mj_amount *a, mj_view *v) { return a->fn ? a->fn(v) : a->constant; }


/* One hit (scoring.py Hit) with its key (declaration index, combination index) and, for a
 * combination occurrence, its sets as bits of their positions in view.sets (0: None; an
 * occurrence always has at least one set). */
typedef struct {
    int64_t val, cnt;
    uint32_t key; /* pat << 16 | ci: the order of _by_key in one comparison (ci < C(14, 4)) */
    int16_t pat;
    uint16_t members;
} hit_t;

/* One struct per hit: sorting and filtering move a hit with one copy. */
typedef struct {
    int n;
    hit_t h[MAX_HITS];
} hits_t;

static int push_hit(hits_t *h, int pat, int ci, int64_t val, int64_t cnt, uint16_t members) {
    if (h->n >= MAX_HITS) return UNSUPPORTED;
    h->h[h->n] = (hit_t){val, cnt, (uint32_t)pat << 16 | (uint32_t)ci, (int16_t)pat, members};
    h->n++;
    return OK;
}

static void copy_hit(hits_t *to, int k, const hits_t *from, int i) { to->h[k] = from->h[i]; }

/* scoring.py _met_hits: the whole-hand patterns with tiles_only == `tiles_only`, in declaration order. */
static int plain_hits(const mj_profile *P, const plan_t *plan, mj_view *v, hits_t *h, int tiles_only, int skip_limits) {
    int is_open = !v->is_closed;
    const plain_t *list = plan->plain[skip_limits != 0][tiles_only];
    int n_list = plan->n_plain[skip_limits != 0][tiles_only];
    for (int k = 0; k < n_list; k++) {
        /* v->overflow stays set once set: a test that overflowed and answered 0 is caught after
         * the loop, one that answered otherwise right here (the request is the Python engine's) */
        if (list[k].when && !list[k].when(v)) continue;
        if (v->overflow) return UNSUPPORTED;
        int i = list[k].pat;
        const mj_pattern *p = &P->patterns[i];
        int use_open = is_open && p->has_open_value;
        if (use_open && !p->open_value.fn && p->open_value.constant == 0) continue; /* closed only */
        int64_t n = 1;
        if (p->count) {
            n = p->count(v);
            if (v->overflow) return UNSUPPORTED;
        }
        if (n <= 0) continue;
        int64_t value = amount(use_open ? &p->open_value : &p->value, v);
        if (v->overflow) return UNSUPPORTED;
        if (use_open && value <= 0) continue;
        if (push_hit(h, i, 0, value, n, 0) != OK) return UNSUPPORTED;
    }
    return v->overflow ? UNSUPPORTED : OK;
}

/* Which combination patterns a pass takes (scoring.py _plan): the member ones (members_only),
 * the fixed ones (tiles_only, not members_only), the situational ones (not tiles_only). */
enum { COMBO_MEMBER = 0, COMBO_FIXED = 1, COMBO_SITUATIONAL = 2 };

static int combo_taken(const mj_pattern *p, int which) {
    if (which == COMBO_MEMBER) return p->members_only;
    if (which == COMBO_FIXED) return p->tiles_only && !p->members_only;
    return !p->tiles_only;
}

/* scoring.py _pools: positions of the sets of each combinable kind, in (tile, kind) order. */
typedef struct {
    int n[3];
    int8_t at[3][MJ_MAX_GROUPS];
} pools_t;

static void make_pools(const mj_view *v, pools_t *pools) {
    int order[MJ_MAX_GROUPS];
    for (int i = 0; i < v->n_sets; i++) { /* sorted(range(n), key=(tile, kind)): stable */
        int j = i - 1;
        while (j >= 0 && group_key_cmp(v->sets[order[j]], v->sets[i]) > 0) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = i;
    }
    for (int c = 0; c < 3; c++) pools->n[c] = 0;
    for (int o = 0; o < v->n_sets; o++) {
        int i = order[o], kind = v->sets[i]->kind;
        if (kind == MJ_GK_SEQUENCE) pools->at[MJ_COMBINE_SEQUENCES][pools->n[MJ_COMBINE_SEQUENCES]++] = (int8_t)i;
        if (kind == MJ_GK_TRIPLET || kind == MJ_GK_KONG)
            pools->at[MJ_COMBINE_TRIPLETS][pools->n[MJ_COMBINE_TRIPLETS]++] = (int8_t)i;
        pools->at[MJ_COMBINE_SETS][pools->n[MJ_COMBINE_SETS]++] = (int8_t)i;
    }
}

/* scoring.py _combination_hits / _member_combination_hits: per (kind, size) in the order
 * Profile.combination_patterns lists them (first appearance), every combination of the pool in
 * itertools.combinations order, the pass's patterns of that kind in declaration order. */
static int combo_hits(const mj_profile *P, const plan_t *plan, mj_view *v, const pools_t *pools, hits_t *h,
                      int which) {
    int is_open = !v->is_closed;
    for (int g = 0; g < plan->n_groups; g++) {
        const combo_group_t *grp = &plan->groups[g];
        int kind = grp->kind, size = grp->size, n_of = grp->n[which];
        const int16_t *members_of = grp->pat[which];
        const mj_hand_fn *tests = grp->when[which];
        if (!n_of) continue;
        int pn = pools->n[kind];
        if (pn < size) continue;
        int idx[4];
        for (int k = 0; k < size; k++) idx[k] = k;
        for (int ci = 0;; ci++) {
            uint16_t members = 0;
            for (int k = 0; k < size; k++) {
                int at = pools->at[kind][idx[k]];
                v->members[k] = v->sets[at];
                members |= (uint16_t)(1u << at);
            }
            v->n_members = size;
            for (int m = 0; m < n_of; m++) {
                if (tests[m] && !tests[m](v)) continue; /* an overflow is caught below or after the loop */
                if (v->overflow) return UNSUPPORTED;
                const mj_pattern *p = &P->patterns[members_of[m]];
                int64_t value;
                if (which == COMBO_MEMBER) { /* _member_combination_hits: p.value, no open value */
                    value = amount(&p->value, v);
                } else if (p->has_open_value && is_open) { /* _valued: an open hand's value, 0: none */
                    value = amount(&p->open_value, v);
                    if (!v->overflow && value <= 0) continue;
                } else {
                    value = amount(&p->value, v);
                }
                if (v->overflow) return UNSUPPORTED;
                if (push_hit(h, members_of[m], ci, value, 1, members) != OK) return UNSUPPORTED;
            }
            int k = size - 1; /* next combination */
            while (k >= 0 && idx[k] == pn - size + k) k--;
            if (k < 0) break;
            idx[k]++;
            for (int j = k + 1; j < size; j++) idx[j] = idx[j - 1] + 1;
        }
    }
    return v->overflow ? UNSUPPORTED : OK;
}

/* keyed.sort(key=_by_key): the keys (declaration index, combination index) are distinct. */
static void sort_by_key(hits_t *h, int from) {
    for (int i = from + 1; i < h->n; i++) {
        if (h->h[i - 1].key < h->h[i].key) continue; /* in place already: the usual */
        hit_t x = h->h[i];
        int j = i;
        while (j > from && h->h[j - 1].key > x.key) {
            h->h[j] = h->h[j - 1];
            j--;
        }
        h->h[j] = x;
    }
}

/* The hits of one reading in scoring.py's order: _learn_tiles' fixed hits (tiles-only whole-hand
 * patterns and tiles-only combinations, sorted by key), then _score_reading's situational ones
 * (whole-hand, then combinations in their own order); sorted by key only when both are present. */
static int reading_hits(const mj_profile *P, const plan_t *plan, mj_view *v, hits_t *h, int skip_limits) {
    h->n = 0;
    pools_t pools;
    if (P->has_combinations) make_pools(v, &pools);
    if (plain_hits(P, plan, v, h, 1, skip_limits) != OK) return UNSUPPORTED;
    if (P->has_combinations) {
        if (combo_hits(P, plan, v, &pools, h, COMBO_MEMBER) != OK || combo_hits(P, plan, v, &pools, h, COMBO_FIXED) != OK)
            return UNSUPPORTED;
        sort_by_key(h, 0);
    }
    int n_fixed = h->n;
    if (plain_hits(P, plan, v, h, 0, skip_limits) != OK) return UNSUPPORTED;
    if (P->has_combinations && combo_hits(P, plan, v, &pools, h, COMBO_SITUATIONAL) != OK) return UNSUPPORTED;
    if (n_fixed && h->n > n_fixed) sort_by_key(h, 0);
    return OK;
}

static int uf_find(int8_t *parent, int x) {
    while (parent[x] != x) x = parent[x];
    return x;
}

/* scoring.py apply_relations (steps 1-4 with combination occurrences), then _last_steps:
 * _pick_highest, fallback, limit patterns. Works in place on `h`. */
static int apply_relations(const mj_profile *P, hits_t *h, int has_limits, hits_t *tmp) {
    int n = h->n;
    static int order[MAX_HITS];
    static int64_t key[MAX_HITS], reduced[MAX_HITS];
    static uint8_t removed[MAX_HITS], counted[MAX_HITS];
    uint8_t removed_pat[MJ_MAX_PATTERNS], has_hit[MJ_MAX_PATTERNS];
    uint16_t used[MJ_MAX_PATTERNS];
    int8_t parent[16];
    for (int i = 0; i < 16; i++) parent[i] = (int8_t)i;
    for (int i = 0; i < P->n_patterns; i++) removed_pat[i] = has_hit[i] = 0, used[i] = 0;
    for (int i = 0; i < n; i++) {
        int64_t pts;
        if (__builtin_mul_overflow(h->h[i].val, h->h[i].cnt, &pts) || pts == INT64_MIN) return UNSUPPORTED;
        key[i] = pts;
        has_hit[h->h[i].pat] = 1;
        removed[i] = counted[i] = 0;
        reduced[i] = 0;
        /* sorted(range(n), key=-points): stable, so equal points keep their order */
        int j = i - 1;
        while (j >= 0 && key[order[j]] < pts) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = i;
    }
    for (int o = 0; o < n; o++) {
        int i = order[o];
        const mj_pattern *p = &P->patterns[h->h[i].pat];
        uint16_t members = h->h[i].members;
        if (p->bonus) {
            counted[i] = 1;
            continue;
        }
        if (removed[i] || removed_pat[h->h[i].pat]) continue;
        if (members) {
            if (used[h->h[i].pat] & members) continue; /* non-identical: a set forms each fan once */
            int roots[16], n_roots = 0, n_members = 0;
            for (int m = 0; m < 16; m++) {
                if (!(members >> m & 1)) continue;
                n_members++;
                int r = uf_find(parent, m), dup = 0;
                for (int k = 0; k < n_roots; k++)
                    if (roots[k] == r) dup = 1;
                if (!dup) roots[n_roots++] = r;
            }
            if (n_roots < n_members) continue; /* account once: no cycle of combined sets */
            for (int k = 1; k < n_roots; k++) parent[roots[k]] = (int8_t)roots[0];
            used[h->h[i].pat] |= members;
        }
        counted[i] = 1;
        for (int x = 0; x < p->n_excludes; x++) {
            int target = p->excludes[x];
            if (target == h->h[i].pat || !has_hit[target]) continue; /* removing what did not hit changes nothing */
            /* targets: the excluded pattern's hits not removed, in visiting order */
            int first_target = -1;
            for (int q = 0; q < n && first_target < 0; q++)
                if (h->h[order[q]].pat == target && !removed[order[q]]) first_target = order[q];
            if (members && first_target >= 0 && h->h[first_target].members) {
                /* a combination removes the occurrences made only of its own sets */
                for (int q = 0; q < n; q++) {
                    int j = order[q];
                    if (h->h[j].pat == target && !removed[j] && h->h[j].members && !(h->h[j].members & ~members)) removed[j] = 1;
                }
                continue;
            }
            int limit = p->exclude_limit ? p->exclude_limit[x] : MJ_NONE;
            if (limit == MJ_NONE) {
                removed_pat[target] = 1;
                continue;
            }
            int64_t lim = limit;
            for (int q = n - 1; q >= 0; q--) { /* reversed(targets): last visited first */
                int j = order[q];
                if (h->h[j].pat != target || removed[j]) continue;
                if (lim <= 0) break;
                if (!h->h[j].members) {
                    int64_t left = h->h[j].cnt - reduced[j];
                    int64_t take = lim < left ? lim : left;
                    reduced[j] += take;
                    lim -= take;
                    if (reduced[j] >= h->h[j].cnt) removed[j] = 1;
                } else {
                    removed[j] = 1;
                    lim -= 1;
                }
            }
        }
    }
    int k = 0;
    for (int i = 0; i < n; i++) { /* sorted(counted): the hits' own order */
        if (!counted[i]) continue;
        const mj_pattern *p = &P->patterns[h->h[i].pat];
        if (!p->bonus && (removed[i] || removed_pat[h->h[i].pat])) continue;
        copy_hit(h, k, h, i);
        h->h[k].cnt = h->h[i].cnt - reduced[i];
        k++;
    }
    h->n = k;
    /* _pick_highest: max() keeps the first of equals */
    for (int g = 0; g < P->n_groups; g++) {
        if (P->group_pick[g] != MJ_PICK_HIGHEST) continue;
        int winner = -1, members = 0;
        int64_t best = 0;
        for (int i = 0; i < h->n; i++) {
            if (P->patterns[h->h[i].pat].group != g) continue;
            int64_t pts;
            if (__builtin_mul_overflow(h->h[i].val, h->h[i].cnt, &pts)) return UNSUPPORTED;
            members++;
            if (winner < 0 || pts > best) winner = i, best = pts;
        }
        if (members <= 1) continue;
        k = 0;
        for (int i = 0; i < h->n; i++) {
            if (P->patterns[h->h[i].pat].group == g && i != winner) continue;
            copy_hit(h, k++, h, i);
        }
        h->n = k;
    }
    int any_fallback = 0, any_other = 0, any_limit = 0;
    for (int i = 0; i < h->n; i++) {
        const mj_pattern *p = &P->patterns[h->h[i].pat];
        if (p->fallback) any_fallback = 1;
        else if (!p->bonus) any_other = 1;
        if (p->limit) any_limit = 1;
    }
    if (any_fallback && any_other) {
        k = 0;
        any_limit = 0;
        for (int i = 0; i < h->n; i++) {
            if (P->patterns[h->h[i].pat].fallback) continue;
            if (P->patterns[h->h[i].pat].limit) any_limit = 1;
            copy_hit(h, k++, h, i);
        }
        h->n = k;
    }
    if (has_limits && any_limit) {
        k = 0;
        for (int i = 0; i < h->n; i++) {
            if (!P->patterns[h->h[i].pat].limit) continue;
            copy_hit(h, k++, h, i);
        }
        h->n = k;
    }
    (void)tmp;
    return OK;
}

/* scoring.py _aggregate: one scored pattern per (pattern, value), counts summed, first place kept. */
static int aggregate(const hits_t *h, result_t *r) {
    r->n_pat = 0;
    for (int i = 0; i < h->n; i++) {
        int at = -1;
        for (int j = 0; j < r->n_pat; j++)
            if (r->pat[j] == h->h[i].pat && r->val[j] == h->h[i].val) at = j;
        if (at < 0) {
            if (r->n_pat >= MAX_HITS) return UNSUPPORTED;
            at = r->n_pat++;
            r->pat[at] = h->h[i].pat, r->val[at] = h->h[i].val, r->cnt[at] = 0;
        }
        if (__builtin_add_overflow(r->cnt[at], h->h[i].cnt, &r->cnt[at])) return UNSUPPORTED;
    }
    return OK;
}

/* scoring.py compute_payments with its role rules (`roles`: find_roles of the rule set used). */
static int payments(const mj_profile *P, const roles_t *roles, mj_pay *pay, int tsumo, int dealer, result_t *r) {
    for (int i = 0; i < P->n_values; i++) {
        pay->named[i] = P->values[i].fn(pay);
        if (pay->overflow) return UNSUPPORTED;
    }
    const mj_formula *rules = tsumo ? P->tsumo : P->ron;
    int n = tsumo ? P->n_tsumo : P->n_ron;
    r->n_pay = 0;
    if (tsumo && dealer && roles->dealer) {
        /* The dealer's own self-draw: everyone else pays the non-dealer amount of a dealer win. */
        const mj_formula *f = roles->non_dealer;
        if (!f) return UNSUPPORTED; /* Python raises KeyError: let it */
        r->role[0] = "non_dealer";
        r->pay[0] = f->fn(pay);
        r->n_pay = 1;
    } else if (dealer && roles->east) {
        /* East wins: every loser pays the non-East amount. */
        const mj_formula *f = roles->non_east;
        if (!f) return UNSUPPORTED;
        r->role[0] = "each";
        r->pay[0] = f->fn(pay);
        r->n_pay = 1;
    } else {
        if (roles->repeats) return UNSUPPORTED; /* dict order of a repeat */
        for (int i = 0; i < n; i++) {
            r->role[r->n_pay] = rules[i].name;
            r->pay[r->n_pay] = rules[i].fn(pay);
            r->n_pay++;
        }
    }
    if (pay->overflow) return UNSUPPORTED;
    return OK;
}

/* scoring.py _preference_key, compared as Python compares tuples. */
static int preference_key(const mj_profile *P, const result_t *r, int64_t *key) {
    for (int i = 0; i < P->n_prefer; i++) {
        int64_t k = 0;
        if (P->prefer[i] == MJ_PREFER_TOTAL) k = r->total;
        else if (P->prefer[i] == MJ_PREFER_PAYMENT) {
            for (int j = 0; j < r->n_pay; j++)
                if (__builtin_add_overflow(k, r->pay[j], &k)) return UNSUPPORTED;
        } else if (P->prefer[i] == MJ_PREFER_POINTS) k = r->has_fu ? r->fu : 0;
        key[i] = k;
    }
    return OK;
}

static int key_greater(const int64_t *a, const int64_t *b, int n) {
    for (int i = 0; i < n; i++)
        if (a[i] != b[i]) return a[i] > b[i];
    return 0;
}

typedef struct {
    const mj_profile *P;
    const plan_t *plan;
    int skip_limits; /* scoring.py _counted_beside_limit's ordinary profile: no limit pattern */
    const uint8_t *concealed;
    Py_ssize_t n_concealed;
    melds_t melds;
    int win;
    int tsumo;
    int64_t sit[SITUATION_FIELDS];
    const uint8_t *dora, *ura;
    Py_ssize_t n_dora, n_ura;
    const int64_t *options;
    uint64_t dead; /* bits by kind: context.exhausted (only_live_wait) */
    PyObject *refusal; /* borrowed: why runtime/situation.py refuses the win, should it be legal */
    /* or: situation.py refuses it, should it be legal, in words of its own (refuse(*refuse_args)) */
    PyObject *refuse, *refuse_args[3]; /* borrowed; NULL: not refused */
} request_t;

static PyObject *build_result(const result_t *r) {
    PyObject *pats = PyTuple_New(r->n_pat), *pays = NULL, *items = NULL;
    if (!pats) return NULL;
    for (int i = 0; i < r->n_pat; i++) {
        PyObject *t = Py_BuildValue("(iLL)", r->pat[i], (long long)r->val[i], (long long)r->cnt[i]);
        if (!t) goto fail;
        PyTuple_SET_ITEM(pats, i, t);
    }
    pays = PyTuple_New(r->n_pay);
    if (!pays) goto fail;
    for (int i = 0; i < r->n_pay; i++) {
        PyObject *t = Py_BuildValue("(sL)", r->role[i], (long long)r->pay[i]);
        if (!t) goto fail;
        PyTuple_SET_ITEM(pays, i, t);
    }
    items = PyTuple_New(r->n_items);
    if (!items) goto fail;
    for (int i = 0; i < r->n_items; i++) {
        PyObject *t = Py_BuildValue("(iL)", r->item[i], (long long)r->item_val[i]);
        if (!t) goto fail;
        PyTuple_SET_ITEM(items, i, t);
    }
    PyObject *reason = r->reason ? PyUnicode_FromString(r->reason) : Py_NewRef(Py_None);
    if (!reason) goto fail;
    PyObject *fu = r->has_fu ? PyLong_FromLongLong(r->fu) : Py_NewRef(Py_None);
    if (!fu) {
        Py_DECREF(reason);
        goto fail;
    }
    PyObject *value = r->has_value ? PyLong_FromLongLong(r->value) : Py_NewRef(Py_None);
    if (!value) {
        Py_DECREF(reason);
        Py_DECREF(fu);
        goto fail;
    }
    return Py_BuildValue("(ONNLLNNONN)", r->legal ? Py_True : Py_False, reason, pats, (long long)r->total,
                         (long long)r->capped, fu, pays, r->limit ? Py_True : Py_False, items, value);
fail:
    Py_DECREF(pats);
    Py_XDECREF(pays);
    Py_XDECREF(items);
    return NULL;
}

/* Building the Score itself (the glue asks for it with `build`): Score, ScoredPattern and
 * ScoredPoints are frozen slots dataclasses whose __init__ only stores its arguments, one per
 * field (the glue checks: no __post_init__, the fields below in this order), so an instance is
 * allocated and its slots filled at their offsets, as object.__setattr__ in __init__ would. */
typedef struct {
    PyTypeObject *tp; /* strong reference */
    int n;
    Py_ssize_t off[11];
} slotted_t;

static const char *SCORE_FIELDS[11] = {"legal", "reason", "patterns", "total", "capped", "fu",
                                       "payments", "arrangement", "limit", "point_items", "value"};
static const char *PATTERN_FIELDS[5] = {"id", "name", "value", "count", "section"};
static const char *POINTS_FIELDS[4] = {"id", "name", "points", "section"};
static slotted_t SCORE_T, PATTERN_T, POINTS_T;

/* Learn the slot offsets of `tp` for `names` (once per class); -1 with TypeError when a field is
 * not a plain object slot of that very class. */
static int learn_slotted(slotted_t *t, PyObject *tp_obj, const char *const *names, int n) {
    if (!PyType_Check(tp_obj)) {
        PyErr_SetString(PyExc_TypeError, "build: a class was expected");
        return -1;
    }
    PyTypeObject *tp = (PyTypeObject *)tp_obj;
    if (t->tp == tp) return 0;
    Py_ssize_t off[11];
    for (int i = 0; i < n; i++) {
        PyObject *d = PyObject_GetAttrString(tp_obj, names[i]);
        int ok = d && Py_IS_TYPE(d, &PyMemberDescr_Type) && ((PyMemberDescrObject *)d)->d_common.d_type == tp &&
                 ((PyMemberDescrObject *)d)->d_member->type == T_OBJECT_EX;
        if (ok) off[i] = ((PyMemberDescrObject *)d)->d_member->offset;
        Py_XDECREF(d);
        if (!ok) {
            PyErr_Format(PyExc_TypeError, "build: %s.%s is not a slot", tp->tp_name, names[i]);
            return -1;
        }
    }
    Py_XSETREF(t->tp, (PyTypeObject *)Py_NewRef(tp_obj));
    t->n = n;
    memcpy(t->off, off, sizeof off);
    return 0;
}

/* An instance of t->tp with its slots set to `values` (references stolen, even on failure). */
static PyObject *new_slotted(const slotted_t *t, PyObject **values) {
    PyObject *o = t->tp->tp_alloc(t->tp, 0);
    if (!o) {
        for (int i = 0; i < t->n; i++) Py_XDECREF(values[i]);
        return NULL;
    }
    for (int i = 0; i < t->n; i++) *(PyObject **)((char *)o + t->off[i]) = values[i];
    return o;
}

/* build: (Score, ScoredPattern, ScoredPoints, patterns, items), `patterns` holding (id, name,
 * section) per pattern of the profile, `items` the same per point item. */
typedef struct {
    PyObject *patterns, *items;
    /* ScoredPattern (ScoredPoints) objects built for each pattern (point item), with their value
     * and count, MEMO_WAYS per pattern, the way chosen by the value and count (a point item's
     * value varies from hand to hand: one kept would rarely serve): frozen, so an answer may share
     * them, as scoring.py _scored_pattern shares its memo's (strong references; NULL: none yet). */
#define MEMO_WAYS 4
    struct {
        int64_t value, count;
        PyObject *scored;
    } pattern_memo[MJ_MAX_PATTERNS][MEMO_WAYS], item_memo[MAX_ITEMS][MEMO_WAYS];
} builder_t;

static unsigned memo_way(int64_t value, int64_t count) {
    return (unsigned)(((uint64_t)value * 3u + (uint64_t)count) % MEMO_WAYS);
}

static void clear_builder(builder_t *b) {
    for (int i = 0; i < MJ_MAX_PATTERNS; i++)
        for (int w = 0; w < MEMO_WAYS; w++) Py_CLEAR(b->pattern_memo[i][w].scored);
    for (int i = 0; i < MAX_ITEMS; i++)
        for (int w = 0; w < MEMO_WAYS; w++) Py_CLEAR(b->item_memo[i][w].scored);
}

static int parse_builder(PyObject *build, const mj_profile *P, builder_t *b) {
    if (!PyTuple_Check(build) || PyTuple_GET_SIZE(build) != 5) {
        PyErr_SetString(PyExc_TypeError, "build must be (Score, ScoredPattern, ScoredPoints, patterns, items)");
        return -1;
    }
    if (learn_slotted(&SCORE_T, PyTuple_GET_ITEM(build, 0), SCORE_FIELDS, 11) < 0 ||
        learn_slotted(&PATTERN_T, PyTuple_GET_ITEM(build, 1), PATTERN_FIELDS, 5) < 0 ||
        learn_slotted(&POINTS_T, PyTuple_GET_ITEM(build, 2), POINTS_FIELDS, 4) < 0)
        return -1;
    b->patterns = PyTuple_GET_ITEM(build, 3);
    b->items = PyTuple_GET_ITEM(build, 4);
    if (!PyTuple_Check(b->patterns) || PyTuple_GET_SIZE(b->patterns) != P->n_patterns || !PyTuple_Check(b->items) ||
        PyTuple_GET_SIZE(b->items) != P->n_point_items) {
        PyErr_SetString(PyExc_ValueError, "build: one (id, name, section) per pattern and per point item");
        return -1;
    }
    for (Py_ssize_t i = 0; i < P->n_patterns + P->n_point_items; i++) {
        PyObject *x = i < P->n_patterns ? PyTuple_GET_ITEM(b->patterns, i)
                                        : PyTuple_GET_ITEM(b->items, i - P->n_patterns);
        if (!PyTuple_Check(x) || PyTuple_GET_SIZE(x) != 3) {
            PyErr_SetString(PyExc_ValueError, "build: one (id, name, section) per pattern and per point item");
            return -1;
        }
    }
    return 0;
}

/* A payer role's name as a str (a new reference): every answer names the same few roles, so each
 * is made once (interned) and kept, found by its C string (the pointer, then the text: a
 * module loaded later may reuse an address). */
#define N_ROLE_NAMES 64
static struct {
    const char *c;
    PyObject *s;
} ROLE_NAMES[N_ROLE_NAMES];

static PyObject *role_name(const char *c) {
    int free_at = -1;
    for (int i = 0; i < N_ROLE_NAMES; i++) {
        if (!ROLE_NAMES[i].s) {
            if (free_at < 0) free_at = i;
            continue;
        }
        if (ROLE_NAMES[i].c == c && strcmp(PyUnicode_AsUTF8(ROLE_NAMES[i].s), c) == 0)
            return Py_NewRef(ROLE_NAMES[i].s);
    }
    PyObject *s = PyUnicode_InternFromString(c);
    if (s && free_at >= 0) {
        ROLE_NAMES[free_at].c = c;
        ROLE_NAMES[free_at].s = Py_NewRef(s);
    }
    return s;
}

/* The Score of a result, as runtime/native_score.py _score builds it (arrangement None). */
static PyObject *build_score(const result_t *r, builder_t *b) {
    PyObject *v[11] = {NULL};
    PyObject *pats = PyTuple_New(r->n_pat), *items = PyTuple_New(r->n_items), *pays = PyDict_New();
    if (!pats || !items || !pays) goto fail;
    for (int i = 0; i < r->n_pat; i++) {
        __typeof__(b->pattern_memo[0][0]) *memo = &b->pattern_memo[r->pat[i]][memo_way(r->val[i], r->cnt[i])];
        if (memo->scored && memo->value == r->val[i] && memo->count == r->cnt[i]) {
            PyTuple_SET_ITEM(pats, i, Py_NewRef(memo->scored));
            continue;
        }
        PyObject *info = PyTuple_GET_ITEM(b->patterns, r->pat[i]);
        PyObject *f[5] = {Py_NewRef(PyTuple_GET_ITEM(info, 0)), Py_NewRef(PyTuple_GET_ITEM(info, 1)),
                          PyLong_FromLongLong(r->val[i]), PyLong_FromLongLong(r->cnt[i]),
                          Py_NewRef(PyTuple_GET_ITEM(info, 2))};
        if (!f[2] || !f[3]) {
            for (int k = 0; k < 5; k++) Py_XDECREF(f[k]);
            goto fail;
        }
        PyObject *sp = new_slotted(&PATTERN_T, f);
        if (!sp) goto fail;
        PyTuple_SET_ITEM(pats, i, sp);
        Py_XSETREF(memo->scored, Py_NewRef(sp));
        memo->value = r->val[i], memo->count = r->cnt[i];
    }
    for (int i = 0; i < r->n_items; i++) {
        __typeof__(b->item_memo[0][0]) *memo = &b->item_memo[r->item[i]][memo_way(r->item_val[i], 1)];
        if (memo->scored && memo->value == r->item_val[i]) {
            PyTuple_SET_ITEM(items, i, Py_NewRef(memo->scored));
            continue;
        }
        PyObject *info = PyTuple_GET_ITEM(b->items, r->item[i]);
        PyObject *f[4] = {Py_NewRef(PyTuple_GET_ITEM(info, 0)), Py_NewRef(PyTuple_GET_ITEM(info, 1)),
                          PyLong_FromLongLong(r->item_val[i]), Py_NewRef(PyTuple_GET_ITEM(info, 2))};
        if (!f[2]) {
            for (int k = 0; k < 4; k++) Py_XDECREF(f[k]);
            goto fail;
        }
        PyObject *sp = new_slotted(&POINTS_T, f);
        if (!sp) goto fail;
        PyTuple_SET_ITEM(items, i, sp);
        Py_XSETREF(memo->scored, Py_NewRef(sp));
        memo->value = r->item_val[i];
    }
    for (int i = 0; i < r->n_pay; i++) {
        PyObject *amount = PyLong_FromLongLong(r->pay[i]);
        PyObject *role = role_name(r->role[i]);
        int bad = !amount || !role || PyDict_SetItem(pays, role, amount) < 0;
        Py_XDECREF(role);
        Py_XDECREF(amount);
        if (bad) goto fail;
    }
    v[0] = Py_NewRef(r->legal ? Py_True : Py_False);
    v[1] = r->reason ? PyUnicode_FromString(r->reason) : Py_NewRef(Py_None);
    v[2] = pats;
    v[3] = PyLong_FromLongLong(r->total);
    v[4] = PyLong_FromLongLong(r->capped);
    v[5] = r->has_fu ? PyLong_FromLongLong(r->fu) : Py_NewRef(Py_None);
    v[6] = pays;
    v[7] = Py_NewRef(Py_None);
    v[8] = Py_NewRef(r->limit ? Py_True : Py_False);
    v[9] = items;
    v[10] = r->has_value ? PyLong_FromLongLong(r->value) : Py_NewRef(Py_None);
    pats = items = pays = NULL;
    for (int i = 0; i < 11; i++)
        if (!v[i]) {
            for (int k = 0; k < 11; k++) Py_XDECREF(v[k]);
            return NULL;
        }
    return new_slotted(&SCORE_T, v);
fail:
    Py_XDECREF(pats);
    Py_XDECREF(items);
    Py_XDECREF(pays);
    return NULL;
}

/* scoring.py evaluate's answer to a legal win runtime/situation.py refuses: Score(False, reason). */
static PyObject *build_refusal(PyObject *reason) {
    PyObject *v[11] = {Py_NewRef(Py_False), Py_NewRef(reason), PyTuple_New(0), PyLong_FromLong(0), PyLong_FromLong(0),
                       Py_NewRef(Py_None), PyDict_New(), Py_NewRef(Py_None), Py_NewRef(Py_False), PyTuple_New(0),
                       Py_NewRef(Py_None)};
    for (int i = 0; i < 11; i++)
        if (!v[i]) {
            for (int k = 0; k < 11; k++) Py_XDECREF(v[k]);
            return NULL;
        }
    return new_slotted(&SCORE_T, v);
}

static void fill_tile_list(mj_tile *out, int *n, const uint8_t *codes, Py_ssize_t len) {
    for (Py_ssize_t i = 0; i < len; i++) out[(*n)++] = TILES[codes[i]];
}

/* Scratch for one request: three results and the enumeration (about 100 KB), kept between
 * calls; a re-entrant call (none happens: lowered code never calls Python) gets its own. */
typedef struct {
    result_t res[3];
    enum_t e;
} scratch_t;

static hits_t HITS; /* scratch, like SW */

/* mj_view.resolve_waits: only_wait and only_live_wait where the caller passed -1, from the view's
 * concealed counts (winning tile included) and the request's exhausted kinds. scoring.py
 * _only_live_wait: the kinds every copy of which lies exposed (context.exhausted, q->dead) do not
 * count as waits, the winning one aside. Only the other waits matter (the live ones, where
 * only_live_wait is asked): the first found settles both answers as no. */
static void resolve_waits(mj_view *v) {
    const request_t *q = v->waits_request;
    int win = v->win_tile.kind;
    uint64_t win_bit = (uint64_t)1 << win, other = ~win_bit;
    if (v->only_live_wait < 0) other &= ~q->dead;
    uint64_t waits = formal_waits_until(v->concealed_counts, v->n_melds, win, q->P, other);
    if (v->only_wait < 0) v->only_wait = waits == win_bit;
    if (v->only_live_wait < 0) v->only_live_wait = (waits & ~(q->dead & ~win_bit)) == win_bit;
}

/* The whole evaluation; *status UNSUPPORTED means "answer None". Fills `out`. */
static int score(const request_t *q, result_t *out, result_t *cur, result_t *under, enum_t *e, int *status) {
    const mj_profile *P = q->P;
    *status = OK;
    uint8_t conc[N_KINDS] = {0}, totals[N_KINDS] = {0};
    for (Py_ssize_t i = 0; i < q->n_concealed; i++) conc[q->concealed[i] >> 1]++;
    conc[q->win >> 1]++;
    memcpy(totals, conc, N_KINDS);
    for (int m = 0; m < q->melds.n_melds; m++)
        for (int k = 0; k < q->melds.n_codes[m]; k++) totals[q->melds.codes[m][k] >> 1]++;
    uint64_t tile_mask = 0;
    unsigned suits = 0;
    int64_t fours = 0;
    for (int k = 0; k < N_KINDS; k++) {
        if (!totals[k]) continue;
        if (totals[k] > 4) { /* a tile set of more copies (check_hand allows it): Python answers */
            *status = UNSUPPORTED;
            return 0;
        }
        tile_mask |= (uint64_t)1 << k;
        suits |= 1u << (k < 27 ? k / 9 : MJ_SUIT_Z);
        fours += totals[k] == 4;
    }
    if (shapes_arrangements(conc, q->melds.n_melds, q->win >> 1, P, e) < 0) {
        *status = UNSUPPORTED;
        return 0;
    }
    clear_result(out);
    if (e->n_arrs == 0) {
        out->legal = 0;
        out->reason = "not a winning shape";
        return 0;
    }
    /* Profile.has_limits (of the ordinary profile: none). The ordinary profile lists the
     * combination patterns in another order when a limit pattern combines (its groups' first
     * appearance moves): left to Python. */
    if (q->skip_limits && q->plan->limit_combines) goto unsupported;
    int has_limits = q->plan->has_limits && !q->skip_limits;

    /* The hand-wide view (scoring.py _learn_tiles and the top of _evaluate). */
    mj_view v;
    memset(&v, 0, sizeof v);
    int nm = q->melds.n_melds;
    for (int m = 0; m < nm; m++) v.melds[m] = &q->melds.groups[m];
    v.n_melds = nm;
    v.win_tile = TILES[q->win];
    fill_tile_list(v.tiles, &v.n_tiles, q->concealed, q->n_concealed);
    v.tiles[v.n_tiles++] = TILES[q->win];
    for (int m = 0; m < nm; m++) fill_tile_list(v.tiles, &v.n_tiles, q->melds.codes[m], q->melds.n_codes[m]);
    v.tile_mask = tile_mask;
    v.suits = suits;
    v.four_of_a_kinds = fours;
    v.is_closed = 1;
    for (int m = 0; m < nm; m++)
        if (q->melds.groups[m].meld != MJ_MELD_ANKAN) v.is_closed = 0;
    v.tsumo = q->tsumo;
    v.ron = !q->tsumo;
    /* every slot the view holds (only_wait, only_live_wait not passed, -1: the core's own, on
     * the first read of either, by resolve_waits) */
#define FILL(ctype, name, slot) v.name = (ctype)q->sit[slot];
    MJ_SITUATION_VIEW(FILL)
#undef FILL
    v.resolve_waits = resolve_waits;
    v.waits_request = q;
    v.winner = 1;
    fill_tile_list(v.dora_indicators, &v.n_dora_indicators, q->dora, q->n_dora);
    fill_tile_list(v.ura_indicators, &v.n_ura_indicators, q->ura, q->n_ura);
    memcpy(v.counts, totals, N_KINDS);
    memcpy(v.concealed_counts, conc, N_KINDS);
    v.options = q->options;

    int64_t best_key[16], key[16];
    int have_best = 0, have_under = 0;
    const char *failed = NULL;
    result_t *best = out;
    uint8_t without[MJ_MAX_PATTERNS] = {0};
    for (int i = 0; i < P->n_minimum_without; i++) without[P->minimum_without[i]] = 1;

    for (int a = 0; a < e->n_arrs; a++) {
        const arr_t *ar = &e->arrs[a];
        const reading_t *rd = &e->readings[ar->reading];
        if (nm + rd->n > MJ_MAX_GROUPS) goto unsupported; /* cannot happen (at most 14 groups); guards v.groups */
        v.shape = ar->shape;
        v.wait = ar->wait;
        v.n_groups = 0;
        v.n_sets = 0;
        v.pair = NULL;
        for (int i = 0; i < nm + rd->n; i++) {
            const mj_group *g = i < nm ? &q->melds.groups[i] : rd->g[i - nm];
            v.groups[v.n_groups++] = g;
            if (g->kind == MJ_GK_SEQUENCE || g->kind == MJ_GK_TRIPLET || g->kind == MJ_GK_KONG) v.sets[v.n_sets++] = g;
            else if (g->kind == MJ_GK_PAIR && !v.pair) v.pair = g; /* Arrangement.pair: the first pair */
        }
        const mj_group *wg = ar->win_group < 0 ? NULL : v.groups[ar->win_group];
        v.discard_group = q->tsumo ? NULL : wg;
        /* scoring.py _concealed_triplets, corrected for ron in _evaluate */
        int64_t trip = 0;
        for (int i = 0; i < v.n_groups; i++)
            if (v.groups[i]->concealed && v.groups[i]->is_triplet) trip++;
        int discard_triplet = wg && wg->kind == MJ_GK_TRIPLET && wg->meld == MJ_NONE;
        v.concealed_triplets = trip - (!q->tsumo && discard_triplet);
        v.n_members = 0;
        v.overflow = 0;

        const char *reason = NULL;
        for (int i = 0; i < P->n_requirements; i++) {
            int64_t ok = P->requirements[i].when(&v);
            if (v.overflow) goto unsupported;
            if (!ok) {
                reason = P->requirements[i].reason_en;
                break;
            }
        }
        if (reason) {
            if (!failed || !*failed) failed = reason; /* failed = failed or reason */
            continue;
        }
        hits_t *hits = &HITS;
        if (reading_hits(P, q->plan, &v, hits, q->skip_limits) != OK) goto unsupported;
        if (hits->n > 1 && apply_relations(P, hits, has_limits, NULL) != OK) goto unsupported;
        clear_result(cur);
        if (aggregate(hits, cur) != OK) goto unsupported;
        int64_t total = 0, counting_off = 0;
        int limit = 0;
        for (int i = 0; i < cur->n_pat; i++) {
            int64_t pts;
            if (__builtin_mul_overflow(cur->val[i], cur->cnt[i], &pts) || __builtin_add_overflow(total, pts, &total))
                goto unsupported;
            if (without[cur->pat[i]] && __builtin_add_overflow(counting_off, pts, &counting_off)) goto unsupported;
            if (P->patterns[cur->pat[i]].limit) limit = has_limits;
        }
        cur->total = total;
        cur->capped = P->has_cap && P->cap < total ? P->cap : total;
        cur->limit = limit;
        if (P->has_minimum) {
            int64_t counting;
            if (__builtin_sub_overflow(total, counting_off, &counting)) goto unsupported;
            if (counting < P->minimum_at_least) {
                cur->legal = 0;
                cur->reason = P->minimum_reason_en ? P->minimum_reason_en : "";
                if (!have_under || total > under->total) {
                    result_t *t = under;
                    under = cur;
                    cur = t;
                    have_under = 1;
                }
                continue;
            }
        }
        cur->legal = 1;
        if (P->has_points && !limit) { /* scoring.py count_points */
            memset(v.counted, 0, sizeof v.counted);
            for (int i = 0; i < cur->n_pat; i++) v.counted[cur->pat[i] / 64] |= (uint64_t)1 << (cur->pat[i] % 64);
            int64_t raw = 0;
            for (int i = 0; i < P->n_point_items; i++) {
                const mj_point_item *it = &P->point_items[i];
                if (it->when) {
                    int64_t ok = it->when(&v);
                    if (v.overflow) goto unsupported;
                    if (!ok) continue;
                }
                int64_t val = amount(&it->value, &v);
                if (v.overflow) goto unsupported;
                if (val) {
                    if (__builtin_add_overflow(raw, val, &raw)) goto unsupported;
                    cur->item[cur->n_items] = i;
                    cur->item_val[cur->n_items] = val;
                    cur->n_items++;
                }
            }
            if (P->points_result) {
                v.points = raw;
                raw = P->points_result(&v);
                if (v.overflow) goto unsupported;
            }
            cur->has_fu = 1;
            cur->fu = raw;
        }
        mj_pay pay;
        memset(&pay, 0, sizeof pay);
        pay.fan = total;
        pay.capped = cur->capped;
        pay.points = cur->has_fu ? cur->fu : 0; /* points=fu or 0 */
        pay.honba = q->sit[MJ_SIT_HONBA];
        pay.tsumo = q->tsumo;
        pay.ron = !q->tsumo;
        pay.dealer = (int)q->sit[MJ_SIT_DEALER];
        pay.limit = limit;
        pay.options = q->options;
        if (payments(P, &q->plan->roles[q->tsumo != 0], &pay, q->tsumo, (int)q->sit[MJ_SIT_DEALER], cur) != OK)
            goto unsupported;
        if (P->hand_value != MJ_NONE) {
            cur->has_value = 1;
            cur->value = pay.named[P->hand_value];
        }
        if (preference_key(P, cur, key) != OK) goto unsupported;
        if (!have_best || key_greater(key, best_key, P->n_prefer)) {
            result_t *t = best;
            best = cur;
            cur = t;
            memcpy(best_key, key, sizeof key);
            have_best = 1;
        }
    }
    if (!have_best) {
        if (have_under && !failed) {
            copy_result(out, under);
            return 0;
        }
        clear_result(out);
        out->legal = 0;
        out->reason = failed && *failed ? failed : "not a legal win"; /* failed or "not a legal win" */
        return 0;
    }
    copy_result(out, best);
    if (best->limit && P->limit_hands_counted != MJ_NONE && q->options[3 * P->limit_hands_counted]) {
        /* scoring.py _counted_beside_limit: the hand counted again without its limit patterns;
         * the counted figures answer when their value beats the limit hand's. */
        scratch_t *w = PyMem_Malloc(sizeof *w);
        if (!w) {
            PyErr_NoMemory();
            return -1;
        }
        request_t ordinary = *q;
        ordinary.skip_limits = 1;
        int st;
        int rc = score(&ordinary, &w->res[0], &w->res[1], &w->res[2], &w->e, &st);
        if (rc == 0 && st == OK) {
            const result_t *counted = &w->res[0];
            if (counted->legal && counted->has_value && out->has_value && counted->value > out->value)
                copy_result(out, counted);
        }
        PyMem_Free(w);
        if (rc < 0) return -1;
        if (st != OK) goto unsupported;
    }
    return 0;
unsupported:
    *status = UNSUPPORTED;
    return 0;
}


static scratch_t *SCRATCH;
static int SCRATCH_BUSY;

/* Score a parsed request: the result tuple (or with `b` the Score), None (Python answers), or
 * NULL with an exception. */
static PyObject *run(const request_t *q, builder_t *b) {
    scratch_t *w;
    int own = SCRATCH_BUSY;
    if (own) w = PyMem_Malloc(sizeof *w);
    else {
        if (!SCRATCH) SCRATCH = PyMem_Malloc(sizeof *SCRATCH);
        w = SCRATCH;
    }
    if (!w) return PyErr_NoMemory();
    if (!own) SCRATCH_BUSY = 1;
    int status;
    PyObject *ret = NULL;
    if (score(q, &w->res[0], &w->res[1], &w->res[2], &w->e, &status) == 0) {
        if (status != OK) ret = Py_NewRef(Py_None);
        else if (b && q->refusal && w->res[0].legal) ret = build_refusal(q->refusal);
        else if (b && q->refuse && w->res[0].legal) {
            PyObject *why = PyObject_Vectorcall(q->refuse, q->refuse_args, 3, NULL);
            if (why && PyUnicode_Check(why)) ret = build_refusal(why);
            else if (why == Py_None) ret = build_score(&w->res[0], b);
            else if (why) PyErr_SetString(PyExc_TypeError, "scorer: the refusal must be a str or None");
            Py_XDECREF(why);
        } else ret = b ? build_score(&w->res[0], b) : build_result(&w->res[0]);
    }
    if (own) PyMem_Free(w);
    else SCRATCH_BUSY = 0;
    return ret;
}

static int check_codes(const uint8_t *codes, Py_ssize_t n, const char *what) {
    for (Py_ssize_t i = 0; i < n; i++) {
        int kind = codes[i] >> 1, red = codes[i] & 1;
        if (kind >= N_KINDS || (red && !(kind < 27 && kind % 9 == 4))) {
            PyErr_Format(PyExc_ValueError, "%s: tile code %d is not a hand-forming tile", what, codes[i]);
            return -1;
        }
    }
    return 0;
}

static PyObject *py_evaluate(PyObject *self, PyObject *args) {
    PyObject *capsule, *melds, *situation;
    Py_buffer conc, dora, ura, opts;
    int win, tsumo;
    if (!PyArg_ParseTuple(args, "Oy*O!ipO!y*y*y*", &capsule, &conc, &PyTuple_Type, &melds, &win, &tsumo,
                          &PyTuple_Type, &situation, &dora, &ura, &opts))
        return NULL;
    PyObject *ret = NULL;
    request_t q;
    memset(&q, 0, sizeof q);
    q.P = profile_of(capsule, &q.plan);
    if (!q.P) goto done;
    const mj_profile *P = q.P;
    if (opts.len != (Py_ssize_t)(3 * sizeof(int64_t)) * P->n_options) {
        PyErr_SetString(PyExc_ValueError, "options must hold 3 int64 per declared option");
        goto done;
    }
    q.options = (const int64_t *)opts.buf;
    q.concealed = conc.buf;
    q.n_concealed = conc.len;
    q.dora = dora.buf, q.n_dora = dora.len;
    q.ura = ura.buf, q.n_ura = ura.len;
    q.tsumo = tsumo;
    if (parse_melds(melds, &q.melds) < 0) goto done;
    if (conc.len + 1 != 14 - 3 * q.melds.n_melds) {
        PyErr_SetString(PyExc_ValueError, "concealed tiles plus the winning tile do not fit the melds");
        goto done;
    }
    if (win < 0 || win >= 2 * N_KINDS) {
        PyErr_SetString(PyExc_ValueError, "winning tile code out of range");
        goto done;
    }
    q.win = win;
    uint8_t wc = (uint8_t)win;
    if (check_codes(q.concealed, q.n_concealed, "concealed") < 0 || check_codes(&wc, 1, "win") < 0 ||
        check_codes(q.dora, q.n_dora, "dora") < 0 || check_codes(q.ura, q.n_ura, "ura") < 0)
        goto done;
    for (int m = 0; m < q.melds.n_melds; m++)
        if (check_codes(q.melds.codes[m], q.melds.n_codes[m], "meld") < 0) goto done;
    if (q.n_dora > MJ_MAX_INDICATORS || q.n_ura > MJ_MAX_INDICATORS) {
        ret = Py_NewRef(Py_None);
        goto done;
    }
    if (PyTuple_GET_SIZE(situation) != SITUATION_FIELDS) {
        PyErr_Format(PyExc_ValueError, "situation must hold %d ints", SITUATION_FIELDS);
        goto done;
    }
    for (int i = 0; i < SITUATION_FIELDS; i++) {
        PyObject *x = PyTuple_GET_ITEM(situation, i);
        if (!PyLong_Check(x)) { /* not an int (nor a bool): Python reads it as it reads it */
            ret = Py_NewRef(Py_None);
            goto done;
        }
        int of = 0;
        long long val = PyLong_AsLongLongAndOverflow(x, &of);
        if (of) { /* beyond int64: Python's integers answer */
            ret = Py_NewRef(Py_None);
            goto done;
        }
        if (val == -1 && PyErr_Occurred()) goto done;
        q.sit[i] = val;
    }
    if (q.sit[MJ_SIT_SEAT_WIND] < 0 || q.sit[MJ_SIT_SEAT_WIND] > 3 || q.sit[MJ_SIT_ROUND_WIND] < 0 ||
        q.sit[MJ_SIT_ROUND_WIND] > 3 || q.sit[MJ_SIT_MISSING_SUIT] < MJ_NONE || q.sit[MJ_SIT_MISSING_SUIT] > 2 ||
        q.sit[MJ_SIT_ONLY_WAIT] < -1 || q.sit[MJ_SIT_ONLY_WAIT] > 1 || q.sit[MJ_SIT_ONLY_LIVE_WAIT] < -1 ||
        q.sit[MJ_SIT_ONLY_LIVE_WAIT] > 1) {
        PyErr_SetString(PyExc_ValueError, "situation field out of range");
        goto done;
    }
    ret = run(&q, NULL);
done:
    PyBuffer_Release(&conc);
    PyBuffer_Release(&dora);
    PyBuffer_Release(&ura);
    PyBuffer_Release(&opts);
    return ret;
}

/* ------------------------------------------------------------------------------------------ */
/* evaluate_hand: the request read from the Python objects themselves                          */
/* ------------------------------------------------------------------------------------------ */

/* The request read from the Python objects themselves (scorer, score_hand; see the header).
 * Everything a profile object decides is learnt once into a scorer; what a request holds (its
 * tiles, its situation, the texts of its indicators and flowers) is read on every call. */
static PyObject *A_concealed, *A_melds, *A_win_tile, *A_win, *A_kind, *A_red, *A_type, *A_tiles;
/* The WinContext fields read here (mjsituation.h MJ_SITUATION_CONTEXT: the slots not derived),
 * in slot order, with each one's slot and how it is read; "riichi" becomes `riichi or
 * double_riichi`, "dealer" is_dealer, after the loop. */
#define CTX_NAME(name, slot, read) #name,
#define CTX_SLOT_OF(name, slot, read) slot,
#define CTX_READ_OF(name, slot, read) read,
static const char *CTX_FIELDS[] = {MJ_SITUATION_CONTEXT(CTX_NAME)};
#define N_CTX ((int)(sizeof CTX_FIELDS / sizeof CTX_FIELDS[0]))
static const int CTX_SLOT[N_CTX] = {MJ_SITUATION_CONTEXT(CTX_SLOT_OF)};
static const int CTX_READ[N_CTX] = {MJ_SITUATION_CONTEXT(CTX_READ_OF)};
#undef CTX_NAME
#undef CTX_SLOT_OF
#undef CTX_READ_OF
static int CTX_FACT[N_CTX]; /* the FACTS bit of a flag of that name, or -1 (set at module init) */
static PyObject *A_ctx[N_CTX], *A_options, *A_losing_hand, *A_exhausted, *A_flowers, *A_dora, *A_ura;

/* The facts a row of runtime/situation.py CONTRADICTIONS may name, by bit (the module's FACTS):
 * the context's flags as given (the MJ_READ_FLAG slots; riichi before `or double_riichi`),
 * how the hand was won, and whether it has melds. The profile's own facts (a dead wall) are
 * settled by the glue when it builds the scorer. */
#define N_FACTS 15
static const char *FACTS[N_FACTS] = {"last_tile", "after_kong", "kong_shot", "robbing_kong", "first_draw",
                                     "fourth_tile", "riichi", "double_riichi", "ippatsu", "original_call",
                                     "kong_upon_kong", "tsumo", "ron", "melds", "not after_kong"};
enum { FACT_TSUMO = 11, FACT_RON = 12, FACT_MELDS = 13, FACT_NOT_AFTER_KONG = 14 };

/* Reading an attribute of a slots dataclass (Tile, Meld, WinningHand, WinContext are all
 * `@dataclass(slots=True)`): the class's member descriptor gives the slot's offset, learnt once
 * per (class, name), and an object of exactly that class is read at that offset. Anything else
 * (another class, an unset slot, a descriptor that is not a plain object slot) takes
 * PyObject_GetAttr. Returns a new reference, or NULL with an exception set. */
typedef struct {
    PyTypeObject *type; /* strong reference */
    Py_ssize_t offset;  /* 0: the class has no plain slot of that name */
} slot_cache;

static PyObject *learn_attr(PyObject *obj, PyObject *name, slot_cache *c);

static inline PyObject *get_attr(PyObject *obj, PyObject *name, slot_cache *c) {
    if (c->type == Py_TYPE(obj) && c->offset > 0) {
        PyObject *v = *(PyObject **)((char *)obj + c->offset);
        if (v) return Py_NewRef(v);
    }
    return learn_attr(obj, name, c);
}

/* get_attr's first read of a class (or any read of another class, or of an unset slot). */
static PyObject *learn_attr(PyObject *obj, PyObject *name, slot_cache *c) {
    PyTypeObject *tp = Py_TYPE(obj);
    if (c->type != tp) {
        PyObject *d = PyObject_GetAttr((PyObject *)tp, name);
        Py_ssize_t off = 0;
        if (d && Py_IS_TYPE(d, &PyMemberDescr_Type)) {
            PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
            if (m->type == T_OBJECT_EX && ((PyMemberDescrObject *)d)->d_common.d_type == tp) off = m->offset;
        }
        Py_XDECREF(d);
        PyErr_Clear();
        Py_XSETREF(c->type, (PyTypeObject *)Py_NewRef(tp));
        c->offset = off;
    }
    if (c->offset > 0) {
        PyObject *v = *(PyObject **)((char *)obj + c->offset);
        if (v) return Py_NewRef(v);
    }
    return PyObject_GetAttr(obj, name);
}

static slot_cache C_exhausted, C_kind, C_red, C_options, C_losing, C_concealed, C_melds, C_win_tile, C_win, C_type, C_tiles,
    C_flowers, C_dora, C_ura, C_ctx[N_CTX];

/* The code of a Tile (kind * 2 + red), or -1 when it is not plainly one. */
static int tile_code(PyObject *t) {
    PyObject *k = get_attr(t, A_kind, &C_kind);
    if (!k) {
        PyErr_Clear();
        return -1;
    }
    long kind = PyLong_CheckExact(k) ? PyLong_AsLong(k) : -1;
    Py_DECREF(k);
    PyObject *r = get_attr(t, A_red, &C_red);
    if (!r) {
        PyErr_Clear();
        return -1;
    }
    int red = r == Py_True ? 1 : r == Py_False ? 0 : -1;
    Py_DECREF(r);
    if (kind < 0 || kind >= 42 || red < 0) {
        PyErr_Clear();
        return -1;
    }
    return (int)kind * 2 + red;
}

/* The tile objects parsing hands out (runtime/tiles.py shares one object per kind and red five),
 * known by identity: the scorer holds them (so no other object takes their address) with their
 * codes, in an open-addressed table; any other Tile object is read by tile_code. */
#define KNOWN_TILES 128 /* a power of two, well above the 45 shared tiles */
typedef struct {
    PyObject *tile[KNOWN_TILES]; /* strong references */
    int8_t code[KNOWN_TILES];
} known_tiles_t;

static size_t known_slot(const PyObject *t) { return ((uintptr_t)t >> 4) * 0x9E3779B97F4A7C15ull >> 57; }

static int known_code(const known_tiles_t *k, PyObject *t) {
    for (size_t h = known_slot(t);; h = (h + 1) & (KNOWN_TILES - 1)) {
        if (k->tile[h] == t) return k->code[h];
        if (!k->tile[h]) return tile_code(t);
    }
}

/* A one-letter str (a StrEnum member is one): its letter, or 0. */
static char letter(PyObject *x) {
    if (!PyUnicode_Check(x) || PyUnicode_GET_LENGTH(x) != 1) return 0;
    Py_UCS4 c = PyUnicode_READ_CHAR(x, 0);
    return c < 128 ? (char)c : 0;
}

/* The str objects already read as a word of `names` (StrEnum members: the same few objects on
 * every request), known by identity (strong references, so no other object takes the address). */
typedef struct {
    PyObject *seen[8];
    int8_t code[8];
} word_cache;

static int cached_word(const word_cache *w, PyObject *x) {
    for (int i = 0; i < 8 && w->seen[i]; i++)
        if (w->seen[i] == x) return w->code[i];
    return -1;
}

static void remember_word(word_cache *w, PyObject *x, int code) {
    for (int i = 0; i < 8; i++)
        if (!w->seen[i]) {
            w->seen[i] = Py_NewRef(x);
            w->code[i] = (int8_t)code;
            return;
        }
}

static word_cache MELD_WORDS, WIN_WORDS;

static int meld_code(PyObject *type) {
    static const char *names[5] = {"chi", "pon", "minkan", "kakan", "ankan"}; /* MJ_MELD_* order */
    int known = cached_word(&MELD_WORDS, type);
    if (known >= 0) return known;
    if (!PyUnicode_Check(type)) return -1;
    const char *s = PyUnicode_AsUTF8(type);
    if (!s) {
        PyErr_Clear();
        return -1;
    }
    for (int i = 0; i < 5; i++)
        if (strcmp(s, names[i]) == 0) {
            remember_word(&MELD_WORDS, type, i);
            return i;
        }
    return -1;
}

/* Not certain of the request: the glue's general path answers (an attribute error is dropped). */
#define NOT_SURE()                          \
    do {                                    \
        PyErr_Clear();                      \
        ret = Py_NewRef(Py_NotImplemented); \
        goto done;                          \
    } while (0)

/* By tile code, what the profile's set makes of a tile (scorer's `tiles`). */
#define TILE_HAND 1   /* may stand in a hand, or indicate one (scoring.py _accepted) */
#define TILE_FLOWER 2 /* a flower of the set (scoring.py _count_flowers accepts it) */
#define MAX_CONTRADICTIONS 64

typedef struct {
    PyObject *capsule, *build, *refuse; /* strong references: the profile's tables, the builder's
                                           objects, situation.py impossible_win */
    const mj_profile *P;
    const plan_t *plan;
    builder_t builder;
    uint8_t tiles[2 * 42];
    int copies, meld_types, indicator_limit, red_suits, n_contradictions;
    uint32_t contradictions[MAX_CONTRADICTIONS]; /* bits over FACTS */
    PyObject *reasons[MAX_CONTRADICTIONS];       /* strong references: each row's words */
    known_tiles_t known;
    int64_t options[];                            /* 3 per declared option */
} scorer_t;

static void scorer_free(PyObject *capsule) {
    scorer_t *S = PyCapsule_GetPointer(capsule, "mjspec.native_scorer");
    if (!S) {
        PyErr_Clear();
        return;
    }
    Py_XDECREF(S->capsule);
    Py_XDECREF(S->build);
    clear_builder(&S->builder);
    Py_XDECREF(S->refuse);
    for (int i = 0; i < S->n_contradictions; i++) Py_XDECREF(S->reasons[i]);
    for (int i = 0; i < KNOWN_TILES; i++) Py_XDECREF(S->known.tile[i]);
    PyMem_Free(S);
}

static PyObject *py_scorer(PyObject *self, PyObject *args) {
    PyObject *capsule, *build, *contradictions, *refuse, *known;
    Py_buffer tiles, opts;
    int copies, meld_types, indicator_limit, red_suits;
    if (!PyArg_ParseTuple(args, "Oy*iy*OiiiO!OO!", &capsule, &tiles, &copies, &opts, &build, &meld_types,
                          &indicator_limit, &red_suits, &PyTuple_Type, &contradictions, &refuse, &PyTuple_Type,
                          &known))
        return NULL;
    PyObject *ret = NULL;
    scorer_t *S = NULL;
    const plan_t *plan;
    const mj_profile *P = profile_of(capsule, &plan);
    if (!P) goto done;
    Py_ssize_t n_contra = PyTuple_GET_SIZE(contradictions);
    if (tiles.len != 2 * 42 || opts.len != (Py_ssize_t)(3 * sizeof(int64_t)) * P->n_options ||
        n_contra > MAX_CONTRADICTIONS || copies < 0 || indicator_limit < 0 || !PyCallable_Check(refuse)) {
        PyErr_SetString(PyExc_ValueError, "scorer: tiles must be 84 bytes, options 3 int64 per declared option, "
                                          "at most 64 contradictions, and a callable refusal");
        goto done;
    }
    S = PyMem_Malloc(sizeof *S + opts.len);
    if (!S) {
        PyErr_NoMemory();
        goto done;
    }
    memset(S, 0, sizeof *S);
    if (parse_builder(build, P, &S->builder) < 0) goto fail;
    for (Py_ssize_t i = 0; i < n_contra; i++) {
        PyObject *row = PyTuple_GET_ITEM(contradictions, i);
        long m = -1;
        if (PyTuple_Check(row) && PyTuple_GET_SIZE(row) == 2 && PyLong_Check(PyTuple_GET_ITEM(row, 0)) &&
            PyUnicode_Check(PyTuple_GET_ITEM(row, 1)))
            m = PyLong_AsLong(PyTuple_GET_ITEM(row, 0));
        if (m == -1 && PyErr_Occurred()) goto fail;
        if (m <= 0 || m >= 1L << N_FACTS) {
            PyErr_SetString(PyExc_ValueError, "scorer: a contradiction is (a nonempty mask over FACTS, its reason)");
            goto fail;
        }
        S->contradictions[i] = (uint32_t)m;
        S->reasons[i] = Py_NewRef(PyTuple_GET_ITEM(row, 1));
        S->n_contradictions = (int)i + 1;
    }
    if (PyTuple_GET_SIZE(known) > KNOWN_TILES / 2) {
        PyErr_SetString(PyExc_ValueError, "scorer: at most 64 known tiles");
        goto fail;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(known); i++) {
        PyObject *t = PyTuple_GET_ITEM(known, i);
        int code = tile_code(t);
        if (code < 0) {
            PyErr_SetString(PyExc_ValueError, "scorer: a known tile is a Tile");
            goto fail;
        }
        size_t h = known_slot(t);
        while (S->known.tile[h] && S->known.tile[h] != t) h = (h + 1) & (KNOWN_TILES - 1);
        if (!S->known.tile[h]) {
            S->known.tile[h] = Py_NewRef(t);
            S->known.code[h] = (int8_t)code;
        }
    }
    S->P = P;
    S->plan = plan;
    memcpy(S->tiles, tiles.buf, sizeof S->tiles);
    memcpy(S->options, opts.buf, opts.len);
    S->copies = copies, S->meld_types = meld_types, S->indicator_limit = indicator_limit;
    S->red_suits = red_suits;
    S->capsule = Py_NewRef(capsule);
    S->build = Py_NewRef(build);
    S->refuse = Py_NewRef(refuse);
    ret = PyCapsule_New(S, "mjspec.native_scorer", scorer_free);
    if (!ret) {
        Py_DECREF(S->capsule);
        Py_DECREF(S->build);
        Py_DECREF(S->refuse);
    }
    else S = NULL; /* the capsule owns it */
fail:
    if (S) {
        for (int i = 0; i < S->n_contradictions; i++) Py_DECREF(S->reasons[i]);
        for (int i = 0; i < KNOWN_TILES; i++) Py_XDECREF(S->known.tile[i]);
        PyMem_Free(S);
    }
done:
    PyBuffer_Release(&tiles);
    PyBuffer_Release(&opts);
    return ret;
}

/* The tile codes of an mpsz text that reads plainly (runtime/tiles.py parse_tiles): runs of
 * digits, each followed by its suit letter, spaces anywhere; 0 is the red five of m, p, s. The
 * count, or -1 for anything else (parse_tiles words that error) or more than `max` tiles. */
static int mpsz_codes(PyObject *text, uint8_t *out, int max) {
    if (!PyUnicode_Check(text) || !PyUnicode_IS_ASCII(text)) return -1;
    const Py_UCS1 *s = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t len = PyUnicode_GET_LENGTH(text);
    int n = 0, pending = 0; /* out[n .. n + pending) holds the digits waiting for their letter */
    for (Py_ssize_t i = 0; i < len; i++) {
        int ch = s[i];
        if (ch == ' ') continue;
        if (ch >= '0' && ch <= '9') {
            if (n + pending >= max) return -1;
            out[n + pending++] = (uint8_t)(ch - '0');
            continue;
        }
        int base, size, suited;
        switch (ch) {
        case 'm': base = 0, size = 9, suited = 1; break;
        case 'p': base = 9, size = 9, suited = 1; break;
        case 's': base = 18, size = 9, suited = 1; break;
        case 'z': base = 27, size = 7, suited = 0; break;
        case 'f': base = 34, size = 8, suited = 0; break;
        default: return -1;
        }
        if (!pending) return -1;
        for (int k = n; k < n + pending; k++) {
            int d = out[k];
            if (d == 0 && suited) out[k] = (uint8_t)((base + 4) * 2 + 1);
            else if (d >= 1 && d <= size) out[k] = (uint8_t)((base + d - 1) * 2);
            else return -1;
        }
        n += pending;
        pending = 0;
    }
    return pending ? -1 : n;
}

/* A str field of the context: a new reference, or NULL (the request is not read here). */
static PyObject *text_attr(PyObject *ctx, PyObject *name, slot_cache *c) {
    PyObject *x = get_attr(ctx, name, c);
    if (x && !PyUnicode_Check(x)) Py_CLEAR(x);
    return x;
}

static PyObject *py_score_hand(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "score_hand(scorer, profile, hand, ctx)");
        return NULL;
    }
    if (!PyCapsule_IsValid(args[0], "mjspec.native_scorer")) {
        PyErr_SetString(PyExc_TypeError, "score_hand: the first argument must be a scorer (runtime._score.scorer)");
        return NULL;
    }
    scorer_t *S = PyCapsule_GetPointer(args[0], "mjspec.native_scorer");
    PyObject *hand = args[2], *ctx = args[3];
    PyObject *ret = NULL, *concealed = NULL, *melds = NULL, *wt = NULL, *win = NULL, *x = NULL;
    request_t q;
    memset(&q, 0, sizeof q);
    uint8_t codes[MJ_MAX_TILES], dora[MJ_MAX_INDICATORS], ura[MJ_MAX_INDICATORS], flowers[16], dead[64];
    const mj_profile *P = q.P = S->P;
    q.plan = S->plan;
    q.options = S->options;
    const uint8_t *a = S->tiles;
    /* ctx.options must be empty and the hand a winner's */
    x = get_attr(ctx, A_options, &C_options);
    if (!x || !PyTuple_Check(x) || PyTuple_GET_SIZE(x) != 0) NOT_SURE();
    Py_CLEAR(x);
    x = get_attr(ctx, A_losing_hand, &C_losing);
    if (x != Py_False) NOT_SURE();
    Py_CLEAR(x);
    /* the kinds exhausted (scoring.py _only_live_wait, when the profile reads it): hand-forming ones */
    x = text_attr(ctx, A_exhausted, &C_exhausted);
    if (!x) NOT_SURE();
    if (P->needs_only_live_wait && PyUnicode_GET_LENGTH(x)) {
        int n_dead = mpsz_codes(x, dead, 64);
        if (n_dead < 0) NOT_SURE();
        for (int i = 0; i < n_dead; i++) {
            if (dead[i] >> 1 >= N_KINDS) NOT_SURE();
            q.dead |= (uint64_t)1 << (dead[i] >> 1);
        }
    }
    Py_CLEAR(x);
    /* the tiles */
    concealed = get_attr(hand, A_concealed, &C_concealed);
    melds = get_attr(hand, A_melds, &C_melds);
    wt = get_attr(hand, A_win_tile, &C_win_tile);
    win = get_attr(hand, A_win, &C_win);
    if (!concealed || !melds || !wt || !win || !PyTuple_Check(concealed) || !PyTuple_Check(melds)) NOT_SURE();
    Py_ssize_t nc = PyTuple_GET_SIZE(concealed), nm = PyTuple_GET_SIZE(melds);
    if (nm > 4 || nc + 1 != 14 - 3 * nm) NOT_SURE(); /* check_hand words the refusal */
    int n_codes = 0;
    uint8_t totals[N_KINDS] = {0}, reds[4] = {0};
    int most = S->copies < 4 ? S->copies : 4, over = 0, red = 0; /* a kind beyond `most`; any red tile */
    for (Py_ssize_t i = 0; i < nc; i++) {
        int c = known_code(&S->known, PyTuple_GET_ITEM(concealed, i));
        if (c < 0 || !(a[c] & TILE_HAND)) NOT_SURE();
        codes[n_codes++] = (uint8_t)c;
        over |= ++totals[c >> 1] > most;
        red |= c;
    }
    int wc = known_code(&S->known, wt);
    if (wc < 0 || !(a[wc] & TILE_HAND)) NOT_SURE();
    over |= ++totals[wc >> 1] > most;
    red |= wc;
    q.win = wc;
    q.melds.n_melds = (int)nm;
    for (Py_ssize_t m = 0; m < nm; m++) {
        PyObject *meld = PyTuple_GET_ITEM(melds, m);
        PyObject *type = get_attr(meld, A_type, &C_type);
        int mc = type ? meld_code(type) : -1;
        Py_XDECREF(type);
        PyObject *tiles = get_attr(meld, A_tiles, &C_tiles);
        if (mc < 0 || !tiles || !PyTuple_Check(tiles)) {
            Py_XDECREF(tiles);
            NOT_SURE();
        }
        Py_ssize_t nt = PyTuple_GET_SIZE(tiles);
        int want = mc == MJ_MELD_CHI || mc == MJ_MELD_PON ? 3 : 4;
        int kinds[4];
        for (Py_ssize_t k = 0; k < nt && k < 4; k++) {
            int c = known_code(&S->known, PyTuple_GET_ITEM(tiles, k));
            if (c < 0 || !(a[c] & TILE_HAND)) {
                nt = -1;
                break;
            }
            q.melds.codes[m][k] = (uint8_t)c;
            kinds[k] = c >> 1;
            over |= ++totals[c >> 1] > most;
            red |= c;
        }
        Py_DECREF(tiles);
        if (nt != want) NOT_SURE();
        /* situation.py missing_call: a meld of a type the profile's calls lack is refused */
        if (!(S->meld_types >> mc & 1)) q.refuse = S->refuse;
        q.melds.n_codes[m] = want;
        for (int i = 1; i < want; i++) /* sorted kinds (hand.py Meld: the group starts at the lowest) */
            for (int j = i; j > 0 && kinds[j - 1] > kinds[j]; j--) {
                int t = kinds[j];
                kinds[j] = kinds[j - 1];
                kinds[j - 1] = t;
            }
        int ok = 1;
        if (mc == MJ_MELD_CHI)
            ok = kinds[0] < 27 && kinds[1] == kinds[0] + 1 && kinds[2] == kinds[0] + 2 && kinds[2] / 9 == kinds[0] / 9;
        else
            for (int i = 1; i < want; i++) ok = ok && kinds[i] == kinds[0];
        if (!ok) NOT_SURE(); /* Meld refuses these when it is made; this is not one */
        q.melds.groups[m] = MELDED[mc][kinds[0]]; /* fill_group(gk of mc, kinds[0], ankan, mc) */
    }
    if (over) NOT_SURE(); /* a kind beyond the set's copies (or four) */
    q.concealed = codes;
    q.n_concealed = nc;
    int won = cached_word(&WIN_WORDS, win); /* WinKind: "tsumo" 1, "ron" 0 */
    if (won < 0) {
        const char *ws = PyUnicode_Check(win) ? PyUnicode_AsUTF8(win) : NULL;
        if (!ws) NOT_SURE();
        if (strcmp(ws, "tsumo") == 0) won = 1;
        else if (strcmp(ws, "ron") == 0) won = 0;
        else NOT_SURE();
        remember_word(&WIN_WORDS, win, won);
    }
    q.tsumo = won;
    /* the situation */
    uint32_t facts = (q.tsumo ? 1u << FACT_TSUMO : 1u << FACT_RON) | (nm ? 1u << FACT_MELDS : 0);
    for (int i = 0; i < N_CTX; i++) {
        /* the slot read in place (the context holds it for the call), else get_attr */
        PyObject *f = C_ctx[i].type == Py_TYPE(ctx) && C_ctx[i].offset > 0
                          ? *(PyObject **)((char *)ctx + C_ctx[i].offset)
                          : NULL,
                 *owned = NULL;
        int slot = CTX_SLOT[i], read = CTX_READ[i];
        if (f == Py_False && (read == MJ_READ_FLAG || read == MJ_READ_DEALER)) { /* the usual: a flag not set */
            q.sit[slot] = 0;
            continue;
        }
        if (!f) {
            f = owned = get_attr(ctx, A_ctx[i], &C_ctx[i]);
            if (!f) NOT_SURE();
        }
        long long val = 0;
        if (read == MJ_READ_WIND) { /* seat_wind, round_wind */
            const char *at = strchr("ESWN", letter(f));
            val = letter(f) && at ? at - "ESWN" : -2;
        } else if (read == MJ_READ_SUIT) { /* missing_suit: None or m, p, s */
            const char *at = f == Py_None ? NULL : strchr("mps", letter(f));
            val = f == Py_None ? MJ_NONE : letter(f) && at ? at - "mps" : -2;
        } else if (read == MJ_READ_DEALER) { /* dealer: None (seat wind East decides) or a bool */
            val = f == Py_None ? -3 : f == Py_True ? 1 : f == Py_False ? 0 : -2;
        } else if (read == MJ_READ_COUNT) { /* dealer_wins, honba */
            int of = 0;
            val = PyLong_CheckExact(f) ? PyLong_AsLongLongAndOverflow(f, &of) : -2;
            if (of || val < 0) val = -2;
        } else { /* a flag, which may be a fact of CONTRADICTIONS */
            val = f == Py_True ? 1 : f == Py_False ? 0 : -2;
            if (val == 1 && CTX_FACT[i] >= 0) facts |= 1u << CTX_FACT[i];
        }
        Py_XDECREF(owned);
        if (val == -2) NOT_SURE();
        q.sit[slot] = val;
    }
    if (!q.sit[MJ_SIT_AFTER_KONG]) facts |= 1u << FACT_NOT_AFTER_KONG;
    /* view.riichi = ctx.riichi or ctx.double_riichi */
    q.sit[MJ_SIT_RIICHI] = q.sit[MJ_SIT_RIICHI] || q.sit[MJ_SIT_DOUBLE_RIICHI];
    if (q.sit[MJ_SIT_DEALER] == -3) q.sit[MJ_SIT_DEALER] = q.sit[MJ_SIT_SEAT_WIND] == MJ_WIND_E; /* is_dealer */
    /* situation.py contradictory_situation: the first row of CONTRADICTIONS that holds refuses a
     * legal win (missing_call, which comes first, declined above; too_many_copies comes after) */
    for (int i = 0; !q.refuse && i < S->n_contradictions; i++)
        if ((facts & S->contradictions[i]) == S->contradictions[i]) {
            q.refusal = S->reasons[i];
            break;
        }
    /* context.flowers (scoring.py _flower_count, bonus_tiles): flowers of the set, each once */
    x = text_attr(ctx, A_flowers, &C_flowers);
    if (!x) NOT_SURE();
    int n_flowers = mpsz_codes(x, flowers, 16);
    Py_CLEAR(x);
    if (n_flowers < 0) NOT_SURE();
    unsigned numbers = 0; /* bit n: flower number n (1-8) shown */
    for (int i = 0; i < n_flowers; i++) {
        if (!(a[flowers[i]] & TILE_FLOWER)) NOT_SURE();
        unsigned bit = 1u << ((flowers[i] >> 1) - 33); /* kinds 34-41 are flowers 1-8 */
        if (numbers & bit) NOT_SURE();
        numbers |= bit;
    }
    int own = (int)q.sit[MJ_SIT_SEAT_WIND] + 1; /* scoring.py _SEAT_NUMBER: E 1, S 2, W 3, N 4 */
    q.sit[MJ_SIT_FLOWERS] = n_flowers;
    q.sit[MJ_SIT_OWN_BONUS] = (numbers >> own & 1) + (numbers >> (own + 4) & 1);
    q.sit[MJ_SIT_BONUS_SETS] = (numbers & 0x1e) == 0x1e ? 1 : 0;
    q.sit[MJ_SIT_BONUS_SETS] += (numbers & 0x1e0) == 0x1e0 ? 1 : 0;
    q.sit[MJ_SIT_ONLY_WAIT] = q.sit[MJ_SIT_ONLY_LIVE_WAIT] = -1;
    /* the indicators (scoring.py _indicators), and situation.py too_many_copies */
    x = text_attr(ctx, A_dora, &C_dora);
    q.n_dora = x ? mpsz_codes(x, dora, MJ_MAX_INDICATORS) : -1;
    Py_CLEAR(x);
    x = text_attr(ctx, A_ura, &C_ura);
    q.n_ura = x ? mpsz_codes(x, ura, MJ_MAX_INDICATORS) : -1;
    Py_CLEAR(x);
    if (q.n_dora < 0 || q.n_ura < 0) NOT_SURE();
    q.dora = dora, q.ura = ura;
    for (int i = 0; i < q.n_dora + q.n_ura; i++) {
        int c = i < q.n_dora ? dora[i] : ura[i - q.n_dora];
        if (!(a[c] & TILE_HAND)) NOT_SURE();
        totals[c >> 1]++;
        red |= c;
    }
    if (!q.refusal) { /* too_many_copies: situation.py words it */
        if (q.n_dora > S->indicator_limit || q.n_ura > S->indicator_limit) q.refuse = S->refuse;
        for (int k = 0; q.n_dora + q.n_ura && k < N_KINDS; k++) /* the hand's own were checked above */
            if (totals[k] > S->copies) q.refuse = S->refuse;
    }
    uint8_t win_code = (uint8_t)wc;
    const uint8_t *lists[8] = {codes, &win_code, q.melds.codes[0], q.melds.codes[1], q.melds.codes[2], q.melds.codes[3],
                               dora, ura};
    int lens[8] = {n_codes, 1, 0, 0, 0, 0, q.n_dora, q.n_ura};
    for (int m = 0; m < nm; m++) lens[2 + m] = q.melds.n_codes[m];
    if (red & 1) { /* any red tile at all (a code's low bit, or-ed in as read): most hands hold none */
        for (int l = 0; l < 8; l++)
            for (int i = 0; i < lens[l]; i++)
                if (lists[l][i] & 1) reds[(lists[l][i] >> 1) / 9]++; /* a red tile of the set is a suited five */
        for (int s = 0; s < 3; s++)
            if (!q.refusal && reds[s] > (S->red_suits >> s & 1)) q.refuse = S->refuse;
    }
    if (q.refuse) q.refuse_args[0] = args[1], q.refuse_args[1] = hand, q.refuse_args[2] = ctx;
    ret = run(&q, &S->builder);
done:
    Py_XDECREF(x);
    Py_XDECREF(concealed);
    Py_XDECREF(melds);
    Py_XDECREF(wt);
    Py_XDECREF(win);
    return ret;
}

/* check_tiles(concealed, melds, win, accepted, copies) -> bytes(34) | None: the concealed counts
 * with the winning tile when runtime/scoring.py:check_hand would certainly accept the hand
 * (every tile accepted by the set, 14 - 3 * melds tiles, no kind beyond `copies`), else None:
 * then the glue calls check_hand itself, which raises its HandError (or, unsure, answers). */
static PyObject *py_check_tiles(PyObject *self, PyObject *args) {
    Py_buffer conc, acc;
    PyObject *melds;
    int win, copies;
    if (!PyArg_ParseTuple(args, "y*O!iy*i", &conc, &PyTuple_Type, &melds, &win, &acc, &copies)) return NULL;
    const uint8_t *a = acc.buf, *c = conc.buf;
    uint8_t counts[N_KINDS] = {0}, totals[N_KINDS] = {0};
    int ok = acc.len == 2 * 42 && win >= 0 && win < 2 * 42 && a[win] && win < 2 * N_KINDS;
    Py_ssize_t n_melds = PyTuple_GET_SIZE(melds);
    ok = ok && n_melds <= 4 && conc.len + 1 == 14 - 3 * n_melds;
    for (Py_ssize_t i = 0; ok && i < conc.len; i++) {
        if (c[i] >= 2 * N_KINDS || !a[c[i]]) ok = 0;
        else counts[c[i] >> 1]++;
    }
    if (ok) counts[win >> 1]++;
    memcpy(totals, counts, N_KINDS);
    for (Py_ssize_t m = 0; ok && m < n_melds; m++) {
        PyObject *meld = PyTuple_GET_ITEM(melds, m);
        if (!PyTuple_Check(meld) || PyTuple_GET_SIZE(meld) != 2 || !PyBytes_Check(PyTuple_GET_ITEM(meld, 1))) {
            ok = 0;
            break;
        }
        PyObject *b = PyTuple_GET_ITEM(meld, 1);
        const uint8_t *t = (const uint8_t *)PyBytes_AS_STRING(b);
        for (Py_ssize_t k = 0; ok && k < PyBytes_GET_SIZE(b); k++) {
            if (t[k] >= 2 * N_KINDS || !a[t[k]]) ok = 0;
            else totals[t[k] >> 1]++;
        }
    }
    for (int k = 0; ok && k < N_KINDS; k++)
        if (totals[k] > copies) ok = 0;
    PyBuffer_Release(&conc);
    PyBuffer_Release(&acc);
    if (!ok) Py_RETURN_NONE;
    return PyBytes_FromStringAndSize((const char *)counts, N_KINDS);
}

/* only_wait(counts, n_melds, win_kind, standard, seven_pairs, allow_four, thirteen_orphans,
 * knitted) -> bool: the core's formal-wait test, for tests to hold to shapes.py is_only_wait
 * (counts: 34 bytes, the concealed tiles with the winning one). */
static PyObject *py_only_wait(PyObject *self, PyObject *args) {
    Py_buffer counts;
    int n_melds, win, standard, seven_pairs, allow_four, thirteen, knitted;
    if (!PyArg_ParseTuple(args, "y*iippppp", &counts, &n_melds, &win, &standard, &seven_pairs, &allow_four,
                          &thirteen, &knitted))
        return NULL;
    uint8_t c[N_KINDS];
    int total = 0, bad = counts.len != N_KINDS || n_melds < 0 || n_melds > 4 || win < 0 || win >= N_KINDS;
    if (!bad) {
        memcpy(c, counts.buf, N_KINDS);
        for (int k = 0; k < N_KINDS; k++) {
            if (c[k] > 4) bad = 1;
            total += c[k];
        }
        bad = bad || total != 14 - 3 * n_melds || !c[win];
    }
    PyBuffer_Release(&counts);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "counts must be 34 bytes of at most 4, 14 - 3 * n_melds tiles, the winning kind among them");
        return NULL;
    }
    mj_profile shapes;
    memset(&shapes, 0, sizeof shapes);
    shapes.standard = (uint8_t)standard, shapes.seven_pairs = (uint8_t)seven_pairs;
    shapes.seven_pairs_allow_four_of_a_kind = (uint8_t)allow_four;
    shapes.thirteen_orphans = (uint8_t)thirteen, shapes.knitted = (uint8_t)knitted;
    return PyBool_FromLong(only_wait(c, n_melds, win, &shapes));
}

/* What the glue checks against the Python profile before trusting the tables. */
static PyObject *py_profile_info(PyObject *self, PyObject *capsule) {
    const mj_profile *P = profile_of(capsule, NULL);
    if (!P) return NULL;
    PyObject *pats = PyTuple_New(P->n_patterns), *items = NULL;
    if (!pats) return NULL;
    for (int i = 0; i < P->n_patterns; i++) {
        PyObject *s = PyUnicode_FromString(P->patterns[i].id ? P->patterns[i].id : "");
        if (!s) goto fail;
        PyTuple_SET_ITEM(pats, i, s);
    }
    items = PyTuple_New(P->n_point_items);
    if (!items) goto fail;
    for (int i = 0; i < P->n_point_items; i++) {
        PyObject *s = PyUnicode_FromString(P->point_items[i].id ? P->point_items[i].id : "");
        if (!s) goto fail;
        PyTuple_SET_ITEM(items, i, s);
    }
    return Py_BuildValue("{s:i,s:s,s:N,s:N,s:i,s:i,s:i,s:i}", "abi", P->abi, "id", P->id ? P->id : "", "patterns",
                         pats, "point_items", items, "n_options", P->n_options, "combinations", P->has_combinations,
                         "needs_only_wait", P->needs_only_wait, "needs_only_live_wait", P->needs_only_live_wait);
fail:
    Py_DECREF(pats);
    Py_XDECREF(items);
    return NULL;
}

static PyMethodDef METHODS[] = {
    {"evaluate", py_evaluate, METH_VARARGS, "Score a hand with a native profile; None: the Python engine answers."},
    {"arrangements", py_arrangements, METH_VARARGS, "Every arrangement, as runtime/shapes.py:arrangements lists them."},
    {"scorer", py_scorer, METH_VARARGS, "What score_hand learns once about a profile object (see the header)."},
    {"score_hand", (PyCFunction)(void (*)(void))py_score_hand, METH_FASTCALL,
     "The Score of a WinningHand in a WinContext; None: Python answers; NotImplemented: the general path."},
    {"only_wait", py_only_wait, METH_VARARGS, "The core's formal single-wait test (shapes.py is_only_wait)."},
    {"check_tiles", py_check_tiles, METH_VARARGS, "Whether scoring.py's check_hand certainly accepts the hand."},
    {"profile_info", py_profile_info, METH_O, "The ids a native profile's tables hold, for the glue's checks."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_score", "The native scoring core (see score.c).", -1,
                                    METHODS};

PyMODINIT_FUNC PyInit__score(void) {
    for (int k = 0; k < N_KINDS; k++) {
        fill_tile(&TILES[2 * k], k, 0);
        fill_tile(&TILES[2 * k + 1], k, 1);
    }
    for (int kind = 0; kind < 6; kind++)
        for (int t = 0; t < N_KINDS; t++) fill_group(&CONCEALED[kind][t], kind, t, 1, MJ_NONE);
    for (int mc = 0; mc < 5; mc++) {
        int gk = mc == MJ_MELD_CHI ? MJ_GK_SEQUENCE : mc == MJ_MELD_PON ? MJ_GK_TRIPLET : MJ_GK_KONG;
        for (int t = 0; t < N_KINDS; t++) fill_group(&MELDED[mc][t], gk, t, mc == MJ_MELD_ANKAN, mc);
    }
#define INTERN(var, text) \
    if (!(var = PyUnicode_InternFromString(text))) return NULL
    INTERN(A_concealed, "concealed");
    INTERN(A_melds, "melds");
    INTERN(A_win_tile, "win_tile");
    INTERN(A_win, "win");
    INTERN(A_kind, "kind");
    INTERN(A_red, "red");
    INTERN(A_type, "type");
    INTERN(A_tiles, "tiles");
    INTERN(A_options, "options");
    INTERN(A_losing_hand, "losing_hand");
    INTERN(A_exhausted, "exhausted");
    INTERN(A_flowers, "flowers");
    INTERN(A_dora, "dora_indicators");
    INTERN(A_ura, "ura_indicators");
    for (int i = 0; i < N_CTX; i++) {
        INTERN(A_ctx[i], CTX_FIELDS[i]);
        CTX_FACT[i] = -1;
        for (int k = 0; k < N_FACTS; k++)
            if (CTX_READ[i] == MJ_READ_FLAG && strcmp(CTX_FIELDS[i], FACTS[k]) == 0) CTX_FACT[i] = k;
    }
    PyObject *m = PyModule_Create(&MODULE);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "ABI", MJ_ABI) < 0 || PyModule_AddIntConstant(m, "SITUATION_FIELDS", SITUATION_FIELDS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    PyObject *facts = PyTuple_New(N_FACTS);
    for (int i = 0; facts && i < N_FACTS; i++) {
        PyObject *name = PyUnicode_FromString(FACTS[i]);
        if (!name) Py_CLEAR(facts);
        else PyTuple_SET_ITEM(facts, i, name);
    }
    if (!facts || PyModule_AddObject(m, "FACTS", facts) < 0) {
        Py_XDECREF(facts);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
