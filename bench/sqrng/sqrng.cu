// sqrng: Sobol quasi-random points, one grid row (blockIdx.y) per dimension, in the
// structure of the CUDA SDK's Sobol generator.  The dimension's 32 direction numbers
// are staged in shared memory.  The stride S = gridDim.x * blockDim.x (threads per
// dimension) is a power of two, 2^L.  Thread t forms its first point i = t from the
// Gray code g = i ^ (i >> 1) (the XOR of v[b] over the set bits b of g), then steps
// i -> i + S.  Adding 2^L to i flips bits L..c of i, where c is the lowest zero bit
// of i at or above L, so the Gray code changes in bits L-1 and c only:
// x(i + S) = x(i) ^ v[L-1] ^ v[c].  A warp stores 32 consecutive floats per step
// (coalesced).  The 32-bit result keeps its top 24 bits, which convert exactly to a
// float in [0,1).

extern "C" __global__ void sqrng_points(const unsigned *__restrict__ dirs, float *__restrict__ out,
                                        int n)
{
    __shared__ unsigned v[32];
    const int dim = blockIdx.y;
    if (threadIdx.x < 32)
        v[threadIdx.x] = dirs[dim * 32 + threadIdx.x];
    __syncthreads();

    const unsigned stride = gridDim.x * blockDim.x;  // a power of two, >= 2
    const unsigned low_mask = stride - 1;
    const unsigned v_step = v[__ffs(stride) - 2];    // v[L-1]
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;

    unsigned g = i ^ (i >> 1);
    unsigned x = 0;
    while (g != 0) {
        x ^= v[__ffs(g) - 1];
        g &= g - 1;  // clear the lowest set bit
    }

    float *row = out + (size_t)dim * n;
    for (; i < (unsigned)n; i += stride) {
        row[i] = (float)(x >> 8) * (1.0f / 16777216.0f);
        x ^= v_step ^ v[__ffs(~(i | low_mask)) - 1];
    }
}
