/* host_vecadd.c - a standalone CUDA Driver API program: c = a + b.
 *
 * Uses only <cuda.h>, so it builds unchanged against warpsim's include/cuda.h (linked
 * with libwarpsim) or NVIDIA's (linked with -lcuda):
 *   cc -I/usr/local/cuda/include host_vecadd.c -lcuda
 * Usage: host_vecadd [FILE.ptx] (default: host_vecadd.ptx, made from host_vecadd.cu).
 * Launches the kernel twice, once with kernelParams and once with the `extra` buffer,
 * and checks both results. Prints PASS and exits 0, or FAIL and exits 1.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HOST_VECADD_PTX
#ifdef WS_SOURCE_DIR
#define HOST_VECADD_PTX WS_SOURCE_DIR "/tests/host/host_vecadd.ptx"
#else
#define HOST_VECADD_PTX "host_vecadd.ptx"
#endif
#endif

#define CHECK(call)                                                                       \
    do {                                                                                  \
        CUresult r_ = (call);                                                             \
        if (r_ != CUDA_SUCCESS) {                                                         \
            const char *name_ = NULL, *str_ = NULL;                                       \
            cuGetErrorName(r_, &name_);                                                   \
            cuGetErrorString(r_, &str_);                                                  \
            fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,            \
                    name_ ? name_ : "?", str_ ? str_ : "?");                              \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

static int check(const float *a, const float *b, const float *c, int n, const char *how)
{
    for (int i = 0; i < n; i++)
        if (c[i] != a[i] + b[i]) {
            fprintf(stderr, "%s: c[%d] = %g, expected %g\n", how, i, c[i], a[i] + b[i]);
            return 1;
        }
    return 0;
}

static int run(const char *ptx_path)
{
    const int n = 1000;
    const size_t bytes = n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    if (!a || !b || !c)
        return 1;
    for (int i = 0; i < n; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = (float)(n - i);
    }

    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    char name[128];
    int sms = 0, warp = 0, cc_major = 0, cc_minor = 0, version = 0;
    size_t total = 0;
    CHECK(cuInit(0));
    CHECK(cuDriverGetVersion(&version));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDeviceGetName(name, sizeof name, dev));
    CHECK(cuDeviceTotalMem(&total, dev));
    CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    CHECK(cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
    CHECK(cuDeviceGetAttribute(&cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CHECK(cuDeviceGetAttribute(&cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    printf("driver %d, device 0: %s, %d SMs, warp %d, compute %d.%d, %zu MB\n", version, name,
           sms, warp, cc_major, cc_minor, total >> 20);

    CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
    CHECK(cuModuleLoad(&mod, ptx_path));
    CHECK(cuModuleGetFunction(&fn, mod, "vecadd"));

    CUdeviceptr da, db, dc;
    CHECK(cuMemAlloc(&da, bytes));
    CHECK(cuMemAlloc(&db, bytes));
    CHECK(cuMemAlloc(&dc, bytes));
    CHECK(cuMemcpyHtoD(da, a, bytes));
    CHECK(cuMemcpyHtoD(db, b, bytes));
    CHECK(cuMemsetD32(dc, 0, (size_t)n));

    unsigned block = 128, grid = (unsigned)(n + block - 1) / block;
    CUevent start, stop;
    CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
    CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));

    /* 1. kernelParams: one pointer per parameter */
    void *args[] = {&da, &db, &dc, (void *)&n};
    CHECK(cuEventRecord(start, NULL));
    CHECK(cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, NULL, args, NULL));
    CHECK(cuEventRecord(stop, NULL));
    CHECK(cuEventSynchronize(stop));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(c, dc, bytes));
    int bad = check(a, b, c, n, "kernelParams");
    float ms = 0;
    CHECK(cuEventElapsedTime(&ms, start, stop));

    /* 2. extra: the parameters packed by hand (pointers at 0, 8, 16; n at 24) */
    struct {
        CUdeviceptr a, b, c;
        int n;
    } pack = {da, db, dc, n};
    size_t pack_size = sizeof pack;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &pack, CU_LAUNCH_PARAM_BUFFER_SIZE,
                     &pack_size, CU_LAUNCH_PARAM_END};
    CHECK(cuMemsetD8(dc, 0, bytes));
    CHECK(cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, NULL, NULL, extra));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(c, dc, bytes));
    bad |= check(a, b, c, n, "extra");

    CHECK(cuEventDestroy(start));
    CHECK(cuEventDestroy(stop));
    CHECK(cuMemFree(da));
    CHECK(cuMemFree(db));
    CHECK(cuMemFree(dc));
    CHECK(cuModuleUnload(mod));
    CHECK(cuCtxDestroy(ctx));
    free(a);
    free(b);
    free(c);
    printf("vecadd of %d floats in %u blocks of %u threads: %.3f ms: %s\n", n, grid, block,
           (double)ms, bad ? "FAIL" : "PASS");
    return bad;
}

int main(int argc, char **argv)
{
    return run(argc > 1 ? argv[1] : HOST_VECADD_PTX) ? 1 : 0;
}
