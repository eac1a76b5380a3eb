/* div_prio_las.c - the Loop-Aware Scheduler (SPEC section 4, seed 002).
 *
 * Loop detection. A loop is the pc range [target, pc] of a taken backward branch
 * (target <= pc). On a taken backward branch the loop is looked up in the loop
 * table, direct-mapped by las_hash(pc) (func.las_hash over func.las_loop_entries):
 *   - the entry holds this loop: a hit;
 *   - otherwise the loop is inserted. Before that, every other valid entry whose
 *     range overlaps the new one without one containing the other (nested loops
 *     keep both) is merged with it by removing the backmost of the two — choice:
 *     the one whose backward branch lies further back in the code (larger pc); when
 *     that is the new loop it is not inserted. Then a valid entry at the index
 *     (a hash collision) is evicted. Both removals count as evictions.
 * Per loop: trip count (incremented by each thread taking the backward branch, and
 * per thread in iter[]), whether a divergent branch ran inside [lo, hi), and the
 * per-thread taken / not-taken outcomes of its first conditional branch.
 *
 * Scheduling. Min-PC; when the Min-PC path lies in a detected loop that diverged
 * (the innermost such loop containing its pc), the choice is among the runnable
 * paths inside that loop: with g = max - min of the iteration counts of their
 * threads, when g > func.las_max_gap the path holding a least-advanced thread runs
 * (the gap bound); otherwise the one with the highest score
 *     threads - func.las_iter_bias x (its most advanced thread's iteration - min)
 * (majority biased by iteration counts; ties: fewer iterations, then smaller pc).
 * An iteration-shift event is a change from following Min-PC to another path; the
 * counters count transitions, so choose() may run any number of times per step.
 */
#include <string.h>

#include "func/div_path.h"

uint32_t las_hash(const div_path_params *p, uint32_t pc)
{
    uint32_t n = p->las_entries ? p->las_entries : 1;
    if (p->las_hash == LAS_HASH_XOR_FOLD)
        pc ^= (pc >> 4) ^ (pc >> 8) ^ (pc >> 16);
    return pc % n;
}

static size_t las_size(const div_path_params *p)
{
    return sizeof(las_state) + (size_t)p->las_entries * sizeof(las_loop);
}

static void las_reset(void *st, const div_path_params *p)
{
    las_state *s = st;
    s->n = p->las_entries;
}

static int overlap_not_nested(const las_loop *a, uint32_t lo, uint32_t hi)
{
    if (a->hi < lo || hi < a->lo)
        return 0;   /* disjoint */
    if ((a->lo <= lo && hi <= a->hi) || (lo <= a->lo && a->hi <= hi))
        return 0;   /* nested */
    return 1;
}

static void las_branch(void *st, const div_path_params *p, div_stats *c, uint32_t pc, uint32_t target,
                       uint64_t active, uint64_t taken, int cond)
{
    las_state *s = st;
    if (taken && target <= pc) {
        las_loop *e = &s->e[las_hash(p, pc)];
        if (e->valid && e->hi == pc && e->lo == target) {
            c->loop_hits++;
        } else {
            int insert = 1;
            for (uint32_t j = 0; j < s->n; j++) {
                las_loop *o = &s->e[j];
                if (!o->valid || o == e || !overlap_not_nested(o, target, pc))
                    continue;
                c->loop_evicts++;
                if (o->hi > pc) {
                    o->valid = 0;   /* the other one is the backmost */
                } else {
                    insert = 0;     /* the new one is: it is not inserted */
                    break;
                }
            }
            if (!insert)
                e = NULL;
            else {
                if (e->valid)
                    c->loop_evicts++;   /* hash collision */
                memset(e, 0, sizeof *e);
                e->valid = 1;
                e->lo = target;
                e->hi = pc;
                c->loop_inserts++;
            }
        }
        if (e) {
            e->trip += (uint64_t)__builtin_popcountll(taken);
            for (uint64_t m = taken; m; m &= m - 1)
                e->iter[__builtin_ctzll(m)]++;
        }
    }
    for (uint32_t j = 0; j < s->n; j++) {
        las_loop *o = &s->e[j];
        if (!o->valid || pc < o->lo || pc >= o->hi)
            continue;   /* not inside (the backward branch itself is not) */
        if (taken && taken != active)
            o->diverged = 1;
        if (!cond)
            continue;
        if (!o->first_set) {
            o->first_set = 1;
            o->first_pc = pc;
        }
        if (pc == o->first_pc) {
            o->first_taken += (uint64_t)__builtin_popcountll(taken);
            o->first_not += (uint64_t)__builtin_popcountll(active & ~taken);
        }
    }
}

static uint32_t las_choose(void *st, const div_path_params *p, div_stats *c, const func_path *paths,
                           const uint8_t *ok, uint32_t n, uint32_t min_pc)
{
    las_state *s = st;
    uint32_t pc = paths[min_pc].pc;
    const las_loop *L = NULL;
    for (uint32_t j = 0; j < s->n; j++) {
        const las_loop *o = &s->e[j];
        if (o->valid && o->diverged && o->lo <= pc && pc <= o->hi &&
            (!L || o->hi - o->lo < L->hi - L->lo))
            L = o;   /* the innermost diverged loop holding the Min-PC path */
    }
    if (!L) {
        s->shifting = s->forcing = 0;
        return min_pc;
    }
    uint32_t lo_it = UINT32_MAX, hi_it = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!ok[i] || paths[i].pc < L->lo || paths[i].pc > L->hi)
            continue;
        for (uint64_t m = paths[i].mask; m; m &= m - 1) {
            uint32_t it = L->iter[__builtin_ctzll(m)];
            lo_it = it < lo_it ? it : lo_it;
            hi_it = it > hi_it ? it : hi_it;
        }
    }
    uint32_t gap = hi_it - lo_it;
    if (gap > c->iter_gap_max)
        c->iter_gap_max = gap;
    uint32_t best = min_pc;
    int forced = gap > p->las_max_gap;
    int64_t bs = INT64_MIN;
    uint32_t bit = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!ok[i] || paths[i].pc < L->lo || paths[i].pc > L->hi)
            continue;
        uint32_t mx = 0, mn = UINT32_MAX;
        for (uint64_t m = paths[i].mask; m; m &= m - 1) {
            uint32_t it = L->iter[__builtin_ctzll(m)];
            mx = it > mx ? it : mx;
            mn = it < mn ? it : mn;
        }
        int64_t score;
        if (forced)
            score = mn == lo_it ? 1 : 0;   /* holds a least-advanced thread */
        else
            score = (int64_t)__builtin_popcountll(paths[i].mask) - (int64_t)p->las_bias * (mx - lo_it);
        if (score > bs || (score == bs && (mx < bit || (mx == bit && paths[i].pc < paths[best].pc)))) {
            best = i;
            bs = score;
            bit = mx;
        }
    }
    if (forced && !s->forcing)
        c->gap_forced++;
    s->forcing = (uint8_t)forced;
    if (best != min_pc && !s->shifting)
        c->iter_shifts++;
    s->shifting = best != min_pc;
    return best;
}

const div_prio_ops div_prio_las = {
    .name = "las",
    .desc = "Loop-Aware Scheduler: Min-PC, majority biased by iterations inside diverged loops",
    .state_size = las_size,
    .reset = las_reset,
    .branch = las_branch,
    .choose = las_choose,
};
