/* icnt.c - the crossbar (icnt.h). */
#include "mem/icnt.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    icnt_msg *head, *tail;
    uint64_t busy;            /* link busy until this cycle                         */
    uint64_t head_t;          /* head's t_ready (input) or t_arr (output): polled
                                 every cycle, so kept here rather than in the packet */
    uint32_t used;            /* flits buffered                                     */
    uint32_t head_dst, head_flits;   /* input: the head's                           */
} port;

/* Arbitration works on bitsets so that a cycle costs O(ports with traffic), not
 * O(outputs x inputs): want[o] holds the inputs whose head packet targets output o. */
struct icnt {
    icnt_cfg cfg;
    port *in, *out;
    uint32_t *rr;             /* per output: input granted last                     */
    uint32_t wi, wo;          /* 64-bit words of an input set, of an output set     */
    uint64_t *want;           /* n_dst x wi                                         */
    uint64_t *out_want;       /* outputs with a nonempty want set                   */
    uint64_t *in_busy_set;    /* inputs holding packets                             */
    uint64_t *out_busy_set;   /* outputs holding packets                            */
    uint32_t *in_used;        /* per input: its `used` (icnt_in_used)                 */
    uint64_t *in_freed;       /* inputs granted from since the caller cleared it
                                 (icnt_in_freed)                                     */
    uint64_t *out_got;        /* outputs granted to since the caller cleared it
                                 (icnt_out_got)                                      */
    uint64_t *out_t;          /* per output: its head's t_arr, UINT64_MAX when empty
                                 (icnt_out_times: a receiver polls it inline)        */
    icnt_msg **out_h;         /* per output: its head, NULL when empty (icnt_out_heads) */
    uint32_t inside;
    /* no grant is possible before this cycle: the last arbitration granted nothing and
     * found every waiting head's link, time or output busy until then (a push, or a pop
     * that frees output buffer space, clears it) */
    uint64_t idle_until;
    int flit_shift;           /* log2(flit), or -1                                  */
    uint64_t flit_m;          /* else ceil(2^64 / flit): (x * flit_m) >> 64 is x / flit for
                                 every 32-bit x (Lemire, Kaser, Kurz 2019), instead of a
                                 hardware division for every packet and room check      */
    icnt_stats st;
};

static void bit_set(uint64_t *b, uint32_t i) { b[i / 64] |= 1ull << (i % 64); }
static void bit_clr(uint64_t *b, uint32_t i) { b[i / 64] &= ~(1ull << (i % 64)); }

static int any(const uint64_t *b, uint32_t w)
{
    for (uint32_t i = 0; i < w; i++)
        if (b[i])
            return 1;
    return 0;
}

/* First set bit at index >= from in [0, n), or n. */
static inline uint32_t next_bit(const uint64_t *b, uint32_t n, uint32_t from)
{
    if (from >= n)
        return n;
    uint32_t w = from / 64;
    uint64_t x = b[w] & (~0ull << (from % 64));
    if (n <= 64)          /* the common case: one word */
        return x ? (uint32_t)__builtin_ctzll(x) : n;
    for (;;) {
        if (x) {
            uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(x);
            return i < n ? i : n;
        }
        if (++w * 64 >= n)
            return n;
        x = b[w];
    }
}

/* next_bit(b, n, i + 1); in one word, any index >= n when none (the loops stop there) */
static inline uint32_t bit_after(const uint64_t *b, uint32_t n, uint32_t i)
{
    if (n <= 64) {
        uint64_t x = b[0] & ~((2ull << i) - 1);   /* i == 63: 2 << 63 == 0, no bit left */
        return x ? (uint32_t)__builtin_ctzll(x) : n;
    }
    return next_bit(b, n, i + 1);
}

static void want_add(icnt *ic, uint32_t o, uint32_t i)
{
    bit_set(ic->want + (size_t)o * ic->wi, i);
    bit_set(ic->out_want, o);
}

static void want_del(icnt *ic, uint32_t o, uint32_t i)
{
    uint64_t *w = ic->want + (size_t)o * ic->wi;
    bit_clr(w, i);
    if (!any(w, ic->wi))
        bit_clr(ic->out_want, o);
}

icnt *icnt_create(const icnt_cfg *cfg, char *err, size_t n)
{
    if (!cfg->n_src || !cfg->n_dst || !cfg->flit || !cfg->in_buf || !cfg->out_buf) {
        if (err && n)
            snprintf(err, n, "bad interconnect parameters (ports, flit, buffers >= 1)");
        return NULL;
    }
    icnt *ic = calloc(1, sizeof *ic);
    uint32_t wi = (cfg->n_src + 63) / 64, wo = (cfg->n_dst + 63) / 64;
    if (!ic || !(ic->in = calloc(cfg->n_src, sizeof *ic->in)) ||
        !(ic->out = calloc(cfg->n_dst, sizeof *ic->out)) ||
        !(ic->rr = calloc(cfg->n_dst, sizeof *ic->rr)) ||
        !(ic->want = calloc((size_t)cfg->n_dst * wi, sizeof *ic->want)) ||
        !(ic->out_want = calloc(wo, sizeof *ic->out_want)) ||
        !(ic->in_busy_set = calloc(wi, sizeof *ic->in_busy_set)) ||
        !(ic->out_busy_set = calloc(wo, sizeof *ic->out_busy_set)) ||
        !(ic->out_t = malloc(cfg->n_dst * sizeof *ic->out_t)) ||
        !(ic->out_h = calloc(cfg->n_dst, sizeof *ic->out_h)) ||
        !(ic->in_used = calloc(cfg->n_src, sizeof *ic->in_used)) ||
        !(ic->in_freed = calloc(wi, sizeof *ic->in_freed)) ||
        !(ic->out_got = calloc(wo, sizeof *ic->out_got))) {
        icnt_destroy(ic);
        if (err && n)
            snprintf(err, n, "out of memory");
        return NULL;
    }
    ic->cfg = *cfg;
    ic->flit_shift = (cfg->flit & (cfg->flit - 1)) ? -1 : __builtin_ctz(cfg->flit);
    ic->flit_m = UINT64_MAX / cfg->flit + 1;   /* (a power of two has no use for it) */
    ic->wi = wi;
    ic->wo = wo;
    /* start each round-robin pointer on the last input, so input 0 is first */
    for (uint32_t o = 0; o < cfg->n_dst; o++) {
        ic->rr[o] = cfg->n_src - 1;
        ic->out_t[o] = UINT64_MAX;
    }
    return ic;
}

void icnt_destroy(icnt *ic)
{
    if (!ic)
        return;
    free(ic->in);
    free(ic->out);
    free(ic->rr);
    free(ic->want);
    free(ic->out_want);
    free(ic->in_busy_set);
    free(ic->out_busy_set);
    free(ic->out_t);
    free(ic->out_h);
    free(ic->in_used);
    free(ic->in_freed);
    free(ic->out_got);
    free(ic);
}

static inline uint32_t flits_of(const icnt *ic, uint32_t bytes)
{
    const uint32_t x = bytes + ic->cfg.flit - 1;
    uint32_t f = ic->flit_shift >= 0 ? x >> ic->flit_shift
                                     : (uint32_t)(((unsigned __int128)x * ic->flit_m) >> 64);
    return f ? f : 1;
}

uint32_t icnt_flits(const icnt *ic, uint32_t bytes) { return flits_of(ic, bytes); }

static inline int has_room(const icnt *ic, uint32_t src, uint32_t bytes)
{
    return src < ic->cfg.n_src && ic->in[src].used + flits_of(ic, bytes) <= ic->cfg.in_buf;
}

int icnt_has_room(const icnt *ic, uint32_t src, uint32_t bytes) { return has_room(ic, src, bytes); }

/* (asked every interconnect cycle by every SM whose miss records wait for room) */
int icnt_can_push(icnt *ic, uint32_t src, uint32_t bytes)
{
    int ok = has_room(ic, src, bytes);
    ic->st.refused += !ok;
    return ok;
}

static void set_head(port *p, const icnt_msg *m, int out)
{
    p->head_t = out ? m->t_arr : m->t_ready;
    p->head_dst = m->dst;
    p->head_flits = m->flits;
}

static void enqueue(port *p, icnt_msg *m, int out)
{
    m->next = NULL;
    if (p->tail) {
        p->tail->next = m;
    } else {
        p->head = m;
        set_head(p, m, out);
    }
    p->tail = m;
}

void icnt_push(icnt *ic, icnt_msg *m, uint32_t src, uint32_t dst, uint32_t bytes, uint64_t now,
               uint64_t ready)
{
    m->src = src;
    m->dst = dst;
    m->flits = flits_of(ic, bytes);
    m->t_push = now;
    m->t_ready = ready > now ? ready : now;
    m->t_arr = UINT64_MAX;
    port *ip = &ic->in[src];
    ic->idle_until = 0;
    if (!ip->head) {
        want_add(ic, dst, src);
        bit_set(ic->in_busy_set, src);
    }
    ip->used += m->flits;
    ic->in_used[src] = ip->used;
    enqueue(ip, m, 0);
    ic->inside++;
}

/* Grants input i's head to output o. */
static void grant(icnt *ic, uint32_t o, uint32_t i, uint64_t now)
{
    port *ip = &ic->in[i], *op = &ic->out[o];
    icnt_msg *m = ip->head;
    ip->head = m->next;
    want_del(ic, o, i);
    if (ip->head) {
        set_head(ip, ip->head, 0);
        want_add(ic, ip->head_dst, i);
    } else {
        ip->tail = NULL;
        bit_clr(ic->in_busy_set, i);
    }
    ip->used -= m->flits;
    ic->in_used[i] = ip->used;
    bit_set(ic->in_freed, i);
    ip->busy = op->busy = now + m->flits;
    op->used += m->flits;
    m->t_arr = now + ic->cfg.latency + m->flits;
    enqueue(op, m, 1);
    ic->out_t[o] = op->head_t;
    ic->out_h[o] = op->head;
    bit_set(ic->out_busy_set, o);
    bit_set(ic->out_got, o);
    ic->rr[o] = i;
    ic->st.grants++;
}

/* Whether input i's head can go to output op now; if not, and only time stands in the
 * way, the cycle it could go lowers *until (a head that does not fit op's buffer waits
 * for a pop at op instead, which clears idle_until). */
static inline int can_grant(const icnt *ic, const port *op, uint32_t i, uint64_t now, uint64_t *until)
{
    const port *ip = &ic->in[i];
    if (op->used + ip->head_flits > ic->cfg.out_buf)
        return 0;
    if (ip->head_t <= now && ip->busy <= now)
        return 1;
    uint64_t t = ip->head_t > ip->busy ? ip->head_t : ip->busy;
    if (t < *until)
        *until = t;
    return 0;
}

int icnt_cycle(icnt *ic, uint64_t now)
{
    if (now < ic->idle_until)
        return 0;
    int granted = 0;
    uint64_t until = UINT64_MAX;   /* while nothing is granted: no grant before this */
    const uint32_t ns = ic->cfg.n_src, nd = ic->cfg.n_dst;
    for (uint32_t o = next_bit(ic->out_want, nd, 0); o < nd; o = bit_after(ic->out_want, nd, o)) {
        port *op = &ic->out[o];
        if (op->busy > now) {
            if (op->busy < until)
                until = op->busy;
            continue;
        }
        /* a full buffer takes no head (every packet is a flit at least): can_grant
         * would refuse each one without a time to wait for */
        if (op->used >= ic->cfg.out_buf)
            continue;
        const uint64_t *w = ic->want + (size_t)o * ic->wi;
        /* round robin: inputs after the last one granted, then from 0 */
        uint32_t start = ic->rr[o] + 1 < ns ? ic->rr[o] + 1 : 0;
        if (ic->wi == 1) {
            /* one word of inputs (the common case): its bits from start, then below */
            const uint64_t lo = (1ull << start) - 1;   /* start < ns <= 64 */
            uint64_t part[2] = {w[0] & ~lo, w[0] & lo};
            int got = 0;
            for (uint32_t pass = 0; pass < 2 && !got; pass++)
                for (uint64_t x = part[pass]; x; x &= x - 1) {
                    uint32_t i = (uint32_t)__builtin_ctzll(x);
                    if (can_grant(ic, op, i, now, &until)) {
                        grant(ic, o, i, now);
                        granted++;
                        got = 1;
                        break;
                    }
                }
            continue;
        }
        for (uint32_t pass = 0; pass < 2; pass++) {
            uint32_t lo = pass ? 0 : start, hi = pass ? start : ns;
            uint32_t i;
            for (i = next_bit(w, hi, lo); i < hi; i = bit_after(w, hi, i))
                if (can_grant(ic, op, i, now, &until))
                    break;
            if (i < hi) {
                grant(ic, o, i, now);
                granted++;
                break;
            }
        }
    }
    ic->idle_until = granted ? 0 : until;
    return granted;
}

icnt_msg *icnt_peek(const icnt *ic, uint32_t dst, uint64_t now)
{
    const port *op = &ic->out[dst];
    return op->head && op->head_t <= now ? op->head : NULL;
}

icnt_msg *icnt_pop(icnt *ic, uint32_t dst, uint64_t now)
{
    port *op = &ic->out[dst];
    icnt_msg *m = op->head;
    if (!m || op->head_t > now)
        return NULL;
    op->head = m->next;
    if (op->head) {
        set_head(op, op->head, 1);
        ic->out_t[dst] = op->head_t;
    } else {
        op->tail = NULL;
        ic->out_t[dst] = UINT64_MAX;
        bit_clr(ic->out_busy_set, dst);
    }
    ic->out_h[dst] = op->head;
    op->used -= m->flits;
    ic->idle_until = 0;
    m->next = NULL;
    ic->inside--;
    ic->st.packets++;
    ic->st.kinds[m->kind & (ICNT_KINDS - 1)]++;
    ic->st.flits += m->flits;
    ic->st.lat_sum += now - m->t_push;
    return m;
}

uint64_t icnt_next(const icnt *ic, uint64_t now)
{
    /* (now + 1 is the earliest answer: the first term at or before it ends the search;
     * under backpressure one usually is) */
    uint64_t next = UINT64_MAX;
    const uint32_t ns = ic->cfg.n_src, nd = ic->cfg.n_dst;
    for (uint32_t o = next_bit(ic->out_busy_set, nd, 0); o < nd;
         o = bit_after(ic->out_busy_set, nd, o)) {
        uint64_t t = ic->out[o].head_t;
        if (t <= now + 1)
            return now + 1;
        if (t < next)
            next = t;
    }
    for (uint32_t i = next_bit(ic->in_busy_set, ns, 0); i < ns;
         i = bit_after(ic->in_busy_set, ns, i)) {
        const port *ip = &ic->in[i];
        const port *op = &ic->out[ip->head_dst];
        uint64_t t = ip->head_t;
        if (ip->busy > t)
            t = ip->busy;
        if (op->busy > t)
            t = op->busy;
        if (t <= now + 1 || op->used + ip->head_flits > ic->cfg.out_buf)
            return now + 1;       /* (the latter: waits for the receiver to pop) */
        if (t < next)
            next = t;
    }
    return next;
}

uint32_t icnt_in_use(const icnt *ic) { return ic->inside; }
uint32_t icnt_latency(const icnt *ic) { return ic->cfg.latency; }

uint32_t icnt_next_out(const icnt *ic, uint32_t from)
{
    return next_bit(ic->out_busy_set, ic->cfg.n_dst, from);
}
const uint64_t *icnt_out_set(const icnt *ic) { return ic->out_busy_set; }
const uint64_t *icnt_out_times(const icnt *ic) { return ic->out_t; }
icnt_msg *const *icnt_out_heads(const icnt *ic) { return ic->out_h; }
const uint32_t *icnt_in_used(const icnt *ic) { return ic->in_used; }
uint64_t *icnt_in_freed(icnt *ic) { return ic->in_freed; }
uint64_t *icnt_out_got(icnt *ic) { return ic->out_got; }

const icnt_msg *icnt_out_head(const icnt *ic, uint32_t dst)
{
    return dst < ic->cfg.n_dst ? ic->out[dst].head : NULL;
}
const icnt_stats *icnt_get_stats(const icnt *ic) { return &ic->st; }

void icnt_dump(const icnt *ic, FILE *f, const char *name)
{
    fprintf(f, "  %s: %u packets inside\n", name, ic->inside);
    for (uint32_t i = 0; i < ic->cfg.n_src; i++)
        if (ic->in[i].head)
            fprintf(f, "    in %u: %u/%u flits, head to %u ready %llu, link busy until %llu\n", i,
                    ic->in[i].used, ic->cfg.in_buf, ic->in[i].head->dst,
                    (unsigned long long)ic->in[i].head->t_ready,
                    (unsigned long long)ic->in[i].busy);
    for (uint32_t o = 0; o < ic->cfg.n_dst; o++)
        if (ic->out[o].head)
            fprintf(f, "    out %u: %u/%u flits, head arrives %llu\n", o, ic->out[o].used,
                    ic->cfg.out_buf, (unsigned long long)ic->out[o].head->t_arr);
}

void icnt_stats_reset(icnt *ic) { memset(&ic->st, 0, sizeof ic->st); }
