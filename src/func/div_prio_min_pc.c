/* div_prio_min_pc.c - Min-PC path priority: the runnable path with the smallest pc
 * (SPEC section 4: the default; closest to PDOM reconvergence without static
 * reconvergence points). No state. */
#include "func/div_path.h"

static uint32_t min_pc_choose(void *st, const div_path_params *p, div_stats *c, const func_path *paths,
                              const uint8_t *ok, uint32_t n, uint32_t min_pc)
{
    (void)st;
    (void)p;
    (void)c;
    (void)paths;
    (void)ok;
    (void)n;
    return min_pc;   /* the path table computes it for every policy */
}

const div_prio_ops div_prio_min_pc = {
    .name = "min-pc",
    .desc = "smallest pc first",
    .choose = min_pc_choose,
};
