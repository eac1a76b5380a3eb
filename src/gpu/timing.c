/* timing.c - the GPU top level in timing mode: CTA dispatch, the cycle loop, idle
 * skipping and the deadlock watchdog.
 *
 * Each cycle: the memory system advances its own clock domains up to this core
 * cycle, then every SM runs one cycle, then the dispatcher places at most one new
 * CTA per SM (round robin over SMs, as GPGPU-Sim's CTA scheduler). When a cycle
 * made no progress anywhere, nothing can change before the earliest pending event
 * (a pipeline completion, a memory response, a unit becoming free), so the loop
 * jumps there and accounts the skipped cycles as copies of the idle one. A cycle
 * count without progress past core.watchdog_cycles, or no pending event at all
 * while warps remain, is a deadlock: every SM's warps are reported.
 *
 * The SMs are reached only through the core model selected by core.model
 * (core/core_model.h): this file knows no pipeline, only the ops of that table.
 *
 * The SMs' cycles form the SM phase, which runs on sim.host_threads threads (gpu/pool.c;
 * with the detailed memory model one of them may be its partition thread instead,
 * memsys.h host_threads);
 * what the SMs change in shared state (global memory, the memory system's shared
 * queues and clocks) is committed after it, serially in SM order, so the results do not
 * depend on the number of threads (docs/ARCHITECTURE.md, "Parallel simulation").
 */
#include "gpu/timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core_model.h"
#include "gpu/config.h"
#include "gpu/pool.h"
#include "mem/detailed.h"
#include "util/err.h"

static void deadlock_report(const core_model *cm, void **cores, uint32_t n_sm, memsys *mem,
                            func_launch *L, uint64_t cycle, const char *why)
{
    size_t cap = 1 << 16, k = 0;
    char *buf = malloc(cap);
    if (buf) {
        for (uint32_t i = 0; i < n_sm && k < cap - 1; i++)
            if (cm->busy(cores[i]))
                k += (size_t)cm->dump(cores[i], buf + k, cap - k);
        fprintf(stderr, "warpsim: deadlock at cycle %llu: %s\n%s", (unsigned long long)cycle, why, buf);
        mem->ops->dump(mem, stderr);
    }
    func_fault_set(L, WS_E_DEADLOCK, "kernel '%s': deadlock at cycle %llu: %s (state of every "
                   "warp written to stderr)%s%.400s", ptx_str(L->prog->m, L->kernel->name),
                   (unsigned long long)cycle, why, buf ? "\n" : "", buf ? buf : "");
    free(buf);
}

/* Budgets and the watchdog (func.watchdog_insts, sim.max_insts, sim.max_cycles, a stop
 * request): the launch stops with a fault naming where the warps stand. */
static int stop_due(const func_launch *L, uint64_t cycle)
{
    return (L->budget_cycles && cycle >= L->budget_cycles) ||
           (L->watchdog && L->warp_insts > L->watchdog) ||
           (L->budget_insts && L->warp_insts >= L->budget_insts) || (L->stop && *L->stop);
}

static void stop_report(const core_model *cm, void **cores, uint32_t n_sm, func_launch *L,
                        uint64_t cycle)
{
    char where[1024];
    size_t k = 0;
    where[0] = 0;
    for (uint32_t i = 0; i < n_sm && k + 1 < sizeof where; i++)
        if (cm->busy(cores[i]))
            k += (size_t)cm->dump(cores[i], where + k, sizeof where - k);
    if (L->budget_cycles && cycle >= L->budget_cycles)
        func_fault_set(L, WS_E_STOPPED, "kernel '%s': stopped by the cycle budget (sim.max_cycles) at "
                       "cycle %llu after %llu warp instructions; statistics are partial",
                       ptx_str(L->prog->m, L->kernel->name), (unsigned long long)cycle,
                       (unsigned long long)L->warp_insts);
    else
        func_launch_check(L, NULL, 0, cycle);
    /* where every warp stands (the watchdog: an endless loop, reported with the PCs) */
    if (L->fault.code == WS_E_LAUNCH_FAILED)
        fprintf(stderr, "warpsim: %s\n%s", L->fault.msg, where);
    size_t len = strlen(L->fault.msg);
    if (len < sizeof L->fault.msg)
        snprintf(L->fault.msg + len, sizeof L->fault.msg - len, "\n%s", where);
}


/* ---- a kept memory system -------------------------------------------------------------
 * The launch counts its cycles from 0; the kept memory system lives on one clock across
 * launches. `offmem` is the kept model seen from a launch that starts at core cycle
 * `off` of that clock: every cycle passed in is shifted by off, every cycle returned
 * shifted back. Requests carry no other time the SM reads. */
typedef struct {
    memsys base;
    memsys *in;
    uint64_t off;
} offmem;

#define OFF(m) ((const offmem *)(m))
static mem_access off_access(memsys *m, mem_req *r, uint64_t c) { return memsys_access(OFF(m)->in, r, c + OFF(m)->off); }
static mem_access off_probe(const memsys *m, const mem_req *r, uint64_t c) { return memsys_probe(OFF(m)->in, r, c + OFF(m)->off); }
static mem_req *off_pop(memsys *m, uint32_t sm, uint64_t c) { return memsys_pop_done(OFF(m)->in, sm, c + OFF(m)->off); }
static int off_tick(memsys *m, uint64_t c) { return memsys_tick(OFF(m)->in, c + OFF(m)->off); }
static uint64_t off_back(const memsys *m, uint64_t v) { return v == UINT64_MAX ? v : v - OFF(m)->off; }
static uint64_t off_next(const memsys *m, uint64_t c) { return off_back(m, memsys_next_event(OFF(m)->in, c + OFF(m)->off)); }
static uint64_t off_next_sm(const memsys *m, uint32_t sm, uint64_t c)
{
    return off_back(m, memsys_next_event_sm(OFF(m)->in, sm, c + OFF(m)->off));
}
static int off_busy(const memsys *m) { return memsys_busy(OFF(m)->in); }
static int off_commit(memsys *m, uint32_t sm, uint64_t c) { return memsys_commit(OFF(m)->in, sm, c + OFF(m)->off); }
static uint64_t off_repeat(memsys *m, uint32_t sm, uint64_t last, uint64_t c)
{
    uint64_t me = memsys_repeat(OFF(m)->in, sm, last + OFF(m)->off, c + OFF(m)->off);
    return me ? off_back(m, me) : 0;
}
static void off_repeat_stats(memsys *m, uint32_t sm, uint64_t last, uint64_t n)
{
    memsys_repeat_stats(OFF(m)->in, sm, last + OFF(m)->off, n);
}
static uint64_t off_next_late(const memsys *m, uint32_t sm, uint64_t c)
{
    return off_back(m, memsys_next_event_sm_late(OFF(m)->in, sm, c + OFF(m)->off));
}
static uint64_t off_alone(const memsys *m, uint32_t sm, uint64_t c)
{
    const uint64_t a = memsys_sm_alone(OFF(m)->in, sm, c + OFF(m)->off);
    return a ? off_back(m, a) : 0;
}
static void off_stats(const memsys *m, cJSON *o) { OFF(m)->in->ops->stats_json(OFF(m)->in, o); }
static void off_dump(const memsys *m, FILE *f) { OFF(m)->in->ops->dump(OFF(m)->in, f); }
static void off_destroy(memsys *m) { (void)m; }   /* the simulation owns the kept model */
static const mem_model off_model = {
    "offset", "a kept memory system seen from one launch", NULL, off_destroy, off_access,
    off_probe, off_pop, off_tick, off_next, off_busy, off_stats, off_dump, off_next_sm, NULL,
    NULL, NULL, NULL, NULL, NULL, off_commit, off_next_late, NULL, NULL, NULL, NULL, off_repeat,
    off_repeat_stats, off_alone, NULL,   /* (the kept model's horizon is set directly) */
    NULL, NULL, NULL, NULL,              /* (and its threads asked directly) */
};

void timing_keep_free(timing_keep *k)
{
    if (k && k->mem)
        k->mem->ops->destroy(k->mem);
    if (k)
        k->mem = NULL;
}

void timing_host_write(const ws_config *cfg, timing_keep *keep, uint64_t addr, uint64_t n)
{
    const mem_model *mm = mem_model_find(cfg->mem.model);
    if (!keep || !cfg->mem.keep_state || !mm || !mm->launch_begin || !mm->host_write)
        return;
    if (keep->mem && keep->mem->ops != mm)
        timing_keep_free(keep);
    if (!keep->mem) {
        char err[256];
        if ((mm->check && mm->check(cfg, err, sizeof err)) || !(keep->mem = mm->create(cfg, cfg->gpu.n_sm)))
            return;   /* the first launch reports it */
    }
    mm->host_write(keep->mem, addr, n);
}

/* ---- the SM phase of a cycle, on sim.host_threads threads --------------------------------
 * Each host thread runs a contiguous group of SMs in SM order (a group never splits SMs
 * that share an L1: l1c/l1i.shared_by). An SM's cycle touches only its own state: its
 * launch view Ls[i].v (counters, fault, divergence-policy state) and its own part of the
 * memory system; global-memory data accesses (func.h func_defer) and the memory
 * system's shared state (memsys.h commit) wait for the serial commit that follows, in SM
 * order. So the results are the same for any number of threads, and the same as the
 * serial model's (docs/ARCHITECTURE.md, parallel simulation). */
/* What the SM phase writes per SM lies on cache lines of its own (the groups interleave
 * SMs, so neighbours run on different threads): an SM's loop state, its launch view
 * and its deferred accesses, one 64-byte-aligned slot each. */
typedef struct {
    _Alignas(64) uint64_t wake;   /* next cycle the SM may do anything                */
    uint64_t last;                /* last cycle it ran (UINT64_MAX: none yet)          */
    uint8_t active;               /* cm->busy, refreshed whenever the SM runs          */
    uint8_t full;                 /* it could not take a CTA and cannot yet (below)    */
    uint8_t quiet;                /* asleep after a cycle that returned 0 (untouched
                                     since: no CTA given to it), wake is the memory
                                     system's bound and the core has no event up to it
                                     (run_group: the cycle would be a repeat)          */
    uint8_t win;                  /* its cycles up to `last` (= wake) ran in a window
                                     (run_group): the phase of cycle `last` commits
                                     that cycle instead of running it                 */
    int8_t win_r;                 /* ... and that cycle's return (-1: a fault)        */
    uint8_t win_back;             /* windows failed in a row (up to WIN_BACK): the next
                                     is tried at win_try, 2^win_back cycles on, so that
                                     an SM that waits on memory is rarely asked       */
    uint64_t win_try;
    uint64_t ev_lb;               /* the core's own next event is no sooner than this
                                     (0: unknown), learned by sm_sleep from next_event
                                     since the core last changed (its cycle, a CTA)     */
} sm_slot;

/* SM i goes to sleep after cycle `cycle` (its cycle returned 0, or a repeat): wake at
 * the earlier of its own next event and me (next_event_sm). next_event(.., b) is the
 * earlier of the core's event and b (core_model.h), so asking with a bound beyond me
 * tells whether the core has an event up to me as well; its answer e is a lower bound
 * of the core's event (ev_lb) until the core changes (later cycles only drop events
 * that are past), so while me < ev_lb the core need not be asked: its event comes
 * after me. In the SM phase (look) it asks with the bound REP_LOOK cycles beyond me, so
 * that the repeats that follow (woken at each memory bound) find their answer in ev_lb. */
enum { REP_LOOK = 64 };
static inline void sm_sleep(const core_model *cm, void *core, sm_slot *S, uint64_t cycle, uint64_t me,
                            int look)
{
    if (me < S->ev_lb) {
        S->wake = me;
        S->quiet = 1;
        return;
    }
    uint64_t b = me == UINT64_MAX ? me : me + 1;
    if (look && me < UINT64_MAX - REP_LOOK)
        b = me + REP_LOOK;
    uint64_t e = cm->next_event(core, cycle, b);
    S->ev_lb = e;
    S->wake = e < me ? e : me;
    S->quiet = e > me;
}
typedef struct {
    _Alignas(64) func_launch v;
} sm_view;
typedef struct {
    _Alignas(64) func_defer d;
} sm_defer;

/* Zeroed, 64-byte aligned (the slots above, the groups) */
static void *zalloc64(size_t n)
{
    size_t r = (n + 63) & ~(size_t)63;
    void *p = aligned_alloc(64, r ? r : 64);
    if (p)
        memset(p, 0, r ? r : 64);
    return p;
}

/* SMs due in a cycle below which the SM phase runs on one thread; phases run on one
 * thread after a slow hand-over (first, at most). And by slices (timing.h
 * timing_adapt), kept across the launches of a simulation. */
enum { PAR_MIN_DUE = 4, PAR_MIN_BACKOFF = 16, PAR_MAX_BACKOFF = 1 << 14 };

typedef struct {
    _Alignas(64) uint32_t n;  /* its SMs: sm[0 .. n), in SM order                        */
    const uint32_t *sm;
    int busy, progress, fault;
    uint32_t n_slept;         /* SMs that went to sleep this cycle (their next_event)    */
    uint32_t n_rep;           /* of which repeats (not in ran)                          */
    uint32_t *slept;
    uint32_t opened;          /* SMs whose full[] this phase cleared (they can take a
                                 CTA: only their own cycle frees a CTA slot)            */
    uint32_t n_ran;           /* SMs whose cycle ran in this SM phase, in SM order (the  */
    uint32_t *ran;            /* commit needs only them: memsys.h commit; a repeat
                                 defers nothing, so it is only in slept)                */
    uint64_t *act;            /* bit j: S[sm[j]].active (the phase visits only these; the
                                 group's own words, so each thread writes its own)      */
    /* The SMs due, by their wake (due_put): bit j of slot t % WHEEL (nw words each) for a
     * wake t less than WHEEL cycles ahead when it was set, far for a later one (moved
     * into the wheel by due_near once it is near; far_min: a lower bound of their
     * wakes). So the SM phase visits the SMs due in its cycle, not every active one. A
     * bit may be stale (the wake changed since): the phase checks S.wake. */
    uint64_t *wh, *far;
    uint64_t far_min;
    uint64_t win_hi;          /* the last cycle of its SMs' windows begun in this phase
                                 (0: none): the cycles before it had progress */
    uint64_t win_n;           /* SM cycles its windows ran (host_sm_window_cycles) */
} sm_group;

/* A slice of way w begins: the teams it does not use sleep at once (their members'
 * polls would take cores from the threads that run it: the memory model's thread, the
 * other team's) */
static void park_pools(ws_pool *team, ws_pool *both, int w)
{
    if (w != TIMING_TEAM)
        ws_pool_park(team);
    if (w != TIMING_BOTH)
        ws_pool_park(both);
}

/* The SM cycles the groups' windows ran so far (the adaptive choice's work) */
static uint64_t groups_win_n(const sm_group *g, uint32_t n)
{
    uint64_t w = 0;
    for (uint32_t k = 0; k < n; k++)
        w += g[k].win_n;
    return w;
}

enum { WHEEL = 64 };

/* SM sm[j] of g is due at `wake` (set in cycle `cycle`, wake >= cycle; UINT64_MAX: only
 * a later wake brings it back) */
static inline void due_put(sm_group *g, uint32_t j, uint64_t wake, uint64_t cycle)
{
    const uint64_t bit = 1ull << (j % 64);
    if (wake - cycle < WHEEL) {
        g->wh[wake % WHEEL * ((g->n + 63) / 64) + j / 64] |= bit;
    } else if (wake != UINT64_MAX) {
        g->far[j / 64] |= bit;
        if (wake < g->far_min)
            g->far_min = wake;
    }
}

/* Before cycle `cycle`'s SM phase: g's far SMs now less than WHEEL cycles away into the
 * wheel (a far bit whose SM's wake has since come into the wheel some other way, or gone
 * past, is dropped) */
static void due_near(sm_group *g, const sm_slot *S, uint64_t cycle)
{
    if (g->far_min >= cycle + WHEEL)
        return;
    uint64_t mn = UINT64_MAX;
    for (uint32_t w = 0; w < (g->n + 63) / 64; w++)
        for (uint64_t x = g->far[w]; x; x &= x - 1) {
            const uint32_t j = w * 64 + (uint32_t)__builtin_ctzll(x);
            const uint64_t t = S[g->sm[j]].wake;
            if (t < cycle) {
                g->far[w] &= ~(x & (0 - x));
            } else if (t - cycle < WHEEL) {
                g->far[w] &= ~(x & (0 - x));
                due_put(g, j, t, cycle);
            } else if (t < mn) {
                mn = t;
            }
        }
    g->far_min = mn;
}

typedef struct {
    const ws_config *cfg;
    const core_model *cm;
    void **cores;
    memsys *mem;
    sm_view *Ls;
    sm_slot *S;
    sm_group *g;
    uint64_t cycle;
    /* the memory partitions in the phase (memsys.h par_parts): thread k runs those of
     * parts[0 .. n_jobs) (the partitions with work) that are k mod n, always the same
     * thread for a partition (its state stays in one core's cache), at pm's cycle pcyc,
     * before its SMs */
    memsys *pm;
    const uint32_t *parts;
    uint32_t n_jobs, n_thr;
    uint64_t pcyc;
    /* the memory system the SMs' wake-up questions go to: a kept one directly, its
     * cycles shifted by off (what the offset view does, without its calls) */
    memsys *wm;
    uint64_t off;
    /* SM windows (core.sm_windows): allowed in this phase (in this launch, and in the
     * phases on one thread: on the team a window's lump of work unbalances the threads'
     * shares), their last cycle at most win_cap, and whether the grid has CTAs left to
     * dispatch (set before each phase) */
    int win, grid_left;
    uint64_t win_cap;
} sm_phase;

/* memsys_repeat and memsys_next_event_sm of the launch's memory system (off_repeat and
 * off_next_sm for a kept one) */
static inline uint64_t ph_back(const sm_phase *ph, uint64_t v) { return v == UINT64_MAX ? v : v - ph->off; }
static inline uint64_t ph_repeat(const sm_phase *ph, uint32_t i, uint64_t last, uint64_t cycle)
{
    const uint64_t me = memsys_repeat(ph->wm, i, last + ph->off, cycle + ph->off);
    return me ? ph_back(ph, me) : 0;
}
static inline uint64_t ph_next_sm(const sm_phase *ph, uint32_t i, uint64_t cycle)
{
    return ph_back(ph, memsys_next_event_sm(ph->wm, i, cycle + ph->off));
}

/* SM i's window after its cycle `cycle` (which changed something): while it is alone
 * (memsys.h sm_alone: up to the last cycle it answers) and its cycle recorded no global
 * access (func.h func_defer: they are committed in SM order at the end of their own
 * cycle), cannot take a CTA that the grid still has (the dispatcher gives it one at the
 * end of the cycle that freed the slot) and is busy, its next cycle runs now, up to
 * WIN_MAX of them and ph->win_cap. The window ends with the first cycle that breaks one
 * of those or changes nothing; returns that cycle (its commit, and what follows it, wait
 * for the phase of that cycle, run_group's S.win), or `cycle` when no cycle ran. Nothing
 * else reads or changes the SM's state in between: the ticks of those cycles deliver
 * nothing to it and find nothing of it to send (sm_alone), the dispatcher skips it
 * (S.win) and so does the rousing. The same windows for any number of host threads:
 * each is decided by its own SM's state and the crossbar cycles the serial tick ran.
 * (A window's fault is the SM's at its last cycle; another SM's fault in an earlier
 * cycle still stops the launch first, as in a serial run, but the lowest SM's fault is
 * then chosen among those that have run ahead too.) */
enum { WIN_MAX = 64, WIN_BACK = 6 };
static inline uint64_t ph_alone(const sm_phase *ph, uint32_t i)
{
    const uint64_t a = memsys_sm_alone(ph->wm, i, ph->cycle + ph->off);
    return a ? ph_back(ph, a) : 0;
}
static uint64_t sm_window(sm_phase *ph, uint32_t i, uint64_t cycle)
{
    const core_model *cm = ph->cm;
    void *core = ph->cores[i];
    const func_defer *d = ph->Ls[i].v.defer;
    if (d->n || (ph->grid_left && cm->can_take_cta(core)))
        return cycle;
    uint64_t end = cycle + WIN_MAX < ph->win_cap ? cycle + WIN_MAX : ph->win_cap, c = cycle;
    for (uint64_t until = ph_alone(ph, i); c < end && c < until;) {
        const int r = cm->cycle(core, ++c);
        if (r < 0 || ph->Ls[i].v.fault.code) {
            ph->S[i].win_r = -1;
            return c;
        }
        ph->S[i].win_r = (int8_t)(r != 0);
        if (!r || d->n || !cm->busy(core) || (ph->grid_left && cm->can_take_cta(core)))
            return c;
        until = ph_alone(ph, i);
    }
    return c;
}

static void run_group(void *ctx, uint32_t k)
{
    sm_phase *ph = ctx;
    sm_group *g = &ph->g[k];
    const core_model *cm = ph->cm;
    uint64_t cycle = ph->cycle;
    int skip = ph->cfg->core.skip_idle;
    g->busy = g->progress = g->fault = 0;
    g->win_hi = 0;
    g->n_slept = g->n_ran = g->opened = g->n_rep = 0;
    for (uint32_t j = 0; j < ph->n_jobs; j++)
        if (ph->parts[j] % ph->n_thr == k)
            ph->pm->ops->tick_part(ph->pm, ph->parts[j], ph->pcyc);
    const uint32_t nw = (g->n + 63) / 64;
    uint64_t *const due = g->wh + cycle % WHEEL * nw, *const nxt = g->wh + (cycle + 1) % WHEEL * nw;
    for (uint32_t w = 0; w < nw; w++) {
        if (g->act[w])
            g->busy = 1;   /* (an active SM) */
        const uint64_t d = due[w] & g->act[w];
        due[w] = 0;
        for (uint64_t x = d; x; x &= x - 1) {
            const uint32_t j = w * 64 + (uint32_t)__builtin_ctzll(x);
            const uint32_t i = g->sm[j];
            if (ph->S[i].wake > cycle)
                continue;   /* (a stale bit) */
            int r;
            if (ph->S[i].win) {
                /* the last cycle of its window: it ran in an earlier phase; its commit
                 * and what follows a cycle are this one's */
                ph->S[i].win = 0;
                r = ph->S[i].win_r;
            } else {
                /* woken by the memory system's bound alone (no event of its own since
                 * the cycle that returned 0) with nothing changed for it there (memsys.h
                 * repeat): its cycle would repeat that one; the skipped cycle's
                 * statistics (the core's and the memory system's) are charged as a
                 * repeat when it next runs */
                uint64_t me;
                if (ph->S[i].quiet && (me = ph_repeat(ph, i, ph->S[i].last, cycle)) != 0) {
                    sm_sleep(cm, ph->cores[i], &ph->S[i], cycle, me, 1);
                    due_put(g, j, ph->S[i].wake, cycle);
                    g->slept[g->n_slept++] = i;
                    g->n_rep++;
                    continue;
                }
                if (cycle > ph->S[i].last + 1 && ph->S[i].last != UINT64_MAX) {
                    const uint64_t n = cycle - ph->S[i].last - 1;
                    cm->repeat_cycle_stats(ph->cores[i], n);
                    memsys_repeat_stats(ph->wm, i, ph->S[i].last + ph->off, n);
                }
                r = cm->cycle(ph->cores[i], cycle);
            }
            ph->S[i].ev_lb = 0;   /* (the core changed) */
            g->ran[g->n_ran++] = i;
            if (r < 0 || ph->Ls[i].v.fault.code) {
                g->fault = 1;          /* the SM stops here; the launch at the end of the cycle */
                ph->S[i].active = 0;
                g->act[w] &= ~(x & (0 - x));
                continue;
            }
            ph->S[i].last = cycle;
            ph->S[i].quiet = 0;
            if (ph->S[i].full && cm->can_take_cta(ph->cores[i])) {
                ph->S[i].full = 0;   /* it retired a CTA: the dispatcher asks it again */
                g->opened++;
            }
            if (!(ph->S[i].active = (uint8_t)cm->busy(ph->cores[i])))
                g->act[w] &= ~(x & (0 - x));
            g->progress |= r;
            uint64_t e = cycle;
            if (r && ph->win && ph->S[i].active && cycle >= ph->S[i].win_try) {
                e = sm_window(ph, i, cycle);
                if (e > cycle) {
                    ph->S[i].win_back = 0;
                } else {
                    ph->S[i].win_try = cycle + (1ull << ph->S[i].win_back);
                    ph->S[i].win_back += ph->S[i].win_back < WIN_BACK;
                }
            }
            if (e > cycle) {
                /* its window: due at its last cycle, to commit it then. Nothing to
                 * commit now (no global access; memsys.h sm_alone: its commit would only
                 * add its counts, which the one at its last cycle adds as well) */
                g->n_ran--;
                ph->S[i].last = e;
                ph->S[i].wake = e;
                ph->S[i].win = 1;
                due_put(g, j, e, cycle);
                if (e > g->win_hi)
                    g->win_hi = e;
                g->win_n += e - cycle;
            } else if (r || !skip) {
                ph->S[i].wake = cycle + 1;
                nxt[w] |= x & (0 - x);   /* (due_put) */
            } else {
                /* next_event_sm also bounds when a refused request can be accepted
                 * (a fill of this SM's L1, a drain of its miss queue) */
                sm_sleep(cm, ph->cores[i], &ph->S[i], cycle, ph_next_sm(ph, i, cycle), 1);
                due_put(g, j, ph->S[i].wake, cycle);
                g->slept[g->n_slept++] = i;
            }
        }
    }
}

/* The launch's counters: the SMs' views summed into L (all of them, or, for the cycle
 * loop's budget checks, the warp instructions only). */
static void fold_counters(func_launch *L, const sm_view *Ls, uint32_t n_sm, int all)
{
    uint64_t w = 0;
    for (uint32_t i = 0; i < n_sm; i++)
        w += Ls[i].v.warp_insts;
    L->warp_insts = w;
    if (!all)
        return;
    L->thread_insts = L->ctas_done = 0;
    memset(L->mix, 0, sizeof L->mix);
    for (uint32_t i = 0; i < n_sm; i++) {
        L->thread_insts += Ls[i].v.thread_insts;
        L->ctas_done += Ls[i].v.ctas_done;
        for (size_t k = 0; k < sizeof L->mix / sizeof L->mix[0]; k++)
            L->mix[k] += Ls[i].v.mix[k];
    }
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* SMs per unit that must stay on one thread: those sharing an L1 (detailed model). */
static uint32_t share_unit(const ws_config *cfg)
{
    uint32_t a = cfg->l1c.shared_by ? cfg->l1c.shared_by : 1, b = cfg->l1i.shared_by ? cfg->l1i.shared_by : 1;
    uint32_t x = a, y = b;
    while (y) {
        uint32_t t = x % y;
        x = y;
        y = t;
    }
    return a / x * b;
}

ws_err timing_launch(const ws_config *cfg, func_launch *L, ws_launch_stats *st, timing_keep *keep,
                     char *err, size_t n)
{
    const ptx_module *m = L->prog->m;
    const sched_ops *pol = sched_find(cfg->core.scheduler);
    if (!pol) {
        char known[256];
        sched_names(known, sizeof known);
        snprintf(err, n, "unknown warp scheduler core.scheduler=%s (known: %s)", cfg->core.scheduler,
                 known);
        return WS_E_INVALID_VALUE;
    }
    const mem_model *mm = mem_model_find(cfg->mem.model);
    if (!mm) {
        char known[256];
        mem_model_known(known, sizeof known);
        snprintf(err, n, "unknown memory model mem.model=%s (known: %s)", cfg->mem.model, known);
        return WS_E_INVALID_VALUE;
    }
    if (mm->check && mm->check(cfg, err, n))
        return WS_E_INVALID_VALUE;
    const core_model *cm = core_model_find(cfg->core.model);
    if (!cm) {
        int k = snprintf(err, n, "unknown core model core.model=%s (known:", cfg->core.model);
        for (size_t i = 0; core_model_at(i) && k > 0 && (size_t)k < n; i++)
            k += snprintf(err + k, n - (size_t)k, " %s", core_model_at(i)->name);
        if (k > 0 && (size_t)k < n)
            snprintf(err + k, n - (size_t)k, ")");
        return WS_E_INVALID_VALUE;
    }
    _Alignas(max_align_t) unsigned char cm_buf[WS_CFG_PLUGIN_BYTES];
    const void *cm_params = ws_config_plugin_params(cfg, cm->params, cm_buf, sizeof cm_buf);
    occupancy oc = cm->occupancy(cfg, cm_params, m, L->kernel, L->cta_threads, L->shared_bytes);
    st->policy = pol->name;
    st->t.ctas_per_sm = oc.ctas_per_sm;
    st->t.occupancy_limiter = oc.limiter;
    st->t.regs_source = oc.regs_source;
    st->t.regs_per_thread = oc.regs_per_thread;
    st->regs_per_thread = oc.regs_per_thread;
    if (oc.ctas_per_sm == 0) {
        snprintf(err, n, "kernel '%s': a CTA of %u threads (%u registers per thread, %u bytes of shared "
                 "memory) does not fit on an SM (limited by %s)", ptx_str(m, L->kernel->name),
                 L->cta_threads, oc.regs_per_thread, L->shared_bytes, oc.limiter);
        return WS_E_OUT_OF_RESOURCES;
    }
    uint32_t n_sm = cfg->gpu.n_sm;
    void *shared = NULL;       /* the core model's per-launch tables */
    memsys *mem = NULL;
    void **cores = calloc(n_sm, sizeof *cores);
    void **pol_params = NULL;   /* [i]: parameters of sched_at(i), or NULL */
    void **mem_params = NULL;   /* [i]: parameters of mem_model_at(i), or NULL */
    sm_view *Ls = NULL;         /* [i]: SM i's view of the launch                */
    sm_defer *defer = NULL;     /* [i]: SM i's deferred global-memory accesses   */
    sm_group *groups = NULL;
    uint32_t *slept = NULL, *ran = NULL, *gsm = NULL;   /* gsm: the groups' SM lists */
    uint32_t *gof = NULL;       /* [i]: SM i's group, and [n_sm + i]: its index there */
    uint64_t *cbits = NULL;     /* the commit's merge of the groups' lists (n_thr > 1): the
                                   SMs that ran, words [0, n_sm/64], then those that slept */
    sm_slot *S = NULL;          /* [i]: SM i's loop state                        */
    uint64_t *actw = NULL;      /* the groups' act words                          */
    uint64_t *whw = NULL;       /* the groups' wheels and far words (due_put)      */
    ws_pool *pool = NULL;
    ws_pool *pool_b = NULL;     /* TIMING_BOTH's team beside the memory model's thread */
    ws_err rc = WS_OK;
    /* mem.keep_state: the simulation's memory system, warm from the previous launch */
    offmem om = {.base = {.ops = &off_model}};   /* (the GPU reads the kept model's own roused bits) */
    if (keep && cfg->mem.keep_state && mm->launch_begin) {
        if (keep->mem && keep->mem->ops != mm)
            timing_keep_free(keep);
        if (!keep->mem && !(keep->mem = mm->create(cfg, n_sm))) {
            rc = WS_E_OUT_OF_MEMORY;
            goto out;
        }
        om.in = keep->mem;
        om.off = keep->clock;
        om.base.pop_t = om.in->pop_t;           /* memsys.h pop_t, in the launch's clock */
        om.base.pop_stride = om.in->pop_stride;
        om.base.pop_n = om.in->pop_n;
        om.base.pop_off = om.in->pop_off + om.off;
        mm->launch_begin(om.in, om.off);
        mem = &om.base;
    }
    if (!cores || !(shared = cm->launch_create(cfg, cm_params, L)) || (!mem && !(mem = mm->create(cfg, n_sm)))) {
        rc = WS_E_OUT_OF_MEMORY;
        goto out;
    }
    /* the memory model's launch: its own parameters and the kernel */
    if (mm->on_launch) {
        if (!(mem_params = ws_config_params_all(cfg, WS_PLUGIN_MEM))) {
            rc = WS_E_OUT_OF_MEMORY;
            goto out;
        }
        const void *own = NULL;
        for (size_t i = 0; mem_model_at(i); i++)
            if (mem_model_at(i) == mm)
                own = mem_params[i];
        mem_kernel mk = {m, L->kernel};
        if (mm->on_launch(om.in ? om.in : mem, own, &mk, err, n)) {   /* the model itself, not the offset view */
            rc = WS_E_INVALID_VALUE;
            goto out;
        }
    }
    /* the policy's launch: every policy's parameters (a policy may wrap another), then
     * its own look at the kernel */
    if (!(pol_params = ws_config_params_all(cfg, WS_PLUGIN_SCHED))) {
        rc = WS_E_OUT_OF_MEMORY;
        goto out;
    }
    sched_params sp = {.all = (const void *const *)pol_params};
    sp.params = sched_params_of(&sp, pol);
    sched_kernel kin = {m, L->kernel};
    if (pol->on_launch && pol->on_launch(&sp, &kin, err, n)) {
        rc = WS_E_INVALID_VALUE;
        goto out;
    }
    if (pol->label)
        st->policy = pol->label(&sp);
    /* every SM's own view of the launch (see sm_phase above) */
    if (!(Ls = zalloc64(n_sm * sizeof *Ls)) || !(defer = zalloc64(n_sm * sizeof *defer))) {
        rc = WS_E_OUT_OF_MEMORY;
        goto out;
    }
    for (uint32_t i = 0; i < n_sm; i++) {
        func_launch *v = &Ls[i].v;
        *v = *L;
        v->warp_insts = v->thread_insts = v->ctas_done = 0;
        memset(v->mix, 0, sizeof v->mix);
        memset(&v->fault, 0, sizeof v->fault);
        v->progress = NULL;
        v->defer = &defer[i].d;
        v->mem_last = 0;
        v->dstate = NULL;
        if (func_launch_div_init(v)) {
            rc = WS_E_OUT_OF_MEMORY;
            goto out;
        }
    }
    core_launch cl = {cfg, L, mem, pol, &sp, oc.ctas_per_sm, shared};
    for (uint32_t i = 0; i < n_sm; i++) {
        cl.L = &Ls[i].v;
        if (!(cores[i] = cm->create(i, &cl))) {
            rc = WS_E_OUT_OF_MEMORY;
            goto out;
        }
    }

    uint64_t n_cta = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2], next_cta = 0;
    uint64_t cycle = 0, idle = 0, watchdog = cfg->core.watchdog_cycles;
    uint32_t rr = 0, polls = 0, par_skip = 0, par_backoff = 0;
    /* An SM whose cycle changed nothing sleeps until its next event (tick only what
     * is active); on waking, the skipped cycles count as copies of its idle one. */
    /* S[i]: SM i's loop state. S[i].full: SM i could not take a CTA and cannot yet (only
     * its own cycle retires CTAs: run_group clears it when the SM can take one), so the
     * dispatcher need not ask it again */
    uint32_t n_open = n_sm;   /* SMs with S[i].full clear: the dispatcher looks only then */
    /* the SM groups: whole units of SMs that share an L1, dealt out to the threads in
     * turn (unit u to thread u mod n: the few CTAs of a small grid, dispatched round
     * robin from SM 0, spread over every thread); each group's lists start on a cache
     * line of their own */
    uint32_t unit = share_unit(cfg), n_units = (n_sm + unit - 1) / unit;
    uint32_t n_thr = cfg->sim.host_threads ? cfg->sim.host_threads : 1;
    /* A thread the memory model runs itself (detailed.c's partition thread) is not the
     * SMs': with the adaptive choice the SMs get every thread in the slices that run
     * their phases on the team and the model its own in the others (the two ways it
     * compares); without it the SMs get the rest. */
    const uint32_t n_mem = memsys_host_threads(om.in ? om.in : mem);
    const int mem_adapt = n_mem && n_thr > 1 && cfg->sim.host_threads_adapt;
    if (!mem_adapt)
        n_thr = n_thr > n_mem ? n_thr - n_mem : 1;
    if (n_thr > n_units)
        n_thr = n_units;
    const uint32_t lpad = 16 * n_thr;   /* 64 bytes of uint32_t per group */
    S = zalloc64(n_sm * sizeof *S);
    groups = zalloc64(n_thr * sizeof *groups);
    slept = zalloc64((n_sm + lpad) * sizeof *slept);
    ran = zalloc64((n_sm + lpad) * sizeof *ran);
    gsm = calloc(n_sm, sizeof *gsm);
    gof = calloc(2 * (size_t)n_sm, sizeof *gof);
    cbits = calloc(2 * ((size_t)n_sm / 64 + 1), sizeof *cbits);
    actw = zalloc64((n_sm / 64 + n_thr) * 64);   /* each group's words: (its SMs + 63) / 64, then a line */
    /* the memory system's own cycle (a kept one directly: the offset view adds a call),
     * and its partitions in the parallel phase when it can */
    memsys *pmem = om.in ? om.in : mem;
    const uint32_t n_part = n_thr > 1 && pmem && pmem->ops->par_parts ? pmem->ops->par_parts(pmem) : 0;
    /* a cycle budget: the last cycle this launch ticks, in the memory system's clock */
    if (pmem && pmem->ops->horizon)
        pmem->ops->horizon(pmem, L->budget_cycles ? L->budget_cycles - 1 + (om.in ? om.off : 0)
                                                  : UINT64_MAX);
    sm_phase ph = {cfg, cm, cores, mem, Ls, S, groups, 0, pmem, NULL, 0, n_thr, 0, pmem,
                   om.in ? om.off : 0, 0, 0, 0};
    /* SM windows: not with an instruction budget or watchdog (they stop at the exact
     * cycle the count reaches, and a window counts its cycles' instructions early);
     * with a cycle budget, up to the last cycle it runs */
    const int win_ok = cfg->core.sm_windows && cfg->core.skip_idle && !L->budget_insts && !L->watchdog;
    ph.win = win_ok;
    ph.win_cap = L->budget_cycles ? L->budget_cycles - 1 : UINT64_MAX;
    uint64_t win_hi = 0;   /* the cycles before it had progress (an SM's window) */
    if (!S || !groups || !slept || !ran || !gsm || !gof || !cbits || !actw ||
        !(pool = ws_pool_create(n_thr, run_group, &ph)) ||
        (mem_adapt && n_thr > 2 && !(pool_b = ws_pool_create(n_thr - 1, run_group, &ph)))) {
        rc = WS_E_OUT_OF_MEMORY;
        goto out;
    }
    for (uint32_t k = 0, aw = 0, o = 0, lo = 0; k < n_thr; k++) {
        sm_group *g = &groups[k];
        g->sm = gsm + lo;
        for (uint32_t u = k; u < n_units; u += n_thr)
            for (uint32_t i = u * unit; i < (u + 1) * unit && i < n_sm; i++) {
                gof[i] = k;
                gof[n_sm + i] = g->n;
                gsm[lo + g->n++] = i;
            }
        lo += g->n;
        g->slept = slept + o;
        g->ran = ran + o;
        o += (g->n + 15) / 16 * 16;
        g->act = actw + aw;
        aw += (g->n + 63) / 64 * 8;
    }
    size_t wn = 0;   /* each group's wheel, then its far words, on lines of their own */
    for (uint32_t k = 0; k < n_thr; k++)
        wn += (size_t)(WHEEL + 1) * (((groups[k].n + 63) / 64 + 7) / 8 * 8);
    if (!(whw = zalloc64(wn * sizeof *whw))) {
        rc = WS_E_OUT_OF_MEMORY;
        goto out;
    }
    for (uint32_t k = 0, o = 0; k < n_thr; k++) {
        const uint32_t nwr = ((groups[k].n + 63) / 64 + 7) / 8 * 8;
        groups[k].wh = whw + o;
        groups[k].far = whw + o + (size_t)WHEEL * nwr;
        groups[k].far_min = UINT64_MAX;
        o += (WHEEL + 1) * nwr;
    }
    /* host time of the SM phase, sampled every 64th iteration of the loop (the share of
     * the SM phase in the sampled iterations, times the loop's time; a clock read costs
     * about 40 ns on the development VM, 1-2 % of a memory-bound cycle when every 8th
     * was sampled) */
    double t_loop = now_s(), t_it0 = 0, s_phase = 0, s_iter = 0;
    /* the adaptive slices (the simulation's, or this launch's without a keep), whether
     * this slice's phases run on the calling thread, and when its part in this launch
     * began */
    timing_adapt ad_own = {0}, *ad = keep ? &keep->ad : &ad_own;
    const int adapt = n_thr > 1 && cfg->sim.host_threads_adapt;
    if (adapt && ad->ways != (mem_adapt ? 4u : 2u))
        timing_adapt_init(ad, mem_adapt ? 4 : 2);   /* (the first launch) */
    /* sim.host_way: every slice one way (those that need the memory model's thread run
     * alone without it) */
    const int pin = !adapt || cfg->sim.host_way == WS_WAY_AUTO ? -1
                    : !mem_adapt && cfg->sim.host_way >= WS_WAY_SERIAL ? TIMING_ALONE
                                                                       : (int)cfg->sim.host_way;
    int ep_way = !adapt ? TIMING_TEAM : pin >= 0 ? pin : timing_adapt_way(ad);
    int ep_ser = ep_way != TIMING_TEAM;
    /* the memory model's threads: in the slices that run TIMING_ALONE or TIMING_BOTH
     * (always without the choice) */
    if (pmem)
        memsys_host_threads_use(pmem, !mem_adapt || n_thr == 1 || WAY_MEM(ep_way));
    if (adapt)
        park_pools(pool, pool_b, ep_way);
    double ep_t0 = t_loop;
    /* the work the loop did (timing_adapt_next): its iterations, the SM cycles run in the
     * phases and the SMs' window cycles (the groups' win_n), the same whichever thread
     * runs them (not the partitions' ticks: the split tick has them, the serial one not);
     * ep_w0: its value when the slice began */
    uint64_t work = 0, ep_w0 = 0, iters[TIMING__WAYS] = {0};
    const uint32_t retests0 = ad->n_retest;
    uint32_t iter = 0;
    for (;;) {
        /* a sampled iteration runs from here (memsys_tick included) to the next one */
        if (t_it0 > 0)
            s_iter += now_s() - t_it0;
        t_it0 = !(++iter & 63u) ? now_s() : 0;
        if (L->progress && !(++polls & 4095u)) {
            fold_counters(L, Ls, n_sm, 1);
            L->progress(L->progress_ctx, cycle);
        }
        if (L->watchdog || L->budget_insts)
            fold_counters(L, Ls, n_sm, 0);
        if (stop_due(L, cycle)) {
            fold_counters(L, Ls, n_sm, 1);
            stop_report(cm, cores, n_sm, L, cycle);
            goto done;
        }
        if (adapt) {
            /* a slice ends: time it (its part in earlier launches included); a warm-up
             * or test slice is looked at every TIMING_CUT_EVERY iterations, and ends
             * early when it costs far more than the reference (timing_adapt_cut) or has
             * run TIMING_TEST_S (timing_adapt_full) */
            ad->n++;
            iters[ep_way]++;
            if (pin < 0 && (ad->n == TIMING_SLICE || (!(ad->n % TIMING_CUT_EVERY) && timing_adapt_short(ad)))) {
                const double t = now_s();
                const uint64_t wt = work + groups_win_n(groups, n_thr);
                const double el = ad->t_past + (t - ep_t0);
                const uint64_t wk = ad->w_past + (wt - ep_w0);
                const int cut = ad->n < TIMING_SLICE && timing_adapt_cut(ad, el, wk);
                if (ad->n == TIMING_SLICE || cut || timing_adapt_full(ad, el)) {
                    st->host_adapt_cuts += (uint64_t)cut;
                    ep_way = timing_adapt_next(ad, el, wk);
                    ep_ser = ep_way != TIMING_TEAM;
                    if (mem_adapt)
                        memsys_host_threads_use(pmem, WAY_MEM(ep_way));
                    park_pools(pool, pool_b, ep_way);
                    ep_t0 = t;
                    ep_w0 = wt;
                }
            }
        }
        /* the memory system's tick: split (partitions in the phase) unless this cycle's
         * phase will run on the calling thread anyway (the serial tick costs less; the
         * two give the same results, so they may alternate) */
        int progress, wchg = 0;
        const int split = n_part && !ep_ser && !par_skip;
        ph.pcyc = cycle + (om.in ? om.off : 0);
        ph.n_jobs = 0;
        if (split)
            progress = pmem->ops->tick_serial(pmem, ph.pcyc, &ph.parts, &ph.n_jobs);
        else
            progress = memsys_tick(mem, cycle);
        /* the SMs the memory system roused are due now (waking early changes nothing:
         * an SM with nothing new repeats). Before its wake, an SM has no event of its
         * own: quiet */
        if (pmem && pmem->roused)
            for (uint32_t wd = 0; wd < (n_sm + 63) / 64; wd++) {
                uint64_t x = pmem->roused[wd];
                if (!x)
                    continue;
                pmem->roused[wd] = 0;
                for (; x; x &= x - 1) {
                    const uint32_t i = wd * 64 + (uint32_t)__builtin_ctzll(x);
                    if (S[i].active && S[i].wake > cycle && !S[i].win) {
                        S[i].wake = cycle;
                        S[i].quiet = 1;
                        due_put(&groups[gof[i]], gof[n_sm + i], cycle, cycle);
                    }
                }
            }
        for (uint32_t k = 0; k < n_thr; k++)
            due_near(&groups[k], S, cycle);
        /* the SM phase, on the pool's threads when there is enough to share: the
         * hand-over costs about as much as a few SM cycles (which thread runs a group
         * changes nothing in the results) */
        ph.cycle = cycle;
        ph.grid_left = next_cta < n_cta;
        const double t_ph0 = t_it0 > 0 ? now_s() : 0;
        uint32_t due = PAR_MIN_DUE;
        const int both = ep_way == TIMING_BOTH;   /* (only with the choice) */
        if (n_thr > 1 && cfg->sim.host_threads_adapt && !par_skip && (!ep_ser || both)) {
            due = ph.n_jobs;   /* (a partition's cycles cost about as much as an SM's) */
            for (uint32_t i = 0; i < n_sm; i++)
                due += S[i].active && S[i].wake <= cycle;
        }
        /* TIMING_BOTH: the last group to the memory model's thread, which runs it
         * between its own steps (or this thread, if that one has not begun it when the
         * others are done: memsys.h side_end) */
        uint64_t tk = 0;
        if (both && due >= PAR_MIN_DUE && !par_skip) {
            ph.win = 0;
            tk = memsys_side_post(pmem, run_group, &ph, n_thr - 1);
        }
        if (due >= PAR_MIN_DUE && !par_skip && !ep_ser) {
            /* windows only where the phase runs on one thread (sm_phase.win) */
            ph.win = win_ok && n_thr == 1;
            /* a slow hand-over (the host's cores are busy with other work): the next
             * phases run on this thread, more of them after each slow one */
            if (ws_pool_run(pool) && cfg->sim.host_threads_adapt) {
                par_backoff = par_backoff ? (par_backoff < PAR_MAX_BACKOFF ? par_backoff * 2 : par_backoff)
                                          : PAR_MIN_BACKOFF;
                par_skip = par_backoff;
            } else if (par_backoff) {
                par_backoff /= 2;
            }
        } else if (tk) {
            if (pool_b)
                (void)ws_pool_run(pool_b);   /* groups 0 .. n_thr - 2 */
            else
                run_group(&ph, 0);
            memsys_side_end(pmem, tk);
        } else {
            if (par_skip)
                par_skip--;
            ph.win = win_ok;
            for (uint32_t k = 0; k < n_thr; k++)
                run_group(&ph, k);
        }
        if (t_ph0 > 0)
            s_phase += now_s() - t_ph0;
        if (split) {
            const int j = pmem->ops->tick_join(pmem, ph.pcyc);
            progress |= j & 1;
            wchg = j >> 1 & 1;   /* the sleeping SMs' wakes: asked again at their commit */
        }
        int busy = 0, fault = 0;
        work++;
        for (uint32_t k = 0; k < n_thr; k++) {
            work += groups[k].n_ran;
            if (groups[k].win_hi > win_hi)
                win_hi = groups[k].win_hi;
            busy |= groups[k].busy;
            progress |= groups[k].progress;
            fault |= groups[k].fault;
            n_open += groups[k].opened;
        }
        /* the commit, in SM order: global-memory data accesses, then the memory
         * system's shared state (the two touch disjoint state, so one pass does both) */
        if (mem->ops->commit) {
            /* SM by SM: a sleeping SM's wake-up sees what the SMs before it and itself
             * sent in this cycle, as in a serial run (the slept lists are in SM order).
             * A kept memory system is committed directly (the offset view adds a call).
             * Only the SMs whose cycle ran have anything to commit, and the SMs before
             * them in their unit (an access to a shared L1 defers its changes to the
             * L1's owner, the first SM of its group); the last SM's commit ends the
             * phase (memsys.h commit). The groups' ran and slept lists are in SM order
             * (merged here: the groups interleave), and a unit never spans two groups. */
            memsys *cmem = om.in ? om.in : mem;
            const uint64_t ccyc = cycle + (om.in ? om.off : 0);
            int chg = wchg;
            uint32_t next = 0;   /* SMs below it committed */
            /* SM i's commit (its cycle ran: a repeat defers nothing and is not in the ran
             * list), and a sleeping SM's wake-up again when the commits so far changed the
             * wakes; in SM order, a commit before the same SM's wake-up */
#define COMMIT_RAN(i)                                                                         \
    do {                                                                                      \
        uint32_t s = i;                                                                       \
        if (unit > 1 && (s = i / unit * unit) < next)                                         \
            s = next;                                                                         \
        for (; s < i; s++)   /* the SMs before it in its unit (they did not run) */           \
            chg |= memsys_commit(cmem, s, ccyc);                                              \
        if (defer[i].d.n)                                                                     \
            func_defer_commit(&defer[i].d);                                                   \
        chg |= memsys_commit(cmem, i, ccyc);                                                  \
        next = i + 1;                                                                         \
    } while (0)
#define WAKE_LATE(i)                                                                          \
    do {                                                                                      \
        if (chg) {                                                                            \
            sm_sleep(cm, cores[i], &S[i], cycle,                                              \
                     ph_back(&ph, memsys_next_event_sm_late(pmem, i, cycle + ph.off)), 0);    \
            due_put(&groups[gof[i]], gof[n_sm + i], S[i].wake, cycle);                        \
        }                                                                                     \
    } while (0)
            if (n_thr == 1 && !groups[0].n_rep) {   /* one group, every sleeper ran */
                const sm_group *g = &groups[0];
                for (uint32_t jr = 0, jz = 0; jr < g->n_ran; jr++) {
                    const uint32_t a = g->ran[jr];
                    COMMIT_RAN(a);
                    if (jz < g->n_slept && g->slept[jz] == a) {
                        WAKE_LATE(a);
                        jz++;
                    }
                }
            } else if (n_thr == 1) {   /* one group: its two lists merged */
                const sm_group *g = &groups[0];
                const uint32_t nr = g->n_ran, nz = g->n_slept;
                /* (while no commit changed the wakes, the sleepers need nothing: jz catches
                 * up, past the sleepers before the SM whose commit changed them, only then) */
                for (uint32_t jr = 0, jz = 0;;) {
                    const uint32_t a = jr < nr ? g->ran[jr] : UINT32_MAX;
                    if (chg)   /* the sleeping SMs before it (repeats) */
                        for (; jz < nz && g->slept[jz] < a; jz++)
                            WAKE_LATE(g->slept[jz]);
                    if (a == UINT32_MAX)
                        break;
                    COMMIT_RAN(a);
                    jr++;
                    if (chg) {
                        while (jz < nz && g->slept[jz] < a)
                            jz++;   /* (passed while nothing had changed) */
                        if (jz < nz && g->slept[jz] == a) {
                            WAKE_LATE(a);
                            jz++;
                        }
                    }
                }
            }
            if (n_thr > 1) {
                /* the groups interleave (units dealt in turn): their lists merged in SM
                 * order through bit sets, O(listed SMs + n_sm / 64) */
                const uint32_t nw = n_sm / 64 + 1;
                uint64_t *rb = cbits, *zb = cbits + nw;
                for (uint32_t k = 0; k < n_thr; k++) {
                    const sm_group *g = &groups[k];
                    for (uint32_t j = 0; j < g->n_ran; j++)
                        rb[g->ran[j] / 64] |= 1ull << (g->ran[j] % 64);
                    for (uint32_t j = 0; j < g->n_slept; j++)
                        zb[g->slept[j] / 64] |= 1ull << (g->slept[j] % 64);
                }
                for (uint32_t wd = 0; wd < nw; wd++) {
                    const uint64_t r = rb[wd], z = zb[wd];
                    rb[wd] = zb[wd] = 0;
                    for (uint64_t x = r | z; x; x &= x - 1) {
                        const uint32_t b = (uint32_t)__builtin_ctzll(x), i = wd * 64 + b;
                        if (r >> b & 1)
                            COMMIT_RAN(i);   /* (a commit before the same SM's wake-up) */
                        if (z >> b & 1)
                            WAKE_LATE(i);
                    }
                }
            }
#undef COMMIT_RAN
#undef WAKE_LATE
            if (next < n_sm)
                (void)memsys_commit(cmem, n_sm - 1, ccyc);   /* nothing to commit: ends the phase */
        } else {
            for (uint32_t i = 0; i < n_sm; i++)
                if (defer[i].d.n)
                    func_defer_commit(&defer[i].d);
        }
        if (fault) {
            /* the lowest SM's fault, whatever the threads */
            for (uint32_t i = 0; i < n_sm; i++)
                if (Ls[i].v.fault.code) {
                    if (!L->fault.code)
                        L->fault = Ls[i].v.fault;
                    break;
                }
            goto done;
        }
        /* CTA dispatch: one CTA per SM per cycle, round robin */
        for (uint32_t k = 0, start = rr; n_open && k < n_sm && next_cta < n_cta; k++) {
            uint32_t i = (start + k) % n_sm;
            if (S[i].full || S[i].win)
                continue;   /* (in a window: it cannot take one before its last cycle) */
            if (!cm->can_take_cta(cores[i])) {
                S[i].full = 1;
                n_open--;
            } else {
                if (!S[i].active) {
                    S[i].last = UINT64_MAX;   /* was empty: nothing to account */
                    const uint32_t j = gof[n_sm + i];
                    groups[gof[i]].act[j / 64] |= 1ull << (j % 64);
                }
                S[i].active = 1;
                S[i].quiet = 0;   /* a new CTA: its next cycle is no repeat */
                S[i].ev_lb = 0;
                S[i].wake = cycle + 1;
                due_put(&groups[gof[i]], gof[n_sm + i], cycle + 1, cycle);
                if (cm->take_cta(cores[i], (uint32_t)next_cta++, cycle)) {
                    func_fault_set(L, WS_E_OUT_OF_RESOURCES, "out of host memory for warp state");
                    goto done;
                }
                rr = (i + 1) % n_sm;
                progress = busy = 1;
            }
        }
        if (!busy && next_cta >= n_cta && !memsys_busy(mem))
            break;
        if (progress || cycle < win_hi) {   /* (a window's cycles before its last) */
            idle = 0;
            cycle++;
            continue;
        }
        if (!cfg->core.skip_idle) {
            if (watchdog && ++idle >= watchdog) {
                deadlock_report(cm, cores, n_sm, mem, L, cycle, "no progress for core.watchdog_cycles cycles");
                goto done;
            }
            if (!memsys_busy(mem) && memsys_next_event(mem, cycle) == UINT64_MAX) {
                int any = 0;
                for (uint32_t i = 0; i < n_sm; i++)
                    any |= cm->busy(cores[i]) && cm->next_event(cores[i], cycle, UINT64_MAX) != UINT64_MAX;
                if (!any) {
                    deadlock_report(cm, cores, n_sm, mem, L, cycle, "no warp can issue and nothing is in "
                                    "flight (a barrier that never completes?)");
                    goto done;
                }
            }
            cycle++;
            continue;
        }
        uint64_t next = memsys_next_event(mem, cycle);
        for (uint32_t k = 0; k < n_thr; k++) {   /* the active SMs (act bits) */
            const sm_group *g = &groups[k];
            for (uint32_t w = 0; w < (g->n + 63) / 64; w++)
                for (uint64_t x = g->act[w]; x; x &= x - 1) {
                    const uint32_t i = g->sm[w * 64 + (uint32_t)__builtin_ctzll(x)];
                    if (S[i].wake < next)
                        next = S[i].wake;
                }
        }
        /* an idle skip never jumps over the cycle budget: the launch stops exactly there */
        if (L->budget_cycles && next != UINT64_MAX && next > L->budget_cycles && L->budget_cycles > cycle)
            next = L->budget_cycles;
        if (next == UINT64_MAX) {
            deadlock_report(cm, cores, n_sm, mem, L, cycle, "no warp can issue and nothing is in flight "
                            "(a barrier that never completes?)");
            goto done;
        }
        uint64_t skip = next > cycle + 1 ? next - cycle - 1 : 0;
        idle += skip + 1;
        if (watchdog && idle >= watchdog) {
            deadlock_report(cm, cores, n_sm, mem, L, cycle, "no progress for core.watchdog_cycles cycles");
            goto done;
        }
        cycle = next;
    }
done:
    if (adapt) {
        /* the slice goes on in the next launch */
        const uint64_t wt = work + groups_win_n(groups, n_thr);
        ad->t_past += now_s() - ep_t0;
        ad->w_past += wt - ep_w0;
    }
    for (uint32_t k = 0; k < n_thr; k++)
        st->host_window_cycles += groups[k].win_n;
    for (int k = 0; k < TIMING__WAYS; k++)
        st->host_iters[k] = iters[k];
    st->host_adapt_retests = ad->n_retest - retests0;
    if (s_iter > 0)
        st->host_sm_seconds = (now_s() - t_loop) * (s_phase / s_iter);
    fold_counters(L, Ls, n_sm, 1);
    if (!L->fault.code)
        for (uint32_t i = 0; i < n_sm; i++)
            if (Ls[i].v.fault.code) {
                L->fault = Ls[i].v.fault;
                break;
            }
    if (L->fault.code)
        rc = (ws_err)L->fault.code;
    /* the divergence policy's statistics, SM by SM (sim.c adds L's own, unused here) */
    if (L->div->stats) {
        for (uint32_t i = 0; i < n_sm; i++)
            if (Ls[i].v.dstate)
                L->div->stats(Ls[i].v.dstate, &st->div);
    }
    /* statistics */
    ws_timing_stats *t = &st->t;
    t->cycles = cycle ? cycle : 1;
    t->n_sm = n_sm;
    t->n_schedulers = cfg->core.n_schedulers;
    t->warp_size = cfg->gpu.warp_size;
    t->max_warps_per_sm = cfg->gpu.max_warps_per_sm;
    for (uint32_t i = 0; i < n_sm && cores[i]; i++)
        cm->stats(cores[i], t);
    st->cycles = t->cycles;
    if (mem) {
        /* kept as a tree: a report copies it once (ws_report_add) and prints that copy */
        if ((t->mem = cJSON_CreateObject()) != NULL)
            mem->ops->stats_json(mem, t->mem);
    }
    if (om.in) {
        if (rc == WS_OK) {
            mm->launch_end(om.in, om.off + cycle);
            keep->clock = om.off + cycle + 1;
        } else {
            timing_keep_free(keep);   /* a faulted launch may leave requests in flight */
        }
    }
out:
    ws_pool_destroy(pool);
    ws_pool_destroy(pool_b);
    free(S);
    free(groups);
    free(slept);
    free(ran);
    free(gsm);
    free(gof);
    free(cbits);
    free(actw);
    free(whw);
    for (uint32_t i = 0; cores && i < n_sm; i++)
        cm->destroy(cores[i]);
    free(cores);
    for (uint32_t i = 0; Ls && i < n_sm; i++)
        func_launch_div_fini(&Ls[i].v);
    free(Ls);
    for (uint32_t i = 0; defer && i < n_sm; i++)
        free(defer[i].d.a);
    free(defer);
    if (mem)
        mem->ops->destroy(mem);
    if (shared)
        cm->launch_destroy(shared);
    free(pol_params);
    free(mem_params);
    return rc;
}
