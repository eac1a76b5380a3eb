/* opt.c - option parsing and the shared configuration options of the CLI. */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

int cli_next(cli_args *a, const cli_opt *opts, const char **val)
{
    *val = NULL;
    if (a->i >= a->argc)
        return 0;
    const char *s = a->argv[a->i];
    if (!strcmp(s, "-h"))
        s = "--help";
    if (!strcmp(s, "--")) {
        a->i++;
        return 0;
    }
    if (strncmp(s, "--", 2) || !s[2]) {
        if (s[0] == '-' && s[1]) {
            fprintf(stderr, "%s: unknown option '%s' (options are --long; try --help)\n", a->cmd,
                    s);
            return -1;
        }
        return 0;   /* an operand */
    }
    const char *name = s + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    for (const cli_opt *o = opts; o->name; o++) {
        if (strlen(o->name) != len || strncmp(o->name, name, len))
            continue;
        a->i++;
        if (!o->has_arg) {
            if (eq) {
                fprintf(stderr, "%s: option '--%s' takes no value\n", a->cmd, o->name);
                return -1;
            }
            return o->id;
        }
        if (eq) {
            *val = eq + 1;
        } else if (a->i < a->argc) {
            *val = a->argv[a->i++];
        } else {
            fprintf(stderr, "%s: option '--%s' needs a value\n", a->cmd, o->name);
            return -1;
        }
        return o->id;
    }
    fprintf(stderr, "%s: unknown option '%s' (try --help)\n", a->cmd, s);
    return -1;
}

int cli_cfg_opt(cli_cfg_opts *o, int id, const char *val, const char *cmd)
{
    switch (id) {
    case CLI_OPT_CONFIG: o->config = val; return 0;
    case CLI_OPT_MODE: o->mode = val; return 0;
    case CLI_OPT_THREADS: o->threads = val; return 0;
    case CLI_OPT_MAX_CYCLES:
    case CLI_OPT_MAX_INSTS: {
        int c = id == CLI_OPT_MAX_CYCLES;
        if (o->n_sets == CLI_MAX_SETS) {
            fprintf(stderr, "%s: too many --set options\n", cmd);
            return CLI_USAGE;
        }
        snprintf(o->budget[c], sizeof o->budget[c], "sim.%s=%.40s", c ? "max_cycles" : "max_insts",
                 val);
        o->sets[o->n_sets++] = o->budget[c];
        return 0;
    }
    case CLI_OPT_SET:
        if (o->n_sets == CLI_MAX_SETS) {
            fprintf(stderr, "%s: more than %d --set options\n", cmd, CLI_MAX_SETS);
            return CLI_USAGE;
        }
        o->sets[o->n_sets++] = val;
        return 0;
    default: return CLI_USAGE;
    }
}

static void append(char *buf, size_t n, const char *a, const char *b)
{
    size_t k = strlen(buf);
    if (k < n)
        snprintf(buf + k, n - k, "%s%s", a, b);
}

int cli_cfg_build(const cli_cfg_opts *o, ws_config *cfg, char *source, size_t sn,
                  const char *cmd)
{
    char err[600];
    const char *env_cfg = getenv("WARPSIM_CONFIG"), *env_set = getenv("WARPSIM_SET");
    const char *env_mode = getenv("WARPSIM_MODE");
    const char *name = o->config ? o->config : env_cfg && *env_cfg ? env_cfg : "gtx480";
    const char *mode = o->mode ? o->mode : env_mode && *env_mode ? env_mode : NULL;
    source[0] = 0;
    append(source, sn, "", name);
    if (ws_config_load(cfg, name, err, sizeof err)) {
        fprintf(stderr, "%s: %s%s\n", cmd, o->config ? "--config: " : "WARPSIM_CONFIG: ", err);
        return CLI_CONFIG;
    }
    if (env_set && *env_set) {
        if (ws_config_set(cfg, env_set, err, sizeof err)) {
            fprintf(stderr, "%s: WARPSIM_SET: %s\n", cmd, err);
            return CLI_CONFIG;
        }
        append(source, sn, " + ", env_set);
    }
    for (int i = 0; i < o->n_sets; i++) {
        if (ws_config_set(cfg, o->sets[i], err, sizeof err)) {
            fprintf(stderr, "%s: --set: %s\n", cmd, err);
            return CLI_CONFIG;
        }
        append(source, sn, " + ", o->sets[i]);
    }
    if (mode) {
        char kv[80];
        snprintf(kv, sizeof kv, "sim.mode=%.60s", mode);
        if (ws_config_set(cfg, kv, err, sizeof err)) {
            fprintf(stderr, "%s: %s: %s\n", cmd, o->mode ? "--mode" : "WARPSIM_MODE", err);
            return CLI_CONFIG;
        }
        append(source, sn, " + ", kv);
    }
    if (o->threads) {
        char kv[80];
        snprintf(kv, sizeof kv, "sim.host_threads=%.50s", o->threads);
        if (ws_config_set(cfg, kv, err, sizeof err)) {
            fprintf(stderr, "%s: --threads: %s\n", cmd, err);
            return CLI_CONFIG;
        }
    }
    if (ws_config_check(cfg, err, sizeof err)) {
        fprintf(stderr, "%s: configuration '%s': %s\n", cmd, source, err);
        return CLI_CONFIG;
    }
    return 0;
}
