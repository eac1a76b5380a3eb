/* repl_random.c - `random` (repl.h): uniform among the candidates, from a splitmix64
 * stream seeded per cache (sim.seed and the cache's identity): deterministic. A draw
 * does not advance the stream; the insert that follows every eviction does, so a
 * probe predicts the victim exactly. */
#include <stdlib.h>

#include "mem/repl.h"

#define GOLDEN 0x9e3779b97f4a7c15ull

typedef struct {
    uint64_t rng;         /* generator state: steps by GOLDEN per insert           */
    uint32_t ways;
} rnd_state;

/* splitmix64 output for state x (the generator steps by GOLDEN). */
static uint64_t mix(uint64_t x)
{
    x += GOLDEN;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static void *rnd_create(uint32_t lines, uint32_t ways, uint64_t seed)
{
    (void)lines;
    rnd_state *s = calloc(1, sizeof *s);
    if (s) {
        s->ways = ways;
        s->rng = mix(seed);
    }
    return s;
}

static void rnd_destroy(void *st) { free(st); }
static void rnd_touch(void *st, uint32_t line) { (void)st, (void)line; }

static void rnd_insert(void *st, uint32_t line)
{
    (void)line;
    ((rnd_state *)st)->rng += GOLDEN;
}

static uint32_t rnd_victim(const void *st, uint32_t set, uint64_t cand)
{
    const rnd_state *s = st;
    uint32_t n = (uint32_t)__builtin_popcountll(cand);
    uint32_t k = (uint32_t)(mix(s->rng ^ ((uint64_t)set << 32)) % n);
    for (uint32_t w = 0; w < s->ways; w++)
        if (cand >> w & 1 && k-- == 0)
            return w;
    return 0;
}

const repl_policy repl_random = {
    "random", "uniformly random among the candidates (sim.seed; deterministic)",
    rnd_create, rnd_destroy, rnd_touch, rnd_insert, rnd_victim, RT_NONE,
};
