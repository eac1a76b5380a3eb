/* bits.h - small bit-counting helpers shared by the hot paths. */
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

#endif
