// ubench_stream: streaming-bandwidth microbenchmark, three grid-stride kernels over
// n 32-bit words:
//   stream_read : each thread sums (mod 2^32) the words it visits and writes the sum
//                 once to partial[global thread id];
//   stream_write: b[i] = (i * 2654435761) ^ seed;
//   stream_copy : c[i] = a[i].

extern "C" __global__ void stream_read(const unsigned int *__restrict__ a, int n,
                                       unsigned int *__restrict__ partial)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int nthreads = gridDim.x * blockDim.x;
    unsigned int acc = 0;
    /* 16-byte vector loads: each warp instruction asks for four lines at once, the
     * memory-level parallelism a PTX-level in-order pipeline can see */
    const uint4 *a4 = (const uint4 *)a;
    int n4 = n / 4;
    for (int i = tid; i < n4; i += nthreads) {
        uint4 v = a4[i];
        acc += (v.x + v.y) + (v.z + v.w);
    }
    for (int i = 4 * n4 + tid; i < n; i += nthreads)
        acc += a[i];
    partial[tid] = acc;
}

extern "C" __global__ void stream_write(unsigned int *__restrict__ b, int n, unsigned int seed)
{
    const int nthreads = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += nthreads)
        b[i] = ((unsigned int)i * 2654435761u) ^ seed;
}

extern "C" __global__ void stream_copy(const unsigned int *__restrict__ a,
                                       unsigned int *__restrict__ c, int n)
{
    const int nthreads = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += nthreads)
        c[i] = a[i];
}
