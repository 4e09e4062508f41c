/* mjexpr.h: what lowered spec expressions call (compiler/native.py emits the calls).
 *
 * Integer arithmetic follows Python's (floor division, the modulo's sign); a
 * result that leaves int64, a division by zero, or a power outside 0..64
 * (runtime/exprlib.py bounded_pow) sets *overflow and yields 0: the core then
 * answers the request with the Python engine, which gives the exact result or
 * the same error. The native answer is therefore never a different answer.
 */
#ifndef MJEXPR_H
#define MJEXPR_H

#include <stdint.h>

#include "mjscore.h"

static inline int64_t mj_add(int *overflow, int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        *overflow = 1;
        return 0;
    }
    return r;
}

static inline int64_t mj_sub(int *overflow, int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r)) {
        *overflow = 1;
        return 0;
    }
    return r;
}

static inline int64_t mj_mul(int *overflow, int64_t a, int64_t b) {
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) {
        *overflow = 1;
        return 0;
    }
    return r;
}

static inline int64_t mj_neg(int *overflow, int64_t a) { return mj_sub(overflow, 0, a); }

static inline int64_t mj_abs(int *overflow, int64_t a) { return a < 0 ? mj_neg(overflow, a) : a; }

/* Python's a // b: rounds towards minus infinity. */
static inline int64_t mj_floordiv(int *overflow, int64_t a, int64_t b) {
    if (b == 0 || (a == INT64_MIN && b == -1)) {
        *overflow = 1;
        return 0;
    }
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q -= 1;
    return q;
}

/* Python's a % b: takes the sign of b. */
static inline int64_t mj_mod(int *overflow, int64_t a, int64_t b) {
    if (b == 0) {
        *overflow = 1;
        return 0;
    }
    if (b == -1)
        return 0;
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
    return r;
}

/* bounded_pow: exponents 0..64 only (runtime/exprlib.py MAX_EXPONENT). */
static inline int64_t mj_pow(int *overflow, int64_t base, int64_t exponent) {
    if (exponent < 0 || exponent > 64) {
        *overflow = 1;
        return 0;
    }
    int64_t r = 1;
    for (int64_t i = 0; i < exponent; i++) {
        if (__builtin_mul_overflow(r, base, &r)) {
            *overflow = 1;
            return 0;
        }
    }
    return r;
}

/* only_wait / only_live_wait (`field` is one of the two), computed on first read
 * (mj_view.resolve_waits); where the core cannot compute it, the request goes to the Python
 * engine (overflow), never a guess. */
static inline int mj_wait_fact(mj_view *v, const int *field) {
    if (*field < 0 && v->resolve_waits) v->resolve_waits(v);
    if (*field < 0) {
        v->overflow = 1;
        return 0;
    }
    return *field;
}

/* len(set) of a bit set: SWAR, inline (gcc without -mpopcnt turns __builtin_popcountll into a
 * call to libgcc's __popcountdi2; the build sets no -march). */
static inline int64_t mj_popcount(uint64_t x) {
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (int64_t)((x * UINT64_C(0x0101010101010101)) >> 56);
}

static inline int64_t mj_min2(int64_t a, int64_t b) { return b < a ? b : a; }
static inline int64_t mj_max2(int64_t a, int64_t b) { return b > a ? b : a; }

/* count_of(suit, number) / concealed_count_of: copies of the tile (runtime/view.py _count). */
static inline int64_t mj_count_in(const uint8_t *counts, int suit, int64_t number) {
    static const int base[4] = {0, 9, 18, 27};
    static const int size[4] = {9, 9, 9, 7};
    if (suit < 0 || suit > 3 || number < 1 || number > size[suit])
        return 0;
    return counts[base[suit] + number - 1];
}

/* Equal groups compare equal by value: the Python engine shares one concealed group per kind and
 * tile, so its identity test against the discard's group is this value test. */
static inline int mj_same_group(const mj_group *a, const mj_group *b) {
    return a == b || (a != NULL && b != NULL && a->kind == b->kind && a->tile == b->tile &&
                      a->concealed == b->concealed && a->meld == b->meld);
}

/* concealed_at_win(g): concealed, and not the set a discarded winning tile completed. */
static inline int mj_concealed_at_win(const mj_view *v, const mj_group *g) {
    return g->concealed && !(v->discard_group != NULL && mj_same_group(g, v->discard_group));
}

/* counted(pattern): whether that pattern counted in the arrangement (point items only). */
static inline int mj_counted(const mj_view *v, int pattern) {
    return (int)((v->counted[pattern >> 6] >> (pattern & 63)) & 1u);
}

#endif
