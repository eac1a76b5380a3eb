/* div_simt.h - the PDOM SIMT stack's per-warp state (div_simt.c), exposed so that the
 * per-instruction queries (the selected path, the step to pc + 1) can skip the policy
 * table's indirect calls when this policy is the one plugged in (L->div ==
 * &div_simt_stack). Nothing here changes the policy's behaviour: the inline forms do
 * what simt_select, simt_get and simt_next do.
 */
#ifndef WARPSIM_FUNC_DIV_SIMT_H
#define WARPSIM_FUNC_DIV_SIMT_H

#include <stdint.h>

#include "func/div.h"

/* A stack entry: a path (its id is always DIV_SIMT_PATH) with its reconvergence pc. */
typedef struct {
    func_path p;
    uint32_t rpc;
    uint32_t pad;
} simt_entry;

/* The record lies on a cache line of its own (64 bytes: the warp's func_warp.simt)
 * with room for one entry: a warp that never diverges (stack depth 1) finds its top
 * entry in the line it reads `top` from. A deeper stack moves to the heap (and stays
 * there). */
typedef struct {
    simt_entry *e;      /* e[0 .. sp): `in` while cap is 1, else on the heap          */
    simt_entry *top;    /* e + sp - 1, NULL when empty: select and next read only this */
    uint32_t sp, cap;
    simt_entry in[1];
} simt_stack;
_Static_assert(sizeof(simt_stack) <= 64, "simt_stack: the record and its first entry on one cache line");

#define DIV_SIMT_PATH 0u   /* the id of the one runnable path: the top entry          */

extern const div_ops div_simt_stack;

/* Pops finished entries (mask empty or pc at the reconvergence pc); entries left. */
uint32_t div_simt_pop(simt_stack *s);

/* simt_select: the top entry's path, NULL when the stack is empty. */
static inline const func_path *div_simt_top(const void *dstate)
{
    return (const func_path *)((const simt_stack *)dstate)->top;
}

/* simt_next: the top entry goes on at pc + 1 (popped at its reconvergence pc); the
 * entries left (nonzero: the top one is still there). */
static inline uint32_t div_simt_next(void *dstate)
{
    simt_stack *s = dstate;
    simt_entry *e = s->top;
    if (++e->p.pc == e->rpc)
        return div_simt_pop(s);
    return 1;
}

#endif
