// sad: full-search block motion estimation by sums of absolute differences.
//  sad_4x4   - one block per 4x4 macroblock of the current frame: the block stages the
//              (4+2R)^2 reference search area (edge-clamped) in shared memory, then each
//              thread evaluates search positions p = tid, tid+blockDim, ... of the
//              (2R+1)^2 window and stores SAD4[mb][p].
//  sad_8x8   - SAD8[mb8][p] = sum of the four 4x4 SADs that make up each 8x8 block.
//  sad_min   - one block per 8x8 block: shared-memory argmin over the positions (ties go
//              to the lower position index) -> best SAD and best position per 8x8 block.
// Position index p = (dy + R) * (2R + 1) + (dx + R), dx, dy in [-R, R].

#define SAD_MAX_R 16
#define SAD_AREA (4 + 2 * SAD_MAX_R)
#define SAD_MIN_THREADS 128  // blockDim.x of sad_min (power of two)

extern "C" __global__ void sad_4x4(int *__restrict__ sad4, const unsigned char *__restrict__ cur,
                                   const unsigned char *__restrict__ ref, int width, int height,
                                   int radius)
{
    __shared__ unsigned char area[SAD_AREA * SAD_AREA];
    __shared__ unsigned char blk[16];
    const int mbx = blockIdx.x, mby = blockIdx.y;
    const int side = 4 + 2 * radius;
    const int ox = mbx * 4 - radius, oy = mby * 4 - radius;

    for (int i = threadIdx.x; i < side * side; i += blockDim.x) {
        int ay = i / side, ax = i - ay * side;
        int gx = min(max(ox + ax, 0), width - 1);
        int gy = min(max(oy + ay, 0), height - 1);
        area[ay * SAD_AREA + ax] = ref[gy * width + gx];
    }
    if (threadIdx.x < 16)
        blk[threadIdx.x] = cur[(mby * 4 + (threadIdx.x >> 2)) * width + mbx * 4 + (threadIdx.x & 3)];
    __syncthreads();

    int c[16];
#pragma unroll
    for (int k = 0; k < 16; k++)
        c[k] = blk[k];

    const int span = 2 * radius + 1;
    const int npos = span * span;
    int *out = sad4 + (size_t)(mby * gridDim.x + mbx) * npos;
    for (int p = threadIdx.x; p < npos; p += blockDim.x) {
        int py = p / span, px = p - py * span;
        const unsigned char *a = area + py * SAD_AREA + px;
        int s = 0;
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int i = 0; i < 4; i++)
                s += abs(c[j * 4 + i] - (int)a[j * SAD_AREA + i]);
        out[p] = s;
    }
}

extern "C" __global__ void sad_8x8(int *__restrict__ sad8, const int *__restrict__ sad4,
                                   int mbw4, int mbw8, int nmb8, int npos)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= nmb8 * npos)
        return;
    int m8 = idx / npos, p = idx - m8 * npos;
    int by = m8 / mbw8, bx = m8 - by * mbw8;
    size_t m4 = (size_t)(2 * by) * mbw4 + 2 * bx;
    int s = sad4[m4 * npos + p] + sad4[(m4 + 1) * npos + p] +
            sad4[(m4 + mbw4) * npos + p] + sad4[(m4 + mbw4 + 1) * npos + p];
    sad8[idx] = s;
}

extern "C" __global__ void sad_min(int *__restrict__ best_sad, int *__restrict__ best_pos,
                                   const int *__restrict__ sad, int npos)
{
    __shared__ int s_val[SAD_MIN_THREADS];
    __shared__ int s_pos[SAD_MIN_THREADS];
    const int tid = threadIdx.x;
    const int *row = sad + (size_t)blockIdx.x * npos;

    int bv = 0x7fffffff, bp = 0x7fffffff;
    for (int p = tid; p < npos; p += SAD_MIN_THREADS) {
        int v = row[p];
        if (v < bv) {  // p increases, so the first minimum of this thread is kept
            bv = v;
            bp = p;
        }
    }
    s_val[tid] = bv;
    s_pos[tid] = bp;
    __syncthreads();
    for (int half = SAD_MIN_THREADS / 2; half > 0; half >>= 1) {
        if (tid < half) {
            int ov = s_val[tid + half], op = s_pos[tid + half];
            if (ov < s_val[tid] || (ov == s_val[tid] && op < s_pos[tid])) {
                s_val[tid] = ov;
                s_pos[tid] = op;
            }
        }
        __syncthreads();
    }
    if (tid == 0) {
        best_sad[blockIdx.x] = s_val[0];
        best_pos[blockIdx.x] = s_pos[0];
    }
}
