/* fuzz_sim.h - shared body of the functional and timing fuzz targets: load the input
 * as a PTX module on a small simulated GPU (1 SM, 1 MB of device memory, instruction
 * and cycle budgets) and run its first kernel on a tiny grid. Every outcome must be a
 * result code with a message: a crash, hang, leak or sanitizer report is a finding. */
#ifndef WS_FUZZ_SIM_H
#define WS_FUZZ_SIM_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/sim.h"

static void fuzz_set(ws_config *c, const char *kv)
{
    char err[256];
    if (ws_config_set(c, kv, err, sizeof err))
        abort();   /* the harness's own settings must be valid */
}

static int fuzz_sim_run(const uint8_t *data, size_t size, int timing)
{
    if (size > 1 << 16)
        return 0;   /* bounded work per input */
    ws_config cfg;
    ws_config_defaults(&cfg);
    fuzz_set(&cfg, "gpu.n_sm=1,gpu.dram_bytes=1048576,func.watchdog_insts=4000,"
                   "func.stack_bytes=256,func.max_call_depth=16");
    if (timing)
        fuzz_set(&cfg, "sim.mode=timing,core.watchdog_cycles=20000,sim.max_cycles=200000");
    ws_sim *s = ws_sim_create(&cfg);
    if (!s)
        abort();
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    char err[1024];
    ws_module *m = NULL;
    if (ws_module_load(s, text, size, "fuzz.ptx", &m, err, sizeof err) == WS_OK) {
        const ptx_module *pm = ws_module_ptx(m);
        int k = -1;
        for (uint32_t i = 0; i < pm->n_funcs && k < 0; i++)
            if (pm->funcs[i].is_entry && !pm->funcs[i].is_decl)
                k = (int)i;
        uint64_t buf[2] = {0, 0};
        if (k >= 0 && ws_mem_alloc(s, 4096, &buf[0]) == WS_OK && ws_mem_alloc(s, 4096, &buf[1]) == WS_OK) {
            const ptx_func *f = &pm->funcs[k];
            /* parameters: pointers to the two buffers, small integers otherwise */
            uint8_t params[512] = {0};
            size_t psize = f->param_size <= sizeof params ? f->param_size : sizeof params;
            for (uint32_t i = 0; i < f->n_params; i++) {
                const ptx_symbol *p = &pm->syms[f->params[i]];
                if (p->addr + 8 <= sizeof params && p->size == 8)
                    memcpy(params + p->addr, &buf[i & 1], 8);
                else if (p->addr + 4 <= sizeof params && p->size == 4)
                    params[p->addr] = 16;
            }
            ws_launch_desc d = {{2, 1, 1}, {40, 1, 1}, 64, params, psize};
            if (f->reqntid[0])
                for (int i = 0; i < 3; i++)
                    d.block[i] = f->reqntid[i] ? f->reqntid[i] : 1;
            if ((uint64_t)d.block[0] * d.block[1] * d.block[2] <= 256)
                (void)ws_launch(s, m, k, &d, err, sizeof err);
        }
        ws_module_unload(s, m);
    }
    free(text);
    ws_sim_destroy(s);
    return 0;
}

#endif
