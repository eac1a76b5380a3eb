/* memsys.c - the registry of memory models (memsys.h). One line per model. */
#include <string.h>

#include "mem/memsys.h"

extern const mem_model mem_model_simple;
#if __has_include("mem/detailed.h")
#include "mem/detailed.h"
#define WS_HAVE_DETAILED 1
#endif

static const mem_model *const models[] = {
    &mem_model_simple,
#ifdef WS_HAVE_DETAILED
    &mem_model_detailed,
#endif
};

const mem_model *mem_model_find(const char *name)
{
    for (size_t i = 0; i < sizeof models / sizeof *models; i++)
        if (!strcmp(models[i]->name, name))
            return models[i];
    return NULL;
}

const mem_model *mem_model_at(size_t i)
{
    return i < sizeof models / sizeof *models ? models[i] : NULL;
}
