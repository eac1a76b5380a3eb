/* report.c - per-launch and total statistics from ws_launch_stats (report.h). */
#include "api/report.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/stats.h"

typedef struct {
    ws_stats *s;
    int launches, kernel, mode, policy, result, grid, block, ctas, threads, dyn_smem,
        static_smem, regs, warp_insts, thread_insts, lane_slots, simd_eff, cycles, ipc,
        host_s, thread_rate, warp_rate;
    int mix[MIX__COUNT], mix_pct[MIX__COUNT];
} rep_defs;

struct ws_report {
    ws_config cfg;
    char *source;
    ws_launch_stats *ls;
    size_t n, cap;
    rep_defs d;
};

static int keep(int id, int *bad)
{
    *bad |= id < 0;
    return id;
}

/* Registers every statistic of the report; returns 0, or -1 on a (programming) error. */
static int defs_init(rep_defs *d)
{
    char err[256] = "";
    int bad = 0;
    ws_stats *s = d->s = ws_stats_create();
    if (!s)
        return -1;
#define CHECK(x) keep((x), &bad)
    d->launches = CHECK(ws_stats_add_counter(s, "launches", "launches", "kernel launches",
                                             0, err, sizeof err));
    d->kernel = CHECK(ws_stats_add_text(s, "kernel", "kernel (.entry) name", 0, err, sizeof err));
    d->mode = CHECK(ws_stats_add_text(s, "mode", "simulation mode: functional or timing", 0,
                                      err, sizeof err));
    d->policy = CHECK(ws_stats_add_text(s, "policy", "warp scheduling policy (timing mode)", 0,
                                        err, sizeof err));
    d->result = CHECK(ws_stats_add_text(s, "result", "outcome of the launch (simulator error name)",
                                        0, err, sizeof err));
    d->grid = CHECK(ws_stats_add_dim3(s, "grid", "CTAs", "grid dimensions (x, y, z)", 0, err,
                                      sizeof err));
    d->block = CHECK(ws_stats_add_dim3(s, "block", "threads", "CTA (block) dimensions (x, y, z)",
                                       0, err, sizeof err));
    d->ctas = CHECK(ws_stats_add_counter(s, "ctas", "CTAs", "CTAs launched (grid x*y*z)", 0, err,
                                         sizeof err));
    d->threads = CHECK(ws_stats_add_counter(s, "threads", "threads",
                                            "threads launched (CTAs x block x*y*z)", 0, err,
                                            sizeof err));
    d->dyn_smem = CHECK(ws_stats_add_counter(s, "dyn_smem", "bytes",
                                             "dynamic shared memory per CTA",
                                             WS_STAT_NO_TOTAL, err, sizeof err));
    d->static_smem = CHECK(ws_stats_add_counter(s, "static_smem", "bytes",
                                                "static (.shared) memory per CTA",
                                                WS_STAT_NO_TOTAL, err, sizeof err));
    d->regs = CHECK(ws_stats_add_counter(s, "regs", "registers",
                                         "registers per thread charged to the launch",
                                         WS_STAT_NO_TOTAL, err, sizeof err));
    d->warp_insts = CHECK(ws_stats_add_counter(s, "warp_insts", "insts",
                                               "warp instructions issued", 0, err, sizeof err));
    d->thread_insts = CHECK(ws_stats_add_counter(
        s, "thread_insts", "insts",
        "thread instructions: active lanes summed over issued warp instructions", 0, err,
        sizeof err));
    d->lane_slots = CHECK(ws_stats_add_counter(
        s, "lane_slots", "lanes", "lanes the issued instructions could use: warp_insts x warp_size",
        0, err, sizeof err));
    d->simd_eff = CHECK(ws_stats_add_formula(s, "simd_efficiency", "ratio",
                                             "fraction of lanes active per issued instruction",
                                             "thread_insts / lane_slots", 0, err, sizeof err));
    for (int i = 0; i < MIX__COUNT; i++) {
        char name[64], pname[72], desc[128], pdesc[128], expr[160];
        const char *m = ws_mix_name[i] ? ws_mix_name[i] : "unknown";
        size_t k = (size_t)snprintf(name, sizeof name, "mix_");
        for (const char *p = m; *p && k + 1 < sizeof name; p++)
            name[k++] = isalnum((unsigned char)*p) ? (char)tolower((unsigned char)*p) : '_';
        name[k] = 0;
        snprintf(pname, sizeof pname, "%s_pct", name);
        snprintf(desc, sizeof desc, "warp instructions in the instruction-mix class '%s'", m);
        snprintf(pdesc, sizeof pdesc, "share of warp instructions in class '%s'", m);
        snprintf(expr, sizeof expr, "100 * %s / warp_insts", name);
        d->mix[i] = CHECK(ws_stats_add_counter(s, name, "insts", desc, WS_STAT_HIDE_ZERO, err,
                                               sizeof err));
        d->mix_pct[i] = CHECK(ws_stats_add_formula(s, pname, "%", pdesc, expr, WS_STAT_HIDE_ZERO,
                                                   err, sizeof err));
    }
    d->cycles = CHECK(ws_stats_add_counter(s, "cycles", "cycles",
                                           "core cycles from launch to completion (timing mode)",
                                           0, err, sizeof err));
    d->ipc = CHECK(ws_stats_add_formula(s, "ipc", "insts/cycle",
                                        "warp instructions per core cycle (timing mode)",
                                        "warp_insts / cycles", 0, err, sizeof err));
    d->host_s = CHECK(ws_stats_add_real(s, "host_seconds", "s",
                                        "host wall-clock time spent simulating", 0, err,
                                        sizeof err));
    d->thread_rate = CHECK(ws_stats_add_formula(s, "thread_insts_per_sec", "insts/s",
                                                "simulation rate in thread instructions",
                                                "thread_insts / host_seconds", 0, err,
                                                sizeof err));
    d->warp_rate = CHECK(ws_stats_add_formula(s, "warp_insts_per_sec", "insts/s",
                                              "simulation rate in warp instructions",
                                              "warp_insts / host_seconds", 0, err, sizeof err));
#undef CHECK
    if (bad) {
        fprintf(stderr, "warpsim: internal: report statistics: %s\n", err);
        return -1;
    }
    return 0;
}

ws_report *ws_report_create(const ws_config *cfg, const char *source)
{
    ws_report *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->cfg = *cfg;
    r->source = strdup(source ? source : "");
    if (!r->source || defs_init(&r->d)) {
        ws_stats_destroy(r->d.s);
        free(r->source);
        free(r);
        return NULL;
    }
    return r;
}

void ws_report_destroy(ws_report *r)
{
    if (!r)
        return;
    ws_stats_destroy(r->d.s);
    free(r->source);
    free(r->ls);
    free(r);
}

int ws_report_add(ws_report *r, const ws_launch_stats *ls)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        ws_launch_stats *p = realloc(r->ls, cap * sizeof *p);
        if (!p)
            return -1;
        r->ls = p;
        r->cap = cap;
    }
    r->ls[r->n++] = *ls;
    return 0;
}

size_t ws_report_count(const ws_report *r) { return r->n; }

size_t ws_report_failed(const ws_report *r)
{
    size_t k = 0;
    for (size_t i = 0; i < r->n; i++)
        k += r->ls[i].result != WS_OK;
    return k;
}

static void fill(const ws_report *r, ws_stats_group *g, const ws_launch_stats *ls)
{
    const rep_defs *d = &r->d;
    char kernel[sizeof ls->kernel + 1];
    memcpy(kernel, ls->kernel, sizeof ls->kernel);
    kernel[sizeof ls->kernel] = 0;
    ws_stats_set_text(g, d->kernel, kernel);
    ws_stats_set_text(g, d->mode, ls->mode ? ls->mode : "functional");
    if (ls->policy)
        ws_stats_set_text(g, d->policy, ls->policy);
    const char *res = ws_err_name(ls->result);
    ws_stats_set_text(g, d->result, res ? res : "?");
    ws_stats_set_dim3(g, d->grid, ls->grid);
    ws_stats_set_dim3(g, d->block, ls->block);
    uint64_t ctas = (uint64_t)ls->grid[0] * ls->grid[1] * ls->grid[2];
    ws_stats_set(g, d->ctas, ctas);
    ws_stats_set(g, d->threads, ctas * ls->block[0] * ls->block[1] * ls->block[2]);
    ws_stats_set(g, d->dyn_smem, ls->dyn_smem);
    ws_stats_set(g, d->static_smem, ls->static_smem);
    ws_stats_set(g, d->regs, ls->regs_per_thread);
    ws_stats_set(g, d->warp_insts, ls->warp_insts);
    ws_stats_set(g, d->thread_insts, ls->thread_insts);
    ws_stats_set(g, d->lane_slots, ls->warp_insts * r->cfg.gpu.warp_size);
    for (int i = 0; i < MIX__COUNT; i++)
        ws_stats_set(g, d->mix[i], ls->mix[i]);
    /* cycles exist only in timing mode; leaving them unset hides cycles and ipc */
    if (ls->cycles || (ls->mode && !strcmp(ls->mode, "timing")))
        ws_stats_set(g, d->cycles, ls->cycles);
    ws_stats_set_real(g, d->host_s, ls->host_seconds);
}

/* Builds the launch groups and the total; the caller destroys them. */
static ws_stats_group **build(const ws_report *r, ws_stats_group **total)
{
    ws_stats_group **gs = calloc(r->n + 1, sizeof *gs);
    *total = ws_stats_group_create(r->d.s, "total");
    if (!gs || !*total) {
        free(gs);
        ws_stats_group_destroy(*total);
        *total = NULL;
        return NULL;
    }
    for (size_t i = 0; i < r->n; i++) {
        char title[200];
        snprintf(title, sizeof title, "launch %zu: %.*s", i, (int)sizeof r->ls[i].kernel,
                 r->ls[i].kernel);
        gs[i] = ws_stats_group_create(r->d.s, title);
        if (!gs[i])
            continue;
        fill(r, gs[i], &r->ls[i]);
        ws_stats_accumulate(*total, gs[i]);
    }
    ws_stats_set(*total, r->d.launches, r->n);
    return gs;
}

static void unbuild(const ws_report *r, ws_stats_group **gs, ws_stats_group *total)
{
    if (gs)
        for (size_t i = 0; i < r->n; i++)
            ws_stats_group_destroy(gs[i]);
    free(gs);
    ws_stats_group_destroy(total);
}

/* One block per kernel name, its launches summed, in order of first launch. */
static void print_by_kernel(const ws_report *r, ws_stats_group **gs, FILE *f)
{
    char *done = calloc(r->n, 1);
    if (!done)
        return;
    for (size_t i = 0; i < r->n; i++) {
        if (done[i] || !gs[i])
            continue;
        size_t k = 0;
        for (size_t j = i; j < r->n; j++)
            k += gs[j] && !strncmp(r->ls[i].kernel, r->ls[j].kernel, sizeof r->ls[i].kernel);
        char title[200];
        snprintf(title, sizeof title, "kernel %.*s: %zu launch%s", (int)sizeof r->ls[i].kernel,
                 r->ls[i].kernel, k, k == 1 ? "" : "es");
        ws_stats_group *g = ws_stats_group_create(r->d.s, title);
        if (!g)
            break;
        for (size_t j = i; j < r->n; j++)
            if (gs[j] && !strncmp(r->ls[i].kernel, r->ls[j].kernel, sizeof r->ls[i].kernel)) {
                ws_stats_accumulate(g, gs[j]);
                done[j] = 1;
            }
        ws_stats_set(g, r->d.launches, k);
        ws_stats_print_text(g, f);
        ws_stats_group_destroy(g);
    }
    free(done);
}

void ws_report_print_text(const ws_report *r, FILE *f, int all)
{
    char mode[32] = "?";
    ws_config_get(&r->cfg, "sim.mode", mode, sizeof mode);
    fprintf(f, "warpsim: %zu launch%s, config %s (%s), mode %s\n", r->n, r->n == 1 ? "" : "es",
            *r->source ? r->source : "default", r->cfg.gpu.name, mode);
    ws_stats_group *total;
    ws_stats_group **gs = build(r, &total);
    if (!gs) {
        fputs("warpsim: out of memory building the report\n", f);
        return;
    }
    if (all || r->n <= WS_REPORT_TEXT_LAUNCHES) {
        for (size_t i = 0; i < r->n; i++)
            if (gs[i])
                ws_stats_print_text(gs[i], f);
    } else {
        print_by_kernel(r, gs, f);
    }
    size_t failed = ws_report_failed(r);
    if (failed)
        fprintf(f, "warpsim: %zu launch%s failed\n", failed, failed == 1 ? "" : "es");
    if (r->n != 1)
        ws_stats_print_text(total, f);
    unbuild(r, gs, total);
}

cJSON *ws_report_json(const ws_report *r)
{
    cJSON *root = cJSON_CreateObject();
    ws_stats_group *total;
    ws_stats_group **gs = root ? build(r, &total) : NULL;
    if (!gs) {
        cJSON_Delete(root);
        return NULL;
    }
    cJSON_AddStringToObject(root, "config_source", r->source);
    cJSON *cfg = ws_config_json(&r->cfg);
    if (cfg)
        cJSON_AddItemToObject(root, "config", cfg);
    cJSON *arr = cJSON_AddArrayToObject(root, "launches");
    for (size_t i = 0; i < r->n && arr; i++) {
        cJSON *o = gs[i] ? ws_stats_json(gs[i]) : NULL;
        if (o)
            cJSON_AddItemToArray(arr, o);
    }
    cJSON *t = ws_stats_json(total);
    if (t)
        cJSON_AddItemToObject(root, "total", t);
    unbuild(r, gs, total);
    return root;
}

int ws_report_write_json(const ws_report *r, const char *path, char *err, size_t n)
{
    cJSON *j = ws_report_json(r);
    char *txt = j ? cJSON_Print(j) : NULL;
    cJSON_Delete(j);
    if (!txt) {
        snprintf(err, n, "%s: out of memory", path);
        return -1;
    }
    FILE *f = fopen(path, "w");
    int rc = 0;
    if (!f) {
        snprintf(err, n, "%s: %s", path, strerror(errno));
        rc = -1;
    } else {
        if (fputs(txt, f) < 0 || fputc('\n', f) == EOF)
            rc = -1;
        if (fclose(f))
            rc = -1;
        if (rc)
            snprintf(err, n, "%s: write error", path);
    }
    free(txt);
    return rc;
}

void ws_report_print_doc(FILE *f)
{
    rep_defs d;
    fputs("# warpsim statistics\n\n"
          "<!-- generated by `warpsim stats --doc`; edit src/api/report.c, not this file -->\n\n"
          "The run report (`warpsim run`, `--json FILE`, and `$WARPSIM_STATS` for programs using\n"
          "the CUDA Driver API) has one block per kernel launch and a `total` block summing\n"
          "the launches. Names are stable identifiers (the JSON keys). Counters are summed in\n"
          "the total; statistics marked \"not in totals\" describe one launch only; formulas are\n"
          "recomputed from the summed counters, and a formula whose divisor is 0 reports 0.\n"
          "The text report omits zero instruction-mix entries, and beyond 8 launches shows\n"
          "one block per kernel (its launches summed; `warpsim run --all-launches` shows\n"
          "each). `cycles` and `ipc` appear in timing mode only. The JSON document is\n"
          "`{\"config_source\": ..., \"config\": {...}, \"launches\": [{...}, ...], \"total\": {...}}`\n"
          "where `config` is the effective configuration (docs/CONFIG.md).\n\n"
          "| name | unit | definition |\n|---|---|---|\n",
          f);
    memset(&d, 0, sizeof d);
    if (defs_init(&d) == 0)
        ws_stats_print_doc(d.s, f);
    ws_stats_destroy(d.s);
}
