/* coh_moesi.c - `moesi`, a directory MOESI protocol at the L2 (SPEC 6; coh.h).
 *
 * L1D line states: 0 I, 1 S, 2 E, 3 O, 4 M (5 N belongs to nmoesi, which reuses this
 * file's hooks). L1C and L1I are read-only and outside the protocol; the L2's own lines
 * are 1 (clean) or 4 (dirty bytes).
 *
 * L1D (on_access): loads (every cache operator) read, allocate on a miss; stores write
 * back with write allocation and an ownership fetch (CX_OWN: the write waits in the MSHR
 * for the fill; no lazy allocation, so the directory always hears of it); atomics go to
 * the L2 without an L1 lookup. upgrade(): a write to a present line in I or S misses
 * (an upgrade: the line is fetched again with ownership); M, E and O lines are read and
 * written locally (E -> M silently; M and O with no state change, as SPEC 6 states).
 * A write to a line whose read fill is still on the way waits for that fill (MSHRF).
 * Evictions: M and O lines (dirty bytes) write back, which tells the directory; S and E
 * lines leave silently (the directory then names a holder that is gone; a message to it
 * is acknowledged without data).
 *
 * Directory (on_dir, per L2 line: sharer vector over the SMs, N-holder vector, owner and
 * the owner's state as the directory knows it):
 *   read miss by r      owner o != r: forward to o (o: M -> O, E -> S; the directory
 *                       keeps o as owner in O, or as a sharer if it was E), r gets S;
 *                       no owner: r gets E when nobody else holds the line (and becomes
 *                       its owner), S otherwise; r the owner already: its state again
 *   write miss / upgrade by r   every other holder invalidated (an owner returns its
 *                       dirty bytes in the acknowledgement, written into the L2); r gets
 *                       M and is the only holder
 *   atomic              every L1 copy invalidated (the requester's too), then performed
 *                       at the L2; the line has no L1 holder afterwards
 *   write-back from r   r no longer holds the line
 * The answer to a request waits for every acknowledgement (the detailed model counts
 * them; the data leave when both the L2 data and the last ack are in). The L2 keeps
 * the line busy meanwhile (transient state: later requests for it wait at the L2),
 * which orders all messages an L1 sees for a line.
 * L1 messages (on_message): an invalidation drops the line (M/O: its dirty bytes go back
 * in the ack); a forward turns M into O, E into S (the ack carries the dirty bytes of an
 * M or O line: the owner supplies the data, which pass through the L2 to the requester). */
#include <stdlib.h>
#include <string.h>

#include "mem/cache.h"
#include "mem/coh.h"
#include "ptx/ir.h"

enum { MO_I, MO_S, MO_E, MO_O, MO_M, MO_N };

typedef struct {
    uint64_t sh;      /* coherent holders (bit s = SM s), the owner included            */
    uint64_t nsh;     /* holders in N (nmoesi)                                          */
    uint8_t owner;    /* SM + 1, 0: none                                                */
    uint8_t ost;      /* the owner's state as far as the directory knows (E, O, M)      */
} mo_dir;

/* dir_bytes of moesi and nmoesi (a constant both files can name) */
#define MO_DIR_BYTES 24
_Static_assert(sizeof(mo_dir) <= MO_DIR_BYTES, "directory entry");

void *coh_moesi_create(const void *cfg, char *err, size_t n)
{
    (void)cfg, (void)err, (void)n;
    static const int instance = 0;
    return (void *)&instance;
}

void coh_moesi_destroy(void *p) { (void)p; }

/* The L1 side of both protocols except stores (nc: nmoesi's non-coherent stores). */
void coh_moesi_access(const coh_req *q, cache_acc *a, int nc)
{
    if (q->level == COH_L2) {
        a->op = q->kind == MR_ATOMIC ? CQ_ATOMIC : q->kind == MR_STORE ? CQ_WRITE : CQ_READ;
        a->wpol = CW_BACK;
        a->apol = CA_LAZY;
        return;
    }
    switch (q->kind) {
    case MR_STORE:
        a->op = CQ_WRITE;
        a->wpol = CW_BACK;
        a->apol = CA_FETCH;
        a->excl = nc ? CX_NC : CX_OWN;
        break;
    case MR_ATOMIC:
        a->op = CQ_ATOMIC;
        a->bypass = 1;
        break;
    default:
        a->op = CQ_READ;
        break;
    }
}

static void mo_on_access(const void *p, const coh_req *q, cache_acc *a)
{
    (void)p;
    coh_moesi_access(q, a, 0);
}

static int mo_upgrade(uint8_t level, uint8_t op, uint8_t state)
{
    return level == COH_L1D && op == CQ_WRITE && state != MO_M && state != MO_E && state != MO_O;
}

uint8_t coh_moesi_line_state(uint8_t level, coh_event ev, uint8_t old, int dirty)
{
    if (level != COH_L1D)
        return dirty ? MO_M : MO_S;
    switch (ev) {
    case CE_FILL:   /* old: the state granted (pending writes already applied) */
        if (!dirty)
            return old ? old : MO_S;
        return old == MO_N || old == MO_O ? old : old == MO_S ? MO_N : MO_M;
    case CE_WRITE:
        return old == MO_E || old == MO_M ? MO_M : old == MO_O ? MO_O : MO_N;
    default:
        return dirty ? MO_M : MO_S;
    }
}

int coh_moesi_on_evict(uint8_t level, uint8_t state, int dirty)
{
    (void)level, (void)state;
    return dirty;
}

coh_msg_out coh_moesi_on_message(uint8_t level, uint8_t kind, uint8_t state, int dirty)
{
    (void)level, (void)dirty;
    coh_msg_out o = {state, 0, MSG_ACK};
    if (kind == MSG_INVALIDATE) {
        o.state = MO_I;
        o.drop = 1;
    } else if (kind == MSG_FORWARD) {
        o.state = state == MO_M ? MO_O : state == MO_E ? MO_S : state;
    } else {
        o.reply = MSG_NONE;
    }
    return o;
}

void coh_moesi_on_dir(void *p, uint8_t *dir, const coh_req *q, coh_dir_out *o)
{
    (void)p;
    mo_dir d;
    memcpy(&d, dir, sizeof d);
    uint64_t bit = q->sm < 64 ? 1ull << q->sm : 0;
    uint64_t obit = d.owner ? 1ull << (d.owner - 1) : 0;
    uint8_t me = (uint8_t)(q->sm + 1);
    if (q->msg == MSG_WRITEBACK) {
        d.sh &= ~bit;
        d.nsh &= ~bit;
        if (d.owner == me)
            d.owner = d.ost = 0;
    } else if (q->kind == MR_ATOMIC || q->kind == MR_STORE) {
        /* performed at the L2: no L1 copy may stay */
        o->inv = d.sh | d.nsh | obit;
        memset(&d, 0, sizeof d);
    } else if (q->src != COH_L1D) {
        /* a read past the L1: nothing to record */
    } else if (q->excl == CX_OWN) {
        o->inv = (d.sh | d.nsh | obit) & ~bit;
        d.sh = bit;
        d.nsh = 0;
        d.owner = me;
        d.ost = MO_M;
        o->grant = MO_M;
    } else if (q->excl == CX_NC) {
        /* non-coherent: nobody is told; a stale ownership record of r is dropped */
        if (d.owner == me)
            d.owner = d.ost = 0;
        d.sh &= ~bit;
        d.nsh |= bit;
        o->grant = MO_N;
    } else if (d.owner == me) {
        o->grant = d.ost;          /* the owner fetching again (a silent E eviction) */
    } else if (d.nsh & bit) {
        o->grant = MO_N;           /* an N holder reading missing sectors */
    } else if (d.owner) {
        o->fwd = d.owner - 1;
        if (d.ost == MO_E)
            d.owner = d.ost = 0;   /* E -> S: a plain sharer now */
        else
            d.ost = MO_O;
        d.sh |= bit;
        o->grant = MO_S;
    } else {
        /* N holders count as holders: the reader gets S beside them (nmoesi) */
        if ((d.sh | d.nsh) & ~bit) {
            o->grant = MO_S;
        } else {
            o->grant = MO_E;
            d.owner = me;
            d.ost = MO_E;
        }
        d.sh |= bit;
    }
    memcpy(dir, &d, sizeof d);
}

uint64_t coh_moesi_holders(const uint8_t *dir)
{
    mo_dir d;
    memcpy(&d, dir, sizeof d);
    return d.sh | d.nsh | (d.owner ? 1ull << (d.owner - 1) : 0);
}

const char *coh_moesi_state_name(uint8_t s)
{
    static const char *const names[] = {"I", "S", "E", "O", "M", "N"};
    return s < 6 ? names[s] : "?";
}

const coh_ops coh_moesi = {
    .name = "moesi",
    .desc = "directory MOESI at the L2 (SPEC 6): sharer vector + owner per L2 line, write-back "
            "L1 with ownership fetches, invalidations/forwards/acks through the crossbars",
    .create = coh_moesi_create,
    .destroy = coh_moesi_destroy,
    .on_access = mo_on_access,
    .line_state = coh_moesi_line_state,
    .on_evict = coh_moesi_on_evict,
    .on_message = coh_moesi_on_message,
    .dir_bytes = MO_DIR_BYTES,
    .on_dir = coh_moesi_on_dir,
    .dir_holders = coh_moesi_holders,
    .upgrade = mo_upgrade,
    .state_name = coh_moesi_state_name,
    .mshr_blocks = 1,
};
