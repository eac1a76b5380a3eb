/* binomialoption: American put pricing on a binomial lattice, one block per option */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

#define MAX_NODES 256 /* must match binomialoption.cu */

/* Same lattice, same float operations in the same order as the kernel. */
static float price_ref(float s0, float k, float t_exp, float r, float vol, int steps, float *v)
{
    float dt = t_exp / (float)steps;
    float vsdt = vol * sqrtf(dt);
    float u = expf(vsdt);
    float d = 1.0f / u;
    float growth = expf(r * dt);
    float disc = expf(-r * dt);
    float pu = (growth - d) / (u - d);
    float pd = 1.0f - pu;
    float pu_disc = pu * disc, pd_disc = pd * disc;
    for (int i = 0; i <= steps; i++)
        v[i] = fmaxf(k - s0 * expf(vsdt * (float)(2 * i - steps)), 0.0f);
    for (int t = steps - 1; t >= 0; t--)
        for (int i = 0; i <= t; i++) { /* v[i+1] still holds step t+1 here */
            float cont = fmaf(pu_disc, v[i + 1], pd_disc * v[i]);
            float exer = k - s0 * expf(vsdt * (float)(2 * i - t));
            v[i] = fmaxf(cont, exer);
        }
    return v[0];
}

int main(int argc, char **argv)
{
    bench_args args;
    if (bench_parse(&args, argc, argv, NULL))
        return 1;
    int nopt, steps;
    if (args.size == BENCH_SMALL) { nopt = 2; steps = 127; }
    else if (args.size == BENCH_LARGE) { nopt = 1024; steps = 255; }
    else { nopt = 64; steps = 255; }
    int block = steps + 1; /* one thread per node at maturity */
    const float r = 0.05f, vol = 0.30f;

    size_t bytes = (size_t)nopt * sizeof(float);
    float *S = malloc(bytes), *K = malloc(bytes), *T = malloc(bytes);
    float *price = malloc(bytes), *ref = malloc(bytes), *work = malloc(MAX_NODES * sizeof(float));
    if (!S || !K || !T || !price || !ref || !work) {
        fprintf(stderr, "binomialoption: out of host memory\n");
        return 1;
    }
    bench_rng rng;
    bench_rng_seed(&rng, 4005);
    for (int i = 0; i < nopt; i++) {
        S[i] = bench_rng_range(&rng, 10.0f, 50.0f);
        K[i] = bench_rng_range(&rng, 10.0f, 50.0f);
        T[i] = bench_rng_range(&rng, 0.25f, 2.0f);
    }

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("binomialoption", &ctx, &mod))
        return 1;
    CUfunction fn;
    CU(cuModuleGetFunction(&fn, mod, "binomial_american_put"));
    CUdeviceptr dS, dK, dT, dP;
    CU(cuMemAlloc(&dS, bytes));
    CU(cuMemAlloc(&dK, bytes));
    CU(cuMemAlloc(&dT, bytes));
    CU(cuMemAlloc(&dP, bytes));
    CU(cuMemcpyHtoD(dS, S, bytes));
    CU(cuMemcpyHtoD(dK, K, bytes));
    CU(cuMemcpyHtoD(dT, T, bytes));
    float rr = r, vv = vol;
    void *kargs[] = {&dS, &dK, &dT, &dP, &rr, &vv, &steps};
    CU(cuLaunchKernel(fn, (unsigned)nopt, 1, 1, (unsigned)block, 1, 1, 0, NULL, kargs, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(price, dP, bytes));

    for (int i = 0; i < nopt; i++)
        ref[i] = price_ref(S[i], K[i], T[i], r, vol, steps, work);
    /* Prices are <= 50. Device and host expf may differ by an ulp or two, which
     * moves the risk-neutral probability slightly; that is all that differs. */
    size_t bad = bench_check_f32("price", price, ref, (size_t)nopt, 1e-3, 1e-4);
    if (!args.quiet)
        printf("binomialoption: %d options, %d steps, grid %d x %d threads\n", nopt, steps, nopt, block);

    cuMemFree(dS);
    cuMemFree(dK);
    cuMemFree(dT);
    cuMemFree(dP);
    bench_fini(ctx, mod);
    free(S); free(K); free(T); free(price); free(ref); free(work);
    return bench_result("binomialoption", &args, bad);
}
