// mvt: x1 += A y1 and x2 += A^T y2 for a row-major N x N matrix A.
//   mvt_row: one thread per row i    (x1[i] += A[i][j] * y1[j] for every j, row walk: strided)
//   mvt_col: one thread per column j (x2[j] += A[i][j] * y2[i] for every i, coalesced)
// As in PolyBench/GPU, x1 and x2 are updated in global memory inside the loop (no
// __restrict__), so every iteration stores the running sum.

extern "C" __global__ void mvt_row(const float *a, const float *y1, float *x1, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        for (int j = 0; j < n; j++)
            x1[i] += a[(size_t)i * n + j] * y1[j];
    }
}

extern "C" __global__ void mvt_col(const float *a, const float *y2, float *x2, int n)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        for (int i = 0; i < n; i++)
            x2[j] += a[(size_t)i * n + j] * y2[i];
    }
}
