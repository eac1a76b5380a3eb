/* core_model.c - the registry of core models (core_model.h).
 *
 * Adding a model: one file defining a `const core_model`, and one line in the
 * declarations and in `core_tab` below. Names are matched exactly.
 */
#include "core/core_model.h"

#include <string.h>

extern const core_model core_model_fermi; /* sm.c */
extern const core_model core_model_gcn;   /* gcn.c */

static const core_model *const core_tab[] = {
    &core_model_fermi,
    &core_model_gcn,
};

#define CORE_N (sizeof core_tab / sizeof core_tab[0])

const core_model *core_model_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < CORE_N; i++)
        if (strcmp(core_tab[i]->name, name) == 0)
            return core_tab[i];
    return NULL;
}

const core_model *core_model_at(size_t i)
{
    return i < CORE_N ? core_tab[i] : NULL;
}
