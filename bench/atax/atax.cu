// atax: y = A^T (A x) for a row-major M x N matrix A, as two passes.
//   atax_ax : one thread per row i,    tmp[i] = sum_j A[i][j] * x[j]   (strided rows)
//   atax_aty: one thread per column j, y[j]   = sum_i A[i][j] * tmp[i] (coalesced)

extern "C" __global__ void atax_ax(const float *__restrict__ a, const float *__restrict__ x,
                                   float *__restrict__ tmp, int m, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m)
        return;
    const float *row = a + (size_t)i * n;
    float acc = 0.0f;
    for (int j = 0; j < n; j++)
        acc += row[j] * x[j];
    tmp[i] = acc;
}

extern "C" __global__ void atax_aty(const float *__restrict__ a, const float *__restrict__ tmp,
                                    float *__restrict__ y, int m, int n)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    float acc = 0.0f;
    for (int i = 0; i < m; i++)
        acc += a[(size_t)i * n + j] * tmp[i];
    y[j] = acc;
}
