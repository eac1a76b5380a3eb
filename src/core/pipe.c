/* pipe.c - the core-pipeline parts both core models share (see pipe.h). */
#include "core/pipe.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/slotset.h"

/* ---- scoreboard ------------------------------------------------------------------- */
/* (grows the counters to hold `reg`) */
static int sb_reserve(pipe_sb *sb, uint32_t reg)
{
    if (reg < sb->cap)
        return 0;
    uint32_t cap = grow_pow2(reg + 64);
    uint16_t *n = realloc(sb->c, cap * sizeof *n);
    if (!n)
        return -1;
    memset(n + sb->cap, 0, (cap - sb->cap) * sizeof *n);
    sb->c = n;
    sb->cap = cap;
    return 0;
}

int pipe_sb_spill_inc(pipe_sb *sb, uint32_t reg)
{
    if (sb_reserve(sb, reg))
        return -1;
    if (sb->k != PIPE_SB_SPILLED) {
        /* the list into the counters (all zero in list form) */
        for (uint32_t j = 0; j < sb->k; j++)
            if (sb_reserve(sb, sb->r[j]))
                return -1;
        for (uint32_t j = 0; j < sb->k; j++)
            sb->c[sb->r[j]]++;
        sb->n = sb->k;
        sb->k = PIPE_SB_SPILLED;
    }
    sb->c[reg]++;
    sb->n++;
    return 0;
}

int pipe_sb_pend(pipe_sb *sb, uint32_t base, const insn_info *ii, uint32_t *regs)
{
    for (uint32_t i = 0; i < ii->n_dst; i++) {
        regs[i] = base + ii->dst[i];
        if (pipe_sb_inc(sb, regs[i]))
            return -1;
    }
    return 0;
}

void pipe_sb_clear(pipe_sb *sb)
{
    if (sb->k == PIPE_SB_SPILLED)
        memset(sb->c, 0, sb->cap * sizeof *sb->c);
    sb->k = 0;
    sb->n = 0;
}

void pipe_sb_fini(pipe_sb *sb)
{
    free(sb->c);
    sb->c = NULL;
    sb->cap = 0;
    sb->k = 0;
    sb->n = 0;
}

/* ---- summary of cached verdicts -------------------------------------------------- */
int pipe_vsum_init(pipe_vsum *v, uint32_t n_slots, uint32_t nkeys)
{
    memset(v, 0, sizeof *v);
    v->nw = (n_slots + 63) / 64 ? (n_slots + 63) / 64 : 1;
    v->nkeys = nkeys;
    v->bits = calloc((size_t)(nkeys + 1) * v->nw, sizeof *v->bits);
    v->key = malloc(n_slots ? n_slots : 1);
    if (!v->bits || !v->key || nkeys >= PIPE_KEY_NONE) {
        pipe_vsum_fini(v);
        return -1;
    }
    memset(v->key, PIPE_KEY_NONE, n_slots ? n_slots : 1);
    return 0;
}

void pipe_vsum_fini(pipe_vsum *v)
{
    free(v->bits);
    free(v->key);
    v->bits = NULL;
    v->key = NULL;
}

/* ---- timing wheel ------------------------------------------------------------------ */
int pipe_wheel_init(pipe_wheel *w, uint32_t ahead)
{
    memset(w, 0, sizeof *w);
    uint32_t n = grow_pow2(ahead + 2);
    w->head = malloc(n * sizeof *w->head);
    w->occ = calloc((n + 63) / 64, sizeof *w->occ);
    if (!w->head || !w->occ) {
        pipe_wheel_fini(w);
        return -1;
    }
    memset(w->head, 0xff, n * sizeof *w->head);
    w->mask = n - 1;
    w->next_due = UINT64_MAX;
    w->free = UINT32_MAX;
    return 0;
}

void pipe_wheel_fini(pipe_wheel *w)
{
    free(w->head);
    free(w->occ);
    free(w->ev);
    memset(w, 0, sizeof *w);
}

int pipe_wheel_grow(pipe_wheel *w)
{
    uint32_t cap = w->cap ? w->cap * 2 : 256;
    pipe_event *ne = realloc(w->ev, cap * sizeof *ne);
    if (!ne)
        return -1;
    for (uint32_t i = w->cap; i < cap; i++)
        ne[i].next = i + 1 < cap ? i + 1 : UINT32_MAX;
    w->ev = ne;
    w->free = w->cap;
    w->cap = cap;
    return 0;
}

int pipe_wheel_add(pipe_wheel *w, uint64_t due, uint32_t slot, const uint32_t *regs, uint32_t n,
                   uint8_t kind)
{
    if (w->free == UINT32_MAX && pipe_wheel_grow(w))
        return -1;
    uint32_t e = w->free;
    pipe_event *ev = &w->ev[e];
    w->free = ev->next;
    ev->due = due;
    ev->slot = slot;
    ev->n = (uint8_t)n;
    ev->kind = kind;
    memcpy(ev->regs, regs, n * sizeof *regs);
    uint32_t b = (uint32_t)(due & w->mask);
    ev->next = w->head[b];
    w->head[b] = e;
    w->occ[b / 64] |= 1ull << (b % 64);
    if (due < w->next_due)
        w->next_due = due;
    w->n++;
    return 0;
}

/* The earliest cycle in (cycle, bound) with an event due, else bound: a scan of the
 * buckets. */
static uint64_t wheel_scan(const pipe_wheel *w, uint64_t cycle, uint64_t bound)
{
    if (!w->n)
        return bound;
    /* every event is due within one turn of the wheel; the buckets in order from
     * cycle + 1, the empty ones skipped a word of occ at a time (a word ends at a
     * multiple of 64 buckets, or at the wheel's end when it has fewer) */
    const uint64_t turn = (uint64_t)w->mask + 1, wbits = turn < 64 ? turn : 64;
    uint64_t d = 1;
    while (d <= turn && cycle + d < bound) {
        const uint32_t b = (uint32_t)((cycle + d) & w->mask);
        const uint64_t x = w->occ[b / 64] >> (b % 64);
        if (!x) {
            d += wbits - b % 64;
            continue;
        }
        d += (uint64_t)__builtin_ctzll(x);
        if (d > turn || cycle + d >= bound)
            break;
        for (uint32_t e = w->head[(cycle + d) & w->mask]; e != UINT32_MAX; e = w->ev[e].next)
            if (w->ev[e].due == cycle + d)
                return cycle + d;
        d++;
    }
    return bound;
}

void pipe_wheel_rescan(pipe_wheel *w, uint64_t cycle) { w->next_due = wheel_scan(w, cycle, UINT64_MAX); }

uint64_t pipe_wheel_next(const pipe_wheel *w, uint64_t cycle, uint64_t bound)
{
    if (!w->n)
        return bound;
    if (w->next_due > cycle)   /* (an event is due at it: none was taken since) */
        return w->next_due < bound ? w->next_due : bound;
    return wheel_scan(w, cycle, bound);
}

/* ---- memory instructions in flight ------------------------------------------------ */
void pipe_minsts_init(pipe_minsts *p)
{
    memset(p, 0, sizeof *p);
    p->free = UINT32_MAX;
}

void pipe_minsts_fini(pipe_minsts *p)
{
    free(p->a);
    pipe_minsts_init(p);
}

uint32_t pipe_minst_new(pipe_minsts *p)
{
    if (p->free == UINT32_MAX) {
        uint32_t cap = p->cap ? p->cap * 2 : 64;
        pipe_minst *n = realloc(p->a, cap * sizeof *n);
        if (!n)
            return UINT32_MAX;
        for (uint32_t i = p->cap; i < cap; i++)
            n[i].next_free = i + 1 < cap ? i + 1 : UINT32_MAX;
        p->a = n;
        p->free = p->cap;
        p->cap = cap;
    }
    uint32_t i = p->free;
    p->free = p->a[i].next_free;
    p->used++;
    return i;
}

void pipe_minst_free(pipe_minsts *p, uint32_t i)
{
    p->a[i].next_free = p->free;
    p->free = i;
    p->used--;
}

/* ---- memory requests ---------------------------------------------------------------- */
/* a request alone in its host cache line (pipe_rq) */
typedef struct {
    _Alignas(64) mem_req r;
} rq_cell;

/* One more slab, its requests free (taken in address order); -1 when out of memory. */
static int rq_grow(pipe_rq *q)
{
    if (q->n == q->cap) {
        uint32_t cap = q->cap ? q->cap * 2 : 16;
        void **na = realloc(q->slab, cap * sizeof *na);
        if (!na)
            return -1;
        q->slab = na;
        q->cap = cap;
    }
    mem_req **nf = realloc(q->free, (size_t)(q->n + 1) * PIPE_RQ_SLAB * sizeof *nf);
    if (!nf)
        return -1;
    q->free = nf;
    rq_cell *c = aligned_alloc(_Alignof(rq_cell), PIPE_RQ_SLAB * sizeof *c);
    if (!c)
        return -1;
    q->slab[q->n++] = c;
    for (uint32_t i = PIPE_RQ_SLAB; i-- > 0;)
        q->free[q->nfree++] = &c[i].r;
    return 0;
}

/* A free request, not cleared (callers that write every field skip the clearing); NULL
 * when out of memory. The pop is inline: a request is taken nearly every cycle. */
static inline mem_req *rq_take(pipe_rq *q)
{
    if (!q->nfree && rq_grow(q))
        return NULL;
    return q->free[--q->nfree];
}

mem_req *pipe_req_new(pipe_rq *q)
{
    mem_req *r = rq_take(q);
    if (r)
        memset(r, 0, sizeof *r);
    return r;
}

void pipe_rq_fini(pipe_rq *q)
{
    for (uint32_t i = 0; i < q->n; i++)
        free(q->slab[i]);
    free(q->slab);
    free(q->free);
    memset(q, 0, sizeof *q);
}

/* ---- statistics ------------------------------------------------------------------------ */
void pipe_lat_record(pipe_stats *st, uint64_t lat)
{
    st->mem_lat_sum += lat;
    st->mem_lat_n++;
    if (lat > st->mem_lat_max)
        st->mem_lat_max = lat;
    uint32_t b = 0;
    while (b < 15 && (2ull << b) <= lat)
        b++;
    st->mem_lat_hist[b]++;
}

void pipe_ldq_repeat(pipe_stats *st, const uint64_t d[6], uint64_t n)
{
    st->ldst_stall_cycles += n * d[0];
    for (int i = 0; i < 3; i++)
        st->resfail[i] += n * d[1 + i];
    st->queue_occupancy_sum += n * d[4];
    st->reod_full_cycles += n * d[5];
}

_Static_assert(WR__COUNT <= sizeof ((ws_timing_stats *)0)->slot / sizeof(uint64_t), "slot[]");

void pipe_stats_add(const pipe_stats *s, ws_timing_stats *t)
{
    for (int k = 0; k < WR__COUNT; k++)
        t->slot[k] += s->slot[k];
    t->idle_slots += s->idle_slots;
    t->stall_cycles += s->stall_cycles;
    t->warps_in_flight_sum += s->warps_in_flight_sum;
    t->resident_warps_sum += s->resident_warps_sum;
    t->active_sm_cycles += s->active_cycles;
    t->mem_insts += s->mem_insts;
    t->mem_reqs += s->mem_reqs;
    t->mem_bytes_used += s->mem_bytes_used;
    for (int k = 0; k < 3; k++)
        t->resfail[k] += s->resfail[k];
    t->ldst_stall_cycles += s->ldst_stall_cycles;
    t->queue_occupancy_sum += s->queue_occupancy_sum;
    t->queued_cycles += s->queued_cycles;
    t->queued_reqs += s->queued_reqs;
    t->reod_full_cycles += s->reod_full_cycles;
    t->mem_lat_sum += s->mem_lat_sum;
    t->mem_lat_n += s->mem_lat_n;
    if (s->mem_lat_max > t->mem_lat_max)
        t->mem_lat_max = s->mem_lat_max;
    for (int k = 0; k < 16; k++)
        t->mem_lat_hist[k] += s->mem_lat_hist[k];
    t->ifetch_misses += s->ifetch_misses;
}

/* ---- addresses, coalescing, banks ------------------------------------------------- */
void pipe_space_init(pipe_space *sp, uint32_t id, uint32_t n_slots, uint32_t ws)
{
    sp->local_base = 0x7000000000ull + (uint64_t)id * 0x100000000ull;
    sp->param_base = 0x6f00000000ull;
    sp->local_threads = n_slots * ws;
    sp->ws = ws;
}

/* The address of access a of warp `slot` in the global space. */
static inline uint64_t map_addr(const pipe_space *sp, const exec_access *a, uint32_t slot)
{
    uint64_t addr = a->addr;
    if (a->space == SP_PARAM)
        addr += sp->param_base;
    if (a->space == SP_LOCAL) {
        uint64_t t = (uint64_t)slot * sp->ws + a->lane;
        addr = sp->local_base + (((addr >> 2) * sp->local_threads + t) << 2) + (addr & 3);
    }
    return addr;
}

static inline uint64_t line_of(uint64_t addr, uint32_t line)
{
    return (line & (line - 1)) == 0 ? addr >> __builtin_ctz(line) : addr / line;
}

/* pipe_coalesce's table of the segments found: 128 entries for at most 64 */
#define SEG_HASH 128u
static inline uint32_t seg_hash(uint64_t sg)
{
    return (uint32_t)((sg * 0x9e3779b97f4a7c15ull) >> 57);   /* the top 7 bits */
}

uint32_t pipe_coalesce(const pipe_space *sp, exec_trace *tr, uint32_t slot, uint32_t lo,
                       uint32_t hi, uint32_t line, uint64_t seg[64], uint32_t used[64])
{
    if (tr->rep) {
        /* the compact form of a uniform load: one record repeated, the one-address case
         * below without its pass over the records (lanes a[0].lane < those of rep) */
        const exec_access *a0 = &tr->a[0];
        const uint32_t len = exec_trace_len(tr);
        if (tr->n == 1 && len > 1 && hi > lo && a0->space != SP_LOCAL && (uint32_t)a0->lane - lo < hi - lo &&
            63u - (uint32_t)__builtin_clzll(tr->rep) < hi) {
            seg[0] = line_of(map_addr(sp, a0, slot), line);
            used[0] = len * a0->size;
            return 1;
        }
        exec_trace_flat(tr);
    }
    /* every lane at one address (a uniform load: kernel parameters, constants): one
     * segment of all their bytes, as the loop below finds it */
    const uint32_t n = tr->n;
    if (n > 1 && hi > lo && tr->a[0].addr == tr->a[n - 1].addr && tr->a[0].space != SP_LOCAL) {
        const exec_access *a0 = &tr->a[0];
        /* (size and space side by side, compared as one; lo <= lane < hi as one test) */
        uint16_t ss0, ss;
        _Static_assert(offsetof(exec_access, space) == offsetof(exec_access, size) + 1, "size, space adjacent");
        memcpy(&ss0, &a0->size, sizeof ss0);
        uint32_t i = 0;
        for (; i < n; i++) {
            const exec_access *a = &tr->a[i];
            memcpy(&ss, &a->size, sizeof ss);
            if (a->addr != a0->addr || ss != ss0 || (uint32_t)a->lane - lo >= hi - lo)
                break;
        }
        if (i == n) {
            seg[0] = line_of(map_addr(sp, a0, slot), line);
            used[0] = n * a0->size;
            return 1;
        }
    }
    uint32_t nseg = 0, last = 0;
    /* line_of, its test once: a power of two shifts */
    const unsigned sh = (line & (line - 1)) == 0 ? (unsigned)__builtin_ctz(line) : 64;
    int mono_fails = 0;   /* the monotonic loop below would stop early: skip it */
    if (sh < 64 && hi > lo && n > 1 && tr->a[0].space != SP_LOCAL) {
        /* the monotonic loop below for records alike (record 0's size, space and kind,
         * lanes in [lo, hi)), their tests folded into one flag tested at the end (a
         * record that fails them makes this pass's segments useless): the segments as
         * that loop finds them, by the addresses alone */
        const exec_access *ta = tr->a;
        uint32_t w0;
        memcpy(&w0, &ta[0].lane, sizeof w0);
        const uint64_t pb = ta[0].space == SP_PARAM ? sp->param_base : 0;
        const uint32_t sz = ta[0].size;
        uint64_t cur = (ta[0].addr + pb) >> sh;
        uint32_t wdiff = 0, rmax = 0, k = 0, i = 0, from = 0;
        seg[0] = cur;
        for (; i < n; i++) {
            uint32_t w;
            memcpy(&w, &ta[i].lane, sizeof w);
            const uint32_t r = (w & 0xff) - lo;   /* (lo <= lane < hi: r < hi - lo) */
            wdiff |= w ^ w0;
            rmax = r > rmax ? r : rmax;
            const uint64_t sg = (ta[i].addr + pb) >> sh;
            if (sg == cur)
                continue;
            if (sg < cur || k == 63)
                break;
            used[k] = (i - from) * sz;
            seg[++k] = cur = sg;
            from = i;
        }
        const int alike = !(wdiff & 0xffffff00u) && rmax < hi - lo;
        if (alike && i == n) {
            used[k] = (n - from) * sz;
            return k + 1;
        }
        /* records 0..i alike and record i decreasing (or a 65th segment): the loop
         * below stops at record i too */
        mono_fails = alike;
    }
    if (sh < 64 && hi > lo && !mono_fails) {
        /* the common case first: no local memory, every lane in [lo, hi), and the lines
         * never decreasing in access order, so a line differs from the last one found
         * only when it is new (the search below would find nothing); anything else
         * starts over with the general loop */
        uint32_t i = 0;
        for (; i < n; i++) {
            const exec_access *a = &tr->a[i];
            if (a->space == SP_LOCAL || (uint32_t)a->lane - lo >= hi - lo)
                break;
            const uint64_t sg = (a->addr + (a->space == SP_PARAM ? sp->param_base : 0)) >> sh;
            if (nseg && sg == seg[nseg - 1]) {
                used[nseg - 1] += a->size;
                continue;
            }
            if ((nseg && sg < seg[nseg - 1]) || nseg == 64)
                break;
            seg[nseg] = sg;
            used[nseg++] = a->size;
        }
        if (i == n)
            return nseg;
        nseg = 0;
    }
    /* a segment's index by a hash of its line (at[h]: index + 1, 0: none; linear
     * probing, at most 64 of the 128 entries used), so that scattered lines (random
     * atomics: 32 lines) cost one probe each rather than a search of those found */
    uint8_t at[SEG_HASH] = {0};
    for (uint32_t i = 0; i < tr->n; i++) {
        const exec_access *a = &tr->a[i];
        if (a->lane < lo || a->lane >= hi)
            continue;
        const uint64_t ad = map_addr(sp, a, slot);
        uint64_t sg = sh < 64 ? ad >> sh : ad / line;
        uint32_t k = last;   /* neighbouring lanes mostly share a line */
        if (k >= nseg || seg[k] != sg) {
            uint32_t h = seg_hash(sg);
            while (at[h] && seg[at[h] - 1] != sg)
                h = (h + 1) & (SEG_HASH - 1);
            if (at[h]) {
                k = at[h] - 1u;
            } else {
                k = nseg;
                if (nseg < 64)
                    at[h] = (uint8_t)(nseg + 1);
            }
        }
        last = k;
        if (k == nseg && nseg < 64) {
            seg[nseg] = sg;
            used[nseg++] = 0;
        }
        if (k < 64)
            used[k] += a->size;
    }
    return nseg;
}

uint32_t pipe_coalesce_groups(const pipe_space *sp, const exec_trace *tr, uint32_t slot, uint32_t grp,
                              uint32_t line, uint64_t seg[64], uint32_t used[64], uint32_t first[65])
{
    uint64_t s[64];
    uint32_t u[64], n = 0, ng = (sp->ws + grp - 1) / grp, last = 0;
    uint8_t g_of[64], cnt[65] = {0};
    for (uint32_t i = 0; i < tr->n; i++) {
        const exec_access *a = &tr->a[i];
        uint32_t g = a->lane / grp;
        if (g >= ng)
            continue;
        uint64_t sg = line_of(map_addr(sp, a, slot), line);
        uint32_t k = last;   /* neighbouring lanes mostly share a line */
        if (k >= n || s[k] != sg || g_of[k] != g)
            for (k = 0; k < n && (s[k] != sg || g_of[k] != g); k++)
                ;
        last = k;
        if (k == n) {
            if (n == 64)
                continue;
            s[n] = sg;
            u[n] = 0;
            g_of[n++] = (uint8_t)g;
            cnt[g]++;
        }
        u[k] += a->size;
    }
    /* stable by group: each group's segments in the order found */
    first[0] = 0;
    for (uint32_t g = 0; g < ng; g++)
        first[g + 1] = first[g] + cnt[g];
    uint32_t at[65];
    memcpy(at, first, (ng + 1) * sizeof *at);
    for (uint32_t k = 0; k < n; k++) {
        seg[at[g_of[k]]] = s[k];
        used[at[g_of[k]]++] = u[k];
    }
    return n;
}

int pipe_mem_push(pipe_rq *rq, ldq *q, const uint64_t *seg, const uint32_t *used, uint32_t nseg,
                  uint32_t line, const mem_req *proto, uint64_t cycle, pipe_stats *st)
{
    for (uint32_t k = 0; k < nseg; k++) {
        /* (not cleared: the copy of *proto writes every field) */
        mem_req *r = rq_take(rq);
        if (!r)
            return -1;
        *r = *proto;
        r->next = NULL;
        r->addr = seg[k] * line;
        r->size = line;
        r->bytes_used = used[k];
        ldq_push(q, r, cycle);
        if (st) {
            st->mem_reqs++;
            st->mem_bytes_used += used[k];
        }
    }
    return 0;
}

uint8_t pipe_req_kind(const ptx_insn *in)
{
    return in->op == OP_ST ? MR_STORE : (in->op == OP_ATOM || in->op == OP_RED) ? MR_ATOMIC : MR_LOAD;
}

uint8_t pipe_req_space(uint8_t sp0)
{
    return (uint8_t)(sp0 == SP_LOCAL ? SP_LOCAL : sp0 == SP_CONST || sp0 == SP_PARAM ? SP_CONST : SP_GLOBAL);
}

/* One pass per group: each access walks the list of distinct words already seen in
 * its bank, so the cost is lanes x conflict degree, not lanes squared. */
/* pipe_bank_cycles of a trace of more than 64 accesses: its first 64, an atomic's
 * equal addresses counted over the whole trace */
static uint32_t bank_cycles_long(const exec_trace *tr, uint32_t ws, uint32_t grp, uint32_t banks, int atomic)
{
    uint32_t total = 0, n = 64;
    int8_t head[256], next[64];
    uint8_t cnt[256], bank[64];
    uint64_t word[64];
    /* every access's bank, and all banks touched reset (once: each group resets its
     * own below only when there are several) */
    for (uint32_t i = 0; i < n; i++) {
        uint64_t wd = tr->a[i].addr >> 2;
        bank[i] = (uint8_t)((banks & (banks - 1)) == 0 ? wd & (banks - 1) : wd % banks);
        head[bank[i]] = -1;
        cnt[bank[i]] = 0;
    }
    for (uint32_t g0 = 0; g0 < ws; g0 += grp) {
        uint32_t nw = 0, worst = 0, any = 0;
        if (g0)
            for (uint32_t i = 0; i < n; i++) {
                head[bank[i]] = -1;
                cnt[bank[i]] = 0;
            }
        for (uint32_t i = 0; i < n; i++) {
            const exec_access *a = &tr->a[i];
            if (a->lane < g0 || a->lane >= g0 + grp)
                continue;
            any = 1;
            uint64_t wd = a->addr >> 2;
            uint32_t b = bank[i];
            int8_t k = head[b];
            while (k >= 0 && word[k] != wd)
                k = next[k];
            if (k < 0) {
                word[nw] = wd;
                next[nw] = head[b];
                head[b] = (int8_t)nw++;
                if (++cnt[b] > worst)
                    worst = cnt[b];
            }
            if (atomic) {
                uint32_t same = 0;
                for (uint32_t j = 0; j < tr->n; j++)
                    same += tr->a[j].addr == a->addr && tr->a[j].lane >= g0 && tr->a[j].lane < g0 + grp;
                if (same > worst)
                    worst = same;
            }
        }
        total += any ? (worst ? worst : 1) : 0;
    }
    return total ? total : 1;
}

/* pipe_bank_cycles' probe tables: 128 slots (twice the most accesses), a key's home
 * from its Fibonacci hash */
enum { BANK_TAB = 128 };
static inline uint32_t bank_home(uint64_t key) { return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 57); }

/* Slot of key in the table (keys k, used u): its slot, or the free slot where it goes
 * (*fresh set). */
static inline uint32_t bank_probe(const uint64_t *k, const uint8_t *u, uint64_t key, int *fresh)
{
    uint32_t h = bank_home(key);
    while (u[h] && k[h] != key)
        h = (h + 1) & (BANK_TAB - 1);
    *fresh = !u[h];
    return h;
}

uint32_t pipe_bank_cycles(const exec_trace *tr, uint32_t ws, uint32_t grp, uint32_t banks, int atomic)
{
    uint32_t total = 0, n = tr->n < 64 ? tr->n : 64;
    if (!grp)
        grp = ws;
    if (tr->n > 64)   /* (an atomic's equal addresses count over the whole trace) */
        return bank_cycles_long(tr, ws, grp, banks, atomic);
    const int pow2 = (banks & (banks - 1)) == 0;
    if (!atomic && grp >= ws && n <= banks) {
        /* consecutive 4-byte steps from the first access (lanes in order or not): n
         * consecutive words, each in its own bank, as the pass below finds them */
        const uint64_t a0 = tr->a[0].addr;
        uint32_t i = 0;
        while (i < n && tr->a[i].addr == a0 + 4ull * i && tr->a[i].lane < grp)
            i++;
        if (i == n)
            return 1;
    }
    if (!atomic && grp >= ws && pow2 && banks <= 64) {
        /* the pass below with the seen banks in one word (up to 64 banks, a power of
         * two: the common configurations) */
        uint64_t seen = 0, bw[64];
        uint32_t i = 0;
        for (; i < n; i++) {
            const exec_access *a = &tr->a[i];
            const uint64_t wd = a->addr >> 2;
            const uint32_t b = (uint32_t)(wd & (banks - 1));
            const uint64_t bit = 1ull << b;
            if (a->lane >= grp)
                break;
            if (seen & bit) {
                if (bw[b] != wd)
                    break;
            } else {
                seen |= bit;
                bw[b] = wd;
            }
        }
        if (i == n)
            return 1;
    } else if (!atomic && grp >= ws) {
        /* one group, no atomics: conflict-free (1 cycle) when no bank holds two distinct
         * words (the common case: consecutive words, broadcasts); else the tables below.
         * bw[b] is read only once bank b was seen (bit b of seen). */
        uint64_t seen[4] = {0, 0, 0, 0}, bw[256];
        uint32_t i = 0;
        for (; i < n; i++) {
            const exec_access *a = &tr->a[i];
            const uint64_t wd = a->addr >> 2;
            const uint32_t b = pow2 ? (uint32_t)(wd & (banks - 1)) : (uint32_t)(wd % banks);
            const uint64_t bit = 1ull << (b & 63);
            if (a->lane >= grp)
                break;
            if (seen[b >> 6] & bit) {
                if (bw[b] != wd)
                    break;
            } else {
                seen[b >> 6] |= bit;
                bw[b] = wd;
            }
        }
        if (i == n)
            return 1;
    }
    if (!atomic && grp >= ws && pow2 && banks <= 64 && n) {
        /* one group, no atomics, and the words within 4096 of the lowest: the distinct
         * words by a bitmap of that range instead of the table below (the same count:
         * the most distinct words in one bank) */
        uint64_t wmin = UINT64_MAX, wmax = 0;
        uint32_t lmax = 0;
        for (uint32_t i = 0; i < n; i++) {
            const exec_access *a = &tr->a[i];
            const uint64_t wd = a->addr >> 2;
            const uint32_t l = a->lane;
            lmax = l > lmax ? l : lmax;
            wmin = wd < wmin ? wd : wmin;
            wmax = wd > wmax ? wd : wmax;
        }
        if (lmax < grp && wmax - wmin < 4096) {
            uint64_t bits[64];
            uint8_t bc[64];
            memset(bits, 0, sizeof bits);
            memset(bc, 0, sizeof bc);
            uint32_t worst = 0;
            for (uint32_t i = 0; i < n; i++) {
                const uint64_t wd = tr->a[i].addr >> 2, r = wd - wmin;
                const uint64_t bit = 1ull << (r & 63);
                if (bits[r >> 6] & bit)
                    continue;
                bits[r >> 6] |= bit;
                const uint32_t c = ++bc[wd & (banks - 1)];
                worst = c > worst ? c : worst;
            }
            return worst;   /* (>= 1: n > 0) */
        }
    }
    /* per group: the distinct words (a table of them), each counted in its bank; with
     * atomics the equal addresses too (a table of addresses with their counts) */
    uint64_t wk[BANK_TAB], ak[BANK_TAB];
    uint8_t wu[BANK_TAB], au[BANK_TAB], cnt[256];
    for (uint32_t g0 = 0; g0 < ws; g0 += grp) {
        uint32_t worst = 0, any = 0;
        memset(wu, 0, sizeof wu);
        memset(cnt, 0, banks);
        if (atomic)
            memset(au, 0, sizeof au);
        for (uint32_t i = 0; i < n; i++) {
            const exec_access *a = &tr->a[i];
            if (a->lane < g0 || a->lane >= g0 + grp)
                continue;
            any = 1;
            const uint64_t wd = a->addr >> 2;
            int fresh;
            uint32_t h = bank_probe(wk, wu, wd, &fresh);
            if (fresh) {
                wk[h] = wd;
                wu[h] = 1;
                const uint32_t b = pow2 ? (uint32_t)(wd & (banks - 1)) : (uint32_t)(wd % banks);
                if (++cnt[b] > worst)
                    worst = cnt[b];
            }
            if (atomic) {
                h = bank_probe(ak, au, a->addr, &fresh);
                ak[h] = a->addr;
                if (++au[h] > worst)   /* equal addresses in the group so far */
                    worst = au[h];
            }
        }
        total += any ? (worst ? worst : 1) : 0;
    }
    return total ? total : 1;
}

/* ---- CTA slots ------------------------------------------------------------------------ */
uint32_t pipe_cta_free(const pipe_cta *c, uint32_t n)
{
    uint32_t k = 0;
    while (k < n && c[k].used)
        k++;
    return k;
}

int pipe_cta_take(pipe_cta *cta, uint32_t n, func_warp *fw, uint32_t warps, func_launch *L,
                  uint32_t linear, uint32_t smid)
{
    uint32_t k = pipe_cta_free(cta, n);
    if (k == n)
        return -1;
    pipe_cta *c = &cta[k];
    memset(c->shared, 0, L->shared_bytes ? L->shared_bytes : 1);
    func_cta_init(&c->fc, L, linear, c->shared);
    c->fc.smid = smid;
    c->used = 1;
    c->warps_left = warps;
    for (uint32_t i = 0; i < warps; i++)
        if (func_warp_init(&fw[k * warps + i], L, &c->fc, i))
            return -1;
    return (int)k;
}

uint32_t pipe_cta_retire(pipe_cta *cta, uint32_t n, uint32_t warps,
                         int (*leave)(void *ctx, uint32_t slot, uint64_t cycle), void *ctx, uint64_t cycle,
                         pipe_stats *st)
{
    uint32_t done = 0;
    for (uint32_t k = 0; k < n; k++) {
        pipe_cta *c = &cta[k];
        if (!c->used)
            continue;
        for (uint32_t i = 0; i < warps; i++)
            c->warps_left -= (uint32_t)leave(ctx, k * warps + i, cycle);
        if (c->warps_left == 0) {
            c->used = 0;
            st->ctas_done++;
            done++;
        }
    }
    return done;
}

/* ---- instruction fetch ---------------------------------------------------------------- */
uint32_t pipe_fetch_len(const insn_table *it, const ptx_func *f, int32_t fn, uint32_t pc,
                        uint32_t entries)
{
    if (pc < f->n_insns && entries <= 255) {
        /* the table's run from pc (insn_info.fetch_run: up to a control instruction or
         * the function's end, at most 255) */
        const uint32_t r = it->info[fn][pc].fetch_run;
        return r < entries ? r : entries ? entries : 1;
    }
    uint32_t n = 0;
    while (n < entries && pc + n < f->n_insns) {
        uint8_t c = it->info[fn][pc + n].cls;
        n++;
        if (c == IC_BRANCH || c == IC_CALL || c == IC_BAR)
            break;
    }
    return n ? n : 1;
}

int pipe_ifetch(pipe_rq *rq, memsys *mem, uint32_t sm, uint32_t slot, int32_t fn, uint32_t pc,
                uint32_t n, uint64_t cycle, pipe_stats *st)
{
    /* (not cleared: the compound literal writes every field) */
    mem_req *r = rq_take(rq);
    if (!r)
        return -1;
    *r = (mem_req){.addr = ((uint64_t)fn << 24) + (uint64_t)pc * 8,   /* 8 bytes per insn */
                   .size = 8 * n, .kind = MR_IFETCH, .sm = sm, .warp = slot, .tag = n,
                   .t_issue = cycle};
    mem_access a = memsys_access(mem, r, cycle);
    if (mem_access_refused(a)) {
        pipe_req_free(rq, r);
        return 0;
    }
    if (a != MA_HIT)
        st->ifetch_misses++;
    return 1;
}
