/* blk: Black-Scholes European call/put pricing of many options (float, polynomial CND) */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 256
#define MAX_BLOCKS 1024

/* Same formulas as blk.cu, evaluated in double. */
static double cnd(double d)
{
    const double a1 = 0.319381530, a2 = -0.356563782, a3 = 1.781477937, a4 = -1.821255978,
                 a5 = 1.330274429, inv_sqrt_2pi = 0.398942280401432678;
    double z = fabs(d);
    double k = 1.0 / (1.0 + 0.2316419 * z);
    double poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    double tail = inv_sqrt_2pi * exp(-0.5 * z * z) * poly;
    return d > 0.0 ? 1.0 - tail : tail;
}

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, "[--ctas-per-sm K [--per-thread M]]");
    if (rc)
        return rc;
    /* --ctas-per-sm K: work that grows with the device (tools/scale.sh): a grid of K CTAs per
     * SM, each thread pricing M options (default 4), whatever --size says */
    int ctas_per_sm = 0, per_thread = 4;
    for (int i = 0; i < args.argc; i += 2) {
        const char *o = args.argv[i], *val = i + 1 < args.argc ? args.argv[i + 1] : NULL;
        if (val && !strcmp(o, "--ctas-per-sm"))
            ctas_per_sm = atoi(val);
        else if (val && !strcmp(o, "--per-thread"))
            per_thread = atoi(val);
        else {
            fprintf(stderr, "blk: bad argument '%s'\n", o);
            return 2;
        }
    }
    if (ctas_per_sm < 0 || ctas_per_sm > 1024 || per_thread < 1 || per_thread > 4096) {
        fprintf(stderr, "blk: --ctas-per-sm must be 0..1024, --per-thread 1..4096\n");
        return 2;
    }

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("blk", &ctx, &mod))
        return 1;

    int n, blocks;
    switch (args.size) {
    case BENCH_SMALL: n = 2048; break;
    case BENCH_LARGE: n = 8 << 20; break;
    case BENCH_PAPER: n = 4000000; break; /* SDK BlackScholes OPT_N */
    default: n = 512 << 10; break;
    }
    blocks = (n + THREADS - 1) / THREADS;
    if (blocks > MAX_BLOCKS)
        blocks = MAX_BLOCKS;
    if (ctas_per_sm) {
        CUdevice dev;
        int sms;
        CU(cuCtxGetDevice(&dev));
        CU(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
        if ((long long)ctas_per_sm * sms * THREADS * per_thread > (1 << 28)) {
            fprintf(stderr, "blk: more than 2^28 options\n");
            bench_fini(ctx, mod);
            return 2;
        }
        blocks = ctas_per_sm * sms;
        n = blocks * THREADS * per_thread;
    }
    float r = 0.02f, v = 0.30f;

    float *s = malloc(n * sizeof(float)), *x = malloc(n * sizeof(float));
    float *t = malloc(n * sizeof(float));
    float *call = malloc(n * sizeof(float)), *put = malloc(n * sizeof(float));
    float *rcall = malloc(n * sizeof(float)), *rput = malloc(n * sizeof(float));
    if (!s || !x || !t || !call || !put || !rcall || !rput) {
        fprintf(stderr, "blk: out of host memory\n");
        return 1;
    }
    bench_rng rng;
    bench_rng_seed(&rng, 1007);
    for (int i = 0; i < n; i++) {
        s[i] = bench_rng_range(&rng, 5.0f, 100.0f);
        x[i] = bench_rng_range(&rng, 1.0f, 120.0f);
        t[i] = bench_rng_range(&rng, 0.1f, 10.0f);
    }
    for (int i = 0; i < n; i++) {
        double st = sqrt((double)t[i]), vst = v * st;
        double d1 = (log((double)s[i] / x[i]) + (r + 0.5 * v * v) * t[i]) / vst;
        double d2 = d1 - vst;
        double n1 = cnd(d1), n2 = cnd(d2), xd = x[i] * exp(-(double)r * t[i]);
        rcall[i] = (float)(s[i] * n1 - xd * n2);
        rput[i] = (float)(xd * (1.0 - n2) - s[i] * (1.0 - n1));
    }

    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "black_scholes"));

    CUdeviceptr d_s, d_x, d_t, d_call, d_put;
    size_t bytes = (size_t)n * sizeof(float);
    CU(cuMemAlloc(&d_s, bytes));
    CU(cuMemAlloc(&d_x, bytes));
    CU(cuMemAlloc(&d_t, bytes));
    CU(cuMemAlloc(&d_call, bytes));
    CU(cuMemAlloc(&d_put, bytes));
    CU(cuMemcpyHtoD(d_s, s, bytes));
    CU(cuMemcpyHtoD(d_x, x, bytes));
    CU(cuMemcpyHtoD(d_t, t, bytes));

    void *kp[] = {&d_call, &d_put, &d_s, &d_x, &d_t, &r, &v, &n};
    CU(cuLaunchKernel(fn, blocks, 1, 1, THREADS, 1, 1, 0, NULL, kp, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(call, d_call, bytes));
    CU(cuMemcpyDtoH(put, d_put, bytes));

    if (!args.quiet)
        printf("blk: %d options, grid %d x %d threads\n", n, blocks, THREADS);
    /* Prices are <= ~120; float rounding of the inputs to the CND and of the two terms
     * that cancel in each price gives errors of a few 1e-5 absolute. */
    size_t bad = bench_check_f32("blk.call", call, rcall, n, 5e-4, 1e-4);
    bad += bench_check_f32("blk.put", put, rput, n, 5e-4, 1e-4);

    CU(cuMemFree(d_s));
    CU(cuMemFree(d_x));
    CU(cuMemFree(d_t));
    CU(cuMemFree(d_call));
    CU(cuMemFree(d_put));
    bench_fini(ctx, mod);
    free(s);
    free(x);
    free(t);
    free(call);
    free(put);
    free(rcall);
    free(rput);
    return bench_result("blk", &args, bad);
}
