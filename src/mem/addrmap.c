/* addrmap.c - address mapping functions (addrmap.h). */
#include "mem/addrmap.h"

#include <stdio.h>
#include <string.h>

static const char *const names[] = {"linear", "superblock"};

int addrmap_scheme_find(const char *name)
{
    for (int i = 0; i < 2; i++)
        if (!strcmp(name, names[i]))
            return i;
    return -1;
}

const char *addrmap_scheme_name(int s) { return s >= 0 && s < 2 ? names[s] : "?"; }

static int is_pow2(uint32_t x) { return x && !(x & (x - 1)); }

int addrmap_init(addrmap *am, const char *scheme, uint32_t n_part, uint32_t chunk, uint32_t banks,
                 uint32_t row_bytes, int bank_xor, char *err, size_t n)
{
    memset(am, 0, sizeof *am);
    int s = addrmap_scheme_find(scheme);
    const char *why = NULL;
    if (s < 0)
        why = "unknown address mapping (linear, superblock)";
    else if (!n_part || !chunk || !banks || !row_bytes)
        why = "partitions, chunk, banks and row size must be >= 1";
    else if (s == AM_SUPERBLOCK && (n_part % 4 || !is_pow2(chunk)))
        why = "superblock mapping needs a multiple of 4 channels and a power-of-two chunk";
    if (why) {
        if (err && n)
            snprintf(err, n, "%s", why);
        return -1;
    }
    am->scheme = s;
    am->n_part = n_part;
    am->chunk = chunk;
    am->banks = banks;
    am->row_bytes = row_bytes;
    am->bank_xor = bank_xor;
    if (is_pow2(chunk))
        am->chunk_bits = (uint32_t)__builtin_ctz(chunk);
    am->div_chunk = amap_div_make(chunk);
    am->div_part = amap_div_make(n_part);
    am->div_row = amap_div_make(row_bytes);
    am->div_banks = amap_div_make(banks);
    am->div_per = amap_div_make(n_part >= 4 ? n_part / 4 : 1);
    return 0;
}

uint32_t addrmap_part(const addrmap *am, uint64_t addr)
{
    if (am->scheme == AM_SUPERBLOCK) {
        uint32_t b = am->chunk_bits, per = am->n_part / 4;
        uint32_t quad = (uint32_t)(addr >> (b + 1)) & 3;
        uint64_t sel = ((addr >> b) & 1) + (addr >> (b + 3));
        return quad * per + (uint32_t)(sel - amap_div_q(&am->div_per, sel) * per);
    }
    uint64_t c = amap_div_q(&am->div_chunk, addr);
    return (uint32_t)(c - amap_div_q(&am->div_part, c) * am->n_part);
}

void addrmap_map(const addrmap *am, uint64_t addr, addrmap_loc *o)
{
    o->part = addrmap_part(am, addr);
    /* both schemes give each partition one chunk in n_part, in address order */
    uint64_t c = amap_div_q(&am->div_chunk, addr);
    o->local = amap_div_q(&am->div_part, c) * am->chunk + (addr - c * am->chunk);
    uint64_t t = amap_div_q(&am->div_row, o->local);
    o->col = (uint32_t)(o->local - t * am->row_bytes);
    uint64_t r = amap_div_q(&am->div_banks, t);
    o->bank = (uint32_t)(t - r * am->banks);
    o->row = (uint32_t)r;
    if (am->bank_xor)
        o->bank = is_pow2(am->banks) ? (o->bank ^ (o->row & (am->banks - 1)))
                                     : (uint32_t)((o->bank + o->row) % am->banks);
}
