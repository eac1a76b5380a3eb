/* rt_mem.c - CUDA Runtime: device and pinned host memory, copies, symbols. */
#include "cudart/cudart.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PITCH_ALIGN 256u   /* cudaMallocPitch row alignment (texture pitch alignment) */

static CUdeviceptr dptr(const void *p) { return (CUdeviceptr)(uintptr_t)p; }

/* ---- allocation bookkeeping -------------------------------------------------------------- */
static rt_block *block_find(rt_block *list, const void *p, int inside)
{
    uintptr_t a = (uintptr_t)p;
    for (rt_block *b = list; b; b = b->next)
        if (a == b->base || (inside && a > b->base && a - b->base < b->size))
            return b;
    return NULL;
}

static int block_add(rt_block **list, uintptr_t base, size_t size)
{
    rt_block *b = malloc(sizeof *b);
    if (!b)
        return -1;
    *b = (rt_block){base, size, *list};
    *list = b;
    return 0;
}

static void block_remove(rt_block **list, rt_block *b)
{
    for (rt_block **pp = list; *pp; pp = &(*pp)->next)
        if (*pp == b) {
            *pp = b->next;
            free(b);
            return;
        }
}

int rt_is_device_ptr(const void *p) { return block_find(ws_rt.allocs, p, 1) != NULL; }

/* ---- device memory -------------------------------------------------------------------------- */
static cudaError_t malloc_locked(void **devPtr, size_t size)
{
    CUdeviceptr d = 0;
    CUresult r = cuMemAlloc_v2(&d, size ? size : 1);
    if (r != CUDA_SUCCESS)
        return r == CUDA_ERROR_OUT_OF_MEMORY ? cudaErrorMemoryAllocation : rt_from_cu(r);
    if (block_add(&ws_rt.allocs, (uintptr_t)d, size ? size : 1)) {
        cuMemFree_v2(d);
        return cudaErrorMemoryAllocation;
    }
    *devPtr = (void *)(uintptr_t)d;
    return cudaSuccess;
}

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    if (!devPtr)
        return rt_error(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = malloc_locked(devPtr, size);
    return rt_leave(e);
}

cudaError_t cudaFree(void *devPtr)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && devPtr) {
        rt_block *b = block_find(ws_rt.allocs, devPtr, 0);
        if (!b) {
            fprintf(stderr, "warpsim: cudaFree(%p): not an allocation of cudaMalloc\n", devPtr);
            e = cudaErrorInvalidValue;
        } else {
            e = rt_from_cu(cuMemFree_v2(dptr(devPtr)));
            block_remove(&ws_rt.allocs, b);
        }
    }
    return rt_leave(e);
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    if (!devPtr || !pitch)
        return rt_error(cudaErrorInvalidValue);
    size_t p = (width + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
    if (height && p > SIZE_MAX / height)
        return rt_error(cudaErrorMemoryAllocation);
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = malloc_locked(devPtr, p * height);
    if (e == cudaSuccess)
        *pitch = p;
    return rt_leave(e);
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = rt_from_cu(cuMemGetInfo_v2(free_bytes, total));
    return rt_leave(e);
}

/* ---- pinned host memory: ordinary host memory, remembered for cudaFreeHost ---------------- */
static cudaError_t host_alloc(void **ptr, size_t size, unsigned flags, const char *api)
{
    if (!ptr)
        return rt_error(cudaErrorInvalidValue);
    if (flags & cudaHostAllocMapped)
        return rt_unsupported(api, "cudaHostAllocMapped (mapped host memory)");
    void *p = NULL;
    if (posix_memalign(&p, 4096, size ? size : 1))
        return rt_error(cudaErrorMemoryAllocation);
    rt_lock();
    int bad = block_add(&ws_rt.host_allocs, (uintptr_t)p, size);
    rt_unlock();
    if (bad) {
        free(p);
        return rt_error(cudaErrorMemoryAllocation);
    }
    *ptr = p;
    return cudaSuccess;
}

cudaError_t cudaMallocHost(void **ptr, size_t size) { return host_alloc(ptr, size, 0, "cudaMallocHost"); }

cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    return host_alloc(pHost, size, flags, "cudaHostAlloc");
}

cudaError_t cudaFreeHost(void *ptr)
{
    if (!ptr)
        return cudaSuccess;
    rt_lock();
    rt_block *b = block_find(ws_rt.host_allocs, ptr, 0);
    if (b)
        block_remove(&ws_rt.host_allocs, b);
    rt_unlock();
    if (!b) {
        fprintf(stderr, "warpsim: cudaFreeHost(%p): not from cudaMallocHost/cudaHostAlloc\n",
                ptr);
        return rt_error(cudaErrorInvalidValue);
    }
    free(ptr);
    return cudaSuccess;
}

/* A stream check for the calls that forward to their synchronous form. */
static int stream_ok(cudaStream_t s)
{
    rt_lock();
    int ok = rt_stream_ok(s);
    rt_unlock();
    return ok;
}

/* ---- copies ----------------------------------------------------------------------------- */
static const char *kind_name(int kind)
{
    static const char *const n[] = {"HostToHost", "HostToDevice", "DeviceToHost",
                                    "DeviceToDevice", "Default"};
    return kind >= 0 && kind <= 4 ? n[kind] : "?";
}

/* cudaMemcpyDefault: a pointer inside a cudaMalloc allocation is a device pointer. */
static int resolve_kind(int kind, void *dst, const void *src)
{
    if (kind != cudaMemcpyDefault)
        return kind;
    int d = rt_is_device_ptr(dst), s = rt_is_device_ptr(src);
    return d ? (s ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
             : (s ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
}

static cudaError_t copy_locked(void *dst, const void *src, size_t count, int kind,
                               const char *api)
{
    if (!count)
        return cudaSuccess;
    if (kind < 0 || kind > cudaMemcpyDefault)
        return cudaErrorInvalidMemcpyDirection;
    kind = resolve_kind(kind, dst, src);
    CUresult r = CUDA_SUCCESS;
    switch (kind) {
    case cudaMemcpyHostToHost:
        if (!dst || !src)
            return cudaErrorInvalidValue;
        memmove(dst, src, count);
        return cudaSuccess;
    case cudaMemcpyHostToDevice: r = cuMemcpyHtoD_v2(dptr(dst), src, count); break;
    case cudaMemcpyDeviceToHost: r = cuMemcpyDtoH_v2(dst, dptr(src), count); break;
    default: r = cuMemcpyDtoD_v2(dptr(dst), dptr(src), count); break;
    }
    if (r == CUDA_ERROR_INVALID_VALUE) {
        fprintf(stderr, "warpsim: %s(%p, %p, %zu, cudaMemcpy%s): a device range is not "
                        "allocated\n", api, dst, src, count, kind_name(kind));
        return cudaErrorInvalidValue;
    }
    return rt_from_cu(r);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess)
        e = copy_locked(dst, src, count, kind, "cudaMemcpy");
    return rt_leave(e);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind,
                            cudaStream_t stream)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && !rt_stream_ok(stream))
        e = cudaErrorInvalidResourceHandle;
    if (e == cudaSuccess)
        e = copy_locked(dst, src, count, kind, "cudaMemcpyAsync");
    return rt_leave(e);
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, int kind)
{
    if (width > dpitch || width > spitch)
        return rt_error(cudaErrorInvalidPitchValue);
    cudaError_t e = rt_enter();
    for (size_t y = 0; e == cudaSuccess && y < height; y++)
        e = copy_locked((char *)dst + y * dpitch, (const char *)src + y * spitch, width, kind,
                        "cudaMemcpy2D");
    return rt_leave(e);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, int kind, cudaStream_t stream)
{
    if (!stream_ok(stream))
        return rt_error(cudaErrorInvalidResourceHandle);
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    cudaError_t e = rt_enter();
    if (e == cudaSuccess && count)
        e = rt_from_cu(cuMemsetD8_v2(dptr(devPtr), (unsigned char)value, count));
    return rt_leave(e);
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    if (!stream_ok(stream))
        return rt_error(cudaErrorInvalidResourceHandle);
    return cudaMemset(devPtr, value, count);
}

cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    if (width > pitch)
        return rt_error(cudaErrorInvalidPitchValue);
    cudaError_t e = rt_enter();
    for (size_t y = 0; e == cudaSuccess && width && y < height; y++)
        e = rt_from_cu(cuMemsetD8_v2(dptr((char *)devPtr + y * pitch), (unsigned char)value,
                                     width));
    return rt_leave(e);
}

/* ---- symbols ---------------------------------------------------------------------------- */
static cudaError_t symbol_locked(const void *symbol, const char *api, CUdeviceptr *addr,
                                 size_t *size)
{
    rt_var *v = rt_find_var(symbol);
    if (!v) {
        fprintf(stderr, "warpsim: %s: %p is not a registered __device__ or __constant__ "
                        "variable\n", api, symbol);
        return cudaErrorInvalidSymbol;
    }
    CUmodule mod;
    cudaError_t e = rt_fatbin_module(v->fb, &mod);
    if (e != cudaSuccess)
        return e;
    CUresult r = cuModuleGetGlobal_v2(addr, size, mod, v->name);
    if (r == CUDA_ERROR_NOT_FOUND) {
        fprintf(stderr, "warpsim: %s: variable %s is registered but not in the fatbinary's "
                        "PTX\n", api, v->name);
        return cudaErrorInvalidSymbol;
    }
    return rt_from_cu(r);
}

static cudaError_t symbol_copy(const void *symbol, void *host, size_t count, size_t offset,
                               int kind, int to_symbol, const char *api)
{
    int want = to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    if (kind != want && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return rt_error(cudaErrorInvalidMemcpyDirection);
    cudaError_t e = rt_enter();
    CUdeviceptr a = 0;
    size_t n = 0;
    if (e == cudaSuccess)
        e = symbol_locked(symbol, api, &a, &n);
    if (e == cudaSuccess && (offset > n || count > n - offset)) {
        fprintf(stderr, "warpsim: %s: %zu bytes at offset %zu exceed the variable's %zu "
                        "bytes\n", api, count, offset, n);
        e = cudaErrorInvalidValue;
    }
    if (e == cudaSuccess) {
        void *dev = (void *)(uintptr_t)(a + offset);
        if (kind == cudaMemcpyDefault)
            kind = rt_is_device_ptr(host) ? cudaMemcpyDeviceToDevice : want;
        e = to_symbol ? copy_locked(dev, host, count, kind, api)
                      : copy_locked(host, dev, count, kind, api);
    }
    return rt_leave(e);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               int kind)
{
    return symbol_copy(symbol, (void *)src, count, offset, kind, 1, "cudaMemcpyToSymbol");
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 int kind)
{
    return symbol_copy(symbol, dst, count, offset, kind, 0, "cudaMemcpyFromSymbol");
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, int kind, cudaStream_t stream)
{
    if (!stream_ok(stream))
        return rt_error(cudaErrorInvalidResourceHandle);
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                      size_t offset, int kind, cudaStream_t stream)
{
    if (!stream_ok(stream))
        return rt_error(cudaErrorInvalidResourceHandle);
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol)
{
    if (!devPtr)
        return rt_error(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    CUdeviceptr a = 0;
    size_t n = 0;
    if (e == cudaSuccess)
        e = symbol_locked(symbol, "cudaGetSymbolAddress", &a, &n);
    if (e == cudaSuccess)
        *devPtr = (void *)(uintptr_t)a;
    return rt_leave(e);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    if (!size)
        return rt_error(cudaErrorInvalidValue);
    cudaError_t e = rt_enter();
    CUdeviceptr a = 0;
    if (e == cudaSuccess)
        e = symbol_locked(symbol, "cudaGetSymbolSize", &a, size);
    return rt_leave(e);
}

/* What cudaPointerGetAttributes reports, in CUDA 13's layout (rt_abi.c copies as much of it
 * as the program's ABI has room for). */
void rt_pointer_attributes(const void *ptr, struct cudaPointerAttributes *attr)
{
    rt_lock();
    memset(attr, 0, sizeof *attr);
    if (rt_is_device_ptr(ptr)) {
        attr->type = cudaMemoryTypeDevice;
        attr->devicePointer = (void *)ptr;
    } else if (block_find(ws_rt.host_allocs, ptr, 1)) {
        attr->type = cudaMemoryTypeHost;
        attr->hostPointer = (void *)ptr;
    } else {
        attr->type = cudaMemoryTypeUnregistered;
        attr->device = -2;
    }
    rt_unlock();
}
