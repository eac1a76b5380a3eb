/* cmd_sweep.c - `warpsim sweep`: the sweep tool (experiments/sweep, Python) under the
 * warpsim command, with this executable as the simulator of the sweep's runs. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

#ifndef WS_SOURCE_DIR
#define WS_SOURCE_DIR "."
#endif

void cli_sweep_help(FILE *f)
{
    fputs("usage: warpsim sweep run|list|gather FILE [options]\n\n"
          "Runs a sweep described by a TOML file (workloads, sizes, presets, policies, --set\n"
          "overrides, a [matrix] of values) on this host or on Slurm, reusing results that\n"
          "exist, and gathers the reports into one CSV (one row per run and launch) with\n"
          "figures. The same as experiments/sweep with --warpsim set to this executable;\n"
          "its options: `warpsim sweep run --help`; the file format and the Slurm backend:\n"
          "docs/SWEEPS.md. $WARPSIM_SWEEP names the script when it is not in the source\n"
          "tree this warpsim was built from.\n"
          "Exit codes: 0 all runs passed, 1 some run failed, 2 usage or setup error.\n",
          f);
}

int cli_sweep(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        cli_sweep_help(argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_USAGE : CLI_OK;
    }
    char script[PATH_MAX], self[PATH_MAX];
    const char *env = getenv("WARPSIM_SWEEP");
    snprintf(script, sizeof script, "%s", env && *env ? env : WS_SOURCE_DIR "/experiments/sweep");
    if (access(script, R_OK)) {
        fprintf(stderr, "warpsim sweep: %s: %s (set WARPSIM_SWEEP to experiments/sweep of a "
                        "warpsim source tree)\n", script, strerror(errno));
        return CLI_USAGE;
    }
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    self[k > 0 ? k : 0] = 0;
    /* python3 SCRIPT ARGS... [--warpsim SELF] */
    char **av = calloc((size_t)argc + 5, sizeof *av);
    if (!av)
        return CLI_SIM;
    int n = 0, has = 0;
    av[n++] = "python3";
    av[n++] = script;
    for (int i = 1; i < argc; i++) {
        has |= !strcmp(argv[i], "--warpsim") || !strncmp(argv[i], "--warpsim=", 10);
        av[n++] = argv[i];
    }
    int sub = !strcmp(argv[1], "run") || !strcmp(argv[1], "list") || !strcmp(argv[1], "gather");
    if (sub && !has && k > 0) {
        av[n++] = "--warpsim";
        av[n++] = self;
    }
    av[n] = NULL;
    fflush(NULL);
    execvp(av[0], av);
    fprintf(stderr, "warpsim sweep: cannot run python3: %s\n", strerror(errno));
    free(av);
    return CLI_USAGE;
}
