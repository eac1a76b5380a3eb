/* rt_errors.cu - error paths: bad launch configurations (too many threads, zero grid,
 * too much shared memory) give cudaErrorInvalidConfiguration through cudaGetLastError
 * (Peek does not clear it), bad pointers and symbols, a function that is no kernel, an
 * unknown stream, an unimplemented call, error names and strings; last, an
 * out-of-bounds kernel access is a sticky cudaErrorIllegalAddress. */
#include "rt_check.h"

__global__ void touch(int *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = i;
}

__global__ void wild(int *d) { d[threadIdx.x + (1 << 28)] = 1; }

int main()
{
    rt_expect_warpsim();
    int *d;
    CHECK(cudaMalloc(&d, 256 * sizeof(int)));
    EXPECT(cudaGetLastError() == cudaSuccess);

    touch<<<1, 4096>>>(d, 256);                  /* too many threads per block */
    EXPECT(cudaPeekAtLastError() == cudaErrorInvalidConfiguration);
    EXPECT(cudaPeekAtLastError() == cudaErrorInvalidConfiguration);
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
    EXPECT(cudaGetLastError() == cudaSuccess);
    touch<<<0, 32>>>(d, 256);                    /* empty grid */
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
    touch<<<1, 32, 1 << 30>>>(d, 256);           /* shared memory beyond the device */
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
    touch<<<1, 256>>>(d, 256);                   /* and a good launch still works */
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    int h[256];
    EXPECT_ERR(cudaMemcpy(h, (int *)0x1234, sizeof h, cudaMemcpyDeviceToHost),
               cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpy(d, h, sizeof h, (cudaMemcpyKind)17), cudaErrorInvalidMemcpyDirection);
    EXPECT_ERR(cudaFree((void *)0x1234), cudaErrorInvalidValue);
    EXPECT_ERR(cudaMemcpyToSymbol(h, h, 4), cudaErrorInvalidSymbol);
    EXPECT_ERR(cudaStreamSynchronize((cudaStream_t)0x5678), cudaErrorInvalidResourceHandle);
    EXPECT_ERR(cudaSetDevice(3), cudaErrorInvalidDevice);
    /* a host function that is no registered kernel */
    void *noargs[1] = {nullptr};
    EXPECT_ERR(cudaLaunchKernel((const void *)&main, dim3(1), dim3(1), noargs, 0, nullptr),
               cudaErrorInvalidDeviceFunction);
    cudaFuncAttributes fa;
    EXPECT_ERR(cudaFuncGetAttributes(&fa, (const void *)&main), cudaErrorInvalidDeviceFunction);
    void *m = nullptr;
    EXPECT_ERR(cudaMallocManaged(&m, 64), cudaErrorNotSupported);
    EXPECT(cudaGetLastError() == cudaErrorNotSupported);
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 256; i++)
        EXPECT(h[i] == i);

    EXPECT(!std::strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration),
                        "cudaErrorInvalidConfiguration"));
    EXPECT(!std::strcmp(cudaGetErrorString(cudaSuccess), "no error"));
    EXPECT(!std::strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress"));
    EXPECT(std::strlen(cudaGetErrorString(cudaErrorLaunchFailure)) > 0);

    wild<<<1, 32>>>(d);                          /* out of bounds: sticky */
    cudaError_t e = cudaDeviceSynchronize();
    EXPECT(e == cudaErrorIllegalAddress);
    EXPECT(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaErrorIllegalAddress);
    std::printf("errors: PASS\n");
    return 0;
}
