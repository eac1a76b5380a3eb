/* exec_float.c - PTX floating point: f16/bf16 (scalar and x2), f32 and f64
 * arithmetic, the special-function unit ops, testp, and every cvt.
 *
 * Handlers are specialised at bind time by opcode, type, rounding and .ftz/.sat, so
 * each lane loop is straight-line code. The few rare modifier combinations of the
 * half types and of cvt read their flags once per instruction, before the loop.
 *
 * Rounding. .rn is the host's own mode, so the default handlers never touch the
 * floating-point environment. Directed .rz/.rm/.rp arithmetic switches the host
 * rounding mode around the whole lane loop (fesetround) and restores it; the host
 * operations (+ - * / sqrt fma) are IEEE correctly rounded in every mode. Conversions
 * never use the environment: fp16.h rounds exactly in integer arithmetic.
 *
 * NaNs. Single-precision and half results that are NaN are the canonical NaN the
 * hardware produces (0x7fffffff, 0x7fff); double precision keeps payloads (PTX ISA
 * 9.7.3), except rcp/rsqrt.approx.ftz.f64 which give 0x7fffffff00000000.
 */
#include <fenv.h>
#include <math.h>
#include <stdio.h>

#include "func/exec.h"
#include "func/fp16.h"

#ifdef __clang__
#pragma clang fp contract(off)
#endif

#define AI static inline __attribute__((always_inline))
#define HANDLER(name) static void name(exec_ctx *x, const ptx_insn *in)

enum { FL_FTZ = 1, FL_SAT = 2, FL_RELU = 4 };

#define SIGN32 0x80000000u
#define CANON32 0x7fffffffu
#define SIGN64 0x8000000000000000ull

AI float f32v(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
AI uint32_t f32b(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
AI double f64v(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
AI uint64_t f64b(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

AI uint32_t ftz32(uint32_t u) { return (u & 0x7f800000u) ? u : (u & SIGN32); }
AI uint64_t ftz64(uint64_t u) { return (u & 0x7ff0000000000000ull) ? u : (u & SIGN64); }
AI int nan32(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
AI int nan64(uint64_t u) { return (u & ~SIGN64) > 0x7ff0000000000000ull; }

/* .sat: [+0.0, 1.0], NaN -> +0.0. -0.0 also becomes +0.0: the clamp's lower bound
 * is +0.0 (CUDA's __saturatef contract). */
AI uint32_t sat32(uint32_t u)
{
    float f = f32v(u);
    if (!(f > 0.0f))
        return 0;
    return f > 1.0f ? 0x3f800000u : u;
}

/* Runs `body` with the host rounding mode set to `mode`, restoring it afterwards. */
#define WITH_ROUND(mode, body)                                                         \
    do {                                                                               \
        int old_ = fegetround();                                                       \
        fesetround(mode);                                                              \
        body;                                                                          \
        fesetround(old_);                                                              \
    } while (0)

/* ==== f32 ======================================================================== */

/* Operation ids. The rounded ones come first, in table order. */
#define F32_RND_OPS(X) X(ADD, 2) X(SUB, 2) X(MUL, 2) X(FMA, 3) X(DIV, 2) X(RCP, 1) X(SQRT, 1)
#define F32_MISC_OPS(X)                                                                \
    X(DIVAPX, 2) X(DIVFULL, 2) X(RCPAPX, 1) X(SQRTAPX, 1) X(RSQRT, 1) X(SIN, 1)         \
    X(COS, 1) X(LG2, 1) X(EX2, 1) X(TANH, 1) X(ABS, 1) X(NEG, 1) X(MIN, 2) X(MAX, 2)    \
    X(MIN3, 3) X(MAX3, 3) X(MINN, 2) X(MAXN, 2) X(MIN3N, 3) X(MAX3N, 3) X(COPYSIGN, 2)

enum {
#define X(o, n) R32_##o,
    F32_RND_OPS(X)
#undef X
    R32__N
};
enum {
#define X(o, n) M32_##o,
    F32_MISC_OPS(X)
#undef X
    M32__N
};
enum {
#define X(o, n) A32_##o,
    F32_RND_OPS(X) F32_MISC_OPS(X)
#undef X
};

/* min/max per PTX: a NaN operand yields the other one, two NaNs the canonical NaN,
 * and -0.0 < +0.0. Equal operands differ at most in the sign of zero. */
AI uint32_t min32(uint32_t a, uint32_t b)
{
    if (nan32(a))
        return nan32(b) ? CANON32 : b;
    if (nan32(b))
        return a;
    float fa = f32v(a), fb = f32v(b);
    return fa < fb ? a : fb < fa ? b : (a | b);
}
AI uint32_t max32(uint32_t a, uint32_t b)
{
    if (nan32(a))
        return nan32(b) ? CANON32 : b;
    if (nan32(b))
        return a;
    float fa = f32v(a), fb = f32v(b);
    return fa > fb ? a : fb > fa ? b : (a & b);
}

/* min.NaN / max.NaN: any NaN operand gives the canonical NaN. */
AI uint32_t minn32(uint32_t a, uint32_t b) { return nan32(a) || nan32(b) ? CANON32 : min32(a, b); }
AI uint32_t maxn32(uint32_t a, uint32_t b) { return nan32(a) || nan32(b) ? CANON32 : max32(a, b); }

AI uint32_t canon32(float r) { return r != r ? CANON32 : f32b(r); }

AI uint32_t op32(int op, uint32_t ua, uint32_t ub, uint32_t uc)
{
    float a = f32v(ua), b = f32v(ub), c = f32v(uc);
    switch (op) {
    case A32_ADD: return canon32(a + b);
    case A32_SUB: return canon32(a - b);
    case A32_MUL: return canon32(a * b);
    case A32_FMA: return canon32(fmaf(a, b, c));
    case A32_DIV:
    case A32_DIVFULL: return canon32(a / b);
    case A32_RCP:
    case A32_RCPAPX: return canon32(1.0f / a);
    case A32_SQRT:
    case A32_SQRTAPX: return canon32(sqrtf(a));
    case A32_DIVAPX: {
        /* a * (1/b) with the reciprocal flushed when subnormal: for 2^126 < |b| the
         * result is a signed zero, or NaN for infinite a (PTX ISA, div.approx). */
        uint32_t r = ftz32(f32b(1.0f / b));
        return canon32(a * f32v(r));
    }
    case A32_RSQRT: return canon32(1.0f / sqrtf(a));
    case A32_SIN: return canon32(sinf(a));
    case A32_COS: return canon32(cosf(a));
    case A32_LG2: return canon32(log2f(a));
    case A32_EX2: return canon32(exp2f(a));
    case A32_TANH: return canon32(tanhf(a));
    case A32_ABS: return ua & ~SIGN32;
    case A32_NEG: return ua ^ SIGN32;
    case A32_MIN: return min32(ua, ub);
    case A32_MAX: return max32(ua, ub);
    case A32_MIN3: return min32(min32(ua, ub), uc);
    case A32_MAX3: return max32(max32(ua, ub), uc);
    case A32_MINN: return minn32(ua, ub);
    case A32_MAXN: return maxn32(ua, ub);
    case A32_MIN3N: return minn32(minn32(ua, ub), uc);
    case A32_MAX3N: return maxn32(maxn32(ua, ub), uc);
    case A32_COPYSIGN: return (ub & ~SIGN32) | (ua & SIGN32);
    }
    return CANON32;
}

/* op32 with the instruction's .ftz (operands and result) and .sat */
AI uint32_t op32_fl(int op, uint32_t a, uint32_t b, uint32_t c, unsigned fl)
{
    if (fl & FL_FTZ) {
        a = ftz32(a);
        b = ftz32(b);
        c = ftz32(c);
    }
    uint32_t r = op32(op, a, b, c);
    if (fl & FL_FTZ)
        r = ftz32(r);
    if (fl & FL_SAT)
        r = sat32(r);
    return r;
}

AI void run32(exec_ctx *x, const ptx_insn *in, int op, int ns, unsigned fl)
{
    const ptx_operand *od = &in->ops[0], *oa = &in->ops[1], *ob = &in->ops[2],
                      *oc = &in->ops[3];
    ex_rd32 ra, rb = {0}, rc = {0};
    if (od->kind == OK_REG && !ex_w8(x, od->r) && ex_rd32_init(x, oa, &ra) &&
        (ns < 2 || ex_rd32_init(x, ob, &rb)) && (ns < 3 || ex_rd32_init(x, oc, &rc))) {
        /* register and immediate sources: resolved once, not per lane */
        uint32_t *d = ex_row32(x, od->r);
        EX_LANE_LOOP(x, l, {
            uint32_t a = (uint32_t)EX_RD(ra, l);
            uint32_t b = ns > 1 ? (uint32_t)EX_RD(rb, l) : 0;
            uint32_t c = ns > 2 ? (uint32_t)EX_RD(rc, l) : 0;
            d[l] = op32_fl(op, a, b, c, fl);
        });
        return;
    }
    EX_FOR_LANES(x->mask, l) {
        uint32_t a = (uint32_t)ex_src(x, oa, l);
        uint32_t b = ns > 1 ? (uint32_t)ex_src(x, ob, l) : 0;
        uint32_t c = ns > 2 ? (uint32_t)ex_src(x, oc, l) : 0;
        ex_dst(x, od, l, op32_fl(op, a, b, c, fl));
    }
}

/* Rounded ops: [op][flags: 0, ftz, sat, ftz+sat][mode: rn, rz, rm, rp]. */
#define H32R(o, n, fl)                                                                 \
    HANDLER(f32_##o##_##fl) { run32(x, in, A32_##o, n, fl); }                          \
    HANDLER(f32_##o##_##fl##_rz) { WITH_ROUND(FE_TOWARDZERO, run32(x, in, A32_##o, n, fl)); } \
    HANDLER(f32_##o##_##fl##_rm) { WITH_ROUND(FE_DOWNWARD, run32(x, in, A32_##o, n, fl)); } \
    HANDLER(f32_##o##_##fl##_rp) { WITH_ROUND(FE_UPWARD, run32(x, in, A32_##o, n, fl)); }
#define G32R(o, n) H32R(o, n, 0) H32R(o, n, 1) H32R(o, n, 2) H32R(o, n, 3)
/* fma.rn.f32 without flags, the common one: where the host has FMA, a clone of its
 * handler with fmaf() as one instruction per lane instead of a libm call (both round
 * once, exactly: the results are the same bits) */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define FMA_CLONES
#endif
FMA_CLONES static void f32_FMA_0(exec_ctx *x, const ptx_insn *in);
F32_RND_OPS(G32R)
#define T32R1(o, fl) { f32_##o##_##fl, f32_##o##_##fl##_rz, f32_##o##_##fl##_rm, f32_##o##_##fl##_rp }
#define T32R(o, n) { T32R1(o, 0), T32R1(o, 1), T32R1(o, 2), T32R1(o, 3) },
static const exec_fn f32_rnd_tab[R32__N][4][4] = { F32_RND_OPS(T32R) };
static const uint8_t f32_rnd_ns[R32__N] = {
#define X(o, n) n,
    F32_RND_OPS(X)
#undef X
};

/* Other f32 ops: [op][ftz]. */
#define G32M(o, n)                                                                     \
    HANDLER(f32m_##o##_0) { run32(x, in, A32_##o, n, 0); }                             \
    HANDLER(f32m_##o##_1) { run32(x, in, A32_##o, n, FL_FTZ); }
F32_MISC_OPS(G32M)
#define T32M(o, n) { f32m_##o##_0, f32m_##o##_1 },
static const exec_fn f32_misc_tab[M32__N][2] = { F32_MISC_OPS(T32M) };
static const uint8_t f32_misc_ns[M32__N] = {
#define X(o, n) n,
    F32_MISC_OPS(X)
#undef X
};

/* ==== f64 ======================================================================== */

#define F64_RND_OPS(X) X(ADD, 2) X(SUB, 2) X(MUL, 2) X(FMA, 3) X(DIV, 2) X(RCP, 1) X(SQRT, 1)
#define F64_MISC_OPS(X)                                                                \
    X(ABS, 1) X(NEG, 1) X(MIN, 2) X(MAX, 2) X(COPYSIGN, 2) X(RCPAPXFTZ, 1) X(RSQRT, 1)  \
    X(RSQRTFTZ, 1)

enum {
#define X(o, n) R64_##o,
    F64_RND_OPS(X)
#undef X
    R64__N
};
enum {
#define X(o, n) M64_##o,
    F64_MISC_OPS(X)
#undef X
    M64__N
};
enum {
#define X(o, n) A64_##o,
    F64_RND_OPS(X) F64_MISC_OPS(X)
#undef X
};

AI uint64_t min64(uint64_t a, uint64_t b)
{
    if (nan64(a))
        return nan64(b) ? a : b;
    if (nan64(b))
        return a;
    double fa = f64v(a), fb = f64v(b);
    return fa < fb ? a : fb < fa ? b : (a | b);
}
AI uint64_t max64(uint64_t a, uint64_t b)
{
    if (nan64(a))
        return nan64(b) ? a : b;
    if (nan64(b))
        return a;
    double fa = f64v(a), fb = f64v(b);
    return fa > fb ? a : fb > fa ? b : (a & b);
}

/* rcp/rsqrt.approx.ftz.f64 work on the upper word of a (1.11.20 format) and clear
 * the lower word of the result (PTX ISA 9.7.3.14, 9.7.3.17). */
AI uint64_t approx_hi64(uint64_t a, int rsq)
{
    const uint64_t hi = 0xffffffff00000000ull;
    if (nan64(a))
        return 0x7fffffff00000000ull;
    double v = f64v(ftz64(a & hi));
    double r = rsq ? 1.0 / sqrt(v) : 1.0 / v;
    if (r != r)
        return 0x7fffffff00000000ull;
    return ftz64(f64b(r) & hi);
}

AI uint64_t op64(int op, uint64_t ua, uint64_t ub, uint64_t uc)
{
    double a = f64v(ua), b = f64v(ub), c = f64v(uc);
    switch (op) {
    case A64_ADD: return f64b(a + b);
    case A64_SUB: return f64b(a - b);
    case A64_MUL: return f64b(a * b);
    case A64_FMA: return f64b(fma(a, b, c));
    case A64_DIV: return f64b(a / b);
    case A64_RCP: return f64b(1.0 / a);
    case A64_SQRT: return f64b(sqrt(a));
    case A64_RSQRT: return f64b(1.0 / sqrt(a));
    case A64_ABS: return ua & ~SIGN64;
    case A64_NEG: return ua ^ SIGN64;
    case A64_MIN: return min64(ua, ub);
    case A64_MAX: return max64(ua, ub);
    case A64_COPYSIGN: return (ub & ~SIGN64) | (ua & SIGN64);
    case A64_RCPAPXFTZ: return approx_hi64(ua, 0);
    case A64_RSQRTFTZ: return approx_hi64(ua, 1);
    }
    return 0;
}

AI void run64(exec_ctx *x, const ptx_insn *in, int op, int ns)
{
    const ptx_operand *od = &in->ops[0], *oa = &in->ops[1], *ob = &in->ops[2],
                      *oc = &in->ops[3];
    ex_rd64 ra, rb = {0}, rc = {0};
    if (od->kind == OK_REG && ex_w8(x, od->r) && ex_rd64_init(x, oa, &ra) &&
        (ns < 2 || ex_rd64_init(x, ob, &rb)) && (ns < 3 || ex_rd64_init(x, oc, &rc))) {
        uint64_t *d = ex_row64(x, od->r);
        EX_LANE_LOOP(x, l, {
            uint64_t a = EX_RD(ra, l);
            uint64_t b = ns > 1 ? EX_RD(rb, l) : 0;
            uint64_t c = ns > 2 ? EX_RD(rc, l) : 0;
            d[l] = op64(op, a, b, c);
        });
        return;
    }
    EX_FOR_LANES(x->mask, l) {
        uint64_t a = ex_src(x, oa, l);
        uint64_t b = ns > 1 ? ex_src(x, ob, l) : 0;
        uint64_t c = ns > 2 ? ex_src(x, oc, l) : 0;
        ex_dst(x, od, l, op64(op, a, b, c));
    }
}

#define G64R(o, n)                                                                     \
    HANDLER(f64_##o) { run64(x, in, A64_##o, n); }                                     \
    HANDLER(f64_##o##_rz) { WITH_ROUND(FE_TOWARDZERO, run64(x, in, A64_##o, n)); }     \
    HANDLER(f64_##o##_rm) { WITH_ROUND(FE_DOWNWARD, run64(x, in, A64_##o, n)); }       \
    HANDLER(f64_##o##_rp) { WITH_ROUND(FE_UPWARD, run64(x, in, A64_##o, n)); }
F64_RND_OPS(G64R)
#define T64R(o, n) { f64_##o, f64_##o##_rz, f64_##o##_rm, f64_##o##_rp },
static const exec_fn f64_rnd_tab[R64__N][4] = { F64_RND_OPS(T64R) };
static const uint8_t f64_rnd_ns[R64__N] = {
#define X(o, n) n,
    F64_RND_OPS(X)
#undef X
};

#define G64M(o, n) HANDLER(f64m_##o) { run64(x, in, A64_##o, n); }
F64_MISC_OPS(G64M)
#define T64M(o, n) f64m_##o,
static const exec_fn f64_misc_tab[M64__N] = { F64_MISC_OPS(T64M) };
static const uint8_t f64_misc_ns[M64__N] = {
#define X(o, n) n,
    F64_MISC_OPS(X)
#undef X
};

/* ==== testp ====================================================================== */

AI int testp(int sub, int is64, uint64_t u)
{
    uint64_t mag = is64 ? u & ~SIGN64 : u & 0x7fffffffu;
    uint64_t inf = is64 ? 0x7ff0000000000000ull : 0x7f800000u;
    switch (sub) {
    case TESTP_FINITE: return mag < inf;
    case TESTP_INFINITE: return mag == inf;
    case TESTP_NUMBER: return mag <= inf;
    case TESTP_NOTANUMBER: return mag > inf;
    case TESTP_NORMAL: return mag < inf && ((mag & inf) != 0 || mag == 0); /* 0 is normal */
    case TESTP_SUBNORMAL: return mag != 0 && (mag & inf) == 0;
    }
    return 0;
}

AI void run_testp(exec_ctx *x, const ptx_insn *in, int sub, int is64)
{
    const ptx_operand *od = &in->ops[0], *oa = &in->ops[1];
    EX_FOR_LANES(x->mask, l) {
        uint64_t u = ex_src(x, oa, l);
        ex_dst(x, od, l, (uint64_t)testp(sub, is64, is64 ? u : (uint32_t)u));
    }
}

#define TESTP_SUBS(X) X(FINITE) X(INFINITE) X(NUMBER) X(NOTANUMBER) X(NORMAL) X(SUBNORMAL)
#define GTP(s)                                                                         \
    HANDLER(testp32_##s) { run_testp(x, in, TESTP_##s, 0); }                           \
    HANDLER(testp64_##s) { run_testp(x, in, TESTP_##s, 1); }
TESTP_SUBS(GTP)
#define TTP(s) { testp32_##s, testp64_##s },
static const exec_fn testp_tab[6][2] = { TESTP_SUBS(TTP) };

/* ==== f16 / bf16 ================================================================= */

#define H_OPS(X)                                                                       \
    X(ADD, 2) X(SUB, 2) X(MUL, 2) X(FMA, 3) X(NEG, 1) X(ABS, 1) X(MIN, 2) X(MAX, 2)      \
    X(MINN, 2) X(MAXN, 2) X(EX2, 1) X(TANH, 1)
enum {
#define X(o, n) AH_##o,
    H_OPS(X)
#undef X
    AH__N
};
static const uint8_t h_ns[AH__N] = {
#define X(o, n) n,
    H_OPS(X)
#undef X
};

/* Round-to-odd of p + c, both doubles: the exact sum nudged to the odd neighbour
 * when inexact, so a second rounding to any format of at most 51 bits is correct
 * (a fused multiply-add of halves rounds once, as PTX requires). Host mode: RN. */
AI double add_odd(double p, double c)
{
    double s = p + c, bb = s - p;
    double err = (p - (s - bb)) + (c - bb);
    if (err != 0.0 && isfinite(s)) {
        uint64_t u = f64b(s);
        if (!(u & 1))
            u += ((err > 0) == (s > 0)) ? 1 : (uint64_t)-1;
        s = f64v(u);
    }
    return s;
}

AI uint32_t hmin(int k, uint32_t a, uint32_t b, int is_max, int nan_wins)
{
    if (nan_wins && (fp16_isnan(k, a) || fp16_isnan(k, b)))
        return (uint32_t)fp16_qnan(k);
    if (fp16_isnan(k, a))
        return fp16_isnan(k, b) ? (uint32_t)fp16_qnan(k) : b;
    if (fp16_isnan(k, b))
        return a;
    double fa = fp16_to_double(k, a), fb = fp16_to_double(k, b);
    if (is_max)
        return fa > fb ? a : fb > fa ? b : (a & b);
    return fa < fb ? a : fb < fa ? b : (a | b);
}

/* One half-precision lane: 16-bit operands in, 16-bit result out. Arithmetic is done
 * in double (exact for products; a single rounding is safe for + - * since
 * 53 >= 2*11+2) and rounded once to the format. */
AI uint32_t hop(int k, int op, uint32_t a, uint32_t b, uint32_t c, unsigned fl)
{
    if (fl & FL_FTZ) {
        a = (uint32_t)fp16_ftz(k, a);
        b = (uint32_t)fp16_ftz(k, b);
        c = (uint32_t)fp16_ftz(k, c);
    }
    double da = fp16_to_double(k, a), db = fp16_to_double(k, b), dc = fp16_to_double(k, c);
    uint32_t r;
    switch (op) {
    case AH_ADD: r = (uint32_t)fp16_from_double(k, da + db, RND_RN); break;
    case AH_SUB: r = (uint32_t)fp16_from_double(k, da - db, RND_RN); break;
    case AH_MUL: r = (uint32_t)fp16_from_double(k, da * db, RND_RN); break;
    case AH_FMA: r = (uint32_t)fp16_from_double(k, add_odd(da * db, dc), RND_RN); break;
    case AH_NEG: r = a ^ 0x8000u; break;
    case AH_ABS: r = a & 0x7fffu; break;
    case AH_MIN: r = hmin(k, a, b, 0, 0); break;
    case AH_MAX: r = hmin(k, a, b, 1, 0); break;
    case AH_MINN: r = hmin(k, a, b, 0, 1); break;
    case AH_MAXN: r = hmin(k, a, b, 1, 1); break;
    case AH_EX2: r = (uint32_t)fp16_from_double(k, (double)exp2f((float)da), RND_RN); break;
    case AH_TANH: r = (uint32_t)fp16_from_double(k, (double)tanhf((float)da), RND_RN); break;
    default: r = (uint32_t)fp16_qnan(k); break;
    }
    if (fl & FL_FTZ)
        r = (uint32_t)fp16_ftz(k, r);
    if ((fl & FL_SAT) && !(fp16_to_double(k, r) > 0.0))
        r = 0;
    else if ((fl & FL_SAT) && fp16_to_double(k, r) > 1.0)
        r = (uint32_t)fp16_one(k);
    if ((fl & FL_RELU) && fp16_isnan(k, r))
        r = (uint32_t)fp16_qnan(k);
    else if ((fl & FL_RELU) && (r & 0x8000u))
        r = 0;
    return r;
}

AI unsigned insn_fl(const ptx_insn *in)
{
    return ((in->flags & MF_FTZ) ? FL_FTZ : 0) | ((in->flags & MF_SAT) ? FL_SAT : 0) |
           ((in->flags & MF_RELU) ? FL_RELU : 0);
}

/* fl_const >= 0: flags known at compile time; else read from the instruction. */
AI void run_h(exec_ctx *x, const ptx_insn *in, int k, int x2, int op, int fl_const)
{
    const unsigned fl = fl_const >= 0 ? (unsigned)fl_const : insn_fl(in);
    const int ns = h_ns[op];
    const ptx_operand *od = &in->ops[0], *oa = &in->ops[1], *ob = &in->ops[2],
                      *oc = &in->ops[3];
    EX_FOR_LANES(x->mask, l) {
        uint32_t a = (uint32_t)ex_src(x, oa, l);
        uint32_t b = ns > 1 ? (uint32_t)ex_src(x, ob, l) : 0;
        uint32_t c = ns > 2 ? (uint32_t)ex_src(x, oc, l) : 0;
        uint32_t r = hop(k, op, a & 0xffff, b & 0xffff, c & 0xffff, fl);
        if (x2)
            r |= hop(k, op, a >> 16, b >> 16, c >> 16, fl) << 16;
        ex_dst(x, od, l, r);
    }
}

#define GH(o, n)                                                                       \
    HANDLER(h_##o) { run_h(x, in, FPK_H, 0, AH_##o, 0); }                              \
    HANDLER(h2_##o) { run_h(x, in, FPK_H, 1, AH_##o, 0); }                             \
    HANDLER(bf_##o) { run_h(x, in, FPK_BF, 0, AH_##o, 0); }                            \
    HANDLER(bf2_##o) { run_h(x, in, FPK_BF, 1, AH_##o, 0); }                           \
    HANDLER(hf_##o) { run_h(x, in, FPK_H, 0, AH_##o, FL_FTZ); }                        \
    HANDLER(h2f_##o) { run_h(x, in, FPK_H, 1, AH_##o, FL_FTZ); }                       \
    HANDLER(hg_##o) { run_h(x, in, FPK_H, 0, AH_##o, -1); }                            \
    HANDLER(h2g_##o) { run_h(x, in, FPK_H, 1, AH_##o, -1); }                           \
    HANDLER(bfg_##o) { run_h(x, in, FPK_BF, 0, AH_##o, -1); }                          \
    HANDLER(bf2g_##o) { run_h(x, in, FPK_BF, 1, AH_##o, -1); }
H_OPS(GH)
/* [op][f16, f16x2, bf16, bf16x2][no flags, ftz only, any flags] */
#define TH(o, n)                                                                       \
    { { h_##o, hf_##o, hg_##o }, { h2_##o, h2f_##o, h2g_##o }, { bf_##o, bfg_##o, bfg_##o }, \
      { bf2_##o, bf2g_##o, bf2g_##o } },
static const exec_fn h_tab[AH__N][4][3] = { H_OPS(TH) };

/* ==== cvt ======================================================================== */

static int type_bits(int t)
{
    switch (t) {
    case PT_B8: case PT_U8: case PT_S8: return 8;
    case PT_B16: case PT_U16: case PT_S16: case PT_F16: case PT_BF16: return 16;
    case PT_B32: case PT_U32: case PT_S32: case PT_F32: case PT_F16X2: case PT_BF16X2: return 32;
    case PT_B64: case PT_U64: case PT_S64: case PT_F64: return 64;
    }
    return 0;
}

static int float_kind(int t)
{
    return t == PT_F16 ? FPK_H : t == PT_BF16 ? FPK_BF : t == PT_F32 ? FPK_S : FPK_D;
}

AI uint64_t mask_bits(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }

/* Source float of kind k as an exact double (.ftz flushes an f32 source). */
AI double fdec(int k, uint64_t u, int ftz)
{
    if (k == FPK_S)
        return (double)f32v(ftz ? ftz32((uint32_t)u) : (uint32_t)u);
    if (k == FPK_D)
        return f64v(u);
    return fp16_to_double(k, u & 0xffff);
}

/* Rounding to an integral value (.rni .rzi .rmi .rpi); the host mode is RN. */
AI double rint_mode(double v, int mode)
{
    switch (mode) {
    case RND_RNI: return nearbyint(v);
    case RND_RZI: return trunc(v);
    case RND_RMI: return floor(v);
    case RND_RPI: return ceil(v);
    }
    return v;
}

/* An exact double (or one to round in `mode`) encoded in float kind k. */
AI uint64_t fenc(int k, double v, int mode)
{
    if (k == FPK_D)
        return f64b(v);
    if (k == FPK_S && (mode == RND_RN || mode == RND_NONE))
        return canon32((float)v);
    return fp16_from_double(k, v, mode);
}

/* .ftz (f32 results), .sat and .relu on a float result of kind k. */
AI uint64_t ffin(int k, uint64_t r, unsigned fl)
{
    if ((fl & FL_FTZ) && k == FPK_S)
        r = ftz32((uint32_t)r);
    if (fl & FL_SAT) {
        double v = fdec(k, r, 0);
        if (!(v > 0.0))
            r = 0;
        else if (v > 1.0)
            r = fp16_one(k);
    }
    if (fl & FL_RELU) {
        if (fp16_isnan(k, r))
            r = fp16_qnan(k);
        else if (r & fp16_sign(k))
            r = 0;
    }
    return r;
}

/* float <- float. mode: RND_NONE (exact), a float rounding, or an integer rounding
 * (same-size only, the result being exactly representable). */
AI void run_ff(exec_ctx *x, const ptx_insn *in, int sk, int dk, int mode, int fl_const)
{
    const unsigned fl = fl_const >= 0 ? (unsigned)fl_const : insn_fl(in);
    const int ftz_in = (fl & FL_FTZ) && sk == FPK_S;
    const ptx_operand *od = &in->ops[0], *oa = &in->ops[1];
    ex_rdw ra;
    const int ok = ex_rdw_init(x, oa, &ra);
    const ex_wr d = ex_wr_of(x, od);
    EX_FOR_LANES(x->mask, l) {
        double v = fdec(sk, ok ? ex_rdw_get(&ra, l) : ex_src(x, oa, l), ftz_in);
        uint64_t r;
        if (mode >= RND_RNI)
            r = fenc(dk, rint_mode(v, mode), RND_RN);
        else
            r = fenc(dk, v, mode);
        ex_wr_put(d, l, ffin(dk, r, fl));
    }
}

/* int <- float: round per .rni/.rzi/.rmi/.rpi, saturate to the destination range;
 * NaN gives 0, or 1 << (bits-1) for an f64 source or a 64-bit destination (PTX ISA,
 * cvt Integer Notes). */
AI void run_fi(exec_ctx *x, const ptx_insn *in, int sk, int mode)
{
    const int bits = type_bits(in->type), sgn = ptx_type_is_signed(in->type);
    const int ftz = (in->flags & MF_FTZ) != 0 && sk == FPK_S;
    const uint64_t msk = mask_bits(bits), top = 1ull << (bits - 1);
    const double lo = sgn ? -ldexp(1.0, bits - 1) : 0.0;
    const double hi = sgn ? ldexp(1.0, bits - 1) : ldexp(1.0, bits); /* first too large */
    const uint64_t lo_b = sgn ? top : 0, hi_b = sgn ? top - 1 : msk;
    const uint64_t nan_b = (sk == FPK_D || bits == 64) ? top : 0;
    const ptx_operand *od = &in->ops[0], *oa = &in->ops[1];
    ex_rdw ra;
    const int ok = ex_rdw_init(x, oa, &ra);
    const ex_wr d = ex_wr_of(x, od);
    EX_FOR_LANES(x->mask, l) {
        double v = fdec(sk, ok ? ex_rdw_get(&ra, l) : ex_src(x, oa, l), ftz);
        uint64_t r;
        /* truncation is what the casts below do, so .rzi needs no rounding call */
        double t = mode == RND_RZI ? v : rint_mode(v, mode);
        if (v != v)
            r = nan_b;
        else if (t >= hi)
            r = hi_b;
        else if (t <= lo)
            r = lo_b;
        else
            r = sgn ? (uint64_t)(int64_t)t & msk : (uint64_t)t;
        ex_wr_put(d, l, r);
    }
}

/* Source integer of the cvt, extended to 64 bits per its own signedness. */
AI uint64_t int_src(uint64_t u, int shift, int sgn)
{
    return sgn ? (uint64_t)((int64_t)(u << shift) >> shift) : (u << shift) >> shift;
}

/* float <- int. */
AI void run_if(exec_ctx *x, const ptx_insn *in, int dk, int mode, int sgn)
{
    const int shift = 64 - type_bits(in->type2);
    const unsigned fl = insn_fl(in) & FL_SAT;
    const ptx_operand *od = &in->ops[0], *oa = &in->ops[1];
    ex_rdw ra;
    const int ok = ex_rdw_init(x, oa, &ra);
    const ex_wr d = ex_wr_of(x, od);
    EX_FOR_LANES(x->mask, l) {
        uint64_t v = int_src(ok ? ex_rdw_get(&ra, l) : ex_src(x, oa, l), shift, sgn);
        uint64_t r;
        if (mode == RND_RN && dk == FPK_D)
            r = f64b(sgn ? (double)(int64_t)v : (double)v);
        else if (mode == RND_RN && dk == FPK_S)
            r = f32b(sgn ? (float)(int64_t)v : (float)v);
        else {
            int neg = sgn && (int64_t)v < 0;
            r = fp16_pack(dk, neg, neg ? (uint64_t)0 - v : v, 0, 0, mode);
        }
        if (fl)
            r = ffin(dk, r, fl);
        ex_wr_put(d, l, r);
    }
}

/* int <- int: extension per the source's signedness, truncation, optional .sat
 * clamp to the destination range. */
AI void run_ii(exec_ctx *x, const ptx_insn *in, int ssgn, int sat)
{
    const int shift = 64 - type_bits(in->type2), db = type_bits(in->type);
    const int dsgn = ptx_type_is_signed(in->type);
    const uint64_t msk = mask_bits(db), umax = dsgn ? msk >> 1 : msk;
    const int64_t smin = dsgn ? -(int64_t)umax - 1 : 0;
    const ptx_operand *od = &in->ops[0], *oa = &in->ops[1];
    ex_rdw ra;
    const int ok = ex_rdw_init(x, oa, &ra);
    const ex_wr d = ex_wr_of(x, od);
    EX_FOR_LANES(x->mask, l) {
        uint64_t v = int_src(ok ? ex_rdw_get(&ra, l) : ex_src(x, oa, l), shift, ssgn);
        if (sat) {
            if (ssgn) {
                int64_t s = (int64_t)v;
                if (s < smin)
                    v = (uint64_t)smin;
                else if (s >= 0 && v > umax)
                    v = umax;
            } else if (v > umax) {
                v = umax;
            }
        }
        ex_wr_put(d, l, v & msk);
    }
}

/* f16x2 / bf16x2 <- two f32: d = {cvt(a) in the upper half, cvt(b) in the lower}. */
AI void run_x2(exec_ctx *x, const ptx_insn *in, int dk, int mode)
{
    const unsigned fl = insn_fl(in) & FL_RELU;
    const ptx_operand *od = &in->ops[0], *oa = &in->ops[1], *ob = &in->ops[2];
    EX_FOR_LANES(x->mask, l) {
        double a = (double)f32v((uint32_t)ex_src(x, oa, l));
        double b = (double)f32v((uint32_t)ex_src(x, ob, l));
        uint64_t ra = ffin(dk, fp16_from_double(dk, a, mode), fl);
        uint64_t rb = ffin(dk, fp16_from_double(dk, b, mode), fl);
        ex_dst(x, od, l, (ra << 16) | rb);
    }
}

/* float <- float combinations: same kind (exact or integral rounding), widening
 * (exact), narrowing or lossy (float rounding). */
#define FF_LIST(X)                                                                     \
    X(H, H, NONE) X(H, H, RNI) X(H, H, RZI) X(H, H, RMI) X(H, H, RPI)                  \
    X(BF, BF, NONE) X(BF, BF, RNI) X(BF, BF, RZI) X(BF, BF, RMI) X(BF, BF, RPI)        \
    X(S, S, NONE) X(S, S, RNI) X(S, S, RZI) X(S, S, RMI) X(S, S, RPI)                  \
    X(D, D, NONE) X(D, D, RNI) X(D, D, RZI) X(D, D, RMI) X(D, D, RPI)                  \
    X(H, S, NONE) X(H, D, NONE) X(BF, S, NONE) X(BF, D, NONE) X(S, D, NONE)            \
    X(S, H, RN) X(S, H, RZ) X(S, H, RM) X(S, H, RP)                                    \
    X(D, H, RN) X(D, H, RZ) X(D, H, RM) X(D, H, RP)                                    \
    X(S, BF, RN) X(S, BF, RZ) X(S, BF, RM) X(S, BF, RP)                                \
    X(D, BF, RN) X(D, BF, RZ) X(D, BF, RM) X(D, BF, RP)                                \
    X(D, S, RN) X(D, S, RZ) X(D, S, RM) X(D, S, RP)                                    \
    X(BF, H, RN) X(BF, H, RZ) X(BF, H, RM) X(BF, H, RP)                                \
    X(H, BF, RN) X(H, BF, RZ) X(H, BF, RM) X(H, BF, RP)
/* X(src, dst, mode) */
#define GFF(s, d, m)                                                                   \
    HANDLER(cvt_##s##_##d##_##m) { run_ff(x, in, FPK_##s, FPK_##d, RND_##m, -1); }
FF_LIST(GFF)
/* Flag-free fast paths of what nvcc emits most. */
HANDLER(cvt_f64_f32) { run_ff(x, in, FPK_S, FPK_D, RND_NONE, 0); }
HANDLER(cvt_f32_f64_rn) { run_ff(x, in, FPK_D, FPK_S, RND_RN, 0); }
HANDLER(cvt_f32_f16) { run_ff(x, in, FPK_H, FPK_S, RND_NONE, 0); }
HANDLER(cvt_f16_f32_rn) { run_ff(x, in, FPK_S, FPK_H, RND_RN, 0); }
HANDLER(cvt_f32_bf16) { run_ff(x, in, FPK_BF, FPK_S, RND_NONE, 0); }
HANDLER(cvt_bf16_f32_rn) { run_ff(x, in, FPK_S, FPK_BF, RND_RN, 0); }

static exec_fn ff_pick(int sk, int dk, int mode, unsigned fl)
{
    if (!fl) {
        if (sk == FPK_S && dk == FPK_D) return cvt_f64_f32;
        if (sk == FPK_D && dk == FPK_S && mode == RND_RN) return cvt_f32_f64_rn;
        if (sk == FPK_H && dk == FPK_S) return cvt_f32_f16;
        if (sk == FPK_S && dk == FPK_H && mode == RND_RN) return cvt_f16_f32_rn;
        if (sk == FPK_BF && dk == FPK_S) return cvt_f32_bf16;
        if (sk == FPK_S && dk == FPK_BF && mode == RND_RN) return cvt_bf16_f32_rn;
    }
#define X(s, d, m)                                                                     \
    if (sk == FPK_##s && dk == FPK_##d && mode == RND_##m)                             \
        return cvt_##s##_##d##_##m;
    FF_LIST(X)
#undef X
    return NULL;
}

/* int <- float: [src kind][rni rzi rmi rpi] */
#define FI_SRC(X) X(H) X(BF) X(S) X(D)
#define GFI(s)                                                                         \
    HANDLER(cvti_##s##_RNI) { run_fi(x, in, FPK_##s, RND_RNI); }                       \
    HANDLER(cvti_##s##_RZI) { run_fi(x, in, FPK_##s, RND_RZI); }                       \
    HANDLER(cvti_##s##_RMI) { run_fi(x, in, FPK_##s, RND_RMI); }                       \
    HANDLER(cvti_##s##_RPI) { run_fi(x, in, FPK_##s, RND_RPI); }
FI_SRC(GFI)
#define TFI(s) { cvti_##s##_RNI, cvti_##s##_RZI, cvti_##s##_RMI, cvti_##s##_RPI },
static const exec_fn fi_tab[4][4] = { FI_SRC(TFI) };

/* float <- int: [dst kind][rn rz rm rp][unsigned, signed source] */
#define GIF1(d, m)                                                                     \
    HANDLER(cvtf_##d##_##m##_u) { run_if(x, in, FPK_##d, RND_##m, 0); }                \
    HANDLER(cvtf_##d##_##m##_s) { run_if(x, in, FPK_##d, RND_##m, 1); }
#define GIF(d) GIF1(d, RN) GIF1(d, RZ) GIF1(d, RM) GIF1(d, RP)
FI_SRC(GIF)
#define TIF1(d, m) { cvtf_##d##_##m##_u, cvtf_##d##_##m##_s }
#define TIF(d) { TIF1(d, RN), TIF1(d, RZ), TIF1(d, RM), TIF1(d, RP) },
static const exec_fn if_tab[4][4][2] = { FI_SRC(TIF) };

HANDLER(cvt_ii_u) { run_ii(x, in, 0, 0); }
HANDLER(cvt_ii_s) { run_ii(x, in, 1, 0); }
HANDLER(cvt_ii_u_sat) { run_ii(x, in, 0, 1); }
HANDLER(cvt_ii_s_sat) { run_ii(x, in, 1, 1); }

#define GX2(m)                                                                         \
    HANDLER(cvt_h2_##m) { run_x2(x, in, FPK_H, RND_##m); }                             \
    HANDLER(cvt_bf2_##m) { run_x2(x, in, FPK_BF, RND_##m); }
GX2(RN) GX2(RZ) GX2(RM) GX2(RP)
static const exec_fn x2_tab[2][4] = { { cvt_h2_RN, cvt_h2_RZ, cvt_h2_RM, cvt_h2_RP },
                                      { cvt_bf2_RN, cvt_bf2_RZ, cvt_bf2_RM, cvt_bf2_RP } };

/* ==== binder ===================================================================== */

#define FAIL(...) (snprintf(why, n, __VA_ARGS__), (exec_fn)NULL)

/* Float rounding index 0..3 (rn rz rm rp), or -1. Absent means .rn (ir.h). */
static int frnd_idx(int r)
{
    switch (r) {
    case RND_NONE: case RND_RN: return 0;
    case RND_RZ: return 1;
    case RND_RM: return 2;
    case RND_RP: return 3;
    }
    return -1;
}

static int src_ok(const ptx_operand *o)
{
    return o->kind == OK_REG || o->kind == OK_IMM || o->kind == OK_SREG || o->kind == OK_SYM;
}

/* d, then ns sources. */
static int operands_ok(const ptx_insn *in, int ns)
{
    if (in->nops != ns + 1)
        return 0;
    if (in->ops[0].kind != OK_REG && in->ops[0].kind != OK_SINK)
        return 0;
    for (int i = 1; i <= ns; i++)
        if (!src_ok(&in->ops[i]))
            return 0;
    return 1;
}

static const char *opname(const ptx_insn *in)
{
    return in->op < OP__COUNT ? ptx_op_info[in->op].name : "?";
}

static exec_fn bind_cvt(const ptx_insn *in, char *why, size_t n)
{
    const int dt = in->type, st = in->type2;
    const int r = in->rnd;
    if (dt == PT_F16X2 || dt == PT_BF16X2) {
        int ri = frnd_idx(r);
        if (st != PT_F32)
            return FAIL("cvt.%s: source must be .f32", dt == PT_F16X2 ? "f16x2" : "bf16x2");
        if (ri < 0)
            return FAIL("cvt to a packed half type needs .rn/.rz/.rm/.rp");
        if (!operands_ok(in, 2))
            return FAIL("cvt to a packed half type takes d, a, b");
        return x2_tab[dt == PT_BF16X2][ri];
    }
    if (!operands_ok(in, 1))
        return FAIL("cvt takes d, a");
    int dbits = type_bits(dt), sbits = type_bits(st);
    if (!dbits || !sbits || dt == PT_F16X2 || st == PT_F16X2 || st == PT_BF16X2)
        return FAIL("cvt between these types is not supported");
    int dfl = ptx_type_is_float(dt), sfl = ptx_type_is_float(st);
    unsigned fl = insn_fl(in);
    if (!dfl && !sfl) {
        if (r != RND_NONE)
            return FAIL("integer-to-integer cvt takes no rounding modifier");
        int ssgn = ptx_type_is_signed(st), sat = (fl & FL_SAT) != 0;
        return sat ? (ssgn ? cvt_ii_s_sat : cvt_ii_u_sat) : (ssgn ? cvt_ii_s : cvt_ii_u);
    }
    if (!dfl) {
        /* PTX requires an integer rounding here; absent (legacy PTX) truncates. */
        int m = r == RND_NONE ? RND_RZI : r;
        if (m < RND_RNI || m > RND_RPI)
            return FAIL("float-to-integer cvt needs .rni/.rzi/.rmi/.rpi");
        return fi_tab[float_kind(st)][m - RND_RNI];
    }
    if (!sfl) {
        int ri = frnd_idx(r);
        if (ri < 0)
            return FAIL("integer-to-float cvt needs .rn/.rz/.rm/.rp");
        if (fl & FL_RELU)
            return FAIL("cvt.relu from an integer is not supported");
        return if_tab[float_kind(dt)][ri][ptx_type_is_signed(st)];
    }
    int sk = float_kind(st), dk = float_kind(dt);
    int mode;
    if (r >= RND_RNI && r <= RND_RPI) {
        if (sk != dk)
            return FAIL("cvt with integer rounding needs the same source and destination type");
        mode = r;
    } else if (r == RND_RNA) {
        return FAIL("cvt.rna is only defined for .tf32");
    } else if (sk == dk || (sk != FPK_D && dk == FPK_D) || (sk != FPK_S && sk != FPK_D &&
                                                              dk == FPK_S)) {
        mode = RND_NONE; /* exact: any float rounding is moot */
    } else {
        mode = r == RND_NONE ? RND_RN : r;
    }
    if ((fl & FL_RELU) && dk != FPK_H && dk != FPK_BF)
        return FAIL("cvt.relu needs an .f16 or .bf16 destination");
    exec_fn h = ff_pick(sk, dk, mode, fl);
    return h ? h : FAIL("cvt.%s.%s with this rounding is not supported", ptx_type_name[dt],
                        ptx_type_name[st]);
}

static exec_fn bind_f32(const ptx_insn *in, char *why, size_t n)
{
    const unsigned fl = insn_fl(in);
    const int ftz = (fl & FL_FTZ) != 0, sat = (fl & FL_SAT) != 0;
    const int approx = (in->flags & MF_APPROX) != 0, full = (in->flags & MF_FULL) != 0;
    const int ri = frnd_idx(in->rnd);
    int rop = -1, mop = -1, legacy_mad = 0;
    if (fl & FL_RELU)
        return FAIL("%s.relu.f32 is not supported", opname(in));
    switch (in->op) {
    case OP_ADD: rop = R32_ADD; break;
    case OP_SUB: rop = R32_SUB; break;
    case OP_MUL:
        if (in->sub)
            return FAIL("mul.hi/.lo/.wide are integer forms");
        rop = R32_MUL;
        break;
    case OP_FMA: rop = R32_FMA; break;
    case OP_MAD:
        if (in->sub)
            return FAIL("mad.hi/.lo/.wide are integer forms");
        rop = R32_FMA;
        /* mad.f32 without rounding is legacy sm_1x PTX, which the JIT implements as
         * fma.rn.ftz.f32 (PTX ISA 9.7.3.7). */
        legacy_mad = in->rnd == RND_NONE;
        break;
    case OP_DIV:
        if (approx && full)
            return FAIL("div: .approx and .full are exclusive");
        if (approx || full) {
            if (in->rnd != RND_NONE)
                return FAIL("div.%s takes no rounding modifier", approx ? "approx" : "full");
            mop = approx ? M32_DIVAPX : M32_DIVFULL;
        } else
            rop = R32_DIV;
        break;
    case OP_RCP:
        if (approx)
            mop = M32_RCPAPX;
        else
            rop = R32_RCP;
        break;
    case OP_SQRT:
        if (approx)
            mop = M32_SQRTAPX;
        else
            rop = R32_SQRT;
        break;
    case OP_RSQRT: mop = M32_RSQRT; break;
    case OP_SIN: mop = M32_SIN; break;
    case OP_COS: mop = M32_COS; break;
    case OP_LG2: mop = M32_LG2; break;
    case OP_EX2: mop = M32_EX2; break;
    case OP_TANH: mop = M32_TANH; break;
    case OP_ABS: mop = M32_ABS; break;
    case OP_NEG: mop = M32_NEG; break;
    case OP_MIN:
    case OP_MAX: {
        /* .NaN is sub = 1 (parse.c); three sources is the sm_100 form */
        static const int mm[2][2][2] = { { { M32_MIN, M32_MIN3 }, { M32_MINN, M32_MIN3N } },
                                         { { M32_MAX, M32_MAX3 }, { M32_MAXN, M32_MAX3N } } };
        if (in->sub > 1)
            return FAIL("%s.f32: bad sub-operation", opname(in));
        mop = mm[in->op == OP_MAX][in->sub][in->nops == 4];
        break;
    }
    case OP_COPYSIGN:
        if (ftz)
            return FAIL("copysign takes no .ftz");
        mop = M32_COPYSIGN;
        break;
    default: return FAIL("%s.f32 is not a floating-point instruction", opname(in));
    }
    if (rop >= 0) {
        if (ri < 0)
            return FAIL("%s.f32: rounding must be .rn/.rz/.rm/.rp", opname(in));
        if (approx || full)
            return FAIL("%s.f32: .approx/.full not allowed here", opname(in));
        if (sat && rop > R32_FMA)
            return FAIL("%s.f32 takes no .sat", opname(in));
        if (!operands_ok(in, f32_rnd_ns[rop]))
            return FAIL("%s.f32: bad operands", opname(in));
        return f32_rnd_tab[rop][(ftz | legacy_mad) | (sat << 1)][ri];
    }
    if (in->rnd != RND_NONE)
        return FAIL("%s.f32 takes no rounding modifier", opname(in));
    if (sat)
        return FAIL("%s.f32 takes no .sat", opname(in));
    if (!operands_ok(in, f32_misc_ns[mop]))
        return FAIL("%s.f32: bad operands", opname(in));
    return f32_misc_tab[mop][ftz];
}

static exec_fn bind_f64(const ptx_insn *in, char *why, size_t n)
{
    const int ftz = (in->flags & MF_FTZ) != 0, approx = (in->flags & MF_APPROX) != 0;
    const int ri = frnd_idx(in->rnd);
    int rop = -1, mop = -1;
    if (in->flags & (MF_SAT | MF_RELU | MF_FULL))
        return FAIL("%s.f64 takes no .sat/.relu/.full", opname(in));
    switch (in->op) {
    case OP_ADD: rop = R64_ADD; break;
    case OP_SUB: rop = R64_SUB; break;
    case OP_MUL:
        if (in->sub)
            return FAIL("mul.hi/.lo/.wide are integer forms");
        rop = R64_MUL;
        break;
    case OP_FMA: rop = R64_FMA; break;
    case OP_MAD:
        if (in->sub)
            return FAIL("mad.hi/.lo/.wide are integer forms");
        rop = R64_FMA;
        break;
    case OP_DIV: rop = R64_DIV; break;
    case OP_RCP:
        if (approx) {
            if (!ftz)
                return FAIL("rcp.approx.f64 exists only as rcp.approx.ftz.f64");
            mop = M64_RCPAPXFTZ;
        } else
            rop = R64_RCP;
        break;
    case OP_SQRT: rop = R64_SQRT; break;
    case OP_RSQRT: mop = ftz ? M64_RSQRTFTZ : M64_RSQRT; break;
    case OP_ABS: mop = M64_ABS; break;
    case OP_NEG: mop = M64_NEG; break;
    case OP_MIN:
    case OP_MAX:
        if (in->sub)
            return FAIL("%s.NaN is not defined for .f64", opname(in));
        mop = in->op == OP_MIN ? M64_MIN : M64_MAX;
        break;
    case OP_COPYSIGN: mop = M64_COPYSIGN; break;
    default: return FAIL("%s.f64 is not supported", opname(in));
    }
    if (rop >= 0) {
        if (ri < 0)
            return FAIL("%s.f64: rounding must be .rn/.rz/.rm/.rp", opname(in));
        if (ftz || approx)
            return FAIL("%s.f64 takes no .ftz/.approx", opname(in));
        if (!operands_ok(in, f64_rnd_ns[rop]))
            return FAIL("%s.f64: bad operands", opname(in));
        return f64_rnd_tab[rop][ri];
    }
    if (in->rnd != RND_NONE)
        return FAIL("%s.f64 takes no rounding modifier", opname(in));
    if (ftz && mop != M64_RCPAPXFTZ && mop != M64_RSQRTFTZ)
        return FAIL("%s.f64 takes no .ftz", opname(in));
    if (!operands_ok(in, f64_misc_ns[mop]))
        return FAIL("%s.f64: bad operands", opname(in));
    return f64_misc_tab[mop];
}

static exec_fn bind_half(const ptx_insn *in, char *why, size_t n)
{
    const int t = in->type, bf = t == PT_BF16 || t == PT_BF16X2;
    const unsigned fl = insn_fl(in);
    int op;
    switch (in->op) {
    case OP_ADD: op = AH_ADD; break;
    case OP_SUB: op = AH_SUB; break;
    case OP_MUL: op = AH_MUL; break;
    case OP_FMA: op = AH_FMA; break;
    case OP_NEG: op = AH_NEG; break;
    case OP_ABS: op = AH_ABS; break;
    case OP_MIN: op = in->sub == 1 ? AH_MINN : AH_MIN; break;
    case OP_MAX: op = in->sub == 1 ? AH_MAXN : AH_MAX; break;
    case OP_EX2: op = AH_EX2; break;
    case OP_TANH: op = AH_TANH; break;
    default: return FAIL("%s.%s is not supported", opname(in), ptx_type_name[t]);
    }
    if (in->rnd != RND_NONE && in->rnd != RND_RN)
        return FAIL("%s.%s: only .rn rounding exists", opname(in), ptx_type_name[t]);
    if (in->sub && !(in->sub == 1 && (op == AH_MINN || op == AH_MAXN)))
        return FAIL("%s.%s: bad sub-operation", opname(in), ptx_type_name[t]);
    if ((fl & FL_SAT) && (bf || op > AH_FMA))
        return FAIL("%s.%s takes no .sat", opname(in), ptx_type_name[t]);
    if ((fl & FL_RELU) && op != AH_FMA)
        return FAIL("%s.%s takes no .relu", opname(in), ptx_type_name[t]);
    if ((fl & FL_SAT) && (fl & FL_RELU))
        return FAIL("%s: .sat and .relu are exclusive", opname(in));
    if ((fl & FL_FTZ) && bf && op != AH_EX2)
        return FAIL("%s.%s takes no .ftz", opname(in), ptx_type_name[t]);
    if (!operands_ok(in, h_ns[op]))
        return FAIL("%s.%s: bad operands", opname(in), ptx_type_name[t]);
    int ti = t == PT_F16 ? 0 : t == PT_F16X2 ? 1 : t == PT_BF16 ? 2 : 3;
    int v = fl == 0 ? 0 : fl == FL_FTZ ? 1 : 2;
    return h_tab[op][ti][v];
}

exec_fn exec_bind_float(const ptx_module *m, const ptx_func *f, const ptx_insn *in, char *why,
                        size_t n)
{
    (void)m;
    (void)f;
    if (why && n)
        why[0] = 0;
    char dummy[1];
    if (!why || !n) {
        why = dummy;
        n = sizeof dummy;
    }
    if (in->op == OP_CVT)
        return bind_cvt(in, why, n);
    if (in->op == OP_TESTP) {
        if (in->type != PT_F32 && in->type != PT_F64)
            return FAIL("testp needs .f32 or .f64");
        if (in->sub < TESTP_FINITE || in->sub > TESTP_SUBNORMAL)
            return FAIL("testp: unknown property");
        if (!operands_ok(in, 1))
            return FAIL("testp takes p, a");
        return testp_tab[in->sub - TESTP_FINITE][in->type == PT_F64];
    }
    switch (in->type) {
    case PT_F32: return bind_f32(in, why, n);
    case PT_F64: return bind_f64(in, why, n);
    case PT_F16: case PT_F16X2: case PT_BF16: case PT_BF16X2: return bind_half(in, why, n);
    }
    return FAIL("%s: not a floating-point type", opname(in));
}
