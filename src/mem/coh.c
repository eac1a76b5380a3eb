/* coh.c - the registry of coherence protocols (coh.h). One line per protocol; the first
 * is the default (mem.protocol's default and a cache_cfg without a protocol). */
#include "mem/coh.h"

#include <stdio.h>
#include <string.h>

extern const coh_ops coh_nvidia, coh_si, coh_moesi, coh_nmoesi;

static const coh_ops *const protocols[] = {
    &coh_nvidia,
    &coh_si,
    &coh_moesi,
    &coh_nmoesi,
};

#define N_COH (sizeof protocols / sizeof *protocols)

const coh_ops *coh_find(const char *name)
{
    for (size_t i = 0; i < N_COH; i++)
        if (!strcmp(protocols[i]->name, name))
            return protocols[i];
    return NULL;
}

const coh_ops *coh_at(size_t i) { return i < N_COH ? protocols[i] : NULL; }

void coh_known(char *buf, size_t n)
{
    size_t k = 0;
    if (n)
        buf[0] = 0;
    for (size_t i = 0; i < N_COH && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", protocols[i]->name);
}
