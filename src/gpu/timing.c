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
 */
#include "gpu/timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/occupancy.h"
#include "core/sm.h"
#include "mem/detailed.h"
#include "ptx/locality.h"
#include "util/err.h"

static void deadlock_report(sm **sms, uint32_t n_sm, memsys *mem, func_launch *L, uint64_t cycle,
                            const char *why)
{
    size_t cap = 1 << 16, k = 0;
    char *buf = malloc(cap);
    if (buf) {
        for (uint32_t i = 0; i < n_sm && k < cap - 1; i++)
            if (sm_busy(sms[i]))
                k += (size_t)sm_dump(sms[i], buf + k, cap - k);
        fprintf(stderr, "warpsim: deadlock at cycle %llu: %s\n%s", (unsigned long long)cycle, why, buf);
        mem->ops->dump(mem, stderr);
    }
    func_fault_set(L, WS_E_DEADLOCK, "kernel '%s': deadlock at cycle %llu: %s (state of every "
                   "warp written to stderr)%s%.400s", ptx_str(L->prog->m, L->kernel->name),
                   (unsigned long long)cycle, why, buf ? "\n" : "", buf ? buf : "");
    free(buf);
}

ws_err timing_launch(const ws_config *cfg, func_launch *L, ws_launch_stats *st, char *err, size_t n)
{
    const ptx_module *m = L->prog->m;
    const sched_ops *pol = sched_find(cfg->core.scheduler);
    if (!pol) {
        int k = snprintf(err, n, "unknown warp scheduler core.scheduler=%s (known:", cfg->core.scheduler);
        for (size_t i = 0; sched_at(i) && k > 0 && (size_t)k < n; i++)
            k += snprintf(err + k, n - (size_t)k, " %s", sched_at(i)->name);
        if (k > 0 && (size_t)k < n)
            snprintf(err + k, n - (size_t)k, ")");
        return WS_E_INVALID_VALUE;
    }
    const mem_model *mm = mem_model_find(cfg->mem.model);
    if (!mm) {
        snprintf(err, n, "unknown memory model mem.model=%s (known: simple, detailed)", cfg->mem.model);
        return WS_E_INVALID_VALUE;
    }
    if (mm == &mem_model_detailed && mem_detailed_check(cfg, err, n))
        return WS_E_INVALID_VALUE;
    occupancy oc = occupancy_compute(cfg, m, L->kernel, L->cta_threads, L->shared_bytes);
    st->policy = pol->name;
    st->t.ctas_per_sm = oc.ctas_per_sm;
    st->t.occupancy_limiter = oc.limiter;
    st->t.regs_per_thread = oc.regs_per_thread;
    st->regs_per_thread = oc.regs_per_thread;
    if (oc.ctas_per_sm == 0) {
        snprintf(err, n, "kernel '%s': a CTA of %u threads (%u registers per thread, %u bytes of shared "
                 "memory) does not fit on an SM (limited by %s)", ptx_str(m, L->kernel->name),
                 L->cta_threads, oc.regs_per_thread, L->shared_bytes, oc.limiter);
        return WS_E_OUT_OF_RESOURCES;
    }
    uint32_t n_sm = cfg->gpu.n_sm;
    insn_table it = {0};
    memsys *mem = NULL;
    sm **sms = calloc(n_sm, sizeof *sms);
    ws_err rc = WS_OK;
    if (!sms || insn_table_build(&it, m, cfg) || !(mem = mm->create(cfg, n_sm))) {
        rc = WS_E_OUT_OF_MEMORY;
        goto out;
    }
    /* static-select: the kernel's own PTX decides LRR or GTO, once per launch */
    uint8_t static_lrr = 0;
    if (pol == sched_find("static-select")) {
        loc_opts lo;
        loc_summary ls;
        loc_opts_from_config(&lo, cfg);
        static_lrr = !loc_summarize(m, L->kernel, &lo, &ls) && ls.lrr;
    }
    sched_params sp = {cfg->sched.two_level_active, cfg->sched.recency_bits, cfg->sched.recency_num,
                       cfg->sched.recency_den, cfg->sched.max_num_warp, cfg->sched.lrr_quantum,
                       static_lrr};
    if (pol == sched_find("static-select"))
        st->policy = sched_static_choice(&sp);
    for (uint32_t i = 0; i < n_sm; i++)
        if (!(sms[i] = sm_create(i, cfg, L, &it, mem, pol, &sp, oc.ctas_per_sm))) {
            rc = WS_E_OUT_OF_MEMORY;
            goto out;
        }

    uint64_t n_cta = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2], next_cta = 0;
    uint64_t cycle = 0, idle = 0, watchdog = cfg->core.watchdog_cycles;
    uint32_t rr = 0;
    /* An SM whose cycle changed nothing sleeps until its next event (tick only what
     * is active); on waking, the skipped cycles count as copies of its idle one. */
    uint64_t *wake = calloc(n_sm, sizeof *wake), *last = calloc(n_sm, sizeof *last);
    uint8_t *active = calloc(n_sm, 1);   /* sm_busy, refreshed whenever the SM runs */
    if (!wake || !last || !active) {
        free(wake);
        free(last);
        free(active);
        rc = WS_E_OUT_OF_MEMORY;
        goto out;
    }
    for (;;) {
        int progress = memsys_tick(mem, cycle);
        int busy = 0;
        for (uint32_t i = 0; i < n_sm; i++) {
            if (!active[i])
                continue;
            busy = 1;
            if (wake[i] > cycle)
                continue;
            if (cycle > last[i] + 1 && last[i] != UINT64_MAX)
                sm_repeat_cycle_stats(sms[i], cycle - last[i] - 1);
            int r = sm_cycle(sms[i], cycle);
            if (r < 0 || L->fault.code)
                goto done;
            last[i] = cycle;
            active[i] = (uint8_t)sm_busy(sms[i]);
            progress |= r;
            if (r || !cfg->core.skip_idle) {
                wake[i] = cycle + 1;
            } else {
                /* next_event_sm also bounds when a refused request can be accepted
                 * (a fill of this SM's L1, a drain of its miss queue) */
                uint64_t me = memsys_next_event_sm(mem, i, cycle);
                wake[i] = sm_next_event(sms[i], cycle, me);
            }
        }
        /* CTA dispatch: one CTA per SM per cycle, round robin */
        for (uint32_t k = 0, start = rr; k < n_sm && next_cta < n_cta; k++) {
            uint32_t i = (start + k) % n_sm;
            if (sm_can_take_cta(sms[i])) {
                if (!active[i])
                    last[i] = UINT64_MAX;   /* was empty: nothing to account */
                active[i] = 1;
                wake[i] = cycle + 1;
                if (sm_take_cta(sms[i], (uint32_t)next_cta++, cycle)) {
                    func_fault_set(L, WS_E_OUT_OF_RESOURCES, "out of host memory for warp state");
                    goto done;
                }
                rr = (i + 1) % n_sm;
                progress = busy = 1;
            }
        }
        if (!busy && next_cta >= n_cta && !memsys_busy(mem))
            break;
        if (progress) {
            idle = 0;
            cycle++;
            continue;
        }
        if (!cfg->core.skip_idle) {
            if (watchdog && ++idle >= watchdog) {
                deadlock_report(sms, n_sm, mem, L, cycle, "no progress for core.watchdog_cycles cycles");
                goto done;
            }
            if (!memsys_busy(mem) && memsys_next_event(mem, cycle) == UINT64_MAX) {
                int any = 0;
                for (uint32_t i = 0; i < n_sm; i++)
                    any |= sm_busy(sms[i]) && sm_next_event(sms[i], cycle, UINT64_MAX) != UINT64_MAX;
                if (!any) {
                    deadlock_report(sms, n_sm, mem, L, cycle, "no warp can issue and nothing is in "
                                    "flight (a barrier that never completes?)");
                    goto done;
                }
            }
            cycle++;
            continue;
        }
        uint64_t next = memsys_next_event(mem, cycle);
        for (uint32_t i = 0; i < n_sm; i++)
            if (active[i] && wake[i] < next)
                next = wake[i];
        if (next == UINT64_MAX) {
            deadlock_report(sms, n_sm, mem, L, cycle, "no warp can issue and nothing is in flight "
                            "(a barrier that never completes?)");
            goto done;
        }
        uint64_t skip = next > cycle + 1 ? next - cycle - 1 : 0;
        idle += skip + 1;
        if (watchdog && idle >= watchdog) {
            deadlock_report(sms, n_sm, mem, L, cycle, "no progress for core.watchdog_cycles cycles");
            goto done;
        }
        cycle = next;
    }
done:
    free(wake);
    free(last);
    free(active);
    if (L->fault.code)
        rc = (ws_err)L->fault.code;
    /* statistics */
    ws_timing_stats *t = &st->t;
    t->cycles = cycle ? cycle : 1;
    t->n_sm = n_sm;
    t->n_schedulers = cfg->core.n_schedulers;
    t->warp_size = cfg->gpu.warp_size;
    t->max_warps_per_sm = cfg->gpu.max_warps_per_sm;
    t->fu_count[0] = cfg->core.n_sp;
    t->fu_count[1] = cfg->core.n_sfu;
    t->fu_count[2] = cfg->core.n_dp;
    t->fu_count[3] = cfg->core.n_ldst;
    t->fu_count[4] = cfg->core.n_int;
    for (uint32_t i = 0; i < n_sm && sms[i]; i++) {
        const sm_stats *s = sm_get_stats(sms[i]);
        for (int k = 0; k < WR__COUNT; k++)
            t->slot[k] += s->slot[k];
        t->idle_slots += s->idle_slots;
        t->stall_cycles += s->stall_cycles;
        t->warps_in_flight_sum += s->warps_in_flight_sum;
        t->resident_warps_sum += s->resident_warps_sum;
        t->active_sm_cycles += s->active_cycles;
        for (int k = 0; k < FU__COUNT; k++)
            t->fu_busy[k] += s->fu_busy[k];
        t->mem_insts += s->mem_insts;
        t->mem_reqs += s->mem_reqs;
        t->mem_bytes_used += s->mem_bytes_used;
        for (int k = 0; k < 3; k++)
            t->resfail[k] += s->resfail[k];
        t->ldst_stall_cycles += s->ldst_stall_cycles;
        t->queue_occupancy_sum += s->queue_occupancy_sum;
        t->queued_cycles += s->queued_cycles;
        t->queued_reqs += s->queued_reqs;
        t->reod_full_cycles += s->reod_full_cycles;
        t->mem_lat_sum += s->mem_lat_sum;
        t->mem_lat_n += s->mem_lat_n;
        if (s->mem_lat_max > t->mem_lat_max)
            t->mem_lat_max = s->mem_lat_max;
        for (int k = 0; k < 16; k++)
            t->mem_lat_hist[k] += s->mem_lat_hist[k];
        t->shared_conflict_cycles += s->shared_conflict_cycles;
        t->ifetch_misses += s->ifetch_misses;
        t->rf_conflict_cycles += s->rf_conflict_cycles;
    }
    st->cycles = t->cycles;
    if (mem) {
        cJSON *o = cJSON_CreateObject();
        if (o) {
            mem->ops->stats_json(mem, o);
            t->mem_json = cJSON_PrintUnformatted(o);
            cJSON_Delete(o);
        }
    }
out:
    for (uint32_t i = 0; sms && i < n_sm; i++)
        sm_destroy(sms[i]);
    free(sms);
    if (mem)
        mem->ops->destroy(mem);
    insn_table_free(&it);
    return rc;
}
