/* rt_dev.c - CUDA Runtime: device management and properties, synchronisation, streams,
 * events, versions. One simulated device (ordinal 0), configured as for the Driver API. */
#include "cudart/cudart.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- versions (cudaRuntimeGetVersion is ABI-specific: rt_abi.c) --------------------------- */
cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    if (!driverVersion)
        return rt_error(cudaErrorInvalidValue);
    return rt_error(rt_from_cu(cuDriverGetVersion(driverVersion)));
}

/* ---- devices ----------------------------------------------------------------------------- */
cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return rt_error(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    *count = e == cudaSuccess ? 1 : 0;
    return rt_leave(e == cudaSuccess ? cudaSuccess : cudaErrorNoDevice);
}

cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return rt_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    if (device != 0)
        return rt_error(cudaErrorInvalidDevice);
    return rt_leave(rt_enter());
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags)
{
    (void)deviceFlags, (void)flags;
    return cudaSetDevice(device);
}

/* Scheduling flags change nothing in a simulator that runs kernels synchronously. */
cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
    (void)flags;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    if (!flags)
        return rt_error(cudaErrorInvalidValue);
    *flags = 0;
    return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(int cacheConfig)
{
    (void)cacheConfig;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(int *cacheConfig)
{
    if (!cacheConfig)
        return rt_error(cudaErrorInvalidValue);
    *cacheConfig = 0;
    return cudaSuccess;
}

/* The runtime's cudaDeviceAttr values are the driver's CUdevice_attribute values. */
cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device)
{
    if (!value)
        return rt_error(cudaErrorInvalidValue);
    if (device != 0)
        return rt_error(cudaErrorInvalidDevice);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && cuDeviceGetAttribute(value, (CUdevice_attribute)attr, 0) !=
                                CUDA_SUCCESS) {
        fprintf(stderr, "warpsim: cudaDeviceGetAttribute: attribute %d is not modelled by "
                        "the simulator\n", attr);
        e = cudaErrorInvalidValue;
    }
    return rt_leave(e);
}

static int attr(CUdevice_attribute a)
{
    int v = 0;
    return cuDeviceGetAttribute(&v, a, 0) == CUDA_SUCCESS ? v : 0;
}

int rt_dev_attr(CUdevice_attribute a) { return attr(a); }

/* The device's properties in CUDA 13's layout; rt_abi.c hands them to the program in the
 * layout of the ABI it was built for. Called inside rt_enter. */
void rt_device_props(struct cudaDeviceProp *p)
{
    memset(p, 0, sizeof *p);
    cuDeviceGetName(p->name, sizeof p->name, 0);
    memcpy(p->uuid.bytes, "warpsim-device-0", 16);
    size_t mem = 0;
    cuDeviceTotalMem_v2(&mem, 0);
    p->totalGlobalMem = mem;
    p->sharedMemPerBlock = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    p->regsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    p->warpSize = attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    p->memPitch = (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_PITCH);
    p->maxThreadsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    for (int i = 0; i < 3; i++) {
        p->maxThreadsDim[i] = attr((CUdevice_attribute)(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + i));
        p->maxGridSize[i] = attr((CUdevice_attribute)(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + i));
    }
    p->totalConstMem = (size_t)attr(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY);
    p->major = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    p->minor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    p->textureAlignment = (size_t)attr(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
    p->texturePitchAlignment = 256;
    p->multiProcessorCount = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    p->surfaceAlignment = 512;
    p->memoryBusWidth = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    p->l2CacheSize = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    p->maxThreadsPerMultiProcessor = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    p->globalL1CacheSupported = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED);
    p->localL1CacheSupported = attr(CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED);
    p->sharedMemPerMultiprocessor =
        (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    p->regsPerMultiprocessor = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    p->sharedMemPerBlockOptin =
        (size_t)attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    p->maxBlocksPerMultiProcessor = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
    p->deviceNumaId = -1;
    p->hostNumaId = -1;
}

cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
    if (!device || !prop)
        return rt_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

/* ---- synchronisation: kernels and copies complete inside their calls --------------------- */
cudaError_t cudaDeviceSynchronize(void)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_from_cu(cuCtxSynchronize());
    return rt_leave(e);
}

/* ---- streams: in order by construction ------------------------------------------------------ */
int rt_stream_ok(cudaStream_t s)
{
    if (s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread)
        return 1;
    for (rt_stream *p = ws_rt.streams; p; p = p->next)
        if ((void *)p == (void *)s)
            return 1;
    return 0;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    if (!pStream || (flags & ~cudaStreamNonBlocking))
        return rt_error(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess) {
        rt_stream *s = calloc(1, sizeof *s);
        if (!s) {
            e = cudaErrorMemoryAllocation;
        } else {
            s->flags = flags;
            s->next = ws_rt.streams;
            ws_rt.streams = s;
            *pStream = (cudaStream_t)(void *)s;
        }
    }
    return rt_leave(e);
}

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    return cudaStreamCreateWithFlags(pStream, 0);
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
    (void)priority;
    return cudaStreamCreateWithFlags(pStream, flags);
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = 0;
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess) {
        e = cudaErrorInvalidResourceHandle;
        for (rt_stream **pp = &ws_rt.streams; *pp; pp = &(*pp)->next)
            if ((void *)*pp == (void *)stream) {
                rt_stream *s = *pp;
                *pp = s->next;
                free(s);
                e = cudaSuccess;
                break;
            }
    }
    return rt_leave(e);
}

static cudaError_t stream_check(cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && !rt_stream_ok(stream))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess)
        e = rt_from_cu(cuCtxSynchronize());   /* reports a sticky kernel fault */
    return rt_leave(e);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) { return stream_check(stream); }
cudaError_t cudaStreamQuery(cudaStream_t stream) { return stream_check(stream); }

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    (void)flags;
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && !rt_stream_ok(stream))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess)
        e = rt_from_cu(cuEventQuery(event));
    return rt_leave(e);
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags)
{
    if (!flags)
        return rt_error(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && !rt_stream_ok(stream))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess)
        *flags = stream == NULL || stream == cudaStreamLegacy || stream == cudaStreamPerThread
                     ? 0 : ((rt_stream *)(void *)stream)->flags;
    return rt_leave(e);
}

/* ---- events: the driver's events (simulated time in timing mode) ------------------------- */
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    if (!event)
        return rt_error(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_from_cu(cuEventCreate(event, flags));
    return rt_leave(e);
}

cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, 0); }

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && !rt_stream_ok(stream))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess)
        e = rt_from_cu(cuEventRecord(event, NULL));
    return rt_leave(e);
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    (void)flags;
    return cudaEventRecord(event, stream);
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_from_cu(cuEventQuery(event));
    return rt_leave(e);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_from_cu(cuEventSynchronize(event));
    return rt_leave(e);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (!ms)
        return rt_error(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_from_cu(cuEventElapsedTime_v2(ms, start, end));
    return rt_leave(e);
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_from_cu(cuEventDestroy_v2(event));
    return rt_leave(e);
}
