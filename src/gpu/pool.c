/* pool.c - the lock-step thread team of pool.h. */
#include "gpu/pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

/* Waiting for a flag: SPINS polls (about a microsecond, the usual length of a phase),
 * then YIELDS polls each after giving the core away (a member that another process
 * took the core from gets it back sooner), then sleep on a condition variable. */
enum { SPINS = 200, YIELDS = 4 };

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
 * core, 0 not yet. */
static int poll(atomic_uint *a, unsigned v, int eq)
{
    for (int i = 0; i < SPINS; i++) {
        if ((atomic_load(a) == v) == eq)
            return 2;
        relax();
    }
    for (int i = 0; i < YIELDS; i++) {
        sched_yield();
        if ((atomic_load(a) == v) == eq)
            return 1;
    }
    return 0;
}

static void *member_main(void *arg)
{
    member *m = arg;
    ws_pool *p = m->p;
    unsigned seen = 0;
    for (;;) {
        if (!poll(&p->gen, seen, 0)) {
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
    int cold = wake_all(p);
    p->fn(p->ctx, 0);
    int got = poll(&p->left, 0, 1);
    if (got == 2)
        return 0;
    if (!got) {
        pthread_mutex_lock(&p->mu);
        atomic_store(&p->main_sleeps, 1);
        while (atomic_load(&p->left))
            pthread_cond_wait(&p->done, &p->mu);
        atomic_store(&p->main_sleeps, 0);
        pthread_mutex_unlock(&p->mu);
    }
    return cold ? 0 : 1;
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
