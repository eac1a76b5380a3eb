/* repl.c - the registry of replacement policies (repl.h). One line per policy. */
#include "mem/repl.h"

#include <stdio.h>
#include <string.h>

extern const repl_policy repl_lru, repl_fifo, repl_random;

static const repl_policy *const policies[] = {
    &repl_lru,
    &repl_fifo,
    &repl_random,
};

#define N_POL (sizeof policies / sizeof *policies)

const repl_policy *repl_find(const char *name)
{
    for (size_t i = 0; i < N_POL; i++)
        if (!strcmp(policies[i]->name, name))
            return policies[i];
    return NULL;
}

const repl_policy *repl_at(size_t i) { return i < N_POL ? policies[i] : NULL; }

void repl_known(char *buf, size_t n)
{
    size_t k = 0;
    if (n)
        buf[0] = 0;
    for (size_t i = 0; i < N_POL && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", policies[i]->name);
}
