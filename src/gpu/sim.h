/* sim.h - one simulation: configuration, device memory, loaded modules, launches.
 *
 * A ws_sim is the whole simulated GPU; nothing in the simulator is global, so two
 * ws_sim objects in one process never interfere. The CUDA Driver API (src/api) maps
 * one CUcontext to one ws_sim; the CLI and the tests may also use it directly.
 */
#ifndef WS_GPU_SIM_H
#define WS_GPU_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "core/timing_stats.h"
#include "func/func.h"
#include "gpu/config.h"
#include "ptx/ir.h"
#include "util/err.h"

/* ws_err: util/err.h */

typedef struct ws_sim ws_sim;
typedef struct ws_module ws_module;

ws_sim *ws_sim_create(const ws_config *cfg);
void ws_sim_destroy(ws_sim *s);
const ws_config *ws_sim_config(const ws_sim *s);

/* ---- device memory (global space) ---------------------------------------------------- */
ws_err ws_mem_alloc(ws_sim *s, uint64_t bytes, uint64_t *dptr);
ws_err ws_mem_free(ws_sim *s, uint64_t dptr);
ws_err ws_mem_write(ws_sim *s, uint64_t dst, const void *src, uint64_t n);
ws_err ws_mem_read(ws_sim *s, void *dst, uint64_t src, uint64_t n);
ws_err ws_mem_copy(ws_sim *s, uint64_t dst, uint64_t src, uint64_t n);
/* Fills count elements of elem_size (1, 2 or 4) bytes with value. */
ws_err ws_mem_set(ws_sim *s, uint64_t dst, uint32_t value, unsigned elem_size, uint64_t count);
uint64_t ws_mem_total(const ws_sim *s);
uint64_t ws_mem_free_bytes(const ws_sim *s);

/* ---- modules -------------------------------------------------------------------------- */
/* Parses, lays out and binds a PTX module; allocates and initialises its .global and
 * .const variables. On error returns WS_E_INVALID_PTX and writes
 * "file:line:col: message" into err. */
ws_err ws_module_load(ws_sim *s, const char *ptx, size_t len, const char *file,
                      ws_module **out, char *err, size_t errlen);
void ws_module_unload(ws_sim *s, ws_module *m);
const ptx_module *ws_module_ptx(const ws_module *m);
/* Index of a defined .entry function, or -1. */
int ws_module_kernel(const ws_module *m, const char *name);
/* Device address and size of a module-scope .global or .const variable. */
ws_err ws_module_global(const ws_module *m, const char *name, uint64_t *dptr, uint64_t *bytes);

/* ---- launches ------------------------------------------------------------------------- */
typedef struct {
    uint32_t grid[3], block[3];
    uint32_t dyn_smem;        /* dynamic shared memory bytes                        */
    const void *params;       /* kernel parameter buffer laid out as the .entry's     */
    size_t params_size;       /* .param list (ptx_symbol.addr offsets)               */
} ws_launch_desc;

/* Names of the instruction-mix buckets (ws_mix, func/func.h) of the launch report. */
extern const char *const ws_mix_name[MIX__COUNT];

/* Timing-mode statistics of one launch: ws_timing_stats (core/timing_stats.h). */

/* The ways the timing model's adaptive choice runs the cycle loop (gpu/timing.h
 * TIMING__WAYS), counted per way in ws_launch_stats.host_iters */
enum { WS_HOST_WAYS = 4 };

typedef struct {
    char kernel[128];
    uint32_t grid[3], block[3];
    uint32_t dyn_smem, static_smem, regs_per_thread;
    const char *mode;          /* "functional" or "timing"                             */
    const char *policy;        /* warp scheduler used (timing), else NULL              */
    uint64_t warp_insts;       /* warp instructions issued                            */
    uint64_t thread_insts;     /* sum of active lanes over issued instructions        */
    uint64_t mix[MIX__COUNT];  /* warp instructions per bucket                        */
    uint64_t cycles;           /* timing mode only                                    */
    double host_seconds;       /* wall time of the launch on the host                 */
    uint64_t host_window_cycles; /* timing: SM cycles run in per-SM windows             */
    double host_sm_seconds;    /* timing: of which the cycle loop's SM phase (sampled)  */
    uint64_t host_iters[WS_HOST_WAYS]; /* timing, sim.host_threads_adapt: the cycle
                                  loop's iterations by way (gpu/timing.h TIMING_TEAM,
                                  _ALONE, _SERIAL, _BOTH)                              */
    uint64_t host_adapt_cuts;  /* ... its test slices ended early (timing_adapt_cut)   */
    uint64_t host_adapt_retests; /* ... its rounds cut short by a costly slice          */
    ws_err result;
    ws_timing_stats t;         /* timing mode only (t.cycles == 0 otherwise)           */
    int has_div;               /* the divergence policy reports statistics (div)      */
    div_stats div;             /* path-table policies only (func/div.h)               */
} ws_launch_stats;

/* Runs a kernel to completion (functional or timing mode per the config). On a fault
 * returns its code and writes a report naming kernel, PTX line, thread, CTA and
 * address into err. */
ws_err ws_launch(ws_sim *s, ws_module *m, int func, const ws_launch_desc *d, char *err,
                 size_t errlen);

/* Progress of the running launch, for a display (the CLI's progress line). Reported
 * now and then during a launch (timing mode: every 4096 iterations of the cycle loop;
 * functional mode: after each CTA) and once at its end (done = 1). Observing only:
 * the callback must not call back into the simulation. */
typedef struct {
    size_t launch;             /* index of the launch in this simulation (0-based)    */
    const char *kernel;
    const char *mode;          /* "functional" or "timing"                             */
    uint64_t ctas_done, ctas_total;
    uint64_t cycles;           /* simulated cycles so far (timing), else 0             */
    uint64_t warp_insts, thread_insts;
    double seconds;            /* host seconds since the launch started                */
    int done;
} ws_progress;
typedef void (*ws_progress_fn)(void *user, const ws_progress *p);
/* Installs (fn) or removes (NULL) the progress callback of the simulation's launches. */
void ws_sim_set_progress(ws_sim *s, ws_progress_fn fn, void *user);
/* ---- stopping a run early (budgets, signals) --------------------------------------------
 * sim.max_insts / sim.max_cycles budget the whole simulation (every launch of this
 * ws_sim): the launch that reaches one stops with WS_E_STOPPED, its statistics so far
 * recorded (result WS_E_STOPPED marks them partial), and every later launch returns
 * WS_E_STOPPED without running. ws_stop_request(sig) does the same for every ws_sim of
 * the process: it is async-signal-safe (it only stores a sig_atomic_t), meant for a
 * SIGINT/SIGTERM handler; the running launch stops within one warp instruction
 * (functional) or one cycle-loop step (timing). That flag is the simulator's one piece
 * of process-global mutable state outside src/api and src/cudart, because a signal
 * handler can reach nothing else. */
void ws_stop_request(int sig);
/* The signal number of the stop request (-1 when requested without one), or 0. */
int ws_stop_requested(void);
void ws_stop_clear(void);
/* NULL while the simulation may run, else why it stopped. */
const char *ws_sim_stopped(const ws_sim *s);

/* Statistics of every launch so far, in order. */
const ws_launch_stats *ws_sim_launches(const ws_sim *s, size_t *n);
/* The same records, for a caller that takes their memory-statistics trees (ws_report_take
 * sets t.mem to NULL: the simulation no longer deletes what was taken). */
ws_launch_stats *ws_sim_launches_mut(ws_sim *s, size_t *n);

#endif
