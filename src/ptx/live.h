/* live.h - per-thread register liveness over a function's CFG (cfg.h): for each basic
 * block, the registers that some path from the block's entry (in) or exit (out) reads
 * before writing them. Backward data flow to a fixed point; used by the register-slot
 * assignment (regalloc.h) and the register-pressure estimate (core/occupancy.h). */
#ifndef WS_PTX_LIVE_H
#define WS_PTX_LIVE_H

#include <stddef.h>
#include <stdint.h>

#include "ptx/ir.h"

/* The registers an instruction writes (dst) and reads (src); *n_dst and *n_src hold the
 * capacities on entry (ptx_insn_regs' contract). */
typedef void (*ptx_live_regs_fn)(const ptx_module *m, const ptx_insn *in, uint32_t *dst,
                                 uint32_t *n_dst, uint32_t *src, uint32_t *n_src);

enum {
    /* a guarded (@p) definition may keep the old value: a use, not a kill (without the
     * flag it kills at block level, the estimate's approximation) */
    PTX_LIVE_GUARD_KEEPS = 1,
};

typedef struct {
    uint32_t n_blocks;
    size_t words;        /* 64-bit words per register set: (n_regs + 63) / 64 */
    uint64_t *in, *out;  /* [n_blocks * words]                                  */
} ptx_live;

/* The instruction's registers through regs (capacities dcap, scap, at most 64 each),
 * numbers outside the function's registers dropped. */
void ptx_live_insn(const ptx_module *m, const ptx_func *f, const ptx_insn *in, ptx_live_regs_fn regs,
                   uint32_t dcap, uint32_t scap, uint32_t *dst, uint32_t *n_dst, uint32_t *src,
                   uint32_t *n_src);

/* Liveness of f (its CFG built, at least one block and one register). Returns 0, or -1
 * when out of memory (lv then holds nothing to free). */
int ptx_live_build(const ptx_module *m, const ptx_func *f, ptx_live_regs_fn regs, uint32_t dcap,
                   uint32_t scap, unsigned flags, ptx_live *lv);
void ptx_live_free(ptx_live *lv);

static inline const uint64_t *ptx_live_in(const ptx_live *lv, uint32_t b) { return lv->in + b * lv->words; }
static inline const uint64_t *ptx_live_out(const ptx_live *lv, uint32_t b) { return lv->out + b * lv->words; }

#endif
