// mc: Monte-Carlo pricing of European call options.
// Grid: blockIdx.y = option, blockIdx.x = slice of that option's paths.  Every
// thread owns an xorshift32 stream seeded from its global id, draws normals with
// the Box-Muller transform (two per pair of uniforms) and sums the undiscounted
// payoffs of its paths; the CTA then tree-reduces the sums in shared memory and
// writes one partial sum per CTA.  The host adds the partials and discounts.

#define MC_BLOCK 256

__device__ __forceinline__ unsigned mc_seed(unsigned id)
{
    // murmur3-style finaliser, so neighbouring ids get unrelated streams
    unsigned h = id * 0x9E3779B1u + 0x7F4A7C15u;
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h ? h : 0x6D2B79F5u;
}

__device__ __forceinline__ unsigned mc_next(unsigned &s)
{
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
}

extern "C" __global__ void mc_price(const float *__restrict__ spot, const float *__restrict__ strike,
                                    const float *__restrict__ years, const float *__restrict__ rate,
                                    const float *__restrict__ vol, float *__restrict__ partial,
                                    int pairs_per_thread)
{
    __shared__ float sums[MC_BLOCK];

    const int opt = blockIdx.y;
    const unsigned gid = (blockIdx.y * gridDim.x + blockIdx.x) * MC_BLOCK + threadIdx.x;
    unsigned state = mc_seed(gid);

    const float s0 = spot[opt], k = strike[opt], t = years[opt];
    const float sigma = vol[opt];
    const float drift = (rate[opt] - 0.5f * sigma * sigma) * t;
    const float diffusion = sigma * sqrtf(t);

    float acc = 0.0f;
    for (int p = 0; p < pairs_per_thread; p++) {
        // u1 in (0,1] (safe for log), u2 in [0,1)
        const float u1 = (float)((mc_next(state) >> 8) + 1u) * (1.0f / 16777216.0f);
        const float u2 = (float)(mc_next(state) >> 8) * (1.0f / 16777216.0f);
        const float radius = sqrtf(-2.0f * logf(u1));
        const float angle = 6.28318530717958647692f * u2;
        const float z0 = radius * cosf(angle);
        const float z1 = radius * sinf(angle);
        const float st0 = s0 * expf(drift + diffusion * z0);
        const float st1 = s0 * expf(drift + diffusion * z1);
        acc += fmaxf(st0 - k, 0.0f);
        acc += fmaxf(st1 - k, 0.0f);
    }

    sums[threadIdx.x] = acc;
    __syncthreads();
    for (int half = MC_BLOCK / 2; half > 0; half >>= 1) {
        if (threadIdx.x < half)
            sums[threadIdx.x] += sums[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[opt * gridDim.x + blockIdx.x] = sums[0];
}
