/* cmd_run.c - `warpsim run` and `warpsim list`: the built-in workloads. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/progress.h"
#include "api/report.h"
#include "bench_registry.h"
#include "cli/cli.h"

/* The workload run when none is named: the smallest one we know, else the first. */
static const char *const default_workloads[] = {"vecadd", "scp", "reduction", NULL};

static const bench_entry *find_workload(const char *name)
{
    for (const bench_entry *e = bench_registry; e->name; e++)
        if (!strcmp(e->name, name))
            return e;
    return NULL;
}

void cli_run_help(FILE *f)
{
    fputs("usage: warpsim run [options] [WORKLOAD [ARGS...]]\n\n"
          "Runs a built-in workload (see `warpsim list`) on the simulated GPU, then prints\n"
          "the statistics of its kernel launches (docs/STATS.md). ARGS go to the workload\n"
          "(e.g. --size small|default|large, --quiet). Without WORKLOAD, runs a small\n"
          "default workload and says which.\n\noptions:\n" CLI_CFG_HELP
          "  --sched NAME   warp scheduling policy of the timing model (core.scheduler)\n"
          "  --json FILE    also write the report as JSON to FILE\n"
          "  --no-report    do not print the text report\n"
          "  --quiet        no progress line (on a terminal, a run longer than a second\n"
          "                 shows launch, CTAs done/total, cycles, instructions/s, ETA;\n"
          "                 the workload's own --quiet does the same)\n"
          "  --all-launches print every launch; by default, beyond 8 launches the text\n"
          "                 report sums the launches of each kernel (JSON has them all)\n"
          "  --help         this text\n\n"
          "The exit code is the workload's (0 PASS, non-zero FAIL), except:\n"
          "  2 bad command line or unknown workload, 3 configuration error,\n"
          "  4 a kernel faulted (the workload failed and a launch reported an error),\n"
          "  5 --max-cycles/--max-insts stopped the run, 128+N signal N (SIGINT, SIGTERM)\n"
          "    interrupted it: the statistics so far are printed and written, marked partial.\n"
          CLI_EXIT_HELP,
          f);
}

static void collect(ws_sim *sim, void *user)
{
    ws_report *r = user;
    size_t n = 0;
    ws_launch_stats *ls = ws_sim_launches_mut(sim, &n);   /* the simulation is being destroyed */
    for (size_t i = 0; i < n; i++)
        if (ws_report_take(r, &ls[i]))
            fprintf(stderr, "warpsim run: out of memory collecting statistics\n");
}

enum { OPT_HELP = 1, OPT_JSON, OPT_SCHED, OPT_NO_REPORT, OPT_ALL, OPT_QUIET };

int cli_run(int argc, char **argv)
{
    static const cli_opt opts[] = {{"help", 0, OPT_HELP},   {"json", 1, OPT_JSON},
                                   {"sched", 1, OPT_SCHED}, {"no-report", 0, OPT_NO_REPORT},
                                   {"all-launches", 0, OPT_ALL},  {"quiet", 0, OPT_QUIET},
                                   CLI_CFG_OPTS,            {NULL, 0, 0}};
    cli_args a = {argc, argv, 1, "warpsim run"};
    cli_cfg_opts co = {0};
    const char *json = NULL, *sched = NULL, *val;
    int report = 1, all = 0, quiet = 0, id;
    while ((id = cli_next(&a, opts, &val)) > 0) {
        switch (id) {
        case OPT_HELP: cli_run_help(stdout); return CLI_OK;
        case OPT_JSON: json = val; break;
        case OPT_SCHED: sched = val; break;
        case OPT_NO_REPORT: report = 0; break;
        case OPT_ALL: all = 1; break;
        case OPT_QUIET: quiet = 1; break;
        default:
            if (cli_cfg_opt(&co, id, val, a.cmd))
                return CLI_USAGE;
        }
    }
    if (id < 0)
        return CLI_USAGE;

    /* --sched NAME is the override core.scheduler=NAME (noted only, were the key gone) */
    char sched_kv[128];
    if (sched && ws_config_find("core", "scheduler")) {
        snprintf(sched_kv, sizeof sched_kv, "core.scheduler=%.100s", sched);
        if (cli_cfg_opt(&co, CLI_OPT_SET, sched_kv, a.cmd))
            return CLI_USAGE;
        sched = NULL;
    }
    ws_config cfg;
    char source[1024];
    int rc = cli_cfg_build(&co, &cfg, source, sizeof source, a.cmd);
    if (rc)
        return rc;
    if (sched) {
        size_t k = strlen(source);
        snprintf(source + k, sizeof source - k, " + --sched %s (stored, unused)", sched);
    }
    if (!ws_api_mode_supported(cfg.sim.mode)) {
        fprintf(stderr, "%s: sim.mode=timing is not implemented yet; use --mode functional\n",
                a.cmd);
        return CLI_CONFIG;
    }

    const bench_entry *w;
    char **wargv = argv + a.i;
    int wargc = argc - a.i;
    char *defargv[2] = {NULL, NULL};
    if (wargc > 0) {
        w = find_workload(wargv[0]);
        if (!w) {
            fprintf(stderr, "%s: unknown workload '%s' (`warpsim list` shows them)\n", a.cmd,
                    wargv[0]);
            return CLI_USAGE;
        }
    } else {
        w = NULL;
        for (int i = 0; default_workloads[i] && !w; i++)
            w = find_workload(default_workloads[i]);
        if (!w)
            w = bench_registry[0].name ? &bench_registry[0] : NULL;
        if (!w) {
            fprintf(stderr, "%s: no workloads are built in\n", a.cmd);
            return CLI_USAGE;
        }
        fprintf(stderr, "warpsim run: no workload given; running '%s' (`warpsim list` shows all)\n",
                w->name);
        defargv[0] = (char *)w->name;
        wargv = defargv;
        wargc = 1;
    }

    char err[600];
    ws_report *rep = ws_report_create(&cfg, source);
    if (!rep || ws_api_set_config(&cfg, source, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", a.cmd, rep ? err : "out of memory");
        ws_report_destroy(rep);
        return rep ? CLI_CONFIG : CLI_SIM;
    }
    ws_api_on_destroy(collect, rep);
    for (int i = 1; i < wargc; i++)
        quiet |= !strcmp(wargv[i], "--quiet");
    ws_progress_display prog;
    int show = !quiet && ws_progress_display_init(&prog, stderr);
    if (show)
        ws_api_on_progress(ws_progress_display_cb, &prog);
    ws_stop_clear();
    cli_catch_signals();
    int wrc = w->main(wargc, wargv);
    fflush(stdout);
    if (show) {
        ws_api_on_progress(NULL, NULL);
        ws_progress_display_clear(&prog);
    }
    ws_api_shutdown();   /* contexts the workload left alive report here */
    ws_api_on_destroy(NULL, NULL);
    ws_api_set_config(NULL, NULL, NULL, 0);
    int sig = ws_stop_requested();
    char why[64];
    if (sig) {
        snprintf(why, sizeof why, "interrupted by signal %d", sig);
        ws_report_mark_partial(rep, why);
        fprintf(stderr, "%s: %s; writing the statistics gathered so far (partial)\n", a.cmd, why);
    }

    if (report)
        ws_report_print_text(rep, stdout, all);
    if (json && ws_report_write_json(rep, json, err, sizeof err)) {
        fprintf(stderr, "%s: --json: %s\n", a.cmd, err);
        if (!wrc)
            wrc = CLI_FAIL;
    }
    size_t failed = ws_report_failed(rep);
    const char *partial = ws_report_partial(rep);
    if (partial && !sig)
        fprintf(stderr, "%s: run stopped early (%s); the statistics are partial\n", a.cmd, partial);
    ws_report_destroy(rep);
    cli_restore_signals();
    ws_stop_clear();
    if (sig)
        return 128 + (sig > 0 ? sig : SIGINT);
    if (partial)
        return CLI_STOPPED;
    if (wrc && failed)
        return CLI_SIM;
    return wrc;
}

void cli_list_help(FILE *f)
{
    fputs("usage: warpsim list [--scheds]\n\n"
          "Lists the built-in workloads (with descriptions), the configuration presets and\n"
          "the warp scheduling policies (core.scheduler, --sched). --scheds lists only the\n"
          "policies.\n" CLI_EXIT_HELP,
          f);
}

static void list_scheds(int w)
{
    const char *name, *desc;
    for (size_t i = 0; !ws_plugin_at(WS_PLUGIN_SCHED, i, &name, &desc); i++)
        printf("  %-*s  %s\n", w, name, desc ? desc : "");
}

enum { OPT_LIST_HELP = 1, OPT_SCHEDS };

int cli_list(int argc, char **argv)
{
    static const cli_opt opts[] = {{"help", 0, OPT_LIST_HELP}, {"scheds", 0, OPT_SCHEDS},
                                   {NULL, 0, 0}};
    cli_args a = {argc, argv, 1, "warpsim list"};
    const char *val;
    int id, only_scheds = 0;
    while ((id = cli_next(&a, opts, &val)) > 0) {
        if (id == OPT_LIST_HELP) {
            cli_list_help(stdout);
            return CLI_OK;
        }
        only_scheds = 1;
    }
    if (id < 0)
        return CLI_USAGE;
    if (a.i < argc) {
        fprintf(stderr, "%s: unexpected argument '%s'\n", a.cmd, argv[a.i]);
        return CLI_USAGE;
    }
    int w = 8;
    for (const bench_entry *e = bench_registry; e->name; e++)
        w = (int)strlen(e->name) > w ? (int)strlen(e->name) : w;
    if (only_scheds) {
        list_scheds(w);
        return CLI_OK;
    }
    puts("workloads (warpsim run NAME [--size small|default|large]):");
    for (const bench_entry *e = bench_registry; e->name; e++)
        printf("  %-*s  %s\n", w, e->name, e->desc ? e->desc : "");
    puts("\nconfiguration presets (--config NAME):");
    for (size_t i = 0; ws_config_preset_name(i); i++) {
        ws_config c;
        char err[300];
        const char *n = ws_config_preset_name(i);
        if (ws_config_load(&c, n, err, sizeof err))
            printf("  %-*s  (does not load: %s)\n", w, n, err);
        else
            printf("  %-*s  %s, %u SMs, warp %u\n", w, n, c.gpu.name, c.gpu.n_sm,
                   c.gpu.warp_size);
    }
    puts("\nwarp schedulers (--sched NAME, core.scheduler; timing mode):");
    list_scheds(w);
    return CLI_OK;
}
