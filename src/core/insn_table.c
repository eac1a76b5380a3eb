/* insn_table.c - static timing facts per instruction (see insn_table.h). */
#include "core/insn_table.h"

#include <stdlib.h>
#include <string.h>

#include "core/sched.h"

const char *const fu_name[FU__COUNT] = {"sp", "sfu", "dp", "ldst", "int"};

/* Fills the registers an instruction reads and writes. */
void insn_regs(const ptx_module *m, const ptx_insn *in, insn_info *ii)
{
    uint32_t dst[4], src[8], nd = 4, ns = 8;
    ptx_insn_regs(m, in, dst, &nd, src, &ns);
    ii->n_dst = (uint8_t)nd;
    ii->n_src = (uint8_t)ns;
    memcpy(ii->dst, dst, nd * sizeof *dst);
    memcpy(ii->src, src, ns * sizeof *src);
    uint32_t end = 1;
    for (uint32_t i = 0; i < nd; i++)
        end = dst[i] + 1 > end ? dst[i] + 1 : end;
    for (uint32_t i = 0; i < ns; i++)
        end = src[i] + 1 > end ? src[i] + 1 : end;
    ii->reg_end = end;
}

insn_class insn_classify(const ptx_insn *in)
{
    int f64 = in->type == PT_F64 || in->type2 == PT_F64;
    switch (in->op) {
    case OP_LD: case OP_LDU: case OP_ST:
        switch (in->space) {
        case SP_SHARED: return IC_MEM_SHARED;
        case SP_CONST: return IC_MEM_CONST;
        case SP_PARAM: return IC_MEM_PARAM;
        case SP_GLOBAL: return IC_MEM_GLOBAL;
        case SP_LOCAL: return IC_MEM_LOCAL;
        default: return IC_MEM_GENERIC;
        }
    case OP_ATOM: case OP_RED:
        return in->space == SP_SHARED ? IC_ATOM_SHARED : IC_ATOM_GLOBAL;
    case OP_BRA: case OP_BRX: case OP_EXIT:
        return IC_BRANCH;
    case OP_CALL: case OP_RET:
        return IC_CALL;    /* both change the register frame */
    case OP_BAR: case OP_BARRIER:
        return IC_BAR;
    case OP_MEMBAR: case OP_FENCE:
        return IC_MEMBAR;
    case OP_DIV: case OP_REM:
        if (ptx_type_is_float((ptx_type)in->type))
            return f64 ? IC_DDIV : IC_FDIV;
        return IC_IDIV;
    default:
        break;
    }
    if (in->cls == PC_SFU)
        return f64 ? IC_DP : IC_SFU;
    /* GPGPU-Sim's PTX timing: only add/sub, min/max, mul and mad/fma have latencies of
     * their own; every other ALU operation is a "move-class" op (core.lat_move) */
    if (in->cls == PC_ALU) {
        int fl = ptx_type_is_float((ptx_type)in->type);
        switch (in->op) {
        case OP_ADD: case OP_ADDC: case OP_SUB: case OP_SUBC: case OP_MIN: case OP_MAX:
            return fl ? (f64 ? IC_DP : IC_FP) : IC_ALU;
        case OP_MUL: case OP_MAD: case OP_MADC: case OP_MUL24: case OP_MAD24: case OP_FMA:
            return fl ? (f64 ? IC_DP : IC_FP) : IC_IMUL;
        default:
            return IC_MOVE;
        }
    }
    if (ptx_type_is_float((ptx_type)in->type) || in->op == OP_CVT) {
        if (f64 && in->op != OP_MOV && in->op != OP_SELP && in->op != OP_SETP)
            return IC_DP;
        return in->op == OP_MOV || in->op == OP_SELP ? IC_ALU : IC_FP;
    }
    switch (in->op) {
    case OP_MUL: case OP_MAD: case OP_MADC: case OP_MUL24: case OP_MAD24: case OP_SAD:
    case OP_DP4A: case OP_DP2A:
        return IC_IMUL;
    default:
        return IC_ALU;
    }
}

uint8_t insn_class_type(insn_class c)
{
    static const uint8_t type[IC__COUNT] = {
        [IC_ALU] = IT_VALU, [IC_MOVE] = IT_VALU, [IC_IMUL] = IT_VALU, [IC_IDIV] = IT_VALU, [IC_FP] = IT_VALU,
        [IC_FDIV] = IT_VALU, [IC_DP] = IT_DP, [IC_DDIV] = IT_DP, [IC_SFU] = IT_SFU,
        [IC_BRANCH] = IT_BRANCH, [IC_BAR] = IT_BRANCH, [IC_CALL] = IT_BRANCH,
        [IC_MEMBAR] = IT_BRANCH, [IC_MEM_SHARED] = IT_LDS, [IC_ATOM_SHARED] = IT_LDS,
        [IC_MEM_CONST] = IT_SMEM, [IC_MEM_PARAM] = IT_SMEM, [IC_MEM_GLOBAL] = IT_VMEM,
        [IC_MEM_LOCAL] = IT_VMEM, [IC_MEM_GENERIC] = IT_VMEM, [IC_ATOM_GLOBAL] = IT_VMEM,
    };
    return c < IC__COUNT ? type[c] : IT_VALU;
}

uint32_t insn_rf_extra(const insn_info *ii, uint32_t base, uint32_t banks)
{
    uint32_t worst = 0;
    if (!banks || ii->n_src < 2)
        return 0;
    uint32_t bank[8];   /* (n_src <= 8) one division each; a power of two masks */
    for (uint32_t i = 0; i < ii->n_src; i++)
        bank[i] = (banks & (banks - 1)) == 0 ? (base + ii->src[i]) & (banks - 1) : (base + ii->src[i]) % banks;
    for (uint32_t i = 0; i < ii->n_src; i++) {
        uint32_t n = 0;
        for (uint32_t k = 0; k < ii->n_src; k++)
            n += ii->src[k] != ii->src[i] && bank[k] == bank[i];
        if (n > worst)
            worst = n;
    }
    return worst;
}

int insn_table_build(insn_table *t, const ptx_module *m, const ws_config *cfg)
{
    const struct { uint32_t lat, ii; uint8_t fu; } cls[IC__COUNT] = {
        [IC_ALU] = {cfg->core.lat_alu, cfg->core.ii_alu, FU_SP},
        [IC_MOVE] = {cfg->core.lat_move, cfg->core.ii_alu, FU_SP},
        [IC_IMUL] = {cfg->core.lat_imul, cfg->core.ii_imul, FU_SP},
        [IC_IDIV] = {cfg->core.lat_idiv, cfg->core.ii_idiv, FU_SFU},
        [IC_FP] = {cfg->core.lat_fp, cfg->core.ii_fp, FU_SP},
        [IC_FDIV] = {cfg->core.lat_fdiv, cfg->core.ii_fdiv, FU_SFU},
        [IC_DP] = {cfg->core.lat_dp, cfg->core.ii_dp, FU_DP},
        [IC_DDIV] = {cfg->core.lat_ddiv, cfg->core.ii_ddiv, FU_DP},
        [IC_SFU] = {cfg->core.lat_sfu, cfg->core.ii_sfu, FU_SFU},
        [IC_BRANCH] = {cfg->core.lat_branch, cfg->core.ii_alu, FU_SP},
        [IC_CALL] = {cfg->core.lat_branch, cfg->core.ii_alu, FU_SP},
        [IC_BAR] = {cfg->core.lat_move, cfg->core.ii_alu, FU_SP},
        [IC_MEMBAR] = {cfg->core.lat_move, cfg->core.ii_alu, FU_SP},
        [IC_MEM_SHARED] = {cfg->core.lat_shared, 1, FU_LDST},
        [IC_MEM_CONST] = {cfg->core.lat_const, 1, FU_LDST},
        [IC_MEM_PARAM] = {cfg->core.lat_const, 1, FU_LDST},
        [IC_MEM_GLOBAL] = {1, 1, FU_LDST},
        [IC_MEM_LOCAL] = {1, 1, FU_LDST},
        [IC_MEM_GENERIC] = {1, 1, FU_LDST},
        [IC_ATOM_SHARED] = {cfg->core.lat_shared, 1, FU_LDST},
        [IC_ATOM_GLOBAL] = {1, 1, FU_LDST},
    };
    t->n_funcs = m->n_funcs;
    t->info = calloc(m->n_funcs ? m->n_funcs : 1, sizeof *t->info);
    if (!t->info)
        return -1;
    for (uint32_t fi = 0; fi < m->n_funcs; fi++) {
        const ptx_func *f = &m->funcs[fi];
        if (f->is_decl)
            continue;
        t->info[fi] = calloc(f->n_insns ? f->n_insns : 1, sizeof **t->info);
        if (!t->info[fi])
            return -1;
        for (uint32_t k = 0; k < f->n_insns; k++) {
            const ptx_insn *in = &f->insns[k];
            insn_info *ii = &t->info[fi][k];
            insn_class c = insn_classify(in);
            ii->cls = (uint8_t)c;
            ii->fu = cls[c].fu;
            if (ii->fu == FU_DP && cfg->core.n_dp == 0)
                ii->fu = FU_SFU;   /* Fermi (GPGPU-Sim: no DP unit): fp64 on the SFU */
            if (ii->fu == FU_SFU && cfg->core.n_sfu == 0)
                ii->fu = FU_SP;
            if (cfg->core.n_int && (c == IC_ALU || c == IC_MOVE || c == IC_IMUL || c == IC_IDIV))
                ii->fu = FU_INT;   /* separate integer pipelines (Volta-style) */
            /* the pipeline stages around the unit (memory classes: added by the SM when
             * their data arrive) */
            uint32_t lat = cls[c].lat + (c == IC_MEM_GLOBAL || c == IC_MEM_LOCAL || c == IC_MEM_GENERIC ||
                                          c == IC_ATOM_GLOBAL || c == IC_MEM_SHARED || c == IC_ATOM_SHARED ||
                                          c == IC_MEM_CONST || c == IC_MEM_PARAM
                                          ? 0 : cfg->core.lat_pipeline);
            ii->lat = (uint16_t)(lat > 65535 ? 65535 : lat);
            ii->ii = (uint16_t)(cls[c].ii > 65535 ? 65535 : cls[c].ii);
            ii->type = insn_class_type(c);
            ii->is_mem = c >= IC_MEM_SHARED && c <= IC_ATOM_GLOBAL;
            ii->is_long = c == IC_MEM_GLOBAL || c == IC_MEM_LOCAL || c == IC_MEM_GENERIC ||
                          c == IC_ATOM_GLOBAL;
            insn_regs(m, in, ii);
            ii->rf_extra = (uint8_t)insn_rf_extra(ii, 0, cfg->core.rf_banks);   /* < n_src <= 8 */
        }
        /* runs to the next control instruction, from the end backwards */
        for (uint32_t k = f->n_insns; k-- > 0;) {
            insn_info *ii = &t->info[fi][k];
            const uint32_t run = ii->cls == IC_BRANCH || ii->cls == IC_CALL || ii->cls == IC_BAR ||
                                 k + 1 == f->n_insns ? 1 : 1 + (uint32_t)t->info[fi][k + 1].fetch_run;
            ii->fetch_run = (uint8_t)(run > 255 ? 255 : run);
        }
    }
    return 0;
}

void insn_table_free(insn_table *t)
{
    if (t->info)
        for (uint32_t i = 0; i < t->n_funcs; i++)
            free(t->info[i]);
    free(t->info);
    t->info = NULL;
}
