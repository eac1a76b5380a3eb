/* setidx.c - the registry of set-index functions (setidx.h). One line per function. */
#include "mem/setidx.h"

#include <stdio.h>
#include <string.h>

extern const setidx_ops setidx_linear, setidx_fermi, setidx_xor;

static const setidx_ops *const fns[] = {
    &setidx_linear,
    &setidx_fermi,
    &setidx_xor,
};

#define N_FNS (sizeof fns / sizeof *fns)

const setidx_ops *setidx_find(const char *name)
{
    for (size_t i = 0; i < N_FNS; i++)
        if (!strcmp(fns[i]->name, name))
            return fns[i];
    return NULL;
}

const setidx_ops *setidx_at(size_t i) { return i < N_FNS ? fns[i] : NULL; }

void setidx_known(char *buf, size_t n)
{
    size_t k = 0;
    if (n)
        buf[0] = 0;
    for (size_t i = 0; i < N_FNS && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", fns[i]->name);
}
