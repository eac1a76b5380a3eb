/* legacy_cfg.h - the configuration the hand-derived timing tests were worked out for:
 * the defaults before the GTX480 calibration against GPGPU-Sim 4.2 (docs/VALIDATION.md),
 * which changed latencies, queues, the L1D set index and kept caches across launches.
 * Tests that derive cycle counts by hand for that configuration start from it, so that
 * they keep testing the mechanisms, not the preset. */
#ifndef WS_TEST_LEGACY_CFG_H
#define WS_TEST_LEGACY_CFG_H

#include <stdio.h>
#include <stdlib.h>

#include "gpu/config.h"

#define WS_LEGACY_CFG "core.mem_inst_queue=0,core.lat_branch=4,core.lat_move=4,core.lat_pipeline=0,core.lat_sfu=20,core.lat_shared=24,core.n_dp=1,core.rf_banks=0,dram.latency=400,dram.queue=32,icnt.flit=32,icnt.in_buf=16,icnt.latency=16,icnt.mhz=1400,icnt.out_buf=16,icnt.port_per_bank=false,l1c.mshr_entries=8,l1c.mshr_merges=8,l1d.global_store=evict,l1d.latency=1,l1d.latency_queue=false,l1d.mshr_entries=32,l1d.set_index=linear,l1i.mshr_entries=8,l1i.mshr_merges=8,l2.banks=1,l2.in_queue=8,l2.latency=10,l2.miss_queue=8,l2.mshr_entries=128,l2.out_queue=8,l2.pipeline=80,l2.sector=128,l2.sector_requests=false,l2.size=131072,mem.keep_state=false"

static inline void legacy_cfg(ws_config *c)
{
    char err[256];
    if (ws_config_set(c, WS_LEGACY_CFG, err, sizeof err)) {
        fprintf(stderr, "legacy_cfg: %s\n", err);
        abort();
    }
}

#endif
