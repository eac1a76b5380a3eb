/* test_cache.c - the generic cache (src/mem/cache.c) and the replacement policies
 * (src/mem/repl.c) on tiny hand-worked configurations. Every expected value is
 * derived in the comments from the rules of cache.h. */
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
#include "ptx/ir.h"
#include "gpu/config.h"
#include "legacy_cfg.h"

/* 2 sets x 2 ways of 128-byte lines (set = (addr / 128) mod 2), not sectored, LRU,
 * 2 MSHR entries of 2 requests each, a miss queue of 2, hit latency 1. */
static cache *tiny(const char *repl, uint32_t sets, uint32_t ways, uint32_t sector,
                   uint32_t mshrs, uint32_t merges, uint32_t mq)
{
    cache_cfg cc = {.sets = sets, .ways = ways, .line = 128, .sector = sector,
                    .repl = repl_find(repl), .seed = 7, .latency = 1, .ports = 1,
                    .mshr_entries = mshrs, .mshr_merges = merges, .miss_queue = mq};
    char err[128];
    cache *c = cache_create(&cc, err, sizeof err);
    assert_non_null(c);
    return c;
}

/* The four states these tests were written against, from the cache's own flags and
 * the default protocol's state byte (nvidia: 0 I, 1 V, 2 M = dirty bytes). */
enum { L_INVALID, L_VALID, L_RESERVED, L_MODIFIED };

static int lstate(const cache *c, uint64_t addr, uint64_t idx)
{
    uint32_t f = cache_line_flags(c, addr, idx);
    if (!(f & CF_VALID))
        return L_INVALID;
    if (f & CF_RESERVED)
        return L_RESERVED;
    return cache_line_pstate(c, addr, idx) == 2 ? L_MODIFIED : L_VALID;
}

static cache_acc ld(uint64_t addr, uint32_t size, void *tok)
{
    return (cache_acc){.addr = addr, .idx = addr, .size = size, .op = CQ_READ, .tok = tok};
}

static cache_acc st(uint64_t addr, uint32_t size, cache_wpol w, cache_apol a, void *tok)
{
    return (cache_acc){.addr = addr, .idx = addr, .size = size, .op = CQ_WRITE,
                       .wpol = (uint8_t)w, .apol = (uint8_t)a, .tok = tok};
}

static mem_access go(cache *c, cache_acc a, uint64_t now, uint64_t *t_done)
{
    uint64_t t;
    /* probe must predict the access exactly and change nothing */
    cache_stats before = *cache_get_stats(c);
    uint32_t mq = cache_mq_len(c), used = cache_mshr_used(c);
    mem_access p = cache_probe(c, &a);
    assert_memory_equal(&before, cache_get_stats(c), sizeof before);
    assert_int_equal(mq, cache_mq_len(c));
    assert_int_equal(used, cache_mshr_used(c));
    mem_access r = cache_access(c, &a, now, t_done ? t_done : &t);
    assert_int_equal(p, r);
    return r;
}

typedef struct {
    void *tok[8];
    uint64_t t[8];
    int n;
} done_log;

static void log_done(void *ctx, void *tok, uint64_t t)
{
    done_log *l = ctx;
    l->tok[l->n] = tok;
    l->t[l->n++] = t;
}

/* Reservation fails, in the order the checks are made: tag (CSF), MSHR (MSHRF), miss
 * queue (MQF). Lines: A 0x000, B 0x100, C 0x200 map to set 0; D 0x080, E 0x180 to set 1. */
static void test_reservation_fails(void **state)
{
    (void)state;
    cache *c = tiny("lru", 2, 2, 128, 2, 2, 2);
    int tk[16];
    uint64_t td;
    /* t0 ld A: absent, way 0 of set 0 allocated RESERVED, MSHR entry, fetch queued */
    assert_int_equal(go(c, ld(0x000, 128, &tk[1]), 0, &td), MA_MISS);
    assert_int_equal(td, UINT64_MAX);
    assert_int_equal(lstate(c, 0x000, 0x000), L_RESERVED);
    assert_int_equal(cache_mq_len(c), 1);
    assert_int_equal(cache_mshr_used(c), 1);
    /* t1 ld A+4: same line, pending: merged (entry holds 2 requests now) */
    assert_int_equal(go(c, ld(0x004, 4, &tk[2]), 1, NULL), MA_MERGED);
    /* t2 ld A+8: the entry's 2 merge slots are taken: MSHRF */
    assert_int_equal(go(c, ld(0x008, 4, &tk[3]), 2, NULL), MA_MSHRF);
    /* t3 ld B: set 0 way 1, second MSHR entry, miss queue now 2/2 */
    assert_int_equal(go(c, ld(0x100, 128, &tk[4]), 3, NULL), MA_MISS);
    assert_int_equal(cache_mq_len(c), 2);
    /* t4 ld C: both lines of set 0 reserved: CSF (checked before the full MSHR) */
    assert_int_equal(go(c, ld(0x200, 128, &tk[5]), 4, NULL), MA_CSF);
    /* t5 ld D: set 1 has room but both MSHR entries are in use: MSHRF (before MQF) */
    assert_int_equal(go(c, ld(0x080, 128, &tk[6]), 5, NULL), MA_MSHRF);
    /* the fetch of A leaves: line address 0x000, one sector, ready at t0 + latency 1 */
    const cache_miss *m = cache_mq_head(c);
    assert_int_equal(m->type, CM_FETCH);
    assert_int_equal(m->addr, 0x000);
    assert_int_equal(m->size, 128);
    assert_int_equal(m->sectors, 1);
    assert_int_equal(m->t_ready, 1);
    uint32_t mA = m->mshr;
    cache_mq_pop(c);
    uint32_t mB = cache_mq_head(c)->mshr;
    /* t6 A's fill: both waiting requests complete, in arrival order; the entry frees */
    done_log l = {0};
    assert_int_equal(cache_fill(c, mA, 1, 6, log_done, &l), 2);
    assert_int_equal(l.n, 2);
    assert_ptr_equal(l.tok[0], &tk[1]);
    assert_ptr_equal(l.tok[1], &tk[2]);
    assert_int_equal(l.t[0], 6);
    assert_int_equal(lstate(c, 0x000, 0x000), L_VALID);
    assert_int_equal(cache_mshr_used(c), 1);
    assert_int_equal(cache_fill(c, mA, 1, 6, log_done, &l), -1);   /* not in use any more */
    /* t7 ld A: hit, done at 7 + 1 */
    assert_int_equal(go(c, ld(0x000, 128, &tk[7]), 7, &td), MA_HIT);
    assert_int_equal(td, 8);
    /* t8 ld D: MSHR entry free again: miss; the queue holds fetch B, fetch D */
    assert_int_equal(go(c, ld(0x080, 128, &tk[8]), 8, NULL), MA_MISS);
    assert_int_equal(cache_mq_len(c), 2);
    /* t9 st A (write-evict) needs a queue slot: MQF */
    assert_int_equal(go(c, st(0x000, 4, CW_EVICT, CA_NONE, &tk[9]), 9, NULL), MA_MQF);
    assert_int_equal(lstate(c, 0x000, 0x000), L_VALID);   /* refused: unchanged */
    cache_mq_pop(c);   /* fetch B leaves */
    /* t10 st A: write-evict invalidates the valid line and sends the store below */
    assert_int_equal(go(c, st(0x000, 4, CW_EVICT, CA_NONE, &tk[10]), 10, &td), MA_BYPASS);
    assert_int_equal(td, UINT64_MAX);
    assert_int_equal(lstate(c, 0x000, 0x000), L_INVALID);
    /* t11 B's fill frees its entry */
    l.n = 0;
    assert_int_equal(cache_fill(c, mB, 1, 11, log_done, &l), 1);
    assert_ptr_equal(l.tok[0], &tk[4]);
    /* t12 ld E: set 1 way 1 free, an MSHR entry free, the queue full (fetch D, store A): MQF */
    assert_int_equal(go(c, ld(0x180, 128, &tk[11]), 12, NULL), MA_MQF);
    m = cache_mq_head(c);
    assert_int_equal(m->type, CM_FETCH);
    assert_int_equal(m->addr, 0x080);
    cache_mq_pop(c);
    m = cache_mq_head(c);
    assert_int_equal(m->type, CM_WRITE);
    assert_int_equal(m->addr, 0x000);
    assert_int_equal(m->size, 4);
    assert_ptr_equal(m->tok, &tk[10]);
    const cache_stats *s = cache_get_stats(c);
    /* accepted: t0 t1 t3 t7 t8 t10 */
    assert_int_equal(s->accesses, 6);
    assert_int_equal(s->hits, 1);
    assert_int_equal(s->misses, 3);
    assert_int_equal(s->merges, 1);
    assert_int_equal(s->bypasses, 1);
    assert_int_equal(s->resfail[0], 1);   /* CSF t4            */
    assert_int_equal(s->resfail[1], 2);   /* MSHRF t2 t5       */
    assert_int_equal(s->resfail[2], 2);   /* MQF t9 t12        */
    assert_int_equal(s->write_evicts, 1);
    assert_int_equal(s->mshr_occ_max, 2);
    /* MSHR entries in use: 1 over [0,3), 2 over [3,6), 1 over [6,8), 2 over [8,11),
     * 1 over [11,20): 3 + 6 + 2 + 6 + 9 = 26 */
    assert_int_equal(cache_mshr_occ_sum(c, 20), 26);
    cache_destroy(c);
}

/* Fill A then B in a 1-set x 2-way cache, hit A, then miss on C: LRU evicts B (A was
 * used last), FIFO evicts A (allocated first; the hit does not count). */
/* The refusal memo seen from outside (cache_refusal_stamp / cache_refuse_again): one
 * MSHR entry; t0 ld A misses; t1 ld B is refused (MSHRF) and stamped; the same retry
 * counts MSHRF again (2, then 3) without a plan; after another access is refused (ld C:
 * a new memo) the old stamp no longer stands; after A's fill (the cache changed) no stamp
 * stands until cache_access refuses again. */
static void test_refusal_stamp(void **state)
{
    (void)state;
    cache *c = tiny("lru", 2, 2, 128, 1, 1, 4);
    int tk[4];
    uint64_t td;
    assert_int_equal(cache_refusal_stamp(c), 0);          /* nothing refused yet */
    assert_int_equal(cache_access(c, &(cache_acc){.addr = 0x000, .idx = 0x000, .size = 128,
                                                  .tok = &tk[0]}, 0, &td), MA_MISS);
    cache_acc b = ld(0x100, 128, &tk[1]), cc = ld(0x080, 128, &tk[2]);
    assert_int_equal(cache_access(c, &b, 1, &td), MA_MSHRF);
    uint64_t sb = cache_refusal_stamp(c);
    assert_true(sb != 0);
    assert_int_equal(cache_refuse_again(c, sb), MA_MSHRF);
    assert_int_equal(cache_refuse_again(c, sb), MA_MSHRF);
    assert_int_equal(cache_get_stats(c)->resfail[1], 3);
    assert_int_equal(cache_refuse_again(c, 0), MA__COUNT);   /* no stamp */
    assert_int_equal(cache_access(c, &cc, 2, &td), MA_MSHRF);
    uint64_t sc = cache_refusal_stamp(c);
    assert_true(sc != sb);
    assert_int_equal(cache_refuse_again(c, sb), MA__COUNT);  /* the memo is C's now */
    assert_int_equal(cache_get_stats(c)->resfail[1], 4);
    uint32_t e = cache_mq_head(c)->mshr;
    cache_mq_pop(c);
    assert_int_equal(cache_fill(c, e, 1, 3, NULL, NULL), 1);
    assert_int_equal(cache_refusal_stamp(c), 0);             /* changed since */
    assert_int_equal(cache_refuse_again(c, sc), MA__COUNT);
    assert_int_equal(cache_get_stats(c)->resfail[1], 4);
    assert_int_equal(cache_access(c, &cc, 4, &td), MA_MISS);  /* the entry is free */
    cache_destroy(c);
}

static void victim_order(const char *repl, uint64_t evicted, uint64_t kept)
{
    cache *c = tiny(repl, 1, 2, 128, 4, 4, 4);
    int tk;
    for (uint64_t a = 0x000; a <= 0x080; a += 0x080) {
        assert_int_equal(go(c, ld(a, 128, &tk), a / 0x80, NULL), MA_MISS);
        uint32_t e = cache_mq_head(c)->mshr;
        cache_mq_pop(c);
        assert_int_equal(cache_fill(c, e, 1, 5, NULL, NULL), 1);
    }
    assert_int_equal(go(c, ld(0x000, 4, &tk), 6, NULL), MA_HIT);
    assert_int_equal(go(c, ld(0x100, 4, &tk), 7, NULL), MA_MISS);
    assert_int_equal(lstate(c, evicted, evicted), L_INVALID);
    assert_int_equal(lstate(c, kept, kept), L_VALID);
    assert_int_equal(lstate(c, 0x100, 0x100), L_RESERVED);
    assert_int_equal(cache_get_stats(c)->evictions, 1);
    assert_int_equal(cache_get_stats(c)->writebacks, 0);   /* clean victim */
    cache_destroy(c);
}

static void test_lru_vs_fifo(void **state)
{
    (void)state;
    victim_order("lru", 0x080, 0x000);
    victim_order("fifo", 0x000, 0x080);
}

/* Write-back with lazy allocation (write-validate) and the per-byte dirty mask. */
static void test_writeback_dirty(void **state)
{
    (void)state;
    cache *c = tiny("lru", 1, 2, 128, 4, 4, 4);
    int tk;
    uint64_t td;
    /* st 4 bytes at 0x010 of absent line A: allocated without a fetch, 4 dirty bytes,
     * MODIFIED, done after the hit latency; nothing queued */
    assert_int_equal(go(c, st(0x010, 4, CW_BACK, CA_LAZY, &tk), 0, &td), MA_MISS);
    assert_int_equal(td, 1);
    assert_int_equal(cache_mq_len(c), 0);
    assert_int_equal(lstate(c, 0x000, 0x000), L_MODIFIED);
    assert_int_equal(cache_line_dirty_bytes(c, 0x000, 0x000), 4);
    assert_int_equal(cache_line_valid_sectors(c, 0x000, 0x000), 0);   /* data not fetched */
    /* st 8 more bytes, overlapping 2: hit, 4 + 8 - 2 = 10 dirty bytes */
    assert_int_equal(go(c, st(0x012, 8, CW_BACK, CA_LAZY, &tk), 1, &td), MA_HIT);
    assert_int_equal(cache_line_dirty_bytes(c, 0x000, 0x000), 10);
    /* ld A: the line is present but its data was never fetched: sector miss */
    assert_int_equal(go(c, ld(0x000, 4, &tk), 2, NULL), MA_MISS);
    assert_int_equal(cache_get_stats(c)->sector_misses, 1);
    uint32_t e = cache_mq_head(c)->mshr;
    cache_mq_pop(c);
    assert_int_equal(cache_fill(c, e, 1, 9, NULL, NULL), 1);
    /* filled, still dirty: MODIFIED */
    assert_int_equal(lstate(c, 0x000, 0x000), L_MODIFIED);
    assert_int_equal(cache_line_dirty_bytes(c, 0x000, 0x000), 10);
    /* line B by a lazy full-line store (dirty 128), then C misses: LRU victim is A
     * (B was written last); A is dirty, so its write-back (10 bytes) is queued first,
     * then C's fetch */
    assert_int_equal(go(c, st(0x080, 128, CW_BACK, CA_LAZY, &tk), 10, NULL), MA_MISS);
    assert_int_equal(cache_line_valid_sectors(c, 0x080, 0x080), 1);   /* fully written */
    assert_int_equal(go(c, ld(0x100, 4, &tk), 11, NULL), MA_MISS);
    const cache_miss *m = cache_mq_head(c);
    assert_int_equal(m->type, CM_WRITEBACK);
    assert_int_equal(m->addr, 0x000);
    assert_int_equal(m->size, 10);
    assert_null(m->tok);
    cache_mq_pop(c);
    assert_int_equal(cache_mq_head(c)->type, CM_FETCH);
    assert_int_equal(cache_get_stats(c)->writebacks, 1);
    assert_int_equal(cache_get_stats(c)->evictions, 1);
    cache_destroy(c);
}

/* A miss that evicts a dirty line needs two miss-queue slots (fetch + write-back). */
static void test_dirty_victim_needs_two_slots(void **state)
{
    (void)state;
    cache *c = tiny("lru", 1, 1, 128, 4, 4, 2);
    int tk;
    assert_int_equal(go(c, st(0x000, 4, CW_BACK, CA_LAZY, &tk), 0, NULL), MA_MISS);
    assert_int_equal(go(c, ld(0x400, 4, &tk), 1, NULL), MA_MISS);   /* writeback + fetch */
    assert_int_equal(cache_mq_len(c), 2);
    /* hit the new line... it is reserved; fill it, dirty it, then miss with 1 slot left */
    uint32_t e;
    cache_mq_pop(c);                    /* write-back leaves */
    e = cache_mq_head(c)->mshr;
    cache_mq_pop(c);                    /* fetch leaves */
    assert_int_equal(cache_fill(c, e, 1, 5, NULL, NULL), 1);
    assert_int_equal(go(c, st(0x400, 4, CW_BACK, CA_LAZY, &tk), 6, NULL), MA_HIT);
    assert_int_equal(go(c, ld(0x800, 4, &tk), 7, NULL), MA_MISS);   /* 2 slots used again */
    cache_mq_pop(c);                    /* one leaves: 1 slot free */
    cache_mq_pop(c);
    assert_int_equal(go(c, st(0x800, 4, CW_EVICT, CA_NONE, &tk), 8, NULL), MA_BYPASS);
    /* 0x800 is reserved (fill pending): write-evict leaves it, sends the store: 1/2 */
    assert_int_equal(lstate(c, 0x800, 0x800), L_RESERVED);
    cache_destroy(c);
}

/* Sectored: 128-byte lines of 4 x 32-byte sectors; misses fetch only missing sectors. */
static void test_sectors(void **state)
{
    (void)state;
    cache *c = tiny("lru", 1, 2, 32, 2, 4, 4);
    int tk[8];
    /* ld sector 0: miss, fetch sector mask 0x1 = 32 bytes */
    assert_int_equal(go(c, ld(0x000, 32, &tk[0]), 0, NULL), MA_MISS);
    const cache_miss *m = cache_mq_head(c);
    assert_int_equal(m->sectors, 0x1);
    assert_int_equal(m->size, 32);
    uint32_t e = m->mshr;
    cache_mq_pop(c);
    /* ld sector 2 of the same (reserved) line: joins the entry, fetches sector 2 only */
    assert_int_equal(go(c, ld(0x040, 32, &tk[1]), 1, NULL), MA_MISS);
    m = cache_mq_head(c);
    assert_int_equal(m->sectors, 0x4);
    assert_int_equal(m->mshr, e);
    cache_mq_pop(c);
    /* ld 8 bytes of sector 0 again: pending, merged */
    assert_int_equal(go(c, ld(0x008, 8, &tk[2]), 2, NULL), MA_MERGED);
    /* a request over sectors 0-1 (0x010..0x02f): sector 1 missing: joins, fetches 0x2 */
    assert_int_equal(go(c, ld(0x010, 32, &tk[3]), 3, NULL), MA_MISS);
    assert_int_equal(cache_mq_head(c)->sectors, 0x2);
    cache_mq_pop(c);
    /* sector 0 arrives: tk0 and tk2 complete; tk3 still needs sector 1 */
    done_log l = {0};
    assert_int_equal(cache_fill(c, e, 0x1, 10, log_done, &l), 2);
    assert_ptr_equal(l.tok[0], &tk[0]);
    assert_ptr_equal(l.tok[1], &tk[2]);
    assert_int_equal(lstate(c, 0, 0), L_RESERVED);
    assert_int_equal(cache_line_valid_sectors(c, 0, 0), 0x1);
    /* sector 1 arrives: tk3; sector 2: tk1, the entry frees */
    l.n = 0;
    assert_int_equal(cache_fill(c, e, 0x2, 11, log_done, &l), 1);
    assert_ptr_equal(l.tok[0], &tk[3]);
    assert_int_equal(cache_fill(c, e, 0x4, 12, log_done, &l), 1);
    assert_ptr_equal(l.tok[1], &tk[1]);
    assert_int_equal(lstate(c, 0, 0), L_VALID);
    assert_int_equal(cache_line_valid_sectors(c, 0, 0), 0x7);
    assert_int_equal(cache_mshr_used(c), 0);
    /* sector 3 of the valid line: a sector miss with a new entry, fetching 0x8 only */
    assert_int_equal(go(c, ld(0x060, 32, &tk[4]), 13, NULL), MA_MISS);
    assert_int_equal(cache_mq_head(c)->sectors, 0x8);
    assert_int_equal(lstate(c, 0, 0), L_RESERVED);
    /* a hit on a valid sector of a reserved line */
    assert_int_equal(go(c, ld(0x020, 32, &tk[5]), 14, NULL), MA_HIT);
    /* misses: t0 t1 t3 t13; sector misses (present line): t1 t3 t13 */
    assert_int_equal(cache_get_stats(c)->misses, 4);
    assert_int_equal(cache_get_stats(c)->sector_misses, 3);
    cache_destroy(c);
}

/* Unsectored: a miss fetches the whole line whatever part is asked for. */
static void test_unsectored_fetches_line(void **state)
{
    (void)state;
    cache *c = tiny("lru", 2, 2, 128, 2, 2, 2);
    int tk;
    assert_int_equal(go(c, ld(0x044, 4, &tk), 0, NULL), MA_MISS);
    assert_int_equal(cache_mq_head(c)->addr, 0x000);
    assert_int_equal(cache_mq_head(c)->size, 128);
    cache_destroy(c);
}

/* Write-through, fetch-on-write, and bypassed reads / atomics. */
static void test_write_policies(void **state)
{
    (void)state;
    cache *c = tiny("lru", 1, 2, 32, 4, 4, 4);
    int tk[4];
    uint64_t td;
    /* fetch-on-write, 4 bytes of absent line A: miss, fetch sector 0, store waits */
    assert_int_equal(go(c, st(0x004, 4, CW_BACK, CA_FETCH, &tk[0]), 0, &td), MA_MISS);
    assert_int_equal(td, UINT64_MAX);
    const cache_miss *m = cache_mq_head(c);
    assert_int_equal(m->type, CM_FETCH);
    assert_int_equal(m->sectors, 0x1);
    uint32_t e = m->mshr;
    cache_mq_pop(c);
    done_log l = {0};
    assert_int_equal(cache_fill(c, e, 0x1, 7, log_done, &l), 1);
    assert_ptr_equal(l.tok[0], &tk[0]);
    /* the store is applied at the fill */
    assert_int_equal(lstate(c, 0, 0), L_MODIFIED);
    assert_int_equal(cache_line_dirty_bytes(c, 0, 0), 4);
    /* fetch-on-write of a whole sector needs no fetch: allocated at once */
    assert_int_equal(go(c, st(0x080, 32, CW_BACK, CA_FETCH, &tk[1]), 8, &td), MA_MISS);
    assert_int_equal(td, 9);
    assert_int_equal(cache_mq_len(c), 0);
    /* write-through hit on a valid sector: line updated (not dirty), write sent below */
    assert_int_equal(go(c, st(0x084, 4, CW_THROUGH, CA_NONE, &tk[2]), 9, &td), MA_HIT);
    assert_int_equal(td, UINT64_MAX);
    assert_int_equal(cache_mq_head(c)->type, CM_WRITE);
    cache_mq_pop(c);
    /* write-through miss: no allocation */
    assert_int_equal(go(c, st(0x104, 4, CW_THROUGH, CA_NONE, &tk[2]), 10, NULL), MA_BYPASS);
    assert_int_equal(lstate(c, 0x100, 0x100), L_INVALID);
    cache_mq_pop(c);
    /* bypassed read (ld.cg) and atomic: queued with their token, nothing allocated */
    cache_acc a = ld(0x200, 128, &tk[3]);
    a.bypass = 1;
    assert_int_equal(go(c, a, 11, NULL), MA_BYPASS);
    assert_int_equal(cache_mq_head(c)->type, CM_READ);
    assert_ptr_equal(cache_mq_head(c)->tok, &tk[3]);
    a.op = CQ_ATOMIC;
    assert_int_equal(go(c, a, 12, NULL), MA_BYPASS);
    assert_int_equal(lstate(c, 0x200, 0x200), L_INVALID);
    cache_mq_pop(c);
    assert_int_equal(cache_mq_head(c)->type, CM_ATOMIC);
    /* an atomic performed here (L2): a hit makes its bytes dirty (0x004: the bytes the
     * fetch-on-write store dirtied, so still 4) */
    a = ld(0x004, 4, &tk[3]);
    a.op = CQ_ATOMIC;
    assert_int_equal(go(c, a, 13, &td), MA_HIT);
    assert_int_equal(td, 14);
    assert_int_equal(cache_line_dirty_bytes(c, 0, 0), 4);
    a.addr = a.idx = 0x008;
    assert_int_equal(go(c, a, 14, &td), MA_HIT);
    assert_int_equal(cache_line_dirty_bytes(c, 0, 0), 8);
    cache_destroy(c);
}

/* Ports: a second access in the same cycle of a 1-port cache waits a cycle. */
static void test_ports(void **state)
{
    (void)state;
    cache_cfg cc = {.sets = 1, .ways = 2, .line = 128, .sector = 128, .repl = repl_find("lru"),
                    .latency = 3, .ports = 1, .mshr_entries = 2, .mshr_merges = 2, .miss_queue = 2};
    cache *c = cache_create(&cc, NULL, 0);
    int tk;
    uint64_t td;
    cache_access(c, &(cache_acc){.addr = 0, .idx = 0, .size = 4, .op = CQ_WRITE,
                                 .wpol = CW_BACK, .apol = CA_LAZY, .tok = &tk}, 0, &td);
    assert_int_equal(td, 3);
    assert_int_equal(go(c, ld(0, 4, &tk), 5, &td), MA_MISS);   /* data never fetched */
    cache_mq_pop(c);
    cache_fill(c, 0, 1, 6, NULL, NULL);
    assert_int_equal(go(c, ld(0, 4, &tk), 10, &td), MA_HIT);
    assert_int_equal(td, 13);
    assert_int_equal(go(c, ld(0, 4, &tk), 10, &td), MA_HIT);
    assert_int_equal(td, 14);   /* 1 cycle for the port */
    assert_int_equal(cache_get_stats(c)->port_delay, 1);
    cache_destroy(c);
}

/* Random replacement: seeded, deterministic, and probe still predicts access. A random
 * stream of operations is run on two identical caches; at every step the probe equals
 * the access, and both caches agree. */
static void test_random_repl_deterministic(void **state)
{
    (void)state;
    cache *a = tiny("random", 2, 4, 32, 3, 2, 3);
    cache *b = tiny("random", 2, 4, 32, 3, 2, 3);
    uint64_t x = 12345;
    int tk;
    uint32_t evicted_a = 0;
    for (int i = 0; i < 4000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t r = (uint32_t)(x >> 33);
        /* 64 sectors = 16 lines over 8 line frames: plenty of evictions */
        uint64_t addr = (uint64_t)(r % 64) * 32 + (r >> 8) % 3 * 4;
        cache_acc acc = (r >> 12) % 4 == 0 ? st(addr, 8, CW_BACK, (r >> 14) % 2 ? CA_LAZY : CA_FETCH, &tk)
                                           : ld(addr, 16, &tk);
        mem_access oa = go(a, acc, (uint64_t)i, NULL);
        mem_access ob = go(b, acc, (uint64_t)i, NULL);
        assert_int_equal(oa, ob);
        /* drain: send one record and fill fetches at once */
        if ((r >> 20) % 2) {
            for (cache *c = a; c; c = c == a ? b : NULL) {
                const cache_miss *m = cache_mq_head(c);
                if (!m)
                    continue;
                cache_miss mm = *m;
                cache_mq_pop(c);
                if (mm.type == CM_FETCH)
                    assert_true(cache_fill(c, mm.mshr, mm.sectors, (uint64_t)i, NULL, NULL) >= 0);
            }
        }
    }
    evicted_a = (uint32_t)cache_get_stats(a)->evictions;
    assert_true(evicted_a > 100);
    assert_memory_equal(cache_get_stats(a), cache_get_stats(b), sizeof(cache_stats));
    cache_destroy(a);
    cache_destroy(b);
}

static void test_repl_registry(void **state)
{
    (void)state;
    assert_non_null(repl_find("lru"));
    assert_non_null(repl_find("fifo"));
    assert_non_null(repl_find("random"));
    assert_null(repl_find("plru"));
    size_t n = 0;
    while (repl_at(n))
        n++;
    assert_int_equal(n, 3);
    /* random draws only among the candidates */
    const repl_policy *p = repl_find("random");
    void *s = p->create(8, 8, 1);
    assert_non_null(s);
    for (int i = 0; i < 100; i++) {
        uint32_t w = p->victim(s, 0, 0x24);   /* ways 2 and 5 */
        assert_true(w == 2 || w == 5);
        p->insert(s, w);
    }
    p->destroy(s);
    char known[64];
    repl_known(known, sizeof known);
    assert_string_equal(known, "lru, fifo, random");
}

static void test_bad_geometry(void **state)
{
    (void)state;
    char err[128] = "";
    cache_cfg cc = {.sets = 2, .ways = 2, .line = 128, .sector = 48, .repl = repl_find("lru"),
                    .latency = 1, .ports = 1, .mshr_entries = 1, .mshr_merges = 1, .miss_queue = 2};
    assert_null(cache_create(&cc, err, sizeof err));
    assert_true(strlen(err) > 0);
    cc.sector = 128;
    cc.ways = 65;
    assert_null(cache_create(&cc, err, sizeof err));
    cc.ways = 2;
    cc.repl = NULL;
    assert_null(cache_create(&cc, err, sizeof err));
    assert_int_equal(cache_wpol_find("evict"), CW_EVICT);
    assert_int_equal(cache_apol_find("lazy"), CA_LAZY);
    assert_int_equal(cache_wpol_find("sometimes"), -1);
}


/* ---- set-index functions ---------------------------------------------------------------
 * The GTX480 L1D geometry: 32 sets of 128-byte lines (64 sets: the 48 KB option).
 * Worked by hand, address -> set (line number L = addr >> 7):
 *
 *   addr      bits set           linear (L mod 32)  fermi-hash 32 / 64 sets     xor (5-bit folds of L)
 *   0x00000   -                  0                  0 / 0                       0
 *   0x00080   7                  1                  1 ^ 0 = 1 / 1               1
 *   0x00f80   7-11               31                 31 ^ 0 = 31 / 31            31
 *   0x01000   12 (4 KB)          0 (L = 32)         0 ^ 0 = 0 / bit 12 -> 32    L = 0b1_00000: 0 ^ 1 = 1
 *   0x02000   13 (8 KB)          0 (L = 64)         0 ^ 1 = 1 / 1               L = 0b10_00000: 0 ^ 2 = 2
 *   0x2a0c0   6,7,13,15,17       1 (L = 0x541)      lower 1; upper: 13->b0,     L = 0b1_01010_00001:
 *                                                   15->b2, 17->b3 = 13;        1 ^ 10 ^ 1 = 10
 *                                                   1 ^ 13 = 12 / 12
 *   0xa0000   17, 19             0 (L = 0x1400)     0 ^ (b3|b4 = 24) = 24 / 24  L = 0b101_00000_00000:
 *                                                                               0 ^ 0 ^ 5 = 5            */
static uint32_t set_of_fn(const char *fn, uint64_t addr, uint32_t sets)
{
    const setidx_ops *f = setidx_find(fn);
    assert_non_null(f);
    return f->set(addr, addr >> 7, sets);
}

static void test_setidx_functions(void **state)
{
    (void)state;
    static const struct {
        uint64_t addr;
        uint32_t lin, fermi32, fermi64, xr;
    } t[] = {
        {0x00000, 0, 0, 0, 0},    {0x00080, 1, 1, 1, 1},     {0x00f80, 31, 31, 31, 31},
        {0x01000, 0, 0, 32, 1},   {0x02000, 0, 1, 1, 2},     {0x2a0c0, 1, 12, 12, 10},
        {0xa0000, 0, 24, 24, 5},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
        assert_int_equal(set_of_fn("linear", t[i].addr, 32), t[i].lin);
        assert_int_equal(set_of_fn("fermi-hash", t[i].addr, 32), t[i].fermi32);
        assert_int_equal(set_of_fn("fermi-hash", t[i].addr, 64), t[i].fermi64);
        assert_int_equal(set_of_fn("xor", t[i].addr, 32), t[i].xr);
    }
    /* power-of-two strides, 8 accesses each:
     *   4 KB (k x 0x1000): linear: L = 32k -> set 0 for all eight.
     *     fermi-hash 32 sets: bit 12 is not hashed, bits 13-14 are: sets 0,0,1,1,2,2,3,3.
     *     xor: L = 32k -> fields (0, k): sets 0..7.
     *   8 KB (k x 0x2000): linear: set 0 for all. fermi-hash: k's bits are address bits
     *     13-15 -> upper = k: sets 0..7. xor: L = 64k -> (0, 2k): sets 0,2,..,14. */
    static const uint32_t f4k[8] = {0, 0, 1, 1, 2, 2, 3, 3};
    for (uint32_t k = 0; k < 8; k++) {
        assert_int_equal(set_of_fn("linear", k * 0x1000ull, 32), 0);
        assert_int_equal(set_of_fn("linear", k * 0x2000ull, 32), 0);
        assert_int_equal(set_of_fn("fermi-hash", k * 0x1000ull, 32), f4k[k]);
        assert_int_equal(set_of_fn("fermi-hash", k * 0x2000ull, 32), k);
        assert_int_equal(set_of_fn("xor", k * 0x1000ull, 32), k);
        assert_int_equal(set_of_fn("xor", k * 0x2000ull, 32), 2 * k);
    }
    /* registry and geometry checks */
    char known[64], err[160];
    setidx_known(known, sizeof known);
    assert_string_equal(known, "linear, fermi-hash, xor");
    assert_null(setidx_find("hash"));
    assert_int_equal(setidx_find("fermi-hash")->check(32, 128, err, sizeof err), 0);
    assert_int_equal(setidx_find("fermi-hash")->check(16, 128, err, sizeof err), -1);
    assert_int_equal(setidx_find("fermi-hash")->check(32, 64, err, sizeof err), -1);
    assert_int_equal(setidx_find("xor")->check(24, 128, err, sizeof err), -1);
    assert_int_equal(set_of_fn("xor", 0x12345680, 1), 0);
}

/* The strided conflict pattern inside a cache: a 16 KB 4-way L1D (32 sets), five loads
 * 8 KB apart. linear: all five want set 0; the first four reserve its four ways (fills
 * outstanding) and the fifth is refused CSF. fermi-hash and xor: five different sets,
 * five misses. */
static void test_setidx_stride_in_cache(void **state)
{
    (void)state;
    static const char *const fn[3] = {"linear", "fermi-hash", "xor"};
    static const mem_access fifth[3] = {MA_CSF, MA_MISS, MA_MISS};
    for (int f = 0; f < 3; f++) {
        cache_cfg cc = {.sets = 32, .ways = 4, .line = 128, .sector = 128,
                        .repl = repl_find("lru"), .set_index = setidx_find(fn[f]), .latency = 1,
                        .ports = 1, .mshr_entries = 8, .mshr_merges = 2, .miss_queue = 8};
        char err[128];
        cache *c = cache_create(&cc, err, sizeof err);
        assert_non_null(c);
        for (uint64_t k = 0; k < 4; k++)
            assert_int_equal(go(c, ld(k * 0x2000, 4, NULL), k, NULL), MA_MISS);
        assert_int_equal(go(c, ld(4 * 0x2000, 4, NULL), 4, NULL), fifth[f]);
        cache_destroy(c);
    }
    /* a geometry the function is not defined for is refused at creation */
    cache_cfg bad = {.sets = 16, .ways = 4, .line = 128, .sector = 128, .repl = repl_find("lru"),
                     .set_index = setidx_find("fermi-hash"), .latency = 1, .ports = 1,
                     .mshr_entries = 8, .mshr_merges = 2, .miss_queue = 8};
    char err[160] = "";
    assert_null(cache_create(&bad, err, sizeof err));
    assert_non_null(strstr(err, "fermi-hash"));
}

/* ---- the coherence seam, default protocol -----------------------------------------------
 * A store-evict sequence on one L1D (2 sets x 2 ways of 128 B, unsectored), every
 * decision taken through the protocol interface (on_access), every state read back as
 * the protocol's state byte (nvidia: 0 I, 1 V, 2 M):
 *
 *  1. local st 4 B @0x000   on_access: write, back, lazy  -> MISS, allocated without a
 *                           fetch; 4 dirty bytes; state M; nothing below
 *  2. global st 4 B @0x000  on_access: write, evict       -> BYPASS; the line leaves:
 *                           on_evict(M, dirty) = write back, so the miss queue holds
 *                           WRITEBACK 0x000 (4 bytes) then WRITE 0x000; state I (gone)
 *  3. ld 4 B @0x080         on_access: read               -> MISS: FETCH 0x080;
 *                           flags VALID|RESERVED, state I (no data yet)
 *     fill                  line_state(FILL, clean) = V
 *  4. INVALIDATE @0x080     on_message -> drop, reply ACK; clean: no write-back
 *  5. FORWARD @0x100        not present: no reply (MSG_NONE)
 *  6. local st @0x100 (M); INVALIDATE @0x100 -> ACK and a WRITEBACK of its 4 bytes
 *  7. ld.cg / atomic        on_access: bypass (a read / an atomic message below) */
static void test_coh_nvidia_store_evict(void **state)
{
    (void)state;
    ws_config cfg;
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    const coh_ops *nv = coh_find("nvidia");
    assert_non_null(nv);
    assert_ptr_equal(coh_at(0), nv);           /* the default */
    assert_null(coh_find("mesi"));
    char err[160];
    assert_int_equal(nv->check(&cfg, err, sizeof err), 0);
    void *p = nv->create(&cfg, err, sizeof err);
    assert_non_null(p);
    cache_cfg cc = {.sets = 2, .ways = 2, .line = 128, .sector = 128, .repl = repl_find("lru"),
                    .coh = nv, .level = COH_L1D, .latency = 1, .ports = 1,
                    .mshr_entries = 2, .mshr_merges = 2, .miss_queue = 4};
    cache *c = cache_create(&cc, err, sizeof err);
    assert_non_null(c);
    int tok;
    coh_req q = {.level = COH_L1D, .kind = MR_STORE, .msg = MSG_REQUEST, .space = SP_LOCAL};
    /* 1 */
    cache_acc a = {.addr = 0x000, .idx = 0x000, .size = 4, .tok = &tok};
    nv->on_access(p, &q, &a);
    assert_int_equal(a.op, CQ_WRITE);
    assert_int_equal(a.wpol, CW_BACK);
    assert_int_equal(a.apol, CA_LAZY);
    assert_int_equal(a.bypass, 0);
    assert_int_equal(go(c, a, 0, NULL), MA_MISS);
    assert_int_equal(cache_line_flags(c, 0, 0), CF_VALID);
    assert_int_equal(cache_line_pstate(c, 0, 0), 2);
    assert_string_equal(nv->state_name(cache_line_pstate(c, 0, 0)), "M");
    assert_int_equal(cache_line_dirty_bytes(c, 0, 0), 4);
    assert_int_equal(cache_mq_len(c), 0);
    /* 2 */
    q.space = SP_GLOBAL;
    a = (cache_acc){.addr = 0x000, .idx = 0x000, .size = 4, .tok = &tok};
    nv->on_access(p, &q, &a);
    assert_int_equal(a.wpol, CW_EVICT);
    assert_int_equal(go(c, a, 1, NULL), MA_BYPASS);
    assert_int_equal(cache_line_flags(c, 0, 0), 0);
    assert_int_equal(cache_line_pstate(c, 0, 0), 0);
    assert_int_equal(cache_mq_len(c), 2);
    assert_int_equal(cache_mq_head(c)->type, CM_WRITEBACK);
    assert_int_equal(cache_mq_head(c)->size, 4);
    cache_mq_pop(c);
    assert_int_equal(cache_mq_head(c)->type, CM_WRITE);
    assert_ptr_equal(cache_mq_head(c)->tok, &tok);
    cache_mq_pop(c);
    assert_int_equal(cache_get_stats(c)->write_evicts, 1);
    assert_int_equal(cache_get_stats(c)->writebacks, 1);
    /* 3 */
    q.kind = MR_LOAD;
    a = (cache_acc){.addr = 0x080, .idx = 0x080, .size = 4, .tok = &tok};
    nv->on_access(p, &q, &a);
    assert_int_equal(a.op, CQ_READ);
    assert_int_equal(a.bypass, 0);
    assert_int_equal(go(c, a, 2, NULL), MA_MISS);
    assert_int_equal(cache_line_flags(c, 0x080, 0x080), CF_VALID | CF_RESERVED);
    assert_int_equal(cache_line_pstate(c, 0x080, 0x080), 0);
    const cache_miss *f = cache_mq_head(c);
    assert_int_equal(f->type, CM_FETCH);
    uint32_t e = f->mshr;
    cache_mq_pop(c);
    assert_int_equal(cache_fill(c, e, 1, 10, NULL, NULL), 1);
    assert_int_equal(cache_line_flags(c, 0x080, 0x080), CF_VALID);
    assert_int_equal(cache_line_pstate(c, 0x080, 0x080), 1);
    /* 4 */
    assert_int_equal(cache_message(c, 0x080, 0x080, MSG_INVALIDATE, 11), MSG_ACK);
    assert_int_equal(cache_line_flags(c, 0x080, 0x080), 0);
    assert_int_equal(cache_mq_len(c), 0);
    /* 5 */
    assert_int_equal(cache_message(c, 0x100, 0x100, MSG_FORWARD, 12), MSG_NONE);
    /* 6 */
    q.kind = MR_STORE;
    q.space = SP_LOCAL;
    a = (cache_acc){.addr = 0x100, .idx = 0x100, .size = 4, .tok = &tok};
    nv->on_access(p, &q, &a);
    assert_int_equal(go(c, a, 13, NULL), MA_MISS);
    assert_int_equal(cache_message(c, 0x100, 0x100, MSG_FORWARD, 14), MSG_RESPONSE);
    assert_int_equal(cache_line_pstate(c, 0x100, 0x100), 2);     /* a forward keeps it */
    assert_int_equal(cache_message(c, 0x100, 0x100, MSG_INVALIDATE, 15), MSG_ACK);
    assert_int_equal(cache_line_flags(c, 0x100, 0x100), 0);
    assert_int_equal(cache_mq_len(c), 1);
    assert_int_equal(cache_mq_head(c)->type, CM_WRITEBACK);
    assert_int_equal(cache_mq_head(c)->addr, 0x100);
    /* 7 */
    q = (coh_req){.level = COH_L1D, .kind = MR_LOAD, .space = SP_GLOBAL, .cop = CO_CG};
    a = (cache_acc){0};
    nv->on_access(p, &q, &a);
    assert_int_equal(a.op, CQ_READ);
    assert_int_equal(a.bypass, 1);
    q.kind = MR_ATOMIC;
    q.cop = 0;
    a = (cache_acc){0};
    nv->on_access(p, &q, &a);
    assert_int_equal(a.op, CQ_ATOMIC);
    assert_int_equal(a.bypass, 1);
    /* at the L2 a write-back is a write-back write; no directory */
    q = (coh_req){.level = COH_L2, .kind = MR_STORE, .msg = MSG_WRITEBACK};
    a = (cache_acc){0};
    nv->on_access(p, &q, &a);
    assert_int_equal(a.op, CQ_WRITE);
    assert_int_equal(a.wpol, CW_BACK);
    assert_int_equal(a.apol, CA_LAZY);
    assert_int_equal(nv->dir_bytes, 0);
    assert_null(nv->on_dir);
    assert_null(cache_line_dir(c, 0x100, 0x100));
    cache_destroy(c);
    nv->destroy(p);
    /* a bad policy key is the protocol's to refuse */
    snprintf(cfg.l1d.global_store, sizeof cfg.l1d.global_store, "sometimes");
    assert_int_equal(nv->check(&cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, "l1d.global_store"));
}

/* The per-line valid/reserved bitmaps (a set's ways read as one bit field) with a set
 * that straddles two 64-bit words, and the NO_TAG of lines that are not valid. 11 sets x
 * 6 ways, linear index: set = (addr / 128) mod 11; set 10 holds lines 60..65 (bits 60-63
 * of word 0, 0-1 of word 1). Its lines: line numbers 10, 21, 32, 43, 54, 65, 76. */
static void test_set_across_words(void **state)
{
    (void)state;
    cache *c = tiny("lru", 11, 6, 128, 8, 1, 16);
    int tk;
    static const uint64_t ln[7] = {10, 21, 32, 43, 54, 65, 76};
    /* empty cache: no line is found, address 0 (line number 0, the tag a zeroed array
     * would hold) included */
    assert_int_equal(lstate(c, 0x000, 0x000), L_INVALID);
    /* t0..t5: six misses fill the set's ways 0..5 in order (the first invalid way) */
    for (int i = 0; i < 6; i++) {
        assert_int_equal(go(c, ld(ln[i] * 128, 128, &tk), (uint64_t)i, NULL), MA_MISS);
        assert_int_equal(lstate(c, ln[i] * 128, ln[i] * 128), L_RESERVED);
    }
    /* t6: every way reserved (bits 60..65 all set): the seventh line is refused, CSF */
    assert_int_equal(go(c, ld(ln[6] * 128, 128, &tk), 6, NULL), MA_CSF);
    /* the fetches leave in order; the sixth (line number 65, way 5: bit 1 of word 1) is
     * filled: that way alone is valid and not reserved */
    uint32_t e[6];
    for (int i = 0; i < 6; i++) {
        e[i] = cache_mq_head(c)->mshr;
        assert_int_equal(cache_mq_head(c)->addr, ln[i] * 128);
        cache_mq_pop(c);
    }
    assert_int_equal(cache_fill(c, e[5], 1, 7, NULL, NULL), 1);
    assert_int_equal(lstate(c, ln[5] * 128, ln[5] * 128), L_VALID);
    /* t8: the seventh line takes way 5, the only candidate; line 65 is evicted */
    assert_int_equal(go(c, ld(ln[6] * 128, 128, &tk), 8, NULL), MA_MISS);
    assert_int_equal(lstate(c, ln[5] * 128, ln[5] * 128), L_INVALID);
    assert_int_equal(lstate(c, ln[6] * 128, ln[6] * 128), L_RESERVED);
    assert_int_equal(cache_get_stats(c)->evictions, 1);
    /* fill ways 0 (line 10) and the new way 5 (line 76): */
    assert_int_equal(cache_fill(c, e[0], 1, 9, NULL, NULL), 1);
    uint32_t e6 = cache_mq_head(c)->mshr;
    cache_mq_pop(c);
    assert_int_equal(cache_fill(c, e6, 1, 10, NULL, NULL), 1);
    /* invalidate_all drops the valid unreserved lines (10, 76) and keeps the reserved
     * ones: neither dropped line is found again, the reserved ones still are */
    cache_invalidate_all(c);
    assert_int_equal(lstate(c, ln[0] * 128, ln[0] * 128), L_INVALID);
    assert_int_equal(lstate(c, ln[6] * 128, ln[6] * 128), L_INVALID);
    for (int i = 1; i < 5; i++)
        assert_int_equal(lstate(c, ln[i] * 128, ln[i] * 128), L_RESERVED);
    /* t11: line 65 again: the first invalid way is way 0 (line 60), no eviction */
    assert_int_equal(go(c, ld(ln[5] * 128, 128, &tk), 11, NULL), MA_MISS);
    assert_int_equal(cache_get_stats(c)->evictions, 1);
    /* t12: and line 10: way 5 (ways 1..4 reserved, 0 just taken) */
    assert_int_equal(go(c, ld(ln[0] * 128, 128, &tk), 12, NULL), MA_MISS);
    /* all six reserved again: CSF for line 76 */
    assert_int_equal(go(c, ld(ln[6] * 128, 128, &tk), 13, NULL), MA_CSF);
    cache_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reservation_fails),
        cmocka_unit_test(test_refusal_stamp),
        cmocka_unit_test(test_lru_vs_fifo),
        cmocka_unit_test(test_writeback_dirty),
        cmocka_unit_test(test_dirty_victim_needs_two_slots),
        cmocka_unit_test(test_sectors),
        cmocka_unit_test(test_unsectored_fetches_line),
        cmocka_unit_test(test_write_policies),
        cmocka_unit_test(test_ports),
        cmocka_unit_test(test_random_repl_deterministic),
        cmocka_unit_test(test_repl_registry),
        cmocka_unit_test(test_bad_geometry),
        cmocka_unit_test(test_setidx_functions),
        cmocka_unit_test(test_setidx_stride_in_cache),
        cmocka_unit_test(test_coh_nvidia_store_evict),
        cmocka_unit_test(test_set_across_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
