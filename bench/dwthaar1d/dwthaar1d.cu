// dwthaar1d.cu - full multi-level 1-D Haar wavelet decomposition of a signal of
// length 2^k (seed004 / AMD APP SDK style DwtHaar1D).
//
// One level maps an approximation c[0..m) to m/2 averages (c[2t]+c[2t+1])/sqrt2
// (the next approximation) and m/2 details (c[2t]-c[2t+1])/sqrt2. The output keeps
// the usual layout: out[0] = final approximation, and the details of the level with
// m/2 coefficients at out[m/2 .. m).
//
// A launch works on an approximation of length m. Block b loads its chunk of
// `chunk` = min(2*blockDim.x, m) values into shared memory and runs log2(chunk)
// levels there (barrier between levels), writing every level's details straight to
// `out`; the single value left (the chunk's coarsest average) goes to approx[b].
// The host launches again on approx (length m/chunk) until one value is left.

#define HAAR_BLOCK 256
#define INV_SQRT2 0.70710678118654752f

extern "C" __global__ void __launch_bounds__(HAAR_BLOCK)
haar_levels(const float *__restrict__ in, float *__restrict__ out, float *__restrict__ approx, int m)
{
    __shared__ float c[2 * HAAR_BLOCK];
    int t = threadIdx.x;
    int chunk = min(2 * HAAR_BLOCK, m);
    const float *src = in + (size_t)blockIdx.x * chunk;
    if (t < chunk)
        c[t] = src[t];
    if (t + HAAR_BLOCK < chunk)
        c[t + HAAR_BLOCK] = src[t + HAAR_BLOCK];
    __syncthreads();

    // level with `half` output pairs per block; this launch's level has m*half/chunk
    // details in total, stored from out[m*half/chunk]
    for (int half = chunk / 2; half >= 1; half >>= 1) {
        float avg = 0.0f;
        if (t < half) {
            float x0 = c[2 * t], x1 = c[2 * t + 1];
            avg = (x0 + x1) * INV_SQRT2;
            size_t len = (size_t)(m / chunk) * half;
            out[len + (size_t)blockIdx.x * half + t] = (x0 - x1) * INV_SQRT2;
        }
        __syncthreads();  // everybody has read level's inputs
        if (t < half)
            c[t] = avg;
        __syncthreads();  // next level's inputs are in place
    }
    if (t == 0)
        approx[blockIdx.x] = c[0];
}
