/* div_path.c - the path table (div.h, div_path.h; SPEC section 4, seed 002).
 *
 * State. Per launch (L->dstate): the parameters, the priority plug-in and the
 * statistics (div_stats). Per warp (w->dstate): paths p[0 .. n) with a flag byte
 * each, the selected index, and the priority's state; arrays grow by doubling on a
 * split or call that needs room and are kept for the next CTA (no allocation in
 * steady state, none per cycle).
 *
 * Invariants (after every op):
 *  - every path has lanes, except between remove and settle;
 *  - two paths of one frame with the same pc and the same parked flag are merged
 *    (the one that moved keeps its id: the timing model's buffer follows it);
 *  - runnable = in the innermost frame, not parked at a barrier, not spilled, and
 *    not waiting at a warp-synchronous instruction (shfl/vote/match/redux .sync,
 *    bar.warp.sync) for lanes of its membermask that are in other paths of the
 *    frame — PTX's rule for independently scheduled threads. When every runnable
 *    path so waits (the program cannot converge, e.g. .sync ops at different pcs),
 *    the Min-PC one runs without the others (counted: sync_forced);
 *  - sel is the priority's choice among the runnable paths, or PT_NONE when there
 *    is none (every path parked: the warp waits at the barrier).
 *
 * Capacity (func.path_table_size): the number of paths of the innermost frame that
 * are neither parked nor spilled. A split that finds the table full still splits,
 * but the new path is spilled (choice: to memory, as Collange's path lists): it is
 * not runnable until a place frees (paths merge or finish), when the oldest spilled
 * path returns. Counted: path_spills. Paths of outer frames are saved with their call
 * (choice: the table runs a callee to completion before its caller continues: every
 * runnable path lies in the innermost frame, as div.h requires).
 *
 * Barriers (div_ops.wait/release): a path reaching bar.sync parks at pc + 1; the
 * warp waits only when all of its paths are parked; release unparks them all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "func/div_path.h"
#include "func/func.h"

#define PT_NONE UINT32_MAX
enum { PT_PARKED = 1, PT_SPILLED = 2 };

typedef struct {
    div_path_params prm;
    const div_prio_ops *prio;
    size_t prio_bytes;
    div_stats st;
} pt_launch;

typedef struct {
    func_path *p;          /* paths [0, n)                                            */
    uint8_t *flag;         /* PT_* per path                                           */
    uint8_t *ok;           /* runnable per path (recompute)                           */
    uint64_t *seq;         /* creation order (spilled paths return oldest first)      */
    uint32_t n, cap;
    uint32_t sel;          /* selected index, PT_NONE: no runnable path               */
    uint32_t top;          /* innermost frame of any path                             */
    uint32_t next_id;
    uint32_t last_id;      /* the path that executed last (switch counting)           */
    uint8_t forced;        /* sel waits at a warp-sync op for lanes it cannot get     */
    uint8_t pad[3];
    uint64_t seqctr;
    pt_launch *L;
    void *prio;            /* the priority's state (prio_bytes)                       */
} pt_warp;

/* ---- parameters ----------------------------------------------------------------------- */
static const ws_cfg_enum hash_names[] = {{"mod", LAS_HASH_MOD}, {"xor-fold", LAS_HASH_XOR_FOLD}, {NULL, 0}};

static const ws_cfg_param pt_rows[] = {
    {"func", "path_priority", WS_CT_STR, offsetof(div_path_params, priority), "min-pc", 1, 63, NULL, "",
     "path-table: path-priority plug-in (min-pc, majority, las)"},
    {"func", "path_table_size", WS_CT_UINT, offsetof(div_path_params, capacity), "32", 1, 64, NULL, "paths",
     "path-table: paths of the innermost frame that can be resident; a split beyond spills the new path until a place frees"},
    {"func", "path_switch_cycles", WS_CT_UINT, offsetof(div_path_params, switch_cycles), "0", 0, 10000, NULL,
     "cycles", "path-table, timing: extra cycles before a warp's refetched instructions are usable when it switches to another path than it issued last (the refetch itself is always paid)"},
    {"func", "path_skip_stalled", WS_CT_BOOL, offsetof(div_path_params, skip_stalled), "false", 0, 0, NULL, "",
     "path-table, timing: while the selected path waits on the scoreboard another path of the warp may issue"},
    {"func", "las_loop_entries", WS_CT_UINT, offsetof(div_path_params, las_entries), "16", 1, 4096, NULL,
     "entries", "las: loop-table entries (direct-mapped)"},
    {"func", "las_hash", WS_CT_ENUM, offsetof(div_path_params, las_hash), "mod", 0, 0, hash_names, "",
     "las: loop-table index of a backward branch at pc: mod = pc mod entries; xor-fold = (pc ^ pc>>4 ^ pc>>8 ^ pc>>16) mod entries"},
    {"func", "las_max_gap", WS_CT_UINT, offsetof(div_path_params, las_max_gap), "4", 0, 1000000, NULL,
     "iterations", "las: iteration gap inside a loop beyond which the least-advanced threads run"},
    {"func", "las_iter_bias", WS_CT_UINT, offsetof(div_path_params, las_bias), "1", 0, 64, NULL, "threads",
     "las: majority score penalty per iteration a path's most advanced thread is ahead of the least-advanced one"},
    {0}};
static const ws_cfg_table pt_table = {"path-table", pt_rows, sizeof(div_path_params)};

static int pt_check(const void *params, char *err, size_t n)
{
    const div_path_params *p = params;
    if (div_prio_find(p->priority))
        return 0;
    char known[128];
    div_prio_names(known, sizeof known);
    snprintf(err, n, "unknown path priority func.path_priority=%s (known: %s)", p->priority, known);
    return -1;
}

/* ---- launch state ------------------------------------------------------------------------ */
static int pt_create(const func_launch *L, void **st)
{
    pt_launch *pl = calloc(1, sizeof *pl);
    if (!pl)
        return -1;
    if (L->div_params)
        memcpy(&pl->prm, L->div_params, sizeof pl->prm);
    else {   /* defaults (tests that build a launch by hand) */
        strcpy(pl->prm.priority, "min-pc");
        pl->prm.capacity = 32;
        pl->prm.las_entries = 16;
        pl->prm.las_max_gap = 4;
        pl->prm.las_bias = 1;
    }
    pl->prio = div_prio_find(pl->prm.priority);
    if (!pl->prio) {
        free(pl);
        return -1;
    }
    pl->prio_bytes = pl->prio->state_size ? pl->prio->state_size(&pl->prm) : 0;
    *st = pl;
    return 0;
}

static void pt_destroy(void *st)
{
    free(st);
}

static void pt_stats(const void *st, div_stats *o)
{
    const pt_launch *pl = st;
    const div_stats *s = &pl->st;
    o->path_samples += s->path_samples;
    o->path_occ_sum += s->path_occ_sum;
    o->path_occ_max = s->path_occ_max > o->path_occ_max ? s->path_occ_max : o->path_occ_max;
    o->path_switches += s->path_switches;
    o->path_spills += s->path_spills;
    o->sync_forced += s->sync_forced;
    o->loop_hits += s->loop_hits;
    o->loop_inserts += s->loop_inserts;
    o->loop_evicts += s->loop_evicts;
    o->iter_shifts += s->iter_shifts;
    o->iter_gap_max = s->iter_gap_max > o->iter_gap_max ? s->iter_gap_max : o->iter_gap_max;
    o->gap_forced += s->gap_forced;
}

static void pt_timing(const void *st, div_timing *o)
{
    const pt_launch *pl = st;
    o->switch_cycles = pl->prm.switch_cycles;
    o->skip_stalled = pl->prm.skip_stalled;
}

/* ---- the table ----------------------------------------------------------------------------- */
static int pt_grow(pt_warp *t)
{
    if (t->n < t->cap)
        return 0;
    uint32_t cap = t->cap ? t->cap * 2 : 8;
    func_path *p = realloc(t->p, cap * sizeof *p);
    if (p)
        t->p = p;
    uint8_t *f = realloc(t->flag, cap);
    if (f)
        t->flag = f;
    uint8_t *ok = realloc(t->ok, cap);
    if (ok)
        t->ok = ok;
    uint64_t *sq = realloc(t->seq, cap * sizeof *sq);
    if (sq)
        t->seq = sq;
    if (!p || !f || !ok || !sq)
        return -1;
    t->cap = cap;
    return 0;
}

static uint32_t pt_add(pt_warp *t, uint32_t pc, uint64_t mask, uint32_t frame, uint8_t flag)
{
    if (pt_grow(t))
        return PT_NONE;
    uint32_t i = t->n++;
    t->p[i] = (func_path){t->next_id++, pc, mask, frame, 0};
    t->flag[i] = flag;
    t->ok[i] = 0;
    t->seq[i] = t->seqctr++;
    return i;
}

static void pt_del(pt_warp *t, uint32_t i)
{
    uint32_t last = --t->n;
    if (i != last) {
        t->p[i] = t->p[last];
        t->flag[i] = t->flag[last];
        t->seq[i] = t->seq[last];
        t->ok[i] = t->ok[last];
    }
}

static uint32_t pt_find(const pt_warp *t, uint32_t id)
{
    if (t->sel != PT_NONE && t->p[t->sel].id == id)
        return t->sel;
    for (uint32_t i = 0; i < t->n; i++)
        if (t->p[i].id == id)
            return i;
    return PT_NONE;
}

/* Path i moved: merges another path of its frame at its pc with the same parked flag
 * into it (i keeps its id). Returns i's index afterwards. */
static uint32_t pt_merge(pt_warp *t, uint32_t i)
{
    for (uint32_t j = 0; j < t->n; j++) {
        if (j == i || t->p[j].pc != t->p[i].pc || t->p[j].frame != t->p[i].frame ||
            ((t->flag[j] ^ t->flag[i]) & PT_PARKED))
            continue;
        t->p[i].mask |= t->p[j].mask;
        if (!(t->flag[j] & PT_SPILLED))
            t->flag[i] &= (uint8_t)~PT_SPILLED;
        if (t->seq[j] < t->seq[i])
            t->seq[i] = t->seq[j];
        uint32_t last = t->n - 1;
        pt_del(t, j);
        return i == last ? j : i;   /* at most one such path (invariant) */
    }
    return i;
}

/* Resident paths of the innermost frame (capacity). */
static uint32_t pt_resident(const pt_warp *t)
{
    uint32_t r = 0;
    for (uint32_t i = 0; i < t->n; i++)
        r += t->p[i].frame == t->top && !(t->flag[i] & (PT_PARKED | PT_SPILLED));
    return r;
}

/* Lanes of the membermask of a warp-synchronous instruction at pc (frame: the
 * innermost one), or 0 when the instruction is not one. */
static uint64_t sync_need(const func_warp *w, const func_path *p)
{
    const func_launch *L = w->L;
    if (!L || !L->prog || !w->nfr)
        return 0;
    const func_frame *fr = &w->fr[w->nfr - 1];
    const ptx_func *f = &L->prog->m->funcs[fr->func];
    if (p->pc >= f->n_insns)
        return 0;
    const ptx_insn *in = &L->prog->insns[fr->func][p->pc];   /* registers as rows */
    const ptx_operand *mm;
    switch (in->op) {
    case OP_SHFL: mm = (in->flags & MF_SYNC) ? &in->ops[5] : NULL; break;
    case OP_VOTE: mm = (in->flags & MF_SYNC) ? &in->ops[2] : NULL; break;
    case OP_MATCH: mm = &in->ops[3]; break;
    case OP_REDUX: mm = &in->ops[2]; break;
    case OP_BAR: mm = in->sub == BAR_WARP_SYNC ? &in->ops[0] : NULL; break;
    default: return 0;
    }
    if (!mm)
        return 0;
    if (mm->kind == OK_IMM)
        return mm->imm;
    if (mm->kind == OK_REG) {   /* the value of the path's first lane */
        const exec_ctx x = {.r = w->regpool + fr->reg_pos, .ws = L->ws, .b64 = fr->b64};
        return ex_reg(&x, mm->r, (uint32_t)__builtin_ctzll(p->mask)) & 0xffffffffull;
    }
    return ~0ull;
}

/* Recomputes the runnable set and the selected path (invariants above). */
static void pt_recompute(const func_warp *w, pt_warp *t)
{
    pt_launch *pl = t->L;
    t->forced = 0;
    if (t->n == 1) {   /* the common case: one path, nothing to choose */
        t->top = t->p[0].frame;
        t->ok[0] = !(t->flag[0] & PT_PARKED);
        t->flag[0] &= (uint8_t)~PT_SPILLED;
        t->sel = t->ok[0] ? 0 : PT_NONE;
        return;
    }
    uint32_t top = 0;
    for (uint32_t i = 0; i < t->n; i++)
        top = t->p[i].frame > top ? t->p[i].frame : top;
    t->top = top;
    /* spilled paths return, oldest first, while there is room */
    uint32_t room = pt_resident(t);
    while (room < pl->prm.capacity) {
        uint32_t old = PT_NONE;
        for (uint32_t i = 0; i < t->n; i++)
            if ((t->flag[i] & PT_SPILLED) && t->p[i].frame == top && (old == PT_NONE || t->seq[i] < t->seq[old]))
                old = i;
        if (old == PT_NONE)
            break;
        t->flag[old] &= (uint8_t)~PT_SPILLED;
        room++;
    }
    uint64_t lanes = 0;   /* lanes of the frame that can still arrive somewhere */
    uint32_t n_ok = 0, min_pc = PT_NONE, min_any = PT_NONE;
    for (uint32_t i = 0; i < t->n; i++) {
        t->ok[i] = t->p[i].frame == top && !(t->flag[i] & (PT_PARKED | PT_SPILLED)) && t->p[i].mask;
        if (t->p[i].frame == top && !(t->flag[i] & PT_PARKED))
            lanes |= t->p[i].mask;
    }
    for (uint32_t i = 0; i < t->n; i++) {
        if (!t->ok[i])
            continue;
        if (min_any == PT_NONE || t->p[i].pc < t->p[min_any].pc)
            min_any = i;
        uint64_t need = sync_need(w, &t->p[i]);
        if (need && (need & lanes & ~t->p[i].mask)) {
            t->ok[i] = 0;   /* waits for the rest of its membermask */
            continue;
        }
        n_ok++;
        if (min_pc == PT_NONE || t->p[i].pc < t->p[min_pc].pc)
            min_pc = i;
    }
    if (min_any == PT_NONE) {
        t->sel = PT_NONE;
        return;
    }
    if (n_ok == 0) {   /* no path can converge: the lowest one runs as it is */
        t->ok[min_any] = 1;
        t->sel = min_any;
        t->forced = 1;
        return;
    }
    t->sel = n_ok == 1 ? min_pc : pl->prio->choose(t->prio, &pl->prm, &pl->st, t->p, t->ok, t->n, min_pc);
}

/* Statistics of one executed instruction of path id. */
static inline void pt_sample(pt_warp *t, uint32_t id)
{
    div_stats *s = &t->L->st;
    s->path_samples++;
    s->path_occ_sum += t->n;
    if (t->n > s->path_occ_max)
        s->path_occ_max = t->n;
    if (id != t->last_id) {
        s->path_switches++;
        t->last_id = id;
    }
    if (t->forced && t->sel != PT_NONE && t->p[t->sel].id == id)
        s->sync_forced++;
}

/* ---- div_ops ------------------------------------------------------------------------------- */
static int pt_warp_init(func_warp *w, uint64_t mask)
{
    pt_warp *t = w->dstate;
    pt_launch *pl = w->L->dstate;
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t)
            return -1;
        w->dstate = t;
        if (pl->prio_bytes && !(t->prio = malloc(pl->prio_bytes)))
            return -1;
    }
    t->L = pl;
    t->n = 0;
    t->next_id = 0;
    t->seqctr = 0;
    if (t->prio) {
        memset(t->prio, 0, pl->prio_bytes);
        if (pl->prio->reset)
            pl->prio->reset(t->prio, &pl->prm);
    }
    if (pt_add(t, 0, mask, 0, 0) == PT_NONE)
        return -1;
    t->last_id = 0;
    pt_recompute(w, t);
    return 0;
}

static void pt_warp_fini(func_warp *w)
{
    pt_warp *t = w->dstate;
    if (t) {
        free(t->p);
        free(t->flag);
        free(t->ok);
        free(t->seq);
        free(t->prio);
    }
    free(t);
    w->dstate = NULL;
}

static const func_path *pt_select(const func_warp *w)
{
    const pt_warp *t = w->dstate;
    return t->sel == PT_NONE ? NULL : &t->p[t->sel];
}

static uint32_t pt_paths(const func_warp *w, func_path *out, uint32_t max)
{
    const pt_warp *t = w->dstate;
    uint32_t k = 0;
    if (t->sel == PT_NONE || !max)
        return 0;
    out[k++] = t->p[t->sel];
    for (uint32_t i = 0; i < t->n && k < max; i++)
        if (i != t->sel && t->ok[i])
            out[k++] = t->p[i];
    return k;
}

static const func_path *pt_get(const func_warp *w, uint32_t id)
{
    const pt_warp *t = w->dstate;
    uint32_t i = pt_find(t, id);
    return i != PT_NONE && t->ok[i] ? &t->p[i] : NULL;
}

static int pt_call(func_warp *w, uint64_t mask, uint32_t frame)
{
    pt_warp *t = w->dstate;
    if (pt_add(t, 0, mask, frame, 0) == PT_NONE)
        return -1;
    pt_recompute(w, t);
    return 0;
}

static uint32_t pt_next(func_warp *w, uint32_t id)
{
    pt_warp *t = w->dstate;
    uint32_t i = pt_find(t, id);
    if (i == PT_NONE)
        return t->n;
    pt_sample(t, id);
    t->p[i].pc++;
    if (t->n > 1)
        pt_merge(t, i);
    pt_recompute(w, t);
    return t->n;
}

static void pt_branch(func_warp *w, uint32_t id, uint32_t pc, uint32_t target, uint64_t taken, uint32_t reconv)
{
    pt_warp *t = w->dstate;
    pt_launch *pl = t->L;
    (void)reconv;   /* no static reconvergence points */
    uint32_t i = pt_find(t, id);
    if (i == PT_NONE)
        return;
    pt_sample(t, id);
    uint64_t active = t->p[i].mask;
    if (pl->prio->branch) {
        int cond = 1;
        if (w->L && w->L->prog && w->nfr) {
            const ptx_func *f = &w->L->prog->m->funcs[w->fr[w->nfr - 1].func];
            cond = pc < f->n_insns && f->insns[pc].guard >= 0;
        }
        pl->prio->branch(t->prio, &pl->prm, &pl->st, pc, target, active, taken, cond);
    }
    if (taken == active || taken == 0) {
        t->p[i].pc = taken ? target : pc + 1;
        if (t->n > 1)
            pt_merge(t, i);
        pt_recompute(w, t);
        return;
    }
    /* split: i keeps the not-taken lanes, a new path takes the others */
    uint32_t frame = t->p[i].frame;
    int full = pt_resident(t) >= pl->prm.capacity;
    t->p[i].mask = active & ~taken;
    t->p[i].pc = pc + 1;
    uint32_t nid = t->next_id;
    if (pt_add(t, target, taken, frame, full ? PT_SPILLED : 0) == PT_NONE) {
        /* out of host memory: the taken lanes stay with i, serialised behind it at
         * the target (defined, not silent: counted as a spill) */
        t->p[i].mask = active;
        t->p[i].pc = target;
        pl->st.path_spills++;
    } else {
        if (full)
            pl->st.path_spills++;
        pt_merge(t, i);
        uint32_t j = pt_find(t, nid);
        if (j != PT_NONE)
            pt_merge(t, j);
    }
    pt_recompute(w, t);
}

static void pt_remove(func_warp *w, uint64_t lanes, uint32_t min_frame)
{
    pt_warp *t = w->dstate;
    for (uint32_t i = 0; i < t->n; i++)
        if (t->p[i].frame >= min_frame)
            t->p[i].mask &= ~lanes;
}

static uint32_t pt_settle(func_warp *w, uint32_t *top_frame)
{
    pt_warp *t = w->dstate;
    for (uint32_t i = t->n; i-- > 0;)
        if (!t->p[i].mask)
            pt_del(t, i);
    if (!t->n) {
        t->sel = PT_NONE;
        return 0;
    }
    pt_recompute(w, t);
    *top_frame = t->top;
    return t->n;
}

static int pt_wait(func_warp *w, uint32_t id)
{
    pt_warp *t = w->dstate;
    uint32_t i = pt_find(t, id);
    if (i != PT_NONE) {
        pt_sample(t, id);
        t->p[i].pc++;
        t->flag[i] |= PT_PARKED;
        pt_merge(t, i);
    }
    pt_recompute(w, t);
    return t->sel == PT_NONE;
}

static void pt_release(func_warp *w)
{
    pt_warp *t = w->dstate;
    for (uint32_t i = 0; i < t->n; i++)
        t->flag[i] &= (uint8_t)~PT_PARKED;
    for (uint32_t n = 0; n != t->n;) {   /* until no two paths merge */
        n = t->n;
        for (uint32_t i = 0; i < t->n && n == t->n; i++)
            pt_merge(t, i);
    }
    pt_recompute(w, t);
}

const las_state *div_path_las(const func_warp *w)
{
    const pt_warp *t = w->dstate;
    if (!t || !w->L || w->L->div->select != pt_select || t->L->prio != div_prio_find("las"))
        return NULL;
    return t->prio;
}

const div_ops div_path_table = {
    .name = "path-table",
    .desc = "path table: split at divergent branches, merge at equal pcs; func.path_priority picks the path",
    .create = pt_create,
    .destroy = pt_destroy,
    .warp_init = pt_warp_init,
    .warp_fini = pt_warp_fini,
    .select = pt_select,
    .paths = pt_paths,
    .get = pt_get,
    .call = pt_call,
    .next = pt_next,
    .branch = pt_branch,
    .remove = pt_remove,
    .settle = pt_settle,
    .params = &pt_table,
    .check = pt_check,
    .wait = pt_wait,
    .release = pt_release,
    .stats = pt_stats,
    .timing = pt_timing,
};
