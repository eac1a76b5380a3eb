// eigenvalue.cu - all eigenvalues of a symmetric tridiagonal matrix by bisection
// on Sturm-sequence counts, one eigenvalue per thread (seed004 / AMD APP SDK
// style EigenValue).
//
// The matrix has diagonal a[0..n-1] and off-diagonal b[1..n-1] (b[i] couples rows
// i-1 and i; b[0] is 0). count(x) = number of eigenvalues < x = number of negative
// pivots of the LDL^T factorisation of (A - xI):
//   q0 = a0 - x,  qi = (ai - x) - bi^2 / q(i-1)
// (a pivot smaller than pivmin in magnitude is replaced by -pivmin).
// Thread k starts from the Gerschgorin interval [lo, hi] that holds the whole
// spectrum and halves it, keeping count(l) <= k < count(u), until it is narrower
// than rel_tol * (hi - lo) or cannot be split further in float.

__device__ __forceinline__ int sturm_count(const float *__restrict__ a, const float *__restrict__ b,
                                           int n, float x, float pivmin)
{
    float q = a[0] - x;
    if (fabsf(q) < pivmin)
        q = -pivmin;
    int c = q < 0.0f;
    for (int i = 1; i < n; i++) {
        float bi = b[i];
        q = (a[i] - x) - (bi * bi) / q;
        if (fabsf(q) < pivmin)
            q = -pivmin;
        c += q < 0.0f;
    }
    return c;
}

// block 64, grid ceil(n/64); eig[k] = k-th smallest eigenvalue.
extern "C" __global__ void __launch_bounds__(64)
eig_bisect(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ eig,
           int n, float pivmin, float rel_tol)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n)
        return;

    // Gerschgorin bounds of the whole spectrum
    float lo = a[0], hi = a[0];
    for (int i = 0; i < n; i++) {
        float r = fabsf(b[i]) + (i + 1 < n ? fabsf(b[i + 1]) : 0.0f);
        lo = fminf(lo, a[i] - r);
        hi = fmaxf(hi, a[i] + r);
    }
    float tol = __fmul_rn(rel_tol, hi - lo);  // _rn: keep it out of an fma, like the host
    // widen by a little so that count(lo) == 0 and count(hi) == n strictly hold
    lo -= tol;
    hi += tol;

    float l = lo, u = hi;
    for (;;) {
        float m = 0.5f * (l + u);
        if (u - l <= tol || m <= l || m >= u)
            break;
        if (sturm_count(a, b, n, m, pivmin) > k)
            u = m;
        else
            l = m;
    }
    eig[k] = 0.5f * (l + u);
}
