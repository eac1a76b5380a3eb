/* json_out.c - fast formatted printing of a cJSON tree (json_out.h). */
#include "util/json_out.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *p;
    size_t n, cap;
    int oom;
} jbuf;

static char *room(jbuf *b, size_t k)
{
    if (b->oom)
        return NULL;
    if (b->n + k + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (b->n + k + 1 > cap)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->oom = 1;
            return NULL;
        }
        b->p = q;
        b->cap = cap;
    }
    return b->p + b->n;
}

static void put(jbuf *b, const char *s, size_t k)
{
    char *o = room(b, k);
    if (o) {
        memcpy(o, s, k);
        b->n += k;
    }
}

static void putc1(jbuf *b, char c)
{
    char *o = room(b, 1);
    if (o)
        b->p[b->n++] = c;
}

static void tabs(jbuf *b, size_t k)
{
    char *o = room(b, k);
    if (o) {
        memset(o, '\t', k);
        b->n += k;
    }
}

/* An integer in decimal, as "%1.15g" prints one of fewer than 16 digits. */
static void put_int(jbuf *b, int64_t v, int neg)
{
    char t[24];
    size_t i = sizeof t;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        t[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (neg)
        t[--i] = '-';
    put(b, t + i, sizeof t - i);
}

/* cJSON's comparison of a read-back value with the original. */
static int same_double(double a, double c)
{
    double m = fabs(a) > fabs(c) ? fabs(a) : fabs(c);
    return fabs(a - c) <= m * DBL_EPSILON;
}

static void put_number(jbuf *b, const cJSON *it)
{
    double d = it->valuedouble;
    if (isnan(d) || isinf(d)) {
        put(b, "null", 4);
        return;
    }
    /* an integral value below 10^15 prints as its digits under "%1.15g" (no exponent,
     * no point) and reads back exactly: the common case, without printf */
    if (fabs(d) < 1e15 && d == (double)(int64_t)d) {
        put_int(b, (int64_t)d, signbit(d) != 0);
        return;
    }
    char t[32];
    int k = snprintf(t, sizeof t, "%1.15g", d);
    if (!same_double(strtod(t, NULL), d))
        k = snprintf(t, sizeof t, "%1.17g", d);
    put(b, t, (size_t)k);
}

static void put_string(jbuf *b, const char *s)
{
    putc1(b, '"');
    if (s) {
        const char *run = s;   /* bytes copied as they are, in runs */
        for (; *s; s++) {
            unsigned char c = (unsigned char)*s;
            if (c >= 32 && c != '"' && c != '\\')
                continue;
            put(b, run, (size_t)(s - run));
            run = s + 1;
            char e[8];
            switch (c) {
            case '"': put(b, "\\\"", 2); break;
            case '\\': put(b, "\\\\", 2); break;
            case '\b': put(b, "\\b", 2); break;
            case '\f': put(b, "\\f", 2); break;
            case '\n': put(b, "\\n", 2); break;
            case '\r': put(b, "\\r", 2); break;
            case '\t': put(b, "\\t", 2); break;
            default:
                snprintf(e, sizeof e, "\\u%04x", c);
                put(b, e, 6);
                break;
            }
        }
        put(b, run, (size_t)(s - run));
    }
    putc1(b, '"');
}

static void put_value(jbuf *b, const cJSON *it, size_t depth)
{
    switch (it->type & 0xFF) {
    case cJSON_NULL: put(b, "null", 4); break;
    case cJSON_False: put(b, "false", 5); break;
    case cJSON_True: put(b, "true", 4); break;
    case cJSON_Number: put_number(b, it); break;
    case cJSON_Raw:
        if (it->valuestring)
            put(b, it->valuestring, strlen(it->valuestring));
        else
            b->oom = 1;   /* cJSON_Print fails on a raw item without text */
        break;
    case cJSON_String: put_string(b, it->valuestring); break;
    case cJSON_Array:
        putc1(b, '[');
        for (const cJSON *c = it->child; c; c = c->next) {
            put_value(b, c, depth + 1);
            if (c->next)
                put(b, ", ", 2);
        }
        putc1(b, ']');
        break;
    case cJSON_Object:
        put(b, "{\n", 2);
        for (const cJSON *c = it->child; c; c = c->next) {
            tabs(b, depth + 1);
            put_string(b, c->string);
            put(b, ":\t", 2);
            put_value(b, c, depth + 1);
            if (c->next)
                putc1(b, ',');
            putc1(b, '\n');
        }
        tabs(b, depth);
        putc1(b, '}');
        break;
    default:
        b->oom = 1;   /* an invalid item: cJSON_Print gives NULL too */
        break;
    }
}

char *json_print(const cJSON *item)
{
    jbuf b = {NULL, 0, 0, 0};
    if (!item)
        return NULL;
    put_value(&b, item, 0);
    if (b.oom || !room(&b, 0)) {
        free(b.p);
        return NULL;
    }
    b.p[b.n] = 0;
    return b.p;
}
