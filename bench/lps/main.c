/* lps: 3-D Laplace solver (ISPASS-2009 LPS structure): 3 shared-memory planes marching in z, pitched rows */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define TX 32 /* must match LPS_TX / LPS_TY in lps.cu */
#define TY 4

/* One Jacobi sweep on the CPU, same operation order as the kernel. */
static void sweep_ref(const float *src, float *dst, int nx, int ny, int nz)
{
    const size_t sz = (size_t)nx * ny;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                size_t i = (size_t)z * sz + (size_t)y * nx + x;
                if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
                    dst[i] = src[i];
                    continue;
                }
                float s = src[i - 1] + src[i + 1];
                s += src[i - nx];
                s += src[i + nx];
                s += src[i - sz];
                s += src[i + sz];
                dst[i] = s * (1.0f / 6.0f);
            }
}

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc) return rc;

    int nx, ny, nz, iters;
    switch (args.size) {
    case BENCH_SMALL: nx = 40; ny = 12; nz = 6; iters = 2; break;
    case BENCH_LARGE: nx = 256; ny = 256; nz = 256; iters = 10; break;
    case BENCH_PAPER: nx = 100; ny = 100; nz = 100; iters = 1; break; /* ISPASS-2009 LPS */
    default: nx = 128; ny = 96; nz = 48; iters = 3; break;
    }
    const size_t n = (size_t)nx * ny * nz;
    const size_t bytes = n * sizeof(float);

    float *h_a = malloc(bytes), *h_b = malloc(bytes), *h_out = malloc(bytes);
    if (!h_a || !h_b || !h_out) { fprintf(stderr, "lps: out of memory\n"); return 1; }

    /* Interior starts at random values, faces are fixed "boundary conditions". */
    bench_rng rng;
    bench_rng_seed(&rng, 0x1a95);
    for (size_t i = 0; i < n; i++) h_a[i] = bench_rng_range(&rng, -1.0f, 1.0f);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++) {
            h_a[((size_t)z * ny + y) * nx] = 1.0f;               /* x = 0 face held at 1 */
            h_a[((size_t)z * ny + y) * nx + nx - 1] = -1.0f;     /* x = nx-1 face at -1   */
        }

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("lps", &ctx, &mod)) return 1;
    CUfunction k_sweep;
    CU(cuModuleGetFunction(&k_sweep, mod, "lps_sweep"));

    /* Pitched device layout: rows of `pitch` floats, a multiple of 32 (128 bytes, one
     * L1 line), as the original's pitched allocation aligns every row. */
    int pitch = (nx + 31) / 32 * 32;
    const size_t prow = (size_t)ny * nz, pbytes = prow * pitch * sizeof(float);
    float *h_p = calloc(prow * pitch, sizeof(float));
    if (!h_p) { fprintf(stderr, "lps: out of memory\n"); return 1; }
    for (size_t r = 0; r < prow; r++) memcpy(h_p + r * pitch, h_a + r * nx, nx * sizeof(float));

    CUdeviceptr d_a, d_b;
    CU(cuMemAlloc(&d_a, pbytes));
    CU(cuMemAlloc(&d_b, pbytes));
    CU(cuMemcpyHtoD(d_a, h_p, pbytes));
    CU(cuMemcpyHtoD(d_b, h_p, pbytes));

    const unsigned gx = (unsigned)((nx + TX - 1) / TX), gy = (unsigned)((ny + TY - 1) / TY);
    if (!args.quiet)
        printf("lps: %dx%dx%d grid (row pitch %d), %d sweeps, %ux%u CTAs of %dx%d threads\n", nx,
               ny, nz, pitch, iters, gx, gy, TX, TY);
    CUdeviceptr d_src = d_a, d_dst = d_b;
    for (int it = 0; it < iters; it++) {
        void *kargs[] = {&d_src, &d_dst, &nx, &ny, &nz, &pitch};
        CU(cuLaunchKernel(k_sweep, gx, gy, 1, TX, TY, 1, 0, NULL, kargs, NULL));
        CUdeviceptr t = d_src; d_src = d_dst; d_dst = t;
    }
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(h_p, d_src, pbytes));
    for (size_t r = 0; r < prow; r++) memcpy(h_out + r * nx, h_p + r * pitch, nx * sizeof(float));
    free(h_p);

    float *r_src = h_a, *r_dst = h_b;
    for (int it = 0; it < iters; it++) {
        sweep_ref(r_src, r_dst, nx, ny, nz);
        float *t = r_src; r_src = r_dst; r_dst = t;
    }
    size_t bad = bench_check_f32("lps", h_out, r_src, n, 1e-5, 1e-5);

    CU(cuMemFree(d_a));
    CU(cuMemFree(d_b));
    bench_fini(ctx, mod);
    free(h_a); free(h_b); free(h_out);
    return bench_result("lps", &args, bad);
}
