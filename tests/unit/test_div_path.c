/* test_div_path.c - the path table, its priorities and the LAS loop table (div_path.h).
 *
 * Every expectation is derived by hand (comments). Kernels run on one warp of 4
 * threads (lanes 0..3, mask 0xF); a trace is "pc:mask" per executed instruction.
 *
 * Figure 1 of seed 002: a two-sided `if` inside a loop, 4 threads, 3 iterations.
 * Thread t in iteration i takes the THEN side when bit 4t+i of PATTERN = 0x6755:
 *     t0: T E T   t1: T E T   t2: T T T   t3: E T T
 *   pc  0 mov tid; 1 shl 4t; 2 i = 0
 *   LOOP:  3 add 4t+i; 4 shr; 5 and 1; 6 setp; 7 @p bra THEN
 *   ELSE:  8 r7 = i + 100; 9 bra JOIN
 *   THEN: 10 r7 = i + 200
 *   JOIN: 11 i++; 12 setp i < 3; 13 @p bra LOOP; 14 ret
 * Schedule Y (PDOM; min-pc: the ELSE side, smaller pc, first; the SIMT stack: the
 * taken side first, both reconverge at 11 every iteration):
 *   iteration 0: 3..7 F; 8:8 9:8 10:7 (min-pc) | 10:7 8:8 9:8 (simt); 11..13 F
 *   iteration 1: 3..7 F; 8:3 9:3 10:C          | 10:C 8:3 9:3;        11..13 F
 *   iteration 2: 3..7 F; 10:F; 11..13 F (nobody loops); 14:F
 * Schedule Z (majority, iteration shifting):
 *   7:F splits T=7@10, E=8@8; 7 runs: 10..13 (all loop) and 3..7 of iteration 1:
 *   t0,t1 take ELSE and land at 8, where t3 (iteration 0) waits: merged 0xB@8;
 *   0xB (3 threads) beats 0x4@10: 8 9 11 12 13:B (all loop) 3..7:B — t3's iteration
 *   1 and t0,t1's iteration 2 all take THEN, reaching 10 where t2 waits: 0xF@10.
 *   10..13:F: t0,t1 leave (i = 3), C loops; tie 2:2, smaller pc: 3..7:C 10..13:C,
 *   which reach 14 and merge with 0x3: 14:F.
 * LAS on this pattern: iteration 0 runs before the loop is known (Min-PC); in
 * iteration 1 the loop diverges but both sides hold 2 threads of the same
 * iteration: ties go to the smaller pc, so the schedule is Y (min-pc's).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "func/div.h"
#include "func/div_path.h"
#include "func/func.h"
#include "util/err.h"

static const char fig1[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k()\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<9>;\n"
    "  mov.u32 %r1, %tid.x;\n"           /* 0 */
    "  shl.b32 %r2, %r1, 2;\n"           /* 1 */
    "  mov.u32 %r3, 0;\n"                /* 2 */
    "LOOP:\n"
    "  add.u32 %r4, %r2, %r3;\n"         /* 3 */
    "  shr.u32 %r5, 26453, %r4;\n"       /* 4: 0x6755 */
    "  and.b32 %r6, %r5, 1;\n"           /* 5 */
    "  setp.eq.u32 %p1, %r6, 1;\n"       /* 6 */
    "  @%p1 bra THEN;\n"                 /* 7 */
    "  add.u32 %r7, %r3, 100;\n"         /* 8 */
    "  bra JOIN;\n"                      /* 9 */
    "THEN:\n"
    "  add.u32 %r7, %r3, 200;\n"         /* 10 */
    "JOIN:\n"
    "  add.u32 %r3, %r3, 1;\n"           /* 11 */
    "  setp.lt.u32 %p2, %r3, 3;\n"       /* 12 */
    "  @%p2 bra LOOP;\n"                 /* 13 */
    "  ret;\n"                           /* 14 */
    "}\n";

typedef struct {
    ptx_module *m;
    func_prog prog;
    func_launch L;
    func_cta cta;
    func_warp w;
    div_path_params prm;
    uint8_t shared[256];
} rig;

static void params_default(div_path_params *p, const char *prio)
{
    memset(p, 0, sizeof *p);
    snprintf(p->priority, sizeof p->priority, "%s", prio);
    p->capacity = 32;
    p->las_entries = 16;
    p->las_hash = LAS_HASH_MOD;
    p->las_max_gap = 4;
    p->las_bias = 1;
}

static void rig_up(rig *g, const char *ptx, const char *div, const char *prio, uint32_t threads)
{
    memset(g, 0, sizeof *g);
    ptx_diag dg;
    memset(&dg, 0, sizeof dg);
    g->m = ptx_parse(ptx, strlen(ptx), "t.ptx", &dg);
    if (!g->m)
        fail_msg("parse error %u:%u: %s", dg.line, dg.col, dg.msg);
    char why[256];
    /* one slot per register (no compaction): the checks read registers by IR number */
    if (func_prog_bind(&g->prog, g->m, 0, why, sizeof why))
        fail_msg("bind: %s", why);
    func_launch *L = &g->L;
    L->prog = &g->prog;
    L->div = div_find(div);
    assert_non_null(L->div);
    if (prio) {
        params_default(&g->prm, prio);
        L->div_params = &g->prm;
    }
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
    L->shared_bytes = sizeof g->shared;
    assert_int_equal(func_launch_div_init(L), 0);
    func_cta_init(&g->cta, L, 0, g->shared);
    assert_int_equal(func_warp_init(&g->w, L, &g->cta, 0), 0);
}

static void rig_down(rig *g)
{
    func_warp_fini(&g->w);
    func_launch_div_fini(&g->L);
    func_prog_free(&g->prog);
    ptx_module_free(g->m);
}

static uint64_t reg(const func_warp *w, uint32_t slot, unsigned l)
{
    return func_reg_value(w, slot, l);
}

/* Runs the warp to completion through the selected path; the trace in buf. */
static void trace(rig *g, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = 0;
    for (int guard = 0; g->w.state == WARP_READY && guard < 1000; guard++) {
        uint32_t pc;
        uint64_t mask;
        assert_int_equal(func_warp_peek(&g->w, &pc, &mask), 1);
        k += (size_t)snprintf(buf + k, n - k, "%s%u:%llX", k ? " " : "", pc, (unsigned long long)mask);
        assert_true(func_warp_step(&g->w, NULL) != EX_FAULT);
    }
    assert_int_equal(g->w.state, WARP_DONE);
}

#define PRE "0:F 1:F 2:F "
#define IT "3:F 4:F 5:F 6:F 7:F "
#define TAIL "11:F 12:F 13:F "
static const char y_min_pc[] = PRE IT "8:8 9:8 10:7 " TAIL IT "8:3 9:3 10:C " TAIL IT "10:F " TAIL "14:F";
static const char y_simt[] = PRE IT "10:7 8:8 9:8 " TAIL IT "10:C 8:3 9:3 " TAIL IT "10:F " TAIL "14:F";
static const char z_majority[] = PRE IT "10:7 11:7 12:7 13:7 3:7 4:7 5:7 6:7 7:7 "
                                 "8:B 9:B 11:B 12:B 13:B 3:B 4:B 5:B 6:B 7:B "
                                 "10:F 11:F 12:F 13:F 3:C 4:C 5:C 6:C 7:C 10:C 11:C 12:C 13:C 14:F";

/* r7 = the last iteration's value: i=2 and THEN (202) for t0..t3 */
static void check_fig1_result(rig *g)
{
    uint32_t r7 = g->m->funcs[g->L.kernel - g->m->funcs].insns[10].ops[0].r;
    for (unsigned l = 0; l < 4; l++)
        assert_int_equal(reg(&g->w, r7, l), 202);
    /* per thread: 3 + 3 x (5 + 3) + 1 = 28, plus its sides (THEN 1, ELSE 2):
     * t0 1+2+1, t1 1+2+1, t2 1+1+1, t3 2+1+1 */
    assert_int_equal(g->L.thread_insts, 4 * 28 + 4 + 4 + 3 + 4);
}

static void t_fig1(void **state)
{
    (void)state;
    char buf[2048];
    rig g;
    rig_up(&g, fig1, "simt-stack", NULL, 4);
    trace(&g, buf, sizeof buf);
    assert_string_equal(buf, y_simt);
    check_fig1_result(&g);
    rig_down(&g);

    rig_up(&g, fig1, "path-table", "min-pc", 4);
    trace(&g, buf, sizeof buf);
    assert_string_equal(buf, y_min_pc);
    check_fig1_result(&g);
    div_stats s;
    memset(&s, 0, sizeof s);
    g.L.div->stats(g.L.dstate, &s);
    assert_int_equal(s.path_samples, 35);
    assert_int_equal(s.path_occ_max, 2);
    /* a split leaves the not-taken lanes with the path's id: id 0 runs 8 9, id 1
     * (new) runs 10 and keeps its id at the merge; iteration 1 again: 2 switches */
    assert_int_equal(s.path_switches, 2);
    rig_down(&g);

    rig_up(&g, fig1, "path-table", "majority", 4);
    trace(&g, buf, sizeof buf);
    assert_string_equal(buf, z_majority);
    check_fig1_result(&g);
    rig_down(&g);

    rig_up(&g, fig1, "path-table", "las", 4);
    trace(&g, buf, sizeof buf);
    assert_string_equal(buf, y_min_pc);
    check_fig1_result(&g);
    /* the loop [3, 13]: detected at the end of iteration 0 (inserted), found at the end
     * of iteration 1 (hit); 4 + 4 threads took the back edge, 2 each; the branch at 7
     * diverged in iteration 1; it is the first conditional branch: iteration 1 (2 T,
     * 2 E) and 2 (4 T) — iteration 0 ran before the loop was known */
    const las_state *ls = div_path_las(&g.w);
    assert_non_null(ls);
    const las_loop *e = &ls->e[las_hash(&g.prm, 13)];
    assert_int_equal(e->valid, 1);
    assert_int_equal(e->lo, 3);
    assert_int_equal(e->hi, 13);
    assert_int_equal(e->trip, 8);
    for (unsigned l = 0; l < 4; l++)
        assert_int_equal(e->iter[l], 2);
    assert_int_equal(e->diverged, 1);
    assert_int_equal(e->first_pc, 7);
    assert_int_equal(e->first_taken, 6);
    assert_int_equal(e->first_not, 2);
    memset(&s, 0, sizeof s);
    g.L.div->stats(g.L.dstate, &s);
    assert_int_equal(s.loop_inserts, 1);
    assert_int_equal(s.loop_hits, 1);
    assert_int_equal(s.loop_evicts, 0);
    assert_int_equal(s.iter_shifts, 0);
    rig_down(&g);
}

/* ---- split / merge through div_ops --------------------------------------------------- */
/* branch at 2 to 6 with lanes 0x3: id 0 keeps 0xC at 3, id 1 gets 0x3 at 6; min-pc
 * runs id 0: 3 -> 4 -> 5 -> 6, where it merges with id 1 (the mover keeps its id). A
 * second split at 6 to 9 (0x8) then a uniform branch of id 0 (0x7) to 9: merge at 9. */
static void t_split_merge(void **state)
{
    (void)state;
    rig g;
    rig_up(&g, fig1, "path-table", "min-pc", 4);
    func_warp *w = &g.w;
    const div_ops *d = g.L.div;
    uint32_t top = 99;
    func_path p[4];
    d->branch(w, 0, 2, 6, 0x3, DIV_NO_PC);
    assert_int_equal(d->paths(w, p, 4), 2);
    assert_int_equal(p[0].id, 0);
    assert_int_equal(p[0].pc, 3);
    assert_int_equal(p[0].mask, 0xC);
    assert_int_equal(p[1].id, 1);
    assert_int_equal(p[1].pc, 6);
    assert_int_equal(p[1].mask, 0x3);
    assert_non_null(d->get(w, 1));
    assert_int_equal(d->next(w, 0), 2);
    assert_int_equal(d->next(w, 0), 2);
    assert_int_equal(d->next(w, 0), 1);   /* 6: merged */
    assert_int_equal(d->paths(w, p, 4), 1);
    assert_int_equal(p[0].id, 0);
    assert_int_equal(p[0].mask, 0xF);
    assert_null(d->get(w, 1));
    d->branch(w, 0, 6, 9, 0x8, DIV_NO_PC);          /* id 2: 0x8 at 9; id 0: 0x7 at 7 */
    assert_int_equal(d->select(w)->pc, 7);
    d->branch(w, 0, 7, 9, 0x7, DIV_NO_PC);          /* uniform: to 9, merges */
    assert_int_equal(d->paths(w, p, 4), 1);
    assert_int_equal(p[0].pc, 9);
    assert_int_equal(p[0].mask, 0xF);
    assert_int_equal(p[0].id, 0);
    /* exit of two lanes, settle keeps the rest */
    d->remove(w, 0x3, 0);
    assert_int_equal(d->settle(w, &top), 1);
    assert_int_equal(top, 0);
    assert_int_equal(d->select(w)->mask, 0xC);
    /* a call: the callee's path alone is runnable; ret removes it, the caller resumes */
    assert_int_equal(d->call(w, 0xC, 1), 0);
    assert_int_equal(d->paths(w, p, 4), 1);
    assert_int_equal(p[0].frame, 1);
    assert_int_equal(p[0].pc, 0);
    d->remove(w, 0xC, 1);
    assert_int_equal(d->settle(w, &top), 1);
    assert_int_equal(top, 0);
    assert_int_equal(d->select(w)->pc, 9);
    rig_down(&g);
}

/* Capacity 2: a third path is spilled (not runnable, counted) and returns when a
 * place frees. */
static void t_table_full(void **state)
{
    (void)state;
    rig g;
    rig_up(&g, fig1, "path-table", "min-pc", 4);
    func_launch_div_fini(&g.L);
    func_warp_fini(&g.w);
    g.prm.capacity = 2;
    assert_int_equal(func_launch_div_init(&g.L), 0);
    assert_int_equal(func_warp_init(&g.w, &g.L, &g.cta, 0), 0);
    func_warp *w = &g.w;
    const div_ops *d = g.L.div;
    func_path p[4];
    uint32_t top;
    d->branch(w, 0, 2, 8, 0x1, DIV_NO_PC);   /* id 0: E@3, id 1: 1@8 */
    d->branch(w, 0, 3, 6, 0x2, DIV_NO_PC);   /* id 0: C@4, id 2: 2@6 spilled */
    assert_int_equal(d->paths(w, p, 4), 2);
    assert_int_equal(p[0].id, 0);
    assert_int_equal(p[1].id, 1);
    assert_null(d->get(w, 2));
    div_stats s;
    memset(&s, 0, sizeof s);
    d->stats(g.L.dstate, &s);
    assert_int_equal(s.path_spills, 1);
    d->remove(w, 0x1, 0);                    /* id 1 exits: its place frees */
    assert_int_equal(d->settle(w, &top), 2);
    assert_int_equal(d->paths(w, p, 4), 2);
    assert_non_null(d->get(w, 2));
    assert_int_equal(d->get(w, 2)->pc, 6);
    rig_down(&g);
}

/* ---- the LAS loop table ---------------------------------------------------------------- */
static las_state *las_new(const div_path_params *p)
{
    const div_prio_ops *o = div_prio_find("las");
    assert_non_null(o);
    las_state *s = calloc(1, o->state_size(p));
    o->reset(s, p);
    return s;
}

static void t_loop_table(void **state)
{
    (void)state;
    div_path_params p;
    params_default(&p, "las");
    p.las_entries = 8;
    const div_prio_ops *o = div_prio_find("las");
    las_state *s = las_new(&p);
    div_stats c;
    memset(&c, 0, sizeof c);
    /* insert [10, 20] (index 20 mod 8 = 4), then hit it */
    o->branch(s, &p, &c, 20, 10, 0xF, 0xF, 1);
    o->branch(s, &p, &c, 20, 10, 0xF, 0x3, 1);
    assert_int_equal(c.loop_inserts, 1);
    assert_int_equal(c.loop_hits, 1);
    assert_int_equal(s->e[4].trip, 6);
    assert_int_equal(s->e[4].iter[0], 2);
    assert_int_equal(s->e[4].iter[3], 1);
    /* a forward branch inside, divergent: the loop diverged */
    assert_int_equal(s->e[4].diverged, 0);
    o->branch(s, &p, &c, 12, 15, 0xF, 0x1, 1);
    assert_int_equal(s->e[4].diverged, 1);
    assert_int_equal(s->e[4].first_pc, 12);
    assert_int_equal(s->e[4].first_taken, 1);
    assert_int_equal(s->e[4].first_not, 3);
    /* nested [12, 17] (index 1) inside [10, 20]: both kept */
    o->branch(s, &p, &c, 17, 12, 0xF, 0xF, 1);
    assert_int_equal(c.loop_inserts, 2);
    assert_int_equal(s->e[1].valid, 1);
    assert_int_equal(s->e[4].valid, 1);
    assert_int_equal(c.loop_evicts, 0);
    /* overlapping [15, 22] (index 6): it overlaps [12, 17] (entry 1, looked at first)
     * without nesting; the backmost of the two is the new one (22 > 17): it is not
     * inserted (one eviction) and both old entries stay */
    o->branch(s, &p, &c, 22, 15, 0xF, 0xF, 1);
    assert_int_equal(s->e[6].valid, 0);
    assert_int_equal(s->e[4].valid, 1);
    assert_int_equal(c.loop_evicts, 1);
    assert_int_equal(c.loop_inserts, 2);
    /* overlapping [5, 11] (index 3) with [10, 20]: the old one is the backmost
     * (20 > 11): it is removed and the new one inserted; [12, 17] is disjoint */
    o->branch(s, &p, &c, 11, 5, 0xF, 0xF, 1);
    assert_int_equal(s->e[4].valid, 0);
    assert_int_equal(s->e[3].valid, 1);
    assert_int_equal(s->e[1].valid, 1);
    assert_int_equal(c.loop_evicts, 2);
    assert_int_equal(c.loop_inserts, 3);
    /* hash collision: [30, 33] maps to 33 mod 8 = 1 and evicts [12, 17] */
    o->branch(s, &p, &c, 33, 30, 0xF, 0xF, 1);
    assert_int_equal(s->e[1].valid, 1);
    assert_int_equal(s->e[1].lo, 30);
    assert_int_equal(c.loop_evicts, 3);
    assert_int_equal(c.loop_inserts, 4);
    /* xor-fold: 33 ^ (33 >> 4) = 33 ^ 2 = 35, mod 8 = 3 */
    p.las_hash = LAS_HASH_XOR_FOLD;
    assert_int_equal(las_hash(&p, 33), 3);
    free(s);
}

/* The gap bound: in a diverged loop [0, 100], path A (lanes 0-3, 10 iterations, pc 5,
 * the Min-PC one) and B (lane 4, 2 iterations, pc 50). Gap 8 > 4: B (the least
 * advanced) runs. Bound 10: majority biased by iterations: A scores 4 - 1 x 8 = -4,
 * B 1 - 0 = 1: B. Without the bias (0): A, 4 > 1. Outside a diverged loop: Min-PC. */
static void t_gap_bound(void **state)
{
    (void)state;
    div_path_params p;
    params_default(&p, "las");
    p.las_entries = 4;
    const div_prio_ops *o = div_prio_find("las");
    las_state *s = las_new(&p);
    div_stats c;
    memset(&c, 0, sizeof c);
    las_loop *L = &s->e[0];
    L->valid = 1;
    L->lo = 0;
    L->hi = 100;
    for (int l = 0; l < 4; l++)
        L->iter[l] = 10;
    L->iter[4] = 2;
    func_path paths[2] = {{0, 5, 0xF, 0, 0}, {1, 50, 0x10, 0, 0}};
    uint8_t ok[2] = {1, 1};
    assert_int_equal(o->choose(s, &p, &c, paths, ok, 2, 0), 0);   /* not diverged */
    L->diverged = 1;
    assert_int_equal(o->choose(s, &p, &c, paths, ok, 2, 0), 1);
    assert_int_equal(c.iter_gap_max, 8);
    assert_int_equal(c.gap_forced, 1);
    assert_int_equal(c.iter_shifts, 1);
    assert_int_equal(o->choose(s, &p, &c, paths, ok, 2, 0), 1);   /* no new events */
    assert_int_equal(c.gap_forced, 1);
    assert_int_equal(c.iter_shifts, 1);
    p.las_max_gap = 10;
    assert_int_equal(o->choose(s, &p, &c, paths, ok, 2, 0), 1);
    p.las_bias = 0;
    assert_int_equal(o->choose(s, &p, &c, paths, ok, 2, 0), 0);
    assert_int_equal(c.iter_shifts, 1);
    ok[0] = 0;   /* only B runnable: B */
    assert_int_equal(o->choose(s, &p, &c, paths, ok, 2, 1), 1);
    free(s);
}

/* ---- bar.sync and shfl.sync in divergent paths ------------------------------------------- */
/* Lanes 0,1 take A, lanes 2,3 B; each side stores tid+10 to shared[tid], waits at its
 * own bar.sync, then loads its partner's word (tid ^ 2). With the path table the first
 * side to arrive parks and the other runs to its barrier: all 4 threads arrive, the
 * barrier completes and every load sees the other side's store. (The SIMT stack
 * stops the whole warp at the first bar.sync: 2 of 4 threads, a deadlock.) */
static const char divbar[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k()\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<9>;\n  .shared .align 4 .b8 s[64];\n"
    "  mov.u32 %r1, %tid.x;\n"                /* 0 */
    "  shl.b32 %r2, %r1, 2;\n"                /* 1 */
    "  add.u32 %r3, %r1, 10;\n"               /* 2 */
    "  xor.b32 %r4, %r2, 8;\n"                /* 3: partner's offset */
    "  setp.lt.u32 %p1, %r1, 2;\n"            /* 4 */
    "  @%p1 bra A;\n"                         /* 5 */
    "  st.shared.u32 [%r2], %r3;\n"           /* 6 B */
    "  bar.sync 0;\n"                         /* 7 */
    "  ld.shared.u32 %r5, [%r4];\n"           /* 8 */
    "  bra END;\n"                            /* 9 */
    "A:\n"
    "  st.shared.u32 [%r2], %r3;\n"           /* 10 A */
    "  bar.sync 0;\n"                         /* 11 */
    "  ld.shared.u32 %r5, [%r4];\n"           /* 12 */
    "END:\n"
    "  ret;\n"                                /* 13 */
    "}\n";

static void t_barrier_divergent(void **state)
{
    (void)state;
    static const char *const prios[] = {"min-pc", "majority", "las"};
    for (int k = 0; k < 3; k++) {
        rig g;
        rig_up(&g, divbar, "path-table", prios[k], 4);
        func_warp_fini(&g.w);
        g.cta.live_warps = 1;
        assert_int_equal(func_run_cta(&g.L, &g.cta, &g.w), 0);
        uint32_t r5 = g.m->funcs[g.L.kernel - g.m->funcs].insns[8].ops[0].r;
        for (unsigned l = 0; l < 4; l++)
            assert_int_equal(reg(&g.w, r5, l), (l ^ 2) + 10);
        assert_int_equal(g.w.bar_parked, 0);
        rig_down(&g);
    }
    rig g;
    rig_up(&g, divbar, "simt-stack", NULL, 4);
    func_warp_fini(&g.w);
    g.cta.live_warps = 1;
    assert_int_equal(func_run_cta(&g.L, &g.cta, &g.w), -1);
    assert_int_equal(g.L.fault.code, WS_E_DEADLOCK);
    rig_down(&g);
}

/* Lanes 0,1 leave (ret from the kernel) while lanes 2,3 wait at bar.sync: once the
 * last running path has gone, the warp waits with only parked paths; the barrier now
 * needs the 2 live threads, which arrived: it completes and lanes 2,3 go on. */
static const char exitbar[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k()\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<9>;\n"
    "  mov.u32 %r1, %tid.x;\n"                /* 0 */
    "  setp.lt.u32 %p1, %r1, 2;\n"            /* 1 */
    "  @%p1 bra X;\n"                         /* 2 */
    "  bar.sync 0;\n"                         /* 3 */
    "  add.u32 %r2, %r1, 5;\n"                /* 4 */
    "  ret;\n"                                /* 5 */
    "X:\n"
    "  add.u32 %r2, %r1, 1;\n"                /* 6 */
    "  ret;\n"                                /* 7 */
    "}\n";

static void t_barrier_exit(void **state)
{
    (void)state;
    rig g;
    rig_up(&g, exitbar, "path-table", "min-pc", 4);
    func_warp_fini(&g.w);
    assert_int_equal(func_run_cta(&g.L, &g.cta, &g.w), 0);
    uint32_t r2 = g.m->funcs[g.L.kernel - g.m->funcs].insns[4].ops[0].r;
    assert_int_equal(reg(&g.w, r2, 0), 1);
    assert_int_equal(reg(&g.w, r2, 1), 2);
    assert_int_equal(reg(&g.w, r2, 2), 7);
    assert_int_equal(reg(&g.w, r2, 3), 8);
    assert_int_equal(g.w.state, WARP_DONE);
    rig_down(&g);
}

/* Lanes 0..2 (3 threads) take THEN, lane 3 ELSE; both join at 8 and do a full-warp
 * shfl.sync.bfly 1 (lane l gets lane l^1's tid*3). Majority runs the 3 THEN lanes to
 * the shfl first: it waits there (lane 3 of its membermask is in another path), the
 * ELSE lane runs up to it, the paths merge and the shuffle sees all four lanes. */
static const char divshfl[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k()\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<9>;\n"
    "  mov.u32 %r1, %tid.x;\n"                /* 0 */
    "  mul.lo.u32 %r2, %r1, 3;\n"             /* 1 */
    "  setp.lt.u32 %p1, %r1, 3;\n"            /* 2 */
    "  @%p1 bra T;\n"                         /* 3 */
    "  add.u32 %r3, %r1, 1;\n"                /* 4 E */
    "  bra J;\n"                              /* 5 */
    "T:\n"
    "  add.u32 %r3, %r1, 2;\n"                /* 6 T */
    "  add.u32 %r3, %r3, 0;\n"                /* 7 */
    "J:\n"
    "  add.u32 %r6, %r3, 0;\n"                /* 8 */
    "  shfl.sync.bfly.b32 %r5, %r2, 1, 31, -1;\n"   /* 9 */
    "  ret;\n"                                /* 10 */
    "}\n";

static void t_shfl_divergent(void **state)
{
    (void)state;
    char buf[1024];
    rig g;
    rig_up(&g, divshfl, "path-table", "majority", 4);
    trace(&g, buf, sizeof buf);
    /* majority: 7@6 first: 6 7 8, then waits at 9; lane 3: 4 5 8 9? no: 8 merges?
     * 7 moved to 8 first and then to 9; lane 3 reaches 8 alone, then 9: merged */
    assert_string_equal(buf, "0:F 1:F 2:F 3:F 6:7 7:7 8:7 4:8 5:8 8:8 9:F 10:F");
    uint32_t r5 = g.m->funcs[g.L.kernel - g.m->funcs].insns[9].ops[0].r;
    for (unsigned l = 0; l < 4; l++)
        assert_int_equal(reg(&g.w, r5, l), (l ^ 1) * 3);
    div_stats s;
    memset(&s, 0, sizeof s);
    g.L.div->stats(g.L.dstate, &s);
    assert_int_equal(s.sync_forced, 0);
    rig_down(&g);
}

/* bar.warp.sync after divergence: lanes 0..2 go to T, lane 3 to E, both continue at J's
 * bar.warp.sync -1. Majority runs T to J, where it waits for lane 3 (in another path);
 * E runs up to J and merges; the merged path runs the barrier, activemask (all 4 lanes)
 * and vote.sync.ballot of tid >= 1 (0xE). */
static const char divvote[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry k()\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<9>;\n"
    "  mov.u32 %r1, %tid.x;\n"                /* 0 */
    "  setp.lt.u32 %p1, %r1, 3;\n"            /* 1 */
    "  @%p1 bra T;\n"                         /* 2 */
    "  add.u32 %r3, %r1, 1;\n"                /* 3 E */
    "  bra J;\n"                              /* 4 */
    "T:\n"
    "  add.u32 %r3, %r1, 2;\n"                /* 5 T */
    "J:\n"
    "  bar.warp.sync -1;\n"                   /* 6 */
    "  activemask.b32 %r4;\n"                 /* 7 */
    "  setp.ge.u32 %p2, %r1, 1;\n"            /* 8 */
    "  vote.sync.ballot.b32 %r5, %p2, -1;\n"  /* 9 */
    "  ret;\n"                                /* 10 */
    "}\n";

static void t_warp_sync_divergent(void **state)
{
    (void)state;
    char buf[1024];
    rig g;
    rig_up(&g, divvote, "path-table", "majority", 4);
    trace(&g, buf, sizeof buf);
    assert_string_equal(buf, "0:F 1:F 2:F 5:7 3:8 4:8 6:F 7:F 8:F 9:F 10:F");
    const ptx_insn *in = g.m->funcs[g.L.kernel - g.m->funcs].insns;
    for (unsigned l = 0; l < 4; l++) {
        assert_int_equal(reg(&g.w, in[7].ops[0].r, l), 0xF);
        assert_int_equal(reg(&g.w, in[9].ops[0].r, l), 0xE);
    }
    rig_down(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_fig1),
        cmocka_unit_test(t_split_merge),
        cmocka_unit_test(t_table_full),
        cmocka_unit_test(t_loop_table),
        cmocka_unit_test(t_gap_bound),
        cmocka_unit_test(t_barrier_divergent),
        cmocka_unit_test(t_barrier_exit),
        cmocka_unit_test(t_shfl_divergent),
        cmocka_unit_test(t_warp_sync_divergent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
