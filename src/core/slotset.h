/* slotset.h - a bit per warp slot (e.g. "its instruction buffer wants a fetch"), shared
 * by the core models. A set of n slots is (n + 63) / 64 words; bits past n stay clear. */
#ifndef WS_CORE_SLOTSET_H
#define WS_CORE_SLOTSET_H

#include <stdint.h>

static inline void slotset_add(uint64_t *s, uint32_t i) { s[i / 64] |= 1ull << (i % 64); }
static inline void slotset_del(uint64_t *s, uint32_t i) { s[i / 64] &= ~(1ull << (i % 64)); }

/* The first slot >= from in the set of n slots, or UINT32_MAX. */
static inline uint32_t slotset_next(const uint64_t *s, uint32_t n, uint32_t from)
{
    for (uint32_t w = from / 64; w < (n + 63) / 64; w++) {
        uint64_t bits = s[w] & (w == from / 64 ? ~0ull << (from % 64) : ~0ull);
        if (bits)
            return w * 64 + (uint32_t)__builtin_ctzll(bits);
    }
    return UINT32_MAX;
}

/* The smallest power of two >= v (1 for v <= 1). */
static inline uint32_t grow_pow2(uint32_t v)
{
    uint32_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

#endif
