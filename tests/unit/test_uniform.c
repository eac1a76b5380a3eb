/* test_uniform.c - the uniformity analysis (ptx/uniform.c) on hand-built kernels: the
 * class of every instruction is worked out by hand in the comment beside it
 * (V vector, S scalar ALU, M scalar memory, U uniform branch, D divergent branch). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/uniform.h"

static const char *const HDR =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in, .param .u32 n)\n{\n"
    ".reg .pred %p<8>;\n.reg .b32 %r<40>;\n.reg .f32 %f<20>;\n.reg .b64 %rd<40>;\n"
    ".shared .align 4 .b8 sm[1024];\n";

/* Parses HDR + body + "}", analyses kernel k and compares each instruction's class
 * with `want` (one letter per instruction, in order). */
static void check(const char *body, const char *want)
{
    size_t cap = strlen(HDR) + strlen(body) + 8;
    char *src = malloc(cap);
    snprintf(src, cap, "%s%s\n}\n", HDR, body);
    ptx_diag d;
    memset(&d, 0, sizeof d);
    ptx_module *m = ptx_parse(src, strlen(src), "u.ptx", &d);
    if (!m)
        fprintf(stderr, "parse: %s\n", d.msg);
    assert_non_null(m);
    const ptx_func *f = &m->funcs[0];
    ptx_uniform u;
    assert_int_equal(ptx_uniform_analyze(m, f, &u), 0);
    static const char letter[UC__COUNT] = {'V', 'S', 'M', 'U', 'D'};
    char got[256];
    uint32_t n = f->n_insns < 255 ? f->n_insns : 255;
    for (uint32_t i = 0; i < n; i++)
        got[i] = letter[u.cls[i]];
    got[n] = 0;
    assert_string_equal(got, want);
    uint32_t sum = 0;
    for (int k = 0; k < UC__COUNT; k++)
        sum += u.count[k];
    assert_int_equal(sum, f->n_insns);
    ptx_uniform_free(&u);
    ptx_module_free(m);
    free(src);
}

/* Straight-line code: parameters, %ctaid, %ntid and constants are uniform; %tid is
 * not; floating point never goes to the (integer) scalar ALU. */
static void t_straight(void **state)
{
    (void)state;
    check("ld.param.u64 %rd1, [out];\n"          /* M  kernel parameter, uniform address      */
          "ld.param.u32 %r1, [n];\n"             /* M                                          */
          "mov.u32 %r2, %ctaid.x;\n"             /* S  %ctaid                                  */
          "mov.u32 %r3, %ntid.x;\n"              /* S  %ntid                                   */
          "mul.lo.s32 %r4, %r2, %r3;\n"          /* S  uniform x uniform                       */
          "mov.u32 %r5, %tid.x;\n"               /* V  %tid varies                             */
          "add.s32 %r6, %r4, %r5;\n"             /* V  uniform + varying                       */
          "cvta.to.global.u64 %rd2, %rd1;\n"     /* S  uniform pointer                         */
          "mul.wide.s32 %rd3, %r6, 4;\n"         /* V                                          */
          "add.s64 %rd4, %rd2, %rd3;\n"          /* V  per-lane address                        */
          "ld.global.u32 %r7, [%rd4];\n"         /* V  vector load                             */
          "ld.global.u32 %r8, [%rd2];\n"         /* V  uniform address, but not read-only      */
          "ld.global.nc.u32 %r9, [%rd2];\n"      /* M  read-only, uniform address              */
          "add.s32 %r10, %r8, %r9;\n"            /* S  both loaded values are uniform          */
          "mov.f32 %f1, 0f3F800000;\n"           /* V  float: no scalar float unit             */
          "st.global.u32 [%rd4], %r10;\n"        /* V                                          */
          "ret;",                                /* U                                          */
          "MMSSSVVSVVVVMSVVU");
}

/* A branch on a uniform predicate is uniform; one on %tid is divergent, and what is
 * written inside its region is varying afterwards (control dependence). */
static void t_control(void **state)
{
    (void)state;
    check("ld.param.u32 %r1, [n];\n"             /* 0 M                                        */
          "mov.u32 %r2, %ctaid.x;\n"             /* 1 S                                        */
          "setp.ge.u32 %p1, %r2, %r1;\n"         /* 2 S  uniform predicate                     */
          "@%p1 bra DONE;\n"                     /* 3 U                                        */
          "mov.u32 %r3, %tid.x;\n"               /* 4 V                                        */
          "mov.u32 %r4, 7;\n"                    /* 5 V  %r4 is also written in the region of 7:
                                                    uniformity is per register, not per definition */
          "setp.eq.u32 %p2, %r3, 0;\n"           /* 6 V  varying predicate                     */
          "@%p2 bra SKIP;\n"                     /* 7 D                                        */
          "mov.u32 %r4, 9;\n"                    /* 8 V  in the region of 7: %r4 now varies     */
          "SKIP:\n"
          "add.s32 %r5, %r4, 1;\n"               /* 9 V  reads %r4 after the join              */
          "add.s32 %r6, %r1, 1;\n"               /* 10 S untouched by the divergence           */
          "DONE:\n"
          "ret;",                                /* 11 U                                       */
          "MSSUVVVDVVSU");
}

/* A loop whose trip count is uniform keeps its induction variable uniform; a loop
 * that exits on a varying condition makes the values it carries varying. Loads
 * through the local window or from shared memory with a varying address are vector. */
static void t_loops(void **state)
{
    (void)state;
    check("mov.u32 %r1, 0;\n"                    /* 0 S                                        */
          "mov.u32 %r9, %tid.x;\n"               /* 1 V                                        */
          "L1:\n"
          "add.s32 %r1, %r1, 1;\n"               /* 2 S  uniform induction variable            */
          "setp.lt.u32 %p1, %r1, 8;\n"           /* 3 S                                        */
          "@%p1 bra L1;\n"                       /* 4 U                                        */
          "mov.u32 %r2, 0;\n"                    /* 5 V  loop-carried below, exits per lane    */
          "L2:\n"
          "add.s32 %r2, %r2, 1;\n"               /* 6 V  in the region of the divergent 8      */
          "setp.lt.u32 %p2, %r2, %r9;\n"         /* 7 V                                        */
          "@%p2 bra L2;\n"                       /* 8 D                                        */
          "shl.b32 %r3, %r9, 2;\n"               /* 9 V                                        */
          "mov.u32 %r4, sm;\n"                   /* 10 S a symbol's address                    */
          "add.s32 %r5, %r4, %r3;\n"             /* 11 V                                       */
          "ld.shared.u32 %r6, [%r5];\n"          /* 12 V LDS, varying address                  */
          "ld.shared.u32 %r7, [sm];\n"           /* 13 V LDS (uniform value, not scalar memory) */
          "bar.sync 0;\n"                        /* 14 U                                       */
          "ret;",                                /* 15 U                                       */
          "SVSSUVVVDVSVVVUU");
}

/* Atomics and shuffles return per-lane values; vote returns a uniform one (so what
 * is computed from it is scalar); a write under a varying guard makes its destination
 * varying. */
static void t_collectives(void **state)
{
    (void)state;
    check("ld.param.u64 %rd1, [out];\n"          /* 0 M                                        */
          "mov.u32 %r1, %tid.x;\n"               /* 1 V                                        */
          "setp.eq.u32 %p1, %r1, 3;\n"           /* 2 V                                        */
          "vote.sync.any.pred %p2, %p1, -1;\n"   /* 3 V  reads a varying predicate (VALU compare),
                                                    writes a uniform one                        */
          "selp.u32 %r2, 1, 0, %p2;\n"           /* 4 S                                        */
          "atom.global.add.u32 %r3, [%rd1], 1;\n"/* 5 V  per-lane old values                   */
          "shfl.sync.idx.b32 %r4, %r2, 0, 31, -1;\n" /* 6 V                                    */
          "mov.u32 %r5, 1;\n"                    /* 7 V  %r5 is partly rewritten at 8            */
          "@%p1 mov.u32 %r5, 2;\n"               /* 8 V  partial write under a varying guard   */
          "add.s32 %r6, %r5, %r2;\n"             /* 9 V                                        */
          "ret;",                                /* 10 U                                       */
          "MVVVSVVVVVU");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_straight),
        cmocka_unit_test(t_control),
        cmocka_unit_test(t_loops),
        cmocka_unit_test(t_collectives),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
