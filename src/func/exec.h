/* exec.h - the contract between decoded instructions and their semantics.
 *
 * Every instruction is bound once, at module load, to a handler (exec_fn) chosen
 * from its opcode, types and modifiers. A handler runs the instruction for all lanes
 * of x->mask (the warp's active lanes whose guard predicate holds) in one loop, so
 * the dispatch cost is paid once per warp instruction, not per thread.
 *
 * Register file: slot s of lane l is x->r[s * x->ws + l], a uint64_t holding the
 * value zero-extended from its width (b8..b64, f16 in the low 16 bits, f32 bits in
 * the low 32, predicates as 0/1). Handlers write results zero-extended from the
 * instruction type's width (ex_dst_w does that). Handlers see storage slots, not PTX
 * registers: they run func_prog.insns, whose register operands ptx/regalloc.c
 * renumbered (registers never live at once share a slot; func.host_reg_compact), and
 * must write only the lanes of x->mask (regalloc.h relies on it).
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
    uint64_t *r;        /* current frame's register file                              */
    uint64_t mask;      /* lanes executing this instruction                           */
    uint32_t ws;        /* warp size: the lane stride of r                            */
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

/* Bit l set where lane l of `mask` holds a nonzero value in p[l] (a predicate row).
 * A full warp of 32 lanes (the common case) by a counted loop over the lanes, without
 * the dependence of one lane's index on the previous one's; other lanes' bits are 0. */
static inline uint64_t ex_nz_mask(const uint64_t *p, uint64_t mask, uint32_t ws)
{
    uint64_t c = 0;
    if (ws == 32 && mask == 0xffffffffull) {
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
        return x->r[(size_t)o->r * x->ws + lane];
    if (o->kind == OK_IMM)
        return o->imm;
    return ex_src_slow(x, o, lane);
}

/* A source operand resolved once per instruction: lane l's value is p[l & m] (a
 * register row, m = ~0; an immediate, p = &o->imm and m = 0). ex_rd_init returns 0
 * for other kinds (special registers, symbols), which take ex_src per lane. */
typedef struct {
    const uint64_t *p;
    uint64_t m;
} ex_rd;

static inline int ex_rd_init(const exec_ctx *x, const ptx_operand *o, ex_rd *rd)
{
    if (o->kind == OK_REG) {
        rd->p = x->r + (size_t)o->r * x->ws;
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
        x->r[(size_t)o->r * x->ws + lane] = v;
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
