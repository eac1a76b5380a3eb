/* test_exec_float.c - bit-exact checks of the floating-point handlers (exec_float.c).
 *
 * Instructions are built by hand (slot 0 = d, 1..3 = a, b, c), bound with
 * exec_bind_float and run on a 32-lane register file. Every expected value is a bit
 * pattern derived by hand from IEEE 754 and the PTX ISA rules (comments say how).
 */
#include <fenv.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "func/exec.h"

#define WS 32
#define NSLOT 6

typedef struct {
    uint64_t r[NSLOT * WS];
    exec_ctx x;
} rig;

static void rig_init(rig *g, uint64_t mask)
{
    memset(g, 0, sizeof *g);
    g->x.r = (uint32_t *)(void *)g->r;   /* slot s: the 8-byte row 2 s (mk) */
    g->x.b64 = 2 * NSLOT;
    g->x.ws = WS;
    g->x.mask = mask;
}

static uint64_t *slot(rig *g, unsigned s, unsigned lane) { return &g->r[s * WS + lane]; }

static ptx_insn mk(unsigned op, unsigned type, unsigned type2, unsigned rnd, uint32_t flags,
                   int nsrc)
{
    ptx_insn in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.type = (uint8_t)type;
    in.type2 = (uint8_t)type2;
    in.rnd = (uint8_t)rnd;
    in.flags = flags;
    in.vec = 1;
    in.guard = -1;
    in.nops = (uint8_t)(nsrc + 1);
    for (int i = 0; i <= nsrc; i++) {
        in.ops[i].kind = OK_REG;
        in.ops[i].r = 2 * (uint32_t)i;
    }
    return in;
}

static exec_fn bindf(const ptx_insn *in)
{
    char why[200];
    exec_fn f = exec_bind_float(NULL, NULL, in, why, sizeof why);
    if (!f)
        print_error("bind failed: %s\n", why);
    assert_non_null(f);
    return f;
}

/* Runs `in` on lane 5 alone; the destination starts as garbage that must be replaced. */
static uint64_t run_in(const ptx_insn *in, uint64_t a, uint64_t b, uint64_t c)
{
    rig g;
    rig_init(&g, 1ull << 5);
    *slot(&g, 0, 5) = 0xdeadbeefdeadbeefull;
    *slot(&g, 1, 5) = a;
    *slot(&g, 2, 5) = b;
    *slot(&g, 3, 5) = c;
    bindf(in)(&g.x, in);
    return *slot(&g, 0, 5);
}

static uint64_t run(unsigned op, unsigned type, unsigned rnd, uint32_t flags, int nsrc,
                    uint64_t a, uint64_t b, uint64_t c)
{
    ptx_insn in = mk(op, type, PT_NONE, rnd, flags, nsrc);
    return run_in(&in, a, b, c);
}

static uint64_t cvt(unsigned dt, unsigned st, unsigned rnd, uint32_t flags, uint64_t a)
{
    ptx_insn in = mk(OP_CVT, dt, st, rnd, flags, 1);
    return run_in(&in, a, 0, 0);
}

static int rejects(const ptx_insn *in)
{
    char why[200] = "";
    exec_fn f = exec_bind_float(NULL, NULL, in, why, sizeof why);
    return f == NULL && why[0] != 0;
}

#define F1 0x3f800000ull  /* 1.0f */
#define F2 0x40000000ull  /* 2.0f */
#define F3 0x40400000ull  /* 3.0f */
#define FM1 0xbf800000ull /* -1.0f */
#define FINF 0x7f800000ull
#define FNINF 0xff800000ull
#define FNAN 0x7fc00000ull
#define CNAN 0x7fffffffull
#define D1 0x3ff0000000000000ull
#define D3 0x4008000000000000ull

/* ---- f32 arithmetic and rounding ---------------------------------------------------- */

static void test_f32_div_rounding(void **st)
{
    (void)st;
    /* 1/3 = 1.0101...b x 2^-2: the 24-bit significand is followed by 1010..., more
     * than half an ulp, so rn and rp round up, rz and rm truncate. */
    assert_int_equal(run(OP_DIV, PT_F32, RND_RN, 0, 2, F1, F3, 0), 0x3eaaaaab);
    assert_int_equal(run(OP_DIV, PT_F32, RND_RZ, 0, 2, F1, F3, 0), 0x3eaaaaaa);
    assert_int_equal(run(OP_DIV, PT_F32, RND_RM, 0, 2, F1, F3, 0), 0x3eaaaaaa);
    assert_int_equal(run(OP_DIV, PT_F32, RND_RP, 0, 2, F1, F3, 0), 0x3eaaaaab);
    /* -1/3: rm moves away from zero, rp toward it. */
    assert_int_equal(run(OP_DIV, PT_F32, RND_RM, 0, 2, FM1, F3, 0), 0xbeaaaaab);
    assert_int_equal(run(OP_DIV, PT_F32, RND_RP, 0, 2, FM1, F3, 0), 0xbeaaaaaa);
    assert_int_equal(run(OP_DIV, PT_F32, RND_RZ, 0, 2, FM1, F3, 0), 0xbeaaaaaa);
    /* rcp is 1/a with the same rounding. */
    assert_int_equal(run(OP_RCP, PT_F32, RND_RN, 0, 1, F3, 0, 0), 0x3eaaaaab);
    assert_int_equal(run(OP_RCP, PT_F32, RND_RZ, 0, 1, F3, 0, 0), 0x3eaaaaaa);
    assert_int_equal(run(OP_RCP, PT_F32, RND_RP, 0, 1, F3, 0, 0), 0x3eaaaaab);
    /* The host rounding mode is restored after a directed-rounding handler. */
    assert_int_equal(fegetround(), FE_TONEAREST);
}

static void test_f32_add_mul_rounding(void **st)
{
    (void)st;
    /* 1 + 2^-24 is exactly halfway between 1 and 1+2^-23: rn -> even (1.0). */
    const uint64_t e24 = 0x33800000; /* 2^-24 */
    assert_int_equal(run(OP_ADD, PT_F32, RND_NONE, 0, 2, F1, e24, 0), F1);
    assert_int_equal(run(OP_ADD, PT_F32, RND_RZ, 0, 2, F1, e24, 0), F1);
    assert_int_equal(run(OP_ADD, PT_F32, RND_RM, 0, 2, F1, e24, 0), F1);
    assert_int_equal(run(OP_ADD, PT_F32, RND_RP, 0, 2, F1, e24, 0), 0x3f800001);
    /* -1 - 2^-24: rm away from zero. */
    assert_int_equal(run(OP_SUB, PT_F32, RND_RM, 0, 2, FM1, e24, 0), 0xbf800001);
    assert_int_equal(run(OP_SUB, PT_F32, RND_RP, 0, 2, FM1, e24, 0), FM1);
    /* (1+2^-23)^2 = 1 + 2^-22 + 2^-46: only rp sees the 2^-46. */
    const uint64_t a = 0x3f800001;
    assert_int_equal(run(OP_MUL, PT_F32, RND_RN, 0, 2, a, a, 0), 0x3f800002);
    assert_int_equal(run(OP_MUL, PT_F32, RND_RZ, 0, 2, a, a, 0), 0x3f800002);
    assert_int_equal(run(OP_MUL, PT_F32, RND_RM, 0, 2, a, a, 0), 0x3f800002);
    assert_int_equal(run(OP_MUL, PT_F32, RND_RP, 0, 2, a, a, 0), 0x3f800003);
    /* Overflow: max*2 is +inf in rn/rp, max in rz/rm. */
    const uint64_t mx = 0x7f7fffff;
    assert_int_equal(run(OP_MUL, PT_F32, RND_RN, 0, 2, mx, F2, 0), FINF);
    assert_int_equal(run(OP_MUL, PT_F32, RND_RZ, 0, 2, mx, F2, 0), mx);
    assert_int_equal(run(OP_MUL, PT_F32, RND_RM, 0, 2, mx, F2, 0), mx);
    assert_int_equal(run(OP_MUL, PT_F32, RND_RP, 0, 2, mx, F2, 0), FINF);
    /* sqrt(2): 0x3fb504f3^2 < 2 < 0x3fb504f4^2 and 0x3fb504f3 is the nearer. */
    assert_int_equal(run(OP_SQRT, PT_F32, RND_RN, 0, 1, F2, 0, 0), 0x3fb504f3);
    assert_int_equal(run(OP_SQRT, PT_F32, RND_RZ, 0, 1, F2, 0, 0), 0x3fb504f3);
    assert_int_equal(run(OP_SQRT, PT_F32, RND_RP, 0, 1, F2, 0, 0), 0x3fb504f4);
    /* NaN results are the canonical NaN, even from a NaN with a payload. */
    assert_int_equal(run(OP_ADD, PT_F32, RND_RN, 0, 2, 0x7fc00123, F1, 0), CNAN);
    assert_int_equal(run(OP_ADD, PT_F32, RND_RN, 0, 2, FINF, FNINF, 0), CNAN);
    assert_int_equal(fegetround(), FE_TONEAREST);
}

static void test_f32_fma(void **st)
{
    (void)st;
    /* a = b = 1+2^-12: a*b = 1 + 2^-11 + 2^-24; c = -(1+2^-11). Fused: exactly 2^-24.
     * Unfused, a*b would round (tie, even) to 1+2^-11 and the sum would be 0. */
    const uint64_t a = 0x3f800800, c = 0xbf801000;
    assert_int_equal(run(OP_FMA, PT_F32, RND_RN, 0, 3, a, a, c), 0x33800000);
    assert_int_equal(run(OP_MAD, PT_F32, RND_RN, 0, 3, a, a, c), 0x33800000);
    /* fma(1, 1, 2^-30): 1 + 2^-30 only shows under rp. */
    const uint64_t e30 = 0x30800000;
    assert_int_equal(run(OP_FMA, PT_F32, RND_RN, 0, 3, F1, F1, e30), F1);
    assert_int_equal(run(OP_FMA, PT_F32, RND_RZ, 0, 3, F1, F1, e30), F1);
    assert_int_equal(run(OP_FMA, PT_F32, RND_RM, 0, 3, F1, F1, e30), F1);
    assert_int_equal(run(OP_FMA, PT_F32, RND_RP, 0, 3, F1, F1, e30), 0x3f800001);
    /* fma(1, 1, -2^-30) = 1 - 2^-30: rn -> 1, rz/rm -> 1 - 2^-24 (0x3f7fffff). */
    assert_int_equal(run(OP_FMA, PT_F32, RND_RN, 0, 3, F1, F1, e30 | 0x80000000), F1);
    assert_int_equal(run(OP_FMA, PT_F32, RND_RZ, 0, 3, F1, F1, e30 | 0x80000000), 0x3f7fffff);
    assert_int_equal(run(OP_FMA, PT_F32, RND_RM, 0, 3, F1, F1, e30 | 0x80000000), 0x3f7fffff);
    assert_int_equal(run(OP_FMA, PT_F32, RND_RP, 0, 3, F1, F1, e30 | 0x80000000), F1);
    /* Legacy mad.f32 (no rounding) is fma.rn.ftz.f32: fused, and a subnormal c is
     * flushed (1*1 + 2^-149 = 1 either way, but 2^-126*0.5 + 0 flushes the result). */
    assert_int_equal(run(OP_MAD, PT_F32, RND_NONE, 0, 3, a, a, c), 0x33800000);
    assert_int_equal(run(OP_MAD, PT_F32, RND_NONE, 0, 3, 0x00800000, 0x3f000000, 0), 0);
    assert_int_equal(run(OP_MAD, PT_F32, RND_RN, 0, 3, 0x00800000, 0x3f000000, 0), 0x00400000);
    assert_int_equal(fegetround(), FE_TONEAREST);
}

static void test_f64_rounding(void **st)
{
    (void)st;
    /* 0.1 = 0x3fb999999999999a in rn (rounded up); truncation gives ...999. */
    const uint64_t d10 = 0x4024000000000000; /* 10.0 */
    assert_int_equal(run(OP_DIV, PT_F64, RND_RN, 0, 2, D1, d10, 0), 0x3fb999999999999aull);
    assert_int_equal(run(OP_DIV, PT_F64, RND_RZ, 0, 2, D1, d10, 0), 0x3fb9999999999999ull);
    assert_int_equal(run(OP_DIV, PT_F64, RND_RM, 0, 2, D1, d10, 0), 0x3fb9999999999999ull);
    assert_int_equal(run(OP_DIV, PT_F64, RND_RP, 0, 2, D1, d10, 0), 0x3fb999999999999aull);
    assert_int_equal(run(OP_RCP, PT_F64, RND_RZ, 0, 1, d10, 0, 0), 0x3fb9999999999999ull);
    /* 1 + 2^-53 is the tie between 1 and 1+2^-52. */
    const uint64_t e53 = 0x3ca0000000000000;
    assert_int_equal(run(OP_ADD, PT_F64, RND_RN, 0, 2, D1, e53, 0), D1);
    assert_int_equal(run(OP_ADD, PT_F64, RND_RP, 0, 2, D1, e53, 0), D1 + 1);
    assert_int_equal(run(OP_ADD, PT_F64, RND_RM, 0, 2, D1 | (1ull << 63), e53 | (1ull << 63), 0),
                     (D1 + 1) | (1ull << 63));
    /* sqrt(2): rn gives 0x3ff6a09e667f3bcd, whose square exceeds 2. */
    const uint64_t d2 = 0x4000000000000000;
    assert_int_equal(run(OP_SQRT, PT_F64, RND_RN, 0, 1, d2, 0, 0), 0x3ff6a09e667f3bcdull);
    assert_int_equal(run(OP_SQRT, PT_F64, RND_RZ, 0, 1, d2, 0, 0), 0x3ff6a09e667f3bccull);
    assert_int_equal(run(OP_SQRT, PT_F64, RND_RM, 0, 1, d2, 0, 0), 0x3ff6a09e667f3bccull);
    assert_int_equal(run(OP_SQRT, PT_F64, RND_RP, 0, 1, d2, 0, 0), 0x3ff6a09e667f3bcdull);
    /* fma.rp(1, 1, 2^-60) -> 1 + 2^-52. */
    assert_int_equal(run(OP_FMA, PT_F64, RND_RP, 0, 3, D1, D1, 0x3c30000000000000ull), D1 + 1);
    assert_int_equal(run(OP_FMA, PT_F64, RND_RN, 0, 3, D1, D1, 0x3c30000000000000ull), D1);
    /* Division by zero gives infinities, not traps. */
    assert_int_equal(run(OP_DIV, PT_F64, RND_RN, 0, 2, D1, 1ull << 63, 0), 0xfff0000000000000ull);
    assert_int_equal(fegetround(), FE_TONEAREST);
}

static void test_div_variants(void **st)
{
    (void)st;
    /* 3/7: correctly rounded 0x3edb6db7, but 3 * rn(1/7) rounds to 0x3edb6db8. */
    assert_int_equal(run(OP_DIV, PT_F32, RND_RN, 0, 2, F3, 0x40e00000, 0), 0x3edb6db7);
    assert_int_equal(run(OP_DIV, PT_F32, RND_NONE, MF_FULL, 2, F3, 0x40e00000, 0), 0x3edb6db7);
    assert_int_equal(run(OP_DIV, PT_F32, RND_NONE, MF_APPROX, 2, F3, 0x40e00000, 0), 0x3edb6db8);
    /* div.approx with 2^126 < |b|: the reciprocal is flushed, giving a signed zero, or
     * NaN for an infinite a (PTX ISA div notes). div.rn gives the subnormal 2^-127. */
    const uint64_t p127 = 0x7f000000;
    assert_int_equal(run(OP_DIV, PT_F32, RND_NONE, MF_APPROX, 2, F1, p127, 0), 0);
    assert_int_equal(run(OP_DIV, PT_F32, RND_NONE, MF_APPROX, 2, FM1, p127, 0), 0x80000000);
    assert_int_equal(run(OP_DIV, PT_F32, RND_NONE, MF_APPROX, 2, FINF, p127, 0), CNAN);
    assert_int_equal(run(OP_DIV, PT_F32, RND_RN, 0, 2, F1, p127, 0), 0x00400000);
    /* Division by zero. */
    assert_int_equal(run(OP_DIV, PT_F32, RND_RN, 0, 2, F1, 0, 0), FINF);
    assert_int_equal(run(OP_DIV, PT_F32, RND_RN, 0, 2, FM1, 0, 0), FNINF);
    assert_int_equal(run(OP_DIV, PT_F32, RND_RN, 0, 2, F1, 0x80000000, 0), FNINF);
    assert_int_equal(run(OP_DIV, PT_F32, RND_RN, 0, 2, 0, 0, 0), CNAN);
    assert_int_equal(run(OP_DIV, PT_F32, RND_NONE, MF_APPROX, 2, F1, 0, 0), FINF);
    assert_int_equal(run(OP_RCP, PT_F32, RND_RN, 0, 1, 0x80000000, 0, 0), FNINF);
    assert_int_equal(run(OP_RCP, PT_F32, RND_NONE, MF_APPROX, 1, FINF, 0, 0), 0);
}

static void test_ftz_sat(void **st)
{
    (void)st;
    /* 2^-149 + 2^-149: 2^-148 normally; inputs flushed to +0 under .ftz. */
    assert_int_equal(run(OP_ADD, PT_F32, RND_NONE, 0, 2, 1, 1, 0), 2);
    assert_int_equal(run(OP_ADD, PT_F32, RND_NONE, MF_FTZ, 2, 1, 1, 0), 0);
    /* 2^-100 * 2^-30 = 2^-130 (subnormal 2^19 * 2^-149); .ftz flushes the result, keeping
     * the sign. */
    const uint64_t m100 = 0x0d800000, m30 = 0x30800000;
    assert_int_equal(run(OP_MUL, PT_F32, RND_NONE, 0, 2, m100, m30, 0), 0x00080000);
    assert_int_equal(run(OP_MUL, PT_F32, RND_NONE, MF_FTZ, 2, m100, m30, 0), 0);
    assert_int_equal(run(OP_MUL, PT_F32, RND_NONE, MF_FTZ, 2, m100 | 0x80000000, m30, 0),
                     0x80000000);
    assert_int_equal(run(OP_MUL, PT_F32, RND_RZ, MF_FTZ, 2, m100 | 0x80000000, m30, 0),
                     0x80000000);
    /* neg/abs .ftz: a subnormal becomes a (negated / positive) zero. */
    assert_int_equal(run(OP_NEG, PT_F32, RND_NONE, MF_FTZ, 1, 0x00000005, 0, 0), 0x80000000);
    assert_int_equal(run(OP_ABS, PT_F32, RND_NONE, MF_FTZ, 1, 0x80000005, 0, 0), 0);
    assert_int_equal(run(OP_NEG, PT_F32, RND_NONE, 0, 1, 0x00000005, 0, 0), 0x80000005);
    /* .sat clamps to [0, 1]; NaN -> +0. */
    assert_int_equal(run(OP_ADD, PT_F32, RND_NONE, MF_SAT, 2, 0x3f400000, 0x3f000000, 0), F1);
    assert_int_equal(run(OP_ADD, PT_F32, RND_NONE, MF_SAT, 2, FM1, 0x3f000000, 0), 0);
    assert_int_equal(run(OP_ADD, PT_F32, RND_NONE, MF_SAT, 2, FINF, FNINF, 0), 0);
    assert_int_equal(run(OP_MUL, PT_F32, RND_NONE, MF_SAT, 2, 0x3f000000, 0x3f000000, 0),
                     0x3e800000);
    assert_int_equal(run(OP_FMA, PT_F32, RND_RN, MF_SAT | MF_FTZ, 3, F2, F2, FM1), F1);
}

static void test_minmax_sign(void **st)
{
    (void)st;
    /* A NaN operand yields the other one; two NaNs the canonical NaN; -0 < +0. */
    assert_int_equal(run(OP_MIN, PT_F32, RND_NONE, 0, 2, FNAN, F1, 0), F1);
    assert_int_equal(run(OP_MIN, PT_F32, RND_NONE, 0, 2, F1, FNAN, 0), F1);
    assert_int_equal(run(OP_MAX, PT_F32, RND_NONE, 0, 2, FNAN, FM1, 0), FM1);
    assert_int_equal(run(OP_MIN, PT_F32, RND_NONE, 0, 2, FNAN, 0xffc00001, 0), CNAN);
    assert_int_equal(run(OP_MIN, PT_F32, RND_NONE, 0, 2, 0, 0x80000000, 0), 0x80000000);
    assert_int_equal(run(OP_MIN, PT_F32, RND_NONE, 0, 2, 0x80000000, 0, 0), 0x80000000);
    assert_int_equal(run(OP_MAX, PT_F32, RND_NONE, 0, 2, 0x80000000, 0, 0), 0);
    assert_int_equal(run(OP_MAX, PT_F32, RND_NONE, 0, 2, 0, 0x80000000, 0), 0);
    assert_int_equal(run(OP_MAX, PT_F32, RND_NONE, 0, 2, F2, F3, 0), F3);
    /* .ftz: subnormals compare as zeros (2^-149 vs -2^-149 -> -0 for min). */
    assert_int_equal(run(OP_MIN, PT_F32, RND_NONE, MF_FTZ, 2, 1, 0x80000001, 0), 0x80000000);
    assert_int_equal(run(OP_MIN, PT_F32, RND_NONE, 0, 2, 1, 0x80000001, 0), 0x80000001);
    /* three inputs */
    assert_int_equal(run(OP_MIN, PT_F32, RND_NONE, 0, 3, F2, F3, FM1), FM1);
    assert_int_equal(run(OP_MAX, PT_F32, RND_NONE, 0, 3, F2, FNAN, F1), F2);
    /* .NaN (sub = 1): any NaN operand gives the canonical NaN. */
    ptx_insn in = mk(OP_MIN, PT_F32, PT_NONE, RND_NONE, 0, 2);
    in.sub = 1;
    assert_int_equal(run_in(&in, FNAN, F1, 0), CNAN);
    assert_int_equal(run_in(&in, F1, 0xffc00001, 0), CNAN);
    assert_int_equal(run_in(&in, F1, F2, 0), F1);
    in = mk(OP_MAX, PT_F32, PT_NONE, RND_NONE, 0, 3);
    in.sub = 1;
    assert_int_equal(run_in(&in, F1, F2, FNAN), CNAN);
    assert_int_equal(run_in(&in, F1, F3, F2), F3);
    in = mk(OP_MAX, PT_F16X2, PT_NONE, RND_NONE, 0, 2);
    in.sub = 1;
    assert_int_equal(run_in(&in, 0x7e003c00, 0x3c004000, 0), 0x7fff4000);
    in = mk(OP_MIN, PT_F64, PT_NONE, RND_NONE, 0, 2);
    in.sub = 1;
    assert_true(rejects(&in)); /* min.NaN exists for f32 and halves only */
    /* f64 */
    assert_int_equal(run(OP_MIN, PT_F64, RND_NONE, 0, 2, 0x7ff8000000000000ull, D3, 0), D3);
    assert_int_equal(run(OP_MAX, PT_F64, RND_NONE, 0, 2, 1ull << 63, 0, 0), 0);
    assert_int_equal(run(OP_MIN, PT_F64, RND_NONE, 0, 2, 0, 1ull << 63, 0), 1ull << 63);
    /* abs/neg only touch the sign bit, NaN payload included. */
    assert_int_equal(run(OP_NEG, PT_F32, RND_NONE, 0, 1, 0x7fc00001, 0, 0), 0xffc00001);
    assert_int_equal(run(OP_ABS, PT_F32, RND_NONE, 0, 1, 0xffc00001, 0, 0), 0x7fc00001);
    assert_int_equal(run(OP_ABS, PT_F64, RND_NONE, 0, 1, 0xfff8000000000123ull, 0, 0),
                     0x7ff8000000000123ull);
    assert_int_equal(run(OP_NEG, PT_F64, RND_NONE, 0, 1, D1, 0, 0), D1 | (1ull << 63));
    /* copysign d, a, b: the sign of a on the magnitude of b. */
    assert_int_equal(run(OP_COPYSIGN, PT_F32, RND_NONE, 0, 2, FM1, F2, 0), 0xc0000000);
    assert_int_equal(run(OP_COPYSIGN, PT_F32, RND_NONE, 0, 2, F1, 0xc0000000, 0), F2);
    assert_int_equal(run(OP_COPYSIGN, PT_F64, RND_NONE, 0, 2, 1ull << 63, D3, 0),
                     D3 | (1ull << 63));
}

static void test_testp(void **st)
{
    (void)st;
    /* rows: value; columns: finite infinite number notanumber normal subnormal.
     * Zero counts as normal (PTX ISA testp). */
    static const struct { uint64_t v; int is64; uint8_t expect[6]; } t[] = {
        { F1, 0, { 1, 0, 1, 0, 1, 0 } },
        { 0x80000000, 0, { 1, 0, 1, 0, 1, 0 } },
        { 0x00000001, 0, { 1, 0, 1, 0, 0, 1 } },
        { FNINF, 0, { 0, 1, 1, 0, 0, 0 } },
        { 0xffc00000, 0, { 0, 0, 0, 1, 0, 0 } },
        { 0x000fffffffffffffull, 1, { 1, 0, 1, 0, 0, 1 } },
        { 0x7ff0000000000000ull, 1, { 0, 1, 1, 0, 0, 0 } },
        { 0x7ff0000000000001ull, 1, { 0, 0, 0, 1, 0, 0 } },
        { D3, 1, { 1, 0, 1, 0, 1, 0 } },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        for (int s = 0; s < 6; s++) {
            ptx_insn in = mk(OP_TESTP, t[i].is64 ? PT_F64 : PT_F32, PT_NONE, RND_NONE, 0, 1);
            in.sub = (uint8_t)(TESTP_FINITE + s);
            assert_int_equal(run_in(&in, t[i].v, 0, 0), t[i].expect[s]);
        }
}

static void test_sfu(void **st)
{
    (void)st;
    const uint32_t ap = MF_APPROX;
    /* lg2: +-0 -> -inf, negative -> NaN, 8 -> 3. */
    assert_int_equal(run(OP_LG2, PT_F32, RND_NONE, ap, 1, 0, 0, 0), FNINF);
    assert_int_equal(run(OP_LG2, PT_F32, RND_NONE, ap, 1, 0x80000000, 0, 0), FNINF);
    assert_int_equal(run(OP_LG2, PT_F32, RND_NONE, ap, 1, FM1, 0, 0), CNAN);
    assert_int_equal(run(OP_LG2, PT_F32, RND_NONE, ap, 1, 0x41000000, 0, 0), F3);
    /* lg2.ftz of a subnormal: flushed to zero first -> -inf. */
    assert_int_equal(run(OP_LG2, PT_F32, RND_NONE, ap | MF_FTZ, 1, 1, 0, 0), FNINF);
    /* ex2: -inf -> +0, 0 -> 1; 2^-130 is subnormal, flushed by .ftz. */
    assert_int_equal(run(OP_EX2, PT_F32, RND_NONE, ap, 1, FNINF, 0, 0), 0);
    assert_int_equal(run(OP_EX2, PT_F32, RND_NONE, ap, 1, 0x80000000, 0, 0), F1);
    assert_int_equal(run(OP_EX2, PT_F32, RND_NONE, ap, 1, 0xc3020000, 0, 0), 0x00080000);
    assert_int_equal(run(OP_EX2, PT_F32, RND_NONE, ap | MF_FTZ, 1, 0xc3020000, 0, 0), 0);
    /* sin/cos/tanh corner cases of the PTX tables. */
    assert_int_equal(run(OP_SIN, PT_F32, RND_NONE, ap, 1, 0x80000000, 0, 0), 0x80000000);
    assert_int_equal(run(OP_SIN, PT_F32, RND_NONE, ap, 1, FINF, 0, 0), CNAN);
    assert_int_equal(run(OP_COS, PT_F32, RND_NONE, ap, 1, 0x80000000, 0, 0), F1);
    assert_int_equal(run(OP_TANH, PT_F32, RND_NONE, ap, 1, FNINF, 0, 0), FM1);
    assert_int_equal(run(OP_TANH, PT_F32, RND_NONE, ap, 1, 0x80000000, 0, 0), 0x80000000);
    /* sqrt/rsqrt approx corner cases. */
    assert_int_equal(run(OP_SQRT, PT_F32, RND_NONE, ap, 1, 0x80000000, 0, 0), 0x80000000);
    assert_int_equal(run(OP_SQRT, PT_F32, RND_NONE, ap, 1, FM1, 0, 0), CNAN);
    assert_int_equal(run(OP_RSQRT, PT_F32, RND_NONE, ap, 1, 0x40800000, 0, 0), 0x3f000000);
    assert_int_equal(run(OP_RSQRT, PT_F32, RND_NONE, ap, 1, 0x80000000, 0, 0), FNINF);
    assert_int_equal(run(OP_RSQRT, PT_F32, RND_NONE, ap, 1, FINF, 0, 0), 0);
    assert_int_equal(run(OP_RSQRT, PT_F64, RND_NONE, ap, 1, 0x4010000000000000ull, 0, 0),
                     0x3fe0000000000000ull);
}

static void test_f64_approx_ftz(void **st)
{
    (void)st;
    const uint32_t af = MF_APPROX | MF_FTZ;
    /* Only the upper word of a is used and the lower word of d is cleared:
     * 1/3 = 0x3fd5555555555555 -> 0x3fd5555500000000. */
    assert_int_equal(run(OP_RCP, PT_F64, RND_NONE, af, 1, D3, 0, 0), 0x3fd5555500000000ull);
    /* Low word of a ignored: 3 + tiny is treated as 3. */
    assert_int_equal(run(OP_RCP, PT_F64, RND_NONE, af, 1, D3 | 0xffff, 0, 0), 0x3fd5555500000000ull);
    assert_int_equal(run(OP_RCP, PT_F64, RND_NONE, af, 1, 0x7ff8000000000001ull, 0, 0),
                     0x7fffffff00000000ull);
    /* -subnormal -> -inf; +inf -> +0. */
    assert_int_equal(run(OP_RCP, PT_F64, RND_NONE, af, 1, 0x8000000000000001ull, 0, 0),
                     0xfff0000000000000ull);
    assert_int_equal(run(OP_RCP, PT_F64, RND_NONE, af, 1, 0x7ff0000000000000ull, 0, 0), 0);
    /* rsqrt.approx.ftz.f64: 1/sqrt(4) = 0.5; -inf -> canonical NaN. */
    assert_int_equal(run(OP_RSQRT, PT_F64, RND_NONE, af, 1, 0x4010000000000000ull, 0, 0),
                     0x3fe0000000000000ull);
    assert_int_equal(run(OP_RSQRT, PT_F64, RND_NONE, af, 1, 0xfff0000000000000ull, 0, 0),
                     0x7fffffff00000000ull);
}

/* ---- cvt ---------------------------------------------------------------------------- */

static void test_cvt_int_to_float(void **st)
{
    (void)st;
    /* 2^24+1 = 16777217 lies halfway between 2^24 (0x4b800000) and 2^24+2. */
    const uint64_t p24 = 16777217;
    assert_int_equal(cvt(PT_F32, PT_S32, RND_RN, 0, p24), 0x4b800000);
    assert_int_equal(cvt(PT_F32, PT_S32, RND_RZ, 0, p24), 0x4b800000);
    assert_int_equal(cvt(PT_F32, PT_S32, RND_RM, 0, p24), 0x4b800000);
    assert_int_equal(cvt(PT_F32, PT_S32, RND_RP, 0, p24), 0x4b800001);
    assert_int_equal(cvt(PT_F32, PT_U32, RND_RP, 0, p24), 0x4b800001);
    /* 2^24+3: tie between 2^24+2 (odd significand) and 2^24+4 -> even one. */
    assert_int_equal(cvt(PT_F32, PT_U32, RND_RN, 0, 16777219), 0x4b800002);
    assert_int_equal(cvt(PT_F32, PT_U32, RND_RZ, 0, 16777219), 0x4b800001);
    /* -(2^24+1) as s32 and s64: rm away from zero. */
    const uint64_t n24 = (uint64_t)-16777217ll;
    assert_int_equal(cvt(PT_F32, PT_S32, RND_RN, 0, n24 & 0xffffffff), 0xcb800000);
    assert_int_equal(cvt(PT_F32, PT_S32, RND_RM, 0, n24 & 0xffffffff), 0xcb800001);
    assert_int_equal(cvt(PT_F32, PT_S64, RND_RM, 0, n24), 0xcb800001);
    assert_int_equal(cvt(PT_F32, PT_S64, RND_RP, 0, n24), 0xcb800000);
    /* The same bits as u32 are 0xfeffffff: 32 significant bits, so the f32 ulp is 2^8
     * and the dropped 0xff is above half: rn gives 0xff000000 (0x4f7f0000), rz
     * 0xfeffff00 (0x4f7effff). */
    assert_int_equal(cvt(PT_F32, PT_U32, RND_RN, 0, n24 & 0xffffffff), 0x4f7f0000);
    assert_int_equal(cvt(PT_F32, PT_U32, RND_RZ, 0, n24 & 0xffffffff), 0x4f7effff);
    /* rz.f32.s64 of 2^53+1 (an nvcc idiom): 2^53 */
    assert_int_equal(cvt(PT_F32, PT_S64, RND_RZ, 0, (1ull << 53) + 1), 0x5a000000);
    assert_int_equal(cvt(PT_F32, PT_S64, RND_RP, 0, (1ull << 53) + 1), 0x5a000001);
    /* f64 from 2^53+1: tie, rn -> 2^53, rp -> 2^53+2. */
    const uint64_t p53 = (1ull << 53) + 1;
    assert_int_equal(cvt(PT_F64, PT_S64, RND_RN, 0, p53), 0x4340000000000000ull);
    assert_int_equal(cvt(PT_F64, PT_S64, RND_RZ, 0, p53), 0x4340000000000000ull);
    assert_int_equal(cvt(PT_F64, PT_S64, RND_RM, 0, p53), 0x4340000000000000ull);
    assert_int_equal(cvt(PT_F64, PT_S64, RND_RP, 0, p53), 0x4340000000000001ull);
    assert_int_equal(cvt(PT_F64, PT_U64, RND_RP, 0, p53), 0x4340000000000001ull);
    /* u64 max: rn/rp -> 2^64, rz/rm -> largest below. */
    assert_int_equal(cvt(PT_F32, PT_U64, RND_RN, 0, ~0ull), 0x5f800000);
    assert_int_equal(cvt(PT_F32, PT_U64, RND_RZ, 0, ~0ull), 0x5f7fffff);
    assert_int_equal(cvt(PT_F64, PT_U64, RND_RN, 0, ~0ull), 0x43f0000000000000ull);
    assert_int_equal(cvt(PT_F64, PT_U64, RND_RM, 0, ~0ull), 0x43efffffffffffffull);
    /* INT64_MIN is exact: -2^63. */
    assert_int_equal(cvt(PT_F32, PT_S64, RND_RZ, 0, 1ull << 63), 0xdf000000);
    /* s16 source: only the low 16 bits count, sign-extended (0xffff -> -1). */
    assert_int_equal(cvt(PT_F32, PT_S16, RND_RN, 0, 0x1234ffff), 0xbf800000);
    assert_int_equal(cvt(PT_F32, PT_U16, RND_RN, 0, 0x1234ffff), 0x477fff00);
    /* To f16: 2049 is the tie between 2048 and 2050. 65520 is the tie between 65504
     * (max, odd) and 2^16 (overflow) -> inf under rn; rz keeps max. */
    assert_int_equal(cvt(PT_F16, PT_S32, RND_RN, 0, 2049), 0x6800);
    assert_int_equal(cvt(PT_F16, PT_S32, RND_RP, 0, 2049), 0x6801);
    assert_int_equal(cvt(PT_F16, PT_U32, RND_RN, 0, 65520), 0x7c00);
    assert_int_equal(cvt(PT_F16, PT_U32, RND_RZ, 0, 100000), 0x7bff);
    assert_int_equal(cvt(PT_F16, PT_S32, RND_RM, 0, (uint64_t)-100000 & 0xffffffff), 0xfc00);
    /* To bf16: 257 ties between 256 and 258 -> 256 (0x4380); rp -> 258 (0x4381). */
    assert_int_equal(cvt(PT_BF16, PT_S32, RND_RN, 0, 257), 0x4380);
    assert_int_equal(cvt(PT_BF16, PT_S32, RND_RP, 0, 257), 0x4381);
}

static void test_cvt_float_to_int(void **st)
{
    (void)st;
    const uint64_t f3e9 = 0x4f32d05e; /* 3e9f */
    /* Out of range saturates; NaN gives 0 for 32-bit destinations from f32. */
    assert_int_equal(cvt(PT_S32, PT_F32, RND_RZI, 0, f3e9), 0x7fffffff);
    assert_int_equal(cvt(PT_S32, PT_F32, RND_RZI, 0, f3e9 | 0x80000000), 0x80000000);
    assert_int_equal(cvt(PT_U32, PT_F32, RND_RZI, 0, f3e9), 3000000000u);
    assert_int_equal(cvt(PT_U32, PT_F32, RND_RZI, 0, 0xbfc00000), 0); /* -1.5 */
    assert_int_equal(cvt(PT_S32, PT_F32, RND_RZI, 0, FNAN), 0);
    assert_int_equal(cvt(PT_S32, PT_F32, RND_RZI, 0, FINF), 0x7fffffff);
    assert_int_equal(cvt(PT_U16, PT_F32, RND_RZI, 0, 0x4788b800), 0xffff); /* 70000 */
    assert_int_equal(cvt(PT_S8, PT_F32, RND_RZI, 0, 0xc3480000), 0x80);    /* -200 -> -128 */
    assert_int_equal(cvt(PT_S8, PT_F32, RND_RZI, 0, 0xc2f60000), 0x85);    /* -123 */
    /* NaN: 1 << (bits-1) for an f64 source or a 64-bit destination (PTX ISA cvt). */
    assert_int_equal(cvt(PT_S64, PT_F32, RND_RZI, 0, FNAN), 0x8000000000000000ull);
    assert_int_equal(cvt(PT_U64, PT_F32, RND_RNI, 0, FNAN), 0x8000000000000000ull);
    assert_int_equal(cvt(PT_S32, PT_F64, RND_RZI, 0, 0x7ff8000000000000ull), 0x80000000);
    assert_int_equal(cvt(PT_U32, PT_F64, RND_RZI, 0, 0x7ff8000000000000ull), 0x80000000);
    assert_int_equal(cvt(PT_S16, PT_F16, RND_RZI, 0, 0x7e00), 0);
    /* 64-bit saturation. */
    assert_int_equal(cvt(PT_U64, PT_F64, RND_RZI, 0, 0x43f0000000000000ull), ~0ull); /* 2^64 */
    assert_int_equal(cvt(PT_U64, PT_F64, RND_RZI, 0, 0x43ef399b1438a100ull),
                     18000000000000000000ull);
    assert_int_equal(cvt(PT_S64, PT_F64, RND_RZI, 0, 0x43e0000000000000ull), 0x7fffffffffffffffull);
    assert_int_equal(cvt(PT_S64, PT_F64, RND_RZI, 0, 0xfff0000000000000ull), 0x8000000000000000ull);
    assert_int_equal(cvt(PT_S64, PT_F64, RND_RZI, 0, 0xc3e0000000000000ull), 0x8000000000000000ull);
    /* Rounding modes: .rni ties to even. */
    assert_int_equal(cvt(PT_S32, PT_F32, RND_RNI, 0, 0x40200000), 2);                /* 2.5 */
    assert_int_equal(cvt(PT_S32, PT_F32, RND_RNI, 0, 0x40600000), 4);                /* 3.5 */
    assert_int_equal(cvt(PT_S32, PT_F32, RND_RNI, 0, 0xc0200000), 0xfffffffe);       /* -2.5 */
    assert_int_equal(cvt(PT_S32, PT_F32, RND_RMI, 0, 0xc0200000), 0xfffffffd);       /* -3 */
    assert_int_equal(cvt(PT_S32, PT_F32, RND_RPI, 0, 0x40066666), 3);                /* 2.1 */
    assert_int_equal(cvt(PT_S32, PT_F32, RND_RZI, 0, 0xc0066666), 0xfffffffe);       /* -2.1 */
    assert_int_equal(cvt(PT_U32, PT_F32, RND_RNI, 0, 0xbf000000), 0);                /* -0.5 */
    /* .ftz: a positive subnormal rounds up to 1 under .rpi, but is 0 when flushed. */
    assert_int_equal(cvt(PT_S32, PT_F32, RND_RPI, 0, 1), 1);
    assert_int_equal(cvt(PT_S32, PT_F32, RND_RPI, MF_FTZ, 1), 0);
    /* From f16 and bf16. */
    assert_int_equal(cvt(PT_S32, PT_F16, RND_RNI, 0, 0x4100), 2);  /* 2.5 -> 2 */
    assert_int_equal(cvt(PT_U8, PT_F16, RND_RZI, 0, 0x7bff), 0xff); /* 65504 */
    assert_int_equal(cvt(PT_S32, PT_BF16, RND_RMI, 0, 0xbfc0), 0xfffffffe); /* -1.5 */
    /* legacy cvt.s32.f64 without rounding truncates */
    assert_int_equal(cvt(PT_S32, PT_F64, RND_NONE, 0, 0xc00c000000000000ull), 0xfffffffd);
}

static void test_cvt_float_float(void **st)
{
    (void)st;
    /* f64 -> f32: 1 + 2^-24 is halfway between 1 and 1+2^-23. */
    const uint64_t h = 0x3ff0000010000000ull;
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RN, 0, h), F1);
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RZ, 0, h), F1);
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RM, 0, h), F1);
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RP, 0, h), 0x3f800001);
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RM, 0, h | (1ull << 63)), 0xbf800001);
    /* 1 + 3*2^-24: tie between 1+2^-23 (odd) and 1+2^-22 -> 0x3f800002. */
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RN, 0, 0x3ff0000030000000ull), 0x3f800002);
    /* Just above the tie (one more f64 ulp): rn rounds up, rz down. */
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RN, 0, h + 1), 0x3f800001);
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RZ, 0, h + 1), F1);
    /* Overflow (1e39) and underflow (2^-150, the tie between 0 and 2^-149). */
    const uint64_t big = 0x4807d8b2b1a4d2e4ull; /* about 1.01e39 */
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RN, 0, big), FINF);
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RZ, 0, big), 0x7f7fffff);
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RM, 0, big), 0x7f7fffff);
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RP, 0, big), FINF);
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RM, 0, big | (1ull << 63)), FNINF);
    const uint64_t m150 = 0x3690000000000000ull; /* 2^-150 */
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RN, 0, m150), 0);
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RP, 0, m150), 1);
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RN, 0, 0x3698000000000000ull), 1); /* 1.5*2^-150 */
    /* .ftz flushes an f32 subnormal result. */
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RN, MF_FTZ, 0x3698000000000000ull), 0);
    /* NaN -> canonical f32 NaN. */
    assert_int_equal(cvt(PT_F32, PT_F64, RND_RN, 0, 0x7ff0000000000001ull), CNAN);
    /* f32 -> f64 is exact; .ftz flushes a subnormal input (sign kept). */
    assert_int_equal(cvt(PT_F64, PT_F32, RND_NONE, 0, 0x3eaaaaab), 0x3fd5555560000000ull);
    assert_int_equal(cvt(PT_F64, PT_F32, RND_NONE, 0, 1), 0x36a0000000000000ull); /* 2^-149 */
    assert_int_equal(cvt(PT_F64, PT_F32, RND_NONE, MF_FTZ, 0x80000001), 1ull << 63);
    /* cvt.sat.f32.f32 (__saturatef). */
    assert_int_equal(cvt(PT_F32, PT_F32, RND_NONE, MF_SAT, 0x3fc00000), F1);
    assert_int_equal(cvt(PT_F32, PT_F32, RND_NONE, MF_SAT, 0xc0000000), 0);
    assert_int_equal(cvt(PT_F32, PT_F32, RND_NONE, MF_SAT, FNAN), 0);
    assert_int_equal(cvt(PT_F32, PT_F32, RND_NONE, MF_SAT, 0x3f000000), 0x3f000000);
    assert_int_equal(cvt(PT_F64, PT_F64, RND_NONE, MF_SAT, 0x4000000000000000ull), D1);
    assert_int_equal(cvt(PT_F32, PT_F32, RND_NONE, MF_FTZ, 0x80000001), 0x80000000);
    assert_int_equal(cvt(PT_F32, PT_F32, RND_NONE, 0, 0x80000001), 0x80000001);
}

static void test_cvt_round_integral(void **st)
{
    (void)st;
    assert_int_equal(cvt(PT_F32, PT_F32, RND_RNI, 0, 0x40200000), F2);         /* 2.5 -> 2 */
    assert_int_equal(cvt(PT_F32, PT_F32, RND_RNI, 0, 0x40600000), 0x40800000); /* 3.5 -> 4 */
    assert_int_equal(cvt(PT_F32, PT_F32, RND_RNI, 0, 0xbf000000), 0x80000000); /* -0.5 -> -0 */
    assert_int_equal(cvt(PT_F32, PT_F32, RND_RZI, 0, 0xbfd9999a), FM1);        /* -1.7 */
    assert_int_equal(cvt(PT_F32, PT_F32, RND_RMI, 0, 0xbfd9999a), 0xc0000000); /* -> -2 */
    assert_int_equal(cvt(PT_F32, PT_F32, RND_RPI, 0, 1), F1); /* 2^-149 -> 1 */
    assert_int_equal(cvt(PT_F32, PT_F32, RND_RPI, MF_FTZ, 1), 0);
    assert_int_equal(cvt(PT_F64, PT_F64, RND_RMI, 0, 0xbfe0000000000000ull), 0xbff0000000000000ull);
    assert_int_equal(cvt(PT_F64, PT_F64, RND_RNI, 0, 0x4004000000000000ull), 0x4000000000000000ull);
    assert_int_equal(cvt(PT_F16, PT_F16, RND_RPI, 0, 0x3e00), 0x4000); /* 1.5 -> 2 */
    assert_int_equal(cvt(PT_F16, PT_F16, RND_RNI, 0, 0x3e00), 0x4000);
    assert_int_equal(cvt(PT_F16, PT_F16, RND_RNI, 0, 0x3a00), 0x3c00); /* 0.75 -> 1 */
    assert_int_equal(cvt(PT_F16, PT_F16, RND_RZI, 0, 0xba00), 0x8000); /* -0.75 -> -0 */
}

static void test_cvt_half(void **st)
{
    (void)st;
    /* f32 -> f16 rn: 1 + 2^-11 is a tie -> 1.0; 1 + 3*2^-11 -> 1 + 2^-9 (even). */
    assert_int_equal(cvt(PT_F16, PT_F32, RND_RN, 0, 0x3f801000), 0x3c00);
    assert_int_equal(cvt(PT_F16, PT_F32, RND_RN, 0, 0x3f803000), 0x3c02);
    assert_int_equal(cvt(PT_F16, PT_F32, RND_RZ, 0, 0x3f803000), 0x3c01);
    assert_int_equal(cvt(PT_F16, PT_F32, RND_RN, 0, 0x3f801001), 0x3c01);
    assert_int_equal(cvt(PT_F16, PT_F32, RND_RN, 0, 0x477ff000), 0x7c00); /* 65520 -> inf */
    assert_int_equal(cvt(PT_F16, PT_F32, RND_RZ, 0, 0x477ff000), 0x7bff);
    assert_int_equal(cvt(PT_F16, PT_F32, RND_RN, 0, 0x477fefff), 0x7bff); /* just below */
    /* Subnormal f16: 2^-24 is the smallest; 2^-25 ties to 0; 1.5*2^-25 -> 2^-24. */
    assert_int_equal(cvt(PT_F16, PT_F32, RND_RN, 0, 0x33800000), 0x0001);
    assert_int_equal(cvt(PT_F16, PT_F32, RND_RN, 0, 0x33000000), 0x0000);
    assert_int_equal(cvt(PT_F16, PT_F32, RND_RN, 0, 0xb3000000), 0x8000);
    assert_int_equal(cvt(PT_F16, PT_F32, RND_RN, 0, 0x33400000), 0x0001);
    assert_int_equal(cvt(PT_F16, PT_F32, RND_RN, 0, FNAN), 0x7fff);
    assert_int_equal(cvt(PT_F16, PT_F32, RND_RN, 0, FNINF), 0xfc00);
    /* f16 -> f32 exact. */
    assert_int_equal(cvt(PT_F32, PT_F16, RND_NONE, 0, 0x0001), 0x33800000);
    assert_int_equal(cvt(PT_F32, PT_F16, RND_NONE, 0, 0x7bff), 0x477fe000);
    assert_int_equal(cvt(PT_F32, PT_F16, RND_NONE, 0, 0xfc00), FNINF);
    assert_int_equal(cvt(PT_F32, PT_F16, RND_NONE, 0, 0xffff3c00), F1); /* upper bits ignored */
    assert_int_equal(cvt(PT_F64, PT_F16, RND_NONE, 0, 0x3555), 0x3fd5540000000000ull);
    /* f64 -> f16 rounds once: 1 + 2^-11 + 2^-40 is above the tie -> 0x3c01 (a double
     * rounding through f32 would have lost 2^-40 and given 0x3c00). */
    assert_int_equal(cvt(PT_F16, PT_F64, RND_RN, 0, 0x3ff0020000001000ull), 0x3c01);
    /* bf16: 1 + 2^-8 is a tie -> 0x3f80; 1 + 3*2^-8 -> 0x3f82; above the tie -> up. */
    assert_int_equal(cvt(PT_BF16, PT_F32, RND_RN, 0, 0x3f808000), 0x3f80);
    assert_int_equal(cvt(PT_BF16, PT_F32, RND_RN, 0, 0x3f818000), 0x3f82);
    assert_int_equal(cvt(PT_BF16, PT_F32, RND_RN, 0, 0x3f808001), 0x3f81);
    assert_int_equal(cvt(PT_BF16, PT_F32, RND_RZ, 0, 0x3f80ffff), 0x3f80);
    assert_int_equal(cvt(PT_BF16, PT_F32, RND_RN, 0, 0x7f7fffff), 0x7f80); /* overflow */
    assert_int_equal(cvt(PT_F32, PT_BF16, RND_NONE, 0, 0x3f81), 0x3f810000);
    /* bf16 <-> f16 */
    assert_int_equal(cvt(PT_F16, PT_BF16, RND_RN, 0, 0x4780), 0x7c00); /* 65536 -> inf */
    assert_int_equal(cvt(PT_BF16, PT_F16, RND_RN, 0, 0x3c01), 0x3f80); /* 1+2^-10 -> 1 */
    assert_int_equal(cvt(PT_BF16, PT_F16, RND_RP, 0, 0x3c01), 0x3f81);
    /* .relu: negative -> +0; NaN -> canonical. */
    assert_int_equal(cvt(PT_F16, PT_F32, RND_RN, MF_RELU, FM1), 0);
    assert_int_equal(cvt(PT_BF16, PT_F32, RND_RN, MF_RELU, 0xffc00001), 0x7fff);
    /* packed: d = {cvt(a) upper, cvt(b) lower} */
    ptx_insn in = mk(OP_CVT, PT_F16X2, PT_F32, RND_RN, 0, 2);
    assert_int_equal(run_in(&in, F1, F2, 0), 0x3c004000);
    in = mk(OP_CVT, PT_BF16X2, PT_F32, RND_RZ, 0, 2);
    assert_int_equal(run_in(&in, 0x3f80ffff, FM1, 0), 0x3f80bf80);
}

static void test_cvt_int_int(void **st)
{
    (void)st;
    assert_int_equal(cvt(PT_S32, PT_S16, RND_NONE, 0, 0x8000), 0xffff8000);
    assert_int_equal(cvt(PT_U32, PT_U16, RND_NONE, 0, 0x8000), 0x8000);
    assert_int_equal(cvt(PT_S64, PT_S32, RND_NONE, 0, 0x80000000), 0xffffffff80000000ull);
    assert_int_equal(cvt(PT_U64, PT_S32, RND_NONE, 0, 0x80000000), 0xffffffff80000000ull);
    assert_int_equal(cvt(PT_S64, PT_U32, RND_NONE, 0, 0x80000000), 0x80000000);
    assert_int_equal(cvt(PT_U8, PT_U32, RND_NONE, 0, 0x1234), 0x34);
    assert_int_equal(cvt(PT_S16, PT_S8, RND_NONE, 0, 0x12345680), 0xff80);
    assert_int_equal(cvt(PT_U32, PT_U64, RND_NONE, 0, 0x123456789ull), 0x23456789);
    /* .sat clamps to the destination range, by the source's signedness. */
    assert_int_equal(cvt(PT_U8, PT_S32, RND_NONE, MF_SAT, (uint64_t)-5 & 0xffffffff), 0);
    assert_int_equal(cvt(PT_U8, PT_S32, RND_NONE, MF_SAT, 300), 255);
    assert_int_equal(cvt(PT_S8, PT_S32, RND_NONE, MF_SAT, (uint64_t)-300 & 0xffffffff), 0x80);
    assert_int_equal(cvt(PT_S8, PT_S32, RND_NONE, MF_SAT, 300), 0x7f);
    assert_int_equal(cvt(PT_S8, PT_S32, RND_NONE, MF_SAT, (uint64_t)-100 & 0xffffffff), 0x9c);
    assert_int_equal(cvt(PT_S32, PT_U32, RND_NONE, MF_SAT, 0xffffffff), 0x7fffffff);
    assert_int_equal(cvt(PT_U32, PT_S64, RND_NONE, MF_SAT, ~0ull), 0);
    assert_int_equal(cvt(PT_U32, PT_S64, RND_NONE, MF_SAT, 0x100000000ull), 0xffffffff);
    assert_int_equal(cvt(PT_S64, PT_U64, RND_NONE, MF_SAT, ~0ull), 0x7fffffffffffffffull);
    assert_int_equal(cvt(PT_U64, PT_S64, RND_NONE, MF_SAT, ~0ull), 0);
    assert_int_equal(cvt(PT_U16, PT_U64, RND_NONE, MF_SAT, 0x10000), 0xffff);
}

/* ---- f16 / bf16 arithmetic ---------------------------------------------------------- */

static void test_half_arith(void **st)
{
    (void)st;
    /* 1 + 2^-11 (0x1000) is a tie -> 1.0; (1+2^-10) + 2^-11 -> tie -> 1+2^-9 (0x3c02). */
    assert_int_equal(run(OP_ADD, PT_F16, RND_NONE, 0, 2, 0x3c00, 0x1000, 0), 0x3c00);
    assert_int_equal(run(OP_ADD, PT_F16, RND_RN, 0, 2, 0x3c01, 0x1000, 0), 0x3c02);
    assert_int_equal(run(OP_SUB, PT_F16, RND_NONE, 0, 2, 0x3c00, 0x3c00, 0), 0x0000);
    /* 256 * 256 overflows to inf; inf - inf is the canonical NaN. */
    assert_int_equal(run(OP_MUL, PT_F16, RND_NONE, 0, 2, 0x5c00, 0x5c00, 0), 0x7c00);
    assert_int_equal(run(OP_SUB, PT_F16, RND_NONE, 0, 2, 0x7c00, 0x7c00, 0), 0x7fff);
    /* Subnormals: 2^-24 + 2^-24 = 2^-23; .ftz flushes the inputs. */
    assert_int_equal(run(OP_ADD, PT_F16, RND_NONE, 0, 2, 1, 1, 0), 2);
    assert_int_equal(run(OP_ADD, PT_F16, RND_NONE, MF_FTZ, 2, 1, 1, 0), 0);
    /* .sat */
    assert_int_equal(run(OP_ADD, PT_F16, RND_NONE, MF_SAT, 2, 0x3c00, 0x3c00, 0), 0x3c00);
    assert_int_equal(run(OP_MUL, PT_F16, RND_NONE, MF_SAT, 2, 0xbc00, 0x3c00, 0), 0);
    /* fma rounds once: a = b = 1+2^-10, c = -(1+2^-9): exactly 2^-20 (subnormal
     * 0x0010); mul then add would give 0. */
    assert_int_equal(run(OP_FMA, PT_F16, RND_RN, 0, 3, 0x3c01, 0x3c01, 0xbc02), 0x0010);
    assert_int_equal(run(OP_FMA, PT_F16, RND_RN, MF_FTZ, 3, 0x3c01, 0x3c01, 0xbc02), 0x0000);
    /* fma.relu: negative -> 0 */
    assert_int_equal(run(OP_FMA, PT_F16, RND_RN, MF_RELU, 3, 0x3c00, 0xbc00, 0), 0);
    /* neg/abs/min/max */
    assert_int_equal(run(OP_NEG, PT_F16, RND_NONE, 0, 1, 0x3c00, 0, 0), 0xbc00);
    assert_int_equal(run(OP_ABS, PT_BF16, RND_NONE, 0, 1, 0xbf80, 0, 0), 0x3f80);
    assert_int_equal(run(OP_MIN, PT_F16, RND_NONE, 0, 2, 0x7e00, 0x3c00, 0), 0x3c00);
    assert_int_equal(run(OP_MIN, PT_F16, RND_NONE, 0, 2, 0x7e00, 0x7e01, 0), 0x7fff);
    assert_int_equal(run(OP_MIN, PT_F16, RND_NONE, 0, 2, 0x0000, 0x8000, 0), 0x8000);
    assert_int_equal(run(OP_MAX, PT_BF16, RND_NONE, 0, 2, 0x8000, 0x0000, 0), 0x0000);
    assert_int_equal(run(OP_MAX, PT_BF16, RND_NONE, 0, 2, 0x3f80, 0x4000, 0), 0x4000);
    /* ex2/tanh approx on halves */
    assert_int_equal(run(OP_EX2, PT_F16, RND_NONE, MF_APPROX, 1, 0x3c00, 0, 0), 0x4000);
    assert_int_equal(run(OP_TANH, PT_BF16, RND_NONE, MF_APPROX, 1, 0x0000, 0, 0), 0x0000);
}

static void test_bf16_fma_single_rounding(void **st)
{
    (void)st;
    /* a = 1.125 (0x3f90), b = 0.90625 (0x3f68): a*b = 1 + 5*2^-8, exactly the tie
     * between 0x3f82 (even) and 0x3f83. c = +-2^-100 (0x0d80) decides the direction;
     * a double-precision sum would lose c and round to even. */
    assert_int_equal(run(OP_FMA, PT_BF16, RND_RN, 0, 3, 0x3f90, 0x3f68, 0x0000), 0x3f82);
    assert_int_equal(run(OP_FMA, PT_BF16, RND_RN, 0, 3, 0x3f90, 0x3f68, 0x0d80), 0x3f83);
    assert_int_equal(run(OP_FMA, PT_BF16, RND_RN, 0, 3, 0x3f90, 0x3f68, 0x8d80), 0x3f82);
    /* 1 + 3*2^-8 = 7/8 * 37/32 (0x3f60, 0x3f94) is the tie between 0x3f81 and 0x3f82
     * (even): a negative c makes it round down. */
    assert_int_equal(run(OP_FMA, PT_BF16, RND_RN, 0, 3, 0x3f60, 0x3f94, 0x8d80), 0x3f81);
    assert_int_equal(run(OP_FMA, PT_BF16, RND_RN, 0, 3, 0x3f60, 0x3f94, 0x0000), 0x3f82);
    /* bf16 add/mul round to nearest even. */
    assert_int_equal(run(OP_ADD, PT_BF16, RND_NONE, 0, 2, 0x3f80, 0x3b80, 0), 0x3f80); /* 1+2^-8 */
    assert_int_equal(run(OP_MUL, PT_BF16, RND_NONE, 0, 2, 0x3f90, 0x3f68, 0), 0x3f82);
}

static void test_half_x2(void **st)
{
    (void)st;
    /* {hi, lo} = {2.0, 1.0} + {0.25, 0.5} = {2.25, 1.5}. */
    assert_int_equal(run(OP_ADD, PT_F16X2, RND_NONE, 0, 2, 0x40003c00, 0x34003800, 0), 0x40803e00);
    /* Lanes are independent: only the low half overflows. */
    assert_int_equal(run(OP_MUL, PT_F16X2, RND_NONE, 0, 2, 0x3c005c00, 0x3c005c00, 0), 0x3c007c00);
    assert_int_equal(run(OP_NEG, PT_BF16X2, RND_NONE, 0, 1, 0x3f80bf80, 0, 0), 0xbf803f80);
    assert_int_equal(run(OP_FMA, PT_BF16X2, RND_RN, 0, 3, 0x3f903f60, 0x3f683f94, 0x0d808d80),
                     0x3f833f81);
    assert_int_equal(run(OP_MAX, PT_F16X2, RND_NONE, 0, 2, 0x7e003c00, 0x3c007e00, 0), 0x3c003c00);
    /* ftz on both halves */
    assert_int_equal(run(OP_ABS, PT_F16X2, RND_NONE, MF_FTZ, 1, 0x80018001, 0, 0), 0);
}

/* ---- lanes, immediates, binder ------------------------------------------------------ */

static void test_lanes(void **st)
{
    (void)st;
    rig g;
    const uint64_t mask = 0xa5a5a5a5u;
    rig_init(&g, mask);
    for (unsigned l = 0; l < WS; l++) {
        *slot(&g, 0, l) = 0x1111111100000000ull + l;
        *slot(&g, 1, l) = 0x4b000000u + l;      /* 2^23 + l */
        *slot(&g, 2, l) = 0x3f000000u;          /* 0.5 */
    }
    ptx_insn in = mk(OP_ADD, PT_F32, PT_NONE, RND_RN, 0, 2);
    bindf(&in)(&g.x, &in);
    for (unsigned l = 0; l < WS; l++) {
        uint64_t d = *slot(&g, 0, l);
        if (mask >> l & 1) {
            /* 2^23 + l + 0.5: a tie, rounded to the even integer; the upper word of the
             * 64-bit slot is cleared. */
            uint64_t want = 0x4b000000u + l + (l & 1);
            assert_int_equal(d, want);
        } else {
            assert_int_equal(d, 0x1111111100000000ull + l);
        }
    }
    /* Same under .rz (truncates) with a different mask, through the rounding wrapper. */
    rig_init(&g, 0x0000ffffu);
    for (unsigned l = 0; l < WS; l++) {
        *slot(&g, 0, l) = 7;
        *slot(&g, 1, l) = 0x4b000000u + l;
        *slot(&g, 2, l) = 0x3f000000u;
    }
    in = mk(OP_ADD, PT_F32, PT_NONE, RND_RZ, 0, 2);
    bindf(&in)(&g.x, &in);
    for (unsigned l = 0; l < WS; l++)
        assert_int_equal(*slot(&g, 0, l), l < 16 ? 0x4b000000u + l : 7);
    assert_int_equal(fegetround(), FE_TONEAREST);
}

static void test_immediates_and_sink(void **st)
{
    (void)st;
    ptx_insn in = mk(OP_MUL, PT_F32, PT_NONE, RND_NONE, 0, 2);
    in.ops[2].kind = OK_IMM;
    in.ops[2].imm = 0x40400000; /* 0f40400000 = 3.0 */
    assert_int_equal(run_in(&in, F2, 0, 0), 0x40c00000);
    in = mk(OP_CVT, PT_F64, PT_S32, RND_RN, 0, 1);
    in.ops[1].kind = OK_IMM;
    in.ops[1].imm = (uint64_t)-7; /* integers are sign-extended immediates */
    assert_int_equal(run_in(&in, 0, 0, 0), 0xc01c000000000000ull);
    /* The sink discards the result. */
    in = mk(OP_ADD, PT_F32, PT_NONE, RND_NONE, 0, 2);
    in.ops[0].kind = OK_SINK;
    assert_int_equal(run_in(&in, F1, F1, 0), 0xdeadbeefdeadbeefull);
}

static void test_bind_rejects(void **st)
{
    (void)st;
    ptx_insn in = mk(OP_ADD, PT_F16, PT_NONE, RND_RZ, 0, 2);
    assert_true(rejects(&in)); /* halves only have .rn */
    in = mk(OP_CVT, PT_F32, PT_F64, RND_RNI, 0, 1);
    assert_true(rejects(&in)); /* integer rounding needs the same size */
    in = mk(OP_CVT, PT_S32, PT_F32, RND_RN, 0, 1);
    assert_true(rejects(&in)); /* float-to-int needs an integer rounding */
    in = mk(OP_CVT, PT_F32, PT_S32, RND_RZI, 0, 1);
    assert_true(rejects(&in));
    in = mk(OP_SIN, PT_F64, PT_NONE, RND_NONE, MF_APPROX, 1);
    assert_true(rejects(&in));
    in = mk(OP_ADD, PT_S32, PT_NONE, RND_NONE, 0, 2);
    assert_true(rejects(&in)); /* not a float type: exec_int's */
    in = mk(OP_DIV, PT_F32, PT_NONE, RND_NONE, MF_SAT, 2);
    assert_true(rejects(&in));
    in = mk(OP_ADD, PT_F64, PT_NONE, RND_NONE, MF_FTZ, 2);
    assert_true(rejects(&in));
    in = mk(OP_RCP, PT_F64, PT_NONE, RND_NONE, MF_APPROX, 1);
    assert_true(rejects(&in)); /* only rcp.approx.ftz.f64 exists */
    in = mk(OP_FMA, PT_F32, PT_NONE, RND_RN, 0, 2);
    assert_true(rejects(&in)); /* operand count */
    in = mk(OP_ADD, PT_F32, PT_NONE, RND_NONE, 0, 2);
    in.ops[1].kind = OK_ADDR;
    assert_true(rejects(&in));
    in = mk(OP_CVT, PT_F32, PT_PRED, RND_RN, 0, 1);
    assert_true(rejects(&in));
    in = mk(OP_MUL, PT_F32, PT_NONE, RND_NONE, 0, 2);
    in.sub = MUL_WIDE;
    assert_true(rejects(&in));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_div_rounding),
        cmocka_unit_test(test_f32_add_mul_rounding),
        cmocka_unit_test(test_f32_fma),
        cmocka_unit_test(test_f64_rounding),
        cmocka_unit_test(test_div_variants),
        cmocka_unit_test(test_ftz_sat),
        cmocka_unit_test(test_minmax_sign),
        cmocka_unit_test(test_testp),
        cmocka_unit_test(test_sfu),
        cmocka_unit_test(test_f64_approx_ftz),
        cmocka_unit_test(test_cvt_int_to_float),
        cmocka_unit_test(test_cvt_float_to_int),
        cmocka_unit_test(test_cvt_float_float),
        cmocka_unit_test(test_cvt_round_integral),
        cmocka_unit_test(test_cvt_half),
        cmocka_unit_test(test_cvt_int_int),
        cmocka_unit_test(test_half_arith),
        cmocka_unit_test(test_bf16_fma_single_rounding),
        cmocka_unit_test(test_half_x2),
        cmocka_unit_test(test_lanes),
        cmocka_unit_test(test_immediates_and_sink),
        cmocka_unit_test(test_bind_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
