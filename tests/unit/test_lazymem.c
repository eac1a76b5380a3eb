/* test_lazymem.c - device memory is committed lazily (issue 19): a 4 GB cuMemAlloc on a
 * GPU with 8 GB of memory costs host memory only for the pages that are touched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda.h>

/* Resident set size of this process in bytes (/proc/self/statm). */
static uint64_t rss_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long size = 0, res = 0;
    if (f) {
        if (fscanf(f, "%llu %llu", &size, &res) != 2)
            res = 0;
        fclose(f);
    }
    return (uint64_t)res * 4096u;
}

static void test_4gb_alloc(void **state)
{
    (void)state;
    setenv("WARPSIM_SET", "gpu.dram_bytes=8589934592", 1);
    CUdevice d;
    CUcontext ctx;
    assert_int_equal(cuInit(0), CUDA_SUCCESS);
    assert_int_equal(cuDeviceGet(&d, 0), CUDA_SUCCESS);
    assert_int_equal(cuCtxCreate(&ctx, NULL, 0, d), CUDA_SUCCESS);
    size_t free_b = 0, total = 0;
    assert_int_equal(cuMemGetInfo(&free_b, &total), CUDA_SUCCESS);
    assert_true(total == 8589934592ull);

    uint64_t before = rss_bytes();
    const size_t four_gb = (size_t)4 << 30;
    CUdeviceptr p;
    assert_int_equal(cuMemAlloc(&p, four_gb), CUDA_SUCCESS);
    uint64_t after_alloc = rss_bytes();
    /* touch 1 MB at each end, read it back */
    static uint8_t host[1 << 20], back[1 << 20];
    memset(host, 0xa5, sizeof host);
    assert_int_equal(cuMemcpyHtoD(p, host, sizeof host), CUDA_SUCCESS);
    assert_int_equal(cuMemcpyHtoD(p + four_gb - sizeof host, host, sizeof host), CUDA_SUCCESS);
    assert_int_equal(cuMemcpyDtoH(back, p + four_gb - sizeof host, sizeof back), CUDA_SUCCESS);
    assert_memory_equal(host, back, sizeof host);
    /* an untouched page in the middle reads as zero */
    uint32_t mid = 1;
    assert_int_equal(cuMemcpyDtoH(&mid, p + four_gb / 2, 4), CUDA_SUCCESS);
    assert_int_equal(mid, 0);
    uint64_t after_touch = rss_bytes();
    printf("RSS: %.1f MB before, %.1f MB after a 4 GB cuMemAlloc, %.1f MB after touching 2 MB of it\n",
           before / 1048576.0, after_alloc / 1048576.0, after_touch / 1048576.0);
    assert_true(after_alloc < before + (16u << 20));
    assert_true(after_touch < before + (64u << 20));
    assert_int_equal(cuMemFree(p), CUDA_SUCCESS);
    assert_int_equal(cuCtxDestroy(ctx), CUDA_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_4gb_alloc)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
