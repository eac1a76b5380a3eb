/* test_dram.c - one DRAM channel (src/mem/dram.c): command timing and the FR-FCFS and
 * FIFO schedulers, with every completion cycle worked out by hand from dram.h.
 *
 * Timing used throughout (GTX480 GDDR5 values of docs/MEMORY.md): tRCD 12, tRP 12,
 * tRAS 28, tRC 40, tCL 12, tWL 4, tCCD 2, tRRD 6, tWR 12, tWTR 5, tRTW 2; a 64-bit
 * channel at 4 beats per clock moves 32 bytes per cycle, so a 128-byte request takes
 * B = 4 cycles of data (two BL8 bursts of 2 cycles). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mem/dram.h"

static dram_cfg gddr5(int sched)
{
    return (dram_cfg){.banks = 4, .queue = 8, .bus_bytes = 8, .beats_per_clk = 4,
                      .burst_len = 8, .tCCD = 2, .tRRD = 6, .tRCD = 12, .tRAS = 28, .tRP = 12,
                      .tRC = 40, .tCL = 12, .tWL = 4, .tWR = 12, .tRTW = 2, .tWTR = 5,
                      .sched = sched};
}

static dram_req mk(uint32_t bank, uint32_t row, int write)
{
    return (dram_req){.bank = bank, .row = row, .bytes = 128, .write = (uint8_t)write};
}

/* Runs cycles from `from` until every request is popped (at most `until`); records
 * the pop order. step: 1 = every cycle, 0 = jump with dram_next. */
static int run(dram *d, uint64_t from, uint64_t until, int step, dram_req **order, int max)
{
    int n = 0;
    uint64_t t = from;
    while (t <= until && dram_in_flight(d)) {
        dram_cycle(d, t);
        dram_req *r;
        while ((r = dram_pop(d, t)) != NULL && n < max)
            order[n++] = r;
        t = step ? t + 1 : dram_next(d, t);
    }
    return n;
}

static void test_burst_cycles(void **state)
{
    (void)state;
    dram_cfg c = gddr5(DRAM_FRFCFS);
    dram *d = dram_create(&c, NULL, 0);
    assert_int_equal(dram_burst_cycles(d, 128), 4);   /* 128 / 32 */
    assert_int_equal(dram_burst_cycles(d, 32), 2);    /* one whole BL8 burst */
    assert_int_equal(dram_burst_cycles(d, 4), 2);
    assert_int_equal(dram_burst_cycles(d, 96), 4);    /* 3 cycles, rounded to bursts */
    dram_destroy(d);
    c.beats_per_clk = 2;                               /* plain DDR: the brief's 8 cycles */
    d = dram_create(&c, NULL, 0);
    assert_int_equal(dram_burst_cycles(d, 128), 8);
    dram_destroy(d);
}

/* Closed bank, open-row conflict, row hit. */
static void test_row_timing(void **state)
{
    (void)state;
    dram_cfg c = gddr5(DRAM_FRFCFS);
    dram *d = dram_create(&c, NULL, 0);
    dram_req a = mk(0, 1, 0), b = mk(0, 2, 0), h = mk(0, 2, 0), *o[4];
    /* bank closed: ACT at 0, RD at tRCD = 12, data 24..28: done tRCD + tCL + B = 28 */
    dram_push(d, &a, 0, 0);
    assert_int_equal(run(d, 0, 1000, 1, o, 4), 1);
    assert_int_equal(a.t_issue, 12);
    assert_int_equal(a.t_done, 28);
    assert_int_equal(a.act, 1);
    /* row 1 stays open; row 2 at cycle 100: PRE at 100 (tRAS from ACT 0 and the read
     * burst long past), ACT at 112 (tRP), RD at 124, done 100 + tRP + tRCD + tCL + B = 140 */
    dram_push(d, &b, 100, 100);
    assert_int_equal(run(d, 100, 1000, 1, o, 4), 1);
    assert_int_equal(b.t_done, 100 + 12 + 12 + 12 + 4);
    /* row 2 open: a row hit at 200 completes tCL + B later */
    dram_push(d, &h, 200, 200);
    assert_int_equal(run(d, 200, 1000, 1, o, 4), 1);
    assert_int_equal(h.t_issue, 200);
    assert_int_equal(h.t_done, 200 + 12 + 4);
    const dram_stats *s = dram_get_stats(d);
    assert_int_equal(s->reads, 3);
    assert_int_equal(s->row_hits, 1);
    assert_int_equal(s->acts, 2);
    assert_int_equal(s->pres, 1);
    assert_int_equal(s->busy, 12);            /* 3 x 4 data cycles */
    assert_int_equal(s->q_lat_sum, 12 + 24 + 0);   /* arrival to RD */
    dram_destroy(d);
}

/* Queue A(row 1) B(row 2) C(row 1) D(row 2), all bank 0, all at cycle 0.
 * FR-FCFS: ACT row 1 at 0 (for A); A RD 12 (done 28); C is a row hit: RD at
 *   max(12 + max(tCCD, B) = 16, bus free 28 - tCL = 16) = 16 (done 32); then PRE at
 *   max(ACT + tRAS = 28, C's RD + B = 20) = 28; ACT row 2 at max(28 + tRP, 0 + tRC) = 40;
 *   B RD 52 (done 68); D RD 56 (done 72). Order A C B D, 2 row hits, 2 ACTs.
 * FIFO: A as above (28); B: PRE 28, ACT 40, RD 52 (68); C: PRE at max(40 + tRAS = 68,
 *   52 + 4) = 68, ACT at max(68 + 12, 40 + tRC) = 80, RD 92 (108); D: PRE 108, ACT 120,
 *   RD 132 (148). Order A B C D, no row hits, 4 ACTs. */
static void sched_case(int sched, int step)
{
    dram_cfg c = gddr5(sched);
    dram *d = dram_create(&c, NULL, 0);
    dram_req r[4] = {mk(0, 1, 0), mk(0, 2, 0), mk(0, 1, 0), mk(0, 2, 0)}, *o[4];
    for (int i = 0; i < 4; i++)
        dram_push(d, &r[i], 0, 0);
    assert_int_equal(run(d, 0, 10000, step, o, 4), 4);
    if (sched == DRAM_FRFCFS) {
        dram_req *want[4] = {&r[0], &r[2], &r[1], &r[3]};
        uint64_t done[4] = {28, 32, 68, 72};
        for (int i = 0; i < 4; i++) {
            assert_ptr_equal(o[i], want[i]);
            assert_int_equal(o[i]->t_done, done[i]);
        }
        assert_int_equal(dram_get_stats(d)->row_hits, 2);
        assert_int_equal(dram_get_stats(d)->acts, 2);
    } else {
        uint64_t done[4] = {28, 68, 108, 148};
        for (int i = 0; i < 4; i++) {
            assert_ptr_equal(o[i], &r[i]);
            assert_int_equal(o[i]->t_done, done[i]);
        }
        assert_int_equal(dram_get_stats(d)->row_hits, 0);
        assert_int_equal(dram_get_stats(d)->acts, 4);
    }
    dram_destroy(d);
}

static void test_frfcfs_order(void **state)
{
    (void)state;
    sched_case(DRAM_FRFCFS, 1);
}

static void test_fifo_order(void **state)
{
    (void)state;
    sched_case(DRAM_FIFO, 1);
}

/* Jumping from event to event with dram_next gives the same schedule. */
static void test_next_event_exact(void **state)
{
    (void)state;
    sched_case(DRAM_FRFCFS, 0);
    sched_case(DRAM_FIFO, 0);
    /* a larger random mix: every-cycle and jumping runs agree request by request; mix 1
     * adds bank groups, multi-command (sector) requests and refresh */
    for (int sched = 0; sched < 4; sched++) {
        int mix = sched >> 1;
        dram_cfg c = gddr5(sched & 1);
        c.queue = 64;
        if (mix) {
            c.bank_groups = 2;
            c.tCCDL = 3;
            c.tREFI = 300;
            c.tRFC = 40;
        }
        dram *d1 = dram_create(&c, NULL, 0), *d2 = dram_create(&c, NULL, 0);
        dram_req a[48], b[48], *o1[48], *o2[48];
        uint64_t x = 99;
        for (int i = 0; i < 48; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            a[i] = mk((uint32_t)(x >> 40) % 4, (uint32_t)(x >> 50) % 3, (x >> 20) % 4 == 0);
            a[i].bytes = (x >> 30) % 2 ? 128 : 32;
            if (mix && a[i].bytes == 128)
                a[i].cmds = (uint8_t)(1 + (x >> 33) % 4);
            b[i] = a[i];
            dram_push(d1, &a[i], 0, (uint64_t)i * 3);
            dram_push(d2, &b[i], 0, (uint64_t)i * 3);
        }
        assert_int_equal(run(d1, 0, 100000, 1, o1, 48), 48);
        assert_int_equal(run(d2, 0, 100000, 0, o2, 48), 48);
        for (int i = 0; i < 48; i++) {
            assert_int_equal(o1[i] - a, o2[i] - b);
            assert_int_equal(o1[i]->t_done, o2[i]->t_done);
        }
        assert_memory_equal(dram_get_stats(d1), dram_get_stats(d2), sizeof(dram_stats));
        dram_destroy(d1);
        dram_destroy(d2);
    }
}

/* Write then read of the same row: WR at tRCD = 12, data 16..20; the read waits tWTR
 * after the write data: RD at 25, done 25 + 12 + 4 = 41. Read then write: RD at 12
 * (data 24..28); the write data may start tRTW after: 30, so WR at 30 - tWL = 26
 * (data 30..34). */
static void test_turnaround(void **state)
{
    (void)state;
    dram_cfg c = gddr5(DRAM_FRFCFS);
    dram *d = dram_create(&c, NULL, 0);
    dram_req w = mk(0, 1, 1), r = mk(0, 1, 0), *o[2];
    dram_push(d, &w, 0, 0);
    dram_push(d, &r, 0, 0);
    assert_int_equal(run(d, 0, 1000, 1, o, 2), 2);
    assert_int_equal(w.t_issue, 12);
    assert_int_equal(w.t_done, 20);
    assert_int_equal(r.t_issue, 25);
    assert_int_equal(r.t_done, 41);
    dram_destroy(d);
    d = dram_create(&c, NULL, 0);
    r = mk(1, 1, 0);
    w = mk(1, 1, 1);
    dram_push(d, &r, 0, 0);
    dram_push(d, &w, 0, 0);
    assert_int_equal(run(d, 0, 1000, 1, o, 2), 2);
    assert_int_equal(r.t_done, 28);
    assert_int_equal(w.t_issue, 26);
    assert_int_equal(w.t_done, 34);
    assert_int_equal(dram_get_stats(d)->writes, 1);
    assert_int_equal(dram_get_stats(d)->row_hits, 1);   /* the write found row 1 open */
    dram_destroy(d);
}

/* Two banks: their ACTs are tRRD apart. A (bank 0) ACT 0, RD 12, done 28; B (bank 1)
 * ACT at 6, RD at max(18, 12 + 4 = 16, bus 28 - 12 = 16) = 18, done 34. */
static void test_bank_parallelism(void **state)
{
    (void)state;
    dram_cfg c = gddr5(DRAM_FRFCFS);
    dram *d = dram_create(&c, NULL, 0);
    dram_req a = mk(0, 1, 0), b = mk(1, 7, 0), *o[2];
    dram_push(d, &a, 0, 0);
    dram_push(d, &b, 0, 0);
    assert_int_equal(run(d, 0, 1000, 1, o, 2), 2);
    assert_int_equal(a.t_done, 28);
    assert_int_equal(b.t_issue, 18);
    assert_int_equal(b.t_done, 34);
    dram_destroy(d);
}

/* Refresh every 100 cycles for 20: at 100 every bank is closed, so REF issues at 100
 * and no ACT may come before 120. A read arriving at 105 is ACT 120, RD 132, done 148. */
static void test_refresh(void **state)
{
    (void)state;
    dram_cfg c = gddr5(DRAM_FRFCFS);
    c.tREFI = 100;
    c.tRFC = 20;
    dram *d = dram_create(&c, NULL, 0);
    for (uint64_t t = 0; t < 105; t = dram_next(d, t))
        dram_cycle(d, t);
    assert_int_equal(dram_get_stats(d)->refreshes, 1);
    dram_req r = mk(2, 3, 0), *o[1];
    dram_push(d, &r, 105, 105);
    assert_int_equal(run(d, 105, 1000, 1, o, 1), 1);
    assert_int_equal(r.t_done, 148);
    dram_destroy(d);
}

static void test_queue_full_and_names(void **state)
{
    (void)state;
    dram_cfg c = gddr5(DRAM_FRFCFS);
    c.queue = 2;
    dram *d = dram_create(&c, NULL, 0);
    dram_req r[2] = {mk(0, 0, 0), mk(0, 0, 0)};
    assert_true(dram_can_push(d));
    assert_int_equal(dram_room(d), 2);
    dram_push(d, &r[0], 0, 0);
    assert_int_equal(dram_room(d), 1);
    dram_push(d, &r[1], 0, 0);
    assert_false(dram_can_push(d));
    assert_int_equal(dram_room(d), 0);
    assert_int_equal(dram_next(d, 5), 6);   /* the ACT is legal now: next cycle */
    dram_destroy(d);
    assert_int_equal(dram_sched_find("frfcfs"), DRAM_FRFCFS);
    assert_int_equal(dram_sched_find("fifo"), DRAM_FIFO);
    assert_int_equal(dram_sched_find("random"), -1);
    c.burst_len = 6;   /* not a multiple of 4 beats per clock */
    char err[128] = "";
    assert_null(dram_create(&c, err, sizeof err));
    assert_true(strlen(err) > 0);
}

/* A request of 4 column commands (a sectored L2's 4 missing sectors of 32 bytes, each a
 * whole BL8 burst: Bc = 2 cycles) then a plain 128-byte row hit, both bank 0 row 1 at 0.
 * Each column command is scheduled on its own, but the 4-command request a stays its
 * bank's first read hit until its last command, so b (same bank, younger) cannot pass it:
 * tCCD 2: ACT 0; a's commands at 12, 14, 16, 18 (tCCD 2 = Bc: each when the previous
 *   burst leaves the bus), data 24 .. 18 + 12 + 2 = 32, t_issue its first, 12; b's
 *   command at 18 + 2 = 20 (bus free 32 - tCL = 20): data 32 .. 36.
 * tCCD 3: a's commands at 12, 15, 18, 21: done 21 + 12 + 2 = 35; b at 21 + 3 = 24 (bus
 *   free 35 - 12 = 23): data 36 .. 40.
 * (The same as one back-to-back burst of 4: alone, nothing changes.) After a's first
 * command both are still queued; a counts in the stats at its last. Data-bus busy
 * 4 x 2 + 4. */
static void test_sector_cmds(void **state)
{
    (void)state;
    for (int step = 0; step < 2; step++)
        for (uint32_t ccd = 2; ccd <= 3; ccd++) {
            dram_cfg c = gddr5(DRAM_FRFCFS);
            c.tCCD = ccd;
            dram *d = dram_create(&c, NULL, 0);
            assert_int_equal(dram_req_cycles(d, 128, 1), 4);
            assert_int_equal(dram_req_cycles(d, 128, 4), ccd == 2 ? 8 : 11);
            assert_int_equal(dram_req_cycles(d, 96, 3), ccd == 2 ? 6 : 8);
            dram_req a = mk(0, 1, 0), b = mk(0, 1, 0), *o[2];
            a.cmds = 4;
            dram_push(d, &a, 0, 0);
            dram_push(d, &b, 0, 0);
            assert_int_equal(run(d, 0, 12, step, o, 2), 0);
            assert_int_equal(dram_queued(d), 2);
            assert_int_equal(dram_get_stats(d)->reads, 0);
            assert_int_equal(run(d, step ? 13 : dram_next(d, 12), 1000, step, o, 2), 2);
            assert_ptr_equal(o[0], &a);
            assert_int_equal(a.t_issue, 12);
            assert_int_equal(a.t_done, ccd == 2 ? 32 : 35);
            assert_int_equal(b.t_issue, ccd == 2 ? 20 : 24);
            assert_int_equal(b.t_done, ccd == 2 ? 36 : 40);
            assert_int_equal(dram_get_stats(d)->busy, 4 * 2 + 4);
            dram_destroy(d);
        }
}

/* Bank groups (GDDR5): column commands to one group tCCDL 3 apart, to any bank tCCD 2.
 * Two banks' row 1 opened first (done by cycle 40); at 100 four 32-byte reads (one BL8
 * burst, Bc 2: bus free 2 cycles after each), x1, x2 to bank 0 and y1, y2 to bank kb, in
 * that order; FR-FCFS issues the oldest hit that may go. Data done = RD + tCL + 2.
 *  2 groups, kb = 1 (other group): x1 100; at 102 x2 waits for its group (103), y1 goes;
 *    x2 104 (group 0 free 103, tCCD 104), y2 106 (group 1 free 105): done 114, 116, 118,
 *    120 in the order x1 y1 x2 y2.
 *  2 groups, kb = 2 (bank 2 is in group 0 too): every command 3 after the previous:
 *    x1 100, x2 103, y1 106, y2 109: done 114, 117, 120, 123.
 *  1 group (tCCDL ignored): 2 apart, in age order: done 114, 116, 118, 120. */
static void test_bank_groups(void **state)
{
    (void)state;
    static const struct { uint32_t groups, kb, done[4]; int order[4]; } cs[] = {
        {2, 1, {114, 118, 116, 120}, {0, 2, 1, 3}},
        {2, 2, {114, 117, 120, 123}, {0, 1, 2, 3}},
        {1, 1, {114, 116, 118, 120}, {0, 1, 2, 3}},
    };
    for (int step = 0; step < 2; step++)
        for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
            dram_cfg c = gddr5(DRAM_FRFCFS);
            c.bank_groups = cs[i].groups;
            c.tCCDL = 3;
            dram *d = dram_create(&c, NULL, 0);
            assert_non_null(d);
            dram_req w0 = mk(0, 1, 0), w1 = mk(cs[i].kb, 1, 0), *o[4];
            dram_push(d, &w0, 0, 0);
            dram_push(d, &w1, 0, 0);
            assert_int_equal(run(d, 0, 99, step, o, 4), 2);
            dram_req q[4] = {mk(0, 1, 0), mk(0, 1, 0), mk(cs[i].kb, 1, 0), mk(cs[i].kb, 1, 0)};
            for (int k = 0; k < 4; k++) {
                q[k].bytes = 32;
                dram_push(d, &q[k], 100, 100);
            }
            assert_int_equal(run(d, 100, 1000, step, o, 4), 4);
            for (int k = 0; k < 4; k++) {
                assert_int_equal(q[k].t_done, cs[i].done[k]);
                assert_ptr_equal(o[k], &q[cs[i].order[k]]);
            }
            assert_int_equal(dram_req_cycles(d, 128, 4), cs[i].groups > 1 ? 11 : 8);
            dram_destroy(d);
        }
    /* groups must be a power of two dividing the banks */
    dram_cfg c = gddr5(DRAM_FRFCFS);
    c.bank_groups = 3;
    assert_null(dram_create(&c, NULL, 0));
    c.bank_groups = 8;   /* 4 banks */
    assert_null(dram_create(&c, NULL, 0));
}

/* Two 4-sector requests (128 bytes as 4 column commands of 32: Bc 2) x to bank 0 and y
 * to bank kb, both rows opened first as in test_bank_groups, pushed at 100 in that order;
 * tCCD 2, tCCDL 3. Each command: group busy 3, any bank 2, bus free Bc = 2 later.
 *  FR-FCFS, 2 groups, kb = 1 (other group): the commands interleave, the bus never idles:
 *    100 x1; 102 x waits for group 0 (103): y1; 104 x2; 106 y2 (x: group 0 at 107);
 *    108 x3; 110 y3; 112 x4; 114 y4: x done 112 + 12 + 2 = 126, y 128; t_issue 100, 102.
 *    (Issued back to back per request, x would take 100..109, done 123, and y 111..120,
 *    done 134.)
 *  FR-FCFS, 2 groups, kb = 2 (group 0 too): y can never go while x has commands left
 *    (x is older and its group ready as soon as y's would be): x 100, 103, 106, 109, done
 *    123; y 112, 115, 118, 121, done 135; t_issue 100, 112.
 *  FR-FCFS, 1 group: every command 2 apart, x first: x 100 .. 106, done 120; y 108 .. 114,
 *    done 128; t_issue 100, 108.
 *  FIFO, 2 groups, kb = 1: only the oldest request may go, so x issues all of its commands
 *    first, 3 apart: x 100, 103, 106, 109, done 123; y 111 (tCCD after 109; group 1 free),
 *    114, 117, 120, done 134; t_issue 100, 111. */
static void test_sector_interleave(void **state)
{
    (void)state;
    static const struct { int sched; uint32_t groups, kb, issue[2], done[2]; } cs[] = {
        {DRAM_FRFCFS, 2, 1, {100, 102}, {126, 128}},
        {DRAM_FRFCFS, 2, 2, {100, 112}, {123, 135}},
        {DRAM_FRFCFS, 1, 1, {100, 108}, {120, 128}},
        {DRAM_FIFO, 2, 1, {100, 111}, {123, 134}},
    };
    for (int step = 0; step < 2; step++)
        for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
            dram_cfg c = gddr5(cs[i].sched);
            c.bank_groups = cs[i].groups;
            c.tCCDL = 3;
            dram *d = dram_create(&c, NULL, 0);
            assert_non_null(d);
            dram_req w0 = mk(0, 1, 0), w1 = mk(cs[i].kb, 1, 0), *o[2];
            dram_push(d, &w0, 0, 0);
            dram_push(d, &w1, 0, 0);
            assert_int_equal(run(d, 0, 99, step, o, 2), 2);
            const dram_stats *st = dram_get_stats(d);
            uint64_t busy0 = st->busy;
            dram_req q[2] = {mk(0, 1, 0), mk(cs[i].kb, 1, 0)};
            for (int k = 0; k < 2; k++) {
                q[k].cmds = 4;
                dram_push(d, &q[k], 100, 100);
            }
            assert_int_equal(run(d, 100, 1000, step, o, 2), 2);
            for (int k = 0; k < 2; k++) {
                assert_int_equal(q[k].t_issue, cs[i].issue[k]);
                assert_int_equal(q[k].t_done, cs[i].done[k]);
            }
            assert_ptr_equal(o[0], &q[0]);
            assert_ptr_equal(o[1], &q[1]);
            assert_int_equal(st->reads, 4);
            assert_int_equal(st->row_hits, 2);
            assert_int_equal(st->busy - busy0, 2 * 4 * 2);
            dram_destroy(d);
        }
}

/* FR-FCFS takes the oldest ready hit by arrival, whatever order the hits became
 * candidates in (dram.c keeps them in a list by seq: an ACT's hits go before younger
 * ones). z (bank 0, row 1) at 0 opens bank 0: ACT 0, RD 12, done 28. At 100, in this
 * order: q (bank 2, row 1, ready 100), o (bank 1, row 1, ready 100), y (bank 0, row 1,
 * ready 118): y is a hit at once, the candidates are [y]. 100: y not ready; ACT q (the
 * oldest row command): [q y]. 106 (tRRD): ACT o: [q o y] (o before y, though after it
 * in time). 112: q's RD (tRCD), data 124..128, the next column command from 116. 118: o
 * (tRCD from 106) and y (its ready cycle) both ready: o, the older, goes: data 130..134;
 * y at 122 (tCCD, burst 4): data 134..138. (Candidates in the order they came, y would
 * go at 118 and o at 122.) */
static void test_hit_age_order(void **state)
{
    (void)state;
    for (int step = 0; step < 2; step++)
        for (int scan = 0; scan < 2; scan++) {
            dram_cfg c = gddr5(DRAM_FRFCFS);
            c.scan_always = scan;
            dram *d = dram_create(&c, NULL, 0);
            dram_req z = mk(0, 1, 0), q = mk(2, 1, 0), o = mk(1, 1, 0), y = mk(0, 1, 0), *r[3];
            dram_push(d, &z, 0, 0);
            assert_int_equal(run(d, 0, 99, step, r, 1), 1);
            assert_int_equal(z.t_done, 28);
            dram_push(d, &q, 100, 100);
            dram_push(d, &o, 100, 100);
            dram_push(d, &y, 100, 118);
            assert_int_equal(run(d, 100, 1000, step, r, 3), 3);
            assert_int_equal(q.t_issue, 112);
            assert_int_equal(q.t_done, 128);
            assert_int_equal(o.t_issue, 118);
            assert_int_equal(o.t_done, 134);
            assert_int_equal(y.t_issue, 122);
            assert_int_equal(y.t_done, 138);
            assert_ptr_equal(r[0], &q);
            assert_ptr_equal(r[1], &o);
            assert_ptr_equal(r[2], &y);
            assert_int_equal(dram_get_stats(d)->row_hits, 1);
            dram_destroy(d);
        }
}

/* dram_next after a cycle that issued nothing is the next command's cycle (FR-FCFS: the
 * scan's bound, t_wait), and a push lowers it to the new request's own command.
 * FR-FCFS: A (bank 0 row 1) at 0: ACT 0; at 1 nothing can go: next = A's RD at tRCD 12.
 *   B (bank 1 row 1) pushed at 2, ready 2: its ACT waits tRRD: next 6. ACT B at 6; A RD
 *   12 (done 28); B RD at its tRCD, 18 (bus free 28 - tCL = 16 before): done 34.
 * FIFO: only the oldest request may go: after ACT A at 0 the next command is A's RD at
 *   12 (B's ACT, possible from 6, waits for A): ACT B 13, RD 25, done 41. Its bound is
 *   the earliest bank head's command all the same (B's ACT, 6: a lower bound). */
static void test_next_bound(void **state)
{
    (void)state;
    for (int sched = 0; sched < 2; sched++) {
        dram_cfg c = gddr5(sched);
        dram *d = dram_create(&c, NULL, 0);
        dram_req a = mk(0, 1, 0), b = mk(1, 1, 0), *o[2];
        dram_push(d, &a, 0, 0);
        assert_int_equal(dram_next(d, 0), 1);     /* the bank's ACT, at 0 */
        assert_int_equal(dram_cycle(d, 0), 1);    /* ACT A */
        assert_int_equal(dram_cycle(d, 1), 0);
        assert_int_equal(dram_next(d, 1), 12);
        dram_push(d, &b, 2, 2);
        assert_int_equal(dram_next(d, 2), 6);
        assert_int_equal(dram_cycle(d, 5), 0);    /* before the bound: nothing */
        uint64_t t = 6;
        assert_int_equal(run(d, t, 1000, 0, o, 2), 2);
        assert_ptr_equal(o[0], &a);
        assert_int_equal(a.t_issue, 12);
        assert_int_equal(a.t_done, 28);
        assert_int_equal(b.t_issue, sched == DRAM_FRFCFS ? 18 : 25);
        assert_int_equal(b.t_done, sched == DRAM_FRFCFS ? 34 : 41);
        dram_destroy(d);
    }
}

/* Requests arriving while the channel runs (as the memory system pushes them): jumping
 * from event to event as detailed.c does (after a command the next cycle, else
 * dram_next, lowered to a push's ready cycle) and ticking every cycle give the same
 * command timing, request by request, and the same statistics as the reference that
 * ticks every cycle and scans the queue at every call (scan_always: no t_wait): FR-FCFS
 * and FIFO, each plain and with 4 bank groups (tCCDL 3), multi-command (sector) requests
 * and refresh. */
static void pushes_run(const dram_cfg *c, int step, dram_req *q, int n, uint64_t seed,
                       uint64_t *pop_at, dram_stats *st)
{
    dram *d = dram_create(c, NULL, 0);
    uint64_t x = seed, t_push = 0, ready_min = 0, next = 0;
    int ip = 0, np = 0;
    for (uint64_t k = 0; np < n && k < 1000000;) {
        int blocked = 0;
        while (ip < n && t_push <= k) {
            if (!dram_can_push(d)) {
                blocked = 1;
                break;
            }
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t ready = k + (x >> 59);
            ready_min = ready = ready > ready_min ? ready : ready_min;
            dram_push(d, &q[ip++], k, ready);
            if (ready < next)
                next = ready;
            t_push += (x >> 40) % 11 == 0 ? 40 : (x >> 45) % 4 * 5;
        }
        if (step || next <= k) {
            int cmd = dram_cycle(d, k);
            dram_req *r;
            while ((r = dram_pop(d, k)) != NULL)
                pop_at[r - q] = k, np++;
            next = cmd ? k + 1 : dram_next(d, k);
        }
        uint64_t nk = k + 1;
        if (!step && !blocked) {
            nk = ip < n && t_push < next ? t_push : next;
            nk = nk > k ? nk : k + 1;
        }
        k = nk;
    }
    assert_int_equal(np, n);
    *st = *dram_get_stats(d);
    dram_destroy(d);
}

static void test_next_event_pushes(void **state)
{
    (void)state;
    enum { N = 300 };
    static dram_req q[3][N];
    for (int cs = 0; cs < 4; cs++) {
        dram_cfg c = gddr5(cs & 1);
        c.banks = 16;
        c.queue = 16;
        if (cs >> 1) {
            c.bank_groups = 4;
            c.tCCDL = 3;
            c.tREFI = 700;
            c.tRFC = 40;
        }
        uint64_t x = 5 + (uint64_t)cs, pop_at[3][N];
        dram_stats st[3];
        for (int i = 0; i < N; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            q[0][i] = mk((uint32_t)(x >> 40) % 16, (uint32_t)(x >> 50) % 4, (x >> 20) % 4 == 0);
            q[0][i].bytes = (x >> 30) % 2 ? 128 : 32;
            if ((cs >> 1) && q[0][i].bytes == 128)
                q[0][i].cmds = (uint8_t)(1 + (x >> 33) % 4);
            q[1][i] = q[2][i] = q[0][i];
        }
        /* 0: the reference, 1: every cycle, 2: event to event */
        for (int m = 0; m < 3; m++) {
            c.scan_always = !m;
            pushes_run(&c, m < 2, q[m], N, 77, pop_at[m], &st[m]);
        }
        for (int m = 1; m < 3; m++) {
            for (int i = 0; i < N; i++) {
                assert_int_equal(q[0][i].t_issue, q[m][i].t_issue);
                assert_int_equal(q[0][i].t_done, q[m][i].t_done);
                assert_int_equal(pop_at[0][i], pop_at[m][i]);
            }
            assert_memory_equal(&st[0], &st[m], sizeof st[0]);
        }
        assert_int_equal(st[0].reads + st[0].writes, N);
        if (cs >> 1)
            assert_true(st[0].refreshes > 0);
    }
}

/* The inline bounds (dram_pub): quiet, t_pop and room, worked by hand (FR-FCFS, no refresh).
 * a (bank 0, row 1) at 0: ACT at 0 (tRCD: RD at 12, tRRD: next ACT at 6), so nothing can
 * issue before 12: quiet 12. b (bank 1, closed) pushed at 3, ready 5: its ACT waits for
 * max(5, tRRD 6) = 6: quiet 6. At 6 b's ACT (its RD at 18, a's at 12): quiet 12. At 12 a's
 * RD (data 24..28: t_pop 28), then the bound after a command (16, below), and b's RD at
 * 18: quiet 18. At 18 b's RD (data
 * 30..34), nothing queued: quiet = t_pop = 28; pops at 28 and 34, then idle (UINT64_MAX). */
static void test_quiet_bound(void **state)
{
    (void)state;
    dram_cfg c = gddr5(DRAM_FRFCFS);
    c.queue = 2;
    dram *d = dram_create(&c, NULL, 0);
    dram_req a = mk(0, 1, 0), b = mk(1, 1, 0);
    assert_true(dram_quiet(d) == UINT64_MAX);
    assert_true(dram_pop_at(d) == UINT64_MAX);
    assert_int_equal(dram_can_push(d), 1);
    dram_push(d, &a, 0, 0);
    assert_int_equal(dram_quiet(d), 0);           /* its ACT may go at once */
    assert_int_equal(dram_cycle(d, 0), 1);        /* ACT */
    assert_int_equal(dram_quiet(d), 12);
    assert_int_equal(dram_next(d, 0), 12);
    assert_int_equal(dram_cycle(d, 5), 0);        /* before quiet: nothing */
    assert_null(dram_pop(d, 5));
    dram_push(d, &b, 3, 5);
    assert_int_equal(dram_quiet(d), 6);
    assert_int_equal(dram_can_push(d), 0);        /* 2 queued, queue 2 */
    assert_int_equal(dram_cycle(d, 6), 1);        /* b's ACT */
    assert_int_equal(dram_quiet(d), 12);
    assert_int_equal(dram_cycle(d, 12), 1);       /* a's RD: leaves the queue */
    assert_int_equal(a.t_done, 28);
    assert_int_equal(dram_pop_at(d), 28);
    assert_int_equal(dram_can_push(d), 1);
    assert_int_equal(dram_room(d), 1);
    /* after a command the cheap bound: the channel's column terms, 12 + max(tCCD, B) = 16
     * (and the data bus, free at 28 - tCL = 16); at 16 the scan finds b's RD at 18 */
    assert_int_equal(dram_quiet(d), 16);
    assert_int_equal(dram_cycle(d, 16), 0);
    assert_int_equal(dram_quiet(d), 18);
    assert_int_equal(dram_cycle(d, 18), 1);       /* b's RD */
    assert_int_equal(b.t_done, 34);
    assert_int_equal(dram_quiet(d), 28);          /* nothing queued: the first completion */
    assert_int_equal(dram_next(d, 18), 28);
    assert_ptr_equal(dram_pop(d, 28), &a);
    assert_int_equal(dram_pop_at(d), 34);
    assert_int_equal(dram_quiet(d), 34);
    assert_ptr_equal(dram_pop(d, 34), &b);
    assert_true(dram_quiet(d) == UINT64_MAX);
    assert_true(dram_pop_at(d) == UINT64_MAX);
    dram_destroy(d);
    /* FIFO keeps no t_wait: quiet 0 (ask every cycle) while requests are queued */
    c = gddr5(DRAM_FIFO);
    d = dram_create(&c, NULL, 0);
    a = mk(0, 1, 0);
    dram_push(d, &a, 0, 0);
    assert_int_equal(dram_cycle(d, 0), 1);
    assert_int_equal(dram_quiet(d), 0);
    dram_destroy(d);
}

/* The bounds a call leaves (dram_quiet, dram_next) are published: the memory system
 * derives the SMs' wake-ups from them, so they must not change with the way the channel
 * finds them (a tighter bound moves the retries of refused accesses: other statistics).
 * Worked by hand (FR-FCFS, no refresh): a, b, c (banks 0, 1, 2, row 1, closed) pushed
 * at 0. 0: ACT a (its RD from tRCD = 12); the bound after a row command is the others'
 * earliest, b's and c's ACT at 0 (tRRD not counted): quiet 1. 1: a's RD not before 12
 * (the hit scan is skipped: its last result still holds), the ACTs wait for tRRD: 6.
 * 6: ACT b (RD from 18), c's ACT at 0 again: 7. 7: tRRD, 12. 12: a's RD (data 24..28),
 * then c's ACT: 13. 13: ACT c (RD from 25); the hits wait for the channel's terms, gmin
 * 16 (tCCD; the data bus): 16. 16: b's RD not before 18: 18. 18: b's RD (data 30..34),
 * gmin 22: 22. 22: c's RD not before 25: 25. 25: c's RD (data 37..41); nothing queued:
 * quiet = t_pop = 28. */
static void test_wait_bounds(void **state)
{
    (void)state;
    static const struct { uint64_t now; int cmd; uint64_t quiet; } st[] = {
        {0, 1, 1},   {1, 0, 6},   {6, 1, 7},   {7, 0, 12},  {12, 1, 13},
        {13, 1, 16}, {16, 0, 18}, {18, 1, 22}, {22, 0, 25}, {25, 1, 28},
    };
    dram_cfg c = gddr5(DRAM_FRFCFS);
    dram *d = dram_create(&c, NULL, 0);
    dram_req q[3] = {mk(0, 1, 0), mk(1, 1, 0), mk(2, 1, 0)};
    for (int i = 0; i < 3; i++)
        dram_push(d, &q[i], 0, 0);
    assert_int_equal(dram_quiet(d), 0);
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) {
        assert_int_equal(dram_cycle(d, st[i].now), st[i].cmd);
        assert_int_equal(dram_quiet(d), st[i].quiet);
        assert_int_equal(dram_next(d, st[i].now), st[i].quiet);
    }
    for (int i = 0; i < 3; i++)
        assert_int_equal(q[i].act, 1);
    assert_int_equal(q[0].t_issue, 12);
    assert_int_equal(q[1].t_issue, 18);
    assert_int_equal(q[2].t_issue, 25);
    assert_int_equal(q[0].t_done, 28);
    assert_int_equal(q[1].t_done, 34);
    assert_int_equal(q[2].t_done, 41);
    dram_destroy(d);
}

/* Row commands go to the oldest candidate bank whatever the bank numbers, and a bank
 * whose hits ended rejoins the candidates in its next request's age order (dram.c keeps
 * them oldest first). Worked by hand (FR-FCFS, no refresh): a, b, c, d to banks 3, 2, 1,
 * 0 (row 1, all closed) and e to bank 3 row 2, pushed at 0 in that order. ACTs one tRRD
 * (6) apart, oldest first, a row hit before a row command: ACT a 0, ACT b 6, RD a 12
 * (tRCD), ACT c 13, RD b 18, ACT d 19, RD c 25, RD d 31; bank 3, its hit a done at 12,
 * waits with e, the youngest: PRE at tRAS 28, ACT at tRC 40 (= PRE + tRP), RD at 52.
 * Data tCL + 4 after each RD. Stepped every cycle and jumping with dram_next. */
static void test_row_age_order(void **state)
{
    (void)state;
    static const uint64_t issue[5] = {12, 18, 25, 31, 52}, done[5] = {28, 34, 41, 47, 68};
    for (int step = 0; step < 2; step++) {
        dram_cfg c = gddr5(DRAM_FRFCFS);
        dram *d = dram_create(&c, NULL, 0);
        dram_req q[5] = {mk(3, 1, 0), mk(2, 1, 0), mk(1, 1, 0), mk(0, 1, 0), mk(3, 2, 0)}, *o[5];
        for (int i = 0; i < 5; i++)
            dram_push(d, &q[i], 0, 0);
        assert_int_equal(run(d, 0, 1000, step, o, 5), 5);
        for (int i = 0; i < 5; i++) {
            assert_ptr_equal(o[i], &q[i]);
            assert_int_equal(q[i].t_issue, issue[i]);
            assert_int_equal(q[i].t_done, done[i]);
        }
        assert_int_equal(dram_get_stats(d)->acts, 5);
        assert_int_equal(dram_get_stats(d)->pres, 1);
        dram_destroy(d);
    }
}

/* Requests of different sizes back to back on one open row (issue_col keeps a command's
 * burst terms for the last size it saw: each size must get its own). Bank 0, all pushed
 * at 0: a (128 B, B = 4), c (32 B, one BL8 burst, B = 2), e (128 B) to row 1. ACT at 0;
 * a's RD at tRCD = 12, data 24..28 (done 28), the next column command no sooner than
 * 12 + max(tCCD, 4) = 16, whose data at 16 + tCL = 28 finds the bus free; c's RD at 16,
 * data 28..30 (done 30; a stale B = 4 would give 32), the next no sooner than 16 +
 * max(tCCD, 2) = 18; e's RD at 18, data 30..34 (done 34; a stale B = 2 would give 32, and
 * after a stale 4 for c, 20 and 36). Stepped every cycle and jumping with dram_next. */
static void test_mixed_sizes(void **state)
{
    (void)state;
    for (int step = 0; step < 2; step++) {
        dram_cfg c = gddr5(DRAM_FRFCFS);
        dram *d = dram_create(&c, NULL, 0);
        dram_req a = mk(0, 1, 0), b = mk(0, 1, 0), e = mk(0, 1, 0), *o[3];
        b.bytes = 32;
        dram_push(d, &a, 0, 0);
        dram_push(d, &b, 0, 0);
        dram_push(d, &e, 0, 0);
        assert_int_equal(run(d, 0, 1000, step, o, 3), 3);
        assert_ptr_equal(o[0], &a);
        assert_ptr_equal(o[1], &b);
        assert_ptr_equal(o[2], &e);
        assert_int_equal(a.t_issue, 12);
        assert_int_equal(a.t_done, 28);
        assert_int_equal(b.t_issue, 16);
        assert_int_equal(b.t_done, 30);
        assert_int_equal(e.t_issue, 18);
        assert_int_equal(e.t_done, 34);
        assert_int_equal(dram_get_stats(d)->busy, 4 + 2 + 4);
        dram_destroy(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_burst_cycles),
        cmocka_unit_test(test_row_timing),
        cmocka_unit_test(test_sector_cmds),
        cmocka_unit_test(test_frfcfs_order),
        cmocka_unit_test(test_fifo_order),
        cmocka_unit_test(test_next_event_exact),
        cmocka_unit_test(test_next_bound),
        cmocka_unit_test(test_next_event_pushes),
        cmocka_unit_test(test_turnaround),
        cmocka_unit_test(test_bank_parallelism),
        cmocka_unit_test(test_refresh),
        cmocka_unit_test(test_bank_groups),
        cmocka_unit_test(test_sector_interleave),
        cmocka_unit_test(test_hit_age_order),
        cmocka_unit_test(test_queue_full_and_names),
        cmocka_unit_test(test_quiet_bound),
        cmocka_unit_test(test_wait_bounds),
        cmocka_unit_test(test_mixed_sizes),
        cmocka_unit_test(test_row_age_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
