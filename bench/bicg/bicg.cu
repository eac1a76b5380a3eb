// bicg: the two matrix-vector products of a BiCG step, A row-major NR x NC.
//   bicg_q: one thread per row i,    q[i] = sum_j A[i][j] * p[j]
//   bicg_s: one thread per column j, s[j] = sum_i r[i] * A[i][j]

extern "C" __global__ void bicg_q(const float *__restrict__ a, const float *__restrict__ p,
                                  float *__restrict__ q, int nr, int nc)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nr) {
        float acc = 0.0f;
        for (int j = 0; j < nc; j++)
            acc += a[(size_t)i * nc + j] * p[j];
        q[i] = acc;
    }
}

extern "C" __global__ void bicg_s(const float *__restrict__ a, const float *__restrict__ r,
                                  float *__restrict__ s, int nr, int nc)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < nc) {
        float acc = 0.0f;
        for (int i = 0; i < nr; i++)
            acc += r[i] * a[(size_t)i * nc + j];
        s[j] = acc;
    }
}
