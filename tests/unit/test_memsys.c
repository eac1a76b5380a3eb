/* test_memsys.c - the detailed memory model end to end (src/mem/detailed.c) through the
 * mem_model interface of memsys.h, and the address mapping (src/mem/addrmap.c).
 *
 * The latency of an unloaded request is the sum of the pipeline pieces of
 * docs/MEMORY.md; each crossing into another clock domain lands on the first cycle of
 * the consumer strictly after the producer's cycle (L1 miss records: at or after their
 * ready time; replies reach the SM at the first core cycle at or after their arrival). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mem/addrmap.h"
#include "gpu/config.h"
#include "legacy_cfg.h"
#include "mem/detailed.h"
#include "ptx/ir.h"

static void set(ws_config *c, const char *kv)
{
    char err[256];
    if (ws_config_set(c, kv, err, sizeof err))
        fail_msg("%s", err);
}

static mem_req req(uint32_t sm, uint8_t kind, uint64_t addr)
{
    return (mem_req){.addr = addr, .size = 128, .bytes_used = 128, .kind = kind,
                     .space = kind == MR_IFETCH ? SP_NONE : SP_GLOBAL, .sm = sm};
}

/* Ticks every cycle from `from` until r pops (or `limit`); returns the pop cycle. */
static uint64_t wait_for(memsys *m, const mem_req *r, uint64_t from, uint64_t limit)
{
    for (uint64_t c = from; c < limit; c++) {
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

/* The memory system alone: the L1D answers l1d.latency cycles after the access. With
 * l1d.latency_queue (the GTX480 default) the SM's queue holds latency - 1 of those cycles
 * before the access reaches the memory system, which then answers 1 cycle after its
 * lookup (core/ldq.h; test_latency_gtx480 checks that the sum is the same). */
static void memsys_only(ws_config *cfg)
{
    cfg->l1d.latency_queue = false;
}

/* GTX480 defaults (configs/gtx480.ini, after GPGPU-Sim 4.2): core, interconnect and L2 at
 * 700 MHz, DRAM 924; L1 latency 35, interconnect latency 2, 8-byte headers in 40-byte flits
 * (a read request is 1 flit, a 128-byte reply 136 bytes = 4), a crossbar port per L2 bank,
 * L2 pipeline (ROP) 120 + L2 hit latency 1, DRAM tRCD 12 tCL 12, 4 bank groups (tCCDL 3),
 * 11 data cycles per 128 B (4 sectors of one 2-cycle burst each, l2.sector_requests, to one
 * bank, so one group: 3 apart),
 * DRAM return latency 132 (GPGPU-Sim's -dram_latency 100 core cycles in DRAM cycles).
 * Load at core cycle 0, L1 miss:
 *   miss record ready at core 35 = interconnect cycle 35 (at or after); granted at 35;
 *   at the partition at 35 + 2 + 1 = 38; L2 cycle 39 (strictly after), through the
 *   pipeline at 39 + 120 = 159: tag lookup, miss, record ready at 159 + 1 = 160;
 *   DRAM cycle floor(160 x 924 / 700) + 1 = floor(211.2) + 1 = 212;
 *   ACT 212, RD 224; the L2 fetches the line's 4 sectors as 4 column commands of one
 *   BL8 burst (2 cycles) each, tCCDL 3 apart: data done 224 + 12 + 3 x 3 + 2 = 247;
 *   + 132 = 379 = L2 cycle floor(379 x 700 / 924) + 1 = floor(287.1) + 1 = 288: the fill;
 *   reply ready at interconnect 289; arrives 289 + 2 + 4 = 295 = core cycle 295.
 *   (The DRAM schedules each column command on its own; with this line's alone in the
 *   queue nothing fills the gaps.)
 * Without bank groups (dram.bank_groups = 1) the commands are tCCD 2 apart: data done
 *   224 + 12 + 4 x 2 = 244, + 132 = 376 = L2 cycle floor(284.8) + 1 = 285, interconnect
 *   286, core 292.
 * The same line from another SM at core cycle c0 (now an L2 hit): record ready c0 + 35,
 *   interconnect c0 + 35, arrival c0 + 38, L2 c0 + 39, lookup c0 + 159, hit data at
 *   c0 + 160, reply at interconnect c0 + 161, arrival c0 + 167, core c0 + 167.
 * The same SM again: an L1 hit, c0 + 35. (The SM adds core.lat_pipeline, 6, to each.) */
static void test_latency_gtx480(void **state)
{
    (void)state;
    ws_config cfg;
    ws_config_defaults(&cfg);
    memsys_only(&cfg);
    memsys *m = mem_model_detailed.create(&cfg, 15);
    assert_non_null(m);
    mem_req a = req(0, MR_LOAD, 0x12300);
    memsys_tick(m, 0);
    assert_int_equal(memsys_probe(m, &a, 0), MA_MISS);
    assert_int_equal(memsys_access(m, &a, 0), MA_MISS);
    assert_true(memsys_busy(m));
    assert_int_equal(wait_for(m, &a, 1, 10000), 295);
    assert_false(memsys_busy(m));
    {   /* the same miss without bank groups: 292 */
        ws_config g = cfg;
        g.dram.bank_groups = 1;
        memsys *mg = mem_model_detailed.create(&g, 15);
        assert_non_null(mg);
        mem_req ag = req(0, MR_LOAD, 0x12300);
        memsys_tick(mg, 0);
        assert_int_equal(memsys_access(mg, &ag, 0), MA_MISS);
        assert_int_equal(wait_for(mg, &ag, 1, 10000), 292);
        mem_model_detailed.destroy(mg);
    }
    uint64_t c0 = 500;
    mem_req b = req(1, MR_LOAD, 0x12300), h = req(0, MR_LOAD, 0x12300);
    memsys_tick(m, c0);
    assert_int_equal(memsys_access(m, &b, c0), MA_MISS);
    assert_int_equal(memsys_access(m, &h, c0), MA_HIT);
    assert_int_equal(wait_for(m, &h, c0, 10000), c0 + 35);
    assert_int_equal(wait_for(m, &b, c0 + 2, 10000), c0 + 167);
    mem_model_detailed.destroy(m);
}

/* The same with l1d.latency_queue (the GTX480 default): the SM's queue holds an access
 * sent at core cycle 0 for 35 - 1 = 34 cycles, so it reaches the memory system at 34,
 * whose L1D answers 1 cycle after the lookup: the miss record is ready at 35 as above,
 * and the rest is unchanged: the fill at 295. The L1 hit looked up at c0 + 34 answers at
 * c0 + 35, the other SM's L2 hit (looked up at c0 + 34) at c0 + 167. */
static void test_latency_gtx480_queue(void **state)
{
    (void)state;
    ws_config cfg;
    ws_config_defaults(&cfg);
    assert_true(cfg.l1d.latency_queue);
    memsys *m = mem_model_detailed.create(&cfg, 15);
    assert_non_null(m);
    mem_req a = req(0, MR_LOAD, 0x12300);
    memsys_tick(m, 34);
    assert_int_equal(memsys_access(m, &a, 34), MA_MISS);
    assert_int_equal(wait_for(m, &a, 35, 10000), 295);
    uint64_t c0 = 500;
    mem_req b = req(1, MR_LOAD, 0x12300), h = req(0, MR_LOAD, 0x12300);
    memsys_tick(m, c0 + 34);
    assert_int_equal(memsys_access(m, &b, c0 + 34), MA_MISS);
    assert_int_equal(memsys_access(m, &h, c0 + 34), MA_HIT);
    assert_int_equal(wait_for(m, &h, c0 + 34, 10000), c0 + 35);
    assert_int_equal(wait_for(m, &b, c0 + 36, 10000), c0 + 167);
    mem_model_detailed.destroy(m);
}

/* A memory system kept across launches (mem.keep_state): launch_end invalidates the L1Ds
 * (GPGPU-Sim's -gpgpu_flush_l1_cache), the L2 keeps its lines, and launch_begin restarts
 * the statistics. The line is fetched from DRAM (295 cycles, test_latency_gtx480), hits
 * in the L1 (35); after the flush the same load misses the L1 and hits the L2 (167). */
static void test_keep_state(void **state)
{
    (void)state;
    ws_config cfg;
    ws_config_defaults(&cfg);
    memsys_only(&cfg);
    memsys *m = mem_model_detailed.create(&cfg, 15);
    assert_non_null(m);
    mem_model_detailed.launch_begin(m, 0);
    mem_req a = req(0, MR_LOAD, 0x12300);
    memsys_tick(m, 0);
    assert_int_equal(memsys_access(m, &a, 0), MA_MISS);
    assert_int_equal(wait_for(m, &a, 1, 10000), 295);
    memsys_tick(m, 400);
    assert_int_equal(memsys_access(m, &a, 400), MA_HIT);
    assert_int_equal(wait_for(m, &a, 400, 10000), 435);
    mem_model_detailed.launch_end(m, 500);
    mem_model_detailed.launch_begin(m, 501);
    memsys_tick(m, 600);
    assert_int_equal(memsys_access(m, &a, 600), MA_MISS);
    assert_int_equal(wait_for(m, &a, 601, 10000), 600 + 167);
    cJSON *o = cJSON_CreateObject();
    mem_model_detailed.stats_json(m, o);
    cJSON *l1 = cJSON_GetObjectItem(o, "l1d"), *l2 = cJSON_GetObjectItem(o, "l2");
    assert_int_equal(cJSON_GetObjectItem(l1, "accesses")->valuedouble, 1);   /* this launch only */
    assert_int_equal(cJSON_GetObjectItem(l1, "misses")->valuedouble, 1);
    assert_int_equal(cJSON_GetObjectItem(l2, "hits")->valuedouble, 1);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "dram"), "reads")->valuedouble, 0);
    assert_true(cJSON_GetObjectItem(o, "core_cycles")->valuedouble < 300);
    cJSON_Delete(o);
    mem_model_detailed.destroy(m);
}

/* A host-to-device copy installs its sectors in the L2 (l2.fill_on_copy, GPGPU-Sim's
 * -gpgpu_perf_sim_memcpy): a load of a copied line is then an L2 hit (the 167 cycles of
 * test_latency_gtx480), a line the copy did not touch still goes to DRAM (295); with
 * fill_on_copy off the copied line misses too. A line the copy covered in part misses on
 * its other sectors (a sector miss goes to DRAM). */
static void test_copy_fills_l2(void **state)
{
    (void)state;
    for (int on = 1; on >= 0; on--) {
        ws_config cfg;
        ws_config_defaults(&cfg);
        memsys_only(&cfg);
        if (!on)
            set(&cfg, "l2.fill_on_copy=false");
        memsys *m = mem_model_detailed.create(&cfg, 15);
        assert_non_null(m);
        /* all of line 0x12300, the first 3 sectors of 0x12380 (72 bytes) */
        mem_model_detailed.host_write(m, 0x12300, 200);
        mem_req a = req(0, MR_LOAD, 0x12300), b = req(1, MR_LOAD, 0x12400);
        memsys_tick(m, 0);
        assert_int_equal(memsys_access(m, &a, 0), MA_MISS);
        assert_int_equal(wait_for(m, &a, 1, 10000), on ? 167 : 295);
        memsys_tick(m, 1000);
        assert_int_equal(memsys_access(m, &b, 1000), MA_MISS);
        assert_int_equal(wait_for(m, &b, 1001, 10000), 1000 + 295);
        mem_req c = req(2, MR_LOAD, 0x12380);
        memsys_tick(m, 2000);
        assert_int_equal(memsys_access(m, &c, 2000), MA_MISS);
        assert_true(wait_for(m, &c, 2001, 10000) > 2000 + 167);
        mem_model_detailed.destroy(m);
    }
}

/* l2.sector_requests: the L2 serves a request sector by sector, one L2 port cycle per
 * sector (GPGPU-Sim's sectored L2). One channel with one L2 bank (every line in it); line
 * 0x40000 is in the L2 (a host copy), 0x12300 is not. At core cycle 0 SM 0 loads 0x12300
 * and SM 1 0x40000, each an L1 miss. SM 0's flit is through the L2 pipeline at L2 cycle
 * 159 (test_latency_gtx480) and misses; SM 1's crosses the same crossbar port one cycle
 * later, through the pipeline at 160. With sector requests SM 0's 4 sectors hold the
 * port for L2 cycles 159..162: SM 1's lookup is at 163, its hit reply at core 167 + 4 =
 * 171 (SM 0's reply waits for DRAM and is not in its way); without, at 160: 168. */
static void test_l2_sector_port(void **state)
{
    (void)state;
    for (int on = 1; on >= 0; on--) {
        ws_config cfg;
        ws_config_defaults(&cfg);
        memsys_only(&cfg);
        set(&cfg, "dram.channels=1,l2.banks=1");
        if (!on)
            set(&cfg, "l2.sector_requests=false");
        memsys *m = mem_model_detailed.create(&cfg, 15);
        assert_non_null(m);
        mem_model_detailed.host_write(m, 0x40000, 128);
        mem_req a = req(0, MR_LOAD, 0x12300), b = req(1, MR_LOAD, 0x40000);
        memsys_tick(m, 0);
        assert_int_equal(memsys_access(m, &a, 0), MA_MISS);
        assert_int_equal(memsys_access(m, &b, 0), MA_MISS);
        assert_int_equal(wait_for(m, &b, 1, 10000), on ? 171 : 168);
        mem_model_detailed.destroy(m);
    }
}

/* All clocks 700 MHz: every crossing costs exactly one cycle, so (F = reply flits; L2 =
 * the L2 pipeline + the L2 hit latency, which a miss also waits before leaving)
 *   load miss   = L1 1 + (Li + 1 flit) + 1 + L2 + 1 + tRCD + tCL + B + Dl + 1 + 1 + Li + F
 *               = 2 Li + L2 + tRCD + tCL + B + Dl + F + 6
 *   store (L2 write-back, lazy allocation, acknowledged by a 1-flit reply; the request
 *   carries 128 bytes: 5 flits)
 *               = 1 + (Li + 5) + 1 + L2 + 1 + Li + 1 = 2 Li + L2 + 9
 *   atomic (4 bytes each way: 1 flit; cold line: performed at the fill, + atomic ALU)
 *               = 2 Li + L2 + tRCD + tCL + B + Dl + A + 1 + 6
 * With Li 10, L2 15 + 5, tRCD 12, tCL 12, B 4, Dl 30, A 3: 109, 49, 108. */
static memsys *equal_clocks_model(void)
{
    ws_config cfg;
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    set(&cfg, "icnt.mhz=700,l2.mhz=700,gpu.mem_mhz=700,icnt.latency=10,l2.pipeline=15,l2.latency=5,"
              "dram.latency=30,l2.atomic_latency=3");
    memsys *m = mem_model_detailed.create(&cfg, 2);
    assert_non_null(m);
    return m;
}

static void test_latency_equal_clocks(void **state)
{
    (void)state;
    memsys *m = equal_clocks_model();
    mem_req ld = req(0, MR_LOAD, 0x40000);
    memsys_tick(m, 0);
    assert_int_equal(memsys_access(m, &ld, 0), MA_MISS);
    assert_int_equal(wait_for(m, &ld, 1, 10000), 109);
    mem_req st = req(1, MR_STORE, 0x80000);
    memsys_tick(m, 1000);
    assert_int_equal(memsys_access(m, &st, 1000), MA_BYPASS);   /* write-evict: no line */
    assert_int_equal(wait_for(m, &st, 1001, 10000), 1000 + 49);
    mem_req at = req(1, MR_ATOMIC, 0xc0000);
    at.bytes_used = 4;
    memsys_tick(m, 2000);
    assert_int_equal(memsys_access(m, &at, 2000), MA_BYPASS);
    assert_int_equal(wait_for(m, &at, 2001, 10000), 2000 + 108);
    /* the atomic's line is now in L2: a second one is an L2 hit + ALU:
     * 1 + (Li + 1) + 1 + L2 + A + 1 + Li + 1 = 2 Li + L2 + A + 5 = 48 */
    memsys_tick(m, 3000);
    assert_int_equal(memsys_access(m, &at, 3000), MA_BYPASS);
    assert_int_equal(wait_for(m, &at, 3001, 10000), 3000 + 48);
    cJSON *o = cJSON_CreateObject();
    mem_model_detailed.stats_json(m, o);
    cJSON *l2 = cJSON_GetObjectItem(o, "l2");
    assert_int_equal(cJSON_GetObjectItem(l2, "atomics")->valuedouble, 2);
    assert_int_equal(cJSON_GetObjectItem(l2, "writes")->valuedouble, 1);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "dram"), "reads")->valuedouble, 2);
    cJSON_Delete(o);
    mem_model_detailed.destroy(m);
}

/* memsys.h pop_t: the detailed model publishes each SM's earliest completion, read
 * inline by memsys_pop_done. With the clocks of test_latency_equal_clocks a cold load
 * of SM 1 at cycle 0 completes at 109: SM 1's word is then 109, SM 0's stays
 * UINT64_MAX, and nothing pops before 109. */
static void test_pop_word(void **state)
{
    (void)state;
    memsys *m = equal_clocks_model();
    assert_non_null(m->pop_t);
    assert_int_equal(m->pop_n, 2);
    assert_int_equal(m->pop_off, 0);
    const uint64_t *w0 = m->pop_t, *w1 = (const uint64_t *)((const char *)m->pop_t + m->pop_stride);
    assert_true(*w0 == UINT64_MAX && *w1 == UINT64_MAX);
    mem_req ld = req(1, MR_LOAD, 0x40000);
    memsys_tick(m, 0);
    assert_int_equal(memsys_access(m, &ld, 0), MA_MISS);
    for (uint64_t c = 1; c < 109; c++) {
        memsys_tick(m, c);
        assert_null(memsys_pop_done(m, 1, c));
    }
    memsys_tick(m, 109);
    assert_int_equal(*w1, 109);
    assert_true(*w0 == UINT64_MAX);
    /* the word alone decides "nothing": pointed at a word that says never, the header
     * pops nothing (the request is due); leaving SM 1 out (pop_n), it asks the model */
    const uint64_t never = UINT64_MAX;
    const memsys hdr = *m;
    m->pop_t = &never;
    m->pop_stride = 0;
    assert_null(memsys_pop_done(m, 1, 109));
    m->pop_n = 1;
    assert_ptr_equal(memsys_pop_done(m, 1, 109), &ld);
    *m = hdr;
    assert_true(*w1 == UINT64_MAX);
    mem_model_detailed.destroy(m);
}

/* ld.cg bypasses the L1 (BYPASS every time, no line allocated); constant and parameter
 * loads use the L1C, instruction fetches the L1I. */
static void test_routing(void **state)
{
    (void)state;
    ws_config cfg;
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    memsys *m = mem_model_detailed.create(&cfg, 1);
    mem_req cg = req(0, MR_LOAD, 0x1000);
    cg.cop = CO_CG;
    memsys_tick(m, 0);
    assert_int_equal(memsys_access(m, &cg, 0), MA_BYPASS);
    wait_for(m, &cg, 1, 10000);
    memsys_tick(m, 1000);
    assert_int_equal(memsys_access(m, &cg, 1000), MA_BYPASS);
    /* now an L2 hit: the L2-hit round trip of test_latency_gtx480 */
    assert_int_equal(wait_for(m, &cg, 1001, 10000), 1000 + 111);
    mem_req k = req(0, MR_LOAD, 0x2000), p = req(0, MR_LOAD, 0x2040), f = req(0, MR_IFETCH, 0x100);
    k.space = SP_CONST;
    k.size = 4;
    p.space = SP_PARAM;
    f.size = 16;
    memsys_tick(m, 2000);
    assert_int_equal(memsys_access(m, &k, 2000), MA_MISS);
    assert_int_equal(memsys_access(m, &f, 2000), MA_MISS);
    memsys_tick(m, 2001);
    assert_int_equal(memsys_access(m, &p, 2001), MA_MISS);   /* next 64-byte L1C line */
    wait_for(m, &p, 2001, 10000);
    cJSON *o = cJSON_CreateObject();
    mem_model_detailed.stats_json(m, o);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "l1d"), "bypasses")->valuedouble, 2);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "l1d"), "misses")->valuedouble, 0);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "l1c"), "misses")->valuedouble, 2);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "l1i"), "misses")->valuedouble, 1);
    /* the two L1C lines 0x2000 and 0x2040 share the L2 line 0x2000: one DRAM read for
     * them, plus 0x1000 and the instruction line */
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "dram"), "reads")->valuedouble, 3);
    cJSON_Delete(o);
    mem_model_detailed.destroy(m);
}

/* ---- idle-skip equivalence -------------------------------------------------------------- */
#define NSM 4
#define NREQ 150

typedef struct {
    mem_req r[NSM][NREQ];
    uint64_t at[NSM][NREQ];          /* earliest issue cycle                            */
    uint64_t accepted[NSM][NREQ], done[NSM][NREQ];
    uint64_t refusals;
    uint64_t blocks;                 /* mem_detailed_blocks at the end                 */
    uint64_t stalls;                 /* mem_detailed_stalls at the end                 */
    uint64_t sleeps[3];              /* mem_detailed_sleeps at the end                 */
    uint64_t roused;                 /* SMs memsys.h roused named                      */
    cJSON *stats;
    cJSON *mid;                      /* the statistics after the tick of cycle MID, in
                                        the runs that tick every cycle (NULL: none)     */
} script;
#define MID 1500

static void make_script(script *s)
{
    memset(s, 0, sizeof *s);
    uint64_t x = 2024;
    for (uint32_t sm = 0; sm < NSM; sm++) {
        uint64_t t = 0;
        for (int i = 0; i < NREQ; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t r = (uint32_t)(x >> 33);
            uint32_t k = r % 100;
            /* 96 lines over 16 KB: conflicts in the small L1, reuse in L2 */
            uint64_t addr = (uint64_t)((r >> 8) % 96) * 128 + ((r >> 20) % 4) * 0x10000;
            mem_req q = req(sm, MR_LOAD, addr);
            if (k < 12)
                q.kind = MR_STORE, q.bytes_used = 64;
            else if (k < 17)
                q.kind = MR_ATOMIC, q.bytes_used = 16;
            else if (k < 22)
                q.cop = CO_CG;
            else if (k < 27)
                q.space = SP_CONST, q.size = 64;
            else if (k < 32)
                q.kind = MR_IFETCH, q.space = SP_NONE, q.size = 16;
            else if (k < 36)
                q.space = SP_LOCAL;
            else if (k < 40)
                q.kind = MR_STORE, q.space = SP_LOCAL, q.bytes_used = 128;
            q.tag = (uint32_t)i;
            s->r[sm][i] = q;
            /* bursts of back-to-back requests, then gaps */
            t += (r >> 28) % 4 == 0 ? 40 + (r >> 24) % 200 : 0;
            s->at[sm][i] = t;
        }
    }
}

/* the memory report less its host counts (mem.l2_ahead's cycles run ahead, which the
 * drivers below change: every statistic is the same, test_ahead) */
static void no_host(cJSON *o)
{
    cJSON_DeleteItemFromObject(o, "host_ahead_l2_cycles");
    cJSON_DeleteItemFromObject(o, "host_ahead_dram_cycles");
}

/* jump = 0: tick every cycle; 1: jump to the next event (memory or script); 2: tick
 * every cycle, and the memory system runs every cycle of every domain; 3: tick every
 * cycle in the three steps of the parallel timing model (memsys.h par_parts): the
 * serial step, the partitions (last first: their order must not matter), the SMs'
 * calls, then the join, after which an SM that had an event asks again when the join
 * says the shared terms changed (as the GPU's commit does).
 * When ticking, each SM also checks memsys_next_event_sm: the bound is taken when the
 * SM has an event (a pop, an accepted request, or a first refusal) and the SM then
 * "sleeps": no pop, and no success of a refused request, may come before it, unless the
 * memory system rouses it (memsys.h roused, read after each tick: the bound drops to
 * that cycle). */
static void run_script(const ws_config *cfg, script *s, int jump)
{
    memsys *m = mem_model_detailed.create(cfg, NSM);
    assert_non_null(m);
    if (jump == 2) {
        mem_detailed_exhaustive(m, 1);
        jump = 0;
    }
    const int split = jump == 3;
    if (split)
        jump = 0;
    int next[NSM] = {0}, blocked[NSM] = {0}, left = NSM * NREQ, ev[NSM];
    uint64_t pred[NSM] = {0};
    uint64_t c = 0;
    while (left > 0) {
        assert_true(c < 2000000);
        if (split) {
            uint32_t nj = 0;
            const uint32_t *parts;
            mem_model_detailed.tick_serial(m, c, &parts, &nj);
            for (uint32_t j = nj; j-- > 0;)
                mem_model_detailed.tick_part(m, parts[j], c);
        } else {
            memsys_tick(m, c);
        }
        if (c == MID && !jump && !split) {
            /* in flight (banks asleep among them): what a statistics read sees */
            s->mid = cJSON_CreateObject();
            mem_model_detailed.stats_json(m, s->mid);
            no_host(s->mid);
        }
        for (uint32_t sm = 0; sm < NSM; sm++)
            if (m->roused[0] >> sm & 1) {
                pred[sm] = c;
                s->roused++;
            }
        assert_true(m->roused[0] >> NSM == 0);
        m->roused[0] = 0;
        uint64_t want = UINT64_MAX;
        int again = 0;
        for (uint32_t sm = 0; sm < NSM; sm++) {
            int event = 0;
            mem_req *d;
            while ((d = memsys_pop_done(m, sm, c)) != NULL) {
                /* never popped after its data was ready: nothing was skipped over */
                assert_int_equal(d->t_done, c);
                if (!jump)
                    assert_true(c >= pred[sm]);
                s->done[sm][d->tag] = c;
                left--;
                event = 1;
            }
            if (next[sm] < NREQ && s->at[sm][next[sm]] <= c) {
                mem_req *q = &s->r[sm][next[sm]];
                mem_access a = memsys_access(m, q, c);
                if (mem_access_refused(a)) {
                    s->refusals++;
                    event |= !blocked[sm];
                    blocked[sm] = 1;
                } else {
                    if (blocked[sm] && !jump)
                        assert_true(c >= pred[sm]);
                    event = 1;
                    blocked[sm] = 0;
                    s->accepted[sm][next[sm]] = c;
                    next[sm]++;
                    /* it may issue again next cycle */
                    again |= next[sm] < NREQ && s->at[sm][next[sm]] <= c + 1;
                }
            }
            if (next[sm] < NREQ && s->at[sm][next[sm]] > c && s->at[sm][next[sm]] < want)
                want = s->at[sm][next[sm]];
            if ((ev[sm] = event) != 0)
                pred[sm] = memsys_next_event_sm(m, sm, c);
        }
        if (split && mem_model_detailed.tick_join(m, c) & 2)
            for (uint32_t sm = 0; sm < NSM; sm++)
                if (ev[sm])
                    pred[sm] = memsys_next_event_sm_late(m, sm, c);
        if (!jump) {
            c++;
            continue;
        }
        /* a refused SM waits for the memory system to change */
        uint64_t ne = again ? c + 1 : memsys_next_event(m, c);
        if (want < ne)
            ne = want;
        assert_true(ne > c);
        if (ne == UINT64_MAX)
            break;
        c = ne;
    }
    assert_int_equal(left, 0);
    assert_false(memsys_busy(m));
    s->stats = cJSON_CreateObject();
    mem_model_detailed.stats_json(m, s->stats);
    no_host(s->stats);
    s->blocks = mem_detailed_blocks(m);
    s->stalls = mem_detailed_stalls(m);
    mem_detailed_sleeps(m, s->sleeps);
    mem_model_detailed.destroy(m);
}

static void equivalence(const char *overrides, int coverage, int splits)
{
    ws_config cfg;
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    /* small buffers so that every kind of refusal and backpressure happens */
    set(&cfg, "l1d.size=4096,l1d.mshr_entries=4,l1d.mshr_merges=2,l1d.miss_queue=2,"
              "l2.size=16384,l2.in_queue=2,l2.out_queue=2,l2.mshr_entries=4,l2.mshr_merges=2,"
              "l2.miss_queue=2,dram.channels=2,gpu.mem_bus_bits=128,dram.queue=2,"
              "icnt.in_buf=5,icnt.out_buf=5,dram.latency=50,l2.out_queue=1,l2.latency=20,"
              "icnt.mhz=700");
    /* the partitions' split ticks (memsys.h par_parts) run only without the L2 and DRAM
     * ahead of the crossbar (mem.l2_ahead: test_ahead, and a variant below) */
    set(&cfg, "mem.l2_ahead=false");
    if (overrides)
        set(&cfg, overrides);
    script *a = malloc(sizeof *a), *b = malloc(sizeof *b), *e = malloc(sizeof *e),
           *p = malloc(sizeof *p);
    make_script(a);
    make_script(b);
    make_script(e);
    make_script(p);
    run_script(&cfg, a, 0);
    run_script(&cfg, b, 1);
    run_script(&cfg, e, 2);
    run_script(&cfg, p, 3);
    for (int sm = 0; sm < NSM; sm++)
        for (int i = 0; i < NREQ; i++) {
            assert_int_equal(a->accepted[sm][i], b->accepted[sm][i]);
            assert_int_equal(a->done[sm][i], b->done[sm][i]);
            assert_int_equal(a->accepted[sm][i], e->accepted[sm][i]);
            assert_int_equal(a->done[sm][i], e->done[sm][i]);
            assert_int_equal(a->accepted[sm][i], p->accepted[sm][i]);
            assert_int_equal(a->done[sm][i], p->done[sm][i]);
        }
    /* running every domain cycle changes nothing at all, nor do the split ticks (the
     * statistics included: packets_max_in_flight is replayed in the serial order); nor
     * do the blocked SMs, which the exhaustive run has none of: their refusals (icnt
     * refused) are the exhaustive run's */
    assert_true(e->blocks == 0 && e->stalls == 0 && !e->sleeps[0] && !e->sleeps[1] && !e->sleeps[2]);
    const int p_blocks = p->blocks > 0 && p->roused > 0, p_stalls = p->stalls > 0;
    const int p_sleeps = p->sleeps[0] > 0 && p->sleeps[2] > 0;
    assert_true(cJSON_Compare(a->stats, e->stats, 1));
    assert_true(cJSON_Compare(a->stats, p->stats, 1));
    /* and so do the statistics read in flight (a sleeping L2 bank's refusals up to then
     * are counted: l2_pending); not with mem.l2_ahead, whose reads in flight see the L2
     * and DRAM cycles run ahead, as far as each driver's runs went */
    assert_true(a->mid && e->mid);
    if (!cfg.mem.l2_ahead)
        assert_true(cJSON_Compare(a->mid, e->mid, 1));
    cJSON_Delete(a->mid);
    cJSON_Delete(e->mid);
    cJSON_Delete(e->stats);
    cJSON_Delete(p->stats);
    free(e);
    free(p);
    /* whether these clocks split the ticks (det_create's par_ok) */
    memsys *m = mem_model_detailed.create(&cfg, NSM);
    assert_true((mem_model_detailed.par_parts(m) != 0) == splits);
    mem_model_detailed.destroy(m);
    /* everything below the L1s is identical (the L1s' refusal counters differ: the
     * ticking driver retries every cycle) */
    static const char *const same[] = {"l2", "icnt", "dram", "load_latency_mean"};
    for (int i = 0; i < 4; i++)
        assert_true(cJSON_Compare(cJSON_GetObjectItem(a->stats, same[i]),
                                  cJSON_GetObjectItem(b->stats, same[i]), 1));
    /* the base scenario exercises what it should */
    cJSON *l1d = cJSON_GetObjectItem(a->stats, "l1d"), *l2 = cJSON_GetObjectItem(a->stats, "l2");
    if (!coverage)
        goto out;
    assert_true(cJSON_GetObjectItem(l1d, "resfail_csf")->valuedouble +
                cJSON_GetObjectItem(l1d, "resfail_mshrf")->valuedouble > 0);
    assert_true(cJSON_GetObjectItem(l1d, "resfail_mqf")->valuedouble > 0);
    assert_true(cJSON_GetObjectItem(l1d, "hits")->valuedouble > 0);
    assert_true(cJSON_GetObjectItem(l2, "hits")->valuedouble > 0);
    assert_true(cJSON_GetObjectItem(l2, "writebacks")->valuedouble > 0);
    assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(a->stats, "dram"), "writes")->valuedouble > 0);
    assert_true(a->refusals > b->refusals);
    /* SMs blocked, and roused: a blocked SM's bound leaves its miss records out, and
     * every SM's bound the replies not yet granted to it, so the checks above (no pop,
     * no success before the bound, unless roused) fail without the rouse */
    assert_true(a->blocks > 0 && a->roused > 0 && p_blocks);
    /* crossbar ports set aside behind a full L2 bank (l2.in_queue 2), serially and in
     * the split ticks (the join clears them): the equivalence above fails when a port is
     * not visited again once its bank has room */
    assert_true(a->stalls > 0 && p_stalls);
    /* L2 banks asleep behind a refused head (its refusals counted as the exhaustive
     * run's visits count them: the statistics compare above), behind full reply queues
     * and behind a full DRAM queue, serially and in split ticks */
    assert_true(a->sleeps[0] > 0 && a->sleeps[1] > 0 && a->sleeps[2] > 0 && p_sleeps);
out:
    cJSON_Delete(a->stats);
    cJSON_Delete(b->stats);
    free(a);
    free(b);
}

static void test_idle_skip_equivalence(void **state)
{
    (void)state;
    equivalence(NULL, 1, 1);
}

/* Same with other clocks, FIFO DRAM scheduling, sectored caches, fetch-on-write, the
 * superblock mapping, random replacement and refresh. */
static void test_idle_skip_equivalence_variants(void **state)
{
    (void)state;
    equivalence("gpu.core_mhz=1000,icnt.mhz=733,l2.mhz=650,gpu.mem_mhz=1375,dram.sched=fifo,"
                "l1d.sector=32,l2.sector=32,l2.write_alloc=fetch,l1d.repl=random,"
                "dram.refresh=true,dram.trefi=700", 0, 0);
    /* an interconnect at twice the L2's clock, both below the core's: split */
    equivalence("gpu.core_mhz=1000,icnt.mhz=800,l2.mhz=400,gpu.mem_mhz=1375", 0, 1);
    /* an interconnect faster than the core: serial ticks */
    equivalence("icnt.mhz=1400", 0, 0);
    /* DRAM queues of one request: L2 banks wait for DRAM room all the time; with the
     * clocks above, split ticks asked of a model that does not split them (the GPU never
     * does) run serially (this differed by a cycle before det_tick_serial checked) */
    equivalence("dram.queue=1", 0, 1);
    equivalence("icnt.mhz=1400,dram.queue=1", 0, 0);
    /* the L2 and DRAM ahead of the crossbar (mem.l2_ahead, the default; then no split
     * ticks), with reply queues deep enough for L2 cycles to run ahead: the same */
    equivalence("mem.l2_ahead=true,l2.out_queue=8", 0, 0);
    equivalence("dram.channels=4,gpu.mem_bus_bits=256,addr.map=superblock,l2.banks=2,"
                "l2.repl=fifo,l1d.global_store=through,addr.bank_xor=true", 0, 1);
    /* the SI topology: shared L1C and L1I, 2 channels per L2 partition, no coalescers */
    equivalence("dram.channels=8,dram.channels_per_l2=2,gpu.mem_bus_bits=256,addr.map=superblock,"
                "l1c.shared_by=2,l1i.shared_by=4,l1d.coalesce=false,l2.coalesce=false", 0, 1);
}

/* A kernel's worth of streaming misses from one SM through tiny queues: the L1 sees MQF
 * (the crossbar refuses, the miss queue fills), and everything still completes. */
static void test_backpressure_mqf(void **state)
{
    (void)state;
    ws_config cfg;
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    set(&cfg, "l1d.miss_queue=2,l2.in_queue=1,icnt.in_buf=5,icnt.out_buf=5,l2.latency=200");
    memsys *m = mem_model_detailed.create(&cfg, 1);
    mem_req r[64];
    int sent = 0, done = 0, mqf = 0;
    for (uint64_t c = 0; c < 100000 && done < 64; c++) {
        memsys_tick(m, c);
        while (memsys_pop_done(m, 0, c))
            done++;
        if (sent < 64) {
            r[sent] = req(0, MR_LOAD, (uint64_t)sent * 256 * 6);   /* all to partition 0 */
            mem_access a = memsys_access(m, &r[sent], c);
            if (a == MA_MQF)
                mqf++;
            else if (!mem_access_refused(a))
                sent++;
        }
    }
    assert_int_equal(done, 64);
    assert_true(mqf > 0);
    cJSON *o = cJSON_CreateObject();
    mem_model_detailed.stats_json(m, o);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "l1d"), "resfail_mqf")->valuedouble, mqf);
    assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "icnt"), "refused")->valuedouble > 0);
    /* statistics named as documented */
    static const char *const keys[] = {"hit_ratio", "merges", "resfail_csf", "resfail_mshrf",
                                       "mshr_occupancy_mean", "mshr_occupancy_max", "writebacks"};
    for (int i = 0; i < 7; i++) {
        assert_non_null(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "l2"), keys[i]));
        assert_non_null(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "l1d"), keys[i]));
    }
    cJSON *dr = cJSON_GetObjectItem(o, "dram");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(dr, "per_channel")), 6);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "l2"), "per_bank")), 6);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "l1d"), "per_sm")), 1);
    assert_non_null(cJSON_GetObjectItem(dr, "row_hit_rate"));
    assert_non_null(cJSON_GetObjectItem(dr, "bandwidth_util"));
    assert_non_null(cJSON_GetObjectItem(dr, "mean_queue_latency"));
    assert_non_null(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "icnt"), "mean_latency"));
    /* 64 lines at 6 x 256 B strides all in partition 0: 64 DRAM reads; rows are
     * 4 KB of partition-local space = 16 of these lines, so most are row hits */
    assert_int_equal(cJSON_GetObjectItem(dr, "reads")->valuedouble, 64);
    assert_true(cJSON_GetObjectItem(dr, "row_hit_rate")->valuedouble > 0.5);
    cJSON_Delete(o);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    mem_model_detailed.dump(m, f);
    fclose(f);
    assert_non_null(strstr(buf, "detailed memory"));
    free(buf);
    mem_model_detailed.destroy(m);
}

/* memsys.h repeat: an SM cycle whose only memory call was a refused access, repeated
 * while nothing changed for the SM (its L1, its responses), counts the refusal again
 * and answers next_event_sm; otherwise it changes nothing and answers 0. One MSHR:
 * line A misses (accepted), line B is refused (MSHRF) until A's fill at core 295
 * (test_latency_gtx480's hand-worked miss: its response at core 295). */
static uint64_t l1d_stat(memsys *m, const char *key)
{
    cJSON *o = cJSON_CreateObject();
    mem_model_detailed.stats_json(m, o);
    uint64_t v = (uint64_t)cJSON_GetObjectItem(cJSON_GetObjectItem(o, "l1d"), key)->valuedouble;
    cJSON_Delete(o);
    return v;
}

/* The memory system alone (memsys_only) for two SMs, GTX480 defaults with `over` set */
static memsys *two_sms(const char *over)
{
    ws_config cfg;
    ws_config_defaults(&cfg);
    memsys_only(&cfg);
    set(&cfg, over);
    memsys *m = mem_model_detailed.create(&cfg, 2);
    assert_non_null(m);
    return m;
}

static void test_repeat(void **state)
{
    (void)state;
    memsys *m = two_sms("l1d.mshr_entries=1");
    mem_req a = req(0, MR_LOAD, 0x12300), b = req(0, MR_LOAD, 0x45600);
    memsys_tick(m, 0);
    assert_int_equal(memsys_access(m, &a, 0), MA_MISS);
    assert_int_equal(memsys_access(m, &b, 0), MA_MSHRF);
    memsys_commit(m, 0, 0);
    memsys_commit(m, 1, 0);
    /* cycle 0 also accepted a request: no repeat */
    memsys_tick(m, 1);
    assert_int_equal(memsys_repeat(m, 0, 0, 1), 0);
    assert_int_equal(l1d_stat(m, "resfail_mshrf"), 1);
    /* cycle 1: the refusal alone */
    assert_int_equal(memsys_access(m, &b, 1), MA_MSHRF);
    memsys_commit(m, 1, 1);
    assert_int_equal(l1d_stat(m, "resfail_mshrf"), 2);
    uint64_t c = 2, n = 2, last = 1, runs = 0;
    for (;; c++) {
        memsys_tick(m, c);
        uint64_t want = memsys_next_event_sm(m, 0, c);
        uint64_t got = memsys_repeat(m, 0, last, c);
        if (!got) {
            /* the SM's cycle runs: the cycles since `last`, repeats, count first (the
             * GPU's run_group), each one refusal */
            memsys_repeat_stats(m, 0, last, c - last - 1);
            n += c - last - 1;
            assert_int_equal(l1d_stat(m, "resfail_mshrf"), n);
            if (memsys_pop_done(m, 0, c) == &a)
                break;
            /* the L1 changed in a way that may end the refusal: refused again (none
             * here: the pop of A's miss record at core 35 leaves an MSHRF refusal
             * standing, cache.h) */
            assert_int_equal(memsys_access(m, &b, c), MA_MSHRF);
            last = c;
            runs++;
            n++;
        } else {
            assert_int_equal(got, want);   /* (a repeat counts nothing itself) */
        }
        assert_int_equal(l1d_stat(m, "resfail_mshrf"), n);
        memsys_commit(m, 1, c);
    }
    /* until A's response is due (its fill freed the MSHR: B is accepted now): one
     * refusal in each of cycles 0 .. 294 */
    assert_int_equal(c, 295);
    assert_int_equal(runs, 0);
    assert_int_equal(last, 1);
    assert_int_equal(n, 295);
    assert_int_equal(memsys_access(m, &b, c), MA_MISS);
    memsys_commit(m, 1, c);
    /* a cycle without memory calls (SM 1's, with nothing in flight) repeats, counting
     * nothing, and so do its repeats */
    memsys_tick(m, c + 1);
    assert_int_equal(memsys_repeat(m, 1, c, c + 1), UINT64_MAX);
    memsys_repeat_stats(m, 1, c, 7);
    /* nor those of a cycle that was not the SM's last with memory calls */
    memsys_repeat_stats(m, 0, last, 7);
    assert_int_equal(l1d_stat(m, "resfail_mshrf"), n);
    mem_model_detailed.destroy(m);
}

/* memsys.h next_event_sm_late: an SM's wake-up bound asked in the SM phase reads the
 * crossbar's wake as the serial tick left it; a commit of an SM before it can lower that
 * wake (the SM phase defers the poke), and the GPU then asks again. GTX480 clocks (core,
 * interconnect and L2 all 700 MHz), the L1C shared by SMs 0 and 1, so SM 1 is not alone
 * with its own L1s and its bound includes when a reply could next reach it: the
 * crossbar's next cycle w (or the cycle after the L2's next), + latency 2 + 1.
 *   cycle 0: SM 1 loads line A: L1D miss, its record ready at 35 (test_latency_gtx480:
 *     L2 cycle 39, through the L2 pipeline at 159). After the crossbar's cycle 35 nothing
 *     is due before the L2 bank's 159, so w = 160 (strictly after, across domains).
 *   cycle 50: SM 0 loads line B: a miss whose record is ready at 85, its poke deferred
 *     to its commit. SM 1, asked in the phase: 160 + 2 + 1 = 163. SM 0's commit pokes the
 *     crossbar at 85 (it says so: 1), and SM 1 asked again: 85 + 2 + 1 = 88, what it
 *     answers asked afresh after the commit (a serial run asks it after SM 0's access).
 * The GPU's late asks never changed a result in the suite (docs/ARCHITECTURE.md, the
 * commit's coverage); this is the model's side of them. */
static void test_next_event_late(void **state)
{
    (void)state;
    memsys *m = two_sms("l1c.shared_by=2");
    mem_req a = req(1, MR_LOAD, 0x12300), b = req(0, MR_LOAD, 0x45600);
    memsys_tick(m, 0);
    assert_int_equal(memsys_access(m, &a, 0), MA_MISS);
    memsys_commit(m, 0, 0);
    memsys_commit(m, 1, 0);
    for (uint64_t c = 1; c < 50; c++) {
        memsys_tick(m, c);
        memsys_commit(m, 0, c);
        memsys_commit(m, 1, c);
    }
    memsys_tick(m, 50);
    assert_int_equal(memsys_access(m, &b, 50), MA_MISS);
    const uint64_t phase = memsys_next_event_sm(m, 1, 50);
    assert_int_equal(phase, 163);
    assert_int_equal(memsys_commit(m, 0, 50), 1);
    assert_int_equal(memsys_next_event_sm_late(m, 1, 50), 88);
    memsys_commit(m, 1, 50);
    assert_int_equal(memsys_next_event_sm(m, 1, 50), 88);
    /* both requests still complete as unloaded misses would: A at 295 (test_latency_gtx480) */
    assert_int_equal(wait_for(m, &a, 51, 2000), 295);
    mem_model_detailed.destroy(m);
}

static void test_config_errors(void **state)
{
    (void)state;
    ws_config cfg;
    char err[256];
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    assert_int_equal(mem_detailed_check(&cfg, err, sizeof err), 0);
    set(&cfg, "l1d.global_store=sometimes");
    assert_int_equal(mem_detailed_check(&cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, "l1d.global_store"));
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    set(&cfg, "l2.size=100000");
    assert_int_equal(mem_detailed_check(&cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, "l2"));
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    set(&cfg, "dram.sched=oldest");
    assert_int_equal(mem_detailed_check(&cfg, err, sizeof err), -1);
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    set(&cfg, "addr.map=superblock");   /* 6 channels: not a multiple of 4 */
    assert_int_equal(mem_detailed_check(&cfg, err, sizeof err), -1);
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    set(&cfg, "icnt.out_buf=4");        /* a 136-byte reply is 5 flits */
    assert_int_equal(mem_detailed_check(&cfg, err, sizeof err), -1);
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    set(&cfg, "l1d.repl=mru");
    assert_int_equal(mem_detailed_check(&cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, "l1d.repl"));
    assert_non_null(strstr(err, "(lru, fifo, random)"));      /* listed by the registry */
    /* the plug-in registries name their members in the messages */
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    set(&cfg, "mem.protocol=mesi");
    assert_int_equal(mem_detailed_check(&cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, "mem.protocol"));
    assert_non_null(strstr(err, "(nvidia, si, moesi, nmoesi)"));
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    set(&cfg, "l2.set_index=modulo");
    assert_int_equal(mem_detailed_check(&cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, "(linear, fermi-hash, xor)"));
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    set(&cfg, "l1d.set_index=fermi-hash");                     /* 32 sets of 128 B: fine */
    assert_int_equal(mem_detailed_check(&cfg, err, sizeof err), 0);
    set(&cfg, "l2.set_index=fermi-hash");                      /* 128 sets: refused */
    assert_int_equal(mem_detailed_check(&cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, "l2.set_index"));
    set(&cfg, "l2.set_index=xor");
    assert_int_equal(mem_detailed_check(&cfg, err, sizeof err), 0);
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    set(&cfg, "addr.map=interleave");
    assert_int_equal(mem_detailed_check(&cfg, err, sizeof err), -1);
    assert_non_null(strstr(err, "(linear, superblock)"));
    /* the models check themselves: timing.c calls the hook, whatever the model */
    char known[64];
    mem_model_known(known, sizeof known);
    assert_string_equal(known, "simple, detailed");
    assert_non_null(mem_model_find("detailed")->check);
    ws_config_defaults(&cfg);
    legacy_cfg(&cfg);
    set(&cfg, "l1d.repl=mru");
    assert_int_equal(mem_model_find("detailed")->check(&cfg, err, sizeof err), -1);
    assert_int_equal(mem_model_find("simple")->check(&cfg, err, sizeof err), 0);
}

/* linear: 256-byte chunks round-robin over 6 partitions. 0x1234 = chunk 18 (offset
 * 0x34): partition 18 mod 6 = 0, local (18 / 6) x 256 + 0x34 = 0x334. With 4 KB rows
 * and 16 banks: column 0x334, bank 0, row 0. Address 6 x 256 x 16 x 16 = 393216 is
 * the 256th chunk of partition 0: local 65536 = row 1, bank 0. */
static void test_addrmap_linear(void **state)
{
    (void)state;
    addrmap am;
    addrmap_loc l;
    assert_int_equal(addrmap_init(&am, "linear", 6, 256, 16, 4096, 0, NULL, 0), 0);
    addrmap_map(&am, 0x1234, &l);
    assert_int_equal(l.part, 0);
    assert_int_equal(l.local, 0x334);
    assert_int_equal(l.col, 0x334);
    assert_int_equal(l.bank, 0);
    assert_int_equal(l.row, 0);
    addrmap_map(&am, 0x1334, &l);
    assert_int_equal(l.part, 1);
    addrmap_map(&am, 6 * 256 * 16, &l);          /* chunk 96: local 16 x 256 = 4096 */
    assert_int_equal(l.part, 0);
    assert_int_equal(l.bank, 1);
    addrmap_map(&am, 393216, &l);
    assert_int_equal(l.local, 65536);
    assert_int_equal(l.bank, 0);
    assert_int_equal(l.row, 1);
    /* bank_xor: bank 0 ^ (row 1 mod 16) = 1 */
    assert_int_equal(addrmap_init(&am, "linear", 6, 256, 16, 4096, 1, NULL, 0), 0);
    addrmap_map(&am, 393216, &l);
    assert_int_equal(l.bank, 1);
    /* uniform: 6000 consecutive chunks give each partition 1000 */
    uint32_t n[6] = {0};
    for (uint64_t a = 0; a < 6000 * 256; a += 256)
        n[addrmap_part(&am, a)]++;
    for (int i = 0; i < 6; i++)
        assert_int_equal(n[i], 1000);
}

/* GTX480's bit layout (GPGPU-Sim -gpgpu_mem_addr_mapping ...;0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS)
 * on the partition-local address: bank = bits 15 14 13 8, column = bits 12-9 then 7-0,
 * row = bits 16 up. 6 partitions of 256-byte chunks:
 *   0x1234: local 0x334 (test_addrmap_linear): bit 8 set -> bank 1; column = bits 12-9
 *     (0x334 >> 9 = 1) then bits 7-0 (0x34): 1 x 256 + 0x34 = 0x134; row 0
 *   chunk 6 (address 0x600): local 0x100 -> bank 1, column 0; chunk 12: local 0x200 ->
 *     bank 0, column 0x100 (bit 9): consecutive chunks of a partition alternate banks
 *   local 0x2000 (bit 13: address 0x2000 / 256 = chunk 32 of partition 0 = address
 *     32 x 6 x 256 = 0xc000) -> bank 2; local 0x10000 (address 0x60000) -> row 1, bank 0
 *   local 0x1_0000_0000 (bit 32, above the layout) -> row 1 << (32 - 16) = 65536. */
static void test_addrmap_local_bits(void **state)
{
    (void)state;
    addrmap am;
    addrmap_loc l;
    char err[200];
    assert_int_equal(addrmap_init(&am, "linear", 6, 256, 16, 4096, 0, NULL, 0), 0);
    assert_int_equal(addrmap_set_local_bits(&am, "0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS", err,
                                            sizeof err), 0);
    addrmap_map(&am, 0x1234, &l);
    assert_int_equal(l.part, 0);
    assert_int_equal(l.local, 0x334);
    assert_int_equal(l.bank, 1);
    assert_int_equal(l.col, 0x134);
    assert_int_equal(l.row, 0);
    addrmap_map(&am, 0x600, &l);
    assert_int_equal(l.local, 0x100);
    assert_int_equal(l.bank, 1);
    assert_int_equal(l.col, 0);
    addrmap_map(&am, 0xc00, &l);
    assert_int_equal(l.local, 0x200);
    assert_int_equal(l.bank, 0);
    assert_int_equal(l.col, 0x100);
    addrmap_map(&am, 0xc000, &l);
    assert_int_equal(l.local, 0x2000);
    assert_int_equal(l.bank, 2);
    addrmap_map(&am, 0x60000, &l);
    assert_int_equal(l.local, 0x10000);
    assert_int_equal(l.bank, 0);
    assert_int_equal(l.row, 1);
    addrmap_map(&am, 0x600000000ull, &l);
    assert_int_equal(l.local, 0x100000000ull);
    assert_int_equal(l.row, 65536);
    /* a bijection: 4096 consecutive chunks of partition 0 land on distinct locations */
    static uint8_t seen[1 << 20];
    memset(seen, 0, sizeof seen);
    for (uint64_t c = 0; c < (1u << 12); c++)
        for (uint64_t o = 0; o < 256; o += 32) {
            addrmap_map(&am, c * 6 * 256 + o, &l);
            uint64_t key = ((uint64_t)l.row * 16 + l.bank) * 4096 + l.col;
            assert_true(key < (1u << 20) * 8);
            assert_false(seen[key >> 3] & (1u << (key & 7)));
            seen[key >> 3] |= (uint8_t)(1u << (key & 7));
        }
    /* errors: wrong bank or column bit counts, a bad letter; "" restores the divisions */
    assert_int_equal(addrmap_set_local_bits(&am, "RRRRBBCCCCCCCCCCCC", err, sizeof err), -1);
    assert_non_null(strstr(err, "2 bank bits"));
    assert_int_equal(addrmap_set_local_bits(&am, "RRRRBBBBCCCCCCCCCCC", err, sizeof err), -1);
    assert_int_equal(addrmap_set_local_bits(&am, "RRRRBBBBCCCCCCCCCCCX", err, sizeof err), -1);
    assert_non_null(strstr(err, "'X'"));
    assert_int_equal(addrmap_set_local_bits(&am, "", err, sizeof err), 0);
    addrmap_map(&am, 0x1234, &l);
    assert_int_equal(l.bank, 0);
    assert_int_equal(l.col, 0x334);
    /* one bank: a layout without B bits is still the layout (it was ignored: the
     * divisions gave col 0x34, row 3 for local 0x334 with 256-byte rows) */
    assert_int_equal(addrmap_init(&am, "linear", 1, 256, 1, 256, 0, NULL, 0), 0);
    assert_int_equal(addrmap_set_local_bits(&am, "RRRRCCCCRRRRCCCC", err, sizeof err), 0);
    addrmap_map(&am, 0x334, &l);
    assert_int_equal(l.local, 0x334);
    assert_int_equal(l.bank, 0);
    assert_int_equal(l.col, 0x34);   /* C bits 0-3 (4) and 8-11 (3) */
    assert_int_equal(l.row, 0x03);   /* R bits 4-7 (3) and 12-15 (0) */
    addrmap_map(&am, 0xa5c3, &l);
    assert_int_equal(l.col, 0x53);   /* bits 0-3: 3, bits 8-11: 5 */
    assert_int_equal(l.row, 0xac);   /* bits 4-7: c, bits 12-15: a */
}

/* Reference of the bit layout extraction: the bits of x under mask, packed low bit first,
 * one bit at a time (the definition amap_runs_pack implements with runs). */
static uint64_t ref_pack(uint64_t x, uint64_t mask)
{
    uint64_t r = 0;
    for (uint32_t k = 0, i = 0; i < 64; i++)
        if (mask >> i & 1) {
            r |= (x >> i & 1) << k;
            k++;
        }
    return r;
}

static uint64_t rnd64(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t a = *s >> 32;
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return a << 32 | *s >> 32;
}

/* The runs of a mask: hand-worked for GTX480's bank bits (15 14 13 8: runs {8}, {13-15},
 * shifts 8 and 12), then random masks and random layouts against the bitwise definition:
 * bank = B bits, column = C/S bits, row = the layout's other bits then every bit above. */
static void test_addrmap_bit_runs(void **state)
{
    (void)state;
    amap_runs f;
    amap_runs_make(&f, 0xe100);
    assert_int_equal(f.n, 2);
    assert_int_equal(f.r[0].m, 0x100);
    assert_int_equal(f.r[0].sh, 8);
    assert_int_equal(f.r[1].m, 0xe000);
    assert_int_equal(f.r[1].sh, 12);
    assert_int_equal(amap_runs_pack(&f, 0xa100), 0xb);   /* bits 15, 13, 8 -> 1011 */
    amap_runs_make(&f, UINT64_MAX);
    assert_int_equal(f.n, 1);
    assert_int_equal(amap_runs_pack(&f, 0x123456789abcdef0ull), 0x123456789abcdef0ull);
    amap_runs_make(&f, 0);
    assert_int_equal(f.n, 0);
    amap_runs_make(&f, 0x5555555555555555ull);
    assert_int_equal(f.n, 32);
    uint64_t s = 7;
    for (int i = 0; i < 2000; i++) {
        uint64_t m = rnd64(&s);
        m &= rnd64(&s);                 /* sparse, then (odd i) dense masks */
        if (i & 1)
            m ^= rnd64(&s);
        uint64_t x = rnd64(&s);
        amap_runs_make(&f, m);
        assert_int_equal(amap_runs_pack(&f, x), ref_pack(x, m));
    }
    for (int i = 0; i < 300; i++) {
        /* (a layout with no B bit is not used: bank_bits 0 means the divisions) */
        uint32_t nb = 1 + (uint32_t)(rnd64(&s) % 6), nc = 1 + (uint32_t)(rnd64(&s) % 14);
        uint32_t len = nb + nc + (uint32_t)(rnd64(&s) % (65 - nb - nc));
        char lay[80];
        uint64_t bm = 0, cm = 0;
        for (uint32_t k = 0; k < len; k++)
            lay[k] = rnd64(&s) & 1 ? 'R' : '0';
        lay[len] = 0;
        for (uint32_t placed = 0; placed < nb + nc;) {
            uint32_t k = (uint32_t)(rnd64(&s) % len);
            if (lay[k] != 'R' && lay[k] != '0')
                continue;
            lay[k] = placed < nb ? 'B' : (rnd64(&s) & 1 ? 'C' : 'S');
            if (placed < nb)
                bm |= 1ull << (len - 1 - k);
            else
                cm |= 1ull << (len - 1 - k);
            placed++;
        }
        addrmap am;
        char err[200];
        assert_int_equal(addrmap_init(&am, "linear", 1 + (uint32_t)(rnd64(&s) % 8), 256, 1u << nb,
                                      1u << nc, 0, NULL, 0), 0);
        assert_int_equal(addrmap_set_local_bits(&am, lay, err, sizeof err), 0);
        uint64_t rm = (len < 64 ? (1ull << len) - 1 : UINT64_MAX) & ~(bm | cm);
        for (int j = 0; j < 50; j++) {
            addrmap_loc l;
            uint64_t a = rnd64(&s);
            a >>= rnd64(&s) % 64;
            addrmap_map(&am, a, &l);
            assert_int_equal(l.part, addrmap_part(&am, a));
            assert_int_equal(l.local, a / 256 / am.n_part * 256 + a % 256);
            uint64_t hi = len < 64 ? l.local >> len : 0;
            assert_int_equal(l.bank, (uint32_t)ref_pack(l.local, bm));
            assert_int_equal(l.col, (uint32_t)ref_pack(l.local, cm));
            assert_int_equal(l.row, (uint32_t)(ref_pack(l.local, rm) |
                                               hi << __builtin_popcountll(rm)));
        }
    }
}

/* amap_div_q, exact division without a divide: d = 128 = 2^7 gets m = 2^57 (x >> 7
 * exactly), d = 1 and d = 6 the floor of (2^64 - 1) / d with corrections after the
 * multiply. Quotients by hand: 0 / 128 = 0, 127 / 128 = 0, 128 / 128 = 1, 0x1280 / 128 =
 * 0x25, (2^64 - 1) / 128 = 2^57 - 1; 6 / 6 = 1, 35 / 6 = 5, 36 / 6 = 6, (2^64 - 1) / 6 =
 * 3074457345618258602 (2^64 - 1 = 6 x 3074457345618258602 + 3); x / 1 = x. */
static void test_amap_div(void **state)
{
    (void)state;
    amap_div p = amap_div_make(128), s = amap_div_make(6), one = amap_div_make(1);
    assert_true(p.m == 1ull << 57);
    assert_true(s.m == UINT64_MAX / 6);
    assert_true(one.m == UINT64_MAX);
    assert_int_equal(amap_div_q(&p, 0), 0);
    assert_int_equal(amap_div_q(&p, 127), 0);
    assert_int_equal(amap_div_q(&p, 128), 1);
    assert_int_equal(amap_div_q(&p, 0x1280), 0x25);
    assert_true(amap_div_q(&p, UINT64_MAX) == (1ull << 57) - 1);
    assert_int_equal(amap_div_q(&s, 6), 1);
    assert_int_equal(amap_div_q(&s, 35), 5);
    assert_int_equal(amap_div_q(&s, 36), 6);
    assert_true(amap_div_q(&s, UINT64_MAX) == 3074457345618258602ull);
    assert_int_equal(amap_div_q(&one, 0), 0);
    assert_int_equal(amap_div_q(&one, 12345), 12345);
    assert_true(amap_div_q(&one, UINT64_MAX) == UINT64_MAX);
    /* every power of two against the divide instruction, at and around its multiples */
    for (uint32_t sh = 0; sh < 64; sh++) {
        amap_div v = amap_div_make(1ull << sh);
        for (uint64_t x = 1; x < 1000; x++) {
            uint64_t a = x << sh;
            assert_true(amap_div_q(&v, a) == a / v.d);
            assert_true(amap_div_q(&v, a - 1) == (a - 1) / v.d);
            assert_true(amap_div_q(&v, a + 1) == (a + 1) / v.d);
        }
    }
}

/* superblock, 12 channels = 4 quadrants x 3 (addrmap_superblock.c): c = addr / 256,
 * quadrant q = c bits 1-2, u = c without them (bit 8, then bits 11 up), channel = 3q +
 * u mod 3, rank in the channel = u / 3 (partition-local address = rank x 256 + offset).
 *   0x000: c 0,  q0, u 0 -> 0, rank 0      0x100: c 1,  q0, u 1 -> 1, rank 0
 *   0x200: c 2,  q1, u 0 -> 3              0x700: c 7,  q3, u 1 -> 10
 *   0x800: c 8,  q0, u 2 -> 2, rank 0      0x900: c 9,  q0, u 3 -> 0, rank 1 (local 0x100)
 *   0xf00: c 15, q3, u 3 -> 9, rank 1      0x1900: c 25, q0, u 1 + 3 x 2 = 7 -> 1, rank 2 */
static void test_addrmap_superblock(void **state)
{
    (void)state;
    addrmap am;
    addrmap_loc l;
    char err[128];
    assert_int_equal(addrmap_init(&am, "superblock", 12, 256, 16, 2048, 0, err, sizeof err), 0);
    assert_int_equal(addrmap_part(&am, 0x000), 0);
    assert_int_equal(addrmap_part(&am, 0x0ff), 0);
    assert_int_equal(addrmap_part(&am, 0x100), 1);
    assert_int_equal(addrmap_part(&am, 0x200), 3);
    assert_int_equal(addrmap_part(&am, 0x700), 10);
    assert_int_equal(addrmap_part(&am, 0x800), 2);
    assert_int_equal(addrmap_part(&am, 0xf00), 9);
    addrmap_map(&am, 0x900 + 5, &l);
    assert_int_equal(l.part, 0);
    assert_int_equal(l.local, 0x100 + 5);
    addrmap_map(&am, 0x1900, &l);
    assert_int_equal(l.part, 1);
    assert_int_equal(l.local, 0x200);
    /* uniform, and a bijection: every channel's superblocks take ranks 0, 1, 2 ... in
     * address order, so no two superblocks share a DRAM location */
    uint32_t n[12] = {0};
    for (uint64_t a = 0; a < 12 * 256 * 100; a += 256) {
        addrmap_map(&am, a, &l);
        assert_int_equal(l.local, (uint64_t)n[l.part] * 256);
        n[l.part]++;
    }
    for (int i = 0; i < 12; i++)
        assert_int_equal(n[i], 100);
    /* 8 channels = 4 x 2: bit 8 alone picks the channel in the quadrant, no hash */
    assert_int_equal(addrmap_init(&am, "superblock", 8, 256, 16, 2048, 0, NULL, 0), 0);
    assert_int_equal(addrmap_part(&am, 0x100), 1);
    assert_int_equal(addrmap_part(&am, 0x900), 1);
    assert_int_equal(addrmap_part(&am, 0xa00), 2);
    addrmap_map(&am, 0x900, &l);
    assert_int_equal(l.local, 0x100);
    assert_int_equal(addrmap_init(&am, "superblock", 6, 256, 16, 2048, 0, err, sizeof err), -1);
    assert_int_equal(addrmap_init(&am, "hashed", 6, 256, 16, 2048, 0, err, sizeof err), -1);
}

/* Runs one load of `r` alone from cycle c0; returns its completion cycle. */
static uint64_t lone(memsys *m, mem_req *r, uint64_t c0, mem_access want)
{
    memsys_tick(m, c0);
    assert_int_equal(memsys_access(m, r, c0), want);
    return wait_for(m, r, c0, c0 + 100000);
}

/* Two SMs sharing one scalar (constant) L1 (l1c.shared_by=2, SPEC 6: one per 4 CUs).
 *   SM 1 misses on line A; its miss leaves through SM 0's port (the owner), the fill
 *   completes it at SM 1 after T cycles, T the latency SM 0 alone sees on a private
 *   L1C (the same path). SM 0 then loads A: a hit (l1c.latency 1) - the second CU's
 *   access hits because the first CU brought the line.
 *   In one cycle c both SMs hit: the cache has one port (l1c.ports 1), SM 0 (ticked
 *   first) takes it, SM 1 waits one cycle: done at c + 1 and c + 2, port_delay 1.
 *   Both miss on line B in one cycle: SM 0's miss opens the entry, SM 1 merges; both
 *   complete at the same cycle. With private L1Cs (shared_by 1) SM 1's load of A misses. */
static void test_shared_l1c(void **state)
{
    (void)state;
    ws_config cfg;
    ws_config_defaults(&cfg);
    memsys *p = mem_model_detailed.create(&cfg, 2);
    mem_req a0 = req(0, MR_LOAD, 0x4000);
    a0.space = SP_CONST, a0.size = 64;
    uint64_t t_private = lone(p, &a0, 0, MA_MISS);
    mem_req a1 = a0;
    a1.sm = 1;
    lone(p, &a1, 1000, MA_MISS);            /* private: SM 1 has its own L1C */
    mem_model_detailed.destroy(p);

    set(&cfg, "l1c.shared_by=2");
    memsys *m = mem_model_detailed.create(&cfg, 2);
    assert_non_null(m);
    assert_int_equal(lone(m, &a1, 0, MA_MISS), t_private);
    assert_int_equal(lone(m, &a0, 1000, MA_HIT), 1001);
    memsys_tick(m, 2000);
    assert_int_equal(memsys_access(m, &a0, 2000), MA_HIT);
    assert_int_equal(memsys_access(m, &a1, 2000), MA_HIT);
    assert_int_equal(wait_for(m, &a0, 2000, 3000), 2001);
    assert_int_equal(wait_for(m, &a1, 2000, 3000), 2002);
    mem_req b0 = a0, b1 = a1;
    b0.addr = b1.addr = 0x8000;
    memsys_tick(m, 3000);
    assert_int_equal(memsys_access(m, &b0, 3000), MA_MISS);
    assert_int_equal(memsys_access(m, &b1, 3000), MA_MERGED);
    uint64_t d0 = wait_for(m, &b0, 3000, 10000), d1 = wait_for(m, &b1, d0, 10000);
    assert_int_equal(d0, d1);
    cJSON *o = cJSON_CreateObject();
    mem_model_detailed.stats_json(m, o);
    cJSON *c = cJSON_GetObjectItem(o, "l1c");
    assert_int_equal(cJSON_GetObjectItem(c, "shared_by")->valuedouble, 2);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(c, "per_sm")), 1);   /* one cache */
    assert_int_equal(cJSON_GetObjectItem(c, "accesses")->valuedouble, 6);
    assert_int_equal(cJSON_GetObjectItem(c, "hits")->valuedouble, 3);
    assert_int_equal(cJSON_GetObjectItem(c, "merges")->valuedouble, 1);
    assert_int_equal(cJSON_GetObjectItem(c, "port_delay")->valuedouble, 2);   /* 2000, 3000 */
    cJSON_Delete(o);
    mem_model_detailed.destroy(m);
}

/* The second coalescer inside the L1D (l1d.coalesce): two warps load one line, the
 * second one cycle later. On: it merges into the first's MSHR entry (1 entry in use).
 * Off (seed 004's SI protocol: every access needs an MSHR entry, the line is locked):
 * it takes an MSHR entry of its own and waits for the fill - a delayed hit (2 entries in
 * use). Either way both complete with the fill at T = 295 (test_latency_gtx480). Off,
 * with one MSHR entry, it is refused (MSHRF) until the fill and its retry at T hits
 * (T + l1d.latency 35). */
static void test_l1_second_coalescer(void **state)
{
    (void)state;
    for (int mode = 0; mode < 3; mode++) {
        int on = mode == 0;
        ws_config cfg;
        ws_config_defaults(&cfg);
        memsys_only(&cfg);
        set(&cfg, on ? "l1d.coalesce=true" : "l1d.coalesce=false");
        if (mode == 2)
            set(&cfg, "l1d.mshr_entries=1");
        memsys *m = mem_model_detailed.create(&cfg, 1);
        mem_req a = req(0, MR_LOAD, 0x12300), b = req(0, MR_LOAD, 0x12300);
        a.warp = 0, b.warp = 1;
        memsys_tick(m, 0);
        assert_int_equal(memsys_access(m, &a, 0), MA_MISS);
        memsys_tick(m, 1);
        assert_int_equal(memsys_access(m, &b, 1), mode == 2 ? MA_MSHRF : MA_MERGED);
        uint64_t t = wait_for(m, &a, 1, 10000);
        assert_int_equal(t, 295);
        if (mode < 2) {
            mem_req *d = memsys_pop_done(m, 0, t);
            assert_ptr_equal(d, &b);
        } else {
            assert_int_equal(memsys_access(m, &b, t), MA_HIT);
            assert_int_equal(wait_for(m, &b, t, 10000), t + 35);
        }
        cJSON *o = cJSON_CreateObject();
        mem_model_detailed.stats_json(m, o);
        cJSON *l1 = cJSON_GetObjectItem(o, "l1d");
        assert_int_equal(cJSON_GetObjectItem(l1, "merges")->valuedouble, on);
        assert_int_equal(cJSON_GetObjectItem(l1, "hits")->valuedouble, !on);
        assert_int_equal(cJSON_GetObjectItem(l1, "mshr_occupancy_max")->valuedouble, mode == 1 ? 2 : 1);
        assert_int_equal(cJSON_GetObjectItem(l1, "resfail_mshrf")->valuedouble, mode == 2);
        if (mode == 1)
            assert_int_equal(cJSON_GetObjectItem(l1, "delayed_hits")->valuedouble, 1);
        else
            assert_null(cJSON_GetObjectItem(l1, "delayed_hits"));
        cJSON_Delete(o);
        mem_model_detailed.destroy(m);
    }
}

/* Coalescing at L2 (l2.coalesce): two SMs miss on one line in the same cycle; their
 * requests reach the same L2 bank one after the other. On: the second joins the
 * first's L2 MSHR entry (1 merge, 1 entry). Off: it takes an L2 MSHR entry of its own
 * and waits for the fill (a delayed hit, 2 entries). One DRAM read either way, and the
 * same completion times: b's data are ready in a's fill cycle and its reply follows
 * a's 4 flits on the bank's reply port. */
static void test_l2_coalescing(void **state)
{
    (void)state;
    for (int on = 1; on >= 0; on--) {
        ws_config cfg;
        ws_config_defaults(&cfg);
        memsys_only(&cfg);
        set(&cfg, on ? "l2.coalesce=true" : "l2.coalesce=false");
        memsys *m = mem_model_detailed.create(&cfg, 2);
        mem_req a = req(0, MR_LOAD, 0x12300), b = req(1, MR_LOAD, 0x12300);
        memsys_tick(m, 0);
        assert_int_equal(memsys_access(m, &a, 0), MA_MISS);
        assert_int_equal(memsys_access(m, &b, 0), MA_MISS);
        uint64_t ta = wait_for(m, &a, 1, 10000), tb = wait_for(m, &b, 1, 10000);
        assert_int_equal(ta, 295);
        assert_int_equal(tb, ta + 4);
        cJSON *o = cJSON_CreateObject();
        mem_model_detailed.stats_json(m, o);
        cJSON *l2 = cJSON_GetObjectItem(o, "l2");
        assert_int_equal(cJSON_GetObjectItem(l2, "merges")->valuedouble, on);
        assert_int_equal(cJSON_GetObjectItem(l2, "hits")->valuedouble, !on);
        assert_int_equal(cJSON_GetObjectItem(l2, "resfail_mshrf")->valuedouble, 0);
        assert_int_equal(cJSON_GetObjectItem(l2, "mshr_occupancy_max")->valuedouble, on ? 1 : 2);
        assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "dram"), "reads")->valuedouble, 1);
        cJSON_Delete(o);
        mem_model_detailed.destroy(m);
    }
}

/* dram.channels_per_l2: 12 channels behind 6 L2 partitions (seed 004: 6 L2 modules, each
 * with a dual-channel controller), superblock map, 64-byte L2 lines, one bank: channel
 * ch belongs to partition ch / 2; the partition's index address interleaves its two
 * channels' lines: (channel-local line x 2 + ch mod 2) x 64.
 *   0x000: ch 0, local 0      -> partition 0, index 0
 *   0x100: ch 1, local 0      -> partition 0, index 64
 *   0x800: ch 2, local 0      -> partition 1, index 0
 *   0x900: ch 0, local 0x100  -> partition 0, index (4 x 2 + 0) x 64 = 512 */
static void test_channels_per_l2(void **state)
{
    (void)state;
    ws_config cfg;
    ws_config_defaults(&cfg);
    set(&cfg, "dram.channels=12,dram.channels_per_l2=2,gpu.mem_bus_bits=384,addr.map=superblock,"
              "l2.line=64,l2.sector=64,l2.banks=1,l2.size=131072,l2.ways=16,l1d.line=64,"
              "l1d.sector=64,l1d.set_index=linear,l1i.line=64,l1i.sector=64,icnt.port_per_bank=false");
    memsys *m = mem_model_detailed.create(&cfg, 2);
    assert_non_null(m);
    uint64_t i0, i1, i2, i3;
    struct cache *c0 = mem_detailed_l2_of(m, 0x000, &i0), *c1 = mem_detailed_l2_of(m, 0x100, &i1);
    struct cache *c2 = mem_detailed_l2_of(m, 0x800, &i2), *c3 = mem_detailed_l2_of(m, 0x900, &i3);
    assert_ptr_equal(c0, c1);
    assert_ptr_not_equal(c0, c2);
    assert_ptr_equal(c0, c3);
    assert_int_equal(i0, 0);
    assert_int_equal(i1, 64);
    assert_int_equal(i2, 0);
    assert_int_equal(i3, 512);
    /* a load through it: one DRAM read on one of 12 channels */
    mem_req a = req(0, MR_LOAD, 0x100);
    a.size = 64;
    lone(m, &a, 0, MA_MISS);
    cJSON *o = cJSON_CreateObject();
    mem_model_detailed.stats_json(m, o);
    cJSON *dr = cJSON_GetObjectItem(o, "dram");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(dr, "per_channel")), 12);
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(dr, "per_channel"), 1),
                                         "reads")->valuedouble, 1);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "l2"), "per_bank")), 6);
    cJSON_Delete(o);
    mem_model_detailed.destroy(m);
    set(&cfg, "dram.channels_per_l2=5");
    char err[256];
    assert_int_not_equal(mem_detailed_check(&cfg, err, sizeof err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latency_gtx480),
        cmocka_unit_test(test_latency_gtx480_queue),
        cmocka_unit_test(test_copy_fills_l2),
        cmocka_unit_test(test_l2_sector_port),
        cmocka_unit_test(test_keep_state),
        cmocka_unit_test(test_latency_equal_clocks),
        cmocka_unit_test(test_pop_word),
        cmocka_unit_test(test_routing),
        cmocka_unit_test(test_idle_skip_equivalence),
        cmocka_unit_test(test_idle_skip_equivalence_variants),
        cmocka_unit_test(test_backpressure_mqf),
        cmocka_unit_test(test_repeat),
        cmocka_unit_test(test_next_event_late),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_addrmap_linear),
        cmocka_unit_test(test_addrmap_local_bits),
        cmocka_unit_test(test_addrmap_bit_runs),
        cmocka_unit_test(test_addrmap_superblock),
        cmocka_unit_test(test_amap_div),
        cmocka_unit_test(test_shared_l1c),
        cmocka_unit_test(test_l1_second_coalescer),
        cmocka_unit_test(test_l2_coalescing),
        cmocka_unit_test(test_channels_per_l2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
