/* test_coalesce_alike.c - pipe_coalesce's first pass (core/pipe.c): records all of
 * record 0's size, space and kind with lanes in [lo, hi) take one pass over the
 * addresses (one segment, or the non-decreasing segments); anything else the general
 * loops. Hand-worked (128-byte lines, warp of 32, 4-byte accesses unless said):
 *  - lane l at 0x1000 + 4 l: one line 0x1000 / 128 = 32, 128 bytes;
 *  - from 0x1040: lines 32 (lanes 0-15, 64 B) and 33 (lanes 16-31, 64 B);
 *  - 8-byte accesses at 0x2000 + 8 l: lines 64 and 65, 128 B each;
 *  - lane l at 0x1000 + 128 l: 32 lines 32..63, 4 B each;
 *  - the first case with lanes in [0, 16) only (lo = 0, hi = 16): lanes 16-31 left
 *    out: line 32, 64 B (the general loop);
 *  - the first case with lane 5's access 8 bytes at 0x1018 (mixed sizes: the general
 *    loop; bytes counted per access): line 32, 124 + 8 = 132 B;
 *  - lane l at 0x1000 + 4 (31 - l) + 128 (l mod 2), lines decreasing and alternating
 *    (the general loop): lane 0 at 0x107c (line 32), lane 1 at 0x10f8 (line 33), ...:
 *    lines 32 (64 B) and 33 (64 B) in that order;
 *  - parameter space, lane l at 0x10 + 4 l, in the parameter window from 0x6f00000000
 *    (128-byte aligned): lanes 0-27 (0x10-0x7c) in its line 0, 112 B, lanes 28-31
 *    (0x80-0x8c) in line 1, 16 B.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/pipe.h"

static exec_access A[32];

static exec_trace mk(uint64_t base, uint64_t step, uint8_t size, uint8_t space)
{
    for (unsigned l = 0; l < 32; l++)
        A[l] = (exec_access){base + step * l, (uint8_t)l, size, space, 0};
    return (exec_trace){32, 64, A, 0};
}

static void t_alike(void **state)
{
    (void)state;
    pipe_space sp;
    pipe_space_init(&sp, 0, 2, 32);
    uint64_t seg[64];
    uint32_t used[64];
    exec_trace t = mk(0x1000, 4, 4, SP_GLOBAL);
    assert_int_equal(pipe_coalesce(&sp, &t, 0, 0, 32, 128, seg, used), 1);
    assert_int_equal(seg[0], 32);
    assert_int_equal(used[0], 128);

    t = mk(0x1040, 4, 4, SP_GLOBAL);
    assert_int_equal(pipe_coalesce(&sp, &t, 0, 0, 32, 128, seg, used), 2);
    assert_int_equal(seg[0], 32);
    assert_int_equal(used[0], 64);
    assert_int_equal(seg[1], 33);
    assert_int_equal(used[1], 64);

    t = mk(0x2000, 8, 8, SP_GLOBAL);
    assert_int_equal(pipe_coalesce(&sp, &t, 0, 0, 32, 128, seg, used), 2);
    assert_int_equal(seg[0], 64);
    assert_int_equal(used[0], 128);
    assert_int_equal(seg[1], 65);
    assert_int_equal(used[1], 128);

    t = mk(0x1000, 128, 4, SP_GLOBAL);
    assert_int_equal(pipe_coalesce(&sp, &t, 0, 0, 32, 128, seg, used), 32);
    for (unsigned k = 0; k < 32; k++) {
        assert_int_equal(seg[k], 32 + k);
        assert_int_equal(used[k], 4);
    }

    t = mk(0x1000, 4, 4, SP_GLOBAL);
    assert_int_equal(pipe_coalesce(&sp, &t, 0, 0, 16, 128, seg, used), 1);
    assert_int_equal(seg[0], 32);
    assert_int_equal(used[0], 64);

    t = mk(0x1000, 4, 4, SP_GLOBAL);
    A[5].size = 8;
    A[5].addr = 0x1018;   /* (aligned: lanes 5 and 6 overlap, as the bytes count) */
    assert_int_equal(pipe_coalesce(&sp, &t, 0, 0, 32, 128, seg, used), 1);
    assert_int_equal(seg[0], 32);
    assert_int_equal(used[0], 132);

    t = mk(0, 0, 4, SP_GLOBAL);
    for (unsigned l = 0; l < 32; l++)
        A[l].addr = 0x1000 + 4 * (31 - l) + 128 * (l % 2);
    assert_int_equal(pipe_coalesce(&sp, &t, 0, 0, 32, 128, seg, used), 2);
    assert_int_equal(seg[0], 32);
    assert_int_equal(used[0], 64);
    assert_int_equal(seg[1], 33);
    assert_int_equal(used[1], 64);

    t = mk(0x10, 4, 4, SP_PARAM);
    assert_int_equal(pipe_coalesce(&sp, &t, 0, 0, 32, 128, seg, used), 2);
    assert_int_equal(seg[0], 0x6f00000000ull / 128);
    assert_int_equal(used[0], 112);
    assert_int_equal(seg[1], 0x6f00000000ull / 128 + 1);
    assert_int_equal(used[1], 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
