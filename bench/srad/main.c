/* srad: speckle-reducing anisotropic diffusion (device statistics reduction + two 16x16 stencil kernels per iteration) */
#include "bench.h"

#include <stdlib.h>

#define SR_T 16             /* must match srad.cu */
#define SR_RED_THREADS 256  /* must match srad.cu */
#define SR_PER_THREAD 4     /* pixels per thread of srad_stats (sets its grid) */
#define LAMBDA 0.5f

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

/* CPU versions of srad_coeff / srad_update (same float expressions, same order). */
static void ref_coeff(const float *J, float *dN, float *dS, float *dW, float *dE, float *c,
                      int rows, int cols, float q0sqr)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            size_t k = (size_t)i * cols + j;
            float jc = J[k];
            float n = J[(size_t)imax(i - 1, 0) * cols + j] - jc;
            float s = J[(size_t)imin(i + 1, rows - 1) * cols + j] - jc;
            float w = J[(size_t)i * cols + imax(j - 1, 0)] - jc;
            float e = J[(size_t)i * cols + imin(j + 1, cols - 1)] - jc;
            float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
            float l = (n + s + w + e) / jc;
            float num = 0.5f * g2 - 0.0625f * (l * l);
            float den = 1.0f + 0.25f * l;
            float qsqr = num / (den * den);
            den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
            float cv = 1.0f / (1.0f + den);
            if (cv < 0.0f)
                cv = 0.0f;
            else if (cv > 1.0f)
                cv = 1.0f;
            dN[k] = n;
            dS[k] = s;
            dW[k] = w;
            dE[k] = e;
            c[k] = cv;
        }
}

static void ref_update(float *J, const float *dN, const float *dS, const float *dW,
                       const float *dE, const float *c, int rows, int cols, float lambda)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            size_t k = (size_t)i * cols + j;
            float cc = c[k];
            float cs = c[(size_t)imin(i + 1, rows - 1) * cols + j];
            float ce = c[(size_t)i * cols + imin(j + 1, cols - 1)];
            float div = cc * dN[k] + cs * dS[k] + cc * dW[k] + ce * dE[k];
            J[k] = J[k] + 0.25f * lambda * div;
        }
}

static float q0sqr_of(double sum, double sumsq, size_t n)
{
    double mean = sum / (double)n;
    double var = sumsq / (double)n - mean * mean;
    return (float)(var / (mean * mean));
}

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse(&args, argc, argv, NULL);
    if (rc)
        return rc;

    int rows, cols, iters = 2;
    switch (args.size) {
    case BENCH_SMALL: rows = cols = 64; break;
    case BENCH_LARGE: rows = cols = 2048; break;
    default: rows = cols = 512; break;
    }
    int npx = rows * cols;
    size_t bytes = (size_t)npx * sizeof(float);
    int red_blocks = (npx + SR_RED_THREADS * SR_PER_THREAD - 1) / (SR_RED_THREADS * SR_PER_THREAD);

    float *J = malloc(bytes), *Jref = malloc(bytes), *cdev = malloc(bytes);
    float *rd[5];
    for (int a = 0; a < 5; a++)
        rd[a] = malloc(bytes);
    float *part = malloc((size_t)red_blocks * 2 * sizeof(float));
    if (!J || !Jref || !cdev || !rd[0] || !rd[1] || !rd[2] || !rd[3] || !rd[4] || !part) {
        fprintf(stderr, "srad: out of host memory\n");
        return 1;
    }

    /* Synthetic ultrasound-like image: a darker background with a bright disc and a
     * bright band, times multiplicative speckle in [0.5, 1.5). All pixels > 0. */
    bench_rng rng;
    bench_rng_seed(&rng, 2003);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            float y = (float)i / rows, x = (float)j / cols;
            float base = 0.4f;
            if ((x - 0.4f) * (x - 0.4f) + (y - 0.5f) * (y - 0.5f) < 0.06f)
                base = 1.2f;
            else if (x > 0.75f && x < 0.85f)
                base = 0.9f;
            J[(size_t)i * cols + j] = base * (0.5f + bench_rng_float(&rng));
        }
    for (int k = 0; k < npx; k++)
        Jref[k] = J[k];

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("srad", &ctx, &mod))
        return 1;
    CUfunction f_stats, f_coeff, f_update;
    CU(cuModuleGetFunction(&f_stats, mod, "srad_stats"));
    CU(cuModuleGetFunction(&f_coeff, mod, "srad_coeff"));
    CU(cuModuleGetFunction(&f_update, mod, "srad_update"));

    CUdeviceptr d_J, d_dN, d_dS, d_dW, d_dE, d_c, d_part;
    CU(cuMemAlloc(&d_J, bytes));
    CU(cuMemAlloc(&d_dN, bytes));
    CU(cuMemAlloc(&d_dS, bytes));
    CU(cuMemAlloc(&d_dW, bytes));
    CU(cuMemAlloc(&d_dE, bytes));
    CU(cuMemAlloc(&d_c, bytes));
    CU(cuMemAlloc(&d_part, (size_t)red_blocks * 2 * sizeof(float)));
    CU(cuMemcpyHtoD(d_J, J, bytes));

    unsigned gx = (cols + SR_T - 1) / SR_T, gy = (rows + SR_T - 1) / SR_T;
    float lambda = LAMBDA;
    size_t bad = 0;
    for (int it = 0; it < iters; it++) {
        /* Device: image statistics -> per-block partials, summed on the host. */
        void *sa[] = {&d_J, &npx, &d_part};
        CU(cuLaunchKernel(f_stats, red_blocks, 1, 1, SR_RED_THREADS, 1, 1, 0, NULL, sa, NULL));
        CU(cuCtxSynchronize());
        CU(cuMemcpyDtoH(part, d_part, (size_t)red_blocks * 2 * sizeof(float)));
        double sum = 0.0, sumsq = 0.0;
        for (int b = 0; b < red_blocks; b++) {
            sum += part[2 * b];
            sumsq += part[2 * b + 1];
        }
        float q0sqr = q0sqr_of(sum, sumsq, (size_t)npx);

        void *ca[] = {&d_J, &d_dN, &d_dS, &d_dW, &d_dE, &d_c, &rows, &cols, &q0sqr};
        CU(cuLaunchKernel(f_coeff, gx, gy, 1, SR_T, SR_T, 1, 0, NULL, ca, NULL));
        void *ua[] = {&d_J, &d_dN, &d_dS, &d_dW, &d_dE, &d_c, &rows, &cols, &lambda};
        CU(cuLaunchKernel(f_update, gx, gy, 1, SR_T, SR_T, 1, 0, NULL, ua, NULL));

        /* CPU reference iteration (statistics in double). */
        double rsum = 0.0, rsumsq = 0.0;
        for (int k = 0; k < npx; k++) {
            rsum += Jref[k];
            rsumsq += (double)Jref[k] * Jref[k];
        }
        float rq0sqr = q0sqr_of(rsum, rsumsq, (size_t)npx);
        bad += bench_check_f32("srad.q0sqr", &q0sqr, &rq0sqr, 1, 1e-6, 1e-4);
        ref_coeff(Jref, rd[0], rd[1], rd[2], rd[3], rd[4], rows, cols, rq0sqr);
        ref_update(Jref, rd[0], rd[1], rd[2], rd[3], rd[4], rows, cols, LAMBDA);
        if (!args.quiet)
            printf("srad: iteration %d q0^2 = %.6f (reference %.6f)\n", it, q0sqr, rq0sqr);
    }
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(J, d_J, bytes));
    CU(cuMemcpyDtoH(cdev, d_c, bytes));

    if (!args.quiet)
        printf("srad: %d x %d image, %d iterations; stats grid %d x %d, stencil grid (%u,%u) x "
               "(%d,%d)\n", rows, cols, iters, red_blocks, SR_RED_THREADS, gx, gy, SR_T, SR_T);
    bad += bench_check_f32("srad.c", cdev, rd[4], (size_t)npx, 1e-4, 1e-3);
    bad += bench_check_f32("srad.J", J, Jref, (size_t)npx, 1e-5, 1e-4);

    CU(cuMemFree(d_J));
    CU(cuMemFree(d_dN));
    CU(cuMemFree(d_dS));
    CU(cuMemFree(d_dW));
    CU(cuMemFree(d_dE));
    CU(cuMemFree(d_c));
    CU(cuMemFree(d_part));
    bench_fini(ctx, mod);
    free(J);
    free(Jref);
    free(cdev);
    for (int a = 0; a < 5; a++)
        free(rd[a]);
    free(part);
    return bench_result("srad", &args, bad);
}
