// End-to-end kernels for the functional emulator's tests (tests/unit/test_e2e.c).
// Each exercises one feature family; the test computes the same on the CPU.
#include <cuda_fp16.h>

extern "C" __global__ void nested_loops(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int acc = 0;
    for (int j = 0; j < i % 7; j++)
        for (int k = 0; k <= j; k++)
            acc += (j * k) ^ i;
    out[i] = acc;
}

extern "C" __global__ void divergent(int *out, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    if (v < 0) return;                     // early exit: out keeps its old value
    int r;
    if (v % 3 == 0) r = v * 2;
    else if (v % 3 == 1) { r = 0; for (int k = 0; k < v % 5; k++) r += k * v; }
    else r = -v;
    while (r > 100) r -= 37;              // data-dependent loop
    out[i] = r;
}

extern "C" __global__ void smem_reduce(const float *in, float *out)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
        if (t < st) s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void dyn_smem_reverse(int *data)
{
    extern __shared__ int buf[];
    unsigned t = threadIdx.x, n = blockDim.x;
    buf[t] = data[blockIdx.x * n + t];
    __syncthreads();
    data[blockIdx.x * n + t] = buf[n - 1 - t];
}

extern "C" __global__ void atomics(int *hist, unsigned long long *sum64, float *fsum, int *maxv,
                                   const int *in, int n)
{
    __shared__ int local_hist[16];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x < 16) local_hist[threadIdx.x] = 0;
    __syncthreads();
    if (i < n) {
        int v = in[i];
        atomicAdd(&local_hist[v & 15], 1);
        atomicAdd(sum64, (unsigned long long)v * 1000003ull);
        atomicAdd(fsum, (float)(v & 255));
        atomicMax(maxv, v);
        int old = hist[16], assumed;       // CAS loop: hist[16] += v & 1
        do { assumed = old; old = atomicCAS(&hist[16], assumed, assumed + (v & 1)); } while (old != assumed);
    }
    __syncthreads();
    if (threadIdx.x < 16) atomicAdd(&hist[threadIdx.x], local_hist[threadIdx.x]);
}

extern "C" __global__ void warp_ops(int *out, const int *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int lane = threadIdx.x & 31;
    int a = __shfl_down_sync(0xffffffffu, v, 3);
    int b = __shfl_up_sync(0xffffffffu, v, 5);
    int c = __shfl_xor_sync(0xffffffffu, v, 9);
    int d = __shfl_sync(0xffffffffu, v, (lane * 7) & 31);
    int e = __shfl_down_sync(0xffffffffu, v, 2, 8);     // width 8 segments
    unsigned ballot = __ballot_sync(0xffffffffu, v & 1);
    int any = __any_sync(0xffffffffu, v > 1000);
    int all = __all_sync(0xffffffffu, v >= 0);
    unsigned am = 0;
    if (v & 2) am = __activemask();
    unsigned mt = __match_any_sync(0xffffffffu, v & 3);
    out[i * 10 + 0] = a; out[i * 10 + 1] = b; out[i * 10 + 2] = c; out[i * 10 + 3] = d;
    out[i * 10 + 4] = e; out[i * 10 + 5] = (int)ballot; out[i * 10 + 6] = any;
    out[i * 10 + 7] = all; out[i * 10 + 8] = (int)am; out[i * 10 + 9] = (int)mt;
}

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ float mix3(float a, int b, double c)
{
    if (b & 1) return a * b;
    return (float)(c / (b + 1)) + a;
}

extern "C" __global__ void calls(int *out, float *fout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = fib(i % 12);
    fout[i] = mix3(0.5f * i, i, 3.0 * i);
}

extern "C" __global__ void math64(unsigned long long *out, const long long *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long a = in[2 * i], b = in[2 * i + 1];
    unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b;
    out[8 * i + 0] = ua * ub;
    out[8 * i + 1] = b ? (unsigned long long)(a / b) : 0;
    out[8 * i + 2] = b ? (unsigned long long)(a % b) : 0;
    out[8 * i + 3] = __umul64hi(ua, ub);
    out[8 * i + 4] = ua >> (ub & 63);
    out[8 * i + 5] = (unsigned long long)(a >> (ub & 63));
    double da = (double)a, db = (double)b;
    double q = db != 0.0 ? da / db : 0.0;
    out[8 * i + 6] = __double_as_longlong(q);
    out[8 * i + 7] = __double_as_longlong(sqrt(fabs(da)) + fma(da, 1e-9, db));
}

extern "C" __global__ void conversions(int *iout, float *fout, unsigned short *hout, const float *fin,
                                       const int *iin, const double *din, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = fin[i];
    int k = iin[i];
    double d = din[i];
    iout[6 * i + 0] = __float2int_rn(f);
    iout[6 * i + 1] = __float2int_rz(f);
    iout[6 * i + 2] = __float2int_rd(f);
    iout[6 * i + 3] = __float2int_ru(f);
    iout[6 * i + 4] = (int)__float2uint_rz(f);
    iout[6 * i + 5] = __double2int_rn(d);
    fout[5 * i + 0] = __int2float_rn(k);
    fout[5 * i + 1] = __int2float_rz(k);
    fout[5 * i + 2] = (float)d;
    fout[5 * i + 3] = __saturatef(f);
    fout[5 * i + 4] = f / (float)(k | 1);
    hout[i] = __half_as_ushort(__float2half_rn(f));
}

extern "C" __global__ void local_array(int *out, const int *idx, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int arr[24];
    for (int k = 0; k < 24; k++) arr[k] = k * i + 1;
    int s = 0;
    for (int k = 0; k < 8; k++) s += arr[idx[(i + k) % n] % 24];
    out[i] = s;
}

__constant__ int ctab[64];
__device__ int gtab[8] = {3, 1, 4, 1, 5, 9, 2, 6};

extern "C" __global__ void const_table(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = ctab[i & 63] * gtab[i & 7];
}

extern "C" __global__ void oob(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    p[i + n] = i;
}

extern "C" __global__ void grid2d(int *out, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * w + x] = x * 1000 + y + threadIdx.z;
}
