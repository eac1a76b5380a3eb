/* locality.c - seed 001's blocks-by-base-register locality score (see locality.h).
 *
 * One pass over the instructions in static order. Every register write creates a new
 * "value" (an id); a register's current value is what an access through it uses, so
 * a rewrite (`add %rd10, %rd10, 40`) sends later accesses to a new block, in program
 * order as the seed does, even when the rewrite sits at the end of a loop body.
 * Block keys are values (seed-literal), or with follow_derived the root value that a
 * pointer derivation chain starts from, plus one key per symbol (`[sym+off]`,
 * `mov %r, sym`) and one for absolute addresses.
 *
 * Registers on entry get values 0 .. n_regs-1; writes get n_regs, n_regs+1, ...
 * All per-run arrays live in one allocation.
 */
#include "ptx/locality.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/cfg.h"

#define NONE UINT32_MAX

void loc_opts_default(loc_opts *o)
{
    memset(o, 0, sizeof *o);
    o->threshold = 1.0;
    o->stores = 1;
    o->directives = 1;
}

/* Registers written: the leading operands, as many as the opcode has destinations. */
#define MAX_DESTS 8

static uint32_t dests(const ptx_module *m, const ptx_insn *in, uint32_t *out)
{
    uint32_t src[8], nd = MAX_DESTS, ns = 8;
    ptx_insn_regs(m, in, out, &nd, src, &ns);
    return nd;
}

static int counted(const ptx_insn *in, const loc_opts *o)
{
    switch (in->op) {
    case OP_LD: case OP_LDU: break;
    case OP_ST: if (!o->stores) return 0; break;
    case OP_ATOM: case OP_RED: if (!o->atomics) return 0; break;
    default: return 0;
    }
    switch (in->space) {
    case SP_GLOBAL: return 1;
    case SP_NONE: case SP_GENERIC: return !o->global_only;
    case SP_SHARED: return o->shared;
    default: return o->other_spaces;  /* param, const, local */
    }
}

static const ptx_operand *addr_of(const ptx_insn *in)
{
    for (uint32_t i = 0; i < in->nops && i < PTX_MAX_OPS; i++)
        if (in->ops[i].kind == OK_ADDR)
            return &in->ops[i];
    return NULL;
}

typedef struct {
    const ptx_module *m;
    const ptx_func *f;
    const loc_opts *o;
    uint32_t nvals, nkeys, symkey, abskey;
    uint32_t *cur;    /* [n_regs] current value of each register   */
    uint32_t *vreg;   /* [nvals] register a value was written to   */
    uint32_t *vdef;   /* [nvals] instruction that wrote it          */
    uint32_t *root;   /* [nvals] block key (follow_derived)         */
    uint32_t *blk;    /* [nkeys] block index, or NONE               */
    uint8_t *ptr;     /* [nvals] value holds an address             */
} run;

/* Root key and pointer flag of a register source operand; 0 when not a pointer. */
static int src_ptr(const run *R, const ptx_operand *op, uint32_t *key)
{
    if (op->kind == OK_SYM && op->r < R->m->n_syms) {
        *key = R->symkey + op->r;
        return 1;
    }
    if (op->kind == OK_REG && op->r < R->f->n_regs) {
        uint32_t v = R->cur[op->r];
        if (R->ptr[v]) {
            *key = R->root[v];
            return 1;
        }
    }
    return 0;
}

/* follow_derived: where the value v written by `in` (its only destination) roots. */
static void derive(run *R, const ptx_insn *in, uint32_t v)
{
    uint32_t key = v;
    int p = 0;
    if (ptx_type_is_float((ptx_type)in->type) || ptx_type_is_float((ptx_type)in->type2)) {
        R->root[v] = v;
        R->ptr[v] = 0;
        return;
    }
    switch (in->op) {
    case OP_MOV: case OP_CVTA: case OP_CVT:
        if (in->nops >= 2)
            p = src_ptr(R, &in->ops[1], &key);
        if (!p && in->op == OP_CVTA && in->ops[1].kind == OK_REG && in->ops[1].r < R->f->n_regs) {
            key = R->cur[in->ops[1].r];  /* an address by definition, rooted at its source */
            p = 1;
        }
        break;
    case OP_ADD: case OP_SUB:
        if (in->nops >= 3) {
            p = src_ptr(R, &in->ops[1], &key);
            if (!p && in->op == OP_ADD)
                p = src_ptr(R, &in->ops[2], &key);
        }
        break;
    case OP_MAD:
        if (in->nops >= 4)
            p = src_ptr(R, &in->ops[3], &key);
        break;
    case OP_LD: case OP_LDU: {
        /* a pointer parameter: both loads of it root at the parameter */
        const ptx_operand *a = addr_of(in);
        uint32_t asz = R->m->address_size ? R->m->address_size / 8 : 8;
        if (in->space == SP_PARAM && a && a->base == OK_SYM && a->r < R->m->n_syms &&
            in->type < PT__COUNT && ptx_type_size[in->type] == asz) {
            key = R->symkey + a->r;
            p = 1;
        }
        break;
    }
    default:
        break;
    }
    if (!p)
        key = v;
    R->root[v] = key;
    R->ptr[v] = (uint8_t)p;
}

static void block_init(const run *R, uint32_t key, loc_block *b)
{
    memset(b, 0, sizeof *b);
    b->first_acc = b->last_acc = NONE;
    b->def_insn = NONE;
    if (key < R->nvals) {
        b->kind = LOC_BASE_REG;
        b->id = R->vreg[key];
        b->def_insn = R->vdef[key];
    } else if (key < R->abskey) {
        b->kind = LOC_BASE_SYM;
        b->id = key - R->symkey;
    } else {
        b->kind = LOC_BASE_ABS;
    }
}

static int lower_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        if (x != *b)
            return 0;
    }
    return !*a && !*b;
}

static void decide(const ptx_module *m, const ptx_func *f, const loc_opts *o, loc_summary *s)
{
    s->analysis_lrr = s->n_blocks > 0 && s->score >= o->threshold;
    s->lrr = s->analysis_lrr;
    s->source = LOC_SRC_ANALYSIS;
    s->directive = NULL;
    s->directive_unknown = 0;
    if (!o->directives)
        return;
    const char *d = f->policy ? f->policy : m->policy;
    if (!d)
        return;
    s->directive = d;
    if (lower_eq(d, "lrr") || lower_eq(d, "gto")) {
        s->lrr = lower_eq(d, "lrr");
        s->source = f->policy ? LOC_SRC_FUNC : LOC_SRC_MODULE;
    } else {
        s->directive_unknown = 1;
    }
}

/* The analysis; r (may be NULL) receives blocks and accesses. */
static int analyze(const ptx_module *m, const ptx_func *f, const loc_opts *o, loc_summary *s,
                   loc_result *r)
{
    memset(s, 0, sizeof *s);
    const ptx_cfg *c = f->cfg;
    if (f->n_insns && !c)
        return -1;
    uint32_t regs[MAX_DESTS];
    size_t ndefs = 0, nacc = 0;
    for (uint32_t i = 0; i < f->n_insns; i++) {
        const ptx_insn *in = &f->insns[i];
        ndefs += dests(m, in, regs);
        nacc += counted(in, o) && addr_of(in);
    }
    size_t nvals = (size_t)f->n_regs + ndefs, nkeys = nvals + m->n_syms + 1;
    if (nkeys >= UINT32_MAX / 4)
        return -1;
    run R = {.m = m, .f = f, .o = o, .nvals = (uint32_t)nvals, .nkeys = (uint32_t)nkeys,
             .symkey = (uint32_t)nvals, .abskey = (uint32_t)(nvals + m->n_syms)};
    size_t words = f->n_regs + 4 * nvals + nkeys;
    uint32_t *mem = malloc(words * sizeof *mem + nvals + 1);
    if (!mem)
        return -1;
    R.cur = mem;
    R.vreg = R.cur + f->n_regs;
    R.vdef = R.vreg + nvals;
    R.root = R.vdef + nvals;
    R.blk = R.root + nvals;
    R.ptr = (uint8_t *)(R.blk + nkeys);
    for (uint32_t i = 0; i < f->n_regs; i++) {
        R.cur[i] = R.vreg[i] = R.root[i] = i;
        R.vdef[i] = NONE;
        R.ptr[i] = 0;
    }
    memset(R.blk, 0xff, nkeys * sizeof *R.blk);
    if (r) {
        memset(r, 0, sizeof *r);
        r->blocks = malloc((nacc ? nacc : 1) * sizeof *r->blocks);
        r->acc = malloc((nacc ? nacc : 1) * sizeof *r->acc);
        if (!r->blocks || !r->acc) {
            free(mem);
            loc_result_free(r);
            return -1;
        }
    }
    double total = 0;
    uint32_t nb = 0, na = 0, next_val = f->n_regs;
    for (uint32_t i = 0; i < f->n_insns; i++) {
        const ptx_insn *in = &f->insns[i];
        const ptx_operand *a = counted(in, o) ? addr_of(in) : NULL;
        if (a) {
            uint32_t key = R.abskey;
            if (a->base == OK_REG && a->r < f->n_regs) {
                uint32_t v = R.cur[a->r];
                key = o->follow_derived ? R.root[v] : v;
                if (o->follow_derived && !R.ptr[v])
                    R.ptr[v] = 1;  /* an address now: values derived from it follow it */
            } else if (a->base == OK_SYM && a->r < m->n_syms) {
                key = R.symkey + a->r;
            }
            if (R.blk[key] == NONE) {
                if (r)
                    block_init(&R, key, &r->blocks[nb]);
                R.blk[key] = nb++;
            }
            uint32_t ld = c->loop_depth[i], bd = c->branch_depth[i];
            if (o->guards && in->guard >= 0)
                bd++;
            double w = ldexp(1.0, (int)ld - (int)bd);
            total += w;
            if (r) {
                uint32_t b = R.blk[key];
                loc_block *B = &r->blocks[b];
                loc_access *A = &r->acc[na];
                A->insn = i;
                A->block = b;
                A->next = NONE;
                A->ldepth = (uint8_t)ld;
                A->bdepth = (uint8_t)(bd > 255 ? 255 : bd);
                A->w = w;
                if (B->first_acc == NONE)
                    B->first_acc = na;
                else
                    r->acc[B->last_acc].next = na;
                B->last_acc = na;
                B->n_acc++;
                B->wcount += w;
            }
            na++;
        }
        uint32_t nd = dests(m, in, regs);
        for (uint32_t k = 0; k < nd; k++) {
            if (regs[k] >= f->n_regs)
                continue;
            uint32_t v = next_val++;
            R.vreg[v] = regs[k];
            R.vdef[v] = i;
            if (o->follow_derived && nd == 1)
                derive(&R, in, v);  /* reads the sources' values: before cur[] changes */
            else {
                R.root[v] = v;
                R.ptr[v] = 0;
            }
            R.cur[regs[k]] = v;
        }
    }
    free(mem);
    s->n_blocks = nb;
    s->n_acc = na;
    s->score = nb ? total / nb : 0.0;
    decide(m, f, o, s);
    if (r)
        r->sum = *s;
    return 0;
}

int loc_analyze(const ptx_module *m, const ptx_func *f, const loc_opts *o, loc_result *r)
{
    loc_summary s;
    memset(r, 0, sizeof *r);
    return analyze(m, f, o, &s, r);
}

void loc_result_free(loc_result *r)
{
    if (!r)
        return;
    free(r->blocks);
    free(r->acc);
    r->blocks = NULL;
    r->acc = NULL;
}

int loc_summarize(const ptx_module *m, const ptx_func *f, const loc_opts *o, loc_summary *s)
{
    return analyze(m, f, o, s, NULL);
}

struct loc_cache {
    const ptx_module *m;
    loc_opts o;
    uint8_t *state;      /* 0 not computed, 1 done, 2 failed */
    loc_summary *s;
};

loc_cache *loc_cache_new(const ptx_module *m, const loc_opts *o)
{
    loc_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->m = m;
    c->o = *o;
    uint32_t n = m->n_funcs ? m->n_funcs : 1;
    c->state = calloc(n, 1);
    c->s = calloc(n, sizeof *c->s);
    if (!c->state || !c->s) {
        loc_cache_free(c);
        return NULL;
    }
    return c;
}

const loc_summary *loc_cache_get(loc_cache *c, uint32_t func)
{
    if (!c || func >= c->m->n_funcs)
        return NULL;
    if (!c->state[func])
        c->state[func] = loc_summarize(c->m, &c->m->funcs[func], &c->o, &c->s[func]) ? 2 : 1;
    return c->state[func] == 1 ? &c->s[func] : NULL;
}

void loc_cache_free(loc_cache *c)
{
    if (!c)
        return;
    free(c->state);
    free(c->s);
    free(c);
}

const char *loc_block_name(const ptx_module *m, const ptx_func *f, const loc_block *b)
{
    if (b->kind == LOC_BASE_REG && b->id < f->n_regs)
        return ptx_str(m, f->regs[b->id].name);
    if (b->kind == LOC_BASE_SYM && b->id < m->n_syms)
        return ptx_str(m, m->syms[b->id].name);
    return "[absolute]";
}

/* ---- annotate ---------------------------------------------------------------------- */
/* Offset just past the `{` that opens the body of the function named at line:col,
 * skipping comments, strings and the parameter list; SIZE_MAX when there is none. */
static size_t body_open(const char *t, size_t len, uint32_t line, uint32_t col)
{
    size_t p = 0;
    for (uint32_t l = 1; l < line && p < len; p++)
        if (t[p] == '\n')
            l++;
    p += col ? col - 1 : 0;
    int depth = 0;
    while (p < len) {
        char ch = t[p];
        if (ch == '/' && p + 1 < len && t[p + 1] == '/') {
            while (p < len && t[p] != '\n')
                p++;
        } else if (ch == '/' && p + 1 < len && t[p + 1] == '*') {
            p += 2;
            while (p + 1 < len && !(t[p] == '*' && t[p + 1] == '/'))
                p++;
            p += 2;
        } else if (ch == '"') {
            for (p++; p < len && t[p] != '"' && t[p] != '\n'; p++)
                if (t[p] == '\\')
                    p++;
            p++;
        } else {
            if (ch == '(')
                depth++;
            else if (ch == ')')
                depth--;
            else if (ch == '{' && depth <= 0)
                return p + 1;
            else if (ch == ';' && depth <= 0)
                return SIZE_MAX;
            p++;
        }
    }
    return SIZE_MAX;
}

static int directive_text(char *buf, size_t n, int form, int lrr)
{
    const char *p = lrr ? "LRR" : "GTO";
    switch (form) {
    case LOC_FORM_SEED:
        return snprintf(buf, n, "\n\t.pol \"%s\";", p);
    case LOC_FORM_PRAGMA:
        return snprintf(buf, n, "\n\t.pragma \"warpsim.policy %s\";", p);
    default:
        return snprintf(buf, n, "\n\t// .pol \"%s\";  (seed 001; ptxas rejects .pol, warpsim "
                        "reads the pragma)\n\t.pragma \"warpsim.policy %s\";", p, p);
    }
}

char *loc_annotate(const char *text, size_t len, const ptx_module *m, const char *pick,
                   int form, size_t *out_len, char *err, size_t n)
{
    if (form != LOC_FORM_SEED && form != LOC_FORM_PRAGMA && form != LOC_FORM_BOTH) {
        snprintf(err, n, "unknown directive form %d", form);
        return NULL;
    }
    uint32_t nf = m->n_funcs, np = 0;
    size_t *at = malloc((nf ? nf : 1) * sizeof *at);
    uint8_t *lrr = malloc(nf ? nf : 1);
    if (!at || !lrr) {
        free(at);
        free(lrr);
        snprintf(err, n, "out of memory");
        return NULL;
    }
    char line[160];
    size_t extra = 0;
    for (uint32_t i = 0; i < nf; i++) {
        const ptx_func *f = &m->funcs[i];
        if (!f->is_entry || f->is_decl || (pick[i] != 'L' && pick[i] != 'G'))
            continue;
        size_t p = body_open(text, len, f->line, f->col);
        if (p == SIZE_MAX) {
            snprintf(err, n, "%s:%u: cannot find the body of kernel '%s'", m->file ? m->file : "",
                     f->line, ptx_str(m, f->name));
            free(at);
            free(lrr);
            return NULL;
        }
        /* keep (offset, decision) sorted by offset: definitions may follow prototypes */
        uint32_t k = np++;
        while (k && at[k - 1] > p) {
            at[k] = at[k - 1];
            lrr[k] = lrr[k - 1];
            k--;
        }
        at[k] = p;
        lrr[k] = pick[i] == 'L';
        extra += (size_t)directive_text(line, sizeof line, form, lrr[k]);
    }
    char *out = malloc(len + extra + 1);
    if (!out) {
        free(at);
        free(lrr);
        snprintf(err, n, "out of memory");
        return NULL;
    }
    size_t o = 0, from = 0;
    for (uint32_t k = 0; k < np; k++) {
        memcpy(out + o, text + from, at[k] - from);
        o += at[k] - from;
        from = at[k];
        int w = directive_text(line, sizeof line, form, lrr[k]);
        memcpy(out + o, line, (size_t)w);
        o += (size_t)w;
    }
    memcpy(out + o, text + from, len - from);
    o += len - from;
    out[o] = 0;
    *out_len = o;
    free(at);
    free(lrr);
    return out;
}
