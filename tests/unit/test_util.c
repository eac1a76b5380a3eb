/* test_util.c - util helpers: ws_read_file's size limits and error messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>

#include <cmocka.h>

#include "util/err.h"

/* Writes n bytes of 'x' to a fresh temporary file; its path into path[]. */
static void make_file(char *path, size_t n)
{
    strcpy(path, "/tmp/ws_test_utilXXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    char block[4096];
    memset(block, 'x', sizeof block);
    for (size_t left = n; left;) {
        size_t k = left < sizeof block ? left : sizeof block;
        assert_int_equal(write(fd, block, k), (ssize_t)k);
        left -= k;
    }
    close(fd);
}

static void test_read_sizes(void **state)
{
    (void)state;
    char path[64], err[256];
    size_t len = 0;
    /* 64 KB is the first buffer: files at, under and over it, and over 1 MB, with no
     * limit (SIZE_MAX: the limit arithmetic must not wrap) */
    const size_t sizes[] = {0, 1, 65535, 65536, 65537, 200000, (1u << 20) + 17};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        make_file(path, sizes[i]);
        char *b = ws_read_file(path, &len, SIZE_MAX, err, sizeof err);
        assert_non_null(b);
        assert_int_equal(len, sizes[i]);
        assert_int_equal(b[len], 0);
        assert_true(len == 0 || (b[0] == 'x' && b[len - 1] == 'x'));
        free(b);
        unlink(path);
    }
    /* an explicit limit: a file of exactly max bytes reads; one byte more fails, saying why */
    make_file(path, 100000);
    char *b = ws_read_file(path, &len, 100000, err, sizeof err);
    assert_non_null(b);
    assert_int_equal(len, 100000);
    free(b);
    assert_null(ws_read_file(path, &len, 99999, err, sizeof err));
    assert_int_equal(errno, EFBIG);
    assert_non_null(strstr(err, "file too large (more than 99999 bytes)"));
    assert_non_null(strstr(err, path));
    unlink(path);
}

static void test_read_errors(void **state)
{
    (void)state;
    char err[256];
    size_t len;
    assert_null(ws_read_file("/nonexistent/dir/x.ptx", &len, SIZE_MAX, err, sizeof err));
    assert_int_equal(errno, ENOENT);
    assert_string_equal(err, "/nonexistent/dir/x.ptx: No such file or directory");
    /* a directory opens but cannot be read */
    assert_null(ws_read_file("/tmp", &len, SIZE_MAX, err, sizeof err));
    assert_non_null(strstr(err, "/tmp: "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_sizes),
        cmocka_unit_test(test_read_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
