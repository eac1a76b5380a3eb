// mc: Monte-Carlo pricing of European call options from pre-generated samples.
// The host generates path_n standard-normal samples once and uploads them; every
// option prices its call from the same samples (the structure of the CUDA SDK's
// MonteCarlo option pricer).  Grid: blockIdx.y = option, blockIdx.x = slice of the
// paths.  Each thread streams samples i = slice*MC_BLOCK + tid, stepping by
// gridDim.x*MC_BLOCK, so a warp reads 32 consecutive floats (one 128-byte line) per
// step, and all the CTAs of all the options read the same sample array: an SM that
// runs several options' CTAs in step reuses each line from its L1.  Per path the
// end value is S*exp(mu*T + sigma*sqrt(T)*z); the thread sums the payoffs and their
// squares, the CTA tree-reduces both in shared memory and writes one partial each.

#define MC_BLOCK 256

extern "C" __global__ void mc_price(const float *samples, int path_n,
                                    const float *__restrict__ spot,
                                    const float *__restrict__ strike,
                                    const float *__restrict__ mu_t,
                                    const float *__restrict__ vol_sqrt_t,
                                    float *__restrict__ sum_out, float *__restrict__ sum2_out)
{
    __shared__ float s_sum[MC_BLOCK];
    __shared__ float s_sum2[MC_BLOCK];

    const int opt = blockIdx.y;
    const float s0 = spot[opt], k = strike[opt];
    const float drift = mu_t[opt], diffusion = vol_sqrt_t[opt];

    float sum = 0.0f, sum2 = 0.0f;
    for (int i = blockIdx.x * MC_BLOCK + threadIdx.x; i < path_n; i += gridDim.x * MC_BLOCK) {
        const float z = samples[i];
        const float payoff = fmaxf(s0 * __expf(drift + diffusion * z) - k, 0.0f);
        sum += payoff;
        sum2 += payoff * payoff;
    }

    s_sum[threadIdx.x] = sum;
    s_sum2[threadIdx.x] = sum2;
    __syncthreads();
    for (int half = MC_BLOCK / 2; half > 0; half >>= 1) {
        if (threadIdx.x < half) {
            s_sum[threadIdx.x] += s_sum[threadIdx.x + half];
            s_sum2[threadIdx.x] += s_sum2[threadIdx.x + half];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        sum_out[opt * gridDim.x + blockIdx.x] = s_sum[0];
        sum2_out[opt * gridDim.x + blockIdx.x] = s_sum2[0];
    }
}
