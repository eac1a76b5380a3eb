/* test_ldst_group.c - global loads and stores at a register address in timing mode,
 * where their data accesses are deferred to the end of the cycle (func.h func_defer)
 * and the lanes inside the device-memory hint's block go as one grouped record
 * (exec_mem.c FD_LDW / FD_STW), lanes outside it one by one (mem_at), the grouped
 * loop starting again after each such lane.
 *
 * Each kernel is run in functional mode (no deferral) and in timing mode with one and
 * two host threads; the results must equal the values worked out by hand below, and a
 * fault must give the same report in every mode.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/sim.h"

#define NT 64   /* threads: two warps of 32 */

/* Thread t: p = (t odd ? b : a) + 4t, so the lanes of a warp alternate between two
 * allocations (the hint moves at every lane: runs of one lane), while a + 4t is one
 * run of 32 lanes.
 *   o64[t]  = ld.global.s32 into a 64-bit register from p  (sign extension to 8 bytes)
 *   o32[t]  = ld.global.u32 from a + 4t, plus 1             (one group of 32 lanes)
 *   o32b[t] = ld.global.s16 into a 32-bit register from p  (sign extension to 4 bytes)
 *   o16[t]  = st.global.u16 of ld.global.u8 from p + 1     (2-byte store, 1-byte load)
 *   p2 = (t odd ? o2 : o1) + 4t; st.global.u32 [p2], t * 3 + 5; then the same thread
 *   loads it back (a later cycle) into o32c[t]              (store, then load)
 *   o64b[t] = ld.global.u64 from q + 8t                     (8-byte group) */
static const char *PTX =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 po, .param .u64 po1,"
    " .param .u64 po2, .param .u64 pq)\n{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<40>;\n.reg .b64 %rd<40>;\n"
    "ld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pb];\nld.param.u64 %rd3, [po];\n"
    "ld.param.u64 %rd4, [po1];\nld.param.u64 %rd5, [po2];\nld.param.u64 %rd6, [pq];\n"
    "mov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd7, %r1, 4;\n"
    "mul.wide.u32 %rd8, %r1, 8;\n"
    "and.b32 %r2, %r1, 1;\n"
    "setp.ne.u32 %p1, %r2, 0;\n"
    "selp.b64 %rd9, %rd2, %rd1, %p1;\n"
    "add.u64 %rd10, %rd9, %rd7;\n"              /* p */
    "add.u64 %rd11, %rd1, %rd7;\n"              /* a + 4t */
    "ld.global.s32 %rd12, [%rd10];\n"
    "add.u64 %rd13, %rd3, %rd8;\n"
    "st.global.u64 [%rd13], %rd12;\n"           /* o64 = out[0 .. 512) */
    "ld.global.u32 %r3, [%rd11];\n"
    "add.u32 %r3, %r3, 1;\n"
    "add.u64 %rd14, %rd3, %rd7;\n"
    "st.global.u32 [%rd14+512], %r3;\n"         /* o32 = out[512 .. 768) */
    "ld.global.s16 %r4, [%rd10];\n"
    "st.global.u32 [%rd14+768], %r4;\n"         /* o32b = out[768 .. 1024) */
    "ld.global.u8 %r5, [%rd10+1];\n"
    "mul.wide.u32 %rd15, %r1, 2;\n"
    "add.u64 %rd15, %rd3, %rd15;\n"
    "st.global.u16 [%rd15+1024], %r5;\n"        /* o16 = out[1024 .. 1152) */
    "selp.b64 %rd16, %rd5, %rd4, %p1;\n"
    "add.u64 %rd16, %rd16, %rd7;\n"             /* p2 */
    "mad.lo.u32 %r6, %r1, 3, 5;\n"
    "st.global.u32 [%rd16], %r6;\n"
    "ld.global.u32 %r7, [%rd16];\n"
    "st.global.u32 [%rd14+1152], %r7;\n"        /* o32c = out[1152 .. 1408) */
    "add.u64 %rd17, %rd6, %rd8;\n"
    "ld.global.u64 %rd18, [%rd17];\n"
    "st.global.u64 [%rd13+1408], %rd18;\n"      /* o64b = out[1408 .. 1920) */
    "exit;\n}\n";

static int32_t a_of(unsigned i) { return i % 3 == 0 ? -(int32_t)(i * 977 + 1) : (int32_t)(i * 7 + 0x1234); }
static int32_t b_of(unsigned i) { return i % 4 == 1 ? (int32_t)(0x80008000u + i) : (int32_t)(i * 11); }
static uint64_t q_of(unsigned i) { return 0xfedcba9876543210ull ^ ((uint64_t)i << 40) ^ i; }

/* Runs the kernel with `sets`; copies the 1920 output bytes to out. Returns the launch's
 * result and its report in err. `bad`: thread 5's p for the s32 load is 1 MB past b. */
static ws_err run(const char *sets, uint8_t *out, int bad, char *err, size_t errlen)
{
    ws_config cfg;
    char why[512];
    ws_config_defaults(&cfg);
    assert_int_equal(ws_config_set(&cfg, sets, why, sizeof why), 0);
    ws_sim *s = ws_sim_create(&cfg);
    const char *ptx = PTX;
    char *mod = NULL;
    if (bad) {
        /* thread 5 (odd: b) loads at p + 1 MB: out of every allocation */
        const char *at = strstr(PTX, "ld.global.s32 %rd12, [%rd10];\n");
        size_t n = strlen(PTX) + 256;
        mod = malloc(n);
        snprintf(mod, n, "%.*s"
                 "setp.eq.u32 %%p2, %%r1, 5;\n"
                 "selp.b64 %%rd19, 1048576, 0, %%p2;\n"
                 "add.u64 %%rd10, %%rd10, %%rd19;\n%s",
                 (int)(at - PTX), PTX, at);
        ptx = mod;
    }
    ws_module *m;
    ws_err lrc = ws_module_load(s, ptx, strlen(ptx), "t.ptx", &m, why, sizeof why);
    if (lrc != WS_OK)
        fprintf(stderr, "%s\n", why);
    assert_int_equal(lrc, WS_OK);
    uint64_t pa, pb, po, po1, po2, pq;
    assert_int_equal(ws_mem_alloc(s, 4 * NT, &pa), WS_OK);
    assert_int_equal(ws_mem_alloc(s, 4 * NT, &pb), WS_OK);
    assert_int_equal(ws_mem_alloc(s, 2048, &po), WS_OK);
    assert_int_equal(ws_mem_alloc(s, 4 * NT, &po1), WS_OK);
    assert_int_equal(ws_mem_alloc(s, 4 * NT, &po2), WS_OK);
    assert_int_equal(ws_mem_alloc(s, 8 * NT, &pq), WS_OK);
    int32_t a[NT], b[NT];
    uint64_t q[NT];
    for (unsigned i = 0; i < NT; i++) {
        a[i] = a_of(i);
        b[i] = b_of(i);
        q[i] = q_of(i);
    }
    uint8_t zero[2048] = {0};
    assert_int_equal(ws_mem_write(s, pa, a, sizeof a), WS_OK);
    assert_int_equal(ws_mem_write(s, pb, b, sizeof b), WS_OK);
    assert_int_equal(ws_mem_write(s, pq, q, sizeof q), WS_OK);
    assert_int_equal(ws_mem_write(s, po, zero, sizeof zero), WS_OK);
    uint64_t params[6] = {pa, pb, po, po1, po2, pq};
    ws_launch_desc d = {{1, 1, 1}, {NT, 1, 1}, 0, params, sizeof params};
    err[0] = 0;
    ws_err rc = ws_launch(s, m, ws_module_kernel(m, "k"), &d, err, errlen);
    assert_int_equal(ws_mem_read(s, out, po, 1920), WS_OK);
    ws_sim_destroy(s);
    free(mod);
    return rc;
}

static const char *MODES[] = {
    "sim.mode=functional",
    "sim.mode=timing",
    "sim.mode=timing,sim.host_threads=2",
    "sim.mode=timing,mem.model=simple",
};

static void t_values(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof MODES / sizeof *MODES; k++) {
        uint8_t out[1920];
        char err[1024];
        assert_int_equal(run(MODES[k], out, 0, err, sizeof err), WS_OK);
        for (unsigned t = 0; t < NT; t++) {
            const int32_t src = t & 1 ? b_of(t) : a_of(t);
            uint64_t v64;
            uint32_t v32;
            uint16_t v16;
            memcpy(&v64, out + 8 * t, 8);
            assert_true(v64 == (uint64_t)(int64_t)src);                 /* s32 -> 8 bytes */
            memcpy(&v32, out + 512 + 4 * t, 4);
            assert_int_equal(v32, (uint32_t)a_of(t) + 1);
            memcpy(&v32, out + 768 + 4 * t, 4);
            assert_int_equal(v32, (uint32_t)(int32_t)(int16_t)(uint16_t)(uint32_t)src);   /* s16 -> 4 */
            memcpy(&v16, out + 1024 + 2 * t, 2);
            assert_int_equal(v16, ((uint32_t)src >> 8) & 0xff);       /* byte 1, little-endian */
            memcpy(&v32, out + 1152 + 4 * t, 4);
            assert_int_equal(v32, t * 3 + 5);                           /* stored, read back */
            memcpy(&v64, out + 1408 + 8 * t, 8);
            assert_true(v64 == q_of(t));
        }
    }
}

/* Thread 5's load outside every allocation, in the middle of warp 0's lanes (lanes 0-4
 * before it in alternating runs): the same report in every mode. */
static void t_fault_same(void **state)
{
    (void)state;
    char ref[1024];
    uint8_t out[1920];
    ws_err rc0 = run(MODES[0], out, 1, ref, sizeof ref);
    assert_int_not_equal(rc0, WS_OK);
    assert_non_null(strstr(ref, "out-of-bounds"));
    assert_non_null(strstr(ref, "(5,0,0)"));
    for (size_t k = 1; k < sizeof MODES / sizeof *MODES; k++) {
        char err[1024];
        ws_err rc = run(MODES[k], out, 1, err, sizeof err);
        assert_int_equal(rc, rc0);
        assert_string_equal(err, ref);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_values),
        cmocka_unit_test(t_fault_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
