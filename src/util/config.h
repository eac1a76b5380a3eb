/* config.h - the configuration machinery and the machine description.
 *
 * Two kinds of parameter rows, one mechanism:
 *  - Machine description: the fixed sections ([gpu], [func], [sim] below, [core] in
 *    config_core.h, the memory system in config_mem.h). Every X(...) line declares a
 *    field of ws_config (reached as cfg->section.key, e.g. cfg->gpu.n_sm) and a row of
 *    the parameter table. They sit on the ground floor because several layers read
 *    them (core reads l1d.*, mem reads core.lat_const, every layer reads gpu.*), and a
 *    struct every layer dereferences must be defined below all of them.
 *  - Plug-in parameters: a plug-in (warp scheduler, divergence policy, ...) declares
 *    its own rows in its own file as a ws_cfg_table whose offsets point into its own
 *    parameter struct. Their values live in ws_config.plugin, at the offset the
 *    schema gives the table; only schema functions read or write that area.
 *
 * This file knows no upper layer: the generic functions below (ws_cfg_*) take a
 * ws_cfg_schema, the list of every table with the offset of its struct in the
 * configuration object. gpu/config.c assembles the full schema from the fixed tables
 * here and the plug-in registries and provides the ws_config_* API on top.
 *
 * Types and their C fields: UINT uint32_t, INT int32_t, U64 uint64_t, DBL double,
 * BOOL bool, STR char[WS_CFG_STR] (NUL-terminated; max = longest length), ENUM int
 * holding the value of one row of the name table ws_cfg_enum_<section>_<key>[].
 * Defaults are written as text and parsed by the same code as a file value.
 */
#ifndef WS_UTIL_CONFIG_H
#define WS_UTIL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#define WS_CFG_STR 128

typedef enum { WS_MODE_FUNCTIONAL, WS_MODE_TIMING } ws_mode;
typedef enum { WS_REGS_PTXAS, WS_REGS_ESTIMATE } ws_regs_source;
/* sim.host_way: the ways of gpu/timing.h (TIMING_TEAM ...), or the adaptive choice */
typedef enum { WS_WAY_TEAM, WS_WAY_ALONE, WS_WAY_SERIAL, WS_WAY_BOTH, WS_WAY_AUTO } ws_host_way;
/* mem.l2_thread_reply: who runs the crossbar's reply side during the partition thread's runs */
typedef enum { WS_REPLY_AUTO, WS_REPLY_THREAD, WS_REPLY_CALLER } ws_l2_reply;

/* X(section, key, type, default, min, max, unit, description) */
#define WS_CONFIG_GPU(X)                                                                         \
    X(gpu, name, STR, "GeForce GTX 480", 1, 127, "", "device name (cuDeviceGetName)")            \
    X(gpu, n_sm, UINT, "15", 1, 1024, "", "streaming multiprocessors (AMD: compute units)")      \
    X(gpu, warp_size, UINT, "32", 32, 64, "threads", "threads per warp: 32 (NVIDIA) or 64 (AMD wavefront)") \
    X(gpu, max_threads_per_sm, UINT, "1536", 1, 65536, "threads", "resident threads per SM")     \
    X(gpu, max_warps_per_sm, UINT, "48", 1, 1024, "warps", "resident warps per SM")              \
    X(gpu, max_ctas_per_sm, UINT, "8", 1, 256, "CTAs", "resident CTAs (thread blocks) per SM")   \
    X(gpu, max_threads_per_cta, UINT, "1024", 1, 65536, "threads", "threads per CTA")            \
    X(gpu, max_block_x, UINT, "1024", 1, 65536, "threads", "largest blockDim.x")                 \
    X(gpu, max_block_y, UINT, "1024", 1, 65536, "threads", "largest blockDim.y")                 \
    X(gpu, max_block_z, UINT, "64", 1, 65536, "threads", "largest blockDim.z")                   \
    X(gpu, max_grid_x, UINT, "65535", 1, 2147483647, "CTAs", "largest gridDim.x")                \
    X(gpu, max_grid_y, UINT, "65535", 1, 2147483647, "CTAs", "largest gridDim.y")                \
    X(gpu, max_grid_z, UINT, "65535", 1, 2147483647, "CTAs", "largest gridDim.z")                \
    X(gpu, regs_per_sm, UINT, "32768", 1, 16777216, "registers", "32-bit registers per SM")      \
    X(gpu, reg_alloc_unit, UINT, "64", 1, 65536, "registers", "registers are given to a warp in multiples of this") \
    X(gpu, max_regs_per_thread, UINT, "63", 1, 65536, "registers", "32-bit registers one thread may use") \
    X(gpu, shared_per_sm, UINT, "49152", 0, 16777216, "bytes", "shared memory per SM")           \
    X(gpu, max_shared_per_cta, UINT, "49152", 0, 16777216, "bytes", "shared memory one CTA may use") \
    X(gpu, const_bytes, UINT, "65536", 0, 16777216, "bytes", "constant memory (.const space)")   \
    X(gpu, core_mhz, UINT, "700", 1, 100000, "MHz", "core (SM) clock")                           \
    X(gpu, mem_mhz, UINT, "924", 1, 100000, "MHz", "memory clock")                               \
    X(gpu, mem_bus_bits, UINT, "384", 8, 65536, "bits", "memory bus width")                      \
    X(gpu, dram_bytes, U64, "1610612736", 1048576, 1099511627776, "bytes", "device memory size") \
    X(gpu, l2_bytes, U64, "786432", 0, 1099511627776, "bytes", "L2 cache size (reported by the driver API)") \
    X(gpu, compute_major, UINT, "2", 1, 99, "", "compute capability, major")                    \
    X(gpu, compute_minor, UINT, "0", 0, 9, "", "compute capability, minor")

#define WS_CONFIG_FUNC(X)                                                                        \
    X(func, divergence, STR, "simt-stack", 1, 63, "", "divergence policy: which lanes run which instruction next (simt-stack, path-table)") \
    X(func, stack_bytes, UINT, "1024", 0, 16777216, "bytes", "per-thread local memory (frames, stack) limit") \
    X(func, max_call_depth, UINT, "64", 1, 65536, "calls", "deepest call nesting before a fault")  \
    X(func, watchdog_insts, U64, "0", 0, 18446744073709551615.0, "warp insts", "per-launch cap on warp instructions; 0 = none") \
    X(func, host_reg_compact, BOOL, "true", 0, 0, "", "store a function's PTX registers in fewer rows per warp: registers never live at once share a row (liveness over the CFG, read when a module loads); results and statistics are identical either way, only host memory and time change")

#define WS_CONFIG_SIM(X)                                                                         \
    X(sim, mode, ENUM, "functional", 0, 0, "", "functional (results only) or timing (cycles)")   \
    X(sim, seed, U64, "1", 0, 18446744073709551615.0, "", "seed of every pseudo-random choice") \
    X(sim, max_cycles, U64, "0", 0, 18446744073709551615.0, "cycles", "budget: the run stops cleanly, statistics marked partial, after this many simulated cycles (timing mode, all launches); 0 = none") \
    X(sim, max_insts, U64, "0", 0, 18446744073709551615.0, "warp insts", "budget: the run stops cleanly, statistics marked partial, after this many warp instructions (all launches); 0 = none") \
    X(sim, host_threads, UINT, "1", 1, 256, "threads", "host threads of the timing model (--threads): with the detailed memory model one of them runs the L2 and DRAM (mem.l2_thread), the others the SMs; results are identical for every value") \
    X(sim, host_threads_adapt, BOOL, "true", 0, 0, "", "with host_threads > 1: choose by measurement, in slices of 256 iterations of the cycle loop, among the ways of running them: the SM phases on the thread team, or on the calling thread beside the memory model's own thread (mem.l2_thread), or everything on the calling thread (the two last are one way without that thread), or the SM phases shared by the calling thread (and the team but one) and the memory model's thread, which runs its share between its own steps. Rounds of 64 slices per way, whose first 16 per way take the ways in turn; the rest run the way of least host time per unit of work (loop iterations and SM cycles run; the median of its test slices); after 8 warm-up slices on the calling thread; a round won by the same way as the one before is twice as long, up to 8192 slices. Warm-up and test slices end after 2 ms at most (iterations that cost more than 8 us, as at 120 SMs, would otherwise fill short launches with the losing ways' tests), a test slice costing over 2x the last winner's time per unit ends early, a way that lost by 2x over its first 4 test slices gives the round's other test slices to the leading way, and a slice costing 4x in a long round starts a new round (a busy host). Within the team's slices a cycle's phase runs on one thread when fewer than 4 SMs and memory partitions are due, and for a while after a slow hand-over (the caller slept waiting for the team). false: every cycle on all threads (tests). Results are identical either way") \
    X(sim, host_way, ENUM, "auto", 0, 0, "", "with host_threads > 1 and host_threads_adapt: auto (the adaptive choice), or every slice one way: team (the SM phases on the thread team), alone (on the calling thread beside the memory model's own thread), serial (everything on the calling thread), both (the SM phases shared by the calling thread, and the team but one, with the memory model's thread). serial and both need the memory model's own thread (mem.l2_thread); without it they run alone. For measurements and tests: results are identical whichever way runs")

#include "util/config_core.h"
#include "util/config_mem.h"

/* Every section, in dump order: X(section, list macro). */
#define WS_CONFIG_SECTIONS(S) S(gpu, WS_CONFIG_GPU) S(func, WS_CONFIG_FUNC) S(sim, WS_CONFIG_SIM) \
    WS_CONFIG_CORE_SECTIONS(S) WS_CONFIG_MEM_SECTIONS(S)

#define WS_CFG_FIELD_UINT(k) uint32_t k;
#define WS_CFG_FIELD_INT(k) int32_t k;
#define WS_CFG_FIELD_U64(k) uint64_t k;
#define WS_CFG_FIELD_DBL(k) double k;
#define WS_CFG_FIELD_BOOL(k) bool k;
#define WS_CFG_FIELD_STR(k) char k[WS_CFG_STR];
#define WS_CFG_FIELD_ENUM(k) int k;
#define WS_CFG_FIELD(sec, key, type, def, lo, hi, unit, desc) WS_CFG_FIELD_##type(key)
#define WS_CFG_SECTION(sec, list) struct { list(WS_CFG_FIELD) } sec;

/* Bytes of ws_config.plugin: the parameter structs of every plug-in table, each at
 * an offset aligned for any type (gpu/config.c checks that they fit). */
#define WS_CFG_PLUGIN_BYTES 512

typedef struct ws_config {
    WS_CONFIG_SECTIONS(WS_CFG_SECTION)
    /* plug-in parameters; written and read through the schema only (memcpy) */
    _Alignas(max_align_t) unsigned char plugin[WS_CFG_PLUGIN_BYTES];
} ws_config;

/* Name tables of ENUM parameters, ending with {NULL, 0}. */
typedef struct {
    const char *name;
    int value;
} ws_cfg_enum;
extern const ws_cfg_enum ws_cfg_enum_sim_mode[];
extern const ws_cfg_enum ws_cfg_enum_core_regs_source[];
extern const ws_cfg_enum ws_cfg_enum_sim_host_way[];
extern const ws_cfg_enum ws_cfg_enum_mem_l2_thread_reply[];

/* ---- tables and schemas ------------------------------------------------------------ */
typedef enum { WS_CT_UINT, WS_CT_INT, WS_CT_U64, WS_CT_DBL, WS_CT_BOOL, WS_CT_STR,
               WS_CT_ENUM } ws_ctype;

typedef struct {
    const char *section, *key;
    ws_ctype type;
    size_t off;                 /* offset of the field in its table's struct       */
    const char *def;            /* default, as text                               */
    double lo, hi;              /* range (STR: length); unused for BOOL and ENUM  */
    const ws_cfg_enum *names;   /* ENUM only                                      */
    const char *unit, *desc;
} ws_cfg_param;

/* One table of rows and the struct they describe. A plug-in writes one of these in
 * its own file and names it in its ops table; rows end with a row whose key is NULL.
 * Invariant: every field a row's off names lies inside [0, size). */
typedef struct ws_cfg_table {
    const char *owner;          /* plug-in name ("two-level"); NULL: machine rows  */
    const ws_cfg_param *rows;
    size_t size;                /* bytes of the struct (plug-in tables)            */
} ws_cfg_table;

/* Every table of a configuration object, in dump order, and where each one's struct
 * starts in the object. Invariant: section.key is unique over the schema, and rows
 * of one section are consecutive (dumps write one [section] block). */
#define WS_CFG_MAX_TABLES 64
typedef struct ws_cfg_schema {
    size_t n;
    const ws_cfg_table *tab[WS_CFG_MAX_TABLES];
    size_t base[WS_CFG_MAX_TABLES];
} ws_cfg_schema;

/* The machine-description tables, one per fixed section in dump order (base 0: their
 * offsets are offsets in ws_config); ends with a NULL pointer. */
extern const ws_cfg_table *const ws_cfg_machine[];

/* Row of "section.key" in the schema, or NULL; *base gets the offset of its table's
 * struct (base may be NULL). */
const ws_cfg_param *ws_cfg_find(const ws_cfg_schema *s, const char *section,
                                const char *key, size_t *base);

/* The generic operations on an object `obj` laid out by schema s. Functions returning
 * int return 0 on success and -1 on error, with a message in err naming the file,
 * line, section.key and the bad value ("f.ini:12: gpu.n_sm: value '0' out of range
 * [1, 1024]"). err may be NULL. */
void ws_cfg_defaults(const ws_cfg_schema *s, void *obj);
int ws_cfg_apply_ini(const ws_cfg_schema *s, void *obj, const char *text, const char *file,
                     char *err, size_t n);
int ws_cfg_set(const ws_cfg_schema *s, void *obj, const char *key_eq_value, char *err,
               size_t n);
int ws_cfg_get(const ws_cfg_schema *s, const void *obj, const char *section_dot_key,
               char *buf, size_t n);
void ws_cfg_print_ini(const ws_cfg_schema *s, const void *obj, FILE *f);
cJSON *ws_cfg_json(const ws_cfg_schema *s, const void *obj);
/* The per-section tables of docs/CONFIG.md (the text above them is the caller's). */
void ws_cfg_print_doc_tables(const ws_cfg_schema *s, FILE *f);

/* Cross-parameter consistency of the machine description (warps vs threads per SM,
 * CTA limits within SM limits ...). */
int ws_cfg_check_machine(const ws_config *c, char *err, size_t n);

/* Whether the Fermi SM's L1D latency is a queue before the tag lookup (l1d.latency_queue):
 * only with one L1D port (GPGPU-Sim's one bank), on the baseline request path (no REOD
 * queues) of the fermi core model with the detailed memory model; otherwise
 * the cache answers after l1d.latency. The SM (core/sm.c) and the memory system
 * (mem/detailed.c) ask the same question here. */
int ws_cfg_l1d_latency_queue(const ws_config *c);

/* Built-in presets (the .ini files of configs/, embedded at build time as ws_presets[]). */
/* Text of the preset `name`, or NULL. */
const char *ws_config_preset(const char *name);
/* The i-th preset name (0, 1, ...), or NULL past the end. */
const char *ws_config_preset_name(size_t i);

/* The ws_config_* functions (load, set, dump, docs over the full schema) are in
 * gpu/config.h. */

#endif
