/* pool.h - a fixed team of host threads that runs one function in lock step.
 *
 * The parallel timing simulation (sim.host_threads, gpu/timing.c) runs its SM phase
 * once per simulated cycle on every thread of the team: ws_pool_run calls
 * fn(ctx, k) for k = 0 .. n-1, k = 0 on the calling thread, the others on the team's
 * n - 1 threads, and returns when all have returned. Everything fn(ctx, k) wrote is
 * visible to the caller afterwards (and what the caller wrote before, to fn).
 *
 * The hand-overs cost far less than a simulated cycle: a waiting thread spins a while
 * (the next phase usually starts within microseconds) and then sleeps on a condition
 * variable, so an idle or descheduled team costs no CPU time. No state outside the
 * pool object. */
#ifndef WS_GPU_POOL_H
#define WS_GPU_POOL_H

#include <stdint.h>

typedef struct ws_pool ws_pool;
typedef void (*ws_pool_fn)(void *ctx, uint32_t k);

/* A team of n (>= 1) members; NULL when out of memory or a thread cannot start. n == 1
 * starts no thread. */
ws_pool *ws_pool_create(uint32_t n, ws_pool_fn fn, void *ctx);
/* One phase. Returns nonzero when the caller had to sleep waiting for a member that was
 * awake when the phase began (after about 300 us of polls and yields: a sign that the
 * host's cores are taken by other work; the caller may then run a while without the
 * team, see gpu/timing.c). */
int ws_pool_run(ws_pool *p);
/* The members go to sleep at once when their phase is done, instead of polling for the
 * next one a while (the caller runs its phases elsewhere for a while: their polls
 * would take cores from the threads that do); the next ws_pool_run wakes them. NULL
 * allowed. */
void ws_pool_park(ws_pool *p);
void ws_pool_destroy(ws_pool *p);   /* NULL allowed */

#endif
