/* progress.h - the one-line progress display of long runs on a terminal.
 *
 * Fed by the simulation's progress callback (gpu/sim.h ws_progress); draws, on a
 * terminal and once the run has lasted a second, one line rewritten in place:
 *   warpsim: launch 3 hotspot_step  CTAs 120/400 (30%)  1.23M cycles  4.5M warp inst/s  ETA 12s
 * at most four times a second, and erases it when the launch ends, so nothing the
 * program prints between launches is mixed with it. The CLI (`warpsim run`, and
 * `warpsim exec` through WARPSIM_PROGRESS=1) uses it; it is silent when the stream
 * is not a terminal.
 */
#ifndef WS_API_PROGRESS_H
#define WS_API_PROGRESS_H

#include <stdio.h>

#include "gpu/sim.h"

typedef struct {
    FILE *f;
    double t_start;      /* when the display was set up                          */
    double last_draw;
    int drawn;           /* a line is on the terminal now                         */
    size_t launches;     /* launches finished so far                              */
    double delay;        /* seconds before the first line (1)                     */
} ws_progress_display;

/* Sets the display up on f; returns 1 when f is a terminal (it will draw), else 0. */
int ws_progress_display_init(ws_progress_display *d, FILE *f);
/* The ws_progress_fn: user is the ws_progress_display. */
void ws_progress_display_cb(void *user, const ws_progress *p);
/* Erases the line if one is drawn. */
void ws_progress_display_clear(ws_progress_display *d);
/* The line for p (no escape codes) into buf; for tests. */
void ws_progress_format(const ws_progress *p, size_t launch_no, char *buf, size_t n);

#endif
