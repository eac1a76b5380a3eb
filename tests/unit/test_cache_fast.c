/* test_cache_fast.c - the cache's fast path (cache_read_hit, cache.h) against the general
 * one (cache_access): a hand-worked scenario, the conditions under which the fast path
 * declines, and long pseudo-random access sequences run on two identical caches, one
 * with the fast path and one with it switched off (cache_set_fast(c, 0)), which must
 * agree after every step on outcomes, completion cycles, statistics, miss records and
 * the state of every line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mem/cache.h"
#include "mem/coh.h"
#include "mem/repl.h"
#include "mem/setidx.h"

static cache *mk(const cache_cfg *cc)
{
    char err[160];
    cache *c = cache_create(cc, err, sizeof err);
    assert_non_null(c);
    return c;
}

static cache_cfg base_cfg(void)
{
    /* 2 sets x 2 ways of 128-byte lines, linear index, LRU, hit latency 3, one port */
    return (cache_cfg){.sets = 2, .ways = 2, .line = 128, .sector = 128,
                       .repl = repl_find("lru"), .seed = 7, .latency = 3, .ports = 1,
                       .mshr_entries = 4, .mshr_merges = 4, .miss_queue = 4};
}

static cache_acc ld(uint64_t addr, uint32_t size, void *tok)
{
    return (cache_acc){.addr = addr, .idx = addr, .size = size, .op = CQ_READ, .tok = tok};
}

/* The fetch at the head of the miss queue leaves and its fill arrives at `now`. */
static void fill_head(cache *c, uint64_t now)
{
    const cache_miss *m = cache_mq_head(c);
    assert_non_null(m);
    assert_int_equal(m->type, CM_FETCH);
    uint32_t e = m->mshr, s = m->sectors;
    cache_mq_pop(c);
    assert_true(cache_fill(c, e, s, now, NULL, NULL) >= 0);
}

/* A at 0x000, B at 0x100, C at 0x200: all set 0 (line number mod 2). */
static void test_read_hit_hand_worked(void **state)
{
    (void)state;
    cache_cfg cc = base_cfg();
    cache *c = mk(&cc);
    int tok;
    uint64_t td;
    cache_stats zero = {0};
    zero.limit = 4;   /* (the MSHR limit: all 4 entries) */
    /* t0: A absent - the fast path declines and changes nothing */
    assert_int_equal(cache_read_hit(c, 0x000, 4, 0), UINT64_MAX);
    assert_memory_equal(cache_get_stats(c), &zero, sizeof zero);
    cache_acc a = ld(0x000, 4, &tok);
    assert_int_equal(cache_access(c, &a, 0, &td), MA_MISS);
    /* t1: A reserved, its data not there yet: declines (cache_access would merge) */
    assert_int_equal(cache_read_hit(c, 0x000, 4, 1), UINT64_MAX);
    assert_int_equal(cache_get_stats(c)->accesses, 1);
    fill_head(c, 5);
    /* t6: hit, data at 6 + latency 3 = 9; counted as cache_access counts a hit */
    assert_int_equal(cache_read_hit(c, 0x004, 4, 6), 9);
    /* t6 again: the port is taken in cycle 6, so the access runs in 7: done at 10 */
    assert_int_equal(cache_read_hit(c, 0x040, 4, 6), 10);
    const cache_stats *s = cache_get_stats(c);
    assert_int_equal(s->accesses, 3);
    assert_int_equal(s->reads, 3);
    assert_int_equal(s->hits, 2);
    assert_int_equal(s->misses, 1);
    assert_int_equal(s->port_delay, 1);
    /* LRU: B is filled after A's hits (stamps: A fill 1, A hits 2 and 3, B fill 4), then A
     * hit again on the fast path (stamp 5): C's allocation must evict B, not A */
    a = ld(0x100, 4, &tok);
    assert_int_equal(cache_access(c, &a, 20, &td), MA_MISS);
    fill_head(c, 25);
    assert_int_equal(cache_read_hit(c, 0x000, 4, 30), 33);
    a = ld(0x200, 4, &tok);
    assert_int_equal(cache_access(c, &a, 31, &td), MA_MISS);
    assert_int_equal(cache_line_flags(c, 0x000, 0x000), CF_VALID);
    assert_int_equal(cache_line_flags(c, 0x100, 0x100), 0);
    assert_int_equal(cache_get_stats(c)->evictions, 1);
    /* switched off: it declines even a hit; cache_access gives what it would have */
    cache_set_fast(c, 0);
    assert_int_equal(cache_read_hit(c, 0x000, 4, 40), UINT64_MAX);
    a = ld(0x000, 4, &tok);
    assert_int_equal(cache_access(c, &a, 40, &td), MA_HIT);
    assert_int_equal(td, 43);
    cache_set_fast(c, 1);
    assert_int_equal(cache_read_hit(c, 0x000, 4, 41), 44);
    cache_destroy(c);
}

/* Sectors: 4 sectors of 32 bytes; only the sectors a read touches must be valid. */
static void test_read_hit_sectors(void **state)
{
    (void)state;
    cache_cfg cc = base_cfg();
    cc.sector = 32;
    cache *c = mk(&cc);
    int tok;
    uint64_t td;
    cache_acc a = ld(0x020, 32, &tok);   /* sector 1 */
    assert_int_equal(cache_access(c, &a, 0, &td), MA_MISS);
    fill_head(c, 4);
    assert_int_equal(cache_line_valid_sectors(c, 0, 0), 0x2);
    assert_int_equal(cache_read_hit(c, 0x024, 8, 5), 8);          /* inside sector 1 */
    assert_int_equal(cache_read_hit(c, 0x01c, 8, 6), UINT64_MAX); /* sectors 0 and 1 */
    assert_int_equal(cache_read_hit(c, 0x040, 4, 6), UINT64_MAX); /* sector 2 */
    assert_int_equal(cache_get_stats(c)->hits, 1);
    assert_int_equal(cache_get_stats(c)->accesses, 2);
    cache_destroy(c);
}

/* Protocols with an upgrade hook or an MSHR that blocks hits take the general path. */
static void test_read_hit_declines_protocols(void **state)
{
    (void)state;
    const char *names[] = {"moesi", "nmoesi"};
    for (int i = 0; i < 2; i++) {
        cache_cfg cc = base_cfg();
        cc.coh = coh_find(names[i]);
        assert_non_null(cc.coh);
        cache *c = mk(&cc);
        int tok;
        uint64_t td;
        cache_acc a = ld(0x000, 4, &tok);
        assert_int_equal(cache_access(c, &a, 0, &td), MA_MISS);
        fill_head(c, 4);
        a = ld(0x000, 4, &tok);
        assert_int_equal(cache_read_hit(c, 0x000, 4, 5), UINT64_MAX);
        assert_int_equal(cache_get_stats(c)->accesses, 1);
        cache_destroy(c);
    }
    /* a set count that is not a power of two under the linear index: no fast path */
    cache_cfg cc = base_cfg();
    cc.sets = 3;
    cache *c = mk(&cc);
    int tok;
    uint64_t td;
    cache_acc a = ld(0x000, 4, &tok);
    assert_int_equal(cache_access(c, &a, 0, &td), MA_MISS);
    fill_head(c, 4);
    assert_int_equal(cache_read_hit(c, 0x000, 4, 5), UINT64_MAX);
    a = ld(0x000, 4, &tok);
    assert_int_equal(cache_access(c, &a, 5, &td), MA_HIT);
    cache_destroy(c);
}

/* ---- fast against general on random sequences ------------------------------------------ */
typedef struct {
    void *tok[64];
    uint64_t t[64];
    int n;
} done_log;

static void log_done(void *ctx, void *tok, uint64_t t)
{
    done_log *l = ctx;
    if (l->n < 64) {
        l->tok[l->n] = tok;
        l->t[l->n] = t;
    }
    l->n++;
}

static uint64_t rng(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return *x >> 33;
}

/* the caller's use of the fast path (the detailed model's det_access): a plain read tries
 * cache_read_hit first */
static mem_access run(cache *c, const cache_acc *a, uint64_t now, uint64_t *td)
{
    if (a->op == CQ_READ && !a->bypass && !a->force && !a->excl) {
        uint64_t t = cache_read_hit(c, a->addr, a->size, now);
        if (t != UINT64_MAX) {
            *td = t;
            return MA_HIT;
        }
    }
    return cache_access(c, a, now, td);
}

static void same_state(const cache *f, const cache *g, const uint64_t *addrs, int n)
{
    assert_memory_equal(cache_get_stats(f), cache_get_stats(g), sizeof(cache_stats));
    assert_int_equal(cache_mq_len(f), cache_mq_len(g));
    assert_int_equal(cache_mshr_used(f), cache_mshr_used(g));
    assert_int_equal(cache_refusal_stamp(f), cache_refusal_stamp(g));
    const cache_miss *mf = cache_mq_head(f), *mg = cache_mq_head(g);
    if (mf) {
        assert_int_equal(mf->addr, mg->addr);
        assert_int_equal(mf->type, mg->type);
        assert_int_equal(mf->size, mg->size);
        assert_int_equal(mf->sectors, mg->sectors);
        assert_int_equal(mf->mshr, mg->mshr);
        assert_int_equal(mf->t_ready, mg->t_ready);
        assert_ptr_equal(mf->tok, mg->tok);
    }
    for (int i = 0; i < n; i++) {
        uint64_t a = addrs[i];
        assert_int_equal(cache_line_flags(f, a, a), cache_line_flags(g, a, a));
        assert_int_equal(cache_line_pstate(f, a, a), cache_line_pstate(g, a, a));
        assert_int_equal(cache_line_valid_sectors(f, a, a), cache_line_valid_sectors(g, a, a));
        assert_int_equal(cache_line_dirty_bytes(f, a, a), cache_line_dirty_bytes(g, a, a));
    }
}

/* `steps` accesses over `nlines` lines spaced `stride` bytes apart: reads (most), writes
 * with each write policy, atomics and bypassed reads, with the miss queue drained and
 * fetches filled at random moments; the two caches must agree throughout. */
static void compare_run(cache_cfg cc, uint64_t stride, int nlines, int steps, uint64_t seed)
{
    cache *f = mk(&cc), *g = mk(&cc);
    cache_set_fast(g, 0);
    uint64_t addrs[64];
    for (int i = 0; i < nlines; i++)
        addrs[i] = (uint64_t)i * stride;
    static int toks[4096];
    uint64_t x = seed, now = 0;
    int hits_fast = 0;
    for (int i = 0; i < steps; i++) {
        now += rng(&x) % 3;
        uint64_t r = rng(&x);
        uint64_t line = addrs[r % (uint64_t)nlines];
        uint32_t off = (uint32_t)(rng(&x) % cc.line) & ~3u;
        uint32_t size = (uint32_t)(4 << (rng(&x) % 4));
        cache_acc a = ld(line + off, size, &toks[i % 4096]);
        uint32_t k = (uint32_t)(rng(&x) % 16);
        if (k >= 10 && k < 14) {
            a.op = CQ_WRITE;
            a.wpol = (uint8_t)(k - 10 < 3 ? k - 10 : CW_BACK);
            a.apol = (uint8_t)(rng(&x) % 3);
        } else if (k == 14) {
            a.op = CQ_ATOMIC;
            a.bypass = (uint8_t)(rng(&x) & 1);
        } else if (k == 15) {
            a.bypass = 1;
        }
        uint64_t tf = 0, tg = 0;
        uint64_t before = cache_get_stats(f)->hits;
        mem_access of = run(f, &a, now, &tf);
        mem_access og = run(g, &a, now, &tg);
        assert_int_equal(of, og);
        assert_int_equal(tf, tg);
        if (of == MA_HIT && a.op == CQ_READ && cache_get_stats(f)->hits > before)
            hits_fast++;
        /* the miss queue drains now and then; fetches fill */
        while (cache_mq_len(f) && rng(&x) % 4 == 0) {
            const cache_miss *m = cache_mq_head(f);
            uint8_t type = m->type;
            uint32_t e = m->mshr, s = m->sectors;
            cache_mq_pop(f);
            cache_mq_pop(g);
            if (type == CM_FETCH) {
                done_log lf = {0}, lg = {0};
                uint64_t t = now + rng(&x) % 4;
                assert_int_equal(cache_fill(f, e, s, t, log_done, &lf),
                                 cache_fill(g, e, s, t, log_done, &lg));
                assert_int_equal(lf.n, lg.n);
                for (int j = 0; j < lf.n && j < 64; j++) {
                    assert_ptr_equal(lf.tok[j], lg.tok[j]);
                    assert_int_equal(lf.t[j], lg.t[j]);
                }
            }
        }
        same_state(f, g, addrs, nlines);
    }
    assert_true(hits_fast > steps / 20);   /* the sequence did exercise hits */
    cache_destroy(f);
    cache_destroy(g);
}

static void test_fast_equals_general(void **state)
{
    (void)state;
    /* the hand-worked geometry, 6 lines competing for 4 */
    cache_cfg cc = base_cfg();
    compare_run(cc, 128, 6, 3000, 1);
    /* sectored, FIFO, two ports */
    cc.sector = 32;
    cc.repl = repl_find("fifo");
    cc.ports = 2;
    compare_run(cc, 128, 6, 3000, 2);
    /* random replacement (its touch is a call-free no-op), no second coalescer */
    cc = base_cfg();
    cc.repl = repl_find("random");
    cc.no_coalesce = 1;
    compare_run(cc, 256, 8, 3000, 3);
    /* the Fermi L1D: fermi-hash over 32 sets of 4 ways; lines 8 KB apart collide in
     * linear indexing but spread under the hash */
    cc = base_cfg();
    cc.sets = 32;
    cc.ways = 4;
    cc.set_index = setidx_find("fermi-hash");
    compare_run(cc, 8192, 40, 4000, 4);
    /* xor index (a call), adaptive MSHR with few entries, a short miss queue */
    cc = base_cfg();
    cc.sets = 4;
    cc.set_index = setidx_find("xor");
    cc.mshr_entries = 2;
    cc.mshr_adaptive = 1;
    cc.miss_queue = 2;
    compare_run(cc, 128, 12, 4000, 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_hit_hand_worked),
        cmocka_unit_test(test_read_hit_sectors),
        cmocka_unit_test(test_read_hit_declines_protocols),
        cmocka_unit_test(test_fast_equals_general),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
