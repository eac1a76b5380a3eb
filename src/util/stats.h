/* stats.h - the statistics registry: counters and formulas, printed from one table.
 *
 * A registry (ws_stats) holds the definitions: stable name, unit, one-line
 * description, kind and flags. Formulas are arithmetic over earlier statistics
 * ("thread_insts / lane_slots"), so their definition is data that the docs print.
 * A group (ws_stats_group) holds one set of values of every statistic: one group per
 * kernel launch, one for the totals, one per component instance ... The text printer,
 * the JSON printer and docs/STATS.md read the same definitions.
 *
 * Components may keep their counters in their own structs (no lookup in hot paths)
 * and bind them (ws_stats_bind); ws_stats_snapshot copies bound counters into a group.
 * Register every statistic before creating the first group.
 */
#ifndef WS_UTIL_STATS_H
#define WS_UTIL_STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

typedef enum {
    WS_STAT_COUNTER,   /* uint64_t event count                                   */
    WS_STAT_REAL,      /* double measurement (seconds ...)                       */
    WS_STAT_FORMULA,   /* double computed from other statistics                   */
    WS_STAT_TEXT,      /* string (kernel name, mode ...)                          */
    WS_STAT_DIM3,      /* three uint32_t (grid, block)                            */
} ws_stat_kind;

enum {
    WS_STAT_HIDE_ZERO = 1u << 0, /* text printer skips it while its value is 0          */
    WS_STAT_NO_TOTAL = 1u << 1,  /* per-group only: ws_stats_accumulate leaves it unset  */
    WS_STAT_MAX = 1u << 2,       /* accumulate keeps the maximum instead of the sum      */
    WS_STAT_JSON_ONLY = 1u << 3, /* raw inputs of formulas: in JSON, not in the text     */
};

typedef struct ws_stats ws_stats;
typedef struct ws_stats_group ws_stats_group;

ws_stats *ws_stats_create(void);
void ws_stats_destroy(ws_stats *s);

/* Registration. Return the statistic's id (>= 0), or -1 when the name is taken or
 * malformed, the formula does not parse or names an unknown or non-numeric statistic,
 * or groups already exist; the reason goes to err (may be NULL). Names are stable
 * identifiers: [a-z_][a-z0-9_]*. */
int ws_stats_add_counter(ws_stats *s, const char *name, const char *unit, const char *desc,
                         unsigned flags, char *err, size_t n);
int ws_stats_add_real(ws_stats *s, const char *name, const char *unit, const char *desc,
                      unsigned flags, char *err, size_t n);
int ws_stats_add_text(ws_stats *s, const char *name, const char *desc, unsigned flags,
                      char *err, size_t n);
int ws_stats_add_dim3(ws_stats *s, const char *name, const char *unit, const char *desc,
                      unsigned flags, char *err, size_t n);
/* expr: numbers, statistic names, + - * / and parentheses; x / 0 is 0. */
int ws_stats_add_formula(ws_stats *s, const char *name, const char *unit, const char *desc,
                         const char *expr, unsigned flags, char *err, size_t n);

/* Binds a counter to a live variable read by ws_stats_snapshot. */
void ws_stats_bind(ws_stats *s, int id, const uint64_t *src);

int ws_stats_count(const ws_stats *s);
int ws_stats_find(const ws_stats *s, const char *name);   /* id or -1 */
const char *ws_stats_name(const ws_stats *s, int id);
ws_stat_kind ws_stats_kind(const ws_stats *s, int id);

/* ---- groups ----------------------------------------------------------------------- */
/* A group starts with every statistic unset; printers skip unset ones. */
ws_stats_group *ws_stats_group_create(ws_stats *s, const char *title);
void ws_stats_group_destroy(ws_stats_group *g);
const char *ws_stats_group_title(const ws_stats_group *g);

void ws_stats_set(ws_stats_group *g, int id, uint64_t v);          /* COUNTER */
void ws_stats_inc(ws_stats_group *g, int id, uint64_t v);          /* COUNTER */
void ws_stats_set_real(ws_stats_group *g, int id, double v);       /* REAL    */
void ws_stats_set_text(ws_stats_group *g, int id, const char *v);  /* TEXT (copied) */
void ws_stats_set_dim3(ws_stats_group *g, int id, const uint32_t v[3]);
/* Copies every bound counter into g. */
void ws_stats_snapshot(ws_stats_group *g);
/* Adds g's counters and reals into total (or keeps the max, WS_STAT_MAX); statistics
 * flagged WS_STAT_NO_TOTAL, text and dim3 ones are not carried over. */
void ws_stats_accumulate(ws_stats_group *total, const ws_stats_group *g);

int ws_stats_is_set(const ws_stats_group *g, int id);
/* Numeric value (counter, real, formula); 0 for text / dim3 / unset. */
double ws_stats_value(const ws_stats_group *g, int id);
uint64_t ws_stats_counter(const ws_stats_group *g, int id);
const char *ws_stats_text(const ws_stats_group *g, int id);   /* "" when unset */

/* ---- printers --------------------------------------------------------------------- */
/* Aligned, human-readable: "== title ==" then one line per set statistic:
 * name, value (thousands separators; percentages with 2 decimals), unit,
 * description. */
void ws_stats_print_text(const ws_stats_group *g, FILE *f);
/* {"name": value, ...} in registration order; dim3 as [x, y, z]. */
cJSON *ws_stats_json(const ws_stats_group *g);
/* Markdown table rows "| `name` | unit | definition |" (docs/STATS.md). */
void ws_stats_print_doc(const ws_stats *s, FILE *f);

#endif
