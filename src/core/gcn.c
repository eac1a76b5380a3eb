/* gcn.c - the AMD Graphics Core Next (Southern Islands) compute unit: the second core
 * model ("gcn", core_model.h), beside the Fermi SM of sm.c. SPEC 6; seed 004 ch. 4.
 *
 * Organisation of one CU:
 *   - gcn.simds SIMD units of gcn.simd_lanes lanes; a wavefront of gpu.warp_size
 *     work-items runs a vector instruction as passes = warp_size / simd_lanes
 *     sub-wavefronts, so its SIMD is busy `passes` cycles (x the class's rate) and the
 *     result is ready when the last pass ends. 64 / 16: 4 cycles.
 *   - wavefront slot w belongs to SIMD w mod simds. Slots are grouped by work-group
 *     slot (work-group k owns [k*W, (k+1)*W)), so a work-group's wavefronts spread
 *     over the SIMDs; occupancy keeps at most gcn.waves_per_simd per SIMD.
 *   - issue: each cycle SIMD (cycle mod simds) is selected (round robin); the
 *     scheduler policy orders its ready wavefronts (sched_order) and the CU issues up
 *     to gcn.issue_width of them, at most one per issue port, one per wavefront. The
 *     five ports (Multi2Sim's SI model, REFERENCE-HD7970 "max instructions issued per
 *     type per cycle: 1"): the SIMD (IT_VALU/SFU/DP), the scalar unit (IT_SALU and
 *     IT_SMEM), the branch unit (IT_BRANCH: branches, exit, barriers, fences), the LDS
 *     (IT_LDS) and the vector memory unit (IT_VMEM).
 *   - the scalar unit: instructions the uniformity analysis (ptx/uniform.c) marks
 *     UC_SALU run on the scalar ALU (gcn.salu_lat); UC_SMEM loads go through the
 *     scalar data cache (the L1C of the memory model) one request per 64 B line.
 *   - LDS: gcn.lds_banks banks of 4-byte words; conflicts are resolved per group of
 *     gcn.lds_group work-items: a group takes as many cycles as the most distinct words
 *     one bank must serve (the same word is a broadcast); the instruction occupies the
 *     LDS for the sum over groups, and its data arrives gcn.lds_lat cycles after that.
 *   - vector memory: addresses are coalesced per sub-wavefront of gcn.coalesce_lanes
 *     work-items into l1d.line requests (the seed's L1 coalescer), sent in order
 *     through the LD/ST request path (ldq.c) to the vector L1; an instruction is done
 *     when its last request is; at most gcn.vmem_inflight instructions are in flight.
 *   - barriers: a work-group of several wavefronts holds one of gcn.barrier_slots.
 *
 * Functional execution happens at issue (func_warp_step_path), results never depend
 * on timing. Scoreboard, timing wheel, writeback, memory instructions and requests, CTA
 * slots, coalescing, LDS bank cycles and fetch requests are core/pipe.c's, shared with
 * sm.c; nothing is allocated per cycle once the pools have grown to the launch's need.
 *
 * Issue-stage cost: per SIMD a summary counts the wavefronts whose cached verdict
 * stands (simd_outcome); only wavefronts with an event since (wave_touch) are
 * examined again, and the full scan that builds the candidates runs only when one is
 * ready.
 *
 * Idle skipping: after a cycle that made no progress, each SIMD whose wavefronts are
 * all blocked on events (scoreboard, barrier, empty buffer, memory pipeline) has a
 * lost-slot cause that is fixed until an event; a SIMD with a ready or unit-waiting
 * wavefront is `hot` and its next turn is not skipped. repeat_cycle_stats charges the
 * skipped cycles to the SIMDs round robin exactly as running them would.
 */
#include "core/core_model.h"
#include "core/insn_table.h"
#include "core/ldq.h"
#include "core/pipe.h"
#include "core/slotset.h"
#include "ptx/uniform.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parameters (section [gcn], this model's own rows) ------------------------------ */
typedef struct {
    uint32_t simds, simd_lanes, waves_per_simd, issue_width;
    uint32_t rate_imul, rate_trans, rate_dp, rate_div;
    uint32_t salu_lat, lds_lat, lds_banks, lds_group, coalesce_lanes, vmem_cycles;
    uint32_t vmem_inflight, barrier_slots, sgprs_per_simd, sgprs_per_wave;
    int scalar_unit;
} gcn_params;

#define P(key, f, def, lo, hi, unit, desc) \
    {"gcn", key, WS_CT_UINT, offsetof(gcn_params, f), def, lo, hi, NULL, unit, desc}
static const ws_cfg_param gcn_rows[] = {
    P("simds", simds, "4", 1, 16, "SIMDs", "SIMD units per CU [SPEC6: 4]"),
    P("simd_lanes", simd_lanes, "16", 1, 64, "lanes",
      "lanes per SIMD: a wavefront takes warp_size / simd_lanes cycles per vector instruction [SPEC6: 16]"),
    P("waves_per_simd", waves_per_simd, "10", 1, 64, "wavefronts",
      "wavefront slots (PC + instruction buffer) per SIMD [SPEC6: 10]"),
    P("issue_width", issue_width, "5", 1, 5, "insts",
      "instructions issued per cycle from the selected SIMD, one per port and wavefront [SPEC6: 5]"),
    P("rate_imul", rate_imul, "4", 1, 64, "x",
      "32-bit integer multiply: SIMD cycles per pass (quarter rate) [GCNISA v_mul_lo_u32]"),
    P("rate_trans", rate_trans, "4", 1, 64, "x",
      "transcendentals (rcp, sqrt, sin, ex2 ...): SIMD cycles per pass (quarter rate) [GCNISA]"),
    P("rate_dp", rate_dp, "4", 1, 64, "x", "double precision: SIMD cycles per pass (HD7970: 1/4 rate) [AMD79]"),
    P("rate_div", rate_div, "16", 1, 256, "x",
      "division and remainder (an instruction sequence on GCN): SIMD cycles per pass (choice)"),
    P("salu_lat", salu_lat, "4", 1, 64, "cycles",
      "scalar ALU latency: a dependent scalar instruction waits this long [M2S SI scalar ALU: 4]"),
    P("lds_lat", lds_lat, "2", 1, 1000, "cycles", "LDS latency after the bank cycles [M2S SI: 2]"),
    P("lds_banks", lds_banks, "32", 1, 64, "banks", "LDS banks of 4-byte words [SPEC6: 32]"),
    P("lds_group", lds_group, "32", 1, 64, "work-items",
      "work-items whose LDS bank conflicts are resolved together [seed 004 ch. 4.1.3: 32]"),
    P("coalesce_lanes", coalesce_lanes, "16", 1, 64, "work-items",
      "vector memory coalescing group: a sub-wavefront [seed 004 ch. 4.1.4: 16]"),
    P("vmem_cycles", vmem_cycles, "4", 1, 64, "cycles",
      "vector memory unit: cycles per instruction (one sub-wavefront's addresses per cycle) (choice)"),
    P("vmem_inflight", vmem_inflight, "32", 1, 4096, "insts",
      "vector memory instructions in flight per CU [M2S SI vector memory: max 32 in flight]"),
    P("barrier_slots", barrier_slots, "16", 1, 64, "work-groups",
      "barrier slots per CU: work-groups of several wavefronts resident at once [SPEC6: 16]"),
    P("sgprs_per_simd", sgprs_per_simd, "512", 16, 65536, "registers",
      "scalar registers per SIMD, shared by its wavefronts [seed 004 ch. 4.1.2: 512]"),
    P("sgprs_per_wave", sgprs_per_wave, "0", 0, 112, "registers",
      "scalar registers per wavefront for occupancy; 0 = uniform registers the kernel writes + 16, "
      "at most 104 [seed 004: at most 112]"),
    {"gcn", "scalar_unit", WS_CT_BOOL, offsetof(gcn_params, scalar_unit), "true", 0, 1, NULL, "",
     "run uniform instructions (ptx/uniform.c) on the scalar unit; false: everything vector"},
    {NULL, NULL, 0, 0, NULL, 0, 0, NULL, NULL, NULL},
};
#undef P
static const ws_cfg_table gcn_table = {"gcn", gcn_rows, sizeof(gcn_params)};

/* Issue ports. */
enum { PORT_SIMD, PORT_SCALAR, PORT_BRANCH, PORT_LDS, PORT_VMEM, PORT__N };
static const uint8_t port_of[IT__COUNT] = {
    [IT_VALU] = PORT_SIMD, [IT_SFU] = PORT_SIMD, [IT_DP] = PORT_SIMD, [IT_VMEM] = PORT_VMEM,
    [IT_LDS] = PORT_LDS, [IT_SMEM] = PORT_SCALAR, [IT_SALU] = PORT_SCALAR, [IT_BRANCH] = PORT_BRANCH,
};

/* ---- per-launch tables ------------------------------------------------------------- */
typedef struct {
    uint8_t type;     /* issue_type on this core                                */
    uint8_t scalar;   /* uni_class of the instruction                           */
    uint16_t busy;    /* SIMD cycles (VALU) / unit cycles                       */
    uint16_t lat;     /* cycles from issue to result (non-memory)               */
} gcn_info;

typedef struct {
    gcn_params p;
    insn_table it;
    gcn_info **gi;    /* [function][insn]                                       */
    uint32_t n_funcs;
} gcn_shared;

static void gcn_launch_destroy(void *sh)
{
    gcn_shared *g = sh;
    if (!g)
        return;
    insn_table_free(&g->it);
    for (uint32_t i = 0; g->gi && i < g->n_funcs; i++)
        free(g->gi[i]);
    free(g->gi);
    free(g);
}

static void *gcn_launch_create(const ws_config *cfg, const void *params, const func_launch *L)
{
    gcn_shared *g = calloc(1, sizeof *g);
    const ptx_module *m = L->prog->m;
    if (!g || !params || insn_table_build(&g->it, m, cfg))
        goto fail;
    g->p = *(const gcn_params *)params;
    g->n_funcs = m->n_funcs;
    if (!(g->gi = calloc(m->n_funcs ? m->n_funcs : 1, sizeof *g->gi)))
        goto fail;
    uint32_t passes = (cfg->gpu.warp_size + g->p.simd_lanes - 1) / g->p.simd_lanes;
    for (uint32_t fi = 0; fi < m->n_funcs; fi++) {
        const ptx_func *f = &m->funcs[fi];
        if (f->is_decl)
            continue;
        if (!(g->gi[fi] = calloc(f->n_insns ? f->n_insns : 1, sizeof **g->gi)))
            goto fail;
        ptx_uniform u;
        if (ptx_uniform_analyze(m, f, &u))
            goto fail;
        for (uint32_t k = 0; k < f->n_insns; k++) {
            const insn_info *ii = &g->it.info[fi][k];
            gcn_info *gi = &g->gi[fi][k];
            uint8_t t = ii->type;
            uint32_t rate = 1;
            switch (ii->cls) {
            case IC_IMUL: rate = g->p.rate_imul; break;
            case IC_IDIV: case IC_FDIV: case IC_DDIV: rate = g->p.rate_div; break;
            case IC_SFU: rate = g->p.rate_trans; break;
            case IC_DP: rate = g->p.rate_dp; break;
            default: break;
            }
            gi->scalar = u.cls[k];
            if (g->p.scalar_unit && u.cls[k] == UC_SALU && t == IT_VALU)
                t = IT_SALU;
            else if (t == IT_SMEM && !(g->p.scalar_unit && u.cls[k] == UC_SMEM))
                t = IT_VMEM;   /* a per-lane constant / parameter load: a vector load */
            else if (t == IT_VMEM && g->p.scalar_unit && u.cls[k] == UC_SMEM)
                t = IT_SMEM;   /* uniform read-only global load: scalar memory */
            gi->type = t;
            uint32_t busy = t == IT_SALU || t == IT_BRANCH ? 1 : passes * rate;
            uint32_t lat = t == IT_SALU ? g->p.salu_lat : t == IT_BRANCH ? 1 : busy;
            gi->busy = (uint16_t)(busy > 65535 ? 65535 : busy);
            gi->lat = (uint16_t)(lat > 65535 ? 65535 : lat);
        }
        ptx_uniform_free(&u);
    }
    return g;
fail:
    gcn_launch_destroy(g);
    return NULL;
}

/* ---- occupancy ---------------------------------------------------------------------- */
/* Work-groups per CU from the wavefront slots (waves_per_simd per SIMD, gpu limits),
 * VGPRs (gpu.regs_per_sm split over the SIMDs, gpu.reg_alloc_unit per wavefront),
 * SGPRs (sgprs_per_simd), LDS (gpu.shared_per_sm) and barrier slots. */
static occupancy gcn_occupancy(const ws_config *cfg, const void *params, const ptx_module *m,
                               const ptx_func *k, uint32_t cta_threads, uint32_t smem_per_cta)
{
    occupancy o = occupancy_compute(cfg, m, k, cta_threads, smem_per_cta);
    if (!params) {
        o.ctas_per_sm = 0;
        o.limiter = "gcn parameters";
        return o;
    }
    const gcn_params p = *(const gcn_params *)params;
    uint32_t ws = cfg->gpu.warp_size, W = (cta_threads + ws - 1) / ws;
    uint32_t lim = o.ctas_per_sm;
    /* wavefront slots: slot w on SIMD w mod simds, so n slots put ceil(n/simds) on one */
    uint32_t by_slots = p.waves_per_simd * p.simds / W;
    if (by_slots < lim) { lim = by_slots; o.limiter = "wavefront slots"; }
    /* VGPRs per SIMD, in wavefronts */
    uint32_t unit = cfg->gpu.reg_alloc_unit ? cfg->gpu.reg_alloc_unit : 1;
    uint32_t per_wave = (o.regs_per_thread * ws + unit - 1) / unit * unit;
    uint32_t vw = per_wave ? cfg->gpu.regs_per_sm / p.simds / per_wave : p.waves_per_simd;
    if (vw * p.simds / W < lim) { lim = vw * p.simds / W; o.limiter = "vgprs"; }
    /* SGPRs per SIMD */
    uint32_t sg = p.sgprs_per_wave;
    if (!sg) {
        uint32_t n = 0;
        ptx_uniform u;
        if (k->cfg && !ptx_uniform_analyze(m, k, &u)) {
            /* uniform registers that some instruction writes, in 32-bit units */
            for (uint32_t i = 0; i < k->n_insns; i++) {
                uint32_t dst[8], src[16], nd = 8, ns = 16;
                ptx_insn_regs(m, &k->insns[i], dst, &nd, src, &ns);
                for (uint32_t d = 0; d < nd; d++) {
                    uint32_t r = dst[d];
                    if (r < u.n_regs && u.reg_uniform[r] && k->regs[r].type != PT_PRED) {
                        n += (ptx_type_size[k->regs[r].type] + 3) / 4;
                        u.reg_uniform[r] = 0;   /* count each register once */
                    }
                }
            }
            ptx_uniform_free(&u);
        }
        sg = n + 16 < 104 ? n + 16 : 104;
    }
    uint32_t sw = p.sgprs_per_simd / sg;
    if (sw * p.simds / W < lim) { lim = sw * p.simds / W; o.limiter = "sgprs"; }
    if (W > 1 && p.barrier_slots < lim) { lim = p.barrier_slots; o.limiter = "barrier slots"; }
    o.ctas_per_sm = lim;
    return o;
}

/* ---- CU state ------------------------------------------------------------------------ */
/* Keys of the per-SIMD summary: a wavefront whose own part is clear, by the issue port
 * of its next instruction (0 .. PORT__N-1), or the event it waits for. */
enum { KEY_IBUF = PORT__N, KEY_SCOREBOARD, KEY_BARRIER, KEY__N, KEY_NONE = 0xff };
typedef struct {
    pipe_warp p;                /* buffer, cached own verdict, in flight, scoreboard */
    uint8_t key;                /* where the SIMD summary counts it (KEY_*, KEY_NONE) */
    const gcn_info *cached_gi;  /* this model's facts of p.cached_info             */
} gwave;

/* This model's own counters (pipe_stats has the ones both models count). */
typedef struct {
    uint64_t issued_type[IT__COUNT], issue_hist[6];
    uint64_t simd_busy, vmem_busy, lds_busy, lane_accesses, lds_conflict_cycles;
} gcn_stats;

typedef struct {
    uint32_t id;
    const ws_config *cfg;
    const gcn_params *p;
    func_launch *L;
    const gcn_shared *sh;
    memsys *mem;
    pipe_pop_gate pop;          /* mem's pop_t word of this CU (writeback)          */
    const sched_ops *pol;
    void **pst;                 /* policy state per SIMD                            */
    uint32_t ws, cta_warps, max_ctas, n_slots, simds, passes;
    gwave *w;
    func_warp *fw;
    pipe_cta *wg;
    uint32_t wg_live;      /* work-group slots in use: taken minus retired        */
    uint32_t resident;
    uint64_t *simd_free;        /* per SIMD: first cycle it accepts a VALU insn      */
    uint64_t unit_free[PORT__N];/* scalar, branch, LDS, vector memory (SIMD unused)  */
    pipe_wheel wh;              /* completions of fixed-latency work                 */
    pipe_minsts mi;             /* memory instructions in flight (kind 1: vector)    */
    uint32_t vmem_inflight;
    pipe_rq rq;
    ldq *vq, *sq;               /* vector memory (L1D), scalar memory (L1C)           */
    ldq_stats vq_prev, sq_prev;
    int vstalled;
    exec_trace tr;
    sched_cand *cand;
    const insn_info **infos;
    uint32_t *order;
    uint64_t *want;             /* bit w: wavefront slot w has an empty buffer to fill */
    uint32_t fetch_rr, warps_inflight, maybe_done;
    pipe_space space;
    /* idle skipping */
    uint32_t hot;               /* bit k: a wavefront of SIMD k was ready or waited
                                   for a unit in the last idle cycle                 */
    uint64_t last_cycle;
    uint8_t idle_reason[16];    /* per SIMD: slot outcome of an idle cycle; WR__COUNT:
                                   no wavefront (idle slot)                          */
    uint64_t last_ldq[6];       /* ldq-derived counters of the last cycle            */
    /* Per-SIMD summary of the wavefronts' own verdicts (see simd_outcome): cnt[k][key]
     * counts SIMD k's wavefronts whose cached verdict stands until an event of theirs,
     * by KEY_*; bit i of redo[k] marks wavefront slot i * simds + k for re-examination
     * (touched since, or a verdict that is not cached). */
    uint16_t cnt[16][KEY__N];
    uint8_t nz[16];             /* bit key of nz[k]: cnt[k][key] != 0                 */
    uint64_t redo[16];
    pipe_stats st;
    gcn_stats gx;
} gcn_cu;

/* The summary of SIMD q stops counting wavefront w. */
static inline void uncount(gcn_cu *s, uint32_t q, gwave *w)
{
    if (--s->cnt[q][w->key] == 0)
        s->nz[q] &= (uint8_t)~(1u << w->key);
    w->key = KEY_NONE;
}

/* A wavefront's own verdict may have changed (an event of it): readiness() re-examines
 * it, and until then its SIMD's summary does not count it. */
static inline void wave_touch(gcn_cu *s, uint32_t slot)
{
    gwave *w = &s->w[slot];
    w->p.dirty = 1;
    if (w->key != KEY_NONE)
        uncount(s, slot % s->simds, w);
    s->redo[slot % s->simds] |= 1ull << (slot / s->simds);
}

/* Wavefront `slot` leaves (retired): out of the summary. */
static inline void wave_drop(gcn_cu *s, uint32_t slot)
{
    gwave *w = &s->w[slot];
    if (w->key != KEY_NONE)
        uncount(s, slot % s->simds, w);
    s->redo[slot % s->simds] &= ~(1ull << (slot / s->simds));
}

static void want_set(gcn_cu *s, uint32_t w) { slotset_add(s->want, w); }
static void want_clr(gcn_cu *s, uint32_t w) { slotset_del(s->want, w); }

static void gcn_destroy(void *c)
{
    gcn_cu *s = c;
    if (!s)
        return;
    for (uint32_t i = 0; s->pst && i < s->simds; i++)
        if (s->pst[i])
            s->pol->destroy(s->pst[i]);
    for (uint32_t i = 0; s->wg && i < s->max_ctas; i++)
        free(s->wg[i].shared);
    for (uint32_t i = 0; s->fw && i < s->n_slots; i++)
        func_warp_fini(&s->fw[i]);
    for (uint32_t i = 0; s->w && i < s->n_slots; i++)
        pipe_sb_fini(&s->w[i].p.sb);
    ldq_forget(s->vq);   /* their requests are among rq's */
    ldq_forget(s->sq);
    pipe_rq_fini(&s->rq);
    ldq_destroy(s->vq);
    ldq_destroy(s->sq);
    free(s->pst);
    free(s->w);
    free(s->fw);
    free(s->wg);
    free(s->simd_free);
    pipe_wheel_fini(&s->wh);
    pipe_minsts_fini(&s->mi);
    free(s->tr.a);
    free(s->cand);
    free(s->infos);
    free(s->order);
    free(s->want);
    free(s);
}

static void *gcn_create(uint32_t id, const core_launch *cl)
{
    gcn_cu *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    const gcn_shared *sh = cl->shared;
    const ws_config *cfg = cl->cfg;
    s->id = id;
    s->cfg = cfg;
    s->sh = sh;
    s->p = &sh->p;
    s->L = cl->L;
    s->mem = cl->mem;
    s->pop = pipe_pop_gate_of(cl->mem, id);
    s->pol = cl->pol;
    s->ws = cl->L->ws;
    s->cta_warps = cl->L->cta_warps;
    s->max_ctas = cl->max_ctas;
    s->n_slots = s->max_ctas * s->cta_warps;
    s->simds = s->p->simds < 16 ? s->p->simds : 16;
    s->passes = (s->ws + s->p->simd_lanes - 1) / s->p->simd_lanes;
    s->w = calloc(s->n_slots, sizeof *s->w);
    s->fw = calloc(s->n_slots, sizeof *s->fw);
    s->wg = calloc(s->max_ctas, sizeof *s->wg);
    s->cand = calloc(s->n_slots, sizeof *s->cand);
    s->infos = calloc(s->n_slots, sizeof *s->infos);
    s->order = calloc(s->n_slots, sizeof *s->order);
    s->want = calloc((s->n_slots + 63) / 64, sizeof *s->want);
    s->pst = calloc(s->simds, sizeof *s->pst);
    s->simd_free = calloc(s->simds, sizeof *s->simd_free);
    if (!s->w || !s->fw || !s->wg || !s->cand || !s->infos || !s->order || !s->want || !s->pst || !s->simd_free)
        goto fail;
    for (uint32_t i = 0; i < s->simds; i++)
        if (!(s->pst[i] = s->pol->create(s->n_slots, cl->sp)))
            goto fail;
    for (uint32_t i = 0; i < s->max_ctas; i++)
        if (!(s->wg[i].shared = calloc(s->L->shared_bytes ? s->L->shared_bytes : 1, 1)))
            goto fail;
    uint32_t maxlat = cfg->core.lat_const + 64;
    for (uint32_t fi = 0; fi < sh->n_funcs; fi++)
        for (uint32_t k = 0; sh->gi[fi] && k < s->L->prog->m->funcs[fi].n_insns; k++)
            if (sh->gi[fi][k].lat > maxlat)
                maxlat = sh->gi[fi][k].lat;
    maxlat += s->p->lds_lat + 64 * 64 / (s->p->lds_group ? s->p->lds_group : 1) + s->p->salu_lat;
    if (pipe_wheel_init(&s->wh, maxlat))
        goto fail;
    s->tr.cap = 64;
    s->tr.rep = 0;
    if (!(s->tr.a = calloc(64, sizeof *s->tr.a)))
        goto fail;
    pipe_minsts_init(&s->mi);
    uint32_t line = cfg->l1d.line ? cfg->l1d.line : 64;
    uint32_t sets = cfg->l1d.size / (line * (cfg->l1d.ways ? cfg->l1d.ways : 1));
    uint32_t cline = cfg->l1c.line ? cfg->l1c.line : 64;
    uint32_t csets = cfg->l1c.size / (cline * (cfg->l1c.ways ? cfg->l1c.ways : 1));
    if (!(s->vq = ldq_create(cfg->l1d.request_queues, cfg->l1d.queue_depth, cfg->l1d.sets_per_queue,
                             sets ? sets : 1, line)) ||
        !(s->sq = ldq_create(0, cfg->l1d.queue_depth, 0, csets ? csets : 1, cline)))
        goto fail;
    pipe_space_init(&s->space, id, s->n_slots, s->ws);
    s->last_cycle = UINT64_MAX;
    return s;
fail:
    gcn_destroy(s);
    return NULL;
}

/* ---- work-group placement -------------------------------------------------------------- */
static int gcn_can_take_cta(const void *c)
{
    const gcn_cu *s = c;
    return s->wg_live < s->max_ctas;
}

static int gcn_take_cta(void *c, uint32_t linear, uint64_t cycle)
{
    gcn_cu *s = c;
    int k = pipe_cta_take(s->wg, s->max_ctas, s->fw, s->cta_warps, s->L, linear, s->id);
    if (k < 0)
        return -1;
    s->wg_live++;
    for (uint32_t i = 0; i < s->cta_warps; i++) {
        uint32_t slot = (uint32_t)k * s->cta_warps + i;
        gwave *w = &s->w[slot];
        pipe_warp_start(&w->p, cycle);
        w->key = KEY_NONE;
        want_set(s, slot);
        wave_touch(s, slot);
        s->resident++;
        if (s->pol->on_warp_start)
            s->pol->on_warp_start(s->pst[slot % s->simds], slot, cycle);
    }
    return 0;
}

static int gcn_busy(const void *c)
{
    const gcn_cu *s = c;
    return s->resident || ldq_len(s->vq) || ldq_len(s->sq);
}

/* ---- completions ----------------------------------------------------------------------- */
static uint32_t reg_base(const gcn_cu *s, uint32_t slot) { return pipe_reg_base(&s->fw[slot], s->ws); }

static void insn_done(void *c, uint32_t slot, const uint32_t *regs, uint32_t n, int is_mem, uint64_t cycle)
{
    gcn_cu *s = c;
    gwave *w = &s->w[slot];
    wave_touch(s, slot);
    if (pipe_warp_complete(&w->p, regs, n, is_mem)) {
        s->warps_inflight--;
        if (s->fw[slot].state == WARP_DONE)
            s->maybe_done++;   /* drained after its exit: retire() frees it */
    }
    if (is_mem == 2 && s->pol->on_mem_done)
        s->pol->on_mem_done(s->pst[slot % s->simds], slot, cycle);
}

static void minst_done(void *c, uint32_t i, uint64_t cycle)
{
    gcn_cu *s = c;
    pipe_minst *m = &s->mi.a[i];
    if (m->kind) {
        /* memory latency per vector memory instruction: issue to its last access */
        pipe_lat_record(&s->st, cycle - m->t_issue);
        s->vmem_inflight--;
    }
    insn_done(s, m->slot, m->regs, m->n, 2, cycle);
    pipe_minst_free(&s->mi, i);
}

static void fetched(void *c, uint32_t slot, uint32_t n, uint64_t cycle)
{
    gcn_cu *s = c;
    gwave *w = &s->w[slot];
    w->p.fetching = 0;
    w->p.ibuf = (uint8_t)n;
    w->p.ibuf_ready = cycle;
    wave_touch(s, slot);
}

static const pipe_wb_ops gcn_wb = {insn_done, fetched, minst_done};

/* ---- writeback and memory queues --------------------------------------------------------- */
static int writeback(gcn_cu *s, uint64_t cycle)
{
    return pipe_writeback(&s->wh, &s->mi, &s->rq, s->mem, s->id, &s->pop, cycle, &gcn_wb, s);
}

/* One cycle of both request paths. An empty one is skipped: its cycle would change
 * nothing (no occupancy to add, nothing to send). */
static int queues(gcn_cu *s, uint64_t cycle)
{
    int progress = 0, st = 0;
    memset(s->last_ldq, 0, sizeof s->last_ldq);
    s->vstalled = 0;
    if (ldq_len(s->vq)) {
        progress |= ldq_cycle(s->vq, s->mem, cycle, &st);
        s->vstalled = st;
        pipe_ldq_add(&s->st, ldq_get_stats(s->vq), &s->vq_prev, s->last_ldq);
    }
    if (ldq_len(s->sq)) {
        progress |= ldq_cycle(s->sq, s->mem, cycle, &st);
        pipe_ldq_add(&s->st, ldq_get_stats(s->sq), &s->sq_prev, s->last_ldq);
    }
    return progress;
}

/* ---- readiness ---------------------------------------------------------------------------- */

/* Which of the units all SIMDs share take an instruction now: bit p for a free issue
 * port p (scalar, branch, LDS, vector memory), bit PORT__N for a vector memory path
 * that is not stalled (request path accepting, queue below core.ldst_queue,
 * gcn.vmem_inflight not reached). Constant during one SIMD's scan: only an issue
 * changes it. */
static uint32_t units_shared(const gcn_cu *s, uint64_t cycle)
{
    uint32_t m = 0;
    for (uint32_t p = PORT_SCALAR; p < PORT__N; p++)
        m |= (uint32_t)(s->unit_free[p] <= cycle) << p;
    if (!s->vstalled && ldq_staged(s->vq) < s->cfg->core.ldst_queue && s->vmem_inflight < s->p->vmem_inflight)
        m |= 1u << PORT__N;
    return m;
}

/* units_shared() plus SIMD q's own bit. */
static inline uint32_t unit_mask(const gcn_cu *s, uint32_t q, uint64_t cycle, uint32_t shared)
{
    return shared | (s->simd_free[q] <= cycle ? 1u << PORT_SIMD : 0);
}

/* Whether an instruction of issue type t can go to its unit, given unit_mask(). */
static uint8_t unit_check(uint8_t t, uint32_t units)
{
    uint8_t p = port_of[t];
    if (p == PORT_VMEM && !(units & (1u << PORT__N)))
        return WR_MEM_STALL;
    return units & (1u << p) ? WR_READY : WR_UNIT_BUSY;
}

static uint8_t readiness(gcn_cu *s, uint32_t slot, uint64_t cycle, uint32_t units, const insn_info **info)
{
    gwave *w = &s->w[slot];
    func_warp *fw = &s->fw[slot];
    uint8_t own = pipe_warp_cached(&w->p, cycle, info);
    if (own != WR__COUNT)
        return own == WR_READY ? unit_check(w->cached_gi->type, units) : own;
    if ((own = pipe_warp_examine(&w->p, fw, cycle)) != WR_READY)
        return own;
    const func_path *p = func_warp_selected(fw);
    uint32_t pc = p->pc;
    int32_t fn = fw->fr[fw->nfr - 1].func;
    if (fn != w->p.ibuf_func || pc != w->p.ibuf_pc || p->id != w->p.ibuf_path) {
        w->p.ibuf = 0;
        want_set(s, slot);
        w->p.cached = WR_IBUF_EMPTY;
        return WR_IBUF_EMPTY;
    }
    const insn_info *ii = &s->sh->it.info[fn][pc];
    *info = ii;
    w->p.cached_info = ii;
    w->cached_gi = &s->sh->gi[fn][pc];
    if (pipe_sb_busy(&w->p.sb, reg_base(s, slot), ii) || (ii->cls == IC_CALL && w->p.inflight)) {
        w->p.cached = WR_SCOREBOARD;
        return WR_SCOREBOARD;
    }
    if (ii->cls == IC_MEMBAR && w->p.mem_inflight)
        return WR_BARRIER;
    w->p.cached = WR_READY;
    return unit_check(w->cached_gi->type, units);
}

/* ---- memory instructions ------------------------------------------------------------------- */
/* Vector (coalesce per sub-wavefront of coalesce_lanes, l1d.line requests, vector L1)
 * or scalar (one request per distinct l1c.line, scalar cache) memory instruction. */
static int issue_mem(gcn_cu *s, uint32_t slot, const insn_info *ii, uint32_t base, const ptx_insn *in,
                     int scalar, uint64_t cycle)
{
    const uint32_t line = scalar ? (s->cfg->l1c.line ? s->cfg->l1c.line : 64)
                                 : (s->cfg->l1d.line ? s->cfg->l1d.line : 64);
    const uint32_t grp = scalar ? s->ws : s->p->coalesce_lanes;
    uint32_t regs[4];
    if (pipe_sb_pend(&s->w[slot].p.sb, base, ii, regs))
        return -1;
    if (s->tr.n == 0)
        return pipe_wheel_add(&s->wh, cycle + 1, slot, regs, ii->n_dst, 2);
    uint32_t mi = pipe_minst_new(&s->mi);
    if (mi == UINT32_MAX)
        return -1;
    pipe_minst *m = &s->mi.a[mi];
    m->slot = slot;
    m->n = ii->n_dst;
    m->kind = (uint8_t)!scalar;
    memcpy(m->regs, regs, sizeof regs);
    m->t_issue = cycle;
    if (!scalar) {
        s->vmem_inflight++;
        s->st.mem_insts++;
        s->gx.lane_accesses += s->tr.n;
    }
    const mem_req proto = {.kind = pipe_req_kind(in),
                           .space = scalar ? SP_CONST : pipe_req_space(s->tr.a[0].space),
                           .cop = in->cop, .sm = s->id, .warp = slot, .tag = mi, .t_issue = cycle};
    /* the groups' requests one group after the other */
    uint64_t seg[64];
    uint32_t used[64], first[65];
    m->outstanding = pipe_coalesce_groups(&s->space, &s->tr, slot, grp, line, seg, used, first);
    return pipe_mem_push(&s->rq, scalar ? s->sq : s->vq, seg, used, m->outstanding, line, &proto, cycle,
                         scalar ? NULL : &s->st);
}

/* ---- issue ----------------------------------------------------------------------------------- */
static int issue(gcn_cu *s, uint32_t slot, uint32_t path, const insn_info *ii, uint64_t cycle)
{
    gwave *w = &s->w[slot];
    func_warp *fw = &s->fw[slot];
    const func_path *pp = func_warp_path(fw, path);
    uint32_t pc = pp->pc;
    uint64_t mask = pp->mask;
    int32_t fn = fw->fr[fw->nfr - 1].func;
    const ptx_insn *in = &s->L->prog->m->funcs[fn].insns[pc];
    const gcn_info *gi = &s->sh->gi[fn][pc];
    uint32_t base = reg_base(s, slot);
    fw->clock = cycle;
    exec_ctrl rc = func_warp_step_path(fw, path, ii->is_mem ? &s->tr : NULL);
    if (ii->is_mem)
        exec_trace_flat(&s->tr);   /* (the compact form written out: GCN reads records one by one) */
    if (rc == EX_FAULT)
        return -1;
    s->st.issued++;
    s->gx.issued_type[gi->type]++;
    s->st.thread_insts += func_lane_count(mask);
    wave_touch(s, slot);
    if (w->p.inflight++ == 0)
        s->warps_inflight++;
    if (fw->state == WARP_DONE)
        s->maybe_done++;
    if (s->pol->on_issue)
        s->pol->on_issue(s->pst[slot % s->simds], slot, ii->is_mem, cycle);
    if (--w->p.ibuf)
        pipe_warp_continue(&w->p, func_warp_selected(fw), path, pc, fn, fw->fr[fw->nfr - 1].func);
    if (!w->p.ibuf)
        want_set(s, slot);
    uint32_t regs[4];
    int rcode = 0;
    uint8_t port = port_of[gi->type];
    if (ii->is_mem) {
        w->p.mem_inflight++;
        int space = s->tr.n ? s->tr.a[0].space : SP_GLOBAL;
        int atomic = in->op == OP_ATOM || in->op == OP_RED;
        if (space == SP_SHARED) {
            uint32_t cyc = s->tr.n ? pipe_bank_cycles(&s->tr, s->ws, s->p->lds_group, s->p->lds_banks, atomic) : 1;
            uint32_t min = (s->ws + s->p->lds_group - 1) / s->p->lds_group;
            s->gx.lds_conflict_cycles += cyc > min ? cyc - min : 0;
            s->gx.lds_busy += cyc;
            s->unit_free[port] = cycle + cyc;
            if (pipe_sb_pend(&w->p.sb, base, ii, regs))
                return -1;
            rcode = pipe_wheel_add(&s->wh, cycle + cyc + s->p->lds_lat, slot, regs, ii->n_dst, 1);
        } else if (gi->type == IT_SMEM) {
            rcode = issue_mem(s, slot, ii, base, in, 1, cycle);
            s->unit_free[port] = cycle + 1;
        } else if (ii->cls == IC_MEM_PARAM && space != SP_PARAM) {
            /* call-site .param variables live in the frame: register-like, core.lat_const */
            if (pipe_sb_pend(&w->p.sb, base, ii, regs))
                return -1;
            rcode = pipe_wheel_add(&s->wh, cycle + s->cfg->core.lat_const, slot, regs, ii->n_dst, 1);
            s->unit_free[port] = cycle + 1;
        } else {
            rcode = issue_mem(s, slot, ii, base, in, 0, cycle);
            s->unit_free[port] = cycle + s->p->vmem_cycles;
            s->gx.vmem_busy += s->p->vmem_cycles;
        }
    } else {
        if (pipe_sb_pend(&w->p.sb, base, ii, regs))
            return -1;
        rcode = pipe_wheel_add(&s->wh, cycle + gi->lat, slot, regs, ii->n_dst, 0);
        if (port == PORT_SIMD) {
            s->simd_free[slot % s->simds] = cycle + gi->busy;
            s->gx.simd_busy += gi->busy;
        } else {
            s->unit_free[port] = cycle + gi->busy;
        }
    }
    if ((rc == EX_BARRIER || rc == EX_EXIT || rc == EX_RET) &&
        func_cta_try_release(fw->cta, s->fw + (slot / s->cta_warps) * s->cta_warps, s->cta_warps))
        for (uint32_t i = 0; i < s->cta_warps; i++)
        {
            uint32_t v = (slot / s->cta_warps) * s->cta_warps + i;
            wave_touch(s, v);
            if (s->w[v].p.used && !s->w[v].p.fetching && !s->w[v].p.ibuf)
                want_set(s, v);   /* fetch dropped it while at the barrier */
        }
    return rcode;
}

/* ---- fetch --------------------------------------------------------------------------------- */
/* Up to core.fetch_per_cycle wavefronts with an empty buffer fetch, round robin, each
 * up to core.ibuf_entries instructions (stopping after a control one) through the L1I. */
static int fetch(gcn_cu *s, uint64_t cycle)
{
    int progress = 0;
    uint32_t budget = s->cfg->core.fetch_per_cycle;
    /* the wavefronts with an empty buffer (want bits), round robin from fetch_rr: the
     * set bits of [rr, n), then of [0, rr) */
    const uint32_t n = s->n_slots, rr = s->fetch_rr;
    for (uint32_t lap = 0; lap < 2; lap++)
    for (uint32_t cur = slotset_next(s->want, n, lap ? 0 : rr); cur < (lap ? rr : n) && budget;
         cur = slotset_next(s->want, n, cur + 1)) {
        gwave *w = &s->w[cur];
        func_warp *fw = &s->fw[cur];
        if (!w->p.used || w->p.fetching || w->p.ibuf) {
            want_clr(s, cur);
            continue;
        }
        if (fw->state != WARP_READY) {
            /* done, or at a barrier: the release sets the bit again (issue) */
            want_clr(s, cur);
            continue;
        }
        const func_path *p = func_warp_selected(fw);
        if (!p)
            continue;
        uint32_t pc = p->pc;
        int32_t fn = fw->fr[fw->nfr - 1].func;
        uint32_t k = pipe_fetch_len(&s->sh->it, &s->L->prog->m->funcs[fn], fn, pc, s->cfg->core.ibuf_entries);
        int sent = pipe_ifetch(&s->rq, s->mem, s->id, cur, fn, pc, k, cycle, &s->st);
        if (sent <= 0)
            return sent < 0 ? -1 : progress;
        pipe_warp_fetching(&w->p, fn, pc, p->id);
        want_clr(s, cur);
        budget--;
        progress = 1;
        s->fetch_rr = (cur + 1) % s->n_slots;
    }
    return progress;
}

/* Wavefront `slot` leaves if it finished and drained (pipe_cta_retire). */
static int leave(void *c, uint32_t slot, uint64_t cycle)
{
    gcn_cu *s = c;
    gwave *w = &s->w[slot];
    if (!pipe_warp_gone(&w->p, &s->fw[slot]))
        return 0;
    w->p.used = 0;
    wave_drop(s, slot);
    want_clr(s, slot);
    s->resident--;
    if (s->pol->on_warp_end)
        s->pol->on_warp_end(s->pst[slot % s->simds], slot, cycle);
    return 1;
}

static void retire(gcn_cu *s, uint64_t cycle)
{
    if (!s->maybe_done)
        return;
    s->maybe_done = 0;
    s->wg_live -= pipe_cta_retire(s->wg, s->max_ctas, s->cta_warps, leave, s, cycle, &s->st);
}

/* The lost-slot cause of SIMD q's candidates (WR__COUNT when it holds no wavefront),
 * filling s->cand / s->infos; *n gets the candidate count. */
static uint8_t classify(gcn_cu *s, uint32_t q, uint64_t cycle, uint32_t units, uint32_t *n_out)
{
    static const uint8_t rank[WR__COUNT] = {6, 2, 3, 4, 5, 1, 0};
    uint32_t n = 0;
    uint8_t best = WR_DONE;
    for (uint32_t slot = q; slot < s->n_slots; slot += s->simds) {
        const gwave *w = &s->w[slot];
        if (!w->p.used)
            continue;
        const insn_info *ii = NULL;
        uint8_t r = readiness(s, slot, cycle, units, &ii);
        if (r == WR_DONE)
            continue;
        sched_cand *c = &s->cand[n];
        c->slot = slot;
        c->age = w->p.age;
        c->reason = r;
        c->waiting_mem = w->p.mem_inflight != 0;
        c->is_mem = ii ? ii->is_mem : 0;
        c->is_long = ii ? ii->is_long : 0;
        c->type = ii ? w->cached_gi->type : IT_VALU;
        c->path = w->p.ibuf_path;
        s->infos[n++] = ii;
        if (rank[r] > rank[best])
            best = r;
    }
    *n_out = n;
    return n ? best : WR__COUNT;
}

/* The outcome classify() would find for SIMD q, without a scan of its wavefronts:
 * a wavefront's own verdict (instruction buffer, scoreboard, barrier) changes only
 * through an event of it (wave_touch), so the summary counts each wavefront whose
 * cached verdict stands under its key, and only the touched ones (redo bits) are
 * examined again; the shared units (unit_mask) then decide the verdict of those whose
 * own part is clear. Verdicts that are not cached (a fence waiting on memory, an
 * instruction buffer usable only later, a finished wavefront) stay in redo. */
static uint8_t simd_outcome(gcn_cu *s, uint32_t q, uint64_t cycle, uint32_t units)
{
    static const uint8_t rank[WR__COUNT] = {6, 2, 3, 4, 5, 1, 0};
    uint8_t best = WR_DONE;
    uint32_t any = 0;
    for (uint64_t m = s->redo[q]; m; m &= m - 1) {
        uint32_t i = (uint32_t)__builtin_ctzll(m), slot = i * s->simds + q;
        gwave *w = &s->w[slot];
        const insn_info *ii = NULL;
        uint8_t r = readiness(s, slot, cycle, units, &ii);
        if (!w->p.dirty && w->p.cached != WR_DONE &&
            !(w->p.cached == WR_IBUF_EMPTY && w->p.ibuf && w->p.ibuf_ready > cycle)) {
            w->key = w->p.cached == WR_READY ? port_of[w->cached_gi->type]
                   : w->p.cached == WR_IBUF_EMPTY ? KEY_IBUF
                   : w->p.cached == WR_SCOREBOARD ? KEY_SCOREBOARD : KEY_BARRIER;
            s->cnt[q][w->key]++;
            s->nz[q] |= (uint8_t)(1u << w->key);
            s->redo[q] &= ~(1ull << i);
        }
        if (r != WR_DONE) {
            any = 1;
            if (rank[r] > rank[best])
                best = r;
        }
    }
    uint32_t nz = s->nz[q];
    if (!nz)
        return any ? best : WR__COUNT;
    /* the counted wavefronts' best verdict: own part clear, by port (the unit decides;
     * the vector memory port also needs its path, bit PORT__N), else what they wait for */
    uint32_t ports = nz & ((1u << PORT__N) - 1), r;
    const uint32_t vm = 1u << PORT_VMEM, path = units & (1u << PORT__N) ? vm : 0;
    if (ports & units & (~vm | path))
        r = WR_READY;
    else if (ports & vm & ~path)
        r = WR_MEM_STALL;
    else if (ports)
        r = WR_UNIT_BUSY;
    else
        r = nz & (1u << KEY_SCOREBOARD) ? WR_SCOREBOARD : nz & (1u << KEY_IBUF) ? WR_IBUF_EMPTY : WR_BARRIER;
    return rank[r] > rank[best] ? (uint8_t)r : best;
}

static void account_idle(gcn_cu *s, uint8_t reason, uint64_t times)
{
    if (reason == WR__COUNT) {
        s->st.idle_slots += times;
    } else {
        s->st.slot[reason == WR_READY ? WR_UNIT_BUSY : reason] += times;
    }
}

static int gcn_cycle(void *c, uint64_t cycle)
{
    gcn_cu *s = c;
    int progress = writeback(s, cycle);
    progress |= queues(s, cycle);
    uint32_t q = (uint32_t)(cycle % s->simds), n = 0, issued = 0;
    uint32_t units = unit_mask(s, q, cycle, units_shared(s, cycle));
    uint8_t best = simd_outcome(s, q, cycle, units);
    if (best == WR_READY) {
        uint8_t full = classify(s, q, cycle, units, &n);   /* the candidates, in slot order */
        assert(full == WR_READY);
        (void)full;
        uint32_t k = sched_order(s->pol, s->pst[q], s->cand, n, cycle, s->order, n);
        uint8_t taken[PORT__N] = {0};
        for (uint32_t i = 0; i < k && issued < s->p->issue_width; i++) {
            const sched_cand *cd = &s->cand[s->order[i]];
            uint8_t port = port_of[cd->type];
            if (taken[port] || cd->reason != WR_READY)
                continue;
            const insn_info *ii = s->infos[s->order[i]];
            /* an earlier issue this cycle may have taken the unit */
            if (unit_check(cd->type, units) != WR_READY)
                continue;
            taken[port] = 1;
            if (issue(s, cd->slot, cd->path, ii, cycle))
                return -1;
            issued++;
            units = unit_mask(s, q, cycle, units_shared(s, cycle));   /* only an issue changes it */
        }
    }
    s->gx.issue_hist[issued]++;
    if (issued) {
        s->st.slot[WR_READY]++;
        progress = 1;
    } else {
        account_idle(s, best, 1);
        if (s->resident)
            s->st.stall_cycles++;
    }
    int f = fetch(s, cycle);
    if (f < 0)
        return -1;
    progress |= f;
    retire(s, cycle);
    s->st.warps_in_flight_sum += s->warps_inflight;
    s->st.resident_warps_sum += s->resident;
    s->st.active_cycles += s->resident != 0;
    s->last_cycle = cycle;
    if (!progress) {
        /* repeatable only if no SIMD's wavefront is ready or waits for a unit; record
         * each SIMD's idle outcome for repeat_cycle_stats */
        s->hot = 0;
        uint32_t shared = units_shared(s, cycle);
        for (uint32_t k = 0; k < s->simds; k++) {
            uint8_t b = k == q ? best : simd_outcome(s, k, cycle, unit_mask(s, k, cycle, shared));
            s->idle_reason[k] = b;
            if (b == WR_READY || b == WR_UNIT_BUSY)
                s->hot |= 1u << k;
        }
    }
    return progress;
}

static void gcn_repeat_cycle_stats(void *c, uint64_t n)
{
    gcn_cu *s = c;
    /* cycles last+1 .. last+n: SIMD (cycle mod simds) is selected in each */
    uint64_t first = s->last_cycle + 1;
    for (uint32_t k = 0; k < s->simds; k++) {
        uint64_t off = (k + s->simds - first % s->simds) % s->simds;   /* first cycle of SIMD k */
        uint64_t times = n > off ? (n - off + s->simds - 1) / s->simds : 0;
        if (times) {
            account_idle(s, s->idle_reason[k], times);
            if (s->resident)
                s->st.stall_cycles += times;
        }
    }
    s->gx.issue_hist[0] += n;
    s->st.warps_in_flight_sum += n * s->warps_inflight;
    s->st.resident_warps_sum += n * s->resident;
    s->st.active_cycles += n * (s->resident != 0);
    pipe_ldq_repeat(&s->st, s->last_ldq, n);
    s->last_cycle += n;
}

static uint64_t gcn_next_event(const void *c, uint64_t cycle, uint64_t bound)
{
    const gcn_cu *s = c;
    if (bound <= cycle)
        return cycle + 1;
    uint64_t next = bound;
    /* the next turn of a SIMD with a ready (or unit-waiting) wavefront: the SIMDs
     * selected before it hold only event-blocked wavefronts, whose outcome
     * (idle_reason) repeat_cycle_stats charges */
    for (uint32_t d = 1; s->hot && d <= s->simds; d++)
        if (s->hot >> ((cycle + d) % s->simds) & 1) {
            next = cycle + d < next ? cycle + d : next;
            break;
        }
    next = pipe_wheel_next(&s->wh, cycle, next);   /* (only events before it matter) */
    for (uint32_t k = 0; k < s->simds; k++)
        if (s->simd_free[k] > cycle && s->simd_free[k] < next)
            next = s->simd_free[k];
    for (int k = 0; k < PORT__N; k++)
        if (s->unit_free[k] > cycle && s->unit_free[k] < next)
            next = s->unit_free[k];
    return next;
}

static int gcn_dump(const void *c, char *buf, size_t n)
{
    const gcn_cu *s = c;
    size_t k = (size_t)snprintf(buf, n, "CU %u: %u wavefronts resident, vector memory queue %u, scalar %u\n",
                                s->id, s->resident, ldq_len(s->vq), ldq_len(s->sq));
    static const char *const st[] = {"ready", "barrier", "done", "fault"};
    for (uint32_t i = 0; i < s->n_slots && k < n; i++) {
        const gwave *w = &s->w[i];
        const func_warp *fw = &s->fw[i];
        if (!w->p.used)
            continue;
        func_path p;
        int has = func_warp_where(fw, &p);
        k += (size_t)snprintf(buf + k, n - k, "  wavefront slot %u (SIMD %u, work-group %u, wavefront %u): "
                              "pc %u %s, ibuf %u%s, in flight %u (memory %u)\n", i, i % s->simds,
                              fw->cta ? fw->cta->linear : 0, fw->wid, has ? p.pc : 0, st[fw->state],
                              w->p.ibuf, w->p.fetching ? " (fetching)" : "", w->p.inflight, w->p.mem_inflight);
    }
    return (int)(k < n ? k : n - 1);
}

static void gcn_stats_add(const void *c, ws_timing_stats *t)
{
    const gcn_cu *cu = c;
    const gcn_stats *s = &cu->gx;
    t->multi_issue = 1;
    t->n_schedulers = 1;   /* one issue stage per CU: slot[] counts CU cycles */
    t->fu_count[FU_SP] = cu->simds;
    t->fu_count[FU_LDST] = 1;
    t->fu_busy[FU_SP] += s->simd_busy;
    t->fu_busy[FU_LDST] += s->vmem_busy;
    pipe_stats_add(&cu->st, t);
    for (int k = 0; k < IT__COUNT; k++)
        t->issued_type[k] += s->issued_type[k];
    for (int k = 0; k < 6; k++)
        t->issue_hist[k] += s->issue_hist[k];
    t->lane_accesses += s->lane_accesses;
    t->shared_conflict_cycles += s->lds_conflict_cycles;
}

_Static_assert(IT__COUNT <= sizeof ((ws_timing_stats *)0)->issued_type / sizeof(uint64_t), "issued_type[]");

const core_model core_model_gcn = {
    .name = "gcn",
    .desc = "AMD GCN / Southern Islands compute unit: 4 SIMDs x 16 lanes, 64-wide wavefronts over "
            "4 cycles, round-robin SIMD issue of up to 5 instructions of different types, scalar "
            "unit fed by the uniformity analysis, LDS with bank conflicts",
    .params = &gcn_table,
    .occupancy = gcn_occupancy,
    .launch_create = gcn_launch_create,
    .launch_destroy = gcn_launch_destroy,
    .create = gcn_create,
    .destroy = gcn_destroy,
    .cycle = gcn_cycle,
    .next_event = gcn_next_event,
    .repeat_cycle_stats = gcn_repeat_cycle_stats,
    .can_take_cta = gcn_can_take_cta,
    .take_cta = gcn_take_cta,
    .busy = gcn_busy,
    .stats = gcn_stats_add,
    .dump = gcn_dump,
};
