/* div.c - the registry of divergence policies (div.h). One line per policy. */
#include <string.h>

#include "func/div.h"

extern const div_ops div_simt_stack;

static const div_ops *const policies[] = {
    &div_simt_stack,
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
