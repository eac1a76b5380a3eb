/* div_prio_majority.c - majority path priority: the runnable path with the most
 * threads (ties: the smaller pc). No state. */
#include "func/div_path.h"

static uint32_t majority_choose(void *st, const div_path_params *p, div_stats *c, const func_path *paths,
                                const uint8_t *ok, uint32_t n, uint32_t min_pc)
{
    (void)st;
    (void)p;
    (void)c;
    uint32_t best = min_pc;
    int bp = __builtin_popcountll(paths[min_pc].mask);
    for (uint32_t i = 0; i < n; i++) {
        if (!ok[i])
            continue;
        int pop = __builtin_popcountll(paths[i].mask);
        if (pop > bp || (pop == bp && paths[i].pc < paths[best].pc)) {
            best = i;
            bp = pop;
        }
    }
    return best;
}

const div_prio_ops div_prio_majority = {
    .name = "majority",
    .desc = "largest population first (ties: smaller pc)",
    .choose = majority_choose,
};
