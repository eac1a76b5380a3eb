/* gaussian: Gaussian elimination without pivoting (two kernels per pivot row) + host back substitution */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#define GE_THREADS 256 /* must match gaussian.cu */
#define GE_TILE 16     /* must match gaussian.cu */

/* Back substitution on the eliminated augmented matrix (upper triangle + rhs column). */
static void back_subst(const float *a, int n, float *x)
{
    int pitch = n + 1;
    for (int i = n - 1; i >= 0; i--) {
        double s = a[(size_t)i * pitch + n];
        for (int j = i + 1; j < n; j++)
            s -= (double)a[(size_t)i * pitch + j] * x[j];
        x[i] = (float)(s / a[(size_t)i * pitch + i]);
    }
}

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse(&args, argc, argv, NULL);
    if (rc)
        return rc;

    int n;
    switch (args.size) {
    case BENCH_SMALL: n = 48; break;
    case BENCH_LARGE: n = 1024; break;
    default: n = 256; break;
    }
    int pitch = n + 1;
    size_t abytes = (size_t)n * pitch * sizeof(float);

    float *a = malloc(abytes), *ref = malloc(abytes), *m = malloc(n * sizeof(float));
    float *x = malloc(n * sizeof(float)), *xref = malloc(n * sizeof(float));
    float *xtrue = malloc(n * sizeof(float));
    if (!a || !ref || !m || !x || !xref || !xtrue) {
        fprintf(stderr, "gaussian: out of host memory\n");
        return 1;
    }

    /* Strictly diagonally dominant A (no pivoting needed), b = A * xtrue. */
    bench_rng rng;
    bench_rng_seed(&rng, 2005);
    for (int i = 0; i < n; i++)
        xtrue[i] = bench_rng_range(&rng, -1.0f, 1.0f);
    for (int i = 0; i < n; i++) {
        float rowsum = 0.0f;
        for (int j = 0; j < n; j++) {
            if (j == i)
                continue;
            float v = bench_rng_range(&rng, -1.0f, 1.0f);
            a[(size_t)i * pitch + j] = v;
            rowsum += fabsf(v);
        }
        a[(size_t)i * pitch + i] = rowsum + bench_rng_range(&rng, 1.0f, 2.0f);
        double b = 0.0;
        for (int j = 0; j < n; j++)
            b += (double)a[(size_t)i * pitch + j] * xtrue[j];
        a[(size_t)i * pitch + n] = (float)b;
    }
    for (size_t c = 0; c < (size_t)n * pitch; c++)
        ref[c] = a[c];

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("gaussian", &ctx, &mod))
        return 1;
    CUfunction f_mul, f_elim;
    CU(cuModuleGetFunction(&f_mul, mod, "gauss_multipliers"));
    CU(cuModuleGetFunction(&f_elim, mod, "gauss_eliminate"));

    CUdeviceptr d_a, d_m;
    CU(cuMemAlloc(&d_a, abytes));
    CU(cuMemAlloc(&d_m, n * sizeof(float)));
    CU(cuMemcpyHtoD(d_a, a, abytes));

    for (int k = 0; k < n - 1; k++) {
        int rows = n - 1 - k, cols = n - k; /* rows k+1..n-1, columns k+1..n */
        void *kp[] = {&d_a, &d_m, &n, &k};
        CU(cuLaunchKernel(f_mul, (rows + GE_THREADS - 1) / GE_THREADS, 1, 1, GE_THREADS, 1, 1, 0,
                          NULL, kp, NULL));
        CU(cuLaunchKernel(f_elim, (cols + GE_TILE - 1) / GE_TILE, (rows + GE_TILE - 1) / GE_TILE, 1,
                          GE_TILE, GE_TILE, 1, 0, NULL, kp, NULL));
    }
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(a, d_a, abytes));

    /* CPU reference: the same elimination in float, same operation per element. */
    for (int k = 0; k < n - 1; k++) {
        for (int i = k + 1; i < n; i++)
            m[i] = ref[(size_t)i * pitch + k] / ref[(size_t)k * pitch + k];
        for (int i = k + 1; i < n; i++)
            for (int j = k + 1; j <= n; j++)
                ref[(size_t)i * pitch + j] -= m[i] * ref[(size_t)k * pitch + j];
    }
    back_subst(a, n, x);
    back_subst(ref, n, xref);

    if (!args.quiet)
        printf("gaussian: %d x %d system, %d pivots x 2 launches; multipliers <= %d x %d, "
               "eliminate <= (%d,%d) x (%d,%d)\n", n, n, n - 1, (n - 1 + GE_THREADS - 1) / GE_THREADS,
               GE_THREADS, (n + GE_TILE - 1) / GE_TILE, (n - 1 + GE_TILE - 1) / GE_TILE, GE_TILE,
               GE_TILE);
    size_t bad = 0;
    bad += bench_check_f32("gaussian.matrix", a, ref, (size_t)n * pitch, 1e-4, 1e-5);
    bad += bench_check_f32("gaussian.x", x, xref, n, 1e-5, 1e-4);
    bad += bench_check_f32("gaussian.x_vs_true", x, xtrue, n, 1e-3, 1e-3);

    CU(cuMemFree(d_a));
    CU(cuMemFree(d_m));
    bench_fini(ctx, mod);
    free(a);
    free(ref);
    free(m);
    free(x);
    free(xref);
    free(xtrue);
    return bench_result("gaussian", &args, bad);
}
