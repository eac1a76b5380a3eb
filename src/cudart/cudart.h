/* cudart.h - warpsim's CUDA Runtime library (libcudart.so.13): types and internals.
 *
 * The library lets a program built by nvcc with `-cudart shared` run unchanged on the
 * simulator: the dynamic linker loads this libcudart instead of NVIDIA's. It is a layer
 * above the Driver API (src/api, include/cuda.h): it takes the PTX from the fatbinary
 * each translation unit registers, loads it with cuModuleLoadData into the primary
 * context, and maps every runtime call onto Driver API calls, so the simulator is
 * configured exactly as for a Driver API program (WARPSIM_CONFIG, WARPSIM_SET,
 * WARPSIM_MODE, WARPSIM_STATS).
 *
 * The types below are written from the CUDA 13 Runtime API reference with the binary
 * layout of NVIDIA's headers (sizes checked by _Static_assert and by the runtime tests,
 * which compile against NVIDIA's header), because the program allocates and reads them.
 *
 * Process state: the CUDA Runtime API is process-global by definition (registered
 * fatbinaries and kernels, the current device, streams); it lives in one structure
 * guarded by one mutex (rt_core.c). The last error and the launch configuration stack
 * are per thread, as in CUDA.
 */
#ifndef WS_CUDART_CUDART_H
#define WS_CUDART_CUDART_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#include "cudart/cudart_errors.h"

/* Which CUDA ABI this build of the library serves: 13 (libcudart.so.13, the default) or 12
 * (libcudart.so.12). The same sources build both; what differs between the two ABIs lives
 * in rt_abi.c (and abi12.h), nowhere else. */
#ifndef WS_CUDART_ABI
#define WS_CUDART_ABI 13
#endif
#if WS_CUDART_ABI != 12 && WS_CUDART_ABI != 13
#error "WS_CUDART_ABI must be 12 or 13"
#endif

typedef enum cudaError {
#define RT_ENUM(name, value, desc) name = value,
    RT_ERRORS(RT_ENUM)
#undef RT_ENUM
} cudaError_t;

typedef struct { unsigned int x, y, z; } dim3;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct rt_func *cudaKernel_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaStreamNonBlocking 0x01u
#define cudaEventDisableTiming 0x02u
#define cudaHostAllocMapped 0x02u

typedef struct { char bytes[16]; } cudaUUID_t;

struct cudaDeviceProp {
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
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int multiProcessorCount;
    int integrated;
    int canMapHostMemory;
    int maxTexture1D;
    int maxTexture1DMipmap;
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
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
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
    int deviceNumaConfig;
    int deviceNumaId;
    int mpsEnabled;
    int hostNumaId;
    unsigned int gpuPciDeviceID;
    unsigned int gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
};
_Static_assert(sizeof(struct cudaDeviceProp) == 1008, "cudaDeviceProp layout (CUDA 13)");
_Static_assert(offsetof(struct cudaDeviceProp, multiProcessorCount) == 384, "cudaDeviceProp");
_Static_assert(offsetof(struct cudaDeviceProp, maxBlocksPerMultiProcessor) == 688,
               "cudaDeviceProp");

struct cudaFuncAttributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int clusterDimMustBeSet;
    int requiredClusterWidth;
    int requiredClusterHeight;
    int requiredClusterDepth;
    int clusterSchedulingPolicyPreference;
    int nonPortableClusterSizeAllowed;
    int reserved[16];
};
_Static_assert(sizeof(struct cudaFuncAttributes) == 144, "cudaFuncAttributes layout (CUDA 13)");

enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3
};
struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
    long reserved[8];
};
_Static_assert(sizeof(struct cudaPointerAttributes) == 88, "cudaPointerAttributes (CUDA 13)");

/* ---- internals ------------------------------------------------------------------------- */
typedef struct rt_fatbin rt_fatbin;

/* A registered fatbinary (one per translation unit with device code). */
struct rt_fatbin {
    uint32_t magic;            /* RT_FATBIN_MAGIC while live: handles are checked     */
    const uint8_t *image;      /* the container the wrapper points at                */
    size_t image_len;
    CUmodule mod;              /* loaded into the primary context (lazily)           */
    uint64_t mod_gen;          /* context generation mod belongs to                  */
    int failed;                /* loading failed: message already printed            */
    rt_fatbin *next;
};
#define RT_FATBIN_MAGIC 0x57534642u

/* A kernel registered by __cudaRegisterFunction: what __cudaGetKernel hands out. */
struct rt_func {
    rt_fatbin *fb;
    const void *host_fun;      /* the host stub's address                             */
    char *name;                /* mangled device name                                 */
    CUfunction f;              /* resolved lazily in the current module               */
    uint64_t f_gen;
    struct rt_func *next;
};

/* A __device__ / __constant__ variable registered by __cudaRegisterVar. */
typedef struct rt_var {
    rt_fatbin *fb;
    const void *host_var;      /* the host shadow's address (the program's "symbol") */
    char *name;
    size_t size;
    int constant;
    struct rt_var *next;
} rt_var;

typedef struct rt_stream {
    unsigned flags;
    struct rt_stream *next;
} rt_stream;

typedef struct rt_block {      /* device allocations and pinned host buffers          */
    uintptr_t base;
    size_t size;
    struct rt_block *next;
} rt_block;

typedef struct {
    pthread_mutex_t lock;
    int initialised;           /* cuInit done and the primary context retained        */
    CUresult init_error;       /* why initialisation failed (sticky)                 */
    CUcontext ctx;
    uint64_t gen;              /* bumped by cudaDeviceReset                           */
    rt_fatbin *fatbins;
    struct rt_func *funcs;
    rt_var *vars;
    rt_stream *streams;
    rt_block *allocs;          /* cudaMalloc / cudaMallocPitch                         */
    rt_block *host_allocs;     /* cudaMallocHost / cudaHostAlloc                       */
    int report_registered;     /* the WARPSIM_REPORT exit hook is installed           */
    struct ws_report *report;  /* launches of the destroyed contexts (WARPSIM_REPORT) */
    char report_source[512];   /* the configuration as the report names it            */
} rt_state;

extern rt_state ws_rt;

/* The runtime's lock; Driver API calls made while it is held count as nested (api.h
 * ws_api_nest_begin), so only the runtime call's own return acts on a signal. */
void rt_lock(void);
void rt_unlock(void);
/* Enters a runtime call that needs the device: locks, initialises on first use (cuInit,
 * primary context, made current on this thread). On failure the lock is still held. */
cudaError_t rt_enter(void);
/* Unlocks; records e as the thread's last error when it is not cudaSuccess; after a
 * SIGINT/SIGTERM exits with the statistics so far (api.h ws_api_check_interrupt). */
cudaError_t rt_leave(cudaError_t e);
/* Records e as the last error without the lock (calls that fail before entering). */
cudaError_t rt_error(cudaError_t e);
/* Driver result as a runtime error (the CUDA 13 enumerations share their values). */
cudaError_t rt_from_cu(CUresult r);

/* The loaded module of a fatbinary in the current context (loads it on first use). */
cudaError_t rt_fatbin_module(rt_fatbin *fb, CUmodule *mod);
/* A registered variable by its host shadow address; NULL when unknown. */
rt_var *rt_find_var(const void *symbol);
/* A stream handle the runtime accepts: the defaults or one of cudaStreamCreate. */
int rt_stream_ok(cudaStream_t s);
/* Whether p lies inside a cudaMalloc allocation. */
int rt_is_device_ptr(const void *p);

/* Entry points that the per-thread-default-stream variants (rt_ptds.c) forward to. */
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind,
                            cudaStream_t stream);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                         size_t width, size_t height, int kind);
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, int kind, cudaStream_t stream);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream);
cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                               size_t offset, int kind);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 int kind);
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, int kind, cudaStream_t stream);
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                      size_t offset, int kind, cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                     unsigned int flags);

/* A device attribute of the simulated device (0 when it is not modelled). */
int rt_dev_attr(CUdevice_attribute a);
/* The device's properties in CUDA 13's layout (inside rt_enter). */
void rt_device_props(struct cudaDeviceProp *p);
/* What cudaPointerGetAttributes reports about ptr, in CUDA 13's layout. */
void rt_pointer_attributes(const void *ptr, struct cudaPointerAttributes *attr);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaDeviceSetCacheConfig(int cacheConfig);
cudaError_t cudaDeviceGetCacheConfig(int *cacheConfig);

/* Unsupported-call report: prints the function's name and what is missing. */
cudaError_t rt_unsupported(const char *fn, const char *why);

#endif
