/* dram.c - DRAM channel timing and scheduling (dram.h). */
#include "mem/dram.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t open;
    uint32_t row;
    uint64_t t_act;           /* earliest ACT                                       */
    uint64_t t_pre;           /* earliest PRE                                       */
    uint64_t t_col;           /* earliest RD/WR (ACT + tRCD)                        */
    uint32_t hits;            /* queued requests for the open row                   */
} bank;

struct dram {
    dram_cfg cfg;
    bank *bk;
    dram_req *qh, *qt;        /* waiting, in arrival order                          */
    uint32_t qn;
    dram_req *dh, *dt;        /* issued, in completion order                        */
    uint32_t dn;
    uint64_t t_act_any;       /* tRRD                                               */
    uint64_t t_col_any;       /* tCCD / burst                                       */
    uint64_t t_rd;            /* tWTR                                               */
    uint64_t t_wr;            /* tRTW                                               */
    uint64_t bus_free;        /* data bus free from                                 */
    uint64_t t_ref;           /* next refresh due                                   */
    uint64_t ref_until;       /* refresh in progress until                          */
    uint32_t min_burst;       /* cycles of one burst                                */
    dram_stats st;
};

static const char *const sched_names[] = {"frfcfs", "fifo"};

int dram_sched_find(const char *name)
{
    for (int i = 0; i < 2; i++)
        if (!strcmp(name, sched_names[i]))
            return i;
    return -1;
}

const char *dram_sched_name(int s) { return s >= 0 && s < 2 ? sched_names[s] : "?"; }

dram *dram_create(const dram_cfg *cfg, char *err, size_t n)
{
    if (!cfg->banks || cfg->banks > 64 || !cfg->queue || !cfg->bus_bytes || !cfg->beats_per_clk ||
        !cfg->burst_len || cfg->burst_len % cfg->beats_per_clk || (cfg->tREFI && !cfg->tRFC) ||
        (cfg->sched != DRAM_FRFCFS && cfg->sched != DRAM_FIFO)) {
        if (err && n)
            snprintf(err, n, "bad DRAM parameters (1..64 banks, queue >= 1, burst length a "
                             "multiple of the beats per clock, tRFC > 0 with refresh)");
        return NULL;
    }
    dram *d = calloc(1, sizeof *d);
    if (!d || !(d->bk = calloc(cfg->banks, sizeof *d->bk))) {
        free(d);
        if (err && n)
            snprintf(err, n, "out of memory");
        return NULL;
    }
    d->cfg = *cfg;
    d->min_burst = cfg->burst_len / cfg->beats_per_clk;
    d->t_ref = cfg->tREFI ? cfg->tREFI : UINT64_MAX;
    return d;
}

void dram_destroy(dram *d)
{
    if (!d)
        return;
    free(d->bk);
    free(d);
}

uint32_t dram_burst_cycles(const dram *d, uint32_t bytes)
{
    uint32_t per = d->cfg.bus_bytes * d->cfg.beats_per_clk;
    uint32_t c = (bytes + per - 1) / per;
    /* whole bursts */
    c = (c + d->min_burst - 1) / d->min_burst * d->min_burst;
    return c ? c : d->min_burst;
}

int dram_can_push(const dram *d) { return d->qn < d->cfg.queue; }
uint32_t dram_queued(const dram *d) { return d->qn; }
uint32_t dram_in_flight(const dram *d) { return d->qn + d->dn; }
const dram_stats *dram_get_stats(const dram *d) { return &d->st; }

void dram_push(dram *d, dram_req *r, uint64_t now, uint64_t ready)
{
    r->next = NULL;
    r->t_arr = ready > now ? ready : now;
    r->act = 0;
    r->bank %= d->cfg.banks;
    if (d->qt)
        d->qt->next = r;
    else
        d->qh = r;
    d->qt = r;
    d->qn++;
    bank *b = &d->bk[r->bank];
    if (b->open && b->row == r->row)
        b->hits++;
}

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Earliest cycle the column command of r may issue (its row open). */
static uint64_t col_time(const dram *d, const dram_req *r)
{
    const bank *b = &d->bk[r->bank];
    uint64_t t = max64(max64(b->t_col, d->t_col_any), r->t_arr);
    if (r->write) {
        t = max64(t, d->t_wr);
        if (d->bus_free > d->cfg.tWL)
            t = max64(t, d->bus_free - d->cfg.tWL);
    } else {
        t = max64(t, d->t_rd);
        if (d->bus_free > d->cfg.tCL)
            t = max64(t, d->bus_free - d->cfg.tCL);
    }
    return t;
}

/* Earliest cycle of the row command r needs (PRE if another row is open, else ACT). */
static uint64_t row_time(const dram *d, const dram_req *r)
{
    const bank *b = &d->bk[r->bank];
    if (b->open)
        return max64(b->t_pre, r->t_arr);
    return max64(max64(b->t_act, d->t_act_any), max64(r->t_arr, d->ref_until));
}

static int row_hit(const dram *d, const dram_req *r)
{
    const bank *b = &d->bk[r->bank];
    return b->open && b->row == r->row;
}

static void issue_col(dram *d, dram_req *r, dram_req *prev, uint64_t now)
{
    /* unlink */
    if (prev)
        prev->next = r->next;
    else
        d->qh = r->next;
    if (d->qt == r)
        d->qt = prev;
    d->qn--;
    bank *b = &d->bk[r->bank];
    b->hits--;
    uint32_t B = dram_burst_cycles(d, r->bytes);
    uint64_t start = now + (r->write ? d->cfg.tWL : d->cfg.tCL);
    r->t_issue = now;
    r->t_done = start + B;
    d->bus_free = r->t_done;
    d->t_col_any = now + (d->cfg.tCCD > B ? d->cfg.tCCD : B);
    if (r->write) {
        d->t_rd = max64(d->t_rd, r->t_done + d->cfg.tWTR);
        b->t_pre = max64(b->t_pre, r->t_done + d->cfg.tWR);
        d->st.writes++;
    } else {
        uint64_t w = r->t_done + d->cfg.tRTW;
        d->t_wr = max64(d->t_wr, w > d->cfg.tWL ? w - d->cfg.tWL : 0);
        b->t_pre = max64(b->t_pre, now + B);
        d->st.reads++;
        d->st.rd_lat_sum += r->t_done - r->t_arr;
    }
    d->st.row_hits += !r->act;
    d->st.busy += B;
    d->st.q_lat_sum += now - r->t_arr;
    r->next = NULL;
    if (d->dt)
        d->dt->next = r;
    else
        d->dh = r;
    d->dt = r;
    d->dn++;
}

static void do_act(dram *d, dram_req *r, uint64_t now)
{
    bank *b = &d->bk[r->bank];
    b->open = 1;
    b->row = r->row;
    b->t_col = now + d->cfg.tRCD;
    b->t_pre = now + d->cfg.tRAS;
    b->t_act = now + d->cfg.tRC;
    d->t_act_any = now + d->cfg.tRRD;
    b->hits = 0;
    for (dram_req *q = d->qh; q; q = q->next)
        b->hits += q->bank == r->bank && q->row == r->row;
    r->act = 1;
    d->st.acts++;
}

static void do_pre(dram *d, uint32_t k, uint64_t now)
{
    bank *b = &d->bk[k];
    b->open = 0;
    b->hits = 0;
    b->t_act = max64(b->t_act, now + d->cfg.tRP);
    d->st.pres++;
}

/* Refresh due: precharge the open banks (one per cycle, each when its tRAS / tWR /
 * burst allow), then refresh every bank at once. */
static int refresh(dram *d, uint64_t now)
{
    int open = 0;
    for (uint32_t k = 0; k < d->cfg.banks; k++)
        if (d->bk[k].open) {
            if (d->bk[k].t_pre <= now) {
                do_pre(d, k, now);
                return 1;
            }
            open = 1;
        }
    if (open)
        return 0;
    uint64_t ready = 0;
    for (uint32_t k = 0; k < d->cfg.banks; k++)
        ready = max64(ready, d->bk[k].t_act);
    if (ready > now)
        return 0;
    d->ref_until = now + d->cfg.tRFC;
    for (uint32_t k = 0; k < d->cfg.banks; k++)
        d->bk[k].t_act = d->ref_until;
    d->t_ref += d->cfg.tREFI;
    d->st.refreshes++;
    return 1;
}

int dram_cycle(dram *d, uint64_t now)
{
    if (now >= d->t_ref) {
        refresh(d, now);
        return 0;        /* housekeeping, not progress (the deadlock watchdog) */
    }
    if (!d->qh)
        return 0;
    if (d->cfg.sched == DRAM_FIFO) {
        dram_req *r = d->qh;
        if (r->t_arr > now)
            return 0;
        if (row_hit(d, r)) {
            if (col_time(d, r) > now)
                return 0;
            issue_col(d, r, NULL, now);
            return 1;
        }
        if (row_time(d, r) > now)
            return 0;
        if (d->bk[r->bank].open)
            do_pre(d, r->bank, now);
        else
            do_act(d, r, now);
        return 1;
    }
    /* FR-FCFS: the oldest row hit whose column command can issue ... */
    dram_req *prev = NULL;
    for (dram_req *r = d->qh; r; prev = r, r = r->next)
        if (r->t_arr <= now && row_hit(d, r) && col_time(d, r) <= now) {
            issue_col(d, r, prev, now);
            return 1;
        }
    /* ... else a row command for the oldest request of a bank; a bank with queued hits
     * for its open row is not precharged */
    uint64_t claimed = 0;
    for (dram_req *r = d->qh; r; r = r->next) {
        if (r->t_arr > now)
            continue;
        uint64_t bit = 1ull << r->bank;
        if (claimed & bit)
            continue;
        claimed |= bit;
        bank *b = &d->bk[r->bank];
        if (row_hit(d, r) || (b->open && b->hits) || row_time(d, r) > now)
            continue;
        if (b->open)
            do_pre(d, r->bank, now);
        else
            do_act(d, r, now);
        return 1;
    }
    return 0;
}

dram_req *dram_pop(dram *d, uint64_t now)
{
    dram_req *r = d->dh;
    if (!r || r->t_done > now)
        return NULL;
    d->dh = r->next;
    if (!d->dh)
        d->dt = NULL;
    d->dn--;
    r->next = NULL;
    return r;
}

uint64_t dram_next(const dram *d, uint64_t now)
{
    uint64_t next = UINT64_MAX;
    if (d->dh)
        next = d->dh->t_done;
    if (d->t_ref < next)
        next = d->t_ref;      /* refresh runs on schedule, busy or idle */
    if (d->t_ref <= now)
        return now + 1;
    for (const dram_req *r = d->qh; r; r = r->next) {
        uint64_t t = row_hit(d, r) ? col_time(d, r) : row_time(d, r);
        if (t < next)
            next = t;
        if (d->cfg.sched == DRAM_FIFO)
            break;
    }
    return next > now ? next : now + 1;
}

void dram_dump(const dram *d, FILE *f, const char *name)
{
    fprintf(f, "  %s: %u queued, %u issued; data bus free at %llu\n", name, d->qn, d->dn,
            (unsigned long long)d->bus_free);
    uint32_t i = 0;
    for (const dram_req *r = d->qh; r && i < 16; r = r->next, i++)
        fprintf(f, "    queue %u: %s bank %u row %u, %u bytes, arrived %llu\n", i,
                r->write ? "write" : "read", r->bank, r->row, r->bytes,
                (unsigned long long)r->t_arr);
    for (uint32_t k = 0; k < d->cfg.banks; k++)
        if (d->bk[k].open)
            fprintf(f, "    bank %u: row %u open\n", k, d->bk[k].row);
}
