/* regs2.cu - two kernels whose register counts differ (and, for `big`, differ between
 * sm_75 and sm_86), for the fatbinaries gen_regs2.sh builds (tests/runtime/test_fatbin.c). */
__global__ void small(float *a) { a[threadIdx.x] += 1.0f; }

__global__ void big(const float *a, float *b, int n)
{
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    for (int i = threadIdx.x; i < n; i += 8) {
        s0 += a[i] * a[i + 1];
        s1 += a[i + 2] / a[i + 3];
        s2 += sqrtf(a[i + 4]);
        s3 += a[i + 5] * s0;
        s4 += expf(a[i + 6]);
        s5 += a[i + 7] * s2;
        s6 += logf(a[i + 8]);
        s7 += a[i + 9] * s1;
    }
    b[threadIdx.x] = s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
}

int main() { return 0; }
