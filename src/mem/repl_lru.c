/* repl_lru.c - `lru` (repl.h): evict the candidate whose last hit or fill is oldest.
 * State: a stamp per line from one event counter per cache (stamps are distinct). */
#include <stdlib.h>

#include "mem/repl.h"

/* clock: events so far; stamp[line]: the event of its last hit or fill */
typedef repl_stamps lru_state;

static void *lru_create(uint32_t lines, uint32_t ways, uint64_t seed)
{
    (void)seed;
    lru_state *s = calloc(1, sizeof *s + (lines ? lines : 1) * sizeof(uint64_t));
    if (s)
        s->ways = ways;
    return s;
}

static void lru_destroy(void *st) { free(st); }

static void lru_stamp(void *st, uint32_t line)
{
    lru_state *s = st;
    s->stamp[line] = ++s->clock;
}

static uint32_t lru_victim(const void *st, uint32_t set, uint64_t cand)
{
    const lru_state *s = st;
    return repl_oldest(s->stamp, s->ways, set, cand);
}

const repl_policy repl_lru = {
    "lru", "least recently used: evict the line whose last hit or fill is oldest",
    lru_create, lru_destroy, lru_stamp, lru_stamp, lru_victim, RT_STAMP,
};
