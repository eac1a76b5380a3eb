// hs: hotspot-style thermal simulation, explicit 5-point stencil on a 2-D grid.
// One launch advances `steps` time steps. Each block of HS_TILE x HS_TILE threads loads
// a tile with a halo of `steps` cells on every side into shared memory, iterates the
// stencil there (the trustworthy region shrinks by one cell per step), and writes the
// inner (HS_TILE - 2*steps)^2 cells. Neighbours outside the grid are replaced by the
// cell itself (insulated edges).
//   t' = t + cp*p + cy*(tN + tS - 2t) + cx*(tE + tW - 2t) + cz*(amb - t)

#define HS_TILE 16  // blockDim = (HS_TILE, HS_TILE)

extern "C" __global__ void hotspot_step(float *__restrict__ t_out, const float *__restrict__ t_in,
                                        const float *__restrict__ power, int width, int height,
                                        int steps, float cp, float cx, float cy, float cz,
                                        float amb)
{
    __shared__ float tile[HS_TILE][HS_TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int inner = HS_TILE - 2 * steps;
    const int gx = blockIdx.x * inner + tx - steps;
    const int gy = blockIdx.y * inner + ty - steps;
    const bool in_grid = gx >= 0 && gx < width && gy >= 0 && gy < height;

    float t = 0.0f, p = 0.0f;
    if (in_grid) {
        t = t_in[gy * width + gx];
        p = power[gy * width + gx];
    }
    tile[ty][tx] = t;

    // Which neighbours exist in the grid; a missing one reads the cell itself. A
    // neighbour in the grid but outside the tile also reads the cell itself: that cell's
    // value is then wrong, but it lies in the halo and is never written.
    const bool has_w = gx > 0 && tx > 0, has_e = gx < width - 1 && tx < HS_TILE - 1;
    const bool has_n = gy > 0 && ty > 0, has_s = gy < height - 1 && ty < HS_TILE - 1;
    const float pw = cp * p;

    for (int s = 0; s < steps; s++) {
        __syncthreads();
        float tw = has_w ? tile[ty][tx - 1] : t;
        float te = has_e ? tile[ty][tx + 1] : t;
        float tn = has_n ? tile[ty - 1][tx] : t;
        float ts = has_s ? tile[ty + 1][tx] : t;
        float nt = t + pw + cy * (tn + ts - 2.0f * t) + cx * (te + tw - 2.0f * t) + cz * (amb - t);
        __syncthreads();
        t = nt;
        tile[ty][tx] = t;
    }

    if (in_grid && tx >= steps && tx < HS_TILE - steps && ty >= steps && ty < HS_TILE - steps)
        t_out[gy * width + gx] = t;
}
