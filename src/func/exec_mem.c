/* exec_mem.c - ld/st/atom/red, address-space conversion and prefetch.
 *
 * Every access is resolved per lane to a host pointer inside exactly one object (a
 * device allocation, the CTA's shared memory, the lane's local frame stack or the
 * kernel parameter buffer); anything else is a fault that names the kernel, PTX line,
 * thread, CTA, space and address. Atomics run lane by lane in lane order, which is a
 * valid serialisation of the hardware's atomic operations.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "func/func.h"
#include "util/err.h"

/* The per-lane fast paths write a trace record's lane, size, space and is_write bytes
 * as one little-endian 32-bit word (lane in the low byte). */
_Static_assert(offsetof(exec_access, lane) == 8 && offsetof(exec_access, size) == 9 &&
               offsetof(exec_access, space) == 10 && offsetof(exec_access, is_write) == 11,
               "exec_access: lane, size, space, is_write as one word");

/* Writes trace record e: the address, then w = lane | size << 8 | space << 16 |
 * is_write << 24 as one word. */
static inline void trace_put_w(exec_access *e, uint64_t ad, uint32_t w)
{
    e->addr = ad;
    memcpy(&e->lane, &w, 4);
}
static inline void trace_put(exec_access *e, uint64_t ad, unsigned lane, unsigned size, int space, int write)
{
    trace_put_w(e, ad, (uint32_t)(lane & 0xff) | (uint32_t)(size & 0xff) << 8 | (uint32_t)(space & 0xff) << 16 |
                       (uint32_t)(write & 0xff) << 24);
}

/* ---- register rows -------------------------------------------------------------------- */
/* Lane l of a register row of 8-byte (w8) or 4-byte lanes (exec.h), and its write: the
 * fast loops below take w8 as a constant where they are specialised. */
static inline __attribute__((always_inline)) uint64_t row_get(const void *row, int w8, unsigned l)
{
    return w8 ? ((const uint64_t *)row)[l] : ((const uint32_t *)row)[l];
}
static inline __attribute__((always_inline)) void row_put(void *row, int w8, unsigned l, uint64_t v)
{
    if (w8)
        ((uint64_t *)row)[l] = v;
    else
        ((uint32_t *)row)[l] = (uint32_t)v;
}
static inline void *row_of(const exec_ctx *x, uint32_t r) { return ex_row32(x, r); }
static inline __attribute__((always_inline)) void *row_lane(void *row, int w8, unsigned l)
{
    return w8 ? (void *)((uint64_t *)row + l) : (void *)((uint32_t *)row + l);
}

/* Lane l of row r, for a deferred write (func_defer_op.dst, its width rb). */
static inline void *reg_lane(const exec_ctx *x, uint32_t r, unsigned l)
{
    return ex_w8(x, r) ? (void *)(ex_row64(x, r) + l) : (void *)(ex_row32(x, r) + l);
}

/* ---- addressing ------------------------------------------------------------------------ */
static unsigned reg_bytes(const exec_ctx *x, uint32_t r);

/* The address of a symbol or absolute operand; for [reg+imm] the mask of the address
 * size instead, which is the register's: the PTX ISA's addresses are 32 or 64 bits
 * wide, so a 32-bit register plus an offset wraps at 32 bits ([%r1+4] with %r1 =
 * 0xfffffffc is address 0, as nvcc's 32-bit shared-memory addressing relies on). */
static inline uint64_t addr_base(const exec_ctx *x, const ptx_operand *a)
{
    if (a->base == OK_REG)
        return reg_bytes(x, a->r) <= 4 ? 0xffffffffull : ~0ull;
    return a->base == OK_SYM ? func_sym_value(x->w, a->r) + a->imm : a->imm;
}

static inline uint64_t addr_lane(const exec_ctx *x, const ptx_operand *a, uint64_t base, unsigned lane)
{
    return a->base == OK_REG ? (ex_reg(x, a->r, lane) + a->imm) & base : base;
}

/* Generic address -> (space, address in that space). */
static inline int generic_space(uint64_t *addr)
{
    uint64_t a = *addr;
    if (a - WS_LOCAL_WIN < WS_WIN_SIZE) { *addr = a - WS_LOCAL_WIN; return SP_LOCAL; }
    if (a - WS_SHARED_WIN < WS_WIN_SIZE) { *addr = a - WS_SHARED_WIN; return SP_SHARED; }
    if (a - WS_PARAM_WIN < WS_WIN_SIZE) { *addr = a - WS_PARAM_WIN; return SP_PARAM; }
    return SP_GLOBAL;
}

/* SP_PARAM below means the kernel parameter buffer; frame .params are SP_LOCAL. */
/* The timing model's record of one lane's access (x->trace: memory instructions only). */
static inline void trace_access(exec_ctx *x, uint64_t addr, unsigned lane, unsigned size, int space, int write)
{
    if (x->trace) {
        exec_trace *t = x->trace;
        if (t->n < t->cap)
            t->a[t->n++] = (exec_access){addr, (uint8_t)lane, (uint8_t)size, (uint8_t)space, (uint8_t)write};
    }
}

/* *dev: the bytes are device memory (global or const), which other SMs share */
static uint8_t *mem_at(exec_ctx *x, const ptx_insn *in, unsigned lane, int space, uint64_t addr,
                       unsigned size, int write, int *dev)
{
    func_warp *w = x->w;
    func_launch *L = w->L;
    uint8_t *p = NULL;
    uint64_t orig = addr;
    *dev = 0;
    if (space == SP_GENERIC || space == SP_NONE)
        space = generic_space(&addr);
    if (addr & (size - 1)) {
        ex_fault_code(x, in, lane, WS_E_MISALIGNED, "misaligned %s %s of %u bytes at address 0x%llx",
                      ptx_space_name[space], write ? "store" : "load", size, (unsigned long long)orig);
        return NULL;
    }
    switch (space) {
    case SP_GLOBAL:
    case SP_CONST:
        p = devmem_ptr_at(L->mem, addr, size, &L->mem_last);
        *dev = 1;
        break;
    case SP_SHARED:
        if (addr < L->shared_bytes && size <= L->shared_bytes - addr)
            p = w->cta->shared + addr;
        break;
    case SP_LOCAL:
        if (addr < w->local_top && size <= w->local_top - addr)
            p = w->local + (size_t)lane * w->local_cap + addr;
        break;
    case SP_PARAM:
        if (!write && addr < L->params_size && size <= L->params_size - addr)
            p = (uint8_t *)L->params + addr;
        break;
    default:
        break;
    }
    if (!p) {
        ex_fault_code(x, in, lane, WS_E_ILLEGAL_ADDRESS, "out-of-bounds %s %s of %u bytes at address 0x%llx",
                      ptx_space_name[space], write ? "store" : "load", size, (unsigned long long)orig);
        return NULL;
    }
    trace_access(x, addr, lane, size, space, write);
    return p;
}

/* Little-endian host, as the device. One load of the access's width: a byte-wise copy
 * into a wider variable read back whole stalls the host's store forwarding. */
/* mem_at()'s common cases, inline: a naturally aligned global (or constant) access
 * inside the allocation that the last lookup found (devmem.last; a warp's lanes almost
 * always touch one allocation), a load from the kernel parameter buffer, or an access
 * inside shared or local memory. The host pointer, traced as mem_at() traces it; NULL
 * when not that case (mem_at() then decides, faults included). */
/* The host bytes of device range [addr, addr + size) when it lies in the block of the
 * last lookup (func_launch.mem_last: the hint is the SM's own, never shared between the
 * host threads of a parallel simulation), else NULL (mem_at finds it). */
static inline uint8_t *dev_hint(const func_launch *L, uint64_t addr, unsigned size)
{
    const devmem *d = L->mem;
    if (L->mem_last >= d->n)
        return NULL;
    const devmem_block *b = &d->b[L->mem_last];
    if (addr < b->addr || addr - b->addr > b->size || size > b->size - (addr - b->addr))
        return NULL;
    return b->data + (addr - b->addr);
}

/* dev_hint's block read once for a warp instruction's lanes (reloaded after mem_at,
 * which may move the hint): the lanes' stores into registers or device bytes could
 * otherwise alias the block's fields and make the compiler read them per lane. */
typedef struct {
    uint64_t addr;
    uint64_t lim;       /* accesses of esz bytes at offsets below lim fit: size - esz + 1,
                           0 when none (no hint, or a block smaller than esz) */
    uint8_t *data;
} dev_blk;

/* The hint's block for accesses of esz bytes (one unsigned compare per access: an
 * address below the block wraps to an offset beyond any lim, blocks not wrapping the
 * address space) */
static inline dev_blk dev_blk_load(const func_launch *L, unsigned esz)
{
    const devmem *d = L->mem;
    if (L->mem_last >= d->n)
        return (dev_blk){0, 0, NULL};
    const devmem_block *b = &d->b[L->mem_last];
    return (dev_blk){b->addr, b->size >= esz ? b->size - esz + 1 : 0, b->data};
}

/* (by value: a local whose address is never taken stays in registers) */
static inline uint8_t *dev_blk_at(dev_blk h, uint64_t addr)
{
    const uint64_t off = addr - h.addr;
    return off < h.lim ? h.data + off : NULL;
}

static inline uint8_t *mem_fast(exec_ctx *x, unsigned lane, int space, uint64_t addr, unsigned size,
                                int write, int *dev)
{
    if (space == SP_GENERIC || space == SP_NONE)
        space = generic_space(&addr);
    if (addr & (size - 1))
        return NULL;
    const func_launch *L = x->w->L;
    uint8_t *p;
    if (space == SP_GLOBAL || space == SP_CONST) {
        if (!(p = dev_hint(L, addr, size)))
            return NULL;
        *dev = 1;
    } else if (space == SP_PARAM) {
        /* the kernel parameter buffer (frame .params are SP_LOCAL) */
        if (write || addr >= L->params_size || size > L->params_size - addr)
            return NULL;
        p = (uint8_t *)L->params + addr;
        *dev = 0;
    } else if (space == SP_SHARED) {
        /* the CTA's shared memory (mem_at's bounds) */
        if (addr >= L->shared_bytes || size > L->shared_bytes - addr)
            return NULL;
        p = x->w->cta->shared + addr;
        *dev = 0;
    } else if (space == SP_LOCAL) {
        /* the lane's local memory (mem_at's bounds) */
        const func_warp *w = x->w;
        if (addr >= w->local_top || size > w->local_top - addr)
            return NULL;
        p = w->local + (size_t)lane * w->local_cap + addr;
        *dev = 0;
    } else {
        return NULL;
    }
    trace_access(x, addr, lane, size, space, write);
    return p;
}

static inline uint64_t load_bytes(const uint8_t *p, unsigned size)
{
    switch (size) {
    case 1:
        return *p;
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    case 8: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    default: {
        uint64_t v = 0;
        memcpy(&v, p, size);
        return v;
    }
    }
}

static inline void store_bytes(uint8_t *p, uint64_t v, unsigned size)
{
    switch (size) {
    case 1:
        *p = (uint8_t)v;
        break;
    case 2: {
        uint16_t u = (uint16_t)v;
        memcpy(p, &u, 2);
        break;
    }
    case 4: {
        uint32_t u = (uint32_t)v;
        memcpy(p, &u, 4);
        break;
    }
    case 8:
        memcpy(p, &v, 8);
        break;
    default:
        memcpy(p, &v, size);
        break;
    }
}

static inline uint64_t sext(uint64_t v, unsigned bytes)
{
    unsigned sh = 64 - bytes * 8;
    return (uint64_t)((int64_t)(v << sh) >> sh);
}

/* Width in bytes of the registers that row r of the executing function holds. */
static unsigned reg_bytes(const exec_ctx *x, uint32_t r)
{
    const func_warp *w = x->w;
    return w->L->prog->row_bytes[w->fr[w->nfr - 1].func][r];
}

/* Effective space of an access: call-site and .func parameters live in the frame. */
static int eff_space(const exec_ctx *x, const ptx_insn *in, const ptx_operand *a)
{
    if (in->space != SP_PARAM)
        return in->space;
    const func_warp *w = x->w;
    const ptx_module *m = w->L->prog->m;
    if (a->base == OK_SYM)
        return w->L->prog->kparam[a->r] ? SP_PARAM : SP_LOCAL;
    return m->funcs[w->fr[w->nfr - 1].func].is_entry ? SP_PARAM : SP_LOCAL;
}

static uint64_t atom_apply(const ptx_insn *in, uint64_t old, uint64_t b, uint64_t c, unsigned sz);

/* A deferred data access (func.h func_defer); NULL when out of host memory (the
 * instruction then faults). */
static func_defer_op *defer_rec(exec_ctx *x, const ptx_insn *in, unsigned lane)
{
    func_defer *d = x->w->L->defer;
    if (d->n == d->cap) {
        uint32_t cap = d->cap ? d->cap * 2 : 256;
        func_defer_op *a = realloc(d->a, cap * sizeof *a);
        if (!a) {
            d->oom = 1;
            ex_fault_code(x, in, lane, WS_E_OUT_OF_MEMORY, "out of host memory for deferred accesses");
            return NULL;
        }
        d->a = a;
        d->cap = cap;
    }
    return &d->a[d->n++];
}

/* Room for `need` more records in the deferred list (grown ahead when not: only its
 * capacity changes); 0 when out of host memory (the caller then takes defer_rec's
 * path, which reports it). */
static inline int defer_reserve(func_defer *d, uint32_t need)
{
    if (d->cap >= d->n && d->cap - d->n >= need)
        return 1;
    uint32_t cap = d->cap ? d->cap : 256;
    while (cap - d->n < need)
        cap *= 2;
    func_defer_op *a = realloc(d->a, cap * sizeof *a);
    if (!a)
        return 0;
    d->a = a;
    d->cap = cap;
    return 1;
}

/* A deferred access's device bytes, asked of the host's cache now: the commit at the
 * end of the cycle reads or writes them after every other SM's cycle has run, so the
 * line (a random one of a large array in the memory-bound kernels, missing every host
 * cache) is on its way meanwhile instead of stalling the commit. */
static inline void defer_prefetch(const uint8_t *p, int write)
{
    if (write)
        __builtin_prefetch(p, 1);
    else
        __builtin_prefetch(p, 0);
}

/* The grouped records' lane data (FD_LDW, FD_STW): 8-byte words after the header,
 * read and written by memcpy (the records' memory holds them as plain bytes). */
static inline const uint8_t *defer_word_ptr(const uint8_t *w, uint32_t k)
{
    const uint8_t *p;
    memcpy(&p, w + (size_t)k * 8, 8);
    return p;
}

/* FD_LDW: the group's lanes in lane order, as FD_LD per lane */
static void commit_ldw(const func_defer_op *o)
{
    const uint8_t *w = (const uint8_t *)(o + 1);
    void *dst = o->dst;
    const int d8 = o->rb >= 8;
    uint32_t k = 0;
    if (o->size == 4 && o->rb == 4) {   /* (sign extension to 4 bytes: the same bits) */
        uint32_t *d = dst;
        for (uint64_t m = o->v; m; m &= m - 1)
            memcpy(&d[__builtin_ctzll(m)], defer_word_ptr(w, k++), 4);
    } else if (!o->sext && o->size == 8 && d8) {
        uint64_t *d = dst;
        for (uint64_t m = o->v; m; m &= m - 1)
            memcpy(&d[__builtin_ctzll(m)], defer_word_ptr(w, k++), 8);
    } else {
        for (uint64_t m = o->v; m; m &= m - 1) {
            uint64_t v = load_bytes(defer_word_ptr(w, k++), o->size);
            if (o->sext)
                v = ex_trunc(sext(v, o->size), o->rb);
            row_put(dst, d8, (unsigned)__builtin_ctzll(m), v);
        }
    }
}

/* FD_STW: the group's stores in lane order, as FD_ST per lane */
static void commit_stw(const func_defer_op *o)
{
    const uint8_t *w = (const uint8_t *)(o + 1);
    const uint32_t c = (uint32_t)o->c;
    if (o->size == 4) {
        for (uint32_t k = 0; k < c; k++) {
            uint64_t v;
            memcpy(&v, w + (size_t)k * 16 + 8, 8);
            uint32_t u = (uint32_t)v;
            memcpy((uint8_t *)defer_word_ptr(w, 2 * k), &u, 4);
        }
    } else {
        for (uint32_t k = 0; k < c; k++) {
            uint64_t v;
            memcpy(&v, w + (size_t)k * 16 + 8, 8);
            memcpy((uint8_t *)defer_word_ptr(w, 2 * k), &v, o->size);
        }
    }
}

void func_defer_commit(func_defer *d)
{
    for (uint32_t i = 0; i < d->n; i++) {
        const func_defer_op *o = &d->a[i];
        switch (o->op) {
        case FD_LDW:
            commit_ldw(o);
            i += ((uint32_t)o->c + 5) / 6;
            break;
        case FD_STW:
            commit_stw(o);
            i += ((uint32_t)o->c + 2) / 3;
            break;
        case FD_LD: {
            uint64_t v = load_bytes(o->p, o->size);
            if (o->sext)
                v = ex_trunc(sext(v, o->size), o->rb);
            row_put(o->dst, o->rb >= 8, 0, v);
            break;
        }
        case FD_ST:
            memcpy(o->p, &o->v, o->size);
            break;
        default: {
            uint64_t old = load_bytes(o->p, o->size);
            uint64_t nv = atom_apply(o->in, old, o->v, o->c, o->size);
            memcpy(o->p, &nv, o->size);
            if (o->dst)
                row_put(o->dst, o->rb >= 8, 0, old);
            break;
        }
        }
    }
    d->n = 0;
}

/* ---- ld / st ---------------------------------------------------------------------------- */
/* x_ld when every lane reads the same address `ad` (a symbol or an absolute address) in
 * a space where it is one host location for all lanes (global, const, kernel parameters,
 * shared; not local memory, which is per lane): resolved once, for the first lane, as
 * x_ld resolves it (a fault included), its trace record repeated for the others (the
 * same record x_ld's per-lane resolution writes), and outside deferred device loads each
 * value loaded once for all lanes. Same results, order of records and faults as x_ld. */
static void x_ld_uniform(exec_ctx *x, const ptx_insn *in, int space, uint64_t ad, const uint32_t *regs,
                         unsigned n, unsigned esz, int sign, const unsigned *rb, int defer)
{
    const ptx_operand *d = &in->ops[0];
    const uint64_t mask = x->mask;
    const unsigned l0 = (unsigned)__builtin_ctzll(mask);
    exec_trace *t = x->trace;
    const uint32_t t0 = t ? t->n : 0;
    int dev;
    uint8_t *p = mem_fast(x, l0, space, ad, esz * n, 0, &dev);
    if (!p && !(p = mem_at(x, in, l0, space, ad, esz * n, 0, &dev)))
        return;
    exec_access rec = {0, 0, 0, 0, 0};
    if (t && t->n > t0)
        rec = t->a[t0];   /* (none when the trace is full: it stays full) */
    if (dev && defer) {
        EX_FOR_LANES(mask, l) {
            if (l != l0 && t && t->n < t->cap) {
                rec.lane = (uint8_t)l;
                t->a[t->n++] = rec;
            }
            for (unsigned i = 0; i < n; i++) {
                if (d->kind == OK_VEC && regs[i] == UINT32_MAX)
                    continue;                           /* `_` sink in a vector */
                func_defer_op *o = defer_rec(x, in, l);
                if (!o)
                    return;
                *o = (func_defer_op){p + i * esz, reg_lane(x, regs[i], l), 0, 0, NULL,
                                     FD_LD, (uint8_t)esz, (uint8_t)sign, (uint8_t)rb[i]};
            }
        }
        return;
    }
    if (t && t0 == 0 && t->n == 1 && !t->rep) {
        /* the other lanes' records, in lane order, in the trace's compact form */
        t->rep = mask & (mask - 1);
    } else if (t && t->n > t0) {
        /* the other lanes' records, in lane order (as many as the trace takes) */
        exec_access *ta = t->a;
        uint32_t tn = t->n, cap = t->cap;
        for (uint64_t b = mask & (mask - 1); b && tn < cap; b &= b - 1) {
            rec.lane = (uint8_t)__builtin_ctzll(b);
            ta[tn++] = rec;
        }
        t->n = tn;
    }
    for (unsigned i = 0; i < n; i++) {
        if (d->kind == OK_VEC && regs[i] == UINT32_MAX)
            continue;                                   /* `_` sink in a vector */
        uint64_t v = load_bytes(p + i * esz, esz);
        if (sign)
            v = ex_trunc(sext(v, esz), rb[i]);
        EX_ROW_DO(x, regs[i], r, {
            if (x->ws == 32 && mask == 0xffffffffull) {   /* (a full warp of 32: a constant count) */
                for (unsigned l = 0; l < 32; l++)
                    r[l] = v;
            } else {
                EX_LANE_LOOP(x, l, r[l] = v;);
            }
        });
    }
}

/* Room in the trace (and in the deferred list dq, unless NULL) for a record of every
 * lane of the warp: the per-lane paths may then keep the counts in locals. */
static inline int warp_room(const exec_ctx *x, const func_defer *dq)
{
    const exec_trace *t = x->trace;
    return t && x->ws <= 64 && t->cap >= t->n && t->cap - t->n >= 64 &&
           (!dq || (dq->cap >= dq->n && dq->cap - dq->n >= 64));
}

/* Lane l's host bytes of a global access of esz bytes at ad (traced), through the block
 * hint *h, or mem_at's answer outside it (then *h again, and *dev: device memory or not;
 * NULL: a fault, the instruction stops) */
static inline __attribute__((always_inline)) uint8_t *
global_at(exec_ctx *x, const ptx_insn *in, const func_launch *L, dev_blk *h, unsigned l,
          uint64_t ad, unsigned esz, int st, int *dev)
{
    *dev = 1;
    uint8_t *p = !(ad & (esz - 1)) ? dev_blk_at(*h, ad) : NULL;
    if (p) {
        trace_access(x, ad, l, esz, SP_GLOBAL, st);
        return p;
    }
    if ((p = mem_at(x, in, l, SP_GLOBAL, ad, esz, st, dev)))
        *h = dev_blk_load(L, esz);
    return p;
}

/* global_at with the trace's and the deferred list's counts held in the caller's locals
 * *tn, *dn (the caller made room for every lane's record): a hit in the block hint
 * writes the record at *tn; mem_at, outside the hint's block, sees the counts written
 * back (dq: the deferred list, or NULL) and may add a record, which the locals take up. */
static inline __attribute__((always_inline)) uint8_t *
global_at_room(exec_ctx *x, const ptx_insn *in, const func_launch *L, dev_blk *h, unsigned l,
               uint64_t ad, unsigned esz, int st, int *dev, func_defer *dq, uint32_t *tn,
               uint32_t *dn)
{
    exec_trace *t = x->trace;
    *dev = 1;
    uint8_t *p = !(ad & (esz - 1)) ? dev_blk_at(*h, ad) : NULL;
    if (p) {
        trace_put(&t->a[(*tn)++], ad, l, esz, SP_GLOBAL, st);
        return p;
    }
    t->n = *tn;
    if (dq)
        dq->n = *dn;
    if (!(p = mem_at(x, in, l, SP_GLOBAL, ad, esz, st, dev)))
        return NULL;
    *h = dev_blk_load(L, esz);
    *tn = t->n;
    if (dq)
        *dn = dq->n;
    return p;
}

/* x_ld of one scalar from global memory at a register address: mem_fast's global case
 * without its dispatch on the space per lane (mem_at for the rest, faults included).
 * Same results, records and faults as x_ld. */
static inline __attribute__((always_inline)) void
x_ld_global(exec_ctx *x, const ptx_insn *in, const ptx_operand *a, uint64_t amask, uint32_t reg,
            unsigned esz, int sign, unsigned rb, int defer, int a8)
{
    const func_launch *L = x->w->L;
    const void *ra = row_of(x, a->r);   /* (a8: its lanes 8 bytes wide) */
    void *rd = row_of(x, reg);
    const int d8 = rb >= 8;
    const uint64_t imm = a->imm;
    dev_blk h = dev_blk_load(L, esz);
    exec_trace *t = x->trace;
    func_defer *dq = defer ? L->defer : NULL;
    if (warp_room(x, dq) && (!dq || defer_reserve(dq, 2 * x->ws + 2))) {
        /* traced, with room for every lane's record and deferred load: the counts in
         * locals (mem_at, outside the hint's block, sees them written back and writes
         * at most one record, no deferred access). The lanes in the hint's block, in
         * lane order, run in a loop without a call: their trace records, and their
         * deferred loads as one FD_LDW record (its lanes' pointers in the records after
         * it: 1 + ceil(k / 6) <= k + 1 records); a lane outside it goes through mem_at
         * (one FD_LD record) and the loop starts again after it, so at most 2 ws + 1
         * records in all. */
        uint32_t tn = t->n, dn = defer ? dq->n : 0;
        exec_access *ta = t->a;
        const uint32_t hi = (uint32_t)esz << 8 | (uint32_t)SP_GLOBAL << 16;
        uint64_t m = x->mask;
        while (m) {
            uint8_t *pw = defer ? (uint8_t *)&dq->a[dn + 1] : NULL;
            const uint64_t m0 = m;
            uint32_t k = 0;
            for (; m; m &= m - 1) {
                const unsigned l = (unsigned)__builtin_ctzll(m);
                const uint64_t ad = (row_get(ra, a8, l) + imm) & amask, off = ad - h.addr;
                if ((ad & (esz - 1)) || off >= h.lim)
                    break;
                trace_put_w(&ta[tn++], ad, hi | l);
                uint8_t *p = h.data + off;
                if (defer) {
                    memcpy(pw + (size_t)k++ * 8, &p, 8);
                    defer_prefetch(p, 0);
                    continue;
                }
                uint64_t v = load_bytes(p, esz);
                if (sign)
                    v = ex_trunc(sext(v, esz), rb);
                row_put(rd, d8, l, v);
            }
            if (k) {
                func_defer_op *o = &dq->a[dn];
                o->dst = rd;
                o->v = m0 & ~m;
                o->c = k;
                o->op = FD_LDW;
                o->size = (uint8_t)esz;
                o->sext = (uint8_t)sign;
                o->rb = (uint8_t)rb;
                dn += 1 + (k + 5) / 6;
            }
            if (!m)
                break;
            /* the lane outside the hint's block */
            const unsigned l = (unsigned)__builtin_ctzll(m);
            m &= m - 1;
            const uint64_t ad = (row_get(ra, a8, l) + imm) & amask;
            int dev;
            uint8_t *p = global_at_room(x, in, L, &h, l, ad, esz, 0, &dev, dq, &tn, &dn);
            if (!p)
                return;
            ta = t->a;
            if (dev && defer) {
                func_defer_op *o = &dq->a[dn++];
                /* (a load's record: the fields func_defer_commit reads for FD_LD) */
                o->p = p;
                o->dst = row_lane(rd, d8, l);
                o->op = FD_LD;
                o->size = (uint8_t)esz;
                o->sext = (uint8_t)sign;
                o->rb = (uint8_t)rb;
                continue;
            }
            uint64_t v = load_bytes(p, esz);
            if (sign)
                v = ex_trunc(sext(v, esz), rb);
            row_put(rd, d8, l, v);
        }
        t->n = tn;
        if (defer)
            dq->n = dn;
        return;
    }
    EX_FOR_LANES(x->mask, l) {
        const uint64_t ad = (row_get(ra, a8, l) + imm) & amask;
        int dev;
        uint8_t *p = global_at(x, in, L, &h, l, ad, esz, 0, &dev);
        if (!p)
            return;
        if (dev && defer) {
            func_defer_op *o = defer_rec(x, in, l);
            if (!o)
                return;
            /* (a load's record: the fields func_defer_commit reads for FD_LD) */
            o->p = p;
            o->dst = row_lane(rd, d8, l);
            o->op = FD_LD;
            o->size = (uint8_t)esz;
            o->sext = (uint8_t)sign;
            o->rb = (uint8_t)rb;
            continue;
        }
        uint64_t v = load_bytes(p, esz);
        if (sign)
            v = ex_trunc(sext(v, esz), rb);
        row_put(rd, d8, l, v);
    }
}

/* The host bytes of shared or local memory at a register address: the CTA's shared
 * memory (lane stride 0) or the lanes' local memory (stride local_cap), lim bytes of
 * it addressable (mem_fast's bounds). */
typedef struct {
    uint8_t *base;
    size_t stride;
    uint64_t lim;
} direct_space;

static inline direct_space direct_of(const exec_ctx *x, int space)
{
    const func_warp *w = x->w;
    if (space == SP_SHARED)
        return (direct_space){w->cta->shared, 0, w->L->shared_bytes};
    return (direct_space){w->local, w->local_cap, w->local_top};
}

/* Lane l's host bytes at address ad of that space (traced in t, x's trace), or mem_at's answer outside
 * the fast case (NULL: a fault, the instruction stops) */
static inline __attribute__((always_inline)) uint8_t *
direct_at(exec_ctx *x, const ptx_insn *in, exec_trace *t, const direct_space *ds, unsigned l,
          uint64_t ad, unsigned size, int space, int st)
{
    if (!(ad & (size - 1)) && ad < ds->lim && size <= ds->lim - ad) {
        if (t && t->n < t->cap)
            t->a[t->n++] = (exec_access){ad, (uint8_t)l, (uint8_t)size, (uint8_t)space, (uint8_t)st};
        return ds->base + (size_t)l * ds->stride + ad;
    }
    int dev;
    return mem_at(x, in, l, space, ad, size, st, &dev);
}

/* The offsets below which an access of `size` bytes fits in ds: ad < lim1 exactly
 * when ad < ds->lim && size <= ds->lim - ad. */
static inline uint64_t direct_lim1(const direct_space *ds, unsigned size)
{
    return ds->lim >= size ? ds->lim - size + 1 : 0;
}

/* direct_at for a trace with room for a record of every lane (x->ws <= 64 free
 * entries): the trace's count in *tn, a local of the caller's loop (no test of the
 * room per lane, and no reload of the count after the lanes' stores); mem_at, outside
 * the fast case, sees it written back and writes at most one record. */
static inline __attribute__((always_inline)) uint8_t *
direct_at_room(exec_ctx *x, const ptx_insn *in, exec_trace *t, uint32_t *tn, const direct_space *ds,
               uint64_t lim1, unsigned l, uint64_t ad, unsigned size, int space, int st)
{
    /* (lim1: direct_lim1 of ds and size, the bounds as one compare) */
    if (!(ad & (size - 1)) && ad < lim1) {
        trace_put(&t->a[(*tn)++], ad, l, size, space, st);
        return ds->base + (size_t)l * ds->stride + ad;
    }
    int dev;
    t->n = *tn;
    uint8_t *p = mem_at(x, in, l, space, ad, size, st, &dev);
    *tn = t->n;
    return p;
}

/* x_ld from shared or local memory (not generic) at a register address: mem_fast's
 * case of that space without its dispatch per lane, the trace test and the vector
 * walk hoisted (mem_at for the rest, faults included). Same results, records and
 * faults as x_ld's loop. */
static inline __attribute__((always_inline)) void
x_ld_direct(exec_ctx *x, const ptx_insn *in, const ptx_operand *a, uint64_t amask, const uint32_t *regs,
            unsigned n, unsigned esz, int sign, const unsigned *rb, int space, int a8, int d8)
{
    /* (a8: the address row's lanes 8 bytes wide; d8: a scalar destination's) */
    const direct_space ds = direct_of(x, space);
    const void *ra = row_of(x, a->r);
    const uint64_t imm = a->imm;
    const unsigned size = esz * n;
    exec_trace *t = x->trace;
    const int vec = in->ops[0].kind == OK_VEC, scalar = !vec && n == 1;
    void *r0 = scalar ? row_of(x, regs[0]) : NULL;
    if (scalar && warp_room(x, NULL)) {
        /* traced, with room for every lane: the count in a local */
        uint32_t tn = t->n;
        const uint64_t lim1 = direct_lim1(&ds, size);
        EX_LANE_LOOP(x, l, {
            uint8_t *p = direct_at_room(x, in, t, &tn, &ds, lim1, l, (row_get(ra, a8, l) + imm) & amask, size, space, 0);
            if (!p)
                return;   /* (t->n written back by mem_at's caller) */
            uint64_t v = load_bytes(p, esz);
            if (sign)
                v = ex_trunc(sext(v, esz), rb[0]);
            row_put(r0, d8, l, v);
        });
        t->n = tn;
        return;
    }
    EX_LANE_LOOP(x, l, {
        uint8_t *p = direct_at(x, in, t, &ds, l, (row_get(ra, a8, l) + imm) & amask, size, space, 0);
        if (!p)
            return;
        if (scalar) {
            uint64_t v = load_bytes(p, esz);
            if (sign)
                v = ex_trunc(sext(v, esz), rb[0]);
            row_put(r0, d8, l, v);
            continue;
        }
        for (unsigned i = 0; i < n; i++) {
            if (vec && regs[i] == UINT32_MAX)
                continue;                           /* `_` sink in a vector */
            uint64_t v = load_bytes(p + i * esz, esz);
            if (sign)
                v = ex_trunc(sext(v, esz), rb[i]);
            ex_reg_set(x, regs[i], l, v);
        }
    });
}

static void x_ld(exec_ctx *x, const ptx_insn *in)
{
    const ptx_operand *d = &in->ops[0], *a = &in->ops[1];
    unsigned esz = ptx_type_size[in->type], n = in->vec ? in->vec : 1;
    int space = eff_space(x, in, a);
    uint64_t base = addr_base(x, a);
    int sign = ptx_type_is_signed((ptx_type)in->type) && esz < 8;
    const uint32_t *regs = d->kind == OK_VEC ? &x->w->L->prog->pool[d->r] : &d->r;
    unsigned rb[4];
    for (unsigned i = 0; i < n; i++)
        rb[i] = (d->kind == OK_REG || d->kind == OK_VEC) && regs[i] != UINT32_MAX ? reg_bytes(x, regs[i]) : 8;
    if (sign && n == 1 && rb[0] == esz)
        sign = 0;   /* (sign extension to the register's width: the same bits) */
    int defer = x->w->L->defer != NULL;
    if (a->base != OK_REG && x->mask &&
        (space == SP_GLOBAL || space == SP_CONST || space == SP_PARAM || space == SP_SHARED)) {
        x_ld_uniform(x, in, space, base, regs, n, esz, sign, rb, defer);
        return;
    }
    if (a->base == OK_REG && space == SP_GLOBAL && n == 1 && d->kind != OK_VEC) {
        /* the common 32- and 64-bit loads (into registers of their width, at 64-bit
         * addresses) specialised, with and without the deferred accesses of a timing run */
        const int a8 = ex_w8(x, a->r), same = !sign && rb[0] == esz && a8;
        if (esz == 4 && same && !defer)
            x_ld_global(x, in, a, base, regs[0], 4, 0, 4, 0, 1);
        else if (esz == 8 && same && !defer)
            x_ld_global(x, in, a, base, regs[0], 8, 0, 8, 0, 1);
        else if (esz == 4 && same)
            x_ld_global(x, in, a, base, regs[0], 4, 0, 4, 1, 1);
        else if (esz == 8 && same)
            x_ld_global(x, in, a, base, regs[0], 8, 0, 8, 1, 1);
        else
            x_ld_global(x, in, a, base, regs[0], esz, sign, rb[0], defer, a8);
        return;
    }
    if (a->base == OK_REG && (space == SP_SHARED || space == SP_LOCAL)) {
        /* the common 32-bit scalar load of shared memory (into a 32-bit register, at a
         * 32- or 64-bit address) specialised */
        const int a8 = ex_w8(x, a->r), d8 = rb[0] >= 8;
        if (space == SP_SHARED && d->kind != OK_VEC && n == 1 && esz == 4 && !sign && !d8)
            a8 ? x_ld_direct(x, in, a, base, regs, 1, 4, 0, rb, SP_SHARED, 1, 0)
               : x_ld_direct(x, in, a, base, regs, 1, 4, 0, rb, SP_SHARED, 0, 0);
        else if (space == SP_SHARED)
            x_ld_direct(x, in, a, base, regs, n, esz, sign, rb, SP_SHARED, a8, d8);
        else
            x_ld_direct(x, in, a, base, regs, n, esz, sign, rb, SP_LOCAL, a8, d8);
        return;
    }
    EX_FOR_LANES(x->mask, l) {
        int dev;
        uint64_t ad = addr_lane(x, a, base, l);
        uint8_t *p = mem_fast(x, l, space, ad, esz * n, 0, &dev);
        if (!p && !(p = mem_at(x, in, l, space, ad, esz * n, 0, &dev)))
            return;
        for (unsigned i = 0; i < n; i++) {
            if (d->kind == OK_VEC && regs[i] == UINT32_MAX)
                continue;                           /* `_` sink in a vector */
            if (dev && defer) {
                func_defer_op *o = defer_rec(x, in, l);
                if (!o)
                    return;
                *o = (func_defer_op){p + i * esz, reg_lane(x, regs[i], l), 0, 0, NULL,
                                     FD_LD, (uint8_t)esz, (uint8_t)sign, (uint8_t)rb[i]};
                continue;
            }
            uint64_t v = load_bytes(p + i * esz, esz);
            if (sign)
                v = ex_trunc(sext(v, esz), rb[i]);
            ex_reg_set(x, regs[i], l, v);
        }
    }
}

/* A store's value operand resolved once: a register of 8-byte lanes or an immediate
 * (v8 = 1, r8), or a register of 4-byte lanes (v8 = 0, r4). 0 for other kinds. */
typedef struct {
    ex_rd32 r4;
    ex_rd64 r8;
    int v8;
} st_val;

static inline int st_val_init(const exec_ctx *x, const ptx_operand *o, st_val *sv)
{
    sv->v8 = o->kind != OK_REG || ex_w8(x, o->r);
    return sv->v8 ? ex_rd64_init(x, o, &sv->r8) : ex_rd32_init(x, o, &sv->r4);
}
/* Lane l's value (v8: sv->v8, a constant where the caller is specialised). */
#define ST_VAL(sv, v8, l) ((v8) ? EX_RD((sv)->r8, l) : (uint64_t)EX_RD((sv)->r4, l))

/* x_st to shared or local memory (not generic) at a register address, as x_ld_direct
 * (the value a register or an immediate, or a vector). Same effects as x_st's loop. */
static inline __attribute__((always_inline)) void
x_st_direct(exec_ctx *x, const ptx_insn *in, const ptx_operand *a, uint64_t amask, unsigned n,
            unsigned esz, int space, int a8, int v8)
{
    /* (a8: the address row's lanes 8 bytes wide; v8: a scalar value's, st_val) */
    const direct_space ds = direct_of(x, space);
    const ptx_operand *v = &in->ops[1];
    const uint32_t *pool = x->w->L->prog->pool;
    const void *ra = row_of(x, a->r);
    const uint64_t imm = a->imm;
    const unsigned size = esz * n;
    exec_trace *t = x->trace;
    st_val sv, *rv = &sv;
    const int vec = v->kind == OK_VEC, scalar = !vec && n == 1 && st_val_init(x, v, &sv) && sv.v8 == v8;
    if (scalar && warp_room(x, NULL)) {
        /* traced, with room for every lane: the count in a local (x_ld_direct's) */
        uint32_t tn = t->n;
        const uint64_t lim1 = direct_lim1(&ds, size);
        EX_LANE_LOOP(x, l, {
            uint8_t *p = direct_at_room(x, in, t, &tn, &ds, lim1, l, (row_get(ra, a8, l) + imm) & amask, size, space, 1);
            if (!p)
                return;
            store_bytes(p, ST_VAL(rv, v8, l), esz);
        });
        t->n = tn;
        return;
    }
    EX_LANE_LOOP(x, l, {
        uint8_t *p = direct_at(x, in, t, &ds, l, (row_get(ra, a8, l) + imm) & amask, size, space, 1);
        if (!p)
            return;
        if (scalar) {
            store_bytes(p, ST_VAL(rv, v8, l), esz);
            continue;
        }
        for (unsigned i = 0; i < n; i++) {
            uint64_t val;
            if (vec)
                val = pool[v->r + i] == UINT32_MAX ? 0 : ex_reg(x, pool[v->r + i], l);
            else
                val = ex_src(x, v, l);
            store_bytes(p + i * esz, val, esz);
        }
    });
}

/* x_st of one scalar (a register or an immediate) to global memory at a register
 * address, as x_ld_global: same results, records and faults as x_st's loop. */
static inline __attribute__((always_inline)) void
x_st_global(exec_ctx *x, const ptx_insn *in, const ptx_operand *a, uint64_t amask, const st_val *rv,
            unsigned esz, int defer, int a8, int v8)
{
    /* (a8: the address row's lanes 8 bytes wide; v8: rv->v8) */
    const func_launch *L = x->w->L;
    const void *ra = row_of(x, a->r);
    const uint64_t imm = a->imm;
    dev_blk h = dev_blk_load(L, esz);
    exec_trace *t = x->trace;
    func_defer *dq = defer ? L->defer : NULL;
    if (warp_room(x, dq) && (!dq || defer_reserve(dq, 2 * x->ws + 2))) {
        /* traced, with room for every lane: the counts in locals, and the lanes in the
         * hint's block in a loop without a call, as x_ld_global: their deferred stores
         * as one FD_STW record (pointer and value pairs in the records after it: 1 +
         * ceil(k / 3) <= k + 1 records) */
        uint32_t tn = t->n, dn = defer ? dq->n : 0;
        exec_access *ta = t->a;
        const uint32_t hi = (uint32_t)esz << 8 | (uint32_t)SP_GLOBAL << 16 | 1u << 24;
        uint64_t m = x->mask;
        while (m) {
            uint8_t *pw = defer ? (uint8_t *)&dq->a[dn + 1] : NULL;
            uint32_t k = 0;
            for (; m; m &= m - 1) {
                const unsigned l = (unsigned)__builtin_ctzll(m);
                const uint64_t ad = (row_get(ra, a8, l) + imm) & amask, off = ad - h.addr;
                if ((ad & (esz - 1)) || off >= h.lim)
                    break;
                trace_put_w(&ta[tn++], ad, hi | l);
                uint8_t *p = h.data + off;
                const uint64_t val = ST_VAL(rv, v8, l);
                if (defer) {
                    memcpy(pw + (size_t)k * 16, &p, 8);
                    memcpy(pw + (size_t)k * 16 + 8, &val, 8);
                    defer_prefetch(p, 1);
                    k++;
                    continue;
                }
                store_bytes(p, val, esz);
            }
            if (k) {
                func_defer_op *o = &dq->a[dn];
                o->c = k;
                o->op = FD_STW;
                o->size = (uint8_t)esz;
                dn += 1 + (k + 2) / 3;
            }
            if (!m)
                break;
            /* the lane outside the hint's block */
            const unsigned l = (unsigned)__builtin_ctzll(m);
            m &= m - 1;
            const uint64_t ad = (row_get(ra, a8, l) + imm) & amask;
            int dev;
            uint8_t *p = global_at_room(x, in, L, &h, l, ad, esz, 1, &dev, dq, &tn, &dn);
            if (!p)
                return;
            ta = t->a;
            const uint64_t val = ST_VAL(rv, v8, l);
            if (dev && defer) {
                dq->a[dn++] = (func_defer_op){p, NULL, val, 0, NULL, FD_ST, (uint8_t)esz, 0, 0};
                continue;
            }
            store_bytes(p, val, esz);
        }
        t->n = tn;
        if (defer)
            dq->n = dn;
        return;
    }
    EX_FOR_LANES(x->mask, l) {
        const uint64_t ad = (row_get(ra, a8, l) + imm) & amask;
        int dev;
        uint8_t *p = global_at(x, in, L, &h, l, ad, esz, 1, &dev);
        if (!p)
            return;
        const uint64_t val = ST_VAL(rv, v8, l);
        if (dev && defer) {
            func_defer_op *o = defer_rec(x, in, l);
            if (!o)
                return;
            *o = (func_defer_op){p, NULL, val, 0, NULL, FD_ST, (uint8_t)esz, 0, 0};
            continue;
        }
        store_bytes(p, val, esz);
    }
}

static void x_st(exec_ctx *x, const ptx_insn *in)
{
    const ptx_operand *a = &in->ops[0], *v = &in->ops[1];
    unsigned esz = ptx_type_size[in->type], n = in->vec ? in->vec : 1;
    int space = eff_space(x, in, a);
    uint64_t base = addr_base(x, a);
    st_val rv;
    if (a->base == OK_REG && space == SP_GLOBAL && n == 1 && v->kind != OK_VEC && st_val_init(x, v, &rv)) {
        /* the common 32-bit store of a 32-bit register at a 64-bit address specialised */
        const int defer = x->w->L->defer != NULL, a8 = ex_w8(x, a->r);
        if (esz == 4 && a8 && !rv.v8 && !defer)
            x_st_global(x, in, a, base, &rv, 4, 0, 1, 0);
        else if (esz == 4 && a8 && !rv.v8)
            x_st_global(x, in, a, base, &rv, 4, 1, 1, 0);
        else if (rv.v8)
            x_st_global(x, in, a, base, &rv, esz, defer, a8, 1);
        else
            x_st_global(x, in, a, base, &rv, esz, defer, a8, 0);
        return;
    }
    if (a->base == OK_REG && (space == SP_SHARED || space == SP_LOCAL)) {
        /* (v8: a scalar value's width; a vector's elements are read per lane) */
        const int a8 = ex_w8(x, a->r), v8 = v->kind != OK_REG || ex_w8(x, v->r);
        if (space == SP_SHARED && n == 1 && esz == 4 && !v8)
            a8 ? x_st_direct(x, in, a, base, 1, 4, SP_SHARED, 1, 0)
               : x_st_direct(x, in, a, base, 1, 4, SP_SHARED, 0, 0);
        else if (space == SP_SHARED)
            v8 ? x_st_direct(x, in, a, base, n, esz, SP_SHARED, a8, 1)
               : x_st_direct(x, in, a, base, n, esz, SP_SHARED, a8, 0);
        else
            v8 ? x_st_direct(x, in, a, base, n, esz, SP_LOCAL, a8, 1)
               : x_st_direct(x, in, a, base, n, esz, SP_LOCAL, a8, 0);
        return;
    }
    const uint32_t *pool = x->w->L->prog->pool;
    int defer = x->w->L->defer != NULL;
    EX_FOR_LANES(x->mask, l) {
        int dev;
        uint64_t ad = addr_lane(x, a, base, l);
        uint8_t *p = mem_fast(x, l, space, ad, esz * n, 1, &dev);
        if (!p && !(p = mem_at(x, in, l, space, ad, esz * n, 1, &dev)))
            return;
        for (unsigned i = 0; i < n; i++) {
            uint64_t val;
            if (v->kind == OK_VEC)
                val = pool[v->r + i] == UINT32_MAX ? 0 : ex_reg(x, pool[v->r + i], l);
            else
                val = ex_src(x, v, l);
            if (dev && defer) {
                func_defer_op *o = defer_rec(x, in, l);
                if (!o)
                    return;
                *o = (func_defer_op){p + i * esz, NULL, val, 0, NULL, FD_ST, (uint8_t)esz, 0, 0};
                continue;
            }
            store_bytes(p + i * esz, val, esz);
        }
    }
}

/* ---- atomics ------------------------------------------------------------------------------ */
static float ftz32(float f) { return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f; }

/* New value for `old` under the atomic operation; type decides the arithmetic. */
static uint64_t atom_apply(const ptx_insn *in, uint64_t old, uint64_t b, uint64_t c, unsigned sz)
{
    ptx_type t = (ptx_type)in->type;
    switch (in->sub) {
    case AOP_ADD:
        if (t == PT_F32)
            return ex_bits32(ftz32(ftz32(ex_f32(old)) + ftz32(ex_f32(b))));
        if (t == PT_F64)
            return ex_bits64(ex_f64(old) + ex_f64(b));
        return ex_trunc(old + b, sz);
    case AOP_MIN:
    case AOP_MAX: {
        int lt;
        if (t == PT_F32) lt = ex_f32(b) < ex_f32(old);
        else if (t == PT_F64) lt = ex_f64(b) < ex_f64(old);
        else if (ptx_type_is_signed(t)) lt = (int64_t)sext(b, sz) < (int64_t)sext(old, sz);
        else lt = ex_trunc(b, sz) < ex_trunc(old, sz);
        int take = in->sub == AOP_MIN ? lt : (!lt && ex_trunc(b, sz) != ex_trunc(old, sz));
        if (in->sub == AOP_MAX && (t == PT_F32 || t == PT_F64))
            take = t == PT_F32 ? ex_f32(b) > ex_f32(old) : ex_f64(b) > ex_f64(old);
        return take ? ex_trunc(b, sz) : old;
    }
    case AOP_INC:
        return ex_trunc(old, sz) >= ex_trunc(b, sz) ? 0 : ex_trunc(old + 1, sz);
    case AOP_DEC:
        return (ex_trunc(old, sz) == 0 || ex_trunc(old, sz) > ex_trunc(b, sz)) ? ex_trunc(b, sz)
                                                                               : ex_trunc(old - 1, sz);
    case AOP_CAS:
        return ex_trunc(old, sz) == ex_trunc(b, sz) ? ex_trunc(c, sz) : old;
    case AOP_EXCH:
        return ex_trunc(b, sz);
    case AOP_AND:
        return old & b;
    case AOP_OR:
        return ex_trunc(old | b, sz);
    case AOP_XOR:
        return ex_trunc(old ^ b, sz);
    default:
        return old;
    }
}

static void x_atom(exec_ctx *x, const ptx_insn *in)
{
    int is_red = in->op == OP_RED;
    const ptx_operand *a = &in->ops[is_red ? 0 : 1];
    const ptx_operand *b = &in->ops[is_red ? 1 : 2];
    const ptx_operand *c = &in->ops[is_red ? 2 : 3];
    unsigned sz = ptx_type_size[in->type];
    uint64_t base = addr_base(x, a);
    int defer = x->w->L->defer != NULL;
    EX_FOR_LANES(x->mask, l) {
        int dev;
        uint64_t ad = addr_lane(x, a, base, l);
        uint8_t *p = mem_fast(x, l, in->space, ad, sz, 1, &dev);
        if (!p && !(p = mem_at(x, in, l, in->space, ad, sz, 1, &dev)))
            return;
        if (dev && defer) {
            func_defer_op *o = defer_rec(x, in, l);
            if (!o)
                return;
            defer_prefetch(p, 1);
            const int has_dst = !is_red && in->ops[0].kind == OK_REG;
            *o = (func_defer_op){p, has_dst ? reg_lane(x, in->ops[0].r, l) : NULL,
                                 ex_src(x, b, l), in->sub == AOP_CAS ? ex_src(x, c, l) : 0, in,
                                 FD_ATOM, (uint8_t)sz, 0,
                                 (uint8_t)(has_dst && ex_w8(x, in->ops[0].r) ? 8 : 4)};
            continue;
        }
        uint64_t old = load_bytes(p, sz);
        uint64_t nv = atom_apply(in, old, ex_src(x, b, l), in->sub == AOP_CAS ? ex_src(x, c, l) : 0, sz);
        store_bytes(p, nv, sz);
        if (!is_red)
            ex_dst(x, &in->ops[0], l, old);
    }
}

/* ---- address spaces ----------------------------------------------------------------------- */
static uint64_t win_of(int space)
{
    return space == SP_LOCAL ? WS_LOCAL_WIN : space == SP_SHARED ? WS_SHARED_WIN
         : space == SP_PARAM ? WS_PARAM_WIN : 0;
}

static void x_cvta(exec_ctx *x, const ptx_insn *in)
{
    uint64_t win = win_of(in->space);
    unsigned sz = ptx_type_size[in->type];
    int to = (in->flags & MF_TO) != 0;
    ex_rd64 ra;
    if (in->ops[0].kind == OK_REG && ex_w8(x, in->ops[0].r) && ex_rd64_init(x, &in->ops[1], &ra)) {
        /* (64-bit registers, the common case) */
        uint64_t *d = ex_row64(x, in->ops[0].r);
        const uint64_t add = to ? 0 - win : win;
        if (ra.m && x->mask == EX_FULL(x->ws)) {
            /* a register source, every lane: a plain loop the compiler can vectorise */
            const uint64_t tm = sz >= 8 ? ~0ull : (1ull << (sz * 8)) - 1;
            const uint64_t *src = ra.p;
            for (unsigned l = 0, n = x->ws; l < n; l++)
                d[l] = (src[l] + add) & tm;
            return;
        }
        EX_LANE_LOOP(x, l, d[l] = ex_trunc(EX_RD(ra, l) + add, sz););
        return;
    }
    EX_FOR_LANES(x->mask, l) {
        uint64_t v = ex_src(x, &in->ops[1], l);
        ex_dst_w(x, &in->ops[0], l, to ? v - win : v + win, sz);
    }
}

static void x_isspacep(exec_ctx *x, const ptx_insn *in)
{
    EX_FOR_LANES(x->mask, l) {
        uint64_t a = ex_src(x, &in->ops[1], l);
        int s = generic_space(&a);
        int hit = s == in->space || (in->space == SP_CONST && s == SP_GLOBAL &&
                                     devmem_ptr_at(x->w->L->mem, a, 1, &x->w->L->mem_last) != NULL);
        if (in->space == SP_GLOBAL)
            hit = s == SP_GLOBAL;
        ex_dst(x, &in->ops[0], l, (uint64_t)hit);
    }
}

static void x_prefetch(exec_ctx *x, const ptx_insn *in)
{
    (void)x;
    (void)in;   /* no architectural effect; the timing model sees the instruction */
}

exec_fn exec_bind_mem(const ptx_module *m, const ptx_func *f, const ptx_insn *in, char *why, size_t n)
{
    (void)m;
    (void)f;
    unsigned sz = ptx_type_size[in->type];
    switch (in->op) {
    case OP_LD:
    case OP_LDU:
    case OP_ST:
        if (sz == 0 || sz > 8) {
            snprintf(why, n, "%s of type .%s is not supported", ptx_op_info[in->op].name,
                     ptx_type_name[in->type]);
            return NULL;
        }
        return in->op == OP_ST ? x_st : x_ld;
    case OP_ATOM:
    case OP_RED:
        if (in->space != SP_GLOBAL && in->space != SP_SHARED && in->space != SP_GENERIC &&
            in->space != SP_NONE) {
            snprintf(why, n, "atomics on .%s space are not supported", ptx_space_name[in->space]);
            return NULL;
        }
        if (sz != 4 && sz != 8) {
            snprintf(why, n, "%s.%s: only 32- and 64-bit atomics are supported",
                     ptx_op_info[in->op].name, ptx_type_name[in->type]);
            return NULL;
        }
        if (in->sub == AOP_NONE) {
            snprintf(why, n, "atomic without an operation");
            return NULL;
        }
        return x_atom;
    case OP_CVTA:
        return x_cvta;
    case OP_ISSPACEP:
        return x_isspacep;
    case OP_PREFETCH:
    case OP_PREFETCHU:
        return x_prefetch;
    default:
        snprintf(why, n, "not a memory instruction");
        return NULL;
    }
}
