/* occupancy.h - how many CTAs of a kernel fit on one SM (occupancy.c), and the
 * register-pressure estimate it falls back on. A static analysis of the PTX and the
 * configuration, done once per launch. */
#ifndef WS_CORE_OCCUPANCY_H
#define WS_CORE_OCCUPANCY_H

#include <stdint.h>

#include "ptx/ir.h"
#include "util/config.h"

/* Occupancy of one kernel on one SM. */
typedef struct {
    uint32_t regs_per_thread;   /* used for the register limit                   */
    uint32_t smem_per_cta;
    uint32_t ctas_per_sm;       /* the resulting limit (0: does not fit)          */
    const char *limiter;        /* "ctas", "threads", "warps", "registers", "shared" */
    const char *regs_source;    /* "config", "ptxas", "maxnreg", "estimate"        */
} occupancy;

/* Registers per thread of kernel k for occupancy, and (if source) where the count came
 * from: "config" (core.regs_per_thread), "ptxas" (a warpsim.regs pragma, when
 * core.regs_source = ptxas), "maxnreg" or "estimate" (estimate_regs). */
uint32_t occupancy_regs(const ws_config *cfg, const ptx_module *m, const ptx_func *k,
                        const char **source);
/* The same without the estimate: the count the configuration or the toolchain states
 * (config, ptxas, maxnreg), or 0 with *source "estimate" when nothing states one. */
uint32_t occupancy_regs_stated(const ws_config *cfg, const ptx_func *k, const char **source);

occupancy occupancy_compute(const ws_config *cfg, const ptx_module *m, const ptx_func *k,
                            uint32_t cta_threads, uint32_t smem_per_cta);

/* Peak register pressure of f in 32-bit registers per thread: the most register
 * units live at once at any instruction (liveness over the CFG; 64-bit registers
 * count two, predicates none), plus two for the registers ptxas reserves; 8 when f
 * has no CFG or no registers. */
uint32_t estimate_regs(const ptx_module *m, const ptx_func *f);

#endif
