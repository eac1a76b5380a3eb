/* repl.h - cache replacement policies as plug-ins, one registry (repl_find by name).
 *
 * A policy sees a cache as `lines` lines in sets of `ways` (line = set * ways + way)
 * and keeps whatever state it needs in an object it allocates itself (create) and the
 * cache owns (destroy); the cache never looks inside. The cache picks an invalid way
 * itself; the policy only chooses among valid candidates.
 *
 * victim() is a pure function of the state, so a side-effect-free probe of the cache
 * predicts the same victim that the access then evicts: the random policy draws from
 * its generator without advancing it, and advances it on insert (every eviction is
 * followed by an insert into that line, so the next draw differs).
 *
 * Registered (repl.c; one file each): lru (repl_lru.c), fifo (repl_fifo.c), random
 * (repl_random.c). To add one: a file defining a `const repl_policy repl_NAME` and one
 * line in the table of repl.c. */
#ifndef WS_MEM_REPL_H
#define WS_MEM_REPL_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *name, *desc;
    /* State for `lines` lines of `ways`-way sets (1 <= ways <= 64); NULL: no memory.
     * seed: a per-cache value for policies that draw random numbers. */
    void *(*create)(uint32_t lines, uint32_t ways, uint64_t seed);
    void (*destroy)(void *st);
    void (*touch)(void *st, uint32_t line);                       /* hit          */
    void (*insert)(void *st, uint32_t line);                      /* allocation   */
    /* A way of `set` among the bits of cand (cand != 0, bit w = way w). */
    uint32_t (*victim)(const void *st, uint32_t set, uint64_t cand);
    /* What touch() is, for a cache that does it inline on its fast path: RT_CALL (call
     * it), RT_NONE (it does nothing) or RT_STAMP (the state is a repl_stamps and touch
     * is stamp[line] = ++clock). */
    uint8_t touch_kind;
} repl_policy;

enum { RT_CALL, RT_NONE, RT_STAMP };

/* The state of the stamp-based policies (lru, fifo): one event counter per cache and a
 * stamp per line. */
typedef struct {
    uint64_t clock;
    uint32_t ways;
    uint64_t stamp[];
} repl_stamps;

/* Registry by exact name; NULL if unknown. */
const repl_policy *repl_find(const char *name);
const repl_policy *repl_at(size_t i);
/* "lru, fifo, random": the registered names, for error messages. */
void repl_known(char *buf, size_t n);

/* Shared by the stamp-based policies: the candidate way of `set` with the smallest
 * stamp (stamps of the set's ways start at stamp + set * ways). */
static inline uint32_t repl_oldest(const uint64_t *stamp, uint32_t ways, uint32_t set, uint64_t cand)
{
    const uint64_t *st = stamp + (size_t)set * ways;
    uint32_t best = (uint32_t)__builtin_ctzll(cand);
    uint64_t bv = st[best];
    for (uint64_t x = cand & (cand - 1); x; x &= x - 1) {
        const uint32_t w = (uint32_t)__builtin_ctzll(x);
        if (st[w] < bv) {
            bv = st[w];
            best = w;
        }
    }
    return best;
}

#endif
