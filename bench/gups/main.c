/* gups: random-access table updates (64-bit atomicXor at pseudo-random indices), GUPS-style */
#include "bench.h"

#include <stdlib.h>

#define THREADS 256

/* Same generator as gups.cu. */
static uint64_t gups_seed(uint64_t seed, uint64_t id)
{
    uint64_t z = seed + (id + 1u) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return z ? z : 0x2545F4914F6CDD1Dull;
}

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc)
        return rc;

    int log2_words, blocks, updates;
    switch (args.size) {
    case BENCH_SMALL: log2_words = 12; blocks = 2; updates = 16; break;
    case BENCH_LARGE: log2_words = 24; blocks = 4096; updates = 64; break;
    case BENCH_PAPER: log2_words = 22; blocks = 2048; updates = 32; break; /* 4 updates/word */
    default: log2_words = 20; blocks = 256; updates = 32; break;
    }
    size_t words = (size_t)1 << log2_words;
    unsigned long long mask = words - 1;
    unsigned long long seed = 0x6A09E667F3BCC909ull;

    uint64_t *table = malloc(words * sizeof(uint64_t)), *ref = malloc(words * sizeof(uint64_t));
    if (!table || !ref) {
        fprintf(stderr, "gups: out of host memory\n");
        return 1;
    }
    bench_rng rng;
    bench_rng_seed(&rng, 1002);
    for (size_t i = 0; i < words; i++)
        ref[i] = table[i] = bench_rng_u64(&rng);

    /* CPU reference: apply every thread's XOR stream (XOR commutes, order is irrelevant). */
    uint64_t nthreads = (uint64_t)blocks * THREADS;
    for (uint64_t id = 0; id < nthreads; id++) {
        uint64_t s = gups_seed(seed, id);
        for (int k = 0; k < updates; k++) {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            uint64_t v = s * 0x2545F4914F6CDD1Dull;
            ref[(v >> 20) & mask] ^= v;
        }
    }

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("gups", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "gups_update"));

    CUdeviceptr d_table;
    CU(cuMemAlloc(&d_table, words * sizeof(uint64_t)));
    CU(cuMemcpyHtoD(d_table, table, words * sizeof(uint64_t)));
    void *kp[] = {&d_table, &mask, &seed, &updates};
    CU(cuLaunchKernel(fn, blocks, 1, 1, THREADS, 1, 1, 0, NULL, kp, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(table, d_table, words * sizeof(uint64_t)));

    if (!args.quiet)
        printf("gups: 2^%d words, %d x %d threads x %d updates\n", log2_words, blocks, THREADS,
               updates);
    size_t bad = 0;
    for (size_t i = 0; i < words; i++) {
        if (table[i] != ref[i]) {
            if (bad < 8)
                fprintf(stderr, "gups.table[%zu]: got 0x%016llx, expected 0x%016llx\n", i,
                        (unsigned long long)table[i], (unsigned long long)ref[i]);
            bad++;
        }
    }

    CU(cuMemFree(d_table));
    bench_fini(ctx, mod);
    free(table);
    free(ref);
    return bench_result("gups", &args, bad);
}
