/* main.c - `warpsim COMMAND ...`: the command table and dispatch. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static int cli_help(int argc, char **argv);
static void cli_help_help(FILE *f);

static const cli_cmd commands[] = {
    {"run", "[options] [WORKLOAD [ARGS...]]", "run a built-in workload and print its statistics",
     cli_run, cli_run_help},
    {"exec", "[options] [--] PROGRAM [ARGS...]",
     "run an unmodified CUDA program (nvcc -cudart shared) and print its statistics",
     cli_exec, cli_exec_help},
    {"list", "[--scheds]", "list the built-in workloads, configuration presets and schedulers",
     cli_list, cli_list_help},
    {"config", "[options]", "print the effective configuration (or --doc: CONFIG.md)",
     cli_config, cli_config_help},
    {"stats", "--doc", "print the documentation of every statistic (STATS.md)", cli_stats,
     cli_stats_help},
    {"ptx", "check|analyze|annotate FILE.ptx...", "parse PTX files: describe, analyze, annotate", cli_ptx,
     cli_ptx_help},
    {"sweep", "run|list|gather FILE [options]",
     "run a sweep file (workloads x configurations) locally or on Slurm; gather a CSV",
     cli_sweep, cli_sweep_help},
    {"help", "[COMMAND]", "show help for a command", cli_help, cli_help_help},
    {NULL, NULL, NULL, NULL, NULL},
};

static const cli_cmd *find_cmd(const char *name)
{
    for (const cli_cmd *c = commands; c->name; c++)
        if (!strcmp(c->name, name))
            return c;
    return NULL;
}

static void usage(FILE *f)
{
    fputs("usage: warpsim COMMAND [ARGS...]\n\n"
          "warpsim simulates a SIMT GPU running the PTX that nvcc emits.\n\ncommands:\n",
          f);
    for (const cli_cmd *c = commands; c->name; c++)
        fprintf(f, "  %-7s %s\n", c->name, c->summary);
    fputs("\n`warpsim COMMAND --help` describes a command.\n" CLI_EXIT_HELP, f);
}

static void cli_help_help(FILE *f)
{
    fputs("usage: warpsim help [COMMAND]\n\nShows the help of COMMAND, or the command list.\n"
          CLI_EXIT_HELP,
          f);
}

static int cli_help(int argc, char **argv)
{
    if (argc < 2) {
        usage(stdout);
        return CLI_OK;
    }
    const cli_cmd *c = find_cmd(argv[1]);
    if (!c) {
        fprintf(stderr, "warpsim help: unknown command '%s'\n", argv[1]);
        return CLI_USAGE;
    }
    c->help(stdout);
    return CLI_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        puts("warpsim 0.1");
        return CLI_OK;
    }
    const cli_cmd *c = find_cmd(argv[1]);
    if (!c) {
        fprintf(stderr, "warpsim: unknown command '%s'\n\n", argv[1]);
        usage(stderr);
        return CLI_USAGE;
    }
    return c->run(argc - 1, argv + 1);
}
