/* test_locality.c - seed 001's static locality analysis (ptx/locality.h), the
 * directive embedding and the static-select policy, on hand-written PTX whose
 * blocks, weights and scores are worked out by hand in the comments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sched.h"
#include "ptx/cfg.h"
#include "ptx/locality.h"
#include "gpu/config.h"

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

static ptx_module *parse_ok(const char *text)
{
    ptx_diag d;
    memset(&d, 0, sizeof d);
    ptx_module *m = ptx_parse(text, strlen(text), "test.ptx", &d);
    if (!m)
        fail_msg("parse error %u:%u: %s", d.line, d.col, d.msg);
    return m;
}

static const ptx_func *kernel(const ptx_module *m, const char *name)
{
    int i = ptx_find_func(m, name);
    assert_true(i >= 0);
    return &m->funcs[i];
}

/* Score and decision of kernel `name` in text under o. */
static loc_summary summary_of(const char *text, const char *name, const loc_opts *o)
{
    ptx_module *m = parse_ok(text);
    loc_summary s;
    assert_int_equal(loc_summarize(m, kernel(m, name), o, &s), 0);
    ptx_module_free(m);
    s.directive = NULL;  /* pointed into the freed module */
    return s;
}

/* The seed's figure 8, written as PTX (lines 11..):
 *   %rd1 at depth 0                         w 1            -> block %rd1   1
 *   %rd2 inside `if` (@%p1 bra skips it)    w 2^0/2^1 = .5
 *   loop $Label2: %rd3 w 2, %rd2 again w 2                  -> block %rd2   2.5
 *                                                           -> block %rd3   2
 *   add %rd3 (rewrite), %rd3 at depth 0     w 1            -> block %rd3'  1
 *   score (1 + 2.5 + 2 + 1) / 4 = 1.625 >= 1 -> LRR */
static const char seed_ptx[] = HEAD
    "\n"
    ".visible .entry func1()\n"                  /* line 5  */
    "{\n"
    "\t.reg .pred %p<4>;\n"
    "\t.reg .b32 %r<9>;\n"
    "\t.reg .b64 %rd<4>;\n"
    "\n"
    "\tmov.u64 %rd1, 10;\n"                      /* line 11 */
    "\tmov.u64 %rd2, 100;\n"
    "\tmov.u64 %rd3, 1000;\n"
    "\tld.u32 %r2, [%rd1+0];\n"                  /* line 14 */
    "\tsetp.eq.u32 %p1, %r2, %r3;\n"
    "\t@%p1 bra $Label1;\n"
    "\tld.u32 %r4, [%rd2+0];\n"                  /* line 17 */
    "$Label1:\n"
    "$Label2:\n"
    "\tld.u32 %r7, [%rd3+0];\n"                  /* line 20 */
    "\tld.u32 %r4, [%rd2+4];\n"                  /* line 21 */
    "\tsetp.eq.u32 %p3, %r7, %r8;\n"
    "\t@%p3 bra $Label2;\n"
    "\tadd.u64 %rd3, %rd3, 40;\n"                /* line 24 */
    "\tld.u32 %r7, [%rd3+16];\n"                 /* line 25 */
    "\tret;\n"
    "}\n";

static void t_seed_example(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(seed_ptx);
    const ptx_func *f = kernel(m, "func1");
    loc_opts o;
    loc_opts_default(&o);
    loc_result r;
    assert_int_equal(loc_analyze(m, f, &o, &r), 0);
    assert_int_equal(r.sum.n_blocks, 4);
    assert_int_equal(r.sum.n_acc, 5);
    const double wc[] = {1, 2.5, 2, 1};
    const char *names[] = {"%rd1", "%rd2", "%rd3", "%rd3"};
    const uint32_t first_line[] = {14, 17, 20, 25}, def_line[] = {11, 12, 13, 24};
    const uint32_t n_acc[] = {1, 2, 1, 1};
    for (int b = 0; b < 4; b++) {
        const loc_block *B = &r.blocks[b];
        assert_true(B->wcount == wc[b]);
        assert_int_equal(B->kind, LOC_BASE_REG);
        assert_string_equal(loc_block_name(m, f, B), names[b]);
        assert_int_equal(f->insns[r.acc[B->first_acc].insn].line, first_line[b]);
        assert_int_equal(f->insns[B->def_insn].line, def_line[b]);
        assert_int_equal(B->n_acc, n_acc[b]);
    }
    /* accesses in program order: lines 14 17 20 21 25 */
    const double w[] = {1, 0.5, 2, 2, 1};
    const uint8_t ld[] = {0, 0, 1, 1, 0}, bd[] = {0, 1, 0, 0, 0};
    const uint32_t blk[] = {0, 1, 2, 1, 3};
    for (int i = 0; i < 5; i++) {
        assert_true(r.acc[i].w == w[i]);
        assert_int_equal(r.acc[i].ldepth, ld[i]);
        assert_int_equal(r.acc[i].bdepth, bd[i]);
        assert_int_equal(r.acc[i].block, blk[i]);
    }
    assert_int_equal(r.acc[r.blocks[1].first_acc].next, 3);  /* %rd2: line 17 then 21 */
    assert_int_equal(r.acc[3].next, UINT32_MAX);
    assert_true(r.sum.score == 1.625);
    assert_int_equal(r.sum.lrr, 1);
    assert_int_equal(r.sum.analysis_lrr, 1);
    assert_int_equal(r.sum.source, LOC_SRC_ANALYSIS);
    assert_null(r.sum.directive);
    loc_result_free(&r);

    /* the light path agrees; a threshold above 1.625 chooses GTO */
    loc_summary s;
    assert_int_equal(loc_summarize(m, f, &o, &s), 0);
    assert_true(s.score == 1.625);
    assert_int_equal(s.n_blocks, 4);
    o.threshold = 1.625;
    assert_int_equal(summary_of(seed_ptx, "func1", &o).lrr, 1);  /* >= */
    o.threshold = 2.0;
    assert_int_equal(summary_of(seed_ptx, "func1", &o).lrr, 0);
    ptx_module_free(m);
}

#define K(name, regs, body) HEAD ".visible .entry " name "()\n{\n" regs body "\tret;\n}\n"
#define REGS "\t.reg .pred %p<4>;\n\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<10>;\n"

/* Nested loops: the load in the inner loop has LDepth 2, w = 4; the store in the
 * outer loop w = 2; one block %rd1: 6. */
static void t_nested_loops(void **state)
{
    (void)state;
    static const char ptx[] = K("nested", REGS,
        "\tmov.u64 %rd1, 64;\n"
        "\tmov.u32 %r1, 0;\n"
        "$Louter:\n"
        "\tmov.u32 %r2, 0;\n"
        "$Linner:\n"
        "\tld.global.u32 %r3, [%rd1];\n"
        "\tadd.u32 %r2, %r2, 1;\n"
        "\tsetp.lt.u32 %p1, %r2, 8;\n"
        "\t@%p1 bra $Linner;\n"
        "\tst.global.u32 [%rd1+4], %r3;\n"
        "\tadd.u32 %r1, %r1, 1;\n"
        "\tsetp.lt.u32 %p2, %r1, 8;\n"
        "\t@%p2 bra $Louter;\n");
    ptx_module *m = parse_ok(ptx);
    loc_opts o;
    loc_opts_default(&o);
    loc_result r;
    assert_int_equal(loc_analyze(m, kernel(m, "nested"), &o, &r), 0);
    assert_int_equal(r.sum.n_blocks, 1);
    assert_int_equal(r.sum.n_acc, 2);
    assert_int_equal(r.acc[0].ldepth, 2);
    assert_int_equal(r.acc[0].bdepth, 0);
    assert_true(r.acc[0].w == 4);
    assert_int_equal(r.acc[1].ldepth, 1);
    assert_true(r.acc[1].w == 2);
    assert_true(r.sum.score == 6);
    assert_int_equal(r.sum.lrr, 1);
    loc_result_free(&r);
    ptx_module_free(m);
}

/* A loop inside an `if`: LDepth 1, BDepth 1, w = 2/2 = 1; a load after the if at
 * depth 0 through another register: w 1. Score (1 + 1) / 2 = 1. */
static void t_loop_in_branch(void **state)
{
    (void)state;
    static const char ptx[] = K("lib", REGS,
        "\tmov.u64 %rd1, 64;\n"
        "\tmov.u64 %rd2, 128;\n"
        "\tmov.u32 %r1, 0;\n"
        "\tsetp.eq.u32 %p1, %r5, 0;\n"
        "\t@%p1 bra $Lskip;\n"
        "$Lloop:\n"
        "\tld.global.u32 %r2, [%rd1];\n"
        "\tadd.u32 %r1, %r1, 1;\n"
        "\tsetp.lt.u32 %p2, %r1, 8;\n"
        "\t@%p2 bra $Lloop;\n"
        "$Lskip:\n"
        "\tld.global.u32 %r3, [%rd2];\n");
    ptx_module *m = parse_ok(ptx);
    loc_opts o;
    loc_opts_default(&o);
    loc_result r;
    assert_int_equal(loc_analyze(m, kernel(m, "lib"), &o, &r), 0);
    assert_int_equal(r.sum.n_blocks, 2);
    assert_int_equal(r.acc[0].ldepth, 1);
    assert_int_equal(r.acc[0].bdepth, 1);
    assert_true(r.acc[0].w == 1);
    assert_int_equal(r.acc[1].ldepth, 0);
    assert_int_equal(r.acc[1].bdepth, 0);
    assert_true(r.sum.score == 1);
    assert_int_equal(r.sum.lrr, 1);
    loc_result_free(&r);
    ptx_module_free(m);
}

/* Rewrite inside a loop, in static order: [%rd1] (w 2) is block A; after
 * `add %rd1, %rd1, 4` the loop's second load (w 2) and the store after the loop
 * (w 1) are block B: A = 2, B = 3, score 2.5. Following derived pointers, the
 * add derives from %rd1 (an address, it was accessed through): one block, 5. */
static const char redef_ptx[] = K("redef", REGS,
    "\tmov.u64 %rd1, 64;\n"
    "$Lloop:\n"
    "\tld.global.u32 %r2, [%rd1];\n"
    "\tadd.u64 %rd1, %rd1, 4;\n"
    "\tld.global.u32 %r3, [%rd1];\n"
    "\tadd.u32 %r1, %r1, 1;\n"
    "\tsetp.lt.u32 %p1, %r1, 8;\n"
    "\t@%p1 bra $Lloop;\n"
    "\tst.global.u32 [%rd1], %r3;\n");

static void t_redefinition_in_loop(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(redef_ptx);
    const ptx_func *f = kernel(m, "redef");
    loc_opts o;
    loc_opts_default(&o);
    loc_result r;
    assert_int_equal(loc_analyze(m, f, &o, &r), 0);
    assert_int_equal(r.sum.n_blocks, 2);
    assert_true(r.blocks[0].wcount == 2);
    assert_true(r.blocks[1].wcount == 3);
    assert_int_equal(r.blocks[1].n_acc, 2);
    assert_int_equal(f->insns[r.blocks[1].def_insn].op, OP_ADD);
    assert_true(r.sum.score == 2.5);
    loc_result_free(&r);
    o.follow_derived = 1;
    assert_int_equal(loc_analyze(m, f, &o, &r), 0);
    assert_int_equal(r.sum.n_blocks, 1);
    assert_true(r.blocks[0].wcount == 5);
    assert_int_equal(f->insns[r.blocks[0].def_insn].op, OP_MOV);
    assert_true(r.sum.score == 5);
    loc_result_free(&r);
    ptx_module_free(m);
}

/* The seed's figure 7: three loads through %rd10, `add %rd10, %rd10, 40`, one more:
 * blocks 3 and 1, score 2; following derivations there is one block of 4. */
static void t_seed_figure7(void **state)
{
    (void)state;
    static const char ptx[] = K("fig7", "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<11>;\n",
        "\tld.u32 %r4, [%rd10+0];\n"
        "\tld.u32 %r5, [%rd10+4];\n"
        "\tld.u32 %r6, [%rd10+8];\n"
        "\tadd.u64 %rd10, %rd10, 40;\n"
        "\tld.u32 %r7, [%rd10+16];\n");
    ptx_module *m = parse_ok(ptx);
    const ptx_func *f = kernel(m, "fig7");
    loc_opts o;
    loc_opts_default(&o);
    loc_result r;
    assert_int_equal(loc_analyze(m, f, &o, &r), 0);
    assert_int_equal(r.sum.n_blocks, 2);
    assert_true(r.blocks[0].wcount == 3);
    assert_int_equal(r.blocks[0].def_insn, UINT32_MAX);  /* %rd10 as on entry */
    assert_true(r.blocks[1].wcount == 1);
    assert_true(r.sum.score == 2);
    loc_result_free(&r);
    o.follow_derived = 1;
    loc_summary s;
    assert_int_equal(loc_summarize(m, f, &o, &s), 0);
    assert_int_equal(s.n_blocks, 1);
    assert_true(s.score == 4);
    ptx_module_free(m);
}

/* No memory access: no block, score 0, GTO, whatever the threshold. */
static void t_no_memory(void **state)
{
    (void)state;
    static const char ptx[] = K("nomem", REGS,
        "\tmov.u32 %r1, %tid.x;\n"
        "\tadd.u32 %r2, %r1, 1;\n"
        "\tld.param.u32 %r3, [%rd1];\n");  /* param space: not counted by default */
    loc_opts o;
    loc_opts_default(&o);
    loc_summary s = summary_of(ptx, "nomem", &o);
    assert_int_equal(s.n_blocks, 0);
    assert_int_equal(s.n_acc, 0);
    assert_true(s.score == 0);
    assert_int_equal(s.lrr, 0);
    o.threshold = 0;
    assert_int_equal(summary_of(ptx, "nomem", &o).lrr, 0);
    ptx_module *m = parse_ok(ptx);
    loc_result r;
    assert_int_equal(loc_analyze(m, kernel(m, "nomem"), &o, &r), 0);
    assert_int_equal(r.sum.n_blocks, 0);
    loc_result_free(&r);
    ptx_module_free(m);
}

/* (a) derived pointers: two loads through %rd4 = %rd3 + %rd2 and %rd5 = %rd2 + 128,
 * both under the bounds check (w .5). Seed-literal: two blocks of .5 -> 0.5, GTO.
 * Following derivations both root at the parameter: one block of 1 -> LRR. */
static void t_flag_follow_derived(void **state)
{
    (void)state;
    static const char ptx[] = HEAD
        ".visible .entry k(.param .u64 k_param_0)\n{\n" REGS
        "\tld.param.u64 %rd1, [k_param_0];\n"
        "\tcvta.to.global.u64 %rd2, %rd1;\n"
        "\tmov.u32 %r1, %tid.x;\n"
        "\tsetp.eq.u32 %p1, %r1, 0;\n"
        "\t@%p1 bra $Lend;\n"
        "\tmul.wide.u32 %rd3, %r1, 4;\n"
        "\tadd.s64 %rd4, %rd3, %rd2;\n"
        "\tld.global.u32 %r2, [%rd4];\n"
        "\tadd.s64 %rd5, %rd2, 128;\n"
        "\tld.global.u32 %r3, [%rd5];\n"
        "$Lend:\n"
        "\tret;\n}\n";
    loc_opts o;
    loc_opts_default(&o);
    loc_summary s = summary_of(ptx, "k", &o);
    assert_int_equal(s.n_blocks, 2);
    assert_true(s.score == 0.5);
    assert_int_equal(s.lrr, 0);
    o.follow_derived = 1;
    ptx_module *m = parse_ok(ptx);
    const ptx_func *f = kernel(m, "k");
    loc_result r;
    assert_int_equal(loc_analyze(m, f, &o, &r), 0);
    assert_int_equal(r.sum.n_blocks, 1);
    assert_int_equal(r.blocks[0].kind, LOC_BASE_SYM);
    assert_string_equal(loc_block_name(m, f, &r.blocks[0]), "k_param_0");
    assert_true(r.sum.score == 1);
    assert_int_equal(r.sum.lrr, 1);
    loc_result_free(&r);
    ptx_module_free(m);
}

/* A kernel whose counted block weights are 2 (two accesses X at depth 0) and 0.5 (one
 * ld.global [%rd9] under an if): with X counted (2 + .5) / 2 = 1.25 -> LRR, without
 * it 0.5 -> GTO. */
#define FLAG_KERNEL(x_access)                                                             \
    HEAD ".const .align 4 .b32 csym[4];\n"                                                \
    ".visible .entry f()\n{\n" REGS                                                       \
    "\tmov.u64 %rd1, 64;\n\tmov.u32 %r1, 32;\n"                                          \
    x_access x_access                                                                     \
    "\tsetp.eq.u32 %p1, %r5, 0;\n"                                                        \
    "\t@%p1 bra $Lend;\n"                                                                 \
    "\tld.global.u32 %r3, [%rd9];\n"                                                      \
    "$Lend:\n\tret;\n}\n"

static void flip(const char *ptx, size_t flag_off, uint8_t value, int lrr_default)
{
    loc_opts o;
    loc_opts_default(&o);
    loc_summary s = summary_of(ptx, "f", &o);
    assert_int_equal(s.lrr, lrr_default);
    assert_true(s.score == (lrr_default ? 1.25 : 0.5));
    *((uint8_t *)&o + flag_off) = value;
    s = summary_of(ptx, "f", &o);
    assert_int_equal(s.lrr, !lrr_default);
    assert_true(s.score == (lrr_default ? 0.5 : 1.25));
}

static void t_flag_spaces(void **state)
{
    (void)state;
    /* (b) generic loads count unless global_only */
    flip(FLAG_KERNEL("\tld.u32 %r2, [%rd1];\n"), offsetof(loc_opts, global_only), 1, 1);
    /* (c) shared accesses count only with `shared` */
    flip(FLAG_KERNEL("\tld.shared.u32 %r2, [%r1];\n"), offsetof(loc_opts, shared), 1, 0);
    /* (d) stores count unless `stores` is off */
    flip(FLAG_KERNEL("\tst.global.u32 [%rd1], %r2;\n"), offsetof(loc_opts, stores), 0, 1);
    /* (d) const (and param, local) accesses count only with other_spaces; a [symbol]
     * address is one block per symbol */
    flip(FLAG_KERNEL("\tld.const.u32 %r2, [csym+4];\n"), offsetof(loc_opts, other_spaces), 1, 0);
    flip(FLAG_KERNEL("\tld.local.u32 %r2, [%rd1];\n"), offsetof(loc_opts, other_spaces), 1, 0);
    /* atomics count only with `atomics` (red too) */
    flip(FLAG_KERNEL("\tatom.global.add.u32 %r2, [%rd1], 1;\n"), offsetof(loc_opts, atomics), 1, 0);
    flip(FLAG_KERNEL("\tred.global.add.u32 [%rd1], 1;\n"), offsetof(loc_opts, atomics), 1, 0);
    /* a global store is counted with global_only (only generic ones drop) */
    loc_opts o;
    loc_opts_default(&o);
    o.global_only = 1;
    assert_true(summary_of(FLAG_KERNEL("\tst.global.u32 [%rd1], %r2;\n"), "f", &o).score == 1.25);
}

/* A predicated access: w 1 (LRR at threshold 1); as one more branch level 0.5 (GTO). */
static void t_flag_guards(void **state)
{
    (void)state;
    static const char ptx[] = K("g", REGS,
        "\tsetp.eq.u32 %p1, %r5, 0;\n"
        "\t@%p1 ld.global.u32 %r2, [%rd1];\n");
    loc_opts o;
    loc_opts_default(&o);
    loc_summary s = summary_of(ptx, "g", &o);
    assert_true(s.score == 1);
    assert_int_equal(s.lrr, 1);
    o.guards = 1;
    s = summary_of(ptx, "g", &o);
    assert_true(s.score == 0.5);
    assert_int_equal(s.lrr, 0);
}

/* Directives: a kernel's `.pol` overrides the analysis (and a module pragma); a
 * module pragma applies to kernels without their own; unknown names are ignored;
 * static_directives = false ignores them all. */
static void t_directives(void **state)
{
    (void)state;
    static const char ptx[] = HEAD
        ".pragma \"warpsim.policy LRR\";\n"
        ".visible .entry a()\n{\n" REGS "\t.pol \"GTO\";\n\tld.u32 %r1, [%rd1];\n\tret;\n}\n"
        ".visible .entry b()\n{\n" REGS "\tret;\n}\n"
        ".visible .entry c()\n{\n" REGS "\t.pragma \"warpsim.policy motrr\";\n\tret;\n}\n";
    ptx_module *m = parse_ok(ptx);
    loc_opts o;
    loc_opts_default(&o);
    loc_summary s;
    assert_int_equal(loc_summarize(m, kernel(m, "a"), &o, &s), 0);
    assert_int_equal(s.analysis_lrr, 1);  /* one block of 1 */
    assert_int_equal(s.lrr, 0);
    assert_int_equal(s.source, LOC_SRC_FUNC);
    assert_string_equal(s.directive, "GTO");
    assert_int_equal(loc_summarize(m, kernel(m, "b"), &o, &s), 0);
    assert_int_equal(s.analysis_lrr, 0);  /* no access */
    assert_int_equal(s.lrr, 1);
    assert_int_equal(s.source, LOC_SRC_MODULE);
    assert_int_equal(loc_summarize(m, kernel(m, "c"), &o, &s), 0);
    assert_int_equal(s.directive_unknown, 1);
    assert_string_equal(s.directive, "motrr");
    assert_int_equal(s.source, LOC_SRC_ANALYSIS);
    assert_int_equal(s.lrr, 0);
    o.directives = 0;
    assert_int_equal(loc_summarize(m, kernel(m, "a"), &o, &s), 0);
    assert_int_equal(s.lrr, 1);
    assert_int_equal(s.source, LOC_SRC_ANALYSIS);
    assert_null(s.directive);
    assert_int_equal(loc_summarize(m, kernel(m, "b"), &o, &s), 0);
    assert_int_equal(s.lrr, 0);
    ptx_module_free(m);
}

/* The analysis options are static-select's own [sched] static_* parameters: their
 * defaults are loc_opts_default, and each key lands in its field. */
static void t_config_keys(void **state)
{
    (void)state;
    ws_config c;
    ws_config_defaults(&c);
    loc_opts a, b;
    loc_opts_default(&a);
    memset(&b, 0x55, sizeof b);
    assert_int_equal(ws_config_params(&c, "static-select", &b, sizeof b), 0);
    assert_true(b.threshold == a.threshold);
    assert_memory_equal(&a.follow_derived, &b.follow_derived,
                        sizeof a - offsetof(loc_opts, follow_derived));
    char err[256];
    assert_int_equal(ws_config_set(&c, "sched.static_threshold=2.5,sched.static_shared=true,"
                                       "sched.static_follow_derived=1,sched.static_stores=false,"
                                       "sched.static_global_only=on,sched.static_other_spaces=yes,"
                                       "sched.static_atomics=true,sched.static_guards=true,"
                                       "sched.static_directives=false",
                                   err, sizeof err),
                     0);
    assert_int_equal(ws_config_params(&c, "static-select", &b, sizeof b), 0);
    assert_true(b.threshold == 2.5);
    assert_int_equal(b.shared, 1);
    assert_int_equal(b.follow_derived, 1);
    assert_int_equal(b.stores, 0);
    assert_int_equal(b.global_only, 1);
    assert_int_equal(b.other_spaces, 1);
    assert_int_equal(b.atomics, 1);
    assert_int_equal(b.guards, 1);
    assert_int_equal(b.directives, 0);
    assert_int_not_equal(ws_config_set(&c, "sched.static_threshold=-1", err, sizeof err), 0);
}

static void t_cache(void **state)
{
    (void)state;
    ptx_module *m = parse_ok(seed_ptx);
    loc_opts o;
    loc_opts_default(&o);
    loc_cache *c = loc_cache_new(m, &o);
    assert_non_null(c);
    const loc_summary *s = loc_cache_get(c, (uint32_t)ptx_find_func(m, "func1"));
    assert_non_null(s);
    assert_true(s->score == 1.625);
    assert_ptr_equal(loc_cache_get(c, (uint32_t)ptx_find_func(m, "func1")), s);
    assert_null(loc_cache_get(c, m->n_funcs));
    loc_cache_free(c);
    ptx_module_free(m);
}

/* The directive lands at the top of each kernel body and reads back; comments and
 * strings with braces before the body do not confuse it. */
static void t_annotate(void **state)
{
    (void)state;
    static const char ptx[] = HEAD
        ".visible .entry a( /* { */ .param .u64 a_p // {\n)\n.maxntid 64, 1, 1\n{\n" REGS
        "\tret;\n}\n"
        ".func helper()\n{\n\tret;\n}\n"
        ".visible .entry b()\n{\n" REGS "\tret;\n}\n";
    ptx_module *m = parse_ok(ptx);
    char pick[3] = {0};
    pick[ptx_find_func(m, "a")] = 'L';
    pick[ptx_find_func(m, "b")] = 'G';
    pick[ptx_find_func(m, "helper")] = 'L';  /* not a kernel: left alone */
    const int forms[] = {LOC_FORM_SEED, LOC_FORM_PRAGMA, LOC_FORM_BOTH};
    const char *needle[] = {"{\n\t.pol \"LRR\";\n", "{\n\t.pragma \"warpsim.policy LRR\";\n",
                            "{\n\t// .pol \"LRR\";"};
    for (int i = 0; i < 3; i++) {
        char err[256];
        size_t n = 0;
        char *out = loc_annotate(ptx, strlen(ptx), m, pick, forms[i], &n, err, sizeof err);
        assert_non_null(out);
        assert_int_equal(n, strlen(out));
        assert_non_null(strstr(out, needle[i]));
        ptx_module *back = parse_ok(out);
        assert_string_equal(back->funcs[ptx_find_func(back, "a")].policy, "LRR");
        assert_string_equal(back->funcs[ptx_find_func(back, "b")].policy, "GTO");
        assert_null(back->funcs[ptx_find_func(back, "helper")].policy);
        assert_null(back->policy);
        /* only the directive lines were added */
        assert_int_equal(back->funcs[ptx_find_func(back, "b")].n_insns,
                         m->funcs[ptx_find_func(m, "b")].n_insns);
        ptx_module_free(back);
        free(out);
    }
    char err[256];
    size_t n;
    assert_null(loc_annotate(ptx, strlen(ptx), m, pick, 7, &n, err, sizeof err));
    ptx_module_free(m);
}

/* Every kernel of every bench/NAME/NAME.ptx: the analysis runs (default options and every
 * switch flipped), its numbers are consistent, and the light path agrees. */
static void check_kernel(const ptx_module *m, const ptx_func *f, const loc_opts *o)
{
    loc_result r;
    assert_int_equal(loc_analyze(m, f, o, &r), 0);
    double sum = 0;
    uint32_t nacc = 0;
    for (uint32_t b = 0; b < r.sum.n_blocks; b++) {
        double wc = 0;
        uint32_t k = 0;
        for (uint32_t i = r.blocks[b].first_acc; i != UINT32_MAX; i = r.acc[i].next, k++) {
            assert_int_equal(r.acc[i].block, b);
            assert_true(r.acc[i].insn < f->n_insns);
            assert_true(r.acc[i].w == ldexp(1.0, (int)r.acc[i].ldepth - (int)r.acc[i].bdepth));
            wc += r.acc[i].w;
        }
        assert_int_equal(k, r.blocks[b].n_acc);
        assert_true(fabs(wc - r.blocks[b].wcount) < 1e-9);
        sum += wc;
        nacc += k;
    }
    assert_int_equal(nacc, r.sum.n_acc);
    double score = r.sum.n_blocks ? sum / r.sum.n_blocks : 0;
    assert_true(fabs(score - r.sum.score) < 1e-9 * (1 + score));
    assert_true(isfinite(r.sum.score) && r.sum.score >= 0);
    assert_int_equal(r.sum.analysis_lrr, r.sum.n_blocks > 0 && r.sum.score >= o->threshold);
    loc_summary s;
    assert_int_equal(loc_summarize(m, f, o, &s), 0);
    assert_true(s.score == r.sum.score);
    assert_int_equal(s.lrr, r.sum.lrr);
    loc_result_free(&r);
}

static void t_bench_kernels(void **state)
{
    (void)state;
    char pat[1024];
    snprintf(pat, sizeof pat, "%s/bench/*/*.ptx", WS_SOURCE_DIR);
    glob_t g;
    assert_int_equal(glob(pat, 0, NULL, &g), 0);
    assert_true(g.gl_pathc >= 30);
    uint32_t kernels = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        FILE *fp = fopen(g.gl_pathv[i], "rb");
        assert_non_null(fp);
        fseek(fp, 0, SEEK_END);
        long len = ftell(fp);
        fseek(fp, 0, SEEK_SET);
        char *text = malloc((size_t)len + 1);
        assert_non_null(text);
        assert_int_equal(fread(text, 1, (size_t)len, fp), (size_t)len);
        text[len] = 0;
        fclose(fp);
        ptx_diag d;
        ptx_module *m = ptx_parse(text, (size_t)len, g.gl_pathv[i], &d);
        if (!m)
            fail_msg("%s:%u:%u: %s", g.gl_pathv[i], d.line, d.col, d.msg);
        for (uint32_t k = 0; k < m->n_funcs; k++) {
            const ptx_func *f = &m->funcs[k];
            if (!f->is_entry || f->is_decl)
                continue;
            kernels++;
            loc_opts o;
            loc_opts_default(&o);
            check_kernel(m, f, &o);
            o.follow_derived = o.shared = o.other_spaces = o.atomics = o.guards = 1;
            o.global_only = 1;
            o.stores = 0;
            check_kernel(m, f, &o);
        }
        char pick[256] = {0};
        for (uint32_t k = 0; k < m->n_funcs && k < sizeof pick; k++)
            pick[k] = m->funcs[k].is_entry && !m->funcs[k].is_decl ? 'L' : 0;
        char err[256];
        size_t n;
        char *out = loc_annotate(text, (size_t)len, m, pick, LOC_FORM_BOTH, &n, err, sizeof err);
        if (!out)
            fail_msg("%s: %s", g.gl_pathv[i], err);
        ptx_module *back = parse_ok(out);
        for (uint32_t k = 0; k < back->n_funcs; k++)
            if (pick[k])
                assert_string_equal(back->funcs[k].policy, "LRR");
        ptx_module_free(back);
        free(out);
        ptx_module_free(m);
        free(text);
    }
    assert_true(kernels >= 40);
    globfree(&g);
}

/* static-select wraps gto or lrr. Three ready warps, slot 2 issued last: GTO keeps
 * slot 2 (greedy), LRR moves on to slot 0 (the next one, wrapping). */
static int pick_after_issue(const sched_params *p)
{
    const sched_ops *ops = sched_find("static-select");
    assert_non_null(ops);
    void *st = ops->create(3, p);
    assert_non_null(st);
    sched_cand c[3];
    memset(c, 0, sizeof c);
    for (uint32_t i = 0; i < 3; i++) {
        c[i].slot = i;
        c[i].age = i;
        c[i].reason = WR_READY;
    }
    ops->on_issue(st, 2, 0, 10);
    int k = ops->pick(st, c, 3, 11);
    ops->on_warp_end(st, 1, 12);
    ops->on_mem_done(st, 0, 12);
    ops->on_warp_start(st, 1, 13);
    ops->destroy(st);
    return k;
}

/* static-select decides in its on_launch hook from its own parameters and reports the
 * decision through its label op; create then wraps the chosen policy. */
static void t_sched_static(void **state)
{
    (void)state;
    const sched_ops *ops = sched_find("static-select");
    assert_non_null(ops);
    assert_non_null(ops->on_launch);
    assert_non_null(ops->label);
    ptx_module *m = parse_ok(seed_ptx);
    sched_kernel k = {m, kernel(m, "func1")};
    static const char *const sets[] = {"sched.static_threshold=1", "sched.static_threshold=100"};
    static const char *const want[] = {"static-select(lrr)", "static-select(gto)"};
    static const int pick[] = {0, 2};   /* LRR moves on; GTO stays greedy */
    for (int i = 0; i < 2; i++) {
        ws_config c;
        char err[256];
        ws_config_defaults(&c);
        assert_int_equal(ws_config_set(&c, sets[i], err, sizeof err), 0);
        loc_opts lo;
        assert_int_equal(ws_config_params(&c, "static-select", &lo, sizeof lo), 0);
        uint32_t quantum = 0;   /* lrr's parameters: sched.lrr_quantum */
        assert_int_equal(ws_config_params(&c, "lrr", &quantum, sizeof quantum), 0);
        const void *all[16] = {0};
        for (size_t j = 0; sched_at(j); j++) {
            assert_true(j < 16);
            if (sched_at(j) == ops)
                all[j] = &lo;
            else if (sched_at(j) == sched_find("lrr"))
                all[j] = &quantum;
        }
        sched_params sp = {.params = &lo, .all = all};
        assert_int_equal(ops->on_launch(&sp, &k, err, sizeof err), 0);
        assert_string_equal(ops->label(&sp), want[i]);
        assert_int_equal(pick_after_issue(&sp), pick[i]);
    }
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_seed_example),
        cmocka_unit_test(t_nested_loops),
        cmocka_unit_test(t_loop_in_branch),
        cmocka_unit_test(t_redefinition_in_loop),
        cmocka_unit_test(t_seed_figure7),
        cmocka_unit_test(t_no_memory),
        cmocka_unit_test(t_flag_follow_derived),
        cmocka_unit_test(t_flag_spaces),
        cmocka_unit_test(t_flag_guards),
        cmocka_unit_test(t_directives),
        cmocka_unit_test(t_config_keys),
        cmocka_unit_test(t_cache),
        cmocka_unit_test(t_annotate),
        cmocka_unit_test(t_bench_kernels),
        cmocka_unit_test(t_sched_static),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
