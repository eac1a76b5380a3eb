/* sched_motrr.c - the memory-first family of seed 000 (Kim, Kim, Kim 2019):
 * MTO, MOTRR and MOTRR+Recency (SPEC section 2, docs/SCHEDULERS.md).
 *
 * "Memory warp": its next instruction is a memory instruction (cand is_mem);
 * "compute warp": any other. Memory warps that are ready go first, oldest first
 * (ties: lower slot). A memory warp refused because the LD/ST pipeline stalls is
 * not ready (WR_MEM_STALL), so the compute warps get the slot.
 *
 * MOTRR+Recency keeps one recency register per SM, as seed 000 defines it: one entry
 * per warp slot of the SM (48 on Fermi) with a saturating counter and an R bit, and
 * W_active counts the SM's assigned warps. The SM creates one instance per scheduler;
 * with sched.recency_per_sm (the default) the policy is SM-wide (sm_wide): every
 * instance sees the warp events of every slot and holds an identical copy of the
 * register. sched.recency_per_sm=false is the documented variant with one register per
 * scheduler over its own warps. Compute warps are ordered by Algorithm 1's priorities,
 * computed literally (rec_pick).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/sched.h"

#define NO_SLOT UINT32_MAX

/* Oldest ready memory warp (-1 if none) and the compute-warp round-robin start:
 * the first ready compute warp after slot `last` and the first one overall. */
typedef struct {
    int mem, after, first;
} scan;

static scan scan_cands(const sched_cand *c, uint32_t n, uint32_t last)
{
    scan r = {-1, -1, -1};
    for (uint32_t i = 0; i < n; i++) {
        if (c[i].reason != WR_READY)
            continue;
        if (c[i].is_mem) {
            if (r.mem < 0 || c[i].age < c[r.mem].age)
                r.mem = (int)i;
        } else {
            if (r.after < 0 && c[i].slot > last)
                r.after = (int)i;
            if (r.first < 0)
                r.first = (int)i;
        }
    }
    return r;
}

/* ---- MTO: memory warps oldest first, then the others oldest first ---------------- */

static void *dummy_create(uint32_t n_slots, const sched_params *p)
{
    (void)n_slots;
    (void)p;
    return malloc(1); /* stateless; create must not return NULL */
}

static void plain_destroy(void *st)
{
    free(st);
}

static int mto_pick(void *st, const sched_cand *c, uint32_t n, uint64_t cycle)
{
    (void)st;
    (void)cycle;
    int mem = -1, any = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (c[i].reason != WR_READY)
            continue;
        if (c[i].is_mem && (mem < 0 || c[i].age < c[mem].age))
            mem = (int)i;
        if (any < 0 || c[i].age < c[any].age)
            any = (int)i;
    }
    return mem >= 0 ? mem : any;
}

/* ---- MOTRR: memory warps oldest first, else compute warps in LRR order ------------ */

typedef struct {
    uint32_t last_c; /* compute warp issued last by this scheduler */
} motrr_st;

static void *motrr_create(uint32_t n_slots, const sched_params *p)
{
    (void)n_slots;
    (void)p;
    motrr_st *s = malloc(sizeof *s);
    if (s)
        s->last_c = NO_SLOT;
    return s;
}

static int motrr_pick(void *st, const sched_cand *c, uint32_t n, uint64_t cycle)
{
    (void)cycle;
    scan r = scan_cands(c, n, ((const motrr_st *)st)->last_c);
    return r.mem >= 0 ? r.mem : r.after >= 0 ? r.after : r.first;
}

static void motrr_on_issue(void *st, uint32_t slot, int is_mem, uint64_t cycle)
{
    (void)cycle;
    if (!is_mem)
        ((motrr_st *)st)->last_c = slot;
}

/* ---- MOTRR+Recency ---------------------------------------------------------------
 *
 * Counters: a warp's counter resets to 0 when one of its loads/stores completes and
 * every other active warp's counter increments, saturating at 2^bits - 1. A warp
 * starts saturated (no access completed yet). R = 1 for the K = floor(W_active *
 * num / den) active warps with the smallest counters, ties to the lower slot, so
 * when more would qualify the largest counter drops out. `order` keeps the active
 * slots sorted by (counter, slot); an event disturbs it little, so insertion sort
 * restores it in about O(W_active). */

/* Parameters of MOTRR+Recency ([sched] rows below). */
typedef struct {
    uint32_t bits;             /* counter width                                  */
    uint32_t num, den;         /* R = 1 for num/den of the active warps          */
    uint32_t max_num_warp;     /* priority offset MAX_NUM_WARP of Algorithm 1    */
    bool per_sm;               /* one register per SM (seed 000), else per scheduler */
} rec_params;

static const ws_cfg_param rec_rows[] = {
    {"sched", "recency_bits", WS_CT_UINT, offsetof(rec_params, bits), "6", 1, 16, NULL, "bits",
     "MOTRR+Recency: width of the saturating recency counter"},
    {"sched", "recency_num", WS_CT_UINT, offsetof(rec_params, num), "1", 0, 1024, NULL, "",
     "MOTRR+Recency: R = 1 for num/den of the active warps (numerator)"},
    {"sched", "recency_den", WS_CT_UINT, offsetof(rec_params, den), "2", 1, 1024, NULL, "",
     "MOTRR+Recency: denominator of that fraction"},
    {"sched", "max_num_warp", WS_CT_UINT, offsetof(rec_params, max_num_warp), "48", 1, 1024,
     NULL, "", "MOTRR+Recency: priority offset MAX_NUM_WARP of Algorithm 1"},
    {"sched", "recency_per_sm", WS_CT_BOOL, offsetof(rec_params, per_sm), "true", 0, 0, NULL, "",
     "MOTRR+Recency: one recency register per SM over all its warps (seed 000); false: one per "
     "scheduler over its own warps"},
    {0}};
static const ws_cfg_table rec_table = {"motrr-recency", rec_rows, sizeof(rec_params)};

typedef struct {
    uint32_t n_slots, last_c, n_act;
    uint32_t cmax, num, den, mnw;
    uint32_t *order; /* active slots by (counter, slot)  */
    uint16_t *cnt;
    uint8_t *act, *rbit;
} rec_st;

static void rec_destroy(void *st)
{
    rec_st *s = st;
    if (!s)
        return;
    free(s->order);
    free(s->cnt);
    free(s->act);
    free(s->rbit);
    free(s);
}

static void *rec_create(uint32_t n_slots, const sched_params *p)
{
    const rec_params *rp = p ? p->params : NULL;
    if (!rp || rp->bits < 1 || rp->bits > 16 || rp->den == 0)
        return NULL;
    rec_st *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    size_t n = n_slots ? n_slots : 1;
    s->n_slots = n_slots;
    s->last_c = NO_SLOT;
    s->cmax = (1u << rp->bits) - 1;
    s->num = rp->num;
    s->den = rp->den;
    s->mnw = rp->max_num_warp;
    s->order = calloc(n, sizeof *s->order);
    s->cnt = calloc(n, sizeof *s->cnt);
    s->act = calloc(n, 1);
    s->rbit = calloc(n, 1);
    if (!s->order || !s->cnt || !s->act || !s->rbit) {
        rec_destroy(s);
        return NULL;
    }
    return s;
}

static int rec_before(const rec_st *s, uint32_t a, uint32_t b)
{
    return s->cnt[a] < s->cnt[b] || (s->cnt[a] == s->cnt[b] && a < b);
}

/* Restores `order` and sets the R bits. */
static void rec_update(rec_st *s)
{
    uint32_t *o = s->order;
    for (uint32_t i = 1; i < s->n_act; i++) {
        uint32_t v = o[i], j = i;
        for (; j > 0 && rec_before(s, v, o[j - 1]); j--)
            o[j] = o[j - 1];
        o[j] = v;
    }
    uint64_t k = (uint64_t)s->n_act * s->num / s->den;
    for (uint32_t i = 0; i < s->n_act; i++)
        s->rbit[o[i]] = i < k;
}

static void rec_on_warp_start(void *st, uint32_t slot, uint64_t cycle)
{
    (void)cycle;
    rec_st *s = st;
    if (slot >= s->n_slots || s->act[slot])
        return;
    s->act[slot] = 1;
    s->cnt[slot] = (uint16_t)s->cmax;
    s->order[s->n_act++] = slot;
    rec_update(s);
}

static void rec_on_warp_end(void *st, uint32_t slot, uint64_t cycle)
{
    (void)cycle;
    rec_st *s = st;
    if (slot >= s->n_slots || !s->act[slot])
        return;
    s->act[slot] = 0;
    s->rbit[slot] = 0;
    for (uint32_t i = 0; i < s->n_act; i++)
        if (s->order[i] == slot) {
            memmove(&s->order[i], &s->order[i + 1], (s->n_act - i - 1) * sizeof *s->order);
            s->n_act--;
            break;
        }
    rec_update(s);
}

static void rec_on_mem_done(void *st, uint32_t slot, uint64_t cycle)
{
    (void)cycle;
    rec_st *s = st;
    if (slot >= s->n_slots || !s->act[slot])
        return;
    for (uint32_t i = 0; i < s->n_act; i++) {
        uint32_t w = s->order[i];
        if (s->cnt[w] < s->cmax)
            s->cnt[w]++;
    }
    s->cnt[slot] = 0;
    rec_update(s);
}

static void rec_on_issue(void *st, uint32_t slot, int is_mem, uint64_t cycle)
{
    (void)cycle;
    if (!is_mem)
        ((rec_st *)st)->last_c = slot;
}

/* Algorithm 1. Memory warps: Prior = GTO_prior, the highest for the oldest; they
 * form the first queue, so the oldest ready one issues. Compute warps: LRR_prior
 * = n - position in round-robin order (the warp after the last compute warp issued
 * has position 0), i.e. n .. 1 in steps of 1; Prior = LRR_prior with R = 1, else
 * LRR_prior - MAX_NUM_WARP. With n <= MAX_NUM_WARP every R = 1 warp outranks every
 * R = 0 one: round robin within the R = 1 group, then within the R = 0 group. Equal
 * Prior (possible only when n > MAX_NUM_WARP) goes to the R = 1 warp. */
static int rec_pick(void *st, const sched_cand *c, uint32_t n, uint64_t cycle)
{
    (void)cycle;
    const rec_st *s = st;
    uint32_t k = 0; /* position 0 */
    if (s->last_c != NO_SLOT)
        while (k < n && c[k].slot <= s->last_c)
            k++;
    if (k == n)
        k = 0;
    int mem = -1, best = -1;
    int64_t best_prior = 0;
    int best_r = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (c[i].reason != WR_READY)
            continue;
        if (c[i].is_mem) {
            if (mem < 0 || c[i].age < c[mem].age)
                mem = (int)i;
            continue;
        }
        int r = c[i].slot < s->n_slots && s->rbit[c[i].slot];
        int64_t lrr_prior = (int64_t)n - (i >= k ? i - k : i + n - k);
        int64_t prior = r ? lrr_prior : lrr_prior - (int64_t)s->mnw;
        if (best < 0 || prior > best_prior || (prior == best_prior && r && !best_r)) {
            best = (int)i;
            best_prior = prior;
            best_r = r;
        }
    }
    return mem >= 0 ? mem : best;
}

const sched_ops sched_mto = {
    .name = "mto",
    .desc = "memory then oldest: ready memory-instruction warps oldest first, then the others oldest first",
    .create = dummy_create,
    .destroy = plain_destroy,
    .pick = mto_pick,
    .ready_only = 1,
};

const sched_ops sched_motrr = {
    .name = "motrr",
    .desc = "memory oldest then round robin: memory-instruction warps oldest first, "
            "else compute warps in LRR order",
    .create = motrr_create,
    .destroy = plain_destroy,
    .pick = motrr_pick,
    .on_issue = motrr_on_issue,
    .ready_only = 1,
};

static int rec_sm_wide(const sched_params *p)
{
    const rec_params *rp = p ? p->params : NULL;
    return rp && rp->per_sm;
}

const sched_ops sched_motrr_recency = {
    .name = "motrr-recency",
    .desc = "MOTRR + recency register: compute warps whose loads/stores completed most "
            "recently (R bit) before the others, round robin within each group",
    .params = &rec_table,
    .create = rec_create,
    .destroy = rec_destroy,
    .pick = rec_pick,
    .on_issue = rec_on_issue,
    .on_mem_done = rec_on_mem_done,
    .on_warp_start = rec_on_warp_start,
    .on_warp_end = rec_on_warp_end,
    .sm_wide = rec_sm_wide,
};
