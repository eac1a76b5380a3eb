/* ubench_stream: streaming bandwidth microbenchmark (grid-stride read-sum, write-fill and copy kernels) */
#include "bench.h"

#include <stdlib.h>

#define THREADS 256
#define MAX_BLOCKS 1024
#define SEED 0x5eed5eedu

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse(&args, argc, argv, NULL);
    if (rc)
        return rc;

    int n;
    switch (args.size) {
    case BENCH_SMALL: n = 32768; break;          /* 128 KiB per array */
    case BENCH_LARGE: n = 32 << 20; break;       /* 128 MiB per array */
    default: n = 4 << 20; break;                 /* 16 MiB per array */
    }
    int blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    int nthreads = blocks * THREADS;
    size_t bytes = (size_t)n * sizeof(uint32_t);

    uint32_t *a = malloc(bytes), *out = malloc(bytes);
    uint32_t *part = malloc(nthreads * sizeof(uint32_t)), *part_ref = malloc(nthreads * sizeof(uint32_t));
    if (!a || !out || !part || !part_ref) {
        fprintf(stderr, "ubench_stream: out of host memory\n");
        return 1;
    }
    bench_rng rng;
    bench_rng_seed(&rng, 2007);
    for (int i = 0; i < n; i++)
        a[i] = bench_rng_u32(&rng);

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("ubench_stream", &ctx, &mod))
        return 1;
    CUfunction f_read, f_write, f_copy;
    CU(cuModuleGetFunction(&f_read, mod, "stream_read"));
    CU(cuModuleGetFunction(&f_write, mod, "stream_write"));
    CU(cuModuleGetFunction(&f_copy, mod, "stream_copy"));

    CUdeviceptr d_a, d_b, d_c, d_part;
    CU(cuMemAlloc(&d_a, bytes));
    CU(cuMemAlloc(&d_b, bytes));
    CU(cuMemAlloc(&d_c, bytes));
    CU(cuMemAlloc(&d_part, nthreads * sizeof(uint32_t)));
    CU(cuMemcpyHtoD(d_a, a, bytes));

    unsigned int seed = SEED;
    void *ra[] = {&d_a, &n, &d_part};
    void *wa[] = {&d_b, &n, &seed};
    void *ca[] = {&d_a, &d_c, &n};
    CU(cuLaunchKernel(f_read, blocks, 1, 1, THREADS, 1, 1, 0, NULL, ra, NULL));
    CU(cuLaunchKernel(f_write, blocks, 1, 1, THREADS, 1, 1, 0, NULL, wa, NULL));
    CU(cuLaunchKernel(f_copy, blocks, 1, 1, THREADS, 1, 1, 0, NULL, ca, NULL));
    CU(cuCtxSynchronize());

    /* References: per-thread wrapping sums of the words the kernel visits (thread t
     * reads the 4-word groups t, t + nthreads, ... and then the tail words
     * 4 * (n / 4) + t, ...), the fill pattern, and the source array. */
    int n4 = n / 4;
    for (int t = 0; t < nthreads; t++) {
        uint32_t acc = 0;
        for (int i = t; i < n4; i += nthreads)
            acc += a[4 * i] + a[4 * i + 1] + a[4 * i + 2] + a[4 * i + 3];
        for (int i = 4 * n4 + t; i < n; i += nthreads)
            acc += a[i];
        part_ref[t] = acc;
    }
    size_t bad = 0;
    CU(cuMemcpyDtoH(part, d_part, nthreads * sizeof(uint32_t)));
    bad += bench_check_u32("ubench_stream.read", part, part_ref, nthreads);
    CU(cuMemcpyDtoH(out, d_c, bytes));
    bad += bench_check_u32("ubench_stream.copy", out, a, n);
    for (int i = 0; i < n; i++)
        a[i] = ((uint32_t)i * 2654435761u) ^ SEED;
    CU(cuMemcpyDtoH(out, d_b, bytes));
    bad += bench_check_u32("ubench_stream.write", out, a, n);

    if (!args.quiet)
        printf("ubench_stream: %d words (%zu bytes) per array, 3 kernels x grid %d x %d threads\n",
               n, bytes, blocks, THREADS);

    CU(cuMemFree(d_a));
    CU(cuMemFree(d_b));
    CU(cuMemFree(d_c));
    CU(cuMemFree(d_part));
    bench_fini(ctx, mod);
    free(a);
    free(out);
    free(part);
    free(part_ref);
    return bench_result("ubench_stream", &args, bad);
}
