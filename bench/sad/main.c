/* sad: motion-estimation SADs of 4x4 and 8x8 blocks over a full search window, plus best vector */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define SAD_THREADS 128 /* sad_4x4 block */
#define SUM_THREADS 256 /* sad_8x8 block */
#define MIN_THREADS 128 /* must match SAD_MIN_THREADS in sad.cu */
#define MAX_R 16        /* must match SAD_MAX_R in sad.cu */

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc)
        return rc;

    int width, height, radius;
    switch (args.size) {
    case BENCH_SMALL: width = 32; height = 16; radius = 4; break;
    case BENCH_LARGE: width = 352; height = 288; radius = 16; break; /* CIF */
    case BENCH_PAPER: width = 176; height = 144; radius = 16; break; /* Parboil: QCIF, +-16 */
    default: width = 176; height = 144; radius = 8; break;           /* QCIF */
    }
    if (radius > MAX_R || width % 8 || height % 8) {
        fprintf(stderr, "sad: bad configuration\n");
        return 1;
    }
    int mbw4 = width / 4, mbh4 = height / 4, nmb4 = mbw4 * mbh4;
    int mbw8 = width / 8, mbh8 = height / 8, nmb8 = mbw8 * mbh8;
    int span = 2 * radius + 1, npos = span * span;
    size_t npix = (size_t)width * height;

    unsigned char *cur = malloc(npix), *ref = malloc(npix), *noise = malloc(npix);
    int *sad4 = malloc((size_t)nmb4 * npos * sizeof(int));
    int *sad8 = malloc((size_t)nmb8 * npos * sizeof(int));
    int *r4 = malloc((size_t)nmb4 * npos * sizeof(int));
    int *r8 = malloc((size_t)nmb8 * npos * sizeof(int));
    int *bsad = malloc(nmb8 * sizeof(int)), *bpos = malloc(nmb8 * sizeof(int));
    int *rbsad = malloc(nmb8 * sizeof(int)), *rbpos = malloc(nmb8 * sizeof(int));
    if (!cur || !ref || !noise || !sad4 || !sad8 || !r4 || !r8 || !bsad || !bpos || !rbsad ||
        !rbpos) {
        fprintf(stderr, "sad: out of host memory\n");
        return 1;
    }

    /* Reference frame: random bytes smoothed by a 3x3 box (a textured image). Current frame:
     * the reference moved by a per-region motion vector, plus small noise. */
    bench_rng rng;
    bench_rng_seed(&rng, 1004);
    for (size_t i = 0; i < npix; i++)
        noise[i] = (unsigned char)(bench_rng_u32(&rng) >> 24);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            int s = 0;
            for (int j = -1; j <= 1; j++)
                for (int i = -1; i <= 1; i++)
                    s += noise[clampi(y + j, 0, height - 1) * width + clampi(x + i, 0, width - 1)];
            ref[y * width + x] = (unsigned char)(s / 9);
        }
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            int mvx = (x / 16) % 5 - 2, mvy = (y / 16) % 3 - 1;
            int v = ref[clampi(y + mvy, 0, height - 1) * width + clampi(x + mvx, 0, width - 1)];
            v += (int)(bench_rng_u32(&rng) % 9) - 4;
            cur[y * width + x] = (unsigned char)clampi(v, 0, 255);
        }

    /* CPU reference. */
    for (int mby = 0; mby < mbh4; mby++)
        for (int mbx = 0; mbx < mbw4; mbx++)
            for (int p = 0; p < npos; p++) {
                int dy = p / span - radius, dx = p % span - radius, s = 0;
                for (int j = 0; j < 4; j++)
                    for (int i = 0; i < 4; i++) {
                        int cy = mby * 4 + j, cx = mbx * 4 + i;
                        int ry = clampi(cy + dy, 0, height - 1), rx = clampi(cx + dx, 0, width - 1);
                        int d = (int)cur[cy * width + cx] - (int)ref[ry * width + rx];
                        s += d < 0 ? -d : d;
                    }
                r4[((size_t)mby * mbw4 + mbx) * npos + p] = s;
            }
    for (int by = 0; by < mbh8; by++)
        for (int bx = 0; bx < mbw8; bx++) {
            int m8 = by * mbw8 + bx;
            size_t m4 = (size_t)(2 * by) * mbw4 + 2 * bx;
            rbsad[m8] = 0x7fffffff;
            rbpos[m8] = 0;
            for (int p = 0; p < npos; p++) {
                int s = r4[m4 * npos + p] + r4[(m4 + 1) * npos + p] + r4[(m4 + mbw4) * npos + p] +
                        r4[(m4 + mbw4 + 1) * npos + p];
                r8[(size_t)m8 * npos + p] = s;
                if (s < rbsad[m8]) {
                    rbsad[m8] = s;
                    rbpos[m8] = p;
                }
            }
        }

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("sad", &ctx, &mod))
        return 1;
    CUfunction f4, f8, fmin;
    CU(cuModuleGetFunction(&f4, mod, "sad_4x4"));
    CU(cuModuleGetFunction(&f8, mod, "sad_8x8"));
    CU(cuModuleGetFunction(&fmin, mod, "sad_min"));

    CUdeviceptr d_cur, d_ref, d_sad4, d_sad8, d_bsad, d_bpos;
    CU(cuMemAlloc(&d_cur, npix));
    CU(cuMemAlloc(&d_ref, npix));
    CU(cuMemAlloc(&d_sad4, (size_t)nmb4 * npos * sizeof(int)));
    CU(cuMemAlloc(&d_sad8, (size_t)nmb8 * npos * sizeof(int)));
    CU(cuMemAlloc(&d_bsad, nmb8 * sizeof(int)));
    CU(cuMemAlloc(&d_bpos, nmb8 * sizeof(int)));
    CU(cuMemcpyHtoD(d_cur, cur, npix));
    CU(cuMemcpyHtoD(d_ref, ref, npix));

    void *k4[] = {&d_sad4, &d_cur, &d_ref, &width, &height, &radius};
    CU(cuLaunchKernel(f4, mbw4, mbh4, 1, SAD_THREADS, 1, 1, 0, NULL, k4, NULL));
    void *k8[] = {&d_sad8, &d_sad4, &mbw4, &mbw8, &nmb8, &npos};
    int g8 = (nmb8 * npos + SUM_THREADS - 1) / SUM_THREADS;
    CU(cuLaunchKernel(f8, g8, 1, 1, SUM_THREADS, 1, 1, 0, NULL, k8, NULL));
    void *km[] = {&d_bsad, &d_bpos, &d_sad8, &npos};
    CU(cuLaunchKernel(fmin, nmb8, 1, 1, MIN_THREADS, 1, 1, 0, NULL, km, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(sad4, d_sad4, (size_t)nmb4 * npos * sizeof(int)));
    CU(cuMemcpyDtoH(sad8, d_sad8, (size_t)nmb8 * npos * sizeof(int)));
    CU(cuMemcpyDtoH(bsad, d_bsad, nmb8 * sizeof(int)));
    CU(cuMemcpyDtoH(bpos, d_bpos, nmb8 * sizeof(int)));

    if (!args.quiet)
        printf("sad: %dx%d frame, search +-%d (%d positions), %d 4x4 / %d 8x8 blocks\n", width,
               height, radius, npos, nmb4, nmb8);
    size_t bad = bench_check_i32("sad.sad4", sad4, r4, (size_t)nmb4 * npos);
    bad += bench_check_i32("sad.sad8", sad8, r8, (size_t)nmb8 * npos);
    bad += bench_check_i32("sad.best_sad", bsad, rbsad, nmb8);
    bad += bench_check_i32("sad.best_pos", bpos, rbpos, nmb8);

    CU(cuMemFree(d_cur));
    CU(cuMemFree(d_ref));
    CU(cuMemFree(d_sad4));
    CU(cuMemFree(d_sad8));
    CU(cuMemFree(d_bsad));
    CU(cuMemFree(d_bpos));
    bench_fini(ctx, mod);
    free(cur);
    free(ref);
    free(noise);
    free(sad4);
    free(sad8);
    free(r4);
    free(r8);
    free(bsad);
    free(bpos);
    free(rbsad);
    free(rbpos);
    return bench_result("sad", &args, bad);
}
