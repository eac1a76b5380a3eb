/* eigenvalue: eigenvalues of a symmetric tridiagonal matrix by Sturm-count bisection, one per thread */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

static int sturm_count_ref(const float *a, const float *b, int n, float x, float pivmin)
{
    float q = a[0] - x;
    if (fabsf(q) < pivmin)
        q = -pivmin;
    int c = q < 0.0f;
    for (int i = 1; i < n; i++) {
        float bi = b[i];
        q = (a[i] - x) - (bi * bi) / q;
        if (fabsf(q) < pivmin)
            q = -pivmin;
        c += q < 0.0f;
    }
    return c;
}

int main(int argc, char **argv)
{
    bench_args args;
    if (bench_parse(&args, argc, argv, NULL))
        return 1;
    int n = args.size == BENCH_SMALL ? 64 : args.size == BENCH_LARGE ? 4096 : 640;
    const int block = 64;
    const float rel_tol = 1.0f / 1048576.0f; /* 2^-20 of the Gerschgorin width */

    float *a = malloc((size_t)n * sizeof(float)), *b = malloc((size_t)n * sizeof(float));
    float *eig = malloc((size_t)n * sizeof(float)), *ref = malloc((size_t)n * sizeof(float));
    if (!a || !b || !eig || !ref) {
        fprintf(stderr, "eigenvalue: out of host memory\n");
        return 1;
    }
    bench_rng rng;
    bench_rng_seed(&rng, 4006);
    float bmax2 = 1.0f;
    for (int i = 0; i < n; i++) {
        a[i] = bench_rng_range(&rng, -8.0f, 8.0f);
        b[i] = i ? bench_rng_range(&rng, -2.0f, 2.0f) : 0.0f;
        if (b[i] * b[i] > bmax2)
            bmax2 = b[i] * b[i];
    }
    float pivmin = 1e-30f * bmax2;

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("eigenvalue", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "eig_bisect"));
    CUdeviceptr d_a, d_b, d_eig;
    CU(cuMemAlloc(&d_a, (size_t)n * sizeof(float)));
    CU(cuMemAlloc(&d_b, (size_t)n * sizeof(float)));
    CU(cuMemAlloc(&d_eig, (size_t)n * sizeof(float)));
    CU(cuMemcpyHtoD(d_a, a, (size_t)n * sizeof(float)));
    CU(cuMemcpyHtoD(d_b, b, (size_t)n * sizeof(float)));
    float tol_arg = rel_tol;
    void *kargs[] = {&d_a, &d_b, &d_eig, &n, &pivmin, &tol_arg};
    unsigned grid = (unsigned)((n + block - 1) / block);
    CU(cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, NULL, kargs, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(eig, d_eig, (size_t)n * sizeof(float)));

    /* CPU bisection: the same float operations, so normally bit-identical */
    float lo = a[0], hi = a[0];
    for (int i = 0; i < n; i++) {
        float r = fabsf(b[i]) + (i + 1 < n ? fabsf(b[i + 1]) : 0.0f);
        lo = fminf(lo, a[i] - r);
        hi = fmaxf(hi, a[i] + r);
    }
    float tol = rel_tol * (hi - lo);
    lo -= tol;
    hi += tol;
    for (int k = 0; k < n; k++) {
        float l = lo, u = hi;
        for (;;) {
            float m = 0.5f * (l + u);
            if (u - l <= tol || m <= l || m >= u)
                break;
            if (sturm_count_ref(a, b, n, m, pivmin) > k)
                u = m;
            else
                l = m;
        }
        ref[k] = 0.5f * (l + u);
    }
    size_t bad = bench_check_f32("eigenvalue", eig, ref, (size_t)n, 2.0 * tol, 0.0);
    /* the eigenvalues must come out sorted and add up to the trace */
    double trace = 0.0, sum = 0.0;
    for (int k = 0; k < n; k++) {
        trace += a[k];
        sum += ref[k];
        if (k && eig[k] < eig[k - 1] - 2.0f * tol) {
            if (bad < 8)
                fprintf(stderr, "eigenvalue: eig[%d]=%g < eig[%d]=%g\n", k, eig[k], k - 1, eig[k - 1]);
            bad++;
        }
    }
    if (fabs(sum - trace) > n * (double)tol) {
        fprintf(stderr, "eigenvalue: reference sum %g differs from trace %g\n", sum, trace);
        bad++;
    }
    if (!args.quiet)
        printf("eigenvalue: n=%d, spectrum in [%g, %g], tol %g, grid %u x %d\n", n, lo, hi, tol, grid, block);

    cuMemFree(d_a);
    cuMemFree(d_b);
    cuMemFree(d_eig);
    bench_fini(ctx, mod);
    free(a); free(b); free(eig); free(ref);
    return bench_result("eigenvalue", &args, bad);
}
