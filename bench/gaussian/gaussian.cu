// gaussian: forward elimination without pivoting on the augmented matrix [A | b].
//
// The system is stored as an n x (n + 1) row-major matrix (column n = right-hand side).
// For every pivot k = 0 .. n-2 the host launches
//   gauss_multipliers: one thread per row i > k:  m[i] = a[i][k] / a[k][k]
//   gauss_eliminate  : 2-D grid over rows i > k and columns j > k (rhs column included):
//                      a[i][j] -= m[i] * a[k][j]
// Column k below the pivot is not touched (it is never read again); the host does the
// back substitution on the upper triangle.

#define GE_THREADS 256  // blockDim.x of gauss_multipliers
#define GE_TILE 16      // gauss_eliminate blocks are GE_TILE x GE_TILE

extern "C" __global__ void gauss_multipliers(const float *__restrict__ a, float *__restrict__ m,
                                             int n, int k)
{
    int i = k + 1 + blockIdx.x * GE_THREADS + threadIdx.x;
    if (i < n) {
        const int pitch = n + 1;
        m[i] = a[(size_t)i * pitch + k] / a[(size_t)k * pitch + k];
    }
}

extern "C" __global__ void gauss_eliminate(float *__restrict__ a, const float *__restrict__ m,
                                           int n, int k)
{
    int j = k + 1 + blockIdx.x * GE_TILE + threadIdx.x;  // column (n = rhs)
    int i = k + 1 + blockIdx.y * GE_TILE + threadIdx.y;  // row
    if (i < n && j <= n) {
        const int pitch = n + 1;
        a[(size_t)i * pitch + j] -= m[i] * a[(size_t)k * pitch + j];
    }
}
