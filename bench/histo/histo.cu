// histo: histogram of a 2-D image of 16-bit pixels holding values in [0, nbins).
// A 2-D grid of 2-D blocks sweeps the image (grid-stride in x and y). Every block
// accumulates a private sub-histogram in shared memory with shared atomics, then adds
// its non-zero bins to the global histogram with global atomics.

#define HISTO_MAX_BINS 1024

extern "C" __global__ void histo_2d(unsigned int *__restrict__ hist,
                                   const unsigned short *__restrict__ img, int width,
                                   int height, int nbins)
{
    __shared__ unsigned int sub[HISTO_MAX_BINS];
    const int nthreads = blockDim.x * blockDim.y;
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;

    for (int b = tid; b < nbins; b += nthreads)
        sub[b] = 0;
    __syncthreads();

    const int x0 = blockIdx.x * blockDim.x + threadIdx.x;
    const int y0 = blockIdx.y * blockDim.y + threadIdx.y;
    const int xstep = gridDim.x * blockDim.x;
    const int ystep = gridDim.y * blockDim.y;
    for (int y = y0; y < height; y += ystep) {
        const unsigned short *row = img + (size_t)y * width;
        for (int x = x0; x < width; x += xstep)
            atomicAdd(&sub[row[x]], 1u);
    }
    __syncthreads();

    for (int b = tid; b < nbins; b += nthreads) {
        unsigned int c = sub[b];
        if (c)
            atomicAdd(&hist[b], c);
    }
}
