/* timing.h - running a launch on the timing model (timing.c). */
#ifndef WS_GPU_TIMING_H
#define WS_GPU_TIMING_H

#include "func/func.h"
#include "gpu/sim.h"
#include "mem/memsys.h"

/* sim.host_threads_adapt's epochs (TIMING_EPOCH below): the loop iterations of the
 * current epoch, its index in the round, the round's winner (its phases on the calling
 * thread), the team epoch's time and the current epoch's time in earlier launches. Kept
 * across launches: a workload of many short launches (gaussian: 52 of 1.5-7k cycles)
 * would otherwise restart every round on the team and never reach the comparison. */
typedef struct {
    uint32_t n, i;
    uint32_t len;   /* the current round's epochs (0: TIMING_ROUND) */
    int win;
    double t_team, t_past;
} timing_adapt;

/* By epochs of TIMING_EPOCH loop iterations, rounds of TIMING_ROUND epochs: the first
 * runs its phases on the team, the second on the calling thread, the others the way that
 * took less time. A round the calling thread wins is twice as long as the one before (up
 * to TIMING_ROUND_MAX epochs), a round the team wins TIMING_ROUND again: a host whose
 * hand-overs cost several times the phase's work (session 33's: gups 3.8x slower on the
 * team) pays its team epochs ever more rarely, one in TIMING_ROUND_MAX at the end. */
enum { TIMING_EPOCH = 2048, TIMING_ROUND = 16, TIMING_ROUND_MAX = 1024 };

/* Whether the current epoch's phases run on the calling thread. */
static inline int timing_adapt_serial(const timing_adapt *ad)
{
    return ad->i == 0 ? 0 : ad->i == 1 ? 1 : ad->win;
}

/* The current epoch ended after `el` host seconds (its parts in earlier launches
 * included): records it and starts the next; returns timing_adapt_serial of the next. */
static inline int timing_adapt_next(timing_adapt *ad, double el)
{
    const uint32_t len = ad->len ? ad->len : TIMING_ROUND;
    if (ad->i == 0) {
        ad->t_team = el;
    } else if (ad->i == 1) {
        ad->win = el < ad->t_team;   /* the calling thread alone was faster */
        ad->len = !ad->win ? TIMING_ROUND : 2 * len < TIMING_ROUND_MAX ? 2 * len : TIMING_ROUND_MAX;
    }
    ad->i = (ad->i + 1) % (ad->len ? ad->len : TIMING_ROUND);
    ad->n = 0;
    ad->t_past = 0;
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
