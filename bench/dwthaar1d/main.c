/* dwthaar1d: multi-level 1-D Haar wavelet transform, levels done in shared memory per block */
#include "bench.h"

#include <stdlib.h>

#define HAAR_BLOCK 256 /* must match dwthaar1d.cu */
#define INV_SQRT2 0.70710678118654752f

int main(int argc, char **argv)
{
    bench_args args;
    if (bench_parse(&args, argc, argv, NULL))
        return 1;
    int logn = args.size == BENCH_SMALL ? 13 : args.size == BENCH_LARGE ? 24 : 20;
    int n = 1 << logn;
    size_t bytes = (size_t)n * sizeof(float);

    float *sig = malloc(bytes), *out = malloc(bytes), *ref = malloc(bytes), *tmp = malloc(bytes);
    if (!sig || !out || !ref || !tmp) {
        fprintf(stderr, "dwthaar1d: out of host memory\n");
        return 1;
    }
    bench_rng rng;
    bench_rng_seed(&rng, 4007);
    for (int i = 0; i < n; i++)
        sig[i] = bench_rng_range(&rng, -1.0f, 1.0f);

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("dwthaar1d", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "haar_levels"));
    CUdeviceptr d_sig, d_out, d_ap[2];
    int max_blocks = n / (2 * HAAR_BLOCK) > 0 ? n / (2 * HAAR_BLOCK) : 1;
    CU(cuMemAlloc(&d_sig, bytes));
    CU(cuMemAlloc(&d_out, bytes));
    CU(cuMemAlloc(&d_ap[0], (size_t)max_blocks * sizeof(float)));
    CU(cuMemAlloc(&d_ap[1], (size_t)max_blocks * sizeof(float)));
    CU(cuMemcpyHtoD(d_sig, sig, bytes));

    CUdeviceptr cur = d_sig;
    int m = n, launches = 0;
    while (m > 1) {
        int chunk = m < 2 * HAAR_BLOCK ? m : 2 * HAAR_BLOCK;
        int blocks = m / chunk;
        /* the last launch leaves the final approximation in out[0] */
        CUdeviceptr ap = blocks == 1 ? d_out : d_ap[launches & 1];
        void *kargs[] = {&cur, &d_out, &ap, &m};
        CU(cuLaunchKernel(fn, (unsigned)blocks, 1, 1, HAAR_BLOCK, 1, 1, 0, NULL, kargs, NULL));
        if (!args.quiet) {
            int levels = 0;
            while ((1 << levels) < chunk)
                levels++;
            printf("dwthaar1d: launch %d: m=%d, grid %d x %d, %d levels\n", launches, m, blocks, HAAR_BLOCK,
                   levels);
        }
        cur = ap;
        m = blocks;
        launches++;
    }
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(out, d_out, bytes));

    /* CPU reference: level by level over the whole signal (same pairs, same ops) */
    for (int i = 0; i < n; i++)
        tmp[i] = sig[i];
    for (int len = n; len > 1; len /= 2) {
        int h = len / 2;
        for (int t = 0; t < h; t++) {
            float x0 = tmp[2 * t], x1 = tmp[2 * t + 1];
            ref[h + t] = (x0 - x1) * INV_SQRT2;
            tmp[t] = (x0 + x1) * INV_SQRT2; /* t <= 2t: reads stay ahead of writes */
        }
    }
    ref[0] = tmp[0];
    /* same pairing and operation order, so only fma-free roundings are involved */
    size_t bad = bench_check_f32("dwt", out, ref, (size_t)n, 1e-5, 1e-5);
    if (!args.quiet)
        printf("dwthaar1d: n=2^%d, %d launches\n", logn, launches);

    cuMemFree(d_sig);
    cuMemFree(d_out);
    cuMemFree(d_ap[0]);
    cuMemFree(d_ap[1]);
    bench_fini(ctx, mod);
    free(sig); free(out); free(ref); free(tmp);
    return bench_result("dwthaar1d", &args, bad);
}
