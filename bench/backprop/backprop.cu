// backprop: one input->hidden layer pair of a back-propagation training step.
//
// Network: n_in inputs (+ a bias input x[0] = 1) fully connected to BP_HID hidden
// units.  Weights are stored row-major as w[(n_in + 1) * BP_HID]: row i holds the
// weights from input i to every hidden unit (row 0 = bias).
//
// bp_forward_partial: block (BP_HID x BP_ROWS) = (16 x 16) threads works on a chunk of
//   BP_CHUNK = BP_ROWS * BP_PER_THREAD consecutive inputs (starting at input 1).  The
//   chunk of x is staged in shared memory; thread (tx = hidden unit, ty = row) sums
//   x[i] * w[i][tx] over the inputs i = ty, ty + BP_ROWS, ... of the chunk; the 16 row
//   sums of each hidden unit are then combined with an interleaved-addressing tree
//   (active rows: ty % (2*s) == 0, i.e. divergent inside the warps).  The block's
//   result partial[blockIdx.x * BP_HID + tx] is summed over blocks on the host.
//
// bp_adjust_weights: one thread per weight (bias row included):
//   dw = eta * delta[j] * x[i] + momentum * oldw[i][j];  w[i][j] += dw;  oldw[i][j] = dw.

#define BP_HID 16          // hidden units (blockDim.x of the forward kernel)
#define BP_ROWS 16         // rows per block (blockDim.y of the forward kernel)
#define BP_PER_THREAD 4    // inputs per thread
#define BP_CHUNK (BP_ROWS * BP_PER_THREAD)
#define BP_ADJ_THREADS 256 // blockDim.x of the adjust kernel

// x: n_in + 1 inputs (x[0] = bias input); n_in must be a multiple of BP_CHUNK.
extern "C" __global__ void bp_forward_partial(const float *__restrict__ x,
                                              const float *__restrict__ w,
                                              float *__restrict__ partial, int n_in)
{
    __shared__ float xs[BP_CHUNK];
    __shared__ float acc[BP_ROWS][BP_HID];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int lin = ty * BP_HID + tx;
    const int first = 1 + blockIdx.x * BP_CHUNK;  // first input of this chunk

    if (lin < BP_CHUNK && first + lin <= n_in)
        xs[lin] = x[first + lin];
    __syncthreads();

    float sum = 0.0f;
    for (int k = 0; k < BP_PER_THREAD; k++) {
        int r = ty + k * BP_ROWS;  // row inside the chunk
        sum += xs[r] * w[(size_t)(first + r) * BP_HID + tx];
    }
    acc[ty][tx] = sum;
    __syncthreads();

    for (int s = 1; s < BP_ROWS; s *= 2) {
        if (ty % (2 * s) == 0)
            acc[ty][tx] += acc[ty + s][tx];
        __syncthreads();
    }
    if (ty == 0)
        partial[blockIdx.x * BP_HID + tx] = acc[0][tx];
}

// nw = (n_in + 1) * BP_HID weights; delta[BP_HID] hidden-unit error terms.
extern "C" __global__ void bp_adjust_weights(const float *__restrict__ x,
                                             const float *__restrict__ delta,
                                             float *__restrict__ w, float *__restrict__ oldw,
                                             int nw, float eta, float momentum)
{
    int idx = blockIdx.x * BP_ADJ_THREADS + threadIdx.x;
    if (idx < nw) {
        int i = idx / BP_HID, j = idx % BP_HID;
        float dw = eta * delta[j] * x[i] + momentum * oldw[idx];
        w[idx] += dw;
        oldw[idx] = dw;
    }
}
