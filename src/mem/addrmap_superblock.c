/* addrmap_superblock.c - `superblock` (addrmap.h), SPEC 6 (AMD Southern Islands):
 * `chunk`-byte (256 B) superblocks; the two address bits above the superblock bit
 * (bits 9-10 for 256 B) pick one of 4 quadrants, the superblock bit (bit 8) plus the
 * bits above bit 10 pick the channel inside the quadrant: (bit8 + (addr >> 11)) mod
 * (n_part / 4), for 2 channels per quadrant bit 8 XOR bit 11 (choice: the seed names
 * "a hash bit of bank and row" without giving it). Each partition still owns one chunk
 * in n_part in address order (the quadrant and the sum both advance with the chunk). */
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

static uint32_t sb_part(const addrmap *am, uint64_t addr)
{
    uint32_t b = am->chunk_bits, per = am->n_part / 4;
    uint32_t quad = (uint32_t)(addr >> (b + 1)) & 3;
    uint64_t sel = ((addr >> b) & 1) + (addr >> (b + 3));
    return quad * per + (uint32_t)(sel - amap_div_q(&am->div_per, sel) * per);
}

const addrmap_ops addrmap_superblock = {
    "superblock", "SPEC 6 quadrants of 256-byte superblocks (AMD Southern Islands)", sb_check,
    sb_part,
};
