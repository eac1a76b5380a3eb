/* div.h - divergence plug-ins: which lanes of a warp run which instruction next.
 *
 * A warp's lanes are split into paths: (pc, mask, call frame). The policy owns how
 * it stores them: per launch it may keep state of its own (create/destroy, e.g. a
 * priority plug-in and its parameters), and per warp it keeps whatever shape it needs
 * behind func_warp.dstate (warp_init/warp_fini): the SIMT stack keeps its stack
 * there, a path table its table of (pc, mask) paths and its loop table. The emulator
 * (warp.c) asks the policy which path issues next, then tells it what the
 * instruction did (fell through, branched, lanes exited or returned); call frames,
 * barriers and return values stay in warp.c.
 *
 * Runnable paths. At any time a warp exposes the paths that may issue now
 * (paths(), select()): the timing model may pick any of them (func_warp_step_path),
 * functional mode runs the selected one. A path is named by an id, a small integer of
 * the policy's choosing, valid from a listing until the warp next steps.
 * A path that carries on (falls through, takes a uniform branch, keeps some of its
 * lanes at a divergent branch) keeps its id, so that per-path state outside the
 * policy (the timing model's instruction buffer) can follow it; a new path gets an
 * id no runnable path has. Invariant for every policy: every runnable path lies in
 * the innermost call frame (call frames are one stack per warp, func_warp.fr).
 *
 * How to add a policy: one file defining a `const div_ops` (its per-warp state behind
 * w->dstate), one line in div.c's registry; func.divergence selects it by name.
 *
 * Policies: "simt-stack" (div_simt.c): the PDOM SIMT stack — a divergent branch
 * turns the current entry into the reconvergence entry (pc = immediate
 * post-dominator) and pushes one entry per path; the top entry runs. It exposes one
 * runnable path, id 0, whichever entry is on top. "path-table" (div_path.c): a table
 * of (pc, mask) paths per warp, split at divergent branches, merged wherever two
 * reach the same pc; a path-priority plug-in (div_path.h) picks the one to run.
 *
 * Barriers. A policy without `wait` stops the whole warp when one path reaches
 * bar.sync (the SIMT stack: the top entry is all that runs). A policy with `wait`
 * parks the arriving path and keeps running the others; the warp waits only when
 * every path left is parked, and `release` unparks them when the barrier completes.
 */
#ifndef WS_FUNC_DIV_H
#define WS_FUNC_DIV_H

#include <stddef.h>
#include <stdint.h>

typedef struct func_warp func_warp;
struct ws_cfg_table;
struct div_stats;
struct div_timing;
typedef struct func_launch func_launch;

#define DIV_NO_PC UINT32_MAX

/* A runnable path of a warp, as the policy exposes it. */
typedef struct {
    uint32_t id;       /* the policy's name for it (see above)                       */
    uint32_t pc;       /* next instruction, in the function of call frame `frame`   */
    uint64_t mask;     /* lanes, before the instruction's guard predicate            */
    uint32_t frame;    /* call frame (index into func_warp.fr): the innermost one   */
    uint32_t pad;
} func_path;

typedef struct {
    const char *name;
    const char *desc;
    /* Per-launch state (optional, both NULL when the policy has none): created once
     * per launch before any warp starts, in L->dstate; 0, or -1 when out of memory
     * (create frees what it got). destroy is called after every warp's warp_fini,
     * with the state create left (never NULL). */
    int (*create)(const func_launch *L, void **st);
    void (*destroy)(void *st);
    /* Per-warp state in w->dstate, owned by the policy. warp_init starts a warp (of a
     * new CTA) with one path at pc 0 of frame 0 holding `mask`; it allocates the state
     * when w->dstate is NULL and reuses it otherwise (a warp slot runs many CTAs).
     * 0, or -1 when out of memory. warp_fini frees it (w->dstate may be NULL). */
    int (*warp_init)(func_warp *w, uint64_t mask);
    void (*warp_fini)(func_warp *w);
    /* The path the warp issues next when the choice is the policy's, or NULL when no
     * path is left. The record lives in the policy's state and stays valid until the
     * policy next changes the warp's paths (call, next, branch, remove, settle,
     * warp_init). Hot path: one call per instruction, no allocation, no copy. */
    const func_path *(*select)(const func_warp *w);
    /* The runnable paths, at most max of them, the selected one first; returns how
     * many were written. */
    uint32_t (*paths)(const func_warp *w, func_path *out, uint32_t max);
    /* Runnable path `id` (valid as select's), or NULL when there is none. */
    const func_path *(*get)(const func_warp *w, uint32_t id);
    /* A call: lanes `mask` start at pc 0 of the new innermost frame `frame`; 0, or -1
     * when out of memory. */
    int (*call)(func_warp *w, uint64_t mask, uint32_t frame);
    /* Path id executed a non-branching instruction at its pc: it moves to pc + 1.
     * Returns 0 when the warp has no path left (it has finished), else nonzero. */
    uint32_t (*next)(func_warp *w, uint32_t id);
    /* Path id branched at pc: lanes `taken` go to target, the others to pc + 1;
     * reconv is the branch's immediate post-dominator (DIV_NO_PC: none). */
    void (*branch)(func_warp *w, uint32_t id, uint32_t pc, uint32_t target, uint64_t taken,
                   uint32_t reconv);
    /* Lanes leave every path of a frame >= min_frame (exit: 0; ret: its frame). */
    void (*remove)(func_warp *w, uint64_t lanes, uint32_t min_frame);
    /* Drops finished paths (no lanes left, or at their reconvergence point);
     * returns how many remain and, when some do, sets *top_frame to the innermost
     * call frame any of them runs in (warp.c pops the frames above it). */
    uint32_t (*settle)(func_warp *w, uint32_t *top_frame);
    /* Its own configuration rows (section [func]) and parameter struct, declared in
     * its file (util/config.h); NULL: no parameters. */
    const struct ws_cfg_table *params;
    /* Optional: checks the parameter struct (params) before a launch; 0, or -1 with
     * a message in err. */
    int (*check)(const void *params, char *err, size_t n);
    /* Optional (NULL: the warp as a whole waits at bar.sync). Path id executed a
     * CTA barrier at its pc: it moves to pc + 1 and is parked (not runnable) until
     * release. Returns nonzero when no runnable path is left, i.e. the warp waits. */
    int (*wait)(func_warp *w, uint32_t id);
    /* Unparks every path parked by wait (the barrier completed). */
    void (*release)(func_warp *w);
    /* Optional: adds the launch's divergence statistics (launch state st) to *out. */
    void (*stats)(const void *st, struct div_stats *out);
    /* Optional: the timing knobs of the policy (launch state st); NULL: all zero. */
    void (*timing)(const void *st, struct div_timing *out);
} div_ops;

/* Divergence statistics of a launch (policies with a stats op; docs/STATS.md). */
typedef struct div_stats {
    uint64_t path_samples;     /* instructions executed by the policy's warps        */
    uint64_t path_occ_sum;     /* paths in the warp's table, summed at each of them  */
    uint64_t path_occ_max;     /* most paths one warp's table held                   */
    uint64_t path_switches;    /* a warp executed another path than its previous one */
    uint64_t path_spills;      /* splits that found the table full (div_path.c)      */
    uint64_t sync_forced;      /* warp-synchronous ops run without all their lanes   */
    uint64_t loop_hits, loop_inserts, loop_evicts;   /* LAS loop table               */
    uint64_t iter_shifts;      /* LAS ran another path than Min-PC would             */
    uint64_t iter_gap_max;     /* largest iteration gap LAS observed in a loop       */
    uint64_t gap_forced;       /* LAS ran the least-advanced path (gap bound)        */
} div_stats;

/* What the timing model takes from a policy (div_ops.timing). */
typedef struct div_timing {
    uint32_t switch_cycles;    /* extra cycles before a refetched buffer of another
                                  path than the warp issued last is usable          */
    uint32_t skip_stalled;     /* another path may issue while the selected one waits
                                  on the scoreboard                                  */
} div_timing;

/* The registry, by exact name; NULL when unknown. */
const div_ops *div_find(const char *name);
const div_ops *div_at(size_t i);
/* Writes the registered names, ", "-separated, into buf (for "known: ..." errors). */
void div_names(char *buf, size_t n);

#endif
