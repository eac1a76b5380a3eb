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
    for (int i = tid; i < n; i += nthreads)
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
