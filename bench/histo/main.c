/* histo: 2-D image histogram (1024 bins) with shared-memory sub-histograms and atomics */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define BX 32
#define BY 8
#define NBINS 1024 /* <= HISTO_MAX_BINS in histo.cu */

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc)
        return rc;

    int width, height, gx, gy;
    switch (args.size) {
    case BENCH_SMALL: width = 64; height = 32; gx = 2; gy = 2; break;
    case BENCH_LARGE: width = 8192; height = 4096; gx = 32; gy = 64; break;
    case BENCH_PAPER: width = 996; height = 1040; gx = 16; gy = 16; break; /* Parboil img */
    default: width = 2048; height = 2048; gx = 16; gy = 16; break;
    }
    int nbins = NBINS;
    size_t npix = (size_t)width * height;

    unsigned short *img = malloc(npix * sizeof(unsigned short));
    uint32_t *hist = malloc(nbins * sizeof(uint32_t)), *ref = calloc(nbins, sizeof(uint32_t));
    if (!img || !hist || !ref) {
        fprintf(stderr, "histo: out of host memory\n");
        return 1;
    }
    /* Skewed 10-bit image: a smooth background around bin ~200 plus a heavy spike region
     * (many pixels hitting the same few bins -> shared-atomic contention) and a product of
     * uniforms (density decreasing towards 1023). */
    bench_rng rng;
    bench_rng_seed(&rng, 1003);
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            float u = bench_rng_float(&rng), v = bench_rng_float(&rng);
            int val;
            if (u < 0.25f)
                val = 512 + (int)(v * 4.0f);                    /* near-saturated spike */
            else if (u < 0.6f)
                val = 160 + (x * 64) / width + (int)(v * 32.0f); /* smooth background */
            else
                val = (int)(1024.0f * v * bench_rng_float(&rng)); /* long tail */
            if (val > nbins - 1)
                val = nbins - 1;
            img[(size_t)y * width + x] = (unsigned short)val;
            ref[val]++;
        }
    }

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("histo", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "histo_2d"));

    CUdeviceptr d_img, d_hist;
    CU(cuMemAlloc(&d_img, npix * sizeof(unsigned short)));
    CU(cuMemAlloc(&d_hist, nbins * sizeof(uint32_t)));
    CU(cuMemcpyHtoD(d_img, img, npix * sizeof(unsigned short)));
    memset(hist, 0, nbins * sizeof(uint32_t));
    CU(cuMemcpyHtoD(d_hist, hist, nbins * sizeof(uint32_t)));

    void *kp[] = {&d_hist, &d_img, &width, &height, &nbins};
    CU(cuLaunchKernel(fn, gx, gy, 1, BX, BY, 1, 0, NULL, kp, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(hist, d_hist, nbins * sizeof(uint32_t)));

    if (!args.quiet)
        printf("histo: %dx%d image, %d bins, grid %dx%d of %dx%d threads\n", width, height,
               nbins, gx, gy, BX, BY);
    size_t bad = bench_check_u32("histo.hist", hist, ref, nbins);

    CU(cuMemFree(d_img));
    CU(cuMemFree(d_hist));
    bench_fini(ctx, mod);
    free(img);
    free(hist);
    free(ref);
    return bench_result("histo", &args, bad);
}
