// reduction.cu - sum of an array of 32-bit unsigned ints (mod 2^32), two launches
// of the same kernel (seed004 / AMD APP SDK style Reduction).
//
// Block b owns elements [b*chunk, min(n, (b+1)*chunk)). Each thread first adds up
// the elements of the chunk at stride blockDim.x (coalesced loads, chunk/blockDim
// elements per thread), then the block combines its blockDim.x partial sums with a
// shared-memory tree and thread 0 writes partial[b]. The host runs the kernel once
// over the input (many blocks) and once more over the partial sums (one block).

#define RED_BLOCK 256  // threads per block; a power of two

extern "C" __global__ void __launch_bounds__(RED_BLOCK)
reduce_sum(const unsigned *__restrict__ in, unsigned *__restrict__ partial, unsigned n, unsigned chunk)
{
    __shared__ unsigned acc[RED_BLOCK];
    unsigned tid = threadIdx.x;
    unsigned begin = blockIdx.x * chunk;
    unsigned end = min(n, begin + chunk);

    // Four independent accumulators so consecutive loads do not wait on each other.
    unsigned s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    unsigned i = begin + tid;
    for (; i + 3 * RED_BLOCK < end; i += 4 * RED_BLOCK) {
        s0 += in[i];
        s1 += in[i + RED_BLOCK];
        s2 += in[i + 2 * RED_BLOCK];
        s3 += in[i + 3 * RED_BLOCK];
    }
    for (; i < end; i += RED_BLOCK)
        s0 += in[i];
    acc[tid] = (s0 + s1) + (s2 + s3);
    __syncthreads();

    for (unsigned half = RED_BLOCK / 2; half > 0; half >>= 1) {
        if (tid < half)
            acc[tid] += acc[tid + half];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = acc[0];
}
