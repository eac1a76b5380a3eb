/* occupancy.c - CTAs per SM and the register-pressure estimate (see occupancy.h). */
#include "core/occupancy.h"

#include <stdlib.h>
#include <string.h>

#include "core/insn_table.h"
#include "ptx/cfg.h"
#include "ptx/live.h"

/* Registers per thread of kernel k and where the count came from: the config's
 * core.regs_per_thread for every kernel, else (core.regs_source = ptxas) the count
 * ptxas allocated (the module's warpsim.regs pragma), else the PTX's own .maxnreg, else
 * an estimate of peak register pressure (estimate_regs, below). */
uint32_t occupancy_regs_stated(const ws_config *cfg, const ptx_func *k, const char **source)
{
    const char *src = "estimate";
    uint32_t r = 0;
    if (cfg->core.regs_per_thread) {
        r = cfg->core.regs_per_thread;
        src = "config";
    } else if (cfg->core.regs_source == WS_REGS_PTXAS && k->ptxas_regs) {
        r = k->ptxas_regs;
        src = "ptxas";
    } else if (k->maxnreg) {
        r = k->maxnreg;
        src = "maxnreg";
    }
    if (source)
        *source = src;
    return r;
}

uint32_t occupancy_regs(const ws_config *cfg, const ptx_module *m, const ptx_func *k,
                        const char **source)
{
    uint32_t r = occupancy_regs_stated(cfg, k, source);
    return r ? r : estimate_regs(m, k);
}

/* CTAs per SM from the threads, warps, registers (occupancy_regs) and shared memory one
 * CTA takes. */
occupancy occupancy_compute(const ws_config *cfg, const ptx_module *m, const ptx_func *k,
                            uint32_t cta_threads, uint32_t smem_per_cta)
{
    occupancy o = {0, smem_per_cta, 0, "ctas", "estimate"};
    uint32_t ws = cfg->gpu.warp_size;
    uint32_t warps = (cta_threads + ws - 1) / ws;
    o.regs_per_thread = occupancy_regs(cfg, m, k, &o.regs_source);
    if (o.regs_per_thread > cfg->gpu.max_regs_per_thread)
        o.regs_per_thread = cfg->gpu.max_regs_per_thread;
    uint32_t unit = cfg->gpu.reg_alloc_unit ? cfg->gpu.reg_alloc_unit : 1;
    uint32_t regs_warp = (o.regs_per_thread * ws + unit - 1) / unit * unit;
    uint32_t lim = cfg->gpu.max_ctas_per_sm;
    uint32_t by_threads = cfg->gpu.max_threads_per_sm / (warps * ws);
    uint32_t by_warps = cfg->gpu.max_warps_per_sm / warps;
    uint32_t by_regs = regs_warp ? cfg->gpu.regs_per_sm / (regs_warp * warps) : lim;
    uint32_t by_smem = smem_per_cta ? cfg->gpu.shared_per_sm / smem_per_cta : lim;
    if (by_threads < lim) { lim = by_threads; o.limiter = "threads"; }
    if (by_warps < lim) { lim = by_warps; o.limiter = "warps"; }
    if (by_regs < lim) { lim = by_regs; o.limiter = "registers"; }
    if (by_smem < lim) { lim = by_smem; o.limiter = "shared"; }
    o.ctas_per_sm = lim;
    return o;
}

static uint32_t reg_units(const ptx_func *f, uint32_t r)
{
    switch (ptx_type_size[f->regs[r].type]) {
    case 8: return 2;
    case 16: return 4;
    default: return f->regs[r].type == PT_PRED ? 0 : 1;
    }
}

uint32_t estimate_regs(const ptx_module *m, const ptx_func *f)
{
    const ptx_cfg *c = f->cfg;
    if (!c || c->n_blocks == 0 || f->n_regs == 0)
        return 8;
    const uint32_t nb = c->n_blocks;
    uint32_t best = 0;
    ptx_live lv;   /* a guarded definition kills at block level here (the estimate's rule) */
    if (ptx_live_build(m, f, ptx_insn_regs, 4, 8, 0, &lv))
        return best + 2;
    /* peak pressure: walk each block backwards from its live-out set; after an
     * instruction its definitions die and its sources become live */
    uint8_t *live = calloc(f->n_regs, 1);
    if (!live) {
        ptx_live_free(&lv);
        return best + 2;
    }
    for (uint32_t b = 0; b < nb; b++) {
        memset(live, 0, f->n_regs);
        uint32_t n = 0;
        for (uint32_t sidx = 0; sidx < c->blocks[b].n_succ; sidx++) {
            const uint64_t *li = ptx_live_in(&lv, c->blocks[b].succ[sidx]);
            for (uint32_t r = 0; r < f->n_regs; r++)
                if ((li[r / 64] >> (r % 64) & 1) && !live[r]) {
                    live[r] = 1;
                    n += reg_units(f, r);
                }
        }
        if (n > best)
            best = n;
        for (uint32_t i = c->blocks[b].last + 1; i-- > c->blocks[b].first;) {
            insn_info ii;
            const ptx_insn *in = &f->insns[i];
            insn_regs(m, in, &ii);
            /* at this instruction its results and its live sources coexist */
            uint32_t at = n;
            for (uint32_t d = 0; d < ii.n_dst; d++)
                if (ii.dst[d] < f->n_regs && !live[ii.dst[d]])
                    at += reg_units(f, ii.dst[d]);
            if (at > best)
                best = at;
            for (uint32_t d = 0; d < ii.n_dst; d++)
                if (ii.dst[d] < f->n_regs && live[ii.dst[d]] && in->guard < 0) {
                    live[ii.dst[d]] = 0;   /* a guarded write does not kill */
                    n -= reg_units(f, ii.dst[d]);
                }
            for (uint32_t u = 0; u < ii.n_src; u++)
                if (ii.src[u] < f->n_regs && !live[ii.src[u]]) {
                    live[ii.src[u]] = 1;
                    n += reg_units(f, ii.src[u]);
                }
            if (n > best)
                best = n;
        }
    }
    free(live);
    ptx_live_free(&lv);
    return best + 2;
}

