/* regalloc.h - storage slots for a function's PTX virtual registers (issue 16).
 *
 * nvcc's PTX is nearly SSA: a kernel declares hundreds of virtual registers, few of
 * them live at once. The functional emulator stores registers per warp, one row of
 * warp-size values per register (4-byte lanes, 8-byte ones for 64-bit registers:
 * func/func.h func_prog), so a frame of n_regs rows is most of the simulator's memory
 * traffic. This analysis maps the registers onto n_slots <= n_regs storage slots such
 * that two registers share a slot only when no thread can observe the difference:
 *
 *  - liveness per thread over the CFG (cfg.h), backward: a register is live at a point
 *    when some path from there reads it before writing it. A register read before any
 *    write on some path is live from the entry (it reads the zeroed frame's 0);
 *  - a guarded definition (@p) may leave the old value: it is a use and a definition
 *    (it does not kill);
 *  - interference: every definition interferes with every register live after the
 *    instruction (a dead definition too: it still writes its slot), with the other
 *    destinations of the instruction and with the instruction's sources (handlers may
 *    read a source after writing a destination, e.g. mov's {a,b} unpack, and shfl
 *    reads other lanes' sources while writing lanes in turn);
 *  - registers of different widths never share (the load handlers sign-extend to the
 *    register's width, and a slot's lanes are as wide as its registers); a register
 *    read from other lanes (shfl's source: inactive lanes' values are read as they
 *    stand) gets a slot of its own;
 *  - slots are assigned greedily in register order (lowest free slot of the width), so
 *    the result is deterministic.
 * Inactive lanes never have a register written (every handler writes x->mask lanes
 * only), so a thread's registers change only through its own instructions, which is
 * what the per-thread liveness assumes. Deferred loads (func.h func_defer) write the
 * destination at the end of the cycle; a warp issues at most one instruction per cycle,
 * so nothing of the warp runs in between.
 *
 * Functions without a CFG, with an indirect branch (brx), with more than RA_MAX_REGS
 * registers, or whose per-block register sets would exceed RA_MAX_WORDS words keep the
 * identity mapping (slot = register). The timing model keeps seeing the original
 * register numbers (the module's instructions are not changed); only the functional
 * emulator's copy is renumbered (func/bind.c, which also lays the slots out in rows,
 * the 8-byte slots first).
 */
#ifndef WS_PTX_REGALLOC_H
#define WS_PTX_REGALLOC_H

#include <stdint.h>

#include "ptx/ir.h"

#define RA_MAX_REGS 8192u         /* beyond: identity (the interference matrix is n^2 bits) */
#define RA_MAX_WORDS (1u << 20)   /* blocks x 64-bit words of a register set, at most      */

typedef struct {
    uint32_t n_regs;        /* the function's virtual registers                         */
    uint32_t n_slots;       /* storage slots the assignment uses                         */
    uint32_t *slot;         /* [n_regs] register -> slot                                 */
    uint8_t *slot_bytes;    /* [n_slots] width of the registers in each slot (1,2,4,8)   */
    uint8_t compacted;      /* 0 when the identity mapping was kept                      */
    /* The slots a new frame must zero, ascending: those of the registers some path reads
     * before writing them (live at the entry: they read 0) and the slots of registers
     * read in other lanes (shfl); every other slot is written before it is read, lane by
     * lane, so its old contents are never observed. Identity mapping: every slot. */
    uint32_t *clear;
    uint32_t n_clear;
} ptx_regalloc;

/* Assigns slots for f (its CFG built: ptx_cfg_build). compact = 0 asks for the identity
 * mapping. Returns 0, or -1 when out of memory. */
int ptx_regalloc_build(const ptx_module *m, const ptx_func *f, int compact, ptx_regalloc *ra);
void ptx_regalloc_free(ptx_regalloc *ra);

/* The registers an instruction writes and reads for this analysis: ptx_insn_regs plus
 * the destination of barrier.red (written at the barrier's release). */
void ptx_regalloc_insn_regs(const ptx_module *m, const ptx_insn *in, uint32_t *dst,
                            uint32_t *n_dst, uint32_t *src, uint32_t *n_src);

#endif
