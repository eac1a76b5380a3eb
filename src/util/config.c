/* config.c - parameter table, INI loading, overrides, checks and dumps (config.h). */
#include "util/config.h"
#include "util/err.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ini.h>

/* Generated from the .ini files of configs/ at build time (tools/embed.cmake). */
extern const struct {
    const char *name;
    const char *text;
} ws_presets[];

const ws_cfg_enum ws_cfg_enum_sim_mode[] = {
    {"functional", WS_MODE_FUNCTIONAL}, {"timing", WS_MODE_TIMING}, {NULL, 0}};
const ws_cfg_enum ws_cfg_enum_core_regs_source[] = {
    {"ptxas", WS_REGS_PTXAS}, {"estimate", WS_REGS_ESTIMATE}, {NULL, 0}};
const ws_cfg_enum ws_cfg_enum_sim_host_way[] = {
    {"auto", WS_WAY_AUTO}, {"team", WS_WAY_TEAM}, {"alone", WS_WAY_ALONE},
    {"serial", WS_WAY_SERIAL}, {"both", WS_WAY_BOTH}, {NULL, 0}};
const ws_cfg_enum ws_cfg_enum_mem_l2_thread_reply[] = {
    {"auto", WS_REPLY_AUTO}, {"thread", WS_REPLY_THREAD}, {"caller", WS_REPLY_CALLER}, {NULL, 0}};

#define WS_CFG_NAMES_UINT(s, k) NULL
#define WS_CFG_NAMES_INT(s, k) NULL
#define WS_CFG_NAMES_U64(s, k) NULL
#define WS_CFG_NAMES_DBL(s, k) NULL
#define WS_CFG_NAMES_BOOL(s, k) NULL
#define WS_CFG_NAMES_STR(s, k) NULL
#define WS_CFG_NAMES_ENUM(s, k) ws_cfg_enum_##s##_##k
#define WS_CFG_ROW(sec, key, type, def, lo, hi, unit, desc)                                  \
    {#sec, #key, WS_CT_##type, offsetof(ws_config, sec.key), def, lo, hi,                    \
     WS_CFG_NAMES_##type(sec, key), unit, desc},
#define WS_CFG_END {NULL, NULL, WS_CT_UINT, 0, NULL, 0, 0, NULL, NULL, NULL}
/* One row array and one table per fixed section. */
#define WS_CFG_ROWS(sec, list) static const ws_cfg_param rows_##sec[] = {list(WS_CFG_ROW) WS_CFG_END};
WS_CONFIG_SECTIONS(WS_CFG_ROWS)
#define WS_CFG_TABLE(sec, list) static const ws_cfg_table table_##sec = {NULL, rows_##sec, sizeof(ws_config)};
WS_CONFIG_SECTIONS(WS_CFG_TABLE)
#define WS_CFG_TABLE_PTR(sec, list) &table_##sec,
const ws_cfg_table *const ws_cfg_machine[] = {WS_CONFIG_SECTIONS(WS_CFG_TABLE_PTR) NULL};

static const char *const ctype_name[] = {"uint", "int", "uint64", "double", "bool",
                                         "string", "enum"};

/* ---- small helpers ------------------------------------------------------------------ */

const ws_cfg_param *ws_cfg_find(const ws_cfg_schema *s, const char *section,
                                const char *key, size_t *base)
{
    for (size_t t = 0; t < s->n; t++)
        for (const ws_cfg_param *p = s->tab[t]->rows; p->key; p++)
            if (!strcmp(p->section, section) && !strcmp(p->key, key)) {
                if (base)
                    *base = s->base[t];
                return p;
            }
    return NULL;
}

static int section_exists(const ws_cfg_schema *s, const char *section)
{
    for (size_t t = 0; t < s->n; t++)
        for (const ws_cfg_param *p = s->tab[t]->rows; p->key; p++)
            if (!strcmp(p->section, section))
                return 1;
    return 0;
}

/* Bytes of a field of type t. */
static size_t field_size(ws_ctype t)
{
    switch (t) {
    case WS_CT_UINT: return sizeof(uint32_t);
    case WS_CT_INT: return sizeof(int32_t);
    case WS_CT_U64: return sizeof(uint64_t);
    case WS_CT_DBL: return sizeof(double);
    case WS_CT_BOOL: return sizeof(bool);
    case WS_CT_STR: return WS_CFG_STR;
    case WS_CT_ENUM: return sizeof(int);
    }
    return 0;
}

/* A field is read and written with memcpy: plug-in structs live in a byte array
 * (ws_config.plugin), where a typed lvalue would not be allowed. */
static void put(void *obj, size_t base, const ws_cfg_param *p, const void *v, size_t n)
{
    assert(n == field_size(p->type));
    memcpy((char *)obj + base + p->off, v, n);
}
static void get(const void *obj, size_t base, const ws_cfg_param *p, void *v, size_t n)
{
    assert(n == field_size(p->type));
    memcpy(v, (const char *)obj + base + p->off, n);
}

/* Integer text: decimal or 0x hex, optional binary suffix K, M, G, T. */
static int parse_u64(const char *s, uint64_t *out)
{
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s)
        return -1;
    unsigned shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: break;
    }
    while (isspace((unsigned char)*end))
        end++;
    if (*end)
        return -1;
    if (shift && v > (UINT64_MAX >> shift))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

static void fmt_num(char *buf, size_t n, double v, ws_ctype t)
{
    if (t == WS_CT_DBL)
        snprintf(buf, n, "%g", v);
    else
        snprintf(buf, n, "%.0f", v);
}

/* Parses `text` into p's field of c; on error writes the reason into why. */
static int parse_value(void *obj, size_t base, const ws_cfg_param *p, const char *text,
                       char *why, size_t n)
{
    char lo[32], hi[32];
    fmt_num(lo, sizeof lo, p->lo, p->type);
    fmt_num(hi, sizeof hi, p->hi, p->type);
    switch (p->type) {
    case WS_CT_UINT:
    case WS_CT_U64: {
        uint64_t v;
        if (parse_u64(text, &v)) {
            ws_seterr(why, n, "expected an unsigned integer in [%s, %s]", lo, hi);
            return -1;
        }
        if ((double)v < p->lo || (double)v > p->hi) {
            ws_seterr(why, n, "out of range [%s, %s]", lo, hi);
            return -1;
        }
        if (p->type == WS_CT_UINT) {
            uint32_t u = (uint32_t)v;
            put(obj, base, p, &u, sizeof u);
        } else {
            put(obj, base, p, &v, sizeof v);
        }
        return 0;
    }
    case WS_CT_INT: {
        const char *s = text;
        int neg = 0;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '-' || *s == '+')
            neg = *s++ == '-';
        uint64_t v;
        if (parse_u64(s, &v) || v > (uint64_t)INT32_MAX + neg) {
            ws_seterr(why, n, "expected an integer in [%s, %s]", lo, hi);
            return -1;
        }
        double d = neg ? -(double)v : (double)v;
        if (d < p->lo || d > p->hi) {
            ws_seterr(why, n, "out of range [%s, %s]", lo, hi);
            return -1;
        }
        int32_t i = (int32_t)d;
        put(obj, base, p, &i, sizeof i);
        return 0;
    }
    case WS_CT_DBL: {
        char *end;
        errno = 0;
        double v = strtod(text, &end);
        while (end != text && isspace((unsigned char)*end))
            end++;
        if (end == text || *end || errno || !isfinite(v)) {
            ws_seterr(why, n, "expected a number in [%s, %s]", lo, hi);
            return -1;
        }
        if (v < p->lo || v > p->hi) {
            ws_seterr(why, n, "out of range [%s, %s]", lo, hi);
            return -1;
        }
        put(obj, base, p, &v, sizeof v);
        return 0;
    }
    case WS_CT_BOOL: {
        static const char *const yes[] = {"true", "1", "yes", "on"};
        static const char *const no[] = {"false", "0", "no", "off"};
        for (int i = 0; i < 4; i++) {
            bool b = !strcasecmp(text, yes[i]);
            if (b || !strcasecmp(text, no[i])) {
                put(obj, base, p, &b, sizeof b);
                return 0;
            }
        }
        ws_seterr(why, n, "expected true or false");
        return -1;
    }
    case WS_CT_ENUM: {
        for (const ws_cfg_enum *e = p->names; e->name; e++)
            if (!strcasecmp(text, e->name)) {
                put(obj, base, p, &e->value, sizeof e->value);
                return 0;
            }
        size_t k = 0;
        k += (size_t)snprintf(why, n, "expected one of:");
        for (const ws_cfg_enum *e = p->names; e->name && k < n; e++)
            k += (size_t)snprintf(why + k, n - k, " %s", e->name);
        return -1;
    }
    case WS_CT_STR: {
        size_t len = strlen(text);
        if (len >= 2 && text[0] == '"' && text[len - 1] == '"') {
            text++;
            len -= 2;
        }
        if ((double)len < p->lo || (double)len > p->hi || len >= WS_CFG_STR) {
            ws_seterr(why, n, "expected a string of %s to %s characters", lo, hi);
            return -1;
        }
        char dst[WS_CFG_STR] = {0};
        memcpy(dst, text, len);
        put(obj, base, p, dst, sizeof dst);
        return 0;
    }
    }
    ws_seterr(why, n, "bad parameter type");
    return -1;
}

/* Text of p's value in c, as the INI dump writes it (strings quoted when `quote`). */
static void format_value(const void *obj, size_t base, const ws_cfg_param *p, char *buf,
                         size_t n, int quote)
{
    /* a copy with the field's alignment */
    union {
        uint32_t u;
        int32_t i;
        uint64_t u64;
        double d;
        bool b;
        int e;
        char s[WS_CFG_STR];
    } v;
    get(obj, base, p, &v, field_size(p->type));
    const void *f = &v;
    switch (p->type) {
    case WS_CT_UINT: snprintf(buf, n, "%u", (unsigned)*(const uint32_t *)f); return;
    case WS_CT_INT: snprintf(buf, n, "%d", (int)*(const int32_t *)f); return;
    case WS_CT_U64:
        snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)f);
        return;
    case WS_CT_DBL: {
        double v = *(const double *)f;
        snprintf(buf, n, "%.15g", v);
        if (strtod(buf, NULL) != v)
            snprintf(buf, n, "%.17g", v);
        return;
    }
    case WS_CT_BOOL: snprintf(buf, n, "%s", *(const bool *)f ? "true" : "false"); return;
    case WS_CT_ENUM:
        for (const ws_cfg_enum *e = p->names; e->name; e++)
            if (e->value == *(const int *)f) {
                snprintf(buf, n, "%s", e->name);
                return;
            }
        snprintf(buf, n, "%d", *(const int *)f);
        return;
    case WS_CT_STR:
        snprintf(buf, n, quote ? "\"%s\"" : "%s", (const char *)f);
        return;
    }
    if (n)
        buf[0] = 0;
}

/* Every row p of schema s, in dump order, with `base`, the offset of its table's struct
 * in the object (the innermost loop runs once: it only declares base). */
#define FOR_ROWS(s, p, base)                                                                 \
    for (size_t t_ = 0; t_ < (s)->n; t_++)                                                   \
        for (const ws_cfg_param *p = (s)->tab[t_]->rows; p->key; p++)                        \
            for (size_t base = (s)->base[t_], once_ = 1; once_; once_ = 0)

void ws_cfg_defaults(const ws_cfg_schema *s, void *obj)
{
    FOR_ROWS(s, p, base) {
        char why[128];
        if (parse_value(obj, base, p, p->def, why, sizeof why)) {
            /* A bad default is a bug in the table, caught by the unit tests. */
            fprintf(stderr, "warpsim: internal: default of %s.%s: %s\n", p->section, p->key,
                    why);
            abort();
        }
    }
}

/* ---- presets -------------------------------------------------------------------------- */
const char *ws_config_preset(const char *name)
{
    for (size_t i = 0; ws_presets[i].name; i++)
        if (!strcmp(ws_presets[i].name, name))
            return ws_presets[i].text;
    return NULL;
}

const char *ws_config_preset_name(size_t i)
{
    for (size_t k = 0; ws_presets[k].name; k++)
        if (k == i)
            return ws_presets[k].name;
    return NULL;
}

/* ---- INI ------------------------------------------------------------------------------ */
/* The reader counts lines, so the handler knows where it is, and catches lines longer
 * than inih's buffer, which inih would otherwise split silently. */
typedef struct {
    const ws_cfg_schema *s;
    void *obj;
    const char *p;          /* unread text                                 */
    const char *file;
    int line;               /* line last handed to inih                    */
    int err_line;           /* first error, 0 when none                    */
    char msg[384];
} ini_state;

static char *ini_read(char *str, int num, void *stream)
{
    ini_state *st = stream;
    if (!*st->p)
        return NULL;
    const char *nl = strchr(st->p, '\n');
    size_t len = nl ? (size_t)(nl - st->p) + 1 : strlen(st->p);
    st->line++;
    if (len + 1 > (size_t)num) {
        if (!st->err_line) {
            st->err_line = st->line;
            snprintf(st->msg, sizeof st->msg, "line longer than %d characters", num - 2);
        }
        str[0] = '\n';   /* hand inih an empty line instead */
        str[1] = 0;
        st->p += nl ? (size_t)(nl - st->p) + 1 : strlen(st->p);
        return str;
    }
    memcpy(str, st->p, len);
    str[len] = 0;
    st->p += len;
    return str;
}

static int ini_on_key(void *user, const char *section, const char *name, const char *value)
{
    ini_state *st = user;
    if (st->err_line)
        return 1;   /* keep the first error only */
    size_t base = 0;
    const ws_cfg_param *p = ws_cfg_find(st->s, section, name, &base);
    if (!p) {
        if (!*section)
            snprintf(st->msg, sizeof st->msg, "key '%s' outside a [section]", name);
        else if (!section_exists(st->s, section))
            snprintf(st->msg, sizeof st->msg, "unknown section [%s] (key '%s.%s')", section,
                     section, name);
        else
            snprintf(st->msg, sizeof st->msg, "unknown key '%s.%s'", section, name);
        st->err_line = st->line;
        return 0;
    }
    char why[256];
    if (parse_value(st->obj, base, p, value, why, sizeof why)) {
        snprintf(st->msg, sizeof st->msg, "%s.%s: bad value '%s': %s", section, name, value,
                 why);
        st->err_line = st->line;
        return 0;
    }
    return 1;
}

int ws_cfg_apply_ini(const ws_cfg_schema *s, void *obj, const char *text, const char *file,
                     char *err, size_t n)
{
    ini_state st = {.s = s, .obj = obj, .p = text, .file = file ? file : "<config>"};
    int rc = ini_parse_stream(ini_read, &st, ini_on_key, &st);
    if (rc == 0 && !st.err_line)
        return 0;
    if (rc < 0) {
        ws_seterr(err, n, "%s: cannot parse (error %d)", st.file, rc);
        return -1;
    }
    if (st.err_line && (rc == 0 || st.err_line <= rc))
        ws_seterr(err, n, "%s:%d: %s", st.file, st.err_line, st.msg);
    else
        ws_seterr(err, n, "%s:%d: syntax error (expected '[section]' or 'key = value')", st.file,
               rc);
    return -1;
}


/* ---- overrides ------------------------------------------------------------------------ */
static int set_one(const ws_cfg_schema *sc, void *obj, const char *item, size_t len, char *err, size_t n)
{
    char buf[512];
    while (len && isspace((unsigned char)*item))
        item++, len--;
    while (len && isspace((unsigned char)item[len - 1]))
        len--;
    if (len >= sizeof buf) {
        ws_seterr(err, n, "override too long: '%.40s...'", item);
        return -1;
    }
    memcpy(buf, item, len);
    buf[len] = 0;
    char *eq = strchr(buf, '=');
    char *dot = strchr(buf, '.');
    if (!eq || !dot || dot > eq) {
        ws_seterr(err, n, "'%s': expected section.key=value", buf);
        return -1;
    }
    *eq = 0;
    *dot = 0;
    char *key = dot + 1, *value = eq + 1;
    /* trim around '=' */
    for (char *e = eq - 1; e >= key && isspace((unsigned char)*e); e--)
        *e = 0;
    while (isspace((unsigned char)*value))
        value++;
    size_t base = 0;
    const ws_cfg_param *p = ws_cfg_find(sc, buf, key, &base);
    if (!p) {
        ws_seterr(err, n, "unknown key '%s.%s'", buf, key);
        return -1;
    }
    char why[256];
    if (parse_value(obj, base, p, value, why, sizeof why)) {
        ws_seterr(err, n, "%s.%s: bad value '%s': %s", buf, key, value, why);
        return -1;
    }
    return 0;
}

int ws_cfg_set(const ws_cfg_schema *sc, void *obj, const char *kv, char *err, size_t n)
{
    if (!kv) {
        ws_seterr(err, n, "empty override");
        return -1;
    }
    const char *s = kv;
    for (;;) {
        const char *e = s;
        int inq = 0;
        while (*e && (inq || *e != ',')) {
            if (*e == '"')
                inq = !inq;
            e++;
        }
        const char *t = s;
        while (t < e && isspace((unsigned char)*t))
            t++;
        if (t < e && set_one(sc, obj, s, (size_t)(e - s), err, n))
            return -1;
        if (!*e)
            break;
        s = e + 1;
    }
    return 0;
}

/* ---- cross-parameter checks ----------------------------------------------------------- */
int ws_cfg_l1d_latency_queue(const ws_config *c)
{
    return c->l1d.latency_queue && c->l1d.ports == 1 &&
           !strcmp(c->core.model, "fermi") && !strcmp(c->mem.model, "detailed");
}

int ws_cfg_check_machine(const ws_config *c, char *err, size_t n)
{
    if (c->gpu.warp_size != 32 && c->gpu.warp_size != 64) {
        ws_seterr(err, n, "gpu.warp_size: %u is not 32 or 64", c->gpu.warp_size);
        return -1;
    }
    if ((uint64_t)c->gpu.max_threads_per_sm > (uint64_t)c->gpu.max_warps_per_sm * c->gpu.warp_size) {
        ws_seterr(err, n,
               "gpu.max_threads_per_sm (%u) exceeds gpu.max_warps_per_sm x gpu.warp_size (%u x %u)",
               c->gpu.max_threads_per_sm, c->gpu.max_warps_per_sm, c->gpu.warp_size);
        return -1;
    }
    if (c->gpu.max_threads_per_cta > c->gpu.max_threads_per_sm) {
        ws_seterr(err, n, "gpu.max_threads_per_cta (%u) exceeds gpu.max_threads_per_sm (%u)",
               c->gpu.max_threads_per_cta, c->gpu.max_threads_per_sm);
        return -1;
    }
    const uint32_t dims[3] = {c->gpu.max_block_x, c->gpu.max_block_y, c->gpu.max_block_z};
    for (int i = 0; i < 3; i++)
        if (dims[i] > c->gpu.max_threads_per_cta) {
            ws_seterr(err, n, "gpu.max_block_%c (%u) exceeds gpu.max_threads_per_cta (%u)",
                   "xyz"[i], dims[i], c->gpu.max_threads_per_cta);
            return -1;
        }
    if (c->gpu.max_shared_per_cta > c->gpu.shared_per_sm) {
        ws_seterr(err, n, "gpu.max_shared_per_cta (%u) exceeds gpu.shared_per_sm (%u)",
               c->gpu.max_shared_per_cta, c->gpu.shared_per_sm);
        return -1;
    }
    if ((uint64_t)c->gpu.max_regs_per_thread * c->gpu.warp_size > c->gpu.regs_per_sm) {
        ws_seterr(err, n,
               "one warp at gpu.max_regs_per_thread (%u x %u lanes) exceeds gpu.regs_per_sm (%u)",
               c->gpu.max_regs_per_thread, c->gpu.warp_size, c->gpu.regs_per_sm);
        return -1;
    }
    if (c->gpu.reg_alloc_unit > c->gpu.regs_per_sm) {
        ws_seterr(err, n, "gpu.reg_alloc_unit (%u) exceeds gpu.regs_per_sm (%u)",
               c->gpu.reg_alloc_unit, c->gpu.regs_per_sm);
        return -1;
    }
    return 0;
}

/* ---- dumps ---------------------------------------------------------------------------- */
int ws_cfg_get(const ws_cfg_schema *s, const void *obj, const char *name, char *buf, size_t n)
{
    const char *dot = name ? strchr(name, '.') : NULL;
    if (!dot || (size_t)(dot - name) >= 64)
        return -1;
    char sec[64];
    memcpy(sec, name, (size_t)(dot - name));
    sec[dot - name] = 0;
    size_t base = 0;
    const ws_cfg_param *p = ws_cfg_find(s, sec, dot + 1, &base);
    if (!p)
        return -1;
    format_value(obj, base, p, buf, n, 0);
    return 0;
}

void ws_cfg_print_ini(const ws_cfg_schema *s, const void *obj, FILE *f)
{
    const char *sec = NULL;
    char buf[WS_CFG_STR + 8];
    FOR_ROWS(s, p, base) {
        if (!sec || strcmp(sec, p->section)) {
            fprintf(f, "%s[%s]\n", sec ? "\n" : "", p->section);
            sec = p->section;
        }
        format_value(obj, base, p, buf, sizeof buf, 1);
        fprintf(f, "%s = %s\n", p->key, buf);
    }
}

cJSON *ws_cfg_json(const ws_cfg_schema *s, const void *obj)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *o = NULL;
    const char *sec = NULL;
    char buf[WS_CFG_STR + 8];
    if (!root)
        return NULL;
    FOR_ROWS(s, p, base) {
        if (!sec || strcmp(sec, p->section)) {
            o = cJSON_GetObjectItemCaseSensitive(root, p->section);
            if (!o)
                o = cJSON_AddObjectToObject(root, p->section);
            sec = p->section;
        }
        if (!o)
            break;
        switch (p->type) {
        case WS_CT_UINT: {
            uint32_t v;
            get(obj, base, p, &v, sizeof v);
            cJSON_AddNumberToObject(o, p->key, v);
            break;
        }
        case WS_CT_INT: {
            int32_t v;
            get(obj, base, p, &v, sizeof v);
            cJSON_AddNumberToObject(o, p->key, v);
            break;
        }
        case WS_CT_DBL: {
            double v;
            get(obj, base, p, &v, sizeof v);
            cJSON_AddNumberToObject(o, p->key, v);
            break;
        }
        case WS_CT_BOOL: {
            bool v;
            get(obj, base, p, &v, sizeof v);
            cJSON_AddBoolToObject(o, p->key, v);
            break;
        }
        case WS_CT_U64: {
            uint64_t v;
            get(obj, base, p, &v, sizeof v);
            if (v <= (1ull << 53)) {
                cJSON_AddNumberToObject(o, p->key, (double)v);
                break;
            }
            /* beyond a double's exact integers: keep every digit as a string */
            format_value(obj, base, p, buf, sizeof buf, 0);
            cJSON_AddStringToObject(o, p->key, buf);
            break;
        }
        case WS_CT_ENUM:
        case WS_CT_STR:
            format_value(obj, base, p, buf, sizeof buf, 0);
            cJSON_AddStringToObject(o, p->key, buf);
            break;
        }
    }
    return root;
}

static void doc_range(const ws_cfg_param *p, char *buf, size_t n)
{
    char lo[32], hi[32];
    fmt_num(lo, sizeof lo, p->lo, p->type);
    fmt_num(hi, sizeof hi, p->hi, p->type);
    switch (p->type) {
    case WS_CT_BOOL: snprintf(buf, n, "true, false"); break;
    case WS_CT_ENUM: {
        size_t k = 0;
        buf[0] = 0;
        for (const ws_cfg_enum *e = p->names; e->name && k < n; e++)
            k += (size_t)snprintf(buf + k, n - k, "%s%s", e == p->names ? "" : ", ", e->name);
        break;
    }
    case WS_CT_STR: snprintf(buf, n, "%s..%s chars", lo, hi); break;
    default:
        if (p->type == WS_CT_U64 && p->hi >= 18446744073709551615.0)
            snprintf(buf, n, "%s..2^64-1", lo);
        else
            snprintf(buf, n, "%s..%s", lo, hi);
        break;
    }
}

void ws_cfg_print_doc_tables(const ws_cfg_schema *s, FILE *f)
{
    const char *sec = NULL;
    FOR_ROWS(s, p, base) {
        (void)base;
        if (!sec || strcmp(sec, p->section)) {
            fprintf(f, "\n## [%s]\n\n", p->section);
            fputs("| key | type | default | range | unit | description |\n"
                  "|---|---|---|---|---|---|\n",
                  f);
            sec = p->section;
        }
        char range[128];
        doc_range(p, range, sizeof range);
        fprintf(f, "| `%s.%s` | %s | `%s` | %s | %s | %s |\n", p->section, p->key,
                ctype_name[p->type], p->def, range, p->unit, p->desc);
    }
}
