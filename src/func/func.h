/* func.h - functional emulation: device memory, launches, CTAs and warps.
 *
 * The functional emulator executes one warp instruction at a time (func_warp_step),
 * which is what the timing model calls when it issues an instruction (SPEC section 1:
 * functional execution at issue). Functional mode simply steps every warp of a CTA
 * until the CTA finishes (func_run_cta).
 *
 * Address spaces. Global and const variables and every cuMemAlloc live in one device
 * address space starting at WS_GLOBAL_BASE. Generic addresses map windows onto the
 * per-thread local and per-CTA shared spaces, as on NVIDIA hardware:
 *   [WS_LOCAL_WIN,  +WS_WIN_SIZE)   local  (the thread's own stack)
 *   [WS_SHARED_WIN, +WS_WIN_SIZE)   shared (the CTA's shared memory)
 *   [WS_PARAM_WIN,  +WS_WIN_SIZE)   kernel parameters
 *   everything else                 global (const variables are global addresses)
 * The windows sit below 4 GB so 32-bit cvta forms keep working.
 */
#ifndef WS_FUNC_FUNC_H
#define WS_FUNC_FUNC_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "func/div.h"
#include "func/div_simt.h"
#include "func/exec.h"
#include "ptx/cfg.h"
#include "ptx/ir.h"

#define WS_LOCAL_WIN   0x10000000ull
#define WS_SHARED_WIN  0x40000000ull
#define WS_PARAM_WIN   0x70000000ull
#define WS_WIN_SIZE    0x10000000ull
#define WS_GLOBAL_BASE 0x100000000ull

/* ---- device memory ---------------------------------------------------------------- */
typedef struct {
    uint64_t addr, size;
    uint8_t *data;
} devmem_block;

typedef struct {
    devmem_block *b;        /* live allocations, sorted by addr                   */
    uint32_t n, cap;
    uint32_t last;          /* index of the last block hit (lookups are local)    */
    uint64_t next;          /* next free device address                          */
    uint64_t total, used;   /* capacity (config) and bytes allocated             */
} devmem;

void devmem_init(devmem *d, uint64_t total);
void devmem_fini(devmem *d);
int devmem_alloc(devmem *d, uint64_t size, uint64_t *addr);  /* 0, or -1: out of memory */
int devmem_free(devmem *d, uint64_t addr);                    /* 0, or -1: not an allocation */
/* Host pointer to [addr, addr+n) when it lies inside one live allocation, else NULL. */
uint8_t *devmem_ptr(devmem *d, uint64_t addr, uint64_t n);
/* The same without writing d: the caller keeps the index of the last block hit in *last
 * (several threads look up one device memory at once during a launch). */
uint8_t *devmem_ptr_at(const devmem *d, uint64_t addr, uint64_t n, uint32_t *last);

/* ---- a bound module: handlers and instruction-mix buckets per instruction ---------- */
/* Instruction-mix buckets (the launch report names them: ws_mix_name, gpu/sim.h). */
typedef enum {
    MIX_ALU, MIX_SFU, MIX_DP, MIX_LD_GLOBAL, MIX_ST_GLOBAL, MIX_LD_SHARED, MIX_ST_SHARED,
    MIX_LD_LOCAL, MIX_ST_LOCAL, MIX_LD_CONST, MIX_LD_PARAM, MIX_ATOMIC, MIX_CTRL, MIX_BAR,
    MIX_WARP, MIX_OTHER, MIX__COUNT
} ws_mix;

/* Register storage (ptx/regalloc.h, func.host_reg_compact): the handlers run a copy of
 * each function's instructions whose register operands (guards, address bases and
 * vector lists included) are row indices of the storage slots, so a frame holds n_slots
 * slots instead of n_regs registers; the module's instructions, which the timing model
 * reads, keep the PTX registers. With compaction off the slots are the registers.
 * A frame's rows are ws lanes of 4 bytes: a slot of 8-byte registers (b64/u64/s64/f64)
 * takes two rows (its lanes 8 bytes wide), every other slot (pred, 8/16/32-bit) one.
 * The 8-byte slots come first, so row r holds 8-byte lanes when r < b64 (exec.h). */
typedef struct {
    const ptx_module *m;
    exec_fn **fns;          /* [function][insn]                                    */
    uint8_t **mix;          /* [function][insn] ws_mix bucket                      */
    ptx_insn **insns;       /* [function][insn] the handlers' copy (rows)          */
    uint32_t *n_slots;      /* [function] storage slots of a frame (the timing
                             * model's scoreboard counts them: func_frame.reg_off)  */
    uint32_t *rows;         /* [function] 4-byte rows of a frame (2 per 8-byte slot) */
    uint32_t *b64;          /* [function] rows below it are 8-byte slots' (even)   */
    uint8_t **row_bytes;    /* [function][row] width of the registers it holds     */
    uint32_t **reg_row;     /* [function][PTX register] its row (func_reg_value)   */
    uint32_t **clear;       /* [function] the rows of the slots a new frame zeroes
                             * (regalloc.h; an 8-byte slot's first row)            */
    uint32_t *n_clear;      /* [function] how many: n_slots = all of them           */
    uint32_t *pool;         /* the module's pool, plus the copies' vector lists    */
    uint8_t *kparam;        /* [symbol] func_is_kernel_param, computed once        */
    uint64_t regs, slots;   /* sums over the defined functions (reports, tests)    */
} func_prog;

/* Binds every instruction of m and builds the handlers' copies; compact = 0 keeps one
 * slot per register (func.host_reg_compact = false). */
int func_prog_bind(func_prog *p, const ptx_module *m, int compact, char *why, size_t n);
void func_prog_free(func_prog *p);

/* ---- a launch ------------------------------------------------------------------------ */
typedef struct {
    int code;               /* ws_err (sim.h); 0 while no fault                    */
    char msg[768];
} func_fault;

/* Deferred global-memory data accesses (parallel timing simulation, gpu/timing.c).
 * While a launch has a defer buffer, a warp instruction's global and const loads,
 * stores and atomics check their addresses at once (faults, the timing model's trace)
 * but record their data accesses here; func_defer_commit performs them later, in
 * record order. Timing mode commits every SM's buffer after each cycle in SM order,
 * which is the order in which a serial run performs them at issue: results are the
 * same with any number of host threads. A loaded value is first read at the warp's
 * next instruction, at least one cycle later, so committing at the end of the cycle
 * changes nothing that the cycle itself reads. */
typedef struct {
    uint8_t *p;             /* device bytes                                        */
    void *dst;              /* ld/atom: the lane's destination register (its lane
                             * 8 bytes wide when rb >= 8, else 4), or NULL         */
    uint64_t v, c;          /* st: the value; atom: operands b and c               */
    const ptx_insn *in;     /* atom: the instruction (operation, type)             */
    uint8_t op;             /* FD_LD, FD_ST, FD_ATOM                               */
    uint8_t size;           /* bytes                                               */
    uint8_t sext;           /* ld: sign-extend from size to rb bytes (0: no)       */
    uint8_t rb;             /* ld/atom: the destination register's width in bytes  */
} func_defer_op;

/* FD_LDW / FD_STW: one warp instruction's loads / stores of several lanes in one record
 * (exec_mem.c): dst the destination row (ld), v the lanes in order, c their number,
 * size/sext/rb as FD_LD's (rb: the row's width); the records after it hold the lanes'
 * device pointers (ld: 6 per record) or pointer and value pairs (st: 3 per record). */
enum { FD_LD, FD_ST, FD_ATOM, FD_LDW, FD_STW };

typedef struct {
    func_defer_op *a;
    uint32_t n, cap;
    int oom;                /* a record could not be stored (reported as a fault)  */
} func_defer;

/* Performs every recorded access in order and empties the buffer. */
void func_defer_commit(func_defer *d);

typedef struct func_launch {
    const func_prog *prog;
    const div_ops *div;          /* divergence policy (func.divergence)            */
    void *dstate;                /* its per-launch state (div.h), or NULL           */
    const void *div_params;      /* its parameter struct (div_ops.params), or NULL  */
    const ptx_func *kernel;
    devmem *mem;
    const uint8_t *params;
    uint32_t params_size;
    uint32_t grid[3], block[3];
    uint32_t ws;                 /* warp size                                       */
    uint32_t cta_threads, cta_warps;
    uint32_t shared_static;      /* module + kernel static shared bytes             */
    uint32_t dyn_base;           /* offset of extern shared = aligned static size    */
    uint32_t shared_bytes;       /* dyn_base + dynamic bytes                        */
    uint32_t stack_bytes;        /* per-thread local memory limit                   */
    uint32_t max_depth;          /* call depth limit                                */
    uint32_t n_sm, max_warps_sm, gridid;
    uint64_t core_mhz;
    uint64_t watchdog;           /* warp-instruction cap, 0 = none                  */
    /* progress: called now and then while the launch runs (timing: every few thousand
     * loop iterations; functional: after each CTA), or NULL (gpu/sim.h ws_progress) */
    void (*progress)(void *ctx, uint64_t cycle);
    void *progress_ctx;
    uint64_t ctas_done;          /* CTAs whose warps have all exited                */
    /* Run budgets left for this launch (sim.max_insts, sim.max_cycles; 0 = none) and
     * the stop request a signal handler sets (gpu/sim.h ws_stop_request), or NULL.
     * Reaching either stops the launch with WS_E_STOPPED (statistics partial). */
    uint64_t budget_insts, budget_cycles;
    const volatile sig_atomic_t *stop;
    /* statistics */
    uint64_t warp_insts, thread_insts;
    uint64_t mix[32];
    func_fault fault;
    /* parallel timing simulation: the deferred global accesses of the SM this launch
     * view belongs to (NULL: performed at once), and its device-memory lookup hint */
    func_defer *defer;
    uint32_t mem_last;
} func_launch;

typedef struct {
    func_launch *L;
    uint32_t ctaid[3];
    uint32_t linear;             /* linear CTA index                                */
    uint32_t smid;
    uint8_t *shared;             /* L->shared_bytes                                 */
    uint32_t live_threads;       /* threads not exited                              */
    uint32_t live_warps;
    /* barriers: threads arrived per id, and the bar.red accumulators */
    uint32_t bar_arrived[16];
    uint32_t bar_expect[16];     /* 0: all live threads                            */
    uint32_t bar_red[16];
    uint32_t bar_waiting[16];    /* warps waiting                                  */
} func_cta;

typedef struct {
    int32_t func;                /* function index in the module                    */
    uint32_t call_pc;            /* the call instruction in the caller              */
    size_t reg_off;              /* the outer frames' slots x ws (the timing model's
                                    scoreboard base, pipe_reg_base)                 */
    uint32_t local_base;         /* frame's offset in each lane's local memory      */
    uint32_t reg_pos;            /* register file: regpool + reg_pos (4-byte units) */
    uint32_t b64;                /* func_prog.b64 of the function                   */
    uint32_t pad;
    /* the function's tables, looked up once at the call (func_prog) */
    const ptx_func *f;           /* the module's function                           */
    const ptx_insn *insns;       /* the handlers' copy of its instructions (rows)   */
    const exec_fn *fns;          /* their handlers                                  */
    const uint8_t *mix;          /* their instruction-mix buckets                   */
} func_frame;

typedef enum { WARP_READY, WARP_BARRIER, WARP_DONE, WARP_FAULT } warp_state;

struct func_warp {
    /* The record is 320 bytes; in an array that starts 64-byte aligned (sm.c) each of
     * its lines is one cache line. The first: what the timing model's readiness and an
     * issue read of every warp (the selected path: L->div, state, dstate unless the
     * policy is the SIMT stack, whose record is the fifth line; the frame: fr,
     * nfr; the registers; %clock). The second: the first frame, inline (fr points to it
     * while fr_cap is 1): a warp that makes no call reads its frame from the line next
     * to the first one rather than from a heap block of its own. */
    func_launch *L;
    void *dstate;                /* the divergence policy's per-warp state (div.h):
                                    its paths; NULL until func_warp_init           */
    func_frame *fr;              /* fr[0 .. nfr): fr0 while fr_cap is 1, else heap  */
    uint32_t nfr;
    warp_state state;
    uint32_t *regpool;           /* the frames' register rows (4-byte units)        */
    uint64_t clock;              /* %clock: cycles (timing: set at every issue)     */
    func_cta *cta;
    uint32_t wid;                /* warp index inside the CTA                       */
    uint32_t n_lanes;            /* threads of the CTA in this warp                 */
    func_frame fr0;
    uint64_t valid;              /* lanes that exist                                */
    uint64_t exited;
    uint64_t bar_mask;           /* lanes that executed the bar.red                 */
    size_t reg_cap;
    uint8_t *local;              /* n_lanes x local_cap bytes, lane-major          */
    int32_t bar_dst;             /* bar.red destination row, or -1                  */
    uint32_t fr_cap;
    uint32_t local_cap, local_top;
    uint8_t bar_id;              /* barrier waited on                               */
    uint8_t bar_parked;          /* some paths wait at barrier bar_id while others
                                    run (policies with div_ops.wait)                */
    uint8_t pad_[6];
    uint8_t cc[64];
    /* The SIMT stack's record (div_simt.c: w->dstate points here with that policy), on
     * the fifth line: its address is the warp's, so reading the selected path does not
     * wait for the first line's dstate (func_warp_selected). */
    simt_stack simt;
    uint8_t simt_pad_[64 - sizeof(simt_stack)];
};
_Static_assert(sizeof(func_frame) == 64 && offsetof(struct func_warp, fr0) == 64 &&
               offsetof(struct func_warp, simt) == 256 && sizeof(struct func_warp) == 320,
               "func_warp: its first two lines are the hot header and frame 0, the fifth the SIMT stack");

/* Per-launch divergence-policy state (div.h create/destroy, in L->dstate): init
 * after L->div is set and before any warp starts (0, or -1 when out of memory);
 * fini once the launch's warps are finalised (safe to call after a failed init). */
int func_launch_div_init(func_launch *L);
void func_launch_div_fini(func_launch *L);

/* Prepares warp `wid` of `cta` at the kernel's first instruction. The warp's
 * buffers (and its policy state) are kept from a previous CTA of the same launch. */
int func_warp_init(func_warp *w, func_launch *L, func_cta *cta, uint32_t wid);
void func_warp_fini(func_warp *w);

/* ---- a warp's paths (div.h) ----------------------------------------------------------
 * A warp that can issue (WARP_READY) exposes its runnable paths; the timing model
 * may issue any of them, functional mode issues the one the policy selects. With the
 * SIMT stack there is exactly one, id 0. Each query returns 0 (nothing) when the warp
 * cannot issue (done, fault, barrier). */

/* The runnable paths, at most max of them, the selected one first; how many written. */
uint32_t func_warp_paths(const func_warp *w, func_path *out, uint32_t max);
/* The path the policy selects, or NULL. The record is the policy's: read it before the
 * warp next steps (inline: the timing model asks every cycle). */
/* Set bits of a lane mask: a mask of the lowest k lanes (a full or a partial last warp,
 * the common case) by a count of trailing zeros, others by popcount (without a popcount
 * instruction in the target, a library call) */
static inline uint32_t func_lane_count(uint64_t m)
{
    if (!(m & (m + 1)))
        return m + 1 ? (uint32_t)__builtin_ctzll(m + 1) : 64;
    return (uint32_t)__builtin_popcountll(m);
}

/* (the SIMT stack's queries inline, without the policy table's call: div_simt.h) */
static inline const func_path *func_warp_selected(const func_warp *w)
{
    if (w->state != WARP_READY)
        return NULL;
    const div_ops *d = w->L->div;
    return d == &div_simt_stack ? div_simt_top(&w->simt) : d->select(w);
}
/* The policy's get: runnable path `path` of w, or NULL (whatever the warp's state). */
static inline const func_path *func_div_get(const func_warp *w, uint32_t path)
{
    const div_ops *d = w->L->div;
    if (d == &div_simt_stack)
        return path == DIV_SIMT_PATH ? div_simt_top(&w->simt) : NULL;
    return d->get(w, path);
}
/* Runnable path `path`, or NULL when there is none (read it as func_warp_selected's). */
static inline const func_path *func_warp_path(const func_warp *w, uint32_t path)
{
    return w->state == WARP_READY ? func_div_get(w, path) : NULL;
}
/* Runnable path `path`'s next pc and lanes; 0 when there is no such path. */
int func_warp_peek_path(const func_warp *w, uint32_t path, uint32_t *pc, uint64_t *mask);
/* The selected path's next pc and lanes (func_warp_peek_path of the selected path). */
int func_warp_peek(const func_warp *w, uint32_t *pc, uint64_t *mask);
/* Where the warp stands whatever its state (diagnostics: a warp at a barrier is
 * reported at its selected path); 0 when it has no path. */
int func_warp_where(const func_warp *w, func_path *p);

/* Executes one instruction of runnable path `path` (a warp that can issue);
 * records memory accesses into tr when non-NULL. Returns the control outcome
 * (EX_NEXT, EX_BRANCH, EX_BARRIER, EX_EXIT, EX_FAULT ...); EX_FAULT with a launch
 * fault when `path` is not runnable. */
exec_ctrl func_warp_step_path(func_warp *w, uint32_t path, exec_trace *tr);
/* func_warp_step_path of the path record p that func_warp_path (or func_warp_selected)
 * just returned for the warp, not NULL, without looking it up again. */
exec_ctrl func_warp_step_from(func_warp *w, const func_path *p, exec_trace *tr);
/* Executes one instruction of the selected path (the warp must be able to issue). */
exec_ctrl func_warp_step(func_warp *w, exec_trace *tr);

/* CTA set-up and teardown; barrier release. */
void func_cta_init(func_cta *c, func_launch *L, uint32_t linear, uint8_t *shared);
/* Releases barrier waiters when every live thread arrived. Returns warps released. */
uint32_t func_cta_try_release(func_cta *c, func_warp *warps, uint32_t n_warps);

/* Whether the launch must stop now: the watchdog (func.watchdog_insts), the
 * instruction budget or a stop request; records the fault (WS_E_LAUNCH_FAILED for the
 * watchdog, WS_E_STOPPED otherwise) naming where the warps of `warps` stand. `cycle`
 * is the timing model's cycle (0 in functional mode). Cheap when nothing is due. */
int func_launch_check(func_launch *L, const func_warp *warps, uint32_t n_warps, uint64_t cycle);

/* Where the warps stand, for reports: " CTA (x,y,z) warp W pc P (line L) [at barrier B];"
 * for each warp not done; returns the length written (at most n - 1). */
int func_warps_where(const func_launch *L, const func_warp *warps, uint32_t n_warps, char *buf,
                     size_t n);

/* Functional mode: runs every warp of the CTA to completion. Returns 0, or -1 on a
 * fault or deadlock (L->fault filled). */
int func_run_cta(func_launch *L, func_cta *c, func_warp *warps);

/* Like ex_fault (exec.h) with an explicit ws_err code (util/err.h). */
void ex_fault_code(exec_ctx *x, const ptx_insn *in, unsigned lane, int code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Whether symbol `sym` is a formal parameter of a kernel (read from the parameter
 * buffer) rather than frame memory. */
int func_is_kernel_param(const ptx_module *m, uint32_t sym);

/* Value of a symbol operand for the executing warp (frame-relative ones resolved). */
uint64_t func_sym_value(const func_warp *w, uint32_t sym);

/* Lane `lane` of PTX register `reg` of the warp's innermost frame (tests, tools). */
uint64_t func_reg_value(const func_warp *w, uint32_t reg, unsigned lane);

/* Records a launch-level fault once (first one wins). */
void func_fault_set(func_launch *L, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
