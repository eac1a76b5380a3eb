/* test_gcn.c - the GCN compute unit (core.model=gcn, src/core/gcn.c) on hand-written
 * PTX whose timing is derived by hand.
 *
 * Set-up: the hd7970 preset on one CU with the simple memory model. Totals include
 * start-up (work-group dispatch, the first fetch) and drain, so each timing test
 * compares two kernels that differ only in the part measured; the difference of their
 * cycle counts is exact. Every kernel fits in one instruction-buffer fill
 * (core.ibuf_entries=16), so refetches do not enter the difference.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sched.h"
#include "gpu/sim.h"

#define BASE "gpu.n_sm=1,mem.model=simple,core.ibuf_entries=16"

/* A one-kernel module: head, then `body` n times (%d in body: i mod 8 + 1, twice),
 * then tail. Registers: %p<8> %r<64> %f<64> %rd<40>; `smem` bytes of shared memory `sm`
 * (kernel(): 16 KB). */
static char *kernel_sm(uint32_t smem, const char *head, const char *body, int n, const char *tail)
{
    size_t cap = strlen(head) + strlen(tail) + (strlen(body) + 16) * (size_t)n + 1024;
    char *s = malloc(cap);
    size_t k = (size_t)snprintf(s, cap,
                                ".version 7.5\n.target sm_75\n.address_size 64\n"
                                ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                                ".reg .pred %%p<8>;\n.reg .b32 %%r<64>;\n.reg .f32 %%f<64>;\n"
                                ".reg .b64 %%rd<40>;\n.shared .align 4 .b8 sm[%u];\n%s", smem, head);
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(s + k, cap - k, body, i % 8 + 1, i % 8 + 1);
    snprintf(s + k, cap - k, "%s\n}\n", tail);
    return s;
}

static char *kernel(const char *head, const char *body, int n, const char *tail)
{
    return kernel_sm(16384, head, body, n, tail);
}

/* Runs kernel k (grid x block threads) on hd7970 + BASE + sets; returns its launch
 * statistics in *out and the cycle count. */
static uint64_t run(const char *ptx, uint32_t grid, uint32_t block, const char *sets, ws_launch_stats *out)
{
    ws_config cfg;
    char err[1024];
    assert_int_equal(ws_config_load(&cfg, "hd7970", err, sizeof err), 0);
    assert_int_equal(ws_config_set(&cfg, BASE, err, sizeof err), 0);
    assert_int_equal(ws_config_set(&cfg, "sim.mode=timing", err, sizeof err), 0);
    if (sets && *sets)
        assert_int_equal(ws_config_set(&cfg, sets, err, sizeof err), 0);
    ws_sim *s = ws_sim_create(&cfg);
    assert_non_null(s);
    ws_module *m;
    ws_err rc = ws_module_load(s, ptx, strlen(ptx), "g.ptx", &m, err, sizeof err);
    if (rc != WS_OK)
        fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, WS_OK);
    uint64_t o, in;
    assert_int_equal(ws_mem_alloc(s, 65536, &o), WS_OK);
    assert_int_equal(ws_mem_alloc(s, 65536, &in), WS_OK);
    uint64_t params[2] = {o, in};
    ws_launch_desc d = {{grid, 1, 1}, {block, 1, 1}, 0, params, sizeof params};
    rc = ws_launch(s, m, ws_module_kernel(m, "k"), &d, err, sizeof err);
    if (rc != WS_OK)
        fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, WS_OK);
    size_t n;
    const ws_launch_stats *st = ws_sim_launches(s, &n);
    ws_launch_stats ls = st[n - 1];
    ws_sim_destroy(s);
    if (out)
        *out = ls;
    return ls.cycles;
}

/* The output pointer is loaded in the tail, after the measured part, so that its
 * scalar-memory latency is the same offset in both kernels of a comparison. */
static const char *HEAD = "mov.f32 %f9, 0f3F800000;\nmov.f32 %f10, 0f40000000;\n";
static const char *TAIL = "ld.param.u64 %rd1, [out];\nst.global.f32 [%rd1], %f9;\nexit;";

/* The model is selected by name and the preset selects it. */
static void t_selected(void **state)
{
    (void)state;
    ws_launch_stats ls;
    char *p = kernel(HEAD, "add.f32 %%f%d, %%f9, %%f10;\n", 1, TAIL);
    run(p, 1, 64, NULL, &ls);
    assert_int_equal(ls.t.multi_issue, 1);
    assert_int_equal(ls.t.warp_size, 64);
    run(p, 1, 64, "core.model=fermi", &ls);
    assert_int_equal(ls.t.multi_issue, 0);
    free(p);
}

/* One wavefront, a chain of dependent VALU adds (add.f32 %f9, %f9, %f10: RAW on %f9).
 * An add issued at t keeps its SIMD for 64/16 = 4 passes and writes %f9 at t+4; the
 * CU selects the wavefront's SIMD again at t+4 (4 SIMDs round robin), so the next add
 * issues at t+4: 4 more adds cost exactly 4 x 4 = 16 cycles. With 8 lanes per SIMD
 * (8 passes) an add holds the SIMD and its result 8 cycles, which is 2 turns: 32.
 * With one SIMD of 64 lanes (1 pass, selected every cycle) the cadence is 1: 4. */
static void t_valu_chain(void **state)
{
    (void)state;
    const char *body = "add.f32 %%f9, %%f9, %%f10;\n";
    char *a = kernel(HEAD, body, 4, TAIL), *b = kernel(HEAD, body, 8, TAIL);
    assert_int_equal(run(b, 1, 64, NULL, NULL) - run(a, 1, 64, NULL, NULL), 16);
    assert_int_equal(run(b, 1, 64, "gcn.simd_lanes=8", NULL) - run(a, 1, 64, "gcn.simd_lanes=8", NULL), 32);
    const char *one = "gcn.simds=1,gcn.simd_lanes=64";
    assert_int_equal(run(b, 1, 64, one, NULL) - run(a, 1, 64, one, NULL), 4);
    /* independent adds still wait for the SIMD: the same 4-cycle cadence */
    const char *ind = "add.f32 %%f%d, %%f9, %%f10;\n";
    char *c = kernel(HEAD, ind, 4, TAIL), *d = kernel(HEAD, ind, 8, TAIL);
    assert_int_equal(run(d, 1, 64, NULL, NULL) - run(c, 1, 64, NULL, NULL), 16);
    free(a);
    free(b);
    free(c);
    free(d);
}

/* Four wavefronts (one work-group of 256) land on the four SIMDs (slot w on SIMD
 * w mod 4) and run their chains side by side: 4 more adds each still cost 16 cycles.
 * On one SIMD (gcn.simds=1, selected every cycle) the four wavefronts share it: 16
 * more adds x 4 cycles each = 64. */
static void t_four_simds(void **state)
{
    (void)state;
    const char *body = "add.f32 %%f9, %%f9, %%f10;\n";
    char *a = kernel(HEAD, body, 4, TAIL), *b = kernel(HEAD, body, 8, TAIL);
    ws_launch_stats la, lb;
    uint64_t d4 = run(b, 1, 256, NULL, &lb) - run(a, 1, 256, NULL, &la);
    assert_int_equal(d4, 16);
    assert_int_equal(lb.warp_insts - la.warp_insts, 16);
    assert_int_equal(run(b, 1, 256, "gcn.simds=1", NULL) - run(a, 1, 256, "gcn.simds=1", NULL), 64);
    free(a);
    free(b);
}

/* One work-group of five wavefronts, all on one SIMD (gcn.simds=1), each running a
 * straight stream of one instruction type chosen by a uniform branch on %warpid:
 * VALU (add.f32), scalar ALU (add.s32 of uniform values), vector memory (st.global),
 * LDS (ld.shared, one broadcast address), branch unit (membar.cta: no memory in flight).
 * Each stream starts with bar.sync, so all five leave the barrier in the same cycle.
 * Every port takes one instruction per cycle here (1 pass per VALU, vmem_cycles=1,
 * one LDS group, salu_lat=1, one request per store, 8-cycle memory so that stores and
 * refetches drain), so whenever all five instruction buffers hold instructions the CU
 * issues 5 in one cycle: the streams of 120 issue in lock step, 5 per cycle except in
 * the cycles after a buffer runs dry (16 entries: a refetch of every wavefront after
 * 16 instructions). With issue_width=4 it never issues 5. */
static void t_five_per_cycle(void **state)
{
    (void)state;
    char body[32768];
    size_t k = 0;
    k += (size_t)snprintf(body + k, sizeof body - k,
                          "ld.param.u64 %%rd1, [out];\nmov.u32 %%r1, %%warpid;\nmov.u32 %%r2, 5;\n"
                          "cvta.to.global.u64 %%rd2, %%rd1;\n"
                          "setp.eq.u32 %%p1, %%r1, 1;\n@%%p1 bra SALU;\n"
                          "setp.eq.u32 %%p1, %%r1, 2;\n@%%p1 bra VMEM;\n"
                          "setp.eq.u32 %%p1, %%r1, 3;\n@%%p1 bra LDS;\n"
                          "setp.eq.u32 %%p1, %%r1, 4;\n@%%p1 bra BR;\n");
    static const char *const what[5][2] = {
        {"VALU", "add.f32 %%f%d, %%f9, %%f10;\n"},
        {"SALU", "add.s32 %%r%d, %%r2, 1;\n"},
        {"VMEM", "st.global.u32 [%%rd2], %%r2;\n"},
        {"LDS", "ld.shared.u32 %%r%d, [sm];\n"},
        {"BR", "membar.cta;\n"},
    };
    for (int t = 0; t < 5; t++) {
        if (t)
            k += (size_t)snprintf(body + k, sizeof body - k, "%s:\n", what[t][0]);
        k += (size_t)snprintf(body + k, sizeof body - k, "bar.sync 0;\n");
        for (int i = 0; i < 120; i++) {
            char line[96];
            snprintf(line, sizeof line, what[t][1], 20 + i % 8);
            k += (size_t)snprintf(body + k, sizeof body - k, "%s", line);
        }
        k += (size_t)snprintf(body + k, sizeof body - k, "exit;\n");
    }
    char *p = kernel_sm(4, HEAD, "", 0, body);
    const char *sets = "gcn.simds=1,gcn.simd_lanes=64,gcn.vmem_cycles=1,gcn.lds_group=64,gcn.salu_lat=1,"
                       "gcn.coalesce_lanes=64,core.fetch_per_cycle=5,core.ldst_queue=64,mem.simple_latency=8,"
                       "gpu.max_threads_per_cta=320,gpu.max_block_x=320";
    ws_launch_stats ls;
    run(p, 1, 320, sets, &ls);
    assert_true(ls.t.issue_hist[5] >= 100 && ls.t.issue_hist[5] <= 120);
    assert_int_equal(ls.t.issued_type[IT_VALU], 120 + 2 * 5);   /* + HEAD's two mov.f32 each */
    assert_int_equal(ls.t.issued_type[IT_LDS], 120);
    assert_int_equal(ls.t.issued_type[IT_VMEM], 120);
    char sets4[512];
    snprintf(sets4, sizeof sets4, "%s,gcn.issue_width=4", sets);
    run(p, 1, 320, sets4, &ls);
    assert_int_equal(ls.t.issue_hist[5], 0);
    assert_true(ls.t.issue_hist[4] >= 100);
    free(p);
}

/* LDS bank conflicts at 64-wide: 32 banks of 4-byte words, conflicts resolved per
 * 32 work-items, so a conflict-free access takes 2 cycles (two halves) and the
 * statistic counts cycles beyond those 2:
 *   stride 1 word : each half touches 32 consecutive words, 32 banks      -> 1+1, extra 0
 *   stride 2      : a half touches banks 0,2,..,30 twice each             -> 2+2, extra 2
 *   stride 32     : a half touches 32 distinct words of bank 0            -> 32+32, extra 62
 *   stride 33     : 33 = 1 mod 32, every lane of a half in its own bank  -> extra 0
 *   stride 0      : one word for everyone: a broadcast                    -> extra 0
 * Timing: 4 more independent stride-32 loads hold the LDS 64 cycles each and issue on
 * the wavefront's SIMD turns (64 is a multiple of 4): exactly 4 x 64 = 256 cycles. */
static void t_lds_conflicts(void **state)
{
    (void)state;
    static const struct { uint32_t stride, extra; } cs[] = {{1, 0}, {2, 2}, {32, 62}, {33, 0}, {0, 0}};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        char head[512];
        snprintf(head, sizeof head,
                 "%smov.u32 %%r1, %%tid.x;\nmul.lo.u32 %%r2, %%r1, %u;\nmov.u32 %%r3, sm;\n"
                 "add.u32 %%r4, %%r3, %%r2;\n", HEAD, cs[i].stride * 4);
        char *p = kernel(head, "ld.shared.u32 %%r1%d, [%%r4];\n", 4, TAIL);
        ws_launch_stats ls;
        run(p, 1, 64, NULL, &ls);
        assert_int_equal(ls.t.shared_conflict_cycles, 4 * cs[i].extra);
        free(p);
    }
    char head[512];
    snprintf(head, sizeof head, "%smov.u32 %%r1, %%tid.x;\nmul.lo.u32 %%r2, %%r1, 128;\nmov.u32 %%r3, sm;\n"
             "add.u32 %%r4, %%r3, %%r2;\n", HEAD);
    char *a = kernel(head, "ld.shared.u32 %%r1%d, [%%r4];\n", 4, TAIL);
    char *b = kernel(head, "ld.shared.u32 %%r1%d, [%%r4];\n", 8, TAIL);
    assert_int_equal(run(b, 1, 64, NULL, NULL) - run(a, 1, 64, NULL, NULL), 256);
    free(a);
    free(b);
}

/* Occupancy: work-groups limited by LDS, wavefront slots (10 per SIMD), VGPRs and
 * barrier slots. 16 KB of LDS per work-group: 64 KB / 16 KB = 4. 64-thread work-groups,
 * nothing else limiting: min(40 slots, 16 barrier slots / preset CTAs) = 16; 256-thread
 * work-groups (4 wavefronts): 40 / 4 = 10 by wavefront slots. */
static void t_occupancy(void **state)
{
    (void)state;
    ws_launch_stats ls;
    char *lds = kernel(HEAD, "add.f32 %%f%d, %%f9, %%f10;\n", 1, TAIL);   /* 16 KB of LDS */
    run(lds, 1, 64, NULL, &ls);
    assert_int_equal(ls.t.ctas_per_sm, 4);   /* 64 KB / 16 KB */
    assert_string_equal(ls.t.occupancy_limiter, "shared");
    free(lds);
    char *p = kernel_sm(4, HEAD, "add.f32 %%f%d, %%f9, %%f10;\n", 1, TAIL);
    run(p, 1, 64, NULL, &ls);
    assert_int_equal(ls.t.ctas_per_sm, 16);
    run(p, 1, 256, "core.regs_per_thread=8", &ls);
    assert_int_equal(ls.t.ctas_per_sm, 10);   /* (2560 work-items per CU say the same) */
    /* VGPRs: 64 per work-item = 4096 per wavefront of the 16384 per SIMD: 4 waves per
     * SIMD, 16 per CU, 4 work-groups of 4 wavefronts */
    run(p, 1, 256, "core.regs_per_thread=64", &ls);
    assert_int_equal(ls.t.ctas_per_sm, 4);
    assert_string_equal(ls.t.occupancy_limiter, "registers");
    free(p);
}

/* Idle skipping changes no statistic of the CU. */
static void t_skip_idle(void **state)
{
    (void)state;
    char *p = kernel("ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
                     "mul.wide.u32 %rd3, %r1, 64;\nadd.s64 %rd4, %rd2, %rd3;\n",
                     "ld.global.u32 %%r%d, [%%rd4];\nadd.s32 %%r9, %%r9, %%r%d;\n", 6,
                     "st.global.u32 [%rd1], %r9;\nexit;");
    ws_launch_stats a, b;
    run(p, 3, 128, NULL, &a);
    run(p, 3, 128, "core.skip_idle=false", &b);
    assert_int_equal(a.cycles, b.cycles);
    assert_memory_equal(a.t.slot, b.t.slot, sizeof a.t.slot);
    assert_memory_equal(a.t.issue_hist, b.t.issue_hist, sizeof a.t.issue_hist);
    assert_int_equal(a.t.idle_slots, b.t.idle_slots);
    assert_int_equal(a.t.stall_cycles, b.t.stall_cycles);
    assert_int_equal(a.t.mem_lat_sum, b.t.mem_lat_sum);
    assert_int_equal(a.t.resident_warps_sum, b.t.resident_warps_sum);
    assert_int_equal(a.t.warps_in_flight_sum, b.t.warps_in_flight_sum);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_selected),
        cmocka_unit_test(t_valu_chain),
        cmocka_unit_test(t_four_simds),
        cmocka_unit_test(t_five_per_cycle),
        cmocka_unit_test(t_lds_conflicts),
        cmocka_unit_test(t_occupancy),
        cmocka_unit_test(t_skip_idle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
