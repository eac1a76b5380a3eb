/* live.c - per-thread register liveness over the CFG (live.h). */
#include "ptx/live.h"

#include <stdlib.h>
#include <string.h>

#include "ptx/cfg.h"
#include "util/bits.h"

void ptx_live_insn(const ptx_module *m, const ptx_func *f, const ptx_insn *in, ptx_live_regs_fn regs,
                   uint32_t dcap, uint32_t scap, uint32_t *dst, uint32_t *n_dst, uint32_t *src,
                   uint32_t *n_src)
{
    *n_dst = dcap;
    *n_src = scap;
    regs(m, in, dst, n_dst, src, n_src);
    uint32_t k = 0;
    for (uint32_t i = 0; i < *n_dst; i++)
        if (dst[i] < f->n_regs)
            dst[k++] = dst[i];
    *n_dst = k;
    k = 0;
    for (uint32_t i = 0; i < *n_src; i++)
        if (src[i] < f->n_regs)
            src[k++] = src[i];
    *n_src = k;
}


int ptx_live_build(const ptx_module *m, const ptx_func *f, ptx_live_regs_fn regs, uint32_t dcap,
                   uint32_t scap, unsigned flags, ptx_live *lv)
{
    const ptx_cfg *c = f->cfg;
    const uint32_t nb = c->n_blocks;
    const size_t W = ((size_t)f->n_regs + 63) / 64;
    memset(lv, 0, sizeof *lv);
    uint64_t *use = calloc(nb * W, sizeof *use), *def = calloc(nb * W, sizeof *def);
    lv->in = calloc(nb * W, sizeof *lv->in);
    lv->out = calloc(nb * W, sizeof *lv->out);
    if (!use || !def || !lv->in || !lv->out || dcap > 64 || scap > 64) {
        free(use);
        free(def);
        ptx_live_free(lv);
        return -1;
    }
    lv->n_blocks = nb;
    lv->words = W;
    /* per block: upward-exposed uses and killing definitions */
    uint32_t d[64], s[64], nd, ns;
    for (uint32_t b = 0; b < nb; b++) {
        const cfg_block *bl = &c->blocks[b];
        uint64_t *u = use + b * W, *k = def + b * W;
        for (uint32_t i = bl->first; i <= bl->last && i < f->n_insns; i++) {
            const ptx_insn *in = &f->insns[i];
            ptx_live_insn(m, f, in, regs, dcap, scap, d, &nd, s, &ns);
            for (uint32_t j = 0; j < ns; j++)
                if (!ws_bit_test(k, s[j]))
                    ws_bit_set(u, s[j]);
            for (uint32_t j = 0; j < nd; j++) {
                if (in->guard < 0 || !(flags & PTX_LIVE_GUARD_KEEPS))
                    ws_bit_set(k, d[j]);
                else if (!ws_bit_test(k, d[j]))
                    ws_bit_set(u, d[j]);   /* a guarded definition keeps the old value */
            }
        }
    }
    /* in = use | (out & ~def), out = union of the successors' in; blocks in reverse
     * order until nothing changes */
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = nb; b-- > 0;) {
            const cfg_block *bl = &c->blocks[b];
            uint64_t *o = lv->out + b * W, *li = lv->in + b * W;
            const uint64_t *u = use + b * W, *k = def + b * W;
            for (size_t w = 0; w < W; w++) {
                uint64_t v = 0;
                for (uint32_t e = 0; e < bl->n_succ; e++)
                    if (bl->succ[e] < nb)
                        v |= lv->in[bl->succ[e] * W + w];
                o[w] = v;
                uint64_t ni = u[w] | (v & ~k[w]);
                if (ni != li[w]) {
                    li[w] = ni;
                    changed = 1;
                }
            }
        }
    }
    free(use);
    free(def);
    return 0;
}

void ptx_live_free(ptx_live *lv)
{
    free(lv->in);
    free(lv->out);
    lv->in = lv->out = NULL;
    lv->n_blocks = 0;
}
