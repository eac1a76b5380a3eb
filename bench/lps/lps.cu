// lps: one Jacobi sweep of the 3-D Laplace equation.
// Each CTA owns a LPS_TX x LPS_TY tile of (x,y) columns and marches it through z.
// The current z-plane (plus a one-point halo in x and y) is staged in shared
// memory; the planes below and above stay in registers.  Boundary points are
// copied unchanged, so a sequence of launches can ping-pong two buffers.
// The tile is 32x4 threads, the CTA shape of the ISPASS-2009 LPS benchmark.

#define LPS_TX 32
#define LPS_TY 4

extern "C" __global__ void lps_sweep(const float *__restrict__ src, float *__restrict__ dst,
                                     int nx, int ny, int nz)
{
    __shared__ float plane[LPS_TY + 2][LPS_TX + 2];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * LPS_TX + tx;
    const int y = blockIdx.y * LPS_TY + ty;
    const bool in_grid = x < nx && y < ny;
    const bool edge_xy = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
    const size_t stride_z = (size_t)nx * ny;
    const size_t col = (size_t)y * nx + x;

    float lower = 0.0f;
    float centre = in_grid ? src[col] : 0.0f;
    float upper = 0.0f;

    for (int z = 0; z < nz; z++) {
        const size_t zoff = (size_t)z * stride_z;
        upper = (in_grid && z + 1 < nz) ? src[zoff + stride_z + col] : 0.0f;

        __syncthreads();  // previous plane fully consumed
        plane[ty + 1][tx + 1] = centre;
        if (tx == 0 && x > 0 && y < ny)
            plane[ty + 1][0] = src[zoff + col - 1];
        if (tx == LPS_TX - 1 && x + 1 < nx && y < ny)
            plane[ty + 1][LPS_TX + 1] = src[zoff + col + 1];
        if (ty == 0 && y > 0 && x < nx)
            plane[0][tx + 1] = src[zoff + col - nx];
        if (ty == LPS_TY - 1 && y + 1 < ny && x < nx)
            plane[LPS_TY + 1][tx + 1] = src[zoff + col + nx];
        __syncthreads();

        if (in_grid) {
            float v = centre;
            if (!edge_xy && z > 0 && z < nz - 1) {
                float s = plane[ty + 1][tx] + plane[ty + 1][tx + 2];
                s += plane[ty][tx + 1];
                s += plane[ty + 2][tx + 1];
                s += lower;
                s += upper;
                v = s * (1.0f / 6.0f);
            }
            dst[zoff + col] = v;
        }
        lower = centre;
        centre = upper;
    }
}
