/* err.c - names of the simulator's error codes. */
#include "util/err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ws_err_name(ws_err e)
{
    static const char *const names[] = {
        "ok", "invalid value", "out of memory", "invalid PTX", "not found", "invalid handle",
        "out of resources", "illegal address", "misaligned address", "trap", "deadlock",
        "launch failed",
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
        ws_seterr(err, n, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 65536, used = 0;
    char *buf = malloc(cap);
    const char *why = buf ? NULL : "out of memory";
    while (buf) {
        if (used + 1 >= cap) {
            char *nb = cap * 2 > max + 1 ? NULL : realloc(buf, cap * 2);
            if (!nb) {
                why = cap * 2 > max + 1 ? "file too large" : "out of memory";
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + used, 1, cap - used - 1, f);
        used += got;
        if (got == 0) {
            if (ferror(f)) {
                why = "read error";
                free(buf);
                buf = NULL;
            }
            break;
        }
    }
    fclose(f);
    if (!buf) {
        ws_seterr(err, n, "%s: %s", path, why);
        return NULL;
    }
    buf[used] = 0;
    if (len)
        *len = used;
    return buf;
}
