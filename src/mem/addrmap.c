/* addrmap.c - the registry of address mappings and what they share (addrmap.h). */
#include "mem/addrmap.h"

#include <stdio.h>
#include <string.h>

extern const addrmap_ops addrmap_linear, addrmap_superblock;

static const addrmap_ops *const maps[] = {
    &addrmap_linear,
    &addrmap_superblock,
};

#define N_MAPS (sizeof maps / sizeof *maps)

const addrmap_ops *addrmap_find(const char *name)
{
    for (size_t i = 0; i < N_MAPS; i++)
        if (!strcmp(maps[i]->name, name))
            return maps[i];
    return NULL;
}

const addrmap_ops *addrmap_at(size_t i) { return i < N_MAPS ? maps[i] : NULL; }

void addrmap_known(char *buf, size_t n)
{
    size_t k = 0;
    if (n)
        buf[0] = 0;
    for (size_t i = 0; i < N_MAPS && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", maps[i]->name);
}

static int is_pow2(uint32_t x) { return x && !(x & (x - 1)); }

int addrmap_init(addrmap *am, const char *scheme, uint32_t n_part, uint32_t chunk, uint32_t banks,
                 uint32_t row_bytes, int bank_xor, char *err, size_t n)
{
    memset(am, 0, sizeof *am);
    const addrmap_ops *ops = addrmap_find(scheme);
    if (!ops) {
        char known[128];
        addrmap_known(known, sizeof known);
        if (err && n)
            snprintf(err, n, "unknown address mapping (%s)", known);
        return -1;
    }
    if (!n_part || !chunk || !banks || !row_bytes) {
        if (err && n)
            snprintf(err, n, "partitions, chunk, banks and row size must be >= 1");
        return -1;
    }
    if (ops->check && ops->check(n_part, chunk, err, n))
        return -1;
    am->ops = ops;
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

void addrmap_map(const addrmap *am, uint64_t addr, addrmap_loc *o)
{
    o->part = addrmap_part(am, addr);
    /* a mapping without `rank` gives each partition one chunk in n_part, in address order */
    uint64_t c = amap_div_q(&am->div_chunk, addr);
    uint64_t rk = am->ops->rank ? am->ops->rank(am, c) : amap_div_q(&am->div_part, c);
    o->local = rk * am->chunk + (addr - c * am->chunk);
    uint64_t t = amap_div_q(&am->div_row, o->local);
    o->col = (uint32_t)(o->local - t * am->row_bytes);
    uint64_t r = amap_div_q(&am->div_banks, t);
    o->bank = (uint32_t)(t - r * am->banks);
    o->row = (uint32_t)r;
    if (am->bank_xor)
        o->bank = is_pow2(am->banks) ? (o->bank ^ (o->row & (am->banks - 1)))
                                     : (uint32_t)((o->bank + o->row) % am->banks);
}
