/* ldq.h - the request path between the LD/ST unit and the L1 data cache.
 *
 * Coalesced requests enter in issue order (ldq_push). Each cycle ldq_cycle sends at
 * most one of them to the memory system:
 *  - baseline (0 queues): the oldest request, or nothing when the L1D refuses it —
 *    one blocked request blocks every later one (head-of-line blocking, SPEC 1);
 *  - REOD (SPEC 5, seed 003): requests move in issue order into small FIFO queues,
 *    one per group of cache sets (waiting while their queue is full); a round-robin
 *    selector sends the first queue head that the L1D will accept (memsys_probe),
 *    skipping heads that would fail for CSF, MSHRF or MQF this cycle.
 * With a latency queue of D slots (ldq_set_latency_queue, l1d.latency_queue), a request leaves the entry FIFO into the latency queue (one per cycle, while
 * fewer than D wait there: it has then left the LD/ST unit, ldq_last_sent) and is
 * looked up in the L1D (memsys_access) D - 1 cycles later at the earliest, oldest
 * first, one per cycle; a refused lookup waits at the head and the queue fills up
 * behind it (GPGPU-Sim 4.2 ldst_unit::l1_latency_queue, L1_latency_queue_cycle).
 * With REOD queues as well, they sit behind the latency queue, at the lookup: its
 * oldest request, when due, moves into its set's queue (or waits at the head while
 * that queue is full: full_cycles), and the selector looks up one queue head per
 * cycle, in the same cycle when nothing waits — so the only difference from the
 * baseline is the order of the lookups.
 * Constant and parameter requests (the L1C), atomics and .cg accesses (which
 * GPGPU-Sim sends around the L1D) skip it: they are sent from the head of the entry
 * FIFO, in issue order.
 */
#ifndef WS_CORE_LDQ_H
#define WS_CORE_LDQ_H

#include <stdint.h>

#include "mem/memsys.h"
#include "ptx/ir.h"

typedef struct {
    uint64_t stall_cycles;      /* cycles with requests queued and none sent        */
    uint64_t resfail[3];        /* those cycles by the first refusal's cause:
                                   CSF, MSHRF, MQF                                  */
    uint64_t occupancy_sum;     /* requests held, summed per cycle                  */
    uint64_t queued_cycles;     /* cycles from ldq_push to sent, summed             */
    uint64_t sent;
    uint64_t full_cycles;       /* REOD: cycles the entry (with a latency queue: its
                                   due head) waited on a full queue                */
} ldq_stats;

typedef struct ldq ldq;

/* (the struct is here for ldq_cycle_snap's inline quiet cycles; only ldq.c writes it) */
typedef struct {
    mem_req *head, *tail;
    uint32_t len;
} ldq_fifo;

struct ldq {
    ldq_fifo entry;             /* issue order: the baseline queue / REOD's input */
    ldq_fifo *q;                /* REOD queues                                     */
    uint32_t n_q, depth, sets_per_queue, l1_sets, line, rr, held;
    ldq_fifo lat;               /* latency queue (lat_slots > 0)                   */
    uint64_t *lat_t;            /* its requests' entry cycles, a ring from lat_h   */
    uint32_t lat_slots, lat_h;
    uint64_t lat_due;           /* while lat holds a request: lat_t[lat_h] + lat_slots
                                   - 1, its oldest's lookup cycle (tested every cycle:
                                   here, not in lat_t's own line)                  */
    const mem_req *last_sent;   /* the request ldq_cycle sent this cycle, or NULL  */
    /* what the last cycle added to st (ldq_last_inc), one word written once per cycle:
     * bits 0-31 occupancy_sum's increment (the requests held), bit 32 + k a refusal
     * of cause MA_CSF + k (a stalled cycle), bit 40 a full_cycles increment */
    uint64_t inc;
    ldq_stats st;
};

/* n_queues 0 = baseline. Queue of a request: its L1D set (addr / line mod sets)
 * modulo n_queues, or set / sets_per_queue when sets_per_queue > 0. */
ldq *ldq_create(uint32_t n_queues, uint32_t depth, uint32_t sets_per_queue, uint32_t l1_sets,
                uint32_t line);
void ldq_destroy(ldq *q);                  /* frees requests still held            */
/* A latency queue of `slots` (>= 1) requests before the L1D lookup (and before the
 * REOD queues, if any). 0 on success, -1 when out of memory or slots is 0. */
int ldq_set_latency_queue(ldq *q, uint32_t slots);
/* Drops the requests held without freeing them (their owner frees them: the SM frees
 * every request it allocated when a launch stopped early). */
void ldq_forget(ldq *q);
void ldq_push(ldq *q, mem_req *r, uint64_t cycle);
/* Sends at most one request (ownership passes to the memory system). Returns 1 when
 * something moved, and sets *stalled when requests wait at the entry (the LD/ST unit
 * must not take more memory instructions this cycle). With a latency queue: looks up
 * at most one request and moves at most one from the entry into the queue. */
int ldq_cycle(ldq *q, memsys *m, uint64_t cycle, int *stalled);
/* ldq_cycle with ldq_last_sent into *sent: the two in one call (a core's every cycle). */
static inline int ldq_cycle_snap(ldq *q, memsys *m, uint64_t cycle, int *stalled,
                                 const mem_req **sent);
/* What the last ldq_cycle added to the counters (for idle skipping, which repeats it):
 * d = {stall_cycles, resfail[0], resfail[1], resfail[2], occupancy_sum, full_cycles}
 * (each but occupancy_sum 0 or 1: a cycle counts at most one refusal). All 0 before
 * the first cycle. Returns 0 when it added to occupancy_sum only. */
static inline int ldq_last_inc(const ldq *q, uint64_t d[6]);
static inline uint32_t ldq_len(const ldq *q);   /* requests held                 */
/* The cycle the latency queue's oldest request is due for its lookup (UINT64_MAX:
 * none waits there); an event for idle skipping. */
static inline uint64_t ldq_next_lookup(const ldq *q);
static inline uint32_t ldq_staged(const ldq *q);   /* of which not yet in a REOD queue */
static inline const ldq_stats *ldq_get_stats(const ldq *q);
/* The request the last ldq_cycle sent to the memory system (NULL: none). The memory
 * system owns it now; valid to read until its owner frees it. With a latency queue:
 * the request that entered the latency queue (it left the LD/ST unit; the ldq still
 * holds it). */
static inline const mem_req *ldq_last_sent(const ldq *q);

/* (the accessors inline: the SM reads them every cycle) */
static inline uint32_t ldq_len(const ldq *q) { return q->held; }
static inline uint32_t ldq_staged(const ldq *q) { return q->entry.len; }
static inline uint64_t ldq_next_lookup(const ldq *q)
{
    return q->lat.head ? q->lat_due : UINT64_MAX;
}
static inline const mem_req *ldq_last_sent(const ldq *q) { return q->last_sent; }
static inline const ldq_stats *ldq_get_stats(const ldq *q) { return &q->st; }
static inline int ldq_last_inc(const ldq *q, uint64_t d[6])
{
    const uint64_t x = q->inc;
    d[0] = (x >> 32 & 7) != 0;
    for (int k = 0; k < 3; k++)
        d[1 + k] = x >> (32 + k) & 1;
    d[4] = (uint32_t)x;
    d[5] = x >> 40 & 1;
    return (x >> 32) != 0;
}

/* ldq_cycle_snap's cycles that can move nothing, without a call: nothing held, or (no
 * REOD queues, a latency queue) its oldest request not yet due for its lookup and the
 * entry FIFO's head unable to move (none, or the latency queue full and the head not
 * one sent from the entry: constant, parameter, atomic, .cg). The counters and results
 * ldq_cycle would leave. */
int ldq_cycle_snap_busy(ldq *q, memsys *m, uint64_t cycle, int *stalled, const mem_req **sent);
/* ldq_cycle_snap's cycle (no REOD queues, a latency queue) with a lookup due: the usual
 * busy cycle of a stream of loads. */
int ldq_cycle_snap_due(ldq *q, memsys *m, uint64_t cycle, int *stalled, const mem_req **sent);
/* ldq_cycle_snap's cycle (no REOD queues, a latency queue) whose only step is the access
 * of the entry FIFO's head, one sent from the entry (constant, parameter, atomic, .cg),
 * while no lookup is due: an atomic retried until the L1D takes it, every cycle. */
int ldq_cycle_snap_head(ldq *q, memsys *m, uint64_t cycle, int *stalled, const mem_req **sent);

static inline int ldq_cycle_snap(ldq *q, memsys *m, uint64_t cycle, int *stalled,
                                 const mem_req **sent)
{
    if (q->held && q->lat_slots && !q->n_q) {
        if (q->lat.head && q->lat_due <= cycle)
            return ldq_cycle_snap_due(q, m, cycle, stalled, sent);
        const mem_req *h = q->entry.head;
        if (h) {
            if (h->space == SP_CONST || h->space == SP_PARAM || h->kind == MR_ATOMIC || h->cop == CO_CG)
                return ldq_cycle_snap_head(q, m, cycle, stalled, sent);
            if (q->lat.len < q->lat_slots)
                return ldq_cycle_snap_busy(q, m, cycle, stalled, sent);   /* h enters */
        }
        q->st.occupancy_sum += q->held;
        q->inc = q->held;
        q->last_sent = NULL;
        *stalled = q->entry.len != 0;
        *sent = NULL;
        return 0;
    }
    if (!q->held) {
        q->inc = 0;
        q->last_sent = NULL;
        *stalled = 0;
        *sent = NULL;
        return 0;
    }
    return ldq_cycle_snap_busy(q, m, cycle, stalled, sent);
}

#endif
