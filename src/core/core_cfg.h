/* core_cfg.h - configuration keys of the SM pipeline ([core]) and the warp
 * schedulers ([sched]); rows of the parameter table in util/config.h.
 * X(section, key, type, default, min, max, unit, description).
 * Defaults are the GTX480 (Fermi) values; latencies and initiation intervals follow
 * GPGPU-Sim's published GTX480 configuration (ADD/MUL/MAD/DIV per class). */
#ifndef WS_CORE_CORE_CFG_H
#define WS_CORE_CORE_CFG_H

#define WS_CONFIG_CORE(X)                                                                        \
    X(core, model, STR, "fermi", 1, 63, "", "core model: the pipeline of one SM / CU (fermi)")   \
    X(core, scheduler, STR, "gto", 1, 63, "", "warp scheduling policy (warpsim list --scheds)")  \
    X(core, n_schedulers, UINT, "2", 1, 16, "", "warp schedulers per SM; warp w belongs to scheduler w mod n") \
    X(core, ibuf_entries, UINT, "2", 1, 16, "insts", "instruction buffer entries per warp")      \
    X(core, fetch_per_cycle, UINT, "1", 1, 64, "warps", "warps whose instruction buffer is filled per cycle") \
    X(core, regs_per_thread, UINT, "0", 0, 65536, "registers", "registers per thread for occupancy; 0 = estimate from the PTX (liveness)") \
    X(core, n_sp, UINT, "2", 0, 64, "units", "SP (integer/fp32) pipelines")                      \
    X(core, n_sfu, UINT, "1", 0, 64, "units", "SFU pipelines")                                  \
    X(core, n_dp, UINT, "1", 0, 64, "units", "double-precision pipelines")                      \
    X(core, n_ldst, UINT, "1", 1, 64, "units", "LD/ST pipelines")                               \
    X(core, n_int, UINT, "0", 0, 64, "units", "separate integer pipelines (Volta-style); 0 = integer instructions use the SP pipelines (Fermi)") \
    X(core, rf_banks, UINT, "0", 0, 64, "banks", "register-file banks the operand collector reads from; sources in one bank serialise (extra cycles); 0 = not modelled") \
    X(core, lat_alu, UINT, "4", 1, 10000, "cycles", "latency: integer add/logic/move/compare")   \
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
    X(core, lat_sfu, UINT, "20", 1, 10000, "cycles", "latency: SFU (rcp, sqrt, sin, ex2 ...)")   \
    X(core, ii_sfu, UINT, "8", 1, 10000, "cycles", "initiation interval: SFU (4 lanes x 8 cycles per warp)") \
    X(core, lat_shared, UINT, "24", 1, 10000, "cycles", "latency: shared memory access without bank conflicts") \
    X(core, shared_banks, UINT, "32", 1, 256, "banks", "shared memory banks (4 bytes wide)")     \
    X(core, lat_const, UINT, "8", 1, 10000, "cycles", "latency: call-site .param access; constant-cache hit in the simple memory model")       \
    X(core, lat_branch, UINT, "4", 1, 10000, "cycles", "latency: branch / control instruction")  \
    X(core, ldst_queue, UINT, "8", 1, 4096, "requests", "a memory instruction issues only while the LD/ST queue toward the L1D holds fewer requests") \
    X(core, skip_idle, BOOL, "true", 0, 0, "", "skip cycles in which nothing can change and let waiting SMs sleep (statistics are identical either way)") \
    X(core, watchdog_cycles, U64, "1000000", 0, 18446744073709551615.0, "cycles", "no instruction issued and no memory progress for this long = deadlock report; 0 = off")

#define WS_CONFIG_SCHED(X)                                                                       \
    X(sched, two_level_active, UINT, "8", 1, 1024, "warps", "two-level: warps in the active set per scheduler") \
    X(sched, recency_bits, UINT, "6", 1, 16, "bits", "MOTRR+Recency: width of the saturating recency counter") \
    X(sched, recency_num, UINT, "1", 0, 1024, "", "MOTRR+Recency: R = 1 for num/den of the active warps (numerator)") \
    X(sched, recency_den, UINT, "2", 1, 1024, "", "MOTRR+Recency: denominator of that fraction") \
    X(sched, max_num_warp, UINT, "48", 1, 1024, "", "MOTRR+Recency: priority offset MAX_NUM_WARP of Algorithm 1") \
    X(sched, static_threshold, DBL, "1.0", 0, 1e9, "", "static-select: LRR when the PTX locality score (mean weighted accesses per block) is >= this") \
    X(sched, static_follow_derived, BOOL, "false", 0, 0, "", "static-select: accesses through pointers derived by add/sub/mad/mov/cvta count for the root pointer's block (false: each register value is its own block, as the seed)") \
    X(sched, static_global_only, BOOL, "false", 0, 0, "", "static-select: count .global accesses only (false: generic ones too)") \
    X(sched, static_shared, BOOL, "false", 0, 0, "", "static-select: count .shared accesses (they do not go through the L1D)") \
    X(sched, static_stores, BOOL, "true", 0, 0, "", "static-select: count stores as well as loads") \
    X(sched, static_other_spaces, BOOL, "false", 0, 0, "", "static-select: count .param/.const/.local accesses") \
    X(sched, static_atomics, BOOL, "false", 0, 0, "", "static-select: count atom/red (performed at L2)") \
    X(sched, static_guards, BOOL, "false", 0, 0, "", "static-select: a predicated (@p) access counts one more branch level") \
    X(sched, static_directives, BOOL, "true", 0, 0, "", "static-select: a .pol or .pragma warpsim.policy directive in the PTX overrides the analysis") \
    X(sched, lrr_quantum, UINT, "0", 0, 1000000, "cycles", "static-select: LRR time quantum (0 = plain LRR)")

#define WS_CONFIG_CORE_SECTIONS(S) S(core, WS_CONFIG_CORE) S(sched, WS_CONFIG_SCHED)

#endif
