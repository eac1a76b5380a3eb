// scp: scalar (dot) products of many vector pairs, in the structure of the CUDA SDK's
// scalarProd.  Each block walks over pairs (pair = blockIdx.x, += gridDim.x).  For a
// pair, SCP_ACCUM partial sums live in shared memory: accumulator j (j = tid,
// tid + blockDim.x, ...) sums the products of elements j, j + SCP_ACCUM, j + 2*SCP_ACCUM,
// ... (so a warp reads 32 consecutive floats of each vector per step), then the block
// combines the SCP_ACCUM partials with a shared-memory tree (sequential addressing,
// a barrier per level).

#define SCP_THREADS 256  // blockDim.x must equal this
#define SCP_ACCUM 1024   // accumulators per pair (a power of two, >= SCP_THREADS)

extern "C" __global__ void scalar_prod(float *__restrict__ out, const float *__restrict__ a,
                                       const float *__restrict__ b, int npairs, int len)
{
    __shared__ float acc[SCP_ACCUM];
    const int tid = threadIdx.x;

    for (int pair = blockIdx.x; pair < npairs; pair += gridDim.x) {
        const float *va = a + (size_t)pair * len;
        const float *vb = b + (size_t)pair * len;
        __syncthreads();  // thread 0 has read the previous pair's result
        for (int j = tid; j < SCP_ACCUM; j += SCP_THREADS) {
            float sum = 0.0f;
            for (int i = j; i < len; i += SCP_ACCUM)
                sum += va[i] * vb[i];
            acc[j] = sum;
        }
        for (int stride = SCP_ACCUM / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            for (int j = tid; j < stride; j += SCP_THREADS)
                acc[j] += acc[stride + j];
        }
        if (tid == 0)
            out[pair] = acc[0];
    }
}
