/* nw: Needleman-Wunsch alignment scores, 16x16 tiles along anti-diagonals (one launch per tile diagonal) */
#include "bench.h"

#include <stdlib.h>

#define NW_TILE 16 /* must match nw.cu */
#define ALPHA 24   /* alphabet size of the substitution matrix */
#define GAP 10     /* linear gap penalty */

static int imax(int a, int b) { return a > b ? a : b; }

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse(&args, argc, argv, NULL);
    if (rc)
        return rc;

    int n;
    switch (args.size) {
    case BENCH_SMALL: n = 128; break;
    case BENCH_LARGE: n = 4096; break;
    default: n = 1024; break;
    }
    int nt = n / NW_TILE; /* tiles per dimension */
    int pitch = n + 1;
    size_t cells = (size_t)pitch * pitch;

    int *seq_a = malloc(n * sizeof(int)), *seq_b = malloc(n * sizeof(int));
    int32_t *sim = malloc(cells * sizeof(int32_t)), *score = malloc(cells * sizeof(int32_t));
    int32_t *ref = malloc(cells * sizeof(int32_t));
    if (!seq_a || !seq_b || !sim || !score || !ref) {
        fprintf(stderr, "nw: out of host memory\n");
        return 1;
    }

    /* Random symmetric substitution matrix: positive diagonal, mostly negative elsewhere. */
    bench_rng rng;
    bench_rng_seed(&rng, 2002);
    int sub[ALPHA][ALPHA];
    for (int p = 0; p < ALPHA; p++) {
        sub[p][p] = 4 + (int)(bench_rng_u32(&rng) % 8);
        for (int q = p + 1; q < ALPHA; q++)
            sub[p][q] = sub[q][p] = -4 + (int)(bench_rng_u32(&rng) % 8);
    }
    /* Sequence b is a mutated copy of a (about 30% substitutions) so the alignment has
     * long matching stretches. */
    for (int i = 0; i < n; i++) {
        seq_a[i] = (int)(bench_rng_u32(&rng) % ALPHA);
        seq_b[i] = bench_rng_u32(&rng) % 10 < 3 ? (int)(bench_rng_u32(&rng) % ALPHA) : seq_a[i];
    }
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= n; j++)
            sim[(size_t)i * pitch + j] = (i && j) ? sub[seq_a[i - 1]][seq_b[j - 1]] : 0;

    /* Borders; the interior is set to a junk value the kernel must overwrite. */
    for (size_t c = 0; c < cells; c++)
        score[c] = -12345;
    for (int i = 0; i <= n; i++) {
        score[(size_t)i * pitch] = -GAP * i;
        score[i] = -GAP * i;
    }

    /* CPU reference DP. */
    for (int i = 0; i <= n; i++) {
        ref[(size_t)i * pitch] = -GAP * i;
        ref[i] = -GAP * i;
    }
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            size_t c = (size_t)i * pitch + j;
            ref[c] = imax(ref[c - pitch - 1] + sim[c], imax(ref[c - pitch] - GAP, ref[c - 1] - GAP));
        }

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("nw", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "nw_tile_diag"));

    CUdeviceptr d_score, d_sim;
    CU(cuMemAlloc(&d_score, cells * sizeof(int32_t)));
    CU(cuMemAlloc(&d_sim, cells * sizeof(int32_t)));
    CU(cuMemcpyHtoD(d_score, score, cells * sizeof(int32_t)));
    CU(cuMemcpyHtoD(d_sim, sim, cells * sizeof(int32_t)));

    /* Tile diagonals 0..nt-1 (upper-left triangle, growing), then nt..2nt-2 (lower-right,
     * shrinking); one launch each. */
    int gap = GAP;
    for (int diag = 0; diag < 2 * nt - 1; diag++) {
        int tr0 = diag < nt ? 0 : diag - (nt - 1);
        int tr1 = diag < nt ? diag : nt - 1;
        int ntiles = tr1 - tr0 + 1;
        void *kp[] = {&d_score, &d_sim, &n, &diag, &tr0, &gap};
        CU(cuLaunchKernel(fn, ntiles, 1, 1, NW_TILE, 1, 1, 0, NULL, kp, NULL));
    }
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(score, d_score, cells * sizeof(int32_t)));

    if (!args.quiet)
        printf("nw: %d x %d cells, %d x %d tiles of %d, %d launches of up to %d x %d threads, "
               "score %d\n", n, n, nt, nt, NW_TILE, 2 * nt - 1, nt, NW_TILE, ref[cells - 1]);
    size_t bad = bench_check_i32("nw.score", score, ref, cells);

    CU(cuMemFree(d_score));
    CU(cuMemFree(d_sim));
    bench_fini(ctx, mod);
    free(seq_a);
    free(seq_b);
    free(sim);
    free(score);
    free(ref);
    return bench_result("nw", &args, bad);
}
