/* detailed.c - the detailed memory model (detailed.h): the composition of the caches,
 * the crossbars, the address mapping and the DRAM channels.
 *
 *   SM --access--> L1D / L1C / L1I --miss queue--> request crossbar (one input per SM)
 *      --> L2 pipeline --> bank input queue --> L2 (MSHR, miss queue) --> DRAM channel
 *   DRAM --return--> L2 fill --> reply queues --> reply crossbar --> L1 fill --> SM
 *
 * Clock domains. The SM side calls tick(c) every core cycle it simulates (it may jump
 * over idle cycles, using next_event). The interconnect, L2 and DRAM domains run
 * their own cycles: domain cycle k happens at time k / f (f in MHz), and tick(c)
 * runs, in global time order, every domain cycle up to time c / f_core that has work
 * (a domain cycle of equal time: interconnect, then L2, then DRAM). Each domain keeps
 * `wake`, a lower bound of its next cycle with work; a cycle with nothing to do
 * changes nothing, so ticking every cycle or jumping gives the same results.
 *
 * Hand-offs between domains: an item produced in cycle k of one domain becomes
 * visible in the first cycle of the next domain strictly after k's time (at most one
 * consumer cycle of rounding per crossing), except where the producer already added
 * a latency of >= 1 cycle (L1 miss records: the first interconnect cycle at or after
 * the record's ready time), and replies reach the SM at the first core cycle at or
 * after their arrival (the SM reads them after tick).
 *
 * Completion: loads when their data reaches the L1 (fill) or, on a hit, after the
 * hit latency; stores when the L2 accepts them (the acknowledgement travels back
 * through the reply crossbar) - except write-back stores that the L1 absorbs (local
 * memory), done after the hit latency; atomics when the L2 has performed them
 * (its latency + l2.atomic_latency) and the reply is back.
 *
 * No allocation per cycle: packets come from a pool grown in chunks (only when a new
 * high-water mark of packets in flight is reached); every queue is an intrusive list
 * or a ring buffer preallocated at create(). */
#include "mem/detailed.h"

#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mem/addrmap.h"
#include "mem/cache.h"
#include "mem/cache_impl.h"   /* det_access: cache_read_hit_inline; cache_mq_head_inline */
#include "mem/coh.h"
#include "mem/dram.h"
#include "mem/icnt.h"
#include "mem/repl.h"
#include "mem/setidx.h"
#include "ptx/ir.h"
#include "util/bits.h"

enum { D_ICNT, D_L2, D_DRAM, D__N, C_CORE = D__N };   /* clocks: the domains, then core */
enum { B_PUB = 4 };   /* core cycles of progress between the partition thread's reports */

/* what the partition thread (mem.l2_thread) and this one pass each other (plain loads and
 * stores on x86-64) */
#define LD_ACQ(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define LD_RLX(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define ST_REL(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define ST_RLX(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

enum { L1D, L1C, L1I, L1__N };
static const char *const l1_name[L1__N] = {"l1d", "l1c", "l1i"};
static const coh_level l1_level[L1__N] = {COH_L1D, COH_L1C, COH_L1I};

typedef struct pkt pkt;
/* On host cache lines of its own (64-byte aligned, 192 bytes): first the view of where it
 * is, one line: the DRAM's or the crossbar's, never both (a packet for DRAM is made by
 * the L2 for DRAM alone: run_bank), so a DRAM channel's walks of a bank's queue read one
 * line per queued packet and a crossbar packet's link and times share it; then what the
 * L2 side reads of every packet, one line with the queue link and time (what the queues
 * poll); then the directory's fields, a line that only directory protocols touch.
 * Measured with 256 bytes (DRAM view, crossbar view and the rest each a line or more)
 * before: D1 misses gups 89.2 -> 85.3 M, atax 43.5 -> 40.7 M (cachegrind, LL 1 MB). */
struct pkt {
    _Alignas(64) union {
        dram_req d;        /* DRAM view (L2 -> DRAM traffic; set whole before dram_push) */
        icnt_msg m;        /* crossbar view (set by icnt_push; pkt_new leaves it)       */
    };
    pkt *next;             /* L2 queues, DRAM returns, the free list                    */
    uint64_t t_ready;      /* in the consumer's clock                                   */
    uint64_t addr;
    uint64_t idx;          /* L2 set-index address (partition-local, bank removed)      */
    void *tok;             /* L1 side: the SM's mem_req; L2 -> DRAM: the L1's packet    */
    uint32_t size;         /* data bytes                                                */
    uint32_t sectors, mshr;
    uint16_t sm;
    uint8_t type;          /* cache_mtype                                               */
    uint8_t l1;            /* the L1 that sent it                                       */
    uint16_t part;
    uint8_t bank;          /* L2 bank in the partition                                  */
    /* zeroed by pkt_new (excl ... cop), directory protocols (coh.h on_dir) only but excl
     * and cop */
    uint8_t excl;          /* FETCH: the L1 miss's intent (CX_*)                        */
    uint8_t grant;         /* FETCH reply: the state the directory granted (0: none)    */
    uint8_t tx;            /* an open transaction: its line is busy at the L2 until this
                              request's answer enters the reply crossbar                */
    uint8_t cop;           /* an SM's request the L1 forwards (READ, WRITE, ATOMIC with
                              tok): the SM's cache operator (mem_req.cop), read by the
                              L2 - the SM's request itself is far from the host caches by
                              then                                                      */
    uint8_t aw;            /* awaited: counted in det.aw_up until its answer is queued  */
    /* the rest for directory protocols only; from acks on, an open transaction's (tx):
     * set when run_bank opens it, read only while it is open, so never zeroed - these
     * stay off the lines of packets without one */
    _Alignas(64) uint8_t mkind;   /* PT_ACK: the message acknowledged (PT_INV or PT_FWD;
                                     set by sm_coh_message, which makes the ack)        */
    uint8_t tx_fill;       /* the deferred answer came from a fill                      */
    uint16_t acks;         /* acknowledgements the transaction still waits for         */
    uint64_t t_data;       /* L2 cycle its data were ready (UINT64_MAX: not yet)        */
    pkt *txn;              /* the bank's open transactions                              */
    pkt *wh, *wt;          /* requests for its line waiting for it to close             */
};
_Static_assert(offsetof(pkt, cop) < 128 && offsetof(pkt, mkind) == 128 && sizeof(pkt) == 192,
               "pkt: the view, the L2 side's fields and the transaction's a line each");

/* Packet types beyond the cache's miss-record types: a directory's invalidation and
 * forward (L2 -> L1D, header only) and the L1's acknowledgement (L1D -> L2, header +
 * the dirty bytes it returns). */
enum { PT_INV = CM__COUNT, PT_FWD, PT_ACK };

#define PKT_OF_MSG(p) ((pkt *)((char *)(p) - offsetof(pkt, m)))
#define PKT_OF_DREQ(p) ((pkt *)((char *)(p) - offsetof(pkt, d)))

typedef struct {
    pkt *h, *t;
    uint64_t ht;           /* the head's t_ready (UINT64_MAX: empty): polled every
                              cycle, so kept here rather than read from the packet      */
    uint32_t n;
} pq;

typedef struct {
    mem_req *h, *t;
    uint64_t ht;           /* the head's t_done (UINT64_MAX: empty)                     */
} rq;

enum { Q_HIT, Q_FILL };   /* an L2 bank's two reply queues: pipeline hits, fills */

/* An L2 bank, on host cache lines by writer: what both sides read (set up once; the
 * rings grow only while the partition thread is idle), the crossbar's (its reply queues
 * and its view of the input queue), the bank's own (the partition thread's, with
 * mem.l2_thread): so that neither side's writes evict the lines the other reads. */
typedef struct {
    _Alignas(64) cache *c;
    const cache_cfg *cc;   /* cache_config(c)                                           */
    /* The crossbar's view of the input queue proper: the entries through the pipeline
     * and not yet taken by the bank, which l2.in_queue bounds (iq_view). Two rings of
     * 2^iq_log2 places in iq: each entry's t_ready in push order (never decreasing along
     * it), then the L2 cycle of each taking in taking order; iq_push entries pushed,
     * iq_set of them through the pipeline by the crossbar's last look, iq_con taken by
     * the bank, iq_app of those applied by the crossbar; iq_back: entries put back at the
     * head, through the pipeline already (tx_close) */
    uint64_t *iq;
    uint16_t part_id;
    uint8_t iq_log2;
    uint32_t gid;          /* part_id * l2.banks + its bank: its bit in bank_set        */
    /* the crossbar's */
    _Alignas(64) pq out[2];   /* replies; t_ready in interconnect cycles                */
    _Alignas(64) uint32_t iq_push;
    uint32_t iq_set, iq_app;
    uint32_t rr;           /* with a port of its own: its reply queue served last       */
    uint32_t iq_back;
    uint32_t iq_cv;        /* iq_con as of the crossbar's last look (iq_con_a)          */
    uint32_t sport;        /* the crossbar port whose head request waits for room in
                              this bank's input queue (det.req_stall), or UINT32_MAX    */
    /* the bank's */
    _Alignas(64) pq in;    /* from the crossbar; t_ready in L2 cycles (arrival + the L2
                              pipeline latency)                                         */
    uint32_t iq_con;
    uint32_t obn;          /* replies in out[] as its own cycles see them: their count,
                              but for the partition thread (mem.l2_thread), whose pops of
                              a run's time come after the run (b_join sets it again)   */
    pq ret;                /* DRAM returns; t_ready in L2 cycles                        */
    uint64_t next;         /* next L2 cycle with work (lower bound)                     */
    uint64_t t_port;       /* l2.sector_requests: first L2 cycle its port is free again */
    pkt *tx;               /* open directory transactions (at most one per line)        */
    pkt *memo_q;           /* the input head its cache refused last (NULL: none) ...   */
    uint64_t memo_stamp;   /* ... and the cache's memo of it (cache_refusal_stamp): a
                              head refused again is counted without being rebuilt      */
    /* A bank that can do nothing until an event sleeps (bank_next leaves the term out)
     * and the event lowers its next (bank_lower), instead of being visited every L2
     * cycle; none while exhaustive or with a directory protocol:
     *   slp   its input head was refused and the cache's memo of it stands: only a fill
     *         (ret), a miss-queue pop (the bank's own step 3) or a new head changes
     *         that. The refusals of the cycles it sleeps are counted as each visit would
     *         have counted one: at its next visit (cycles k_ref + 1 ... before it) or at
     *         a statistics read (l2_pending).
     *   oblk  its input head waits for room in its reply queues (l2.out_queue): the
     *         reply crossbar's pop rouses it (run_icnt).
     *   dwait its miss-queue head waits for room in DRAM channel dsub's queue: the
     *         channel's cycle that makes room rouses it (dram_chan).                 */
    uint8_t slp, oblk, dwait;
    uint8_t dsub;
    uint64_t k_ref;        /* slp: the last L2 cycle whose refusal is counted          */
    uint64_t t_rouse;      /* dwait: the L2 cycle rouse_dram last roused it for        */
} l2bank;
_Static_assert(sizeof(l2bank) == 384, "l2bank: six host cache lines");

/* A stretch of one partition's packet allocations and frees in the partition phase
 * (det_tick_part): one L2 or DRAM cycle of it. The count of packets in flight changes
 * by dl and peaks at mx above where it began (packets_max_in_flight: det_tick_join
 * replays the stretches of every partition in the serial model's order). */
typedef struct {
    uint64_t k;            /* the domain's cycle                                        */
    int64_t dl, mx;
    int d;                 /* D_L2 or D_DRAM                                            */
} pseg;
enum { PSEG_MAX = 8 };     /* stretches per partition per core cycle (det_par_parts)   */

typedef struct {
    pkt *free;
    pkt **chunks;
    uint32_t n_chunks, cap_chunks;
} pkpool;

typedef struct {
    /* (partitions on cache lines of their own: a partition phase writes its own only;
     * within one, the lines by writer: set up once, the crossbar's, the L2 and DRAM
     * side's, which the partition thread (mem.l2_thread) writes) */
    _Alignas(64) l2bank *b;
    dram **ch;             /* its dram.channels_per_l2 DRAM channels                    */
    /* the partition thread's replies while A runs the reply side (l2_reply while
     * det.b_run and not det.b_rep): entries in push order, ob_t published by B
     * (release), ob_h A's; A moves them into the banks' reply queues (b_drain) */
    struct obe {
        pkt *q;
        uint32_t bank, fill;
    } *ob;
    uint32_t ob_cap;
    /* the partition phase (det_tick_part): while ph is set, what it would write in
     * state shared with other partitions waits in the fields at the end for
     * det_tick_join (read by both sides' pokes) */
    int ph;
    /* the crossbar's */
    _Alignas(64) uint64_t out_t;   /* earliest head of its banks' reply queues
                                      (UINT64_MAX: none)                                */
    uint32_t rr;           /* reply injection: bank served last                         */
    uint32_t ob_h;
    /* its packets: every packet belongs to the partition it is for (pkt.part), and is
     * taken from and returned to one of that partition's pools: pa, the crossbar side's
     * (requests, which become their replies; directory messages), or pb, the L2's
     * packets for DRAM, which the L2 and DRAM side alone takes and returns, so that the
     * partition thread (mem.l2_thread) owns pb. A request the L2 side ends (a
     * write-back) goes back to pa, or while the partition thread runs to xret, which
     * b_join hands to pa. */
    pkpool pa;
    /* the L2 and DRAM side's */
    _Alignas(64) pkpool pb;
    pkt *xret;
    uint32_t ob_t;
    uint32_t ob_hc;        /* ob_h as the L2 side last read it (a full outbox reads it) */
    uint32_t n_dwait;      /* its banks waiting for room in a DRAM queue (l2bank.dwait) */
    uint64_t next;         /* next DRAM cycle with work of any of them (lower bound)    */
    uint64_t bmin;         /* the earliest of its banks' next (par_ok only; while the
                              serial tick runs, det.bmin_ok tells whether it is kept)   */
    uint64_t n_sleeps[3];  /* its banks' sleeps so far: slp, oblk, dwait (tests only:
                              mem_detailed_sleeps)                                     */
    uint64_t coh_st[6];    /* its directory counters (det.coh_st's meaning)             */
    int did;
    uint64_t pk_icnt;      /* the earliest interconnect wake it poked                   */
    uint64_t k_l2, k_dram; /* the last L2 / DRAM cycle it ran (0: none in this phase)   */
    uint32_t n_seg;
    pseg seg[PSEG_MAX];
} part;

/* An SM's request its L1 refused last (the fields the access is built from) and the
 * cache's memo of it (cache_refusal_stamp; 0: none): the LD/ST unit retries it every
 * cycle, and while the memo stands (cache.h: no change of the L1 that could end the refusal)
 * the retry is counted without being rebuilt. */
typedef struct {
    uint64_t addr, stamp;
    uint64_t sizes;        /* mem_req's size and bytes_used, as they lie in it (req_key) */
    uint32_t kinds;        /* its kind, space, cop and msg, the same way                 */
} refmemo;

/* mem_req's adjacent fields size, bytes_used (one 64-bit key) and kind, space, cop, msg
 * (one 32-bit key), compared as two words */
_Static_assert(offsetof(mem_req, bytes_used) == offsetof(mem_req, size) + 4 &&
               offsetof(mem_req, space) == offsetof(mem_req, kind) + 1 &&
               offsetof(mem_req, cop) == offsetof(mem_req, kind) + 2 &&
               offsetof(mem_req, msg) == offsetof(mem_req, kind) + 3,
               "mem_req key fields not adjacent");
static inline void req_key(const mem_req *r, uint64_t *sizes, uint32_t *kinds)
{
    memcpy(sizes, (const char *)r + offsetof(mem_req, size), sizeof *sizes);
    memcpy(kinds, (const char *)r + offsetof(mem_req, kind), sizeof *kinds);
}

typedef struct {
    _Alignas(64) cache *l1[L1__N];   /* (SMs on cache lines of their own: neighbours
                                        run on different host threads) */
    refmemo rm[L1__N];
    rq done[L1__N + 1];    /* hits of each L1 (t_done monotonic), then replies          */
    uint64_t done_t;       /* the earliest of their heads' t_done (pop_done's fast path) */
    uint32_t rr;           /* miss-queue injection: L1 served last                      */
    uint32_t minf;         /* the least head_f of its L1s with records (UINT32_MAX: none):
                              when even that does not fit, sm_inject refuses whichever
                              record is due first (here: no padding after rr)           */
    uint64_t head_t[L1__N];/* interconnect cycle each L1's oldest miss record may
                              leave (UINT64_MAX: empty); converted once per record     */
    uint32_t head_f[L1__N];/* ... its flits in the request crossbar, for the inline
                              room check (icnt_in_used)                                 */
    uint32_t head_b[L1__N];/* that record's request bytes (req_bytes), with head_t: a
                              record refused for lack of room is retried every cycle   */
    uint64_t hmin;         /* the earliest of head_t (sm_minf keeps it: det_next_sm)    */
    uint64_t inj;          /* the earliest of them and of cout's head                   */
    pq cout;               /* the L1D's acknowledgements to directory messages; t_ready
                              in interconnect cycles; injected before miss records      */
    uint32_t own[L1__N];   /* the SM whose port carries each L1's misses and receives its
                              fills: itself, or the first SM of its group when the L1 is
                              shared (l1c/l1i.shared_by); l1[] then points to that SM's  */
    uint8_t solo;          /* own[l] == itself for every l (det_next_sm's fast path)    */
    uint8_t blk;           /* its bit in inj_blk (det_next_sm reads it here)            */
    /* what the SM phase of a cycle defers to det_commit (memsys.h commit): state shared
     * with other SMs is written only there, so SMs may run on several host threads */
    int64_t out_d;         /* requests accepted minus requests popped                   */
    uint64_t poke;         /* earliest interconnect cycle a miss record of an L1 this SM
                              owns may leave (UINT64_MAX: none since the last commit)   */
    uint64_t req_n[4], req_lat[4];   /* per mem_kind: popped requests, latency sum      */
    /* its calls in the SM cycle ph_cyc (det_repeat): the L1s that refused it (bit l:
     * L1 l, its request in rm[l]; ph_n[l] refusals, the last for cause ph_out[l]:
     * det_repeat_stats), and whether anything else happened (an access accepted, a
     * response popped, an L1 refusing twice) */
    uint64_t ph_cyc;
    uint8_t ph_mask, ph_bad;
    uint8_t ph_n[L1__N], ph_out[L1__N];
    uint32_t pend;         /* its accepted requests whose done record a reply will push
                              (det_sm_alone): counted at the access, uncounted by
                              fill_done and sm_reply                                     */
    uint64_t nx_x;         /* det_next_sm's last look at its L1 side: the earliest reply
                              head of its ports and miss-record time of its L1s
                              (interconnect cycles), for det_next_sm_late              */
} smside;

/* The protocol's on_access answer for an SM request (coh.h access_by_kind), tabulated
 * by dec_key: its L1 and what cache_acc's op ... force are; `read`: a plain read
 * (CQ_READ, no bypass, force or excl, a load or fetch), whose hit cache_read_hit
 * decides; ok == 0: no entry (l1_acc builds the access). */
typedef struct {
    uint8_t ok, l, read, op, wpol, apol, bypass, excl, force;
} l1dec;

typedef struct det det;
/* an L2 bank's callbacks' context (cache_fill's, and dir_evict's: det.dctx) */
typedef struct {
    det *m;
    l2bank *b;
} l2ctx;

struct det {
    memsys base;
    uint32_t n_sm, n_part, n_bank, l2_line;
    uint32_t cpl;          /* DRAM channels per partition (dram.channels_per_l2)        */
    uint32_t l1_shared[L1__N];   /* SMs per L1 (1, or l1c/l1i.shared_by)                */
    uint32_t l1_line[L1__N], l1_sector[L1__N];   /* every SM's L1 of a kind: its geometry */
    uint64_t f_core, f[D__N + 1];   /* MHz; f[C_CORE] == f_core                       */
    /* clock conversions, cycle t of clock a -> clock b: t x p[a][b] / q[a][b] with the
     * fraction reduced, q as a multiply-shift divider (requests cross clocks often) */
    uint64_t cp[D__N + 1][D__N + 1];
    amap_div cq[D__N + 1][D__N + 1];
    /* per domain, on host cache lines of its own (the partition thread writes the L2's
     * and DRAM's): the last cycle run, and the next cycle that may have work */
    struct {
        _Alignas(64) uint64_t k;
        uint64_t wake;
    } dm[D__N];
    int exhaustive;        /* run every cycle of every domain (tests of the wake bounds) */
    uint64_t t0;           /* core cycle the statistics started (launch_begin)          */
    int flush_l1d;         /* l1d.flush_at_exit                                         */
    int fill_on_copy;      /* l2.fill_on_copy                                           */
    int sector_req;        /* l2.sector_requests                                        */
    uint32_t ppp;          /* crossbar ports per partition: 1, or l2.banks (icnt.port_per_bank) */
    uint32_t *port_part;   /* [port]: port / ppp, and [n_part x ppp]: n_part (run_icnt's
                              partition of a port, without a division per partition)   */
    smside *sm;
    uint64_t *inj_set;     /* SMs with miss records queued                              */
    uint64_t *inj_blk;     /* SMs of inj_set whose records none fits their full input
                              buffer, without acknowledgements: refused again at every
                              interconnect cycle (counted, not asked) until a grant frees
                              buffer space (req_freed) or their heads change (sm_inj_update,
                              det_commit); n_blk of them (none while exhaustive)        */
    uint64_t *req_freed;   /* icnt_in_freed of the request crossbar                     */
    /* base.roused (memsys.h): rsd, A's; the reply crossbar's grants rouse the SMs they
     * send replies to (an SM with L1s of its own sleeps past the replies not yet
     * granted to it: next_sm_of), and so do the SMs taken out of inj_blk (a blocked SM
     * sleeps past its own miss records)                                               */
    uint64_t *rsd;
    uint64_t *out_set;     /* partitions whose out_t may be finite (out_t finite: set):
                              the interconnect cycle visits the others only for arrivals */
    uint64_t *bank_set;    /* banks (gid) whose next may be finite (next finite: set):
                              the L2 cycle visits only these                            */
    uint64_t *req_stall;   /* request-crossbar ports whose head request waits for a full
                              bank (iq_view >= in_cap; l2bank.sport): the interconnect
                              cycle skips them until its replay of the bank's takings
                              finds room (iq_apply; settling more entries only fills
                              it further; none while exhaustive)                        */
    l2bank **bk;           /* [gid]: the banks                                          */
    l2bank **stl;          /* [port]: the bank a stalled port (req_stall) waits for     */
    part *pt;
    icnt *req, *rep;
    const uint64_t *req_out, *rep_out;   /* their outputs holding packets (icnt_out_set) */
    icnt_msg *const *req_h;              /* the request crossbar's output heads
                                            (icnt_out_heads)                            */
    const uint64_t *req_t, *rep_t;       /* their outputs' head arrival (icnt_out_times):
                                            a packet to pop at cycle k iff <= k         */
    uint64_t *rep_got;                   /* the reply crossbar's icnt_out_got: the SMs
                                            granted to in its last cycle (rep_send)     */
    /* The reply side of the interconnect cycle (the pops at the SMs' reply ports, the
     * injections from the banks' reply queues, the reply crossbar's arbitration) runs
     * on the thread that runs the L2: the partition thread B in a run (its interconnect
     * cycles after the run's first: rep_k, rep_wake), A otherwise. A sees it through
     * arr_t (each SM's reply-port head as A knows it: rep_t, as of the log A has
     * drained) and, while B runs, through the log: B's pops (the replies, which A hands
     * to the SMs at their interconnect cycle), grants (which rouse their SMs) and busy
     * cycles, in cycle order (docs/ARCHITECTURE.md, "The reply side on the partition
     * thread"). */
    uint64_t *arr_t;
    uint64_t rep_done;     /* the last interconnect cycle whose reply side B has run     */
    int b_rep;             /* the current run's reply side is B's (else A's: B's replies
                              reach A through the partitions' outboxes, part.ob)         */
    int b_rep_on;          /* the choice for the next runs (b_start)                     */
    int rep_pin;           /* mem.l2_thread_reply (WS_REPLY_*)                             */
    uint32_t rw_n;         /* runs in the choice's window so far                        */
    double rw_t0, rw_wait0, rw_busy0;   /* the window's start: host time, a_wait_s, b_busy_s */
    uint64_t rep_k, rep_wake;   /* B in a run: its last reply-side cycle, its next with work */
    struct rlog_e {
        pkt *p;            /* RL_POP: the reply                                          */
        uint64_t k, t;     /* its interconnect cycle; the SM's reply-port head after it  */
        uint32_t s, kind;
    } *rlog;
    uint32_t rlog_cap, rlog_h, rlog_t;   /* A drains from rlog_h, B appends at rlog_t   */
    uint32_t rlog_h0;      /* rlog_h at the run's start (B's bound of the room left)      */
    const uint32_t *req_used;            /* the request crossbar's input buffers, flits */
    uint32_t req_in_buf;                 /* icnt.in_buf                                 */
    addrmap am;
    amap_div div_l2line, div_nbank, div_cpl;
    const coh_ops *coh;    /* the coherence protocol (mem.protocol) and its instance   */
    void *coh_p;
    int dir;               /* the protocol keeps a directory (on_dir): transactions     */
    int l1d_adaptive;      /* l1d.mshr_policy = adaptive                                */
    uint32_t l1d_lat, l2_lat;
    /* the directory counters (transactions, invalidations, forwards, acks, ack data
       bytes, requests that waited for a busy line) are the partitions' (part.coh_st) */
    uint32_t header, atom_lat, dram_lat, in_cap, out_cap, l2_pipe;
    /* The L2 and DRAM domains ahead of the crossbar (docs/ARCHITECTURE.md, "Memory
     * partitions a pipeline's depth ahead"): ah_on allows it; they have run up to core
     * cycle ah_h, in runs of ah_len cycles at most; ah_cur: the tick runs one of their
     * cycles after its own core cycle. Such a cycle's packet counts wait in plog (one
     * entry per domain cycle that counted any: its net change and peak, in the serial
     * order) until the crossbar's cycle after it or the tick's end, and its progress in
     * ah_did (per domain, a ring of the domain cycles that made progress, in time order)
     * until the tick that would have run it. aw_up:
     * the awaited requests (pkt.aw) between their injection and their answer's entry
     * into a reply queue: while there is one, no launch ends before the L2 and DRAM
     * cycle about to run, since that answer enters its reply queue at it or later. */
    int ah_on;
    uint64_t ah_len;
    uint64_t ah_cap;       /* the launch's last core cycle (memsys.h horizon)           */
    struct plog_e {
        uint64_t k;
        int32_t dl, mx;    /* net change, and its peak above the entry's start          */
        int32_t dom;
    } *plog;
    uint32_t plog_cap;
    uint32_t near_thr;
    /* what a run writes every cycle, on host cache lines of its own (the partition
     * thread's: mem.l2_thread) */
    _Alignas(64) int ah_cur;
    int ah_dom;
    uint32_t n_oblk;       /* banks asleep with oblk (the crossbar's pop rouses them)   */
    uint64_t ah_h;         /* the runs have reached this core cycle                     */
    uint64_t b_pubc;       /* the partition thread's b_core as it last published it     */
    uint64_t ah_k;
    struct plog_e *ah_seg; /* the running cycle's entry (NULL: none yet)                */
    uint32_t plog_t, ah_dt[2];   /* the log's and ah_did's tails                        */
    /* banks whose reply queues hold near_thr entries or more (ah_room looks at them) */
    uint32_t n_near;
    uint64_t aw_out;
    uint64_t ah_n[2];      /* L2 and DRAM cycles run ahead since launch_begin
                              (host_ahead_l2_cycles, host_ahead_dram_cycles)            */
    uint64_t ah_did[2][256];
    /* what the crossbar's side (A, with the partition thread) writes every cycle, on
     * host cache lines of their own */
    _Alignas(64) int a_block_;
    uint64_t now;          /* last core cycle ticked                                    */
    /* next_sm_from's terms that depend on the domains' wakes alone, computed when the
     * wakes change (the serial tick and commit) from the wakes in nsm_wk: the earliest
     * interconnect cycle a reply can be granted (nsm_w, UINT64_MAX: none), and the core
     * cycles of that grant's arrival (nsm_t) and of nsm_w itself (nsm_aw) */
    uint64_t nsm_wk[D__N], nsm_w, nsm_t, nsm_aw;
    int ticked;
    int committed;         /* every SM committed since the last tick (the GPU's order):
                              tick need not look                                        */
    uint64_t n_blk, n_blocks;   /* (n_blocks: SMs blocked so far, mem_detailed_blocks) */
    uint64_t n_stalls;     /* ports set aside so far (req_stall; mem_detailed_stalls)    */
    uint64_t out_min;      /* at most every partition's out_t: before it, the interconnect
                              cycle visits no partition for its replies                 */
    uint64_t req_refused;  /* miss records sm_inject found no room for (checked inline:
                              reported with the request crossbar's refusals)           */
    uint64_t pkts_live, pkts_max;
    uint32_t plog_h;       /* the log's head                                            */
    uint32_t ah_dh[2];     /* ah_did's heads                                            */
    /* aw_up = aw_in - aw_out: injections counted by the crossbar side, answers by the
     * L2 side (each side writes its own: the partition thread) */
    uint64_t aw_in;
    uint64_t outstanding;  /* SM requests accepted and not yet popped (as of the last
                              commit)                                                   */
    uint64_t a_seen;       /* A: B's progress (b_core) as of A's last look, and drained */
    uint64_t vw_l2;        /* A: b_l2snap raised by the progress A has seen: the L2
                              wake its bounds use while B runs (wk)                    */
    _Alignas(64) int par_ok_;   /* (the lines after these) */
    /* the partition-parallel tick (det_par_parts): the limits of the partitions' L2 and
     * DRAM cycles for this core cycle, the wakes the SM phase saw, and the interconnect
     * cycle's own stretch of packet allocations (pseg, kind D_ICNT) */
    int par_ok;            /* the clocks allow it (det_create)                          */
    int bmin_ok;           /* every part.bmin is its banks' earliest next: the serial
                              L2 cycle (run_l2) leaves them, det_tick_serial sets them
                              again when it needs them                                  */
    uint64_t plim[D__N];
    pseg iseg;
    int iseg_on;
    int pon;               /* a partition phase follows det_tick_serial                 */
    uint32_t *pdue, n_pdue;   /* the partitions with work in it, in partition order     */
    uint64_t prest_l2, prest_dr;   /* the others' earliest bank and DRAM cycles         */
    uint64_t pl0;          /* packets in flight before the interconnect cycle           */
    pseg **segv;           /* det_tick_join's order of the stretches                    */
    FILE *trace;           /* mem.trace_l1d, or NULL                                    */
    uint32_t trace_sm;     /* mem.trace_sm                                              */
    l1dec dec[256];        /* the L1 side's decisions by dec_key (all ok == 0: none)   */
    l2ctx *dctx;           /* [gid]: dir_evict's context of each bank (directory only)  */
    /* The partition thread (mem.l2_thread; docs/ARCHITECTURE.md "The partition thread"):
     * a run of the L2 and DRAM domains ahead of the crossbar, with the reply side of the
     * crossbar's cycles of its time, goes to thread B while this one (A) goes on with the
     * request side and the SMs. b_run: from b_start to b_join; while it is set B owns the
     * banks (but the crossbar's view of the input queue and sport) with their reply
     * queues, the DRAM channels, the reply crossbar, out_set, out_min and the
     * partitions' out_t and rr, the L2 and DRAM wakes and cycles, rep_k and rep_wake,
     * the ah_* run state, the plog, ah_did and rlog rings' tails, n_near, aw_out and
     * every partition's pb; A owns the rest. */
    int b_cfg;             /* mem.l2_thread (and running ahead allowed)                */
    int b_use;             /* the GPU lets it run now (memsys.h host_threads_use)       */
    int b_run;
    int b_thr_ok;          /* thread B started                                          */
    pthread_t b_thr;
    uint64_t b_l2snap;     /* A: the L2 bound of nsm_terms when the run began           */
    uint64_t b_aw;         /* the run's aw_in (injections as of its core cycle)         */
    uint64_t b_h;          /* A: the run's end as it began (ah_h)                       */
    uint64_t b_nruns;      /* runs handed to B since launch_begin (host_l2_thread_runs) */
    uint64_t b_nrep;       /* ... with the reply side (host_l2_thread_reply_runs)        */
    double a_wait_s;       /* A: host seconds waiting for B since launch_begin (a run's
                              progress, its end, a share's end: host_l2_wait_seconds)  */
    uint64_t b_lim[D__N], b_own[D__N], b_cyc;   /* the run: det_tick's limits and cycle */
    pkt **stg;             /* [2 x gid]: A's pushes into each bank's input queue in a run
                              (head, tail), applied by b_join                          */
    uint32_t *stg_n;
    /* B -> A: the plog, ah_did and rlog tails as of B's last finished domain cycle, and
     * b_core: every L2 and DRAM cycle, and every interconnect cycle's reply side, at or
     * before that core cycle has run (published last, with release) */
    _Alignas(64) uint64_t b_core;
    uint64_t b_done;       /* runs finished (== b_go: B idle)                           */
    uint32_t plog_pt, ah_dtp[2];
    uint32_t rlog_pt;      /* the reply side's log as published                         */
    _Alignas(64) uint64_t b_go;   /* A -> B: runs handed over                           */
    int b_quit;
    int b_sleeps;          /* B asleep on b_cv (or about to be), waiting for a run      */
    int b_pause;           /* A: no runs for a while (b_use 0): B sleeps at once        */
    int b_up;              /* B polls for runs (not asleep): only then does A hand one   */
    uint64_t b_kick;       /* A: wake-ups without a run (b_kick_up), so that B is up for
                              the next                                                 */
    pthread_mutex_t b_mu;
    pthread_cond_t b_cv;
    /* A -> B: a share of the GPU's SM phase (memsys.h side_post): B runs it between its
     * domain cycles or while it waits for a run, unless A claims it first (side_end) */
    _Alignas(64) uint64_t sj_post;   /* A: shares posted (the last one's ticket)       */
    void (*sj_fn)(void *, uint32_t);
    void *sj_ctx;
    uint32_t sj_k;
    _Alignas(64) uint64_t sj_claim;  /* the last ticket claimed, by A or B            */
    _Alignas(64) uint64_t sj_done;   /* B: the last ticket it ran                     */
    uint64_t sj_seen;                /* B: the last ticket it looked at               */
    uint64_t sj_nb;                  /* B: shares it ran since launch_begin
                                        (host_l2_thread_shares)                         */
    double b_busy_s;                 /* B: host seconds in runs and in shares between
                                        them since launch_begin (written before the
                                        release that ends them: host_l2_thread_busy_seconds) */
};

static void b_join(det *m);
static void b_wake(det *m);
static void b_kick_up(det *m);

/* the L2 and DRAM wakes as A may read them: while the partition thread runs, a bound
 * from its progress (vw_l2; DRAM's work reaches the crossbar through L2 cycles) */
static inline uint64_t wk(const det *m, int d)
{
    if (d == D_ICNT || !m->b_run)
        return m->dm[d].wake;
    return d == D_L2 ? m->vw_l2 : UINT64_MAX;
}

/* ---- time ------------------------------------------------------------------------------ */
/* Last cycle of clock b at or before cycle t of clock a. */
static uint64_t conv_floor(const det *m, int a, int b, uint64_t t)
{
    if (m->cq[a][b].d == 1)
        return t * m->cp[a][b];   /* a whole multiple (equal clocks: the identity) */
    return amap_div_q(&m->cq[a][b], t * m->cp[a][b]);
}

/* First cycle of clock b at or after cycle t of clock a. */
static uint64_t at_or_after(const det *m, int a, int b, uint64_t t)
{
    uint64_t x = t * m->cp[a][b];
    if (m->cq[a][b].d == 1)
        return x;
    uint64_t q = amap_div_q(&m->cq[a][b], x);
    return q + (q * m->cq[a][b].d != x);
}

/* First cycle of clock b strictly after cycle t of clock a. */
static uint64_t after(const det *m, int a, int b, uint64_t t) { return conv_floor(m, a, b, t) + 1; }

/* ---- the L2 and DRAM domains ahead of the crossbar (det.ah_*) ------------------------------- */
/* A ring of *cap entries of esz bytes (a power of two; 0: none yet), h .. t in use,
 * doubled (from `first`) until n more fit; what: its name in the out-of-memory message.
 * (The rings the partition thread writes grow only while it is idle: plog, rlog.) */
static __attribute__((noinline)) void *ring_grow(void *ring, uint32_t *cap, uint32_t h, uint32_t t,
                                                 uint32_t n, size_t esz, uint32_t first,
                                                 const char *what)
{
    while (t - h + n > *cap) {
        const uint32_t c = *cap ? 2 * *cap : first;
        char *q = malloc((size_t)c * esz);
        if (!q) {
            fprintf(stderr, "warpsim: out of memory (%s)\n", what);
            abort();
        }
        for (uint32_t i = h; i != t; i++)
            memcpy(q + (size_t)(i & (c - 1)) * esz, (const char *)ring + (size_t)(i & (*cap - 1)) * esz,
                   esz);
        free(ring);
        ring = q;
        *cap = c;
    }
    return ring;
}

/* room in plog for n more entries */
static void plog_reserve(det *m, uint32_t n)
{
    if (m->plog_t - m->plog_h + n > m->plog_cap)
        m->plog = ring_grow(m->plog, &m->plog_cap, m->plog_h, m->plog_t, n, sizeof *m->plog, 256,
                            "packet counts");
}

/* a new entry of the running domain cycle (ah_k, ah_dom) */
static struct plog_e *plog_open(det *m)
{
    if (!m->b_run)   /* (the partition thread's room is made before its run: b_start) */
        plog_reserve(m, 1);
    struct plog_e *e = &m->plog[m->plog_t++ & (m->plog_cap - 1)];
    *e = (struct plog_e){m->ah_k, 0, 0, m->ah_dom};
    return m->ah_seg = e;
}

/* an entry applied: the count peaks at its start plus mx (pkts_max >= pkts_live holds
 * at every entry's start) */
static void plog_pop(det *m)
{
    const struct plog_e *e = &m->plog[m->plog_h & (m->plog_cap - 1)];
    ST_RLX(&m->plog_h, m->plog_h + 1);
    if (m->pkts_live + (uint64_t)e->mx > m->pkts_max)
        m->pkts_max = m->pkts_live + (uint64_t)e->mx;
    m->pkts_live += (uint64_t)(int64_t)e->dl;
}

/* the logged counts before interconnect cycle k in the serial order */
/* the log's end as A may read it: while the partition thread runs, what it published */
static inline uint32_t plog_tail(const det *m)
{
    return m->b_run ? LD_ACQ(&m->plog_pt) : m->plog_t;
}

static void plog_before(det *m, uint64_t k)
{
    const uint32_t tl = plog_tail(m);
    while (m->plog_h != tl) {
        const struct plog_e *e = &m->plog[m->plog_h & (m->plog_cap - 1)];
        if (e->k * m->f[D_ICNT] >= k * m->f[e->dom])
            break;
        plog_pop(m);
    }
}

/* the logged counts of domain cycles at or before lim[domain] */
static void plog_upto(det *m, const uint64_t *lim)
{
    const uint32_t tl = plog_tail(m);
    while (m->plog_h != tl && m->plog[m->plog_h & (m->plog_cap - 1)].k <=
                                         lim[m->plog[m->plog_h & (m->plog_cap - 1)].dom])
        plog_pop(m);
}

/* domain cycle k (D_L2 or D_DRAM) ran ahead and made progress: the domain's cycles
 * run ahead lie within one run (ah_len keeps it under 256 of them) */
static inline void ah_mark(det *m, int dom, uint64_t k)
{
    m->ah_did[dom - D_L2][m->ah_dt[dom - D_L2]++ & 255] = k;
}

/* the progress of the domain cycles run ahead up to own[domain] (the tick's own limits) */
static int ah_took(det *m, const uint64_t *own)
{
    int did = 0;
    for (int i = 0; i < 2; i++)
        for (const uint32_t tl = m->b_run ? LD_ACQ(&m->ah_dtp[i]) : m->ah_dt[i];
             m->ah_dh[i] != tl && m->ah_did[i][m->ah_dh[i] & 255] <= own[D_L2 + i];) {
            m->ah_dh[i]++;
            did = 1;
        }
    return did;
}

/* the first core cycle whose tick reports progress run ahead */
static uint64_t ah_next_did(const det *m)
{
    uint64_t next = UINT64_MAX;
    for (int i = 0; i < 2; i++)
        if (m->ah_dh[i] != (m->b_run ? LD_ACQ(&m->ah_dtp[i]) : m->ah_dt[i])) {
            const uint64_t t = at_or_after(m, D_L2 + i, C_CORE, m->ah_did[i][m->ah_dh[i] & 255]);
            if (t < next)
                next = t;
        }
    return next;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void poke(det *m, int d, uint64_t t)
{
    if (t <= m->dm[d].k)
        t = m->dm[d].k + 1;
    if (t < m->dm[d].wake)
        m->dm[d].wake = t;
}

/* poke from partition pt's L2 or DRAM (in its phase: kept for det_tick_join, which
 * sets the L2 and DRAM wakes from the banks and partitions themselves) */
static void poke_p(det *m, part *pt, int d, uint64_t t)
{
    if (!pt->ph)
        poke(m, d, t);
    else if (d == D_ICNT && t < pt->pk_icnt)
        pt->pk_icnt = t;
}

/* ---- packets and queues ------------------------------------------------------------------ */
static int pool_grow(pkpool *pt)
{
    const uint32_t per = 256;
    if (pt->n_chunks == pt->cap_chunks) {
        uint32_t nc = pt->cap_chunks ? pt->cap_chunks * 2 : 8;
        pkt **c = realloc(pt->chunks, nc * sizeof *c);
        if (!c)
            return -1;
        pt->chunks = c;
        pt->cap_chunks = nc;
    }
    pkt *p = aligned_alloc(_Alignof(pkt), per * sizeof *p);
    if (!p)
        return -1;
    memset(p, 0, per * sizeof *p);
    pt->chunks[pt->n_chunks++] = p;
    for (uint32_t i = 0; i < per; i++) {
        p[i].next = pt->free;
        pt->free = &p[i];
    }
    return 0;
}

/* A packet in flight more (d = 1) or less (d = -1): counted at once, or in the current
 * stretch of a partition in its phase (pseg) */
static struct plog_e *plog_open(det *m);
static inline void pkts_count(det *m, part *pt, int d)
{
    if (m->ah_cur) {
        struct plog_e *e = m->ah_seg ? m->ah_seg : plog_open(m);
        if ((e->dl += d) > e->mx)
            e->mx = e->dl;
    } else if (pt->ph) {
        pseg *g = &pt->seg[pt->n_seg - 1];
        if ((g->dl += d) > g->mx)
            g->mx = g->dl;
    } else if (d > 0) {
        if (++m->pkts_live > m->pkts_max)
            m->pkts_max = m->pkts_live;
    } else {
        m->pkts_live--;
    }
}

/* A packet for partition p from its pool o */
static inline __attribute__((always_inline)) pkt *pool_take(pkpool *o, uint32_t p)
{
    if (!o->free && pool_grow(o))
        return NULL;
    pkt *q = o->free;
    o->free = q->next;
    /* the fields read without being set first: the other fields are set by
     * the creator (sm_inject, coh_send, and run_bank for the DRAM's packets, which
     * nobody reads idx, sm or l1 of), the crossbar view by icnt_push (the caller sets
     * its kind), the DRAM view whole by run_bank for the one packet that goes to DRAM,
     * and a transaction's fields when it opens; zeroing all of it on every packet cost
     * more than the rest */
    q->excl = q->grant = q->tx = q->cop = q->aw = 0;
    q->part = (uint16_t)p;
    return q;
}

static inline void pool_put(pkpool *o, pkt *q)
{
    q->next = o->free;
    o->free = q;
}

/* the packets in flight counted at once: the crossbar side's own calls (sm_inject,
 * sm_reply) come in interconnect cycles, which never run ahead or in a partition phase */
static inline void pkts_now(det *m, int d)
{
    if (d > 0) {
        if (++m->pkts_live > m->pkts_max)
            m->pkts_max = m->pkts_live;
    } else {
        m->pkts_live--;
    }
}

/* the crossbar side's packets (pa) */
static inline __attribute__((always_inline)) pkt *pkt_new_a(det *m, uint32_t p)
{
    pkt *q = pool_take(&m->pt[p].pa, p);
    if (q)
        pkts_now(m, 1);
    return q;
}
static void pkt_free_a(det *m, pkt *q)
{
    pool_put(&m->pt[q->part].pa, q);
    pkts_now(m, -1);
}

/* a packet of partition p's pool (b: pb, else pa), counted where the cycle is */
static inline __attribute__((always_inline)) pkt *pkt_take(det *m, uint32_t p, int b)
{
    pkt *q = pool_take(b ? &m->pt[p].pb : &m->pt[p].pa, p);
    if (q)
        pkts_count(m, &m->pt[p], 1);
    return q;
}
static inline void pkt_give(det *m, pkt *q, int b)
{
    pool_put(b ? &m->pt[q->part].pb : &m->pt[q->part].pa, q);
    pkts_count(m, &m->pt[q->part], -1);
}

/* pa's packets from calls in any domain's cycles (the directory's messages) */
static pkt *pkt_new(det *m, uint32_t p) { return pkt_take(m, p, 0); }
static void pkt_free(det *m, pkt *q) { pkt_give(m, q, 0); }

/* the L2's packets for DRAM (pb) */
static inline __attribute__((always_inline)) pkt *pkt_new_b(det *m, uint32_t p) { return pkt_take(m, p, 1); }
static void pkt_free_b(det *m, pkt *q) { pkt_give(m, q, 1); }

/* a crossbar side's packet that the L2 side ends (a write-back) */
static void pkt_free_x(det *m, pkt *q)
{
    part *pt = &m->pt[q->part];
    if (m->b_run) {
        q->next = pt->xret;
        pt->xret = q;
    } else {
        pool_put(&pt->pa, q);
    }
    pkts_count(m, pt, -1);
}

static void pq_init(pq *q)
{
    memset(q, 0, sizeof *q);
    q->ht = UINT64_MAX;
}

/* p->t_ready is set by the caller first */
static void pq_push(pq *q, pkt *p)
{
    p->next = NULL;
    if (q->t) {
        q->t->next = p;
    } else {
        q->h = p;
        q->ht = p->t_ready;
    }
    q->t = p;
    q->n++;
}

static pkt *pq_pop(pq *q)
{
    pkt *p = q->h;
    q->h = p->next;
    if (q->h) {
        q->ht = q->h->t_ready;
    } else {
        q->t = NULL;
        q->ht = UINT64_MAX;
    }
    q->n--;
    p->next = NULL;
    return p;
}

static void bit_set(uint64_t *b, uint32_t i) { b[i / 64] |= 1ull << (i % 64); }
static void bit_clr(uint64_t *b, uint32_t i) { b[i / 64] &= ~(1ull << (i % 64)); }

/* First set bit >= from in [0, n), or n. */
static inline uint32_t next_bit(const uint64_t *b, uint32_t n, uint32_t from)
{
    if (n <= 64) {        /* the common case: one word */
        uint64_t x = from < 64 ? b[0] >> from : 0;
        return x ? from + (uint32_t)__builtin_ctzll(x) : n;
    }
    while (from < n) {
        uint64_t x = b[from / 64] >> (from % 64);
        if (x) {
            from += (uint32_t)__builtin_ctzll(x);
            return from < n ? from : n;
        }
        from = (from / 64 + 1) * 64;
    }
    return n;
}

/* First bit >= from in [0, n) set in a and clear in c, or n. */
static inline uint32_t next_bit_andn(const uint64_t *a, const uint64_t *c, uint32_t n, uint32_t from)
{
    while (from < n) {
        uint64_t x = (a[from / 64] & ~c[from / 64]) >> (from % 64);
        if (x) {
            from += (uint32_t)__builtin_ctzll(x);
            return from < n ? from : n;
        }
        from = (from / 64 + 1) * 64;
    }
    return n;
}

/* b's next L2 cycle with work lowered to t (when earlier), and partition p's earliest
 * reply head to t: each keeps its bit set while finite */
static inline void bank_lower(det *m, l2bank *b, uint64_t t)
{
    if (t < b->next) {
        part *pt = &m->pt[b->part_id];
        b->next = t;
        if (t < pt->bmin)
            pt->bmin = t;
        if (!pt->ph)   /* in the partition phase: set by det_tick_join */
            bit_set(m->bank_set, b->gid);
    }
}
static inline void out_lower(det *m, uint32_t p, uint64_t t)
{
    if (t < m->pt[p].out_t) {
        m->pt[p].out_t = t;
        if (!m->pt[p].ph) {
            bit_set(m->out_set, p);
            if (t < m->out_min)
                m->out_min = t;
        }
    }
}

/* First set bit after g in [0, n), or n (next_bit(b, n, g + 1), one word read) */
static inline uint32_t bit_after(const uint64_t *b, uint32_t n, uint32_t g)
{
    if (n <= 64) {
        uint64_t x = b[0] & ~((2ull << g) - 1);   /* g == 63: 2 << 63 == 0, no bit left */
        return x ? (uint32_t)__builtin_ctzll(x) : n;
    }
    return next_bit(b, n, g + 1);
}

/* SM s roused (memsys.h roused) */
static inline void rouse_set(det *m, uint32_t s) { m->base.roused[s / 64] |= 1ull << (s % 64); }

/* SM s out of inj_blk (its injection state changed) */
static inline void blk_clr(det *m, uint32_t s)
{
    const uint64_t bit = 1ull << (s % 64);
    if (m->inj_blk[s / 64] & bit) {
        m->inj_blk[s / 64] &= ~bit;
        m->sm[s].blk = 0;
        m->n_blk--;
        rouse_set(m, s);
    }
}

/* l2bank.iq: the push ring's place of entry i, the taking ring's of taking i */
#define IQ_T(b, i) ((b)->iq[(i) & ((1u << (b)->iq_log2) - 1)])
#define IQ_C(b, i) ((b)->iq[(1u << (b)->iq_log2) + ((i) & ((1u << (b)->iq_log2) - 1))])

/* b's rings twice as large (64 places each at first); 0 when out of memory */
static int iq_grow(l2bank *b)
{
    const uint32_t lg = b->iq ? b->iq_log2 + 1u : 6u, cap = 1u << lg;
    if (lg > 31)
        return 0;
    uint64_t *q = malloc(2 * (size_t)cap * sizeof *q);
    if (!q)
        return 0;
    for (uint32_t i = b->iq_set; i != b->iq_push; i++)
        q[i & (cap - 1)] = IQ_T(b, i);
    for (uint32_t i = b->iq_app; i != b->iq_con; i++)
        q[cap + (i & (cap - 1))] = IQ_C(b, i);
    free(b->iq);
    b->iq = q;
    b->iq_log2 = (uint8_t)lg;
    return 1;
}

/* room for one more in a ring holding `used` */
static void iq_room(l2bank *b, uint32_t used)
{
    if (used >= 1u << b->iq_log2 && !iq_grow(b)) {
        fprintf(stderr, "warpsim: out of memory (L2 input queue)\n");
        abort();
    }
}

/* the crossbar's view of q (its t_ready set) entering b's input queue */
static void iq_note(l2bank *b, const pkt *q)
{
    iq_room(b, b->iq_push - b->iq_set);
    IQ_T(b, b->iq_push) = q->t_ready;
    b->iq_push++;
}

/* q (its t_ready set) into b's input queue, through the pipeline */
static void in_push(l2bank *b, pkt *q)
{
    pq_push(&b->in, q);
    iq_note(b, q);
}

/* the bank takes its input head at L2 cycle k (iq_con published: the partition thread's
 * takings are read by A's iq_replay) */
static void in_take(det *m, l2bank *b, uint64_t k)
{
    pq_pop(&b->in);
    /* the entry after the new head: its line comes from the crossbar's thread with the
     * partition thread, in time for its turn */
    if (b->in.h && b->in.h->next)
        __builtin_prefetch(&b->in.h->next->next);
    if (!m->b_run)   /* (the partition thread's room is made before its run: b_start) */
        iq_room(b, b->iq_con - b->iq_app);
    IQ_C(b, b->iq_con) = k;
    ST_REL(&b->iq_con, b->iq_con + 1);
}

/* the bank's takings as the crossbar may read them: while the partition thread runs, as
 * of A's last look at its progress (b_drain: every taking before A's cycle) */
static inline uint32_t iq_con_a(const det *m, const l2bank *b)
{
    return m->b_run ? b->iq_cv : b->iq_con;
}

/* the crossbar's count of b's entries through the pipeline by L2 cycle t */
static void iq_settle(l2bank *b, uint64_t t)
{
    while (b->iq_set != b->iq_push && IQ_T(b, b->iq_set) <= t)
        b->iq_set++;
}

/* L2 cycle t comes before interconnect cycle k in the serial order (time, then
 * interconnect, L2, DRAM) */
static inline int l2_before(const det *m, uint64_t t, uint64_t k)
{
    return t * m->f[D_ICNT] < k * m->f[D_L2];
}

/* The crossbar's view of bank b's input queue at its cycle k (lk: the last L2 cycle at
 * or before it): the entries through the pipeline by lk and not taken by the bank
 * before k in the serial order (l2bank.iq_*). Applies the bank's takings before k, an
 * L2 cycle's at a time, and unstalls its stalled port after the first that leaves fewer
 * than l2.in_queue (in the serial order the bank's cycle did, and only a taking lowers
 * the count), so that the bank's cycles may run before the crossbar's. */
static void iq_replay(det *m, l2bank *b, uint64_t k)
{
    const uint32_t con = iq_con_a(m, b);
    uint32_t app = b->iq_app;
    while (app != con) {
        const uint64_t t = IQ_C(b, app);
        if (!l2_before(m, t, k))
            break;
        iq_settle(b, t);
        do
            app++;
        while (app != con && IQ_C(b, app) == t);
        ST_RLX(&b->iq_app, app);
        if (b->sport != UINT32_MAX && b->iq_set + b->iq_back - app < m->in_cap) {
            bit_clr(m->req_stall, b->sport);
            b->sport = UINT32_MAX;
        }
    }
}

/* iq_replay when a taking before k waits (the usual answer: none, one load) */
static inline void iq_apply(det *m, l2bank *b, uint64_t k)
{
    if (b->iq_app != iq_con_a(m, b) && l2_before(m, IQ_C(b, b->iq_app), k))
        iq_replay(m, b, k);
}

static uint32_t iq_view(det *m, l2bank *b, uint64_t k, uint64_t lk)
{
    iq_apply(m, b, k);
    iq_settle(b, lk);
    return b->iq_set + b->iq_back - b->iq_app;
}

/* r->t_done is set by the caller first; *min tracks the earliest head of a group */
static void rq_push(rq *q, mem_req *r, uint64_t *min)
{
    if (r->t_done < *min)
        *min = r->t_done;
    r->next = NULL;
    if (q->t) {
        q->t->next = r;
    } else {
        q->h = r;
        q->ht = r->t_done;
    }
    q->t = r;
}

/* Where address a lives below the crossbar: the address map picks one of dram.channels
 * channels; its partition (L2 module) is channel / cpl, the line's index address in
 * the partition interleaves the lines of the partition's channels (channel-local line
 * number x cpl + the channel's rank), then the banks. */
static void l2_where(const det *m, uint64_t a, addrmap_loc *loc, uint32_t *part, uint32_t *bank,
                     uint64_t *idx)
{
    addrmap_map_local(&m->am, a, loc);   /* (the DRAM's bank, row and column: not needed) */
    uint64_t ln = amap_div_q(&m->div_l2line, loc->local);
    uint32_t p = loc->part;
    if (m->cpl > 1) {
        p = (uint32_t)amap_div_q(&m->div_cpl, loc->part);
        ln = ln * m->cpl + (loc->part - p * m->cpl);
    }
    uint64_t lb = amap_div_q(&m->div_nbank, ln);
    *part = p;
    *bank = (uint32_t)(ln - lb * m->n_bank);
    *idx = lb * m->l2_line;
}

/* ---- configuration ------------------------------------------------------------------------ */
typedef struct {
    uint32_t size, ways, line, sector, latency, ports, mshr_entries, mshr_merges, miss_queue;
    const char *repl, *set_index;
} lvl_keys;

#define LVL_KEYS(cfg, s)                                                                     \
    ((lvl_keys){(cfg)->s.size, (cfg)->s.ways, (cfg)->s.line, (cfg)->s.sector, (cfg)->s.latency, \
                (cfg)->s.ports, (cfg)->s.mshr_entries, (cfg)->s.mshr_merges,                 \
                (cfg)->s.miss_queue, (cfg)->s.repl, (cfg)->s.set_index})

static int lvl_cfg(const lvl_keys *k, const char *sec, uint64_t seed, cache_cfg *cc, char *err,
                   size_t n)
{
    memset(cc, 0, sizeof *cc);
    char known[128];
    cc->repl = repl_find(k->repl);
    if (!cc->repl) {
        repl_known(known, sizeof known);
        snprintf(err, n, "%s.repl: unknown replacement policy '%s' (%s)", sec, k->repl, known);
        return -1;
    }
    cc->set_index = setidx_find(k->set_index);
    if (!cc->set_index) {
        setidx_known(known, sizeof known);
        snprintf(err, n, "%s.set_index: unknown set-index function '%s' (%s)", sec, k->set_index,
                 known);
        return -1;
    }
    uint64_t per_set = (uint64_t)k->ways * k->line;
    if (k->size % per_set || k->line % k->sector || k->line / k->sector > 32) {
        snprintf(err, n, "%s: size %u must be a multiple of ways x line (%llu), line a multiple "
                 "of sector with at most 32 sectors", sec, k->size, (unsigned long long)per_set);
        return -1;
    }
    cc->sets = (uint32_t)(k->size / per_set);
    if (cc->set_index->check) {
        char why[160];
        if (cc->set_index->check(cc->sets, k->line, why, sizeof why)) {
            snprintf(err, n, "%s.set_index: %s", sec, why);
            return -1;
        }
    }
    cc->ways = k->ways;
    cc->line = k->line;
    cc->sector = k->sector;
    cc->seed = seed;
    cc->latency = k->latency;
    cc->ports = k->ports;
    cc->mshr_entries = k->mshr_entries;
    cc->mshr_merges = k->mshr_merges;
    cc->miss_queue = k->miss_queue;
    return 0;
}

int mem_detailed_check(const ws_config *cfg, char *err, size_t n)
{
    char buf[256];
    if (!err || !n) {
        err = buf;
        n = sizeof buf;
    }
    cache_cfg cc;
    lvl_keys lk[4] = {LVL_KEYS(cfg, l1d), LVL_KEYS(cfg, l1c), LVL_KEYS(cfg, l1i), LVL_KEYS(cfg, l2)};
    static const char *const sec[4] = {"l1d", "l1c", "l1i", "l2"};
    for (int i = 0; i < 4; i++)
        if (lvl_cfg(&lk[i], sec[i], 0, &cc, err, n))
            return -1;
    for (int i = 0; i < 3; i++)
        if (lk[i].line > cfg->l2.line) {
            snprintf(err, n, "%s.line (%u) must not exceed l2.line (%u)", sec[i], lk[i].line,
                     cfg->l2.line);
            return -1;
        }
    const coh_ops *coh = coh_find(cfg->mem.protocol);
    if (!coh) {
        char known[128];
        coh_known(known, sizeof known);
        snprintf(err, n, "mem.protocol: unknown coherence protocol '%s' (%s)", cfg->mem.protocol,
                 known);
        return -1;
    }
    if (coh->check && coh->check(cfg, err, n))
        return -1;
    if (coh->on_dir && (cfg->gpu.n_sm > 64 || cfg->l1d.line != cfg->l2.line)) {
        snprintf(err, n, "mem.protocol=%s keeps a 64-bit sharer vector per L2 line: at most 64 "
                 "SMs (gpu.n_sm %u), and l1d.line (%u) must equal l2.line (%u)", coh->name,
                 cfg->gpu.n_sm, cfg->l1d.line, cfg->l2.line);
        return -1;
    }
    if (strcmp(cfg->l1d.mshr_policy, "fixed") && strcmp(cfg->l1d.mshr_policy, "adaptive")) {
        snprintf(err, n, "l1d.mshr_policy: unknown policy '%s' (fixed, adaptive)",
                 cfg->l1d.mshr_policy);
        return -1;
    }
    if (dram_sched_find(cfg->dram.sched) < 0) {
        snprintf(err, n, "dram.sched: unknown scheduler '%s' (frfcfs, fifo)", cfg->dram.sched);
        return -1;
    }
    if (cfg->gpu.mem_bus_bits % (8 * cfg->dram.channels)) {
        snprintf(err, n, "gpu.mem_bus_bits (%u) must split into whole bytes over dram.channels (%u)",
                 cfg->gpu.mem_bus_bits, cfg->dram.channels);
        return -1;
    }
    if (cfg->dram.burst % cfg->dram.beats_per_clk) {
        snprintf(err, n, "dram.burst (%u) must be a multiple of dram.beats_per_clk (%u)",
                 cfg->dram.burst, cfg->dram.beats_per_clk);
        return -1;
    }
    if (cfg->dram.channels % cfg->dram.channels_per_l2) {
        snprintf(err, n, "dram.channels (%u) must be a multiple of dram.channels_per_l2 (%u)",
                 cfg->dram.channels, cfg->dram.channels_per_l2);
        return -1;
    }
    if (cfg->dram.channels > 65535) {
        snprintf(err, n, "dram.channels: at most 65535");
        return -1;
    }
    uint32_t big = cfg->l2.line;
    uint32_t flits = (cfg->icnt.header + big + cfg->icnt.flit - 1) / cfg->icnt.flit;
    if (cfg->icnt.in_buf < flits || cfg->icnt.out_buf < flits) {
        snprintf(err, n, "icnt.in_buf and icnt.out_buf must hold the largest packet: %u flits "
                 "(header %u + line %u bytes in %u-byte flits)", flits, cfg->icnt.header, big,
                 cfg->icnt.flit);
        return -1;
    }
    addrmap am;
    if (addrmap_init(&am, cfg->addr.map, cfg->dram.channels, cfg->addr.chunk, cfg->dram.banks,
                     cfg->dram.row_bytes, cfg->addr.bank_xor, buf, sizeof buf)) {
        snprintf(err, n, "addr.map: %s", buf);
        return -1;
    }
    if (addrmap_set_local_bits(&am, cfg->addr.local_bits, buf, sizeof buf)) {
        snprintf(err, n, "addr.local_bits: %s", buf);
        return -1;
    }
    return 0;
}

static int det_check(const void *cfg, char *err, size_t n)
{
    return mem_detailed_check(cfg, err, n);
}

/* ---- creation ---------------------------------------------------------------------------- */
static void det_destroy(memsys *ms);
static void dec_init(det *m);
static void dir_recall(void *ctx, uint64_t line_addr, const uint8_t *dir, uint64_t now);

static memsys *det_create(const void *cfgp, uint32_t n_sm)
{
    const ws_config *cfg = cfgp;
    char err[256];
    if (!n_sm || n_sm > 65535) {
        fprintf(stderr, "warpsim: detailed memory model: bad SM count %u\n", n_sm);
        return NULL;
    }
    if (mem_detailed_check(cfg, err, sizeof err)) {
        fprintf(stderr, "warpsim: detailed memory model: %s\n", err);
        return NULL;
    }
    det *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->base.ops = &mem_model_detailed;
    m->n_sm = n_sm;
    if (cfg->mem.trace_l1d[0]) {
        if (!(m->trace = fopen(cfg->mem.trace_l1d, "a"))) {
            fprintf(stderr, "warpsim: mem.trace_l1d: cannot open '%s'\n", cfg->mem.trace_l1d);
            free(m);
            return NULL;
        }
        m->trace_sm = cfg->mem.trace_sm;
        fputs("# cold: a new memory system, every cache empty\n", m->trace);
    }
    m->flush_l1d = cfg->l1d.flush_at_exit;
    m->fill_on_copy = cfg->l2.fill_on_copy;
    m->sector_req = cfg->l2.sector_requests;
    m->ppp = cfg->icnt.port_per_bank ? cfg->l2.banks : 1;
    m->cpl = cfg->dram.channels_per_l2;
    m->n_part = cfg->dram.channels / m->cpl;
    m->div_cpl = amap_div_make(m->cpl);
    m->n_bank = cfg->l2.banks;
    m->l2_line = cfg->l2.line;
    m->div_l2line = amap_div_make(m->l2_line);
    m->div_nbank = amap_div_make(m->n_bank);
    m->f_core = cfg->gpu.core_mhz;
    m->f[D_ICNT] = cfg->icnt.mhz;
    m->f[D_L2] = cfg->l2.mhz;
    m->f[D_DRAM] = cfg->gpu.mem_mhz;
    m->f[C_CORE] = m->f_core;
    for (int a = 0; a <= D__N; a++)
        for (int b = 0; b <= D__N; b++) {
            uint64_t g = gcd(m->f[a], m->f[b]);
            m->cp[a][b] = m->f[b] / g;
            m->cq[a][b] = amap_div_make(m->f[a] / g);
        }
    for (int d = 0; d < D__N; d++)
        m->dm[d].wake = UINT64_MAX;
    m->header = cfg->icnt.header;
    m->atom_lat = cfg->l2.atomic_latency;
    m->dram_lat = cfg->dram.latency;
    m->in_cap = cfg->l2.in_queue;
    m->l2_pipe = cfg->l2.pipeline;
    m->out_cap = cfg->l2.out_queue;
    m->coh = coh_find(cfg->mem.protocol);
    m->dir = m->coh->on_dir != NULL;
    m->l1d_adaptive = !strcmp(cfg->l1d.mshr_policy, "adaptive");
    m->l1d_lat = cfg->l1d.latency;
    m->l2_lat = cfg->l2.latency;
    if (m->dir && (n_sm > 64 || cfg->l1d.line != cfg->l2.line)) {
        fprintf(stderr, "warpsim: detailed memory model: mem.protocol=%s keeps a 64-bit sharer "
                "vector per L2 line: at most 64 SMs, and l1d.line must equal l2.line\n",
                m->coh->name);
        free(m);
        return NULL;
    }
    if (!(m->coh_p = m->coh->create(cfg, err, sizeof err))) {
        fprintf(stderr, "warpsim: detailed memory model: %s\n", err);
        free(m);
        return NULL;
    }
    addrmap_init(&m->am, cfg->addr.map, cfg->dram.channels, cfg->addr.chunk, cfg->dram.banks,
                 cfg->dram.row_bytes, cfg->addr.bank_xor, err, sizeof err);
    addrmap_set_local_bits(&m->am, cfg->addr.local_bits, err, sizeof err);

    cache_cfg cc[4];
    lvl_keys lk[4] = {LVL_KEYS(cfg, l1d), LVL_KEYS(cfg, l1c), LVL_KEYS(cfg, l1i), LVL_KEYS(cfg, l2)};
    if ((m->sm = aligned_alloc(64, n_sm * sizeof *m->sm)) != NULL)
        memset(m->sm, 0, n_sm * sizeof *m->sm);
    if ((m->pt = aligned_alloc(64, m->n_part * sizeof *m->pt)) != NULL)
        memset(m->pt, 0, m->n_part * sizeof *m->pt);
    m->inj_set = calloc((n_sm + 63) / 64, sizeof *m->inj_set);
    m->inj_blk = calloc((n_sm + 63) / 64, sizeof *m->inj_blk);
    m->out_set = calloc((m->n_part + 63) / 64, sizeof *m->out_set);
    m->bank_set = calloc(((size_t)m->n_part * m->n_bank + 63) / 64, sizeof *m->bank_set);
    m->req_stall = calloc(((size_t)m->n_part * m->ppp + 63) / 64, sizeof *m->req_stall);
    m->bk = calloc((size_t)m->n_part * m->n_bank, sizeof *m->bk);
    m->stl = calloc((size_t)m->n_part * m->ppp, sizeof *m->stl);
    m->dctx = calloc((size_t)m->n_part * m->n_bank, sizeof *m->dctx);
    if (!m->sm || !m->pt || !m->inj_set || !m->inj_blk || !m->out_set || !m->bank_set || !m->req_stall ||
        !m->bk || !m->stl || !m->dctx)
        goto fail;
    for (uint32_t s = 0; s < n_sm; s++) {
        m->sm[s].inj = UINT64_MAX;
        m->sm[s].minf = UINT32_MAX;
        m->sm[s].poke = UINT64_MAX;
        m->sm[s].done_t = UINT64_MAX;
        for (int i = 0; i <= L1__N; i++)
            m->sm[s].done[i].ht = UINT64_MAX;
        for (int l = 0; l < L1__N; l++)
            m->sm[s].head_t[l] = UINT64_MAX;
        m->sm[s].hmin = UINT64_MAX;
        pq_init(&m->sm[s].cout);
    }
    for (int l = 0; l < L1__N; l++) {
        m->l1_line[l] = lk[l].line;       /* what cache_config() of each of them says */
        m->l1_sector[l] = lk[l].sector;
    }
    dec_init(m);
    const uint32_t *shared_by = m->l1_shared;
    m->l1_shared[L1D] = 1;
    m->l1_shared[L1C] = cfg->l1c.shared_by;
    m->l1_shared[L1I] = cfg->l1i.shared_by;
    for (uint32_t s = 0; s < n_sm; s++)
        for (int l = 0; l < L1__N; l++) {
            /* a shared L1 (SPEC 6: the scalar cache and the L1I of 4 CUs) belongs to the
             * first SM of its group; the others point to it */
            uint32_t o = s - s % shared_by[l];
            m->sm[s].own[l] = o;
            if (l == 0)
                m->sm[s].solo = 1;
            if (o != s)
                m->sm[s].solo = 0;
            if (o != s) {
                m->sm[s].l1[l] = m->sm[o].l1[l];
                continue;
            }
            /* a distinct, reproducible random stream per cache */
            lvl_cfg(&lk[l], l1_name[l], cfg->sim.seed ^ ((uint64_t)s << 8 | (uint64_t)l), &cc[l], err,
                    sizeof err);
            cc[l].coh = m->coh;
            cc[l].level = (uint8_t)l1_level[l];
            cc[l].mshr_adaptive = (uint8_t)(l == L1D && m->l1d_adaptive);
            if (l == L1D && !cfg->l1d.coalesce)
                cc[l].no_coalesce = 1;   /* no second coalescer: waits with its own entry */
            if (l == L1D && ws_cfg_l1d_latency_queue(cfg))
                cc[l].latency = 1;       /* the SM's latency queue holds the rest (ldq.h) */
            if (!(m->sm[s].l1[l] = cache_create(&cc[l], err, sizeof err)))
                goto fail;
        }
    dram_cfg dc = {
        .banks = cfg->dram.banks, .queue = cfg->dram.queue,
        .bus_bytes = cfg->gpu.mem_bus_bits / 8 / cfg->dram.channels, .beats_per_clk = cfg->dram.beats_per_clk,
        .burst_len = cfg->dram.burst, .tCCD = cfg->dram.tccd, .tRRD = cfg->dram.trrd,
        .bank_groups = cfg->dram.bank_groups, .tCCDL = cfg->dram.tccdl,
        .tRCD = cfg->dram.trcd, .tRAS = cfg->dram.tras, .tRP = cfg->dram.trp, .tRC = cfg->dram.trc,
        .tCL = cfg->dram.tcl, .tWL = cfg->dram.twl, .tWR = cfg->dram.twr, .tRTW = cfg->dram.trtw,
        .tWTR = cfg->dram.twtr, .tREFI = cfg->dram.refresh ? cfg->dram.trefi : 0,
        .tRFC = cfg->dram.trfc, .sched = dram_sched_find(cfg->dram.sched)};
    for (uint32_t p = 0; p < m->n_part; p++) {
        part *pt = &m->pt[p];
        pt->next = UINT64_MAX;
        pt->out_t = UINT64_MAX;
        if (!(pt->ch = calloc(m->cpl, sizeof *pt->ch)) ||
            !(pt->b = calloc(m->n_bank, sizeof *pt->b)))
            goto fail;
        for (uint32_t c = 0; c < m->cpl; c++) {
            if (!(pt->ch[c] = dram_create(&dc, err, sizeof err)))
                goto fail;
            if (dc.tREFI) {
                uint64_t t = dram_next(pt->ch[c], 0);
                if (t < pt->next)
                    poke(m, D_DRAM, pt->next = t);
            }
        }
        for (uint32_t b = 0; b < m->n_bank; b++) {
            lvl_cfg(&lk[3], "l2", cfg->sim.seed ^ (0x4c32ull << 32 | (uint64_t)p << 8 | b), &cc[3],
                    err, sizeof err);
            cc[3].coh = m->coh;
            cc[3].level = COH_L2;
            if (!cfg->l2.coalesce)
                cc[3].no_coalesce = 1;   /* no coalescing at L2: waits with its own entry */
            if (m->dir && m->coh->dir_holders) {
                cc[3].dir_evict = dir_recall;
                m->dctx[p * m->n_bank + b] = (l2ctx){m, &pt->b[b]};
                cc[3].dir_evict_ctx = &m->dctx[p * m->n_bank + b];
            }
            pt->b[b].part_id = (uint16_t)p;
            pt->b[b].gid = p * m->n_bank + b;
            pt->b[b].sport = UINT32_MAX;
            m->bk[pt->b[b].gid] = &pt->b[b];
            pt->b[b].next = UINT64_MAX;
            pq_init(&pt->b[b].in);
            if (!iq_grow(&pt->b[b]))
                goto fail;
            pq_init(&pt->b[b].out[0]);
            pq_init(&pt->b[b].out[1]);
            pq_init(&pt->b[b].ret);
            if (!(pt->b[b].c = cache_create(&cc[3], err, sizeof err)))
                goto fail;
            pt->b[b].cc = cache_config(pt->b[b].c);
        }
    }
    /* ah_room's bound: a bank is near full with out_cap - (ports + mshr_merges) replies
     * queued (all banks, when that is 0: n_near stays 1) */
    m->near_thr = UINT32_MAX;
    for (uint32_t g = 0; g < m->n_part * m->n_bank; g++) {
        const uint32_t w = m->bk[g]->cc->ports + m->bk[g]->cc->mshr_merges;
        const uint32_t t = m->out_cap > w ? m->out_cap - w : 0;
        if (t < m->near_thr)
            m->near_thr = t;
    }
    m->n_near = m->near_thr == 0;
    icnt_cfg ic = {.n_src = n_sm, .n_dst = m->n_part * m->ppp, .flit = cfg->icnt.flit,
                   .in_buf = cfg->icnt.in_buf, .out_buf = cfg->icnt.out_buf,
                   .latency = cfg->icnt.latency};
    if (!(m->req = icnt_create(&ic, err, sizeof err)))
        goto fail;
    ic.n_src = m->n_part * m->ppp;
    ic.n_dst = n_sm;
    if (!(m->rep = icnt_create(&ic, err, sizeof err)))
        goto fail;
    if (!(m->segv = calloc((size_t)m->n_part * PSEG_MAX + 1, sizeof *m->segv)) ||
        !(m->pdue = calloc(m->n_part, sizeof *m->pdue)) ||
        !(m->port_part = calloc((size_t)m->n_part * m->ppp + 1, sizeof *m->port_part)))
        goto fail;
    for (uint32_t o = 0; o <= m->n_part * m->ppp; o++)
        m->port_part[o] = o / m->ppp;
    for (uint32_t p = 0; p < m->n_part; p++)
        m->pt[p].bmin = UINT64_MAX;
    m->bmin_ok = 1;
    /* the L2 and DRAM domains ahead of the crossbar: not with a directory, a trace or
     * instruction budgets (they stop at a cycle not known beforehand; a cycle budget
     * caps the runs: horizon); with host threads the partitions then tick in the serial
     * tick (det_par_parts: no partition-parallel tick); a run is the pipeline's depth in
     * core cycles less one */
    m->ah_on = cfg->mem.l2_ahead && !m->dir && !m->trace && !cfg->sim.max_insts &&
               !cfg->func.watchdog_insts;
    m->ah_cap = UINT64_MAX;
    {
        const uint64_t lc = m->l2_pipe ? (m->l2_pipe - 1) * m->f_core / m->f[D_L2] : 0;
        m->ah_len = lc > 1 ? lc - 1 : 0;
        /* a run's domain cycles within ah_did's rings of 256 (ah_mark) */
        for (int d = D_L2; d <= D_DRAM; d++)
            if (m->ah_len * m->f[d] / m->f_core + 2 > 255)
                m->ah_len = 253 * m->f_core / m->f[d];
        if (!m->ah_len)
            m->ah_on = 0;
    }
    m->b_cfg = m->ah_on && cfg->mem.l2_thread && cfg->sim.host_threads >= 2;
    m->b_use = 1;
    m->b_rep_on = cfg->mem.l2_thread_reply != WS_REPLY_CALLER;
    m->rep_pin = (int)cfg->mem.l2_thread_reply;
    if (m->b_cfg) {
        const uint32_t nb = m->n_part * m->n_bank;
        m->stg = calloc(2 * (size_t)nb, sizeof *m->stg);
        m->stg_n = calloc(nb, sizeof *m->stg_n);
        if (!m->stg || !m->stg_n)
            goto fail;
        /* a run's replies per partition: up to out_cap per bank (ah_room) */
        uint32_t w = 0;
        for (uint32_t g = 0; g < nb; g++) {
            const uint32_t x = m->bk[g]->cc->ports + m->bk[g]->cc->mshr_merges;
            if (x > w)
                w = x;
        }
        uint32_t cap = 64;
        while (cap < 2 * m->n_bank * (m->out_cap + w + 2))
            cap *= 2;
        for (uint32_t p = 0; p < m->n_part; p++) {
            m->pt[p].ob_cap = cap;
            if (!(m->pt[p].ob = malloc(cap * sizeof *m->pt[p].ob)))
                goto fail;
        }
    }
    /* the partition-parallel tick (det_par_parts): at most one interconnect cycle per
     * core cycle, every L2 cycle at the time of an interconnect cycle (the two then come
     * in the order interconnect, L2), and the stretches of a core cycle within pseg */
    m->par_ok = m->f[D_ICNT] <= m->f_core && m->f[D_L2] <= m->f[D_ICNT] &&
                m->f[D_ICNT] % m->f[D_L2] == 0 &&
                (m->f[D_DRAM] + m->f_core - 1) / m->f_core + 2 <= PSEG_MAX;
    m->req_out = icnt_out_set(m->req);
    m->rep_out = icnt_out_set(m->rep);
    m->req_t = icnt_out_times(m->req);
    m->req_h = icnt_out_heads(m->req);
    m->req_used = icnt_in_used(m->req);
    m->req_freed = icnt_in_freed(m->req);
    m->rep_got = icnt_out_got(m->rep);
    m->rsd = calloc((n_sm + 63) / 64, sizeof *m->rsd);
    m->arr_t = malloc(n_sm * sizeof *m->arr_t);
    if (!m->rsd || !m->arr_t)
        goto fail;
    for (uint32_t s = 0; s < n_sm; s++)
        m->arr_t[s] = UINT64_MAX;
    m->base.roused = m->rsd;
    m->base.pop_t = &m->sm[0].done_t;     /* memsys.h pop_t: det_pop's own first test */
    m->base.pop_stride = sizeof *m->sm;
    m->base.pop_n = n_sm;
    m->req_in_buf = cfg->icnt.in_buf;
    m->rep_t = icnt_out_times(m->rep);
    return &m->base;
fail:
    det_destroy(&m->base);
    return NULL;
}

static void det_destroy(memsys *ms)
{
    det *m = (det *)ms;
    if (!m)
        return;
    if (m->b_thr_ok) {
        if (m->b_run)
            b_join(m);
        ST_REL(&m->b_quit, 1);
        b_wake(m);
        pthread_join(m->b_thr, NULL);
        pthread_cond_destroy(&m->b_cv);
        pthread_mutex_destroy(&m->b_mu);
    }
    free(m->stg);
    free(m->stg_n);
    if (m->trace)
        fclose(m->trace);
    if (m->sm)
        for (uint32_t s = 0; s < m->n_sm; s++)
            for (int l = 0; l < L1__N; l++)
                if (m->sm[s].own[l] == s)
                    cache_destroy(m->sm[s].l1[l]);
    if (m->pt)
        for (uint32_t p = 0; p < m->n_part; p++) {
            if (m->pt[p].ch)
                for (uint32_t c = 0; c < m->cpl; c++)
                    dram_destroy(m->pt[p].ch[c]);
            free(m->pt[p].ch);
            free(m->pt[p].ob);
            if (m->pt[p].b)
                for (uint32_t b = 0; b < m->n_bank; b++) {
                    cache_destroy(m->pt[p].b[b].c);
                    free(m->pt[p].b[b].iq);
                }
            free(m->pt[p].b);
        }
    icnt_destroy(m->req);
    icnt_destroy(m->rep);
    for (uint32_t p = 0; m->pt && p < m->n_part; p++) {
        for (uint32_t i = 0; i < m->pt[p].pa.n_chunks; i++)
            free(m->pt[p].pa.chunks[i]);
        free(m->pt[p].pa.chunks);
        for (uint32_t i = 0; i < m->pt[p].pb.n_chunks; i++)
            free(m->pt[p].pb.chunks[i]);
        free(m->pt[p].pb.chunks);
    }
    free(m->sm);
    free(m->inj_set);
    free(m->inj_blk);
    free(m->out_set);
    free(m->rsd);
    free(m->arr_t);
    free(m->rlog);
    free(m->bank_set);
    free(m->req_stall);
    free(m->stl);
    free(m->dctx);
    free(m->plog);
    free(m->bk);
    free(m->segv);
    free(m->pdue);
    free(m->port_part);
    free(m->pt);
    if (m->coh_p)
        m->coh->destroy(m->coh_p);
    free(m);
}

static uint32_t req_bytes(const det *m, uint8_t type, uint32_t size);

/* ---- the SM side: L1 accesses ---------------------------------------------------------- */
static int l1_of(const mem_req *r)
{
    if (r->kind == MR_IFETCH)
        return L1I;
    return r->space == SP_CONST || r->space == SP_PARAM ? L1C : L1D;
}

static void l1_acc(const det *m, const mem_req *r, cache_acc *a)
{
    memset(a, 0, sizeof *a);
    a->addr = a->idx = r->addr;
    a->size = r->size;
    a->tok = (void *)r;
    /* mem_req has no byte mask: a store's or atomic's data are taken as its first
     * bytes_used bytes (the right amount on the wire and in dirty masks; the position
     * inside the line is approximate) */
    if ((r->kind == MR_STORE || r->kind == MR_ATOMIC) && r->bytes_used && r->bytes_used < r->size)
        a->size = r->bytes_used;
    /* what the access is, its write and allocation policy, or a bypass: the protocol's */
    coh_req q = {.level = (uint8_t)l1_level[l1_of(r)], .kind = r->kind, .msg = r->msg,
                 .space = r->space, .cop = r->cop, .sm = r->sm,
                 .line = r->sm < m->n_sm ? m->l1_line[l1_of(r)] : 0};
    m->coh->on_access(m->coh_p, &q, a);
}

/* A request's entry in det.dec, NULL for none: kind < 4, space < 8, cop < 8 and msg
 * MSG_REQUEST (what SMs issue) index it as kind | space << 2 | cop << 5. */
static inline const l1dec *dec_of(const det *m, const mem_req *r)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* kind, space, cop, msg as one word (req_key): bytes 0..3 */
    uint64_t sizes;
    uint32_t w;
    req_key(r, &sizes, &w);
    (void)sizes;
    if (w & 0xfff8f8fcu)
        return NULL;
    const l1dec *d = &m->dec[(w | w >> 6 | w >> 11) & 0xff];
#else
    uint32_t k = r->kind, sp = r->space, co = r->cop;
    if ((k >> 2 | sp >> 3 | co >> 3 | r->msg) != 0)
        return NULL;
    const l1dec *d = &m->dec[k | sp << 2 | co << 5];
#endif
    return d->ok ? d : NULL;
}

/* det.dec, when the protocol's on_access may be tabulated and no trace is written (the
 * trace's accesses take l1_acc's path): on_access of every key, as l1_acc asks it. */
static void dec_init(det *m)
{
    if (!m->coh->access_by_kind || m->trace)
        return;
    for (int i = 0; i < 256; i++) {
        mem_req r = {.kind = (uint8_t)(i & 3), .space = (uint8_t)(i >> 2 & 7),
                     .cop = (uint8_t)(i >> 5), .msg = MSG_REQUEST};
        cache_acc a;
        l1_acc(m, &r, &a);   /* (sm 0: on_access does not read it) */
        l1dec *d = &m->dec[i];
        d->ok = 1;
        d->l = (uint8_t)l1_of(&r);
        d->op = a.op;
        d->wpol = a.wpol;
        d->apol = a.apol;
        d->bypass = a.bypass;
        d->excl = a.excl;
        d->force = a.force;
        d->read = a.op == CQ_READ && !a.bypass && !a.force && !a.excl &&
                  (r.kind == MR_LOAD || r.kind == MR_IFETCH);
    }
}

/* l1_acc from a table entry */
static inline void dec_acc(const l1dec *d, mem_req *r, cache_acc *a)
{
    a->addr = a->idx = r->addr;
    a->size = r->size;
    if ((r->kind == MR_STORE || r->kind == MR_ATOMIC) && r->bytes_used && r->bytes_used < r->size)
        a->size = r->bytes_used;
    a->op = d->op;
    a->wpol = d->wpol;
    a->apol = d->apol;
    a->bypass = d->bypass;
    a->excl = d->excl;
    a->force = d->force;
    a->tok = r;
}

/* SM s's calls in its cycle `cycle` (det_repeat): a new cycle's record */
static inline void ph_note(smside *s, uint64_t cycle)
{
    if (s->ph_cyc != cycle) {
        s->ph_cyc = cycle;
        s->ph_mask = s->ph_bad = 0;
    }
}

/* ... L1 l refused it (cause out) */
static inline void ph_refused(smside *s, int l, mem_access out)
{
    const uint8_t bit = (uint8_t)(1u << l);
    s->ph_bad |= s->ph_mask >> l & 1;
    s->ph_n[l] = s->ph_mask & bit ? (uint8_t)(s->ph_n[l] + (s->ph_n[l] < UINT8_MAX)) : 1;
    s->ph_out[l] = (uint8_t)out;
    s->ph_mask |= bit;
}

static mem_access det_probe(const memsys *ms, const mem_req *r, uint64_t cycle)
{
    const det *m = (const det *)ms;
    if (r->sm >= m->n_sm)
        return MA_MQF;
    /* a cycle that probes may choose otherwise next time (det_repeat): SM r->sm's own
     * record, written only by the thread that runs it (the model is not const) */
    smside *s = &((det *)m)->sm[r->sm];
    ph_note(s, cycle);
    s->ph_bad = 1;
    cache_acc a;
    l1_acc(m, r, &a);
    return cache_probe(m->sm[r->sm].l1[l1_of(r)], &a);
}

/* det_access past the refusal memo (kept out of line: the LD/ST unit retries a refused
 * request every cycle, and that path should not pay this one's frame) */
static __attribute__((noinline)) mem_access det_access_slow(det *m, smside *s, int l, refmemo *rm,
                                                            mem_req *r, uint64_t cycle,
                                                            const l1dec *d);

/* o->minf and o->hmin after a change of its heads */
static void sm_minf(smside *o)
{
    uint32_t f = UINT32_MAX;
    uint64_t h = UINT64_MAX;
    for (int l = 0; l < L1__N; l++)
        if (o->head_t[l] != UINT64_MAX) {
            if (o->head_f[l] < f)
                f = o->head_f[l];
            if (o->head_t[l] < h)
                h = o->head_t[l];
        }
    o->minf = f;
    o->hmin = h;
}

static mem_access det_access(memsys *ms, mem_req *r, uint64_t cycle)
{
    det *m = (det *)ms;
    if (r->sm >= m->n_sm)
        return MA_MQF;
    smside *s = &m->sm[r->sm];
    ph_note(s, cycle);
    const l1dec *d = dec_of(m, r);
    const int l = d ? d->l : l1_of(r);
    refmemo *rm = &s->rm[l];
    cache *c = s->l1[l];
    if (rm->addr == r->addr && cache_memo_stands(c, rm->stamp) && !m->trace) {
        uint64_t sizes;
        uint32_t kinds;
        req_key(r, &sizes, &kinds);
        if (rm->sizes == sizes && rm->kinds == kinds) {
            /* the same request as the last refused one, and the L1's memo of it stands:
             * cache_access() would find it (cache_refuse_again) */
            const mem_access out = cache_refuse_again_inline(c);
            ph_refused(s, l, out);
            return out;
        }
    }
    if (d && d->read) {
        /* the common case: a plain read that hits (det_access_slow's outcome, short) */
        const uint64_t t = cache_read_hit_inline(c, r->addr, r->size, cycle);
        if (t != UINT64_MAX) {
            s->ph_bad = 1;
            r->t_issue = cycle;
            s->out_d++;
            r->t_done = t;
            rq_push(&s->done[l], r, &s->done_t);
            return MA_HIT;
        }
    }
    return det_access_slow(m, s, l, rm, r, cycle, d);
}

static inline __attribute__((always_inline)) uint64_t next_sm_of(const det *m, uint32_t sm,
                                                                   uint64_t cycle);

/* det_repeat's refusals by more than the L1D alone (mk: the L1s that refused): 1 when
 * every one's memo stands, else 0 (out of line: rare) */
static __attribute__((noinline)) int repeat_refusals(const smside *s, uint32_t mk)
{
    for (int l = 0; l < L1__N; l++)
        if ((mk >> l & 1) && (!s->rm[l].stamp || cache_refusal_stamp(s->l1[l]) != s->rm[l].stamp))
            return 0;
    return 1;
}

/* memsys.h repeat: SM sm's cycle `cycle` as a repeat of its cycle `last` - nothing to
 * pop, and every L1 that refused it in `last` would refuse the same request again
 * (det_access's fast path: its memo stands; det_repeat_stats counts it) */
static uint64_t det_repeat(memsys *ms, uint32_t sm, uint64_t last, uint64_t cycle)
{
    det *m = (det *)ms;
    if (sm >= m->n_sm || m->trace)
        return 0;
    smside *s = &m->sm[sm];
    if (s->done_t <= cycle)
        return 0;
    if (s->ph_cyc == last) {   /* (else no call in `last` but empty pops) */
        const uint32_t mk = s->ph_mask;
        if (s->ph_bad)
            return 0;
        if (mk == 1u << L1D) {   /* (the usual case: the LD/ST unit's request) */
            if (!cache_memo_stands(s->l1[L1D], s->rm[L1D].stamp))
                return 0;
        } else if (mk && !repeat_refusals(s, mk)) {
            return 0;
        }
    }
    return next_sm_of(m, sm, cycle);   /* (det_next_sm, inline: sm < n_sm) */
}

/* memsys.h repeat_stats: the n cycles after `last` each refused what `last` refused (an
 * SM retries a refused request every cycle; while it slept, or its cycles repeated,
 * nothing changed for it: no L1 it was refused by, which it alone uses, changed. A
 * shared L1 (l1c/l1i.shared_by) may have: there the cause counted is last's) */
static void det_repeat_stats(memsys *ms, uint32_t sm, uint64_t last, uint64_t n)
{
    det *m = (det *)ms;
    if (sm >= m->n_sm)
        return;
    const smside *s = &m->sm[sm];
    if (s->ph_cyc != last || !s->ph_mask)
        return;
    for (int l = 0; l < L1__N; l++)
        if (s->ph_mask >> l & 1)
            cache_count_refusals(s->l1[l], (mem_access)s->ph_out[l], n * s->ph_n[l]);
}

static mem_access det_access_slow(det *m, smside *s, int l, refmemo *rm, mem_req *r,
                                  uint64_t cycle, const l1dec *d)
{
    cache_acc a;
    if (d)
        dec_acc(d, r, &a);
    else
        l1_acc(m, r, &a);
    uint32_t before = cache_mq_len(s->l1[l]);
    uint64_t t_done;
    mem_access out = cache_access(s->l1[l], &a, cycle, &t_done);
    if (m->trace && l == L1D && r->sm == m->trace_sm) {
        /* mem.trace_l1d: cycle, warp slot, line address, outcome, request kind */
        static const char *const oc[MA__COUNT] = {"hit", "miss", "merged", "bypass", "csf", "mshrf", "mqf"};
        static const char *const kd[4] = {"load", "store", "atomic", "ifetch"};
        fprintf(m->trace, "%llu %u %llx %s %s\n", (unsigned long long)cycle, r->warp,
                (unsigned long long)(r->addr - r->addr % cache_config(s->l1[l])->line), oc[out],
                kd[r->kind & 3]);
    }
    if (mem_access_refused(out)) {
        rm->addr = r->addr;
        req_key(r, &rm->sizes, &rm->kinds);
        rm->stamp = cache_refusal_stamp(s->l1[l]);
        ph_refused(s, l, out);
        return out;
    }
    s->ph_bad = 1;
    r->t_issue = cycle;
    s->out_d++;
    if (t_done != UINT64_MAX) {
        r->t_done = t_done;
        rq_push(&s->done[l], r, &s->done_t);
    } else {
        s->pend++;
    }
    if (!before && cache_mq_len(s->l1[l])) {
        /* a shared L1's misses leave through its owner's port */
        smside *o = &m->sm[s->own[l]];
        const cache_miss *h = cache_mq_head(s->l1[l]);
        uint64_t t = at_or_after(m, C_CORE, D_ICNT, h->t_ready);
        o->head_t[l] = t;
        o->head_b[l] = req_bytes(m, h->type, h->size);
        o->head_f[l] = icnt_flits(m->req, o->head_b[l]);
        sm_minf(o);
        if (t < o->inj)
            o->inj = t;
        if (t < o->poke)
            o->poke = t;   /* det_commit: inj_set and the interconnect's wake */
    }
    return out;
}

static void nsm_refresh(det *m);

/* The end of a cycle's SM phase (memsys.h commit): SM i's deferred changes of shared
 * state. What next_event_sm reads of them: the interconnect's wake. */
static int det_commit(memsys *ms, uint32_t i, uint64_t cycle)
{
    det *m = (det *)ms;
    (void)cycle;
    smside *s = &m->sm[i];
    m->outstanding += (uint64_t)s->out_d;
    s->out_d = 0;
    if (i + 1 == m->n_sm)
        m->committed = 1;
    if (s->poke == UINT64_MAX)
        return 0;
    bit_set(m->inj_set, i);
    blk_clr(m, i);   /* a new head: it may fit */
    uint64_t w = m->dm[D_ICNT].wake;
    poke(m, D_ICNT, s->poke);
    s->poke = UINT64_MAX;
    if (m->dm[D_ICNT].wake == w)
        return 0;
    nsm_refresh(m);
    return 1;
}

static mem_req *det_pop(memsys *ms, uint32_t sm, uint64_t cycle)
{
    det *m = (det *)ms;
    if (sm >= m->n_sm)
        return NULL;
    smside *s = &m->sm[sm];
    if (s->done_t > cycle)
        return NULL;      /* the SM asks every cycle; usually nothing is due */
    /* the earliest head, replies first on a tie, then L1D, L1C, L1I hits: done_t is
     * the least head, so the first of them in that order whose head is done_t (the
     * search below finds the same when done_t is a lower bound only) */
    const uint64_t dt = s->done_t;
    int best = s->done[L1__N].ht == dt ? L1__N : s->done[L1D].ht == dt ? L1D
             : s->done[L1C].ht == dt ? L1C : s->done[L1I].ht == dt ? L1I : -1;
    if (best < 0) {
        uint64_t bt = UINT64_MAX;
        static const int order[L1__N + 1] = {L1__N, L1D, L1C, L1I};
        for (int i = 0; i < L1__N + 1; i++) {
            uint64_t t = s->done[order[i]].ht;
            if (t <= cycle && t < bt) {
                bt = t;
                best = order[i];
            }
        }
        if (best < 0)
            return NULL;
    }
    rq *q = &s->done[best];
    mem_req *r = q->h;
    q->h = r->next;
    if (q->h) {
        q->ht = q->h->t_done;
    } else {
        q->t = NULL;
        q->ht = UINT64_MAX;
    }
    _Static_assert(L1__N + 1 == 4, "det_pop: four done queues");
    uint64_t a = s->done[0].ht < s->done[1].ht ? s->done[0].ht : s->done[1].ht;
    uint64_t b = s->done[2].ht < s->done[3].ht ? s->done[2].ht : s->done[3].ht;
    s->done_t = a < b ? a : b;
    r->next = NULL;
    ph_note(s, cycle);
    s->ph_bad = 1;
    s->out_d--;
    if (r->kind < 4) {
        s->req_n[r->kind]++;
        s->req_lat[r->kind] += r->t_done - r->t_issue;
    }
    return r;
}

/* ---- interconnect domain ----------------------------------------------------------------- */
static uint32_t req_bytes(const det *m, uint8_t type, uint32_t size)
{
    /* requests carry data for writes and atomics (operands) */
    return m->header + (type == CM_WRITE || type == CM_WRITEBACK || type == CM_ATOMIC ? size : 0);
}

static uint32_t rep_bytes(const det *m, const pkt *p)
{
    /* replies carry data for reads, fetches and atomics (old values); write acks,
     * invalidations and forwards none */
    return m->header + (p->type == CM_WRITE || p->type >= PT_INV ? 0 : p->size);
}

/* A fill completes a waiting request: to its own SM (a shared L1 serves several). */
static void fill_done(void *ctx, void *tok, uint64_t t)
{
    det *m = ctx;
    mem_req *r = tok;
    smside *sm = &m->sm[r->sm];
    r->t_done = t;
    assert(sm->pend > 0);
    sm->pend--;
    rq_push(&sm->done[L1__N], r, &sm->done_t);
}

/* SM s's earliest injection time: its L1 miss queues' heads and its acknowledgements. */
static void sm_inj_update(det *m, uint32_t s)
{
    smside *sm = &m->sm[s];
    blk_clr(m, s);
    sm->inj = sm->cout.ht;
    for (int i = 0; i < L1__N; i++)
        if (sm->head_t[i] < sm->inj)
            sm->inj = sm->head_t[i];
    if (sm->inj == UINT64_MAX)
        bit_clr(m->inj_set, s);
    else
        bit_set(m->inj_set, s);
}

/* A directory's invalidation or forward reaches SM s's L1D at core cycle t: the L1
 * applies it at once (never deferred: the L2 keeps the line busy until the answer to
 * an earlier request has entered the reply crossbar, which delivers in order per
 * partition and SM, so a message never overtakes the fill it concerns) and its
 * acknowledgement, with the dirty bytes the protocol returns, leaves after the L1D
 * latency, ahead of the L1s' miss records. The packet itself becomes the ack. */
static void sm_coh_message(det *m, uint32_t s, pkt *p, uint64_t t)
{
    smside *sm = &m->sm[s];
    uint32_t bytes = 0;
    cache_coh_message(sm->l1[L1D], p->addr, p->addr, p->type == PT_INV ? MSG_INVALIDATE
                      : MSG_FORWARD, t, &bytes);
    p->mkind = p->type;
    p->type = PT_ACK;
    p->size = bytes;
    p->t_ready = at_or_after(m, C_CORE, D_ICNT, t + m->l1d_lat);
    pq_push(&sm->cout, p);
    sm_inj_update(m, s);
    poke(m, D_ICNT, p->t_ready);
}

/* A reply reaches SM s at interconnect cycle k. */
static void sm_reply(det *m, uint32_t s, pkt *p, uint64_t k)
{
    uint64_t t = at_or_after(m, D_ICNT, C_CORE, k);
    smside *sm = &m->sm[s];
    if (p->type == PT_INV || p->type == PT_FWD) {
        sm_coh_message(m, s, p, t);
        return;
    }
    if (p->type == CM_FETCH) {
        cache_fill_grant(sm->l1[p->l1], p->mshr, p->sectors, t, fill_done, m, p->grant);
    } else if (p->tok) {
        mem_req *r = p->tok;
        r->t_done = t;
        smside *to = r->sm < m->n_sm ? &m->sm[r->sm] : sm;
        assert(to->pend > 0);
        to->pend--;
        rq_push(&to->done[L1__N], r, &to->done_t);
    }
    pkt_free_a(m, p);
}

/* One miss record of SM s into the request crossbar, round-robin over its L1s. */
static inline __attribute__((always_inline)) int sm_inject(det *m, uint32_t s, uint64_t k)
{
    smside *sm = &m->sm[s];
    if (sm->cout.ht <= k) {
        pkt *a = sm->cout.h;
        uint32_t bytes = m->header + a->size;
        if (!icnt_can_push(m->req, s, bytes))
            return 0;
        pq_pop(&sm->cout);
        a->m.kind = MSG_ACK;
        icnt_push(m->req, &a->m, s, a->part * m->ppp + (m->ppp > 1 ? a->bank : 0), bytes, k, k);
        sm_inj_update(m, s);
        return 1;
    }
    for (uint32_t j = 1; j <= L1__N; j++) {
        uint32_t l = sm->rr + j;
        if (l >= L1__N)
            l -= L1__N;
        if (sm->head_t[l] > k)
            continue;
        uint32_t bytes = sm->head_b[l];
        if (m->req_used[s] + sm->head_f[l] > m->req_in_buf) {   /* icnt_can_push, inline */
            m->req_refused++;
            return 0;        /* the input buffer is shared by the three L1s */
        }
        const cache_miss *h = cache_mq_head_inline(sm->l1[l]);
        addrmap_loc loc;
        uint32_t part, bank;
        uint64_t idx;
        l2_where(m, h->addr, &loc, &part, &bank, &idx);
        pkt *p = pkt_new_a(m, part);
        if (!p)
            return 0;
        p->idx = idx;
        p->addr = h->addr;
        p->size = h->size;
        p->sectors = h->sectors;
        p->mshr = h->mshr;
        p->tok = h->tok;
        p->type = h->type;
        p->excl = h->excl;
        p->cop = h->tok && h->type != CM_FETCH && h->type != CM_WRITEBACK
                     ? ((const mem_req *)h->tok)->cop : 0;
        p->sm = (uint16_t)s;
        p->l1 = (uint8_t)l;
        p->m.kind = h->type == CM_WRITEBACK ? MSG_WRITEBACK : MSG_REQUEST;
        p->bank = (uint8_t)bank;
        icnt_push(m->req, &p->m, s, part * m->ppp + (m->ppp > 1 ? p->bank : 0), bytes, k, k);
        /* awaited: a fetch, or an SM's mem_req that is no write-back (det.aw_up; counted
         * only when the partitions may run ahead: the count is what stops them, and
         * without running ahead the partition-parallel tick's threads would all write
         * it in l2_reply) */
        p->aw = m->ah_on && p->type != CM_WRITEBACK && (p->type == CM_FETCH || p->tok);
        if (p->aw)
            m->aw_in++;
        cache_mq_pop(sm->l1[l]);
        sm->rr = l;
        h = cache_mq_head_inline(sm->l1[l]);
        sm->head_t[l] = h ? at_or_after(m, C_CORE, D_ICNT, h->t_ready) : UINT64_MAX;
        sm->head_b[l] = h ? req_bytes(m, h->type, h->size) : 0;
        sm->head_f[l] = h ? icnt_flits(m->req, sm->head_b[l]) : 0;
        sm_minf(sm);
        sm_inj_update(m, s);
        return 1;
    }
    return 0;
}

static void coh_ack(det *m, part *pt, pkt *a, uint64_t k);
static void tx_close(det *m, part *pt, pkt *r, uint64_t k);

/* ---- the reply side of an interconnect cycle (det.rep_*, det.rlog) ------------------------- */
enum { RL_POP, RL_GRANT, RL_BUSY };

/* the log's end as A may read it: while the partition thread runs, what it published */
static inline uint32_t rlog_tail(const det *m)
{
    return m->b_run ? LD_ACQ(&m->rlog_pt) : m->rlog_t;
}

/* the interconnect cycle of the log's next entry for A (UINT64_MAX: none) */
static inline uint64_t rlog_next(const det *m)
{
    return m->rlog_h != rlog_tail(m) ? m->rlog[m->rlog_h & (m->rlog_cap - 1)].k : UINT64_MAX;
}

/* room in the log for n more entries */
static void rlog_reserve(det *m, uint32_t n)
{
    if (m->rlog_t - m->rlog_h + n > m->rlog_cap)
        m->rlog = ring_grow(m->rlog, &m->rlog_cap, m->rlog_h, m->rlog_t, n, sizeof *m->rlog, 1024,
                            "reply log");
}

static inline void rlog_put(det *m, uint32_t kind, uint32_t s, pkt *p, uint64_t k, uint64_t t)
{
    if (m->rlog_t - m->rlog_h0 == m->rlog_cap) {   /* (b_start made room for the run) */
        fprintf(stderr, "warpsim: partition thread: reply log full (a bug)\n");
        abort();
    }
    m->rlog[m->rlog_t++ & (m->rlog_cap - 1)] = (struct rlog_e){p, k, t, s, kind};
}

/* A: the log's entries up to interconnect cycle k, as the serial model does them in
 * that cycle: the replies to the SMs, the grants' rousing, and the progress */
static int rlog_drain(det *m, uint64_t k)
{
    int did = 0;
    const uint32_t tl = rlog_tail(m);
    while (m->rlog_h != tl) {
        const struct rlog_e *e = &m->rlog[m->rlog_h & (m->rlog_cap - 1)];
        if (e->k > k)
            break;
        m->rlog_h++;
        did = 1;
        if (e->kind == RL_POP) {
            m->arr_t[e->s] = e->t;
            sm_reply(m, e->s, e->p, e->k);
        } else if (e->kind == RL_GRANT) {
            m->arr_t[e->s] = e->t;
            rouse_set(m, e->s);
        }
    }
    return did;
}

/* The reply side's pops at interconnect cycle k: every reply arrived at an SM's port,
 * to the SM now (log 0: A runs it) or through the log (B) */
static inline __attribute__((always_inline)) int rep_pops(det *m, uint64_t k, int log)
{
    int did = 0;
    const uint32_t sw = (m->n_sm + 63) / 64;
    for (uint32_t wd = 0; wd < sw; wd++)
        for (uint64_t bits = m->rep_out[wd]; bits; bits &= bits - 1) {
            uint32_t s = wd * 64 + (uint32_t)__builtin_ctzll(bits);
            while (m->rep_t[s] <= k) {
                pkt *p = PKT_OF_MSG(icnt_pop(m->rep, s, k));
                did = 1;
                if (log) {
                    rlog_put(m, RL_POP, s, p, k, m->rep_t[s]);
                } else {
                    m->arr_t[s] = m->rep_t[s];
                    sm_reply(m, s, p, k);
                }
            }
        }
    return did;
}

/* One reply into the reply crossbar at port `port` (port o of partition p) at
 * interconnect cycle k, round-robin over the port's reply queues; 1 when one went */
static int rep_inject(det *m, uint32_t p, uint32_t o, uint32_t port, uint64_t k)
{
    part *pt = &m->pt[p];
    const uint32_t ppp = m->ppp;
    const uint32_t nq = ppp > 1 ? 2 : 2 * m->n_bank, q0 = ppp > 1 ? 2 * o : 0;
    uint32_t *rr = ppp > 1 ? &pt->b[o].rr : &pt->rr;
    for (uint32_t j = 1, x = *rr; pt->out_t <= k && j <= nq; j++) {
        if (++x == nq)
            x = 0;
        pq *q = &pt->b[(q0 + x) / 2].out[(q0 + x) % 2];
        if (q->ht > k)
            continue;
        uint32_t bytes = rep_bytes(m, q->h);
        if (!icnt_can_push(m->rep, port, bytes))
            break;
        pkt *r = pq_pop(q);
        l2bank *ob = &pt->b[(q0 + x) / 2];
        /* (obn, n_near and oblk are the banks' thread's: not A's while B runs with the
         * reply side A's, when no bank sleeps on its reply queues, ah_room, and b_join
         * counts obn and n_near again) */
        if (!m->b_run || m->b_rep) {
            if (m->ah_on)
                m->n_near -= ob->obn == m->near_thr;
            ob->obn--;
            if (ob->oblk) {
                /* room in its reply queues: seen from its L2 cycle at this time on
                 * (ties: the interconnect first) */
                const uint64_t t = at_or_after(m, D_ICNT, D_L2, k);
                ob->oblk = 0;
                m->n_oblk -= (uint32_t)m->ah_on;
                bank_lower(m, ob, t);
                poke(m, D_L2, t);
            }
        }
        r->m.kind = r->type == PT_INV   ? MSG_INVALIDATE
                    : r->type == PT_FWD ? MSG_FORWARD
                    : r->type == CM_WRITE ? MSG_ACK : MSG_RESPONSE;
        icnt_push(m->rep, &r->m, port, r->sm, bytes, k, k);
        if (r->tx)
            tx_close(m, pt, r, k);
        *rr = x;
        pt->out_t = UINT64_MAX;
        for (uint32_t i = 0; i < m->n_bank; i++)
            for (int h = 0; h < 2; h++)
                if (pt->b[i].out[h].ht < pt->out_t)
                    pt->out_t = pt->b[i].out[h].ht;
        if (pt->out_t == UINT64_MAX)
            bit_clr(m->out_set, p);
        return 1;
    }
    return 0;
}

/* The rest of the reply side of interconnect cycle k: one reply into the reply
 * crossbar per port whose banks have one due (round-robin over the port's reply
 * queues), then the reply crossbar's arbitration, whose grants rouse their SMs (now,
 * or through the log) */
static int rep_send(det *m, uint64_t k, int log)
{
    int did = 0;
    if (k >= m->out_min) {
        /* the partitions in out_set are visited, out_min recomputed */
        const uint32_t ppp = m->ppp, n_part = m->n_part;
        uint64_t omin = UINT64_MAX;
        for (uint32_t p = next_bit(m->out_set, n_part, 0); p < n_part;
             p = bit_after(m->out_set, n_part, p)) {
            part *pt = &m->pt[p];
            const uint32_t lo = p * ppp;
            /* port o of the partition: every bank (ppp 1), or bank o alone */
            for (uint32_t o = 0; o < ppp && pt->out_t <= k; o++)
                did |= rep_inject(m, p, o, lo + o, k);
            if (pt->out_t < omin)
                omin = pt->out_t;
        }
        m->out_min = omin;
    }
    if (icnt_cycle(m->rep, k) > 0) {
        did = 1;
        const uint32_t sw = (m->n_sm + 63) / 64;
        for (uint32_t wd = 0; wd < sw; wd++) {
            const uint64_t g = m->rep_got[wd];
            m->rep_got[wd] = 0;
            for (uint64_t x = g; x; x &= x - 1) {
                const uint32_t s = wd * 64 + (uint32_t)__builtin_ctzll(x);
                if (log) {
                    rlog_put(m, RL_GRANT, s, NULL, k, m->rep_t[s]);
                } else {
                    m->arr_t[s] = m->rep_t[s];
                    rouse_set(m, s);
                }
            }
        }
    }
    return did;
}

static inline __attribute__((always_inline)) int run_icnt(det *m, uint64_t k)
{
    int did = 0;
    /* only the ports with traffic; the SMs' bits are read a word at a time (what an SM
     * does here changes no other SM's bit: replies pop their own port, injections
     * update their own inj) */
    const uint32_t sw = (m->n_sm + 63) / 64;
    /* the reply side before it (B's pops, grants and busy cycles up to k), then this
     * cycle's pops unless B ran its reply side */
    if (m->rlog_h != rlog_tail(m))
        did |= rlog_drain(m, k);
    const int rs = (!m->b_run || !m->b_rep) && k > m->rep_done;
    if (rs)
        did |= rep_pops(m, k, 0);
    uint64_t refused = 0;   /* (added to req_refused after the loop) */
    const uint32_t *used = m->req_used;
    const uint64_t in_buf = m->req_in_buf;
    uint64_t *const blk = m->inj_blk;
    refused += m->n_blk;   /* the blocked: refused again, as the test below would */
    for (uint32_t wd = 0; wd < sw; wd++) {
        for (uint64_t bits = m->inj_set[wd] & ~blk[wd]; bits; bits &= bits - 1) {
            uint32_t s = wd * 64 + (uint32_t)__builtin_ctzll(bits);
            const smside *sm = &m->sm[s];
            if (sm->inj > k)
                continue;
            if (sm->cout.ht > k && (uint64_t)used[s] + sm->minf > in_buf) {
                /* sm_inject would refuse the record due first: none fits (counted as it
                 * would); so until buffer space or a head changes, unless an
                 * acknowledgement waits (its time may come) */
                refused++;
                if (sm->cout.ht == UINT64_MAX && !m->exhaustive) {
                    blk[wd] |= 1ull << (s % 64);
                    m->sm[s].blk = 1;
                    m->n_blk++;
                    m->n_blocks++;
                }
                continue;
            }
            did |= sm_inject(m, s, k);
        }
    }
    m->req_refused += refused;
    uint64_t lk = UINT64_MAX;     /* the L2 cycle at k's time, computed on demand */
    /* nb: the first request-crossbar output holding packets at or after partition p's
     * ports (a partition pops only its own ports, so the later ones stand): the
     * partitions with none have nothing to do here and are not visited. */
    /* (read once: the calls below could change *m as far as the compiler knows) */
    const uint32_t ppp = m->ppp, n_part = m->n_part, n_port = n_part * ppp;
    const uint64_t *const req_out = m->req_out, *const req_t = m->req_t;
    const uint32_t *const port_part = m->port_part;
    uint64_t *const stall = m->req_stall;
    /* the stalled ports whose bank made room before this cycle (iq_view) are visited */
    for (uint32_t wd = 0; wd < (n_port + 63) / 64; wd++)
        for (uint64_t bits = stall[wd]; bits; bits &= bits - 1) {
            iq_apply(m, m->stl[wd * 64 + (uint32_t)__builtin_ctzll(bits)], k);
        }
    uint32_t nb = next_bit_andn(req_out, stall, n_port, 0);
    for (;;) {
        const uint32_t p = port_part[nb];
        if (p >= n_part)
            break;
        part *pt = &m->pt[p];
        const uint32_t lo = p * ppp, hi = lo + ppp;
        nb = next_bit_andn(req_out, stall, n_port, hi);
        /* port o of the partition: every bank (ppp 1), or bank o alone */
        for (uint32_t o = 0; o < ppp; o++) {
            const uint32_t port = lo + o;
            /* a port without a packet arrived has nothing to peek, a stalled one nothing
             * to do */
            icnt_msg *msg = req_t[port] <= k && !(stall[port / 64] >> (port % 64) & 1)
                                ? m->req_h[port] : NULL;   /* (icnt_peek) */
            /* acknowledgements go to the directory at once: they never wait behind the
             * input queue (a transaction they complete may be what it waits for) */
            while (msg && msg->kind == MSG_ACK) {
                coh_ack(m, pt, PKT_OF_MSG(icnt_pop(m->req, port, k)), k);
                did = 1;
                msg = req_t[port] <= k ? m->req_h[port] : NULL;
            }
            if (msg) {
                /* (a port per bank: the port's bank, without a look at the packet) */
                l2bank *b = &pt->b[ppp > 1 ? o : PKT_OF_MSG(msg)->bank];
                /* the pipeline always accepts; the queue after it is bounded */
                if (lk == UINT64_MAX)
                    lk = conv_floor(m, D_ICNT, D_L2, k);
                if (iq_view(m, b, k, lk) < m->in_cap) {
                    pkt *q = PKT_OF_MSG(icnt_pop(m->req, port, k));
                    q->t_ready = after(m, D_ICNT, D_L2, k) + m->l2_pipe;
                    /* a new head: the bank's cycle at its time; behind a head, the
                     * bank's next already has the head's term (which is no later), or
                     * leaves it out while the bank sleeps (slp, oblk: a tail changes
                     * nothing the head waits for) */
                    if (m->b_run) {
                        /* the bank is the partition thread's: its queue takes q at
                         * b_join (a run ends before q's time) */
                        pkt **st = &m->stg[2 * b->gid];
                        q->next = NULL;
                        if (st[1])
                            st[1]->next = q;
                        else
                            st[0] = q;
                        st[1] = q;
                        m->stg_n[b->gid]++;
                        iq_note(b, q);
                    } else {
                        if (!b->in.h) {
                            bank_lower(m, b, q->t_ready);
                            poke(m, D_L2, q->t_ready);
                        }
                        in_push(b, q);
                    }
                    did = 1;
                } else if (!m->exhaustive) {
                    /* until the bank takes a waiting entry (run_bank) */
                    b->sport = port;
                    m->stl[port] = b;
                    bit_set(stall, port);
                    m->n_stalls++;
                }
            }
        }
    }
    did |= icnt_cycle(m->req, k) > 0;
    /* its grants released buffer space: those SMs are asked again (with none blocked,
     * the bits stay: one left from before only asks a blocked SM again, which is exact) */
    for (uint32_t wd = 0; m->n_blk && wd < sw; wd++) {
        const uint64_t fr = m->req_freed[wd];
        m->req_freed[wd] = 0;
        for (uint64_t x = blk[wd] & fr; x; x &= x - 1) {
            const uint32_t s = wd * 64 + (uint32_t)__builtin_ctzll(x);
            m->sm[s].blk = 0;
            m->n_blk--;
            rouse_set(m, s);
        }
        blk[wd] &= ~fr;
    }
    if (rs)
        did |= rep_send(m, k, 0);
    return did;
}

/* the reply side's next interconnect cycle with work after k (its runner's view) */
static uint64_t wake_rep(const det *m, uint64_t k)
{
    uint64_t w = icnt_next(m->rep, k);
    for (uint32_t p = next_bit(m->out_set, m->n_part, 0); p < m->n_part;
         p = next_bit(m->out_set, m->n_part, p + 1))
        if (m->pt[p].out_t < w)
            w = m->pt[p].out_t;
    return w <= k ? k + 1 : w;
}

static uint64_t wake_icnt(const det *m, uint64_t k)
{
    /* (k + 1, the earliest answer, ends the search: icnt_next never answers less) */
    uint64_t w = icnt_next(m->req, k);
    if (w == k + 1)
        return w;
    for (uint32_t s = next_bit(m->inj_set, m->n_sm, 0); s < m->n_sm;
         s = next_bit(m->inj_set, m->n_sm, s + 1))
        if (m->sm[s].inj < w)
            w = m->sm[s].inj;
    /* the reply side: A's unless the partition thread runs it (B's log instead) */
    if (!m->b_run || !m->b_rep) {
        const uint64_t t = wake_rep(m, k);
        if (t < w)
            w = t;
    }
    const uint64_t e = rlog_next(m);
    if (e < w)
        w = e;
    return w <= k ? k + 1 : w;
}

/* ---- L2 domain ------------------------------------------------------------------------------ */

/* Reply for the L1's packet q, its data ready at L2 cycle t. */
static void l2_reply(det *m, l2bank *b, pkt *q, uint64_t t, int fill)
{
    if (q->tx && q->acks) {
        q->t_data = t;    /* answered when the last acknowledgement is in */
        q->tx_fill = (uint8_t)fill;
        return;
    }
    if (q->type == CM_WRITEBACK) {
        pkt_free_x(m, q);   /* nobody waits for a write-back */
        return;
    }
    if (q->aw) {
        q->aw = 0;
        m->aw_out++;
    }
    if (q->type == CM_ATOMIC)
        t += m->atom_lat;
    q->t_ready = after(m, D_L2, D_ICNT, t);
    b->obn++;
    if (m->ah_on)   /* (counted only then, as aw_up: no partition-parallel tick) */
        m->n_near += b->obn == m->near_thr;
    if (m->b_run && !m->b_rep) {
        /* the partition thread, A running the reply side: to A through the partition's
         * outbox (b_drain) */
        part *pt = &m->pt[b->part_id];
        const uint32_t t = pt->ob_t;
        if (t - pt->ob_hc == pt->ob_cap && t - (pt->ob_hc = LD_RLX(&pt->ob_h)) == pt->ob_cap) {
            fprintf(stderr, "warpsim: partition thread: reply outbox full (a bug)\n");
            abort();
        }
        pt->ob[t & (pt->ob_cap - 1)] = (struct obe){q, (uint32_t)(b - pt->b), (uint32_t)fill};
        ST_REL(&pt->ob_t, t + 1);
        return;
    }
    pq_push(&b->out[fill ? Q_FILL : Q_HIT], q);
    out_lower(m, q->part, q->t_ready);
    if (m->b_run) {
        /* the partition thread runs the reply side (rep_wake, its cycles after rep_k) */
        const uint64_t t = q->t_ready > m->rep_k ? q->t_ready : m->rep_k + 1;
        if (t < m->rep_wake)
            m->rep_wake = t;
        return;
    }
    poke_p(m, &m->pt[q->part], D_ICNT, q->t_ready);
}

static void l2_fill_done(void *ctx, void *tok, uint64_t t)
{
    l2ctx *c = ctx;
    l2_reply(c->m, c->b, tok, t, 1);
}

/* ---- directory transactions (protocols with on_dir) ------------------------------------------ */
/* A directory message (PT_INV / PT_FWD) for line `addr` to SM s, leaving bank b's reply
 * queue after the directory lookup (l2.latency from L2 cycle k); tx the transaction
 * that waits for its acknowledgement (NULL: a recall nobody waits for). Directory
 * messages share the hit-reply queue, so they stay in order with answers queued
 * before them. */
static void coh_send(det *m, l2bank *b, uint8_t type, uint64_t addr, uint32_t s, pkt *tx,
                     uint64_t k)
{
    part *pt = &m->pt[b->part_id];
    pkt *p = pkt_new(m, b->part_id);
    if (!p)
        return;
    p->addr = addr;
    p->idx = 0;
    p->size = p->sectors = p->mshr = 0;
    p->type = type;
    p->tok = tx;
    p->sm = (uint16_t)s;
    p->l1 = L1D;
    p->bank = (uint8_t)(b - pt->b);
    p->t_ready = after(m, D_L2, D_ICNT, k + m->l2_lat);
    pq_push(&b->out[Q_HIT], p);
    b->obn++;
    if (m->ah_on)   /* (counted only then, as aw_up: no partition-parallel tick) */
        m->n_near += b->obn == m->near_thr;
    out_lower(m, p->part, p->t_ready);
    poke_p(m, pt, D_ICNT, p->t_ready);
    pt->coh_st[type == PT_INV ? 1 : 2]++;
    if (tx)
        tx->acks++;
}

/* L2 cache callback: a line with directory state is replaced; the L1 copies it names
 * are invalidated (acknowledged, nobody waits; dirty bytes come back as write-backs). */
static void dir_recall(void *ctx, uint64_t line_addr, const uint8_t *dir, uint64_t now)
{
    const l2ctx *c = ctx;
    l2bank *b = c->b;
    det *m = c->m;
    uint64_t h = m->coh->dir_holders(dir);
    for (uint32_t s = 0; h && s < m->n_sm; s++, h >>= 1)
        if (h & 1)
            coh_send(m, b, PT_INV, line_addr, s, NULL, now);
}

static pkt *tx_find(const det *m, const l2bank *b, uint64_t addr)
{
    uint64_t ln = amap_div_q(&m->div_l2line, addr);
    for (pkt *t = b->tx; t; t = t->txn)
        if (amap_div_q(&m->div_l2line, t->addr) == ln)
            return t;
    return NULL;
}

/* Does the L2 treat this request as a directory transaction? Everything an L1D sends
 * except write-backs, and atomics (which reach the L2 without an L1 lookup). The
 * read-only L1C and L1I are outside the protocol. */
static int coh_tx_req(const pkt *q)
{
    return q->type != CM_WRITEBACK && (q->l1 == L1D || q->type == CM_ATOMIC);
}

/* The transaction's answer entered the reply crossbar at interconnect cycle k: its line
 * is free; the requests that waited for it go back to the head of the bank's input
 * queue, in arrival order, visible from the next L2 cycle. */
static void tx_close(det *m, part *pt, pkt *r, uint64_t k)
{
    l2bank *b = &pt->b[r->bank];
    r->tx = 0;
    for (pkt **pp = &b->tx; *pp; pp = &(*pp)->txn)
        if (*pp == r) {
            *pp = r->txn;
            break;
        }
    if (!r->wh)
        return;
    uint64_t t = after(m, D_ICNT, D_L2, k);
    uint32_t n = 0;
    for (pkt *w = r->wh; w; w = w->next) {
        w->t_ready = t;
        n++;
    }
    r->wt->next = b->in.h;
    if (!b->in.h)
        b->in.t = r->wt;
    b->in.h = r->wh;
    b->in.ht = t;
    b->in.n += n;
    b->iq_back += n;
    r->wh = r->wt = NULL;
    bank_lower(m, b, t);
    poke(m, D_L2, t);
}

/* An acknowledgement reaches partition pt at interconnect cycle k: its transaction
 * counts it (answering the request when it was the last and the data are ready); dirty
 * bytes returned by an invalidated L1 are written into the L2 as a write-back. */
static void coh_ack(det *m, part *pt, pkt *a, uint64_t k)
{
    l2bank *b = &pt->b[a->bank];
    uint64_t lk = after(m, D_ICNT, D_L2, k);
    pkt *tx = a->tok;
    pt->coh_st[3]++;
    pt->coh_st[4] += a->size;
    if (tx && tx->acks && !--tx->acks && tx->t_data != UINT64_MAX)
        l2_reply(m, b, tx, tx->t_data > lk ? tx->t_data : lk, tx->tx_fill);
    if (a->size && a->mkind == PT_INV) {
        a->type = CM_WRITEBACK;
        a->tok = NULL;
        a->idx = 0;
        addrmap_loc loc;
        uint32_t part, bank;
        l2_where(m, a->addr, &loc, &part, &bank, &a->idx);
        a->t_ready = lk + m->l2_pipe;
        in_push(b, a);
        bank_lower(m, b, a->t_ready);
        poke(m, D_L2, a->t_ready);
        return;
    }
    pkt_free(m, a);
}

/* One L2 cycle of bank b; *hp: the head of its miss queue afterwards (bank_next). */
static inline __attribute__((always_inline)) int run_bank(det *m, part *pt, l2bank *b, uint64_t k, const cache_miss **hp)
{
    int did = 0;
    /* visited (its event, or another's lowering of its next): what it waited for is
     * asked again below; the cycles it slept each refused its head */
    if (b->slp | b->oblk | b->dwait) {
        if (b->slp && k > b->k_ref + 1)
            cache_count_refusals(b->c, b->c->memo_out, k - b->k_ref - 1);
        if (b->dwait)
            pt->n_dwait--;
        if (m->ah_on)   /* (counted only then: no partition-parallel tick) */
            m->n_oblk -= b->oblk;
        b->slp = b->oblk = b->dwait = 0;
    }
    const int may_sleep = !m->exhaustive && !m->dir;
    int refused = 0;
    /* 1. one DRAM return */
    if (b->ret.ht <= k) {
        pkt *r = pq_pop(&b->ret);
        if (r->type == CM_FETCH) {
            l2ctx c = {m, b};
            cache_fill(b->c, r->mshr, r->sectors, k, l2_fill_done, &c);
        } else if (r->tok) {
            l2_reply(m, b, r->tok, k, 1);   /* a request the L2 sent past itself */
        }
        pkt_free_b(m, r);
        did = 1;
    }
    /* 2. accesses, in order: a refused head blocks the queue */
    const cache_cfg *cc = b->cc;
    for (uint32_t n = 0; n < cc->ports; n++) {
        if (b->in.ht > k || b->t_port > k)
            break;
        pkt *q = b->in.h;
        if (m->dir && coh_tx_req(q)) {
            pkt *busy = tx_find(m, b, q->addr);
            if (busy) {
                /* its line is in a transaction: wait for it to close (tx_close) */
                b->memo_q = NULL;
                in_take(m, b, k);
                q->next = NULL;
                if (busy->wt)
                    busy->wt->next = q;
                else
                    busy->wh = q;
                busy->wt = q;
                pt->coh_st[5]++;
                did = 1;
                continue;
            }
        }
        if (q->type != CM_WRITEBACK && b->obn >= m->out_cap) {
            b->oblk = (uint8_t)may_sleep;
            pt->n_sleeps[1] += b->oblk;
            if (m->ah_on)
                m->n_oblk += b->oblk;
            break;
        }
        /* the head refused last time, the cache unchanged since: refused again (counted) */
        if (q == b->memo_q && cache_memo_stands(b->c, b->memo_stamp)) {
            (void)cache_refuse_again_inline(b->c);   /* (cache_refuse_again, inline) */
            refused = 1;
            break;
        }
        cache_acc a = {.addr = q->addr, .idx = q->idx, .size = q->size, .tok = q};
        if (q->type == CM_FETCH) {
            /* the sectors the L1 asked for, as one byte range */
            uint32_t l1s = m->l1_sector[q->l1];
            if (q->sectors) {
                uint32_t lo = (uint32_t)__builtin_ctz(q->sectors);
                uint32_t hi = 31 - (uint32_t)__builtin_clz(q->sectors);
                a.addr = q->addr + (uint64_t)lo * l1s;
                a.size = (hi - lo + 1) * l1s;
            }
        }
        coh_req cq = {.level = COH_L2,
                      .kind = q->type == CM_ATOMIC ? MR_ATOMIC
                              : q->type == CM_WRITE || q->type == CM_WRITEBACK ? MR_STORE
                              : MR_LOAD,
                      .msg = q->type == CM_WRITEBACK ? MSG_WRITEBACK : MSG_REQUEST,
                      .sm = q->sm,
                      .src = q->type == CM_FETCH || q->type == CM_WRITEBACK
                                 ? (uint8_t)l1_level[q->l1] : (uint8_t)COH_L2,
                      .excl = q->excl,
                      /* an SM's request forwarded by its L1 carries the SM's cache
                       * operator */
                      .cop = q->cop,
                      .line = cc->line};
        m->coh->on_access(m->coh_p, &cq, &a);
        uint64_t t_done;
        mem_access out = cache_access(b->c, &a, k, &t_done);
        if (mem_access_refused(out)) {
            b->memo_q = q;
            b->memo_stamp = cache_refusal_stamp(b->c);
            refused = 1;
            break;
        }
        b->memo_q = NULL;
        in_take(m, b, k);
        if (m->sector_req && cc->sector < cc->line) {
            /* one port slot per L2 sector the request covers (GPGPU-Sim's sector requests;
             * shifts where the sizes allow: hardware divisions for every request cost more
             * than the rest of this) */
            const uint64_t end = a.addr + (a.size ? a.size : 1) - 1;
            const int sh = b->c->sec_shift;
            uint64_t first = sh >= 0 ? a.addr >> sh : a.addr / cc->sector;
            uint64_t last = sh >= 0 ? end >> sh : end / cc->sector;
            uint32_t used = n + (uint32_t)(last - first + 1);
            if (used > cc->ports) {
                b->t_port = k + (cc->ports == 1 ? used : (used + cc->ports - 1) / cc->ports);
                n = cc->ports;
            } else {
                n = used - 1;
            }
        }
        if (m->dir && (coh_tx_req(q) || (q->type == CM_WRITEBACK && q->l1 == L1D))) {
            /* the directory sees every access of the protocol's L1s the L2 accepted,
             * with its line's directory bytes; a request opens a transaction (its line
             * busy until its answer leaves) and sends what on_dir names */
            uint8_t *d = cache_line_dir(b->c, a.addr, a.idx);
            coh_dir_out o = {0, -1, 0};
            if (d)
                m->coh->on_dir(m->coh_p, d, &cq, &o);
            if (coh_tx_req(q)) {
                uint64_t line = amap_div_q(&m->div_l2line, q->addr) * m->l2_line;
                q->grant = o.grant;
                q->tx = 1;
                q->acks = 0;
                q->t_data = UINT64_MAX;
                q->wh = q->wt = NULL;
                q->txn = b->tx;
                b->tx = q;
                pt->coh_st[0]++;
                uint64_t inv = o.inv;
                for (uint32_t s = 0; inv && s < m->n_sm; s++, inv >>= 1)
                    if (inv & 1)
                        coh_send(m, b, PT_INV, line, s, q, k);
                if (o.fwd >= 0 && (uint32_t)o.fwd < m->n_sm)
                    coh_send(m, b, PT_FWD, line, (uint32_t)o.fwd, q, k);
            }
        }
        if (t_done != UINT64_MAX)
            l2_reply(m, b, q, t_done, 0);
        did = 1;
    }
    /* 3. one miss record toward DRAM */
    const cache_miss *h = cache_mq_head_inline(b->c);
    addrmap_loc loc;
    uint32_t sub = 0;   /* the line's channel among the partition's */
    if (h && h->t_ready <= k && m->cpl > 1) {
        addrmap_map(&m->am, h->addr, &loc);
        sub = loc.part - (uint32_t)amap_div_q(&m->div_cpl, loc.part) * m->cpl;
    }
    if (h && h->t_ready <= k && dram_can_push(pt->ch[sub])) {
        if (m->cpl == 1)
            addrmap_map(&m->am, h->addr, &loc);
        pkt *r = pkt_new_b(m, b->part_id);
        if (r) {
            r->addr = h->addr;
            r->size = h->size;
            r->sectors = h->sectors;
            r->mshr = h->mshr;
            r->tok = h->tok;
            r->type = h->type;
            r->bank = (uint8_t)(b - pt->b);
            r->d = (dram_req){
                .bank = loc.bank, .row = loc.row, .bytes = r->size,
                /* l2.sector_requests: each fetched sector is a column command of its own */
                .cmds = m->sector_req && r->type == CM_FETCH && r->sectors
                            ? (uint8_t)ws_pop32(r->sectors) : 1,
                .write = r->type == CM_WRITE || r->type == CM_WRITEBACK};
            uint64_t ready = after(m, D_L2, D_DRAM, k);
            dram_push(pt->ch[sub], &r->d, m->dm[D_DRAM].k, ready);
            cache_mq_pop(b->c);
            h = cache_mq_head_inline(b->c);
            if (ready < pt->next)
                pt->next = ready;
            poke_p(m, pt, D_DRAM, ready);
            did = 1;
        }
    } else if (h && h->t_ready <= k && may_sleep) {
        b->dwait = 1;   /* until channel sub makes room (dram_chan) */
        b->dsub = (uint8_t)sub;
        pt->n_dwait++;
        pt->n_sleeps[2]++;
    }
    /* refused, and nothing since changed the cache: sleeps past its refusals (only
     * when its memo still stands after step 3's miss-queue pop) */
    if (refused && may_sleep && b->memo_q == b->in.h && cache_memo_stands(b->c, b->memo_stamp)) {
        b->slp = 1;
        b->k_ref = k;
        pt->n_sleeps[0]++;
    }
    *hp = h;
    return did;
}

/* h: the head of b's miss queue (cache_mq_head); a sleeping bank's head leaves its
 * term out (l2bank.slp, oblk, dwait: an event lowers its next) */
static uint64_t bank_next(const l2bank *b, uint64_t k, const cache_miss *h)
{
    uint64_t w = b->ret.ht;
    uint64_t in = b->in.ht > b->t_port ? b->in.ht : b->t_port;
    if (b->in.ht != UINT64_MAX && in < w && !(b->slp | b->oblk))
        w = in;
    if (h && h->t_ready < w && !b->dwait)
        w = h->t_ready;
    return w <= k ? k + 1 : w;
}

static int run_l2(det *m, uint64_t k)
{
    int did = 0;
    uint64_t w = UINT64_MAX;
    /* the banks with work (bank_set), in bank order: the others' next is UINT64_MAX
     * (exhaustive: every bank, all bits set); read a word at a time (a bank's cycle
     * changes no other bank's bit) */
    const uint32_t nw = (m->n_part * m->n_bank + 63) / 64;
    const int ex = m->exhaustive;
    /* the partitions' bmin: set again by det_tick_serial when a split tick follows */
    m->bmin_ok = 0;
    for (uint32_t wd = 0; wd < nw; wd++)
        for (uint64_t bits = m->bank_set[wd]; bits; bits &= bits - 1) {
            uint32_t g = wd * 64 + (uint32_t)__builtin_ctzll(bits);
            l2bank *b = m->bk[g];
            if (b->next <= k || ex) {
                const cache_miss *h;
                did |= run_bank(m, &m->pt[b->part_id], b, k, &h);
                if ((b->next = bank_next(b, k, h)) == UINT64_MAX && !ex)
                    bit_clr(m->bank_set, g);
            }
            if (b->next < w)
                w = b->next;
        }
    m->dm[D_L2].wake = w;
    return did;
}

/* ---- DRAM domain ----------------------------------------------------------------------------- */
/* DRAM cycle k of channel c of pt made room in its queue: the banks waiting for it
 * (l2bank.dwait) run at the first L2 cycle after it, the first that polling would have
 * seen the room at (ties: L2 before DRAM) - as many of them as the queue has room for,
 * in bank order, which is the order that L2 cycle runs them in: the others would find
 * no room (the banks roused before for that cycle, t_rouse, take theirs first: each
 * rousing rouses the next of the banks in order) and do nothing else in it (a sleeping
 * bank is run for its other events, when they come: bank_next), so they wait for the
 * next DRAM cycle with room, which every push brings (dram_chan) */
static __attribute__((noinline)) void rouse_dram(det *m, part *pt, uint32_t c, uint64_t k)
{
    const uint64_t t = after(m, D_DRAM, D_L2, k);
    uint32_t room = dram_room(pt->ch[c]);
    for (uint32_t i = 0; i < m->n_bank && room; i++) {
        l2bank *b = &pt->b[i];
        if (b->dsub != c)
            continue;
        if (b->dwait) {
            b->dwait = 0;
            b->t_rouse = t;
            pt->n_dwait--;
            bank_lower(m, b, t);
            poke_p(m, pt, D_L2, t);
            room--;
        } else if (b->t_rouse == t) {
            room--;
        }
    }
}

/* DRAM cycle k of channel c of partition pt; *nx: lowered to its next cycle with work */
static inline __attribute__((always_inline)) int dram_chan(det *m, part *pt, uint32_t c, uint64_t k,
                                                           uint64_t *nx)
{
    dram *ch = pt->ch[c];
    const uint64_t q = dram_quiet(ch);
    if (k < q) {
        /* nothing to issue or pop: dram_cycle and dram_pop would do nothing, and
         * dram_next would return q */
        if (q < *nx)
            *nx = q;
        return 0;
    }
    int cmd = dram_cycle(ch, k), did = cmd;
    if (pt->n_dwait && dram_can_push(ch))
        rouse_dram(m, pt, c, k);
    while (dram_pop_at(ch) <= k) {
        dram_req *d = dram_pop(ch, k);
        pkt *r = PKT_OF_DREQ(d);
        did = 1;
        if (r->type == CM_WRITEBACK || (r->type == CM_WRITE && !r->tok)) {
            pkt_free_b(m, r);
            continue;
        }
        uint64_t t = d->t_done + (d->write ? 0 : m->dram_lat);
        r->t_ready = after(m, D_DRAM, D_L2, t);
        l2bank *b = &pt->b[r->bank];
        pq_push(&b->ret, r);
        bank_lower(m, b, r->t_ready);
        poke_p(m, pt, D_L2, r->t_ready);
    }
    /* as for the interconnect: exact only after an idle cycle */
    uint64_t t = cmd ? k + 1 : dram_next(ch, k);
    if (t < *nx)
        *nx = t;
    return did;
}

/* DRAM cycle k of partition pt's channels: a channel with nothing to do changes nothing */
static inline __attribute__((always_inline)) int dram_part(det *m, part *pt, uint64_t k)
{
    uint64_t nx = UINT64_MAX;
    int did;
    if (m->cpl == 1) {   /* (the usual case, without a loop) */
        did = dram_chan(m, pt, 0, k, &nx);
    } else {
        did = 0;
        for (uint32_t c = 0; c < m->cpl; c++)
            did |= dram_chan(m, pt, c, k, &nx);
    }
    pt->next = nx;
    return did;
}

static int run_dram(det *m, uint64_t k)
{
    int did = 0;
    uint64_t w = UINT64_MAX;
    /* (read once: the calls below could change *m as far as the compiler knows) */
    const uint32_t np = m->n_part;
    const int ex = m->exhaustive;
    for (uint32_t p = 0; p < np; p++) {
        part *pt = &m->pt[p];
        if (pt->next <= k || ex)
            did |= dram_part(m, pt, k);
        if (pt->next < w)
            w = pt->next;
    }
    m->dm[D_DRAM].wake = w;
    return did;
}

/* ---- clock ---------------------------------------------------------------------------------- */
/* Domain whose next cycle with work comes first (ties: interconnect, L2, DRAM) among
 * those due by core cycle `cycle` (lim[d]: the last cycle of domain d at or before it), or
 * -1 when none is. The first of all domains is due when any is, so this is the first
 * domain of all whenever it is due. */
static int first_due(const det *m, const uint64_t *lim)
{
    int best = -1;
    for (int d = 0; d < D__N; d++) {
        if (m->dm[d].wake > lim[d])
            continue;
        if (best < 0 || m->dm[d].wake * m->f[best] < m->dm[best].wake * m->f[d])
            best = d;
    }
    return best;
}

static int det_commit(memsys *ms, uint32_t i, uint64_t cycle);

/* lim[d]: the last cycle of domain d at or before core cycle `cycle` (a domain is due
 * when wake[d] x f_core <= cycle x f[d]: wake[d] <= lim[d]) */
static void due_limits(const det *m, uint64_t cycle, uint64_t *lim)
{
    for (int d = 0; d < D__N; d++)
        lim[d] = m->cq[C_CORE][d].d == 1 ? cycle * m->cp[C_CORE][d]
                                          : cycle * m->cp[C_CORE][d] / m->cq[C_CORE][d].d;
}

/* A tick's start: the commits of a caller that has not (unit tests), then 0 for a
 * re-tick of a cycle already ticked (nothing to do), else 1 with now = cycle. */
static int tick_begin(memsys *ms, det *m, uint64_t cycle)
{
    if (!m->committed)
        for (uint32_t i = 0; i < m->n_sm; i++)
            det_commit(ms, i, cycle);
    m->committed = 0;
    if (m->ticked && cycle < m->now)
        return 0;
    m->ticked = 1;
    m->now = cycle;
    return 1;
}

/* L2 cycle k runs ahead of the crossbar: every bank due then has room in its reply
 * queues for whatever the cycle may push (a fill answers up to mshr_merges requests,
 * each port a hit), so that the crossbar's later pops cannot change whether it blocks */
static int ah_room(const det *m, uint64_t k)
{
    if (!m->n_near)
        return 1;
    const uint32_t nw = (m->n_part * m->n_bank + 63) / 64;
    for (uint32_t wd = 0; wd < nw; wd++)
        for (uint64_t bits = m->bank_set[wd]; bits; bits &= bits - 1) {
            const l2bank *b = m->bk[wd * 64 + (uint32_t)__builtin_ctzll(bits)];
            if (b->next <= k &&
                b->obn + b->cc->ports + b->cc->mshr_merges >= m->out_cap)
                return 0;
        }
    return 1;
}

/* L2 or DRAM cycle k (domain d) could depend on the crossbar's later pops: a bank sleeps
 * on its reply queues (n_oblk), or (an L2 cycle) a due bank could block on them */
static inline int rq_stop(const det *m, int d, uint64_t k)
{
    return m->n_oblk || (d == D_L2 && !ah_room(m, k));
}

/* B in a run with the reply side (pub and b_rep): whether the reply side runs every
 * interconnect cycle up to cycle k of domain d (at equal times, before it) within the
 * run, which it does up to the run's end (ah_h); past that end only after a stop (an L2
 * cycle at the time of the DRAM cycle that stopped the run) */
static inline int rep_covers(const det *m, int d, uint64_t k)
{
    return k * m->f[D_ICNT] <= conv_floor(m, C_CORE, D_ICNT, m->ah_h) * m->f[d];
}

/* The L2 or DRAM domain whose next cycle with work comes first among those due by
 * lim (first_due without the interconnect: the partition thread reads no crossbar state) */
static int first_due_ld(const det *m, const uint64_t *lim)
{
    int best = -1;
    for (int d = D_L2; d < D__N; d++) {
        if (m->dm[d].wake > lim[d])
            continue;
        if (best < 0 || m->dm[d].wake * m->f[best] < m->dm[best].wake * m->f[d])
            best = d;
    }
    return best;
}

/* A or B: claims the SM share of ticket g (side_post); 1 when this thread is to run it
 * (the other one has not claimed it) */
static inline int sj_take(det *m, uint64_t g)
{
    uint64_t e = g - 1;
    return __atomic_compare_exchange_n(&m->sj_claim, &e, g, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* host seconds (the partition thread's busy and wait times: host statistics only) */
static double host_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* B: adds host seconds to b_busy_s (which A's b_rep_choose reads while B runs shares) */
static inline void b_busy_add(det *m, double dt)
{
    double v = m->b_busy_s + dt;
    __atomic_store(&m->b_busy_s, &v, __ATOMIC_RELAXED);
}

/* B: the SM share A posted, if A has not claimed it (side_post); 1 when it ran one */
static inline int b_side(det *m, int timed)
{
    const uint64_t g = LD_ACQ(&m->sj_post);
    if (g == m->sj_seen)
        return 0;
    m->sj_seen = g;
    if (!sj_take(m, g))
        return 0;
    /* (timed: between runs; a run's own time has its shares) */
    const double t0 = timed ? host_now() : 0;
    m->sj_fn(m->sj_ctx, m->sj_k);
    m->sj_nb++;
    if (timed)
        b_busy_add(m, host_now() - t0);
    ST_REL(&m->sj_done, g);
    return 1;
}

/* B: the reply side of interconnect cycle k (rep_pops and rep_send), logged for A */
static void rep_cycle(det *m, uint64_t k)
{
    const uint32_t t0 = m->rlog_t;
    m->rep_k = k;
    int did = rep_pops(m, k, 1);
    did |= rep_send(m, k, 1);
    if (did && m->rlog_t == t0)
        rlog_put(m, RL_BUSY, 0, NULL, k, 0);   /* (A's tick reports the progress) */
    m->rep_wake = did ? k + 1 : wake_rep(m, k);
}

/* A run's L2 and DRAM cycles beyond the tick's own (own: core cycle `cycle`'s limits),
 * up to lim, in the serial order, until a stop; aw: the awaited requests' injections as
 * of the tick's interconnect cycle. Their progress goes to ah_did; with the partition
 * thread (b_run) each cycle's end is published (plog, ah_did and rlog tails, then
 * b_core), and the interconnect cycles' reply side of the run's time runs here too
 * (rep_cycle; at equal times before the L2 cycle), up to the run's end (ah_h, which a
 * stop brings back before the stopping cycle: the reply side stops with it). */
static void ah_loop(det *m, uint64_t *lim, const uint64_t *own, uint64_t cycle, uint64_t aw)
{
    /* (rep: the run's reply side is B's, this thread's) */
    const int ex = m->exhaustive, pub = m->b_run, rep = pub && m->b_rep;
    for (;;) {
        if (pub)
            b_side(m, 0);
        int d = first_due_ld(m, lim);
        uint64_t k = d >= 0 ? m->dm[d].wake : UINT64_MAX;
        if (d >= 0 && (aw == m->aw_out || (rq_stop(m, d, k) && !(rep && rep_covers(m, d, k))))) {
            /* not ahead of the crossbar from this cycle on (DRAM cycles at an L2 cycle's
             * time come after it): a launch could end before it, a bank asleep until the
             * crossbar's pop could be roused at the crossbar's cycle (and push to DRAM
             * then), or a bank could block (unless this run's reply side, B's, runs
             * every crossbar cycle up to this one first: its pops then rouse and make
             * room in their serial order, rep_covers) */
            if (d == D_L2) {
                lim[D_L2] = k - 1;
                const uint64_t dk = k * m->f[D_DRAM];   /* (DRAM cycles before) */
                const uint64_t dl = dk / m->f[D_L2] - (dk % m->f[D_L2] == 0);
                if (dl < lim[D_DRAM])
                    lim[D_DRAM] = dl;
            } else {
                lim[D_DRAM] = k - 1;
                const uint64_t ll = k * m->f[D_L2] / m->f[D_DRAM];   /* (ties: L2 first) */
                if (ll < lim[D_L2])
                    lim[D_L2] = ll;
            }
            const uint64_t c = at_or_after(m, d, C_CORE, k);
            m->ah_h = c > cycle ? c - 1 : cycle;
            if (lim[D_L2] < own[D_L2])
                lim[D_L2] = own[D_L2];
            if (lim[D_DRAM] < own[D_DRAM])
                lim[D_DRAM] = own[D_DRAM];
            continue;
        }
        /* the reply side's next cycle, if it comes first (ties: the interconnect) */
        const int r = rep && m->rep_wake <= conv_floor(m, C_CORE, D_ICNT, m->ah_h) &&
                      (d < 0 || m->rep_wake * m->f[d] <= k * m->f[D_ICNT]);
        if (d < 0 && !r)
            break;
        if (r) {
            d = D_ICNT;
            k = m->rep_wake;
            if (aw == m->aw_out) {
                /* every awaited reply has left L2: a launch could end before this
                 * cycle, whose reply side A runs (the run ends before it) */
                const uint64_t c = at_or_after(m, D_ICNT, C_CORE, k);
                m->ah_h = c > cycle ? c - 1 : cycle;
                break;
            }
        }
        if (pub) {
            /* every cycle before (d, k) has run: published when that reaches B_PUB core
             * cycles beyond the last (each publication moves lines that A reads) */
            const uint64_t c = at_or_after(m, d, C_CORE, k) - 1;
            if (c >= m->b_pubc + B_PUB) {
                m->b_pubc = c;
                ST_REL(&m->plog_pt, m->plog_t);
                ST_REL(&m->ah_dtp[0], m->ah_dt[0]);
                ST_REL(&m->ah_dtp[1], m->ah_dt[1]);
                ST_REL(&m->rlog_pt, m->rlog_t);
                ST_REL(&m->b_core, c);
            }
        }
        if (r) {
            rep_cycle(m, k);
            continue;
        }
        m->ah_cur = 1;
        m->ah_seg = NULL;
        m->ah_k = k;
        m->ah_dom = d;
        m->ah_n[d == D_DRAM]++;
        m->dm[d].k = k;
        if (d == D_L2 ? run_l2(m, k) : run_dram(m, k))
            ah_mark(m, d, k);
        if (ex && m->dm[d].wake != UINT64_MAX)
            m->dm[d].wake = k + 1;
    }
    m->ah_cur = 0;
}

static void b_start(det *m, const uint64_t *lim, const uint64_t *own, uint64_t cycle, int d);
static int b_within(det *m, uint64_t cycle);

/* The crossbar's cycle at core cycle `cycle` while thread B runs (b_within: B has run
 * every L2 and DRAM cycle up to it, and A took their results): what det_tick does in a
 * run's later cycles, whose L2 and DRAM cycles the run did */
static int b_tick(det *m, uint64_t cycle, const uint64_t *own)
{
    int did = ah_took(m, own);
    const int ex = m->exhaustive;
    while (m->dm[D_ICNT].wake <= own[D_ICNT]) {
        const uint64_t k = m->dm[D_ICNT].wake;
        plog_before(m, k);
        m->dm[D_ICNT].k = k;
        if (run_icnt(m, k)) {
            did = 1;
            m->dm[D_ICNT].wake = k + 1;
        } else {
            m->dm[D_ICNT].wake = wake_icnt(m, k);
        }
        if (ex && m->dm[D_ICNT].wake != UINT64_MAX)
            m->dm[D_ICNT].wake = k + 1;
    }
    plog_upto(m, own);
    (void)cycle;
    nsm_refresh(m);
    return did;
}

static int det_tick(memsys *ms, uint64_t cycle)
{
    det *m = (det *)ms;
    if (!tick_begin(ms, m, cycle))
        return 0;
    int did = 0;
    uint64_t own[D__N];
    due_limits(m, cycle, own);
    if (m->b_run) {
        /* B's lead is kept long: once B has finished a run whose end is less than half
         * a run away, a new one starts from here (so that a stretch of cycles costlier
         * for B than for A finds B ahead) */
        const int renew = cycle + m->ah_len / 2 >= m->b_h && LD_ACQ(&m->b_done) == m->b_go;
        if (!renew && m->b_use && b_within(m, cycle))
            return b_tick(m, cycle, own);
        b_join(m);
    }
    if (m->ah_on) {
        /* a new run when the last one's end is reached (with the partition thread: at
         * every tick that runs here; the run from any tick is exact): up to a
         * pipeline's depth on, no further than a launch may end */
        if (cycle >= m->ah_h || m->b_cfg) {
            const uint64_t e = cycle + m->ah_len, cap = m->ah_cap > cycle ? m->ah_cap : cycle;
            m->ah_h = e < cap ? e : cap;
        }
        did |= ah_took(m, own);
    }
    const int ex = m->exhaustive;
    /* the tick's own cycles (the runs' cycles beyond them come later in time: their
     * turn is after these, ah_loop) */
    for (;;) {
        int d = first_due(m, own);
        if (d < 0)
            break;
        uint64_t k = m->dm[d].wake;
        if (m->ah_on) {
            m->ah_cur = 0;
            if (d == D_ICNT)
                plog_before(m, k);
            else
                while (m->plog_h != m->plog_t)
                    plog_pop(m);
        }
        m->dm[d].k = k;
        switch (d) {
        case D_ICNT:
            /* after a cycle that did something, the next cycle is a valid lower bound
             * (and usually busy too); the exact bound is worth computing after an
             * idle one */
            if (run_icnt(m, k)) {
                did = 1;
                m->dm[D_ICNT].wake = k + 1;
            } else {
                m->dm[D_ICNT].wake = wake_icnt(m, k);
            }
            break;
        case D_L2:
            did |= run_l2(m, k);
            break;
        default:
            did |= run_dram(m, k);
            break;
        }
        if (ex && m->dm[d].wake != UINT64_MAX)
            m->dm[d].wake = k + 1;
    }
    if (m->ah_on) {
        m->ah_cur = 0;
        plog_upto(m, own);
        uint64_t lim[D__N], ah[D__N];
        due_limits(m, m->ah_h, ah);
        memcpy(lim, own, sizeof lim);
        lim[D_L2] = ah[D_L2];
        lim[D_DRAM] = ah[D_DRAM];
        /* to the partition thread when the run's first cycle runs ahead (ah_loop's
         * stops; b_start keeps on this thread a run that would start with a bank asleep
         * on, or near full, reply queues while the crossbar's pops are A's) */
        const int d = m->b_cfg && m->b_use && !ex && m->ah_h > cycle ? first_due_ld(m, lim) : -1;
        if (d >= 0 && m->aw_in != m->aw_out)
            b_start(m, lim, own, cycle, d);
        else
            ah_loop(m, lim, own, cycle, m->aw_in);
    }
    nsm_refresh(m);
    return did;
}

/* ---- the partition thread (mem.l2_thread) ----------------------------------------------------
 * det_tick hands a run (ah_loop: the L2 and DRAM cycles beyond its own, up to ah_h,
 * and the reply side of the interconnect cycles of that time, rep_cycle) to thread B
 * instead of running it, and goes on: A runs the request side of the crossbar's cycles
 * of the run's time (b_tick) as soon as B has run every cycle before them, and the SMs.
 * In the serial order the whole run comes before the crossbar cycles of its later core
 * cycles, so what B reads must not change under it: the crossbar's pushes into a bank's
 * input queue wait in stg (they enter the bank at a time after the run anyway), and no
 * bank sleeps on a full reply queue during a run. The reply side (the banks' reply
 * queues, the reply crossbar) is B's during the run; what A must see of it, the replies
 * that reach the SMs and the grants that rouse them, it takes from the log (rlog) at
 * their interconnect cycles. What A reads of B's results it reads once B has passed
 * their time: that log, the input queues' takings (iq_con), the packet log and the
 * progress ring. A's bounds that would read B's wakes (nsm_terms, det_next) take B's
 * progress instead (vw_l2, a_seen): never later than the serial model's, and an SM or
 * the GPU woken early finds nothing changed (it repeats its cycle). */
/* one poll of a wait: a pause, and after many a yield (the other thread may need this
 * core: a host with fewer free cores than the simulation's threads) */
static inline void b_relax(uint32_t *n)
{
    if (++*n > 2048) {
        sched_yield();
        return;
    }
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* A: B's replies published so far into the reply queues, and B's progress c */
static void b_drain(det *m, uint64_t c)
{
    for (uint32_t p = 0; p < m->n_part; p++) {
        part *pt = &m->pt[p];
        const uint32_t t = LD_ACQ(&pt->ob_t);
        for (uint32_t h = pt->ob_h; h != t; h++) {
            const struct obe *e = &pt->ob[h & (pt->ob_cap - 1)];
            pkt *q = e->q;
            if (t - h > 2)
                __builtin_prefetch(&pt->ob[(h + 2) & (pt->ob_cap - 1)].q->next);
            pq_push(&pt->b[e->bank].out[e->fill ? Q_FILL : Q_HIT], q);
            out_lower(m, p, q->t_ready);
            poke(m, D_ICNT, q->t_ready);
        }
        ST_RLX(&pt->ob_h, t);
        for (uint32_t i = 0; i < m->n_bank; i++)
            pt->b[i].iq_cv = LD_ACQ(&pt->b[i].iq_con);
    }
    /* the reply side's log as published up to c (read after b_core): its next entry
     * is A's interconnect cycle to hand it over */
    const uint64_t e = rlog_next(m);
    if (e != UINT64_MAX)
        poke(m, D_ICNT, e);
    m->a_seen = c;
    const uint64_t l2 = conv_floor(m, C_CORE, D_L2, c) + 1;
    m->vw_l2 = l2 > m->b_l2snap ? l2 : m->b_l2snap;
}

/* A at core cycle `cycle` of a run: 1 once B has run every L2 and DRAM cycle up to it
 * (its results drained), 0 when B has finished a run that ends before it */
static int b_within(det *m, uint64_t cycle)
{
    if (cycle <= m->a_seen)
        return 1;
    uint32_t n = 0;
    double t0 = 0;
    uint64_t c;
    int in;
    for (;;) {
        if ((in = (c = LD_ACQ(&m->b_core)) >= cycle) || LD_ACQ(&m->b_done) == m->b_go)
            break;
        if (!n)
            t0 = host_now();
        b_relax(&n);
    }
    if (n)
        m->a_wait_s += host_now() - t0;
    if (in)
        b_drain(m, c);
    return in;
}

/* A: until B's *x is v (B's release), the time waited counted (host_l2_wait_seconds) */
static void a_await(det *m, const uint64_t *x, uint64_t v)
{
    if (LD_ACQ(x) == v)
        return;
    uint32_t n = 0;
    const double t0 = host_now();
    while (LD_ACQ(x) != v)
        b_relax(&n);
    m->a_wait_s += host_now() - t0;
}

/* A: the run is over (B idle); its state becomes the serial model's again */
static void b_join(det *m)
{
    a_await(m, &m->b_done, m->b_go);
    const uint64_t bc = LD_ACQ(&m->b_core);
    b_drain(m, bc);
    m->b_run = 0;
    /* the reply side is A's again after B's last cycle (its log is drained in A's
     * cycles), from B's next cycle with work on. (B may have run reply-side cycles
     * after bc: a stop at a DRAM cycle between two core cycles ends the run at the
     * core cycle before it, after the interconnect cycles before the DRAM cycle.) */
    if (m->b_rep) {
        m->rep_done = conv_floor(m, C_CORE, D_ICNT, bc);
        if (m->rep_k > m->rep_done)
            m->rep_done = m->rep_k;
        if (m->rep_wake != UINT64_MAX)
            poke(m, D_ICNT, m->rep_wake > m->rep_done ? m->rep_wake : m->rep_done + 1);
    }
    m->n_near = m->near_thr == 0;
    for (uint32_t g = 0; g < m->n_part * m->n_bank; g++) {
        l2bank *b = m->bk[g];
        if (m->stg_n[g]) {
            /* the crossbar's pushes of the run, in order, as if made after it */
            pkt *h = m->stg[2 * g], *t = m->stg[2 * g + 1];
            if (!b->in.h) {
                bank_lower(m, b, h->t_ready);
                poke(m, D_L2, h->t_ready);
                b->in.h = h;
                b->in.ht = h->t_ready;
            } else {
                b->in.t->next = h;
            }
            b->in.t = t;
            b->in.n += m->stg_n[g];
            m->stg[2 * g] = m->stg[2 * g + 1] = NULL;
            m->stg_n[g] = 0;
        }
        b->obn = b->out[Q_HIT].n + b->out[Q_FILL].n;
        m->n_near += m->near_thr && b->obn >= m->near_thr;
    }
    for (uint32_t p = 0; p < m->n_part; p++)
        while (m->pt[p].xret) {
            pkt *q = m->pt[p].xret;
            m->pt[p].xret = q->next;
            pool_put(&m->pt[p].pa, q);
        }
}

/* A: B up again (for the runs to come) when it sleeps */
static void b_kick_up(det *m)
{
    if (!m->b_thr_ok || !__atomic_load_n(&m->b_sleeps, __ATOMIC_SEQ_CST))
        return;
    __atomic_store_n(&m->b_kick, m->b_kick + 1, __ATOMIC_SEQ_CST);
    pthread_mutex_lock(&m->b_mu);
    pthread_cond_signal(&m->b_cv);
    pthread_mutex_unlock(&m->b_mu);
}

/* A: the next run to B (or quit), which may be asleep */
static void b_wake(det *m)
{
    __atomic_store_n(&m->b_go, m->b_go + 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&m->b_sleeps, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&m->b_mu);
        pthread_cond_signal(&m->b_cv);
        pthread_mutex_unlock(&m->b_mu);
    }
}

/* B: runs what A hands it until told to quit. Between runs it polls, then yields the
 * core a while (as gpu/pool.c's members: about 300 us in all), then sleeps until A's
 * next run (a launch's end, a stretch without runs ahead, the serial work between
 * launches) */
static void *b_main(void *arg)
{
    det *m = arg;
    uint64_t seen = 0, kick = LD_ACQ(&m->b_kick);
    __atomic_store_n(&m->b_up, 1, __ATOMIC_SEQ_CST);
    for (;;) {
        uint64_t g;
        uint32_t n = 0;
        while ((g = LD_ACQ(&m->b_go)) == seen) {
            if (LD_ACQ(&m->b_quit))
                return NULL;
            if (b_side(m, 1)) {
                n = 0;
                continue;
            }
            if (n > 2048 + 4096 || LD_ACQ(&m->b_pause)) {
                pthread_mutex_lock(&m->b_mu);
                /* (sequentially consistent: b_wake and b_kick_up store b_go / b_kick, then
                 * load b_sleeps; A hands a run only while b_up) */
                __atomic_store_n(&m->b_up, 0, __ATOMIC_SEQ_CST);
                __atomic_store_n(&m->b_sleeps, 1, __ATOMIC_SEQ_CST);
                while (__atomic_load_n(&m->b_go, __ATOMIC_SEQ_CST) == seen &&
                       __atomic_load_n(&m->b_kick, __ATOMIC_SEQ_CST) == kick && !LD_ACQ(&m->b_quit))
                    pthread_cond_wait(&m->b_cv, &m->b_mu);
                ST_REL(&m->b_sleeps, 0);
                kick = LD_ACQ(&m->b_kick);
                __atomic_store_n(&m->b_up, 1, __ATOMIC_SEQ_CST);
                pthread_mutex_unlock(&m->b_mu);
                n = 0;
                continue;
            }
            b_relax(&n);
        }
        if (LD_ACQ(&m->b_quit))
            return NULL;
        seen = g;
        const double t0 = host_now();
        ah_loop(m, m->b_lim, m->b_own, m->b_cyc, m->b_aw);
        b_busy_add(m, host_now() - t0);
        ST_REL(&m->plog_pt, m->plog_t);
        ST_REL(&m->ah_dtp[0], m->ah_dt[0]);
        ST_REL(&m->ah_dtp[1], m->ah_dt[1]);
        ST_REL(&m->rlog_pt, m->rlog_t);
        ST_REL(&m->b_core, m->ah_h);
        ST_REL(&m->b_done, seen);
    }
}

/* A, at a run's start (B idle): whether B runs the reply side of the run's cycles
 * (b_rep). It takes work off A, which bounds the memory-bound kernels on two threads
 * (atax: A busy all the time, B half of it), and adds it to B, which bounds others
 * (gups, and the `both` way's kernels, whose B runs half the SMs too). Decided per
 * window of RW_RUNS runs from the last window's host times: A's waits for B over
 * RW_WAIT of it give the reply side back to A; B busy under RW_BUSY of it while A
 * waits under a third of RW_WAIT takes it to B. A host matter: both ways are the
 * serial model's. */
enum { RW_RUNS = 256 };
#define RW_WAIT 0.15
#define RW_BUSY 0.55
static void b_rep_choose(det *m)
{
    if (m->rep_pin == WS_REPLY_AUTO && ++m->rw_n >= RW_RUNS) {
        double busy_s;
        __atomic_load(&m->b_busy_s, &busy_s, __ATOMIC_RELAXED);   /* (B's shares add to it) */
        const double now = host_now();
        const double dt = now - m->rw_t0, wait = (m->a_wait_s - m->rw_wait0) / dt,
                     busy = (busy_s - m->rw_busy0) / dt;
        /* (a launch's start resets the counts: that window is not judged) */
        if (m->rw_t0 > 0 && dt > 0 && wait >= 0 && busy >= 0) {
            if (m->b_rep_on && wait > RW_WAIT)
                m->b_rep_on = 0;
            else if (!m->b_rep_on && busy < RW_BUSY && wait < RW_WAIT / 3)
                m->b_rep_on = 1;
        }
        m->rw_t0 = now;
        m->rw_wait0 = m->a_wait_s;
        m->rw_busy0 = busy_s;
        m->rw_n = 0;
    }
    m->b_rep = m->b_rep_on;
    m->b_nrep += (uint64_t)m->b_rep;
}

/* A: the run up to lim (det_tick's, at core cycle `cycle`; d: the domain of its first
 * cycle) to B */
static void b_start(det *m, const uint64_t *lim, const uint64_t *own, uint64_t cycle, int d)
{
    /* B started at the first run (which waits for it, once), and not up later (asleep
     * after a stretch without runs): this run here, and B woken for the next (a run
     * never waits for a thread to wake) */
    int here = 0;
    if (!m->b_thr_ok) {
        if (pthread_mutex_init(&m->b_mu, NULL) || pthread_cond_init(&m->b_cv, NULL) ||
            pthread_create(&m->b_thr, NULL, b_main, m)) {
            m->b_cfg = 0;   /* no thread: every run here, as without the key */
            here = 1;
        } else {
            m->b_thr_ok = 1;
            /* (B may have gone to sleep already if this thread lost its core a while:
             * woken again) */
            uint32_t n = 0;
            while (!__atomic_load_n(&m->b_up, __ATOMIC_SEQ_CST)) {
                b_kick_up(m);
                b_relax(&n);
            }
        }
    } else if (!__atomic_load_n(&m->b_up, __ATOMIC_SEQ_CST)) {
        b_kick_up(m);
        here = 1;
    }
    /* a run never starts with a bank asleep on its reply queues or one that could block
     * on them, whose rousing by the crossbar's pops would be A's: with the reply side
     * B's (b_rep), B's pops rouse them in the serial order (every L2 cycle of the run
     * comes after the crossbar cycles that A ran) */
    if (!here) {
        b_rep_choose(m);
        here = !m->b_rep && rq_stop(m, d, m->dm[d].wake);
    }
    if (here) {
        uint64_t l[D__N];
        memcpy(l, lim, sizeof l);
        ah_loop(m, l, own, cycle, m->aw_in);
        return;
    }
    /* rings that B and A both touch do not grow during the run: room now for what it
     * can add (a bank takes only what its queue holds now; the crossbar pushes at most
     * one request per port and cycle; a domain cycle logs at most one entry) */
    const uint64_t span = m->ah_h - cycle + 2;
    const uint32_t n_icnt = (uint32_t)(span * m->f[D_ICNT] / m->f_core + 2);
    for (uint32_t g = 0; g < m->n_part * m->n_bank; g++) {
        l2bank *b = m->bk[g];
        const uint32_t nt = b->iq_push - b->iq_set + n_icnt + 1, nc = b->iq_con - b->iq_app + b->in.n + 1;
        const uint32_t need = nt > nc ? nt : nc;
        while (!b->iq || need > 1u << b->iq_log2)
            if (!iq_grow(b)) {
                fprintf(stderr, "warpsim: out of memory (L2 input queue)\n");
                abort();
            }
    }
    plog_reserve(m, (uint32_t)(span * (m->f[D_L2] + m->f[D_DRAM]) / m->f_core + 4));
    /* the reply side from the interconnect cycle after the last one run (by A in this
     * tick, or by B in the last run): per cycle at most a pop and a grant per SM, or a
     * busy mark */
    if (m->b_rep) {
        m->rep_k = own[D_ICNT] > m->rep_done ? own[D_ICNT] : m->rep_done;
        m->rep_wake = wake_rep(m, m->rep_k);
        rlog_reserve(m, (2 * m->n_sm + 1) * n_icnt);
        m->rlog_h0 = m->rlog_h;
    }
    m->b_aw = m->aw_in;
    m->b_h = m->ah_h;
    m->b_nruns++;
    memcpy(m->b_lim, lim, sizeof m->b_lim);
    memcpy(m->b_own, own, sizeof m->b_own);
    m->b_cyc = cycle;
    uint64_t l2 = m->dm[D_L2].wake;
    if (m->dm[D_DRAM].wake != UINT64_MAX) {
        const uint64_t t = after(m, D_DRAM, D_L2, m->dm[D_DRAM].wake);
        if (t < l2)
            l2 = t;
    }
    m->b_l2snap = l2;
    /* what B has run is the serial model's up to the last run's end (or this cycle);
     * with the reply side B's now, only as far as it has run (by A, or by B in an
     * earlier run): after a run without it, A's cycle */
    uint64_t c0 = m->a_seen > cycle ? m->a_seen : cycle;
    if (m->b_rep && conv_floor(m, C_CORE, D_ICNT, c0) > m->rep_k)
        c0 = cycle;
    m->a_seen = c0;
    m->vw_l2 = l2;
    for (uint32_t g = 0; g < m->n_part * m->n_bank; g++)
        m->bk[g]->iq_cv = m->bk[g]->iq_con;
    ST_REL(&m->plog_pt, m->plog_t);
    ST_REL(&m->ah_dtp[0], m->ah_dt[0]);
    ST_REL(&m->ah_dtp[1], m->ah_dt[1]);
    ST_REL(&m->rlog_pt, m->rlog_t);
    ST_RLX(&m->b_core, c0);
    m->b_pubc = c0;
    m->b_run = 1;
    b_wake(m);
}

/* ---- the partition-parallel tick (memsys.h par_parts) -----------------------------------------
 * With the clocks det_create checks (par_ok), a core cycle holds at most one
 * interconnect cycle, and an L2 cycle only at the time of an interconnect cycle, which
 * the serial order (ties: interconnect, L2, DRAM) runs first. So det_tick's work splits:
 * the interconnect cycle (det_tick_serial), then every partition's L2 and DRAM cycles up
 * to the core cycle, in the serial order within the partition (det_tick_part: one
 * partition touches only its banks, channels, reply queues and packet pool), then
 * det_tick_join. The DRAM cycles that came before the interconnect's in time now come
 * after it: they touch nothing it reads (the L2 banks' DRAM returns, the partition's
 * next DRAM cycle) and it nothing they read (the channels). What a partition would
 * write in shared state waits in its part: the interconnect wake it pokes, its packet
 * counts (pseg, replayed by the join in the serial order for packets_max_in_flight);
 * the L2 and DRAM wakes and the bank and reply bits are set by the join from the banks
 * and partitions (wake[D_L2] is the earliest bank's next and wake[D_DRAM] the earliest
 * partition's next at the end of every serial tick too: every poke of either comes with
 * the lowering of a bank's or partition's next to the same cycle). */
static uint32_t det_par_parts(const memsys *ms)
{
    const det *m = (const det *)ms;
    return m->par_ok && !m->exhaustive && !m->ah_on ? m->n_part : 0;
}

static int det_tick_serial(memsys *ms, uint64_t cycle, const uint32_t **parts, uint32_t *n)
{
    det *m = (det *)ms;
    m->pon = 0;
    *parts = m->pdue;
    *n = 0;
    uint64_t lim[D__N];
    due_limits(m, cycle, lim);
    /* the cases the split does not cover run serially: clocks it was not made for
     * (det_par_parts says 0: the GPU does not split them, but a caller may), a re-tick,
     * an interconnect cycle due from before this core cycle's (two could run), an L2
     * cycle due before the interconnect's */
    if (!det_par_parts(ms))
        return det_tick(ms, cycle);
    const uint64_t ki = m->dm[D_ICNT].wake;
    if (!(m->ticked && cycle < m->now) && ki <= lim[D_ICNT] &&
        (ki < lim[D_ICNT] || (m->dm[D_L2].wake <= lim[D_L2] && m->dm[D_L2].wake * m->f[D_ICNT] < ki * m->f[D_L2])))
        return det_tick(ms, cycle);
    if (!tick_begin(ms, m, cycle))
        return 0;
    int did = 0;
    m->pl0 = m->pkts_live;
    m->iseg_on = ki <= lim[D_ICNT];
    if (m->iseg_on) {
        /* its packet counts as a stretch of its own (the join orders them) */
        const uint64_t l0 = m->pkts_live, m0 = m->pkts_max;
        m->pkts_max = l0;
        m->dm[D_ICNT].k = ki;
        if (run_icnt(m, ki)) {
            did = 1;
            m->dm[D_ICNT].wake = ki + 1;
        } else {
            m->dm[D_ICNT].wake = wake_icnt(m, ki);
        }
        m->iseg = (pseg){ki, (int64_t)(m->pkts_live - l0), (int64_t)(m->pkts_max - l0), D_ICNT};
        m->pkts_live = l0;
        m->pkts_max = m0;
    }
    for (int d = 0; d < D__N; d++)
        m->plim[d] = lim[d];
    /* the partitions' bmin after serial ticks: the earliest next of their banks (a bank
     * not in bank_set has UINT64_MAX); bank_lower keeps them from here on */
    if (!m->bmin_ok) {
        for (uint32_t p = 0; p < m->n_part; p++) {
            part *pt = &m->pt[p];
            uint64_t bn = UINT64_MAX;
            for (uint32_t i = 0; i < m->n_bank; i++)
                if (pt->b[i].next < bn)
                    bn = pt->b[i].next;
            pt->bmin = bn;
        }
        m->bmin_ok = 1;
    }
    /* the partitions with an L2 or DRAM cycle due; the others change nothing */
    m->n_pdue = 0;
    m->prest_l2 = m->prest_dr = UINT64_MAX;
    for (uint32_t p = 0; p < m->n_part; p++) {
        const part *pt = &m->pt[p];
        if (pt->bmin <= lim[D_L2] || pt->next <= lim[D_DRAM]) {
            m->pdue[m->n_pdue++] = p;
        } else {
            if (pt->bmin < m->prest_l2)
                m->prest_l2 = pt->bmin;
            if (pt->next < m->prest_dr)
                m->prest_dr = pt->next;
        }
    }
    m->pon = 1;
    *n = m->n_pdue;
    nsm_refresh(m);
    return did;
}

static void det_tick_part(memsys *ms, uint32_t p, uint64_t cycle)
{
    det *m = (det *)ms;
    (void)cycle;
    part *pt = &m->pt[p];
    pt->ph = 1;
    pt->n_seg = 0;
    pt->did = 0;
    pt->pk_icnt = UINT64_MAX;
    pt->k_l2 = pt->k_dram = 0;
    const uint64_t l2lim = m->plim[D_L2], drlim = m->plim[D_DRAM];
    const uint32_t nb = m->n_bank;
    for (;;) {
        uint64_t bn = UINT64_MAX;
        for (uint32_t i = 0; i < nb; i++)
            if (pt->b[i].next < bn)
                bn = pt->b[i].next;
        const uint64_t dn = pt->next;
        int l2 = bn <= l2lim;
        const int dr = dn <= drlim;
        if (!l2 && !dr) {
            pt->bmin = bn;
            break;
        }
        if (l2 && dr && dn * m->f[D_L2] < bn * m->f[D_DRAM])
            l2 = 0;   /* the DRAM cycle comes first (ties: L2) */
        const uint64_t k = l2 ? bn : dn;
        if (pt->n_seg < PSEG_MAX)   /* (par_ok: always) */
            pt->seg[pt->n_seg++] = (pseg){k, 0, 0, l2 ? D_L2 : D_DRAM};
        if (l2) {
            for (uint32_t i = 0; i < nb; i++) {
                l2bank *b = &pt->b[i];
                if (b->next <= k) {
                    const cache_miss *h;
                    pt->did |= run_bank(m, pt, b, k, &h);
                    b->next = bank_next(b, k, h);
                }
            }
            pt->k_l2 = k;
        } else {
            pt->did |= dram_part(m, pt, k);
            pt->k_dram = k;
        }
    }
}

/* a's cycle before b's in the serial order (time, then interconnect, L2, DRAM) */
static int seg_before(const det *m, const pseg *a, const pseg *b)
{
    const uint64_t x = a->k * m->f[b->d], y = b->k * m->f[a->d];
    return x < y || (x == y && a->d < b->d);
}

static int det_tick_join(memsys *ms, uint64_t cycle)
{
    det *m = (det *)ms;
    (void)cycle;
    if (!m->pon)
        return 0;
    m->pon = 0;
    int did = 0;
    uint64_t wl2 = m->prest_l2, wdr = m->prest_dr, pki = UINT64_MAX;
    int64_t bound = (int64_t)m->pl0 + (m->iseg_on ? m->iseg.mx : 0), dl = m->iseg_on ? m->iseg.dl : 0;
    uint32_t ns = 0;
    for (uint32_t x = 0; x < m->n_pdue; x++) {
        const uint32_t p = m->pdue[x];
        part *pt = &m->pt[p];
        did |= pt->did;
        pt->ph = 0;
        if (pt->pk_icnt < pki)
            pki = pt->pk_icnt;
        if (pt->k_l2 > m->dm[D_L2].k)
            m->dm[D_L2].k = pt->k_l2;
        if (pt->k_dram > m->dm[D_DRAM].k)
            m->dm[D_DRAM].k = pt->k_dram;
        for (uint32_t i = 0; i < m->n_bank; i++) {
            l2bank *b = &pt->b[i];
            if (b->next != UINT64_MAX)
                bit_set(m->bank_set, b->gid);
            else
                bit_clr(m->bank_set, b->gid);
        }
        if (pt->bmin < wl2)
            wl2 = pt->bmin;
        if (pt->out_t != UINT64_MAX) {
            bit_set(m->out_set, p);
            if (pt->out_t < m->out_min)
                m->out_min = pt->out_t;
        }
        if (pt->next < wdr)
            wdr = pt->next;
        for (uint32_t j = 0; j < pt->n_seg; j++) {
            bound += pt->seg[j].mx;
            dl += pt->seg[j].dl;
        }
    }
    /* packets_max_in_flight: the stretches in the serial order, when they could reach it */
    if (bound > (int64_t)m->pkts_max) {
        if (m->iseg_on)
            m->segv[ns++] = &m->iseg;
        for (uint32_t y = 0; y < m->n_pdue; y++)
            for (uint32_t j = 0; j < m->pt[m->pdue[y]].n_seg; j++) {
                pseg *g = &m->pt[m->pdue[y]].seg[j];
                uint32_t x = ns++;   /* insertion: stable, so partition order on ties */
                while (x > 0 && seg_before(m, g, m->segv[x - 1])) {
                    m->segv[x] = m->segv[x - 1];
                    x--;
                }
                m->segv[x] = g;
            }
        int64_t run = (int64_t)m->pl0;
        for (uint32_t x = 0; x < ns; x++) {
            if (run + m->segv[x]->mx > (int64_t)m->pkts_max)
                m->pkts_max = (uint64_t)(run + m->segv[x]->mx);
            run += m->segv[x]->dl;
        }
    }
    m->pkts_live = (uint64_t)((int64_t)m->pl0 + dl);
    m->dm[D_L2].wake = wl2;
    m->dm[D_DRAM].wake = wdr;
    if (pki != UINT64_MAX)
        poke(m, D_ICNT, pki);
    /* next_event_sm read the wakes only through next_sm_from's terms (the SMs' phase
     * saw those of tick_serial's wakes): asked again only when these changed */
    const uint64_t w0 = m->nsm_w, t0 = m->nsm_t, a0 = m->nsm_aw;
    nsm_refresh(m);
    const int chg = m->nsm_w != w0 || m->nsm_t != t0 || m->nsm_aw != a0;
    return did | chg << 1;
}

static uint64_t det_next(const memsys *ms, uint64_t cycle)
{
    const det *m = (const det *)ms;
    uint64_t next = UINT64_MAX;
    for (uint32_t s = 0; s < m->n_sm; s++) {
        if (m->sm[s].done_t < next)
            next = m->sm[s].done_t;
        if (m->sm[s].poke != UINT64_MAX)
            next = cycle + 1;   /* not committed yet (memsys.h commit): the next tick does */
    }
    for (int d = 0; d < D__N; d++)
        if (wk(m, d) != UINT64_MAX) {
            uint64_t c = at_or_after(m, d, C_CORE, wk(m, d));
            if (c < next)
                next = c;
        }
    if (m->ah_on) {
        const uint64_t c = ah_next_did(m);
        if (c < next)
            next = c;
    }
    /* the partition thread's results after its progress are not known yet */
    if (m->b_run && m->a_seen + 1 < next)
        next = m->a_seen + 1;
    if (next == UINT64_MAX)
        return next;
    return next <= cycle ? cycle + 1 : next;
}

/* Lower bound of the next core cycle at which SM sm can pop a response, or see its
 * L1 miss queues drain (relief of an MQF stall; MSHRF and CSF stalls are relieved by
 * fills, which are responses). A reply not yet granted to the SM's output port of the
 * reply crossbar is granted no earlier than the next interconnect cycle with work, nor
 * before the first interconnect cycle after the next L2 cycle with work (replies come
 * from L2), nor ... after the next DRAM cycle with work (fills come from DRAM); it
 * arrives latency + 1 flit after its grant. Work that other SMs inject later produces
 * replies for them, not for this SM. */
/* The answer from SM sm's side (done_t; x: the earliest reply head at its ports and
 * miss-record time of its L1s, interconnect cycles) and the domains' wakes now. Every
 * term is nondecreasing in the interconnect bound w, so the earliest of the heads
 * stands for all of them. */
/* nsm_w, nsm_t and nsm_aw from the wakes now (*w, *t, *aw) */
static void nsm_terms(const det *m, uint64_t *wp, uint64_t *tp, uint64_t *awp)
{
    uint64_t w = m->dm[D_ICNT].wake, l2 = wk(m, D_L2);
    if (wk(m, D_DRAM) != UINT64_MAX) {
        uint64_t t = after(m, D_DRAM, D_L2, m->dm[D_DRAM].wake);
        if (t < l2)
            l2 = t;
    }
    if (l2 != UINT64_MAX) {
        uint64_t t = after(m, D_L2, D_ICNT, l2);
        if (t < w)
            w = t;
    }
    if (m->b_run && m->b_rep) {
        /* the partition thread's grants after its published progress */
        const uint64_t t = conv_floor(m, C_CORE, D_ICNT, m->a_seen) + 1;
        if (t < w)
            w = t;
    }
    *wp = w;
    *tp = *awp = UINT64_MAX;
    if (w != UINT64_MAX) {
        *tp = at_or_after(m, D_ICNT, C_CORE, w + icnt_latency(m->rep) + 1);
        *awp = at_or_after(m, D_ICNT, C_CORE, w);
    }
}

/* After the wakes changed (serially: tick, commit): next_sm_from's terms again. */
static void nsm_refresh(det *m)
{
    if (m->nsm_wk[D_ICNT] == m->dm[D_ICNT].wake && m->nsm_wk[D_L2] == wk(m, D_L2) &&
        m->nsm_wk[D_DRAM] == wk(m, D_DRAM))
        return;
    nsm_terms(m, &m->nsm_w, &m->nsm_t, &m->nsm_aw);
    for (int d = 0; d < D__N; d++)
        m->nsm_wk[d] = wk(m, d);
}

/* next_sm_from's answer from the terms w, t0, aw */
static inline uint64_t next_sm_terms(const det *m, uint64_t done_t, uint64_t x, uint64_t cycle,
                                     uint64_t w, uint64_t t0, uint64_t aw)
{
    uint64_t next = done_t;
    if (w != UINT64_MAX) {
        uint64_t t = t0;
        if (x != UINT64_MAX) {
            uint64_t a = x > w ? at_or_after(m, D_ICNT, C_CORE, x) : aw;
            if (a < t)
                t = a;
        }
        if (t < next)
            next = t;
    }
    if (next == UINT64_MAX)
        return next;
    return next <= cycle ? cycle + 1 : next;
}

/* next_sm_from with the terms computed from the wakes now (not refreshed: a caller
 * outside the GPU's order) */
static __attribute__((noinline)) uint64_t next_sm_stale(const det *m, uint64_t done_t, uint64_t x,
                                                        uint64_t cycle, int solo)
{
    uint64_t w, t0, aw;
    nsm_terms(m, &w, &t0, &aw);
    return next_sm_terms(m, done_t, x, cycle, w, solo ? UINT64_MAX : t0, aw);
}

static inline uint64_t next_sm_from(const det *m, uint64_t done_t, uint64_t x, uint64_t cycle,
                                    int solo)
{
    if (m->nsm_wk[D_ICNT] == m->dm[D_ICNT].wake && m->nsm_wk[D_L2] == wk(m, D_L2) &&
        m->nsm_wk[D_DRAM] == wk(m, D_DRAM))
        return next_sm_terms(m, done_t, x, cycle, m->nsm_w, solo ? UINT64_MAX : m->nsm_t, m->nsm_aw);
    return next_sm_stale(m, done_t, x, cycle, solo);
}

static inline __attribute__((always_inline)) uint64_t next_sm_of(const det *m, uint32_t sm,
                                                                   uint64_t cycle)
{
    const smside *s = &m->sm[sm];
    /* its own reply port, and those of the SMs that own the L1s it shares (their
     * fills complete its requests and relieve its refusals) */
    uint64_t x = m->arr_t[sm];   /* its reply port's head (UINT64_MAX: none) */
    if (s->solo && !s->blk) {
        /* no shared L1: its own port and miss records only (the loop below, o == sm).
         * Blocked (inj_blk), its records cannot leave before a grant frees room in its
         * input or its heads change, which rouse it (memsys.h roused): so they are left out */
        x = s->hmin < x ? s->hmin : x;
    }
    for (int l = 0; l < L1__N && !s->solo; l++) {
        uint32_t o = s->own[l];
        if (m->arr_t[o] < x)      /* o == sm: x already */
            x = m->arr_t[o];
        /* the L1's oldest miss record, in interconnect cycles: its owner's head_t (the
         * invariant: head_t[l] of the owner o of L1 l is at_or_after(C_CORE, D_ICNT,
         * t_ready of the head of that L1's miss queue), UINT64_MAX when it is empty;
         * records enter an L1's queue only in det_access and leave only in sm_inject,
         * which both keep it) */
        if (m->sm[o].head_t[l] < x)
            x = m->sm[o].head_t[l];
    }
    /* kept for det_next_sm_late: SM sm's own record, written only by the thread that
     * runs sm (the model object itself is not const) */
    ((det *)m)->sm[sm].nx_x = x;
    return next_sm_from(m, s->done_t, x, cycle, s->solo);
}

static uint64_t det_next_sm(const memsys *ms, uint32_t sm, uint64_t cycle)
{
    const det *m = (const det *)ms;
    if (sm >= m->n_sm)
        return UINT64_MAX;
    return next_sm_of(m, sm, cycle);
}

/* memsys.h next_event_sm_late: SM sm's side as det_next_sm saw it (its done_t changes
 * only by its own pops and by tick), the wakes as committed now. */
static uint64_t det_next_sm_late(const memsys *ms, uint32_t sm, uint64_t cycle)
{
    const det *m = (const det *)ms;
    if (sm >= m->n_sm)
        return UINT64_MAX;
    return next_sm_from(m, m->sm[sm].done_t, m->sm[sm].nx_x, cycle, m->sm[sm].solo);
}

void mem_detailed_exhaustive(memsys *ms, int on)
{
    det *m = (det *)ms;
    m->exhaustive = on;
    if (!on)
        return;
    /* every bank, every L2 cycle; every crossbar port visited */
    for (uint32_t g = 0; g < m->n_part * m->n_bank; g++) {
        bit_set(m->bank_set, g);
        m->bk[g]->sport = UINT32_MAX;
    }
    memset(m->req_stall, 0, ((size_t)m->n_part * m->ppp + 63) / 64 * sizeof *m->req_stall);
}

uint64_t mem_detailed_blocks(const memsys *ms) { return ((const det *)ms)->n_blocks; }
uint64_t mem_detailed_stalls(const memsys *ms) { return ((const det *)ms)->n_stalls; }

void mem_detailed_sleeps(const memsys *ms, uint64_t n[3])
{
    const det *m = (const det *)ms;
    n[0] = n[1] = n[2] = 0;
    for (uint32_t p = 0; p < m->n_part; p++)
        for (int i = 0; i < 3; i++)
            n[i] += m->pt[p].n_sleeps[i];
}

cache *mem_detailed_l1d(memsys *ms, uint32_t sm)
{
    det *m = (det *)ms;
    return sm < m->n_sm ? m->sm[sm].l1[L1D] : NULL;
}

cache *mem_detailed_l2_of(memsys *ms, uint64_t addr, uint64_t *idx)
{
    det *m = (det *)ms;
    addrmap_loc loc;
    uint32_t part, bank;
    l2_where(m, addr, &loc, &part, &bank, idx);
    return m->pt[part].b[bank].c;
}

/* memsys.h sm_alone: no record of its L1s to send (inj: the earliest of their heads and
 * of its acknowledgements), no new head for its commit to announce (poke); no L1 shared
 * between SMs (l1c/l1i.shared_by: the other SMs of its group use it in their cycles; the
 * HD7970's scalar cache and L1I), no directory (which sends invalidations and forwards
 * to L1s unasked), no trace (its lines are in cycle order), not exhaustive (the wake
 * bounds' tests). Its answers (pend of them awaited) reach it only through its port of
 * the reply crossbar, popped by the tick of the core cycle that covers their arrival:
 * the head there has arrived or arrives at rep_t, and a reply not granted yet is granted
 * at the interconnect cycle after the last one the ticks up to `cycle` ran, at the
 * soonest, and arrives latency + 1 flit after its grant. */
static uint64_t det_sm_alone(const memsys *ms, uint32_t sm, uint64_t cycle)
{
    const det *m = (const det *)ms;
    if (sm >= m->n_sm || m->dir || m->trace || m->exhaustive || m->l1_shared[L1C] > 1 ||
        m->l1_shared[L1I] > 1)
        return 0;
    const smside *s = &m->sm[sm];
    if (s->inj != UINT64_MAX || s->poke != UINT64_MAX)
        return 0;
    if (!s->pend)
        return UINT64_MAX;
    uint64_t k = conv_floor(m, C_CORE, D_ICNT, cycle) + 1 + icnt_latency(m->rep) + 1;
    if (m->arr_t[sm] < k)
        k = m->arr_t[sm];
    const uint64_t c = at_or_after(m, D_ICNT, C_CORE, k);   /* the first tick that may pop it */
    return c > cycle + 1 ? c - 1 : 0;
}

static int det_busy(const memsys *ms)
{
    const det *m = (const det *)ms;
    uint64_t n = m->outstanding;
    for (uint32_t s = 0; s < m->n_sm; s++)
        n += (uint64_t)m->sm[s].out_d;   /* not committed yet (memsys.h commit) */
    return n != 0;
}

/* ---- statistics ------------------------------------------------------------------------------ */
static void num(cJSON *o, const char *k, double v) { cJSON_AddNumberToObject(o, k, v); }

static void cache_sum(cache_stats *a, const cache_stats *b)
{
    a->accesses += b->accesses;
    a->reads += b->reads;
    a->writes += b->writes;
    a->atomics += b->atomics;
    a->hits += b->hits;
    a->misses += b->misses;
    a->merges += b->merges;
    a->delayed_hits += b->delayed_hits;
    a->bypasses += b->bypasses;
    a->sector_misses += b->sector_misses;
    for (int i = 0; i < 3; i++)
        a->resfail[i] += b->resfail[i];
    a->evictions += b->evictions;
    a->writebacks += b->writebacks;
    a->write_evicts += b->write_evicts;
    a->fills += b->fills;
    a->port_delay += b->port_delay;
    if (b->mshr_occ_max > a->mshr_occ_max)
        a->mshr_occ_max = b->mshr_occ_max;
    a->mshr_occ_sum += b->mshr_occ_sum;
}

/* occ_sum of a holds the MSHR integral over `cycles` cycles of `n` caches */
static void cache_json(cJSON *o, const cache_stats *s, uint64_t cycles, uint32_t n)
{
    num(o, "accesses", (double)s->accesses);
    num(o, "reads", (double)s->reads);
    num(o, "writes", (double)s->writes);
    num(o, "atomics", (double)s->atomics);
    num(o, "hits", (double)s->hits);
    num(o, "misses", (double)s->misses);
    num(o, "hit_ratio", s->accesses ? (double)s->hits / (double)s->accesses : 0.0);
    num(o, "merges", (double)s->merges);
    if (s->delayed_hits)
        num(o, "delayed_hits", (double)s->delayed_hits);
    num(o, "bypasses", (double)s->bypasses);
    num(o, "sector_misses", (double)s->sector_misses);
    num(o, "resfail_csf", (double)s->resfail[0]);
    num(o, "resfail_mshrf", (double)s->resfail[1]);
    num(o, "resfail_mqf", (double)s->resfail[2]);
    num(o, "evictions", (double)s->evictions);
    num(o, "writebacks", (double)s->writebacks);
    num(o, "write_evicts", (double)s->write_evicts);
    num(o, "fills", (double)s->fills);
    num(o, "port_delay", (double)s->port_delay);
    num(o, "mshr_occupancy_mean",
        cycles && n ? (double)s->mshr_occ_sum / (double)cycles / (double)n : 0.0);
    num(o, "mshr_occupancy_max", (double)s->mshr_occ_max);
}

/* st: a cache's statistics to the cycle they run to; `now`: how many cycles they cover */
static void one_cache(cJSON *arr, cache_stats st, uint64_t now, int full)
{
    cJSON *o = cJSON_CreateObject();
    if (full) {
        cache_json(o, &st, now, 1);
    } else {
        /* per SM: the essentials only (15+ SMs x 3 caches) */
        num(o, "accesses", (double)st.accesses);
        num(o, "hits", (double)st.hits);
        num(o, "misses", (double)st.misses);
        num(o, "merges", (double)st.merges);
        num(o, "resfail_csf", (double)st.resfail[0]);
        num(o, "resfail_mshrf", (double)st.resfail[1]);
        num(o, "resfail_mqf", (double)st.resfail[2]);
        num(o, "mshr_occupancy_mean", now ? (double)st.mshr_occ_sum / (double)now : 0.0);
        num(o, "mshr_occupancy_max", (double)st.mshr_occ_max);
    }
    cJSON_AddItemToArray(arr, o);
}

static void icnt_json(cJSON *o, const icnt_stats *s, uint64_t cycles, uint32_t ports)
{
    num(o, "packets", (double)s->packets);
    num(o, "flits", (double)s->flits);
    num(o, "mean_latency", s->packets ? (double)s->lat_sum / (double)s->packets : 0.0);
    num(o, "throughput", cycles ? (double)s->flits / (double)cycles : 0.0);
    num(o, "port_utilization", cycles && ports ? (double)s->flits / (double)cycles / ports : 0.0);
    num(o, "refused", (double)s->refused);
}

static void dram_json(cJSON *o, const dram_stats *s, uint64_t cycles, uint32_t n)
{
    uint64_t acc = s->reads + s->writes;
    num(o, "reads", (double)s->reads);
    num(o, "writes", (double)s->writes);
    num(o, "row_hits", (double)s->row_hits);
    num(o, "row_hit_rate", acc ? (double)s->row_hits / (double)acc : 0.0);
    num(o, "activates", (double)s->acts);
    num(o, "precharges", (double)s->pres);
    num(o, "refreshes", (double)s->refreshes);
    num(o, "busy_cycles", (double)s->busy);
    num(o, "bandwidth_util", cycles && n ? (double)s->busy / (double)cycles / n : 0.0);
    num(o, "mean_queue_latency", acc ? (double)s->q_lat_sum / (double)acc : 0.0);
    num(o, "mean_read_latency", s->reads ? (double)s->rd_lat_sum / (double)s->reads : 0.0);
}

/* A sleeping bank's refusals not yet counted (l2bank.slp): one per L2 cycle after
 * k_ref up to the last one the ticks reached, as a visit every cycle would have
 * counted them. */
static uint64_t l2_pending(const det *m, const l2bank *b)
{
    if (!b->slp || !m->ticked)
        return 0;
    uint64_t lim[D__N];
    due_limits(m, m->now, lim);
    return lim[D_L2] > b->k_ref ? lim[D_L2] - b->k_ref : 0;
}

static void det_stats(const memsys *ms, cJSON *o)
{
    if (((const det *)ms)->b_run)
        b_join((det *)ms);
    const det *m = (const det *)ms;
    /* since launch_begin (t0; 0 for a model created for one launch) */
    uint64_t end = m->ticked && m->now + 1 > m->t0 ? m->now + 1 : m->t0;
    uint64_t core = end - m->t0;
    uint64_t cyc[D__N], cyc_end[D__N];
    for (int d = 0; d < D__N; d++) {
        cyc_end[d] = end * m->f[d] / m->f_core;
        cyc[d] = cyc_end[d] - m->t0 * m->f[d] / m->f_core;
    }
    cJSON_AddStringToObject(o, "model", "detailed");
    num(o, "core_cycles", (double)core);
    static const char *const kind[4] = {"load", "store", "atomic", "ifetch"};
    char key[64];
    for (int i = 0; i < 4; i++) {
        uint64_t rn = 0, rl = 0;
        for (uint32_t k = 0; k < m->n_sm; k++) {
            rn += m->sm[k].req_n[i];
            rl += m->sm[k].req_lat[i];
        }
        snprintf(key, sizeof key, "%s_requests", kind[i]);
        num(o, key, (double)rn);
        snprintf(key, sizeof key, "%s_latency_mean", kind[i]);
        num(o, key, rn ? (double)rl / (double)rn : 0.0);
    }
    for (int l = 0; l < L1__N; l++) {
        cache_stats sum = {0};
        cJSON *lv = cJSON_AddObjectToObject(o, l1_name[l]);
        cJSON *per = cJSON_CreateArray();
        uint32_t n_c = 0;   /* caches: one per SM, or per group of SMs sharing one */
        for (uint32_t s = 0; s < m->n_sm; s++) {
            if (m->sm[s].own[l] != s)
                continue;
            const cache *c = m->sm[s].l1[l];
            cache_stats st = *cache_get_stats(c);
            st.mshr_occ_sum = cache_mshr_occ_sum(c, end);
            cache_sum(&sum, &st);
            one_cache(per, st, core, 0);
            n_c++;
        }
        cache_json(lv, &sum, core, n_c);
        if (m->l1_shared[l] > 1)
            num(lv, "shared_by", (double)m->l1_shared[l]);
        if (l == L1D && m->l1d_adaptive) {
            /* the adaptive MSHR limit: usable entries, time average over the L1Ds */
            double ls = 0, ch = 0;
            for (uint32_t s = 0; s < m->n_sm; s++) {
                const cache_stats *st = cache_get_stats(m->sm[s].l1[l]);
                ls += (double)st->limit_sum +
                      (core > st->limit_t ? (double)st->limit * (double)(core - st->limit_t) : 0);
                ch += st->limit_changes;
            }
            num(lv, "mshr_limit_mean", core ? ls / (double)core / m->n_sm : 0.0);
            num(lv, "mshr_limit_changes", ch);
        }
        cJSON_AddItemToObject(lv, "per_sm", per);
    }
    {
        cache_stats sum = {0};
        cJSON *lv = cJSON_AddObjectToObject(o, "l2");
        cJSON *per = cJSON_CreateArray();
        uint64_t l2c = cyc[D_L2];
        for (uint32_t p = 0; p < m->n_part; p++)
            for (uint32_t b = 0; b < m->n_bank; b++) {
                const l2bank *bk = &m->pt[p].b[b];
                const cache *c = bk->c;
                cache_stats st = *cache_get_stats(c);
                st.mshr_occ_sum = cache_mshr_occ_sum(c, cyc_end[D_L2]);
                if (bk->slp)   /* (the refusals of the cycles it slept through) */
                    st.resfail[c->memo_out - MA_CSF] += l2_pending(m, bk);
                cache_sum(&sum, &st);
                one_cache(per, st, l2c, 1);
            }
        cache_json(lv, &sum, l2c, m->n_part * m->n_bank);
        cJSON_AddItemToObject(lv, "per_bank", per);
    }
    {
        cJSON *ic = cJSON_AddObjectToObject(o, "icnt");
        icnt_stats ra = *icnt_get_stats(m->req);
        ra.refused += m->req_refused;   /* sm_inject's, counted here */
        const icnt_stats *a = &ra, *b = icnt_get_stats(m->rep);
        icnt_stats t = *a;
        t.packets += b->packets;
        t.flits += b->flits;
        t.lat_sum += b->lat_sum;
        t.refused += b->refused;
        num(ic, "cycles", (double)cyc[D_ICNT]);
        icnt_json(ic, &t, cyc[D_ICNT], m->n_sm + m->n_part);
        icnt_json(cJSON_AddObjectToObject(ic, "request"), a, cyc[D_ICNT], m->n_part);
        icnt_json(cJSON_AddObjectToObject(ic, "reply"), b, cyc[D_ICNT], m->n_sm);
        num(ic, "packets_max_in_flight", (double)m->pkts_max);
    }
    if (m->ah_on) {
        /* a host mechanism: every other statistic is the same without it (mem.l2_ahead) */
        num(o, "host_ahead_l2_cycles", (double)m->ah_n[0]);
        num(o, "host_ahead_dram_cycles", (double)m->ah_n[1]);
    }
    if (m->b_cfg || m->b_nruns) {
        num(o, "host_l2_thread_runs", (double)m->b_nruns);
        num(o, "host_l2_thread_reply_runs", (double)m->b_nrep);
        num(o, "host_l2_thread_busy_seconds", m->b_busy_s);
        num(o, "host_l2_wait_seconds", m->a_wait_s);
    }
    if (m->sj_nb)
        num(o, "host_l2_thread_shares", (double)m->sj_nb);
    if (m->dir) {
        /* directory protocols only (the nvidia report is unchanged) */
        static const char *const ck[6] = {"transactions", "invalidations", "forwards", "acks",
                                          "ack_data_bytes", "waited_busy_line"};
        cJSON *co = cJSON_AddObjectToObject(o, "coherence");
        cJSON_AddStringToObject(co, "protocol", m->coh->name);
        for (int i = 0; i < 6; i++) {
            uint64_t v = 0;
            for (uint32_t p = 0; p < m->n_part; p++)
                v += m->pt[p].coh_st[i];
            num(co, ck[i], (double)v);
        }
    }
    {
        cJSON *dr = cJSON_AddObjectToObject(o, "dram");
        cJSON *per = cJSON_CreateArray();
        dram_stats sum = {0};
        for (uint32_t p = 0; p < m->n_part * m->cpl; p++) {
            const dram_stats *s = dram_get_stats(m->pt[p / m->cpl].ch[p % m->cpl]);
            sum.reads += s->reads;
            sum.writes += s->writes;
            sum.row_hits += s->row_hits;
            sum.acts += s->acts;
            sum.pres += s->pres;
            sum.refreshes += s->refreshes;
            sum.busy += s->busy;
            sum.q_lat_sum += s->q_lat_sum;
            sum.rd_lat_sum += s->rd_lat_sum;
            cJSON *c = cJSON_CreateObject();
            dram_json(c, s, cyc[D_DRAM], 1);
            cJSON_AddItemToArray(per, c);
        }
        num(dr, "cycles", (double)cyc[D_DRAM]);
        dram_json(dr, &sum, cyc[D_DRAM], m->n_part * m->cpl);
        cJSON_AddItemToObject(dr, "per_channel", per);
    }
}

static void det_dump(const memsys *ms, FILE *f)
{
    if (((const det *)ms)->b_run)
        b_join((det *)ms);
    const det *m = (const det *)ms;
    fprintf(f, "detailed memory at core cycle %llu: %llu requests outstanding, %llu packets "
            "in flight; next cycles: icnt %llu, l2 %llu, dram %llu\n",
            (unsigned long long)m->now, (unsigned long long)m->outstanding,
            (unsigned long long)m->pkts_live, (unsigned long long)m->dm[D_ICNT].wake,
            (unsigned long long)m->dm[D_L2].wake, (unsigned long long)m->dm[D_DRAM].wake);
    char name[64];
    for (uint32_t s = 0; s < m->n_sm; s++) {
        uint32_t n[L1__N + 1] = {0};
        for (int i = 0; i <= L1__N; i++)
            for (const mem_req *r = m->sm[s].done[i].h; r; r = r->next)
                n[i]++;
        int any = n[0] || n[1] || n[2] || n[3];
        for (int l = 0; l < L1__N; l++)
            any |= cache_mshr_used(m->sm[s].l1[l]) || cache_mq_len(m->sm[s].l1[l]);
        if (!any)
            continue;
        fprintf(f, " sm %u: done queues l1d %u l1c %u l1i %u replies %u\n", s, n[0], n[1], n[2], n[3]);
        for (int l = 0; l < L1__N; l++) {
            if (m->sm[s].own[l] != s)
                continue;   /* a shared L1: printed with its owner */
            snprintf(name, sizeof name, "%s", l1_name[l]);
            cache_dump(m->sm[s].l1[l], f, name);
        }
    }
    icnt_dump(m->req, f, "request crossbar");
    icnt_dump(m->rep, f, "reply crossbar");
    for (uint32_t p = 0; p < m->n_part; p++) {
        const part *pt = &m->pt[p];
        for (uint32_t b = 0; b < m->n_bank; b++) {
            const l2bank *bk = &pt->b[b];
            fprintf(f, " partition %u bank %u: in %u, replies %u+%u, dram returns %u, next %llu\n",
                    p, b, bk->in.n, bk->out[0].n, bk->out[1].n, bk->ret.n,
                    (unsigned long long)bk->next);
            cache_dump(bk->c, f, "l2");
        }
        for (uint32_t c = 0; c < m->cpl; c++) {
            snprintf(name, sizeof name, "dram %u", p * m->cpl + c);
            dram_dump(pt->ch[c], f, name);
        }
    }
}

/* memsys.h host_threads: the partition thread */
static uint32_t det_host_threads(const memsys *ms) { return (uint32_t)((const det *)ms)->b_cfg; }

/* memsys.h host_threads_use: runs go to the partition thread from the next tick on (a run
 * it has is joined at that tick), or stay here */
static void det_host_threads_use(memsys *ms, int on)
{
    det *m = (det *)ms;
    m->b_use = on;
    ST_REL(&m->b_pause, !on);
    if (on)
        b_kick_up(m);
}

/* memsys.h side_post: to B while it is in use and up (polling for runs or running one) */
static uint64_t det_side_post(memsys *ms, void (*fn)(void *, uint32_t), void *ctx, uint32_t k)
{
    det *m = (det *)ms;
    if (!m->b_thr_ok || !m->b_use || !__atomic_load_n(&m->b_up, __ATOMIC_SEQ_CST))
        return 0;
    m->sj_fn = fn;
    m->sj_ctx = ctx;
    m->sj_k = k;
    const uint64_t g = m->sj_post + 1;
    ST_REL(&m->sj_post, g);
    return g;
}

/* memsys.h side_end: the share claimed here unless B has, then B's end awaited */
static void det_side_end(memsys *ms, uint64_t g)
{
    det *m = (det *)ms;
    if (sj_take(m, g)) {
        m->sj_fn(m->sj_ctx, m->sj_k);
        return;
    }
    a_await(m, &m->sj_done, g);
}

/* the launch's last core cycle (memsys.h horizon): no run ahead goes beyond it */
static void det_horizon(memsys *ms, uint64_t last)
{
    if (((det *)ms)->b_run)
        b_join((det *)ms);
    ((det *)ms)->ah_cap = last;
}

/* A launch on a kept memory system: statistics from `cycle` on (the caches' MSHR
 * occupancy integrals from the matching cycle of their clock). */
static void det_launch_begin(memsys *ms, uint64_t cycle)
{
    det *m = (det *)ms;
    if (m->b_run)
        b_join(m);
    m->t0 = cycle;
    for (uint32_t s = 0; s < m->n_sm; s++) {
        memset(m->sm[s].req_n, 0, sizeof m->sm[s].req_n);
        memset(m->sm[s].req_lat, 0, sizeof m->sm[s].req_lat);
    }
    m->pkts_max = m->pkts_live;
    for (uint32_t s = 0; s < m->n_sm; s++)
        for (int l = 0; l < L1__N; l++)
            if (m->sm[s].own[l] == s)
                cache_stats_reset(m->sm[s].l1[l], cycle);
    uint64_t l2t = cycle * m->f[D_L2] / m->f_core;
    for (uint32_t p = 0; p < m->n_part; p++) {
        for (uint32_t b = 0; b < m->n_bank; b++) {
            /* a sleeping bank's refusals so far belong to what came before */
            l2bank *bk = &m->pt[p].b[b];
            const uint64_t n = l2_pending(m, bk);
            bk->k_ref += n;
            cache_stats_reset(bk->c, l2t);
        }
        for (uint32_t c = 0; c < m->cpl; c++)
            dram_stats_reset(m->pt[p].ch[c]);
    }
    icnt_stats_reset(m->req);
    icnt_stats_reset(m->rep);
    m->req_refused = 0;
    m->ah_n[0] = m->ah_n[1] = 0;
    m->b_nruns = 0;
    m->b_nrep = 0;
    m->sj_nb = 0;
    m->b_busy_s = m->a_wait_s = 0;
}

/* The end of a kernel: GPGPU-Sim invalidates the L1 data caches (-gpgpu_flush_l1_cache);
 * the instruction and constant caches and the L2 keep their lines. */
static void det_launch_end(memsys *ms, uint64_t cycle)
{
    det *m = (det *)ms;
    if (m->b_run)
        b_join(m);
    (void)cycle;
    if (m->flush_l1d) {
        for (uint32_t s = 0; s < m->n_sm; s++)
            cache_invalidate_all(m->sm[s].l1[L1D]);
        if (m->trace)
            fputs("# flush: the L1Ds invalidated at the kernel's end\n", m->trace);
    }
}

/* A host-to-device copy: GPGPU-Sim (-gpgpu_perf_sim_memcpy 1) installs every 32-byte
 * sector it writes in the L2, in address order; so does this, sector by sector of the
 * L2's own sector size, line by line. */
static void det_host_write(memsys *ms, uint64_t addr, uint64_t n)
{
    det *m = (det *)ms;
    if (m->b_run)
        b_join(m);
    if (!m->fill_on_copy || !n)
        return;
    uint64_t line = m->l2_line, sec = m->pt[0].b[0].c ? cache_config(m->pt[0].b[0].c)->sector : line;
    uint64_t end = addr + n;
    for (uint64_t la = addr / line * line; la < end; la += line) {
        uint64_t lo = la > addr ? la : addr, hi = la + line < end ? la + line : end;
        uint32_t sectors = 0;
        for (uint64_t b = (lo - la) / sec; b * sec < hi - la; b++)
            sectors |= 1u << b;
        addrmap_loc loc;
        uint32_t part, bank;
        uint64_t ix;
        l2_where(m, la, &loc, &part, &bank, &ix);
        l2bank *bk = &m->pt[part].b[bank];
        cache_install(bk->c, la, ix, sectors);
        if (bk->slp) {
            /* its memo no longer stands: its head is asked again at the next L2 cycle
             * (its refusals until then are l2_pending's) */
            uint64_t lim[D__N];
            due_limits(m, m->now, lim);
            bank_lower(m, bk, lim[D_L2] + 1);
            poke(m, D_L2, lim[D_L2] + 1);
        }
    }
}

const mem_model mem_model_detailed = {
    "detailed", "L1 caches with MSHRs, crossbar, L2 banks and DRAM channels (GPGPU-Sim class)",
    det_create, det_destroy, det_access, det_probe, det_pop, det_tick,
    det_next, det_busy, det_stats, det_dump, det_next_sm, det_check,
    NULL, NULL, /* its keys are the machine sections [l1d] ... [addr]; no per-launch hook */
    det_launch_begin, det_launch_end, det_host_write, det_commit, det_next_sm_late,
    det_par_parts, det_tick_serial, det_tick_part, det_tick_join, det_repeat,
    det_repeat_stats, det_sm_alone, det_horizon, det_host_threads, det_host_threads_use,
    det_side_post, det_side_end,
};
