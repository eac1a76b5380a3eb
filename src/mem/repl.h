/* repl.h - cache replacement policies as plug-ins, one registry (repl_find by name).
 *
 * A policy sees a cache as `lines` lines in sets of `ways` (line = set * ways + way)
 * and keeps its state in a repl_state the cache owns. The cache picks an invalid way
 * itself; the policy only chooses among valid candidates.
 *
 * victim() is a pure function of the state, so a side-effect-free probe of the cache
 * predicts the same victim that the access then evicts: the random policy draws from
 * its generator without advancing it, and advances it on insert (every eviction is
 * followed by an insert into that line, so the next draw differs). */
#ifndef WS_MEM_REPL_H
#define WS_MEM_REPL_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *stamp;     /* per line: LRU last use or FIFO insertion order           */
    uint64_t clock;      /* events so far (stamps are taken from it)                 */
    uint64_t rng;        /* random: generator state (seeded, deterministic)          */
    uint32_t ways;
} repl_state;

typedef struct {
    const char *name, *desc;
    void (*touch)(repl_state *s, uint32_t line);                       /* hit          */
    void (*insert)(repl_state *s, uint32_t line);                      /* allocation   */
    /* A way of `set` among the bits of cand (cand != 0, bit w = way w). */
    uint32_t (*victim)(const repl_state *s, uint32_t set, uint64_t cand);
} repl_policy;

/* Registry: "lru", "fifo", "random". */
const repl_policy *repl_find(const char *name);
const repl_policy *repl_at(size_t i);

/* State for `lines` lines of `ways`-way sets (ways <= 64); 0 or -1 (no memory). */
int repl_init(repl_state *s, uint32_t lines, uint32_t ways, uint64_t seed);
void repl_free(repl_state *s);

#endif
