/* mem_cfg.h - configuration keys of the memory system; rows of the parameter table
 * in util/config.h. X(section, key, type, default, min, max, unit, description). */
#ifndef WS_MEM_MEM_CFG_H
#define WS_MEM_MEM_CFG_H

#define WS_CONFIG_MEM(X)                                                                         \
    X(mem, model, STR, "simple", 1, 63, "", "memory model: simple (fixed latency, bandwidth limited) or detailed") \
    X(mem, simple_latency, UINT, "400", 1, 100000, "cycles", "simple model: core cycles from request to data") \
    X(mem, simple_bytes_per_cycle, UINT, "128", 1, 1000000, "bytes", "simple model: bytes per core cycle the memory accepts (all SMs together)") \
    X(mem, simple_l1_latency, UINT, "1", 0, 100000, "cycles", "simple model: extra cycles of an L1 instruction-cache access")

#define WS_CONFIG_MEM_SECTIONS(S) S(mem, WS_CONFIG_MEM)

#endif
