/* coh.h - coherence protocols as plug-ins of the detailed memory model, one registry
 * (coh_find by exact name; config key mem.protocol).
 *
 * Division of labour. The cache (cache.c) owns the mechanics: tags, sectors, per-byte
 * dirty masks, MSHRs, the miss queue, and two flags per line that are its own business
 * (CF_VALID: the line is allocated; CF_RESERVED: it has an MSHR entry, a fill is on the
 * way, it cannot be evicted). The protocol owns the meaning: an opaque state byte per
 * line (cache_line_pstate) that only the protocol interprets, and the decisions:
 *
 *   on_access   per access, at every level: what the access is (read / write / atomic),
 *               its write policy (back, through, evict) and allocation policy (none,
 *               fetch, lazy), or that it bypasses the cache and goes below as a message
 *               (cache_acc.op / wpol / apol / bypass). Hit or miss then follows from
 *               the tags and sectors; what goes below (fetch, write, write-back) from
 *               the policy the protocol chose.
 *   line_state  the state byte of a present line after an event (fill, write, atomic
 *               write, write allocation), given its old state and whether it holds
 *               dirty bytes. State 0 is the state of a line just allocated or
 *               invalidated ("no data yet"); every protocol must use 0 that way.
 *   on_evict    whether a line leaving the cache (replaced or invalidated) sends a
 *               write-back of its dirty bytes below.
 *   on_message  an incoming coherence message for a present line (invalidate,
 *               forward, acknowledge, data): the line's new state, whether it is
 *               dropped, and the reply message (MSG_NONE: none).
 *   dir_bytes / on_dir   the directory hook at L2: dir_bytes bytes of protocol state per
 *               L2 line (0: no directory; the cache then allocates nothing), and a
 *               hook run on each access the L2 accepts with the line's directory
 *               bytes, naming the SM that asked (NULL: no directory work).
 *
 * Message kinds (mem_msg in memsys.h) travel in mem_req.msg and icnt_msg.kind; the
 * crossbars carry any kind (each packet is counted per kind). With `nvidia` only
 * requests, write-backs, responses and acknowledgements occur. With a directory
 * (on_dir non-NULL) the detailed model sends on_dir's invalidations and forwards
 * through the reply crossbar, hands them to the L1D (cache_coh_message), returns the
 * L1's acknowledgement (with its dirty bytes, if any) through the request crossbar,
 * and answers the request when every acknowledgement is in (docs/MEMORY.md 4.2).
 *
 * Registered (coh.c; one file each):
 *   nvidia   the NVIDIA default (coh_nvidia.c): no coherence actions; write policies per
 *            access from the l1d.* and l2.* keys (Fermi: local write-back, global
 *            write-evict at L1, ld.cg/ld.cv bypass the L1, atomics at L2, L2 write-back
 *            with lazy write allocation). States: 0 I (no data), 1 V (clean), 2 M (dirty
 *            bytes). Today's behaviour, bit for bit.
 *   si       AMD Southern Islands (coh_si.c): GLC/SLC bits from the PTX cache operator,
 *            write-through L1, L2 write-back with per-byte dirty masks, no directory.
 *   moesi    directory MOESI (coh_moesi.c): sharer vector + owner per L2 line.
 *   nmoesi   MOESI plus N, non-coherent GPU writes (coh_nmoesi.c).
 * To add one: a file defining a `const coh_ops coh_NAME` and a line in coh.c's table.
 * No hook allocates or compares strings per access; names are resolved at create(). */
#ifndef WS_MEM_COH_H
#define WS_MEM_COH_H

#include <stddef.h>
#include <stdint.h>

#include "mem/memsys.h"

struct cache_acc;

/* The cache a hook runs for. */
typedef enum { COH_L1D, COH_L1C, COH_L1I, COH_L2, COH__LEVELS } coh_level;

/* Events that change a present line's protocol state (line_state). */
typedef enum {
    CE_FILL,          /* sectors arrived from below (pending writes applied)            */
    CE_WRITE,         /* a write-back write hit the line                                */
    CE_WRITE_ALLOC,   /* a write allocated the line without a fetch (lazy)              */
    CE_ATOMIC,        /* an atomic was performed on the line                            */
    CE__COUNT
} coh_event;

/* What an access is, as the protocol sees it. At an L1: the SM's request (msg
 * MSG_REQUEST). At the L2: the L1's record, with kind the request it serves (MR_LOAD
 * for fetches and reads, MR_STORE for writes and write-backs, MR_ATOMIC) and msg
 * MSG_REQUEST, or MSG_WRITEBACK for a write-back. */
typedef struct {
    uint8_t level;    /* coh_level                                                      */
    uint8_t kind;     /* mem_kind                                                       */
    uint8_t msg;      /* mem_msg                                                        */
    uint8_t space;    /* ptx_space (L1 only; 0 at L2)                                   */
    uint8_t cop;      /* ptx_cacheop (L1 only; 0 at L2)                                 */
    uint32_t sm;      /* the SM it comes from                                           */
    uint8_t src;      /* L2 only: the coh_level of the L1 it comes from (COH_L2: an
                         atomic or another request the L1 forwarded without lookup)     */
    uint8_t excl;     /* L2 only: a fetch's intent (cache_acc.excl of the L1 miss): 0
                         read, CX_OWN ownership (write), CX_NC non-coherent (N)         */
    uint32_t line;    /* the cache's line size (L1: full-line writes)                   */
} coh_req;

/* Intent of a fetch (cache_acc.excl): a plain read, a request for ownership (a write
 * that needs the line exclusively: write miss or upgrade), or a non-coherent fill for
 * a write in state N (NMOESI). */
enum { CX_READ = 0, CX_OWN = 1, CX_NC = 2 };

/* What a directory does for one access (on_dir's outcome): the L1s (bit s = SM s) that
 * get an invalidation, the one that gets a forward (-1: none), and the state the
 * requester's L1 line takes when its fill arrives (0: the protocol's line_state
 * decides). The request is answered when every invalidated or forwarded L1 has
 * acknowledged (docs/MEMORY.md 4.2). */
typedef struct {
    uint64_t inv;
    int32_t fwd;
    uint8_t grant;
} coh_dir_out;

/* Outcome of on_message. */
typedef struct {
    uint8_t state;    /* the line's new state (ignored when dropped)                    */
    uint8_t drop;     /* invalidate the line (its write-back per on_evict)              */
    uint8_t reply;    /* mem_msg to send back, MSG_NONE for none                        */
} coh_msg_out;

typedef struct coh_ops coh_ops;
struct coh_ops {
    const char *name, *desc;
    /* Checks the protocol's configuration keys (const ws_config *): 0, or -1 with a
     * message. create() may assume it passed. */
    int (*check)(const void *cfg, char *err, size_t n);
    /* Per-memory-system instance (decoded keys); NULL with a message on failure.
     * Protocols without parameters may return any non-NULL pointer. */
    void *(*create)(const void *cfg, char *err, size_t n);
    void (*destroy)(void *p);
    /* Fills a->op, wpol, apol, bypass (the rest of *a is set by the caller). Pure:
     * probing calls it too. */
    void (*on_access)(const void *p, const coh_req *q, struct cache_acc *a);
    /* Nonzero: on_access reads nothing of q but level, kind, msg, space, cop and line (not
     * sm), so a caller may tabulate its answers once per memory system (the detailed
     * model's L1 side does). 0: it is called for every access. */
    uint8_t access_by_kind;
    uint8_t (*line_state)(uint8_t level, coh_event ev, uint8_t old, int dirty);
    int (*on_evict)(uint8_t level, uint8_t state, int dirty);
    coh_msg_out (*on_message)(uint8_t level, uint8_t kind, uint8_t state, int dirty);
    uint32_t dir_bytes;
    /* Optional: per access the L2 accepted, with the L2 line's dir_bytes bytes (zero
     * at allocation), to keep the line's directory state (sharers, owner ...), and
     * *o (zeroed by the caller, fwd = -1) names the messages to send. The directory
     * state is updated at once, as if the transaction had completed: the detailed
     * model keeps the line busy (later requests for it wait) until the requester's
     * answer has entered the reply crossbar, so the L1s see one order. Not called when
     * NULL. */
    void (*on_dir)(void *p, uint8_t *dir, const coh_req *q, coh_dir_out *o);
    /* Optional (with on_dir): the L1s a directory entry names (sharers, owner, N
     * holders): when the L2 evicts the line they are sent invalidations (a recall). */
    uint64_t (*dir_holders)(const uint8_t *dir);
    /* Optional: nonzero when an access (cache_op) to a present line in `state` must
     * still go below (a permission miss: a write to a Shared line is an upgrade). NULL:
     * a present line with the needed sectors always hits. */
    int (*upgrade)(uint8_t level, uint8_t op, uint8_t state);
    /* Nonzero: a cache whose MSHR is full refuses every access (MSHRF), hits and
     * bypasses included (the seed-004 protocols, SPEC 6); 0: only misses need an entry. */
    uint8_t mshr_blocks;
    /* Name of a state byte (dumps, tests). */
    const char *(*state_name)(uint8_t state);
};

/* Registry by exact name; NULL if unknown. The first entry is the default. */
const coh_ops *coh_find(const char *name);
const coh_ops *coh_at(size_t i);
/* "nvidia": the registered names, for error messages. */
void coh_known(char *buf, size_t n);

#endif
