/* test_ahead.c - the L2 banks and DRAM channels ahead of the crossbar (mem.l2_ahead,
 * src/mem/detailed.c det_tick; docs/ARCHITECTURE.md, "Memory partitions a pipeline's
 * depth ahead of the crossbar"). A host mechanism: the same script of accesses must give
 * the same accept and done cycles and the same statistics with it on and off. Each
 * scenario drives the detailed memory system the way the GPU does (tick, then each SM's
 * pops and at most one access, a launch ending at the first cycle with everything
 * answered and nothing in flight, its statistics read then; a second launch on the kept
 * memory system) into a situation the mechanism must handle exactly, and checks that L2
 * cycles did run ahead (host_ahead_l2_cycles), so that no comparison passes vacuously:
 *  (i)   crossbar ports stalled behind a full L2 input queue: the crossbar's view of
 *        the queue replays the bank's takings (iq_view), and it unstalls the port;
 *  (ii)  reply queues near full, fills answering merged requests: no bank cycle ahead
 *        that could block on them (ah_room);
 *  (iii) a launch that ends right after its last reply, with write-backs and refreshes
 *        still to come in DRAM: no cycle ahead while no awaited request is unanswered
 *        (aw_up), so that none of the next launch's work lands in this launch's report;
 *  (iv)  banks asleep on full reply queues (oblk): no run while one sleeps until the
 *        crossbar's pop, which rouses it at the crossbar's cycle.
 * Both drivers run each script: ticking every core cycle (whose ticks must report
 * progress at the same cycles too), and jumping to the memory system's next event
 * (core.skip_idle). A few latencies are worked out by hand (test_memsys.c
 * test_latency_gtx480 for the pieces). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu/config.h"
#include "mem/detailed.h"
#include "ptx/ir.h"

#define NSM 4
#define MAXOP 640
#define PROG 65536         /* the cycles a script may take (ticking every cycle) */

typedef struct {
    uint32_t sm;
    uint8_t kind, launch;
    uint64_t addr;
    uint64_t at;           /* earliest issue, core cycles after its launch's start     */
} op;

typedef struct {
    const char *sets;      /* over the GTX480 defaults (the memory system alone)        */
    uint64_t warm, warm_n; /* host-written before the first launch: L2 lines (fill_on_copy) */
    op o[MAXOP];
    uint32_t n;
    /* results */
    mem_req r[MAXOP];
    uint64_t acc[MAXOP], done[MAXOP];
    uint64_t end[2];       /* each launch's last cycle                                   */
    char *stats[2];        /* its statistics without the host fields                    */
    uint64_t ahead[2];     /* L2 and DRAM cycles run ahead, both launches               */
    uint64_t truns;        /* runs on the partition thread, both launches               */
    double tbusy;          /* its host seconds in them (host_l2_thread_busy_seconds)       */
    uint64_t stalls, sleeps[3];
    uint64_t prog[PROG / 64];   /* ticking every cycle: the cycles whose tick reported
                                   progress (memsys.h tick, the GPU's progress): a cycle
                                   run ahead reports it at the tick that would have run it */
} scen;

static void set(ws_config *c, const char *kv)
{
    char err[256];
    if (ws_config_set(c, kv, err, sizeof err))
        fail_msg("%s", err);
}

static void config(ws_config *cfg, const scen *s, int on)
{
    ws_config_defaults(cfg);
    /* the L1D's latency in the memory system (test_memsys.c memsys_only) */
    cfg->l1d.latency_queue = false;
    if (s->sets)
        set(cfg, s->sets);
    set(cfg, on ? "mem.l2_ahead=true" : "mem.l2_ahead=false");
    if (on >= 2)   /* the runs on the partition thread (mem.l2_thread) */
        set(cfg, "sim.host_threads=2");
    /* the crossbar's reply side in its runs: the partition thread's (2), the caller's (3) */
    if (on == 2)
        set(cfg, "mem.l2_thread_reply=thread");
    if (on == 3)
        set(cfg, "mem.l2_thread_reply=caller");
}

static void add(scen *s, uint32_t sm, uint8_t kind, uint64_t addr, uint64_t at, uint8_t launch)
{
    assert_true(s->n < MAXOP);
    s->o[s->n++] = (op){sm, kind, launch, addr, at};
}

/* the statistics of the launch just ended: the cycles run ahead taken out and summed;
 * jump: without the L1s' (their refusal counts are the driver's retries: the GPU's
 * memsys.h repeat counts those of the cycles it skips) */
static char *report(memsys *m, scen *s, int on, int jump)
{
    cJSON *o = cJSON_CreateObject();
    mem_model_detailed.stats_json(m, o);
    if (jump) {
        cJSON_DeleteItemFromObject(o, "l1d");
        cJSON_DeleteItemFromObject(o, "l1c");
        cJSON_DeleteItemFromObject(o, "l1i");
    }
    static const char *const host[2] = {"host_ahead_l2_cycles", "host_ahead_dram_cycles"};
    for (int i = 0; i < 2; i++) {
        cJSON *h = cJSON_DetachItemFromObject(o, host[i]);
        /* reported exactly when it is on */
        assert_true((h != NULL) == (on != 0));
        if (h)
            s->ahead[i] += (uint64_t)h->valuedouble;
        cJSON_Delete(h);
    }
    cJSON *h = cJSON_DetachItemFromObject(o, "host_l2_thread_runs");
    assert_true((h != NULL) == (on >= 2));
    cJSON *hr = cJSON_DetachItemFromObject(o, "host_l2_thread_reply_runs");
    assert_true((hr != NULL) == (on >= 2));
    if (h) {
        s->truns += (uint64_t)h->valuedouble;
        /* pinned: every run with the reply side (on == 2), none (on == 3) */
        assert_true(hr->valuedouble == (on == 2 ? h->valuedouble : 0));
    }
    cJSON_Delete(h);
    cJSON_Delete(hr);
    /* the partition thread's host seconds: with its run count, never negative; busy
     * whenever it ran a run */
    static const char *const secs[2] = {"host_l2_thread_busy_seconds", "host_l2_wait_seconds"};
    for (int i = 0; i < 2; i++) {
        cJSON *x = cJSON_DetachItemFromObject(o, secs[i]);
        assert_true((x != NULL) == (on >= 2));
        if (x) {
            assert_true(x->valuedouble >= 0);
            if (i == 0)
                s->tbusy += x->valuedouble;
        }
        cJSON_Delete(x);
    }
    char *t = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return t;
}

/* jump = 0: tick every core cycle; 1: jump to the next event of the memory system or
 * the script (an SM refused retries then). s->stats are the caller's to free. */
static void run(scen *s, int on, int jump)
{
    ws_config cfg;
    config(&cfg, s, on);
    memsys *m = mem_model_detailed.create(&cfg, NSM);
    assert_non_null(m);
    if (s->warm_n)
        mem_model_detailed.host_write(m, s->warm, s->warm_n);
    memset(s->acc, 0xff, sizeof s->acc);
    memset(s->done, 0xff, sizeof s->done);
    memset(s->prog, 0, sizeof s->prog);
    s->ahead[0] = s->ahead[1] = 0;
    s->truns = 0;
    s->tbusy = 0;
    s->stats[0] = s->stats[1] = NULL;
    s->end[1] = 0;
    uint64_t c = 0;
    for (uint8_t l = 0; l < 2; l++) {
        /* each SM's ops of this launch in script order */
        uint32_t idx[NSM][MAXOP], cnt[NSM] = {0}, nx[NSM] = {0}, left = 0;
        for (uint32_t i = 0; i < s->n; i++)
            if (s->o[i].launch == l) {
                idx[s->o[i].sm][cnt[s->o[i].sm]++] = i;
                left++;
            }
        if (l == 1 && !left)
            break;
        const uint64_t base = c;
        mem_model_detailed.launch_begin(m, base);
        for (;;) {
            assert_true(c < base + 1000000);
            if (memsys_tick(m, c) && !jump) {
                /* (the jump driver ticks fewer cycles: with it on, not the same ones,
                 * since memsys_next_event is a lower bound) */
                assert_true(c < PROG);
                s->prog[c / 64] |= 1ull << (c % 64);
            }
            int again = 0;
            uint64_t want = UINT64_MAX;
            for (uint32_t sm = 0; sm < NSM; sm++) {
                mem_req *d;
                while ((d = memsys_pop_done(m, sm, c)) != NULL) {
                    assert_int_equal(d->t_done, c);
                    s->done[d->tag] = c;
                    left--;
                }
                if (nx[sm] == cnt[sm])
                    continue;
                const uint32_t i = idx[sm][nx[sm]];
                if (base + s->o[i].at > c) {
                    if (base + s->o[i].at < want)
                        want = base + s->o[i].at;
                    continue;
                }
                mem_req *q = &s->r[i];
                *q = (mem_req){.addr = s->o[i].addr, .size = 128, .bytes_used = 128,
                               .kind = s->o[i].kind, .space = SP_GLOBAL, .sm = sm, .tag = i};
                if (!mem_access_refused(memsys_access(m, q, c))) {
                    s->acc[i] = c;
                    nx[sm]++;
                    again |= nx[sm] < cnt[sm] && base + s->o[idx[sm][nx[sm]]].at <= c + 1;
                }
            }
            /* the GPU's end of a launch: every access answered, nothing in flight */
            if (!left && !memsys_busy(m))
                break;
            if (!jump) {
                c++;
                continue;
            }
            uint64_t ne = again ? c + 1 : memsys_next_event(m, c);
            if (want < ne)
                ne = want;
            assert_true(ne > c && ne != UINT64_MAX);
            c = ne;
        }
        s->end[l] = c;
        s->stats[l] = report(m, s, on, jump);
        mem_model_detailed.launch_end(m, c);
        c++;
    }
    s->stalls = mem_detailed_stalls(m);
    mem_detailed_sleeps(m, s->sleeps);
    mem_model_detailed.destroy(m);
}

/* the first place two reports differ (path and values), for the failure message */
static int first_diff(const cJSON *a, const cJSON *b, char *path, size_t n)
{
    if (cJSON_Compare(a, b, 1))
        return 0;
    const size_t len = strlen(path);
    if ((cJSON_IsObject(a) || cJSON_IsArray(a)) && a->type == b->type) {
        int i = 0;
        for (const cJSON *x = a->child, *y = b->child; x && y; x = x->next, y = y->next, i++) {
            if (x->string)
                snprintf(path + len, n - len, ".%s", x->string);
            else
                snprintf(path + len, n - len, "[%d]", i);
            if (first_diff(x, y, path, n))
                return 1;
        }
        path[len] = 0;
    }
    char *x = cJSON_PrintUnformatted(a), *y = cJSON_PrintUnformatted(b);
    snprintf(path + len, n - len, ": %.40s with it on, %.40s off", x, y);
    free(x);
    free(y);
    return 1;
}

/* The script with mem.l2_ahead on and off, ticking every cycle and jumping: identical
 * accept and done cycles, launch ends and statistics; leaves the run with it on
 * (ticking) in *s. The runs on the partition thread give them too, with the crossbar's
 * reply side on it (on == 2) or on the caller (on == 3), and every cycle run ahead is
 * then the thread's. */
static void same(scen *s)
{
    scen *off = malloc(sizeof *off);
    assert_non_null(off);
    for (int pass = 5; pass >= 0; pass--) {
        const int jump = pass & 1, on = pass >= 4 ? 3 : pass >= 2 ? 2 : 1;
        *off = *s;
        run(off, 0, jump);
        run(s, on, jump);
        if (on >= 2) {
            assert_true(s->truns > 0 || s->ahead[0] + s->ahead[1] == 0);
            assert_true((s->truns > 0) == (s->tbusy > 0));
        }
        for (uint32_t i = 0; i < s->n; i++) {
            if (s->acc[i] != off->acc[i] || s->done[i] != off->done[i])
                fail_msg("op %u (SM %u, %#llx): accepted %llu done %llu with it on, %llu %llu off "
                         "(jump %d)", i, s->o[i].sm, (unsigned long long)s->o[i].addr,
                         (unsigned long long)s->acc[i], (unsigned long long)s->done[i],
                         (unsigned long long)off->acc[i], (unsigned long long)off->done[i], jump);
            assert_true(s->done[i] != UINT64_MAX);
        }
        for (int l = 0; l < 2; l++) {
            assert_int_equal(s->end[l], off->end[l]);
            assert_true((s->stats[l] != NULL) == (off->stats[l] != NULL));
            if (s->stats[l] && strcmp(s->stats[l], off->stats[l])) {
                char path[300] = "";
                cJSON *a = cJSON_Parse(s->stats[l]), *b = cJSON_Parse(off->stats[l]);
                first_diff(a, b, path, sizeof path);
                fail_msg("launch %d statistics differ (jump %d): %s", l, jump, path);
            }
            free(off->stats[l]);
            if (pass) {   /* (the last pass's stay the caller's) */
                free(s->stats[l]);
                s->stats[l] = NULL;
            }
        }
        assert_int_equal(off->ahead[0] + off->ahead[1], 0);
        for (uint32_t w = 0; w < PROG / 64; w++)
            if (s->prog[w] != off->prog[w])
                fail_msg("the ticks of cycles %u..%u report progress %#llx with it on, %#llx off",
                         w * 64, w * 64 + 63, (unsigned long long)s->prog[w],
                         (unsigned long long)off->prog[w]);
    }
    free(off);
}

static void done(scen *s)
{
    for (int l = 0; l < 2; l++)
        free(s->stats[l]);
    free(s);
}

static scen *scenario(const char *sets)
{
    scen *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->sets = sets;
    return s;
}

/* The first n line addresses from `from` on (128-byte steps) that the L2 bank of
 * address bank_of holds (same_bank 1) or that other banks hold (0), in s's configuration */
static void lines(const scen *s, uint64_t bank_of, int same_bank, uint64_t from, uint64_t *out,
                  uint32_t n)
{
    ws_config cfg;
    config(&cfg, s, 0);
    memsys *m = mem_model_detailed.create(&cfg, NSM);
    uint64_t ix;
    const struct cache *b = mem_detailed_l2_of(m, bank_of, &ix);
    uint32_t k = 0;
    for (uint64_t a = from; k < n; a += 128)
        if ((mem_detailed_l2_of(m, a, &ix) == b) == same_bank)
            out[k++] = a;
    mem_model_detailed.destroy(m);
}

/* statistic `key` of object `obj` in launch l's report */
static double stat(const scen *s, int l, const char *obj, const char *key)
{
    cJSON *o = cJSON_Parse(s->stats[l]);
    assert_non_null(o);
    const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(o, obj), key);
    assert_non_null(v);
    const double x = v->valuedouble;
    cJSON_Delete(o);
    return x;
}

static void print(const char *name, const scen *s)
{
    printf("  %s: %llu L2 and %llu DRAM cycles ahead, %llu ports stalled, banks asleep %llu / "
           "%llu / %llu, launches end at %llu and %llu\n", name,
           (unsigned long long)s->ahead[0], (unsigned long long)s->ahead[1],
           (unsigned long long)s->stalls, (unsigned long long)s->sleeps[0],
           (unsigned long long)s->sleeps[1], (unsigned long long)s->sleeps[2],
           (unsigned long long)s->end[0], (unsigned long long)s->end[1]);
}

/* n loads per SM to bank 0, one every `gap` cycles: every third (i % 3 == 2) a hit on a
 * host-written line when third_hits, else a miss (the others the other kind); misses
 * from n_miss lines of their own (<= 256), hits from 128 */
static void hits_and_misses(scen *s, uint32_t n, uint32_t gap, int third_hits, uint32_t n_miss)
{
    uint64_t hit[128], miss[256];
    lines(s, 0, 1, 0, hit, 128);
    lines(s, 0, 1, 1 << 20, miss, n_miss);
    s->warm = 0;
    s->warm_n = hit[127] + 128;
    for (uint32_t sm = 0, h = 0, x = 0; sm < NSM; sm++)
        for (uint32_t i = 0; i < n; i++)
            add(s, sm, MR_LOAD, (i % 3 == 2) == third_hits ? hit[h++] : miss[x++], gap * i, 0);
}

/* (i) Loads of 4 SMs, one each every 4 cycles, all to one L2 bank: misses, whose DRAM
 * requests wait in the bank's miss queue (l2.miss_queue 2) for room in the channel's
 * (dram.queue 2), so the bank takes its input head only as DRAM drains them, about one
 * line every 9 cycles; hits (host-written lines) between them. Once the first requests
 * are through the pipeline (l2.pipeline 20: runs ahead of up to 18 cycles), the bank's
 * input queue (l2.in_queue 2) is full whenever the next request reaches the crossbar:
 * its port stalls over and over and is unstalled by the crossbar's replay of the
 * bank's takings, which ran ahead of it. */
static void test_stalled_port(void **state)
{
    (void)state;
    scen *s = scenario("l2.in_queue=2,l2.miss_queue=2,dram.queue=2,l2.pipeline=20");
    hits_and_misses(s, 96, 4, 1, 256);
    same(s);
    print("stalled port", s);
    assert_true(s->ahead[0] > 0);
    assert_true(s->stalls > 0);
    done(s);
}

/* (ii) Reply queues near full: 4 SMs load one bank's lines, hits (host-written) and
 * misses that all 4 SMs ask for a cycle apart, which the L2's MSHR merges
 * (l2.mshr_merges 4), so that each fill pushes 4 replies at once. Hits take one L2
 * cycle (no sector requests) and a 128-byte reply takes the reply crossbar 4 flits, so
 * the bank's reply queues (l2.out_queue 8) fill faster than the crossbar pops them. A
 * bank cycle ahead of the crossbar sees fewer of its replies popped than the serial
 * order would; it runs only with room for a fill's and its ports' pushes. */
static void test_reply_queues(void **state)
{
    (void)state;
    scen *s = scenario("l2.out_queue=8,l2.sector_requests=false,l2.pipeline=40");
    uint64_t hit[96], miss[32];
    lines(s, 0, 1, 0, hit, 96);
    lines(s, 0, 1, 1 << 20, miss, 32);
    s->warm = 0;
    s->warm_n = hit[95] + 128;
    for (uint32_t sm = 0; sm < NSM; sm++)
        for (uint32_t i = 0; i < 56; i++) {
            const uint32_t j = i / 7, h = i % 7;
            /* a block of 7: one shared miss (SM sm a cycle after SM sm - 1), 6 hits */
            add(s, sm, MR_LOAD, h ? hit[sm * 24 + (j * 6 + h - 1) % 24] : miss[j], 8 * i + sm, 0);
        }
    same(s);
    print("reply queues", s);
    /* SM 0's first hit, sent at 8: its miss record at 8 + 35 (l1d.latency), at the
     * partition 3 cycles later, L2 cycle 47 (strictly after), through the pipeline at
     * 87, its data at 88, its reply at interconnect cycle 89 and at the SM 2 + 4 flits
     * later: 95. SM 1's, sent at 9, is a cycle behind, but its reply waits for SM 0's 4
     * flits on the bank's port: it enters at 93 and arrives at 99. */
    assert_int_equal(s->done[1], 95);
    assert_int_equal(s->done[56 + 1], 99);
    /* the fills answered merged requests */
    assert_true(stat(s, 0, "l2", "merges") >= 8);
    assert_true(s->ahead[0] > 0);
    assert_true(s->sleeps[1] > 0);
    done(s);
}

/* (iii) The end of a launch right after its last reply: 4 SMs store to 24 lines each of
 * one bank (l2.size 4 KB: 4 sets of 8 ways, write-back, allocated without a fetch), so
 * that most stores evict a dirty line: its write-back queues for DRAM while the store's
 * acknowledgement goes back at once. The launch ends when the last store is
 * acknowledged, with write-backs still queued; a second launch on the kept memory
 * system then loads a few lines of another bank (which evict nothing dirty). Neither
 * launch's report may hold the other's DRAM work: nothing runs ahead once no awaited
 * request is left unanswered. Twice: with refreshes (dram.trefi 300), and with a DRAM
 * clock of 300 MHz, so slow that most write-backs are left at the end. */
static void launch_end(const char *sets, int refresh)
{
    scen *s = scenario(sets);
    uint64_t st[96], other[8];
    lines(s, 0, 1, 0, st, 96);
    lines(s, 0, 0, 0, other, 8);
    for (uint32_t sm = 0; sm < NSM; sm++) {
        for (uint32_t i = 0; i < 24; i++)
            add(s, sm, MR_STORE, st[sm * 24 + i], 2 * i, 0);
        for (uint32_t i = 0; i < 2; i++)
            add(s, sm, MR_LOAD, other[sm * 2 + i], 5 + i, 1);
    }
    same(s);
    print(refresh ? "launch end, refreshes" : "launch end, slow DRAM", s);
    /* the first launch ended with write-backs still queued: the second did them */
    assert_true(stat(s, 1, "dram", "writes") > 0);
    if (refresh)
        assert_true(stat(s, 0, "dram", "refreshes") > 0 && stat(s, 1, "dram", "refreshes") > 0);
    assert_true(s->ahead[0] > 0);
    done(s);
}

static void test_launch_end(void **state)
{
    (void)state;
    launch_end("l2.size=4096,l2.pipeline=40,dram.refresh=true,dram.trefi=300", 1);
    launch_end("l2.size=4096,l2.pipeline=40,gpu.mem_mhz=300", 0);
}

/* (iv) Banks asleep on full reply queues (l2.out_queue 4; a hit's reply takes the
 * crossbar 4 flits, the bank one cycle without sector requests): hits of one bank from
 * 4 SMs, one each every 2 cycles, with misses between them whose DRAM requests the bank
 * sends once the crossbar's pop has woken it, while the other misses keep DRAM busy.
 * (l2.mshr_merges 1: bank cycles may run ahead with up to one reply queued.) */
static void test_oblk(void **state)
{
    (void)state;
    scen *s = scenario("l2.out_queue=4,l2.mshr_merges=1,l2.sector_requests=false,l2.pipeline=40");
    hits_and_misses(s, 48, 2, 0, 64);
    same(s);
    print("oblk", s);
    /* SM 0's first hit (sent at 0): L2 cycle 39, data at 80, its reply enters the
     * crossbar at 81 and arrives 2 + 4 flits later, 87; SM 1's, at the partition a
     * cycle later (the crossbar's output takes one request a cycle), enters behind SM
     * 0's 4 flits at 85: 91 */
    assert_int_equal(s->done[0], 87);
    assert_int_equal(s->done[48], 91);
    assert_true(s->ahead[0] > 0);
    assert_true(s->sleeps[1] > 0);
    done(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stalled_port),
        cmocka_unit_test(test_reply_queues),
        cmocka_unit_test(test_launch_end),
        cmocka_unit_test(test_oblk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
