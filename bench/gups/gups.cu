// gups: random-access (GUPS-style) read-modify-write updates of a 64-bit table.
// Every thread owns a xorshift64* generator seeded from its global id; each draw picks
// a table word (low bits of the draw after mixing) and XORs the draw into it.
// atomicXor makes the final table independent of the order of the updates.

__device__ __forceinline__ unsigned long long gups_seed(unsigned long long seed,
                                                        unsigned long long id)
{
    // splitmix64 finaliser of (seed + id * golden); never returns 0 in practice,
    // but guard anyway because xorshift has 0 as a fixed point.
    unsigned long long z = seed + (id + 1ull) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return z ? z : 0x2545F4914F6CDD1Dull;
}

extern "C" __global__ void gups_update(unsigned long long *table, unsigned long long mask,
                                       unsigned long long seed, int updates)
{
    unsigned long long id = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long s = gups_seed(seed, id);
    for (int k = 0; k < updates; k++) {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        unsigned long long v = s * 0x2545F4914F6CDD1Dull;
        atomicXor(&table[(v >> 20) & mask], v);
    }
}
