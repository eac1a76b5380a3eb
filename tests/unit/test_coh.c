/* test_coh.c - coherence protocols (src/mem/coh_*.c) in the detailed memory model:
 * scripted loads, stores and atomics from two or three L1Ds to one line on an unloaded
 * hierarchy, with the state of every copy, the directory entry, the dirty bytes, the
 * messages sent and the completion cycle of each request worked out by hand.
 *
 * Clocks: everything at 700 MHz (every clock-domain crossing costs exactly one cycle),
 * icnt.latency 10, l2.pipeline 15, l2.latency 5, DRAM tRCD 12 tCL 12, 4 data cycles per
 * 128-byte line, dram.latency 30, l2.atomic_latency 3; 8-byte headers in 32-byte flits
 * (a request or message without data: 1 flit; 128 bytes of data: 5 flits).
 * Pieces, for a request the SM issues at core cycle c (one packet per port and cycle):
 *   L1 latency 1: the miss record leaves at c+1, granted at c+1, a 1-flit packet is at
 *   the partition at c+1+10+1 = c+12, in the L2 at c+13, through the pipeline at c+28
 *   (the L2 "processes" it at P = c+28).
 *   L2 hit: data at P+5, reply queued for interconnect cycle P+6, granted, 5 flits:
 *   arrives P+6+10+5 = P+21 = c+49 (a 1-flit reply: P+17).
 *   L2 miss, closed DRAM bank: record at P+5, DRAM P+6: ACT, RD at P+18, data P+34,
 *   + 30 = P+64, fill at L2 P+65, reply at P+66, arrives P+81 = c+109.
 *   Directory message sent at L2 cycle P: queued for interconnect cycle P+6 (after the
 *   lookup, l2.latency), granted, 1 flit: at the L1 at P+17; the ack leaves after the
 *   L1 latency at P+18, 1 flit (header + up to 24 dirty bytes): at the partition at
 *   P+29, seen by the L2 at P+30. The answer then leaves at max(data, last ack) + 1
 *   and arrives 16 cycles later (5 flits).
 * States (moesi, nmoesi): 0 I, 1 S, 2 E, 3 O, 4 M, 5 N. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "legacy_cfg.h"

#include "gpu/config.h"
#include "mem/cache.h"
#include "mem/coh.h"
#include "mem/detailed.h"
#include "ptx/ir.h"

/* The directory entry of coh_moesi.c, as it lays it out (test mirror). */
typedef struct {
    uint64_t sh, nsh;
    uint8_t owner, ost;
} dir_view;

static const char *const EQ_CLOCKS =
    "icnt.mhz=700,l2.mhz=700,gpu.mem_mhz=700,icnt.latency=10,l2.pipeline=15,l2.latency=5,"
    "dram.latency=30,l2.atomic_latency=3";

/* A test's prestate non-NULL: every cycle of every clock domain runs (the next-event
 * bounds are not used); the results must be the same. */
static int exh_of(void **state) { return state && *state; }

static memsys *make_x(const char *protocol, const char *extra, uint32_t n_sm, int exhaustive)
{
    ws_config cfg;
    char err[256], kv[128];
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg); /* the configuration the cycles below were worked out for */
    if (ws_config_set(&cfg, EQ_CLOCKS, err, sizeof err))
        fail_msg("%s", err);
    snprintf(kv, sizeof kv, "mem.protocol=%s", protocol);
    if (ws_config_set(&cfg, kv, err, sizeof err))
        fail_msg("%s", err);
    if (extra && ws_config_set(&cfg, extra, err, sizeof err))
        fail_msg("%s", err);
    memsys *m = mem_model_detailed.create(&cfg, n_sm);
    assert_non_null(m);
    if (exhaustive)
        mem_detailed_exhaustive(m, 1);
    return m;
}

#define make(p, e, n) make_x(p, e, n, exh_of(state))

static mem_req req(uint32_t sm, uint8_t kind, uint64_t addr, uint32_t bytes, uint8_t cop)
{
    return (mem_req){.addr = addr, .size = kind == MR_ATOMIC ? bytes : 128, .bytes_used = bytes,
                     .kind = kind, .space = SP_GLOBAL, .cop = cop, .sm = sm};
}

static mem_access at(memsys *m, mem_req *r, uint64_t c)
{
    memsys_tick(m, c);
    return memsys_access(m, r, c);
}

/* Ticks every cycle from `from` until r pops; returns the pop cycle. */
static uint64_t wait_for(memsys *m, const mem_req *r, uint64_t from)
{
    for (uint64_t c = from; c < from + 20000; c++) {
        memsys_tick(m, c);
        mem_req *d;
        while ((d = memsys_pop_done(m, r->sm, c)) != NULL)
            if (d == r) {
                assert_int_equal(d->t_done, c);
                return c;
            }
    }
    fail_msg("request never completed");
    return 0;
}

static const char *st(memsys *m, const coh_ops *p, uint32_t sm, uint64_t addr)
{
    cache *c = mem_detailed_l1d(m, sm);
    if (!(cache_line_flags(c, addr, addr) & CF_VALID))
        return "-";   /* not present */
    return p->state_name(cache_line_pstate(c, addr, addr));
}

static uint32_t l1_dirty(memsys *m, uint32_t sm, uint64_t addr)
{
    return cache_line_dirty_bytes(mem_detailed_l1d(m, sm), addr, addr);
}

static dir_view dir_of(memsys *m, uint64_t addr)
{
    uint64_t idx;
    cache *c = mem_detailed_l2_of(m, addr, &idx);
    dir_view d;
    memset(&d, 0, sizeof d);
    const uint8_t *b = cache_line_dir(c, addr, idx);
    assert_non_null(b);
    memcpy(&d.sh, b, 8);
    memcpy(&d.nsh, b + 8, 8);
    d.owner = b[16];
    d.ost = b[17];
    return d;
}

static uint32_t l2_dirty(memsys *m, uint64_t addr)
{
    uint64_t idx;
    cache *c = mem_detailed_l2_of(m, addr, &idx);
    return cache_line_dirty_bytes(c, addr, idx);
}

static double coh_stat(memsys *m, const char *obj, const char *key)
{
    cJSON *o = cJSON_CreateObject();
    mem_model_detailed.stats_json(m, o);
    cJSON *x = cJSON_GetObjectItem(o, obj);
    assert_non_null(x);
    cJSON *v = cJSON_GetObjectItem(x, key);
    assert_non_null(v);
    double r = v->valuedouble;
    cJSON_Delete(o);
    return r;
}

static void check_dir(memsys *m, uint64_t addr, uint64_t sh, uint64_t nsh, uint8_t owner,
                      uint8_t ost)
{
    dir_view d = dir_of(m, addr);
    assert_int_equal(d.sh, sh);
    assert_int_equal(d.nsh, nsh);
    assert_int_equal(d.owner, owner);
    assert_int_equal(d.ost, ost);
}

/* MOESI, three L1s, one line X (cold):
 *  1. SM0 load @0: L2 miss, nobody else holds X: E; done 0+109 = 109.
 *     dir {sh 0, owner SM0 in E}.
 *  2. SM1 load @200: P = 228, L2 hit (data 233); the owner is SM0 -> forward to SM0
 *     (queued for 234, at SM0 245: E -> S, clean: ack without data, at the L2 258);
 *     answer at 259, arrives 274. SM1 S. dir {sh 0,1, no owner (an E owner is a plain
 *     sharer after the forward)}.
 *  3. SM1 store 4 B @400: S -> upgrade miss (fetch with ownership). P = 428: hit; SM0
 *     invalidated (at SM0 445, ack at the L2 458); answer 459 -> 474. SM1 M with 4 dirty
 *     bytes, SM0 has no copy. dir {sh 1, owner SM1 in M}.
 *  4. SM2 load @600: P = 628, forward to SM1 (at SM1 645: M -> O, the ack carries its
 *     4 dirty bytes: 12 bytes, 1 flit, at the L2 658); answer 659 -> 674. SM2 S, SM1 O
 *     (keeps its dirty bytes). dir {sh 1,2, owner SM1 in O}.
 *  5. SM0 atomic @800 (4 bytes, 1 flit each way): P = 828, L2 hit, performed at 833;
 *     every copy invalidated: SM1 and SM2, queued for 834 and 835 (one packet per cycle
 *     out of the partition), at 845 and 846; SM1 returns 4 dirty bytes; acks at the L2
 *     858 and 859; answer at 859 + 3 (ALU) + 1 = 863, 1 flit: 874. No L1 copy;
 *     dir empty; SM1's bytes written into the L2 (a write-back at 858 + 15 = 873). */
static void test_moesi_sequence(void **state)
{
    const coh_ops *p = coh_find("moesi");
    assert_non_null(p);
    memsys *m = make("moesi", NULL, 3);
    const uint64_t X = 0x40000;
    mem_req a = req(0, MR_LOAD, X, 128, CO_NONE);
    assert_int_equal(at(m, &a, 0), MA_MISS);
    assert_int_equal(wait_for(m, &a, 1), 109);
    assert_string_equal(st(m, p, 0, X), "E");
    check_dir(m, X, 1, 0, 1, 2);

    mem_req b = req(1, MR_LOAD, X, 128, CO_NONE);
    assert_int_equal(at(m, &b, 200), MA_MISS);
    assert_int_equal(wait_for(m, &b, 201), 274);
    assert_string_equal(st(m, p, 0, X), "S");
    assert_string_equal(st(m, p, 1, X), "S");
    check_dir(m, X, 3, 0, 0, 0);

    mem_req c = req(1, MR_STORE, X, 4, CO_NONE);
    assert_int_equal(at(m, &c, 400), MA_MISS);   /* upgrade */
    assert_int_equal(wait_for(m, &c, 401), 474);
    assert_string_equal(st(m, p, 0, X), "-");
    assert_string_equal(st(m, p, 1, X), "M");
    assert_int_equal(l1_dirty(m, 1, X), 4);
    check_dir(m, X, 2, 0, 2, 4);
    /* M is written locally: a hit, done after the L1 latency */
    mem_req c2 = req(1, MR_STORE, X + 64, 4, CO_NONE);
    assert_int_equal(at(m, &c2, 500), MA_HIT);
    assert_int_equal(wait_for(m, &c2, 500), 501);
    assert_int_equal(l1_dirty(m, 1, X), 8);

    mem_req d = req(2, MR_LOAD, X, 128, CO_NONE);
    assert_int_equal(at(m, &d, 600), MA_MISS);
    assert_int_equal(wait_for(m, &d, 601), 674);
    assert_string_equal(st(m, p, 1, X), "O");
    assert_string_equal(st(m, p, 2, X), "S");
    assert_int_equal(l1_dirty(m, 1, X), 8);
    check_dir(m, X, 6, 0, 2, 3);

    mem_req e = req(0, MR_ATOMIC, X, 4, CO_NONE);
    assert_int_equal(at(m, &e, 800), MA_BYPASS);
    assert_int_equal(wait_for(m, &e, 801), 874);
    for (uint32_t s = 0; s < 3; s++)
        assert_string_equal(st(m, p, s, X), "-");
    check_dir(m, X, 0, 0, 0, 0);
    for (uint64_t t = 875; t < 900; t++)
        memsys_tick(m, t);
    /* SM1's write-back carries 8 bytes, the atomic 4; without byte masks both are
     * placed at the start of the line (docs/MEMORY.md 1): 8 distinct dirty bytes */
    assert_int_equal(l2_dirty(m, X), 8);
    assert_int_equal(coh_stat(m, "coherence", "transactions"), 5);
    assert_int_equal(coh_stat(m, "coherence", "invalidations"), 3);
    assert_int_equal(coh_stat(m, "coherence", "forwards"), 2);
    assert_int_equal(coh_stat(m, "coherence", "acks"), 5);
    assert_int_equal(coh_stat(m, "coherence", "ack_data_bytes"), 16);
    assert_false(memsys_busy(m));
    mem_model_detailed.destroy(m);
}

/* Race 1: two L1s miss on one line in the same cycle. SM0 stores 4 bytes to Y and SM1
 * loads Y, both @0. The request crossbar grants SM0's fetch at 1 and SM1's at 2 (one
 * packet per output and cycle): the L2 processes SM0's at 28 (miss: a transaction,
 * SM0 will get M) and finds Y busy for SM1's at 29: it waits. SM0's answer enters the
 * reply crossbar at 94 (done 109, M): Y is free, SM1's request is back at the head of
 * the bank's queue for L2 cycle 95: hit (data 100), owner SM0 in M -> forward, queued
 * for 101, at SM0 112 - after SM0's fill at 109, as the busy line guarantees - SM0 M ->
 * O, ack with 4 bytes at the L2 125, answer 126 -> 141. SM1 S. */
static void test_moesi_race_same_cycle(void **state)
{
    const coh_ops *p = coh_find("moesi");
    memsys *m = make("moesi", NULL, 2);
    const uint64_t Y = 0x80000;
    mem_req a = req(0, MR_STORE, Y, 4, CO_NONE), b = req(1, MR_LOAD, Y, 128, CO_NONE);
    memsys_tick(m, 0);
    assert_int_equal(memsys_access(m, &a, 0), MA_MISS);
    assert_int_equal(memsys_access(m, &b, 0), MA_MISS);
    assert_int_equal(wait_for(m, &a, 1), 109);
    assert_string_equal(st(m, p, 0, Y), "M");
    assert_int_equal(wait_for(m, &b, 110), 141);
    assert_string_equal(st(m, p, 0, Y), "O");
    assert_string_equal(st(m, p, 1, Y), "S");
    assert_int_equal(l1_dirty(m, 0, Y), 4);
    check_dir(m, Y, 3, 0, 1, 3);
    assert_int_equal(coh_stat(m, "coherence", "waited_busy_line"), 1);
    assert_int_equal(coh_stat(m, "coherence", "forwards"), 1);
    mem_model_detailed.destroy(m);
}

/* Race 2: an eviction crosses a forward. Direct-mapped 4 KB L1s (32 sets): Z and
 * W = Z + 4096 share a set (and sit in different partitions: 256-byte chunks over 6).
 *  SM0 stores 4 bytes to Z @0: ownership miss, done 109, M.
 *  SM1 loads Z @300: P = 328, owner SM0 in M -> forward queued for 334, at SM0 345.
 *  SM0 loads W @302: the miss evicts Z, whose 4 dirty bytes leave as a write-back (1
 *  flit, granted 303 - SM1's fetch held that output at 301 - at the L2 330: the
 *  directory drops SM0) and W's fetch (granted 304, P = 331, cold: done 331+81 = 412).
 *  The forward finds no Z at SM0: acknowledged without data (at SM0 345, ack at the L2
 *  358); SM1's answer uses the L2's data (written back at 330): 359 -> 374, S. */
static void test_moesi_race_evict_forward(void **state)
{
    const coh_ops *p = coh_find("moesi");
    memsys *m = make("moesi", "l1d.size=4096,l1d.ways=1", 2);
    const uint64_t Z = 0x10000, W = Z + 4096;
    mem_req a = req(0, MR_STORE, Z, 4, CO_NONE);
    assert_int_equal(at(m, &a, 0), MA_MISS);
    assert_int_equal(wait_for(m, &a, 1), 109);
    mem_req b = req(1, MR_LOAD, Z, 128, CO_NONE), w = req(0, MR_LOAD, W, 128, CO_NONE);
    assert_int_equal(at(m, &b, 300), MA_MISS);
    memsys_tick(m, 301);
    assert_int_equal(at(m, &w, 302), MA_MISS);
    assert_string_equal(st(m, p, 0, Z), "-");
    assert_int_equal(wait_for(m, &b, 303), 374);
    assert_int_equal(wait_for(m, &w, 375), 412);
    assert_string_equal(st(m, p, 1, Z), "S");
    assert_string_equal(st(m, p, 0, W), "E");
    check_dir(m, Z, 2, 0, 0, 0);
    assert_int_equal(l2_dirty(m, Z), 4);
    assert_int_equal(coh_stat(m, "coherence", "ack_data_bytes"), 0);
    mem_model_detailed.destroy(m);
}

/* SI (no directory, no messages), two L1s, line X:
 *  SM0 ld @0: miss, 109, V.   SM0 ld @200: GLC 0 hit, 201.
 *  SM0 ld.cg @300: GLC 1: a forced miss, the L2 hit answers: 349; still V.
 *  SM1 st 128 B @400 (full line, GLC 0), no line in SM1: written through without
 *    allocation: 5 flits, at the partition 416, P = 432, ack (1 flit) 438 -> 449.
 *    SM0's copy stays (SI sends no invalidation). L2: 128 dirty bytes.
 *  SM0 st 4 B @600 (partial, GLC 0): SM0's copy invalidated at once, write 1 flit:
 *    P = 628, ack 634 -> 645.
 *  SM1 ld @800: L2 hit, 849.  SM1 st 128 B @900: full-line GLC 0 write hit: the copy
 *    stays, without dirty bytes; done 949.  SM1 st.cg 128 B @1000: GLC 1: invalidated,
 *    done 1049.
 *  SM0 ld.cv @1100: GLC 1 + SLC 1: past the L1 and the L2 to DRAM: P = 1128, record
 *    1133, DRAM 1134, row still open (row hit): RD 1134, data 1150, + 30 = 1180, L2
 *    1181, reply 1182 (5 flits) -> 1197. Neither cache allocates. */
static void test_si_sequence(void **state)
{
    const coh_ops *p = coh_find("si");
    assert_non_null(p);
    memsys *m = make("si", NULL, 2);
    const uint64_t X = 0x40000;
    mem_req r[10];
    r[0] = req(0, MR_LOAD, X, 128, CO_NONE);
    assert_int_equal(at(m, &r[0], 0), MA_MISS);
    assert_int_equal(wait_for(m, &r[0], 1), 109);
    assert_string_equal(st(m, p, 0, X), "V");
    r[1] = req(0, MR_LOAD, X, 128, CO_CA);
    assert_int_equal(at(m, &r[1], 200), MA_HIT);
    assert_int_equal(wait_for(m, &r[1], 200), 201);
    r[2] = req(0, MR_LOAD, X, 128, CO_CG);
    assert_int_equal(at(m, &r[2], 300), MA_MISS);
    assert_int_equal(wait_for(m, &r[2], 301), 349);
    assert_string_equal(st(m, p, 0, X), "V");
    r[3] = req(1, MR_STORE, X, 128, CO_NONE);
    assert_int_equal(at(m, &r[3], 400), MA_BYPASS);
    assert_int_equal(wait_for(m, &r[3], 401), 449);
    assert_string_equal(st(m, p, 1, X), "-");
    assert_string_equal(st(m, p, 0, X), "V");
    assert_int_equal(l2_dirty(m, X), 128);
    r[4] = req(0, MR_STORE, X, 4, CO_NONE);
    assert_int_equal(at(m, &r[4], 600), MA_BYPASS);
    assert_string_equal(st(m, p, 0, X), "-");
    assert_int_equal(wait_for(m, &r[4], 601), 645);
    r[5] = req(1, MR_LOAD, X, 128, CO_NONE);
    assert_int_equal(at(m, &r[5], 800), MA_MISS);
    assert_int_equal(wait_for(m, &r[5], 801), 849);
    r[6] = req(1, MR_STORE, X, 128, CO_WB);
    assert_int_equal(at(m, &r[6], 900), MA_HIT);
    assert_int_equal(wait_for(m, &r[6], 901), 949);
    assert_string_equal(st(m, p, 1, X), "V");
    assert_int_equal(l1_dirty(m, 1, X), 0);
    r[7] = req(1, MR_STORE, X, 128, CO_CG);
    assert_int_equal(at(m, &r[7], 1000), MA_BYPASS);
    assert_string_equal(st(m, p, 1, X), "-");
    assert_int_equal(wait_for(m, &r[7], 1001), 1049);
    r[8] = req(0, MR_LOAD, X, 128, CO_CV);
    assert_int_equal(at(m, &r[8], 1100), MA_BYPASS);
    assert_int_equal(wait_for(m, &r[8], 1101), 1197);
    assert_string_equal(st(m, p, 0, X), "-");
    assert_int_equal(coh_stat(m, "dram", "reads"), 2);
    mem_model_detailed.destroy(m);
}

/* A full MSHR blocks every access under the seed-004 protocols (counted as MSHRF);
 * under nvidia a hit and a merge still go through. One MSHR entry; SM0 first brings
 * line H in (hit later), then misses on A (the entry is taken). */
static void test_mshr_full_blocks(void **state)
{
    static const char *const prot[] = {"nvidia", "si", "moesi", "nmoesi"};
    for (int i = 0; i < 4; i++) {
        memsys *m = make(prot[i], "l1d.mshr_entries=1", 1);
        mem_req h = req(0, MR_LOAD, 0x1000, 128, CO_NONE);
        assert_int_equal(at(m, &h, 0), MA_MISS);
        assert_int_equal(wait_for(m, &h, 1), 109);
        mem_req a = req(0, MR_LOAD, 0x2000, 128, CO_NONE), a2 = a, h2 = h;
        assert_int_equal(at(m, &a, 200), MA_MISS);
        mem_access hit = memsys_access(m, &h2, 200), merge = memsys_access(m, &a2, 200);
        if (i == 0) {
            assert_int_equal(hit, MA_HIT);
            assert_int_equal(merge, MA_MERGED);
        } else {
            assert_int_equal(hit, MA_MSHRF);
            assert_int_equal(merge, MA_MSHRF);
            assert_int_equal(coh_stat(m, "l1d", "resfail_mshrf"), 2);
        }
        mem_model_detailed.destroy(m);
    }
}

/* NMOESI, three L1s, line X:
 *  SM0 st 4 B @0: a non-coherent write miss: fetch without ownership, the directory
 *    records an N holder and sends nothing; done 109; SM0 N, 4 dirty bytes.
 *  SM1 st 4 B @200: the same, L2 hit: 249; SM1 N. Two N copies, no message.
 *  SM2 ld @400: a coherent read of a line others hold in N: not delayed, no message;
 *    S (not E: N holders count as holders); 449.
 *  SM2 st 4 B @500: S -> N locally, a hit: 501.
 *  SM0 atomic @600: every copy invalidated: messages queued for 634, 635, 636 (SM0,
 *    SM1, SM2), at the L1s 645..647, each returning its 4 dirty bytes; acks at the L2
 *    658, 659, 660; answer at 660 + 3 + 1 = 664, 1 flit: 675. The three write-backs
 *    reach the L2 (12 dirty bytes, plus the atomic's 4 on the same bytes: the line is
 *    marked from the first bytes of each: 4 distinct bytes).
 *  SM0 ld @800: nobody holds X: E, L2 hit, 849. */
static void test_nmoesi_sequence(void **state)
{
    const coh_ops *p = coh_find("nmoesi");
    assert_non_null(p);
    memsys *m = make("nmoesi", NULL, 3);
    const uint64_t X = 0x40000;
    mem_req a = req(0, MR_STORE, X, 4, CO_NONE);
    assert_int_equal(at(m, &a, 0), MA_MISS);
    assert_int_equal(wait_for(m, &a, 1), 109);
    assert_string_equal(st(m, p, 0, X), "N");
    assert_int_equal(l1_dirty(m, 0, X), 4);
    check_dir(m, X, 0, 1, 0, 0);
    mem_req b = req(1, MR_STORE, X, 4, CO_NONE);
    assert_int_equal(at(m, &b, 200), MA_MISS);
    assert_int_equal(wait_for(m, &b, 201), 249);
    assert_string_equal(st(m, p, 1, X), "N");
    check_dir(m, X, 0, 3, 0, 0);
    mem_req c = req(2, MR_LOAD, X, 128, CO_NONE);
    assert_int_equal(at(m, &c, 400), MA_MISS);
    assert_int_equal(wait_for(m, &c, 401), 449);
    assert_string_equal(st(m, p, 2, X), "S");
    check_dir(m, X, 4, 3, 0, 0);
    mem_req c2 = req(2, MR_STORE, X, 4, CO_NONE);
    assert_int_equal(at(m, &c2, 500), MA_HIT);
    assert_int_equal(wait_for(m, &c2, 500), 501);
    assert_string_equal(st(m, p, 2, X), "N");
    assert_int_equal(coh_stat(m, "coherence", "invalidations"), 0);
    mem_req d = req(0, MR_ATOMIC, X, 4, CO_NONE);
    assert_int_equal(at(m, &d, 600), MA_BYPASS);
    assert_int_equal(wait_for(m, &d, 601), 675);
    for (uint32_t s = 0; s < 3; s++)
        assert_string_equal(st(m, p, s, X), "-");
    check_dir(m, X, 0, 0, 0, 0);
    assert_int_equal(coh_stat(m, "coherence", "invalidations"), 3);
    assert_int_equal(coh_stat(m, "coherence", "ack_data_bytes"), 12);
    mem_req e = req(0, MR_LOAD, X, 128, CO_NONE);
    assert_int_equal(at(m, &e, 800), MA_MISS);
    assert_int_equal(wait_for(m, &e, 801), 849);
    assert_string_equal(st(m, p, 0, X), "E");
    assert_int_equal(l2_dirty(m, X), 4);
    mem_model_detailed.destroy(m);
}

/* l1d.mshr_policy=adaptive: 400 loads of distinct lines from one SM, one per cycle
 * when accepted (the LD/ST unit retrying a refused one). Invariants: every load
 * completes, the usable entries stay within [2, l1d.mshr_entries], the limit moved
 * (a window is 32 releases: 400 fills give 12 windows), and the in-use entries never
 * exceed the limit's maximum. Under fixed the report has no limit statistics. */
static void test_mshr_adaptive(void **state)
{
    (void)state;
    memsys *m = make_x("nmoesi", "l1d.mshr_entries=16,l1d.mshr_policy=adaptive", 1, 0);
    enum { N = 400 };
    mem_req *r = calloc(N, sizeof *r);
    assert_non_null(r);
    uint64_t c = 0;
    uint32_t done = 0;
    for (uint32_t i = 0; i < N || done < N; c++) {
        memsys_tick(m, c);
        while (memsys_pop_done(m, 0, c))
            done++;
        if (i < N) {
            r[i] = req(0, MR_LOAD, 0x100000 + (uint64_t)i * 128, 128, CO_NONE);
            if (!mem_access_refused(memsys_access(m, &r[i], c)))
                i++;
        }
        assert_true(c < 200000);
    }
    double mean = coh_stat(m, "l1d", "mshr_limit_mean");
    assert_true(mean >= 2 && mean <= 16);
    assert_true(coh_stat(m, "l1d", "mshr_limit_changes") >= 1);
    assert_true(coh_stat(m, "l1d", "mshr_occupancy_max") <= 16);
    free(r);
    mem_model_detailed.destroy(m);
    m = make_x("nmoesi", "l1d.mshr_entries=16", 1, 0);
    cJSON *o = cJSON_CreateObject();
    mem_model_detailed.stats_json(m, o);
    assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "l1d"), "mshr_limit_mean"));
    cJSON_Delete(o);
    mem_model_detailed.destroy(m);
}

static void test_registry(void **state)
{
    (void)state;
    char buf[128];
    coh_known(buf, sizeof buf);
    assert_string_equal(buf, "nvidia, si, moesi, nmoesi");
    assert_null(coh_find("mesi"));
    assert_non_null(coh_find("moesi")->on_dir);
    assert_null(coh_find("si")->on_dir);
    /* a directory protocol needs at most 64 SMs and equal L1D / L2 lines */
    ws_config cfg;
    char err[256];
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg); /* the configuration the cycles below were worked out for */
    assert_int_equal(ws_config_set(&cfg, "mem.protocol=moesi,l1d.line=64,l1d.sector=64", err,
                                   sizeof err), 0);
    assert_int_equal(mem_detailed_check(&cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, "l1d.line"));
}

int main(void)
{
    static const int on = 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moesi_sequence),
        cmocka_unit_test(test_moesi_race_same_cycle),
        cmocka_unit_test(test_moesi_race_evict_forward),
        cmocka_unit_test(test_si_sequence),
        cmocka_unit_test(test_mshr_full_blocks),
        cmocka_unit_test(test_nmoesi_sequence),
        cmocka_unit_test(test_mshr_adaptive),
        cmocka_unit_test(test_registry),
        /* the same with every cycle run: skipping idle cycles changes nothing */
        cmocka_unit_test_prestate(test_moesi_sequence, (void *)&on),
        cmocka_unit_test_prestate(test_moesi_race_same_cycle, (void *)&on),
        cmocka_unit_test_prestate(test_moesi_race_evict_forward, (void *)&on),
        cmocka_unit_test_prestate(test_si_sequence, (void *)&on),
        cmocka_unit_test_prestate(test_nmoesi_sequence, (void *)&on),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
