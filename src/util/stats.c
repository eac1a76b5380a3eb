/* stats.c - statistics registry, formulas and printers (stats.h). */
#include "util/stats.h"
#include "util/err.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Formulas compile to a postfix program over a small value stack. */
enum { R_CONST, R_STAT, R_ADD, R_SUB, R_MUL, R_DIV, R_NEG };
typedef struct {
    uint8_t op;
    int32_t id;
    double k;
} rpn_op;
#define RPN_MAX 64

typedef struct {
    char *name, *unit, *desc, *expr;
    ws_stat_kind kind;
    unsigned flags;
    const uint64_t *src;
    rpn_op *rpn;
    uint32_t n_rpn;
} stat_def;

struct ws_stats {
    stat_def *defs;
    int n, cap;
    int n_groups;   /* groups alive: the definitions are frozen while > 0 */
};

typedef struct {
    union {
        uint64_t u;
        double d;
        uint32_t dim[3];
    };
    char *text;
} stat_val;

struct ws_stats_group {
    ws_stats *s;
    char *title;
    uint8_t *set;
    stat_val *v;
};


static char *dupstr(const char *s)
{
    if (!s)
        s = "";
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

ws_stats *ws_stats_create(void) { return calloc(1, sizeof(ws_stats)); }

void ws_stats_destroy(ws_stats *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++) {
        stat_def *d = &s->defs[i];
        free(d->name);
        free(d->unit);
        free(d->desc);
        free(d->expr);
        free(d->rpn);
    }
    free(s->defs);
    free(s);
}

int ws_stats_count(const ws_stats *s) { return s->n; }

int ws_stats_find(const ws_stats *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->defs[i].name, name))
            return i;
    return -1;
}

const char *ws_stats_name(const ws_stats *s, int id)
{
    return id >= 0 && id < s->n ? s->defs[id].name : NULL;
}

ws_stat_kind ws_stats_kind(const ws_stats *s, int id) { return s->defs[id].kind; }

static int valid_name(const char *n)
{
    if (!n || !(islower((unsigned char)*n) || *n == '_'))
        return 0;
    for (; *n; n++)
        if (!(islower((unsigned char)*n) || isdigit((unsigned char)*n) || *n == '_'))
            return 0;
    return 1;
}

static int add_def(ws_stats *s, const char *name, const char *unit, const char *desc,
                   ws_stat_kind kind, unsigned flags, char *err, size_t n)
{
    if (s->n_groups) {
        ws_seterr(err, n, "%s: statistics must be registered before the first group", name);
        return -1;
    }
    if (!valid_name(name)) {
        ws_seterr(err, n, "'%s': a statistic name is [a-z_][a-z0-9_]*", name ? name : "");
        return -1;
    }
    if (ws_stats_find(s, name) >= 0) {
        ws_seterr(err, n, "%s: registered twice", name);
        return -1;
    }
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 32;
        stat_def *d = realloc(s->defs, (size_t)cap * sizeof *d);
        if (!d) {
            ws_seterr(err, n, "out of memory");
            return -1;
        }
        s->defs = d;
        s->cap = cap;
    }
    stat_def *d = &s->defs[s->n];
    memset(d, 0, sizeof *d);
    d->name = dupstr(name);
    d->unit = dupstr(unit);
    d->desc = dupstr(desc);
    d->kind = kind;
    d->flags = flags;
    if (!d->name || !d->unit || !d->desc) {
        free(d->name);
        free(d->unit);
        free(d->desc);
        ws_seterr(err, n, "out of memory");
        return -1;
    }
    return s->n++;
}

int ws_stats_add_counter(ws_stats *s, const char *name, const char *unit, const char *desc,
                         unsigned flags, char *err, size_t n)
{
    return add_def(s, name, unit, desc, WS_STAT_COUNTER, flags, err, n);
}

int ws_stats_add_real(ws_stats *s, const char *name, const char *unit, const char *desc,
                      unsigned flags, char *err, size_t n)
{
    return add_def(s, name, unit, desc, WS_STAT_REAL, flags, err, n);
}

int ws_stats_add_text(ws_stats *s, const char *name, const char *desc, unsigned flags,
                      char *err, size_t n)
{
    return add_def(s, name, "", desc, WS_STAT_TEXT, flags | WS_STAT_NO_TOTAL, err, n);
}

int ws_stats_add_dim3(ws_stats *s, const char *name, const char *unit, const char *desc,
                      unsigned flags, char *err, size_t n)
{
    return add_def(s, name, unit, desc, WS_STAT_DIM3, flags | WS_STAT_NO_TOTAL, err, n);
}

/* ---- formula compiler ------------------------------------------------------------- */
typedef struct {
    const ws_stats *s;
    const char *p;
    rpn_op out[RPN_MAX];
    uint32_t n;
    char *err;
    size_t errn;
    int failed;
} fparse;

static void fp_emit(fparse *f, uint8_t op, int32_t id, double k)
{
    if (f->n == RPN_MAX) {
        if (!f->failed)
            ws_seterr(f->err, f->errn, "formula too long");
        f->failed = 1;
        return;
    }
    f->out[f->n++] = (rpn_op){op, id, k};
}

static void fp_skip(fparse *f)
{
    while (isspace((unsigned char)*f->p))
        f->p++;
}

static void fp_fail(fparse *f, const char *what)
{
    if (!f->failed)
        ws_seterr(f->err, f->errn, "%s at '%.20s'", what, *f->p ? f->p : "end");
    f->failed = 1;
}

static void fp_expr(fparse *f, int depth);

static void fp_primary(fparse *f, int depth)
{
    fp_skip(f);
    if (f->failed)
        return;
    if (depth > 32) {
        fp_fail(f, "formula nested too deeply");
        return;
    }
    if (*f->p == '(') {
        f->p++;
        fp_expr(f, depth + 1);
        fp_skip(f);
        if (*f->p != ')') {
            fp_fail(f, "expected ')'");
            return;
        }
        f->p++;
    } else if (*f->p == '-') {
        f->p++;
        fp_primary(f, depth + 1);
        fp_emit(f, R_NEG, 0, 0);
    } else if (isdigit((unsigned char)*f->p) || *f->p == '.') {
        char *end;
        double k = strtod(f->p, &end);
        if (end == f->p) {
            fp_fail(f, "bad number");
            return;
        }
        f->p = end;
        fp_emit(f, R_CONST, 0, k);
    } else if (islower((unsigned char)*f->p) || *f->p == '_') {
        char name[128];
        size_t k = 0;
        while ((islower((unsigned char)*f->p) || isdigit((unsigned char)*f->p) ||
                *f->p == '_') &&
               k + 1 < sizeof name)
            name[k++] = *f->p++;
        name[k] = 0;
        int id = ws_stats_find(f->s, name);
        if (id < 0) {
            if (!f->failed)
                ws_seterr(f->err, f->errn, "unknown statistic '%s' in formula", name);
            f->failed = 1;
            return;
        }
        ws_stat_kind kd = f->s->defs[id].kind;
        if (kd == WS_STAT_TEXT || kd == WS_STAT_DIM3) {
            if (!f->failed)
                ws_seterr(f->err, f->errn, "statistic '%s' is not a number", name);
            f->failed = 1;
            return;
        }
        fp_emit(f, R_STAT, id, 0);
    } else {
        fp_fail(f, "expected a number, a statistic or '('");
    }
}

static void fp_term(fparse *f, int depth)
{
    fp_primary(f, depth);
    for (;;) {
        fp_skip(f);
        char c = *f->p;
        if (f->failed || (c != '*' && c != '/'))
            return;
        f->p++;
        fp_primary(f, depth);
        fp_emit(f, c == '*' ? R_MUL : R_DIV, 0, 0);
    }
}

static void fp_expr(fparse *f, int depth)
{
    fp_term(f, depth);
    for (;;) {
        fp_skip(f);
        char c = *f->p;
        if (f->failed || (c != '+' && c != '-'))
            return;
        f->p++;
        fp_term(f, depth);
        fp_emit(f, c == '+' ? R_ADD : R_SUB, 0, 0);
    }
}

int ws_stats_add_formula(ws_stats *s, const char *name, const char *unit, const char *desc,
                         const char *expr, unsigned flags, char *err, size_t n)
{
    char why[160] = "";
    fparse f = {.s = s, .p = expr ? expr : "", .err = why, .errn = sizeof why};
    fp_expr(&f, 0);
    fp_skip(&f);
    if (!f.failed && *f.p)
        fp_fail(&f, "unexpected text");
    if (f.failed) {
        ws_seterr(err, n, "%s: %s", name ? name : "?", why);
        return -1;
    }
    int id = add_def(s, name, unit, desc, WS_STAT_FORMULA, flags, err, n);
    if (id < 0)
        return -1;
    stat_def *d = &s->defs[id];
    d->expr = dupstr(expr);
    d->rpn = malloc(f.n * sizeof *d->rpn);
    if (!d->expr || !d->rpn) {
        ws_seterr(err, n, "out of memory");
        s->n--;
        free(d->name);
        free(d->unit);
        free(d->desc);
        free(d->expr);
        free(d->rpn);
        return -1;
    }
    memcpy(d->rpn, f.out, f.n * sizeof *d->rpn);
    d->n_rpn = f.n;
    return id;
}

void ws_stats_bind(ws_stats *s, int id, const uint64_t *src)
{
    if (id >= 0 && id < s->n && s->defs[id].kind == WS_STAT_COUNTER)
        s->defs[id].src = src;
}

/* ---- groups ------------------------------------------------------------------------- */
ws_stats_group *ws_stats_group_create(ws_stats *s, const char *title)
{
    ws_stats_group *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->s = s;
    g->title = dupstr(title);
    g->set = calloc((size_t)s->n + 1, 1);
    g->v = calloc((size_t)s->n + 1, sizeof *g->v);
    if (!g->title || !g->set || !g->v) {
        free(g->title);
        free(g->set);
        free(g->v);
        free(g);
        return NULL;
    }
    s->n_groups++;
    return g;
}

void ws_stats_group_destroy(ws_stats_group *g)
{
    if (!g)
        return;
    for (int i = 0; i < g->s->n; i++)
        free(g->v[i].text);
    g->s->n_groups--;
    free(g->title);
    free(g->set);
    free(g->v);
    free(g);
}

const char *ws_stats_group_title(const ws_stats_group *g) { return g->title; }

static int kind_ok(const ws_stats_group *g, int id, ws_stat_kind k)
{
    return id >= 0 && id < g->s->n && g->s->defs[id].kind == k;
}

void ws_stats_set(ws_stats_group *g, int id, uint64_t v)
{
    if (kind_ok(g, id, WS_STAT_COUNTER)) {
        g->v[id].u = v;
        g->set[id] = 1;
    }
}

void ws_stats_inc(ws_stats_group *g, int id, uint64_t v)
{
    if (kind_ok(g, id, WS_STAT_COUNTER)) {
        g->v[id].u += v;
        g->set[id] = 1;
    }
}

void ws_stats_set_real(ws_stats_group *g, int id, double v)
{
    if (kind_ok(g, id, WS_STAT_REAL)) {
        g->v[id].d = v;
        g->set[id] = 1;
    }
}

void ws_stats_set_text(ws_stats_group *g, int id, const char *v)
{
    if (kind_ok(g, id, WS_STAT_TEXT)) {
        char *t = dupstr(v);
        if (!t)
            return;
        free(g->v[id].text);
        g->v[id].text = t;
        g->set[id] = 1;
    }
}

void ws_stats_set_dim3(ws_stats_group *g, int id, const uint32_t v[3])
{
    if (kind_ok(g, id, WS_STAT_DIM3)) {
        memcpy(g->v[id].dim, v, sizeof g->v[id].dim);
        g->set[id] = 1;
    }
}

void ws_stats_snapshot(ws_stats_group *g)
{
    for (int i = 0; i < g->s->n; i++)
        if (g->s->defs[i].src) {
            g->v[i].u = *g->s->defs[i].src;
            g->set[i] = 1;
        }
}

void ws_stats_accumulate(ws_stats_group *total, const ws_stats_group *g)
{
    if (total->s != g->s)
        return;
    for (int i = 0; i < g->s->n; i++) {
        const stat_def *d = &g->s->defs[i];
        if (!g->set[i] || (d->flags & WS_STAT_NO_TOTAL))
            continue;
        int max = (d->flags & WS_STAT_MAX) != 0, first = !total->set[i];
        if (d->kind == WS_STAT_COUNTER) {
            uint64_t a = total->v[i].u, b = g->v[i].u;
            total->v[i].u = first ? b : max ? (a > b ? a : b) : a + b;
        } else if (d->kind == WS_STAT_REAL) {
            double a = total->v[i].d, b = g->v[i].d;
            total->v[i].d = first ? b : max ? fmax(a, b) : a + b;
        } else {
            continue;
        }
        total->set[i] = 1;
    }
}

int ws_stats_is_set(const ws_stats_group *g, int id)
{
    if (id < 0 || id >= g->s->n)
        return 0;
    const stat_def *d = &g->s->defs[id];
    if (d->kind != WS_STAT_FORMULA)
        return g->set[id];
    for (uint32_t i = 0; i < d->n_rpn; i++)
        if (d->rpn[i].op == R_STAT && !ws_stats_is_set(g, d->rpn[i].id))
            return 0;
    return 1;
}

double ws_stats_value(const ws_stats_group *g, int id)
{
    if (id < 0 || id >= g->s->n)
        return 0;
    const stat_def *d = &g->s->defs[id];
    switch (d->kind) {
    case WS_STAT_COUNTER: return g->set[id] ? (double)g->v[id].u : 0;
    case WS_STAT_REAL: return g->set[id] ? g->v[id].d : 0;
    case WS_STAT_FORMULA: break;
    default: return 0;
    }
    double st[RPN_MAX];
    int sp = 0;
    for (uint32_t i = 0; i < d->n_rpn; i++) {
        const rpn_op *o = &d->rpn[i];
        switch (o->op) {
        case R_CONST: st[sp++] = o->k; break;
        case R_STAT: st[sp++] = ws_stats_value(g, o->id); break;
        case R_NEG: st[sp - 1] = -st[sp - 1]; break;
        default: {
            double b = st[--sp], a = st[sp - 1];
            st[sp - 1] = o->op == R_ADD ? a + b
                         : o->op == R_SUB ? a - b
                         : o->op == R_MUL ? a * b
                         : b == 0 ? 0 : a / b;
            break;
        }
        }
    }
    return sp == 1 && isfinite(st[0]) ? st[0] : 0;
}

uint64_t ws_stats_counter(const ws_stats_group *g, int id)
{
    return kind_ok(g, id, WS_STAT_COUNTER) && g->set[id] ? g->v[id].u : 0;
}

const char *ws_stats_text(const ws_stats_group *g, int id)
{
    return kind_ok(g, id, WS_STAT_TEXT) && g->set[id] && g->v[id].text ? g->v[id].text : "";
}

/* ---- printers ------------------------------------------------------------------------- */
static void fmt_u64(char *buf, size_t n, uint64_t v)
{
    char tmp[32];
    int len = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
    size_t k = 0;
    for (int i = 0; i < len && k + 1 < n; i++) {
        if (i && (len - i) % 3 == 0 && k + 2 < n)
            buf[k++] = ',';
        buf[k++] = tmp[i];
    }
    buf[k] = 0;
}

static void fmt_real(char *buf, size_t n, double v)
{
    if (fabs(v) >= 1e4 && fabs(v) < 1.8e19) {
        char tmp[40];
        fmt_u64(tmp, sizeof tmp, (uint64_t)llround(fabs(v)));
        snprintf(buf, n, "%s%s", v < 0 ? "-" : "", tmp);
    } else {
        snprintf(buf, n, "%.4g", v);
    }
}

static int shown(const ws_stats_group *g, int i)
{
    const stat_def *d = &g->s->defs[i];
    if (!ws_stats_is_set(g, i) || (d->flags & WS_STAT_JSON_ONLY))
        return 0;
    if ((d->flags & WS_STAT_HIDE_ZERO) && d->kind != WS_STAT_TEXT && d->kind != WS_STAT_DIM3 &&
        ws_stats_value(g, i) == 0)
        return 0;
    return 1;
}

static void value_text(const ws_stats_group *g, int i, char *buf, size_t n)
{
    const stat_def *d = &g->s->defs[i];
    switch (d->kind) {
    case WS_STAT_COUNTER: fmt_u64(buf, n, g->v[i].u); break;
    case WS_STAT_REAL:
    case WS_STAT_FORMULA:
        if (!strcmp(d->unit, "%"))
            snprintf(buf, n, "%.2f", ws_stats_value(g, i));
        else
            fmt_real(buf, n, ws_stats_value(g, i));
        break;
    case WS_STAT_TEXT: snprintf(buf, n, "%s", g->v[i].text ? g->v[i].text : ""); break;
    case WS_STAT_DIM3:
        snprintf(buf, n, "%u x %u x %u", g->v[i].dim[0], g->v[i].dim[1], g->v[i].dim[2]);
        break;
    }
}

void ws_stats_print_text(const ws_stats_group *g, FILE *f)
{
    int wname = 16, wval = 14, wunit = 4;
    char buf[160];
    for (int i = 0; i < g->s->n; i++) {
        if (!shown(g, i))
            continue;
        const stat_def *d = &g->s->defs[i];
        value_text(g, i, buf, sizeof buf);
        int ln = (int)strlen(d->name), lv = (int)strlen(buf), lu = (int)strlen(d->unit);
        wname = ln > wname ? ln : wname;
        wval = lv > wval && lv <= 40 ? lv : wval;
        wunit = lu > wunit ? lu : wunit;
    }
    fprintf(f, "== %s ==\n", g->title);
    for (int i = 0; i < g->s->n; i++) {
        if (!shown(g, i))
            continue;
        const stat_def *d = &g->s->defs[i];
        value_text(g, i, buf, sizeof buf);
        if (d->kind == WS_STAT_TEXT || d->kind == WS_STAT_DIM3)
            fprintf(f, "  %-*s  %-*s  %-*s  %s\n", wname, d->name, wval, buf, wunit, d->unit,
                    d->desc);
        else
            fprintf(f, "  %-*s  %*s  %-*s  %s\n", wname, d->name, wval, buf, wunit, d->unit,
                    d->desc);
    }
}

cJSON *ws_stats_json(const ws_stats_group *g)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    for (int i = 0; i < g->s->n; i++) {
        if (!ws_stats_is_set(g, i))
            continue;
        const stat_def *d = &g->s->defs[i];
        switch (d->kind) {
        case WS_STAT_COUNTER: cJSON_AddNumberToObject(o, d->name, (double)g->v[i].u); break;
        case WS_STAT_REAL:
        case WS_STAT_FORMULA: cJSON_AddNumberToObject(o, d->name, ws_stats_value(g, i)); break;
        case WS_STAT_TEXT:
            cJSON_AddStringToObject(o, d->name, g->v[i].text ? g->v[i].text : "");
            break;
        case WS_STAT_DIM3: {
            const int dims[3] = {(int)g->v[i].dim[0], (int)g->v[i].dim[1], (int)g->v[i].dim[2]};
            cJSON *a = cJSON_CreateIntArray(dims, 3);
            if (a)
                cJSON_AddItemToObject(o, d->name, a);
            break;
        }
        }
    }
    return o;
}

void ws_stats_print_doc(const ws_stats *s, FILE *f)
{
    for (int i = 0; i < s->n; i++) {
        const stat_def *d = &s->defs[i];
        fprintf(f, "| `%s` | %s | %s", d->name, *d->unit ? d->unit : "-", d->desc);
        if (d->kind == WS_STAT_FORMULA)
            fprintf(f, "; `= %s`", d->expr);
        if (d->flags & WS_STAT_NO_TOTAL)
            fputs(" (not in totals)", f);
        if (d->flags & WS_STAT_JSON_ONLY)
            fputs(" (JSON only)", f);
        fputs(" |\n", f);
    }
}
