/* icnt.h - crossbar interconnect: n_src input ports to n_dst output ports, one network
 * per direction (the memory system builds a request and a reply crossbar).
 *
 * Packets are split into flits of `flit` bytes. Each input port has a FIFO input buffer
 * and each output port an output buffer, both counted in flits. Every cycle each free
 * output port grants, round-robin from the input after the one it granted last, an
 * input whose head packet targets it, is ready, whose input link is free, and whose
 * flits all fit in the output buffer (backpressure: a full output buffer grants
 * nothing, the inputs fill up, and icnt_can_push() refuses). A granted packet of n flits
 * holds both links for n cycles (one flit per cycle per port) and is in the output
 * buffer, ready to be popped, `latency` + n cycles after its grant. Its input-buffer
 * space is released at the grant, its output-buffer space when it is popped.
 *
 * Time is counted in interconnect cycles (its own clock domain); the caller passes the
 * current cycle. Packets are the caller's objects with an icnt_msg inside. */
#ifndef WS_MEM_ICNT_H
#define WS_MEM_ICNT_H

#include <stdint.h>
#include <stdio.h>

typedef struct icnt_msg icnt_msg;
struct icnt_msg {
    icnt_msg *next;
    uint64_t t_push;      /* cycle it was pushed (latency statistic)                  */
    uint64_t t_ready;     /* first cycle it may be granted                            */
    uint64_t t_arr;       /* cycle its last flit is in the output buffer             */
    uint32_t src, dst, flits;
    uint8_t kind;         /* the caller's message kind (< ICNT_KINDS; the memory system:
                             mem_msg), set before icnt_push and counted per kind     */
};

#define ICNT_KINDS 8

typedef struct {
    uint32_t n_src, n_dst;
    uint32_t flit;        /* bytes per flit                                         */
    uint32_t in_buf;      /* input buffer, flits (>= the largest packet)            */
    uint32_t out_buf;     /* output buffer, flits (>= the largest packet)           */
    uint32_t latency;     /* cycles from grant to the head flit's arrival           */
} icnt_cfg;

typedef struct {
    uint64_t packets, flits;      /* popped                                          */
    uint64_t lat_sum;             /* push to pop, summed over popped packets         */
    uint64_t grants;
    uint64_t refused;             /* icnt_can_push() answers "no"                    */
    uint64_t kinds[ICNT_KINDS];   /* popped packets per icnt_msg.kind                */
} icnt_stats;

typedef struct icnt icnt;

icnt *icnt_create(const icnt_cfg *cfg, char *err, size_t n);
void icnt_destroy(icnt *ic);

uint32_t icnt_flits(const icnt *ic, uint32_t bytes);
/* Room in src's input buffer for a packet of `bytes`? Counts a refusal when not. */
int icnt_can_push(icnt *ic, uint32_t src, uint32_t bytes);
int icnt_has_room(const icnt *ic, uint32_t src, uint32_t bytes);
/* Queues m (caller checked the room) at cycle `now`; it may be granted from `ready`. */
void icnt_push(icnt *ic, icnt_msg *m, uint32_t src, uint32_t dst, uint32_t bytes, uint64_t now,
               uint64_t ready);
/* One arbitration cycle; returns the packets granted. */
int icnt_cycle(icnt *ic, uint64_t now);
/* Head of dst's output buffer if it has arrived by `now`, else NULL. */
icnt_msg *icnt_peek(const icnt *ic, uint32_t dst, uint64_t now);
icnt_msg *icnt_pop(icnt *ic, uint32_t dst, uint64_t now);
/* Earliest cycle > now at which icnt_cycle() or a pop can do something; UINT64_MAX when
 * empty. A packet blocked by a full output buffer answers now + 1. */
uint64_t icnt_next(const icnt *ic, uint64_t now);
uint32_t icnt_in_use(const icnt *ic);           /* packets inside                    */
/* Head of dst's output buffer, arrived or not (NULL if empty). */
const icnt_msg *icnt_out_head(const icnt *ic, uint32_t dst);
uint32_t icnt_latency(const icnt *ic);
/* The first output >= from holding packets, or n_dst: lets a receiver visit only the
 * ports with traffic. */
uint32_t icnt_next_out(const icnt *ic, uint32_t from);
/* The same as a bitmap, one bit per output (n_dst bits; the array lives as long as the
 * interconnect and changes with it): a receiver may scan it inline. */
const uint64_t *icnt_out_set(const icnt *ic);
/* Per output, the cycle its head packet arrives (icnt_out_head's t_arr; UINT64_MAX when
 * empty), as an array that lives and changes with the interconnect: icnt_peek() and
 * icnt_pop() find a packet at dst by `now` exactly when times[dst] <= now. */
const uint64_t *icnt_out_times(const icnt *ic);
/* Per output, its head packet (icnt_out_head; NULL when empty), as an array that lives
 * and changes with the interconnect: with times[dst] <= now, icnt_peek(dst, now) is
 * heads[dst]. */
icnt_msg *const *icnt_out_heads(const icnt *ic);
/* Per input, the flits in its buffer (an array living and changing with the
 * interconnect): icnt_has_room(src, bytes) is used[src] + icnt_flits(bytes) <= in_buf. A
 * sender that checks this itself does not count its refusals in icnt_stats.refused. */
const uint32_t *icnt_in_used(const icnt *ic);
/* Per input a bit, set when a grant from it releases input-buffer space (the only way
 * `used` falls), as an array (n_src bits) living with the interconnect that the caller
 * clears: a sender refused for room may wait for its bit instead of asking again. */
uint64_t *icnt_in_freed(icnt *ic);
/* Per output a bit, set when a grant to it sends it a packet (which then arrives at its
 * t_arr: the only way a packet reaches an output), as an array (n_dst bits) living with
 * the interconnect that the caller clears: a receiver may sleep past the packets not yet
 * granted to it and wait for its bit. */
uint64_t *icnt_out_got(icnt *ic);
const icnt_stats *icnt_get_stats(const icnt *ic);
void icnt_stats_reset(icnt *ic);
void icnt_dump(const icnt *ic, FILE *f, const char *name);

#endif
