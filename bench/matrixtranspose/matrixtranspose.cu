// matrixtranspose.cu - out[x][y] = in[y][x] for a width x height row-major float
// matrix, two ways (seed004 / AMD APP SDK style MatrixTranspose):
//  - transpose_naive: one element per thread; reads are coalesced, writes are
//    strided by `height` floats (one memory segment per thread of a warp).
//  - transpose_tiled: a block stages a TILE x TILE tile in shared memory, so both
//    the global reads and the global writes are coalesced. The tile rows are padded
//    by one word so reading a tile column touches 32 different banks.

#define TILE 32
#define TILE_ROWS 8  // the tiled kernel's block is TILE x TILE_ROWS threads

// block (16,16); grid (ceil(width/16), ceil(height/16))
extern "C" __global__ void transpose_naive(const float *__restrict__ in, float *__restrict__ out,
                                           int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;  // column of in
    int y = blockIdx.y * blockDim.y + threadIdx.y;  // row of in
    if (x < width && y < height)
        out[(size_t)x * height + y] = in[(size_t)y * width + x];
}

// block (TILE, TILE_ROWS); grid (ceil(width/TILE), ceil(height/TILE))
extern "C" __global__ void __launch_bounds__(TILE * TILE_ROWS)
transpose_tiled(const float *__restrict__ in, float *__restrict__ out, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * TILE, y0 = blockIdx.y * TILE;

    // load: thread (tx,ty) reads rows ty, ty+8, ... of the input tile
    int x = x0 + tx;
    for (int r = ty; r < TILE; r += TILE_ROWS) {
        int y = y0 + r;
        if (x < width && y < height)
            tile[r][tx] = in[(size_t)y * width + x];
    }
    __syncthreads();

    // store: the output tile starts at row x0, column y0 of `out` (height columns)
    int oy = y0 + tx;  // column of out
    for (int r = ty; r < TILE; r += TILE_ROWS) {
        int ox = x0 + r;  // row of out
        if (ox < width && oy < height)
            out[(size_t)ox * height + oy] = tile[tx][r];
    }
}
