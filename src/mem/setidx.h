/* setidx.h - cache set-index functions as plug-ins, one registry (setidx_find by name).
 *
 * A function maps an index address (cache_acc.idx: the access address at an L1, the
 * partition-local address with the bank bits removed at the L2) to a set in [0, sets).
 * Tags stay the full line number (address / line), so any function is correct; only
 * which lines compete for a set changes. A function is a pure function of
 * (idx, sets, line): no state, so probing and accessing agree.
 *
 * Registered (setidx.c; one file each):
 *   linear      set = (idx / line) mod sets                          (setidx_linear.c)
 *   fermi-hash  Fermi L1D hash (GPGPU-Sim's `H`)                       (setidx_fermi.c)
 *   xor         line number XOR-folded in log2(sets)-bit fields        (setidx_xor.c)
 *
 * To add one: a file defining a `const setidx_ops setidx_NAME` and one line in the
 * table of setidx.c. */
#ifndef WS_MEM_SETIDX_H
#define WS_MEM_SETIDX_H

#include <stddef.h>
#include <stdint.h>

typedef struct setidx_ops setidx_ops;
struct setidx_ops {
    const char *name, *desc;
    /* Nonzero: the function is exactly (idx / line) mod sets, so the cache may compute
     * it inline without calling set(). */
    int linear;
    /* Optional: refuses a geometry the function is not defined for (0, or -1 with a
     * message). sets >= 1, line >= 1. */
    int (*check)(uint32_t sets, uint32_t line, char *err, size_t n);
    /* The set of index address idx; line_no = idx / line (given: the cache has it). */
    uint32_t (*set)(uint64_t idx, uint64_t line_no, uint32_t sets);
    /* SX_CALL: a cache calls set(); SX_FERMI: set() is setidx_fermi_hash below, which
     * a cache's fast path may compute inline. */
    uint8_t inline_kind;
};

enum { SX_CALL, SX_FERMI };

/* fermi-hash's set (setidx_fermi.c): bits 7-11 of the address XOR bits 13, 14, 15, 17,
 * 19; with 64 sets bit 12 is set bit 5. */
static inline uint32_t setidx_fermi_hash(uint64_t a, uint64_t line_no, uint32_t sets)
{
    uint32_t lower = (uint32_t)line_no & 0x1f;                     /* bits 7-11 */
    uint32_t upper = (uint32_t)((a >> 13) & 7)                     /* 13,14,15 -> 0,1,2 */
                     | (uint32_t)((a >> 17) & 1) << 3              /* 17 -> 3 */
                     | (uint32_t)((a >> 19) & 1) << 4;             /* 19 -> 4 */
    uint32_t s = lower ^ upper;
    if (sets == 64)
        s |= (uint32_t)((a >> 12) & 1) << 5;                       /* 12 -> 5 */
    return s;
}

/* Registry by exact name; NULL if unknown. */
const setidx_ops *setidx_find(const char *name);
const setidx_ops *setidx_at(size_t i);
/* "linear, fermi-hash, xor": the registered names, for error messages. */
void setidx_known(char *buf, size_t n);

#endif
