// bicg: the two matrix-vector products of a BiCG step, A row-major NR x NC.
//   bicg_q: one thread per row i,    q[i] += A[i][j] * p[j] for every j (strided rows)
//   bicg_s: one thread per column j, s[j] += r[i] * A[i][j] for every i (coalesced)
// As in PolyBench/GPU, q and s (zeroed by the host) accumulate in global memory
// inside the loop (no __restrict__), so every iteration stores the running sum.

extern "C" __global__ void bicg_q(const float *a, const float *p, float *q, int nr, int nc)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nr) {
        for (int j = 0; j < nc; j++)
            q[i] += a[(size_t)i * nc + j] * p[j];
    }
}

extern "C" __global__ void bicg_s(const float *a, const float *r, float *s, int nr, int nc)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < nc) {
        for (int i = 0; i < nr; i++)
            s[j] += r[i] * a[(size_t)i * nc + j];
    }
}
