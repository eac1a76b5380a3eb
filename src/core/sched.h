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
 * A core that issues several instructions per cycle asks for an ordered list
 * instead (sched_order: the policy's own order() or a default built on pick()), each
 * candidate tagged with its issue type, and arbitrates by type (GCN: one per type).
 * The Fermi SM asks pick() for exactly one warp per scheduler per cycle.
 *
 * A new policy is one file defining a `const sched_ops` and one line in sched.c's
 * registry. A policy with parameters also defines, in its file, its parameter struct
 * and a `ws_cfg_table` of rows (section [sched]) pointing into it, named by
 * sched_ops.params: the configuration (gpu/config.c) picks the table up from the
 * registry, so the keys load, range-check, dump and appear in docs/CONFIG.md.
 */
#ifndef WS_CORE_SCHED_H
#define WS_CORE_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "ptx/ir.h"
#include "util/config.h"

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

/* Issue types: the kind of issue port a warp's next instruction needs. A core that
 * issues several instructions per cycle (GCN: up to 5, of different types, from
 * different wavefronts) arbitrates among a policy's candidates by type. The Fermi SM
 * issues one instruction per scheduler per cycle and only reports the type. */
typedef enum {
    IT_VALU = 0,       /* vector ALU: integer and fp32 (Fermi SP / INT pipelines)  */
    IT_SFU,            /* special functions (transcendentals)                      */
    IT_DP,             /* double precision                                         */
    IT_VMEM,           /* vector memory: global, local, generic, global atomics    */
    IT_LDS,            /* shared memory (GCN: LDS), shared atomics                 */
    IT_SMEM,           /* scalar / constant memory: .const, kernel parameters      */
    IT_SALU,           /* scalar ALU (GCN; no PTX class maps here yet)             */
    IT_BRANCH,         /* control: branch, exit, call, return, barrier, membar     */
    IT__COUNT
} issue_type;

extern const char *const issue_type_name[IT__COUNT];

/* What the shared issue logic tells the policy about one warp. */
typedef struct {
    uint32_t slot;       /* warp slot in the SM (0 .. max_warps_per_sm-1)           */
    uint64_t age;        /* cycle the warp was assigned to the SM; ties: lower slot */
    uint8_t reason;      /* warp_reason                                             */
    uint8_t is_mem;      /* next instruction is a memory instruction (ld/st/atom)   */
    uint8_t is_long;     /* next instruction is a global/local memory instruction   */
    uint8_t waiting_mem; /* the warp has loads outstanding                          */
    uint8_t type;        /* issue_type of the next instruction (IT_VALU when the
                            warp has none decoded)                                  */
    uint32_t path;       /* the warp's path the instruction belongs to (func_path.id;
                            with the SIMT stack always 0); issued as a (slot, path) pair */
} sched_cand;

/* The launched kernel, as on_launch sees it. */
typedef struct {
    const ptx_module *m;
    const ptx_func *kernel;
} sched_kernel;

/* One launch of a policy: its parameters and what its on_launch hook decided. Built by
 * the GPU before the launch, shared read-only by every instance (create) on every SM.
 * Invariant: `params` points to a struct of the layout the policy's own table
 * describes (sched_ops.params), or is NULL when the policy has no table. */
typedef struct sched_params {
    const void *params;        /* this policy's parameter struct                      */
    const void *const *all;    /* all[i]: parameter struct of sched_at(i), or NULL; a
                                  policy wrapping another reads the other's here      */
    uint64_t choice;           /* policy-defined, set by on_launch (static-select:
                                  1 = LRR, 0 = GTO)                                   */
} sched_params;

typedef struct sched_ops {
    const char *name;
    const char *desc;
    /* Its own configuration rows and parameter struct; NULL: no parameters. */
    const ws_cfg_table *params;
    /* Optional: once per launch, before any create: may inspect the kernel and record
     * its decision in sp->choice. 0, or -1 with a message in err. */
    int (*on_launch)(sched_params *sp, const sched_kernel *k, char *err, size_t n);
    /* Optional: the policy name statistics show for this launch (NULL: name). */
    const char *(*label)(const sched_params *sp);
    /* Allocates policy state for a scheduler whose warps occupy SM slots
     * [0, n_slots) (it only ever sees its own). NULL on failure. */
    void *(*create)(uint32_t n_slots, const sched_params *p);
    void (*destroy)(void *st);
    /* Chooses among cand[0..n-1] (every warp of this scheduler that holds a warp,
     * in slot order). Returns an index i with cand[i].reason == WR_READY, or -1.
     * `cycle` is the core cycle. */
    int (*pick)(void *st, const sched_cand *cand, uint32_t n, uint64_t cycle);
    /* Optional (NULL: sched_order's default, built on pick). The ready candidates in
     * this policy's priority order, for a core that may issue several per cycle:
     * writes at most `max` distinct indices i (cand[i].reason == WR_READY) to out_idx,
     * best first, and returns how many. out_idx[0] must be what pick() would return.
     * The core issues some of them (by issue type) and reports each with on_issue. */
    uint32_t (*order)(void *st, const sched_cand *cand, uint32_t n, uint64_t cycle,
                      uint32_t *out_idx, uint32_t max);
    /* Optional hooks (NULL when not needed). */
    void (*on_issue)(void *st, uint32_t slot, int is_mem, uint64_t cycle);
    void (*on_mem_done)(void *st, uint32_t slot, uint64_t cycle);  /* a load/store of
                                                                  the warp completed */
    void (*on_warp_start)(void *st, uint32_t slot, uint64_t cycle);
    void (*on_warp_end)(void *st, uint32_t slot, uint64_t cycle);
    /* Optional: nonzero when the policy's state is SM-wide: then every scheduler
     * instance of an SM receives on_warp_start, on_warp_end and on_mem_done for every
     * warp slot of the SM, not only its own, and so keeps an identical copy of that
     * state (MOTRR+Recency's one recency register per SM). pick() and on_issue still
     * see only the instance's own warps. NULL: events of its own warps only. */
    int (*sm_wide)(const sched_params *sp);
    /* Nonzero when pick() (and order()) read only the candidates whose reason is
     * WR_READY, and of those only their fields and relative order: a core may then pass
     * just the ready candidates (in slot order) and gets the same choice, which the
     * Fermi SM does to skip building the others. Zero (the default): the policy sees
     * every warp that holds an instruction (MOTRR+Recency's round-robin positions count
     * them all; two-level watches the waiting ones). */
    uint8_t ready_only;
    /* Optional, for a ready_only policy whose pick() reads of the ready candidates only
     * their slot and age: the same choice from the set of ready slots instead of a
     * candidate list. `ready` is a slot set (core/slotset.h: bit s of word s / 64) of
     * nw words, age[s] the age (sched_cand.age) of each slot in it. Returns the slot
     * pick() would choose among those candidates in slot order, or -1 when it would
     * choose none; it may change the policy's state only as pick() would. The Fermi SM
     * calls it instead of pick() to skip building the candidate list. */
    int (*pick_slot)(void *st, const uint64_t *ready, uint32_t nw, const uint64_t *age, uint64_t cycle);
} sched_ops;

/* Greedy-then-oldest (sched_gto.c), exposed so that a core may skip the table's calls
 * when it is the policy plugged in (pol == &sched_gto): its state, the greedy slot
 * (the slot issued last; UINT32_MAX before any), which on_issue sets; and its
 * pick_slot: the greedy slot when it is ready, else the ready slot of least age, ties
 * to the lower slot (-1: none ready). */
extern const sched_ops sched_gto;
typedef struct {
    uint32_t last;
} sched_gto_st;

static inline int sched_oldest_slot(const uint64_t *ready, uint32_t nw, const uint64_t *age, uint32_t greedy)
{
    if (greedy / 64 < nw && ready[greedy / 64] >> (greedy % 64) & 1)
        return (int)greedy;
    int best = -1;
    uint64_t ba = 0;
    for (uint32_t k = 0; k < nw; k++)
        for (uint64_t b = ready[k]; b; b &= b - 1) {
            uint32_t slot = k * 64 + (uint32_t)__builtin_ctzll(b);
            if (best < 0 || age[slot] < ba) {
                best = (int)slot;
                ba = age[slot];
            }
        }
    return best;
}

/* sched_oldest_slot over one word of slots (nw == 1) whose slots come in groups of one
 * age each (a CTA's warps, placed in one cycle): grp[0..ng) are the groups' slot masks,
 * disjoint, each a run of consecutive slots, in increasing order of (age, first slot), and
 * every slot of `ready` is in one of them. The oldest ready slot is then the lowest ready
 * slot of the first group with one (equal ages go to the lower slot), without reading
 * the ages: the same answer as sched_oldest_slot(&ready, 1, age, greedy). */
static inline int sched_oldest_slot_grp(uint64_t ready, const uint64_t *grp, uint32_t ng, uint32_t greedy)
{
    if (greedy < 64 && ready >> greedy & 1)
        return (int)greedy;
    for (uint32_t i = 0; i < ng; i++) {
        const uint64_t b = ready & grp[i];
        if (b)
            return __builtin_ctzll(b);
    }
    return -1;
}

/* The parameters of another registered policy within the same launch (NULL when it
 * has none). */
const void *sched_params_of(const sched_params *sp, const sched_ops *pol);

/* Up to `max` ready candidates in o's priority order (see sched_ops.order): o->order
 * when the policy has one, else the default: pick(); then, as if each warp already
 * chosen were busy (its reason set to WR_UNIT_BUSY), pick() again, until pick()
 * finds none or `max` are chosen. The default writes cand[].reason during the call
 * and restores it before returning (hence not const); it allocates nothing. pick()
 * is called up to max times in one cycle, so a policy whose pick() keeps state for
 * the following on_issue defines order() (two-level does). With max == 1 the answer
 * is pick()'s. */
uint32_t sched_order(const sched_ops *o, void *st, sched_cand *cand, uint32_t n, uint64_t cycle,
                     uint32_t *out_idx, uint32_t max);

/* The registry: policies by exact name; NULL when unknown. */
const sched_ops *sched_find(const char *name);
/* The i-th registered policy (0, 1, ...), NULL past the end. */
const sched_ops *sched_at(size_t i);
/* Writes the registered names, ", "-separated, into buf (for "known: ..." errors). */
void sched_names(char *buf, size_t n);

#endif
