/* SM windows (core.sm_windows, gpu/timing.c sm_window): an SM with nothing in the memory
 * system runs its next cycles inside the phase of the current one, until a cycle of it
 * sends a request out of an L1, records a global access, retires a CTA the grid can
 * refill or changes nothing. A host mechanism: every statistic, the memory model's JSON
 * and the device results must be those of runs without it (windows off, every SM ticked
 * every cycle, two host threads). The kernel alternates loads (each word twice: the
 * second an L1 hit, which sends nothing but records a global access) with long ALU loops
 * and a barrier, on 4 SMs of two CTAs each with a grid of 3 waves, so windows begin, end
 * at sends, at global accesses and at CTA retirements with CTAs left, and the dispatcher
 * runs beside SMs that are ahead of the loop. Where windows are not allowed (no skip_idle, an
 * instruction budget, L1s shared between SMs) none runs; under a cycle budget the launch
 * still stops at that cycle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "gpu/sim.h"
#include "legacy_cfg.h"

static const char *const ptx =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r5, %ctaid.x;\nmov.u32 %r8, %ntid.x;\n"
    "mad.lo.u32 %r1, %r5, %r8, %r1;\nmov.u32 %r2, 0;\nmov.u32 %r4, 0;\n"
    "OUTER:\nmad.lo.u32 %r6, %r4, 1024, %r1;\nmul.wide.u32 %rd3, %r6, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
    "ld.global.u32 %r7, [%rd4];\nadd.s32 %r2, %r2, %r7;\n"
    "ld.global.u32 %r10, [%rd4];\nadd.s32 %r2, %r2, %r10;\nmov.u32 %r9, 0;\n"
    "INNER:\nmad.lo.u32 %r2, %r2, 1664525, 1013904223;\nxor.b32 %r2, %r2, %r9;\n"
    "add.s32 %r9, %r9, 1;\nsetp.lt.u32 %p2, %r9, 48;\n@%p2 bra INNER;\n"
    "bar.sync 0;\nadd.s32 %r4, %r4, 1;\nsetp.lt.u32 %p1, %r4, 3;\n@%p1 bra OUTER;\n"
    "mul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd1, %rd5;\nst.global.u32 [%rd6], %r2;\nexit;\n}\n";

enum { CTAS = 24, THREADS = 64 };

typedef struct {
    ws_timing_stats t;      /* host-side pointers cleared */
    char *mem;              /* the memory model's JSON */
    uint32_t out[CTAS * THREADS];
    uint64_t win;           /* host_window_cycles */
    ws_err rc;
} result;

static result run(const char *sets)
{
    result r;
    ws_config cfg;
    char err[1024];
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    assert_int_equal(ws_config_set(&cfg, "gpu.n_sm=4,gpu.max_ctas_per_sm=2,sim.mode=timing,mem.model=detailed", err, sizeof err), 0);
    if (sets)
        assert_int_equal(ws_config_set(&cfg, sets, err, sizeof err), 0);
    ws_sim *s = ws_sim_create(&cfg);
    ws_module *m;
    assert_int_equal(ws_module_load(s, ptx, strlen(ptx), "t.ptx", &m, err, sizeof err), WS_OK);
    uint64_t o, in;
    uint32_t host_in[3 * 1024 + CTAS * THREADS];
    for (size_t i = 0; i < sizeof host_in / sizeof host_in[0]; i++)
        host_in[i] = (uint32_t)(i * 2654435761u);
    assert_int_equal(ws_mem_alloc(s, sizeof r.out, &o), WS_OK);
    assert_int_equal(ws_mem_alloc(s, sizeof host_in, &in), WS_OK);
    assert_int_equal(ws_mem_write(s, in, host_in, sizeof host_in), WS_OK);
    uint64_t params[2] = {o, in};
    ws_launch_desc d = {{CTAS, 1, 1}, {THREADS, 1, 1}, 0, params, sizeof params};
    r.rc = ws_launch(s, m, ws_module_kernel(m, "k"), &d, err, sizeof err);
    size_t n;
    const ws_launch_stats *st = ws_sim_launches(s, &n);
    assert_true(n >= 1);
    r.t = st[n - 1].t;
    r.win = st[n - 1].host_window_cycles;
    /* less mem.l2_ahead's host counts of cycles run ahead, which the settings compared
     * change (every statistic is the same: test_ahead) */
    cJSON_DeleteItemFromObject(r.t.mem, "host_ahead_l2_cycles");
    cJSON_DeleteItemFromObject(r.t.mem, "host_ahead_dram_cycles");
    cJSON_DeleteItemFromObject(r.t.mem, "host_l2_thread_runs");
    cJSON_DeleteItemFromObject(r.t.mem, "host_l2_thread_reply_runs");
    cJSON_DeleteItemFromObject(r.t.mem, "host_l2_thread_shares");
    cJSON_DeleteItemFromObject(r.t.mem, "host_l2_thread_busy_seconds");
    cJSON_DeleteItemFromObject(r.t.mem, "host_l2_wait_seconds");
    r.mem = r.t.mem ? cJSON_PrintUnformatted(r.t.mem) : NULL;
    assert_non_null(r.mem);
    r.t.mem = NULL;
    r.t.occupancy_limiter = NULL;
    assert_int_equal(ws_mem_read(s, r.out, o, sizeof r.out), WS_OK);
    ws_sim_destroy(s);
    return r;
}

static void same(const result *a, const result *b)
{
    assert_int_equal(a->rc, b->rc);
    assert_int_equal(a->t.cycles, b->t.cycles);
    assert_memory_equal(&a->t, &b->t, sizeof a->t);
    assert_string_equal(a->mem, b->mem);
    assert_memory_equal(a->out, b->out, sizeof a->out);
}

static void t_window_equivalence(void **state)
{
    (void)state;
    result a = run(NULL);
    assert_int_equal(a.rc, WS_OK);
    /* the windows ran a good part of the SM cycles: each inner loop is about 48 x 5
     * instructions of ALU work per warp between two loads */
    assert_true(a.win > a.t.active_sm_cycles / 10);
    /* the device results: the kernel's arithmetic, worked out on the host */
    for (uint32_t t = 0; t < CTAS * THREADS; t++) {
        uint32_t x = 0;
        for (uint32_t k = 0; k < 3; k++) {
            x += 2 * (uint32_t)((k * 1024 + t) * 2654435761u);   /* loaded twice */
            for (uint32_t i = 0; i < 48; i++)
                x = (x * 1664525u + 1013904223u) ^ i;
        }
        assert_int_equal(a.out[t], x);
    }
    /* Windows run in the SM phases on one thread, not in those on the thread team.
     * (sim.host_threads=2 without the adaptive choice: the partition thread and the SMs on
     * the calling thread, with windows; mem.l2_thread=false: the SMs on two, none; 3:
     * both, none; with the choice: the slices' ways, as the host's timing picks them.)
     * W_SAME: each SM's own state decides its windows, as on one thread */
    enum { W_SAME, W_NONE, W_ANY };
    static const struct {
        const char *set;
        int win;
    } var[] = {{"core.sm_windows=false", W_NONE},
               {"sim.host_threads=2", W_ANY},
               {"sim.host_threads=2,sim.host_threads_adapt=false", W_SAME},
               {"sim.host_threads=2,sim.host_threads_adapt=false,mem.l2_thread=false", W_NONE},
               {"sim.host_threads=3,sim.host_threads_adapt=false", W_NONE},
               {"sim.host_threads=2,core.sm_windows=false", W_NONE},
               {"core.skip_idle=false", W_NONE}};
    for (size_t v = 0; v < sizeof var / sizeof var[0]; v++) {
        result b = run(var[v].set);
        /* (which variant, in the output of a failure: CTest prints it) */
        print_message("variant %s: %llu window cycles (one thread: %llu)\n", var[v].set,
                      (unsigned long long)b.win, (unsigned long long)a.win);
        same(&a, &b);
        if (var[v].win == W_NONE)
            assert_int_equal(b.win, 0);
        else if (var[v].win == W_SAME)
            assert_int_equal(b.win, a.win);
        free(b.mem);
    }
    free(a.mem);
}

static void t_window_limits(void **state)
{
    (void)state;
    /* an instruction budget stops at the exact cycle the count reaches: no windows */
    result a = run("sim.max_insts=2000");
    assert_int_equal(a.win, 0);
    free(a.mem);
    /* L1s shared between SMs (the HD7970's scalar cache and L1I): none */
    result sh = run("l1i.shared_by=2");
    assert_int_equal(sh.win, 0);
    free(sh.mem);
    /* a cycle budget: windows up to the last cycle before it; the launch stops there
     * with the statistics of a run without windows */
    result full = run(NULL);
    const uint64_t stop = full.t.cycles / 2;
    char set[64];
    snprintf(set, sizeof set, "sim.max_cycles=%llu", (unsigned long long)stop);
    result b = run(set);
    assert_true(b.win > 0);
    snprintf(set, sizeof set, "sim.max_cycles=%llu,core.sm_windows=false", (unsigned long long)stop);
    result c = run(set);
    assert_int_equal(b.t.cycles, stop);
    same(&b, &c);
    free(full.mem);
    free(b.mem);
    free(c.mem);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_window_equivalence),
        cmocka_unit_test(t_window_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
