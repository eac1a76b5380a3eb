/* rt_cuda12.cu - a program as CUDA 12's nvcc builds it, run on warpsim's libcudart.so.12.
 *
 * There is no CUDA 12 toolkit on this machine, so tests/runtime/CMakeLists.txt emulates one
 * with CUDA 13's nvcc, reproducing every part of a CUDA 12 binary that the library sees:
 *   - the fatbinary's PTX is LZ4-compressed (--compress-mode=speed: flags 0x2011, CUDA 12's
 *     default format; checked by cudart.cuda12_fatbin),
 *   - the program NEEDs libcudart.so.12 and imports every runtime symbol at version node
 *     libcudart.so.12 (compiled with nvcc -c, linked against build/cudart/libcudart.so.12;
 *     checked by cudart.abi),
 *   - it calls cudaGetDeviceProperties_v2 (what CUDA 12's cuda_runtime_api.h maps
 *     cudaGetDeviceProperties to) with CUDA 12's struct cudaDeviceProp (1032 bytes, declared
 *     below, not CUDA 13's), and cudaPointerGetAttributes with CUDA 12's 24-byte structure,
 *     each followed by a guard zone the library must leave alone,
 *   - and cudaThreadSynchronize, which CUDA 12 still exports.
 * What is not emulated: the host code nvcc 12 generates (registration and launch stubs);
 * they call the same entry points as CUDA 13's (docs/CUDART.md). */
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,             \
                         cudaGetErrorName(e_));                                            \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)
#define EXPECT(cond)                                                                       \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            std::fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);      \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

/* CUDA 12's struct cudaDeviceProp (driver_types.h of CUDA 12.x), written out here because
 * this is compiled against CUDA 13's headers. */
struct cudaDeviceProp12 {
    char name[256];
    cudaUUID_t uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int deviceOverlap;
    int multiProcessorCount;
    int kernelExecTimeoutEnabled;
    int integrated;
    int canMapHostMemory;
    int computeMode;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture1DLinear;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int singleToDoublePrecisionPerfRatio;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    int cooperativeMultiDeviceLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int reserved2[2];
    int reserved1[1];
    int reserved[60];
};
static_assert(sizeof(cudaDeviceProp12) == 1032, "CUDA 12 cudaDeviceProp");
static_assert(offsetof(cudaDeviceProp12, clockRate) == 348, "CUDA 12 cudaDeviceProp");
static_assert(offsetof(cudaDeviceProp12, multiProcessorCount) == 388, "CUDA 12 cudaDeviceProp");
static_assert(offsetof(cudaDeviceProp12, l2CacheSize) == 616, "CUDA 12 cudaDeviceProp");

struct cudaPointerAttributes12 {   /* CUDA 12: no reserved words (CUDA 13 has 64 bytes) */
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
};
static_assert(sizeof(cudaPointerAttributes12) == 24, "CUDA 12 cudaPointerAttributes");

/* Exported by libcudart.so.12, absent from CUDA 13's headers. */
extern "C" cudaError_t cudaGetDeviceProperties_v2(cudaDeviceProp12 *prop, int device);
extern "C" cudaError_t cudaThreadSynchronize(void);

#define GUARD 256
#define GUARD_BYTE 0xa5

static bool guard_intact(const unsigned char *p)
{
    for (int i = 0; i < GUARD; i++)
        if (p[i] != GUARD_BYTE)
            return false;
    return true;
}

/* The preset's values (configs/*.ini), by WARPSIM_CONFIG. */
struct preset { const char *name; int sms, threads_per_sm, warp, clock_khz, mem_khz, l2; };
static const preset presets[] = {
    {"gtx480", 15, 1536, 32, 700000, 924000, 786432},
    {"hd7970", 32, 2560, 64, 925000, 1375000, 786432},
};

__global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main()
{
    int ver = 0;
    CHECK(cudaRuntimeGetVersion(&ver));
    EXPECT(ver >= 12000 && ver < 13000);

    /* the CUDA 12 layout, followed by a guard zone */
    static unsigned char buf[sizeof(cudaDeviceProp12) + GUARD];
    std::memset(buf, GUARD_BYTE, sizeof buf);
    cudaDeviceProp12 *p = (cudaDeviceProp12 *)(void *)buf;
    CHECK(cudaGetDeviceProperties_v2(p, 0));
    EXPECT(guard_intact(buf + sizeof(cudaDeviceProp12)));
    if (std::memcmp(&p->uuid, "warpsim-device-0", 16)) {
        std::fprintf(stderr, "not running on warpsim's libcudart (device %s)\n", p->name);
        return 1;
    }
    const char *cfg = std::getenv("WARPSIM_CONFIG");
    const preset *want = &presets[0];
    for (const preset &q : presets)
        if (cfg && !std::strcmp(cfg, q.name))
            want = &q;
    std::printf("device: %s (%s): %d SMs, %d threads/SM, warp %d, %d kHz, memory %d kHz, "
                "L2 %d B, runtime %d, sizeof(cudaDeviceProp) %zu\n",
                p->name, want->name, p->multiProcessorCount, p->maxThreadsPerMultiProcessor,
                p->warpSize, p->clockRate, p->memoryClockRate, p->l2CacheSize, ver,
                sizeof(cudaDeviceProp12));
    EXPECT(p->multiProcessorCount == want->sms);
    EXPECT(p->maxThreadsPerMultiProcessor == want->threads_per_sm);
    EXPECT(p->warpSize == want->warp);
    EXPECT(p->clockRate == want->clock_khz);
    EXPECT(p->memoryClockRate == want->mem_khz);
    EXPECT(p->l2CacheSize == want->l2);
    EXPECT(p->major > 0 && p->maxThreadsPerBlock > 0 && p->totalGlobalMem > 0);
    EXPECT(p->regsPerMultiprocessor > 0 && p->sharedMemPerMultiprocessor > 0);
    EXPECT(p->maxBlocksPerMultiProcessor > 0 && p->sharedMemPerBlockOptin > 0);
    for (size_t i = 0; i < sizeof p->reserved / sizeof p->reserved[0]; i++)
        EXPECT(p->reserved[i] == 0);
    /* the attributes (the same values in CUDA 12 and 13) agree with the structure */
    static const struct { int attr; int value; } attrs[] = {
        {16, p->multiProcessorCount}, {39, p->maxThreadsPerMultiProcessor}, {10, p->warpSize},
        {13, p->clockRate}, {36, p->memoryClockRate}, {38, p->l2CacheSize},
    };
    for (const auto &a : attrs) {
        int v = -1;
        CHECK(cudaDeviceGetAttribute(&v, (cudaDeviceAttr)a.attr, 0));
        EXPECT(v == a.value);
    }

    /* a kernel: LZ4-compressed PTX, launched through the CUDA 12 library */
    const int n = 3000;
    float *x = (float *)std::malloc(n * sizeof(float));
    float *y = (float *)std::malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    float *dx, *dy;
    CHECK(cudaMalloc((void **)&dx, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&dy, n * sizeof(float)));
    CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice));

    static unsigned char pbuf[sizeof(cudaPointerAttributes12) + GUARD];
    std::memset(pbuf, GUARD_BYTE, sizeof pbuf);
    CHECK(cudaPointerGetAttributes((cudaPointerAttributes *)(void *)pbuf, dy));
    EXPECT(guard_intact(pbuf + sizeof(cudaPointerAttributes12)));
    const cudaPointerAttributes12 *pa = (const cudaPointerAttributes12 *)(const void *)pbuf;
    EXPECT(pa->type == cudaMemoryTypeDevice && pa->devicePointer == dy);

    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    CHECK(cudaEventRecord(t0, 0));
    saxpy<<<(n + 255) / 256, 256>>>(2.0f, dx, dy, n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(t1, 0));
    CHECK(cudaThreadSynchronize());
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    EXPECT(ms >= 0);
    CHECK(cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(y[i] == 2.0f * (float)i + 1.0f);
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    std::free(x);
    std::free(y);
    std::printf("cuda12: PASS (%.3f ms)\n", ms);
    return 0;
}
