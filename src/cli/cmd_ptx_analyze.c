/* cmd_ptx_analyze.c - `warpsim ptx analyze` and `warpsim ptx annotate`: seed 001's
 * static locality analysis of PTX kernels and embedding its LRR/GTO decision
 * (docs/STATIC_SELECT.md). Dispatched from cmd_ptx.c. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/err.h"
#include "ptx/ir.h"
#include "ptx/locality.h"
#include "ptx/uniform.h"
#include "util/json_out.h"

int cli_ptx_analyze(int argc, char **argv);
int cli_ptx_annotate(int argc, char **argv);

#define OPTS_HELP                                                                         \
    "  --threshold T  LRR when the score is >= T (sched.static_threshold, default 1)\n"   \
    "  --set K=V      override a parameter; the analysis reads sched.static_* (see\n"     \
    "                 docs/STATIC_SELECT.md), e.g. --set sched.static_shared=true\n"      \
    "  --config C     preset or INI file the sched.static_* keys come from\n"

static void analyze_help(FILE *f)
{
    fputs("usage: warpsim ptx analyze [--json] [--threshold T] [--set K=V]... FILE.ptx...\n\n"
          "Seed 001's static locality analysis of every kernel (.entry): memory accesses\n"
          "grouped into blocks by base register (a rewrite of the register starts a new\n"
          "block), each access weighted 2^LDepth / 2^BDepth (loop / branch nesting), wcount\n"
          "= the sum per block, score = mean wcount. Score >= threshold chooses LRR, else\n"
          "GTO; a .pol or .pragma \"warpsim.policy\" directive overrides. Prints every block\n"
          "with its accesses, the score and the decision.\n\n"
          "Also the uniformity analysis of each kernel (ptx/uniform.c; the GCN core model's\n"
          "scalar unit): instructions by class (scalar ALU, scalar memory, uniform and\n"
          "divergent branches, vector) and the fraction that is scalar; with --json also\n"
          "one letter per instruction (S scalar ALU, M scalar memory, U uniform branch,\n"
          "D divergent branch, V vector).\n\n"
          "  --json         the same as one JSON object\n" OPTS_HELP
          "\nExit code 1 when a file does not parse or cannot be read.\n" CLI_EXIT_HELP,
          f);
}

static void annotate_help(FILE *f)
{
    fputs("usage: warpsim ptx annotate [--form seed|pragma|both] [--threshold T]\n"
          "                            [--set K=V]... FILE.ptx -o OUT.ptx\n\n"
          "Writes FILE.ptx to OUT.ptx (\"-\": standard output) with each kernel's decision\n"
          "(see `warpsim ptx analyze`) as a directive at the top of its body:\n"
          "  seed    .pol \"LRR\";                      (warpsim only; ptxas rejects it)\n"
          "  pragma  .pragma \"warpsim.policy LRR\";    (ptxas assembles it, with a warning)\n"
          "  both    the pragma, and the seed line as a `// .pol` comment (default)\n" OPTS_HELP
          "\nThe output is parsed again to check that every kernel reads back its decision.\n"
          CLI_EXIT_HELP,
          f);
}


/* Reads and parses path; NULL after printing the error. *text gets the text. */
static ptx_module *load(const char *path, char **text, size_t *len)
{
    char why[512];
    *text = ws_read_file(path, len, SIZE_MAX, why, sizeof why);
    if (!*text) {
        fprintf(stderr, "%s\n", why);
        return NULL;
    }
    ptx_diag d;
    memset(&d, 0, sizeof d);
    ptx_module *m = ptx_parse(*text, *len, path, &d);
    if (!m) {
        fprintf(stderr, "%s:%u:%u: %s\n", path, d.line, d.col, d.msg);
        free(*text);
        *text = NULL;
    }
    return m;
}

/* Options shared by both commands. */
typedef struct {
    cli_cfg_opts cfg;
    const char *threshold;
    const char *files[64];
    int n_files;
    const char *out;      /* annotate: -o                                              */
    const char *form;     /* annotate: --form                                          */
    int json;             /* analyze: --json                                           */
    loc_opts lo;
} opts;

enum { O_JSON = 1, O_THRESHOLD, O_FORM, O_OUTPUT, O_HELP };

/* Returns -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, const char *cmd, int annotate, opts *o)
{
    static const cli_opt an_opts[] = {{"json", 0, O_JSON}, {"threshold", 1, O_THRESHOLD},
                                      {"help", 0, O_HELP}, CLI_CFG_OPTS, {NULL, 0, 0}};
    static const cli_opt at_opts[] = {{"form", 1, O_FORM}, {"output", 1, O_OUTPUT},
                                      {"threshold", 1, O_THRESHOLD}, {"help", 0, O_HELP},
                                      CLI_CFG_OPTS, {NULL, 0, 0}};
    memset(o, 0, sizeof *o);
    cli_args a = {argc, argv, 1, cmd};
    while (a.i < argc) {
        const char *s = argv[a.i], *val = NULL;
        if (annotate && !strcmp(s, "-o")) {
            if (a.i + 1 >= argc) {
                fprintf(stderr, "%s: option '-o' needs a value\n", cmd);
                return CLI_USAGE;
            }
            o->out = argv[a.i + 1];
            a.i += 2;
            continue;
        }
        if (s[0] != '-' || !strcmp(s, "-")) {
            if (o->n_files == (int)(sizeof o->files / sizeof *o->files)) {
                fprintf(stderr, "%s: too many files\n", cmd);
                return CLI_USAGE;
            }
            o->files[o->n_files++] = s;
            a.i++;
            continue;
        }
        int id = cli_next(&a, annotate ? at_opts : an_opts, &val);
        if (id < 0)
            return CLI_USAGE;
        if (id == 0)
            continue;   /* "--": operands follow */
        switch (id) {
        case O_HELP:
            (annotate ? annotate_help : analyze_help)(stdout);
            return CLI_OK;
        case O_JSON: o->json = 1; break;
        case O_THRESHOLD: o->threshold = val; break;
        case O_FORM: o->form = val; break;
        case O_OUTPUT: o->out = val; break;
        default:
            if (cli_cfg_opt(&o->cfg, id, val, cmd))
                return CLI_USAGE;
        }
    }
    if (!o->n_files) {
        fprintf(stderr, "%s: no file given (try --help)\n", cmd);
        return CLI_USAGE;
    }
    ws_config cfg;
    char source[512];
    int rc = cli_cfg_build(&o->cfg, &cfg, source, sizeof source, cmd);
    if (rc)
        return rc;
    /* the analysis options are static-select's own [sched] static_* parameters */
    if (ws_config_params(&cfg, "static-select", &o->lo, sizeof o->lo)) {
        fprintf(stderr, "%s: internal: no static-select parameters\n", cmd);
        return CLI_CONFIG;
    }
    if (o->threshold) {
        char *end;
        errno = 0;
        double t = strtod(o->threshold, &end);
        if (end == o->threshold || *end || errno || !(t >= 0 && t <= 1e9)) {
            fprintf(stderr, "%s: --threshold: expected a number in [0, 1e9], got '%s'\n", cmd,
                    o->threshold);
            return CLI_USAGE;
        }
        o->lo.threshold = t;
    }
    return -1;
}

static const char *src_name(uint8_t s)
{
    return s == LOC_SRC_FUNC ? "kernel directive" : s == LOC_SRC_MODULE ? "module directive"
                                                                        : "analysis";
}

static void print_opts(const loc_opts *o)
{
    printf("options: threshold %g; derived pointers %s; spaces: global%s%s%s; stores %s; "
           "atomics %s; predicated = branch %s; directives %s\n",
           o->threshold, o->follow_derived ? "follow to root" : "separate blocks (seed)",
           o->global_only ? "" : " generic", o->shared ? " shared" : "",
           o->other_spaces ? " param const local" : "", o->stores ? "yes" : "no",
           o->atomics ? "yes" : "no", o->guards ? "yes" : "no", o->directives ? "yes" : "no");
}

static void print_kernel(const ptx_module *m, const ptx_func *f, const loc_result *r,
                         const loc_opts *o)
{
    char buf[256];
    printf("\nkernel %s (line %u): %u block%s, %u access%s\n", ptx_str(m, f->name), f->line,
           r->sum.n_blocks, r->sum.n_blocks == 1 ? "" : "s", r->sum.n_acc,
           r->sum.n_acc == 1 ? "" : "es");
    for (uint32_t b = 0; b < r->sum.n_blocks; b++) {
        const loc_block *B = &r->blocks[b];
        printf("  block %u  %s", b + 1, loc_block_name(m, f, B));
        if (B->kind == LOC_BASE_REG && B->def_insn == UINT32_MAX)
            printf(" (value on entry)");
        else if (B->kind == LOC_BASE_REG)
            printf(" (written at line %u)", f->insns[B->def_insn].line);
        printf("  first access line %u  wcount %g\n", f->insns[r->acc[B->first_acc].insn].line,
               B->wcount);
        for (uint32_t k = B->first_acc; k != UINT32_MAX; k = r->acc[k].next) {
            const loc_access *A = &r->acc[k];
            const ptx_insn *in = &f->insns[A->insn];
            if (ptx_insn_format(m, f, in, buf, sizeof buf) < 0)
                snprintf(buf, sizeof buf, "?");
            printf("    line %-5u %-44s LDepth %u  BDepth %u  w %g\n", in->line, buf, A->ldepth,
                   A->bdepth, A->w);
        }
    }
    const loc_summary *s = &r->sum;
    if (s->n_blocks)
        printf("  score %g (mean wcount over %u blocks) %s threshold %g -> %s\n", s->score,
               s->n_blocks, s->analysis_lrr ? ">=" : "<", o->threshold,
               s->analysis_lrr ? "LRR" : "GTO");
    else
        printf("  score 0 (no counted memory access) -> GTO\n");
    if (s->directive_unknown)
        printf("  note: directive policy \"%s\" is neither LRR nor GTO; ignored\n", s->directive);
    printf("  decision %s (%s", s->lrr ? "LRR" : "GTO", src_name(s->source));
    if (s->source != LOC_SRC_ANALYSIS)
        printf(" \"%s\"; the analysis says %s", s->directive, s->analysis_lrr ? "LRR" : "GTO");
    printf(")\n");
}

static cJSON *kernel_json(const ptx_module *m, const ptx_func *f, const loc_result *r,
                          const loc_opts *o)
{
    char buf[256];
    cJSON *k = cJSON_CreateObject();
    cJSON_AddStringToObject(k, "name", ptx_str(m, f->name));
    cJSON_AddNumberToObject(k, "line", f->line);
    cJSON *blocks = cJSON_AddArrayToObject(k, "blocks");
    for (uint32_t b = 0; b < r->sum.n_blocks; b++) {
        const loc_block *B = &r->blocks[b];
        cJSON *jb = cJSON_CreateObject();
        cJSON_AddItemToArray(blocks, jb);
        cJSON_AddStringToObject(jb, "base", loc_block_name(m, f, B));
        cJSON_AddStringToObject(jb, "kind", B->kind == LOC_BASE_REG   ? "register"
                                            : B->kind == LOC_BASE_SYM ? "symbol"
                                                                      : "absolute");
        if (B->kind == LOC_BASE_REG && B->def_insn != UINT32_MAX)
            cJSON_AddNumberToObject(jb, "written_line", f->insns[B->def_insn].line);
        else
            cJSON_AddNullToObject(jb, "written_line");
        cJSON_AddNumberToObject(jb, "first_line", f->insns[r->acc[B->first_acc].insn].line);
        cJSON_AddNumberToObject(jb, "wcount", B->wcount);
        cJSON *acc = cJSON_AddArrayToObject(jb, "accesses");
        for (uint32_t i = B->first_acc; i != UINT32_MAX; i = r->acc[i].next) {
            const loc_access *A = &r->acc[i];
            const ptx_insn *in = &f->insns[A->insn];
            cJSON *ja = cJSON_CreateObject();
            cJSON_AddItemToArray(acc, ja);
            cJSON_AddNumberToObject(ja, "line", in->line);
            if (ptx_insn_format(m, f, in, buf, sizeof buf) < 0)
                snprintf(buf, sizeof buf, "?");
            cJSON_AddStringToObject(ja, "insn", buf);
            cJSON_AddNumberToObject(ja, "ldepth", A->ldepth);
            cJSON_AddNumberToObject(ja, "bdepth", A->bdepth);
            cJSON_AddNumberToObject(ja, "w", A->w);
        }
    }
    const loc_summary *s = &r->sum;
    cJSON_AddNumberToObject(k, "n_blocks", s->n_blocks);
    cJSON_AddNumberToObject(k, "n_accesses", s->n_acc);
    cJSON_AddNumberToObject(k, "score", s->score);
    cJSON_AddNumberToObject(k, "threshold", o->threshold);
    cJSON_AddStringToObject(k, "analysis", s->analysis_lrr ? "LRR" : "GTO");
    cJSON_AddStringToObject(k, "decision", s->lrr ? "LRR" : "GTO");
    cJSON_AddStringToObject(k, "source", src_name(s->source));
    if (s->directive)
        cJSON_AddStringToObject(k, "directive", s->directive);
    else
        cJSON_AddNullToObject(k, "directive");
    return k;
}

static cJSON *opts_json(const loc_opts *o)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "static_threshold", o->threshold);
    cJSON_AddBoolToObject(j, "static_follow_derived", o->follow_derived);
    cJSON_AddBoolToObject(j, "static_global_only", o->global_only);
    cJSON_AddBoolToObject(j, "static_shared", o->shared);
    cJSON_AddBoolToObject(j, "static_stores", o->stores);
    cJSON_AddBoolToObject(j, "static_other_spaces", o->other_spaces);
    cJSON_AddBoolToObject(j, "static_atomics", o->atomics);
    cJSON_AddBoolToObject(j, "static_guards", o->guards);
    cJSON_AddBoolToObject(j, "static_directives", o->directives);
    return j;
}

/* Analyses one file; text to stdout or into jfiles. */
/* The uniformity analysis of kernel f: printed, or added to kj when it is not NULL. */
static int uniformity(const ptx_module *m, const ptx_func *f, cJSON *kj)
{
    ptx_uniform u;
    if (ptx_uniform_analyze(m, f, &u))
        return -1;
    uint32_t scalar = u.count[UC_SALU] + u.count[UC_SMEM] + u.count[UC_BRANCH_U];
    double frac = u.n_insns ? (double)scalar / u.n_insns : 0;
    if (kj) {
        cJSON *j = cJSON_AddObjectToObject(kj, "uniformity");
        for (int k = 0; k < UC__COUNT; k++)
            cJSON_AddNumberToObject(j, uni_class_name[k], u.count[k]);
        cJSON_AddNumberToObject(j, "instructions", u.n_insns);
        cJSON_AddNumberToObject(j, "scalar_fraction", frac);
        char *cls = malloc(u.n_insns + 1);
        if (cls) {
            static const char letter[UC__COUNT] = {'V', 'S', 'M', 'U', 'D'};
            for (uint32_t i = 0; i < u.n_insns; i++)
                cls[i] = letter[u.cls[i]];
            cls[u.n_insns] = 0;
            cJSON_AddStringToObject(j, "classes", cls);
            free(cls);
        }
    } else {
        printf("  uniformity: %u of %u instructions scalar (%.1f%%): scalar ALU %u, scalar memory %u, "
               "uniform branches %u; divergent branches %u, vector %u\n", scalar, u.n_insns, 100 * frac,
               u.count[UC_SALU], u.count[UC_SMEM], u.count[UC_BRANCH_U], u.count[UC_BRANCH_D],
               u.count[UC_VECTOR]);
    }
    ptx_uniform_free(&u);
    return 0;
}

static int analyze_file(const char *path, const opts *o, cJSON *jfiles)
{
    char *text;
    size_t len;
    ptx_module *m = load(path, &text, &len);
    if (!m)
        return CLI_FAIL;
    free(text);
    int rc = CLI_OK;
    cJSON *jf = NULL, *jk = NULL;
    if (jfiles) {
        jf = cJSON_CreateObject();
        cJSON_AddItemToArray(jfiles, jf);
        cJSON_AddStringToObject(jf, "file", path);
        jk = cJSON_AddArrayToObject(jf, "kernels");
    } else {
        printf("%s\n", path);
        print_opts(&o->lo);
    }
    uint32_t nk = 0;
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        const ptx_func *f = &m->funcs[i];
        if (!f->is_entry || f->is_decl)
            continue;
        nk++;
        loc_result r;
        if (loc_analyze(m, f, &o->lo, &r)) {
            fprintf(stderr, "%s: kernel '%s': analysis failed (out of memory)\n", path,
                    ptx_str(m, f->name));
            rc = CLI_FAIL;
            continue;
        }
        cJSON *kj = NULL;
        if (jk)
            cJSON_AddItemToArray(jk, kj = kernel_json(m, f, &r, &o->lo));
        else
            print_kernel(m, f, &r, &o->lo);
        loc_result_free(&r);
        if (uniformity(m, f, kj)) {
            fprintf(stderr, "%s: kernel '%s': uniformity analysis failed (out of memory)\n", path,
                    ptx_str(m, f->name));
            rc = CLI_FAIL;
        }
    }
    if (!nk && !jfiles)
        printf("  no kernel (.entry) in this file\n");
    ptx_module_free(m);
    return rc;
}

int cli_ptx_analyze(int argc, char **argv)
{
    opts o;
    int rc = parse_args(argc, argv, "warpsim ptx analyze", 0, &o);
    if (rc >= 0)
        return rc;
    cJSON *root = NULL, *jfiles = NULL;
    if (o.json) {
        root = cJSON_CreateObject();
        cJSON_AddItemToObject(root, "options", opts_json(&o.lo));
        jfiles = cJSON_AddArrayToObject(root, "files");
    }
    rc = CLI_OK;
    for (int i = 0; i < o.n_files; i++) {
        if (i && !o.json)
            putchar('\n');
        if (analyze_file(o.files[i], &o, jfiles))
            rc = CLI_FAIL;
    }
    if (root) {
        char *txt = json_print(root);
        if (txt) {
            puts(txt);
            free(txt);
        } else {
            fprintf(stderr, "warpsim ptx analyze: out of memory\n");
            rc = CLI_FAIL;
        }
        cJSON_Delete(root);
    }
    return rc;
}

static int write_out(const char *path, const char *text, size_t len)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
    if (!f) {
        fprintf(stderr, "warpsim ptx annotate: %s: %s\n", path, strerror(errno));
        return CLI_FAIL;
    }
    int bad = fwrite(text, 1, len, f) != len;
    if (f != stdout)
        bad |= fclose(f) != 0;
    else
        bad |= fflush(f) != 0;
    if (bad) {
        fprintf(stderr, "warpsim ptx annotate: %s: write failed\n", path);
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cli_ptx_annotate(int argc, char **argv)
{
    const char *cmd = "warpsim ptx annotate";
    opts o;
    int rc = parse_args(argc, argv, cmd, 1, &o);
    if (rc >= 0)
        return rc;
    int form = LOC_FORM_BOTH;
    if (o.form) {
        if (!strcmp(o.form, "seed"))
            form = LOC_FORM_SEED;
        else if (!strcmp(o.form, "pragma"))
            form = LOC_FORM_PRAGMA;
        else if (strcmp(o.form, "both")) {
            fprintf(stderr, "%s: --form: expected seed, pragma or both, got '%s'\n", cmd, o.form);
            return CLI_USAGE;
        }
    }
    if (o.n_files != 1 || !o.out) {
        fprintf(stderr, "%s: expected one FILE.ptx and -o OUT.ptx (try --help)\n", cmd);
        return CLI_USAGE;
    }
    char *text;
    size_t len;
    ptx_module *m = load(o.files[0], &text, &len);
    if (!m)
        return CLI_FAIL;
    char *pick = calloc(m->n_funcs ? m->n_funcs : 1, 1);
    loc_summary *sum = calloc(m->n_funcs ? m->n_funcs : 1, sizeof *sum);
    char err[512] = "out of memory";
    char *out = NULL;
    size_t out_len = 0;
    ptx_module *back = NULL;
    rc = CLI_FAIL;
    if (!pick || !sum)
        goto fail;
    for (uint32_t i = 0; i < m->n_funcs; i++) {
        const ptx_func *f = &m->funcs[i];
        if (!f->is_entry || f->is_decl)
            continue;
        if (loc_summarize(m, f, &o.lo, &sum[i])) {
            snprintf(err, sizeof err, "kernel '%s': analysis failed", ptx_str(m, f->name));
            goto fail;
        }
        pick[i] = sum[i].lrr ? 'L' : 'G';
    }
    if (!(out = loc_annotate(text, len, m, pick, form, &out_len, err, sizeof err)))
        goto fail;
    /* read it back as the simulator will */
    ptx_diag d;
    memset(&d, 0, sizeof d);
    if (!(back = ptx_parse(out, out_len, o.out, &d))) {
        snprintf(err, sizeof err, "the annotated text does not parse: line %u:%u: %.300s", d.line,
                 d.col, d.msg);
        goto fail;
    }
    for (uint32_t i = 0; i < m->n_funcs && i < back->n_funcs; i++) {
        if (!pick[i])
            continue;
        const char *p = back->funcs[i].policy, *want = pick[i] == 'L' ? "LRR" : "GTO";
        if (!p || strcmp(p, want)) {
            snprintf(err, sizeof err, "kernel '%s' reads back policy '%s', not %s: a directive "
                     "of its own later in its body overrides; remove it",
                     ptx_str(m, m->funcs[i].name), p ? p : "(none)", want);
            goto fail;
        }
    }
    if ((rc = write_out(o.out, out, out_len)))
        goto done;
    FILE *info = strcmp(o.out, "-") ? stdout : stderr;
    for (uint32_t i = 0; i < m->n_funcs; i++)
        if (pick[i])
            fprintf(info, "%s: kernel %s: %s (score %g, %u blocks; %s)\n", o.out,
                    ptx_str(m, m->funcs[i].name), pick[i] == 'L' ? "LRR" : "GTO", sum[i].score,
                    sum[i].n_blocks, src_name(sum[i].source));
    goto done;
fail:
    fprintf(stderr, "%s: %s: %s\n", cmd, o.files[0], err);
    rc = CLI_FAIL;
done:
    ptx_module_free(back);
    free(out);
    free(pick);
    free(sum);
    free(text);
    ptx_module_free(m);
    return rc;
}
