/* sched_two_level.c - two-level warp scheduling (Narasiman et al., MICRO 2011;
 * active/pending form as in Gebhart et al., ISCA 2011).
 *
 * At most `cap` (sched.two_level_active) warps of this scheduler are active; only
 * they issue, round robin in slot order from the warp after the one issued last.
 * An active warp leaves for the tail of the pending FIFO when it
 *   - stalls on a long-latency access: scoreboard hazard while it has memory
 *     accesses outstanding and has issued a global/local one since it last had
 *     none outstanding (the stall, not the issue: a warp keeps issuing independent
 *     instructions, and further loads, after a load);
 *   - waits at a barrier (the warps it waits for may be pending: forward progress);
 *   - has nothing left to issue (WR_DONE, or no longer among the candidates).
 * A free place goes to the pending warp that entered the FIFO first among those
 * no longer stalled on memory (not a scoreboard hazard with accesses outstanding)
 * and not at a barrier or done; so with an active set as large as the scheduler's
 * warps the policy is exactly LRR. Demotion and
 * promotion are evaluated in pick() / order(), which see why warps wait; they only run
 * in cycles where some warp is ready, and nothing issues in the others. order() (a
 * core that issues several instructions per cycle, e.g. the GCN compute unit) updates
 * the sets once and lists the ready active warps round robin from the one after the
 * warp issued last; pick() is its first entry.
 */
#include <stdlib.h>
#include <string.h>

#include "core/sched.h"

#define NO_SLOT UINT32_MAX

enum { M_NONE, M_ACTIVE, M_PENDING };

typedef struct {
    uint32_t n_slots, cap, n_act;
    uint32_t last;      /* slot issued last                                       */
    uint64_t gen;       /* pick() counter: seen[s] == gen means s is a candidate  */
    uint64_t seq;       /* pending FIFO order                                     */
    uint32_t *act;      /* active slots in joining order, n_act of them           */
    uint32_t *where;    /* candidate index of slot s in this pick                 */
    uint64_t *seen;
    uint64_t *pseq;     /* when slot s entered the pending set                    */
    uint8_t *mem;       /* M_*                                                    */
    uint8_t *longop;    /* issued a global/local access, maybe still outstanding  */
    uint64_t *offered;  /* offered[s] == gen: pick()/order() returned s this time    */
    uint8_t *off_long;  /* ... and its instruction is a global/local access          */
} tl_st;

/* Parameters ([sched] rows below). */
typedef struct {
    uint32_t active; /* sched.two_level_active: warps in the active set */
} tl_params;

static const ws_cfg_param tl_rows[] = {
    {"sched", "two_level_active", WS_CT_UINT, offsetof(tl_params, active), "8", 1, 1024, NULL,
     "warps", "two-level: warps in the active set per scheduler"},
    {0}};
static const ws_cfg_table tl_table = {"two-level", tl_rows, sizeof(tl_params)};

static void tl_destroy(void *st)
{
    tl_st *s = st;
    if (!s)
        return;
    free(s->act);
    free(s->where);
    free(s->seen);
    free(s->pseq);
    free(s->mem);
    free(s->longop);
    free(s->offered);
    free(s->off_long);
    free(s);
}

static void *tl_create(uint32_t n_slots, const sched_params *p)
{
    const tl_params *tp = p ? p->params : NULL;
    if (!tp || tp->active == 0)
        return NULL;
    tl_st *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    size_t n = n_slots ? n_slots : 1;
    s->n_slots = n_slots;
    s->cap = tp->active < n_slots ? tp->active : n_slots;
    s->last = NO_SLOT;
    s->act = calloc(n, sizeof *s->act);
    s->where = calloc(n, sizeof *s->where);
    s->seen = calloc(n, sizeof *s->seen);
    s->pseq = calloc(n, sizeof *s->pseq);
    s->mem = calloc(n, 1);
    s->longop = calloc(n, 1);
    s->offered = calloc(n, sizeof *s->offered);
    s->off_long = calloc(n, 1);
    if (!s->act || !s->where || !s->seen || !s->pseq || !s->mem || !s->longop ||
        !s->offered || !s->off_long) {
        tl_destroy(s);
        return NULL;
    }
    return s;
}

static void to_pending(tl_st *s, uint32_t slot)
{
    s->mem[slot] = M_PENDING;
    s->pseq[slot] = ++s->seq;
}

static void join(tl_st *s, uint32_t slot)
{
    if (s->n_act < s->cap) {
        s->act[s->n_act++] = slot;
        s->mem[slot] = M_ACTIVE;
    } else {
        to_pending(s, slot);
    }
}

static void leave_active(tl_st *s, uint32_t j)
{
    memmove(&s->act[j], &s->act[j + 1], (s->n_act - j - 1) * sizeof *s->act);
    s->n_act--;
}

static int must_leave(const tl_st *s, uint32_t slot, const sched_cand *x)
{
    if (!x || x->reason == WR_DONE || x->reason == WR_BARRIER)
        return 1;
    return x->reason == WR_SCOREBOARD && x->waiting_mem && s->longop[slot];
}

/* Demotes active warps that must leave and fills free places from the pending FIFO. */
static void update_sets(tl_st *s, const sched_cand *c, uint32_t n)
{
    s->gen++;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t slot = c[i].slot;
        if (slot >= s->n_slots)
            continue;
        s->seen[slot] = s->gen;
        s->where[slot] = i;
        if (!c[i].waiting_mem)
            s->longop[slot] = 0;
        if (s->mem[slot] == M_NONE && c[i].reason != WR_DONE)
            join(s, slot); /* started without on_warp_start */
    }
    for (uint32_t j = 0; j < s->n_act;) {
        uint32_t slot = s->act[j];
        if (must_leave(s, slot, s->seen[slot] == s->gen ? &c[s->where[slot]] : NULL)) {
            leave_active(s, j);
            to_pending(s, slot);
        } else {
            j++;
        }
    }
    while (s->n_act < s->cap) {
        int b = -1;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t slot = c[i].slot;
            if (slot >= s->n_slots || s->mem[slot] != M_PENDING ||
                (c[i].waiting_mem && c[i].reason == WR_SCOREBOARD) ||
                c[i].reason == WR_BARRIER || c[i].reason == WR_DONE)
                continue;
            if (b < 0 || s->pseq[slot] < s->pseq[c[b].slot])
                b = (int)i;
        }
        if (b < 0)
            break;
        s->act[s->n_act++] = c[b].slot;
        s->mem[c[b].slot] = M_ACTIVE;
    }
}

static int issuable(const tl_st *s, const sched_cand *x)
{
    return x->reason == WR_READY && x->slot < s->n_slots && s->mem[x->slot] == M_ACTIVE;
}

static void offer(tl_st *s, const sched_cand *x)
{
    s->offered[x->slot] = s->gen;
    s->off_long[x->slot] = x->is_long;
}

/* The ready active warps round robin from the slot after the one issued last
 * (candidates come in slot order): first those above `last`, then the rest. */
static uint32_t tl_order(void *st, const sched_cand *c, uint32_t n, uint64_t cycle,
                         uint32_t *out, uint32_t max)
{
    (void)cycle;
    tl_st *s = st;
    update_sets(s, c, n);
    uint32_t k = 0;
    for (int pass = 0; pass < 2 && k < max; pass++)
        for (uint32_t i = 0; i < n && k < max; i++) {
            if (!issuable(s, &c[i]) || (pass == 0) != (c[i].slot > s->last || s->last == NO_SLOT))
                continue;
            out[k++] = i;
            offer(s, &c[i]);
        }
    return k;
}

static int tl_pick(void *st, const sched_cand *c, uint32_t n, uint64_t cycle)
{
    uint32_t i;
    return tl_order(st, c, n, cycle, &i, 1) ? (int)i : -1;
}

static void tl_on_issue(void *st, uint32_t slot, int is_mem, uint64_t cycle)
{
    (void)cycle;
    tl_st *s = st;
    if (slot < s->n_slots && is_mem && s->offered[slot] == s->gen && s->off_long[slot])
        s->longop[slot] = 1;
    s->last = slot;
}

static void tl_on_warp_start(void *st, uint32_t slot, uint64_t cycle)
{
    (void)cycle;
    tl_st *s = st;
    if (slot >= s->n_slots || s->mem[slot] != M_NONE)
        return;
    s->longop[slot] = 0;
    join(s, slot);
}

static void tl_on_warp_end(void *st, uint32_t slot, uint64_t cycle)
{
    (void)cycle;
    tl_st *s = st;
    if (slot >= s->n_slots)
        return;
    if (s->mem[slot] == M_ACTIVE)
        for (uint32_t j = 0; j < s->n_act; j++)
            if (s->act[j] == slot) {
                leave_active(s, j);
                break;
            }
    s->mem[slot] = M_NONE;
    s->longop[slot] = 0;
}

const sched_ops sched_two_level = {
    .name = "two-level",
    .desc = "two-level (Narasiman et al. 2011): round robin over an active set of "
            "sched.two_level_active warps; warps stalled on memory wait in a pending FIFO",
    .params = &tl_table,
    .create = tl_create,
    .destroy = tl_destroy,
    .pick = tl_pick,
    .order = tl_order,
    .on_issue = tl_on_issue,
    .on_warp_start = tl_on_warp_start,
    .on_warp_end = tl_on_warp_end,
};
