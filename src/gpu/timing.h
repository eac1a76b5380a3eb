/* timing.h - running a launch on the timing model (timing.c). */
#ifndef WS_GPU_TIMING_H
#define WS_GPU_TIMING_H

#include "func/func.h"
#include "gpu/sim.h"
#include "mem/memsys.h"

/* sim.host_threads_adapt's slices (TIMING_SLICE below): the loop iterations of the
 * current slice, its index in the round, the round's winner (its phases on the calling
 * thread), the warm-up slices done, the round's test slices' host time and work on the
 * team and alone, and the current slice's time and work in earlier launches. Kept
 * across launches: a workload of many short launches (gaussian: 52 of 1.5-7k cycles)
 * would otherwise restart every round and never reach the comparison. */
typedef struct {
    uint32_t n, i;
    uint32_t len;   /* the current round's slices (0: TIMING_ROUND) */
    int win;
    uint32_t warm;
    double t_team, t_alone, t_past;
    uint64_t w_team, w_alone, w_past;
} timing_adapt;

/* By slices of TIMING_SLICE loop iterations, rounds of TIMING_ROUND slices: the first
 * TIMING_TEST slices of a round alternate between the team (even) and the calling thread
 * alone (odd); the rest run the way that took less time per unit of work (the loop's
 * iterations and the SM cycles run) over them. The cost per unit drifts with the
 * launch's progress, by a factor of two within a few thousand iterations (qv100 `blk
 * --ctas-per-sm 8` at 120 SMs: 0.9 to 2.0 us per unit over successive epochs of 2048
 * iterations on one thread), so that comparing one stretch of each way (the design until
 * session 40: an epoch on the team, then one alone) chose by the drift as often as by the
 * threads; interleaved, both ways see the same stretch of the launch. A round won by the
 * same way as the round before is twice as long as that one (up to TIMING_ROUND_MAX
 * slices), a change of winner makes it TIMING_ROUND again: a host whose hand-overs cost
 * several times the phase's work (session 33's: gups 3.8x slower on the team) pays its
 * test slices ever more rarely, TIMING_TEST / 2 of TIMING_ROUND_MAX at the end, and so
 * does a launch that the team keeps running faster (its test slices alone cost the
 * difference). Before the first round, TIMING_WARM slices on the team that are not
 * compared: the simulation's first cycles start every CTA and touch every SM's state
 * for the first time (the pages' first faults, the members' caches): 2.2 us per unit on
 * the team at 120 SMs, then 1.4. */
enum { TIMING_SLICE = 256, TIMING_TEST = 32, TIMING_WARM = 8, TIMING_ROUND = 128, TIMING_ROUND_MAX = 8192 };

/* Whether the current slice's phases run on the calling thread. */
static inline int timing_adapt_serial(const timing_adapt *ad)
{
    return ad->warm < TIMING_WARM ? 0 : ad->i < TIMING_TEST ? (int)(ad->i & 1) : ad->win;
}

/* The current slice ended after `el` host seconds and `work` units of work (its parts in
 * earlier launches included): records it and starts the next; returns
 * timing_adapt_serial of the next. */
static inline int timing_adapt_next(timing_adapt *ad, double el, uint64_t work)
{
    const uint32_t len = ad->len ? ad->len : TIMING_ROUND;
    if (ad->warm < TIMING_WARM) {
        ad->warm++;   /* the warm-up: the round starts after it */
    } else {
        if (ad->i < TIMING_TEST && (ad->i & 1)) {
            ad->t_alone += el;
            ad->w_alone += work;
        } else if (ad->i < TIMING_TEST) {
            ad->t_team += el;
            ad->w_team += work;
        }
        if (ad->i == TIMING_TEST - 1) {
            /* the calling thread alone was faster per unit of work */
            const int win = ad->t_alone * (double)(ad->w_team ? ad->w_team : 1) <
                            ad->t_team * (double)(ad->w_alone ? ad->w_alone : 1);
            /* the same winner as the round before: twice as long (ad->len 0: none yet) */
            ad->len = ad->len && win == ad->win ? (2 * len < TIMING_ROUND_MAX ? 2 * len : TIMING_ROUND_MAX)
                                                : TIMING_ROUND;
            ad->win = win;
            ad->t_team = ad->t_alone = 0;
            ad->w_team = ad->w_alone = 0;
        }
        ad->i = (ad->i + 1) % (ad->len ? ad->len : TIMING_ROUND);
    }
    ad->n = 0;
    ad->t_past = 0;
    ad->w_past = 0;
    return timing_adapt_serial(ad);
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
