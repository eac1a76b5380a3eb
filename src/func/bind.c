/* bind.c - binds every instruction of a module to its handler, once, at load.
 *
 * Routing is by opcode and type: float-typed arithmetic and all conversions go to
 * exec_float.c, other ALU work to exec_int.c, memory to exec_mem.c, everything else
 * (collectives, control, barriers) to exec_warp.c. An instruction no family accepts
 * makes the load fail with its PTX position, so nothing unsupported runs silently. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "func/func.h"
#include "ptx/regalloc.h"

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

/* Rows for the slots of ra (func.h func_prog): the 8-byte slots first, two rows each,
 * then one row per other slot. ra->slot and ra->clear are rewritten to rows; the
 * frame's rows, b64 and each row's register width go to function i of p. */
static int slot_rows(func_prog *p, uint32_t i, ptx_regalloc *ra)
{
    uint32_t n = ra->n_slots, n64 = 0;
    for (uint32_t s = 0; s < n; s++)
        n64 += ra->slot_bytes[s] >= 8;
    uint32_t *row = malloc((n ? n : 1) * sizeof *row);
    uint8_t *rb = malloc(n + n64 ? n + n64 : 1);
    if (!row || !rb) {
        free(row);
        free(rb);
        return -1;
    }
    for (uint32_t s = 0, k64 = 0, k32 = 0; s < n; s++) {
        if (ra->slot_bytes[s] >= 8) {
            row[s] = 2 * k64++;
            rb[row[s] + 1] = ra->slot_bytes[s];
        } else {
            row[s] = 2 * n64 + k32++;
        }
        rb[row[s]] = ra->slot_bytes[s];
    }
    for (uint32_t r = 0; r < ra->n_regs; r++)
        ra->slot[r] = row[ra->slot[r]];
    for (uint32_t k = 0; k < ra->n_clear; k++)
        ra->clear[k] = row[ra->clear[k]];
    free(row);
    p->rows[i] = n + n64;
    p->b64[i] = 2 * n64;
    p->row_bytes[i] = rb;
    return 0;
}

/* The handlers' copy of function i's instructions with registers renumbered to the
 * rows of ra (slot_rows); vector lists go to p->pool from *pool_len on. */
static int copy_insns(func_prog *p, const ptx_module *m, uint32_t i, const ptx_regalloc *ra,
                      size_t *pool_len)
{
    const ptx_func *f = &m->funcs[i];
    ptx_insn *c = malloc((f->n_insns ? f->n_insns : 1) * sizeof *c);
    if (!c)
        return -1;
    if (f->n_insns)
        memcpy(c, f->insns, f->n_insns * sizeof *c);
    for (uint32_t k = 0; k < f->n_insns; k++) {
        ptx_insn *in = &c[k];
        if (in->guard >= 0 && (uint32_t)in->guard < ra->n_regs)
            in->guard = (int32_t)ra->slot[in->guard];
        for (uint32_t j = 0; j < in->nops && j < PTX_MAX_OPS; j++) {
            ptx_operand *o = &in->ops[j];
            if ((o->kind == OK_REG || (o->kind == OK_ADDR && o->base == OK_REG)) && o->r < ra->n_regs)
                o->r = ra->slot[o->r];
            else if (o->kind == OK_VEC && (size_t)o->r + o->n <= m->pool_len) {
                for (uint32_t e = 0; e < o->n; e++) {
                    uint32_t r = m->pool[o->r + e];
                    p->pool[*pool_len + e] = r < ra->n_regs ? ra->slot[r] : r;
                }
                o->r = (uint32_t)*pool_len;
                *pool_len += o->n;
            }
        }
    }
    p->insns[i] = c;
    return 0;
}

int func_prog_bind(func_prog *p, const ptx_module *m, int compact, char *why, size_t n)
{
    memset(p, 0, sizeof *p);
    p->m = m;
    uint32_t nf = m->n_funcs ? m->n_funcs : 1;
    size_t vec = 0;
    for (uint32_t i = 0; i < m->n_funcs; i++)
        for (uint32_t k = 0; !m->funcs[i].is_decl && k < m->funcs[i].n_insns; k++)
            for (uint32_t j = 0; j < m->funcs[i].insns[k].nops && j < PTX_MAX_OPS; j++)
                if (m->funcs[i].insns[k].ops[j].kind == OK_VEC)
                    vec += m->funcs[i].insns[k].ops[j].n;
    p->fns = calloc(nf, sizeof *p->fns);
    p->mix = calloc(nf, sizeof *p->mix);
    p->insns = calloc(nf, sizeof *p->insns);
    p->n_slots = calloc(nf, sizeof *p->n_slots);
    p->rows = calloc(nf, sizeof *p->rows);
    p->b64 = calloc(nf, sizeof *p->b64);
    p->row_bytes = calloc(nf, sizeof *p->row_bytes);
    p->reg_row = calloc(nf, sizeof *p->reg_row);
    p->clear = calloc(nf, sizeof *p->clear);
    p->n_clear = calloc(nf, sizeof *p->n_clear);
    p->pool = malloc((m->pool_len + vec + 1) * sizeof *p->pool);
    p->kparam = calloc(m->n_syms ? m->n_syms : 1, 1);
    if (!p->fns || !p->mix || !p->insns || !p->n_slots || !p->rows || !p->b64 || !p->row_bytes || !p->reg_row || !p->clear || !p->n_clear ||
        !p->pool || !p->kparam) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    if (m->pool_len)
        memcpy(p->pool, m->pool, m->pool_len * sizeof *p->pool);
    for (uint32_t i = 0; i < m->n_syms; i++)
        p->kparam[i] = (uint8_t)func_is_kernel_param(m, i);
    size_t pool_len = m->pool_len;
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        const ptx_func *f = &m->funcs[i];
        if (f->is_decl)
            continue;
        p->fns[i] = calloc(f->n_insns ? f->n_insns : 1, sizeof **p->fns);
        p->mix[i] = calloc(f->n_insns ? f->n_insns : 1, 1);
        ptx_regalloc ra;
        if (!p->fns[i] || !p->mix[i] || ptx_regalloc_build(m, f, compact, &ra)) {
            snprintf(why, n, "out of memory");
            return -1;
        }
        int bad = slot_rows(p, i, &ra) || copy_insns(p, m, i, &ra, &pool_len);
        p->n_slots[i] = ra.n_slots;
        p->reg_row[i] = ra.slot;   /* taken over (rows since slot_rows) */
        ra.slot = NULL;
        p->clear[i] = ra.clear;
        p->n_clear[i] = ra.n_clear;
        ra.clear = NULL;
        p->regs += ra.n_regs;
        p->slots += ra.n_slots;
        ptx_regalloc_free(&ra);
        if (bad) {
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
            if (p->insns) free(p->insns[i]);
            if (p->row_bytes) free(p->row_bytes[i]);
            if (p->reg_row) free(p->reg_row[i]);
            if (p->clear) free(p->clear[i]);
        }
    }
    free(p->fns);
    free(p->mix);
    free(p->insns);
    free(p->n_slots);
    free(p->rows);
    free(p->b64);
    free(p->row_bytes);
    free(p->reg_row);
    free(p->clear);
    free(p->n_clear);
    free(p->pool);
    free(p->kparam);
    memset(p, 0, sizeof *p);   /* a second free frees nothing */
}

int exec_bind_module(const ptx_module *m, exec_fn **fns, char *why, size_t n)
{
    func_prog p;
    if (func_prog_bind(&p, m, 0, why, n)) {
        func_prog_free(&p);
        return -1;
    }
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        fns[i] = p.fns[i];   /* taken over */
        p.fns[i] = NULL;
    }
    func_prog_free(&p);
    return 0;
}
