/* test_timing.c - the SM pipeline on hand-written PTX whose cycle counts are
 * derived by hand from the configured latencies.
 *
 * Totals include start-up (CTA dispatch, first fetch) and drain, so each test
 * compares two kernels that differ only in the part being measured: the difference
 * of their cycle counts is exact. Derivations are in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "core/core_model.h"
#include "core/occupancy.h"
#include "gpu/sim.h"
#include "gpu/timing.h"
#include "legacy_cfg.h"

/* Builds a one-kernel module: `body` is repeated n times between head and tail. */
static char *kernel(const char *head, const char *body, int n, const char *tail)
{
    size_t cap = strlen(head) + strlen(tail) + (strlen(body) + 16) * (size_t)n + 1024;
    char *s = malloc(cap);
    size_t k = (size_t)snprintf(s, cap,
                                ".version 7.5\n.target sm_75\n.address_size 64\n"
                                ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                                ".reg .pred %%p<4>;\n.reg .b32 %%r<40>;\n.reg .f32 %%f<40>;\n"
                                ".reg .b64 %%rd<40>;\n%s", head);
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(s + k, cap - k, body, i % 8 + 1, i % 8 + 1);
    snprintf(s + k, cap - k, "%s\n}\n", tail);
    return s;
}

/* A simulation with the default config plus `sets` (comma-separated overrides, may be
 * NULL), module `ptx` loaded and its kernel k launched on grid x block threads with
 * parameters (out, in): two fresh 4 KB buffers, `in` starting with eight copies of its
 * own address (a pointer chase that stays on its first word). The caller destroys
 * the simulation; *rc gets the launch's result, *out its buffer. */
static ws_sim *launch(const char *sets, const char *ptx, uint32_t grid, uint32_t block, ws_err *rc,
                      uint64_t *out)
{
    ws_config cfg;
    char err[1024];
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    if (sets)
        assert_int_equal(ws_config_set(&cfg, sets, err, sizeof err), 0);
    ws_sim *s = ws_sim_create(&cfg);
    ws_module *m;
    ws_err lrc = ws_module_load(s, ptx, strlen(ptx), "t.ptx", &m, err, sizeof err);
    if (lrc != WS_OK)
        fprintf(stderr, "%s\n", err);
    assert_int_equal(lrc, WS_OK);
    uint64_t o, in, chain[8];
    assert_int_equal(ws_mem_alloc(s, 4096, &o), WS_OK);
    assert_int_equal(ws_mem_alloc(s, 4096, &in), WS_OK);
    for (int i = 0; i < 8; i++)
        chain[i] = in;
    assert_int_equal(ws_mem_write(s, in, chain, sizeof chain), WS_OK);
    uint64_t params[2] = {o, in};
    ws_launch_desc d = {{grid, 1, 1}, {block, 1, 1}, 0, params, sizeof params};
    *rc = ws_launch(s, m, ws_module_kernel(m, "k"), &d, err, sizeof err);
    if (out)
        *out = o;
    return s;
}

static const ws_launch_stats *last_launch(const ws_sim *s)
{
    size_t n;
    const ws_launch_stats *st = ws_sim_launches(s, &n);
    return &st[n - 1];
}

/* Runs kernel k on a 1-SM GPU with the simple memory model; returns its cycle count
 * (0 on failure unless rc_out is given) and copies 64 bytes of `out` to out_host. */
static uint64_t run(const char *ptx, uint32_t threads, const char *sets, uint64_t *out_host, ws_err *rc_out)
{
    char all[512];
    snprintf(all, sizeof all, "gpu.n_sm=1,sim.mode=timing,mem.model=simple%s%s", sets ? "," : "",
             sets ? sets : "");
    ws_err rc;
    uint64_t out;
    ws_sim *s = launch(all, ptx, 1, threads, &rc, &out);
    if (rc_out)
        *rc_out = rc;
    uint64_t cycles = rc == WS_OK || rc_out ? last_launch(s)->t.cycles : 0;
    if (out_host)
        ws_mem_read(s, out_host, out, 8 * 8);
    ws_sim_destroy(s);
    return cycles;
}

static const char *HEAD = "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, 1;\n"
                          "mov.u32 %r2, 2;\nmov.u32 %r3, 3;\nmov.u32 %r4, 4;\nmov.u32 %r5, 5;\n"
                          "mov.u32 %r6, 6;\nmov.u32 %r7, 7;\nmov.u32 %r8, 8;\nmov.f32 %f9, 0f3F000000;\n";
static const char *TAIL = "st.global.u32 [%rd1], %r1;\nexit;";

/* A dependent chain: each add reads the previous add's result. It issues the cycle
 * its source's writeback frees the scoreboard, lat_alu = 4 cycles after the previous
 * issue; the 2-entry instruction buffer refills during the wait (1-cycle L1I hit).
 * So 64 more adds take exactly 64 x 4 = 256 more cycles; with lat_alu = 9, 576. */
static void t_dependent_chain(void **state)
{
    (void)state;
    char *a = kernel(HEAD, "add.s32 %%r1, %%r1, 1;\n", 64, TAIL);
    char *b = kernel(HEAD, "add.s32 %%r1, %%r1, 1;\n", 128, TAIL);
    uint64_t ca = run(a, 32, NULL, NULL, NULL), cb = run(b, 32, NULL, NULL, NULL);
    assert_int_equal(cb - ca, 64 * 4);
    ca = run(a, 32, "core.lat_alu=9", NULL, NULL);
    cb = run(b, 32, "core.lat_alu=9", NULL, NULL);
    assert_int_equal(cb - ca, 64 * 9);
    free(a);
    free(b);
}

/* Coalescing: one warp loads a[tid * stride] (4-byte words); requests per memory
 * instruction = distinct 128-byte lines the 32 lanes touch: stride 0 (broadcast) 1,
 * stride 4 B 1, 8 B 2, 16 B 4, 128 B 32; with 32-byte sectors: 1, 4, 8, 16, 32. */
static void t_coalescing(void **state)
{
    (void)state;
    static const uint32_t stride[5] = {0, 4, 8, 16, 128};
    static const uint64_t lines[5] = {1, 1, 2, 4, 32}, sectors[5] = {1, 4, 8, 16, 32};
    for (int k = 0; k < 5; k++) {
        char body[512];
        snprintf(body, sizeof body,
                 "mov.u32 %%%%r1, %%%%tid.x;\nmul.wide.u32 %%%%rd3, %%%%r1, %u;\n"
                 "add.s64 %%%%rd3, %%%%rd2, %%%%rd3;\nld.global.u32 %%%%r2, [%%%%rd3];\n", stride[k]);
        for (int sect = 0; sect < 2; sect++) {
            char *ptx = kernel("ld.param.u64 %rd2, [in];\n", body, 1, "exit;");
            ws_err rc;
            ws_sim *s = launch(sect ? "gpu.n_sm=1,sim.mode=timing,l1d.sector=32" : "gpu.n_sm=1,sim.mode=timing",
                               ptx, 1, 32, &rc, NULL);
            assert_int_equal(rc, WS_OK);
            const ws_timing_stats *t = &last_launch(s)->t;
            /* plus the kernel's ld.param: one constant-cache request, 32 lanes x 8 bytes */
            assert_int_equal(t->mem_insts, 2);
            assert_int_equal(t->mem_reqs, 1 + (sect ? sectors[k] : lines[k]));
            assert_int_equal(t->mem_bytes_used, 32 * 8 + 32 * 4);
            ws_sim_destroy(s);
            free(ptx);
        }
    }
}

/* Register-file banks (core.rf_banks): %r1, %r9 and %r17 are 8 register slots apart,
 * so with 8 banks (or 4) all three sources of the mad sit in one bank and are read in
 * 3 successive cycles: 2 extra cycles on top of lat_imul = 5, so each dependent mad
 * takes 7 cycles instead of 5; with 16 banks r1 and r17 (16 apart) still collide: 1
 * extra, 6. Without the model (0 banks): 5. */
static void t_register_banks(void **state)
{
    (void)state;
    char *a = kernel(HEAD, "mad.lo.s32 %%r1, %%r1, %%r9, %%r17;\n", 64, TAIL);
    char *b = kernel(HEAD, "mad.lo.s32 %%r1, %%r1, %%r9, %%r17;\n", 128, TAIL);
    assert_int_equal(run(b, 32, NULL, NULL, NULL) - run(a, 32, NULL, NULL, NULL), 64 * 5);
    assert_int_equal(run(b, 32, "core.rf_banks=8", NULL, NULL) - run(a, 32, "core.rf_banks=8", NULL, NULL), 64 * 7);
    assert_int_equal(run(b, 32, "core.rf_banks=4", NULL, NULL) - run(a, 32, "core.rf_banks=4", NULL, NULL), 64 * 7);
    assert_int_equal(run(b, 32, "core.rf_banks=16", NULL, NULL) - run(a, 32, "core.rf_banks=16", NULL, NULL), 64 * 6);
    free(a);
    free(b);
}

/* Independent adds (destinations rotate over 8 registers, far apart in time) from one
 * warp: one per cycle. After two issues the buffer is empty and the fetch stage
 * refills it the same cycle; the 1-cycle L1I hit makes it usable the next cycle, so
 * no bubble: 64 more adds = 64 more cycles. */
static void t_independent_issue(void **state)
{
    (void)state;
    char *a = kernel(HEAD, "add.s32 %%r%d, %%r%d, 3;\n", 64, TAIL);
    char *b = kernel(HEAD, "add.s32 %%r%d, %%r%d, 3;\n", 128, TAIL);
    assert_int_equal(run(b, 32, NULL, NULL, NULL) - run(a, 32, NULL, NULL, NULL), 64);
    /* two warps, two schedulers: both issue every cycle, still 64 cycles for 64 more
     * adds per warp; with one scheduler the two warps share one issue slot: 128 */
    assert_int_equal(run(b, 64, NULL, NULL, NULL) - run(a, 64, NULL, NULL, NULL), 64);
    assert_int_equal(run(b, 64, "core.n_schedulers=1", NULL, NULL) - run(a, 64, "core.n_schedulers=1", NULL, NULL), 128);
    /* separate integer pipelines: one INT unit (ii 1) takes one add per cycle from the
     * two schedulers together: 128; two INT units: 64 again */
    assert_int_equal(run(b, 64, "core.n_int=1", NULL, NULL) - run(a, 64, "core.n_int=1", NULL, NULL), 128);
    assert_int_equal(run(b, 64, "core.n_int=2", NULL, NULL) - run(a, 64, "core.n_int=2", NULL, NULL), 64);
    free(a);
    free(b);
}

/* core.rotate_schedulers: two warps (warp w on scheduler w) each issue 32 independent
 * fp32 adds into one SP unit (core.n_sp=1, ii 1: one add per cycle from both schedulers
 * together), then read %clock (a move: INT unit) and store it to out[w]; two fetches
 * per cycle keep both instruction buffers full. Fixed order: scheduler 0 always asks
 * first, so warp 0 takes the SP unit every cycle and issues its 32 adds back to back
 * while warp 1 waits; warp 1 cannot issue its first add before the cycle of warp 0's
 * clock read, so its own clock read comes at least 32 cycles after warp 0's (34 here:
 * warp 0's tail moves delay it twice more). Rotating: the first scheduler alternates
 * every cycle, so the warps take the SP unit in turn and the last adds are at most one
 * turn (2 cycles) apart: the clock reads differ by at most 2. */
static void t_rotate_schedulers(void **state)
{
    (void)state;
    const char *head = "ld.param.u64 %rd1, [out];\n";
    const char *tail = "mov.u32 %r21, %clock;\nmov.u32 %r20, %tid.x;\nshr.u32 %r20, %r20, 5;\n"
                       "mul.wide.u32 %rd5, %r20, 4;\nadd.s64 %rd5, %rd1, %rd5;\n"
                       "st.global.u32 [%rd5], %r21;\nexit;";
    char *ptx = kernel(head, "add.f32 %%f%d, %%f%d, 0f3F800000;\n", 32, tail);
    uint64_t outf[8], outr[8];
    uint64_t cf = run(ptx, 64, "core.n_sp=1,core.n_int=1,core.fetch_per_cycle=2,core.rotate_schedulers=false", outf, NULL);
    uint64_t cr = run(ptx, 64, "core.n_sp=1,core.n_int=1,core.fetch_per_cycle=2,core.rotate_schedulers=true", outr, NULL);
    uint32_t f[2], r[2];
    memcpy(f, outf, sizeof f);
    memcpy(r, outr, sizeof r);
    assert_true(f[1] >= f[0] + 32);
    assert_true(r[1] > r[0] ? r[1] - r[0] <= 2 : r[0] - r[1] <= 2);
    (void)cf;
    (void)cr;
    free(ptx);
}

/* core.mem_inst_queue: two warps (one per scheduler) each issue one load whose 32 lanes
 * touch 32 different 128-byte lines (32 requests), then read %clock (the cycle after the
 * load issued: it does not wait for the load) and store it to out[w]. The LD/ST queue
 * sends one request per cycle to the L1. With the older rule (Q = 0) a memory
 * instruction issues only while fewer than core.ldst_queue = 8 requests wait: 25 sends
 * after the first load issued, 7 are left; that cycle is scheduler 0's turn to ask
 * first (core.rotate_schedulers), and its warp takes the slot for its own store (one
 * more request: 8); one send later the second warp's load issues: its clock read comes
 * 26 cycles after the first warp's. With Q = 4 the second
 * load waits in order behind the first and issues in the next cycle (the one LD/ST
 * unit takes one instruction per cycle): the clock reads are 1 cycle apart. */
static void t_mem_inst_queue(void **state)
{
    (void)state;
    const char *head = "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\n"
                       "and.b32 %r3, %r1, 31;\nmul.wide.u32 %rd3, %r3, 128;\nadd.s64 %rd3, %rd2, %rd3;\nshr.u32 %r20, %r1, 5;\n"
                       "mul.wide.u32 %rd5, %r20, 4;\nadd.s64 %rd5, %rd1, %rd5;\n";
    const char *tail = "ld.global.u32 %r2, [%rd3];\nmov.u32 %r21, %clock;\n"
                       "st.global.u32 [%rd5], %r21;\nexit;";
    char *ptx = kernel(head, "", 0, tail);
    uint64_t o0[8], o4[8];
    run(ptx, 64, "core.mem_inst_queue=0", o0, NULL);
    run(ptx, 64, "core.mem_inst_queue=4", o4, NULL);
    uint32_t a[2], b[2];
    memcpy(a, o0, sizeof a);
    memcpy(b, o4, sizeof b);
    assert_int_equal(a[1] - a[0], 26);
    assert_int_equal(b[1] - b[0], 1);
    free(ptx);
}

/* Independent SFU instructions: one SFU with initiation interval 8 accepts one warp
 * instruction every 8 cycles, so 32 more take 32 x 8 = 256 more cycles; with two SFUs,
 * two every 8 cycles: 128. */
static void t_sfu_initiation_interval(void **state)
{
    (void)state;
    char *a = kernel(HEAD, "sin.approx.f32 %%f%d, %%f9;\n", 32, TAIL);
    char *b = kernel(HEAD, "sin.approx.f32 %%f%d, %%f9;\n", 64, TAIL);
    assert_int_equal(run(b, 32, NULL, NULL, NULL) - run(a, 32, NULL, NULL, NULL), 32 * 8);
    assert_int_equal(run(b, 32, "core.n_sfu=2", NULL, NULL) - run(a, 32, "core.n_sfu=2", NULL, NULL), 32 * 4);
    free(a);
    free(b);
}

/* A pointer chase: each load's address is the previous load's value. The load issues
 * at t, its request goes to memory at t+1 (the LD/ST unit sends one request per
 * cycle, starting the cycle after issue), the simple model answers after
 * mem.simple_latency = 400 cycles, at t+401, and the next load issues that cycle.
 * So 4 more dependent loads take 4 x 401 more cycles. */
static void t_dependent_loads(void **state)
{
    (void)state;
    char *a = kernel(HEAD, "ld.global.u64 %%rd2, [%%rd2];\n", 4, TAIL);
    char *b = kernel(HEAD, "ld.global.u64 %%rd2, [%%rd2];\n", 8, TAIL);
    assert_int_equal(run(b, 32, NULL, NULL, NULL) - run(a, 32, NULL, NULL, NULL), 4 * 401);
    assert_int_equal(run(b, 32, "mem.simple_latency=100", NULL, NULL) -
                         run(a, 32, "mem.simple_latency=100", NULL, NULL), 4 * 101);
    free(a);
    free(b);
}

/* Barrier: warp 1 runs a 64-add chain and then writes shared memory; warp 0 waits at
 * bar.sync, then reads what warp 1 wrote. Functional execution happens at issue, so
 * the value is right only if the barrier held warp 0 until warp 1 arrived. */
static void t_barrier_orders(void **state)
{
    (void)state;
    const char *ptx =
        ".version 7.5\n.target sm_75\n.address_size 64\n"
        ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
        ".reg .pred %p<4>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<40>;\n"
        ".shared .align 4 .b32 sm[64];\n"
        "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, 0;\n"
        "setp.lt.u32 %p1, %r1, 32;\n@%p1 bra WAIT;\n"
        "LOOP:\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p2, %r2, 64;\n@%p2 bra LOOP;\n"
        "mov.u32 %r3, sm;\nshl.b32 %r4, %r1, 2;\nadd.s32 %r3, %r3, %r4;\nst.shared.u32 [%r3], %r2;\n"
        "WAIT:\nbar.sync 0;\n"
        "setp.ne.u32 %p3, %r1, 0;\n@%p3 bra DONE;\n"
        "mov.u32 %r5, sm;\nld.shared.u32 %r6, [%r5+160];\nst.global.u32 [%rd1], %r6;\n"
        "DONE:\nexit;\n}\n";
    uint64_t out[8];
    assert_true(run(ptx, 64, NULL, out, NULL) > 64 * 4);
    assert_int_equal((uint32_t)out[0], 64);   /* sm[40] written by thread 40 */
}

/* Occupancy on the GTX480 preset (1536 threads, 48 warps, 8 CTAs, 32768 registers in
 * units of 64 per warp, 48 KB shared per SM):
 *  256 threads, 20 regs: warp = ceil(20 x 32 / 64) x 64 = 640, CTA = 8 x 640 = 5120
 *    -> registers 6, threads 6, warps 6, CTAs 8: 6 (threads first)
 *  + 10 KB shared: 49152 / 10240 = 4 -> 4, limited by shared
 *  256 threads, 63 regs: warp = 2048, CTA 16384 -> 2, limited by registers
 *  64 threads, 8 regs: threads 24, warps 24, regs 64 -> the 8-CTA limit */
static void t_occupancy(void **state)
{
    (void)state;
    ws_config cfg;
    char err[256];
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    ptx_func f;
    memset(&f, 0, sizeof f);
    assert_int_equal(ws_config_set(&cfg, "core.regs_per_thread=20", err, sizeof err), 0);
    occupancy o = occupancy_compute(&cfg, NULL, &f, 256, 0);
    assert_int_equal(o.ctas_per_sm, 6);
    assert_string_equal(o.limiter, "threads");
    o = occupancy_compute(&cfg, NULL, &f, 256, 10240);
    assert_int_equal(o.ctas_per_sm, 4);
    assert_string_equal(o.limiter, "shared");
    assert_int_equal(ws_config_set(&cfg, "core.regs_per_thread=63", err, sizeof err), 0);
    o = occupancy_compute(&cfg, NULL, &f, 256, 0);
    assert_int_equal(o.ctas_per_sm, 2);
    assert_string_equal(o.limiter, "registers");
    assert_int_equal(ws_config_set(&cfg, "core.regs_per_thread=8", err, sizeof err), 0);
    o = occupancy_compute(&cfg, NULL, &f, 64, 0);
    assert_int_equal(o.ctas_per_sm, 8);
    assert_string_equal(o.limiter, "ctas");
    assert_string_equal(o.regs_source, "config");
}

/* Where the register count comes from (32768 registers per SM, units of 64 per warp):
 *  ptxas 51, 256 threads: warp = ceil(51 x 32 / 64) x 64 = 1664, CTA = 8 x 1664 = 13312
 *    -> 32768 / 13312 = 2 CTAs, limited by registers (GPGPU-Sim's reduction: 2 per SM)
 *  the same kernel with core.regs_source = estimate and .maxnreg 20: warp 640, CTA 5120
 *    -> registers 6, threads 6: 6 CTAs, limited by threads
 *  core.regs_per_thread = 63 beats both: warp 2048, CTA 16384 -> 2 */
static void t_occupancy_regs_source(void **state)
{
    (void)state;
    ws_config cfg;
    char err[256];
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    ptx_func f;
    memset(&f, 0, sizeof f);
    f.ptxas_regs = 51;
    f.maxnreg = 20;
    assert_int_equal(cfg.core.regs_source, WS_REGS_PTXAS);
    occupancy o = occupancy_compute(&cfg, NULL, &f, 256, 0);
    assert_int_equal(o.regs_per_thread, 51);
    assert_int_equal(o.ctas_per_sm, 2);
    assert_string_equal(o.limiter, "registers");
    assert_string_equal(o.regs_source, "ptxas");
    assert_int_equal(ws_config_set(&cfg, "core.regs_source=estimate", err, sizeof err), 0);
    o = occupancy_compute(&cfg, NULL, &f, 256, 0);
    assert_int_equal(o.regs_per_thread, 20);
    assert_int_equal(o.ctas_per_sm, 6);
    assert_string_equal(o.limiter, "threads");
    assert_string_equal(o.regs_source, "maxnreg");
    assert_int_equal(ws_config_set(&cfg, "core.regs_source=ptxas", err, sizeof err), 0);
    assert_int_equal(ws_config_set(&cfg, "core.regs_per_thread=63", err, sizeof err), 0);
    o = occupancy_compute(&cfg, NULL, &f, 256, 0);
    assert_int_equal(o.regs_per_thread, 63);
    assert_int_equal(o.ctas_per_sm, 2);
    assert_string_equal(o.regs_source, "config");
    assert_int_not_equal(ws_config_set(&cfg, "core.regs_source=sass", err, sizeof err), 0);
}

/* A barrier that expects 64 threads in a CTA of 32 never completes: both modes
 * report a deadlock instead of hanging. */
static void t_deadlock(void **state)
{
    (void)state;
    const char *ptx = ".version 7.5\n.target sm_75\n.address_size 64\n"
                      ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                      "bar.sync 0, 64;\nexit;\n}\n";
    ws_err rc;
    run(ptx, 32, NULL, NULL, &rc);
    assert_int_equal(rc, WS_E_DEADLOCK);
    run(ptx, 32, "sim.mode=functional", NULL, &rc);
    assert_int_equal(rc, WS_E_DEADLOCK);
}

/* The policy a launch reports is its scheduler's label op: static-select names the
 * choice its on_launch hook made from this kernel (one .global block of weight 1:
 * score 1, LRR at threshold 1, GTO at 2). An unknown scheduler or divergence policy
 * fails the launch with the registry's names. */
static void t_policy_label(void **state)
{
    (void)state;
    char *ptx = kernel(HEAD, "add.s32 %%r1, %%r1, 1;\n", 4, TAIL);
    static const char *const sets[] = {
        "gpu.n_sm=1,sim.mode=timing,core.scheduler=static-select",
        "gpu.n_sm=1,sim.mode=timing,core.scheduler=static-select,sched.static_threshold=2",
        "gpu.n_sm=1,sim.mode=timing,core.scheduler=two-level",
    };
    static const char *const want[] = {"static-select(lrr)", "static-select(gto)", "two-level"};
    for (int i = 0; i < 3; i++) {
        ws_err rc;
        ws_sim *s = launch(sets[i], ptx, 1, 32, &rc, NULL);
        assert_int_equal(rc, WS_OK);
        assert_string_equal(last_launch(s)->policy, want[i]);
        ws_sim_destroy(s);
    }
    static const char *const bad[] = {"sim.mode=timing,core.scheduler=nosuch",
                                      "func.divergence=nosuch"};
    static const char *const msg[] = {
        "core.scheduler=nosuch (known: lrr, gto, oldest, two-level, mto, motrr, motrr-recency, "
        "static-select)",
        "func.divergence=nosuch (known: simt-stack, path-table)"};
    for (int i = 0; i < 2; i++) {
        ws_config cfg;
        char err[1024] = "";
        ws_config_defaults(&cfg);
        legacy_cfg(&cfg);
        assert_int_equal(ws_config_set(&cfg, bad[i], err, sizeof err), 0);
        ws_sim *s = ws_sim_create(&cfg);
        ws_module *m;
        assert_int_equal(ws_module_load(s, ptx, strlen(ptx), "t.ptx", &m, err, sizeof err), WS_OK);
        uint64_t o;
        assert_int_equal(ws_mem_alloc(s, 4096, &o), WS_OK);
        uint64_t params[2] = {o, o};
        ws_launch_desc d = {{1, 1, 1}, {32, 1, 1}, 0, params, sizeof params};
        assert_int_not_equal(ws_launch(s, m, ws_module_kernel(m, "k"), &d, err, sizeof err), WS_OK);
        if (!strstr(err, msg[i]))
            fail_msg("'%s' lacks '%s'", err, msg[i]);
        ws_sim_destroy(s);
    }
    free(ptx);
}

/* Idle skipping (core.skip_idle) must not change any statistic: run a kernel with
 * memory waits, divergence and a barrier both ways, on both memory models, and
 * compare every timing field and the memory model's JSON. */
static void t_skip_idle_equivalence(void **state)
{
    (void)state;
    const char *ptx =
        ".version 7.5\n.target sm_75\n.address_size 64\n"
        ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
        ".reg .pred %p<4>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<40>;\n"
        "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, 0;\n"
        "mov.u32 %r4, 0;\n"
        "LOOP:\nld.global.u64 %rd2, [%rd2];\nand.b32 %r3, %r1, 3;\nsetp.eq.u32 %p1, %r3, 0;\n"
        "@%p1 bra SKIP;\nmul.lo.s32 %r2, %r2, 7;\nSKIP:\nadd.s32 %r2, %r2, 1;\nbar.sync 0;\n"
        "add.s32 %r4, %r4, 1;\nsetp.lt.u32 %p2, %r4, 20;\n@%p2 bra LOOP;\nst.global.u32 [%rd1], %r2;\nexit;\n}\n";
    for (int model = 0; model < 2; model++) {
    ws_timing_stats a[2];
    char *mj[2];
    for (int k = 0; k < 2; k++) {
        char sets[160];
        snprintf(sets, sizeof sets, "gpu.n_sm=2,sim.mode=timing,mem.model=%s%s", model ? "detailed" : "simple",
                 k ? ",core.skip_idle=false" : "");
        ws_err rc;
        ws_sim *s = launch(sets, ptx, 5, 96, &rc, NULL);
        assert_int_equal(rc, WS_OK);
        a[k] = last_launch(s)->t;
        /* less mem.l2_ahead's host counts of cycles run ahead, which the settings compared
         * change (every statistic is the same: test_ahead) */
        cJSON_DeleteItemFromObject(a[k].mem, "host_ahead_l2_cycles");
        cJSON_DeleteItemFromObject(a[k].mem, "host_ahead_dram_cycles");
        mj[k] = a[k].mem ? cJSON_PrintUnformatted(a[k].mem) : NULL;
        assert_non_null(mj[k]);
        a[k].mem = NULL;
        a[k].occupancy_limiter = NULL;
        ws_sim_destroy(s);
    }
    assert_string_equal(mj[0], mj[1]);
    free(mj[0]);
    free(mj[1]);
    assert_true(a[0].cycles > 20 * 20);   /* memory waits happened */
    assert_int_equal(a[0].cycles, a[1].cycles);
    assert_int_equal(a[0].stall_cycles, a[1].stall_cycles);
    assert_int_equal(a[0].warps_in_flight_sum, a[1].warps_in_flight_sum);
    assert_memory_equal(a[0].slot, a[1].slot, sizeof a[0].slot);
    assert_memory_equal(&a[0], &a[1], sizeof a[0]);
    }
}

/* CTA dispatch is round robin over SMs, one CTA per SM per cycle: with 3 SMs and
 * 7 one-warp CTAs (8 fit per SM), CTA c lands on SM c mod 3 (all placed at once). */
static void t_dispatch_round_robin(void **state)
{
    (void)state;
    const char *ptx = ".version 7.5\n.target sm_75\n.address_size 64\n"
                      ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                      ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
                      "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %smid;\n"
                      "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd1, %rd1, %rd2;\n"
                      "st.global.u32 [%rd1], %r2;\nexit;\n}\n";
    ws_err rc;
    uint64_t out;
    ws_sim *s = launch("gpu.n_sm=3,sim.mode=timing", ptx, 7, 32, &rc, &out);
    assert_int_equal(rc, WS_OK);
    uint32_t smid[7];
    assert_int_equal(ws_mem_read(s, smid, out, sizeof smid), WS_OK);
    for (uint32_t c = 0; c < 7; c++)
        assert_int_equal(smid[c], c % 3);
    ws_sim_destroy(s);
}

/* The core-model seam (core/core_model.h): the registry lists "fermi" once with every
 * op; core.model=fermi is the default (identical statistics when named); an unknown
 * name fails the launch as an invalid value. */
static void t_core_model(void **state)
{
    (void)state;
    const core_model *f = core_model_find("fermi");
    assert_non_null(f);
    assert_ptr_equal(core_model_at(0), f);
    size_t k = 0;
    for (; core_model_at(k) && k < 64; k++) {
        const core_model *c = core_model_at(k);
        assert_ptr_equal(core_model_find(c->name), c);
        assert_non_null(c->desc);
        assert_true(c->occupancy && c->launch_create && c->launch_destroy && c->create && c->destroy &&
                    c->cycle && c->next_event && c->repeat_cycle_stats && c->can_take_cta &&
                    c->take_cta && c->busy && c->stats && c->dump);
    }
    assert_null(core_model_at(k));
    assert_null(core_model_find("Fermi"));
    assert_null(core_model_find(""));
    assert_null(core_model_find(NULL));
    ws_config cfg;
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    assert_string_equal(cfg.core.model, "fermi");

    char *ptx = kernel(HEAD, "add.s32 %%r1, %%r1, 1;\n", 16, TAIL);
    ws_timing_stats a[2];
    for (int i = 0; i < 2; i++) {
        ws_err rc;
        ws_sim *s = launch(i ? "gpu.n_sm=2,sim.mode=timing,core.model=fermi" : "gpu.n_sm=2,sim.mode=timing",
                           ptx, 3, 64, &rc, NULL);
        assert_int_equal(rc, WS_OK);
        a[i] = last_launch(s)->t;
        a[i].mem = NULL;
        ws_sim_destroy(s);
    }
    assert_true(a[0].cycles > 16);
    assert_memory_equal(&a[0], &a[1], sizeof a[0]);
    ws_err rc;
    ws_sim *s = launch("sim.mode=timing,core.model=no-such-core", ptx, 1, 32, &rc, NULL);
    assert_int_equal(rc, WS_E_INVALID_VALUE);
    ws_sim_destroy(s);
    free(ptx);
}

/* Feeds slices to the chooser: `n` of them, each taking t[way] s (the way it runs:
 * timing_adapt_way; t has one entry per way compared) for `work` units; returns what
 * the last call returned. */
static int adapt_feed3(timing_adapt *ad, int n, const double *t, uint64_t work)
{
    int r = timing_adapt_way(ad);
    for (int k = 0; k < n; k++)
        r = timing_adapt_next(ad, t[timing_adapt_way(ad)], work);
    return r;
}

/* The same with two ways: `team` s on the team, `alone` s on the calling thread. */
static int adapt_feed(timing_adapt *ad, int n, double team, double alone, uint64_t work)
{
    const double t[3] = {team, alone, alone};
    return adapt_feed3(ad, n, t, work);
}

/* sim.host_threads_adapt's rounds with two ways (timing.h): TIMING_WARM slices run
 * serially (alone) and are not compared (however slow); then each round's 32 test
 * slices alternate team (even) and alone (odd), and the rest of the round (128 slices)
 * runs the faster of the two per unit of work (the median of its test slices'). The state lives in the simulation's keep,
 * so a slice that spans launches is timed by its parts (t_past, w_past). By hand: round
 * 1, team 10 us per unit, alone 12 -> the team for slices 32..127; round 2, team 0.020 s
 * for 1500 (0.004 s / 500 + 0.016 s / 1000 over two launches: 13.3 us per unit), then
 * 0.020 s / 1000 (20 us; after its fourth slice over twice alone's: dropped, alone takes
 * its slices), alone 0.006 s / 1000 (6 us) -> alone for 32..127 (a new
 * winner: 128 slices), and a round twice as long after each round alone wins again, up
 * to TIMING_ROUND_MAX; then the team wins: back to 128, and twice as long when it wins
 * again. The slices outside the tests cost what the winner's tests did (no re-test). */
static void t_adapt_rounds(void **state)
{
    (void)state;
    timing_adapt ad;
    timing_adapt_init(&ad, 2);
    assert_int_equal(timing_adapt_test(&ad), 32);
    assert_int_equal(timing_adapt_round(&ad), 128);
    assert_int_equal(timing_adapt_way(&ad), TIMING_ALONE);       /* the warm-up: serial       */
    assert_int_equal(adapt_feed(&ad, TIMING_WARM, 9.0, 9.0, 1), TIMING_TEAM);   /* not compared */
    assert_true(ad.warm == TIMING_WARM && ad.i == 0 && ad.ns[0] == 0 && ad.ref == 9.0);
    for (int k = 0; k < 31; k++)                                /* the test alternates       */
        assert_int_equal(timing_adapt_next(&ad, k & 1 ? 0.012 : 0.010, 1000), (k + 1) & 1);
    assert_int_equal(timing_adapt_next(&ad, 0.012, 1000), 0);   /* team faster: 32..127      */
    assert_int_equal(ad.win, TIMING_TEAM);
    assert_int_equal(ad.len, 128);
    assert_true(ad.ref > 0.99e-5 && ad.ref < 1.01e-5);          /* the team's 10 us per unit */
    assert_true(ad.ns[0] == 0 && ad.ns[1] == 0);                 /* (the test's slices cleared) */
    assert_int_equal(adapt_feed(&ad, 128 - 32 - 1, 0.010, 0.010, 1000), 0);
    assert_int_equal(ad.i, 127);                                /* (their times not counted) */
    assert_int_equal(timing_adapt_next(&ad, 0.010, 1000), 0);   /* round 2, slice 0: team    */
    assert_int_equal(ad.i, 0);
    ad.t_past = 0.004;                                          /* a launch ended mid-slice  */
    ad.w_past = 500;
    assert_int_equal(timing_adapt_next(&ad, ad.t_past + 0.016, ad.w_past + 1000), 1);
    assert_true(ad.ns[0] == 1 && ad.u[0][0] > 0.0199 / 1500 && ad.u[0][0] < 0.0201 / 1500);
    assert_true(ad.t_past == 0.0 && ad.w_past == 0 && ad.n == 0);
    assert_int_equal(adapt_feed(&ad, 31, 0.020, 0.006, 1000), 1);   /* alone               */
    assert_int_equal(ad.win, TIMING_ALONE);
    assert_int_equal(ad.len, 128);                              /* (a new winner)            */
    assert_int_equal(ad.i, 32);
    assert_int_equal(adapt_feed(&ad, 128 - 32 - 1, 0.020, 0.006, 1000), 1);
    assert_int_equal(timing_adapt_next(&ad, 0.006, 1000), 0);   /* round 3, slice 0: team    */
    for (uint32_t len = 2 * 128; len <= TIMING_ROUND_MAX; len *= 2) {
        assert_int_equal(adapt_feed(&ad, 32, 0.020, 0.006, 1000), 1);  /* alone wins */
        assert_int_equal(ad.len, len);
        while (ad.i != 0)
            (void)timing_adapt_next(&ad, 0.006, 1000);
    }
    assert_int_equal(adapt_feed(&ad, 32, 0.020, 0.006, 1000), 1);
    assert_int_equal(ad.len, TIMING_ROUND_MAX);                 /* capped                    */
    while (ad.i != 0)
        (void)timing_adapt_next(&ad, 0.006, 1000);
    assert_int_equal(adapt_feed(&ad, 32, 0.006, 0.020, 1000), 0);  /* the team wins */
    assert_int_equal(ad.len, 128);                              /* back to 128               */
    while (ad.i != 0)
        (void)timing_adapt_next(&ad, 0.006, 1000);
    assert_int_equal(adapt_feed(&ad, 32, 0.006, 0.020, 1000), 0);  /* and again     */
    assert_int_equal(ad.len, 2 * 128);
    assert_int_equal(ad.n_retest, 0);
}

/* A chooser of three or four ways, fresh: its warm-up (serial; each slice t[TIMING_SERIAL]
 * s for 1000 units: the first reference) and its first round's test, whose slices take
 * the ways in turn, each t[way] s; returns the round's winner. */
static int adapt_first_round(timing_adapt *ad, const double *t)
{
    const uint32_t ways = timing_adapt_ways(ad), test = timing_adapt_test(ad);
    assert_int_equal(adapt_feed3(ad, TIMING_WARM, t, 1000), TIMING_TEAM);
    assert_true(ad->ref > t[TIMING_SERIAL] * 0.999e-3 && ad->ref < t[TIMING_SERIAL] * 1.001e-3);
    for (uint32_t k = 0; k + 1 < test; k++) {                      /* in turn                   */
        assert_int_equal(timing_adapt_way(ad), k % ways);
        assert_int_equal(timing_adapt_next(ad, t[k % ways], 1000), (k + 1) % ways);
    }
    return timing_adapt_next(ad, t[(test - 1) % ways], 1000);
}

/* Three ways (a memory model with a thread of its own): the warm-up runs TIMING_SERIAL;
 * a round's 48 test slices take team, alone, serial in turn (16 each), the round is 192
 * slices. By hand: team 10 us per unit, alone 8, serial 9 -> alone for 48..191; the next
 * round serial 5 us (alone 8, team 10) -> serial, a new winner: 192 again; then serial
 * again -> 384. A tie goes to the first way. */
static void t_adapt_three_ways(void **state)
{
    (void)state;
    timing_adapt ad;
    timing_adapt_init(&ad, 3);
    assert_int_equal(timing_adapt_test(&ad), 48);
    assert_int_equal(timing_adapt_round(&ad), 192);
    assert_int_equal(timing_adapt_way(&ad), TIMING_SERIAL);
    assert_int_equal(timing_adapt_serial(&ad), 1);
    const double a[3] = {0.010, 0.008, 0.009}, b[3] = {0.010, 0.008, 0.005}, tie[3] = {0.007, 0.007, 0.007};
    assert_int_equal(adapt_first_round(&ad, a), TIMING_ALONE);
    assert_true(ad.win == TIMING_ALONE && ad.len == 192 && ad.i == 48);
    assert_true(ad.ref > 7.99e-6 && ad.ref < 8.01e-6);
    assert_int_equal(adapt_feed3(&ad, 192 - 48, a, 1000), TIMING_TEAM);   /* round 2 */
    assert_int_equal(adapt_feed3(&ad, 48, b, 1000), TIMING_SERIAL);
    assert_true(ad.win == TIMING_SERIAL && ad.len == 192);
    assert_int_equal(adapt_feed3(&ad, 192 - 48, b, 1000), TIMING_TEAM);
    assert_int_equal(adapt_feed3(&ad, 48, b, 1000), TIMING_SERIAL);
    assert_int_equal(ad.len, 384);
    while (ad.i != 0)
        (void)timing_adapt_next(&ad, 0.005, 1000);
    assert_int_equal(adapt_feed3(&ad, 48, tie, 1000), TIMING_TEAM);   /* a tie: the first */
    assert_int_equal(ad.len, 192);
}

/* Four ways (a memory model with a thread of its own that can also take a share of the
 * SM phases): the warm-up runs TIMING_SERIAL; a round's 64 test slices take team, alone,
 * serial, both in turn (16 each), the round is 256 slices. By hand: team 10 us per unit,
 * alone 8, serial 9, both 6 -> both for 64..255 (its phases not on the calling thread
 * alone); the next round alone 5 us -> alone, a new winner: 256 again. */
static void t_adapt_four_ways(void **state)
{
    (void)state;
    timing_adapt ad;
    timing_adapt_init(&ad, 4);
    assert_int_equal(timing_adapt_test(&ad), 64);
    assert_int_equal(timing_adapt_round(&ad), 256);
    assert_int_equal(timing_adapt_way(&ad), TIMING_SERIAL);
    const double a[4] = {0.010, 0.008, 0.009, 0.006}, b[4] = {0.010, 0.005, 0.009, 0.006};
    assert_int_equal(adapt_first_round(&ad, a), TIMING_BOTH);
    assert_true(ad.win == TIMING_BOTH && ad.len == 256 && ad.i == 64);
    assert_true(ad.ref > 5.99e-6 && ad.ref < 6.01e-6);
    assert_int_equal(timing_adapt_serial(&ad), 0);
    assert_int_equal(adapt_feed3(&ad, 256 - 64, a, 1000), TIMING_TEAM);   /* round 2 */
    assert_int_equal(adapt_feed3(&ad, 64, b, 1000), TIMING_ALONE);
    assert_true(ad.win == TIMING_ALONE && ad.len == 256);
    assert_int_equal(timing_adapt_serial(&ad), 1);
}

/* Warm-up and test slices end after TIMING_TEST_S (timing_adapt_full), the round's
 * others only after TIMING_SLICE iterations: a fresh chooser of two ways is warming up
 * (short); 8 warm-up slices later its test (32 slices) is short too; after the test the
 * round's slices are not. By hand: 1.9 ms is not full, 2 ms is. */
static void t_adapt_full(void **state)
{
    (void)state;
    timing_adapt ad;
    timing_adapt_init(&ad, 2);
    assert_true(timing_adapt_short(&ad));
    assert_false(timing_adapt_full(&ad, 1.9e-3));
    assert_true(timing_adapt_full(&ad, 2e-3));
    (void)adapt_feed(&ad, TIMING_WARM, 0.002, 0.002, 100);
    assert_true(ad.warm == TIMING_WARM && timing_adapt_testing(&ad) && timing_adapt_short(&ad));
    assert_true(timing_adapt_full(&ad, 2e-3));
    (void)adapt_feed(&ad, 32, 0.002, 0.001, 100);   /* alone wins the test */
    assert_true(ad.i == 32 && ad.win == TIMING_ALONE);
    assert_false(timing_adapt_short(&ad));
    assert_false(timing_adapt_full(&ad, 1.0));
}

/* A test slice far costlier than the reference ends early (timing_adapt_cut): after a
 * warm-up of 1 us per unit (0.001 s / 1000), a test slice that has taken 0.002 s for
 * 1000 units is not cut (2 x 1 us x 1000 + 50 us = 0.00205 s), 0.0021 s is; no work
 * counts as 1 unit (52 us: 50 us is not cut, 60 us is); 10 units: 70 us (65 us is not
 * cut, 100 us is). Never during the warm-up, outside the test slices, or without a
 * reference. The cut slice counts what it did: team 0.0041 s for 1000 units (cut) + 15 x
 * 0.001 s / 1000, alone 16 x 0.0012 s / 1000 -> the team (its median 1.0 < 1.2 us per
 * unit: one slow slice does not decide; the sums would say 1.19 against 1.2). */
static void t_adapt_cut(void **state)
{
    (void)state;
    timing_adapt ad;
    timing_adapt_init(&ad, 2);
    assert_int_equal(timing_adapt_cut(&ad, 1.0, 1), 0);             /* warm-up, no reference */
    assert_int_equal(adapt_feed(&ad, TIMING_WARM, 0.001, 0.001, 1000), TIMING_TEAM);
    assert_true(ad.ref > 0.99e-6 && ad.ref < 1.01e-6);
    assert_int_equal(timing_adapt_cut(&ad, 0.002, 1000), 0);
    assert_int_equal(timing_adapt_cut(&ad, 0.0021, 1000), 1);
    assert_int_equal(timing_adapt_cut(&ad, 0.00005, 0), 0);
    assert_int_equal(timing_adapt_cut(&ad, 0.00006, 0), 1);
    assert_int_equal(timing_adapt_cut(&ad, 0.000065, 10), 0);
    assert_int_equal(timing_adapt_cut(&ad, 0.0001, 10), 1);
    assert_int_equal(timing_adapt_next(&ad, 0.0041, 1000), TIMING_ALONE);   /* (the cut slice) */
    for (int k = 1; k < 32; k++)
        (void)timing_adapt_next(&ad, k & 1 ? 0.0012 : 0.001, 1000);
    assert_int_equal(ad.win, TIMING_TEAM);
    assert_int_equal(ad.i, 32);
    assert_int_equal(ad.drop, 0);
    assert_int_equal(timing_adapt_cut(&ad, 1.0, 1), 0);             /* not a test slice      */
    timing_adapt none;
    timing_adapt_init(&none, 2);
    none.warm = TIMING_WARM;
    assert_int_equal(timing_adapt_cut(&none, 1.0, 1), 0);           /* no reference          */
    /* the first reference is the warm-up's median: 5, 1, 2, 9, 3, 4, 8, 7 us per unit ->
     * (4 + 5) / 2 = 4.5 us (their least, 1 us, would cut most slices of a slow start) */
    timing_adapt w;
    timing_adapt_init(&w, 3);
    const double wu[TIMING_WARM] = {5, 1, 2, 9, 3, 4, 8, 7};
    for (int k = 0; k < TIMING_WARM; k++)
        (void)timing_adapt_next(&w, wu[k] * 1e-3, 1000);
    assert_true(w.ref > 4.49e-6 && w.ref < 4.51e-6);
    assert_true(w.ns[0] == 0 && w.i == 0 && timing_adapt_way(&w) == TIMING_TEAM);
}

/* A way that loses by 2x over its first 4 test slices is dropped from the round's test:
 * three ways, team 30 us per unit, alone 10, serial 12. The team's slices are 0, 3, 6,
 * 9: after slice 9 it is dropped (30 > 2 x 10), and its slots 12, 15, ... 45 run the
 * leader, alone (10 < 12): before slice 47, alone 16 + 12 slices, serial 15, team 4; alone wins, and the
 * next round's test starts with the team again. */
static void t_adapt_drop(void **state)
{
    (void)state;
    timing_adapt ad;
    timing_adapt_init(&ad, 3);
    const double t[3] = {0.030, 0.010, 0.012};
    (void)adapt_feed3(&ad, TIMING_WARM, t, 1000);
    assert_int_equal(adapt_feed3(&ad, 9, t, 1000), TIMING_TEAM);   /* slice 9: the team     */
    assert_int_equal(ad.drop, 0);
    assert_int_equal(timing_adapt_next(&ad, t[0], 1000), TIMING_ALONE);   /* slice 10       */
    assert_int_equal(ad.drop, 1u << TIMING_TEAM);
    assert_int_equal(adapt_feed3(&ad, 2, t, 1000), TIMING_ALONE);  /* slice 12: the leader  */
    assert_int_equal(ad.i, 12);
    (void)adapt_feed3(&ad, 35, t, 1000);
    assert_int_equal(ad.i, 47);
    assert_true(ad.ns[TIMING_TEAM] == 4 && ad.ns[TIMING_ALONE] == 28 && ad.ns[TIMING_SERIAL] == 15);
    assert_int_equal(timing_adapt_next(&ad, t[2], 1000), TIMING_ALONE);   /* slice 47: serial */
    assert_true(ad.win == TIMING_ALONE && ad.drop == 0 && ad.ns[TIMING_ALONE] == 0);
    assert_int_equal(adapt_feed3(&ad, 192 - 48, t, 1000), TIMING_TEAM);
}

/* A long round is cut short by a slice that costs more than 4x the reference: alone
 * wins twice at 6 us per unit (the second round: 256 slices); a slice of 10x within the
 * round's first 128 slices changes nothing; at slice 128 one of 0.025 s / 1000 (25 us >
 * 4 x 6 + 0.05) starts a new round at once: a test, rounds of 128 again. One of
 * 0.024 s does not. */
static void t_adapt_retest(void **state)
{
    (void)state;
    timing_adapt ad;
    timing_adapt_init(&ad, 2);
    (void)adapt_feed(&ad, TIMING_WARM, 0.006, 0.006, 1000);
    (void)adapt_feed(&ad, 128, 0.020, 0.006, 1000);
    assert_int_equal(adapt_feed(&ad, 32, 0.020, 0.006, 1000), TIMING_ALONE);
    assert_true(ad.len == 256 && ad.i == 32 && ad.win == TIMING_ALONE);
    assert_int_equal(adapt_feed(&ad, 95, 0.060, 0.060, 1000), TIMING_ALONE);
    assert_int_equal(ad.i, 127);
    assert_int_equal(ad.n_retest, 0);
    assert_int_equal(timing_adapt_next(&ad, 0.006, 1000), TIMING_ALONE);
    assert_int_equal(ad.i, 128);
    assert_int_equal(timing_adapt_next(&ad, 0.024, 1000), TIMING_ALONE);
    assert_int_equal(ad.i, 129);
    assert_int_equal(timing_adapt_next(&ad, 0.025, 1000), TIMING_TEAM);   /* a new round */
    assert_true(ad.i == 0 && ad.len == 128 && ad.n_retest == 1);
    assert_int_equal(adapt_feed(&ad, 32, 0.020, 0.006, 1000), TIMING_ALONE);
    assert_int_equal(ad.len, 256);                              /* the same winner: doubled  */
}

/* The comparison is per unit of work over interleaved slices (each way's median). (a) A
 * team of 40 us per unit (0.016 s for 400) against 22 us alone (0.022 s for 1000): alone
 * wins, although each of its slices took longer. (b) A cost per unit that rises by 1 %
 * per slice (slice k: base x (1 + 0.01 k), 1000 units each): the team's even slices have
 * the median base x 1.15 (slices 14 and 16), the odd ones base x 1.16 (15 and 17); a
 * team base of 12 us against 11.5 alone: 13.8 against 13.34 us, alone wins; against 12.5
 * alone (14.5 us) the team wins. A comparison of the test's first half on the team with
 * its second half alone would have charged the drift to the calling thread (12 x 1.075
 * = 12.9 against 11.5 x 1.235 = 14.2 us: the team). (c) Test slices without work:
 * compared by their time alone (one unit each). (d) One stalled slice: alone 15 x 1 ms
 * and one of 30 ms against a team of 1.5 ms each (sums 45 against 24 ms): alone, by its
 * median 1 ms. */
static void t_adapt_per_work(void **state)
{
    (void)state;
    timing_adapt ad = {.warm = TIMING_WARM};
    assert_int_equal(timing_adapt_serial(&ad), 0);
    assert_int_equal(adapt_feed(&ad, 31, 0.016, 0.022, 0), 1);
    ad = (timing_adapt){.warm = TIMING_WARM};
    for (int k = 0; k < 32; k++)
        (void)timing_adapt_next(&ad, k & 1 ? 0.022 : 0.016, k & 1 ? 1000 : 400);
    assert_int_equal(ad.win, 1);                                 /* (a) alone: 22 < 40 us     */
    for (int base_alone = 0; base_alone < 2; base_alone++) {
        const double ba = base_alone ? 12.5e-3 : 11.5e-3;
        ad = (timing_adapt){.warm = TIMING_WARM};
        for (int k = 0; k < 32; k++)
            (void)timing_adapt_next(&ad, (k & 1 ? ba : 12e-3) * (1 + 0.01 * k), 1000);
        assert_int_equal(ad.win, !base_alone);                   /* (b) alone, then the team  */
    }
    ad = (timing_adapt){.warm = TIMING_WARM};
    for (int k = 0; k < 32; k++)
        (void)timing_adapt_next(&ad, k & 1 ? 0.4 : 0.5, 0);
    assert_int_equal(ad.win, 1);                                 /* (c) alone: 0.4 < 0.5 s    */
    ad = (timing_adapt){.warm = TIMING_WARM};
    for (int k = 0; k < 32; k++)
        (void)timing_adapt_next(&ad, k & 1 ? (k == 7 ? 0.030 : 0.001) : 0.0015, 1000);
    assert_int_equal(ad.win, 1);                                 /* (d) alone: 1 < 1.5 us     */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_dependent_chain),
        cmocka_unit_test(t_independent_issue),
        cmocka_unit_test(t_rotate_schedulers),
        cmocka_unit_test(t_mem_inst_queue),
        cmocka_unit_test(t_register_banks),
        cmocka_unit_test(t_coalescing),
        cmocka_unit_test(t_sfu_initiation_interval),
        cmocka_unit_test(t_dependent_loads),
        cmocka_unit_test(t_barrier_orders),
        cmocka_unit_test(t_occupancy),
        cmocka_unit_test(t_occupancy_regs_source),
        cmocka_unit_test(t_deadlock),
        cmocka_unit_test(t_policy_label),
        cmocka_unit_test(t_skip_idle_equivalence),
        cmocka_unit_test(t_dispatch_round_robin),
        cmocka_unit_test(t_core_model),
        cmocka_unit_test(t_adapt_rounds),
        cmocka_unit_test(t_adapt_three_ways),
        cmocka_unit_test(t_adapt_four_ways),
        cmocka_unit_test(t_adapt_full),
        cmocka_unit_test(t_adapt_cut),
        cmocka_unit_test(t_adapt_drop),
        cmocka_unit_test(t_adapt_retest),
        cmocka_unit_test(t_adapt_per_work),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
