/* mc: Monte-Carlo European call pricing, per-thread RNG + Box-Muller, CTA reductions */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#define BLOCK 256 /* must match MC_BLOCK in mc.cu */

/* The CPU replica of the kernel's per-thread stream (see mc.cu). */
static uint32_t seed_of(uint32_t id)
{
    uint32_t h = id * 0x9E3779B1u + 0x7F4A7C15u;
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h ? h : 0x6D2B79F5u;
}

static uint32_t next_of(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return x;
}

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
    int rc = bench_parse(&args, argc, argv, NULL);
    if (rc) return rc;

    int nopt, blocks_per_opt, pairs;
    switch (args.size) {
    case BENCH_SMALL: nopt = 2; blocks_per_opt = 2; pairs = 4; break;
    case BENCH_LARGE: nopt = 32; blocks_per_opt = 32; pairs = 64; break;
    default: nopt = 16; blocks_per_opt = 8; pairs = 16; break;
    }
    const int nblocks = nopt * blocks_per_opt;
    const double paths = 2.0 * pairs * BLOCK * blocks_per_opt; /* per option */

    float opt_in[5][64]; /* spot, strike, years, rate, vol */
    bench_rng rng;
    bench_rng_seed(&rng, 0x3c);
    for (int o = 0; o < nopt; o++) {
        opt_in[0][o] = bench_rng_range(&rng, 80.0f, 120.0f);
        opt_in[1][o] = bench_rng_range(&rng, 80.0f, 120.0f);
        opt_in[2][o] = bench_rng_range(&rng, 0.25f, 2.0f);
        opt_in[3][o] = bench_rng_range(&rng, 0.01f, 0.05f);
        opt_in[4][o] = bench_rng_range(&rng, 0.10f, 0.40f);
    }
    float *h_part = malloc((size_t)nblocks * sizeof(float));
    float *r_part = malloc((size_t)nblocks * sizeof(float));
    float *sums = malloc(BLOCK * sizeof(float));
    if (!h_part || !r_part || !sums) { fprintf(stderr, "mc: out of memory\n"); return 1; }

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("mc", &ctx, &mod)) return 1;
    CUfunction k_price;
    CU(cuModuleGetFunction(&k_price, mod, "mc_price"));

    CUdeviceptr d_in[5], d_part;
    for (int i = 0; i < 5; i++) {
        CU(cuMemAlloc(&d_in[i], (size_t)nopt * sizeof(float)));
        CU(cuMemcpyHtoD(d_in[i], opt_in[i], (size_t)nopt * sizeof(float)));
    }
    CU(cuMemAlloc(&d_part, (size_t)nblocks * sizeof(float)));

    if (!args.quiet)
        printf("mc: %d options x %.0f paths, %dx%d CTAs of %d threads, %d path pairs/thread\n", nopt,
               paths, blocks_per_opt, nopt, BLOCK, pairs);
    void *kargs[] = {&d_in[0], &d_in[1], &d_in[2], &d_in[3], &d_in[4], &d_part, &pairs};
    CU(cuLaunchKernel(k_price, (unsigned)blocks_per_opt, (unsigned)nopt, 1, BLOCK, 1, 1, 0, NULL,
                      kargs, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(h_part, d_part, (size_t)nblocks * sizeof(float)));

    /* CPU run of the same streams, same per-thread order and the same reduction tree. */
    size_t bad = 0;
    for (int o = 0; o < nopt; o++) {
        const float s0 = opt_in[0][o], k = opt_in[1][o], t = opt_in[2][o];
        const float sigma = opt_in[4][o];
        const float drift = (opt_in[3][o] - 0.5f * sigma * sigma) * t;
        const float diffusion = sigma * sqrtf(t);
        double sum = 0.0, sumsq = 0.0, gpu = 0.0;
        for (int b = 0; b < blocks_per_opt; b++) {
            for (int tid = 0; tid < BLOCK; tid++) {
                uint32_t st = seed_of((uint32_t)((o * blocks_per_opt + b) * BLOCK + tid));
                float acc = 0.0f;
                for (int p = 0; p < pairs; p++) {
                    const float u1 = (float)((next_of(&st) >> 8) + 1u) * (1.0f / 16777216.0f);
                    const float u2 = (float)(next_of(&st) >> 8) * (1.0f / 16777216.0f);
                    const float radius = sqrtf(-2.0f * logf(u1));
                    const float angle = 6.28318530717958647692f * u2;
                    const float z0 = radius * cosf(angle), z1 = radius * sinf(angle);
                    const float p0 = fmaxf(s0 * expf(drift + diffusion * z0) - k, 0.0f);
                    const float p1 = fmaxf(s0 * expf(drift + diffusion * z1) - k, 0.0f);
                    acc += p0;
                    acc += p1;
                    sumsq += (double)p0 * p0 + (double)p1 * p1;
                }
                sums[tid] = acc;
            }
            for (int half = BLOCK / 2; half > 0; half >>= 1)
                for (int tid = 0; tid < half; tid++) sums[tid] += sums[tid + half];
            r_part[o * blocks_per_opt + b] = sums[0];
            sum += sums[0];
            gpu += h_part[o * blocks_per_opt + b];
        }
        const double disc = exp(-(double)opt_in[3][o] * t);
        const double ref_price = disc * sum / paths, gpu_price = disc * gpu / paths;
        const double mean = sum / paths;
        const double stderr_ = disc * sqrt(fmax(sumsq / paths - mean * mean, 0.0) / paths);
        const double bs = bs_call(s0, k, t, opt_in[3][o], sigma);
        if (!args.quiet)
            printf("  option %2d: S=%.2f K=%.2f T=%.2f  gpu %.4f  cpu %.4f  BS %.4f (+-%.4f)\n", o, s0,
                   k, t, gpu_price, ref_price, bs, stderr_);
        /* same streams: only libm-vs-GPU ulps and fma contraction separate them */
        if (fabs(gpu_price - ref_price) > 1e-4 * fabs(ref_price) + 1e-5) {
            fprintf(stderr, "mc: option %d: price %.6f, expected %.6f\n", o, gpu_price, ref_price);
            bad++;
        }
        /* the generator itself must be sound: within 6 standard errors of Black-Scholes */
        if (fabs(ref_price - bs) > 6.0 * stderr_ + 1e-3) {
            fprintf(stderr, "mc: option %d: MC price %.4f vs Black-Scholes %.4f (stderr %.4f)\n", o,
                    ref_price, bs, stderr_);
            bad++;
        }
    }
    bad += bench_check_f32("partial", h_part, r_part, (size_t)nblocks, 1e-3, 1e-4);

    for (int i = 0; i < 5; i++) CU(cuMemFree(d_in[i]));
    CU(cuMemFree(d_part));
    bench_fini(ctx, mod);
    free(h_part); free(r_part); free(sums);
    return bench_result("mc", &args, bad);
}
