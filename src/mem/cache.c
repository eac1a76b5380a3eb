/* cache.c - the generic cache (cache.h): tags, sectors, per-byte dirty masks, MSHRs
 * and the miss queue. Every access is decided by plan() without side effects and then
 * carried out by cache_access(), so probing and accessing can never disagree. */
#include "mem/cache.h"
#include "mem/cache_impl.h"
#include "util/bits.h"

#include <stdlib.h>
#include <string.h>


const char *const cache_mtype_name[CM__COUNT] = {"fetch", "read", "write", "atomic", "writeback"};

static const char *const wpol_names[] = {"back", "through", "evict"};
static const char *const apol_names[] = {"none", "fetch", "lazy"};

int cache_wpol_find(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(name, wpol_names[i]))
            return i;
    return -1;
}

int cache_apol_find(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(name, apol_names[i]))
            return i;
    return -1;
}


/* ---- creation ------------------------------------------------------------------------ */
static void seterr(char *err, size_t n, const char *msg)
{
    if (err && n)
        snprintf(err, n, "%s", msg);
}

cache *cache_create(const cache_cfg *cfg, char *err, size_t n)
{
    const cache_cfg *k = cfg;
    if (!k->sets || !k->ways || k->ways > 64 || !k->line || k->line > 4096 || !k->sector ||
        k->line % k->sector || k->line / k->sector > 32) {
        seterr(err, n, "bad cache geometry (sets >= 1, 1..64 ways, line <= 4096 bytes, "
                       "line a multiple of sector, at most 32 sectors per line)");
        return NULL;
    }
    if (!k->repl || !k->ports || !k->mshr_entries || !k->mshr_merges || k->miss_queue < 2 ||
        k->mshr_merges > 65535) {
        seterr(err, n, "bad cache parameters (a replacement policy, ports >= 1, MSHR entries "
                       ">= 1, 1..65535 merges, miss queue >= 2: a miss and its write-back)");
        return NULL;
    }
    if (k->set_index && k->set_index->check && k->set_index->check(k->sets, k->line, err, n))
        return NULL;
    cache *c = calloc(1, sizeof *c);
    if (!c) {
        seterr(err, n, "out of memory");
        return NULL;
    }
    c->cfg = *k;
    c->coh = k->coh ? k->coh : coh_at(0);
    c->dir_bytes = k->level == COH_L2 ? c->coh->dir_bytes : 0;
    c->memo_version = c->memo_pv = c->memo_tv = UINT64_MAX;
    c->line_shift = (k->line & (k->line - 1)) ? -1 : __builtin_ctz(k->line);
    c->sec_shift = (k->sector & (k->sector - 1)) ? -1 : __builtin_ctz(k->sector);
    c->set_mask = (k->sets & (k->sets - 1)) ? 0 : k->sets - 1;
    if (k->set_index && !k->set_index->linear) {
        c->set_fn = k->set_index->set;
        c->set_fermi = k->set_index->inline_kind == SX_FERMI;
    }
    /* the fast paths' conditions: no permission misses, no MSHR that blocks hits, the
     * line number a shift and the set a mask unless a set-index function computes it */
    c->fast_ok = !c->coh->upgrade && !c->coh->mshr_blocks && c->line_shift >= 0 &&
                 (c->set_fn || c->set_mask || k->sets == 1);
    /* 2: cache_read_hit calls nothing (the set index and the policy's touch inline) */
    if (c->fast_ok && (!c->set_fn || c->set_fermi) && k->repl->touch_kind != RT_CALL)
        c->fast_ok = 2;
    c->fast = c->fast_ok;
    c->nsec = k->line / k->sector;
    c->full = c->nsec == 32 ? UINT32_MAX : (1u << c->nsec) - 1;
    c->dwords = (k->line + 63) / 64;
    uint64_t nl = (uint64_t)k->sets * k->ways;
    if (nl > 1u << 26) {
        free(c);
        seterr(err, n, "cache too large");
        return NULL;
    }
    c->nlines = (uint32_t)nl;
    c->tag = malloc(nl * sizeof *c->tag);
    c->flags = calloc(nl, sizeof *c->flags);
    c->vbits = calloc(nl / 64 + 2, sizeof *c->vbits);   /* + a word: a set read in two */
    c->rbits = calloc(nl / 64 + 2, sizeof *c->rbits);
    c->wmask = k->ways == 64 ? UINT64_MAX : (1ull << k->ways) - 1;
    c->pst = calloc(nl, sizeof *c->pst);
    if (c->dir_bytes)
        c->dir = calloc(nl, c->dir_bytes);
    c->valid = calloc(nl, sizeof *c->valid);
    c->pend = calloc(nl, sizeof *c->pend);
    c->mshr = malloc(nl * sizeof *c->mshr);
    c->dirty = calloc(nl * c->dwords, sizeof *c->dirty);
    c->ent = calloc(k->mshr_entries, sizeof *c->ent);
    c->slot = calloc((size_t)k->mshr_entries * k->mshr_merges, sizeof *c->slot);
    c->free_ent = malloc(k->mshr_entries * sizeof *c->free_ent);
    c->mq = calloc(k->miss_queue, sizeof *c->mq);
    if (!c->tag || !c->flags || !c->vbits || !c->rbits || !c->pst || (c->dir_bytes && !c->dir) || !c->valid || !c->pend ||
        !c->mshr || !c->dirty || !c->ent || !c->slot || !c->free_ent || !c->mq ||
        !(c->rs = k->repl->create(c->nlines, k->ways, k->seed))) {
        cache_destroy(c);
        seterr(err, n, "out of memory");
        return NULL;
    }
    for (uint32_t i = 0; i < c->nlines; i++) {
        c->mshr[i] = NONE;
        c->tag[i] = NO_TAG;
    }
    /* hand out entry 0 first: the stack pops from the end */
    for (uint32_t i = 0; i < k->mshr_entries; i++)
        c->free_ent[i] = k->mshr_entries - 1 - i;
    c->n_free = k->mshr_entries;
    c->limit = k->mshr_entries;
    c->ad_dir = -1;
    c->st.limit = c->limit;
    return c;
}

void cache_destroy(cache *c)
{
    if (!c)
        return;
    free(c->tag);
    free(c->flags);
    free(c->vbits);
    free(c->rbits);
    free(c->pst);
    free(c->dir);
    free(c->valid);
    free(c->pend);
    free(c->mshr);
    free(c->dirty);
    free(c->ent);
    free(c->slot);
    free(c->free_ent);
    free(c->mq);
    if (c->rs)
        c->cfg.repl->destroy(c->rs);
    free(c);
}

/* ---- small helpers -------------------------------------------------------------------- */
static uint64_t line_no(const cache *c, uint64_t addr)
{
    return c->line_shift >= 0 ? addr >> c->line_shift : addr / c->cfg.line;
}

/* The set of index address idx, whose line number is l. */
static inline uint32_t set_of_ln(const cache *c, uint64_t idx, uint64_t l)
{
    if (c->set_fn)
        return c->set_fermi ? setidx_fermi_hash(idx, l, c->cfg.sets)
                            : c->set_fn(idx, l, c->cfg.sets);
    return (uint32_t)(c->set_mask || c->cfg.sets == 1 ? l & c->set_mask : l % c->cfg.sets);
}

static uint32_t set_of(const cache *c, uint64_t idx) { return set_of_ln(c, idx, line_no(c, idx)); }

/* The line whose tag is t in set `set`, or -1 (a line not CF_VALID holds NO_TAG: no
 * match). */
static inline int find_tag(const cache *c, uint64_t t, uint32_t set)
{
    const uint32_t ways = c->cfg.ways;
    const uint64_t *tg = c->tag + (size_t)set * ways;
    for (uint32_t w = 0; w < ways; w++)
        if (tg[w] == t)
            return (int)(set * ways + w);
    return -1;
}

/* The line of addr in set `set`, or -1. */
static int find_in(const cache *c, uint64_t addr, uint32_t set)
{
    return find_tag(c, line_no(c, addr), set);
}

static int find(const cache *c, uint64_t addr, uint64_t idx)
{
    return find_in(c, addr, set_of(c, idx));
}

/* The only writer of flags: keeps vbits, rbits and the NO_TAG of lines not valid. */
static void set_flags(cache *c, uint32_t h, uint8_t f)
{
    c->flags[h] = f;
    uint64_t bit = 1ull << (h % 64);
    size_t w = h / 64;
    if (f & CF_VALID) {
        c->vbits[w] |= bit;
    } else {
        c->vbits[w] &= ~bit;
        c->tag[h] = NO_TAG;
    }
    if (f & CF_RESERVED)
        c->rbits[w] |= bit;
    else
        c->rbits[w] &= ~bit;
}

/* Bit w: bit base + w of b, for the `ways` ways of a set. */
static uint64_t set_bits(const cache *c, const uint64_t *b, uint32_t base)
{
    uint32_t w = base / 64, s = base % 64;
    uint64_t x = b[w] >> s;
    if (s && s + c->cfg.ways > 64)
        x |= b[w + 1] << (64 - s);
    return x & c->wmask;
}

/* Byte range of the access inside its line: [*off, *off + *len). */

static void span(const cache *c, const cache_acc *a, uint32_t *off, uint32_t *len)
{
    span_of(c, a->addr, a->size, off, len);
}

/* (touched: cache_impl.h) */
static uint32_t covered(const cache *c, uint32_t off, uint32_t len)
{
    uint32_t s = c->cfg.sector;
    uint32_t f = (off + s - 1) / s, e = (off + len) / s;   /* [f, e) */
    if (e <= f)
        return 0;
    uint32_t m = (e - f >= 32) ? UINT32_MAX : ((1u << (e - f)) - 1);
    return (m << f) & c->full;
}

static int line_dirty(const cache *c, uint32_t h)
{
    const uint64_t *d = c->dirty + (size_t)h * c->dwords;
    if (c->dwords <= 2)   /* (lines up to 128 bytes: no loop) */
        return (d[0] | d[c->dwords - 1]) != 0;
    for (uint32_t i = 0; i < c->dwords; i++)
        if (d[i])
            return 1;
    return 0;
}

static uint32_t dirty_bytes(const cache *c, uint32_t h)
{
    const uint64_t *d = c->dirty + (size_t)h * c->dwords;
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->dwords; i++)
        n += ws_pop64(d[i]);
    return n;
}

static void mark_dirty(cache *c, uint32_t h, uint32_t off, uint32_t len)
{
    uint64_t *d = c->dirty + (size_t)h * c->dwords;
    for (uint32_t b = off; b < off + len; ) {
        uint32_t w = b / 64, s = b % 64, k = 64 - s;
        if (k > off + len - b)
            k = off + len - b;
        d[w] |= (k == 64 ? UINT64_MAX : ((1ull << k) - 1)) << s;
        b += k;
    }
}

/* After event ev on the present line h: its flags, and its state per the protocol. */
static inline void set_state(cache *c, uint32_t h, coh_event ev)
{
    set_flags(c, h, (uint8_t)(CF_VALID | (c->mshr[h] != NONE ? CF_RESERVED : 0)));
    c->pst[h] = c->coh->line_state(c->cfg.level, ev, c->pst[h], line_dirty(c, h));
}

/* Does the present line h write back when it leaves? (the protocol's on_evict) */
static int evict_wb(const cache *c, uint32_t h)
{
    return c->coh->on_evict(c->cfg.level, c->pst[h], line_dirty(c, h));
}

/* Line to allocate in set `set`: the first invalid way, else the policy's choice
 * among the lines not reserved; -1 if every line is reserved. */
static inline __attribute__((always_inline)) int victim_in(const cache *c, uint32_t set)
{
    uint32_t base = set * c->cfg.ways;
    uint64_t inv = ~set_bits(c, c->vbits, base) & c->wmask;
    if (inv)
        return (int)(base + (uint32_t)__builtin_ctzll(inv));
    uint64_t cand = ~set_bits(c, c->rbits, base) & c->wmask;
    if (!cand)
        return -1;
    return (int)(base + c->cfg.repl->victim(c->rs, set, cand));
}

static int victim(const cache *c, uint64_t idx) { return victim_in(c, set_of(c, idx)); }

/* victim_in(c, set) < 0: every line of the set reserved for an outstanding miss
 * (CF_RESERVED only with CF_VALID) */
static int set_full(const cache *c, uint32_t set)
{
    return set_bits(c, c->rbits, set * c->cfg.ways) == c->wmask;
}

static void occ_update(cache *c, uint64_t now)
{
    uint32_t used = c->cfg.mshr_entries - c->n_free;
    if (now > c->st.occ_t) {
        c->st.mshr_occ_sum += (uint64_t)used * (now - c->st.occ_t);
        c->st.occ_t = now;
    }
}

/* No MSHR entry may be opened: none free, or the adaptive limit reached. */
static int mshr_full(const cache *c)
{
    return !c->n_free || c->cfg.mshr_entries - c->n_free >= c->limit;
}

/* An entry opened at t_alloc is released at `now`: the adaptive limit's window. */
static void adapt(cache *c, uint64_t t_alloc, uint64_t now)
{
    c->ad_lat += now - t_alloc;
    if (++c->ad_n < AD_WINDOW)
        return;
    uint64_t span = now > c->ad_t0 ? now - c->ad_t0 : 1;
    uint64_t occ = c->st.mshr_occ_sum - c->ad_occ0;   /* occ_update ran at `now` */
    double tput = ((double)occ / (double)span) / ((double)c->ad_lat / c->ad_n);
    if (c->ad_prev > 0 && tput < c->ad_prev * 0.98)
        c->ad_dir = -c->ad_dir;     /* worse: turn round */
    c->ad_prev = tput;
    uint32_t lo = c->cfg.mshr_entries < 2 ? c->cfg.mshr_entries : 2;
    uint32_t step = c->limit / 4 ? c->limit / 4 : 1;
    uint32_t nl = c->ad_dir > 0 ? c->limit + step : (c->limit > lo + step ? c->limit - step : lo);
    if (nl > c->cfg.mshr_entries)
        nl = c->cfg.mshr_entries;
    if (nl != c->limit) {
        if (now > c->st.limit_t)
            c->st.limit_sum += (uint64_t)c->limit * (now - c->st.limit_t);
        c->st.limit_t = now;
        c->limit = c->st.limit = nl;
        c->st.limit_changes++;
        c->version++;   /* mshr_full may answer otherwise (cache_fill_grant) */
    }
    c->ad_n = 0;
    c->ad_lat = 0;
    c->ad_t0 = now;
    c->ad_occ0 = c->st.mshr_occ_sum;
}

/* ---- deciding an access ------------------------------------------------------------------ */
/* Read-like access of sectors `need` (a read, an atomic performed here, or a
 * fetch-on-write) on the present line h or, h < 0, with allocation. */
static inline __attribute__((always_inline)) void plan_fill(const cache *c, const cache_acc *a,
                                                            int h, uint32_t need, plan *p)
{
    p->need = need;
    if (h >= 0) {
        uint32_t missing = need & ~c->valid[h] & ~c->pend[h];
        if (p->refetch) {
            /* a permission miss or a forced miss: fetch again what is not pending */
            if (c->mshr[h] != NONE && c->ent[c->mshr[h]].excl != a->excl) {
                /* a fill of another intent is on the way: wait for it (the access is
                 * retried; the fill bumps the version) */
                p->out = MA_MSHRF;
                return;
            }
            missing = need & ~c->pend[h];
            if (!missing && c->mshr[h] == NONE)
                missing = need;
        }
        /* unsectored: the line is fetched whole */
        uint32_t fetch = missing ? (c->nsec == 1 ? c->full & ~(p->refetch ? 0 : c->valid[h]) & ~c->pend[h]
                                                 : missing) : 0;
        p->line = h;
        p->fetch = fetch;
        if (c->mshr[h] != NONE) {
            if (c->ent[c->mshr[h]].n >= c->cfg.mshr_merges ||
                (c->cfg.no_coalesce && mshr_full(c))) {
                p->out = MA_MSHRF;
                return;
            }
            p->kind = P_MERGE;
            p->mq = fetch ? 1 : 0;
            p->out = fetch ? MA_MISS : MA_MERGED;
        } else {
            if (mshr_full(c)) {
                p->out = MA_MSHRF;
                return;
            }
            p->kind = P_SECTOR_MISS;
            p->mq = 1;
            p->out = MA_MISS;
        }
        return;
    }
    if (mshr_full(c)) {
        /* refused either way: CSF first, as below, without the policy's choice */
        p->out = set_full(c, p->set) ? MA_CSF : MA_MSHRF;
        return;
    }
    /* (no MQF check before the victim: its write-back decides the refusal's mq_min,
     * the pops the memo outlasts) */
    int v = victim_in(c, p->set);
    if (v < 0) {
        p->out = MA_CSF;
        return;
    }
    p->kind = P_MISS_ALLOC;
    p->line = v;
    p->fetch = c->nsec == 1 ? c->full : need;
    p->wb = (c->flags[v] & CF_VALID) && evict_wb(c, (uint32_t)v);
    p->mq = 1 + (uint32_t)p->wb;
    p->out = MA_MISS;
}

static inline __attribute__((always_inline)) void plan_access(const cache *c, const cache_acc *a,
                                                              plan *p)
{
    memset(p, 0, sizeof *p);
    p->line = -1;
    p->ln = line_no(c, a->addr);
    p->set = set_of_ln(c, a->idx, a->idx == a->addr ? p->ln : line_no(c, a->idx));
    span(c, a, &p->off, &p->len);
    /* (unsectored: the one sector, whatever the bytes) */
    uint32_t need = c->nsec == 1 ? c->full : touched(c, p->off, p->len);
    if (c->coh->mshr_blocks && mshr_full(c)) {
        p->out = MA_MSHRF;    /* a full MSHR blocks every access (SPEC 6) */
        return;
    }
    if (a->bypass) {
        p->kind = P_SEND;
        p->mq = 1;
        p->out = MA_BYPASS;
    } else {
        int h = find_tag(c, p->ln, p->set);
        if (h >= 0 && (a->force || (c->coh->upgrade &&
                                    c->coh->upgrade(c->cfg.level, a->op, c->pst[h]))))
            p->refetch = 1;
        if (a->op != CQ_WRITE) {
            if (h >= 0 && !p->refetch && (c->valid[h] & need) == need) {
                p->kind = P_HIT_RD;
                p->line = h;
                p->out = MA_HIT;
            } else {
                p->rd_miss = h < 0 && !c->coh->mshr_blocks;
                plan_fill(c, a, h, need, p);
            }
        } else if (a->wpol == CW_EVICT) {
            p->out = MA_BYPASS;
            p->mq = 1;
            if (h >= 0 && c->mshr[h] == NONE) {
                p->kind = P_EVICT;
                p->line = h;
                p->wb = evict_wb(c, (uint32_t)h);
                p->mq += (uint32_t)p->wb;
            } else {
                /* a reserved line stays: its fill is on the way */
                p->kind = P_SEND;
            }
        } else if (a->wpol == CW_THROUGH) {
            p->mq = 1;
            if (h >= 0 && (c->valid[h] & need) == need) {
                p->kind = P_HIT_WT;
                p->line = h;
                p->out = MA_HIT;
            } else {
                p->kind = P_SEND;
                p->out = MA_BYPASS;
            }
        } else {
            /* write-back: bytes the write covers whole sectors of need no fetch */
            uint32_t nf = need & ~covered(c, p->off, p->len);
            if (a->excl && !nf)
                nf = need;    /* the directory must hear of it: fetch */
            if (h >= 0 && !p->refetch && (a->apol != CA_FETCH || (c->valid[h] & nf) == nf)) {
                p->kind = P_HIT_WB;
                p->line = h;
                p->out = MA_HIT;
            } else if (h >= 0) {
                plan_fill(c, a, h, p->refetch ? need : nf, p);
            } else if (a->apol == CA_NONE) {
                p->kind = P_SEND;
                p->mq = 1;
                p->out = MA_BYPASS;
            } else if (!a->excl && (a->apol == CA_LAZY || nf == 0)) {
                int v = victim_in(c, p->set);
                if (v < 0) {
                    p->out = MA_CSF;
                    return;
                }
                p->kind = P_LAZY_ALLOC;
                p->line = v;
                p->wb = (c->flags[v] & CF_VALID) && evict_wb(c, (uint32_t)v);
                p->mq = (uint32_t)p->wb;
                p->out = MA_MISS;
            } else {
                plan_fill(c, a, -1, nf, p);
            }
        }
    }
}

/* plan_access's last test (out of it: a memoized MQF plan takes it again): room in the
 * miss queue for the records an accepted plan needs */
static inline int plan_fits(const cache *c, const plan *p)
{
    return mem_access_refused(p->out) || c->mq_len + p->mq <= c->cfg.miss_queue;
}

static inline void plan_refuse_mqf(const cache *c, plan *p)
{
    p->out = MA_MQF;
    p->mq_min = c->cfg.miss_queue + 1 - p->mq;
}

/* a is the memoized access (its token aside: the plan's tokens are the access's own) */
static inline int memo_acc_eq(const cache *c, const cache_acc *a)
{
    const cache_acc *m = &c->memo_acc;
    return m->addr == a->addr && m->idx == a->idx && m->size == a->size && m->op == a->op &&
           m->wpol == a->wpol && m->apol == a->apol && m->bypass == a->bypass &&
           m->excl == a->excl && m->force == a->force;
}

static int memo_hit(const cache *c, const cache_acc *a)
{
    return c->memo_version == c->version && memo_acc_eq(c, a);
}

mem_access cache_probe(const cache *c, const cache_acc *a)
{
    if (memo_hit(c, a))
        return c->memo_out;
    plan p;
    plan_access(c, a, &p);
    return plan_fits(c, &p) ? p.out : MA_MQF;
}

uint64_t cache_refusal_stamp(const cache *c)
{
    return c->memo_seq && c->memo_version == c->version ? c->memo_seq : 0;
}

void cache_count_refusals(cache *c, mem_access out, uint64_t n)
{
    if (out >= MA_CSF && out < MA__COUNT)
        c->st.resfail[out - MA_CSF] += n;
}

mem_access cache_refuse_again(cache *c, uint64_t stamp)
{
    if (!stamp || stamp != c->memo_seq || c->memo_version != c->version)
        return MA__COUNT;
    c->st.resfail[c->memo_out - MA_CSF]++;
    return c->memo_out;
}

/* ---- carrying it out ------------------------------------------------------------------------ */
static void mq_push(cache *c, uint8_t type, uint64_t addr, uint32_t size, uint32_t sectors,
                    uint32_t mshr, void *tok, uint64_t t)
{
    uint8_t excl = mshr != NONE ? c->ent[mshr].excl : 0;
    uint32_t i = c->mq_head + c->mq_len++;
    if (i >= c->cfg.miss_queue)
        i -= c->cfg.miss_queue;
    cache_miss *m = &c->mq[i];
    m->addr = addr;
    m->t_ready = t;
    m->tok = tok;
    m->size = size;
    m->sectors = sectors;
    m->mshr = mshr;
    m->type = type;
    m->excl = excl;
}

/* Queues line h's write-back (out of line: vacate, inline in install, needs no frame
 * for it). */
static __attribute__((noinline)) void write_back(cache *c, uint32_t h, uint64_t t)
{
    mq_push(c, CM_WRITEBACK, c->tag[h] * c->cfg.line, dirty_bytes(c, h), 0, NONE, NULL, t);
    c->st.writebacks++;
}

/* Line h gives up its line: its write-back queued if it has one (wb: evict_wb(c, h) when
 * the caller's plan has it already, else -1), its bytes, sectors and protocol state
 * cleared; its flags are the caller's to set. */
static inline __attribute__((always_inline)) void vacate(cache *c, uint32_t h, uint64_t t, int wb)
{
    if (wb < 0 ? evict_wb(c, h) : wb)
        write_back(c, h, t);
    uint64_t *d = c->dirty + (size_t)h * c->dwords;
    if (c->dwords <= 2) {   /* (lines up to 128 bytes: no memset call) */
        d[0] = 0;
        d[c->dwords - 1] = 0;
    } else {
        memset(d, 0, c->dwords * sizeof *d);
    }
    c->pst[h] = 0;
    c->valid[h] = c->pend[h] = 0;
}

/* Evicts (or invalidates) line h (wb: as vacate). */
static void drop_line_wb(cache *c, uint32_t h, uint64_t t, int wb)
{
    if (!(c->flags[h] & CF_VALID))
        return;
    vacate(c, h, t, wb);
    set_flags(c, h, 0);
}

static void drop_line(cache *c, uint32_t h, uint64_t t) { drop_line_wb(c, h, t, -1); }

/* Line h takes line number ln (wb: as vacate). Its flags are left for the caller, who
 * sets them (set_flags, set_state) before anything reads them: no set_flags(0) between. */
static void install(cache *c, uint32_t h, uint64_t ln, uint64_t t, int wb)
{
    if (c->flags[h] & CF_VALID) {
        c->st.evictions++;
        if (c->dir && c->cfg.dir_evict)
            c->cfg.dir_evict(c->cfg.dir_evict_ctx, c->tag[h] * c->cfg.line,
                             c->dir + (size_t)h * c->dir_bytes, t);
        vacate(c, h, t, wb);
    }
    c->tag[h] = ln;
    if (c->dir)
        memset(c->dir + (size_t)h * c->dir_bytes, 0, c->dir_bytes);
    c->cfg.repl->insert(c->rs, h);
}

static uint32_t ent_alloc(cache *c, uint32_t h, uint64_t now, uint8_t excl)
{
    occ_update(c, now);
    uint32_t e = c->free_ent[--c->n_free];
    c->ent[e].line = h;
    c->ent[e].n = 0;
    c->ent[e].excl = excl;
    c->ent[e].t_alloc = now;
    c->mshr[h] = e;
    uint32_t used = c->cfg.mshr_entries - c->n_free;
    if (used > c->st.mshr_occ_max)
        c->st.mshr_occ_max = used;
    return e;
}

static void ent_add(cache *c, uint32_t e, const cache_acc *a, const plan *p)
{
    mshr_slot *s = &c->slot[(size_t)e * c->cfg.mshr_merges + c->ent[e].n++];
    s->tok = a->tok;
    s->need = p->need;
    s->off = (uint16_t)p->off;
    s->len = (uint16_t)p->len;
    s->op = a->op;
    s->own = NONE;
}

void cache_set_fast(cache *c, int on) { c->fast = on ? c->fast_ok : 0; }

static __attribute__((noinline)) uint64_t read_hit_calls(cache *c, uint64_t addr, uint32_t size,
                                                         uint64_t now)
{
    return read_hit(c, addr, size, now, 0);
}

uint64_t cache_read_hit(cache *c, uint64_t addr, uint32_t size, uint64_t now)
{
    return cache_read_hit_inline(c, addr, size, now);
}

uint64_t cache_read_hit_calls(cache *c, uint64_t addr, uint32_t size, uint64_t now)
{
    return read_hit_calls(c, addr, size, now);
}

mem_access cache_access(cache *c, const cache_acc *a, uint64_t now, uint64_t *t_done)
{
    *t_done = UINT64_MAX;
    plan p;
    if (!memo_acc_eq(c, a)) {   /* (its address tells most accesses apart) */
        plan_access(c, a, &p);
    } else if (c->memo_version == c->version) {
        c->st.resfail[c->memo_out - MA_CSF]++;   /* the memo stands: refused again */
        return c->memo_out;
    } else if (c->memo_pv == c->version - c->n_pop) {
        p = c->memo_plan;   /* refused for a full miss queue, nothing but pops since */
    } else if (c->memo_tv == c->version - c->n_pop - c->n_fill) {
        p = c->memo_plan;   /* a read miss refused, nothing but pops and fills since */
        plan_fill(c, a, -1, p.need, &p);
    } else {
        plan_access(c, a, &p);
    }
    if (!plan_fits(c, &p)) {
        c->memo_plan = p;
        c->memo_pv = c->version - c->n_pop;
        c->memo_tv = UINT64_MAX;
        plan_refuse_mqf(c, &p);
    } else if (mem_access_refused(p.out)) {
        c->memo_pv = c->memo_tv = UINT64_MAX;
        if (p.rd_miss) {
            c->memo_plan = p;
            c->memo_tv = c->version - c->n_pop - c->n_fill;
        }
    }
    if (mem_access_refused(p.out)) {
        c->st.resfail[p.out - MA_CSF]++;
        c->memo_acc = *a;
        c->memo_out = p.out;
        c->memo_version = c->version;
        c->memo_mq_min = p.mq_min;
        c->memo_lo = p.set * c->cfg.ways;
        c->memo_seq++;
        return p.out;
    }
    uint64_t t = accept(c, a->op, now);
    uint32_t h = (uint32_t)p.line, e;
    switch (p.kind) {
    case P_HIT_RD:
        touch(c, h);
        if (a->op == CQ_ATOMIC) {
            mark_dirty(c, h, p.off, p.len);
            set_state(c, h, CE_ATOMIC);
        }
        *t_done = t;
        break;
    case P_HIT_WB:
        touch(c, h);
        mark_dirty(c, h, p.off, p.len);
        c->valid[h] |= covered(c, p.off, p.len);
        set_state(c, h, CE_WRITE);
        *t_done = t;
        break;
    case P_HIT_WT:
        touch(c, h);
        mq_push(c, CM_WRITE, a->addr, p.len, 0, NONE, a->tok, t);
        break;
    case P_EVICT:
        drop_line_wb(c, h, t, p.wb);   /* the plan's evict_wb: nothing changed since */
        c->st.write_evicts++;
        mq_push(c, CM_WRITE, a->addr, p.len, 0, NONE, a->tok, t);
        break;
    case P_SEND:
        mq_push(c, a->op == CQ_WRITE ? CM_WRITE : a->op == CQ_ATOMIC ? CM_ATOMIC : CM_READ,
                a->addr, p.len, 0, NONE, a->tok, t);
        break;
    case P_MERGE:
        e = c->mshr[h];
        ent_add(c, e, a, &p);
        if (c->cfg.no_coalesce) {
            /* not coalesced: the waiting request holds an entry of its own */
            occ_update(c, now);
            uint32_t w = c->free_ent[--c->n_free];
            c->ent[w].line = h;
            c->ent[w].n = 0;
            c->slot[(size_t)e * c->cfg.mshr_merges + c->ent[e].n - 1].own = w;
            uint32_t used = c->cfg.mshr_entries - c->n_free;
            if (used > c->st.mshr_occ_max)
                c->st.mshr_occ_max = used;
        }
        if (p.fetch) {
            c->pend[h] |= p.fetch;
            c->st.sector_misses++;
            mq_push(c, CM_FETCH, c->tag[h] * c->cfg.line,
                    ws_pop32(p.fetch) * c->cfg.sector, p.fetch, e, NULL, t);
        }
        break;
    case P_SECTOR_MISS:
    case P_MISS_ALLOC:
        if (p.kind == P_MISS_ALLOC) {
            install(c, h, p.ln, t, p.wb);
        } else {
            c->st.sector_misses++;
            c->cfg.repl->touch(c->rs, h);
        }
        e = ent_alloc(c, h, now, a->excl);
        ent_add(c, e, a, &p);
        c->pend[h] |= p.fetch;
        set_flags(c, h, CF_VALID | CF_RESERVED);
        mq_push(c, CM_FETCH, c->tag[h] * c->cfg.line,
                ws_pop32(p.fetch) * c->cfg.sector, p.fetch, e, NULL, t);
        break;
    case P_LAZY_ALLOC:
        install(c, h, p.ln, t, p.wb);
        mark_dirty(c, h, p.off, p.len);
        c->valid[h] = covered(c, p.off, p.len);
        set_state(c, h, CE_WRITE_ALLOC);
        *t_done = t;
        break;
    case P_REFUSE:
        break;
    }
    switch (p.out) {
    case MA_HIT: c->st.hits++; break;
    case MA_MISS: c->st.misses++; break;
    case MA_MERGED:
        if (c->cfg.no_coalesce) {
            c->st.hits++;
            c->st.delayed_hits++;
        } else {
            c->st.merges++;
        }
        break;
    default: c->st.bypasses++; break;
    }
    return p.out;
}

int cache_fill(cache *c, uint32_t e, uint32_t sectors, uint64_t now, cache_done_fn fn, void *ctx)
{
    return cache_fill_grant(c, e, sectors, now, fn, ctx, 0);
}

int cache_fill_grant(cache *c, uint32_t e, uint32_t sectors, uint64_t now, cache_done_fn fn,
                     void *ctx, uint8_t grant)
{
    if (e >= c->cfg.mshr_entries || c->mshr[c->ent[e].line] != e)
        return -1;
    uint32_t h = c->ent[e].line;
    if (grant)
        c->pst[h] = grant;
    /* What a fill changes: line h (its sectors, state, entry and waiting slots), free
     * entries (entries are only released) and the adaptive limit (adapt bumps the
     * version when it moves). An MSHRF refusal may fall with a released entry; a CSF or
     * MQF one reads the lines of its own set, and the MSHR only through mshr_full
     * having been false (or, for CSF, either way): it stands unless h is in its set. */
    if (c->memo_out == MA_MSHRF || h - c->memo_lo < c->cfg.ways) {
        c->version++;
        c->n_fill++;
    }
    sectors &= c->full;
    c->valid[h] |= sectors;
    c->pend[h] &= ~sectors;
    c->st.fills++;
    mshr_slot *s = &c->slot[(size_t)e * c->cfg.mshr_merges];
    uint32_t k = 0, n = c->ent[e].n;
    for (uint32_t i = 0; i < n; i++) {
        if (s[i].need & ~c->valid[h]) {
            s[k++] = s[i];              /* still waiting for other sectors */
            continue;
        }
        if (s[i].op != CQ_READ)
            mark_dirty(c, h, s[i].off, s[i].len);
        if (s[i].own != NONE) {
            occ_update(c, now);
            c->free_ent[c->n_free++] = s[i].own;
        }
        if (fn)
            fn(ctx, s[i].tok, now);
    }
    c->ent[e].n = k;
    if (!c->pend[h] && !k) {
        occ_update(c, now);
        c->mshr[h] = NONE;
        c->free_ent[c->n_free++] = e;
        if (c->cfg.mshr_adaptive)
            adapt(c, c->ent[e].t_alloc, now);
    }
    set_state(c, h, CE_FILL);
    return (int)(n - k);
}

/* ---- miss queue and inspection ------------------------------------------------------------- */
const cache_miss *cache_mq_head(const cache *c) { return cache_mq_head_inline(c); }

void cache_mq_pop(cache *c)
{
    if (!c->mq_len)
        return;
    if (++c->mq_head == c->cfg.miss_queue)
        c->mq_head = 0;
    /* a pop changes only mq_len, which only an MQF refusal reads: the memo falls when
     * the queue has room for it now (below its mq_min); its plan stands (n_pop) */
    if (--c->mq_len < c->memo_mq_min) {
        c->version++;
        c->n_pop++;
    }
}

uint32_t cache_mq_len(const cache *c) { return c->mq_len; }
const cache_cfg *cache_config(const cache *c) { return &c->cfg; }
const cache_stats *cache_get_stats(const cache *c) { return &c->st; }
uint32_t cache_mshr_used(const cache *c) { return c->cfg.mshr_entries - c->n_free; }

uint64_t cache_mshr_occ_sum(const cache *c, uint64_t now)
{
    uint64_t s = c->st.mshr_occ_sum;
    if (now > c->st.occ_t)
        s += (uint64_t)cache_mshr_used(c) * (now - c->st.occ_t);
    return s;
}

uint32_t cache_line_flags(const cache *c, uint64_t addr, uint64_t idx)
{
    int h = find(c, addr, idx);
    return h < 0 ? 0 : c->flags[h];
}

uint8_t cache_line_pstate(const cache *c, uint64_t addr, uint64_t idx)
{
    int h = find(c, addr, idx);
    return h < 0 ? 0 : c->pst[h];
}

uint8_t *cache_line_dir(cache *c, uint64_t addr, uint64_t idx)
{
    int h = c->dir ? find(c, addr, idx) : -1;
    return h < 0 ? NULL : c->dir + (size_t)h * c->dir_bytes;
}

int cache_message(cache *c, uint64_t addr, uint64_t idx, uint8_t kind, uint64_t now)
{
    int h = find(c, addr, idx);
    uint8_t st = h < 0 ? 0 : c->pst[h];
    int dirty = h >= 0 && line_dirty(c, (uint32_t)h);
    coh_msg_out o = c->coh->on_message(c->cfg.level, kind, st, dirty);
    if (h < 0)
        return o.reply;
    uint32_t u = (uint32_t)h;
    if (o.drop && !(c->flags[u] & CF_RESERVED)) {
        if (evict_wb(c, u) && c->mq_len >= c->cfg.miss_queue)
            return -1;
        drop_line(c, u, now);
    } else {
        c->pst[u] = o.state;
    }
    c->version++;
    return o.reply;
}

int cache_coh_message(cache *c, uint64_t addr, uint64_t idx, uint8_t kind, uint64_t now,
                      uint32_t *bytes)
{
    (void)now;
    *bytes = 0;
    int h = find(c, addr, idx);
    uint8_t st = h < 0 ? 0 : c->pst[h];
    int dirty = h >= 0 && line_dirty(c, (uint32_t)h);
    coh_msg_out o = c->coh->on_message(c->cfg.level, kind, st, dirty);
    if (h < 0)
        return o.reply;
    uint32_t u = (uint32_t)h;
    c->version++;
    if (o.drop) {
        if (evict_wb(c, u)) {
            *bytes = dirty_bytes(c, u);
            c->st.writebacks++;
        }
        memset(c->dirty + (size_t)u * c->dwords, 0, c->dwords * sizeof *c->dirty);
        c->pst[u] = 0;
        c->valid[u] = 0;
        if (!(c->flags[u] & CF_RESERVED)) {
            set_flags(c, u, 0);
            c->pend[u] = 0;
        }
    } else {
        if (o.reply != MSG_NONE && dirty)
            *bytes = dirty_bytes(c, u);
        c->pst[u] = o.state;
    }
    return o.reply;
}

uint32_t cache_line_dirty_bytes(const cache *c, uint64_t addr, uint64_t idx)
{
    int h = find(c, addr, idx);
    return h < 0 ? 0 : dirty_bytes(c, (uint32_t)h);
}

uint32_t cache_line_valid_sectors(const cache *c, uint64_t addr, uint64_t idx)
{
    int h = find(c, addr, idx);
    return h < 0 ? 0 : c->valid[h];
}

void cache_dump(const cache *c, FILE *f, const char *name)
{
    uint32_t reserved = 0;
    for (uint32_t i = 0; i < c->nlines; i++)
        reserved += (c->flags[i] & CF_RESERVED) != 0;
    fprintf(f, "  %s: %u/%u MSHR entries, miss queue %u/%u, %u reserved lines\n", name,
            cache_mshr_used(c), c->cfg.mshr_entries, c->mq_len, c->cfg.miss_queue, reserved);
    for (uint32_t e = 0; e < c->cfg.mshr_entries; e++) {
        uint32_t h = c->ent[e].line;
        if (h >= c->nlines || c->mshr[h] != e)
            continue;
        fprintf(f, "    mshr %u: line 0x%llx pending sectors 0x%x, %u waiting\n", e,
                (unsigned long long)(c->tag[h] * c->cfg.line), c->pend[h], c->ent[e].n);
    }
    for (uint32_t i = 0; i < c->mq_len; i++) {
        const cache_miss *m = &c->mq[(c->mq_head + i) % c->cfg.miss_queue];
        fprintf(f, "    miss queue %u: %s 0x%llx %u bytes ready at %llu\n", i,
                cache_mtype_name[m->type], (unsigned long long)m->addr, m->size,
                (unsigned long long)m->t_ready);
    }
}

void cache_stats_reset(cache *c, uint64_t now)
{
    memset(&c->st, 0, sizeof c->st);
    c->st.occ_t = now;
}

void cache_invalidate_all(cache *c)
{
    for (uint32_t i = 0; i < c->nlines; i++) {
        if (!(c->flags[i] & CF_VALID) || (c->flags[i] & CF_RESERVED))
            continue;
        set_flags(c, i, 0);
        c->pst[i] = 0;
        c->valid[i] = 0;
        memset(c->dirty + (size_t)i * c->dwords, 0, c->dwords * sizeof *c->dirty);
    }
    c->version++;
}

int cache_install(cache *c, uint64_t addr, uint64_t idx, uint32_t sectors)
{
    int h = find(c, addr, idx);
    if (h < 0) {
        h = victim(c, idx);
        if (h < 0)
            return -1;
        uint32_t u = (uint32_t)h;
        memset(c->dirty + (size_t)u * c->dwords, 0, c->dwords * sizeof *c->dirty);
        install(c, u, line_no(c, addr), 0, -1);
        set_state(c, u, CE_FILL);
    } else {
        c->cfg.repl->touch(c->rs, (uint32_t)h);
        if (c->flags[h] & CF_RESERVED)
            return 0;   /* an outstanding miss fills it anyway */
    }
    c->valid[h] |= sectors;
    c->version++;
    return 0;
}
