/* test_exec_int.c - integer, logic, compare/select and move semantics (exec_int.c).
 *
 * Instructions are built by hand, bound with exec_bind_int and run on a 32-lane
 * register file; expected values are derived by hand from the PTX ISA manual.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "func/exec.h"
#include "func/func.h"

#define WS 32
#define NREG 16
#define ALL 0xFFFFFFFFull
#define SENT 0x5A5A5A5A5A5A5A5Aull /* sentinel for lanes that must stay untouched */

typedef struct {
    exec_ctx x;
    uint64_t r[NREG * WS];
    uint8_t cc[WS];
} rig;

static void rig_init(rig *g)
{
    memset(g, 0, sizeof *g);
    g->x.r = (uint32_t *)(void *)g->r;   /* slot s: the 8-byte row 2 s (R) */
    g->x.b64 = 2 * NREG;
    g->x.ws = WS;
    g->x.mask = ALL;
    g->x.cc = g->cc;
}

static uint64_t *reg(rig *g, unsigned s, unsigned l) { return &g->r[s * WS + l]; }
static void fill(rig *g, unsigned s, uint64_t v)
{
    for (unsigned l = 0; l < WS; l++)
        *reg(g, s, l) = v;
}
/* Lane l of slot s gets v[l] for l < n. */
static void load(rig *g, unsigned s, unsigned n, const uint64_t *v)
{
    for (unsigned l = 0; l < n; l++)
        *reg(g, s, l) = v[l];
}

static ptx_operand R(unsigned s) { return (ptx_operand){.kind = OK_REG, .r = 2 * s}; }
static ptx_operand NR(unsigned s) { return (ptx_operand){.kind = OK_REG, .r = 2 * s, .neg = 1}; }
static ptx_operand I(int64_t v) { return (ptx_operand){.kind = OK_IMM, .imm = (uint64_t)v}; }
static ptx_operand NONE(void) { return (ptx_operand){.kind = OK_NONE}; }
static ptx_operand SINK(void) { return (ptx_operand){.kind = OK_SINK}; }

static ptx_insn mk(unsigned op, unsigned type, unsigned n, const ptx_operand *ops)
{
    ptx_insn in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.type = (uint8_t)type;
    in.vec = 1;
    in.guard = -1;
    in.nops = (uint8_t)n;
    for (unsigned i = 0; i < n; i++)
        in.ops[i] = ops[i];
    return in;
}
#define MK(op, ty, ...)                                                                \
    mk(op, ty, sizeof((ptx_operand[]){__VA_ARGS__}) / sizeof(ptx_operand),            \
       (ptx_operand[]){__VA_ARGS__})

static exec_fn bind_ok(const ptx_insn *in)
{
    char why[256] = "";
    exec_fn fn = exec_bind_int(NULL, NULL, in, why, sizeof why);
    if (!fn)
        fail_msg("binder refused %u.%u: %s", in->op, in->type, why);
    return fn;
}

static void run(rig *g, const ptx_insn *in) { bind_ok(in)(&g->x, in); }

/* The binder must refuse and its reason must mention `part`. */
static void refused(const ptx_insn *in, const char *part)
{
    char why[256] = "";
    exec_fn fn = exec_bind_int(NULL, NULL, in, why, sizeof why);
    if (fn)
        fail_msg("binder accepted op %u type %u", in->op, in->type);
    if (!strstr(why, part))
        fail_msg("reason \"%s\" does not mention \"%s\"", why, part);
}

static void expect(rig *g, unsigned s, unsigned n, const uint64_t *want)
{
    for (unsigned l = 0; l < n; l++)
        if (*reg(g, s, l) != want[l])
            fail_msg("slot %u lane %u: got %#llx, want %#llx", s, l,
                     (unsigned long long)*reg(g, s, l), (unsigned long long)want[l]);
}

/* Runs `d = op a, b` with per-lane a and b (slots 1 and 2) and checks slot 0. */
static void bin(ptx_insn in, unsigned n, const uint64_t *a, const uint64_t *b,
                const uint64_t *want)
{
    rig g;
    rig_init(&g);
    load(&g, 1, n, a);
    load(&g, 2, n, b);
    run(&g, &in);
    expect(&g, 0, n, want);
}
static void tri(ptx_insn in, unsigned n, const uint64_t *a, const uint64_t *b,
                const uint64_t *c, const uint64_t *want)
{
    rig g;
    rig_init(&g);
    load(&g, 1, n, a);
    load(&g, 2, n, b);
    load(&g, 3, n, c);
    run(&g, &in);
    expect(&g, 0, n, want);
}
static void una(ptx_insn in, unsigned n, const uint64_t *a, const uint64_t *want)
{
    rig g;
    rig_init(&g);
    load(&g, 1, n, a);
    run(&g, &in);
    expect(&g, 0, n, want);
}

#define N(arr) (sizeof(arr) / sizeof((arr)[0]))
#define D0 R(0)
#define A1 R(1)
#define B2 R(2)
#define C3 R(3)

static ptx_insn with_sub(ptx_insn in, unsigned sub) { in.sub = (uint8_t)sub; return in; }
static ptx_insn with_flags(ptx_insn in, unsigned fl) { in.flags = fl; return in; }

/* ---- add / sub ------------------------------------------------------------------------ */

static void test_add_sub_wrap(void **st)
{
    (void)st;
    const uint64_t a[] = {0xFFFFFFFF, 0x7FFFFFFF, 5, 0};
    const uint64_t b[] = {1, 1, 0xFFFFFFFF, 0};
    const uint64_t add32[] = {0, 0x80000000, 4, 0};
    bin(MK(OP_ADD, PT_U32, D0, A1, B2), 4, a, b, add32);
    bin(MK(OP_ADD, PT_S32, D0, A1, B2), 4, a, b, add32);
    const uint64_t sub32[] = {0xFFFFFFFE, 0x7FFFFFFE, 6, 0};
    bin(MK(OP_SUB, PT_S32, D0, A1, B2), 4, a, b, sub32);

    const uint64_t a64[] = {~0ull, 0x7FFFFFFFFFFFFFFF, 0};
    const uint64_t b64[] = {1, 1, 1};
    const uint64_t add64[] = {0, 0x8000000000000000, 1};
    const uint64_t sub64[] = {~0ull - 1, 0x7FFFFFFFFFFFFFFE, ~0ull};
    bin(MK(OP_ADD, PT_U64, D0, A1, B2), 3, a64, b64, add64);
    bin(MK(OP_SUB, PT_S64, D0, A1, B2), 3, a64, b64, sub64);

    /* 16-bit results are written zero-extended from 16 bits */
    const uint64_t a16[] = {0xFFFF, 0x7FFF, 0};
    const uint64_t b16[] = {2, 1, 1};
    const uint64_t add16[] = {1, 0x8000, 1};
    const uint64_t sub16[] = {0xFFFD, 0x7FFE, 0xFFFF};
    bin(MK(OP_ADD, PT_U16, D0, A1, B2), 3, a16, b16, add16);
    bin(MK(OP_SUB, PT_S16, D0, A1, B2), 3, a16, b16, sub16);

    /* immediates arrive sign-extended: add.u32 d, a, -1 */
    const uint64_t ai[] = {5, 0};
    const uint64_t wi[] = {4, 0xFFFFFFFF};
    una(MK(OP_ADD, PT_U32, D0, A1, I(-1)), 2, ai, wi);
    const uint64_t wi16[] = {4, 0xFFFF};
    una(MK(OP_ADD, PT_S16, D0, A1, I(-1)), 2, ai, wi16);
    /* immediate first: the generic path */
    const uint64_t wg[] = {0xFFFFFFFA, 0xFFFFFFFF};
    una(MK(OP_SUB, PT_S32, D0, I(-1), A1), 2, ai, wg);
}

static void test_add_sat(void **st)
{
    (void)st;
    const uint64_t a[] = {0x7FFFFFFF, 0x80000000, 3, 0x80000000, 0x7FFFFFFF};
    const uint64_t b[] = {1, 0xFFFFFFFF, 4, 0x80000000, 0x7FFFFFFF};
    const uint64_t add[] = {0x7FFFFFFF, 0x80000000, 7, 0x80000000, 0x7FFFFFFF};
    bin(with_flags(MK(OP_ADD, PT_S32, D0, A1, B2), MF_SAT), 5, a, b, add);
    const uint64_t sa[] = {0x80000000, 0x7FFFFFFF, 3, 0, 0xFFFFFFFF};
    const uint64_t sb[] = {1, 0xFFFFFFFF, 4, 0x80000000, 0x7FFFFFFF};
    const uint64_t sub[] = {0x80000000, 0x7FFFFFFF, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000};
    bin(with_flags(MK(OP_SUB, PT_S32, D0, A1, B2), MF_SAT), 5, sa, sb, sub);
    ptx_insn u = with_flags(MK(OP_ADD, PT_U32, D0, A1, B2), MF_SAT);
    refused(&u, ".s32");
}

/* 96-bit addition as add.cc / addc.cc / addc, each lane with its own carries. */
static void test_carry_chain(void **st)
{
    (void)st;
    rig g;
    rig_init(&g);
    /* x = slots 1..3 (low word first), y = slots 4..6, sum = 7..9 */
    const uint64_t x0[] = {0xFFFFFFFF, 0xFFFFFFFF, 1, 0xFFFFFFFF};
    const uint64_t x1[] = {0, 0xFFFFFFFF, 2, 0xFFFFFFFF};
    const uint64_t x2[] = {0, 0, 3, 0xFFFFFFFF};
    const uint64_t y0[] = {1, 1, 1, 1};
    const uint64_t y1[] = {0, 0, 0, 0};
    const uint64_t y2[] = {0, 0, 0, 0};
    load(&g, 1, 4, x0); load(&g, 2, 4, x1); load(&g, 3, 4, x2);
    load(&g, 4, 4, y0); load(&g, 5, 4, y1); load(&g, 6, 4, y2);
    ptx_insn i0 = with_flags(MK(OP_ADD, PT_U32, R(7), R(1), R(4)), MF_CC);
    ptx_insn i1 = with_flags(MK(OP_ADDC, PT_U32, R(8), R(2), R(5)), MF_CC);
    ptx_insn i2 = MK(OP_ADDC, PT_U32, R(9), R(3), R(6));
    run(&g, &i0);
    run(&g, &i1);
    run(&g, &i2);
    const uint64_t s0[] = {0, 0, 2, 0};
    const uint64_t s1[] = {1, 0, 2, 0};
    const uint64_t s2[] = {0, 1, 3, 0};
    expect(&g, 7, 4, s0);
    expect(&g, 8, 4, s1);
    expect(&g, 9, 4, s2);

    /* addc without .cc leaves CC.CF as addc.cc on word 1 set it */
    assert_int_equal(g.cc[0], 0); /* 0 + 0 + 1, no carry */
    assert_int_equal(g.cc[1], 1); /* 0xFFFFFFFF + 0 + 1 carries */
    assert_int_equal(g.cc[3], 1);

    /* subtraction borrows: x - y with x = 0:0:0 - 0:0:1 = all ones */
    rig_init(&g);
    fill(&g, 1, 0); fill(&g, 2, 0); fill(&g, 3, 0);
    fill(&g, 4, 1); fill(&g, 5, 0); fill(&g, 6, 0);
    *reg(&g, 1, 1) = 5; /* lane 1: 0:0:5 - 0:0:1 = 0:0:4 */
    ptx_insn s_0 = with_flags(MK(OP_SUB, PT_U32, R(7), R(1), R(4)), MF_CC);
    ptx_insn s_1 = with_flags(MK(OP_SUBC, PT_U32, R(8), R(2), R(5)), MF_CC);
    ptx_insn s_2 = MK(OP_SUBC, PT_U32, R(9), R(3), R(6));
    run(&g, &s_0);
    run(&g, &s_1);
    run(&g, &s_2);
    const uint64_t d0[] = {0xFFFFFFFF, 4};
    const uint64_t d1[] = {0xFFFFFFFF, 0};
    expect(&g, 7, 2, d0);
    expect(&g, 8, 2, d1);
    expect(&g, 9, 2, d1);

    /* 64-bit carry: add.cc.u64 then addc.u64 */
    rig_init(&g);
    fill(&g, 1, ~0ull); fill(&g, 2, 7); fill(&g, 3, 1); fill(&g, 4, 0);
    *reg(&g, 1, 1) = 5;
    ptx_insn c0 = with_flags(MK(OP_ADD, PT_U64, R(5), R(1), R(3)), MF_CC);
    ptx_insn c1 = MK(OP_ADDC, PT_S64, R(6), R(2), R(4));
    run(&g, &c0);
    run(&g, &c1);
    const uint64_t lo[] = {0, 6}, hi[] = {8, 7};
    expect(&g, 5, 2, lo);
    expect(&g, 6, 2, hi);

    /* 64-bit carry through a middle word that is all ones: ~0 + 0 + CF */
    rig_init(&g);
    fill(&g, 1, ~0ull); fill(&g, 2, ~0ull); fill(&g, 3, 1); fill(&g, 4, 0);
    ptx_insn m0 = with_flags(MK(OP_ADD, PT_U64, R(5), R(1), R(3)), MF_CC);
    ptx_insn m1 = with_flags(MK(OP_ADDC, PT_U64, R(6), R(2), R(4)), MF_CC);
    run(&g, &m0);
    run(&g, &m1);
    assert_int_equal(*reg(&g, 5, 0), 0);
    assert_int_equal(*reg(&g, 6, 0), 0);
    assert_int_equal(g.cc[0], 1);

    /* 192-bit borrow: 7:5:0 - 0:5:1 = 6:~0:~0 (the middle word borrows through a == b) */
    rig_init(&g);
    fill(&g, 1, 0); fill(&g, 2, 5); fill(&g, 3, 7);
    fill(&g, 4, 1); fill(&g, 5, 5); fill(&g, 6, 0);
    ptx_insn b0 = with_flags(MK(OP_SUB, PT_U64, R(7), R(1), R(4)), MF_CC);
    ptx_insn b1 = with_flags(MK(OP_SUBC, PT_U64, R(8), R(2), R(5)), MF_CC);
    ptx_insn b2 = MK(OP_SUBC, PT_U64, R(9), R(3), R(6));
    run(&g, &b0);
    run(&g, &b1);
    assert_int_equal(g.cc[0], 1);
    run(&g, &b2);
    assert_int_equal(*reg(&g, 7, 0), ~0ull);
    assert_int_equal(*reg(&g, 8, 0), ~0ull);
    assert_int_equal(*reg(&g, 9, 0), 6);
    /* the same in 32 bits */
    rig_init(&g);
    fill(&g, 1, 0); fill(&g, 2, 5); fill(&g, 3, 7);
    fill(&g, 4, 1); fill(&g, 5, 5); fill(&g, 6, 0);
    b0.type = b1.type = b2.type = PT_U32;
    run(&g, &b0);
    run(&g, &b1);
    run(&g, &b2);
    assert_int_equal(*reg(&g, 7, 0), 0xFFFFFFFF);
    assert_int_equal(*reg(&g, 8, 0), 0xFFFFFFFF);
    assert_int_equal(*reg(&g, 9, 0), 6);

    /* carry-in of addc is per lane, and inactive lanes keep theirs */
    rig_init(&g);
    fill(&g, 1, 10); fill(&g, 2, 20);
    for (unsigned l = 0; l < WS; l++)
        g.cc[l] = (uint8_t)(l & 1);
    g.x.mask = 0x0000FFFF;
    fill(&g, 0, SENT);
    ptx_insn ac = with_flags(MK(OP_ADDC, PT_U32, D0, A1, B2), MF_CC);
    run(&g, &ac);
    for (unsigned l = 0; l < WS; l++) {
        assert_int_equal(*reg(&g, 0, l), l < 16 ? 30 + (l & 1) : SENT);
        assert_int_equal(g.cc[l], l < 16 ? 0 : (l & 1));
    }
    ptx_insn bad = with_flags(MK(OP_ADD, PT_U16, D0, A1, B2), MF_CC);
    refused(&bad, "u16");
}

/* mad.lo.cc / madc.hi: 64-bit a*b + c from 32-bit halves. */
static void test_mad_carry(void **st)
{
    (void)st;
    rig g;
    rig_init(&g);
    const uint64_t c0[] = {1, 0xFFFFFFFF};
    fill(&g, 1, 0xFFFFFFFF);
    fill(&g, 2, 0xFFFFFFFF);
    load(&g, 3, 2, c0);
    fill(&g, 4, 0);
    ptx_insn lo = with_flags(with_sub(MK(OP_MAD, PT_U32, R(5), R(1), R(2), R(3)), MUL_LO), MF_CC);
    ptx_insn hi = with_sub(MK(OP_MADC, PT_U32, R(6), R(1), R(2), R(4)), MUL_HI);
    run(&g, &lo);
    run(&g, &hi);
    /* 0xFFFFFFFE00000001 + 1 and + 0xFFFFFFFF */
    const uint64_t wl[] = {2, 0}, wh[] = {0xFFFFFFFE, 0xFFFFFFFF};
    expect(&g, 5, 2, wl);
    expect(&g, 6, 2, wh);

    /* madc.hi.cc.s32: -1 * 1 = -1, hi 0xFFFFFFFF; + 1 + CF(1) carries out */
    rig_init(&g);
    fill(&g, 1, 0xFFFFFFFF); fill(&g, 2, 1); fill(&g, 3, 1);
    g.cc[0] = 1;
    ptx_insn hs = with_flags(with_sub(MK(OP_MADC, PT_S32, R(5), R(1), R(2), R(3)), MUL_HI), MF_CC);
    run(&g, &hs);
    assert_int_equal(*reg(&g, 5, 0), 1);
    assert_int_equal(g.cc[0], 1);
    assert_int_equal(*reg(&g, 5, 1), 0);
    assert_int_equal(g.cc[1], 1);
}

/* ---- multiply ------------------------------------------------------------------------- */

static void test_mul(void **st)
{
    (void)st;
    const uint64_t a[] = {0x10000, 0xFFFFFFFF, 0xFFFFFFFE, 0x80000000, 3};
    const uint64_t b[] = {0x10000, 0xFFFFFFFF, 3, 0x80000000, 0xFFFFFFFF};
    const uint64_t lo[] = {0, 1, 0xFFFFFFFA, 0, 0xFFFFFFFD};
    const uint64_t hiu[] = {1, 0xFFFFFFFE, 2, 0x40000000, 2};
    const uint64_t his[] = {1, 0, 0xFFFFFFFF, 0x40000000, 0xFFFFFFFF};
    const uint64_t wu[] = {0x100000000, 0xFFFFFFFE00000001, 0x2FFFFFFFA, 0x4000000000000000,
                           0x2FFFFFFFD};
    const uint64_t wsg[] = {0x100000000, 1, 0xFFFFFFFFFFFFFFFA, 0x4000000000000000,
                            0xFFFFFFFFFFFFFFFD};
    bin(with_sub(MK(OP_MUL, PT_S32, D0, A1, B2), MUL_LO), 5, a, b, lo);
    bin(with_sub(MK(OP_MUL, PT_U32, D0, A1, B2), MUL_HI), 5, a, b, hiu);
    bin(with_sub(MK(OP_MUL, PT_S32, D0, A1, B2), MUL_HI), 5, a, b, his);
    bin(with_sub(MK(OP_MUL, PT_U32, D0, A1, B2), MUL_WIDE), 5, a, b, wu);
    bin(with_sub(MK(OP_MUL, PT_S32, D0, A1, B2), MUL_WIDE), 5, a, b, wsg);

    const uint64_t a16[] = {0xFFFF, 0x8000, 0xFFFD};
    const uint64_t b16[] = {0xFFFF, 2, 4};
    const uint64_t w16u[] = {0xFFFE0001, 0x10000, 0x3FFF4};
    const uint64_t w16s[] = {1, 0xFFFF0000, 0xFFFFFFF4};
    const uint64_t h16u[] = {0xFFFE, 1, 3};
    const uint64_t h16s[] = {0, 0xFFFF, 0xFFFF};
    const uint64_t l16[] = {1, 0, 0xFFF4};
    bin(with_sub(MK(OP_MUL, PT_U16, D0, A1, B2), MUL_WIDE), 3, a16, b16, w16u);
    bin(with_sub(MK(OP_MUL, PT_S16, D0, A1, B2), MUL_WIDE), 3, a16, b16, w16s);
    bin(with_sub(MK(OP_MUL, PT_U16, D0, A1, B2), MUL_HI), 3, a16, b16, h16u);
    bin(with_sub(MK(OP_MUL, PT_S16, D0, A1, B2), MUL_HI), 3, a16, b16, h16s);
    bin(with_sub(MK(OP_MUL, PT_U16, D0, A1, B2), MUL_LO), 3, a16, b16, l16);

    const uint64_t a64[] = {~0ull, ~0ull, 0x8000000000000000, 0x8000000000000000, 0x100000000};
    const uint64_t b64[] = {~0ull, 1, 0x8000000000000000, ~0ull, 0x100000000};
    const uint64_t h64u[] = {~0ull - 1, 0, 0x4000000000000000, 0x7FFFFFFFFFFFFFFF, 1};
    const uint64_t h64s[] = {0, ~0ull, 0x4000000000000000, 0, 1};
    const uint64_t l64[] = {1, ~0ull, 0, 0x8000000000000000, 0};
    bin(with_sub(MK(OP_MUL, PT_U64, D0, A1, B2), MUL_HI), 5, a64, b64, h64u);
    bin(with_sub(MK(OP_MUL, PT_S64, D0, A1, B2), MUL_HI), 5, a64, b64, h64s);
    bin(with_sub(MK(OP_MUL, PT_U64, D0, A1, B2), MUL_LO), 5, a64, b64, l64);

    /* immediate operand (fast register/immediate path): mul.wide.s32 d, a, 4 */
    const uint64_t ai[] = {0xFFFFFFFF, 3};
    const uint64_t wi[] = {0xFFFFFFFFFFFFFFFC, 12};
    una(with_sub(MK(OP_MUL, PT_S32, D0, A1, I(4)), MUL_WIDE), 2, ai, wi);

    ptx_insn w64 = with_sub(MK(OP_MUL, PT_S64, D0, A1, B2), MUL_WIDE);
    refused(&w64, "wide");
    ptx_insn none = MK(OP_MUL, PT_S32, D0, A1, B2);
    refused(&none, ".lo");
}

static void test_mad(void **st)
{
    (void)st;
    const uint64_t a[] = {3, 0xFFFFFFFF, 0x80000000, 0x80000000};
    const uint64_t b[] = {4, 2, 0x80000000, 0x7FFFFFFF};
    const uint64_t c[] = {5, 1, 0x40000000, 0x80000000};
    const uint64_t lo[] = {17, 0xFFFFFFFF, 0x40000000, 0};
    tri(with_sub(MK(OP_MAD, PT_S32, D0, A1, B2, C3), MUL_LO), 4, a, b, c, lo);
    /* signed high halves: 0, -1, 0x40000000, -2^30 */
    const uint64_t hs[] = {5, 0, 0x80000000, 0x40000000};
    tri(with_sub(MK(OP_MAD, PT_S32, D0, A1, B2, C3), MUL_HI), 4, a, b, c, hs);
    /* .sat clamps the signed sum: 0x40000000 + 0x40000000, -2^30 + INT_MIN */
    const uint64_t hsat[] = {5, 0, 0x7FFFFFFF, 0x80000000};
    tri(with_flags(with_sub(MK(OP_MAD, PT_S32, D0, A1, B2, C3), MUL_HI), MF_SAT), 4, a, b, c,
        hsat);
    /* u32 hi: 3*4 -> 0; 0xFFFFFFFF*2 -> 1; 2^62 -> 0x40000000; 0x80000000*0x7FFFFFFF
       = 0x3FFFFFFF80000000 -> 0x3FFFFFFF */
    const uint64_t hu2[] = {5, 2, 0x80000000, 0xBFFFFFFF};
    tri(with_sub(MK(OP_MAD, PT_U32, D0, A1, B2, C3), MUL_HI), 4, a, b, c, hu2);

    /* .wide: c and d are 64-bit */
    const uint64_t wa[] = {0xFFFFFFFF, 0xFFFFFFFF};
    const uint64_t wb[] = {2, 2};
    const uint64_t wc[] = {0x100000000, 1};
    const uint64_t wu[] = {0x2FFFFFFFE, 0x1FFFFFFFF};
    const uint64_t wsg[] = {0xFFFFFFFE, 0xFFFFFFFFFFFFFFFF};
    tri(with_sub(MK(OP_MAD, PT_U32, D0, A1, B2, C3), MUL_WIDE), 2, wa, wb, wc, wu);
    tri(with_sub(MK(OP_MAD, PT_S32, D0, A1, B2, C3), MUL_WIDE), 2, wa, wb, wc, wsg);
    const uint64_t a16[] = {0xFFFD}, b16[] = {4}, c16[] = {100}, w16[] = {88};
    tri(with_sub(MK(OP_MAD, PT_S16, D0, A1, B2, C3), MUL_WIDE), 1, a16, b16, c16, w16);

    /* mad.lo with an immediate (generic path) */
    const uint64_t ia[] = {7, 0xFFFFFFFF}, ic[] = {1, 1}, iw[] = {7 * 12 + 1, 0xFFFFFFF5};
    tri(with_sub(MK(OP_MAD, PT_U32, D0, A1, I(12), C3), MUL_LO), 2, ia, ia, ic, iw);

    ptx_insn bad = with_flags(with_sub(MK(OP_MAD, PT_U32, D0, A1, B2, C3), MUL_HI), MF_SAT);
    refused(&bad, "hi.sat.s32");
}

static void test_mul24(void **st)
{
    (void)st;
    const uint64_t a[] = {0x01000003, 0xFFFFFF, 0xFFFFFF, 0x00800000};
    const uint64_t b[] = {5, 0xFFFFFF, 2, 0x00800000};
    const uint64_t lou[] = {15, 0xFE000001, 0x1FFFFFE, 0};
    const uint64_t hiu[] = {0, 0xFFFFFE00, 0x1FF, 0x40000000};
    const uint64_t los[] = {15, 1, 0xFFFFFFFE, 0};
    const uint64_t his[] = {0, 0, 0xFFFFFFFF, 0x40000000};
    bin(with_sub(MK(OP_MUL24, PT_U32, D0, A1, B2), MUL_LO), 4, a, b, lou);
    bin(with_sub(MK(OP_MUL24, PT_U32, D0, A1, B2), MUL_HI), 4, a, b, hiu);
    bin(with_sub(MK(OP_MUL24, PT_S32, D0, A1, B2), MUL_LO), 4, a, b, los);
    bin(with_sub(MK(OP_MUL24, PT_S32, D0, A1, B2), MUL_HI), 4, a, b, his);
    const uint64_t c[] = {1, 2, 10, 0x40000000};
    const uint64_t mlo[] = {16, 3, 8, 0x40000000};
    tri(with_sub(MK(OP_MAD24, PT_S32, D0, A1, B2, C3), MUL_LO), 4, a, b, c, mlo);
    const uint64_t msat[] = {1, 2, 9, 0x7FFFFFFF};
    tri(with_flags(with_sub(MK(OP_MAD24, PT_S32, D0, A1, B2, C3), MUL_HI), MF_SAT), 4, a, b, c,
        msat);
}

static void test_sad_div_rem(void **st)
{
    (void)st;
    const uint64_t a[] = {3, 0xFFFFFFFB, 0};
    const uint64_t b[] = {10, 5, 0xFFFFFFFF};
    const uint64_t c[] = {5, 1, 1};
    const uint64_t su[] = {12, 0xFFFFFFF7, 0};
    const uint64_t ss[] = {12, 11, 2};
    tri(MK(OP_SAD, PT_U32, D0, A1, B2, C3), 3, a, b, c, su);
    tri(MK(OP_SAD, PT_S32, D0, A1, B2, C3), 3, a, b, c, ss);
    const uint64_t a16[] = {0x8000}, b16[] = {0x7FFF}, c16[] = {0}, s16[] = {0xFFFF};
    tri(MK(OP_SAD, PT_S16, D0, A1, B2, C3), 1, a16, b16, c16, s16);

    /* 7/2, x/0, -7/2, 7/-2, INT_MIN/-1, 0/0 */
    const uint64_t da[] = {7, 9, 0xFFFFFFF9, 7, 0x80000000, 0};
    const uint64_t db[] = {2, 0, 2, 0xFFFFFFFE, 0xFFFFFFFF, 0};
    const uint64_t du[] = {3, 0xFFFFFFFF, 0x7FFFFFFC, 0, 0, 0xFFFFFFFF};
    const uint64_t ru[] = {1, 9, 1, 7, 0x80000000, 0};
    const uint64_t dsg[] = {3, 0xFFFFFFFF, 0xFFFFFFFD, 0xFFFFFFFD, 0x80000000, 0xFFFFFFFF};
    const uint64_t rsg[] = {1, 9, 0xFFFFFFFF, 1, 0, 0};
    bin(MK(OP_DIV, PT_U32, D0, A1, B2), 6, da, db, du);
    bin(MK(OP_REM, PT_U32, D0, A1, B2), 6, da, db, ru);
    bin(MK(OP_DIV, PT_S32, D0, A1, B2), 6, da, db, dsg);
    bin(MK(OP_REM, PT_S32, D0, A1, B2), 6, da, db, rsg);

    const uint64_t a64[] = {0x8000000000000000, 5, ~0ull - 6};
    const uint64_t b64[] = {~0ull, 0, 2};
    const uint64_t d64s[] = {0x8000000000000000, ~0ull, ~0ull - 2};
    const uint64_t r64s[] = {0, 5, ~0ull};
    const uint64_t d64u[] = {0, ~0ull, 0x7FFFFFFFFFFFFFFC};
    bin(MK(OP_DIV, PT_S64, D0, A1, B2), 3, a64, b64, d64s);
    bin(MK(OP_REM, PT_S64, D0, A1, B2), 3, a64, b64, r64s);
    bin(MK(OP_DIV, PT_U64, D0, A1, B2), 3, a64, b64, d64u);

    const uint64_t h[] = {5, 0x8000, 0x8000}, hb[] = {0, 0xFFFF, 0};
    const uint64_t hdu[] = {0xFFFF, 0, 0xFFFF}, hds[] = {0xFFFF, 0x8000, 0xFFFF};
    const uint64_t hrs[] = {5, 0, 0x8000};
    bin(MK(OP_DIV, PT_U16, D0, A1, B2), 3, h, hb, hdu);
    bin(MK(OP_DIV, PT_S16, D0, A1, B2), 3, h, hb, hds);
    bin(MK(OP_REM, PT_S16, D0, A1, B2), 3, h, hb, hrs);
}

static void test_abs_neg_min_max(void **st)
{
    (void)st;
    const uint64_t a[] = {0xFFFFFFFB, 0x80000000, 5, 0};
    const uint64_t ab[] = {5, 0x80000000, 5, 0};
    const uint64_t ng[] = {5, 0x80000000, 0xFFFFFFFB, 0};
    una(MK(OP_ABS, PT_S32, D0, A1), 4, a, ab);
    una(MK(OP_NEG, PT_S32, D0, A1), 4, a, ng);
    const uint64_t h[] = {0xFFFF, 0x8000, 1}, hab[] = {1, 0x8000, 1}, hng[] = {1, 0x8000, 0xFFFF};
    una(MK(OP_ABS, PT_S16, D0, A1), 3, h, hab);
    una(MK(OP_NEG, PT_S16, D0, A1), 3, h, hng);
    const uint64_t q[] = {0x8000000000000000, ~0ull}, qab[] = {0x8000000000000000, 1};
    una(MK(OP_ABS, PT_S64, D0, A1), 2, q, qab);
    ptx_insn au = MK(OP_ABS, PT_U32, D0, A1);
    refused(&au, "u32");

    const uint64_t x[] = {0xFFFFFFFF, 0x80000000, 7};
    const uint64_t y[] = {1, 0x7FFFFFFF, 7};
    const uint64_t mnu[] = {1, 0x7FFFFFFF, 7}, mns[] = {0xFFFFFFFF, 0x80000000, 7};
    const uint64_t mxu[] = {0xFFFFFFFF, 0x80000000, 7}, mxs[] = {1, 0x7FFFFFFF, 7};
    bin(MK(OP_MIN, PT_U32, D0, A1, B2), 3, x, y, mnu);
    bin(MK(OP_MIN, PT_S32, D0, A1, B2), 3, x, y, mns);
    bin(MK(OP_MAX, PT_U32, D0, A1, B2), 3, x, y, mxu);
    bin(MK(OP_MAX, PT_S32, D0, A1, B2), 3, x, y, mxs);
    const uint64_t x16[] = {0x8000}, y16[] = {1}, mx16u[] = {0x8000}, mx16s[] = {1};
    bin(MK(OP_MAX, PT_U16, D0, A1, B2), 1, x16, y16, mx16u);
    bin(MK(OP_MAX, PT_S16, D0, A1, B2), 1, x16, y16, mx16s);
    const uint64_t x64[] = {~0ull}, y64[] = {0}, mn64s[] = {~0ull}, mn64u[] = {0};
    bin(MK(OP_MIN, PT_S64, D0, A1, B2), 1, x64, y64, mn64s);
    bin(MK(OP_MIN, PT_U64, D0, A1, B2), 1, x64, y64, mn64u);
    const uint64_t ra[] = {0xFFFFFFFB, 0xFFFFFFFB, 3}, rb[] = {0xFFFFFFFD, 7, 0xFFFFFFFF};
    const uint64_t rmax[] = {0, 7, 3}, rmin[] = {0, 0, 0};
    bin(with_flags(MK(OP_MAX, PT_S32, D0, A1, B2), MF_RELU), 3, ra, rb, rmax);
    bin(with_flags(MK(OP_MIN, PT_S32, D0, A1, B2), MF_RELU), 3, ra, rb, rmin);
}

/* ---- logic and bits -------------------------------------------------------------------- */

static void test_logic(void **st)
{
    (void)st;
    const uint64_t a[] = {0xF0F0F0F0, 0}, b[] = {0xFF00FF00, 0xFFFFFFFF};
    const uint64_t an[] = {0xF000F000, 0}, orr[] = {0xFFF0FFF0, 0xFFFFFFFF};
    const uint64_t xr[] = {0x0FF00FF0, 0xFFFFFFFF}, nt[] = {0x0F0F0F0F, 0xFFFFFFFF};
    const uint64_t cn[] = {0, 1};
    bin(MK(OP_AND, PT_B32, D0, A1, B2), 2, a, b, an);
    bin(MK(OP_OR, PT_B32, D0, A1, B2), 2, a, b, orr);
    bin(MK(OP_XOR, PT_B32, D0, A1, B2), 2, a, b, xr);
    una(MK(OP_NOT, PT_B32, D0, A1), 2, a, nt);
    una(MK(OP_CNOT, PT_B32, D0, A1), 2, a, cn);
    const uint64_t h[] = {0, 0x00FF}, hn[] = {0xFFFF, 0xFF00};
    una(MK(OP_NOT, PT_B16, D0, A1), 2, h, hn);
    const uint64_t q[] = {0}, qn[] = {~0ull};
    una(MK(OP_NOT, PT_B64, D0, A1), 1, q, qn);
    /* cnot looks at the type width only: 0x10000 is zero as .b16 */
    const uint64_t z[] = {0}, one[] = {1};
    una(MK(OP_CNOT, PT_B16, D0, I(0x10000)), 1, z, one);
    /* and.b64 with a sign-extended immediate */
    const uint64_t w[] = {0x123456789ABCDEF0}, wm[] = {0x123456789ABCDEF0 & ~0xFull};
    una(MK(OP_AND, PT_B64, D0, A1, I(-16)), 1, w, wm);

    /* predicates, with a negated source */
    rig g;
    rig_init(&g);
    const uint64_t p[] = {0, 0, 1, 1}, r[] = {0, 1, 0, 1};
    load(&g, 1, 4, p);
    load(&g, 2, 4, r);
    ptx_insn ia = MK(OP_AND, PT_PRED, R(3), A1, B2), io = MK(OP_OR, PT_PRED, R(4), A1, B2);
    ptx_insn ix = MK(OP_XOR, PT_PRED, R(5), A1, B2), in = MK(OP_NOT, PT_PRED, R(6), A1);
    ptx_insn ian = MK(OP_AND, PT_PRED, R(7), NR(1), B2);
    ptx_insn mv = MK(OP_MOV, PT_PRED, R(8), B2);
    run(&g, &ia); run(&g, &io); run(&g, &ix); run(&g, &in); run(&g, &ian); run(&g, &mv);
    const uint64_t wa[] = {0, 0, 0, 1}, wo[] = {0, 1, 1, 1}, wx[] = {0, 1, 1, 0};
    const uint64_t wn[] = {1, 1, 0, 0}, wan[] = {0, 1, 0, 0};
    expect(&g, 3, 4, wa);
    expect(&g, 4, 4, wo);
    expect(&g, 5, 4, wx);
    expect(&g, 6, 4, wn);
    expect(&g, 7, 4, wan);
    expect(&g, 8, 4, r);
}

static void test_lop3(void **st)
{
    (void)st;
    /* with a, b, c = 0xF0, 0xCC, 0xAA in every byte the result is the LUT itself */
    const uint64_t a[] = {0xF0F0F0F0, 0xFFFF0000}, b[] = {0xCCCCCCCC, 0xFF00FF00};
    const uint64_t c[] = {0xAAAAAAAA, 0x12345678};
    const unsigned luts[] = {0x96, 0xE8, 0x80, 0x00, 0xFF, 0xF0, 0x1E};
    const uint64_t second[] = {0x12CBA978, 0xFF345600, 0x12000000, 0, 0xFFFFFFFF, 0xFFFF0000,
                               0xFFFF0000 ^ (0xFF00FF00 | 0x12345678)};
    for (unsigned i = 0; i < N(luts); i++) {
        const uint64_t want[] = {luts[i] * 0x01010101ull, second[i]};
        tri(MK(OP_LOP3, PT_B32, D0, A1, B2, C3, I(luts[i])), 2, a, b, c, want);
    }
    ptx_insn bad = MK(OP_LOP3, PT_B32, D0, A1, B2, C3, R(4));
    refused(&bad, "LUT");
}

static void test_shifts(void **st)
{
    (void)st;
    const uint64_t a[] = {0x80000001, 0x80000001, 0x80000001, 0x80000001, 0x80000001,
                          0x80000001, 0x40000000};
    const uint64_t n[] = {0, 31, 32, 33, 255, 0xFFFFFFFF, 255};
    const uint64_t shl[] = {0x80000001, 0x80000000, 0, 0, 0, 0, 0};
    const uint64_t shru[] = {0x80000001, 1, 0, 0, 0, 0, 0};
    const uint64_t shrs[] = {0x80000001, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF,
                             0xFFFFFFFF, 0};
    bin(MK(OP_SHL, PT_B32, D0, A1, B2), 7, a, n, shl);
    bin(MK(OP_SHR, PT_U32, D0, A1, B2), 7, a, n, shru);
    bin(MK(OP_SHR, PT_B32, D0, A1, B2), 7, a, n, shru);
    bin(MK(OP_SHR, PT_S32, D0, A1, B2), 7, a, n, shrs);

    const uint64_t q[] = {1, 0x8000000000000000, 0x8000000000000000, 3};
    const uint64_t qn[] = {63, 64, 63, 1};
    const uint64_t qshl[] = {0x8000000000000000, 0, 0, 6};
    const uint64_t qshrs[] = {0, ~0ull, ~0ull, 1};
    const uint64_t qshru[] = {0, 0, 1, 1};
    bin(MK(OP_SHL, PT_B64, D0, A1, B2), 4, q, qn, qshl);
    bin(MK(OP_SHR, PT_S64, D0, A1, B2), 4, q, qn, qshrs);
    bin(MK(OP_SHR, PT_U64, D0, A1, B2), 4, q, qn, qshru);

    const uint64_t h[] = {0x8000, 0x8001, 0x8000}, hn[] = {4, 1, 16};
    const uint64_t hs[] = {0xF800, 0xC000, 0xFFFF}, hl[] = {0, 2, 0}, hu[] = {0x800, 0x4000, 0};
    bin(MK(OP_SHR, PT_S16, D0, A1, B2), 3, h, hn, hs);
    bin(MK(OP_SHL, PT_B16, D0, A1, B2), 3, h, hn, hl);
    bin(MK(OP_SHR, PT_U16, D0, A1, B2), 3, h, hn, hu);

    /* immediate amounts: shl.b64 d, a, 2 */
    const uint64_t ia[] = {0x4000000000000001}, iw[] = {4};
    una(MK(OP_SHL, PT_B64, D0, A1, I(2)), 1, ia, iw);
}

static void test_shf(void **st)
{
    (void)st;
    const uint64_t a[] = {0x89ABCDEF, 0x89ABCDEF, 0x89ABCDEF, 0x80000001};
    const uint64_t b[] = {0x01234567, 0x01234567, 0x01234567, 0x80000001};
    const uint64_t c[] = {8, 40, 0, 1};
    const uint64_t lw[] = {0x23456789, 0x23456789, 0x01234567, 3};
    /* clamp: 40 -> 32, and shf.l by 32 returns a */
    const uint64_t lc[] = {0x23456789, 0x89ABCDEF, 0x01234567, 3};
    const uint64_t rw[] = {0x6789ABCD, 0x6789ABCD, 0x89ABCDEF, 0xC0000000};
    const uint64_t rc[] = {0x6789ABCD, 0x01234567, 0x89ABCDEF, 0xC0000000};
    tri(with_flags(with_sub(MK(OP_SHF, PT_B32, D0, A1, B2, C3), SHF_L), MF_WRAP), 4, a, b, c, lw);
    tri(with_flags(with_sub(MK(OP_SHF, PT_B32, D0, A1, B2, C3), SHF_L), MF_CLAMP), 4, a, b, c, lc);
    tri(with_flags(with_sub(MK(OP_SHF, PT_B32, D0, A1, B2, C3), SHF_R), MF_WRAP), 4, a, b, c, rw);
    tri(with_flags(with_sub(MK(OP_SHF, PT_B32, D0, A1, B2, C3), SHF_R), MF_CLAMP), 4, a, b, c, rc);
    ptx_insn bad = with_sub(MK(OP_SHF, PT_B32, D0, A1, B2, C3), SHF_L);
    refused(&bad, "wrap");
}

static void test_bfe_bfi(void **st)
{
    (void)st;
    const uint64_t a[] = {0x12345678, 0x000000F0, 0x12345678, 0x12345678, 0x80000000,
                          0x80000000, 0x12345678};
    const uint64_t p[] = {4, 4, 4, 28, 28, 32, 0x104};
    const uint64_t l[] = {8, 4, 0, 8, 8, 4, 0x108};
    const uint64_t u[] = {0x67, 0xF, 0, 1, 8, 0, 0x67};
    const uint64_t s[] = {0x67, 0xFFFFFFFF, 0, 1, 0xFFFFFFF8, 0xFFFFFFFF, 0x67};
    tri(MK(OP_BFE, PT_U32, D0, A1, B2, C3), 7, a, p, l, u);
    tri(MK(OP_BFE, PT_S32, D0, A1, B2, C3), 7, a, p, l, s);
    const uint64_t q[] = {0x123456789ABCDEF0, 0xF000000000000000, 0x00000000000000F0};
    const uint64_t qp[] = {60, 60, 4}, ql[] = {8, 4, 64};
    const uint64_t qu[] = {1, 0xF, 0xF}, qs[] = {1, ~0ull, 0xF};
    tri(MK(OP_BFE, PT_U64, D0, A1, B2, C3), 3, q, qp, ql, qu);
    tri(MK(OP_BFE, PT_S64, D0, A1, B2, C3), 3, q, qp, ql, qs);

    rig g;
    rig_init(&g);
    const uint64_t ia[] = {0xFF, 0xFF, 0xFF, 0xAB}, ib[] = {0x12345678, 0x12345678, 0x12345678,
                                                           0x12345678};
    const uint64_t ip[] = {8, 8, 32, 28}, il[] = {4, 0, 4, 8};
    load(&g, 1, 4, ia); load(&g, 2, 4, ib); load(&g, 3, 4, ip); load(&g, 4, 4, il);
    ptx_insn bi = MK(OP_BFI, PT_B32, D0, A1, B2, C3, R(4));
    run(&g, &bi);
    const uint64_t iw[] = {0x12345F78, 0x12345678, 0x12345678, 0xB2345678};
    expect(&g, 0, 4, iw);
    rig_init(&g);
    fill(&g, 1, 0xFF); fill(&g, 2, 0); fill(&g, 3, 60); fill(&g, 4, 8);
    ptx_insn b64 = MK(OP_BFI, PT_B64, D0, A1, B2, C3, R(4));
    run(&g, &b64);
    assert_int_equal(*reg(&g, 0, 0), 0xF000000000000000);
}

static void test_bit_counts(void **st)
{
    (void)st;
    const uint64_t a[] = {1, 0x12345678, 0, 0xFFFFFFFF, 0x80000000, 0xF0F0};
    const uint64_t rv[] = {0x80000000, 0x1E6A2C48, 0, 0xFFFFFFFF, 1, 0x0F0F0000};
    const uint64_t pc[] = {1, 13, 0, 32, 1, 8};
    const uint64_t cz[] = {31, 3, 32, 0, 0, 16};
    una(MK(OP_BREV, PT_B32, D0, A1), 6, a, rv);
    una(MK(OP_POPC, PT_B32, D0, A1), 6, a, pc);
    una(MK(OP_CLZ, PT_B32, D0, A1), 6, a, cz);
    const uint64_t q[] = {1, 0x0123456789ABCDEF, 0, ~0ull};
    const uint64_t qrv[] = {0x8000000000000000, 0xF7B3D591E6A2C480, 0, ~0ull};
    const uint64_t qpc[] = {1, 32, 0, 64}, qcz[] = {63, 7, 64, 0};
    una(MK(OP_BREV, PT_B64, D0, A1), 4, q, qrv);
    una(MK(OP_POPC, PT_B64, D0, A1), 4, q, qpc);
    una(MK(OP_CLZ, PT_B64, D0, A1), 4, q, qcz);

    const uint64_t b[] = {0, 1, 0x80000000, 0xFFFFFFFF, 0xFFFFFFFE, 0x40000000};
    const uint64_t fu[] = {0xFFFFFFFF, 0, 31, 31, 31, 30};
    const uint64_t fus[] = {0xFFFFFFFF, 31, 0, 0, 0, 1};
    const uint64_t fs[] = {0xFFFFFFFF, 0, 30, 0xFFFFFFFF, 0, 30};
    const uint64_t fss[] = {0xFFFFFFFF, 31, 1, 0xFFFFFFFF, 31, 1};
    una(MK(OP_BFIND, PT_U32, D0, A1), 6, b, fu);
    una(with_flags(MK(OP_BFIND, PT_U32, D0, A1), MF_SHIFTAMT), 6, b, fus);
    una(MK(OP_BFIND, PT_S32, D0, A1), 6, b, fs);
    una(with_flags(MK(OP_BFIND, PT_S32, D0, A1), MF_SHIFTAMT), 6, b, fss);
    const uint64_t c[] = {1ull << 40, ~0ull, 1, 0};
    const uint64_t f64u[] = {40, 63, 0, 0xFFFFFFFF}, f64s[] = {40, 0xFFFFFFFF, 0, 0xFFFFFFFF};
    const uint64_t f64sa[] = {23, 0, 63, 0xFFFFFFFF};
    una(MK(OP_BFIND, PT_U64, D0, A1), 4, c, f64u);
    una(MK(OP_BFIND, PT_S64, D0, A1), 4, c, f64s);
    una(with_flags(MK(OP_BFIND, PT_U64, D0, A1), MF_SHIFTAMT), 4, c, f64sa);
}

static void test_fns(void **st)
{
    (void)st;
    const uint64_t m[] = {0xAAAAAAAA, 0xAAAAAAAA, 0xAAAAAAAA, 0xAAAAAAAA, 0xAAAAAAAA, 0xAAAAAAAA,
                          0xAAAAAAAA, 0xAAAAAAAA, 0xAAAAAAAA, 0xAAAAAAAA, 0xAAAAAAAA, 0};
    const uint64_t b[] = {3, 3, 2, 2, 2, 1, 0, 0, 31, 31, 40, 5};
    const uint64_t o[] = {1, 0xFFFFFFFF, 1, 0xFFFFFFFF, 0, 0, 16, 17, 0xFFFFFFF0, 0xFFFFFFEF,
                          1, 1};
    const uint64_t w[] = {3, 3, 3, 1, 0xFFFFFFFF, 1, 31, 0xFFFFFFFF, 1, 0xFFFFFFFF, 0xFFFFFFFF,
                          0xFFFFFFFF};
    tri(MK(OP_FNS, PT_B32, D0, A1, B2, C3), 12, m, b, o, w);
}

static void test_prmt(void **st)
{
    (void)st;
    const uint64_t a[] = {0x44332211, 0x44332211, 0x44332211, 0x44332211, 0x44332211};
    const uint64_t b[] = {0x88776655, 0x88776655, 0x88776655, 0x88776655, 0x88776655};
    const uint64_t c[] = {0x3210, 0x7654, 0x0123, 0x000F, 0x0008};
    const uint64_t d[] = {0x44332211, 0x88776655, 0x11223344, 0x111111FF, 0x11111100};
    tri(MK(OP_PRMT, PT_B32, D0, A1, B2, C3), 5, a, b, c, d);

    const uint64_t sel[] = {0, 1, 2, 3, 0xFFFFFFF1};
    const struct { unsigned mode; uint64_t want[5]; } modes[] = {
        {PRMT_F4E, {0x44332211, 0x55443322, 0x66554433, 0x77665544, 0x55443322}},
        {PRMT_B4E, {0x66778811, 0x77881122, 0x88112233, 0x11223344, 0x77881122}},
        {PRMT_RC8, {0x11111111, 0x22222222, 0x33333333, 0x44444444, 0x22222222}},
        {PRMT_ECL, {0x44332211, 0x44332222, 0x44333333, 0x44444444, 0x44332222}},
        {PRMT_ECR, {0x11111111, 0x22222211, 0x33332211, 0x44332211, 0x22222211}},
        {PRMT_RC16, {0x22112211, 0x44334433, 0x22112211, 0x44334433, 0x44334433}},
    };
    for (unsigned i = 0; i < N(modes); i++)
        tri(with_sub(MK(OP_PRMT, PT_B32, D0, A1, B2, C3), modes[i].mode), 5, a, b, sel,
            modes[i].want);
    ptx_insn bad = with_sub(MK(OP_PRMT, PT_B32, D0, A1, B2, C3), 9);
    refused(&bad, "mode");
}

static void test_dp(void **st)
{
    (void)st;
    const uint64_t a[] = {0x01020304, 0xFFFFFFFF, 0xFF000000, 0x00000080};
    const uint64_t b[] = {0x01010101, 0x02020202, 0xFF000000, 0x000000FF};
    const uint64_t c[] = {10, 0, 0, 0};
    ptx_insn uu = MK(OP_DP4A, PT_U32, D0, A1, B2, C3), ss = uu, us = uu, su = uu;
    uu.type2 = PT_U32;
    ss.type = PT_S32; ss.type2 = PT_S32;
    us.type2 = PT_S32;
    su.type = PT_S32; su.type2 = PT_U32;
    /* 1+2+3+4+10; 4*255*2; 255*255; 128*255 */
    const uint64_t wuu[] = {20, 2040, 65025, 32640};
    const uint64_t wss[] = {20, 0xFFFFFFF8, 1, 128};
    const uint64_t wus[] = {20, 2040, 0xFFFFFF01, 0xFFFFFF80};
    const uint64_t wsu[] = {20, 0xFFFFFFF8, 0xFFFFFF01, 0xFFFF8080};
    tri(uu, 4, a, b, c, wuu);
    tri(ss, 4, a, b, c, wss);
    tri(us, 4, a, b, c, wus);
    tri(su, 4, a, b, c, wsu);

    const uint64_t a2[] = {0x00020003, 0xFFFF0001}, b2[] = {0x04030201, 0x000080FF};
    const uint64_t c2[] = {0, 1};
    ptx_insn lo = with_sub(MK(OP_DP2A, PT_U32, D0, A1, B2, C3), MUL_LO), hi = lo, sl = lo;
    lo.type2 = PT_U32;
    hi.type2 = PT_U32; hi.sub = MUL_HI;
    sl.type = PT_S32; sl.type2 = PT_S32;
    /* lo: 3*1 + 2*2; 1*255 + 65535*128 + 1. hi: 3*3 + 2*4; 1*0 + 65535*0 + 1.
       s32: 1*-1 + -1*-128 + 1 = 128 */
    const uint64_t wlo[] = {7, 255 + 65535ull * 128 + 1}, whi[] = {17, 1}, wsl[] = {7, 128};
    tri(lo, 2, a2, b2, c2, wlo);
    tri(hi, 2, a2, b2, c2, whi);
    tri(sl, 2, a2, b2, c2, wsl);
}

/* ---- compare and select ------------------------------------------------------------- */

/* Rows: the 14 float comparisons; columns: (1,2) (2,1) (1,1) (NaN,1) (1,NaN). */
static const struct { unsigned cmp; uint8_t r[5]; } fcmp[] = {
    {CMP_EQ, {0, 0, 1, 0, 0}},  {CMP_NE, {1, 1, 0, 0, 0}},  {CMP_LT, {1, 0, 0, 0, 0}},
    {CMP_LE, {1, 0, 1, 0, 0}},  {CMP_GT, {0, 1, 0, 0, 0}},  {CMP_GE, {0, 1, 1, 0, 0}},
    {CMP_EQU, {0, 0, 1, 1, 1}}, {CMP_NEU, {1, 1, 0, 1, 1}}, {CMP_LTU, {1, 0, 0, 1, 1}},
    {CMP_LEU, {1, 0, 1, 1, 1}}, {CMP_GTU, {0, 1, 0, 1, 1}}, {CMP_GEU, {0, 1, 1, 1, 1}},
    {CMP_NUM, {1, 1, 1, 0, 0}}, {CMP_NAN, {0, 0, 0, 1, 1}},
};

static void setp_matrix(unsigned type, uint64_t one, uint64_t two, uint64_t nan)
{
    const uint64_t a[] = {one, two, one, nan, one}, b[] = {two, one, one, one, nan};
    for (unsigned i = 0; i < N(fcmp); i++) {
        rig g;
        rig_init(&g);
        load(&g, 2, 5, a);
        load(&g, 3, 5, b);
        ptx_insn in = MK(OP_SETP, type, R(0), R(1), R(2), R(3));
        in.cmp = (uint8_t)fcmp[i].cmp;
        run(&g, &in);
        for (unsigned l = 0; l < 5; l++) {
            if (*reg(&g, 0, l) != fcmp[i].r[l] || *reg(&g, 1, l) != (uint64_t)!fcmp[i].r[l])
                fail_msg("setp type %u cmp %u lane %u: p=%llu q=%llu", type, fcmp[i].cmp, l,
                         (unsigned long long)*reg(&g, 0, l),
                         (unsigned long long)*reg(&g, 1, l));
        }
        /* set.<cmp>.u32.<type>: 0xFFFFFFFF / 0, and with an immediate b */
        rig_init(&g);
        load(&g, 1, 5, a);
        load(&g, 2, 5, b);
        ptx_insn s = MK(OP_SET, PT_U32, R(0), R(1), R(2));
        s.type2 = (uint8_t)type;
        s.cmp = (uint8_t)fcmp[i].cmp;
        run(&g, &s);
        for (unsigned l = 0; l < 5; l++)
            assert_int_equal(*reg(&g, 0, l), fcmp[i].r[l] ? 0xFFFFFFFF : 0);
    }
}

static void test_setp_float(void **st)
{
    (void)st;
    setp_matrix(PT_F32, 0x3F800000, 0x40000000, 0x7FC00000);
    setp_matrix(PT_F64, 0x3FF0000000000000, 0x4000000000000000, 0x7FF8000000000000);
    setp_matrix(PT_F16, 0x3C00, 0x4000, 0x7E00);
    setp_matrix(PT_BF16, 0x3F80, 0x4000, 0x7FC0);

    /* -0 == +0; subnormals with and without .ftz; f16 subnormals and infinity */
    rig g;
    rig_init(&g);
    const uint64_t a[] = {0x80000000, 0x00000001, 0x80000001};
    const uint64_t b[] = {0, 0, 0};
    load(&g, 2, 3, a);
    load(&g, 3, 3, b);
    ptx_insn eq = MK(OP_SETP, PT_F32, R(0), NONE(), R(2), R(3));
    eq.cmp = CMP_EQ;
    run(&g, &eq);
    const uint64_t weq[] = {1, 0, 0}, wz[] = {1, 1, 1};
    expect(&g, 0, 3, weq);
    eq.flags = MF_FTZ;
    run(&g, &eq);
    expect(&g, 0, 3, wz);

    rig_init(&g);
    const uint64_t ha[] = {0x0001, 0x0001, 0x7C00, 0xFC00}, hb[] = {0x0002, 0x0000, 0x7BFF, 0xFBFF};
    load(&g, 2, 4, ha);
    load(&g, 3, 4, hb);
    ptx_insn lt = MK(OP_SETP, PT_F16, R(0), NONE(), R(2), R(3));
    lt.cmp = CMP_GT;
    run(&g, &lt);
    const uint64_t wgt[] = {0, 1, 1, 0};
    expect(&g, 0, 4, wgt);
    lt.flags = MF_FTZ;
    lt.cmp = CMP_EQ;
    run(&g, &lt);
    const uint64_t wfz[] = {1, 1, 0, 0};
    expect(&g, 0, 4, wfz);

    /* f16x2: p from the low halves, q from the high halves */
    rig_init(&g);
    fill(&g, 2, 0x3C004000); /* hi 1.0, lo 2.0 */
    fill(&g, 3, 0x40003C00); /* hi 2.0, lo 1.0 */
    ptx_insn x2 = MK(OP_SETP, PT_F16X2, R(0), R(1), R(2), R(3));
    x2.cmp = CMP_GT;
    run(&g, &x2);
    assert_int_equal(*reg(&g, 0, 0), 1);
    assert_int_equal(*reg(&g, 1, 0), 0);
    ptx_insn s2 = MK(OP_SET, PT_F16X2, R(4), R(2), R(3));
    s2.type2 = PT_F16X2;
    s2.cmp = CMP_GT;
    run(&g, &s2);
    assert_int_equal(*reg(&g, 4, 0), 0x00003C00);
    s2.type = PT_U32;
    s2.cmp = CMP_LT;
    run(&g, &s2);
    assert_int_equal(*reg(&g, 4, 0), 0xFFFF0000);
}

static void test_setp_int(void **st)
{
    (void)st;
    rig g;
    rig_init(&g);
    const uint64_t a[] = {0xFFFFFFFF, 0, 5, 0x80000000};
    const uint64_t b[] = {0, 0xFFFFFFFF, 5, 0x7FFFFFFF};
    load(&g, 2, 4, a);
    load(&g, 3, 4, b);
    struct { unsigned type, cmp; uint64_t w[4]; } cases[] = {
        {PT_S32, CMP_LT, {1, 0, 0, 1}}, {PT_U32, CMP_LT, {0, 1, 0, 0}},
        {PT_U32, CMP_LO, {0, 1, 0, 0}}, {PT_U32, CMP_HS, {1, 0, 1, 1}},
        {PT_U32, CMP_LS, {0, 1, 1, 0}}, {PT_U32, CMP_HI, {1, 0, 0, 1}},
        {PT_S32, CMP_GE, {0, 1, 1, 0}}, {PT_B32, CMP_NE, {1, 1, 0, 1}},
        {PT_B32, CMP_EQ, {0, 0, 1, 0}}, {PT_S32, CMP_LE, {1, 0, 1, 1}},
        {PT_S32, CMP_GT, {0, 1, 0, 0}}, {PT_S16, CMP_LT, {1, 0, 0, 0}},
        {PT_U16, CMP_GT, {1, 0, 0, 0}}, {PT_S64, CMP_GT, {1, 0, 0, 1}},
    };
    for (unsigned i = 0; i < N(cases); i++) {
        ptx_insn in = MK(OP_SETP, cases[i].type, R(0), NONE(), R(2), R(3));
        in.cmp = (uint8_t)cases[i].cmp;
        run(&g, &in);
        expect(&g, 0, 4, cases[i].w);
    }
    /* immediate b (sign-extended -1) */
    ptx_insn im = MK(OP_SETP, PT_S32, R(0), NONE(), R(2), I(-1));
    im.cmp = CMP_EQ;
    run(&g, &im);
    const uint64_t wim[] = {1, 0, 0, 0};
    expect(&g, 0, 4, wim);

    ptx_insn lo = MK(OP_SETP, PT_S32, R(0), NONE(), R(2), R(3));
    lo.cmp = CMP_LO;
    refused(&lo, "unsigned");
    lo.cmp = CMP_EQU;
    refused(&lo, "unordered");
    lo.type = PT_B32;
    lo.cmp = CMP_LT;
    refused(&lo, "eq and ne");
    lo.type = PT_F32;
    lo.cmp = CMP_HI;
    refused(&lo, "floating");
}

/* setp.lt.<bool>.s32 p|q, a, b, {!}c over the four (t, c) combinations. */
static void test_setp_bool(void **st)
{
    (void)st;
    const uint64_t a[] = {0, 0, 5, 5}, b[] = {1, 1, 1, 1}, c[] = {1, 0, 1, 0};
    /* t = a < b: 1 1 0 0 */
    const struct { unsigned op; int neg; uint64_t p[4], q[4]; } cases[] = {
        {BOOL_AND, 0, {1, 0, 0, 0}, {0, 0, 1, 0}},
        {BOOL_AND, 1, {0, 1, 0, 0}, {0, 0, 0, 1}},
        {BOOL_OR, 0, {1, 1, 1, 0}, {1, 0, 1, 1}},
        {BOOL_OR, 1, {1, 1, 0, 1}, {0, 1, 1, 1}},
        {BOOL_XOR, 0, {0, 1, 1, 0}, {1, 0, 0, 1}},
        {BOOL_XOR, 1, {1, 0, 0, 1}, {0, 1, 1, 0}},
    };
    for (unsigned i = 0; i < N(cases); i++) {
        rig g;
        rig_init(&g);
        load(&g, 2, 4, a);
        load(&g, 3, 4, b);
        load(&g, 4, 4, c);
        ptx_insn in = MK(OP_SETP, PT_S32, R(0), R(1), R(2), R(3), cases[i].neg ? NR(4) : R(4));
        in.cmp = CMP_LT;
        in.sub = (uint8_t)cases[i].op;
        run(&g, &in);
        expect(&g, 0, 4, cases[i].p);
        expect(&g, 1, 4, cases[i].q);
        /* set.lt.<bool>.f32.s32 gives 1.0f / 0 from the same p */
        ptx_insn s = MK(OP_SET, PT_F32, R(5), R(2), R(3), cases[i].neg ? NR(4) : R(4));
        s.type2 = PT_S32;
        s.cmp = CMP_LT;
        s.sub = (uint8_t)cases[i].op;
        run(&g, &s);
        for (unsigned l = 0; l < 4; l++)
            assert_int_equal(*reg(&g, 5, l), cases[i].p[l] ? 0x3F800000 : 0);
    }
    /* a sink first destination still writes q */
    rig g;
    rig_init(&g);
    load(&g, 2, 4, a);
    load(&g, 3, 4, b);
    fill(&g, 0, SENT);
    ptx_insn sk = MK(OP_SETP, PT_S32, SINK(), R(1), R(2), R(3));
    sk.cmp = CMP_LT;
    run(&g, &sk);
    const uint64_t wq[] = {0, 0, 1, 1};
    expect(&g, 1, 4, wq);
    assert_int_equal(*reg(&g, 0, 0), SENT);
    /* the combine needs c, and c needs a combine */
    ptx_insn noc = MK(OP_SETP, PT_S32, R(0), NONE(), R(2), R(3));
    noc.cmp = CMP_LT;
    noc.sub = BOOL_AND;
    refused(&noc, "operands");
}

static void test_set_dtypes(void **st)
{
    (void)st;
    rig g;
    rig_init(&g);
    fill(&g, 1, 0x3C00);
    fill(&g, 2, 0x3C00);
    *reg(&g, 2, 1) = 0x4000;
    const struct { unsigned d; uint64_t w[2]; } cases[] = {
        {PT_U32, {0xFFFFFFFF, 0}}, {PT_S32, {0xFFFFFFFF, 0}}, {PT_U16, {0xFFFF, 0}},
        {PT_S16, {0xFFFF, 0}},     {PT_F16, {0x3C00, 0}},     {PT_BF16, {0x3F80, 0}},
        {PT_F32, {0x3F800000, 0}},
    };
    for (unsigned i = 0; i < N(cases); i++) {
        ptx_insn s = MK(OP_SET, cases[i].d, R(0), R(1), R(2));
        s.type2 = PT_F16;
        s.cmp = CMP_EQ;
        run(&g, &s);
        expect(&g, 0, 2, cases[i].w);
    }
    ptx_insn bad = MK(OP_SET, PT_B32, R(0), R(1), R(2));
    bad.type2 = PT_S32;
    bad.cmp = CMP_EQ;
    refused(&bad, "not defined");
}

static void test_selp_slct(void **st)
{
    (void)st;
    rig g;
    rig_init(&g);
    const uint64_t p[] = {1, 0, 1, 0};
    fill(&g, 1, 0x1111111122222222);
    fill(&g, 2, 0x3333333344444444);
    load(&g, 3, 4, p);
    ptx_insn s32 = MK(OP_SELP, PT_B32, R(4), R(1), R(2), R(3));
    ptx_insn s64 = MK(OP_SELP, PT_F64, R(5), R(1), R(2), R(3));
    ptx_insn sng = MK(OP_SELP, PT_U64, R(6), R(1), R(2), NR(3));
    ptx_insn s16 = MK(OP_SELP, PT_U16, R(7), I(1), I(0), R(3));
    run(&g, &s32); run(&g, &s64); run(&g, &sng); run(&g, &s16);
    const uint64_t w32[] = {0x22222222, 0x44444444, 0x22222222, 0x44444444};
    const uint64_t w64[] = {0x1111111122222222, 0x3333333344444444, 0x1111111122222222,
                            0x3333333344444444};
    const uint64_t wng[] = {0x3333333344444444, 0x1111111122222222, 0x3333333344444444,
                            0x1111111122222222};
    expect(&g, 4, 4, w32);
    expect(&g, 5, 4, w64);
    expect(&g, 6, 4, wng);
    expect(&g, 7, 4, p);

    /* slct: c >= 0 selects a */
    rig_init(&g);
    fill(&g, 1, 0xAAAA);
    fill(&g, 2, 0xBBBB);
    const uint64_t ci[] = {0, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000};
    load(&g, 3, 4, ci);
    ptx_insn si = MK(OP_SLCT, PT_U32, R(0), R(1), R(2), R(3));
    si.type2 = PT_S32;
    run(&g, &si);
    const uint64_t wi[] = {0xAAAA, 0xBBBB, 0xAAAA, 0xBBBB};
    expect(&g, 0, 4, wi);
    /* -0.0, NaN, -1.0, +inf, -subnormal (b; a under .ftz) */
    const uint64_t cf[] = {0x80000000, 0x7FC00000, 0xBF800000, 0x7F800000, 0x80000001};
    load(&g, 3, 5, cf);
    ptx_insn sf = MK(OP_SLCT, PT_B16, R(0), R(1), R(2), R(3));
    sf.type2 = PT_F32;
    run(&g, &sf);
    const uint64_t wf[] = {0xAAAA, 0xBBBB, 0xBBBB, 0xAAAA, 0xBBBB};
    expect(&g, 0, 5, wf);
    sf.flags = MF_FTZ;
    run(&g, &sf);
    const uint64_t wfz[] = {0xAAAA, 0xBBBB, 0xBBBB, 0xAAAA, 0xAAAA};
    expect(&g, 0, 5, wfz);
}

/* ---- mov -------------------------------------------------------------------------------- */

static void test_mov(void **st)
{
    (void)st;
    rig g;
    rig_init(&g);
    fill(&g, 1, 0x1234567890ABCDEF);
    ptx_insn m64 = MK(OP_MOV, PT_B64, R(2), R(1));
    ptx_insn m32 = MK(OP_MOV, PT_U32, R(3), I(-1));
    ptx_insn m16 = MK(OP_MOV, PT_B16, R(4), I(-2));
    ptx_insn mf = MK(OP_MOV, PT_F32, R(5), I(0x3F800000));
    ptx_insn mp = MK(OP_MOV, PT_PRED, R(6), I(1));
    ptx_insn m8 = MK(OP_MOV, PT_U64, R(7), I(-3));
    run(&g, &m64); run(&g, &m32); run(&g, &m16); run(&g, &mf); run(&g, &mp); run(&g, &m8);
    for (unsigned l = 0; l < WS; l++) {
        assert_int_equal(*reg(&g, 2, l), 0x1234567890ABCDEF);
        assert_int_equal(*reg(&g, 3, l), 0xFFFFFFFF);
        assert_int_equal(*reg(&g, 4, l), 0xFFFE);
        assert_int_equal(*reg(&g, 5, l), 0x3F800000);
        assert_int_equal(*reg(&g, 6, l), 1);
        assert_int_equal(*reg(&g, 7, l), 0xFFFFFFFFFFFFFFFD);
    }
}

/* mov.b64 d, {lo, hi} packs lowest element first; mov.b64 {lo, hi}, d unpacks. */
/* mov from special registers (the binder's per-lane %tid.x path and its read-once path
 * for lane-uniform sources). Warp 1 of a CTA (ctaid 3, 5, 7) of a 2x2x1 grid; lanes
 * 0 .. 31 are threads 32 .. 63.
 *  block (8, 8, 1): %tid.x = t mod 8 -> lane l: (32 + l) mod 8 = l mod 8; %tid.y = t / 8
 *  -> 4 + l / 8; %ctaid.y = 5, %ntid.x = 8, %nctaid.x = 2 in every lane.
 *  block (48, 2, 1) (not a power of two): %tid.x = (32 + l) mod 48 -> 32 + l for l < 16,
 *  l - 16 from lane 16; the same as .u16. Lanes off the mask keep their old value. */
static void test_mov_sreg(void **st)
{
    (void)st;
    func_launch L;
    memset(&L, 0, sizeof L);
    L.ws = WS;
    L.block[0] = 8;
    L.block[1] = 8;
    L.block[2] = 1;
    L.grid[0] = 2;
    L.grid[1] = 2;
    L.grid[2] = 1;
    func_cta cta;
    memset(&cta, 0, sizeof cta);
    cta.L = &L;
    cta.ctaid[0] = 3;
    cta.ctaid[1] = 5;
    cta.ctaid[2] = 7;
    func_warp w;
    memset(&w, 0, sizeof w);
    w.L = &L;
    w.cta = &cta;
    w.wid = 1;
    rig g;
    rig_init(&g);
    g.x.w = &w;
    const ptx_operand tid = {.kind = OK_SREG, .r = SR_TID}, tidy = {.kind = OK_SREG, .r = SR_TID_Y},
                      cy = {.kind = OK_SREG, .r = SR_CTAID_Y}, nt = {.kind = OK_SREG, .r = SR_NTID},
                      nc = {.kind = OK_SREG, .r = SR_NCTAID};
    uint64_t want[WS];
    ptx_insn in = MK(OP_MOV, PT_U32, D0, tid);
    run(&g, &in);
    for (unsigned l = 0; l < WS; l++)
        want[l] = l % 8;
    expect(&g, 0, WS, want);
    in = MK(OP_MOV, PT_U32, D0, tidy);
    run(&g, &in);
    for (unsigned l = 0; l < WS; l++)
        want[l] = 4 + l / 8;
    expect(&g, 0, WS, want);
    in = MK(OP_MOV, PT_U32, D0, cy);
    run(&g, &in);
    for (unsigned l = 0; l < WS; l++)
        want[l] = 5;
    expect(&g, 0, WS, want);
    in = MK(OP_MOV, PT_U32, D0, nt);
    run(&g, &in);
    for (unsigned l = 0; l < WS; l++)
        want[l] = 8;
    expect(&g, 0, WS, want);
    /* a partial mask: lanes 0 .. 3 only, the others keep 8 */
    g.x.mask = 0xF;
    in = MK(OP_MOV, PT_U64, D0, nc);
    run(&g, &in);
    for (unsigned l = 0; l < WS; l++)
        want[l] = l < 4 ? 2 : 8;
    expect(&g, 0, WS, want);
    g.x.mask = ALL;
    L.block[0] = 48;
    L.block[1] = 2;
    in = MK(OP_MOV, PT_U32, D0, tid);
    run(&g, &in);
    for (unsigned l = 0; l < WS; l++)
        want[l] = l < 16 ? 32 + l : l - 16;
    expect(&g, 0, WS, want);
    in = MK(OP_MOV, PT_U16, D0, tid);
    fill(&g, 0, SENT);
    run(&g, &in);
    expect(&g, 0, WS, want);
}

static void test_mov_vector(void **st)
{
    (void)st;
    uint32_t pool[] = {1, 2, 3, 4, 5, 6, UINT32_MAX, 7, 8, 9, 10, 11};
    ptx_module m;
    memset(&m, 0, sizeof m);
    m.pool = pool;
    m.pool_len = N(pool);
    ptx_func f;
    memset(&f, 0, sizeof f);
    f.n_regs = 2 * NREG;   /* (the operands' rows: R) */
    const ptx_operand v2 = {.kind = OK_VEC, .r = 0, .n = 2};   /* {r1, r2} */
    const ptx_operand v4 = {.kind = OK_VEC, .r = 2, .n = 4};   /* {r3, r4, r5, r6} */
    const ptx_operand vs = {.kind = OK_VEC, .r = 5, .n = 2};   /* {r6, _} */
    const ptx_operand v8 = {.kind = OK_VEC, .r = 7, .n = 4};   /* {r7, r8, r9, r10} */
    ptx_insn pack = MK(OP_MOV, PT_B64, R(0), v2);
    ptx_insn unpack = MK(OP_MOV, PT_B64, v2, R(0));
    ptx_insn pack16 = MK(OP_MOV, PT_B64, R(12), v4);
    ptx_insn unpack8 = MK(OP_MOV, PT_B32, v8, R(13));
    ptx_insn sink = MK(OP_MOV, PT_B32, vs, R(14));
    char why[256] = "";
    /* handlers reach the bound program's pool (rows: R) through the warp */
    uint32_t rows[N(pool)];
    for (unsigned i = 0; i < N(pool); i++)
        rows[i] = pool[i] == UINT32_MAX ? UINT32_MAX : 2 * pool[i];
    func_prog prog = {.m = &m, .pool = rows};
    func_launch L;
    memset(&L, 0, sizeof L);
    L.prog = &prog;
    func_warp w;
    memset(&w, 0, sizeof w);
    w.L = &L;
    rig g;
    rig_init(&g);
    g.x.w = &w;
    fill(&g, 1, 0x89ABCDEF);
    fill(&g, 2, 0x01234567);
    exec_fn fn = exec_bind_int(&m, &f, &pack, why, sizeof why);
    assert_non_null(fn);
    fn(&g.x, &pack);
    assert_int_equal(*reg(&g, 0, 5), 0x0123456789ABCDEF);
    fill(&g, 0, 0xFEDCBA9876543210);
    fn = exec_bind_int(&m, &f, &unpack, why, sizeof why);
    assert_non_null(fn);
    fn(&g.x, &unpack);
    assert_int_equal(*reg(&g, 1, 3), 0x76543210);
    assert_int_equal(*reg(&g, 2, 3), 0xFEDCBA98);
    fill(&g, 3, 0x1111); fill(&g, 4, 0x2222); fill(&g, 5, 0x3333); fill(&g, 6, 0x4444);
    fn = exec_bind_int(&m, &f, &pack16, why, sizeof why);
    assert_non_null(fn);
    fn(&g.x, &pack16);
    assert_int_equal(*reg(&g, 12, 0), 0x4444333322221111);
    fill(&g, 13, 0x44332211);
    fn = exec_bind_int(&m, &f, &unpack8, why, sizeof why);
    assert_non_null(fn);
    fn(&g.x, &unpack8);
    assert_int_equal(*reg(&g, 7, 9), 0x11);
    assert_int_equal(*reg(&g, 8, 9), 0x22);
    assert_int_equal(*reg(&g, 9, 9), 0x33);
    assert_int_equal(*reg(&g, 10, 9), 0x44);
    /* {r6, _}: the sink element is dropped */
    fill(&g, 14, 0xBEEF0000CAFE);
    fill(&g, 7, SENT);
    fn = exec_bind_int(&m, &f, &sink, why, sizeof why);
    assert_non_null(fn);
    fn(&g.x, &sink);
    assert_int_equal(*reg(&g, 6, 0), 0xCAFE);
    assert_int_equal(*reg(&g, 7, 0), SENT);
    /* inactive lanes keep their elements */
    g.x.mask = 1;
    fill(&g, 0, 0x1111111122222222);
    fn = exec_bind_int(&m, &f, &unpack, why, sizeof why);
    fn(&g.x, &unpack);
    assert_int_equal(*reg(&g, 1, 0), 0x22222222);
    assert_int_equal(*reg(&g, 1, 1), 0x76543210);

    /* a vector destination of sinks only, and slots outside the pool, are refused */
    const ptx_operand vsinks = {.kind = OK_VEC, .r = 6, .n = 2}; /* {_, r7}: fine */
    ptx_insn ok = MK(OP_MOV, PT_B32, vsinks, R(14));
    assert_non_null(exec_bind_int(&m, &f, &ok, why, sizeof why));
    const ptx_operand vout = {.kind = OK_VEC, .r = 10, .n = 4};
    ptx_insn out = MK(OP_MOV, PT_B64, R(0), vout);
    assert_null(exec_bind_int(&m, &f, &out, why, sizeof why));
    assert_non_null(strstr(why, "pool"));
    const ptx_operand v3 = {.kind = OK_VEC, .r = 0, .n = 3};
    ptx_insn three = MK(OP_MOV, PT_B64, R(0), v3);
    assert_null(exec_bind_int(&m, &f, &three, why, sizeof why));
    assert_non_null(strstr(why, "elements"));
}

/* ---- lanes ------------------------------------------------------------------------------ */

/* Only x->mask lanes are written, on the fast and the generic paths alike. */
static void test_inactive_lanes(void **st)
{
    (void)st;
    const uint64_t mask = 0x5555AAAA;
    ptx_insn ins[] = {
        MK(OP_ADD, PT_S32, D0, A1, B2),               /* register/register */
        MK(OP_ADD, PT_S32, D0, A1, I(3)),             /* register/immediate */
        MK(OP_ADD, PT_S32, D0, I(3), A1),             /* generic */
        MK(OP_XOR, PT_B64, D0, A1, B2),
        MK(OP_NOT, PT_B32, D0, A1),
        MK(OP_MOV, PT_U32, D0, I(9)),
        MK(OP_MOV, PT_U32, D0, A1),
        with_sub(MK(OP_MAD, PT_S32, D0, A1, B2, C3), MUL_LO),
        MK(OP_SELP, PT_B32, D0, A1, B2, C3),
        MK(OP_LOP3, PT_B32, D0, A1, B2, C3, I(0x96)),
        MK(OP_DIV, PT_U32, D0, A1, B2),
        MK(OP_NOT, PT_PRED, D0, C3),
    };
    for (unsigned i = 0; i < N(ins); i++) {
        rig g;
        rig_init(&g);
        g.x.mask = mask;
        fill(&g, 0, SENT);
        for (unsigned l = 0; l < WS; l++) {
            *reg(&g, 1, l) = l + 1;
            *reg(&g, 2, l) = 2 * l + 1;
            *reg(&g, 3, l) = l & 1;
        }
        run(&g, &ins[i]);
        for (unsigned l = 0; l < WS; l++) {
            int on = (mask >> l) & 1;
            if (on == (*reg(&g, 0, l) == SENT))
                fail_msg("insn %u lane %u: %s", i, l, on ? "not written" : "written");
        }
    }
    /* setp with a partial mask */
    rig g;
    rig_init(&g);
    g.x.mask = 0x0F;
    fill(&g, 0, SENT);
    fill(&g, 1, SENT);
    fill(&g, 2, 1);
    fill(&g, 3, 2);
    ptx_insn sp = MK(OP_SETP, PT_U32, R(0), R(1), R(2), R(3));
    sp.cmp = CMP_LT;
    run(&g, &sp);
    for (unsigned l = 0; l < WS; l++) {
        assert_int_equal(*reg(&g, 0, l), l < 4 ? 1 : SENT);
        assert_int_equal(*reg(&g, 1, l), l < 4 ? 0 : SENT);
    }
}

/* Every lane of a full warp gets its own result on the counted-loop path. */
static void test_full_warp(void **st)
{
    (void)st;
    rig g;
    rig_init(&g);
    for (unsigned l = 0; l < WS; l++) {
        *reg(&g, 1, l) = 0xFFFFFFF0 + l;
        *reg(&g, 2, l) = l;
    }
    ptx_insn add = MK(OP_ADD, PT_U32, D0, A1, B2);
    ptx_insn shl = MK(OP_SHL, PT_B32, R(3), B2, B2);
    run(&g, &add);
    run(&g, &shl);
    for (unsigned l = 0; l < WS; l++) {
        assert_int_equal(*reg(&g, 0, l), (0xFFFFFFF0 + 2ull * l) & 0xFFFFFFFF);
        assert_int_equal(*reg(&g, 3, l), l < 32 ? ((uint64_t)l << l) & 0xFFFFFFFF : 0);
    }
}

static void test_refusals(void **st)
{
    (void)st;
    ptx_insn f = MK(OP_ADD, PT_F32, D0, A1, B2);
    refused(&f, "floating");
    ptx_insn addr = MK(OP_ADD, PT_U32, D0, A1, ((ptx_operand){.kind = OK_ADDR}));
    refused(&addr, "operand");
    ptx_insn cnt = MK(OP_ADD, PT_U32, D0, A1);
    refused(&cnt, "operands");
    ptx_insn popc = MK(OP_POPC, PT_B16, D0, A1);
    refused(&popc, "b16");
    ptx_insn ld = MK(OP_LD, PT_U32, D0, A1);
    refused(&ld, "not an integer");
    ptx_insn sl = MK(OP_SLCT, PT_U32, D0, A1, B2, C3);
    sl.type2 = PT_U32;
    refused(&sl, "slct");
    ptx_insn m24 = MK(OP_MUL24, PT_U32, D0, A1, B2);
    refused(&m24, ".lo or .hi");
    ptx_insn mf = MK(OP_MOV, PT_U64, D0, ((ptx_operand){.kind = OK_FUNC, .r = 0}));
    refused(&mf, "function address");
    ptx_insn bad_slot = MK(OP_ADD, PT_U32, D0, A1, R(NREG + 5));
    ptx_func fn;
    memset(&fn, 0, sizeof fn);
    fn.n_regs = NREG;
    char why[256] = "";
    assert_null(exec_bind_int(NULL, &fn, &bad_slot, why, sizeof why));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_sub_wrap),   cmocka_unit_test(test_add_sat),
        cmocka_unit_test(test_carry_chain),    cmocka_unit_test(test_mad_carry),
        cmocka_unit_test(test_mul),            cmocka_unit_test(test_mad),
        cmocka_unit_test(test_mul24),          cmocka_unit_test(test_sad_div_rem),
        cmocka_unit_test(test_abs_neg_min_max), cmocka_unit_test(test_logic),
        cmocka_unit_test(test_lop3),           cmocka_unit_test(test_shifts),
        cmocka_unit_test(test_shf),            cmocka_unit_test(test_bfe_bfi),
        cmocka_unit_test(test_bit_counts),     cmocka_unit_test(test_fns),
        cmocka_unit_test(test_prmt),           cmocka_unit_test(test_dp),
        cmocka_unit_test(test_setp_float),     cmocka_unit_test(test_setp_int),
        cmocka_unit_test(test_setp_bool),      cmocka_unit_test(test_set_dtypes),
        cmocka_unit_test(test_selp_slct),      cmocka_unit_test(test_mov),
        cmocka_unit_test(test_mov_vector),     cmocka_unit_test(test_mov_sreg),     cmocka_unit_test(test_inactive_lanes),
        cmocka_unit_test(test_full_warp),      cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
