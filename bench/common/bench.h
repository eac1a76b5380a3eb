/* bench.h - helpers shared by the host drivers in bench/.
 *
 * Plain C against the CUDA Driver API only: a driver that includes this header
 * compiles unchanged against warpsim's include/cuda.h or NVIDIA's cuda.h.
 * Every driver is a normal `int main(int argc, char **argv)`; the warpsim CLI
 * links the same source with -Dmain=bench_main_<name>. */
#ifndef BENCH_H
#define BENCH_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* BENCH_PAPER: the problem size of the original benchmark the workload stands for
 * (the seeds' sizes); only workloads that call bench_parse_paper accept it. */
typedef enum { BENCH_SMALL, BENCH_DEFAULT, BENCH_LARGE, BENCH_PAPER } bench_size;

typedef struct {
    bench_size size;   /* --size small|default|large[|paper] (default: default) */
    int argc;          /* arguments left after the common ones             */
    char **argv;
    int quiet;         /* --quiet: print only PASS/FAIL                     */
} bench_args;

/* Parses --size and --quiet; other arguments are left in a->argv. Returns 0, or
 * prints usage and returns non-zero. */
int bench_parse(bench_args *a, int argc, char **argv, const char *usage_extra);
/* The same, and also accepts --size paper (BENCH_PAPER). */
int bench_parse_paper(bench_args *a, int argc, char **argv, const char *usage_extra);
const char *bench_size_name(bench_size s);

/* Creates/makes current the primary context of device 0 and loads the PTX of
 * workload `name` (embedded at build time from bench/<name>/<name>.ptx). */
int bench_init(const char *name, CUcontext *ctx, CUmodule *mod);
void bench_fini(CUcontext ctx, CUmodule mod);

/* Reports a failed driver call (name, code, file, line) and returns 1. */
int bench_cu_fail(CUresult r, const char *what, const char *file, int line);
#define CU(call) do { CUresult r_ = (call); \
    if (r_ != CUDA_SUCCESS) return bench_cu_fail(r_, #call, __FILE__, __LINE__); } while (0)

/* Deterministic PRNG (xorshift64*), the only source of input data. */
typedef struct { uint64_t s; } bench_rng;
void bench_rng_seed(bench_rng *r, uint64_t seed);
uint64_t bench_rng_u64(bench_rng *r);
uint32_t bench_rng_u32(bench_rng *r);
float bench_rng_float(bench_rng *r);          /* uniform [0,1) */
float bench_rng_range(bench_rng *r, float lo, float hi);

/* Compare device results with the CPU reference: |d-r| <= atol + rtol*|r|.
 * Prints the first few mismatches (index, got, expected). Returns mismatch count. */
size_t bench_check_f32(const char *what, const float *got, const float *ref, size_t n,
                       double atol, double rtol);
size_t bench_check_f64(const char *what, const double *got, const double *ref, size_t n,
                       double atol, double rtol);
size_t bench_check_i32(const char *what, const int32_t *got, const int32_t *ref, size_t n);
size_t bench_check_u32(const char *what, const uint32_t *got, const uint32_t *ref, size_t n);

/* Prints "<name> [size]: PASS" or "... FAIL (n mismatches)"; returns the exit code. */
int bench_result(const char *name, const bench_args *a, size_t mismatches);

/* Looks up the embedded PTX text of a workload (generated bench_ptx.c); NULL if absent. */
const char *bench_ptx(const char *name);

#endif
