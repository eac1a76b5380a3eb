/* test_bank_bitmap.c - pipe_bank_cycles' bitmap pass (core/pipe.c): one group, no
 * atomics, a power-of-two bank count <= 64 and the words within 4096 of the lowest
 * count the distinct words per bank with a bitmap of that range; wider ranges take the
 * probe tables. Hand-worked cycle counts (32 banks of 4-byte words, warp of 32):
 *  - lane l at word 2l: words 0, 2, ..., 62; bank = word mod 32, so even banks 0..30
 *    each hold two distinct words (b and b + 32): 2 cycles;
 *  - lane l at word (l mod 4) * 32: 4 distinct words, all in bank 0, each read by 8
 *    lanes (a broadcast within the word): 4 cycles;
 *  - lane l at word 32 * l + (l mod 2): 32 distinct words, 16 in bank 0 (even l) and 16
 *    in bank 1 (odd l): 16 cycles;
 *  - the same three patterns with some words moved up by 5024 = 157 * 32 (same bank,
 *    still distinct from the others, the range beyond 4096: the tables): the same
 *    counts;
 *  - lanes 0..30 at word 32 l, lane 31 at word 4096 (range 4096: the tables) or at word
 *    4064 (range 4064: the bitmap): bank 0 gets 32 distinct words either way: 32
 *    cycles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/pipe.h"

static uint32_t run(const uint64_t word[32], uint64_t base)
{
    exec_access a[32];
    for (unsigned l = 0; l < 32; l++)
        a[l] = (exec_access){(base + word[l]) * 4, (uint8_t)l, 4, SP_SHARED, 0};
    exec_trace t = {32, 64, a, 0};
    return pipe_bank_cycles(&t, 32, 32, 32, 0);
}

static void t_patterns(void **state)
{
    (void)state;
    uint64_t w[32];
    for (unsigned far = 0; far < 2; far++) {
        for (unsigned l = 0; l < 32; l++)
            w[l] = 2ull * l;
        if (far)
            w[7] += 5024;   /* word 5038: bank 14, as word 14 */
        assert_int_equal(run(w, 100), 2);
        for (unsigned l = 0; l < 32; l++)
            w[l] = (l % 4) * 32ull;
        if (far)
            for (unsigned l = 3; l < 32; l += 4)
                w[l] += 5024;   /* the fourth word moved, still bank 0, still one word */
        assert_int_equal(run(w, 64), 4);
        for (unsigned l = 0; l < 32; l++)
            w[l] = 32ull * l + (l % 2);
        if (far)
            w[30] += 5024;
        assert_int_equal(run(w, 0), 16);
    }
    for (unsigned l = 0; l < 32; l++)
        w[l] = 32ull * l;
    w[31] = 4096;   /* range 4096: the tables */
    assert_int_equal(run(w, 0), 32);
    w[31] = 4064;   /* range 4064: the bitmap */
    assert_int_equal(run(w, 0), 32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_patterns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
