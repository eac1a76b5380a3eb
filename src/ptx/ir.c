/* ir.c - name tables of the PTX IR, module lifetime, lookups and the formatter. */
#include "ptx/ir.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/cfg.h"

const char *const ptx_type_name[PT__COUNT] = {
#define X(e, s, n) s,
    PTX_TYPES(X)
#undef X
};

const uint8_t ptx_type_size[PT__COUNT] = {
#define X(e, s, n) n,
    PTX_TYPES(X)
#undef X
};

const ptx_op_desc ptx_op_info[OP__COUNT] = {
#define X(e, s, c) {s, c},
    PTX_OPCODES(X)
#undef X
};

const char *const ptx_space_name[SP__COUNT] = {"", "generic", "global", "shared", "local",
                                                "param", "const"};

const char *const ptx_sreg_name[SR__COUNT] = {
    "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
    "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
    "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid",
    "%clock", "%clock_hi", "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi",
    "%lanemask_eq", "%lanemask_lt", "%lanemask_le", "%lanemask_gt", "%lanemask_ge",
    "%dynamic_smem_size", "%total_smem_size", "WARP_SZ", "%envreg",
};

int ptx_sreg_warp_uniform(uint32_t sr)
{
    switch (sr) {
    case SR_TID: case SR_TID_Y: case SR_TID_Z: case SR_LANEID:
    case SR_LANEMASK_EQ: case SR_LANEMASK_LT: case SR_LANEMASK_LE: case SR_LANEMASK_GT:
    case SR_LANEMASK_GE:
        return 0;
    default:
        return 1;
    }
}

void ptx_module_free(ptx_module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        ptx_func *f = &m->funcs[i];
        free(f->params);
        free(f->rets);
        free(f->regs);
        free(f->insns);
        free(f->policy);
        if (f->cfg)
            ptx_cfg_free(f->cfg);
    }
    free(m->funcs);
    free(m->syms);
    free(m->pool);
    free(m->init);
    free(m->strtab);
    free(m->file);
    free(m->target);
    free(m->policy);
    free(m);
}

int ptx_find_func(const ptx_module *m, const char *name)
{
    for (uint32_t i = 0; m && name && i < m->n_funcs; i++)
        if (!strcmp(m->strtab + m->funcs[i].name, name))
            return (int)i;
    return -1;
}

/* Module-scope variables only; a definition is preferred to an .extern declaration. */
int ptx_find_sym(const ptx_module *m, const char *name)
{
    int ext = -1;
    for (uint32_t i = 0; m && name && i < m->n_syms; i++) {
        const ptx_symbol *s = &m->syms[i];
        if (s->func != -1 || strcmp(m->strtab + s->name, name))
            continue;
        if (!s->is_extern)
            return (int)i;
        if (ext < 0)
            ext = (int)i;
    }
    return ext;
}

/* ---- formatter ---------------------------------------------------------------------------- */
typedef struct {
    char *buf;
    size_t n, len;  /* capacity; characters produced (may exceed n) */
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->len < b->n ? b->n - b->len : 0;
    int k = vsnprintf(room ? b->buf + b->len : NULL, room, fmt, ap);
    va_end(ap);
    if (k > 0)
        b->len += (size_t)k;
}

static void mod(sbuf *b, const char *s)
{
    if (s && *s)
        put(b, ".%s", s);
}

static const char *const cmp_name[] = {"", "eq", "ne", "lt", "le", "gt", "ge", "lo", "ls",
                                       "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu",
                                       "num", "nan"};
static const char *const rnd_name[] = {"", "rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi",
                                       "rpi"};
static const char *const aop_name[] = {"", "add", "min", "max", "inc", "dec", "cas", "exch",
                                       "and", "or", "xor"};
static const char *const cop_name[] = {"", "ca", "cg", "cs", "lu", "cv", "wb", "wt"};
static const char *const sem_name[] = {"", "weak", "volatile", "relaxed", "acquire", "release",
                                       "acq_rel", "sc"};
static const char *const scope_name[] = {"", "cta", "cluster", "gpu", "sys"};

#define NAME(tab, i) ((unsigned)(i) < sizeof(tab) / sizeof(tab[0]) ? (tab)[i] : "?")

static void mod_type(sbuf *b, int t)
{
    if (t > PT_NONE && t < PT__COUNT)
        put(b, ".%s", ptx_type_name[t]);
}

/* Modifiers in the order nvcc writes them. */
static void put_mods(sbuf *b, const ptx_insn *in)
{
    uint32_t f = in->flags;
    const char *space = in->space > SP_GENERIC && in->space < SP__COUNT ? ptx_space_name[in->space]
                                                                        : NULL;
    switch (in->op) {
    case OP_LD:
    case OP_LDU:
    case OP_ST:
        mod(b, NAME(sem_name, in->sem));
        mod(b, NAME(scope_name, in->scope));
        mod(b, space);
        mod(b, NAME(cop_name, in->cop));
        if (f & MF_NC)
            mod(b, "nc");
        if (in->vec > 1)
            put(b, ".v%u", in->vec);
        mod_type(b, in->type);
        return;
    case OP_ATOM:
    case OP_RED:
        mod(b, NAME(sem_name, in->sem));
        mod(b, NAME(scope_name, in->scope));
        mod(b, space);
        mod(b, NAME(aop_name, in->sub));
        if (f & MF_NOINC)
            mod(b, "noftz");
        mod_type(b, in->type);
        return;
    case OP_PREFETCH:
    case OP_PREFETCHU:
        mod(b, space);
        mod(b, in->sub == 1 ? "L1" : in->sub == 2 ? "L2" : NULL);
        return;
    case OP_CVTA:
        if (f & MF_TO)
            mod(b, "to");
        mod(b, space);
        mod_type(b, in->type);
        return;
    case OP_ISSPACEP:
        mod(b, space);
        return;
    case OP_SETP:
    case OP_SET:
        mod(b, NAME(cmp_name, in->cmp));
        mod(b, in->sub == BOOL_AND ? "and" : in->sub == BOOL_OR ? "or"
               : in->sub == BOOL_XOR ? "xor" : NULL);
        if (f & MF_FTZ)
            mod(b, "ftz");
        mod_type(b, in->type);
        mod_type(b, in->type2);
        return;
    case OP_VOTE:
    case OP_SHFL:
    case OP_REDUX: {
        static const char *const vote[] = {"", "all", "any", "uni", "ballot"};
        static const char *const shfl[] = {"", "up", "down", "bfly", "idx"};
        if (f & MF_SYNC)
            mod(b, "sync");
        mod(b, in->op == OP_VOTE ? NAME(vote, in->sub) : in->op == OP_SHFL ? NAME(shfl, in->sub)
                                                                           : NAME(aop_name, in->sub));
        mod_type(b, in->type);
        return;
    }
    case OP_MATCH:
        mod(b, in->sub == MATCH_ANY ? "any" : in->sub == MATCH_ALL ? "all" : NULL);
        if (f & MF_SYNC)
            mod(b, "sync");
        mod_type(b, in->type);
        return;
    case OP_BAR:
    case OP_BARRIER:
        if (in->scope)
            mod(b, NAME(scope_name, in->scope));
        switch (in->sub) {
        case BAR_SYNC: mod(b, "sync"); break;
        case BAR_ARRIVE: mod(b, "arrive"); break;
        case BAR_RED_POPC: mod(b, "red"); mod(b, "popc"); break;
        case BAR_RED_AND: mod(b, "red"); mod(b, "and"); break;
        case BAR_RED_OR: mod(b, "red"); mod(b, "or"); break;
        case BAR_WARP_SYNC: mod(b, "warp"); mod(b, "sync"); break;
        default: break;
        }
        if (f & MF_ALIGNED)
            mod(b, "aligned");
        mod_type(b, in->type);
        return;
    case OP_MEMBAR:
        mod(b, in->scope == SCOPE_GPU ? "gl" : NAME(scope_name, in->scope));
        return;
    case OP_FENCE:
        mod(b, NAME(sem_name, in->sem));
        mod(b, NAME(scope_name, in->scope));
        return;
    case OP_TESTP: {
        static const char *const tp[] = {"", "finite", "infinite", "number", "notanumber",
                                         "normal", "subnormal"};
        mod(b, NAME(tp, in->sub));
        mod_type(b, in->type);
        return;
    }
    case OP_SHF:
        mod(b, in->sub == SHF_L ? "l" : in->sub == SHF_R ? "r" : NULL);
        if (f & MF_WRAP)
            mod(b, "wrap");
        if (f & MF_CLAMP)
            mod(b, "clamp");
        mod_type(b, in->type);
        return;
    case OP_PRMT: {
        static const char *const pm[] = {"", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
        mod_type(b, in->type);
        mod(b, NAME(pm, in->sub));
        return;
    }
    case OP_PMEVENT:
        if (in->sub)
            mod(b, "mask");
        return;
    case OP_BRA:
    case OP_CALL:
    case OP_RET:
    case OP_BRX:
        if (in->op == OP_BRX && in->sub)
            mod(b, "idx");
        if (f & MF_UNI)
            mod(b, "uni");
        return;
    default:
        break;
    }
    /* arithmetic: mode, rounding, flags, types */
    if (in->op == OP_MUL || in->op == OP_MAD || in->op == OP_MUL24 || in->op == OP_MAD24 ||
        in->op == OP_MADC || in->op == OP_DP2A)
        mod(b, in->sub == MUL_LO ? "lo" : in->sub == MUL_HI ? "hi" : in->sub == MUL_WIDE ? "wide"
                                                                                      : NULL);
    mod(b, NAME(rnd_name, in->rnd));
    if (f & MF_APPROX)
        mod(b, "approx");
    if (f & MF_FULL)
        mod(b, "full");
    if (f & MF_FTZ)
        mod(b, "ftz");
    if ((in->op == OP_MIN || in->op == OP_MAX) && in->sub == 1)
        mod(b, "NaN");
    if (f & MF_SAT)
        mod(b, "sat");
    if (f & MF_RELU)
        mod(b, "relu");
    if (f & MF_CC)
        mod(b, "cc");
    if (f & MF_SHIFTAMT)
        mod(b, "shiftamt");
    mod_type(b, in->type);
    mod_type(b, in->type2);
}

static int wide_of(int t)
{
    return t == PT_U16 ? PT_U32 : t == PT_S16 ? PT_S32 : t == PT_U32 ? PT_U64
           : t == PT_S32 ? PT_S64 : t;
}

/* Type whose encoding an immediate in operand i uses (see the parser's operand roles). */
static int imm_type(const ptx_insn *in, int i)
{
    int t = in->type, t2 = in->type2;
    switch (in->op) {
    case OP_CVT: return i == 0 ? t : (t == PT_F16X2 || t == PT_BF16X2) ? PT_F32 : t2;
    case OP_SET: return i == 0 ? t : i == 3 ? PT_PRED : t2;
    case OP_SETP: return i >= 4 ? PT_PRED : t;
    case OP_SELP: return i == 3 ? PT_PRED : t;
    case OP_SLCT: return i == 3 ? t2 : t;
    case OP_SHL: case OP_SHR: return i == 2 ? PT_U32 : t;
    case OP_BFE: return i >= 2 ? PT_U32 : t;
    case OP_BFI: return i >= 3 ? PT_U32 : t;
    case OP_SHF: case OP_PRMT: case OP_LOP3: case OP_FNS: return PT_B32;
    case OP_DP4A: case OP_DP2A: return i == 1 ? t : i == 2 ? t2 : PT_S32;
    case OP_MAD: return i == 3 && in->sub == MUL_WIDE ? wide_of(t) : t;
    case OP_MOV: case OP_ST: case OP_ATOM: case OP_RED: case OP_REDUX: return t;
    default: return t;
    }
}

static float half_to_f32(uint32_t h, int bf)
{
    if (bf) {
        uint32_t u = h << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    uint32_t s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023, u;
    if (e == 31) {
        u = s << 31 | 0xffu << 23 | m << 13;
    } else if (e) {
        u = s << 31 | (e + 112) << 23 | m << 13;
    } else if (!m) {
        u = s << 31;
    } else { /* subnormal: normalise */
        int k = 0;
        while (!(m & 1024)) {
            m <<= 1;
            k++;
        }
        u = s << 31 | (uint32_t)(113 - k) << 23 | (m & 1023) << 13;
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void put_reg(sbuf *b, const ptx_module *m, const ptx_func *f, uint32_t r)
{
    if (r == UINT32_MAX)
        put(b, "_");
    else if (m && f && r < f->n_regs)
        put(b, "%s", m->strtab + f->regs[r].name);
    else
        put(b, "%%<%u>", r);
}

static void put_sym(sbuf *b, const ptx_module *m, uint32_t s)
{
    if (m && s < m->n_syms)
        put(b, "%s", m->strtab + m->syms[s].name);
    else
        put(b, "<sym%u>", s);
}

static void put_imm(sbuf *b, uint64_t v, int t)
{
    switch (t) {
    case PT_F32: put(b, "0f%08" PRIX32, (uint32_t)v); break;
    case PT_F64: put(b, "0d%016" PRIX64, v); break;
    case PT_F16:
    case PT_BF16: {
        float f = half_to_f32((uint32_t)v & 0xffff, t == PT_BF16);
        uint32_t u;
        memcpy(&u, &f, 4);
        put(b, "0f%08" PRIX32, u);
        break;
    }
    default: put(b, "%" PRId64, (int64_t)v); break;
    }
}

static void put_op(sbuf *b, const ptx_module *m, const ptx_func *f, const ptx_insn *in, int i)
{
    const ptx_operand *o = &in->ops[i];
    switch (o->kind) {
    case OK_REG:
        if (o->neg)
            put(b, "!");
        put_reg(b, m, f, o->r);
        break;
    case OK_SINK: put(b, "_"); break;
    case OK_IMM: put_imm(b, o->imm, imm_type(in, i)); break;
    case OK_SREG:
        if (o->r == SR_ENVREG)
            put(b, "%%envreg%" PRIu64, o->imm);
        else if (o->r < SR__COUNT)
            put(b, "%s", ptx_sreg_name[o->r]);
        else
            put(b, "<sreg%u>", o->r);
        break;
    case OK_SYM:
        put_sym(b, m, o->r);
        if (o->imm)
            put(b, "+%" PRId64, (int64_t)o->imm);
        break;
    case OK_ADDR:
        put(b, "[");
        if (o->base == OK_REG)
            put_reg(b, m, f, o->r);
        else if (o->base == OK_SYM)
            put_sym(b, m, o->r);
        if (o->base == OK_NONE)
            put(b, "%" PRIu64, o->imm);
        else if (o->imm)
            put(b, "+%" PRId64, (int64_t)o->imm);
        put(b, "]");
        break;
    case OK_VEC:
    case OK_PARAMS:
        put(b, o->kind == OK_VEC ? "{" : "(");
        for (unsigned k = 0; k < o->n; k++) {
            uint32_t v = m && o->r + k < m->pool_len ? m->pool[o->r + k] : UINT32_MAX - 1;
            if (k)
                put(b, ", ");
            if (o->kind == OK_VEC)
                put_reg(b, m, f, v);
            else
                put_sym(b, m, v);
        }
        put(b, o->kind == OK_VEC ? "}" : ")");
        break;
    case OK_LABEL: put(b, "L%u", o->r); break;
    case OK_FUNC:
        if (m && o->r < m->n_funcs)
            put(b, "%s", m->strtab + m->funcs[o->r].name);
        else
            put(b, "<func%u>", o->r);
        break;
    default: put(b, "<none>"); break;
    }
}

/* Writes `in` as PTX text ("@%p1 add.s32 %r1, %r2, 4;"), snprintf-style: returns the
 * length the full text needs, writing at most n bytes (NUL included). Labels print as
 * L<instruction index>. */
int ptx_insn_format(const ptx_module *m, const ptx_func *f, const ptx_insn *in, char *buf,
                    size_t n)
{
    sbuf b = {buf, n, 0};
    if (n)
        buf[0] = 0;
    if (!in)
        return 0;
    if (in->guard >= 0) {
        put(&b, in->guard_neg ? "@!" : "@");
        put_reg(&b, m, f, (uint32_t)in->guard);
        put(&b, " ");
    }
    put(&b, "%s", in->op < OP__COUNT ? ptx_op_info[in->op].name : "<op?>");
    put_mods(&b, in);
    int pipe = in->op == OP_SETP || in->op == OP_SHFL || in->op == OP_MATCH;
    int first = 1;
    for (int i = 0; i < in->nops && i < PTX_MAX_OPS; i++) {
        if (in->ops[i].kind == OK_NONE ||
            (in->op == OP_CALL && i == 0 && in->ops[0].kind == OK_PARAMS && !in->ops[0].n))
            continue;
        put(&b, first ? " " : (pipe && i == 1) ? "|" : ", ");
        first = 0;
        put_op(&b, m, f, in, i);
    }
    put(&b, ";");
    return b.len > INT32_MAX ? INT32_MAX : (int)b.len;
}

/* ---- registers read and written ------------------------------------------------------- */
static unsigned n_dsts(const ptx_insn *in)
{
    switch (in->op) {
    case OP_ST: case OP_RED: case OP_BRA: case OP_BRX: case OP_CALL: case OP_RET: case OP_EXIT:
    case OP_BARRIER: case OP_MEMBAR: case OP_FENCE: case OP_PREFETCH: case OP_PREFETCHU:
    case OP_TRAP: case OP_BRKPT: case OP_NANOSLEEP: case OP_PMEVENT: case OP_NOP:
        return 0;
    case OP_BAR:
        return in->sub == BAR_RED_POPC || in->sub == BAR_RED_AND || in->sub == BAR_RED_OR;
    case OP_SETP: case OP_SHFL: case OP_MATCH:
        return 2;
    default:
        return 1;
    }
}

static void add_reg_to(uint32_t *v, uint32_t *n, uint32_t cap, uint32_t r)
{
    if (r != UINT32_MAX && *n < cap)
        v[(*n)++] = r;
}

void ptx_insn_regs(const ptx_module *m, const ptx_insn *in, uint32_t *dst, uint32_t *n_dst,
                   uint32_t *src, uint32_t *n_src)
{
    uint32_t dcap = *n_dst, scap = *n_src;
    *n_dst = *n_src = 0;
    if (in->guard >= 0)
        add_reg_to(src, n_src, scap, (uint32_t)in->guard);
    unsigned nd = n_dsts(in);
    for (uint32_t i = 0; i < in->nops; i++) {
        const ptx_operand *o = &in->ops[i];
        int is_dst = i < nd && o->kind != OK_ADDR;
        uint32_t *v = is_dst ? dst : src, *n = is_dst ? n_dst : n_src, cap = is_dst ? dcap : scap;
        switch (o->kind) {
        case OK_REG:
            add_reg_to(v, n, cap, o->r);
            break;
        case OK_VEC:
            for (uint32_t j = 0; j < o->n && (size_t)o->r + j < m->pool_len; j++)
                add_reg_to(v, n, cap, m->pool[o->r + j]);
            break;
        case OK_ADDR:
            if (o->base == OK_REG)
                add_reg_to(src, n_src, scap, o->r);
            break;
        default:
            break;
        }
    }
}
