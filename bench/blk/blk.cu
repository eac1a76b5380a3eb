// blk: Black-Scholes pricing of European call and put options (float).
//
// Written to be reusable: another workload can `#include "../blk/blk.cu"` (or copy the
// two device functions) and get
//   bs_cnd(d)             - cumulative standard normal distribution, Abramowitz-Stegun
//                           26.2.17 polynomial (|error| < 7.5e-8)
//   bs_price(S,X,T,r,v,&call,&put)
//   black_scholes(...)    - grid-stride kernel over arrays of spot S, strike X and
//                           expiry T (years) with a common riskless rate r and
//                           volatility v; writes one call and one put price per option.
//   black_scholes_rv(...) - the same with per-option r and v arrays (PARSEC-style input).
// All kernels are plain 1-D grid-stride loops; any grid/block shape works.

#ifndef BLK_CU_INCLUDED
#define BLK_CU_INCLUDED

__device__ __forceinline__ float bs_cnd(float d)
{
    const float a1 = 0.319381530f, a2 = -0.356563782f, a3 = 1.781477937f,
                a4 = -1.821255978f, a5 = 1.330274429f;
    const float inv_sqrt_2pi = 0.398942280401432678f;
    float z = fabsf(d);
    float k = 1.0f / (1.0f + 0.2316419f * z);
    float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    float tail = inv_sqrt_2pi * expf(-0.5f * z * z) * poly;  // P(Z > |d|)
    return d > 0.0f ? 1.0f - tail : tail;
}

__device__ __forceinline__ void bs_price(float s, float x, float t, float r, float v,
                                         float *call, float *put)
{
    float sqrt_t = sqrtf(t);
    float vsqrt_t = v * sqrt_t;
    float d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / vsqrt_t;
    float d2 = d1 - vsqrt_t;
    float nd1 = bs_cnd(d1), nd2 = bs_cnd(d2);
    float xdisc = x * expf(-r * t);
    *call = s * nd1 - xdisc * nd2;
    *put = xdisc * (1.0f - nd2) - s * (1.0f - nd1);
}

extern "C" __global__ void black_scholes(float *__restrict__ call, float *__restrict__ put,
                                         const float *__restrict__ spot,
                                         const float *__restrict__ strike,
                                         const float *__restrict__ years, float r, float v, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float c, p;
        bs_price(spot[i], strike[i], years[i], r, v, &c, &p);
        call[i] = c;
        put[i] = p;
    }
}

extern "C" __global__ void black_scholes_rv(float *__restrict__ call, float *__restrict__ put,
                                            const float *__restrict__ spot,
                                            const float *__restrict__ strike,
                                            const float *__restrict__ years,
                                            const float *__restrict__ rate,
                                            const float *__restrict__ vol, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float c, p;
        bs_price(spot[i], strike[i], years[i], rate[i], vol[i], &c, &p);
        call[i] = c;
        put[i] = p;
    }
}

#endif
