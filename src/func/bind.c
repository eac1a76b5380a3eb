/* bind.c - binds every instruction of a module to its handler, once, at load.
 *
 * Routing is by opcode and type: float-typed arithmetic and all conversions go to
 * exec_float.c, other ALU work to exec_int.c, memory to exec_mem.c, everything else
 * (collectives, control, barriers) to exec_warp.c. An instruction no family accepts
 * makes the load fail with its PTX position, so nothing unsupported runs silently. */
#include <stdio.h>
#include <stdlib.h>

#include "func/func.h"

static int is_float_family(const ptx_insn *in)
{
    switch (in->op) {
    case OP_CVT: case OP_TESTP: case OP_COPYSIGN: case OP_RCP: case OP_SQRT: case OP_RSQRT:
    case OP_SIN: case OP_COS: case OP_LG2: case OP_EX2: case OP_TANH: case OP_FMA:
        return 1;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MAD: case OP_DIV: case OP_NEG: case OP_ABS:
    case OP_MIN: case OP_MAX:
        return ptx_type_is_float((ptx_type)in->type);
    default:
        return 0;
    }
}

static exec_fn bind_one(const ptx_module *m, const ptx_func *f, const ptx_insn *in, char *why, size_t n)
{
    if (is_float_family(in))
        return exec_bind_float(m, f, in, why, n);
    switch (ptx_op_info[in->op].cls) {
    case PC_ALU:
        if (in->op == OP_CVTA || in->op == OP_ISSPACEP)
            return exec_bind_mem(m, f, in, why, n);
        return exec_bind_int(m, f, in, why, n);
    case PC_MEM:
        return exec_bind_mem(m, f, in, why, n);
    default:
        return exec_bind_warp(m, f, in, why, n);
    }
}

static uint8_t mix_of(const ptx_insn *in)
{
    int ld = in->op == OP_LD || in->op == OP_LDU;
    switch (in->cls) {
    case PC_SFU: return MIX_SFU;
    case PC_DP: return MIX_DP;
    case PC_CTRL: return MIX_CTRL;
    case PC_BAR: return MIX_BAR;
    case PC_WARP: return MIX_WARP;
    case PC_MISC: return MIX_OTHER;
    case PC_MEM:
        if (in->op == OP_ATOM || in->op == OP_RED) return MIX_ATOMIC;
        if (in->op == OP_PREFETCH || in->op == OP_PREFETCHU) return MIX_OTHER;
        switch (in->space) {
        case SP_SHARED: return ld ? MIX_LD_SHARED : MIX_ST_SHARED;
        case SP_LOCAL: return ld ? MIX_LD_LOCAL : MIX_ST_LOCAL;
        case SP_CONST: return MIX_LD_CONST;
        case SP_PARAM: return ld ? MIX_LD_PARAM : MIX_ST_LOCAL;
        default: return ld ? MIX_LD_GLOBAL : MIX_ST_GLOBAL;
        }
    default:
        return in->type == PT_F64 && in->op != OP_MOV && in->op != OP_SELP && in->op != OP_SETP ? MIX_DP : MIX_ALU;
    }
}

int func_prog_bind(func_prog *p, const ptx_module *m, char *why, size_t n)
{
    p->m = m;
    p->fns = calloc(m->n_funcs ? m->n_funcs : 1, sizeof *p->fns);
    p->mix = calloc(m->n_funcs ? m->n_funcs : 1, sizeof *p->mix);
    if (!p->fns || !p->mix) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        const ptx_func *f = &m->funcs[i];
        if (f->is_decl)
            continue;
        p->fns[i] = calloc(f->n_insns ? f->n_insns : 1, sizeof **p->fns);
        p->mix[i] = calloc(f->n_insns ? f->n_insns : 1, 1);
        if (!p->fns[i] || !p->mix[i]) {
            snprintf(why, n, "out of memory");
            return -1;
        }
        for (uint32_t k = 0; k < f->n_insns; k++) {
            const ptx_insn *in = &f->insns[k];
            char reason[256] = "";
            exec_fn fn = bind_one(m, f, in, reason, sizeof reason);
            if (!fn) {
                char text[256];
                ptx_insn_format(m, f, in, text, sizeof text);
                snprintf(why, n, "%s:%u:%u: unsupported instruction '%s': %s", m->file ? m->file : "<ptx>",
                         in->line, in->col, text, reason[0] ? reason : "no handler");
                return -1;
            }
            p->fns[i][k] = fn;
            p->mix[i][k] = mix_of(in);
        }
    }
    return 0;
}

void func_prog_free(func_prog *p)
{
    if (p->m) {
        for (uint32_t i = 0; i < p->m->n_funcs; i++) {
            if (p->fns) free(p->fns[i]);
            if (p->mix) free(p->mix[i]);
        }
    }
    free(p->fns);
    free(p->mix);
    p->fns = NULL;
    p->mix = NULL;
}

int exec_bind_module(const ptx_module *m, exec_fn **fns, char *why, size_t n)
{
    func_prog p = {0};
    if (func_prog_bind(&p, m, why, n)) {
        func_prog_free(&p);
        return -1;
    }
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        fns[i] = p.fns[i];
        free(p.mix[i]);
    }
    free(p.fns);
    free(p.mix);
    return 0;
}
