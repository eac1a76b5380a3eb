/* atax: y = A^T (A x), a row-wise and a column-wise matrix-vector pass */
#include "bench.h"

#include <stdlib.h>

#define BLOCK 256

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc) return rc;

    int m, n; /* A is m rows x n columns */
    switch (args.size) {
    case BENCH_SMALL: m = 160; n = 192; break;
    case BENCH_LARGE: m = 4096; n = 4096; break;
    case BENCH_PAPER: m = 4096; n = 4096; break; /* PolyBench/GPU NX = NY = 4096 */
    default: m = 2048; n = 2048; break;
    }

    float *h_a = malloc((size_t)m * n * sizeof(float));
    float *h_x = malloc((size_t)n * sizeof(float));
    float *h_y = malloc((size_t)n * sizeof(float));
    float *r_tmp = malloc((size_t)m * sizeof(float));
    float *r_y = malloc((size_t)n * sizeof(float));
    if (!h_a || !h_x || !h_y || !r_tmp || !r_y) { fprintf(stderr, "atax: out of memory\n"); return 1; }
    bench_rng rng;
    bench_rng_seed(&rng, 0xa7a);
    for (size_t i = 0; i < (size_t)m * n; i++) h_a[i] = bench_rng_float(&rng);
    for (int j = 0; j < n; j++) h_x[j] = bench_rng_float(&rng);

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("atax", &ctx, &mod)) return 1;
    CUfunction k_ax, k_aty;
    CU(cuModuleGetFunction(&k_ax, mod, "atax_ax"));
    CU(cuModuleGetFunction(&k_aty, mod, "atax_aty"));

    CUdeviceptr d_a, d_x, d_tmp, d_y;
    CU(cuMemAlloc(&d_a, (size_t)m * n * sizeof(float)));
    CU(cuMemAlloc(&d_x, (size_t)n * sizeof(float)));
    CU(cuMemAlloc(&d_tmp, (size_t)m * sizeof(float)));
    CU(cuMemAlloc(&d_y, (size_t)n * sizeof(float)));
    CU(cuMemcpyHtoD(d_a, h_a, (size_t)m * n * sizeof(float)));
    CU(cuMemcpyHtoD(d_x, h_x, (size_t)n * sizeof(float)));
    CU(cuMemsetD32(d_tmp, 0, (size_t)m)); /* the kernels accumulate in place */
    CU(cuMemsetD32(d_y, 0, (size_t)n));

    const unsigned g1 = (unsigned)((m + BLOCK - 1) / BLOCK), g2 = (unsigned)((n + BLOCK - 1) / BLOCK);
    if (!args.quiet)
        printf("atax: A %dx%d, atax_ax %u CTAs, atax_aty %u CTAs of %d threads\n", m, n, g1, g2, BLOCK);
    void *a1[] = {&d_a, &d_x, &d_tmp, &m, &n};
    CU(cuLaunchKernel(k_ax, g1, 1, 1, BLOCK, 1, 1, 0, NULL, a1, NULL));
    void *a2[] = {&d_a, &d_tmp, &d_y, &m, &n};
    CU(cuLaunchKernel(k_aty, g2, 1, 1, BLOCK, 1, 1, 0, NULL, a2, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(h_y, d_y, (size_t)n * sizeof(float)));

    for (int i = 0; i < m; i++) {
        float acc = 0.0f;
        for (int j = 0; j < n; j++) acc += h_a[(size_t)i * n + j] * h_x[j];
        r_tmp[i] = acc;
    }
    for (int j = 0; j < n; j++) {
        float acc = 0.0f;
        for (int i = 0; i < m; i++) acc += h_a[(size_t)i * n + j] * r_tmp[i];
        r_y[j] = acc;
    }
    /* all terms are positive; only fma contraction can differ from the CPU */
    size_t bad = bench_check_f32("y", h_y, r_y, (size_t)n, 0.0, 1e-4);

    CU(cuMemFree(d_a)); CU(cuMemFree(d_x)); CU(cuMemFree(d_tmp)); CU(cuMemFree(d_y));
    bench_fini(ctx, mod);
    free(h_a); free(h_x); free(h_y); free(r_tmp); free(r_y);
    return bench_result("atax", &args, bad);
}
