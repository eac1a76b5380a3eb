/* addrmap_linear.c - `linear` (addrmap.h): `chunk`-byte chunks round-robin over the
 * partitions: part = (addr / chunk) mod n_part. */
#include "mem/addrmap.h"

static uint32_t linear_part(const addrmap *am, uint64_t addr)
{
    uint64_t c = amap_div_q(&am->div_chunk, addr);
    return (uint32_t)(c - amap_div_q(&am->div_part, c) * am->n_part);
}

const addrmap_ops addrmap_linear = {
    "linear", "chunks round-robin over the partitions", NULL, linear_part, NULL,
};
