/* drv.h - internals of the CUDA Driver API implementation (src/api/drv_*.c).
 *
 * Handles given to the program are pointers to the structs below, but the driver
 * never trusts one: every handle is looked up in the lists of live objects before
 * use, so a stale or garbage handle yields an error code instead of a crash.
 *
 * Locking: every entry point takes ws_drv.lock for its whole duration (ws_drv_enter /
 * ws_drv_leave). Kernels run synchronously inside cuLaunchKernel, so one simulated
 * device does one thing at a time anyway.
 */
#ifndef WS_API_DRV_H
#define WS_API_DRV_H

#include <pthread.h>
#include <stdint.h>

#include <cuda.h>

#include "api/api.h"
#include "api/progress.h"
#include "api/report.h"
#include "gpu/sim.h"
#include "gpu/config.h"

typedef struct CUctx_st drv_ctx;
typedef struct CUmod_st drv_mod;
typedef struct CUfunc_st drv_func;
typedef struct CUevent_st drv_event;

struct CUfunc_st {
    drv_mod *mod;
    int index;                  /* function index in the PTX module              */
};

struct CUmod_st {
    drv_ctx *ctx;
    ws_module *m;
    drv_func *funcs;            /* one per PTX function; .entry ones are handed out */
    uint32_t n_funcs;
    drv_mod *next;
};

struct CUevent_st {
    drv_ctx *ctx;
    unsigned flags;
    int recorded;
    double ms;                  /* time stamp: simulated (timing) or host (functional) */
    drv_event *next;
};

struct CUctx_st {
    uint64_t serial;            /* tells a live context from a reused address      */
    int active;                 /* live (the primary context object outlives its    */
                                /* activations: its handle is stable, as in CUDA)  */
    ws_sim *sim;
    ws_config cfg;
    int primary;
    CUresult sticky;            /* error after a kernel fault; returned from then on */
    double sim_ms;              /* simulated time of the launches so far (timing)   */
    drv_mod *mods;
    drv_event *events;
    drv_ctx *next;
};

typedef struct {
    pthread_mutex_t lock;
    int initialised;
    ws_config cfg;              /* device configuration: new contexts copy it        */
    char source[512];           /* how cfg was chosen, for reports                   */
    int cfg_from_api;           /* cfg set by ws_api_set_config                       */
    drv_ctx *ctxs;              /* live contexts                                      */
    uint64_t next_serial;
    drv_ctx *primary;           /* device 0's primary context while retained         */
    unsigned primary_refs;
    ws_api_sim_fn on_destroy;
    void *on_destroy_user;
    ws_progress_fn on_progress;     /* ws_api_on_progress, given to every new ws_sim   */
    void *on_progress_user;
    ws_progress_display env_display;    /* WARPSIM_PROGRESS=1 without a hook          */
    int env_display_state;              /* 0 unread, 1 drawing, -1 off                 */
    char *stats_path;           /* $WARPSIM_STATS                                    */
    ws_report *retired;         /* launches of destroyed contexts, for stats_path     */
    int atexit_done;
} drv_state;

extern drv_state ws_drv;

/* Locks the driver and checks initialisation. */
CUresult ws_drv_enter_init(void);
/* Locks the driver and finds the calling thread's current context: checks
 * initialisation, a current context, that it is alive and not sticky-errored. */
CUresult ws_drv_enter(drv_ctx **c);
/* Unlocks the driver; returns r. */
CUresult ws_drv_leave(CUresult r);

/* Live-handle lookups within context c (NULL when not live). */
drv_mod *ws_drv_find_mod(drv_ctx *c, CUmodule h);
drv_func *ws_drv_find_func(drv_ctx *c, CUfunction h);
drv_event *ws_drv_find_event(drv_ctx *c, CUevent h);

/* Host time in milliseconds (monotonic). */
double ws_drv_host_ms(void);

/* A stream argument the driver accepts: NULL or the legacy / per-thread default. */
static inline int drv_stream_ok(CUstream s)
{
    return s == NULL || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD;
}

#endif
