/* drv_exec.c - Driver API: modules, functions and kernel launches. */
#include "api/drv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/occupancy.h"

/* ---- handles -------------------------------------------------------------------------- */
drv_mod *ws_drv_find_mod(drv_ctx *c, CUmodule h)
{
    for (drv_mod *m = c->mods; m; m = m->next)
        if (m == h)
            return m;
    return NULL;
}

drv_func *ws_drv_find_func(drv_ctx *c, CUfunction h)
{
    uintptr_t p = (uintptr_t)h;
    for (drv_mod *m = c->mods; m; m = m->next) {
        uintptr_t lo = (uintptr_t)m->funcs, hi = (uintptr_t)(m->funcs + m->n_funcs);
        if (p >= lo && p < hi && (p - lo) % sizeof *m->funcs == 0)
            return &m->funcs[(p - lo) / sizeof *m->funcs];
    }
    return NULL;
}

static const ptx_func *func_ptx(const drv_func *f, const ptx_module **pm)
{
    *pm = ws_module_ptx(f->mod->m);
    return &(*pm)->funcs[f->index];
}

/* ---- modules -------------------------------------------------------------------------- */
/* cubin and fatbinary images begin with these magic numbers; warpsim runs PTX text. */
static int is_binary_image(const unsigned char *p)
{
    static const unsigned char elf[4] = {0x7f, 'E', 'L', 'F'};
    static const unsigned char fatbin[4] = {0x50, 0xed, 0x55, 0xba};   /* 0xBA55ED50 */
    static const unsigned char wrapper[4] = {0xb1, 0x43, 0x62, 0x46};  /* 0x466243B1 */
    return !memcmp(p, elf, 4) || !memcmp(p, fatbin, 4) || !memcmp(p, wrapper, 4);
}

static CUresult mod_load(drv_ctx *c, const char *text, size_t len, const char *file,
                         CUmodule *out)
{
    if (len >= 4 && is_binary_image((const unsigned char *)text)) {
        fprintf(stderr, "warpsim: %s: a cubin/fatbinary image; warpsim loads PTX text "
                        "(nvcc -ptx)\n", file);
        return CUDA_ERROR_INVALID_IMAGE;
    }
    ws_module *wm = NULL;
    char err[1024] = "";
    ws_err e = ws_module_load(c->sim, text, len, file, &wm, err, sizeof err);
    if (e != WS_OK) {
        fprintf(stderr, "warpsim: %s\n", *err ? err : ws_err_name(e));
        return e == WS_E_OUT_OF_MEMORY ? CUDA_ERROR_OUT_OF_MEMORY
               : e == WS_E_INVALID_VALUE ? CUDA_ERROR_INVALID_VALUE
                                         : CUDA_ERROR_INVALID_PTX;
    }
    const ptx_module *pm = ws_module_ptx(wm);
    drv_mod *m = calloc(1, sizeof *m);
    drv_func *fs = calloc(pm->n_funcs ? pm->n_funcs : 1, sizeof *fs);
    if (!m || !fs) {
        free(m);
        free(fs);
        ws_module_unload(c->sim, wm);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < pm->n_funcs; i++)
        fs[i] = (drv_func){m, (int)i};
    m->ctx = c;
    m->m = wm;
    m->funcs = fs;
    m->n_funcs = pm->n_funcs;
    m->next = c->mods;
    c->mods = m;
    *out = m;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r == CUDA_SUCCESS && (!module || !image))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS)
        r = mod_load(c, image, strlen(image), "<cuModuleLoadData>", module);
    return ws_drv_leave(r);
}

CUresult CUDAAPI cuModuleLoad(CUmodule *module, const char *fname)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r != CUDA_SUCCESS)
        return ws_drv_leave(r);
    if (!module || !fname)
        return ws_drv_leave(CUDA_ERROR_INVALID_VALUE);
    char why[512];
    size_t len = 0;
    char *buf = ws_read_file(fname, &len, SIZE_MAX, why, sizeof why);
    if (!buf) {
        fprintf(stderr, "warpsim: cuModuleLoad: %s\n", why);
        return ws_drv_leave(errno == ENOMEM ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_FILE_NOT_FOUND);
    }
    r = mod_load(c, buf, len, fname, module);
    free(buf);
    return ws_drv_leave(r);
}

CUresult CUDAAPI cuModuleUnload(CUmodule hmod)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r != CUDA_SUCCESS)
        return ws_drv_leave(r);
    for (drv_mod **pp = &c->mods; *pp; pp = &(*pp)->next)
        if (*pp == hmod) {
            drv_mod *m = *pp;
            *pp = m->next;
            ws_module_unload(c->sim, m->m);
            free(m->funcs);
            free(m);
            return ws_drv_leave(CUDA_SUCCESS);
        }
    return ws_drv_leave(CUDA_ERROR_INVALID_HANDLE);
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r != CUDA_SUCCESS)
        return ws_drv_leave(r);
    if (!hfunc || !name)
        return ws_drv_leave(CUDA_ERROR_INVALID_VALUE);
    drv_mod *m = ws_drv_find_mod(c, hmod);
    if (!m)
        return ws_drv_leave(CUDA_ERROR_INVALID_HANDLE);
    int i = ws_module_kernel(m->m, name);
    if (i < 0 || (uint32_t)i >= m->n_funcs)
        return ws_drv_leave(CUDA_ERROR_NOT_FOUND);
    *hfunc = &m->funcs[i];
    return ws_drv_leave(CUDA_SUCCESS);
}

CUresult CUDAAPI cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod,
                                      const char *name)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r != CUDA_SUCCESS)
        return ws_drv_leave(r);
    if (!name)
        return ws_drv_leave(CUDA_ERROR_INVALID_VALUE);
    drv_mod *m = ws_drv_find_mod(c, hmod);
    if (!m)
        return ws_drv_leave(CUDA_ERROR_INVALID_HANDLE);
    uint64_t a = 0, n = 0;
    if (ws_module_global(m->m, name, &a, &n) != WS_OK)
        return ws_drv_leave(CUDA_ERROR_NOT_FOUND);
    if (dptr)
        *dptr = a;
    if (bytes)
        *bytes = (size_t)n;
    return ws_drv_leave(CUDA_SUCCESS);
}

/* ---- functions ------------------------------------------------------------------------ */
static uint64_t shared_static(const ptx_module *pm, const ptx_func *f)
{
    return pm->shared_static + f->shared_static;
}

/* Registers per thread as the driver reports them (cuFuncGetAttribute NUM_REGS): the
 * count the config or the toolchain states (occupancy_regs_stated), else 0: PTX
 * registers are virtual and nothing says how ptxas would allocate them. */
static uint32_t func_regs(const ws_config *cfg, const ptx_func *f)
{
    return occupancy_regs_stated(cfg, f, NULL);
}

static uint64_t max_threads(const ws_config *cfg, const ptx_func *f)
{
    uint64_t lim = cfg->gpu.max_threads_per_cta;
    const uint32_t *nt = f->reqntid[0] ? f->reqntid : f->maxntid[0] ? f->maxntid : NULL;
    if (nt) {
        uint64_t t = (uint64_t)nt[0] * (nt[1] ? nt[1] : 1) * (nt[2] ? nt[2] : 1);
        lim = t < lim ? t : lim;
    }
    uint32_t regs = func_regs(cfg, f), ws = cfg->gpu.warp_size, unit = cfg->gpu.reg_alloc_unit;
    if (regs && unit) {
        uint64_t per_warp = ((uint64_t)regs * ws + unit - 1) / unit * unit;
        uint64_t t = cfg->gpu.regs_per_sm / per_warp * ws;
        lim = t < lim ? t : lim;
    }
    return lim;
}

CUresult CUDAAPI cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r != CUDA_SUCCESS)
        return ws_drv_leave(r);
    if (!pi)
        return ws_drv_leave(CUDA_ERROR_INVALID_VALUE);
    drv_func *fn = ws_drv_find_func(c, hfunc);
    if (!fn)
        return ws_drv_leave(CUDA_ERROR_INVALID_HANDLE);
    const ptx_module *pm;
    const ptx_func *f = func_ptx(fn, &pm);
    const ws_config *cfg = &c->cfg;
    long long v;
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: v = (long long)max_threads(cfg, f); break;
    case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: v = (long long)shared_static(pm, f); break;
    case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
        v = 0;
        for (uint32_t i = 0; i < pm->n_syms; i++)
            if (pm->syms[i].space == SP_CONST)
                v += (long long)pm->syms[i].size;
        break;
    case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: v = f->frame_size; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: v = func_regs(cfg, f); break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: v = pm->version_major * 10 + pm->version_minor; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION:
        v = cfg->gpu.compute_major * 10 + cfg->gpu.compute_minor;
        break;
    case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: v = 0; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: {
        long long s = (long long)shared_static(pm, f);
        v = s < cfg->gpu.max_shared_per_cta ? cfg->gpu.max_shared_per_cta - s : 0;
        break;
    }
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: v = -1; break;
    default: return ws_drv_leave(CUDA_ERROR_INVALID_VALUE);
    }
    *pi = v > 0x7fffffff ? 0x7fffffff : (int)v;
    return ws_drv_leave(CUDA_SUCCESS);
}

/* ---- launches ------------------------------------------------------------------------- */
/* Faults inside a kernel leave the context unusable, as on a GPU. */
static CUresult launch_result(ws_err e, int *sticky)
{
    *sticky = 0;
    switch (e) {
    case WS_OK: return CUDA_SUCCESS;
    case WS_E_INVALID_VALUE: return CUDA_ERROR_INVALID_VALUE;
    case WS_E_OUT_OF_MEMORY: return CUDA_ERROR_OUT_OF_MEMORY;
    case WS_E_INVALID_PTX: return CUDA_ERROR_INVALID_PTX;
    case WS_E_NOT_FOUND: return CUDA_ERROR_NOT_FOUND;
    case WS_E_INVALID_HANDLE: return CUDA_ERROR_INVALID_HANDLE;
    case WS_E_OUT_OF_RESOURCES: return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    default: break;
    }
    *sticky = 1;
    switch (e) {
    case WS_E_ILLEGAL_ADDRESS: return CUDA_ERROR_ILLEGAL_ADDRESS;
    case WS_E_MISALIGNED: return CUDA_ERROR_MISALIGNED_ADDRESS;
    case WS_E_TRAP: return CUDA_ERROR_ILLEGAL_INSTRUCTION;
    /* a kernel that cannot progress would hang a GPU until its watchdog fires */
    case WS_E_DEADLOCK: return CUDA_ERROR_LAUNCH_TIMEOUT;
    default: return CUDA_ERROR_LAUNCH_FAILED;
    }
}

static void launch_error(const char *kernel, CUresult r, const char *msg)
{
    const char *name = "?";
    cuGetErrorName(r, &name);
    fprintf(stderr, "warpsim: cuLaunchKernel(%s): %s%s%s\n", kernel, name, *msg ? ": " : "",
            msg);
}

/* Lays the kernel's parameters out as its .param list says (offset, size). */
static CUresult pack_params(const ptx_module *pm, const ptx_func *f, void **kp, uint8_t *buf,
                            const char **why)
{
    for (uint32_t i = 0; i < f->n_params; i++) {
        const ptx_symbol *s = &pm->syms[f->params[i]];
        if (!kp[i]) {
            *why = "kernelParams has a NULL entry";
            return CUDA_ERROR_INVALID_VALUE;
        }
        if (s->addr + s->size > f->param_size) {
            *why = "parameter outside the parameter buffer";
            return CUDA_ERROR_INVALID_VALUE;
        }
        memcpy(buf + s->addr, kp[i], s->size);
    }
    return CUDA_SUCCESS;
}

static CUresult parse_extra(void **extra, const void **buf, size_t *size, const char **why)
{
    const void *p = NULL;
    const size_t *sz = NULL;
    for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
        if (i >= 64) {
            *why = "extra is not terminated by CU_LAUNCH_PARAM_END";
            return CUDA_ERROR_INVALID_VALUE;
        }
        if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
            p = extra[i + 1];
        else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
            sz = extra[i + 1];
        else {
            *why = "unknown option in extra";
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    if (!p || !sz) {
        *why = "extra needs both CU_LAUNCH_PARAM_BUFFER_POINTER and CU_LAUNCH_PARAM_BUFFER_SIZE";
        return CUDA_ERROR_INVALID_VALUE;
    }
    *buf = p;
    *size = *sz;
    return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                unsigned int gridDimZ, unsigned int blockDimX,
                                unsigned int blockDimY, unsigned int blockDimZ,
                                unsigned int sharedMemBytes, CUstream hStream,
                                void **kernelParams, void **extra)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r != CUDA_SUCCESS)
        return ws_drv_leave(r);
    drv_func *fn = ws_drv_find_func(c, f);
    if (!fn || !drv_stream_ok(hStream))
        return ws_drv_leave(CUDA_ERROR_INVALID_HANDLE);
    const ptx_module *pm;
    const ptx_func *pf = func_ptx(fn, &pm);
    const char *kname = ptx_str(pm, pf->name);
    const char *why = "";
    ws_launch_desc d = {
        .grid = {gridDimX, gridDimY, gridDimZ},
        .block = {blockDimX, blockDimY, blockDimZ},
        .dyn_smem = sharedMemBytes,
    };
    uint8_t stackbuf[512];
    uint8_t *heap = NULL;
    if (kernelParams && extra) {
        why = "both kernelParams and extra given";
        r = CUDA_ERROR_INVALID_VALUE;
    } else if (extra) {
        r = parse_extra(extra, &d.params, &d.params_size, &why);
    } else if (pf->param_size) {
        uint8_t *buf = pf->param_size <= sizeof stackbuf ? stackbuf
                                                         : (heap = calloc(1, pf->param_size));
        if (!buf) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
        } else if (!kernelParams) {
            why = "the kernel has parameters but kernelParams and extra are NULL";
            r = CUDA_ERROR_INVALID_VALUE;
        } else {
            memset(buf, 0, pf->param_size);
            r = pack_params(pm, pf, kernelParams, buf, &why);
            d.params = buf;
            d.params_size = pf->param_size;
        }
    }
    if (r == CUDA_SUCCESS) {
        char err[2048] = "";
        size_t n0 = 0, n = 0;
        ws_sim_launches(c->sim, &n0);
        ws_err e = ws_launch(c->sim, fn->mod->m, fn->index, &d, err, sizeof err);
        int sticky;
        r = launch_result(e, &sticky);
        if (sticky)
            c->sticky = r;
        if (r != CUDA_SUCCESS)
            launch_error(kname, r, *err ? err : ws_err_name(e));
        const ws_launch_stats *ls = ws_sim_launches(c->sim, &n);
        if (n > n0 && c->cfg.sim.mode == WS_MODE_TIMING && c->cfg.gpu.core_mhz)
            c->sim_ms += (double)ls[n - 1].cycles / (c->cfg.gpu.core_mhz * 1e3);
    } else {
        launch_error(kname, r, why);
    }
    free(heap);
    return ws_drv_leave(r);
}
