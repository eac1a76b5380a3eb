// ubench_chase: pointer-chase latency microbenchmark.
//
// chain[] holds a single random cycle over the nodes (one node every `stride` words;
// chain[node] = index of the next node), so every load depends on the previous one.
// One thread walks `warm` steps first (to warm the caches with the working set), then
// `steps` timed steps; it stores the final index and the clock64() delta of the timed
// walk.

extern "C" __global__ void chase(const unsigned int *chain, unsigned int start, int warm,
                                 int steps, unsigned int *out_idx, long long *out_cycles)
{
    unsigned int idx = start;
    for (int s = 0; s < warm; s++)
        idx = chain[idx];
    long long t0 = clock64();
    for (int s = 0; s < steps; s++)
        idx = chain[idx];
    out_idx[0] = idx;  // the store waits for the last load, before the second clock read
    long long t1 = clock64();
    out_cycles[0] = t1 - t0;
}
