/* sm.h - one streaming multiprocessor of the timing model.
 *
 * Per core cycle (sm_cycle), evaluated back to front so one copy of state suffices:
 *   1. writeback: pipeline completions and returned memory requests clear the
 *      scoreboard (and tell the scheduler policy about memory completions);
 *   2. LD/ST unit: offers queued memory requests to the L1 (head of line blocks);
 *   3. issue: each scheduler classifies its warps (sched_cand; event-driven: only
 *      warps with an event since are examined again) and lets its policy
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
/* Writes every warp's PC, state and what it waits for (deadlock report). */
int sm_dump(const sm *s, char *buf, size_t n);

#endif
