// pf: pathfinder, min-cost path down a grid of integer weights.
// cost[r][c] = wall[r][c] + min(cost[r-1][c-1], cost[r-1][c], cost[r-1][c+1]).
// One launch advances `steps` rows (steps <= halo).  A CTA of PF_BLOCK threads
// loads the previous row's costs for PF_BLOCK consecutive columns but only owns the
// PF_BLOCK - 2*halo columns in the middle: after s steps only threads
// s .. PF_BLOCK-1-s still hold exact values (the valid region shrinks by one column
// on each side per row), so the outermost `halo` columns on each side are
// recomputed redundantly by the neighbouring CTAs.

#define PF_BLOCK 256
#define PF_INF 0x3fffffff

extern "C" __global__ void pf_rows(const int *__restrict__ wall, const int *__restrict__ src,
                                   int *__restrict__ dst, int cols, int first_row, int steps,
                                   int halo)
{
    __shared__ int cost[PF_BLOCK];

    const int t = threadIdx.x;
    const int owned = PF_BLOCK - 2 * halo;
    const int c = blockIdx.x * owned - halo + t;
    const bool in_range = c >= 0 && c < cols;

    int mine = in_range ? src[c] : PF_INF;
    for (int s = 0; s < steps; s++) {
        cost[t] = mine;
        __syncthreads();
        if (in_range) {
            int best = mine;
            if (t > 0 && c > 0)
                best = min(best, cost[t - 1]);
            if (t < PF_BLOCK - 1 && c < cols - 1)
                best = min(best, cost[t + 1]);
            mine = best + wall[(size_t)(first_row + s) * cols + c];
        }
        __syncthreads();
    }
    if (in_range && t >= halo && t < PF_BLOCK - halo)
        dst[c] = mine;
}
