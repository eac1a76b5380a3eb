/* fuzz_func.c - libFuzzer target: parse + run the first kernel functionally on a tiny
 * grid with bounded steps and 1 MB of device memory (fuzz_sim.h). */
#include "fuzz_sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_sim_run(data, size, 0);
}
