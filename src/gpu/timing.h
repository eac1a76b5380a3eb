/* timing.h - running a launch on the timing model (timing.c). */
#ifndef WS_GPU_TIMING_H
#define WS_GPU_TIMING_H

#include "func/func.h"
#include "gpu/sim.h"

/* Runs the launch prepared in L cycle by cycle; fills st (timing fields, policy,
 * regs) and returns WS_OK or the fault / configuration error (message in err). */
ws_err timing_launch(const ws_config *cfg, func_launch *L, ws_launch_stats *st, char *err, size_t n);

#endif
