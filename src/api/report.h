/* report.h - the run report: per-launch and total statistics of kernel launches.
 *
 * Built on the statistics registry (util/stats.h) from the ws_launch_stats records of
 * a simulation (gpu/sim.h). The CLI prints it after a workload; the Driver API writes
 * its JSON to $WARPSIM_STATS. docs/STATS.md is generated from the same definitions
 * (`warpsim stats --doc`).
 */
#ifndef WS_API_REPORT_H
#define WS_API_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "gpu/sim.h"
#include "gpu/config.h"

typedef struct ws_report ws_report;

/* cfg: the configuration of the run (copied); source: how it was chosen, e.g.
 * "gtx480 + gpu.n_sm=30" (may be NULL). */
ws_report *ws_report_create(const ws_config *cfg, const char *source);
void ws_report_destroy(ws_report *r);

/* Adds one launch (copied, strings included). Returns 0, or -1 when out of memory. */
int ws_report_add(ws_report *r, const ws_launch_stats *ls);
/* The same, but the memory-statistics tree ls->t.mem moves into the report (ls->t.mem is
 * NULL afterwards, also on failure: then it was deleted): for a caller about to discard
 * ls, e.g. a simulation being destroyed (a copy of a large tree per launch is most of a
 * short launch's host time). */
int ws_report_take(ws_report *r, ws_launch_stats *ls);
/* Adds every launch of src to dst. */
int ws_report_merge(ws_report *dst, const ws_report *src);
size_t ws_report_count(const ws_report *r);
/* Launches whose result is not WS_OK. */
size_t ws_report_failed(const ws_report *r);

/* Marks the statistics partial (a budget or a signal stopped the run): the text report
 * says so with `why`, the JSON gets "partial": true and "stopped": why. A launch whose
 * result is WS_E_STOPPED marks the report partial by itself. */
void ws_report_mark_partial(ws_report *r, const char *why);
/* Why the statistics are partial, or NULL when they are complete. */
const char *ws_report_partial(const ws_report *r);

/* Text: a summary line, one block per launch, then the totals. Beyond
 * WS_REPORT_TEXT_LAUNCHES launches, one block per kernel (its launches summed) instead,
 * unless `all`. */
#define WS_REPORT_TEXT_LAUNCHES 8
void ws_report_print_text(const ws_report *r, FILE *f, int all);
/* {"config_source": ..., "config": {...}, "launches": [{...}], "total": {...}}. Each
 * launch's "mem" refers to the report's own tree (not a copy): use the result while the
 * report lives; cJSON_Delete of it leaves the report's trees alone. */
cJSON *ws_report_json(const ws_report *r);
int ws_report_write_json(const ws_report *r, const char *path, char *err, size_t n);

/* docs/STATS.md */
void ws_report_print_doc(FILE *f);

#endif
