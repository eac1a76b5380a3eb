/* scp: scalar products of vector pairs (SDK scalarProd structure: 1024 shared accumulators per pair, tree reduction) */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#define THREADS 256 /* must match SCP_THREADS in scp.cu */

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc)
        return rc;

    int npairs, len, blocks;
    switch (args.size) {
    case BENCH_SMALL: npairs = 16; len = 256; blocks = 8; break;
    case BENCH_LARGE: npairs = 1024; len = 16384; blocks = 256; break;
    case BENCH_PAPER: npairs = 256; len = 4096; blocks = 128; break; /* SDK scalarProd */
    default: npairs = 1024; len = 4096; blocks = 128; break;
    }
    size_t n = (size_t)npairs * len;

    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
    float *out = malloc(npairs * sizeof(float)), *ref = malloc(npairs * sizeof(float));
    if (!a || !b || !out || !ref) {
        fprintf(stderr, "scp: out of host memory\n");
        return 1;
    }
    bench_rng rng;
    bench_rng_seed(&rng, 1001);
    for (size_t i = 0; i < n; i++) {
        a[i] = bench_rng_range(&rng, -1.0f, 1.0f);
        b[i] = bench_rng_range(&rng, -1.0f, 1.0f);
    }

    /* CPU reference in double; the tolerance scales with the largest sum of |a*b|. */
    double maxabs = 0.0;
    for (int p = 0; p < npairs; p++) {
        double s = 0.0, sa = 0.0;
        for (int i = 0; i < len; i++) {
            double t = (double)a[(size_t)p * len + i] * b[(size_t)p * len + i];
            s += t;
            sa += fabs(t);
        }
        ref[p] = (float)s;
        if (sa > maxabs)
            maxabs = sa;
    }

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("scp", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "scalar_prod"));

    CUdeviceptr d_a, d_b, d_out;
    CU(cuMemAlloc(&d_a, n * sizeof(float)));
    CU(cuMemAlloc(&d_b, n * sizeof(float)));
    CU(cuMemAlloc(&d_out, npairs * sizeof(float)));
    CU(cuMemcpyHtoD(d_a, a, n * sizeof(float)));
    CU(cuMemcpyHtoD(d_b, b, n * sizeof(float)));

    void *kp[] = {&d_out, &d_a, &d_b, &npairs, &len};
    CU(cuLaunchKernel(fn, blocks, 1, 1, THREADS, 1, 1, 0, NULL, kp, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(out, d_out, npairs * sizeof(float)));

    if (!args.quiet)
        printf("scp: %d pairs x %d floats, grid %d x %d threads\n", npairs, len, blocks, THREADS);
    size_t bad = bench_check_f32("scp.out", out, ref, npairs, 1e-5 * maxabs, 1e-5);

    CU(cuMemFree(d_a));
    CU(cuMemFree(d_b));
    CU(cuMemFree(d_out));
    bench_fini(ctx, mod);
    free(a);
    free(b);
    free(out);
    free(ref);
    return bench_result("scp", &args, bad);
}
