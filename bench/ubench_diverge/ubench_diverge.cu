// ubench_diverge: branch-divergence microbenchmark.
//
// Each thread runs `iters` iterations; in every iteration a hash of (global thread id,
// iteration) decides whether it takes the `if` side (probability taken_pct / 100) or
// the `else` side.  The two sides are different chains of dependent integer operations
// (long enough that the compiler keeps a real branch rather than predicating), so the
// fraction of divergent warp-iterations is controlled by taken_pct: 0 and 100 never
// diverge, 50 diverges almost always.

__device__ __forceinline__ unsigned int dv_hash(unsigned int tid, unsigned int it)
{
    unsigned int h = tid * 0x9E3779B1u ^ (it + 0x7F4A7C15u) * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return h;
}

extern "C" __global__ void diverge(unsigned int *__restrict__ out, int iters,
                                   unsigned int taken_pct)
{
    const unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int acc = tid;
    for (int it = 0; it < iters; it++) {
        unsigned int h = dv_hash(tid, (unsigned int)it);
        if (h % 100u < taken_pct) {
            // `if` side: multiply / rotate / xor chain.
            acc = acc * 0x01000193u + h;
            acc = (acc << 7) | (acc >> 25);
            acc ^= acc >> 11;
            acc = acc * 0x27D4EB2Fu + 0x165667B1u;
            acc = (acc << 13) | (acc >> 19);
            acc ^= h >> 3;
            acc = acc * 5u + 0xE6546B64u;
            acc ^= acc >> 16;
        } else {
            // `else` side: add / shift / subtract chain.
            acc = acc + (h ^ 0xA5A5A5A5u);
            acc ^= acc << 9;
            acc = acc - (acc >> 5) + 0x3C6EF372u;
            acc ^= acc >> 7;
            acc = acc + (acc << 3) + h;
            acc ^= acc >> 13;
            acc = acc * 0x61C88647u;
            acc ^= acc >> 17;
        }
    }
    out[tid] = acc;
}
