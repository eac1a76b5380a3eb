/* sched_lrr.c - loose round robin (SPEC section 2; seed 001 section 3.1).
 *
 * Start from the warp after the one this scheduler issued last and take the first
 * ready warp in slot order, wrapping around. With sched.lrr_quantum = Q > 0 the warp
 * that got the turn keeps it for Q cycles while it stays ready (seed 001's time
 * quantum); when it stalls or its quantum ends, the turn passes on as above.
 */
#include <stdlib.h>

#include "core/sched.h"
#include "core/slotset.h"

#define NO_SLOT UINT32_MAX

/* Parameters ([sched] rows below). */
typedef struct {
    uint32_t quantum; /* sched.lrr_quantum: cycles a warp keeps its turn; 0 = plain LRR */
} lrr_params;

static const ws_cfg_param lrr_rows[] = {
    {"sched", "lrr_quantum", WS_CT_UINT, offsetof(lrr_params, quantum), "0", 0, 1000000, NULL,
     "cycles", "static-select: LRR time quantum (0 = plain LRR)"},
    {0}};
static const ws_cfg_table lrr_table = {"lrr", lrr_rows, sizeof(lrr_params)};

typedef struct {
    uint32_t last;    /* slot issued last; NO_SLOT before the first issue       */
    uint32_t quantum; /* 0: plain LRR                                           */
    uint64_t t_turn;  /* cycle `last` got its turn (start of its quantum)       */
} lrr_st;

static void *lrr_create(uint32_t n_slots, const sched_params *p)
{
    (void)n_slots;
    lrr_st *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->last = NO_SLOT;
    const lrr_params *lp = p ? p->params : NULL;
    s->quantum = lp ? lp->quantum : 0;
    return s;
}

static void lrr_destroy(void *st)
{
    free(st);
}

static int lrr_pick(void *st, const sched_cand *c, uint32_t n, uint64_t cycle)
{
    const lrr_st *s = st;
    int keep = s->quantum && cycle >= s->t_turn && cycle - s->t_turn < s->quantum;
    int first = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (c[i].reason != WR_READY)
            continue;
        if (keep && c[i].slot == s->last)
            return (int)i;
        /* slot order: past `last` (which, kept and ready, would have won above) */
        if (c[i].slot > s->last)
            return (int)i;
        if (first < 0)
            first = (int)i;
    }
    return first;
}

/* lrr_pick over the ready slot set (sched_ops.pick_slot). */
static int lrr_pick_slot(void *st, const uint64_t *ready, uint32_t nw, const uint64_t *age, uint64_t cycle)
{
    (void)age;
    const lrr_st *s = st;
    int keep = s->quantum && cycle >= s->t_turn && cycle - s->t_turn < s->quantum;
    if (keep && s->last / 64 < nw && ready[s->last / 64] >> (s->last % 64) & 1)
        return (int)s->last;
    uint32_t n = nw * 64, i = UINT32_MAX;
    if (s->last != NO_SLOT && s->last + 1 < n)
        i = slotset_next(ready, n, s->last + 1);   /* past `last` */
    if (i == UINT32_MAX)
        i = slotset_next(ready, n, 0);             /* wrap around */
    return i == UINT32_MAX ? -1 : (int)i;
}

static void lrr_on_issue(void *st, uint32_t slot, int is_mem, uint64_t cycle)
{
    (void)is_mem;
    lrr_st *s = st;
    if (slot != s->last || cycle < s->t_turn || cycle - s->t_turn >= s->quantum)
        s->t_turn = cycle;
    s->last = slot;
}

const sched_ops sched_lrr = {
    .name = "lrr",
    .desc = "loose round robin: first ready warp after the one issued last "
            "(sched.lrr_quantum > 0: keep a warp for that many cycles)",
    .params = &lrr_table,
    .create = lrr_create,
    .destroy = lrr_destroy,
    .pick = lrr_pick,
    .on_issue = lrr_on_issue,
    .ready_only = 1,
    .pick_slot = lrr_pick_slot,
};
