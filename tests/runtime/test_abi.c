/* test_abi.c - the ABI-specific entry points of both library builds (src/cudart/rt_abi.c),
 * loaded with dlopen as a program's dynamic linker would, without nvcc (runs everywhere):
 *
 *   test_abi LIBRARY 13|12
 *
 * 13 (libcudart.so.13): cudaRuntimeGetVersion 13000; cudaGetDeviceProperties fills CUDA
 *    13's 1008 bytes and no more; no cudaGetDeviceProperties_v2; cudaPointerGetAttributes
 *    88 bytes.
 * 12 (libcudart.so.12): 12060; cudaGetDeviceProperties_v2 fills CUDA 12's 1032 bytes and
 *    no more; the unversioned cudaGetDeviceProperties (pre-CUDA-12 layout) is refused
 *    without touching its argument; cudaPointerGetAttributes 24 bytes; the CUDA 12 names
 *    CUDA 13 dropped are defined (implemented or a "not implemented" error).
 * Every structure is followed by a guard zone that must stay intact. */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/abi12.h"
#include "cudart/cudart.h"

#define GUARD 512
#define FILL 0xa5

static int failures;
#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);            \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

static void *lib;
static void *sym(const char *name)
{
    void *f = dlsym(lib, name);
    if (!f)
        fprintf(stderr, "%s: not defined\n", name);
    return f;
}

/* Bytes at and after `from` in buf that are still the fill. */
static int untouched_from(const unsigned char *buf, size_t from, size_t len)
{
    for (size_t i = from; i < len; i++)
        if (buf[i] != FILL)
            return 0;
    return 1;
}

typedef int (*int_fn)(int *);
typedef int (*props_fn)(void *, int);
typedef int (*ptr_fn)(void *, const void *);
typedef int (*void_fn)(void);

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_abi LIBRARY 13|12\n");
        return 2;
    }
    int abi = atoi(argv[2]);
    lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "%s\n", dlerror());
        return 1;
    }
    static unsigned char buf[2048 + GUARD];
    int ver = 0;
    int_fn version = (int_fn)sym("cudaRuntimeGetVersion");
    CHECK(version && version(&ver) == 0 && ver == (abi == 12 ? 12060 : 13000));

    size_t psize = abi == 12 ? sizeof(struct cudaDeviceProp12) : sizeof(struct cudaDeviceProp);
    props_fn props = (props_fn)sym(abi == 12 ? "cudaGetDeviceProperties_v2"
                                             : "cudaGetDeviceProperties");
    memset(buf, FILL, sizeof buf);
    CHECK(props && props(buf, 0) == 0);
    CHECK(untouched_from(buf, psize, psize + GUARD));
    CHECK(!memcmp(buf + offsetof(struct cudaDeviceProp, uuid), "warpsim-device-0", 16));
    if (abi == 12) {
        const struct cudaDeviceProp12 *p = (const void *)buf;
        CHECK(p->multiProcessorCount > 0 && p->warpSize > 0 && p->clockRate > 0);
        CHECK(p->memoryClockRate > 0 && p->l2CacheSize > 0);
        CHECK(p->maxThreadsPerMultiProcessor > 0 && p->reserved[59] == 0);
        printf("cudaGetDeviceProperties_v2: %zu bytes: %d SMs, %d kHz, L2 %d B\n", psize,
               p->multiProcessorCount, p->clockRate, p->l2CacheSize);
        /* the unversioned name: the pre-12 layout, refused, its argument untouched */
        props_fn legacy = (props_fn)sym("cudaGetDeviceProperties");
        memset(buf, FILL, sizeof buf);
        CHECK(legacy && legacy(buf, 0) == cudaErrorNotSupported);
        CHECK(untouched_from(buf, 0, sizeof buf));
        static const char *const names12[] = {
            "cudaThreadSynchronize", "cudaThreadExit", "cudaThreadSetCacheConfig",
            "cudaThreadGetCacheConfig", "cudaStreamGetCaptureInfo_v2",
            "cudaSignalExternalSemaphoresAsync_v2", "cudaGraphAddNode_v2",
            "cudaMemPrefetchAsync_v2", "cudaThreadSetLimit", "cudaSetDoubleForDevice"};
        for (size_t i = 0; i < sizeof names12 / sizeof names12[0]; i++)
            CHECK(sym(names12[i]) != NULL);
        void_fn sync = (void_fn)sym("cudaThreadSynchronize");
        CHECK(sync && sync() == 0);
        void_fn capture = (void_fn)sym("cudaStreamGetCaptureInfo_v2");
        CHECK(capture && capture() == cudaErrorNotSupported);
    } else {
        const struct cudaDeviceProp *p = (const void *)buf;
        CHECK(p->multiProcessorCount > 0 && p->warpSize > 0);
        printf("cudaGetDeviceProperties: %zu bytes: %d SMs\n", psize, p->multiProcessorCount);
        CHECK(dlsym(lib, "cudaGetDeviceProperties_v2") == NULL);
        CHECK(dlsym(lib, "cudaThreadSynchronize") == NULL);
    }

    size_t asize = abi == 12 ? sizeof(struct cudaPointerAttributes12)
                             : sizeof(struct cudaPointerAttributes);
    ptr_fn pattr = (ptr_fn)sym("cudaPointerGetAttributes");
    int local = 0;
    memset(buf, FILL, sizeof buf);
    CHECK(pattr && pattr(buf, &local) == 0);
    CHECK(untouched_from(buf, asize, asize + GUARD));
    CHECK(((const struct cudaPointerAttributes *)(const void *)buf)->type ==
          cudaMemoryTypeUnregistered);
    printf("cudaPointerGetAttributes: %zu bytes\n", asize);
    if (failures)
        fprintf(stderr, "%s: %d failures\n", argv[1], failures);
    else
        printf("%s: ABI %d: PASS\n", argv[1], abi);
    return failures ? 1 : 0;
}
