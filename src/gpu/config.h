/* config.h - the simulator's configuration: the full schema and the ws_config API.
 *
 * The schema is assembled here, the lowest layer that sees every table: the machine
 * description of util/config.h (ws_cfg_machine, base 0), and after the section they
 * belong to, the parameter tables of every registered plug-in, taken from the
 * registries: divergence policies (func/div.c) after [func], warp schedulers
 * (core/sched.c) after [core], memory models (mem/memsys.c) after [mem]. A plug-in table's struct lives in ws_config.plugin at
 * an offset that is a function of the registries only (tables in registry order,
 * each aligned for any type), so it is the same in every run and for every copy of
 * a configuration. Nothing is registered at run time: the schema is rebuilt from
 * const data on each call (a few dozen pointers).
 *
 * Every plug-in key is always part of the configuration, whichever plug-in is
 * selected: presets and INI files may set them all, `warpsim config` dumps them all.
 */
#ifndef WS_GPU_CONFIG_H
#define WS_GPU_CONFIG_H

#include <stddef.h>
#include <stdio.h>

#include "util/config.h"

/* The plug-in registries whose tables the schema holds. */
typedef enum { WS_PLUGIN_SCHED, WS_PLUGIN_DIV, WS_PLUGIN_MEM } ws_plugin_kind;

/* The full schema of ws_config. */
void ws_config_schema(ws_cfg_schema *s);

/* Row of "section.key", or NULL. */
const ws_cfg_param *ws_config_find(const char *section, const char *key);

/* Functions returning int return 0 on success and -1 on error, with a message in err
 * naming the file, line, section.key and the bad value ("f.ini:12: gpu.n_sm: value
 * '0' out of range [1, 1024]"). err may be NULL. */

/* The defaults of every table (the GTX480 preset). */
void ws_config_defaults(ws_config *c);

/* Resets *c to the defaults, then applies a preset (a name from ws_config_preset_name)
 * or an INI file (any argument containing '/' or ending in ".ini", or naming an
 * existing file when no preset has that name), then checks it (ws_config_check). */
int ws_config_load(ws_config *c, const char *preset_or_file, char *err, size_t n);

/* Applies INI text on top of *c without resetting or checking it; `file` names the
 * text in messages. */
int ws_config_apply_ini(ws_config *c, const char *text, const char *file, char *err,
                        size_t n);

/* Applies "section.key=value" overrides; a comma-separated list is accepted (the
 * WARPSIM_SET syntax); a value may be "double quoted" to contain a comma. Each value
 * is range-checked; the cross-parameter checks are left to ws_config_check. */
int ws_config_set(ws_config *c, const char *key_eq_value, char *err, size_t n);

/* Cross-parameter consistency of the machine description (warps vs threads per SM,
 * CTA limits within SM limits ...). ws_config_load runs it; callers applying
 * overrides run it after the last one. */
int ws_config_check(const ws_config *c, char *err, size_t n);

/* Value of one parameter as text ("section.key"); returns -1 if unknown. */
int ws_config_get(const ws_config *c, const char *section_dot_key, char *buf, size_t n);

/* The effective configuration, plug-in keys included: INI text that ws_config_load
 * reads back unchanged, and a JSON object {"gpu": {"n_sm": 15, ...}, ...}. */
void ws_config_print_ini(const ws_config *c, FILE *f);
cJSON *ws_config_json(const ws_config *c);

/* docs/CONFIG.md: every parameter with type, default, range, unit and description. */
void ws_config_print_doc(FILE *f);

/* The parameter structs of every registered plug-in of a kind, in registry order
 * (all[i] for the i-th; NULL where it has none): one malloc'd block, free() it once.
 * NULL when memory runs out. */
void **ws_config_params_all(const ws_config *c, ws_plugin_kind kind);
/* Copies the parameters of the plug-in named `owner` (a registered scheduler or
 * divergence policy) into out, which holds n bytes; -1 when no table of that owner
 * has that size. */
int ws_config_params(const ws_config *c, const char *owner, void *out, size_t n);

/* The parsed parameters of a plug-in table t (its owner's struct) copied into buf
 * (cap bytes, aligned for any type): buf, or NULL when t is NULL or does not fit. */
static inline const void *ws_config_plugin_params(const ws_config *c, const ws_cfg_table *t,
                                                  void *buf, size_t cap)
{
    if (!t || t->size > cap || ws_config_params(c, t->owner, buf, t->size))
        return NULL;
    return buf;
}

/* The registries, for listings: name and description of the i-th registered plug-in
 * of a kind; 0, or -1 past the end. */
int ws_plugin_at(ws_plugin_kind kind, size_t i, const char **name, const char **desc);

#endif
