/* test_json_out.c - json_print gives exactly cJSON_Print's text (src/util/json_out.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/json_out.h"

static void same(const cJSON *j)
{
    char *a = cJSON_Print(j), *b = json_print(j);
    assert_non_null(a);
    assert_non_null(b);
    if (strcmp(a, b))
        fprintf(stderr, "cJSON_Print:\n%s\njson_print:\n%s\n", a, b);
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* Numbers: integers inside and outside an int, halves, thirds (17 digits), tiny and
 * huge magnitudes, negative zero, NaN and infinities (null). */
static void test_numbers(void **state)
{
    (void)state;
    const double v[] = {0, -0.0, 1, -1, 42, INT_MAX, INT_MIN, (double)INT_MAX + 1, (double)INT_MIN - 1,
                        3e9, -3e9, 1e15, 123456789012345678.0, 9007199254740993.0, 0.5, -2.25,
                        0.1, 1.0 / 3, 2.0 / 3, 1e-300, 5e-324, DBL_MAX, -DBL_MAX, DBL_MIN,
                        1234.5678, 6.02214076e23, NAN, INFINITY, -INFINITY, 0.3069, 1.5e-7};
    cJSON *a = cJSON_CreateArray(), *o = cJSON_CreateObject();
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
        char k[16];
        snprintf(k, sizeof k, "n%zu", i);
        cJSON_AddNumberToObject(o, k, v[i]);
        cJSON *one = cJSON_CreateNumber(v[i]);
        same(one);
        cJSON_Delete(one);
    }
    same(a);
    same(o);
    cJSON_Delete(a);
    cJSON_Delete(o);
}

/* Strings with every escape, control bytes (\u00XX), quotes, backslashes, UTF-8 bytes
 * (as they are); empty strings, keys with escapes; null/true/false; raw items; empty
 * and nested containers; references. */
static void test_structure(void **state)
{
    (void)state;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "plain", "gtx480");
    cJSON_AddStringToObject(o, "esc\"ape\\d\tkey", "a\"b\\c\b\f\n\r\t\x01\x1f\x7f end");
    cJSON_AddStringToObject(o, "utf8", "\xc3\xa9t\xc3\xa9 \xe2\x82\xac");
    cJSON_AddStringToObject(o, "", "");
    cJSON_AddNullToObject(o, "nothing");
    cJSON_AddTrueToObject(o, "yes");
    cJSON_AddFalseToObject(o, "no");
    cJSON_AddRawToObject(o, "raw", "[1,2]");
    cJSON_AddObjectToObject(o, "empty_object");
    cJSON_AddArrayToObject(o, "empty_array");
    cJSON *arr = cJSON_AddArrayToObject(o, "objects");
    for (int i = 0; i < 3; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "i", i);
        cJSON *in = cJSON_AddArrayToObject(e, "inner");
        for (int k = 0; k < i; k++)
            cJSON_AddItemToArray(in, cJSON_CreateNumber(k * 0.25));
        cJSON_AddObjectToObject(e, "deep");
        cJSON_AddItemToArray(arr, e);
    }
    cJSON *nest = cJSON_CreateArray();
    cJSON_AddItemToArray(nest, cJSON_CreateArray());
    cJSON_AddItemToArray(nest, cJSON_CreateObject());
    cJSON_AddItemToArray(nest, cJSON_CreateString("s"));
    cJSON_AddItemToObject(o, "nested", nest);
    cJSON *shared = cJSON_CreateObject();
    cJSON_AddNumberToObject(shared, "l2_hits", 7);
    cJSON_AddItemReferenceToObject(o, "ref", shared);
    same(o);
    same(arr);
    same(cJSON_GetObjectItemCaseSensitive(o, "empty_object"));
    cJSON_Delete(o);
    cJSON_Delete(shared);
}

/* Random trees (a fixed generator: the same trees every run) with the shapes the run
 * report has: objects of counters and rates, arrays of per-SM objects. */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_u64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static cJSON *random_value(int depth)
{
    uint64_t r = next_u64();
    switch (depth > 3 ? r % 4 : r % 6) {
    case 0: return cJSON_CreateNumber((double)(next_u64() % 100000000000ull));
    case 1: return cJSON_CreateNumber((double)(int64_t)next_u64() / (double)(1 + next_u64() % 1000000));
    case 2: return cJSON_CreateNumber((double)(next_u64() % 1000));
    case 3: {
        char s[12];
        for (int i = 0; i < 11; i++)
            s[i] = (char)(1 + next_u64() % 126);
        s[11] = 0;
        return cJSON_CreateString(s);
    }
    case 4: {
        cJSON *a = cJSON_CreateArray();
        for (uint64_t i = 0, n = next_u64() % 6; i < n; i++)
            cJSON_AddItemToArray(a, random_value(depth + 1));
        return a;
    }
    default: {
        cJSON *o = cJSON_CreateObject();
        for (uint64_t i = 0, n = next_u64() % 6; i < n; i++) {
            char k[16];
            snprintf(k, sizeof k, "k%llu", (unsigned long long)(next_u64() % 1000));
            cJSON_AddItemToObject(o, k, random_value(depth + 1));
        }
        return o;
    }
    }
}

static void test_random(void **state)
{
    (void)state;
    for (int t = 0; t < 300; t++) {
        cJSON *j = random_value(0);
        same(j);
        cJSON_Delete(j);
    }
}

static void test_null(void **state)
{
    (void)state;
    assert_null(json_print(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_structure),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
