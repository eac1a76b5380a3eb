/* div_simt.c - the PDOM SIMT stack (div.h).
 *
 * Entries are ordered; the top one runs. A divergent branch turns the current entry
 * into the reconvergence entry (pc = the branch's immediate post-dominator) and
 * pushes the not-taken and then the taken path, both reconverging there; an entry
 * whose pc reaches its reconvergence pc is popped. A branch whose reconvergence point
 * equals the enclosing entry's reuses that entry, which keeps a loop that loses one
 * lane per iteration at constant depth.
 *
 * State: per warp, the stack (simt_stack: the warp's own func_warp.simt, which
 * w->dstate points to); nothing per launch.
 * Invariants: entries of call frame k lie above all entries of frames < k, so the
 * top entry runs in the innermost frame. Exactly one path is runnable, the top
 * entry, and it is exposed as path id 0 whichever entry is on top: to the timing
 * model a divergent branch or a pop is the same path continuing at another pc (its
 * instruction buffer follows the pc, as before paths had ids).
 */
#include <stdlib.h>
#include <string.h>

#include "func/div.h"
#include "func/div_simt.h"
#include "func/func.h"

#define SIMT_PATH DIV_SIMT_PATH

static int simt_push(simt_stack *s, uint32_t pc, uint32_t rpc, uint64_t mask, uint32_t frame)
{
    if (s->sp == s->cap) {
        uint32_t cap = s->cap * 2 > 16 ? s->cap * 2 : 16;
        const int from_in = s->e == s->in;
        simt_entry *ns = from_in ? malloc(cap * sizeof *ns) : realloc(s->e, cap * sizeof *ns);
        if (!ns)
            return -1;
        if (from_in)
            memcpy(ns, s->in, s->sp * sizeof *ns);
        s->e = ns;
        s->cap = cap;
    }
    s->e[s->sp] = (simt_entry){{SIMT_PATH, pc, mask, frame, 0}, rpc, 0};
    s->top = &s->e[s->sp++];
    return 0;
}

static int simt_warp_init(func_warp *w, uint64_t mask)
{
    simt_stack *s = w->dstate;
    if (!s) {
        s = &w->simt;   /* (func.h: the record's own line in the warp) */
        memset(s, 0, sizeof *s);
        s->e = s->in;
        s->cap = 1;
        w->dstate = s;
    }
    s->sp = 0;   /* keep the entries of a previous CTA: no allocation in steady state */
    s->top = NULL;
    return simt_push(s, 0, DIV_NO_PC, mask, 0);
}

static void simt_warp_fini(func_warp *w)
{
    simt_stack *s = w->dstate;
    if (s && s->e != s->in)
        free(s->e);
    w->dstate = NULL;
}

static const func_path *simt_select(const func_warp *w)
{
    return div_simt_top(w->dstate);   /* p is the entry's first member; NULL: empty */
}

static uint32_t simt_paths(const func_warp *w, func_path *out, uint32_t max)
{
    const func_path *p = simt_select(w);
    if (!p || !max)
        return 0;
    *out = *p;
    return 1;
}

static const func_path *simt_get(const func_warp *w, uint32_t id)
{
    return id == SIMT_PATH ? simt_select(w) : NULL;
}

static int simt_call(func_warp *w, uint64_t mask, uint32_t frame)
{
    return simt_push(w->dstate, 0, DIV_NO_PC, mask, frame);
}

uint32_t div_simt_pop(simt_stack *s)
{
    while (s->sp) {
        simt_entry *e = &s->e[s->sp - 1];
        if (e->p.mask && e->p.pc != e->rpc)
            break;
        s->sp--;
    }
    s->top = s->sp ? &s->e[s->sp - 1] : NULL;
    return s->sp;
}

static uint32_t simt_settle(func_warp *w, uint32_t *top_frame)
{
    simt_stack *s = w->dstate;
    uint32_t n = div_simt_pop(s);
    if (n)
        *top_frame = s->top->p.frame;   /* the innermost frame (invariant) */
    return n;
}

static uint32_t simt_next(func_warp *w, uint32_t id)
{
    (void)id;
    return div_simt_next(w->dstate);
}

static void simt_remove(func_warp *w, uint64_t lanes, uint32_t min_frame)
{
    simt_stack *s = w->dstate;
    for (uint32_t i = s->sp; i-- > 0 && s->e[i].p.frame >= min_frame;)
        s->e[i].p.mask &= ~lanes;
}

static void simt_branch(func_warp *w, uint32_t id, uint32_t pc, uint32_t target, uint64_t taken,
                        uint32_t reconv)
{
    simt_stack *s = w->dstate;
    simt_entry *t = s->top;
    func_path *e = &t->p;
    uint64_t active = e->mask;
    (void)id;
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
    if (t->rpc == reconv) {
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
    e->pc = reconv;   /* (e and t are not used after a push: it may move the stack) */
    simt_push(s, pc + 1, reconv, nt, frame);
    simt_push(s, target, reconv, taken, frame);
}

const div_ops div_simt_stack = {
    .name = "simt-stack",
    .desc = "PDOM SIMT stack: reconverge at the immediate post-dominator, top entry runs",
    .warp_init = simt_warp_init,
    .warp_fini = simt_warp_fini,
    .select = simt_select,
    .paths = simt_paths,
    .get = simt_get,
    .call = simt_call,
    .next = simt_next,
    .branch = simt_branch,
    .remove = simt_remove,
    .settle = simt_settle,
    .params = NULL, /* no parameters */
};
