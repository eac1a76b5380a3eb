/* core_model.h - the core-model seam: what one SM (NVIDIA) or compute unit (AMD)
 * of the timing model offers to the GPU top level (gpu/timing.c).
 *
 * timing.c knows nothing of a core's pipeline: per launch it asks the model selected
 * by core.model for the kernel's occupancy, lets it build its per-launch static
 * tables once (launch_create), creates one core per gpu.n_sm, and then per cycle
 * calls `cycle` on every awake core, dispatches CTAs through can_take_cta/take_cta,
 * sleeps cores until next_event (accounting the skipped cycles with
 * repeat_cycle_stats), and at the end adds every core's statistics with `stats`.
 *
 * A model is one file defining a `const core_model` plus one line in core_model.c's
 * registry. The Fermi SM (sm.c, "fermi") is the first. Invariants every model keeps:
 *   - functional execution happens at issue (func_warp_step), so results never
 *     depend on timing (global-memory data accesses are committed at the end of the
 *     cycle, in SM order: func.h func_defer);
 *   - cycle() touches only its own core and launch view (cl->L is the SM's own) and the
 *     memory system through access/probe/pop_done/next_event_sm for its own id: cores
 *     run on several host threads (sim.host_threads);
 *   - the cycle loop never allocates per cycle;
 *   - a core whose cycle() returned 0 changes nothing until next_event() or an
 *     outside change (a memory response, a new CTA), and repeating that cycle's
 *     statistics with repeat_cycle_stats() is exactly what running it would add
 *     (core.skip_idle=false must give identical statistics).
 */
#ifndef WS_CORE_CORE_MODEL_H
#define WS_CORE_CORE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "core/occupancy.h"
#include "core/sched.h"
#include "core/timing_stats.h"
#include "func/func.h"
#include "mem/memsys.h"
#include "util/config.h"

/* What every core of one launch shares (owned by timing.c, valid for the launch). */
typedef struct {
    const ws_config *cfg;
    func_launch *L;
    memsys *mem;
    const sched_ops *pol;       /* warp scheduling policy (core.scheduler)          */
    const sched_params *sp;
    uint32_t max_ctas;          /* CTAs per core: the model's occupancy() limit      */
    const void *shared;         /* what the model's launch_create() returned        */
} core_launch;

typedef struct core_model {
    const char *name;
    const char *desc;
    /* Its own configuration rows (section named after the model) and parameter struct;
     * NULL: no parameters. The GPU layer hands the parsed struct to occupancy() and
     * launch_create() as `params` (NULL when the model has no table). */
    const ws_cfg_table *params;
    /* Per launch, before anything else: how many CTAs of kernel k fit on one core
     * (0: none; then the launch fails with the limiter's name). */
    occupancy (*occupancy)(const ws_config *cfg, const void *params, const ptx_module *m,
                           const ptx_func *k, uint32_t cta_threads, uint32_t smem_per_cta);
    /* Per launch: static tables every core reads (Fermi: the instruction table);
     * NULL when out of memory. launch_destroy(NULL) is allowed. */
    void *(*launch_create)(const ws_config *cfg, const void *params, const func_launch *L);
    void (*launch_destroy)(void *shared);
    /* Core `id` (0 .. gpu.n_sm-1) for one launch; NULL when out of memory.
     * destroy(NULL) is allowed. */
    void *(*create)(uint32_t id, const core_launch *cl);
    void (*destroy)(void *core);
    /* One core cycle: > 0 when anything happened (progress), 0 when nothing did,
     * < 0 on a fault (recorded in the launch, L->fault). */
    int (*cycle)(void *core, uint64_t cycle);
    /* Earliest cycle > cycle at which the core can act again without outside
     * change, valid right after a cycle() that returned 0; nothing later than
     * `bound` is looked for (the answer is then at most bound); UINT64_MAX if never. */
    uint64_t (*next_event)(const void *core, uint64_t cycle, uint64_t bound);
    /* Accounts n more cycles identical to the last one (idle skipping). */
    void (*repeat_cycle_stats)(void *core, uint64_t n);
    /* Whether a CTA fits now; placing CTA `linear` at `cycle` (nonzero: out of
     * memory). A core that answered 0 answers 0 until its next cycle() (only its own
     * cycle retires CTAs): the dispatcher does not ask it again before. */
    int (*can_take_cta)(const void *core);
    int (*take_cta)(void *core, uint32_t linear, uint64_t cycle);
    /* Anything resident or queued: the core must keep running. */
    int (*busy)(const void *core);
    /* Adds this core's statistics to t (sums; maxima by max). Also sets the
     * model's descriptive fields of t (functional-unit counts). */
    void (*stats)(const void *core, ws_timing_stats *t);
    /* Writes every warp's PC, state and what it waits for (deadlock report);
     * returns the characters written (at most n - 1). */
    int (*dump)(const void *core, char *buf, size_t n);
} core_model;

/* The registry: models by exact name; NULL when unknown. */
const core_model *core_model_find(const char *name);
/* The i-th registered model (0, 1, ...), NULL past the end. */
const core_model *core_model_at(size_t i);

#endif
