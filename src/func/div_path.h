/* div_path.h - the path-table divergence policy (div_path.c) and its path-priority
 * plug-ins (SPEC section 4, seed 002).
 *
 * A warp keeps a table of paths (pc, mask, call frame). A divergent branch splits a
 * path in two; two paths of one frame that reach the same pc merge, at any pc (no
 * static reconvergence point is used). Which runnable path issues next is the
 * choice of a path-priority plug-in (func.path_priority):
 *   min-pc    the smallest pc (default; the closest to PDOM reconvergence)
 *   majority  the largest population (ties: smaller pc)
 *   las       the Loop-Aware Scheduler: Min-PC, except inside a detected loop that
 *             diverged, where the loop's paths are chosen by majority biased by the
 *             threads' iteration counts, with a bounded iteration gap
 *
 * How to add a priority: one file div_prio_<name>.c defining a `const div_prio_ops`
 * (per-warp state of state_size bytes, zeroed by reset), one line in div_prio.c's
 * registry; func.path_priority selects it by name.
 */
#ifndef WS_FUNC_DIV_PATH_H
#define WS_FUNC_DIV_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "func/div.h"
#include "util/config.h"

/* Parameters of the path table ([func] rows in div_path.c). */
typedef struct {
    char priority[WS_CFG_STR]; /* func.path_priority                                  */
    uint32_t capacity;         /* func.path_table_size: paths of the innermost frame  */
    uint32_t switch_cycles;    /* func.path_switch_cycles (timing)                    */
    bool skip_stalled;         /* func.path_skip_stalled (timing)                     */
    uint32_t las_entries;      /* func.las_loop_entries                               */
    int las_hash;              /* func.las_hash: LAS_HASH_*                           */
    uint32_t las_max_gap;      /* func.las_max_gap: iterations                        */
    uint32_t las_bias;         /* func.las_iter_bias: threads per iteration ahead     */
} div_path_params;

enum { LAS_HASH_MOD, LAS_HASH_XOR_FOLD };

/* A path-priority plug-in. Every hook gets the launch's parameters and counters. */
typedef struct {
    const char *name;
    const char *desc;
    /* Bytes of per-warp state (NULL: none). */
    size_t (*state_size)(const div_path_params *p);
    /* A warp starts a new CTA; st was zeroed (state_size bytes). */
    void (*reset)(void *st, const div_path_params *p);
    /* A path executed a branch at pc: lanes `active`, of which `taken` go to target;
     * cond: the branch has a guard predicate. (NULL: not interested.) */
    void (*branch)(void *st, const div_path_params *p, div_stats *c, uint32_t pc, uint32_t target,
                   uint64_t active, uint64_t taken, int cond);
    /* The path to run: an index i < n with ok[i]; at least one is ok, and min_pc is
     * the Min-PC choice among them. Called whenever the table changes, so it must be
     * idempotent in its statistics (count transitions, not calls). */
    uint32_t (*choose)(void *st, const div_path_params *p, div_stats *c, const func_path *paths,
                       const uint8_t *ok, uint32_t n, uint32_t min_pc);
} div_prio_ops;

const div_prio_ops *div_prio_find(const char *name);
const div_prio_ops *div_prio_at(size_t i);
void div_prio_names(char *buf, size_t n);

/* The LAS loop table of one warp, exposed for tests (div_prio_las.c). */
typedef struct {
    uint8_t valid;
    uint8_t diverged;          /* a divergent branch ran inside [lo, hi)             */
    uint8_t first_set;         /* first_pc is known                                  */
    uint8_t pad;
    uint32_t lo, hi;           /* target and pc of the backward branch               */
    uint32_t first_pc;         /* the loop's first conditional branch                */
    uint64_t trip;             /* backward-branch takes, summed over threads         */
    uint64_t first_taken, first_not;   /* per-thread outcomes of the first branch    */
    uint32_t iter[64];         /* per-thread trip count                              */
} las_loop;

typedef struct {
    uint32_t n;                /* entries                                            */
    uint8_t shifting;          /* the last choice was not Min-PC's                   */
    uint8_t forcing;           /* the last choice was forced by the gap bound        */
    uint16_t pad;
    las_loop e[];              /* direct-mapped by las_hash(backward branch pc)      */
} las_state;

uint32_t las_hash(const div_path_params *p, uint32_t pc);

/* The LAS state of a path-table warp whose priority is las (tests), else NULL. */
const las_state *div_path_las(const func_warp *w);

#endif
