// stc: one time step of a 3-D 7-point Jacobi stencil, in the structure of the Parboil
// stencil benchmark: 2-D thread blocks march through z ("2.5-D blocking"), each thread
// owns two x-columns (thread coarsening in x: columns tx and tx + STC_TX of a 64-wide
// tile), the current z-plane of the tile is staged in shared memory, the planes below
// and above stay in registers, and the tile-edge threads read their out-of-tile
// in-plane neighbours from global memory (the tile has no halo in shared memory).
// Only interior points are written: the host gives both ping-pong buffers the same
// initial contents, so the faces stay fixed.

#define STC_TX 32
#define STC_TY 4

extern "C" __global__ void stc_step(const float *__restrict__ in, float *__restrict__ out,
                                    int nx, int ny, int nz, float c_self, float c_nbr)
{
    __shared__ float cur[STC_TY][2 * STC_TX];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x0 = blockIdx.x * 2 * STC_TX + tx, x1 = x0 + STC_TX;
    const int y = blockIdx.y * STC_TY + ty;
    const size_t slab = (size_t)nx * ny;
    const bool in0 = x0 < nx && y < ny, in1 = x1 < nx && y < ny;
    const bool inner_y = y > 0 && y < ny - 1;
    const bool upd0 = inner_y && x0 > 0 && x0 < nx - 1;
    const bool upd1 = inner_y && x1 < nx - 1;  // x1 >= STC_TX > 0
    const size_t c0 = (size_t)y * nx + x0, c1 = c0 + STC_TX;

    float below0 = in0 ? in[c0] : 0.0f, below1 = in1 ? in[c1] : 0.0f;
    float here0 = in0 ? in[slab + c0] : 0.0f, here1 = in1 ? in[slab + c1] : 0.0f;
    for (int z = 1; z < nz - 1; z++) {
        const size_t p0 = (size_t)z * slab + c0, p1 = p0 + STC_TX;
        const float above0 = in0 ? in[p0 + slab] : 0.0f;
        const float above1 = in1 ? in[p1 + slab] : 0.0f;

        __syncthreads();  // the previous plane is consumed
        cur[ty][tx] = here0;
        cur[ty][tx + STC_TX] = here1;
        __syncthreads();

        if (upd0) {
            const float l = tx == 0 ? in[p0 - 1] : cur[ty][tx - 1];
            const float r = cur[ty][tx + 1];
            const float d = ty == 0 ? in[p0 - nx] : cur[ty - 1][tx];
            const float u = ty == STC_TY - 1 ? in[p0 + nx] : cur[ty + 1][tx];
            float nb = l + r;
            nb += d;
            nb += u;
            nb += below0;
            nb += above0;
            out[p0] = c_self * here0 + c_nbr * nb;
        }
        if (upd1) {
            const float l = cur[ty][tx + STC_TX - 1];
            const float r = tx == STC_TX - 1 ? in[p1 + 1] : cur[ty][tx + STC_TX + 1];
            const float d = ty == 0 ? in[p1 - nx] : cur[ty - 1][tx + STC_TX];
            const float u = ty == STC_TY - 1 ? in[p1 + nx] : cur[ty + 1][tx + STC_TX];
            float nb = l + r;
            nb += d;
            nb += u;
            nb += below1;
            nb += above1;
            out[p1] = c_self * here1 + c_nbr * nb;
        }
        below0 = here0;
        below1 = here1;
        here0 = above0;
        here1 = above1;
    }
}
