/* rt_spin.cu - a long-running program for the interrupt test (exec_interrupt.py): each
 * thread iterates a recurrence `iters` times over global memory, `launches` times; the
 * host checks every result. Usage: rt_spin [iters [launches]]. */
#include "rt_check.h"

__global__ void spin(unsigned *x, int n, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = x[i];
    for (int k = 0; k < iters; k++) {
        v = v * 1664525u + 1013904223u;
        x[i] = v;
    }
}

static unsigned host_spin(unsigned v, int iters)
{
    for (int k = 0; k < iters; k++)
        v = v * 1664525u + 1013904223u;
    return v;
}

int main(int argc, char **argv)
{
    rt_expect_warpsim();
    int iters = argc > 1 ? std::atoi(argv[1]) : 100;
    int launches = argc > 2 ? std::atoi(argv[2]) : 2;
    const int n = 4096;
    unsigned h[n], want[n];
    for (int i = 0; i < n; i++)
        h[i] = want[i] = (unsigned)i;
    unsigned *d = nullptr;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    for (int l = 0; l < launches; l++) {
        spin<<<n / 128, 128>>>(d, n, iters);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        for (int i = 0; i < n; i++)
            want[i] = host_spin(want[i], iters);
    }
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == want[i]);
    CHECK(cudaFree(d));
    std::printf("spin: PASS (%d launches of %d iterations)\n", launches, iters);
    return 0;
}
