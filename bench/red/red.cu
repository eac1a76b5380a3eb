// red: sum reduction of a large int array in several launches of one kernel.
// Launch 1 reduces n inputs to one partial per block; every later launch reduces the
// previous partials the same way until a single value is left.
// Per block: each thread adds two elements per grid-stride step (chunks of
// 2*blockDim.x consecutive elements, chunk c handled by block c % gridDim.x), then the
// block combines its threads' sums in shared memory with sequential addressing
// (stride halves each round, active threads stay contiguous).

#define RED_THREADS 256  // blockDim.x must equal this (power of two)

extern "C" __global__ void reduce_sum(int *__restrict__ out, const int *__restrict__ in, int n)
{
    __shared__ int sdata[RED_THREADS];
    const int tid = threadIdx.x;
    int sum = 0;
    // n <= 2^30 is assumed, so the int indices below cannot overflow.
    for (int base = blockIdx.x * (2 * RED_THREADS); base < n; base += gridDim.x * (2 * RED_THREADS)) {
        int i = base + tid;
        if (i < n)
            sum += in[i];
        if (i + RED_THREADS < n)
            sum += in[i + RED_THREADS];
    }
    sdata[tid] = sum;
    __syncthreads();
    for (int stride = RED_THREADS / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            sdata[tid] += sdata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}
