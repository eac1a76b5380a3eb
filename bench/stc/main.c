/* stc: 3-D 7-point Jacobi stencil, Parboil-style 2.5-D blocking (shared-memory plane, x-coarsened) */
#include "bench.h"

#include <stdlib.h>

#define BX 32 /* threads; each owns two columns of a 64-wide tile (STC_TX in stc.cu) */
#define BY 4
#define TILE_X (2 * BX)

static void step_ref(const float *in, float *out, int nx, int ny, int nz, float cs, float cn)
{
    const size_t slab = (size_t)nx * ny;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                size_t p = (size_t)z * slab + (size_t)y * nx + x;
                if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
                    out[p] = in[p];
                    continue;
                }
                float nb = in[p - 1] + in[p + 1];
                nb += in[p - nx];
                nb += in[p + nx];
                nb += in[p - slab];
                nb += in[p + slab];
                out[p] = cs * in[p] + cn * nb;
            }
}

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc) return rc;

    int nx, ny, nz, steps;
    switch (args.size) {
    case BENCH_SMALL: nx = 72; ny = 10; nz = 8; steps = 2; break;
    case BENCH_LARGE: nx = 512; ny = 512; nz = 64; steps = 20; break;
    case BENCH_PAPER: nx = 128; ny = 128; nz = 32; steps = 100; break; /* Parboil "small" */
    default: nx = 128; ny = 128; nz = 32; steps = 5; break;
    }
    float c_self = 0.4f, c_nbr = 0.1f; /* weights sum to 1: values stay bounded */
    const size_t n = (size_t)nx * ny * nz, bytes = n * sizeof(float);

    float *h_a = malloc(bytes), *h_b = malloc(bytes), *h_out = malloc(bytes);
    if (!h_a || !h_b || !h_out) { fprintf(stderr, "stc: out of memory\n"); return 1; }
    bench_rng rng;
    bench_rng_seed(&rng, 0x57c);
    for (size_t i = 0; i < n; i++) h_a[i] = bench_rng_float(&rng);

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("stc", &ctx, &mod)) return 1;
    CUfunction k_step;
    CU(cuModuleGetFunction(&k_step, mod, "stc_step"));

    CUdeviceptr d_a, d_b;
    CU(cuMemAlloc(&d_a, bytes));
    CU(cuMemAlloc(&d_b, bytes));
    CU(cuMemcpyHtoD(d_a, h_a, bytes));
    CU(cuMemcpyHtoD(d_b, h_a, bytes)); /* the kernel writes interior points only */

    const unsigned gx = (unsigned)((nx + TILE_X - 1) / TILE_X), gy = (unsigned)((ny + BY - 1) / BY);
    if (!args.quiet)
        printf("stc: %dx%dx%d grid, %d steps, %ux%u CTAs of %dx%d threads\n", nx, ny, nz, steps,
               gx, gy, BX, BY);
    CUdeviceptr d_in = d_a, d_out = d_b;
    for (int s = 0; s < steps; s++) {
        void *kargs[] = {&d_in, &d_out, &nx, &ny, &nz, &c_self, &c_nbr};
        CU(cuLaunchKernel(k_step, gx, gy, 1, BX, BY, 1, 0, NULL, kargs, NULL));
        CUdeviceptr t = d_in; d_in = d_out; d_out = t;
    }
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(h_out, d_in, bytes));

    float *r_in = h_a, *r_out = h_b;
    for (int s = 0; s < steps; s++) {
        step_ref(r_in, r_out, nx, ny, nz, c_self, c_nbr);
        float *t = r_in; r_in = r_out; r_out = t;
    }
    /* the GPU may fuse c_self*here + c_nbr*nb into an fma */
    size_t bad = bench_check_f32("stc", h_out, r_in, n, 1e-5, 1e-5);

    CU(cuMemFree(d_a));
    CU(cuMemFree(d_b));
    bench_fini(ctx, mod);
    free(h_a); free(h_b); free(h_out);
    return bench_result("stc", &args, bad);
}
