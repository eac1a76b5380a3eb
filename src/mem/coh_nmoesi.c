/* coh_nmoesi.c - `nmoesi`, MOESI plus N, Multi2Sim's protocol for GPUs (SPEC 6; coh.h).
 * Everything but stores is `moesi`'s (coh_moesi.c, whose hooks it reuses): loads,
 * atomics, the directory, forwards and invalidations.
 *
 * Stores are GPU non-coherent writes (CX_NC): a store to a line in M or E writes it
 * locally (E -> M), in O locally (O), in S or N locally into N; a store miss fetches the
 * line without ownership (the write waits in the MSHR for the fill): the directory
 * records the L1 as an N holder, tells nobody, and the line arrives in N. Several L1s
 * may thus hold N copies and write them with no coherence traffic; an N line leaving
 * the L1 writes back only its dirty bytes (per-byte dirty mask).
 *
 * A coherent access to a line others hold in N (our choice, documented in
 * docs/MEMORY.md 4.2): a load is not delayed - N copies are not coherent by definition,
 * the reader gets the L2's data in S (never E while N holders exist); an access that
 * needs every copy gone - an atomic, performed at the L2 - invalidates the N copies,
 * whose dirty bytes come back in the acknowledgements and are merged into the L2 line
 * before the atomic is answered. An L2 eviction recalls N copies like any other. */
#include "mem/cache.h"
#include "mem/coh.h"

enum { NM_I, NM_S, NM_E, NM_O, NM_M, NM_N };

void *coh_moesi_create(const void *cfg, char *err, size_t n);
void coh_moesi_destroy(void *p);
void coh_moesi_access(const coh_req *q, cache_acc *a, int nc);
uint8_t coh_moesi_line_state(uint8_t level, coh_event ev, uint8_t old, int dirty);
int coh_moesi_on_evict(uint8_t level, uint8_t state, int dirty);
coh_msg_out coh_moesi_on_message(uint8_t level, uint8_t kind, uint8_t state, int dirty);
void coh_moesi_on_dir(void *p, uint8_t *dir, const coh_req *q, coh_dir_out *o);
uint64_t coh_moesi_holders(const uint8_t *dir);
const char *coh_moesi_state_name(uint8_t s);

static void nm_on_access(const void *p, const coh_req *q, cache_acc *a)
{
    (void)p;
    coh_moesi_access(q, a, 1);
}

/* Only a line without data (I: allocated, fill pending) must fetch for a write. */
static int nm_upgrade(uint8_t level, uint8_t op, uint8_t state)
{
    return level == COH_L1D && op == CQ_WRITE && state == NM_I;
}

const coh_ops coh_nmoesi = {
    .name = "nmoesi",
    .desc = "Multi2Sim NMOESI (SPEC 6): MOESI plus N, GPU stores are non-coherent writes (N "
            "copies in several L1s, only dirty bytes written back)",
    .create = coh_moesi_create,
    .destroy = coh_moesi_destroy,
    .on_access = nm_on_access,
    .line_state = coh_moesi_line_state,
    .on_evict = coh_moesi_on_evict,
    .on_message = coh_moesi_on_message,
    .dir_bytes = 24,     /* MO_DIR_BYTES of coh_moesi.c */
    .on_dir = coh_moesi_on_dir,
    .dir_holders = coh_moesi_holders,
    .upgrade = nm_upgrade,
    .state_name = coh_moesi_state_name,
    .mshr_blocks = 1,
};
