/* backprop: back-propagation training step of one input->hidden layer (shared-memory tree reduction + weight adjust) */
#include "bench.h"

#include <math.h>
#include <stdlib.h>

/* Must match backprop.cu. */
#define BP_HID 16
#define BP_ROWS 16
#define BP_PER_THREAD 4
#define BP_CHUNK (BP_ROWS * BP_PER_THREAD)
#define BP_ADJ_THREADS 256

#define ETA 0.3f
#define MOMENTUM 0.3f
#define TARGET 0.9f

static float sigmoidf(float v) { return 1.0f / (1.0f + expf(-v)); }

/* CPU version of bp_forward_partial: the same per-thread sums and the same
 * interleaved tree order, so only fma contraction differs. */
static void ref_forward(const float *x, const float *w, float *partial, int n_in)
{
    int nblk = n_in / BP_CHUNK;
    for (int b = 0; b < nblk; b++) {
        int first = 1 + b * BP_CHUNK;
        for (int j = 0; j < BP_HID; j++) {
            float acc[BP_ROWS];
            for (int ty = 0; ty < BP_ROWS; ty++) {
                float sum = 0.0f;
                for (int k = 0; k < BP_PER_THREAD; k++) {
                    int r = ty + k * BP_ROWS;
                    sum += x[first + r] * w[(size_t)(first + r) * BP_HID + j];
                }
                acc[ty] = sum;
            }
            for (int s = 1; s < BP_ROWS; s *= 2)
                for (int ty = 0; ty < BP_ROWS; ty += 2 * s)
                    acc[ty] += acc[ty + s];
            partial[(size_t)b * BP_HID + j] = acc[0];
        }
    }
}

/* hidden[j] = sigmoid(bias weight + sum of the block partials, in block order). */
static void hidden_from_partials(const float *w, const float *partial, int nblk, float *hidden)
{
    for (int j = 0; j < BP_HID; j++) {
        float net = w[j];
        for (int b = 0; b < nblk; b++)
            net += partial[(size_t)b * BP_HID + j];
        hidden[j] = sigmoidf(net);
    }
}

int main(int argc, char **argv)
{
    bench_args args;
    int rc = bench_parse(&args, argc, argv, NULL);
    if (rc)
        return rc;

    int n_in;
    switch (args.size) {
    case BENCH_SMALL: n_in = 1024; break;
    /* 2^19 inputs: the weight-adjust grid, (n_in + 1) * 16 weights / 256 per CTA = 32769
     * CTAs, fits a compute-2.0 grid (x <= 65535); 2^20 needed 65537 and could not launch */
    case BENCH_LARGE: n_in = 524288; break;
    default: n_in = 65536; break;
    }
    int nblk = n_in / BP_CHUNK;
    int nw = (n_in + 1) * BP_HID;
    size_t xbytes = (size_t)(n_in + 1) * sizeof(float), wbytes = (size_t)nw * sizeof(float);
    size_t pbytes = (size_t)nblk * BP_HID * sizeof(float);

    float *x = malloc(xbytes), *w = malloc(wbytes), *oldw = malloc(wbytes);
    float *w_out = malloc(wbytes), *oldw_out = malloc(wbytes);
    float *part = malloc(pbytes), *part_ref = malloc(pbytes);
    if (!x || !w || !oldw || !w_out || !oldw_out || !part || !part_ref) {
        fprintf(stderr, "backprop: out of host memory\n");
        return 1;
    }

    /* Inputs in [0,1), weights scaled so the hidden pre-activations are O(1). */
    bench_rng rng;
    bench_rng_seed(&rng, 2001);
    float a = 3.0f / sqrtf((float)n_in);
    x[0] = 1.0f;
    for (int i = 1; i <= n_in; i++)
        x[i] = bench_rng_float(&rng);
    for (int i = 0; i < nw; i++) {
        w[i] = bench_rng_range(&rng, -a, a);
        oldw[i] = bench_rng_range(&rng, -0.01f, 0.01f);
    }
    float wo[BP_HID + 1];
    for (int j = 0; j <= BP_HID; j++)
        wo[j] = bench_rng_range(&rng, -0.5f, 0.5f);

    CUcontext ctx;
    CUmodule mod;
    if (bench_init("backprop", &ctx, &mod))
        return 1;
    CUfunction f_fwd, f_adj;
    CU(cuModuleGetFunction(&f_fwd, mod, "bp_forward_partial"));
    CU(cuModuleGetFunction(&f_adj, mod, "bp_adjust_weights"));

    CUdeviceptr d_x, d_w, d_oldw, d_part, d_delta;
    CU(cuMemAlloc(&d_x, xbytes));
    CU(cuMemAlloc(&d_w, wbytes));
    CU(cuMemAlloc(&d_oldw, wbytes));
    CU(cuMemAlloc(&d_part, pbytes));
    CU(cuMemAlloc(&d_delta, BP_HID * sizeof(float)));
    CU(cuMemcpyHtoD(d_x, x, xbytes));
    CU(cuMemcpyHtoD(d_w, w, wbytes));
    CU(cuMemcpyHtoD(d_oldw, oldw, wbytes));

    /* Forward pass input -> hidden: partial sums on the device, summed on the host. */
    void *fa[] = {&d_x, &d_w, &d_part, &n_in};
    CU(cuLaunchKernel(f_fwd, nblk, 1, 1, BP_HID, BP_ROWS, 1, 0, NULL, fa, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(part, d_part, pbytes));

    float hidden[BP_HID], hidden_ref[BP_HID];
    hidden_from_partials(w, part, nblk, hidden);
    ref_forward(x, w, part_ref, n_in);
    hidden_from_partials(w, part_ref, nblk, hidden_ref);

    /* Host: hidden -> single output unit, output error, hidden errors (from the
     * device's hidden values, which are what the adjust kernel is fed). */
    float net_o = wo[0];
    for (int j = 0; j < BP_HID; j++)
        net_o += hidden[j] * wo[j + 1];
    float out = sigmoidf(net_o);
    float delta_o = out * (1.0f - out) * (TARGET - out);
    float delta[BP_HID];
    for (int j = 0; j < BP_HID; j++)
        delta[j] = hidden[j] * (1.0f - hidden[j]) * wo[j + 1] * delta_o;
    CU(cuMemcpyHtoD(d_delta, delta, sizeof delta));

    float eta = ETA, momentum = MOMENTUM;
    int adj_blocks = (nw + BP_ADJ_THREADS - 1) / BP_ADJ_THREADS;
    void *aa[] = {&d_x, &d_delta, &d_w, &d_oldw, &nw, &eta, &momentum};
    CU(cuLaunchKernel(f_adj, adj_blocks, 1, 1, BP_ADJ_THREADS, 1, 1, 0, NULL, aa, NULL));
    CU(cuCtxSynchronize());
    CU(cuMemcpyDtoH(w_out, d_w, wbytes));
    CU(cuMemcpyDtoH(oldw_out, d_oldw, wbytes));

    /* CPU reference of the weight adjustment (in place on w / oldw). */
    for (int idx = 0; idx < nw; idx++) {
        int i = idx / BP_HID, j = idx % BP_HID;
        float dw = ETA * delta[j] * x[i] + MOMENTUM * oldw[idx];
        w[idx] += dw;
        oldw[idx] = dw;
    }

    if (!args.quiet)
        printf("backprop: %d inputs x %d hidden; forward grid %d x (%d,%d), adjust grid %d x %d; "
               "output %.6f\n", n_in, BP_HID, nblk, BP_HID, BP_ROWS, adj_blocks, BP_ADJ_THREADS,
               out);
    size_t bad = 0;
    bad += bench_check_f32("backprop.partial", part, part_ref, (size_t)nblk * BP_HID, 1e-5, 1e-5);
    bad += bench_check_f32("backprop.hidden", hidden, hidden_ref, BP_HID, 1e-5, 1e-5);
    bad += bench_check_f32("backprop.w", w_out, w, nw, 1e-7, 1e-6);
    bad += bench_check_f32("backprop.oldw", oldw_out, oldw, nw, 1e-8, 1e-5);

    CU(cuMemFree(d_x));
    CU(cuMemFree(d_w));
    CU(cuMemFree(d_oldw));
    CU(cuMemFree(d_part));
    CU(cuMemFree(d_delta));
    bench_fini(ctx, mod);
    free(x);
    free(w);
    free(oldw);
    free(w_out);
    free(oldw_out);
    free(part);
    free(part_ref);
    return bench_result("backprop", &args, bad);
}
