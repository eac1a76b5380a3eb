/* config.c - parameter table, INI loading, overrides, checks and dumps (config.h). */
#include "util/config.h"
#include "util/err.h"

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
#define WS_CFG_ROWS(sec, list) list(WS_CFG_ROW)

const ws_cfg_param ws_cfg_params[] = {
    WS_CONFIG_SECTIONS(WS_CFG_ROWS)
    {NULL, NULL, WS_CT_UINT, 0, NULL, 0, 0, NULL, NULL, NULL}};
const size_t ws_cfg_n_params = sizeof ws_cfg_params / sizeof ws_cfg_params[0] - 1;

static const char *const ctype_name[] = {"uint", "int", "uint64", "double", "bool",
                                         "string", "enum"};

/* ---- small helpers ------------------------------------------------------------------ */

const ws_cfg_param *ws_cfg_find(const char *section, const char *key)
{
    for (const ws_cfg_param *p = ws_cfg_params; p->key; p++)
        if (!strcmp(p->section, section) && !strcmp(p->key, key))
            return p;
    return NULL;
}

static int section_exists(const char *section)
{
    for (const ws_cfg_param *p = ws_cfg_params; p->key; p++)
        if (!strcmp(p->section, section))
            return 1;
    return 0;
}

static void *field(ws_config *c, const ws_cfg_param *p) { return (char *)c + p->off; }
static const void *cfield(const ws_config *c, const ws_cfg_param *p)
{
    return (const char *)c + p->off;
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
static int parse_value(ws_config *c, const ws_cfg_param *p, const char *text, char *why,
                       size_t n)
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
        if (p->type == WS_CT_UINT)
            *(uint32_t *)field(c, p) = (uint32_t)v;
        else
            *(uint64_t *)field(c, p) = v;
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
        *(int32_t *)field(c, p) = (int32_t)d;
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
        *(double *)field(c, p) = v;
        return 0;
    }
    case WS_CT_BOOL: {
        static const char *const yes[] = {"true", "1", "yes", "on"};
        static const char *const no[] = {"false", "0", "no", "off"};
        for (int i = 0; i < 4; i++) {
            if (!strcasecmp(text, yes[i])) {
                *(bool *)field(c, p) = true;
                return 0;
            }
            if (!strcasecmp(text, no[i])) {
                *(bool *)field(c, p) = false;
                return 0;
            }
        }
        ws_seterr(why, n, "expected true or false");
        return -1;
    }
    case WS_CT_ENUM: {
        for (const ws_cfg_enum *e = p->names; e->name; e++)
            if (!strcasecmp(text, e->name)) {
                *(int *)field(c, p) = e->value;
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
        char *dst = field(c, p);
        memcpy(dst, text, len);
        dst[len] = 0;
        return 0;
    }
    }
    ws_seterr(why, n, "bad parameter type");
    return -1;
}

/* Text of p's value in c, as the INI dump writes it (strings quoted when `quote`). */
static void format_value(const ws_config *c, const ws_cfg_param *p, char *buf, size_t n,
                         int quote)
{
    const void *f = cfield(c, p);
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

void ws_config_defaults(ws_config *c)
{
    memset(c, 0, sizeof *c);
    for (const ws_cfg_param *p = ws_cfg_params; p->key; p++) {
        char why[128];
        if (parse_value(c, p, p->def, why, sizeof why)) {
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
    ws_config *c;
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
    const ws_cfg_param *p = ws_cfg_find(section, name);
    if (!p) {
        if (!*section)
            snprintf(st->msg, sizeof st->msg, "key '%s' outside a [section]", name);
        else if (!section_exists(section))
            snprintf(st->msg, sizeof st->msg, "unknown section [%s] (key '%s.%s')", section,
                     section, name);
        else
            snprintf(st->msg, sizeof st->msg, "unknown key '%s.%s'", section, name);
        st->err_line = st->line;
        return 0;
    }
    char why[256];
    if (parse_value(st->c, p, value, why, sizeof why)) {
        snprintf(st->msg, sizeof st->msg, "%s.%s: bad value '%s': %s", section, name, value,
                 why);
        st->err_line = st->line;
        return 0;
    }
    return 1;
}

int ws_config_apply_ini(ws_config *c, const char *text, const char *file, char *err,
                        size_t n)
{
    ini_state st = {.c = c, .p = text, .file = file ? file : "<config>"};
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


static int looks_like_path(const char *s)
{
    size_t len = strlen(s);
    return strchr(s, '/') || (len > 4 && !strcmp(s + len - 4, ".ini"));
}

int ws_config_load(ws_config *c, const char *preset_or_file, char *err, size_t n)
{
    if (err && n)
        err[0] = 0;
    ws_config_defaults(c);
    if (!preset_or_file || !*preset_or_file) {
        ws_seterr(err, n, "empty configuration name");
        return -1;
    }
    const char *text = looks_like_path(preset_or_file) ? NULL : ws_config_preset(preset_or_file);
    int rc;
    if (text) {
        char file[160];
        snprintf(file, sizeof file, "%s.ini", preset_or_file);
        rc = ws_config_apply_ini(c, text, file, err, n);
    } else {
        FILE *probe = fopen(preset_or_file, "rb");
        if (!probe && !looks_like_path(preset_or_file)) {
            char list[256] = "";
            size_t k = 0;
            for (size_t i = 0; ws_config_preset_name(i) && k < sizeof list; i++)
                k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "",
                                      ws_config_preset_name(i));
            ws_seterr(err, n, "'%s' is neither a preset (%s) nor a readable file",
                   preset_or_file, list);
            return -1;
        }
        if (probe)
            fclose(probe);
        char *buf = ws_read_file(preset_or_file, NULL, (size_t)16 << 20, err, n);
        if (!buf)
            return -1;
        rc = ws_config_apply_ini(c, buf, preset_or_file, err, n);
        free(buf);
    }
    if (rc)
        return -1;
    char why[256];
    if (ws_config_check(c, why, sizeof why)) {
        ws_seterr(err, n, "%s: %s", preset_or_file, why);
        return -1;
    }
    return 0;
}

/* ---- overrides ------------------------------------------------------------------------ */
static int set_one(ws_config *c, const char *item, size_t len, char *err, size_t n)
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
    const ws_cfg_param *p = ws_cfg_find(buf, key);
    if (!p) {
        ws_seterr(err, n, "unknown key '%s.%s'", buf, key);
        return -1;
    }
    char why[256];
    if (parse_value(c, p, value, why, sizeof why)) {
        ws_seterr(err, n, "%s.%s: bad value '%s': %s", buf, key, value, why);
        return -1;
    }
    return 0;
}

int ws_config_set(ws_config *c, const char *kv, char *err, size_t n)
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
        if (t < e && set_one(c, s, (size_t)(e - s), err, n))
            return -1;
        if (!*e)
            break;
        s = e + 1;
    }
    return 0;
}

/* ---- cross-parameter checks ----------------------------------------------------------- */
int ws_config_check(const ws_config *c, char *err, size_t n)
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
int ws_config_get(const ws_config *c, const char *name, char *buf, size_t n)
{
    const char *dot = name ? strchr(name, '.') : NULL;
    if (!dot || (size_t)(dot - name) >= 64)
        return -1;
    char sec[64];
    memcpy(sec, name, (size_t)(dot - name));
    sec[dot - name] = 0;
    const ws_cfg_param *p = ws_cfg_find(sec, dot + 1);
    if (!p)
        return -1;
    format_value(c, p, buf, n, 0);
    return 0;
}

void ws_config_print_ini(const ws_config *c, FILE *f)
{
    const char *sec = NULL;
    char buf[WS_CFG_STR + 8];
    for (const ws_cfg_param *p = ws_cfg_params; p->key; p++) {
        if (!sec || strcmp(sec, p->section)) {
            fprintf(f, "%s[%s]\n", sec ? "\n" : "", p->section);
            sec = p->section;
        }
        format_value(c, p, buf, sizeof buf, 1);
        fprintf(f, "%s = %s\n", p->key, buf);
    }
}

cJSON *ws_config_json(const ws_config *c)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *obj = NULL;
    const char *sec = NULL;
    char buf[WS_CFG_STR + 8];
    if (!root)
        return NULL;
    for (const ws_cfg_param *p = ws_cfg_params; p->key; p++) {
        if (!sec || strcmp(sec, p->section)) {
            obj = cJSON_AddObjectToObject(root, p->section);
            sec = p->section;
        }
        if (!obj)
            break;
        const void *fv = cfield(c, p);
        switch (p->type) {
        case WS_CT_UINT: cJSON_AddNumberToObject(obj, p->key, *(const uint32_t *)fv); break;
        case WS_CT_INT: cJSON_AddNumberToObject(obj, p->key, *(const int32_t *)fv); break;
        case WS_CT_DBL: cJSON_AddNumberToObject(obj, p->key, *(const double *)fv); break;
        case WS_CT_BOOL: cJSON_AddBoolToObject(obj, p->key, *(const bool *)fv); break;
        case WS_CT_U64: {
            uint64_t v = *(const uint64_t *)fv;
            if (v <= (1ull << 53)) {
                cJSON_AddNumberToObject(obj, p->key, (double)v);
                break;
            }
            /* beyond a double's exact integers: keep every digit as a string */
            format_value(c, p, buf, sizeof buf, 0);
            cJSON_AddStringToObject(obj, p->key, buf);
            break;
        }
        case WS_CT_ENUM:
        case WS_CT_STR:
            format_value(c, p, buf, sizeof buf, 0);
            cJSON_AddStringToObject(obj, p->key, buf);
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

void ws_config_print_doc(FILE *f)
{
    fputs("# warpsim configuration\n\n"
          "<!-- generated by `warpsim config --doc`; edit src/util/config.h, not this file -->\n\n"
          "Every simulator parameter, from the one table in `src/util/config.h`. A\n"
          "configuration starts from the defaults below (the `gtx480` preset) and is changed by,\n"
          "in order:\n\n"
          "1. a preset or INI file: `warpsim run --config hd7970 ...`, `--config my.ini`, or the\n"
          "   environment variable `WARPSIM_CONFIG` for programs using the CUDA Driver API;\n"
          "2. overrides `section.key=value`: `--set gpu.n_sm=30` (repeatable), or\n"
          "   `WARPSIM_SET=\"gpu.n_sm=30,sim.seed=7\"` (comma-separated; quote a value\n"
          "   containing a comma: `gpu.name=\"A, B\"`);\n"
          "3. `--mode` / `WARPSIM_MODE` for `sim.mode`.\n\n"
          "INI syntax: `[section]` headers, `key = value` lines, comments start with `;` or `#`\n"
          "(an inline comment needs a space before the `;`). Lines are at most 196 characters.\n"
          "Integers are decimal or `0x` hex and may end in a binary suffix `K`, `M`, `G` or `T`\n"
          "(`48K` = 49152). Booleans: `true`/`false` (also `1`/`0`, `yes`/`no`, `on`/`off`).\n"
          "Strings may be written in double quotes. An unknown section or key, a value out of\n"
          "range or of the wrong type is an error naming the file, line, `section.key` and the\n"
          "value. After loading, cross-parameter checks run (e.g. `max_threads_per_sm` must not\n"
          "exceed `max_warps_per_sm x warp_size`). `warpsim config` prints the effective\n"
          "configuration as INI text that loads back unchanged.\n\n"
          "Presets (`configs/*.ini`, built into the binary):",
          f);
    for (size_t i = 0; ws_config_preset_name(i); i++) {
        ws_config c;
        char err[256];
        const char *pn = ws_config_preset_name(i);
        int bad = ws_config_load(&c, pn, err, sizeof err);
        fprintf(f, "%s `%s` (%s%s)", i ? "," : "", pn, bad ? "does not load: " : "",
                bad ? err : c.gpu.name);
    }
    fputs(".\n", f);
    const char *sec = NULL;
    for (const ws_cfg_param *p = ws_cfg_params; p->key; p++) {
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
