/* sched_static.c - static-select: LRR or GTO per kernel, chosen before it runs
 * (SPEC section 3, seed 001's policy switch).
 *
 * The choice comes from the PTX locality analysis of the launched kernel
 * (ptx/locality.h), or from a `.pol` / `warpsim.policy` directive in its PTX; the SM
 * hands it over in sched_params. The policy then simply is the chosen one: it wraps
 * the registered "lrr" (seed 001's LRR: sched.lrr_quantum = time quantum, 0 = plain
 * LRR; warps skipped for not being ready go behind, i.e. are re-ranked) or "gto"
 * (age order never changes: no re-ranking). Switching costs nothing per cycle: one
 * indirect call, decided once per launch.
 *
 * Contract (core/sched.h, applied by the lead):
 *     typedef struct { ...; uint32_t lrr_quantum;
 *                      uint8_t static_lrr;   // static-select: 1 LRR, 0 GTO (from the
 *                                            // analysis of the launched kernel)
 *     } sched_params;
 *     #define SCHED_HAS_STATIC_LRR 1
 *     const char *sched_static_choice(const sched_params *p);
 * Until sched.h carries the field, static-select behaves as GTO (the baseline).
 */
#include <stdlib.h>

#include "core/sched.h"

#ifdef SCHED_HAS_STATIC_LRR
#define STATIC_LRR(p) ((p) && (p)->static_lrr)
#else
#define STATIC_LRR(p) ((void)(p), 0)
#endif

typedef struct {
    const sched_ops *in;  /* the chosen policy */
    void *st;
} static_st;

const char *sched_static_choice(const sched_params *p);

/* The label statistics show for a launch under static-select. */
const char *sched_static_choice(const sched_params *p)
{
    return STATIC_LRR(p) ? "static-select(lrr)" : "static-select(gto)";
}

static void *static_create(uint32_t n_slots, const sched_params *p)
{
    const sched_ops *in = sched_find(STATIC_LRR(p) ? "lrr" : "gto");
    if (!in)
        return NULL;
    static_st *s = malloc(sizeof *s);
    if (!s)
        return NULL;
    s->in = in;
    if (!(s->st = in->create(n_slots, p))) {
        free(s);
        return NULL;
    }
    return s;
}

static void static_destroy(void *st)
{
    static_st *s = st;
    if (!s)
        return;
    s->in->destroy(s->st);
    free(s);
}

static int static_pick(void *st, const sched_cand *c, uint32_t n, uint64_t cycle)
{
    static_st *s = st;
    return s->in->pick(s->st, c, n, cycle);
}

static void static_on_issue(void *st, uint32_t slot, int is_mem, uint64_t cycle)
{
    static_st *s = st;
    if (s->in->on_issue)
        s->in->on_issue(s->st, slot, is_mem, cycle);
}

static void static_on_mem_done(void *st, uint32_t slot, uint64_t cycle)
{
    static_st *s = st;
    if (s->in->on_mem_done)
        s->in->on_mem_done(s->st, slot, cycle);
}

static void static_on_warp_start(void *st, uint32_t slot, uint64_t cycle)
{
    static_st *s = st;
    if (s->in->on_warp_start)
        s->in->on_warp_start(s->st, slot, cycle);
}

static void static_on_warp_end(void *st, uint32_t slot, uint64_t cycle)
{
    static_st *s = st;
    if (s->in->on_warp_end)
        s->in->on_warp_end(s->st, slot, cycle);
}

const sched_ops sched_static = {
    .name = "static-select",
    .desc = "seed 001: LRR or GTO per kernel from a static locality analysis of its PTX "
            "(or a .pol / warpsim.policy directive); see docs/STATIC_SELECT.md",
    .create = static_create,
    .destroy = static_destroy,
    .pick = static_pick,
    .on_issue = static_on_issue,
    .on_mem_done = static_on_mem_done,
    .on_warp_start = static_on_warp_start,
    .on_warp_end = static_on_warp_end,
};
