/* div_simt.c - the PDOM SIMT stack (div.h).
 *
 * Entries are ordered; the top one runs. A divergent branch turns the current entry
 * into the reconvergence entry (pc = the branch's immediate post-dominator) and
 * pushes the not-taken and then the taken path, both reconverging there; an entry
 * whose pc reaches its reconvergence pc is popped. A branch whose reconvergence point
 * equals the enclosing entry's reuses that entry, which keeps a loop that loses one
 * lane per iteration at constant depth. Invariant: entries of call frame k lie above
 * all entries of frames < k.
 */
#include <stdlib.h>

#include "func/div.h"
#include "func/func.h"

static int simt_select(const func_warp *w)
{
    return w->sp ? (int)w->sp - 1 : -1;
}

static int simt_add(func_warp *w, uint32_t pc, uint32_t rpc, uint64_t mask, uint32_t frame)
{
    if (w->sp == w->stk_cap) {
        uint32_t cap = w->stk_cap ? w->stk_cap * 2 : 16;
        simt_entry *ns = realloc(w->stk, cap * sizeof *ns);
        if (!ns)
            return -1;
        w->stk = ns;
        w->stk_cap = cap;
    }
    w->stk[w->sp++] = (simt_entry){pc, rpc, frame, 0, mask};
    return 0;
}

static uint32_t simt_settle(func_warp *w)
{
    while (w->sp) {
        simt_entry *e = &w->stk[w->sp - 1];
        if (e->mask && e->pc != e->rpc)
            break;
        w->sp--;
    }
    return w->sp;
}

static void simt_next(func_warp *w, int p)
{
    simt_entry *e = &w->stk[p];
    if (++e->pc == e->rpc)
        simt_settle(w);
}

static void simt_remove(func_warp *w, uint64_t lanes, uint32_t min_frame)
{
    for (uint32_t i = w->sp; i-- > 0 && w->stk[i].frame >= min_frame;)
        w->stk[i].mask &= ~lanes;
}

static void simt_branch(func_warp *w, int p, uint32_t pc, uint32_t target, uint64_t taken,
                        uint32_t reconv)
{
    simt_entry *e = &w->stk[p];
    uint64_t active = e->mask;
    if (taken == active) {
        e->pc = target;
        return;
    }
    if (taken == 0) {
        e->pc = pc + 1;
        return;
    }
    uint64_t nt = active & ~taken;
    uint32_t frame = e->frame;
    if (e->rpc == reconv) {
        /* same reconvergence point as the enclosing entry: a path that goes straight
         * there is already represented by the entry below; reuse e for the other */
        if (pc + 1 == reconv) {
            e->mask = taken;
            e->pc = target;
            return;
        }
        if (target == reconv) {
            e->mask = nt;
            e->pc = pc + 1;
            return;
        }
    }
    e->pc = reconv;
    simt_add(w, pc + 1, reconv, nt, frame);
    simt_add(w, target, reconv, taken, frame);
}

const div_ops div_simt_stack = {
    "simt-stack", "PDOM SIMT stack: reconverge at the immediate post-dominator, top entry runs",
    simt_select, simt_add, simt_next, simt_branch, simt_remove, simt_settle,
    NULL, /* no parameters */
};
