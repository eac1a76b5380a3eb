// ubench_smem: shared-memory bank-conflict microbenchmark.
//
// The block fills a 32 KiB shared array (conflict-free, consecutive words), then every
// thread repeatedly loads word (tid * stride) mod SM_WORDS through a volatile pointer
// (so each iteration really issues a shared load) and folds it into an accumulator.
// With 32 banks of 4-byte words, the 32 lanes of a warp touch 32 / gcd(s, 32) distinct
// banks, i.e. a gcd(s, 32)-way bank conflict: stride 1 is conflict-free, stride 32 puts
// the whole warp on one bank.  Loads only, so any stride is race-free.  Thread 0
// records the clock64() delta of its loop per block (information only).

#define SM_THREADS 256
#define SM_WORDS 8192  // 32 KiB; must be a power of two

extern "C" __global__ void smem_stride(unsigned int *__restrict__ out,
                                       long long *__restrict__ cycles, int stride, int iters)
{
    __shared__ unsigned int buf[SM_WORDS];
    const int tid = threadIdx.x;
    for (int i = tid; i < SM_WORDS; i += SM_THREADS)
        buf[i] = (unsigned int)i * 0x9E3779B9u + 0x7F4A7C15u;
    __syncthreads();

    volatile unsigned int *vbuf = buf;
    const int idx = (tid * stride) & (SM_WORDS - 1);
    unsigned int acc = (unsigned int)tid;
    long long t0 = clock64();
    for (int it = 0; it < iters; it++)
        acc = acc * 31u + (vbuf[idx] ^ (unsigned int)it);
    long long t1 = clock64();

    out[blockIdx.x * SM_THREADS + tid] = acc;
    if (tid == 0)
        cycles[blockIdx.x] = t1 - t0;
}
