/* lud: blocked LU decomposition (no pivoting) of a diagonally dominant matrix, 3 kernels per step */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define B 16 /* must match LUD_B in lud.cu */

/* CPU reference: the same blocked algorithm with the same per-element operation order. */
static void lud_ref(float *a, int n)
{
    int nb = n / B;
    for (int k = 0; k < nb; k++) {
        int k0 = k * B;
        /* diagonal block */
        for (int j = 0; j < B - 1; j++) {
            for (int i = j + 1; i < B; i++)
                a[(size_t)(k0 + i) * n + k0 + j] /= a[(size_t)(k0 + j) * n + k0 + j];
            for (int i = j + 1; i < B; i++)
                for (int c = j + 1; c < B; c++)
                    a[(size_t)(k0 + i) * n + k0 + c] -=
                        a[(size_t)(k0 + i) * n + k0 + j] * a[(size_t)(k0 + j) * n + k0 + c];
        }
        /* row panel: U_kj = L_kk^-1 A_kj */
        for (int jb = k + 1; jb < nb; jb++) {
            int j0 = jb * B;
            for (int m = 0; m < B - 1; m++)
                for (int i = m + 1; i < B; i++)
                    for (int c = 0; c < B; c++)
                        a[(size_t)(k0 + i) * n + j0 + c] -=
                            a[(size_t)(k0 + i) * n + k0 + m] * a[(size_t)(k0 + m) * n + j0 + c];
        }
        /* column panel: L_ik = A_ik U_kk^-1 */
        for (int ib = k + 1; ib < nb; ib++) {
            int i0 = ib * B;
            for (int m = 0; m < B; m++) {
                for (int i = 0; i < B; i++)
                    a[(size_t)(i0 + i) * n + k0 + m] /= a[(size_t)(k0 + m) * n + k0 + m];
                for (int i = 0; i < B; i++)
                    for (int c = m + 1; c < B; c++)
                        a[(size_t)(i0 + i) * n + k0 + c] -=
                            a[(size_t)(i0 + i) * n + k0 + m] * a[(size_t)(k0 + m) * n + k0 + c];
            }
        }
        /* trailing update: A_ij -= sum_m L_ik[i][m] U_kj[m][j], accumulated first */
        for (int ib = k + 1; ib < nb; ib++)
            for (int jb = k + 1; jb < nb; jb++)
                for (int i = 0; i < B; i++)
                    for (int c = 0; c < B; c++) {
                        float acc = 0.0f;
                        for (int m = 0; m < B; m++)
                            acc += a[(size_t)(ib * B + i) * n + k0 + m] *
                                   a[(size_t)(k0 + m) * n + jb * B + c];
                        a[(size_t)(ib * B + i) * n + jb * B + c] -= acc;
                    }
    }
}

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc)
        return rc;

    int n;
    switch (args.size) {
    case BENCH_SMALL: n = 64; break;
    case BENCH_LARGE: n = 1024; break;
    case BENCH_PAPER: n = 256; break; /* Rodinia run script: -s 256 */
    default: n = 256; break;
    }
    int nb = n / B;
    size_t nn = (size_t)n * n;

    float *a = malloc(nn * sizeof(float)), *ref = malloc(nn * sizeof(float));
    float *out = malloc(nn * sizeof(float));
    if (!a || !ref || !out) {
        fprintf(stderr, "lud: out of host memory\n");
        return 1;
    }
    /* Off-diagonal entries in [-1, 1); diagonal = 1 + sum of |off-diagonal| of its row
     * (strictly diagonally dominant, so no pivoting is needed). */
    bench_rng rng;
    bench_rng_seed(&rng, 1006);
    for (int i = 0; i < n; i++) {
        float rowsum = 0.0f;
        for (int j = 0; j < n; j++) {
            float v = bench_rng_range(&rng, -1.0f, 1.0f);
            a[(size_t)i * n + j] = v;
            if (j != i)
                rowsum += fabsf(v);
        }
        a[(size_t)i * n + i] = 1.0f + rowsum;
    }
    memcpy(ref, a, nn * sizeof(float));
    lud_ref(ref, n);

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("lud", &ctx, &mod))
        return 1;
    CUfunction fdiag, fperi, fint;
    CU(cuModuleGetFunction(&fdiag, mod, "lud_diag"));
    CU(cuModuleGetFunction(&fperi, mod, "lud_perimeter"));
    CU(cuModuleGetFunction(&fint, mod, "lud_internal"));

    CUdeviceptr d_a;
    CU(cuMemAlloc(&d_a, nn * sizeof(float)));
    CU(cuMemcpyHtoD(d_a, a, nn * sizeof(float)));
    int launches = 0;
    for (int k = 0; k < nb; k++) {
        void *kp[] = {&d_a, &n, &k};
        int r = nb - k - 1;
        CU(cuLaunchKernel(fdiag, 1, 1, 1, B, B, 1, 0, NULL, kp, NULL));
        launches++;
        if (r == 0)
            break;
        CU(cuLaunchKernel(fperi, 2 * r, 1, 1, B, B, 1, 0, NULL, kp, NULL));
        CU(cuLaunchKernel(fint, r, r, 1, B, B, 1, 0, NULL, kp, NULL));
        launches += 2;
    }
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(out, d_a, nn * sizeof(float)));

    if (!args.quiet)
        printf("lud: %dx%d matrix, %dx%d blocks, %d launches\n", n, n, B, B, launches);
    /* Entries of L are O(1/n), of U O(1) off the diagonal and O(n) on it. */
    size_t bad = bench_check_f32("lud.lu", out, ref, nn, 1e-6, 1e-4);

    /* Independent check: L*U (unit lower L and upper U of the device result) reproduces A:
     * (LU)[i][j] = sum_{m < min(i,j)} L[i][m] U[m][j] + (i <= j ? U[i][j] : L[i][j] U[j][j]).
     * Bound: |LU - A| <= 2 n eps_f (|L||U|)_ij, the classical backward-error bound. */
    double maxratio = 0.0;
    for (int i = 0; i < n; i++) {
        const float *li = out + (size_t)i * n;
        for (int j = 0; j < n; j++) {
            int mmax = i < j ? i : j;
            double s = i <= j ? (double)li[j] : (double)li[j] * out[(size_t)j * n + j];
            double sabs = fabs(s);
            for (int m = 0; m < mmax; m++) {
                double t = (double)li[m] * out[(size_t)m * n + j];
                s += t;
                sabs += fabs(t);
            }
            double want = a[(size_t)i * n + j], err = fabs(s - want);
            double bound = 2.0 * n * 5.96e-8 * sabs + 1e-6;
            if (err / bound > maxratio)
                maxratio = err / bound;
            if (!(err <= bound)) {
                if (bad < 8)
                    fprintf(stderr, "lud.residual[%d][%d]: L*U = %.9g, A = %.9g\n", i, j, s, want);
                bad++;
            }
        }
    }
    if (!args.quiet)
        printf("lud: max |L*U - A| / bound = %.3g\n", maxratio);

    CU(cuMemFree(d_a));
    bench_fini(ctx, mod);
    free(a);
    free(ref);
    free(out);
    return bench_result("lud", &args, bad);
}
