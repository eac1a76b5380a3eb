/* pool.c - the lock-step thread team of pool.h. */
#include "gpu/pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

/* Waiting for a flag: SPINS polls (4 us at the development VM's 20 ns pause), then up to
 * YIELDS rounds of giving the core away and POLLS more polls (about 300 us in all), then
 * sleep on a condition variable. A member waits for the serial part of a cycle (the
 * memory system's tick, the commit, the dispatch): a few microseconds on the GTX480's 15
 * SMs, 30-50 us at 120 SMs. A sleep costs the futex wait and wake and two context
 * switches, which on a virtual machine whose system calls trap to the hypervisor (the
 * development VM) cost more than such a phase: with 4 yields before the sleep the members
 * slept at every cycle of qv100 `blk --ctas-per-sm 8 --per-thread 4` at 120 SMs, and two
 * threads took 6.7 s against one thread's 5.4 s (17 % of the samples in the kernel's
 * futex and yield paths). The yields keep the wait cheap where the host has fewer free
 * cores than threads: a thread that polls without yielding holds the core that the
 * thread it waits for needs (gaussian `small` with every phase on two threads: 1.7 s
 * against 0.2 s while another process held a core, with 330 us of polls alone). */
enum { SPINS = 200, YIELDS = 128, POLLS = 64 };

typedef struct {
    ws_pool *p;
    uint32_t k;
} member;

struct ws_pool {
    ws_pool_fn fn;
    void *ctx;
    uint32_t n;
    pthread_t *th;
    member *mb;
    uint32_t started;        /* threads running                                       */
    atomic_uint gen;         /* phase number: a member runs fn once per increment      */
    atomic_uint left;        /* members of the phase not done                          */
    atomic_int quit;
    atomic_int park;         /* ws_pool_park: members sleep at once between phases      */
    atomic_uint sleepers;    /* members asleep on go (or about to be)                  */
    atomic_int main_sleeps;  /* the caller asleep on done                              */
    pthread_mutex_t mu;
    pthread_cond_t go, done;
};

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Polls until (*a == v) == eq: 2 when that came while spinning, 1 after yielding the
 * core, 0 not yet (or *stop set, when stop is given). */
static int poll(atomic_uint *a, unsigned v, int eq, atomic_int *stop)
{
    for (int i = 0; i < SPINS; i++) {
        if ((atomic_load(a) == v) == eq)
            return 2;
        if (stop && atomic_load(stop))
            return 0;
        relax();
    }
    for (int i = 0; i < YIELDS; i++) {
        sched_yield();
        for (int j = 0; j < POLLS; j++) {
            if ((atomic_load(a) == v) == eq)
                return 1;
            if (stop && atomic_load(stop))
                return 0;
            relax();
        }
    }
    return 0;
}

static void *member_main(void *arg)
{
    member *m = arg;
    ws_pool *p = m->p;
    unsigned seen = 0;
    for (;;) {
        if (!poll(&p->gen, seen, 0, &p->park)) {
            pthread_mutex_lock(&p->mu);
            atomic_fetch_add(&p->sleepers, 1);
            while (atomic_load(&p->gen) == seen)
                pthread_cond_wait(&p->go, &p->mu);
            atomic_fetch_sub(&p->sleepers, 1);
            pthread_mutex_unlock(&p->mu);
        }
        seen = atomic_load(&p->gen);
        if (atomic_load(&p->quit))
            return NULL;
        p->fn(p->ctx, m->k);
        if (atomic_fetch_sub(&p->left, 1) == 1 && atomic_load(&p->main_sleeps)) {
            pthread_mutex_lock(&p->mu);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

/* Starts a phase; nonzero when some member was asleep. */
static int wake_all(ws_pool *p)
{
    atomic_fetch_add(&p->gen, 1);
    if (atomic_load(&p->sleepers)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
        return 1;
    }
    return 0;
}

ws_pool *ws_pool_create(uint32_t n, ws_pool_fn fn, void *ctx)
{
    ws_pool *p = calloc(1, sizeof *p);
    if (!p || !n) {
        free(p);
        return NULL;
    }
    p->fn = fn;
    p->ctx = ctx;
    p->n = n;
    atomic_init(&p->gen, 0);
    atomic_init(&p->left, 0);
    atomic_init(&p->quit, 0);
    atomic_init(&p->park, 0);
    atomic_init(&p->sleepers, 0);
    atomic_init(&p->main_sleeps, 0);
    if (n == 1)
        return p;
    p->th = calloc(n, sizeof *p->th);
    p->mb = calloc(n, sizeof *p->mb);
    if (!p->th || !p->mb || pthread_mutex_init(&p->mu, NULL)) {
        free(p->th);
        free(p->mb);
        free(p);
        return NULL;
    }
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    for (uint32_t k = 1; k < n; k++) {
        p->mb[k] = (member){p, k};
        if (pthread_create(&p->th[k], NULL, member_main, &p->mb[k])) {
            ws_pool_destroy(p);
            return NULL;
        }
        p->started = k;
    }
    return p;
}

int ws_pool_run(ws_pool *p)
{
    if (p->n == 1) {
        p->fn(p->ctx, 0);
        return 0;
    }
    atomic_store(&p->left, p->n - 1);
    if (atomic_load(&p->park))
        atomic_store(&p->park, 0);
    int cold = wake_all(p);
    p->fn(p->ctx, 0);
    /* (a wait through the yields is no sign of a busy host: at 120 SMs the members'
     * share of a phase often ends 5-50 us after the caller's; counting those as slow
     * kept qv100 `blk --ctas-per-sm 8` at 120 SMs on one thread) */
    if (poll(&p->left, 0, 1, NULL))
        return 0;
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->main_sleeps, 1);
    while (atomic_load(&p->left))
        pthread_cond_wait(&p->done, &p->mu);
    atomic_store(&p->main_sleeps, 0);
    pthread_mutex_unlock(&p->mu);
    return cold ? 0 : 1;
}

void ws_pool_park(ws_pool *p)
{
    if (p)
        atomic_store(&p->park, 1);
}

void ws_pool_destroy(ws_pool *p)
{
    if (!p)
        return;
    if (p->n > 1) {
        atomic_store(&p->quit, 1);
        wake_all(p);
        for (uint32_t k = 1; k <= p->started; k++)
            pthread_join(p->th[k], NULL);
        pthread_cond_destroy(&p->go);
        pthread_cond_destroy(&p->done);
        pthread_mutex_destroy(&p->mu);
    }
    free(p->th);
    free(p->mb);
    free(p);
}
