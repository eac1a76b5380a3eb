/* ldq.c - baseline and REOD request paths to the L1D (see ldq.h). */
#include "core/ldq.h"

#include <stdlib.h>
#include <string.h>

#include "ptx/ir.h"

typedef ldq_fifo fifo;

static void put(fifo *f, mem_req *r)
{
    r->next = NULL;
    if (f->tail)
        f->tail->next = r;
    else
        f->head = r;
    f->tail = r;
    f->len++;
}

/* A new head of a queue is read in the next cycle (its kind, its lookup): a request
 * pushed long ago, whose line the host's caches have mostly dropped since, so it is
 * asked for now, a whole GPU cycle ahead (NULL: a prefetch of nothing, harmless). */
static inline void head_prefetch(const mem_req *r) { __builtin_prefetch(r); }

static mem_req *take(fifo *f)
{
    mem_req *r = f->head;
    f->head = r->next;
    if (!f->head)
        f->tail = NULL;
    f->len--;
    head_prefetch(f->head);
    return r;
}

/* Unlinks f's head after memsys_access accepted it: the memory system owns its next
 * pointer from then on, so the caller read the rest of the queue before the access. */
static void unlink_head(fifo *f, mem_req *rest)
{
    f->head = rest;
    if (!rest)
        f->tail = NULL;
    f->len--;
    head_prefetch(rest);
}

ldq *ldq_create(uint32_t n_queues, uint32_t depth, uint32_t sets_per_queue, uint32_t l1_sets,
                uint32_t line)
{
    /* (whole host cache lines: a cycle reads the first ones) */
    ldq *q = aligned_alloc(64, (sizeof *q + 63) / 64 * 64);
    if (!q)
        return NULL;
    memset(q, 0, sizeof *q);
    q->n_q = n_queues;
    q->depth = depth ? depth : 1;
    q->sets_per_queue = sets_per_queue;
    q->l1_sets = l1_sets ? l1_sets : 1;
    q->line = line ? line : 128;
    if (n_queues && !(q->q = calloc(n_queues, sizeof *q->q))) {
        free(q);
        return NULL;
    }
    return q;
}

int ldq_set_latency_queue(ldq *q, uint32_t slots)
{
    if (!slots)
        return -1;
    uint64_t *t = calloc(slots, sizeof *t);
    if (!t)
        return -1;
    free(q->lat_t);
    q->lat_t = t;
    q->lat_slots = slots;
    q->lat_h = 0;
    q->lat_due = slots - 1;   /* (lat_t[0] is 0) */
    return 0;
}

static void drain(fifo *f)
{
    while (f->head)
        free(take(f));
}

void ldq_forget(ldq *q)
{
    if (!q)
        return;
    while (q->entry.head)
        (void)take(&q->entry);
    while (q->lat.head)
        (void)take(&q->lat);
    for (uint32_t i = 0; i < q->n_q; i++)
        while (q->q[i].head)
            (void)take(&q->q[i]);
}

void ldq_destroy(ldq *q)
{
    if (!q)
        return;
    drain(&q->entry);
    drain(&q->lat);
    for (uint32_t i = 0; i < q->n_q; i++)
        drain(&q->q[i]);
    free(q->q);
    free(q->lat_t);
    free(q);
}

void ldq_push(ldq *q, mem_req *r, uint64_t cycle)
{
    r->t_issue = cycle;   /* until sent: when it entered the path */
    put(&q->entry, r);
    q->held++;
}


static uint32_t queue_of(const ldq *q, uint64_t addr)
{
    uint32_t set = (uint32_t)((addr / q->line) % q->l1_sets);
    return q->sets_per_queue ? (set / q->sets_per_queue) % q->n_q : set % q->n_q;
}

/* t_entered: the request's ldq_push cycle, read before memsys_access (which sets
 * t_issue to the cycle the memory system took it). */
static void sent(ldq *q, const mem_req *r, uint64_t t_entered, uint64_t cycle)
{
    q->last_sent = r;
    q->st.queued_cycles += cycle - t_entered;
    q->st.sent++;
    q->held--;
}

static void refused(ldq *q, mem_access a)
{
    q->st.stall_cycles++;
    q->st.resfail[a - MA_CSF]++;
    q->inc |= 1ull << (32 + (a - MA_CSF));
}

static void full(ldq *q)
{
    q->st.full_cycles++;
    q->inc |= 1ull << 40;
}

/* The latency queue's oldest request left it: the next one's index and lookup cycle */
static inline void lat_advance(ldq *q)
{
    q->lat_h = q->lat_h + 1 == q->lat_slots ? 0 : q->lat_h + 1;
    q->lat_due = q->lat_t[q->lat_h] + q->lat_slots - 1;
}

/* REOD's selector: round robin over the queues from q->rr, sends the first head the
 * L1D accepts (memsys_probe, then memsys_access). Returns 1 when one was sent; else
 * sets *first to the first refusal seen (MA_HIT: every queue empty). */
static int reod_pick(ldq *q, memsys *m, uint64_t cycle, mem_access *first)
{
    for (uint32_t k = 0; k < q->n_q; k++) {
        uint32_t i = (q->rr + k) % q->n_q;
        fifo *f = &q->q[i];
        if (!f->head)
            continue;
        mem_access a = memsys_probe(m, f->head, cycle);
        if (!mem_access_refused(a)) {
            mem_req *r = f->head, *rest = r->next;   /* memsys owns r->next next */
            uint64_t t0 = r->t_issue;
            a = memsys_access(m, r, cycle);
            if (!mem_access_refused(a)) {
                unlink_head(f, rest);
                sent(q, r, t0, cycle);
                q->rr = (i + 1) % q->n_q;
                return 1;
            }
        }
        if (*first == MA_HIT)
            *first = a;
    }
    return 0;
}

/* Without REOD queues: the lookup of the latency queue's oldest request, due now (1:
 * the L1D took it; else *first is its refusal). */
static inline __attribute__((always_inline)) int lat_lookup(ldq *q, memsys *m, uint64_t cycle,
                                                            mem_access *first)
{
    mem_req *r = q->lat.head, *rest = r->next;   /* memsys owns r->next next */
    uint64_t t0 = r->t_issue;
    mem_access a = memsys_access(m, r, cycle);
    if (mem_access_refused(a)) {
        *first = a;
        return 0;
    }
    unlink_head(&q->lat, rest);
    lat_advance(q);
    q->st.queued_cycles += cycle - t0;
    q->st.sent++;
    q->held--;
    return 1;
}

/* The latency queue's step at the entry FIFO, after the lookup (1: its head moved), and
 * the end of the cycle (the refusal counted, *stalled). */
static inline __attribute__((always_inline)) int lat_entry(ldq *q, memsys *m, uint64_t cycle,
                                                           mem_access first, int *stalled)
{
    int progress = 0;
    mem_req *h = q->entry.head;
    if (h && (h->space == SP_CONST || h->space == SP_PARAM || h->kind == MR_ATOMIC ||
              h->cop == CO_CG)) {
        /* the constant cache is beside the L1D's latency queue (GPGPU-Sim's
         * constant_cycle), and atomics and .cg accesses bypass it (GPGPU-Sim gives
         * them CACHE_GLOBAL, sent from the LD/ST unit to the interconnect): accessed
         * from the head of the entry FIFO */
        mem_req *rest = h->next;   /* memsys owns h->next next */
        uint64_t t0 = h->t_issue;
        mem_access a = memsys_access(m, h, cycle);
        if (mem_access_refused(a)) {
            if (first == MA_HIT)
                first = a;
        } else {
            unlink_head(&q->entry, rest);
            sent(q, h, t0, cycle);
            progress = 1;
        }
    } else if (h && q->lat.len < q->lat_slots) {
        mem_req *r = take(&q->entry);
        uint32_t at = q->lat_h + q->lat.len;   /* (both below lat_slots: no division) */
        q->lat_t[at >= q->lat_slots ? at - q->lat_slots : at] = cycle;
        put(&q->lat, r);
        if (q->lat.len == 1)
            q->lat_due = cycle + q->lat_slots - 1;   /* (its oldest: at == lat_h) */
        q->last_sent = r;
        progress = 1;
    }
    if (first != MA_HIT)
        refused(q, first);
    *stalled = q->entry.len != 0;
    return progress;
}

/* The latency queue's cycle: the lookup of its oldest request, then the entry of the
 * oldest request of the entry FIFO (GPGPU-Sim's order: L1_latency_queue_cycle before
 * memory_cycle in ldst_unit::cycle, so a slot freed by a lookup is filled at once).
 * With REOD queues the oldest request, when due, moves into its set's queue instead
 * (or waits at the head while that queue is full), and the selector looks one up:
 * the same cycle as without REOD when nothing waits. */
static inline __attribute__((always_inline)) int lat_cycle(ldq *q, memsys *m, uint64_t cycle, int *stalled)
{
    int progress = 0;
    mem_access first = MA_HIT;   /* the cycle's first refusal (one stalled cycle) */
    int due = q->lat.head && q->lat_due <= cycle;
    if (q->n_q) {
        if (due) {
            fifo *f = &q->q[queue_of(q, q->lat.head->addr)];
            if (f->len < q->depth) {
                put(f, take(&q->lat));
                lat_advance(q);
                progress = 1;
            } else {
                full(q);
            }
        }
        if (reod_pick(q, m, cycle, &first)) {
            progress = 1;
            first = MA_HIT;       /* sent one: not a stalled cycle */
            q->last_sent = NULL;  /* it left the LD/ST unit when it entered the latency queue */
        }
    } else if (due) {
        progress = lat_lookup(q, m, cycle, &first);
    }
    return lat_entry(q, m, cycle, first, stalled) | progress;
}

/* (inline: ldq_cycle and ldq_cycle_snap are both this) */
static inline __attribute__((always_inline)) int cycle_in(ldq *q, memsys *m, uint64_t cycle, int *stalled)
{
    q->st.occupancy_sum += q->held;
    q->inc = q->held;
    q->last_sent = NULL;
    *stalled = 0;
    if (!q->held)
        return 0;
    if (q->lat_slots)
        return lat_cycle(q, m, cycle, stalled);
    if (!q->n_q) {
        mem_req *r = q->entry.head, *rest = r->next;   /* memsys owns r->next next */
        uint64_t t0 = r->t_issue;
        mem_access a = memsys_access(m, r, cycle);
        if (mem_access_refused(a)) {
            refused(q, a);
            *stalled = 1;
            return 0;
        }
        unlink_head(&q->entry, rest);
        sent(q, r, t0, cycle);
        return 1;
    }
    int progress = 0;
    while (q->entry.head) {
        fifo *f = &q->q[queue_of(q, q->entry.head->addr)];
        if (f->len >= q->depth) {
            full(q);
            break;
        }
        put(f, take(&q->entry));
        progress = 1;
    }
    mem_access first = MA_HIT;
    if (reod_pick(q, m, cycle, &first)) {
        *stalled = q->entry.len != 0;
        return 1;
    }
    if (first != MA_HIT)
        refused(q, first);
    *stalled = q->entry.len != 0;
    return progress;
}

int ldq_cycle(ldq *q, memsys *m, uint64_t cycle, int *stalled) { return cycle_in(q, m, cycle, stalled); }

int ldq_cycle_snap_busy(ldq *q, memsys *m, uint64_t cycle, int *stalled, const mem_req **sent)
{
    int progress = cycle_in(q, m, cycle, stalled);
    *sent = q->last_sent;
    return progress;
}

int ldq_cycle_snap_due(ldq *q, memsys *m, uint64_t cycle, int *stalled, const mem_req **sent_r)
{
    /* cycle_in and lat_cycle, knowing the case */
    q->st.occupancy_sum += q->held;
    q->inc = q->held;
    q->last_sent = NULL;
    mem_access first = MA_HIT;
    int progress = lat_lookup(q, m, cycle, &first);
    progress |= lat_entry(q, m, cycle, first, stalled);
    *sent_r = q->last_sent;
    return progress;
}

int ldq_cycle_snap_head(ldq *q, memsys *m, uint64_t cycle, int *stalled, const mem_req **sent_r)
{
    /* lat_cycle's steps with nothing due: the head's access only */
    q->st.occupancy_sum += q->held;
    q->inc = q->held;
    q->last_sent = NULL;
    mem_req *h = q->entry.head, *rest = h->next;   /* memsys owns h->next next */
    uint64_t t0 = h->t_issue;
    mem_access a = memsys_access(m, h, cycle);
    int progress = 0;
    if (mem_access_refused(a)) {
        refused(q, a);
    } else {
        unlink_head(&q->entry, rest);
        sent(q, h, t0, cycle);
        progress = 1;
    }
    *stalled = q->entry.len != 0;
    *sent_r = q->last_sent;
    return progress;
}
