# GPGPU-Sim 4.2 does not implement copysign. blackscholes uses it (nvcc's expf range
# reduction) only as  copysign.f32 d, a, 126.0  followed by  selp d, a, |a| > 126:
# d matters only when |a| > 126, where it is +-126 with a's sign, which is what
# min(a, 126) then max(., -126) gives. One instruction becomes two (4 per thread more).
s/copysign\.f32[[:space:]]*\(%f[0-9]*\), \(%f[0-9]*\), %f113;/min.f32 \1, \2, 0f42FC0000;\n\tmax.f32 \1, \1, 0fC2FC0000;/
