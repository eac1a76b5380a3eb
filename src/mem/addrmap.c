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

int addrmap_set_local_bits(addrmap *am, const char *layout, char *err, size_t n)
{
    uint64_t b = 0, c = 0;
    uint32_t bit = 0, nb = 0, nc = 0;
    size_t len = strlen(layout);
    am->bank_bits = am->col_bits = am->row_bits = 0;
    am->layout_len = 0;
    if (!len)
        return 0;
    for (size_t i = len; i-- > 0;) {
        char ch = layout[i];
        if (ch == '.')
            continue;
        if (bit >= 64 || !strchr("BCSR0", ch)) {
            if (err && n)
                snprintf(err, n, bit >= 64 ? "address bit layout: more than 64 bits"
                                           : "address bit layout: '%c' is not B, C, S, R, 0 or '.'",
                         ch);
            return -1;
        }
        if (ch == 'B') {
            b |= 1ull << bit;
            nb++;
        } else if (ch == 'C' || ch == 'S') {
            c |= 1ull << bit;
            nc++;
        }
        bit++;
    }
    if (!is_pow2(am->banks) || (1ull << nb) != am->banks || !is_pow2(am->row_bytes) ||
        (1ull << nc) != am->row_bytes) {
        if (err && n)
            snprintf(err, n, "address bit layout: %u bank bits and %u column bits, but %u banks "
                             "and %u-byte rows (need log2 of each, both powers of two)",
                     nb, nc, am->banks, am->row_bytes);
        return -1;
    }
    am->bank_bits = b;
    am->col_bits = c;
    am->layout_len = bit;
    am->row_bits = (bit < 64 ? (1ull << bit) - 1 : UINT64_MAX) & ~(b | c);
    am->row_low = (uint32_t)__builtin_popcountll(am->row_bits);
    amap_runs_make(&am->f_bank, b);
    amap_runs_make(&am->f_col, c);
    amap_runs_make(&am->f_row, ~(b | c));   /* the layout's R and 0 bits, then all above */
    return 0;
}

void amap_runs_make(amap_runs *f, uint64_t mask)
{
    uint32_t below = 0;   /* mask bits below the run */
    f->n = 0;
    while (mask) {
        uint32_t lo = (uint32_t)__builtin_ctzll(mask);
        uint64_t rest = mask >> lo;   /* the run is its trailing ones */
        uint32_t w = ~rest ? (uint32_t)__builtin_ctzll(~rest) : 64 - lo;
        uint64_t m = (w < 64 ? (1ull << w) - 1 : UINT64_MAX) << lo;
        f->r[f->n].m = m;
        f->r[f->n].sh = lo - below;
        f->n++;
        below += w;
        mask &= ~m;
    }
}

static inline __attribute__((always_inline)) void map_local(const addrmap *am, uint64_t addr,
                                                              addrmap_loc *o)
{
    /* a mapping without `rank` gives each partition one chunk in n_part, in address order */
    uint64_t c = is_pow2(am->chunk) ? addr >> am->chunk_bits : amap_div_q(&am->div_chunk, addr);
    uint64_t rk;
    if (am->ops == &addrmap_linear) {
        /* linear's part (c mod n_part) from the same quotient */
        rk = amap_div_q(&am->div_part, c);
        o->part = (uint32_t)(c - rk * am->n_part);
    } else {
        o->part = addrmap_part(am, addr);
        rk = am->ops->rank ? am->ops->rank(am, c) : amap_div_q(&am->div_part, c);
    }
    o->local = rk * am->chunk + (addr - c * am->chunk);
}

void addrmap_map_local(const addrmap *am, uint64_t addr, addrmap_loc *o) { map_local(am, addr, o); }

void addrmap_map(const addrmap *am, uint64_t addr, addrmap_loc *o)
{
    map_local(am, addr, o);
    if (am->layout_len) {   /* a bit layout (one bank: no B bits, bank 0) */
        o->bank = (uint32_t)amap_runs_pack(&am->f_bank, o->local);
        o->col = (uint32_t)amap_runs_pack(&am->f_col, o->local);
        /* row: the layout's other bits, then every bit above the layout */
        o->row = (uint32_t)amap_runs_pack(&am->f_row, o->local);
    } else {
        uint64_t t = amap_div_q(&am->div_row, o->local);
        o->col = (uint32_t)(o->local - t * am->row_bytes);
        uint64_t r = amap_div_q(&am->div_banks, t);
        o->bank = (uint32_t)(t - r * am->banks);
        o->row = (uint32_t)r;
    }
    if (am->bank_xor)
        o->bank = is_pow2(am->banks) ? (o->bank ^ (o->row & (am->banks - 1)))
                                     : (uint32_t)((o->bank + o->row) % am->banks);
}
