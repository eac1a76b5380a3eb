/* pipe.h - the parts of a core pipeline that both core models (sm.c "fermi", gcn.c
 * "gcn") share, so that each model keeps only what differs (its issue stage, units
 * and readiness rules):
 *   - pipe_sb: a warp's scoreboard, one pending-write counter per register of its
 *     register pool (frame base + register), so calls never alias;
 *   - pipe_wheel: the timing wheel of fixed-latency completions (writeback events),
 *     a power-of-two ring of per-cycle lists; events due the same cycle come out in
 *     reverse order of scheduling (the order both models always had);
 *   - pipe_minsts: memory instructions in flight (their requests outstanding);
 *   - pipe_rq: memory requests, pooled in slabs; every slab is remembered so that a
 *     launch stopped early frees the requests still in the memory system;
 *   - address mapping (kernel parameters, interleaved local memory), coalescing of a
 *     warp's accesses into line requests, bank-conflict cycles of shared memory / LDS,
 *     instruction-fetch requests, and the statistics both models count alike.
 * Nothing here allocates per cycle once the pools have grown to the launch's need.
 */
#ifndef WS_CORE_PIPE_H
#define WS_CORE_PIPE_H

#include <stddef.h>
#include <stdint.h>

#include "core/insn_table.h"
#include "core/ldq.h"
#include "core/sched.h"
#include "core/timing_stats.h"
#include "func/exec.h"
#include "func/func.h"
#include "mem/memsys.h"

/* ---- scoreboard ------------------------------------------------------------------- */
/* A warp's pending register writes (registers numbered in its register pool: frame base +
 * register, so calls never alias), as a multiset: a register is pending while a write to
 * it is. Two forms, the same answers:
 *   - a list (k <= PIPE_SB_LIST): the pending writes r[0 .. k), in no order, one entry
 *     per write. It lies in the warp record's hot first cache line (pipe_warp), so an
 *     issue or a completion reads no other line: a warp rarely has more writes in flight
 *     (the issue waits for a pending destination as for a pending source);
 *   - counters (k == PIPE_SB_SPILLED): a write to a register >= 0xffff or one more write
 *     than the list holds moves the list into c[] (one counter per pool register, n
 *     their sum), which serves until nothing is pending (then the list again).
 * Invariant: in list form c[] is all zero. */
#define PIPE_SB_LIST 7u
#define PIPE_SB_SPILLED 0xffu
typedef struct {
    uint8_t k;       /* pending writes in r[] (list), or PIPE_SB_SPILLED: c[]     */
    uint8_t pad;
    uint16_t r[PIPE_SB_LIST];
    /* the counters (the record's second line: read only in counters form) */
    uint16_t *c;     /* pending writes per pool register                          */
    uint32_t cap;
    uint32_t n;      /* the sum of c[] (counters form): never 0 there             */
} pipe_sb;

/* pipe_sb_inc of a write the list cannot take (or while the counters serve): in
 * counters form; -1 when out of memory. */
int pipe_sb_spill_inc(pipe_sb *sb, uint32_t reg);
/* One more pending write to `reg`; -1 when out of memory. */
static inline int pipe_sb_inc(pipe_sb *sb, uint32_t reg)
{
    if (sb->k < PIPE_SB_LIST && reg < 0xffff) {   /* (k == PIPE_SB_SPILLED: not below) */
        sb->r[sb->k++] = (uint16_t)reg;
        return 0;
    }
    return pipe_sb_spill_inc(sb, reg);
}
/* Marks ii's destinations (frame base `base`) pending and writes them to regs[]
 * (ii->n_dst <= 4); -1 when out of memory. */
int pipe_sb_pend(pipe_sb *sb, uint32_t base, const insn_info *ii, uint32_t *regs);
/* Whether register `reg` is in the list r[0 .. k). */
static inline int pipe_sb_listed(const pipe_sb *sb, uint32_t reg)
{
    for (uint32_t j = 0; j < sb->k; j++)
        if (sb->r[j] == reg)
            return 1;
    return 0;
}
/* Whether any source or destination of ii has a write pending. */
static inline int pipe_sb_busy(const pipe_sb *sb, uint32_t base, const insn_info *ii)
{
    if (!sb->k)
        return 0;
    if (sb->k != PIPE_SB_SPILLED) {
        for (uint32_t i = 0; i < ii->n_src; i++)
            if (pipe_sb_listed(sb, base + ii->src[i]))
                return 1;
        for (uint32_t i = 0; i < ii->n_dst; i++)
            if (pipe_sb_listed(sb, base + ii->dst[i]))
                return 1;
        return 0;
    }
    if (ii->reg_end && base + ii->reg_end <= sb->cap) {
        /* every register of ii within the counters: no bounds test per register */
        const uint16_t *c = sb->c + base;
        for (uint32_t i = 0; i < ii->n_src; i++)
            if (c[ii->src[i]])
                return 1;
        for (uint32_t i = 0; i < ii->n_dst; i++)
            if (c[ii->dst[i]])
                return 1;
        return 0;
    }
    for (uint32_t i = 0; i < ii->n_src; i++)
        if (base + ii->src[i] < sb->cap && sb->c[base + ii->src[i]])
            return 1;
    for (uint32_t i = 0; i < ii->n_dst; i++)
        if (base + ii->dst[i] < sb->cap && sb->c[base + ii->dst[i]])
            return 1;
    return 0;
}
/* The writes to regs[0..n) are done (a register not pending is left alone). */
static inline void pipe_sb_release(pipe_sb *sb, const uint32_t *regs, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (sb->k != PIPE_SB_SPILLED) {
            for (uint32_t j = 0; j < sb->k; j++)
                if (sb->r[j] == regs[i]) {
                    sb->r[j] = sb->r[--sb->k];
                    break;
                }
        } else if (regs[i] < sb->cap && sb->c[regs[i]]) {
            sb->c[regs[i]]--;
            if (--sb->n == 0)
                sb->k = 0;   /* (every counter is 0 again) */
        }
    }
}
void pipe_sb_clear(pipe_sb *sb);           /* nothing pending (a new warp)       */
void pipe_sb_fini(pipe_sb *sb);

/* The pool register of register 0 of the warp's current frame. */
static inline uint32_t pipe_reg_base(const func_warp *fw, uint32_t ws)
{
    return (uint32_t)(fw->fr[fw->nfr - 1].reg_off / ws);
}

/* ---- the warp record both models keep --------------------------------------------- */
/* A warp slot's instruction buffer, the cached verdict of its own readiness (what only
 * an event of this warp can change: buffer, scoreboard, barrier), its in-flight counts
 * and scoreboard. A model's warp record starts with one (the issue stage reads it every
 * cycle: first in the record's cache line). */
typedef struct {
    uint8_t used;           /* slot holds a warp                                  */
    uint8_t dirty;          /* an event since `cached` was decided                */
    uint8_t cached;         /* own verdict (WR_*; WR_DONE: not cached)            */
    uint8_t ibuf;           /* decoded instructions available                     */
    uint8_t fetching;       /* instruction fetch outstanding                      */
    uint8_t done;           /* sm.c's: its func_warp is WARP_DONE (set by the issue
                               or barrier release that saw it so: a completion then
                               need not read the func_warp's line)                */
    uint8_t sb_recheck;     /* sm.c's: the cached verdict WR_SCOREBOARD was decided
                               with frame base 0, no alternative path and no
                               path_skip_stalled, and only completions touched the
                               warp since: its re-examination is the scoreboard's
                               test of cached_info alone (sm.c readiness)         */
    uint32_t ibuf_path;     /* the path (func_path.id) the buffer was fetched for */
    uint32_t ibuf_pc;       /* pc of the first buffered instruction               */
    int32_t ibuf_func;
    uint32_t inflight;      /* issued instructions not complete                   */
    uint32_t mem_inflight;  /* of which memory instructions                       */
    uint32_t alt_path;      /* sm.c's: the runnable path followed instead of the
                               selected one, or NO_ALT (here: it fills a hole of
                               the first cache line, which readiness reads)       */
    const insn_info *cached_info; /* its next instruction (verdicts READY, SCOREBOARD) */
    uint64_t ibuf_ready;    /* cycle the buffer contents become usable            */
    pipe_sb sb;             /* its list ends at byte 64: the whole first line is
                               hot; the counters are in the second               */
    uint64_t age;           /* cycle the warp was placed (read when a candidate
                               is made; sm.c keeps a contiguous copy)             */
} pipe_warp;
_Static_assert(offsetof(pipe_warp, sb) + offsetof(pipe_sb, c) == 64,
               "pipe_warp: the hot fields and the scoreboard's list fill its first 64 bytes");

/* A new warp in the slot at `cycle`. */
static inline void pipe_warp_start(pipe_warp *w, uint64_t cycle)
{
    w->used = 1;
    w->fetching = w->ibuf = w->done = w->sb_recheck = 0;
    w->age = cycle;
    w->inflight = w->mem_inflight = 0;
    pipe_sb_clear(&w->sb);
}

/* The own verdict while it stands: WR_SCOREBOARD, WR_BARRIER, WR_IBUF_EMPTY, or
 * WR_READY (own part clear: the units decide); *info gets the next instruction for
 * READY and SCOREBOARD. WR__COUNT: examine it again (an event since, a verdict not
 * cached, or a buffer usable now). */
static inline uint8_t pipe_warp_cached(const pipe_warp *w, uint64_t cycle, const insn_info **info)
{
    if (w->dirty)
        return WR__COUNT;
    switch (w->cached) {
    case WR_SCOREBOARD:
    case WR_READY:
        *info = w->cached_info;
        return w->cached;
    case WR_BARRIER:
        return WR_BARRIER;
    case WR_IBUF_EMPTY:
        return w->ibuf == 0 || w->ibuf_ready > cycle ? WR_IBUF_EMPTY : WR__COUNT;
    default:
        return WR__COUNT;
    }
}

/* The first steps of examining the warp again (dirty cleared): WR_BARRIER and
 * WR_IBUF_EMPTY (cached), WR_DONE (no instruction left), or WR_READY: it has a usable
 * buffer and, being ready, a selected path; the model goes on from there. */
static inline uint8_t pipe_warp_examine(pipe_warp *w, const func_warp *fw, uint64_t cycle)
{
    w->dirty = 0;
    w->cached = WR_DONE;
    if (fw->state == WARP_BARRIER)
        return w->cached = WR_BARRIER;
    if (fw->state != WARP_READY)
        return WR_DONE;
    if (w->ibuf == 0 || w->ibuf_ready > cycle)
        return w->cached = WR_IBUF_EMPTY;
    return WR_READY;
}

/* An instruction of the warp completed, writing regs[0..n) (is_mem: a memory
 * instruction): 1 when nothing of the warp is left in flight. */
static inline int pipe_warp_complete(pipe_warp *w, const uint32_t *regs, uint32_t n, int is_mem)
{
    pipe_sb_release(&w->sb, regs, n);
    if (is_mem)
        w->mem_inflight--;
    return --w->inflight == 0;
}

/* Whether the warp finished and drained: it may leave its slot. */
static inline int pipe_warp_gone(const pipe_warp *w, const func_warp *fw)
{
    return w->used && fw->state == WARP_DONE && w->inflight == 0;
}

/* After an issue from the buffer at (fn, pc) of path `path` left instructions in it:
 * they stay when the warp goes on with pc + 1 of that path (np, NULL: none) in the same
 * function (fn_next), else the buffer is dropped. */
static inline void pipe_warp_continue(pipe_warp *w, const func_path *np, uint32_t path, uint32_t pc,
                                      int32_t fn, int32_t fn_next)
{
    if (!np || np->id != path || np->pc != pc + 1 || fn_next != fn)
        w->ibuf = 0;
    else
        w->ibuf_pc = np->pc;
}

/* The fetch of the buffer at (fn, pc) of path `path` was sent. */
static inline void pipe_warp_fetching(pipe_warp *w, int32_t fn, uint32_t pc, uint32_t path)
{
    w->fetching = 1;
    w->ibuf_pc = pc;
    w->ibuf_func = fn;
    w->ibuf_path = path;
}

/* ---- summary of cached verdicts (event-driven readiness) --------------------------- */
/* Which warps of a core hold a cached own verdict that stands until an event of theirs
 * (pipe_warp_cached), grouped by the model's key (e.g. own part clear by the unit its
 * next instruction needs, empty buffer, scoreboard, barrier), and which must be examined
 * again (`redo`: an event since, or a verdict that is not cached). Each is a slot set
 * over the core's warp slots (slotset.h); a model masks them with the slots of one
 * scheduler, so an issue stage looks at the touched warps and a few words per key
 * instead of every warp. Invariant: a used slot is in exactly one of redo and
 * set(key[slot]) (key[slot] == PIPE_KEY_NONE when in redo); a slot that left is in none. */
#define PIPE_KEY_NONE 0xffu
typedef struct {
    uint32_t nw;            /* 64-bit words per set: (n_slots + 63) / 64          */
    uint32_t nkeys;
    uint64_t *bits;         /* set k (0 .. nkeys-1) at bits + k * nw; redo at nkeys */
    uint8_t *key;           /* per slot: the set that counts it, or PIPE_KEY_NONE  */
    /* 0: redo is empty (it was seen empty, and nothing touched since), so a model can
     * know it without reading the words (pipe_vsum_redo_empty) */
    uint8_t touched;
} pipe_vsum;

/* A summary over n_slots slots with nkeys keys (<= 255), every slot in none; -1 when
 * out of memory. */
int pipe_vsum_init(pipe_vsum *v, uint32_t n_slots, uint32_t nkeys);
void pipe_vsum_fini(pipe_vsum *v);
static inline uint64_t *pipe_vsum_set(const pipe_vsum *v, uint32_t key) { return v->bits + (size_t)key * v->nw; }
static inline uint64_t *pipe_vsum_redo(const pipe_vsum *v) { return v->bits + (size_t)v->nkeys * v->nw; }
/* An event of the warp in `slot`: out of its key's set, to be examined again. */
static inline void pipe_vsum_touch(pipe_vsum *v, uint32_t slot)
{
    uint64_t b = 1ull << (slot % 64);
    if (v->key[slot] != PIPE_KEY_NONE) {
        v->bits[(size_t)v->key[slot] * v->nw + slot / 64] &= ~b;
        v->key[slot] = PIPE_KEY_NONE;
    }
    v->bits[(size_t)v->nkeys * v->nw + slot / 64] |= b;
    v->touched = 1;
}
/* Whether redo is empty; read only while a touch since its last empty answer may
 * have filled it. */
static inline int pipe_vsum_redo_empty(pipe_vsum *v)
{
    if (!v->touched)
        return 1;
    const uint64_t *redo = pipe_vsum_redo(v);
    uint64_t any = 0;
    for (uint32_t k = 0; k < v->nw; k++)
        any |= redo[k];
    v->touched = any != 0;
    return !any;
}
/* The warp's verdict is cached and stands until its next event: counted under key. */
static inline void pipe_vsum_count(pipe_vsum *v, uint32_t slot, uint32_t key)
{
    uint64_t b = 1ull << (slot % 64);
    v->bits[(size_t)v->nkeys * v->nw + slot / 64] &= ~b;
    v->bits[(size_t)key * v->nw + slot / 64] |= b;
    v->key[slot] = (uint8_t)key;
}
/* pipe_vsum_count of a warp that may still be counted under an older key (or be in
 * redo): out of that set and of redo, into key's. */
static inline void pipe_vsum_recount(pipe_vsum *v, uint32_t slot, uint32_t key)
{
    uint64_t b = 1ull << (slot % 64);
    if (v->key[slot] != PIPE_KEY_NONE)
        v->bits[(size_t)v->key[slot] * v->nw + slot / 64] &= ~b;
    v->bits[(size_t)v->nkeys * v->nw + slot / 64] &= ~b;
    v->bits[(size_t)key * v->nw + slot / 64] |= b;
    v->key[slot] = (uint8_t)key;
}
/* The warp left its slot: in no set. */
static inline void pipe_vsum_drop(pipe_vsum *v, uint32_t slot)
{
    uint64_t b = 1ull << (slot % 64);
    if (v->key[slot] != PIPE_KEY_NONE)
        v->bits[(size_t)v->key[slot] * v->nw + slot / 64] &= ~b;
    v->key[slot] = PIPE_KEY_NONE;
    v->bits[(size_t)v->nkeys * v->nw + slot / 64] &= ~b;
}
/* Whether the verdict readiness() just left in w can be counted (it stands until an
 * event of the warp): decided, not "no instruction" (a finished warp, or a fence that
 * waits on memory: re-examined every turn), and not a buffer that becomes usable later
 * by time alone (a path switch cost). */
static inline int pipe_warp_countable(const pipe_warp *w, uint64_t cycle)
{
    return !w->dirty && w->cached != WR_DONE && !(w->cached == WR_IBUF_EMPTY && w->ibuf && w->ibuf_ready > cycle);
}

/* ---- timing wheel ------------------------------------------------------------------ */
typedef struct {
    uint64_t due;
    uint32_t slot;      /* warp slot                                              */
    uint32_t next;
    uint8_t n;          /* registers written                                      */
    uint8_t kind;       /* the model's own tag (e.g. 0 ALU, 1 shared, 2 global)  */
    uint32_t regs[4];
} pipe_event;

typedef struct {
    uint32_t *head;     /* per bucket: first event, UINT32_MAX: none              */
    uint32_t mask;      /* buckets - 1                                            */
    /* bit b: bucket b holds an event (head[b] != UINT32_MAX): a pop tests its bucket's
     * bit, and the scans for the next due cycle skip empty buckets a word at a time
     * (512 buckets: one host line) instead of reading head[] (32 lines, mostly out of
     * the host's cache by the SM's next cycle). */
    uint64_t *occ;
    /* No event that pipe_wheel_pop can still return is due before next_due, and one
     * is due at it unless an event was taken since (at a cycle >= next_due): the
     * earliest due after the last cycle whose pop came back empty (pipe_wheel_rescan),
     * lowered by every add. A pop before it reads nothing else of the wheel, and
     * pipe_wheel_next answers from it. */
    uint64_t next_due;
    pipe_event *ev;
    uint32_t cap, free, n;
} pipe_wheel;

/* A wheel for events at most `ahead` cycles after the cycle they are scheduled in;
 * -1 when out of memory. */
int pipe_wheel_init(pipe_wheel *w, uint32_t ahead);
void pipe_wheel_fini(pipe_wheel *w);
/* Schedules an event (regs[0..n), n <= 4); -1 when out of memory. */
int pipe_wheel_add(pipe_wheel *w, uint64_t due, uint32_t slot, const uint32_t *regs, uint32_t n,
                   uint8_t kind);
/* The event pool's free list is empty: doubles the pool; -1 when out of memory. */
int pipe_wheel_grow(pipe_wheel *w);
/* pipe_sb_pend then pipe_wheel_add of the registers it marked, in one step (inline: the
 * issue of every fixed-latency instruction): ii's destinations at frame base `base`
 * pending in sb, their writeback due at `due` for warp `slot` (tag kind); -1 when out
 * of memory. */
static inline int pipe_sb_pend_wheel(pipe_sb *sb, pipe_wheel *w, uint32_t base, const insn_info *ii,
                                     uint64_t due, uint32_t slot, uint8_t kind)
{
    if (w->free == UINT32_MAX && pipe_wheel_grow(w))
        return -1;
    const uint32_t e = w->free;
    pipe_event *ev = &w->ev[e];
    const uint32_t n = ii->n_dst;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t r = base + ii->dst[i];
        if (pipe_sb_inc(sb, r))
            return -1;
        ev->regs[i] = r;
    }
    w->free = ev->next;
    ev->due = due;
    ev->slot = slot;
    ev->n = (uint8_t)n;
    ev->kind = kind;
    const uint32_t b = (uint32_t)(due & w->mask);
    ev->next = w->head[b];
    w->head[b] = e;
    w->occ[b / 64] |= 1ull << (b % 64);
    if (due < w->next_due)
        w->next_due = due;
    w->n++;
    return 0;
}

/* No event is left due at `cycle` (its pop came back empty): next_due becomes the
 * earliest due after it (UINT64_MAX: none). */
void pipe_wheel_rescan(pipe_wheel *w, uint64_t cycle);

/* Takes one event due at `cycle` into *out: 1, or 0 when none is left. Cycles never
 * decrease from one call to the next. */
static inline int pipe_wheel_pop(pipe_wheel *w, uint64_t cycle, pipe_event *out)
{
    if (cycle < w->next_due)
        return 0;
    const uint32_t b = (uint32_t)(cycle & w->mask);
    if (!(w->occ[b / 64] >> (b % 64) & 1)) {
        pipe_wheel_rescan(w, cycle);
        return 0;
    }
    uint32_t *pp = &w->head[b];
    while (*pp != UINT32_MAX) {
        pipe_event *e = &w->ev[*pp];
        if (e->due != cycle) {
            pp = &e->next;
            continue;
        }
        uint32_t idx = *pp;
        *pp = e->next;
        *out = *e;
        e->next = w->free;
        w->free = idx;
        w->n--;
        if (w->head[b] == UINT32_MAX)
            w->occ[b / 64] &= ~(1ull << (b % 64));
        return 1;
    }
    pipe_wheel_rescan(w, cycle);
    return 0;
}
/* The earliest cycle in (cycle, bound) with an event due, else bound. */
uint64_t pipe_wheel_next(const pipe_wheel *w, uint64_t cycle, uint64_t bound);

/* ---- memory instructions in flight ------------------------------------------------ */
typedef struct {
    uint32_t slot;          /* warp slot                                          */
    uint32_t outstanding;   /* requests not yet done                              */
    uint32_t unsent;        /* requests still in the LD/ST queue (Fermi: core.mem_inst_queue) */
    uint32_t next_free;
    uint8_t n;              /* destination registers                              */
    uint8_t kind;           /* the model's own tag                                */
    uint32_t regs[4];
    uint64_t t_issue;
} pipe_minst;

typedef struct {
    pipe_minst *a;
    uint32_t cap, free, used;
} pipe_minsts;

void pipe_minsts_init(pipe_minsts *p);
void pipe_minsts_fini(pipe_minsts *p);
uint32_t pipe_minst_new(pipe_minsts *p);   /* index; UINT32_MAX when out of memory */
void pipe_minst_free(pipe_minsts *p, uint32_t i);

/* ---- memory requests ---------------------------------------------------------------- */
/* Requests are allocated in slabs of PIPE_RQ_SLAB, each request at the start of its own
 * 64-byte line: a request (56 bytes) is one host cache line wherever it is read (the
 * LD/ST queue's head every cycle, the caches, the interconnect), not two as a request of
 * its own malloc mostly is. */
#define PIPE_RQ_SLAB 64u
typedef struct {
    /* the free requests, a stack free[0 .. nfree) (room for every request allocated):
     * taking one reads this array, not the request's own line (a free list would read
     * its next pointer: a request freed long ago, out of the host's caches) */
    mem_req **free;
    uint32_t nfree;
    void **slab;            /* every slab allocated                               */
    uint32_t n, cap;        /* slabs; room in slab[]                              */
} pipe_rq;

mem_req *pipe_req_new(pipe_rq *q);         /* zeroed; NULL when out of memory    */
static inline void pipe_req_free(pipe_rq *q, mem_req *r) { q->free[q->nfree++] = r; }
/* Frees every request allocated, pooled or still in flight (the owner's queues must
 * have forgotten theirs: ldq_forget). */
void pipe_rq_fini(pipe_rq *q);

/* ---- writeback ---------------------------------------------------------------------------- */
/* What a model does with the completions the writeback stage collects. */
typedef struct {
    /* a wheel event of warp `slot` is due: its n registers regs are written */
    void (*done)(void *ctx, uint32_t slot, const uint32_t *regs, uint32_t n, int kind, uint64_t cycle);
    /* an instruction fetch of warp `slot` returned n instructions */
    void (*fetched)(void *ctx, uint32_t slot, uint32_t n, uint64_t cycle);
    /* the last request of memory instruction i is done */
    void (*minst_done)(void *ctx, uint32_t i, uint64_t cycle);
} pipe_wb_ops;

/* Core id's word of memsys.h pop_t, found once (the writeback stage then tests it
 * without reading the memory system's header): t NULL when the model has none. */
typedef struct {
    const uint64_t *t;
    uint64_t off;
} pipe_pop_gate;
static inline pipe_pop_gate pipe_pop_gate_of(const memsys *m, uint32_t id)
{
    return (pipe_pop_gate){memsys_pop_word(m, id), m->pop_off};
}

/* The writeback stage of core `id`: the wheel's events due at `cycle` (in its order),
 * then the requests the memory system returns (each freed into rq; none while pg's
 * word says nothing is due, memsys_pop_done's own first test). 1 when anything
 * completed. (Inline: a model's constant ops are then called directly.) */
static inline int pipe_writeback(pipe_wheel *wh, pipe_minsts *mi, pipe_rq *rq, memsys *mem, uint32_t id,
                                 const pipe_pop_gate *pg, uint64_t cycle, const pipe_wb_ops *ops,
                                 void *ctx)
{
    int progress = 0;
    pipe_event e;
    while (pipe_wheel_pop(wh, cycle, &e)) {
        ops->done(ctx, e.slot, e.regs, e.n, e.kind, cycle);
        progress = 1;
    }
    if (pg->t && *pg->t > cycle + pg->off)
        return progress;
    mem_req *r;
    while ((r = memsys_pop_done(mem, id, cycle)) != NULL) {
        progress = 1;
        if (r->kind == MR_IFETCH)
            ops->fetched(ctx, r->warp, r->tag, cycle);
        else if (--mi->a[r->tag].outstanding == 0)
            ops->minst_done(ctx, r->tag, cycle);
        pipe_req_free(rq, r);
    }
    return progress;
}

/* ---- statistics both models count alike ------------------------------------------- */
typedef struct {
    uint64_t issued, thread_insts;
    uint64_t slot[WR__COUNT];        /* issue slots by outcome (sched.h WR_*)     */
    uint64_t idle_slots, stall_cycles;
    uint64_t warps_in_flight_sum, resident_warps_sum, active_cycles;
    uint64_t mem_insts, mem_reqs, mem_bytes_used;
    uint64_t resfail[3], ldst_stall_cycles, queue_occupancy_sum, queued_cycles, queued_reqs,
        reod_full_cycles;
    uint64_t mem_lat_sum, mem_lat_max, mem_lat_n, mem_lat_hist[16];
    uint64_t ifetch_misses, ctas_done;
} pipe_stats;

/* A memory instruction's latency (issue to its last access). */
void pipe_lat_record(pipe_stats *st, uint64_t lat);
/* Adds a request path's counters since *prev to st and to d[6] (this cycle's
 * increments: stall, resfail x3, occupancy, full; for idle skipping); *prev = now. */
static inline void pipe_ldq_add(pipe_stats *st, const ldq_stats *now, ldq_stats *prev, uint64_t d[6])
{
    uint64_t x[6] = {now->stall_cycles - prev->stall_cycles, now->resfail[0] - prev->resfail[0],
                     now->resfail[1] - prev->resfail[1], now->resfail[2] - prev->resfail[2],
                     now->occupancy_sum - prev->occupancy_sum, now->full_cycles - prev->full_cycles};
    st->ldst_stall_cycles += x[0];
    for (int i = 0; i < 3; i++)
        st->resfail[i] += x[1 + i];
    st->queue_occupancy_sum += x[4];
    st->reod_full_cycles += x[5];
    st->queued_cycles += now->queued_cycles - prev->queued_cycles;
    st->queued_reqs += now->sent - prev->sent;
    for (int i = 0; i < 6; i++)
        d[i] += x[i];
    *prev = *now;
}
/* Adds n more cycles of the increments d[6] (pipe_ldq_add's) to st: idle skipping. */
void pipe_ldq_repeat(pipe_stats *st, const uint64_t d[6], uint64_t n);
/* Adds the shared counters to the launch statistics. */
void pipe_stats_add(const pipe_stats *st, ws_timing_stats *t);

/* ---- addresses, coalescing, banks ------------------------------------------------- */
typedef struct {
    uint64_t local_base;    /* where this core's local memory lives               */
    uint64_t param_base;    /* where the kernel parameters live                   */
    uint32_t local_threads; /* threads interleaved in the local region           */
    uint32_t ws;            /* warp size                                          */
} pipe_space;

/* Core `id` with n_slots warp slots of ws threads. */
void pipe_space_init(pipe_space *sp, uint32_t id, uint32_t n_slots, uint32_t ws);

/* Coalesces the accesses of lanes [lo, hi) in tr into `line`-byte requests: seg[k]
 * the line number, used[k] the bytes asked for in it; returns the count (<= 64).
 * Parameters sit in a constant bank at param_base; local memory is word-interleaved
 * across threads (the same offset of consecutive lanes is contiguous). A compact trace
 * (exec_trace.rep) of lanes in [lo, hi) outside local memory is one segment at once;
 * any other is written out first (exec_trace_flat). */
uint32_t pipe_coalesce(const pipe_space *sp, exec_trace *tr, uint32_t slot, uint32_t lo,
                       uint32_t hi, uint32_t line, uint64_t seg[64], uint32_t used[64]);

/* pipe_coalesce of every group of `grp` lanes (lanes [g * grp, (g + 1) * grp)) in one
 * pass: the segments of group g are seg[first[g] .. first[g + 1]) in the order
 * pipe_coalesce finds them; first[] has room for ws / grp + 1 entries (<= 65). Returns
 * the total. */
uint32_t pipe_coalesce_groups(const pipe_space *sp, const exec_trace *tr, uint32_t slot, uint32_t grp,
                              uint32_t line, uint64_t seg[64], uint32_t used[64], uint32_t first[65]);

/* Sends one request per segment (seg[k] * line, `line` bytes, used[k] bytes asked
 * for) into the request path q, each a copy of *proto otherwise; counts them in st
 * (mem_reqs, mem_bytes_used) unless st is NULL. -1 when out of memory. */
int pipe_mem_push(pipe_rq *rq, ldq *q, const uint64_t *seg, const uint32_t *used, uint32_t nseg,
                  uint32_t line, const mem_req *proto, uint64_t cycle, pipe_stats *st);

/* The request kind and space of a memory instruction's requests. */
uint8_t pipe_req_kind(const ptx_insn *in);
uint8_t pipe_req_space(uint8_t first_access_space);

/* Shared memory / LDS cycles: per group of `group` lanes, the most distinct 4-byte
 * words one of `banks` (<= 256) banks must serve (the same word is a broadcast;
 * atomics also serialise equal addresses), summed over the groups with accesses;
 * at least 1. */
uint32_t pipe_bank_cycles(const exec_trace *tr, uint32_t ws, uint32_t group, uint32_t banks,
                          int atomic);

/* ---- CTA slots ------------------------------------------------------------------------ */
typedef struct {
    uint8_t used;
    func_cta fc;
    uint8_t *shared;        /* its shared memory (L->shared_bytes, at least 1 byte) */
    uint32_t warps_left;    /* warps not yet retired                              */
} pipe_cta;

/* The first free slot of the n, or n when all are used. */
uint32_t pipe_cta_free(const pipe_cta *c, uint32_t n);
/* Places CTA `linear` in the first free slot k of the n on core `smid` (shared memory
 * cleared) and initialises the functional state of its warps fw[k * warps ..]: the
 * slot, or -1 (none free, or out of host memory). */
int pipe_cta_take(pipe_cta *c, uint32_t n, func_warp *fw, uint32_t warps, func_launch *L,
                  uint32_t linear, uint32_t smid);
/* The retirement scan: in every used slot of the n, each warp w for which
 * leave(ctx, w, cycle) returns 1 (the model's test: finished and drained; it frees the
 * warp) leaves; a slot whose warps have all left is freed (st->ctas_done). Returns
 * the number of slots freed. */
uint32_t pipe_cta_retire(pipe_cta *c, uint32_t n, uint32_t warps,
                         int (*leave)(void *ctx, uint32_t slot, uint64_t cycle), void *ctx, uint64_t cycle,
                         pipe_stats *st);

/* ---- instruction fetch ---------------------------------------------------------------- */
/* Instructions one fetch buffers from pc of function fn: up to `entries`, stopping
 * after a control one (branch, call, barrier); at least 1. */
uint32_t pipe_fetch_len(const insn_table *it, const ptx_func *f, int32_t fn, uint32_t pc,
                        uint32_t entries);
/* Sends the fetch of n instructions at (fn, pc) for warp `slot` of core `sm` to the
 * L1I: 1 sent (a miss counted in st), 0 refused, -1 out of memory. */
int pipe_ifetch(pipe_rq *rq, memsys *mem, uint32_t sm, uint32_t slot, int32_t fn, uint32_t pc,
                uint32_t n, uint64_t cycle, pipe_stats *st);

#endif
