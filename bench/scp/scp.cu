// scp: scalar (dot) products of many vector pairs.
// Each block walks over pairs (pair = blockIdx.x, += gridDim.x); the threads of the
// block stride over the pair's elements, accumulate a private partial sum, and the
// partials are combined by a shared-memory tree (sequential addressing).

#define SCP_THREADS 256  // blockDim.x must equal this (power of two)

extern "C" __global__ void scalar_prod(float *__restrict__ out, const float *__restrict__ a,
                                       const float *__restrict__ b, int npairs, int len)
{
    __shared__ float part[SCP_THREADS];
    const int tid = threadIdx.x;

    for (int pair = blockIdx.x; pair < npairs; pair += gridDim.x) {
        const float *va = a + (size_t)pair * len;
        const float *vb = b + (size_t)pair * len;
        float acc = 0.0f;
        for (int i = tid; i < len; i += SCP_THREADS)
            acc += va[i] * vb[i];
        part[tid] = acc;
        __syncthreads();
        for (int half = SCP_THREADS / 2; half > 0; half >>= 1) {
            if (tid < half)
                part[tid] += part[tid + half];
            __syncthreads();
        }
        // No barrier needed before the next pair: after the last round only thread 0
        // reads part[0], and it is also the thread that next writes part[0].
        if (tid == 0)
            out[pair] = part[0];
    }
}
