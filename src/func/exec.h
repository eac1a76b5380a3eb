/* exec.h - the contract between decoded instructions and their semantics.
 *
 * Every instruction is bound once, at module load, to a handler (exec_fn) chosen
 * from its opcode, types and modifiers. A handler runs the instruction for all lanes
 * of x->mask (the warp's active lanes whose guard predicate holds) in one loop, so
 * the dispatch cost is paid once per warp instruction, not per thread.
 *
 * Register file: a register operand's r is a row of the frame x->r, ws lanes of 4
 * bytes each from x->r + r * x->ws. Rows below x->b64 belong to 8-byte registers
 * (b64/u64/s64/f64): lane l is ((uint64_t *)(x->r + r * x->ws))[l] (two rows per
 * register, 8-byte aligned); other registers (predicates as 0/1, b8..b32, f16 in the
 * low 16 bits, f32 bits) have 4-byte lanes, x->r[r * x->ws + l]. Either way a lane
 * holds the value zero-extended from its register's width, and ex_src / ex_dst read
 * and write it as a uint64_t; handlers write results zero-extended from the
 * instruction type's width (ex_dst_w does that). Handlers with row pointers check the
 * rows' widths (ex_w8) once per instruction. Handlers see storage slots, not PTX
 * registers: they run func_prog.insns, whose register operands ptx/regalloc.c
 * renumbered (registers never live at once share a slot; func.host_reg_compact) and
 * func/bind.c laid out in rows (func.h func_prog), and must write only the lanes of
 * x->mask (regalloc.h relies on it).
 *
 * Families (one file each, each with a binder):
 *   exec_int.c    integer arithmetic, logic, bit ops, setp/set/selp/slct, mov
 *   exec_float.c  f16/f32/f64 arithmetic, SFU ops, testp, cvt
 *   exec_mem.c    ld/st/atom/red/cvta/isspacep/prefetch (address spaces)
 *   exec_warp.c   shfl/vote/match/redux/activemask, and control flow markers
 */
#ifndef WS_FUNC_EXEC_H
#define WS_FUNC_EXEC_H

#include <stdint.h>
#include <string.h>

#include "ptx/ir.h"

typedef struct func_warp func_warp;  /* func.h */
typedef struct exec_ctx exec_ctx;
typedef void (*exec_fn)(exec_ctx *x, const ptx_insn *in);

/* What a control instruction asks of the divergence layer (func/warp.c). */
typedef enum {
    EX_NEXT = 0,    /* fall through to pc + 1                                   */
    EX_BRANCH,      /* bra: x->taken lanes jump to ops[0] label                  */
    EX_CALL,        /* call: enter ops[?] function                               */
    EX_RET,         /* ret: x->mask lanes return                                 */
    EX_EXIT,        /* exit: x->mask lanes finish                                */
    EX_BARRIER,     /* bar.sync / barrier.sync: wait for the CTA                 */
    EX_FAULT,       /* an error was recorded in the warp (bad address, trap...)  */
} exec_ctrl;

/* One memory access of one lane, recorded for the timing model when x->trace != NULL. */
typedef struct {
    uint64_t addr;      /* address in its space (generic resolved to the real space) */
    uint8_t lane;
    uint8_t size;       /* bytes                                                      */
    uint8_t space;      /* ptx_space after generic resolution                         */
    uint8_t is_write;
} exec_access;

/* The records a[0 .. n) in order, then, when rep != 0, a copy of a[n - 1] for each lane
 * of rep in increasing lane order (its lane field that lane), as many as fit in cap: the
 * compact form of a uniform load (every lane at one address, rep the lanes after the
 * first). Consumers that need the records one by one call exec_trace_flat first. */
typedef struct {
    uint32_t n, cap;
    exec_access *a;
    uint64_t rep;
} exec_trace;

/* The number of records t stands for (the compact form's repeats included). */
static inline uint32_t exec_trace_len(const exec_trace *t)
{
    uint64_t r = t->rep;
    if (!r)
        return t->n;
    r >>= __builtin_ctzll(r);   /* (lanes in a run, the common case, by a count of zeros) */
    uint64_t k = t->n + (uint64_t)(!(r & (r + 1)) ? (r + 1 ? __builtin_ctzll(r + 1) : 64)
                                                    : __builtin_popcountll(r));
    return k < t->cap ? (uint32_t)k : t->cap;
}

/* Writes out the compact form's repeated records (nothing when there are none). */
static inline void exec_trace_flat(exec_trace *t)
{
    if (!t->rep)
        return;
    exec_access rec = t->a[t->n - 1];
    uint32_t tn = t->n;
    const uint32_t cap = t->cap;
    for (uint64_t b = t->rep; b && tn < cap; b &= b - 1) {
        rec.lane = (uint8_t)__builtin_ctzll(b);
        t->a[tn++] = rec;
    }
    t->n = tn;
    t->rep = 0;
}

struct exec_ctx {
    uint32_t *r;        /* current frame's register rows (see above)                  */
    uint64_t mask;      /* lanes executing this instruction                           */
    uint32_t ws;        /* warp size: the lane stride of r                            */
    uint32_t b64;       /* rows below it hold 8-byte lanes                            */
    uint8_t *cc;        /* per-lane carry flag (add.cc / addc ...)                    */
    func_warp *w;       /* the warp: special registers, memory, frames, errors        */
    exec_trace *trace;  /* memory accesses, when the caller wants them; else NULL     */
    /* outputs of control instructions */
    exec_ctrl ctrl;
    uint64_t taken;     /* EX_BRANCH: lanes that take the branch                      */
};

/* Iterate over the set bits (lanes) of a mask, lowest first. */
#define EX_FOR_LANES(mask, l)                                                          \
    for (uint64_t m_##l = (mask); m_##l; m_##l &= m_##l - 1)                           \
        for (unsigned l = (unsigned)__builtin_ctzll(m_##l), o_##l = 1; o_##l; o_##l = 0)

/* The mask of all lanes of a warp of ws lanes. */
#define EX_FULL(ws) ((ws) >= 64 ? ~0ull : (1ull << (ws)) - 1)

/* Row r's lanes: 8 bytes wide (r < x->b64), else 4. */
static inline int ex_w8(const exec_ctx *x, uint32_t r) { return r < x->b64; }
static inline uint32_t *ex_row32(const exec_ctx *x, uint32_t r) { return x->r + (size_t)r * x->ws; }
static inline uint64_t *ex_row64(const exec_ctx *x, uint32_t r)
{
    return (uint64_t *)(void *)ex_row32(x, r);
}

/* Lane l of row r, and its write (v zero-extended from the register's width). */
static inline uint64_t ex_reg(const exec_ctx *x, uint32_t r, unsigned l)
{
    return ex_w8(x, r) ? ex_row64(x, r)[l] : ex_row32(x, r)[l];
}
static inline void ex_reg_set(const exec_ctx *x, uint32_t r, unsigned l, uint64_t v)
{
    if (ex_w8(x, r))
        ex_row64(x, r)[l] = v;
    else
        ex_row32(x, r)[l] = (uint32_t)v;
}

/* Runs the statements with `d` a pointer to row r's lanes of their width. */
#define EX_ROW_DO(x, r, d, ...)                                                        \
    do {                                                                               \
        if (ex_w8((x), (r))) {                                                         \
            uint64_t *const d = ex_row64((x), (r));                                    \
            __VA_ARGS__                                                                \
        } else {                                                                       \
            uint32_t *const d = ex_row32((x), (r));                                    \
            __VA_ARGS__                                                                \
        }                                                                              \
    } while (0)

/* Bit l set where lane l of `mask` holds a nonzero value in row r (a predicate row).
 * A full warp of 32 lanes (the common case) by a counted loop over the lanes, without
 * the dependence of one lane's index on the previous one's; other lanes' bits are 0. */
static inline uint64_t ex_nz_mask(const exec_ctx *x, uint32_t r, uint64_t mask)
{
    uint64_t c = 0;
    if (ex_w8(x, r)) {
        const uint64_t *p = ex_row64(x, r);
        EX_FOR_LANES(mask, l) c |= (uint64_t)(p[l] != 0) << l;
        return c;
    }
    const uint32_t *p = ex_row32(x, r);
    if (x->ws == 32 && mask == 0xffffffffull) {
        uint32_t c0 = 0, c1 = 0;
        for (unsigned l = 0; l < 16; l++) {
            c0 |= (uint32_t)(p[l] != 0) << l;
            c1 |= (uint32_t)(p[l + 16] != 0) << l;
        }
        return c0 | (uint64_t)c1 << 16;
    }
    EX_FOR_LANES(mask, l) c |= (uint64_t)(p[l] != 0) << l;
    return c;
}

/* Slow path of operand reads: special registers and symbol addresses (func/warp.c). */
uint64_t ex_src_slow(const exec_ctx *x, const ptx_operand *o, unsigned lane);

/* Source operand value of one lane: register, immediate, special register, symbol. */
static inline uint64_t ex_src(const exec_ctx *x, const ptx_operand *o, unsigned lane)
{
    if (o->kind == OK_REG)
        return ex_reg(x, o->r, lane);
    if (o->kind == OK_IMM)
        return o->imm;
    return ex_src_slow(x, o, lane);
}

/* A source operand resolved once per instruction, for a handler that reads 4-byte
 * (ex_rd32) or 8-byte (ex_rd64) lanes: lane l's value is p[l & m] (a register row of
 * that width, m = ~0; an immediate, m = 0, its low 32 bits for ex_rd32). The inits
 * return 0 for other kinds (special registers, symbols) and for a register of the
 * other width, which take ex_src per lane. */
typedef struct {
    const uint32_t *p;
    uint64_t m;
    uint32_t imm;
} ex_rd32;
typedef struct {
    const uint64_t *p;
    uint64_t m;
} ex_rd64;

static inline int ex_rd32_init(const exec_ctx *x, const ptx_operand *o, ex_rd32 *rd)
{
    if (o->kind == OK_REG && !ex_w8(x, o->r)) {
        rd->p = ex_row32(x, o->r);
        rd->m = ~0ull;
        return 1;
    }
    if (o->kind == OK_IMM) {
        rd->imm = (uint32_t)o->imm;
        rd->p = &rd->imm;
        rd->m = 0;
        return 1;
    }
    return 0;
}
static inline int ex_rd64_init(const exec_ctx *x, const ptx_operand *o, ex_rd64 *rd)
{
    if (o->kind == OK_REG && ex_w8(x, o->r)) {
        rd->p = ex_row64(x, o->r);
        rd->m = ~0ull;
        return 1;
    }
    if (o->kind == OK_IMM) {
        rd->p = &o->imm;
        rd->m = 0;
        return 1;
    }
    return 0;
}
#define EX_RD(rd, l) ((rd).p[(l) & (rd).m])

/* For handlers that take registers of either width (conversions): a source resolved
 * once, lane l's value ex_rdw_get(&rd, l) (the width a local of the loop, which the
 * compiler can hoist), and a destination, ex_wr_put (nothing for a sink).
 * ex_rdw_init returns 0 for special registers and symbols, which take ex_src per lane. */
typedef struct {
    const void *p;      /* the row (an immediate: its value, and lm = 0)           */
    uint64_t lm;        /* lane index mask                                         */
    int w8;             /* 8-byte lanes (an immediate: 1)                          */
} ex_rdw;
typedef struct {
    void *p;            /* the row, or NULL                                        */
    int w8;
} ex_wr;

static inline int ex_rdw_init(const exec_ctx *x, const ptx_operand *o, ex_rdw *rd)
{
    if (o->kind == OK_REG) {
        rd->p = ex_row32(x, o->r);
        rd->lm = ~0ull;
        rd->w8 = ex_w8(x, o->r);
        return 1;
    }
    if (o->kind == OK_IMM) {
        rd->p = &o->imm;
        rd->lm = 0;
        rd->w8 = 1;
        return 1;
    }
    return 0;
}
static inline uint64_t ex_rdw_get(const ex_rdw *rd, unsigned l)
{
    return rd->w8 ? ((const uint64_t *)rd->p)[l & rd->lm] : ((const uint32_t *)rd->p)[l & rd->lm];
}
static inline ex_wr ex_wr_of(const exec_ctx *x, const ptx_operand *o)
{
    if (o->kind != OK_REG)
        return (ex_wr){NULL, 0};
    return (ex_wr){ex_row32(x, o->r), ex_w8(x, o->r)};
}
static inline void ex_wr_put(ex_wr d, unsigned l, uint64_t v)
{
    if (!d.p)
        return;
    if (d.w8)
        ((uint64_t *)d.p)[l] = v;
    else
        ((uint32_t *)d.p)[l] = (uint32_t)v;
}

/* Runs the body for every lane of x->mask: a counted loop when all lanes are on. */
#define EX_LANE_LOOP(x, l, ...)                                                        \
    do {                                                                               \
        const unsigned n_ws = (x)->ws;                                                 \
        if ((x)->mask == EX_FULL(n_ws)) {                                              \
            for (unsigned l = 0; l < n_ws; l++) { __VA_ARGS__ }                        \
        } else {                                                                       \
            EX_FOR_LANES((x)->mask, l) { __VA_ARGS__ }                                 \
        }                                                                              \
    } while (0)

/* Predicate source (honours !%p). */
static inline int ex_pred(const exec_ctx *x, const ptx_operand *o, unsigned lane)
{
    return (ex_src(x, o, lane) != 0) ^ o->neg;
}

/* Destination write; the sink "_" and non-register operands are ignored. */
static inline void ex_dst(exec_ctx *x, const ptx_operand *o, unsigned lane, uint64_t v)
{
    if (o->kind == OK_REG)
        ex_reg_set(x, o->r, lane, v);
}

/* Zero-extends v from `bytes` (1, 2, 4, 8) wide and writes it. */
static inline uint64_t ex_trunc(uint64_t v, unsigned bytes)
{
    return bytes >= 8 ? v : v & ((1ull << (bytes * 8)) - 1);
}
static inline void ex_dst_w(exec_ctx *x, const ptx_operand *o, unsigned lane, uint64_t v,
                            unsigned bytes)
{
    ex_dst(x, o, lane, ex_trunc(v, bytes));
}

/* Bit casts between register bits and floats. */
static inline float ex_f32(uint64_t v) { float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4); return f; }
static inline double ex_f64(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t ex_bits32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t ex_bits64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* Records an error for this warp (kernel, PTX line, lane and message are reported by
 * the launcher) and makes the instruction end with EX_FAULT. printf-style. */
void ex_fault(exec_ctx *x, const ptx_insn *in, unsigned lane, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Binders: return the handler for `in`, or NULL with a reason in why[n] when the
 * combination of opcode, type and modifiers is not supported. Each family binds only
 * the opcodes listed above; the dispatcher (bind.c) routes by opcode and type. */
exec_fn exec_bind_int(const ptx_module *m, const ptx_func *f, const ptx_insn *in, char *why, size_t n);
exec_fn exec_bind_float(const ptx_module *m, const ptx_func *f, const ptx_insn *in, char *why, size_t n);
exec_fn exec_bind_mem(const ptx_module *m, const ptx_func *f, const ptx_insn *in, char *why, size_t n);
exec_fn exec_bind_warp(const ptx_module *m, const ptx_func *f, const ptx_insn *in, char *why, size_t n);

/* Dispatcher: binds every instruction of every defined function of m into fns
 * (one array per function, f->n_insns long). Returns 0, or -1 with
 * "file:line:col: unsupported instruction ..." in why. */
int exec_bind_module(const ptx_module *m, exec_fn **fns, char *why, size_t n);

#endif
