/* devmem.c - the device's global memory: a sorted table of live allocations.
 *
 * Addresses are handed out by a bump pointer, 256-byte aligned, with an unmapped
 * guard gap after every block so that a kernel running off the end of a buffer is
 * reported instead of silently hitting its neighbour. Lookups remember the last block
 * hit: a warp's lanes almost always touch the same allocation.
 *
 * Host memory is committed lazily: a block of DEVMEM_MAP_MIN bytes or more is an
 * anonymous private mapping with MAP_NORESERVE, whose pages the kernel supplies
 * (zeroed) only when first touched, so a 4 GB cuMemAlloc of which a kernel uses 1 MB
 * costs about 1 MB of host memory, and is not refused by overcommit accounting.
 * Smaller blocks come from calloc. Which one a block is follows from its size. */
#include "func/func.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define DEVMEM_ALIGN 256u
#define DEVMEM_GUARD 256u
#define DEVMEM_MAP_MIN (1u << 20)

static uint8_t *block_alloc(uint64_t rounded)
{
    if (rounded < DEVMEM_MAP_MIN)
        return calloc(1, (size_t)rounded);
    void *p = mmap(NULL, (size_t)rounded, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void block_free(uint8_t *data, uint64_t size)
{
    uint64_t rounded = (size + DEVMEM_ALIGN - 1) & ~(uint64_t)(DEVMEM_ALIGN - 1);
    if (rounded < DEVMEM_MAP_MIN)
        free(data);
    else if (data)
        munmap(data, (size_t)rounded);
}

void devmem_init(devmem *d, uint64_t total)
{
    memset(d, 0, sizeof *d);
    d->next = WS_GLOBAL_BASE;
    d->total = total;
}

void devmem_fini(devmem *d)
{
    for (uint32_t i = 0; i < d->n; i++)
        block_free(d->b[i].data, d->b[i].size);
    free(d->b);
    memset(d, 0, sizeof *d);
}

int devmem_alloc(devmem *d, uint64_t size, uint64_t *addr)
{
    uint64_t rounded = (size + DEVMEM_ALIGN - 1) & ~(uint64_t)(DEVMEM_ALIGN - 1);
    if (size == 0 || rounded < size || d->used + rounded > d->total)
        return -1;
    if (d->n == d->cap) {
        uint32_t cap = d->cap ? d->cap * 2 : 64;
        devmem_block *nb = realloc(d->b, cap * sizeof *nb);
        if (!nb)
            return -1;
        d->b = nb;
        d->cap = cap;
    }
    uint8_t *data = block_alloc(rounded);
    if (!data)
        return -1;
    /* bump allocation keeps the table sorted by address */
    devmem_block *blk = &d->b[d->n++];
    blk->addr = d->next;
    blk->size = size;
    blk->data = data;
    d->next += rounded + DEVMEM_GUARD;
    d->used += rounded;
    *addr = blk->addr;
    return 0;
}

static int devmem_find(const devmem *d, uint64_t addr)
{
    uint32_t lo = 0, hi = d->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (d->b[mid].addr + d->b[mid].size <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < d->n && addr >= d->b[lo].addr && addr < d->b[lo].addr + d->b[lo].size)
        return (int)lo;
    return -1;
}

int devmem_free(devmem *d, uint64_t addr)
{
    int i = devmem_find(d, addr);
    if (i < 0 || d->b[i].addr != addr)
        return -1;
    block_free(d->b[i].data, d->b[i].size);
    d->used -= (d->b[i].size + DEVMEM_ALIGN - 1) & ~(uint64_t)(DEVMEM_ALIGN - 1);
    memmove(&d->b[i], &d->b[i + 1], (d->n - (uint32_t)i - 1) * sizeof *d->b);
    d->n--;
    d->last = 0;
    return 0;
}

uint8_t *devmem_ptr_at(const devmem *d, uint64_t addr, uint64_t n, uint32_t *last)
{
    const devmem_block *b;
    if (*last < d->n) {
        b = &d->b[*last];
        if (addr >= b->addr && addr - b->addr <= b->size && n <= b->size - (addr - b->addr))
            return b->data + (addr - b->addr);
    }
    int i = devmem_find(d, addr);
    if (i < 0)
        return NULL;
    b = &d->b[i];
    if (n > b->size - (addr - b->addr))
        return NULL;
    *last = (uint32_t)i;
    return b->data + (addr - b->addr);
}

uint8_t *devmem_ptr(devmem *d, uint64_t addr, uint64_t n)
{
    return devmem_ptr_at(d, addr, n, &d->last);
}
