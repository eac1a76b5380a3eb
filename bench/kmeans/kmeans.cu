// kmeans: assignment step of k-means clustering.
//
// Points are stored feature-major (pts[f * npts + p]) so that a warp reading feature f of
// 32 consecutive points is coalesced.  Each block first copies the k x nfeat centroid
// table (row-major, cent[c * nfeat + f]) into shared memory; then each thread takes
// one point, computes the squared Euclidean distance to every centroid (loop over
// clusters, inner loop over features) and keeps the first strictly smallest one.

#define KM_THREADS 256
#define KM_MAX_CENT 1024  // k * nfeat must not exceed this

extern "C" __global__ void kmeans_assign(const float *__restrict__ pts,
                                         const float *__restrict__ cent,
                                         int *__restrict__ member, int npts, int nfeat, int k)
{
    __shared__ float s_cent[KM_MAX_CENT];
    const int ncent = k * nfeat;
    for (int i = threadIdx.x; i < ncent; i += KM_THREADS)
        s_cent[i] = cent[i];
    __syncthreads();

    const int p = blockIdx.x * KM_THREADS + threadIdx.x;
    if (p >= npts)
        return;

    int best = 0;
    float best_dist = 3.0e38f;
    for (int c = 0; c < k; c++) {
        float dist = 0.0f;
        for (int f = 0; f < nfeat; f++) {
            float d = pts[(size_t)f * npts + p] - s_cent[c * nfeat + f];
            dist += d * d;
        }
        if (dist < best_dist) {
            best_dist = dist;
            best = c;
        }
    }
    member[p] = best;
}
