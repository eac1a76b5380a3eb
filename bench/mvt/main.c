/* mvt: x1 += A y1 and x2 += A^T y2, row-wise and column-wise matrix-vector kernels */
#include "bench.h"

#include <stdlib.h>

#define BLOCK 256

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc) return rc;

    int n;
    switch (args.size) {
    case BENCH_SMALL: n = 176; break;
    case BENCH_LARGE: n = 4096; break;
    case BENCH_PAPER: n = 4096; break; /* PolyBench/GPU N = 4096 */
    default: n = 2048; break;
    }
    const size_t nn = (size_t)n * n, vb = (size_t)n * sizeof(float);

    float *h_a = malloc(nn * sizeof(float));
    float *h_v = malloc(4 * vb); /* x1, x2, y1, y2 */
    float *h_x = malloc(2 * vb); /* device results x1, x2 */
    float *r_x = malloc(2 * vb); /* reference x1, x2 */
    if (!h_a || !h_v || !h_x || !r_x) { fprintf(stderr, "mvt: out of memory\n"); return 1; }
    float *x1 = h_v, *x2 = h_v + n, *y1 = h_v + 2 * n, *y2 = h_v + 3 * n;
    bench_rng rng;
    bench_rng_seed(&rng, 0x3717);
    for (size_t i = 0; i < nn; i++) h_a[i] = bench_rng_float(&rng);
    for (int i = 0; i < 4 * n; i++) h_v[i] = bench_rng_float(&rng);

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("mvt", &ctx, &mod)) return 1;
    CUfunction k_row, k_col;
    CU(cuModuleGetFunction(&k_row, mod, "mvt_row"));
    CU(cuModuleGetFunction(&k_col, mod, "mvt_col"));

    CUdeviceptr d_a, d_x1, d_x2, d_y1, d_y2;
    CU(cuMemAlloc(&d_a, nn * sizeof(float)));
    CU(cuMemAlloc(&d_x1, vb));
    CU(cuMemAlloc(&d_x2, vb));
    CU(cuMemAlloc(&d_y1, vb));
    CU(cuMemAlloc(&d_y2, vb));
    CU(cuMemcpyHtoD(d_a, h_a, nn * sizeof(float)));
    CU(cuMemcpyHtoD(d_x1, x1, vb));
    CU(cuMemcpyHtoD(d_x2, x2, vb));
    CU(cuMemcpyHtoD(d_y1, y1, vb));
    CU(cuMemcpyHtoD(d_y2, y2, vb));

    const unsigned g = (unsigned)((n + BLOCK - 1) / BLOCK);
    if (!args.quiet) printf("mvt: A %dx%d, 2 kernels x %u CTAs of %d threads\n", n, n, g, BLOCK);
    void *a1[] = {&d_a, &d_y1, &d_x1, &n};
    CU(cuLaunchKernel(k_row, g, 1, 1, BLOCK, 1, 1, 0, NULL, a1, NULL));
    void *a2[] = {&d_a, &d_y2, &d_x2, &n};
    CU(cuLaunchKernel(k_col, g, 1, 1, BLOCK, 1, 1, 0, NULL, a2, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(h_x, d_x1, vb));
    CU(cuMemcpyDtoH(h_x + n, d_x2, vb));

    for (int i = 0; i < n; i++) {
        float acc = x1[i];
        for (int j = 0; j < n; j++) acc += h_a[(size_t)i * n + j] * y1[j];
        r_x[i] = acc;
    }
    for (int j = 0; j < n; j++) {
        float acc = x2[j];
        for (int i = 0; i < n; i++) acc += h_a[(size_t)i * n + j] * y2[i];
        r_x[n + j] = acc;
    }
    size_t bad = bench_check_f32("x1", h_x, r_x, (size_t)n, 0.0, 1e-4);
    bad += bench_check_f32("x2", h_x + n, r_x + n, (size_t)n, 0.0, 1e-4);

    CU(cuMemFree(d_a)); CU(cuMemFree(d_x1)); CU(cuMemFree(d_x2));
    CU(cuMemFree(d_y1)); CU(cuMemFree(d_y2));
    bench_fini(ctx, mod);
    free(h_a); free(h_v); free(h_x); free(r_x);
    return bench_result("mvt", &args, bad);
}
