/* peer_shim_extra.c - Driver API calls our bench drivers make that ../shared/peer/drvshim.c
 * (GPGPU-Sim's runtime underneath) lacks; linked in by tools/peer_run.sh.
 * cuMemsetD32 (atax and bicg clear their accumulators): GPGPU-Sim's own cudaMemset for a zero
 * pattern (as a CUDA program would call it), otherwise a copy of the pattern.
 * cuCtxGetDevice and cuDeviceGetAttribute (blk sizes its grid by the SM count): device 0, and
 * the attribute from GPGPU-Sim's cudaGetDeviceProperties (the SM count of its configuration). */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdlib.h>

CUresult cuMemsetD32_v2(CUdeviceptr d, unsigned int v, size_t n)
{
    if (v == 0)
        return cudaMemset((void *)d, 0, n * 4) == cudaSuccess ? CUDA_SUCCESS : CUDA_ERROR_UNKNOWN;
    unsigned int *h = malloc(n * 4);
    if (!h)
        return CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++)
        h[i] = v;
    cudaError_t e = cudaMemcpy((void *)d, h, n * 4, cudaMemcpyHostToDevice);
    free(h);
    return e == cudaSuccess ? CUDA_SUCCESS : CUDA_ERROR_UNKNOWN;
}

CUresult cuCtxGetDevice(CUdevice *d)
{
    *d = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
    struct cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, d) != cudaSuccess)
        return CUDA_ERROR_UNKNOWN;
    switch (a) {
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = p.multiProcessorCount; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *v = p.warpSize; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = p.maxThreadsPerBlock; return CUDA_SUCCESS;
    default: return CUDA_ERROR_NOT_SUPPORTED;
    }
}
