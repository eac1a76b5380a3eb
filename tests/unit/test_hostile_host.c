/* test_hostile_host.c - hostile host programs against the Driver API (issue 19): use
 * after cuMemFree, double free, copies that overrun an allocation, a launch of a
 * function whose module was unloaded, calls after the context was destroyed. Each
 * returns the CUresult NVIDIA's driver returns and leaves the simulator usable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda.h>

static char *ptx_text(void)
{
    FILE *f = fopen(WS_SOURCE_DIR "/tests/host/host_vecadd.ptx", "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

typedef struct {
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
} env;

static void open_env(env *e)
{
    CUdevice d;
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
    assert_int_equal(cuDeviceGet(&d, 0), CUDA_SUCCESS);
    assert_int_equal(cuCtxCreate(&e->ctx, NULL, 0, d), CUDA_SUCCESS);
    assert_int_equal(cuModuleLoadData(&e->mod, ptx_text()), CUDA_SUCCESS);
    assert_int_equal(cuModuleGetFunction(&e->fn, e->mod, "vecadd"), CUDA_SUCCESS);
}

/* A correct launch of vecadd on n elements: the simulator still works. */
static void vecadd_ok(CUfunction fn, unsigned n)
{
    CUdeviceptr a, b, c;
    float h[64], r[64];
    for (unsigned i = 0; i < n; i++)
        h[i] = (float)i;
    assert_int_equal(cuMemAlloc(&a, n * 4), CUDA_SUCCESS);
    assert_int_equal(cuMemAlloc(&b, n * 4), CUDA_SUCCESS);
    assert_int_equal(cuMemAlloc(&c, n * 4), CUDA_SUCCESS);
    assert_int_equal(cuMemcpyHtoD(a, h, n * 4), CUDA_SUCCESS);
    assert_int_equal(cuMemcpyHtoD(b, h, n * 4), CUDA_SUCCESS);
    void *args[] = {&a, &b, &c, &n};
    assert_int_equal(cuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL), CUDA_SUCCESS);
    assert_int_equal(cuMemcpyDtoH(r, c, n * 4), CUDA_SUCCESS);
    for (unsigned i = 0; i < n; i++)
        assert_true(r[i] == 2.0f * (float)i);
    cuMemFree(a);
    cuMemFree(b);
    cuMemFree(c);
}

static void test_use_after_free(void **state)
{
    (void)state;
    env e;
    open_env(&e);
    CUdeviceptr p, q;
    char host[256] = {0};
    assert_int_equal(cuMemAlloc(&p, 256), CUDA_SUCCESS);
    assert_int_equal(cuMemAlloc(&q, 256), CUDA_SUCCESS);
    assert_int_equal(cuMemFree(p), CUDA_SUCCESS);
    /* copies and sets on freed memory: invalid argument, as NVIDIA's driver */
    assert_int_equal(cuMemcpyHtoD(p, host, 16), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemcpyDtoH(host, p, 16), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemcpyDtoD(q, p, 16), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemsetD8(p, 0, 16), CUDA_ERROR_INVALID_VALUE);
    /* double free */
    assert_int_equal(cuMemFree(p), CUDA_ERROR_INVALID_VALUE);
    /* a kernel writing through the freed pointer faults (illegal address, sticky) */
    unsigned n = 16;
    void *args[] = {&q, &q, &p, &n};
    assert_int_equal(cuLaunchKernel(e.fn, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL),
                     CUDA_ERROR_ILLEGAL_ADDRESS);
    assert_int_equal(cuCtxDestroy(e.ctx), CUDA_SUCCESS);
    /* a fresh context works */
    open_env(&e);
    vecadd_ok(e.fn, 64);
    assert_int_equal(cuCtxDestroy(e.ctx), CUDA_SUCCESS);
}

static void test_overrun(void **state)
{
    (void)state;
    env e;
    open_env(&e);
    CUdeviceptr p, q;
    static char host[8192];
    assert_int_equal(cuMemAlloc(&p, 1000), CUDA_SUCCESS);
    assert_int_equal(cuMemAlloc(&q, 1000), CUDA_SUCCESS);
    assert_int_equal(cuMemcpyHtoD(p, host, 1001), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemcpyHtoD(p + 999, host, 2), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemcpyDtoH(host, p, 4096), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemcpyDtoD(q, p, 1001), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemcpyDtoD(q + 1, p, 1000), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemsetD32(p, 0, 251), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemcpyHtoD(p, host, (size_t)-1), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemcpyHtoD(p + 4, host, (size_t)-8), CUDA_ERROR_INVALID_VALUE);
    /* an exact fit is fine, and the neighbour is untouched */
    memset(host, 0x5a, sizeof host);
    assert_int_equal(cuMemcpyHtoD(p, host, 1000), CUDA_SUCCESS);
    vecadd_ok(e.fn, 64);
    assert_int_equal(cuCtxDestroy(e.ctx), CUDA_SUCCESS);
}

static void test_unloaded_function(void **state)
{
    (void)state;
    env e;
    open_env(&e);
    CUdeviceptr p;
    assert_int_equal(cuMemAlloc(&p, 256), CUDA_SUCCESS);
    assert_int_equal(cuModuleUnload(e.mod), CUDA_SUCCESS);
    unsigned n = 16;
    void *args[] = {&p, &p, &p, &n};
    assert_int_equal(cuLaunchKernel(e.fn, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL),
                     CUDA_ERROR_INVALID_HANDLE);
    int v;
    assert_int_equal(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, e.fn),
                     CUDA_ERROR_INVALID_HANDLE);
    CUfunction f2;
    assert_int_equal(cuModuleGetFunction(&f2, e.mod, "vecadd"), CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(cuModuleUnload(e.mod), CUDA_ERROR_INVALID_HANDLE);
    /* a reload works */
    assert_int_equal(cuModuleLoadData(&e.mod, ptx_text()), CUDA_SUCCESS);
    assert_int_equal(cuModuleGetFunction(&e.fn, e.mod, "vecadd"), CUDA_SUCCESS);
    vecadd_ok(e.fn, 64);
    assert_int_equal(cuCtxDestroy(e.ctx), CUDA_SUCCESS);
}

static void test_after_context_destroy(void **state)
{
    (void)state;
    env e;
    open_env(&e);
    CUdeviceptr p;
    assert_int_equal(cuMemAlloc(&p, 256), CUDA_SUCCESS);
    CUcontext old = e.ctx;
    assert_int_equal(cuCtxDestroy(e.ctx), CUDA_SUCCESS);
    /* no current context any more */
    CUdeviceptr q;
    char host[16];
    assert_int_equal(cuMemAlloc(&q, 16), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(cuMemFree(p), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(cuMemcpyHtoD(p, host, 16), CUDA_ERROR_INVALID_CONTEXT);
    unsigned n = 16;
    void *args[] = {&p, &p, &p, &n};
    assert_int_equal(cuLaunchKernel(e.fn, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL),
                     CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT);
    CUmodule m;
    assert_int_equal(cuModuleLoadData(&m, ptx_text()), CUDA_ERROR_INVALID_CONTEXT);
    /* the destroyed handle itself */
    assert_int_equal(cuCtxSetCurrent(old), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(cuCtxDestroy(old), CUDA_ERROR_INVALID_CONTEXT);
    /* a stale function of the destroyed context inside a new one */
    env e2;
    open_env(&e2);
    assert_int_equal(cuLaunchKernel(e.fn, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL),
                     CUDA_ERROR_INVALID_HANDLE);
    vecadd_ok(e2.fn, 64);
    assert_int_equal(cuCtxDestroy(e2.ctx), CUDA_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_use_after_free),
        cmocka_unit_test(test_overrun),
        cmocka_unit_test(test_unloaded_function),
        cmocka_unit_test(test_after_context_destroy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
