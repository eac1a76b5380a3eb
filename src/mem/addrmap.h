/* addrmap.h - global address -> memory partition (channel), DRAM bank, row and column,
 * by a mapping function chosen by name from a registry (addrmap.c).
 *
 *   linear      `chunk`-byte chunks interleaved round-robin over the partitions:
 *               part = (addr / chunk) mod n_part; the partition-local address packs
 *               the chunks the partition owns contiguously (GTX480: 256 B over 6).
 *   superblock  SPEC 6 (AMD Southern Islands, seed 004): `chunk` (256 B) superblocks;
 *               the two address bits above the superblock bit pick one of 4 quadrants
 *               (bits 9-10 for 256 B), the superblock bit (bit 8) and, for a channel
 *               count per quadrant that is not 2, the bits above bit 10 (where bank
 *               and row come from) pick the channel inside the quadrant: with u the
 *               chunk number without its quadrant bits, channel u mod (n/4), rank in
 *               the channel u / (n/4) (choice: the seed names "a hash bit of bank and
 *               row" without giving it; addrmap_superblock.c). Needs n_part a
 *               multiple of 4 and chunk a power of two.
 *
 * Inside the partition: column = local mod row_bytes, bank = (local / row_bytes) mod
 * banks, row = local / (row_bytes x banks); bank_xor: bank ^= row mod banks (a
 * permutation-based interleave that spreads row conflicts over banks). Or, with a bit
 * layout (addrmap_set_local_bits, GPGPU-Sim's -gpgpu_mem_addr_mapping letters), the bank
 * is the local address's B bits and the column its C and S bits, each packed low bit
 * first; every other bit (R, 0, and all above the layout) is the row, packed the same
 * way, so that no two addresses share a DRAM location. */
#ifndef WS_MEM_ADDRMAP_H
#define WS_MEM_ADDRMAP_H

#include <stddef.h>
#include <stdint.h>

/* Exact division by a run-time constant without a divide instruction (the memory
 * system divides by the same few numbers for every request): q = floor(x / d) for
 * every 64-bit x. m = floor((2^64 - 1) / d) underestimates x / d by less than 2, so at
 * most two corrections follow the multiply. For d = 2^s > 1 (line sizes, bank counts)
 * m = 2^(64 - s) instead, which makes the multiply the exact quotient x >> s:
 * the other m is one less and misses by one at every multiple of d (line addresses all
 * are), a correction each time. */
typedef struct {
    uint64_t d, m;
} amap_div;

static inline amap_div amap_div_make(uint64_t d)
{
    amap_div v = {d ? d : 1, 0};
    v.m = UINT64_MAX / v.d + (v.d > 1 && !(v.d & (v.d - 1)));
    return v;
}

static inline uint64_t amap_div_q(const amap_div *v, uint64_t x)
{
    uint64_t q = (uint64_t)(((unsigned __int128)x * v->m) >> 64);
    while (x - q * v->d >= v->d)
        q++;
    return q;
}

typedef struct addrmap addrmap;

/* A bit layout field's mask as runs of contiguous bits (addrmap_set_local_bits): the
 * field is the OR over its runs of (x & m) >> sh, a few shift/and/or in all instead of a
 * loop over every mask bit. A 64-bit mask has at most 32 runs. */
typedef struct {
    uint64_t m;               /* the run's bits, in place                        */
    uint32_t sh;              /* its lowest bit minus the mask bits below it      */
} amap_run;

typedef struct {
    uint32_t n;
    amap_run r[32];
} amap_runs;

/* Bits of x under the mask the runs were made from, packed low bit first (PEXT). */
static inline uint64_t amap_runs_pack(const amap_runs *f, uint64_t x)
{
    uint64_t v = 0;
    for (uint32_t i = 0; i < f->n; i++)
        v |= (x & f->r[i].m) >> f->r[i].sh;
    return v;
}

/* f: the runs of mask (contiguous bits, low to high). */
void amap_runs_make(amap_runs *f, uint64_t mask);

/* One mapping function (a plug-in). part() picks the partition of an address; the
 * partition-local address is the chunk's rank among the partition's chunks, times
 * chunk, plus the offset, computed by addrmap_map(). A mapping that gives each
 * partition exactly one chunk of every n_part consecutive chunks, in address order,
 * needs nothing more (the rank is c / n_part); any other supplies rank(), which must
 * make (partition, rank) a bijection of the chunks so that no two addresses share a
 * DRAM location. Registered in addrmap.c (one line each); to add one: a file defining
 * a `const addrmap_ops addrmap_NAME` and a line in that table. */
typedef struct {
    const char *name, *desc;
    /* Optional: refuses parameters the mapping cannot use (0, or -1 with a message). */
    int (*check)(uint32_t n_part, uint32_t chunk, char *err, size_t n);
    uint32_t (*part)(const addrmap *am, uint64_t addr);
    /* Optional: the rank of chunk number c among its partition's chunks, for a mapping
     * that does not give each partition one chunk in every n_part (NULL: c / n_part). */
    uint64_t (*rank)(const addrmap *am, uint64_t c);
} addrmap_ops;

struct addrmap {
    const addrmap_ops *ops;
    uint32_t n_part, chunk, banks, row_bytes;
    int bank_xor;
    uint32_t chunk_bits;      /* log2(chunk) when a power of two                 */
    uint64_t bank_bits, col_bits;   /* a bit layout's B and C/S masks                */
    uint64_t row_bits;        /* its other bits (R, 0)                             */
    uint32_t layout_len, row_low;   /* its length in bits (0: no layout, divisions);
                                       popcount(row_bits)                           */
    amap_runs f_bank, f_col, f_row;  /* runs of bank_bits, col_bits, and row_bits with
                                        every bit above the layout                   */
    amap_div div_chunk, div_part, div_row, div_banks, div_per;
};

typedef struct {
    uint32_t part, bank, row, col;
    uint64_t local;           /* partition-local address                          */
} addrmap_loc;

/* Registry by exact name; NULL if unknown. */
const addrmap_ops *addrmap_find(const char *name);
const addrmap_ops *addrmap_at(size_t i);
/* "linear, superblock": the registered names, for error messages. */
void addrmap_known(char *buf, size_t n);

int addrmap_init(addrmap *am, const char *scheme, uint32_t n_part, uint32_t chunk, uint32_t banks,
                 uint32_t row_bytes, int bank_xor, char *err, size_t n);
void addrmap_map(const addrmap *am, uint64_t addr, addrmap_loc *out);
/* addrmap_map's partition and partition-local address alone (out->part, out->local; the
 * rest not set): what the L2 side needs to place a line. */
void addrmap_map_local(const addrmap *am, uint64_t addr, addrmap_loc *out);
/* Bank, row and column from bits of the partition-local address instead of divisions:
 * layout is GPGPU-Sim's mask notation, most significant bit first ('.' ignored): B a bank
 * bit, C or S a column bit, R or 0 a row bit (bits above the layout are row bits too).
 * The B bits must number log2(banks) and the C/S bits log2(row_bytes). "" keeps the
 * divisions. 0, or -1 with a message. */
int addrmap_set_local_bits(addrmap *am, const char *layout, char *err, size_t n);
/* Only the partition (the cheap part of addrmap_map). */
static inline uint32_t addrmap_part(const addrmap *am, uint64_t addr)
{
    return am->ops->part(am, addr);
}

#endif
