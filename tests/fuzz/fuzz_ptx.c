/* fuzz_ptx.c - libFuzzer target: the PTX parser must never crash, hang or leak,
 * whatever the bytes, and every instruction it accepts must format. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* an exact-size copy so any read past `size` trips AddressSanitizer */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    if (size)
        memcpy(text, data, size);
    ptx_diag d;
    ptx_module *m = ptx_parse(text, size, "fuzz.ptx", &d);
    if (m) {
        char buf[256];
        for (uint32_t i = 0; i < m->n_funcs; i++)
            for (uint32_t k = 0; k < m->funcs[i].n_insns; k++)
                ptx_insn_format(m, &m->funcs[i], &m->funcs[i].insns[k], buf, sizeof buf);
        ptx_find_func(m, "k");
        ptx_find_sym(m, "g");
        ptx_module_free(m);
    } else if (!memchr(d.msg, 0, sizeof d.msg) || !d.msg[0]) {
        abort(); /* every failure must carry a message */
    }
    free(text);
    return 0;
}
