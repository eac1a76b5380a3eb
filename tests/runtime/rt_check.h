/* rt_check.h - helpers of the runtime test programs (CUDA, built by nvcc with
 * -cudart shared and run against warpsim's libcudart.so.13; tests/CMakeLists.txt). */
#ifndef RT_CHECK_H
#define RT_CHECK_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>

#include <cuda_runtime.h>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            std::fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,        \
                         cudaGetErrorName(e_), cudaGetErrorString(e_));                    \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

#define EXPECT(cond)                                                                       \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            std::fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);      \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

#define EXPECT_ERR(call, code)                                                             \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != (code)) {                                                                \
            std::fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__,          \
                         __LINE__, #call, cudaGetErrorName(e_), cudaGetErrorName(code));   \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

/* With RT_EXPECT_WARPSIM set (as the tests do), fails unless the runtime is warpsim's:
 * NVIDIA's libcudart is on this machine's default library path too. */
static inline void rt_expect_warpsim(void)
{
    if (!std::getenv("RT_EXPECT_WARPSIM"))
        return;
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    if (std::memcmp(&p.uuid, "warpsim-device-0", 16)) {
        std::fprintf(stderr, "not running on warpsim's libcudart (device %s)\n", p.name);
        std::exit(1);
    }
}

#endif
