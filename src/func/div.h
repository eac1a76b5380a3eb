/* div.h - divergence plug-ins: which lanes of a warp run which instruction next.
 *
 * A warp's lanes are split into paths: (pc, mask, call frame), plus a reconvergence
 * pc where the policy uses one. The paths live in the warp's entry array
 * (func_warp.stk[0 .. sp), simt_entry); their order and meaning belong to the
 * policy. The emulator (warp.c) asks the policy which path issues next, then tells
 * it what the instruction did (fell through, branched, lanes exited or returned);
 * call frames, barriers and return values stay in warp.c. So a warp may hold several
 * schedulable paths, and a path table with Min-PC or loop-aware selection (SPEC
 * section 4) is one more policy file and one registry line in div.c.
 *
 * Policies: "simt-stack" (div_simt.c): the PDOM SIMT stack — a divergent branch
 * turns the current entry into the reconvergence entry (pc = immediate
 * post-dominator) and pushes one entry per path; the top entry runs.
 */
#ifndef WS_FUNC_DIV_H
#define WS_FUNC_DIV_H

#include <stddef.h>
#include <stdint.h>

typedef struct func_warp func_warp;
struct ws_cfg_table;

#define DIV_NO_PC UINT32_MAX

typedef struct {
    const char *name;
    const char *desc;
    /* Index of the path the warp issues next (into w->stk), or -1 when none. */
    int (*select)(const func_warp *w);
    /* Adds a path; 0, or -1 when out of memory. */
    int (*add)(func_warp *w, uint32_t pc, uint32_t rpc, uint64_t mask, uint32_t frame);
    /* Path p executed a non-branching instruction at its pc: it moves to pc + 1. */
    void (*next)(func_warp *w, int p);
    /* Path p branched at pc: lanes `taken` go to target, the others to pc + 1;
     * reconv is the branch's immediate post-dominator (DIV_NO_PC: none). */
    void (*branch)(func_warp *w, int p, uint32_t pc, uint32_t target, uint64_t taken,
                   uint32_t reconv);
    /* Lanes leave every path of a frame >= min_frame (exit: 0; ret: its frame). */
    void (*remove)(func_warp *w, uint64_t lanes, uint32_t min_frame);
    /* Drops finished paths (no lanes left, or at their reconvergence point);
     * returns how many remain. */
    uint32_t (*settle)(func_warp *w);
    /* Its own configuration rows (section [func]) and parameter struct, declared in
     * its file (util/config.h); NULL: no parameters. */
    const struct ws_cfg_table *params;
} div_ops;

/* The registry, by exact name; NULL when unknown. */
const div_ops *div_find(const char *name);
const div_ops *div_at(size_t i);
/* Writes the registered names, ", "-separated, into buf (for "known: ..." errors). */
void div_names(char *buf, size_t n);

#endif
