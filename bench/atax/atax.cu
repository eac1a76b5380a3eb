// atax: y = A^T (A x) for a row-major M x N matrix A, as two passes.
//   atax_ax : one thread per row i,    tmp[i] += A[i][j] * x[j] for every j (strided rows)
//   atax_aty: one thread per column j, y[j]   += A[i][j] * tmp[i] for every i (coalesced)
// As in PolyBench/GPU, the sums accumulate in global memory (tmp and y are zeroed by
// the host, the pointers carry no __restrict__), so every iteration stores the
// partial sum: each loop step is two loads and one store per thread.

extern "C" __global__ void atax_ax(const float *a, const float *x, float *tmp, int m, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m) {
        for (int j = 0; j < n; j++)
            tmp[i] += a[(size_t)i * n + j] * x[j];
    }
}

extern "C" __global__ void atax_aty(const float *a, const float *tmp, float *y, int m, int n)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < n) {
        for (int i = 0; i < m; i++)
            y[j] += a[(size_t)i * n + j] * tmp[i];
    }
}
