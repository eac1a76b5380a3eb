/* rt_core.c - CUDA Runtime: process state, errors, fatbinary and kernel registration,
 * launches, function attributes and occupancy. */
#include "cudart/cudart.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/report.h"
#include "cudart/fatbin.h"

rt_state ws_rt = {.lock = PTHREAD_MUTEX_INITIALIZER};

static _Thread_local cudaError_t t_last_error;
static _Thread_local uint64_t t_bound_gen;    /* generation made current on this thread */

#define RT_CONFIG_DEPTH 64
typedef struct {
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;
} rt_config;
static _Thread_local rt_config t_config[RT_CONFIG_DEPTH];
static _Thread_local unsigned t_config_n;

/* ---- errors --------------------------------------------------------------------------- */
cudaError_t rt_error(cudaError_t e)
{
    if (e != cudaSuccess)
        t_last_error = e;
    return e;
}

cudaError_t rt_from_cu(CUresult r) { return (cudaError_t)r; }

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = t_last_error;
    t_last_error = cudaSuccess;
    return e;
}

cudaError_t cudaPeekAtLastError(void) { return t_last_error; }

const char *cudaGetErrorName(cudaError_t e)
{
    switch (e) {
#define RT_NAME(name, value, desc) case name: return #name;
    RT_ERRORS(RT_NAME)
#undef RT_NAME
    }
    return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
#define RT_DESC(name, value, desc) case name: return *desc ? desc : #name;
    RT_ERRORS(RT_DESC)
#undef RT_DESC
    }
    return "unrecognized error code";
}

cudaError_t rt_unsupported(const char *fn, const char *why)
{
    fprintf(stderr, "warpsim: %s is not implemented by warpsim's libcudart%s%s "
                    "(docs/CUDART.md lists what is)\n", fn, why && *why ? ": " : "",
            why ? why : "");
    return rt_error(cudaErrorNotSupported);
}

/* ---- initialisation ------------------------------------------------------------------- */
static void report_setup_locked(void);

static cudaError_t rt_init_locked(void)
{
    if (ws_rt.init_error != CUDA_SUCCESS)
        return rt_from_cu(ws_rt.init_error);
    if (!ws_rt.initialised) {
        CUresult r = cuInit(0);
        if (r == CUDA_SUCCESS)
            r = cuDevicePrimaryCtxRetain(&ws_rt.ctx, 0);
        if (r != CUDA_SUCCESS) {
            /* the driver printed why (configuration, mode) */
            const char *name = "?";
            cuGetErrorName(r, &name);
            fprintf(stderr, "warpsim: CUDA runtime initialisation failed (%s); every runtime "
                            "call will fail\n", name);
            ws_rt.init_error = r;
            return r == CUDA_ERROR_INVALID_VALUE ? cudaErrorInitializationError
                                                 : rt_from_cu(r);
        }
        ws_rt.initialised = 1;
        ws_rt.gen++;
        report_setup_locked();   /* also for programs without device code */
    }
    if (t_bound_gen != ws_rt.gen) {
        CUresult r = cuCtxSetCurrent(ws_rt.ctx);
        if (r != CUDA_SUCCESS)
            return rt_from_cu(r);
        t_bound_gen = ws_rt.gen;
    }
    return cudaSuccess;
}

void rt_lock(void)
{
    pthread_mutex_lock(&ws_rt.lock);
    ws_api_nest_begin();   /* Driver API calls made under the lock are nested ones */
}

void rt_unlock(void)
{
    ws_api_nest_end();
    pthread_mutex_unlock(&ws_rt.lock);
}

cudaError_t rt_enter(void)
{
    rt_lock();
    return rt_init_locked();
}

cudaError_t rt_leave(cudaError_t e)
{
    rt_unlock();
    e = rt_error(e);
    ws_api_check_interrupt();   /* a signal during the call: exit, statistics saved */
    return e;
}

/* Releases the primary context: its memory, modules and events go with it. */
cudaError_t cudaDeviceReset(void)
{
    rt_lock();
    if (ws_rt.initialised) {
        cuDevicePrimaryCtxRelease_v2(0);
        ws_rt.initialised = 0;
        ws_rt.ctx = NULL;
        for (rt_fatbin *fb = ws_rt.fatbins; fb; fb = fb->next) {
            fb->mod = NULL;
            fb->failed = 0;
        }
        for (rt_block *b = ws_rt.allocs, *nx; b; b = nx) {
            nx = b->next;
            free(b);
        }
        ws_rt.allocs = NULL;
        for (rt_stream *s = ws_rt.streams, *nx; s; s = nx) {
            nx = s->next;
            free(s);
        }
        ws_rt.streams = NULL;
    }
    rt_unlock();
    return cudaSuccess;
}

/* ---- run report (`warpsim exec`) -------------------------------------------------------- *
 * With WARPSIM_REPORT=FILE, the text report `warpsim run` prints (every launch of the
 * process) is written to FILE at exit; WARPSIM_REPORT_ALL=1 lists every launch. The
 * file is written even without launches, so `warpsim exec` can tell a program that
 * never used this library (built with the default -cudart static) from one that did. */
static void report_collect(ws_sim *sim, void *user)
{
    ws_report **r = user;
    size_t n = 0;
    ws_launch_stats *ls = ws_sim_launches_mut(sim, &n);   /* the simulation is being destroyed */
    if (!*r)
        *r = ws_report_create(ws_sim_config(sim), ws_rt.report_source);
    for (size_t i = 0; *r && i < n; i++)
        ws_report_take(*r, &ls[i]);
}

static void report_at_exit(void)
{
    const char *path = getenv("WARPSIM_REPORT");
    const char *all = getenv("WARPSIM_REPORT_ALL");
    rt_lock();
    ws_api_shutdown();   /* destroys the primary context: its launches are collected */
    ws_api_on_destroy(NULL, NULL);
    ws_rt.initialised = 0;
    ws_rt.ctx = NULL;
    ws_report *r = ws_rt.report;
    ws_rt.report = NULL;
    rt_unlock();
    FILE *f = path && *path ? fopen(path, "w") : NULL;
    if (!f) {
        if (path && *path)
            fprintf(stderr, "warpsim: WARPSIM_REPORT: cannot write %s\n", path);
    } else {
        char why[64];
        if (r && ws_api_interrupted(why, sizeof why))
            ws_report_mark_partial(r, why);
        if (r)
            ws_report_print_text(r, f, all && *all == '1');
        else
            fprintf(f, "warpsim: no kernel launches\n");
        fclose(f);
    }
    ws_report_destroy(r);
}

/* Once per process, at the first registration or initialisation: the report hook when
 * asked for. */
static void report_setup_locked(void)
{
    const char *path = getenv("WARPSIM_REPORT");
    if (ws_rt.report_registered || !path || !*path)
        return;
    const char *c = getenv("WARPSIM_CONFIG"), *set = getenv("WARPSIM_SET");
    const char *mode = getenv("WARPSIM_MODE");
    snprintf(ws_rt.report_source, sizeof ws_rt.report_source, "%s%s%.300s%s%.40s",
             c && *c ? c : "gtx480", set && *set ? " + " : "", set && *set ? set : "",
             mode && *mode ? " + sim.mode=" : "", mode && *mode ? mode : "");
    /* every context destroyed from now on (cudaDeviceReset, exit) adds its launches */
    ws_api_on_destroy(report_collect, &ws_rt.report);
    ws_rt.report_registered = atexit(report_at_exit) == 0;
}

/* ---- registration --------------------------------------------------------------------- */
typedef struct {
    uint32_t magic, version;
    const void *data;
    const void *filename_or_fatbins;
} rt_wrapper;

static rt_fatbin *find_fatbin(void **handle)
{
    for (rt_fatbin *fb = ws_rt.fatbins; fb; fb = fb->next)
        if ((void *)fb == (void *)handle)
            return fb;
    return NULL;
}

void **__cudaRegisterFatBinary(void *fatCubin)
{
    const rt_wrapper *w = fatCubin;
    char err[300] = "";
    size_t len = 0;
    if (!w || w->magic != WS_FATBIN_WRAPPER_MAGIC)
        snprintf(err, sizeof err, "bad fatbinary wrapper (magic 0x%08x, expected 0x%08x)",
                 w ? w->magic : 0, WS_FATBIN_WRAPPER_MAGIC);
    else if (!w->data)
        snprintf(err, sizeof err, "fatbinary wrapper without data");
    else
        len = ws_fatbin_container_size(w->data, err, sizeof err);
    rt_fatbin *fb = calloc(1, sizeof *fb);
    if (!fb) {
        fprintf(stderr, "warpsim: __cudaRegisterFatBinary: out of memory\n");
        return NULL;
    }
    fb->magic = RT_FATBIN_MAGIC;
    if (len) {
        fb->image = w->data;
        fb->image_len = len;
    } else {
        fprintf(stderr, "warpsim: __cudaRegisterFatBinary: %s; the kernels of this "
                        "translation unit cannot run\n", err);
        fb->failed = 1;
    }
    rt_lock();
    report_setup_locked();
    fb->next = ws_rt.fatbins;
    ws_rt.fatbins = fb;
    rt_unlock();
    return (void **)fb;
}

void __cudaRegisterFatBinaryEnd(void **fatCubinHandle) { (void)fatCubinHandle; }

char __cudaInitModule(void **fatCubinHandle)
{
    (void)fatCubinHandle;
    return 1;
}

void __cudaUnregisterFatBinary(void **fatCubinHandle)
{
    rt_lock();
    rt_fatbin *fb = find_fatbin(fatCubinHandle);
    if (fb) {
        for (rt_fatbin **pp = &ws_rt.fatbins; *pp; pp = &(*pp)->next)
            if (*pp == fb) {
                *pp = fb->next;
                break;
            }
        for (struct rt_func **pp = &ws_rt.funcs; *pp;) {
            struct rt_func *f = *pp;
            if (f->fb == fb) {
                *pp = f->next;
                free(f->name);
                free(f);
            } else {
                pp = &f->next;
            }
        }
        for (rt_var **pp = &ws_rt.vars; *pp;) {
            rt_var *v = *pp;
            if (v->fb == fb) {
                *pp = v->next;
                free(v->name);
                free(v);
            } else {
                pp = &v->next;
            }
        }
        /* the module goes with the context (process exit or cudaDeviceReset) */
        fb->magic = 0;
        free(fb);
    }
    rt_unlock();
}

void __cudaRegisterFunction(void **fatCubinHandle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, void *tid, void *bid,
                            void *bDim, void *gDim, int *wSize)
{
    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim,
        (void)wSize;
    rt_lock();
    rt_fatbin *fb = find_fatbin(fatCubinHandle);
    struct rt_func *f = fb && deviceName ? calloc(1, sizeof *f) : NULL;
    if (f && !(f->name = strdup(deviceName))) {
        free(f);
        f = NULL;
    }
    if (!f) {
        fprintf(stderr, "warpsim: __cudaRegisterFunction(%s): %s\n",
                deviceName ? deviceName : "(null)",
                fb ? "out of memory" : "unknown fatbinary handle");
    } else {
        f->fb = fb;
        f->host_fun = hostFun;
        f->next = ws_rt.funcs;
        ws_rt.funcs = f;
    }
    rt_unlock();
}

void __cudaRegisterVar(void **fatCubinHandle, char *hostVar, char *deviceAddress,
                       const char *deviceName, int ext, size_t size, int constant, int global)
{
    (void)deviceAddress, (void)global;
    if (ext)   /* an extern declaration: the defining unit registers the variable */
        return;
    rt_lock();
    rt_fatbin *fb = find_fatbin(fatCubinHandle);
    rt_var *v = fb && deviceName ? calloc(1, sizeof *v) : NULL;
    if (v && !(v->name = strdup(deviceName))) {
        free(v);
        v = NULL;
    }
    if (!v) {
        fprintf(stderr, "warpsim: __cudaRegisterVar(%s): %s\n",
                deviceName ? deviceName : "(null)",
                fb ? "out of memory" : "unknown fatbinary handle");
    } else {
        v->fb = fb;
        v->host_var = hostVar;
        v->size = size;
        v->constant = constant;
        v->next = ws_rt.vars;
        ws_rt.vars = v;
    }
    rt_unlock();
}

void __cudaRegisterManagedVar(void **fatCubinHandle, void **hostVarPtrAddress,
                              char *deviceAddress, const char *deviceName, int ext,
                              size_t size, int constant, int global)
{
    (void)fatCubinHandle, (void)hostVarPtrAddress, (void)deviceAddress, (void)ext,
        (void)size, (void)constant, (void)global;
    fprintf(stderr, "warpsim: __managed__ variable %s: managed memory is not implemented by "
                    "warpsim's libcudart; kernels using it will fail\n",
            deviceName ? deviceName : "?");
}

void __cudaRegisterTexture(void **fatCubinHandle, const void *hostVar,
                           const void **deviceAddress, const char *deviceName, int dim,
                           int norm, int ext)
{
    (void)fatCubinHandle, (void)hostVar, (void)deviceAddress, (void)dim, (void)norm, (void)ext;
    fprintf(stderr, "warpsim: texture reference %s: textures are not implemented by warpsim's "
                    "libcudart; kernels using it will fail\n", deviceName ? deviceName : "?");
}

void __cudaRegisterSurface(void **fatCubinHandle, const void *hostVar,
                           const void **deviceAddress, const char *deviceName, int dim, int ext)
{
    (void)fatCubinHandle, (void)hostVar, (void)deviceAddress, (void)dim, (void)ext;
    fprintf(stderr, "warpsim: surface reference %s: surfaces are not implemented by warpsim's "
                    "libcudart; kernels using it will fail\n", deviceName ? deviceName : "?");
}

/* ---- modules -------------------------------------------------------------------------- */
/* The PTX to load: ptx followed by the registers per thread ptxas allocated to each of its
 * kernels in the fatbinary's lowest-architecture SASS (ws_fatbin_sass_regs), as
 * `.pragma "warpsim.regs NAME N";` lines (ws_fatbin_ptx_add_regs), so that occupancy uses
 * them as it uses the built-in workloads' (core.regs_source = ptxas). Without SASS, or
 * when the PTX carries its own counts, ptx itself. A corrupt SASS entry is reported and
 * otherwise ignored: the PTX is what runs, and the registers are then estimated. */
static char *with_sass_regs(const rt_fatbin *fb, char *ptx, size_t *len)
{
    ws_fatbin_regs *regs = NULL;
    size_t count = 0, added = 0, nlen = 0;
    uint32_t sm = 0;
    char err[400] = "";
    if (ws_fatbin_sass_regs(fb->image, fb->image_len, &regs, &count, &sm, err, sizeof err)) {
        fprintf(stderr, "warpsim: %s; registers per thread will be estimated\n", err);
        return ptx;
    }
    char *out = ws_fatbin_ptx_add_regs(ptx, *len, regs, count, sm, &nlen, &added, err,
                                       sizeof err);
    ws_fatbin_regs_free(regs, count);
    if (!out) {
        if (err[0])
            fprintf(stderr, "warpsim: %s; registers per thread will be estimated\n", err);
        return ptx;
    }
    free(ptx);
    *len = nlen;
    return out;
}

cudaError_t rt_fatbin_module(rt_fatbin *fb, CUmodule *mod)
{
    if (fb->mod && fb->mod_gen == ws_rt.gen) {
        *mod = fb->mod;
        return cudaSuccess;
    }
    if (fb->failed)
        return cudaErrorInvalidKernelImage;
    char err[600] = "";
    size_t len = 0;
    uint32_t arch = 0;
    char *ptx = ws_fatbin_ptx(fb->image, fb->image_len, WS_FATBIN_MAX_ARCH, &len, &arch, err,
                              sizeof err);
    if (!ptx) {
        fprintf(stderr, "warpsim: %s\n", err);
        fb->failed = 1;
        return cudaErrorNoKernelImageForDevice;
    }
    ptx = with_sass_regs(fb, ptx, &len);
    CUresult r = cuModuleLoadData(&fb->mod, ptx);
    free(ptx);
    if (r != CUDA_SUCCESS) {
        /* the driver printed the PTX error with its line */
        fprintf(stderr, "warpsim: loading the compute_%u PTX of the fatbinary failed\n", arch);
        fb->mod = NULL;
        fb->failed = 1;
        return r == CUDA_ERROR_OUT_OF_MEMORY ? cudaErrorMemoryAllocation
                                             : cudaErrorInvalidKernelImage;
    }
    fb->mod_gen = ws_rt.gen;
    *mod = fb->mod;
    return cudaSuccess;
}

rt_var *rt_find_var(const void *symbol)
{
    for (rt_var *v = ws_rt.vars; v; v = v->next)
        if (v->host_var == symbol)
            return v;
    return NULL;
}

static struct rt_func *find_func_host(const void *host_fun)
{
    for (struct rt_func *f = ws_rt.funcs; f; f = f->next)
        if (f->host_fun == host_fun)
            return f;
    return NULL;
}

static struct rt_func *find_func_handle(cudaKernel_t k)
{
    for (struct rt_func *f = ws_rt.funcs; f; f = f->next)
        if (f == k)
            return f;
    return NULL;
}

/* The driver function of a registered kernel (loads its module on first use). */
static cudaError_t func_resolve(struct rt_func *f, const char *api, CUfunction *out)
{
    if (f->f && f->f_gen == ws_rt.gen) {
        *out = f->f;
        return cudaSuccess;
    }
    CUmodule mod;
    cudaError_t e = rt_fatbin_module(f->fb, &mod);
    if (e != cudaSuccess) {
        fprintf(stderr, "warpsim: %s(%s): no loadable PTX for this kernel\n", api, f->name);
        return e;
    }
    CUresult r = cuModuleGetFunction(&f->f, mod, f->name);
    if (r == CUDA_ERROR_NOT_FOUND) {
        fprintf(stderr, "warpsim: %s: kernel %s is registered but not in the fatbinary's "
                        "PTX\n", api, f->name);
        return cudaErrorInvalidDeviceFunction;
    }
    if (r != CUDA_SUCCESS)   /* e.g. the sticky error of an earlier kernel fault */
        return rt_from_cu(r);
    f->f_gen = ws_rt.gen;
    *out = f->f;
    return cudaSuccess;
}

static cudaError_t func_by_host(const void *func, const char *api, CUfunction *out,
                                struct rt_func **rf)
{
    struct rt_func *f = find_func_host(func);
    if (!f) {
        fprintf(stderr, "warpsim: %s: %p is not a registered kernel (no __global__ function "
                        "of a loaded fatbinary has this address)\n", api, func);
        return cudaErrorInvalidDeviceFunction;
    }
    if (rf)
        *rf = f;
    return func_resolve(f, api, out);
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun)
{
    if (!kernel)
        return rt_error(cudaErrorInvalidValue);
    rt_lock();
    struct rt_func *f = find_func_host(hostFun);
    *kernel = f;
    rt_unlock();
    if (!f) {
        fprintf(stderr, "warpsim: __cudaGetKernel: %p is not a registered kernel\n", hostFun);
        return rt_error(cudaErrorInvalidDeviceFunction);
    }
    return cudaSuccess;
}

/* ---- launch configuration --------------------------------------------------------------- */
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     cudaStream_t stream)
{
    if (t_config_n >= RT_CONFIG_DEPTH) {
        fprintf(stderr, "warpsim: __cudaPushCallConfiguration: more than %d nested launch "
                        "configurations\n", RT_CONFIG_DEPTH);
        return 1;
    }
    t_config[t_config_n++] = (rt_config){gridDim, blockDim, sharedMem, stream};
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                       void *stream)
{
    if (!t_config_n)
        return rt_error(cudaErrorMissingConfiguration);
    rt_config c = t_config[--t_config_n];
    *gridDim = c.grid;
    *blockDim = c.block;
    *sharedMem = c.shmem;
    *(cudaStream_t *)stream = c.stream;
    return cudaSuccess;
}

/* ---- launches ------------------------------------------------------------------------- */
static int dev_attr(CUdevice_attribute a)
{
    int v = 0;
    return cuDeviceGetAttribute(&v, a, 0) == CUDA_SUCCESS ? v : 0;
}

static cudaError_t check_config(const char *kname, dim3 g, dim3 b, size_t shmem)
{
    static const CUdevice_attribute bmax[3] = {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
                                               CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
                                               CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z};
    static const CUdevice_attribute gmax[3] = {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
                                               CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
                                               CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z};
    const unsigned gd[3] = {g.x, g.y, g.z}, bd[3] = {b.x, b.y, b.z};
    const char *why = NULL;
    char buf[160];
    for (int i = 0; i < 3 && !why; i++) {
        if (!gd[i] || !bd[i]) {
            why = "a zero grid or block dimension";
        } else if (bd[i] > (unsigned)dev_attr(bmax[i])) {
            snprintf(buf, sizeof buf, "block dimension %c = %u exceeds the device's %d",
                     "xyz"[i], bd[i], dev_attr(bmax[i]));
            why = buf;
        } else if (gd[i] > (unsigned)dev_attr(gmax[i])) {
            snprintf(buf, sizeof buf, "grid dimension %c = %u exceeds the device's %d",
                     "xyz"[i], gd[i], dev_attr(gmax[i]));
            why = buf;
        }
    }
    uint64_t threads = (uint64_t)b.x * b.y * b.z;
    if (!why && threads > (uint64_t)dev_attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)) {
        snprintf(buf, sizeof buf, "%llu threads per block exceed the device's %d",
                 (unsigned long long)threads,
                 dev_attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
        why = buf;
    }
    if (!why && shmem > (size_t)dev_attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)) {
        snprintf(buf, sizeof buf, "%zu bytes of dynamic shared memory exceed the device's %d",
                 shmem, dev_attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
        why = buf;
    }
    if (!why)
        return cudaSuccess;
    fprintf(stderr, "warpsim: launch of %s: invalid configuration <<<(%u,%u,%u), (%u,%u,%u), "
                    "%zu>>>: %s\n", kname, g.x, g.y, g.z, b.x, b.y, b.z, shmem, why);
    return cudaErrorInvalidConfiguration;
}

static cudaError_t launch(struct rt_func *rf, CUfunction f, dim3 g, dim3 b, void **args,
                          size_t shmem, cudaStream_t stream)
{
    if (!rt_stream_ok(stream)) {
        fprintf(stderr, "warpsim: launch of %s: unknown stream %p\n", rf->name,
                (void *)stream);
        return cudaErrorInvalidResourceHandle;
    }
    cudaError_t e = check_config(rf->name, g, b, shmem);
    if (e != cudaSuccess)
        return e;
    /* kernels run to completion inside the call, so every stream is in order */
    CUresult r = cuLaunchKernel(f, g.x, g.y, g.z, b.x, b.y, b.z, (unsigned)shmem, NULL, args,
                                NULL);
    return rt_from_cu(r);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void **args,
                               size_t sharedMem, cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return rt_leave(e);
    struct rt_func *f = find_func_handle(kernel);
    CUfunction cf = NULL;
    if (!f) {
        fprintf(stderr, "warpsim: __cudaLaunchKernel: %p is not a kernel handle from "
                        "__cudaGetKernel (launch before registration?)\n", (void *)kernel);
        e = cudaErrorInvalidDeviceFunction;
    } else {
        e = func_resolve(f, "__cudaLaunchKernel", &cf);
    }
    if (e == cudaSuccess)
        e = launch(f, cf, gridDim, blockDim, args, sharedMem, stream);
    return rt_leave(e);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                    void **args, size_t sharedMem, cudaStream_t stream)
{
    return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return rt_leave(e);
    CUfunction cf = NULL;
    struct rt_func *f = NULL;
    e = func_by_host(func, "cudaLaunchKernel", &cf, &f);
    if (e == cudaSuccess)
        e = launch(f, cf, gridDim, blockDim, args, sharedMem, stream);
    return rt_leave(e);
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                  size_t sharedMem, cudaStream_t stream)
{
    return cudaLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream);
}

/* ---- function attributes and occupancy ------------------------------------------------- */
static int fattr(CUfunction f, CUfunction_attribute a)
{
    int v = 0;
    return cuFuncGetAttribute(&v, a, f) == CUDA_SUCCESS ? v : 0;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    if (!attr)
        return rt_error(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    CUfunction f = NULL;
    if (e == cudaSuccess)
        e = func_by_host(func, "cudaFuncGetAttributes", &f, NULL);
    if (e == cudaSuccess) {
        memset(attr, 0, sizeof *attr);
        attr->sharedSizeBytes = (size_t)fattr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
        attr->constSizeBytes = (size_t)fattr(f, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
        attr->localSizeBytes = (size_t)fattr(f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
        attr->maxThreadsPerBlock = fattr(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
        attr->numRegs = fattr(f, CU_FUNC_ATTRIBUTE_NUM_REGS);
        attr->ptxVersion = fattr(f, CU_FUNC_ATTRIBUTE_PTX_VERSION);
        attr->binaryVersion = fattr(f, CU_FUNC_ATTRIBUTE_BINARY_VERSION);
        attr->cacheModeCA = fattr(f, CU_FUNC_ATTRIBUTE_CACHE_MODE_CA);
        attr->maxDynamicSharedSizeBytes =
            fattr(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
        attr->preferredShmemCarveout = -1;
    }
    return rt_leave(e);
}

/* Accepted and ignored: the simulated L1/shared split comes from the configuration. */
cudaError_t cudaFuncSetCacheConfig(const void *func, int cacheConfig)
{
    (void)cacheConfig;
    cudaError_t e = rt_enter();
    CUfunction f;
    if (e == cudaSuccess)
        e = func_by_host(func, "cudaFuncSetCacheConfig", &f, NULL);
    return rt_leave(e);
}

/* cudaFuncAttributeMaxDynamicSharedMemorySize (8) within the device limit is accepted
 * (the limit is checked at launch); carveout hints (9) are ignored. */
cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
    cudaError_t e = rt_enter();
    CUfunction f;
    if (e == cudaSuccess)
        e = func_by_host(func, "cudaFuncSetAttribute", &f, NULL);
    if (e == cudaSuccess) {
        if (attr == 8) {
            if (value < 0 || value > dev_attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK))
                e = cudaErrorInvalidValue;
        } else if (attr != 9) {
            rt_unlock();
            return rt_unsupported("cudaFuncSetAttribute", "only "
                                  "cudaFuncAttributeMaxDynamicSharedMemorySize and "
                                  "cudaFuncAttributePreferredSharedMemoryCarveout");
        }
    }
    return rt_leave(e);
}

static long long min_ll(long long a, long long b) { return a < b ? a : b; }

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                   const void *func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned int flags)
{
    (void)flags;
    if (!numBlocks || blockSize <= 0)
        return rt_error(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    CUfunction f = NULL;
    if (e == cudaSuccess)
        e = func_by_host(func, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", &f, NULL);
    if (e == cudaSuccess) {
        int ws = dev_attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
        if (ws <= 0)
            ws = 32;
        long long warps = (blockSize + ws - 1) / ws;
        long long n = dev_attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
        if (blockSize > fattr(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK))
            n = 0;
        n = min_ll(n, dev_attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR) /
                          (warps * ws));
        long long smem = fattr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES) + (long long)dynamicSMemSize;
        if (smem > 0)
            n = min_ll(n, dev_attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR) /
                              smem);
        long long regs = fattr(f, CU_FUNC_ATTRIBUTE_NUM_REGS);
        if (regs > 0)
            n = min_ll(n, dev_attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR) /
                              (regs * warps * ws));
        *numBlocks = (int)(n > 0 ? n : 0);
    }
    return rt_leave(e);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                  dynamicSMemSize, 0);
}
