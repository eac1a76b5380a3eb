// blackscholes.cu - European call/put prices by the Black-Scholes formula,
// one option per thread (seed004 / AMD APP SDK style BlackScholes).
//
// The cumulative normal distribution is written through erfcf:
//   N(x) = 0.5 * erfc(-x / sqrt(2))
// which is accurate over the whole real line (no polynomial cut-off).

__device__ __forceinline__ float cnd(float x)
{
    return 0.5f * erfcf(-0.70710678118654752f * x);
}

// S: spot price, K: strike, T: years to expiry; r: riskless rate, v: volatility.
extern "C" __global__ void blackscholes(const float *__restrict__ S, const float *__restrict__ K,
                                        const float *__restrict__ T, float *__restrict__ call,
                                        float *__restrict__ put, float r, float v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = S[i], k = K[i], t = T[i];
    float sqrt_t = sqrtf(t);
    float v_sqrt_t = v * sqrt_t;
    float d1 = (logf(s / k) + (r + 0.5f * v * v) * t) / v_sqrt_t;
    float d2 = d1 - v_sqrt_t;
    float k_disc = k * expf(-r * t);
    float nd1 = cnd(d1), nd2 = cnd(d2);
    // N(-x) = 1 - N(x) loses precision in the tails; evaluate it directly instead.
    float nmd1 = cnd(-d1), nmd2 = cnd(-d2);
    call[i] = s * nd1 - k_disc * nd2;
    put[i] = k_disc * nmd2 - s * nmd1;
}
