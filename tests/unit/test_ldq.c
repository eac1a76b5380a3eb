/* test_ldq.c - the baseline and REOD request paths (core/ldq.c) against a mock L1D
 * whose set 0 is full of reserved lines (CSF) until cycle 5; the other sets accept.
 * Lines of 128 B, 4 sets; requests A..E in issue order at cycle 0 target sets
 * A:0 B:1 C:2 D:0 E:3. Expected send cycles, derived by hand:
 *
 *  baseline (one FIFO, head-of-line blocking): A waits for set 0, everything waits
 *    behind it: A 5, B 6, C 7, D 8, E 9; blocked cycles 0-4 = 5, all CSF.
 *  REOD, 4 queues x depth 2 (queue = set): queues q0=[A,D] q1=[B] q2=[C] q3=[E];
 *    round robin from q0, skipping heads that would be refused:
 *    c0: A refused, B sent; c1: C; c2: E; c3, c4: only A, refused; c5: A; c6: D.
 *    -> A 5, B 0, C 1, D 6, E 2; stalled cycles 3 and 4 = 2.
 *  REOD, depth 1: D finds q0 full (A in it) and waits at the entry, and E waits
 *    behind D (entry is in issue order): c0: B; c1: C; c2-c4: A refused;
 *    c5: A sent; c6: D and E enter, round robin after q0: q3's E; c7: D.
 *    -> A 5, B 0, C 1, D 7, E 6; the entry waited on a full queue c0-c5 = 6 cycles.
 *  baseline with a latency queue of 3 slots (l1d.latency_queue, GPGPU-Sim's
 *    l1_latency_queue): per cycle first the lookup of the oldest request if it entered
 *    >= 2 cycles ago, then one request enters while fewer than 3 wait.
 *    c0: A enters; c1: B enters; c2: A due, refused (CSF), C enters (3 wait);
 *    c3, c4: A refused, the queue is full, D waits; c5: A looked up, D enters;
 *    c6: B (due since 3), E enters; c7: C; c8: D (due 7); c9: E (due 8).
 *    -> lookups A 5, B 6, C 7, D 8, E 9; entries (left the LD/ST unit) A 0, B 1, C 2,
 *    D 5, E 6; refused lookups c2-c4 = 3.
 *    Without refusals: lookups 2 cycles after the entries, one per cycle:
 *    entries A 0, B 1, C 2, D 3, E 4; lookups A 2, B 3, C 4, D 5, E 6.
 *    A parameter load P and an atomic X between two global loads A and B skip the
 *    queue (the L1C; atomics bypass the L1D): c0: A enters; c1: P, at the head of the
 *    entry FIFO, is accessed; c2: A looked up (due 2), X accessed; c3: B enters;
 *    c5: B looked up. -> A 2, P 1, X 2, B 5.
 *  REOD (4 queues, queue = set) behind the latency queue of 3 slots: per cycle first
 *    the latency queue's oldest request, if due (entered >= 2 cycles ago), moves into
 *    its set's queue (or waits while that queue is full), then the round-robin selector
 *    looks up one queue head the L1D accepts, then one request enters the latency queue.
 *    Entries A 0, B 1, C 2, D 3, E 4 (A leaves the latency queue at 2, so C enters at 2;
 *    nothing blocks the latency queue in depth 2).
 *    depth 2: c2: A -> q0, refused (stalled cycle); c3: B -> q1, selector from q0: A
 *    refused, B looked up (rr -> q2); c4: C -> q2, looked up (rr -> q3); c5: D -> q0
 *    = [A, D], selector from q3 (empty), q0: A accepted (rr -> q1); c6: E -> q3, looked
 *    up (q1, q2 empty; rr -> q0); c7: D.
 *    -> lookups A 5, B 3, C 4, D 7, E 6; 1 stalled cycle (c2), no full queue.
 *    depth 1: the same until c5: D is due but q0 still holds A (full: 1 cycle), A is
 *    looked up; c6: D -> q0, looked up (q1..q3 empty: E is behind D in the latency
 *    queue); c7: E -> q3, looked up.
 *    -> lookups A 5, B 3, C 4, D 6, E 7; 1 stalled cycle, 1 full-queue cycle.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/ldq.h"
#include "ptx/ir.h"

typedef struct {
    memsys base;
    uint64_t sent_at[5];
    uint64_t csf_until;   /* set 0 refuses (CSF) before this cycle */
} mock;

static mem_access verdict(const memsys *m, const mem_req *r, uint64_t cycle)
{
    return (r->addr / 128) % 4 == 0 && cycle < ((const mock *)m)->csf_until ? MA_CSF : MA_MISS;
}

static mem_access mock_probe(const memsys *m, const mem_req *r, uint64_t cycle)
{
    return verdict(m, r, cycle);
}

static mem_access mock_access(memsys *m, mem_req *r, uint64_t cycle)
{
    mem_access a = verdict(m, r, cycle);
    if (!mem_access_refused(a)) {
        ((mock *)m)->sent_at[r->tag] = cycle;
        r->t_issue = cycle;   /* as real models do: the ldq must not rely on it */
        free(r);              /* the memory system owns it now */
    }
    return a;
}

static const mem_model mock_model = {
    .name = "mock", .access = mock_access, .probe = mock_probe,
};

/* ldq_last_inc: the counters now less `was`, those before the last cycle */
static void assert_inc(const ldq *q, const ldq_stats *was)
{
    const ldq_stats *now = ldq_get_stats(q);
    uint64_t d[6];
    const int more = ldq_last_inc(q, d);
    assert_int_equal(more, d[0] || d[5]);   /* a refusal or a full queue, else occupancy only */
    assert_int_equal(d[0], now->stall_cycles - was->stall_cycles);
    for (int k = 0; k < 3; k++)
        assert_int_equal(d[1 + k], now->resfail[k] - was->resfail[k]);
    assert_int_equal(d[4], now->occupancy_sum - was->occupancy_sum);
    assert_int_equal(d[5], now->full_cycles - was->full_cycles);
}

static void run(uint32_t queues, uint32_t depth, const uint64_t expect[5], uint64_t stall_cycles,
                uint64_t full_cycles)
{
    mock m;
    memset(&m, 0, sizeof m);
    m.base.ops = &mock_model;
    m.csf_until = 5;
    ldq *q = ldq_create(queues, depth, 0, 4, 128);
    const uint32_t set[5] = {0, 1, 2, 0, 3};
    for (uint32_t i = 0; i < 5; i++) {
        mem_req *r = calloc(1, sizeof *r);
        r->addr = 0x10000 + set[i] * 128 + 4 * 128 * i;   /* distinct lines */
        r->tag = i;
        ldq_push(q, r, 0);
    }
    for (uint64_t c = 0; c < 20 && ldq_len(q); c++) {
        /* ldq_cycle_snap: ldq_cycle with the request sent; ldq_last_inc: what it added */
        int stalled;
        const ldq_stats was = *ldq_get_stats(q);
        const mem_req *sent;
        ldq_cycle_snap(q, &m.base, c, &stalled, &sent);
        assert_ptr_equal(sent, ldq_last_sent(q));
        assert_inc(q, &was);
    }
    assert_int_equal(ldq_len(q), 0);
    for (int i = 0; i < 5; i++)
        assert_int_equal(m.sent_at[i], expect[i]);
    const ldq_stats *st = ldq_get_stats(q);
    assert_int_equal(st->stall_cycles, stall_cycles);
    assert_int_equal(st->resfail[0], stall_cycles);   /* all CSF */
    assert_int_equal(st->resfail[1] + st->resfail[2], 0);
    assert_int_equal(st->full_cycles, full_cycles);
    assert_int_equal(st->sent, 5);
    uint64_t qsum = 0;
    for (int i = 0; i < 5; i++)
        qsum += expect[i];
    assert_int_equal(st->queued_cycles, qsum);   /* all pushed at cycle 0 */
    ldq_destroy(q);
}

static void t_baseline_blocks(void **state)
{
    (void)state;
    const uint64_t e[5] = {5, 6, 7, 8, 9};
    run(0, 1, e, 5, 0);
}

static void t_reod_skips_full_set(void **state)
{
    (void)state;
    const uint64_t e[5] = {5, 0, 1, 6, 2};
    run(4, 2, e, 2, 0);
}

static void t_reod_full_queue_waits(void **state)
{
    (void)state;
    const uint64_t e[5] = {5, 0, 1, 7, 6};
    run(4, 1, e, 3, 6);
}

static void run_latq(uint32_t queues, uint32_t depth, uint64_t csf_until, const uint64_t lookup[5],
                     const uint64_t entered[5], uint64_t stall_cycles, uint64_t full_cycles)
{
    mock m;
    memset(&m, 0, sizeof m);
    m.base.ops = &mock_model;
    m.csf_until = csf_until;
    ldq *q = ldq_create(queues, depth, 0, 4, 128);
    assert_int_equal(ldq_set_latency_queue(q, 3), 0);
    const uint32_t set[5] = {0, 1, 2, 0, 3};
    for (uint32_t i = 0; i < 5; i++) {
        mem_req *r = calloc(1, sizeof *r);
        r->addr = 0x10000 + set[i] * 128 + 4 * 128 * i;
        r->tag = i;
        ldq_push(q, r, 0);
    }
    assert_true(ldq_next_lookup(q) == UINT64_MAX);   /* nothing in the latency queue yet */
    uint64_t in_at[5] = {0};
    for (uint64_t c = 0; c < 20 && ldq_len(q); c++) {
        int stalled;
        ldq_cycle(q, &m.base, c, &stalled);
        const mem_req *r = ldq_last_sent(q);
        if (r)
            in_at[r->tag] = c;
        if (c == 0)
            assert_int_equal(ldq_next_lookup(q), 2);   /* A entered at 0, looked up at 2 */
    }
    assert_int_equal(ldq_len(q), 0);
    assert_true(ldq_next_lookup(q) == UINT64_MAX);
    uint64_t qsum = 0;
    for (int i = 0; i < 5; i++) {
        assert_int_equal(m.sent_at[i], lookup[i]);
        assert_int_equal(in_at[i], entered[i]);
        qsum += lookup[i];
    }
    const ldq_stats *st = ldq_get_stats(q);
    assert_int_equal(st->stall_cycles, stall_cycles);
    assert_int_equal(st->resfail[0], stall_cycles);
    assert_int_equal(st->full_cycles, full_cycles);
    assert_int_equal(st->sent, 5);
    assert_int_equal(st->queued_cycles, qsum);   /* pushed at cycle 0 */
    ldq_destroy(q);
}

static void t_latency_queue_refused(void **state)
{
    (void)state;
    const uint64_t lk[5] = {5, 6, 7, 8, 9}, in[5] = {0, 1, 2, 5, 6};
    run_latq(0, 1, 5, lk, in, 3, 0);
}

static void t_latency_queue_free(void **state)
{
    (void)state;
    const uint64_t lk[5] = {2, 3, 4, 5, 6}, in[5] = {0, 1, 2, 3, 4};
    run_latq(0, 1, 0, lk, in, 0, 0);
}

static void t_latency_queue_skips(void **state)
{
    (void)state;
    mock m;
    memset(&m, 0, sizeof m);
    m.base.ops = &mock_model;
    ldq *q = ldq_create(0, 1, 0, 4, 128);
    assert_int_equal(ldq_set_latency_queue(q, 3), 0);
    const uint8_t space[4] = {SP_GLOBAL, SP_PARAM, SP_GLOBAL, SP_GLOBAL};
    const uint8_t kind[4] = {MR_LOAD, MR_LOAD, MR_ATOMIC, MR_LOAD};
    for (uint32_t i = 0; i < 4; i++) {
        mem_req *r = calloc(1, sizeof *r);
        r->addr = 0x10000 + (1 + i % 3) * 128;   /* sets 1-3: never refused */
        r->space = space[i];
        r->kind = kind[i];
        r->tag = i;
        ldq_push(q, r, 0);
    }
    for (uint64_t c = 0; c < 20 && ldq_len(q); c++) {
        int stalled;
        ldq_cycle(q, &m.base, c, &stalled);
    }
    assert_int_equal(ldq_len(q), 0);
    assert_int_equal(m.sent_at[0], 2);
    assert_int_equal(m.sent_at[1], 1);
    assert_int_equal(m.sent_at[2], 2);
    assert_int_equal(m.sent_at[3], 5);
    ldq_destroy(q);
}

static void t_latency_queue_reod(void **state)
{
    (void)state;
    const uint64_t in[5] = {0, 1, 2, 3, 4};
    const uint64_t lk2[5] = {5, 3, 4, 7, 6}, lk1[5] = {5, 3, 4, 6, 7};
    run_latq(4, 2, 5, lk2, in, 1, 0);
    run_latq(4, 1, 5, lk1, in, 1, 1);
    /* nothing refused: the same cycles as the baseline's latency queue */
    const uint64_t lk0[5] = {2, 3, 4, 5, 6};
    run_latq(4, 2, 0, lk0, in, 0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_baseline_blocks),
        cmocka_unit_test(t_reod_skips_full_set),
        cmocka_unit_test(t_reod_full_queue_waits),
        cmocka_unit_test(t_latency_queue_refused),
        cmocka_unit_test(t_latency_queue_free),
        cmocka_unit_test(t_latency_queue_skips),
        cmocka_unit_test(t_latency_queue_reod),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
