/* occupancy.c - CTAs per SM and the register-pressure estimate (see occupancy.h). */
#include "core/occupancy.h"

#include <stdlib.h>
#include <string.h>

#include "core/insn_table.h"
#include "ptx/cfg.h"

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
    (void)m;
    const ptx_cfg *c = f->cfg;
    if (!c || c->n_blocks == 0 || f->n_regs == 0)
        return 8;
    uint32_t words = (f->n_regs + 63) / 64, nb = c->n_blocks;
    uint64_t *live_in = calloc((size_t)nb * words, 8), *use = calloc((size_t)nb * words, 8);
    uint64_t *def = calloc((size_t)nb * words, 8), *cur = calloc(words, 8);
    insn_table one = {0};
    (void)one;
    uint32_t best = 0;
    if (!live_in || !use || !def || !cur)
        goto out;
    /* per block use (read before written) and def sets, from the operand layout */
    for (uint32_t b = 0; b < nb; b++) {
        uint64_t *u = use + (size_t)b * words, *d = def + (size_t)b * words;
        for (uint32_t i = c->blocks[b].first; i <= c->blocks[b].last; i++) {
            insn_info ii;
            const ptx_insn *in = &f->insns[i];
            insn_regs(m, in, &ii);
            for (uint32_t s = 0; s < ii.n_src; s++)
                if (ii.src[s] < f->n_regs && !(d[ii.src[s] / 64] >> (ii.src[s] % 64) & 1))
                    u[ii.src[s] / 64] |= 1ull << (ii.src[s] % 64);
            for (uint32_t s = 0; s < ii.n_dst; s++)
                if (ii.dst[s] < f->n_regs)
                    d[ii.dst[s] / 64] |= 1ull << (ii.dst[s] % 64);
        }
    }
    /* live_in(b) = use(b) | (live_out(b) & ~def(b)), iterated to a fixed point */
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = nb; b-- > 0;) {
            memset(cur, 0, words * 8);
            for (uint32_t s = 0; s < c->blocks[b].n_succ; s++) {
                const uint64_t *li = live_in + (size_t)c->blocks[b].succ[s] * words;
                for (uint32_t w = 0; w < words; w++)
                    cur[w] |= li[w];
            }
            uint64_t *li = live_in + (size_t)b * words;
            for (uint32_t w = 0; w < words; w++) {
                uint64_t v = use[(size_t)b * words + w] | (cur[w] & ~def[(size_t)b * words + w]);
                if (v != li[w]) {
                    li[w] = v;
                    changed = 1;
                }
            }
        }
    }
    /* peak pressure: walk each block backwards from its live-out set; after an
     * instruction its definitions die and its sources become live */
    uint8_t *live = calloc(f->n_regs, 1);
    if (!live)
        goto out;
    for (uint32_t b = 0; b < nb; b++) {
        memset(live, 0, f->n_regs);
        uint32_t n = 0;
        for (uint32_t sidx = 0; sidx < c->blocks[b].n_succ; sidx++) {
            const uint64_t *li = live_in + (size_t)c->blocks[b].succ[sidx] * words;
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
out:
    free(live_in);
    free(use);
    free(def);
    free(cur);
    return best + 2;
}

