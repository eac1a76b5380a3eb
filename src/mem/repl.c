/* repl.c - replacement policies (repl.h): LRU, FIFO and seeded random. */
#include "mem/repl.h"

#include <stdlib.h>
#include <string.h>

#define GOLDEN 0x9e3779b97f4a7c15ull

/* splitmix64 output for state x (the generator steps by GOLDEN). */
static uint64_t mix(uint64_t x)
{
    x += GOLDEN;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint32_t oldest(const repl_state *s, uint32_t set, uint64_t cand)
{
    const uint64_t *st = s->stamp + (size_t)set * s->ways;
    uint32_t best = 0;
    uint64_t bv = UINT64_MAX;
    for (uint32_t w = 0; w < s->ways; w++)
        if ((cand >> w & 1) && st[w] < bv) {
            bv = st[w];
            best = w;
        }
    return best;
}

static void stamp_now(repl_state *s, uint32_t line) { s->stamp[line] = ++s->clock; }
static void no_op(repl_state *s, uint32_t line) { (void)s, (void)line; }

static void rnd_insert(repl_state *s, uint32_t line)
{
    (void)line;
    s->rng += GOLDEN;
}

static uint32_t rnd_victim(const repl_state *s, uint32_t set, uint64_t cand)
{
    uint32_t n = (uint32_t)__builtin_popcountll(cand);
    uint32_t k = (uint32_t)(mix(s->rng ^ ((uint64_t)set << 32)) % n);
    for (uint32_t w = 0; w < s->ways; w++)
        if (cand >> w & 1 && k-- == 0)
            return w;
    return 0;
}

static const repl_policy policies[] = {
    {"lru", "least recently used: evict the line whose last hit or fill is oldest",
     stamp_now, stamp_now, oldest},
    {"fifo", "first in, first out: evict the line allocated first; hits do not count",
     no_op, stamp_now, oldest},
    {"random", "uniformly random among the candidates (sim.seed; deterministic)",
     no_op, rnd_insert, rnd_victim},
};

const repl_policy *repl_find(const char *name)
{
    for (size_t i = 0; i < sizeof policies / sizeof *policies; i++)
        if (!strcmp(policies[i].name, name))
            return &policies[i];
    return NULL;
}

const repl_policy *repl_at(size_t i)
{
    return i < sizeof policies / sizeof *policies ? &policies[i] : NULL;
}

int repl_init(repl_state *s, uint32_t lines, uint32_t ways, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    if (!ways || ways > 64)
        return -1;
    s->stamp = calloc(lines ? lines : 1, sizeof *s->stamp);
    if (!s->stamp)
        return -1;
    s->ways = ways;
    s->rng = mix(seed);
    return 0;
}

void repl_free(repl_state *s)
{
    free(s->stamp);
    s->stamp = NULL;
}
