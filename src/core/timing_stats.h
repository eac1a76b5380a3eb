/* timing_stats.h - the timing-mode statistics of one launch (docs/STATS.md).
 *
 * Defined here, below gpu/, because the core models fill them: each core model's
 * `stats` op (core_model.h) adds its cores' counters; timing.c adds the launch-wide
 * fields (cycles, occupancy, the memory model's JSON). gpu/sim.h includes this.
 */
#ifndef WS_CORE_TIMING_STATS_H
#define WS_CORE_TIMING_STATS_H

#include <stdint.h>

/* Timing-mode statistics of one launch (docs/STATS.md). */
typedef struct {
    uint64_t cycles;             /* core cycles from launch to the last warp's end   */
    uint32_t n_sm, n_schedulers, warp_size, max_warps_per_sm;
    uint32_t ctas_per_sm;        /* occupancy limit for this kernel                 */
    const char *occupancy_limiter;
    const char *regs_source;     /* occupancy.h: "ptxas", "maxnreg", "estimate", "config" */
    uint32_t regs_per_thread;    /* used for the register limit                     */
    uint64_t slot[8];            /* scheduler issue slots by outcome (sched.h WR_*)  */
    uint64_t idle_slots;         /* scheduler-cycles with no warp assigned           */
    uint64_t stall_cycles;       /* SM-cycles with resident warps and no issue       */
    uint64_t warps_in_flight_sum, resident_warps_sum, active_sm_cycles;
    uint64_t fu_busy[5];         /* sp, sfu, dp, ldst, int unit-cycles               */
    uint32_t fu_count[5];
    uint64_t mem_insts, mem_reqs, mem_bytes_used;
    uint64_t resfail[3];         /* CSF, MSHRF, MQF                                  */
    uint64_t ldst_stall_cycles;
    uint64_t queue_occupancy_sum, queued_cycles, queued_reqs, reod_full_cycles;
    uint64_t mem_lat_sum, mem_lat_max, mem_lat_n, mem_lat_hist[16];
    uint64_t shared_conflict_cycles, ifetch_misses, rf_conflict_cycles;
    /* multi-issue cores (core.model=gcn) only; zero and unreported otherwise */
    uint8_t multi_issue;         /* set by a core model that issues several per cycle */
    uint64_t issued_type[8];     /* instructions issued per issue_type (sched.h IT_*) */
    uint64_t issue_hist[6];      /* core cycles that issued 0, 1, ... 5 instructions  */
    uint64_t lane_accesses;      /* lane accesses of vector memory instructions       */
    struct cJSON *mem;           /* the memory model's own statistics (a cJSON tree,
                                    owned by whoever owns this record)             */
} ws_timing_stats;

#endif
