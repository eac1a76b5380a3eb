/* red: multi-launch tree reduction (sum) of a large int array, shared-memory sequential addressing */
#include "bench.h"

#include <stdlib.h>

#define THREADS 256 /* must match RED_THREADS in red.cu */
#define MAX_BLOCKS 1024

static int grid_for(int n)
{
    int g = (int)(((long long)n + 2 * THREADS - 1) / (2 * THREADS));
    return g > MAX_BLOCKS ? MAX_BLOCKS : g;
}

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc)
        return rc;

    int n;
    switch (args.size) {
    case BENCH_SMALL: n = 8192; break;
    case BENCH_LARGE: n = 32 << 20; break;
    case BENCH_PAPER: n = 1 << 18; break; /* SHOC size class 1: 1 MiB */
    default: n = 4 << 20; break;
    }

    int *in = malloc((size_t)n * sizeof(int));
    /* paper: SHOC's launch, 64 CTAs of 256 threads, each striding over the whole input */
    int g1 = args.size == BENCH_PAPER ? 64 : grid_for(n);
    int *part = malloc(g1 * sizeof(int)), *rpart = malloc(g1 * sizeof(int));
    if (!in || !part || !rpart) {
        fprintf(stderr, "red: out of host memory\n");
        return 1;
    }
    /* Values in [-100, 100]: every partial sum stays far inside int range. */
    bench_rng rng;
    bench_rng_seed(&rng, 1008);
    for (int i = 0; i < n; i++)
        in[i] = (int)(bench_rng_u32(&rng) % 201) - 100;

    /* CPU reference: first-launch partials (chunk c of 2*THREADS elements goes to block
     * c % g1) and the total, both in 64-bit. */
    long long total = 0;
    for (int b = 0; b < g1; b++) {
        long long s = 0;
        for (long long base = (long long)b * 2 * THREADS; base < n; base += (long long)g1 * 2 * THREADS)
            for (long long i = base; i < base + 2 * THREADS && i < n; i++)
                s += in[i];
        rpart[b] = (int)s;
        total += s;
    }
    int rtotal = (int)total;

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("red", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "reduce_sum"));

    CUdeviceptr d_in, d_p1, d_p2;
    CU(cuMemAlloc(&d_in, (size_t)n * sizeof(int)));
    CU(cuMemAlloc(&d_p1, g1 * sizeof(int)));
    CU(cuMemAlloc(&d_p2, g1 * sizeof(int)));
    CU(cuMemcpyHtoD(d_in, in, (size_t)n * sizeof(int)));

    /* Launch 1: n -> g1 partials (kept in d_p1 for checking); then ping-pong between d_p2
     * and d_p1 until one value remains. */
    void *kp[] = {&d_p1, &d_in, &n};
    CU(cuLaunchKernel(fn, g1, 1, 1, THREADS, 1, 1, 0, NULL, kp, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(part, d_p1, g1 * sizeof(int)));
    int launches = 1, count = g1;
    CUdeviceptr src = d_p1, dst = d_p2;
    while (count > 1) {
        int g = grid_for(count);
        void *kq[] = {&dst, &src, &count};
        CU(cuLaunchKernel(fn, g, 1, 1, THREADS, 1, 1, 0, NULL, kq, NULL));
        launches++;
        count = g;
        CUdeviceptr t = src;
        src = dst;
        dst = t;
    }
    int result;
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(&result, src, sizeof(int)));

    if (!args.quiet)
        printf("red: %d ints, %d launches (first grid %d x %d threads), sum %d\n", n, launches,
               g1, THREADS, result);
    size_t bad = bench_check_i32("red.partials", part, rpart, g1);
    bad += bench_check_i32("red.sum", &result, &rtotal, 1);

    CU(cuMemFree(d_in));
    CU(cuMemFree(d_p1));
    CU(cuMemFree(d_p2));
    bench_fini(ctx, mod);
    free(in);
    free(part);
    free(rpart);
    return bench_result("red", &args, bad);
}
