/* memsys.c - the registry of memory models (memsys.h). One line per model. */
#include <stdio.h>
#include <string.h>

#include "mem/memsys.h"

#include "mem/detailed.h"

extern const mem_model mem_model_simple;

const char *const mem_msg_name[MSG__COUNT] = {"request", "response", "invalidate", "forward",
                                              "ack", "writeback"};

static const mem_model *const models[] = {
    &mem_model_simple,
    &mem_model_detailed,
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

void mem_model_known(char *buf, size_t n)
{
    size_t k = 0;
    if (n)
        buf[0] = 0;
    for (size_t i = 0; i < sizeof models / sizeof *models && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", models[i]->name);
}
