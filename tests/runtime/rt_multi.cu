/* rt_multi.cu - several kernels in one file: templates, dynamic and static shared
 * memory with barriers, a device function, a kernel launched many times in a loop,
 * kernels run one after another, and a launch after cudaDeviceReset. */
#include "rt_check.h"

template <typename T> __device__ T twice(T v) { return v + v; }

template <typename T> __global__ void fill(T *out, T base, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = twice(base) + (T)i;
}

/* block sum with dynamic shared memory */
__global__ void block_sum(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = buf[0];
}

/* reverse within a block through static shared memory */
__global__ void reverse64(int *d)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = d[blockIdx.x * 64 + t];
    __syncthreads();
    d[blockIdx.x * 64 + t] = s[63 - t];
}

__global__ void axpy(float a, const float *x, float *y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}

int main()
{
    rt_expect_warpsim();
    const int n = 1024;
    int *di, *dsum;
    float *df, *dy;
    double *dd;
    CHECK(cudaMalloc(&di, n * sizeof(int)));
    CHECK(cudaMalloc(&dsum, n * sizeof(int)));
    CHECK(cudaMalloc(&df, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMalloc(&dd, n * sizeof(double)));

    fill<int><<<n / 128, 128>>>(di, 5, n);
    fill<float><<<n / 128, 128>>>(df, 0.5f, n);
    fill<double><<<n / 128, 128>>>(dd, 1.25, n);
    CHECK(cudaGetLastError());
    static int hi[n];
    static float hf[n];
    static double hd[n];
    CHECK(cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(hi[i] == 10 + i && hf[i] == 1.0f + (float)i && hd[i] == 2.5 + i);

    const int threads = 256, blocks = n / threads;
    block_sum<<<blocks, threads, threads * sizeof(int)>>>(di, dsum, n);
    CHECK(cudaGetLastError());
    int sums[blocks];
    CHECK(cudaMemcpy(sums, dsum, sizeof sums, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int want = 0;
        for (int i = b * threads; i < (b + 1) * threads; i++)
            want += 10 + i;
        EXPECT(sums[b] == want);
    }

    reverse64<<<n / 64, 64>>>(di);
    CHECK(cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(hi[i] == 10 + (i / 64) * 64 + (63 - i % 64));

    CHECK(cudaMemset(dy, 0, n * sizeof(float)));
    for (int k = 0; k < 10; k++)
        axpy<<<4, 64>>>(2.0f, df, dy, n);
    /* the same kernel through cudaLaunchKernel (the launch path of -D__NV_LEGACY_LAUNCH
     * stubs and of programs that launch by hand) */
    float a = 2.0f;
    int nn = n;
    void *args[] = {&a, &df, &dy, &nn};
    CHECK(cudaLaunchKernel((const void *)axpy, dim3(4), dim3(64), args, 0, nullptr));
    CHECK(cudaDeviceSynchronize());
    static float hy[n];
    CHECK(cudaMemcpy(hy, dy, sizeof hy, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(hy[i] == 22.0f * hf[i]);
    CHECK(cudaFree(di));
    CHECK(cudaFree(dsum));
    CHECK(cudaFree(df));
    CHECK(cudaFree(dy));
    CHECK(cudaFree(dd));

    /* cudaDeviceReset drops the context; the next calls get a fresh one, PTX reloaded */
    CHECK(cudaDeviceReset());
    CHECK(cudaMalloc(&di, n * sizeof(int)));
    fill<int><<<n / 128, 128>>>(di, 1, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(hi[i] == 2 + i);
    CHECK(cudaFree(di));
    std::printf("multi: PASS (6 kernels, 17 launches)\n");
    return 0;
}
