/* config_mem.h - configuration keys of the memory system: machine-description rows
 * of util/config.h (read by mem, core and gpu). A memory plug-in's own keys can move
 * into its file as a ws_cfg_table (see gpu/config.c).
 * X(section, key, type, default, min, max, unit, description).
 * Defaults of [l1d] ... [addr] are the GTX480 (Fermi) values of the detailed model;
 * docs/MEMORY.md gives the source or the reasoning of each. */
#ifndef WS_UTIL_CONFIG_MEM_H
#define WS_UTIL_CONFIG_MEM_H

#define WS_CONFIG_MEM(X)                                                                         \
    X(mem, model, STR, "detailed", 1, 63, "", "memory model: detailed (caches, MSHRs, crossbar, L2, DRAM) or simple (fixed latency, bandwidth limited)") \
    X(mem, protocol, STR, "nvidia", 1, 31, "", "coherence protocol of the detailed model's caches: nvidia (NVIDIA default, no coherence: write policies per access, l1d/l2 keys), si (AMD Southern Islands: GLC/SLC, write-through L1), moesi (directory at L2), nmoesi (MOESI + non-coherent N stores)") \
    X(mem, keep_state, BOOL, "true", 0, 0, "", "detailed model: caches, DRAM and crossbar keep their state from one kernel launch to the next (a GPU and GPGPU-Sim do); false: every launch starts cold") \
    X(mem, trace_l1d, STR, "", 0, 255, "", "detailed model: append every L1D access attempt of SM mem.trace_sm to this file, one line each (cycle, warp, line address, outcome, kind; tools/l1trace.py reads it); empty = off") \
    X(mem, trace_sm, UINT, "0", 0, 65535, "", "the SM whose L1D accesses mem.trace_l1d records") \
    X(mem, l2_ahead, BOOL, "true", 0, 0, "", "detailed model: the L2 banks and DRAM channels run up to the L2 pipeline's depth (l2.pipeline) of cycles at a time, ahead of the crossbar, when nothing the crossbar still has to do can reach them (a host mechanism: every statistic is the same without it; not with a directory protocol, mem.trace_l1d or instruction budgets; with host_threads > 1 the partitions then tick on the calling thread, the SMs on the team; a cycle budget caps the runs)") \
    X(mem, l2_thread, BOOL, "true", 0, 0, "", "detailed model, with mem.l2_ahead and sim.host_threads >= 2: one of the host threads runs the L2 banks' and DRAM channels' runs ahead of the crossbar, while the calling thread runs the crossbar (its reply side too, unless mem.l2_thread_reply gives that to the partition thread), and the SMs share the others (a host mechanism: every statistic is the same without it; false: every host thread simulates SMs)") \
    X(mem, l2_thread_reply, ENUM, "auto", 0, 0, "", "detailed model, with the partition thread (mem.l2_thread): who runs the reply side of the crossbar (the pops at the SMs, the injections from the L2 banks' reply queues, the arbitration) during its runs: thread (the partition thread, taking work off the calling thread, which bounds the memory-bound kernels), caller (the calling thread, for kernels the partition thread bounds), or auto: chosen per 256 runs from the last 256 runs' host times (the calling thread waiting over 15 % of the time for the partition thread gives it to the caller; the partition thread busy under 55 % while the caller waits under 5 % gives it to the thread; host_l2_thread_reply_runs counts the runs with it). A host mechanism: every statistic is the same either way")

/* Detailed model: one L1 data, instruction and constant cache per SM. */
#define WS_CONFIG_L1D(X)                                                                         \
    X(l1d, size, UINT, "16384", 1, 1073741824, "bytes", "L1 data cache capacity per SM (sets = size / (ways x line))") \
    X(l1d, ways, UINT, "4", 1, 64, "ways", "L1 data cache associativity") \
    X(l1d, line, UINT, "128", 4, 4096, "bytes", "L1 data cache line size") \
    X(l1d, sector, UINT, "128", 4, 4096, "bytes", "L1 data cache sector size; < line: a miss fetches only the missing sectors") \
    X(l1d, repl, STR, "lru", 1, 31, "", "L1 data cache replacement policy: lru, fifo or random") \
    X(l1d, set_index, STR, "fermi-hash", 1, 31, "", "L1 data cache set-index function: linear (line number mod sets), fermi-hash (Fermi L1D hash, 32/64 sets of 128 B) or xor (line number XOR-folded)") \
    X(l1d, flush_at_exit, BOOL, "true", 0, 0, "", "invalidate every SM's L1D when a kernel finishes (GPGPU-Sim -gpgpu_flush_l1_cache; with mem.keep_state)") \
    X(l1d, latency, UINT, "35", 1, 100000, "cycles", "L1 data cache hit latency (core cycles; a miss leaves for L2 after the same time)") \
    X(l1d, latency_queue, BOOL, "true", 0, 0, "", "Fermi SM, detailed memory, one L1D port: the L1D latency is a FIFO of `latency` accesses before the tag lookup (GPGPU-Sim's l1_latency_queue): an access enters it when the LD/ST unit sends it (one per cycle, while fewer than `latency` wait), is looked up `latency` - 1 cycles later, oldest first, and answered 1 cycle after the lookup; a refused lookup waits at the head; with REOD queues (`l1d.request_queues` > 0) the oldest access, when due, moves into its set's queue instead and REOD's selector looks one up per cycle. false: the tags are looked up when the LD/ST unit sends the access, a refusal blocks the LD/ST unit, and the cache answers `latency` cycles later") \
    X(l1d, ports, UINT, "1", 1, 64, "accesses", "L1 data cache accesses per core cycle; more wait for the next cycle") \
    X(l1d, mshr_entries, UINT, "64", 1, 65536, "entries", "L1 data cache MSHR entries (outstanding missed lines)") \
    X(l1d, mshr_merges, UINT, "8", 1, 65535, "requests", "L1 data cache requests per MSHR entry, the first included") \
    X(l1d, coalesce, BOOL, "true", 0, 0, "", "second coalescer inside the L1D: a request for a line whose fill is pending joins its MSHR entry (up to mshr_merges requests, from any warp/wavefront); false: it holds an MSHR entry of its own while it waits for that fill (a delayed hit) [seed 004 sec. 6.3.2: proposed, merging same-line accesses of different wavefronts]") \
    X(l1d, mshr_policy, STR, "fixed", 1, 15, "", "L1D MSHR limit: fixed (all mshr_entries usable) or adaptive (usable entries tuned at run time from observed fill latency and occupancy, docs/MEMORY.md 4)") \
    X(l1d, miss_queue, UINT, "8", 2, 65536, "requests", "L1 data cache miss queue toward the interconnect") \
    X(l1d, global_store, STR, "through", 1, 15, "", "L1D policy for global stores: evict (invalidate the line, write to L2), through or back") \
    X(l1d, local_store, STR, "back", 1, 15, "", "L1D policy for local-memory stores: back (write-back), through or evict") \
    X(l1d, write_alloc, STR, "lazy", 1, 15, "", "L1D write-back store miss: lazy (allocate, no fetch; per-byte dirty mask), fetch (fetch-on-write) or none") \
    X(l1d, request_queues, UINT, "0", 0, 4096, "queues", "REOD: per-set request queues between the LD/ST unit and the L1D; 0 = baseline single FIFO (head-of-line blocking)") \
    X(l1d, queue_depth, UINT, "4", 1, 4096, "requests", "REOD: entries per request queue; a request waits when its queue is full") \
    X(l1d, sets_per_queue, UINT, "0", 0, 65536, "sets", "REOD: consecutive sets per queue; 0 = set index modulo the queue count")

#define WS_CONFIG_L1I(X)                                                                         \
    X(l1i, size, UINT, "2048", 1, 1073741824, "bytes", "L1 instruction cache capacity per SM") \
    X(l1i, ways, UINT, "4", 1, 64, "ways", "L1 instruction cache associativity") \
    X(l1i, line, UINT, "128", 4, 4096, "bytes", "L1 instruction cache line size") \
    X(l1i, sector, UINT, "128", 4, 4096, "bytes", "L1 instruction cache sector size (= line: not sectored)") \
    X(l1i, repl, STR, "lru", 1, 31, "", "L1 instruction cache replacement policy: lru, fifo or random") \
    X(l1i, set_index, STR, "linear", 1, 31, "", "L1 instruction cache set-index function: linear (line number mod sets), fermi-hash (Fermi L1D hash, 32/64 sets of 128 B) or xor (line number XOR-folded)") \
    X(l1i, latency, UINT, "1", 1, 100000, "cycles", "L1 instruction cache hit latency (core cycles)") \
    X(l1i, ports, UINT, "1", 1, 64, "accesses", "L1 instruction cache accesses per core cycle") \
    X(l1i, mshr_entries, UINT, "2", 1, 65536, "entries", "L1 instruction cache MSHR entries") \
    X(l1i, mshr_merges, UINT, "32", 1, 65535, "requests", "L1 instruction cache requests per MSHR entry") \
    X(l1i, miss_queue, UINT, "4", 2, 65536, "requests", "L1 instruction cache miss queue toward the interconnect") \
    X(l1i, shared_by, UINT, "1", 1, 64, "SMs", "SMs (CUs) sharing one L1 instruction cache: SM s uses the cache of group s / shared_by, whose port(s) the group's requests contend for [seed 004 sec. 4.1.1: one 32 KB L1I per 4 CUs]")

#define WS_CONFIG_L1C(X)                                                                         \
    X(l1c, size, UINT, "8192", 1, 1073741824, "bytes", "L1 constant cache capacity per SM") \
    X(l1c, ways, UINT, "2", 1, 64, "ways", "L1 constant cache associativity") \
    X(l1c, line, UINT, "64", 4, 4096, "bytes", "L1 constant cache line size") \
    X(l1c, sector, UINT, "64", 4, 4096, "bytes", "L1 constant cache sector size (= line: not sectored)") \
    X(l1c, repl, STR, "lru", 1, 31, "", "L1 constant cache replacement policy: lru, fifo or random") \
    X(l1c, set_index, STR, "linear", 1, 31, "", "L1 constant cache set-index function: linear (line number mod sets), fermi-hash (Fermi L1D hash, 32/64 sets of 128 B) or xor (line number XOR-folded)") \
    X(l1c, latency, UINT, "1", 1, 100000, "cycles", "L1 constant cache hit latency (core cycles)") \
    X(l1c, ports, UINT, "1", 1, 64, "accesses", "L1 constant cache accesses per core cycle") \
    X(l1c, mshr_entries, UINT, "2", 1, 65536, "entries", "L1 constant cache MSHR entries") \
    X(l1c, mshr_merges, UINT, "32", 1, 65535, "requests", "L1 constant cache requests per MSHR entry") \
    X(l1c, miss_queue, UINT, "4", 2, 65536, "requests", "L1 constant cache miss queue toward the interconnect") \
    X(l1c, shared_by, UINT, "1", 1, 64, "SMs", "SMs (CUs) sharing one L1 constant (scalar) cache: SM s uses the cache of group s / shared_by, whose port(s) the group's requests contend for [seed 004 sec. 4.1.2, 5.2: one 16 KB scalar cache per 4 CUs]")

/* One L2 bank (or l2.banks banks) per memory partition. */
#define WS_CONFIG_L2(X)                                                                          \
    X(l2, size, UINT, "65536", 1, 1073741824, "bytes", "capacity of one L2 bank (GTX480: 6 partitions x 1 bank x 128 KB = 768 KB)") \
    X(l2, banks, UINT, "2", 1, 64, "banks", "L2 banks per memory partition (lines interleaved over them)") \
    X(l2, ways, UINT, "8", 1, 64, "ways", "L2 associativity") \
    X(l2, line, UINT, "128", 4, 4096, "bytes", "L2 line size") \
    X(l2, sector, UINT, "32", 4, 4096, "bytes", "L2 sector size; < line: a miss fetches only the missing sectors") \
    X(l2, repl, STR, "lru", 1, 31, "", "L2 replacement policy: lru, fifo or random") \
    X(l2, set_index, STR, "linear", 1, 31, "", "L2 set-index function: linear (line number mod sets), fermi-hash (Fermi L1D hash, 32/64 sets of 128 B) or xor (line number XOR-folded)") \
    X(l2, fill_on_copy, BOOL, "true", 0, 0, "", "a host-to-device copy installs its lines in the L2, clean (GPGPU-Sim -gpgpu_perf_sim_memcpy 1; with mem.keep_state)") \
    X(l2, sector_requests, BOOL, "true", 0, 0, "", "a sectored L2 serves a request sector by sector: it holds the bank's port one L2 cycle per L2 sector the request covers, and each missing sector goes to DRAM as its own column command of one whole burst (GPGPU-Sim's sectored L2: memory_sub_partition::breakdown_request_to_sector_requests); false: one port cycle and one DRAM transfer of the missing sectors' bytes per request") \
    X(l2, pipeline, UINT, "120", 0, 100000, "cycles", "L2 cycles from a request's arrival at its partition to its tag lookup (the ROP pipeline; every request pays it)") \
    X(l2, latency, UINT, "1", 1, 100000, "cycles", "L2 hit latency (L2 cycles, tag lookup to data); a miss leaves for DRAM after the same time") \
    X(l2, ports, UINT, "1", 1, 64, "accesses", "L2 accesses per L2 cycle per bank") \
    X(l2, mshr_entries, UINT, "256", 1, 65536, "entries", "L2 MSHR entries per bank (cover the DRAM bandwidth-delay product)") \
    X(l2, mshr_merges, UINT, "4", 1, 65535, "requests", "L2 requests per MSHR entry, the first included") \
    X(l2, coalesce, BOOL, "true", 0, 0, "", "coalescing at L2: a request for a line whose DRAM fill is pending joins its MSHR entry (up to mshr_merges, from any L1); false: it holds an L2 MSHR entry of its own while it waits for that fill (a delayed hit) [seed 004 sec. 6.3.2]") \
    X(l2, miss_queue, UINT, "4", 2, 65536, "requests", "L2 miss queue toward DRAM, per bank") \
    X(l2, store, STR, "back", 1, 15, "", "L2 write policy: back (write-back), through or evict") \
    X(l2, write_alloc, STR, "lazy", 1, 15, "", "L2 write-back miss: lazy (allocate, no fetch; per-byte dirty mask), fetch or none") \
    X(l2, in_queue, UINT, "64", 1, 65536, "requests", "requests through the L2 pipeline waiting for their bank; when full, the interconnect holds the next") \
    X(l2, out_queue, UINT, "64", 1, 65536, "replies", "replies of an L2 bank waiting for the interconnect; a full queue stalls the bank") \
    X(l2, atomic_latency, UINT, "4", 0, 100000, "cycles", "extra L2 cycles of an atomic performed at L2 (its ALU)") \
    X(l2, mhz, UINT, "700", 1, 100000, "MHz", "L2 clock")

#define WS_CONFIG_ICNT(X)                                                                        \
    X(icnt, port_per_bank, BOOL, "true", 0, 0, "", "each L2 bank has its own crossbar port (GPGPU-Sim: one per sub-partition); false: the banks of a partition share one") \
    X(icnt, mhz, UINT, "700", 1, 100000, "MHz", "interconnect clock") \
    X(icnt, flit, UINT, "40", 1, 4096, "bytes", "flit size: bytes a port moves per interconnect cycle") \
    X(icnt, header, UINT, "8", 0, 4096, "bytes", "control bytes of every packet (address, type ...), on top of its data") \
    X(icnt, latency, UINT, "2", 0, 100000, "cycles", "interconnect cycles from the grant of a packet to its head flit at the output") \
    X(icnt, in_buf, UINT, "64", 1, 65536, "flits", "input buffer per port (at least the largest packet)") \
    X(icnt, out_buf, UINT, "64", 1, 65536, "flits", "output buffer per port (at least the largest packet)")

#define WS_CONFIG_DRAM(X)                                                                        \
    X(dram, channels, UINT, "6", 1, 1024, "channels", "memory partitions = DRAM channels (bus width per channel = gpu.mem_bus_bits / channels; clock gpu.mem_mhz)") \
    X(dram, channels_per_l2, UINT, "1", 1, 64, "channels", "DRAM channels behind each L2 partition (a multi-channel memory controller): partitions = channels / channels_per_l2, the address map still picks the channel [seed 004 sec. 5.2, 6.2: each L2 module has a dual-channel controller]") \
    X(dram, banks, UINT, "16", 1, 64, "banks", "banks per channel") \
    X(dram, row_bytes, UINT, "4096", 64, 1073741824, "bytes", "row (page) size of a channel: bytes one ACT opens") \
    X(dram, queue, UINT, "64", 1, 65536, "requests", "scheduler queue per channel") \
    X(dram, sched, STR, "frfcfs", 1, 15, "", "scheduler: frfcfs (row hits first, then oldest) or fifo") \
    X(dram, beats_per_clk, UINT, "4", 1, 16, "beats", "data transfers per command clock (DDR 2, GDDR5 4)") \
    X(dram, burst, UINT, "8", 1, 64, "beats", "burst length") \
    X(dram, latency, UINT, "132", 0, 1000000, "cycles", "fixed DRAM cycles added to every read return (controller, PHY, return path)") \
    X(dram, tccd, UINT, "2", 1, 1000, "cycles", "tCCD: column command to column command") \
    X(dram, bank_groups, UINT, "4", 1, 64, "groups", "bank groups per channel (GDDR5 / DDR4): bank k is in group k mod bank_groups; 1 = none (a power of two dividing dram.banks)") \
    X(dram, tccdl, UINT, "3", 0, 1000, "cycles", "tCCDL: column command to column command in the same bank group (with dram.bank_groups > 1; below tCCD counts as tCCD)") \
    X(dram, trrd, UINT, "6", 0, 1000, "cycles", "tRRD: ACT to ACT, different banks") \
    X(dram, trcd, UINT, "12", 0, 1000, "cycles", "tRCD: ACT to RD/WR") \
    X(dram, tras, UINT, "28", 0, 1000, "cycles", "tRAS: ACT to PRE") \
    X(dram, trp, UINT, "12", 0, 1000, "cycles", "tRP: PRE to ACT") \
    X(dram, trc, UINT, "40", 0, 1000, "cycles", "tRC: ACT to ACT, same bank") \
    X(dram, tcl, UINT, "12", 1, 1000, "cycles", "tCL: RD to first read data") \
    X(dram, twl, UINT, "4", 0, 1000, "cycles", "tWL: WR to first write data") \
    X(dram, twr, UINT, "12", 0, 1000, "cycles", "tWR: end of write data to PRE") \
    X(dram, trtw, UINT, "2", 0, 1000, "cycles", "tRTW: end of read data to start of write data (bus turnaround)") \
    X(dram, twtr, UINT, "5", 0, 1000, "cycles", "tWTR: end of write data to RD") \
    X(dram, refresh, BOOL, "false", 0, 1, "", "model refresh (every tREFI cycles all banks precharge and refresh for tRFC)") \
    X(dram, trefi, UINT, "3604", 1, 10000000, "cycles", "tREFI: refresh interval (3.9 us)") \
    X(dram, trfc, UINT, "60", 1, 100000, "cycles", "tRFC: refresh duration")

#define WS_CONFIG_ADDR(X)                                                                        \
    X(addr, map, STR, "linear", 1, 31, "", "address mapping to partitions: linear (chunks round-robin) or superblock (SPEC 6 quadrants)") \
    X(addr, chunk, UINT, "256", 1, 1073741824, "bytes", "interleaving granularity across partitions") \
    X(addr, bank_xor, BOOL, "false", 0, 1, "", "XOR the bank index with the low row bits (spreads row conflicts)") \
    X(addr, local_bits, STR, "0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS", 0, 127, "", "bank, row and column from bits of the partition-local address, GPGPU-Sim's -gpgpu_mem_addr_mapping letters, high bit first: B bank, C/S column, R/0 row ('.' ignored; bits above are row bits); empty: column = local mod dram.row_bytes, then bank, then row")

#define WS_CONFIG_MEM_SECTIONS(S) S(mem, WS_CONFIG_MEM) S(l1d, WS_CONFIG_L1D) S(l1i, WS_CONFIG_L1I) \
    S(l1c, WS_CONFIG_L1C) S(l2, WS_CONFIG_L2) S(icnt, WS_CONFIG_ICNT) S(dram, WS_CONFIG_DRAM)      \
    S(addr, WS_CONFIG_ADDR)

#endif
