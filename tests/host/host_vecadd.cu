// host_vecadd.cu - device code of tests/host/host_vecadd.c (c[i] = a[i] + b[i]).
// host_vecadd.ptx is generated from it:
//   nvcc -ptx -arch=compute_75 -O3 host_vecadd.cu -o host_vecadd.ptx
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
