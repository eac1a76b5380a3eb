/* timing.h - running a launch on the timing model (timing.c). */
#ifndef WS_GPU_TIMING_H
#define WS_GPU_TIMING_H

#include "func/func.h"
#include "gpu/sim.h"
#include "mem/memsys.h"

/* The memory system a simulation keeps from one launch to the next (mem.keep_state,
 * for models with launch_begin): created at the first timing launch, on a clock that
 * runs on across launches (`clock`: the core cycle the next launch starts at). */
typedef struct {
    memsys *mem;
    uint64_t clock;
} timing_keep;

void timing_keep_free(timing_keep *k);

/* A host-to-device copy of [addr, addr + n): handed to the kept memory system (created
 * here if need be) when the configuration keeps one and its model takes copies
 * (mem_model.host_write; the detailed model with l2.fill_on_copy). */
void timing_host_write(const ws_config *cfg, timing_keep *keep, uint64_t addr, uint64_t n);

/* Runs the launch prepared in L cycle by cycle; fills st (timing fields, policy,
 * regs) and returns WS_OK or the fault / configuration error (message in err).
 * keep: the simulation's kept memory system (NULL: a fresh one for this launch). */
ws_err timing_launch(const ws_config *cfg, func_launch *L, ws_launch_stats *st, timing_keep *keep,
                     char *err, size_t n);

#endif
