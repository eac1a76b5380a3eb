/* coh_si.c - `si`, AMD Southern Islands' relaxed coherence (SPEC 6; coh.h).
 *
 * Two message types, LOAD and STORE, each needing a free L1 MSHR entry (mshr_blocks: a
 * full MSHR refuses every access, hits included). GLC and SLC come from the PTX cache
 * operator (SPEC 6's mapping, a choice of the seed):
 *   ld.ca / default           GLC 0: may hit in L1; a miss fills the L1 line (LRU victim
 *                             invalidated, written back if dirty - never, the L1 being
 *                             write-through)
 *   ld.cg                     GLC 1: the L1 line is looked up and locked but the read
 *                             always goes to L2 (a forced miss; the fill refreshes it)
 *   ld.cv (ld.volatile)       GLC 1 + SLC 1: forced to main memory: the read bypasses the
 *                             L1 and the L2 (no allocation at either) and reads DRAM
 *   st.wb / default           GLC 0: written to L1 and L2 together: a full-line write
 *                             stays in the L1 (write-through: the L1 line holds no dirty
 *                             bytes), a partial-line write invalidates the L1 copy
 *   st.cg / st.wt             GLC 1: written to L2, the L1 copy invalidated
 *   atomics                   performed at L2; GLC 1 (PTX atom returns the old value: the
 *                             reply carries it)
 * A write that misses in L1 is sent to L2 without allocating (no line to invalidate).
 * Invalidations are local to the L1 and add no latency. The L2 repeats the procedure
 * with its own MSHR (GLC ignored), writes back with a per-byte dirty mask and lazy
 * allocation (a partial write needs no fetch) and writes back on eviction when the mask
 * is non-zero. L1C and L1I: read-only, as under `nvidia`.
 * Line states: 0 I, 1 V (clean), 2 M (dirty bytes: the L2 only). No directory. */
#include <stdlib.h>

#include "mem/cache.h"
#include "mem/coh.h"
#include "ptx/ir.h"

enum { SI_I, SI_V, SI_M };

static void *si_create(const void *cfg, char *err, size_t n)
{
    (void)cfg, (void)err, (void)n;
    static const int instance = 0;   /* no parameters: any non-NULL pointer */
    return (void *)&instance;
}

static void si_destroy(void *p) { (void)p; }

static void si_on_access(const void *p, const coh_req *q, cache_acc *a)
{
    (void)p;
    if (q->level == COH_L2) {
        a->op = q->kind == MR_ATOMIC ? CQ_ATOMIC : q->kind == MR_STORE ? CQ_WRITE : CQ_READ;
        a->wpol = CW_BACK;
        a->apol = CA_LAZY;
        /* SLC = 1 forces the read to main memory */
        a->bypass = q->kind == MR_LOAD && q->cop == CO_CV;
        return;
    }
    switch (q->kind) {
    case MR_STORE: {
        int glc = q->cop == CO_CG || q->cop == CO_WT;
        int full = q->line && a->size == q->line && a->addr % q->line == 0;
        a->op = CQ_WRITE;
        a->wpol = !glc && full ? CW_THROUGH : CW_EVICT;
        a->apol = CA_NONE;
        break;
    }
    case MR_ATOMIC:
        a->op = CQ_ATOMIC;
        a->bypass = 1;
        break;
    default:
        a->op = CQ_READ;
        if (q->kind == MR_LOAD && q->level == COH_L1D) {
            a->force = q->cop == CO_CG;    /* GLC 1 */
            a->bypass = q->cop == CO_CV;   /* GLC 1 + SLC 1 */
        }
        break;
    }
}

static uint8_t si_line_state(uint8_t level, coh_event ev, uint8_t old, int dirty)
{
    (void)level, (void)ev, (void)old;
    return dirty ? SI_M : SI_V;
}

static int si_on_evict(uint8_t level, uint8_t state, int dirty)
{
    (void)level, (void)state;
    return dirty;
}

static coh_msg_out si_on_message(uint8_t level, uint8_t kind, uint8_t state, int dirty)
{
    (void)level, (void)dirty;
    coh_msg_out o = {state, 0, MSG_NONE};
    if (kind == MSG_INVALIDATE) {
        o.state = SI_I;
        o.drop = 1;
        o.reply = MSG_ACK;
    }
    return o;
}

static const char *si_state_name(uint8_t s)
{
    static const char *const names[] = {"I", "V", "M"};
    return s < 3 ? names[s] : "?";
}

const coh_ops coh_si = {
    .name = "si",
    .desc = "AMD Southern Islands (SPEC 6): GLC/SLC from the PTX cache operator, write-through "
            "L1 (invalidated unless a full-line GLC=0 write), L2 write-back with per-byte dirty "
            "masks, a full MSHR blocks the cache",
    .create = si_create,
    .destroy = si_destroy,
    .on_access = si_on_access,
    .line_state = si_line_state,
    .on_evict = si_on_evict,
    .on_message = si_on_message,
    .state_name = si_state_name,
    .mshr_blocks = 1,
};
