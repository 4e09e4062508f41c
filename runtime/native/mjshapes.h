/* mjshapes.h: the native shape core of mjspec (completeness, waits, shanten), written once for
 * every profile.
 *
 * Everything works on a hand's concealed tiles as `uint8_t counts[34]` (kinds 0..8 characters,
 * 9..17 circles, 18..26 bamboo, 27..33 honors; see runtime/tiles.py) plus the number of declared
 * melds. Which shapes count is a `mjs_rules` value filled from the profile's ShapeRules fields; no
 * profile is named here. The answers are those of the Python reference, runtime/shapes.py, which
 * the tests hold this code to (tests/test_native_shapes.py).
 *
 * The three suits and the honors never share a group, so every test splits the hand into four
 * suit vectors and looks each up in a table indexed by the vector read as a base-5 number (a kind
 * holds 0..4 copies):
 *   - mjs_flags_*:  0 the vector splits into sets, 1 into sets and exactly one pair, MJS_NO neither;
 *   - mjs_fronts_*: for every (head h in 0..1, sets m in 0..4) the most partials (pairs, 12 and 13
 *     shapes) the vector can be split into beside them, clipped to 4 - m (partials beyond the free
 *     slots count for nothing), packed 3 bits each (7: no such split).
 * Both tables cover every vector of at most 14 tiles, by dynamic programming over the vectors (a
 * vector's splits start at its lowest tile, and what is left has a smaller index): mjs_init()
 * fills the flags at once (fast), mjs_init_fronts() allocates the shanten table (called by the
 * shanten functions on first use), whose entries are computed as they are first read
 * (mjs_front_at). Each translation unit that includes this header has its own tables.
 *
 * Preconditions of every mjs_* entry point (the caller validates them; nothing is checked here):
 * mjs_init() succeeded; every count is 0..4; 0 <= n_melds <= 4; the total is as the function says.
 */
#ifndef MJSHAPES_H
#define MJSHAPES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MJS_KINDS 34
#define MJS_HONOR_BASE 27
#define MJS_SUIT_VECTORS 1953125u /* 5^9 */
#define MJS_HONOR_VECTORS 78125u  /* 5^7 */
#define MJS_NO 8                  /* flag of a vector that is neither sets nor sets and a pair */
#define MJS_NONE 99               /* shanten of a shape the rules or the melds rule out */
#define MJS_MAX_SUIT_TILES 14     /* vectors with more tiles are left out of the tables */
#define MJS_FRONT_EMPTY 7u        /* a packed front field with no split */

/* Which shapes complete a hand (runtime/shapes.py ShapeRules). */
typedef struct mjs_rules {
    uint8_t standard;         /* four sets (melds included) and a pair */
    uint8_t seven_pairs;      /* seven pairs (meld-free hands only) */
    uint8_t seven_pairs_four; /* a four of a kind counts as two of the seven pairs */
    uint8_t thirteen_orphans; /* one of each terminal and honor plus one duplicate */
    uint8_t knitted;          /* knitted straight (+ set + pair, <= 1 meld) and honors-and-knitted */
} mjs_rules;

static const uint32_t mjs_pow5[10] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125};
static const uint8_t mjs_orphans[13] = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
/* The six knitted straights: 1-4-7, 2-5-8, 3-6-9 in three different suits, suits in the order of
 * the permutations of (m, p, s) as Python's itertools.permutations lists them. */
static const uint8_t mjs_knitted[6][9] = {
    {0, 3, 6, 10, 13, 16, 20, 23, 26}, {0, 3, 6, 19, 22, 25, 11, 14, 17},
    {9, 12, 15, 1, 4, 7, 20, 23, 26},  {9, 12, 15, 19, 22, 25, 2, 5, 8},
    {18, 21, 24, 1, 4, 7, 11, 14, 17}, {18, 21, 24, 10, 13, 16, 2, 5, 8},
};

static uint8_t *mjs_flags_suit;    /* [MJS_SUIT_VECTORS] */
static uint8_t *mjs_flags_honor;   /* [MJS_HONOR_VECTORS] */
static uint32_t *mjs_fronts_suit;  /* [MJS_SUIT_VECTORS] */
static uint32_t *mjs_fronts_honor; /* [MJS_HONOR_VECTORS] */

/* ------------------------------------------------------------------ tables */

/* Fill one flags table (n = 9 for a suit, 7 for the honors, which have no sequences). */
static inline void mjs_fill_flags(uint8_t *flags, int n, uint32_t size) {
    uint8_t d[9] = {0};
    int total = 0;
    /* bit 0: splits into sets; bit 1: into sets and one pair. */
    for (uint32_t idx = 0; idx < size; idx++) {
        if (idx) { /* odometer: d is the base-5 digits of idx, total their sum */
            int i = 0;
            while (d[i] == 4) { d[i] = 0; total -= 4; i++; }
            d[i]++;
            total++;
        }
        uint8_t bits = 0;
        if (idx == 0) {
            bits = 1;
        } else if (total <= MJS_MAX_SUIT_TILES) {
            int i = 0;
            while (d[i] == 0) i++;
            int x = d[i];
            if (x >= 3) bits |= flags[idx - 3 * mjs_pow5[i]] & 3; /* a triplet: sets stay sets */
            if (n == 9 && i + 2 < n && d[i + 1] && d[i + 2])
                bits |= flags[idx - mjs_pow5[i] - mjs_pow5[i + 1] - mjs_pow5[i + 2]] & 3;
            if (x >= 2 && (flags[idx - 2 * mjs_pow5[i]] & 1)) bits |= 2; /* the pair */
        }
        flags[idx] = bits;
    }
    for (uint32_t idx = 0; idx < size; idx++)
        flags[idx] = (flags[idx] & 1) ? 0 : (flags[idx] & 2) ? 1 : MJS_NO;
}

static inline int mjs_front_get(uint32_t front, int h, int m) {
    uint32_t v = (front >> (3 * (5 * h + m))) & 7u;
    return v == MJS_FRONT_EMPTY ? -1 : (int)v;
}

/* A fronts entry that has been computed carries this bit (a packed front uses bits 0..29); the
 * tables start zeroed, so 0 reads "not yet computed". */
#define MJS_FRONT_KNOWN 0x80000000u

static uint32_t mjs_front_compute(uint32_t *fronts, int n, uint32_t idx);

/* The front of vector idx of a fronts table (n = 9 for a suit, 7 for the honors), computed on first
 * use: a process reads a few thousand of the 2 million suit vectors, and filling the whole table up
 * front cost a quarter of a second per process (and 8 MB of memory touched). */
static inline uint32_t mjs_front_at(uint32_t *fronts, int n, uint32_t idx) {
    uint32_t v = fronts[idx];
    return (v & MJS_FRONT_KNOWN) ? v & ~MJS_FRONT_KNOWN : mjs_front_compute(fronts, n, idx);
}

/* One fronts entry, as runtime/shapes.py:_frontier reads a vector: the lowest tile is left alone,
 * or starts a head, a partial pair, a triplet, a 12 or 13 partial, or a sequence. Every vector it
 * reads has fewer tiles than idx (so the recursion is at most 14 deep). */
static uint32_t mjs_front_compute(uint32_t *fronts, int n, uint32_t idx) {
    const uint32_t all_empty = 0x3FFFFFFFu; /* every field 7 */
    uint8_t d[9] = {0};
    int total = 0;
    for (int j = 0, rest = (int)idx; j < n; j++, rest /= 5) {
        d[j] = (uint8_t)(rest % 5);
        total += d[j];
    }
    uint32_t packed;
    if (idx == 0) {
        packed = all_empty & ~(7u << 0); /* (h 0, m 0): 0 partials */
    } else if (total > MJS_MAX_SUIT_TILES) {
        packed = all_empty;
    } else {
        int i = 0;
        while (d[i] == 0) i++;
        int x = d[i];
        int best[10];
        for (int s = 0; s < 10; s++) best[s] = -1;
        /* (index removed, head added, sets added, partials added) */
        uint32_t subs[7];
        int dh[7], dm[7], dt[7], k = 0;
        subs[k] = idx - mjs_pow5[i], dh[k] = 0, dm[k] = 0, dt[k] = 0, k++;
        if (x >= 2) {
            subs[k] = idx - 2 * mjs_pow5[i], dh[k] = 1, dm[k] = 0, dt[k] = 0, k++;
            subs[k] = idx - 2 * mjs_pow5[i], dh[k] = 0, dm[k] = 0, dt[k] = 1, k++;
        }
        if (x >= 3) subs[k] = idx - 3 * mjs_pow5[i], dh[k] = 0, dm[k] = 1, dt[k] = 0, k++;
        if (n == 9) {
            if (i + 1 < n && d[i + 1])
                subs[k] = idx - mjs_pow5[i] - mjs_pow5[i + 1], dh[k] = 0, dm[k] = 0, dt[k] = 1, k++;
            if (i + 2 < n && d[i + 2]) {
                subs[k] = idx - mjs_pow5[i] - mjs_pow5[i + 2], dh[k] = 0, dm[k] = 0, dt[k] = 1, k++;
                if (d[i + 1])
                    subs[k] = idx - mjs_pow5[i] - mjs_pow5[i + 1] - mjs_pow5[i + 2], dh[k] = 0,
                    dm[k] = 1, dt[k] = 0, k++;
            }
        }
        for (int o = 0; o < k; o++) {
            uint32_t sub = mjs_front_at(fronts, n, subs[o]);
            for (int h = 0; h + dh[o] <= 1; h++) {
                for (int m = 0; m + dm[o] <= 4; m++) {
                    int t = mjs_front_get(sub, h, m);
                    if (t < 0) continue;
                    int nh = h + dh[o], nm = m + dm[o];
                    t += dt[o];
                    if (t > 4 - nm) t = 4 - nm;
                    if (t > best[5 * nh + nm]) best[5 * nh + nm] = t;
                }
            }
        }
        packed = 0;
        for (int s = 0; s < 10; s++)
            packed |= (uint32_t)(best[s] < 0 ? MJS_FRONT_EMPTY : (uint32_t)best[s]) << (3 * s);
    }
    fronts[idx] = packed | MJS_FRONT_KNOWN;
    return packed;
}

/* The flags tables (completeness and waits). 0 on success, -1 when out of memory. */
static inline int mjs_init(void) {
    if (mjs_flags_suit) return 0;
    uint8_t *suit = (uint8_t *)malloc(MJS_SUIT_VECTORS);
    uint8_t *honor = (uint8_t *)malloc(MJS_HONOR_VECTORS);
    if (!suit || !honor) {
        free(suit);
        free(honor);
        return -1;
    }
    mjs_fill_flags(suit, 9, MJS_SUIT_VECTORS);
    mjs_fill_flags(honor, 7, MJS_HONOR_VECTORS);
    mjs_flags_honor = honor;
    mjs_flags_suit = suit;
    return 0;
}

/* The shanten tables (about 8 MB of address space, zeroed by calloc: the pages a process reads
 * are the only ones it touches), allocated on first use; each entry is computed when first read
 * (mjs_front_at). 0 on success, -1 when out of memory. */
static inline int mjs_init_fronts(void) {
    if (mjs_fronts_suit) return 0;
    uint32_t *suit = (uint32_t *)calloc(MJS_SUIT_VECTORS, sizeof(uint32_t));
    uint32_t *honor = (uint32_t *)calloc(MJS_HONOR_VECTORS, sizeof(uint32_t));
    if (!suit || !honor) {
        free(suit);
        free(honor);
        return -1;
    }
    mjs_fronts_honor = honor;
    mjs_fronts_suit = suit;
    return 0;
}

/* ------------------------------------------------------------ completeness */

/* The base-5 index of the suit starting at kind `lo` (n kinds); every count must be 0..4. */
static inline uint32_t mjs_index(const uint8_t *c, int lo, int n) {
    uint32_t idx = 0;
    for (int i = n - 1; i >= 0; i--) idx = 5 * idx + c[lo + i];
    return idx;
}

/* Python's _sets_only: whether c[0..n) splits into sets alone (greedy is exact). Any counts. */
static inline int mjs_sets_only_any(const uint8_t *src, int n, int honors) {
    int c[9];
    for (int i = 0; i < n; i++) c[i] = src[i];
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

/* The flag of a suit vector with any counts (a held four plus the tile waited on makes five). */
static inline int mjs_flag_any(const uint8_t *c, int n, int honors) {
    int total = 0;
    for (int i = 0; i < n; i++) total += c[i];
    if (total % 3 == 0) return mjs_sets_only_any(c, n, honors) ? 0 : MJS_NO;
    if (total % 3 == 1) return MJS_NO;
    uint8_t w[9];
    memcpy(w, c, (size_t)n);
    for (int i = 0; i < n; i++) {
        if (w[i] >= 2) {
            w[i] -= 2;
            int ok = mjs_sets_only_any(w, n, honors);
            w[i] += 2;
            if (ok) return 1;
        }
    }
    return MJS_NO;
}

/* The flag of suit s (0..2 suits, 3 honors) of counts whose every count is 0..4. */
static inline int mjs_suit_flag(const uint8_t *c, int s) {
    return s < 3 ? mjs_flags_suit[mjs_index(c, 9 * s, 9)] : mjs_flags_honor[mjs_index(c, 27, 7)];
}

/* The flag of suit s, any counts. */
static inline int mjs_suit_flag_any(const uint8_t *c, int s) {
    int lo = 9 * s, n = s < 3 ? 9 : 7;
    for (int i = 0; i < n; i++)
        if (c[lo + i] > 4) return mjs_flag_any(c + lo, n, s == 3);
    return mjs_suit_flag(c, s);
}

/* Four sets and a pair, melds aside (counts 0..4; the caller knows the total is 3k + 2). */
static inline int mjs_standard_complete(const uint8_t *c) {
    return mjs_suit_flag(c, 0) + mjs_suit_flag(c, 1) + mjs_suit_flag(c, 2) + mjs_suit_flag(c, 3) == 1;
}

static inline int mjs_standard_complete_any(const uint8_t *c) {
    return mjs_suit_flag_any(c, 0) + mjs_suit_flag_any(c, 1) + mjs_suit_flag_any(c, 2) +
               mjs_suit_flag_any(c, 3) ==
           1;
}

/* Seven pairs of a 14-tile hand: no odd count, and no count above 2 (4 with `four`). */
static inline int mjs_seven_pairs_complete(const uint8_t *c, int four) {
    for (int k = 0; k < MJS_KINDS; k++)
        if (c[k] == 1 || c[k] == 3 || c[k] > (four ? 4 : 2)) return 0;
    return 1;
}

/* Thirteen orphans of a 14-tile hand: 14 tiles on the 13 orphan kinds, each present. */
static inline int mjs_thirteen_orphans_complete(const uint8_t *c) {
    int sum = 0;
    for (int i = 0; i < 13; i++) {
        if (!c[mjs_orphans[i]]) return 0;
        sum += c[mjs_orphans[i]];
    }
    return sum == 14;
}

/* A knitted straight (standing for three sets) plus a set and a pair, or only the pair beside one
 * meld; `any`: counts may exceed 4. */
static inline int mjs_knitted_straight_complete(const uint8_t *c, int n_melds, int any) {
    if (n_melds > 1) return 0;
    for (int s = 0; s < 6; s++) {
        int whole = 1;
        for (int j = 0; j < 9; j++) whole &= c[mjs_knitted[s][j]] > 0;
        if (!whole) continue;
        uint8_t rest[MJS_KINDS];
        memcpy(rest, c, MJS_KINDS);
        for (int j = 0; j < 9; j++) rest[mjs_knitted[s][j]]--;
        if (any ? mjs_standard_complete_any(rest) : mjs_standard_complete(rest)) return 1;
    }
    return 0;
}

/* Fourteen distinct tiles from the seven honors and one knitted straight, no meld. */
static inline int mjs_honors_and_knitted_complete(const uint8_t *c, int n_melds) {
    if (n_melds) return 0;
    for (int k = 0; k < MJS_KINDS; k++)
        if (c[k] > 1) return 0;
    for (int s = 0; s < 6; s++) {
        uint32_t in = 0;
        for (int j = 0; j < 9; j++) in |= 1u << mjs_knitted[s][j];
        int ok = 1;
        for (int k = 0; k < 27 && ok; k++)
            if (c[k] && !(in >> k & 1u)) ok = 0;
        if (ok) return 1;
    }
    return 0;
}

static inline int mjs_is_complete_impl(const uint8_t *c, int n_melds, const mjs_rules *r, int any) {
    if (r->standard && (any ? mjs_standard_complete_any(c) : mjs_standard_complete(c))) return 1;
    if (n_melds == 0) {
        if (r->seven_pairs && mjs_seven_pairs_complete(c, r->seven_pairs_four)) return 1;
        if (r->thirteen_orphans && mjs_thirteen_orphans_complete(c)) return 1;
    }
    if (r->knitted)
        return mjs_knitted_straight_complete(c, n_melds, any) ||
               mjs_honors_and_knitted_complete(c, n_melds);
    return 0;
}

/* Whether the concealed counts (14 - 3 * n_melds tiles) and n_melds melds form a complete hand. */
static inline int mjs_is_complete(const uint8_t *c, int n_melds, const mjs_rules *r) {
    return mjs_is_complete_impl(c, n_melds, r, 0);
}

/* --------------------------------------------------------------------- waits */

static inline int mjs_thirteen_orphans_shanten(const uint8_t *c) {
    int present = 0, pair = 0;
    for (int i = 0; i < 13; i++) {
        present += c[mjs_orphans[i]] > 0;
        pair |= c[mjs_orphans[i]] >= 2;
    }
    return 13 - present - pair;
}

/* False when no knitted shape can be one tile short (runtime/shapes.py:_knitted_may_be_ready). */
static inline int mjs_knitted_may_be_ready(const uint8_t *c, int n_melds) {
    int present = 0;
    for (int s = 0; s < 6; s++) {
        int p = 0;
        for (int j = 0; j < 9; j++) p += c[mjs_knitted[s][j]] > 0;
        if (p > present) present = p;
    }
    if (n_melds <= 1 && present >= 8) return 1;
    int honors = 0;
    for (int k = 27; k < 34; k++) honors += c[k] > 0;
    return n_melds == 0 && present + honors >= 13;
}

/* Bit k set when one more tile of kind k completes the hand: the formal waits of the concealed
 * counts (13 - 3 * n_melds tiles), a kind whose every copy is held included. */
static inline uint64_t mjs_wait_mask(const uint8_t *counts, int n_melds, const mjs_rules *r) {
    uint8_t c[MJS_KINDS];
    memcpy(c, counts, MJS_KINDS);
    uint64_t mask = 0;
    if (r->knitted && mjs_knitted_may_be_ready(c, n_melds)) {
        /* Rare: every kind against the whole completeness test. */
        for (int k = 0; k < MJS_KINDS; k++) {
            c[k]++;
            if (mjs_is_complete_impl(c, n_melds, r, 1)) mask |= (uint64_t)1 << k;
            c[k]--;
        }
        return mask;
    }
    if (r->standard) {
        /* One suit takes the tile, the others stay as they are. */
        int flags[4], total = 0;
        for (int s = 0; s < 4; s++) total += flags[s] = mjs_suit_flag(c, s);
        for (int s = 0; s < 4; s++) {
            int rest = total - flags[s];
            if (rest > 1) continue;
            int want = 1 - rest, lo = 9 * s, n = s < 3 ? 9 : 7;
            const uint8_t *table = s < 3 ? mjs_flags_suit : mjs_flags_honor;
            uint32_t idx = mjs_index(c, lo, n);
            for (int i = 0; i < n; i++) {
                int g;
                if (c[lo + i] < 4) {
                    g = table[idx + mjs_pow5[i]];
                } else {
                    c[lo + i]++;
                    g = mjs_flag_any(c + lo, n, s == 3);
                    c[lo + i]--;
                }
                if (g == want) mask |= (uint64_t)1 << (lo + i);
            }
        }
    }
    if (n_melds == 0) {
        /* Seven pairs and thirteen orphans complete only from a ready hand of that shape. */
        if (r->seven_pairs) {
            int odd = -1, n_odd = 0;
            for (int k = 0; k < MJS_KINDS; k++)
                if (c[k] & 1) odd = k, n_odd++;
            if (n_odd == 1) {
                c[odd]++;
                if (mjs_seven_pairs_complete(c, r->seven_pairs_four)) mask |= (uint64_t)1 << odd;
                c[odd]--;
            }
        }
        if (r->thirteen_orphans && mjs_thirteen_orphans_shanten(c) == 0) {
            for (int i = 0; i < 13; i++) {
                int k = mjs_orphans[i];
                c[k]++;
                if (mjs_thirteen_orphans_complete(c)) mask |= (uint64_t)1 << k;
                c[k]--;
            }
        }
    }
    return mask;
}

/* ------------------------------------------------------------------- shanten */

/* The best partials per (head, sets), -1 for none: runtime/shapes.py's accumulator. */
typedef struct mjs_acc {
    int8_t t[2][5];
} mjs_acc;

static inline void mjs_acc_start(mjs_acc *a) {
    memset(a->t, -1, sizeof a->t);
    a->t[0][0] = 0;
}

/* Combine an accumulator with a suit's packed front, partials clipped to cap - sets. */
static inline void mjs_acc_combine(const mjs_acc *a, uint32_t front, int cap, mjs_acc *out) {
    mjs_acc n;
    memset(n.t, -1, sizeof n.t);
    for (int h1 = 0; h1 < 2; h1++) {
        for (int m1 = 0; m1 < 5; m1++) {
            int t1 = a->t[h1][m1];
            if (t1 < 0) continue;
            for (int h2 = 0; h1 + h2 < 2; h2++) {
                for (int m2 = 0; m1 + m2 <= 4; m2++) {
                    int t2 = mjs_front_get(front, h2, m2);
                    if (t2 < 0) continue;
                    int m = m1 + m2, t = t1 + t2;
                    if (t > cap - m) t = cap - m;
                    if (t < 0) continue; /* more sets than the hand has room for */
                    if (t > n.t[h1 + h2][m]) n.t[h1 + h2][m] = (int8_t)t;
                }
            }
        }
    }
    *out = n;
}

/* 2 * cap - the best 2 * sets + partials + head. */
static inline int mjs_acc_value(const mjs_acc *a, int cap) {
    int best = -1000;
    for (int h = 0; h < 2; h++)
        for (int m = 0; m < 5; m++)
            if (a->t[h][m] >= 0 && 2 * m + a->t[h][m] + h > best) best = 2 * m + a->t[h][m] + h;
    return 2 * cap - best;
}

static inline uint32_t mjs_front(const uint8_t *c, int s) {
    return s < 3 ? mjs_front_at(mjs_fronts_suit, 9, mjs_index(c, 9 * s, 9))
                 : mjs_front_at(mjs_fronts_honor, 7, mjs_index(c, 27, 7));
}

static inline int mjs_standard_shanten(const uint8_t *c, int n_melds) {
    int cap = 4 - n_melds;
    mjs_acc a;
    mjs_acc_start(&a);
    for (int s = 0; s < 4; s++) mjs_acc_combine(&a, mjs_front(c, s), cap, &a);
    return mjs_acc_value(&a, cap);
}

static inline int mjs_seven_pairs_shanten(const uint8_t *c, int four) {
    int pairs = 0, kinds = 0;
    if (four) {
        for (int k = 0; k < MJS_KINDS; k++) pairs += c[k] / 2;
        return 6 - (pairs < 7 ? pairs : 7);
    }
    for (int k = 0; k < MJS_KINDS; k++) {
        pairs += c[k] >= 2;
        kinds += c[k] > 0;
    }
    return 6 - pairs + (kinds < 7 ? 7 - kinds : 0);
}

/* Standard shanten toward cap sets and a pair, whatever the tile count (the rest of a knitted
 * straight; runtime/shapes.py:_sets_and_pair_shanten). */
static inline int mjs_sets_and_pair_shanten(const uint8_t *c, int cap) {
    mjs_acc a;
    mjs_acc_start(&a);
    for (int s = 0; s < 4; s++) mjs_acc_combine(&a, mjs_front(c, s), 4, &a);
    int best = 0;
    for (int h = 0; h < 2; h++) {
        for (int m = 0; m < 5; m++) {
            int t = a.t[h][m];
            if (t < 0) continue;
            int sets = m < cap ? m : cap, free = cap - sets;
            int v = 2 * sets + (t < free ? t : free) + h;
            if (v > best) best = v;
        }
    }
    return 2 * cap - best;
}

static inline int mjs_knitted_shanten(const uint8_t *c, int n_melds) {
    int best = MJS_NONE;
    if (n_melds <= 1) {
        for (int s = 0; s < 6; s++) {
            uint8_t rest[MJS_KINDS];
            memcpy(rest, c, MJS_KINDS);
            int present = 0;
            for (int j = 0; j < 9; j++) {
                int k = mjs_knitted[s][j];
                if (rest[k]) rest[k]--, present++;
            }
            int v = 9 - present + mjs_sets_and_pair_shanten(rest, 1 - n_melds);
            if (v < best) best = v;
        }
    }
    if (n_melds == 0) {
        int honors = 0;
        for (int k = 27; k < 34; k++) honors += c[k] > 0;
        for (int s = 0; s < 6; s++) {
            int useful = honors;
            for (int j = 0; j < 9; j++) useful += c[mjs_knitted[s][j]] > 0;
            int v = 13 - (useful < 14 ? useful : 14);
            if (v < best) best = v;
        }
    }
    return best;
}

/* The shapes other than the standard one, MJS_NONE where none applies. */
static inline int mjs_other_shanten(const uint8_t *c, int n_melds, const mjs_rules *r) {
    int best = MJS_NONE, v;
    if (n_melds == 0) {
        if (r->seven_pairs && (v = mjs_seven_pairs_shanten(c, r->seven_pairs_four)) < best) best = v;
        if (r->thirteen_orphans && (v = mjs_thirteen_orphans_shanten(c)) < best) best = v;
    }
    if (r->knitted && (v = mjs_knitted_shanten(c, n_melds)) < best) best = v;
    return best;
}

/* Tiles short of ready, minimised over the enabled shapes: -1 complete, 0 ready, MJS_NONE when no
 * enabled shape can be formed. The counts hold 13 - 3 * n_melds or 14 - 3 * n_melds tiles; the
 * shanten tables must be filled (mjs_init_fronts). */
static inline int mjs_shanten(const uint8_t *c, int n_melds, const mjs_rules *r) {
    int best = r->standard ? mjs_standard_shanten(c, n_melds) : MJS_NONE;
    int other = mjs_other_shanten(c, n_melds, r);
    return other < best ? other : best;
}

/* out[k] = the shanten after discarding one tile of kind k, for every kind held (14 - 3 * n_melds
 * tiles); out[k] = -128 for a kind not held. Each suit's front is combined once: a discard
 * changes one suit only. The shanten tables must be filled (mjs_init_fronts). */
static inline void mjs_discard_shanten(const uint8_t *counts, int n_melds, const mjs_rules *r,
                                       int8_t out[MJS_KINDS]) {
    uint8_t c[MJS_KINDS];
    memcpy(c, counts, MJS_KINDS);
    int cap = 4 - n_melds;
    uint32_t fronts[4];
    for (int s = 0; s < 4; s++) fronts[s] = mjs_front(c, s);
    for (int s = 0; s < 4; s++) {
        int lo = 9 * s, n = s < 3 ? 9 : 7;
        mjs_acc others;
        mjs_acc_start(&others);
        if (r->standard) {
            for (int j = 0; j < 4; j++)
                if (j != s) mjs_acc_combine(&others, fronts[j], cap, &others);
        }
        for (int i = 0; i < n; i++) {
            int k = lo + i;
            if (!c[k]) {
                out[k] = -128;
                continue;
            }
            c[k]--;
            int best = MJS_NONE;
            if (r->standard) {
                mjs_acc a;
                mjs_acc_combine(&others, mjs_front(c, s), cap, &a);
                best = mjs_acc_value(&a, cap);
            }
            int other = mjs_other_shanten(c, n_melds, r);
            out[k] = (int8_t)(other < best ? other : best);
            c[k]++;
        }
    }
}

#endif /* MJSHAPES_H */
