/* progress.c - the one-line progress display (progress.h). */
#include "api/progress.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int ws_progress_display_init(ws_progress_display *d, FILE *f)
{
    memset(d, 0, sizeof *d);
    d->f = f;
    d->t_start = now();
    d->delay = 1.0;
    const char *e = getenv("WARPSIM_PROGRESS_DELAY");   /* seconds; tests use 0 */
    if (e && *e)
        d->delay = atof(e);
    return f && isatty(fileno(f));
}

/* 1234567 -> "1.23M" */
static void si(char *b, size_t n, double v)
{
    if (v >= 1e9)
        snprintf(b, n, "%.2fG", v / 1e9);
    else if (v >= 1e6)
        snprintf(b, n, "%.2fM", v / 1e6);
    else if (v >= 1e4)
        snprintf(b, n, "%.1fk", v / 1e3);
    else
        snprintf(b, n, "%.0f", v);
}

static void hms(char *b, size_t n, double s)
{
    unsigned long t = (unsigned long)(s + 0.5);
    if (t < 60)
        snprintf(b, n, "%lus", t);
    else if (t < 3600)
        snprintf(b, n, "%lum%02lus", t / 60, t % 60);
    else
        snprintf(b, n, "%luh%02lum", t / 3600, t / 60 % 60);
}

void ws_progress_format(const ws_progress *p, size_t launch_no, char *buf, size_t n)
{
    char cyc[32] = "", rate[32], eta[32] = "?";
    double pct = p->ctas_total ? 100.0 * (double)p->ctas_done / (double)p->ctas_total : 0.0;
    if (p->cycles) {
        si(cyc, sizeof cyc - 8, (double)p->cycles);
        strcat(cyc, " cycles  ");
    }
    si(rate, sizeof rate, p->seconds > 0 ? (double)p->warp_insts / p->seconds : 0.0);
    if (p->ctas_done && p->ctas_done < p->ctas_total)
        hms(eta, sizeof eta, p->seconds * (double)(p->ctas_total - p->ctas_done) / (double)p->ctas_done);
    else if (p->ctas_total && p->ctas_done >= p->ctas_total)
        snprintf(eta, sizeof eta, "0s");
    snprintf(buf, n, "warpsim: launch %zu %.40s  CTAs %llu/%llu (%.0f%%)  %s%s warp inst/s  ETA %s",
             launch_no, p->kernel ? p->kernel : "?", (unsigned long long)p->ctas_done,
             (unsigned long long)p->ctas_total, pct, cyc, rate, eta);
}

void ws_progress_display_clear(ws_progress_display *d)
{
    if (d->drawn) {
        fputs("\r\033[K", d->f);
        fflush(d->f);
        d->drawn = 0;
    }
}

void ws_progress_display_cb(void *user, const ws_progress *p)
{
    ws_progress_display *d = user;
    if (p->done) {
        d->launches++;
        ws_progress_display_clear(d);
        return;
    }
    double t = now();
    if (t - d->t_start < d->delay || t - d->last_draw < 0.25)
        return;
    d->last_draw = t;
    char line[256];
    ws_progress_format(p, d->launches + 1, line, sizeof line);
    fprintf(d->f, "\r\033[K%s", line);
    fflush(d->f);
    d->drawn = 1;
}
