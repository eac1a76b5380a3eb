/* mc: Monte-Carlo European call pricing from pre-generated normal samples in global memory */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#define BLOCK 256 /* must match MC_BLOCK in mc.cu */

/* Black-Scholes price of a European call, for a statistical sanity check. */
static double bs_call(double s, double k, double t, double r, double v)
{
    double d1 = (log(s / k) + (r + 0.5 * v * v) * t) / (v * sqrt(t));
    double d2 = d1 - v * sqrt(t);
    return s * 0.5 * erfc(-d1 / sqrt(2.0)) - k * exp(-r * t) * 0.5 * erfc(-d2 / sqrt(2.0));
}

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc) return rc;

    /* options, CTAs per option, samples (paths, shared by every option) */
    int nopt, blocks_per_opt, path_n;
    switch (args.size) {
    case BENCH_SMALL: nopt = 4; blocks_per_opt = 1; path_n = 2048; break;
    case BENCH_LARGE: nopt = 128; blocks_per_opt = 1; path_n = 1 << 18; break;
    case BENCH_PAPER: nopt = 256; blocks_per_opt = 1; path_n = 1 << 18; break; /* SDK sizes */
    default: nopt = 64; blocks_per_opt = 1; path_n = 1 << 16; break;
    }
    const int nblocks = nopt * blocks_per_opt;

    float *opt_in[5]; /* spot, strike, years, rate, vol */
    float *h_mu = malloc((size_t)nopt * sizeof(float)), *h_vs = malloc((size_t)nopt * sizeof(float));
    float *h_z = malloc((size_t)path_n * sizeof(float));
    float *h_sum = malloc((size_t)nblocks * sizeof(float));
    float *h_sum2 = malloc((size_t)nblocks * sizeof(float));
    int oom = !h_mu || !h_vs || !h_z || !h_sum || !h_sum2;
    for (int i = 0; i < 5; i++) {
        opt_in[i] = malloc((size_t)nopt * sizeof(float));
        oom |= !opt_in[i];
    }
    if (oom) { fprintf(stderr, "mc: out of memory\n"); return 1; }

    bench_rng rng;
    bench_rng_seed(&rng, 0x3c);
    for (int o = 0; o < nopt; o++) {
        opt_in[0][o] = bench_rng_range(&rng, 80.0f, 120.0f);
        opt_in[1][o] = bench_rng_range(&rng, 80.0f, 120.0f);
        opt_in[2][o] = bench_rng_range(&rng, 0.25f, 2.0f);
        opt_in[3][o] = bench_rng_range(&rng, 0.01f, 0.05f);
        opt_in[4][o] = bench_rng_range(&rng, 0.10f, 0.40f);
        const float t = opt_in[2][o], v = opt_in[4][o];
        h_mu[o] = (opt_in[3][o] - 0.5f * v * v) * t;
        h_vs[o] = v * sqrtf(t);
    }
    /* Standard normals by Box-Muller, in double, then rounded to float. */
    for (int i = 0; i < path_n; i += 2) {
        const double u1 = ((double)(bench_rng_u64(&rng) >> 11) + 1.0) * 0x1.0p-53;
        const double u2 = (double)(bench_rng_u64(&rng) >> 11) * 0x1.0p-53;
        const double rad = sqrt(-2.0 * log(u1)), ang = 6.283185307179586476925 * u2;
        h_z[i] = (float)(rad * cos(ang));
        if (i + 1 < path_n) h_z[i + 1] = (float)(rad * sin(ang));
    }

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("mc", &ctx, &mod)) return 1;
    CUfunction k_price;
    CU(cuModuleGetFunction(&k_price, mod, "mc_price"));

    const float *up[4] = {opt_in[0], opt_in[1], h_mu, h_vs};
    CUdeviceptr d_z, d_in[4], d_sum, d_sum2;
    CU(cuMemAlloc(&d_z, (size_t)path_n * sizeof(float)));
    CU(cuMemcpyHtoD(d_z, h_z, (size_t)path_n * sizeof(float)));
    for (int i = 0; i < 4; i++) {
        CU(cuMemAlloc(&d_in[i], (size_t)nopt * sizeof(float)));
        CU(cuMemcpyHtoD(d_in[i], up[i], (size_t)nopt * sizeof(float)));
    }
    CU(cuMemAlloc(&d_sum, (size_t)nblocks * sizeof(float)));
    CU(cuMemAlloc(&d_sum2, (size_t)nblocks * sizeof(float)));

    if (!args.quiet)
        printf("mc: %d options x %d paths (%zu KB of samples), %dx%d CTAs of %d threads\n", nopt,
               path_n, (size_t)path_n * sizeof(float) / 1024, blocks_per_opt, nopt, BLOCK);
    void *kargs[] = {&d_z, &path_n, &d_in[0], &d_in[1], &d_in[2], &d_in[3], &d_sum, &d_sum2};
    CU(cuLaunchKernel(k_price, (unsigned)blocks_per_opt, (unsigned)nopt, 1, BLOCK, 1, 1, 0, NULL,
                      kargs, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(h_sum, d_sum, (size_t)nblocks * sizeof(float)));
    CU(cuMemcpyDtoH(h_sum2, d_sum2, (size_t)nblocks * sizeof(float)));

    /* CPU reference in double from the same samples. The GPU sums in float, in another
     * order, with ex2.approx for the exponential: relative agreement to ~1e-5. */
    size_t bad = 0;
    for (int o = 0; o < nopt; o++) {
        const double s0 = opt_in[0][o], k = opt_in[1][o], t = opt_in[2][o], r = opt_in[3][o];
        double sum = 0.0, sum2 = 0.0, gsum = 0.0, gsum2 = 0.0;
        for (int i = 0; i < path_n; i++) {
            const double p = fmax(s0 * exp((double)h_mu[o] + (double)h_vs[o] * h_z[i]) - k, 0.0);
            sum += p;
            sum2 += p * p;
        }
        for (int b = 0; b < blocks_per_opt; b++) {
            gsum += h_sum[o * blocks_per_opt + b];
            gsum2 += h_sum2[o * blocks_per_opt + b];
        }
        const double disc = exp(-r * t);
        const double ref_price = disc * sum / path_n, gpu_price = disc * gsum / path_n;
        const double mean = sum / path_n;
        const double stderr_ = disc * sqrt(fmax(sum2 / path_n - mean * mean, 0.0) / path_n);
        const double bs = bs_call(s0, k, t, r, opt_in[4][o]);
        if (!args.quiet && o < 16)
            printf("  option %2d: S=%.2f K=%.2f T=%.2f  gpu %.4f  cpu %.4f  BS %.4f (+-%.4f)\n", o,
                   s0, k, t, gpu_price, ref_price, bs, stderr_);
        if (fabs(gpu_price - ref_price) > 1e-4 * fabs(ref_price) + 1e-5 ||
            fabs(gsum2 - sum2) > 1e-4 * fabs(sum2) + 1e-3) {
            fprintf(stderr, "mc: option %d: price %.6f (sum2 %.6g), expected %.6f (%.6g)\n", o,
                    gpu_price, gsum2, ref_price, sum2);
            bad++;
        }
        /* the samples must be sound: within 6 standard errors of Black-Scholes */
        if (fabs(ref_price - bs) > 6.0 * stderr_ + 1e-3) {
            fprintf(stderr, "mc: option %d: MC price %.4f vs Black-Scholes %.4f (stderr %.4f)\n", o,
                    ref_price, bs, stderr_);
            bad++;
        }
    }

    CU(cuMemFree(d_z));
    for (int i = 0; i < 4; i++) CU(cuMemFree(d_in[i]));
    CU(cuMemFree(d_sum));
    CU(cuMemFree(d_sum2));
    bench_fini(ctx, mod);
    for (int i = 0; i < 5; i++) free(opt_in[i]);
    free(h_mu); free(h_vs); free(h_z); free(h_sum); free(h_sum2);
    return bench_result("mc", &args, bad);
}
