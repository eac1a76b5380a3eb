/* ubench_chase: pointer-chase load latency over a random cyclic chain (--ws BYTES working set, --steps N) */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

/* Parses a byte count with an optional k/K or m/M suffix (powers of 1024). */
static int parse_bytes(const char *s, size_t *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return 1;
    if (*end == 'k' || *end == 'K')
        v <<= 10, end++;
    else if (*end == 'm' || *end == 'M')
        v <<= 20, end++;
    if (*end)
        return 1;
    *out = (size_t)v;
    return 0;
}

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse(&args, argc, argv,
                         "[--ws BYTES] [--steps N] [--stride BYTES] [--warm N]");
    if (rc)
        return rc;

    size_t ws, stride = 128;
    long steps, warm = -1;
    switch (args.size) {
    case BENCH_SMALL: ws = 8 << 10; steps = 1024; break;        /* fits L1 */
    case BENCH_LARGE: ws = 64 << 20; steps = 16384; break;      /* DRAM */
    default: ws = 256 << 10; steps = 4096; break;               /* L2 */
    }
    for (int i = 0; i < args.argc; i += 2) {
        const char *o = args.argv[i], *v = i + 1 < args.argc ? args.argv[i + 1] : NULL;
        int err = !v;
        if (!err && !strcmp(o, "--ws"))
            err = parse_bytes(v, &ws);
        else if (!err && !strcmp(o, "--stride"))
            err = parse_bytes(v, &stride);
        else if (!err && !strcmp(o, "--steps"))
            steps = strtol(v, NULL, 10);
        else if (!err && !strcmp(o, "--warm"))
            warm = strtol(v, NULL, 10);
        else
            err = 1;
        if (err) {
            fprintf(stderr, "ubench_chase: bad argument '%s'\n", o);
            return 2;
        }
    }
    if (stride < 4 || stride % 4 || ws / stride < 2 || ws > ((size_t)1 << 30) || steps < 0 ||
        steps > 0x7fffffff) {
        fprintf(stderr, "ubench_chase: need 4 | stride, ws >= 2 * stride, ws <= 1 GiB, steps >= 0\n");
        return 2;
    }
    size_t sw = stride / 4;            /* stride in words */
    size_t nodes = ws / stride;
    size_t words = nodes * sw;
    if (warm < 0)                      /* default: one lap to warm caches when it is cheap */
        warm = nodes <= 65536 ? (long)nodes : 0;
    if (warm > 0x7fffffff)
        warm = 0x7fffffff;

    uint32_t *chain = calloc(words, sizeof(uint32_t));
    uint32_t *perm = malloc(nodes * sizeof(uint32_t));
    if (!chain || !perm) {
        fprintf(stderr, "ubench_chase: out of host memory\n");
        return 1;
    }
    /* Sattolo's algorithm: a uniformly random permutation that is one single cycle. */
    bench_rng rng;
    bench_rng_seed(&rng, 2006);
    for (size_t i = 0; i < nodes; i++)
        perm[i] = (uint32_t)i;
    for (size_t i = nodes - 1; i > 0; i--) {
        size_t j = (size_t)(bench_rng_u64(&rng) % i);
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (size_t i = 0; i < nodes; i++)
        chain[i * sw] = (uint32_t)(perm[i] * sw);

    uint32_t start = 0, ref = start;
    for (long s = 0; s < warm + steps; s++)
        ref = chain[ref];

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("ubench_chase", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "chase"));

    CUdeviceptr d_chain, d_idx, d_cycles;
    CU(cuMemAlloc(&d_chain, words * sizeof(uint32_t)));
    CU(cuMemAlloc(&d_idx, sizeof(uint32_t)));
    CU(cuMemAlloc(&d_cycles, sizeof(long long)));
    CU(cuMemcpyHtoD(d_chain, chain, words * sizeof(uint32_t)));

    int iwarm = (int)warm, isteps = (int)steps;
    void *kp[] = {&d_chain, &start, &iwarm, &isteps, &d_idx, &d_cycles};
    CU(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, kp, NULL));
    CU(cuCtxSynchronize());
    uint32_t got;
    long long cycles;
    CU(cuMemcpyDtoH(&got, d_idx, sizeof got));
    CU(cuMemcpyDtoH(&cycles, d_cycles, sizeof cycles));

    if (!args.quiet)
        printf("ubench_chase: ws %zu bytes, stride %zu, %zu nodes, %d warm + %d timed steps, "
               "%lld cycles (%.1f per step)\n", nodes * stride, stride, nodes, iwarm, isteps,
               cycles, isteps ? (double)cycles / isteps : 0.0);
    size_t bad = bench_check_u32("ubench_chase.idx", &got, &ref, 1);

    CU(cuMemFree(d_chain));
    CU(cuMemFree(d_idx));
    CU(cuMemFree(d_cycles));
    bench_fini(ctx, mod);
    free(chain);
    free(perm);
    return bench_result("ubench_chase", &args, bad);
}
