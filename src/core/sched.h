/* sched.h - warp scheduler plug-ins.
 *
 * The issue logic (sm.c) is shared: every cycle it works out, for each warp of a
 * scheduler, whether its next instruction could issue and, if not, why (sched_cand).
 * A policy only chooses: pick() returns one of the ready candidates (or -1), in its
 * own order. Policies see why the others are not ready because some need it (MOTRR
 * falls back to compute warps when the memory pipeline stalls). Hooks tell a policy
 * about issues and memory completions so it can keep its own state (GTO's greedy
 * warp, two-level's active set, MOTRR+Recency's recency register).
 *
 * A new policy is one file defining a `const sched_ops` and one line in sched.c's
 * registry.
 */
#ifndef WS_CORE_SCHED_H
#define WS_CORE_SCHED_H

#include <stddef.h>
#include <stdint.h>

/* Why a warp cannot issue this cycle (the issue-slot breakdown of docs/STATS.md). */
typedef enum {
    WR_READY = 0,      /* can issue                                                */
    WR_IBUF_EMPTY,     /* no decoded instruction (fetch / I-cache miss)            */
    WR_SCOREBOARD,     /* RAW/WAW hazard on a register, incl. a pending load       */
    WR_UNIT_BUSY,      /* its functional unit cannot accept an instruction         */
    WR_MEM_STALL,      /* memory instruction, LD/ST pipeline stalled this cycle    */
    WR_BARRIER,        /* waiting at bar.sync / membar                             */
    WR_DONE,           /* no instruction left (finished, or slot empty)            */
    WR__COUNT
} warp_reason;

extern const char *const warp_reason_name[WR__COUNT];

/* What the shared issue logic tells the policy about one warp. */
typedef struct {
    uint32_t slot;       /* warp slot in the SM (0 .. max_warps_per_sm-1)           */
    uint64_t age;        /* cycle the warp was assigned to the SM; ties: lower slot */
    uint8_t reason;      /* warp_reason                                             */
    uint8_t is_mem;      /* next instruction is a memory instruction (ld/st/atom)   */
    uint8_t is_long;     /* next instruction is a global/local memory instruction   */
    uint8_t waiting_mem; /* the warp has loads outstanding                          */
    uint32_t path;       /* the warp's path the instruction belongs to (func_path.id;
                            with the SIMT stack always 0); issued as a (slot, path) pair */
} sched_cand;

/* Policy parameters (config section [sched], filled by the SM from ws_config). */
typedef struct {
    uint32_t two_level_active;   /* two-level: warps in the active set             */
    uint32_t recency_bits;       /* MOTRR+Recency: counter width (6)               */
    uint32_t recency_num, recency_den; /* R = 1 for num/den of the active warps (1/2) */
    uint32_t max_num_warp;       /* MOTRR+Recency: priority offset (48)            */
    uint32_t lrr_quantum;        /* LRR time quantum in cycles, 0 = none (plain)    */
    uint8_t static_lrr;          /* static-select: 1 = LRR, 0 = GTO, decided once per
                                    launch from the kernel's PTX (ptx/locality.h)   */
} sched_params;
#define SCHED_HAS_STATIC_LRR 1

/* static-select: the label statistics show for a launch ("static-select(lrr)"). */
const char *sched_static_choice(const sched_params *p);

typedef struct {
    const char *name;
    const char *desc;
    /* Allocates policy state for a scheduler whose warps occupy SM slots
     * [0, n_slots) (it only ever sees its own). NULL on failure. */
    void *(*create)(uint32_t n_slots, const sched_params *p);
    void (*destroy)(void *st);
    /* Chooses among cand[0..n-1] (every warp of this scheduler that holds a warp,
     * in slot order). Returns an index i with cand[i].reason == WR_READY, or -1.
     * `cycle` is the core cycle. */
    int (*pick)(void *st, const sched_cand *cand, uint32_t n, uint64_t cycle);
    /* Optional hooks (NULL when not needed). */
    void (*on_issue)(void *st, uint32_t slot, int is_mem, uint64_t cycle);
    void (*on_mem_done)(void *st, uint32_t slot, uint64_t cycle);  /* a load/store of
                                                                  the warp completed */
    void (*on_warp_start)(void *st, uint32_t slot, uint64_t cycle);
    void (*on_warp_end)(void *st, uint32_t slot, uint64_t cycle);
} sched_ops;

/* The registry: policies by exact name; NULL when unknown. */
const sched_ops *sched_find(const char *name);
/* The i-th registered policy (0, 1, ...), NULL past the end. */
const sched_ops *sched_at(size_t i);

#endif
