/* test_cache_memo.c - the refusal memo (cache_refusal_stamp / cache_refuse_again,
 * cache.h) across the changes it outlasts: a miss-queue pop that leaves an MQF refusal
 * still refused, any pop for CSF and MSHRF, a fill outside the refused access's set;
 * and the plans retries resume (cache.c memo_plan: after pops, after fills).
 * Hand-worked scenarios, then long pseudo-random sequences on two identical caches: one
 * answers retries from the memo whenever its stamp stands, the other plans every retry
 * afresh (its retries alternate between two index addresses of the same set, so its
 * memo never matches); both must agree after every step on outcomes and statistics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mem/cache.h"
#include "mem/repl.h"

/* sets x 1 way of 128-byte lines (set = (addr / 128) mod sets), not sectored, LRU, 4
 * MSHR entries of 4 requests, hit latency 1 */
static cache *mk(uint32_t sets, uint32_t mshrs, uint32_t mq)
{
    cache_cfg cc = {.sets = sets, .ways = 1, .line = 128, .sector = 128,
                    .repl = repl_find("lru"), .seed = 7, .latency = 1, .ports = 1,
                    .mshr_entries = mshrs, .mshr_merges = 4, .miss_queue = mq};
    char err[128];
    cache *c = cache_create(&cc, err, sizeof err);
    assert_non_null(c);
    return c;
}

static cache_acc ld(uint64_t addr)
{
    return (cache_acc){.addr = addr, .idx = addr, .size = 4, .op = CQ_READ};
}

static mem_access acc(cache *c, cache_acc a, uint64_t now)
{
    uint64_t t;
    return cache_access(c, &a, now, &t);
}

/* A miss whose victim is dirty needs two miss-queue records (fetch and write-back): in
 * a queue of 4 it is refused MQF while 3 or more records wait (3 + 2 > 4), so its memo
 * stands after the pop from 4 to 3 and falls with the pop from 3 to 2, after which the
 * retry is accepted. */
static void test_mqf_stands_until_room(void **state)
{
    (void)state;
    cache *c = mk(1, 4, 4);
    /* t0 st A (write-back, lazy): allocated dirty, nothing queued */
    cache_acc sa = {.addr = 0x000, .idx = 0x000, .size = 4, .op = CQ_WRITE,
                    .wpol = CW_BACK, .apol = CA_LAZY};
    assert_int_equal(acc(c, sa, 0), MA_MISS);
    /* t1..t4 four bypassed reads fill the queue (each needs one record; 3 + 1 <= 4) */
    for (uint64_t i = 0; i < 4; i++) {
        cache_acc b = ld(0x1000 + 0x80 * i);
        b.bypass = 1;
        assert_int_equal(acc(c, b, 1 + i), MA_BYPASS);
    }
    assert_int_equal(cache_mq_len(c), 4);
    /* t5 ld B: victim A is dirty: 4 + 2 > 4, MQF */
    assert_int_equal(acc(c, ld(0x400), 5), MA_MQF);
    uint64_t s = cache_refusal_stamp(c);
    assert_true(s != 0);
    cache_mq_pop(c);                                   /* 3 left: 3 + 2 > 4 still */
    assert_int_equal(cache_refusal_stamp(c), s);
    assert_int_equal(cache_refuse_again(c, s), MA_MQF);
    assert_int_equal(acc(c, ld(0x400), 6), MA_MQF);    /* the memo answers cache_access */
    assert_int_equal(cache_get_stats(c)->resfail[2], 3);
    cache_mq_pop(c);                                   /* 2 left: 2 + 2 <= 4 */
    assert_int_equal(cache_refusal_stamp(c), 0);
    assert_int_equal(cache_refuse_again(c, s), MA__COUNT);
    assert_int_equal(cache_get_stats(c)->resfail[2], 3);
    /* t7 the retry: A's write-back, then B's fetch, behind the two bypassed reads */
    assert_int_equal(acc(c, ld(0x400), 7), MA_MISS);
    assert_int_equal(cache_mq_len(c), 4);
    cache_mq_pop(c);
    cache_mq_pop(c);
    assert_int_equal(cache_mq_head(c)->type, CM_WRITEBACK);
    assert_int_equal(cache_mq_head(c)->addr, 0x000);
    cache_mq_pop(c);
    assert_int_equal(cache_mq_head(c)->type, CM_FETCH);
    assert_int_equal(cache_mq_head(c)->addr, 0x400);
    /* a bypassed read needs one record: refused while 4 wait, its memo falls with the
     * first pop. Queue: fetch B + 3 bypassed reads = 4 */
    for (uint64_t i = 0; i < 3; i++) {
        cache_acc b = ld(0x2000 + 0x80 * i);
        b.bypass = 1;
        assert_int_equal(acc(c, b, 8 + i), MA_BYPASS);
    }
    cache_acc b = ld(0x3000);
    b.bypass = 1;
    assert_int_equal(acc(c, b, 11), MA_MQF);
    s = cache_refusal_stamp(c);
    assert_true(s != 0);
    cache_mq_pop(c);
    assert_int_equal(cache_refusal_stamp(c), 0);
    assert_int_equal(acc(c, b, 12), MA_BYPASS);
    cache_destroy(c);
}

/* CSF and MSHRF refusals do not read the miss queue: they stand across every pop. CSF:
 * one line, reserved for ld A's miss; ld B finds no line to allocate. Its memo stands
 * after A's fetch leaves, falls with A's fill (a line of its set), and B then misses.
 * MSHRF: two sets, one MSHR entry, held by ld A (set 0); ld D (set 1) is refused, stands
 * after the pop, falls with A's fill (it releases the entry), and D then misses. */
static void test_csf_mshrf_stand_across_pops(void **state)
{
    (void)state;
    cache *c = mk(1, 4, 4);
    assert_int_equal(acc(c, ld(0x000), 0), MA_MISS);
    assert_int_equal(acc(c, ld(0x400), 1), MA_CSF);
    uint64_t s = cache_refusal_stamp(c);
    assert_true(s != 0);
    uint32_t e = cache_mq_head(c)->mshr;
    cache_mq_pop(c);
    assert_int_equal(cache_mq_len(c), 0);
    assert_int_equal(cache_refusal_stamp(c), s);
    assert_int_equal(cache_refuse_again(c, s), MA_CSF);
    assert_int_equal(cache_fill(c, e, 1, 5, NULL, NULL), 1);
    assert_int_equal(cache_refusal_stamp(c), 0);
    assert_int_equal(acc(c, ld(0x400), 6), MA_MISS);
    assert_int_equal(cache_get_stats(c)->resfail[0], 2);
    cache_destroy(c);

    c = mk(2, 1, 4);
    assert_int_equal(acc(c, ld(0x000), 0), MA_MISS);
    assert_int_equal(acc(c, ld(0x080), 1), MA_MSHRF);
    s = cache_refusal_stamp(c);
    e = cache_mq_head(c)->mshr;
    cache_mq_pop(c);
    assert_int_equal(cache_refusal_stamp(c), s);
    assert_int_equal(cache_refuse_again(c, s), MA_MSHRF);
    assert_int_equal(cache_fill(c, e, 1, 5, NULL, NULL), 1);
    assert_int_equal(cache_refusal_stamp(c), 0);
    assert_int_equal(acc(c, ld(0x080), 6), MA_MISS);
    assert_int_equal(cache_get_stats(c)->resfail[1], 2);
    cache_destroy(c);
}

/* A fill outside the refused access's set changes nothing it reads. Two sets, a queue
 * of 2: ld A (set 0) and ld D (set 1) miss; A's fetch leaves and A fills (valid, clean);
 * a bypassed read fills the queue again (fetch D, the read). ld C (set 0, victim A
 * clean: one record) is refused MQF (2 + 1 > 2); D's fill (set 1) leaves the memo
 * standing, the pop of D's fetch makes room (1 + 1 <= 2): the memo falls and C misses. */
static void test_fill_elsewhere_stands(void **state)
{
    (void)state;
    cache *c = mk(2, 4, 2);
    assert_int_equal(acc(c, ld(0x000), 0), MA_MISS);
    assert_int_equal(acc(c, ld(0x080), 1), MA_MISS);
    uint32_t ea = cache_mq_head(c)->mshr;
    cache_mq_pop(c);
    assert_int_equal(cache_fill(c, ea, 1, 2, NULL, NULL), 1);
    cache_acc b = ld(0x1000);
    b.bypass = 1;
    assert_int_equal(acc(c, b, 3), MA_BYPASS);
    assert_int_equal(acc(c, ld(0x100), 4), MA_MQF);
    uint64_t s = cache_refusal_stamp(c);
    assert_true(s != 0);
    const cache_miss *m = cache_mq_head(c);
    assert_int_equal(m->addr, 0x080);
    assert_int_equal(cache_fill(c, m->mshr, 1, 5, NULL, NULL), 1);
    assert_int_equal(cache_refusal_stamp(c), s);
    assert_int_equal(cache_refuse_again(c, s), MA_MQF);
    cache_mq_pop(c);
    assert_int_equal(cache_refusal_stamp(c), 0);
    assert_int_equal(acc(c, ld(0x100), 6), MA_MISS);
    assert_int_equal(cache_get_stats(c)->resfail[2], 2);
    assert_int_equal(cache_get_stats(c)->evictions, 1);
    cache_destroy(c);
}

/* A refused read miss's retry resumes its plan where the line to allocate is chosen
 * (cache.c memo_tv): what fills changed since is read again. One set of 2 ways (mk's
 * geometry with 2 ways), 2 MSHR entries: ld A and ld C miss (ways 0 and 1, reserved); ld
 * B is refused CSF. A's fill (B's set) makes way 0 valid and unreserved: the retry
 * evicts A (the only candidate), no longer refused. With one MSHR entry: ld A misses,
 * ld B is refused MSHRF; A's fill releases the entry and the retry takes way 1, the
 * invalid one, leaving A present. */
static void test_read_miss_resumes(void **state)
{
    (void)state;
    cache_cfg cc = {.sets = 1, .ways = 2, .line = 128, .sector = 128,
                    .repl = repl_find("lru"), .seed = 7, .latency = 1, .ports = 1,
                    .mshr_entries = 2, .mshr_merges = 4, .miss_queue = 4};
    char err[128];
    cache *c = cache_create(&cc, err, sizeof err);
    assert_non_null(c);
    assert_int_equal(acc(c, ld(0x000), 0), MA_MISS);
    uint32_t ea = cache_mq_head(c)->mshr;
    assert_int_equal(acc(c, ld(0x100), 1), MA_MISS);
    assert_int_equal(acc(c, ld(0x200), 2), MA_CSF);
    assert_int_equal(cache_fill(c, ea, 1, 3, NULL, NULL), 1);
    assert_int_equal(cache_refusal_stamp(c), 0);
    assert_int_equal(acc(c, ld(0x200), 4), MA_MISS);
    assert_int_equal(cache_line_flags(c, 0x000, 0x000), 0);
    assert_int_equal(cache_line_flags(c, 0x200, 0x200), CF_VALID | CF_RESERVED);
    assert_int_equal(cache_line_flags(c, 0x100, 0x100), CF_VALID | CF_RESERVED);
    assert_int_equal(cache_get_stats(c)->evictions, 1);
    assert_int_equal(cache_get_stats(c)->resfail[0], 1);
    cache_destroy(c);

    cc.mshr_entries = 1;
    c = cache_create(&cc, err, sizeof err);
    assert_non_null(c);
    assert_int_equal(acc(c, ld(0x000), 0), MA_MISS);
    ea = cache_mq_head(c)->mshr;
    assert_int_equal(acc(c, ld(0x200), 1), MA_MSHRF);
    assert_int_equal(cache_fill(c, ea, 1, 2, NULL, NULL), 1);
    assert_int_equal(acc(c, ld(0x200), 3), MA_MISS);
    assert_int_equal(cache_line_flags(c, 0x000, 0x000), CF_VALID);
    assert_int_equal(cache_line_flags(c, 0x200, 0x200), CF_VALID | CF_RESERVED);
    assert_int_equal(cache_get_stats(c)->evictions, 0);
    assert_int_equal(cache_get_stats(c)->resfail[1], 1);
    cache_destroy(c);
}

/* ---- pseudo-random sequences: memo against fresh plans ---------------------------------- */
static uint64_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

#define NREQ 3
#define NFILL 64

typedef struct {
    cache_acc a;
    int live;           /* issued and not yet accepted */
    uint64_t stamp;     /* cache a's memo of its last refusal */
    uint32_t form;      /* cache b's retries: which index address */
} req;

static void check_same(const cache *a, const cache *b)
{
    assert_memory_equal(cache_get_stats(a), cache_get_stats(b), sizeof(cache_stats));
    assert_int_equal(cache_mq_len(a), cache_mq_len(b));
    assert_int_equal(cache_mshr_used(a), cache_mshr_used(b));
}

static void random_run(cache_cfg cc, uint64_t seed, int steps)
{
    char err[128];
    cache *a = cache_create(&cc, err, sizeof err), *b = cache_create(&cc, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    req rq[NREQ] = {0};
    uint32_t fe[NFILL], fs[NFILL], nf = 0;
    const uint64_t span = (uint64_t)cc.sets * cc.line;   /* idx + span: the same set */
    const uint64_t lines = 3ull * cc.sets * cc.ways;       /* addresses: 3 lines a way */
    uint64_t s = seed, now = 0;
    int stood = 0;
    for (int i = 0; i < steps; i++, now++) {
        uint32_t k = (uint32_t)(rnd(&s) % 16);
        if (k < 9) {
            /* an access: retry a live request or issue a new one */
            req *r = &rq[rnd(&s) % NREQ];
            if (!r->live) {
                uint32_t op = (uint32_t)(rnd(&s) % 8);
                r->a = (cache_acc){.addr = (rnd(&s) % lines) * cc.line + (rnd(&s) % 4) * 32,
                                   .size = 4 << (rnd(&s) % 4), .op = CQ_READ};
                r->a.idx = r->a.addr;
                if (op >= 4) {
                    r->a.op = op == 7 ? CQ_ATOMIC : CQ_WRITE;
                    r->a.wpol = (uint8_t)(op == 6 ? CW_EVICT : op == 5 ? CW_THROUGH : CW_BACK);
                    r->a.apol = (uint8_t)(rnd(&s) % 3);
                }
                r->a.bypass = rnd(&s) % 8 == 0;
                r->live = 1;
                r->stamp = 0;
            }
            mem_access oa = MA__COUNT, ob;
            uint64_t ta = UINT64_MAX, tb;
            if (r->stamp && cache_refusal_stamp(a) == r->stamp) {
                oa = cache_refuse_again(a, r->stamp);
                stood++;
            }
            if (oa == MA__COUNT) {
                oa = cache_access(a, &r->a, now, &ta);
                r->stamp = mem_access_refused(oa) ? cache_refusal_stamp(a) : 0;
            }
            cache_acc x = r->a;
            x.idx += span * (1 + r->form++ % 2);
            ob = cache_access(b, &x, now, &tb);
            assert_int_equal(oa, ob);
            assert_int_equal(ta, tb);
            if (!mem_access_refused(oa))
                r->live = 0;
        } else if (k < 13) {
            const cache_miss *ma = cache_mq_head(a), *mb = cache_mq_head(b);
            assert_true((ma == NULL) == (mb == NULL));
            if (ma) {
                assert_int_equal(ma->type, mb->type);
                assert_int_equal(ma->addr, mb->addr);
                if (ma->type == CM_FETCH && nf < NFILL) {
                    fe[nf] = ma->mshr;
                    fs[nf++] = ma->sectors;
                }
                cache_mq_pop(a);
                cache_mq_pop(b);
            }
        } else if (nf) {
            /* a fill, not necessarily the oldest fetch's */
            uint32_t j = (uint32_t)(rnd(&s) % nf);
            int na = cache_fill(a, fe[j], fs[j], now, NULL, NULL);
            assert_int_equal(na, cache_fill(b, fe[j], fs[j], now, NULL, NULL));
            fe[j] = fe[--nf];
            fs[j] = fs[nf];
        }
        check_same(a, b);
    }
    assert_true(stood > steps / 100);   /* the memo did answer */
    cache_destroy(a);
    cache_destroy(b);
}

static void test_random_memo_vs_fresh(void **state)
{
    (void)state;
    /* 4 sets x 2 ways of 128-byte lines, linear index (idx + sets * line: same set) */
    cache_cfg cc = {.sets = 4, .ways = 2, .line = 128, .sector = 128,
                    .repl = repl_find("lru"), .seed = 7, .latency = 2, .ports = 1,
                    .mshr_entries = 3, .mshr_merges = 2, .miss_queue = 3};
    for (uint64_t seed = 1; seed <= 8; seed++)
        random_run(cc, seed, 20000);
    cc.sector = 32;   /* sectored: sector misses and merges that fetch */
    cc.repl = repl_find("fifo");
    for (uint64_t seed = 11; seed <= 18; seed++)
        random_run(cc, seed, 20000);
    cc.sets = 8;   /* the adaptive limit moves with fills, in steps of 2 and more */
    cc.mshr_entries = 12;
    cc.mshr_adaptive = 1;
    cc.miss_queue = 4;
    for (uint64_t seed = 21; seed <= 220; seed++)
        random_run(cc, seed, 20000);
    cc.mshr_adaptive = 0;   /* waiting requests hold entries that fills release */
    cc.no_coalesce = 1;
    for (uint64_t seed = 231; seed <= 260; seed++)
        random_run(cc, seed, 20000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mqf_stands_until_room),
        cmocka_unit_test(test_csf_mshrf_stand_across_pops),
        cmocka_unit_test(test_fill_elsewhere_stands),
        cmocka_unit_test(test_read_miss_resumes),
        cmocka_unit_test(test_random_memo_vs_fresh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
