/* test_icnt.c - the crossbar (src/mem/icnt.c): latency, serialisation of flits,
 * backpressure from a full output buffer, round-robin fairness. Expected cycles are
 * derived from icnt.h: a packet of n flits granted at cycle g is in the output buffer
 * at g + latency + n, and holds its input and output links until g + n. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mem/icnt.h"

static icnt *mk(uint32_t n_src, uint32_t n_dst, uint32_t in_buf, uint32_t out_buf, uint32_t lat)
{
    icnt_cfg c = {.n_src = n_src, .n_dst = n_dst, .flit = 32, .in_buf = in_buf,
                  .out_buf = out_buf, .latency = lat};
    icnt *ic = icnt_create(&c, NULL, 0);
    assert_non_null(ic);
    return ic;
}

/* One 1-flit packet pushed and granted at 0 with latency 3 arrives at 0 + 3 + 1 = 4;
 * a 136-byte packet (5 flits) granted at 10 arrives at 10 + 3 + 5 = 18. */
static void test_latency(void **state)
{
    (void)state;
    icnt *ic = mk(2, 2, 8, 8, 3);
    /* any message kind travels (the memory system's: 2 invalidate, 4 ack) */
    icnt_msg a = {.kind = 2}, b = {.kind = 4};
    assert_int_equal(icnt_flits(ic, 8), 1);
    assert_int_equal(icnt_flits(ic, 136), 5);
    assert_int_equal(icnt_flits(ic, 0), 1);
    icnt_push(ic, &a, 0, 1, 8, 0, 0);
    assert_int_equal(icnt_next(ic, 0), 1);    /* grantable now: the caller runs cycle 0 */
    assert_int_equal(icnt_cycle(ic, 0), 1);
    assert_null(icnt_pop(ic, 1, 3));
    assert_int_equal(icnt_next(ic, 0), 4);
    assert_ptr_equal(icnt_pop(ic, 1, 4), &a);
    icnt_push(ic, &b, 1, 0, 136, 10, 10);
    assert_int_equal(icnt_cycle(ic, 10), 1);
    assert_int_equal(b.t_arr, 18);
    assert_ptr_equal(icnt_pop(ic, 0, 20), &b);
    const icnt_stats *s = icnt_get_stats(ic);
    assert_int_equal(s->packets, 2);
    assert_int_equal(s->flits, 6);
    assert_int_equal(s->lat_sum, 4 + 10);    /* push to pop */
    assert_int_equal(s->kinds[2], 1);
    assert_int_equal(s->kinds[4], 1);
    assert_int_equal(s->kinds[0], 0);
    assert_int_equal(icnt_in_use(ic), 0);
    assert_int_equal(icnt_next(ic, 20), UINT64_MAX);
    icnt_destroy(ic);
}

/* Backpressure: input and output buffers of 4 flits, 4-flit packets, no pops.
 * P1 pushed at 0 fills the input; P2 is refused until P1's grant at 0 empties it.
 * P1 fills the output buffer (4/4), so P2 is never granted; P3 is refused: the input
 * still holds P2. Popping P1 (arrived at 0 + 2 + 4 = 6) lets P2 go at the next cycle. */
static void test_backpressure(void **state)
{
    (void)state;
    icnt *ic = mk(1, 1, 4, 4, 2);
    icnt_msg p1 = {0}, p2 = {0}, p3 = {0};
    assert_true(icnt_can_push(ic, 0, 128));
    icnt_push(ic, &p1, 0, 0, 128, 0, 0);
    assert_false(icnt_can_push(ic, 0, 128));
    assert_int_equal(icnt_cycle(ic, 0), 1);
    assert_true(icnt_can_push(ic, 0, 128));
    icnt_push(ic, &p2, 0, 0, 128, 1, 1);
    for (uint64_t t = 1; t < 20; t++)
        assert_int_equal(icnt_cycle(ic, t), 0);
    assert_false(icnt_can_push(ic, 0, 128));
    assert_false(icnt_has_room(ic, 0, 32));
    (void)p3;
    assert_int_equal(icnt_get_stats(ic)->refused, 2);
    /* blocked on the receiver: icnt_next polls */
    assert_int_equal(icnt_next(ic, 20), 21);
    assert_ptr_equal(icnt_pop(ic, 0, 20), &p1);
    assert_int_equal(icnt_cycle(ic, 21), 1);
    assert_int_equal(p2.t_arr, 21 + 2 + 4);
    assert_true(icnt_can_push(ic, 0, 128));
    icnt_destroy(ic);
}

/* icnt_next is the earliest of its terms, clamped to now + 1 (a term at or before now + 1
 * ends the search). Latency 5, A (1 flit) 0 -> 0 granted at 0 arrives at 0 + 5 + 1 = 6;
 * B 1 -> 1 pushed at 0, ready at 10. At 0: min(6, 10) = 6; at 5: A's 6 = now + 1; at 7: A
 * arrived, not popped: 8; A popped at 7: B's 10; at 9: 10 = now + 1; B granted at 10
 * arrives at 16: 16 at 10, 17 at 16 and 20 (B waits for its pop). */
static void test_next_earliest(void **state)
{
    (void)state;
    icnt *ic = mk(2, 2, 8, 8, 5);
    icnt_msg a = {0}, b = {0};
    icnt_push(ic, &a, 0, 0, 8, 0, 0);
    icnt_push(ic, &b, 1, 1, 8, 0, 10);
    assert_int_equal(icnt_cycle(ic, 0), 1);
    assert_int_equal(icnt_next(ic, 0), 6);
    assert_int_equal(icnt_next(ic, 5), 6);
    assert_int_equal(icnt_next(ic, 7), 8);
    assert_ptr_equal(icnt_pop(ic, 0, 7), &a);
    assert_int_equal(icnt_next(ic, 7), 10);
    assert_int_equal(icnt_next(ic, 9), 10);
    assert_int_equal(icnt_cycle(ic, 10), 1);
    assert_int_equal(icnt_next(ic, 10), 16);
    assert_int_equal(icnt_next(ic, 16), 17);
    assert_int_equal(icnt_next(ic, 20), 21);
    assert_ptr_equal(icnt_pop(ic, 1, 20), &b);
    assert_int_equal(icnt_next(ic, 20), UINT64_MAX);
    icnt_destroy(ic);
}

/* Round robin: two inputs with three 1-flit packets each for output 0, all ready at 0.
 * One grant per cycle; the pointer starts so that input 0 goes first: 0 1 0 1 0 1. */
static void test_round_robin(void **state)
{
    (void)state;
    icnt *ic = mk(2, 1, 8, 64, 0);
    icnt_msg m[6] = {{0}};
    for (int i = 0; i < 3; i++) {
        icnt_push(ic, &m[2 * i], 0, 0, 8, 0, 0);
        icnt_push(ic, &m[2 * i + 1], 1, 0, 8, 0, 0);
    }
    uint32_t order[6];
    int n = 0;
    for (uint64_t t = 0; t < 20 && n < 6; t++) {
        icnt_cycle(ic, t);
        icnt_msg *x;
        while ((x = icnt_pop(ic, 0, t)) != NULL)
            order[n++] = x->src;
    }
    assert_int_equal(n, 6);
    for (int i = 0; i < 6; i++)
        assert_int_equal(order[i], (uint32_t)(i % 2));
    icnt_destroy(ic);
}

/* A multi-flit packet holds the output port: 2-flit packets from inputs 0 and 1 to
 * output 0: the first is granted at 0, the second at 2 (port busy until 0 + 2). */
static void test_port_bandwidth(void **state)
{
    (void)state;
    icnt *ic = mk(2, 2, 8, 8, 1);
    icnt_msg a = {0}, b = {0}, c = {0};
    icnt_push(ic, &a, 0, 0, 64, 0, 0);
    icnt_push(ic, &b, 1, 0, 64, 0, 0);
    icnt_push(ic, &c, 1, 1, 8, 0, 0);   /* behind b in input 1: head-of-line blocked */
    assert_int_equal(icnt_cycle(ic, 0), 1);
    assert_int_equal(a.t_arr, 0 + 1 + 2);
    assert_int_equal(icnt_next(ic, 0), 2);
    assert_int_equal(icnt_cycle(ic, 1), 0);
    assert_int_equal(icnt_cycle(ic, 2), 1);
    assert_int_equal(b.t_arr, 2 + 1 + 2);
    /* c waits for input 1's link (busy until 4) although output 1 is free */
    assert_int_equal(icnt_cycle(ic, 3), 0);
    assert_int_equal(icnt_cycle(ic, 4), 1);
    assert_int_equal(c.t_arr, 4 + 1 + 1);
    icnt_destroy(ic);
}

/* Not ready yet: a packet pushed with a later ready cycle waits for it. */
static void test_ready_time(void **state)
{
    (void)state;
    icnt *ic = mk(1, 1, 8, 8, 0);
    icnt_msg a = {0};
    icnt_push(ic, &a, 0, 0, 8, 0, 5);
    assert_int_equal(icnt_next(ic, 0), 5);
    assert_int_equal(icnt_cycle(ic, 4), 0);
    assert_int_equal(icnt_cycle(ic, 5), 1);
    char err[64] = "";
    icnt_cfg bad = {.n_src = 0, .n_dst = 1, .flit = 32, .in_buf = 1, .out_buf = 1};
    assert_null(icnt_create(&bad, err, sizeof err));
    assert_true(strlen(err) > 0);
    icnt_destroy(ic);
}

/* An arbitration that grants nothing keeps its earliest possible grant (A ready at 10:
 * no grant before 10), but a push clears it: B, pushed at 1 ready at 1 on another input
 * and output, goes at once; A still waits for 10. */
static void test_idle_until_push(void **state)
{
    (void)state;
    icnt *ic = mk(2, 2, 8, 8, 0);
    icnt_msg a = {0}, b = {0};
    icnt_push(ic, &a, 0, 0, 8, 0, 10);
    assert_int_equal(icnt_cycle(ic, 0), 0);
    icnt_push(ic, &b, 1, 1, 8, 1, 1);
    assert_int_equal(icnt_cycle(ic, 1), 1);
    assert_int_equal(b.t_arr, 1 + 0 + 1);
    assert_int_equal(icnt_cycle(ic, 2), 0);
    assert_int_equal(icnt_cycle(ic, 9), 0);
    assert_int_equal(icnt_cycle(ic, 10), 1);
    assert_int_equal(a.t_arr, 10 + 0 + 1);
    icnt_destroy(ic);
}

/* icnt_out_times: each output's head arrival, UINT64_MAX when empty. Latency 3, 1-flit
 * packets a and b from inputs 0 and 1 to output 1, granted one per cycle (the output
 * link is busy for a flit): a at 0 (arrives 0 + 3 + 1 = 4), b at 1 (arrives 5); output 0
 * stays empty throughout. */
static void test_out_times(void **state)
{
    (void)state;
    icnt *ic = mk(2, 2, 8, 8, 3);
    const uint64_t *t = icnt_out_times(ic);
    icnt_msg a = {0}, b = {0};
    assert_int_equal(t[0], UINT64_MAX);
    assert_int_equal(t[1], UINT64_MAX);
    icnt_push(ic, &a, 0, 1, 8, 0, 0);
    icnt_push(ic, &b, 1, 1, 8, 0, 0);
    assert_int_equal(t[1], UINT64_MAX);   /* pushed, not granted: not in the output */
    assert_int_equal(icnt_cycle(ic, 0), 1);
    assert_int_equal(t[1], 4);            /* a, the head */
    assert_int_equal(icnt_cycle(ic, 1), 1);
    assert_int_equal(t[1], 4);            /* b queued behind a */
    assert_null(icnt_pop(ic, 1, 3));      /* t[1] > 3 */
    assert_ptr_equal(icnt_pop(ic, 1, 4), &a);
    assert_int_equal(t[1], 5);            /* b's arrival */
    assert_ptr_equal(icnt_pop(ic, 1, 5), &b);
    assert_int_equal(t[1], UINT64_MAX);
    assert_int_equal(t[0], UINT64_MAX);
    icnt_destroy(ic);
}

/* icnt_in_used: flits in each input buffer, up at a push, down at the grant. 32-byte
 * flits: 8 bytes are 1 flit, 136 bytes 5 (icnt_flits); input buffer of 8 flits. */
/* icnt_out_heads: each output's head packet, NULL when empty, beside icnt_out_times (the
 * same scenario as test_out_times: a then b into output 1, a arriving at 4, b at 5);
 * with times[dst] <= now, heads[dst] is what icnt_peek(dst, now) returns. */
static void test_out_heads(void **state)
{
    (void)state;
    icnt *ic = mk(2, 2, 8, 8, 3);
    icnt_msg *const *h = icnt_out_heads(ic);
    const uint64_t *t = icnt_out_times(ic);
    icnt_msg a = {0}, b = {0};
    assert_null(h[0]);
    assert_null(h[1]);
    icnt_push(ic, &a, 0, 1, 8, 0, 0);
    icnt_push(ic, &b, 1, 1, 8, 0, 0);
    assert_null(h[1]);                    /* pushed, not granted */
    assert_int_equal(icnt_cycle(ic, 0), 1);
    assert_ptr_equal(h[1], &a);
    assert_int_equal(icnt_cycle(ic, 1), 1);
    assert_ptr_equal(h[1], &a);           /* b queued behind a */
    assert_null(icnt_peek(ic, 1, 3));     /* t[1] = 4 > 3: a not yet arrived */
    assert_ptr_equal(icnt_peek(ic, 1, 4), h[1]);
    assert_ptr_equal(icnt_pop(ic, 1, 4), &a);
    assert_ptr_equal(h[1], &b);
    assert_int_equal(t[1], 5);
    assert_ptr_equal(icnt_peek(ic, 1, 5), h[1]);
    assert_ptr_equal(icnt_pop(ic, 1, 5), &b);
    assert_null(h[1]);
    assert_null(h[0]);
    icnt_destroy(ic);
}

static void test_in_used(void **state)
{
    (void)state;
    icnt *ic = mk(2, 2, 8, 8, 3);
    const uint32_t *u = icnt_in_used(ic);
    icnt_msg a = {0}, b = {0};
    assert_int_equal(u[0], 0);
    icnt_push(ic, &a, 0, 1, 136, 0, 0);
    icnt_push(ic, &b, 0, 0, 8, 0, 0);
    assert_int_equal(u[0], 6);
    assert_int_equal(u[1], 0);
    /* room for a packet of f flits iff u + f <= 8: 2 flits fit, 3 do not */
    assert_true(icnt_has_room(ic, 0, 64));
    assert_false(icnt_has_room(ic, 0, 65));
    assert_int_equal(icnt_cycle(ic, 0), 1);   /* a granted (5 flits leave the input) */
    assert_int_equal(u[0], 1);
    assert_int_equal(icnt_cycle(ic, 5), 1);   /* b, once the input link is free at 0 + 5 */
    assert_int_equal(u[0], 0);
    icnt_destroy(ic);
}

/* icnt_in_freed: a grant from an input sets its bit; the caller clears them. Inputs 0
 * and 1 each push a 2-flit packet to output 0 at 0: input 0 is granted at 0 (round robin
 * from input 0), holding the output link until 0 + 2, input 1 at 2. */
static void test_in_freed(void **state)
{
    (void)state;
    icnt *ic = mk(2, 1, 8, 8, 1);
    uint64_t *fr = icnt_in_freed(ic);
    icnt_msg a = {0}, b = {0};
    icnt_push(ic, &a, 0, 0, 64, 0, 0);
    icnt_push(ic, &b, 1, 0, 64, 0, 0);
    assert_int_equal(fr[0], 0);
    assert_int_equal(icnt_cycle(ic, 0), 1);
    assert_int_equal(fr[0], 1);          /* input 0 */
    fr[0] = 0;
    assert_int_equal(icnt_cycle(ic, 1), 0);
    assert_int_equal(fr[0], 0);
    assert_int_equal(icnt_cycle(ic, 2), 1);
    assert_int_equal(fr[0], 2);          /* input 1 */
    assert_int_equal(icnt_in_used(ic)[1], 0);
    icnt_destroy(ic);
}

/* Flits of a size that is no power of two (40 bytes, by the multiply-shift divider):
 * ceil(bytes / 40), at least 1. */
static void test_flits_odd(void **state)
{
    (void)state;
    icnt_cfg c = {.n_src = 1, .n_dst = 1, .flit = 40, .in_buf = 8, .out_buf = 8};
    icnt *ic = icnt_create(&c, NULL, 0);
    assert_non_null(ic);
    assert_int_equal(icnt_flits(ic, 0), 1);
    assert_int_equal(icnt_flits(ic, 8), 1);
    assert_int_equal(icnt_flits(ic, 40), 1);
    assert_int_equal(icnt_flits(ic, 41), 2);
    assert_int_equal(icnt_flits(ic, 136), 4);
    assert_int_equal(icnt_flits(ic, 4000), 100);
    assert_int_equal(icnt_flits(ic, 4001), 101);
    icnt_destroy(ic);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latency),
        cmocka_unit_test(test_in_freed),
        cmocka_unit_test(test_backpressure),
        cmocka_unit_test(test_next_earliest),
        cmocka_unit_test(test_round_robin),
        cmocka_unit_test(test_port_bandwidth),
        cmocka_unit_test(test_ready_time),
        cmocka_unit_test(test_idle_until_push),
        cmocka_unit_test(test_flits_odd),
        cmocka_unit_test(test_out_times),
        cmocka_unit_test(test_out_heads),
        cmocka_unit_test(test_in_used),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
