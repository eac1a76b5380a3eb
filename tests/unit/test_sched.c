/* test_sched.c - warp scheduling policies (src/core/sched*.c, docs/SCHEDULERS.md).
 *
 * Each test drives one policy as the SM does: on_warp_start for the warps it is
 * given, then per cycle a candidate list in slot order, pick(), and on_issue for
 * the warp picked. Candidate lists are written as patterns, one character per
 * position (position p is slot base + p * stride):
 *   R ready, compute          M ready, global memory (is_mem, is_long)
 *   m ready, shared memory    w ready, compute, loads outstanding (waiting_mem)
 *   S scoreboard              W scoreboard, loads outstanding
 *   Q scoreboard, global memory instruction
 *   X global memory instruction, LD/ST pipeline stalled (WR_MEM_STALL)
 *   B barrier   I ibuf empty   U unit busy   D done   - no warp (not a candidate)
 * The expected issue order of each test is worked out by hand in the comment
 * above it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/insn_table.h"
#include "core/sched.h"
#include "gpu/config.h"

#define NONE (-1)

/* A policy's launch as the GPU builds it: every policy's parameters from a
 * configuration (the defaults plus `sets`), the named policy's own in sp.params. */
typedef struct {
    _Alignas(max_align_t) unsigned char buf[16][64];
    const void *all[16];
    sched_params sp;
} tparams;

static const sched_params *mkp(tparams *t, const char *name, const char *sets)
{
    ws_config c;
    char err[256];
    ws_config_defaults(&c);
    if (sets)
        assert_int_equal(ws_config_set(&c, sets, err, sizeof err), 0);
    memset(t, 0, sizeof *t);
    for (size_t i = 0; sched_at(i); i++) {
        const ws_cfg_table *tab = sched_at(i)->params;
        assert_true(i < 16);
        if (!tab)
            continue;
        assert_true(tab->size <= sizeof t->buf[i]);
        assert_int_equal(ws_config_params(&c, tab->owner, t->buf[i], tab->size), 0);
        t->all[i] = t->buf[i];
    }
    t->sp.all = t->all;
    t->sp.params = sched_params_of(&t->sp, sched_find(name));
    return &t->sp;
}

typedef struct {
    uint64_t cycle; /* 0: the previous step's cycle + 1 */
    const char *pat;
    int want;       /* slot expected to issue, NONE for no issue */
} step;

typedef struct {
    const sched_ops *o;
    void *st;
    const uint64_t *ages; /* per position; NULL: all 0 */
    uint32_t base, stride;
    uint64_t cycle;
} drv;

static drv drv_make(const char *name, uint32_t n_slots, const sched_params *p,
                    const uint64_t *ages)
{
    drv d = {sched_find(name), NULL, ages, 0, 1, 0};
    assert_non_null(d.o);
    d.st = d.o->create(n_slots, p);
    assert_non_null(d.st);
    return d;
}

static void drv_free(drv *d)
{
    d->o->destroy(d->st);
}

static uint32_t slot_of(const drv *d, uint32_t pos)
{
    return d->base + pos * d->stride;
}

static void start_all(drv *d, uint32_t n_pos)
{
    for (uint32_t p = 0; p < n_pos; p++)
        if (d->o->on_warp_start)
            d->o->on_warp_start(d->st, slot_of(d, p), 0);
}

static uint32_t build(const drv *d, const char *pat, sched_cand *c)
{
    uint32_t n = 0;
    for (uint32_t p = 0; pat[p]; p++) {
        char ch = pat[p];
        if (ch == '-')
            continue;
        sched_cand x = {slot_of(d, p), d->ages ? d->ages[p] : 0, WR_READY, 0, 0, 0, IT_VALU, 0};
        switch (ch) {
        case 'R': break;
        case 'M': x.is_mem = x.is_long = 1; break;
        case 'm': x.is_mem = 1; break;
        case 'w': x.waiting_mem = 1; break;
        case 'S': x.reason = WR_SCOREBOARD; break;
        case 'W': x.reason = WR_SCOREBOARD; x.waiting_mem = 1; break;
        case 'Q': x.reason = WR_SCOREBOARD; x.is_mem = x.is_long = 1; break;
        case 'X': x.reason = WR_MEM_STALL; x.is_mem = x.is_long = 1; break;
        case 'B': x.reason = WR_BARRIER; break;
        case 'I': x.reason = WR_IBUF_EMPTY; break;
        case 'U': x.reason = WR_UNIT_BUSY; break;
        case 'D': x.reason = WR_DONE; break;
        default: fail_msg("bad pattern character '%c'", ch);
        }
        c[n++] = x;
    }
    return n;
}

/* One cycle: pick, check the slot issued, report the issue as the SM does. */
static void run1(drv *d, const step *s, size_t k)
{
    sched_cand c[64];
    uint32_t n = build(d, s->pat, c);
    d->cycle = s->cycle ? s->cycle : d->cycle + 1;
    int i = d->o->pick(d->st, c, n, d->cycle);
    int got = i < 0 ? NONE : (int)c[i].slot;
    if (got != s->want)
        fail_msg("%s step %zu (cycle %llu, \"%s\"): issued %d, expected %d", d->o->name, k,
                 (unsigned long long)d->cycle, s->pat, got, s->want);
    if (i < 0)
        return;
    assert_true((uint32_t)i < n);
    assert_int_equal(c[i].reason, WR_READY);
    if (d->o->on_issue)
        d->o->on_issue(d->st, c[i].slot, c[i].is_mem, d->cycle);
}

static void run(drv *d, const step *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        run1(d, &s[k], k);
}

#define RUN(d, steps) run(d, steps, sizeof steps / sizeof steps[0])

/* ---- registry ------------------------------------------------------------------- */

static void test_registry(void **state)
{
    (void)state;
    static const char *const names[] = {"lrr", "gto", "oldest", "two-level",
                                        "mto", "motrr", "motrr-recency"};
    size_t n = sizeof names / sizeof names[0];
    for (size_t i = 0; i < n; i++) {
        const sched_ops *o = sched_find(names[i]);
        assert_non_null(o);
        assert_string_equal(o->name, names[i]);
    }
    /* every registered policy: complete, listed once, found by its name; the
     * registry may hold more policies than the ones above */
    size_t k = 0;
    for (; sched_at(k) && k < 64; k++) {
        const sched_ops *o = sched_at(k);
        assert_non_null(o->name);
        assert_non_null(o->desc);
        assert_non_null(o->create);
        assert_non_null(o->destroy);
        assert_non_null(o->pick);
        assert_ptr_equal(sched_find(o->name), o);
        for (size_t j = 0; j < k; j++)
            assert_true(sched_at(j) != o);
    }
    assert_true(k >= n && k < 64);
    assert_null(sched_at(k));
    assert_null(sched_at(k + 1000));
    assert_null(sched_find("LRR"));
    assert_null(sched_find("lrr "));
    assert_null(sched_find("two_level"));
    assert_null(sched_find("motrr-"));
    assert_null(sched_find("no-such-policy"));
    assert_null(sched_find(""));
    assert_null(sched_find(NULL));
    assert_string_equal(warp_reason_name[WR_READY], "ready");
    assert_string_equal(warp_reason_name[WR_IBUF_EMPTY], "ibuf_empty");
    assert_string_equal(warp_reason_name[WR_SCOREBOARD], "scoreboard");
    assert_string_equal(warp_reason_name[WR_UNIT_BUSY], "unit_busy");
    assert_string_equal(warp_reason_name[WR_MEM_STALL], "mem_stall");
    assert_string_equal(warp_reason_name[WR_BARRIER], "barrier");
    assert_string_equal(warp_reason_name[WR_DONE], "done");
}

/* Invalid parameters are refused at create (the config ranges prevent them). */
static void test_bad_params(void **state)
{
    (void)state;
    /* out of range: refused by the configuration, naming the key */
    ws_config c;
    char err[256];
    ws_config_defaults(&c);
    assert_int_equal(ws_config_set(&c, "sched.two_level_active=0", err, sizeof err), -1);
    assert_non_null(strstr(err, "sched.two_level_active"));
    assert_int_equal(ws_config_set(&c, "sched.recency_bits=0", err, sizeof err), -1);
    assert_int_equal(ws_config_set(&c, "sched.recency_bits=17", err, sizeof err), -1);
    assert_int_equal(ws_config_set(&c, "sched.recency_den=0", err, sizeof err), -1);
    assert_non_null(strstr(err, "sched.recency_den"));
    /* and by create when no parameters come at all */
    sched_params none = {0};
    assert_null(sched_find("two-level")->create(8, &none));
    assert_null(sched_find("motrr-recency")->create(8, &none));
    assert_null(sched_find("motrr-recency")->create(8, NULL));
    assert_null(sched_find("two-level")->create(8, NULL));
    /* the others need no parameters */
    void *st = sched_find("lrr")->create(8, NULL);
    assert_non_null(st);
    sched_find("lrr")->destroy(st);
}

/* ---- LRR ------------------------------------------------------------------------ */

/* Warps 0..4, last = none at first.
 *  1 RRRRR  nothing issued yet: first ready from slot 0              -> 0
 *  2 RRRRR  after 0                                                  -> 1
 *  3 RRSRR  after 1: 2 not ready, skipped                            -> 3
 *  4 RRRIS  after 3: 4 not ready; wrap around to 0                   -> 0
 *  5 SUSBR  after 0: 1, 2, 3 not ready                               -> 4
 *  6 SRSSR  after 4: nothing above; wrap: 0 not ready, 1             -> 1
 *  7 SSSSS  nobody ready                                             -> none
 *  8 RRSSS  last is still 1: 2..4 not ready; wrap                    -> 0 */
static void test_lrr(void **state)
{
    (void)state;
    static const step s[] = {
        {0, "RRRRR", 0}, {0, "RRRRR", 1}, {0, "RRSRR", 3}, {0, "RRRIS", 0},
        {0, "SUSBR", 4}, {0, "SRSSR", 1}, {0, "SSSSS", NONE}, {0, "RRSSS", 0},
    };
    tparams tp;
    drv d = drv_make("lrr", 5, mkp(&tp, "lrr", NULL), NULL);
    RUN(&d, s);
    drv_free(&d);
}

/* The odd scheduler of two: it sees slots 1, 3, 5, 7 (positions 0..3).
 *  RRRR -> 1;  RRRR -> 3;  RRSR: 5 not ready -> 7;
 *  RRR- (slot 7 gone): nothing above 7, wrap -> 1;
 *  R-R- (slot 3 gone): after 1 the next present one -> 5. */
static void test_lrr_sparse(void **state)
{
    (void)state;
    static const step s[] = {
        {0, "RRRR", 1}, {0, "RRRR", 3}, {0, "RRSR", 7}, {0, "RRR-", 1}, {0, "R-R-", 5},
    };
    tparams tp;
    drv d = drv_make("lrr", 8, mkp(&tp, "lrr", NULL), NULL);
    d.base = 1;
    d.stride = 2;
    RUN(&d, s);
    drv_free(&d);
}

/* Time quantum Q = 3 (seed 001): the warp that got the turn at cycle t keeps it in
 * cycles t .. t+2 while ready.
 *  c10 RRRR  first turn: 0 (t = 10)            -> 0
 *  c11, c12  0 keeps the turn                  -> 0, 0
 *  c13       quantum over: after 0 (t = 13)    -> 1
 *  c14 RSRR  1 not ready: the turn passes      -> 2 (t = 14)
 *  c15, c16  2 keeps it                        -> 2, 2
 *  c17       over                              -> 3 (t = 17)
 *  c30       (cycles skipped) over: wrap       -> 0 (t = 30)
 *  c31 SRRR  0 not ready                       -> 1 (t = 31)
 *  c32 RRRR  1 keeps it                        -> 1 */
static void test_lrr_quantum(void **state)
{
    (void)state;
    static const step s[] = {
        {10, "RRRR", 0}, {11, "RRRR", 0}, {12, "RRRR", 0}, {13, "RRRR", 1}, {14, "RSRR", 2},
        {15, "RRRR", 2}, {16, "RRRR", 2}, {17, "RRRR", 3}, {30, "RRRR", 0}, {31, "SRRR", 1},
        {32, "RRRR", 1},
    };
    tparams tp;
    drv d = drv_make("lrr", 4, mkp(&tp, "lrr", "sched.lrr_quantum=3"), NULL);
    RUN(&d, s);
    drv_free(&d);
}

/* ---- GTO and oldest ---------------------------------------------------------------- */

static const uint64_t gto_ages[] = {20, 10, 10, 5, 30};

/* Ages 20, 10, 10, 5, 30: oldest first is 3, 1, 2 (tie with 1: lower slot), 0, 4.
 *  1 RRRRR  no greedy warp yet: oldest                        -> 3
 *  2 RRRRR  greedy 3 ready                                    -> 3
 *  3 RRRSR  3 stalls: oldest ready (1 and 2 tie at 10)        -> 1
 *  4 RRRRR  greedy 1 ready (3 is older but not greedy)        -> 1
 *  5 RSRRR  1 stalls: oldest ready                            -> 3
 *  6 RSSSR  only 0 (20) and 4 (30)                            -> 0
 *  7 SSRSR  2 (10) and 4                                      -> 2
 *  8 SSSSS  none                                              -> none
 *  9 RRRRR  greedy is still 2                                 -> 2
 * 10 RR-RR  2 has left: oldest                                -> 3 */
static void test_gto(void **state)
{
    (void)state;
    static const step s[] = {
        {0, "RRRRR", 3}, {0, "RRRRR", 3}, {0, "RRRSR", 1}, {0, "RRRRR", 1}, {0, "RSRRR", 3},
        {0, "RSSSR", 0}, {0, "SSRSR", 2}, {0, "SSSSS", NONE}, {0, "RRRRR", 2}, {0, "RR-RR", 3},
    };
    tparams tp;
    drv d = drv_make("gto", 5, mkp(&tp, "gto", NULL), gto_ages);
    RUN(&d, s);
    drv_free(&d);
}

/* Oldest-first never sticks: RRRRR -> 3; RRRSR -> 1; RRRRR -> 3 again. */
static void test_oldest(void **state)
{
    (void)state;
    static const step s[] = {{0, "RRRRR", 3}, {0, "RRRSR", 1}, {0, "RRRRR", 3}};
    tparams tp;
    drv d = drv_make("oldest", 5, mkp(&tp, "oldest", NULL), gto_ages);
    RUN(&d, s);
    drv_free(&d);
}

/* ---- MTO and MOTRR ------------------------------------------------------------------ */

static const uint64_t mo_ages[] = {40, 10, 30, 10, 20, 50};

/* Ages 40, 10, 30, 10, 20, 50: oldest first 1, 3, 4, 2, 0, 5.
 *  1 MRMRRM  memory warps 0 (40), 2 (30), 5 (50)          -> 2
 *  2 MRRRRM  memory warps 0, 5                            -> 0
 *  3 RRRRRX  5's LD/ST stalls: oldest of the rest (1, 3 tie) -> 1
 *  4 RSRRRR  no memory warp: oldest ready                 -> 3
 *  5 RRRRMR  memory warp 4 first, older 1 and 3 wait      -> 4
 *  6 RSRQSR  3 (memory) not ready: oldest of 0, 2, 5      -> 2 */
static void test_mto(void **state)
{
    (void)state;
    static const step s[] = {
        {0, "MRMRRM", 2}, {0, "MRRRRM", 0}, {0, "RRRRRX", 1},
        {0, "RSRRRR", 3}, {0, "RRRRMR", 4}, {0, "RSRQSR", 2},
    };
    tparams tp;
    drv d = drv_make("mto", 6, mkp(&tp, "mto", NULL), mo_ages);
    RUN(&d, s);
    drv_free(&d);
}

/* Same ages. LRR pointer = last compute warp issued (none at first).
 *  1 MRMRRM  memory warps first, oldest                      -> 2
 *  2 MRRRRM  memory 0 (40) before 5 (50)                     -> 0
 *  3 XRXRRX  LD/ST pipeline stalls: every memory warp is refused;
 *            compute warps in LRR order from slot 0          -> 1 (pointer 1)
 *  4 XRXRRX  after 1                                         -> 3 (pointer 3)
 *  5 XRXRSX  after 3: 4 not ready, 5 memory; wrap            -> 1 (pointer 1)
 *  6 RRMRRR  memory warp 2; the pointer stays at 1           -> 2
 *  7 XSXRRX  after 1: 2 memory (stalled)                     -> 3 (pointer 3)
 *  8 MRRRRM  memory 0 (40) before 5                          -> 0
 *  9 QRRRRQ  memory warps 0, 5 not ready (scoreboard): compute after 3 -> 4 */
static void test_motrr(void **state)
{
    (void)state;
    static const step s[] = {
        {0, "MRMRRM", 2}, {0, "MRRRRM", 0}, {0, "XRXRRX", 1}, {0, "XRXRRX", 3}, {0, "XRXRSX", 1},
        {0, "RRMRRR", 2}, {0, "XSXRRX", 3}, {0, "MRRRRM", 0}, {0, "QRRRRQ", 4},
    };
    tparams tp;
    drv d = drv_make("motrr", 6, mkp(&tp, "motrr", NULL), mo_ages);
    RUN(&d, s);
    drv_free(&d);
}

/* ---- two-level ---------------------------------------------------------------------- */

/* Active set of 2; warps 0..4 start in slot order: active [0 1], pending FIFO 2 3 4.
 *  1 MRRRR  RR over active {0,1}: 0, a global load                 -> 0
 *  2 wRRRR  0 has a load outstanding but is ready: stays; after 0  -> 1
 *  3 WRMRR  0 stalls on its load: to pending (FIFO 3 4 0); 2 (first
 *           pending, no load outstanding) fills the place: [1 2];
 *           after 1: 2, a global load                              -> 2
 *  4 WRwRR  2 ready with its load outstanding: stays; wrap         -> 1
 *  5 WRWBR  2 stalls: pending 3 4 0 2; 3 waits at a barrier: skipped;
 *           4 promoted: [1 4]; after 1                             -> 4
 *  6 WBWBR  1 reaches the barrier: out (pending 3 0 2 1); no pending
 *           warp qualifies (3, 1 barrier; 0, 2 stalled on loads)   -> 4
 *  7 wBWBR  0's load returned (another access of 0 is still outstanding,
 *           but 0 no longer stalls on memory): promoted (3 still at the
 *           barrier): [4 0]; after 4: wrap                         -> 0
 *  8 RRWRR  barrier released, but 1 and 3 are pending; after 0     -> 4
 *  9 RRWR-  warp 4 ended (on_warp_end): 3 (pending longest) joins:
 *           [0 3]; after 4: wrap                                   -> 0
 * 10 RRWR-  after 0 (1 pending)                                    -> 3
 * 11 SRWS-  0 and 3 wait on short hazards (no loads): they stay; 1 is
 *           ready but pending                                      -> none
 * 12 RRRR-  2's load returned, but the active set is full; after 3 -> 0 */
static void test_two_level(void **state)
{
    (void)state;
    static const step s1[] = {
        {0, "MRRRR", 0}, {0, "wRRRR", 1}, {0, "WRMRR", 2}, {0, "WRwRR", 1},
        {0, "WRWBR", 4}, {0, "WBWBR", 4}, {0, "wBWBR", 0}, {0, "RRWRR", 4},
    };
    static const step s2[] = {
        {0, "RRWR-", 0}, {0, "RRWR-", 3}, {0, "SRWS-", NONE}, {0, "RRRR-", 0},
    };
    tparams tp;
    drv d = drv_make("two-level", 5, mkp(&tp, "two-level", "sched.two_level_active=2"), NULL);
    start_all(&d, 5);
    RUN(&d, s1);
    d.o->on_warp_end(d.st, 4, d.cycle);
    RUN(&d, s2);
    drv_free(&d);
}

/* Active set of 1; warps 0, 1: active [0], pending [1].
 *  1 mR  0 issues a shared-memory load (not long latency)            -> 0
 *  2 WR  0 waits on it: no global/local access, so it stays; 1 pending -> none
 *  3 RR                                                             -> 0
 *  4 MR  0 issues a global load                                     -> 0
 *  5 WR  0 stalls on it: pending; 1 promoted                        -> 1
 *  6 RB  1 at a barrier: pending; 0 (load returned) promoted; its
 *        long-access mark clears (no access outstanding)            -> 0
 *  7 mB  shared load                                                -> 0
 *  8 WR  0 waits on the shared load only: stays; 1 pending          -> none
 *  9 -R  0 gone without on_warp_end: out; 1 promoted                -> 1 */
static void test_two_level_short(void **state)
{
    (void)state;
    static const step s[] = {
        {0, "mR", 0}, {0, "WR", NONE}, {0, "RR", 0}, {0, "MR", 0}, {0, "WR", 1},
        {0, "RB", 0}, {0, "mB", 0},    {0, "WR", NONE}, {0, "-R", 1},
    };
    tparams tp;
    drv d = drv_make("two-level", 2, mkp(&tp, "two-level", "sched.two_level_active=1"), NULL);
    start_all(&d, 2);
    RUN(&d, s);
    drv_free(&d);
}

/* ---- MOTRR + Recency ------------------------------------------------------------------ */

static void mem_done(drv *d, uint32_t slot)
{
    d->o->on_mem_done(d->st, slot, d->cycle);
}

/* 2-bit counters (saturate at 3), R for half of the active warps, MAX_NUM_WARP 48.
 * Warps 0..3 start saturated: counters [3 3 3 3]; K = 4/2 = 2; ties to the lower
 * slot: R = {0,1}.
 *  A1 RRRR  compute warps, R group first, RR from slot 0          -> 0
 *  A2 RRRR  after 0: 1 has R                                      -> 1
 *  A3 RRRR  after 1: 2, 3 have R = 0; wrap: 0                     -> 0
 * mem_done(1): [3 0 3 3] R {1,0}.  mem_done(2): [3 1 0 3] R {2,1}.
 *  B1 RRRR  after 0: 1 (R)                                        -> 1
 *  B2 RRRR  after 1: 2 (R)                                        -> 2
 *  B3 RRRR  after 2: 3, 0 have R = 0; 1 has R                     -> 1
 *  B4 RSSR  R warps 1, 2 not ready: R = 0 group from after 1      -> 3
 *  B5 RSSR  after 3: wrap                                         -> 0
 * mem_done(3): [3 2 1 0] R {3,2}.  mem_done(0): [0 3 2 1] R {0,3}.
 * mem_done(0): [0 3 3 2] (1 saturated) R {0,3}.
 * mem_done(0): [0 3 3 3] R {0,1}: 1, 2, 3 tie at 3, the lower slot stays
 * (unsaturated counters would be [0 5 4 3]: R {0,3}, and C1 would issue 3).
 *  C1 RRRR  after 0: 1 (R)                                        -> 1
 *  C2 RRRR  after 1: 2, 3 R = 0; wrap 0 (R)                       -> 0
 *  C3 RRXM  memory warp 3 first, whatever its R                   -> 3
 *  C4 RRRX  memory warp 3 stalled: compute after 0 (the memory issue
 *           did not move the pointer; after 3 it would be 0): 1   -> 1
 * on_warp_end(1): W_active 3, K = 1; by (counter, slot) 0(0) 2(3) 3(3): R {0}.
 *  D1 R-RR  after 1: 2, 3 R = 0; 0 (R)                            -> 0
 *  D2 R-RR  0 again: the only R warp                              -> 0
 *  D3 S-RR  R group not ready: R = 0 group after 0                -> 2
 *  D4 S-RR  after 2                                               -> 3
 * on_warp_start(5): counter 3; W_active 4, K = 2: 0(0) 2(3) 3(3) 5(3): R {0,2}.
 * mem_done(5): 0 -> 1, 2 and 3 stay 3, 5 -> 0: 5(0) 0(1) 2(3) 3(3): R {5,0}.
 * mem_done(1): warp 1 has ended: no effect.
 *  E1 R-RR-R  after 3: 5 (R)                                      -> 5
 *  E2 R-RR-R  after 5: wrap, 0 (R)                                -> 0
 *  E3 R-RR-R  after 0: 2, 3 R = 0; 5 (R)                          -> 5
 *  E4 R-RR-S  R group: 0 only                                     -> 0 */
static void test_motrr_recency(void **state)
{
    (void)state;
    static const step a[] = {{0, "RRRR", 0}, {0, "RRRR", 1}, {0, "RRRR", 0}};
    static const step b[] = {
        {0, "RRRR", 1}, {0, "RRRR", 2}, {0, "RRRR", 1}, {0, "RSSR", 3}, {0, "RSSR", 0},
    };
    static const step c[] = {{0, "RRRR", 1}, {0, "RRRR", 0}, {0, "RRXM", 3}, {0, "RRRX", 1}};
    static const step dd[] = {{0, "R-RR", 0}, {0, "R-RR", 0}, {0, "S-RR", 2}, {0, "S-RR", 3}};
    static const step e[] = {
        {0, "R-RR-R", 5}, {0, "R-RR-R", 0}, {0, "R-RR-R", 5}, {0, "R-RR-S", 0},
    };
    tparams tp;
    drv d = drv_make("motrr-recency", 8, mkp(&tp, "motrr-recency", "sched.recency_bits=2"), NULL);
    start_all(&d, 4);
    RUN(&d, a);
    mem_done(&d, 1);
    mem_done(&d, 2);
    RUN(&d, b);
    mem_done(&d, 3);
    mem_done(&d, 0);
    mem_done(&d, 0);
    mem_done(&d, 0);
    RUN(&d, c);
    d.o->on_warp_end(d.st, 1, d.cycle);
    RUN(&d, dd);
    d.o->on_warp_start(d.st, 5, d.cycle);
    mem_done(&d, 5);
    mem_done(&d, 1);
    RUN(&d, e);
    drv_free(&d);
}

/* Algorithm 1 taken literally. Warps 0..3, 2-bit counters, R for 1/4 of them:
 * K = 1. mem_done(3): [3 3 3 0], R = {3}. Nothing issued yet, so round-robin
 * positions start at slot 0: LRR_prior = 4, 3, 2, 1 for slots 0..3.
 *   MAX_NUM_WARP 48: Prior = -44, -45, -46, 1 -> 3 (the description's order:
 *                    the R warp first)
 *   MAX_NUM_WARP 2:  Prior = 2, 1, 0, 1 -> 0: with more warps than MAX_NUM_WARP
 *                    the formula no longer keeps every R warp first
 *   MAX_NUM_WARP 3:  Prior = 1, 0, -1, 1: 0 and 3 tie -> 3 (R wins ties) */
static void test_recency_prior(void **state)
{
    (void)state;
    static const uint32_t mnw[] = {48, 2, 3};
    static const int want[] = {3, 0, 3};
    for (int k = 0; k < 3; k++) {
        tparams tp;
        char sets[128];
        snprintf(sets, sizeof sets, "sched.recency_bits=2,sched.recency_num=1,"
                 "sched.recency_den=4,sched.max_num_warp=%u", mnw[k]);
        drv d = drv_make("motrr-recency", 4, mkp(&tp, "motrr-recency", sets), NULL);
        start_all(&d, 4);
        mem_done(&d, 3);
        step s = {0, "RRRR", want[k]};
        run1(&d, &s, (size_t)k);
        drv_free(&d);
    }
}

/* The description of MOTRR+Recency, written independently of the policy: counters
 * as in the SPEC, R by rank, memory warps oldest first, then the first ready R = 1
 * compute warp in round-robin order after the last compute warp issued, then the
 * first R = 0 one. The policy (Algorithm 1's priorities) must agree with it at every
 * step of random runs while the warps are no more than MAX_NUM_WARP. */
typedef struct {
    uint32_t cnt[8], cmax, num, den, last_c;
    int act[8];
    uint64_t age[8];
} ref_rec;

static int ref_r(const ref_rec *r, uint32_t s)
{
    uint32_t rank = 0, nact = 0;
    for (uint32_t w = 0; w < 8; w++) {
        if (!r->act[w])
            continue;
        nact++;
        if (r->cnt[w] < r->cnt[s] || (r->cnt[w] == r->cnt[s] && w < s))
            rank++;
    }
    return r->act[s] && (uint64_t)rank < (uint64_t)nact * r->num / r->den;
}

static int ref_pick(const ref_rec *r, const sched_cand *c, uint32_t n)
{
    int mem = -1;
    for (uint32_t i = 0; i < n; i++)
        if (c[i].reason == WR_READY && c[i].is_mem &&
            (mem < 0 || c[i].age < c[mem].age || (c[i].age == c[mem].age && c[i].slot < c[mem].slot)))
            mem = (int)i;
    if (mem >= 0 || n == 0)
        return mem;
    uint32_t start = 0;
    while (start < n && r->last_c != UINT32_MAX && c[start].slot <= r->last_c)
        start++;
    for (int want_r = 1; want_r >= 0; want_r--)
        for (uint32_t k = 0; k < n; k++) {
            uint32_t i = (start + k) % n;
            if (c[i].reason == WR_READY && !c[i].is_mem && ref_r(r, c[i].slot) == want_r)
                return (int)i;
        }
    return -1;
}

static uint32_t rnd(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*x >> 33);
}

/* Seed 000's recency register is one per SM. Four warps on two schedulers (slots 0, 2
 * on scheduler 0; 1, 3 on scheduler 1), all started (counters saturated at 63); loads
 * of slots 1 and then 3 complete: counters 63, 1, 63, 0. Per SM (the default, every
 * instance sees every slot's events): W_active = 4, K = 2, R = 1 for slots 3 and 1;
 * scheduler 0's warps 0 and 2 both have R = 0, so after it issued slot 0 round robin
 * picks slot 2. Per scheduler (sched.recency_per_sm=false, scheduler 0 sees only its
 * own warps): W_active = 2, K = 1, counters tie at 63, the lower slot 0 gets R = 1 and
 * goes first. */
static void test_recency_per_sm(void **state)
{
    (void)state;
    const sched_ops *o = sched_find("motrr-recency");
    for (int per_sm = 1; per_sm >= 0; per_sm--) {
        tparams tp;
        const sched_params *p = mkp(&tp, "motrr-recency",
                                    per_sm ? NULL : "sched.recency_per_sm=false");
        assert_int_equal(o->sm_wide(p) != 0, per_sm);
        void *q0 = o->create(4, p), *q1 = o->create(4, p);
        assert_non_null(q0);
        assert_non_null(q1);
        /* deliver events as the SM does: everyone's when SM-wide, else the owner's */
        for (uint32_t w = 0; w < 4; w++) {
            if (per_sm || w % 2 == 0)
                o->on_warp_start(q0, w, 0);
            if (per_sm || w % 2 == 1)
                o->on_warp_start(q1, w, 0);
        }
        const uint32_t done[] = {1, 3};
        for (int i = 0; i < 2; i++) {
            if (per_sm)
                o->on_mem_done(q0, done[i], 10 + (uint64_t)i);
            o->on_mem_done(q1, done[i], 10 + (uint64_t)i);
        }
        o->on_issue(q0, 0, 0, 20);
        sched_cand c[2] = {{0, 0, WR_READY, 0, 0, 0, IT_VALU, 0},
                           {2, 0, WR_READY, 0, 0, 0, IT_VALU, 0}};
        assert_int_equal(c[o->pick(q0, c, 2, 21)].slot, per_sm ? 2 : 0);
        o->destroy(q0);
        o->destroy(q1);
    }
}

static void test_recency_reference(void **state)
{
    (void)state;
    static const uint32_t bits[] = {1, 2, 3, 6};
    static const uint32_t frac[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 2}, {1, 8}};
    const sched_ops *o = sched_find("motrr-recency");
    uint64_t x = 12345;
    unsigned picks = 0;
    for (int b = 0; b < 4; b++)
        for (int f = 0; f < 5; f++) {
            tparams tp;
            char sets[128];
            snprintf(sets, sizeof sets, "sched.recency_bits=%u,sched.recency_num=%u,"
                     "sched.recency_den=%u,sched.max_num_warp=8", bits[b], frac[f][0], frac[f][1]);
            void *st = o->create(8, mkp(&tp, "motrr-recency", sets));
            assert_non_null(st);
            ref_rec r = {{0}, (1u << bits[b]) - 1, frac[f][0], frac[f][1], UINT32_MAX, {0}, {0}};
            for (uint64_t cyc = 1; cyc < 3000; cyc++) {
                uint32_t ev = rnd(&x) % 10, s = rnd(&x) % 8;
                if (ev == 0 && !r.act[s]) {
                    r.act[s] = 1;
                    r.cnt[s] = r.cmax;
                    r.age[s] = cyc;
                    o->on_warp_start(st, s, cyc);
                } else if (ev == 1 && r.act[s]) {
                    r.act[s] = 0;
                    o->on_warp_end(st, s, cyc);
                } else if (ev <= 4 && r.act[s]) {
                    for (uint32_t w = 0; w < 8; w++)
                        if (r.act[w] && r.cnt[w] < r.cmax)
                            r.cnt[w]++;
                    r.cnt[s] = 0;
                    o->on_mem_done(st, s, cyc);
                } else {
                    sched_cand c[8];
                    uint32_t n = 0;
                    for (uint32_t w = 0; w < 8; w++)
                        if (r.act[w]) {
                            uint32_t k = rnd(&x) % 10;
                            sched_cand y = {w, r.age[w], k < 6 ? WR_READY : k < 8 ? WR_SCOREBOARD
                                                                               : WR_MEM_STALL,
                                            rnd(&x) % 4 == 0, 0, 0, IT_VALU, 0};
                            if (y.reason == WR_MEM_STALL)
                                y.is_mem = 1;
                            c[n++] = y;
                        }
                    int want = ref_pick(&r, c, n);
                    int got = o->pick(st, c, n, cyc);
                    if (got != want)
                        fail_msg("bits %u frac %u/%u cycle %llu: pick %d, reference %d", bits[b],
                                 frac[f][0], frac[f][1], (unsigned long long)cyc, got, want);
                    if (got >= 0) {
                        picks++;
                        o->on_issue(st, c[got].slot, c[got].is_mem, cyc);
                        if (!c[got].is_mem)
                            r.last_c = c[got].slot;
                    }
                }
            }
            o->destroy(st);
        }
    assert_true(picks > 10000); /* the runs did exercise pick() */
}

/* ---- every policy ----------------------------------------------------------------- */

/* Random candidate lists of up to 64 warps over 128 slots, random hooks (some with
 * slots out of range): pick() returns -1 or a ready candidate, and -1 only when none
 * is ready (two-level may also refuse ready pending warps). */
static void test_all_policies_random(void **state)
{
    (void)state;
    uint64_t x = 777;
    for (size_t k = 0; sched_at(k); k++) {
        const sched_ops *o = sched_at(k);
        tparams tp;
        void *st = o->create(128, mkp(&tp, o->name, "sched.lrr_quantum=5"));
        assert_non_null(st);
        for (uint64_t cyc = 1; cyc < 4000; cyc++) {
            uint32_t s = rnd(&x) % 140;
            switch (rnd(&x) % 8) {
            case 0:
                if (o->on_warp_start)
                    o->on_warp_start(st, s, cyc);
                break;
            case 1:
                if (o->on_warp_end)
                    o->on_warp_end(st, s, cyc);
                break;
            case 2:
                if (o->on_mem_done)
                    o->on_mem_done(st, s, cyc);
                break;
            default:;
                sched_cand c[64];
                uint32_t n = 0, ready = 0;
                for (uint32_t w = rnd(&x) % 4; w < 128 && n < 64; w += 1 + rnd(&x) % 3) {
                    sched_cand y = {w, rnd(&x) % 50, (uint8_t)(rnd(&x) % WR__COUNT),
                                    rnd(&x) % 2, rnd(&x) % 2, rnd(&x) % 2, IT_VALU, 0};
                    ready += y.reason == WR_READY;
                    c[n++] = y;
                }
                int i = o->pick(st, c, n, cyc);
                if (i >= 0) {
                    assert_true((uint32_t)i < n);
                    assert_int_equal(c[i].reason, WR_READY);
                    if (o->on_issue)
                        o->on_issue(st, c[i].slot, c[i].is_mem, cyc);
                } else if (strcmp(o->name, "two-level") != 0) {
                    assert_int_equal(ready, 0);
                }
                if (cyc % 97 == 0)
                    assert_int_equal(o->pick(st, c, 0, cyc), -1);
            }
        }
        o->destroy(st);
    }
}

/* sched_ops.ready_only: the Fermi SM passes such a policy only the ready candidates.
 * Hand-worked (LRR, last issued slot 3): candidates 1 R, 2 S, 4 B, 6 R -> 6 (the first
 * ready after 3); the ready list 1, 6 -> index 1 = slot 6 as well. GTO, ages 1 9 9 5 by
 * slot 1 2 4 6, greedy none: oldest ready is slot 1 in both lists. Then, for every
 * policy that sets the flag, two instances driven alike over random lists, one given
 * every candidate and one only the ready ones, choose the same slot each time. The
 * policies that see the others (two-level, MOTRR+Recency) must not set it. */
static void test_ready_only(void **state)
{
    (void)state;
    tparams tp;
    const sched_ops *lrr = sched_find("lrr"), *gto = sched_find("gto");
    assert_true(lrr->ready_only && gto->ready_only && sched_find("static-select")->ready_only);
    assert_false(sched_find("two-level")->ready_only);
    assert_false(sched_find("motrr-recency")->ready_only);
    sched_cand all[4] = {{1, 1, WR_READY, 0, 0, 0, IT_VALU, 0},
                         {2, 9, WR_SCOREBOARD, 0, 0, 0, IT_VALU, 0},
                         {4, 9, WR_BARRIER, 0, 0, 0, IT_VALU, 0},
                         {6, 5, WR_READY, 0, 0, 0, IT_VALU, 0}};
    sched_cand rdy[2] = {all[0], all[3]};
    void *st = lrr->create(8, mkp(&tp, "lrr", NULL));
    lrr->on_issue(st, 3, 0, 1);
    assert_int_equal(lrr->pick(st, all, 4, 2), 3);
    assert_int_equal(lrr->pick(st, rdy, 2, 2), 1);
    lrr->destroy(st);
    st = gto->create(8, mkp(&tp, "gto", NULL));
    assert_int_equal(gto->pick(st, all, 4, 2), 0);
    assert_int_equal(gto->pick(st, rdy, 2, 2), 0);
    gto->destroy(st);

    uint64_t x = 4242;
    uint32_t checked = 0;
    for (size_t k = 0; sched_at(k); k++) {
        const sched_ops *o = sched_at(k);
        if (!o->ready_only)
            continue;
        void *a = o->create(128, mkp(&tp, o->name, "sched.lrr_quantum=3"));
        void *b = o->create(128, mkp(&tp, o->name, "sched.lrr_quantum=3"));
        assert_non_null(a);
        assert_non_null(b);
        for (uint64_t cyc = 1; cyc < 3000; cyc++) {
            sched_cand c[64], r[64];
            uint32_t n = 0, nr = 0;
            for (uint32_t w = rnd(&x) % 4; w < 128 && n < 64; w += 1 + rnd(&x) % 3) {
                sched_cand y = {w, rnd(&x) % 50, (uint8_t)(rnd(&x) % WR_DONE), rnd(&x) % 2, rnd(&x) % 2,
                                rnd(&x) % 2, (uint8_t)(rnd(&x) % IT__COUNT), 0};
                c[n++] = y;
                if (y.reason == WR_READY)
                    r[nr++] = y;
            }
            int i = o->pick(a, c, n, cyc), j = o->pick(b, r, nr, cyc);
            assert_int_equal(i < 0, j < 0);
            if (i < 0)
                continue;
            assert_int_equal(c[i].slot, r[j].slot);
            checked++;
            if (o->on_issue) {
                o->on_issue(a, c[i].slot, c[i].is_mem, cyc);
                o->on_issue(b, r[j].slot, r[j].is_mem, cyc);
            }
        }
        o->destroy(a);
        o->destroy(b);
    }
    assert_true(checked > 10000);
}

/* sched_ops.pick_slot: the choice from a ready slot set and per-slot ages.
 * Hand-worked: ready slots {1, 6, 70} (two words), ages by slot 1: 9, 6: 5, 70: 5.
 *  GTO, no warp issued: oldest is age 5, slots 6 and 70 tie -> the lower, 6; after
 *  on_issue(70) the greedy warp 70 is ready -> 70; ready {1, 6} -> oldest 6.
 *  oldest: 6 (no greedy warp, whatever issued).
 *  LRR after issuing 6: the first ready after 6 -> 70; after 70: wrap -> 1; empty -> -1.
 *  LRR with a quantum of 3 after issuing 6 at cycle 10: kept at cycle 12 -> 6; at
 *  cycle 13 the quantum ended -> 70.
 * Then, for every policy that has it (static-select with either inner policy), two
 * instances driven alike over random ready sets of up to 128 slots, one asked with
 * pick() on the ready candidates in slot order (ages from the same array), one with
 * pick_slot(): the same slot each time (-1 alike). */
static void test_pick_slot(void **state)
{
    (void)state;
    tparams tp;
    uint64_t age[128] = {0};
    age[1] = 9;
    age[6] = 5;
    age[70] = 5;
    uint64_t rs[2] = {1ull << 1 | 1ull << 6, 1ull << 6};
    const sched_ops *gto = sched_find("gto"), *old = sched_find("oldest"), *lrr = sched_find("lrr");
    assert_non_null(gto->pick_slot);
    assert_non_null(old->pick_slot);
    assert_non_null(lrr->pick_slot);
    assert_non_null(sched_find("static-select")->pick_slot);
    void *st = gto->create(128, mkp(&tp, "gto", NULL));
    assert_int_equal(gto->pick_slot(st, rs, 2, age, 1), 6);
    gto->on_issue(st, 70, 0, 1);
    assert_int_equal(gto->pick_slot(st, rs, 2, age, 2), 70);
    assert_int_equal(gto->pick_slot(st, rs, 1, age, 2), 6);   /* one word: 70 not in it */
    gto->destroy(st);
    st = old->create(128, mkp(&tp, "oldest", NULL));
    assert_int_equal(old->pick_slot(st, rs, 2, age, 1), 6);
    old->destroy(st);
    st = lrr->create(128, mkp(&tp, "lrr", NULL));
    lrr->on_issue(st, 6, 0, 1);
    assert_int_equal(lrr->pick_slot(st, rs, 2, age, 2), 70);
    lrr->on_issue(st, 70, 0, 2);
    assert_int_equal(lrr->pick_slot(st, rs, 2, age, 3), 1);
    uint64_t none[2] = {0, 0};
    assert_int_equal(lrr->pick_slot(st, none, 2, age, 3), -1);
    lrr->destroy(st);
    st = lrr->create(128, mkp(&tp, "lrr", "sched.lrr_quantum=3"));
    lrr->on_issue(st, 6, 0, 10);
    assert_int_equal(lrr->pick_slot(st, rs, 2, age, 12), 6);
    assert_int_equal(lrr->pick_slot(st, rs, 2, age, 13), 70);
    lrr->destroy(st);

    uint64_t x = 9191;
    uint32_t checked = 0;
    for (size_t k = 0; sched_at(k); k++) {
        const sched_ops *o = sched_at(k);
        if (!o->pick_slot)
            continue;
        assert_true(o->ready_only);
        for (uint64_t choice = 0; choice < 2; choice++) {
            const sched_params *sp = mkp(&tp, o->name, "sched.lrr_quantum=3");
            tp.sp.choice = choice;   /* static-select: GTO, then LRR inside */
            void *a = o->create(128, sp), *b = o->create(128, sp);
            assert_non_null(a);
            assert_non_null(b);
            for (uint32_t i = 0; i < 128; i++)
                age[i] = rnd(&x) % 8;   /* ties are common: warps of one CTA */
            for (uint64_t cyc = 1; cyc < 3000; cyc++) {
                if (cyc % 50 == 0)
                    age[rnd(&x) % 128] = cyc;   /* a new warp in some slot */
                uint32_t nw = 1 + rnd(&x) % 2, n = 0;
                uint64_t set[2] = {0, 0};
                sched_cand c[128];
                uint32_t density = 1 + rnd(&x) % 8;
                for (uint32_t w = 0; w < nw * 64; w++)
                    if (rnd(&x) % density == 0) {
                        set[w / 64] |= 1ull << (w % 64);
                        c[n++] = (sched_cand){w, age[w], WR_READY, rnd(&x) % 2, rnd(&x) % 2,
                                              rnd(&x) % 2, (uint8_t)(rnd(&x) % IT__COUNT), 0};
                    }
                int i = o->pick(a, c, n, cyc), j = o->pick_slot(b, set, nw, age, cyc);
                assert_int_equal(i < 0 ? -1 : (int)c[i].slot, j);
                if (i < 0)
                    continue;
                checked++;
                if (o->on_issue && rnd(&x) % 4) {
                    o->on_issue(a, c[i].slot, c[i].is_mem, cyc);
                    o->on_issue(b, c[i].slot, c[i].is_mem, cyc);
                }
            }
            o->destroy(a);
            o->destroy(b);
        }
    }
    assert_true(checked > 20000);
}

/* ---- multi-candidate issue (sched_order) ------------------------------------------ */

/* A multi-issue core as SPEC section 6 describes GCN's: walks the policy's order and
 * takes the first candidate of each issue type, at most `width` in all. Returns how
 * many it took (their slots in got[]). */
static uint32_t arbitrate(const sched_cand *c, const uint32_t *order, uint32_t n_order, uint32_t width,
                          uint32_t *got)
{
    uint32_t taken = 0, k = 0;
    for (uint32_t j = 0; j < n_order && k < width; j++) {
        const sched_cand *x = &c[order[j]];
        if (taken & 1u << x->type)
            continue;
        taken |= 1u << x->type;
        got[k++] = x->slot;
    }
    return k;
}

/* GTO, ages by slot {5, 3, 3, 1, 4}, no warp issued yet (no greedy warp).
 *  RRSRR: oldest ready 3 (age 1); then, 3 taken, 1 (age 3; 2 has age 3 too but waits
 *         on the scoreboard); then 4 (age 4); then 0 (age 5); then none   -> 3 1 4 0
 *         with max 2                                                         -> 3 1
 *  the core issues 1 (on_issue): 1 is now the greedy warp
 *  RRRRR: greedy 1 first, then by age 3 (1), 2 (3), 4 (4), 0 (5)           -> 1 3 2 4 0
 * LRR after it issued slot 3:
 *  RRRRR: after 3: 4, then wrap: 0, 1, 2, then 3 itself                    -> 4 0 1 2 3
 *  SRSRS: after 3: 4 waits; wrap: 1, then 3                                -> 1 3
 * Every call leaves the candidates' reasons as they were. */
static void test_order_default(void **state)
{
    (void)state;
    static const uint64_t ages[] = {5, 3, 3, 1, 4};
    tparams tp;
    drv d = drv_make("gto", 5, mkp(&tp, "gto", NULL), ages);
    start_all(&d, 5);
    assert_null(d.o->order); /* the default, built on pick() */
    sched_cand c[8], keep[8];
    uint32_t out[8];
    uint32_t n = build(&d, "RRSRR", c);
    memcpy(keep, c, sizeof c);
    assert_int_equal(sched_order(d.o, d.st, c, n, 1, out, 8), 4);
    assert_int_equal(c[out[0]].slot, 3);
    assert_int_equal(c[out[1]].slot, 1);
    assert_int_equal(c[out[2]].slot, 4);
    assert_int_equal(c[out[3]].slot, 0);
    assert_memory_equal(c, keep, n * sizeof *c);
    assert_int_equal(sched_order(d.o, d.st, c, n, 1, out, 2), 2);
    assert_int_equal(c[out[0]].slot, 3);
    assert_int_equal(c[out[1]].slot, 1);
    assert_int_equal(sched_order(d.o, d.st, c, n, 1, out, 1), 1);
    assert_int_equal(c[out[0]].slot, (uint32_t)d.o->pick(d.st, c, n, 1));
    assert_int_equal(sched_order(d.o, d.st, c, n, 1, out, 0), 0);
    d.o->on_issue(d.st, 1, 0, 1);
    n = build(&d, "RRRRR", c);
    assert_int_equal(sched_order(d.o, d.st, c, n, 2, out, 8), 5);
    static const uint32_t want_gto[] = {1, 3, 2, 4, 0};
    for (int i = 0; i < 5; i++)
        assert_int_equal(c[out[i]].slot, want_gto[i]);
    n = build(&d, "SSBIU", c);
    assert_int_equal(sched_order(d.o, d.st, c, n, 3, out, 8), 0);
    drv_free(&d);

    d = drv_make("lrr", 5, mkp(&tp, "lrr", NULL), NULL);
    d.o->on_issue(d.st, 3, 0, 1);
    n = build(&d, "RRRRR", c);
    assert_int_equal(sched_order(d.o, d.st, c, n, 2, out, 8), 5);
    static const uint32_t want_lrr[] = {4, 0, 1, 2, 3};
    for (int i = 0; i < 5; i++)
        assert_int_equal(c[out[i]].slot, want_lrr[i]);
    n = build(&d, "SRSRS", c);
    memcpy(keep, c, sizeof c);
    assert_int_equal(sched_order(d.o, d.st, c, n, 3, out, 8), 2);
    assert_int_equal(c[out[0]].slot, 1);
    assert_int_equal(c[out[1]].slot, 3);
    assert_memory_equal(c, keep, n * sizeof *c);
    drv_free(&d);
}

/* Two-level's own order() (a multi-issue core): active set of 2, warps 0..3 started in
 * slot order: active [0 1], pending FIFO 2 3.
 *  1 RMRR  ready active warps round robin, none issued yet           -> 0 1
 *          the core issues both in the cycle: 0, then 1 (a global load)
 *  2 RWRR  1 stalls on its load: pending (FIFO 2 3 1); 2 promoted:
 *          [0 2]; after 1 (issued last): 2, then wrap to 0            -> 2 0
 *          with max 1, what pick() returns                            -> 2
 * (The default order, pick() called twice, lost the load of the second warp: the first
 * on_issue forgot what pick() had offered, so warp 1 would have stayed active.) */
static void test_two_level_order(void **state)
{
    (void)state;
    tparams tp;
    drv d = drv_make("two-level", 4, mkp(&tp, "two-level", "sched.two_level_active=2"), NULL);
    start_all(&d, 4);
    assert_non_null(d.o->order);
    sched_cand c[8];
    uint32_t out[8];
    uint32_t n = build(&d, "RMRR", c);
    assert_int_equal(sched_order(d.o, d.st, c, n, 1, out, 8), 2);
    assert_int_equal(c[out[0]].slot, 0);
    assert_int_equal(c[out[1]].slot, 1);
    d.o->on_issue(d.st, 0, 0, 1);
    d.o->on_issue(d.st, 1, 1, 1);
    n = build(&d, "RWRR", c);
    assert_int_equal(sched_order(d.o, d.st, c, n, 2, out, 8), 2);
    assert_int_equal(c[out[0]].slot, 2);
    assert_int_equal(c[out[1]].slot, 0);
    assert_int_equal(d.o->pick(d.st, c, n, 2), (int)out[0]);
    drv_free(&d);
}

/* Arbitration by issue type on top of the order: oldest-first, ages = slot, and a core
 * that issues up to 5 instructions of different types per cycle.
 *   slot  0    1    2    3          4       5    6     7
 *   type  VALU VALU VMEM LDS        BRANCH  LDS  SALU  VMEM
 *         R    R    R    scoreboard R       R    R     R
 * order (oldest first, ready only): 0 1 2 4 5 6 7
 * the core: 0 (VALU), 1 skipped (VALU taken), 2 (VMEM), 4 (BRANCH), 5 (LDS), 6 (SALU):
 * five issued, so 7 is not looked at (its VMEM port is taken anyway)  -> 0 2 4 5 6
 * with width 3                                                          -> 0 2 4
 * and when only VALU warps are ready, one issues                        -> 0 */
static void test_order_by_type(void **state)
{
    (void)state;
    static const uint64_t ages[] = {0, 1, 2, 3, 4, 5, 6, 7};
    static const uint8_t types[] = {IT_VALU, IT_VALU, IT_VMEM, IT_LDS, IT_BRANCH, IT_LDS, IT_SALU, IT_VMEM};
    tparams tp;
    drv d = drv_make("oldest", 8, mkp(&tp, "oldest", NULL), ages);
    sched_cand c[8];
    uint32_t out[8], got[8];
    uint32_t n = build(&d, "RRRSRRRR", c);
    for (uint32_t i = 0; i < n; i++)
        c[i].type = types[c[i].slot];
    uint32_t k = sched_order(d.o, d.st, c, n, 1, out, 8);
    assert_int_equal(k, 7);
    static const uint32_t want_order[] = {0, 1, 2, 4, 5, 6, 7};
    for (uint32_t i = 0; i < k; i++) {
        assert_int_equal(c[out[i]].slot, want_order[i]);
        assert_int_equal(c[out[i]].type, types[want_order[i]]);
    }
    static const uint32_t want5[] = {0, 2, 4, 5, 6};
    assert_int_equal(arbitrate(c, out, k, 5, got), 5);
    assert_memory_equal(got, want5, sizeof want5);
    assert_int_equal(arbitrate(c, out, k, 3, got), 3);
    assert_memory_equal(got, want5, 3 * sizeof *want5);
    n = build(&d, "RRSSSSSS", c);
    for (uint32_t i = 0; i < n; i++)
        c[i].type = types[c[i].slot];
    k = sched_order(d.o, d.st, c, n, 2, out, 8);
    assert_int_equal(k, 2);
    assert_int_equal(arbitrate(c, out, k, 5, got), 1);
    assert_int_equal(got[0], 0);
    drv_free(&d);
}

/* A policy with its own order(): sched_order() uses it (here: ready warps, highest
 * slot first, at most max). */
static int rev_pick(void *st, const sched_cand *c, uint32_t n, uint64_t cycle)
{
    (void)st;
    (void)cycle;
    for (uint32_t i = n; i-- > 0;)
        if (c[i].reason == WR_READY)
            return (int)i;
    return -1;
}

static uint32_t rev_order(void *st, const sched_cand *c, uint32_t n, uint64_t cycle, uint32_t *out,
                          uint32_t max)
{
    (void)st;
    (void)cycle;
    uint32_t k = 0;
    for (uint32_t i = n; i-- > 0 && k < max;)
        if (c[i].reason == WR_READY)
            out[k++] = i;
    return k;
}

static void test_order_own(void **state)
{
    (void)state;
    const sched_ops rev = {.name = "rev", .desc = "test", .pick = rev_pick, .order = rev_order};
    drv d = {&rev, NULL, NULL, 0, 1, 0};
    sched_cand c[8];
    uint32_t out[8];
    uint32_t n = build(&d, "RSRRB", c);
    assert_int_equal(sched_order(&rev, NULL, c, n, 1, out, 8), 3);
    assert_int_equal(out[0], 3);
    assert_int_equal(out[1], 2);
    assert_int_equal(out[2], 0);
    assert_int_equal(sched_order(&rev, NULL, c, n, 1, out, 1), 1);
    assert_int_equal(out[0], (uint32_t)rev_pick(NULL, c, n, 1));
}

/* Every registered policy on random candidate lists: the order holds distinct ready
 * candidates, starts with what pick() answers, never exceeds max, and leaves the
 * list as it was. */
static void test_order_random(void **state)
{
    (void)state;
    uint64_t x = 0x5eed5eedull;
    for (size_t p = 0; sched_at(p); p++) {
        const sched_ops *o = sched_at(p);
        tparams tp;
        void *st = o->create(128, mkp(&tp, o->name, NULL));
        assert_non_null(st);
        for (uint32_t w = 0; w < 128; w++)
            if (o->on_warp_start)
                o->on_warp_start(st, w, 0);
        for (uint64_t cyc = 1; cyc < 400; cyc++) {
            sched_cand c[64], keep[64];
            uint32_t out[64], n = 0, ready = 0;
            for (uint32_t w = rnd(&x) % 4; w < 128 && n < 64; w += 1 + rnd(&x) % 3) {
                sched_cand y = {w, rnd(&x) % 50, (uint8_t)(rnd(&x) % WR__COUNT), rnd(&x) % 2,
                                rnd(&x) % 2, rnd(&x) % 2, (uint8_t)(rnd(&x) % IT__COUNT), 0};
                ready += y.reason == WR_READY;
                c[n++] = y;
            }
            memcpy(keep, c, n * sizeof *c);
            int first = o->pick(st, c, n, cyc);
            uint32_t max = 1 + (uint32_t)(rnd(&x) % 8);
            uint32_t k = sched_order(o, st, c, n, cyc, out, max);
            assert_memory_equal(c, keep, n * sizeof *c);
            assert_true(k <= max && k <= ready);
            if (first < 0) {
                assert_int_equal(k, 0);
                continue;
            }
            assert_true(k >= 1);
            assert_int_equal(out[0], (uint32_t)first);
            for (uint32_t i = 0; i < k; i++) {
                assert_true(out[i] < n);
                assert_int_equal(c[out[i]].reason, WR_READY);
                for (uint32_t j = 0; j < i; j++)
                    assert_true(out[i] != out[j]);
            }
            if (o->on_issue)
                o->on_issue(st, c[out[0]].slot, c[out[0]].is_mem, cyc);
        }
        o->destroy(st);
    }
    /* the issue types of the instruction classes (core/insn_table.c) */
    assert_int_equal(insn_class_type(IC_ALU), IT_VALU);
    assert_int_equal(insn_class_type(IC_FDIV), IT_VALU);
    assert_int_equal(insn_class_type(IC_SFU), IT_SFU);
    assert_int_equal(insn_class_type(IC_DDIV), IT_DP);
    assert_int_equal(insn_class_type(IC_MEM_GLOBAL), IT_VMEM);
    assert_int_equal(insn_class_type(IC_ATOM_GLOBAL), IT_VMEM);
    assert_int_equal(insn_class_type(IC_MEM_SHARED), IT_LDS);
    assert_int_equal(insn_class_type(IC_MEM_PARAM), IT_SMEM);
    assert_int_equal(insn_class_type(IC_BAR), IT_BRANCH);
    assert_int_equal(insn_class_type(IC_CALL), IT_BRANCH);
    for (int i = 0; i < IT__COUNT; i++)
        assert_non_null(issue_type_name[i]);
    assert_string_equal(issue_type_name[IT_LDS], "lds");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_bad_params),
        cmocka_unit_test(test_lrr),
        cmocka_unit_test(test_lrr_sparse),
        cmocka_unit_test(test_lrr_quantum),
        cmocka_unit_test(test_gto),
        cmocka_unit_test(test_oldest),
        cmocka_unit_test(test_mto),
        cmocka_unit_test(test_motrr),
        cmocka_unit_test(test_two_level),
        cmocka_unit_test(test_two_level_short),
        cmocka_unit_test(test_motrr_recency),
        cmocka_unit_test(test_recency_prior),
        cmocka_unit_test(test_recency_reference),
        cmocka_unit_test(test_recency_per_sm),
        cmocka_unit_test(test_all_policies_random),
        cmocka_unit_test(test_ready_only),
        cmocka_unit_test(test_pick_slot),
        cmocka_unit_test(test_order_default),
        cmocka_unit_test(test_two_level_order),
        cmocka_unit_test(test_order_by_type),
        cmocka_unit_test(test_order_own),
        cmocka_unit_test(test_order_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
