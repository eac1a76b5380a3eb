// mvt: x1 += A y1 and x2 += A^T y2 for a row-major N x N matrix A.
//   mvt_row: one thread per row i    (x1[i] += sum_j A[i][j] * y1[j], row walk: strided)
//   mvt_col: one thread per column j (x2[j] += sum_i A[i][j] * y2[i], coalesced)

extern "C" __global__ void mvt_row(const float *__restrict__ a, const float *__restrict__ y1,
                                   float *__restrict__ x1, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float *row = a + (size_t)i * n;
    float acc = x1[i];
    for (int j = 0; j < n; j++)
        acc += row[j] * y1[j];
    x1[i] = acc;
}

extern "C" __global__ void mvt_col(const float *__restrict__ a, const float *__restrict__ y2,
                                   float *__restrict__ x2, int n)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= n)
        return;
    const float *p = a + j;
    float acc = x2[j];
    for (int i = 0; i < n; i++, p += n)
        acc += *p * y2[i];
    x2[j] = acc;
}
