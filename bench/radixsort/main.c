/* radixsort: LSD radix sort of 32-bit keys, 8 passes of histogram, scan and stable scatter kernels */
#include "bench.h"

#include <stdlib.h>

#define BUCKETS 16 /* must match radixsort.cu */
#define SORT_BLOCK 256
#define TILE 1024
#define SCAN_BLOCK 256

static int cmp_u32(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    bench_args args;
    if (bench_parse(&args, argc, argv, NULL))
        return 1;
    /* small and default are not multiples of the tile on purpose */
    unsigned n = args.size == BENCH_SMALL ? 2000u : args.size == BENCH_LARGE ? (1u << 24) : 200000u;
    unsigned nblocks = (n + TILE - 1) / TILE;
    unsigned hlen = BUCKETS * nblocks;
    size_t bytes = (size_t)n * sizeof(unsigned);

    unsigned *keys = malloc(bytes), *res = malloc(bytes), *ref = malloc(bytes);
    if (!keys || !res || !ref) {
        fprintf(stderr, "radixsort: out of host memory\n");
        return 1;
    }
    bench_rng rng;
    bench_rng_seed(&rng, 4009);
    for (unsigned i = 0; i < n; i++)
        keys[i] = ref[i] = bench_rng_u32(&rng);

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("radixsort", &ctx, &mod))
        return 1;
    CUfunction f_hist, f_scan, f_scat;
    CU(cuModuleGetFunction(&f_hist, mod, "radix_histogram"));
    CU(cuModuleGetFunction(&f_scan, mod, "scan_exclusive"));
    CU(cuModuleGetFunction(&f_scat, mod, "radix_scatter"));
    CUdeviceptr d_buf[2], d_hist;
    CU(cuMemAlloc(&d_buf[0], bytes));
    CU(cuMemAlloc(&d_buf[1], bytes));
    CU(cuMemAlloc(&d_hist, (size_t)hlen * sizeof(unsigned)));
    CU(cuMemcpyHtoD(d_buf[0], keys, bytes));

    for (int pass = 0; pass < 8; pass++) {
        int shift = 4 * pass;
        CUdeviceptr src = d_buf[pass & 1], dst = d_buf[(pass & 1) ^ 1];
        void *ha[] = {&src, &d_hist, &n, &shift};
        CU(cuLaunchKernel(f_hist, nblocks, 1, 1, SORT_BLOCK, 1, 1, 0, NULL, ha, NULL));
        void *sa[] = {&d_hist, &hlen};
        CU(cuLaunchKernel(f_scan, 1, 1, 1, SCAN_BLOCK, 1, 1, 0, NULL, sa, NULL));
        void *ca[] = {&src, &dst, &d_hist, &n, &shift};
        CU(cuLaunchKernel(f_scat, nblocks, 1, 1, SORT_BLOCK, 1, 1, 0, NULL, ca, NULL));
    }
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(res, d_buf[0], bytes)); /* 8 passes: the result is back in buffer 0 */

    qsort(ref, n, sizeof(unsigned), cmp_u32);
    size_t bad = bench_check_u32("sorted", res, ref, n);
    if (!args.quiet)
        printf("radixsort: n=%u, 8 passes x 3 launches: histogram/scatter grid %u x %d, scan 1 x %d over %u counts\n",
               n, nblocks, SORT_BLOCK, SCAN_BLOCK, hlen);

    cuMemFree(d_buf[0]);
    cuMemFree(d_buf[1]);
    cuMemFree(d_hist);
    bench_fini(ctx, mod);
    free(keys); free(res); free(ref);
    return bench_result("radixsort", &args, bad);
}
