/* locality.h - seed 001's static estimate of inter-warp data locality (SPEC section 3).
 *
 * Memory accesses are grouped into "blocks" by base register: accesses through the
 * same value of a register are taken to touch the same cache block; once the
 * register is written again, later accesses through it (in static program order)
 * form a new block. Access i to block a weighs w = 2^LDepth / 2^BDepth (loop and
 * conditional-branch nesting from cfg.h), wcount(a) = sum of its weights, and the
 * kernel's score is the mean wcount over its blocks: score >= threshold chooses LRR,
 * otherwise GTO. A `.pol "NAME";` or `.pragma "warpsim.policy NAME";` directive
 * (function scope before module scope) overrides the analysis.
 *
 * Where the seed is vague, loc_opts fixes a choice and makes it switchable; the
 * choices and their defaults are explained in docs/STATIC_SELECT.md.
 */
#ifndef WS_PTX_LOCALITY_H
#define WS_PTX_LOCALITY_H

#include <stddef.h>
#include <stdint.h>

#include "ptx/ir.h"

typedef struct {
    double threshold;        /* score >= threshold -> LRR (1.0)                           */
    uint8_t follow_derived;  /* 1: an access through a register derived from a pointer
                                (add/sub/mad/mov/cvta) counts for the root pointer's
                                block; 0: every register value is its own base (seed) */
    uint8_t global_only;     /* 1: .global only; 0: .global and generic (default)       */
    uint8_t shared;          /* count .shared accesses (0: they bypass the L1D)          */
    uint8_t stores;          /* count st (1)                                              */
    uint8_t other_spaces;    /* count .param/.const/.local accesses (0)                  */
    uint8_t atomics;         /* count atom/red (0: performed at L2 on Fermi)              */
    uint8_t guards;          /* a predicated access (@p) adds one branch level (0)        */
    uint8_t directives;      /* a .pol / warpsim.policy directive overrides (1)          */
} loc_opts;

/* The defaults; static-select's [sched] static_* keys (core/sched_static.c) are rows
 * of this struct, so a configuration's values come from its parameter table. */
void loc_opts_default(loc_opts *o);

typedef enum {
    LOC_SRC_ANALYSIS,        /* the score decided                                       */
    LOC_SRC_FUNC,            /* a directive inside the function                         */
    LOC_SRC_MODULE,          /* a module-scope directive                                */
} loc_source;

typedef struct {
    double score;            /* mean wcount over blocks; 0 when there is none           */
    uint32_t n_blocks, n_acc;
    uint8_t lrr;             /* the decision: 1 LRR, 0 GTO                               */
    uint8_t analysis_lrr;    /* what the score alone says (no blocks: GTO)              */
    uint8_t source;          /* loc_source of `lrr`                                     */
    uint8_t directive_unknown; /* a directive names neither LRR nor GTO (ignored)      */
    const char *directive;   /* the directive's policy name (owned by the module), or NULL */
} loc_summary;

typedef enum { LOC_BASE_REG, LOC_BASE_SYM, LOC_BASE_ABS } loc_base;

typedef struct {
    uint8_t kind;            /* loc_base                                                 */
    uint32_t id;             /* REG: register slot; SYM: symbol index; ABS: 0            */
    uint32_t def_insn;       /* REG: instruction that wrote that value, or UINT32_MAX when
                                the block's value is the register's value on entry      */
    uint32_t first_acc;      /* index of its first access in loc_result.acc              */
    uint32_t last_acc;       /* and of its last (the end of the `next` chain)            */
    uint32_t n_acc;
    double wcount;
} loc_block;

typedef struct {
    uint32_t insn;           /* instruction index in the function                        */
    uint32_t block;
    uint32_t next;           /* next access of the same block, or UINT32_MAX            */
    uint8_t ldepth, bdepth;  /* bdepth includes the guard level when opts.guards          */
    double w;
} loc_access;

typedef struct {
    loc_summary sum;
    loc_block *blocks;       /* in order of first access                                */
    loc_access *acc;         /* in program order                                        */
} loc_result;

/* Full analysis of one function (f->cfg must be built, as ptx_parse does). Returns 0,
 * or -1 when out of memory or f has instructions but no CFG; *r is then empty. */
int loc_analyze(const ptx_module *m, const ptx_func *f, const loc_opts *o, loc_result *r);
void loc_result_free(loc_result *r);

/* The same numbers without per-access records: one allocation, for launch time. */
int loc_summarize(const ptx_module *m, const ptx_func *f, const loc_opts *o, loc_summary *s);

/* Per-function summaries of one module, computed on first request. */
typedef struct loc_cache loc_cache;
loc_cache *loc_cache_new(const ptx_module *m, const loc_opts *o);
/* NULL when func is out of range or the analysis failed. */
const loc_summary *loc_cache_get(loc_cache *c, uint32_t func);
void loc_cache_free(loc_cache *c);

/* Printable base of a block ("%rd3", "smem", "[absolute]"). */
const char *loc_block_name(const ptx_module *m, const ptx_func *f, const loc_block *b);

/* ---- embedding the decision ------------------------------------------------------ */
enum {
    LOC_FORM_SEED = 1,       /* .pol "LRR";  (warpsim only: ptxas rejects it)            */
    LOC_FORM_PRAGMA = 2,     /* .pragma "warpsim.policy LRR";  (ptxas: warning only)    */
    LOC_FORM_BOTH = 3,       /* the pragma, plus the seed line as a `// .pol` comment    */
};

/* Copies PTX text, inserting at the top of the body of every kernel f (m parsed from
 * that text) with pick[f] = 'L' or 'G' a directive in `form`; other entries of pick
 * are left alone. Returns malloc'd text (NUL-terminated, length in *out_len) or NULL
 * with a message in err. */
char *loc_annotate(const char *text, size_t len, const ptx_module *m, const char *pick,
                   int form, size_t *out_len, char *err, size_t n);

#endif
