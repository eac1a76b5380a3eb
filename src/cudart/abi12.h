/* abi12.h - the structures whose layout CUDA 12 programs allocate differently from CUDA 13
 * (used only by rt_abi.c, in the libcudart.so.12 build).
 *
 * Written from the field order of CUDA 12's driver_types.h (12.5 and 12.6 agree; a fact of
 * the ABI, checked against the public header text, not a copy of it). The CUDA 13 layouts
 * are in cudart.h. The offsets below pin the layout: a program built by CUDA 12's nvcc
 * reads these fields at these offsets.
 *
 *   struct            CUDA 12   CUDA 13
 *   cudaDeviceProp     1032      1008    (fields removed in 13: clockRate, deviceOverlap,
 *                                         kernelExecTimeoutEnabled, computeMode,
 *                                         maxTexture1DLinear, memoryClockRate,
 *                                         singleToDoublePrecisionPerfRatio,
 *                                         cooperativeMultiDeviceLaunch; 13 added NUMA,
 *                                         MPS and PCI-ID fields)
 *   cudaPointerAttributes 24       88    (13 appended long reserved[8])
 *   cudaFuncAttributes   144      144    (unchanged)
 */
#ifndef WS_CUDART_ABI12_H
#define WS_CUDART_ABI12_H

#include <stddef.h>

#include "cudart/cudart.h"

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
#define P12(f, off) _Static_assert(offsetof(struct cudaDeviceProp12, f) == (off), \
                                   "cudaDeviceProp (CUDA 12): " #f)
_Static_assert(sizeof(struct cudaDeviceProp12) == 1032, "cudaDeviceProp layout (CUDA 12)");
P12(totalGlobalMem, 288);
P12(clockRate, 348);
P12(totalConstMem, 352);
P12(major, 360);
P12(multiProcessorCount, 388);
P12(computeMode, 404);
P12(surfaceAlignment, 568);
P12(memoryClockRate, 608);
P12(memoryBusWidth, 612);
P12(l2CacheSize, 616);
P12(maxThreadsPerMultiProcessor, 624);
P12(sharedMemPerMultiprocessor, 640);
P12(regsPerMultiprocessor, 648);
P12(sharedMemPerBlockOptin, 696);
P12(maxBlocksPerMultiProcessor, 712);
P12(reservedSharedMemPerBlock, 720);
P12(unifiedFunctionPointers, 776);
P12(reserved, 792);
#undef P12

/* CUDA 12's cudaPointerAttributes: CUDA 13's without its trailing reserved words. */
struct cudaPointerAttributes12 {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
};
_Static_assert(sizeof(struct cudaPointerAttributes12) == 24, "cudaPointerAttributes (CUDA 12)");
_Static_assert(offsetof(struct cudaPointerAttributes12, hostPointer) ==
                   offsetof(struct cudaPointerAttributes, hostPointer),
               "cudaPointerAttributes: CUDA 12's is a prefix of CUDA 13's");

#endif
