/* detailed.h - the "detailed" memory model (GPGPU-Sim class): per-SM L1 data,
 * instruction and constant caches with MSHRs and miss queues, a request and a reply
 * crossbar, and memory partitions of L2 bank(s) and a DRAM channel, each in its own
 * clock domain. docs/MEMORY.md describes the model and every parameter.
 * The registry (memsys.c) lists it; nothing here registers itself. */
#ifndef WS_MEM_DETAILED_H
#define WS_MEM_DETAILED_H

#include <stddef.h>

#include "mem/memsys.h"
#include "util/config.h"

extern const mem_model mem_model_detailed;

/* Checks the [l1d] [l1i] [l1c] [l2] [icnt] [dram] [addr] keys (names of policies,
 * cache geometries, buffer sizes against packet sizes ...): 0, or -1 with a message.
 * create() runs it too, and returns NULL (after printing the message on stderr) when
 * it fails, since mem_model.create has no error channel. */
int mem_detailed_check(const ws_config *cfg, char *err, size_t n);

/* Tests only: on, every cycle of every clock domain runs while anything is in flight,
 * instead of only the cycles the components' next-event bounds name. Results must not
 * change: that checks the bounds. m must be a "detailed" memsys. */
void mem_detailed_exhaustive(memsys *m, int on);

/* Tests only: how many times since create an SM was blocked instead of asked every
 * interconnect cycle for room in its full crossbar input (never while exhaustive). */
uint64_t mem_detailed_blocks(const memsys *m);
/* Tests only: how many times a request-crossbar port was set aside until a full L2 bank
 * made room for its head (det.req_stall; never while exhaustive). */
uint64_t mem_detailed_stalls(const memsys *m);

/* Tests only: how many times since create an L2 bank slept instead of being visited
 * every L2 cycle, by what it waited for: n[0] its refused input head (a fill or a
 * miss-queue pop), n[1] room in its reply queues, n[2] room in a DRAM queue (never
 * while exhaustive or with a directory protocol). */
void mem_detailed_sleeps(const memsys *m, uint64_t n[3]);

/* Tests only (coherence scenarios): SM sm's L1 data cache, and the L2 bank that holds
 * addr, with the set-index address that bank uses in *idx. */
struct cache;
struct cache *mem_detailed_l1d(memsys *m, uint32_t sm);
struct cache *mem_detailed_l2_of(memsys *m, uint64_t addr, uint64_t *idx);

#endif
