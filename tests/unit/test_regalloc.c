/* test_regalloc.c - register storage slots (ptx/regalloc.c): hand-worked kernels whose
 * slot sharing is worked out in the comments, each also run through the simulator with
 * func.host_reg_compact on and off (functional and timing mode), the results checked
 * against the expected values and against each other.
 *
 * Every kernel starts with the same prologue: %rd3 = &out[2 * tid] (two u32 results
 * per thread), %r0 = %tid.x. Registers of the header: %p0..%p3, %r0..%r9, %rd0..%rd3. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/sim.h"
#include "ptx/regalloc.h"

static const char *const HDR =
    ".version 7.5\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r0, %tid.x;\n"
    "mul.wide.u32 %rd2, %r0, 8;\n"
    "add.s64 %rd3, %rd1, %rd2;\n";

#define THREADS 40u   /* a full and a partial warp */

typedef struct {
    char *src;
    ptx_module *m;
    ptx_regalloc ra;
} kern;

static void kern_build(kern *k, const char *body)
{
    size_t cap = strlen(HDR) + strlen(body) + 8;
    k->src = malloc(cap);
    snprintf(k->src, cap, "%s%s\n}\n", HDR, body);
    ptx_diag d;
    memset(&d, 0, sizeof d);
    k->m = ptx_parse(k->src, strlen(k->src), "ra.ptx", &d);
    if (!k->m)
        fail_msg("parse: %u:%u: %s", d.line, d.col, d.msg);
    assert_int_equal(ptx_regalloc_build(k->m, &k->m->funcs[0], 1, &k->ra), 0);
    assert_true(k->ra.compacted);
    assert_int_equal(k->ra.n_regs, 18);
}

static void kern_free(kern *k)
{
    ptx_regalloc_free(&k->ra);
    ptx_module_free(k->m);
    free(k->src);
}

static uint32_t slot_of(const kern *k, const char *name)
{
    const ptx_func *f = &k->m->funcs[0];
    for (uint32_t r = 0; r < f->n_regs; r++)
        if (!strcmp(ptx_str(k->m, f->regs[r].name), name))
            return k->ra.slot[r];
    fail_msg("no register %s", name);
    return 0;
}

#define SAME(k, a, b) assert_int_equal(slot_of(k, a), slot_of(k, b))
#define DIFF(k, a, b) assert_int_not_equal(slot_of(k, a), slot_of(k, b))

/* Runs kernel k (one CTA of THREADS threads) and returns out[2 * THREADS]. */
static void run(const kern *k, int compact, int timing, uint32_t *out)
{
    ws_config cfg;
    ws_config_defaults(&cfg);
    cfg.func.host_reg_compact = compact != 0;
    cfg.sim.mode = timing ? WS_MODE_TIMING : WS_MODE_FUNCTIONAL;
    ws_sim *s = ws_sim_create(&cfg);
    assert_non_null(s);
    ws_module *mod;
    char err[512];
    ws_err rc = ws_module_load(s, k->src, strlen(k->src), "ra.ptx", &mod, err, sizeof err);
    if (rc != WS_OK)
        fail_msg("load: %s", err);
    uint64_t p;
    size_t bytes = 2 * THREADS * sizeof *out;
    assert_int_equal(ws_mem_alloc(s, bytes, &p), WS_OK);
    assert_int_equal(ws_mem_set(s, p, 0xdeadbeef, 4, 2 * THREADS), WS_OK);
    uint8_t params[16] = {0};
    uint32_t n = THREADS;
    memcpy(params, &p, 8);
    memcpy(params + 8, &n, 4);
    ws_launch_desc d = {{1, 1, 1}, {THREADS, 1, 1}, 0, params, 12};
    rc = ws_launch(s, mod, ws_module_kernel(mod, "k"), &d, err, sizeof err);
    if (rc != WS_OK)
        fail_msg("launch: %s", err);
    assert_int_equal(ws_mem_read(s, out, p, bytes), WS_OK);
    ws_sim_destroy(s);
}

/* Checks out[2t], out[2t+1] = want(t) with compaction on and off, in both modes. */
static void check_results(const kern *k, void (*want)(uint32_t t, uint32_t *a, uint32_t *b))
{
    uint32_t ref[2 * THREADS], got[2 * THREADS];
    for (uint32_t t = 0; t < THREADS; t++)
        want(t, &ref[2 * t], &ref[2 * t + 1]);
    for (int timing = 0; timing < 2; timing++)
        for (int compact = 0; compact < 2; compact++) {
            run(k, compact, timing, got);
            for (uint32_t i = 0; i < 2 * THREADS; i++)
                if (got[i] != ref[i])
                    fail_msg("compact=%d timing=%d: out[%u] = %u, want %u", compact, timing, i,
                             got[i], ref[i]);
        }
}

/* Straight line: %r1 dies at the add that defines %r2 (a definition never shares with
 * its own sources), %r3 dies... so %r3 reuses %r1's slot. Slots: one for the predicates
 * (unused), %r0, {%r1, %r3}, %r2 (the unused %r4..%r9 join the first b32 slot), and
 * three b64 ones (%rd2 is defined while %rd1 is live, %rd3 reads both): 1 + 3 + 3. */
static void want_straight(uint32_t t, uint32_t *a, uint32_t *b) { *a = t + 4; *b = t; }
static void t_straight(void **state)
{
    (void)state;
    kern k;
    kern_build(&k, "mov.u32 %r1, 1;\n"
                   "add.u32 %r2, %r1, %r0;\n"
                   "add.u32 %r3, %r2, 3;\n"
                   "st.global.u32 [%rd3], %r3;\n"
                   "st.global.u32 [%rd3+4], %r0;\n"
                   "ret;");
    SAME(&k, "%r1", "%r3");
    DIFF(&k, "%r1", "%r2");
    DIFF(&k, "%r0", "%r1");
    DIFF(&k, "%r0", "%r2");
    DIFF(&k, "%rd1", "%rd2");
    DIFF(&k, "%rd3", "%rd1");
    DIFF(&k, "%rd3", "%rd2");
    DIFF(&k, "%r1", "%p1");   /* widths never share */
    assert_int_equal(k.ra.n_slots, 7);
    assert_int_equal(k.ra.n_clear, 0);   /* every register is written before it is read */
    check_results(&k, want_straight);
    kern_free(&k);
}

/* A loop: the accumulator %r1 is live around the back edge, so it never shares with
 * %r3, which the loop body defines; %r2 (the counter) is read by %r3's definition. */
static void want_loop(uint32_t t, uint32_t *a, uint32_t *b)
{
    uint32_t n = t > 1 ? t : 1;
    *a = n * (n + 1) / 2;
    *b = n;
}
static void t_loop(void **state)
{
    (void)state;
    kern k;
    kern_build(&k, "mov.u32 %r1, 0;\n"
                   "mov.u32 %r2, 0;\n"
                   "L:\n"
                   "add.u32 %r3, %r2, 1;\n"
                   "add.u32 %r1, %r1, %r3;\n"
                   "mov.u32 %r2, %r3;\n"
                   "setp.lt.u32 %p1, %r2, %r0;\n"
                   "@%p1 bra L;\n"
                   "st.global.u32 [%rd3], %r1;\n"
                   "st.global.u32 [%rd3+4], %r2;\n"
                   "ret;");
    DIFF(&k, "%r1", "%r3");
    DIFF(&k, "%r1", "%r2");
    DIFF(&k, "%r2", "%r3");
    DIFF(&k, "%r0", "%r3");
    check_results(&k, want_loop);
    kern_free(&k);
}

/* A guarded definition keeps the old value where the guard is false: %r3 = 7 stays
 * live across %r4 and %r5 (which would otherwise take its slot). */
static void want_pred(uint32_t t, uint32_t *a, uint32_t *b) { *a = t % 2 ? 7 : t; *b = t + 100; }
static void t_pred(void **state)
{
    (void)state;
    kern k;
    kern_build(&k, "mov.u32 %r3, 7;\n"
                   "add.u32 %r4, %r0, 100;\n"
                   "st.global.u32 [%rd3+4], %r4;\n"
                   "and.b32 %r5, %r0, 1;\n"
                   "setp.eq.u32 %p1, %r5, 0;\n"
                   "@%p1 mov.u32 %r3, %r0;\n"
                   "st.global.u32 [%rd3], %r3;\n"
                   "ret;");
    DIFF(&k, "%r3", "%r4");
    DIFF(&k, "%r3", "%r5");
    SAME(&k, "%r4", "%r5");   /* %r4 dies at the store before %r5 is defined */
    check_results(&k, want_pred);
    kern_free(&k);
}

/* %r5 is defined on one path only: odd lanes read the zeroed frame's 0, so %r5 is live
 * from the entry and %r1, %r4, %r6 (defined meanwhile) must not share its slot. */
static void want_ubd(uint32_t t, uint32_t *a, uint32_t *b) { *a = t % 2 ? 0 : 9; *b = t + 3; }
static void t_use_before_def(void **state)
{
    (void)state;
    kern k;
    kern_build(&k, "and.b32 %r1, %r0, 1;\n"
                   "setp.eq.u32 %p1, %r1, 1;\n"
                   "mov.u32 %r4, 3;\n"
                   "add.u32 %r6, %r4, %r0;\n"
                   "st.global.u32 [%rd3+4], %r6;\n"
                   "@%p1 bra SKIP;\n"
                   "mov.u32 %r5, 9;\n"
                   "SKIP:\n"
                   "st.global.u32 [%rd3], %r5;\n"
                   "ret;");
    DIFF(&k, "%r5", "%r1");
    DIFF(&k, "%r5", "%r4");
    DIFF(&k, "%r5", "%r6");
    DIFF(&k, "%r5", "%r0");
    /* %r5 alone is read before any write (threads that branch): its slot alone is zeroed */
    assert_int_equal(k.ra.n_clear, 1);
    assert_int_equal(k.ra.clear[0], slot_of(&k, "%r5"));
    check_results(&k, want_ubd);
    kern_free(&k);
}

/* Divergent if/else: %r3 (then side) and %r5 (else side) are never live together and
 * share a slot; %r4, defined on both sides, reads them. Slots of b32 in register order:
 * %r0 A, %r1 B, %r2 (unused) A, %r3 C, %r4 D (reads %r0 and %r3, %r1 live), %r5 C. */
static void want_ifelse(uint32_t t, uint32_t *a, uint32_t *b) { *a = (t % 2 ? 20 : 10) + t; *b = t % 2; }
static void t_ifelse(void **state)
{
    (void)state;
    kern k;
    kern_build(&k, "and.b32 %r1, %r0, 1;\n"
                   "setp.eq.u32 %p1, %r1, 1;\n"
                   "@%p1 bra ELSE;\n"
                   "mov.u32 %r3, 10;\n"
                   "add.u32 %r4, %r3, %r0;\n"
                   "bra JOIN;\n"
                   "ELSE:\n"
                   "mov.u32 %r5, 20;\n"
                   "add.u32 %r4, %r5, %r0;\n"
                   "JOIN:\n"
                   "st.global.u32 [%rd3], %r4;\n"
                   "st.global.u32 [%rd3+4], %r1;\n"
                   "ret;");
    SAME(&k, "%r3", "%r5");
    SAME(&k, "%r0", "%r2");
    DIFF(&k, "%r3", "%r4");
    DIFF(&k, "%r4", "%r1");
    DIFF(&k, "%r4", "%r0");
    DIFF(&k, "%r3", "%r0");
    check_results(&k, want_ifelse);
    kern_free(&k);
}

/* shfl reads other lanes' copies of its source: %r1 gets a slot of its own (nothing
 * shares it, not even the unused registers); %r7's definition is dead but still writes
 * its slot, so it does not share with the live %r1 or %r2. */
static void want_shfl(uint32_t t, uint32_t *a, uint32_t *b)
{
    uint32_t src = t ^ 1;
    *a = src < THREADS ? src + 5 : t + 5;
    *b = t + 5;
}
static void t_shfl_dead(void **state)
{
    (void)state;
    kern k;
    kern_build(&k, "add.u32 %r1, %r0, 5;\n"
                   "mov.u32 %r7, 1;\n"
                   "shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;\n"
                   "st.global.u32 [%rd3], %r2;\n"
                   "st.global.u32 [%rd3+4], %r1;\n"
                   "ret;");
    const ptx_func *f = &k.m->funcs[0];
    uint32_t s1 = slot_of(&k, "%r1"), shared = 0;
    for (uint32_t r = 0; r < f->n_regs; r++)
        shared += k.ra.slot[r] == s1;
    assert_int_equal(shared, 1);
    DIFF(&k, "%r7", "%r1");
    /* shfl's source is read in other lanes: its slot is zeroed, nothing else is */
    assert_int_equal(k.ra.n_clear, 1);
    assert_int_equal(k.ra.clear[0], s1);
    check_results(&k, want_shfl);
    kern_free(&k);
}

/* barrier.red writes its destination at the barrier's release (ptx_insn_regs lists it
 * with the sources): %r2 is defined there, not live from the entry, so it takes the slot
 * of %r0, which died at the add (%r1 reads %r0, so it has a slot of its own). */
static void want_bred(uint32_t t, uint32_t *a, uint32_t *b) { *a = 10; *b = t + 1; }
static void t_barrier_red(void **state)
{
    (void)state;
    kern k;
    kern_build(&k, "setp.lt.u32 %p1, %r0, 10;\n"
                   "add.u32 %r1, %r0, 1;\n"
                   "st.global.u32 [%rd3+4], %r1;\n"
                   "barrier.red.popc.u32 %r2, 0, %p1;\n"
                   "st.global.u32 [%rd3], %r2;\n"
                   "ret;");
    SAME(&k, "%r0", "%r2");
    DIFF(&k, "%r0", "%r1");
    check_results(&k, want_bred);
    kern_free(&k);
}

/* Off: the identity mapping. */
static void t_off(void **state)
{
    (void)state;
    kern k;
    kern_build(&k, "ret;");
    ptx_regalloc ra;
    assert_int_equal(ptx_regalloc_build(k.m, &k.m->funcs[0], 0, &ra), 0);
    assert_false(ra.compacted);
    assert_int_equal(ra.n_slots, 18);
    assert_int_equal(ra.n_clear, 18);   /* identity: a new frame zeroes every row */
    for (uint32_t r = 0; r < ra.n_slots; r++)
        assert_int_equal(ra.slot[r], r);
    ptx_regalloc_free(&ra);
    kern_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_straight),       cmocka_unit_test(t_loop),
        cmocka_unit_test(t_pred),           cmocka_unit_test(t_use_before_def),
        cmocka_unit_test(t_ifelse),         cmocka_unit_test(t_shfl_dead),
        cmocka_unit_test(t_barrier_red),    cmocka_unit_test(t_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
