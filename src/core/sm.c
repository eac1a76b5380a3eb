/* sm.c - the SM pipeline of the timing model (see sm.h for the stage order).
 *
 * Warp slots are grouped by CTA slot: CTA slot k owns warp slots
 * [k * cta_warps, (k+1) * cta_warps), so a CTA's functional warps are contiguous
 * (func_cta_try_release wants them so) and nothing fragments. Warp slot w belongs to
 * scheduler w mod n_schedulers.
 *
 * Scoreboard: a pending-write counter per register of the warp's register pool
 * (frame base + slot), so calls never alias. Calls and returns wait until the warp
 * has nothing in flight. The carry flag of add.cc/addc is not tracked (the pair is
 * always adjacent and dependent through registers in nvcc output).
 *
 * Completions of fixed-latency work sit in a timing wheel; global/local memory
 * instructions wait for their requests (mem_req, tag = in-flight instruction).
 */
#include "core/sm.h"

#include "core/slotset.h"
#include "core/core_model.h"
#include "core/ldq.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

/* ---- SM state ------------------------------------------------------------------------- */
typedef struct {
    /* what the issue stage reads of every warp each cycle, first: one cache line
     * (the array is allocated 64-byte aligned) */
    _Alignas(64) uint8_t used;   /* slot holds a warp                            */
    /* A scoreboard stall only ends through an event of this warp (a completion, an
     * issue, a fetch, a barrier release), which sets `dirty`; until then the cached
     * verdict stands and the warp is not re-examined every cycle. */
    uint8_t dirty, cached;
    uint8_t ibuf;          /* decoded instructions available                     */
    uint32_t ibuf_path;    /* the path (func_path.id) the buffer was fetched for;
                              it is the warp's candidate path while the buffer holds */
    uint32_t mem_inflight; /* issued memory instructions not complete            */
    uint32_t inflight;     /* issued instructions not complete                   */
    const insn_info *cached_info;
    uint64_t ibuf_ready;   /* cycle the buffer contents become usable            */
    uint64_t age;
    /* the rest */
    uint8_t fetching;      /* instruction fetch outstanding                      */
    uint32_t ibuf_pc;      /* pc of the first buffered instruction               */
    int32_t ibuf_func;
    /* Paths (path-table policies; with the SIMT stack the path is always id 0 and
     * these never change anything). The warp follows the path its policy selects,
     * or alt_path while the selected one waits on the scoreboard for a load
     * (func.path_skip_stalled); the buffer is refetched on a change of path. */
    uint32_t alt_path;     /* NO_ALT, or the runnable path followed instead        */
    uint32_t last_path;    /* the path the warp issued last                       */
    uint32_t fetch_extra;  /* switch cost added when the outstanding fetch fills  */
    uint16_t *sb;          /* pending writes per pool register                   */
    uint32_t sb_cap;
} sm_warp;

typedef struct {
    uint8_t used;
    func_cta fc;
    uint8_t *shared;
    uint32_t warps_left;
} sm_cta;

typedef struct {          /* a completion in the timing wheel */
    uint64_t due;
    uint32_t slot;
    uint32_t next;
    uint8_t n;
    uint8_t is_mem;
    uint32_t regs[4];
} sm_event;

typedef struct {          /* a global/local memory instruction in flight */
    uint32_t slot;
    uint32_t outstanding;  /* requests not yet done                              */
    uint32_t unsent;       /* requests still in the LD/ST queue (not yet in the L1)  */
    uint32_t next_free;
    uint8_t n;
    uint32_t regs[4];
    uint64_t t_issue;
} sm_minst;

typedef struct {           /* the last scan of one scheduler that issued nothing */
    uint64_t gen;          /* sm.gen[q] at the scan; UINT64_MAX: no memo          */
    uint64_t until;        /* valid for cycles < until                            */
    uint32_t units;        /* unit_mask() at the scan                             */
    uint8_t reason;        /* the slot's outcome: WR_* charged, or WR__COUNT: idle */
} sched_memo;

struct sm {
    uint32_t id;
    const ws_config *cfg;
    func_launch *L;
    const insn_table *it;
    memsys *mem;
    const sched_ops *pol;
    void **pst;                    /* policy state per scheduler                 */
    uint32_t n_sched, ws, cta_warps, max_ctas, n_slots;
    uint8_t ev_all;             /* the policy's state is SM-wide (sched_ops.sm_wide) */
    sm_warp *w;
    func_warp *fw;                 /* functional warps, grouped by CTA slot      */
    sm_cta *cta;
    uint32_t resident;             /* warps resident                             */
    /* functional units: next cycle each pipeline accepts an instruction */
    uint64_t *fu_free[FU__COUNT];
    uint32_t n_fu[FU__COUNT];
    /* timing wheel */
    uint32_t *wheel;
    uint32_t wheel_mask;
    sm_event *ev;
    uint32_t ev_cap, ev_free, n_events;
    /* memory */
    sm_minst *mi;
    uint32_t mi_cap, mi_free, mi_used;
    mem_req *rq_pool;              /* free requests                              */
    mem_req **rq_all;              /* every request allocated: a launch stopped early
                                      (fault, watchdog, budget) leaves some in the
                                      memory system, freed from here on destroy  */
    uint32_t rq_n, rq_cap;
    ldq *ldq;                      /* requests toward the L1D (baseline / REOD)  */
    ldq_stats ldq_prev;            /* ldq statistics already added to st         */
    int ldst_stalled;              /* head refused this cycle                    */
    uint32_t ldst_insts;           /* memory instructions with a request not yet sent
                                      to the L1 (core.mem_inst_queue)             */
    exec_trace tr;
    sched_cand *cand;
    const insn_info **infos;       /* next instruction of each candidate         */
    uint64_t *want;                /* warps whose empty buffer needs a fetch     */
    uint32_t fetch_rr;
    uint32_t warps_inflight;       /* warps with inflight != 0                   */
    uint32_t maybe_done;           /* warps may have finished: check retirement   */
    uint64_t local_base;           /* where local memory lives in global space   */
    uint64_t param_base;           /* where the kernel parameters live            */
    uint32_t coalesce;             /* coalescing granularity: the L1D sector size  */
    uint32_t local_threads;        /* threads interleaved in that region          */
    sm_stats st, last;             /* last: per-cycle deltas for idle skipping   */
    div_timing dt;                 /* the divergence policy's timing knobs       */
    /* Issue-stage memo. `gen[q]` counts the events that can change the own verdict of
     * a warp of scheduler q (warp_touch: a warp marked dirty, placed or retired). A
     * scheduler whose scan
     * found no ready warp repeats that scan's outcome while gen and the shared units'
     * availability (unit_mask) are the same and before `until` (an instruction buffer
     * that becomes usable by time); see issue_stage. */
    uint64_t *gen;                 /* per scheduler: events of its warps          */
    sched_memo *memo;              /* per scheduler                               */
};

#define NO_ALT UINT32_MAX

/* A warp's own verdict may have changed: readiness() re-examines it, and no
 * scheduler may repeat a memoised scan. */
static inline void warp_touch(sm *s, sm_warp *w)
{
    w->dirty = 1;
    s->gen[(uint32_t)(w - s->w) % s->n_sched]++;
}

/* The alternative path warp `w` follows while its selection p waits (alt_path set):
 * dropped once it is gone or is the selection. Out of line: never taken with the SIMT
 * stack. */
static __attribute__((noinline)) const func_path *follow_alt(sm_warp *w, const func_warp *fw,
                                                              const func_path *p)
{
    const func_path *a = func_warp_path(fw, w->alt_path);
    if (a && a->id != p->id)
        return a;
    w->alt_path = NO_ALT;
    return p;
}

/* The path warp `w` follows: its policy's selection, or the alternative it took while
 * the selection waits on the scoreboard (func.path_skip_stalled). */
static inline const func_path *follow_path(sm_warp *w, const func_warp *fw)
{
    const func_path *p = func_warp_selected(fw);
    if (__builtin_expect(w->alt_path != NO_ALT, 0) && p)
        return follow_alt(w, fw, p);
    return p;
}

const sm_stats *sm_get_stats(const sm *s) { return &s->st; }

static void want_set(sm *s, uint32_t slot) { slotset_add(s->want, slot); }
static void want_clr(sm *s, uint32_t slot) { slotset_del(s->want, slot); }
/* Next warp slot >= from whose buffer wants a fetch, or UINT32_MAX. */
static uint32_t want_next(const sm *s, uint32_t from) { return slotset_next(s->want, s->n_slots, from); }

sm *sm_create(uint32_t id, const ws_config *cfg, func_launch *L, const insn_table *it,
              memsys *mem, const sched_ops *pol, const sched_params *sp, uint32_t max_ctas)
{
    sm *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->id = id;
    s->cfg = cfg;
    s->L = L;
    if (L->div->timing && L->dstate)
        L->div->timing(L->dstate, &s->dt);
    s->it = it;
    s->mem = mem;
    s->pol = pol;
    s->ws = L->ws;
    s->cta_warps = L->cta_warps;
    s->max_ctas = max_ctas;
    s->n_slots = max_ctas * L->cta_warps;
    s->n_sched = cfg->core.n_schedulers;
    s->w = aligned_alloc(_Alignof(sm_warp), s->n_slots * sizeof *s->w);
    if (s->w)
        memset(s->w, 0, s->n_slots * sizeof *s->w);
    s->fw = calloc(s->n_slots, sizeof *s->fw);
    s->cta = calloc(max_ctas, sizeof *s->cta);
    s->cand = calloc(s->n_slots, sizeof *s->cand);
    s->infos = calloc(s->n_slots, sizeof *s->infos);
    s->want = calloc((s->n_slots + 63) / 64, sizeof *s->want);
    s->pst = calloc(s->n_sched, sizeof *s->pst);
    s->memo = calloc(s->n_sched, sizeof *s->memo);
    s->gen = calloc(s->n_sched, sizeof *s->gen);
    if (!s->w || !s->fw || !s->cta || !s->cand || !s->infos || !s->want || !s->pst || !s->memo ||
        !s->gen)
        goto fail;
    for (uint32_t i = 0; i < s->n_sched; i++)
        s->memo[i].gen = UINT64_MAX;
    for (uint32_t i = 0; i < s->n_sched; i++)
        if (!(s->pst[i] = pol->create(s->n_slots, sp)))
            goto fail;
    s->ev_all = pol->sm_wide && pol->sm_wide(sp);
    for (uint32_t i = 0; i < max_ctas; i++)
        if (!(s->cta[i].shared = calloc(L->shared_bytes ? L->shared_bytes : 1, 1)))
            goto fail;
    s->n_fu[FU_SP] = cfg->core.n_sp ? cfg->core.n_sp : 1;
    s->n_fu[FU_SFU] = cfg->core.n_sfu ? cfg->core.n_sfu : 1;
    s->n_fu[FU_DP] = cfg->core.n_dp ? cfg->core.n_dp : 1;
    s->n_fu[FU_LDST] = cfg->core.n_ldst;
    s->n_fu[FU_INT] = cfg->core.n_int ? cfg->core.n_int : 1;
    for (int k = 0; k < FU__COUNT; k++)
        if (!(s->fu_free[k] = calloc(s->n_fu[k], sizeof **s->fu_free)))
            goto fail;
    uint32_t maxlat = cfg->core.lat_ddiv;
    const uint32_t lats[] = {cfg->core.lat_alu, cfg->core.lat_imul, cfg->core.lat_idiv, cfg->core.lat_fp,
                             cfg->core.lat_fdiv, cfg->core.lat_dp, cfg->core.lat_sfu,
                             cfg->core.lat_shared + 64 + s->ws, cfg->core.lat_const + s->ws,
                             cfg->core.lat_branch, cfg->core.lat_move};
    for (size_t i = 0; i < sizeof lats / sizeof *lats; i++)
        if (lats[i] > maxlat)
            maxlat = lats[i];
    uint32_t wsz = grow_pow2(maxlat + cfg->core.lat_pipeline + 2);
    s->wheel = malloc(wsz * sizeof *s->wheel);
    if (!s->wheel)
        goto fail;
    memset(s->wheel, 0xff, wsz * sizeof *s->wheel);
    s->wheel_mask = wsz - 1;
    s->tr.cap = 64;
    s->tr.a = calloc(64, sizeof *s->tr.a);
    if (!s->tr.a)
        goto fail;
    s->ev_free = s->mi_free = UINT32_MAX;
    uint32_t line = cfg->l1d.line ? cfg->l1d.line : 128;
    uint32_t sets = cfg->l1d.size / (line * (cfg->l1d.ways ? cfg->l1d.ways : 1));
    if (!(s->ldq = ldq_create(cfg->l1d.request_queues, cfg->l1d.queue_depth, cfg->l1d.sets_per_queue,
                              sets, line)))
        goto fail;
    s->local_base = 0x7000000000ull + (uint64_t)id * 0x100000000ull;
    s->local_threads = s->n_slots * s->ws;
    s->param_base = 0x6f00000000ull;
    s->coalesce = cfg->l1d.sector ? cfg->l1d.sector : cfg->l1d.line ? cfg->l1d.line : 128;
    return s;
fail:
    sm_destroy(s);
    return NULL;
}

void sm_destroy(sm *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; s->pst && i < s->n_sched; i++)
        if (s->pst[i])
            s->pol->destroy(s->pst[i]);
    for (uint32_t i = 0; s->cta && i < s->max_ctas; i++)
        free(s->cta[i].shared);
    for (uint32_t i = 0; s->fw && i < s->n_slots; i++)
        func_warp_fini(&s->fw[i]);
    for (uint32_t i = 0; s->w && i < s->n_slots; i++)
        free(s->w[i].sb);
    for (int k = 0; k < FU__COUNT; k++)
        free(s->fu_free[k]);
    ldq_forget(s->ldq);   /* its requests are among these */
    for (uint32_t i = 0; i < s->rq_n; i++)
        free(s->rq_all[i]);   /* the pool and any still in flight */
    free(s->rq_all);
    ldq_destroy(s->ldq);
    free(s->pst);
    free(s->memo);
    free(s->gen);
    free(s->w);
    free(s->fw);
    free(s->cta);
    free(s->cand);
    free(s->infos);
    free(s->want);
    free(s->wheel);
    free(s->ev);
    free(s->mi);
    free(s->tr.a);
    free(s);
}

/* ---- CTA placement ---------------------------------------------------------------------- */
/* A warp event for the scheduler policy: to the warp's own scheduler instance, or to
 * every instance of the SM when the policy's state is SM-wide (sched_ops.sm_wide). */
static void pol_event(sm *s, void (*fn)(void *, uint32_t, uint64_t), uint32_t slot,
                      uint64_t cycle)
{
    if (!s->ev_all) {
        fn(s->pst[slot % s->n_sched], slot, cycle);
        return;
    }
    for (uint32_t q = 0; q < s->n_sched; q++)
        fn(s->pst[q], slot, cycle);
}

int sm_can_take_cta(const sm *s)
{
    for (uint32_t i = 0; i < s->max_ctas; i++)
        if (!s->cta[i].used)
            return 1;
    return 0;
}

int sm_take_cta(sm *s, uint32_t linear, uint64_t cycle)
{
    uint32_t k = 0;
    while (k < s->max_ctas && s->cta[k].used)
        k++;
    if (k == s->max_ctas)
        return -1;
    sm_cta *c = &s->cta[k];
    memset(c->shared, 0, s->L->shared_bytes ? s->L->shared_bytes : 1);
    func_cta_init(&c->fc, s->L, linear, c->shared);
    c->fc.smid = s->id;
    c->used = 1;
    c->warps_left = s->cta_warps;
    for (uint32_t i = 0; i < s->cta_warps; i++) {
        uint32_t slot = k * s->cta_warps + i;
        sm_warp *w = &s->w[slot];
        if (func_warp_init(&s->fw[slot], s->L, &c->fc, i))
            return -1;
        w->used = 1;
        w->fetching = 0;
        w->ibuf = 0;
        w->alt_path = NO_ALT;
        w->last_path = 0;
        w->fetch_extra = 0;
        want_set(s, slot);
        w->age = cycle;
        w->inflight = w->mem_inflight = 0;
        warp_touch(s, w);
        if (w->sb)
            memset(w->sb, 0, w->sb_cap * sizeof *w->sb);
        s->resident++;
        if (s->pol->on_warp_start)
            pol_event(s, s->pol->on_warp_start, slot, cycle);
    }
    return 0;
}

int sm_busy(const sm *s) { return s->resident != 0 || ldq_len(s->ldq) != 0; }
int sm_ldst_waiting(const sm *s) { return ldq_len(s->ldq) != 0; }

/* ---- helpers ------------------------------------------------------------------------------ */
static uint32_t reg_base(const sm *s, uint32_t slot)
{
    const func_warp *fw = &s->fw[slot];
    return (uint32_t)(fw->fr[fw->nfr - 1].reg_off / s->ws);
}

static uint16_t *sb_slot(sm *s, uint32_t slot, uint32_t reg)
{
    sm_warp *w = &s->w[slot];
    if (reg >= w->sb_cap) {
        uint32_t cap = grow_pow2(reg + 64);
        uint16_t *n = realloc(w->sb, cap * sizeof *n);
        if (!n)
            return NULL;
        memset(n + w->sb_cap, 0, (cap - w->sb_cap) * sizeof *n);
        w->sb = n;
        w->sb_cap = cap;
    }
    return &w->sb[reg];
}

static int sb_busy(const sm *s, uint32_t slot, uint32_t base, const insn_info *ii)
{
    const sm_warp *w = &s->w[slot];
    for (uint32_t i = 0; i < ii->n_src; i++)
        if (base + ii->src[i] < w->sb_cap && w->sb[base + ii->src[i]])
            return 1;
    for (uint32_t i = 0; i < ii->n_dst; i++)
        if (base + ii->dst[i] < w->sb_cap && w->sb[base + ii->dst[i]])
            return 1;
    return 0;
}

static void release_regs(sm *s, uint32_t slot, const uint32_t *regs, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (regs[i] < s->w[slot].sb_cap && s->w[slot].sb[regs[i]])
            s->w[slot].sb[regs[i]]--;
}

static int schedule_event(sm *s, uint64_t due, uint32_t slot, const uint32_t *regs, uint32_t n, int is_mem)
{
    if (s->ev_free == UINT32_MAX) {
        uint32_t cap = s->ev_cap ? s->ev_cap * 2 : 256;
        sm_event *ne = realloc(s->ev, cap * sizeof *ne);
        if (!ne)
            return -1;
        for (uint32_t i = s->ev_cap; i < cap; i++)
            ne[i].next = i + 1 < cap ? i + 1 : UINT32_MAX;
        s->ev = ne;
        s->ev_free = s->ev_cap;
        s->ev_cap = cap;
    }
    uint32_t e = s->ev_free;
    s->ev_free = s->ev[e].next;
    sm_event *ev = &s->ev[e];
    ev->due = due;
    ev->slot = slot;
    ev->n = (uint8_t)n;
    ev->is_mem = (uint8_t)is_mem;
    memcpy(ev->regs, regs, n * sizeof *regs);
    uint32_t b = (uint32_t)(due & s->wheel_mask);
    ev->next = s->wheel[b];
    s->wheel[b] = e;
    s->n_events++;
    return 0;
}

static mem_req *req_new(sm *s)
{
    mem_req *r = s->rq_pool;
    if (r) {
        s->rq_pool = r->next;
    } else {
        if (s->rq_n == s->rq_cap) {
            uint32_t cap = s->rq_cap ? s->rq_cap * 2 : 64;
            mem_req **na = realloc(s->rq_all, cap * sizeof *na);
            if (!na)
                return NULL;
            s->rq_all = na;
            s->rq_cap = cap;
        }
        if (!(r = malloc(sizeof *r)))
            return NULL;
        s->rq_all[s->rq_n++] = r;
    }
    memset(r, 0, sizeof *r);
    return r;
}

static void req_free(sm *s, mem_req *r)
{
    r->next = s->rq_pool;
    s->rq_pool = r;
}

static uint32_t minst_new(sm *s)
{
    if (s->mi_free == UINT32_MAX) {
        uint32_t cap = s->mi_cap ? s->mi_cap * 2 : 64;
        sm_minst *n = realloc(s->mi, cap * sizeof *n);
        if (!n)
            return UINT32_MAX;
        for (uint32_t i = s->mi_cap; i < cap; i++)
            n[i].next_free = i + 1 < cap ? i + 1 : UINT32_MAX;
        s->mi = n;
        s->mi_free = s->mi_cap;
        s->mi_cap = cap;
    }
    uint32_t i = s->mi_free;
    s->mi_free = s->mi[i].next_free;
    s->mi_used++;
    return i;
}

static void instruction_done(sm *s, uint32_t slot, const uint32_t *regs, uint32_t n, int is_mem,
                             uint64_t cycle)
{
    release_regs(s, slot, regs, n);
    sm_warp *w = &s->w[slot];
    warp_touch(s, w);
    if (--w->inflight == 0) {
        s->warps_inflight--;
        if (s->fw[slot].state == WARP_DONE)
            s->maybe_done++;   /* drained after its exit: retire_warps frees it */
    }
    if (is_mem) {
        w->mem_inflight--;
        /* the policy hears of global/local completions only: shared and constant
         * accesses are not the long-latency loads the recency register tracks */
        if (is_mem == 2 && s->pol->on_mem_done)
            pol_event(s, s->pol->on_mem_done, slot, cycle);
    }
}

static void minst_done(sm *s, uint32_t i, uint64_t cycle)
{
    sm_minst *m = &s->mi[i];
    uint64_t lat = cycle - m->t_issue;
    s->st.mem_lat_sum += lat;
    s->st.mem_lat_n++;
    if (lat > s->st.mem_lat_max)
        s->st.mem_lat_max = lat;
    uint32_t b = 0;
    while (b < 15 && (2ull << b) <= lat)
        b++;
    s->st.mem_lat_hist[b]++;
    /* the data still pass the writeback stage(s): core.lat_pipeline (out of host memory
     * for the event: complete now rather than never) */
    if (!s->cfg->core.lat_pipeline ||
        schedule_event(s, cycle + s->cfg->core.lat_pipeline, m->slot, m->regs, m->n, 2))
        instruction_done(s, m->slot, m->regs, m->n, 2, cycle);
    m->next_free = s->mi_free;
    s->mi_free = i;
    s->mi_used--;
}

/* ---- writeback --------------------------------------------------------------------------- */
static int writeback(sm *s, uint64_t cycle)
{
    int progress = 0;
    uint32_t b = (uint32_t)(cycle & s->wheel_mask);
    uint32_t *pp = &s->wheel[b];
    while (*pp != UINT32_MAX) {
        sm_event *e = &s->ev[*pp];
        if (e->due != cycle) {
            pp = &e->next;
            continue;
        }
        uint32_t idx = *pp;
        *pp = e->next;
        instruction_done(s, e->slot, e->regs, e->n, e->is_mem, cycle);
        s->ev[idx].next = s->ev_free;
        s->ev_free = idx;
        s->n_events--;
        progress = 1;
    }
    mem_req *r;
    while ((r = memsys_pop_done(s->mem, s->id, cycle)) != NULL) {
        progress = 1;
        if (r->kind == MR_IFETCH) {
            sm_warp *w = &s->w[r->warp];
            w->fetching = 0;
            w->ibuf = (uint8_t)r->tag;
            want_clr(s, r->warp);
            w->ibuf_ready = cycle + w->fetch_extra;   /* path switch cost (0: none) */
            warp_touch(s, w);
        } else if (--s->mi[r->tag].outstanding == 0) {
            minst_done(s, r->tag, cycle);
        }
        req_free(s, r);
    }
    return progress;
}

/* ---- LD/ST unit --------------------------------------------------------------------------- */
/* One cycle of the request path to the L1D; its statistics join the SM's. */
static int ldst_send(sm *s, uint64_t cycle)
{
    int stalled;
    int progress = ldq_cycle(s->ldq, s->mem, cycle, &stalled);
    s->ldst_stalled = stalled;
    const mem_req *r = ldq_last_sent(s->ldq);
    if (r && --s->mi[r->tag].unsent == 0)
        s->ldst_insts--;   /* its last request reached the L1: it left the LD/ST path */
    const ldq_stats *q = ldq_get_stats(s->ldq);
    ldq_stats *p = &s->ldq_prev;
    s->st.ldst_stall_cycles += q->stall_cycles - p->stall_cycles;
    for (int i = 0; i < 3; i++)
        s->st.resfail[i] += q->resfail[i] - p->resfail[i];
    s->st.queue_occupancy_sum += q->occupancy_sum - p->occupancy_sum;
    s->st.queued_cycles += q->queued_cycles - p->queued_cycles;
    s->st.queued_reqs += q->sent - p->sent;
    s->st.reod_full_cycles += q->full_cycles - p->full_cycles;
    *p = *q;
    return progress;
}

/* Coalesces a global/local memory instruction's accesses into line requests. */
static int issue_global(sm *s, uint32_t slot, const insn_info *ii, uint32_t base, const ptx_insn *in,
                        uint64_t cycle)
{
    /* one request per touched L1D sector (= the line when the cache is not sectored:
     * 128 B on Fermi; 32 B sectors coalesce at 32 B) */
    const uint32_t line = s->coalesce;
    uint64_t seg[64];
    uint32_t used[64], nseg = 0;
    uint8_t kind = in->op == OP_ST ? MR_STORE : (in->op == OP_ATOM || in->op == OP_RED) ? MR_ATOMIC : MR_LOAD;
    for (uint32_t i = 0; i < s->tr.n; i++) {
        const exec_access *a = &s->tr.a[i];
        uint64_t addr = a->addr;
        if (a->space == SP_PARAM)
            addr += s->param_base;   /* the kernel's parameters sit in a constant bank */
        if (a->space == SP_LOCAL) {
            /* local memory is word-interleaved across threads so that the same
             * offset of consecutive lanes is contiguous (as on NVIDIA GPUs) */
            uint64_t t = (uint64_t)slot * s->ws + a->lane;
            addr = s->local_base + (((addr >> 2) * s->local_threads + t) << 2) + (addr & 3);
        }
        uint64_t sg = addr / line;
        uint32_t k = 0;
        while (k < nseg && seg[k] != sg)
            k++;
        if (k == nseg && nseg < 64) {
            seg[nseg] = sg;
            used[nseg++] = 0;
        }
        if (k < 64)
            used[k] += a->size;
    }
    uint32_t regs[4];
    for (uint32_t i = 0; i < ii->n_dst; i++)
        regs[i] = base + ii->dst[i];
    if (nseg == 0) {
        for (uint32_t i = 0; i < ii->n_dst; i++)
            (*sb_slot(s, slot, regs[i]))++;
        return schedule_event(s, cycle + 1 + s->cfg->core.lat_pipeline, slot, regs, ii->n_dst, 2);
    }
    uint32_t mi = minst_new(s);
    if (mi == UINT32_MAX)
        return -1;
    sm_minst *m = &s->mi[mi];
    m->slot = slot;
    m->outstanding = nseg;
    m->unsent = nseg;
    s->ldst_insts++;
    m->n = ii->n_dst;
    memcpy(m->regs, regs, sizeof regs);
    m->t_issue = cycle;
    for (uint32_t i = 0; i < ii->n_dst; i++)
        (*sb_slot(s, slot, regs[i]))++;
    s->st.mem_insts++;
    for (uint32_t k = 0; k < nseg; k++) {
        mem_req *r = req_new(s);
        if (!r)
            return -1;
        r->addr = seg[k] * line;
        r->size = line;
        r->bytes_used = used[k];
        r->kind = kind;
        uint8_t sp0 = s->tr.a[0].space;
        r->space = (uint8_t)(sp0 == SP_LOCAL ? SP_LOCAL : sp0 == SP_CONST || sp0 == SP_PARAM ? SP_CONST : SP_GLOBAL);
        r->cop = in->cop;
        r->sm = s->id;
        r->warp = slot;
        r->tag = mi;
        r->t_issue = cycle;
        ldq_push(s->ldq, r, cycle);
        s->st.mem_reqs++;
        s->st.mem_bytes_used += used[k];
    }
    return 0;
}

/* Shared memory: cycles = the most distinct 4-byte words any bank must serve
 * (same word = broadcast). Atomics also serialise on equal addresses. */
static uint32_t shared_cycles(const sm *s, int atomic)
{
    uint32_t banks = s->cfg->core.shared_banks, worst = 1;
    uint64_t words[64];
    uint32_t nw = 0;
    for (uint32_t i = 0; i < s->tr.n; i++) {
        uint64_t wd = s->tr.a[i].addr >> 2;
        uint32_t k = 0;
        while (k < nw && words[k] != wd)
            k++;
        if (k == nw && nw < 64)
            words[nw++] = wd;
    }
    /* distinct words per bank (core.shared_banks <= 256) */
    uint8_t per_bank[256], bank_of[64];
    for (uint32_t i = 0; i < nw; i++)
        per_bank[bank_of[i] = (uint8_t)(words[i] % banks)] = 0;
    for (uint32_t i = 0; i < nw; i++)
        if (++per_bank[bank_of[i]] > worst)
            worst = per_bank[bank_of[i]];
    if (atomic) {
        for (uint32_t i = 0; i < s->tr.n; i++) {
            uint32_t n = 0;
            for (uint32_t k = 0; k < s->tr.n; k++)
                n += s->tr.a[k].addr == s->tr.a[i].addr;
            if (n > worst)
                worst = n;
        }
    }
    return worst;
}

static uint32_t distinct_addrs(const sm *s)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->tr.n; i++) {
        uint32_t k = 0;
        while (k < i && s->tr.a[k].addr != s->tr.a[i].addr)
            k++;
        n += k == i;
    }
    return n ? n : 1;
}

/* ---- issue ---------------------------------------------------------------------------------- */
static int is_mem_cls(uint8_t c) { return c >= IC_MEM_SHARED && c <= IC_ATOM_GLOBAL; }

static int free_unit(const sm *s, int fu, uint64_t cycle)
{
    for (uint32_t i = 0; i < s->n_fu[fu]; i++)
        if (s->fu_free[fu][i] <= cycle)
            return (int)i;
    return -1;
}

/* Which shared resources take an instruction now: bit fu for a free pipeline of
 * class fu, bit FU__COUNT for the LD/ST path of memory instructions (an LD/ST unit
 * free, and: with core.mem_inst_queue = Q > 0, fewer than 1 + Q memory instructions
 * still sending requests - the one at the L1 and Q waiting in order, GPGPU-Sim's
 * ID_OC_MEM register, memory operand collectors and OC_EX_MEM register; with Q = 0,
 * the LD/ST queue not refused this cycle and below core.ldst_queue requests).
 * Constant during one scheduler's scan: only an issue changes it. */
static uint32_t unit_mask(const sm *s, uint64_t cycle)
{
    uint32_t m = 0;
    for (int k = 0; k < FU__COUNT; k++)
        if (free_unit(s, k, cycle) >= 0)
            m |= 1u << k;
    uint32_t q = s->cfg->core.mem_inst_queue;
    if ((m & (1u << FU_LDST)) &&
        (q ? s->ldst_insts < 1 + q : !s->ldst_stalled && ldq_staged(s->ldq) < s->cfg->core.ldst_queue))
        m |= 1u << FU__COUNT;
    return m;
}

/* Whether a memory / other instruction can go to its unit, given unit_mask(). */
static uint8_t unit_check(const insn_info *ii, uint32_t units)
{
    if (is_mem_cls(ii->cls))
        return units & (1u << FU__COUNT) ? WR_READY : WR_MEM_STALL;
    return units & (1u << ii->fu) ? WR_READY : WR_UNIT_BUSY;
}

/* Readiness of the warp in `slot` (WR_*); fills *info with its next instruction.
 * The warp's own part of the verdict (instruction buffer, scoreboard, barrier) only
 * changes through an event of this warp, which sets `dirty`; until then it is
 * reused and only the shared resources (units, LD/ST) are looked at again. */
static uint8_t readiness(sm *s, uint32_t slot, uint64_t cycle, uint32_t units, const insn_info **info)
{
    sm_warp *w = &s->w[slot];
    func_warp *fw = &s->fw[slot];
    if (!w->dirty) {
        switch (w->cached) {
        case WR_SCOREBOARD:
            *info = w->cached_info;
            return WR_SCOREBOARD;
        case WR_BARRIER:
            return WR_BARRIER;
        case WR_READY:
            *info = w->cached_info;
            return unit_check(w->cached_info, units);
        case WR_IBUF_EMPTY:
            if (w->ibuf == 0 || w->ibuf_ready > cycle)
                return WR_IBUF_EMPTY;
            break;
        default:
            break;
        }
    }
    w->dirty = 0;
    w->cached = WR_DONE;
    if (fw->state == WARP_BARRIER) {
        w->cached = WR_BARRIER;
        return WR_BARRIER;
    }
    if (fw->state != WARP_READY)
        return WR_DONE;
    if (w->ibuf == 0 || w->ibuf_ready > cycle) {
        w->cached = WR_IBUF_EMPTY;
        return WR_IBUF_EMPTY;
    }
    const func_path *p = func_warp_selected(fw);   /* a ready warp has one */
    int32_t fn = fw->fr[fw->nfr - 1].func;
    if (__builtin_expect(w->alt_path != NO_ALT, 0)) {
        /* back to the selected path once its own hazard is gone */
        if (!sb_busy(s, slot, reg_base(s, slot), &s->it->info[fn][p->pc]))
            w->alt_path = NO_ALT;
        else
            p = follow_alt(w, fw, p);
    }
    uint32_t pc = p->pc;
    if (fn != w->ibuf_func || pc != w->ibuf_pc || p->id != w->ibuf_path) {
        w->ibuf = 0;   /* path changed under the buffer (reconvergence, return, switch) */
        want_set(s, slot);
        w->cached = WR_IBUF_EMPTY;
        return WR_IBUF_EMPTY;
    }
    const insn_info *ii = &s->it->info[fn][pc];
    *info = ii;
    w->cached_info = ii;
    if (sb_busy(s, slot, reg_base(s, slot), ii) || (ii->cls == IC_CALL && w->inflight)) {
        /* (frames change only on a drained warp) */
        if (__builtin_expect(s->dt.skip_stalled, 0) && w->mem_inflight && ii->cls != IC_CALL) {
            /* waiting for a load: another runnable path whose next instruction is
             * free of hazards goes ahead (its instructions must be fetched first) */
            func_path ps[8];
            const func_path *sel = func_warp_selected(fw);
            uint32_t n = func_warp_paths(fw, ps, 8);
            for (uint32_t k = 0; k < n; k++) {
                if (ps[k].id == p->id || ps[k].id == sel->id)
                    continue;
                const insn_info *ai = &s->it->info[fn][ps[k].pc];
                if (ai->cls == IC_CALL || sb_busy(s, slot, reg_base(s, slot), ai))
                    continue;
                w->alt_path = ps[k].id;
                w->ibuf = 0;
                want_set(s, slot);
                w->cached = WR_IBUF_EMPTY;
                return WR_IBUF_EMPTY;
            }
        }
        w->cached = WR_SCOREBOARD;
        return WR_SCOREBOARD;
    }
    if (ii->cls == IC_MEMBAR && w->mem_inflight)
        return WR_BARRIER;   /* not cached: ends with a memory completion */
    w->cached = WR_READY;    /* its own part is clear; shared resources decide */
    return unit_check(ii, units);
}

/* Operand collection: source registers that share a register-file bank are read in
 * successive cycles (register r of the warp's pool lives in bank r mod banks). */
static uint32_t rf_extra(const sm *s, uint32_t base, const insn_info *ii)
{
    uint32_t banks = s->cfg->core.rf_banks, worst = 0;
    if (!banks || ii->n_src < 2)
        return 0;
    for (uint32_t i = 0; i < ii->n_src; i++) {
        uint32_t n = 0;
        for (uint32_t k = 0; k < ii->n_src; k++)
            n += ii->src[k] != ii->src[i] && (base + ii->src[k]) % banks == (base + ii->src[i]) % banks;
        if (n > worst)
            worst = n;
    }
    return worst;
}

static int issue(sm *s, uint32_t slot, uint32_t path, const insn_info *ii, uint64_t cycle)
{
    sm_warp *w = &s->w[slot];
    func_warp *fw = &s->fw[slot];
    const func_path *pp = func_warp_path(fw, path);   /* readiness found it */
    uint32_t pc = pp->pc;
    uint64_t mask = pp->mask;
    int32_t fn = fw->fr[fw->nfr - 1].func;
    const ptx_insn *in = &s->L->prog->m->funcs[fn].insns[pc];
    uint32_t base = reg_base(s, slot);
    uint32_t rf = rf_extra(s, base, ii);   /* read before the step changes frames */
    s->st.rf_conflict_cycles += rf;
    fw->clock = cycle;
    exec_ctrl rc = func_warp_step_path(fw, path, is_mem_cls(ii->cls) ? &s->tr : NULL);
    w->last_path = path;
    s->st.issued++;
    s->st.thread_insts += (uint64_t)__builtin_popcountll(mask);
    if (rc == EX_FAULT)
        return -1;
    int u = free_unit(s, ii->fu, cycle);
    uint32_t occupy = ii->ii;
    warp_touch(s, w);
    if (w->inflight++ == 0)
        s->warps_inflight++;
    if (fw->state == WARP_DONE)
        s->maybe_done++;
    if (s->pol->on_issue)
        s->pol->on_issue(s->pst[slot % s->n_sched], slot, is_mem_cls(ii->cls), cycle);
    /* the instruction buffer: consumed; dropped when the warp's next path is another
     * one or moved elsewhere */
    if (--w->ibuf) {
        const func_path *np = follow_path(w, fw);
        if (!np || np->id != path || np->pc != pc + 1 || fw->fr[fw->nfr - 1].func != fn)
            w->ibuf = 0;
        else
            w->ibuf_pc = np->pc;
    }
    if (!w->ibuf)
        want_set(s, slot);
    int rcode = 0;
    if (is_mem_cls(ii->cls)) {
        w->mem_inflight++;
        int space = s->tr.n ? s->tr.a[0].space : SP_GLOBAL;
        uint8_t c = ii->cls;
        if (c == IC_MEM_GENERIC || c == IC_ATOM_GLOBAL)
            c = space == SP_SHARED ? (in->op == OP_ATOM || in->op == OP_RED ? IC_ATOM_SHARED : IC_MEM_SHARED)
              : space == SP_PARAM ? IC_MEM_PARAM : c == IC_ATOM_GLOBAL ? IC_ATOM_GLOBAL : IC_MEM_GLOBAL;
        if (c == IC_MEM_SHARED || c == IC_ATOM_SHARED) {
            uint32_t cyc = s->tr.n ? shared_cycles(s, c == IC_ATOM_SHARED) : 1;
            s->st.shared_conflict_cycles += cyc - 1;
            occupy = cyc;
            uint32_t regs[4];
            for (uint32_t i = 0; i < ii->n_dst; i++) {
                regs[i] = base + ii->dst[i];
                (*sb_slot(s, slot, regs[i]))++;
            }
            rcode = schedule_event(s, cycle + s->cfg->core.lat_shared + s->cfg->core.lat_pipeline + cyc - 1,
                                   slot, regs, ii->n_dst, 1);
        } else if ((c == IC_MEM_CONST || c == IC_MEM_PARAM) && s->tr.n &&
                   (space == SP_CONST || space == SP_PARAM)) {
            /* constant bank: through the L1 constant cache, one request per line; the
             * LD/ST unit serialises distinct addresses (one broadcast each) */
            occupy = distinct_addrs(s);
            rcode = issue_global(s, slot, ii, base, in, cycle);
        } else if (c == IC_MEM_CONST || c == IC_MEM_PARAM) {
            /* call-site .params live in the frame: a register-file-like fixed latency */
            uint32_t cyc = distinct_addrs(s);
            occupy = cyc;
            uint32_t regs[4];
            for (uint32_t i = 0; i < ii->n_dst; i++) {
                regs[i] = base + ii->dst[i];
                (*sb_slot(s, slot, regs[i]))++;
            }
            rcode = schedule_event(s, cycle + s->cfg->core.lat_const + s->cfg->core.lat_pipeline + cyc - 1,
                                   slot, regs, ii->n_dst, 1);
        } else {
            rcode = issue_global(s, slot, ii, base, in, cycle);
        }
        u = free_unit(s, FU_LDST, cycle);
    } else {
        uint32_t regs[4];
        for (uint32_t i = 0; i < ii->n_dst; i++) {
            regs[i] = base + ii->dst[i];
            (*sb_slot(s, slot, regs[i]))++;
        }
        rcode = schedule_event(s, cycle + ii->lat + rf, slot, regs, ii->n_dst, 0);
    }
    int fu = is_mem_cls(ii->cls) ? FU_LDST : ii->fu;
    if (u >= 0) {
        s->fu_free[fu][u] = cycle + occupy;
        s->st.fu_busy[fu] += occupy;
    }
    if ((rc == EX_BARRIER || rc == EX_EXIT || rc == EX_RET) &&
        func_cta_try_release(fw->cta, s->fw + (slot / s->cta_warps) * s->cta_warps, s->cta_warps))
        for (uint32_t i = 0; i < s->cta_warps; i++)
            warp_touch(s, &s->w[(slot / s->cta_warps) * s->cta_warps + i]);
    return rcode;
}

/* The issue stage: each scheduler classifies its warps and lets its policy pick one.
 * Returns 1 when anything issued, -1 on a fault.
 *
 * A scan that found no ready warp calls no policy and only adds one lost (or idle)
 * slot. Its verdicts depend on the warps' own state (unchanged while sm.gen[q] is), on
 * unit_mask() and, for a buffer filled with a path switch cost, on time; while all
 * three stand the scan's outcome is charged again without looking at the warps
 * (cycle-heavy kernels whose warps all wait on a stalled LD/ST unit). */
static int issue_stage(sm *s, uint64_t cycle)
{
    int issued_any = 0;
    /* core.rotate_schedulers: the first scheduler to issue changes every cycle */
    uint32_t first = s->cfg->core.rotate_schedulers ? (uint32_t)(cycle % s->n_sched) : 0;
    for (uint32_t k = 0; k < s->n_sched; k++) {
        uint32_t q = first + k < s->n_sched ? first + k : first + k - s->n_sched;
        sched_memo *mm = &s->memo[q];
        uint32_t units = unit_mask(s, cycle);
        if (mm->gen == s->gen[q] && cycle < mm->until && mm->units == units) {
            if (mm->reason == WR__COUNT)
                s->st.idle_slots++;
            else
                s->st.slot[mm->reason]++;
            continue;
        }
        uint32_t n = 0;
        uint64_t until = UINT64_MAX;
        const insn_info **infos = s->infos;
        uint8_t best = WR_DONE;
        for (uint32_t slot = q; slot < s->n_slots; slot += s->n_sched) {
            const sm_warp *w = &s->w[slot];
            if (!w->used)
                continue;
            const insn_info *ii = NULL;
            uint8_t r = readiness(s, slot, cycle, units, &ii);
            if (r == WR_DONE)
                continue;
            if (r == WR_IBUF_EMPTY && w->ibuf && w->ibuf_ready > cycle && w->ibuf_ready < until)
                until = w->ibuf_ready;
            sched_cand *c = &s->cand[n];
            c->slot = slot;
            c->age = w->age;
            c->reason = r;
            c->waiting_mem = w->mem_inflight != 0;
            if (ii) {
                c->is_mem = ii->is_mem;
                c->is_long = ii->is_long;
                c->type = ii->type;
            } else {
                c->is_mem = c->is_long = 0;
                c->type = IT_VALU;
            }
            c->path = w->ibuf_path;   /* the path readiness examined */
            infos[n++] = ii;
            /* charge a lost slot to the reason closest to issuing */
            static const uint8_t rank[WR__COUNT] = {6, 2, 3, 4, 5, 1, 0};
            if (rank[r] > rank[best])
                best = r;
        }
        if (best != WR_READY) {
            *mm = (sched_memo){s->gen[q], until, units, n == 0 ? WR__COUNT : best};
            if (n == 0)
                s->st.idle_slots++;
            else
                s->st.slot[best]++;
            continue;
        }
        mm->gen = UINT64_MAX;
        int pick = s->pol->pick(s->pst[q], s->cand, n, cycle);
        if (pick >= 0 && (uint32_t)pick < n && s->cand[pick].reason == WR_READY) {
            if (issue(s, s->cand[pick].slot, s->cand[pick].path, infos[pick], cycle))
                return -1;
            s->st.slot[WR_READY]++;
            issued_any = 1;
        } else {
            s->st.slot[WR_UNIT_BUSY]++;
        }
    }
    return issued_any;
}

/* ---- fetch ---------------------------------------------------------------------------------- */
static int fetch(sm *s, uint64_t cycle)
{
    int progress = 0;
    uint32_t budget = s->cfg->core.fetch_per_cycle;
    /* round robin over the warps that want a fetch, starting at fetch_rr */
    uint32_t slot = want_next(s, s->fetch_rr), wrapped = 0;
    for (; budget; slot = want_next(s, slot + 1)) {
        if (slot == UINT32_MAX) {
            if (wrapped || s->fetch_rr == 0)
                break;
            wrapped = 1;
            slot = want_next(s, 0);
            if (slot == UINT32_MAX)
                break;
        }
        if (wrapped && slot >= s->fetch_rr)
            break;
        sm_warp *w = &s->w[slot];
        func_warp *fw = &s->fw[slot];
        if (!w->used || w->fetching || w->ibuf) {
            want_clr(s, slot);
            continue;
        }
        if (fw->state != WARP_READY)
            continue;   /* at a barrier: fetches once released */
        const func_path *p = follow_path(w, fw);
        if (!p)
            continue;
        uint32_t pc = p->pc;
        int32_t fn = fw->fr[fw->nfr - 1].func;
        const ptx_func *f = &s->L->prog->m->funcs[fn];
        /* buffer up to ibuf_entries instructions, stopping after a control one */
        uint32_t n = 0;
        while (n < s->cfg->core.ibuf_entries && pc + n < f->n_insns) {
            uint8_t c = s->it->info[fn][pc + n].cls;
            n++;
            if (c == IC_BRANCH || c == IC_CALL || c == IC_BAR)
                break;
        }
        if (n == 0)
            n = 1;
        mem_req *r = req_new(s);
        if (!r)
            return progress;
        r->addr = ((uint64_t)fn << 24) + (uint64_t)pc * 8;   /* 8 bytes per instruction */
        r->size = 8 * n;
        r->kind = MR_IFETCH;
        r->sm = s->id;
        r->warp = slot;
        r->tag = n;
        r->t_issue = cycle;
        mem_access a = memsys_access(s->mem, r, cycle);
        if (mem_access_refused(a)) {
            req_free(s, r);
            break;
        }
        if (a != MA_HIT)
            s->st.ifetch_misses++;
        w->fetching = 1;
        want_clr(s, slot);
        w->ibuf_pc = pc;
        w->ibuf_func = fn;
        w->ibuf_path = p->id;
        w->fetch_extra = p->id != w->last_path ? s->dt.switch_cycles : 0;
        budget--;
        progress = 1;
        s->fetch_rr = (slot + 1) % s->n_slots;
    }
    return progress;
}

/* ---- one cycle ----------------------------------------------------------------------------- */
static void retire_warps(sm *s, uint64_t cycle)
{
    if (!s->maybe_done)
        return;
    s->maybe_done = 0;
    for (uint32_t k = 0; k < s->max_ctas; k++) {
        sm_cta *c = &s->cta[k];
        if (!c->used)
            continue;
        for (uint32_t i = 0; i < s->cta_warps; i++) {
            uint32_t slot = k * s->cta_warps + i;
            sm_warp *w = &s->w[slot];
            if (w->used && s->fw[slot].state == WARP_DONE && w->inflight == 0) {
                w->used = 0;
                s->gen[slot % s->n_sched]++;
                want_clr(s, slot);
                s->resident--;
                c->warps_left--;
                if (s->pol->on_warp_end)
                    pol_event(s, s->pol->on_warp_end, slot, cycle);
            }
        }
        if (c->warps_left == 0) {
            c->used = 0;
            s->st.ctas_done++;
        }
    }
}

/* The counters a cycle adds to; idle skipping repeats the last cycle's increments. */
typedef struct {
    uint64_t idle_slots, stall_cycles, ldst_stall_cycles, queue_occupancy_sum, reod_full_cycles;
    uint64_t resfail[3], slot[WR__COUNT];
} cycle_counts;

static void snap(const sm_stats *st, cycle_counts *c)
{
    c->idle_slots = st->idle_slots;
    c->stall_cycles = st->stall_cycles;
    c->ldst_stall_cycles = st->ldst_stall_cycles;
    c->queue_occupancy_sum = st->queue_occupancy_sum;
    c->reod_full_cycles = st->reod_full_cycles;
    memcpy(c->resfail, st->resfail, sizeof c->resfail);
    memcpy(c->slot, st->slot, sizeof c->slot);
}

int sm_cycle(sm *s, uint64_t cycle)
{
    cycle_counts before;
    snap(&s->st, &before);
    int progress = writeback(s, cycle);
    progress |= ldst_send(s, cycle);
    int issued_any = issue_stage(s, cycle);
    if (issued_any < 0)
        return -1;
    progress |= issued_any;
    if (!issued_any && s->resident)
        s->st.stall_cycles++;
    progress |= fetch(s, cycle);
    retire_warps(s, cycle);
    uint32_t inflight = s->warps_inflight;
    s->st.warps_in_flight_sum += inflight;
    s->st.resident_warps_sum += s->resident;
    s->st.active_cycles += s->resident != 0;
    /* per-cycle deltas for idle skipping */
    s->last.idle_slots = s->st.idle_slots - before.idle_slots;
    s->last.stall_cycles = s->st.stall_cycles - before.stall_cycles;
    s->last.warps_in_flight_sum = inflight;
    s->last.resident_warps_sum = s->resident;
    s->last.active_cycles = s->resident != 0;
    s->last.ldst_stall_cycles = s->st.ldst_stall_cycles - before.ldst_stall_cycles;
    s->last.queue_occupancy_sum = s->st.queue_occupancy_sum - before.queue_occupancy_sum;
    s->last.reod_full_cycles = s->st.reod_full_cycles - before.reod_full_cycles;
    for (int i = 0; i < 3; i++)
        s->last.resfail[i] = s->st.resfail[i] - before.resfail[i];
    for (int i = 0; i < WR__COUNT; i++)
        s->last.slot[i] = s->st.slot[i] - before.slot[i];
    return progress;
}

void sm_repeat_cycle_stats(sm *s, uint64_t n)
{
    s->st.idle_slots += n * s->last.idle_slots;
    s->st.stall_cycles += n * s->last.stall_cycles;
    s->st.warps_in_flight_sum += n * s->last.warps_in_flight_sum;
    s->st.resident_warps_sum += n * s->last.resident_warps_sum;
    s->st.active_cycles += n * s->last.active_cycles;
    s->st.ldst_stall_cycles += n * s->last.ldst_stall_cycles;
    s->st.queue_occupancy_sum += n * s->last.queue_occupancy_sum;
    s->st.reod_full_cycles += n * s->last.reod_full_cycles;
    for (int i = 0; i < 3; i++)
        s->st.resfail[i] += n * s->last.resfail[i];
    for (int i = 0; i < WR__COUNT; i++)
        s->st.slot[i] += n * s->last.slot[i];
}

uint64_t sm_next_event(const sm *s, uint64_t cycle, uint64_t bound)
{
    if (bound <= cycle)
        return cycle + 1;
    uint64_t next = bound;
    if (s->n_events) {
        uint64_t span = bound - cycle < (uint64_t)s->wheel_mask + 1 ? bound - cycle : (uint64_t)s->wheel_mask + 1;
        for (uint64_t d = 1; d <= span; d++) {
            uint32_t e = s->wheel[(cycle + d) & s->wheel_mask];
            for (; e != UINT32_MAX; e = s->ev[e].next)
                if (s->ev[e].due == cycle + d)
                    break;
            if (e != UINT32_MAX) {
                next = cycle + d;
                break;
            }
        }
    }
    /* (instruction buffers become usable the cycle their fetch returns: a memory
     * event, so they need no scan here, except for a path switch cost) */
    if (s->dt.switch_cycles)
        for (uint32_t i = 0; i < s->n_slots; i++)
            if (s->w[i].used && s->w[i].ibuf && s->w[i].ibuf_ready > cycle && s->w[i].ibuf_ready < next)
                next = s->w[i].ibuf_ready;
    for (int k = 0; k < FU__COUNT; k++)
        for (uint32_t i = 0; i < s->n_fu[k]; i++)
            if (s->fu_free[k][i] > cycle && s->fu_free[k][i] < next)
                next = s->fu_free[k][i];
    return next;
}

int sm_dump(const sm *s, char *buf, size_t n)
{
    size_t k = 0;
    k += (size_t)snprintf(buf + k, n - k, "SM %u: %u warps resident, LD/ST queue %u%s\n", s->id,
                          s->resident, ldq_len(s->ldq), s->ldst_stalled ? " (blocked)" : "");
    for (uint32_t i = 0; i < s->n_slots && k < n; i++) {
        const sm_warp *w = &s->w[i];
        const func_warp *fw = &s->fw[i];
        if (!w->used)
            continue;
        func_path p;
        int has = func_warp_where(fw, &p);
        uint32_t pc = has ? p.pc : 0;
        static const char *const st[] = {"ready", "barrier", "done", "fault"};
        k += (size_t)snprintf(buf + k, n - k,
                              "  warp slot %u (CTA %u, warp %u): pc %u (PTX line %u) %s, ibuf %u%s, "
                              "in flight %u (memory %u)\n", i, fw->cta ? fw->cta->linear : 0, fw->wid, pc,
                              has && fw->nfr ? s->L->prog->m->funcs[fw->fr[fw->nfr - 1].func].insns[pc < s->L->prog->m->funcs[fw->fr[fw->nfr - 1].func].n_insns ? pc : 0].line : 0,
                              st[fw->state], w->ibuf, w->fetching ? " (fetching)" : "", w->inflight, w->mem_inflight);
    }
    return (int)k;
}

/* ---- the core model ("fermi", core_model.h) ------------------------------------------- */
/* The launch-wide tables: the instruction table every SM of the launch reads. */
static occupancy fermi_occupancy(const ws_config *cfg, const void *params, const ptx_module *m,
                                 const ptx_func *k, uint32_t cta_threads, uint32_t smem_per_cta)
{
    (void)params;
    return occupancy_compute(cfg, m, k, cta_threads, smem_per_cta);
}

static void *fermi_launch_create(const ws_config *cfg, const void *params, const func_launch *L)
{
    (void)params;
    insn_table *t = calloc(1, sizeof *t);
    if (t && insn_table_build(t, L->prog->m, cfg)) {
        insn_table_free(t);
        free(t);
        return NULL;
    }
    return t;
}

static void fermi_launch_destroy(void *shared)
{
    if (!shared)
        return;
    insn_table_free(shared);
    free(shared);
}

static void *fermi_create(uint32_t id, const core_launch *cl)
{
    return sm_create(id, cl->cfg, cl->L, cl->shared, cl->mem, cl->pol, cl->sp, cl->max_ctas);
}

static void fermi_destroy(void *c) { sm_destroy(c); }
static int fermi_cycle(void *c, uint64_t cycle) { return sm_cycle(c, cycle); }
static uint64_t fermi_next_event(const void *c, uint64_t cycle, uint64_t bound)
{
    return sm_next_event(c, cycle, bound);
}
static void fermi_repeat_cycle_stats(void *c, uint64_t n) { sm_repeat_cycle_stats(c, n); }
static int fermi_can_take_cta(const void *c) { return sm_can_take_cta(c); }
static int fermi_take_cta(void *c, uint32_t linear, uint64_t cycle) { return sm_take_cta(c, linear, cycle); }
static int fermi_busy(const void *c) { return sm_busy(c); }
static int fermi_dump(const void *c, char *buf, size_t n) { return sm_dump(c, buf, n); }

/* The launch statistics have room for every outcome and unit counted here. */
_Static_assert(WR__COUNT <= sizeof ((ws_timing_stats *)0)->slot / sizeof(uint64_t), "slot[]");
_Static_assert(FU__COUNT == sizeof ((ws_timing_stats *)0)->fu_busy / sizeof(uint64_t), "fu_busy[]");
_Static_assert(FU__COUNT == sizeof ((ws_timing_stats *)0)->fu_count / sizeof(uint32_t), "fu_count[]");

static void fermi_stats(const void *c, ws_timing_stats *t)
{
    const sm *sm_ = c;
    const sm_stats *s = &sm_->st;
    const ws_config *cfg = sm_->cfg;
    t->fu_count[FU_SP] = cfg->core.n_sp;
    t->fu_count[FU_SFU] = cfg->core.n_sfu;
    t->fu_count[FU_DP] = cfg->core.n_dp;
    t->fu_count[FU_LDST] = cfg->core.n_ldst;
    t->fu_count[FU_INT] = cfg->core.n_int;
    for (int k = 0; k < WR__COUNT; k++)
        t->slot[k] += s->slot[k];
    t->idle_slots += s->idle_slots;
    t->stall_cycles += s->stall_cycles;
    t->warps_in_flight_sum += s->warps_in_flight_sum;
    t->resident_warps_sum += s->resident_warps_sum;
    t->active_sm_cycles += s->active_cycles;
    for (int k = 0; k < FU__COUNT; k++)
        t->fu_busy[k] += s->fu_busy[k];
    t->mem_insts += s->mem_insts;
    t->mem_reqs += s->mem_reqs;
    t->mem_bytes_used += s->mem_bytes_used;
    for (int k = 0; k < 3; k++)
        t->resfail[k] += s->resfail[k];
    t->ldst_stall_cycles += s->ldst_stall_cycles;
    t->queue_occupancy_sum += s->queue_occupancy_sum;
    t->queued_cycles += s->queued_cycles;
    t->queued_reqs += s->queued_reqs;
    t->reod_full_cycles += s->reod_full_cycles;
    t->mem_lat_sum += s->mem_lat_sum;
    t->mem_lat_n += s->mem_lat_n;
    if (s->mem_lat_max > t->mem_lat_max)
        t->mem_lat_max = s->mem_lat_max;
    for (int k = 0; k < 16; k++)
        t->mem_lat_hist[k] += s->mem_lat_hist[k];
    t->shared_conflict_cycles += s->shared_conflict_cycles;
    t->ifetch_misses += s->ifetch_misses;
    t->rf_conflict_cycles += s->rf_conflict_cycles;
}

const core_model core_model_fermi = {
    .name = "fermi",
    .desc = "NVIDIA Fermi SM: n_schedulers warp schedulers, each issuing at most one "
            "instruction per cycle to SP/SFU/DP/LD-ST/INT pipelines",
    .occupancy = fermi_occupancy,
    .launch_create = fermi_launch_create,
    .launch_destroy = fermi_launch_destroy,
    .create = fermi_create,
    .destroy = fermi_destroy,
    .cycle = fermi_cycle,
    .next_event = fermi_next_event,
    .repeat_cycle_stats = fermi_repeat_cycle_stats,
    .can_take_cta = fermi_can_take_cta,
    .take_cta = fermi_take_cta,
    .busy = fermi_busy,
    .stats = fermi_stats,
    .dump = fermi_dump,
};
