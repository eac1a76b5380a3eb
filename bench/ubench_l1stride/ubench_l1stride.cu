// ubench_l1stride: L1 data-cache set conflicts of a strided warp access.
//
// One warp per block; lane i reads the word at byte offset i * stride of one array, the
// same 32 addresses every iteration, through the L1 (ld.global.ca, issued each iteration
// because the asm is volatile). The 32 lines fit a 16 KB L1D whenever the set-index
// function spreads them over at least 8 sets of a 4-way cache; a linear index (set =
// line number mod sets) puts every power-of-two stride >= sets x line bytes into one set,
// so the lines evict each other (and, while misses are outstanding, every line of that
// set is reserved: cache-set-full refusals). The hit ratio and the refusals per stride
// are in the simulator's statistics; thread 0 records its loop's clock64() delta.

#define LS_LANES 32

extern "C" __global__ void l1_stride(const unsigned int *__restrict__ a, unsigned int *__restrict__ out,
                                     long long *__restrict__ cycles, int stride_words, int iters)
{
    const int lane = threadIdx.x;
    const unsigned int *p = a + (size_t)lane * (size_t)stride_words;
    unsigned int acc = (unsigned int)lane;
    long long t0 = clock64();
    for (int it = 0; it < iters; it++) {
        unsigned int v;
        asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p));
        acc = acc * 31u + (v ^ (unsigned int)it);
    }
    long long t1 = clock64();
    out[blockIdx.x * LS_LANES + lane] = acc;
    if (lane == 0)
        cycles[blockIdx.x] = t1 - t0;
}
