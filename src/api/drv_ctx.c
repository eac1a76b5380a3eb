/* drv_ctx.c - Driver API: process state, initialisation, device and contexts.
 *
 * The one place in warpsim with process-wide mutable state (see api.h): the CUDA
 * Driver API is process-global by definition. The current context is thread-local.
 */
#include "api/drv.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

drv_state ws_drv = {.lock = PTHREAD_MUTEX_INITIALIZER};

static _Thread_local drv_ctx *t_cur;
static _Thread_local int t_nest;               /* API calls of a layer above in progress */
static volatile sig_atomic_t signals_caught;   /* cuInit installed on_signal             */
static _Thread_local uint64_t t_cur_serial;

/* Both modes run (gpu/sim.c); a mode the simulator lacks would be refused here. */
#define DRV_HAVE_TIMING 1

int ws_api_mode_supported(int mode)
{
    return mode == WS_MODE_FUNCTIONAL || (mode == WS_MODE_TIMING && DRV_HAVE_TIMING);
}

double ws_drv_host_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* ---- entry / exit ---------------------------------------------------------------------- */
/* Only pointers found in the live list are dereferenced: a handle from the program
 * may point anywhere. The serial tells the context a thread made current from a later
 * one allocated at the same address. */
static int ctx_live(const drv_ctx *c, uint64_t serial)
{
    for (const drv_ctx *p = ws_drv.ctxs; p; p = p->next)
        if (p == c)
            return p->active && (p->primary || p->serial == serial);
    return 0;
}

static int ctx_known(const drv_ctx *c)
{
    for (const drv_ctx *p = ws_drv.ctxs; p; p = p->next)
        if (p == c)
            return p->active;
    return 0;
}

CUresult ws_drv_enter_init(void)
{
    pthread_mutex_lock(&ws_drv.lock);
    return ws_drv.initialised ? CUDA_SUCCESS : CUDA_ERROR_NOT_INITIALIZED;
}

CUresult ws_drv_enter(drv_ctx **c)
{
    CUresult r = ws_drv_enter_init();
    *c = NULL;
    if (r != CUDA_SUCCESS)
        return r;
    if (!t_cur)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!ctx_live(t_cur, t_cur_serial))
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    if (t_cur->sticky != CUDA_SUCCESS)
        return t_cur->sticky;
    *c = t_cur;
    return CUDA_SUCCESS;
}

CUresult ws_drv_leave(CUresult r)
{
    pthread_mutex_unlock(&ws_drv.lock);
    if (!t_nest)
        ws_api_check_interrupt();
    return r;
}

/* ---- SIGINT / SIGTERM (api.h) ------------------------------------------------------------- */
static void on_signal(int sig)
{
    ws_stop_request(sig);   /* stores a sig_atomic_t: async-signal-safe */
}

/* Installs on_signal for SIGINT and SIGTERM where their action is the default one. */
static void catch_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) || old.sa_handler != SIG_DFL ||
            (old.sa_flags & SA_SIGINFO))
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sa.sa_flags = SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        if (!sigaction(sigs[i], &sa, NULL))
            signals_caught = 1;
    }
}

void ws_api_nest_begin(void) { t_nest++; }
void ws_api_nest_end(void) { t_nest--; }

int ws_api_interrupted(char *why, size_t n)
{
    int sig = ws_stop_requested();
    if (!signals_caught || sig <= 0)
        return 0;
    snprintf(why, n, "interrupted by signal %d", sig);
    return sig;
}

void ws_api_check_interrupt(void)
{
    char why[64];
    int sig = ws_api_interrupted(why, sizeof why);
    if (!sig)
        return;
    fprintf(stderr, "warpsim: %s: the statistics gathered so far are written, marked "
                    "partial\n", why);
    exit(128 + sig);
}

/* ---- configuration and statistics ---------------------------------------------------------- */
static int env_config(ws_config *cfg, char *source, size_t sn, char *err, size_t n)
{
    char why[400];
    const char *name = getenv("WARPSIM_CONFIG");
    const char *set = getenv("WARPSIM_SET");
    const char *mode = getenv("WARPSIM_MODE");
    if (!name || !*name)
        name = "gtx480";
    if (ws_config_load(cfg, name, why, sizeof why)) {
        snprintf(err, n, "WARPSIM_CONFIG: %s", why);
        return -1;
    }
    if (set && *set && ws_config_set(cfg, set, why, sizeof why)) {
        snprintf(err, n, "WARPSIM_SET: %s", why);
        return -1;
    }
    if (mode && *mode) {
        char kv[64];
        snprintf(kv, sizeof kv, "sim.mode=%.50s", mode);
        if (ws_config_set(cfg, kv, why, sizeof why)) {
            snprintf(err, n, "WARPSIM_MODE: %s", why);
            return -1;
        }
    }
    if (ws_config_check(cfg, why, sizeof why)) {
        snprintf(err, n, "WARPSIM_SET: %s", why);
        return -1;
    }
    snprintf(source, sn, "%s%s%.200s%s%.40s", name, set && *set ? " + " : "", set ? set : "",
             mode && *mode ? " + sim.mode=" : "", mode && *mode ? mode : "");
    return 0;
}

/* Writes the report of every launch so far (destroyed and live contexts). */
static void write_stats(void)
{
    if (!ws_drv.stats_path)
        return;
    ws_report *r = ws_report_create(&ws_drv.cfg, ws_drv.source);
    if (!r)
        return;
    if (ws_drv.retired)
        ws_report_merge(r, ws_drv.retired);
    for (drv_ctx *c = ws_drv.ctxs; c; c = c->next) {
        size_t n = 0;
        const ws_launch_stats *ls = c->active ? ws_sim_launches(c->sim, &n) : NULL;
        for (size_t i = 0; i < n; i++)
            ws_report_add(r, &ls[i]);
    }
    char why[64];
    if (ws_api_interrupted(why, sizeof why))
        ws_report_mark_partial(r, why);
    char err[300];
    if (ws_report_write_json(r, ws_drv.stats_path, err, sizeof err))
        fprintf(stderr, "warpsim: WARPSIM_STATS: %s\n", err);
    ws_report_destroy(r);
}

/* Keeps the launches of a context about to be destroyed, for $WARPSIM_STATS. */
static void retire_launches(drv_ctx *c)
{
    size_t n = 0;
    const ws_launch_stats *ls = ws_sim_launches(c->sim, &n);
    if (!ws_drv.stats_path || !n)
        return;
    if (!ws_drv.retired)
        ws_drv.retired = ws_report_create(&ws_drv.cfg, ws_drv.source);
    for (size_t i = 0; ws_drv.retired && i < n; i++)
        ws_report_add(ws_drv.retired, &ls[i]);
}

static void at_exit(void)
{
    pthread_mutex_lock(&ws_drv.lock);
    write_stats();
    pthread_mutex_unlock(&ws_drv.lock);
}

/* ---- contexts ------------------------------------------------------------------------------ */
/* Activates c (fresh or an inactive primary) with the device configuration. */
static CUresult ctx_activate(drv_ctx *c)
{
    if (!ws_api_mode_supported(ws_drv.cfg.sim.mode)) {
        fprintf(stderr, "warpsim: sim.mode=timing is not implemented yet; use "
                        "sim.mode=functional (--mode, WARPSIM_MODE, WARPSIM_SET)\n");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    c->cfg = ws_drv.cfg;
    c->sim = ws_sim_create(&c->cfg);
    if (!c->sim)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (ws_drv.on_progress) {
        ws_sim_set_progress(c->sim, ws_drv.on_progress, ws_drv.on_progress_user);
    } else {
        if (!ws_drv.env_display_state) {
            const char *e = getenv("WARPSIM_PROGRESS");
            ws_drv.env_display_state = e && !strcmp(e, "1") &&
                ws_progress_display_init(&ws_drv.env_display, stderr) ? 1 : -1;
        }
        if (ws_drv.env_display_state > 0)
            ws_sim_set_progress(c->sim, ws_progress_display_cb, &ws_drv.env_display);
    }
    c->serial = ++ws_drv.next_serial;
    c->active = 1;
    c->sticky = CUDA_SUCCESS;
    c->sim_ms = 0;
    c->mods = NULL;
    c->events = NULL;
    c->next = ws_drv.ctxs;
    ws_drv.ctxs = c;
    return CUDA_SUCCESS;
}

/* Releases everything c holds; the struct itself is freed unless it is the primary. */
static void ctx_deactivate(drv_ctx *c)
{
    retire_launches(c);   /* copies: before on_destroy, which may take the trees (cmd_run.c) */
    if (ws_drv.on_destroy)
        ws_drv.on_destroy(c->sim, ws_drv.on_destroy_user);
    for (drv_mod *m = c->mods, *nx; m; m = nx) {
        nx = m->next;
        ws_module_unload(c->sim, m->m);
        free(m->funcs);
        free(m);
    }
    for (drv_event *e = c->events, *nx; e; e = nx) {
        nx = e->next;
        free(e);
    }
    ws_sim_destroy(c->sim);
    c->sim = NULL;
    c->mods = NULL;
    c->events = NULL;
    c->active = 0;
    for (drv_ctx **pp = &ws_drv.ctxs; *pp; pp = &(*pp)->next)
        if (*pp == c) {
            *pp = c->next;
            break;
        }
    if (t_cur == c && !c->primary)
        t_cur = NULL;
    write_stats();
    if (c->primary)
        ws_drv.primary_refs = 0;
    else
        free(c);
}

CUresult CUDAAPI cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *params, unsigned int flags,
                                CUdevice dev)
{
    CUresult r = ws_drv_enter_init();
    if (r != CUDA_SUCCESS)
        return ws_drv_leave(r);
    if (!pctx || (flags & ~(unsigned)CU_CTX_FLAGS_MASK))
        return ws_drv_leave(CUDA_ERROR_INVALID_VALUE);
    if (dev != 0)
        return ws_drv_leave(CUDA_ERROR_INVALID_DEVICE);
    if (params && params->cigParams)
        return ws_drv_leave(CUDA_ERROR_NOT_SUPPORTED);
    if (params && params->execAffinityParams && params->numExecAffinityParams > 0)
        return ws_drv_leave(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY);
    drv_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return ws_drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
    r = ctx_activate(c);
    if (r != CUDA_SUCCESS) {
        free(c);
        return ws_drv_leave(r);
    }
    t_cur = c;
    t_cur_serial = c->serial;
    *pctx = c;
    return ws_drv_leave(CUDA_SUCCESS);
}

CUresult CUDAAPI cuCtxDestroy_v2(CUcontext ctx)
{
    CUresult r = ws_drv_enter_init();
    if (r != CUDA_SUCCESS)
        return ws_drv_leave(r);
    if (!ctx)
        return ws_drv_leave(CUDA_ERROR_INVALID_VALUE);
    /* choice: the primary context is released, never destroyed, by the program */
    if (ctx == ws_drv.primary || !ctx_known(ctx))
        return ws_drv_leave(CUDA_ERROR_INVALID_CONTEXT);
    ctx_deactivate(ctx);
    return ws_drv_leave(CUDA_SUCCESS);
}

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    CUresult r = ws_drv_enter_init();
    if (r != CUDA_SUCCESS)
        return ws_drv_leave(r);
    if (!pctx)
        return ws_drv_leave(CUDA_ERROR_INVALID_VALUE);
    if (dev != 0)
        return ws_drv_leave(CUDA_ERROR_INVALID_DEVICE);
    if (!ws_drv.primary) {
        ws_drv.primary = calloc(1, sizeof *ws_drv.primary);
        if (!ws_drv.primary)
            return ws_drv_leave(CUDA_ERROR_OUT_OF_MEMORY);
        ws_drv.primary->primary = 1;
    }
    if (!ws_drv.primary->active) {
        r = ctx_activate(ws_drv.primary);
        if (r != CUDA_SUCCESS)
            return ws_drv_leave(r);
        ws_drv.primary_refs = 0;
    }
    ws_drv.primary_refs++;
    *pctx = ws_drv.primary;
    return ws_drv_leave(CUDA_SUCCESS);
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
    CUresult r = ws_drv_enter_init();
    if (r != CUDA_SUCCESS)
        return ws_drv_leave(r);
    if (dev != 0)
        return ws_drv_leave(CUDA_ERROR_INVALID_DEVICE);
    if (!ws_drv.primary || !ws_drv.primary->active || ws_drv.primary_refs == 0)
        return ws_drv_leave(CUDA_ERROR_INVALID_CONTEXT);
    if (--ws_drv.primary_refs == 0)
        ctx_deactivate(ws_drv.primary);
    return ws_drv_leave(CUDA_SUCCESS);
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx)
{
    CUresult r = ws_drv_enter_init();
    if (r != CUDA_SUCCESS)
        return ws_drv_leave(r);
    if (ctx && !ctx_known(ctx))
        return ws_drv_leave(CUDA_ERROR_INVALID_CONTEXT);
    t_cur = ctx;
    t_cur_serial = ctx ? ctx->serial : 0;
    return ws_drv_leave(CUDA_SUCCESS);
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext *pctx)
{
    CUresult r = ws_drv_enter_init();
    if (r != CUDA_SUCCESS)
        return ws_drv_leave(r);
    if (!pctx)
        return ws_drv_leave(CUDA_ERROR_INVALID_VALUE);
    *pctx = t_cur;
    return ws_drv_leave(CUDA_SUCCESS);
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice *device)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r == CUDA_SUCCESS) {
        if (device)
            *device = 0;
        else
            r = CUDA_ERROR_INVALID_VALUE;
    }
    return ws_drv_leave(r);
}

CUresult CUDAAPI cuCtxSynchronize(void)
{
    drv_ctx *c;
    return ws_drv_leave(ws_drv_enter(&c));   /* kernels already ran; reports a sticky error */
}

CUresult CUDAAPI cuStreamSynchronize(CUstream hStream)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r == CUDA_SUCCESS && !drv_stream_ok(hStream))
        r = CUDA_ERROR_INVALID_HANDLE;
    return ws_drv_leave(r);
}

/* ---- initialisation and device ----------------------------------------------------------- */
CUresult CUDAAPI cuInit(unsigned int Flags)
{
    if (Flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    pthread_mutex_lock(&ws_drv.lock);
    if (ws_drv.initialised)
        return ws_drv_leave(CUDA_SUCCESS);
    if (!ws_drv.cfg_from_api) {
        char err[600];
        if (env_config(&ws_drv.cfg, ws_drv.source, sizeof ws_drv.source, err, sizeof err)) {
            fprintf(stderr, "warpsim: %s\n", err);
            return ws_drv_leave(CUDA_ERROR_INVALID_VALUE);
        }
    }
    const char *stats = getenv("WARPSIM_STATS");
    if (stats && *stats && !ws_drv.stats_path) {
        ws_drv.stats_path = strdup(stats);
        if (ws_drv.stats_path && !ws_drv.atexit_done)
            ws_drv.atexit_done = atexit(at_exit) == 0;
    }
    const char *report = getenv("WARPSIM_REPORT");
    if (ws_drv.stats_path || (report && *report))
        catch_signals();
    ws_drv.initialised = 1;
    return ws_drv_leave(CUDA_SUCCESS);
}

CUresult CUDAAPI cuDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = CUDA_VERSION;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal)
{
    CUresult r = ws_drv_enter_init();
    if (r == CUDA_SUCCESS && !device)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && ordinal != 0)
        r = CUDA_ERROR_INVALID_DEVICE;
    if (r == CUDA_SUCCESS)
        *device = 0;
    return ws_drv_leave(r);
}

CUresult CUDAAPI cuDeviceGetCount(int *count)
{
    CUresult r = ws_drv_enter_init();
    if (r == CUDA_SUCCESS && !count)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        *count = 1;
    return ws_drv_leave(r);
}

CUresult CUDAAPI cuDeviceGetName(char *name, int len, CUdevice dev)
{
    CUresult r = ws_drv_enter_init();
    if (r == CUDA_SUCCESS && (!name || len <= 0))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && dev != 0)
        r = CUDA_ERROR_INVALID_DEVICE;
    if (r == CUDA_SUCCESS)
        snprintf(name, (size_t)len, "%s", ws_drv.cfg.gpu.name);
    return ws_drv_leave(r);
}

CUresult CUDAAPI cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    CUresult r = ws_drv_enter_init();
    if (r == CUDA_SUCCESS && !bytes)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && dev != 0)
        r = CUDA_ERROR_INVALID_DEVICE;
    if (r == CUDA_SUCCESS)
        *bytes = (size_t)ws_drv.cfg.gpu.dram_bytes;
    return ws_drv_leave(r);
}

/* Attribute value from the configuration; -1 when the attribute is not modelled. */
static long long attr_value(const ws_config *c, CUdevice_attribute a)
{
    switch (a) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: return c->gpu.max_threads_per_cta;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: return c->gpu.max_block_x;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: return c->gpu.max_block_y;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: return c->gpu.max_block_z;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: return c->gpu.max_grid_x;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: return c->gpu.max_grid_y;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: return c->gpu.max_grid_z;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
        return c->gpu.max_shared_per_cta;
    case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: return c->gpu.const_bytes;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: return c->gpu.warp_size;
    case CU_DEVICE_ATTRIBUTE_MAX_PITCH: return INT_MAX;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: return c->gpu.regs_per_sm;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: return (long long)c->gpu.core_mhz * 1000;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT: return 512;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: return c->gpu.n_sm;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: return (long long)c->gpu.mem_mhz * 1000;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: return c->gpu.mem_bus_bits;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: return (long long)c->gpu.l2_bytes;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: return c->gpu.max_threads_per_sm;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: return c->gpu.compute_major;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: return c->gpu.compute_minor;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: return c->gpu.shared_per_sm;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: return c->gpu.regs_per_sm;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: return c->gpu.max_ctas_per_sm;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED:
        return 1;
    /* a discrete, synchronous, single device without host mapping or UVA */
    case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP:
    case CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT:
    case CU_DEVICE_ATTRIBUTE_INTEGRATED:
    case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
    case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE:
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS:
    case CU_DEVICE_ATTRIBUTE_ECC_ENABLED:
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
    case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID:
    case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID:
    case CU_DEVICE_ATTRIBUTE_TCC_DRIVER:
    case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT:
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
    case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
    case CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD:
    case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS:
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
    case CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH:
        return 0;
    default: return -1;
    }
}

CUresult CUDAAPI cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    CUresult r = ws_drv_enter_init();
    if (r == CUDA_SUCCESS && !pi)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS && dev != 0)
        r = CUDA_ERROR_INVALID_DEVICE;
    if (r == CUDA_SUCCESS) {
        long long v = attr_value(&ws_drv.cfg, attrib);
        if (v < 0)
            r = CUDA_ERROR_INVALID_VALUE;
        else
            *pi = v > INT_MAX ? INT_MAX : (int)v;
    }
    return ws_drv_leave(r);
}

/* ---- api.h ---------------------------------------------------------------------------------- */
int ws_api_set_config(const ws_config *cfg, const char *source, char *err, size_t n)
{
    char none[1];
    if (!err || !n) {
        err = none;
        n = sizeof none;
    }
    if (cfg && ws_config_check(cfg, err, n))
        return -1;
    int rc = 0;
    pthread_mutex_lock(&ws_drv.lock);
    if (cfg) {
        ws_drv.cfg = *cfg;
        snprintf(ws_drv.source, sizeof ws_drv.source, "%s", source ? source : "");
        ws_drv.cfg_from_api = 1;
    } else {
        ws_drv.cfg_from_api = 0;
        /* before cuInit the environment is read then; after, now */
        if (ws_drv.initialised)
            rc = env_config(&ws_drv.cfg, ws_drv.source, sizeof ws_drv.source, err, n);
    }
    pthread_mutex_unlock(&ws_drv.lock);
    return rc;
}

void ws_api_on_progress(ws_progress_fn fn, void *user)
{
    pthread_mutex_lock(&ws_drv.lock);
    ws_drv.on_progress = fn;
    ws_drv.on_progress_user = user;
    pthread_mutex_unlock(&ws_drv.lock);
}

void ws_api_on_destroy(ws_api_sim_fn fn, void *user)
{
    pthread_mutex_lock(&ws_drv.lock);
    ws_drv.on_destroy = fn;
    ws_drv.on_destroy_user = user;
    pthread_mutex_unlock(&ws_drv.lock);
}

void ws_api_shutdown(void)
{
    pthread_mutex_lock(&ws_drv.lock);
    while (ws_drv.ctxs)
        ctx_deactivate(ws_drv.ctxs);
    write_stats();
    free(ws_drv.stats_path);
    ws_report_destroy(ws_drv.retired);
    ws_drv.stats_path = NULL;
    ws_drv.retired = NULL;
    free(ws_drv.primary);
    ws_drv.primary = NULL;
    ws_drv.primary_refs = 0;
    t_cur = NULL;
    ws_drv.initialised = 0;
    pthread_mutex_unlock(&ws_drv.lock);
}
