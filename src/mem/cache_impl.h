/* cache_impl.h - the generic cache's representation (cache.c) and its read-hit fast
 * path as inline code, for cache.c and for a caller whose every L1 access tries that
 * path first (the detailed model's det_access, mem/detailed.c): the call, its frame and
 * its argument passing would be a third of the path. Nothing else includes this file;
 * everyone else sees the opaque `cache` of cache.h. */
#ifndef WS_MEM_CACHE_IMPL_H
#define WS_MEM_CACHE_IMPL_H

#include <stdint.h>

#include "mem/cache.h"
#include "mem/repl.h"
#include "mem/setidx.h"

#define NONE UINT32_MAX
/* the tag of a line that is not CF_VALID: no address's line number (line >= 2 bytes) */
#define NO_TAG UINT64_MAX

typedef struct {
    uint32_t line;        /* the RESERVED line it serves                        */
    uint32_t n;           /* tokens waiting                                      */
    uint8_t excl;         /* CX_* intent of the access that opened it            */
    uint64_t t_alloc;     /* cycle it was opened (adaptive limit: fill latency)  */
} mshr_ent;

typedef struct {
    void *tok;
    uint32_t need;        /* sectors the token needs                             */
    uint16_t off, len;    /* write / atomic: bytes to mark dirty at the fill     */
    uint8_t op;
    uint32_t own;         /* no_coalesce: the MSHR entry the waiting request holds
                             (NONE: it is the entry's opener, or it merged)     */
} mshr_slot;

/* An access decided (cache.c plan_access): what cache_access carries out. */
typedef enum {
    P_REFUSE, P_HIT_RD, P_HIT_WB, P_HIT_WT, P_EVICT, P_SEND, P_MERGE, P_SECTOR_MISS,
    P_MISS_ALLOC, P_LAZY_ALLOC
} plan_kind;

typedef struct {
    mem_access out;
    plan_kind kind;
    int line;             /* line hit, or line to allocate                        */
    uint32_t need;        /* sectors the token waits for                          */
    uint32_t fetch;       /* sectors to fetch                                     */
    uint32_t off, len;
    uint32_t mq;          /* miss-queue records it needs                          */
    int wb;               /* the line evicted / invalidated is dirty              */
    int refetch;          /* the present line's data do not count (force, upgrade) */
    int rd_miss;          /* a read of a line not present, decided by plan_fill
                             (no mshr_blocks): the rest reads no tag                */
    uint32_t set;         /* the access's set (set_of(idx), computed once)        */
    uint64_t ln;          /* the access's line number (line_no(addr): its tag)    */
    uint32_t mq_min;      /* MQF: the refusal holds while mq_len >= mq_min (other
                             refusals do not read mq_len: 0)                       */
} plan;

struct cache {
    cache_cfg cfg;
    uint32_t nsec, full, dwords, nlines;
    uint64_t *tag;        /* line address (addr / line); NO_TAG when not CF_VALID */
    uint8_t *flags;       /* CF_VALID | CF_RESERVED; CF_RESERVED <=> mshr != NONE  */
    /* flags as two bitmaps over the lines (bit h: line h is CF_VALID, CF_RESERVED),
     * a set's ways consecutive bits: victim() and set_full() read a set in one or two
     * words; written only by set_flags(), with flags and tag */
    uint64_t *vbits, *rbits;
    uint64_t wmask;       /* the low `ways` bits                                  */
    uint8_t *pst;         /* the protocol's state byte (meaningful when CF_VALID) */
    uint8_t *dir;         /* directory bytes, dir_bytes per line (NULL: none)     */
    const coh_ops *coh;   /* the protocol (never NULL)                            */
    uint32_t dir_bytes;
    uint32_t *valid, *pend, *mshr;
    uint64_t *dirty;      /* dwords per line, bit b = byte b                     */
    void *rs;             /* the replacement policy's state                      */
    mshr_ent *ent;
    mshr_slot *slot;      /* mshr_merges per entry                               */
    uint32_t *free_ent, n_free;
    cache_miss *mq;
    uint32_t mq_head, mq_len;
    uint64_t port_x;      /* port clock in 1/ports cycles: next free slot        */
    /* A refused access is retried every cycle until something changes: the last
     * refusal is remembered with the state version, bumped by every change except those
     * the memoized refusal provably outlasts: a miss-queue pop (memo_mq_min) and a fill
     * outside its set (memo_lo) */
    uint64_t version;
    uint64_t memo_version;
    /* the memoized refusal holds while mq_len >= memo_mq_min: an MQF's threshold, 0 for
     * CSF and MSHRF (they do not read mq_len; a pop changes nothing else) */
    uint32_t memo_mq_min;
    /* the first line of the memoized access's set: a fill of a line elsewhere changes
     * nothing a CSF or MQF refusal reads (cache_fill_grant) */
    uint32_t memo_lo;
    uint64_t memo_seq;    /* refusals memoized so far: names the memo (cache_refusal_stamp) */
    cache_acc memo_acc;
    mem_access memo_out;
    /* An MQF refusal's plan: it stands while nothing but miss-queue pops changed the
     * cache (version - n_pop == memo_pv; n_pop: the version bumps of pops), so the
     * retry the pops allow (the memo fell: room now) needs no new plan. memo_pv is
     * UINT64_MAX for other refusals. A read miss's refusal (CSF, MSHRF: rd_miss) keeps
     * its plan as far as plan_fill: that part reads the tags of its set, which neither
     * pops nor fills change (version - n_pop - n_fill == memo_tv; n_fill: the version
     * bumps of fills), so its retry after a fill resumes there. */
    plan memo_plan;
    uint64_t memo_pv, memo_tv, n_pop, n_fill;
    int line_shift;       /* log2(line), or -1: the set index runs on every retry */
    int sec_shift;        /* log2(sector), or -1 (no division on every access)     */
    uint32_t set_mask;    /* sets - 1 when a power of two, else 0                 */
    /* non-linear set-index function, NULL for linear (computed inline) */
    uint32_t (*set_fn)(uint64_t idx, uint64_t line_no, uint32_t sets);
    /* cache_read_hit may decide (the protocol has no upgrade hook and does not block on
     * a full MSHR ...: fast_ok) and is not switched off (cache_set_fast); 2: without
     * calls */
    uint8_t fast, fast_ok;
    uint8_t set_fermi;    /* set_fn is fermi-hash's (setidx.h SX_FERMI): inline       */
    cache_stats st;
    /* Adaptive MSHR limit (cfg.mshr_adaptive): a hill climb on the fill throughput of
     * windows of AD_WINDOW releases, measured by Little's law as mean occupancy / mean
     * fill latency; invariant 2 <= limit <= mshr_entries (1 when there is one entry). */
    uint32_t limit;       /* usable entries (== mshr_entries when fixed)          */
    int32_t ad_dir;       /* +1 growing, -1 shrinking                              */
    uint32_t ad_n;        /* releases in the window                                */
    uint64_t ad_lat, ad_t0, ad_occ0;
    double ad_prev;       /* the previous window's throughput (0: none yet)        */
};

#define AD_WINDOW 32

static inline void span_of(const cache *c, uint64_t addr, uint32_t size, uint32_t *off,
                           uint32_t *len)
{
    uint32_t o = (uint32_t)(c->line_shift >= 0 ? addr & (c->cfg.line - 1) : addr % c->cfg.line);
    uint32_t l = size ? size : 1;
    if (l > c->cfg.line - o)
        l = c->cfg.line - o;
    *off = o;
    *len = l;
}

/* Sectors the bytes touch, and those they cover entirely. */
static inline uint32_t touched(const cache *c, uint32_t off, uint32_t len)
{
    uint32_t f, l;
    if (c->sec_shift >= 0) {
        f = off >> c->sec_shift;
        l = (off + len - 1) >> c->sec_shift;
    } else {
        f = off / c->cfg.sector;
        l = (off + len - 1) / c->cfg.sector;
    }
    uint32_t m = (l - f + 1 >= 32) ? UINT32_MAX : ((1u << (l - f + 1)) - 1);
    return (m << f) & c->full;
}

/* What every accepted access does first (cache_access, cache_read_hit): the state
 * changes (version), its port slot, the access counters. Returns the cycle its data (or
 * its miss record) is ready. */
static inline uint64_t accept(cache *c, uint8_t op, uint64_t now)
{
    c->version++;
    /* the port clock counts in 1/ports cycles */
    uint64_t eff;
    if (c->cfg.ports == 1) {
        eff = c->port_x > now ? c->port_x : now;
        c->port_x = eff + 1;
    } else {
        uint64_t now_x = now * c->cfg.ports;
        uint64_t ex = c->port_x > now_x ? c->port_x : now_x;
        c->port_x = ex + 1;
        eff = ex / c->cfg.ports;
    }
    c->st.port_delay += eff - now;
    c->st.accesses++;
    c->st.reads += op == CQ_READ;
    c->st.writes += op == CQ_WRITE;
    c->st.atomics += op == CQ_ATOMIC;
    return eff + c->cfg.latency;
}

/* The replacement policy's touch (hit) of line h, inline where repl.h says what it is. */
static inline void touch(cache *c, uint32_t h)
{
    if (c->cfg.repl->touch_kind == RT_STAMP) {
        repl_stamps *s = c->rs;
        s->stamp[h] = ++s->clock;
    } else if (c->cfg.repl->touch_kind != RT_NONE) {
        c->cfg.repl->touch(c->rs, h);
    }
}

/* cache_read_hit; leaf: the set index and the touch are inline (no calls, so no frame) */
static inline __attribute__((always_inline)) uint64_t read_hit(cache *c, uint64_t addr,
                                                               uint32_t size, uint64_t now,
                                                               int leaf)
{
    /* plan_access's P_HIT_RD: no bypass, force or upgrade (the caller's and fast's
     * conditions), the line present with every sector the bytes touch valid */
    const uint64_t ln = addr >> c->line_shift;   /* (fast: line a power of two ...) */
    const uint32_t set = !c->set_fn ? (uint32_t)(ln & c->set_mask)   /* (... and sets) */
                         : leaf || c->set_fermi ? setidx_fermi_hash(addr, ln, c->cfg.sets)
                                                : c->set_fn(addr, ln, c->cfg.sets);
    const uint32_t ways = c->cfg.ways;
    const uint64_t *tg = c->tag + (size_t)set * ways;
    uint32_t w = 0;
    while (tg[w] != ln)
        if (++w == ways)
            return UINT64_MAX;
    const uint32_t h = set * ways + w;
    uint32_t need = c->full;   /* unsectored: the one sector */
    if (c->nsec > 1) {
        uint32_t off, len;
        span_of(c, addr, size, &off, &len);
        need = touched(c, off, len);
    }
    if ((c->valid[h] & need) != need)
        return UINT64_MAX;
    /* cache_access's P_HIT_RD of a read, outcome MA_HIT */
    const uint64_t t = accept(c, CQ_READ, now);
    if (!leaf) {
        touch(c, h);
    } else if (c->cfg.repl->touch_kind == RT_STAMP) {
        repl_stamps *rs = c->rs;
        rs->stamp[h] = ++rs->clock;
    }
    c->st.hits++;
    return t;
}

/* cache_refuse_again (cache.h), inline, in two steps: whether the memo named `stamp`
 * stands, and counting the refusal when it does */
static inline int cache_memo_stands(const cache *c, uint64_t stamp)
{
    return stamp && stamp == c->memo_seq && c->memo_version == c->version;
}

static inline mem_access cache_refuse_again_inline(cache *c)
{
    c->st.resfail[c->memo_out - MA_CSF]++;
    return c->memo_out;
}

/* cache_mq_head (cache.h), inline: the memory system asks every cycle of every bank and
 * injecting SM */
static inline const cache_miss *cache_mq_head_inline(const cache *c)
{
    return c->mq_len ? &c->mq[c->mq_head] : NULL;
}

uint64_t cache_read_hit_calls(cache *c, uint64_t addr, uint32_t size, uint64_t now);

/* cache_read_hit (cache.h), inline */
static inline uint64_t cache_read_hit_inline(cache *c, uint64_t addr, uint32_t size, uint64_t now)
{
    if (c->fast == 2)
        return read_hit(c, addr, size, now, 1);
    return c->fast ? cache_read_hit_calls(c, addr, size, now) : UINT64_MAX;
}

#endif
