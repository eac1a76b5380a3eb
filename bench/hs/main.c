/* hs: hotspot thermal simulation, 2-D stencil with shared-memory tiles and halo, several launches */
#include "bench.h"

#include <stdlib.h>

#define TILE 16 /* must match HS_TILE in hs.cu */

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc)
        return rc;

    int width, height, total_steps, per_launch;
    switch (args.size) {
    case BENCH_SMALL: width = 32; height = 32; total_steps = 4; per_launch = 2; break;
    case BENCH_LARGE: width = 1024; height = 1024; total_steps = 40; per_launch = 2; break;
    case BENCH_PAPER: width = 512; height = 512; total_steps = 2; per_launch = 2; break; /* Rodinia */
    default: width = 256; height = 256; total_steps = 16; per_launch = 2; break;
    }
    /* Coefficients per step (stable: cp*p is bounded, 2cx + 2cy + cz < 1). */
    float cp = 0.5f, cx = 0.1f, cy = 0.12f, cz = 0.002f, amb = 300.0f;
    size_t n = (size_t)width * height;

    float *temp = malloc(n * sizeof(float)), *power = malloc(n * sizeof(float));
    float *ref = malloc(n * sizeof(float)), *tmp = malloc(n * sizeof(float));
    float *out = malloc(n * sizeof(float));
    if (!temp || !power || !ref || !tmp || !out) {
        fprintf(stderr, "hs: out of host memory\n");
        return 1;
    }
    /* Initial temperatures 320..340 K; power mostly low with a few hot functional units. */
    bench_rng rng;
    bench_rng_seed(&rng, 1005);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            size_t i = (size_t)y * width + x;
            temp[i] = bench_rng_range(&rng, 320.0f, 340.0f);
            int hot = ((x / 8) % 5 == 1) && ((y / 8) % 3 == 0);
            power[i] = hot ? bench_rng_range(&rng, 0.5f, 1.0f) : bench_rng_range(&rng, 0.0f, 0.1f);
        }

    /* CPU reference: same expression, same operation order, one step at a time. */
    for (size_t i = 0; i < n; i++)
        ref[i] = temp[i];
    for (int s = 0; s < total_steps; s++) {
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++) {
                size_t i = (size_t)y * width + x;
                float t = ref[i];
                float tw = x > 0 ? ref[i - 1] : t;
                float te = x < width - 1 ? ref[i + 1] : t;
                float tn = y > 0 ? ref[i - width] : t;
                float ts = y < height - 1 ? ref[i + width] : t;
                float pw = cp * power[i];
                tmp[i] = t + pw + cy * (tn + ts - 2.0f * t) + cx * (te + tw - 2.0f * t) +
                         cz * (amb - t);
            }
        float *sw = ref;
        ref = tmp;
        tmp = sw;
    }

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("hs", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "hotspot_step"));

    CUdeviceptr d_t[2], d_p;
    CU(cuMemAlloc(&d_t[0], n * sizeof(float)));
    CU(cuMemAlloc(&d_t[1], n * sizeof(float)));
    CU(cuMemAlloc(&d_p, n * sizeof(float)));
    CU(cuMemcpyHtoD(d_t[0], temp, n * sizeof(float)));
    CU(cuMemcpyHtoD(d_p, power, n * sizeof(float)));

    int src = 0, launches = 0;
    for (int done = 0; done < total_steps; done += per_launch) {
        int steps = total_steps - done < per_launch ? total_steps - done : per_launch;
        int inner = TILE - 2 * steps;
        int gx = (width + inner - 1) / inner, gy = (height + inner - 1) / inner;
        void *kp[] = {&d_t[1 - src], &d_t[src], &d_p, &width, &height, &steps,
                      &cp, &cx, &cy, &cz, &amb};
        CU(cuLaunchKernel(fn, gx, gy, 1, TILE, TILE, 1, 0, NULL, kp, NULL));
        src = 1 - src;
        launches++;
    }
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(out, d_t[src], n * sizeof(float)));

    if (!args.quiet)
        printf("hs: %dx%d grid, %d steps in %d launches (%d per launch), %dx%d blocks\n", width,
               height, total_steps, launches, per_launch, TILE, TILE);
    size_t bad = bench_check_f32("hs.temp", out, ref, n, 5e-3, 1e-5);

    CU(cuMemFree(d_t[0]));
    CU(cuMemFree(d_t[1]));
    CU(cuMemFree(d_p));
    bench_fini(ctx, mod);
    free(temp);
    free(power);
    free(ref);
    free(tmp);
    free(out);
    return bench_result("hs", &args, bad);
}
