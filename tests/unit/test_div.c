/* test_div.c - the divergence plug-in interface, driven directly on the SIMT stack.
 *
 * Scenario (4 lanes, mask 0xF), derived by hand:
 *  start: [ {pc 0, rpc -, F} ]
 *  branch at 2 to 6, taken 0x3, reconvergence 9:
 *     [ {9, -, F}, {3, 9, C}, {6, 9, 3} ]            top = taken path at 6
 *  next x3 on the top (6 -> 7 -> 8 -> 9 = rpc): popped; top = not-taken at 3
 *  branch at 3 to 9 (= the reconvergence point) with all its lanes: pc 9 = rpc, and
 *     settle pops it: [ {9, -, F} ]                  the warp reconverged at 9
 *  a loop's back edge at 12 to 10, taken 0x1, reconvergence 13, when the entry's own
 *  rpc is 13 (an inner entry): the not-taken lanes go straight to 13, so the entry is
 *  reused for the taken lane: no push.
 *  remove lanes 0x3 (exit) then settle: empty entries disappear.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "func/div.h"
#include "func/func.h"

static void t_simt_stack(void **state)
{
    (void)state;
    const div_ops *d = div_find("simt-stack");
    assert_non_null(d);
    assert_null(div_find("path-table-that-does-not-exist"));
    func_warp w;
    memset(&w, 0, sizeof w);
    assert_int_equal(d->add(&w, 0, DIV_NO_PC, 0xF, 0), 0);
    assert_int_equal(d->select(&w), 0);
    w.stk[0].pc = 2;
    d->branch(&w, 0, 2, 6, 0x3, 9);
    assert_int_equal(w.sp, 3);
    assert_int_equal(w.stk[0].pc, 9);
    assert_int_equal(w.stk[1].pc, 3);
    assert_int_equal(w.stk[1].mask, 0xC);
    assert_int_equal(w.stk[2].pc, 6);
    assert_int_equal(w.stk[2].mask, 0x3);
    int p = d->select(&w);
    assert_int_equal(p, 2);
    d->next(&w, p);
    d->next(&w, p);
    d->next(&w, p);   /* reaches 9: popped */
    assert_int_equal(w.sp, 2);
    p = d->select(&w);
    assert_int_equal(w.stk[p].pc, 3);
    d->branch(&w, p, 3, 9, 0xC, 12);
    assert_int_equal(d->settle(&w), 1);
    assert_int_equal(w.stk[0].pc, 9);
    assert_int_equal(w.stk[0].mask, 0xF);
    /* an inner entry reconverging at 13 whose back edge at 12 keeps one lane looping */
    assert_int_equal(d->add(&w, 12, 13, 0xF, 0), 0);
    d->branch(&w, 1, 12, 10, 0x1, 13);
    assert_int_equal(w.sp, 2);
    assert_int_equal(w.stk[1].pc, 10);
    assert_int_equal(w.stk[1].mask, 0x1);
    /* lanes 0 and 1 exit: the inner entry empties and goes; the outer keeps 0xC */
    d->remove(&w, 0x3, 0);
    assert_int_equal(d->settle(&w), 1);
    assert_int_equal(w.stk[0].mask, 0xC);
    free(w.stk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(t_simt_stack)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
