// mersennetwister.cu - parallel MT19937: every thread owns a complete, independent
// Mersenne Twister state (624 words, seeded from its own 32-bit seed) held in
// per-thread local memory, produces n 32-bit uniforms and turns consecutive pairs
// into standard normals with the Box-Muller transform
// (seed004 / AMD APP SDK style MersenneTwister).
//
// The state is advanced one word at a time (the "incremental" form of the twist):
// word i is replaced using words i+1 and i+397 (mod 624) right before it is
// tempered and output. Processing the words in order 0..623, 0..623, ... gives
// exactly the sequence of the usual block-wise twist.

#define MT_N 624
#define MT_M 397
#define MT_MATRIX_A 0x9908b0dfu
#define MT_UPPER 0x80000000u
#define MT_LOWER 0x7fffffffu

// seeds[nthreads]; raw and normals are [n][nthreads] (value j of thread t at
// j*nthreads + t, so each output store of a warp is coalesced). n is even.
extern "C" __global__ void __launch_bounds__(128)
mt_generate(const unsigned *__restrict__ seeds, unsigned *__restrict__ raw,
            float *__restrict__ normals, int n, int nthreads)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= nthreads)
        return;

    unsigned mt[MT_N];
    unsigned x = seeds[tid];
    mt[0] = x;
    for (int k = 1; k < MT_N; k++) {
        x = 1812433253u * (x ^ (x >> 30)) + (unsigned)k;
        mt[k] = x;
    }

    int i = 0, i1 = 1, im = MT_M;
    for (int j = 0; j < n; j += 2) {
        unsigned out[2];
        for (int h = 0; h < 2; h++) {
            unsigned y = (mt[i] & MT_UPPER) | (mt[i1] & MT_LOWER);
            y = mt[im] ^ (y >> 1) ^ ((y & 1u) ? MT_MATRIX_A : 0u);
            mt[i] = y;
            i = i1;
            i1 = (i1 == MT_N - 1) ? 0 : i1 + 1;
            im = (im == MT_N - 1) ? 0 : im + 1;
            // tempering
            y ^= y >> 11;
            y ^= (y << 7) & 0x9d2c5680u;
            y ^= (y << 15) & 0xefc60000u;
            y ^= y >> 18;
            out[h] = y;
        }
        size_t o = (size_t)j * nthreads + tid;
        raw[o] = out[0];
        raw[o + nthreads] = out[1];

        // Box-Muller: u1 in (0,1] (safe for log), u2 in [0,1); both exact floats.
        float u1 = (float)((out[0] >> 8) + 1u) * (1.0f / 16777216.0f);
        float u2 = (float)(out[1] >> 8) * (1.0f / 16777216.0f);
        float rad = sqrtf(-2.0f * logf(u1));
        float sn, cs;
        sincospif(2.0f * u2, &sn, &cs);
        normals[o] = rad * cs;
        normals[o + nthreads] = rad * sn;
    }
}
