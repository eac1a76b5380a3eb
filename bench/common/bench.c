/* bench.c - shared host-side helpers of the workload drivers (see bench.h). */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *bench_size_name(bench_size s)
{
    return s == BENCH_SMALL ? "small" : s == BENCH_LARGE ? "large"
         : s == BENCH_PAPER ? "paper" : "default";
}

static int parse_args(bench_args *a, int argc, char **argv, const char *usage_extra, int paper)
{
    const char *sizes = paper ? "small|default|large|paper" : "small|default|large";
    const char *prog = argv[0];   /* the leftovers are compacted over argv[0] */
    a->size = BENCH_DEFAULT;
    a->quiet = 0;
    a->argc = 0;
    a->argv = argv;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *v = NULL;
        if (!strcmp(s, "--size") && i + 1 < argc)
            v = argv[++i];
        else if (!strncmp(s, "--size=", 7))
            v = s + 7;
        else if (!strcmp(s, "--quiet") || !strcmp(s, "-q")) {
            a->quiet = 1;
            continue;
        } else if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            printf("usage: %s [--size %s] [--quiet]%s%s\n", prog, sizes,
                   usage_extra ? " " : "", usage_extra ? usage_extra : "");
            return 1;
        } else {
            argv[a->argc++] = argv[i];  /* compact leftovers to the front */
            continue;
        }
        if (!strcmp(v, "small")) a->size = BENCH_SMALL;
        else if (!strcmp(v, "default")) a->size = BENCH_DEFAULT;
        else if (!strcmp(v, "large")) a->size = BENCH_LARGE;
        else if (paper && !strcmp(v, "paper")) a->size = BENCH_PAPER;
        else {
            fprintf(stderr, "%s: unknown size '%s' (%s)\n", prog, v, sizes);
            return 2;
        }
    }
    /* a driver without options of its own takes nothing else: never ignore an argument
     * (under `warpsim run`, warpsim's own options such as --set go before the workload) */
    if (!usage_extra && a->argc > 0) {
        fprintf(stderr, "%s: unknown argument '%s' (usage: %s [--size %s] [--quiet])\n", prog,
                argv[0], prog, sizes);
        return 2;
    }
    return 0;
}

int bench_parse(bench_args *a, int argc, char **argv, const char *usage_extra)
{
    return parse_args(a, argc, argv, usage_extra, 0);
}

int bench_parse_paper(bench_args *a, int argc, char **argv, const char *usage_extra)
{
    return parse_args(a, argc, argv, usage_extra, 1);
}

int bench_cu_fail(CUresult r, const char *what, const char *file, int line)
{
    const char *name = NULL, *str = NULL;
    cuGetErrorName(r, &name);
    cuGetErrorString(r, &str);
    fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, what,
            name ? name : "?", str ? str : "?");
    return 1;
}

int bench_init(const char *name, CUcontext *ctx, CUmodule *mod)
{
    CUdevice dev;
    const char *ptx = bench_ptx(name);
    if (!ptx) {
        fprintf(stderr, "%s: no embedded PTX\n", name);
        return 1;
    }
    CU(cuInit(0));
    CU(cuDeviceGet(&dev, 0));
    CU(cuDevicePrimaryCtxRetain(ctx, dev));
    CU(cuCtxSetCurrent(*ctx));
    CU(cuModuleLoadData(mod, ptx));
    return 0;
}

void bench_fini(CUcontext ctx, CUmodule mod)
{
    CUdevice dev;
    (void)ctx;
    cuModuleUnload(mod);
    if (cuDeviceGet(&dev, 0) == CUDA_SUCCESS)
        cuDevicePrimaryCtxRelease(dev);
}

void bench_rng_seed(bench_rng *r, uint64_t seed)
{
    r->s = seed ? seed * 0x9E3779B97F4A7C15ull : 0x2545F4914F6CDD1Dull;
}

uint64_t bench_rng_u64(bench_rng *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

uint32_t bench_rng_u32(bench_rng *r) { return (uint32_t)(bench_rng_u64(r) >> 32); }

float bench_rng_float(bench_rng *r) { return (float)(bench_rng_u64(r) >> 40) * (1.0f / 16777216.0f); }

float bench_rng_range(bench_rng *r, float lo, float hi) { return lo + (hi - lo) * bench_rng_float(r); }

#define CHECK_BODY(fmt, bad)                                                        \
    size_t n_bad = 0;                                                               \
    for (size_t i = 0; i < n; i++) {                                                \
        if (bad) {                                                                  \
            if (n_bad < 8)                                                          \
                fprintf(stderr, "%s[%zu]: got " fmt ", expected " fmt "\n", what, i, \
                        got[i], ref[i]);                                            \
            n_bad++;                                                                \
        }                                                                           \
    }                                                                               \
    return n_bad;

size_t bench_check_f32(const char *what, const float *got, const float *ref, size_t n,
                       double atol, double rtol)
{
    CHECK_BODY("%.9g", !(fabs((double)got[i] - ref[i]) <= atol + rtol * fabs((double)ref[i])))
}

size_t bench_check_f64(const char *what, const double *got, const double *ref, size_t n,
                       double atol, double rtol)
{
    CHECK_BODY("%.17g", !(fabs(got[i] - ref[i]) <= atol + rtol * fabs(ref[i])))
}

size_t bench_check_i32(const char *what, const int32_t *got, const int32_t *ref, size_t n)
{
    CHECK_BODY("%d", got[i] != ref[i])
}

size_t bench_check_u32(const char *what, const uint32_t *got, const uint32_t *ref, size_t n)
{
    CHECK_BODY("%u", got[i] != ref[i])
}

int bench_result(const char *name, const bench_args *a, size_t mismatches)
{
    if (mismatches)
        printf("%s [%s]: FAIL (%zu mismatches)\n", name, bench_size_name(a->size), mismatches);
    else
        printf("%s [%s]: PASS\n", name, bench_size_name(a->size));
    return mismatches ? 1 : 0;
}
