/* rt_symbols.cu - __constant__ and __device__ variables: cudaMemcpyToSymbol /
 * FromSymbol (with offsets), cudaGetSymbolAddress / Size, an initialised __device__
 * array, a __device__ counter updated by atomics; pitched memory (cudaMallocPitch,
 * cudaMemcpy2D, cudaMemset2D). */
#include "rt_check.h"

__constant__ float coef[4];
__constant__ int offset_c = 7;
__device__ int counter;
__device__ int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};

__global__ void poly(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = coef[0] + v * (coef[1] + v * (coef[2] + v * coef[3])) + offset_c + table[i % 8];
        atomicAdd(&counter, 1);
    }
}

__global__ void scale2d(float *m, size_t pitch, int w, int h, float s)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float *row = (float *)((char *)m + y * pitch);
        row[x] *= s;
    }
}

int main()
{
    rt_expect_warpsim();
    const int n = 300;
    float hx[n], hy[n];
    for (int i = 0; i < n; i++)
        hx[i] = (float)(i % 13) * 0.5f;
    float c[4] = {1.0f, 2.0f, 0.0f, 0.0f};
    CHECK(cudaMemcpyToSymbol(coef, c, sizeof c));
    float c23[2] = {0.25f, -0.125f};   /* coef[2], coef[3] through an offset */
    CHECK(cudaMemcpyToSymbol(coef, c23, sizeof c23, 2 * sizeof(float)));
    int zero = 0;
    CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero, 0, cudaMemcpyHostToDevice));
    size_t sz = 0;
    CHECK(cudaGetSymbolSize(&sz, table));
    EXPECT(sz == sizeof(int) * 8);
    int *dtable = nullptr;
    CHECK(cudaGetSymbolAddress((void **)&dtable, table));
    int t3 = 0;
    CHECK(cudaMemcpy(&t3, dtable + 3, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(t3 == 4);

    float *dx, *dy;
    CHECK(cudaMalloc(&dx, sizeof hx));
    CHECK(cudaMalloc(&dy, sizeof hy));
    CHECK(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice));
    poly<<<(n + 127) / 128, 128>>>(dx, dy, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hy, dy, sizeof hy, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float v = hx[i];
        float want = 1.0f + v * (2.0f + v * (0.25f + v * -0.125f)) + 7 + (i % 8 + 1);
        if (std::fabs(hy[i] - want) > 1e-4f * (1 + std::fabs(want))) {
            std::fprintf(stderr, "y[%d] = %f, expected %f\n", i, hy[i], want);
            return 1;
        }
    }
    int cnt = 0;
    CHECK(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt));
    EXPECT(cnt == n);
    float back[2];
    CHECK(cudaMemcpyFromSymbol(back, coef, sizeof back, 2 * sizeof(float)));
    EXPECT(back[0] == 0.25f && back[1] == -0.125f);

    /* pitched 2D memory */
    const int w = 37, h = 11;
    float hm[h][w];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            hm[y][x] = (float)(y * 100 + x);
    float *dm;
    size_t pitch = 0;
    CHECK(cudaMallocPitch((void **)&dm, &pitch, w * sizeof(float), h));
    EXPECT(pitch >= w * sizeof(float));
    CHECK(cudaMemset2D(dm, pitch, 0, w * sizeof(float), h));
    CHECK(cudaMemcpy2D(dm, pitch, hm, w * sizeof(float), w * sizeof(float), h,
                       cudaMemcpyHostToDevice));
    dim3 b(16, 4), g((w + 15) / 16, (h + 3) / 4);
    scale2d<<<g, b>>>(dm, pitch, w, h, 3.0f);
    CHECK(cudaGetLastError());
    float out[h][w];
    CHECK(cudaMemcpy2D(out, w * sizeof(float), dm, pitch, w * sizeof(float), h,
                       cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            EXPECT(out[y][x] == 3.0f * hm[y][x]);
    CHECK(cudaFree(dm));
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    std::printf("symbols: PASS (counter %d, pitch %zu)\n", cnt, pitch);
    return 0;
}
