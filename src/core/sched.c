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
