/* regalloc.c - storage slots for virtual registers: per-thread liveness over the CFG,
 * an interference matrix, greedy assignment (regalloc.h explains the rules). */
#include "ptx/regalloc.h"

#include <stdlib.h>
#include <string.h>

#include "ptx/cfg.h"
#include "util/bits.h"
#include "ptx/live.h"

#define RA_CAP 64   /* registers one instruction names, at most (ld.v4 plus an address ...) */

void ptx_regalloc_insn_regs(const ptx_module *m, const ptx_insn *in, uint32_t *dst,
                            uint32_t *n_dst, uint32_t *src, uint32_t *n_src)
{
    uint32_t dcap = *n_dst;
    ptx_insn_regs(m, in, dst, n_dst, src, n_src);
    int red = in->sub == BAR_RED_POPC || in->sub == BAR_RED_AND || in->sub == BAR_RED_OR;
    if (in->op == OP_BARRIER && red && in->nops && in->ops[0].kind == OK_REG) {
        /* ptx_insn_regs lists barrier.red's destination with the sources, first after
         * the guard */
        uint32_t r = in->ops[0].r, at = in->guard >= 0 ? 1 : 0;
        if (at < *n_src && src[at] == r) {
            for (uint32_t i = at + 1; i < *n_src; i++)
                src[i - 1] = src[i];
            (*n_src)--;
        }
        if (*n_dst < dcap)
            dst[(*n_dst)++] = r;
    }
}

static uint32_t reg_width(const ptx_func *f, uint32_t r)
{
    unsigned s = ptx_type_size[f->regs[r].type];
    return s ? s : 8;
}


int ptx_regalloc_build(const ptx_module *m, const ptx_func *f, int compact, ptx_regalloc *ra)
{
    memset(ra, 0, sizeof *ra);
    const uint32_t n = f->n_regs;
    ra->n_regs = n;
    ra->slot = malloc((n ? n : 1) * sizeof *ra->slot);
    ra->slot_bytes = malloc(n ? n : 1);
    if (!ra->slot || !ra->slot_bytes) {
        ptx_regalloc_free(ra);
        return -1;
    }
    for (uint32_t r = 0; r < n; r++) {
        ra->slot[r] = r;
        ra->slot_bytes[r] = (uint8_t)reg_width(f, r);
    }
    ra->n_slots = n;
    ra->clear = malloc((n ? n : 1) * sizeof *ra->clear);
    if (!ra->clear) {
        ptx_regalloc_free(ra);
        return -1;
    }
    for (uint32_t r = 0; r < n; r++)
        ra->clear[r] = r;
    ra->n_clear = n;
    const ptx_cfg *c = f->cfg;
    if (!compact || !c || !n || n > RA_MAX_REGS || f->is_decl || !c->n_blocks)
        return 0;
    for (uint32_t i = 0; i < f->n_insns; i++)
        if (f->insns[i].op == OP_BRX)
            return 0;

    const size_t W = ((size_t)n + 63) / 64, nb = c->n_blocks;
    if (nb * W > RA_MAX_WORDS)
        return 0;
    /* 1. liveness per block (a guarded definition is a use and keeps the old value) */
    ptx_live lv;
    if (ptx_live_build(m, f, ptx_regalloc_insn_regs, RA_CAP, RA_CAP, PTX_LIVE_GUARD_KEEPS, &lv)) {
        ptx_regalloc_free(ra);
        return -1;
    }
    uint64_t *mat = calloc((size_t)n * W, sizeof *mat), *live = calloc(W, sizeof *live);
    uint64_t *forbid = calloc(W, sizeof *forbid);
    uint8_t *pinned = calloc(n, 1), *slot_pin = calloc(n, 1);
    uint32_t *slot = malloc(n * sizeof *slot);
    uint8_t *sbytes = malloc(n);
    int rc = -1;
    if (!mat || !live || !forbid || !pinned || !slot_pin || !slot || !sbytes)
        goto out;

    uint32_t d[RA_CAP], s[RA_CAP], nd, ns;
    /* 2. a register shfl reads in other lanes (inactive ones too) keeps its own slot */
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t i = c->blocks[b].first; i <= c->blocks[b].last && i < f->n_insns; i++) {
        const ptx_insn *in = &f->insns[i];
        if (in->op == OP_SHFL && in->nops > 2 && in->ops[2].kind == OK_REG && in->ops[2].r < n)
            pinned[in->ops[2].r] = 1;
    }
    /* 3. interference: each definition with what is live after it, the instruction's
     * other destinations and its sources */
    for (size_t b = 0; b < nb; b++) {
        const cfg_block *bl = &c->blocks[b];
        memcpy(live, ptx_live_out(&lv, (uint32_t)b), W * sizeof *live);
        for (uint32_t i = bl->last + 1; i-- > bl->first;) {
            if (i >= f->n_insns)
                continue;
            const ptx_insn *in = &f->insns[i];
            ptx_live_insn(m, f, in, ptx_regalloc_insn_regs, RA_CAP, RA_CAP, d, &nd, s, &ns);
            for (uint32_t j = 0; j < nd; j++) {
                uint64_t *row = mat + (size_t)d[j] * W;
                for (size_t w = 0; w < W; w++)
                    row[w] |= live[w];
                for (uint32_t k = 0; k < nd; k++)
                    ws_bit_set(row, d[k]);
                for (uint32_t k = 0; k < ns; k++)
                    ws_bit_set(row, s[k]);
            }
            if (in->guard < 0)
                for (uint32_t j = 0; j < nd; j++)
                    ws_bit_clr(live, d[j]);
            for (uint32_t j = 0; j < ns; j++)
                ws_bit_set(live, s[j]);
            if (in->guard >= 0)
                for (uint32_t j = 0; j < nd; j++)
                    ws_bit_set(live, d[j]);
        }
    }
    /* symmetric */
    for (uint32_t r = 0; r < n; r++) {
        const uint64_t *row = mat + (size_t)r * W;
        for (size_t w = 0; w < W; w++)
            for (uint64_t v = row[w]; v; v &= v - 1) {
                uint32_t q = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(v));
                ws_bit_set(mat + (size_t)q * W, r);
            }
    }
    /* 4. greedy assignment in register order: the lowest slot of the same width that
     * no interfering register already holds */
    uint32_t ns_used = 0;
    for (uint32_t r = 0; r < n; r++) {
        uint32_t wd = reg_width(f, r), pick = UINT32_MAX;
        if (!pinned[r]) {
            memset(forbid, 0, W * sizeof *forbid);
            const uint64_t *row = mat + (size_t)r * W;
            for (size_t w = 0; w <= (size_t)(r >> 6) && w < W; w++)
                for (uint64_t v = row[w]; v; v &= v - 1) {
                    uint32_t q = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(v));
                    if (q < r)
                        ws_bit_set(forbid, slot[q]);
                }
            for (uint32_t k = 0; k < ns_used; k++)
                if (sbytes[k] == wd && !slot_pin[k] && !ws_bit_test(forbid, k)) {
                    pick = k;
                    break;
                }
        }
        if (pick == UINT32_MAX) {
            pick = ns_used++;
            sbytes[pick] = (uint8_t)wd;
            slot_pin[pick] = pinned[r];
        }
        slot[r] = pick;
    }
    memcpy(ra->slot, slot, n * sizeof *slot);
    memcpy(ra->slot_bytes, sbytes, ns_used);
    ra->n_slots = ns_used;
    /* 5. the slots a frame must zero: live at the entry (block 0), or pinned */
    memset(forbid, 0, W * sizeof *forbid);   /* reused: the set of those slots */
    const uint64_t *entry = ptx_live_in(&lv, 0);
    for (uint32_t r = 0; r < n; r++)
        if (ws_bit_test(entry, r) || pinned[r])
            ws_bit_set(forbid, slot[r]);
    ra->n_clear = 0;
    for (uint32_t k = 0; k < ns_used; k++)
        if (ws_bit_test(forbid, k))
            ra->clear[ra->n_clear++] = k;
    ra->compacted = 1;
    rc = 0;
out:
    ptx_live_free(&lv);
    free(mat);
    free(live);
    free(forbid);
    free(pinned);
    free(slot_pin);
    free(slot);
    free(sbytes);
    if (rc)
        ptx_regalloc_free(ra);
    return rc;
}

void ptx_regalloc_free(ptx_regalloc *ra)
{
    free(ra->slot);
    free(ra->slot_bytes);
    free(ra->clear);
    ra->slot = NULL;
    ra->slot_bytes = NULL;
    ra->clear = NULL;
    ra->n_slots = ra->n_regs = ra->n_clear = 0;
}
