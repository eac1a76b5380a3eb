/* fuzz_timing.c - libFuzzer target: parse + run the first kernel in timing mode on one
 * SM with instruction, idle-cycle and total-cycle budgets (fuzz_sim.h). */
#include "fuzz_sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_sim_run(data, size, 1);
}
