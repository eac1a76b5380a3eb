/* test_sched_grp.c - GTO's oldest ready slot from CTA groups (core/sched.h
 * sched_oldest_slot_grp, which the Fermi SM uses with one word per slot set): the same
 * answer as the age scan sched_oldest_slot when the slots come in groups of one age.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/sched.h"

#define NONE 0xffffffffu

/* Worked by hand. Four warps per CTA slot: CTA slot 0 = slots 0-3 placed at cycle 10,
 * CTA slot 1 = slots 4-7 at cycle 3, CTA slot 2 = slots 8-11 at cycle 10. By (age, first
 * slot): CTA 1 (age 3), CTA 0 (age 10, slot 0), CTA 2 (age 10, slot 8).
 *   ready {2, 5, 9}, no greedy: CTA 1 has 5              -> 5
 *   ready {2, 9}: CTA 1 has none, CTA 0 has 2            -> 2
 *   ready {9, 11}: only CTA 2, its lowest                -> 9
 *   ready {2, 5, 9}, greedy 9 (ready): the greedy warp   -> 9
 *   ready {2, 5, 9}, greedy 3 (not ready): the oldest    -> 5
 *   ready {}: none                                       -> -1 */
static void test_grp_hand(void **state)
{
    (void)state;
    const uint64_t grp[3] = {0xf0, 0x0f, 0xf00};
    uint64_t age[12];
    for (int i = 0; i < 12; i++)
        age[i] = i < 4 ? 10 : i < 8 ? 3 : 10;
    const struct {
        uint64_t ready;
        uint32_t greedy;
        int want;
    } c[] = {
        {1ull << 2 | 1ull << 5 | 1ull << 9, NONE, 5},
        {1ull << 2 | 1ull << 9, NONE, 2},
        {1ull << 9 | 1ull << 11, NONE, 9},
        {1ull << 2 | 1ull << 5 | 1ull << 9, 9, 9},
        {1ull << 2 | 1ull << 5 | 1ull << 9, 3, 5},
        {0, NONE, -1},
        {0, 9, -1},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        assert_int_equal(sched_oldest_slot_grp(c[i].ready, grp, 3, c[i].greedy), c[i].want);
        assert_int_equal(sched_oldest_slot(&c[i].ready, 1, age, c[i].greedy), c[i].want);
    }
}

/* Random layouts: up to 8 CTA slots of 1-8 warps (within 64 slots), each used or not,
 * random ages with ties; random ready subsets of the used slots and greedy slots: the
 * group answer equals the age scan's. */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

static void test_grp_random(void **state)
{
    (void)state;
    for (int t = 0; t < 2000; t++) {
        const uint32_t cw = 1 + rnd(8), nc = 1 + rnd(64 / cw < 8 ? 64 / cw : 8);
        uint64_t age[64] = {0}, grp[8], used = 0;
        uint32_t k_of[8], n = 0;
        uint64_t cage[8];
        for (uint32_t k = 0; k < nc; k++) {
            cage[k] = rnd(4);   /* few values: ties between CTAs */
            for (uint32_t i = 0; i < cw; i++)
                age[k * cw + i] = cage[k];
            if (rnd(4)) {   /* used */
                k_of[n++] = k;
                for (uint32_t i = 0; i < cw; i++)
                    used |= 1ull << (k * cw + i);
            }
        }
        /* the used CTA slots by (age, slot): insertion sort */
        for (uint32_t i = 1; i < n; i++)
            for (uint32_t j = i; j > 0 && (cage[k_of[j - 1]] > cage[k_of[j]] ||
                                           (cage[k_of[j - 1]] == cage[k_of[j]] && k_of[j - 1] > k_of[j])); j--) {
                uint32_t x = k_of[j];
                k_of[j] = k_of[j - 1];
                k_of[j - 1] = x;
            }
        for (uint32_t i = 0; i < n; i++)
            grp[i] = (cw == 64 ? ~0ull : (1ull << cw) - 1) << (k_of[i] * cw);
        for (int r = 0; r < 20; r++) {
            uint64_t ready = used & ((uint64_t)rnd(1u << 31) << 33 ^ (uint64_t)rnd(1u << 31) << 2 ^ rnd(4));
            uint32_t greedy = rnd(3) ? rnd(70) : NONE;
            assert_int_equal(sched_oldest_slot_grp(ready, grp, n, greedy), sched_oldest_slot(&ready, 1, age, greedy));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grp_hand),
        cmocka_unit_test(test_grp_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
