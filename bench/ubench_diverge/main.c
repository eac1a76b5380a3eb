/* ubench_diverge: if/else inside a loop, each thread takes the if side with probability --taken PERCENT (default 50) */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define THREADS 256

/* Must match dv_hash and the two sides of the kernel in ubench_diverge.cu. */
static uint32_t dv_hash(uint32_t tid, uint32_t it)
{
    uint32_t h = (tid * 0x9E3779B1u) ^ ((it + 0x7F4A7C15u) * 0x85EBCA77u);
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return h;
}

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse(&args, argc, argv, "[--taken PERCENT] [--iters N]");
    if (rc)
        return rc;

    int blocks, iters;
    unsigned int taken = 50;
    switch (args.size) {
    case BENCH_SMALL: blocks = 2; iters = 50; break;
    case BENCH_LARGE: blocks = 256; iters = 1024; break;
    default: blocks = 32; iters = 256; break;
    }
    for (int i = 0; i < args.argc; i += 2) {
        const char *o = args.argv[i], *v = i + 1 < args.argc ? args.argv[i + 1] : NULL;
        if (v && !strcmp(o, "--taken"))
            taken = (unsigned int)atoi(v);
        else if (v && !strcmp(o, "--iters"))
            iters = atoi(v);
        else {
            fprintf(stderr, "ubench_diverge: bad argument '%s'\n", o);
            return 2;
        }
    }
    if (taken > 100 || iters < 0) {
        fprintf(stderr, "ubench_diverge: --taken must be 0..100, --iters >= 0\n");
        return 2;
    }
    int n = blocks * THREADS;

    uint32_t *out = malloc(n * sizeof(uint32_t)), *ref = malloc(n * sizeof(uint32_t));
    if (!out || !ref) {
        fprintf(stderr, "ubench_diverge: out of host memory\n");
        return 1;
    }

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("ubench_diverge", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "diverge"));
    CUdeviceptr d_out;
    CU(cuMemAlloc(&d_out, n * sizeof(uint32_t)));
    void *kp[] = {&d_out, &iters, &taken};
    CU(cuLaunchKernel(fn, blocks, 1, 1, THREADS, 1, 1, 0, NULL, kp, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(out, d_out, n * sizeof(uint32_t)));

    /* CPU reference; also counts how many warp-iterations diverge. */
    long long ntaken = 0, divergent = 0;
    for (int t = 0; t < n; t++) {
        uint32_t acc = (uint32_t)t;
        for (int it = 0; it < iters; it++) {
            uint32_t h = dv_hash((uint32_t)t, (uint32_t)it);
            if (h % 100u < taken) {
                acc = acc * 0x01000193u + h;
                acc = (acc << 7) | (acc >> 25);
                acc ^= acc >> 11;
                acc = acc * 0x27D4EB2Fu + 0x165667B1u;
                acc = (acc << 13) | (acc >> 19);
                acc ^= h >> 3;
                acc = acc * 5u + 0xE6546B64u;
                acc ^= acc >> 16;
                ntaken++;
            } else {
                acc = acc + (h ^ 0xA5A5A5A5u);
                acc ^= acc << 9;
                acc = acc - (acc >> 5) + 0x3C6EF372u;
                acc ^= acc >> 7;
                acc = acc + (acc << 3) + h;
                acc ^= acc >> 13;
                acc = acc * 0x61C88647u;
                acc ^= acc >> 17;
            }
        }
        ref[t] = acc;
    }
    for (int w = 0; w < n / 32; w++)
        for (int it = 0; it < iters; it++) {
            int c = 0;
            for (int l = 0; l < 32; l++)
                c += dv_hash((uint32_t)(w * 32 + l), (uint32_t)it) % 100u < taken;
            divergent += c != 0 && c != 32;
        }

    if (!args.quiet)
        printf("ubench_diverge: grid %d x %d, %d iterations, taken %u%%: %.1f%% of thread-iterations "
               "take the if side, %.1f%% of warp-iterations diverge\n", blocks, THREADS, iters,
               taken, iters ? 100.0 * ntaken / ((double)n * iters) : 0.0,
               iters ? 100.0 * divergent / ((double)(n / 32) * iters) : 0.0);
    size_t bad = bench_check_u32("ubench_diverge.out", out, ref, n);

    CU(cuMemFree(d_out));
    bench_fini(ctx, mod);
    free(out);
    free(ref);
    return bench_result("ubench_diverge", &args, bad);
}
