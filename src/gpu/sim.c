/* sim.c - the simulation object: device memory, modules and kernel launches. */
#include "gpu/sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "func/func.h"
#include "core/core_model.h"
#include "core/occupancy.h"
#include "gpu/timing.h"

const char *const ws_mix_name[MIX__COUNT] = {
    "alu", "sfu", "dp", "ld_global", "st_global", "ld_shared", "st_shared", "ld_local",
    "st_local", "ld_const", "ld_param", "atomic", "ctrl", "barrier", "warp", "other",
};

struct ws_module {
    ptx_module *ptx;
    func_prog prog;
    uint64_t *gaddr;          /* device allocations of .global/.const variables */
    uint32_t n_gaddr;
    ws_module *next;
};

struct ws_sim {
    ws_config cfg;
    devmem mem;
    ws_module *modules;
    ws_launch_stats *launches;
    size_t n_launches, cap_launches;
    uint32_t gridid;
    ws_progress_fn progress;
    void *progress_user;
    uint64_t used_insts, used_cycles;   /* against sim.max_insts / sim.max_cycles    */
    int stopped;
    char stop_msg[256];
    timing_keep keep;         /* the memory system kept across timing launches */
};

/* The stop request of a signal handler: process state because a handler can reach
 * nothing else (sim.h). Written only by ws_stop_request/ws_stop_clear. */
static volatile sig_atomic_t ws_stop_sig;

void ws_stop_request(int sig)
{
    ws_stop_sig = sig > 0 ? sig : -1;
}

int ws_stop_requested(void)
{
    return (int)ws_stop_sig;
}

void ws_stop_clear(void)
{
    ws_stop_sig = 0;
}

const char *ws_sim_stopped(const ws_sim *s)
{
    return s->stopped ? s->stop_msg : NULL;
}

ws_sim *ws_sim_create(const ws_config *cfg)
{
    ws_sim *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->cfg = *cfg;
    devmem_init(&s->mem, cfg->gpu.dram_bytes);
    return s;
}

void ws_sim_destroy(ws_sim *s)
{
    if (!s)
        return;
    while (s->modules)
        ws_module_unload(s, s->modules);
    devmem_fini(&s->mem);
    timing_keep_free(&s->keep);
    for (size_t i = 0; i < s->n_launches; i++)
        cJSON_Delete(s->launches[i].t.mem);
    free(s->launches);
    free(s);
}

const ws_config *ws_sim_config(const ws_sim *s) { return &s->cfg; }

/* ---- memory ------------------------------------------------------------------------- */
ws_err ws_mem_alloc(ws_sim *s, uint64_t bytes, uint64_t *dptr)
{
    if (!dptr || bytes == 0)
        return WS_E_INVALID_VALUE;
    return devmem_alloc(&s->mem, bytes, dptr) ? WS_E_OUT_OF_MEMORY : WS_OK;
}

ws_err ws_mem_free(ws_sim *s, uint64_t dptr)
{
    return devmem_free(&s->mem, dptr) ? WS_E_INVALID_VALUE : WS_OK;
}

ws_err ws_mem_write(ws_sim *s, uint64_t dst, const void *src, uint64_t n)
{
    if (n == 0)
        return WS_OK;
    uint8_t *p = devmem_ptr(&s->mem, dst, n);
    if (!p || !src)
        return WS_E_INVALID_VALUE;
    memcpy(p, src, n);
    if (s->cfg.sim.mode == WS_MODE_TIMING)
        timing_host_write(&s->cfg, &s->keep, dst, n);   /* GPGPU-Sim: copies fill the L2 */
    return WS_OK;
}

ws_err ws_mem_read(ws_sim *s, void *dst, uint64_t src, uint64_t n)
{
    if (n == 0)
        return WS_OK;
    uint8_t *p = devmem_ptr(&s->mem, src, n);
    if (!p || !dst)
        return WS_E_INVALID_VALUE;
    memcpy(dst, p, n);
    return WS_OK;
}

ws_err ws_mem_copy(ws_sim *s, uint64_t dst, uint64_t src, uint64_t n)
{
    if (n == 0)
        return WS_OK;
    uint8_t *d = devmem_ptr(&s->mem, dst, n), *p = devmem_ptr(&s->mem, src, n);
    if (!d || !p)
        return WS_E_INVALID_VALUE;
    memmove(d, p, n);
    return WS_OK;
}

ws_err ws_mem_set(ws_sim *s, uint64_t dst, uint32_t value, unsigned elem_size, uint64_t count)
{
    if (elem_size != 1 && elem_size != 2 && elem_size != 4)
        return WS_E_INVALID_VALUE;
    if (count == 0)
        return WS_OK;
    if (dst % elem_size)
        return WS_E_INVALID_VALUE;
    uint8_t *p = devmem_ptr(&s->mem, dst, count * elem_size);
    if (!p)
        return WS_E_INVALID_VALUE;
    for (uint64_t i = 0; i < count; i++)
        memcpy(p + i * elem_size, &value, elem_size);
    return WS_OK;
}

uint64_t ws_mem_total(const ws_sim *s) { return s->mem.total; }
uint64_t ws_mem_free_bytes(const ws_sim *s) { return s->mem.total - s->mem.used; }

/* ---- modules ------------------------------------------------------------------------- */
ws_err ws_module_load(ws_sim *s, const char *ptx, size_t len, const char *file, ws_module **out,
                      char *err, size_t errlen)
{
    ptx_diag d;
    char dummy[8];
    if (!err) {
        err = dummy;
        errlen = sizeof dummy;
    }
    *out = NULL;
    if (!ptx) {
        snprintf(err, errlen, "no PTX text");
        return WS_E_INVALID_VALUE;
    }
    ptx_module *pm = ptx_parse(ptx, len, file ? file : "<ptx>", &d);
    if (!pm) {
        snprintf(err, errlen, "%s:%u:%u: %s", file ? file : "<ptx>", d.line, d.col, d.msg);
        return WS_E_INVALID_PTX;
    }
    ws_module *m = calloc(1, sizeof *m);
    if (!m) {
        ptx_module_free(pm);
        return WS_E_OUT_OF_MEMORY;
    }
    m->ptx = pm;
    m->gaddr = calloc(pm->n_syms + 1, sizeof *m->gaddr);
    ws_err rc = m->gaddr ? WS_OK : WS_E_OUT_OF_MEMORY;
    for (uint32_t i = 0; rc == WS_OK && i < pm->n_syms; i++) {
        ptx_symbol *sym = &pm->syms[i];
        if (sym->space != SP_GLOBAL && sym->space != SP_CONST)
            continue;
        uint64_t a;
        if (devmem_alloc(&s->mem, sym->size ? sym->size : 1, &a)) {
            snprintf(err, errlen, "%s:%u:%u: out of device memory for '%s' (%llu bytes)", pm->file,
                     sym->line, sym->col, ptx_str(pm, sym->name), (unsigned long long)sym->size);
            rc = WS_E_OUT_OF_MEMORY;
            break;
        }
        m->gaddr[m->n_gaddr++] = a;
        sym->addr = a;
        if (sym->init != UINT32_MAX && sym->size)
            memcpy(devmem_ptr(&s->mem, a, sym->size), pm->init + sym->init, sym->size);
    }
    if (rc == WS_OK && func_prog_bind(&m->prog, pm, s->cfg.func.host_reg_compact, err, errlen))
        rc = WS_E_INVALID_PTX;
    if (rc != WS_OK) {
        m->next = NULL;
        for (uint32_t i = 0; i < m->n_gaddr; i++)
            devmem_free(&s->mem, m->gaddr[i]);
        func_prog_free(&m->prog);
        free(m->gaddr);
        ptx_module_free(pm);
        free(m);
        return rc;
    }
    m->next = s->modules;
    s->modules = m;
    *out = m;
    return WS_OK;
}

void ws_module_unload(ws_sim *s, ws_module *m)
{
    for (ws_module **p = &s->modules; *p; p = &(*p)->next)
        if (*p == m) {
            *p = m->next;
            break;
        }
    for (uint32_t i = 0; i < m->n_gaddr; i++)
        devmem_free(&s->mem, m->gaddr[i]);
    func_prog_free(&m->prog);
    free(m->gaddr);
    ptx_module_free(m->ptx);
    free(m);
}

const ptx_module *ws_module_ptx(const ws_module *m) { return m->ptx; }

int ws_module_kernel(const ws_module *m, const char *name)
{
    int i = ptx_find_func(m->ptx, name);
    if (i < 0 || !m->ptx->funcs[i].is_entry || m->ptx->funcs[i].is_decl)
        return -1;
    return i;
}

ws_err ws_module_global(const ws_module *m, const char *name, uint64_t *dptr, uint64_t *bytes)
{
    for (uint32_t i = 0; i < m->ptx->n_syms; i++) {
        const ptx_symbol *sym = &m->ptx->syms[i];
        if (sym->func < 0 && (sym->space == SP_GLOBAL || sym->space == SP_CONST) &&
            !strcmp(ptx_str(m->ptx, sym->name), name)) {
            if (dptr)
                *dptr = sym->addr;
            if (bytes)
                *bytes = sym->size;
            return WS_OK;
        }
    }
    return WS_E_NOT_FOUND;
}

/* ---- launches ------------------------------------------------------------------------ */
static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void ws_sim_set_progress(ws_sim *s, ws_progress_fn fn, void *user)
{
    s->progress = fn;
    s->progress_user = user;
}

/* The launch being reported on: what ws_progress needs beside func_launch. */
typedef struct {
    ws_sim *s;
    func_launch *L;
    const char *kernel;
    double t0;
} launch_progress;

static void report_progress(void *ctx, uint64_t cycle)
{
    launch_progress *lp = ctx;
    const func_launch *L = lp->L;
    ws_progress p = {lp->s->n_launches - 1, lp->kernel,
                     lp->s->cfg.sim.mode == WS_MODE_TIMING ? "timing" : "functional",
                     L->ctas_done, (uint64_t)L->grid[0] * L->grid[1] * L->grid[2], cycle,
                     L->warp_insts, L->thread_insts, now_seconds() - lp->t0, 0};
    lp->s->progress(lp->s->progress_user, &p);
}

static ws_err check_launch(const ws_sim *s, const ptx_func *f, const ws_launch_desc *d,
                           uint32_t static_smem, char *err, size_t n)
{
    const ws_config *c = &s->cfg;
    const uint32_t maxb[3] = {c->gpu.max_block_x, c->gpu.max_block_y, c->gpu.max_block_z};
    const uint32_t maxg[3] = {c->gpu.max_grid_x, c->gpu.max_grid_y, c->gpu.max_grid_z};
    uint64_t threads = (uint64_t)d->block[0] * d->block[1] * d->block[2];
    for (int i = 0; i < 3; i++) {
        if (d->block[i] == 0 || d->grid[i] == 0 || d->block[i] > maxb[i] || d->grid[i] > maxg[i]) {
            snprintf(err, n, "invalid launch dimensions grid (%u,%u,%u) block (%u,%u,%u)", d->grid[0],
                     d->grid[1], d->grid[2], d->block[0], d->block[1], d->block[2]);
            return WS_E_INVALID_VALUE;
        }
    }
    if (threads > c->gpu.max_threads_per_cta) {
        snprintf(err, n, "block of %llu threads exceeds gpu.max_threads_per_cta=%u",
                 (unsigned long long)threads, c->gpu.max_threads_per_cta);
        return WS_E_INVALID_VALUE;
    }
    for (int i = 0; i < 3; i++)
        if (f->reqntid[0] && d->block[i] != (f->reqntid[i] ? f->reqntid[i] : 1)) {
            snprintf(err, n, "block (%u,%u,%u) differs from the kernel's .reqntid", d->block[0],
                     d->block[1], d->block[2]);
            return WS_E_INVALID_VALUE;
        }
    if (f->maxntid[0]) {
        uint64_t lim = (uint64_t)f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) *
                       (f->maxntid[2] ? f->maxntid[2] : 1);
        if (threads > lim) {
            snprintf(err, n, "block of %llu threads exceeds the kernel's .maxntid (%llu)",
                     (unsigned long long)threads, (unsigned long long)lim);
            return WS_E_INVALID_VALUE;
        }
    }
    if ((uint64_t)static_smem + d->dyn_smem > c->gpu.max_shared_per_cta) {
        snprintf(err, n, "%u bytes of static + %u bytes of dynamic shared memory exceed "
                 "gpu.max_shared_per_cta=%u", static_smem, d->dyn_smem, c->gpu.max_shared_per_cta);
        return WS_E_INVALID_VALUE;
    }
    if (d->params_size < f->param_size || (f->param_size && !d->params)) {
        snprintf(err, n, "kernel needs %u bytes of parameters, %zu given", f->param_size,
                 d->params_size);
        return WS_E_INVALID_VALUE;
    }
    return WS_OK;
}

static ws_launch_stats *new_stats(ws_sim *s)
{
    if (s->n_launches == s->cap_launches) {
        size_t cap = s->cap_launches ? s->cap_launches * 2 : 16;
        ws_launch_stats *nl = realloc(s->launches, cap * sizeof *nl);
        if (!nl)
            return NULL;
        s->launches = nl;
        s->cap_launches = cap;
    }
    ws_launch_stats *st = &s->launches[s->n_launches++];
    memset(st, 0, sizeof *st);
    return st;
}

ws_err ws_launch(ws_sim *s, ws_module *m, int func, const ws_launch_desc *d, char *err, size_t errlen)
{
    char dummy[8];
    if (!err) {
        err = dummy;
        errlen = sizeof dummy;
    }
    err[0] = 0;
    if (!m || !d || func < 0 || (uint32_t)func >= m->ptx->n_funcs || !m->ptx->funcs[func].is_entry)
        return WS_E_INVALID_VALUE;
    const ptx_func *f = &m->ptx->funcs[func];
    const div_ops *div = div_find(s->cfg.func.divergence);
    if (!div) {
        char known[256];
        div_names(known, sizeof known);
        snprintf(err, errlen, "unknown divergence policy func.divergence=%s (known: %s)",
                 s->cfg.func.divergence, known);
        return WS_E_INVALID_VALUE;
    }
    uint32_t static_smem = (uint32_t)(m->ptx->shared_static + f->shared_static);
    const uint64_t max_insts = s->cfg.sim.max_insts, max_cycles = s->cfg.sim.max_cycles;
    if (!s->stopped && ((max_insts && s->used_insts >= max_insts) ||
                        (max_cycles && s->cfg.sim.mode == WS_MODE_TIMING && s->used_cycles >= max_cycles))) {
        s->stopped = 1;
        snprintf(s->stop_msg, sizeof s->stop_msg, "the run's budget (%s) is spent",
                 max_insts && s->used_insts >= max_insts ? "sim.max_insts" : "sim.max_cycles");
    }
    if (!s->stopped && ws_stop_sig) {
        s->stopped = 1;
        snprintf(s->stop_msg, sizeof s->stop_msg, "stopped by signal %d", (int)ws_stop_sig);
    }
    if (s->stopped) {
        snprintf(err, errlen, "kernel '%s' not run: simulation stopped (%s)", ptx_str(m->ptx, f->name),
                 s->stop_msg);
        return WS_E_STOPPED;
    }
    ws_err rc = check_launch(s, f, d, static_smem, err, errlen);
    if (rc != WS_OK)
        return rc;
    /* the policy's own parameters (div_ops.params), checked by the policy */
    _Alignas(max_align_t) unsigned char div_params[WS_CFG_PLUGIN_BYTES];
    if (div->params && ws_config_params(&s->cfg, div->params->owner, div_params, div->params->size))
        return WS_E_INVALID_VALUE;
    if (div->params && div->check && div->check(div_params, err, errlen))
        return WS_E_INVALID_VALUE;
    if (s->cfg.sim.mode != WS_MODE_TIMING) {
        /* a CTA must fit on an SM in functional mode too (timing_launch says the same) */
        const core_model *cm = core_model_find(s->cfg.core.model);
        uint32_t threads = d->block[0] * d->block[1] * d->block[2];
        uint32_t smem = ((static_smem + 15u) & ~15u) + d->dyn_smem;
        _Alignas(max_align_t) unsigned char cm_buf[WS_CFG_PLUGIN_BYTES];
        const void *cm_params = cm ? ws_config_plugin_params(&s->cfg, cm->params, cm_buf, sizeof cm_buf) : NULL;
        occupancy oc = cm ? cm->occupancy(&s->cfg, cm_params, m->ptx, f, threads, smem)
                          : (occupancy){0, 0, 1, "", ""};
        if (oc.ctas_per_sm == 0) {
            snprintf(err, errlen, "kernel '%s': a CTA of %u threads (%u registers per thread, %u bytes of "
                     "shared memory) does not fit on an SM (limited by %s)", ptx_str(m->ptx, f->name),
                     threads, oc.regs_per_thread, smem, oc.limiter);
            return WS_E_OUT_OF_RESOURCES;
        }
    }

    func_launch *L = calloc(1, sizeof *L);
    if (!L)
        return WS_E_OUT_OF_MEMORY;
    L->prog = &m->prog;
    L->div = div;
    L->div_params = div->params ? div_params : NULL;
    L->kernel = f;
    L->mem = &s->mem;
    L->params = d->params;
    L->params_size = (uint32_t)d->params_size;
    memcpy(L->grid, d->grid, sizeof L->grid);
    memcpy(L->block, d->block, sizeof L->block);
    L->ws = s->cfg.gpu.warp_size;
    L->cta_threads = d->block[0] * d->block[1] * d->block[2];
    L->cta_warps = (L->cta_threads + L->ws - 1) / L->ws;
    L->shared_static = static_smem;
    L->dyn_base = (static_smem + 15u) & ~15u;
    L->shared_bytes = L->dyn_base + d->dyn_smem;
    L->stack_bytes = f->frame_size + s->cfg.func.stack_bytes;
    L->max_depth = s->cfg.func.max_call_depth;
    L->n_sm = s->cfg.gpu.n_sm;
    L->max_warps_sm = s->cfg.gpu.max_warps_per_sm;
    L->gridid = ++s->gridid;
    L->core_mhz = s->cfg.gpu.core_mhz;
    L->watchdog = s->cfg.func.watchdog_insts;
    L->budget_insts = max_insts ? max_insts - s->used_insts : 0;
    L->budget_cycles = max_cycles ? max_cycles - s->used_cycles : 0;
    L->stop = &ws_stop_sig;

    ws_launch_stats *st = new_stats(s);
    uint8_t *shared = calloc(L->shared_bytes ? L->shared_bytes : 1, 1);
    func_warp *warps = calloc(L->cta_warps, sizeof *warps);
    if (!st || !shared || !warps || func_launch_div_init(L)) {
        func_launch_div_fini(L);
        free(shared);
        free(warps);
        free(L);
        return WS_E_OUT_OF_MEMORY;
    }
    double t0 = now_seconds();
    launch_progress lp = {s, L, ptx_str(m->ptx, f->name), t0};
    if (s->progress) {
        L->progress = report_progress;
        L->progress_ctx = &lp;
    }
    if (s->cfg.sim.mode == WS_MODE_TIMING) {
        rc = timing_launch(&s->cfg, L, st, &s->keep, err, errlen);
        if (rc != WS_OK && !L->fault.code) {
            /* configuration / resource error before anything ran */
            func_launch_div_fini(L);
            free(shared);
            free(warps);
            free(L);
            s->n_launches--;
            return rc;
        }
    } else {
        uint64_t n_cta = (uint64_t)d->grid[0] * d->grid[1] * d->grid[2];
        func_cta cta;
        for (uint64_t i = 0; i < n_cta; i++) {
            if (i)
                memset(shared, 0, L->shared_bytes);
            func_cta_init(&cta, L, (uint32_t)i, shared);
            if (func_run_cta(L, &cta, warps))
                break;
            if (L->progress)
                L->progress(L->progress_ctx, 0);
        }
    }
    if (s->progress) {
        ws_progress p = {s->n_launches - 1, lp.kernel, s->cfg.sim.mode == WS_MODE_TIMING ? "timing" : "functional",
                         L->ctas_done, (uint64_t)d->grid[0] * d->grid[1] * d->grid[2], st->t.cycles,
                         L->warp_insts, L->thread_insts, now_seconds() - t0, 1};
        s->progress(s->progress_user, &p);
    }
    double t1 = now_seconds();
    rc = (ws_err)L->fault.code;
    if (rc != WS_OK)
        snprintf(err, errlen, "%s", L->fault.msg);

    snprintf(st->kernel, sizeof st->kernel, "%s", ptx_str(m->ptx, f->name));
    memcpy(st->grid, d->grid, sizeof st->grid);
    memcpy(st->block, d->block, sizeof st->block);
    st->dyn_smem = d->dyn_smem;
    st->static_smem = static_smem;
    if (!st->regs_per_thread)  /* functional mode: the count without the estimate */
        st->regs_per_thread = occupancy_regs_stated(&s->cfg, f, NULL);
    st->mode = s->cfg.sim.mode == WS_MODE_TIMING ? "timing" : "functional";
    st->warp_insts = L->warp_insts;
    st->thread_insts = L->thread_insts;
    if (div->stats && L->dstate) {
        st->has_div = 1;
        div->stats(L->dstate, &st->div);
    }
    memcpy(st->mix, L->mix, sizeof st->mix);
    st->host_seconds = t1 - t0;
    st->result = rc;
    s->used_insts += L->warp_insts;
    s->used_cycles += st->cycles;
    if (rc == WS_E_STOPPED && !s->stopped) {
        s->stopped = 1;
        snprintf(s->stop_msg, sizeof s->stop_msg, "%.200s", L->fault.msg);
    }

    for (uint32_t i = 0; i < L->cta_warps; i++)
        func_warp_fini(&warps[i]);
    func_launch_div_fini(L);
    free(warps);
    free(shared);
    free(L);
    return rc;
}

const ws_launch_stats *ws_sim_launches(const ws_sim *s, size_t *n)
{
    *n = s->n_launches;
    return s->launches;
}

ws_launch_stats *ws_sim_launches_mut(ws_sim *s, size_t *n)
{
    *n = s->n_launches;
    return s->launches;
}
