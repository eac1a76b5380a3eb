// bfs: level-synchronous breadth-first search, in the structure of the ISPASS-2009 /
// Rodinia BFS (Harish and Narayanan): a node array of {first edge, edge count} pairs,
// an edge array, byte masks, no atomics.
//   bfs_expand: one thread per vertex; a vertex in the frontier (mask) leaves it and
//               scans its edges; every neighbour not yet visited gets
//               cost = cost[v] + 1 and is flagged in `updating`.  Several frontier
//               vertices may write the same neighbour; they all write the same cost.
//   bfs_update: one thread per vertex; a flagged vertex joins the frontier, becomes
//               visited and raises `over`; the flag is cleared.
// The host launches the pair once per level until `over` stays 0.

extern "C" __global__ void bfs_expand(const int2 *node, const int *adj, unsigned char *mask,
                                      unsigned char *updating, const unsigned char *visited,
                                      int *cost, int n)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && mask[v]) {
        mask[v] = 0;
        const int2 nd = node[v];  // {first edge, edge count}
        for (int e = nd.x; e < nd.x + nd.y; e++) {
            const int u = adj[e];
            if (!visited[u]) {
                cost[u] = cost[v] + 1;
                updating[u] = 1;
            }
        }
    }
}

extern "C" __global__ void bfs_update(unsigned char *mask, unsigned char *updating,
                                      unsigned char *visited, int *over, int n)
{
    const int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && updating[v]) {
        mask[v] = 1;
        visited[v] = 1;
        *over = 1;
        updating[v] = 0;
    }
}
