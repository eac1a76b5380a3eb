/* timing.h - running a launch on the timing model (timing.c). */
#ifndef WS_GPU_TIMING_H
#define WS_GPU_TIMING_H

#include "func/func.h"
#include "gpu/sim.h"
#include "mem/memsys.h"

/* sim.host_threads_adapt: the ways the cycle loop can run a slice of its iterations.
 * TIMING_TEAM: the SM phases on the pool's threads (the memory model's own thread, if it
 * has one, paused); TIMING_ALONE: the SM phases on the calling thread beside the memory
 * model's thread; TIMING_SERIAL: everything on the calling thread; TIMING_BOTH: the SM
 * phases shared by the calling thread (with the pool's threads but one) and the memory
 * model's thread, which runs its share between its own steps (memsys.h side_post).
 * SERIAL and BOTH only when the model has a thread of its own (detailed.c's partition
 * thread: without one TIMING_ALONE is serial already). The results are the same
 * whichever way runs a slice. */
enum { TIMING_TEAM, TIMING_ALONE, TIMING_SERIAL, TIMING_BOTH, TIMING__WAYS };
/* whether way w runs the memory model's thread */
#define WAY_MEM(w) ((w) == TIMING_ALONE || (w) == TIMING_BOTH)
_Static_assert(TIMING_TEAM == (int)WS_WAY_TEAM && TIMING_ALONE == (int)WS_WAY_ALONE &&
               TIMING_SERIAL == (int)WS_WAY_SERIAL && TIMING_BOTH == (int)WS_WAY_BOTH,
               "sim.host_way names the ways");
_Static_assert((int)TIMING__WAYS == (int)WS_HOST_WAYS, "ws_launch_stats.host_iters: a count per way");
enum { TIMING_TEST_MAX = 64 };   /* a way's test slices in a round, at most (4 x 16)      */

/* The chooser's state: the loop iterations of the current slice, its index in the round,
 * the round's length, the ways compared (2, 3 or 4), the round's winner, the warm-up slices
 * done, the current slice's time and work in earlier launches, the reference cost per
 * unit of work (the winner's in the last test, else the warm-up's; 0: none yet), each
 * way's test slices in the round (their host time per unit of work), the ways dropped
 * from the round's test, and the re-tests so far. Kept across launches: a workload of
 * many short launches (gaussian: 52 of 1.5-7k cycles) would otherwise restart every
 * round and never reach the comparison. */
typedef struct {
    uint32_t n, i;
    uint32_t len;   /* the current round's slices (0: timing_adapt_round) */
    uint32_t ways;
    int win;
    uint32_t warm;
    double t_past;
    uint64_t w_past;
    double ref;
    uint32_t ns[TIMING__WAYS];   /* each way's test slices in the round so far ...       */
    double u[TIMING__WAYS][TIMING_TEST_MAX];   /* ... and their host time per unit       */
    uint8_t drop;                /* ways out of the round's test (bit per way)           */
    uint32_t n_retest;
} timing_adapt;

/* By slices of TIMING_SLICE loop iterations, rounds of timing_adapt_round slices: the
 * first timing_adapt_test slices of a round take the ways in turn (slice i: way i mod
 * ways, TIMING_TEST_WAY slices each); the rest run the way whose test slices took least
 * time per unit of work (the loop's iterations and the SM cycles run), by their median
 * (not their sum: one slice that the host stalled for milliseconds, a page fault or
 * another process, does not decide). The cost per unit drifts with the launch's
 * progress, by a factor of two within a few thousand iterations (qv100 `blk
 * --ctas-per-sm 8` at 120 SMs: 0.9 to 2.0 us per unit over successive epochs of 2048
 * iterations on one thread), so that comparing one stretch of each way
 * (the design until session 40: an epoch on the team, then one alone) chose by the drift
 * as often as by the threads; interleaved, every way sees the same stretch of the
 * launch. A round won by the same way as the round before is twice as long as that one
 * (up to TIMING_ROUND_MAX slices), a change of winner makes it timing_adapt_round again:
 * a host whose hand-overs cost several times the phase's work (session 33's: gups 3.8x
 * slower on the team) pays its test slices ever more rarely.
 * Before the first round, TIMING_WARM slices run serially and are not compared: the
 * simulation's first cycles start every CTA and touch every SM's state for the first
 * time (the pages' first faults); their median cost per unit is the first reference
 * (their least made the first test cut slices of every way at 120 SMs, where a launch's
 * first thousands of iterations cost twice the later ones).
 * A way can be far slower than the others when the host's cores are busy with other
 * work: a thread that waits for another one that has lost its core waits for the host's
 * scheduler (atax `default`, --threads 2 beside a test suite on this 2-core VM: 0.4 s per
 * slice of the team against 4 ms alone, 123 s in all against 6 s on a quiet host). So a
 * test slice ends early once it has cost TIMING_CUT times the reference for its work so
 * far (timing_adapt_cut; it is compared by what it did); a way that has lost by
 * TIMING_DROP over its first TIMING_DROP_AFTER test slices of a round gives the rest of
 * them to the leading way (the test's cost on a workload where one way wins clearly:
 * gups, atax); and a slice of a long round (past its first timing_adapt_round slices)
 * that costs TIMING_RETEST times the reference starts a new round at once (a re-test):
 * the host's load, or a stretch of the workload much costlier per unit than the one the
 * last test saw. */
enum {
    TIMING_SLICE = 256, TIMING_TEST_WAY = 16, TIMING_WARM = 8, TIMING_ROUND_TESTS = 4,
    TIMING_ROUND_MAX = 8192, TIMING_CUT = 2, TIMING_RETEST = 4, TIMING_CUT_EVERY = 16,
    TIMING_DROP_AFTER = 4, TIMING_DROP = 2
};
_Static_assert((int)TIMING_WARM <= (int)TIMING_TEST_MAX, "the warm-up's slices are kept in the test slots");
#define TIMING_CUT_SLACK 50e-6   /* s: no cut for less (a clock read, a page fault)    */
#define TIMING_TEST_S 2e-3       /* s: a warm-up or test slice's longest (timing_adapt_full) */

static inline uint32_t timing_adapt_ways(const timing_adapt *ad) { return ad->ways ? ad->ways : 2; }
/* the test slices of a round, and a round's least length */
static inline uint32_t timing_adapt_test(const timing_adapt *ad) { return TIMING_TEST_WAY * timing_adapt_ways(ad); }
static inline uint32_t timing_adapt_round(const timing_adapt *ad) { return TIMING_ROUND_TESTS * timing_adapt_test(ad); }

/* A fresh chooser comparing `ways` ways (2: team and alone; 3: and serial; 4: and
 * both). */
static inline void timing_adapt_init(timing_adapt *ad, uint32_t ways)
{
    *ad = (timing_adapt){0};
    ad->ways = ways;
}

/* The median host time per unit of work of way k's test slices in the round so far (a
 * slice without work counts one unit): a median, not the sums, so that one slice that the
 * host stalled for milliseconds cannot decide the round */
static inline double timing_adapt_median(const timing_adapt *ad, int k)
{
    const uint32_t n = ad->ns[k] < TIMING_TEST_MAX ? ad->ns[k] : TIMING_TEST_MAX;
    double v[TIMING_TEST_MAX];
    for (uint32_t a = 0; a < n; a++) {   /* (insertion sort: at most 48) */
        uint32_t b = a;
        for (; b > 0 && v[b - 1] > ad->u[k][a]; b--)
            v[b] = v[b - 1];
        v[b] = ad->u[k][a];
    }
    return !n ? 0 : n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The way of least median time per unit among those with test slices in the round and
 * not in `skip` (a bit per way; ties: the first), its median in *best; -1 when none */
static inline int timing_adapt_lead(const timing_adapt *ad, unsigned skip, double *best)
{
    int lead = -1;
    for (int j = 0; j < (int)timing_adapt_ways(ad); j++) {
        if ((skip >> j & 1) || !ad->ns[j])
            continue;
        const double m = timing_adapt_median(ad, j);
        if (lead < 0 || m < *best) {
            lead = j;
            *best = m;
        }
    }
    return lead;
}

/* Whether the current slice is a test slice (the warm-up done) */
static inline int timing_adapt_testing(const timing_adapt *ad)
{
    return ad->warm >= TIMING_WARM && ad->i < timing_adapt_test(ad);
}

/* The way the current slice runs (TIMING_TEAM, TIMING_ALONE, TIMING_SERIAL or
 * TIMING_BOTH). A test slice of a dropped way runs the way leading the test instead. */
static inline int timing_adapt_way(const timing_adapt *ad)
{
    const uint32_t ways = timing_adapt_ways(ad);
    if (ad->warm < TIMING_WARM)
        return ways == 2 ? TIMING_ALONE : TIMING_SERIAL;   /* serial */
    if (ad->i >= timing_adapt_test(ad))
        return ad->win;
    const int k = (int)(ad->i % ways);
    if (!(ad->drop >> k & 1))
        return k;
    double best = 0;
    const int lead = timing_adapt_lead(ad, ad->drop, &best);
    return lead >= 0 ? lead : k;
}

/* Whether the current slice's SM phases run on the calling thread alone. */
static inline int timing_adapt_serial(const timing_adapt *ad)
{
    const int w = timing_adapt_way(ad);
    return w != TIMING_TEAM && w != TIMING_BOTH;
}

/* Whether a slice that has taken `el` s for `work` units costs more than f times the
 * reference (none: never) */
static inline int timing_adapt_over(const timing_adapt *ad, double el, uint64_t work, double f)
{
    return ad->ref > 0 && el > f * ad->ref * (double)(work ? work : 1) + TIMING_CUT_SLACK;
}

/* The current slice, a test slice that has taken `el` s for `work` units so far (its
 * parts in earlier launches included), ends now (then call timing_adapt_next with the
 * same): it costs more than TIMING_CUT times the reference. */
static inline int timing_adapt_cut(const timing_adapt *ad, double el, uint64_t work)
{
    return timing_adapt_testing(ad) && timing_adapt_over(ad, el, work, TIMING_CUT);
}

/* Whether the current slice is a warm-up or test slice (looked at every
 * TIMING_CUT_EVERY iterations) */
static inline int timing_adapt_short(const timing_adapt *ad)
{
    return ad->warm < TIMING_WARM || timing_adapt_testing(ad);
}

/* The current slice, a warm-up or test slice that has taken `el` s so far, ends now
 * (then call timing_adapt_next): it has run TIMING_TEST_S. Where an iteration costs
 * more than TIMING_TEST_S / TIMING_SLICE (8 us: 120 SMs take about 70 us), the
 * warm-up and the test would otherwise fill a launch of tens of thousands of iterations
 * (qv100 `blk --ctas-per-sm 8` at 120 SMs: 18k of its 24.7k) with the losing ways; a
 * slice is scored per unit of work, whatever its length. */
static inline int timing_adapt_full(const timing_adapt *ad, double el)
{
    return timing_adapt_short(ad) && el >= TIMING_TEST_S;
}

/* The current slice ended after `el` host seconds and `work` units of work (its parts in
 * earlier launches included): records it and starts the next; returns timing_adapt_way
 * of the next. */
static inline int timing_adapt_next(timing_adapt *ad, double el, uint64_t work)
{
    const uint32_t ways = timing_adapt_ways(ad), test = timing_adapt_test(ad), round = timing_adapt_round(ad);
    const uint32_t len = ad->len ? ad->len : round;
    const double unit = el / (double)(work ? work : 1);
    if (ad->warm < TIMING_WARM) {
        /* the warm-up: the round starts after it (at slice 0); the median of its slices
         * is the first reference (kept in the first way's test slots meanwhile) */
        ad->u[0][ad->warm++] = unit;
        if (ad->warm == TIMING_WARM) {
            ad->ns[0] = TIMING_WARM;
            ad->ref = timing_adapt_median(ad, 0);
            ad->ns[0] = 0;
        }
        ad->n = 0;
        ad->t_past = 0;
        ad->w_past = 0;
        return timing_adapt_way(ad);
    }
    if (ad->i < test) {
        const int k = timing_adapt_way(ad);
        if (ad->ns[k] < TIMING_TEST_MAX)
            ad->u[k][ad->ns[k]++] = unit;
        /* a way whose median has lost by TIMING_DROP over its first TIMING_DROP_AFTER
         * slices takes no more test slices in this round (the leader takes them) */
        if (ad->ns[k] >= TIMING_DROP_AFTER) {
            const double mk = timing_adapt_median(ad, k);
            for (int j = 0; j < (int)ways; j++)
                if (j != k && ad->ns[j] >= TIMING_DROP_AFTER / 2 &&
                    mk > TIMING_DROP * timing_adapt_median(ad, j))
                    ad->drop |= (uint8_t)(1u << k);
        }
        if (ad->i == test - 1) {
            /* the way of least median time per unit of work (ties: the first) */
            double best = 0;
            int win = timing_adapt_lead(ad, 0, &best);
            if (win < 0)
                win = 0;
            /* the same winner as the round before: twice as long (ad->len 0: none yet) */
            ad->len = ad->len && win == ad->win ? (2 * len < TIMING_ROUND_MAX ? 2 * len : TIMING_ROUND_MAX)
                                                : round;
            ad->win = win;
            ad->ref = best;
            for (int j = 0; j < TIMING__WAYS; j++)
                ad->ns[j] = 0;
            ad->drop = 0;
        }
    } else if (ad->i >= round && timing_adapt_over(ad, el, work, TIMING_RETEST)) {
        /* a long round's slice far costlier than the test said: a new round now */
        ad->n_retest++;
        ad->len = round;
        ad->i = round - 1;
    }
    ad->i = (ad->i + 1) % (ad->len ? ad->len : round);
    ad->n = 0;
    ad->t_past = 0;
    ad->w_past = 0;
    return timing_adapt_way(ad);
}

/* What a simulation keeps from one launch to the next: the memory system (mem.keep_state,
 * for models with launch_begin), created at the first timing launch, on a clock that runs
 * on across launches (`clock`: the core cycle the next launch starts at); the host
 * threads' adaptive choice. */
typedef struct {
    memsys *mem;
    uint64_t clock;
    timing_adapt ad;
} timing_keep;

void timing_keep_free(timing_keep *k);

/* A host-to-device copy of [addr, addr + n): handed to the kept memory system (created
 * here if need be) when the configuration keeps one and its model takes copies
 * (mem_model.host_write; the detailed model with l2.fill_on_copy). */
void timing_host_write(const ws_config *cfg, timing_keep *keep, uint64_t addr, uint64_t n);

/* Runs the launch prepared in L cycle by cycle; fills st (timing fields, policy,
 * regs) and returns WS_OK or the fault / configuration error (message in err).
 * keep: the simulation's kept memory system (NULL: a fresh one for this launch). */
ws_err timing_launch(const ws_config *cfg, func_launch *L, ws_launch_stats *st, timing_keep *keep,
                     char *err, size_t n);

#endif
