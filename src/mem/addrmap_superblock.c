/* addrmap_superblock.c - `superblock` (addrmap.h), SPEC 6 and seed 004 sec. 5.2 (AMD
 * Southern Islands): addresses interleave over the channels in `chunk`-byte (256 B)
 * superblocks; the two address bits above the superblock bit (bits 9-10) pick one of 4
 * quadrants of n_part / 4 channels, bit 8 the channel inside the quadrant, and for a
 * channel count per quadrant that is not a power of two (3 on the 12-channel 79xx) the
 * hardware adds a bit computed from the bank and row address. Neither the seed, nor
 * AMD's published guides, nor Multi2Sim (which interleaves its 6 L2 modules by 64 B
 * blocks and models no channels) gives that bit's function, so it is our choice:
 *
 *   c = addr / chunk, quadrant q = c bits 1-2,
 *   u = c with the quadrant bits removed (bit 0 = address bit 8, then bits 11 up),
 *   channel = q x per + u mod per,  rank in the channel = u / per   (per = n_part / 4).
 *
 * For per = 2 the channel is bit 8 and no hash is needed; for per = 3, u mod 3 =
 * (bit 8 + 2 x (addr >> 11)) mod 3 folds bit 8 with every bit above bit 10 - the bits
 * the channel's column, bank and row come from - so consecutive superblocks of a
 * quadrant rotate over its three channels. The map is a bijection: each channel's
 * superblocks get consecutive ranks (its partition-local address, `rank`), so no two
 * addresses share a DRAM location and every row is used. */
#include "mem/addrmap.h"

#include <stdio.h>

static int sb_check(uint32_t n_part, uint32_t chunk, char *err, size_t n)
{
    if (!(n_part % 4) && !(chunk & (chunk - 1)))
        return 0;
    if (err && n)
        snprintf(err, n,
                 "superblock mapping needs a multiple of 4 channels and a power-of-two chunk");
    return -1;
}

/* u: the chunk number without its two quadrant bits */
static inline uint64_t sb_u(uint64_t c) { return (c & 1) | (c >> 3) << 1; }

static uint32_t sb_part(const addrmap *am, uint64_t addr)
{
    uint64_t c = addr >> am->chunk_bits, u = sb_u(c);
    uint32_t per = am->n_part / 4, quad = (uint32_t)(c >> 1) & 3;
    return quad * per + (uint32_t)(u - amap_div_q(&am->div_per, u) * per);
}

static uint64_t sb_rank(const addrmap *am, uint64_t c)
{
    return amap_div_q(&am->div_per, sb_u(c));
}

const addrmap_ops addrmap_superblock = {
    "superblock", "SPEC 6 quadrants of 256-byte superblocks (AMD Southern Islands)", sb_check,
    sb_part, sb_rank,
};
