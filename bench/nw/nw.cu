// nw: Needleman-Wunsch global alignment score matrix, tiled along anti-diagonals.
//
// score is (n+1) x (n+1) ints, row-major with pitch n+1; row 0 and column 0 hold the
// gap-penalty borders.  sim[(i)*(n+1) + j] (i, j >= 1) is the substitution score of
// symbols a[i-1], b[j-1].  The n x n interior is split into NW_TILE x NW_TILE tiles;
// a launch processes every tile (tr, tc) with tr + tc == diag and tr >= tr0, one
// block of NW_TILE threads per tile (blockIdx.x = tr - tr0).  Inside the tile, the
// cells are computed along the tile's own anti-diagonals k = r + c (thread t owns
// tile row r = t), so the number of active threads rises 1..NW_TILE and falls again.

#define NW_TILE 16  // tile edge = threads per block

extern "C" __global__ void nw_tile_diag(int *__restrict__ score, const int *__restrict__ sim,
                                        int n, int diag, int tr0, int gap)
{
    __shared__ int s_sc[NW_TILE + 1][NW_TILE + 1];  // tile + top row / left column
    __shared__ int s_sim[NW_TILE][NW_TILE];

    const int t = threadIdx.x;
    const int tr = tr0 + blockIdx.x;
    const int tc = diag - tr;
    const int pitch = n + 1;
    const int row0 = tr * NW_TILE, col0 = tc * NW_TILE;  // score coords of the tile corner

    // Stage the substitution scores of the tile (row by row, coalesced along t) and
    // the already finished neighbours: the row above and the column to the left.
    for (int r = 0; r < NW_TILE; r++)
        s_sim[r][t] = sim[(size_t)(row0 + 1 + r) * pitch + col0 + 1 + t];
    s_sc[0][t + 1] = score[(size_t)row0 * pitch + col0 + 1 + t];
    s_sc[t + 1][0] = score[(size_t)(row0 + 1 + t) * pitch + col0];
    if (t == 0)
        s_sc[0][0] = score[(size_t)row0 * pitch + col0];
    __syncthreads();

    for (int k = 0; k < 2 * NW_TILE - 1; k++) {
        int c = k - t;
        if (c >= 0 && c < NW_TILE) {
            int diagv = s_sc[t][c] + s_sim[t][c];
            int up = s_sc[t][c + 1] - gap;
            int left = s_sc[t + 1][c] - gap;
            s_sc[t + 1][c + 1] = max(diagv, max(up, left));
        }
        __syncthreads();
    }

    for (int r = 0; r < NW_TILE; r++)
        score[(size_t)(row0 + 1 + r) * pitch + col0 + 1 + t] = s_sc[r + 1][t + 1];
}
