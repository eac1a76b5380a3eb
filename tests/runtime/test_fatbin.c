/* test_fatbin.c - the fatbinary reader (src/cudart/fatbin.c) on committed fatbinaries:
 * the .nv_fatbin sections of tests/runtime/rt_vecadd.cu built by CUDA 13.0's nvcc
 * (`objcopy -O binary --only-section=.nv_fatbin`):
 *   vecadd_zstd.fatbin   -gencode arch=compute_75,code=compute_75 (PTX, zstd: the default)
 *   vecadd_plain.fatbin  the same with -no-compress
 *   vecadd_sass.fatbin   -gencode arch=compute_75,code=sm_75 (SASS only)
 *   vecadd_multi.fatbin  compute_75 and compute_86 PTX, sm_80 SASS (two entries)
 *   vecadd_lz4.fatbin    -gencode arch=compute_75,code=compute_75 --compress-mode=speed
 *                        (PTX as an LZ4 block, flags 0x2011: the format CUDA 12's nvcc
 *                        emits by default)
 * e.g. nvcc -cudart shared -gencode arch=compute_75,code=compute_75 --compress-mode=speed
 *        -o v tests/runtime/rt_vecadd.cu &&
 *      objcopy -O binary --only-section=.nv_fatbin v tests/runtime/data/vecadd_lz4.fatbin
 * and on corrupt and truncated copies of them: every bad image gives a message, none
 * crashes (the sanitizer build checks no byte outside the image is read). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include <cmocka.h>

#include "cudart/fatbin.h"
#include "gpu/sim.h"
#include "util/config.h"
#include "util/err.h"

#define KERNEL "_Z6vecaddPKfS0_Pfi"

static uint8_t *load(const char *name, size_t *len)
{
    char path[512], err[300];
    snprintf(path, sizeof path, "%s/%s", WS_RT_DATA, name);
    uint8_t *p = (uint8_t *)ws_read_file(path, len, 1 << 20, err, sizeof err);
    if (!p)
        fail_msg("%s", err);
    return p;
}

/* A private copy of exactly len bytes, so reading past it is an ASan error. */
static uint8_t *dup_n(const uint8_t *p, size_t len)
{
    uint8_t *q = malloc(len ? len : 1);
    assert_non_null(q);
    memcpy(q, p, len);
    return q;
}

static void ptx_loads(const char *ptx, size_t len)
{
    ws_config cfg;
    ws_config_defaults(&cfg);
    ws_sim *s = ws_sim_create(&cfg);
    assert_non_null(s);
    ws_module *m = NULL;
    char err[512] = "";
    assert_int_equal(ws_module_load(s, ptx, len, "fatbin", &m, err, sizeof err), WS_OK);
    assert_true(ws_module_kernel(m, KERNEL) >= 0);
    ws_module_unload(s, m);
    ws_sim_destroy(s);
}

static void test_zstd(void **st)
{
    (void)st;
    size_t len, n = 0;
    uint8_t *img = load("vecadd_zstd.fatbin", &len);
    ws_fatbin_entry e[4];
    char err[300] = "";
    assert_int_equal(ws_fatbin_entries(img, len, e, 4, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    assert_int_equal(e[0].kind, WS_FATBIN_KIND_PTX);
    assert_int_equal(e[0].arch, 75);
    assert_int_equal(e[0].ptx_major, 9);
    assert_true(e[0].flags & WS_FATBIN_FLAG_ZSTD);
    assert_memory_equal(e[0].payload, "\x28\xb5\x2f\xfd", 4);   /* zstd frame magic */
    size_t plen = 0;
    uint32_t arch = 0;
    char *ptx = ws_fatbin_ptx(img, len, WS_FATBIN_MAX_ARCH, &plen, &arch, err, sizeof err);
    assert_non_null(ptx);
    assert_int_equal(arch, 75);
    assert_int_equal(strlen(ptx), plen);
    assert_int_equal(plen, e[0].uncompressed_size ? strnlen(ptx, e[0].uncompressed_size) : plen);
    assert_non_null(strstr(ptx, ".entry " KERNEL));
    ptx_loads(ptx, plen);

    /* the uncompressed build holds the same PTX text */
    size_t len2;
    uint8_t *img2 = load("vecadd_plain.fatbin", &len2);
    size_t plen2 = 0;
    char *ptx2 = ws_fatbin_ptx(img2, len2, WS_FATBIN_MAX_ARCH, &plen2, NULL, err, sizeof err);
    assert_non_null(ptx2);
    assert_non_null(strstr(ptx2, ".entry " KERNEL));
    assert_string_equal(ptx, ptx2);
    free(ptx);
    free(ptx2);
    free(img);
    free(img2);
}

static void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* LZ4 (CUDA 12's default compression): the same PTX text as the uncompressed build. */
static void test_lz4(void **st)
{
    (void)st;
    size_t len, n = 0;
    uint8_t *img = load("vecadd_lz4.fatbin", &len);
    ws_fatbin_entry e[4];
    char err[300] = "";
    assert_int_equal(ws_fatbin_entries(img, len, e, 4, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    assert_int_equal(e[0].kind, WS_FATBIN_KIND_PTX);
    assert_int_equal(e[0].arch, 75);
    assert_int_equal(e[0].flags, 0x2011);
    assert_true(e[0].compressed_size < e[0].payload_size);   /* the payload is padded */
    assert_true(e[0].uncompressed_size > e[0].compressed_size);
    size_t plen = 0, plen2 = 0;
    uint32_t arch = 0;
    char *ptx = ws_fatbin_ptx(img, len, WS_FATBIN_MAX_ARCH, &plen, &arch, err, sizeof err);
    assert_non_null(ptx);
    assert_int_equal(arch, 75);
    assert_int_equal(strlen(ptx), plen);
    assert_int_equal(plen + 1, e[0].uncompressed_size);   /* the text and its NUL */
    size_t len2;
    uint8_t *img2 = load("vecadd_plain.fatbin", &len2);
    char *ptx2 = ws_fatbin_ptx(img2, len2, WS_FATBIN_MAX_ARCH, &plen2, NULL, err, sizeof err);
    assert_non_null(ptx2);
    assert_string_equal(ptx, ptx2);
    ptx_loads(ptx, plen);
    free(ptx);
    free(ptx2);
    free(img);
    free(img2);
}

/* Corrupt LZ4 entries: each a message naming LZ4, never a crash, and no allocation of
 * what a header claims beyond what the block actually produces. */
static void test_lz4_corrupt(void **st)
{
    (void)st;
    size_t len, plen;
    uint8_t *img = load("vecadd_lz4.fatbin", &len);
    const size_t e = 32, pay = e + 80;   /* the entry of the second container; its block */
    uint32_t csz = (uint32_t)img[e + 16] | (uint32_t)img[e + 17] << 8;
    uint32_t usz = (uint32_t)img[e + 56] | (uint32_t)img[e + 57] << 8;
    assert_int_equal(img[e + 40 + 1], 0x20);
    static const struct { int which; uint32_t value; const char *want; } cases[] = {
        {56, 0, "less than its declared size"},            /* usz + 1 */
        {57, 0, "more than its declared size"},            /* usz - 1 */
        {58, 0x40000000u, "implausible"},                  /* 1 GiB declared: refused */
        {58, 200u << 20, "less than its declared size"},   /* 200 MiB declared, ~1 KB real */
        {16, 0, "exceeds the payload"},                    /* compressed size > payload */
        {17, 0, "LZ4"},                                    /* block cut short by 40 bytes */
        {18, 0, "LZ4"},                                    /* block 1 byte longer (padding) */
    };
    char err[300];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint8_t *q = dup_n(img, len);
        switch (cases[k].which) {
        case 56: put_le32(q + e + 56, usz + 1); break;
        case 57: put_le32(q + e + 56, usz - 1); break;
        case 58: put_le32(q + e + 56, cases[k].value); break;
        case 16: put_le32(q + e + 16, 0x10000); break;
        case 17: put_le32(q + e + 16, csz - 40); break;
        case 18: put_le32(q + e + 16, csz + 1); break;
        }
        err[0] = 0;
        char *ptx = ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err);
        if (ptx)
            fail_msg("case %zu decoded", k);
        if (!strstr(err, cases[k].want))
            fail_msg("case %zu: '%s' lacks '%s'", k, err, cases[k].want);
        free(q);
    }
    /* damaged block bytes: an LZ4 error, or (if LZ4 cannot tell) bounded text */
    for (size_t at = pay; at < pay + csz; at += 7) {
        uint8_t *q = dup_n(img, len);
        q[at] ^= 0xa5;
        err[0] = 0;
        char *ptx = ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err);
        if (ptx)
            assert_true(strlen(ptx) == plen && plen < usz);
        else
            assert_non_null(strstr(err, "LZ4"));
        free(ptx);
        free(q);
    }
    free(img);
}

static void test_container_size(void **st)
{
    (void)st;
    size_t len;
    uint8_t *img = load("vecadd_zstd.fatbin", &len);
    char err[300] = "";
    /* the section starts with an empty container, then the real one */
    assert_int_equal(ws_fatbin_container_size(img, err, sizeof err), 16);
    size_t real = ws_fatbin_container_size(img + 16, err, sizeof err);
    assert_true(real > 16 && 16 + real <= len);
    size_t plen;
    char *ptx = ws_fatbin_ptx(img + 16, real, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err);
    assert_non_null(ptx);
    free(ptx);
    uint8_t junk[16] = {1, 2, 3, 4};
    assert_int_equal(ws_fatbin_container_size(junk, err, sizeof err), 0);
    assert_non_null(strstr(err, "magic"));
    free(img);
}

static void test_sass_only(void **st)
{
    (void)st;
    size_t len, plen;
    uint8_t *img = load("vecadd_sass.fatbin", &len);
    char err[300] = "";
    assert_null(ws_fatbin_ptx(img, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "only SASS (sm_75)"));
    assert_non_null(strstr(err, "-gencode arch=compute_75,code=compute_75"));
    free(img);
}

static void test_arch_choice(void **st)
{
    (void)st;
    size_t len, plen, n = 0;
    uint8_t *img = load("vecadd_multi.fatbin", &len);
    char err[300] = "";
    ws_fatbin_entry e[8];
    assert_int_equal(ws_fatbin_entries(img, len, e, 8, &n, err, sizeof err), 0);
    assert_int_equal(n, 4);   /* SASS entries come in pairs */
    uint32_t arch = 0;
    char *ptx = ws_fatbin_ptx(img, len, WS_FATBIN_MAX_ARCH, &plen, &arch, err, sizeof err);
    assert_non_null(ptx);
    assert_int_equal(arch, 86);   /* the highest PTX */
    free(ptx);
    ptx = ws_fatbin_ptx(img, len, 80, &plen, &arch, err, sizeof err);
    assert_non_null(ptx);
    assert_int_equal(arch, 75);   /* the highest at or below the limit */
    free(ptx);
    assert_null(ws_fatbin_ptx(img, len, 70, &plen, &arch, err, sizeof err));
    assert_non_null(strstr(err, "newer than warpsim accepts"));
    free(img);
}

/* Every prefix of every image: an error or a valid result, never a read outside it. */
static void test_truncated(void **st)
{
    (void)st;
    static const char *const names[] = {"vecadd_zstd.fatbin", "vecadd_plain.fatbin",
                                        "vecadd_sass.fatbin", "vecadd_multi.fatbin",
                                        "vecadd_lz4.fatbin"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        size_t len;
        uint8_t *img = load(names[k], &len);
        for (size_t cut = 0; cut < len; cut++) {
            uint8_t *q = dup_n(img, cut);
            char err[300] = "";
            size_t plen;
            char *ptx = ws_fatbin_ptx(q, cut, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err);
            if (cut + 8 < len) {   /* only trailing padding may be cut off */
                assert_null(ptx);
                assert_true(err[0] != 0);
            }
            free(ptx);
            free(q);
        }
        free(img);
    }
}

static void test_corrupt(void **st)
{
    (void)st;
    size_t len, plen;
    uint8_t *img = load("vecadd_zstd.fatbin", &len);
    char err[300] = "";
    const size_t c = 16, e = 32;   /* second container; its first entry */

    uint8_t *q = dup_n(img, len);
    q[c] ^= 0xff;   /* container magic */
    assert_null(ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "bad container magic"));
    free(q);

    q = dup_n(img, len);
    q[e + 8 + 5] = 0x7f;   /* entry payload size far beyond the image */
    assert_null(ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "truncated or corrupt"));
    free(q);

    q = dup_n(img, len);
    q[e + 4] = 8;   /* entry header smaller than its fields */
    assert_null(ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "corrupt"));
    free(q);

    q = dup_n(img, len);
    q[e + 40 + 1] = 0x20;   /* flags: LZ4 instead of zstd: the zstd frame is no LZ4 block */
    assert_null(ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "LZ4"));
    free(q);

    q = dup_n(img, len);
    q[e + 40 + 1] = 0x01;   /* an unknown compression flag */
    assert_null(ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "unknown compression"));
    free(q);

    q = dup_n(img, len);
    for (size_t i = e + 80 + 12; i < e + 80 + 60; i++)   /* damage the zstd stream */
        q[i] ^= 0x5a;
    char *ptx = ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err);
    if (ptx)   /* zstd may decode garbage without noticing; it is then bounded text */
        assert_true(strlen(ptx) == plen);
    else
        assert_non_null(strstr(err, "zstd"));
    free(ptx);
    free(q);

    q = dup_n(img, len);
    q[e + 56 + 3] ^= 0x40;   /* header's uncompressed size disagrees with the zstd frame */
    assert_null(ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "entry header says"));
    free(q);

    /* The same frame without a content size (descriptor 0x00 and a 1 KiB window instead of
     * 0x60 and the 2-byte size): only the entry header's size bounds the output, and the
     * streaming decoder must hold the output to it. */
    static const struct { uint32_t hdr; const char *want; } unk[] = {
        {0x400003e1u, "implausible"},             /* 1 GiB declared: refused up front */
        {500u, "more than its declared size"},    /* the frame holds 993 bytes */
        {993u, NULL},                             /* exact: decodes */
    };
    for (size_t k = 0; k < sizeof unk / sizeof unk[0]; k++) {
        q = dup_n(img, len);
        uint8_t *f = q + e + 80;                   /* the zstd frame */
        assert_int_equal(f[4], 0x60);
        f[4] = 0x00;
        f[5] = 0x00;
        memmove(f + 6, f + 7, len - (size_t)(f + 7 - q));
        uint32_t csz = (uint32_t)q[e + 16] | (uint32_t)q[e + 17] << 8;
        put_le32(q + e + 16, csz - 1);
        put_le32(q + e + 56, unk[k].hdr);
        ptx = ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err);
        if (unk[k].want) {
            assert_null(ptx);
            assert_non_null(strstr(err, unk[k].want));
        } else {
            assert_non_null(ptx);
            assert_non_null(strstr(ptx, ".entry"));
        }
        free(ptx);
        free(q);
    }

    q = dup_n(img, len);
    q[e] = 3;   /* an entry kind other than PTX or ELF: no PTX left */
    assert_null(ws_fatbin_ptx(q, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err));
    assert_non_null(strstr(err, "no PTX"));
    free(q);
    free(img);
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

/* A 10 MB fatbinary (999 SASS entries of 10 kB, then 1 MB of PTX text) is read in well
 * under a second (issue 15: < 1 s). */
static void test_large(void **st)
{
    (void)st;
    const size_t n_sass = 999, sass = 10000, ptx = 1 << 20, eh = 80;
    size_t body = n_sass * (eh + sass) + eh + ptx, len = 16 + body;
    uint8_t *img = calloc(1, len);
    assert_non_null(img);
    put32(img, WS_FATBIN_MAGIC);
    put16(img + 4, 1);
    put16(img + 6, 16);
    put64(img + 8, body);
    uint8_t *e = img + 16;
    for (size_t i = 0; i <= n_sass; i++) {
        int is_ptx = i == n_sass;
        put16(e, is_ptx ? WS_FATBIN_KIND_PTX : WS_FATBIN_KIND_ELF);
        put32(e + 4, (uint32_t)eh);
        put64(e + 8, is_ptx ? ptx : sass);
        put32(e + 28, 75);
        put64(e + 40, 0x11);
        e += eh;
        if (is_ptx) {
            static const char head[] = ".version 9.0\n.target sm_75\n.address_size 64\n";
            memset(e, '\n', ptx);
            memcpy(e, head, sizeof head - 1);
        }
        e += is_ptx ? ptx : sass;
    }
    assert_int_equal((size_t)(e - img), len);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char err[300] = "";
    size_t plen = 0;
    char *text = ws_fatbin_ptx(img, len, WS_FATBIN_MAX_ARCH, &plen, NULL, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_non_null(text);
    assert_int_equal(plen, ptx);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    assert_true(s < 1.0);
    free(text);
    free(img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zstd),          cmocka_unit_test(test_container_size),
        cmocka_unit_test(test_sass_only),     cmocka_unit_test(test_arch_choice),
        cmocka_unit_test(test_truncated),     cmocka_unit_test(test_corrupt),
        cmocka_unit_test(test_large),         cmocka_unit_test(test_lz4),
        cmocka_unit_test(test_lz4_corrupt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
