/* test_hostile.c - hostile kernels (issue 19): every one must end in a reported
 * simulator error with the exact diagnosis, never a crash or a hang, in functional and
 * in timing mode. Each case prints its message (ctest -V shows them; docs/TESTING.md
 * lists them). Also the 32-bit [reg+imm] address wrap found running Rodinia's needle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/sim.h"

#define HDR ".version 7.0\n.target sm_52\n.address_size 64\n"

typedef struct {
    const char *sets;        /* extra configuration, or NULL                       */
    uint32_t grid, block, dyn_smem;
    uint32_t out[16];        /* the first 16 words of the buffer after the launch   */
    char err[1024];
} run_opts;

/* Loads `ptx` (file name hostile.ptx), launches kernel k(buffer) on a fresh simulator
 * in functional (timing = 0) or timing mode. */
static ws_err run(const char *ptx, int timing, run_opts *o)
{
    ws_config cfg;
    char err[512];
    ws_config_defaults(&cfg);
    if (timing)
        assert_int_equal(ws_config_set(&cfg, "sim.mode=timing", err, sizeof err), 0);
    if (o->sets)
        assert_int_equal(ws_config_set(&cfg, o->sets, err, sizeof err), 0);
    ws_sim *s = ws_sim_create(&cfg);
    assert_non_null(s);
    ws_module *m = NULL;
    ws_err rc = ws_module_load(s, ptx, strlen(ptx), "hostile.ptx", &m, o->err, sizeof o->err);
    if (rc != WS_OK)
        fprintf(stderr, "load: %s\n", o->err);
    assert_int_equal(rc, WS_OK);
    uint64_t buf;
    assert_int_equal(ws_mem_alloc(s, 4096, &buf), WS_OK);
    assert_int_equal(ws_mem_set(s, buf, 0, 4, 1024), WS_OK);
    ws_launch_desc d = {{o->grid ? o->grid : 1, 1, 1}, {o->block ? o->block : 32, 1, 1}, o->dyn_smem,
                        &buf, sizeof buf};
    o->err[0] = 0;
    rc = ws_launch(s, m, ws_module_kernel(m, "k"), &d, o->err, sizeof o->err);
    assert_int_equal(ws_mem_read(s, o->out, buf, sizeof o->out), WS_OK);
    printf("[%s] %s: %s\n", timing ? "timing" : "functional", ws_err_name(rc), o->err);
    ws_sim_destroy(s);
    return rc;
}

static void has(const char *msg, const char *what)
{
    if (!strstr(msg, what)) {
        fprintf(stderr, "expected '%s' in: %s\n", what, msg);
        fail();
    }
}

/* ---- out-of-bounds accesses: kernel, PTX line, thread, CTA, space, address ---------- */
static const char oob_global[] = HDR
    ".visible .entry k(.param .u64 p)\n{\n .reg .u64 %rd<4>;\n .reg .u32 %r<2>;\n"
    " ld.param.u64 %rd1, [p];\n cvta.to.global.u64 %rd2, %rd1;\n mov.u32 %r1, 7;\n"
    " st.global.u32 [%rd2+8192], %r1;\n ret;\n}\n";   /* line 11 */

static const char oob_shared[] = HDR
    ".visible .entry k(.param .u64 p)\n{\n .shared .align 4 .b8 sm[64];\n .reg .u32 %r<6>;\n"
    " mov.u32 %r0, sm;\n mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 4;\n add.u32 %r3, %r0, %r2;\n"
    " ld.shared.u32 %r4, [%r3];\n ret;\n}\n";           /* line 12: thread 4 reads byte 64 */

static const char oob_local[] = HDR
    ".visible .entry k(.param .u64 p)\n{\n .local .align 4 .b8 loc[16];\n .reg .u64 %rd<3>;\n"
    " .reg .u32 %r<2>;\n mov.u64 %rd1, loc;\n ld.local.u32 %r1, [%rd1+4096];\n ret;\n}\n";  /* line 10 */

static const char oob_const[] = HDR
    ".const .align 4 .b8 cst[16];\n"
    ".visible .entry k(.param .u64 p)\n{\n .reg .u64 %rd<3>;\n .reg .u32 %r<2>;\n"
    " mov.u64 %rd1, cst;\n ld.const.u32 %r1, [%rd1+-64];\n ret;\n}\n";  /* line 10 */

static void test_oob(void **state)
{
    (void)state;
    for (int t = 0; t < 2; t++) {
        run_opts o = {0};
        assert_int_equal(run(oob_global, t, &o), WS_E_ILLEGAL_ADDRESS);
        has(o.err, "hostile.ptx:11: kernel 'k', thread (0,0,0) of CTA (0,0,0): out-of-bounds global "
                   "store of 4 bytes at address 0x");
        memset(&o, 0, sizeof o);
        o.grid = 2;
        assert_int_equal(run(oob_shared, t, &o), WS_E_ILLEGAL_ADDRESS);
        has(o.err, "hostile.ptx:12: kernel 'k', thread (4,0,0) of CTA (0,0,0): out-of-bounds shared "
                   "load of 4 bytes at address 0x40");
        memset(&o, 0, sizeof o);
        assert_int_equal(run(oob_local, t, &o), WS_E_ILLEGAL_ADDRESS);
        has(o.err, "hostile.ptx:10: kernel 'k', thread (0,0,0) of CTA (0,0,0): out-of-bounds local "
                   "load of 4 bytes at address 0x1000");
        memset(&o, 0, sizeof o);
        assert_int_equal(run(oob_const, t, &o), WS_E_ILLEGAL_ADDRESS);
        has(o.err, "hostile.ptx:10: kernel 'k', thread (0,0,0) of CTA (0,0,0): out-of-bounds const "
                   "load of 4 bytes at address 0xffffffc0");
    }
}

/* ---- misaligned vector access -------------------------------------------------------- */
static const char misaligned[] = HDR
    ".visible .entry k(.param .u64 p)\n{\n .reg .u64 %rd<4>;\n .reg .u32 %r<5>;\n"
    " ld.param.u64 %rd1, [p];\n cvta.to.global.u64 %rd2, %rd1;\n"
    " ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd2+4];\n ret;\n}\n";   /* line 10 */

static void test_misaligned(void **state)
{
    (void)state;
    for (int t = 0; t < 2; t++) {
        run_opts o = {0};
        assert_int_equal(run(misaligned, t, &o), WS_E_MISALIGNED);
        has(o.err, "hostile.ptx:10: kernel 'k', thread (0,0,0) of CTA (0,0,0): misaligned global load "
                   "of 16 bytes at address 0x");
    }
}

/* ---- integer division by zero: PTX leaves the value machine-specific; warpsim gives
 * NVIDIA's (quotient all ones, remainder the dividend) and never traps on the host,
 * INT_MIN / -1 included ------------------------------------------------------------------ */
static const char divzero[] = HDR
    ".visible .entry k(.param .u64 p)\n{\n .reg .u64 %rd<4>;\n .reg .u32 %r<16>;\n"
    " ld.param.u64 %rd1, [p];\n cvta.to.global.u64 %rd2, %rd1;\n"
    " mov.u32 %r1, 7;\n mov.u32 %r2, %tid.x;\n"
    " div.u32 %r3, %r1, %r2;\n rem.u32 %r4, %r1, %r2;\n div.s32 %r5, %r1, %r2;\n rem.s32 %r6, %r1, %r2;\n"
    " mov.u32 %r7, 0x80000000;\n sub.s32 %r8, %r2, 1;\n"
    " div.s32 %r9, %r7, %r8;\n rem.s32 %r10, %r7, %r8;\n"
    " st.global.v4.u32 [%rd2], {%r3, %r4, %r5, %r6};\n st.global.v2.u32 [%rd2+16], {%r9, %r10};\n"
    " ret;\n}\n";

static void test_divzero(void **state)
{
    (void)state;
    for (int t = 0; t < 2; t++) {
        run_opts o = {0};
        o.block = 1;
        assert_int_equal(run(divzero, t, &o), WS_OK);
        assert_int_equal(o.out[0], 0xffffffffu);
        assert_int_equal(o.out[1], 7);
        assert_int_equal(o.out[2], 0xffffffffu);
        assert_int_equal(o.out[3], 7);
        assert_int_equal(o.out[4], 0x80000000u);
        assert_int_equal(o.out[5], 0);
    }
}

/* ---- an endless loop: the watchdog (func.watchdog_insts) or the budgets stop it and
 * report where the warps are --------------------------------------------------------------- */
static const char endless[] = HDR
    ".visible .entry k(.param .u64 p)\n{\n .reg .u32 %r<3>;\n mov.u32 %r1, 0;\n"
    "$L_top:\n add.u32 %r1, %r1, 1;\n bra.uni $L_top;\n}\n";   /* lines 8-9 */

static void test_endless(void **state)
{
    (void)state;
    for (int t = 0; t < 2; t++) {
        run_opts o = {0};
        o.sets = "func.watchdog_insts=10000";
        o.block = 64;
        assert_int_equal(run(endless, t, &o), WS_E_LAUNCH_FAILED);
        has(o.err, "kernel 'k': watchdog: more than 10000 warp instructions (func.watchdog_insts)");
        has(o.err, t ? "(CTA 0, warp 0): pc 1 (PTX line 9) ready" : "warps at: CTA (0,0,0) warp 0 pc ");
        if (!t)
            has(o.err, "(line 9)");
        memset(&o, 0, sizeof o);
        o.sets = "sim.max_insts=5000";
        assert_int_equal(run(endless, t, &o), WS_E_STOPPED);
        has(o.err, "kernel 'k': stopped by the instruction budget (sim.max_insts) after 5000 warp "
                   "instructions");
        has(o.err, "statistics are partial");
        if (t) {
            memset(&o, 0, sizeof o);
            o.sets = "sim.max_cycles=7000";
            assert_int_equal(run(endless, t, &o), WS_E_STOPPED);
            has(o.err, "kernel 'k': stopped by the cycle budget (sim.max_cycles) at cycle 7000");
        }
    }
}

/* ---- barrier deadlock: warp 0 waits at barrier 1, the others at barrier 2 ------------- */
static const char deadlock[] = HDR
    ".visible .entry k(.param .u64 p)\n{\n .reg .u32 %r<3>;\n .reg .pred %p<2>;\n"
    " mov.u32 %r1, %tid.x;\n setp.lt.u32 %p1, %r1, 32;\n @%p1 bra $L_a;\n"
    " bar.sync 2;\n ret;\n$L_a:\n bar.sync 1;\n ret;\n}\n";   /* bar.sync 2: line 12, 1: line 15 */

static void test_deadlock(void **state)
{
    (void)state;
    for (int t = 0; t < 2; t++) {
        run_opts o = {0};
        o.block = 128;
        assert_int_equal(run(deadlock, t, &o), WS_E_DEADLOCK);
        has(o.err, "kernel 'k': deadlock");
        if (!t) {
            has(o.err, "in CTA (0,0,0): 128 of 128 threads alive, barrier never completes:");
            has(o.err, "warp 0 at barrier 1 (pc ");
            has(o.err, "line 15);");
            has(o.err, "warp 1 at barrier 2 (pc ");
            has(o.err, "line 12);");
        } else {
            has(o.err, "no warp can issue and nothing is in flight");
            has(o.err, "(CTA 0, warp 0): pc 6 (PTX line 15) barrier");
            has(o.err, "(CTA 0, warp 1): pc 4 (PTX line 12) barrier");
        }
    }
}

/* ---- recursion without end: call depth / stack overflow ----------------------------- */
static const char recursion[] = HDR
    ".func (.param .u32 r) f(.param .u32 a)\n{\n .reg .u32 %r<4>;\n ld.param.u32 %r1, [a];\n"
    " add.u32 %r2, %r1, 1;\n {\n .param .u32 pa;\n .param .u32 pr;\n st.param.u32 [pa], %r2;\n"
    " call (pr), f, (pa);\n ld.param.u32 %r3, [pr];\n }\n st.param.u32 [r], %r3;\n ret;\n}\n"
    ".visible .entry k(.param .u64 p)\n{\n .reg .u32 %r<3>;\n {\n .param .u32 pa;\n .param .u32 pr;\n"
    " mov.u32 %r1, 0;\n st.param.u32 [pa], %r1;\n call (pr), f, (pa);\n ld.param.u32 %r2, [pr];\n }\n"
    " ret;\n}\n";

static void test_recursion(void **state)
{
    (void)state;
    for (int t = 0; t < 2; t++) {
        run_opts o = {0};
        assert_int_equal(run(recursion, t, &o), WS_E_LAUNCH_FAILED);
        has(o.err, "kernel 'k' in function f, thread (0,0,0) of CTA (0,0,0): call depth exceeds 64 "
                   "(func.max_call_depth)");
        memset(&o, 0, sizeof o);
        o.sets = "func.stack_bytes=64";
        assert_int_equal(run(recursion, t, &o), WS_E_ILLEGAL_ADDRESS);
        has(o.err, "stack overflow");
    }
}

/* ---- launches the preset cannot run ------------------------------------------------------ */
static const char trivial[] = HDR
    ".visible .entry k(.param .u64 p)\n{\n .shared .align 4 .b8 sm[16384];\n .reg .u32 %r<3>;\n"
    " mov.u32 %r1, sm;\n ret;\n}\n";

static void test_limits(void **state)
{
    (void)state;
    for (int t = 0; t < 2; t++) {
        run_opts o = {0};
        o.grid = 65536;
        assert_int_equal(run(trivial, t, &o), WS_E_INVALID_VALUE);
        has(o.err, "invalid launch dimensions grid (65536,1,1) block (32,1,1)");
        memset(&o, 0, sizeof o);
        o.block = 2048;
        assert_int_equal(run(trivial, t, &o), WS_E_INVALID_VALUE);
        memset(&o, 0, sizeof o);
        o.dyn_smem = 40000;   /* 16384 static + 40000 > 49152 */
        assert_int_equal(run(trivial, t, &o), WS_E_INVALID_VALUE);
        has(o.err, "16384 bytes of static + 40000 bytes of dynamic shared memory exceed "
                   "gpu.max_shared_per_cta=49152");
        /* a CTA that fits the per-CTA limits but not an SM: more shared memory or
         * registers than one SM has */
        memset(&o, 0, sizeof o);
        o.sets = "gpu.shared_per_sm=16384,gpu.max_shared_per_cta=49152";
        o.dyn_smem = 1024;
        assert_int_equal(run(trivial, t, &o), WS_E_OUT_OF_RESOURCES);
        has(o.err, "does not fit on an SM");
        memset(&o, 0, sizeof o);
        o.sets = "core.regs_per_thread=63";
        o.block = 1024;
        assert_int_equal(run(trivial, t, &o), WS_E_OUT_OF_RESOURCES);
        has(o.err, "kernel 'k': a CTA of 1024 threads (63 registers per thread");
        has(o.err, "does not fit on an SM (limited by");
    }
}

/* ---- 32-bit addresses wrap: [%r+imm] with a 32-bit register adds at 32 bits (the
 * PTX ISA's address size is the register's); Rodinia's needle faulted at 0x100000004 --- */
static const char wrap32[] = HDR
    ".visible .entry k(.param .u64 p)\n{\n .shared .align 4 .b8 sm[64];\n .reg .u64 %rd<4>;\n"
    " .reg .u32 %r<8>;\n ld.param.u64 %rd1, [p];\n cvta.to.global.u64 %rd2, %rd1;\n"
    " mov.u32 %r1, sm;\n mov.u32 %r2, 1234;\n st.shared.u32 [%r1+4], %r2;\n"
    " sub.u32 %r3, %r1, 8;\n ld.shared.u32 %r4, [%r3+12];\n"      /* sm - 8 wraps; + 12 = sm + 4 */
    " mov.u32 %r5, 0xfffffff0;\n st.shared.u32 [%r5+16], %r2;\n"   /* wraps to 0 = sm          */
    " ld.shared.u32 %r6, [%r1];\n"
    " st.global.v2.u32 [%rd2], {%r4, %r6};\n ret;\n}\n";

static void test_wrap32(void **state)
{
    (void)state;
    for (int t = 0; t < 2; t++) {
        run_opts o = {0};
        o.block = 1;
        assert_int_equal(run(wrap32, t, &o), WS_OK);
        assert_int_equal(o.out[0], 1234);
        assert_int_equal(o.out[1], 1234);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oob),       cmocka_unit_test(test_misaligned),
        cmocka_unit_test(test_divzero),   cmocka_unit_test(test_endless),
        cmocka_unit_test(test_deadlock),  cmocka_unit_test(test_recursion),
        cmocka_unit_test(test_limits),    cmocka_unit_test(test_wrap32),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
