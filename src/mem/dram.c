/* dram.c - DRAM channel timing and scheduling (dram.h). */
#include "mem/dram.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t t_act;           /* earliest ACT                                       */
    uint64_t t_pre;           /* earliest PRE                                       */
    uint64_t t_col;           /* earliest RD/WR (ACT + tRCD)                        */
    uint64_t head_arr, head_seq;   /* its oldest request's (scanned every cycle:
                                      kept here rather than read from the request) */
    uint64_t rt;              /* its row command's earliest cycle from the bank alone:
                                 open ? max(t_pre, head_arr) : max(t_act, head_arr)
                                 (bank_rt(); the channel's tRRD and refresh apply to
                                 a closed bank on top). Read only for a bank without
                                 queued hits, or (FIFO, whose column commands are the
                                 oldest request's) whose oldest request is no hit: not
                                 kept through column commands; col_last sets it again
                                 after a request's last, do_pre after a precharge    */
    uint32_t row, head_row;
    uint32_t hits;            /* queued requests for the open row                   */
    dram_req *fh[2];          /* its first queued read [0] and write [1] for the open
                                 row (NULL: none): the only hits FR-FCFS can pick, since
                                 arrival times never decrease along the queue         */
    uint8_t open;
    dram_req *qh, *qt;        /* its queued requests, in arrival order              */
    uint32_t id;              /* its index                                          */
} bank;

struct dram {
    dram_pub pub;             /* (first: dram_quiet reads it)                       */
    dram_cfg cfg;
    bank *bk;
    uint64_t busy_banks;      /* banks with queued requests                         */
    uint64_t open_banks;      /* banks with an open row                             */
    uint64_t hit_banks;       /* banks with queued requests for their open row      */
    uint64_t seq;
    uint32_t qn;
    dram_req *dh, *dt;        /* issued, in completion order                        */
    uint32_t dn;
    uint64_t t_act_any;       /* tRRD                                               */
    uint64_t t_col_any;       /* tCCD / burst                                       */
    uint32_t grp_mask;        /* bank_groups - 1                                    */
    uint32_t ccdl;            /* max(tCCD, tCCDL), tCCD with one group              */
    uint64_t t_rd;            /* tWTR                                               */
    uint64_t t_wr;            /* tRTW                                               */
    uint64_t bus_free;        /* data bus free from                                 */
    /* the channel's term of the column command of a read [0] and of a write [1], and the
     * earlier of them (gates_set: its terms change only where a column command issues) */
    uint64_t gate[2], gmin;
    uint64_t t_ref;           /* next refresh due                                   */
    uint64_t ref_until;       /* refresh in progress until                          */
    uint32_t min_burst;       /* cycles of one burst                                */
    /* FR-FCFS: no command for a request may issue before t_wait (wait_ok: it is
     * known): the earliest candidate found by the scan of a cycle that issued nothing,
     * a cheap lower bound after a command (the channel's column terms, row_wait),
     * lowered by a push, forgotten by a refresh. dram_cycle does nothing before it and
     * dram_next returns it without scanning again. FIFO scans every time (wait_ok 0). */
    uint64_t t_wait;
    int wait_ok;
    /* A lower bound of the row command of every bank that may need one (FR-FCFS: queued
     * requests, none for its open row): the scan's minimum (after a row command with
     * another ready: that command's cycle, row_cycle), lowered when a bank joins them (a
     * push to an idle bank, a bank's last hit issued, a precharge); commands only delay
     * the others'. */
    uint64_t row_wait;
    int per_shift, mb_shift;  /* log2 of bytes per cycle and of min_burst, or -1    */
    /* With hlb_exact, hlb is the earliest column command (col_time()) of the candidates:
     * the hit scan's result when none was ready, kept by a new candidate (fh_set) and
     * forgotten when one leaves or a column command issues (its terms change). While
     * it is later than now the scan would find nothing and is skipped. The bounds a
     * call leaves (t_wait, so pub.quiet and dram_next) stay those of the scan: the
     * memory system derives the SMs' wake-ups from them (a tighter bound changes when
     * a refused access is retried, so the statistics). */
    uint64_t hlb;
    int hlb_exact;
    /* issue_col's per-command terms of the last (bytes, commands) it saw: Bc, max(tCCD,
     * Bc), max(ccdl, Bc) (a request's commands, and most requests, share them) */
    uint64_t cc_key;          /* bytes << 8 | cmds (UINT64_MAX: none yet)            */
    uint32_t cc_k, cc_bc, cc_per, cc_perg;   /* (cc_k: the commands, max(cmds, 1))   */
    uint32_t lat[2];          /* tCL, tWL: a read's [0] and a write's [1] data latency */
    uint32_t bank_mask;       /* banks - 1 with banks a power of two (dram_push's bank
                                 without a division), else UINT32_MAX                 */
    /* (the arrays after the scalars: the scalars a cycle reads share few host cache
     * lines) */
    uint64_t t_col_grp[64];   /* per bank group: tCCDL / burst                      */
    /* every bank's rt and head_seq again, side by side: the FR-FCFS row scan reads
     * these (bank_rt and head_seq_set keep them); hseq[BQ_END] is UINT64_MAX, so that
     * cand_join's walk stops at the list's end without a test of its own */
    uint64_t rt[64], hseq[65];
    /* The row command candidates, busy_banks & ~hit_banks (kept under FIFO too, which
     * does not read it), in their oldest request's order, oldest first (bn / bp: next /
     * prev; BQ_END is the list's head and tail): the FR-FCFS row scan walks them, its
     * first ready one the oldest. cand_join and cand_leave keep it where either mask
     * changes. */
    uint8_t bn[65], bp[65];
    /* The FR-FCFS hit candidates, every bank's first read and first write hit (fh), as
     * slots 2 x bank + kind in a list by seq, oldest first (cn / cp: next / prev; HC_END
     * is the list's head and tail): the hit scan takes the first that may go. Per slot:
     * the bank's own term of its column command, max(t_col, t_arr) (col_time() less the
     * bank group's and the channel's: t_arr never changes, t_col only with the fh), and
     * its seq. fh_set keeps them. hs[HC_END] is 0, so that fh_set's walk stops at the
     * list's head without a test of its own. */
    uint64_t ht[128], hs[129];
    uint8_t cn[129], cp[129];
    dram_stats st;
};

enum { HC_END = 128, BQ_END = 64 };

static void quiet_set(dram *d);
/* dram_pub.room after qn changed: the places left in the queue */
static inline void room_set(dram *d) { d->pub.room = (int)d->cfg.queue - (int)d->qn; }
static void fh_set(dram *d, bank *b, int w, dram_req *r);

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
        (cfg->sched != DRAM_FRFCFS && cfg->sched != DRAM_FIFO) ||
        (cfg->bank_groups > 1 && ((cfg->bank_groups & (cfg->bank_groups - 1)) ||
                                  cfg->banks % cfg->bank_groups))) {
        if (err && n)
            snprintf(err, n, "bad DRAM parameters (1..64 banks, queue >= 1, burst length a "
                             "multiple of the beats per clock, tRFC > 0 with refresh, bank "
                             "groups a power of two dividing the banks)");
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
    for (uint32_t k = 0; k < cfg->banks; k++)
        d->bk[k].id = k;
    d->cn[HC_END] = d->cp[HC_END] = HC_END;
    d->hs[HC_END] = 0;   /* (calloc's already: the walk's stop) */
    d->bn[BQ_END] = d->bp[BQ_END] = BQ_END;
    d->hseq[BQ_END] = UINT64_MAX;
    d->hlb = UINT64_MAX;
    d->hlb_exact = 1;
    d->grp_mask = cfg->bank_groups > 1 ? cfg->bank_groups - 1 : 0;
    d->ccdl = cfg->bank_groups > 1 && cfg->tCCDL > cfg->tCCD ? cfg->tCCDL : cfg->tCCD;
    d->min_burst = cfg->burst_len / cfg->beats_per_clk;
    uint32_t per = cfg->bus_bytes * cfg->beats_per_clk;
    d->per_shift = per & (per - 1) ? -1 : __builtin_ctz(per);
    d->mb_shift = d->min_burst & (d->min_burst - 1) ? -1 : __builtin_ctz(d->min_burst);
    d->t_ref = cfg->tREFI ? cfg->tREFI : UINT64_MAX;
    d->row_wait = UINT64_MAX;
    d->cc_key = UINT64_MAX;
    d->lat[0] = cfg->tCL;
    d->lat[1] = cfg->tWL;
    d->bank_mask = cfg->banks & (cfg->banks - 1) ? UINT32_MAX : cfg->banks - 1;
    d->pub.t_pop = UINT64_MAX;
    room_set(d);
    quiet_set(d);
    return d;
}

void dram_destroy(dram *d)
{
    if (!d)
        return;
    free(d->bk);
    free(d);
}

static inline uint32_t burst_cycles(const dram *d, uint32_t bytes)
{
    uint32_t per = d->cfg.bus_bytes * d->cfg.beats_per_clk;
    uint32_t c = d->per_shift >= 0 ? (bytes + per - 1) >> d->per_shift : (bytes + per - 1) / per;
    /* whole bursts */
    c = d->mb_shift >= 0 ? (c + d->min_burst - 1) >> d->mb_shift << d->mb_shift
                         : (c + d->min_burst - 1) / d->min_burst * d->min_burst;
    return c ? c : d->min_burst;
}

uint32_t dram_burst_cycles(const dram *d, uint32_t bytes) { return burst_cycles(d, bytes); }

uint32_t dram_req_cycles(const dram *d, uint32_t bytes, uint32_t cmds)
{
    if (cmds <= 1)
        return dram_burst_cycles(d, bytes);
    uint32_t bc = dram_burst_cycles(d, bytes / cmds);
    uint32_t per = d->ccdl > bc ? d->ccdl : bc;
    return (cmds - 1) * per + bc;
}

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* pub.quiet again, after the channel changed: the earliest of the refresh, the oldest
 * issued request's completion (pub.t_pop) and (requests queued) t_wait, which
 * dram_cycle waits for; 0 while queued requests have no known t_wait (FIFO,
 * scan_always, after a refresh), so the caller asks every time. (pub.room and pub.t_pop
 * are kept where qn and the completion list change.) */
static void quiet_set(dram *d)
{
    uint64_t q = d->t_ref < d->pub.t_pop ? d->t_ref : d->pub.t_pop;
    if (d->qn) {
        if (!d->wait_ok)
            q = 0;
        else if (d->t_wait < q)
            q = d->t_wait;
    }
    d->pub.quiet = q;
}

/* b->rt again, after any of its terms changed */
static void bank_rt(dram *d, bank *b)
{
    b->rt = d->rt[b->id] = max64(b->open ? b->t_pre : b->t_act, b->head_arr);
}

static void head_seq_set(dram *d, bank *b, uint64_t seq) { b->head_seq = d->hseq[b->id] = seq; }

/* bank b becomes a row command candidate (busy, no hits; not one before): its place in
 * d->bn, before the first younger one, looked for from n on: the list's head (measured
 * shorter than from the tail on gups, as long on atax), or BQ_END for a push to an idle
 * bank (the newest request: the tail at once). */
static void cand_join(dram *d, const bank *b, uint32_t n)
{
    const uint64_t seq = b->head_seq;
    while (d->hseq[n] < seq)
        n = d->bn[n];
    const uint32_t p = d->bp[n];
    d->bn[b->id] = (uint8_t)n;
    d->bp[b->id] = (uint8_t)p;
    d->bp[n] = (uint8_t)b->id;
    d->bn[p] = (uint8_t)b->id;
}

/* bank b, a row command candidate, gets queued hits (a push for its open row, its ACT):
 * the only way out, as a candidate's queue never empties (only hits leave a queue) */
static inline void cand_leave(dram *d, const bank *b)
{
    d->bn[d->bp[b->id]] = d->bn[b->id];
    d->bp[d->bn[b->id]] = d->bp[b->id];
}

/* col_time() of hit candidate slot c (bank c / 2's first hit of kind c % 2): its bank's
 * term, its bank group's and the channel's */
static inline uint64_t slot_time(const dram *d, uint32_t c)
{
    return max64(max64(d->ht[c], d->t_col_grp[(c >> 1) & d->grp_mask]), d->gate[c & 1]);
}

/* b->fh[w] = r (NULL: none), and its slot in the hit candidates (d->ht) */
static inline void fh_set(dram *d, bank *b, int w, dram_req *r)
{
    const uint32_t c = b->id * 2 + (uint32_t)w;
    if (b->fh[w]) {
        d->cn[d->cp[c]] = d->cn[c];
        d->cp[d->cn[c]] = d->cp[c];
        d->hlb_exact = 0;
    }
    b->fh[w] = r;
    if (!r)
        return;
    d->ht[c] = max64(b->t_col, r->t_arr);
    d->hs[c] = r->seq;
    if (d->hlb_exact) {
        const uint64_t t = slot_time(d, c);
        if (t < d->hlb)
            d->hlb = t;
    }
    /* after the last older one, looked for from the tail (a push's hit, the newest
     * request, goes there at once) */
    const uint64_t seq = r->seq;
    uint32_t p = d->cp[HC_END];
    while (d->hs[p] > seq)
        p = d->cp[p];
    d->cn[c] = d->cn[p];
    d->cp[c] = (uint8_t)p;
    d->cp[d->cn[p]] = (uint8_t)c;
    d->cn[p] = (uint8_t)c;
}

uint32_t dram_queued(const dram *d) { return d->qn; }
uint32_t dram_in_flight(const dram *d) { return d->qn + d->dn; }
const dram_stats *dram_get_stats(const dram *d) { return &d->st; }

static void push_wait(dram *d, const dram_req *r);
static void row_join(dram *d, const bank *b);

void dram_push(dram *d, dram_req *r, uint64_t now, uint64_t ready)
{
    r->next = NULL;
    r->t_arr = ready > now ? ready : now;
    r->act = 0;
    r->ncol = 0;
    r->seq = d->seq++;
    r->bank = d->bank_mask != UINT32_MAX ? r->bank & d->bank_mask : r->bank % d->cfg.banks;
    bank *b = &d->bk[r->bank];
    r->prev = b->qt;
    if (b->qt) {
        b->qt->next = r;
    } else {
        b->qh = r;
        b->head_arr = r->t_arr;
        head_seq_set(d, b, r->seq);
        b->head_row = r->row;
        bank_rt(d, b);
    }
    b->qt = r;
    d->busy_banks |= 1ull << r->bank;
    d->qn++;
    room_set(d);
    if (b->open && b->row == r->row) {
        if (!b->hits++ && b->qh != r)
            cand_leave(d, b);   /* (busy without hits before: a candidate) */
        if (!b->fh[r->write])
            fh_set(d, b, r->write, r);
        d->hit_banks |= 1ull << r->bank;
    }
    if (b->qh == r && !(d->hit_banks >> r->bank & 1)) {
        cand_join(d, b, BQ_END);
        row_join(d, b);
    }
    push_wait(d, r);
    quiet_set(d);
}



/* d->gate and d->gmin again, after a column command (d->hlb: forgotten). The channel's
 * own term of a column command's earliest cycle: any column command and the read/write
 * turnaround; the data bus (bus_free less the command's latency) never adds to them:
 * after a command at `now` with Bc cycles of data, the next of its kind waits for
 * max(tCCD, Bc) >= Bc, so its data starts after the last, and one of the other kind
 * for tRTW / tWTR after the last's data end. */
static inline void gates_set(dram *d)
{
    d->gate[0] = max64(d->t_col_any, d->t_rd);
    d->gate[1] = max64(d->t_col_any, d->t_wr);
    d->gmin = d->gate[0] < d->gate[1] ? d->gate[0] : d->gate[1];
    d->hlb_exact = 0;
}

/* Earliest cycle the column command of r may issue (its row open). */
static uint64_t col_time(const dram *d, const dram_req *r)
{
    const bank *b = &d->bk[r->bank];
    uint64_t t = max64(b->t_col, r->t_arr);
    t = max64(t, d->t_col_grp[r->bank & d->grp_mask]);
    return max64(t, d->gate[r->write]);
}

/* Earliest cycle of the row command r needs (PRE if another row is open, else ACT). */
static uint64_t row_time(const dram *d, const dram_req *r)
{
    const bank *b = &d->bk[r->bank];
    if (b->open)
        return max64(b->t_pre, r->t_arr);
    return max64(max64(b->t_act, d->t_act_any), max64(r->t_arr, d->ref_until));
}

/* row_time() of bank k's oldest request, from the bank alone */
static uint64_t head_row_time(const dram *d, const bank *b)
{
    return b->open ? b->rt : max64(b->rt, max64(d->t_act_any, d->ref_until));
}

static int row_hit(const dram *d, const dram_req *r)
{
    const bank *b = &d->bk[r->bank];
    return b->open && b->row == r->row;
}

/* bank b (its oldest request) may need a row command from now on */
static void row_join(dram *d, const bank *b)
{
    uint64_t t = head_row_time(d, b);
    if (t < d->row_wait)
        d->row_wait = t;
}

/* t_wait after r was queued (FR-FCFS): r adds at most its own command as a candidate (if
 * it is its bank's first hit of its kind, or its bank's oldest request with no hits
 * queued). Any other change a push makes (a first hit hides its bank's row command)
 * only delays candidates: t_wait stays a lower bound. */
static void push_wait(dram *d, const dram_req *r)
{
    const bank *b = &d->bk[r->bank];
    uint64_t t;
    if (d->cfg.scan_always || d->cfg.sched == DRAM_FIFO)
        return;
    if (d->qn == 1) {
        d->wait_ok = 1;
        d->t_wait = UINT64_MAX;
    } else if (!d->wait_ok) {
        return;
    }
    if (b->fh[r->write] == r)
        t = col_time(d, r);
    else if (b->qh == r && !(d->hit_banks >> r->bank & 1))
        t = head_row_time(d, b);
    else
        return;
    if (t < d->t_wait)
        d->t_wait = t;
}

/* r is a row hit, the first queued one of its kind (b->fh[r->write]): one of its column
 * commands issues. It stays queued (its bank's first hit of its kind) until its last,
 * then leaves the queue for the completion list; between its commands the scheduler may
 * pick any other hit that may go. */
static void col_last(dram *d, dram_req *r, uint64_t end, uint64_t busy);

/* (out of line: dram_cycle's frame stays small for its calls without a column command) */
static __attribute__((noinline)) void issue_col(dram *d, dram_req *r, uint64_t now)
{
    bank *b = &d->bk[r->bank];
    const uint64_t key = (uint64_t)r->bytes << 8 | r->cmds;
    if (key != d->cc_key) {
        const uint32_t k = r->cmds > 1 ? r->cmds : 1;
        const uint32_t bc = burst_cycles(d, r->bytes / k);
        d->cc_key = key;
        d->cc_k = k;
        d->cc_bc = bc;
        d->cc_per = d->cfg.tCCD > bc ? d->cfg.tCCD : bc;
        d->cc_perg = d->ccdl > bc ? d->ccdl : bc;
    }
    const uint32_t Bc = d->cc_bc, per = d->cc_per, per_g = d->cc_perg;
    uint64_t end = now + d->lat[r->write] + Bc;
    if (!r->ncol)
        r->t_issue = now;
    d->bus_free = end;
    d->t_col_any = now + per;
    d->t_col_grp[r->bank & d->grp_mask] = now + per_g;
    if (r->write) {
        d->t_rd = max64(d->t_rd, end + d->cfg.tWTR);
        b->t_pre = max64(b->t_pre, end + d->cfg.tWR);
    } else {
        uint64_t w = end + d->cfg.tRTW;
        d->t_wr = max64(d->t_wr, w > d->cfg.tWL ? w - d->cfg.tWL : 0);
        b->t_pre = max64(b->t_pre, now + Bc);
    }
    gates_set(d);
    /* (b->rt waits for col_last: b has hits) */
    if (++r->ncol < d->cc_k)
        return;
    col_last(d, r, end, (uint64_t)d->cc_k * Bc);
}

/* r's last column command issued (its data ends at `end`, busy: its data cycles): r
 * leaves its bank's queue for the completion list */
static __attribute__((noinline)) void col_last(dram *d, dram_req *r, uint64_t end, uint64_t busy)
{
    bank *b = &d->bk[r->bank];
    r->t_done = end;
    dram_req *prev = r->prev;
    /* the bank's next hit of r's kind (none if r is its last hit) */
    dram_req *nh = b->hits > 1 ? r->next : NULL;
    while (nh && (nh->row != b->row || nh->write != r->write))
        nh = nh->next;
    fh_set(d, b, r->write, nh);
    if (r->next)
        r->next->prev = prev;
    if (prev) {
        prev->next = r->next;
    } else {
        b->qh = r->next;
        if (b->qh) {
            b->head_arr = b->qh->t_arr;
            head_seq_set(d, b, b->qh->seq);
            b->head_row = b->qh->row;
        }
    }
    if (b->qt == r)
        b->qt = prev;
    if (!b->qh)
        d->busy_banks &= ~(1ull << r->bank);
    d->qn--;
    room_set(d);
    if (!--b->hits)
        d->hit_banks &= ~(1ull << r->bank);
    if (r->write) {
        d->st.writes++;
    } else {
        d->st.reads++;
        d->st.rd_lat_sum += r->t_done - r->t_arr;
    }
    d->st.row_hits += !r->act;
    d->st.busy += busy;
    d->st.q_lat_sum += r->t_issue - r->t_arr;
    bank_rt(d, b);
    if (!b->hits && b->qh) {
        cand_join(d, b, d->bn[BQ_END]);
        row_join(d, b);
    }
    r->next = NULL;
    if (d->dt)
        d->dt->next = r;
    else
        d->dh = r;
    d->dt = r;
    d->pub.t_pop = d->dh->t_done;   /* (the list's head: r, or one before it) */
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
    dram_req *fh[2] = {NULL, NULL};
    for (dram_req *q = b->qh; q; q = q->next)
        if (q->row == r->row) {
            b->hits++;
            if (!fh[q->write])
                fh[q->write] = q;
        }
    fh_set(d, b, 0, fh[0]);
    fh_set(d, b, 1, fh[1]);
    /* (r, the bank's oldest request, is a hit now: the bank was a candidate) */
    cand_leave(d, b);
    d->hit_banks |= 1ull << r->bank;
    r->act = 1;
    d->open_banks |= 1ull << r->bank;
    bank_rt(d, b);
    d->st.acts++;
}

static void do_pre(dram *d, uint32_t k, uint64_t now)
{
    bank *b = &d->bk[k];
    if (b->hits)
        cand_join(d, b, d->bn[BQ_END]);   /* (a refresh's or FIFO's: queued hits, now none) */
    b->open = 0;
    b->hits = 0;
    fh_set(d, b, 0, NULL);
    fh_set(d, b, 1, NULL);
    d->hit_banks &= ~(1ull << k);
    b->t_act = max64(b->t_act, now + d->cfg.tRP);
    d->open_banks &= ~(1ull << k);
    bank_rt(d, b);
    if (b->qh)
        row_join(d, b);
    d->st.pres++;
}

/* Refresh due: precharge the open banks (one per cycle, each when its tRAS / tWR /
 * burst allow), then refresh every bank at once. */
static __attribute__((noinline)) int refresh(dram *d, uint64_t now)
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
    for (uint32_t k = 0; k < d->cfg.banks; k++) {
        d->bk[k].t_act = d->ref_until;
        bank_rt(d, &d->bk[k]);
    }
    d->t_ref += d->cfg.tREFI;
    d->st.refreshes++;
    return 1;
}

/* The oldest request's command (FIFO), or UINT64_MAX with none */
static uint64_t fifo_time(const dram *d, dram_req **rp)
{
    uint32_t kb = 0;
    uint64_t seq = UINT64_MAX;
    for (uint64_t m = d->busy_banks; m; m &= m - 1) {
        uint32_t k = (uint32_t)__builtin_ctzll(m);
        if (d->bk[k].head_seq < seq) {
            seq = d->bk[k].head_seq;
            kb = k;
        }
    }
    if (seq == UINT64_MAX)
        return UINT64_MAX;
    dram_req *r = d->bk[kb].qh;
    *rp = r;
    return row_hit(d, r) ? col_time(d, r) : row_time(d, r);
}

/* t_wait = t, and no sooner than the next cycle (after a command at now, or a cycle with
 * nothing to issue) */
static void set_wait(dram *d, uint64_t now, uint64_t t)
{
    if (d->cfg.scan_always)
        return;
    d->t_wait = t > now ? t : now + 1;
    d->wait_ok = 1;
}

/* FR-FCFS when no row hit may go at now (hwait: a lower bound of their column commands,
 * all of them if nothing issues): a row command for the oldest request of a bank, the
 * oldest such bank first; a bank with queued hits for its open row is not precharged; a
 * closed bank waits for tRRD and refresh (ta) as well (while ta > now, ta stands for every
 * closed bank's cycle, a lower bound, not scanned). One pass over the candidates (while
 * ta > now the open ones, by mask; else all of them oldest first, d->bn, up to a second
 * ready one) finds the oldest ready one (kb), whether another is ready, and (none is) the
 * earliest cycle of those not ready (tn). After kb's command row_wait is the others'
 * earliest: tn when kb was the only one ready, else some ready one's cycle, at most now,
 * for which now stands (a row_wait at or before the cycle it was set acts the same
 * whatever its value: every later use takes a minimum with it and clamps to the cycle
 * after its own, or replaces it). */
static __attribute__((noinline)) int row_cycle(dram *d, uint64_t now, uint64_t hwait)
{
    const uint64_t cand = d->busy_banks & ~d->hit_banks;
    const uint64_t ta = max64(d->t_act_any, d->ref_until);
    uint64_t tn = UINT64_MAX;
    uint32_t kb = 0, ready = 0;
    if (ta > now) {
        /* the open candidates (few), by mask */
        uint64_t seq = UINT64_MAX;
        if (cand & ~d->open_banks)
            tn = ta;
        for (uint64_t m = cand & d->open_banks; m; m &= m - 1) {
            const uint32_t k = (uint32_t)__builtin_ctzll(m);
            const uint64_t rt = d->rt[k];
            if (rt <= now) {
                ready++;
                if (d->hseq[k] < seq) {
                    seq = d->hseq[k];
                    kb = k;
                }
            } else if (rt < tn) {
                tn = rt;
            }
        }
    } else {
        /* every candidate, oldest first (d->bn): the first ready is kb, a second ends
         * the walk (tn is not needed then) */
        for (uint32_t k = d->bn[BQ_END]; k != BQ_END; k = d->bn[k]) {
            const uint64_t rt = d->rt[k];
            if (rt <= now) {
                if (ready++)
                    break;
                kb = k;
            } else if (rt < tn) {
                tn = rt;
            }
        }
    }
    if (!ready) {
        /* nothing issues: every candidate's cycle is later than now */
        d->row_wait = tn;
        if (!d->cfg.scan_always) {
            d->t_wait = hwait < tn ? hwait : tn;
            d->wait_ok = 1;
        }
        return 0;
    }
    /* the others', then the bank's own (do_pre) or its new hits' (do_act) */
    d->row_wait = ready > 1 ? now : tn;
    if (d->bk[kb].open) {
        do_pre(d, kb, now);
    } else {
        do_act(d, d->bk[kb].qh, now);
        hwait = hwait < d->bk[kb].t_col ? hwait : d->bk[kb].t_col;
    }
    set_wait(d, now, hwait < d->row_wait ? hwait : d->row_wait);
    return 1;
}

/* FIFO: the oldest request overall (the bank head with the lowest sequence number) */
static __attribute__((noinline)) int fifo_cycle(dram *d, uint64_t now)
{
    dram_req *r = NULL;
    if (fifo_time(d, &r) > now)
        return 0;
    if (row_hit(d, r))
        issue_col(d, r, now);
    else if (d->bk[r->bank].open)
        do_pre(d, r->bank, now);
    else
        do_act(d, r, now);
    return 1;
}

static int cycle_body(dram *d, uint64_t now)
{
    if (now >= d->t_ref) {
        d->wait_ok = 0;
        d->t_wait = 0;
        refresh(d, now);
        return 0;        /* housekeeping, not progress (the deadlock watchdog) */
    }
    if (!d->qn || now < d->t_wait)
        return 0;
    if (d->cfg.sched == DRAM_FIFO)
        return fifo_cycle(d, now);
    /* FR-FCFS: the oldest row hit whose column command can issue (of a bank, its first
     * read or first write hit: a later hit of the same kind arrived no earlier, so it
     * is no sooner ready) ... The earliest cycle of each candidate is col_time(): the
     * bank's own term (d->ht), its group's and the channel's (d->gate). hwait: a lower
     * bound of every hit's column command (all of them if nothing issues). */
    uint64_t hwait = UINT64_MAX;
    if (d->hit_banks) {
        if (d->gmin > now) {
            /* no column command can go (as right after one): each waits gmin at least */
            hwait = d->gmin;
        } else if (d->hlb_exact && d->hlb > now && !d->cfg.scan_always) {
            /* none is ready: the scan would find nothing and hwait = hlb (scan_always:
             * scanned all the same, the reference for it) */
            hwait = d->hlb;
        } else {
            /* oldest first (d->cn): the first that may go is the oldest ready hit; with
             * none, hwait is the earliest of them all */
            uint32_t c = d->cn[HC_END];
            for (; c != HC_END; c = d->cn[c]) {
                const uint64_t t = slot_time(d, c);
                if (t <= now)
                    break;
                if (t < hwait)
                    hwait = t;
            }
            if (c != HC_END) {
                issue_col(d, d->bk[c >> 1].fh[c & 1], now);
                /* the next: a hit when the channel's terms allow, or a row command */
                uint64_t t = d->row_wait;
                if (d->hit_banks && d->gmin < t)
                    t = d->gmin;
                set_wait(d, now, t);
                return 1;
            }
            d->hlb = hwait;
            d->hlb_exact = 1;
        }
    }
    return row_cycle(d, now, hwait);
}

int dram_cycle(dram *d, uint64_t now)
{
    if (now < d->t_ref && (!d->qn || now < d->t_wait))
        return 0;   /* (cycle_body's own first test, true before pub.quiet: nothing
                       changes) */
    int cmd = cycle_body(d, now);
    quiet_set(d);
    return cmd;
}

dram_req *dram_pop(dram *d, uint64_t now)
{
    dram_req *r = d->dh;
    if (!r || r->t_done > now)
        return NULL;
    d->dh = r->next;
    if (!d->dh)
        d->dt = NULL;
    d->pub.t_pop = d->dh ? d->dh->t_done : UINT64_MAX;
    d->dn--;
    r->next = NULL;
    quiet_set(d);
    return r;
}

uint64_t dram_next(const dram *d, uint64_t now)
{
    if (now < d->pub.quiet)
        return d->pub.quiet;
    uint64_t next = UINT64_MAX;
    if (d->dh)
        next = d->dh->t_done;
    if (d->t_ref < next)
        next = d->t_ref;      /* refresh runs on schedule, busy or idle */
    if (d->t_ref <= now)
        return now + 1;
    if (d->wait_ok) {
        /* found by the last scan or push, nothing changed since */
        if (d->qn && d->t_wait < next)
            next = d->t_wait;
        return next > now ? next : now + 1;
    }
    /* per bank: its oldest request's row command, and the column command of its first
     * row hit of each kind (reads and writes differ in turnaround): a lower bound of
     * anything it can issue */
    if (d->cfg.sched == DRAM_FIFO) {
        /* only bank heads can go, whatever hits are queued (the oldest of them first:
         * this bound, the earliest of them, may be earlier than the oldest's command,
         * and is kept as it was) */
        for (uint64_t m = d->busy_banks; m; m &= m - 1) {
            const bank *b = &d->bk[__builtin_ctzll(m)];
            uint64_t t = b->open && b->row == b->head_row ? col_time(d, b->qh) : head_row_time(d, b);
            if (t < next)
                next = t;
        }
        return next > now ? next : now + 1;
    }
    for (uint64_t m = d->busy_banks & ~d->hit_banks; m; m &= m - 1) {
        uint64_t t = head_row_time(d, &d->bk[__builtin_ctzll(m)]);
        if (t < next)
            next = t;
    }
    for (uint64_t m = d->hit_banks; m; m &= m - 1) {
        const bank *b = &d->bk[__builtin_ctzll(m)];
        for (int w = 0; w < 2; w++) {
            uint64_t t;
            if (b->fh[w] && (t = col_time(d, b->fh[w])) < next)
                next = t;
        }
    }
    return next > now ? next : now + 1;
}

void dram_dump(const dram *d, FILE *f, const char *name)
{
    fprintf(f, "  %s: %u queued, %u issued; data bus free at %llu\n", name, d->qn, d->dn,
            (unsigned long long)d->bus_free);
    for (uint32_t k = 0; k < d->cfg.banks; k++) {
        const bank *b = &d->bk[k];
        if (!b->open && !b->qh)
            continue;
        fprintf(f, "    bank %u: ", k);
        if (b->open)
            fprintf(f, "row %u open, %u hits queued", b->row, b->hits);
        else
            fprintf(f, "closed");
        uint32_t i = 0;
        for (const dram_req *r = b->qh; r && i < 8; r = r->next, i++)
            fprintf(f, "%s %s row %u (%u B, arrived %llu)", i ? "," : ";", r->write ? "write" : "read",
                    r->row, r->bytes, (unsigned long long)r->t_arr);
        fprintf(f, "\n");
    }
}

void dram_stats_reset(dram *d) { memset(&d->st, 0, sizeof d->st); }
