// stc: one time step of a 3-D 7-point Jacobi stencil straight from global memory.
// Every thread owns one (x,y) column and walks it in z, keeping the z-1 / z / z+1
// values in registers; the four in-plane neighbours are loaded from global memory
// (no shared memory).  Faces of the box are copied so launches can ping-pong.

extern "C" __global__ void stc_step(const float *__restrict__ in, float *__restrict__ out,
                                    int nx, int ny, int nz, float c_self, float c_nbr)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny)
        return;

    const size_t slab = (size_t)nx * ny;
    size_t p = (size_t)y * nx + x;

    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
        for (int z = 0; z < nz; z++, p += slab)
            out[p] = in[p];
        return;
    }

    float below = in[p];
    out[p] = below;  // z = 0 face
    p += slab;
    float here = in[p];
    for (int z = 1; z < nz - 1; z++, p += slab) {
        const float above = in[p + slab];
        float nb = in[p - 1] + in[p + 1];
        nb += in[p - nx];
        nb += in[p + nx];
        nb += below;
        nb += above;
        out[p] = c_self * here + c_nbr * nb;
        below = here;
        here = above;
    }
    out[p] = here;  // z = nz - 1 face
}
