/* test_div.c - the divergence plug-in interface (div.h) and a warp's paths (func.h).
 *
 * t_simt_stack drives the SIMT stack through div_ops alone (4 lanes, mask 0xF);
 * every step derived by hand. The stack is the policy's own state (w->dstate), so
 * entries below the top are checked by popping down to them.
 *  start: [ {pc 0, rpc -, F} ]; next x2: pc 2
 *  branch at 2 to 6, taken 0x3, reconvergence 9:
 *     [ {9, -, F}, {3, 9, C}, {6, 9, 3} ]            runnable: id 0 at 6, lanes 3
 *  next x3 on the top (6 -> 7 -> 8 -> 9 = rpc): popped; runnable: 3, lanes C
 *  branch at 3 to 9 (= the reconvergence point) with all its lanes: pc 9 = rpc, and
 *     settle pops it: [ {9, -, F} ]                  the warp reconverged at 9
 *  branch at 9 to 12, taken 0xE, reconvergence 14:
 *     [ {14, -, F}, {10, 14, 1}, {12, 14, E} ]
 *  next: 13; the loop's back edge at 13 to 12 keeps lane 1 looping (taken 0x2,
 *     reconvergence 14 = the entry's own rpc): the not-taken lanes go straight to 14,
 *     already represented by the entry below, so the entry is reused: no push.
 *  remove lanes 0x3 (exit) then settle: {12,14,2} and {10,14,1} empty and go;
 *     [ {14, -, C} ]
 *  call: lanes C start at pc 0 of frame 1 (top frame 1); ret removes them from
 *     frame 1: [ {14, -, C} ], top frame 0.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "func/div.h"
#include "func/func.h"
#include "util/err.h"

/* The one runnable path of a SIMT-stack warp: id 0 at pc, with mask. */
static void expect_path(const div_ops *d, const func_warp *w, uint32_t pc, uint64_t mask)
{
    func_path p[4];
    memset(p, 0xAB, sizeof p);
    assert_int_equal(d->paths(w, p, 4), 1);
    assert_int_equal(p[0].id, 0);
    assert_int_equal(p[0].pc, pc);
    assert_int_equal(p[0].mask, mask);
    const func_path *s = d->select(w);
    assert_non_null(s);
    assert_int_equal(s->id, 0);
    assert_int_equal(s->pc, pc);
    assert_int_equal(s->mask, mask);
    assert_int_equal(s->frame, p[0].frame);
    assert_ptr_equal(d->get(w, 0), s);
    assert_null(d->get(w, 1));   /* the stack exposes one path */
}

static void t_simt_stack(void **state)
{
    (void)state;
    const div_ops *d = div_find("simt-stack");
    assert_non_null(d);
    assert_ptr_equal(div_at(0), d);
    assert_ptr_equal(div_at(1), div_find("path-table"));   /* test_div_path.c */
    assert_null(div_at(2));
    assert_null(div_find("path-table-that-does-not-exist"));
    func_warp w;
    memset(&w, 0, sizeof w);
    uint32_t top = 99;
    assert_int_equal(d->warp_init(&w, 0xF), 0);
    assert_non_null(w.dstate);
    void *st = w.dstate;
    expect_path(d, &w, 0, 0xF);
    assert_true(d->next(&w, 0));
    assert_true(d->next(&w, 0));
    expect_path(d, &w, 2, 0xF);
    d->branch(&w, 0, 2, 6, 0x3, 9);
    expect_path(d, &w, 6, 0x3);
    assert_int_equal(d->settle(&w, &top), 3);
    assert_int_equal(top, 0);
    assert_true(d->next(&w, 0));
    assert_true(d->next(&w, 0));
    assert_true(d->next(&w, 0));   /* reaches 9: popped */
    assert_int_equal(d->settle(&w, &top), 2);
    expect_path(d, &w, 3, 0xC);
    d->branch(&w, 0, 3, 9, 0xC, 12);
    assert_int_equal(d->settle(&w, &top), 1);
    expect_path(d, &w, 9, 0xF);
    /* a loop whose back edge keeps one lane looping: constant depth */
    d->branch(&w, 0, 9, 12, 0xE, 14);
    expect_path(d, &w, 12, 0xE);
    assert_true(d->next(&w, 0));
    d->branch(&w, 0, 13, 12, 0x2, 14);
    assert_int_equal(d->settle(&w, &top), 3);
    expect_path(d, &w, 12, 0x2);
    /* lanes 0 and 1 exit: both inner entries empty and go; the outer keeps 0xC */
    d->remove(&w, 0x3, 0);
    assert_int_equal(d->settle(&w, &top), 1);
    expect_path(d, &w, 14, 0xC);
    /* a call and its return */
    assert_int_equal(d->call(&w, 0xC, 1), 0);
    expect_path(d, &w, 0, 0xC);
    assert_int_equal(d->settle(&w, &top), 2);
    assert_int_equal(top, 1);
    d->remove(&w, 0xC, 1);
    top = 99;
    assert_int_equal(d->settle(&w, &top), 1);
    assert_int_equal(top, 0);
    expect_path(d, &w, 14, 0xC);
    /* the last lanes exit: nothing left */
    d->remove(&w, 0xC, 0);
    assert_int_equal(d->settle(&w, &top), 0);
    func_path p;
    assert_int_equal(d->paths(&w, &p, 4), 0);
    assert_null(d->select(&w));
    assert_null(d->get(&w, 0));
    /* a new CTA on the same warp reuses the state */
    assert_int_equal(d->warp_init(&w, 0x7), 0);
    assert_ptr_equal(w.dstate, st);
    expect_path(d, &w, 0, 0x7);
    assert_int_equal(d->paths(&w, &p, 0), 0);
    d->warp_fini(&w);
    assert_null(w.dstate);
    d->warp_fini(&w);   /* NULL state: nothing to do */
}

/* The stack record holds one entry; deeper stacks move to the heap (16 entries, then
 * 32) with their order intact (div_simt.h). 64 lanes, all set. Branch i (i = 0..7) is
 * at the top's pc 100i to 100(i+1), all lanes but the lowest taken, reconvergence
 * 5000 - i (never the top's own rpc: no reuse), so each pushes two entries:
 *   [ {5000, -, ~0}, {1, 5000, bit 0}, {100, 5000, ~0 << 1}, ... ]
 * after eight: 1 + 2 x 8 = 17 entries (past 16: the heap block grows), the top at pc
 * 800 with lanes ~0 << 8. A jump of all its lanes to its rpc 4993 pops it: the top is
 * then branch 7's not-taken entry {701, 4993, bit 7}, 16 entries. A new warp on the
 * record starts again at depth 1. */
static void t_simt_stack_deep(void **state)
{
    (void)state;
    const div_ops *d = div_find("simt-stack");
    func_warp w;
    memset(&w, 0, sizeof w);
    uint32_t top = 99;
    assert_int_equal(d->warp_init(&w, ~0ull), 0);
    uint64_t m = ~0ull;
    for (uint32_t i = 0; i < 8; i++) {
        expect_path(d, &w, 100 * i, m);
        d->branch(&w, 0, 100 * i, 100 * (i + 1), m & (m - 1), 5000 - i);
        m &= m - 1;
        assert_int_equal(d->settle(&w, &top), 3 + 2 * i);
        assert_int_equal(top, 0);
    }
    expect_path(d, &w, 800, ~0ull << 8);
    d->branch(&w, 0, 800, 4993, ~0ull << 8, 9999);   /* all lanes taken: a jump */
    assert_int_equal(d->settle(&w, &top), 16);
    expect_path(d, &w, 701, 1ull << 7);
    /* each not-taken entry in turn, down to the first branch's */
    for (uint32_t i = 7; i-- > 0;) {
        d->branch(&w, 0, 100 * (i + 1) + 1, 5000 - (i + 1), 1ull << (i + 1), 9999);   /* to its rpc */
        assert_int_equal(d->settle(&w, &top), 1 + 2 * (i + 1));   /* popped; then the reconvergence entry */
        expect_path(d, &w, 5000 - (i + 1), (~0ull << (i + 1)));
        d->branch(&w, 0, 5000 - (i + 1), 5000 - i, ~0ull << (i + 1), 9999);
        assert_int_equal(d->settle(&w, &top), 2 * (i + 1));
        expect_path(d, &w, 100 * i + 1, 1ull << i);
    }
    assert_int_equal(d->warp_init(&w, 0xF), 0);
    expect_path(d, &w, 0, 0xF);
    assert_int_equal(d->settle(&w, &top), 1);
    d->warp_fini(&w);
    assert_null(w.dstate);
}

/* ---- a warp's paths, on a real kernel ------------------------------------------------- */
/* Lanes split by parity; the instruction index is in each comment (labels take none). */
static const char two_sided[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k()\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n"
    "  mov.u32 %r1, %tid.x;\n"          /* 0 */
    "  and.b32 %r2, %r1, 1;\n"          /* 1 */
    "  setp.eq.u32 %p1, %r2, 0;\n"      /* 2 */
    "  @%p1 bra EVEN;\n"                /* 3: even lanes 0,2 (0x5) taken, reconverge at 7 */
    "  add.u32 %r3, %r1, 100;\n"        /* 4: odd lanes 1,3 (0xA) */
    "  bra DONE;\n"                     /* 5 */
    "EVEN:\n"
    "  add.u32 %r3, %r1, 200;\n"        /* 6 */
    "DONE:\n"
    "  add.u32 %r4, %r3, 1;\n"          /* 7 */
    "  ret;\n"                          /* 8 */
    "}\n";

typedef struct {
    ptx_module *m;
    func_prog prog;
    func_launch L;
    func_cta cta;
    func_warp w;
} rig;

static void rig_up(rig *g, const div_ops *d, uint32_t threads)
{
    memset(g, 0, sizeof *g);
    ptx_diag dg;
    memset(&dg, 0, sizeof dg);
    g->m = ptx_parse(two_sided, strlen(two_sided), "t.ptx", &dg);
    if (!g->m)
        fail_msg("parse error %u:%u: %s", dg.line, dg.col, dg.msg);
    char why[256];
    /* one slot per register (no compaction): the checks read registers by IR number */
    if (func_prog_bind(&g->prog, g->m, 0, why, sizeof why))
        fail_msg("bind: %s", why);
    func_launch *L = &g->L;
    L->prog = &g->prog;
    L->div = d;
    int k = ptx_find_func(g->m, "k");
    assert_true(k >= 0);
    L->kernel = &g->m->funcs[k];
    L->ws = 32;
    L->grid[0] = L->grid[1] = L->grid[2] = 1;
    L->block[0] = threads;
    L->block[1] = L->block[2] = 1;
    L->cta_threads = threads;
    L->cta_warps = (threads + 31) / 32;
    L->stack_bytes = 1024;
    L->max_depth = 8;
    assert_int_equal(func_launch_div_init(L), 0);
    func_cta_init(&g->cta, L, 0, NULL);
}

static void rig_down(rig *g)
{
    func_warp_fini(&g->w);
    func_launch_div_fini(&g->L);
    func_prog_free(&g->prog);
    ptx_module_free(g->m);
}

/* Register `slot` (an IR register index) of lane l. */
static uint64_t reg(const func_warp *w, uint32_t slot, unsigned l)
{
    return func_reg_value(w, slot, l);
}

static void t_warp_paths(void **state)
{
    (void)state;
    rig g;
    rig_up(&g, div_find("simt-stack"), 4);
    func_warp *w = &g.w;
    assert_int_equal(func_warp_init(w, &g.L, &g.cta, 0), 0);
    func_path p[4];
    uint32_t pc;
    uint64_t mask;
    assert_int_equal(func_warp_paths(w, p, 4), 1);
    assert_int_equal(p[0].id, 0);
    assert_int_equal(p[0].pc, 0);
    assert_int_equal(p[0].mask, 0xF);
    assert_int_equal(p[0].frame, 0);
    for (int i = 0; i < 3; i++)
        assert_int_equal(func_warp_step_path(w, 0, NULL), EX_NEXT);
    assert_int_equal(func_warp_step_path(w, 0, NULL), EX_BRANCH);   /* pc 3 diverges */
    /* the even lanes run first (the taken path is pushed last); the odd ones wait */
    assert_int_equal(func_warp_paths(w, p, 4), 1);
    assert_int_equal(p[0].id, 0);
    assert_int_equal(p[0].pc, 6);
    assert_int_equal(p[0].mask, 0x5);
    assert_int_equal(func_warp_peek_path(w, 0, &pc, &mask), 1);
    assert_int_equal(pc, 6);
    assert_int_equal(mask, 0x5);
    assert_int_equal(func_warp_peek_path(w, 1, &pc, &mask), 0);
    assert_int_equal(func_warp_peek(w, &pc, &mask), 1);
    assert_int_equal(pc, 6);
    const func_path *sel = func_warp_selected(w);
    assert_non_null(sel);
    assert_int_equal(sel->pc, 6);
    assert_ptr_equal(func_warp_path(w, 0), sel);
    assert_null(func_warp_path(w, 1));
    func_path s;
    /* step the chosen path: pc 6 on lanes 0 and 2 only; it reaches 7 and pops */
    uint32_t r3 = g.m->funcs[g.L.kernel - g.m->funcs].insns[6].ops[0].r;
    assert_int_equal(func_warp_step_path(w, 0, NULL), EX_NEXT);
    assert_int_equal(reg(w, r3, 0), 200);
    assert_int_equal(reg(w, r3, 2), 202);
    assert_int_equal(reg(w, r3, 1), 0);
    assert_int_equal(reg(w, r3, 3), 0);
    assert_int_equal(func_warp_paths(w, p, 4), 1);
    assert_int_equal(p[0].pc, 4);
    assert_int_equal(p[0].mask, 0xA);
    /* pc 4 through the record func_warp_path returns (func_warp_step_from, as the
     * Fermi issue stage steps): the same as func_warp_step */
    assert_int_equal(func_warp_step_from(w, func_warp_path(w, 0), NULL), EX_NEXT);
    assert_int_equal(reg(w, r3, 1), 101);
    assert_int_equal(reg(w, r3, 3), 103);
    assert_int_equal(reg(w, r3, 0), 200);
    assert_int_equal(func_warp_step_path(w, 0, NULL), EX_BRANCH);   /* pc 5: to 7 */
    assert_int_equal(func_warp_paths(w, p, 4), 1);
    assert_int_equal(p[0].pc, 7);
    assert_int_equal(p[0].mask, 0xF);                                /* reconverged */
    assert_int_equal(func_warp_step_path(w, 0, NULL), EX_NEXT);
    assert_int_equal(func_warp_step_path(w, 0, NULL), EX_RET);      /* kernel ret: done */
    assert_int_equal(w->state, WARP_DONE);
    assert_int_equal(g.cta.live_threads, 0);
    assert_int_equal(func_warp_paths(w, p, 4), 0);
    assert_int_equal(func_warp_peek(w, &pc, &mask), 0);
    assert_int_equal(func_warp_where(w, &s), 0);
    assert_null(func_warp_selected(w));
    assert_null(func_warp_path(w, 0));
    assert_int_equal(g.L.warp_insts, 9);
    assert_int_equal(g.L.thread_insts, 4 * 4 + 2 + 2 + 2 + 4 + 4);
    assert_int_equal(g.L.fault.code, 0);
    rig_down(&g);
}

/* Stepping a path the warp does not have is a launch fault, not a crash. */
static void t_step_bad_path(void **state)
{
    (void)state;
    rig g;
    rig_up(&g, div_find("simt-stack"), 32);
    assert_int_equal(func_warp_init(&g.w, &g.L, &g.cta, 0), 0);
    assert_int_equal(func_warp_step_path(&g.w, 3, NULL), EX_FAULT);
    assert_int_equal(g.w.state, WARP_FAULT);
    assert_int_equal(g.L.fault.code, WS_E_LAUNCH_FAILED);
    assert_non_null(strstr(g.L.fault.msg, "no runnable path 3"));
    assert_int_equal(g.L.warp_insts, 0);
    rig_down(&g);
}

/* ---- policy state: per launch and per warp -------------------------------------------- */
/* A policy with launch state, written the way a new policy is (one const div_ops);
 * the paths are the SIMT stack's. Its launch state counts the warps it started. */
typedef struct {
    uint32_t warps_started;
    uint32_t warps_finished;
} counting_state;

static int counting_create(const func_launch *L, void **st)
{
    (void)L;
    *st = calloc(1, sizeof(counting_state));
    return *st ? 0 : -1;
}

static void counting_destroy(void *st)
{
    free(st);
}

static int counting_warp_init(func_warp *w, uint64_t mask)
{
    ((counting_state *)w->L->dstate)->warps_started++;
    return div_find("simt-stack")->warp_init(w, mask);
}

static void counting_warp_fini(func_warp *w)
{
    ((counting_state *)w->L->dstate)->warps_finished++;
    div_find("simt-stack")->warp_fini(w);
}

static void t_policy_state(void **state)
{
    (void)state;
    div_ops counting = *div_find("simt-stack");
    counting.name = "counting";
    counting.create = counting_create;
    counting.destroy = counting_destroy;
    counting.warp_init = counting_warp_init;
    counting.warp_fini = counting_warp_fini;
    rig g;
    rig_up(&g, &counting, 64);
    counting_state *cs = g.L.dstate;
    assert_non_null(cs);
    func_warp w2;
    memset(&w2, 0, sizeof w2);
    assert_null(g.w.dstate);
    assert_int_equal(func_warp_init(&g.w, &g.L, &g.cta, 0), 0);
    assert_int_equal(func_warp_init(&w2, &g.L, &g.cta, 1), 0);
    assert_int_equal(cs->warps_started, 2);
    assert_non_null(g.w.dstate);
    assert_ptr_not_equal(g.w.dstate, w2.dstate);   /* each warp its own */
    /* a warp of the next CTA reuses its slot's state */
    void *keep = g.w.dstate;
    assert_int_equal(func_warp_init(&g.w, &g.L, &g.cta, 0), 0);
    assert_ptr_equal(g.w.dstate, keep);
    assert_int_equal(cs->warps_started, 3);
    func_warp_fini(&w2);
    assert_null(w2.dstate);
    assert_int_equal(cs->warps_finished, 1);
    func_warp_fini(&w2);   /* finalising twice, or a warp never started, is harmless */
    assert_int_equal(cs->warps_finished, 1);
    /* rig_down finalises g.w, then the launch state goes (ASan: nothing leaks) */
    func_warp_fini(&g.w);
    assert_int_equal(cs->warps_finished, 2);
    rig_down(&g);
    assert_null(g.L.dstate);
    /* the SIMT stack has no launch state */
    func_launch L;
    memset(&L, 0, sizeof L);
    L.div = div_find("simt-stack");
    L.dstate = &L;
    assert_int_equal(func_launch_div_init(&L), 0);
    assert_null(L.dstate);
    func_launch_div_fini(&L);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_simt_stack),
        cmocka_unit_test(t_simt_stack_deep),
        cmocka_unit_test(t_warp_paths),
        cmocka_unit_test(t_step_bad_path),
        cmocka_unit_test(t_policy_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
