/* cfg.h - control-flow analyses of one PTX function.
 *
 * Basic blocks, successors/predecessors, dominators, immediate post-dominators
 * (the reconvergence points of the SIMT stack, SPEC section 4), natural loops from
 * back edges with nesting depth (SPEC sections 3 and 4), and the conditional-branch
 * nesting depth of every instruction (SPEC section 3's BDepth).
 */
#ifndef WS_PTX_CFG_H
#define WS_PTX_CFG_H

#include "ptx/ir.h"

#define CFG_EXIT UINT32_MAX   /* virtual exit node: post-dominator of ret/exit blocks */

typedef struct {
    uint32_t first, last;     /* instruction range [first, last]                     */
    uint32_t n_succ, succ[2]; /* fall-through and/or branch target block (bra only)  */
    uint32_t n_pred;
    uint32_t *pred;
    uint32_t idom;            /* immediate dominator block (entry: itself)           */
    uint32_t ipdom;           /* immediate post-dominator block, or CFG_EXIT          */
    int32_t loop;             /* innermost natural loop containing it, or -1          */
} cfg_block;

typedef struct {
    uint32_t header;          /* loop header block                                   */
    uint32_t latch;           /* block holding the back edge (first found)           */
    int32_t parent;           /* enclosing loop, or -1                               */
    uint32_t depth;           /* 1 for outermost                                     */
    uint32_t n_blocks;
    uint32_t *blocks;         /* member blocks                                       */
} cfg_loop;

struct ptx_cfg {
    uint32_t n_blocks;
    cfg_block *blocks;
    uint32_t *block_of;       /* instruction index -> block                          */
    uint32_t *reconv;         /* instruction index -> reconvergence instruction index
                                 for a branch (first insn of its block's ipdom), or
                                 UINT32_MAX when it reconverges only at exit          */
    uint32_t n_loops;
    cfg_loop *loops;
    uint8_t *loop_depth;      /* instruction index -> natural-loop nesting depth     */
    uint8_t *branch_depth;    /* instruction index -> number of enclosing conditional-
                                 branch regions (branch block .. its ipdom, exclusive) */
};

/* Builds f->cfg (replacing any previous one). Returns 0, or -1 on allocation failure. */
int ptx_cfg_build(const ptx_module *m, ptx_func *f);
void ptx_cfg_free(ptx_cfg *c);

#endif
