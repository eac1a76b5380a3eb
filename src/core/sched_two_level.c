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
 * promotion are evaluated in pick(), which sees why warps wait; pick() only runs in
 * cycles where some warp is ready, and nothing issues in the others.
 */
#include <stdlib.h>
#include <string.h>

#include "core/sched.h"

#define NO_SLOT UINT32_MAX

enum { M_NONE, M_ACTIVE, M_PENDING };

typedef struct {
    uint32_t n_slots, cap, n_act;
    uint32_t last;      /* slot issued last                                       */
    uint32_t pick_slot; /* what pick() returned, for on_issue                     */
    uint8_t pick_long;  /* ... and whether its instruction is global/local memory */
    uint64_t gen;       /* pick() counter: seen[s] == gen means s is a candidate  */
    uint64_t seq;       /* pending FIFO order                                     */
    uint32_t *act;      /* active slots in joining order, n_act of them           */
    uint32_t *where;    /* candidate index of slot s in this pick                 */
    uint64_t *seen;
    uint64_t *pseq;     /* when slot s entered the pending set                    */
    uint8_t *mem;       /* M_*                                                    */
    uint8_t *longop;    /* issued a global/local access, maybe still outstanding  */
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
    s->last = s->pick_slot = NO_SLOT;
    s->act = calloc(n, sizeof *s->act);
    s->where = calloc(n, sizeof *s->where);
    s->seen = calloc(n, sizeof *s->seen);
    s->pseq = calloc(n, sizeof *s->pseq);
    s->mem = calloc(n, 1);
    s->longop = calloc(n, 1);
    if (!s->act || !s->where || !s->seen || !s->pseq || !s->mem || !s->longop) {
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

static int tl_pick(void *st, const sched_cand *c, uint32_t n, uint64_t cycle)
{
    (void)cycle;
    tl_st *s = st;
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
    int first = -1, got = -1;
    for (uint32_t i = 0; i < n && got < 0; i++) {
        if (c[i].reason != WR_READY || c[i].slot >= s->n_slots || s->mem[c[i].slot] != M_ACTIVE)
            continue;
        if (c[i].slot > s->last)
            got = (int)i;
        else if (first < 0)
            first = (int)i;
    }
    if (got < 0)
        got = first;
    s->pick_slot = got < 0 ? NO_SLOT : c[got].slot;
    s->pick_long = got >= 0 && c[got].is_long;
    return got;
}

static void tl_on_issue(void *st, uint32_t slot, int is_mem, uint64_t cycle)
{
    (void)cycle;
    tl_st *s = st;
    if (slot < s->n_slots && is_mem && slot == s->pick_slot && s->pick_long)
        s->longop[slot] = 1;
    s->last = slot;
    s->pick_slot = NO_SLOT;
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
    .on_issue = tl_on_issue,
    .on_warp_start = tl_on_warp_start,
    .on_warp_end = tl_on_warp_end,
};
