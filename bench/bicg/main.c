/* bicg: BiCG sub-kernels q = A p (per row) and s = A^T r (per column) */
#include "bench.h"

#include <stdlib.h>

#define BLOCK 256

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc) return rc;

    int nr, nc; /* A is nr rows x nc columns */
    switch (args.size) {
    case BENCH_SMALL: nr = 208; nc = 144; break;
    case BENCH_LARGE: nr = 4096; nc = 4096; break;
    case BENCH_PAPER: nr = 4096; nc = 4096; break; /* PolyBench/GPU NX = NY = 4096 */
    default: nr = 2048; nc = 2048; break;
    }
    const size_t na = (size_t)nr * nc;

    float *h_a = malloc(na * sizeof(float));
    float *h_p = malloc((size_t)nc * sizeof(float)), *h_r = malloc((size_t)nr * sizeof(float));
    float *h_q = malloc((size_t)nr * sizeof(float)), *h_s = malloc((size_t)nc * sizeof(float));
    float *r_q = malloc((size_t)nr * sizeof(float)), *r_s = malloc((size_t)nc * sizeof(float));
    if (!h_a || !h_p || !h_r || !h_q || !h_s || !r_q || !r_s) {
        fprintf(stderr, "bicg: out of memory\n");
        return 1;
    }
    bench_rng rng;
    bench_rng_seed(&rng, 0xb1c9);
    for (size_t i = 0; i < na; i++) h_a[i] = bench_rng_float(&rng);
    for (int j = 0; j < nc; j++) h_p[j] = bench_rng_float(&rng);
    for (int i = 0; i < nr; i++) h_r[i] = bench_rng_float(&rng);

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("bicg", &ctx, &mod)) return 1;
    CUfunction k_q, k_s;
    CU(cuModuleGetFunction(&k_q, mod, "bicg_q"));
    CU(cuModuleGetFunction(&k_s, mod, "bicg_s"));

    CUdeviceptr d_a, d_p, d_r, d_q, d_s;
    CU(cuMemAlloc(&d_a, na * sizeof(float)));
    CU(cuMemAlloc(&d_p, (size_t)nc * sizeof(float)));
    CU(cuMemAlloc(&d_r, (size_t)nr * sizeof(float)));
    CU(cuMemAlloc(&d_q, (size_t)nr * sizeof(float)));
    CU(cuMemAlloc(&d_s, (size_t)nc * sizeof(float)));
    CU(cuMemcpyHtoD(d_a, h_a, na * sizeof(float)));
    CU(cuMemcpyHtoD(d_p, h_p, (size_t)nc * sizeof(float)));
    CU(cuMemcpyHtoD(d_r, h_r, (size_t)nr * sizeof(float)));
    CU(cuMemsetD32(d_q, 0, (size_t)nr)); /* the kernels accumulate in place */
    CU(cuMemsetD32(d_s, 0, (size_t)nc));

    const unsigned gq = (unsigned)((nr + BLOCK - 1) / BLOCK), gs = (unsigned)((nc + BLOCK - 1) / BLOCK);
    if (!args.quiet)
        printf("bicg: A %dx%d, bicg_q %u CTAs, bicg_s %u CTAs of %d threads\n", nr, nc, gq, gs, BLOCK);
    void *a1[] = {&d_a, &d_p, &d_q, &nr, &nc};
    CU(cuLaunchKernel(k_q, gq, 1, 1, BLOCK, 1, 1, 0, NULL, a1, NULL));
    void *a2[] = {&d_a, &d_r, &d_s, &nr, &nc};
    CU(cuLaunchKernel(k_s, gs, 1, 1, BLOCK, 1, 1, 0, NULL, a2, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(h_q, d_q, (size_t)nr * sizeof(float)));
    CU(cuMemcpyDtoH(h_s, d_s, (size_t)nc * sizeof(float)));

    for (int i = 0; i < nr; i++) {
        float acc = 0.0f;
        for (int j = 0; j < nc; j++) acc += h_a[(size_t)i * nc + j] * h_p[j];
        r_q[i] = acc;
    }
    for (int j = 0; j < nc; j++) {
        float acc = 0.0f;
        for (int i = 0; i < nr; i++) acc += h_r[i] * h_a[(size_t)i * nc + j];
        r_s[j] = acc;
    }
    size_t bad = bench_check_f32("q", h_q, r_q, (size_t)nr, 0.0, 1e-4);
    bad += bench_check_f32("s", h_s, r_s, (size_t)nc, 0.0, 1e-4);

    CU(cuMemFree(d_a)); CU(cuMemFree(d_p)); CU(cuMemFree(d_r));
    CU(cuMemFree(d_q)); CU(cuMemFree(d_s));
    bench_fini(ctx, mod);
    free(h_a); free(h_p); free(h_r); free(h_q); free(h_s); free(r_q); free(r_s);
    return bench_result("bicg", &args, bad);
}
