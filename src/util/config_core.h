/* config_core.h - configuration keys of the SM pipeline ([core]): machine-description
 * rows of util/config.h (read by core and gpu; mem reads core.lat_const). A warp
 * scheduler's own keys ([sched]) are not here: each policy file declares them.
 * X(section, key, type, default, min, max, unit, description).
 * Defaults are the GTX480 (Fermi) values; latencies and initiation intervals follow
 * GPGPU-Sim's published GTX480 configuration (ADD/MUL/MAD/DIV per class). */
#ifndef WS_UTIL_CONFIG_CORE_H
#define WS_UTIL_CONFIG_CORE_H

#define WS_CONFIG_CORE(X)                                                                        \
    X(core, model, STR, "fermi", 1, 63, "", "core model: the pipeline of one SM / CU (fermi, gcn)")   \
    X(core, scheduler, STR, "gto", 1, 63, "", "warp scheduling policy (warpsim list --scheds)")  \
    X(core, n_schedulers, UINT, "2", 1, 16, "", "warp schedulers per SM; warp w belongs to scheduler w mod n") \
    X(core, rotate_schedulers, BOOL, "true", 0, 0, "", "the warp scheduler that issues first in a cycle rotates every cycle (GPGPU-Sim's fair issue order); false: scheduler 0 always first") \
    X(core, ibuf_entries, UINT, "2", 1, 16, "insts", "instruction buffer entries per warp")      \
    X(core, fetch_per_cycle, UINT, "1", 1, 64, "warps", "warps whose instruction buffer is filled per cycle") \
    X(core, regs_per_thread, UINT, "0", 0, 65536, "registers", "registers per thread for occupancy, every kernel; 0 = per kernel from core.regs_source") \
    X(core, regs_source, ENUM, "ptxas", 0, 0, "", "where a kernel's registers per thread come from when core.regs_per_thread is 0: ptxas (the module's warpsim.regs pragma from ptxas -v, else .maxnreg, else the estimate) or estimate (.maxnreg, else the PTX liveness estimate)") \
    X(core, n_sp, UINT, "2", 0, 64, "units", "SP (integer/fp32) pipelines")                      \
    X(core, n_sfu, UINT, "1", 0, 64, "units", "SFU pipelines")                                  \
    X(core, n_dp, UINT, "0", 0, 64, "units", "double-precision pipelines")                      \
    X(core, n_ldst, UINT, "1", 1, 64, "units", "LD/ST pipelines")                               \
    X(core, n_int, UINT, "0", 0, 64, "units", "separate integer pipelines (Volta-style); 0 = integer instructions use the SP pipelines (Fermi)") \
    X(core, rf_banks, UINT, "16", 0, 64, "banks", "register-file banks the operand collector reads from; sources in one bank serialise (extra cycles); 0 = not modelled") \
    X(core, lat_pipeline, UINT, "6", 0, 10000, "cycles", "added to every instruction's latency: issue to execution (operand collection, dispatch) and result to register file (writeback)") \
    X(core, lat_move, UINT, "1", 1, 10000, "cycles", "latency: moves, logic, shifts, comparisons, selects, conversions, abs/neg (ops outside the add/mul/mad/min/max/div tables)") \
    X(core, lat_alu, UINT, "4", 1, 10000, "cycles", "latency: integer add/sub/min/max")   \
    X(core, ii_alu, UINT, "1", 1, 10000, "cycles", "initiation interval: integer add/logic")     \
    X(core, lat_imul, UINT, "5", 1, 10000, "cycles", "latency: integer mul/mad")                 \
    X(core, ii_imul, UINT, "2", 1, 10000, "cycles", "initiation interval: integer mul/mad")      \
    X(core, lat_idiv, UINT, "145", 1, 10000, "cycles", "latency: integer div/rem")               \
    X(core, ii_idiv, UINT, "8", 1, 10000, "cycles", "initiation interval: integer div/rem")      \
    X(core, lat_fp, UINT, "4", 1, 10000, "cycles", "latency: fp32 add/mul/fma, conversions")     \
    X(core, ii_fp, UINT, "1", 1, 10000, "cycles", "initiation interval: fp32")                   \
    X(core, lat_fdiv, UINT, "39", 1, 10000, "cycles", "latency: fp32 div")                       \
    X(core, ii_fdiv, UINT, "4", 1, 10000, "cycles", "initiation interval: fp32 div")             \
    X(core, lat_dp, UINT, "8", 1, 10000, "cycles", "latency: fp64 add/mul/fma")                  \
    X(core, ii_dp, UINT, "8", 1, 10000, "cycles", "initiation interval: fp64")                   \
    X(core, lat_ddiv, UINT, "330", 1, 10000, "cycles", "latency: fp64 div")                      \
    X(core, ii_ddiv, UINT, "130", 1, 10000, "cycles", "initiation interval: fp64 div")           \
    X(core, lat_sfu, UINT, "8", 1, 10000, "cycles", "latency: SFU (rcp, sqrt, sin, ex2 ...)")   \
    X(core, ii_sfu, UINT, "8", 1, 10000, "cycles", "initiation interval: SFU (4 lanes x 8 cycles per warp)") \
    X(core, lat_shared, UINT, "26", 1, 10000, "cycles", "latency: shared memory access without bank conflicts") \
    X(core, shared_banks, UINT, "32", 1, 256, "banks", "shared memory banks (4 bytes wide)")     \
    X(core, lat_const, UINT, "8", 1, 10000, "cycles", "latency: call-site .param access; constant-cache hit in the simple memory model")       \
    X(core, lat_branch, UINT, "1", 1, 10000, "cycles", "latency: branch / control instruction")  \
    X(core, ldst_queue, UINT, "8", 1, 4096, "requests", "a memory instruction issues only while the LD/ST queue toward the L1D holds fewer requests") \
    X(core, mem_inst_queue, UINT, "4", 0, 4096, "insts", "memory instructions that may wait in order behind the one the LD/ST unit is sending to the L1 (issue is blocked when full); 0 = the older rule: issue only while the LD/ST queue is not refused and holds fewer than core.ldst_queue requests") \
    X(core, skip_idle, BOOL, "true", 0, 0, "", "skip cycles in which nothing can change and let waiting SMs sleep (every statistic is identical either way: a skipped cycle counts as a copy of the cycle before it)") \
    X(core, sm_windows, BOOL, "true", 0, 0, "", "with skip_idle: an SM that has nothing in the memory system runs its next cycles at once, until one of them sends a request, records a global access or retires a CTA, in the SM phases that run on one host thread (not on the thread team of sim.host_threads, whose shares such lumps of work unbalance; a host-speed option: every statistic is identical either way; docs/ARCHITECTURE.md, per-SM windows)") \
    X(core, watchdog_cycles, U64, "1000000", 0, 18446744073709551615.0, "cycles", "no instruction issued and no memory progress for this long = deadlock report; 0 = off")

#define WS_CONFIG_CORE_SECTIONS(S) S(core, WS_CONFIG_CORE)

#endif
