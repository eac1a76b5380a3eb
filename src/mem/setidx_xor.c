/* setidx_xor.c - `xor`: a bitwise XOR hash of the kind later GPUs use (setidx.h).
 *
 * With sets = 2^b and L = idx / line (the line number), the set is the XOR of L's
 * successive b-bit fields:  set = L[b-1:0] ^ L[2b-1:b] ^ L[3b-1:2b] ^ ...  (up to the
 * top of the 64-bit address). Every higher line-number bit flips one set bit, so any
 * power-of-two stride of at least one line spreads over the sets (a stride of 2^k
 * lines cycles set bit k mod b), and consecutive lines still map to distinct sets
 * within an aligned group of `sets` lines. Needs a power-of-two set count. */
#include "mem/setidx.h"

#include <stdio.h>

static int xor_check(uint32_t sets, uint32_t line, char *err, size_t n)
{
    (void)line;
    if (!(sets & (sets - 1)))
        return 0;
    if (err && n)
        snprintf(err, n, "xor set index needs a power-of-two number of sets (have %u)", sets);
    return -1;
}

static uint32_t xor_set(uint64_t idx, uint64_t line_no, uint32_t sets)
{
    (void)idx;
    if (sets == 1)
        return 0;
    uint32_t b = (uint32_t)__builtin_ctz(sets);
    uint64_t s = 0;
    for (uint64_t x = line_no; x; x >>= b)
        s ^= x;
    return (uint32_t)(s & (sets - 1));
}

const setidx_ops setidx_xor = {
    "xor", "line number XOR-folded in log2(sets)-bit fields (power-of-two sets)", 0, xor_check,
    xor_set, SX_CALL,
};
