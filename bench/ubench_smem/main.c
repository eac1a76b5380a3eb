/* ubench_smem: shared-memory bank conflicts, each thread loads word tid*stride in a loop (--stride S, default 1..32) */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define SM_THREADS 256 /* must match ubench_smem.cu */
#define SM_WORDS 8192  /* must match ubench_smem.cu */

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse(&args, argc, argv, "[--stride S] [--iters N]");
    if (rc)
        return rc;

    int blocks, iters;
    switch (args.size) {
    case BENCH_SMALL: blocks = 1; iters = 64; break;
    case BENCH_LARGE: blocks = 64; iters = 2048; break;
    default: blocks = 8; iters = 512; break;
    }
    int strides[6] = {1, 2, 4, 8, 16, 32}, nstrides = 6;
    for (int i = 0; i < args.argc; i += 2) {
        const char *o = args.argv[i], *v = i + 1 < args.argc ? args.argv[i + 1] : NULL;
        if (v && !strcmp(o, "--stride")) {
            strides[0] = atoi(v);
            nstrides = 1;
        } else if (v && !strcmp(o, "--iters"))
            iters = atoi(v);
        else {
            fprintf(stderr, "ubench_smem: bad argument '%s'\n", o);
            return 2;
        }
    }
    if (strides[0] < 0 || iters < 0) {
        fprintf(stderr, "ubench_smem: stride and iters must be >= 0\n");
        return 2;
    }
    int nthreads = blocks * SM_THREADS;

    uint32_t *out = malloc(nthreads * sizeof(uint32_t)), *ref = malloc(nthreads * sizeof(uint32_t));
    long long *cycles = malloc(blocks * sizeof(long long));
    if (!out || !ref || !cycles) {
        fprintf(stderr, "ubench_smem: out of host memory\n");
        return 1;
    }

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("ubench_smem", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "smem_stride"));
    CUdeviceptr d_out, d_cycles;
    CU(cuMemAlloc(&d_out, nthreads * sizeof(uint32_t)));
    CU(cuMemAlloc(&d_cycles, blocks * sizeof(long long)));

    size_t bad = 0;
    for (int s = 0; s < nstrides; s++) {
        int stride = strides[s];
        void *kp[] = {&d_out, &d_cycles, &stride, &iters};
        CU(cuLaunchKernel(fn, blocks, 1, 1, SM_THREADS, 1, 1, 0, NULL, kp, NULL));
        CU(cuCtxSynchronize());
        CU(cuMemcpyDtoH(out, d_out, nthreads * sizeof(uint32_t)));
        CU(cuMemcpyDtoH(cycles, d_cycles, blocks * sizeof(long long)));

        for (int g = 0; g < nthreads; g++) {
            int tid = g % SM_THREADS;
            uint32_t idx = ((uint32_t)tid * (uint32_t)stride) & (SM_WORDS - 1);
            uint32_t word = idx * 0x9E3779B9u + 0x7F4A7C15u, acc = (uint32_t)tid;
            for (int it = 0; it < iters; it++)
                acc = acc * 31u + (word ^ (uint32_t)it);
            ref[g] = acc;
        }
        char what[48];
        snprintf(what, sizeof what, "ubench_smem.stride%d", stride);
        bad += bench_check_u32(what, out, ref, nthreads);
        if (!args.quiet) {
            double avg = 0.0;
            for (int b = 0; b < blocks; b++)
                avg += (double)cycles[b];
            avg /= blocks;
            printf("ubench_smem: stride %2d: %d x %d threads x %d loads, %.0f cycles per block "
                   "(%.2f per iteration)\n", stride, blocks, SM_THREADS, iters, avg,
                   iters ? avg / iters : 0.0);
        }
    }

    CU(cuMemFree(d_out));
    CU(cuMemFree(d_cycles));
    bench_fini(ctx, mod);
    free(out);
    free(ref);
    free(cycles);
    return bench_result("ubench_smem", &args, bad);
}
