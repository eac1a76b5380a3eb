/* sm.h - one streaming multiprocessor of the timing model.
 *
 * Per core cycle (sm_cycle), evaluated back to front so one copy of state suffices:
 *   1. writeback: pipeline completions and returned memory requests clear the
 *      scoreboard (and tell the scheduler policy about memory completions);
 *   2. LD/ST unit: offers queued memory requests to the L1 (head of line blocks);
 *   3. issue: each scheduler classifies its warps (sched_cand) and lets its policy
 *      pick one ready warp; the instruction executes functionally at issue
 *      (func_warp_step) and occupies its functional unit;
 *   4. fetch: warps with an empty instruction buffer fetch through the L1I.
 * Functional execution happens at issue, so results never depend on timing.
 * The GPU top level reaches an SM only through the core-model table "fermi"
 * (core_model.h, defined at the end of sm.c); the static analyses it reads live in
 * insn_table.c and occupancy.c.
 */
#ifndef WS_CORE_SM_H
#define WS_CORE_SM_H

#include <stdint.h>

#include "core/insn_table.h"
#include "core/sched.h"
#include "func/func.h"
#include "mem/memsys.h"
#include "util/config.h"

/* Per-SM statistics (summed into the launch statistics). */
typedef struct {
    uint64_t issued;                 /* warp instructions issued                */
    uint64_t thread_insts;
    uint64_t slot[WR__COUNT];        /* scheduler-cycles by outcome: [WR_READY]
                                        counts issue slots used; others count
                                        slots lost, by the reason of the first
                                        candidate in the policy's view          */
    uint64_t idle_slots;             /* scheduler-cycles with no warp at all     */
    uint64_t stall_cycles;           /* cycles in which no scheduler issued      */
    uint64_t warps_in_flight_sum;    /* per cycle: warps with issued, unfinished
                                        instructions                            */
    uint64_t resident_warps_sum;     /* per cycle: warps assigned to the SM      */
    uint64_t active_cycles;          /* cycles with at least one resident warp   */
    uint64_t fu_busy[FU__COUNT];     /* unit-cycles occupied (initiation)        */
    uint64_t mem_insts, mem_reqs;    /* global/local memory instructions, requests */
    uint64_t mem_bytes_used;         /* bytes the lanes asked for                */
    uint64_t resfail[3];             /* reservation fails: CSF, MSHRF, MQF (cycles) */
    uint64_t ldst_stall_cycles;      /* cycles no queued request could be sent    */
    uint64_t queue_occupancy_sum;    /* per cycle: requests between LD/ST and L1D */
    uint64_t queued_cycles, queued_reqs; /* cycles requests waited before the L1D */
    uint64_t reod_full_cycles;       /* cycles the LD/ST queue waited on a full REOD queue */
    uint64_t mem_lat_sum, mem_lat_max, mem_lat_n; /* per memory instruction:
                                        issue to last access done              */
    uint64_t mem_lat_hist[16];       /* log2 buckets of that latency             */
    uint64_t shared_conflict_cycles; /* extra cycles from bank conflicts         */
    uint64_t rf_conflict_cycles;     /* extra operand-collection cycles          */
    uint64_t ifetch_misses;
    uint64_t ctas_done;
} sm_stats;

typedef struct sm sm;

/* Creates SM `id` for one launch. `shared_bytes` per CTA; max_ctas from occupancy. */
sm *sm_create(uint32_t id, const ws_config *cfg, func_launch *L, const insn_table *it,
              memsys *mem, const sched_ops *pol, const sched_params *sp, uint32_t max_ctas);
void sm_destroy(sm *s);

/* Whether a CTA fits now, and placing it (linear CTA index) at `cycle`. */
int sm_can_take_cta(const sm *s);
int sm_take_cta(sm *s, uint32_t linear, uint64_t cycle);

/* One core cycle. Returns nonzero when anything happened (progress). */
int sm_cycle(sm *s, uint64_t cycle);
/* Earliest cycle > cycle at which this SM can act again without outside change,
 * valid right after a sm_cycle() that returned 0; UINT64_MAX if never. Nothing later
 * than `bound` is looked for (the answer is then at most bound). */
uint64_t sm_next_event(const sm *s, uint64_t cycle, uint64_t bound);
/* Accounts `n` more cycles identical to the last one (idle skipping). */
void sm_repeat_cycle_stats(sm *s, uint64_t n);
int sm_busy(const sm *s);               /* any resident CTA                    */
int sm_ldst_waiting(const sm *s);       /* requests queued toward the L1D      */
const sm_stats *sm_get_stats(const sm *s);
/* Writes every warp's PC, state and what it waits for (deadlock report). */
int sm_dump(const sm *s, char *buf, size_t n);

#endif
