/* cli.h - the warpsim command-line tool: commands, option parsing, exit codes. */
#ifndef WS_CLI_CLI_H
#define WS_CLI_CLI_H

#include <stdio.h>

#include "gpu/config.h"

/* Exit codes of every command (also in --help and docs/CLI.md). */
enum {
    CLI_OK = 0,       /* success                                                   */
    CLI_FAIL = 1,     /* the workload failed its check / `ptx check` found an error */
    CLI_USAGE = 2,    /* bad command line                                          */
    CLI_CONFIG = 3,   /* bad configuration (file, --set, --mode)                    */
    CLI_SIM = 4,      /* a kernel faulted or the simulator failed                   */
    CLI_STOPPED = 5,  /* --max-cycles / --max-insts stopped the run (partial stats)  */
    /* SIGINT / SIGTERM: 128 + the signal, after writing the partial statistics       */
};

#define CLI_EXIT_HELP                                                                     \
    "exit codes: 0 ok, 1 workload failed / check failed, 2 usage error,\n"                \
    "            3 configuration error, 4 simulation error, 5 stopped by a budget\n"   \
    "            (partial statistics), 128+N interrupted by signal N (partial)\n"

/* One command of the table in main.c. argv[0] is the command name. */
typedef struct {
    const char *name, *usage, *summary;
    int (*run)(int argc, char **argv);
    void (*help)(FILE *f);
} cli_cmd;

int cli_run(int argc, char **argv);
void cli_run_help(FILE *f);
int cli_list(int argc, char **argv);
void cli_list_help(FILE *f);
int cli_config(int argc, char **argv);
void cli_config_help(FILE *f);
int cli_stats(int argc, char **argv);
void cli_stats_help(FILE *f);
int cli_ptx(int argc, char **argv);
void cli_ptx_help(FILE *f);
int cli_exec(int argc, char **argv);
void cli_exec_help(FILE *f);
int cli_sweep(int argc, char **argv);
void cli_sweep_help(FILE *f);

/* ---- options ------------------------------------------------------------------------ *
 * Long options only: "--name value", "--name=value" or "--flag". Parsing stops at the
 * first argument that is not an option (or after "--"), so everything after a workload
 * name belongs to the workload. */
typedef struct {
    const char *name;   /* without the dashes                                        */
    int has_arg;
    int id;             /* returned by cli_next (> 0)                                 */
} cli_opt;

typedef struct {
    int argc;
    char **argv;
    int i;              /* next argument; after cli_next returns 0, the first operand */
    const char *cmd;    /* for messages: "warpsim run"                                */
} cli_args;

/* Returns the id of the next option (its value in *val), 0 at the end of the options,
 * or -1 after printing an error for an unknown option or a missing value. */
int cli_next(cli_args *a, const cli_opt *opts, const char **val);

/* The configuration options shared by run and config. */
#define CLI_MAX_SETS 64
typedef struct {
    const char *config;                 /* --config, else $WARPSIM_CONFIG, else gtx480 */
    const char *sets[CLI_MAX_SETS];     /* --set, after $WARPSIM_SET                   */
    int n_sets;
    const char *mode;                   /* --mode, else $WARPSIM_MODE                  */
    char budget[2][64];                 /* --max-cycles / --max-insts as --set text    */
    const char *threads;                /* --threads (sim.host_threads); not part of the
                                           configuration's description: results do not
                                           depend on it                                */
} cli_cfg_opts;

enum { CLI_OPT_CONFIG = 1000, CLI_OPT_SET, CLI_OPT_MODE, CLI_OPT_MAX_CYCLES, CLI_OPT_MAX_INSTS,
       CLI_OPT_THREADS };
#define CLI_CFG_OPTS                                                                      \
    {"config", 1, CLI_OPT_CONFIG}, {"set", 1, CLI_OPT_SET}, {"mode", 1, CLI_OPT_MODE},   \
    {"max-cycles", 1, CLI_OPT_MAX_CYCLES}, {"max-insts", 1, CLI_OPT_MAX_INSTS},          \
    {"threads", 1, CLI_OPT_THREADS}

/* Handles a CLI_OPT_* id; returns 0, or CLI_USAGE after printing an error. */
int cli_cfg_opt(cli_cfg_opts *o, int id, const char *val, const char *cmd);
/* Builds the configuration; describes it in source ("gtx480 + gpu.n_sm=30").
 * Returns 0, or CLI_CONFIG after printing the error. */
int cli_cfg_build(const cli_cfg_opts *o, ws_config *cfg, char *source, size_t sn,
                  const char *cmd);

#define CLI_CFG_HELP                                                                      \
    "  --config C     preset name (gtx480, hd7970, qv100 ...: warpsim list) or INI file;\n" \
    "                 default $WARPSIM_CONFIG or gtx480\n"                                 \
    "  --set K=V      override one parameter (section.key=value; repeatable; applied\n"    \
    "                 after $WARPSIM_SET); see docs/CONFIG.md\n"                           \
    "  --mode M       functional or timing (sim.mode); default $WARPSIM_MODE\n"            \
    "  --max-cycles N stop the run cleanly after N simulated cycles (sim.max_cycles);\n"  \
    "                 the statistics so far are written, marked partial\n"              \
    "  --max-insts N  the same after N warp instructions (sim.max_insts)\n"              \
    "  --threads N    simulate on N host threads (sim.host_threads): with the detailed\n" \
    "                 memory model one runs the L2 and DRAM (mem.l2_thread), the others\n" \
    "                 the SMs; the results are identical for every N\n"

/* SIGINT/SIGTERM during a run: the first one asks the simulator to stop
 * (ws_stop_request; the running launch ends within a step), so that the partial
 * statistics can be written; a second one kills the process as usual. */
void cli_catch_signals(void);
void cli_restore_signals(void);
/* `warpsim exec` waiting for program pid: SIGINT is left to the program (it reaches the
 * whole process group), SIGTERM is passed on to it; cli_restore_signals undoes it. */
void cli_forward_signals(long pid);

#endif
