/* kmeans: k-means clustering, nearest-centroid assignment kernel + host centroid update, several iterations */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define KM_THREADS 256   /* must match kmeans.cu */
#define KM_MAX_CENT 1024 /* must match kmeans.cu */
#define NFEAT 34
#define NCLUST 5

/* CPU assignment, same float arithmetic as the kernel. Also counts near ties (second
 * best within 1e-5 relative of the best, where rounding could flip the choice), which
 * the data are built to avoid. */
static size_t ref_assign(const float *pts, const float *cent, int *member, int npts, int nfeat,
                         int k)
{
    size_t near = 0;
    for (int p = 0; p < npts; p++) {
        int best = 0;
        float best_dist = 3.0e38f, second = 3.0e38f;
        for (int c = 0; c < k; c++) {
            float dist = 0.0f;
            for (int f = 0; f < nfeat; f++) {
                float d = pts[(size_t)f * npts + p] - cent[c * nfeat + f];
                dist += d * d;
            }
            if (dist < best_dist) {
                second = best_dist;
                best_dist = dist;
                best = c;
            } else if (dist < second)
                second = dist;
        }
        if (second - best_dist <= 1e-5f * best_dist)
            near++;
        member[p] = best;
    }
    return near;
}

/* New centroid = mean of its members (double sums); an empty cluster keeps its centroid. */
static void update_centroids(const float *pts, const int *member, float *cent, int npts,
                             int nfeat, int k)
{
    double sum[NCLUST][NFEAT];
    int cnt[NCLUST];
    memset(sum, 0, sizeof sum);
    memset(cnt, 0, sizeof cnt);
    for (int p = 0; p < npts; p++) {
        cnt[member[p]]++;
        for (int f = 0; f < nfeat; f++)
            sum[member[p]][f] += pts[(size_t)f * npts + p];
    }
    for (int c = 0; c < k; c++)
        if (cnt[c])
            for (int f = 0; f < nfeat; f++)
                cent[c * nfeat + f] = (float)(sum[c][f] / cnt[c]);
}

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse(&args, argc, argv, NULL);
    if (rc)
        return rc;

    int npts, iters, nfeat = NFEAT, k = NCLUST;
    switch (args.size) {
    case BENCH_SMALL: npts = 384; iters = 2; break;
    case BENCH_LARGE: npts = 494020; iters = 5; break;
    default: npts = 16384; iters = 5; break;
    }
    size_t pbytes = (size_t)npts * nfeat * sizeof(float);
    size_t cbytes = (size_t)k * nfeat * sizeof(float);

    float *pts = malloc(pbytes);
    int *member = malloc(npts * sizeof(int)), *ref_member = malloc(npts * sizeof(int));
    int *prev = malloc(npts * sizeof(int));
    if (!pts || !member || !ref_member || !prev) {
        fprintf(stderr, "kmeans: out of host memory\n");
        return 1;
    }

    /* NCLUST blobs: centres in [0,4)^NFEAT, points = centre + uniform noise in [-1.25,1.25).
     * Points 0..k-1 come from blobs 0..k-1 and are the initial centroids, so the blobs
     * stay separated: some points change cluster after the first update, but over all
     * iterations the second-nearest centroid is at least 1.5e-4 (relative) farther than
     * the nearest (large; 1.5e-3 at default), far above float rounding (~34 * 2^-24). */
    bench_rng rng;
    bench_rng_seed(&rng, 2004);
    float centre[NCLUST][NFEAT];
    for (int c = 0; c < k; c++)
        for (int f = 0; f < nfeat; f++)
            centre[c][f] = bench_rng_range(&rng, 0.0f, 4.0f);
    for (int p = 0; p < npts; p++) {
        int lab = p < k ? p : (int)(bench_rng_u32(&rng) % k);
        for (int f = 0; f < nfeat; f++)
            pts[(size_t)f * npts + p] = centre[lab][f] + bench_rng_range(&rng, -1.25f, 1.25f);
    }
    float cent[NCLUST * NFEAT], ref_cent[NCLUST * NFEAT];
    for (int c = 0; c < k; c++)
        for (int f = 0; f < nfeat; f++)
            cent[c * nfeat + f] = ref_cent[c * nfeat + f] = pts[(size_t)f * npts + c];

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("kmeans", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "kmeans_assign"));

    CUdeviceptr d_pts, d_cent, d_member;
    CU(cuMemAlloc(&d_pts, pbytes));
    CU(cuMemAlloc(&d_cent, cbytes));
    CU(cuMemAlloc(&d_member, npts * sizeof(int)));
    CU(cuMemcpyHtoD(d_pts, pts, pbytes));

    int blocks = (npts + KM_THREADS - 1) / KM_THREADS;
    size_t bad = 0, near = 0;
    for (int p = 0; p < npts; p++)
        prev[p] = -1;
    for (int it = 0; it < iters; it++) {
        CU(cuMemcpyHtoD(d_cent, cent, cbytes));
        void *kp[] = {&d_pts, &d_cent, &d_member, &npts, &nfeat, &k};
        CU(cuLaunchKernel(fn, blocks, 1, 1, KM_THREADS, 1, 1, 0, NULL, kp, NULL));
        CU(cuCtxSynchronize());
        CU(cuMemcpyDtoH(member, d_member, npts * sizeof(int)));

        near += ref_assign(pts, ref_cent, ref_member, npts, nfeat, k);
        bad += bench_check_i32("kmeans.member", member, ref_member, npts);

        int changed = 0;
        for (int p = 0; p < npts; p++) {
            changed += member[p] != prev[p];
            prev[p] = member[p];
        }
        update_centroids(pts, member, cent, npts, nfeat, k);
        update_centroids(pts, ref_member, ref_cent, npts, nfeat, k);
        if (!args.quiet)
            printf("kmeans: iteration %d, %d memberships changed\n", it, changed);
    }
    if (near)
        fprintf(stderr, "kmeans: warning: %zu near-tie assignments in the reference\n", near);

    if (!args.quiet)
        printf("kmeans: %d points x %d features, %d clusters, %d iterations, grid %d x %d\n",
               npts, nfeat, k, iters, blocks, KM_THREADS);
    bad += bench_check_f32("kmeans.centroid", cent, ref_cent, (size_t)k * nfeat, 1e-5, 1e-5);

    CU(cuMemFree(d_pts));
    CU(cuMemFree(d_cent));
    CU(cuMemFree(d_member));
    bench_fini(ctx, mod);
    free(pts);
    free(member);
    free(ref_member);
    free(prev);
    return bench_result("kmeans", &args, bad);
}
