/* drv_mem.c - Driver API: device memory, events and error strings. */
#include "api/drv.h"

#include <stdlib.h>

/* Any failure on a device address the program passed (not allocated, freed twice, out
 * of bounds) is CUDA_ERROR_INVALID_VALUE, as the driver reports a bad pointer. */
static CUresult mem_result(ws_err e)
{
    switch (e) {
    case WS_OK: return CUDA_SUCCESS;
    case WS_E_OUT_OF_MEMORY: return CUDA_ERROR_OUT_OF_MEMORY;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult CUDAAPI cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r == CUDA_SUCCESS && (!free_bytes || !total))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS) {
        *free_bytes = (size_t)ws_mem_free_bytes(c->sim);
        *total = (size_t)ws_mem_total(c->sim);
    }
    return ws_drv_leave(r);
}

CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r == CUDA_SUCCESS && (!dptr || bytesize == 0))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS) {
        uint64_t a = 0;
        r = mem_result(ws_mem_alloc(c->sim, bytesize, &a));
        if (r == CUDA_SUCCESS)
            *dptr = a;
    }
    return ws_drv_leave(r);
}

CUresult CUDAAPI cuMemFree_v2(CUdeviceptr dptr)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r == CUDA_SUCCESS && dptr != 0)   /* freeing 0 does nothing, as free(NULL) */
        r = mem_result(ws_mem_free(c->sim, dptr));
    return ws_drv_leave(r);
}

CUresult CUDAAPI cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r == CUDA_SUCCESS && ByteCount) {
        if (!srcHost || !dstDevice)
            r = CUDA_ERROR_INVALID_VALUE;
        else
            r = mem_result(ws_mem_write(c->sim, dstDevice, srcHost, ByteCount));
    }
    return ws_drv_leave(r);
}

CUresult CUDAAPI cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r == CUDA_SUCCESS && ByteCount) {
        if (!dstHost || !srcDevice)
            r = CUDA_ERROR_INVALID_VALUE;
        else
            r = mem_result(ws_mem_read(c->sim, dstHost, srcDevice, ByteCount));
    }
    return ws_drv_leave(r);
}

CUresult CUDAAPI cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r == CUDA_SUCCESS && ByteCount) {
        if (!dstDevice || !srcDevice)
            r = CUDA_ERROR_INVALID_VALUE;
        else
            r = mem_result(ws_mem_copy(c->sim, dstDevice, srcDevice, ByteCount));
    }
    return ws_drv_leave(r);
}

static CUresult memset_n(CUdeviceptr dst, uint32_t v, unsigned size, size_t n)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r == CUDA_SUCCESS && n) {
        if (!dst || dst % size)
            r = CUDA_ERROR_INVALID_VALUE;
        else
            r = mem_result(ws_mem_set(c->sim, dst, v, size, n));
    }
    return ws_drv_leave(r);
}

CUresult CUDAAPI cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N)
{
    return memset_n(dstDevice, uc, 1, N);
}

CUresult CUDAAPI cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N)
{
    return memset_n(dstDevice, us, 2, N);
}

CUresult CUDAAPI cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N)
{
    return memset_n(dstDevice, ui, 4, N);
}

/* ---- events ------------------------------------------------------------------------- */
drv_event *ws_drv_find_event(drv_ctx *c, CUevent h)
{
    for (drv_event *e = c->events; e; e = e->next)
        if (e == h)
            return e;
    return NULL;
}

/* Event clock: simulated time in timing mode (cycles / core clock), host time in
 * functional mode, where simulated time does not exist. */
static double event_now(const drv_ctx *c)
{
    return c->cfg.sim.mode == WS_MODE_TIMING ? c->sim_ms : ws_drv_host_ms();
}

CUresult CUDAAPI cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r == CUDA_SUCCESS &&
        (!phEvent || (Flags & ~(unsigned)(CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING |
                                          CU_EVENT_INTERPROCESS))))
        r = CUDA_ERROR_INVALID_VALUE;
    if (r == CUDA_SUCCESS) {
        drv_event *e = calloc(1, sizeof *e);
        if (!e) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
        } else {
            e->ctx = c;
            e->flags = Flags;
            e->next = c->events;
            c->events = e;
            *phEvent = e;
        }
    }
    return ws_drv_leave(r);
}

CUresult CUDAAPI cuEventRecord(CUevent hEvent, CUstream hStream)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    drv_event *e = r == CUDA_SUCCESS ? ws_drv_find_event(c, hEvent) : NULL;
    if (r == CUDA_SUCCESS && (!e || !drv_stream_ok(hStream)))
        r = CUDA_ERROR_INVALID_HANDLE;
    if (r == CUDA_SUCCESS) {
        e->ms = event_now(c);
        e->recorded = 1;
    }
    return ws_drv_leave(r);
}

/* Work completes inside the call that issues it, so every event has completed. */
CUresult CUDAAPI cuEventQuery(CUevent hEvent)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r == CUDA_SUCCESS && !ws_drv_find_event(c, hEvent))
        r = CUDA_ERROR_INVALID_HANDLE;
    return ws_drv_leave(r);
}

CUresult CUDAAPI cuEventSynchronize(CUevent hEvent)
{
    return cuEventQuery(hEvent);
}

CUresult CUDAAPI cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r != CUDA_SUCCESS)
        return ws_drv_leave(r);
    if (!pMilliseconds)
        return ws_drv_leave(CUDA_ERROR_INVALID_VALUE);
    drv_event *a = ws_drv_find_event(c, hStart), *b = ws_drv_find_event(c, hEnd);
    if (!a || !b || !a->recorded || !b->recorded ||
        ((a->flags | b->flags) & CU_EVENT_DISABLE_TIMING))
        return ws_drv_leave(CUDA_ERROR_INVALID_HANDLE);
    *pMilliseconds = (float)(b->ms - a->ms);
    return ws_drv_leave(CUDA_SUCCESS);
}

CUresult CUDAAPI cuEventDestroy_v2(CUevent hEvent)
{
    drv_ctx *c;
    CUresult r = ws_drv_enter(&c);
    if (r != CUDA_SUCCESS)
        return ws_drv_leave(r);
    for (drv_event **pp = &c->events; *pp; pp = &(*pp)->next)
        if (*pp == hEvent) {
            drv_event *e = *pp;
            *pp = e->next;
            free(e);
            return ws_drv_leave(CUDA_SUCCESS);
        }
    return ws_drv_leave(CUDA_ERROR_INVALID_HANDLE);
}

/* ---- error strings --------------------------------------------------------------------- */
#define DRV_ERRORS(X)                                                                       \
    X(CUDA_SUCCESS, "no error")                                                             \
    X(CUDA_ERROR_INVALID_VALUE, "invalid argument")                                         \
    X(CUDA_ERROR_OUT_OF_MEMORY, "out of memory")                                            \
    X(CUDA_ERROR_NOT_INITIALIZED, "initialization error (cuInit not called)")      \
    X(CUDA_ERROR_DEINITIALIZED, "driver shutting down")                                     \
    X(CUDA_ERROR_PROFILER_DISABLED, "profiler disabled")                                    \
    X(CUDA_ERROR_PROFILER_NOT_INITIALIZED, "profiler not initialized")                      \
    X(CUDA_ERROR_PROFILER_ALREADY_STARTED, "profiler already started")                      \
    X(CUDA_ERROR_PROFILER_ALREADY_STOPPED, "profiler already stopped")                      \
    X(CUDA_ERROR_STUB_LIBRARY, "stub library loaded instead of the driver")                \
    X(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER, "call requires a newer driver")               \
    X(CUDA_ERROR_DEVICE_UNAVAILABLE, "device unavailable")                                  \
    X(CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected")                           \
    X(CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal")                                  \
    X(CUDA_ERROR_DEVICE_NOT_LICENSED, "device not licensed")                                \
    X(CUDA_ERROR_INVALID_IMAGE, "invalid image (warpsim loads PTX text)")  \
    X(CUDA_ERROR_INVALID_CONTEXT, "invalid device context")                                 \
    X(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, "context already current")                        \
    X(CUDA_ERROR_MAP_FAILED, "mapping of buffer object failed")                             \
    X(CUDA_ERROR_UNMAP_FAILED, "unmapping of buffer object failed")                         \
    X(CUDA_ERROR_ARRAY_IS_MAPPED, "array is mapped")                                        \
    X(CUDA_ERROR_ALREADY_MAPPED, "resource already mapped")                                 \
    X(CUDA_ERROR_NO_BINARY_FOR_GPU, "no kernel image is available for the device")          \
    X(CUDA_ERROR_ALREADY_ACQUIRED, "resource already acquired")                             \
    X(CUDA_ERROR_NOT_MAPPED, "resource not mapped")                                         \
    X(CUDA_ERROR_NOT_MAPPED_AS_ARRAY, "resource not mapped as array")                       \
    X(CUDA_ERROR_NOT_MAPPED_AS_POINTER, "resource not mapped as pointer")                   \
    X(CUDA_ERROR_ECC_UNCORRECTABLE, "uncorrectable ECC error encountered")                  \
    X(CUDA_ERROR_UNSUPPORTED_LIMIT, "limit is not supported on this architecture")          \
    X(CUDA_ERROR_CONTEXT_ALREADY_IN_USE, "context already in use")                          \
    X(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, "peer access is not supported")                   \
    X(CUDA_ERROR_INVALID_PTX, "PTX does not load (message on stderr)")   \
    X(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT, "invalid graphics context")                      \
    X(CUDA_ERROR_NVLINK_UNCORRECTABLE, "uncorrectable NVLink error")                        \
    X(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, "PTX JIT compiler not found")                      \
    X(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "unsupported PTX version")                        \
    X(CUDA_ERROR_JIT_COMPILATION_DISABLED, "PTX JIT compilation disabled")                  \
    X(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY, "unsupported execution affinity")               \
    X(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC, "unsupported device-side synchronization")       \
    X(CUDA_ERROR_CONTAINED, "contained error")                                              \
    X(CUDA_ERROR_INVALID_SOURCE, "device kernel image is invalid")                          \
    X(CUDA_ERROR_FILE_NOT_FOUND, "file not found")                                          \
    X(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, "shared object symbol not found")          \
    X(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, "shared object initialization failed")          \
    X(CUDA_ERROR_OPERATING_SYSTEM, "OS call failed")                                        \
    X(CUDA_ERROR_INVALID_HANDLE, "invalid resource handle")                                 \
    X(CUDA_ERROR_ILLEGAL_STATE, "the operation cannot be performed in the present state")   \
    X(CUDA_ERROR_LOSSY_QUERY, "lossy query")                                                \
    X(CUDA_ERROR_NOT_FOUND, "named symbol not found")                                       \
    X(CUDA_ERROR_NOT_READY, "device not ready")                                             \
    X(CUDA_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered")               \
    X(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "too many resources requested for launch")        \
    X(CUDA_ERROR_LAUNCH_TIMEOUT, "launch timed out (warpsim: no progress)")     \
    X(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING, "launch uses incompatible texturing mode")  \
    X(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, "peer access is already enabled")             \
    X(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "peer access has not been enabled")               \
    X(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, "primary context active")                          \
    X(CUDA_ERROR_CONTEXT_IS_DESTROYED, "context is destroyed")                              \
    X(CUDA_ERROR_ASSERT, "device-side assert triggered")                                    \
    X(CUDA_ERROR_TOO_MANY_PEERS, "peer mapping resources exhausted")                        \
    X(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "host memory already registered")          \
    X(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "host memory not registered")                  \
    X(CUDA_ERROR_HARDWARE_STACK_ERROR, "hardware stack error")                              \
    X(CUDA_ERROR_ILLEGAL_INSTRUCTION, "an illegal instruction was encountered")             \
    X(CUDA_ERROR_MISALIGNED_ADDRESS, "misaligned address")                                  \
    X(CUDA_ERROR_INVALID_ADDRESS_SPACE, "invalid address space") \
    X(CUDA_ERROR_INVALID_PC, "invalid program counter")                                     \
    X(CUDA_ERROR_LAUNCH_FAILED, "unspecified launch failure")                               \
    X(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "too many blocks in cooperative launch")     \
    X(CUDA_ERROR_TENSOR_MEMORY_LEAK, "tensor memory not deallocated")                       \
    X(CUDA_ERROR_NOT_PERMITTED, "operation not permitted")                                  \
    X(CUDA_ERROR_NOT_SUPPORTED, "operation not supported")                                  \
    X(CUDA_ERROR_SYSTEM_NOT_READY, "system not yet initialized")                            \
    X(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, "unsupported display driver / CUDA driver combination") \
    X(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, "forward compatibility not supported on this device") \
    X(CUDA_ERROR_MPS_CONNECTION_FAILED, "MPS client failed to connect") \
    X(CUDA_ERROR_MPS_RPC_FAILURE, "MPS remote procedure call failed") \
    X(CUDA_ERROR_MPS_SERVER_NOT_READY, "MPS server not ready") \
    X(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED, "MPS client limit reached") \
    X(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED, "MPS connection limit reached") \
    X(CUDA_ERROR_MPS_CLIENT_TERMINATED, "MPS client terminated by the server") \
    X(CUDA_ERROR_CDP_NOT_SUPPORTED, "CUDA dynamic parallelism is not supported")            \
    X(CUDA_ERROR_CDP_VERSION_MISMATCH, "CUDA dynamic parallelism version mismatch")         \
    X(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "not permitted while the stream is capturing") \
    X(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "capture invalidated by a previous error") \
    X(CUDA_ERROR_STREAM_CAPTURE_MERGE, "would merge separate capture sequences") \
    X(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, "capture not ended in the stream it began in") \
    X(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, "capturing stream has unjoined work")             \
    X(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, "dependency on uncaptured work in another stream") \
    X(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, "legacy stream would depend on a capturing stream") \
    X(CUDA_ERROR_CAPTURED_EVENT, "event last recorded in a capturing stream") \
    X(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, "capture ended from another thread") \
    X(CUDA_ERROR_TIMEOUT, "wait operation timed out")                                       \
    X(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, "graph update violates the constraints of instantiated graphs") \
    X(CUDA_ERROR_EXTERNAL_DEVICE, "asynchronous error in an external device") \
    X(CUDA_ERROR_INVALID_CLUSTER_SIZE, "invalid cluster size") \
    X(CUDA_ERROR_FUNCTION_NOT_LOADED, "the function handle is not loaded")                  \
    X(CUDA_ERROR_INVALID_RESOURCE_TYPE, "invalid resource type")                            \
    X(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION, "invalid resource configuration")          \
    X(CUDA_ERROR_KEY_ROTATION, "key rotation error")                                        \
    X(CUDA_ERROR_UNKNOWN, "unknown error")

static const struct {
    CUresult code;
    const char *name, *text;
} drv_errors[] = {
#define X(c, t) {c, #c, t},
    DRV_ERRORS(X)
#undef X
};

static int err_index(CUresult e)
{
    for (size_t i = 0; i < sizeof drv_errors / sizeof drv_errors[0]; i++)
        if (drv_errors[i].code == e)
            return (int)i;
    return -1;
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char **pStr)
{
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    int i = err_index(error);
    *pStr = i < 0 ? NULL : drv_errors[i].text;
    return i < 0 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetErrorName(CUresult error, const char **pStr)
{
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    int i = err_index(error);
    *pStr = i < 0 ? NULL : drv_errors[i].name;
    return i < 0 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}
