/* rt_misc.cu - the remaining implemented calls: device flags and cache configuration,
 * cudaInitDevice, cudaChooseDevice, stream priorities and flags, cudaEventRecordWithFlags,
 * cudaFuncSetCacheConfig / cudaFuncSetAttribute, occupancy with flags and with dynamic
 * shared memory, asynchronous symbol and 2D copies, cudaMemset2DAsync, pointer attributes
 * of host memory, and the runtime from a second host thread. */
#include <thread>

#include "rt_check.h"

__constant__ int kconst[16];
__device__ float dscale;

__global__ void use_const(int *out)
{
    extern __shared__ int s[];
    int t = threadIdx.x;
    s[t] = kconst[t % 16];
    __syncthreads();
    out[t] = s[(t + 1) % blockDim.x] * (int)dscale;
}

int main()
{
    rt_expect_warpsim();
    CHECK(cudaInitDevice(0, 0, 0));
    CHECK(cudaSetDeviceFlags(cudaDeviceScheduleAuto));
    unsigned flags = 99;
    CHECK(cudaGetDeviceFlags(&flags));
    CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    cudaFuncCache cc;
    CHECK(cudaDeviceGetCacheConfig(&cc));
    cudaDeviceProp want;
    std::memset(&want, 0, sizeof want);
    want.major = 2;
    int dev = -1;
    CHECK(cudaChooseDevice(&dev, &want));
    EXPECT(dev == 0);
    int lo = 1, hi = 1;
    CHECK(cudaDeviceGetStreamPriorityRange(&lo, &hi));

    cudaStream_t s;
    CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, hi));
    CHECK(cudaStreamGetFlags(s, &flags));
    EXPECT(flags == cudaStreamNonBlocking);
    CHECK(cudaFuncSetCacheConfig(use_const, cudaFuncCachePreferL1));
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    CHECK(cudaFuncSetAttribute(use_const, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               (int)p.sharedMemPerBlock));
    EXPECT_ERR(cudaFuncSetAttribute(use_const, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    (int)p.sharedMemPerBlock * 4),
               cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);   /* and clears it */
    int b0 = 0, b1 = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&b0, use_const, 64, 0,
                                                                 cudaOccupancyDefault));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&b1, use_const, 64,
                                                        p.sharedMemPerMultiprocessor / 2));
    EXPECT(b0 > 0 && b1 >= 1 && b1 <= 2 && b1 <= b0);

    int hk[16];
    for (int i = 0; i < 16; i++)
        hk[i] = i + 1;
    float sc = 3.0f;
    CHECK(cudaMemcpyToSymbolAsync(kconst, hk, sizeof hk, 0, cudaMemcpyHostToDevice, s));
    CHECK(cudaMemcpyToSymbolAsync(dscale, &sc, sizeof sc, 0, cudaMemcpyHostToDevice, s));
    int *d;
    CHECK(cudaMalloc(&d, 64 * sizeof(int)));
    use_const<<<1, 64, 64 * sizeof(int), s>>>(d);
    CHECK(cudaGetLastError());
    cudaEvent_t ev;
    CHECK(cudaEventCreate(&ev));
    CHECK(cudaEventRecordWithFlags(ev, s, 0));
    CHECK(cudaEventSynchronize(ev));
    int out[64];
    CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++)
        EXPECT(out[t] == hk[(t + 1) % 64 % 16] * 3);
    int back[16];
    CHECK(cudaMemcpyFromSymbolAsync(back, kconst, sizeof back, 0, cudaMemcpyDeviceToHost, s));
    EXPECT(std::memcmp(back, hk, sizeof hk) == 0);

    /* 2D asynchronous copies and memset */
    size_t pitch;
    char *m;
    CHECK(cudaMallocPitch((void **)&m, &pitch, 10, 4));
    CHECK(cudaMemset2DAsync(m, pitch, 7, 10, 4, s));
    char h2[4][10];
    CHECK(cudaMemcpy2DAsync(h2, 10, m, pitch, 10, 4, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 10; x++)
            EXPECT(h2[y][x] == 7);

    /* host memory in pointer attributes */
    void *ph;
    CHECK(cudaMallocHost(&ph, 100));
    cudaPointerAttributes pa;
    CHECK(cudaPointerGetAttributes(&pa, (char *)ph + 10));
    EXPECT(pa.type == cudaMemoryTypeHost);
    CHECK(cudaPointerGetAttributes(&pa, &pa));
    EXPECT(pa.type == cudaMemoryTypeUnregistered);
    CHECK(cudaFreeHost(ph));

    /* a second host thread uses the same device, memory and kernels */
    int thread_ok = 0;
    std::thread th([&] {
        int *d2;
        if (cudaMalloc(&d2, 64 * sizeof(int)) != cudaSuccess)
            return;
        use_const<<<1, 64, 64 * sizeof(int)>>>(d2);
        int o2[64];
        if (cudaMemcpy(o2, d2, sizeof o2, cudaMemcpyDeviceToHost) == cudaSuccess &&
            std::memcmp(o2, out, sizeof o2) == 0 && cudaFree(d2) == cudaSuccess)
            thread_ok = 1;
    });
    th.join();
    EXPECT(thread_ok);

    CHECK(cudaEventDestroy(ev));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(m));
    CHECK(cudaFree(d));
    std::printf("misc: PASS (occupancy %d / %d blocks per SM)\n", b0, b1);
    return 0;
}
