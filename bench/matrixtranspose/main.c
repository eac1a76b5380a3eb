/* matrixtranspose: float matrix transpose, naive (uncoalesced writes) and shared-memory tiled kernels */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define TILE 32
#define TILE_ROWS 8

int main(int argc, char **argv)
{
    bench_args args;
    if (bench_parse(&args, argc, argv, "[--variant naive|tiled|both]"))
        return 1;
    int run_naive = 1, run_tiled = 1;
    for (int i = 0; i < args.argc; i++) {
        const char *s = args.argv[i], *v = NULL;
        if (!strcmp(s, "--variant") && i + 1 < args.argc)
            v = args.argv[++i];
        else if (!strncmp(s, "--variant=", 10))
            v = s + 10;
        else {
            fprintf(stderr, "matrixtranspose: unknown argument '%s'\n", s);
            return 2;
        }
        if (!strcmp(v, "naive")) { run_naive = 1; run_tiled = 0; }
        else if (!strcmp(v, "tiled")) { run_naive = 0; run_tiled = 1; }
        else if (!strcmp(v, "both")) { run_naive = 1; run_tiled = 1; }
        else {
            fprintf(stderr, "matrixtranspose: unknown variant '%s' (naive, tiled, both)\n", v);
            return 2;
        }
    }
    /* width x height input (row-major); small is deliberately not a multiple of the tile */
    int width, height;
    if (args.size == BENCH_SMALL) { width = 176; height = 112; }
    else if (args.size == BENCH_LARGE) { width = 8192; height = 4096; }
    else { width = 2048; height = 1024; }
    size_t n = (size_t)width * height, bytes = n * sizeof(float);

    float *in = malloc(bytes), *out = malloc(bytes), *ref = malloc(bytes);
    if (!in || !out || !ref) {
        fprintf(stderr, "matrixtranspose: out of host memory\n");
        return 1;
    }
    bench_rng rng;
    bench_rng_seed(&rng, 4004);
    for (size_t i = 0; i < n; i++)
        in[i] = bench_rng_range(&rng, -1000.0f, 1000.0f);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            ref[(size_t)x * height + y] = in[(size_t)y * width + x];

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("matrixtranspose", &ctx, &mod))
        return 1;
    CUfunction f_naive, f_tiled;
    CU(cuModuleGetFunction(&f_naive, mod, "transpose_naive"));
    CU(cuModuleGetFunction(&f_tiled, mod, "transpose_tiled"));
    CUdeviceptr d_in, d_out;
    CU(cuMemAlloc(&d_in, bytes));
    CU(cuMemAlloc(&d_out, bytes));
    CU(cuMemcpyHtoD(d_in, in, bytes));
    void *kargs[] = {&d_in, &d_out, &width, &height};
    size_t bad = 0;

    if (run_naive) {
        memset(out, 0, bytes); /* clear the device output so each variant is checked on its own */
        CU(cuMemcpyHtoD(d_out, out, bytes));
        unsigned gx = (unsigned)((width + 15) / 16), gy = (unsigned)((height + 15) / 16);
        CU(cuLaunchKernel(f_naive, gx, gy, 1, 16, 16, 1, 0, NULL, kargs, NULL));
        CU(cuCtxSynchronize());
        CU(cuMemcpyDtoH(out, d_out, bytes));
        bad += bench_check_f32("naive", out, ref, n, 0.0, 0.0);
        if (!args.quiet)
            printf("matrixtranspose: naive %dx%d, grid %ux%u x block 16x16\n", width, height, gx, gy);
    }
    if (run_tiled) {
        memset(out, 0, bytes); /* clear the device output so each variant is checked on its own */
        CU(cuMemcpyHtoD(d_out, out, bytes));
        unsigned gx = (unsigned)((width + TILE - 1) / TILE), gy = (unsigned)((height + TILE - 1) / TILE);
        CU(cuLaunchKernel(f_tiled, gx, gy, 1, TILE, TILE_ROWS, 1, 0, NULL, kargs, NULL));
        CU(cuCtxSynchronize());
        CU(cuMemcpyDtoH(out, d_out, bytes));
        bad += bench_check_f32("tiled", out, ref, n, 0.0, 0.0);
        if (!args.quiet)
            printf("matrixtranspose: tiled %dx%d, grid %ux%u x block %dx%d\n", width, height, gx, gy,
                   TILE, TILE_ROWS);
    }

    cuMemFree(d_in);
    cuMemFree(d_out);
    bench_fini(ctx, mod);
    free(in); free(out); free(ref);
    return bench_result("matrixtranspose", &args, bad);
}
