/* uniform.c - static uniformity analysis (see uniform.h for the rules).
 *
 * Invariants: var[r] only ever goes 0 -> 1 (varying), div[i] (instruction i is a
 * divergent control transfer) only 0 -> 1, and inreg[b] (block b lies in a divergent
 * region) only 0 -> 1; each round recomputes all three from the current state until
 * none changes, so the result is the least fixed point above "all uniform".
 */
#include "ptx/uniform.h"

#include <stdlib.h>
#include <string.h>

#include "ptx/cfg.h"

const char *const uni_class_name[UC__COUNT] = {"vector", "salu", "smem", "branch-uniform",
                                               "branch-divergent"};

static int is_ctrl(const ptx_insn *in)
{
    switch (in->op) {
    case OP_BRA: case OP_BRX: case OP_CALL: case OP_RET: case OP_EXIT:
    case OP_BAR: case OP_BARRIER: case OP_MEMBAR: case OP_FENCE:
        return 1;
    default:
        return 0;
    }
}

static int is_kernel_param(const ptx_func *f, uint32_t sym)
{
    if (!f->is_entry)
        return 0;
    for (uint32_t i = 0; i < f->n_params; i++)
        if (f->params[i] == sym)
            return 1;
    return 0;
}

/* The address operand of a load / store / atomic, or NULL. */
static const ptx_operand *addr_op(const ptx_insn *in)
{
    for (uint32_t i = 0; i < in->nops; i++)
        if (in->ops[i].kind == OK_ADDR)
            return &in->ops[i];
    return NULL;
}

/* Whether every operand that is not a register (special registers) is uniform and
 * every register source is uniform. */
static int sources_uniform(const ptx_module *m, const ptx_insn *in, const uint8_t *var)
{
    uint32_t dst[8], src[16], nd = 8, ns = 16;
    ptx_insn_regs(m, in, dst, &nd, src, &ns);
    for (uint32_t i = 0; i < ns; i++)
        if (var[src[i]])
            return 0;
    for (uint32_t i = 0; i < in->nops; i++)
        if (in->ops[i].kind == OK_SREG && !ptx_sreg_warp_uniform(in->ops[i].r))
            return 0;
    return 1;
}

static int addr_uniform(const ptx_insn *in, const uint8_t *var)
{
    const ptx_operand *a = addr_op(in);
    return !a || a->base != OK_REG || !var[a->r];
}

/* Whether the value `in` writes is uniform, given uniform inputs where `srcu`. */
static int result_uniform(const ptx_module *m, const ptx_func *f, const ptx_insn *in, int srcu,
                          const uint8_t *var)
{
    if (in->guard >= 0 && var[in->guard])
        return 0;   /* a partial write under a varying guard */
    switch (in->op) {
    case OP_VOTE: case OP_ACTIVEMASK:
        return 1;
    case OP_SHFL: case OP_MATCH: case OP_ATOM: case OP_RED:
        return 0;
    case OP_REDUX:
        return srcu;
    case OP_LD: case OP_LDU: {
        if (!addr_uniform(in, var))
            return 0;
        const ptx_operand *a = addr_op(in);
        switch (in->space) {
        case SP_GLOBAL: case SP_CONST: case SP_SHARED:
            return 1;
        case SP_PARAM:
            return a && a->base == OK_SYM && is_kernel_param(f, a->r);
        default:
            return 0;   /* local, generic (may be local) */
        }
    }
    default:
        (void)m;
        return srcu;
    }
}

static int salu_op(const ptx_insn *in)
{
    if (ptx_type_is_float((ptx_type)in->type) || ptx_type_is_float((ptx_type)in->type2))
        return 0;
    if (in->cls != PC_ALU)
        return 0;
    switch (in->op) {
    case OP_DIV: case OP_REM: case OP_DP4A: case OP_DP2A: case OP_SAD:
        return 0;   /* no scalar-ALU equivalent on SI */
    default:
        return 1;
    }
}

int ptx_uniform_analyze(const ptx_module *m, const ptx_func *f, ptx_uniform *u)
{
    memset(u, 0, sizeof *u);
    u->n_insns = f->n_insns;
    u->n_regs = f->n_regs;
    const ptx_cfg *c = f->cfg;
    uint32_t nb = c ? c->n_blocks : 0;
    u->cls = calloc(f->n_insns ? f->n_insns : 1, 1);
    u->reg_uniform = calloc(f->n_regs ? f->n_regs : 1, 1);
    uint8_t *var = calloc(f->n_regs ? f->n_regs : 1, 1);
    uint8_t *div = calloc(f->n_insns ? f->n_insns : 1, 1);
    uint8_t *inreg = calloc(nb ? nb : 1, 1);
    uint32_t *stack = calloc(nb ? nb : 1, sizeof *stack);
    uint8_t *seen = calloc(nb ? nb : 1, 1);
    int rc = -1;
    if (!u->cls || !u->reg_uniform || !var || !div || !inreg || !stack || !seen)
        goto out;
    if (!c || !f->is_entry) {
        /* no CFG: nothing is known; a .func's arguments are unknown */
        memset(var, 1, f->n_regs ? f->n_regs : 1);
        if (!c)
            memset(div, 1, f->n_insns ? f->n_insns : 1);
    }
    for (int changed = 1; changed && c;) {
        changed = 0;
        for (uint32_t i = 0; i < f->n_insns; i++) {
            const ptx_insn *in = &f->insns[i];
            uint32_t dst[8], src[16], nd = 8, ns = 16;
            ptx_insn_regs(m, in, dst, &nd, src, &ns);
            int srcu = sources_uniform(m, in, var);
            if (is_ctrl(in)) {
                /* a control transfer is divergent when its guard (or, for brx, its
                 * index) varies */
                int d = (in->guard >= 0 && var[in->guard]) || (in->op == OP_BRX && !srcu);
                if (d && !div[i]) {
                    div[i] = 1;
                    changed = 1;
                }
            }
            int uni = result_uniform(m, f, in, srcu, var) && !inreg[c->block_of[i]];
            if (in->op == OP_CALL)
                uni = 0;   /* return values come from the callee's frame */
            for (uint32_t k = 0; k < nd; k++)
                if (!uni && !var[dst[k]]) {
                    var[dst[k]] = 1;
                    changed = 1;
                }
        }
        /* regions of the divergent branches: blocks reachable from the branch's block
         * without passing its immediate post-dominator */
        for (uint32_t i = 0; i < f->n_insns; i++) {
            if (!div[i])
                continue;
            uint32_t b = c->block_of[i], stop = c->blocks[b].ipdom, sp = 0;
            memset(seen, 0, nb);
            for (uint32_t s = 0; s < c->blocks[b].n_succ; s++)
                if (c->blocks[b].succ[s] != stop && !seen[c->blocks[b].succ[s]]) {
                    seen[c->blocks[b].succ[s]] = 1;
                    stack[sp++] = c->blocks[b].succ[s];
                }
            while (sp) {
                uint32_t x = stack[--sp];
                if (!inreg[x]) {
                    inreg[x] = 1;
                    changed = 1;
                }
                for (uint32_t s = 0; s < c->blocks[x].n_succ; s++) {
                    uint32_t y = c->blocks[x].succ[s];
                    if (y != stop && !seen[y]) {
                        seen[y] = 1;
                        stack[sp++] = y;
                    }
                }
            }
        }
    }
    for (uint32_t r = 0; r < f->n_regs; r++)
        u->reg_uniform[r] = !var[r];
    for (uint32_t i = 0; i < f->n_insns; i++) {
        const ptx_insn *in = &f->insns[i];
        uint8_t k = UC_VECTOR;
        if (is_ctrl(in)) {
            k = div[i] ? UC_BRANCH_D : UC_BRANCH_U;
        } else if (c) {
            uint32_t dst[8], src[16], nd = 8, ns = 16;
            ptx_insn_regs(m, in, dst, &nd, src, &ns);
            int uni = nd > 0;
            for (uint32_t d = 0; d < nd; d++)
                uni &= !var[dst[d]];
            if (uni && (in->op == OP_LD || in->op == OP_LDU)) {
                const ptx_operand *a = addr_op(in);
                int ro = in->space == SP_CONST ||
                         (in->space == SP_PARAM && a && a->base == OK_SYM && is_kernel_param(f, a->r)) ||
                         (in->space == SP_GLOBAL && (in->op == OP_LDU || (in->flags & MF_NC)));
                if (ro)
                    k = UC_SMEM;
            } else if (uni && (salu_op(in) || in->op == OP_CVTA)) {
                k = UC_SALU;
            }
        }
        u->cls[i] = k;
        u->count[k]++;
    }
    rc = 0;
out:
    free(var);
    free(div);
    free(inreg);
    free(stack);
    free(seen);
    if (rc)
        ptx_uniform_free(u);
    return rc;
}

void ptx_uniform_free(ptx_uniform *u)
{
    free(u->cls);
    free(u->reg_uniform);
    u->cls = NULL;
    u->reg_uniform = NULL;
}
