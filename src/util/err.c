/* err.c - names of the simulator's error codes. */
#include "util/err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ws_err_name(ws_err e)
{
    static const char *const names[] = {
        "ok", "invalid value", "out of memory", "invalid PTX", "not found", "invalid handle",
        "out of resources", "illegal address", "misaligned address", "trap", "deadlock",
        "launch failed", "stopped (partial statistics)",
    };
    return (unsigned)e < sizeof names / sizeof names[0] ? names[e] : "unknown error";
}

void ws_seterr(char *err, size_t n, const char *fmt, ...)
{
    if (!err || !n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

char *ws_read_file(const char *path, size_t *len, size_t max, char *err, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        ws_seterr(err, n, "%s: %s", path, strerror(e));
        errno = e;
        return NULL;
    }
    /* Invariant: buf holds `used` bytes and room for cap - used more, the last one
     * kept for the terminating NUL. `max` may be SIZE_MAX: no size arithmetic below
     * adds to it (max + 1 would wrap to 0). */
    size_t cap = 65536, used = 0;
    if (max < SIZE_MAX && cap > max + 1)
        cap = max + 1;
    char *buf = malloc(cap);
    const char *why = NULL;
    int e = 0;
    if (!buf) {
        why = "out of memory";
        e = ENOMEM;
    }
    while (buf) {
        if (used + 1 >= cap) {
            if (used >= max) {
                if (fgetc(f) == EOF && !ferror(f))
                    break;                   /* exactly max bytes */
                why = "file too large";
                e = EFBIG;
            } else {
                size_t ncap = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
                if (ncap - 1 > max)
                    ncap = max + 1;          /* max < ncap - 1 <= SIZE_MAX - 1 */
                char *nb = realloc(buf, ncap);
                if (nb) {
                    buf = nb;
                    cap = ncap;
                } else {
                    why = "out of memory";
                    e = ENOMEM;
                }
            }
            if (why) {
                free(buf);
                buf = NULL;
                break;
            }
        }
        size_t got = fread(buf + used, 1, cap - used - 1, f);
        used += got;
        if (got == 0) {
            if (ferror(f)) {
                why = "read error";
                e = errno ? errno : EIO;
                free(buf);
                buf = NULL;
            }
            break;
        }
    }
    fclose(f);
    if (!buf) {
        if (e == EFBIG)
            ws_seterr(err, n, "%s: file too large (more than %zu bytes)", path, max);
        else
            ws_seterr(err, n, "%s: %s: %s", path, why, strerror(e));
        errno = e;
        return NULL;
    }
    buf[used] = 0;
    if (len)
        *len = used;
    return buf;
}
