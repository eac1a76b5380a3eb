// srad: speckle-reducing anisotropic diffusion (Yu & Acton) on a rows x cols image J.
//
// Per iteration:
//   srad_stats  : every block strides over the image and accumulates sum(J) and
//                 sum(J^2) per thread; a shared-memory tree (sequential addressing)
//                 reduces them to one (sum, sumsq) pair per block -> partial[2*block].
//                 The host adds the partials and derives q0^2 = var / mean^2.
//   srad_coeff  : 16x16 tile of J (+1-pixel halo, clamped at the image border) in shared
//                 memory; per pixel the four one-sided differences, the normalised
//                 gradient / Laplacian, the instantaneous coefficient of variation q^2
//                 and the diffusion coefficient c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2)))
//                 clamped to [0, 1].  Writes dN, dS, dW, dE and c.
//   srad_update : 16x16 tile of c (+ south / east halo) in shared memory;
//                 J += lambda/4 * (c * dN + c_S * dS + c * dW + c_E * dE).

#define SR_T 16             // tile edge: blocks of SR_T x SR_T threads
#define SR_RED_THREADS 256  // blockDim.x of srad_stats

extern "C" __global__ void srad_stats(const float *__restrict__ J, int n,
                                      float *__restrict__ partial)
{
    __shared__ float s_sum[SR_RED_THREADS];
    __shared__ float s_sq[SR_RED_THREADS];
    const int t = threadIdx.x;
    float sum = 0.0f, sq = 0.0f;
    for (int i = blockIdx.x * SR_RED_THREADS + t; i < n; i += gridDim.x * SR_RED_THREADS) {
        float v = J[i];
        sum += v;
        sq += v * v;
    }
    s_sum[t] = sum;
    s_sq[t] = sq;
    __syncthreads();
    for (int half = SR_RED_THREADS / 2; half > 0; half >>= 1) {
        if (t < half) {
            s_sum[t] += s_sum[t + half];
            s_sq[t] += s_sq[t + half];
        }
        __syncthreads();
    }
    if (t == 0) {
        partial[2 * blockIdx.x] = s_sum[0];
        partial[2 * blockIdx.x + 1] = s_sq[0];
    }
}

extern "C" __global__ void srad_coeff(const float *__restrict__ J, float *__restrict__ dN,
                                      float *__restrict__ dS, float *__restrict__ dW,
                                      float *__restrict__ dE, float *__restrict__ c,
                                      int rows, int cols, float q0sqr)
{
    __shared__ float tile[SR_T + 2][SR_T + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int col = blockIdx.x * SR_T + tx, row = blockIdx.y * SR_T + ty;
    const bool inside = row < rows && col < cols;
    const int r = min(row, rows - 1), cl = min(col, cols - 1);

    tile[ty + 1][tx + 1] = J[(size_t)r * cols + cl];
    if (ty == 0)
        tile[0][tx + 1] = J[(size_t)max(r - 1, 0) * cols + cl];
    if (ty == SR_T - 1 || row == rows - 1)
        tile[ty + 2][tx + 1] = J[(size_t)min(r + 1, rows - 1) * cols + cl];
    if (tx == 0)
        tile[ty + 1][0] = J[(size_t)r * cols + max(cl - 1, 0)];
    if (tx == SR_T - 1 || col == cols - 1)
        tile[ty + 1][tx + 2] = J[(size_t)r * cols + min(cl + 1, cols - 1)];
    __syncthreads();
    if (!inside)
        return;

    float jc = tile[ty + 1][tx + 1];
    float n = tile[ty][tx + 1] - jc;
    float s = tile[ty + 2][tx + 1] - jc;
    float w = tile[ty + 1][tx] - jc;
    float e = tile[ty + 1][tx + 2] - jc;

    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = 0.5f * g2 - 0.0625f * (l * l);
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float cv = 1.0f / (1.0f + den);
    if (cv < 0.0f)
        cv = 0.0f;
    else if (cv > 1.0f)
        cv = 1.0f;

    size_t k = (size_t)row * cols + col;
    dN[k] = n;
    dS[k] = s;
    dW[k] = w;
    dE[k] = e;
    c[k] = cv;
}

extern "C" __global__ void srad_update(float *__restrict__ J, const float *__restrict__ dN,
                                       const float *__restrict__ dS, const float *__restrict__ dW,
                                       const float *__restrict__ dE, const float *__restrict__ c,
                                       int rows, int cols, float lambda)
{
    __shared__ float tile[SR_T + 1][SR_T + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int col = blockIdx.x * SR_T + tx, row = blockIdx.y * SR_T + ty;
    const bool inside = row < rows && col < cols;
    const int r = min(row, rows - 1), cl = min(col, cols - 1);

    tile[ty][tx] = c[(size_t)r * cols + cl];
    if (ty == SR_T - 1 || row == rows - 1)
        tile[ty + 1][tx] = c[(size_t)min(r + 1, rows - 1) * cols + cl];
    if (tx == SR_T - 1 || col == cols - 1)
        tile[ty][tx + 1] = c[(size_t)r * cols + min(cl + 1, cols - 1)];
    __syncthreads();
    if (!inside)
        return;

    size_t k = (size_t)row * cols + col;
    float cc = tile[ty][tx];
    float div = cc * dN[k] + tile[ty + 1][tx] * dS[k] + cc * dW[k] + tile[ty][tx + 1] * dE[k];
    J[k] = J[k] + 0.25f * lambda * div;
}
