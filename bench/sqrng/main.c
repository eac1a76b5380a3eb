/* sqrng: Sobol quasi-random sequence generator (Gray-code XOR of direction numbers) */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK 64     /* threads per CTA, as the SDK's Sobol generator */
#define TABLE_DIMS 16 /* dimensions with the Joe-Kuo initial numbers below */

/* Primitive polynomials x^s + a_1 x^(s-1) + ... + a_(s-1) x + 1 over GF(2) (the
 * inner coefficients packed in `a`, a_1 most significant) and initial odd
 * m_1..m_s with m_k < 2^k, for dimensions 2..16 (the usual Joe-Kuo choice).
 * Dimension 1 is the van der Corput sequence (all m_k = 1). */
static const struct { int s, a; unsigned m[6]; } sobol_init[TABLE_DIMS - 1] = {
    {1, 0, {1}},           {2, 1, {1, 3}},          {3, 1, {1, 3, 1}},
    {3, 2, {1, 1, 1}},     {4, 1, {1, 1, 3, 3}},    {4, 4, {1, 3, 5, 13}},
    {5, 2, {1, 1, 5, 5, 17}},  {5, 4, {1, 1, 5, 5, 5}},   {5, 7, {1, 1, 7, 11, 19}},
    {5, 11, {1, 1, 5, 1, 1}},  {5, 13, {1, 1, 1, 3, 11}}, {5, 14, {1, 3, 5, 5, 31}},
    {6, 1, {1, 3, 3, 9, 7, 49}}, {6, 13, {1, 1, 1, 15, 21, 21}}, {6, 16, {1, 3, 1, 13, 27, 49}},
};

/* Is p (degree deg, bit deg and bit 0 set) primitive over GF(2)? True iff the
 * powers of x modulo p first return to 1 after exactly 2^deg - 1 steps. */
static int is_primitive(unsigned p, int deg)
{
    unsigned period = (1u << deg) - 1, r = 1;
    for (unsigned e = 1; e <= period; e++) {
        r <<= 1;
        if (r & (1u << deg)) r ^= p;
        if (r == 1) return e == period;
    }
    return 0;
}

/* v[b] = m_(b+1) << (31 - b), with m_k for k > s from the recurrence
 * m_k = 2 a_1 m_(k-1) ^ 4 a_2 m_(k-2) ^ ... ^ 2^(s-1) a_(s-1) m_(k-s+1) ^ 2^s m_(k-s) ^ m_(k-s).
 * Dimensions 1..16 use the table; beyond it, the primitive polynomials of degree 7 and
 * up in increasing order, with pseudo-random odd m_k < 2^k (enough for 100 dimensions,
 * the SDK sample's default). */
static void direction_numbers(int dims, uint32_t *vall, bench_rng *rng)
{
    unsigned p = 0;
    int deg = 6;
    for (int dim = 0; dim < dims; dim++) {
        uint32_t m[33];
        int s = 0, a = 0;
        if (dim == 0) {
            for (int k = 1; k <= 32; k++) m[k] = 1;
        } else if (dim < TABLE_DIMS) {
            s = sobol_init[dim - 1].s;
            a = sobol_init[dim - 1].a;
            for (int k = 1; k <= s; k++) m[k] = sobol_init[dim - 1].m[k - 1];
        } else {
            do { /* next primitive polynomial of degree >= 7 */
                p += 2;
                if (p < (1u << deg) || p >= (2u << deg)) { deg++; p = (1u << deg) | 1u; }
            } while (!is_primitive(p, deg));
            s = deg;
            a = (int)((p >> 1) & ((1u << (deg - 1)) - 1)); /* a_1 .. a_(s-1) */
            for (int k = 1; k <= s; k++) m[k] = (bench_rng_u32(rng) & ((1u << k) - 1)) | 1u;
        }
        if (dim > 0)
            for (int k = s + 1; k <= 32; k++) {
                uint32_t mk = m[k - s] ^ (m[k - s] << s);
                for (int j = 1; j < s; j++)
                    if ((a >> (s - 1 - j)) & 1) mk ^= m[k - j] << j;
                m[k] = mk;
            }
        for (int b = 0; b < 32; b++) vall[(size_t)dim * 32 + b] = m[b + 1] << (31 - b);
    }
}

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc) return rc;

    int dims, n;
    switch (args.size) {
    case BENCH_SMALL: dims = 4; n = 1000; break;
    case BENCH_LARGE: dims = 16; n = 1 << 20; break;
    case BENCH_PAPER: dims = 100; n = 100000; break; /* SDK SobolQRNG defaults */
    default: dims = 8; n = 1 << 17; break;
    }
    const size_t total = (size_t)dims * n;

    uint32_t *h_dirs = malloc((size_t)dims * 32 * sizeof(uint32_t));
    float *h_out = malloc(total * sizeof(float)), *r_out = malloc(total * sizeof(float));
    if (!h_dirs || !h_out || !r_out) { fprintf(stderr, "sqrng: out of memory\n"); return 1; }
    bench_rng rng;
    bench_rng_seed(&rng, 0x50b0);
    direction_numbers(dims, h_dirs, &rng);

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("sqrng", &ctx, &mod)) return 1;
    CUfunction k_pts;
    CU(cuModuleGetFunction(&k_pts, mod, "sqrng_points"));

    CUdeviceptr d_dirs, d_out;
    CU(cuMemAlloc(&d_dirs, (size_t)dims * 32 * sizeof(uint32_t)));
    CU(cuMemAlloc(&d_out, total * sizeof(float)));
    CU(cuMemcpyHtoD(d_dirs, h_dirs, (size_t)dims * 32 * sizeof(uint32_t)));

    /* CTAs per dimension: a power of two (the point stride must be one), at most 64 and
     * no more than the points need. */
    unsigned gx = 1;
    while (gx < 64 && (size_t)gx * BLOCK < (size_t)n) gx *= 2;
    if (!args.quiet)
        printf("sqrng: %d dimensions x %d points, %ux%d CTAs of %d threads\n", dims, n, gx, dims, BLOCK);
    void *kargs[] = {&d_dirs, &d_out, &n};
    CU(cuLaunchKernel(k_pts, gx, (unsigned)dims, 1, BLOCK, 1, 1, 0, NULL, kargs, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(h_out, d_out, total * sizeof(float)));

    /* CPU reference: the classic recurrence x_i = x_(i-1) ^ v[ctz(i)] (same points). */
    for (int d = 0; d < dims; d++) {
        const uint32_t *v = h_dirs + (size_t)d * 32;
        uint32_t x = 0;
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                int c = 0;
                while (!((unsigned)i >> c & 1u)) c++;
                x ^= v[c];
            }
            r_out[(size_t)d * n + i] = (float)(x >> 8) * (1.0f / 16777216.0f);
        }
    }
    size_t bad = bench_check_f32("points", h_out, r_out, total, 0.0, 0.0);

    /* Sobol property: the first 2^k points of every dimension put exactly one point
     * in each interval [j/2^k, (j+1)/2^k). */
    int k = 0;
    while (k < 24 && (2 << k) <= n) k++;
    const uint32_t cells = 1u << k;
    unsigned char *hit = calloc(cells, 1);
    if (!hit) { fprintf(stderr, "sqrng: out of memory\n"); return 1; }
    for (int d = 0; d < dims; d++) {
        memset(hit, 0, cells);
        size_t dup = 0;
        for (uint32_t i = 0; i < cells; i++) {
            float x = h_out[(size_t)d * n + i];
            uint32_t c = (uint32_t)(x * (float)cells);
            if (!(x >= 0.0f && x < 1.0f) || c >= cells || hit[c]++) dup++;
        }
        if (dup) {
            fprintf(stderr, "sqrng: dimension %d: %zu points break the 2^%d stratification\n", d, dup, k);
            bad += dup;
        }
    }
    free(hit);

    CU(cuMemFree(d_dirs));
    CU(cuMemFree(d_out));
    bench_fini(ctx, mod);
    free(h_dirs); free(h_out); free(r_out);
    return bench_result("sqrng", &args, bad);
}
