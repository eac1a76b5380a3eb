/* cache.h - one generic cache model for every level (L1D, L1I, L1C, L2).
 *
 * Geometry: sets x ways of `line`-byte lines, each split into line/sector sectors
 * (sector == line: not sectored); the set is chosen by a set-index function
 * (setidx.h). The cache keeps two flags per line for itself: CF_VALID (allocated) and
 * CF_RESERVED (allocated for an outstanding miss: it has an MSHR entry and cannot be
 * evicted), plus per-byte dirty masks and valid sectors. What a line's state *means*
 * belongs to the coherence protocol (coh.h): an opaque state byte per line that the
 * protocol sets through its line_state / on_message hooks, and the protocol decides
 * whether an evicted line writes back (on_evict).
 *
 * An access is decided in order: tag lookup (hit, or a line to allocate: none when
 * every line of the set is RESERVED = CSF), then MSHR (a free entry, or a merge slot
 * in the line's entry: else MSHRF), then the miss queue toward the level below (room
 * for the fetch and the victim's write-back: else MQF). A refused access changes
 * nothing, so cache_probe() == cache_access() without side effects.
 *
 * Write policy is chosen per access, by the protocol's on_access (the L1D treats
 * global and local stores differently under `nvidia`): write-back (write into the
 * line, dirty bytes), write-through (update a present line and send the write below)
 * or write-evict (invalidate a present line and send the write below). Allocation on a write-back miss: none (send below), lazy
 * (allocate without fetching; the per-byte dirty mask tells what is valid data:
 * "write-validate") or fetch (fetch-on-write: the write waits in the MSHR for the fill).
 *
 * Time is the cache's own cycle count (the caller's clock domain). The miss queue holds
 * what must go below (fetches, write-backs, bypassed reads/writes/atomics); the caller
 * drains it and later calls cache_fill() with the MSHR entry a fetch named. Tokens are
 * the caller's (the request objects); the cache never looks inside them. */
#ifndef WS_MEM_CACHE_H
#define WS_MEM_CACHE_H

#include <stdint.h>
#include <stdio.h>

#include "mem/coh.h"
#include "mem/memsys.h"
#include "mem/repl.h"
#include "mem/setidx.h"

/* The cache's own per-line flags (cache_line_flags). */
enum { CF_VALID = 1, CF_RESERVED = 2 };
typedef enum { CW_BACK, CW_THROUGH, CW_EVICT } cache_wpol;
typedef enum { CA_NONE, CA_FETCH, CA_LAZY } cache_apol;
typedef enum { CQ_READ, CQ_WRITE, CQ_ATOMIC } cache_op;
/* Miss-queue record types. */
typedef enum { CM_FETCH, CM_READ, CM_WRITE, CM_ATOMIC, CM_WRITEBACK, CM__COUNT } cache_mtype;
extern const char *const cache_mtype_name[CM__COUNT];

/* Policy names of the configuration ("back", "through", "evict"; "none", "fetch",
 * "lazy"): the value, or -1 if unknown. */
int cache_wpol_find(const char *name);
int cache_apol_find(const char *name);

typedef struct {
    uint32_t sets, ways, line, sector;   /* ways <= 64; line/sector <= 32; line <= 4096 */
    const repl_policy *repl;
    const setidx_ops *set_index;         /* NULL: linear                             */
    const coh_ops *coh;                  /* NULL: the default protocol (coh_at(0))  */
    uint8_t level;                       /* coh_level: what the protocol is told     */
    uint64_t seed;                       /* random replacement                       */
    uint32_t latency;                    /* cycles from access to data (hit), and to
                                            the miss record being ready to leave      */
    uint32_t ports;                      /* accesses per cycle; more are delayed     */
    uint32_t mshr_entries, mshr_merges;  /* merges: requests per entry, first included */
    uint32_t miss_queue;                 /* records toward the level below           */
    uint8_t mshr_adaptive;               /* usable entries tuned at run time (adaptive
                                            MSHR limit, docs/MEMORY.md 4); 0: fixed  */
    uint8_t no_coalesce;                 /* a request for a line whose fill is pending
                                            does not merge: it holds an MSHR entry of
                                            its own while it waits for that fill (seed
                                            004's SI protocol without a second
                                            coalescer); outcome MA_MERGED, counted as a
                                            (delayed) hit                             */
    /* Optional (an L2 under a directory protocol): called when a valid line with
     * directory bytes is replaced, with its line address and those bytes, before
     * they are cleared (the caller recalls the L1 copies the directory names). */
    void (*dir_evict)(void *ctx, uint64_t line_addr, const uint8_t *dir, uint64_t now);
    void *dir_evict_ctx;
} cache_cfg;

typedef struct cache_acc {
    uint64_t addr;        /* first byte accessed                                      */
    uint64_t idx;         /* address whose line number picks the set (L2: the
                             partition-local address; L1: addr)                      */
    uint32_t size;        /* bytes from addr, clipped to the line                     */
    uint8_t op;           /* cache_op                                                 */
    uint8_t wpol, apol;   /* CQ_WRITE: cache_wpol, cache_apol                         */
    uint8_t bypass;       /* send below without lookup or allocation (ld.cg, atomics
                             forwarded to L2)                                         */
    uint8_t excl;         /* coherence intent of a miss (coh.h CX_*): a write with
                             CX_OWN or CX_NC never allocates lazily (it fetches, so the
                             directory hears of it), and a write on a present line the
                             protocol's upgrade() refuses fetches again; 0: none       */
    uint8_t force;        /* a present line misses anyway (SI's GLC=1 loads)          */
    void *tok;            /* caller's token                                           */
} cache_acc;

typedef struct {
    uint64_t addr;        /* FETCH, WRITEBACK: line address; else the access address  */
    uint64_t t_ready;     /* cycle it may leave (access cycle + latency)              */
    void *tok;            /* READ, WRITE, ATOMIC: the access's token; else NULL       */
    uint32_t size;        /* bytes: FETCH sectors x sector; WRITEBACK dirty bytes;
                             else the access size                                     */
    uint32_t sectors;     /* FETCH: sectors fetched (bit s = sector s)               */
    uint32_t mshr;        /* FETCH: the entry cache_fill() must name                  */
    uint8_t type;         /* cache_mtype                                              */
    uint8_t excl;         /* FETCH: the intent of the access that opened the entry    */
} cache_miss;

typedef struct {
    uint64_t accesses, reads, writes, atomics;      /* accepted accesses             */
    uint64_t hits, misses, merges, bypasses;        /* by outcome                    */
    uint64_t delayed_hits;    /* no_coalesce: hits that waited for a pending fill
                                 (with an MSHR entry of their own); among `hits`     */
    uint64_t sector_misses;   /* misses on a present line (missing sectors)          */
    uint64_t resfail[3];      /* refused attempts: CSF, MSHRF, MQF                   */
    uint64_t evictions;       /* valid lines replaced                                */
    uint64_t writebacks;      /* dirty lines written below (evicted or invalidated)  */
    uint64_t write_evicts;    /* lines invalidated by write-evict stores             */
    uint64_t fills;           /* fills received                                      */
    uint64_t port_delay;      /* cycles accesses waited for a port                   */
    uint64_t mshr_occ_max;    /* most MSHR entries in use at once                    */
    uint64_t mshr_occ_sum;    /* entries in use summed over cycles up to occ_t       */
    uint64_t occ_t;
    uint64_t limit_sum;       /* adaptive MSHR: usable entries summed over cycles up
                                 to limit_t (the limit's time average)               */
    uint64_t limit_t;
    uint32_t limit;           /* adaptive MSHR: usable entries now                   */
    uint32_t limit_changes;
} cache_stats;

typedef struct cache cache;
typedef void (*cache_done_fn)(void *ctx, void *tok, uint64_t t);

/* Checks the geometry; NULL with a message on a bad configuration or no memory. */
cache *cache_create(const cache_cfg *cfg, char *err, size_t n);
void cache_destroy(cache *c);

/* Decides and performs an access at cycle `now`. Accepted accesses return HIT, MISS,
 * MERGED or BYPASS; *t_done is the cycle the data (or the write) is done when the
 * cache completes it by itself (hits, write-back writes), else UINT64_MAX: the token
 * then comes back through cache_fill(), or travels in a miss record. Refusals (CSF,
 * MSHRF, MQF) change nothing but the reservation-fail counters. */
mem_access cache_access(cache *c, const cache_acc *a, uint64_t now, uint64_t *t_done);
mem_access cache_probe(const cache *c, const cache_acc *a);
/* The fast path of the common case, a read hit at an L1 (the index address is addr):
 * cache_access() of the access {addr, idx = addr, size, op CQ_READ, no bypass, force
 * or excl} when it would hit - the same changes and counters - returning the cycle
 * cache_access() would put in *t_done; else UINT64_MAX, changing nothing (then call
 * cache_access()). Always UINT64_MAX when the protocol has an upgrade hook or blocks
 * on a full MSHR (coh.h), for a line size or (linear index) set count not a power of
 * two, and after cache_set_fast(c, 0). */
uint64_t cache_read_hit(cache *c, uint64_t addr, uint32_t size, uint64_t now);
/* Switches the fast paths (cache_read_hit, and cache_access's own) on or off (tests:
 * the same accesses must give the same results either way). On after cache_create. */
void cache_set_fast(cache *c, int on);
/* The memo of the last refused access (a caller retrying the same access every cycle
 * may skip building it): cache_refusal_stamp() names it while it stands (0: none, or
 * the cache changed since in a way that may change the answer: not by a miss-queue pop
 * that leaves an MQF refused, nor any pop after a CSF or MSHRF, nor a fill of a line
 * outside the access's set after a CSF or MQF), right after cache_access() refused;
 * cache_refuse_again() with that stamp is cache_access() of the same access again - it
 * counts the refusal and returns its cause - while the memo stands, else it does
 * nothing and returns MA__COUNT (then call cache_access()). */
uint64_t cache_refusal_stamp(const cache *c);
mem_access cache_refuse_again(cache *c, uint64_t stamp);
/* Counts n more refusals of cause `out` (MA_CSF, MA_MSHRF or MA_MQF): the retries of
 * an access in cycles its caller did not run (every one of them refused the same way:
 * detailed.c det_repeat_stats). */
void cache_count_refusals(cache *c, mem_access out, uint64_t n);

/* Fill of `sectors` for MSHR entry `mshr` at cycle `now`: the sectors become valid,
 * every waiting token whose sectors are all valid completes (fn(ctx, tok, now), in
 * arrival order; pending writes are applied first) and the entry is released when
 * nothing is pending. Returns the tokens completed, -1 if `mshr` is not in use. */
int cache_fill(cache *c, uint32_t mshr, uint32_t sectors, uint64_t now, cache_done_fn fn,
               void *ctx);
/* The same with the state a directory granted (coh_dir_out.grant): the line takes
 * `grant` before the protocol's line_state(CE_FILL, grant, dirty) runs (0: keeps its
 * state, as cache_fill). */
int cache_fill_grant(cache *c, uint32_t mshr, uint32_t sectors, uint64_t now, cache_done_fn fn,
                     void *ctx, uint8_t grant);

/* An incoming coherence message (mem_msg: invalidate, forward, ack, response) for the
 * line of addr at cycle `now`, handed to the protocol's on_message with the line's
 * state (0 and clean when the line is not present). The protocol's outcome is applied:
 * a drop invalidates the line (a write-back is queued if on_evict asks for one; a
 * RESERVED line keeps its place and only takes the new state, its fill being on the
 * way), else the line takes the new state. Returns the reply (mem_msg, MSG_NONE for
 * none) for the caller to send, or -1 when a write-back would not fit in the miss
 * queue: then nothing changed, retry later. */
int cache_message(cache *c, uint64_t addr, uint64_t idx, uint8_t kind, uint64_t now);
/* The same for a directory protocol's message at an L1: nothing is queued; the dirty
 * bytes the reply carries are returned in *bytes (a dropped line's, when on_evict asks
 * for a write-back; a kept line's when the reply is an acknowledgement of a forward:
 * the owner supplies its data). A RESERVED line that is dropped keeps its reservation
 * (its fill is on the way) but loses its data: valid sectors and dirty bytes. Returns
 * the reply kind (MSG_NONE: none); never refuses. */
int cache_coh_message(cache *c, uint64_t addr, uint64_t idx, uint8_t kind, uint64_t now,
                      uint32_t *bytes);

/* Miss queue toward the level below, oldest first. */
const cache_miss *cache_mq_head(const cache *c);
void cache_mq_pop(cache *c);
uint32_t cache_mq_len(const cache *c);

/* Inspection (tests, stats, dumps). */
const cache_cfg *cache_config(const cache *c);
const cache_stats *cache_get_stats(const cache *c);
/* Statistics restart at core/L2 cycle `now` (a new kernel launch on a warm cache). */
void cache_stats_reset(cache *c, uint64_t now);
/* Drops every line that holds data and is not reserved for an outstanding miss, dirty
 * bytes included (GPGPU-Sim's L1D flush at the end of a kernel: an invalidation, no
 * write-back). */
void cache_invalidate_all(cache *c);
/* Makes `sectors` of the line at addr (set index from idx) present and clean, outside
 * time: no MSHR, no statistics, a victim's dirty bytes dropped without write-back
 * (GPGPU-Sim's L2 tag fill for a host-to-device copy). -1 if every way of the set is
 * reserved for an outstanding miss (nothing installed). */
int cache_install(cache *c, uint64_t addr, uint64_t idx, uint32_t sectors);
uint64_t cache_mshr_occ_sum(const cache *c, uint64_t now);  /* integral up to `now`    */
uint32_t cache_mshr_used(const cache *c);
/* CF_VALID | CF_RESERVED of the line holding addr (0: not present). */
uint32_t cache_line_flags(const cache *c, uint64_t addr, uint64_t idx);
/* The protocol's state byte of the line (0 when not present). */
uint8_t cache_line_pstate(const cache *c, uint64_t addr, uint64_t idx);
/* The line's directory bytes (the protocol's dir_bytes; an L2 only), NULL when the
 * line is not present or the protocol keeps no directory. */
uint8_t *cache_line_dir(cache *c, uint64_t addr, uint64_t idx);
uint32_t cache_line_dirty_bytes(const cache *c, uint64_t addr, uint64_t idx);
uint32_t cache_line_valid_sectors(const cache *c, uint64_t addr, uint64_t idx);
void cache_dump(const cache *c, FILE *f, const char *name);

#endif
