/* reduction: sum of a large unsigned int array, block partial sums then a final one-block pass */
#include "bench.h"

#include <stdlib.h>

#define RED_BLOCK 256 /* must match reduction.cu */

int main(int argc, char **argv)
{
    bench_args args;
    if (bench_parse(&args, argc, argv, NULL))
        return 1;
    unsigned n = args.size == BENCH_SMALL ? (1u << 16) : args.size == BENCH_LARGE ? (1u << 26) : (1u << 23);
    const unsigned per_thread = 16;                  /* elements per thread in pass 1 */
    unsigned chunk = RED_BLOCK * per_thread;         /* elements per block in pass 1 */
    unsigned blocks = (n + chunk - 1) / chunk;

    unsigned *h = malloc((size_t)n * sizeof(unsigned));
    if (!h) {
        fprintf(stderr, "reduction: out of host memory\n");
        return 1;
    }
    bench_rng rng;
    bench_rng_seed(&rng, 4002);
    for (unsigned i = 0; i < n; i++)
        h[i] = bench_rng_u32(&rng);

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("reduction", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "reduce_sum"));
    CUdeviceptr d_in, d_part, d_sum;
    CU(cuMemAlloc(&d_in, (size_t)n * sizeof(unsigned)));
    CU(cuMemAlloc(&d_part, (size_t)blocks * sizeof(unsigned)));
    CU(cuMemAlloc(&d_sum, sizeof(unsigned)));
    CU(cuMemcpyHtoD(d_in, h, (size_t)n * sizeof(unsigned)));

    /* pass 1: one partial sum per block */
    void *a1[] = {&d_in, &d_part, &n, &chunk};
    CU(cuLaunchKernel(fn, blocks, 1, 1, RED_BLOCK, 1, 1, 0, NULL, a1, NULL));
    /* pass 2: a single block sums the partial sums */
    unsigned chunk2 = blocks;
    void *a2[] = {&d_part, &d_sum, &blocks, &chunk2};
    CU(cuLaunchKernel(fn, 1, 1, 1, RED_BLOCK, 1, 1, 0, NULL, a2, NULL));
    CU(cuCtxSynchronize());

    unsigned got, partial_got0 = 0;
    CU(cuMemcpyDtoH(&got, d_sum, sizeof(unsigned)));
    CU(cuMemcpyDtoH(&partial_got0, d_part, sizeof(unsigned)));

    unsigned ref = 0, ref_part0 = 0;
    for (unsigned i = 0; i < n; i++) {
        ref += h[i];
        if (i < chunk)
            ref_part0 += h[i];
    }
    size_t bad = bench_check_u32("partial[0]", &partial_got0, &ref_part0, 1);
    bad += bench_check_u32("sum", &got, &ref, 1);
    if (!args.quiet)
        printf("reduction: n=%u, pass 1 grid %u x %d (%u elements/block), pass 2 grid 1 x %d, sum=%u\n",
               n, blocks, RED_BLOCK, chunk, RED_BLOCK, got);

    cuMemFree(d_in);
    cuMemFree(d_part);
    cuMemFree(d_sum);
    bench_fini(ctx, mod);
    free(h);
    return bench_result("reduction", &args, bad);
}
