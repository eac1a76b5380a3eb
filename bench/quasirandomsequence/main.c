/* quasirandomsequence: Sobol quasi-random points from __constant__ direction numbers, Gray-code XOR updates */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DIMS 64 /* must match quasirandomsequence.cu */
#define PER_THREAD 8
#define SOBOL_BLOCK 256

/* Is p (degree deg, bit deg and bit 0 set) primitive over GF(2)? True iff the
 * powers of x modulo p first return to 1 after exactly 2^deg - 1 steps. */
static int is_primitive(unsigned p, int deg)
{
    unsigned period = (1u << deg) - 1, r = 1;
    for (unsigned e = 1; e <= period; e++) {
        r <<= 1;
        if (r & (1u << deg))
            r ^= p;
        if (r == 1)
            return e == period;
    }
    return 0;
}

/* Direction numbers of `ndims` dimensions: dimension 0 is van der Corput; dimension
 * d >= 1 uses the d-th primitive polynomial (by degree, then value) with random odd
 * initial numbers m_k < 2^k, continued by the Bratley-Fox recurrence. */
static void make_directions(unsigned *v, int ndims, bench_rng *rng)
{
    for (int k = 0; k < 32; k++)
        v[k] = 1u << (31 - k);
    int d = 1;
    for (int deg = 1; d < ndims; deg++) {
        for (unsigned p = (1u << deg) | 1u; p < (2u << deg) && d < ndims; p += 2) {
            if (!is_primitive(p, deg))
                continue;
            unsigned m[33]; /* m[1..32] */
            for (int k = 1; k <= deg && k <= 32; k++)
                m[k] = (bench_rng_u32(rng) & ((1u << k) - 1)) | 1u;
            for (int k = deg + 1; k <= 32; k++) {
                unsigned x = m[k - deg] ^ (m[k - deg] << deg);
                for (int j = 1; j < deg; j++) /* a_j is bit deg-j of p */
                    if ((p >> (deg - j)) & 1u)
                        x ^= m[k - j] << j;
                m[k] = x;
            }
            for (int k = 1; k <= 32; k++)
                v[d * 32 + k - 1] = m[k] << (32 - k);
            d++;
        }
    }
}

int main(int argc, char **argv)
{
    bench_args args;
    if (bench_parse(&args, argc, argv, NULL))
        return 1;
    int ndims, npoints;
    if (args.size == BENCH_SMALL) { ndims = 4; npoints = 4096; }
    else if (args.size == BENCH_LARGE) { ndims = 64; npoints = 1 << 19; }
    else { ndims = 16; npoints = 1 << 17; }
    size_t total = (size_t)ndims * npoints;

    unsigned dirs[MAX_DIMS * 32];
    memset(dirs, 0, sizeof dirs);
    bench_rng rng;
    bench_rng_seed(&rng, 4008);
    make_directions(dirs, ndims, &rng);
    float *out = malloc(total * sizeof(float)), *ref = malloc(total * sizeof(float));
    if (!out || !ref) {
        fprintf(stderr, "quasirandomsequence: out of host memory\n");
        return 1;
    }

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("quasirandomsequence", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "sobol_generate"));
    CUdeviceptr d_dirs, d_out;
    size_t dirs_bytes = 0;
    CU(cuModuleGetGlobal(&d_dirs, &dirs_bytes, mod, "sobol_dirs"));
    if (dirs_bytes != sizeof dirs) {
        fprintf(stderr, "quasirandomsequence: sobol_dirs is %zu bytes, expected %zu\n", dirs_bytes, sizeof dirs);
        return 1;
    }
    CU(cuMemcpyHtoD(d_dirs, dirs, sizeof dirs));
    CU(cuMemAlloc(&d_out, total * sizeof(float)));
    void *kargs[] = {&d_out, &npoints};
    unsigned gx = (unsigned)((npoints + SOBOL_BLOCK * PER_THREAD - 1) / (SOBOL_BLOCK * PER_THREAD));
    CU(cuLaunchKernel(fn, gx, (unsigned)ndims, 1, SOBOL_BLOCK, 1, 1, 0, NULL, kargs, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(out, d_out, total * sizeof(float)));

    /* reference: every point straight from its Gray code */
    for (int d = 0; d < ndims; d++)
        for (int i = 0; i < npoints; i++) {
            unsigned g = (unsigned)i ^ ((unsigned)i >> 1), x = 0;
            for (int k = 0; g; k++, g >>= 1)
                if (g & 1u)
                    x ^= dirs[d * 32 + k];
            ref[(size_t)d * npoints + i] = (float)x * 2.3283064365386963e-10f;
        }
    size_t bad = bench_check_f32("sobol", out, ref, total, 0.0, 0.0);
    if (!args.quiet)
        printf("quasirandomsequence: %d dims x %d points, grid %ux%d x %d threads (%d points/thread)\n", ndims,
               npoints, gx, ndims, SOBOL_BLOCK, PER_THREAD);

    cuMemFree(d_out);
    bench_fini(ctx, mod);
    free(out);
    free(ref);
    return bench_result("quasirandomsequence", &args, bad);
}
