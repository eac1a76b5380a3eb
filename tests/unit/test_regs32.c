/* test_regs32.c - the register file's two lane widths (func.h func_prog, exec.h): a
 * hand-written kernel mixing .pred/.b16/.b32/.b64/.f64 registers through the paths
 * that read or write register rows directly (vector loads, 32- and 64-bit address
 * registers, mov pack/unpack, cvt with sign extension, loads sign-extended into wider
 * registers, selp, guarded 64-bit writes, shfl, shared memory at a 32-bit address, a
 * call with parameters), run in functional and in timing mode (whose global loads
 * are deferred: func_defer), each result worked out by hand below.
 *
 * Thread t (one warp of 32) reads in[4t .. 4t+3] (u32) = a, b, c, d with
 *   a = t * 0x01010101, b = 0x80000000 | t, c = hi << 16 | (t + 1), d = 1000 + t,
 *   hi = t odd ? 0x8000 + t : t,
 * and writes ten u64 words out[10t ..]:
 *   0: {a, b} packed (mov.b64)                  = b << 32 | a
 *   1: hi sign-extended (cvt.s32.s16, then cvt.s64.s32)
 *   2: lo + hi as .b16 (v2.u32 store, low word) | d of lane t ^ 1 (shfl, high word) << 32
 *   3: selp.b64 on hi < 0 (odd t): word 0, else 7
 *   4: (double)sext(hi) * 0.5 (f64 bits)
 *   5: the call mix(sext(hi), word 0) = sext(hi) + word 0 (.b32 and .b64 parameters)
 *   6: low word: 1 for odd t (selp.u32 on the predicate); high word: byte 3 of c
 *      (ld.global.s8 into a .b32 register: 0xffffff80 for odd t, else 0)
 *   7: ld.global.s16 of hi into a .b64 register: sext(hi) as 64 bits
 *   8: lo + hi (.b16 store), hi (.b16 store), d of lane t ^ 2 (through shared memory
 *      at a 32-bit address) << 32
 *   9: odd t: word 0 + 1 (guarded add.s64); even t: all ones (guarded mov.b64) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "gpu/sim.h"

static const char kernel[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".func (.param .b64 rv) mix(.param .b32 pa, .param .b64 pb)\n{\n"
    "  .reg .b32 %r<2>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.b32 %r1, [pa];\n"
    "  ld.param.b64 %rd1, [pb];\n"
    "  cvt.s64.s32 %rd2, %r1;\n"
    "  add.s64 %rd2, %rd2, %rd1;\n"
    "  st.param.b64 [rv], %rd2;\n"
    "  ret;\n}\n"
    ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b16 %rs<4>;\n  .reg .b32 %r<16>;\n"
    "  .reg .b64 %rd<12>;\n  .reg .f64 %fd<3>;\n"
    "  .shared .align 4 .b32 sm[32];\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  cvta.to.global.u64 %rd1, %rd1;\n"
    "  cvta.to.global.u64 %rd2, %rd2;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd3, %r1, 16;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd4];\n"
    "  mov.b64 %rd5, {%r2, %r3};\n"
    "  mov.b32 {%rs1, %rs2}, %r4;\n"
    "  cvt.s32.s16 %r6, %rs2;\n"
    "  add.s16 %rs3, %rs1, %rs2;\n"
    "  cvt.u32.u16 %r7, %rs3;\n"
    "  setp.lt.s32 %p1, %r6, 0;\n"
    "  selp.b64 %rd6, %rd5, 7, %p1;\n"
    "  shfl.sync.bfly.b32 %r8, %r5, 1, 31, -1;\n"
    "  cvt.rn.f64.s32 %fd1, %r6;\n"
    "  mul.f64 %fd2, %fd1, 0d3FE0000000000000;\n"
    "  selp.u32 %r9, 1, 0, %p1;\n"
    "  ld.global.s8 %r10, [%rd4+11];\n"
    "  ld.global.s16 %rd8, [%rd4+10];\n"
    "  mov.u32 %r12, sm;\n"
    "  shl.b32 %r13, %r1, 2;\n"
    "  add.s32 %r14, %r12, %r13;\n"
    "  st.shared.u32 [%r14], %r5;\n"
    "  bar.sync 0;\n"
    "  xor.b32 %r13, %r13, 8;\n"
    "  add.s32 %r14, %r12, %r13;\n"
    "  ld.shared.u32 %r15, [%r14];\n"
    "  @%p1 add.s64 %rd9, %rd5, 1;\n"
    "  @!%p1 mov.b64 %rd9, -1;\n"
    "  {\n"
    "  .param .b32 param0;\n"
    "  st.param.b32 [param0], %r6;\n"
    "  .param .b64 param1;\n"
    "  st.param.b64 [param1], %rd5;\n"
    "  .param .b64 retval0;\n"
    "  call.uni (retval0), mix, (param0, param1);\n"
    "  ld.param.b64 %rd10, [retval0];\n"
    "  }\n"
    "  mul.wide.u32 %rd3, %r1, 80;\n"
    "  add.s64 %rd11, %rd2, %rd3;\n"
    "  st.global.u64 [%rd11], %rd5;\n"
    "  cvt.s64.s32 %rd7, %r6;\n"
    "  st.global.u64 [%rd11+8], %rd7;\n"
    "  st.global.v2.u32 [%rd11+16], {%r7, %r8};\n"
    "  st.global.u64 [%rd11+24], %rd6;\n"
    "  st.global.f64 [%rd11+32], %fd2;\n"
    "  st.global.u64 [%rd11+40], %rd10;\n"
    "  st.global.u32 [%rd11+48], %r9;\n"
    "  st.global.u32 [%rd11+52], %r10;\n"
    "  st.global.u64 [%rd11+56], %rd8;\n"
    "  st.global.u16 [%rd11+64], %rs3;\n"
    "  st.global.u16 [%rd11+66], %rs2;\n"
    "  st.global.u32 [%rd11+68], %r15;\n"
    "  st.global.u64 [%rd11+72], %rd9;\n"
    "  ret;\n}\n";

#define T 32
#define WORDS 10

static void run_mode(const char *mode)
{
    ws_config cfg;
    ws_config_defaults(&cfg);
    char err[1024] = "";
    assert_int_equal(ws_config_set(&cfg, mode, err, sizeof err), 0);
    ws_sim *sim = ws_sim_create(&cfg);
    assert_non_null(sim);
    ws_module *mod;
    ws_err rc = ws_module_load(sim, kernel, strlen(kernel), "regs32.ptx", &mod, err, sizeof err);
    if (rc != WS_OK)
        fail_msg("load: %s", err);

    uint32_t in[4 * T];
    for (uint32_t t = 0; t < T; t++) {
        uint32_t hi = t & 1 ? 0x8000 + t : t;
        in[4 * t] = t * 0x01010101u;
        in[4 * t + 1] = 0x80000000u | t;
        in[4 * t + 2] = hi << 16 | (t + 1);
        in[4 * t + 3] = 1000 + t;
    }
    uint64_t din, dout;
    assert_int_equal(ws_mem_alloc(sim, sizeof in, &din), WS_OK);
    assert_int_equal(ws_mem_write(sim, din, in, sizeof in), WS_OK);
    assert_int_equal(ws_mem_alloc(sim, T * WORDS * 8, &dout), WS_OK);
    assert_int_equal(ws_mem_set(sim, dout, 0, 1, T * WORDS * 8), WS_OK);

    int k = ws_module_kernel(mod, "k");
    assert_true(k >= 0);
    uint8_t params[16];
    memcpy(params, &din, 8);
    memcpy(params + 8, &dout, 8);
    ws_launch_desc d = {{1, 1, 1}, {T, 1, 1}, 0, params, sizeof params};
    rc = ws_launch(sim, mod, k, &d, err, sizeof err);
    if (rc != WS_OK)
        fail_msg("launch (%s): %s", mode, err);

    uint64_t out[T * WORDS];
    assert_int_equal(ws_mem_read(sim, out, dout, sizeof out), WS_OK);
    for (uint32_t t = 0; t < T; t++) {
        const int odd = t & 1;
        const uint64_t hi = odd ? 0x8000 + t : t;
        const int64_t shi = odd ? (int64_t)t - 32768 : (int64_t)t;   /* (int16_t)hi */
        const uint64_t lo_hi = ((t + 1) + hi) & 0xffff;
        const uint64_t w0 = (uint64_t)(0x80000000u | t) << 32 | t * 0x01010101u;
        const double half = (double)shi * 0.5;
        uint64_t hbits;
        memcpy(&hbits, &half, 8);
        const uint64_t want[WORDS] = {
            w0,
            (uint64_t)shi,
            lo_hi | (uint64_t)(1000 + (t ^ 1)) << 32,
            odd ? w0 : 7,
            hbits,
            w0 + (uint64_t)shi,
            (uint64_t)odd | (uint64_t)(odd ? 0xffffff80u : 0) << 32,
            (uint64_t)shi,
            lo_hi | hi << 16 | (uint64_t)(1000 + (t ^ 2)) << 32,
            odd ? w0 + 1 : ~0ull,
        };
        for (unsigned i = 0; i < WORDS; i++)
            if (out[t * WORDS + i] != want[i])
                fail_msg("%s: thread %u word %u: %#llx, want %#llx", mode, t, i,
                         (unsigned long long)out[t * WORDS + i], (unsigned long long)want[i]);
    }
    ws_sim_destroy(sim);
}

static void t_functional(void **state)
{
    (void)state;
    run_mode("sim.mode=functional");
}

static void t_timing(void **state)
{
    (void)state;
    run_mode("sim.mode=timing");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_functional),
        cmocka_unit_test(t_timing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
