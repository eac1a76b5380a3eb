/* report.c - per-launch and total statistics from ws_launch_stats (report.h). */
#include "api/report.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/sched.h"
#include "util/json_out.h"
#include "util/stats.h"

typedef struct {
    ws_stats *s;
    int launches, kernel, mode, policy, result, grid, block, ctas, threads, dyn_smem,
        static_smem, regs, warp_insts, thread_insts, lane_slots, simd_eff, cycles, ipc,
        host_s, host_sm_s, host_win, host_iters[WS_HOST_WAYS], host_cuts, host_retests, thread_rate, warp_rate;
    int mix[MIX__COUNT], mix_pct[MIX__COUNT];
    /* timing mode */
    int opc, sim_s, ctas_per_sm, limiter, regs_source, sched_slots, slot[WR__COUNT], fu_busy[5], fu_slots[5];
    int tc[32];   /* t_counters[] */
    int lvl[4][3];            /* mem_levels[] x {accesses, hits, misses}            */
    int dram[4];              /* reads, writes, row hits, busy cycles               */
    int dram_slots;
    int warp_slots;
    /* multi-issue core models (gcn) only: set when ws_timing_stats.multi_issue */
    int issued_type[IT__COUNT], issue_hist[6], issue_cycles, lane_accesses;
    int mshr[4][2];           /* mem_levels[] x {mean, max} MSHR occupancy           */
    int merges[4];            /* mem_levels[] accesses merged into an outstanding miss */
    int dv[16];               /* d_counters[] (path-table policies only)            */
} rep_defs;

/* Cache levels of the memory model's JSON ("mem" object of a launch) in the report. */
static const char *const mem_levels[4] = {"l1d", "l1i", "l1c", "l2"};

/* Divergence-policy counters read straight from div_stats (func/div.h); set only for
 * policies that report them (the path table), so SIMT-stack reports are unchanged. */
static const struct {
    const char *name, *unit, *desc;
    unsigned flags;
    size_t off;
} d_counters[] = {
#define DOFF(f) offsetof(div_stats, f)
    {"path_insts", "insts", "warp instructions executed under the path table (path-table)",
     WS_STAT_JSON_ONLY, DOFF(path_samples)},
    {"path_table_sum", "paths", "paths in the issuing warp's table, summed over its instructions",
     WS_STAT_JSON_ONLY, DOFF(path_occ_sum)},
    {"path_table_max", "paths", "most paths one warp's table held (path-table)", WS_STAT_MAX,
     DOFF(path_occ_max)},
    {"path_switches", "switches", "instructions of a warp from another path than its previous one",
     0, DOFF(path_switches)},
    {"path_spills", "splits", "divergent branches that found the path table full (new path spilled)",
     0, DOFF(path_spills)},
    {"warp_sync_forced", "insts", "warp-synchronous instructions run without every lane of their membermask",
     WS_STAT_HIDE_ZERO, DOFF(sync_forced)},
    {"loop_table_hits", "lookups", "LAS: taken backward branches whose loop was in the loop table",
     0, DOFF(loop_hits)},
    {"loop_table_insertions", "loops", "LAS: loops inserted into the loop table", 0, DOFF(loop_inserts)},
    {"loop_table_evictions", "loops", "LAS: loop-table entries removed by a hash collision or an overlap merge",
     0, DOFF(loop_evicts)},
    {"iteration_shifts", "events", "LAS: changes from the Min-PC path to another one inside a diverged loop",
     0, DOFF(iter_shifts)},
    {"iteration_gap_max", "iterations", "LAS: largest iteration gap between threads of a diverged loop",
     WS_STAT_MAX, DOFF(iter_gap_max)},
    {"iteration_gap_forced", "events", "LAS: times the gap bound made the least-advanced threads run",
     0, DOFF(gap_forced)},
#undef DOFF
};

/* Timing-mode counters read straight from ws_timing_stats. */
static const struct {
    const char *name, *unit, *desc;
    unsigned flags;
    size_t off;
} t_counters[] = {
#define TOFF(f) offsetof(ws_timing_stats, f)
    {"idle_slots", "slots", "scheduler slots with no warp assigned", 0, TOFF(idle_slots)},
    {"stall_cycles", "cycles", "SM cycles with resident warps and no instruction issued", 0,
     TOFF(stall_cycles)},
    {"active_sm_cycles", "cycles", "SM cycles with work, summed over the SMs", 0,
     TOFF(active_sm_cycles)},
    {"warps_in_flight_sum", "warps", "warps issued and not finished, summed over active SM cycles",
     WS_STAT_JSON_ONLY, TOFF(warps_in_flight_sum)},
    {"resident_warps_sum", "warps", "resident warps, summed over active SM cycles",
     WS_STAT_JSON_ONLY, TOFF(resident_warps_sum)},
    {"mem_insts", "insts", "memory instructions through the LD/ST unit", 0, TOFF(mem_insts)},
    {"mem_reqs", "requests", "memory requests after coalescing", 0, TOFF(mem_reqs)},
    {"mem_bytes_used", "bytes", "bytes of those requests that threads accessed", 0,
     TOFF(mem_bytes_used)},
    {"resfail_csf", "fails", "L1D reservation fails: cache set full (CSF)", 0, TOFF(resfail[0])},
    {"resfail_mshrf", "fails", "L1D reservation fails: no MSHR entry or merge slot (MSHRF)", 0,
     TOFF(resfail[1])},
    {"resfail_mqf", "fails", "L1D reservation fails: miss queue full (MQF)", 0, TOFF(resfail[2])},
    {"ldst_stall_cycles", "cycles", "SM cycles in which no queued request could be sent to the L1D (with l1d.latency_queue: the lookup at its head was refused)", 0,
     TOFF(ldst_stall_cycles)},
    {"queue_occupancy_sum", "requests", "requests between the LD/ST unit and the L1D, summed over SM cycles",
     WS_STAT_JSON_ONLY, TOFF(queue_occupancy_sum)},
    {"queued_cycles", "cycles", "cycles requests waited between coalescing and the L1D, summed (with l1d.latency_queue: until their tag lookup)", 0,
     TOFF(queued_cycles)},
    {"queued_reqs", "requests", "requests sent to the L1D by the LD/ST unit", 0, TOFF(queued_reqs)},
    {"reod_full_cycles", "cycles", "REOD: SM cycles the LD/ST queue (with l1d.latency_queue: the latency queue's due head) waited for a full set queue", 0,
     TOFF(reod_full_cycles)},
    {"mem_lat_sum", "cycles", "latencies of the memory instructions, summed", WS_STAT_JSON_ONLY,
     TOFF(mem_lat_sum)},
    {"mem_lat_n", "insts", "memory instructions completed", WS_STAT_JSON_ONLY, TOFF(mem_lat_n)},
    {"mem_lat_max", "cycles", "longest memory instruction latency (issue to last access)",
     WS_STAT_MAX, TOFF(mem_lat_max)},
    {"shared_conflict_cycles", "cycles", "extra cycles from shared-memory bank conflicts", 0,
     TOFF(shared_conflict_cycles)},
    {"ifetch_misses", "misses", "instruction-cache misses", 0, TOFF(ifetch_misses)},
    {"rf_conflict_cycles", "cycles", "extra operand-collection cycles from register-file bank conflicts (core.rf_banks)",
     0, TOFF(rf_conflict_cycles)},
#undef TOFF
};

/* Issue-slot outcomes (core/sched.h warp_reason): what each scheduler did each cycle. */
static const char *const slot_stat[][2] = {
    [WR_READY] = {"slot_issued", "scheduler slots that issued an instruction"},
    [WR_IBUF_EMPTY] = {"slot_ibuf_empty", "slots lost: no decoded instruction (fetch, I-cache)"},
    [WR_SCOREBOARD] = {"slot_scoreboard", "slots lost: register hazard, incl. pending loads"},
    [WR_UNIT_BUSY] = {"slot_unit_busy", "slots lost: functional unit busy"},
    [WR_MEM_STALL] = {"slot_mem_stall", "slots lost: LD/ST pipeline stalled"},
    [WR_BARRIER] = {"slot_barrier", "slots lost: warps waiting at a barrier or fence"},
    [WR_DONE] = {"slot_done", "slots lost: warps with no instruction left"},
};
static const char *const fu_stat[5] = {"sp", "sfu", "dp", "ldst", "int"};
_Static_assert(sizeof t_counters / sizeof t_counters[0] <= 32, "rep_defs.tc is too small");

/* The strings a ws_launch_stats points to may belong to a simulation that is gone by
 * the time the report prints, so the report keeps its own copies. */
typedef struct {
    char mode[16], policy[64], limiter[32], regs_source[16];
    cJSON *mem;               /* owned copy of ls.t.mem                        */
} rep_names;

struct ws_report {
    ws_config cfg;
    char *source;
    ws_launch_stats *ls;      /* mode and policy NULL: see names                 */
    rep_names *names;
    size_t n, cap;
    rep_defs d;
    char partial[320];        /* why the statistics are partial, "" when complete */
};

void ws_report_mark_partial(ws_report *r, const char *why)
{
    if (r && !r->partial[0])
        snprintf(r->partial, sizeof r->partial, "%s", why && *why ? why : "run stopped early");
}

const char *ws_report_partial(const ws_report *r)
{
    if (r->partial[0])
        return r->partial;
    for (size_t i = 0; i < r->n; i++)
        if (r->ls[i].result == WS_E_STOPPED)
            return "a launch was stopped by a budget or a signal";
    return NULL;
}

/* What each instruction-mix class counts (ws_mix, gpu/sim.h). */
static const char *const mix_what[MIX__COUNT] = {
    [MIX_ALU] = "integer, logic, conversion and f16/f32 arithmetic",
    [MIX_SFU] = "special functions (rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh)",
    [MIX_DP] = "double-precision arithmetic",
    [MIX_LD_GLOBAL] = "global-memory loads",
    [MIX_ST_GLOBAL] = "global-memory stores",
    [MIX_LD_SHARED] = "shared-memory loads",
    [MIX_ST_SHARED] = "shared-memory stores",
    [MIX_LD_LOCAL] = "local-memory loads (per-thread frames)",
    [MIX_ST_LOCAL] = "local-memory stores (per-thread frames)",
    [MIX_LD_CONST] = "constant-memory loads",
    [MIX_LD_PARAM] = "parameter loads",
    [MIX_ATOMIC] = "atomics and reductions (atom, red)",
    [MIX_CTRL] = "control flow (bra, brx, call, ret, exit)",
    [MIX_BAR] = "barriers and fences (bar, barrier, membar, fence)",
    [MIX_WARP] = "warp collectives (shfl, vote, match, redux, activemask)",
    [MIX_OTHER] = "other instructions (nop, trap, brkpt, nanosleep, pmevent ...)",
};

static int keep(int id, int *bad)
{
    *bad |= id < 0;
    return id;
}

/* Registers every statistic of the report; returns 0, or -1 on a (programming) error. */
static int defs_init(rep_defs *d)
{
    char err[256] = "";
    int bad = 0;
    ws_stats *s = d->s = ws_stats_create();
    if (!s)
        return -1;
#define CHECK(x) keep((x), &bad)
    d->launches = CHECK(ws_stats_add_counter(s, "launches", "launches", "kernel launches",
                                             0, err, sizeof err));
    d->kernel = CHECK(ws_stats_add_text(s, "kernel", "kernel (.entry) name", 0, err, sizeof err));
    d->mode = CHECK(ws_stats_add_text(s, "mode", "simulation mode: functional or timing", 0,
                                      err, sizeof err));
    d->policy = CHECK(ws_stats_add_text(s, "policy", "warp scheduling policy (timing mode)", 0,
                                        err, sizeof err));
    d->result = CHECK(ws_stats_add_text(s, "result", "outcome of the launch (simulator error name)",
                                        0, err, sizeof err));
    d->grid = CHECK(ws_stats_add_dim3(s, "grid", "CTAs", "grid dimensions (x, y, z)", 0, err,
                                      sizeof err));
    d->block = CHECK(ws_stats_add_dim3(s, "block", "threads", "CTA (block) dimensions (x, y, z)",
                                       0, err, sizeof err));
    d->ctas = CHECK(ws_stats_add_counter(s, "ctas", "CTAs", "CTAs launched (grid x*y*z)", 0, err,
                                         sizeof err));
    d->threads = CHECK(ws_stats_add_counter(s, "threads", "threads",
                                            "threads launched (CTAs x block x*y*z)", 0, err,
                                            sizeof err));
    d->dyn_smem = CHECK(ws_stats_add_counter(s, "dyn_smem", "bytes",
                                             "dynamic shared memory per CTA",
                                             WS_STAT_NO_TOTAL, err, sizeof err));
    d->static_smem = CHECK(ws_stats_add_counter(s, "static_smem", "bytes",
                                                "static (.shared) memory per CTA",
                                                WS_STAT_NO_TOTAL, err, sizeof err));
    d->regs = CHECK(ws_stats_add_counter(s, "regs", "registers",
                                         "registers per thread charged to the launch",
                                         WS_STAT_NO_TOTAL, err, sizeof err));
    d->warp_insts = CHECK(ws_stats_add_counter(s, "warp_insts", "insts",
                                               "warp instructions issued", 0, err, sizeof err));
    d->thread_insts = CHECK(ws_stats_add_counter(
        s, "thread_insts", "insts",
        "thread instructions: active lanes summed over issued warp instructions", 0, err,
        sizeof err));
    d->lane_slots = CHECK(ws_stats_add_counter(
        s, "lane_slots", "lanes", "lanes the issued instructions could use: warp_insts x warp_size",
        0, err, sizeof err));
    d->simd_eff = CHECK(ws_stats_add_formula(s, "simd_efficiency", "ratio",
                                             "fraction of lanes active per issued instruction",
                                             "thread_insts / lane_slots", 0, err, sizeof err));
    for (int i = 0; i < MIX__COUNT; i++) {
        char name[64], pname[72], desc[200], pdesc[128], expr[160];
        const char *m = ws_mix_name[i] ? ws_mix_name[i] : "unknown";
        size_t k = (size_t)snprintf(name, sizeof name, "mix_");
        for (const char *p = m; *p && k + 1 < sizeof name; p++)
            name[k++] = isalnum((unsigned char)*p) ? (char)tolower((unsigned char)*p) : '_';
        name[k] = 0;
        snprintf(pname, sizeof pname, "%s_pct", name);
        snprintf(desc, sizeof desc, "warp instructions of class %s: %s", m,
                 mix_what[i] ? mix_what[i] : "see gpu/sim.h");
        snprintf(pdesc, sizeof pdesc, "share of warp instructions of class %s", m);
        snprintf(expr, sizeof expr, "100 * %s / warp_insts", name);
        d->mix[i] = CHECK(ws_stats_add_counter(s, name, "insts", desc, WS_STAT_HIDE_ZERO, err,
                                               sizeof err));
        d->mix_pct[i] = CHECK(ws_stats_add_formula(s, pname, "%", pdesc, expr, WS_STAT_HIDE_ZERO,
                                                   err, sizeof err));
    }
    for (size_t k = 0; k < sizeof d_counters / sizeof d_counters[0]; k++)
        d->dv[k] = CHECK(ws_stats_add_counter(s, d_counters[k].name, d_counters[k].unit,
                                              d_counters[k].desc, d_counters[k].flags, err,
                                              sizeof err));
    CHECK(ws_stats_add_formula(s, "warp_occupancy", "threads",
                               "mean active threads per issued warp instruction (path-table; seed 002)",
                               "thread_insts / path_insts", 0, err, sizeof err));
    CHECK(ws_stats_add_formula(s, "path_table_occupancy", "paths",
                               "mean paths in the issuing warp's table per instruction (path-table)",
                               "path_table_sum / path_insts", 0, err, sizeof err));
    d->cycles = CHECK(ws_stats_add_counter(s, "cycles", "cycles",
                                           "core cycles from launch to completion (timing mode)",
                                           0, err, sizeof err));
    d->ipc = CHECK(ws_stats_add_formula(s, "ipc", "insts/cycle",
                                        "warp instructions per core cycle (timing mode)",
                                        "warp_insts / cycles", 0, err, sizeof err));
    d->opc = CHECK(ws_stats_add_formula(s, "opc", "ops/cycle",
                                        "thread instructions (lane operations) per core cycle",
                                        "thread_insts / cycles", 0, err, sizeof err));
    d->sim_s = CHECK(ws_stats_add_real(s, "sim_seconds", "s",
                                       "simulated time: cycles / gpu.core_mhz", 0, err,
                                       sizeof err));
    d->ctas_per_sm = CHECK(ws_stats_add_counter(s, "ctas_per_sm", "CTAs",
                                                "resident CTAs per SM allowed by occupancy",
                                                WS_STAT_NO_TOTAL, err, sizeof err));
    d->limiter = CHECK(ws_stats_add_text(s, "occupancy_limiter",
                                         "resource limiting CTAs per SM", 0, err, sizeof err));
    d->regs_source = CHECK(ws_stats_add_text(s, "regs_source",
                                             "where regs came from: ptxas, maxnreg, estimate, config",
                                             0, err, sizeof err));
    d->sched_slots = CHECK(ws_stats_add_counter(s, "sched_slots", "slots",
                                                "scheduler issue slots: schedulers x active cycles",
                                                0, err, sizeof err));
    for (int k = 0; k < WR__COUNT; k++) {
        /* a reason added to sched.h without a row here still gets a name */
        int known = k < (int)(sizeof slot_stat / sizeof slot_stat[0]) && slot_stat[k][0];
        char name[40], desc[120];
        if (known)
            snprintf(name, sizeof name, "%s", slot_stat[k][0]);
        else
            snprintf(name, sizeof name, "slot_reason%d", k);
        snprintf(desc, sizeof desc, "%s", known ? slot_stat[k][1] : "slots lost: other reason");
        d->slot[k] = CHECK(ws_stats_add_counter(s, name, "slots", desc, 0, err, sizeof err));
    }
    CHECK(ws_stats_add_formula(s, "issue_utilization", "ratio",
                               "fraction of scheduler slots that issued",
                               "slot_issued / sched_slots", 0, err, sizeof err));
    for (size_t k = 0; k < sizeof t_counters / sizeof t_counters[0]; k++)
        d->tc[k] = CHECK(ws_stats_add_counter(s, t_counters[k].name, t_counters[k].unit,
                                              t_counters[k].desc, t_counters[k].flags, err,
                                              sizeof err));
    CHECK(ws_stats_add_formula(s, "warps_in_flight", "warps",
                               "mean warps issued and not finished per active SM cycle",
                               "warps_in_flight_sum / active_sm_cycles", 0, err, sizeof err));
    CHECK(ws_stats_add_formula(s, "resident_warps", "warps",
                               "mean resident warps per active SM cycle",
                               "resident_warps_sum / active_sm_cycles", 0, err, sizeof err));
    d->warp_slots = CHECK(ws_stats_add_counter(s, "warp_slot_cycles", "warps",
                                               "gpu.max_warps_per_sm x active SM cycles",
                                               WS_STAT_JSON_ONLY, err, sizeof err));
    CHECK(ws_stats_add_formula(s, "achieved_occupancy", "ratio",
                               "resident warps per warp slot, over active SM cycles",
                               "resident_warps_sum / warp_slot_cycles", 0, err, sizeof err));
    CHECK(ws_stats_add_formula(s, "reqs_per_mem_inst", "requests",
                               "memory requests per memory instruction (coalescing)",
                               "mem_reqs / mem_insts", 0, err, sizeof err));
    CHECK(ws_stats_add_formula(s, "mem_lat_mean", "cycles",
                               "mean memory latency per memory instruction (issue to last access)",
                               "mem_lat_sum / mem_lat_n", 0, err, sizeof err));
    for (int k = 0; k < 5; k++) {
        char name[40], desc[120], expr[100];
        snprintf(name, sizeof name, "fu_%s_busy", fu_stat[k]);
        snprintf(desc, sizeof desc, "unit-cycles the %s pipelines were busy", fu_stat[k]);
        d->fu_busy[k] = CHECK(ws_stats_add_counter(s, name, "cycles", desc, 0, err, sizeof err));
        snprintf(name, sizeof name, "fu_%s_slots", fu_stat[k]);
        snprintf(desc, sizeof desc, "unit-cycles of %s pipelines available: units x SMs x cycles",
                 fu_stat[k]);
        d->fu_slots[k] = CHECK(ws_stats_add_counter(s, name, "cycles", desc, WS_STAT_JSON_ONLY,
                                                     err, sizeof err));
        snprintf(name, sizeof name, "fu_%s_util", fu_stat[k]);
        snprintf(desc, sizeof desc, "utilisation of the %s pipelines", fu_stat[k]);
        snprintf(expr, sizeof expr, "fu_%s_busy / fu_%s_slots", fu_stat[k], fu_stat[k]);
        CHECK(ws_stats_add_formula(s, name, "ratio", desc, expr, 0, err, sizeof err));
    }
    for (int k = 0; k < 4; k++) {
        static const char *const what[3] = {"accesses", "hits", "misses"};
        char name[40], desc[160], expr[120];
        for (int j = 0; j < 3; j++) {
            snprintf(name, sizeof name, "%s_%s", mem_levels[k], what[j]);
            snprintf(desc, sizeof desc, "%s %s (detailed memory model; all SMs / banks)",
                     mem_levels[k], what[j]);
            d->lvl[k][j] = CHECK(ws_stats_add_counter(s, name, what[j], desc, WS_STAT_HIDE_ZERO,
                                                      err, sizeof err));
        }
        snprintf(name, sizeof name, "%s_hit_ratio", mem_levels[k]);
        snprintf(desc, sizeof desc, "%s hits per access", mem_levels[k]);
        snprintf(expr, sizeof expr, "%s_hits / %s_accesses", mem_levels[k], mem_levels[k]);
        CHECK(ws_stats_add_formula(s, name, "ratio", desc, expr, WS_STAT_HIDE_ZERO, err, sizeof err));
        snprintf(name, sizeof name, "%s_mpki", mem_levels[k]);
        snprintf(desc, sizeof desc, "%s misses per 1000 warp instructions", mem_levels[k]);
        snprintf(expr, sizeof expr, "1000 * %s_misses / warp_insts", mem_levels[k]);
        CHECK(ws_stats_add_formula(s, name, "MPKI", desc, expr, WS_STAT_HIDE_ZERO, err, sizeof err));
    }
    d->dram[0] = CHECK(ws_stats_add_counter(s, "dram_reads", "bursts", "DRAM read requests",
                                            WS_STAT_HIDE_ZERO, err, sizeof err));
    d->dram[1] = CHECK(ws_stats_add_counter(s, "dram_writes", "bursts", "DRAM write requests",
                                            WS_STAT_HIDE_ZERO, err, sizeof err));
    d->dram[2] = CHECK(ws_stats_add_counter(s, "dram_row_hits", "requests",
                                            "DRAM requests served from an open row",
                                            WS_STAT_HIDE_ZERO, err, sizeof err));
    d->dram[3] = CHECK(ws_stats_add_counter(s, "dram_busy_cycles", "cycles",
                                            "DRAM data-bus busy cycles, summed over channels",
                                            WS_STAT_JSON_ONLY, err, sizeof err));
    d->dram_slots = CHECK(ws_stats_add_counter(s, "dram_channel_cycles", "cycles",
                                               "DRAM cycles x channels", WS_STAT_JSON_ONLY, err,
                                               sizeof err));
    CHECK(ws_stats_add_formula(s, "dram_row_hit_rate", "ratio", "DRAM row-buffer hits per request",
                               "dram_row_hits / (dram_reads + dram_writes)", WS_STAT_HIDE_ZERO, err,
                               sizeof err));
    CHECK(ws_stats_add_formula(s, "dram_bandwidth_util", "ratio",
                               "fraction of DRAM data-bus cycles transferring data",
                               "dram_busy_cycles / dram_channel_cycles", WS_STAT_HIDE_ZERO, err,
                               sizeof err));
    /* seed 004's statistics of a multi-issue core (core.model=gcn); absent for Fermi */
    for (int k = 0; k < IT__COUNT; k++) {
        char name[40], desc[160];
        snprintf(name, sizeof name, "issued_%s", issue_type_name[k]);
        snprintf(desc, sizeof desc, "instructions issued of type %s (multi-issue core models)",
                 issue_type_name[k]);
        d->issued_type[k] = CHECK(ws_stats_add_counter(s, name, "insts", desc, 0, err, sizeof err));
    }
    for (int k = 0; k < 6; k++) {
        char name[40], desc[160];
        snprintf(name, sizeof name, "issue_cycles_%d", k);
        snprintf(desc, sizeof desc, "core cycles that issued %d instruction%s (multi-issue core models)",
                 k, k == 1 ? "" : "s");
        d->issue_hist[k] = CHECK(ws_stats_add_counter(s, name, "cycles", desc, WS_STAT_JSON_ONLY, err,
                                                      sizeof err));
    }
    d->issue_cycles = CHECK(ws_stats_add_counter(s, "issue_cycles", "cycles",
                                                 "core cycles of the issue stage, summed over cores "
                                                 "(multi-issue core models)", 0, err, sizeof err));
    CHECK(ws_stats_add_formula(s, "issued_per_cycle", "insts/cycle",
                               "mean instructions issued per core cycle of a core",
                               "warp_insts / issue_cycles", 0, err, sizeof err));
    CHECK(ws_stats_add_formula(s, "issued_per_issue_cycle", "insts/cycle",
                               "mean instructions issued in the cycles that issued",
                               "warp_insts / (issue_cycles - issue_cycles_0)", 0, err, sizeof err));
    for (int k = 1; k < WR__COUNT; k++) {
        char name[48], desc[160], expr[120];
        int known = k < (int)(sizeof slot_stat / sizeof slot_stat[0]) && slot_stat[k][0];
        snprintf(name, sizeof name, "lost_%s_pct", known ? slot_stat[k][0] + 5 : "other");
        snprintf(desc, sizeof desc, "share of issue cycles lost: %s", known ? slot_stat[k][1] + 12 : "other");
        snprintf(expr, sizeof expr, "100 * %s / issue_cycles", known ? slot_stat[k][0] : "slot_done");
        CHECK(ws_stats_add_formula(s, name, "%", desc, expr, 0, err, sizeof err));
    }
    CHECK(ws_stats_add_formula(s, "lost_idle_pct", "%", "share of issue cycles lost: no wavefront on the selected SIMD",
                               "100 * idle_slots / issue_cycles", 0, err, sizeof err));
    d->lane_accesses = CHECK(ws_stats_add_counter(s, "vmem_lane_accesses", "accesses",
                                                  "lane accesses of the vector memory instructions "
                                                  "(multi-issue core models)", 0, err, sizeof err));
    CHECK(ws_stats_add_formula(s, "coalesce_rate", "accesses",
                               "lane accesses merged per L1 request (coalesce rate)",
                               "vmem_lane_accesses / mem_reqs", 0, err, sizeof err));
    for (int k = 0; k < 4; k++) {
        char name[40], desc[160];
        snprintf(name, sizeof name, "%s_mshr_occ_mean", mem_levels[k]);
        snprintf(desc, sizeof desc, "%s MSHR entries occupied, mean over cycles and caches "
                 "(detailed memory model; multi-issue core models)", mem_levels[k]);
        d->mshr[k][0] = CHECK(ws_stats_add_real(s, name, "entries", desc, WS_STAT_NO_TOTAL, err,
                                                  sizeof err));
        snprintf(name, sizeof name, "%s_mshr_occ_max", mem_levels[k]);
        snprintf(desc, sizeof desc, "%s MSHR entries occupied, maximum (detailed memory model; "
                 "multi-issue core models)", mem_levels[k]);
        d->mshr[k][1] = CHECK(ws_stats_add_counter(s, name, "entries", desc, WS_STAT_MAX, err, sizeof err));
    }
    /* seed 004's coalesce rate per cache level: accesses per effective access (an
     * access merged into an outstanding miss of the same line goes no further) */
    for (int k = 0; k < 4; k++) {
        char name[40], desc[200], expr[120];
        snprintf(name, sizeof name, "%s_merges", mem_levels[k]);
        snprintf(desc, sizeof desc, "%s accesses merged into an outstanding miss to their line "
                 "(MSHR coalescing; detailed memory model; multi-issue core models)", mem_levels[k]);
        d->merges[k] = CHECK(ws_stats_add_counter(s, name, "accesses", desc, 0, err, sizeof err));
        snprintf(name, sizeof name, "%s_coalesce_rate", mem_levels[k]);
        snprintf(desc, sizeof desc, "%s accesses per effective access (coalesce rate at that level)",
                 mem_levels[k]);
        snprintf(expr, sizeof expr, "%s_accesses / (%s_accesses - %s_merges)", mem_levels[k],
                 mem_levels[k], mem_levels[k]);
        CHECK(ws_stats_add_formula(s, name, "accesses", desc, expr, 0, err, sizeof err));
    }
    d->host_s = CHECK(ws_stats_add_real(s, "host_seconds", "s",
                                        "host wall-clock time spent simulating", 0, err,
                                        sizeof err));
    d->host_win = CHECK(ws_stats_add_counter(s, "host_sm_window_cycles", "cycles",
                                             "SM cycles that ran in per-SM windows, ahead of "
                                             "the cycle loop (core.sm_windows: in the SM "
                                             "phases on one thread; a host "
                                             "mechanism: every other statistic is the same "
                                             "without them)",
                                             0, err, sizeof err));
    d->host_sm_s = CHECK(ws_stats_add_real(s, "host_sm_phase_seconds", "s",
                                           "of host_seconds, the SM phase of the timing model's "
                                           "cycle loop: the part that runs on sim.host_threads "
                                           "threads; the rest is serial (estimated from every "
                                           "64th iteration of the cycle loop; "
                                           "docs/ARCHITECTURE.md)",
                                           WS_STAT_HIDE_ZERO, err, sizeof err));
    static const char *const way_name[WS_HOST_WAYS] = {"team", "alone", "serial", "both"};
    static const char *const way_desc[WS_HOST_WAYS] = {
        "of the timing model's cycle-loop iterations with sim.host_threads_adapt, those whose "
        "SM phases ran on the thread team (the memory model's own thread paused; "
        "docs/ARCHITECTURE.md, the adaptive choice)",
        "... those whose SM phases ran on the calling thread beside the memory model's own "
        "thread (mem.l2_thread; without one the calling thread ran everything)",
        "... those that ran everything on the calling thread while the memory model has a "
        "thread of its own (mem.l2_thread: the partition thread paused)",
        "... those whose SM phases the calling thread (and the team but one) shared with the "
        "memory model's own thread, which ran its share between its own steps"};
    for (int k = 0; k < WS_HOST_WAYS; k++) {
        char name[40];
        snprintf(name, sizeof name, "host_iters_%s", way_name[k]);
        d->host_iters[k] = CHECK(ws_stats_add_counter(s, name, "iterations", way_desc[k],
                                                      WS_STAT_HIDE_ZERO, err, sizeof err));
    }
    d->host_cuts = CHECK(ws_stats_add_counter(s, "host_adapt_cuts", "slices",
                                              "test slices of the adaptive choice ended early: "
                                              "they cost more than 2x the reference per unit "
                                              "of work (a way slowed by a busy host)",
                                              WS_STAT_HIDE_ZERO, err, sizeof err));
    d->host_retests = CHECK(ws_stats_add_counter(s, "host_adapt_retests", "rounds",
                                                 "rounds of the adaptive choice cut short by a "
                                                 "slice that cost more than 4x the reference per "
                                                 "unit of work (a new test at once)",
                                                 WS_STAT_HIDE_ZERO, err, sizeof err));
    d->thread_rate = CHECK(ws_stats_add_formula(s, "thread_insts_per_sec", "insts/s",
                                                "simulation rate in thread instructions",
                                                "thread_insts / host_seconds", 0, err,
                                                sizeof err));
    d->warp_rate = CHECK(ws_stats_add_formula(s, "warp_insts_per_sec", "insts/s",
                                              "simulation rate in warp instructions",
                                              "warp_insts / host_seconds", 0, err, sizeof err));
    CHECK(ws_stats_add_formula(s, "cycles_per_sec", "cycles/s",
                               "simulation rate in simulated core cycles (timing mode)",
                               "cycles / host_seconds", WS_STAT_HIDE_ZERO, err, sizeof err));
#undef CHECK
    if (bad) {
        fprintf(stderr, "warpsim: internal: report statistics: %s\n", err);
        return -1;
    }
    return 0;
}

ws_report *ws_report_create(const ws_config *cfg, const char *source)
{
    ws_report *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->cfg = *cfg;
    r->source = strdup(source ? source : "");
    if (!r->source || defs_init(&r->d)) {
        ws_stats_destroy(r->d.s);
        free(r->source);
        free(r);
        return NULL;
    }
    return r;
}

void ws_report_destroy(ws_report *r)
{
    if (!r)
        return;
    ws_stats_destroy(r->d.s);
    free(r->source);
    for (size_t i = 0; i < r->n; i++)
        cJSON_Delete(r->names[i].mem);
    free(r->ls);
    free(r->names);
    free(r);
}

/* ws_report_add (mem: a copy of ls->t.mem) and ws_report_take (mem: ls->t.mem itself) */
static int report_add(ws_report *r, const ws_launch_stats *ls, cJSON *mem)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        ws_launch_stats *p = realloc(r->ls, cap * sizeof *p);
        if (!p) {
            cJSON_Delete(mem);
            return -1;
        }
        r->ls = p;
        rep_names *q = realloc(r->names, cap * sizeof *q);
        if (!q) {
            cJSON_Delete(mem);
            return -1;
        }
        r->names = q;
        r->cap = cap;
    }
    rep_names *nm = &r->names[r->n];
    snprintf(nm->mode, sizeof nm->mode, "%s", ls->mode ? ls->mode : "functional");
    snprintf(nm->policy, sizeof nm->policy, "%s", ls->policy ? ls->policy : "");
    snprintf(nm->limiter, sizeof nm->limiter, "%s",
             ls->t.occupancy_limiter ? ls->t.occupancy_limiter : "");
    snprintf(nm->regs_source, sizeof nm->regs_source, "%s",
             ls->t.regs_source ? ls->t.regs_source : "");
    nm->mem = mem;
    r->ls[r->n] = *ls;
    r->ls[r->n].mode = r->ls[r->n].policy = NULL;
    r->ls[r->n].t.occupancy_limiter = r->ls[r->n].t.regs_source = NULL;
    r->ls[r->n].t.mem = NULL;
    r->n++;
    return 0;
}

int ws_report_add(ws_report *r, const ws_launch_stats *ls)
{
    return report_add(r, ls, ls->t.mem ? cJSON_Duplicate(ls->t.mem, 1) : NULL);
}

int ws_report_take(ws_report *r, ws_launch_stats *ls)
{
    cJSON *mem = ls->t.mem;
    ls->t.mem = NULL;
    return report_add(r, ls, mem);
}

int ws_report_merge(ws_report *dst, const ws_report *src)
{
    for (size_t i = 0; i < src->n; i++) {
        ws_launch_stats ls = src->ls[i];
        ls.mode = src->names[i].mode;
        ls.policy = src->names[i].policy[0] ? src->names[i].policy : NULL;
        ls.t.occupancy_limiter = src->names[i].limiter[0] ? src->names[i].limiter : NULL;
        ls.t.regs_source = src->names[i].regs_source[0] ? src->names[i].regs_source : NULL;
        ls.t.mem = src->names[i].mem;
        if (ws_report_add(dst, &ls))
            return -1;
    }
    return 0;
}

size_t ws_report_count(const ws_report *r) { return r->n; }

size_t ws_report_failed(const ws_report *r)
{
    size_t k = 0;
    for (size_t i = 0; i < r->n; i++)
        k += r->ls[i].result != WS_OK;
    return k;
}

static void fill_timing(const ws_report *r, ws_stats_group *g, size_t i)
{
    const rep_defs *d = &r->d;
    const ws_launch_stats *ls = &r->ls[i];
    const ws_timing_stats *t = &ls->t;
    uint64_t cycles = t->cycles ? t->cycles : ls->cycles;
    ws_stats_set(g, d->cycles, cycles);
    ws_stats_set_real(g, d->sim_s,
                      r->cfg.gpu.core_mhz ? (double)cycles / (r->cfg.gpu.core_mhz * 1e6) : 0);
    ws_stats_set(g, d->ctas_per_sm, t->ctas_per_sm);
    if (r->names[i].limiter[0])
        ws_stats_set_text(g, d->limiter, r->names[i].limiter);
    if (r->names[i].regs_source[0])
        ws_stats_set_text(g, d->regs_source, r->names[i].regs_source);
    uint64_t slots = t->idle_slots;
    for (int k = 0; k < WR__COUNT && k < 8; k++) {
        ws_stats_set(g, d->slot[k], t->slot[k]);
        slots += t->slot[k];
    }
    ws_stats_set(g, d->sched_slots, slots);
    for (size_t k = 0; k < sizeof t_counters / sizeof t_counters[0]; k++)
        ws_stats_set(g, d->tc[k], *(const uint64_t *)((const char *)t + t_counters[k].off));
    ws_stats_set(g, d->warp_slots, (uint64_t)t->max_warps_per_sm * t->active_sm_cycles);
    /* the memory model's own statistics (detailed model: per cache level, DRAM) */
    const cJSON *mem = r->names[i].mem;
    if (mem) {
        static const char *const what[3] = {"accesses", "hits", "misses"};
        for (int k = 0; k < 4; k++) {
            const cJSON *lv = cJSON_GetObjectItemCaseSensitive(mem, mem_levels[k]);
            for (int j = 0; j < 3 && lv; j++) {
                const cJSON *v = cJSON_GetObjectItemCaseSensitive(lv, what[j]);
                if (cJSON_IsNumber(v))
                    ws_stats_set(g, d->lvl[k][j], (uint64_t)v->valuedouble);
            }
        }
        for (int k = 0; k < 4 && t->multi_issue; k++) {
            const cJSON *lv = cJSON_GetObjectItemCaseSensitive(mem, mem_levels[k]);
            const cJSON *mn = lv ? cJSON_GetObjectItemCaseSensitive(lv, "mshr_occupancy_mean") : NULL;
            const cJSON *mx = lv ? cJSON_GetObjectItemCaseSensitive(lv, "mshr_occupancy_max") : NULL;
            if (cJSON_IsNumber(mn))
                ws_stats_set_real(g, d->mshr[k][0], mn->valuedouble);
            if (cJSON_IsNumber(mx))
                ws_stats_set(g, d->mshr[k][1], (uint64_t)mx->valuedouble);
            const cJSON *mg = lv ? cJSON_GetObjectItemCaseSensitive(lv, "merges") : NULL;
            if (cJSON_IsNumber(mg))
                ws_stats_set(g, d->merges[k], (uint64_t)mg->valuedouble);
        }
        const cJSON *dr = cJSON_GetObjectItemCaseSensitive(mem, "dram");
        static const char *const dk[4] = {"reads", "writes", "row_hits", "busy_cycles"};
        for (int j = 0; j < 4 && dr; j++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(dr, dk[j]);
            if (cJSON_IsNumber(v))
                ws_stats_set(g, d->dram[j], (uint64_t)v->valuedouble);
        }
        const cJSON *dc = dr ? cJSON_GetObjectItemCaseSensitive(dr, "cycles") : NULL;
        if (cJSON_IsNumber(dc))
            ws_stats_set(g, d->dram_slots, (uint64_t)dc->valuedouble * r->cfg.dram.channels);
    }
    if (t->multi_issue) {
        uint64_t cyc = 0;
        for (int k = 0; k < IT__COUNT; k++)
            ws_stats_set(g, d->issued_type[k], t->issued_type[k]);
        for (int k = 0; k < 6; k++) {
            ws_stats_set(g, d->issue_hist[k], t->issue_hist[k]);
            cyc += t->issue_hist[k];
        }
        ws_stats_set(g, d->issue_cycles, cyc);
        ws_stats_set(g, d->lane_accesses, t->lane_accesses);
    }
    uint32_t n_sm = t->n_sm ? t->n_sm : r->cfg.gpu.n_sm;
    for (int k = 0; k < 5; k++) {
        ws_stats_set(g, d->fu_busy[k], t->fu_busy[k]);
        ws_stats_set(g, d->fu_slots[k], (uint64_t)t->fu_count[k] * n_sm * cycles);
    }
}

static void fill(const ws_report *r, ws_stats_group *g, size_t i)
{
    const rep_defs *d = &r->d;
    const ws_launch_stats *ls = &r->ls[i];
    const rep_names *nm = &r->names[i];
    char kernel[sizeof ls->kernel + 1];
    memcpy(kernel, ls->kernel, sizeof ls->kernel);
    kernel[sizeof ls->kernel] = 0;
    ws_stats_set_text(g, d->kernel, kernel);
    ws_stats_set_text(g, d->mode, nm->mode);
    if (nm->policy[0])
        ws_stats_set_text(g, d->policy, nm->policy);
    const char *res = ws_err_name(ls->result);
    ws_stats_set_text(g, d->result, res ? res : "?");
    ws_stats_set_dim3(g, d->grid, ls->grid);
    ws_stats_set_dim3(g, d->block, ls->block);
    uint64_t ctas = (uint64_t)ls->grid[0] * ls->grid[1] * ls->grid[2];
    ws_stats_set(g, d->ctas, ctas);
    ws_stats_set(g, d->threads, ctas * ls->block[0] * ls->block[1] * ls->block[2]);
    ws_stats_set(g, d->dyn_smem, ls->dyn_smem);
    ws_stats_set(g, d->static_smem, ls->static_smem);
    ws_stats_set(g, d->regs, ls->regs_per_thread);
    ws_stats_set(g, d->warp_insts, ls->warp_insts);
    ws_stats_set(g, d->thread_insts, ls->thread_insts);
    ws_stats_set(g, d->lane_slots, ls->warp_insts * r->cfg.gpu.warp_size);
    for (int i = 0; i < MIX__COUNT; i++)
        ws_stats_set(g, d->mix[i], ls->mix[i]);
    if (ls->has_div)
        for (size_t k = 0; k < sizeof d_counters / sizeof d_counters[0]; k++)
            ws_stats_set(g, d->dv[k], *(const uint64_t *)((const char *)&ls->div + d_counters[k].off));
    /* cycles exist only in timing mode; leaving them unset hides cycles and ipc */
    if (ls->cycles || ls->t.cycles || !strcmp(nm->mode, "timing"))
        fill_timing(r, g, i);
    ws_stats_set_real(g, d->host_s, ls->host_seconds);
    ws_stats_set_real(g, d->host_sm_s, ls->host_sm_seconds);
    ws_stats_set(g, d->host_win, ls->host_window_cycles);
    for (int k = 0; k < WS_HOST_WAYS; k++)
        ws_stats_set(g, d->host_iters[k], ls->host_iters[k]);
    ws_stats_set(g, d->host_cuts, ls->host_adapt_cuts);
    ws_stats_set(g, d->host_retests, ls->host_adapt_retests);
}

/* Builds the launch groups and the total; the caller destroys them. */
static ws_stats_group **build(const ws_report *r, ws_stats_group **total)
{
    ws_stats_group **gs = calloc(r->n + 1, sizeof *gs);
    *total = ws_stats_group_create(r->d.s, "total");
    if (!gs || !*total) {
        free(gs);
        ws_stats_group_destroy(*total);
        *total = NULL;
        return NULL;
    }
    for (size_t i = 0; i < r->n; i++) {
        char title[200];
        snprintf(title, sizeof title, "launch %zu: %.*s", i, (int)sizeof r->ls[i].kernel,
                 r->ls[i].kernel);
        gs[i] = ws_stats_group_create(r->d.s, title);
        if (!gs[i])
            continue;
        fill(r, gs[i], i);
        ws_stats_accumulate(*total, gs[i]);
    }
    ws_stats_set(*total, r->d.launches, r->n);
    return gs;
}

static void unbuild(const ws_report *r, ws_stats_group **gs, ws_stats_group *total)
{
    if (gs)
        for (size_t i = 0; i < r->n; i++)
            ws_stats_group_destroy(gs[i]);
    free(gs);
    ws_stats_group_destroy(total);
}

/* One block per kernel name, its launches summed, in order of first launch. */
static void print_by_kernel(const ws_report *r, ws_stats_group **gs, FILE *f)
{
    char *done = calloc(r->n, 1);
    if (!done)
        return;
    for (size_t i = 0; i < r->n; i++) {
        if (done[i] || !gs[i])
            continue;
        size_t k = 0;
        for (size_t j = i; j < r->n; j++)
            k += gs[j] && !strncmp(r->ls[i].kernel, r->ls[j].kernel, sizeof r->ls[i].kernel);
        char title[200];
        snprintf(title, sizeof title, "kernel %.*s: %zu launch%s", (int)sizeof r->ls[i].kernel,
                 r->ls[i].kernel, k, k == 1 ? "" : "es");
        ws_stats_group *g = ws_stats_group_create(r->d.s, title);
        if (!g)
            break;
        for (size_t j = i; j < r->n; j++)
            if (gs[j] && !strncmp(r->ls[i].kernel, r->ls[j].kernel, sizeof r->ls[i].kernel)) {
                ws_stats_accumulate(g, gs[j]);
                done[j] = 1;
            }
        ws_stats_set(g, r->d.launches, k);
        ws_stats_print_text(g, f);
        ws_stats_group_destroy(g);
    }
    free(done);
}

void ws_report_print_text(const ws_report *r, FILE *f, int all)
{
    char mode[32] = "?";
    ws_config_get(&r->cfg, "sim.mode", mode, sizeof mode);
    fprintf(f, "warpsim: %zu launch%s, config %s (%s), mode %s\n", r->n, r->n == 1 ? "" : "es",
            *r->source ? r->source : "default", r->cfg.gpu.name, mode);
    ws_stats_group *total;
    ws_stats_group **gs = build(r, &total);
    if (!gs) {
        fputs("warpsim: out of memory building the report\n", f);
        return;
    }
    if (all || r->n <= WS_REPORT_TEXT_LAUNCHES) {
        for (size_t i = 0; i < r->n; i++)
            if (gs[i])
                ws_stats_print_text(gs[i], f);
    } else {
        print_by_kernel(r, gs, f);
    }
    size_t failed = ws_report_failed(r);
    if (failed)
        fprintf(f, "warpsim: %zu launch%s failed\n", failed, failed == 1 ? "" : "es");
    if (r->n != 1)
        ws_stats_print_text(total, f);
    const char *partial = ws_report_partial(r);
    if (partial)
        fprintf(f, "warpsim: PARTIAL statistics: %s\n", partial);
    unbuild(r, gs, total);
}

cJSON *ws_report_json(const ws_report *r)
{
    cJSON *root = cJSON_CreateObject();
    ws_stats_group *total;
    ws_stats_group **gs = root ? build(r, &total) : NULL;
    if (!gs) {
        cJSON_Delete(root);
        return NULL;
    }
    cJSON_AddStringToObject(root, "config_source", r->source);
    const char *partial = ws_report_partial(r);
    if (partial) {   /* only when partial: a complete report is unchanged */
        cJSON_AddBoolToObject(root, "partial", 1);
        cJSON_AddStringToObject(root, "stopped", partial);
    }
    cJSON *cfg = ws_config_json(&r->cfg);
    if (cfg)
        cJSON_AddItemToObject(root, "config", cfg);
    cJSON *arr = cJSON_AddArrayToObject(root, "launches");
    for (size_t i = 0; i < r->n && arr; i++) {
        cJSON *o = gs[i] ? ws_stats_json(gs[i]) : NULL;
        if (!o)
            continue;
        const ws_timing_stats *t = &r->ls[i].t;
        if (t->cycles) {
            /* latency histogram: bucket b counts latencies in [2^b, 2^(b+1)) cycles,
             * bucket 0 also 0-1, bucket 15 everything from 2^15 */
            double h[16];
            for (int k = 0; k < 16; k++)
                h[k] = (double)t->mem_lat_hist[k];
            cJSON *a = cJSON_CreateDoubleArray(h, 16);
            if (a)
                cJSON_AddItemToObject(o, "mem_lat_hist", a);
        }
        /* a reference: the report's own tree is printed as it is, not copied (deleting
         * the returned JSON leaves it to the report) */
        if (r->names[i].mem)
            cJSON_AddItemReferenceToObject(o, "mem", r->names[i].mem);
        cJSON_AddItemToArray(arr, o);
    }
    cJSON *t = ws_stats_json(total);
    if (t)
        cJSON_AddItemToObject(root, "total", t);
    unbuild(r, gs, total);
    return root;
}

int ws_report_write_json(const ws_report *r, const char *path, char *err, size_t n)
{
    cJSON *j = ws_report_json(r);
    char *txt = j ? json_print(j) : NULL;   /* cJSON_Print's text, faster */
    cJSON_Delete(j);
    if (!txt) {
        snprintf(err, n, "%s: out of memory", path);
        return -1;
    }
    FILE *f = fopen(path, "w");
    int rc = 0;
    if (!f) {
        snprintf(err, n, "%s: %s", path, strerror(errno));
        rc = -1;
    } else {
        if (fputs(txt, f) < 0 || fputc('\n', f) == EOF)
            rc = -1;
        if (fclose(f))
            rc = -1;
        if (rc)
            snprintf(err, n, "%s: write error", path);
    }
    free(txt);
    return rc;
}

void ws_report_print_doc(FILE *f)
{
    rep_defs d;
    fputs("# warpsim statistics\n\n"
          "<!-- generated by `warpsim stats --doc`; edit src/api/report.c, not this file -->\n\n"
          "The run report (`warpsim run`, `--json FILE`, and `$WARPSIM_STATS` for programs using\n"
          "the CUDA Driver API) has one block per kernel launch and a `total` block summing\n"
          "the launches. Names are stable identifiers (the JSON keys). Counters are summed in\n"
          "the total; statistics marked \"not in totals\" describe one launch only; formulas are\n"
          "recomputed from the summed counters, and a formula whose divisor is 0 reports 0.\n"
          "The text report omits zero instruction-mix entries, and beyond 8 launches shows\n"
          "one block per kernel (its launches summed; `warpsim run --all-launches` shows\n"
          "each). Statistics from `cycles` to `fu_ldst_util` exist in timing mode only;\n"
          "a timing-mode launch also has, in JSON, `mem_lat_hist` (16 buckets of memory\n"
          "instruction latency: bucket b counts [2^b, 2^(b+1)) cycles, bucket 0 also 0..1,\n"
          "bucket 15 everything above) and `mem`, the memory model's own statistics.\n"
          "Statistics marked \"JSON only\" are raw inputs of formulas. The JSON document is\n"
          "`{\"config_source\": ..., \"config\": {...}, \"launches\": [{...}, ...],\n"
          "\"total\": {...}}` where `config` is the effective configuration (docs/CONFIG.md).\n\n"
          "| name | unit | definition |\n|---|---|---|\n",
          f);
    memset(&d, 0, sizeof d);
    if (defs_init(&d) == 0)
        ws_stats_print_doc(d.s, f);
    ws_stats_destroy(d.s);
}
