/* div.c - the registry of divergence policies (div.h). One line per policy. */
#include <stdio.h>
#include <string.h>

#include "func/div.h"

extern const div_ops div_simt_stack, div_path_table;

static const div_ops *const policies[] = {
    &div_simt_stack,
    &div_path_table,
};

const div_ops *div_find(const char *name)
{
    for (size_t i = 0; i < sizeof policies / sizeof *policies; i++)
        if (!strcmp(policies[i]->name, name))
            return policies[i];
    return NULL;
}

const div_ops *div_at(size_t i)
{
    return i < sizeof policies / sizeof *policies ? policies[i] : NULL;
}

void div_names(char *buf, size_t n)
{
    size_t k = 0;
    if (n)
        buf[0] = 0;
    for (size_t i = 0; i < sizeof policies / sizeof *policies && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", policies[i]->name);
}
