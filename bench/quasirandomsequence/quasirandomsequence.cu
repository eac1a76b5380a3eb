// quasirandomsequence.cu - Sobol low-discrepancy sequence in many dimensions
// (seed004 / AMD APP SDK style QuasiRandomSequence).
//
// Dimension d has 32 direction numbers v[d][0..31] (32-bit fixed point, built on
// the host from a primitive polynomial) in __constant__ memory. Point i of
// dimension d is the XOR of v[d][k] over the bits k set in gray(i) = i ^ (i >> 1),
// scaled by 2^-32. A thread produces PER_THREAD consecutive points: the first from
// its Gray code, the others by the one-XOR Gray-code step
//   x(i+1) = x(i) ^ v[d][ctz(i+1)],
// and the block writes its points through shared memory so the global stores of a
// warp are contiguous.

#define MAX_DIMS 64
#define PER_THREAD 8
#define SOBOL_BLOCK 256

__constant__ unsigned sobol_dirs[MAX_DIMS * 32];

// grid (ceil(npoints / (SOBOL_BLOCK*PER_THREAD)), ndims), block SOBOL_BLOCK.
// out is [ndims][npoints].
extern "C" __global__ void __launch_bounds__(SOBOL_BLOCK)
sobol_generate(float *__restrict__ out, int npoints)
{
    __shared__ float stage[SOBOL_BLOCK * (PER_THREAD + 1)];  // +1: fewer bank conflicts
    const unsigned *v = sobol_dirs + blockIdx.y * 32;
    int tid = threadIdx.x;
    int block_first = blockIdx.x * (SOBOL_BLOCK * PER_THREAD);
    unsigned i = (unsigned)(block_first + tid * PER_THREAD);

    unsigned g = i ^ (i >> 1);
    unsigned x = 0;
    for (int k = 0; k < 32; k++)
        if ((g >> k) & 1u)
            x ^= v[k];
    for (int j = 0; j < PER_THREAD; j++) {
        stage[tid * (PER_THREAD + 1) + j] = (float)x * 2.3283064365386963e-10f;  // x / 2^32
        x ^= v[__ffs(~(i + j)) - 1];  // lowest zero bit of i+j = lowest set bit of i+j+1
    }
    __syncthreads();

    float *dst = out + (size_t)blockIdx.y * npoints + block_first;
    int count = min(SOBOL_BLOCK * PER_THREAD, npoints - block_first);
    for (int e = tid; e < count; e += SOBOL_BLOCK)
        dst[e] = stage[(e / PER_THREAD) * (PER_THREAD + 1) + e % PER_THREAD];
}
