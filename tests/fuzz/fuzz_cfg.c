/* fuzz_cfg.c - libFuzzer target: parse, then every static analysis of every defined
 * function: CFG rebuild, dominators and post-dominators, natural loops, branch depth
 * (their invariants are checked) and the locality analysis with its annotation. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/cfg.h"
#include "ptx/ir.h"
#include "ptx/locality.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_cfg(const ptx_func *f)
{
    const ptx_cfg *c = f->cfg;
    if (!f->n_insns)
        return;
    if (!c)
        abort();
    for (uint32_t b = 0; b < c->n_blocks; b++) {
        const cfg_block *k = &c->blocks[b];
        if (k->first > k->last || k->last >= f->n_insns || k->idom >= c->n_blocks ||
            (k->ipdom != CFG_EXIT && k->ipdom >= c->n_blocks) || k->n_succ > 2 ||
            (k->loop >= 0 && (uint32_t)k->loop >= c->n_loops))
            abort();
        for (uint32_t i = 0; i < k->n_succ; i++)
            if (k->succ[i] >= c->n_blocks)
                abort();
    }
    for (uint32_t i = 0; i < f->n_insns; i++)
        if (c->block_of[i] >= c->n_blocks || (c->reconv[i] != UINT32_MAX && c->reconv[i] >= f->n_insns))
            abort();
    for (uint32_t l = 0; l < c->n_loops; l++) {
        const cfg_loop *p = &c->loops[l];
        if (p->header >= c->n_blocks || p->depth == 0 || (p->parent >= 0 && (uint32_t)p->parent >= c->n_loops))
            abort();
        for (uint32_t i = 0; i < p->n_blocks; i++)
            if (p->blocks[i] >= c->n_blocks)
                abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    if (size)
        memcpy(text, data, size);
    ptx_diag d;
    ptx_module *m = ptx_parse(text, size, "fuzz.ptx", &d);
    if (m) {
        loc_opts o;
        loc_opts_default(&o);
        char *pick = calloc(m->n_funcs + 1, 1);
        for (uint32_t i = 0; i < m->n_funcs; i++) {
            ptx_func *f = &m->funcs[i];
            if (f->is_decl)
                continue;
            check_cfg(f);
            if (ptx_cfg_build(m, f))
                abort();
            check_cfg(f);
            loc_result r;
            if (loc_analyze(m, f, &o, &r) == 0) {
                for (uint32_t b = 0; b < r.sum.n_blocks; b++)
                    (void)loc_block_name(m, f, &r.blocks[b]);
                loc_result_free(&r);
            }
            loc_summary s;
            (void)loc_summarize(m, f, &o, &s);
            if (pick)
                pick[i] = f->is_entry ? (i & 1 ? 'L' : 'G') : 0;
        }
        if (pick) {
            size_t out_len = 0;
            char err[256];
            char *ann = loc_annotate(text, size, m, pick, LOC_FORM_BOTH, &out_len, err, sizeof err);
            free(ann);
            free(pick);
        }
        ptx_module_free(m);
    }
    free(text);
    return 0;
}
