/* fp16.h - exact IEEE rounding into binary16, bfloat16, binary32 and binary64.
 *
 * The emulator needs conversions the host cannot do natively (binary16/bfloat16) and
 * conversions in directed rounding modes. Everything here is integer arithmetic on
 * (sign, magnitude, exponent) triples, so results are exact and independent of the
 * host's floating-point environment. Header-only so every exec family can use it.
 */
#ifndef WS_FUNC_FP16_H
#define WS_FUNC_FP16_H

#include <stdint.h>
#include <string.h>

#include "ptx/ir.h"

/* Formats, by kind: significand bits p (with the implicit bit), emax, storage bits. */
enum { FPK_H, FPK_BF, FPK_S, FPK_D };

static inline int fp16_p(int k) { return k == FPK_H ? 11 : k == FPK_BF ? 8 : k == FPK_S ? 24 : 53; }
static inline int fp16_emax(int k) { return k == FPK_H ? 15 : k == FPK_D ? 1023 : 127; }
static inline int fp16_bits(int k) { return k == FPK_S ? 32 : k == FPK_D ? 64 : 16; }
static inline uint64_t fp16_sign(int k) { return 1ull << (fp16_bits(k) - 1); }
static inline uint64_t fp16_inf(int k)
{
    return (uint64_t)(2 * fp16_emax(k) + 1) << (fp16_p(k) - 1);
}
/* The NaN the GPU produces (all payload bits set, sign clear). */
static inline uint64_t fp16_qnan(int k)
{
    return k == FPK_D ? 0x7fffffffffffffffull : fp16_sign(k) - 1;
}
static inline uint64_t fp16_one(int k)
{
    return (uint64_t)fp16_emax(k) << (fp16_p(k) - 1);
}
static inline int fp16_isnan(int k, uint64_t u)
{
    return (u & (fp16_sign(k) - 1)) > fp16_inf(k);
}
/* Subnormal inputs/results flushed to sign-preserving zero (.ftz). */
static inline uint64_t fp16_ftz(int k, uint64_t u)
{
    return (u & fp16_inf(k)) ? u : (u & fp16_sign(k));
}

/* Rounds (-1)^neg * (m + t) * 2^e to format k, where t is 0 when sticky is 0 and
 * strictly between 0 and 1 otherwise (the value was already truncated below m's
 * last bit). mode: RND_RN (or RND_NONE), RND_RZ, RND_RM, RND_RP, RND_RNA. */
static inline uint64_t fp16_pack(int k, int neg, uint64_t m, int e, int sticky, int mode)
{
    const int p = fp16_p(k), emax = fp16_emax(k);
    const uint64_t sign = neg ? fp16_sign(k) : 0;
    if (m == 0)
        return sign;
    int n = 64 - __builtin_clzll(m);
    int q = e + n - p;                     /* exponent of the result's last bit */
    const int qmin = 1 - emax - (p - 1);   /* last-bit exponent of subnormals   */
    if (q < qmin)
        q = qmin;
    int sh = q - e;
    uint64_t mant;
    int rb, st;
    if (sh <= 0) {
        mant = m << -sh;
        rb = 0;
        st = sticky;
    } else if (sh < 64) {
        mant = m >> sh;
        rb = (int)((m >> (sh - 1)) & 1);
        st = sticky || (m & ((1ull << (sh - 1)) - 1)) != 0;
    } else if (sh == 64) {
        mant = 0;
        rb = (int)(m >> 63);
        st = sticky || (m << 1) != 0;
    } else {
        mant = 0;
        rb = 0;
        st = 1;
    }
    int inc;
    switch (mode) {
    case RND_RZ: inc = 0; break;
    case RND_RM: inc = neg && (rb || st); break;
    case RND_RP: inc = !neg && (rb || st); break;
    case RND_RNA: inc = rb; break;
    default: inc = rb && (st || (mant & 1)); break;
    }
    mant += (uint64_t)inc;
    if (mant >> p) {
        mant >>= 1;
        q++;
    }
    if (mant >> (p - 1)) {
        int ex = q + p - 1;
        if (ex > emax) {
            int to_inf = mode == RND_RN || mode == RND_NONE || mode == RND_RNA ||
                         (mode == RND_RM && neg) || (mode == RND_RP && !neg);
            return sign | (to_inf ? fp16_inf(k) : fp16_inf(k) - 1);
        }
        return sign | ((uint64_t)(ex + emax) << (p - 1)) | (mant & ((1ull << (p - 1)) - 1));
    }
    return sign | mant; /* subnormal (q == qmin) or zero */
}

/* Exact value of a format-k encoding as a double (NaN payloads kept where they fit). */
static inline double fp16_to_double(int k, uint64_t u)
{
    double d;
    if (k == FPK_D) {
        memcpy(&d, &u, 8);
        return d;
    }
    if (k == FPK_S || k == FPK_BF) {
        uint32_t w = k == FPK_S ? (uint32_t)u : (uint32_t)(u & 0xffff) << 16;
        float f;
        memcpy(&f, &w, 4);
        return (double)f;
    }
    /* binary16: the bits moved into a double's field are the value scaled by 2^-1008
     * (subnormals land on double subnormals); the power-of-two rescale is exact. */
    uint64_t h = u & 0xffff, s = (h >> 15) << 63, a = h & 0x7fff;
    if (a >= 0x7c00) {
        uint64_t b = s | (0x7ffull << 52) | ((a & 0x3ff) << 42);
        memcpy(&d, &b, 8);
        return d;
    }
    uint64_t b = a << 42;
    memcpy(&d, &b, 8);
    d *= 0x1p1008;
    return s ? -d : d;
}

/* Round-to-nearest-even of a double to binary16 or bfloat16 (k = FPK_H or FPK_BF):
 * the hot case of fp16_from_double, done on the bits with one carry-propagating add. */
static inline uint64_t fp16_rn16(int k, uint64_t b)
{
    const int p = fp16_p(k), emax = fp16_emax(k), sh = 53 - p;
    const uint64_t inf = fp16_inf(k);
    uint64_t sign = (b >> 48) & 0x8000, a = b & 0x7fffffffffffffffull;
    int e = (int)(a >> 52);
    if (e == 0x7ff)
        return a > 0x7ff0000000000000ull ? fp16_qnan(k) : sign | inf;
    if (e >= 1024 - emax) { /* normal in the target */
        a += ((1ull << (sh - 1)) - 1) + ((a >> sh) & 1);
        uint64_t r = (a >> sh) - ((uint64_t)(1023 - emax) << (p - 1));
        return sign | (r >= inf ? inf : r);
    }
    int s = sh + 1024 - emax - e; /* shift to units of the smallest subnormal */
    if (s > 53)
        return sign; /* below half of it */
    uint64_t m = (a & ((1ull << 52) - 1)) | (1ull << 52); /* e > 0 here since s <= 53 */
    uint64_t q = m >> s, rem = m & ((1ull << s) - 1), half = 1ull << (s - 1);
    q += rem > half || (rem == half && (q & 1));
    return sign | q; /* q == 2^(p-1) is the smallest normal, encoded the same way */
}

/* Rounds a double to format k in `mode`; NaN becomes the format's canonical NaN
 * (binary64 keeps the NaN as is). */
static inline uint64_t fp16_from_double(int k, double d, int mode)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    if (k == FPK_D)
        return b;
    if ((k == FPK_H || k == FPK_BF) && (mode == RND_RN || mode == RND_NONE))
        return fp16_rn16(k, b);
    int neg = (int)(b >> 63), ex = (int)((b >> 52) & 0x7ff);
    uint64_t fr = b & ((1ull << 52) - 1);
    if (ex == 0x7ff)
        return fr ? fp16_qnan(k) : (neg ? fp16_sign(k) : 0) | fp16_inf(k);
    if (ex == 0)
        return fp16_pack(k, neg, fr, -1074, 0, mode);
    return fp16_pack(k, neg, fr | (1ull << 52), ex - 1075, 0, mode);
}

/* Common conversions. */
static inline float fp16_h2f(uint16_t h) { return (float)fp16_to_double(FPK_H, h); }
static inline float fp16_bf2f(uint16_t h)
{
    uint32_t w = (uint32_t)h << 16;
    float f;
    memcpy(&f, &w, 4);
    return f;
}
static inline uint16_t fp16_f2h(float f, int mode)
{
    return (uint16_t)fp16_from_double(FPK_H, (double)f, mode);
}
static inline uint16_t fp16_f2bf(float f, int mode)
{
    return (uint16_t)fp16_from_double(FPK_BF, (double)f, mode);
}

#endif
