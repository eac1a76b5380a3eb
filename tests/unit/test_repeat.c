/* test_repeat.c - repeated SM cycles (gpu/timing.c run_group, memsys.h repeat) give the
 * statistics of running every cycle.
 *
 * An SM asleep after a refused L1 access is woken by the memory system's bound; when
 * nothing changed for it there, its cycle is not run but counted as a repeat (the
 * refusals again, memsys.h repeat_stats, and the core's statistics as a repeat, when it
 * next runs; so also every cycle it slept through). Two shortcuts of that path are
 * checked here against runs that take neither: a repeat stays out of the commit's list
 * (the commit merges the ran and sleeping SMs in SM order), and the core is asked for
 * its next event only when the memory bound reaches the lower bound it gave last
 * (sm_slot.ev_lb). The kernel makes every SM's loads miss to scattered lines through an
 * L1D with 2 MSHRs and a 2-entry miss queue behind a crossbar input of 5 flits (one line's packet), so the
 * LD/ST units are refused (MSHRF) for most of the run. With core.skip_idle=false every
 * SM runs every cycle (no sleep, no repeat), and with 2 host threads (the commit merges
 * two groups' lists, with and without the adaptive fallback to one thread): the timing
 * statistics and the memory model's whole JSON, its refusal counts included, must be
 * the same. */
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
    "LOOP:\nmad.lo.u32 %r6, %r1, 4099, %r4;\nmul.lo.u32 %r6, %r6, 0x9E3779B1;\n"
    "shr.u32 %r6, %r6, 14;\nmul.wide.u32 %rd3, %r6, 4;\nadd.s64 %rd4, %rd2, %rd3;\n"
    "ld.global.u32 %r7, [%rd4];\nadd.s32 %r2, %r2, %r7;\nadd.s32 %r4, %r4, 1;\n"
    "setp.lt.u32 %p1, %r4, 12;\n@%p1 bra LOOP;\n"
    "mul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd1, %rd5;\nst.global.u32 [%rd6], %r2;\nexit;\n}\n";

/* One launch of 8 CTAs of 128 threads with `sets` on top of the base: its timing
 * statistics (host-side pointers cleared) and the memory model's JSON text. */
static ws_timing_stats run(const char *sets, char **mem_json)
{
    ws_config cfg;
    char err[1024];
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    assert_int_equal(ws_config_set(&cfg, "gpu.n_sm=4,sim.mode=timing,mem.model=detailed,"
                                         "l1d.mshr_entries=2,l1d.miss_queue=2,icnt.in_buf=5",
                                   err, sizeof err), 0);
    if (sets)
        assert_int_equal(ws_config_set(&cfg, sets, err, sizeof err), 0);
    ws_sim *s = ws_sim_create(&cfg);
    ws_module *m;
    assert_int_equal(ws_module_load(s, ptx, strlen(ptx), "t.ptx", &m, err, sizeof err), WS_OK);
    uint64_t o, in;
    const size_t in_bytes = (size_t)4 << 18;   /* the hash's 18 bits, 4-byte words */
    assert_int_equal(ws_mem_alloc(s, 8 * 128 * 4, &o), WS_OK);
    assert_int_equal(ws_mem_alloc(s, in_bytes, &in), WS_OK);
    uint64_t params[2] = {o, in};
    ws_launch_desc d = {{8, 1, 1}, {128, 1, 1}, 0, params, sizeof params};
    ws_err rc = ws_launch(s, m, ws_module_kernel(m, "k"), &d, err, sizeof err);
    if (rc != WS_OK)
        fprintf(stderr, "%s\n", err);
    assert_int_equal(rc, WS_OK);
    size_t n;
    const ws_launch_stats *st = ws_sim_launches(s, &n);
    ws_timing_stats t = st[n - 1].t;
    /* less mem.l2_ahead's host counts of cycles run ahead, which the settings compared
     * change (every statistic is the same: test_ahead) */
    cJSON_DeleteItemFromObject(t.mem, "host_ahead_l2_cycles");
    cJSON_DeleteItemFromObject(t.mem, "host_ahead_dram_cycles");
    cJSON_DeleteItemFromObject(t.mem, "host_l2_thread_runs");
    cJSON_DeleteItemFromObject(t.mem, "host_l2_thread_reply_runs");
    cJSON_DeleteItemFromObject(t.mem, "host_l2_thread_shares");
    cJSON_DeleteItemFromObject(t.mem, "host_l2_thread_busy_seconds");
    cJSON_DeleteItemFromObject(t.mem, "host_l2_wait_seconds");
    *mem_json = t.mem ? cJSON_PrintUnformatted(t.mem) : NULL;
    assert_non_null(*mem_json);
    t.mem = NULL;
    t.occupancy_limiter = NULL;
    ws_sim_destroy(s);
    return t;
}

static void t_repeat_equivalence(void **state)
{
    (void)state;
    /* (sim.host_threads=2: the partition thread and the SMs on the calling thread;
     * mem.l2_thread=false: the SMs on two; 3: both) */
    static const char *const var[] = {"core.skip_idle=false", "sim.host_threads=2",
                                      "sim.host_threads=2,sim.host_threads_adapt=false,mem.l2_thread=false",
                                      "sim.host_threads=3,sim.host_threads_adapt=false"};
    char *j0;
    ws_timing_stats a = run(NULL, &j0);
    /* the LD/ST units were refused for lack of MSHRs or miss-queue room many times */
    assert_true(a.resfail[1] + a.resfail[2] > 1000);
    assert_true(a.cycles > 1000);
    for (size_t v = 0; v < sizeof var / sizeof var[0]; v++) {
        char *j;
        ws_timing_stats b = run(var[v], &j);
        assert_int_equal(a.cycles, b.cycles);
        assert_memory_equal(a.resfail, b.resfail, sizeof a.resfail);
        assert_memory_equal(&a, &b, sizeof a);
        assert_string_equal(j0, j);
        free(j);
    }
    free(j0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_repeat_equivalence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
