/* api.h - hooks of the CUDA Driver API implementation for the warpsim CLI and tests.
 *
 * src/api is the one place in warpsim with process-wide state: the CUDA Driver API is
 * process-global by definition (cuInit, device ordinals, the primary context), so the
 * driver keeps its initialised flag, device configuration, live contexts and primary
 * context reference count in one structure guarded by one mutex (drv.h). The current
 * context is thread-local, as in CUDA. Everything below that (ws_sim) is per object.
 *
 * Configuration of the contexts created by the driver, by precedence:
 *   ws_api_set_config() (the CLI's --config/--set/--mode), else the environment:
 *   WARPSIM_CONFIG  preset name or INI file (default gtx480)
 *   WARPSIM_SET     comma-separated section.key=value overrides
 *   WARPSIM_MODE    functional | timing (same as sim.mode)
 * WARPSIM_STATS=FILE writes the JSON run report (api/report.h) of every launch of the
 * process to FILE, rewritten when a context is destroyed and at exit.
 */
#ifndef WS_API_API_H
#define WS_API_API_H

#include "gpu/sim.h"
#include "gpu/config.h"

/* Uses cfg (copied) for the device and for every context created from now on,
 * instead of the environment; `source` describes it in reports. NULL restores the
 * environment. Returns 0, or -1 when cfg fails ws_config_check (message in err). */
int ws_api_set_config(const ws_config *cfg, const char *source, char *err, size_t n);

/* Called with a context's simulation just before it is destroyed (cuCtxDestroy, the
 * last cuDevicePrimaryCtxRelease, ws_api_shutdown), e.g. to collect its launch
 * statistics (it may take their memory-statistics trees: ws_report_take). The callback
 * must not call the Driver API. NULL removes it. */
typedef void (*ws_api_sim_fn)(ws_sim *sim, void *user);
void ws_api_on_destroy(ws_api_sim_fn fn, void *user);

/* Progress of every launch of the contexts created from now on (gpu/sim.h
 * ws_progress; the CLI's progress line). NULL removes it. Without a callback,
 * WARPSIM_PROGRESS=1 in the environment draws the progress line (api/progress.h) on
 * stderr when it is a terminal (what `warpsim exec` sets for the program it runs). */
void ws_api_on_progress(ws_progress_fn fn, void *user);

/* Destroys every live context (calling the on-destroy callback for each), writes
 * $WARPSIM_STATS a last time, and returns the driver to its state before cuInit. For
 * the CLI after a workload returns, and for tests. */
void ws_api_shutdown(void);

/* ---- SIGINT / SIGTERM in programs that use the API (Driver API programs, and CUDA
 * programs through src/cudart under `warpsim exec`) ------------------------------------
 * When the process asks for statistics ($WARPSIM_STATS or $WARPSIM_REPORT) and has left
 * SIGINT/SIGTERM at their default action, cuInit installs a handler: the first signal
 * stops the running launch at its next simulation step (ws_stop_request; a launch made
 * later stops at once) and, when the API call returns to the program, the process exits
 * with 128 + the signal, so the atexit writers record the statistics gathered so far,
 * marked partial. A signal that arrives while the program runs host code takes effect
 * at its next API call. The handler resets itself: a second signal kills as usual.
 * A program's own handler is left alone. */
/* The outermost API call of this thread has returned (after its locks are released):
 * exits the process as above when a signal asked for it. Called by ws_drv_leave and by
 * layers above (src/cudart) around which ws_api_nest_begin/end mark nested calls. */
void ws_api_check_interrupt(void);
/* The signal that interrupted the process as above (0: none), with "interrupted by signal
 * N" in why: the report writers mark the statistics partial even when the signal came
 * between launches (every recorded launch complete, the program's run not). */
int ws_api_interrupted(char *why, size_t n);
void ws_api_nest_begin(void);
void ws_api_nest_end(void);

/* Whether the simulator can run in mode (ws_mode). Contexts in an unsupported mode
 * fail to create with CUDA_ERROR_NOT_SUPPORTED. */
int ws_api_mode_supported(int mode);

#endif
