/* config.c - the full configuration schema and the ws_config API (config.h). */
#include "gpu/config.h"

#include <stdlib.h>
#include <string.h>

#include "core/core_model.h"
#include "core/sched.h"
#include "func/div.h"
#include "mem/memsys.h"
#include "util/err.h"

/* Offsets of plug-in structs in ws_config.plugin are multiples of this. */
#define PLUGIN_ALIGN _Alignof(max_align_t)

static void add(ws_cfg_schema *s, const ws_cfg_table *t, size_t base)
{
    if (s->n >= WS_CFG_MAX_TABLES) {
        fprintf(stderr, "warpsim: internal: more than %d configuration tables\n",
                WS_CFG_MAX_TABLES);
        abort();
    }
    s->tab[s->n] = t;
    s->base[s->n++] = base;
}

/* Appends a plug-in table at the next free offset of ws_config.plugin. */
static void add_plugin(ws_cfg_schema *s, const ws_cfg_table *t, size_t *used)
{
    if (!t)
        return;
    size_t at = (*used + PLUGIN_ALIGN - 1) / PLUGIN_ALIGN * PLUGIN_ALIGN;
    if (at + t->size > WS_CFG_PLUGIN_BYTES) {
        /* a bug in the build, caught by every test: raise WS_CFG_PLUGIN_BYTES */
        fprintf(stderr, "warpsim: internal: plug-in parameters of '%s' exceed "
                "WS_CFG_PLUGIN_BYTES (%d)\n", t->owner ? t->owner : "?", WS_CFG_PLUGIN_BYTES);
        abort();
    }
    add(s, t, offsetof(ws_config, plugin) + at);
    *used = at + t->size;
}

void ws_config_schema(ws_cfg_schema *s)
{
    size_t used = 0;
    s->n = 0;
    for (size_t i = 0; ws_cfg_machine[i]; i++) {
        const ws_cfg_table *t = ws_cfg_machine[i];
        add(s, t, 0);
        /* plug-in tables follow the section that selects the plug-in */
        const char *sec = t->rows[0].section;
        if (!strcmp(sec, "func"))
            for (size_t k = 0; div_at(k); k++)
                add_plugin(s, div_at(k)->params, &used);
        if (!strcmp(sec, "core")) {
            for (size_t k = 0; sched_at(k); k++)
                add_plugin(s, sched_at(k)->params, &used);
            for (size_t k = 0; core_model_at(k); k++)
                add_plugin(s, core_model_at(k)->params, &used);
        }
        if (!strcmp(sec, "mem"))
            for (size_t k = 0; mem_model_at(k); k++)
                add_plugin(s, mem_model_at(k)->params, &used);
    }
}

const ws_cfg_param *ws_config_find(const char *section, const char *key)
{
    ws_cfg_schema s;
    ws_config_schema(&s);
    return ws_cfg_find(&s, section, key, NULL);
}

void ws_config_defaults(ws_config *c)
{
    ws_cfg_schema s;
    ws_config_schema(&s);
    memset(c, 0, sizeof *c);
    ws_cfg_defaults(&s, c);
}

int ws_config_apply_ini(ws_config *c, const char *text, const char *file, char *err,
                        size_t n)
{
    ws_cfg_schema s;
    ws_config_schema(&s);
    return ws_cfg_apply_ini(&s, c, text, file, err, n);
}

int ws_config_set(ws_config *c, const char *kv, char *err, size_t n)
{
    ws_cfg_schema s;
    ws_config_schema(&s);
    return ws_cfg_set(&s, c, kv, err, n);
}

int ws_config_check(const ws_config *c, char *err, size_t n)
{
    return ws_cfg_check_machine(c, err, n);
}

int ws_config_get(const ws_config *c, const char *name, char *buf, size_t n)
{
    ws_cfg_schema s;
    ws_config_schema(&s);
    return ws_cfg_get(&s, c, name, buf, n);
}

void ws_config_print_ini(const ws_config *c, FILE *f)
{
    ws_cfg_schema s;
    ws_config_schema(&s);
    ws_cfg_print_ini(&s, c, f);
}

cJSON *ws_config_json(const ws_config *c)
{
    ws_cfg_schema s;
    ws_config_schema(&s);
    return ws_cfg_json(&s, c);
}

static const ws_cfg_table *table_of(ws_plugin_kind kind, size_t i, int *end)
{
    *end = 0;
    if (kind == WS_PLUGIN_SCHED && sched_at(i))
        return sched_at(i)->params;
    if (kind == WS_PLUGIN_DIV && div_at(i))
        return div_at(i)->params;
    if (kind == WS_PLUGIN_MEM && mem_model_at(i))
        return mem_model_at(i)->params;
    *end = 1;
    return NULL;
}

void **ws_config_params_all(const ws_config *c, ws_plugin_kind kind)
{
    ws_cfg_schema s;
    ws_config_schema(&s);
    size_t n = 0, bytes = 0;
    int end;
    for (const ws_cfg_table *t; (t = table_of(kind, n, &end)), !end; n++)
        if (t)
            bytes += (t->size + PLUGIN_ALIGN - 1) / PLUGIN_ALIGN * PLUGIN_ALIGN;
    size_t head = ((n ? n : 1) * sizeof(void *) + PLUGIN_ALIGN - 1) / PLUGIN_ALIGN * PLUGIN_ALIGN;
    /* malloc's alignment suits any type, so every struct at a PLUGIN_ALIGN offset does */
    void **all = malloc(head + bytes);
    if (!all)
        return NULL;
    char *at = (char *)all + head;
    for (size_t i = 0; i < n; i++) {
        const ws_cfg_table *t = table_of(kind, i, &end);
        all[i] = NULL;
        for (size_t k = 0; t && k < s.n; k++)
            if (s.tab[k] == t) {
                memcpy(at, (const char *)c + s.base[k], t->size);
                all[i] = at;
                at += (t->size + PLUGIN_ALIGN - 1) / PLUGIN_ALIGN * PLUGIN_ALIGN;
            }
    }
    return all;
}

int ws_config_params(const ws_config *c, const char *owner, void *out, size_t n)
{
    ws_cfg_schema s;
    ws_config_schema(&s);
    for (size_t i = 0; i < s.n; i++)
        if (s.tab[i]->owner && !strcmp(s.tab[i]->owner, owner) && s.tab[i]->size == n) {
            memcpy(out, (const char *)c + s.base[i], n);
            return 0;
        }
    return -1;
}

int ws_plugin_at(ws_plugin_kind kind, size_t i, const char **name, const char **desc)
{
    const char *nm = NULL, *ds = NULL;
    if (kind == WS_PLUGIN_SCHED && sched_at(i)) {
        nm = sched_at(i)->name;
        ds = sched_at(i)->desc;
    } else if (kind == WS_PLUGIN_DIV && div_at(i)) {
        nm = div_at(i)->name;
        ds = div_at(i)->desc;
    } else if (kind == WS_PLUGIN_MEM && mem_model_at(i)) {
        nm = mem_model_at(i)->name;
        ds = mem_model_at(i)->desc;
    }
    if (!nm)
        return -1;
    if (name)
        *name = nm;
    if (desc)
        *desc = ds;
    return 0;
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


/* The first sentence of a preset's header comment, without its "<name>.ini - " prefix:
 * comment lines joined until one ends the sentence ("." at the end of a line or ". "). */
static void preset_summary(const char *text, char *out, size_t n)
{
    size_t k = 0;
    out[0] = 0;
    for (const char *l = text; l && *l == ';' && k + 1 < n;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        const char *p = l + 1;
        while (p < l + len && *p == ' ')
            p++;
        if (k == 0) {
            const char *dash = strstr(p, ".ini - ");
            if (dash && dash < l + len)
                p = dash + 7;
        }
        for (; p < l + len && k + 2 < n; p++) {
            out[k++] = *p;
            if (*p == '.' && (p + 1 == l + len || p[1] == ' ')) {
                out[k] = 0;
                return;
            }
        }
        if (k + 2 < n)
            out[k++] = ' ';
        out[k] = 0;
        l = e ? e + 1 : NULL;
    }
}

void ws_config_print_doc(FILE *f)
{
    fputs("# warpsim configuration\n\n"
          "<!-- generated by `warpsim config --doc`; edit the row tables (src/util/config*.h for\n"
          "the machine description, each plug-in's own file for its keys), not this file -->\n\n"
          "Every simulator parameter, from one schema: the machine description of\n"
          "`src/util/config.h` and the keys each plug-in declares in its own file\n"
          "(schedulers: `src/core/sched_*.c`), assembled in `src/gpu/config.c`. A\n"
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
          "## Presets\n\n"
          "`configs/*.ini`, built into the binary (`warpsim list` shows them); each file names\n"
          "the source of every value beside it and says what the model leaves out:\n\n",
          f);
    for (size_t i = 0; ws_config_preset_name(i); i++) {
        ws_config c;
        char err[256], sum[512];
        const char *pn = ws_config_preset_name(i);
        int bad = ws_config_load(&c, pn, err, sizeof err);
        preset_summary(ws_config_preset(pn), sum, sizeof sum);
        fprintf(f, "- `%s` (%s%s, %u SMs): %s\n", pn, bad ? "does not load: " : "",
                bad ? err : c.gpu.name, bad ? 0 : c.gpu.n_sm, sum);
    }
    ws_cfg_schema s;
    ws_config_schema(&s);
    ws_cfg_print_doc_tables(&s, f);
}
