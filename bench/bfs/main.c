/* bfs: level-synchronous BFS on a uniform random graph, byte masks, no atomics (ISPASS/Rodinia style) */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK 256 /* the CTA size of the ISPASS-2009 BFS (MAX_THREADS_PER_BLOCK) */

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc) return rc;

    int n;
    switch (args.size) {
    case BENCH_SMALL: n = 2000; break;
    case BENCH_LARGE: n = 1 << 20; break;
    case BENCH_PAPER: n = 1 << 16; break; /* ISPASS-2009 BFS: graph65536, 256 CTAs of 256 */
    default: n = 1 << 17; break;
    }

    /* Random graph like the ISPASS-2009 input graph65536 (out-degree mean 6, 1..24,
     * targets uniform over all vertices, so neighbours have no address locality):
     * out-degree 1 + Poisson(5), capped at 24. */
    bench_rng rng;
    bench_rng_seed(&rng, 0xbf5);
    int *row = malloc(((size_t)n + 1) * sizeof(int));
    int *node = malloc((size_t)n * 2 * sizeof(int)); /* {first edge, edge count} */
    if (!row || !node) { fprintf(stderr, "bfs: out of memory\n"); return 1; }
    row[0] = 0;
    for (int v = 0; v < n; v++) {
        int d = 0; /* Poisson(5) by multiplying uniforms until below e^-5 */
        for (double p = bench_rng_float(&rng); p > 0.006737946999085467; p *= bench_rng_float(&rng)) d++;
        d = 1 + (d > 23 ? 23 : d);
        node[2 * v] = row[v];
        node[2 * v + 1] = d;
        row[v + 1] = row[v] + d;
    }
    const int m = row[n];
    int *adj = malloc((size_t)m * sizeof(int));
    if (!adj) { fprintf(stderr, "bfs: out of memory\n"); return 1; }
    for (int e = 0; e < m; e++) adj[e] = (int)(bench_rng_u32(&rng) % (uint32_t)n);

    int *h_cost = malloc((size_t)n * sizeof(int)), *r_cost = malloc((size_t)n * sizeof(int));
    unsigned char *h_mask = calloc((size_t)n, 1);
    int *queue = malloc((size_t)n * sizeof(int));
    if (!h_cost || !r_cost || !h_mask || !queue) { fprintf(stderr, "bfs: out of memory\n"); return 1; }
    const int source = 0;
    for (int v = 0; v < n; v++) h_cost[v] = -1;
    h_cost[source] = 0;

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("bfs", &ctx, &mod)) return 1;
    CUfunction k_expand, k_update;
    CU(cuModuleGetFunction(&k_expand, mod, "bfs_expand"));
    CU(cuModuleGetFunction(&k_update, mod, "bfs_update"));

    CUdeviceptr d_node, d_adj, d_mask, d_upd, d_vis, d_cost, d_over;
    CU(cuMemAlloc(&d_node, (size_t)n * 2 * sizeof(int)));
    CU(cuMemAlloc(&d_adj, (size_t)m * sizeof(int)));
    CU(cuMemAlloc(&d_mask, (size_t)n));
    CU(cuMemAlloc(&d_upd, (size_t)n));
    CU(cuMemAlloc(&d_vis, (size_t)n));
    CU(cuMemAlloc(&d_cost, (size_t)n * sizeof(int)));
    CU(cuMemAlloc(&d_over, sizeof(int)));
    CU(cuMemcpyHtoD(d_node, node, (size_t)n * 2 * sizeof(int)));
    CU(cuMemcpyHtoD(d_adj, adj, (size_t)m * sizeof(int)));
    CU(cuMemcpyHtoD(d_upd, h_mask, (size_t)n)); /* all zero */
    h_mask[source] = 1;
    CU(cuMemcpyHtoD(d_mask, h_mask, (size_t)n));
    CU(cuMemcpyHtoD(d_vis, h_mask, (size_t)n));
    CU(cuMemcpyHtoD(d_cost, h_cost, (size_t)n * sizeof(int)));

    const unsigned grid = (unsigned)((n + BLOCK - 1) / BLOCK);
    int iters = 0, over;
    do {
        over = 0;
        CU(cuMemcpyHtoD(d_over, &over, sizeof(int)));
        void *a1[] = {&d_node, &d_adj, &d_mask, &d_upd, &d_vis, &d_cost, &n};
        CU(cuLaunchKernel(k_expand, grid, 1, 1, BLOCK, 1, 1, 0, NULL, a1, NULL));
        void *a2[] = {&d_mask, &d_upd, &d_vis, &d_over, &n};
        CU(cuLaunchKernel(k_update, grid, 1, 1, BLOCK, 1, 1, 0, NULL, a2, NULL));
        CU(cuMemcpyDtoH(&over, d_over, sizeof(int)));
        iters++;
    } while (over && iters <= n);
    CU(cuMemcpyDtoH(h_cost, d_cost, (size_t)n * sizeof(int)));
    if (!args.quiet)
        printf("bfs: %d vertices, %d edges, %d iterations x 2 launches of %u CTAs x %d threads\n",
               n, m, iters, grid, BLOCK);

    /* CPU reference: queue BFS */
    for (int v = 0; v < n; v++) r_cost[v] = -1;
    int head = 0, tail = 0;
    r_cost[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
        int v = queue[head++];
        for (int e = row[v]; e < row[v + 1]; e++)
            if (r_cost[adj[e]] < 0) {
                r_cost[adj[e]] = r_cost[v] + 1;
                queue[tail++] = adj[e];
            }
    }
    if (!args.quiet) printf("bfs: %d of %d vertices reachable\n", tail, n);
    size_t bad = bench_check_i32("cost", h_cost, r_cost, (size_t)n);

    CU(cuMemFree(d_node)); CU(cuMemFree(d_adj)); CU(cuMemFree(d_mask)); CU(cuMemFree(d_upd));
    CU(cuMemFree(d_vis)); CU(cuMemFree(d_cost)); CU(cuMemFree(d_over));
    bench_fini(ctx, mod);
    free(row); free(node); free(adj); free(h_cost); free(r_cost); free(h_mask); free(queue);
    return bench_result("bfs", &args, bad);
}
