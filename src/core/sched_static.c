/* sched_static.c - static-select: LRR or GTO per kernel, chosen before it runs
 * (SPEC section 3, seed 001's policy switch).
 *
 * The choice comes from the PTX locality analysis of the launched kernel
 * (ptx/locality.h), or from a `.pol` / `warpsim.policy` directive in its PTX, made by
 * this policy's on_launch hook once per launch and kept in sched_params.choice. The
 * policy then simply is the chosen one: it wraps the registered "lrr" (seed 001's
 * LRR: sched.lrr_quantum = time quantum, 0 = plain LRR, read from lrr's own
 * parameters; warps skipped for not being ready go behind, i.e. are re-ranked) or
 * "gto" (age order never changes: no re-ranking). Switching costs nothing per cycle:
 * one indirect call, decided once per launch. Its label ("static-select(lrr)") is
 * what statistics show as the launch's policy.
 *
 * Its parameters are the analysis options: the [sched] static_* rows below fill a
 * loc_opts directly.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "core/sched.h"
#include "ptx/locality.h"

/* BOOL rows store a bool into loc_opts' uint8_t flags: same size, values 0 and 1. */
_Static_assert(sizeof(bool) == sizeof(uint8_t), "BOOL rows write one byte");

#define STATIC_ROW(key, field, def, desc)                                                  \
    {"sched", key, WS_CT_BOOL, offsetof(loc_opts, field), def, 0, 0, NULL, "", desc}
static const ws_cfg_param static_rows[] = {
    {"sched", "static_threshold", WS_CT_DBL, offsetof(loc_opts, threshold), "1.0", 0, 1e9, NULL,
     "", "static-select: LRR when the PTX locality score (mean weighted accesses per block) is >= this"},
    STATIC_ROW("static_follow_derived", follow_derived, "false",
               "static-select: accesses through pointers derived by add/sub/mad/mov/cvta count for the root pointer's block (false: each register value is its own block, as the seed)"),
    STATIC_ROW("static_global_only", global_only, "false",
               "static-select: count .global accesses only (false: generic ones too)"),
    STATIC_ROW("static_shared", shared, "false",
               "static-select: count .shared accesses (they do not go through the L1D)"),
    STATIC_ROW("static_stores", stores, "true", "static-select: count stores as well as loads"),
    STATIC_ROW("static_other_spaces", other_spaces, "false",
               "static-select: count .param/.const/.local accesses"),
    STATIC_ROW("static_atomics", atomics, "false",
               "static-select: count atom/red (performed at L2)"),
    STATIC_ROW("static_guards", guards, "false",
               "static-select: a predicated (@p) access counts one more branch level"),
    STATIC_ROW("static_directives", directives, "true",
               "static-select: a .pol or .pragma warpsim.policy directive in the PTX overrides the analysis"),
    {0}};
static const ws_cfg_table static_table = {"static-select", static_rows, sizeof(loc_opts)};

typedef struct {
    const sched_ops *in;  /* the chosen policy                                   */
    sched_params inp;     /* its launch: its own parameters, the same choice      */
    void *st;
} static_st;

/* The analysis of the launched kernel decides; an analysis failure means GTO. */
static int static_on_launch(sched_params *sp, const sched_kernel *k, char *err, size_t n)
{
    (void)err;
    (void)n;
    loc_opts lo;
    loc_summary ls;
    if (sp->params)
        lo = *(const loc_opts *)sp->params;
    else
        loc_opts_default(&lo);
    sp->choice = !loc_summarize(k->m, k->kernel, &lo, &ls) && ls.lrr;
    return 0;
}

/* The label statistics show for a launch under static-select. */
static const char *static_label(const sched_params *sp)
{
    return sp && sp->choice ? "static-select(lrr)" : "static-select(gto)";
}

static void *static_create(uint32_t n_slots, const sched_params *p)
{
    const sched_ops *in = sched_find(p && p->choice ? "lrr" : "gto");
    if (!in)
        return NULL;
    static_st *s = malloc(sizeof *s);
    if (!s)
        return NULL;
    s->in = in;
    s->inp = (sched_params){sched_params_of(p, in), p ? p->all : NULL, p ? p->choice : 0};
    if (!(s->st = in->create(n_slots, &s->inp))) {
        free(s);
        return NULL;
    }
    return s;
}

static void static_destroy(void *st)
{
    static_st *s = st;
    if (!s)
        return;
    s->in->destroy(s->st);
    free(s);
}

static int static_pick(void *st, const sched_cand *c, uint32_t n, uint64_t cycle)
{
    static_st *s = st;
    return s->in->pick(s->st, c, n, cycle);
}

/* (the inner policy is LRR or GTO: both have pick_slot) */
static int static_pick_slot(void *st, const uint64_t *ready, uint32_t nw, const uint64_t *age, uint64_t cycle)
{
    static_st *s = st;
    return s->in->pick_slot(s->st, ready, nw, age, cycle);
}

static void static_on_issue(void *st, uint32_t slot, int is_mem, uint64_t cycle)
{
    static_st *s = st;
    if (s->in->on_issue)
        s->in->on_issue(s->st, slot, is_mem, cycle);
}

static void static_on_mem_done(void *st, uint32_t slot, uint64_t cycle)
{
    static_st *s = st;
    if (s->in->on_mem_done)
        s->in->on_mem_done(s->st, slot, cycle);
}

static void static_on_warp_start(void *st, uint32_t slot, uint64_t cycle)
{
    static_st *s = st;
    if (s->in->on_warp_start)
        s->in->on_warp_start(s->st, slot, cycle);
}

static void static_on_warp_end(void *st, uint32_t slot, uint64_t cycle)
{
    static_st *s = st;
    if (s->in->on_warp_end)
        s->in->on_warp_end(s->st, slot, cycle);
}

const sched_ops sched_static = {
    .name = "static-select",
    .desc = "seed 001: LRR or GTO per kernel from a static locality analysis of its PTX "
            "(or a .pol / warpsim.policy directive); see docs/STATIC_SELECT.md",
    .params = &static_table,
    .on_launch = static_on_launch,
    .label = static_label,
    .create = static_create,
    .destroy = static_destroy,
    .pick = static_pick,
    .on_issue = static_on_issue,
    .on_mem_done = static_on_mem_done,
    .on_warp_start = static_on_warp_start,
    .on_warp_end = static_on_warp_end,
    .ready_only = 1,
    .pick_slot = static_pick_slot,
};
