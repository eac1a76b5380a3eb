/* repl_fifo.c - `fifo` (repl.h): evict the candidate allocated first; hits do not
 * count. State: an insertion stamp per line from one counter per cache. */
#include <stdlib.h>

#include "mem/repl.h"

/* clock: insertions so far; stamp[line]: the insertion that brought it in */
typedef repl_stamps fifo_state;

static void *fifo_create(uint32_t lines, uint32_t ways, uint64_t seed)
{
    (void)seed;
    fifo_state *s = calloc(1, sizeof *s + (lines ? lines : 1) * sizeof(uint64_t));
    if (s)
        s->ways = ways;
    return s;
}

static void fifo_destroy(void *st) { free(st); }
static void fifo_touch(void *st, uint32_t line) { (void)st, (void)line; }

static void fifo_insert(void *st, uint32_t line)
{
    fifo_state *s = st;
    s->stamp[line] = ++s->clock;
}

static uint32_t fifo_victim(const void *st, uint32_t set, uint64_t cand)
{
    const fifo_state *s = st;
    return repl_oldest(s->stamp, s->ways, set, cand);
}

const repl_policy repl_fifo = {
    "fifo", "first in, first out: evict the line allocated first; hits do not count",
    fifo_create, fifo_destroy, fifo_touch, fifo_insert, fifo_victim, RT_NONE,
};
