/* bench_ptx.c - finds a workload's embedded PTX by name. */
#include "bench.h"

#include <string.h>

extern const struct { const char *name; const char *text; } bench_ptx_table[];

const char *bench_ptx(const char *name)
{
    for (int i = 0; bench_ptx_table[i].name; i++)
        if (!strcmp(bench_ptx_table[i].name, name))
            return bench_ptx_table[i].text;
    return NULL;
}
