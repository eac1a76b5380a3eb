// sqrng: Sobol quasi-random points, one grid row (blockIdx.y) per dimension.
// Point i of a dimension is the XOR of the direction numbers v[b] selected by the
// set bits b of the Gray code g = i ^ (i >> 1).  Each thread produces
// SQ_PER_THREAD points, strided by the block size so stores stay coalesced.
// The 32-bit result keeps its top 24 bits, which convert exactly to a float in [0,1).

#define SQ_PER_THREAD 4

extern "C" __global__ void sqrng_points(const unsigned *__restrict__ dirs, float *__restrict__ out,
                                        int n)
{
    __shared__ unsigned v[32];
    const int dim = blockIdx.y;
    if (threadIdx.x < 32)
        v[threadIdx.x] = dirs[dim * 32 + threadIdx.x];
    __syncthreads();

    float *row = out + (size_t)dim * n;
    const int first = blockIdx.x * blockDim.x * SQ_PER_THREAD + threadIdx.x;
    for (int k = 0; k < SQ_PER_THREAD; k++) {
        const int i = first + k * blockDim.x;
        if (i >= n)
            break;
        unsigned g = (unsigned)i ^ ((unsigned)i >> 1);
        unsigned x = 0;
        while (g != 0) {
            x ^= v[__ffs(g) - 1];
            g &= g - 1;  // clear the lowest set bit
        }
        row[i] = (float)(x >> 8) * (1.0f / 16777216.0f);
    }
}
