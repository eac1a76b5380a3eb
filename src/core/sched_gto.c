/* sched_gto.c - greedy-then-oldest (SPEC section 2) and pure oldest-first.
 *
 * Age is the cycle a warp was assigned to the SM; equal ages go to the lower slot,
 * which is what a strict `<` over candidates in slot order gives.
 */
#include <stdlib.h>

#include "core/sched.h"

#define NO_SLOT UINT32_MAX

typedef sched_gto_st gto_st;

static void *gto_create(uint32_t n_slots, const sched_params *p)
{
    (void)n_slots;
    (void)p;
    gto_st *s = malloc(sizeof *s);
    if (s)
        s->last = NO_SLOT;
    return s;
}

static void gto_destroy(void *st)
{
    free(st);
}

/* Oldest ready candidate, or -1; `greedy` (a slot, or NO_SLOT) wins when ready. */
static int oldest_ready(const sched_cand *c, uint32_t n, uint32_t greedy)
{
    int best = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (c[i].reason != WR_READY)
            continue;
        if (c[i].slot == greedy)
            return (int)i;
        if (best < 0 || c[i].age < c[best].age)
            best = (int)i;
    }
    return best;
}

/* oldest_ready over the ready slot set (sched_ops.pick_slot): the greedy slot when it is
 * in the set, else the least age, ties to the lower slot (sched.h). */
#define oldest_slot sched_oldest_slot

static int gto_pick_slot(void *st, const uint64_t *ready, uint32_t nw, const uint64_t *age, uint64_t cycle)
{
    (void)cycle;
    return oldest_slot(ready, nw, age, ((const gto_st *)st)->last);
}

static int oldest_pick_slot(void *st, const uint64_t *ready, uint32_t nw, const uint64_t *age, uint64_t cycle)
{
    (void)st;
    (void)cycle;
    return oldest_slot(ready, nw, age, NO_SLOT);
}

static int gto_pick(void *st, const sched_cand *c, uint32_t n, uint64_t cycle)
{
    (void)cycle;
    return oldest_ready(c, n, ((const gto_st *)st)->last);
}

static void gto_on_issue(void *st, uint32_t slot, int is_mem, uint64_t cycle)
{
    (void)is_mem;
    (void)cycle;
    ((gto_st *)st)->last = slot;
}

static int oldest_pick(void *st, const sched_cand *c, uint32_t n, uint64_t cycle)
{
    (void)st;
    (void)cycle;
    return oldest_ready(c, n, NO_SLOT);
}

const sched_ops sched_gto = {
    .name = "gto",
    .desc = "greedy then oldest: the warp issued last while it is ready, else the oldest ready warp",
    .create = gto_create,
    .destroy = gto_destroy,
    .pick = gto_pick,
    .on_issue = gto_on_issue,
    .ready_only = 1,
    .pick_slot = gto_pick_slot,
};

const sched_ops sched_oldest = {
    .name = "oldest",
    .desc = "oldest first: the ready warp assigned to the SM earliest",
    .create = gto_create, /* unused state; create must not return NULL */
    .destroy = gto_destroy,
    .pick = oldest_pick,
    .ready_only = 1,
    .pick_slot = oldest_pick_slot,
};
