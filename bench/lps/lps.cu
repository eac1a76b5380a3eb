// lps: one Jacobi sweep of the 3-D Laplace equation, in the structure of the
// ISPASS-2009 LPS benchmark (Giles' laplace3d).  Each 32x4 CTA owns a tile of (x,y)
// columns and marches it through z.  Three planes of the tile (z-1, z, z+1), each
// with a one-point halo in x and y (corners included), live in shared memory; at
// every step each thread shifts its own node down one plane (z -> z-1, z+1 -> z) by
// shared-memory copies and loads the new plane z+1 from global memory.  The first
// 2*(TX+TY+2) = 76 threads also own one halo node each (the two halo rows, then the
// two halo columns), which they load and shift the same way.  Rows are `pitch`
// floats apart (a pitched allocation).  Boundary points are copied unchanged, so a
// sequence of launches can ping-pong two buffers.  Two barriers per plane.

#define LPS_TX 32
#define LPS_TY 4
#define LPS_W (LPS_TX + 2)              // plane width with halo
#define LPS_PLANE (LPS_W * (LPS_TY + 2)) // plane size with halo
#define LPS_HALO (2 * (LPS_TX + LPS_TY + 2))

extern "C" __global__ void lps_sweep(const float *__restrict__ src, float *__restrict__ dst,
                                     int nx, int ny, int nz, int pitch)
{
    __shared__ float u[3 * LPS_PLANE];  // planes z-1, z, z+1

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int t = ty * LPS_TX + tx;
    const size_t plane = (size_t)ny * pitch;

    // this thread's interior node
    const int i = blockIdx.x * LPS_TX + tx, j = blockIdx.y * LPS_TY + ty;
    const bool active = i < nx && j < ny;
    const int s = (ty + 1) * LPS_W + tx + 1;
    size_t g = (size_t)j * pitch + i;

    // this thread's halo node, if any: rows 0 and TY+1 (all 34 columns), then
    // columns 0 and TX+1 of rows 1..TY
    int hr = 0, hc = 0;
    if (t < 2 * LPS_W) {
        hr = t < LPS_W ? 0 : LPS_TY + 1;
        hc = t % LPS_W;
    } else {
        hr = (t - 2 * LPS_W) / 2 + 1;
        hc = (t - 2 * LPS_W) % 2 == 0 ? 0 : LPS_TX + 1;
    }
    const int hi = blockIdx.x * LPS_TX + hc - 1, hj = blockIdx.y * LPS_TY + hr - 1;
    const bool halo = t < LPS_HALO && hi >= 0 && hi < nx && hj >= 0 && hj < ny;
    const int sh = hr * LPS_W + hc;
    size_t gh = (size_t)hj * pitch + hi;

    // plane 0 goes into the z+1 slot; the first shift moves it to z
    if (active)
        u[2 * LPS_PLANE + s] = src[g];
    if (halo)
        u[2 * LPS_PLANE + sh] = src[gh];

    for (int k = 0; k < nz; k++) {
        if (active) {
            u[s] = u[LPS_PLANE + s];
            u[LPS_PLANE + s] = u[2 * LPS_PLANE + s];
            if (k + 1 < nz)
                u[2 * LPS_PLANE + s] = src[g + plane];
        }
        if (halo) {
            u[sh] = u[LPS_PLANE + sh];
            u[LPS_PLANE + sh] = u[2 * LPS_PLANE + sh];
            if (k + 1 < nz)
                u[2 * LPS_PLANE + sh] = src[gh + plane];
            gh += plane;
        }
        __syncthreads();

        if (active) {
            const float *c = u + LPS_PLANE + s;
            float v = *c;
            if (!(i == 0 || i == nx - 1 || j == 0 || j == ny - 1 || k == 0 || k == nz - 1)) {
                float sum = c[-1] + c[1];
                sum += c[-LPS_W];
                sum += c[LPS_W];
                sum += c[-LPS_PLANE];
                sum += c[LPS_PLANE];
                v = sum * (1.0f / 6.0f);
            }
            dst[g] = v;
            g += plane;
        }
        __syncthreads();
    }
}
