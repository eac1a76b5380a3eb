/* test_ldq_quiet.c - ldq_cycle_snap's cycles without a call (ldq.h): nothing held, or
 * a latency queue whose oldest request is not yet due while the entry FIFO's head
 * cannot move. They must leave what ldq_cycle leaves.
 *
 * Hand-worked case: a latency queue of 4 slots, a memory system that accepts
 * everything; global loads A and B pushed at cycle 0. c0: A enters the latency queue
 * (due at 0 + 4 - 1 = 3); c1: B enters (due 4); c2: A not due, the entry empty: a quiet
 * cycle (no send, not stalled); c3: A looked up; c4: B looked up; c5: nothing held.
 * Occupancy (requests held, per cycle): 2 + 2 + 2 + 2 + 1 + 0 = 9; queued cycles
 * (from the push to the lookup): A 3, B 4 = 7; `stalled` (requests wait at the
 * entry) only after c0, where B waits behind A.
 * Twin case: two identical queues under a script of global, parameter, constant and
 * atomic requests pushed at various cycles and a memory system refusing global accesses
 * in some cycles, one driven by ldq_cycle_snap and one by ldq_cycle: every result, the
 * sent request's tag and every counter equal, cycle by cycle, and ldq_last_inc what the
 * cycle added to the counters.
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
    uint64_t at[16];      /* cycle each tag was accepted */
    uint64_t refuse;      /* bit c: global accesses refused (CSF) in cycle c */
    mem_req *held[64];    /* the accepted requests (ldq_last_sent may point at one),
                             freed at the test's end */
    unsigned n_held;
} mock;

static void mock_free(mock *k)
{
    for (unsigned i = 0; i < k->n_held; i++)
        free(k->held[i]);
    k->n_held = 0;
}

static mem_access mock_access(memsys *m, mem_req *r, uint64_t cycle)
{
    mock *k = (mock *)m;
    if (r->space == SP_GLOBAL && cycle < 64 && (k->refuse >> cycle & 1))
        return MA_CSF;
    k->at[r->tag] = cycle;
    assert_true(k->n_held < sizeof k->held / sizeof *k->held);
    k->held[k->n_held++] = r;
    return MA_MISS;
}

static const mem_model mock_model = {.name = "mock", .access = mock_access};

static mem_req *req_of(uint32_t tag, uint8_t space, uint8_t kind)
{
    mem_req *r = calloc(1, sizeof *r);
    r->addr = 0x1000 + 128ull * tag;
    r->tag = tag;
    r->space = space;
    r->kind = kind;
    return r;
}

static mem_req *req(uint32_t tag, uint8_t space) { return req_of(tag, space, MR_LOAD); }

static void t_hand(void **state)
{
    (void)state;
    mock m;
    memset(&m, 0, sizeof m);
    m.base.ops = &mock_model;
    ldq *q = ldq_create(0, 1, 0, 4, 128);
    assert_int_equal(ldq_set_latency_queue(q, 4), 0);
    ldq_push(q, req(0, SP_GLOBAL), 0);
    ldq_push(q, req(1, SP_GLOBAL), 0);
    const int progress[6] = {1, 1, 0, 1, 1, 0};
    const int waits[6] = {1, 0, 0, 0, 0, 0};   /* B still at the entry after c0 */
    for (uint64_t c = 0; c < 6; c++) {
        int stalled = -1;
        const mem_req *sent = (const mem_req *)q;   /* (must be overwritten) */
        int p = ldq_cycle_snap(q, &m.base, c, &stalled, &sent);
        assert_int_equal(p, progress[c]);
        assert_int_equal(stalled, waits[c]);
        if (c == 0 || c == 1)
            assert_non_null(sent);   /* entered the latency queue: left the LD/ST unit */
        else
            assert_null(sent);
    }
    assert_int_equal(m.at[0], 3);
    assert_int_equal(m.at[1], 4);
    const ldq_stats *st = ldq_get_stats(q);
    assert_int_equal(st->occupancy_sum, 9);
    assert_int_equal(st->queued_cycles, 7);
    assert_int_equal(st->sent, 2);
    assert_int_equal(st->stall_cycles, 0);
    ldq_destroy(q);
    mock_free(&m);
}

static void t_twin(void **state)
{
    (void)state;
    mock m[2];
    memset(m, 0, sizeof m);
    ldq *q[2];
    for (int k = 0; k < 2; k++) {
        m[k].base.ops = &mock_model;
        m[k].refuse = 0x3c0ull | 0x30000ull;   /* cycles 6-9 and 16-17 */
        q[k] = ldq_create(0, 1, 0, 4, 128);
        assert_int_equal(ldq_set_latency_queue(q[k], 3), 0);
    }
    /* (cycle, space, kind) of each push, tags in order; the atomics (sent from the entry
     * FIFO's head, ldq_cycle_snap_head while no lookup is due) pushed where global
     * accesses are refused, so some are retried */
    const struct { uint64_t c; uint8_t sp, kind; } push[] = {
        {0, SP_GLOBAL, MR_LOAD},   {0, SP_GLOBAL, MR_LOAD},   {1, SP_PARAM, MR_LOAD},
        {4, SP_GLOBAL, MR_LOAD},   {5, SP_GLOBAL, MR_LOAD},   {5, SP_CONST, MR_LOAD},
        {5, SP_GLOBAL, MR_ATOMIC}, {5, SP_GLOBAL, MR_LOAD},   {12, SP_GLOBAL, MR_LOAD},
        {15, SP_PARAM, MR_LOAD},   {15, SP_GLOBAL, MR_ATOMIC}, {15, SP_GLOBAL, MR_LOAD},
        {15, SP_GLOBAL, MR_LOAD},  {22, SP_GLOBAL, MR_LOAD},
    };
    const size_t np = sizeof push / sizeof *push;
    size_t next = 0;
    for (uint64_t c = 0; c < 40; c++) {
        for (; next < np && push[next].c == c; next++)
            for (int k = 0; k < 2; k++)
                ldq_push(q[k], req_of((uint32_t)next, push[next].sp, push[next].kind), c);
        int s0 = -1, s1 = -1;
        const mem_req *sent;
        const ldq_stats was = *ldq_get_stats(q[0]);
        int p0 = ldq_cycle_snap(q[0], &m[0].base, c, &s0, &sent);
        int p1 = ldq_cycle(q[1], &m[1].base, c, &s1);
        const ldq_stats *now = ldq_get_stats(q[0]);
        uint64_t d[6];   /* ldq_last_inc: what the cycle added */
        const int more = ldq_last_inc(q[0], d);
        assert_int_equal(more, d[0] || d[5]);
        assert_int_equal(d[0], now->stall_cycles - was.stall_cycles);
        for (int k = 0; k < 3; k++)
            assert_int_equal(d[1 + k], now->resfail[k] - was.resfail[k]);
        assert_int_equal(d[4], now->occupancy_sum - was.occupancy_sum);
        assert_int_equal(d[5], now->full_cycles - was.full_cycles);
        assert_int_equal(p0, p1);
        assert_int_equal(s0, s1);
        const mem_req *l1 = ldq_last_sent(q[1]);
        assert_int_equal(sent != NULL, l1 != NULL);
        if (sent)
            assert_int_equal(sent->tag, l1->tag);
        assert_memory_equal(ldq_get_stats(q[0]), ldq_get_stats(q[1]), sizeof(ldq_stats));
        assert_int_equal(ldq_len(q[0]), ldq_len(q[1]));
        assert_int_equal(ldq_next_lookup(q[0]), ldq_next_lookup(q[1]));
    }
    assert_int_equal(ldq_len(q[0]), 0);
    assert_memory_equal(m[0].at, m[1].at, sizeof m[0].at);
    for (int k = 0; k < 2; k++) {
        ldq_destroy(q[k]);
        mock_free(&m[k]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_hand),
        cmocka_unit_test(t_twin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
