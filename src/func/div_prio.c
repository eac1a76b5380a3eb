/* div_prio.c - the registry of path-priority plug-ins (div_path.h). One line each. */
#include <stdio.h>
#include <string.h>

#include "func/div_path.h"

extern const div_prio_ops div_prio_min_pc, div_prio_majority, div_prio_las;

static const div_prio_ops *const prios[] = {
    &div_prio_min_pc,
    &div_prio_majority,
    &div_prio_las,
};

const div_prio_ops *div_prio_find(const char *name)
{
    for (size_t i = 0; i < sizeof prios / sizeof *prios; i++)
        if (!strcmp(prios[i]->name, name))
            return prios[i];
    return NULL;
}

const div_prio_ops *div_prio_at(size_t i)
{
    return i < sizeof prios / sizeof *prios ? prios[i] : NULL;
}

void div_prio_names(char *buf, size_t n)
{
    size_t k = 0;
    if (n)
        buf[0] = 0;
    for (size_t i = 0; i < sizeof prios / sizeof *prios && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", prios[i]->name);
}
