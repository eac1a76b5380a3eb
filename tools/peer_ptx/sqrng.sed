# GPGPU-Sim 4.2 does not implement bfind.shiftamt. sqrng uses it after brev to count trailing
# zeros (nvcc's __ffs/ctz idiom). For a non-zero operand bfind.shiftamt.u32 d, a is the number
# of leading zeros of a, i.e. clz.b32 d, a (one instruction for one). They differ only for
# a == 0 (0xffffffff against 32), which cannot occur here: the three operands are
# brev(ntid.x * nctaid.x), brev(g) inside the loop guarded by g != 0, and brev(~(i | (S-1)))
# with i < N <= 2^20 and S = 2^L, never all ones. The CPU check of the driver confirms it.
s/bfind\.shiftamt\.u32/clz.b32/
