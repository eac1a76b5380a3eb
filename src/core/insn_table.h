/* insn_table.h - static timing facts of every instruction of a module, derived once
 * per launch (insn_table.c): instruction class, functional unit, issue type,
 * latency, initiation interval, registers read and written.
 *
 * A static analysis, not pipeline code: it reads the PTX and the configuration and
 * never changes during a launch, so every core of the launch shares one table.
 */
#ifndef WS_CORE_INSN_TABLE_H
#define WS_CORE_INSN_TABLE_H

#include <stdint.h>

#include "ptx/ir.h"
#include "util/config.h"

/* Functional-unit pipelines and the instruction classes mapped onto them. */
typedef enum { FU_SP, FU_SFU, FU_DP, FU_LDST, FU_INT, FU__COUNT } fu_kind;
extern const char *const fu_name[FU__COUNT];

typedef enum {
    IC_ALU, IC_IMUL, IC_IDIV, IC_FP, IC_FDIV, IC_DP, IC_DDIV, IC_SFU, IC_BRANCH, IC_BAR,
    IC_MEM_SHARED, IC_MEM_CONST, IC_MEM_PARAM, IC_MEM_GLOBAL, IC_MEM_LOCAL, IC_MEM_GENERIC,
    IC_ATOM_SHARED, IC_ATOM_GLOBAL, IC_CALL, IC_MEMBAR, IC_MOVE, IC__COUNT
} insn_class;

/* Static timing facts of one instruction, derived once per module. */
typedef struct {
    uint8_t cls;         /* insn_class                                        */
    uint8_t fu;          /* fu_kind                                           */
    uint8_t n_src, n_dst;
    uint16_t lat, ii;    /* latency and initiation interval (non-memory)      */
    uint32_t src[8];     /* register slots read (guard, sources, address base) */
    uint32_t dst[4];     /* register slots written                             */
    uint32_t reg_end;    /* 1 + the highest slot of src and dst (1 when none); 0:
                            not known (pipe_sb_busy then bounds-checks each)   */
    uint8_t type;        /* issue_type (sched.h): the issue port a multi-issue
                            core arbitrates by; a function of cls             */
    uint8_t is_mem;      /* cls is a memory class (IC_MEM_SHARED..IC_ATOM_GLOBAL) */
    uint8_t is_long;     /* cls is global/local/generic memory or a global atomic */
    uint8_t rf_extra;    /* operand collection: cycles beyond the first under the
                            configuration's core.rf_banks (insn_rf_extra)     */
    uint8_t fetch_run;   /* instructions from this one to the next control one
                            (branch, call, barrier) included, or to the
                            function's end; at most 255 (pipe_fetch_len)      */
} insn_info;

typedef struct {
    insn_info **info;    /* [function][insn]                                  */
    uint32_t n_funcs;
} insn_table;

/* Builds the table of module m under cfg's latencies and unit counts; 0, or -1 when
 * out of memory (the table may then be partly built: insn_table_free it). */
int insn_table_build(insn_table *t, const ptx_module *m, const ws_config *cfg);
void insn_table_free(insn_table *t);

/* The class of one instruction (independent of the configuration). */
insn_class insn_classify(const ptx_insn *in);
/* The issue type (sched.h issue_type) of a class. */
uint8_t insn_class_type(insn_class c);
/* Operand collection: extra cycles to read ii's sources from `banks` register-file
 * banks (0: not modelled) when register 0 of the warp's frame is pool register `base`
 * (pool register r lives in bank r mod banks): the most other sources that share one
 * source's bank. Independent of base (two sources share a bank when their slots differ
 * by a multiple of banks), so the table holds it per instruction (rf_extra). */
uint32_t insn_rf_extra(const insn_info *ii, uint32_t base, uint32_t banks);
/* Fills ii's register lists (n_src/src, n_dst/dst) from the operands of `in`. */
void insn_regs(const ptx_module *m, const ptx_insn *in, insn_info *ii);

#endif
