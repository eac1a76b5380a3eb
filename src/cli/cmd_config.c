/* cmd_config.c - `warpsim config` and `warpsim stats`: configuration and documentation. */
#include <stdlib.h>
#include <string.h>

#include "api/report.h"
#include "cli/cli.h"
#include "util/json_out.h"

void cli_config_help(FILE *f)
{
    fputs("usage: warpsim config [options]\n\n"
          "Prints the effective configuration as INI text (loadable with --config FILE).\n\n"
          "options:\n" CLI_CFG_HELP
          "  --json         print it as JSON instead\n"
          "  --doc          print the parameter reference (docs/CONFIG.md) instead\n"
          "  --help         this text\n" CLI_EXIT_HELP,
          f);
}

enum { OPT_HELP = 1, OPT_JSON, OPT_DOC };

int cli_config(int argc, char **argv)
{
    static const cli_opt opts[] = {{"help", 0, OPT_HELP}, {"json", 0, OPT_JSON},
                                   {"doc", 0, OPT_DOC},   CLI_CFG_OPTS,
                                   {NULL, 0, 0}};
    cli_args a = {argc, argv, 1, "warpsim config"};
    cli_cfg_opts co = {0};
    const char *val;
    int id, json = 0, doc = 0;
    while ((id = cli_next(&a, opts, &val)) > 0) {
        switch (id) {
        case OPT_HELP: cli_config_help(stdout); return CLI_OK;
        case OPT_JSON: json = 1; break;
        case OPT_DOC: doc = 1; break;
        default:
            if (cli_cfg_opt(&co, id, val, a.cmd))
                return CLI_USAGE;
        }
    }
    if (id < 0)
        return CLI_USAGE;
    if (a.i < argc) {
        fprintf(stderr, "%s: unexpected argument '%s'\n", a.cmd, argv[a.i]);
        return CLI_USAGE;
    }
    if (doc) {
        ws_config_print_doc(stdout);
        return CLI_OK;
    }
    ws_config cfg;
    char source[1024];
    int rc = cli_cfg_build(&co, &cfg, source, sizeof source, a.cmd);
    if (rc)
        return rc;
    if (json) {
        cJSON *j = ws_config_json(&cfg);
        char *txt = j ? json_print(j) : NULL;
        if (!txt) {
            cJSON_Delete(j);
            fprintf(stderr, "%s: out of memory\n", a.cmd);
            return CLI_SIM;
        }
        puts(txt);
        free(txt);
        cJSON_Delete(j);
        return CLI_OK;
    }
    printf("; warpsim configuration: %s\n", source);
    ws_config_print_ini(&cfg, stdout);
    return CLI_OK;
}

void cli_stats_help(FILE *f)
{
    fputs("usage: warpsim stats --doc\n\n"
          "Prints the definition of every statistic of the run report (docs/STATS.md).\n"
          CLI_EXIT_HELP,
          f);
}

int cli_stats(int argc, char **argv)
{
    static const cli_opt opts[] = {{"help", 0, OPT_HELP}, {"doc", 0, OPT_DOC}, {NULL, 0, 0}};
    cli_args a = {argc, argv, 1, "warpsim stats"};
    const char *val;
    int id, doc = 0;
    while ((id = cli_next(&a, opts, &val)) > 0) {
        if (id == OPT_HELP) {
            cli_stats_help(stdout);
            return CLI_OK;
        }
        doc = 1;
    }
    if (id < 0)
        return CLI_USAGE;
    if (!doc || a.i < argc) {
        cli_stats_help(stderr);
        return CLI_USAGE;
    }
    ws_report_print_doc(stdout);
    return CLI_OK;
}
