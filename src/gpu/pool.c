/* pool.c - the lock-step thread team of pool.h. */
#include "gpu/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* Polls of a flag before sleeping: a few microseconds, the usual length of a phase. */
enum { SPINS = 4000 };

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

static void *member_main(void *arg)
{
    member *m = arg;
    ws_pool *p = m->p;
    unsigned seen = 0;
    for (;;) {
        int i = 0;
        while (atomic_load(&p->gen) == seen && i < SPINS) {
            relax();
            i++;
        }
        if (atomic_load(&p->gen) == seen) {
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

static void wake_all(ws_pool *p)
{
    atomic_fetch_add(&p->gen, 1);
    if (atomic_load(&p->sleepers)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
    }
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

void ws_pool_run(ws_pool *p)
{
    if (p->n == 1) {
        p->fn(p->ctx, 0);
        return;
    }
    atomic_store(&p->left, p->n - 1);
    wake_all(p);
    p->fn(p->ctx, 0);
    int i = 0;
    while (atomic_load(&p->left) && i < SPINS) {
        relax();
        i++;
    }
    if (atomic_load(&p->left)) {
        pthread_mutex_lock(&p->mu);
        atomic_store(&p->main_sleeps, 1);
        while (atomic_load(&p->left))
            pthread_cond_wait(&p->done, &p->mu);
        atomic_store(&p->main_sleeps, 0);
        pthread_mutex_unlock(&p->mu);
    }
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
