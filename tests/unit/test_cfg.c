/* test_cfg.c - blocks, reconvergence points, loops and branch depth on small
 * hand-built instruction sequences whose answers are worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ptx/cfg.h"

static ptx_insn I(int op) { ptx_insn in; memset(&in, 0, sizeof in); in.op = (uint16_t)op; in.guard = -1; return in; }
static ptx_insn BRA(uint32_t target, int guarded)
{
    ptx_insn in = I(OP_BRA);
    in.guard = guarded ? 0 : -1;
    in.nops = 1;
    in.ops[0].kind = OK_LABEL;
    in.ops[0].r = target;
    return in;
}

static void build(ptx_func *f, ptx_insn *insns, uint32_t n)
{
    memset(f, 0, sizeof *f);
    f->insns = insns;
    f->n_insns = n;
    assert_int_equal(ptx_cfg_build(NULL, f), 0);
}

/* 0 setp; 1 @p bra 4; 2 add; 3 bra 5; 4 sub; 5 add; 6 ret
 * blocks B0[0,1] B1[2,3] B2[4] B3[5,6]; the diamond reconverges at 5. */
static void t_diamond(void **state)
{
    (void)state;
    ptx_insn in[] = {I(OP_SETP), BRA(4, 1), I(OP_ADD), BRA(5, 0), I(OP_SUB), I(OP_ADD), I(OP_RET)};
    ptx_func f;
    build(&f, in, 7);
    ptx_cfg *c = f.cfg;
    assert_int_equal(c->n_blocks, 4);
    assert_int_equal(c->blocks[0].last, 1);
    assert_int_equal(c->blocks[3].first, 5);
    assert_int_equal(c->blocks[0].ipdom, 3);
    assert_int_equal(c->blocks[3].ipdom, CFG_EXIT);
    assert_int_equal(c->blocks[3].idom, 0);
    assert_int_equal(c->reconv[1], 5);
    assert_int_equal(c->reconv[3], 5);
    assert_int_equal(c->n_loops, 0);
    const uint8_t bd[] = {0, 0, 1, 1, 1, 0, 0};
    assert_memory_equal(c->branch_depth, bd, 7);
    ptx_cfg_free(f.cfg);
}

/* 0 mov; 1 setp (loop header); 2 @p bra 4; 3 add; 4 add; 5 setp; 6 @q bra 1; 7 ret
 * loop {B1[1,2], B2[3], B3[4,6]} depth 1; the if inside opens a region {B2};
 * the back-edge branch is loop control and opens none. */
static void t_loop_with_if(void **state)
{
    (void)state;
    ptx_insn in[] = {I(OP_MOV), I(OP_SETP), BRA(4, 1), I(OP_ADD), I(OP_ADD), I(OP_SETP), BRA(1, 1), I(OP_RET)};
    ptx_func f;
    build(&f, in, 8);
    ptx_cfg *c = f.cfg;
    assert_int_equal(c->n_blocks, 5);
    assert_int_equal(c->n_loops, 1);
    assert_int_equal(c->loops[0].header, 1);
    assert_int_equal(c->loops[0].latch, 3);
    assert_int_equal(c->loops[0].n_blocks, 3);
    assert_int_equal(c->loops[0].depth, 1);
    const uint8_t ld[] = {0, 1, 1, 1, 1, 1, 1, 0};
    assert_memory_equal(c->loop_depth, ld, 8);
    const uint8_t bd[] = {0, 0, 0, 1, 0, 0, 0, 0};
    assert_memory_equal(c->branch_depth, bd, 8);
    assert_int_equal(c->reconv[2], 4);
    assert_int_equal(c->reconv[6], 7);
    ptx_cfg_free(f.cfg);
}

/* Nested loops: 0 mov; 1 mov (outer header); 2 add (inner header); 3 @p bra 2;
 * 4 @q bra 1; 5 exit.  Inner {B2}, outer {B1, B2, B3}; depths 2 and 1. */
static void t_nested_loops(void **state)
{
    (void)state;
    ptx_insn in[] = {I(OP_MOV), I(OP_MOV), I(OP_ADD), BRA(2, 1), BRA(1, 1), I(OP_EXIT)};
    ptx_func f;
    build(&f, in, 6);
    ptx_cfg *c = f.cfg;
    assert_int_equal(c->n_loops, 2);
    const uint8_t ld[] = {0, 1, 2, 2, 1, 0};
    assert_memory_equal(c->loop_depth, ld, 6);
    int inner = c->loops[0].n_blocks == 1 ? 0 : 1;
    assert_int_equal(c->loops[inner].parent, 1 - inner);
    assert_int_equal(c->loops[1 - inner].parent, -1);
    const uint8_t bd[] = {0, 0, 0, 0, 0, 0};
    assert_memory_equal(c->branch_depth, bd, 6);
    ptx_cfg_free(f.cfg);
}

/* Early exit in a branch: 0 @p bra 3; 1 add; 2 exit; 3 add; 4 ret.
 * Both paths end the function: the branch reconverges only at exit. */
static void t_exit_paths(void **state)
{
    (void)state;
    ptx_insn in[] = {BRA(3, 1), I(OP_ADD), I(OP_EXIT), I(OP_ADD), I(OP_RET)};
    ptx_func f;
    build(&f, in, 5);
    assert_int_equal(f.cfg->reconv[0], UINT32_MAX);
    assert_int_equal(f.cfg->blocks[0].ipdom, CFG_EXIT);
    ptx_cfg_free(f.cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_diamond),
        cmocka_unit_test(t_loop_with_if),
        cmocka_unit_test(t_nested_loops),
        cmocka_unit_test(t_exit_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
