/* recursivegaussian: Deriche recursive Gaussian blur, column IIR passes plus two tiled transposes */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#define COL_BLOCK 64
#define RG_TILE 16

typedef struct { float a0, a1, a2, a3, nb1, nb2, coefp, coefn; } rg_coefs;

/* Deriche's smoothing (order 0) coefficients for a given sigma, in double. */
static rg_coefs make_coefs(double sigma)
{
    double alpha = 1.695 / sigma, ema = exp(-alpha), ema2 = exp(-2.0 * alpha);
    double k = (1.0 - ema) * (1.0 - ema) / (1.0 + 2.0 * alpha * ema - ema2);
    double a0 = k, a1 = k * (alpha - 1.0) * ema, a2 = k * (alpha + 1.0) * ema, a3 = -k * ema2;
    double b1 = -2.0 * ema, b2 = ema2;
    rg_coefs c = {(float)a0, (float)a1, (float)a2, (float)a3, (float)-b1, (float)-b2,
                  (float)((a0 + a1) / (1.0 + b1 + b2)), (float)((a2 + a3) / (1.0 + b1 + b2))};
    return c;
}

/* host copy of rg_columns, same operations in the same order */
static void columns_ref(const float *in, float *out, int w, int h, const rg_coefs *c)
{
    for (int x = 0; x < w; x++) {
        const float *src = in + x;
        float *dst = out + x;
        float xp = src[0], yp = c->coefp * xp, ypp = yp;
        for (int n = 0; n < h; n++) {
            float xc = src[(size_t)n * w];
            float yc = fmaf(c->a0, xc, fmaf(c->a1, xp, fmaf(c->nb1, yp, c->nb2 * ypp)));
            dst[(size_t)n * w] = yc;
            xp = xc;
            ypp = yp;
            yp = yc;
        }
        float xn = src[(size_t)(h - 1) * w], xnn = xn, yn = c->coefn * xn, ynn = yn;
        for (int n = h - 1; n >= 0; n--) {
            float xc = src[(size_t)n * w];
            float yc = fmaf(c->a2, xn, fmaf(c->a3, xnn, fmaf(c->nb1, yn, c->nb2 * ynn)));
            dst[(size_t)n * w] += yc;
            xnn = xn;
            xn = xc;
            ynn = yn;
            yn = yc;
        }
    }
}

static void transpose_ref(const float *in, float *out, int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            out[(size_t)x * h + y] = in[(size_t)y * w + x];
}

static int launch_columns(CUfunction f, CUdeviceptr in, CUdeviceptr out, int w, int h, rg_coefs *c)
{
    void *a[] = {&in, &out, &w, &h, &c->a0, &c->a1, &c->a2, &c->a3, &c->nb1, &c->nb2, &c->coefp, &c->coefn};
    CU(cuLaunchKernel(f, (unsigned)((w + COL_BLOCK - 1) / COL_BLOCK), 1, 1, COL_BLOCK, 1, 1, 0, NULL, a, NULL));
    return 0;
}

static int launch_transpose(CUfunction f, CUdeviceptr in, CUdeviceptr out, int w, int h)
{
    void *a[] = {&in, &out, &w, &h};
    CU(cuLaunchKernel(f, (unsigned)((w + RG_TILE - 1) / RG_TILE), (unsigned)((h + RG_TILE - 1) / RG_TILE), 1,
                      RG_TILE, RG_TILE, 1, 0, NULL, a, NULL));
    return 0;
}

int main(int argc, char **argv)
{
    bench_args args;
    if (bench_parse(&args, argc, argv, NULL))
        return 1;
    int w, h; /* small: width not a multiple of the transpose tile */
    if (args.size == BENCH_SMALL) { w = 72; h = 64; }
    else if (args.size == BENCH_LARGE) { w = 4096; h = 4096; }
    else { w = 1024; h = 1024; }
    const double sigma = 8.0;
    rg_coefs c = make_coefs(sigma);
    size_t n = (size_t)w * h, bytes = n * sizeof(float);

    float *img = malloc(bytes), *out = malloc(bytes), *ref = malloc(bytes);
    float *t1 = malloc(bytes), *t2 = malloc(bytes);
    if (!img || !out || !ref || !t1 || !t2) {
        fprintf(stderr, "recursivegaussian: out of host memory\n");
        return 1;
    }
    bench_rng rng;
    bench_rng_seed(&rng, 4010);
    for (size_t i = 0; i < n; i++)
        img[i] = bench_rng_float(&rng);

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("recursivegaussian", &ctx, &mod))
        return 1;
    CUfunction f_col, f_tr;
    CU(cuModuleGetFunction(&f_col, mod, "rg_columns"));
    CU(cuModuleGetFunction(&f_tr, mod, "rg_transpose"));
    CUdeviceptr d_in, d_a, d_b;
    CU(cuMemAlloc(&d_in, bytes));
    CU(cuMemAlloc(&d_a, bytes));
    CU(cuMemAlloc(&d_b, bytes));
    CU(cuMemcpyHtoD(d_in, img, bytes));

    if (launch_columns(f_col, d_in, d_a, w, h, &c))      /* vertical pass, w x h */
        return 1;
    if (launch_transpose(f_tr, d_a, d_b, w, h))          /* -> h x w */
        return 1;
    if (launch_columns(f_col, d_b, d_a, h, w, &c))      /* horizontal pass on the transposed image */
        return 1;
    if (launch_transpose(f_tr, d_a, d_b, h, w))          /* back to w x h */
        return 1;
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(out, d_b, bytes));

    columns_ref(img, t1, w, h, &c);
    transpose_ref(t1, t2, w, h);
    columns_ref(t2, t1, h, w, &c);
    transpose_ref(t1, ref, h, w);
    /* identical fmaf chains on both sides; a small margin all the same */
    size_t bad = bench_check_f32("blurred", out, ref, n, 1e-5, 1e-5);
    if (!args.quiet)
        printf("recursivegaussian: %dx%d, sigma %.1f, columns grid %d x %d (twice), transpose block %dx%d (twice)\n",
               w, h, sigma, (w + COL_BLOCK - 1) / COL_BLOCK, COL_BLOCK, RG_TILE, RG_TILE);

    cuMemFree(d_in);
    cuMemFree(d_a);
    cuMemFree(d_b);
    bench_fini(ctx, mod);
    free(img); free(out); free(ref); free(t1); free(t2);
    return bench_result("recursivegaussian", &args, bad);
}
