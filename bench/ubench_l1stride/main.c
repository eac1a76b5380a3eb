/* ubench_l1stride: L1D set conflicts, lane i reads byte i*stride of one array each iteration (--stride BYTES, default 128..131072) */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define LS_LANES 32 /* must match ubench_l1stride.cu */

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse(&args, argc, argv, "[--stride BYTES] [--iters N]");
    if (rc)
        return rc;

    int blocks, iters;
    switch (args.size) {
    case BENCH_SMALL: blocks = 1; iters = 16; break;
    case BENCH_LARGE: blocks = 60; iters = 256; break;
    default: blocks = 15; iters = 64; break;
    }
    int strides[11] = {128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072};
    int nstrides = 11;
    for (int i = 0; i < args.argc; i += 2) {
        const char *o = args.argv[i], *v = i + 1 < args.argc ? args.argv[i + 1] : NULL;
        if (v && !strcmp(o, "--stride")) {
            strides[0] = atoi(v);
            nstrides = 1;
        } else if (v && !strcmp(o, "--iters"))
            iters = atoi(v);
        else {
            fprintf(stderr, "ubench_l1stride: bad argument '%s'\n", o);
            return 2;
        }
    }
    if (strides[0] < 4 || strides[0] % 4 || strides[0] > (1 << 20) || iters < 0) {
        fprintf(stderr, "ubench_l1stride: stride must be a multiple of 4 in [4, 1048576], "
                "iters >= 0\n");
        return 2;
    }
    int maxstride = 0;
    for (int s = 0; s < nstrides; s++)
        if (strides[s] > maxstride)
            maxstride = strides[s];
    size_t words = (size_t)LS_LANES * (size_t)maxstride / 4;
    int nthreads = blocks * LS_LANES;
    uint32_t *a = malloc(words * sizeof(uint32_t));
    uint32_t *out = malloc(nthreads * sizeof(uint32_t)), *ref = malloc(nthreads * sizeof(uint32_t));
    long long *cycles = malloc(blocks * sizeof(long long));
    if (!a || !out || !ref || !cycles) {
        fprintf(stderr, "ubench_l1stride: out of host memory\n");
        return 1;
    }
    for (size_t i = 0; i < words; i++)
        a[i] = (uint32_t)i * 0x9E3779B9u + 0x7F4A7C15u;

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("ubench_l1stride", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "l1_stride"));
    CUdeviceptr d_a, d_out, d_cycles;
    CU(cuMemAlloc(&d_a, words * sizeof(uint32_t)));
    CU(cuMemAlloc(&d_out, nthreads * sizeof(uint32_t)));
    CU(cuMemAlloc(&d_cycles, blocks * sizeof(long long)));
    CU(cuMemcpyHtoD(d_a, a, words * sizeof(uint32_t)));

    size_t bad = 0;
    for (int s = 0; s < nstrides; s++) {
        int stride_words = strides[s] / 4;
        void *kp[] = {&d_a, &d_out, &d_cycles, &stride_words, &iters};
        CU(cuLaunchKernel(fn, blocks, 1, 1, LS_LANES, 1, 1, 0, NULL, kp, NULL));
        CU(cuCtxSynchronize());
        CU(cuMemcpyDtoH(out, d_out, nthreads * sizeof(uint32_t)));
        CU(cuMemcpyDtoH(cycles, d_cycles, blocks * sizeof(long long)));
        for (int g = 0; g < nthreads; g++) {
            int lane = g % LS_LANES;
            uint32_t v = a[(size_t)lane * (size_t)stride_words], acc = (uint32_t)lane;
            for (int it = 0; it < iters; it++)
                acc = acc * 31u + (v ^ (uint32_t)it);
            ref[g] = acc;
        }
        char what[48];
        snprintf(what, sizeof what, "ubench_l1stride.stride%d", strides[s]);
        bad += bench_check_u32(what, out, ref, nthreads);
        if (!args.quiet) {
            double avg = 0.0;
            for (int b = 0; b < blocks; b++)
                avg += (double)cycles[b];
            avg /= blocks;
            printf("ubench_l1stride: stride %5d B: %d x %d lanes x %d loads, %.0f cycles per block "
                   "(%.2f per iteration)\n", strides[s], blocks, LS_LANES, iters, avg,
                   iters ? avg / iters : 0.0);
        }
    }

    CU(cuMemFree(d_a));
    CU(cuMemFree(d_out));
    CU(cuMemFree(d_cycles));
    bench_fini(ctx, mod);
    free(a);
    free(out);
    free(ref);
    free(cycles);
    return bench_result("ubench_l1stride", &args, bad);
}
