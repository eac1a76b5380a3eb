/* rt_vecadd.cu - the basic runtime flow: cudaMalloc, cudaMemcpy, <<<>>>, cudaFree, plus
 * pinned host memory, cudaMemset, cudaMemcpyDefault, device properties and attributes,
 * function attributes and occupancy. */
#include "rt_check.h"

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main()
{
    rt_expect_warpsim();
    int count = 0, dev = -1, ver = 0;
    CHECK(cudaGetDeviceCount(&count));
    EXPECT(count == 1);
    CHECK(cudaSetDevice(0));
    CHECK(cudaGetDevice(&dev));
    EXPECT(dev == 0);
    CHECK(cudaRuntimeGetVersion(&ver));
    EXPECT(ver >= 13000);
    CHECK(cudaDriverGetVersion(&ver));

    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    int v = 0;
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0));
    EXPECT(v == p.warpSize && v > 0);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(v == p.multiProcessorCount && v > 0);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0));
    EXPECT(v == p.maxThreadsPerBlock);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    EXPECT(v == p.major);
    EXPECT(p.totalGlobalMem > 0 && p.sharedMemPerBlock > 0 && p.maxGridSize[0] > 0);
    EXPECT(p.maxThreadsDim[0] > 0 && p.regsPerMultiprocessor > 0 && p.name[0]);
    std::printf("device: %s, %d SMs, warp %d, cc %d.%d\n", p.name, p.multiProcessorCount,
                p.warpSize, p.major, p.minor);

    const int n = 1000;
    float *a, *b, *c;
    CHECK(cudaMallocHost((void **)&a, n * sizeof(float)));
    CHECK(cudaHostAlloc((void **)&b, n * sizeof(float), cudaHostAllocDefault));
    c = (float *)std::malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = 2.0f * (float)i + 1.0f;
    }
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, n * sizeof(float)));
    CHECK(cudaMalloc(&db, n * sizeof(float)));
    CHECK(cudaMalloc(&dc, n * sizeof(float)));
    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    EXPECT(free_b > 0 && free_b <= total_b);
    CHECK(cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyDefault));
    CHECK(cudaMemset(dc, 0xff, n * sizeof(float)));

    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, vecadd));
    EXPECT(fa.maxThreadsPerBlock > 0);
    /* 0 without SASS (warpsim estimates at launch), else the SASS count (check_regs.py) */
    std::printf("vecadd: numRegs %d\n", fa.numRegs);
    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, vecadd, 256, 0));
    EXPECT(blocks > 0);

    vecadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c, dc, n * sizeof(float), cudaMemcpyDefault));
    for (int i = 0; i < n; i++)
        if (c[i] != a[i] + b[i]) {
            std::fprintf(stderr, "c[%d] = %f, expected %f\n", i, c[i], a[i] + b[i]);
            return 1;
        }
    /* device-to-device and host-to-host copies */
    CHECK(cudaMemcpy(da, dc, n * sizeof(float), cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyHostToHost));
    CHECK(cudaMemcpy(a, da, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(a[i] == c[i] && b[i] == (float)i);
    cudaPointerAttributes pa;
    CHECK(cudaPointerGetAttributes(&pa, da));
    EXPECT(pa.type == cudaMemoryTypeDevice);
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    CHECK(cudaFreeHost(a));
    CHECK(cudaFreeHost(b));
    std::free(c);
    std::printf("vecadd: PASS (%d elements, occupancy %d blocks/SM)\n", n, blocks);
    return 0;
}
