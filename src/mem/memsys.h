/* memsys.h - the memory system as the SMs see it.
 *
 * The SM's LD/ST unit coalesces a warp instruction's accesses into mem_req objects
 * (one per touched line or sector) and offers them to its L1 data cache with
 * memsys_access(). The cache either accepts the request (hit or miss; the request
 * comes back through memsys_pop_done() when its data is available) or refuses it
 * for this cycle with a reservation-fail cause (SPEC section 1): CSF, MSHRF, MQF.
 * memsys_probe() answers the same question without side effects, which is what
 * REOD's selector (SPEC section 5) needs to skip a request that would stall.
 *
 * Instruction fetch goes through the same interface with kind MR_IFETCH (L1I).
 *
 * Implementations are plug-ins (mem_model): "simple" (fixed latency, bandwidth
 * limited: the stand-in of the timing model's first version) and "detailed" (L1
 * caches with MSHRs, crossbar, L2 banks, DRAM channels). Each is one file; both are
 * registered in memsys.c.
 *
 * Time: every call takes the caller's core cycle; the memory system keeps its own
 * clock domains (interconnect, L2, DRAM) and advances them in memsys_tick().
 */
#ifndef WS_MEM_MEMSYS_H
#define WS_MEM_MEMSYS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "ptx/ir.h"

typedef enum { MR_LOAD, MR_STORE, MR_ATOMIC, MR_IFETCH } mem_kind;

/* Outcome of an access attempt. */
typedef enum {
    MA_HIT = 0,       /* accepted, hit: done after the hit latency             */
    MA_MISS,          /* accepted, miss: done when the fill returns            */
    MA_MERGED,        /* accepted, merged into an outstanding miss (MSHR)      */
    MA_BYPASS,        /* accepted, sent below without allocating (st, .cg ...) */
    MA_CSF,           /* refused: every line of the set reserved               */
    MA_MSHRF,         /* refused: no MSHR entry, or no merge slot in it        */
    MA_MQF,           /* refused: miss queue toward the interconnect full      */
    MA__COUNT
} mem_access;

static inline int mem_access_refused(mem_access a) { return a >= MA_CSF; }

/* Kinds of message the memory system moves (mem_req.msg, icnt_msg.kind). An SM only
 * issues requests; the others belong to the caches and the coherence protocol
 * (mem/coh.h): responses carry data back, acknowledgements carry none (a write's
 * completion), write-backs carry dirty bytes down, invalidations and forwards go from a
 * directory to the L1s that hold a line. */
typedef enum {
    MSG_REQUEST = 0, MSG_RESPONSE, MSG_INVALIDATE, MSG_FORWARD, MSG_ACK, MSG_WRITEBACK,
    MSG__COUNT,
    MSG_NONE = 255    /* "no message" where a hook may send one                        */
} mem_msg;
extern const char *const mem_msg_name[MSG__COUNT];

typedef struct mem_req mem_req;
struct mem_req {
    uint64_t addr;        /* byte address in the global address space            */
    uint32_t size;        /* bytes of the request (line or sector)               */
    uint32_t bytes_used;  /* bytes the lanes asked for (coalescing efficiency)   */
    uint8_t kind;         /* mem_kind                                             */
    uint8_t space;        /* ptx_space: GLOBAL, LOCAL, CONST, PARAM (ifetch: NONE) */
    uint8_t cop;          /* ptx_cacheop (.ca .cg .cs .cv .wb .wt)                */
    uint8_t msg;          /* mem_msg: MSG_REQUEST for everything an SM issues     */
    uint32_t sm;          /* issuing SM                                          */
    uint32_t warp;        /* warp slot in the SM                                 */
    uint32_t tag;         /* the SM's own tag (its in-flight instruction)        */
    uint64_t t_issue;     /* core cycle the request entered the memory system    */
    uint64_t t_done;      /* core cycle its data is available (set by memsys)    */
    mem_req *next;        /* intrusive list link, owned by whoever holds it      */
};

typedef struct memsys memsys;
struct ws_cfg_table;

/* The launched kernel, as a memory model's on_launch sees it. */
typedef struct {
    const ptx_module *m;
    const ptx_func *kernel;
} mem_kernel;

/* Per-implementation table. */
typedef struct {
    const char *name;
    const char *desc;
    memsys *(*create)(const void *cfg /* const ws_config * */, uint32_t n_sm);
    void (*destroy)(memsys *m);
    mem_access (*access)(memsys *m, mem_req *r, uint64_t cycle);
    mem_access (*probe)(const memsys *m, const mem_req *r, uint64_t cycle);
    mem_req *(*pop_done)(memsys *m, uint32_t sm, uint64_t cycle);
    /* Advances everything below the L1s to core cycle `cycle`; returns nonzero
     * when something changed (progress, for the deadlock watchdog). */
    int (*tick)(memsys *m, uint64_t cycle);
    /* Earliest core cycle > cycle at which anything can happen (for skipping idle
     * cycles), or UINT64_MAX when nothing is in flight. */
    uint64_t (*next_event)(const memsys *m, uint64_t cycle);
    int (*busy)(const memsys *m);                 /* requests in flight       */
    void (*stats_json)(const memsys *m, cJSON *obj);
    void (*dump)(const memsys *m, FILE *f);       /* state, for deadlock reports */
    /* Optional: earliest core cycle > cycle at which a response for SM `sm` can
     * be popped (UINT64_MAX: none in flight). NULL: next_event() bounds it. Lets an
     * SM that only waits for memory sleep instead of being ticked every cycle. */
    uint64_t (*next_event_sm)(const memsys *m, uint32_t sm, uint64_t cycle);
    /* Optional: checks the model's own configuration keys before a launch (names of
     * plug-ins, geometries ...): 0, or -1 with a message. NULL: nothing to check.
     * create() may assume it passed. */
    int (*check)(const void *cfg /* const ws_config * */, char *err, size_t n);
    /* Its own configuration rows and parameter struct (section [mem], declared in its
     * file; gpu/config.c puts them in the schema after [mem]); NULL: none. */
    const struct ws_cfg_table *params;
    /* Optional: once per launch, right after create() and before any access: the
     * model's own parameters (a struct of the layout `params` describes, NULL when it
     * has none) and the launched kernel. 0, or -1 with a message in err. */
    int (*on_launch)(memsys *m, const void *params, const mem_kernel *k, char *err, size_t n);
    /* Optional, for a memory system kept from one launch to the next (mem.keep_state):
     * launch_begin restarts the statistics at core cycle `cycle` (stats_json then covers
     * this launch only); launch_end is called once the launch has drained (the L1D flush
     * at kernel end). NULL: the model is created for every launch. */
    void (*launch_begin)(memsys *m, uint64_t cycle);
    void (*launch_end)(memsys *m, uint64_t cycle);
    /* Optional: the host wrote bytes [addr, addr + n) of device memory (a host-to-device
     * copy, outside simulated time); the model may install them in its caches. */
    void (*host_write)(memsys *m, uint64_t addr, uint64_t n);
    /* Optional, for the parallel timing simulation (sim.host_threads, gpu/timing.c):
     * during the SM phase of a core cycle, access / probe / pop_done / next_event_sm of
     * SM s, called from the host thread that runs s, touch only the state of s and of the
     * SMs that share an L1 with it (they run on the same thread); whatever they would
     * change in state shared with other SMs waits in per-SM records until commit, which
     * the GPU calls after the SM phase in SM order (one thread) for every SM whose cycle
     * ran in it, the SMs before it that share an L1 with it (an access to a shared L1
     * may defer its changes to the SM that owns it) and the last SM (its call ends the
     * phase); an SM none of whose calls ran in the phase has nothing to commit, and its
     * commit must change nothing and return 0. Returns
     * nonzero when committing SM sm changed what next_event_sm answers for SM sm or
     * higher SMs (the GPU then asks again for those that went to sleep in this cycle:
     * so each sees what a serial run's SMs saw, the changes of the SMs before it and its
     * own). NULL: nothing is deferred. tick() commits what a caller left uncommitted. */
    int (*commit)(memsys *m, uint32_t sm, uint64_t cycle);
    /* Optional, with commit: next_event_sm's answer for SM sm again, right after the
     * commit of SM sm when commits changed it: from what SM sm's own side of the memory
     * system was when next_event_sm was last asked in this SM phase (later SMs sharing
     * an L1 with it may have changed that since) and the shared state as committed now.
     * NULL: next_event_sm itself (a model whose answer for sm reads nothing that other
     * SMs change in the SM phase). */
    uint64_t (*next_event_sm_late)(const memsys *m, uint32_t sm, uint64_t cycle);
    /* Optional, with commit: tick in three steps, so that the memory partitions run in
     * the parallel phase with the SMs (docs/ARCHITECTURE.md, "Parallel simulation").
     * par_parts: the number of partitions when the model can split its ticks (its
     * clocks allow it), else 0 (or NULL): tick then. tick_serial(cycle, &parts, &n):
     * the serial part, before the SM phase (the SMs' next_event_sm may then read what it
     * left), and parts[0 .. n), the partitions with work (valid until tick_join);
     * tick_part(p, cycle) for each of them, once, on any threads, in the parallel phase
     * beside the SMs' cycles: partition p's work, which touches nothing an SM or another
     * partition reads or writes in that phase; tick_join(cycle) after the
     * phase, before the commits: bit 0 set when anything changed (tick's return), bit 1
     * when next_event_sm's shared terms changed since tick_serial (the GPU then asks
     * again, with next_event_sm_late, for every SM that went to sleep). tick_serial may
     * do the whole tick itself (a cycle the split does not cover): tick_part and
     * tick_join then do nothing. The results are those of tick. */
    uint32_t (*par_parts)(const memsys *m);
    int (*tick_serial)(memsys *m, uint64_t cycle, const uint32_t **parts, uint32_t *n);
    void (*tick_part)(memsys *m, uint32_t p, uint64_t cycle);
    int (*tick_join)(memsys *m, uint64_t cycle);
    /* Optional: SM sm slept after its cycle `last` (which returned 0) and is due again at
     * `cycle` with nothing of its own due (core_model.h: the cycle would repeat `last`'s).
     * When nothing changed for it in the memory system since `last` either (no response
     * to pop, every L1 it was refused by in `last` unchanged), returns
     * next_event_sm(sm, cycle) (> cycle): the GPU then skips the SM's cycle (its
     * statistics, the refusals included, count it as a repeat: repeat_stats) and sleeps
     * it again. Else 0. Changes nothing. Called where access is (the SM phase, the thread
     * that runs sm). NULL: never. */
    uint64_t (*repeat)(memsys *m, uint32_t sm, uint64_t last, uint64_t cycle);
    /* Optional: the n cycles of SM sm after its cycle `last` (which returned 0) up to the
     * one it runs now were repeats of `last` (it slept, or repeat skipped them): counts
     * the memory system's side of them, the refusals of `last` n times more, as the
     * retries of a GPU that ran every cycle would (core.skip_idle=false: every statistic
     * is the same either way). Called where access is, right before SM sm's cycle, like
     * core_model.h repeat_cycle_stats. NULL: nothing to count. */
    void (*repeat_stats)(memsys *m, uint32_t sm, uint64_t last, uint64_t n);
    /* Optional, for SM windows (core.sm_windows, gpu/timing.c): right after a cycle of
     * SM sm (the memory system ticked up to core cycle `cycle`, the SM maybe further),
     * the last core cycle through which it is alone, 0 when it is not: nothing of it
     * waits to leave its L1s (no miss record or acknowledgement to send, nothing for its
     * commit but counts), nothing reaches it unasked (its L1s are its own, no directory
     * messages, no trace of its accesses), and no answer to a request of it can reach it
     * up to that cycle (UINT64_MAX: none is awaited). Then the ticks of the cycles up to
     * it change nothing the SM reads and read nothing it does until a cycle of it sends
     * a request out of an L1, so the GPU may run its next cycles at once, each with this
     * call after it, the last one being the first that is not alone. Called where access
     * is. NULL: never alone. */
    uint64_t (*sm_alone)(const memsys *m, uint32_t sm, uint64_t cycle);
    /* Optional: after launch_begin (or create), the last core cycle the GPU will tick in
     * this launch (a cycle budget: sim.max_cycles), UINT64_MAX when it is not known
     * beforehand. A model that runs parts of itself ahead of its ticks (detailed.c,
     * mem.l2_ahead) runs nothing beyond it, so that the statistics at the stop are the
     * ones without running ahead. NULL: the model never runs ahead. */
    void (*horizon)(memsys *m, uint64_t last);
    /* Optional: host threads of its own the model runs (detailed.c's partition thread,
     * mem.l2_thread), which the GPU leaves out of the SMs' (sim.host_threads). NULL:
     * none. */
    uint32_t (*host_threads)(const memsys *m);
    /* Optional, with host_threads: whether the model may use its threads from its next
     * tick on (the GPU's adaptive choice gives the SMs the host's cores at times: a
     * thread not in use sleeps). Results are the same either way. */
    void (*host_threads_use)(memsys *m, int on);
    /* Optional, with host_threads: a share of the GPU's SM phase for the model's thread to
     * run between its own steps while it is in use (the SMs' phase on the calling thread
     * and the model's: gpu/timing.c TIMING_BOTH). side_post hands fn(ctx, k) over and
     * returns its ticket, or 0 when no thread of the model can take it (not in use,
     * asleep: the caller runs it); side_end(ticket), called once by the same thread
     * after its own share, returns when fn has returned, having run it itself if the
     * model's thread had not begun it. What the caller wrote before side_post is
     * visible to fn, and what fn wrote to the caller after side_end. */
    uint64_t (*side_post)(memsys *m, void (*fn)(void *ctx, uint32_t k), void *ctx, uint32_t k);
    void (*side_end)(memsys *m, uint64_t ticket);
} mem_model;

/* Registry of memory models by exact name ("simple", "detailed"). */
const mem_model *mem_model_find(const char *name);
const mem_model *mem_model_at(size_t i);
/* "simple, detailed": the registered names, for error messages. */
void mem_model_known(char *buf, size_t n);

/* Every model's memsys starts with this header so callers can dispatch. */
struct memsys {
    const mem_model *ops;
    /* The SMs roused (bit i: SM i; NULL: the model rouses none): asleep until a time
     * next_event_sm gave, but due at once since the model set the bit (an answer that
     * left out changes only the model's tick or commit makes, and whose time it cannot
     * know: detailed.c, a blocked injection, a reply granted). The GPU reads and clears
     * the bits after each tick, before the SM phase (a bit of an SM not asleep means
     * nothing). */
    uint64_t *roused;
    /* Optional (NULL: none): pop_done's fast path, read inline before its indirect call
     * (the SM asks every cycle, and usually nothing is due). SM s (s < pop_n) has nothing
     * to pop at core cycle c while the word at pop_t + s * pop_stride bytes, a lower bound
     * of its responses' earliest t_done in the model's clock, exceeds c + pop_off (0 for a
     * model itself; a view that shifts the clock, gpu/timing.c's offset view, adds its
     * shift). The word changes only where pop_done's own answer for s could (the calls of
     * SM s, and tick or commit outside the SM phase). */
    const uint64_t *pop_t;
    size_t pop_stride;
    uint32_t pop_n;
    uint64_t pop_off;
};

static inline mem_access memsys_access(memsys *m, mem_req *r, uint64_t c) { return m->ops->access(m, r, c); }
static inline mem_access memsys_probe(const memsys *m, const mem_req *r, uint64_t c) { return m->ops->probe(m, r, c); }
/* SM sm's pop_t word, or NULL when the model publishes none for it */
static inline const uint64_t *memsys_pop_word(const memsys *m, uint32_t sm)
{
    return m->pop_t && sm < m->pop_n ? (const uint64_t *)((const char *)m->pop_t + sm * m->pop_stride)
                                     : NULL;
}
static inline mem_req *memsys_pop_done(memsys *m, uint32_t sm, uint64_t c)
{
    const uint64_t *w = memsys_pop_word(m, sm);
    if (w && *w > c + m->pop_off)
        return NULL;
    return m->ops->pop_done(m, sm, c);
}
static inline int memsys_tick(memsys *m, uint64_t c) { return m->ops->tick(m, c); }
static inline uint64_t memsys_next_event(const memsys *m, uint64_t c) { return m->ops->next_event(m, c); }
static inline int memsys_busy(const memsys *m) { return m->ops->busy(m); }
static inline int memsys_commit(memsys *m, uint32_t sm, uint64_t c)
{
    return m->ops->commit ? m->ops->commit(m, sm, c) : 0;
}
static inline uint64_t memsys_next_event_sm_late(const memsys *m, uint32_t sm, uint64_t c)
{
    return m->ops->next_event_sm_late ? m->ops->next_event_sm_late(m, sm, c)
         : m->ops->next_event_sm(m, sm, c);
}
static inline uint64_t memsys_repeat(memsys *m, uint32_t sm, uint64_t last, uint64_t c)
{
    return m->ops->repeat ? m->ops->repeat(m, sm, last, c) : 0;
}
static inline void memsys_repeat_stats(memsys *m, uint32_t sm, uint64_t last, uint64_t n)
{
    if (m->ops->repeat_stats)
        m->ops->repeat_stats(m, sm, last, n);
}
static inline uint32_t memsys_host_threads(const memsys *m)
{
    return m->ops->host_threads ? m->ops->host_threads(m) : 0;
}
static inline void memsys_host_threads_use(memsys *m, int on)
{
    if (m->ops->host_threads_use)
        m->ops->host_threads_use(m, on);
}
static inline uint64_t memsys_side_post(memsys *m, void (*fn)(void *, uint32_t), void *ctx, uint32_t k)
{
    return m->ops->side_post ? m->ops->side_post(m, fn, ctx, k) : 0;
}
static inline void memsys_side_end(memsys *m, uint64_t ticket) { m->ops->side_end(m, ticket); }
static inline uint64_t memsys_sm_alone(const memsys *m, uint32_t sm, uint64_t c)
{
    return m->ops->sm_alone ? m->ops->sm_alone(m, sm, c) : 0;
}
static inline uint64_t memsys_next_event_sm(const memsys *m, uint32_t sm, uint64_t c)
{
    return m->ops->next_event_sm ? m->ops->next_event_sm(m, sm, c) : m->ops->next_event(m, c);
}

#endif
