// radixsort.cu - LSD radix sort of 32-bit unsigned keys, 4 bits per pass
// (seed004 / AMD APP SDK style RadixSort). Each of the 8 passes runs three kernels:
//   radix_histogram  block b counts the digits of its tile of TILE keys (shared-
//                    memory atomics) and writes hist[digit * nblocks + b];
//   scan_exclusive   one block turns hist into exclusive prefix sums, so that
//                    hist[d * nblocks + b] = number of keys that go before the first
//                    key of digit d from tile b;
//   radix_scatter    block b ranks its keys stably (thread t owns KEYS_PER_THREAD
//                    consecutive keys; per-thread digit counts are prefix-summed per
//                    digit in shared memory) and writes each key to its final place.

#define RADIX_BITS 4
#define BUCKETS 16
#define SORT_BLOCK 256
#define KEYS_PER_THREAD 4
#define TILE (SORT_BLOCK * KEYS_PER_THREAD)
#define SCAN_BLOCK 256

// grid nblocks = ceil(n / TILE), block SORT_BLOCK
extern "C" __global__ void __launch_bounds__(SORT_BLOCK)
radix_histogram(const unsigned *__restrict__ keys, unsigned *__restrict__ hist, unsigned n, int shift)
{
    __shared__ unsigned h[BUCKETS];
    unsigned tid = threadIdx.x;
    if (tid < BUCKETS)
        h[tid] = 0;
    __syncthreads();
    unsigned base = blockIdx.x * TILE;
    for (int j = 0; j < KEYS_PER_THREAD; j++) {
        unsigned idx = base + j * SORT_BLOCK + tid;  // coalesced; order does not matter here
        if (idx < n)
            atomicAdd(&h[(keys[idx] >> shift) & (BUCKETS - 1)], 1u);
    }
    __syncthreads();
    if (tid < BUCKETS)
        hist[tid * gridDim.x + blockIdx.x] = h[tid];
}

// One block of SCAN_BLOCK threads: in-place exclusive prefix sum of data[0..len).
// Thread t sums a contiguous segment, the segment totals are scanned in shared
// memory (Hillis-Steele), then each thread rewrites its segment.
extern "C" __global__ void __launch_bounds__(SCAN_BLOCK)
scan_exclusive(unsigned *__restrict__ data, unsigned len)
{
    __shared__ unsigned tot[SCAN_BLOCK];
    unsigned tid = threadIdx.x;
    unsigned per = (len + SCAN_BLOCK - 1) / SCAN_BLOCK;
    unsigned begin = min(tid * per, len), end = min(begin + per, len);
    unsigned s = 0;
    for (unsigned i = begin; i < end; i++)
        s += data[i];
    tot[tid] = s;
    __syncthreads();
    for (unsigned off = 1; off < SCAN_BLOCK; off <<= 1) {
        unsigned add = tid >= off ? tot[tid - off] : 0u;
        __syncthreads();
        tot[tid] += add;
        __syncthreads();
    }
    unsigned run = tot[tid] - s;  // inclusive -> exclusive
    for (unsigned i = begin; i < end; i++) {
        unsigned x = data[i];
        data[i] = run;
        run += x;
    }
}

// grid nblocks, block SORT_BLOCK; offsets = scanned hist of this pass.
extern "C" __global__ void __launch_bounds__(SORT_BLOCK)
radix_scatter(const unsigned *__restrict__ in, unsigned *__restrict__ out,
              const unsigned *__restrict__ offsets, unsigned n, int shift)
{
    __shared__ unsigned cnt[BUCKETS][SORT_BLOCK];  // cnt[d][t]: digit-d keys of thread t
    __shared__ unsigned seg[BUCKETS][16];          // per-digit totals of 16-thread segments
    __shared__ unsigned gofs[BUCKETS];             // where digit d of this tile starts in out
    unsigned tid = threadIdx.x;
    unsigned first = blockIdx.x * TILE + tid * KEYS_PER_THREAD;

    unsigned key[KEYS_PER_THREAD];
    for (int d = 0; d < BUCKETS; d++)
        cnt[d][tid] = 0;
    for (int j = 0; j < KEYS_PER_THREAD; j++) {
        key[j] = first + j < n ? in[first + j] : 0u;
        if (first + j < n)
            cnt[(key[j] >> shift) & (BUCKETS - 1)][tid]++;
    }
    if (tid < BUCKETS)
        gofs[tid] = offsets[tid * gridDim.x + blockIdx.x];
    __syncthreads();

    // exclusive scan of every row cnt[d][0..SORT_BLOCK): thread (r, s) first scans
    // the 16 entries of segment s of row r ...
    unsigned r = tid / 16, s = tid % 16;
    unsigned *row = &cnt[r][s * 16];
    unsigned run = 0;
    for (int q = 0; q < 16; q++) {
        unsigned c = row[q];
        row[q] = run;
        run += c;
    }
    seg[r][s] = run;
    __syncthreads();
    // ... 16 threads scan the segment totals of one row each ...
    if (tid < BUCKETS) {
        unsigned acc = 0;
        for (int q = 0; q < 16; q++) {
            unsigned c = seg[tid][q];
            seg[tid][q] = acc;
            acc += c;
        }
    }
    __syncthreads();
    // ... and the segment offsets are added back.
    unsigned add = seg[r][s];
    for (int q = 0; q < 16; q++)
        row[q] += add;
    __syncthreads();

    // thread t's keys in their original order: stable
    for (int j = 0; j < KEYS_PER_THREAD; j++) {
        if (first + j < n) {
            unsigned d = (key[j] >> shift) & (BUCKETS - 1);
            unsigned rank = cnt[d][tid]++;
            out[gofs[d] + rank] = key[j];
        }
    }
}
