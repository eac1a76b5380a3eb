// binomialoption.cu - American put prices on a Cox-Ross-Rubinstein binomial
// lattice, one thread block per option (seed004 / AMD APP SDK style BinomialOption).
//
// With `steps` time steps the block has steps+1 threads; thread i owns lattice node
// i (i up-moves) and keeps the node's option value in a register. At maturity the
// value is the payoff max(K - S u^(2i-steps), 0). Each backward step t = steps-1..0
// publishes the values of step t+1 in shared memory (two buffers used alternately,
// so one barrier per step suffices) and nodes i <= t compute
//   V(t,i) = max( disc*(pu*V(t+1,i+1) + pd*V(t+1,i)),  K - S u^(2i-t) ).
// The price is V(0,0), written by thread 0.

#define MAX_NODES 256  // steps + 1 <= MAX_NODES

extern "C" __global__ void __launch_bounds__(MAX_NODES)
binomial_american_put(const float *__restrict__ S, const float *__restrict__ K,
                      const float *__restrict__ T, float *__restrict__ price,
                      float r, float vol, int steps)
{
    __shared__ float val[2][MAX_NODES];
    int opt = blockIdx.x;
    int i = threadIdx.x;
    float s0 = S[opt], k = K[opt], t_exp = T[opt];

    // lattice parameters (every thread computes the same values)
    float dt = t_exp / (float)steps;
    float vsdt = vol * sqrtf(dt);      // log of the up factor
    float u = expf(vsdt);
    float d = 1.0f / u;
    float growth = expf(r * dt);
    float disc = expf(-r * dt);
    float pu = (growth - d) / (u - d);
    float pd = 1.0f - pu;
    float pu_disc = pu * disc, pd_disc = pd * disc;

    // payoff at maturity
    float v = fmaxf(k - s0 * expf(vsdt * (float)(2 * i - steps)), 0.0f);

    int buf = 0;
    for (int t = steps - 1; t >= 0; t--) {
        val[buf][i] = v;
        __syncthreads();
        if (i <= t) {
            float up = val[buf][i + 1];
            float cont = fmaf(pu_disc, up, pd_disc * v);
            float exer = k - s0 * expf(vsdt * (float)(2 * i - t));
            v = fmaxf(cont, exer);
        }
        buf ^= 1;
    }
    if (i == 0)
        price[opt] = v;
}
