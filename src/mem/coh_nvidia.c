/* coh_nvidia.c - `nvidia`, the NVIDIA default protocol (coh.h): no coherence actions;
 * every cache level applies a write policy chosen per access, as Fermi does and as
 * warpsim modelled it before protocols were plug-ins (bit for bit).
 *
 * L1 (on_access at COH_L1D / L1C / L1I):
 *   load, global or local       read; allocate on miss
 *   load with .cg or .cv        bypass the L1: a read message to L2
 *   load from const / param     read (L1C)          instruction fetch: read (L1I)
 *   store, local                l1d.local_store  (Fermi: back), l1d.write_alloc (lazy)
 *   store, global               l1d.global_store (Fermi: evict)
 *   atomic                      bypass: performed at L2
 * L2 (on_access at COH_L2): every write and write-back with l2.store (back) and
 *   l2.write_alloc (lazy); atomics are performed there; fetches and reads read.
 * Line states: 0 I (allocated, no data yet, or invalidated), 1 V (no dirty bytes),
 *   2 M (dirty bytes); a line leaving the cache writes back iff it has dirty bytes.
 * Messages: nothing sends invalidations or forwards under this protocol; should one
 *   arrive, an invalidate drops the line (writing back dirty bytes) and is
 *   acknowledged, a forward is answered with the data (response), anything else is
 *   ignored. No directory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/cache.h"
#include "mem/coh.h"
#include "ptx/ir.h"
#include "util/config.h"

enum { NV_I, NV_V, NV_M };

typedef struct {
    uint8_t wpol_global, wpol_local, apol_l1, wpol_l2, apol_l2;
} nv_params;

static int policy(const char *v, const char *key, int apol, uint8_t *out, char *err, size_t n)
{
    int p = apol ? cache_apol_find(v) : cache_wpol_find(v);
    if (p < 0) {
        if (err && n)
            snprintf(err, n, "%s: unknown policy '%s' (%s)", key, v,
                     apol ? "none, fetch, lazy" : "back, through, evict");
        return -1;
    }
    *out = (uint8_t)p;
    return 0;
}

static int decode(const ws_config *cfg, nv_params *p, char *err, size_t n)
{
    return policy(cfg->l1d.global_store, "l1d.global_store", 0, &p->wpol_global, err, n) ||
                   policy(cfg->l1d.local_store, "l1d.local_store", 0, &p->wpol_local, err, n) ||
                   policy(cfg->l1d.write_alloc, "l1d.write_alloc", 1, &p->apol_l1, err, n) ||
                   policy(cfg->l2.store, "l2.store", 0, &p->wpol_l2, err, n) ||
                   policy(cfg->l2.write_alloc, "l2.write_alloc", 1, &p->apol_l2, err, n)
               ? -1
               : 0;
}

static int nv_check(const void *cfg, char *err, size_t n)
{
    nv_params p;
    return decode(cfg, &p, err, n);
}

static void *nv_create(const void *cfg, char *err, size_t n)
{
    nv_params *p = calloc(1, sizeof *p);
    if (!p) {
        if (err && n)
            snprintf(err, n, "out of memory");
        return NULL;
    }
    if (decode(cfg, p, err, n)) {
        free(p);
        return NULL;
    }
    return p;
}

static void nv_destroy(void *p) { free(p); }

static void nv_on_access(const void *pp, const coh_req *q, cache_acc *a)
{
    const nv_params *p = pp;
    if (q->level == COH_L2) {
        a->op = q->kind == MR_ATOMIC ? CQ_ATOMIC : q->kind == MR_STORE ? CQ_WRITE : CQ_READ;
        a->wpol = p->wpol_l2;
        a->apol = p->apol_l2;
        return;
    }
    switch (q->kind) {
    case MR_STORE:
        a->op = CQ_WRITE;
        a->wpol = q->space == SP_LOCAL ? p->wpol_local : p->wpol_global;
        a->apol = p->apol_l1;
        break;
    case MR_ATOMIC:
        a->op = CQ_ATOMIC;
        a->bypass = 1;     /* performed at L2 */
        break;
    default:
        a->op = CQ_READ;
        a->bypass = q->kind == MR_LOAD && (q->cop == CO_CG || q->cop == CO_CV);
        break;
    }
}

static uint8_t nv_line_state(uint8_t level, coh_event ev, uint8_t old, int dirty)
{
    (void)level, (void)ev, (void)old;
    return dirty ? NV_M : NV_V;
}

static int nv_on_evict(uint8_t level, uint8_t state, int dirty)
{
    (void)level, (void)state;
    return dirty;
}

static coh_msg_out nv_on_message(uint8_t level, uint8_t kind, uint8_t state, int dirty)
{
    (void)level, (void)dirty;
    coh_msg_out o = {state, 0, MSG_NONE};
    if (kind == MSG_INVALIDATE) {
        o.state = NV_I;
        o.drop = 1;
        o.reply = MSG_ACK;
    } else if (kind == MSG_FORWARD && state != NV_I) {
        o.reply = MSG_RESPONSE;
    }
    return o;
}

static const char *nv_state_name(uint8_t s)
{
    static const char *const names[] = {"I", "V", "M"};
    return s < 3 ? names[s] : "?";
}

const coh_ops coh_nvidia = {
    .name = "nvidia",
    .desc = "NVIDIA default: no coherence; write back / through / evict per access (l1d.* and "
            "l2.* keys), ld.cg/ld.cv bypass the L1, atomics at L2",
    .check = nv_check,
    .create = nv_create,
    .destroy = nv_destroy,
    .on_access = nv_on_access,
    .access_by_kind = 1,
    .line_state = nv_line_state,
    .on_evict = nv_on_evict,
    .on_message = nv_on_message,
    .dir_bytes = 0,
    .on_dir = NULL,
    .state_name = nv_state_name,
};
