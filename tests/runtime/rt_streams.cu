/* rt_streams.cu - streams and events: work on two streams in order, cudaMemcpyAsync,
 * cudaMemsetAsync, cudaStreamWaitEvent, cudaEventElapsedTime (simulated time in timing
 * mode: a longer kernel takes longer), cudaStreamQuery / cudaEventQuery. */
#include "rt_check.h"

__global__ void add_one(int *d, int n, int reps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        for (int r = 0; r < reps; r++)
            d[i] += 1;
}

int main()
{
    rt_expect_warpsim();
    const int n = 4096;
    int *h, *d0, *d1;
    CHECK(cudaMallocHost((void **)&h, n * sizeof(int)));
    CHECK(cudaMalloc(&d0, n * sizeof(int)));
    CHECK(cudaMalloc(&d1, n * sizeof(int)));
    cudaStream_t s0, s1;
    CHECK(cudaStreamCreate(&s0));
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    cudaEvent_t start, mid, stop, nt;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&mid));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventCreateWithFlags(&nt, cudaEventDisableTiming));

    for (int i = 0; i < n; i++)
        h[i] = i;
    CHECK(cudaEventRecord(start, s0));
    CHECK(cudaMemcpyAsync(d0, h, n * sizeof(int), cudaMemcpyHostToDevice, s0));
    add_one<<<n / 256, 256, 0, s0>>>(d0, n, 1);
    CHECK(cudaEventRecord(mid, s0));
    add_one<<<n / 256, 256, 0, s0>>>(d0, n, 20);
    CHECK(cudaEventRecord(stop, s0));
    CHECK(cudaEventRecord(nt, s0));
    CHECK(cudaStreamWaitEvent(s1, stop, 0));
    CHECK(cudaMemsetAsync(d1, 0, n * sizeof(int), s1));
    CHECK(cudaMemcpyAsync(d1, d0, n * sizeof(int), cudaMemcpyDeviceToDevice, s1));
    add_one<<<n / 256, 256, 0, s1>>>(d1, n, 2);
    CHECK(cudaMemcpyAsync(h, d1, n * sizeof(int), cudaMemcpyDeviceToHost, s1));
    CHECK(cudaStreamSynchronize(s1));
    CHECK(cudaStreamQuery(s0));
    CHECK(cudaEventQuery(stop));
    CHECK(cudaEventSynchronize(stop));
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == i + 23);

    float t_short = -1, t_long = -1, t_all = -1;
    CHECK(cudaEventElapsedTime(&t_short, start, mid));
    CHECK(cudaEventElapsedTime(&t_long, mid, stop));
    CHECK(cudaEventElapsedTime(&t_all, start, stop));
    EXPECT(t_short >= 0 && t_long >= 0 && t_all >= t_short);
    EXPECT_ERR(cudaEventElapsedTime(&t_all, start, nt), cudaErrorInvalidResourceHandle);
    cudaGetLastError();
    const char *mode = std::getenv("WARPSIM_MODE");
    if (mode && !std::strcmp(mode, "timing")) {
        /* simulated time: both kernels take some. (Not "20 increments take longer than
         * 1": nvcc folds the loop into one add, and with mem.keep_state the second kernel
         * finds its data in L2 while the first fetched it from DRAM.) */
        EXPECT(t_short > 0 && t_long > 0);
    }
    std::printf("streams: PASS (kernel times %.6f ms and %.6f ms)\n", t_short, t_long);
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(mid));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaEventDestroy(nt));
    CHECK(cudaStreamDestroy(s0));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaFree(d0));
    CHECK(cudaFree(d1));
    CHECK(cudaFreeHost(h));
    return 0;
}
