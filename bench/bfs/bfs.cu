// bfs: level-synchronous breadth-first search over a CSR graph.
//   bfs_expand : one thread per vertex; a vertex in the current frontier scans its
//                adjacency list and claims every unvisited neighbour with atomicCAS
//                on its level, marks it in the next frontier and raises `changed`.
//   bfs_advance: one thread per vertex; next frontier -> current frontier, clear next.
// The host launches the pair once per level until `changed` stays 0.

extern "C" __global__ void bfs_expand(const int *__restrict__ row_start, const int *__restrict__ adj,
                                      const unsigned char *__restrict__ frontier,
                                      unsigned char *__restrict__ next, int *level_of,
                                      int *changed, int n, int level)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !frontier[v])
        return;
    const int end = row_start[v + 1];
    for (int e = row_start[v]; e < end; e++) {
        const int u = adj[e];
        if (level_of[u] < 0 && atomicCAS(&level_of[u], -1, level + 1) == -1) {
            next[u] = 1;
            *changed = 1;
        }
    }
}

extern "C" __global__ void bfs_advance(unsigned char *__restrict__ frontier,
                                       unsigned char *__restrict__ next, int n)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) {
        frontier[v] = next[v];
        next[v] = 0;
    }
}
