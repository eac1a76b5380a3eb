/* pf: pathfinder dynamic programming, min-cost path with a shared-memory row pyramid */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK 256 /* must match PF_BLOCK in pf.cu */

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc) return rc;

    int cols, rows, halo;
    switch (args.size) {
    case BENCH_SMALL: cols = 1000; rows = 13; halo = 8; break;
    case BENCH_LARGE: cols = 262144; rows = 257; halo = 20; break;
    case BENCH_PAPER: cols = 100000; rows = 100; halo = 20; break; /* Rodinia run script */
    default: cols = 20000; rows = 101; halo = 20; break;
    }
    const size_t ncell = (size_t)rows * cols;

    int *h_wall = malloc(ncell * sizeof(int));
    int *h_out = malloc((size_t)cols * sizeof(int));
    int *r_a = malloc((size_t)cols * sizeof(int)), *r_b = malloc((size_t)cols * sizeof(int));
    if (!h_wall || !h_out || !r_a || !r_b) { fprintf(stderr, "pf: out of memory\n"); return 1; }
    bench_rng rng;
    bench_rng_seed(&rng, 0x9f);
    for (size_t i = 0; i < ncell; i++) h_wall[i] = (int)(bench_rng_u32(&rng) % 10u);

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("pf", &ctx, &mod)) return 1;
    CUfunction k_rows;
    CU(cuModuleGetFunction(&k_rows, mod, "pf_rows"));

    CUdeviceptr d_wall, d_a, d_b;
    CU(cuMemAlloc(&d_wall, ncell * sizeof(int)));
    CU(cuMemAlloc(&d_a, (size_t)cols * sizeof(int)));
    CU(cuMemAlloc(&d_b, (size_t)cols * sizeof(int)));
    CU(cuMemcpyHtoD(d_wall, h_wall, ncell * sizeof(int)));
    CU(cuMemcpyHtoD(d_a, h_wall, (size_t)cols * sizeof(int))); /* row 0 costs = its weights */

    const int owned = BLOCK - 2 * halo;
    const unsigned grid = (unsigned)((cols + owned - 1) / owned);
    const int launches = (rows - 1 + halo - 1) / halo;
    if (!args.quiet)
        printf("pf: %d cols x %d rows, pyramid height %d, %d launches x %u CTAs of %d threads\n",
               cols, rows, halo, launches, grid, BLOCK);
    CUdeviceptr d_src = d_a, d_dst = d_b;
    for (int r = 1; r < rows; r += halo) {
        int steps = rows - r < halo ? rows - r : halo;
        void *kargs[] = {&d_wall, &d_src, &d_dst, &cols, &r, &steps, &halo};
        CU(cuLaunchKernel(k_rows, grid, 1, 1, BLOCK, 1, 1, 0, NULL, kargs, NULL));
        CUdeviceptr t = d_src; d_src = d_dst; d_dst = t;
    }
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(h_out, d_src, (size_t)cols * sizeof(int)));

    memcpy(r_a, h_wall, (size_t)cols * sizeof(int));
    for (int r = 1; r < rows; r++) {
        const int *w = h_wall + (size_t)r * cols;
        for (int c = 0; c < cols; c++) {
            int best = r_a[c];
            if (c > 0 && r_a[c - 1] < best) best = r_a[c - 1];
            if (c < cols - 1 && r_a[c + 1] < best) best = r_a[c + 1];
            r_b[c] = best + w[c];
        }
        int *t = r_a; r_a = r_b; r_b = t;
    }
    size_t bad = bench_check_i32("cost", h_out, r_a, (size_t)cols);

    CU(cuMemFree(d_wall)); CU(cuMemFree(d_a)); CU(cuMemFree(d_b));
    bench_fini(ctx, mod);
    free(h_wall); free(h_out); free(r_a); free(r_b);
    return bench_result("pf", &args, bad);
}
