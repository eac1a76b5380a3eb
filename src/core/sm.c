/* sm.c - the SM pipeline of the timing model (see sm.h for the stage order).
 *
 * Warp slots are grouped by CTA slot: CTA slot k owns warp slots
 * [k * cta_warps, (k+1) * cta_warps), so a CTA's functional warps are contiguous
 * (func_cta_try_release wants them so) and nothing fragments. Warp slot w belongs to
 * scheduler w mod n_schedulers.
 *
 * Scoreboard (pipe_sb), timing wheel (pipe_wheel), memory instructions in flight and
 * requests, CTA slots, coalescing and bank cycles are core/pipe.c's, shared with gcn.c.
 * The issue stage is event-driven (sched_turn): a warp's cached verdict is examined again
 * only after an event of it; the others are read from a summary by key (pipe_vsum).
 * Calls and returns wait until the warp has nothing in flight. The carry flag of
 * add.cc/addc is not tracked (the pair is always adjacent and dependent through
 * registers in nvcc output).
 */
#include "core/sm.h"

#include "core/slotset.h"
#include "core/core_model.h"
#include "core/ldq.h"
#include "core/pipe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

/* ---- SM state ------------------------------------------------------------------------- */
typedef struct {
    /* what the issue stage reads of every warp each cycle, first: one cache line
     * (the array is allocated 64-byte aligned). A scoreboard stall only ends through
     * an event of this warp (a completion, an issue, a fetch, a barrier release), which
     * sets p.dirty; until then the cached verdict stands and the warp is not
     * re-examined every cycle. */
    _Alignas(64) pipe_warp p;
    /* Paths (path-table policies; with the SIMT stack the path is always id 0 and
     * these never change anything). The warp follows the path its policy selects,
     * or alt_path while the selected one waits on the scoreboard for a load
     * (func.path_skip_stalled); the buffer is refetched on a change of path. */
    /* p.alt_path: NO_ALT, or the runnable path followed instead (in p: first line) */
    /* The second line: read and written only with a path switch cost (dt.switch_cycles
     * != 0; without one fetch_extra would always be 0), so that a cycle of the default
     * policies touches one line of a warp's record. */
    uint32_t last_path;    /* the path the warp issued last                       */
    uint32_t fetch_extra;  /* switch cost added when the outstanding fetch fills  */
} sm_warp;

/* This model's own counters (pipe_stats has the ones both models count). */
typedef struct {
    uint64_t fu_busy[FU__COUNT];     /* unit-cycles occupied (initiation)        */
    uint64_t shared_conflict_cycles; /* extra cycles from bank conflicts         */
    uint64_t rf_conflict_cycles;     /* extra operand-collection cycles          */
} sm_stats;

/* What one cycle added to the counters that idle skipping repeats (its issue slots'
 * outcomes: sm.slot_inc). */
typedef struct {
    uint64_t stall_cycles, warps_in_flight_sum, resident_warps_sum, active_cycles;
} cycle_counts;

/* Keys of the verdict summary (pipe_vsum): a warp whose own part is clear, by the unit
 * its next instruction needs (fu_kind 0 .. FU__COUNT-1, or KEY_MEM: the LD/ST path of a
 * memory instruction), or what it waits for. */
enum { KEY_MEM = FU__COUNT, KEY_IBUF, KEY_SB, KEY_BAR, KEY__N };

/* A scheduler's last turn that issued nothing and left none of its warps to examine:
 * its outcome stands while none is touched and the units are the same (sched_turn). */
typedef struct {
    uint32_t units;        /* unit_mask() of that turn                            */
    uint8_t valid;
    uint8_t reason;        /* its outcome: WR_* charged, WR_DONE: an idle slot     */
} sched_memo;

struct sm {
    /* What a quiet cycle reads and writes (nothing due, nothing to fetch, the issue
     * stage's memo standing: the usual cycle of a memory-bound kernel), first, in four
     * host lines (the record is 64-byte aligned), so that a cycle after the rest of the
     * GPU's has evicted them brings in four lines rather than ten. */
    /* line 0 */
    uint32_t id;
    uint32_t n_sched;
    memsys *mem;
    pipe_pop_gate pop;             /* mem's pop_t word of this SM (writeback)    */
    ldq *ldq;                      /* requests toward the L1D (baseline / REOD)  */
    uint64_t *want;                /* warps whose empty buffer needs a fetch     */
    uint32_t fetch_rr;
    uint32_t fetch_per_cycle;      /* core.fetch_per_cycle (a copy: not in the
                                      configuration's line)                       */
    /* The outcomes this cycle's turns counted (count_slot: one per turn, at most n_sched;
     * WR_DONE: an idle slot), which idle skipping repeats: n_inc of them in slot_inc. */
    uint32_t n_inc;
    uint32_t resident;             /* warps resident                             */
    /* line 1 */
    uint64_t fu_max;               /* the latest fu_free of any pipeline (a pipeline's
                                      fu_free only grows): at or after it every
                                      pipeline is free (unit_mask: fu_all; and
                                      sm_next_event need not look at them)        */
    uint32_t fu_all;               /* bit k: class k has pipelines (fu_min[k] < MAX) */
    uint32_t mem_q, ldst_q;        /* core.mem_inst_queue, core.ldst_queue           */
    /* The LD/ST path's counters are the ldq's own (ldq_get_stats, changed only by
     * ldq_cycle): st holds only what idle skipping repeats of them (the last cycle's
     * increments, ldq_last_inc), and fermi_stats adds the ldq's totals. */
    int ldst_stalled;              /* head refused this cycle                    */
    uint32_t ldst_insts;           /* memory instructions with a request not yet sent
                                      to the L1 (core.mem_inst_queue)             */
    /* The last issue stage issued nothing and left every scheduler's memo valid for
     * the units it saw (stage_units): while no warp is touched (redo empty) and the
     * units are the same, every turn would repeat its memo (sched_turn step 0), so
     * the stage only counts the memos' outcomes. */
    uint32_t stage_units;
    uint8_t stage_memo;
    uint32_t warps_inflight;       /* warps with inflight != 0                   */
    uint32_t maybe_done;           /* warps may have finished: check retirement   */
    /* Cycles whose outcomes were slot_inc[0 .. n_sched) and are not yet in st's issue
     * slots (a memoized stage, a repeat: slots_owed): counted at once when the next
     * full stage is about to overwrite slot_inc, or for the statistics (fermi_stats). */
    uint64_t slot_reps;
    div_timing dt;                 /* the divergence policy's timing knobs       */
    /* line 2: event-driven readiness (see sched_turn): the warps whose cached verdict
     * stands, by key (KEY_*), and those to examine again (touched since, or not
     * cached); and the last cycle's counts for idle skipping */
    _Alignas(64) pipe_vsum vs;
    cycle_counts last;             /* per-cycle deltas for idle skipping         */
    /* line 3 */
    _Alignas(64) pipe_wheel wh;    /* completions of fixed-latency work          */
    /* the rest: read when something happens */
    const ws_config *cfg;
    func_launch *L;
    const insn_table *it;
    const sched_ops *pol;
    void **pst;                    /* policy state per scheduler                 */
    uint32_t ws, cta_warps, max_ctas, n_slots;
    uint32_t ws_sh;                /* log2(ws) when a power of two, else 64       */
    uint8_t ev_all;             /* the policy's state is SM-wide (sched_ops.sm_wide) */
    sm_warp *w;
    func_warp *fw;                 /* functional warps, grouped by CTA slot      */
    pipe_cta *cta;
    uint32_t ctas_live;            /* CTA slots in use (pipe_cta.used set): taken
                                      minus retired, so a dispatch asks in O(1)  */
    /* functional units: next cycle each pipeline accepts an instruction */
    uint64_t *fu_free[FU__COUNT];
    uint64_t fu_min[FU__COUNT];    /* per class: its earliest fu_free (UINT64_MAX: none) */
    uint32_t issued_fu;            /* the unit class the last issue occupied      */
    uint32_t rot_mask;             /* core.rotate_schedulers: n_sched - 1 when n_sched
                                      is a power of two, else UINT32_MAX (a division);
                                      0: no rotation                                  */
    uint32_t n_fu[FU__COUNT];
    pipe_minsts mi;                /* global/local memory instructions in flight */
    pipe_rq rq;                    /* requests (a launch stopped early leaves some
                                      in the memory system: freed on destroy)    */
    sched_cand *cand;
    const insn_info **infos;       /* next instruction of each candidate         */
    uint64_t *gone;                /* the warps that may have finished (maybe_done;
                                      a superset of the warps that can leave:
                                      retire_warps looks at these only)           */
    uint64_t *qmask;               /* per scheduler: its slots (vs.nw words each)   */
    uint64_t *scratch;             /* 3 x vs.nw words: one turn's examined, live and
                                      ready warps                                 */
    sched_cand *tc;                /* per slot: its candidate under the counted
                                      verdict (reason from the key and units)      */
    const insn_info **ti;          /* per slot: the instruction that verdict shows */
    uint8_t *fr;                   /* per slot: this turn's examination: verdict   */
    const insn_info **fi;          /* and instruction (tc, ti, fr, fi: kept only to
                                      build candidate lists, not with pick_slot, which
                                      issues a ready warp's pipe_warp.cached_info)  */
    uint8_t ready_only;            /* the policy reads ready candidates only       */
    uint8_t pick_slot;             /* the policy has sched_ops.pick_slot: no lists  */
    uint64_t *age;                 /* per slot: its warp's age (pipe_warp.age), for a
                                      policy's pick_slot                            */
    uint8_t *slot_inc;             /* (see n_inc)                                  */
    /* GTO's oldest ready warp with one word per slot set (nw == 1): a CTA's warps share
     * one age (placed in one cycle), so the used CTA slots in order of (age, slot) and
     * their warps' slot masks answer it without the ages (sched_oldest_slot_grp). */
    uint64_t *ord_bits;            /* [n_ord]: the masks, oldest CTA first          */
    uint32_t *ord_cta;             /* [n_ord]: their CTA slots                      */
    uint32_t n_ord;
    sched_memo *memo;              /* per scheduler                                */
    pipe_space space;              /* parameter and local memory addresses       */
    uint32_t coalesce;             /* coalescing granularity: the L1D sector size  */
    /* statistics last; st's line with the cycle sums is written every cycle */
    sm_stats fx;
    _Alignas(64) pipe_stats st;
    exec_trace tr;
};

#define NO_ALT UINT32_MAX

/* A warp's own verdict may have changed (an event of it): its scheduler examines it
 * again (readiness) at its next turn; until then the summary does not count it.
 * warp_touch_done is that for a completion: it only frees registers and lowers the
 * in-flight counts, so a scoreboard verdict that may be re-checked alone (sb_recheck)
 * still may. */
static inline void warp_touch_done(sm *s, sm_warp *w)
{
    w->p.dirty = 1;
    pipe_vsum_touch(&s->vs, (uint32_t)(w - s->w));
}

static inline void warp_touch(sm *s, sm_warp *w)
{
    w->p.sb_recheck = 0;
    warp_touch_done(s, w);
}

/* Whether a WR_SCOREBOARD verdict decided with frame base `base` can be re-examined by
 * the scoreboard test alone (pipe_warp.sb_recheck): nothing but a completion can change
 * it then (no alternative path, none looked for, and the recheck needs no frame). */
static inline uint8_t sb_recheckable(const sm *s, const sm_warp *w, uint32_t base)
{
    return base == 0 && w->p.alt_path == NO_ALT && !s->dt.skip_stalled;
}

/* The alternative path warp `w` follows while its selection p waits (alt_path set):
 * dropped once it is gone or is the selection. Out of line: never taken with the SIMT
 * stack. */
static __attribute__((noinline)) const func_path *follow_alt(sm_warp *w, const func_warp *fw,
                                                              const func_path *p)
{
    const func_path *a = func_warp_path(fw, w->p.alt_path);
    if (a && a->id != p->id)
        return a;
    w->p.alt_path = NO_ALT;
    return p;
}

/* The path warp `w` follows: its policy's selection, or the alternative it took while
 * the selection waits on the scoreboard (func.path_skip_stalled). */
static inline const func_path *follow_path(sm_warp *w, const func_warp *fw)
{
    const func_path *p = func_warp_selected(fw);
    if (__builtin_expect(w->p.alt_path != NO_ALT, 0) && p)
        return follow_alt(w, fw, p);
    return p;
}

static void want_set(sm *s, uint32_t slot) { slotset_add(s->want, slot); }
static void want_clr(sm *s, uint32_t slot) { slotset_del(s->want, slot); }
/* Next warp slot >= from whose buffer wants a fetch, or UINT32_MAX. */
static uint32_t want_next(const sm *s, uint32_t from) { return slotset_next(s->want, s->n_slots, from); }

sm *sm_create(uint32_t id, const ws_config *cfg, func_launch *L, const insn_table *it,
              memsys *mem, const sched_ops *pol, const sched_params *sp, uint32_t max_ctas)
{
    sm *s = aligned_alloc(64, (sizeof *s + 63) / 64 * 64);
    if (!s)
        return NULL;
    memset(s, 0, sizeof *s);
    s->id = id;
    s->cfg = cfg;
    s->L = L;
    if (L->div->timing && L->dstate)
        L->div->timing(L->dstate, &s->dt);
    s->it = it;
    s->mem = mem;
    s->pop = pipe_pop_gate_of(mem, id);
    s->pol = pol;
    s->ws = L->ws;
    s->ws_sh = s->ws && !(s->ws & (s->ws - 1)) ? (uint32_t)__builtin_ctz(s->ws) : 64;
    s->cta_warps = L->cta_warps;
    s->max_ctas = max_ctas;
    s->n_slots = max_ctas * L->cta_warps;
    s->n_sched = cfg->core.n_schedulers;
    s->mem_q = cfg->core.mem_inst_queue;
    s->ldst_q = cfg->core.ldst_queue;
    s->fetch_per_cycle = cfg->core.fetch_per_cycle;
    s->rot_mask = !cfg->core.rotate_schedulers || s->n_sched <= 1 ? 0
                : !(s->n_sched & (s->n_sched - 1)) ? s->n_sched - 1 : UINT32_MAX;
    s->w = aligned_alloc(_Alignof(sm_warp), s->n_slots * sizeof *s->w);
    if (s->w)
        memset(s->w, 0, s->n_slots * sizeof *s->w);
    /* 64-byte aligned: each func_warp's hot first line and inline frame are cache lines */
    s->fw = aligned_alloc(64, ((size_t)s->n_slots * sizeof *s->fw + 63) / 64 * 64);
    if (s->fw)
        memset(s->fw, 0, (size_t)s->n_slots * sizeof *s->fw);
    s->cta = calloc(max_ctas, sizeof *s->cta);
    s->cand = calloc(s->n_slots, sizeof *s->cand);
    s->infos = calloc(s->n_slots, sizeof *s->infos);
    s->want = calloc((s->n_slots + 63) / 64, sizeof *s->want);
    s->gone = calloc((s->n_slots + 63) / 64, sizeof *s->gone);
    s->pst = calloc(s->n_sched, sizeof *s->pst);
    s->tc = calloc(s->n_slots, sizeof *s->tc);
    s->fr = calloc(s->n_slots, sizeof *s->fr);
    s->ti = calloc(s->n_slots, sizeof *s->ti);
    s->fi = calloc(s->n_slots, sizeof *s->fi);
    s->age = calloc(s->n_slots, sizeof *s->age);
    s->ord_bits = calloc(max_ctas ? max_ctas : 1, sizeof *s->ord_bits);
    s->ord_cta = calloc(max_ctas ? max_ctas : 1, sizeof *s->ord_cta);
    if (!s->age || !s->ord_bits || !s->ord_cta || !s->w || !s->fw || !s->cta || !s->cand || !s->infos || !s->want || !s->gone || !s->pst || !s->tc ||
        !s->fr || !s->ti || !s->fi || pipe_vsum_init(&s->vs, s->n_slots, KEY__N))
        goto fail;
    s->qmask = calloc((size_t)s->n_sched * s->vs.nw, sizeof *s->qmask);
    s->scratch = calloc(3 * (size_t)s->vs.nw, sizeof *s->scratch);
    if (!s->qmask || !s->scratch)
        goto fail;
    for (uint32_t i = 0; i < s->n_slots; i++)
        slotset_add(s->qmask + (size_t)(i % s->n_sched) * s->vs.nw, i);
    s->ready_only = pol->ready_only;
    s->pick_slot = pol->pick_slot != NULL;
    if (!(s->memo = calloc(s->n_sched, sizeof *s->memo)) || !(s->slot_inc = calloc(s->n_sched, 1)))
        goto fail;
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
    for (int k = 0; k < FU__COUNT; k++) {
        s->fu_min[k] = s->n_fu[k] ? 0 : UINT64_MAX;
        s->fu_all |= (uint32_t)(s->n_fu[k] != 0) << k;
    }
    uint32_t maxlat = cfg->core.lat_ddiv;
    const uint32_t lats[] = {cfg->core.lat_alu, cfg->core.lat_imul, cfg->core.lat_idiv, cfg->core.lat_fp,
                             cfg->core.lat_fdiv, cfg->core.lat_dp, cfg->core.lat_sfu,
                             cfg->core.lat_shared + 64 + s->ws, cfg->core.lat_const + s->ws,
                             cfg->core.lat_branch, cfg->core.lat_move};
    for (size_t i = 0; i < sizeof lats / sizeof *lats; i++)
        if (lats[i] > maxlat)
            maxlat = lats[i];
    pipe_minsts_init(&s->mi);
    if (pipe_wheel_init(&s->wh, maxlat + cfg->core.lat_pipeline))
        goto fail;
    s->tr.cap = 64;
    s->tr.rep = 0;
    s->tr.a = calloc(64, sizeof *s->tr.a);
    if (!s->tr.a)
        goto fail;
    uint32_t line = cfg->l1d.line ? cfg->l1d.line : 128;
    uint32_t sets = cfg->l1d.size / (line * (cfg->l1d.ways ? cfg->l1d.ways : 1));
    if (!(s->ldq = ldq_create(cfg->l1d.request_queues, cfg->l1d.queue_depth, cfg->l1d.sets_per_queue,
                              sets, line)))
        goto fail;
    if (ws_cfg_l1d_latency_queue(cfg) && ldq_set_latency_queue(s->ldq, cfg->l1d.latency))
        goto fail;
    pipe_space_init(&s->space, id, s->n_slots, s->ws);
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
        pipe_sb_fini(&s->w[i].p.sb);
    for (int k = 0; k < FU__COUNT; k++)
        free(s->fu_free[k]);
    ldq_forget(s->ldq);   /* its requests are among these */
    pipe_rq_fini(&s->rq);   /* the pool and any still in flight */
    ldq_destroy(s->ldq);
    free(s->pst);
    pipe_vsum_fini(&s->vs);
    free(s->qmask);
    free(s->memo);
    free(s->slot_inc);
    free(s->scratch);
    free(s->tc);
    free(s->fr);
    free(s->ti);
    free(s->fi);
    free(s->age);
    free(s->ord_bits);
    free(s->ord_cta);
    free(s->w);
    free(s->fw);
    free(s->cta);
    free(s->cand);
    free(s->infos);
    free(s->want);
    free(s->gone);
    pipe_wheel_fini(&s->wh);
    pipe_minsts_fini(&s->mi);
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

int sm_can_take_cta(const sm *s) { return s->ctas_live < s->max_ctas; }

int sm_take_cta(sm *s, uint32_t linear, uint64_t cycle)
{
    int k = pipe_cta_take(s->cta, s->max_ctas, s->fw, s->cta_warps, s->L, linear, s->id);
    if (k < 0)
        return -1;
    s->ctas_live++;
    /* its place in the age order: after every CTA of a smaller age or of the same age
     * and a lower slot (ages never decrease: it goes at or near the end) */
    uint32_t at = s->n_ord;
    while (at > 0 && s->age[s->ord_cta[at - 1] * s->cta_warps] == cycle && s->ord_cta[at - 1] > (uint32_t)k)
        at--;
    for (uint32_t j = s->n_ord; j > at; j--) {
        s->ord_cta[j] = s->ord_cta[j - 1];
        s->ord_bits[j] = s->ord_bits[j - 1];
    }
    s->ord_cta[at] = (uint32_t)k;
    s->ord_bits[at] = 0;
    s->n_ord++;
    for (uint32_t i = 0; i < s->cta_warps; i++) {
        uint32_t slot = (uint32_t)k * s->cta_warps + i;
        sm_warp *w = &s->w[slot];
        pipe_warp_start(&w->p, cycle);
        s->age[slot] = w->p.age;   /* a copy, contiguous for pick_slot */
        if (slot < 64)
            s->ord_bits[at] |= 1ull << slot;
        w->p.alt_path = NO_ALT;
        w->last_path = 0;
        w->fetch_extra = 0;
        want_set(s, slot);
        warp_touch(s, w);
        s->resident++;
        if (s->pol->on_warp_start)
            pol_event(s, s->pol->on_warp_start, slot, cycle);
    }
    return 0;
}

int sm_busy(const sm *s) { return s->resident != 0 || ldq_len(s->ldq) != 0; }
int sm_ldst_waiting(const sm *s) { return ldq_len(s->ldq) != 0; }

/* ---- completions ----------------------------------------------------------------------- */
/* pipe_reg_base: a shift for a power-of-two warp size (ws_sh), not a 64-bit division */
static uint32_t reg_base(const sm *s, uint32_t slot)
{
    const func_warp *fw = &s->fw[slot];
    return s->ws_sh < 64 ? (uint32_t)(fw->fr[fw->nfr - 1].reg_off >> s->ws_sh) : pipe_reg_base(fw, s->ws);
}

/* (inline: the writeback stage's every event; minst_done's copy is the same code) */
static inline __attribute__((always_inline)) void instruction_done(void *c, uint32_t slot, const uint32_t *regs,
                                                                    uint32_t n, int is_mem, uint64_t cycle)
{
    sm *s = c;
    sm_warp *w = &s->w[slot];
    /* A completion frees registers and lowers the in-flight counts: it can change only
     * a scoreboard verdict (or a call waiting for the warp to drain), one not cached
     * (a finished warp draining, a fence waiting on memory), or the choice between an
     * alternative path and the selected one. A cached ready, empty-buffer or barrier
     * verdict stands, and so does its summary entry: no re-examination. */
    if (w->p.cached == WR_SCOREBOARD || w->p.cached == WR_DONE || w->p.alt_path != NO_ALT)
        warp_touch_done(s, w);
    if (pipe_warp_complete(&w->p, regs, n, is_mem)) {
        s->warps_inflight--;
        if (w->p.done) {
            s->maybe_done++;   /* drained after its exit: retire_warps frees it */
            slotset_add(s->gone, slot);
        }
    }
    if (is_mem) {
        /* a counted candidate shows whether the warp waits on memory (cand_fill) */
        if (!s->pick_slot)
            s->tc[slot].waiting_mem = w->p.mem_inflight != 0;
        /* the policy hears of global/local completions only: shared and constant
         * accesses are not the long-latency loads the recency register tracks */
        if (is_mem == 2 && s->pol->on_mem_done)
            pol_event(s, s->pol->on_mem_done, slot, cycle);
    }
}

static void minst_done(void *c, uint32_t i, uint64_t cycle)
{
    sm *s = c;
    pipe_minst *m = &s->mi.a[i];
    pipe_lat_record(&s->st, cycle - m->t_issue);
    /* the data still pass the writeback stage(s): core.lat_pipeline (out of host memory
     * for the event: complete now rather than never) */
    if (!s->cfg->core.lat_pipeline ||
        pipe_wheel_add(&s->wh, cycle + s->cfg->core.lat_pipeline, m->slot, m->regs, m->n, 2))
        instruction_done(s, m->slot, m->regs, m->n, 2, cycle);
    pipe_minst_free(&s->mi, i);
}

static void fetched(void *c, uint32_t slot, uint32_t n, uint64_t cycle)
{
    sm *s = c;
    sm_warp *w = &s->w[slot];
    w->p.fetching = 0;
    w->p.ibuf = (uint8_t)n;
    want_clr(s, slot);
    w->p.ibuf_ready = cycle + (s->dt.switch_cycles ? w->fetch_extra : 0);   /* path switch cost */
    warp_touch(s, w);
}

static const pipe_wb_ops fermi_wb = {instruction_done, fetched, minst_done};

/* ---- writeback --------------------------------------------------------------------------- */
static int writeback(sm *s, uint64_t cycle)
{
    return pipe_writeback(&s->wh, &s->mi, &s->rq, s->mem, s->id, &s->pop, cycle, &fermi_wb, s);
}

/* ---- LD/ST unit --------------------------------------------------------------------------- */
/* One cycle of the request path to the L1D (its counters: the ldq's own, see struct sm). */
static int ldst_send(sm *s, uint64_t cycle)
{
    int stalled;
    const mem_req *r;
    int progress = ldq_cycle_snap(s->ldq, s->mem, cycle, &stalled, &r);
    s->ldst_stalled = stalled;
    if (r && --s->mi.a[r->tag].unsent == 0)
        s->ldst_insts--;   /* its last request reached the L1: it left the LD/ST path */
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
    uint32_t used[64];
    uint32_t nseg = pipe_coalesce(&s->space, &s->tr, slot, 0, s->ws, line, seg, used);
    uint32_t regs[4];
    if (pipe_sb_pend(&s->w[slot].p.sb, base, ii, regs))
        return -1;
    if (nseg == 0)
        return pipe_wheel_add(&s->wh, cycle + 1 + s->cfg->core.lat_pipeline, slot, regs, ii->n_dst, 2);
    uint32_t mi = pipe_minst_new(&s->mi);
    if (mi == UINT32_MAX)
        return -1;
    pipe_minst *m = &s->mi.a[mi];
    m->slot = slot;
    m->outstanding = nseg;
    m->unsent = nseg;
    s->ldst_insts++;
    m->n = ii->n_dst;
    memcpy(m->regs, regs, sizeof regs);
    m->t_issue = cycle;
    s->st.mem_insts++;
    const mem_req proto = {.kind = pipe_req_kind(in), .space = pipe_req_space(s->tr.a[0].space),
                           .cop = in->cop, .sm = s->id, .warp = slot, .tag = mi, .t_issue = cycle};
    return pipe_mem_push(&s->rq, s->ldq, seg, used, nseg, line, &proto, cycle, &s->st);
}

static uint32_t distinct_addrs(const sm *s)
{
    /* the common cases first, each pass stopping at its first miss: one address for
     * all, or strictly increasing addresses (all distinct) */
    if (s->tr.n <= 1)
        return 1;   /* (a compact trace, rep != 0, is one record repeated: one address) */
    const exec_access *a = s->tr.a;
    const uint32_t m = s->tr.n;
    uint32_t i = 1;
    while (i < m && a[i].addr == a[0].addr)
        i++;
    if (i == m)
        return 1;
    if (i == 1) {   /* (else a[1] == a[0]: not increasing) */
        while (i < m && a[i].addr > a[i - 1].addr)
            i++;
        if (i == m)
            return m;
    }
    uint32_t n = 0;
    for (uint32_t j = 0; j < m; j++) {
        uint32_t k = 0;
        while (k < j && a[k].addr != a[j].addr)
            k++;
        n += k == j;
    }
    return n ? n : 1;
}

/* ---- issue ---------------------------------------------------------------------------------- */

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
/* unit_mask's LD/ST path bit added to the unit-class bits m */
static inline uint32_t unit_mem_bit(const sm *s, uint32_t m)
{
    uint32_t q = s->mem_q;
    if ((m & (1u << FU_LDST)) && (q ? s->ldst_insts < 1 + q : !s->ldst_stalled && ldq_staged(s->ldq) < s->ldst_q))
        m |= 1u << FU__COUNT;
    return m;
}

static uint32_t unit_mask(const sm *s, uint64_t cycle)
{
    uint32_t m = 0;
    if (s->fu_max <= cycle)
        m = s->fu_all;   /* fu_min[k] <= fu_max for every class with pipelines */
    else
        for (int k = 0; k < FU__COUNT; k++)
            m |= (uint32_t)(s->fu_min[k] <= cycle) << k;   /* free_unit(s, k, cycle) >= 0 */
    return unit_mem_bit(s, m);
}

/* unit_mask() after an issue, from `units`, the mask before it: the issue moved only the
 * earliest free cycle of the class it occupied (issued_fu) and the LD/ST path's state. */
static inline uint32_t unit_mask_after(const sm *s, uint64_t cycle, uint32_t units)
{
    const uint32_t f = s->issued_fu;
    uint32_t m = (units & ~(1u << f) & ((1u << FU__COUNT) - 1)) | (uint32_t)(s->fu_min[f] <= cycle) << f;
    return unit_mem_bit(s, m);
}

/* Whether a memory / other instruction can go to its unit, given unit_mask(). */
static uint8_t unit_check(const insn_info *ii, uint32_t units)
{
    if (ii->is_mem)   /* (a memory class: insn_info.is_mem) */
        return units & (1u << FU__COUNT) ? WR_READY : WR_MEM_STALL;
    return units & (1u << ii->fu) ? WR_READY : WR_UNIT_BUSY;
}

/* Readiness of the warp in `slot` (WR_*); fills *info with its next instruction.
 * The warp's own part of the verdict (instruction buffer, scoreboard, barrier) only
 * changes through an event of this warp, which sets `dirty`; until then it is
 * reused and only the shared resources (units, LD/ST) are looked at again. */
static inline __attribute__((always_inline)) uint8_t readiness(sm *s, uint32_t slot, uint64_t cycle, uint32_t units,
                                                                const insn_info **info)
{
    sm_warp *w = &s->w[slot];
    func_warp *fw = &s->fw[slot];
    uint8_t own = pipe_warp_cached(&w->p, cycle, info);
    if (own != WR__COUNT)
        return own == WR_READY ? unit_check(w->p.cached_info, units) : own;
    if (w->p.sb_recheck && w->p.cached == WR_SCOREBOARD) {
        /* Only completions since a scoreboard verdict (sb_recheck): the state, buffer,
         * path, frame and next instruction are those it was decided with, so the
         * examination below would reach the scoreboard test of cached_info at base 0
         * and decide as here, without reading the functional warp, its path or frame. */
        const insn_info *ii = w->p.cached_info;
        w->p.dirty = 0;
        *info = ii;
        if (pipe_sb_busy(&w->p.sb, 0, ii) || (ii->cls == IC_CALL && w->p.inflight))
            return WR_SCOREBOARD;
        if (ii->cls == IC_MEMBAR && w->p.mem_inflight) {
            w->p.cached = WR_DONE;
            return WR_BARRIER;   /* not cached (as below) */
        }
        w->p.cached = WR_READY;
        return unit_check(ii, units);
    }
    if ((own = pipe_warp_examine(&w->p, fw, cycle)) != WR_READY)
        return own;
    const func_path *p = func_warp_selected(fw);   /* a ready warp has one */
    int32_t fn = fw->fr[fw->nfr - 1].func;
    if (__builtin_expect(w->p.alt_path != NO_ALT, 0)) {
        /* back to the selected path once its own hazard is gone */
        if (!pipe_sb_busy(&w->p.sb, reg_base(s, slot), &s->it->info[fn][p->pc]))
            w->p.alt_path = NO_ALT;
        else
            p = follow_alt(w, fw, p);
    }
    uint32_t pc = p->pc;
    if (fn != w->p.ibuf_func || pc != w->p.ibuf_pc || p->id != w->p.ibuf_path) {
        w->p.ibuf = 0;   /* path changed under the buffer (reconvergence, return, switch) */
        want_set(s, slot);
        w->p.cached = WR_IBUF_EMPTY;
        return WR_IBUF_EMPTY;
    }
    const insn_info *ii = &s->it->info[fn][pc];
    *info = ii;
    w->p.cached_info = ii;
    const uint32_t base = reg_base(s, slot);
    if (pipe_sb_busy(&w->p.sb, base, ii) || (ii->cls == IC_CALL && w->p.inflight)) {
        /* (frames change only on a drained warp) */
        if (__builtin_expect(s->dt.skip_stalled, 0) && w->p.mem_inflight && ii->cls != IC_CALL) {
            /* waiting for a load: another runnable path whose next instruction is
             * free of hazards goes ahead (its instructions must be fetched first) */
            func_path ps[8];
            const func_path *sel = func_warp_selected(fw);
            uint32_t n = func_warp_paths(fw, ps, 8);
            for (uint32_t k = 0; k < n; k++) {
                if (ps[k].id == p->id || ps[k].id == sel->id)
                    continue;
                const insn_info *ai = &s->it->info[fn][ps[k].pc];
                if (ai->cls == IC_CALL || pipe_sb_busy(&w->p.sb, reg_base(s, slot), ai))
                    continue;
                w->p.alt_path = ps[k].id;
                w->p.ibuf = 0;
                want_set(s, slot);
                w->p.cached = WR_IBUF_EMPTY;
                return WR_IBUF_EMPTY;
            }
        }
        w->p.cached = WR_SCOREBOARD;
        w->p.sb_recheck = sb_recheckable(s, w, base);
        return WR_SCOREBOARD;
    }
    if (ii->cls == IC_MEMBAR && w->p.mem_inflight)
        return WR_BARRIER;   /* not cached: ends with a memory completion */
    w->p.cached = WR_READY;    /* its own part is clear; shared resources decide */
    return unit_check(ii, units);
}

static inline void count_warp(sm *s, uint32_t slot, sm_warp *w);

static int issue(sm *s, uint32_t q, uint32_t slot, uint32_t path, const insn_info *ii, uint64_t cycle)
{
    sm_warp *w = &s->w[slot];
    func_warp *fw = &s->fw[slot];
    const func_path *pp = func_warp_path(fw, path);   /* readiness found it */
    uint32_t pc = pp->pc;
    uint64_t mask = pp->mask;
    /* the frame's function: a ready warp's buffer was fetched in it (readiness checks
     * it, and the issue-time settling keeps a buffer only within one function) */
    int32_t fn = w->p.ibuf_func;
    uint32_t base = reg_base(s, slot);
    uint32_t rf = ii->rf_extra;   /* operand collection (insn_rf_extra) */
    s->fx.rf_conflict_cycles += rf;
    fw->clock = cycle;
    const int mem = ii->is_mem;   /* IC_MEM_SHARED .. IC_ATOM_GLOBAL */
    exec_ctrl rc = func_warp_step_from(fw, pp, mem ? &s->tr : NULL);   /* (path `path`) */
    if (s->dt.switch_cycles)
        w->last_path = path;
    s->st.issued++;
    s->st.thread_insts += func_lane_count(mask);
    if (rc == EX_FAULT)
        return -1;
    int u = free_unit(s, ii->fu, cycle);
    uint32_t occupy = ii->ii;
    /* (the warp is touched below, unless its next verdict is settled at once) */
    if (w->p.inflight++ == 0)
        s->warps_inflight++;
    if (fw->state == WARP_DONE) {
        w->p.done = 1;
        s->maybe_done++;
        slotset_add(s->gone, slot);
    }
    if (s->pol == &sched_gto)
        ((sched_gto_st *)s->pst[q])->last = slot;   /* gto_on_issue */
    else if (s->pol->on_issue)
        s->pol->on_issue(s->pst[q], slot, mem, cycle);   /* (q == slot % n_sched) */
    /* the instruction buffer: consumed; dropped when the warp's next path is another
     * one or moved elsewhere */
    if (--w->p.ibuf)
        pipe_warp_continue(&w->p, follow_path(w, fw), path, pc, fn, fw->fr[fw->nfr - 1].func);
    if (!w->p.ibuf)
        want_set(s, slot);
    /* (ibuf > 0 now: the warp goes on with pc + 1 of `path` in function fn) */
    int rcode = 0;
    if (mem) {
        const ptx_insn *in = &s->L->prog->m->funcs[fn].insns[pc];
        w->p.mem_inflight++;
        int space = s->tr.n ? s->tr.a[0].space : SP_GLOBAL;
        uint8_t c = ii->cls;
        if (c == IC_MEM_GENERIC || c == IC_ATOM_GLOBAL)
            c = space == SP_SHARED ? (in->op == OP_ATOM || in->op == OP_RED ? IC_ATOM_SHARED : IC_MEM_SHARED)
              : space == SP_PARAM ? IC_MEM_PARAM : c == IC_ATOM_GLOBAL ? IC_ATOM_GLOBAL : IC_MEM_GLOBAL;
        if (c == IC_MEM_SHARED || c == IC_ATOM_SHARED) {
            /* the whole warp's bank conflicts together (a compact trace, one word for
             * every lane, is a broadcast: 1 cycle, unless atomic) */
            if (c == IC_ATOM_SHARED)
                exec_trace_flat(&s->tr);
            uint32_t cyc = s->tr.rep ? 1
                         : s->tr.n ? pipe_bank_cycles(&s->tr, s->ws, s->ws, s->cfg->core.shared_banks,
                                                      c == IC_ATOM_SHARED) : 1;
            s->fx.shared_conflict_cycles += cyc - 1;
            occupy = cyc;
            if (pipe_sb_pend_wheel(&w->p.sb, &s->wh, base, ii,
                                   cycle + s->cfg->core.lat_shared + s->cfg->core.lat_pipeline + cyc - 1, slot, 1))
                return -1;
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
            if (pipe_sb_pend_wheel(&w->p.sb, &s->wh, base, ii,
                                   cycle + s->cfg->core.lat_const + s->cfg->core.lat_pipeline + cyc - 1, slot, 1))
                return -1;
        } else {
            rcode = issue_global(s, slot, ii, base, in, cycle);
        }
        u = free_unit(s, FU_LDST, cycle);
    } else {
        if (pipe_sb_pend_wheel(&w->p.sb, &s->wh, base, ii, cycle + ii->lat + rf, slot, 0))
            return -1;
    }
    int fu = mem ? FU_LDST : ii->fu;
    s->issued_fu = (uint32_t)fu;
    if (u >= 0) {
        s->fu_free[fu][u] = cycle + occupy;
        if (cycle + occupy > s->fu_max)
            s->fu_max = cycle + occupy;
        uint64_t lo = UINT64_MAX;
        for (uint32_t i = 0; i < s->n_fu[fu]; i++)
            lo = s->fu_free[fu][i] < lo ? s->fu_free[fu][i] : lo;
        s->fu_min[fu] = lo;
        s->fx.fu_busy[fu] += occupy;
    }
    int settled = 0;
    if ((rc == EX_NEXT || rc == EX_BRANCH) && fw->state == WARP_READY && w->p.alt_path == NO_ALT &&
        !s->dt.skip_stalled) {
        /* The examination the warp's next turn would make (readiness, sched_turn step
         * 1), made now: nothing it reads changes before that turn without an event of
         * the warp (which touches it again), the scoreboard only frees registers (and a
         * completion re-examines a scoreboard verdict), and its buffer is usable (it
         * issued from it). Its frame, function and selected path are the ones the buffer
         * continues with (pipe_warp_continue kept it only then). */
        if (!w->p.ibuf) {
            w->p.dirty = 0;
            w->p.cached = WR_IBUF_EMPTY;
            count_warp(s, slot, w);
            settled = 1;
        } else {
            const insn_info *ni = &s->it->info[fn][w->p.ibuf_pc];
            if (!(ni->cls == IC_MEMBAR && w->p.mem_inflight)) {   /* (that one is not cached) */
                w->p.dirty = 0;
                w->p.cached_info = ni;
                w->p.cached = pipe_sb_busy(&w->p.sb, base, ni) || (ni->cls == IC_CALL && w->p.inflight)
                            ? WR_SCOREBOARD : WR_READY;
                w->p.sb_recheck = sb_recheckable(s, w, base);
                count_warp(s, slot, w);
                settled = 1;
            }
        }
    }
    if (!settled)
        warp_touch(s, w);   /* examined again at its next turn */
    if ((rc == EX_BARRIER || rc == EX_EXIT || rc == EX_RET) &&
        func_cta_try_release(fw->cta, s->fw + (slot / s->cta_warps) * s->cta_warps, s->cta_warps))
        for (uint32_t i = 0; i < s->cta_warps; i++) {
            const uint32_t j = (slot / s->cta_warps) * s->cta_warps + i;
            warp_touch(s, &s->w[j]);
            /* (a released warp's paths settle: looked at when retire_warps runs) */
            slotset_add(s->gone, j);
            if (s->fw[j].state == WARP_DONE)
                s->w[j].p.done = 1;
        }
    return rcode;
}

/* The candidate of warp `slot` with verdict r and next instruction ii (NULL: none
 * looked at), as the policy sees it. */
static inline void cand_fill(sched_cand *c, uint32_t slot, const sm_warp *w, uint8_t r, const insn_info *ii)
{
    c->slot = slot;
    c->age = w->p.age;
    c->reason = r;
    c->waiting_mem = w->p.mem_inflight != 0;
    if (ii) {
        c->is_mem = ii->is_mem;
        c->is_long = ii->is_long;
        c->type = ii->type;
    } else {
        c->is_mem = c->is_long = 0;
        c->type = IT_VALU;
    }
    c->path = w->p.ibuf_path;   /* the path readiness examined */
}

/* The verdict readiness() left in w stands until the warp's next event
 * (pipe_warp_countable): the warp is counted under its key in the summary, with the
 * candidate it shows while counted (pipe_warp_cached's). */
static inline void count_warp(sm *s, uint32_t slot, sm_warp *w)
{
    const insn_info *ci = NULL;
    uint32_t key;
    if (w->p.cached == WR_READY) {
        ci = w->p.cached_info;
        key = ci->is_mem ? KEY_MEM : ci->fu;
    } else if (w->p.cached == WR_SCOREBOARD) {
        ci = w->p.cached_info;
        key = KEY_SB;
    } else {
        key = w->p.cached == WR_IBUF_EMPTY ? KEY_IBUF : KEY_BAR;
    }
    if (!s->pick_slot) {   /* (read only to build candidate lists) */
        cand_fill(&s->tc[slot], slot, w, WR_DONE, ci);
        s->ti[slot] = ci;
    }
    pipe_vsum_recount(&s->vs, slot, key);
}

/* By unit_mask() value u (bit f: a free unit of class f; bit KEY_MEM: the LD/ST path
 * accepts): the per-key masks of sched_turn's step 2 (on[f]: all ones when that bit is
 * set) and a counted warp's reason by its key (step 3). Constant tables, indexed by u. */
_Static_assert(FU__COUNT == 5 && KEY_MEM == 5 && KEY__N == 9, "unit tables: 6 unit bits, 9 keys");
#define UT_ON(u, f) (0 - (uint64_t)((u) >> (f) & 1))
#define UT_ON_ROW(u) {UT_ON(u, 0), UT_ON(u, 1), UT_ON(u, 2), UT_ON(u, 3), UT_ON(u, 4), UT_ON(u, 5)}
#define UT_FU(u, f) ((u) >> (f) & 1 ? WR_READY : WR_UNIT_BUSY)
#define UT_KR_ROW(u) {UT_FU(u, 0), UT_FU(u, 1), UT_FU(u, 2), UT_FU(u, 3), UT_FU(u, 4),                      \
                      (u) >> 5 & 1 ? WR_READY : WR_MEM_STALL, WR_IBUF_EMPTY, WR_SCOREBOARD, WR_BARRIER}
#define UT_4(R, u) R(u), R(u + 1), R(u + 2), R(u + 3)
#define UT_16(R, u) UT_4(R, u), UT_4(R, u + 4), UT_4(R, u + 8), UT_4(R, u + 12)
#define UT_64(R) UT_16(R, 0), UT_16(R, 16), UT_16(R, 32), UT_16(R, 48)
static const uint64_t unit_on[64][KEY_MEM + 1] = {UT_64(UT_ON_ROW)};
static const uint8_t unit_kr[64][KEY__N] = {UT_64(UT_KR_ROW)};

/* A lost slot is charged to the reason closest to issuing (its rank, best first): ready,
 * memory pipeline stalled, unit busy, scoreboard, empty buffer, barrier, none (idle). */

/* What step 2 of sched_turn finds among the counted warps (masks of slots). */
typedef struct {
    uint64_t ready, busy, stall, sb, ib, bar;
} key_acc;

/* The counted warps of the scheduler with slots qm by key, met with the units (on[f]:
 * all ones when unit class f, or the LD/ST path for KEY_MEM, accepts one): added to
 * ready[] and live[] (nw words), and summed up by outcome. */
static inline __attribute__((always_inline)) key_acc key_pass(const uint64_t *S, uint32_t nw, const uint64_t *qm,
                                                              const uint64_t *on, uint64_t *ready, uint64_t *live,
                                                              uint32_t units)
{
    key_acc a = {0, 0, 0, 0, 0, 0};
    /* every unit class free (units: its low FU__COUNT bits): on[f] is all ones */
    const int all_on = (units & ((1u << FU__COUNT) - 1)) == (1u << FU__COUNT) - 1;
    for (uint32_t k = 0; k < nw; k++) {
        const uint64_t m = qm[k];
        uint64_t r = ready[k], l = live[k], x;
        /* the unit keys: the sets are disjoint (a counted warp is under one key:
         * pipe_vsum), so the warps under a key whose unit is busy are those under any
         * unit key less those under one whose unit accepts */
        uint64_t fu_all = 0, fu_on = 0;
        if (all_on) {
            for (uint32_t f = 0; f < FU__COUNT; f++)
                fu_all |= S[f * nw + k];
            fu_on = fu_all;
        } else {
            for (uint32_t f = 0; f < FU__COUNT; f++) {
                x = S[f * nw + k];
                fu_all |= x;
                fu_on |= x & on[f];
            }
        }
        fu_all &= m;
        fu_on &= m;
        r |= fu_on;
        a.busy |= fu_all & ~fu_on;
        l |= fu_all;
        x = S[KEY_MEM * nw + k] & m;
        r |= x & on[KEY_MEM];
        a.stall |= x & ~on[KEY_MEM];
        l |= x;
        x = S[KEY_SB * nw + k] & m;
        a.sb |= x;
        l |= x;
        x = S[KEY_IBUF * nw + k] & m;
        a.ib |= x;
        l |= x;
        x = S[KEY_BAR * nw + k] & m;
        a.bar |= x;
        l |= x;
        ready[k] = r;
        live[k] = l;
        a.ready |= r;
    }
    return a;
}

/* Scheduler q's turn in the issue stage: 1 when it issued, 0 when not, -1 on a fault.
 *
 * Event-driven: a warp's own verdict (instruction buffer, scoreboard, barrier) changes
 * only through an event of it (warp_touch), so the summary s->vs counts every warp whose
 * cached verdict stands under its key, and only the touched ones and those whose
 * verdict is not cached (redo) are examined (readiness). The units (unit_mask) then
 * decide what the counted warps with a clear own part see: ready, unit busy or memory
 * pipeline stalled. The turn's outcome is the best of the keys present; only when a warp
 * is ready are the candidates built, in slot order, from the per-warp candidates kept
 * with each verdict (tc, ti) or from this turn's examination (fr, fi): the ready ones
 * for a policy that reads only those (sched_ops.ready_only), else every warp with an
 * instruction, exactly the list a scan of all warps gives. */
/* A turn's outcome: the issue slot counted by what it was spent on (WR_DONE: idle), and
 * kept in the cycle's list for idle skipping. Every turn counts exactly one. (The
 * issue stage first counts what slot_reps owes: slot_inc changes here.) */
static inline void count_slot(sm *s, uint8_t r)
{
    if (r == WR_DONE)
        s->st.idle_slots++;
    else
        s->st.slot[r]++;
    s->slot_inc[s->n_inc++] = r;
}

/* (not inlined into the issue stage: inlined, gcc's register allocation of the
 * combination costs the memory-bound workloads more than the call) */
static inline __attribute__((always_inline)) int sched_turn_nw(sm *s, uint32_t q, uint64_t cycle, uint32_t units,
                                                              const uint32_t nw)
{
    const uint64_t *qm = s->qmask + (size_t)q * nw;
    uint64_t *redo = pipe_vsum_redo(&s->vs);
    uint64_t *ex = s->scratch, *live = ex + nw, *ready = live + nw;
    uint32_t seen = 0;   /* bit r: an examined warp's verdict r (r != WR_DONE) */
    sched_memo *mm = &s->memo[q];
    /* 0. nothing to examine since a turn that issued nothing, and the same units: the
     * summary of its warps is the same (only this turn counts a warp, an event puts it
     * in redo, and a warp leaves only from redo: finished warps are never counted), so
     * is the outcome */
    uint64_t pending = 0;
    for (uint32_t k = 0; k < nw; k++)
        pending |= redo[k] & qm[k];
    if (mm->valid && !pending && mm->units == units) {
        count_slot(s, mm->reason);
        return 0;
    }
    mm->valid = 0;
    /* 1. the warps to examine: their verdicts now, and into the summary where it stands */
    for (uint32_t k = 0; k < nw; k++) {
        uint64_t m = redo[k] & qm[k], l = 0, rd = 0;
        for (uint64_t b = m; b; b &= b - 1) {
            uint64_t bit = b & (0 - b);
            uint32_t slot = k * 64 + (uint32_t)__builtin_ctzll(b);
            sm_warp *w = &s->w[slot];
            if (!w->p.used) {   /* touched after it left (a CTA's barrier release) */
                redo[k] &= ~bit;
                m &= ~bit;
                continue;
            }
            const insn_info *ii = NULL;
            uint8_t r = readiness(s, slot, cycle, units, &ii);
            if (r != WR_DONE) {
                l |= bit;
                rd |= r == WR_READY ? bit : 0;
                if (!s->pick_slot) {   /* (read only to build candidate lists) */
                    s->fr[slot] = r;
                    s->fi[slot] = ii;
                }
                seen |= 1u << r;
            }
            if (pipe_warp_countable(&w->p, cycle))
                count_warp(s, slot, w);
        }
        ex[k] = m;
        live[k] = l;
        ready[k] = rd;
    }
    /* 2. the counted warps, by key: a clear own part meets the units (bit f of units:
     * a free unit of class f; bit KEY_MEM == FU__COUNT: the LD/ST path) */
    const uint64_t *S = s->vs.bits;
    const uint64_t *on = unit_on[units];   /* units < 1 << (KEY_MEM + 1) */
    /* (inlined twice: the common single word with nw a constant) */
    key_acc a = key_pass(S, nw, qm, on, ready, live, units);
    uint64_t busy = a.busy, stall = a.stall, sb = a.sb, ib = a.ib, bar = a.bar, any_ready = a.ready;
    if (!any_ready) {   /* no policy call: the slot is lost (or idle: no warp at all) */
        /* the best (by that rank) of the examined verdicts and the keys present */
        seen |= (uint32_t)(stall != 0) << WR_MEM_STALL | (uint32_t)(busy != 0) << WR_UNIT_BUSY |
                (uint32_t)(sb != 0) << WR_SCOREBOARD | (uint32_t)(ib != 0) << WR_IBUF_EMPTY |
                (uint32_t)(bar != 0) << WR_BARRIER;
        const uint8_t best = seen >> WR_MEM_STALL & 1 ? WR_MEM_STALL : seen >> WR_UNIT_BUSY & 1 ? WR_UNIT_BUSY
                           : seen >> WR_SCOREBOARD & 1 ? WR_SCOREBOARD : seen >> WR_IBUF_EMPTY & 1 ? WR_IBUF_EMPTY
                           : seen >> WR_BARRIER & 1 ? WR_BARRIER : WR_DONE;
        pending = 0;
        for (uint32_t k = 0; k < nw; k++)
            pending |= redo[k] & qm[k];
        *mm = (sched_memo){units, !pending, best};
        count_slot(s, best);
        return 0;
    }
    /* 3. a policy that chooses from the ready slots (sched_ops.pick_slot): no candidate
     * list; the chosen warp's path and instruction as step 3 below would record them */
    if (s->pick_slot) {
        int sl = s->pol != &sched_gto ? s->pol->pick_slot(s->pst[q], ready, nw, s->age, cycle)
               : nw == 1 ? sched_oldest_slot_grp(ready[0], s->ord_bits, s->n_ord,
                                                 ((const sched_gto_st *)s->pst[q])->last)
                         : sched_oldest_slot(ready, nw, s->age, ((const sched_gto_st *)s->pst[q])->last);
        const uint32_t slot = (uint32_t)sl;   /* (-1: UINT32_MAX, not below n_slots) */
        if (slot < s->n_slots && ready[slot / 64] >> (slot % 64) & 1) {
            /* (a counted warp's tc path is its buffer's path: fetch keeps them equal; a
             * ready warp's instruction, examined now or counted, is its cached_info) */
            const pipe_warp *pw = &s->w[slot].p;
            if (issue(s, q, slot, pw->ibuf_path, pw->cached_info, cycle))
                return -1;
            count_slot(s, WR_READY);
            return 1;
        }
        count_slot(s, WR_UNIT_BUSY);
        return 0;
    }
    /* 3. the candidates, in slot order: a counted one's reason from its key */
    const int ro = s->ready_only;
    const uint64_t *pass = ro ? ready : live;
    const uint8_t *kr = unit_kr[units];
    uint32_t n = 0;
    for (uint32_t k = 0; k < nw; k++)
        for (uint64_t b = pass[k]; b; b &= b - 1) {
            uint32_t slot = k * 64 + (uint32_t)__builtin_ctzll(b);
            if (ex[k] & b & (0 - b)) {   /* its record is as examined in step 1 */
                cand_fill(&s->cand[n], slot, &s->w[slot], s->fr[slot], s->fi[slot]);
                s->infos[n] = s->fi[slot];
            } else {
                s->cand[n] = s->tc[slot];
                s->cand[n].reason = kr[s->vs.key[slot]];
                s->infos[n] = s->ti[slot];
            }
            n++;
        }
    int pick = s->pol->pick(s->pst[q], s->cand, n, cycle);
    if (pick >= 0 && (uint32_t)pick < n && s->cand[pick].reason == WR_READY) {
        if (issue(s, q, s->cand[pick].slot, s->cand[pick].path, s->infos[pick], cycle))
            return -1;
        count_slot(s, WR_READY);
        return 1;
    }
    count_slot(s, WR_UNIT_BUSY);
    return 0;
}

/* (the turn twice: the common single word per slot set, with nw a constant) */
static __attribute__((noinline)) int sched_turn(sm *s, uint32_t q, uint64_t cycle, uint32_t units)
{
    return s->vs.nw == 1 ? sched_turn_nw(s, q, cycle, units, 1) : sched_turn_nw(s, q, cycle, units, s->vs.nw);
}

/* st's issue slots plus n times the outcomes inc[0 .. n_inc) */
static void slots_add(pipe_stats *st, const uint8_t *inc, uint32_t n_inc, uint64_t n)
{
    for (uint32_t j = 0; j < n_inc; j++) {
        if (inc[j] == WR_DONE)
            st->idle_slots += n;
        else
            st->slot[inc[j]] += n;
    }
}

/* slot_reps counted into st (before slot_inc changes) */
static inline void slots_owed(sm *s)
{
    if (s->slot_reps) {
        slots_add(&s->st, s->slot_inc, s->n_sched, s->slot_reps);
        s->slot_reps = 0;
    }
}

/* The issue stage: each scheduler's turn (sched_turn), in order from the first one
 * (core.rotate_schedulers). Returns 1 when anything issued, -1 on a fault. The units'
 * availability only changes with an issue. */
static int issue_stage(sm *s, uint64_t cycle)
{
    int issued_any = 0;
    uint32_t units = unit_mask(s, cycle);
    if (s->stage_memo && units == s->stage_units) {
        if (pipe_vsum_redo_empty(&s->vs)) {
            /* each turn's step 0, in any order (a turn that repeats issues nothing): the
             * memos' outcomes, which the stage that left them counted into slot_inc
             * (every turn's, n_sched: each ended on its memo) and which no cycle since
             * has overwritten (each took this path), so they are the list already, and
             * counted once more (slot_reps) */
            s->slot_reps++;
            s->n_inc = s->n_sched;
            return 0;
        }
    }
    s->stage_memo = 0;
    slots_owed(s);   /* (the turns below overwrite slot_inc) */
    /* core.rotate_schedulers: the first scheduler to issue changes every cycle */
    uint32_t first = !s->rot_mask ? 0 : s->rot_mask != UINT32_MAX ? (uint32_t)cycle & s->rot_mask
                                                                   : (uint32_t)(cycle % s->n_sched);
    for (uint32_t k = 0; k < s->n_sched; k++) {
        uint32_t q = first + k < s->n_sched ? first + k : first + k - s->n_sched;
        int r = sched_turn(s, q, cycle, units);
        if (r < 0)
            return -1;
        if (r) {
            issued_any = 1;
            units = unit_mask_after(s, cycle, units);
        }
    }
    if (!issued_any) {
        uint8_t all = 1;
        for (uint32_t q = 0; q < s->n_sched; q++)
            all &= s->memo[q].valid && s->memo[q].units == units;
        s->stage_memo = all;
        s->stage_units = units;
    }
    return issued_any;
}

/* ---- fetch ---------------------------------------------------------------------------------- */
/* fetch's step at warp `slot`, one that wants a fetch: 1 its fetch was sent, 0 it has
 * none to send now (skipped), 2 the L1I refused it, -1 out of memory. */
static inline int fetch_slot(sm *s, uint32_t slot, uint64_t cycle)
{
    sm_warp *w = &s->w[slot];
    func_warp *fw = &s->fw[slot];
    if (!w->p.used || w->p.fetching || w->p.ibuf) {
        want_clr(s, slot);
        return 0;
    }
    if (fw->state != WARP_READY)
        return 0;   /* at a barrier: fetches once released */
    const func_path *p = follow_path(w, fw);
    if (!p)
        return 0;
    uint32_t pc = p->pc;
    int32_t fn = fw->fr[fw->nfr - 1].func;
    uint32_t n = pipe_fetch_len(s->it, &s->L->prog->m->funcs[fn], fn, pc, s->cfg->core.ibuf_entries);
    int sent = pipe_ifetch(&s->rq, s->mem, s->id, slot, fn, pc, n, cycle, &s->st);
    if (sent <= 0)
        return sent < 0 ? -1 : 2;
    pipe_warp_fetching(&w->p, fn, pc, p->id);
    if (!s->pick_slot)
        s->tc[slot].path = p->id;   /* a counted candidate shows the buffer's path */
    want_clr(s, slot);
    if (s->dt.switch_cycles)
        w->fetch_extra = p->id != w->last_path ? s->dt.switch_cycles : 0;
    s->fetch_rr = slot + 1 < s->n_slots ? slot + 1 : 0;
    return 1;
}

static int fetch(sm *s, uint64_t cycle)
{
    int progress = 0;
    uint32_t budget = s->fetch_per_cycle;
    if (s->vs.nw == 1 && budget == 1) {
        /* one word of slots and one fetch: the loop below's round robin is the wanting
         * slots >= fetch_rr in order, then those below it, until one fetch is sent (a
         * step changes only its own slot's bit of `want`) */
        const uint64_t x = s->want[0];
        if (!x)
            return 0;
        const uint64_t hi = x & (~0ull << s->fetch_rr);   /* (fetch_rr < n_slots <= 64) */
        for (uint64_t b = hi; b; b &= b - 1) {
            int r = fetch_slot(s, (uint32_t)__builtin_ctzll(b), cycle);
            if (r)
                return r == 1 ? 1 : r < 0 ? -1 : 0;
        }
        for (uint64_t b = x & ~hi; b; b &= b - 1) {
            int r = fetch_slot(s, (uint32_t)__builtin_ctzll(b), cycle);
            if (r)
                return r == 1 ? 1 : r < 0 ? -1 : 0;
        }
        return 0;
    }
    uint64_t any = 0;
    for (uint32_t k = 0; k < (s->n_slots + 63) / 64; k++)
        any |= s->want[k];
    if (!any)
        return 0;   /* no warp wants a fetch (the scan below would find none) */
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
        int r = fetch_slot(s, slot, cycle);
        if (r < 0)
            return -1;
        if (r == 2)
            return progress;
        if (!r)
            continue;
        budget--;
        progress = 1;
        if (!budget)
            break;   /* (the loop's next search would not be looked at) */
    }
    return progress;
}

/* ---- one cycle ----------------------------------------------------------------------------- */
/* Warp `slot` leaves if it finished and drained (pipe_cta_retire). */
static int leave(void *c, uint32_t slot, uint64_t cycle)
{
    sm *s = c;
    sm_warp *w = &s->w[slot];
    if (!pipe_warp_gone(&w->p, &s->fw[slot]))
        return 0;
    w->p.used = 0;
    pipe_vsum_drop(&s->vs, slot);
    want_clr(s, slot);
    s->resident--;
    if (s->pol->on_warp_end)
        pol_event(s, s->pol->on_warp_end, slot, cycle);
    return 1;
}

/* CTA slot k left: out of GTO's age order. */
static void ord_drop(sm *s, uint32_t k)
{
    uint32_t j = 0;
    while (j < s->n_ord && s->ord_cta[j] != k)
        j++;
    for (; j + 1 < s->n_ord; j++) {
        s->ord_cta[j] = s->ord_cta[j + 1];
        s->ord_bits[j] = s->ord_bits[j + 1];
    }
    if (j < s->n_ord)
        s->n_ord--;
}

/* pipe_cta_retire's scan over the warps in `gone` only, in the same order (slot order:
 * CTA by CTA, its warps in order): a warp leaves only after it finished (its exit's
 * issue, or a barrier release settles it) and drained (its last completion), each of
 * which puts it in `gone`; the others' leave() would return 0. */
static void retire_warps(sm *s, uint64_t cycle)
{
    if (!s->maybe_done)
        return;
    s->maybe_done = 0;
    for (uint32_t k = 0; k < (s->n_slots + 63) / 64; k++) {
        uint64_t x = s->gone[k];
        s->gone[k] = 0;
        for (; x; x &= x - 1) {
            const uint32_t slot = k * 64 + (uint32_t)__builtin_ctzll(x);
            pipe_cta *c = &s->cta[slot / s->cta_warps];
            if (c->used && leave(s, slot, cycle) && --c->warps_left == 0) {
                c->used = 0;
                ord_drop(s, slot / s->cta_warps);
                s->st.ctas_done++;
                s->ctas_live--;
            }
        }
    }
}

int sm_cycle(sm *s, uint64_t cycle)
{
    s->n_inc = 0;
    int progress = writeback(s, cycle);
    progress |= ldst_send(s, cycle);
    int issued_any = issue_stage(s, cycle);
    if (issued_any < 0)
        return -1;
    progress |= issued_any;
    const uint64_t stall = !issued_any && s->resident;   /* (only here: st.stall_cycles) */
    s->st.stall_cycles += stall;
    int f = fetch(s, cycle);
    if (f < 0)
        return -1;
    progress |= f;
    retire_warps(s, cycle);
    uint32_t inflight = s->warps_inflight;
    s->st.warps_in_flight_sum += inflight;
    s->st.resident_warps_sum += s->resident;
    s->st.active_cycles += s->resident != 0;
    /* per-cycle deltas for idle skipping */
    s->last.stall_cycles = stall;
    s->last.warps_in_flight_sum = inflight;
    s->last.resident_warps_sum = s->resident;
    s->last.active_cycles = s->resident != 0;
    return progress;
}

void sm_repeat_cycle_stats(sm *s, uint64_t n)
{
    if (s->n_inc == s->n_sched)
        s->slot_reps += n;   /* (every completed stage counts n_sched outcomes) */
    else
        slots_add(&s->st, s->slot_inc, s->n_inc, n);
    s->st.stall_cycles += n * s->last.stall_cycles;
    s->st.warps_in_flight_sum += n * s->last.warps_in_flight_sum;
    s->st.resident_warps_sum += n * s->last.resident_warps_sum;
    s->st.active_cycles += n * s->last.active_cycles;
    /* the last cycle's ldq increments (mostly the occupancy alone) */
    uint64_t d[6];
    if (ldq_last_inc(s->ldq, d))
        pipe_ldq_repeat(&s->st, d, n);
    else
        s->st.queue_occupancy_sum += n * d[4];
}

uint64_t sm_next_event(const sm *s, uint64_t cycle, uint64_t bound)
{
    if (bound <= cycle)
        return cycle + 1;
    uint64_t next = pipe_wheel_next(&s->wh, cycle, bound);
    uint64_t lk = ldq_next_lookup(s->ldq);   /* a lookup due in the L1D latency queue */
    if (lk > cycle && lk < next)
        next = lk;
    /* (instruction buffers become usable the cycle their fetch returns: a memory
     * event, so they need no scan here, except for a path switch cost) */
    if (s->dt.switch_cycles)
        for (uint32_t i = 0; i < s->n_slots; i++)
            if (s->w[i].p.used && s->w[i].p.ibuf && s->w[i].p.ibuf_ready > cycle && s->w[i].p.ibuf_ready < next)
                next = s->w[i].p.ibuf_ready;
    if (s->fu_max > cycle)   /* else every pipeline is free already */
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
        if (!w->p.used)
            continue;
        func_path p;
        int has = func_warp_where(fw, &p);
        uint32_t pc = has ? p.pc : 0;
        static const char *const st[] = {"ready", "barrier", "done", "fault"};
        k += (size_t)snprintf(buf + k, n - k,
                              "  warp slot %u (CTA %u, warp %u): pc %u (PTX line %u) %s, ibuf %u%s, "
                              "in flight %u (memory %u)\n", i, fw->cta ? fw->cta->linear : 0, fw->wid, pc,
                              has && fw->nfr ? s->L->prog->m->funcs[fw->fr[fw->nfr - 1].func].insns[pc < s->L->prog->m->funcs[fw->fr[fw->nfr - 1].func].n_insns ? pc : 0].line : 0,
                              st[fw->state], w->p.ibuf, w->p.fetching ? " (fetching)" : "", w->p.inflight, w->p.mem_inflight);
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
_Static_assert(FU__COUNT == sizeof ((ws_timing_stats *)0)->fu_busy / sizeof(uint64_t), "fu_busy[]");
_Static_assert(FU__COUNT == sizeof ((ws_timing_stats *)0)->fu_count / sizeof(uint32_t), "fu_count[]");

static void fermi_stats(const void *c, ws_timing_stats *t)
{
    const sm *sm_ = c;
    const ws_config *cfg = sm_->cfg;
    t->fu_count[FU_SP] = cfg->core.n_sp;
    t->fu_count[FU_SFU] = cfg->core.n_sfu;
    t->fu_count[FU_DP] = cfg->core.n_dp;
    t->fu_count[FU_LDST] = cfg->core.n_ldst;
    t->fu_count[FU_INT] = cfg->core.n_int;
    /* the LD/ST path's totals (the ldq's own counters: see struct sm) */
    pipe_stats st = sm_->st;
    slots_add(&st, sm_->slot_inc, sm_->n_sched, sm_->slot_reps);
    ldq_stats zero = {0};
    uint64_t d[6] = {0};
    pipe_ldq_add(&st, ldq_get_stats(sm_->ldq), &zero, d);
    pipe_stats_add(&st, t);
    for (int k = 0; k < FU__COUNT; k++)
        t->fu_busy[k] += sm_->fx.fu_busy[k];
    t->shared_conflict_cycles += sm_->fx.shared_conflict_cycles;
    t->rf_conflict_cycles += sm_->fx.rf_conflict_cycles;
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
