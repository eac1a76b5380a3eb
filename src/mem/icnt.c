/* icnt.c - the crossbar (icnt.h). */
#include "mem/icnt.h"

#include <stdlib.h>

typedef struct {
    icnt_msg *head, *tail;
    uint32_t used;            /* flits buffered                                     */
    uint64_t busy;            /* link busy until this cycle                         */
} port;

struct icnt {
    icnt_cfg cfg;
    port *in, *out;
    uint32_t *rr;             /* per output: input granted last                     */
    uint32_t inside;
    icnt_stats st;
};

icnt *icnt_create(const icnt_cfg *cfg, char *err, size_t n)
{
    if (!cfg->n_src || !cfg->n_dst || !cfg->flit || !cfg->in_buf || !cfg->out_buf) {
        if (err && n)
            snprintf(err, n, "bad interconnect parameters (ports, flit, buffers >= 1)");
        return NULL;
    }
    icnt *ic = calloc(1, sizeof *ic);
    if (!ic || !(ic->in = calloc(cfg->n_src, sizeof *ic->in)) ||
        !(ic->out = calloc(cfg->n_dst, sizeof *ic->out)) ||
        !(ic->rr = calloc(cfg->n_dst, sizeof *ic->rr))) {
        icnt_destroy(ic);
        if (err && n)
            snprintf(err, n, "out of memory");
        return NULL;
    }
    ic->cfg = *cfg;
    /* start each round-robin pointer on the last input, so input 0 is first */
    for (uint32_t o = 0; o < cfg->n_dst; o++)
        ic->rr[o] = cfg->n_src - 1;
    return ic;
}

void icnt_destroy(icnt *ic)
{
    if (!ic)
        return;
    free(ic->in);
    free(ic->out);
    free(ic->rr);
    free(ic);
}

uint32_t icnt_flits(const icnt *ic, uint32_t bytes)
{
    uint32_t f = (bytes + ic->cfg.flit - 1) / ic->cfg.flit;
    return f ? f : 1;
}

int icnt_has_room(const icnt *ic, uint32_t src, uint32_t bytes)
{
    return src < ic->cfg.n_src && ic->in[src].used + icnt_flits(ic, bytes) <= ic->cfg.in_buf;
}

int icnt_can_push(icnt *ic, uint32_t src, uint32_t bytes)
{
    int ok = icnt_has_room(ic, src, bytes);
    ic->st.refused += !ok;
    return ok;
}

static void enqueue(port *p, icnt_msg *m)
{
    m->next = NULL;
    if (p->tail)
        p->tail->next = m;
    else
        p->head = m;
    p->tail = m;
}

void icnt_push(icnt *ic, icnt_msg *m, uint32_t src, uint32_t dst, uint32_t bytes, uint64_t now,
               uint64_t ready)
{
    m->src = src;
    m->dst = dst;
    m->flits = icnt_flits(ic, bytes);
    m->t_push = now;
    m->t_ready = ready > now ? ready : now;
    m->t_arr = UINT64_MAX;
    ic->in[src].used += m->flits;
    enqueue(&ic->in[src], m);
    ic->inside++;
}

int icnt_cycle(icnt *ic, uint64_t now)
{
    int granted = 0;
    const uint32_t ns = ic->cfg.n_src;
    for (uint32_t o = 0; o < ic->cfg.n_dst; o++) {
        port *op = &ic->out[o];
        if (op->busy > now)
            continue;
        for (uint32_t k = 1; k <= ns; k++) {
            uint32_t i = (ic->rr[o] + k) % ns;
            port *ip = &ic->in[i];
            icnt_msg *m = ip->head;
            if (!m || m->dst != o || m->t_ready > now || ip->busy > now ||
                op->used + m->flits > ic->cfg.out_buf)
                continue;
            ip->head = m->next;
            if (!ip->head)
                ip->tail = NULL;
            ip->used -= m->flits;
            ip->busy = op->busy = now + m->flits;
            op->used += m->flits;
            m->t_arr = now + ic->cfg.latency + m->flits;
            enqueue(op, m);
            ic->rr[o] = i;
            ic->st.grants++;
            granted++;
            break;
        }
    }
    return granted;
}

icnt_msg *icnt_peek(const icnt *ic, uint32_t dst, uint64_t now)
{
    icnt_msg *m = ic->out[dst].head;
    return m && m->t_arr <= now ? m : NULL;
}

icnt_msg *icnt_pop(icnt *ic, uint32_t dst, uint64_t now)
{
    port *op = &ic->out[dst];
    icnt_msg *m = op->head;
    if (!m || m->t_arr > now)
        return NULL;
    op->head = m->next;
    if (!op->head)
        op->tail = NULL;
    op->used -= m->flits;
    m->next = NULL;
    ic->inside--;
    ic->st.packets++;
    ic->st.flits += m->flits;
    ic->st.lat_sum += now - m->t_push;
    return m;
}

uint64_t icnt_next(const icnt *ic, uint64_t now)
{
    uint64_t next = UINT64_MAX;
    for (uint32_t o = 0; o < ic->cfg.n_dst; o++) {
        const icnt_msg *m = ic->out[o].head;
        if (m) {
            uint64_t t = m->t_arr > now ? m->t_arr : now + 1;
            if (t < next)
                next = t;
        }
    }
    for (uint32_t i = 0; i < ic->cfg.n_src; i++) {
        const port *ip = &ic->in[i];
        const icnt_msg *m = ip->head;
        if (!m)
            continue;
        const port *op = &ic->out[m->dst];
        uint64_t t = m->t_ready;
        if (ip->busy > t)
            t = ip->busy;
        if (op->busy > t)
            t = op->busy;
        if (op->used + m->flits > ic->cfg.out_buf)
            t = now + 1;          /* waits for the receiver to pop */
        if (t <= now)
            t = now + 1;
        if (t < next)
            next = t;
    }
    return next;
}

uint32_t icnt_in_use(const icnt *ic) { return ic->inside; }
uint32_t icnt_latency(const icnt *ic) { return ic->cfg.latency; }

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
