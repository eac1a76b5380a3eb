/* uniform.h - static uniformity analysis: which values of a function are the same in
 * every lane of a warp / wavefront, and from that, which instructions a GCN-style core
 * can run on its scalar unit (SPEC 6; issue 13 item 3).
 *
 * PTX has no scalar instructions; the GCN core model derives them. A register is
 * *uniform* when every definition of it computes the same value in all active lanes and
 * no lane can see another definition than its neighbours:
 *   - sources that are uniform: immediates, symbols (addresses), kernel parameters
 *     (ld.param of an .entry's parameter), the special registers %ntid, %ctaid,
 *     %nctaid, %warpid, %nwarpid, %smid, %nsmid, %gridid, %warpsz, the shared-memory
 *     sizes, %envreg, %clock*, %globaltimer* (one value per warp at one instant);
 *   - varying: %tid, %laneid, %lanemask_*; results of atomics, shfl, match; loads
 *     from local memory, from call-site/formal .param (per-thread frames) and generic
 *     loads (the address may fall in the local window); every register on entry of a
 *     non-kernel .func (its arguments are unknown);
 *   - an instruction whose sources (guard included) are all uniform writes uniform
 *     destinations; vote and activemask write uniform values; a load through a uniform
 *     address from .param/.const/.global/.shared returns one value;
 *   - control dependence: a branch (or guarded exit/ret) on a varying predicate is
 *     divergent; every register written in its region (the blocks reachable from it
 *     before its immediate post-dominator) is varying, since lanes that skipped the
 *     definition keep the old value.
 * The fixed point starts optimistic (all uniform) and only moves registers to
 * varying, so it terminates after at most n_regs + n_branches rounds.
 *
 * Classes (uni_class) of the instructions:
 *   UC_SALU      integer/bit/predicate ALU work (no floating point: the GCN scalar ALU
 *                is integer only) with uniform destinations, and cvta of uniform values
 *   UC_SMEM      loads with a uniform address from a kernel .param, .const, or global
 *                read-only data (ld.global.nc, ldu) — the scalar memory path
 *   UC_BRANCH_U  control (bra, exit, ret, call, bar, membar) whose guard is uniform
 *   UC_BRANCH_D  control on a varying guard (a divergent branch)
 *   UC_VECTOR    everything else (vector ALU, vector memory, LDS)
 */
#ifndef WS_PTX_UNIFORM_H
#define WS_PTX_UNIFORM_H

#include <stdint.h>

#include "ptx/ir.h"

typedef enum { UC_VECTOR = 0, UC_SALU, UC_SMEM, UC_BRANCH_U, UC_BRANCH_D, UC__COUNT } uni_class;
extern const char *const uni_class_name[UC__COUNT];

typedef struct {
    uint32_t n_insns, n_regs;
    uint8_t *cls;          /* [insn] uni_class                                        */
    uint8_t *reg_uniform;  /* [register slot] 1 = uniform at every definition         */
    uint32_t count[UC__COUNT];
} ptx_uniform;

/* Analyses f (its CFG must be built: ptx_cfg_build). 0, or -1 when out of memory.
 * A function without a CFG classifies every instruction UC_VECTOR / UC_BRANCH_D. */
int ptx_uniform_analyze(const ptx_module *m, const ptx_func *f, ptx_uniform *u);
void ptx_uniform_free(ptx_uniform *u);

#endif
