/* bits.h - small bit helpers shared by the hot paths and the analyses. */
#ifndef WS_UTIL_BITS_H
#define WS_UTIL_BITS_H

#include <stdint.h>

/* Bits set in x. Without -mpopcnt, __builtin_popcount is a library call; the memory
 * system counts sector masks on every fetch and DRAM request. */
static inline uint32_t ws_pop32(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
}

/* The same on 64 bits (the caches' dirty-byte masks). */
static inline uint32_t ws_pop64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

/* Bit i of a set stored as 64-bit words (register sets of the liveness analyses). */
static inline void ws_bit_set(uint64_t *b, uint32_t i) { b[i >> 6] |= 1ull << (i & 63); }
static inline void ws_bit_clr(uint64_t *b, uint32_t i) { b[i >> 6] &= ~(1ull << (i & 63)); }
static inline int ws_bit_test(const uint64_t *b, uint32_t i) { return (int)(b[i >> 6] >> (i & 63) & 1); }

#endif
