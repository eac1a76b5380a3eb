/* simple.c - the stand-in memory model: every data request takes a fixed latency and
 * the memory accepts a fixed number of bytes per core cycle (all SMs together), so
 * bandwidth-bound kernels still queue. Instruction fetches always hit the L1I.
 * Constant-bank loads answer after core.lat_const (hits of a constant cache).
 * Nothing is ever refused: reservation fails need the detailed model. */
#include <stdlib.h>
#include <string.h>

#include "mem/memsys.h"
#include "ptx/ir.h"
#include "util/config.h"

typedef struct {
    mem_req *head, *tail;    /* in completion order (t_done is monotonic per queue) */
} fifo;

typedef struct {
    memsys base;
    uint32_t n_sm;
    uint64_t latency, l1_latency, const_latency;
    uint64_t bpc;            /* bytes per cycle                                  */
    uint64_t busy_x;         /* bandwidth clock: cycle x bpc at which it is free  */
    fifo *data, *inst, *cnst; /* per SM; each in completion order              */
    fifo *pend;              /* per SM: data requests of this cycle, timed at commit */
    uint64_t *in_flight;     /* per SM                                            */
    uint64_t *ifetches;      /* per SM                                            */
    int pending;             /* some pend[] is not empty: set by commit's caller's SMs
                                only through pend itself, checked by commit          */
    uint64_t reqs, bytes, lat_sum, loads, stores, atomics;
} simple_mem;

static void push(fifo *q, mem_req *r)
{
    r->next = NULL;
    if (q->tail)
        q->tail->next = r;
    else
        q->head = r;
    q->tail = r;
}

/* Its own parameters: rows of section [mem] (keys mem.simple_*), declared here. */
typedef struct {
    uint32_t latency;        /* mem.simple_latency                                */
    uint32_t bytes_per_cycle; /* mem.simple_bytes_per_cycle                       */
    uint32_t l1_latency;     /* mem.simple_l1_latency                             */
} simple_params;

static const ws_cfg_param simple_rows[] = {
    {"mem", "simple_latency", WS_CT_UINT, offsetof(simple_params, latency), "400", 1, 100000,
     NULL, "cycles", "simple model: core cycles from request to data"},
    {"mem", "simple_bytes_per_cycle", WS_CT_UINT, offsetof(simple_params, bytes_per_cycle),
     "128", 1, 1000000, NULL, "bytes",
     "simple model: bytes per core cycle the memory accepts (all SMs together)"},
    {"mem", "simple_l1_latency", WS_CT_UINT, offsetof(simple_params, l1_latency), "1", 0, 100000,
     NULL, "cycles", "simple model: extra cycles of an L1 instruction-cache access"},
    {0}};
static const ws_cfg_table simple_table = {"simple", simple_rows, sizeof(simple_params)};

/* Every key of the simple model is a number its parameter table range-checks already
 * (mem.simple_*, core.lat_const): nothing more to refuse. */
static int simple_check(const void *cfg, char *err, size_t n)
{
    (void)cfg, (void)err, (void)n;
    return 0;
}

/* The parameters arrive here, once per launch before any access (create() starts from
 * the table's defaults, so a memsys made without a launch still works). */
static int simple_launch(memsys *ms, const void *params, const mem_kernel *k, char *err,
                         size_t n)
{
    (void)k, (void)err, (void)n;
    simple_mem *m = (simple_mem *)ms;
    const simple_params *p = params;
    if (p) {
        m->latency = p->latency;
        m->l1_latency = p->l1_latency ? p->l1_latency : 1;
        m->bpc = p->bytes_per_cycle;
    }
    return 0;
}

static memsys *simple_create(const void *cfgp, uint32_t n_sm)
{
    const ws_config *cfg = cfgp;
    extern const mem_model mem_model_simple;
    simple_mem *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->base.ops = &mem_model_simple;
    m->n_sm = n_sm;
    /* the table's defaults until on_launch gives the configured values */
    m->latency = strtoul(simple_rows[0].def, NULL, 10);
    m->bpc = strtoul(simple_rows[1].def, NULL, 10);
    m->l1_latency = 1;
    m->const_latency = cfg->core.lat_const;
    m->data = calloc(n_sm, sizeof *m->data);
    m->inst = calloc(n_sm, sizeof *m->inst);
    m->cnst = calloc(n_sm, sizeof *m->cnst);
    m->pend = calloc(n_sm, sizeof *m->pend);
    m->in_flight = calloc(n_sm, sizeof *m->in_flight);
    m->ifetches = calloc(n_sm, sizeof *m->ifetches);
    if (!m->data || !m->inst || !m->cnst || !m->pend || !m->in_flight || !m->ifetches) {
        free(m->data);
        free(m->inst);
        free(m->cnst);
        free(m->pend);
        free(m->in_flight);
        free(m->ifetches);
        free(m);
        return NULL;
    }
    return &m->base;
}

static void simple_destroy(memsys *ms)
{
    simple_mem *m = (simple_mem *)ms;
    free(m->data);
    free(m->inst);
    free(m->cnst);
    free(m->pend);
    free(m->in_flight);
    free(m->ifetches);
    free(m);
}

/* A data request waits in its SM's pend queue until commit (the same core cycle): the
 * bandwidth clock is shared by all SMs, so requests take it in SM order whichever host
 * thread ran their SM. Nothing reads a data request's t_done before the next cycle
 * (latency >= 1). */
static mem_access simple_access(memsys *ms, mem_req *r, uint64_t cycle)
{
    simple_mem *m = (simple_mem *)ms;
    if (r->sm >= m->n_sm)
        return MA_MQF;
    r->t_issue = cycle;
    m->in_flight[r->sm]++;
    if (r->kind == MR_IFETCH || r->space == SP_CONST) {
        /* no caches, but instruction and constant-bank accesses are cache hits */
        int ifetch = r->kind == MR_IFETCH;
        r->t_done = cycle + (ifetch ? m->l1_latency : m->const_latency);
        push(ifetch ? &m->inst[r->sm] : &m->cnst[r->sm], r);
        m->ifetches[r->sm] += (uint64_t)ifetch;
        return MA_HIT;
    }
    push(&m->pend[r->sm], r);
    return MA_MISS;
}

static int simple_commit(memsys *ms, uint32_t s, uint64_t cycle)
{
    simple_mem *m = (simple_mem *)ms;
    (void)cycle;   /* each request is timed from its own t_issue */
    mem_req *r = m->pend[s].head;
    if (!r)
        return 0;
    m->pend[s].head = m->pend[s].tail = NULL;
    while (r) {
        mem_req *nx = r->next;
        /* the bandwidth clock counts in units of 1/bpc cycles */
        uint64_t now_x = r->t_issue * m->bpc;
        uint64_t start_x = m->busy_x > now_x ? m->busy_x : now_x;
        m->busy_x = start_x + r->size;
        uint64_t start = (start_x + m->bpc - 1) / m->bpc;
        r->t_done = start + m->latency;
        push(&m->data[s], r);
        m->reqs++;
        m->bytes += r->size;
        m->lat_sum += r->t_done - r->t_issue;
        m->loads += r->kind == MR_LOAD;
        m->stores += r->kind == MR_STORE;
        m->atomics += r->kind == MR_ATOMIC;
        r = nx;
    }
    return 1;   /* SM s's own next_event_sm (other SMs' answers do not depend on it) */
}

static mem_access simple_probe(const memsys *ms, const mem_req *r, uint64_t cycle)
{
    (void)cycle;
    return r->sm < ((const simple_mem *)ms)->n_sm ? (r->kind == MR_IFETCH ? MA_HIT : MA_MISS) : MA_MQF;
}

static mem_req *simple_pop(memsys *ms, uint32_t sm, uint64_t cycle)
{
    simple_mem *m = (simple_mem *)ms;
    fifo *qs[3] = {&m->inst[sm], &m->cnst[sm], &m->data[sm]};
    for (int i = 0; i < 3; i++) {
        mem_req *r = qs[i]->head;
        if (r && r->t_done <= cycle) {
            qs[i]->head = r->next;
            if (!qs[i]->head)
                qs[i]->tail = NULL;
            r->next = NULL;
            m->in_flight[sm]--;
            return r;
        }
    }
    return NULL;
}

static int simple_commit(memsys *ms, uint32_t s, uint64_t cycle);

static int simple_tick(memsys *ms, uint64_t cycle)
{
    simple_mem *m = (simple_mem *)ms;
    for (uint32_t s = 0; s < m->n_sm; s++)
        (void)simple_commit(ms, s, cycle);   /* a caller that has not (unit tests) */
    return 0;
}

static uint64_t simple_next(const memsys *ms, uint64_t cycle)
{
    const simple_mem *m = (const simple_mem *)ms;
    uint64_t next = UINT64_MAX;
    for (uint32_t s = 0; s < m->n_sm; s++) {
        const mem_req *q[3] = {m->inst[s].head, m->cnst[s].head, m->data[s].head};
        for (int i = 0; i < 3; i++)
            if (q[i] && q[i]->t_done < next)
                next = q[i]->t_done;
        if (m->pend[s].head)
            next = cycle + 1;   /* not committed yet: the next tick does */
    }
    return next <= cycle ? cycle + 1 : next;
}

static uint64_t simple_next_sm(const memsys *ms, uint32_t sm, uint64_t cycle)
{
    const simple_mem *m = (const simple_mem *)ms;
    uint64_t next = UINT64_MAX;
    const mem_req *q[3] = {m->inst[sm].head, m->cnst[sm].head, m->data[sm].head};
    for (int i = 0; i < 3; i++)
        if (q[i] && q[i]->t_done < next)
            next = q[i]->t_done;
    return next <= cycle ? cycle + 1 : next;
}

static uint64_t in_flight(const simple_mem *m)
{
    uint64_t n = 0;
    for (uint32_t s = 0; s < m->n_sm; s++)
        n += m->in_flight[s];
    return n;
}

static int simple_busy(const memsys *ms) { return in_flight((const simple_mem *)ms) != 0; }

static void simple_stats(const memsys *ms, cJSON *o)
{
    const simple_mem *m = (const simple_mem *)ms;
    cJSON_AddStringToObject(o, "model", "simple");
    cJSON_AddNumberToObject(o, "requests", (double)m->reqs);
    cJSON_AddNumberToObject(o, "loads", (double)m->loads);
    cJSON_AddNumberToObject(o, "stores", (double)m->stores);
    cJSON_AddNumberToObject(o, "atomics", (double)m->atomics);
    cJSON_AddNumberToObject(o, "bytes", (double)m->bytes);
    uint64_t ifetches = 0;
    for (uint32_t s = 0; s < m->n_sm; s++)
        ifetches += m->ifetches[s];
    cJSON_AddNumberToObject(o, "ifetches", (double)ifetches);
    cJSON_AddNumberToObject(o, "mean_latency", m->reqs ? (double)m->lat_sum / (double)m->reqs : 0.0);
}

static void simple_dump(const memsys *ms, FILE *f)
{
    const simple_mem *m = (const simple_mem *)ms;
    fprintf(f, "simple memory: %llu requests in flight\n", (unsigned long long)in_flight(m));
}

const mem_model mem_model_simple = {
    "simple", "fixed latency, bandwidth-limited memory (no caches)",
    simple_create, simple_destroy, simple_access, simple_probe, simple_pop, simple_tick,
    simple_next, simple_busy, simple_stats, simple_dump, simple_next_sm, simple_check,
    &simple_table, simple_launch,
    NULL, NULL, NULL,   /* created for every launch: no state kept */
    simple_commit, NULL,   /* its next_event_sm reads only the SM's own queues */
    NULL, NULL, NULL, NULL,   /* no partitions of its own: ticks whole */
    NULL, NULL,               /* no refusals to repeat */
    NULL,                     /* every request waits in its queues: no SM windows */
    NULL,                     /* nothing runs ahead of its ticks */
    NULL, NULL, NULL, NULL,   /* no threads of its own */
};
