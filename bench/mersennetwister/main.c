/* mersennetwister: per-thread MT19937 generators (local-memory state) with Box-Muller normals */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#define MT_N 624
#define MT_M 397

typedef struct { unsigned mt[MT_N]; int i; } mt_state;

static void mt_seed(mt_state *s, unsigned seed)
{
    s->mt[0] = seed;
    for (int k = 1; k < MT_N; k++)
        s->mt[k] = 1812433253u * (s->mt[k - 1] ^ (s->mt[k - 1] >> 30)) + (unsigned)k;
    s->i = MT_N; /* twist the whole state before the first output */
}

/* Textbook block-wise MT19937 (an independent formulation of the kernel's
 * word-at-a-time update). */
static unsigned mt_next(mt_state *s)
{
    if (s->i >= MT_N) {
        for (int k = 0; k < MT_N; k++) {
            unsigned y = (s->mt[k] & 0x80000000u) | (s->mt[(k + 1) % MT_N] & 0x7fffffffu);
            s->mt[k] = s->mt[(k + MT_M) % MT_N] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        s->i = 0;
    }
    unsigned y = s->mt[s->i++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

int main(int argc, char **argv)
{
    bench_args args;
    if (bench_parse(&args, argc, argv, NULL))
        return 1;
    const int block = 128;
    int nthreads, n; /* generators, numbers per generator (even) */
    if (args.size == BENCH_SMALL) { nthreads = 128; n = 64; }
    else if (args.size == BENCH_LARGE) { nthreads = 16384; n = 2048; }
    else { nthreads = 4096; n = 256; }
    size_t total = (size_t)nthreads * n;

    /* sanity check of the reference: MT19937 seeded with 5489 starts 3499211612 */
    mt_state st;
    mt_seed(&st, 5489u);
    if (mt_next(&st) != 3499211612u) {
        fprintf(stderr, "mersennetwister: CPU reference self-test failed\n");
        return 1;
    }

    unsigned *seeds = malloc((size_t)nthreads * sizeof(unsigned));
    unsigned *raw = malloc(total * sizeof(unsigned));
    float *nrm = malloc(total * sizeof(float));
    unsigned *ref_u = malloc((size_t)n * sizeof(unsigned));
    unsigned *got_u = malloc((size_t)n * sizeof(unsigned));
    float *ref_z = malloc((size_t)n * sizeof(float));
    float *got_z = malloc((size_t)n * sizeof(float));
    if (!seeds || !raw || !nrm || !ref_u || !got_u || !ref_z || !got_z) {
        fprintf(stderr, "mersennetwister: out of host memory\n");
        return 1;
    }
    bench_rng rng;
    bench_rng_seed(&rng, 4003);
    for (int t = 0; t < nthreads; t++)
        seeds[t] = bench_rng_u32(&rng);

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("mersennetwister", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "mt_generate"));
    CUdeviceptr d_seeds, d_raw, d_nrm;
    CU(cuMemAlloc(&d_seeds, (size_t)nthreads * sizeof(unsigned)));
    CU(cuMemAlloc(&d_raw, total * sizeof(unsigned)));
    CU(cuMemAlloc(&d_nrm, total * sizeof(float)));
    CU(cuMemcpyHtoD(d_seeds, seeds, (size_t)nthreads * sizeof(unsigned)));
    void *kargs[] = {&d_seeds, &d_raw, &d_nrm, &n, &nthreads};
    unsigned grid = (unsigned)((nthreads + block - 1) / block);
    CU(cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, NULL, kargs, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(raw, d_raw, total * sizeof(unsigned)));
    CU(cuMemcpyDtoH(nrm, d_nrm, total * sizeof(float)));

    /* Reference one generator at a time; uniforms must match bit for bit, the
     * normals within a few ulp (logf/sqrtf/sincospi of device vs host libm). */
    size_t bad = 0;
    for (int t = 0; t < nthreads; t++) {
        mt_seed(&st, seeds[t]);
        for (int j = 0; j < n; j += 2) {
            unsigned a = mt_next(&st), b = mt_next(&st);
            ref_u[j] = a;
            ref_u[j + 1] = b;
            float u1 = (float)((a >> 8) + 1u) * (1.0f / 16777216.0f);
            float u2 = (float)(b >> 8) * (1.0f / 16777216.0f);
            float rad = sqrtf(-2.0f * logf(u1));
            double ang = 2.0 * 3.14159265358979323846 * (double)u2;
            ref_z[j] = rad * (float)cos(ang);
            ref_z[j + 1] = rad * (float)sin(ang);
        }
        for (int j = 0; j < n; j++) {
            got_u[j] = raw[(size_t)j * nthreads + t];
            got_z[j] = nrm[(size_t)j * nthreads + t];
        }
        if (bad < 8) {
            bad += bench_check_u32("uniform", got_u, ref_u, (size_t)n);
            bad += bench_check_f32("normal", got_z, ref_z, (size_t)n, 2e-5, 2e-5);
        } else {
            for (int j = 0; j < n; j++) /* count quietly once enough has been printed */
                bad += got_u[j] != ref_u[j] || !(fabsf(got_z[j] - ref_z[j]) <= 2e-5f + 2e-5f * fabsf(ref_z[j]));
        }
    }
    if (!args.quiet)
        printf("mersennetwister: %d generators x %d numbers, grid %u x %d\n", nthreads, n, grid, block);

    cuMemFree(d_seeds);
    cuMemFree(d_raw);
    cuMemFree(d_nrm);
    bench_fini(ctx, mod);
    free(seeds); free(raw); free(nrm); free(ref_u); free(got_u); free(ref_z); free(got_z);
    return bench_result("mersennetwister", &args, bad);
}
