// lud: right-looking blocked LU decomposition without pivoting (Doolittle: unit lower L,
// upper U, stored in place of A), row-major n x n, block size LUD_B, n % LUD_B == 0.
// Step k (0 <= k < n/LUD_B), with r = n/LUD_B - k - 1 trailing blocks:
//   lud_diag      <<<1, (B,B)>>>     factor the diagonal block A_kk = L_kk U_kk
//   lud_perimeter <<<2r, (B,B)>>>    blocks 0..r-1: row panel    U_kj = L_kk^-1 A_kj
//                                    blocks r..2r-1: column panel L_ik = A_ik U_kk^-1
//   lud_internal  <<<(r,r), (B,B)>>> trailing update A_ij -= L_ik U_kj
// Every thread owns one element of a BxB block; all blocks are staged in shared memory.

#define LUD_B 16

extern "C" __global__ void lud_diag(float *a, int n, int k)
{
    __shared__ float s[LUD_B][LUD_B];
    const int tx = threadIdx.x, ty = threadIdx.y;
    float *blk = a + (size_t)(k * LUD_B) * n + k * LUD_B;

    s[ty][tx] = blk[ty * n + tx];
    __syncthreads();
    for (int j = 0; j < LUD_B - 1; j++) {
        if (tx == j && ty > j)
            s[ty][j] /= s[j][j];
        __syncthreads();
        if (tx > j && ty > j)
            s[ty][tx] -= s[ty][j] * s[j][tx];
        __syncthreads();
    }
    blk[ty * n + tx] = s[ty][tx];
}

extern "C" __global__ void lud_perimeter(float *a, int n, int k)
{
    __shared__ float d[LUD_B][LUD_B];  // factored diagonal block (L_kk and U_kk)
    __shared__ float p[LUD_B][LUD_B];  // panel block being solved
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int r = n / LUD_B - k - 1;
    const int b = blockIdx.x;
    const int k0 = k * LUD_B;
    const bool row_panel = b < r;
    const int off = ((row_panel ? b : b - r) + k + 1) * LUD_B;
    float *pb = row_panel ? a + (size_t)k0 * n + off : a + (size_t)off * n + k0;

    d[ty][tx] = a[(size_t)(k0 + ty) * n + k0 + tx];
    p[ty][tx] = pb[ty * n + tx];
    __syncthreads();

    if (row_panel) {
        // Forward substitution with unit-diagonal L_kk, one pivot row m at a time.
        for (int m = 0; m < LUD_B - 1; m++) {
            if (ty > m)
                p[ty][tx] -= d[ty][m] * p[m][tx];
            __syncthreads();
        }
    } else {
        // X U_kk = A_ik, column by column: scale column m, then eliminate it to the right.
        for (int m = 0; m < LUD_B; m++) {
            if (tx == m)
                p[ty][m] /= d[m][m];
            __syncthreads();
            if (tx > m)
                p[ty][tx] -= p[ty][m] * d[m][tx];
            __syncthreads();
        }
    }
    pb[ty * n + tx] = p[ty][tx];
}

extern "C" __global__ void lud_internal(float *a, int n, int k)
{
    __shared__ float l[LUD_B][LUD_B];  // L_ik
    __shared__ float u[LUD_B][LUD_B];  // U_kj
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int k0 = k * LUD_B;
    const int i0 = (blockIdx.y + k + 1) * LUD_B;
    const int j0 = (blockIdx.x + k + 1) * LUD_B;

    l[ty][tx] = a[(size_t)(i0 + ty) * n + k0 + tx];
    u[ty][tx] = a[(size_t)(k0 + ty) * n + j0 + tx];
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int m = 0; m < LUD_B; m++)
        acc += l[ty][m] * u[m][tx];
    a[(size_t)(i0 + ty) * n + j0 + tx] -= acc;
}
