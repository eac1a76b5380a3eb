// recursivegaussian.cu - Gaussian blur of a float image with Deriche's recursive
// (IIR) approximation (seed004 / AMD APP SDK style RecursiveGaussian).
//
// rg_columns filters every column of a w x h row-major image, one thread per column:
// a causal pass down the column
//   y+(n) = a0 x(n) + a1 x(n-1) - b1 y+(n-1) - b2 y+(n-2)
// then an anti-causal pass up the column
//   y-(n) = a2 x(n+1) + a3 x(n+2) - b1 y-(n+1) - b2 y-(n+2)
// and out(n) = y+(n) + y-(n). Samples outside the column repeat the edge sample; the
// filter state starts at its steady state for that constant (coefp, coefn times the
// edge sample). Consecutive threads handle consecutive columns, so every row step is
// a coalesced warp access. The host filters the columns, transposes, filters the
// columns again (= the original rows) and transposes back.
// The -b1, -b2 terms come in as nb1 = -b1, nb2 = -b2; the recurrences use explicit
// fmaf so that the host reference can evaluate them identically.

#define RG_TILE 16

// block 64, grid ceil(w/64)
extern "C" __global__ void __launch_bounds__(64)
rg_columns(const float *__restrict__ in, float *__restrict__ out, int w, int h,
           float a0, float a1, float a2, float a3, float nb1, float nb2, float coefp, float coefn)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w)
        return;
    const float *src = in + x;
    float *dst = out + x;

    // causal
    float xp = src[0];       // x(n-1)
    float yp = coefp * xp;   // y+(n-1)
    float ypp = yp;          // y+(n-2)
    for (int n = 0; n < h; n++) {
        float xc = src[(size_t)n * w];
        float yc = fmaf(a0, xc, fmaf(a1, xp, fmaf(nb1, yp, nb2 * ypp)));
        dst[(size_t)n * w] = yc;
        xp = xc;
        ypp = yp;
        yp = yc;
    }

    // anti-causal
    float xn = src[(size_t)(h - 1) * w];  // x(n+1)
    float xnn = xn;                        // x(n+2)
    float yn = coefn * xn;                 // y-(n+1)
    float ynn = yn;                        // y-(n+2)
    for (int n = h - 1; n >= 0; n--) {
        float xc = src[(size_t)n * w];
        float yc = fmaf(a2, xn, fmaf(a3, xnn, fmaf(nb1, yn, nb2 * ynn)));
        dst[(size_t)n * w] += yc;
        xnn = xn;
        xn = xc;
        ynn = yn;
        yn = yc;
    }
}

// out (h x w) = transpose of in (w x h, row-major). block (16,16),
// grid (ceil(w/16), ceil(h/16)); the tile row is padded against bank conflicts.
extern "C" __global__ void __launch_bounds__(RG_TILE * RG_TILE)
rg_transpose(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
    __shared__ float tile[RG_TILE][RG_TILE + 1];
    int bx = blockIdx.x * RG_TILE, by = blockIdx.y * RG_TILE;
    int x = bx + threadIdx.x, y = by + threadIdx.y;
    if (x < w && y < h)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * w + x];
    __syncthreads();
    int ox = by + threadIdx.x, oy = bx + threadIdx.y;  // column / row of out
    if (ox < h && oy < w)
        out[(size_t)oy * h + ox] = tile[threadIdx.x][threadIdx.y];
}
