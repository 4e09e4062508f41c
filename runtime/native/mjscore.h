/* mjscore.h: the native scoring backend's data, shared by the core (score.c)
 * and every generated profile module (generated/native/<id>.c).
 *
 * A generated module is data plus thin glue: its pattern, point and payment
 * tables (mj_profile) and one small C function per spec expression, lowered
 * from the checked expression AST by compiler/native.py. Every mechanism (the
 * arrangements, the relations between patterns, points, payments, the choice
 * of the best arrangement) lives once in the core. Nothing here names a
 * profile: what profiles differ in is a field of mj_profile.
 *
 * The numbers of the enums the core shares with the glue and the generated
 * modules (suit, shape, wait, group kind, wind, meld type, combine, pick,
 * prefer) come from one table, runtime/native_enums.py, which `mjspec build`
 * writes into mjenums.h; the lowering emits those constants.
 */
#ifndef MJSCORE_H
#define MJSCORE_H

#include <stdint.h>

#include "mjsituation.h" /* the situation's slots and fields (written from runtime/context.py) */

#define MJ_ABI 3 /* bumped whenever a struct below (or mjsituation.h, or a number of mjenums.h) changes: the core refuses other modules */

#include "mjenums.h" /* the numbers of the shared enums (written from runtime/native_enums.py) */
#define MJ_NONE (-1) /* no value: an Optional that is None, no meld (a group read from the hand), no group, no combine */

/* A tile as expressions see it: kind 0..33 (1m..9m 0..8, 1p..9p 9..17, 1s..9s 18..26, 1z..7z 27..33). */
typedef struct {
    uint8_t kind;
    uint8_t red;
    int8_t suit;   /* MJ_SUIT_* */
    int8_t number; /* 1..9, honors 1..7 */
    uint8_t is_suited, is_honor, is_wind, is_dragon, is_terminal, is_terminal_or_honor;
} mj_tile;

/* A group as expressions see it (runtime/hand.py Group): what its kind and tile decide. */
typedef struct {
    int8_t kind;   /* MJ_GK_* */
    uint8_t tile;  /* lowest kind covered */
    int8_t suit;   /* of the lowest tile */
    int8_t number; /* of the lowest tile */
    int8_t meld;   /* MJ_MELD_* or MJ_NONE */
    int8_t wind;   /* MJ_WIND_* or MJ_NONE */
    uint8_t concealed, is_triplet, is_kong, is_claimed_kong, is_sequence, is_pair;
    uint8_t is_honor, is_wind, is_dragon, has_terminal_or_honor, is_terminal_or_honor_group;
} mj_group;

#define MJ_MAX_GROUPS 14 /* thirteen orphans: twelve singles and a pair; seven pairs: 7 */
#define MJ_MAX_TILES 18  /* 14 plus four kongs */
#define MJ_MAX_INDICATORS 16
#define MJ_MAX_PATTERNS 192

/* One arrangement of one winning hand in its situation: what a hand expression reads
 * (runtime/view.py HandView, field for field). Filled by the core; read-only for
 * generated code, except `overflow`, which an expression sets when its arithmetic
 * leaves int64: the core then answers the request with the Python engine. */
typedef struct mj_view {
    int shape, wait;
    const mj_group *groups[MJ_MAX_GROUPS];
    int n_groups;
    const mj_group *sets[MJ_MAX_GROUPS];
    int n_sets;
    const mj_group *pair; /* NULL: none */
    const mj_group *melds[4];
    int n_melds;
    mj_tile win_tile;
    mj_tile tiles[MJ_MAX_TILES];
    int n_tiles;
    unsigned suits; /* bit MJ_SUIT_x */
    uint64_t tile_mask;
    int64_t four_of_a_kinds, concealed_triplets;
    int is_closed, tsumo, ron, winner;
    /* The situation, one field per slot mjsituation.h says the view holds (runtime/context.py
     * SITUATION): flags; dealer; seat_wind, round_wind (MJ_WIND_*); missing_suit (MJ_SUIT_* or
     * MJ_NONE); the flower counts; dealer_wins; only_wait and only_live_wait. These two are -1
     * when not computed yet: expressions read them through mj_wait_fact (mjexpr.h), which asks
     * resolve_waits the first time: the formal waits cost a search that most hands never need
     * (GB reads only_wait only after an edge, closed or single wait). */
#define MJ_VIEW_FIELD(ctype, name, slot) ctype name;
    MJ_SITUATION_VIEW(MJ_VIEW_FIELD)
#undef MJ_VIEW_FIELD
    void (*resolve_waits)(struct mj_view *v); /* the core's; NULL: an unknown one is not computable */
    const void *waits_request;                /* what resolve_waits reads besides the view */
    mj_tile dora_indicators[MJ_MAX_INDICATORS];
    int n_dora_indicators;
    mj_tile ura_indicators[MJ_MAX_INDICATORS];
    int n_ura_indicators;
    uint8_t counts[34];           /* full hand, melds included (count_of) */
    uint8_t concealed_counts[34]; /* concealed tiles and the winning tile (concealed_count_of) */
    const mj_group *discard_group; /* the group a discarded winning tile completed; NULL on tsumo */
    /* a combination pattern's sets (a, b, c, d = members[0..3]) */
    const mj_group *members[4];
    int n_members;
    /* point items: the raw sum (result formula) and which patterns counted */
    int64_t points;
    uint64_t counted[(MJ_MAX_PATTERNS + 63) / 64];
    /* game options in force: three slots per declared option (value or points, doubles, limit) */
    const int64_t *options;
    int overflow;
} mj_view;

/* What a payment formula reads (runtime/view.py PaymentView), with the earlier named values. */
typedef struct mj_pay {
    int64_t fan, capped, points, honba;
    int tsumo, ron, dealer, limit;
    int64_t named[16];
    const int64_t *options;
    int overflow;
} mj_pay;

typedef int64_t (*mj_hand_fn)(mj_view *v);
typedef int64_t (*mj_pay_fn)(mj_pay *p);

/* An amount that is a constant or a lowered expression. */
typedef struct {
    int64_t constant;
    mj_hand_fn fn; /* NULL: the constant */
} mj_amount;

typedef struct {
    const char *id, *name_en, *section; /* section may be NULL */
    mj_hand_fn when;                    /* NULL: always */
    mj_hand_fn count;                   /* NULL: one occurrence */
    mj_amount value;
    int has_open_value;
    mj_amount open_value;
    int group;               /* index into mj_profile.groups, MJ_NONE */
    const int *excludes;     /* pattern indices */
    const int *exclude_limit; /* per excluded pattern: at most this many occurrences removed, MJ_NONE: all */
    int n_excludes;
    int combine_kind;        /* MJ_COMBINE_* or MJ_NONE */
    int combine_size;
    uint8_t fallback, bonus, limit, tiles_only, members_only;
} mj_pattern;


typedef struct {
    const char *id, *name_en, *section;
    mj_hand_fn when;
    mj_amount value;
} mj_point_item;

typedef struct {
    const char *name; /* a named value, or a payer role */
    mj_pay_fn fn;
} mj_formula;

typedef struct {
    const char *reason_en;
    mj_hand_fn when;
} mj_requirement;

typedef struct mj_profile {
    int abi; /* MJ_ABI */
    const char *id;
    /* shapes (runtime/shapes.py ShapeRules) */
    uint8_t standard, seven_pairs, seven_pairs_allow_four_of_a_kind, thirteen_orphans, knitted;
    /* what the expressions read that costs time (Profile.needs) */
    uint8_t needs_only_wait, needs_only_live_wait, needs_concealed_triplets, needs_counts;
    const mj_requirement *requirements;
    int n_requirements;
    const mj_pattern *patterns;
    int n_patterns;
    const int *group_pick; /* per pattern group: MJ_PICK_* */
    int n_groups;
    int has_cap;
    int64_t cap;
    const int *prefer; /* MJ_PREFER_* */
    int n_prefer;
    int has_minimum;
    int64_t minimum_at_least;
    const int *minimum_without; /* pattern indices */
    int n_minimum_without;
    const char *minimum_reason_en;
    int has_points;
    const mj_point_item *point_items;
    int n_point_items;
    mj_hand_fn points_result; /* NULL: the raw sum */
    const mj_formula *values; /* named payment values, in order */
    int n_values;
    const mj_formula *ron;
    int n_ron;
    const mj_formula *tsumo;
    int n_tsumo;
    int hand_value; /* index into values, MJ_NONE */
    int n_options;  /* mj_view.options holds 3 * n_options slots */
    int limit_hands_counted; /* option index (Profile.limit_hands_counted), MJ_NONE: the core leaves a
                                limit hand under that option on to the Python engine */
    int has_combinations;    /* any pattern with combine_kind != MJ_NONE */
} mj_profile;

#endif
