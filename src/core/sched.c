/* sched.c - the registry of warp scheduling policies (docs/SCHEDULERS.md).
 *
 * Adding a policy: one file defining a `const sched_ops`, and one line in the
 * declarations and in `sched_tab` below. Names are matched exactly. A policy's
 * configuration rows come with it (sched_ops.params); nothing else needs a line.
 */
#include "core/sched.h"

#include <stdio.h>
#include <string.h>

const char *const warp_reason_name[WR__COUNT] = {
    [WR_READY] = "ready",
    [WR_IBUF_EMPTY] = "ibuf_empty",
    [WR_SCOREBOARD] = "scoreboard",
    [WR_UNIT_BUSY] = "unit_busy",
    [WR_MEM_STALL] = "mem_stall",
    [WR_BARRIER] = "barrier",
    [WR_DONE] = "done",
};

const char *const issue_type_name[IT__COUNT] = {
    [IT_VALU] = "valu",
    [IT_SFU] = "sfu",
    [IT_DP] = "dp",
    [IT_VMEM] = "vmem",
    [IT_LDS] = "lds",
    [IT_SMEM] = "smem",
    [IT_SALU] = "salu",
    [IT_BRANCH] = "branch",
};

uint32_t sched_order(const sched_ops *o, void *st, sched_cand *cand, uint32_t n, uint64_t cycle,
                     uint32_t *out_idx, uint32_t max)
{
    if (o->order)
        return o->order(st, cand, n, cycle, out_idx, max);
    /* Invariant: every chosen candidate was WR_READY before the call and is
     * WR_UNIT_BUSY until the restore below, so pick() never returns it twice. */
    uint32_t k = 0;
    while (k < max) {
        int i = o->pick(st, cand, n, cycle);
        if (i < 0 || (uint32_t)i >= n || cand[i].reason != WR_READY)
            break;
        out_idx[k++] = (uint32_t)i;
        cand[i].reason = WR_UNIT_BUSY;
    }
    for (uint32_t j = 0; j < k; j++)
        cand[out_idx[j]].reason = WR_READY;
    return k;
}

extern const sched_ops sched_lrr;           /* sched_lrr.c       */
extern const sched_ops sched_gto;           /* sched_gto.c       */
extern const sched_ops sched_oldest;        /* sched_gto.c       */
extern const sched_ops sched_two_level;     /* sched_two_level.c */
extern const sched_ops sched_mto;           /* sched_motrr.c     */
extern const sched_ops sched_motrr;         /* sched_motrr.c     */
extern const sched_ops sched_motrr_recency; /* sched_motrr.c     */
extern const sched_ops sched_static;        /* sched_static.c    */

static const sched_ops *const sched_tab[] = {
    &sched_lrr,
    &sched_gto,
    &sched_oldest,
    &sched_two_level,
    &sched_mto,
    &sched_motrr,
    &sched_motrr_recency,
    &sched_static,
};

#define SCHED_N (sizeof sched_tab / sizeof sched_tab[0])

const sched_ops *sched_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < SCHED_N; i++)
        if (strcmp(sched_tab[i]->name, name) == 0)
            return sched_tab[i];
    return NULL;
}

const sched_ops *sched_at(size_t i)
{
    return i < SCHED_N ? sched_tab[i] : NULL;
}

const void *sched_params_of(const sched_params *sp, const sched_ops *pol)
{
    for (size_t i = 0; sp && sp->all && i < SCHED_N; i++)
        if (sched_tab[i] == pol)
            return sp->all[i];
    return NULL;
}

void sched_names(char *buf, size_t n)
{
    size_t k = 0;
    if (n)
        buf[0] = 0;
    for (size_t i = 0; i < SCHED_N && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", sched_tab[i]->name);
}
