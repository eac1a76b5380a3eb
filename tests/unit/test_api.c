/* test_api.c - the CUDA Driver API: a full vecadd flow and the error codes of misuse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <cuda.h>

#include "api/api.h"

/* nvcc -ptx -arch=compute_75 -O3 of: c[i] = a[i] + b[i] for i < n */
static const char vecadd_ptx[] =
    ".version 9.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry vecadd(\n"
    "\t.param .u64 vecadd_param_0,\n"
    "\t.param .u64 vecadd_param_1,\n"
    "\t.param .u64 vecadd_param_2,\n"
    "\t.param .u32 vecadd_param_3\n"
    ")\n"
    "{\n"
    "\t.reg .pred \t%p<2>;\n"
    "\t.reg .f32 \t%f<4>;\n"
    "\t.reg .b32 \t%r<6>;\n"
    "\t.reg .b64 \t%rd<11>;\n"
    "\n"
    "\tld.param.u64 \t%rd1, [vecadd_param_0];\n"
    "\tld.param.u64 \t%rd2, [vecadd_param_1];\n"
    "\tld.param.u64 \t%rd3, [vecadd_param_2];\n"
    "\tld.param.u32 \t%r2, [vecadd_param_3];\n"
    "\tmov.u32 \t%r3, %ctaid.x;\n"
    "\tmov.u32 \t%r4, %ntid.x;\n"
    "\tmov.u32 \t%r5, %tid.x;\n"
    "\tmad.lo.s32 \t%r1, %r3, %r4, %r5;\n"
    "\tsetp.ge.s32 \t%p1, %r1, %r2;\n"
    "\t@%p1 bra \t$L__BB0_2;\n"
    "\n"
    "\tcvta.to.global.u64 \t%rd4, %rd1;\n"
    "\tmul.wide.s32 \t%rd5, %r1, 4;\n"
    "\tadd.s64 \t%rd6, %rd4, %rd5;\n"
    "\tcvta.to.global.u64 \t%rd7, %rd2;\n"
    "\tadd.s64 \t%rd8, %rd7, %rd5;\n"
    "\tld.global.f32 \t%f1, [%rd8];\n"
    "\tld.global.f32 \t%f2, [%rd6];\n"
    "\tadd.f32 \t%f3, %f2, %f1;\n"
    "\tcvta.to.global.u64 \t%rd9, %rd3;\n"
    "\tadd.s64 \t%rd10, %rd9, %rd5;\n"
    "\tst.global.f32 \t[%rd10], %f3;\n"
    "\n"
    "$L__BB0_2:\n"
    "\tret;\n"
    "\n"
    "}\n";

/* An unknown instruction on line 5. */
static const char bad_ptx[] = ".version 9.0\n"
                              ".target sm_75\n"
                              ".address_size 64\n"
                              ".visible .entry k()\n"
                              "{ BADPTX; ret; }\n";

#define N 1000

/* Launch statistics handed to the on-destroy hook. */
typedef struct {
    int calls;
    size_t launches;
    char kernel[128];
    uint64_t thread_insts, cycles;
} hook_log;

static void on_destroy(ws_sim *sim, void *user)
{
    hook_log *h = user;
    size_t n = 0;
    const ws_launch_stats *ls = ws_sim_launches(sim, &n);
    h->calls++;
    h->launches += n;
    if (n) {
        snprintf(h->kernel, sizeof h->kernel, "%s", ls[0].kernel);
        h->thread_insts += ls[0].thread_insts;
        h->cycles += ls[0].cycles;
    }
}

/* Back to "before cuInit", on the default (GTX480) configuration. */
static void reset_driver(void)
{
    ws_config cfg;
    char err[256];
    ws_api_on_destroy(NULL, NULL);
    ws_api_shutdown();
    ws_config_defaults(&cfg);
    assert_int_equal(ws_api_set_config(&cfg, "test", err, sizeof err), 0);
}

/* Runs f with stderr redirected; returns what it printed (malloc'd). */
static char *capture_stderr(CUresult (*f)(void *), void *arg, CUresult *rc)
{
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    dup2(fileno(tmp), 2);
    *rc = f(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    long len = ftell(tmp);
    char *buf = calloc(1, (size_t)len + 1);
    rewind(tmp);
    assert_int_equal(fread(buf, 1, (size_t)len, tmp), (size_t)len);
    fclose(tmp);
    return buf;
}

static void test_not_initialised(void **state)
{
    (void)state;
    ws_api_shutdown();
    CUdevice d;
    CUcontext c;
    CUdeviceptr p;
    int v = 0;
    assert_int_equal(cuDeviceGet(&d, 0), CUDA_ERROR_NOT_INITIALIZED);
    assert_int_equal(cuDeviceGetCount(&v), CUDA_ERROR_NOT_INITIALIZED);
    assert_int_equal(cuCtxCreate(&c, NULL, 0, 0), CUDA_ERROR_NOT_INITIALIZED);
    assert_int_equal(cuDevicePrimaryCtxRetain(&c, 0), CUDA_ERROR_NOT_INITIALIZED);
    assert_int_equal(cuMemAlloc(&p, 16), CUDA_ERROR_NOT_INITIALIZED);
    assert_int_equal(cuCtxSynchronize(), CUDA_ERROR_NOT_INITIALIZED);
    /* these need no cuInit */
    assert_int_equal(cuDriverGetVersion(&v), CUDA_SUCCESS);
    assert_int_equal(v, 13000);
    assert_int_equal(cuInit(1), CUDA_ERROR_INVALID_VALUE);   /* flags must be 0 */
}

static void test_error_strings(void **state)
{
    (void)state;
    const char *s = NULL;
    assert_int_equal(cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &s), CUDA_SUCCESS);
    assert_string_equal(s, "CUDA_ERROR_INVALID_VALUE");
    assert_int_equal(cuGetErrorName(CUDA_ERROR_ILLEGAL_ADDRESS, &s), CUDA_SUCCESS);
    assert_string_equal(s, "CUDA_ERROR_ILLEGAL_ADDRESS");
    assert_int_equal(cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &s), CUDA_SUCCESS);
    assert_string_equal(s, "invalid argument");
    assert_int_equal(cuGetErrorString(CUDA_SUCCESS, &s), CUDA_SUCCESS);
    assert_string_equal(s, "no error");
    assert_int_equal(cuGetErrorName((CUresult)12345, &s), CUDA_ERROR_INVALID_VALUE);
    assert_null(s);
    assert_int_equal(cuGetErrorString(CUDA_ERROR_UNKNOWN, NULL), CUDA_ERROR_INVALID_VALUE);
}

static void test_device(void **state)
{
    (void)state;
    reset_driver();
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
    assert_int_equal(cuInit(0), CUDA_SUCCESS);   /* idempotent */
    CUdevice d = -1;
    int n = 0, v = 0;
    char name[64];
    size_t total = 0;
    assert_int_equal(cuDeviceGetCount(&n), CUDA_SUCCESS);
    assert_int_equal(n, 1);
    assert_int_equal(cuDeviceGet(&d, 0), CUDA_SUCCESS);
    assert_int_equal(d, 0);
    assert_int_equal(cuDeviceGet(&d, 1), CUDA_ERROR_INVALID_DEVICE);
    assert_int_equal(cuDeviceGet(NULL, 0), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuDeviceGetName(name, sizeof name, 0), CUDA_SUCCESS);
    assert_string_equal(name, "GeForce GTX 480");
    assert_int_equal(cuDeviceGetName(name, 8, 0), CUDA_SUCCESS);
    assert_string_equal(name, "GeForce");   /* truncated to len - 1 characters */
    assert_int_equal(cuDeviceGetName(name, sizeof name, 3), CUDA_ERROR_INVALID_DEVICE);
    assert_int_equal(cuDeviceTotalMem(&total, 0), CUDA_SUCCESS);
    assert_true(total == 1536ull << 20);

    static const struct {
        CUdevice_attribute a;
        int v;
    } want[] = {
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1024},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 1024},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 64},
        {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 65535},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 49152},
        {CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, 65536},
        {CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, 32768},
        {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 700000},
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 15},
        {CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 924000},
        {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 384},
        {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 786432},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, 1536},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 2},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, 49152},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, 32768},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, 8},
        {CU_DEVICE_ATTRIBUTE_INTEGRATED, 0},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        v = -1;
        assert_int_equal(cuDeviceGetAttribute(&v, want[i].a, 0), CUDA_SUCCESS);
        if (v != want[i].v)
            fail_msg("attribute %d: got %d, expected %d", (int)want[i].a, v, want[i].v);
    }
    assert_int_equal(cuDeviceGetAttribute(&v, (CUdevice_attribute)9999, 0),
                     CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuDeviceGetAttribute(NULL, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0),
                     CUDA_ERROR_INVALID_VALUE);
}

static void test_no_context(void **state)
{
    (void)state;
    reset_driver();
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
    CUdeviceptr p;
    CUmodule m;
    CUcontext c = (CUcontext)1;
    assert_int_equal(cuCtxGetCurrent(&c), CUDA_SUCCESS);
    assert_null(c);
    assert_int_equal(cuMemAlloc(&p, 16), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(cuModuleLoadData(&m, vecadd_ptx), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(cuCtxCreate(NULL, NULL, 0, 0), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuCtxCreate(&c, NULL, 0, 1), CUDA_ERROR_INVALID_DEVICE);
    assert_int_equal(cuCtxSetCurrent((CUcontext)&p), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(cuCtxDestroy((CUcontext)&p), CUDA_ERROR_INVALID_CONTEXT);
}

static void fill(float *a, float *b)
{
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.25f;
        b[i] = 1000.0f - (float)i;
    }
}

static void test_vecadd_flow(void **state)
{
    (void)state;
    hook_log log = {0};
    reset_driver();
    ws_api_on_destroy(on_destroy, &log);
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
    CUcontext ctx, cur;
    CUmodule mod;
    CUfunction fn;
    assert_int_equal(cuCtxCreate(&ctx, NULL, 0, 0), CUDA_SUCCESS);
    assert_int_equal(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    assert_ptr_equal(cur, ctx);   /* a new context is made current */
    assert_int_equal(cuModuleLoadData(&mod, vecadd_ptx), CUDA_SUCCESS);
    assert_int_equal(cuModuleGetFunction(&fn, mod, "vecadd"), CUDA_SUCCESS);

    static float a[N], b[N], c[N];
    fill(a, b);
    const size_t bytes = sizeof a;
    CUdeviceptr da, db, dc;
    assert_int_equal(cuMemAlloc(&da, bytes), CUDA_SUCCESS);
    assert_int_equal(cuMemAlloc(&db, bytes), CUDA_SUCCESS);
    assert_int_equal(cuMemAlloc(&dc, bytes), CUDA_SUCCESS);
    size_t fr = 0, tot = 0;
    assert_int_equal(cuMemGetInfo(&fr, &tot), CUDA_SUCCESS);
    assert_true(tot == 1536ull << 20);
    assert_true(fr <= tot - 3 * bytes);
    assert_int_equal(cuMemcpyHtoD(da, a, bytes), CUDA_SUCCESS);
    assert_int_equal(cuMemcpyHtoD(db, b, bytes), CUDA_SUCCESS);
    assert_int_equal(cuMemsetD32(dc, 0x7fc00000u, N), CUDA_SUCCESS);   /* NaN */

    CUevent e0, e1;
    assert_int_equal(cuEventCreate(&e0, CU_EVENT_DEFAULT), CUDA_SUCCESS);
    assert_int_equal(cuEventCreate(&e1, CU_EVENT_DEFAULT), CUDA_SUCCESS);
    int n = N;
    void *args[] = {&da, &db, &dc, &n};
    assert_int_equal(cuEventRecord(e0, NULL), CUDA_SUCCESS);
    assert_int_equal(cuLaunchKernel(fn, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL),
                     CUDA_SUCCESS);
    assert_int_equal(cuEventRecord(e1, NULL), CUDA_SUCCESS);
    assert_int_equal(cuEventSynchronize(e1), CUDA_SUCCESS);
    assert_int_equal(cuCtxSynchronize(), CUDA_SUCCESS);
    assert_int_equal(cuMemcpyDtoH(c, dc, bytes), CUDA_SUCCESS);
    for (int i = 0; i < N; i++)
        if (c[i] != a[i] + b[i])
            fail_msg("kernelParams: c[%d] = %g, expected %g", i, (double)c[i],
                     (double)(a[i] + b[i]));
    float ms = -1;
    assert_int_equal(cuEventElapsedTime(&ms, e0, e1), CUDA_SUCCESS);
    assert_true(ms >= 0);

    /* the same launch through `extra`: pointers at 0, 8, 16 and n at 24 */
    struct {
        CUdeviceptr a, b, c;
        int n;
    } pack = {da, db, dc, N / 2};
    size_t size = sizeof pack;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &pack, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     CU_LAUNCH_PARAM_END};
    assert_int_equal(cuMemsetD8(dc, 0, bytes), CUDA_SUCCESS);
    assert_int_equal(cuLaunchKernel(fn, (N + 63) / 64, 1, 1, 64, 1, 1, 0, NULL, NULL, extra),
                     CUDA_SUCCESS);
    assert_int_equal(cuMemcpyDtoH(c, dc, bytes), CUDA_SUCCESS);
    for (int i = 0; i < N; i++) {
        float want = i < N / 2 ? a[i] + b[i] : 0.0f;
        if (c[i] != want)
            fail_msg("extra: c[%d] = %g, expected %g", i, (double)c[i], (double)want);
    }
    /* DtoD */
    assert_int_equal(cuMemcpyDtoD(dc, da, bytes), CUDA_SUCCESS);
    assert_int_equal(cuMemcpyDtoH(c, dc, bytes), CUDA_SUCCESS);
    assert_true(c[N - 1] == a[N - 1]);

    int v = -1;
    assert_int_equal(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn),
                     CUDA_SUCCESS);
    assert_int_equal(v, 1024);
    assert_int_equal(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, fn), CUDA_SUCCESS);
    assert_int_equal(v, 90);
    assert_int_equal(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn),
                     CUDA_SUCCESS);
    assert_int_equal(v, 0);
    assert_int_equal(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn),
                     CUDA_SUCCESS);
    assert_int_equal(v, 0);
    assert_int_equal(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_BINARY_VERSION, fn), CUDA_SUCCESS);
    assert_int_equal(v, 20);

    assert_int_equal(cuEventDestroy(e0), CUDA_SUCCESS);
    assert_int_equal(cuEventDestroy(e1), CUDA_SUCCESS);
    assert_int_equal(cuEventDestroy(e1), CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(cuMemFree(da), CUDA_SUCCESS);
    assert_int_equal(cuMemFree(db), CUDA_SUCCESS);
    assert_int_equal(cuMemFree(dc), CUDA_SUCCESS);
    assert_int_equal(cuModuleUnload(mod), CUDA_SUCCESS);
    assert_int_equal(log.calls, 0);
    assert_int_equal(cuCtxDestroy(ctx), CUDA_SUCCESS);
    /* the hook saw the context's two launches before its simulation went away */
    assert_int_equal(log.calls, 1);
    assert_int_equal(log.launches, 2);
    assert_string_equal(log.kernel, "vecadd");
    assert_true(log.thread_insts > 0);
    assert_int_equal(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    assert_null(cur);
    ws_api_on_destroy(NULL, NULL);
}

static CUresult load_bad(void *arg)
{
    return cuModuleLoadData(arg, bad_ptx);
}

/* A module over 1 MB (vecadd plus padding functions) loads from memory and from a
 * file: no size limit below what the host can hold. */
static void test_big_module(void **state)
{
    (void)state;
    size_t cap = (size_t)3 << 20, len = 0;
    char *img = malloc(cap);
    assert_non_null(img);
    len += (size_t)snprintf(img, cap, "%s", vecadd_ptx);
    for (int i = 0; len < ((size_t)1 << 20) + 4096; i++) {
        len += (size_t)snprintf(img + len, cap - len, "\n.func pad%d()\n{\n", i);
        for (int k = 0; k < 40; k++)
            len += (size_t)snprintf(img + len, cap - len, "\tbar.warp.sync \t-1;\n");
        len += (size_t)snprintf(img + len, cap - len, "\tret;\n}\n");
    }
    CUdevice dev;
    CUcontext ctx;
    CUmodule m1, m2;
    CUfunction f;
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
    assert_int_equal(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
    assert_int_equal(cuCtxCreate(&ctx, NULL, 0, dev), CUDA_SUCCESS);
    assert_int_equal(cuModuleLoadData(&m1, img), CUDA_SUCCESS);
    assert_int_equal(cuModuleGetFunction(&f, m1, "vecadd"), CUDA_SUCCESS);
    char path[] = "/tmp/ws_test_bigXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, img, len), (ssize_t)len);
    close(fd);
    assert_int_equal(cuModuleLoad(&m2, path), CUDA_SUCCESS);
    assert_int_equal(cuModuleGetFunction(&f, m2, "vecadd"), CUDA_SUCCESS);
    unlink(path);
    free(img);
    assert_int_equal(cuCtxDestroy(ctx), CUDA_SUCCESS);
}

static void test_errors(void **state)
{
    (void)state;
    reset_driver();
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
    CUcontext ctx;
    CUmodule mod, m2;
    CUfunction fn, f2;
    CUdeviceptr p = 0, q = 0;
    char host[64] = {0};
    assert_int_equal(cuCtxCreate(&ctx, NULL, 0, 0), CUDA_SUCCESS);
    assert_int_equal(cuModuleLoadData(&mod, vecadd_ptx), CUDA_SUCCESS);
    assert_int_equal(cuModuleGetFunction(&fn, mod, "vecadd"), CUDA_SUCCESS);

    /* NULL and zero arguments */
    assert_int_equal(cuMemAlloc(NULL, 16), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemAlloc(&p, 0), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuModuleLoadData(NULL, vecadd_ptx), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuModuleLoadData(&m2, NULL), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuModuleGetFunction(NULL, mod, "vecadd"), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuModuleGetFunction(&f2, mod, NULL), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuEventCreate(NULL, 0), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuFuncGetAttribute(NULL, CU_FUNC_ATTRIBUTE_NUM_REGS, fn),
                     CUDA_ERROR_INVALID_VALUE);

    /* double free, freeing a pointer never allocated */
    assert_int_equal(cuMemAlloc(&p, 64), CUDA_SUCCESS);
    assert_int_equal(cuMemAlloc(&q, 64), CUDA_SUCCESS);
    assert_int_equal(cuMemFree(p), CUDA_SUCCESS);
    assert_int_equal(cuMemFree(p), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemFree(q + 8), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemFree(0), CUDA_SUCCESS);

    /* bad copy pointers */
    assert_int_equal(cuMemcpyHtoD(0xdead0000ull, host, 16), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemcpyHtoD(p, host, 16), CUDA_ERROR_INVALID_VALUE);   /* freed */
    assert_int_equal(cuMemcpyDtoH(host, q + 60, 16), CUDA_ERROR_INVALID_VALUE); /* past end */
    assert_int_equal(cuMemcpyHtoD(q, NULL, 16), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemcpyDtoH(NULL, q, 16), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemcpyDtoD(q, 0xdead0000ull, 16), CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuMemsetD32(q + 2, 0, 4), CUDA_ERROR_INVALID_VALUE);   /* misaligned */
    assert_int_equal(cuMemcpyHtoD(q, host, 0), CUDA_SUCCESS);   /* nothing to copy */
    assert_int_equal(cuMemcpyHtoD(q, host, 64), CUDA_SUCCESS);

    /* missing kernel and global */
    CUdeviceptr g;
    size_t gsize;
    assert_int_equal(cuModuleGetFunction(&f2, mod, "nosuchkernel"), CUDA_ERROR_NOT_FOUND);
    assert_int_equal(cuModuleGetGlobal(&g, &gsize, mod, "nosuchglobal"), CUDA_ERROR_NOT_FOUND);

    /* launch configuration errors are not sticky */
    int n = 4;
    void *args[] = {&q, &q, &q, &n};
    assert_int_equal(cuLaunchKernel(fn, 1, 1, 1, 1025, 1, 1, 0, NULL, args, NULL),
                     CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuLaunchKernel(fn, 0, 1, 1, 32, 1, 1, 0, NULL, args, NULL),
                     CUDA_ERROR_INVALID_VALUE);
    assert_int_equal(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL),
                     CUDA_ERROR_INVALID_VALUE);   /* parameters missing */
    size_t sz = 28;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, host, CU_LAUNCH_PARAM_BUFFER_SIZE, &sz,
                     CU_LAUNCH_PARAM_END};
    assert_int_equal(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, NULL, args, extra),
                     CUDA_ERROR_INVALID_VALUE);   /* both ways at once */
    assert_int_equal(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, (CUstream)&n, args, NULL),
                     CUDA_ERROR_INVALID_HANDLE);  /* no such stream */
    assert_int_equal(cuCtxSynchronize(), CUDA_SUCCESS);

    /* bad PTX: CUDA_ERROR_INVALID_PTX, and the parser's message on stderr */
    CUresult rc;
    char *msg = capture_stderr(load_bad, &m2, &rc);
    assert_int_equal(rc, CUDA_ERROR_INVALID_PTX);
    if (!strstr(msg, "<cuModuleLoadData>:5:"))
        fail_msg("bad PTX message lacks its position: %s", msg);
    free(msg);
    static const unsigned char elf[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0};
    assert_int_equal(cuModuleLoadData(&m2, elf), CUDA_ERROR_INVALID_IMAGE);
    assert_int_equal(cuModuleLoad(&m2, "/nonexistent/dir/k.ptx"), CUDA_ERROR_FILE_NOT_FOUND);

    /* garbage and stale handles never crash */
    assert_int_equal(cuModuleGetFunction(&f2, (CUmodule)host, "vecadd"),
                     CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(cuLaunchKernel((CUfunction)host, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL),
                     CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(cuEventRecord((CUevent)host, NULL), CUDA_ERROR_INVALID_HANDLE);
    int v;
    assert_int_equal(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, (CUfunction)host),
                     CUDA_ERROR_INVALID_HANDLE);
    CUevent e;
    float ms;
    assert_int_equal(cuEventCreate(&e, 0), CUDA_SUCCESS);
    assert_int_equal(cuEventElapsedTime(&ms, e, e), CUDA_ERROR_INVALID_HANDLE);  /* unrecorded */
    assert_int_equal(cuModuleUnload(mod), CUDA_SUCCESS);
    assert_int_equal(cuModuleUnload(mod), CUDA_ERROR_INVALID_HANDLE);
    assert_int_equal(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL),
                     CUDA_ERROR_INVALID_HANDLE);   /* its module is gone */
    assert_int_equal(cuCtxDestroy(ctx), CUDA_SUCCESS);
    assert_int_equal(cuCtxDestroy(ctx), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(cuCtxSetCurrent(ctx), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(cuMemAlloc(&p, 16), CUDA_ERROR_INVALID_CONTEXT);
}

static void test_sticky_fault(void **state)
{
    (void)state;
    reset_driver();
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    CUdeviceptr da, p;
    assert_int_equal(cuCtxCreate(&ctx, NULL, 0, 0), CUDA_SUCCESS);
    assert_int_equal(cuModuleLoadData(&mod, vecadd_ptx), CUDA_SUCCESS);
    assert_int_equal(cuModuleGetFunction(&fn, mod, "vecadd"), CUDA_SUCCESS);
    assert_int_equal(cuMemAlloc(&da, 256), CUDA_SUCCESS);
    CUdeviceptr bad = 16;   /* no allocation lives there */
    int n = 64;
    void *args[] = {&da, &da, &bad, &n};
    assert_int_equal(cuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL),
                     CUDA_ERROR_ILLEGAL_ADDRESS);
    /* from now on the context reports the fault */
    assert_int_equal(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
    assert_int_equal(cuMemAlloc(&p, 16), CUDA_ERROR_ILLEGAL_ADDRESS);
    assert_int_equal(cuMemcpyHtoD(da, &n, 4), CUDA_ERROR_ILLEGAL_ADDRESS);
    assert_int_equal(cuLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL),
                     CUDA_ERROR_ILLEGAL_ADDRESS);
    assert_int_equal(cuCtxDestroy(ctx), CUDA_SUCCESS);
    /* a fresh context is healthy */
    assert_int_equal(cuCtxCreate(&ctx, NULL, 0, 0), CUDA_SUCCESS);
    assert_int_equal(cuMemAlloc(&p, 16), CUDA_SUCCESS);
    assert_int_equal(cuCtxSynchronize(), CUDA_SUCCESS);
    assert_int_equal(cuCtxDestroy(ctx), CUDA_SUCCESS);
}

static void test_primary(void **state)
{
    (void)state;
    hook_log log = {0};
    reset_driver();
    ws_api_on_destroy(on_destroy, &log);
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
    CUcontext a, b;
    CUdeviceptr p;
    assert_int_equal(cuDevicePrimaryCtxRelease(0), CUDA_ERROR_INVALID_CONTEXT);
    assert_int_equal(cuDevicePrimaryCtxRetain(&a, 0), CUDA_SUCCESS);
    assert_int_equal(cuDevicePrimaryCtxRetain(&b, 0), CUDA_SUCCESS);
    assert_ptr_equal(a, b);
    assert_int_equal(cuMemAlloc(&p, 16), CUDA_ERROR_INVALID_CONTEXT);   /* not current yet */
    assert_int_equal(cuCtxSetCurrent(a), CUDA_SUCCESS);
    assert_int_equal(cuMemAlloc(&p, 16), CUDA_SUCCESS);
    assert_int_equal(cuCtxDestroy(a), CUDA_ERROR_INVALID_CONTEXT);   /* release it instead */
    assert_int_equal(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
    assert_int_equal(log.calls, 0);
    assert_int_equal(cuMemFree(p), CUDA_SUCCESS);   /* still retained once */
    assert_int_equal(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
    assert_int_equal(log.calls, 1);   /* the last release destroyed it */
    assert_int_equal(cuMemAlloc(&p, 16), CUDA_ERROR_CONTEXT_IS_DESTROYED);
    assert_int_equal(cuDevicePrimaryCtxRelease(0), CUDA_ERROR_INVALID_CONTEXT);
    /* retained again: the same handle, current again, with fresh memory */
    assert_int_equal(cuDevicePrimaryCtxRetain(&b, 0), CUDA_SUCCESS);
    assert_ptr_equal(a, b);
    assert_int_equal(cuMemAlloc(&p, 16), CUDA_SUCCESS);
    assert_int_equal(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
    ws_api_on_destroy(NULL, NULL);
}

static void test_environment(void **state)
{
    (void)state;
    ws_api_shutdown();
    ws_api_set_config(NULL, NULL, NULL, 0);
    setenv("WARPSIM_CONFIG", "hd7970", 1);
    setenv("WARPSIM_SET", "gpu.n_sm=7, gpu.name=\"Test, GPU\"", 1);
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
    int v = 0;
    char name[64];
    assert_int_equal(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0), CUDA_SUCCESS);
    assert_int_equal(v, 64);
    assert_int_equal(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0),
                     CUDA_SUCCESS);
    assert_int_equal(v, 7);
    assert_int_equal(cuDeviceGetName(name, sizeof name, 0), CUDA_SUCCESS);
    assert_string_equal(name, "Test, GPU");

    ws_api_shutdown();
    setenv("WARPSIM_SET", "gpu.n_smx=7", 1);
    assert_int_equal(cuInit(0), CUDA_ERROR_INVALID_VALUE);   /* message names gpu.n_smx */
    unsetenv("WARPSIM_SET");
    setenv("WARPSIM_CONFIG", "nosuchpreset", 1);
    assert_int_equal(cuInit(0), CUDA_ERROR_INVALID_VALUE);
    unsetenv("WARPSIM_CONFIG");

    setenv("WARPSIM_MODE", "fast", 1);
    assert_int_equal(cuInit(0), CUDA_ERROR_INVALID_VALUE);   /* not a sim.mode */
    setenv("WARPSIM_MODE", "timing", 1);
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
    CUcontext c;
    assert_int_equal(cuCtxCreate(&c, NULL, 0, 0), ws_api_mode_supported(WS_MODE_TIMING)
                                                      ? CUDA_SUCCESS
                                                      : CUDA_ERROR_NOT_SUPPORTED);
    unsetenv("WARPSIM_MODE");
    ws_api_shutdown();
}

static void test_stats_file(void **state)
{
    (void)state;
    char path[] = "/tmp/ws_test_api_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    ws_api_shutdown();
    ws_api_set_config(NULL, NULL, NULL, 0);
    setenv("WARPSIM_STATS", path, 1);
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
    unsetenv("WARPSIM_STATS");
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    CUdeviceptr d;
    assert_int_equal(cuCtxCreate(&ctx, NULL, 0, 0), CUDA_SUCCESS);
    assert_int_equal(cuModuleLoadData(&mod, vecadd_ptx), CUDA_SUCCESS);
    assert_int_equal(cuModuleGetFunction(&fn, mod, "vecadd"), CUDA_SUCCESS);
    assert_int_equal(cuMemAlloc(&d, 4 * 64), CUDA_SUCCESS);
    int n = 64;
    void *args[] = {&d, &d, &d, &n};
    assert_int_equal(cuLaunchKernel(fn, 2, 1, 1, 32, 1, 1, 0, NULL, args, NULL), CUDA_SUCCESS);
    assert_int_equal(cuCtxDestroy(ctx), CUDA_SUCCESS);   /* writes the file */

    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char buf[65536];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    buf[len] = 0;
    fclose(f);
    cJSON *j = cJSON_Parse(buf);
    assert_non_null(j);
    cJSON *ls = cJSON_GetObjectItemCaseSensitive(j, "launches");
    assert_int_equal(cJSON_GetArraySize(ls), 1);
    cJSON *l0 = cJSON_GetArrayItem(ls, 0);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(l0, "kernel")->valuestring, "vecadd");
    cJSON *grid = cJSON_GetObjectItemCaseSensitive(l0, "grid");
    assert_int_equal(cJSON_GetArrayItem(grid, 0)->valueint, 2);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(l0, "threads")->valueint, 64);
    cJSON *cfg = cJSON_GetObjectItemCaseSensitive(j, "config");
    assert_int_equal(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cfg, "gpu"), "n_sm")
            ->valueint,
        15);
    cJSON *total = cJSON_GetObjectItemCaseSensitive(j, "total");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(total, "launches")->valueint, 1);
    cJSON_Delete(j);
    ws_api_shutdown();
    unlink(path);
}

/* Timing mode: events measure simulated time, cycles / core clock. */
static void test_timing_events(void **state)
{
    (void)state;
    hook_log log = {0};
    ws_config cfg;
    char err[256];
    ws_api_shutdown();
    ws_config_defaults(&cfg);
    assert_int_equal(ws_config_set(&cfg, "sim.mode=timing", err, sizeof err), 0);
    assert_int_equal(ws_api_set_config(&cfg, "test timing", err, sizeof err), 0);
    if (!ws_api_mode_supported(WS_MODE_TIMING))
        skip();
    ws_api_on_destroy(on_destroy, &log);
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    CUevent e0, e1;
    assert_int_equal(cuCtxCreate(&ctx, NULL, 0, 0), CUDA_SUCCESS);
    assert_int_equal(cuModuleLoadData(&mod, vecadd_ptx), CUDA_SUCCESS);
    assert_int_equal(cuModuleGetFunction(&fn, mod, "vecadd"), CUDA_SUCCESS);
    static float a[N], b[N], c[N];
    fill(a, b);
    CUdeviceptr da, db, dc;
    assert_int_equal(cuMemAlloc(&da, sizeof a), CUDA_SUCCESS);
    assert_int_equal(cuMemAlloc(&db, sizeof b), CUDA_SUCCESS);
    assert_int_equal(cuMemAlloc(&dc, sizeof c), CUDA_SUCCESS);
    assert_int_equal(cuMemcpyHtoD(da, a, sizeof a), CUDA_SUCCESS);
    assert_int_equal(cuMemcpyHtoD(db, b, sizeof b), CUDA_SUCCESS);
    assert_int_equal(cuEventCreate(&e0, 0), CUDA_SUCCESS);
    assert_int_equal(cuEventCreate(&e1, 0), CUDA_SUCCESS);
    int n = N;
    void *args[] = {&da, &db, &dc, &n};
    assert_int_equal(cuEventRecord(e0, NULL), CUDA_SUCCESS);
    assert_int_equal(cuLaunchKernel(fn, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL),
                     CUDA_SUCCESS);
    assert_int_equal(cuEventRecord(e1, NULL), CUDA_SUCCESS);
    assert_int_equal(cuMemcpyDtoH(c, dc, sizeof c), CUDA_SUCCESS);
    for (int i = 0; i < N; i++)
        if (c[i] != a[i] + b[i])
            fail_msg("timing: c[%d] = %g, expected %g", i, (double)c[i], (double)(a[i] + b[i]));
    float ms = 0;
    assert_int_equal(cuEventElapsedTime(&ms, e0, e1), CUDA_SUCCESS);
    assert_int_equal(cuCtxDestroy(ctx), CUDA_SUCCESS);
    assert_int_equal(log.launches, 1);
    assert_true(log.cycles > 0);
    /* 700 MHz: cycles / 700e3 milliseconds */
    assert_true(ms == (float)((double)log.cycles / 700e3));
    ws_api_on_destroy(NULL, NULL);
    ws_api_shutdown();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_initialised), cmocka_unit_test(test_error_strings),
        cmocka_unit_test(test_device),          cmocka_unit_test(test_no_context),
        cmocka_unit_test(test_vecadd_flow),     cmocka_unit_test(test_errors),
        cmocka_unit_test(test_sticky_fault),    cmocka_unit_test(test_primary),
        cmocka_unit_test(test_environment),     cmocka_unit_test(test_stats_file),
        cmocka_unit_test(test_timing_events),  cmocka_unit_test(test_big_module),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
