/* bfs: level-synchronous frontier BFS on an irregular-degree CSR graph */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 256

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse_paper(&args, argc, argv, NULL);
    if (rc) return rc;

    int n, max_deg;
    switch (args.size) {
    case BENCH_SMALL: n = 2000; max_deg = 64; break;
    case BENCH_LARGE: n = 1 << 20; max_deg = 4096; break;
    case BENCH_PAPER: n = 1 << 16; max_deg = 1024; break; /* ISPASS-2009 BFS: 65536 nodes */
    default: n = 1 << 17; max_deg = 1024; break;
    }

    /* Degrees: Pareto(x_m = 2, alpha = 1.6), capped.  Targets: 3/4 within +-512 of the
     * source (long chains, many levels), 1/4 uniform (small-world shortcuts). */
    bench_rng rng;
    bench_rng_seed(&rng, 0xbf5);
    int *row = malloc(((size_t)n + 1) * sizeof(int));
    if (!row) { fprintf(stderr, "bfs: out of memory\n"); return 1; }
    row[0] = 0;
    for (int v = 0; v < n; v++) {
        float u = bench_rng_float(&rng);
        int d = (int)(2.0f / powf(1.0f - u, 0.625f));
        if (d > max_deg) d = max_deg;
        row[v + 1] = row[v] + d;
    }
    const int m = row[n];
    int *adj = malloc((size_t)m * sizeof(int));
    if (!adj) { fprintf(stderr, "bfs: out of memory\n"); return 1; }
    for (int v = 0; v < n; v++)
        for (int e = row[v]; e < row[v + 1]; e++) {
            uint32_t r = bench_rng_u32(&rng);
            if ((r & 3u) != 0) {
                int off = (int)((r >> 2) % 1024u) - 512;
                adj[e] = (int)(((long)v + off + n) % n);
            } else {
                adj[e] = (int)((r >> 2) % (uint32_t)n);
            }
        }

    int *h_level = malloc((size_t)n * sizeof(int)), *r_level = malloc((size_t)n * sizeof(int));
    unsigned char *h_mask = calloc((size_t)n, 1);
    int *queue = malloc((size_t)n * sizeof(int));
    if (!h_level || !r_level || !h_mask || !queue) { fprintf(stderr, "bfs: out of memory\n"); return 1; }
    const int source = 0;
    for (int v = 0; v < n; v++) h_level[v] = -1;
    h_level[source] = 0;

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("bfs", &ctx, &mod)) return 1;
    CUfunction k_expand, k_advance;
    CU(cuModuleGetFunction(&k_expand, mod, "bfs_expand"));
    CU(cuModuleGetFunction(&k_advance, mod, "bfs_advance"));

    CUdeviceptr d_row, d_adj, d_front, d_next, d_level, d_changed;
    CU(cuMemAlloc(&d_row, ((size_t)n + 1) * sizeof(int)));
    CU(cuMemAlloc(&d_adj, (size_t)m * sizeof(int)));
    CU(cuMemAlloc(&d_front, (size_t)n));
    CU(cuMemAlloc(&d_next, (size_t)n));
    CU(cuMemAlloc(&d_level, (size_t)n * sizeof(int)));
    CU(cuMemAlloc(&d_changed, sizeof(int)));
    CU(cuMemcpyHtoD(d_row, row, ((size_t)n + 1) * sizeof(int)));
    CU(cuMemcpyHtoD(d_adj, adj, (size_t)m * sizeof(int)));
    CU(cuMemcpyHtoD(d_next, h_mask, (size_t)n)); /* all zero */
    h_mask[source] = 1;
    CU(cuMemcpyHtoD(d_front, h_mask, (size_t)n));
    CU(cuMemcpyHtoD(d_level, h_level, (size_t)n * sizeof(int)));

    const unsigned grid = (unsigned)((n + BLOCK - 1) / BLOCK);
    int level = 0, changed;
    do {
        changed = 0;
        CU(cuMemcpyHtoD(d_changed, &changed, sizeof(int)));
        void *a1[] = {&d_row, &d_adj, &d_front, &d_next, &d_level, &d_changed, &n, &level};
        CU(cuLaunchKernel(k_expand, grid, 1, 1, BLOCK, 1, 1, 0, NULL, a1, NULL));
        void *a2[] = {&d_front, &d_next, &n};
        CU(cuLaunchKernel(k_advance, grid, 1, 1, BLOCK, 1, 1, 0, NULL, a2, NULL));
        CU(cuMemcpyDtoH(&changed, d_changed, sizeof(int)));
        level++;
    } while (changed && level <= n);
    CU(cuMemcpyDtoH(h_level, d_level, (size_t)n * sizeof(int)));
    if (!args.quiet)
        printf("bfs: %d vertices, %d edges, %d levels = %d x 2 launches of %u CTAs x %d threads\n",
               n, m, level, level, grid, BLOCK);

    /* CPU reference: queue BFS */
    for (int v = 0; v < n; v++) r_level[v] = -1;
    int head = 0, tail = 0;
    r_level[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
        int v = queue[head++];
        for (int e = row[v]; e < row[v + 1]; e++)
            if (r_level[adj[e]] < 0) {
                r_level[adj[e]] = r_level[v] + 1;
                queue[tail++] = adj[e];
            }
    }
    if (!args.quiet) printf("bfs: %d of %d vertices reachable\n", tail, n);
    size_t bad = bench_check_i32("level", h_level, r_level, (size_t)n);

    CU(cuMemFree(d_row)); CU(cuMemFree(d_adj)); CU(cuMemFree(d_front));
    CU(cuMemFree(d_next)); CU(cuMemFree(d_level)); CU(cuMemFree(d_changed));
    bench_fini(ctx, mod);
    free(row); free(adj); free(h_level); free(r_level); free(h_mask); free(queue);
    return bench_result("bfs", &args, bad);
}
