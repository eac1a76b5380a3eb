/* cmd_ptx.c - `warpsim ptx check`: parse PTX and describe each function. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/occupancy.h"
#include "ptx/regalloc.h"
#include "util/err.h"
#include "ptx/cfg.h"
#include "ptx/ir.h"

void cli_ptx_help(FILE *f)
{
    fputs("usage: warpsim ptx check FILE.ptx...\n"
          "       warpsim ptx analyze [--json] [--threshold T] [--set K=V]... FILE.ptx...\n"
          "       warpsim ptx annotate FILE.ptx -o OUT.ptx [--form seed|pragma|both]\n\n"
          "analyze: the static LRR/GTO choice of seed 001 per kernel (docs/STATIC_SELECT.md);\n"
          "annotate: writes that choice into the PTX for the static-select scheduler.\n\n"
          "check: parses each file as the simulator does and prints, per kernel (.entry) and\n"
          "function (.func): parameters (name, size, offset), registers by type, their\n"
          "storage slots in the functional emulator (func.host_reg_compact), static\n"
          "shared memory, per-thread local frame, basic blocks and natural loops (count\n"
          "and deepest nesting). A parse error is printed as file:line:col: message.\n\n"
          "Exit code 1 when a file does not parse or cannot be read.\n" CLI_EXIT_HELP,
          f);
}


static void describe_func(const ptx_module *m, const ptx_func *f)
{
    printf("%s %s\n", f->is_entry ? ".entry" : ".func", ptx_str(m, f->name));
    if (f->is_decl) {
        puts("  declaration only (no body)");
        return;
    }
    uint64_t psize = 0;
    for (uint32_t i = 0; i < f->n_params; i++) {
        const ptx_symbol *s = &m->syms[f->params[i]];
        psize = s->addr + s->size > psize ? s->addr + s->size : psize;
    }
    printf("  params       %u (%llu bytes)\n", f->n_params,
           (unsigned long long)(f->is_entry ? f->param_size : psize));
    for (uint32_t i = 0; i < f->n_params; i++) {
        const ptx_symbol *s = &m->syms[f->params[i]];
        printf("    %-24s %6llu bytes  offset %llu\n", ptx_str(m, s->name),
               (unsigned long long)s->size, (unsigned long long)s->addr);
    }
    for (uint32_t i = 0; i < f->n_rets; i++) {
        const ptx_symbol *s = &m->syms[f->rets[i]];
        printf("    return %-17s %6llu bytes  offset %llu\n", ptx_str(m, s->name),
               (unsigned long long)s->size, (unsigned long long)s->addr);
    }
    uint32_t by_type[PT__COUNT] = {0};
    for (uint32_t i = 0; i < f->n_regs; i++)
        if (f->regs[i].type < PT__COUNT)
            by_type[f->regs[i].type]++;
    printf("  registers    %u", f->n_regs);
    const char *sep = ": ";
    for (int t = 0; t < PT__COUNT; t++)
        if (by_type[t]) {
            printf("%s%s %u", sep, *ptx_type_name[t] ? ptx_type_name[t] : "untyped", by_type[t]);
            sep = ", ";
        }
    putchar('\n');
    if (!f->is_decl) {
        if (f->ptxas_regs)
            printf("  per thread   %u registers (ptxas: warpsim.regs pragma)\n", f->ptxas_regs);
        else if (f->maxnreg)
            printf("  per thread   %u registers (.maxnreg)\n", f->maxnreg);
        else
            printf("  per thread   %u registers (estimate: PTX liveness)\n", estimate_regs(m, f));
        /* the functional emulator's storage rows per warp (func.host_reg_compact) */
        ptx_regalloc ra;
        if (!ptx_regalloc_build(m, f, 1, &ra)) {
            printf("  reg storage  %u slots of %u registers%s\n", ra.n_slots, ra.n_regs,
                   ra.compacted ? "" : " (not compacted)");
            ptx_regalloc_free(&ra);
        }
    }
    printf("  shared       %llu bytes static", (unsigned long long)f->shared_static);
    if (m->shared_static)
        printf(" (+%llu module-scope)", (unsigned long long)m->shared_static);
    putchar('\n');
    printf("  local        %u bytes per-thread frame\n", f->frame_size);
    printf("  instructions %u\n", f->n_insns);
    if (f->cfg) {
        uint32_t depth = 0;
        for (uint32_t i = 0; i < f->cfg->n_loops; i++)
            depth = f->cfg->loops[i].depth > depth ? f->cfg->loops[i].depth : depth;
        printf("  blocks       %u\n", f->cfg->n_blocks);
        printf("  loops        %u (max depth %u)\n", f->cfg->n_loops, depth);
    }
}

static int check_file(const char *path)
{
    size_t len = 0;
    char why[512];
    char *text = ws_read_file(path, &len, SIZE_MAX, why, sizeof why);
    if (!text) {
        fprintf(stderr, "%s\n", why);
        return CLI_FAIL;
    }
    ptx_diag d;
    memset(&d, 0, sizeof d);
    ptx_module *m = ptx_parse(text, len, path, &d);
    free(text);
    if (!m) {
        fprintf(stderr, "%s:%u:%u: %s\n", path, d.line, d.col, d.msg);
        return CLI_FAIL;
    }
    printf("%s: PTX %u.%u, target %s, %u-bit addresses, %u function%s\n", path,
           m->version_major, m->version_minor, m->target ? m->target : "?", m->address_size,
           m->n_funcs, m->n_funcs == 1 ? "" : "s");
    for (uint32_t i = 0; i < m->n_funcs; i++)
        describe_func(m, &m->funcs[i]);
    ptx_module_free(m);
    return CLI_OK;
}

int cli_ptx(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        cli_ptx_help(argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_USAGE : CLI_OK;
    }
    int cli_ptx_analyze(int, char **), cli_ptx_annotate(int, char **); /* cmd_ptx_analyze.c */
    if (!strcmp(argv[1], "analyze"))
        return cli_ptx_analyze(argc - 1, argv + 1);
    if (!strcmp(argv[1], "annotate"))
        return cli_ptx_annotate(argc - 1, argv + 1);
    if (strcmp(argv[1], "check")) {
        fprintf(stderr, "warpsim ptx: unknown subcommand '%s' (check, analyze, annotate)\n",
                argv[1]);
        return CLI_USAGE;
    }
    if (argc < 3) {
        fprintf(stderr, "warpsim ptx check: no file given\n");
        return CLI_USAGE;
    }
    int rc = CLI_OK;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            cli_ptx_help(stdout);
            return CLI_OK;
        }
        if (check_file(argv[i]))
            rc = CLI_FAIL;
    }
    return rc;
}
