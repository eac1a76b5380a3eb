/* dram.h - one DRAM channel: banks with row buffers, the usual timing constraints, a
 * request queue and its scheduler (FR-FCFS or FIFO, chosen by name).
 *
 * Time is the DRAM command clock; the caller passes the current cycle. One command
 * (ACT, PRE, RD, WR or REF) issues per cycle. Rows stay open after an access (open-page
 * policy). A request moves `bytes` over a bus of bus_bytes x beats_per_clk bytes per
 * cycle, in whole bursts of burst_len beats: B = max(burst_len / beats_per_clk,
 * ceil(bytes / (bus_bytes x beats_per_clk))) cycles of data. A request of `cmds` > 1 column
 * commands (a sectored L2's sectors of one line, each its own access, as GPGPU-Sim queues
 * each sector as a request) has its commands scheduled one by one, each moving bytes / cmds
 * in whole bursts (Bc cycles): it stays queued, its bank's row hit, until its last command
 * (so its row stays open), and between two of them the scheduler may issue any other
 * request's command that may go (FR-FCFS: the oldest ready hit, e.g. a sector of a line in
 * another bank group; FIFO: none, the oldest request issues all of its commands first).
 * Its t_issue is its first command, t_done its last data beat; it counts in the stats when
 * its last command issues. Alone, its commands are max(tCCDL, Bc) apart (one bank, so one
 * bank group): B = (cmds - 1) x max(tCCDL, Bc) + Bc (dram_req_cycles()). Banks form
 * bank_groups groups (GDDR5), bank k in group k mod bank_groups (the low bank bits, as
 * GPGPU-Sim's -dram_bnkgrp_indexing_policy 1); with one group tCCDL is tCCD.
 * Constraints (cycles):
 *   ACT -> RD/WR same bank tRCD;  ACT -> PRE same bank tRAS;  ACT -> ACT same bank tRC;
 *   ACT -> ACT any bank tRRD;  PRE -> ACT same bank tRP;
 *   RD/WR -> RD/WR max(tCCD, Bc), same bank group max(tCCDL, Bc), after the previous
 *   column command;  RD data at +tCL, WR data at +tWL, for Bc cycles per command;
 *   data bursts never overlap; read data end -> write data start tRTW (bus turnaround);
 *   write data end -> RD command tWTR;  write data end -> PRE same bank tWR;
 *   RD -> PRE same bank Bc (the burst leaves the row first);
 *   refresh (optional): every tREFI cycles every bank is precharged, then all banks
 *   wait tRFC before the next ACT.
 * So a read to a bank open on another row completes tRP + tRCD + tCL + B cycles after
 * the PRE, and a row hit tCL + B after its RD. */
#ifndef WS_MEM_DRAM_H
#define WS_MEM_DRAM_H

#include <stdint.h>
#include <stdio.h>

typedef enum { DRAM_FRFCFS, DRAM_FIFO } dram_sched;

typedef struct {
    uint32_t banks;              /* <= 64                                            */
    uint32_t queue;              /* request queue entries                            */
    uint32_t bus_bytes;          /* data bus width, bytes                            */
    uint32_t beats_per_clk;      /* data beats per command clock (DDR 2, GDDR5 4)    */
    uint32_t burst_len;          /* beats per burst                                  */
    uint32_t tCCD, tRRD, tRCD, tRAS, tRP, tRC, tCL, tWL, tWR, tRTW, tWTR;
    uint32_t bank_groups;        /* 0 or 1: none; else a power of two dividing banks  */
    uint32_t tCCDL;              /* column to column in one bank group (>= tCCD used)  */
    uint32_t tREFI, tRFC;        /* tREFI 0: no refresh                              */
    int sched;                   /* dram_sched                                       */
    int scan_always;             /* testing: no t_wait, every call scans the queue (the
                                    reference the skipping must match; dram.c)       */
} dram_cfg;

typedef struct dram_req dram_req;
/* (next, row and write first, side by side: the walks of a bank's queue for its hits
 * (an ACT's, a request's last column command's) read these of every request in it, and
 * the requests lie in the caller's packets, one or two host cache lines each) */
struct dram_req {
    dram_req *next;              /* queue of its bank, then the completion list      */
    uint32_t row, bank;
    uint8_t write;
    uint8_t cmds;                /* column commands: 0 or 1 one, else bytes / cmds each */
    uint8_t act;                 /* an ACT was issued for it: not a row hit          */
    uint8_t ncol;                /* column commands issued so far (set by dram_push)  */
    uint32_t bytes;
    uint64_t seq;                /* arrival order                                    */
    uint64_t t_arr;              /* cycle it may be scheduled from (set by dram_push) */
    dram_req *prev;              /* queue of its bank (O(1) unlink of a row hit)      */
    uint64_t t_issue;            /* its (first) RD / WR command                      */
    uint64_t t_done;             /* its last data beat                               */
};

typedef struct {
    uint64_t reads, writes, row_hits, acts, pres, refreshes;
    uint64_t busy;               /* data-bus cycles                                  */
    uint64_t q_lat_sum;          /* arrival to first RD/WR command, summed           */
    uint64_t rd_lat_sum;         /* arrival to last data beat of reads, summed       */
} dram_stats;

typedef struct dram dram;

/* The part of a channel its owner may read inline (the first member of struct dram). */
typedef struct {
    /* no call can change or report anything before this cycle: dram_cycle(d, now) for
     * now < quiet issues nothing and changes nothing, dram_pop(d, now) returns NULL,
     * and dram_next(d, now) returns quiet (0: unknown, ask). Kept by every call that
     * changes the channel. */
    uint64_t quiet;
    uint64_t t_pop;              /* the oldest issued request's t_done (UINT64_MAX:
                                    none): dram_pop(d, now) returns NULL iff now < it */
    int room;                    /* places left in the queue (dram_room)             */
} dram_pub;

/* dram_pub.quiet of d (see there) */
static inline uint64_t dram_quiet(const dram *d) { return ((const dram_pub *)(const void *)d)->quiet; }
/* dram_pub.t_pop of d */
static inline uint64_t dram_pop_at(const dram *d) { return ((const dram_pub *)(const void *)d)->t_pop; }

/* Scheduler by name ("frfcfs", "fifo"): its value, or -1. */
int dram_sched_find(const char *name);
const char *dram_sched_name(int s);

dram *dram_create(const dram_cfg *cfg, char *err, size_t n);
void dram_destroy(dram *d);
uint32_t dram_burst_cycles(const dram *d, uint32_t bytes);
/* Data-bus cycles of a request of `cmds` column commands moving `bytes` in all, issued
 * alone (B above). */
uint32_t dram_req_cycles(const dram *d, uint32_t bytes, uint32_t cmds);

static inline int dram_can_push(const dram *d) { return ((const dram_pub *)(const void *)d)->room > 0; }
/* Requests the queue takes before dram_can_push() says no. */
static inline uint32_t dram_room(const dram *d)
{
    const int r = ((const dram_pub *)(const void *)d)->room;
    return r > 0 ? (uint32_t)r : 0;
}
/* Queues r at cycle `now`; it may be scheduled from cycle `ready`. Ready cycles must
 * not decrease from one push to the next. */
void dram_push(dram *d, dram_req *r, uint64_t now, uint64_t ready);
/* One command slot at cycle `now`; returns 1 if a command for a request issued
 * (refresh commands return 0: they are not progress). */
int dram_cycle(dram *d, uint64_t now);
/* A finished request (t_done <= now), in completion order, or NULL. */
dram_req *dram_pop(dram *d, uint64_t now);
/* Earliest cycle > now at which a command may issue or a request finish; UINT64_MAX
 * when idle. Never later than the real next event (it is a lower bound). */
uint64_t dram_next(const dram *d, uint64_t now);
uint32_t dram_queued(const dram *d);     /* waiting for (the last of) their column commands */
uint32_t dram_in_flight(const dram *d);  /* queued + issued not yet popped           */
const dram_stats *dram_get_stats(const dram *d);
void dram_stats_reset(dram *d);
void dram_dump(const dram *d, FILE *f, const char *name);

#endif
