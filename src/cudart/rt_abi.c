/* rt_abi.c - CUDA Runtime: everything that differs between the ABI of CUDA 13 programs
 * (libcudart.so.13) and that of CUDA 12 programs (libcudart.so.12), in one place.
 *
 * The library is built twice from the same sources (CMakeLists.txt): WS_CUDART_ABI=13 and
 * WS_CUDART_ABI=12. The rest of the library works in CUDA 13's types (cudart.h); the entry
 * points below hand results to the program in the layout of the toolkit it was built by:
 *
 *   entry point                 CUDA 13 build             CUDA 12 build
 *   cudaRuntimeGetVersion       13000                     12060 (CUDA 12.6's API)
 *   cudaGetDeviceProperties_v2  (not exported)            CUDA 12 layout (abi12.h);
 *                                                         cuda_runtime_api.h 12.x maps
 *                                                         cudaGetDeviceProperties to it
 *   cudaGetDeviceProperties     CUDA 13 layout            refused: in libcudart.so.12 the
 *                                                         unversioned name takes the
 *                                                         pre-12 layout, which no CUDA 12
 *                                                         header calls
 *   cudaPointerGetAttributes    88 bytes                  24 bytes (no reserved words)
 *   cudaThreadSynchronize, cudaThreadExit, cudaThread{Set,Get}CacheConfig (removed in 13):
 *                               (not exported)            the cudaDevice* equivalents
 *
 * Functions whose arguments are the same in both (everything else the library implements,
 * cudaFuncAttributes included: 144 bytes in both) need nothing here. Functions CUDA 12
 * exports that warpsim does not implement get rt_stubs.c's "not implemented" stubs.
 */
#include "cudart/cudart.h"

#include <string.h>

#if WS_CUDART_ABI == 12
#include "cudart/abi12.h"
#define RT_RUNTIME_VERSION 12060
#else
#define RT_RUNTIME_VERSION 13000
#endif

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    if (!runtimeVersion)
        return rt_error(cudaErrorInvalidValue);
    *runtimeVersion = RT_RUNTIME_VERSION;
    return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr, const void *ptr)
{
    if (!attr)
        return rt_error(cudaErrorInvalidValue);
    struct cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    rt_pointer_attributes(ptr, &a);
#if WS_CUDART_ABI == 12
    memcpy(attr, &a, sizeof(struct cudaPointerAttributes12));   /* CUDA 13's prefix */
#else
    *attr = a;
#endif
    return cudaSuccess;
}

/* cudaGetDeviceProperties of either ABI: the argument checks, and the properties in CUDA
 * 13's layout written to *s (the caller's structure `p`, or a copy to convert). */
static cudaError_t device_props(const void *p, int device, struct cudaDeviceProp *s)
{
    if (!p)
        return rt_error(cudaErrorInvalidValue);
    if (device != 0)
        return rt_error(cudaErrorInvalidDevice);
    cudaError_t e = rt_enter();
    if (e != cudaSuccess)
        return rt_leave(e);
    rt_device_props(s);
    return rt_leave(cudaSuccess);
}

#if WS_CUDART_ABI == 13
/* ---- CUDA 13 ------------------------------------------------------------------------------ */
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device)
{
    return device_props(p, device, p);
}

#else
/* ---- CUDA 12 ------------------------------------------------------------------------------ */
/* CUDA 13's properties in CUDA 12's layout: the fields both have, then those CUDA 13
 * dropped, from the simulated device's attributes. */
static void props12(struct cudaDeviceProp12 *d, const struct cudaDeviceProp *s)
{
    memset(d, 0, sizeof *d);
#define F(f) d->f = s->f
#define A(f) memcpy(d->f, s->f, sizeof d->f)
    A(name); F(uuid); A(luid); F(luidDeviceNodeMask); F(totalGlobalMem); F(sharedMemPerBlock);
    F(regsPerBlock); F(warpSize); F(memPitch); F(maxThreadsPerBlock); A(maxThreadsDim);
    A(maxGridSize); F(totalConstMem); F(major); F(minor); F(textureAlignment);
    F(texturePitchAlignment); F(multiProcessorCount); F(integrated); F(canMapHostMemory);
    F(maxTexture1D); F(maxTexture1DMipmap); A(maxTexture2D); A(maxTexture2DMipmap);
    A(maxTexture2DLinear); A(maxTexture2DGather); A(maxTexture3D); A(maxTexture3DAlt);
    F(maxTextureCubemap); A(maxTexture1DLayered); A(maxTexture2DLayered);
    A(maxTextureCubemapLayered); F(maxSurface1D); A(maxSurface2D); A(maxSurface3D);
    A(maxSurface1DLayered); A(maxSurface2DLayered); F(maxSurfaceCubemap);
    A(maxSurfaceCubemapLayered); F(surfaceAlignment); F(concurrentKernels); F(ECCEnabled);
    F(pciBusID); F(pciDeviceID); F(pciDomainID); F(tccDriver); F(asyncEngineCount);
    F(unifiedAddressing); F(memoryBusWidth); F(l2CacheSize); F(persistingL2CacheMaxSize);
    F(maxThreadsPerMultiProcessor); F(streamPrioritiesSupported); F(globalL1CacheSupported);
    F(localL1CacheSupported); F(sharedMemPerMultiprocessor); F(regsPerMultiprocessor);
    F(managedMemory); F(isMultiGpuBoard); F(multiGpuBoardGroupID);
    F(hostNativeAtomicSupported); F(pageableMemoryAccess); F(concurrentManagedAccess);
    F(computePreemptionSupported); F(canUseHostPointerForRegisteredMem); F(cooperativeLaunch);
    F(sharedMemPerBlockOptin); F(pageableMemoryAccessUsesHostPageTables);
    F(directManagedMemAccessFromHost); F(maxBlocksPerMultiProcessor);
    F(accessPolicyMaxWindowSize); F(reservedSharedMemPerBlock); F(hostRegisterSupported);
    F(sparseCudaArraySupported); F(hostRegisterReadOnlySupported);
    F(timelineSemaphoreInteropSupported); F(memoryPoolsSupported); F(gpuDirectRDMASupported);
    F(gpuDirectRDMAFlushWritesOptions); F(gpuDirectRDMAWritesOrdering);
    F(memoryPoolSupportedHandleTypes); F(deferredMappingCudaArraySupported);
    F(ipcEventSupported); F(clusterLaunch); F(unifiedFunctionPointers);
#undef F
#undef A
    d->clockRate = rt_dev_attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);                 /* kHz */
    d->memoryClockRate = rt_dev_attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);    /* kHz */
    d->deviceOverlap = rt_dev_attr(CU_DEVICE_ATTRIBUTE_GPU_OVERLAP);
    d->kernelExecTimeoutEnabled = rt_dev_attr(CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT);
    d->computeMode = rt_dev_attr(CU_DEVICE_ATTRIBUTE_COMPUTE_MODE);
    /* maxTexture1DLinear, singleToDoublePrecisionPerfRatio, cooperativeMultiDeviceLaunch:
     * not modelled (no textures, one device), 0 */
}

/* What CUDA 12's cuda_runtime_api.h calls for cudaGetDeviceProperties (a macro). */
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp12 *p, int device);
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp12 *p, int device)
{
    struct cudaDeviceProp s;
    cudaError_t e = device_props(p, device, &s);
    if (e == cudaSuccess)
        props12(p, &s);
    return e;
}

/* The unversioned name, in libcudart.so.12, is the pre-CUDA-12 layout (smaller than CUDA
 * 12's): writing CUDA 12's would overrun the caller's structure, so it is refused. */
cudaError_t cudaGetDeviceProperties(void *p, int device);
cudaError_t cudaGetDeviceProperties(void *p, int device)
{
    (void)p, (void)device;
    return rt_unsupported("cudaGetDeviceProperties", "in libcudart.so.12 the unversioned "
                          "name takes the pre-CUDA-12 cudaDeviceProp (programs built by "
                          "CUDA 12 call cudaGetDeviceProperties_v2, which is implemented)");
}

/* Deprecated since CUDA 4 and removed in 13; still exported by CUDA 12 (Rodinia calls
 * cudaThreadSynchronize): the cudaDevice* functions they were renamed to. */
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
cudaError_t cudaThreadExit(void);
cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }
cudaError_t cudaThreadSetCacheConfig(int cacheConfig);
cudaError_t cudaThreadSetCacheConfig(int cacheConfig)
{
    return cudaDeviceSetCacheConfig(cacheConfig);
}
cudaError_t cudaThreadGetCacheConfig(int *cacheConfig);
cudaError_t cudaThreadGetCacheConfig(int *cacheConfig)
{
    return cudaDeviceGetCacheConfig(cacheConfig);
}
#endif
