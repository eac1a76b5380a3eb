/* bench_registry.h - the table of built-in workloads (generated from bench/). */
#ifndef BENCH_REGISTRY_H
#define BENCH_REGISTRY_H

typedef struct {
    const char *name;
    const char *desc;
    int (*main)(int argc, char **argv);
} bench_entry;

extern const bench_entry bench_registry[]; /* ends with a {0} row */

#endif
